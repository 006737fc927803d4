"""The universe table of a variant (every play inside the deck, up to the largest hand, as
columns of packed counts, shapes and ranks) in its cache entry's binary form: written once,
read back checked, so that a damaged or forged entry is refused instead of trusted."""

from __future__ import annotations

import struct
import sys
from array import array
from functools import lru_cache

from ddzrules import cards as C
from ddzrules.rules.compiler import COMPILER_SOURCES
from ddzrules.rules.shapes import Rules
from ddzrules.speed import cache

try:  # C kernels of legal_moves' quick path: the compiled build only (docs/compiled.md)
    from ddzrules.speed._quick import hand_counts as _hand_counts
    from ddzrules.speed._quick import legal_tuple as _legal_tuple
except ImportError:  # the pure build does the same in Python
    _hand_counts = _legal_tuple = None  # type: ignore[assignment]


#: bump when the cached table format or the enumeration changes
TABLE_FORMAT = 4
#: universes larger than this are not tabulated; classification falls back to decomposition
TABLE_LIMIT = 3_000_000

# ------------------------------------------------------------------ disk cache


def _cache_name(rules: Rules) -> str:
    # the code hash: a changed compiler, format or row-making code never reads a stale table
    # (the rows are made by Variant's enumeration and encoded here: both modules are hashed)
    code = cache.code_hash(TABLE_FORMAT, *COMPILER_SOURCES, "ddzrules.rules.universe", "ddzrules.rules.variant")
    # (binary since format 4; the ".json" name is kept because tests find table files by it)
    return f"{rules.content_hash[:32]}-{code}.json"


#: a table's header after the spec's content hash line: magic and number of rows
_HEADER = struct.Struct("<4sI")
_MAGIC = b"DDZT"
#: the arrays of a table file, in order (typecodes of :mod:`array`)
_COLUMNS = (("packs", "Q"), ("combos", "H"), ("ranks", "B"), ("lengths", "B"), ("shapes", "I"))
_SWAP = sys.byteorder != "little"  # files are little-endian on every machine


class UniverseRows:
    """The universe table as arrays: one row a reading (packed count, combo index,
    rank, chain length, the first shape producing it), sorted by
    packed count so that the readings of a set of cards are one run found by bisection.
    Moves are made from rows only when asked for."""

    __slots__ = ("combos", "lengths", "packs", "ranks", "shapes")

    def __init__(self, packs: array[int], combos: array[int], ranks: array[int],
                 lengths: array[int], shapes: array[int]) -> None:
        self.packs, self.combos, self.ranks, self.lengths, self.shapes = packs, combos, ranks, lengths, shapes

    @classmethod
    def build(cls, idents: list[tuple[int, int, int, int]], shapes: list[int]) -> UniverseRows:
        rows = sorted(zip(idents, shapes))
        cols = [array(t) for _, t in _COLUMNS]
        for (packed, combo, rank, length), shape in rows:
            for col, x in zip(cols, (packed, combo, rank, length, shape)):
                col.append(x)
        return cls(*cols)

    def idents(self) -> tuple[list[tuple[int, int, int, int]], list[int]]:
        """Every distinct reading once, each with its first (lowest) shape."""
        first: dict[tuple[int, int, int, int], int] = {}
        for ident, shape in zip(zip(self.packs, self.combos, self.ranks, self.lengths), self.shapes):
            if first.get(ident, shape) >= shape:
                first[ident] = shape
        return list(first), list(first.values())

    def encode(self, content_hash: str) -> bytes:
        parts = [content_hash.encode("ascii"), b"\n", _HEADER.pack(_MAGIC, len(self.packs))]
        for name, _ in _COLUMNS:
            col = getattr(self, name)
            if _SWAP:
                col = array(col.typecode, col)
                col.byteswap()
            parts.append(col.tobytes())
        return b"".join(parts)

    @classmethod
    def decode(cls, rules: Rules, body: bytes) -> UniverseRows:
        """A table file's payload, its structure checked against ``rules`` (ValueError:
        not this table). Every check is a pass in C over the file's bytes (``translate``
        deleting the allowed byte values must leave nothing) or over an array, so a large
        table is checked in a fraction of a millisecond a 10,000 rows."""
        head, _, rest = body.partition(b"\n")
        if head != rules.content_hash.encode("ascii"):
            raise ValueError("it is the table of other rules")
        if len(rest) < _HEADER.size:
            raise ValueError("truncated")
        magic, n = _HEADER.unpack_from(rest)
        widths = [array(t).itemsize for _, t in _COLUMNS]
        if magic != _MAGIC or len(rest) != _HEADER.size + n * sum(widths):
            raise ValueError("not a table of this format")
        if not (0 < n <= TABLE_LIMIT or n == 0 and not rules.combos):  # no combos: no rows
            raise ValueError("row count out of range")
        raw: dict[str, bytes] = {}
        cols = []
        at = _HEADER.size
        for (name, typecode), width in zip(_COLUMNS, widths):
            raw[name] = rest[at:at + n * width]
            col = array(typecode)
            col.frombytes(raw[name])
            if _SWAP:
                col.byteswap()
            cols.append(col)
            at += n * width
        packs, combos, ranks, lengths, shapes = cols
        if not n:
            return cls(packs, combos, ranks, lengths, shapes)  # no combos: nothing to check
        if not (_all_in(raw["combos"], 2, 0, len(rules.combos)) and _all_in(raw["ranks"], 1, 0, C.NUM_RANKS)
                and _all_in(raw["lengths"], 1, 1, C.NUM_RANKS + 1)
                and _all_in(raw["shapes"], 4, 0, len(rules.shapes))):
            raise ValueError("entry out of range")
        _check_cards(rules, raw["packs"])  # packed counts below _PACKED_END among the rest
        if not any(raw["packs"][:8]):
            raise ValueError("entry out of range")  # the first count is the least: none is 0
        if not _ascending(raw["packs"]):
            raise ValueError("rows out of order")
        return cls(packs, combos, ranks, lengths, shapes)


def _all_in(raw: bytes, width: int, low: int, high: int) -> bool:
    """Every little-endian unsigned ``width``-byte number of ``raw`` is in ``low..high-1``."""
    if high <= low:
        return False
    if high > 256:  # not one byte: the array itself
        col = array({1: "B", 2: "H", 4: "I", 8: "Q"}[width])
        col.frombytes(raw)
        if _SWAP:
            col.byteswap()
        return low <= min(col) and max(col) < high
    return not raw[0::width].translate(None, bytes(range(low, high))) and \
        all(not raw[k::width].translate(None, b"\0") for k in range(1, width))


def _ascending(whole: bytes) -> bool:
    """The little-endian 64-bit numbers of ``whole``, each below 2^60, never decrease: each
    number subtracted from the next with bit 63 set in every slot of one big int, where no
    slot borrows from the next (the difference stays within 2^63 ± 2^60) and bit 63 stays
    set exactly when the next is no smaller."""
    if len(whole) <= 8:
        return True
    high = int.from_bytes((bytes(7) + b"\x80") * (len(whole) // 8 - 1), "little")
    diff = (int.from_bytes(whole[8:], "little") | high) - int.from_bytes(whole[:-8], "little")
    return diff & high == high


@lru_cache(maxsize=16)
def _allowed_bytes(deck: tuple[int, ...]) -> tuple[bytes, ...]:
    """For each byte k of a packed count, the values the deck allows: the counts of ranks
    2k (low 4 bits) and 2k + 1 (high 4 bits) within the deck's."""
    padded = list(deck) + [0] * (16 - len(deck))
    return tuple(bytes(lo | hi << 4 for hi in range(padded[2 * k + 1] + 1) for lo in range(padded[2 * k] + 1))
                 for k in range(8))


#: each byte value (two 4-bit counts) -> the sum of its two counts
_NIBBLE_SUMS = bytes((b & 15) + (b >> 4) for b in range(256))


def _check_cards(rules: Rules, whole: bytes) -> None:
    """Every packed count (little-endian 64-bit, 15 4-bit fields and a zero top field) is a
    set of the deck's cards fitting the largest hand, checked a byte column at a time:
    byte k of every count holds the counts of ranks 2k and 2k + 1, and deleting the byte
    values the deck allows must leave nothing; the sizes are the sums of the columns'
    per-byte card counts (at most 8 x 30 < 256: no byte carries into the next)."""
    n = len(whole) // 8
    total = 0
    for k, allowed in enumerate(_allowed_bytes(tuple(rules.deck))):
        column = whole[k::8]
        if column.translate(None, allowed):
            raise ValueError("entry not a set of the deck's cards")
        total += int.from_bytes(column.translate(_NIBBLE_SUMS), "little")
    if total.to_bytes(n, "little").translate(None, bytes(range(min(rules.max_hand, 255) + 1))):
        raise ValueError("entry larger than the largest hand")


def load_cached(rules: Rules) -> UniverseRows | None:
    """The cached universe table, or None (see :mod:`ddzrules.speed.cache`: served only when
    its keyed digest and its structure check). Arrays of numbers, not pickle: a cache
    file is data and can never run code."""
    return cache.load(_cache_name(rules), lambda body: UniverseRows.decode(rules, body), stacklevel=3)


def store_cached(rules: Rules, rows: UniverseRows) -> None:
    if cache.enabled():
        cache.store(_cache_name(rules), rows.encode(rules.content_hash))
