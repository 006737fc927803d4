"""Plays with wild cards by table: one precomputed structure per wild rank.

:mod:`ddzrules.wild` enumerates a hand's plays with wild cards by walking the
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
* filed in *blocks* by (wild cards held, size, bomb or not): a hand with ``k`` wild
  cards and ``n`` cards reads only the blocks of at most ``k`` wilds and ``n`` cards,
  an answer only the blocks of its size and the bombs;
* per block and per natural rank ``r``, a bit set (a Python int, bit ``i`` for the
  block's ``i``-th reading) of the readings holding at most ``c`` cards of ``r``, for
  each ``c`` below the most the block holds of ``r``. A hand's readings in a block are
  the AND of one set per rank (its count of that rank): no per-reading Python work
  but reading out the set bits it holds.

Memory and build time per wild rank are stated in docs/census-variants.md.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Iterable

from . import cards as C
from .compiler import Rules

#: a block's key: (wild cards held, size, 1 for bombs else 0)
BlockKey = tuple[int, int, int]
# per byte of a packed count (two 4-bit rank fields): the low field, the high field
_LOW = bytes(b & C.MASK for b in range(256))
_HIGH = bytes(b >> C.BITS for b in range(256))
#: count byte -> b"1" when the count is at most c, else b"0" (bit sets as base-2 text)
_AT_MOST = [bytes(ord("1") if n <= c else ord("0") for n in range(256)) for c in range(C.MASK + 1)]


class _Block:
    """The readings of one (wilds, size, bomb) class: their positions in legal-move
    order (ascending) and, per natural rank the block uses, the bit sets by count."""

    __slots__ = ("checks", "full", "positions", "ranks")

    def __init__(self, positions: array, checks: list[tuple[int, tuple[int, ...]]]) -> None:  # type: ignore[type-arg]
        self.positions = positions
        #: (rank, bit set of the readings holding at most c cards of it, for c = 0, 1, ...)
        self.checks = checks
        self.full = (1 << len(positions)) - 1
        #: the ranks of the readings by position in the block (answers cut below a rank)
        self.ranks: array | None = None  # type: ignore[type-arg]

    def select(self, nat: list[int] | bytes) -> int:
        """The bit set of this block's readings whose natural cards ``nat`` holds."""
        x = self.full
        for r, sets in self.checks:
            n = nat[r]
            if n < len(sets):
                x &= sets[n]
                if not x:
                    return 0
        return x


def _set_bits(x: int, positions: array, out: list[int]) -> None:  # type: ignore[type-arg]
    """Append ``positions[i]`` for every bit ``i`` set in ``x`` (read out as base-2 text:
    ``str.find`` runs in C)."""
    s = format(x, "b")
    top = len(s) - 1
    find = s.find
    append = out.append
    i = find("1")
    while i >= 0:
        append(positions[top - i])
        i = find("1", i + 1)


class WildTable:
    """Every reading of the universe with wild rank ``wild`` (0–4 wild cards, at most
    ``max_size`` cards), filed for lookup by a hand's counts."""

    def __init__(self, rules: Rules, wild: int, order_bits: list[int], found: dict[tuple[int, int, int, int],
                                                                                    tuple[int, ...]],
                 max_size: int) -> None:
        self.wild = wild
        self.max_size = max_size
        n = len(found)
        packs = array("Q", [i[0] for i in found])
        # per-rank counts of every reading, one byte a reading (C-level slicing of the packed array)
        raw = packs.tobytes()
        cols = [raw[r // 2::8].translate(_HIGH if r % 2 else _LOW) for r in range(C.NUM_RANKS)]
        del raw
        sizes = sum(int.from_bytes(c, "little") for c in cols).to_bytes(n, "little")  # a count is < 16, a size < 256
        meta = array("I", [(c << 16 | r << 8 | length) for _, c, r, length in found])  # combo, rank, length
        combo_col = bytes(m >> 16 for m in meta)  # combos are < 256: spec cost bounds keep them few
        bomb_col = combo_col.translate(bytes(1 if i < len(rules.combos) and rules.combos[i].tier >= 0 else 0
                                             for i in range(256)))
        ords = [order_bits[i] for i in range(len(rules.combos))]
        # the legal-move order (tier, size, rank, combo name, packed) as one int, as WildMoves._new_move's
        width = C.BITS * C.NUM_RANKS
        keys = [((((ords[m >> 16] >> 12) << 16 | size) << 8 | (m >> 8 & 0xFF)) << 12
                 | (ords[m >> 16] & 0xFFF)) << width | p
                for m, size, p in zip(meta, sizes, packs)]
        order = sorted(range(n), key=keys.__getitem__)
        del keys
        #: per position in legal-move order: packed cards, combo << 16 | rank << 8 | length, substitution
        self.packed = array("Q", [packs[i] for i in order])
        self.meta = array("I", [meta[i] for i in order])
        substs = list(found.values())
        interned: dict[tuple[int, ...], tuple[int, ...]] = {}
        self.substs = [interned.setdefault(s, s) for s in [substs[i] for i in order]]  # few distinct tuples
        del substs, meta, packs
        # blocks: readings by (wilds, size, bomb) as one int, each block in legal-move order
        wcol = cols[wild]
        block_of = [wcol[i] << 9 | sizes[i] << 1 | bomb_col[i] for i in order]
        filed = sorted([b << 24 | pos for pos, b in enumerate(block_of)])  # n < 2**24
        del block_of, order
        by_block = array("I", [f & 0xFFFFFF for f in filed])
        # answer blocks: by (wilds, size, bomb)
        self.blocks: dict[BlockKey, _Block] = {}
        for key in sorted({f >> 24 for f in filed}):
            start, end = bisect_left(filed, key << 24), bisect_left(filed, (key + 1) << 24)
            self.blocks[(key >> 9, (key >> 1) & 0xFF, key & 1)] = self._block(by_block[start:end])
        # lead blocks: by wilds alone (a hand cannot hold a play larger than itself)
        self.lead_blocks: list[_Block | None] = []
        for j in range(C.MASK + 1):
            positions = array("I", sorted(p for (w, _, _), blk in self.blocks.items() if w == j for p in blk.positions))
            self.lead_blocks.append(self._block(positions) if positions else None)
        del filed, by_block
        #: the Move of each position, made on first use
        self.moves: list[object] = [None] * n

    def _block(self, positions: array) -> _Block:  # type: ignore[type-arg]
        """A block of these positions (ascending): per natural rank, the bit sets by count."""
        raw = array("Q", [self.packed[p] for p in positions]).tobytes()
        checks = []
        for r in range(C.NUM_RANKS):
            if r == self.wild:
                continue  # a reading's cards of the wild rank are its wild cards: counted by the block
            counts = raw[r // 2::8].translate(_HIGH if r % 2 else _LOW)
            # bit i of the set for c: the block's i-th reading holds at most c cards of rank r
            sets = tuple(int(counts.translate(_AT_MOST[c])[::-1], 2) for c in range(max(counts)))
            if sets:
                checks.append((r, sets))
        return _Block(positions, checks)

    def ident(self, pos: int) -> tuple[int, int, int, int]:
        """(packed, combo, rank, length) of the reading at ``pos``."""
        m = self.meta[pos]
        return self.packed[pos], m >> 16, (m >> 8) & 0xFF, m & 0xFF

    # ------------------------------------------------------------------ queries
    def lead(self, nat: list[int], wilds: int, total: int) -> list[int]:
        """Positions (ascending) of every reading ``nat`` plus ``wilds`` wild cards hold."""
        out: list[int] = []
        for block in self.lead_blocks[:wilds + 1]:  # block j: the readings holding j wild cards
            x = block.select(nat) if block is not None else 0
            if x:
                _set_bits(x, block.positions, out)
        if wilds:
            out.sort()
        return out

    def exact(self, nat: list[int], wilds: int) -> list[int]:
        """Positions of the readings of exactly these cards (classify)."""
        total = sum(nat) + wilds
        out: list[int] = []
        for bomb in (0, 1):
            block = self.blocks.get((wilds, total, bomb))
            if block is not None:
                x = block.select(nat)
                if x:
                    _set_bits(x, block.positions, out)
        out.sort()
        return out

    def sized(self, nat: list[int], wilds: int, size: int, bombs: bool) -> list[int]:
        """Positions (unsorted) of the readings the hand holds of one size, non-bombs
        (``bombs`` False) or bombs of every size (``bombs`` True)."""
        out: list[int] = []
        for (j, s, b), block in self.blocks.items():
            if j <= wilds and (b if bombs else (not b and s == size)):
                x = block.select(nat)
                if x:
                    _set_bits(x, block.positions, out)
        return out

    def nbytes(self) -> int:
        """Bytes held by the structure (bit sets, arrays, the Move slots and the references
        to the substitutions; not the Moves made, nor the few distinct substitution tuples)."""
        total = 8 * len(self.moves)
        for block in [*self.blocks.values(), *filter(None, self.lead_blocks)]:
            total += block.positions.itemsize * len(block.positions)
            total += sum(s.bit_length() // 8 + 1 for _, sets in block.checks for s in sets)
        return total + 8 * len(self.packed) + 4 * len(self.meta) + 8 * len(self.substs)


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
