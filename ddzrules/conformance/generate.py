"""Generating a suite: the ``classify``, ``compare``, ``moves``, ``census`` and ``games``
vectors of a spec (with :mod:`~ddzrules.conformance.beats` and
:mod:`~ddzrules.conformance.perft`), and writing the suite's directory."""

from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
import stat
from collections import defaultdict
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from ddzrules import __version__
from ddzrules import cards as C
from ddzrules.conformance.beats import (
    gen_beats,
)
from ddzrules.conformance.common import (
    ACE,
    CATEGORIES,
    FORMAT,
    LEVELS,
    Level,
    Limits,
    Suite,
    Universe,
    deal_sizes,
    draw_wild,
    moves_vector,
    play_sort_key,
    reading_dict,
    wild_ranks,
    wild_text,
)
from ddzrules.conformance.perft import (
    gen_perft,
)
from ddzrules.errors import (
    DdzError,
)
from ddzrules.rules.moves import Move
from ddzrules.untrusted import (
    not_regular,
)
from ddzrules.variant import Variant

# ====================================================================== classify


def _classify_vector(v: Variant, cards: str, covers: str, wild: C.WildKey | None = None) -> dict[str, Any]:
    readings = v.classify(cards, wild=wild)
    vec: dict[str, Any] = {"cards": cards}
    if wild is not None:
        vec["wild"] = wild_text(wild)
    seen: dict[tuple[str, str, int], dict[str, Any]] = {}
    for m in readings:
        d = reading_dict(m)
        seen.setdefault((d["combo"], d["rank"], d["length"]), d)
    vec["expect"] = {"play": bool(readings), "readings": [seen[k] for k in sorted(seen)]}
    vec["covers"] = covers
    return vec


def _neighbours(counts: list[int], deck: list[int]) -> Iterator[list[int]]:
    """Card sets one step from ``counts``: a card added, removed, or moved up a rank."""
    for r in range(C.NUM_RANKS):
        if counts[r] < deck[r]:
            c = list(counts)
            c[r] += 1
            yield c
    for r in range(C.NUM_RANKS):
        if counts[r]:
            c = list(counts)
            c[r] -= 1
            if sum(c):
                yield c
            if r + 1 < C.NUM_RANKS and c[r + 1] < deck[r + 1]:
                c2 = list(c)
                c2[r + 1] += 1
                yield c2


def _shifted(counts: list[int], deck: list[int]) -> list[int] | None:
    """Every card one rank higher (a chain ending at A becomes one running into 2)."""
    if counts[-1]:
        return None
    c = [0] + counts[:-1]
    return c if all(x <= d for x, d in zip(c, deck)) else None


# over the complexity bound on purpose: one pass over the universe's kinds of classify vector
def gen_classify(v: Variant, u: Universe, level: Level, rng: random.Random) -> list[dict[str, Any]]:  # noqa: C901
    out: dict[str, dict[str, Any]] = {}

    def add(cards: str, covers: str) -> None:
        if not cards:
            return
        if cards not in out:
            out[cards] = _classify_vector(v, cards, covers)
        elif covers not in out[cards]["covers"].split(", ") and not covers.endswith("/universe"):
            out[cards]["covers"] += ", " + covers  # one card set at several boundaries

    deck = list(v.rules.deck)
    for info in v.rules.combos:
        plays = u.by_combo.get(info.name, [])
        if not plays:
            continue
        lengths = sorted({m.length for m in plays})
        boundary: list[Move] = []
        for length in lengths:
            of_len = [m for m in plays if m.length == length]
            lo = min(of_len, key=lambda m: (m.rank, play_sort_key(m.cards)))
            hi = max(of_len, key=lambda m: (m.rank, [-x for x in play_sort_key(m.cards)[:1]]))
            tag = ("shortest" if length == lengths[0] else "longest" if length == lengths[-1]
                   else f"length-{length}") if len(lengths) > 1 else "group"
            add(lo.cards, f"{info.name}/{tag}-lowest")
            add(hi.cards, f"{info.name}/{tag}-highest")
            boundary += [lo, hi]
            ace = [m for m in of_len if m.rank == ACE]
            if length > 1 and ace:
                a = min(ace, key=lambda m: play_sort_key(m.cards))
                add(a.cards, f"{info.name}/{tag}-ends-at-A")
                boundary.append(a)
                shifted = _shifted(C.unpack(a.packed), deck)
                if shifted is not None:
                    add(C.counts_to_string(shifted), f"{info.name}/{tag}-runs-into-2")
        smallest = min(plays, key=lambda m: play_sort_key(m.cards))
        largest = max(plays, key=lambda m: play_sort_key(m.cards))
        add(smallest.cards, f"{info.name}/fewest-cards")
        add(largest.cards, f"{info.name}/most-cards")
        # near misses: one card away from a boundary play and no combo at all
        misses: list[str] = []
        for m in boundary:
            for c in _neighbours(C.unpack(m.packed), deck):
                s = C.counts_to_string(c)
                if s not in u.table and s not in out and s not in misses:
                    misses.append(s)
        for s in sorted(misses, key=play_sort_key)[:level.near_misses]:
            add(s, f"{info.name}/near-miss")
    multi = [s for s in u.strings if len(u.table[s]) > 1]
    if level.multi_readings is not None and len(multi) > level.multi_readings:
        multi = sorted(rng.sample(multi, level.multi_readings), key=play_sort_key)
    for s in multi:
        add(s, "readings/several")
    # random card sets of play sizes that are no play
    full = C.deck_list(deck)
    found = 0
    for _ in range(level.random_nonplays * 20):
        if found >= level.random_nonplays:
            break
        size = rng.randint(2, min(v.rules.max_hand, len(full)))
        s = C.counts_to_string(C.counts_of(rng.sample(full, size)))
        if s not in u.table and s not in out:
            add(s, "non-play/random")
            found += 1
    if level.whole_universe:
        for s in u.strings:
            add(s, f"{u.table[s][0].combo}/universe")
    vectors = list(out.values())
    vectors += _wild_classify(v, u, level, rng)
    return vectors


def _wild_classify(v: Variant, u: Universe, level: Level, rng: random.Random) -> list[dict[str, Any]]:
    """Wildcard readings: natural plays with some cards turned into wild cards."""
    if not wild_ranks(v):
        return []
    out: list[dict[str, Any]] = []
    seen: set[tuple[str, C.WildKey]] = set()
    per_combo = max(1, level.pairs_per_class)
    for info in v.rules.combos:
        plays = u.by_combo.get(info.name, [])
        for m in rng.sample(plays, min(per_combo, len(plays))):
            w = draw_wild(v, rng)
            assert w is not None
            wilds = C.wild_tuple(w)
            counts = C.unpack(m.packed)
            natural = [r for r in range(C.NUM_RANKS) if counts[r] and r not in wilds]
            k = rng.randint(1, 4)
            for _ in range(k):
                room = [x for x in wilds if counts[x] < v.rules.deck[x]]
                if not natural or not room:
                    break
                r = rng.choice(natural)
                counts[r] -= 1
                counts[room[0] if len(room) == 1 else rng.choice(room)] += 1
                natural = [x for x in range(C.NUM_RANKS) if counts[x] and x not in wilds]
            s = C.counts_to_string(counts)
            if (s, w) not in seen:
                seen.add((s, w))
                out.append(_classify_vector(v, s, f"{info.name}/wild", w))
    return out


# ====================================================================== compare


def _compare_vector(v: Variant, a: Move | str, b: Move | str, covers: str,
                    wild: C.WildKey | None = None) -> dict[str, Any]:
    ca = a.cards if isinstance(a, Move) else a
    cb = b.cards if isinstance(b, Move) else b
    vec: dict[str, Any] = {"a": ca, "b": cb}
    if wild is not None:
        vec["wild"] = wild_text(wild)
    vec["expect"] = {"a_beats_b": v.beats(ca, cb, wild=wild), "b_beats_a": v.beats(cb, ca, wild=wild)}
    vec["covers"] = covers
    return vec


def gen_compare(v: Variant, u: Universe, level: Level, rng: random.Random) -> list[dict[str, Any]]:
    """Pairs from every pair of combo classes (and so every pair of bomb tiers)."""
    out: list[dict[str, Any]] = []
    seen: set[tuple[str, str]] = set()

    def add(a: Move, b: Move, covers: str) -> None:
        if (a.cards, b.cards) not in seen and a.cards != b.cards:
            seen.add((a.cards, b.cards))
            out.append(_compare_vector(v, a, b, covers))

    families_of: dict[str, list[tuple[str, int, int]]] = defaultdict(list)
    for fam in sorted(u.unique_by_family):
        families_of[fam[0]].append(fam)
    combos = [c.name for c in v.rules.combos if families_of.get(c.name)]
    n = level.pairs_per_class
    for ca in combos:
        for cb in combos:
            for _ in range(n):
                fa = rng.choice(families_of[ca])
                a = rng.choice(u.unique_by_family[fa])
                if ca == cb:
                    same = u.unique_by_family[fa]
                    lower = [m for m in same if m.rank < a.rank]
                    equal = [m for m in same if m.rank == a.rank and m.cards != a.cards]
                    if lower:
                        add(a, rng.choice(lower), f"{ca}/higher-rank")
                    if equal:
                        add(a, rng.choice(equal), f"{ca}/equal-rank")
                    other = [f for f in families_of[ca] if f != fa]
                    if other and a.tier < 0:
                        add(a, rng.choice(u.unique_by_family[rng.choice(other)]), f"{ca}/other-length")
                else:
                    b = rng.choice(u.unique_by_family[rng.choice(families_of[cb])])
                    ta = f"tier-{a.tier}" if a.tier >= 0 else "plain"
                    tb = f"tier-{b.tier}" if b.tier >= 0 else "plain"
                    add(a, b, f"{ca}-vs-{cb}/{ta}-vs-{tb}")
    if wild_ranks(v):  # wild readings: a pair drawn from wild hands' legal plays
        full = C.deck_list(v.rules.deck)
        for _ in range(level.wild_hands):
            w = draw_wild(v, rng)
            assert w is not None
            wilds = C.wild_tuple(w)
            hand = C.counts_of(rng.sample(full, 17))
            one = wilds[0] if len(wilds) == 1 else rng.choice(wilds)
            hand[one] = min(v.rules.deck[one], hand[one] + rng.randint(1, 2))
            plays = [m for m in v.legal_moves(C.counts_to_string(hand), wild=w) if m.substitution]
            if len(plays) < 2:
                continue
            a, b = rng.sample(plays, 2)
            out.append(_compare_vector(v, a.cards, b.cards, f"{a.combo}-vs-{b.combo}/wild", w))
    return out


# ====================================================================== moves


def _hard_hands(v: Variant, size: int) -> list[tuple[str, str]]:
    """Crafted hands that stress a lister: planes, many bombs, both jokers, long chains."""
    deck = list(v.rules.deck)
    chain_top = ACE
    out: list[tuple[str, str]] = []

    def fill(per_rank: int, ranks: list[int], extra: list[int]) -> list[int]:
        c = [0] * C.NUM_RANKS
        n = 0
        for r in extra:
            if deck[r] > c[r] and n < size:
                c[r] += 1
                n += 1
        for r in ranks:
            take = min(per_rank, deck[r], size - n)
            c[r] += take
            n += take
        return c

    low = list(range(chain_top + 1))
    jokers = [r for r in C.JOKERS if deck[r]]
    out.append(("hard/plane-heavy", C.counts_to_string(fill(3, low, jokers[:1] + [chain_top + 1]))))
    out.append(("hard/many-bombs", C.counts_to_string(fill(4, low, []))))
    out.append(("hard/both-jokers", C.counts_to_string(fill(2, low, jokers + [chain_top + 1]))))
    out.append(("hard/long-chains", C.counts_to_string(fill(1, low + [chain_top + 1] + jokers, []))))
    out.append(("hard/pairs", C.counts_to_string(fill(2, list(reversed(low)), []))))
    return [(t, h) for t, h in out if h]


def _a_lead(v: Variant, hand: str, rng: random.Random, answering: str | None = None,
            wild: C.WildKey | None = None) -> str | None:
    """A random play of ``hand`` with a single reading (so every engine reads it alike);
    one that ``answering`` can beat when a few tries find one (an empty answer tests little)."""
    plays = sorted((m.cards for m in v.legal_moves(hand) if len(v.classify(m.cards)) == 1),
                   key=play_sort_key)
    if not plays:
        return None
    tries = [rng.choice(plays) for _ in range(8)]
    if answering is not None:
        for p in tries:
            if len(v.legal_moves(answering, after=p, wild=wild)):
                return p
    return tries[0]


def gen_moves(v: Variant, u: Universe, level: Level, rng: random.Random) -> list[dict[str, Any]]:
    _, hand_size, kitty = deal_sizes(v)
    full = C.deck_list(v.rules.deck)
    sizes = sorted({min(hand_size, v.rules.max_hand), min(hand_size + kitty, v.rules.max_hand)})
    out: list[dict[str, Any]] = []
    for i in range(level.random_hands):
        size = sizes[i % len(sizes)]
        deck = list(full)
        rng.shuffle(deck)
        hand = C.counts_to_string(C.counts_of(deck[:size]))
        other = C.counts_to_string(C.counts_of(deck[size:2 * size]))
        out.append(moves_vector(v, hand, None, f"random/lead-{size}"))
        after = _a_lead(v, other, rng, hand)
        if after is not None:
            out.append(moves_vector(v, hand, after, f"{u.table[after][0].combo}/answer-{size}"))
    for size in sizes:
        for tag, hand in _hard_hands(v, size):
            out.append(moves_vector(v, hand, None, f"{tag}-lead-{size}"))
            deck = [c for c in full]
            rng.shuffle(deck)
            other = C.counts_to_string(C.counts_of(deck[:size]))
            after = _a_lead(v, other, rng, hand)
            if after is not None:
                out.append(moves_vector(v, hand, after, f"{tag}-answer-{size}"))
    for i in range(level.wild_hands if wild_ranks(v) else 0):
        w = draw_wild(v, rng)
        assert w is not None
        wilds = C.wild_tuple(w)
        size = sizes[i % len(sizes)]
        deck = list(full)
        rng.shuffle(deck)
        counts = C.counts_of(deck[:size])
        have = sum(v.rules.deck[x] for x in wilds)
        want = 1 + i % min(4 * len(wilds), have)  # 1..4 wild cards a wild rank
        while sum(counts[x] for x in wilds) < want:  # swap a natural card for a wild one
            r = max(x for x in range(C.NUM_RANKS) if counts[x] and x not in wilds)
            counts[r] -= 1
            room = [x for x in wilds if counts[x] < v.rules.deck[x]]
            counts[room[i % len(room)]] += 1
        hand = C.counts_to_string(counts)
        n = sum(counts[x] for x in wilds)
        if i % 2 == 0:
            out.append(moves_vector(v, hand, None, f"wild/lead-{n}-wilds", w))
        else:
            other = C.counts_to_string(C.counts_of(deck[size:2 * size]))
            after = _a_lead(v, other, rng, hand, w)
            out.append(moves_vector(v, hand, after, f"wild/answer-{n}-wilds", w))
    return out + gen_beats(v, u)  # last, so the vectors before keep their ids


# ====================================================================== census


def gen_census(v: Variant) -> list[dict[str, Any]]:
    c = v.census()
    out: list[dict[str, Any]] = [{"combo": name, "expect": {"plays": n}, "covers": f"{name}/census"}
                                 for name, n in c.by_combo.items()]
    out.append({"combo": None, "expect": {"plays": c.total}, "covers": "universe/census"})
    return out


# ====================================================================== games


def action_string(a: Any) -> str:
    """An action as vectors list it: ``play 33344469``, ``pass``, ``bid 2``, ``show 3`` …"""
    return str(a)


def gen_games(v: Variant, level: Level, seed: int) -> list[dict[str, Any]]:
    """Whole seeded games between the bundled bots (heuristic in seat 0, random elsewhere)."""
    if not v.spec.rule_spec.game:
        return []
    from ddzrules.bots import make_bot
    from ddzrules.records import game_record
    from ddzrules.runtime import GameRules, MatchInfo
    from ddzrules.simulate import game_seed

    rules = GameRules(v)
    out: list[dict[str, Any]] = []
    for i in range(level.games):
        gseed = game_seed(seed, i)
        agents = [make_bot("heuristic" if s == 0 else "random", gseed + 101 * (s + 1))
                  for s in range(rules.players)]
        game = rules.new_game(gseed, MatchInfo(i, seed))
        checks: dict[str, list[str]] = {}
        step = 0
        while not game.over:
            seat = game.to_act
            assert seat is not None
            legal = game.legal_actions()
            if step % level.checks_every == 0:
                checks[str(len(game.history))] = sorted(action_string(a) for a in legal)
            game.apply(agents[seat].act(game.view(seat), legal))
            step += 1
        record = game_record(game)
        out.append({
            "seed": gseed, "match": record["match"], "deals": record["deals"],
            "actions": record["actions"], "checks": checks,
            "expect": {"landlord": record["landlord"], "stake": record["stake"],
                       "multiple": record["multiple"], "events": [e["name"] for e in record["events"]],
                       "winner": record["winner"], "scores": record["scores"]},
            "covers": f"games/{'-'.join(name for _, name, _ in rules.active)}",
        })
    return out


# ====================================================================== suites


def generate(v: Variant, level: str = "standard", seed: int = 0,
             progress: Callable[[str], None] | None = None, limits: Limits | None = None) -> Suite:
    """Generate every category's vectors for ``v`` (deterministic in spec, seed and level),
    within what a run with ``limits`` (the defaults of ``conformance run``) accepts."""
    try:
        lv = LEVELS[level]
    except KeyError:
        raise DdzError(f"unknown level {level!r}; choose from {', '.join(LEVELS)}") from None
    u = Universe(v)

    def rng_for(category: str) -> random.Random:
        digest = hashlib.sha256(f"ddzrules-suite:{seed}:{category}".encode()).digest()
        return random.Random(int.from_bytes(digest[:8], "big"))

    makers: dict[str, Callable[[], list[dict[str, Any]]]] = {
        "classify": lambda: gen_classify(v, u, lv, rng_for("classify")),
        "compare": lambda: gen_compare(v, u, lv, rng_for("compare")),
        "moves": lambda: gen_moves(v, u, lv, rng_for("moves")),
        "census": lambda: gen_census(v),
        "perft": lambda: gen_perft(v, lv, rng_for("perft"), limits),
        "games": lambda: gen_games(v, lv, seed),
    }
    vectors: dict[str, list[dict[str, Any]]] = {}
    for category in CATEGORIES:
        if progress:
            progress(category)
        vs = makers[category]()
        vectors[category] = [{"id": f"{category}-{i + 1:06d}", **vec} for i, vec in enumerate(vs)]
    manifest = {
        "format": FORMAT,
        "spec": v.name,
        "spec_hash": v.spec.content_hash,
        "spec_resolved": v.spec.data,
        "ddzrules_version": __version__,
        "seed": seed,
        "level": level,
        "counts": {c: len(vectors[c]) for c in CATEGORIES},
        "files": {},
    }
    return Suite(manifest, vectors)


def _jsonl(vectors: list[dict[str, Any]]) -> bytes:
    return "".join(json.dumps(vec, ensure_ascii=False, sort_keys=False, separators=(",", ":")) + "\n"
                   for vec in vectors).encode("utf-8")


def check_suite_directory(directory: str | Path) -> Path:
    """The directory a suite is to be written to, checked before any work: a
    :class:`DdzError` when it is something else than a directory (or nothing yet), or when
    a file the suite writes is there as something else than a regular file or a symlink (a
    directory, which cannot be replaced; a FIFO is replaced, never written into)."""
    d = Path(directory)
    if not str(directory):
        raise DdzError("-o: a directory name is needed, not an empty one")
    try:
        st = os.stat(d)
    except FileNotFoundError:
        # made by write_suite, in a folder that is there (as every file a command writes)
        parent = d.absolute().parent
        if not parent.is_dir():
            raise DdzError(f"cannot write the suite to {d}: the directory {parent} does not exist") from None
        return d
    except OSError as e:
        raise DdzError(f"cannot write the suite to {d}: {e.strerror or e}") from None
    if not stat.S_ISDIR(st.st_mode):
        raise DdzError(f"cannot write the suite to {d}: {not_regular(st.st_mode) or 'a file'}, "
                       "not a directory")
    for name in [f"{c}.jsonl" for c in CATEGORIES] + ["manifest.json"]:
        try:
            mode = os.lstat(d / name).st_mode
        except FileNotFoundError:
            continue
        except OSError as e:
            raise DdzError(f"cannot write the suite to {d}: {e.strerror or e}") from None
        if stat.S_ISDIR(mode):
            raise DdzError(f"cannot write the suite to {d}: {name} there is a directory")
    return d


def write_suite(suite: Suite, directory: str | Path) -> Path:
    """Write a suite as a directory (created if needed; its category files replaced). Each
    file is written to a temporary name and renamed into place, the manifest last: a write
    that fails leaves no half-written file under a suite's name."""
    d = check_suite_directory(directory)
    temps: list[Path] = []
    made = False
    try:
        if not d.is_dir():
            d.mkdir()
            made = True
        files: dict[str, dict[str, Any]] = {}
        staged: list[tuple[Path, Path]] = []
        for category, vectors in suite.vectors.items():
            data = _jsonl(vectors)
            name = f"{category}.jsonl"
            temp = d / f".{name}.{os.getpid()}.tmp"
            temps.append(temp)
            temp.write_bytes(data)
            staged.append((temp, d / name))
            files[category] = {"file": name, "sha256": hashlib.sha256(data).hexdigest(),
                               "vectors": len(vectors)}
        suite.manifest["files"] = files
        temp = d / f".manifest.json.{os.getpid()}.tmp"
        temps.append(temp)
        temp.write_text(json.dumps(suite.manifest, ensure_ascii=False, indent=1, sort_keys=False) + "\n",
                        encoding="utf-8")
        staged.append((temp, d / "manifest.json"))
        for source, target in staged:
            os.replace(source, target)
    except OSError as e:
        raise DdzError(f"cannot write the suite to {d}: {e.strerror or e}") from None
    finally:
        for temp in temps:
            if temp.exists():
                temp.unlink()
        if made and not (d / "manifest.json").exists():
            shutil.rmtree(d, ignore_errors=True)  # a suite not written leaves no folder of its own
    return d
