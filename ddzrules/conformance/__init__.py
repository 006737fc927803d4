"""Conformance suites: engine-agnostic test vectors generated from a spec.

A suite is a directory: ``manifest.json`` (format, the resolved spec and its hash,
seed, level, counts and a SHA-256 per file) and one JSONL file per category —
``classify``, ``compare``, ``moves``, ``census``, ``perft`` and ``games``. Every
vector has an ``id``, its inputs, the ``expect``-ed answer and a ``covers`` tag
(``<combo or rule>/<what>``, several joined by ``, `` when one input is at several
boundaries) naming what it exercises. The same spec, seed and
level give byte-identical files. :mod:`ddzrules.conformance.run` runs a suite
against an engine; ``docs/conformance.md`` documents the format and perft.

>>> suite = generate(load_variant("compat/rlcard"), level="smoke", seed=1)
>>> sorted(suite.vectors), suite.vectors["census"][-1]["expect"]
(['census', 'classify', 'compare', 'games', 'moves', 'perft'], {'plays': 27471})
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import random
import re
import shutil
import stat
import time
from array import array
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, BinaryIO

from ddzrules import __version__
from ddzrules import cards as C
from ddzrules.errors import (
    SURROGATE_ESCAPE,
    BudgetExceeded,
    DdzError,
    ReplayError,
    brief,
    escaped,
    has_lone_surrogate,
)
from ddzrules.errors import SuiteError as SuiteError  # re-exported: it lived here
from ddzrules.rules.moves import Move
from ddzrules.rules.variant import Variant, load_variant

#: the suite format this version writes and reads
FORMAT = "ddzrules-suite/1"
CATEGORIES = ("classify", "compare", "moves", "census", "perft", "games")
ACE = C.RANKS.index("A")


@dataclass(frozen=True)
class Level:
    """How much a suite covers. Boundaries, bomb tiers and the census are always complete."""

    name: str
    near_misses: int  # non-plays kept per combo
    multi_readings: int | None  # card sets with several readings (None: all)
    random_nonplays: int
    whole_universe: bool  # classify every play of the universe
    pairs_per_class: int  # compare vectors per ordered pair of combo classes
    random_hands: int  # moves: random hands (each gives a lead and an answer)
    wild_hands: int  # moves: random hands with wild cards (wildcard specs)
    perft_positions: int
    perft_depth: int
    games: int
    checks_every: int  # games: legal actions checked every this many steps


LEVELS = {
    "smoke": Level("smoke", 2, 20, 20, False, 1, 10, 10, 1, 2, 2, 10),
    "standard": Level("standard", 4, 300, 200, False, 2, 500, 200, 4, 3, 50, 5),
    "exhaustive": Level("exhaustive", 8, None, 2000, True, 6, 1500, 1000, 5, 3, 200, 1),
}


@dataclass
class Suite:
    manifest: dict[str, Any]
    vectors: dict[str, list[dict[str, Any]]] = field(default_factory=dict)


# ====================================================================== helpers


def reading_dict(m: Move) -> dict[str, Any]:
    """A reading as vectors state it: the spec's combo name, the main rank, the length."""
    return {"combo": m.combo, "rank": m.rank_name, "length": m.length}


def readings_key(readings: list[dict[str, Any]]) -> list[tuple[str, str, int]]:
    """Readings as a sorted, comparable list (order of readings carries no meaning)."""
    return sorted((str(r.get("combo")), str(r.get("rank")), int(r.get("length", 1))) for r in readings)


def play_sort_key(cards: str) -> tuple[int, str]:
    return (len(cards), "".join(chr(65 + C.RANK_INDEX[c]) for c in cards))


def sort_plays(plays: set[str] | frozenset[str] | list[str]) -> list[str]:
    """Card strings by size, then rank order (so files read naturally and diff stably)."""
    return sorted(set(plays), key=play_sort_key)


def wild_ranks(v: Variant) -> list[int]:
    """The ranks that may be a deal's wild rank (none for a spec without wildcards)."""
    if not v.rules.stand_for:
        return []
    return [r for r in range(C.NUM_RANKS) if _wild_ok(v, r)]


def draw_wild(v: Variant, rng: random.Random) -> C.WildKey | None:
    """A deal's wild ranks for a vector: one rank, or the spec's ``wildcards.ranks``
    distinct ones (天地癞子); None without wildcards."""
    ranks = wild_ranks(v)
    if not ranks:
        return None
    k = min(v.rules.wild_count, len(ranks))
    return rng.choice(ranks) if k <= 1 else tuple(sorted(rng.sample(ranks, k)))


def wild_text(wild: C.WildKey | None) -> str | None:
    """Wild ranks as vectors write them: ``7``, or ``7,9`` for several."""
    return None if wild is None else ",".join(C.RANKS[r] for r in C.wild_tuple(wild))


def _wild_ok(v: Variant, r: int) -> bool:
    try:
        v.wild_rank_index(r)
    except DdzError:
        return False
    return True


def deal_sizes(v: Variant) -> tuple[int, int, int]:
    """(players, hand, kitty) of the spec's deal (17/3 for three players by default)."""
    data = v.spec.data
    deal = data.get("deal", {})
    players = int(data.get("players", 3))
    hand = int(deal.get("hand", 17))
    kitty = int(deal.get("kitty", max(0, sum(v.rules.deck) - players * hand)))
    return players, hand, kitty


# ====================================================================== classify


class _Universe:
    """The spec's universe indexed for picking vectors."""

    def __init__(self, v: Variant) -> None:
        self.v = v
        v.ensure_table()
        if v.plays_by_packed is None:
            raise DdzError(f"{v.name}: the universe is too large to generate a suite from")
        self.table: dict[str, tuple[Move, ...]] = dict(v.plays_by_string)
        self.strings = sorted(self.table, key=play_sort_key)
        self.by_combo: dict[str, list[Move]] = defaultdict(list)
        for cards in self.strings:
            for m in self.table[cards]:
                self.by_combo[m.combo].append(m)
        #: plays with a single reading, by family — what compare vectors draw from
        self.unique_by_family: dict[tuple[str, int, int], list[Move]] = defaultdict(list)
        for cards in self.strings:
            ms = self.table[cards]
            if len(ms) == 1:
                m = ms[0]
                self.unique_by_family[(m.combo, m.size, m.length)].append(m)
        for lst in self.unique_by_family.values():
            lst.sort(key=lambda m: (m.rank, play_sort_key(m.cards)))


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


def gen_classify(v: Variant, u: _Universe, level: Level, rng: random.Random) -> list[dict[str, Any]]:
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


def _wild_classify(v: Variant, u: _Universe, level: Level, rng: random.Random) -> list[dict[str, Any]]:
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


def gen_compare(v: Variant, u: _Universe, level: Level, rng: random.Random) -> list[dict[str, Any]]:
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
        for i in range(level.wild_hands):
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


def _moves_vector(v: Variant, hand: str, after: str | None, covers: str,
                  wild: C.WildKey | None = None) -> dict[str, Any]:
    result = v.legal_moves(hand, after=after, wild=wild)
    vec: dict[str, Any] = {"hand": hand, "after": after}
    if wild is not None:
        vec["wild"] = wild_text(wild)
    vec["expect"] = {"can_pass": result.can_pass, "plays": sort_plays({m.cards for m in result})}
    vec["covers"] = covers
    return vec


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


def gen_moves(v: Variant, u: _Universe, level: Level, rng: random.Random) -> list[dict[str, Any]]:
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
        out.append(_moves_vector(v, hand, None, f"random/lead-{size}"))
        after = _a_lead(v, other, rng, hand)
        if after is not None:
            out.append(_moves_vector(v, hand, after, f"{u.table[after][0].combo}/answer-{size}"))
    for size in sizes:
        for tag, hand in _hard_hands(v, size):
            out.append(_moves_vector(v, hand, None, f"{tag}-lead-{size}"))
            deck = [c for c in full]
            rng.shuffle(deck)
            other = C.counts_to_string(C.counts_of(deck[:size]))
            after = _a_lead(v, other, rng, hand)
            if after is not None:
                out.append(_moves_vector(v, hand, after, f"{tag}-answer-{size}"))
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
            out.append(_moves_vector(v, hand, None, f"wild/lead-{n}-wilds", w))
        else:
            other = C.counts_to_string(C.counts_of(deck[size:2 * size]))
            after = _a_lead(v, other, rng, hand, w)
            out.append(_moves_vector(v, hand, after, f"wild/answer-{n}-wilds", w))
    return out + gen_beats(v, u)  # last, so the vectors before keep their ids


# ====================================================================== beats

#: a relation of the spec's "beats": (the combo led, the combo answering, whether a play of
#: the second may beat a play of the first) — each ordered pair of combos (bomb tiers and the
#: rocket are combos) in both polarities, where the spec has such plays
Relation = tuple[str, str, bool]


def _extremes(moves: Iterable[Move], k: int = 2) -> list[Move]:
    """The ``k`` weakest and ``k`` strongest plays of each family of ``moves``: beating is
    monotone in a family's order, so whether some play of one combo beats some play of
    another (or fails to) shows on these, the deck's room for both permitting."""
    by_family: dict[tuple[str, int, int], list[Move]] = defaultdict(list)
    for m in moves:
        by_family[(m.combo, m.size, m.length)].append(m)
    out: list[Move] = []
    for fam in sorted(by_family):
        ms = sorted(by_family[fam], key=lambda m: (m.strength, m.packed))
        out += ms[:k] + [m for m in ms[-k:] if m not in ms[:k]]
    return out


class _Beats:
    """The spec's beats relations between combos, each with a witness: a single-reading
    play ``a`` led and a play ``b`` (read as the answering combo) that one deck holds together
    with ``a``. A positive witness is the weakest answer that beats (the nearest to the
    boundary); a negative one the play an engine is likeliest to let through wrongly — of
    ``a``'s size, above its rank, the strongest — none of whose readings beats ``a``."""

    def __init__(self, v: Variant, u: _Universe) -> None:
        deck = v.rules.deck
        led = {name: _extremes(m for m in ms if len(u.table[m.cards]) == 1) for name, ms in u.by_combo.items()}
        answer = {name: _extremes(ms) for name, ms in u.by_combo.items()}
        counts: dict[int, list[int]] = {}
        for ms in (*led.values(), *answer.values()):
            for m in ms:
                counts.setdefault(m.packed, C.unpack(m.packed))
        self.witness: dict[Relation, tuple[Move, Move]] = {}
        #: negatives within one combo beyond the witness: an equal rank, a lower one, another shape
        self.extra: dict[tuple[str, str], tuple[Move, Move]] = {}
        names = [c.name for c in v.rules.combos if u.by_combo.get(c.name)]
        best: dict[Relation | tuple[str, str], tuple[Any, Move, Move]] = {}

        def offer(key: Relation | tuple[str, str], rank: Any, a: Move, b: Move) -> None:
            if key not in best or rank < best[key][0]:
                best[key] = (rank, a, b)

        for name_a in names:
            for a in led[name_a]:
                ca = counts[a.packed]
                for name_b in names:
                    for b in answer[name_b]:
                        cb = counts[b.packed]
                        if any(x + y > d for x, y, d in zip(ca, cb, deck)):
                            continue  # no deal holds both
                        cards = (a.packed, b.packed)  # a tie-break: any fixed order
                        same_shape = (b.size, b.length) == (a.size, a.length)
                        if b.beats(a):
                            offer((name_a, name_b, True), (not same_shape, b.strength,
                                                           tuple(-x for x in a.strength), cards), a, b)
                        elif not any(r.beats(a) for r in u.table[b.cards]):
                            above = b.rank > a.rank
                            offer((name_a, name_b, False), (b.size != a.size, not above,
                                                            tuple(-x for x in b.strength), cards), a, b)
                            if name_a != name_b:
                                continue
                            # within a combo: the same shape at an equal or lower rank, and
                            # another shape (a chain's length, a bomb's size) above it
                            what = ("other-shape" if not same_shape and above else "" if not same_shape
                                    else "equal-rank" if b.rank == a.rank else "lower-rank")
                            if what:
                                offer((name_a, what), (b.size != a.size, tuple(-x for x in b.strength), cards),
                                      a, b)
        for key, (_, a, b) in best.items():
            if len(key) == 3:
                self.witness[key] = (a, b)  # type: ignore[index]
            else:
                self.extra[key] = (a, b)  # type: ignore[index]
        order = {name: i for i, name in enumerate(names)}
        self.relations: list[Relation] = sorted(self.witness, key=lambda r: (order[r[0]], order[r[1]], not r[2]))


def _beats_tag(r: Relation) -> str:
    return f"{r[1]}-on-{r[0]}/{'beats' if r[2] else 'cannot-beat'}"


def gen_beats(v: Variant, u: _Universe) -> list[dict[str, Any]]:
    """Moves vectors for every beats relation of the spec (``_Beats``), both polarities:
    the answering play alone is the hand, the led play is ``after``. A hand that can answer
    must list the play; a hand holding only a play of that combo which cannot must not —
    a bomb after the rocket, a lower bomb tier after a higher, a chain of another kind
    or length of the same size above the led one."""
    beats = _Beats(v, u)
    out: list[dict[str, Any]] = []
    seen: set[tuple[str, str]] = set()
    cases = [(a, b, _beats_tag(r)) for r, (a, b) in ((r, beats.witness[r]) for r in beats.relations)]
    cases += [(a, b, f"{name}-on-{name}/cannot-beat-{what}") for (name, what), (a, b) in
              sorted(beats.extra.items(), key=lambda kv: (kv[0][0], kv[0][1]))]
    for a, b, tag in cases:
        if (b.cards, a.cards) not in seen:
            seen.add((b.cards, a.cards))
            out.append(_moves_vector(v, b.cards, a.cards, tag))
    return out


def beats_relations(v: Variant) -> list[Relation]:
    """The spec's beats relations (``_Beats``): (A, B, True) when a play of combo B may beat
    a play of combo A that one deal holds with it, (A, B, False) when one may not."""
    return _Beats(v, _Universe(v)).relations


def beats_coverage(v: Variant, moves: Iterable[dict[str, Any]]) -> tuple[set[Relation], list[Relation]]:
    """Which of the spec's beats relations (``_Beats``) a suite's moves vectors test, and
    all of them: (A, B, True) is tested by a vector answering a single-reading play of A from
    a hand holding a play of B that beats it; (A, B, False) by one whose hand holds a play of
    B none of whose readings beats it (so it must be missing from the answer). Vectors with
    wild cards are left out (their plays' readings depend on the wild rank)."""
    u = _Universe(v)
    relations = _Beats(v, u).relations
    of_led: dict[str, set[Relation]] = defaultdict(set)
    for r in relations:
        of_led[r[0]].add(r)
    covered: set[Relation] = set()
    for vec in reversed(list(moves)):  # the beats vectors, last, cover most: the rest is mostly skipped
        if vec.get("wild") is not None or vec.get("after") is None:
            continue
        led = v.classify(vec["after"])
        if len(led) != 1 or of_led[led[0].combo] <= covered:
            continue
        a = led[0]
        for m in v.legal_moves(vec["hand"]):  # leading: every play the hand holds
            if m.beats(a):
                covered.add((a.combo, m.combo, True))
            elif not any(r.beats(a) for r in u.table.get(m.cards, (m,))):
                covered.add((a.combo, m.combo, False))
    return covered & set(relations), relations


# ====================================================================== census


def gen_census(v: Variant) -> list[dict[str, Any]]:
    c = v.census()
    out: list[dict[str, Any]] = [{"combo": name, "expect": {"plays": n}, "covers": f"{name}/census"}
                                 for name, n in c.by_combo.items()]
    out.append({"combo": None, "expect": {"plays": c.total}, "covers": "universe/census"})
    return out


# ====================================================================== perft


@dataclass
class Position:
    """A play-phase position: hands, whose turn, and the play to beat (None: a lead)."""

    hands: list[list[int]]
    to_act: int
    last: Move | None = None
    last_seat: int | None = None
    wild: C.WildKey | None = None

    @staticmethod
    def from_dict(v: Variant, data: dict[str, Any]) -> Position:
        hands = [C.counts_of(C.parse_ranks(h)) for h in data["hands"]]
        v.check_deck([sum(col) for col in zip(*hands)] if hands else [], "the hands of the position")
        to_act = int(data["to_act"])
        if not 0 <= to_act < len(hands):
            raise DdzError(f"to_act {to_act} is no seat of a position with {len(hands)} hands")
        w = data.get("wild")
        return Position(hands, to_act, None, None, None if w is None else v.wild_key(w))


def perft(v: Variant, pos: Position, depth: int, budget: int | None = None) -> tuple[int, dict[str, int]]:
    """The number of action sequences of exactly ``depth`` actions from ``pos`` and the
    divide by first action (``docs/conformance.md`` defines both). With ``budget``, the
    search visits at most that many positions (sequences of 1 to ``depth`` actions) and
    raises :class:`~ddzrules.engines.BudgetExceeded` past it.

    Seat 0 leads 3, 4 or 33; seat 1 (44) answers 3 with 4 or passes, can only pass on
    4, and answers 33 with 44 or passes:

    >>> v = load_variant("hubei-3p")
    >>> perft(v, Position([C.counts_of(C.parse_ranks(h)) for h in ("334", "44", "5")], 0), 2)
    (5, {'3': 2, '4': 1, '33': 2})
    """
    n = len(pos.hands)
    visited = [0]

    def actions(hands: list[list[int]], to_act: int, last: Move | None,
                last_seat: int | None) -> list[tuple[Move | None, int | None]]:
        if last is not None and last_seat == to_act:  # everyone else passed: a new lead
            last = None
        lm = v.legal_moves(C.counts_to_string(hands[to_act]), after=last, wild=pos.wild)
        out: list[tuple[Move | None, int | None]] = [(m, to_act) for m in lm]
        if lm.can_pass:
            out.append((None, None))
        visited[0] += len(out)
        if budget is not None and visited[0] > budget:
            raise BudgetExceeded(f"the search visited more than {budget:,} positions, its budget")
        return out

    def count(hands: list[list[int]], to_act: int, last: Move | None, last_seat: int | None,
              d: int) -> int:
        acts = actions(hands, to_act, last, last_seat)
        if d == 1:
            return len(acts)
        total = 0
        nxt = (to_act + 1) % n
        for m, _ in acts:
            if m is None:
                total += count(hands, nxt, last, last_seat, d - 1)
                continue
            h = hands[to_act]
            played = C.unpack(m.packed)  # the physical cards, wild ones included
            h2 = [a - b for a, b in zip(h, played)]
            if not any(h2):
                continue  # the game ends with this play: no longer sequence goes through it
            hands2 = list(hands)
            hands2[to_act] = h2
            total += count(hands2, nxt, m, to_act, d - 1)
        return total

    divide: dict[str, int] = {}
    total = 0
    nxt = (pos.to_act + 1) % n
    for m, _ in actions(pos.hands, pos.to_act, pos.last, pos.last_seat):
        key = "pass" if m is None else m.cards
        if depth == 1:
            sub = 1
        elif m is None:
            sub = count(pos.hands, nxt, pos.last, pos.last_seat, depth - 1)
        else:
            h2 = [a - b for a, b in zip(pos.hands[pos.to_act], C.unpack(m.packed))]
            if not any(h2):
                sub = 0
            else:
                hands2 = list(pos.hands)
                hands2[pos.to_act] = h2
                sub = count(hands2, nxt, m, pos.to_act, depth - 1)
        divide[key] = divide.get(key, 0) + sub
        total += sub
    return total, {k: divide[k] for k in sort_plays([k for k in divide if k != "pass"])} | (
        {"pass": divide["pass"]} if "pass" in divide else {})


def gen_perft(v: Variant, level: Level, rng: random.Random, limits: Limits | None = None) -> list[dict[str, Any]]:
    """Perft vectors of seeded random deals, each position to the level's depth — or to the
    depth before the one whose search passes ``limits.max_perft_nodes`` positions, which a
    run with those limits would refuse (it expects more sequences than the limit allows, or
    its search passes its budget): a suite ``generate`` makes is one ``run`` accepts."""
    bound = (limits or Limits()).max_perft_nodes
    players, hand_size, kitty = deal_sizes(v)
    full = C.deck_list(v.rules.deck)
    out: list[dict[str, Any]] = []
    for p in range(level.perft_positions):
        deck = list(full)
        rng.shuffle(deck)
        hands = [C.counts_of(deck[i * hand_size:(i + 1) * hand_size]) for i in range(players)]
        landlord = rng.randrange(players)
        for r in deck[players * hand_size:players * hand_size + kitty]:
            hands[landlord][r] += 1
        position = {"players": players, "hands": [C.counts_to_string(h) for h in hands],
                    "landlord": landlord, "to_act": landlord, "wild": wild_text(draw_wild(v, rng))}
        pos = Position.from_dict(v, position)
        for depth in range(1, level.perft_depth + 1):
            try:  # a search within the bound counts at most that many sequences
                nodes, divide = perft(v, pos, depth, budget=bound)
            except BudgetExceeded:
                break
            out.append({"position": position, "depth": depth,
                        "expect": {"nodes": nodes, "divide": divide},
                        "covers": f"perft/position-{p + 1}-depth-{depth}"})
    return out


# ====================================================================== games


def action_string(a: Any) -> str:
    """An action as vectors list it: ``play 33344469``, ``pass``, ``bid 2``, ``show 3`` …"""
    return str(a)


def gen_games(v: Variant, level: Level, seed: int) -> list[dict[str, Any]]:
    """Whole seeded games between the bundled bots (heuristic in seat 0, random elsewhere)."""
    if not v.spec.data.get("game"):
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
    u = _Universe(v)

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
    from ddzrules.spec import file_kind

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
        raise DdzError(f"cannot write the suite to {d}: {file_kind(st.st_mode) if not stat.S_ISREG(st.st_mode) else 'a file'}, "
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


# ====================================================================== reading suites

# A suite is untrusted input: every file is read as a stream, one bounded line at a
# time, and every vector is checked (schema, an input that can occur in a game, a
# bounded amount of work) before any is asked of an engine.

#: a suite file larger than this is refused
MAX_FILE_BYTES = 512 * 1024 * 1024
#: a manifest larger than this is refused (it holds one resolved spec)
MAX_MANIFEST_BYTES = 8 * 1024 * 1024
#: a vector's line longer than this is refused (the largest bundled one is about 135 kB:
#: a laizi game at the exhaustive level)
MAX_LINE_BYTES = 1024 * 1024
#: an integer written with more digits than this is refused (a seed has at most 20)
MAX_INT_DIGITS = 20
#: default limits of a run (``conformance run --max-vectors/--max-work/--max-perft-nodes``)
MAX_VECTORS = 200_000
MAX_WORK = 20_000_000
MAX_PERFT_NODES = 1_000_000
#: positions a perft search may visit beyond depth × (its expected count + 1): room for
#: the sequences that end the game early, which the expected count does not include
PERFT_SLACK = 10_000
#: a unit of work is about what a perft search spends on one position (~4 µs on the
#: development machine); a step of a game's replay costs about a hundred (~0.35 ms: the
#: runtime applies the action, lists what the next seat may do and compares the record's),
#: so a games vector counts this many units an action …
STEP_UNITS = 100
#: … and these for each action the replay lists, counted as it lists them (~15 µs each in a
#: fresh game, its vector's schema check included): what a spec's hands cost (three decks
#: list hundreds of plays a step) is counted, not assumed
LISTED_UNITS = 4
#: default time limit of a run, in seconds (``conformance run --max-seconds``): checked before
#: each vector and each step of a game's replay, whatever the units say
MAX_SECONDS = 600.0
#: a games vector is checked by replaying it as a record of the suite's spec, which the
#: replay reads whole (its hash, its shape): a step's units per this many bytes of that
#: spec, on top of the game's actions (none for a spec of the usual size, ~10 kB; the
#: replay of an action and the reading of 16 kB take about the same time)
SPEC_BYTES_PER_STEP = 16 * 1024


@dataclass(frozen=True)
class Limits:
    """What one run of a suite may cost (``docs/conformance.md``, "Limits").

    ``max_vectors`` bounds the vectors of the categories run (and so the memory of the
    report); ``max_perft_nodes`` the sequences a perft vector may expect and the
    positions its search may visit; ``max_work`` the suite's work in all: one unit a
    vector, a perft vector its search budget (:func:`perft_budget`), a game
    :data:`STEP_UNITS` an action and one for each action its replay lists."""

    max_vectors: int = MAX_VECTORS
    max_work: int = MAX_WORK
    max_perft_nodes: int = MAX_PERFT_NODES
    #: seconds a run (its check and its engine's answers) may take; None: no time limit
    max_seconds: float | None = MAX_SECONDS


def perft_budget(depth: int, nodes: int, limits: Limits) -> int:
    """The positions a search for a perft vector expecting ``nodes`` sequences of ``depth``
    actions may visit. Every sequence of fewer actions that does not end the game has a
    longer one, so an exact count visits at most ``depth × nodes`` positions, plus those
    ending the game early (:data:`PERFT_SLACK`); never more than ``max_perft_nodes``.

    >>> perft_budget(3, 2_848, Limits()), perft_budget(8, 10**6, Limits())
    (18547, 1000000)
    """
    return min(limits.max_perft_nodes, depth * (nodes + 1) + PERFT_SLACK)


def schema(name: str) -> dict[str, Any]:
    """A JSON Schema shipped with the package: ``manifest`` or a category name."""
    text = resources.files("ddzrules.spec").joinpath("schemas", f"suite-{name}.schema.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


class _Refused:
    """A number this reader refuses although JSON parses it (a huge integer, NaN), left in
    the parsed value where it stood so that the refusal can name its field."""

    __slots__ = ("why",)

    def __init__(self, why: str) -> None:
        self.why = why


def _parse_int(text: str) -> int | _Refused:
    digits = len(text.lstrip("-"))
    if digits > MAX_INT_DIGITS:  # int() of it would cost time (and past 4,300 digits, raise)
        return _Refused(f"an integer of {digits:,} digits (at most {MAX_INT_DIGITS})")
    return int(text)


def _parse_float(text: str) -> float | _Refused:
    if len(text) > 40:
        return _Refused(f"a number written with {len(text):,} characters (at most 40)")
    value = float(text)
    if not math.isfinite(value):
        return _Refused("a number too large for a float")
    return value


def _parse_constant(name: str) -> _Refused:
    return _Refused(f"{name} is not a JSON number")


#: the tokens of a JSON text that can be numbers: a string is matched whole, so that no
#: digit inside one is taken for a number
_NUMBER_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|(-?Infinity|NaN|-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?)')


def _refused_at(text: str, data: Any) -> tuple[int, str, str]:
    """The offset of the first refused number of ``text``, the path of its field in
    ``data`` (``expect/nodes``; a key that is not plain as ``<key>``) and why it is refused:
    both the first in the order of the text, which is the parsed value's order."""
    offset = 0
    for m in _NUMBER_TOKEN.finditer(text):
        token = m.group(1)
        if token is None:
            continue
        value = (_parse_constant(token) if token[-1] in "yN" else
                 _parse_float(token) if m.group(2) or m.group(3) else _parse_int(token))
        if isinstance(value, _Refused):
            offset = m.start()
            break
    stack: list[tuple[Any, tuple[str, ...]]] = [(data, ())]
    while stack:  # depth first, in order: the first refused value met is the text's first
        node, path = stack.pop()
        if isinstance(node, _Refused):
            where = "/".join(p if p.isdigit() or _PLAIN_KEY.fullmatch(p) else "<key>" for p in path)
            return offset, where or "top level", node.why
        items = (node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ())
        stack.extend(reversed([(v, (*path, str(k))) for k, v in items]))
    raise AssertionError("a refused number was parsed but not found")  # pragma: no cover


def _loads(raw: bytes, where: str, one_line: bool = True) -> Any:
    """Strict JSON: UTF-8, no NaN or Infinity, no huge numbers, bounded nesting, text only.
    ``where`` names the file and, for ``one_line`` text, the line; a refused number is
    named by its column (line and column) and its field."""
    refused = [False]

    def flag(parse: Callable[[str], Any]) -> Callable[[str], Any]:
        def parsed(token: str) -> Any:
            value = parse(token)
            if isinstance(value, _Refused):
                refused[0] = True
            return value
        return parsed

    try:
        text = raw.decode("utf-8")
        data = json.loads(text, parse_int=flag(_parse_int), parse_float=flag(_parse_float),
                          parse_constant=flag(_parse_constant))
    except UnicodeDecodeError as e:
        raise SuiteError(f"{where}: not UTF-8 text (byte {e.start + 1})") from None
    except json.JSONDecodeError as e:
        place = f"{e.colno}" if one_line else f"{e.lineno}:{e.colno}"
        raise SuiteError(f"{where}:{place}: not valid JSON: {e.msg}") from None
    except RecursionError:
        raise SuiteError(f"{where}: nested too deeply") from None
    if refused[0]:
        offset, field, why = _refused_at(text, data)
        line = text.count("\n", 0, offset) + 1
        column = offset - (text.rfind("\n", 0, offset) + 1) + 1
        place = f"{column}" if one_line else f"{line}:{column}"
        raise SuiteError(f"{where}:{place}: {field}: {why}")
    if SURROGATE_ESCAPE.search(text) and has_lone_surrogate(data):
        raise SuiteError(f"{where}: a string holding an unpaired surrogate escape (\\ud800-\\udfff), "
                         "which is not text")
    return data


def _open_regular(path: Path, limit: int) -> BinaryIO:
    """``path`` opened for reading when it is a regular file of at most ``limit`` bytes.
    Opened without blocking and checked on the open file, so a FIFO or a device put in
    a suite's place is refused by what it is instead of hanging the run."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise SuiteError(f"{path}: missing") from None
    except OSError as e:
        raise SuiteError(f"cannot read {path}: {e.strerror or e}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise SuiteError(f"{path}: not a regular file")
        if st.st_size > limit:
            raise SuiteError(f"{path}: {st.st_size:,} bytes, larger than the limit of {limit:,}")
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def _read_small(path: Path, limit: int) -> bytes:
    with _open_regular(path, limit) as f:
        try:
            raw = f.read(limit + 1)
        except OSError as e:
            raise SuiteError(f"cannot read {path}: {e.strerror or e}") from None
    if len(raw) > limit:  # it grew after it was measured
        raise SuiteError(f"{path}: larger than the limit of {limit:,} bytes")
    return raw


def _validator(name: str) -> Any:
    """The validator of a suite schema, or of the game record's (``record``)."""
    import jsonschema

    if name not in _VALIDATORS:
        from ddzrules.records import record_schema

        _VALIDATORS[name] = jsonschema.Draft202012Validator(record_schema() if name == "record" else schema(name))
    return _VALIDATORS[name]


_VALIDATORS: dict[str, Any] = {}
_PLAIN_KEY = re.compile(r"[A-Za-z0-9_.-]{1,40}")


def _schema_message(err: Any) -> str:
    """Where a value breaks the schema and the schema's rule, never the value itself
    (a suite is someone else's file: its content is not repeated to the terminal)."""
    where = "/".join(str(p) if isinstance(p, int) or _PLAIN_KEY.fullmatch(str(p)) else "<key>"
                     for p in err.absolute_path) or "top level"
    rule, want = err.validator, err.validator_value
    if rule == "required":
        have = err.instance if isinstance(err.instance, dict) else {}
        text = "missing " + ", ".join(repr(k) for k in want if k not in have)
    elif rule == "additionalProperties":
        text = "a field the schema does not have"
    elif rule == "type":
        text = "must be of type " + (" or ".join(want) if isinstance(want, list) else str(want))
    elif rule in _BOUNDS:
        text = _BOUNDS[rule].format(want)
    elif rule == "pattern":
        text = f"does not match the pattern {want}"
    elif rule in ("enum", "const"):
        text = "must be " + (" or ".join(json.dumps(w) for w in want) if rule == "enum" else json.dumps(want))
    elif rule == "propertyNames":
        text = "a key the schema does not allow"
    else:
        text = f"fails the schema's {rule} check"
    return f"{where}: {text}"


_BOUNDS = {"minimum": "must be at least {:,}", "maximum": "must be at most {:,}",
           "exclusiveMinimum": "must be more than {:,}", "exclusiveMaximum": "must be less than {:,}",
           "minLength": "must have at least {:,} characters", "maxLength": "must have at most {:,} characters",
           "minItems": "must have at least {:,} items", "maxItems": "must have at most {:,} items",
           "minProperties": "must have at least {:,} keys", "maxProperties": "must have at most {:,} keys"}


def load_manifest(directory: str | Path) -> dict[str, Any]:
    """Read and check a suite's manifest (format version, schema)."""
    d = Path(directory)
    if not d.is_dir():
        raise SuiteError(f"{d}: not a suite directory (it should hold manifest.json)")
    path = d / "manifest.json"
    manifest = _loads(_read_small(path, MAX_MANIFEST_BYTES), str(path), one_line=False)
    if not isinstance(manifest, dict):
        raise SuiteError(f"{path}: a manifest is a JSON object")
    fmt = manifest.get("format")
    if fmt != FORMAT:
        shown = repr(fmt) if isinstance(fmt, str) and len(fmt) < 40 and fmt.isprintable() else "of another kind"
        raise SuiteError(f"{path}: suite format {shown} is not one this ddzrules reads ({FORMAT!r}); "
                         "regenerate the suite with this version")
    from ddzrules.errors import SpecError
    from ddzrules.spec import check_spec_data

    try:  # a spec file's bounds (values, depth), before the schema walks the spec
        check_spec_data(manifest.get("spec_resolved"), "spec_resolved")
    except SpecError as e:
        raise SuiteError(f"{path}: {e.problems[0]}") from None
    err = next(iter(_validator("manifest").iter_errors(manifest)), None)
    if err is not None:
        raise SuiteError(f"{path}: {_schema_message(err)}")
    named = manifest["spec_resolved"].get("name")
    if manifest["spec"] != named:
        raise SuiteError(f"{path}: spec: the manifest names spec {brief(manifest['spec'])}, but the spec it "
                         f"carries (spec_resolved) is {brief(named)}: the manifest was edited")
    for category, entry in manifest["files"].items():
        if entry["file"] != f"{category}.jsonl":
            raise SuiteError(f"{path}: files/{category}/file: the {category} vectors are in {category}.jsonl")
    return manifest


# ---------------------------------------------------------------- what can occur in a game


@dataclass(frozen=True)
class _Table:
    """What a vector's inputs are checked against: the suite's own spec."""

    deck: tuple[int, ...]
    players: int
    max_hand: int  # the landlord's hand with the kitty
    wild: frozenset[str]  # the ranks that may be wild; empty without wildcards
    wild_count: int = 1  # how many may be wild at once (wildcards.ranks)

    @staticmethod
    def of(v: Variant) -> _Table:
        players, hand, kitty = deal_sizes(v)
        return _Table(tuple(v.rules.deck), players, hand + kitty, frozenset(C.RANKS[r] for r in wild_ranks(v)),
                      max(1, v.rules.wild_count))

    def counts(self, cards: str) -> list[int]:
        out = [0] * C.NUM_RANKS
        for ch in cards:  # the schema allows rank characters only
            out[C.RANK_INDEX[ch]] += 1
        return out

    def over_deck(self, counts: list[int]) -> str | None:
        for r, (n, have) in enumerate(zip(counts, self.deck)):
            if n > have:
                return f"{n} cards of rank {C.RANKS[r]}, the deck holds {have}"
        return None

    def hand(self, cards: str, what: str) -> str | None:
        """Why ``cards`` cannot be one hand or one play, or None."""
        if len(cards) > self.max_hand:
            return f"{what}: {len(cards)} cards, more than any hand holds ({self.max_hand})"
        bad = self.over_deck(self.counts(cards))
        return f"{what}: {bad}" if bad else None

    def together(self, groups: list[str], what: str) -> str | None:
        """Why these hands cannot be dealt from one deck at once, or None."""
        total = [0] * C.NUM_RANKS
        for cards in groups:
            for r, n in enumerate(self.counts(cards)):
                total[r] += n
        size = sum(total)
        if size > sum(self.deck):
            return f"{what}: {size} cards together, the deck holds {sum(self.deck)}"
        bad = self.over_deck(total)
        return f"{what} together: {bad}" if bad else None

    def wild_rank(self, wild: str | None, what: str = "wild") -> str | None:
        if wild is None:
            return None
        if not self.wild:
            return f"{what}: the suite's spec has no wild cards"
        ranks = wild.split(",")  # the schema allows 1-4 ranks, comma-separated
        if len(ranks) > self.wild_count:
            return f"{what}: {len(ranks)} wild ranks, the suite's spec makes at most {self.wild_count} wild at once"
        if len(set(ranks)) < len(ranks):
            return f"{what}: a wild rank is given twice"
        bad = [r for r in ranks if r not in self.wild]
        return f"{what}: {bad[0]} cannot be the wild rank of the suite's spec" if bad else None

    def seat(self, seat: int | None, what: str, none_ok: bool = False) -> str | None:
        if seat is None:
            return None if none_ok else f"{what}: no seat"
        return None if 0 <= seat < self.players else f"{what}: {seat} is no seat of a {self.players}-player game"


def _impossible(t: _Table, category: str, vec: dict[str, Any], limits: Limits) -> str | None:
    """Why a schema-valid vector is no question about a game of the suite's spec (or asks
    for more work than ``limits`` allow), or None."""
    checks: list[str | None] = []
    if category == "classify":
        checks = [t.hand(vec["cards"], "cards"), t.wild_rank(vec.get("wild"))]
    elif category == "compare":
        checks = [t.hand(vec["a"], "a"), t.hand(vec["b"], "b"), t.wild_rank(vec.get("wild"))]
    elif category == "moves":
        after = vec["after"]
        checks = [t.hand(vec["hand"], "hand"), t.hand(after, "after") if after is not None else None,
                  t.wild_rank(vec.get("wild"))]
    elif category == "perft":
        pos, exp = vec["position"], vec["expect"]
        hands = pos["hands"]
        if pos["players"] != t.players:
            return f"position/players: {pos['players']}, the suite's spec is played by {t.players}"
        if len(hands) != t.players:
            return f"position/hands: {len(hands)} hands for {t.players} players"
        checks = [*(t.hand(h, f"position/hands/{i}") for i, h in enumerate(hands)),
                  t.together(hands, "position/hands"), t.seat(pos["to_act"], "position/to_act"),
                  t.seat(pos["landlord"], "position/landlord", none_ok=True),
                  t.wild_rank(pos.get("wild"), "position/wild")]
        if exp["nodes"] > limits.max_perft_nodes:
            checks.append(f"expect/nodes: {exp['nodes']:,} sequences, more than the limit of "
                          f"{limits.max_perft_nodes:,} a perft vector may expect (--max-perft-nodes)")
        if sum(exp["divide"].values()) != exp["nodes"]:
            checks.append(f"expect/divide: sums to {sum(exp['divide'].values()):,}, "
                          f"not to expect/nodes ({exp['nodes']:,})")
    elif category == "games":
        for i, deal in enumerate(vec["deals"]):
            if len(deal["hands"]) != t.players:
                return f"deals/{i}/hands: {len(deal['hands'])} hands for {t.players} players"
            checks += [t.hand(h, f"deals/{i}/hands/{j}") for j, h in enumerate(deal["hands"])]
            checks.append(t.together([*deal["hands"], deal["kitty"], deal.get("undealt", "")], f"deals/{i}"))
        for i, action in enumerate(vec["actions"]):
            if not -1 <= action["seat"] < t.players:  # -1: the table (a redeal)
                return f"actions/{i}/seat: {action['seat']} is no seat of a {t.players}-player game"
    return next((c for c in checks if c), None)


def vector_work(category: str, vec: dict[str, Any], limits: Limits, spec_bytes: int = 0) -> int:
    """A vector's share of :attr:`Limits.max_work`; ``spec_bytes``, the size of the suite's
    resolved spec as JSON, counts for a game (see :data:`SPEC_BYTES_PER_STEP`). A game's
    share is what is known before its replay: the replay adds a unit for each action it
    lists (:func:`_not_its_game`)."""
    if category == "perft":
        return perft_budget(vec["depth"], vec["expect"]["nodes"], limits)
    if category == "games":
        return 1 + STEP_UNITS * (len(vec["actions"]) + spec_bytes // SPEC_BYTES_PER_STEP)
    return 1


#: how the work of a suite is counted, as its refusal says it
_WORK = (f"a unit a vector, a perft vector its search budget, a game {STEP_UNITS} an action "
         f"and its spec's size and {LISTED_UNITS} for each action its replay lists")


class _PastTheLimit(Exception):
    """A games vector's replay passed the suite's work limit or the run's time limit:
    (the index of the step, the message)."""


def _not_its_game(manifest: dict[str, Any], vec: dict[str, Any], tally: Tally | None = None) -> str | None:
    """Why a schema-valid games vector is no game of the suite's spec, or None. The vector
    is read as a game record of the suite's resolved spec and replayed by the library's own
    runtime (:func:`ddzrules.records.replay`): its seed must deal its deals, each action must
    be one the rules allow when it is taken (redeal markers where the rules deal again), its
    last must end the game, each check must list the legal actions of its step, and its
    expected outcome must be the game's. The replay adds to ``tally``'s work a unit for each
    action it lists, and stops when the work passes the limit. The answer names the place in the vector and what the rules say, never
    the vector's own values (a suite is someone else's file)."""
    from ddzrules.records import FINAL_FIGURES, game_record, replay
    from ddzrules.records import FORMAT as RECORD_FORMAT
    from ddzrules.runtime import Game

    if not manifest["spec_resolved"].get("game"):
        return "the suite's spec has no game: section, so no game of it can be a vector"
    actions = vec["actions"]
    escape = next((i for i, a in enumerate(actions) if a["kind"] == "escape"), None)
    if escape is not None:
        return f"actions/{escape}: an escape; a suite's games are played to their end"
    # the vector states its outcome in its own terms (event names; stake and winner may be
    # left out), not a record's: the record's final figures are placeholders that observe
    # replaces with the game's own when it ends (replay compares them after that), and the
    # vector's are compared with the game's after the replay
    record: dict[str, Any] = {
        "format": RECORD_FORMAT, "spec": manifest["spec"], "spec_hash": manifest["spec_hash"],
        "spec_resolved": manifest["spec_resolved"], "seed": vec["seed"], "match": vec["match"],
        "deals": vec["deals"], "actions": actions, "landlord": None, "stake": 0, "events": [],
        "multiple": 1, "winner": None, "escaped": None, "scores": [0]}
    checks: dict[str, list[str]] = vec["checks"]
    unchecked = set(checks)
    seen: dict[str, Any] = {"deals": 0}  # the game once dealt, its deals, its first wrong check

    def observe(game: Game, i: int) -> None:
        seen["game"], seen["deals"] = game, len(game.deals)
        if game.over:
            final = seen["final"] = game_record(game)
            record.update({k: final[k] for k in FINAL_FIGURES})
            return
        listed = game.legal_actions()  # what the next step reads (kept by the game: not listed twice)
        if tally is not None:
            tally.work += LISTED_UNITS * len(listed)
            if tally.work > tally.limits.max_work:
                raise _PastTheLimit(i + 1, f"the suite's work passes the limit of {tally.limits.max_work:,} units "
                                           f"while its game is replayed ({_WORK}; --max-work raises it)")
            if tally.past_deadline():
                raise _PastTheLimit(i + 1, tally.deadline_message())
        step = str(len(game.history))  # the vector's checks are keyed so
        if step in unchecked:
            unchecked.discard(step)
            legal = sorted(str(a) for a in listed)
            if "check" not in seen and legal != sorted(checks[step]):
                seen["check"] = (step, len(legal))

    try:
        replay(record, check_disk=False, observe=observe)
    except _PastTheLimit as e:
        return f"actions/{e.args[0]}: {e.args[1]}"
    except ReplayError as e:
        if "game" not in seen:  # refused before the deal: a record replay cannot read, or another deal
            err = next(iter(_validator("record").iter_errors(record)), None)
            if err is not None:  # said as a suite's schema errors are, never with the value
                return f"{_schema_message(err)} (in a game record, which a games vector is replayed as)"
        return _replay_failure(e.action_index, seen, vec)
    except DdzError as e:  # the rules themselves cannot play it (a plugin's own check)
        return f"the suite's spec cannot replay the game: {escaped(str(e))[:300]}"
    if "check" in seen:
        step, n = seen["check"]
        return f"checks/{step}: not the legal actions of that step of the game (the rules list {n:,})"
    if unchecked:
        return f"checks/{min(unchecked, key=int)}: no step of the game at which a seat acts"
    final = seen["final"]
    got = {**final, "events": [e["name"] for e in final["events"]]}
    for name, want in vec["expect"].items():
        if want != got[name]:
            return f"expect/{name}: not the game's outcome, the rules give {brief(got[name], 80)}"
    return None


def _replay_failure(index: int | None, seen: dict[str, Any], vec: dict[str, Any]) -> str:
    """Where and how a games vector's replay left the game its seed deals (see
    :func:`_not_its_game`), in the rules' terms."""
    game = seen.get("game")
    if game is None:  # refused before the first deal was seen: that deal is another
        return "deals/0: not the deal its seed gives under the suite's spec"
    if index is None:  # the actions replayed; the game's end does not fit them
        if not game.over:
            return f"actions: the game is not over after the last action (seat {game.to_act} to act)"
        if len(game.history) != len(vec["actions"]):
            return f"actions: {len(vec['actions']):,} actions, the game took {len(game.history):,}"
        return f"deals: {len(vec['deals']):,} deal(s), the game had {len(game.deals):,}"
    if len(game.deals) > seen["deals"]:
        return (f"actions/{index}: the rules deal again here (nobody took the landlord); the vector's "
                "redeal marker or next deal is not theirs")
    if index < len(vec["actions"]) and vec["actions"][index]["kind"] == "redeal":
        return (f"actions/{index}: not a redeal marker of the rules (they deal again where nobody "
                "took the landlord, and write the marker their way)")
    if len(game.history) > index:  # applied, but the vector writes it otherwise
        return (f"actions/{index}: not the action as the rules write the one they apply "
                "(its seat, kind, value, combo and rank)")
    if game.over:
        return f"actions/{index}: an action after the game is over"
    return f"actions/{index}: not an action the rules allow here (seat {game.to_act} to act)"


@dataclass
class Tally:
    """What the vectors read so far add up to, across a suite's files, and a fingerprint
    of each line checked (per category), so that a second reading need not check a line
    again, only that it is the same."""

    limits: Limits = field(default_factory=Limits)
    vectors: int = 0
    work: int = 0
    ids: dict[str, str] = field(default_factory=dict)  # vector id -> file:line of its first use
    lines: dict[str, array] = field(default_factory=dict)
    #: when the run's time limit passes (time.monotonic()); set from the limits when None
    deadline: float | None = None

    def __post_init__(self) -> None:
        if self.deadline is None and self.limits.max_seconds is not None:
            self.deadline = time.monotonic() + self.limits.max_seconds

    def past_deadline(self) -> bool:
        return self.deadline is not None and time.monotonic() > self.deadline

    def deadline_message(self) -> str:
        return (f"the run passed its time limit of {self.limits.max_seconds:,g} s (--max-seconds raises it; "
                "the suite's work is bounded in units too, --max-work)")


def iter_vectors(directory: str | Path, manifest: dict[str, Any], category: str,
                 variant: Variant | None = None, tally: Tally | None = None,
                 checked: Tally | None = None) -> Iterator[dict[str, Any]]:
    """A category's vectors one at a time, read as a stream: each line bounded, parsed
    strictly, checked against the vector schema, against what can occur in a game of the
    suite's spec (``variant``; compiled from the manifest when None) and against the
    limits and the ids of ``tally``; the file's SHA-256 and vector count are checked
    against the manifest at its end. Any failure is a :class:`SuiteError` naming the
    file and line. With ``checked``, the tally of an earlier reading of the whole suite,
    each line is only compared with the one checked then (a changed file is an error)."""
    entry = manifest["files"].get(category)
    if entry is None:
        return
    tally = tally if tally is not None else Tally()
    table = _Table.of(variant if variant is not None else suite_variant(manifest))
    spec_bytes = 0  # a game's replay reads the suite's spec whole: its size counts in a game's work
    if category == "games":
        spec_bytes = len(json.dumps(manifest["spec_resolved"], ensure_ascii=False, separators=(",", ":")).encode())
    path = Path(directory) / str(entry["file"])
    declared = int(entry["vectors"])
    validator = _validator(category)
    digest = hashlib.sha256()
    size = count = lineno = 0
    before = checked.lines.get(category, array("q")) if checked is not None else None
    seen = tally.lines.setdefault(category, array("q"))
    with _open_regular(path, MAX_FILE_BYTES) as f:
        while True:
            try:
                line = f.readline(MAX_LINE_BYTES + 1)
            except OSError as e:
                raise SuiteError(f"cannot read {path}: {e.strerror or e}") from None
            if not line:
                break
            lineno += 1
            where = f"{path}:{lineno}"
            if tally.past_deadline():
                raise SuiteError(f"{where}: {tally.deadline_message()}")
            size += len(line)
            if size > MAX_FILE_BYTES:  # it grew after it was measured
                raise SuiteError(f"{path}: larger than the limit of {MAX_FILE_BYTES:,} bytes")
            if len(line) > MAX_LINE_BYTES and not line.endswith(b"\n"):
                raise SuiteError(f"{where}: a line longer than the limit of {MAX_LINE_BYTES:,} bytes")
            digest.update(line)
            if before is not None:  # checked in full by the earlier reading: the same line?
                if len(before) <= count or before[count] != _fingerprint(line):
                    raise SuiteError(f"{where}: the file changed after the suite was checked")
                count += 1
                yield _loads(line, where)
                continue
            if not line.strip():
                raise SuiteError(f"{where}: an empty line (a suite file holds one vector per line)")
            count += 1
            tally.vectors += 1
            if count > declared:
                raise SuiteError(f"{where}: more vectors than the {declared:,} the manifest declares")
            if tally.vectors > tally.limits.max_vectors:
                raise SuiteError(f"{where}: the suite holds more than {tally.limits.max_vectors:,} vectors, "
                                 "the limit of a run (--max-vectors raises it)")
            vec = _loads(line, where)
            err = next(iter(validator.iter_errors(vec)), None)
            if err is not None:
                raise SuiteError(f"{where}: {_schema_message(err)}")
            bad = _impossible(table, category, vec, tally.limits)
            if bad is not None:
                raise SuiteError(f"{where}: {bad}")
            first = tally.ids.setdefault(vec["id"], where)
            if first != where:
                raise SuiteError(f"{where}: the vector id is already used at {first}")
            if not vec["id"].startswith(category + "-"):
                raise SuiteError(f"{where}: a {category} vector's id starts with {category}-")
            tally.work += vector_work(category, vec, tally.limits, spec_bytes)
            if tally.work > tally.limits.max_work:
                raise SuiteError(f"{where}: the suite's work passes the limit of {tally.limits.max_work:,} "
                                 f"units ({_WORK}; --max-work raises it)")
            if category == "games":  # replayed last, counting what it lists as it goes
                bad = _not_its_game(manifest, vec, tally)
                if bad is not None:
                    raise SuiteError(f"{where}: {bad}")
            seen.append(_fingerprint(line))
            yield vec
    if digest.hexdigest() != entry["sha256"]:
        raise SuiteError(f"{path}: its content does not match the manifest's SHA-256 "
                         "(the file was changed or truncated after the suite was generated)")
    if count != declared:
        raise SuiteError(f"{path}: {count:,} vectors, the manifest declares {declared:,}")


_FINGERPRINT_KEY = os.urandom(16)


def _fingerprint(line: bytes) -> int:
    """64 bits of a line's keyed BLAKE2 digest: with a key drawn per process, no file can
    be made to collide with the one checked."""
    return int.from_bytes(hashlib.blake2b(line, digest_size=8, key=_FINGERPRINT_KEY).digest(), "big", signed=True)


def check_suite(directory: str | Path, manifest: dict[str, Any], categories: Iterable[str],
                variant: Variant | None = None, limits: Limits | None = None) -> Tally:
    """Read every vector of ``categories`` once, keeping none: the whole suite is checked
    (and refused with the file and line of its first problem) before an engine is asked
    anything. The manifest's declared counts are checked against the limit first, so an
    oversized suite is refused before a line is read."""
    tally = Tally(limits or Limits())
    chosen = [c for c in categories if c in manifest["files"]]
    declared = sum(int(manifest["files"][c]["vectors"]) for c in chosen)
    if declared > tally.limits.max_vectors:
        raise SuiteError(f"{Path(directory) / 'manifest.json'}: files: the suite declares {declared:,} vectors "
                         f"({', '.join(chosen)}), more than the limit of {tally.limits.max_vectors:,} of a run "
                         "(--max-vectors raises it)")
    v = variant if variant is not None else suite_variant(manifest)
    for category in chosen:
        for _ in iter_vectors(directory, manifest, category, v, tally):
            pass
    return tally


def read_vectors(directory: str | Path, manifest: dict[str, Any], category: str,
                 variant: Variant | None = None, limits: Limits | None = None) -> list[dict[str, Any]]:
    """A category's vectors as a list, checked as :func:`iter_vectors` checks them."""
    return list(iter_vectors(directory, manifest, category, variant, Tally(limits or Limits())))


def suite_variant(manifest: dict[str, Any]) -> Variant:
    """The variant a suite was generated from, compiled from the spec it carries."""
    from ddzrules.rules.compiler import compile_spec
    from ddzrules.spec import spec_from_data

    spec = spec_from_data(manifest["spec_resolved"], f"manifest.json ({escaped(str(manifest.get('spec')))[:200]})")
    if spec.content_hash != manifest.get("spec_hash"):
        raise SuiteError("manifest.json: the resolved spec does not match its spec_hash "
                         "(the manifest was edited)")
    return Variant(spec, compile_spec(spec))


__all__ = ["CATEGORIES", "FORMAT", "LEVELS", "Limits", "Position", "Suite", "SuiteError", "Tally",
           "beats_coverage", "beats_relations", "check_suite", "generate", "iter_vectors", "load_manifest", "load_variant", "perft",
           "perft_budget", "read_vectors", "suite_variant", "write_suite"]
