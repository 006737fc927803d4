"""The C kernels of legal_moves' quick path (ddzrules/_quick.c, built by the compiled
build only): each against its definition in Python, on ordinary and hostile input. The
pure build has no kernels, and these tests skip there (tests/core/test_compiled.py checks that
the kernels exist exactly when the build says so)."""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ddzrules import LegalMoves, load_variant
from ddzrules import cards as C
from ddzrules.moves import LEGAL_MOVES

quick = pytest.importorskip("ddzrules._quick", reason="the C kernels are built only by the compiled build")

ONE_DECK = bytes(C.full_deck())


def counts_by_definition(hand: object, limits: bytes) -> bytes | None:
    """A hand's counts, a byte a rank, or None unless it is a list or tuple of plain ints
    in range(len(limits)) with no rank above its limit."""
    if type(hand) not in (list, tuple) or any(type(r) is not int for r in hand):  # type: ignore[attr-defined]
        return None
    if any(not 0 <= r < len(limits) for r in hand):  # type: ignore[attr-defined]
        return None
    counts = [hand.count(r) for r in range(len(limits))]  # type: ignore[attr-defined]
    return bytes(counts) if all(c <= m for c, m in zip(counts, limits)) else None


items = st.one_of(st.integers(-3, 20), st.integers(), st.booleans(), st.floats(), st.text(max_size=2), st.none())


@settings(max_examples=400, deadline=None)
@given(hand=st.lists(st.integers(0, 14), max_size=30) | st.lists(items, max_size=30), as_tuple=st.booleans())
def test_hand_counts_is_its_definition(hand: list, as_tuple: bool) -> None:
    shaped = tuple(hand) if as_tuple else hand
    assert quick.hand_counts(shaped, ONE_DECK) == counts_by_definition(shaped, ONE_DECK)


def test_hand_counts_examples() -> None:
    assert quick.hand_counts([0, 0, 14], ONE_DECK) == bytes([2] + [0] * 13 + [1])
    assert quick.hand_counts([], ONE_DECK) == bytes(15)
    assert quick.hand_counts([13, 13], ONE_DECK) is None  # one black joker in a deck
    assert quick.hand_counts([15], ONE_DECK) is None and quick.hand_counts([-1], ONE_DECK) is None
    assert quick.hand_counts([10**30], ONE_DECK) is None and quick.hand_counts([True], ONE_DECK) is None
    assert quick.hand_counts("3", ONE_DECK) is None and quick.hand_counts(iter([0]), ONE_DECK) is None
    with pytest.raises(TypeError):
        quick.hand_counts([0], [4] * 15)
    with pytest.raises(TypeError):
        quick.hand_counts([0], bytes(256))
    with pytest.raises(TypeError):
        quick.hand_counts([0])


MOVES = tuple(f"m{i}" for i in range(50))


@settings(max_examples=300, deadline=None)
@given(order=st.lists(st.integers(-1, 49), max_size=60), can_pass=st.booleans())
def test_legal_tuple_is_sorted_lookups_without_placeholders(order: list[int], can_pass: bool) -> None:
    cls = LEGAL_MOVES[can_pass]
    got = quick.legal_tuple(cls, list(order), MOVES)
    assert type(got) is cls and got.can_pass is can_pass
    assert tuple(got) == tuple(MOVES[i] for i in sorted(order) if i >= 0)


def test_legal_tuple_refuses_what_it_cannot_read() -> None:
    with pytest.raises(IndexError):
        quick.legal_tuple(tuple, [0, 50], MOVES)
    with pytest.raises(TypeError):
        quick.legal_tuple(tuple, [0, "1"], MOVES)
    with pytest.raises(TypeError):
        quick.legal_tuple(list, [0], MOVES)
    with pytest.raises(TypeError):
        quick.legal_tuple(tuple, (0,), MOVES)
    with pytest.raises(OverflowError):
        quick.legal_tuple(tuple, [10**30], MOVES)
    assert quick.legal_tuple(tuple, [], MOVES) == () and quick.legal_tuple(tuple, [-1, -1], MOVES) == ()
    # a C subclass of tuple with its own layout (it would be freed as one of its own)
    with pytest.raises(TypeError):
        quick.legal_tuple(time.struct_time, [], MOVES)


def test_legal_tuple_makes_ordinary_tuples() -> None:
    got = quick.legal_tuple(LEGAL_MOVES[True], [3, 1], MOVES)
    assert hash(got) == hash(("m1", "m3")) and got == LegalMoves(("m1", "m3"), can_pass=True)  # type: ignore[arg-type]
    assert quick.legal_tuple(tuple, [-1], MOVES) == () and type(quick.legal_tuple(tuple, [], MOVES)) is tuple


def test_legal_moves_uses_them_and_agrees_with_the_general_path() -> None:
    v = load_variant("hubei-3p")
    v.fast_index()  # the quick path reads it (a fresh variant enumerates its first hands)
    hand = [0, 1, 2, 3, 4, 5, 6, 6, 6, 12, 13, 14]
    fast = v.legal_moves(hand, after="34567")
    assert isinstance(fast, LegalMoves) and fast.can_pass
    assert fast == v.legal_moves(C.counts_to_string(C.counts_of(hand)), after="34567")
    assert [m.cards for m in fast] == ["45678", "56789", "XD"]


@settings(max_examples=300, deadline=None)
@given(x=st.integers(min_value=0, max_value=(1 << 300) - 1), as_array=st.booleans())
def test_append_set_bits_is_every_set_bit_lowest_first(x: int, as_array: bool) -> None:
    from array import array

    positions = array("I", range(1000, 1300)) if as_array else range(1000, 1300)
    out = [7]  # appended to, not replaced
    quick.append_set_bits(x.to_bytes((x.bit_length() + 7) >> 3, "little"), positions, out)
    assert out == [7] + [1000 + i for i in range(300) if x >> i & 1]


def test_append_set_bits_refuses_what_it_cannot_read() -> None:
    from array import array

    with pytest.raises(IndexError):
        quick.append_set_bits(b"\x00\x01", array("I", range(8)), [])  # bit 8 of 8 positions
    with pytest.raises(IndexError):
        quick.append_set_bits(b"\x80", range(7), [])
    with pytest.raises(TypeError):
        quick.append_set_bits(b"\x01", array("H", range(8)), [])  # not 4-byte unsigned
    with pytest.raises(TypeError):
        quick.append_set_bits(1, range(8), [])
    with pytest.raises(TypeError):
        quick.append_set_bits(b"\x01", range(8), ())
    out: list[int] = []
    quick.append_set_bits(b"", range(0), out)
    assert out == []
