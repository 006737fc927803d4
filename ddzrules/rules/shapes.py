"""What a spec compiles to: each alternative of each combo a :class:`Shape` (its core, a
group, a chain or literal cards, with concrete rank sets and length limits, and its kickers
with their constraints), and :class:`Rules`, a spec's shapes with what classifying and
comparing need; and the enumeration of the plays a multiset of cards allows, shape by shape."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypedDict

from ddzrules import cards as C

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


class ShapeOptions(TypedDict):
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
