"""The DouZero adapter (ddzrules.engines.douzero) drives the real DouZero 1.1.0: its
generator's universe and legal-move lists equal compat/douzero's, its classifier and
selector agree with compat/douzero except where DouZero disagrees with itself, and
those disagreements come out as findings with witnesses. Skipped without douzero."""

from __future__ import annotations

import random
import sys
from collections import Counter
from typing import Any

import pytest

pytest.importorskip("douzero.env.move_generator")

from conftest import REFERENCE

from ddzrules import cards as C
from ddzrules.engines import Unsupported, load_engine_class, open_engine
from ddzrules.engines.douzero import (
    DETECTOR_ONLY,
    REJECTED,
    REPEATED,
    TWO_FAMILIES,
    WING_RANKED,
    DouZeroEngine,
)
from ddzrules.rules.moves import Move
from ddzrules.rules.variant import Variant


def manifest(v: Variant) -> dict[str, Any]:
    return {"spec": v.name, "spec_resolved": v.spec.data}


@pytest.fixture(scope="module")
def engine(douzero: Variant) -> DouZeroEngine:
    return DouZeroEngine(manifest(douzero), {})


def readings(v: Variant, cards: str) -> set[tuple[str, str, int]]:
    return {(m.combo, m.rank_name, m.length) for m in v.classify(cards)}


def wing_counts(m: Move) -> list[int]:
    chain = range(m.rank - m.length + 1, m.rank + 1)
    return [0 if r in chain else n for r, n in enumerate(C.unpack(m.packed))]


def douzero_agrees(v: Variant, cards: str) -> bool:
    """False for plays DouZero's detector or selector read otherwise than its generator
    (as benchmarks/bench_moves.py): single-wing planes whose wings hold a trio or four."""
    return all(m.combo != "plane_solos" or max(wing_counts(m)) < 3 for m in v.classify(cards))


def rejected_by_design(v: Variant, cards: str) -> bool:
    """The generator plays DouZero's detector rejects (tests/reference/README.md):
    planes of 4-5 trios whose single wings hold a trio or a four."""
    ms = v.classify(cards)
    return bool(ms) and all(m.combo == "plane_solos" and m.length >= 4 and max(wing_counts(m)) >= 3
                            for m in ms)


def accepted_by_mistake(cards: str) -> bool:
    """Card sets DouZero's detector accepts that its generator never makes: a four and a
    single (read as a trio and a pair), two fours (read as a four and two pairs), and four
    trios with extra cards (read as a plane of three trios, the wings never counted)."""
    counts = sorted(n for n in Counter(cards).values())
    return counts in ([1, 4], [4, 4]) or (counts.count(3) == 4 and 4 not in counts and len(cards) > 12)


def deals(n: int, seed: int) -> list[str]:
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
    """The previous play as benchmarks/bench_moves.py draws it: a random lead of another
    hand with one reading and none of DouZero's classifier defect."""
    return rng.choice([m.cards for m in v.legal_moves(hand)
                       if len(v.classify(m.cards)) == 1 and douzero_agrees(v, m.cards)])


# ------------------------------------------------------------------ wiring


def test_registered_and_named(douzero: Variant) -> None:
    assert load_engine_class("douzero") is DouZeroEngine
    e = open_engine("douzero", manifest(douzero), {})
    assert e.name == "DouZero 1.1.0"
    assert not hasattr(e, "perft") and not hasattr(e, "game")
    assert "torch" not in sys.modules  # douzero.env imports no torch in 1.1.0


def test_missing_douzero_names_the_pip_command(douzero: Variant, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "douzero.env", None)
    with pytest.raises(ImportError, match=r"pip install --no-deps douzero==1\.1\.0"):
        DouZeroEngine(manifest(douzero), {})


def test_unsupported_and_options(engine: DouZeroEngine, douzero: Variant) -> None:
    with pytest.raises(Unsupported):
        engine.classify("3", "7")
    with pytest.raises(Unsupported):
        engine.compare("4", "3", "7")
    two_decks = {"spec": "x", "spec_resolved": {**douzero.spec.data, "deck": {"decks": 2}}}
    with pytest.raises(Unsupported, match="one 54-card deck"):
        DouZeroEngine(two_decks, {})
    wild = {"spec": "x", "spec_resolved": {**douzero.spec.data, "wildcards": {}}}
    DouZeroEngine(wild, {})  # an empty wildcards: block is no wildcards
    wild["spec_resolved"]["wildcards"] = {"stand_for": "3..2"}
    with pytest.raises(Unsupported, match="wild"):
        DouZeroEngine(wild, {})
    with pytest.raises(ValueError, match="census"):
        DouZeroEngine(manifest(douzero), {"census": "sometimes"})


# ------------------------------------------------------------------ census


def test_census_is_the_generator_universe(engine: DouZeroEngine, douzero: Variant) -> None:
    got = engine.census()
    want = douzero.census()
    assert got.total == want.total == 29_984
    assert got.by_combo == dict(want.by_combo)
    universe = engine.universe()
    assert set(universe) == set(douzero.universe())
    reference = {}
    for line in (REFERENCE / "douzero_universe.txt").read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            family, _detector, cards = line.split("\t")
            reference[cards] = family
    assert set(universe) == set(reference)
    assert sum(len(f) > 1 for f in universe.values()) == 9
    # the census checks the universe against DouZero's detector and selector
    found = {f.title: f for f in engine.findings()}
    assert found[REJECTED].detail.startswith("3,838 ")
    assert found[REJECTED].witnesses[0] == "3333444555666777"
    assert all(rejected_by_design(douzero, w) for w in found[REJECTED].witnesses)
    assert found[TWO_FAMILIES].detail.startswith("9 ")
    assert found[TWO_FAMILIES].witnesses[0] == "333444555666 (plane and plane_solos)"
    assert found[WING_RANKED].detail.startswith("46 ")
    assert found[WING_RANKED].witnesses[0] == "333444555777 (chain to 5, ranked 7)"


# ------------------------------------------------------------------ classify, compare, moves


def test_classify_is_the_generator_and_the_detector_is_a_finding(douzero: Variant) -> None:
    engine = DouZeroEngine(manifest(douzero), {})
    rng = random.Random(3)
    universe = douzero.universe()
    defects = [p for p in universe if rejected_by_design(douzero, p)]
    sample = rng.sample(universe, 500) + defects[:: max(1, len(defects) // 60)]
    deck = C.full_deck()
    near = []
    for cards in rng.sample(universe, 300):
        c = C.counts_of(C.parse_ranks(cards))
        r = rng.randrange(C.NUM_RANKS)
        c[r] = max(0, min(deck[r], c[r] + rng.choice((-1, 1))))
        if sum(c):
            near.append(C.counts_to_string(c))
    # detector-only shapes: a four and a single, two fours, four trios and a card
    mistakes = ["33334", "34444", "2222X", "33334444", "TTTTKKKK", "333444555666D", "35888999TTTJJJA2D"]
    for cards in sample + near + mistakes:
        got = engine.classify(cards, None)
        assert got.play == bool(readings(douzero, cards)), cards  # the lead generator's verdict
        assert got.readings is None
    assert all(accepted_by_mistake(c) for c in mistakes)
    titles = {f.title: f for f in engine.findings()}
    accepted = next(f for t, f in titles.items() if "detector accepts" in t)
    assert {w.split(" ")[0] for w in accepted.witnesses} <= set(mistakes) | set(near)
    rejected = next(f for t, f in titles.items() if "detector rejects" in t)
    assert all(rejected_by_design(douzero, w.split(" ")[0]) for w in rejected.witnesses)


def test_compare_on_single_reading_pairs(engine: DouZeroEngine, douzero: Variant) -> None:
    rng = random.Random(13)
    unique = [p for p in douzero.universe()
              if len(douzero.classify(p)) == 1 and douzero_agrees(douzero, p)]
    by_family: dict[tuple[str, int, int], list[str]] = {}
    for p in unique:
        m = douzero.classify(p)[0]
        by_family.setdefault((m.combo, m.size, m.length), []).append(p)
    families = sorted(by_family)
    seen = Counter()
    for i in range(800):
        if i % 2:
            fam = by_family[rng.choice(families)]
            a, b = rng.choice(fam), rng.choice(fam)
        else:
            a, b = rng.choice(unique), rng.choice(unique)
        got = engine.compare(a, b, None)
        assert got == douzero.beats(a, b), (a, b)
        seen[got] += 1
    for a, b in (("XD", "2222"), ("3333", "2"), ("4444", "3333"), ("2", "XD"), ("3333XD", "333345")):
        assert engine.compare(a, b, None) == douzero.beats(a, b), (a, b)
    assert seen[True] > 100 and seen[False] > 100


def test_compare_shows_the_selector_and_detector_defects(engine: DouZeroEngine, douzero: Variant) -> None:
    # the selector ranks a single-wing plane by its highest trio, wings included
    assert engine.compare("333444555999", "333555666777", None) is True
    assert douzero.beats("333444555999", "333555666777") is False
    # a generator play the detector rejects can only be answered by a bomb or the rocket
    rejected = "3333444555666777"
    assert engine.classify(rejected, None).play is True  # the generator makes it …
    assert engine._type(rejected)["type"] == engine._wrong  # … its detector rejects it
    higher = "345556667778889T"  # chain 5-8, wings 349T: a plane the detector accepts
    assert engine.classify(higher, None).play is True
    assert engine.compare(higher, rejected, None) is False
    assert douzero.beats(higher, rejected) is True
    assert engine.compare("2222", rejected, None) is True
    # both are documented defects the adapter recognises from the cards alone
    from ddzrules.engines import Discrepancy

    assert engine.known_defect(Discrepancy("compare", "a beat the engine refuses", higher, rejected)) == \
        "answer-to-a-rejected-play"
    assert engine.known_defect(Discrepancy("compare", "a beat the engine allows", "333444555999",
                                           "333555666777")) == "plane-ranked-by-a-wing-trio"
    assert engine.known_defect(Discrepancy("compare", "a beat the engine allows", "4444", "3333")) is None


def test_moves_leads_and_answers(engine: DouZeroEngine, douzero: Variant) -> None:
    hands = deals(150, seed=9)
    rng = random.Random(9)
    answered = repeated = 0
    for i, hand in enumerate(hands):
        lead = engine.moves(hand, None, None)
        assert lead.plays == {m.cards for m in douzero.legal_moves(hand)}, hand
        assert not lead.can_pass
        assert set(lead.duplicates) <= lead.plays
        repeated += bool(lead.duplicates)
        after = a_lead(douzero, hands[(i + 3) % len(hands)], rng)
        got = engine.moves(hand, after, None)
        want = {m.cards for m in douzero.legal_moves(hand, after=after)}
        assert got.can_pass
        assert not want - got.plays, (hand, after, want - got.plays)
        top = douzero.classify(after)[0].rank
        for p in got.plays - want:  # only the selector's wing-trio ranking may add plays
            m = douzero.classify(p)[0]
            assert m.combo == "plane_solos" and max(wing_counts(m)) == 3 and m.rank <= top, (hand, after, p)
        answered += bool(got.plays)
    assert answered > 50 and repeated > 10
    # a crafted answer the selector's ranking lets through
    got = engine.moves("333444555999", "444555666JQK", None)
    assert got.plays == {"333444555999"} and not douzero.legal_moves("333444555999", after="444555666JQK")


def test_findings_carry_witnesses(douzero: Variant) -> None:
    """Findings gathered by classify and moves (a fresh adapter: exact counts)."""
    e = DouZeroEngine(manifest(douzero), {})
    assert e.findings() == []
    e.classify("33334", None)
    e.classify("333444555666D", None)
    dup = e.moves("3334445567", None, None)  # groupby keeps non-adjacent repeats
    assert "33344456" in dup.duplicates and "33344457" in dup.duplicates
    both = e.moves("333444555666", None, None)  # a plane of four, and three trios with wings
    assert "333444555666" in both.duplicates
    found = {f.title: f for f in e.findings()}
    assert set(found) == {DETECTOR_ONLY, REPEATED}
    assert found[DETECTOR_ONLY].detail.startswith("2 ")
    assert found[DETECTOR_ONLY].witnesses == ("33334 (trio_pair)", "333444555666D (plane_solos)")
    assert found[REPEATED].detail.startswith("9 ")  # 2 in the first hand, 7 in the second
    assert "33344456 ×2 from hand 3334445567" in found[REPEATED].witnesses
    assert found[REPEATED].witnesses[0] == "33344455 ×2 from hand 333444555666"
    lead = e.moves("3333444555666777", None, None)  # the hand is a play the detector rejects
    assert "3333444555666777" in lead.plays
    found = {f.title: f for f in e.findings()}
    assert found[REJECTED].detail.startswith("1 ")
    assert found[REJECTED].witnesses == ("3333444555666777",)
    for f in found.values():
        assert 1 <= len(f.witnesses) <= 5
