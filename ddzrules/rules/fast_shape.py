"""One shape's readings filed for fast listing (``FastShape``), and the per-hand masks they
are picked by: the data :class:`~ddzrules.rules.lister.MovePlan` lists a hand's plays from."""

from __future__ import annotations

from collections.abc import Callable
from itertools import accumulate as _accumulate
from itertools import chain as _chain
from itertools import combinations as _combinations
from itertools import compress as _compress
from itertools import product as _product
from itertools import repeat as _repeat
from math import comb as _comb
from typing import Any, Protocol

from ddzrules import cards as C
from ddzrules.rules.shapes import Rules, Shape

# ====================================================================== fast listing
#
# ``Rules.enumerate`` walks every shape's cores and kickers in Python, one card group
# at a time; it builds the universe table. Listing the plays of one hand happens far
# more often, so :class:`MovePlan` lists them from data precomputed from that table:
# every reading of the universe is filed under the shape that produced it and that
# shape's core (the group or chain without kickers), and given its position in the
# order legal moves are listed in. A hand's plays are then found core by core, from
# per-rank masks of the hand's counts (``bytes.translate``) and C-level iteration:
#
# * kickerless groups and chains: readings by rank picked by a mask
#   (``itertools.compress``); chains through their maximal runs, memoised by mask;
# * one kicker group: per core, its readings by kicker rank, picked by a mask;
# * two kicker groups: per core, its readings in a triangle by the two kicker ranks,
#   picked by the hand's triangle of rank pairs (one big-int AND);
# * three kicker groups: per core and highest kicker rank, a prefix of that triangle;
# * more kicker groups: C-level combinations of the cards left, looked up by cards;
# * shapes outside these forms (several kicker rules, kickers that overlap the core,
#   literal cores with kickers): ``Rules.enumerate`` for that shape alone.
#
# Every reading has one (shape, core) and a hand holds the core of every play it
# holds, so each play comes out exactly once. A lead runs every shape, an answer its
# play's family above the play's rank and then the bombs, each as code written out
# (``_Source``): the lead once per plan, an answer once per kind of play to beat
# (memoised). Callers sort the positions; the steps keep long sorted runs (a core's
# readings in listing order) so that sorting costs little.

#: placeholder position in per-rank reading arrays: "no reading"; sorts first
NO_READING = -1
_COMBINATIONS_LIMIT = 20_000  # more kicker combinations than this: enumerate multisets instead
_WEIGHTS = [[u << (C.BITS * r) for r in range(C.NUM_RANKS)] for u in range(2 * C.MASK + 2)]
#: translation tables: a byte c becomes 1 when c >= u, else 0 (per-rank "has u cards" masks)
AT_LEAST = [bytes(1 if c >= u else 0 for c in range(256)) for u in range(C.MASK + 1)]
_ALL_RANKS = tuple(range(C.NUM_RANKS))
ZEROS = [bytes(n) for n in range(C.NUM_RANKS + 1)]

# Triangles of kicker-rank pairs: byte ``_cell(q1, q2)`` (q1 <= q2) of a 120-byte int
# stands for kickers of ranks q1 and q2. Cells run column by column (q2, then q1, the
# doubled rank last), which is the listing order of one core's readings: packed counts
# compare by the higher kicker rank first, and a doubled rank tops its column. The
# hand's selector is built from per-half-mask tables: cells whose lower rank is held,
# AND cells whose higher rank is held, OR the doubled ranks held twice.
TRIANGLE = C.NUM_RANKS * (C.NUM_RANKS + 1) // 2
_NO_PAIRS: tuple[tuple[int, ...], int] = ((), 0)  # a core without readings: an empty triangle
NO_CORES = ((), (), ())  # chain cores memoised by mask: none with readings
_HALF = 8  # ranks 0..7 and 8..14: the selector tables are keyed by half masks
#: by rank q: the triangle's cells of ranks below q, and the ranks below q
_PREFIXES = tuple(slice(0, q * (q + 1) // 2) for q in range(C.NUM_RANKS))
_BELOW = tuple(slice(0, q) for q in range(C.NUM_RANKS))


def _cell(q1: int, q2: int) -> int:
    """The triangle's byte for kicker ranks q1 <= q2."""
    return q2 * (q2 + 1) // 2 + q1


#: per byte of a packed count (ranks 2k and 2k+1), the (rank, count) of each rank it holds
_BYTE_HELD = [[tuple((r, c) for r, c in ((2 * k, b & C.MASK), (2 * k + 1, b >> C.BITS)) if c and r < C.NUM_RANKS)
               for b in range(256)] for k in range(8)]


def _held(packed: int) -> tuple[tuple[int, int], ...]:
    """The (rank, count) of each rank a packed count holds, lowest first."""
    return tuple(_chain.from_iterable(map(list.__getitem__, _BYTE_HELD, packed.to_bytes(8, "little"))))


def _half_tables(bit: Callable[[int], int]) -> tuple[dict[bytes, int], dict[bytes, int]]:
    """Per half of a 0/1 rank mask, the OR of ``bit(q)`` over the ranks q it holds."""
    tables = []
    for lo, hi in ((0, _HALF), (_HALF, C.NUM_RANKS)):
        tables.append({bytes(bits): sum(bit(lo + i) for i, b in enumerate(bits) if b)
                       for bits in _product((0, 1), repeat=hi - lo)})
    return tables[0], tables[1]


_LOWER = _half_tables(lambda q: sum(1 << (8 * _cell(q, q2)) for q2 in range(q + 1, C.NUM_RANKS)))
_UPPER = _half_tables(lambda q: sum(1 << (8 * _cell(q1, q)) for q1 in range(q)))
_DOUBLED = _half_tables(lambda q: 1 << (8 * _cell(q, q)))


#: the cells (q1 < q2) of the triangle by the 0/1 rank mask holding both ranks: at most
#: 2^15 entries of 120 bytes, filled as masks come up (they repeat from hand to hand)
_DISTINCT_PAIRS: dict[bytes, int] = {}


def pair_selector(one: bytes, two: bytes) -> int:
    """The triangle of kicker pairs a hand holds: cell (q1 < q2) when ``one`` (its 0/1
    mask of ranks with a kicker group) holds both, cell (q, q) when ``two`` holds q."""
    distinct = _DISTINCT_PAIRS.get(one)
    if distinct is None:
        lo, hi = one[:_HALF], one[_HALF:]
        distinct = _DISTINCT_PAIRS[one] = (_LOWER[0][lo] | _LOWER[1][hi]) & (_UPPER[0][lo] | _UPPER[1][hi])
    return distinct | _DOUBLED[0][two[:_HALF]] | _DOUBLED[1][two[_HALF:]]


assert C.NUM_RANKS == 15, "legal_moves' counting assumes 15 ranks"


class HandMasks:
    """One hand during one listing: its counts and what is derived from them on demand."""

    __slots__ = ("counts", "masks", "pools", "raw", "runs", "total")

    def __init__(self, raw: bytes, masks: list[bytes | None] | None = None) -> None:
        self.raw = self.counts = raw  # the count of each rank, one byte a rank
        self.total = sum(raw)
        self.masks: list[bytes | None] = masks if masks is not None else [None] * (C.MASK + 1)
        self.pools: dict[int, Any] = {}
        self.runs: dict[int, tuple[tuple[int, int], ...]] = {}

    def pair_select(self, unit: int) -> int:
        """The pairs of kicker groups of ``unit`` cards the hand holds, as a triangle of
        bytes (see ``_cell``)."""
        key = -unit
        got = self.pools.get(key)
        if got is None:
            two = self.at_least(2 * unit) if 2 * unit <= C.MASK else ZEROS[C.NUM_RANKS]
            got = self.pools[key] = pair_selector(self.at_least(unit), two)
        return got

    def at_least(self, unit: int) -> bytes:
        """Per rank, 1 when the hand holds at least ``unit`` cards of it."""
        got = self.masks[unit]
        if got is None:
            got = self.masks[unit] = self.raw.translate(AT_LEAST[unit])
        return got


class Runs:
    """Maximal runs of consecutive ranks in lo..hi holding ``unit`` cards, by rank mask."""

    __slots__ = ("hi", "key", "lo", "memo", "unit")

    def __init__(self, lo: int, hi: int, unit: int, key: int) -> None:
        self.lo, self.hi, self.unit, self.key = lo, hi, unit, key
        self.memo: dict[bytes, tuple[tuple[int, int], ...]] = {}

    def mask(self, hand: HandMasks) -> bytes:
        return hand.at_least(self.unit)[self.lo:self.hi + 1]

    def of(self, hand: HandMasks) -> tuple[tuple[int, int], ...]:
        got = hand.runs.get(self.key)
        if got is None:
            mask = self.mask(hand)
            got = self.memo.get(mask)
            if got is None:
                got = self.memo[mask] = self.compute(mask)
            hand.runs[self.key] = got
        return got

    def compute(self, mask: bytes) -> tuple[tuple[int, int], ...]:
        return maximal_runs(mask, self.lo)


def maximal_runs(mask: bytes, first: int) -> tuple[tuple[int, int], ...]:
    """The maximal runs of set bytes in a 0/1 rank mask whose byte 0 is rank ``first``,
    as (lowest rank, highest rank)."""
    runs = []
    start = -1
    for i, bit in enumerate(mask):
        if bit and start < 0:
            start = i
        elif not bit and start >= 0:
            runs.append((first + start, first + i - 1))
            start = -1
    if start >= 0:
        runs.append((first + start, first + len(mask) - 1))
    return tuple(runs)


def _multiset_sums(weights: list[int], k: int) -> list[int]:
    """Sums of every distinct multiset of ``k`` entries of ``weights`` (equal weights
    adjacent); for pools where plain combinations would repeat too much."""
    items: list[list[int]] = []
    for w in weights:
        if items and items[-1][0] == w:
            items[-1][1] += 1
        else:
            items.append([w, 1])
    room = [0] * (len(items) + 1)
    for i in range(len(items) - 1, -1, -1):
        room[i] = room[i + 1] + items[i][1]
    out: list[int] = []

    def rec(i: int, need: int, acc: int) -> None:
        if need == 0:
            out.append(acc)
            return
        if room[i] < need:
            return
        w, m = items[i]
        for t in range(min(m, need), -1, -1):
            rec(i + 1, need - t, acc + t * w)

    rec(0, k, 0)
    return out


class ShapePlan(Protocol):
    """What a shape asks of the plan it belongs to (:class:`~ddzrules.rules.lister.MovePlan`,
    which imports this module): the rules, shared chain runs and kicker pools."""

    rules: Rules

    def runs(self, lo: int, hi: int, unit: int) -> Runs: ...

    def pool_id(self, unit: int, caps: tuple[int, ...]) -> int: ...


class FastShape:
    """One shape's readings, filed by core, and the generators that find them in a hand.

    ``kind``: ``group0``/``chain0``/``literal0`` (no kickers), ``groupk``/``chaink``
    (one kicker rule not overlapping the core) or ``generic``.
    """

    def __init__(self, plan: ShapePlan, index: int, shape: Shape) -> None:
        self.plan = plan
        self.index = index
        self.shape = shape
        self.unit = shape.unit
        self.kick = shape.kickers[0] if len(shape.kickers) == 1 else None
        if len(shape.kickers) > 1 or (shape.kickers and (shape.overlap or shape.kind == "literal")):
            self.kind = "generic"
        else:
            self.kind = shape.kind + ("k" if shape.kickers else "0")
        self.rank_ok = bytes(1 if r in shape.ranks else 0 for r in range(C.NUM_RANKS))
        # readings by core: key r*16+count (groups) or (start, top) (chains)
        self.plain: dict[Any, list[int]] = {}  # kickerless: core -> positions
        self.single: dict[Any, list[int]] = {}  # one kicker group: core -> position by kicker rank
        self.multi: dict[Any, dict[int, int]] = {}  # several kicker groups: core -> kicker cards -> position
        self.idents: dict[tuple[int, int, int, int], int] = {}  # generic: reading -> position
        # two kicker groups: core -> (positions by kicker ranks q1*15+q2, q1 <= q2; a mask
        # with byte q1*15+q2 set where there is one), and cores not in that form
        self.pairs: dict[Any, tuple[Any, int]] = {}
        self.unpaired: set[Any] = set()
        # three kicker groups: core -> by the highest kicker rank q3, the readings whose
        # other two kickers lie below q3 (a triangle prefix), those with two groups at
        # q3 (by the lowest rank) and the one with three (see _add_triples)
        self.triples: dict[Any, Any] = {}
        self.literal_items: tuple[tuple[int, int], ...] = ()
        if shape.kind == "chain":
            self.lo, self.hi = shape.ranks[0], shape.ranks[-1]
            self.hi1 = self.hi + 1
            self.runs = plan.runs(self.lo, self.hi, shape.unit)
            pre = [0]
            for r in range(C.NUM_RANKS):
                pre.append(pre[-1] + (shape.unit << (C.BITS * r) if self.lo <= r <= self.hi else 0))
            self.prefix = pre
            self.memo: dict[bytes, Any] = {}
        elif shape.kind == "literal":
            self.literal_items = tuple((r, c) for r, c in enumerate(C.unpack(shape.literal)) if c)
            self.literal_size = sum(c for _, c in self.literal_items)
            self.literal_rank = max(r for r, _ in self.literal_items)
        self.pool_specs: dict[int, tuple[int, tuple[int, ...]]] = {}

    # ---------------------------------------------------------------- filing
    def add(self, pos: int, ident: tuple[int, int, int, int]) -> None:
        """File the reading at position ``pos`` (``ident``: packed, combo, rank, length)."""
        packed, _, rank, length = ident
        kind = self.kind
        if kind == "generic":
            self.idents[ident] = pos
            return
        if kind == "literal0":
            self.plain.setdefault(0, []).append(pos)
            return
        if self.shape.kind == "group":
            count = (packed >> (C.BITS * rank)) & C.MASK
            key: Any = rank * 16 + count
            core = count << (C.BITS * rank)
            groups = self.kick.groups(1) if self.kick else 0
        else:
            start = rank - length + 1
            key = (start, rank)
            core = self.prefix[rank + 1] - self.prefix[start]
            groups = self.kick.groups(length) if self.kick else 0
        if self.kick is None:
            self.plain.setdefault(key, []).append(pos)
            return
        kicker = packed - core
        if groups == 1:
            q = (kicker.bit_length() - 1) // C.BITS  # the kicker's (highest) rank
            self.single.setdefault(key, [NO_READING] * C.NUM_RANKS)[q] = pos
            return
        self.multi.setdefault(key, {})[kicker] = pos
        u = self.kick.unit
        held = _held(kicker)
        if groups == 3:
            ranks = [r for r, n in held for _ in range(n // u)]
            if len(ranks) != 3 or any(n % u for _, n in held):  # pragma: no cover - kickers are whole groups
                self.unpaired.add(key)
                return
            rows = self.triples.get(key)
            if rows is None:  # (made only for a new core: most readings file into one made before)
                rows = self.triples[key] = ([[NO_READING] * _cell(0, q) for q in range(C.NUM_RANKS)],
                                            [[NO_READING] * q for q in range(C.NUM_RANKS)],
                                            [NO_READING] * C.NUM_RANKS)
            pre, col, top = rows
            q1, q2, q3 = ranks
            if q2 < q3:
                pre[q3][_cell(q1, q2)] = pos
            elif q1 < q2:
                col[q3][q1] = pos
            else:
                top[q3] = pos
        if groups == 2:  # also by the pair of kicker ranks (a triangle: see _cell)
            if len(held) == 1 and held[0][1] == 2 * u:
                cell = _cell(held[0][0], held[0][0])
            elif len(held) == 2 and held[0][1] == held[1][1] == u:
                cell = _cell(held[0][0], held[1][0])
            else:  # pragma: no cover - kickers are whole groups
                self.unpaired.add(key)
                return
            triangle, valid = self.pairs.get(key) or ([NO_READING] * TRIANGLE, 0)
            triangle[cell] = pos
            self.pairs[key] = (triangle, valid | (1 << (8 * cell)))

    def finish(self) -> None:
        """Freeze the filed readings into the per-count, per-rank rows the generators use."""
        self.plain_t = {k: tuple(v) for k, v in self.plain.items()}
        self.pairs = {k: (tuple(sq), valid) for k, (sq, valid) in self.pairs.items()}
        for k in self.unpaired:
            self.triples.pop(k, None)
        self.triples = {k: (tuple(map(tuple, pre)), tuple(map(tuple, col)), tuple(top),
                            # the triangle cells with a reading for some q3; and whether any
                            # reading has two or three groups of one rank
                            sum(1 << (8 * c) for c in {c for row in pre for c, pos in enumerate(row) if pos >= 0}),
                            any(pos >= 0 for row in col for pos in row), any(pos >= 0 for pos in top))
                        for k, (pre, col, top) in self.triples.items()}
        self.by_count: dict[int, tuple[Any, ...]] = {}
        self.kgroups = self.kick.groups(1) if self.kick else 0
        self.kick_table = AT_LEAST[self.kick.unit] if self.kick else b""
        self.kcards = self.kick.unit * self.kgroups if self.kick else 0
        self.flat_by_count: dict[int, tuple[int, ...]] = {}  # kickerless groups: one reading a rank
        if self.kind == "group0":
            for c in range(self.unit, self.shape.max_count + 1):
                self.by_count[c] = tuple(self.plain_t.get(r * 16 + c, ()) for r in range(C.NUM_RANKS))
                self.flat_by_count[c] = tuple(cell[0] if cell else NO_READING for cell in self.by_count[c])
        elif self.kind == "groupk" and self.kgroups == 1:
            for c in range(self.unit, self.shape.max_count + 1):
                self.by_count[c] = tuple(tuple(self.single.get(r * 16 + c, ())) for r in range(C.NUM_RANKS))
        #: two kicker groups, every core in the triangle form: per core count, each
        #: rank's (triangle, valid) as a core (``_NO_PAIRS`` for none)
        self.pair_rows: dict[int, tuple[tuple[tuple[int, ...], int], ...]] = {}
        if self.kind == "groupk" and self.kgroups == 2 and not self.unpaired:
            for c in range(self.unit, self.shape.max_count + 1):
                self.pair_rows[c] = tuple(self.pairs.get(r * 16 + c, _NO_PAIRS) for r in range(C.NUM_RANKS))

    # ---------------------------------------------------------------- kicker pools
    def pool(self, hand: HandMasks, groups: int) -> tuple[list[int], list[int]]:
        """The hand's candidate kicker groups for ``groups`` groups, as unit weights in
        rank order, and where each rank's entries start."""
        spec = self.pool_specs.get(groups)
        if spec is None:
            s, kr = self.shape, self.kick
            assert kr is not None
            cap = 1 if s.distinct else groups
            if s.per_rank < 99:
                cap = min(cap, s.per_rank // kr.unit)
            jcap = min(cap, s.jokers // kr.unit) if s.jokers < 99 else cap
            caps = tuple((jcap if r >= C.SMALL_JOKER else cap) if r in kr.ranks else 0
                         for r in range(C.NUM_RANKS))
            spec = self.pool_specs[groups] = (self.plan.pool_id(kr.unit, caps), caps)
        pid, caps = spec
        got = hand.pools.get(pid)
        if got is None:
            u = self.kick.unit  # type: ignore[union-attr]  # a kicked kind: kick is set
            counts = hand.counts if u == 1 else [c // u for c in hand.counts]
            mult = list(map(min, counts, caps))
            got = hand.pools[pid] = (list(_chain.from_iterable(map(_repeat, _WEIGHTS[u], mult))),
                                     list(_accumulate(mult, initial=0)))
        return got

    def kicked(self, hand: HandMasks, key: Any, start: int, top: int, groups: int, out: list[int]) -> None:
        """Add the readings of the core ``key`` (ranks start..top) whose kickers the hand holds."""
        if groups == 1:
            arr = self.single.get(key)
            if arr is not None:
                out.extend(_compress(arr, hand.at_least(self.kick.unit)))  # type: ignore[union-attr]  # a kicked kind: kick is set
            return
        if groups == 2 and key not in self.unpaired:
            got = self.pairs.get(key)
            if got is not None:
                triangle, valid = got
                select = (hand.pair_select(self.kick.unit) & valid).to_bytes(TRIANGLE, "little")  # type: ignore[union-attr]  # a kicked kind: kick is set
                out.extend(_compress(triangle, select))
            return
        if groups == 3:
            triples = self.triples.get(key)
            if triples is not None:
                self._add_triples(hand, triples, start, top, out)
                return
        table = self.multi.get(key)
        if table is None:
            return
        weights, pos = self.pool(hand, groups)
        lo, hi = pos[start], pos[top + 1]
        pool = weights[:lo] + weights[hi:] if hi > lo else weights
        n = len(pool)
        if n < groups:
            return
        if _comb(n, groups) <= _COMBINATIONS_LIMIT:
            sums: Any = set(map(sum, _combinations(pool, groups)))
        else:
            sums = _multiset_sums(pool, groups)
        out.extend(map(table.__getitem__, table.keys() & sums))

    def _add_triples(self, hand: HandMasks, triples: Any, start: int, top: int, out: list[int]) -> None:
        """Readings with three kicker groups (ranks q1 <= q2 <= q3) outside the core's
        ranks start..top: for each held q3, the triangle of the hand's pairs below q3;
        for each q3 held twice, the ranks below it; each q3 held three times."""
        pre, col, three, valid, doubled, tripled = triples
        u = self.kick.unit  # type: ignore[union-attr]  # a kicked kind: kick is set
        cut = ZEROS[top - start + 1]
        one = hand.at_least(u)
        one = one[:start] + cut + one[top + 1:]
        two = hand.at_least(2 * u) if 2 * u <= C.MASK else ZEROS[C.NUM_RANKS]
        two = two[:start] + cut + two[top + 1:]
        below = ((pair_selector(one, two) & valid).to_bytes(TRIANGLE, "little"))
        out.extend(_chain.from_iterable(map(_compress, _compress(pre, one),
                                            map(below.__getitem__, _compress(_PREFIXES, one)))))
        if doubled and 1 in two:
            out.extend(_chain.from_iterable(map(_compress, _compress(col, two),
                                                map(one.__getitem__, _compress(_BELOW, two)))))
        if tripled and 3 * u <= C.MASK:
            out.extend(_compress(three, hand.at_least(3 * u)[:start] + cut + hand.at_least(3 * u)[top + 1:]))

    # ---------------------------------------------------------------- generators
    def lead(self, hand: HandMasks, out: list[int]) -> None:
        """Add every reading of this shape inside the hand."""
        kind = self.kind
        if kind == "group0":
            for c, row in self.by_count.items():
                out.extend(_chain.from_iterable(_compress(row, hand.at_least(c))))
        elif kind == "groupk":
            if self.kgroups == 1:  # one kicker group: the core's readings by kicker rank
                kmask = hand.at_least(self.kick.unit)  # type: ignore[union-attr]  # a kicked kind: kick is set
                for c, row in self.by_count.items():
                    out.extend(_chain.from_iterable(map(_compress, _compress(row, hand.at_least(c)),
                                                        _repeat(kmask))))
            else:
                counts, total = hand.counts, hand.total
                for r in _compress(_ALL_RANKS, hand.at_least(self.unit)):
                    for c in range(self.unit, min(counts[r], self.shape.max_count) + 1):
                        if c + self.kcards <= total:
                            self.kicked(hand, r * 16 + c, r, r, self.kgroups, out)
        elif kind == "chain0":
            mask = hand.at_least(self.unit)[self.lo:self.hi1]
            got = self.memo.get(mask)
            if got is None:
                got = self.memo[mask] = self.chain_plain(self.runs.compute(mask))
            out.extend(got)
        elif kind == "chaink":
            mask = hand.at_least(self.unit)[self.lo:self.hi1]
            got = self.memo.get(mask)
            if got is None:
                got = self.memo[mask] = self.chain_cores(self.runs.compute(mask))
            if got is not NO_CORES:
                ones, twos, more = got
                u = self.kick.unit  # type: ignore[union-attr]  # a kicked kind: kick is set
                if ones:
                    out.extend(_chain.from_iterable(map(_compress, ones, _repeat(hand.at_least(u)))))
                if twos:
                    select = hand.pair_select(u)
                    for triangle, valid in twos:
                        out.extend(_compress(triangle, (select & valid).to_bytes(TRIANGLE, "little")))
                total = hand.total
                for key, start, top, groups, size in more:
                    if size <= total:
                        self.kicked(hand, key, start, top, groups, out)
        elif kind == "literal0":
            self._literal(hand, out, -1)
        else:
            self._generic(hand, out, max_size=hand.total)

    def answer(self, hand: HandMasks, out: list[int], size: int, length: int, min_rank: int) -> None:
        """Add the readings of this shape inside the hand with ``size`` cards, chain length
        ``length`` and rank above ``min_rank``."""
        kind = self.kind
        shape, kick = self.shape, self.kick
        if kind == "group0" or kind == "groupk":
            c = size - self.kcards
            if length != 1 or c < self.unit or c > shape.max_count:
                return
            lo = min_rank + 1
            if kind == "group0":
                out.extend(_chain.from_iterable(_compress(self.by_count[c][lo:], hand.at_least(c)[lo:])))
            elif self.kgroups == 1:
                kmask = hand.at_least(kick.unit)  # type: ignore[union-attr]  # a kicked kind: kick is set
                out.extend(_chain.from_iterable(map(_compress, _compress(self.by_count[c][lo:], hand.at_least(c)[lo:]),
                                                    _repeat(kmask))))
            else:
                for r in _compress(_ALL_RANKS[lo:], hand.at_least(c)[lo:]):
                    self.kicked(hand, r * 16 + c, r, r, self.kgroups, out)
        elif kind == "chain0" or kind == "chaink":
            if length < shape.min_len or length > shape.max_len:
                return
            groups = kick.groups(length) if kick else 0
            if self.unit * length + (kick.unit * groups if kick else 0) != size:
                return
            for a, b in self.runs.of(hand):
                for top in range(max(a + length - 1, min_rank + 1), b + 1):
                    key = (top - length + 1, top)
                    if kind == "chain0":
                        out.extend(self.plain_t.get(key, ()))
                    else:
                        self.kicked(hand, key, top - length + 1, top, groups, out)
        elif kind == "literal0":
            if length == 1 and size == self.literal_size:
                self._literal(hand, out, min_rank)
        else:
            self._generic(hand, out, exact_size=size, min_rank=min_rank, length=length)

    # ---------------------------------------------------------------- helpers
    def _literal(self, hand: HandMasks, out: list[int], min_rank: int) -> None:
        if self.literal_rank <= min_rank:
            return
        counts = hand.counts
        for r, c in self.literal_items:
            if counts[r] < c:
                return
        out.extend(self.plain_t.get(0, ()))

    def _generic(self, hand: HandMasks, out: list[int], **kw: Any) -> None:
        found: dict[tuple[int, int, int, int], None] = {}

        def emit(packed: int, combo: int, rank: int, length: int) -> None:
            found[(packed, combo, rank, length)] = None

        self.plan.rules.enumerate(list(hand.counts), emit, shapes=[self.shape], **kw)
        idents = self.idents
        out.extend(idents[i] for i in found if i in idents)

    def chain_plain(self, runs: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
        s_, plain = self.shape, self.plain_t
        got: list[int] = []
        for a, b in runs:
            for length in range(s_.min_len, min(s_.max_len, b - a + 1) + 1):
                for start in range(a, b - length + 2):
                    got.extend(plain.get((start, start + length - 1), ()))
        return tuple(sorted(got))

    def chain_cores(self, runs: tuple[tuple[int, int], ...]) -> Any:
        """The cores inside these runs that have readings (see :meth:`_cores`)."""
        s_ = self.shape
        return self._cores([(start, length) for a, b in runs
                            for length in range(s_.min_len, min(s_.max_len, b - a + 1) + 1)
                            for start in range(a, b - length + 2)])

    def _cores(self, cores: list[tuple[int, int]]) -> Any:
        """The chain cores (start, length) that have readings, by how their kickers are
        found: (readings by kicker rank for one kicker group, (triangle, valid) for
        two, (key, start, top, groups, size) for more); ``NO_CORES`` for none."""
        kick = self.kick
        assert kick is not None
        ones: list[tuple[int, ...]] = []
        twos: list[tuple[tuple[int, ...], int]] = []
        more: list[tuple[Any, int, int, int, int]] = []
        for start, length in cores:
            groups = kick.groups(length)
            key = (start, start + length - 1)
            if groups == 1 and key in self.single:
                ones.append(tuple(self.single[key]))
            elif groups == 2 and key in self.pairs and key not in self.unpaired:
                twos.append(self.pairs[key])
            elif key in self.single or key in self.multi:
                more.append((key, start, start + length - 1, groups, self.unit * length + kick.unit * groups))
        return (tuple(ones), tuple(twos), tuple(more)) if ones or twos or more else NO_CORES

    def answer_window(self, length: int, min_rank: int) -> tuple[int, int]:
        """The ranks (first, past the last) of chains of ``length`` topping ``min_rank``."""
        return max(self.lo, min_rank + 2 - length), self.hi1

    def answer_chains(self, length: int, first: int, mask: bytes) -> Any:
        """Kickerless: the readings of chains of ``length`` inside the window ``mask``
        (byte 0 is rank ``first``) in listing order; with kickers, their cores."""
        cores = [(top - length + 1, length) for a, b in maximal_runs(mask, first)
                 for top in range(a + length - 1, b + 1)]
        if self.kick is not None:
            return self._cores(cores)
        plain = self.plain_t
        return tuple(_chain.from_iterable(plain.get((start, start + length - 1), ()) for start, _ in cores))
