"""Spec + patterns → matcher tables.

Each alternative of each combo compiles to a :class:`Shape`: its core (a group,
a chain or literal cards) with concrete rank sets and length limits, and its
kickers with their constraints. Shapes enumerate the plays a multiset of cards
allows; the same enumeration serves three purposes:

* ``legal_moves``: the plays inside a hand (filtered by what they must beat);
* the universe table: the plays inside the full deck, up to the largest hand,
  indexed by packed count for classification and counted for the census;
* classification without a table: the plays that use exactly the given cards.

Nothing here knows a variant: two decks, bomb sizes, chains of fours are data.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from dataclasses import dataclass
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
from .errors import Problem, SpecError
from .patterns import (
    Chain,
    Constraint,
    Group,
    Kicker,
    Literal,
    PatternSyntaxError,
    RankBound,
    parse_pattern,
)
from .spec import Spec, _limit

#: The kicker constraints a ``where`` clause may state, and whether they take ``<= N``.
CONSTRAINTS: dict[str, tuple[bool, str]] = {
    "distinct": (False, "kicker groups have pairwise different ranks"),
    "overlap": (False, "kickers may share a rank with the core"),
    "jokers": (True, "at most N jokers among the kickers (jokers<=1: never both jokers)"),
    "per_rank": (True, "at most N kicker cards of any one rank (per_rank<=3: no four; <=2: no trio)"),
    "adjacent": (True, ("at most N kicker cards of a rank next to the chain (adjacent<=2: no trio "
                        "that would extend a plane)")),
    "wilds": (True, "how many wild cards (癞子) the play holds: wilds>=1 (soft bomb), wilds<=0 (hard)"),
    "naturals": (True, "how many natural (not wild) cards the play holds: naturals<=0 (pure wild bomb)"),
}
#: constraints on the whole play that may also be stated as a lower bound (>=)
PLAY_CONSTRAINTS = ("wilds", "naturals")
UNBOUNDED = 99
COMPARE_FIELDS = ("size", "rank", "length")


@dataclass(frozen=True)
class KickerRule:
    unit: int
    fixed: int
    per_n: int
    ranks: tuple[int, ...]

    def groups(self, length: int) -> int:
        return self.fixed + self.per_n * length


@dataclass(frozen=True)
class Shape:
    """One compiled alternative of a combo."""

    combo: int
    kind: str  # "group" | "chain" | "literal"
    unit: int  # cards per rank of a chain; for a group the smallest count
    max_count: int  # group: the largest count
    ranks: tuple[int, ...]  # group: allowed ranks; chain: allowed ranks, contiguous
    min_len: int
    max_len: int
    literal: int  # packed literal cards
    kickers: tuple[KickerRule, ...]
    distinct: bool
    overlap: bool
    jokers: int
    per_rank: int
    adjacent: int
    # how many wild cards (癞子) and natural cards the play may hold
    wilds_min: int = 0
    wilds_max: int = UNBOUNDED
    naturals_min: int = 0
    naturals_max: int = UNBOUNDED

    def signature(self) -> tuple[Any, ...]:
        return (self.kind, self.unit, self.max_count, self.ranks, self.min_len, self.max_len,
                self.literal, self.kickers, self.distinct, self.overlap, self.jokers, self.per_rank,
                self.adjacent, self.wilds_min, self.wilds_max, self.naturals_min, self.naturals_max)

    @property
    def natural(self) -> bool:
        """Whether a play of no wild cards can take this shape (a soft or pure wild
        bomb cannot): no wild card required, and the natural-card bounds admit plays
        of the shape's sizes (every card of such a play is natural)."""
        return (self.wilds_min == 0 and self.naturals_max >= self.min_size()
                and self.naturals_min <= self.max_size())

    def max_size(self) -> int:
        if self.kind == "group":
            return self.max_count + self.kicker_cards(1)
        return self.core_size(self.max_len) + self.kicker_cards(self.max_len)

    def wild_ok(self, wilds: int, naturals: int) -> bool:
        return (self.wilds_min <= wilds <= self.wilds_max
                and self.naturals_min <= naturals <= self.naturals_max)

    def kicker_cards(self, length: int) -> int:
        return sum(k.unit * k.groups(length) for k in self.kickers)

    def core_size(self, length: int, count: int | None = None) -> int:
        if self.kind == "literal":
            return C.size_of(self.literal)
        if self.kind == "group":
            return count if count is not None else self.unit
        return self.unit * length

    def min_size(self) -> int:
        return self.core_size(self.min_len) + self.kicker_cards(self.min_len)


@dataclass(frozen=True)
class ComboInfo:
    name: str
    zh: str
    description: str
    pattern: str
    tier: int  # bomb class, -1 for a play that is not a bomb
    compare: tuple[str, ...]

    def key(self, size: int, rank: int, length: int) -> tuple[int, ...]:
        """A play's comparison key: among bombs the class, then the ``compare`` fields;
        other plays compare by rank (within one combo, size and length)."""
        if self.tier < 0:
            return (rank,)
        fields = {"size": size, "rank": rank, "length": length}
        return (self.tier, *(fields[f] for f in self.compare))


@dataclass
class Rules:
    """The compiled form of a spec: deck, combos, shapes. Pure data plus enumeration."""

    name: str
    content_hash: str
    deck: list[int]
    max_hand: int
    combos: list[ComboInfo]
    shapes: list[Shape]
    #: ranks a wild card may stand for (empty: the spec has no wildcards)
    stand_for: tuple[int, ...] = ()

    @property
    def natural_shapes(self) -> list[Shape]:
        return [s for s in self.shapes if s.natural]

    # ------------------------------------------------------------------ enumeration
    def enumerate(self, avail: list[int], emit: Callable[[int, int, int, int], None],
                  shapes: list[Shape] | None = None, max_size: int | None = None,
                  exact_size: int | None = None, min_rank: int = -1, length: int = 0) -> None:
        """Call ``emit(packed, combo, rank, length)`` for every play inside ``avail``.

        ``max_size``/``exact_size`` bound the play's card count; ``min_rank`` keeps
        only cores ranked above it; ``length`` (when non-zero) keeps only that chain
        length. The same play may be emitted more than once (different cores or
        kickers giving the same cards); callers deduplicate.
        """
        cap = exact_size if exact_size is not None else (max_size if max_size is not None else 1 << 30)
        for shape in shapes if shapes is not None else self.shapes:
            if not shape.natural:  # needs wild cards: see ddzrules.wild
                continue
            if shape.kind == "chain":
                _chains(shape, avail, emit, cap, exact_size, min_rank, length)
            elif shape.kind == "group":
                if length and length != 1:
                    continue
                _groups(shape, avail, emit, cap, exact_size, min_rank)
            else:
                if length and length != 1:
                    continue
                _literal(shape, avail, emit, cap, exact_size, min_rank)


def _sub_core(avail: list[int], core: list[tuple[int, int]], overlap: bool) -> list[int]:
    rem = list(avail)
    for r, c in core:
        rem[r] = rem[r] - c if overlap else 0
    return rem


def _finish(shape: Shape, avail: list[int], core: list[tuple[int, int]], core_packed: int,
            rank: int, length: int, emit: Callable[[int, int, int, int], None],
            exact_size: int | None, adjacent_ranks: tuple[int, ...]) -> None:
    if not shape.kickers:
        emit(core_packed, shape.combo, rank, length)
        return
    rem = _sub_core(avail, core, shape.overlap)
    core_ranks = {r for r, _ in core}
    used = [0] * C.NUM_RANKS
    if shape.overlap:  # per-rank limits count kicker cards only; the core is separate
        pass
    _kickers(shape, shape.kickers, 0, length, rem, used, 0, core_packed, rank, emit, adjacent_ranks,
             core_ranks)


def _kickers(shape: Shape, rules: tuple[KickerRule, ...], idx: int, length: int, rem: list[int],
             used: list[int], jokers_used: int, packed: int, rank: int,
             emit: Callable[[int, int, int, int], None], adjacent_ranks: tuple[int, ...],
             core_ranks: set[int]) -> None:
    if idx == len(rules):
        emit(packed, shape.combo, rank, length)
        return
    rule = rules[idx]
    need = rule.groups(length)
    unit = rule.unit
    # candidate ranks and how many groups each can give
    cands: list[tuple[int, int]] = []
    for r in rule.ranks:
        avail_r = rem[r] - used[r]
        if avail_r < unit:
            continue
        if shape.distinct and used[r]:
            continue
        cap = avail_r // unit
        if shape.per_rank < 99:
            cap = min(cap, (shape.per_rank - used[r]) // unit)
        if shape.adjacent < 99 and r in adjacent_ranks:
            cap = min(cap, (shape.adjacent - used[r]) // unit)
        if shape.distinct:
            cap = min(cap, 1)
        if cap > 0:
            cands.append((r, cap))
    _fill(shape, rules, idx, length, rem, used, jokers_used, packed, rank, emit, adjacent_ranks,
          core_ranks, cands, 0, need, unit)


def _fill(shape: Shape, rules: tuple[KickerRule, ...], idx: int, length: int, rem: list[int],
          used: list[int], jokers_used: int, packed: int, rank: int,
          emit: Callable[[int, int, int, int], None], adjacent_ranks: tuple[int, ...],
          core_ranks: set[int], cands: list[tuple[int, int]], start: int, need: int, unit: int) -> None:
    if need == 0:
        _kickers(shape, rules, idx + 1, length, rem, used, jokers_used, packed, rank, emit, adjacent_ranks,
                 core_ranks)
        return
    for i in range(start, len(cands)):
        r, cap = cands[i]
        is_joker = r >= C.SMALL_JOKER
        shift = C.BITS * r
        for times in range(1, min(cap, need) + 1):
            cards = times * unit
            if is_joker and jokers_used + cards > shape.jokers:
                break
            used[r] += cards
            _fill(shape, rules, idx, length, rem, used, jokers_used + (cards if is_joker else 0),
                  packed + (cards << shift), rank, emit, adjacent_ranks, core_ranks, cands, i + 1,
                  need - times, unit)
            used[r] -= cards


def _groups(shape: Shape, avail: list[int], emit: Callable[[int, int, int, int], None], cap: int,
            exact_size: int | None, min_rank: int) -> None:
    for r in shape.ranks:
        if r <= min_rank:
            continue
        have = avail[r]
        if have < shape.unit:
            continue
        kick = shape.kicker_cards(1)
        for count in range(shape.unit, min(have, shape.max_count) + 1):
            size = count + kick
            if size > cap or (exact_size is not None and size != exact_size):
                continue
            _finish(shape, avail, [(r, count)], count << (C.BITS * r), r, 1, emit, exact_size, ())


def _chains(shape: Shape, avail: list[int], emit: Callable[[int, int, int, int], None], cap: int,
            exact_size: int | None, min_rank: int, only_length: int) -> None:
    unit = shape.unit
    ranks = shape.ranks
    lo, hi = ranks[0], ranks[-1]
    per_unit = unit + sum(k.unit * k.per_n for k in shape.kickers)
    fixed = sum(k.unit * k.fixed for k in shape.kickers)
    for start in range(lo, hi + 1):
        if avail[start] < unit:
            continue
        packed = 0
        core: list[tuple[int, int]] = []
        for top in range(start, hi + 1):
            if avail[top] < unit:
                break
            packed += unit << (C.BITS * top)
            core.append((top, unit))
            length = top - start + 1
            if length > shape.max_len:
                break
            size = per_unit * length + fixed
            if size > cap:
                break
            if length < shape.min_len or top <= min_rank:
                continue
            if only_length and length != only_length:
                continue
            if exact_size is not None and size != exact_size:
                continue
            adjacent = tuple(r for r in (start - 1, top + 1) if lo <= r <= hi)
            _finish(shape, avail, list(core), packed, top, length, emit, exact_size, adjacent)


def _literal(shape: Shape, avail: list[int], emit: Callable[[int, int, int, int], None], cap: int,
             exact_size: int | None, min_rank: int) -> None:
    counts = C.unpack(shape.literal)
    if any(c > avail[r] for r, c in enumerate(counts)):
        return
    size = sum(counts)
    if size > cap or (exact_size is not None and size != exact_size):
        return
    rank = max(r for r, c in enumerate(counts) if c)
    if rank <= min_rank:
        return
    core = [(r, c) for r, c in enumerate(counts) if c]
    _finish(shape, avail, core, shape.literal, rank, 1, emit, exact_size, ())


# ====================================================================== cost bounds
#
# A pattern compiles to a few numbers, but what it enumerates can explode: nineteen
# kicker terms of one single each make 14^19 kicker choices per core, and the first
# call that builds the universe would never return. So before anything is enumerated,
# each shape gets an upper bound on the work of enumerating it over the whole deck
# (every later enumeration, of a hand or of given cards, walks a part of that tree),
# and a combo above the limit is refused where its pattern is written.
#
# The bound counts, per core, the kicker choices of each kicker term as a polynomial
# in (groups, wild cards): per rank, the ways it can give t groups with w of their
# cards wild; without ``overlap`` the ranks of the core give none. Constraints that only
# remove choices (adjacent, distinct across terms, the jokers' total, the wild pool
# shared between terms beyond the polynomial's) are left out, so the true count is
# never larger. Partial choices (the walk's inner steps) are counted too.

#: default of the largest enumeration a spec may need, in steps of the walk over the whole
#: deck without wild cards (all combos together); ``DDZRULES_MAX_ENUMERATION`` raises it.
#: Building the universe table costs about 30 µs a step (one slow core), so the limit
#: keeps a first call under half a minute; the bundled specs need at most 84,000.
DEFAULT_MAX_ENUMERATION = 1_000_000
ENUMERATION_ENV = "DDZRULES_MAX_ENUMERATION"
#: with wild cards the walk takes this many times the limit: its steps are cheaper (a
#: kicker choice filtered from a cached list) and the bound counts a wild card standing
#: for each rank apart (laizi: 4.7 million steps, its full-deck walk 1.5 s)
WILD_FACTOR = 20
#: products are capped here: beyond it the exact size no longer matters, and the numbers
#: of a hostile pattern (thousands of kicker terms) stay small to multiply
_SATURATE = 10**30


def max_enumeration() -> int:
    """The enumeration limit (``DDZRULES_MAX_ENUMERATION``, default 1,000,000); a value
    that is not a positive integer is ignored rather than trusted."""
    return _limit(ENUMERATION_ENV, DEFAULT_MAX_ENUMERATION)


_SMALLER = ("fewer kicker terms or groups, `where distinct` or `per_rank<=N`, `in LO..HI` bounds or a "
            "chain maximum make it smaller")


def _limit_note(wild: bool) -> str:
    if wild:
        return f"{WILD_FACTOR} × {ENUMERATION_ENV}, which raises it"
    return f"{ENUMERATION_ENV} raises it"


@dataclass(frozen=True)
class Cost:
    """An upper bound on enumerating one shape over the whole deck."""

    steps: int  # plays generated plus partial kicker choices: the walk's size
    plays: int  # plays generated (each reading at least once)
    cores: int  # cores (groups, chains, literals) the shape can take
    wilds: int  # the wild cards the bound allows for (0: natural cards only)

    def __add__(self, other: Cost) -> Cost:
        return Cost(_cap(self.steps + other.steps), _cap(self.plays + other.plays),
                    _cap(self.cores + other.cores), max(self.wilds, other.wilds))


def _cap(n: int) -> int:
    return min(_SATURATE, n)


def show_count(n: int) -> str:
    """A count for a message: exact below a billion, else its order of magnitude."""
    if n >= _SATURATE:
        return f"more than 10^{len(str(_SATURATE)) - 1}"
    return f"{n:,}" if n < 10**9 else f"about {n:.1e}".replace("e+", "×10^")


def _conv(a: list[int], b: list[int]) -> list[int]:
    """Product of two polynomials in the wild cards used, truncated to the pool."""
    if len(a) == 1:  # no wild cards: plain numbers
        return [min(_SATURATE, a[0] * b[0])]
    out = [0] * len(a)
    for i, x in enumerate(a):
        if x:
            for j in range(len(a) - i):
                if b[j]:
                    out[i + j] += x * b[j]
    return [min(_SATURATE, v) for v in out]


def _rank_ways(shape: Shape, unit: int, have: int, spare: int, is_joker: bool,
               most_groups: int) -> tuple[tuple[int, int], ...]:
    """The ways one rank gives kicker groups: (groups, wild cards among them)."""
    most = (have + spare) // unit
    if shape.per_rank < UNBOUNDED:
        most = min(most, shape.per_rank // unit)
    if is_joker and shape.jokers < UNBOUNDED:
        most = min(most, shape.jokers // unit)
    if shape.distinct:
        most = min(most, 1)
    return tuple((t, w) for t in range(1, min(most, most_groups) + 1)
                 for w in range(max(0, t * unit - have), min(spare, t * unit) + 1))


def _times_rank(poly: list[list[int]], ways: tuple[tuple[int, int], ...]) -> list[list[int]]:
    """``poly`` (``[groups][wilds]``) times one rank's ways, truncated to its size."""
    if not ways:
        return poly
    most_groups, pool = len(poly) - 1, len(poly[0]) - 1
    grown = [row[:] for row in poly]
    for g, row in enumerate(poly):
        for w, x in enumerate(row):
            if x:
                for t, dw in ways:
                    if g + t <= most_groups and w + dw <= pool:
                        grown[g + t][w + dw] += x
    return grown  # at most 15 ranks of a few ways each: no need to cap


class _KickerTerm:
    """One kicker term's choices as ``poly[g][w]``: how many ways (at most) it takes ``g``
    groups with ``w`` wild cards, each rank on its own caps, without the ranks a core
    blocks. Ranks that give the same ways form a class (0: the largest, multiplied in
    last, so the polynomial without ``k`` of its ranks is a snapshot on the way)."""

    def __init__(self, shape: Shape, rule: KickerRule, deck: tuple[int, ...], stands: list[bool],
                 pool: int, most_groups: int) -> None:
        ways = {r: _rank_ways(shape, rule.unit, deck[r], pool if stands[r] else 0,
                              r >= C.SMALL_JOKER, most_groups) for r in rule.ranks}
        sizes: dict[tuple[tuple[int, int], ...], int] = {}
        for w in ways.values():
            sizes[w] = sizes.get(w, 0) + 1
        order = sorted(sizes, key=lambda w: -sizes[w])
        ids = {w: i for i, w in enumerate(order)}
        self.ways = [(ids[w], w) for w in ways.values()]
        self.cls = {r: ids[w] for r, w in ways.items()}
        unit = [[0] * (pool + 1) for _ in range(most_groups + 1)]
        unit[0][0] = 1
        self.unit_poly = poly = unit
        for c, w in self.ways:
            if c:
                poly = _times_rank(poly, w)
        self.snapshots = [poly]  # snapshots[k]: with k ranks of class 0
        for c, w in self.ways:
            if not c:
                poly = _times_rank(poly, w)
                self.snapshots.append(poly)
        self.memo: dict[tuple[int, ...], list[list[int]]] = {}

    def blocked(self, core_ranks: tuple[int, ...]) -> tuple[int, ...]:
        """What a core blocks: the classes of its ranks that this term could take."""
        cls = self.cls
        return tuple(sorted(cls[r] for r in core_ranks if r in cls))

    def poly(self, blocked: tuple[int, ...]) -> list[list[int]]:
        if not any(blocked):
            return self.snapshots[len(self.snapshots) - 1 - len(blocked)]
        got = self.memo.get(blocked)
        if got is None:
            left = list(blocked)
            got = self.unit_poly
            for c, w in self.ways:
                if c in left:
                    left.remove(c)
                else:
                    got = _times_rank(got, w)
            self.memo[blocked] = got
        return got


def _split_poly(have: int, spare: int, cards: int, pool: int) -> list[int]:
    """The ways ``cards`` cards of one rank split between naturals and wilds."""
    out = [0] * (pool + 1)
    for w in range(max(0, cards - have), min(spare, cards, pool) + 1):
        out[w] = 1
    return out


def shape_cost(shape: Shape, deck: list[int], max_hand: int, stand_for: tuple[int, ...] = ()) -> Cost:
    """An upper bound on the plays (and walk steps) of enumerating ``shape`` over the
    whole ``deck`` up to ``max_hand`` cards; with ``stand_for`` (a wildcard spec), with
    as many wild cards as the deck holds of a rank, each standing for those ranks."""
    if not stand_for and not shape.natural:
        return Cost(0, 0, 0, 0)
    key = (shape.signature(), tuple(deck), max_hand, tuple(stand_for))
    got = _COSTS.get(key)
    if got is None:
        if len(_COSTS) >= 1024:
            _COSTS.clear()
        got = _COSTS[key] = _shape_cost(shape, key[1], max_hand, key[3])
    return got


#: shape costs already worked out: specs share most shapes, and compiling runs often
_COSTS: dict[tuple[Any, ...], Cost] = {}


def _shape_cost(shape: Shape, deck: tuple[int, ...], max_hand: int, stand_for: tuple[int, ...]) -> Cost:
    pool = max((deck[r] for r in stand_for), default=0)
    stands = [r in stand_for for r in range(C.NUM_RANKS)]
    # the cores: their chain length, their ranks and the polynomial of their wild cards
    cores: list[tuple[int, tuple[int, ...], tuple[int, ...]]] = []
    kick = shape.kicker_cards(1)
    if shape.kind == "group":
        for r in shape.ranks:
            spare = pool if stands[r] else 0
            for count in range(shape.unit, min(shape.max_count, deck[r] + spare) + 1):
                if count + kick <= max_hand:
                    cores.append((1, (r,), tuple(_split_poly(deck[r], spare, count, pool))))
    elif shape.kind == "chain":
        ranks = shape.ranks
        for i in range(len(ranks)):
            poly = [1] + [0] * pool
            for j in range(i, len(ranks)):
                r = ranks[j]
                poly = _conv(poly, _split_poly(deck[r], pool if stands[r] else 0, shape.unit, pool))
                length = j - i + 1
                if length > shape.max_len or shape.core_size(length) + shape.kicker_cards(length) > max_hand:
                    break
                if length >= shape.min_len and any(poly):
                    cores.append((length, ranks[i:j + 1], tuple(poly)))
    else:
        cores.append((1, tuple(r for r, c in enumerate(C.unpack(shape.literal)) if c), (1,) + (0,) * pool))
    # each kicker term once, up to the most groups any core asks of it; without overlap a
    # core's ranks give no kickers (with it they still may: then nothing is blocked)
    terms = [_KickerTerm(shape, rule, deck, stands, pool, max((rule.groups(n) for n, _, _ in cores), default=0))
             for rule in shape.kickers]
    alike: dict[tuple[Any, ...], int] = {}  # cores that cost the same, counted once
    for length, ranks, core in cores:
        blocked = tuple(t.blocked(() if shape.overlap else ranks) for t in terms)
        key = (length, core, blocked)
        alike[key] = alike.get(key, 0) + 1
    steps = plays = 0
    for (length, core, blocked), times in alike.items():
        acc = list(core)
        work = sum(acc)
        for rule, term, b in zip(shape.kickers, terms, blocked):
            need = rule.groups(length)
            poly = term.poly(b)
            partial = [_cap(sum(col)) for col in zip(*poly[:need + 1])]
            work = _cap(work + sum(_conv(acc, partial)))
            acc = _conv(acc, poly[need])
        steps = _cap(steps + times * work)
        plays = _cap(plays + times * sum(acc))
    return Cost(steps, plays, len(cores), pool)


# ====================================================================== compile


class _Compiler:
    def __init__(self, spec: Spec) -> None:
        self.spec = spec
        self.problems: list[Problem] = []
        #: each compiled shape's alternative: (pattern path, line and column in the pattern)
        self.origins: dict[int, tuple[tuple[str | int, ...], tuple[int, int]]] = {}
        data = spec.data
        deck = data.get("deck", {})
        self.decks = int(deck.get("decks", 1))
        self.jokers = bool(deck.get("jokers", True))
        self.deck = self._deck(deck)
        deal = data.get("deal", {})
        self.max_hand = int(data.get("max_hand") or (deal.get("hand", 17) + deal.get("kitty", 3)))
        self.all_ranks = tuple(r for r in range(C.NUM_RANKS) if self.deck[r] > 0)
        self.chain_bound = self._default_chain_bound()
        self.stand_for = self._stand_for()

    def _deck(self, deck: dict[str, Any]) -> list[int]:
        """Per-rank counts: ``decks`` full decks (with or without jokers) less ``remove:``
        (whole ranks, then single cards; a card string is short for ``{cards: ...}``)."""
        counts = C.full_deck(self.decks, self.jokers)
        remove = deck.get("remove")
        if not remove:
            return counts
        if isinstance(remove, str):
            remove, base = {"cards": remove}, ("deck", "remove")
        else:
            base = ("deck", "remove", "cards")
        for r in set(C.parse_ranks(str(remove.get("ranks") or "").strip())):
            counts[r] = 0
        taken = [0] * len(counts)
        for r in C.parse_ranks(str(remove.get("cards") or "").strip()):
            taken[r] += 1
        for r, n in enumerate(taken):
            if n > counts[r]:
                self.error(base, f"cannot remove {n} × {C.RANKS[r]}: the deck holds {counts[r]} "
                                 f"(after removing whole ranks)")
            counts[r] = max(0, counts[r] - n)
        if not any(counts):
            self.error(("deck", "remove"), "removing these cards leaves no deck")
        return counts

    def error(self, path: tuple[str | int, ...], message: str, offset: tuple[int, int] | None = None,
              code: str = "compile", hint: str = "") -> None:
        """Collect a problem (every one is reported together); ``code`` classifies it for
        ``validate --json``."""
        problem = self.spec.problem(path, message, offset)
        self.problems.append(dataclasses.replace(problem, code=code, hint=hint))

    def _stand_for(self) -> tuple[int, ...]:
        """The ranks a wild card may stand for (癞子场: any rank but a joker)."""
        wild = self.spec.data.get("wildcards")
        if not wild:
            return ()
        text = wild.get("stand_for", "3..2")
        lo_s, hi_s = (t.strip() for t in text.split(".."))
        try:
            lo, hi = C.parse_rank(lo_s), C.parse_rank(hi_s)
        except ValueError as e:
            self.error(("wildcards", "stand_for"), str(e))
            return ()
        if lo > hi:
            self.error(("wildcards", "stand_for"), f"empty rank range {text}")
        return tuple(r for r in range(lo, hi + 1) if self.deck[r] > 0)

    def _default_chain_bound(self) -> tuple[int, int]:
        text = self.spec.data.get("chain_ranks", "3..A")
        lo_s, hi_s = (t.strip() for t in text.split(".."))
        try:
            lo, hi = C.parse_rank(lo_s), C.parse_rank(hi_s)
        except ValueError as e:
            self.error(("chain_ranks",), str(e))
            return 0, 11
        if lo > hi:
            self.error(("chain_ranks",), f"empty chain rank range {text!r} (ranks run 3 4 … A 2 X D, "
                                         "low to high)")
            return 0, 11
        return lo, hi

    def rank(self, text: str, path: tuple[str | int, ...], pos: Any) -> int | None:
        try:
            return C.parse_rank(text)
        except ValueError:
            self.error(path, f"unknown rank {text!r} (ranks are 3-9, 10/T, J, Q, K, A, 2, X, D)",
                       (pos.line, pos.column), code="unknown-rank")
            return None

    def bound(self, b: RankBound | None, default: tuple[int, ...], path: tuple[str | int, ...]) -> tuple[int, ...]:
        if b is None:
            return default
        lo = self.rank(b.low, path, b.low_pos)
        hi = self.rank(b.high, path, b.high_pos)
        if lo is None or hi is None:
            return default
        if lo > hi:
            self.error(path, f"empty rank range {b.low}..{b.high} (ranks run 3 4 … A 2 X D)",
                       (b.low_pos.line, b.low_pos.column))
            return default
        return tuple(r for r in range(lo, hi + 1) if self.deck[r] > 0)

    def compile(self) -> Rules:
        data = self.spec.data
        combos_data = data.get("combos") or {}
        bombs = list(data.get("bombs") or [])
        for i, b in enumerate(bombs):
            if b not in combos_data:
                hint = _close(b, list(combos_data))
                self.error(("bombs", i), f"bomb class {b!r} is not a combo of this spec{hint}",
                           code="unknown-bomb")
        combos: list[ComboInfo] = []
        shapes: list[Shape] = []
        seen: dict[tuple[Any, ...], str] = {}
        for name, entry in combos_data.items():
            if entry is None:
                continue
            if isinstance(entry, str):
                entry = {"pattern": entry}
            pattern_path: tuple[str | int, ...] = ("combos", name) if isinstance(combos_data[name], str) \
                else ("combos", name, "pattern")
            index = len(combos)
            compare = tuple(entry.get("compare") or ("rank",))
            tier = bombs.index(name) if name in bombs else -1
            combos.append(ComboInfo(name, entry.get("zh", ""), entry.get("description", ""),
                                    entry["pattern"], tier, compare))
            new = self.compile_pattern(entry["pattern"], index, pattern_path)
            sig = tuple(sorted(repr(s.signature()) for s in new))
            if new and sig in seen:
                self.error(pattern_path, f"combo {name!r} is identical to combo {seen[sig]!r}", (1, 1))
            seen.setdefault(sig, name)
            shapes.extend(new)
        self.check_costs(combos, shapes)
        if self.problems:
            raise SpecError(self.problems)
        return Rules(self.spec.name, self.spec.content_hash, self.deck, self.max_hand, combos, shapes,
                     self.stand_for)

    def check_costs(self, combos: list[ComboInfo], shapes: list[Shape]) -> None:
        """Refuse what would take too long to enumerate, before anything is enumerated: a
        combo whose bound is above the limit at its costliest alternative, else a spec whose
        combos together are (at ``combos``, naming the largest)."""
        limit = max_enumeration()
        checks = [("", (), limit, False)]
        if self.stand_for:
            checks.append((" with wild cards", self.stand_for, limit * WILD_FACTOR, True))
        for what, stand_for, most, wild in checks:
            by_combo: dict[int, list[tuple[Cost, Shape]]] = {}
            for shape in shapes:
                if wild or shape.natural:
                    cost = shape_cost(shape, self.deck, self.max_hand, stand_for)
                    by_combo.setdefault(shape.combo, []).append((cost, shape))
            totals = {c: sum((cost for cost, _ in parts), Cost(0, 0, 0, 0)) for c, parts in by_combo.items()}
            over = [c for c, total in totals.items() if total.steps > most]
            for c in over:
                total = totals[c]
                _, worst = max(by_combo[c], key=lambda part: part[0].steps)
                path, offset = self.origins[id(worst)]
                self.error(path, f"combo {combos[c].name!r} is too large to enumerate{what}: up to "
                                 f"{show_count(total.steps)} steps ({show_count(total.cores)} cores, up to "
                                 f"{show_count(total.plays)} plays), above the limit of {most:,} "
                                 f"({_limit_note(wild)})", offset, code="too-large", hint=_SMALLER)
            spent = sum(t.steps for t in totals.values())
            if not over and spent > most:
                largest = sorted(totals, key=lambda c: -totals[c].steps)[:3]
                named = ", ".join(f"{combos[c].name} {show_count(totals[c].steps)}" for c in largest)
                self.error(("combos",), f"the combos together are too large to enumerate{what}: up to "
                                        f"{show_count(spent)} steps (largest: {named}), above the limit of "
                                        f"{most:,} ({_limit_note(wild)})", code="too-large", hint=_SMALLER)

    def compile_pattern(self, text: str, combo: int, path: tuple[str | int, ...]) -> list[Shape]:
        try:
            pattern = parse_pattern(text)
        except PatternSyntaxError as e:
            self.error(path, f"pattern syntax: {e.message}", (e.line, e.column), code="pattern-syntax")
            return []
        out: list[Shape] = []
        for alt in pattern.alternatives:
            flags = self.constraints(alt.constraints, path)
            shape = self.shape(alt.core, alt.kickers, flags, combo, path)
            if shape is None:
                continue
            if shape.min_size() > self.max_hand:
                self.error(path, f"this combo needs at least {shape.min_size()} cards and can never fit "
                                 f"the largest hand ({self.max_hand} cards)", (alt.pos.line, alt.pos.column))
                continue
            if any(s.signature() == shape.signature() for s in out):
                self.error(path, "this alternative repeats an earlier one", (alt.pos.line, alt.pos.column))
                continue
            self.origins[id(shape)] = (path, (alt.pos.line, alt.pos.column))
            out.append(shape)
        return out

    def constraints(self, cons: tuple[Constraint, ...], path: tuple[str | int, ...]) -> dict[str, int]:
        flags = {"distinct": 0, "overlap": 0, "jokers": 99, "per_rank": 99, "adjacent": 99,
                 "wilds_min": 0, "wilds_max": UNBOUNDED, "naturals_min": 0, "naturals_max": UNBOUNDED}
        for c in cons:
            if c.name in PLAY_CONSTRAINTS and c.value is not None:
                if not self.stand_for:
                    self.error(path, f"constraint {c.name!r} needs a spec with wildcards:",
                               (c.pos.line, c.pos.column))
                flags[f"{c.name}_{'max' if c.op == '<=' else 'min'}"] = c.value
                continue
            if c.op == ">=":
                self.error(path, f"constraint {c.name!r} takes only an upper limit (<=)", (c.pos.line, c.pos.column))
                continue
            if c.name not in CONSTRAINTS:
                self.error(path, f"unknown constraint {c.name!r}{_close(c.name, list(CONSTRAINTS))}; known: "
                           + ", ".join(CONSTRAINTS), (c.pos.line, c.pos.column))
                continue
            takes_value, _ = CONSTRAINTS[c.name]
            if takes_value and c.value is None:
                self.error(path, f"constraint {c.name!r} needs a limit, e.g. {c.name}<=1",
                           (c.pos.line, c.pos.column))
            elif not takes_value and c.value is not None:
                self.error(path, f"constraint {c.name!r} takes no limit", (c.pos.line, c.pos.column))
            else:
                flags[c.name] = 1 if c.value is None else c.value
        return flags

    def shape(self, core: Group | Chain | Literal, kickers: tuple[Kicker, ...], flags: dict[str, int],
              combo: int, path: tuple[str | int, ...]) -> Shape | None:
        per_rank_max = max(self.deck)
        krules = []
        for k in kickers:
            if k.unit < 1 or k.unit > per_rank_max:
                self.error(path, f"a kicker of {k.unit} cards of one rank cannot be formed "
                                 f"(at most {per_rank_max} of a rank)", (k.pos.line, k.pos.column))
                return None
            if k.fixed + k.per_n == 0:
                self.error(path, "a kicker needs at least one group", (k.pos.line, k.pos.column))
                return None
            ranks = self.bound(k.bound, self.all_ranks, path)
            krules.append(KickerRule(k.unit, k.fixed, k.per_n, ranks))
        common: dict[str, Any] = {
            "kickers": tuple(krules), "distinct": bool(flags["distinct"]), "overlap": bool(flags["overlap"]),
            "jokers": flags["jokers"], "per_rank": flags["per_rank"], "adjacent": flags["adjacent"],
            "wilds_min": flags["wilds_min"], "wilds_max": flags["wilds_max"],
            "naturals_min": flags["naturals_min"], "naturals_max": flags["naturals_max"]}
        if isinstance(core, Group):
            if core.min_count < 1 or core.max_count < core.min_count:
                self.error(path, f"bad count {core.min_count}..{core.max_count}", (core.pos.line, core.pos.column))
                return None
            if core.min_count > per_rank_max:
                self.error(path, f"{core.min_count} cards of one rank can never be formed: "
                                 f"{self.decks} deck(s) hold at most {per_rank_max} of a rank",
                           (core.pos.line, core.pos.column))
                return None
            ranks = self.bound(core.bound, self.all_ranks, path)
            ranks = tuple(r for r in ranks if self.deck[r] >= core.min_count)
            if not ranks:
                self.error(path, "no rank has that many cards", (core.pos.line, core.pos.column))
                return None
            return Shape(combo, "group", core.min_count, min(core.max_count, per_rank_max), ranks, 1, 1, 0,
                         **common)  # type: ignore[arg-type]
        if isinstance(core, Chain):
            lo, hi = self.chain_bound
            default = tuple(r for r in range(lo, hi + 1) if self.deck[r] > 0)
            ranks = self.bound(core.bound, default, path)
            if core.unit < 1 or core.unit > per_rank_max:
                self.error(path, f"a chain of {core.unit}s cannot be formed", (core.pos.line, core.pos.column))
                return None
            if not ranks:
                self.error(path, "the chain's rank range holds no rank of the deck", (core.pos.line, core.pos.column))
                return None
            if list(ranks) != list(range(ranks[0], ranks[-1] + 1)):
                self.error(path, "chain ranks must be contiguous", (core.pos.line, core.pos.column))
                return None
            span = len(ranks)
            per_unit = core.unit + sum(k.unit * k.per_n for k in krules)
            fixed = sum(k.unit * k.fixed for k in krules)
            derived = (self.max_hand - fixed) // per_unit
            max_len = min(x for x in (core.max_len, span, derived) if x is not None)
            if core.min_len < 1 or (core.max_len is not None and core.max_len < core.min_len):
                self.error(path, f"bad chain length {core.min_len}..{core.max_len}",
                           (core.pos.line, core.pos.column))
                return None
            if core.min_len > span:
                self.error(path, f"a chain of {core.min_len} can never be formed from {span} chain ranks",
                           (core.pos.line, core.pos.column))
                return None
            return Shape(combo, "chain", core.unit, core.unit, ranks, core.min_len, max_len, 0,
                         **common)  # type: ignore[arg-type]
        try:
            counts = C.counts_of(C.parse_ranks(core.cards))
        except C.CardError as e:
            self.error(path, f"bad card in <{core.cards}>: unknown card {core.cards[e.position]!r}",
                       (core.pos.line, core.pos.column + e.position))
            return None
        if any(c > self.deck[r] for r, c in enumerate(counts)):
            self.error(path, f"<{core.cards}> needs more cards than the deck holds",
                       (core.pos.line, core.pos.column))
            return None
        return Shape(combo, "literal", 0, 0, (), 1, 1, C.pack(counts), **common)  # type: ignore[arg-type]


def _close(word: str, options: list[str]) -> str:
    import difflib

    hint = difflib.get_close_matches(word, options, n=1)
    return f" (did you mean {hint[0]!r}?)" if hint else ""


def compile_spec(spec: Spec) -> Rules:
    """Compile a loaded spec; raises :class:`SpecError` with positions on any problem."""
    return _Compiler(spec).compile()


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
# * two kicker groups: per core, its readings in a square by the two kicker ranks,
#   picked by the hand's square of rank pairs (one big-int AND);
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

# Squares of kicker-rank pairs: byte q1*15+q2 of a 225-byte int stands for kickers of
# ranks q1 and q2. ``_spread(mask, step)`` moves byte q of a 0/1 rank mask to byte
# q*step (by table, five ranks at a time); times ``_ROW_FILL`` that fills row q1 with
# mask[q1]; the mask times ``_COL_FILL`` puts mask[q2] in every row.
_SQUARE = C.NUM_RANKS * C.NUM_RANKS
_ROW_STEP, _DIAG_STEP = C.NUM_RANKS, C.NUM_RANKS + 1
_ROW_FILL = sum(1 << (8 * k) for k in range(C.NUM_RANKS))
_COL_FILL = sum(1 << (8 * C.NUM_RANKS * k) for k in range(C.NUM_RANKS))
_ABOVE_DIAGONAL = sum(1 << (8 * (q1 * C.NUM_RANKS + q2)) for q1 in range(C.NUM_RANKS)
                      for q2 in range(q1 + 1, C.NUM_RANKS))
_SPREAD = {step: [{bytes(bits): sum(1 << (8 * step * (5 * part + i)) for i, b in enumerate(bits) if b)
                   for bits in _product((0, 1), repeat=5)}
                  for part in range(3)]
           for step in (_ROW_STEP, _DIAG_STEP)}


assert C.NUM_RANKS == 15, "the square tables above and legal_moves' counting assume 15 ranks"


def _getter(indices: tuple[int, ...]) -> Callable[[Any], Any]:
    """``operator.itemgetter`` of several indices."""
    first, *rest = indices
    return _itemgetter(first, *rest)


def _spread(mask: bytes, step: int) -> int:
    t = _SPREAD[step]
    return t[0][mask[0:5]] | t[1][mask[5:10]] | t[2][mask[10:15]]


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
        """The pairs of kicker groups of ``unit`` cards the hand holds, as a square of
        bytes: byte q1*15+q2 (q1 <= q2) is 1 when it holds a group of rank q1 and one of
        rank q2 (two groups when q1 == q2)."""
        key = -unit
        got = self.pools.get(key)
        if got is None:
            one = self.at_least(unit)
            two = self.at_least(2 * unit) if 2 * unit <= C.MASK else _ZEROS[C.NUM_RANKS]
            rows = _spread(one, _ROW_STEP) * _ROW_FILL
            cols = int.from_bytes(one, "little") * _COL_FILL
            got = self.pools[key] = (rows & cols & _ABOVE_DIAGONAL) | _spread(two, _DIAG_STEP)
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
        if groups == 2:  # also by the pair of kicker ranks (a square: see _pair_select)
            u = self.kick.unit
            held = [(r, (kicker >> (C.BITS * r)) & C.MASK) for r in range(C.NUM_RANKS)
                    if (kicker >> (C.BITS * r)) & C.MASK]
            if len(held) == 1 and held[0][1] == 2 * u:
                cell = held[0][0] * (C.NUM_RANKS + 1)
            elif len(held) == 2 and held[0][1] == held[1][1] == u:
                cell = held[0][0] * C.NUM_RANKS + held[1][0]
            else:  # pragma: no cover - kickers are whole groups
                self.unpaired.add(key)
                return
            square, valid = self.pairs.get(key) or ([NO_READING] * _SQUARE, 0)
            square[cell] = pos
            self.pairs[key] = (square, valid | (1 << (8 * cell)))

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
                square, valid = got
                select = (hand.pair_select(self.kick.unit) & valid).to_bytes(_SQUARE, "little")  # type: ignore[union-attr]
                out.extend(_compress(square, select))
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
            total = hand.total
            for key, start, top, groups, size in got:
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

    def _chain_cores(self, runs: tuple[tuple[int, int], ...]) -> tuple[tuple[Any, int, int, int, int], ...]:
        s_, kick = self.shape, self.kick
        assert kick is not None
        got = []
        for a, b in runs:
            for length in range(s_.min_len, min(s_.max_len, b - a + 1) + 1):
                groups = kick.groups(length)
                size = self.unit * length + kick.unit * groups
                for start in range(a, b - length + 2):
                    key = (start, start + length - 1)
                    if key in self.single or key in self.multi:
                        got.append((key, start, start + length - 1, groups, size))
        return tuple(got)


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
        """:meth:`_lead_steps` written out for this plan: the same steps in the same
        order, each step's data bound as a constant, the rank masks as locals, and no
        loop over steps or dispatch on step codes (those cost about a fifth of a lead in
        a typical spec). The source is kept as ``lead.source``."""
        top_unit = self.top_unit
        env: dict[str, Any] = {"_compress": _compress, "_chain_it": _chain.from_iterable, "_repeat": _repeat,
                               "_Hand": _Hand, "_T": self.mask_tables, "_PAD": self.mask_pad}
        all_masks = ", ".join(f"m{u}" for u in range(1, top_unit + 1))
        src = ["def lead(raw):"]
        src += [f"    m{u} = raw.translate(_T[{u - 1}])" for u in range(1, top_unit + 1)]
        tops = " else ".join(f"{u} if 1 in m{u}" for u in range(top_unit, 1, -1))
        src.append(f"    top = {tops + ' else 1' if tops else '1'}")
        src += ["    out = []", "    hand = None"]

        def joined(units: Any) -> str:
            units = (units,) if isinstance(units, int) else tuple(units)
            return " + ".join(f"m{u}" for u in units)

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
                    body += ["if got:",
                             "    if hand is None:",
                             f"        {make_hand}",
                             "    total = hand.total",
                             "    for key, start, stop, groups, size in got:",
                             "        if size <= total:",
                             f"            FS{i}.kicked(hand, key, start, stop, groups, out)"]
            elif code == 3:
                env[f"R{i}"] = b
                test = " and ".join(f"raw[{r}] >= {c}" for r, c in a)
                body.append(f"if {test}:")
                body.append(f"    out.extend(R{i})")
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
        lead.__doc__ = self._lead_steps.__doc__
        lead.source = code_text  # type: ignore[attr-defined]
        return lead  # type: ignore[no-any-return]

    def _lead_steps(self, raw: bytes) -> list[int]:
        """Every reading inside the hand (``raw``: its count of each rank, a byte each)."""
        out: list[int] = []
        masks: list[Any] = [None]
        masks += map(raw.translate, self.mask_tables)
        masks += self.mask_pad
        top = self.top_unit  # the most cards of one rank, as far as cores go
        while top > 1 and 1 not in masks[top]:
            top -= 1
        hand = None
        for code, need, a, b in self.steps:
            if need > top:  # no rank holds enough cards for a core
                continue
            if code == 0:
                out.extend(_compress(a, masks[b] if type(b) is int else b"".join(b(masks))))
            elif code == 1:
                k = a[1]
                out.extend(_chain.from_iterable(map(_compress, _compress(b, masks[a[0]]),
                                                    _repeat(masks[k] if type(k) is int else b"".join(k(masks))))))
            elif code == 2:
                mask = masks[need][a[0]:a[1]]
                got = a[2].get(mask)
                if got is None:
                    got = a[2][mask] = b._chain_plain(b.runs.compute(mask))
                out.extend(got)
            elif code == 3:
                for r, c in a:
                    if raw[r] < c:
                        break
                else:
                    out.extend(b)
            elif code == 5:
                mask = masks[need][a[0]:a[1]]
                got = a[2].get(mask)
                if got is None:
                    got = a[2][mask] = b._chain_cores(b.runs.compute(mask))
                if got:
                    if hand is None:
                        hand = _Hand(raw, masks)
                    total = hand.total
                    for key, start, stop, groups, size in got:
                        if size <= total:
                            b.kicked(hand, key, start, stop, groups, out)
            else:
                if hand is None:
                    hand = _Hand(raw, masks)
                a.lead(hand, out)
        return out

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

