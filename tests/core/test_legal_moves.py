"""LegalMoves, the value a hand's listing returns: a tuple of Moves with can_pass beside it."""

from __future__ import annotations

import copy
import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ddzrules import LegalMoves, load_variant
from ddzrules import cards as C


@pytest.fixture(scope="module")
def hubei():
    return load_variant("hubei-3p")


def test_a_tuple_of_moves_with_can_pass(hubei):
    lm = hubei.legal_moves("3456789", after="34567")
    assert isinstance(lm, LegalMoves) and isinstance(lm, tuple)
    assert [m.cards for m in lm] == ["45678", "56789"]
    assert len(lm) == 2 and lm[0].cards == "45678" and lm.can_pass
    assert type(lm.moves) is tuple and lm.moves == tuple(lm)
    assert not hubei.legal_moves("3456789").can_pass  # a lead


def test_equality_takes_can_pass_into_account(hubei):
    moves = hubei.legal_moves("33").moves
    lead, answer = LegalMoves(moves, can_pass=False), LegalMoves(moves, can_pass=True)
    assert lead != answer and (lead == answer) is False
    assert lead == LegalMoves(list(moves), can_pass=False)
    assert hash(lead) == hash(LegalMoves(moves, can_pass=False))
    assert LegalMoves() == LegalMoves((), can_pass=False) and not LegalMoves()


@pytest.mark.parametrize("can_pass", [False, True])
def test_pickle_and_copy_keep_can_pass(hubei, can_pass):
    lm = LegalMoves(hubei.legal_moves("3334").moves, can_pass=can_pass)
    for again in (pickle.loads(pickle.dumps(lm)), copy.copy(lm), copy.deepcopy(lm)):
        assert again == lm and again.can_pass is can_pass and isinstance(again, LegalMoves)


def test_contains_a_move_or_its_cards(hubei):
    lm = hubei.legal_moves("3334")
    assert "3334" in lm and lm[0] in lm
    assert "3335" not in lm and 3 not in lm


def test_repr_names_both_parts(hubei):
    lm = hubei.legal_moves("33", after="3")
    assert repr(lm).startswith("LegalMoves(moves=(") and repr(lm).endswith("can_pass=True)")


DECK = C.deck_list(C.full_deck())
#: hands of one deck: distinct cards of it, as sorted rank indices
hands = st.lists(st.sampled_from(range(len(DECK))), unique=True, min_size=1, max_size=20).map(
    lambda cards: sorted(DECK[i] for i in cards))


@settings(max_examples=60, deadline=None)
@given(hand=hands, data=st.data())
def test_quick_path_and_general_path_agree(hubei, hand, data):
    """A hand given as a list of rank indices (the quick path) and as its card string
    (the general one) list the same LegalMoves, leads and answers alike."""
    hubei.fast_index()  # the quick path reads it (before it is built, both paths enumerate)
    ranks = C.Ranks(hand)
    text = C.counts_to_string(C.counts_of(ranks))
    lead = hubei.legal_moves(ranks)
    assert lead == hubei.legal_moves(text) and type(lead) is type(hubei.legal_moves(text))
    after = data.draw(st.sampled_from(hubei.universe()))
    answer = hubei.legal_moves(ranks, after=after)
    assert answer == hubei.legal_moves(text, after=after) and answer.can_pass


class _Rank:
    """An integer type of a user's own (numpy's ints are one): only ``__index__``."""

    def __init__(self, i: int) -> None:
        self.i = i

    def __index__(self) -> int:
        return self.i


def test_any_integer_type_is_a_rank_index_on_every_path(hubei):
    """The quick path (bytes() of the list), the compiled build's kernel (which hands such
    items to the general path) and the general path read __index__ alike."""
    hubei.fast_index()
    hand = C.Ranks([0, 1, 2, 3, 4, 4])
    assert hubei.legal_moves(C.Ranks([_Rank(r) for r in hand])) == hubei.legal_moves(hand)  # type: ignore[misc]
    assert hubei.legal_moves(C.Ranks(map(_Rank, hand)), after="3") == hubei.legal_moves(hand, after="3")  # type: ignore[arg-type]
    assert C.counts_of([_Rank(0), 0, _Rank(14)]) == [2] + [0] * 13 + [1]
    for bad in ([_Rank(15)], [_Rank(-1)], [1.0], ["3"]):
        with pytest.raises(C.CardError, match="rank index|cards must be"):
            hubei.legal_moves(C.Ranks(bad))  # type: ignore[arg-type]


@settings(max_examples=60, deadline=None)
@given(hand=hands)
def test_each_typed_form_of_a_hand_lists_its_plays_and_a_bare_list_that_could_be_counts_is_refused(hubei, hand):
    """A card string, Ranks and Counts of one hand list the same plays; a bare list of
    numbers could be either counts or rank indices and is refused, at every door, whatever
    its length (issue 45: a longer one was read as rank indices)."""
    text = C.counts_to_string(C.counts_of(hand))
    want = hubei.legal_moves(text)
    assert hubei.legal_moves(C.Ranks(hand)) == want
    assert hubei.legal_moves(C.Counts(C.counts_of(hand))) == want
    assert hubei.classify(C.Counts(C.counts_of(hand))) == hubei.classify(text)
    for door in (hubei.legal_moves, hubei.classify, lambda cards: hubei.legal_moves("3", after=cards)):
        for bare in (list(hand), tuple(hand)):
            with pytest.raises(C.CardError, match="could be counts by rank"):
                door(bare)
