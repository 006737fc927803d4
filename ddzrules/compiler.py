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

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import cards as C
from .errors import Problem, SpecError
from .patterns import Chain, Constraint, Group, Kicker, Literal, PatternSyntaxError, RankBound, parse_pattern
from .spec import Spec

#: The kicker constraints a ``where`` clause may state, and whether they take ``<= N``.
CONSTRAINTS: dict[str, tuple[bool, str]] = {
    "distinct": (False, "kicker groups have pairwise different ranks"),
    "overlap": (False, "kickers may share a rank with the core"),
    "jokers": (True, "at most N jokers among the kickers (jokers<=1: never both jokers)"),
    "per_rank": (True, "at most N kicker cards of any one rank (per_rank<=3: no four; <=2: no trio)"),
    "adjacent": (True, "at most N kicker cards of a rank next to the chain (adjacent<=2: no trio "
                       "that would extend a plane)"),
}
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

    def signature(self) -> tuple[Any, ...]:
        return (self.kind, self.unit, self.max_count, self.ranks, self.min_len, self.max_len,
                self.literal, self.kickers, self.distinct, self.overlap, self.jokers, self.per_rank,
                self.adjacent)

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


@dataclass
class Rules:
    """The compiled form of a spec: deck, combos, shapes. Pure data plus enumeration."""

    name: str
    content_hash: str
    deck: list[int]
    max_hand: int
    combos: list[ComboInfo]
    shapes: list[Shape]

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


# ====================================================================== compile


class _Compiler:
    def __init__(self, spec: Spec) -> None:
        self.spec = spec
        self.problems: list[Problem] = []
        data = spec.data
        deck = data.get("deck", {})
        self.decks = int(deck.get("decks", 1))
        self.jokers = bool(deck.get("jokers", True))
        self.deck = C.full_deck(self.decks, self.jokers)
        deal = data.get("deal", {})
        self.max_hand = int(data.get("max_hand") or (deal.get("hand", 17) + deal.get("kitty", 3)))
        self.all_ranks = tuple(r for r in range(C.NUM_RANKS) if self.deck[r] > 0)
        self.chain_bound = self._default_chain_bound()

    def error(self, path: tuple[str | int, ...], message: str, offset: tuple[int, int] | None = None) -> None:
        self.problems.append(self.spec.problem(path, message, offset))

    def _default_chain_bound(self) -> tuple[int, int]:
        text = self.spec.data.get("chain_ranks", "3..A")
        lo_s, hi_s = (t.strip() for t in text.split(".."))
        try:
            return C.parse_rank(lo_s), C.parse_rank(hi_s)
        except ValueError as e:
            self.error(("chain_ranks",), str(e))
            return 0, 11

    def rank(self, text: str, path: tuple[str | int, ...], pos: Any) -> int | None:
        try:
            return C.parse_rank(text)
        except ValueError:
            self.error(path, f"unknown rank {text!r} (ranks are 3-9, 10/T, J, Q, K, A, 2, X, D)",
                       (pos.line, pos.column))
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
                self.error(("bombs", i), f"bomb class {b!r} is not a combo of this spec{hint}")
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
        if self.problems:
            raise SpecError(self.problems)
        return Rules(self.spec.name, self.spec.content_hash, self.deck, self.max_hand, combos, shapes)

    def compile_pattern(self, text: str, combo: int, path: tuple[str | int, ...]) -> list[Shape]:
        try:
            pattern = parse_pattern(text)
        except PatternSyntaxError as e:
            self.error(path, f"pattern syntax: {e.message}", (e.line, e.column))
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
            out.append(shape)
        return out

    def constraints(self, cons: tuple[Constraint, ...], path: tuple[str | int, ...]) -> dict[str, int]:
        flags = {"distinct": 0, "overlap": 0, "jokers": 99, "per_rank": 99, "adjacent": 99}
        for c in cons:
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
        common = dict(kickers=tuple(krules), distinct=bool(flags["distinct"]), overlap=bool(flags["overlap"]),
                      jokers=flags["jokers"], per_rank=flags["per_rank"], adjacent=flags["adjacent"])
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
