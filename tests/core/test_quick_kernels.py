"""The C kernels of legal_moves' quick path (ddzrules/_quick.c, built by a default install
where a C compiler exists): each against its definition in Python, on ordinary and hostile
input. A pure install (or ``DDZRULES_PURE=1``) has no kernels, and these tests skip there
(tests/core/test_compiled.py checks that the kernels exist exactly when the build says so;
tests/core/test_default_build.py that both paths list the same plays)."""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ddzrules import LegalMoves, load_variant
from ddzrules import cards as C
from ddzrules.rules.moves import LEGAL_MOVES

quick = pytest.importorskip("ddzrules.speed._quick", reason="the C kernels are not built (or DDZRULES_PURE)")

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
    hand = C.Ranks([0, 1, 2, 3, 4, 5, 6, 6, 6, 12, 13, 14])  # the runtime's form of a hand
    assert quick.hand_counts(hand, bytes(v.rules.deck)) == bytes(C.counts_of(hand))
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


# ---------------------------------------------------------------- run_steps


def _raws(seed: str, deck: list[int], count: int) -> list[bytes]:
    import random

    rng = random.Random(seed)
    cards = [r for r, n in enumerate(deck) for _ in range(n)]
    return [bytes(C.counts_of(rng.sample(cards, rng.randint(0, 20)))) for _ in range(count)]


@pytest.mark.parametrize("name", ["compat/douzero", "hubei-4p-2deck", "paodekuai", "space-shuttle"])
def test_run_steps_finds_what_the_written_out_python_finds(name: str) -> None:
    v = load_variant(name)
    fast = v.fast_index()
    assert fast is not False
    plan = fast.plan
    assert plan.lead.func is quick.run_steps  # type: ignore[attr-defined]  # the C kernel, a partial
    plays = [m for m in fast.moves if m.tier < 0]
    for i, raw in enumerate(_raws(name, list(v.rules.deck), 150)):
        assert plan.lead(raw) == sorted(p for p in plan.python_lead(raw) if p >= 0), raw
        m = plays[(i * 7919) % len(plays)]
        python, program = plan._compile_answer(v.combo_index[m.combo], m.size, m.length, m.rank, i % 2 == 0)
        assert quick.run_steps(program, raw) == sorted(p for p in python(raw) if p >= 0), (raw, m)


def test_run_steps_examples() -> None:
    raw = bytes([2, 1] + [0] * 13)  # 33 4
    flat = (10, 11) + (-1,) * 13 + (20,) + (-1,) * 14  # singles of ranks 0 and 1, the pair of rank 0
    assert quick.run_steps(((0, 1, 0, flat, bytes([1, 2])),), raw) == [10, 11, 20]
    assert quick.run_steps(((0, 1, 1, flat, bytes([1, 2])),), raw) == [11]  # ranks from 1 up
    assert quick.run_steps(((0, 3, 0, flat, bytes([1, 2])),), raw) == []  # no rank holds 3 cards
    literal = (3, 0, 0, bytes([0, 2, 1, 1]), (7, 5))
    assert quick.run_steps((literal,), raw) == [5, 7]  # sorted
    assert quick.run_steps(((3, 0, 0, bytes([0, 3]), (7,)),), raw) == []
    seen: list[object] = []
    # a step's own Python: called with the counts and a list to append to
    assert quick.run_steps(((4, 0, 0, lambda r, out: (seen.append(r), out.extend([9, -1, 3]))),), raw) == [3, 9]
    assert seen == [raw]
    memo: dict[bytes, object] = {}

    def miss(mask: bytes) -> tuple[int, ...]:
        memo[mask] = (4,)
        return (4,)

    chain = (2, 1, 0, 3, 1, memo, miss)
    assert quick.run_steps((chain,), raw) == [4] and memo == {b"\x01\x01\x00": (4,)}
    assert quick.run_steps((chain,), raw) == [4]  # from the memo now
    assert quick.run_steps((), raw) == []


def test_run_steps_picks_kicker_pairs_like_the_lister() -> None:
    from ddzrules.rules.fast_shape import _cell

    triangle = tuple(range(100, 220))
    raw = bytes([1, 2, 0, 1] + [0] * 11)
    rows = tuple((triangle, 0) if r == 1 else ((), 0) for r in range(15))
    got = quick.run_steps(((6, 0, 0, 2, rows, 1),), raw)  # cores: ranks held twice (1)
    held = [q for q in range(15) if raw[q] >= 1]
    want = sorted([100 + _cell(a, b) for a in held for b in held if a < b] + [100 + _cell(1, 1)])
    assert got == want


BAD_PROGRAMS = [
    [(0,)], [(9, 0, 0)], [(0, 0, 0, (1,), b"\x01")], [(0, 0, 0, ("x",) * 15, b"\x01")],
    [(0, 0, 16, (1,) * 15, b"\x01")], [(0, 0, -1, (1,) * 15, b"\x01")], [("0", 0, 0, (1,) * 15, b"\x01")],
    [(1, 0, 0, 1, ((),) * 14, b"\x01")], [(1, 0, 0, 1, ((1, 2),) * 15, b"\x01")],
    [(6, 0, 0, 1, (((1,), 0),) * 15, 1)], [(6, 0, 0, 1, ((1, 2),) * 15, 1)],
    [(3, 0, 0, b"\x20\x01", (1,))], [(3, 0, 0, b"\x01", (1,))], [(3, 0, 0, b"", [1])],
    [(2, 0, 0, 20, 1, {}, lambda m: ())], [(2, 0, 0, 3, 1, [], lambda m: ())],
    [(2, 0, 0, 3, 1, {}, lambda m: [1])], [(5, 0, 0, 3, 1, {}, lambda m: (1, 2), 1, None)],
    [(4, 0, 0, lambda r, out: out.append("1"))], [[0, 0, 0, (1,) * 15, b"\x01"]],
]


@pytest.mark.parametrize("program", BAD_PROGRAMS)
def test_run_steps_refuses_a_program_it_cannot_read(program: list) -> None:
    with pytest.raises((TypeError, ValueError, OverflowError)):
        quick.run_steps(tuple(program), bytes([4] * 15))


def test_run_steps_refuses_bad_counts_and_passes_errors_on() -> None:
    for raw in (b"", bytes(14), bytes(16), bytearray(15), "x" * 15):
        with pytest.raises(TypeError):
            quick.run_steps((), raw)
    with pytest.raises(TypeError):
        quick.run_steps([], bytes(15))

    def boom(raw: bytes, out: list) -> None:
        raise KeyError("boom")

    with pytest.raises(KeyError):
        quick.run_steps(((4, 0, 0, boom),), bytes(15))

    def clears(raw: bytes, out: list) -> None:
        out.append(5)
        out.clear()  # what the kernel reads is what the list holds afterwards
        out.append(6)

    assert quick.run_steps(((4, 0, 0, clears), (4, 0, 0, clears)), bytes(15)) == [6, 6]


values = st.recursive(st.one_of(st.integers(-2, 20), st.binary(max_size=4), st.none()),
                      lambda inner: st.lists(inner, max_size=16).map(tuple), max_leaves=40)


@settings(max_examples=500, deadline=None)
@given(program=st.lists(st.tuples(st.integers(0, 6), st.integers(0, 5), st.integers(0, 15)).flatmap(
    lambda head: st.lists(values, max_size=6).map(lambda rest: head + tuple(rest))), max_size=4),
    raw=st.binary(min_size=15, max_size=15))
def test_run_steps_never_reads_outside_what_it_is_given(program: list, raw: bytes) -> None:
    try:
        got = quick.run_steps(tuple(program), raw)
    except (TypeError, ValueError, OverflowError):
        return
    assert type(got) is list and all(type(p) is int and p >= 0 for p in got) and got == sorted(got)
