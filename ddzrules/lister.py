"""The lister: a hand's legal plays, fast, from a compiled spec's universe table.

:func:`~ddzrules.compiler.compile_spec` turns a spec into :class:`~ddzrules.compiler.Rules`
(shapes that enumerate plays) and the variant builds the universe table from them;
:class:`MovePlan` files every reading of that table under the shape and core that make
it, so that listing one hand's plays — what a game does at every step — reads
precomputed data instead of enumerating. The pipeline: spec → patterns → compiler
(tables) → lister → variant → runtime.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from itertools import accumulate as _accumulate
from itertools import chain as _chain
from itertools import combinations as _combinations
from itertools import compress as _compress
from itertools import product as _product
from itertools import repeat as _repeat
from math import comb as _comb
from operator import itemgetter as _itemgetter
from typing import Any

from . import cards as C
from .compiler import Rules, Shape

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
# * more kicker groups: C-level combinations of the cards left, looked up by cards;
# * shapes outside these forms (several kicker rules, kickers that overlap the core,
#   literal cores with kickers): ``Rules.enumerate`` for that shape alone.
#
# Every reading has one (shape, core) and a hand holds the core of every play it
# holds, so each play comes out exactly once. A lead runs every shape (as code written
# out for the plan, see ``MovePlan._compile_lead``); an answer runs a memoised recipe
# for the play to beat: its family's shapes above its rank, then the bombs.

#: placeholder position in per-rank reading arrays: "no reading"; sorts first
NO_READING = -1
_COMBINATIONS_LIMIT = 20_000  # more kicker combinations than this: enumerate multisets instead
_WEIGHTS = [[u << (C.BITS * r) for r in range(C.NUM_RANKS)] for u in range(2 * C.MASK + 2)]
#: translation tables: a byte c becomes 1 when c >= u, else 0 (per-rank "has u cards" masks)
_AT_LEAST = [bytes(1 if c >= u else 0 for c in range(256)) for u in range(C.MASK + 1)]
_ALL_RANKS = tuple(range(C.NUM_RANKS))
_ZEROS = [bytes(n) for n in range(C.NUM_RANKS + 1)]

# Triangles of kicker-rank pairs: byte ``_cell(q1, q2)`` (q1 <= q2) of a 120-byte int
# stands for kickers of ranks q1 and q2. Cells run column by column (q2, then q1, the
# doubled rank last), which is the listing order of one core's readings: packed counts
# compare by the higher kicker rank first, and a doubled rank tops its column. The
# hand's selector is built from per-half-mask tables: cells whose lower rank is held,
# AND cells whose higher rank is held, OR the doubled ranks held twice.
_TRIANGLE = C.NUM_RANKS * (C.NUM_RANKS + 1) // 2
_NO_PAIRS: tuple[tuple[int, ...], int] = ((), 0)  # a core without readings: an empty triangle
_NO_CORES = ((), (), ())  # chain cores memoised by mask: none with readings
_HALF = 8  # ranks 0..7 and 8..14: the selector tables are keyed by half masks


def _cell(q1: int, q2: int) -> int:
    """The triangle's byte for kicker ranks q1 <= q2."""
    return q2 * (q2 + 1) // 2 + q1


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


def _pair_selector(one: bytes, two: bytes) -> int:
    """The triangle of kicker pairs a hand holds: cell (q1 < q2) when ``one`` (its 0/1
    mask of ranks with a kicker group) holds both, cell (q, q) when ``two`` holds q."""
    lo, hi = one[:_HALF], one[_HALF:]
    return ((_LOWER[0][lo] | _LOWER[1][hi]) & (_UPPER[0][lo] | _UPPER[1][hi])) \
        | _DOUBLED[0][two[:_HALF]] | _DOUBLED[1][two[_HALF:]]


assert C.NUM_RANKS == 15, "legal_moves' counting assumes 15 ranks"


def _getter(indices: tuple[int, ...]) -> Callable[[Any], Any]:
    """``operator.itemgetter`` of several indices."""
    first, *rest = indices
    return _itemgetter(first, *rest)


class _Hand:
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
            two = self.at_least(2 * unit) if 2 * unit <= C.MASK else _ZEROS[C.NUM_RANKS]
            got = self.pools[key] = _pair_selector(self.at_least(unit), two)
        return got

    def at_least(self, unit: int) -> bytes:
        """Per rank, 1 when the hand holds at least ``unit`` cards of it."""
        got = self.masks[unit]
        if got is None:
            got = self.masks[unit] = self.raw.translate(_AT_LEAST[unit])
        return got


class _Runs:
    """Maximal runs of consecutive ranks in lo..hi holding ``unit`` cards, by rank mask."""

    __slots__ = ("hi", "key", "lo", "memo", "unit")

    def __init__(self, lo: int, hi: int, unit: int, key: int) -> None:
        self.lo, self.hi, self.unit, self.key = lo, hi, unit, key
        self.memo: dict[bytes, tuple[tuple[int, int], ...]] = {}

    def mask(self, hand: _Hand) -> bytes:
        return hand.at_least(self.unit)[self.lo:self.hi + 1]

    def of(self, hand: _Hand) -> tuple[tuple[int, int], ...]:
        got = hand.runs.get(self.key)
        if got is None:
            mask = self.mask(hand)
            got = self.memo.get(mask)
            if got is None:
                got = self.memo[mask] = self.compute(mask)
            hand.runs[self.key] = got
        return got

    def compute(self, mask: bytes) -> tuple[tuple[int, int], ...]:
        runs = []
        start = -1
        for i, bit in enumerate(mask):
            if bit and start < 0:
                start = i
            elif not bit and start >= 0:
                runs.append((self.lo + start, self.lo + i - 1))
                start = -1
        if start >= 0:
            runs.append((self.lo + start, self.hi))
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


class _FastShape:
    """One shape's readings, filed by core, and the generators that find them in a hand.

    ``kind``: ``group0``/``chain0``/``literal0`` (no kickers), ``groupk``/``chaink``
    (one kicker rule not overlapping the core) or ``generic``.
    """

    def __init__(self, plan: MovePlan, index: int, shape: Shape) -> None:
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
            q = max(r for r in range(C.NUM_RANKS) if (kicker >> (C.BITS * r)) & C.MASK)
            self.single.setdefault(key, [NO_READING] * C.NUM_RANKS)[q] = pos
            return
        self.multi.setdefault(key, {})[kicker] = pos
        if groups == 2:  # also by the pair of kicker ranks (a triangle: see _cell)
            u = self.kick.unit
            held = [(r, (kicker >> (C.BITS * r)) & C.MASK) for r in range(C.NUM_RANKS)
                    if (kicker >> (C.BITS * r)) & C.MASK]
            if len(held) == 1 and held[0][1] == 2 * u:
                cell = _cell(held[0][0], held[0][0])
            elif len(held) == 2 and held[0][1] == held[1][1] == u:
                cell = _cell(held[0][0], held[1][0])
            else:  # pragma: no cover - kickers are whole groups
                self.unpaired.add(key)
                return
            triangle, valid = self.pairs.get(key) or ([NO_READING] * _TRIANGLE, 0)
            triangle[cell] = pos
            self.pairs[key] = (triangle, valid | (1 << (8 * cell)))

    def finish(self) -> None:
        """Freeze the filed readings into the per-count, per-rank rows the generators use."""
        self.plain_t = {k: tuple(v) for k, v in self.plain.items()}
        self.pairs = {k: (tuple(sq), valid) for k, (sq, valid) in self.pairs.items()}
        self.by_count: dict[int, tuple[Any, ...]] = {}
        self.kgroups = self.kick.groups(1) if self.kick else 0
        self.kick_table = _AT_LEAST[self.kick.unit] if self.kick else b""
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

    def _answer_group_single(self, raw: bytes, out: list[int], size: int, length: int, min_rank: int) -> None:
        c = size - self.kcards
        row = self.by_count.get(c)
        if row is not None and length == 1:
            lo = min_rank + 1
            out.extend(_chain.from_iterable(map(_compress, _compress(row[lo:], raw.translate(_AT_LEAST[c])[lo:]),
                                                _repeat(raw.translate(self.kick_table)))))

    def _answer_chain0(self, raw: bytes, out: list[int], size: int, length: int, min_rank: int) -> None:
        shape = self.shape
        if length < shape.min_len or length > shape.max_len or self.unit * length != size:
            return
        runs = self.runs
        mask = raw.translate(_AT_LEAST[self.unit])[self.lo:self.hi1]
        got = runs.memo.get(mask)
        if got is None:
            got = runs.memo[mask] = runs.compute(mask)
        plain = self.plain_t
        for a, b in got:
            for top in range(max(a + length - 1, min_rank + 1), b + 1):
                out.extend(plain.get((top - length + 1, top), ()))

    # ---------------------------------------------------------------- kicker pools
    def pool(self, hand: _Hand, groups: int) -> tuple[list[int], list[int]]:
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
            u = self.kick.unit  # type: ignore[union-attr]
            counts = hand.counts if u == 1 else [c // u for c in hand.counts]
            mult = list(map(min, counts, caps))
            got = hand.pools[pid] = (list(_chain.from_iterable(map(_repeat, _WEIGHTS[u], mult))),
                                     list(_accumulate(mult, initial=0)))
        return got

    def kicked(self, hand: _Hand, key: Any, start: int, top: int, groups: int, out: list[int]) -> None:
        """Add the readings of the core ``key`` (ranks start..top) whose kickers the hand holds."""
        if groups == 1:
            arr = self.single.get(key)
            if arr is not None:
                out.extend(_compress(arr, hand.at_least(self.kick.unit)))  # type: ignore[union-attr]
            return
        if groups == 2 and key not in self.unpaired:
            got = self.pairs.get(key)
            if got is not None:
                triangle, valid = got
                select = (hand.pair_select(self.kick.unit) & valid).to_bytes(_TRIANGLE, "little")  # type: ignore[union-attr]
                out.extend(_compress(triangle, select))
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

    # ---------------------------------------------------------------- generators
    def lead(self, hand: _Hand, out: list[int]) -> None:
        """Add every reading of this shape inside the hand."""
        kind = self.kind
        if kind == "group0":
            for c, row in self.by_count.items():
                out.extend(_chain.from_iterable(_compress(row, hand.at_least(c))))
        elif kind == "groupk":
            if self.kgroups == 1:  # one kicker group: the core's readings by kicker rank
                kmask = hand.at_least(self.kick.unit)  # type: ignore[union-attr]
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
                got = self.memo[mask] = self._chain_plain(self.runs.compute(mask))
            out.extend(got)
        elif kind == "chaink":
            mask = hand.at_least(self.unit)[self.lo:self.hi1]
            got = self.memo.get(mask)
            if got is None:
                got = self.memo[mask] = self._chain_cores(self.runs.compute(mask))
            if got is not _NO_CORES:
                ones, twos, more = got
                u = self.kick.unit  # type: ignore[union-attr]
                if ones:
                    out.extend(_chain.from_iterable(map(_compress, ones, _repeat(hand.at_least(u)))))
                if twos:
                    select = hand.pair_select(u)
                    for triangle, valid in twos:
                        out.extend(_compress(triangle, (select & valid).to_bytes(_TRIANGLE, "little")))
                total = hand.total
                for key, start, top, groups, size in more:
                    if size <= total:
                        self.kicked(hand, key, start, top, groups, out)
        elif kind == "literal0":
            self._literal(hand, out, -1)
        else:
            self._generic(hand, out, max_size=hand.total)

    def answer(self, hand: _Hand, out: list[int], size: int, length: int, min_rank: int) -> None:
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
                kmask = hand.at_least(kick.unit)  # type: ignore[union-attr]
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
    def _literal(self, hand: _Hand, out: list[int], min_rank: int) -> None:
        if self.literal_rank <= min_rank:
            return
        counts = hand.counts
        for r, c in self.literal_items:
            if counts[r] < c:
                return
        out.extend(self.plain_t.get(0, ()))

    def _generic(self, hand: _Hand, out: list[int], **kw: Any) -> None:
        found: dict[tuple[int, int, int, int], None] = {}

        def emit(packed: int, combo: int, rank: int, length: int) -> None:
            found[(packed, combo, rank, length)] = None

        self.plan.rules.enumerate(list(hand.counts), emit, shapes=[self.shape], **kw)
        idents = self.idents
        out.extend(idents[i] for i in found if i in idents)

    def _chain_plain(self, runs: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
        s_, plain = self.shape, self.plain_t
        got: list[int] = []
        for a, b in runs:
            for length in range(s_.min_len, min(s_.max_len, b - a + 1) + 1):
                for start in range(a, b - length + 2):
                    got.extend(plain.get((start, start + length - 1), ()))
        return tuple(sorted(got))

    def _chain_cores(self, runs: tuple[tuple[int, int], ...]) -> Any:
        """The cores inside these runs that have readings, by how their kickers are
        found: (readings by kicker rank for one kicker group, (triangle, valid) for
        two, (key, start, top, groups, size) for more); ``_NO_CORES`` for none."""
        s_, kick = self.shape, self.kick
        assert kick is not None
        ones: list[tuple[int, ...]] = []
        twos: list[tuple[tuple[int, ...], int]] = []
        more: list[tuple[Any, int, int, int, int]] = []
        for a, b in runs:
            for length in range(s_.min_len, min(s_.max_len, b - a + 1) + 1):
                groups = kick.groups(length)
                size = self.unit * length + kick.unit * groups
                for start in range(a, b - length + 2):
                    key = (start, start + length - 1)
                    if groups == 1 and key in self.single:
                        ones.append(tuple(self.single[key]))
                    elif groups == 2 and key in self.pairs and key not in self.unpaired:
                        twos.append(self.pairs[key])
                    elif key in self.single or key in self.multi:
                        more.append((key, start, start + length - 1, groups, size))
        return (tuple(ones), tuple(twos), tuple(more)) if ones or twos or more else _NO_CORES


class MovePlan:
    """Lists the readings of the universe inside a hand, as positions.

    Built from the universe's readings: ``readings`` yields ``(position, ident, shape)``
    for each, ``ident`` being ``(packed, combo, rank, length)`` and ``shape`` the index
    in ``rules.shapes`` of the (first) shape that produces it. Positions are whatever
    order the caller wants plays listed in; the methods return lists of positions,
    possibly holding :data:`NO_READING` placeholders, each real position once.
    Valid only for hands no larger than the universe's plays (``rules.max_hand``).
    """

    def __init__(self, rules: Rules, readings: Iterable[tuple[int, tuple[int, int, int, int], int]]) -> None:
        self.rules = rules
        self._pool_ids: dict[tuple[int, tuple[int, ...]], int] = {}
        self._recipes: dict[tuple[int, int, int, int, bool], tuple[tuple[Any, ...], ...]] = {}
        self._answerers: dict[tuple[int, int, int, int], Callable[[bytes], list[int]]] = {}
        self._runs: dict[tuple[int, int, int], _Runs] = {}
        self.shapes = [_FastShape(self, i, s) for i, s in enumerate(rules.shapes)]
        for pos, ident, shape in readings:
            self.shapes[shape].add(pos, ident)
        for fs in self.shapes:
            fs.finish()
        self.by_combo: dict[int, list[_FastShape]] = {}
        for fs in self.shapes:
            self.by_combo.setdefault(fs.shape.combo, []).append(fs)

        self.bombs = [fs for fs in self.shapes if rules.combos[fs.shape.combo].tier >= 0]
        # the recipe steps (see recipe()) listing every bomb inside a hand
        self.bomb_ops: list[tuple[Any, ...]] = []
        rows = tuple((flat, _AT_LEAST[c]) for fs in self.bombs if fs.kind == "group0"
                     for c, flat in fs.flat_by_count.items())
        if rows:
            self.bomb_ops.append((6, _AT_LEAST[min(fs.unit for fs in self.bombs if fs.kind == "group0")], rows,
                                  None, None))
        for fs in self.bombs:
            if fs.kind == "literal0":
                items = fs.literal_items
                ranks = [r for r, _ in items]
                if len({n for _, n in items}) == 1 and ranks == list(range(ranks[0], ranks[-1] + 1)):
                    # equal counts of consecutive ranks: one mask slice to compare
                    self.bomb_ops.append((7, (ranks[0], ranks[-1] + 1), _AT_LEAST[items[0][1]],
                                          b"\x01" * len(items), fs.plain_t.get(0, ())))
                else:
                    self.bomb_ops.append((3, items, fs.plain_t.get(0, ()), None, None))
            elif fs.kind != "group0":
                self.bomb_ops.append((5, fs, None, None, None))
        # What a lead runs: shape by shape in the order of their smallest plays, bombs
        # last (the positions then come out in long sorted runs, which sorting merges
        # quickly), as (code, cards of one rank a core needs, a, b):
        #   0  kickerless groups: a = readings by count then rank (flat, NO_READING where
        #      none), b = the counts (one rank mask each, joined)
        #   1  groups with one kicker group: a = (count, kicker unit), b = by core rank, the
        #      readings by kicker rank
        #   2  kickerless chains: a = (lo, hi + 1, memo by rank mask), b = the shape
        #   3  literal cards: a = ((rank, count), ...), b = the readings
        #   4  anything else: a = the shape
        #   5  chains with kickers: a = (lo, hi + 1, memo by rank mask), b = the shape
        #   6  groups with two kicker groups (triangle form): a = (count, kicker unit),
        #      b = each rank's (triangle, valid) as a core of that count
        self.lead_shapes = sorted(self.shapes, key=lambda fs: (rules.combos[fs.shape.combo].tier,
                                                               fs.shape.min_size()))
        self.steps: list[tuple[int, int, Any, Any]] = []
        units = {1}
        for fs in self.lead_shapes:
            units.add(fs.unit)
            if fs.kick is not None:
                units.add(fs.kick.unit)
            last = self.steps[-1] if self.steps else None
            if fs.kind == "group0":
                bomb = rules.combos[fs.shape.combo].tier >= 0
                for c, flat in fs.flat_by_count.items():
                    units.add(c)
                    if last is not None and last[0] == 0 and not bomb and last[3][-1] < c:
                        last = self.steps[-1] = (0, min(last[1], c), last[2] + flat, last[3] + (c,))
                    else:
                        last = (0, c, flat, (c,))
                        self.steps.append(last)
            elif fs.kind == "groupk" and fs.kgroups == 1:
                for c, row in fs.by_count.items():
                    units.add(c)
                    ku = fs.kick.unit  # type: ignore[union-attr]
                    if last is not None and last[0] == 1 and last[1] == c:
                        # same cores: one step, each core's readings by kicker rank laid end to end
                        none = (NO_READING,) * C.NUM_RANKS
                        merged = tuple(x + y if x and y else (x + none if x else (none * (len(last[2][1])) + y if y else ()))
                                       for x, y in zip(last[3], row))
                        last = self.steps[-1] = (1, c, (c, last[2][1] + (ku,)), merged)
                    else:
                        last = (1, c, (c, (ku,)), row)
                        self.steps.append(last)
            elif fs.kind == "chain0":
                self.steps.append((2, fs.unit, (fs.lo, fs.hi1, fs.memo), fs))
            elif fs.kind == "literal0":
                need = max(c for _, c in fs.literal_items)
                units.add(need)
                self.steps.append((3, need, fs.literal_items, fs.plain_t.get(0, ())))
            elif fs.kind == "chaink":
                self.steps.append((5, fs.unit, (fs.lo, fs.hi1, fs.memo), fs))
                units.update(self._pair_units(fs.kick.unit))  # type: ignore[union-attr]
            elif fs.pair_rows:
                for c, rows in fs.pair_rows.items():
                    units.add(c)
                    self.steps.append((6, c, (c, fs.kick.unit), rows))  # type: ignore[union-attr]
                units.update(self._pair_units(fs.kick.unit))  # type: ignore[union-attr]
            else:
                self.steps.append((4, fs.unit, fs, None))
        self.step_units = [(b if code == 0 else a[1] if code == 1 else None) for code, _, a, b in self.steps]
        # joined masks: step 0 joins the masks of its counts, step 1 those of its kicker
        # units: one unit stays an int, several become an itemgetter over the masks
        steps: list[tuple[int, int, Any, Any]] = []
        for code, need, a, b in self.steps:
            if code == 0:
                b = b[0] if len(b) == 1 else _getter(b)
            elif code == 1:
                a = (a[0], a[1][0] if len(a[1]) == 1 else _getter(a[1]))
            steps.append((code, need, a, b))
        self.steps = steps
        top_unit = max(u for u in units if u <= C.MASK)
        self.mask_tables = [_AT_LEAST[u] for u in range(1, top_unit + 1)]
        self.top_unit = top_unit
        self.mask_pad = [None] * (C.MASK - top_unit)
        self.lead = self._compile_lead()  # type: ignore[method-assign]

    @staticmethod
    def _pair_units(unit: int) -> tuple[int, ...]:
        """The rank masks a triangle of kicker pairs of ``unit`` cards is selected by."""
        return (unit, 2 * unit) if 2 * unit <= C.MASK else (unit,)

    def pool_id(self, unit: int, caps: tuple[int, ...]) -> int:
        """A small id for a kind of kicker pool (per hand, pools are cached by id)."""
        return self._pool_ids.setdefault((unit, caps), len(self._pool_ids))

    def runs(self, lo: int, hi: int, unit: int) -> _Runs:
        key = (lo, hi, unit)
        got = self._runs.get(key)
        if got is None:
            got = self._runs[key] = _Runs(lo, hi, unit, len(self._runs))
        return got

    def _compile_lead(self) -> Callable[[bytes], list[int]]:
        """The lead of this plan as code written out for it: the steps in order, each
        step's data bound as a constant, the rank masks as locals, and no loop over
        steps or dispatch on step codes (those cost about a fifth of a lead in a
        typical spec). The source is kept as ``lead.source``."""
        top_unit = self.top_unit
        env: dict[str, Any] = {"_compress": _compress, "_chain_it": _chain.from_iterable, "_repeat": _repeat,
                               "_Hand": _Hand, "_T": self.mask_tables, "_PAD": self.mask_pad,
                               "_NO_CORES": _NO_CORES, "_pairs": _pair_selector, "_Z": _ZEROS[C.NUM_RANKS]}
        all_masks = ", ".join(f"m{u}" for u in range(1, top_unit + 1))
        src = ["def lead(raw):"]
        src += [f"    m{u} = raw.translate(_T[{u - 1}])" for u in range(1, top_unit + 1)]
        tops = " else ".join(f"{u} if 1 in m{u}" for u in range(top_unit, 1, -1))
        src.append(f"    top = {tops + ' else 1' if tops else '1'}")
        src += ["    out = []", "    hand = None"]
        # the hand's triangle of kicker pairs, per kicker unit, made on first use
        pair_units = sorted({a[1] for code, _, a, _ in self.steps if code == 6}
                            | {b.kick.unit for code, _, _, b in self.steps if code == 5})
        src += [f"    s{u} = None" for u in pair_units]

        def joined(units: Any) -> str:
            units = (units,) if isinstance(units, int) else tuple(units)
            return " + ".join(f"m{u}" for u in units)

        def pairs(unit: int, body: list[str], triangles: str) -> None:
            two = f"m{2 * unit}" if 2 * unit <= C.MASK else "_Z"
            body += [f"if s{unit} is None:",
                     f"    s{unit} = _pairs(m{unit}, {two})",
                     f"for triangle, valid in {triangles}:",
                     f"    out.extend(_compress(triangle, (s{unit} & valid).to_bytes({_TRIANGLE}, 'little')))"]

        make_hand = f"hand = _Hand(raw, [None, {all_masks}] + _PAD)"
        for i, ((code, need, a, b), units) in enumerate(zip(self.steps, self.step_units)):
            body: list[str] = []
            if code == 0:
                env[f"A{i}"] = a
                body.append(f"out.extend(_compress(A{i}, {joined(units)}))")
            elif code == 1:
                env[f"B{i}"] = b
                body.append(f"out.extend(_chain_it(map(_compress, _compress(B{i}, m{a[0]}), _repeat({joined(units)}))))")
            elif code in (2, 5):
                env[f"MEMO{i}"], env[f"FS{i}"] = a[2], b
                fill = "_chain_plain" if code == 2 else "_chain_cores"
                body += [f"mask = m{need}[{a[0]}:{a[1]}]",
                         f"got = MEMO{i}.get(mask)",
                         "if got is None:",
                         f"    got = MEMO{i}[mask] = FS{i}.{fill}(FS{i}.runs.compute(mask))"]
                if code == 2:
                    body.append("out.extend(got)")
                else:
                    ku = b.kick.unit
                    inner = ["ones, twos, more = got",
                             "if ones:",
                             f"    out.extend(_chain_it(map(_compress, ones, _repeat(m{ku}))))",
                             "if twos:"]
                    twos: list[str] = []
                    pairs(ku, twos, "twos")
                    inner += ["    " + line for line in twos]
                    inner += ["if more:",
                              "    if hand is None:",
                              f"        {make_hand}",
                              "    total = hand.total",
                              "    for key, start, stop, groups, size in more:",
                              "        if size <= total:",
                              f"            FS{i}.kicked(hand, key, start, stop, groups, out)"]
                    body.append("if got is not _NO_CORES:")
                    body += ["    " + line for line in inner]
            elif code == 3:
                env[f"R{i}"] = b
                test = " and ".join(f"raw[{r}] >= {c}" for r, c in a)
                body.append(f"if {test}:")
                body.append(f"    out.extend(R{i})")
            elif code == 6:
                env[f"P{i}"] = b
                pairs(a[1], body, f"_compress(P{i}, m{a[0]})")
            else:
                env[f"FS{i}"] = a
                body += ["if hand is None:", f"    {make_hand}", f"FS{i}.lead(hand, out)"]
            if need > 1:
                src.append(f"    if top >= {need}:")
                src += ["        " + line for line in body]
            else:
                src += ["    " + line for line in body]
        src.append("    return out")
        code_text = "\n".join(src)
        exec(compile(code_text, f"<ddzrules lead: {self.rules.name}>", "exec"), env)  # noqa: S102
        lead = env["lead"]
        lead.__doc__ = "Every reading inside the hand (``raw``: its count of each rank, a byte each)."
        lead.source = code_text  # type: ignore[attr-defined]
        return lead  # type: ignore[no-any-return]

    def answer(self, raw: bytes, combo: int, size: int, length: int, min_rank: int,
               bombs: bool = True) -> list[int]:
        """The readings of ``combo`` inside the hand with ``size`` cards, chain length
        ``length`` and rank above ``min_rank``; and every bomb inside it if ``bombs``."""
        return self.run(raw, self.recipe(combo, size, length, min_rank, bombs))

    def bomb_plays(self, raw: bytes) -> list[int]:
        """The bombs inside the hand."""
        return self.run(raw, tuple(self.bomb_ops))

    def recipe(self, combo: int, size: int, length: int, min_rank: int,
               bombs: bool = True) -> tuple[tuple[Any, ...], ...]:
        """What :meth:`run` does to answer a play (memoised): the steps for each shape of
        the combo, then (if ``bombs``) those for the bombs. A step is (code, a, b, c, d):
        0: kickerless groups, a = readings by rank from rank c on, b = mask table;
        1: groups with one kicker group, a = by core rank from rank c on, the readings
        by kicker rank, b = core mask table, d = kicker mask table; 2: kickerless
        chains, a = the shape, b = the arguments of its answer; 3: literal cards,
        a = ((rank, count), ...), b = the readings; 4: anything else, a = the shape,
        b = the arguments of its answer; 5: a = a bomb shape listed whole; 6: kickerless
        group bombs, a = mask table of the smallest count, b = ((readings by rank, mask
        table), ...); 7: literal cards, equal counts of consecutive ranks a = (first,
        past last), b = mask table, c = the mask they need, d = the readings."""
        key = (combo, size, length, min_rank, bombs)
        got = self._recipes.get(key)
        if got is None:
            ops: list[tuple[Any, ...]] = []
            lo = min_rank + 1
            for fs in self.by_combo.get(combo, ()):
                if fs.kind == "group0":
                    row = fs.flat_by_count.get(size)
                    if row is not None and length == 1:
                        ops.append((0, row[lo:], _AT_LEAST[size], lo, None))
                elif fs.kind == "groupk" and fs.kgroups == 1:
                    c = size - fs.kcards
                    row = fs.by_count.get(c)
                    if row is not None and length == 1:
                        ops.append((1, row[lo:], _AT_LEAST[c], lo, fs.kick_table))
                elif fs.kind == "chain0":
                    ops.append((2, fs, (size, length, min_rank), None, None))
                else:
                    ops.append((4, fs, (size, length, min_rank), None, None))
            if bombs:
                ops.extend(self.bomb_ops)
            got = self._recipes[key] = tuple(ops)
        return got

    def answerer(self, combo: int, size: int, length: int, min_rank: int) -> Callable[[bytes], list[int]]:
        """A function of the hand's counts listing the answers :meth:`answer` lists, bombs
        included (memoised). For the usual recipes (one kickerless group or one group
        with one kicker group, then kickerless group bombs and bombs of literal cards
        of one count on consecutive ranks) it is a closure with the steps written out;
        otherwise it runs the recipe."""
        key = (combo, size, length, min_rank)
        got = self._answerers.get(key)
        if got is None:
            got = self._answerers[key] = self._make_answerer(self.recipe(combo, size, length, min_rank))
        return got

    def _make_answerer(self, recipe: tuple[tuple[Any, ...], ...]) -> Callable[[bytes], list[int]]:
        nb = len(self.bomb_ops)
        family, bombs = recipe[:len(recipe) - nb], recipe[len(recipe) - nb:]
        group_bombs = [op for op in bombs if op[0] == 6]
        literals = tuple((op[1][0], op[1][1], op[2], op[3], op[4]) for op in bombs if op[0] == 7)
        if len(family) != 1 or family[0][0] not in (0, 1) or len(group_bombs) > 1 \
                or len(group_bombs) + len(literals) != nb:
            return lambda raw: self.run(raw, recipe)
        code, a, b, c, d = family[0]
        bomb_check, bomb_rows = (group_bombs[0][1], group_bombs[0][2]) if group_bombs else (None, ())
        compress, chain, repeat = _compress, _chain.from_iterable, _repeat
        if code == 0:
            def answer(raw: bytes) -> list[int]:
                out = list(compress(a, raw.translate(b)[c:]))
                if bomb_check is not None and 1 in raw.translate(bomb_check):
                    for flat, table in bomb_rows:
                        out.extend(compress(flat, raw.translate(table)))
                for lo, hi, table, need, readings in literals:
                    if raw.translate(table)[lo:hi] == need:
                        out.extend(readings)
                return out
        else:
            def answer(raw: bytes) -> list[int]:
                out = list(chain(map(compress, compress(a, raw.translate(b)[c:]), repeat(raw.translate(d)))))
                if bomb_check is not None and 1 in raw.translate(bomb_check):
                    for flat, table in bomb_rows:
                        out.extend(compress(flat, raw.translate(table)))
                for lo, hi, table, need, readings in literals:
                    if raw.translate(table)[lo:hi] == need:
                        out.extend(readings)
                return out
        return answer

    def run(self, raw: bytes, recipe: tuple[tuple[Any, ...], ...]) -> list[int]:
        """The readings a recipe (see :meth:`recipe`) finds in the hand."""
        out: list[int] = []
        hand = None
        for code, a, b, c, d in recipe:
            if code == 0:
                out.extend(_compress(a, raw.translate(b)[c:]))
            elif code == 1:
                out.extend(_chain.from_iterable(map(_compress, _compress(a, raw.translate(b)[c:]),
                                                    _repeat(raw.translate(d)))))
            elif code == 6:  # kickerless group bombs, once some rank holds enough cards
                if 1 in raw.translate(a):
                    for flat, table in b:
                        out.extend(_compress(flat, raw.translate(table)))
            elif code == 7:
                if raw.translate(b)[a[0]:a[1]] == c:
                    out.extend(d)
            elif code == 3:
                for r, n in a:
                    if raw[r] < n:
                        break
                else:
                    out.extend(b)
            elif code == 2:
                a._answer_chain0(raw, out, *b)
            else:
                if hand is None:
                    hand = _Hand(raw)
                if code == 4:
                    a.answer(hand, out, *b)
                else:
                    a.lead(hand, out)
        return out

