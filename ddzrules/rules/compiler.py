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
import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypedDict

from ddzrules.speed import cache
from ddzrules import cards as C
from ddzrules.errors import Problem, SpecError
from ddzrules.spec.patterns import (
    Chain,
    Constraint,
    Group,
    Kicker,
    Literal,
    Pattern,
    PatternSyntaxError,
    RankBound,
    canonical,
    parse_pattern,
    pattern_from_data,
    pattern_to_data,
)
from ddzrules.spec import Spec, limit_from_env

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


class _ShapeOptions(TypedDict):
    """The fields of a :class:`Shape` that its kickers and constraints give, whatever its core."""

    kickers: tuple[KickerRule, ...]
    distinct: bool
    overlap: bool
    jokers: int
    per_rank: int
    adjacent: int
    wilds_min: int
    wilds_max: int
    naturals_min: int
    naturals_max: int


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
    #: how many ranks may be wild at once in a deal (``wildcards.ranks``: 1 for 癞子场, 2
    #: for 天地癞子; 0 without wildcards)
    wild_count: int = 0

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
            if not shape.natural:  # needs wild cards: see ddzrules.rules.wild
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
    return limit_from_env(ENUMERATION_ENV, DEFAULT_MAX_ENUMERATION)


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


def shape_cost(shape: Shape, deck: list[int], max_hand: int, stand_for: tuple[int, ...] = (),
               wild_count: int = 1) -> Cost:
    """An upper bound on the plays (and walk steps) of enumerating ``shape`` over the
    whole ``deck`` up to ``max_hand`` cards; with ``stand_for`` (a wildcard spec), with
    as many wild cards as the deck holds of ``wild_count`` ranks, each standing for those
    ranks."""
    if not stand_for and not shape.natural:
        return Cost(0, 0, 0, 0)
    key = (shape.signature(), tuple(deck), max_hand, tuple(stand_for), wild_count)
    got = _COSTS.get(key)
    if got is None:
        if len(_COSTS) >= 1024:
            _COSTS.clear()
        got = _COSTS[key] = _shape_cost(shape, key[1], max_hand, key[3], wild_count)
    return got


#: shape costs already worked out: specs share most shapes, and compiling runs often
_COSTS: dict[tuple[Any, ...], Cost] = {}


def _shape_cost(shape: Shape, deck: tuple[int, ...], max_hand: int, stand_for: tuple[int, ...],
                wild_count: int = 1) -> Cost:
    pool = sum(sorted((deck[r] for r in stand_for), reverse=True)[:wild_count])
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
            choices = term.poly(b)  # [groups][wilds], where the core's poly is [wilds]
            partial = [_cap(sum(col)) for col in zip(*choices[:need + 1])]
            work = _cap(work + sum(_conv(acc, partial)))
            acc = _conv(acc, choices[need])
        steps = _cap(steps + times * work)
        plays = _cap(plays + times * sum(acc))
    return Cost(steps, plays, len(cores), pool)


# ====================================================================== compile


class _Compiler:
    def __init__(self, spec: Spec, parsed: dict[str, Pattern] | None = None) -> None:
        self.spec = spec
        #: patterns already parsed (from the pattern cache), by their text
        self.parsed = parsed or {}
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
        self.wild_count = self._wild_count()

    def _deck(self, deck: dict[str, Any]) -> list[int]:
        """Per-rank counts: ``decks`` full decks (with or without jokers) less ``remove:``
        (whole ranks, then single cards; a card string is short for ``{cards: ...}``)."""
        counts = C.full_deck(self.decks, self.jokers)
        remove = deck.get("remove")
        if not remove:
            return counts
        base: tuple[str | int, ...]  # where an error points: the string, or its cards key
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

    def _wild_count(self) -> int:
        """How many ranks may be wild at once (``wildcards.ranks``, default 1)."""
        wild = self.spec.data.get("wildcards")
        if not wild or not self.stand_for:
            return 0
        count = int(wild.get("ranks", 1))
        if count > len(self.stand_for):
            self.error(("wildcards", "ranks"), f"{count} wild ranks at once, but a wild card may stand for "
                                               f"only {len(self.stand_for)} ranks")
        return count

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

    def compile(self, check_costs: bool = True) -> Rules:
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
        if check_costs:
            self.check_costs(combos, shapes)
        if self.problems:
            raise SpecError(self.problems)
        return Rules(self.spec.name, self.spec.content_hash, self.deck, self.max_hand, combos, shapes,
                     self.stand_for, self.wild_count)

    def check_costs(self, combos: list[ComboInfo], shapes: list[Shape]) -> None:
        """Refuse what would take too long to enumerate, before anything is enumerated: a
        combo whose bound is above the limit at its costliest alternative, else a spec whose
        combos together are (at ``combos``, naming the largest)."""
        limit = max_enumeration()
        # (what the message adds, the ranks a wild card stands for, the limit, wild plays too)
        checks: list[tuple[str, tuple[int, ...], int, bool]] = [("", (), limit, False)]
        if self.stand_for:
            checks.append((" with wild cards", self.stand_for, limit * WILD_FACTOR, True))
        for what, stand_for, most, wild in checks:
            by_combo: dict[int, list[tuple[Cost, Shape]]] = {}
            for shape in shapes:
                if wild or shape.natural:
                    # one wild rank's full deck: what the tables and one rank's census walk
                    # (several wild ranks are walked a hand at a time; a full-deck query
                    # with several is bounded where it is asked, see WildMoves.census)
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
            pattern = self.parsed.get(text) if isinstance(text, str) else None
            if pattern is None:
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
        common: _ShapeOptions = {
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
                         **common)
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
                         **common)
        try:
            counts = C.counts_of(C.parse_ranks(core.cards))
        except C.CardError as e:
            assert e.position is not None  # an error in a card string names its character
            self.error(path, f"bad card in <{core.cards}>: unknown card {core.cards[e.position]!r}",
                       (core.pos.line, core.pos.column + e.position))
            return None
        if any(c > self.deck[r] for r, c in enumerate(counts)):
            self.error(path, f"<{core.cards}> needs more cards than the deck holds",
                       (core.pos.line, core.pos.column))
            return None
        return Shape(combo, "literal", 0, 0, (), 1, 1, C.pack(counts), **common)


def _close(word: str, options: list[str]) -> str:
    import difflib

    hint = difflib.get_close_matches(word, options, n=1)
    return f" (did you mean {hint[0]!r}?)" if hint else ""


def compile_spec(spec: Spec) -> Rules:
    """Compile a loaded spec; raises :class:`SpecError` with positions on any problem.

    The spec's patterns come from the cache when it has them (parsing them needs lark:
    its import and parser build are most of a load's time); the compiler's own checks
    run on them all the same. A spec served whole from the cache (see
    :func:`ddzrules.spec.load_spec`) brings its parsed patterns, and the enumeration limit
    its combos were checked under: the cost bounds are a function of the resolved data
    alone, so under the same limit they are not worked out again. Once compiled, the
    spec's ``extras`` hold both for the cache."""
    texts = _pattern_texts(spec)
    parsed: dict[str, Pattern] | None = None
    warm: dict[str, Any] | None = None
    limit = max_enumeration()
    if spec.served is not None and spec.cached:
        try:
            if set(spec.cached) != {"patterns", "costs"} or type(spec.cached["costs"]) is not int:
                raise ValueError("not what the compiler left")
            parsed = _decode_pattern_payload(texts, spec.cached["patterns"])
            warm = spec.cached
        except (ValueError, TypeError, KeyError, IndexError, OverflowError, RecursionError) as e:
            cache.distrust(spec.served, e, stacklevel=3)
            parsed = None
    if parsed is None and texts:
        parsed = _load_patterns(texts)
        stored = parsed is not None
    else:
        stored = True
    rules = _Compiler(spec, parsed).compile(check_costs=warm is None or warm["costs"] != limit)
    if not stored:  # only after the spec compiled: a broken spec is never cached
        _store_patterns(texts)
    patterns = warm["patterns"] if warm is not None else _pattern_payload(texts, parsed or {})
    spec.extras = {"patterns": patterns, "costs": limit}
    return rules


#: bump when the pattern cache's payload changes
PATTERN_CACHE_FORMAT = 1


def _pattern_texts(spec: Spec) -> list[str]:
    """The pattern strings of a spec's combos, in order."""
    combos = spec.data.get("combos")
    if not isinstance(combos, dict):
        return []
    texts = []
    for entry in combos.values():
        text = entry.get("pattern") if isinstance(entry, dict) else entry
        if isinstance(text, str):
            texts.append(text)
    return texts


def _patterns_name(texts: list[str]) -> str:
    # keyed by the texts themselves and by the parser's code: another spec, an edited
    # pattern or a changed grammar never reads this entry
    digest = hashlib.sha256(json.dumps(texts, ensure_ascii=False).encode("utf-8")).hexdigest()[:32]
    code = cache.code_hash(PATTERN_CACHE_FORMAT, "ddzrules.spec.patterns", ("ddzrules.spec", "pattern.lark"))
    return f"patterns-{digest}-{code}.ast"  # not .json: tests find table files by that


def _decode_patterns(texts: list[str], body: bytes) -> dict[str, Pattern]:
    return _decode_pattern_payload(texts, json.loads(body))


def _decode_pattern_payload(texts: list[str], payload: Any) -> dict[str, Pattern]:
    """The cached ASTs of ``texts``, every one rebuilt with its fields checked (ValueError)."""
    if type(payload) is not dict or payload.get("texts") != texts:
        raise ValueError("it holds the patterns of other rules")
    asts = payload.get("asts")
    if type(asts) is not list or len(asts) != len(texts):
        raise ValueError("not one parse a pattern")
    # null: a pattern not in its canonical spelling, parsed again (see patterns.canonical)
    return {text: pattern_from_data(text, data) for text, data in zip(texts, asts) if data is not None}


def _load_patterns(texts: list[str]) -> dict[str, Pattern] | None:
    return cache.load(_patterns_name(texts), lambda body: _decode_patterns(texts, body), stacklevel=4)


def _pattern_payload(texts: list[str], parsed: dict[str, Pattern]) -> dict[str, Any]:
    """What the cache holds of ``texts``: each one's AST, or null for a pattern not in its
    canonical spelling (parsed on every load). ``parsed``: the ASTs at hand; the others
    are parsed (memoised: the compiler parsed them just now)."""
    asts = []
    for text in texts:
        p = parsed.get(text)
        if p is None:
            p = parse_pattern(text)
            asts.append(pattern_to_data(p) if canonical(p) else None)
        else:
            asts.append(pattern_to_data(p))
    return {"texts": texts, "asts": asts}


def _store_patterns(texts: list[str]) -> None:
    if cache.enabled():
        body = json.dumps(_pattern_payload(texts, {}), ensure_ascii=False, separators=(",", ":"))
        cache.store(_patterns_name(texts), body.encode("utf-8"))
