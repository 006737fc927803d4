"""The Python API refuses bad input with a DdzError (issue 11): one regression test per
measured finding, then a property over arbitrary values: every call either answers or
raises a DdzError, never another exception, and finishes."""

from __future__ import annotations

import pickle
from collections.abc import Callable
from typing import Any

import pytest
from fuzzers import bounded
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ddzrules
from ddzrules import cards as C
from ddzrules.cards import CardError
from ddzrules.errors import DdzError
from ddzrules.rules.moves import Move
from ddzrules.rules.variant import Variant
from ddzrules.spec.patterns import PatternSyntaxError, parse_pattern


@pytest.fixture(scope="module")
def laizi(_private_cache: None) -> Variant:
    return ddzrules.load_variant("laizi")


@pytest.fixture(scope="module")
def shuttle(_private_cache: None) -> Variant:
    return ddzrules.load_variant("space-shuttle")


# ------------------------------------------------------------------ one hierarchy


@pytest.mark.parametrize("error", [CardError, PatternSyntaxError])
def test_card_and_pattern_errors_are_ddz_errors_and_value_errors(error):
    assert issubclass(error, DdzError)
    assert issubclass(error, ValueError)  # callers that catch ValueError keep working


# ------------------------------------------------------------------ 16 or more of a rank


@pytest.mark.parametrize("cards", ["3" * 16, "3 " * 16, C.Ranks([0] * 17),
                                   pytest.param("3456789TJQKA2" * 16, id="208 cards")])
def test_more_of_a_rank_than_a_set_holds_is_a_card_error(hubei, cards):
    # was a plain ValueError from pack()
    with pytest.raises(CardError, match="× 3: a set of cards holds 0 to 15 of a rank"):
        hubei.classify(cards)
    with pytest.raises(CardError, match="× 3"):
        C.pack_cards(cards) if isinstance(cards, str) else C.pack(C.counts_of(cards))


def test_sixteen_of_a_rank_in_every_api_call(hubei, laizi):
    cards = "3" * 16
    for call in (lambda: hubei.legal_moves(cards), lambda: hubei.legal_moves("34", after=cards),
                 lambda: hubei.beats(cards, "4"), lambda: hubei.reading(cards),
                 lambda: laizi.classify(cards, wild="7"), lambda: laizi.classify("7" * 16, wild="7")):
        with pytest.raises(DdzError):
            call()


def test_two_hundred_cards(hubei, laizi):
    cards = "3456789TJQKA2" * 15 + "XD"  # 197 cards, 15 of each rank: every count fits
    assert hubei.classify(cards) == ()
    assert laizi.classify(cards, wild="7") == ()  # no play of the universe (and no long walk)
    with pytest.raises(DdzError, match="has only 4 in its deck"):
        hubei.legal_moves(cards)


# ------------------------------------------------------------------ rank indices


@pytest.mark.parametrize("ranks", [[-1], [0, -1], [-15], [15], [0, 99], [None], [1.5], ["3"], [10**40]])
def test_rank_indices_out_of_range_or_of_another_type_are_refused(hubei, ranks):
    # [-1] used to read as the big joker, [15] raised IndexError
    with pytest.raises(CardError, match="is not a rank index"):
        C.counts_of(ranks)
    with pytest.raises(CardError, match="is not a rank index"):
        hubei.classify(C.Ranks(ranks))


@pytest.mark.parametrize("hand", [[0, 0, -1], [-15, 1], (3, -2), [0, 10**30]])
def test_negative_ranks_in_the_legal_moves_fast_path(hubei, hand):
    # rank indices (Ranks) take the quick counting path, where -1 counted as the big joker
    with pytest.raises(CardError, match="is not a rank index"):
        hubei.legal_moves(C.Ranks(hand))
    with pytest.raises(CardError, match="is not a rank index"):
        hubei.legal_moves(C.Ranks([0, 1, 2]), after=C.Ranks(hand))


@pytest.mark.parametrize("cards", [None, 7, 3.5, object(), b"33", {0: 1}, iter([0, 1])])
def test_cards_of_no_accepted_form(hubei, cards):
    with pytest.raises(CardError, match=r"a card string .*a Move, ddzrules\.Counts\(\.\.\.\) or ddzrules\.Ranks"):
        hubei.classify(cards)
    with pytest.raises(CardError, match=r"a card string .*a Move, ddzrules\.Counts\(\.\.\.\) or ddzrules\.Ranks"):
        hubei.legal_moves(cards)


@pytest.mark.parametrize("cards", [[0, 1, 2], (0,) * 17, list(range(15)) * 2, []])
def test_a_bare_sequence_of_numbers_is_refused_at_any_length(hubei, cards):
    """Counts by rank and a rank index per card are both lists of small ints (issue 45): a
    bare one is refused at every door, long or short, naming the two typed forms."""
    for door in (hubei.classify, hubei.legal_moves, hubei.reading, lambda c: hubei.beats(c, "3"),
                 lambda c: hubei.legal_moves("3", after=c)):
        with pytest.raises(CardError, match=r"could be counts by rank .* or a rank index per card") as info:
            door(cards)
        assert "Counts(" in str(info.value) and "Ranks(" in str(info.value)


def test_size_of_a_negative_packed_count_raises_and_returns(hubei):
    with bounded("size_of(-5)", 5), pytest.raises(CardError, match="not a packed count"):
        C.size_of(-5)


# ------------------------------------------------------------------ wild ranks


BAD_WILDS = [(15, "15 is no rank index"), (-1, "-1 is no rank index"), (99, "99 is no rank index"),
             ("Z", "unknown rank 'Z'"), ("", "unknown rank ''"), (1.5, "not 1.5"), (True, "not True"),
             ([], r"no wild rank given"), ("7,9", "at most 1 wild at once"), (13, "X cannot be the wild rank"),
             ("D", "D cannot be the wild rank")]


@pytest.mark.parametrize("wild,message", BAD_WILDS)
def test_a_bad_wild_rank_is_a_ddz_error_everywhere(laizi, wild, message):
    # wild=15 raised IndexError, wild=-1 was read as the big joker ("D cannot be ...")
    calls: list[Callable[[], object]] = [
        lambda: laizi.classify("33", wild=wild), lambda: laizi.beats("44", "33", wild=wild),
        lambda: laizi.legal_moves("3345", wild=wild), lambda: laizi.legal_moves("3345", after="3", wild=wild),
        lambda: laizi.census(wild=wild), lambda: laizi.reading("33", wild=wild)]
    for call in calls:
        with pytest.raises(DdzError, match=message):
            call()


def test_a_wild_rank_given_as_an_index_is_that_rank(laizi):
    seven = C.RANK_INDEX["7"]
    assert laizi.classify("445567", wild=seven) == laizi.classify("445567", wild="7")
    assert [m.combo for m in laizi.classify("445567", wild="7")] == ["pair_chain"]


def test_a_wild_rank_in_a_spec_without_wildcards(hubei):
    with pytest.raises(DdzError, match="has no wildcards"):
        hubei.classify("33", wild=15)


# ------------------------------------------------------------------ Moves of another variant


def _shuttle_move(shuttle: Variant) -> Move:
    (move,) = [m for m in shuttle.classify("33334444") if m.combo == "shuttle"]
    return move


@pytest.mark.parametrize("indexed", [False, True])
def test_a_move_of_another_variant_that_is_no_play_here_is_refused(shuttle, indexed):
    hubei = ddzrules.load_variant("hubei-3p")  # fresh: it enumerates its first hands unless indexed
    if indexed:
        hubei.fast_index()
    move = _shuttle_move(shuttle)  # 太空梭: no combo of hubei-3p
    # was ValueError: 'shuttle' is not in list (in the fast path and in the enumeration)
    for hand in ("3334445556667778889", "33344455566677788899TTJJQQKKAA22XD"):
        with pytest.raises(DdzError, match="'33334444' is not a combo of hubei-3p"):
            hubei.legal_moves(hand, after=move)
    with pytest.raises(DdzError, match="not a combo of hubei-3p"):
        hubei.beats("XD", move)


def test_a_move_of_another_variant_is_re_read_by_its_cards(hubei, douzero):
    (foreign,) = douzero.classify("33344469")  # DouZero's plane_solos: hubei-3p calls it plane_wings
    assert foreign.combo not in hubei.combo_names
    hand = "4445556677TJQKA22"
    assert hubei.legal_moves(hand, after=foreign) == hubei.legal_moves(hand, after="33344469")
    assert hubei.reading(foreign) == hubei.reading("33344469")
    assert hubei.beats("44455567", foreign) and not hubei.beats(foreign, "44455567")


def test_a_copy_of_a_move_of_this_variant_keeps_its_reading(douzero):
    # 333444555666 reads three ways; a Move passed back (here unpickled, as from a worker
    # process) keeps the reading it is, not the strongest one
    readings = douzero.classify("333444555666")
    weakest = pickle.loads(pickle.dumps(readings[0]))
    assert weakest is not readings[0] and weakest != readings[-1]
    assert douzero.reading(weakest) == readings[0]
    hand = "444555666777TJQKA"
    assert douzero.legal_moves(hand, after=weakest) == douzero.legal_moves(hand, after=readings[0])


def test_a_wild_reading_passed_back_to_its_variant(laizi):
    (wild_move,) = laizi.classify("445567", wild="7")
    assert wild_move.substitution == (("7", "6"),)
    # answered by a hand with and without wild cards
    assert [m.cards for m in laizi.legal_moves("55667788", after=wild_move, wild="7")][:1] == ["556677"]
    assert [m.cards for m in laizi.legal_moves("556688", after=wild_move, wild="7")] == []


# ------------------------------------------------------------------ wrong types


@pytest.mark.parametrize("other", ["33", None, 3, (0, 0)])
def test_move_beats_only_a_move(hubei, other):
    move = hubei.reading("44")
    with pytest.raises(DdzError, match="compares with a Move"):
        move.beats(other)


def test_a_move_built_by_hand_with_odd_fields(hubei):
    odd_rank = Move("33", "pair", "x", 1, 2, -1, (0,), C.pack_cards("33"))  # type: ignore[arg-type]
    with pytest.raises(DdzError, match="compares with a Move"):
        hubei.reading("44").beats(odd_rank)
    # it is no Move of this variant: read by its cards
    assert hubei.beats("44", odd_rank)
    for packed in (-5, 1 << 80, "33", None):
        forged = Move("33", "pair", 0, 1, 2, -1, (0,), packed)  # type: ignore[arg-type]
        with pytest.raises(CardError, match="holds no packed count"):
            hubei.classify(forged)
        with pytest.raises(CardError, match="holds no packed count"):
            hubei.legal_moves("3344", after=forged)


@pytest.mark.parametrize("a,b", [(None, "33"), ("33", 5), ([None], "3"), ("3", b"3")])
def test_compare_with_values_that_are_no_cards(hubei, a, b):
    with pytest.raises(CardError):
        hubei.beats(a, b)


@pytest.mark.parametrize("text,message", [
    (None, "must be text"), (7, "must be text"),
    pytest.param("1" * 5000, "too large", id="a 5000-digit count"), ("1{5..} + 1*9999999", "too large")])
def test_patterns_that_are_no_patterns(text, message):
    # a 5,000-digit count raised a lark VisitError (Python's int digit limit)
    with pytest.raises(PatternSyntaxError, match=message):
        parse_pattern(text)


@pytest.mark.parametrize("text", [None, 7, ["3"], b"33"])
def test_card_strings_that_are_no_text(text):
    with pytest.raises(CardError, match="must be text"):
        C.parse_cards(text)


# ------------------------------------------------------------------ the property

ranks_like = st.one_of(st.integers(-20, 30), st.none(), st.booleans(), st.floats(allow_nan=True),
                       st.text(max_size=2), st.integers())
hostile = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True),
    st.text(max_size=40),
    st.text(alphabet="3456789TJQKA2XDtjqkaxd10 +,-\x1b\x00\t[]/小王大王", max_size=60),
    st.text(alphabet="3456789TJQKA2XD", max_size=40),
    st.lists(ranks_like, max_size=40), st.lists(st.integers(0, 14), max_size=220).map(tuple),
    st.lists(ranks_like, max_size=40).map(C.Ranks), st.lists(st.integers(0, 16), max_size=16).map(tuple),
    st.binary(max_size=10),
)
wilds = st.one_of(st.none(), st.sampled_from(["7", "X", "", "10", "t", "Z"]), st.integers(-3, 20),
                  st.integers(), st.floats(), st.booleans(), st.text(max_size=3))


def _answer_or_refuse(call: Callable[[], Any]) -> None:
    with bounded("an API call"):
        try:
            call()
        except DdzError:
            pass  # a refusal with a message; any other exception fails the test


@settings(max_examples=250, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(a=hostile, b=hostile, wild=wilds, name=st.sampled_from(["hubei", "laizi", "shuttle"]))
def test_the_api_answers_or_raises_a_ddz_error(hubei, laizi, shuttle, a, b, wild, name):
    v = {"hubei": hubei, "laizi": laizi, "shuttle": shuttle}[name]
    for call in (lambda: v.classify(a, wild=wild), lambda: v.beats(a, b, wild=wild),
                 lambda: v.legal_moves(a, after=b, wild=wild), lambda: v.legal_moves(a, after=b),
                 lambda: v.reading(a, wild=wild), lambda: C.parse_cards(a), lambda: C.counts_of(a),
                 lambda: C.pack(a), lambda: C.size_of(a), lambda: C.parse_rank(a)):
        _answer_or_refuse(call)
    if v is not laizi:  # a wildcard census walks the whole universe (seconds): not here
        _answer_or_refuse(lambda: v.census(wild=wild))


@settings(max_examples=100, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_moves_of_any_variant_are_answered_or_refused(hubei, laizi, shuttle, douzero, data):
    variants = [hubei, laizi, shuttle, douzero]
    source = data.draw(st.sampled_from(variants))
    target = data.draw(st.sampled_from(variants))
    hand = data.draw(st.text(alphabet="3456789TJQKA2XD", min_size=1, max_size=20))
    wild = data.draw(st.sampled_from([None, "7"]) if source is laizi else st.none())
    plays = list(source.legal_moves(hand, wild=wild)) if _fits(source, hand) else []
    if not plays:
        return
    after = data.draw(st.sampled_from(plays))
    other = data.draw(st.text(alphabet="3456789TJQKA2XD", max_size=20))
    _answer_or_refuse(lambda: target.legal_moves(other, after=after))
    _answer_or_refuse(lambda: target.beats(other or "3", after))
    _answer_or_refuse(lambda: target.reading(after))


def _fits(v: Variant, hand: str) -> bool:
    return all(hand.count(r) <= v.rules.deck[i] for i, r in enumerate(C.RANKS))
