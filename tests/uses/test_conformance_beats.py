"""Conformance suites test every "beats" relation of their spec (issue 43): for each ordered
pair of combos A led, B answering (bomb tiers and the rocket are combos), a hand holding a
play of B that beats a play of A and one holding a play of B that must not. Engines that
get one relation wrong in their legal moves alone — a bomb on the rocket, a lower bomb on
a higher, a chain of another kind or length — fail the moves vectors of the suite."""

from __future__ import annotations

import functools
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ddzrules import cards as C
from ddzrules import load_variant
from ddzrules.conformance import (
    LEVELS,
    Universe,
    beats_coverage,
    beats_relations,
    gen_moves,
    generate,
    load_manifest,
    read_vectors,
    write_suite,
)
from ddzrules.conformance.run import run_suite
from ddzrules.engines import MovesAnswer
from ddzrules.engines.native import NativeEngine
from ddzrules.rules.moves import Move

SPECS = ("hubei-3p", "hubei-4p-2deck", "laizi", "compat/openspiel", "paodekuai")


@pytest.fixture(scope="module")
def suites(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = {}
    for spec in ("hubei-3p", "hubei-4p-2deck"):
        d = tmp_path_factory.mktemp(spec)
        write_suite(generate(load_variant(spec), level="smoke", seed=0), d)
        out[spec] = d
    return out


@pytest.mark.parametrize("spec", SPECS)
def test_a_suite_tests_every_beats_relation_of_its_spec_in_both_polarities(spec: str) -> None:
    v = load_variant(spec)
    moves = gen_moves(v, Universe(v), LEVELS["smoke"], random.Random(0))  # a suite's moves vectors
    covered, relations = beats_coverage(v, moves)
    assert covered == set(relations)
    names = {c.name for c in v.rules.combos}
    if {"bomb", "rocket"} <= names:  # the blind spot of issue 43: a bomb answering the rocket
        assert {("rocket", "bomb", False), ("bomb", "rocket", True), ("bomb", "bomb", True)} <= covered
    plain = [c.name for c in v.rules.combos if c.tier < 0]
    bombs = [c.name for c in v.rules.combos if c.tier >= 0 and c.name in Universe(v).by_combo]
    for a in plain:  # every bomb tier beats every plain combo; no plain combo beats a bomb
        for b in bombs:
            assert (a, b, True) in covered and (b, a, False) in covered, (a, b)


def test_the_relations_are_those_of_the_spec_not_of_the_generator() -> None:
    """Plain combos beat only their own kind, so a single never beats a pair; bombs beat
    every plain play, and only a higher bomb; the rocket and the rocket cannot share a deck."""
    v = load_variant("hubei-3p")
    relations = set(beats_relations(v))
    assert ("pair", "single", True) not in relations and ("pair", "single", False) in relations
    assert ("rocket", "rocket", True) not in relations and ("rocket", "rocket", False) not in relations
    assert ("rocket", "bomb", True) not in relations and ("bomb", "rocket", False) not in relations
    two = set(beats_relations(load_variant("hubei-4p-2deck")))  # bombs of 4 to 8 cards
    assert {("bomb", "bomb", True), ("bomb", "bomb", False), ("rocket", "bomb", False)} <= two


@settings(max_examples=300, deadline=None)
@given(st.randoms(use_true_random=False))
def test_no_pair_of_plays_shows_a_relation_the_suite_does_not_count(rnd: random.Random) -> None:
    """The relations are found on each family's weakest and strongest plays; any two plays
    of the universe that a deal can hold together show one of them."""
    v = VARIANTS[rnd.choice(sorted(VARIANTS))]
    u = UNIVERSES[v.name]
    a_cards, b_cards = rnd.choice(u.strings), rnd.choice(u.strings)
    (a, *more) = u.table[a_cards]
    if more:
        return  # a play to answer has one reading in a suite
    together = [x + y for x, y in zip(C.unpack(a.packed), C.unpack(u.table[b_cards][0].packed))]
    if any(n > d for n, d in zip(together, v.rules.deck)):
        return
    readings: tuple[Move, ...] = u.table[b_cards]
    relations = relations_of(v.name)
    for b in readings:
        if b.beats(a):
            assert (a.combo, b.combo, True) in relations, (a.cards, b.cards)
    if not any(b.beats(a) for b in readings):
        for b in readings:
            assert (a.combo, b.combo, False) in relations, (a.cards, b.cards)


VARIANTS = {s: load_variant(s) for s in ("hubei-3p", "hubei-4p-2deck", "space-shuttle")}
UNIVERSES = {v.name: Universe(v) for v in VARIANTS.values()}


@functools.cache
def relations_of(name: str) -> frozenset[tuple[str, str, bool]]:
    return frozenset(beats_relations(VARIANTS[name]))


# ---------------------------------------------------------------- mutants


class Mutant(NativeEngine):
    """The native engine with one wrong relation: it also lists, in an answer, each play of
    the hand that :meth:`wrongly` lets beat the play led."""

    @staticmethod
    def wrongly(m: Move, led: Move) -> bool:
        raise NotImplementedError

    def moves(self, hand: str, after: str | None, wild: str | None) -> MovesAnswer:
        ans = super().moves(hand, after, wild)
        if after is None:
            return ans
        led = self.variant.classify(after, wild=wild)
        extra = {m.cards for m in self.variant.legal_moves(hand, wild=wild)
                 if any(self.wrongly(m, x) for x in led)}
        return MovesAnswer(ans.plays | frozenset(extra), ans.can_pass)


class BombOnRocket(Mutant):
    """As the PyPI engine doudizhu 0.1.5 was found to answer: moves("33334", after="XD") == {"3333"}."""

    @staticmethod
    def wrongly(m: Move, led: Move) -> bool:
        return m.combo == "bomb" and led.combo == "rocket"


class LowerTierBeats(Mutant):
    """Bomb tiers read the wrong way round: a bomb of a lower tier beats one of a higher."""

    @staticmethod
    def wrongly(m: Move, led: Move) -> bool:
        return 0 <= m.tier < led.tier


class BombsByRankOnly(Mutant):
    """Bombs compared by rank alone: a four-card bomb of 4s beats a five-card bomb of 3s."""

    @staticmethod
    def wrongly(m: Move, led: Move) -> bool:
        return m.is_bomb and led.is_bomb and m.rank > led.rank


class ChainOfAnotherKind(Mutant):
    """Chains compared by card count and top rank: 9TJQKA beats 334455."""

    @staticmethod
    def wrongly(m: Move, led: Move) -> bool:
        return (m.tier < 0 and led.tier < 0 and m.length > 1 and led.length > 1 and m.combo != led.combo
                and m.size == led.size and m.rank > led.rank)


class ChainOfAnotherLength(Mutant):
    """Chains of one kind compared by top rank, whatever their length: 45678 beats 3456789."""

    @staticmethod
    def wrongly(m: Move, led: Move) -> bool:
        return m.tier < 0 and m.combo == led.combo and m.length != led.length and m.rank > led.rank


@pytest.mark.parametrize(("spec", "mutant", "tag"), [
    ("hubei-3p", "BombOnRocket", "bomb-on-rocket/cannot-beat"),
    ("hubei-3p", "LowerTierBeats", "bomb-on-rocket/cannot-beat"),
    ("hubei-4p-2deck", "LowerTierBeats", "bomb-on-rocket/cannot-beat"),
    ("hubei-4p-2deck", "BombsByRankOnly", "bomb-on-bomb/cannot-beat-other-shape"),
    ("hubei-3p", "ChainOfAnotherKind", "straight-on-pair_chain/cannot-beat"),
    ("hubei-3p", "ChainOfAnotherLength", "straight-on-straight/cannot-beat-other-shape"),
])
def test_an_engine_wrong_in_one_relation_fails_the_moves_vectors(suites: dict[str, Path], spec: str, mutant: str,
                                                                   tag: str) -> None:
    d = suites[spec]
    report = run_suite(d, f"{__name__}:{mutant}", categories=["moves"])
    assert not report.ok
    covers = {x["id"]: x["covers"] for x in read_vectors(d, load_manifest(d), "moves")}
    failed = {covers[o.vector_id] for o in report.outcomes if o.status == "failed"}
    assert tag in failed, sorted(failed)
    assert all(c.kind == "a play the engine lists that the spec does not allow here"
               for o in report.outcomes if o.status == "failed" for c in o.causes)


def test_the_native_engine_passes_every_beats_vector(suites: dict[str, Path]) -> None:
    for d in suites.values():
        report = run_suite(d, "ddzrules", categories=["moves"])
        assert report.ok and report.counts["moves"]["failed"] == 0
