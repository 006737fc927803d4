"""Spec + patterns → matcher tables: the compiler (``compile_spec``), and the cache entry of
a spec's parsed patterns. What it compiles to, ``Shape`` and ``Rules``, is in ``shapes``; what
enumerating a shape would cost, bounded before it is paid, in ``cost``.

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
from typing import Any

from ddzrules import cards as C
from ddzrules.errors import Problem, SpecError
from ddzrules.rules.cost import (
    SMALLER,
    WILD_FACTOR,
    Cost,
    limit_note,
    max_enumeration,
    shape_cost,
    show_count,
)
from ddzrules.rules.shapes import (
    CONSTRAINTS,
    PLAY_CONSTRAINTS,
    UNBOUNDED,
    ComboInfo,
    KickerRule,
    Rules,
    Shape,
    ShapeOptions,
)
from ddzrules.spec import Deck, Spec
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
from ddzrules.speed import cache

# ====================================================================== compile


class _Compiler:
    def __init__(self, spec: Spec, parsed: dict[str, Pattern] | None = None) -> None:
        self.spec = spec
        #: patterns already parsed (from the pattern cache), by their text
        self.parsed = parsed or {}
        self.problems: list[Problem] = []
        #: each compiled shape's alternative: (pattern path, line and column in the pattern)
        self.origins: dict[int, tuple[tuple[str | int, ...], tuple[int, int]]] = {}
        self.rule_spec = spec.rule_spec
        self.decks = self.rule_spec.deck.decks
        self.jokers = self.rule_spec.deck.jokers
        self.deck = self._deck(self.rule_spec.deck)
        self.max_hand = self.rule_spec.max_hand
        self.all_ranks = tuple(r for r in range(C.NUM_RANKS) if self.deck[r] > 0)
        self.chain_bound = self._default_chain_bound()
        self.stand_for = self._stand_for()
        self.wild_count = self._wild_count()

    def _deck(self, deck: Deck) -> list[int]:
        """Per-rank counts: ``decks`` full decks (with or without jokers) less ``remove:``
        (whole ranks, then single cards; a card string is short for ``{cards: ...}``)."""
        counts = C.full_deck(deck.decks, deck.jokers)
        if not deck.remove_ranks and not deck.remove_cards:
            return counts
        base = deck.remove_cards_path  # where an error points: the string, or its cards key
        for r in set(C.parse_ranks(deck.remove_ranks)):
            counts[r] = 0
        taken = [0] * len(counts)
        for r in C.parse_ranks(deck.remove_cards):
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
        wild = self.rule_spec.wildcards
        if wild is None:
            return ()
        text = wild.stand_for
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
        wild = self.rule_spec.wildcards
        if wild is None or not self.stand_for:
            return 0
        count = wild.ranks
        if count > len(self.stand_for):
            self.error(("wildcards", "ranks"), f"{count} wild ranks at once, but a wild card may stand for "
                                               f"only {len(self.stand_for)} ranks")
        return count

    def _default_chain_bound(self) -> tuple[int, int]:
        text = self.rule_spec.chain_ranks
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
        rule_spec = self.rule_spec
        names = [c.name for c in rule_spec.combos]
        bombs = rule_spec.bombs
        for i, b in enumerate(bombs):
            if b not in names:
                hint = _close(b, names)
                self.error(("bombs", i), f"bomb class {b!r} is not a combo of this spec{hint}",
                           code="unknown-bomb")
        combos: list[ComboInfo] = []
        shapes: list[Shape] = []
        seen: dict[tuple[Any, ...], str] = {}
        for combo in rule_spec.combos:
            name, pattern_path = combo.name, combo.path
            index = len(combos)
            tier = bombs.index(name) if name in bombs else -1
            combos.append(ComboInfo(name, combo.zh, combo.description, combo.pattern, tier, combo.compare))
            new = self.compile_pattern(combo.pattern, index, pattern_path)
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
                                 f"({limit_note(wild)})", offset, code="too-large", hint=SMALLER)
            spent = sum(t.steps for t in totals.values())
            if not over and spent > most:
                largest = sorted(totals, key=lambda c: -totals[c].steps)[:3]
                named = ", ".join(f"{combos[c].name} {show_count(totals[c].steps)}" for c in largest)
                self.error(("combos",), f"the combos together are too large to enumerate{what}: up to "
                                        f"{show_count(spent)} steps (largest: {named}), above the limit of "
                                        f"{most:,} ({limit_note(wild)})", code="too-large", hint=SMALLER)

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
        common: ShapeOptions = {
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


#: the modules a compiled spec is made by: what a cache entry built from one (a table, a
#: wild table, an environment's) names among its sources, so a change to any is a new key
COMPILER_SOURCES = ("ddzrules.rules.compiler", "ddzrules.rules.shapes", "ddzrules.rules.cost", "ddzrules.cards",
                    "ddzrules.spec.patterns", ("ddzrules.spec", "pattern.lark"))

#: bump when the pattern cache's payload changes
PATTERN_CACHE_FORMAT = 1


def _pattern_texts(spec: Spec) -> list[str]:
    """The pattern strings of a spec's combos, in order."""
    return [combo.pattern for combo in spec.rule_spec.combos]


def _patterns_name(texts: list[str]) -> str:
    # keyed by the texts themselves and by the parser's code: another spec, an edited
    # pattern or a changed grammar never reads this entry
    digest = hashlib.sha256(json.dumps(texts, ensure_ascii=False).encode("utf-8")).hexdigest()[:32]
    code = cache.code_hash(PATTERN_CACHE_FORMAT, "ddzrules.spec.patterns", ("ddzrules.spec", "pattern.lark"))
    return f"patterns-{digest}-{code}.ast"  # not .json: tests find table files by that


def _decode_patterns(texts: list[str], body: bytes) -> dict[str, Pattern]:
    return _decode_pattern_payload(texts, cache.parse_json(body))


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
