"""Plays with wild cards by table: one precomputed structure per wild rank.

:mod:`ddzrules.rules.wild` enumerates a hand's plays with wild cards by walking the
compiled shapes, which costs several times more per play than the natural lister.
Every such play is a reading of the *universe* (the full deck's plays with 0–4 wild
cards, as the census counts them), and a hand holds a reading exactly when it holds
the reading's natural cards and at least as many wild cards. The substitution a walk
reports for a reading is the first it finds, and the walk meets a reading's paths in
the same order in every hand that holds it, so it is the one the full-deck walk
reports (the tests compare both on many hands).

:class:`WildTable` is that universe for one wild rank, built once by one full-deck
walk (no Move objects: those are made on first use), with the readings

* numbered in legal-move order (tier, size, rank, combo name, cards), so that a
  hand's plays sort as plain ints;
* filed in *blocks* by (at most ``w`` wild cards, size or bomb): a hand with ``k`` wild
  cards and ``n`` cards reads one block per size up to ``n`` and the bombs', all of at
  most ``k`` wilds (a lead: its plays in legal-move order, blocks read by size), an
  answer the block of its size and the bombs';
* per block and per natural rank ``r``, a bit set (a Python int, bit ``i`` for the
  block's ``i``-th reading) of the readings holding at most ``c`` cards of ``r``, for
  each ``c`` below the most the block holds of ``r``. A hand's readings in a block are
  the AND of one set per rank (its count of that rank): no per-reading Python work
  but reading out the set bits it holds.

The table is kept on disk through the keyed cache (:mod:`ddzrules.speed.cache`): its file
holds the readings only (packed cards, combo/rank/length, substitution), checked on load
by passes in C (cards of the deck, ranges, legal-move order, one substitution per wild
card); the blocks and their bit sets are made from the readings at a block's first
query, so they always agree with the readings they index.

Memory, build and load times per wild rank are stated in docs/census-variants.md.
"""

from __future__ import annotations

import struct
import sys
from array import array
from bisect import bisect_left
from collections.abc import Callable, Iterable, Sequence
from itertools import compress, repeat
from operator import and_, itemgetter, lshift, or_

from ddzrules import cards as C
from ddzrules.rules.shapes import Rules

_append_set_bits: Callable[[bytes, object, list[int]], None] | None
try:  # the compiled build's C kernel for _set_bits (docs/compiled.md)
    from ddzrules.speed._quick import append_set_bits as _append_set_bits
except ImportError:  # the pure build does the same in Python
    _append_set_bits = None

#: (packed, combo, rank, length) -> the ranks its wild cards stand for
Found = dict[tuple[int, int, int, int], tuple[int, ...]]
# per byte of a packed count (two 4-bit rank fields): the low field, the high field
_LOW = bytes(b & C.MASK for b in range(256))
_HIGH = bytes(b >> C.BITS for b in range(256))
#: count byte -> b"1" when the count is at most c, else b"0" (bit sets as base-2 text)
_AT_MOST = [bytes(ord("1") if n <= c else ord("0") for n in range(256)) for c in range(C.MASK + 1)]
#: (lo, hi) -> per byte 1 when lo <= byte <= hi, else 0 (selectors for itertools.compress)
_WITHIN = {(lo, hi): bytes(int(lo <= n <= hi) for n in range(256)) for lo in range(C.MASK + 1)
           for hi in range(lo, C.MASK + 1)}
#: hands with at most this many wild cards read one block a size (of the readings with at
#: most as many); more wild cards add the blocks of exactly 3, 4... (fewer, larger hands)
_CUMULATIVE = 2
_LITTLE = sys.byteorder == "little"
#: base-2 text as compress selectors: b"1" -> 1, b"0" -> 0
_BIT = bytes(int(b == ord("1")) for b in range(256))
#: positions are kept in 24 bits while filing
_MAX_READINGS = 1 << 24
#: the cache file: magic, format, wild rank, largest hand, readings, distinct substitutions
_HEADER = struct.Struct("<4sHBBII")
_MAGIC = b"DDZW"
FORMAT = 2


def _subst_order(s: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    return len(s), s


def _le(col: array[int]) -> bytes:
    """An array's bytes, little-endian whatever the machine."""
    if _LITTLE:
        return col.tobytes()
    col = array(col.typecode, col)
    col.byteswap()
    return col.tobytes()


def _from_le(typecode: str, raw: bytes) -> array[int]:
    col = array(typecode)
    col.frombytes(raw)
    if not _LITTLE:
        col.byteswap()
    return col


def _holds(a: list[bytes], b: list[bytes]) -> tuple[bytes, bytes]:
    """Per row, 1 when ``a`` >= ``b``, else 0; and 1 when ``a`` > ``b``, else 0 — for every
    row at once.

    ``a`` and ``b`` are big-endian numbers as byte columns (most significant first, one
    byte a row each, equal lengths). Each row becomes a field of one more byte, ``a``'s
    with a guard byte 1 in front, ``b``'s with 0; one subtraction of the two columns
    read as whole integers gives, per field, 256^w + a - b, which is never negative, so
    no field borrows from the next and the guard byte of the difference is 1 exactly when
    a >= b; less 1 a field (never negative either), exactly when a > b. All of it runs in C."""
    w = len(a)
    n = len(a[0])
    f = w + 1
    left = bytearray(f * n)
    right = bytearray(f * n)
    left[0::f] = b"\1" * n
    for k in range(w):
        left[k + 1::f] = a[k]
        right[k + 1::f] = b[k]
    d = int.from_bytes(left, "big") - int.from_bytes(right, "big")
    del right
    left[:] = (bytes(w) + b"\1") * n  # one in the last byte of each field
    strict = d - int.from_bytes(left, "big")
    del left
    return d.to_bytes(f * n, "big")[0::f], strict.to_bytes(f * n, "big")[0::f]


def _key_columns(raw_high: bytes, raw_packed: bytes) -> list[bytes]:
    """The legal-move order of readings as big-endian byte columns: their order keys
    (:func:`_order_keys`, little-endian ``raw_high``), then their packed cards."""
    return [*(raw_high[b::4] for b in range(3, -1, -1)), *(raw_packed[b::8] for b in range(7, -1, -1))]


def _most(counts: bytes) -> int:
    """The largest byte of ``counts`` (a count: below 16), by C-level searches."""
    for c in range(C.MASK, 0, -1):
        if bytes((c,)) in counts:
            return c
    return 0


def _rank_columns(raw: bytes) -> list[bytes]:
    """Per rank, one count byte a reading (``raw``: little-endian packed counts, 8 bytes each)."""
    return [raw[r // 2::8].translate(_HIGH if r % 2 else _LOW) for r in range(C.NUM_RANKS)]


def _sizes(cols: list[bytes], n: int) -> bytes:
    """One size byte a reading (a count is below 16, a size below 256)."""
    return sum(int.from_bytes(c, "little") for c in cols).to_bytes(n, "little")


def _order_keys(rules: Rules, order_bits: Sequence[int], meta_raw: bytes, sizes: bytes) -> array[int]:
    """Per reading, the high part of its legal-move order (tier, size, rank, combo name)
    as one 32-bit int, made by C-level byte slicing (``meta_raw``: little-endian meta)."""
    combos = len(rules.combos)
    name = bytes(order_bits[i] & 0xFF if i < combos else 0 for i in range(256))
    tier = bytes((order_bits[i] >> 12) & 0xFF if i < combos else 0 for i in range(256))
    n = len(sizes)
    buf = bytearray(4 * n)
    combo_col = meta_raw[2::4]
    buf[0::4] = combo_col.translate(name)
    buf[1::4] = meta_raw[1::4]  # rank
    buf[2::4] = sizes
    buf[3::4] = combo_col.translate(tier)
    return _from_le("I", bytes(buf))


class _Block:
    """The readings of ``lo`` to ``hi`` wild cards among the positions ``start..end`` (the
    plays of one size that are not bombs, or all the bombs; all of them when ``lo`` is 0
    and ``hi`` the most: then the hand's wild cards are checked like a rank): their positions in legal-move
    order (ascending) and, per rank the block uses, the bit sets by count — both made at
    the block's first query (a short run reads few blocks)."""

    __slots__ = ("_table", "checks", "full", "positions", "span")

    def __init__(self, table: WildTable, span: tuple[int, int, int, int]) -> None:
        #: a range when the block is a whole run of readings, else the picked positions
        self.positions: Sequence[int] | None = None
        #: (start, end, fewest wild cards, most wild cards)
        self.span = span
        #: (rank, bit set of the readings holding at most c cards of it, for c = 0, 1, ...)
        self.checks: list[tuple[int, tuple[int, ...]]] | None = None
        self.full = 0
        self._table = table

    def _fill(self) -> list[tuple[int, tuple[int, ...]]]:
        """The positions and the bit sets, from the packed cards of the block's readings."""
        table = self._table
        start, end, lo, hi = self.span
        whole = lo == 0 and hi >= table.most_wilds
        if whole:  # every reading of the run: its positions a range, its cards one slice
            positions: Sequence[int] = range(start, end)
            raw = _le(table.packed[start:end])
        else:
            positions = array("I", compress(range(start, end),
                                            table.wcol[start:end].translate(_WITHIN[lo, hi])))
            raw = _le(array("Q", map(table.packed.__getitem__, positions)))
        self.positions = positions
        self.full = (1 << len(positions)) - 1
        checks = []
        for r in range(C.NUM_RANKS):
            if r == table.wild and not whole:
                continue  # the block's wild cards are counted by the block (at most the hand's)
            counts = raw[r // 2::8].translate(_HIGH if r % 2 else _LOW)
            # bit i of the set for c: the block's i-th reading holds at most c cards of rank r
            sets = tuple(int(counts.translate(_AT_MOST[c])[::-1], 2) for c in range(_most(counts)))
            if sets:
                checks.append((r, sets))
        self.checks = checks
        return checks

    def select(self, nat: list[int] | bytes) -> int:
        """The bit set of this block's readings whose cards the hand ``nat`` (its wild
        cards under the wild rank) holds."""
        checks = self.checks
        if checks is None:
            checks = self._fill()
        x = self.full
        for r, sets in checks:
            n = nat[r]
            if n < len(sets):
                x &= sets[n]
                if not x:
                    return 0
        return x


def _set_bits(x: int, positions: Sequence[int], out: list[int]) -> None:
    """Append ``positions[i]`` for every bit ``i`` set in ``x``, ascending: when many are
    set, one C-level pass (the bits as bytes selecting positions); else the set bits
    found in base-2 text (``str.find`` runs in C)."""
    if _append_set_bits is not None:  # the compiled build's C kernel
        _append_set_bits(x.to_bytes((x.bit_length() + 7) >> 3, "little"), positions, out)
        return
    s = format(x, "b")
    top = len(s) - 1
    if x.bit_count() * 24 > top:
        out += compress(positions, s[::-1].encode().translate(_BIT))
        return
    append = out.append
    i = s.rfind("1")
    while i >= 0:
        append(positions[top - i])
        i = s.rfind("1", 0, i)


class WildTable:
    """Every reading of the universe with wild rank ``wild`` (0–4 wild cards, at most
    ``max_size`` cards), filed for lookup by a hand's counts.

    Made by :meth:`build` (from a full-deck walk) or :meth:`decode` (from a cache file);
    both give the readings in legal-move order and file them the same way."""

    def __init__(self, rules: Rules, wild: int, order_bits: Sequence[int], max_size: int, packed: array[int],
                 meta: array[int], subst_index: array[int], substs: list[tuple[int, ...]],
                 columns: tuple[list[bytes], bytes, array[int]] | None = None) -> None:
        self.wild = wild
        self.max_size = max_size
        #: per position in legal-move order: packed cards, combo << 16 | rank << 8 | length,
        #: the index of its substitution in ``substs`` (the few distinct ones)
        self.packed = packed
        self.meta = meta
        self.subst_index = subst_index
        self.substs = substs
        n = len(packed)
        if columns is None:  # (decode has made them while checking)
            cols = _rank_columns(_le(packed))
            sizes = _sizes(cols, n)
            columns = cols, sizes, _order_keys(rules, order_bits, _le(meta), sizes)
        cols, sizes, high = columns
        #: per position, the number of cards; the number of wild cards
        self.sizes = sizes
        self.wcol = cols[wild]
        self._order_bits = order_bits
        #: per position, its legal-move order but the cards (tier, size, rank, combo name) as
        #: one int: never decreasing, so a reading is found by two bisections
        self.high = high
        self._file(rules)
        #: the Move of each position, made on first use
        self.moves: list[object] = [None] * n

    @classmethod
    def build(cls, rules: Rules, wild: int, order_bits: Sequence[int], found: Found, max_size: int) -> WildTable:
        """The table of the readings a full-deck walk found (each with the substitution
        it was first found with), numbered in legal-move order."""
        n = len(found)
        if not 0 < n < _MAX_READINGS or len(rules.combos) > 256:
            raise ValueError("too many readings or combos for a wild table")
        packs = array("Q", map(itemgetter(0), found))
        buf = bytearray(4 * n)  # combo << 16 | rank << 8 | length, little-endian
        buf[0::4] = bytes(map(itemgetter(3), found))
        buf[1::4] = bytes(map(itemgetter(2), found))
        buf[2::4] = bytes(map(itemgetter(1), found))
        meta = _from_le("I", bytes(buf))
        del buf
        sizes = _sizes(_rank_columns(_le(packs)), n)
        high = _order_keys(rules, order_bits, _le(meta), sizes)
        # the legal-move order (tier, size, rank, combo name, packed) and the walk's order
        # among equal keys: one int a reading, sorted without a key function
        width = C.BITS * C.NUM_RANKS
        keys = list(map(or_, map(lshift, map(or_, map(lshift, high, repeat(width)), packs), repeat(24)),
                        range(n)))
        keys.sort()
        order = array("I", map(and_, keys, repeat(_MAX_READINGS - 1)))
        del keys, high
        # the distinct substitutions by length, then ranks: those of k wild cards are a run of
        # indices, so that a load checks a reading's index against its wild cards in C
        distinct = sorted(set(found.values()), key=_subst_order)
        if len(distinct) >= 1 << 16:
            raise ValueError("too many distinct substitutions for a wild table")
        number = {s: i for i, s in enumerate(distinct)}
        index = array("H", map(number.__getitem__, found.values()))
        return cls(rules, wild, order_bits, max_size, array("Q", map(packs.__getitem__, order)),
                   array("I", map(meta.__getitem__, order)), array("H", map(index.__getitem__, order)), distinct)

    def _file(self, rules: Rules) -> None:
        """The blocks: per most wild cards w, one per size of the plays that are not bombs
        and one of the bombs, each of the readings holding at most w wild cards.

        In legal-move order the plays that are not bombs come first, by size: a size is
        one run of positions, the bombs another; a block's positions are picked from its
        run at its first query (by the wild column, in C), so they are ascending and a
        lead's blocks, read by size then the bombs, list its plays in legal-move order."""
        n = len(self.packed)
        wcol, sizes = self.wcol, self.sizes
        bomb_col = _le(self.meta)[2::4].translate(bytes(1 if i < len(rules.combos) and rules.combos[i].tier >= 0
                                                        else 0 for i in range(256)))
        first_bomb = bomb_col.find(1)
        if first_bomb < 0:
            first_bomb = n
        if bomb_col[first_bomb:].translate(None, b"\1") or bomb_col[:first_bomb].translate(None, b"\0"):
            raise ValueError("bombs not after the other plays")  # the legal-move order puts them last
        most = _most(wcol)
        # a hand with w wild cards reads the readings of at most w: one block of those when
        # w <= _CUMULATIVE (the common hands; a block a size, its positions picked from the
        # run), else one of the whole run (its wild cards checked like a rank: a block of
        # readings with 3 or 4 wild cards would be most of the run anyway)
        cum = min(most, _CUMULATIVE)
        self.most_wilds = most
        self.all_blocks: list[_Block] = []

        def spans(start: int, end: int) -> list[tuple[_Block, ...]]:
            low = [_Block(self, (start, end, 0, w)) for w in range(cum + 1)]
            run = _Block(self, (start, end, 0, most)) if most > cum else low[-1]
            self.all_blocks += low if run is low[-1] else [*low, run]
            return [(low[w],) if w <= cum else (run,) for w in range(most + 1)]

        #: per the hand's wild cards w (at most ``most_wilds``), per size, the blocks of the
        #: plays of that size that are not bombs and hold at most w wild cards; the bombs'
        self.plain: list[dict[int, tuple[_Block, ...]]] = [{} for _ in range(most + 1)]
        self.bombs: list[tuple[_Block, ...]] = spans(first_bomb, n)
        start = 0
        while start < first_bomb:
            size = sizes[start]
            end = sizes.rfind(size, start, first_bomb) + 1
            if sizes[start:end].translate(None, bytes((size,))):
                raise ValueError("plays not in order of size")
            for w, blocks in enumerate(spans(start, end)):
                self.plain[w][size] = blocks
            start = end

    def ident(self, pos: int) -> tuple[int, int, int, int]:
        """(packed, combo, rank, length) of the reading at ``pos``."""
        m = self.meta[pos]
        return self.packed[pos], m >> 16, (m >> 8) & 0xFF, m & 0xFF

    def find(self, ident: tuple[int, int, int, int]) -> int:
        """The position of a reading, or -1 when the table does not hold it."""
        packed, combo, rank, length = ident
        bits = self._order_bits
        if not 0 <= combo < len(bits) or not 0 <= rank < C.NUM_RANKS or packed < 0:
            return -1
        b = bits[combo]
        want = (b >> 12) << 24 | C.size_of(packed) << 16 | rank << 8 | (b & 0xFF)
        high, packs, meta = self.high, self.packed, self.meta
        lo = bisect_left(high, want)
        hi = bisect_left(high, want + 1, lo)
        p = bisect_left(packs, packed, lo, hi)
        m = combo << 16 | rank << 8 | length
        while p < hi and packs[p] == packed:  # one set of cards, more readings (rare): the walk's order
            if meta[p] == m:
                return p
            p += 1
        return -1

    # ------------------------------------------------------------------ queries
    def lead(self, nat: list[int], wilds: int, total: int) -> list[int]:
        """Positions (ascending) of every reading ``nat`` plus ``wilds`` wild cards hold: the
        plays that are not bombs by size (ascending positions), then the bombs."""
        out: list[int] = []
        w = min(self.most_wilds, wilds)
        hand = list(nat)
        hand[self.wild] = wilds
        for size, blocks in self.plain[w].items():
            if size > total:
                break
            for block in blocks:
                x = block.select(hand)
                if x:
                    _set_bits(x, block.positions, out)  # type: ignore[arg-type]  # set: select() filled it
        for block in self.bombs[w]:
            x = block.select(hand)
            if x:
                _set_bits(x, block.positions, out)  # type: ignore[arg-type]  # set: select() filled it
        return out

    def exact(self, nat: list[int], wilds: int) -> list[int]:
        """Positions (ascending) of the readings of exactly these cards (classify)."""
        total = sum(nat) + wilds
        w = min(self.most_wilds, wilds)
        out = self._held(self.plain[w].get(total, ()), nat, wilds)
        bombs = self._held(self.bombs[w], nat, wilds)
        if bombs:
            sizes = self.sizes
            out += [p for p in bombs if sizes[p] == total]
        return out

    def sized(self, nat: list[int], wilds: int, size: int, bombs: bool) -> list[int]:
        """Positions (ascending) of the readings the hand holds of one size, non-bombs
        (``bombs`` False) or bombs of every size (``bombs`` True)."""
        w = min(self.most_wilds, wilds)
        return self._held(self.bombs[w] if bombs else self.plain[w].get(size, ()), nat, wilds)

    def _held(self, blocks: Iterable[_Block], nat: list[int], wilds: int) -> list[int]:
        out: list[int] = []
        hand = list(nat)
        hand[self.wild] = wilds
        for block in blocks:
            x = block.select(hand)
            if x:
                _set_bits(x, block.positions, out)  # type: ignore[arg-type]  # set: select() filled it
        return out

    def fill(self) -> None:
        """Make every block's positions and bit sets now (0.1-0.2 s a rank) rather than at
        its first query: for a long run, which meets them all, so that no step waits for one."""
        for block in self.all_blocks:
            if block.checks is None:
                block._fill()

    def nbytes(self) -> int:
        """Bytes held by the structure once every block's bit sets are made (bit sets,
        arrays, the Move slots; not the Moves made, nor the few distinct substitution tuples)."""
        total = 8 * len(self.moves) + 2 * len(self.sizes) + 4 * len(self.high)
        for block in self.all_blocks:
            checks = block.checks if block.checks is not None else block._fill()
            if isinstance(block.positions, array):
                total += 4 * len(block.positions)
            total += sum(s.bit_length() // 8 + 1 for _, sets in checks for s in sets)
        return total + 8 * len(self.packed) + 4 * len(self.meta) + 2 * len(self.subst_index)

    # ------------------------------------------------------------------ cache file
    def encode(self, content_hash: str) -> bytes:
        """The cache file's payload: the rules' content hash, a header, the readings'
        arrays (little-endian) and the distinct substitutions (a length byte, the ranks)."""
        substs = b"".join(bytes((len(s), *s)) for s in self.substs)
        return b"".join((content_hash.encode("ascii"), b"\n",
                         _HEADER.pack(_MAGIC, FORMAT, self.wild, self.max_size, len(self.packed), len(self.substs)),
                         _le(self.packed), _le(self.meta), _le(self.subst_index), substs))

    # over the complexity bound on purpose: one check per field of a stored wild table
    @classmethod
    def decode(cls, rules: Rules, wild: int, order_bits: Sequence[int], body: bytes) -> WildTable:  # noqa: C901
        """A cache file's payload, checked against ``rules`` (ValueError: not this table):
        cards of the deck and no more than the largest hand, combos, ranks and lengths in
        range, the readings strictly in legal-move order, every substitution a sorted
        tuple of ranks a wild card may stand for, one rank per wild card of its reading.
        The checks are passes in C over the bytes and arrays (the orders: subtractions of
        whole columns read as integers, see :func:`_holds`)."""
        head, _, rest = body.partition(b"\n")
        if head != rules.content_hash.encode("ascii"):
            raise ValueError("it is the wild table of other rules")
        if len(rest) < _HEADER.size:
            raise ValueError("truncated")
        magic, version, w, max_size, n, ns = _HEADER.unpack_from(rest)
        if magic != _MAGIC or version != FORMAT or w != wild or max_size != rules.max_hand:
            raise ValueError("not the wild table of this rank and format")
        if not 0 < n < _MAX_READINGS or not 0 < ns < 1 << 16:
            raise ValueError("reading count out of range")
        at = _HEADER.size
        raw_packed, raw_meta = rest[at:at + 8 * n], rest[at + 8 * n:at + 12 * n]
        raw_index = rest[at + 12 * n:at + 14 * n]
        at += 14 * n
        # the substitutions: sorted tuples of ranks a wild card may stand for, listed by
        # (length, ranks) without repeats; ``first[k]``: the index of the first of length k
        substs: list[tuple[int, ...]] = []
        allowed = bytes(sorted({*rules.stand_for, wild}))
        first = [ns] * (C.MASK + 2)
        for i in range(ns):
            if at >= len(rest):
                raise ValueError("truncated")
            k = rest[at]
            s = tuple(rest[at + 1:at + 1 + k])
            if len(s) != k or bytes(s).translate(None, allowed) or list(s) != sorted(s) or k > C.MASK:
                raise ValueError("a substitution out of range")
            if substs and not _subst_order(substs[-1]) < _subst_order(s):
                raise ValueError("substitutions out of order")
            first[k] = min(first[k], i)
            substs.append(s)
            at += 1 + k
        if at != len(rest):
            raise ValueError("not a wild table of this format")
        for k in range(C.MASK, -1, -1):  # a length no substitution has: an empty run
            first[k] = min(first[k], first[k + 1])
        # the cards: each rank within the deck (the top field empty), 1..max_size cards
        cols = _rank_columns(raw_packed)
        for r, col in enumerate(cols):
            if col.translate(None, bytes(range(rules.deck[r] + 1))):
                raise ValueError("a reading not of the deck's cards")
        if raw_packed[7::8].translate(None, bytes(range(16))):
            raise ValueError("a reading not of the deck's cards")
        sizes = _sizes(cols, n)
        if sizes.translate(None, bytes(range(1, max_size + 1))):
            raise ValueError("a reading larger than the largest hand")
        # combo, rank and length in range
        if (raw_meta[3::4].translate(None, b"\0") or raw_meta[2::4].translate(None, bytes(range(len(rules.combos))))
                or raw_meta[1::4].translate(None, bytes(range(C.NUM_RANKS)))
                or raw_meta[0::4].translate(None, bytes(range(1, C.NUM_RANKS + 1)))):
            raise ValueError("a reading's combo, rank or length out of range")
        # one substitution rank per wild card of the reading: with k wild cards, its index
        # is in first[k] <= index < first[k + 1] (big-endian columns: high byte, low byte)
        wcol = cols[wild]
        index_cols = [raw_index[1::2], raw_index[0::2]]
        low = [wcol.translate(bytes(first[min(k, C.MASK)] >> 8 for k in range(256))),
               wcol.translate(bytes(first[min(k, C.MASK)] & 0xFF for k in range(256)))]
        high = [wcol.translate(bytes(first[min(k, C.MASK) + 1] >> 8 for k in range(256))),
                wcol.translate(bytes(first[min(k, C.MASK) + 1] & 0xFF for k in range(256)))]
        if _holds(index_cols, low)[0].translate(None, b"\1") or _holds(high, index_cols)[1].translate(None, b"\1"):
            raise ValueError("a substitution that does not match its wild cards")
        # legal-move order: (tier, size, rank, combo name, packed) never decreasing, and
        # where two neighbours are equal, distinct readings (the walk's order among them)
        keys = _order_keys(rules, order_bits, raw_meta, sizes)
        key_cols = _key_columns(_le(keys), raw_packed)
        later, earlier = [c[1:] for c in key_cols], [c[:-1] for c in key_cols]
        del key_cols
        at_least, above = _holds(later, earlier)  # above: 0 where a reading's key equals the next one's
        del later, earlier
        if at_least.translate(None, b"\1"):
            raise ValueError("readings out of order")
        packed, meta = _from_le("Q", raw_packed), _from_le("I", raw_meta)
        ties = []
        p = above.find(0)
        while p >= 0:
            ties.append(p)
            p = above.find(0, p + 1)
        if ties:
            tied = {*ties, *(p + 1 for p in ties)}
            if len({(packed[p], meta[p]) for p in tied}) != len(tied):
                raise ValueError("a reading listed twice")
        return cls(rules, wild, order_bits, max_size, packed, meta, _from_le("H", raw_index), substs,
                   (cols, sizes, keys))


def census_counts(table: WildTable, combo_names: Iterable[str]) -> tuple[dict[str, int], int, int, dict[int, int]]:
    """The census of the table's universe: distinct card sets per combo, distinct card
    sets, readings, and readings by the number of wild cards they hold."""
    names = list(combo_names)
    per: list[set[int]] = [set() for _ in names]
    by_wilds: dict[int, int] = {}
    for packed, m in zip(table.packed, table.meta):
        per[m >> 16].add(packed)
    for w in table.packed.tobytes()[table.wild // 2::8].translate(_HIGH if table.wild % 2 else _LOW):
        by_wilds[w] = by_wilds.get(w, 0) + 1
    total = len(set(table.packed))
    return ({name: len(p) for name, p in zip(names, per)}, total, len(table.packed), dict(sorted(by_wilds.items())))
