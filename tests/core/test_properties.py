"""Properties over random hands dealt from a shuffled deck (hypothesis).

* every legal play is inside the hand, reads as itself, and is listed once;
* answering a play lists exactly the hand's plays that beat it;
* for hubei-3p, the plays of small hands are exactly those of an independent
  brute-force reading of the rules (tests/hubei_oracle.py);
* ``beats`` on readings is a strict partial order: irreflexive, antisymmetric,
  transitive;
* card strings round-trip through parse in any accepted notation.
"""

from __future__ import annotations

from collections import defaultdict
from functools import cache

import hubei_oracle as oracle
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ddzrules
from ddzrules import cards as C
from ddzrules.rules.moves import Move

VARIANTS = ["hubei-3p", "compat/rlcard", "compat/douzero"]
FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@cache
def variant(name: str) -> ddzrules.Variant:
    return ddzrules.load_variant(name)


@cache
def all_readings(name: str) -> tuple[Move, ...]:
    v = variant(name)
    return tuple(m for play in v.universe() for m in v.classify(play))


@cache
def families(name: str) -> dict[object, tuple[Move, ...]]:
    out: dict[object, list[Move]] = defaultdict(list)
    for m in all_readings(name):
        out[m.family].append(m)
    return {k: tuple(v) for k, v in out.items()}


# ------------------------------------------------------------------ strategies

DECK = tuple(C.deck_list(C.full_deck(1, True)))   # the 54 cards of every bundled spec


@st.composite
def hands(draw, min_size: int = 0, max_size: int = 20) -> str:
    """A hand dealt from the top of a shuffled 54-card deck."""
    deck = draw(st.permutations(DECK))
    n = draw(st.integers(min_size, max_size))
    return C.counts_to_string(C.counts_of(deck[:n]))


def pick(seq):
    """One element of a long sequence (an index is far cheaper for hypothesis to draw
    and shrink than a sampled_from over tens of thousands of elements)."""
    return st.integers(0, len(seq) - 1).map(seq.__getitem__)


@cache
def readings_of(name: str) -> st.SearchStrategy[Move]:
    return pick(all_readings(name))


@st.composite
def near_combos(draw, name: str) -> str:
    """A play of the universe, sometimes with one card added or taken away."""
    play = list(draw(readings_of(name)).cards)
    change = draw(st.sampled_from(["none", "add", "remove"]))
    if change == "remove" and play:
        del play[draw(st.integers(0, len(play) - 1))]
    elif change == "add":
        counts = C.counts_of(C.parse_ranks("".join(play)))
        spare = [r for r in range(15) if counts[r] < C.full_deck(1)[r]]
        if spare:
            play.append(C.RANKS[draw(st.sampled_from(spare))])
    return C.parse_cards("".join(play))


# ------------------------------------------------------------------ legal moves


@pytest.mark.parametrize("name", VARIANTS)
@FAST
@given(hand=hands())
def test_leads_are_sound(name, hand):
    v = variant(name)
    result = v.legal_moves(hand)
    assert not result.can_pass
    moves = list(result)
    assert len(set(moves)) == len(moves), "a play listed twice"
    packed = C.pack_cards(hand)
    for m in moves:
        assert C.contains(packed, m.packed), (hand, m.cards)
        assert m.cards == C.to_string(m.packed) == C.parse_cards(m.cards)
        assert m.size == len(m.cards)
        assert m in v.classify(m.cards), (hand, m)
    # every single card of the hand can be led
    assert {m.cards for m in moves if m.combo == "single"} == set(hand)


@pytest.mark.parametrize("name", VARIANTS)
@FAST
@given(data=st.data(), hand=hands())
def test_answers_are_exactly_the_plays_that_beat(name, data, hand):
    v = variant(name)
    after = data.draw(readings_of(name), label="after")
    result = v.legal_moves(hand, after=after)
    assert result.can_pass
    answers = list(result)
    assert len(set(answers)) == len(answers)
    for m in answers:
        assert m.beats(after), (m, after)
    assert set(answers) == {m for m in v.legal_moves(hand) if m.beats(after)}


@FAST
@given(hand=hands(max_size=9))
def test_hubei_leads_match_the_oracle(hand):
    """Small hands: the legal plays are exactly every sub-multiset's readings under
    an independent brute-force reading of the rules."""
    got = {(m.cards, m.combo, m.rank, m.length) for m in variant("hubei-3p").legal_moves(hand)}
    expected = {(oracle.text(sub), *r)
                for sub in oracle.sub_multisets(oracle.counts(hand))
                for r in oracle.readings(sub)}
    assert got == expected


@FAST
@given(data=st.data(), hand=hands())
def test_hubei_answers_match_the_oracle(data, hand):
    v = variant("hubei-3p")
    after = data.draw(readings_of("hubei-3p"), label="after")
    b = (after.combo, after.rank, after.length, after.size)
    got = {m.cards for m in v.legal_moves(hand, after=after)}
    expected = {m.cards for m in v.legal_moves(hand)
                if oracle.beats((m.combo, m.rank, m.length, m.size), b)}
    assert got == expected


@FAST
@given(cards=st.one_of(near_combos("hubei-3p"), hands(min_size=1)))
def test_hubei_classify_matches_the_oracle(cards):
    got = {(m.combo, m.rank, m.length) for m in variant("hubei-3p").classify(cards)}
    assert got == oracle.readings(oracle.counts(cards))


# ------------------------------------------------------------------ beats is a strict partial order


@cache
def related(name: str) -> st.SearchStrategy[tuple[Move, Move, Move]]:
    """Three readings, usually of one family (bombs are one family), so that the
    order is exercised and not only vacuously true."""
    fams = families(name)
    per_family = [st.tuples(pick(fams[f]), pick(fams[f]), pick(fams[f])) for f in sorted(fams, key=repr)]
    same = st.integers(0, len(per_family) - 1).flatmap(per_family.__getitem__)
    bombs_and_any = st.tuples(pick(fams["bomb"]), readings_of(name), readings_of(name))
    anything = st.tuples(readings_of(name), readings_of(name), readings_of(name))
    return st.one_of(same, bombs_and_any, anything).flatmap(st.permutations).map(tuple)


@pytest.mark.parametrize("name", VARIANTS)
@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_beats_is_a_strict_partial_order(name, data):
    a, b, c = data.draw(related(name))
    assert not a.beats(a)
    assert not (a.beats(b) and b.beats(a))
    if a.beats(b) and b.beats(c):
        assert a.beats(c)


@pytest.mark.parametrize("name", VARIANTS)
@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_who_beats_whom(name, data):
    """Bombs beat every other play; other plays beat only their own family
    (same combo, card count and chain length) with a higher main rank."""
    a, b, _ = data.draw(related(name))
    if a.is_bomb and not b.is_bomb:
        assert a.beats(b) and not b.beats(a)
    elif not a.is_bomb and not b.is_bomb:
        same = (a.combo, a.size, a.length) == (b.combo, b.size, b.length)
        assert a.beats(b) is (same and a.rank > b.rank)


# ------------------------------------------------------------------ notation round trip

ALIASES = {"T": ["T", "t", "10"], "X": ["X", "x", "小王"], "D": ["D", "d", "大王"]}


@st.composite
def written(draw) -> tuple[str, str]:
    """(canonical string, the same cards in some accepted notation, in any order)."""
    ranks = draw(st.lists(st.integers(0, 14), max_size=30))
    canonical = C.counts_to_string(C.counts_of(ranks))
    order = draw(st.permutations(ranks))
    parts = []
    for r in order:
        ch = C.RANKS[r]
        parts.append(draw(st.sampled_from(ALIASES.get(ch, [ch, ch.lower()]))))
        parts.append(draw(st.sampled_from(["", "", " ", "+", ","])))
    return canonical, "".join(parts)


@settings(max_examples=200, deadline=None)
@given(pair=written())
def test_notation_round_trips(pair):
    canonical, text = pair
    assert C.parse_cards(text) == canonical
    assert C.parse_cards(canonical) == canonical
    assert C.to_string(C.pack_cards(text)) == canonical
    # canonical: ranks ascending
    idx = [C.RANKS.index(ch) for ch in canonical]
    assert idx == sorted(idx)


@pytest.mark.parametrize("name", VARIANTS)
@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_moves_round_trip(name, data):
    v = variant(name)
    m = data.draw(readings_of(name))
    assert C.parse_cards(m.cards) == m.cards
    assert m in v.classify(m.cards)
    lower = " + ".join(m.cards.lower())
    assert v.classify(lower) == v.classify(m.cards)
    assert v.classify(C.Ranks([C.RANKS.index(ch) for ch in m.cards])) == v.classify(m.cards)
