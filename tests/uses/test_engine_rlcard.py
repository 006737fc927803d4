"""The RLCard adapter (ddzrules.engines.rlcard) drives the real RLCard 1.2.0 and answers
exactly what compat/rlcard answers; on compat/douzero's plays it shows the kicker
policies of tests/reference/README.md and nothing else. Skipped without rlcard."""

from __future__ import annotations

import random
import subprocess
import sys
from collections import Counter
from typing import Any

import pytest

pytest.importorskip("rlcard.games.doudizhu.utils")

from ddzrules import cards as C
from ddzrules.engines import Unsupported, load_engine_class, open_engine
from ddzrules.engines.rlcard import RLCardEngine
from ddzrules.rules.variant import Variant


def manifest(v: Variant) -> dict[str, Any]:
    return {"spec": v.name, "spec_resolved": v.spec.data}


@pytest.fixture(scope="module")
def engine(rlcard: Variant) -> RLCardEngine:
    return RLCardEngine(manifest(rlcard), {})


def readings(v: Variant, cards: str) -> set[tuple[str, str, int]]:
    return {(m.combo, m.rank_name, m.length) for m in v.classify(cards)}


def deals(n: int, seed: int) -> list[str]:
    """Seeded hands: per deal a 17-card hand and a 20-card (landlord) hand."""
    rng = random.Random(seed)
    deck = C.deck_list(C.full_deck())
    out = []
    for _ in range(n):
        d = deck[:]
        rng.shuffle(d)
        out.append(C.counts_to_string(C.counts_of(d[:17])))
        out.append(C.counts_to_string(C.counts_of(d[17:34] + d[51:])))
    return out


def a_lead(v: Variant, hand: str, rng: random.Random) -> str:
    """A random legal lead of ``hand`` with exactly one reading (engines read it alike)."""
    return rng.choice([m.cards for m in v.legal_moves(hand) if len(v.classify(m.cards)) == 1])


# ------------------------------------------------------------------ wiring


def test_registered_and_named(rlcard: Variant) -> None:
    assert load_engine_class("rlcard") is RLCardEngine
    e = open_engine("rlcard", manifest(rlcard), {})
    assert e.name == "RLCard 1.2.0"
    assert not hasattr(e, "perft") and not hasattr(e, "game")


def test_module_imports_without_rlcard() -> None:
    code = ("import sys; sys.modules['rlcard'] = None; "
            "import ddzrules.engines.rlcard as m; print(m.RLCardEngine.__name__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "RLCardEngine"


def test_missing_rlcard_names_the_pip_command(rlcard: Variant, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "rlcard.games.base", None)
    with pytest.raises(ImportError, match=r"pip install 'ddzrules\[rlcard\]'"):
        RLCardEngine(manifest(rlcard), {})


def test_unsupported(engine: RLCardEngine, rlcard: Variant) -> None:
    with pytest.raises(Unsupported):
        engine.classify("3", "7")
    with pytest.raises(Unsupported):
        engine.moves("34567", None, "7")
    two_decks = {"spec": "x", "spec_resolved": {**rlcard.spec.data, "deck": {"decks": 2, "jokers": True}}}
    with pytest.raises(Unsupported, match="one 54-card deck"):
        RLCardEngine(two_decks, {})
    wild = {"spec": "x", "spec_resolved": {**rlcard.spec.data, "wildcards": {"stand_for": "3..2"}}}
    with pytest.raises(Unsupported, match="wild"):
        RLCardEngine(wild, {})
    # RLCard cannot be asked to answer a play it does not have
    with pytest.raises(Unsupported):
        engine.compare("2222", "3333XD", None)
    with pytest.raises(Unsupported):
        engine.moves("2222", "3333XD", None)
    assert engine.compare("3333XD", "3", None) is False  # not a play: never playable


# ------------------------------------------------------------------ answers equal compat/rlcard


def test_classify_every_play_and_near_misses(engine: RLCardEngine, rlcard: Variant) -> None:
    universe = rlcard.universe()
    for cards in universe:  # dictionary lookups: the whole action space is cheap
        got = engine.classify(cards, None)
        assert got.play and got.readings is not None, cards
        assert {(r.combo, r.rank, r.length) for r in got.readings} == readings(rlcard, cards), cards
    rng = random.Random(7)
    deck = C.full_deck()
    misses = 0
    for cards in rng.sample(universe, 1500):
        counts = C.counts_of(C.parse_ranks(cards))
        c = list(counts)
        r = rng.randrange(C.NUM_RANKS)
        step = rng.choice((-1, 1))
        if 0 <= c[r] + step <= deck[r]:
            c[r] += step
        near = C.counts_to_string(c)
        if not near:
            continue
        got = engine.classify(near, None)
        assert got.play == bool(rlcard.classify(near)), near
        misses += not got.play
    assert misses > 500


def test_compare_on_single_reading_pairs(engine: RLCardEngine, rlcard: Variant) -> None:
    rng = random.Random(11)
    unique = [p for p in rlcard.universe() if len(rlcard.classify(p)) == 1]
    by_family: dict[tuple[str, int, int], list[str]] = {}
    for p in unique:
        m = rlcard.classify(p)[0]
        by_family.setdefault((m.combo, m.size, m.length), []).append(p)
    families = sorted(by_family)
    seen = Counter()
    for i in range(400):
        if i % 2:  # same family: the rank decides
            fam = by_family[rng.choice(families)]
            a, b = rng.choice(fam), rng.choice(fam)
        else:
            a, b = rng.choice(unique), rng.choice(unique)
        got = engine.compare(a, b, None)
        assert got == rlcard.beats(a, b), (a, b)
        seen[got] += 1
    for a, b in (("XD", "2222"), ("3333", "2"), ("4444", "3333"), ("2", "XD"), ("33344", "3334")):
        assert engine.compare(a, b, None) == rlcard.beats(a, b), (a, b)
    assert seen[True] > 60 and seen[False] > 60


def test_moves_leads_and_answers(engine: RLCardEngine, rlcard: Variant) -> None:
    hands = deals(150, seed=5)
    rng = random.Random(5)
    answered = 0
    for i, hand in enumerate(hands):
        lead = engine.moves(hand, None, None)
        assert lead.plays == {m.cards for m in rlcard.legal_moves(hand)}, hand
        assert not lead.can_pass and lead.duplicates == ()
        other = hands[(i + 3) % len(hands)]
        after = a_lead(rlcard, other, rng)
        got = engine.moves(hand, after, None)
        want = rlcard.legal_moves(hand, after=after)
        assert got.plays == {m.cards for m in want}, (hand, after)
        assert got.can_pass and got.duplicates == ()
        answered += bool(got.plays)
    assert answered > 50


def test_census(engine: RLCardEngine, rlcard: Variant) -> None:
    got = engine.census()
    want = rlcard.census()
    assert got.total == want.total == 27_471
    assert got.by_combo == dict(want.by_combo)


def test_rlcard_is_consistent_with_itself(engine: RLCardEngine) -> None:
    """After the calls above (census checks its tables, every lead is checked against
    its action space) RLCard has shown no disagreement with itself."""
    engine.census()
    engine.moves("333444555666777888XD", None, None)
    engine.moves("33344455566677788822", None, None)
    assert engine.findings() == []


# ------------------------------------------------------------------ the kicker policies


def policy_of(v: Variant, cards: str) -> str:
    """Which rule of tests/reference/README.md keeps a compat/douzero play out of RLCard."""
    moves = v.classify(cards)
    combos = {m.combo for m in moves}
    counts = C.counts_of(C.parse_ranks(cards))
    if combos == {"four_two"}:
        return "four + both jokers" if counts[C.SMALL_JOKER] and counts[C.BIG_JOKER] else "?"
    if combos == {"plane_solos"}:
        reasons = set()
        for m in moves:
            chain = set(range(m.rank - m.length + 1, m.rank + 1))
            wings = [0 if r in chain else n for r, n in enumerate(counts)]
            if wings[C.SMALL_JOKER] and wings[C.BIG_JOKER]:
                reasons.add("wings: both jokers")
            if 4 in wings:
                reasons.add("wings: a four")
            if any(wings[r] == 3 and (r + 1 == min(chain) or r - 1 == max(chain)) and r != 12
                   for r in range(13)):
                reasons.add("wings: a trio next to the chain")
        return " + ".join(sorted(reasons)) or "?"
    return "?"


def test_on_douzero_plays_only_the_kicker_policies_differ(engine: RLCardEngine, douzero: Variant,
                                                          rlcard: Variant) -> None:
    rl = set(rlcard.universe())
    refused = Counter()
    for cards in douzero.universe():
        got = engine.classify(cards, None)
        assert got.play == (cards in rl), cards
        if not got.play:
            refused[policy_of(douzero, cards)] += 1
    assert "?" not in refused, refused
    assert sum(refused.values()) == 29_984 - 27_471
    assert refused["four + both jokers"] == 13  # 1,339 - 1,326 four + two singles
    for reason in ("wings: both jokers", "wings: a four", "wings: a trio next to the chain"):
        assert any(reason in k for k in refused), (reason, refused)
    # the README's table, row by row, asked of RLCard itself
    for play, in_rlcard in (("3334", True), ("333344", True), ("3333XD", False), ("333444XD", False),
                            ("3334445556667777", False), ("3334445556667778", False),
                            ("3334445556662229", True), ("3334445556669998", True),
                            ("44445555", False), ("3333", True)):
        assert engine.classify(play, None).play is in_rlcard, play


def test_half_unpacked_data_files_are_refused_clearly(rlcard: Variant, monkeypatch: pytest.MonkeyPatch) -> None:
    """RLCard unzips its data files at its first import: read while another process
    unzips them, its one-line action space is cut short or holds bytes that are no cards
    (CI once saw '\x00'). Either is refused with a message saying what happened."""
    from rlcard.games.doudizhu import utils

    from ddzrules.engines import EngineError

    whole = list(utils.ID_2_ACTION)
    for damaged in (whole[:5000], [*whole[:-1], "\x00\x00"]):
        monkeypatch.setattr(utils, "ID_2_ACTION", damaged)
        with pytest.raises(EngineError, match="read incomplete") as info:
            open_engine("rlcard", manifest(rlcard), {})
        assert "\x00" not in str(info.value) and "not installed" not in str(info.value)
