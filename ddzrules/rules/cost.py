"""What enumerating a shape would cost, counted before it is paid: the number of plays a
shape can make inside the largest hand (generating polynomials over ranks), so that a spec
whose tables would not fit is refused with its numbers, not left to run out of memory."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ddzrules import cards as C
from ddzrules.rules.shapes import UNBOUNDED, KickerRule, Shape
from ddzrules.spec import limit_from_env

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


SMALLER = ("fewer kicker terms or groups, `where distinct` or `per_rank<=N`, `in LO..HI` bounds or a "
            "chain maximum make it smaller")


def limit_note(wild: bool) -> str:
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
