"""The combo-pattern language: parse a pattern string into a small AST.

Three layers, as in lark's own design: the grammar (``pattern.lark``), the parse
tree lark builds from it, and :class:`ToAst`, a transformer that turns the tree
into the frozen dataclasses below. Meaning (ranks, limits, whether a combo can
ever fit a hand) is checked later by the compiler, which has the spec at hand.

>>> p = parse_pattern("3{2..} + 1*n where per_rank<=2")
>>> p.alternatives[0].core
Chain(unit=3, min_len=2, max_len=None, bound=None, pos=Pos(line=1, column=1))
>>> p.alternatives[0].kickers[0].per_n, p.alternatives[0].constraints[0].name
(1, 'per_rank')
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Any, cast

from ddzrules.errors import PatternSyntaxError as PatternSyntaxError  # noqa: PLC0414 - re-exported: it lived here
from ddzrules.errors import brief

if TYPE_CHECKING:
    from lark import Lark, Token, Transformer, Tree
    from lark.tree import Meta


@dataclass(frozen=True)
class Pos:
    """1-based line and column inside the pattern text."""

    line: int
    column: int


@dataclass(frozen=True)
class RankBound:
    """``in LO..HI``: ranks as written, checked by the compiler."""

    low: str
    high: str
    low_pos: Pos
    high_pos: Pos


@dataclass(frozen=True)
class Group:
    """``k`` or ``k..m`` cards of one rank."""

    min_count: int
    max_count: int
    bound: RankBound | None
    pos: Pos


@dataclass(frozen=True)
class Chain:
    """``unit{min..max}``: consecutive ranks, ``unit`` cards each."""

    unit: int
    min_len: int
    max_len: int | None  # None: derive from the largest hand and the rank bounds
    bound: RankBound | None
    pos: Pos


@dataclass(frozen=True)
class Literal:
    """``<XD>``: exactly these cards."""

    cards: str
    pos: Pos


Core = Group | Chain | Literal


@dataclass(frozen=True)
class Kicker:
    """``+ unit*(fixed | per_n·n)``: kicker groups of ``unit`` same-rank cards each."""

    unit: int
    fixed: int  # groups regardless of chain length
    per_n: int  # groups per unit of the core's chain length
    bound: RankBound | None
    pos: Pos

    def groups(self, length: int) -> int:
        return self.fixed + self.per_n * length


@dataclass(frozen=True)
class Constraint:
    name: str
    value: int | None
    pos: Pos
    op: str = "<="  # "<=" or ">="


@dataclass(frozen=True)
class Alternative:
    core: Core
    kickers: tuple[Kicker, ...]
    constraints: tuple[Constraint, ...]
    pos: Pos


@dataclass(frozen=True)
class Pattern:
    text: str
    alternatives: tuple[Alternative, ...]


def _pos(tok: Token | Tree[Token]) -> Pos:
    from lark import Token

    if isinstance(tok, Token):
        return Pos(tok.line or 1, tok.column or 1)
    return Pos(tok.meta.line, tok.meta.column)


#: a ``count`` rule: low, high and where it stands
_Count = tuple[int, int, Pos]


@lru_cache(maxsize=1)
# over the complexity bound on purpose: one dispatch over the pattern grammar's node kinds
def _to_ast() -> type[Transformer[Token, tuple[Alternative, ...]]]:  # noqa: C901
    """The :class:`ToAst` transformer class, made on first use: importing lark costs tens
    of milliseconds, and a load served from the pattern cache never parses."""
    from lark import Token, Transformer, v_args

    @v_args(meta=True)
    class ToAst(Transformer[Token, tuple[Alternative, ...]]):
        """Parse tree → AST. Each method receives its children already transformed. A rule
        whose children are of several kinds takes ``list[Any]``: lark does not type them,
        and the grammar (``pattern.lark``) fixes which kind stands where."""

        def pattern(self, meta: Meta, children: list[Alternative]) -> tuple[Alternative, ...]:
            return tuple(children)

        def alternative(self, meta: Meta, children: list[Any]) -> Alternative:
            core = children[0]
            kickers = tuple(c for c in children[1:] if isinstance(c, Kicker))
            constraints: tuple[Constraint, ...] = ()
            for c in children[1:]:
                if isinstance(c, tuple):
                    constraints = c
            return Alternative(core, kickers, constraints, Pos(meta.line, meta.column))

        def count(self, meta: Meta, children: list[Token]) -> _Count:
            lo = _number(children[0])
            hi = _number(children[1]) if len(children) > 1 else lo
            return (lo, hi, Pos(meta.line, meta.column))

        def group(self, meta: Meta, children: list[Any]) -> Group:
            lo, hi, pos = children[0]
            bound = children[1] if len(children) > 1 else None
            return Group(lo, hi, bound, pos)

        def length(self, meta: Meta, children: list[Token]) -> tuple[int, int | None]:
            lo = _number(children[0])
            if len(children) == 1:
                return (lo, lo)
            return (lo, _number(children[2]) if len(children) > 2 else None)

        def chain(self, meta: Meta, children: list[Any]) -> Chain:
            unit, hi, pos = children[0]
            if unit != hi:
                raise _semantic_at(pos, "a chain unit is one count, not a range")
            lo_len, hi_len = children[1]
            bound = children[2] if len(children) > 2 else None
            return Chain(unit, lo_len, hi_len, bound, pos)

        def literal(self, meta: Meta, children: list[Token]) -> Literal:
            tok = children[0]
            return Literal(str(tok), _pos(tok))

        def bound(self, meta: Meta, children: list[Token]) -> RankBound:
            lo, hi = children
            return RankBound(str(lo), str(hi), _pos(lo), _pos(hi))

        def multiplier(self, meta: Meta, children: list[Token]) -> tuple[int, int]:
            if children and isinstance(children[-1], Token) and children[-1].type == "N":
                factor = _number(children[0]) if len(children) > 1 else 1
                return (0, factor)
            return (_number(children[0]), 0)

        def kicker(self, meta: Meta, children: list[Any]) -> Kicker:
            unit = _number(children[0])
            fixed, per_n = 1, 0
            bound = None
            for c in children[1:]:
                if isinstance(c, tuple):
                    fixed, per_n = c
                elif isinstance(c, RankBound):
                    bound = c
            return Kicker(unit, fixed, per_n, bound, Pos(meta.line, meta.column))

        def constraints(self, meta: Meta, children: list[Constraint]) -> tuple[Constraint, ...]:
            return tuple(children)

        def constraint(self, meta: Meta, children: list[Token]) -> Constraint:
            name = children[0]
            if len(children) > 1:
                return Constraint(str(name), _number(children[2]), _pos(name), str(children[1]))
            return Constraint(str(name), None, _pos(name))

    return ToAst


class _SemanticInTransformer(Exception):
    def __init__(self, pos: Pos, message: str) -> None:
        self.pos = pos
        self.message = message


def _semantic_at(pos: Pos, message: str) -> _SemanticInTransformer:
    return _SemanticInTransformer(pos, message)


#: the most digits a number in a pattern may have (counts of cards are small; this also
#: keeps ``int()`` far from Python's 4,300-digit limit)
_MAX_DIGITS = 6


def _number(tok: Token) -> int:
    if len(tok) > _MAX_DIGITS:
        raise _semantic_at(_pos(tok), f"number {tok[:_MAX_DIGITS]}… is too large (at most {_MAX_DIGITS} digits)")
    return int(tok)


@lru_cache(maxsize=1)
def _parser() -> Lark:
    from lark import Lark

    grammar = resources.files("ddzrules.spec").joinpath("pattern.lark").read_text(encoding="utf-8")
    return Lark(grammar, parser="lalr", propagate_positions=True, maybe_placeholders=False)


_EXPECT_NAMES = {
    "INT": "a number", "RANK": "a rank", "CARDS": "cards", "NAME": "a constraint name",
    "LBRACE": "'{'", "RBRACE": "'}'", "PLUS": "'+'", "VBAR": "'|'", "STAR": "'*'",
    "RANGE": "'..'", "N": "'n'", "LESSTHAN": "'<'", "MORETHAN": "'>'", "COMMA": "','",
    "IN": "'in'", "WHERE": "'where'", "CMP": "'<=' or '>='", "$END": "end of pattern",
}


def _describe_expected(expected: set[str]) -> str:
    names = sorted({_EXPECT_NAMES.get(e, e.lower()) for e in expected})
    return ", ".join(names)


def _end_of(text: str) -> tuple[int, int]:
    """Line and column just after the last non-blank character (where a pattern that
    ends too early ends; trailing blanks and line breaks, as a YAML block leaves,
    do not count)."""
    body = text.rstrip()
    if not body:
        return 1, 1
    line = body.count("\n") + 1
    return line, len(body) - (body.rfind("\n") + 1) + 1


@lru_cache(maxsize=4096)
def parse_pattern(text: str) -> Pattern:
    """Parse a pattern string; raises :class:`PatternSyntaxError` with a position."""
    if not isinstance(text, str):
        raise PatternSyntaxError(f"a pattern must be text, not {brief(text)}", "", 1, 1)
    from lark.exceptions import (
        UnexpectedCharacters,
        UnexpectedEOF,
        UnexpectedInput,
        UnexpectedToken,
    )

    try:
        tree = _parser().parse(text)
    except UnexpectedEOF as e:
        line, col = _end_of(text)
        raise PatternSyntaxError(
            f"pattern ends too early; expected {_describe_expected(set(e.expected))}",
            text, line, col) from None
    except UnexpectedToken as e:
        if e.token.type == "$END":
            line, col = _end_of(text)
            what = "pattern ends too early"
        else:
            line, col = e.line, e.column
            what = f"unexpected {str(e.token)!r}"
        raise PatternSyntaxError(
            f"{what}; expected {_describe_expected(set(e.expected))}", text, line, col) from None
    except UnexpectedCharacters as e:
        raise PatternSyntaxError(
            # lark declares pos_in_stream None; UnexpectedCharacters sets the lexer's int
            f"unexpected character {text[cast(int, e.pos_in_stream)]!r}", text, e.line,
            e.column) from None
    except UnexpectedInput as e:  # pragma: no cover - other lark errors
        raise PatternSyntaxError(str(e), text, e.line, e.column) from None
    try:
        alternatives = _to_ast()().transform(tree)
    except Exception as e:  # lark wraps transformer errors in VisitError
        inner = getattr(e, "orig_exc", e)
        if isinstance(inner, _SemanticInTransformer):
            raise PatternSyntaxError(inner.message, text, inner.pos.line, inner.pos.column) from None
        raise
    return Pattern(text, alternatives)


# --------------------------------------------------------------------------- cache codec
# Parsed patterns are cached on disk as plain JSON lists (see compiler.py), and a cache
# file is untrusted: ``pattern_from_data`` rebuilds the AST checking every field's type
# and range, and that every rank, card and name token stands at its position in the text.


def _pos_data(p: Pos) -> list[int]:
    return [p.line, p.column]


def _bound_data(b: RankBound | None) -> list[Any] | None:
    return None if b is None else [b.low, b.high, _pos_data(b.low_pos), _pos_data(b.high_pos)]


def pattern_to_data(pattern: Pattern) -> list[Any]:
    """A parsed pattern as JSON-ready lists (the inverse of :func:`pattern_from_data`)."""
    out: list[Any] = []
    for alt in pattern.alternatives:
        core = alt.core
        if isinstance(core, Group):
            c: list[Any] = ["group", core.min_count, core.max_count, _bound_data(core.bound), _pos_data(core.pos)]
        elif isinstance(core, Chain):
            c = ["chain", core.unit, core.min_len, core.max_len, _bound_data(core.bound), _pos_data(core.pos)]
        else:
            c = ["literal", core.cards, _pos_data(core.pos)]
        kickers = [[k.unit, k.fixed, k.per_n, _bound_data(k.bound), _pos_data(k.pos)] for k in alt.kickers]
        constraints = [[k.name, k.value, _pos_data(k.pos), k.op] for k in alt.constraints]
        out.append([c, kickers, constraints, _pos_data(alt.pos)])
    return out


class _Reader:
    """Checked reads of one pattern's cached data against its text (ValueError on anything else)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = [0]
        for i, ch in enumerate(text):
            if ch == "\n":
                self.starts.append(i + 1)

    def number(self, x: Any, optional: bool = False) -> Any:
        if x is None and optional:
            return None
        if type(x) is not int or not 0 <= x < 10 ** _MAX_DIGITS:
            raise ValueError("a pattern number out of range")
        return x

    def pos(self, x: Any) -> Pos:
        if type(x) is not list or len(x) != 2 or any(type(v) is not int for v in x):
            raise ValueError("a pattern position is not two numbers")
        line, column = x
        if not (1 <= line <= len(self.starts) and 1 <= column <= len(self.text) + 1):
            raise ValueError("a pattern position outside its text")
        return Pos(line, column)

    def token(self, x: Any, at: Any) -> tuple[str, Pos]:
        """A token's text and position: it must stand there in the pattern text."""
        pos = self.pos(at)
        offset = self.starts[pos.line - 1] + pos.column - 1
        if type(x) is not str or not x or self.text[offset:offset + len(x)] != x:
            raise ValueError("a pattern token not found at its position")
        return x, pos

    def at(self, pos: Pos, first: str) -> None:
        offset = self.starts[pos.line - 1] + pos.column - 1
        if self.text[offset:offset + 1] not in tuple(first):
            raise ValueError("a pattern node not at its position")

    def bound(self, x: Any) -> RankBound | None:
        if x is None:
            return None
        if type(x) is not list or len(x) != 4:
            raise ValueError("a rank bound of the wrong shape")
        low, low_pos = self.token(x[0], x[2])
        high, high_pos = self.token(x[1], x[3])
        return RankBound(low, high, low_pos, high_pos)

    def core(self, x: Any) -> Core:
        if type(x) is not list or not x:
            raise ValueError("a pattern core of the wrong shape")
        if x[0] == "group" and len(x) == 5:
            return Group(self.number(x[1]), self.number(x[2]), self.bound(x[3]), self.pos(x[4]))
        if x[0] == "chain" and len(x) == 6:
            return Chain(self.number(x[1]), self.number(x[2]), self.number(x[3], optional=True),
                         self.bound(x[4]), self.pos(x[5]))
        if x[0] == "literal" and len(x) == 3:
            cards, pos = self.token(x[1], x[2])
            return Literal(cards, pos)
        raise ValueError("a pattern core of no known kind")

    def alternative(self, x: Any) -> Alternative:
        if type(x) is not list or len(x) != 4 or type(x[1]) is not list or type(x[2]) is not list:
            raise ValueError("a pattern alternative of the wrong shape")
        kickers = []
        for k in x[1]:
            if type(k) is not list or len(k) != 5:
                raise ValueError("a kicker of the wrong shape")
            kickers.append(Kicker(self.number(k[0]), self.number(k[1]), self.number(k[2]), self.bound(k[3]),
                                  self.pos(k[4])))
        constraints = []
        for k in x[2]:
            if type(k) is not list or len(k) != 4 or k[3] not in ("<=", ">="):
                raise ValueError("a constraint of the wrong shape")
            name, pos = self.token(k[0], k[2])
            constraints.append(Constraint(name, self.number(k[1], optional=True), pos, k[3]))
        return Alternative(self.core(x[0]), tuple(kickers), tuple(constraints), self.pos(x[3]))


def _compact_bound(b: RankBound | None) -> str:
    return "" if b is None else f"in{b.low}..{b.high}"


def compact(pattern: Pattern) -> str:
    """The pattern written back from its AST, without blanks, in the one spelling that
    reads back to it (``2`` not ``2..2``, ``1{5}`` not ``1{5..5}``, no ``*1``)."""
    alts = []
    for alt in pattern.alternatives:
        core = alt.core
        if isinstance(core, Group):
            count = f"{core.min_count}" if core.max_count == core.min_count else f"{core.min_count}..{core.max_count}"
            out = count + _compact_bound(core.bound)
        elif isinstance(core, Chain):
            length = (f"{core.min_len}" if core.max_len == core.min_len else f"{core.min_len}.."
                      if core.max_len is None else f"{core.min_len}..{core.max_len}")
            out = f"{core.unit}{{{length}}}" + _compact_bound(core.bound)
        else:
            out = f"<{core.cards}>"
        for k in alt.kickers:
            if k.per_n and k.fixed:
                raise ValueError("a kicker with both a fixed and a per-n count")
            times = ("" if k.fixed == 1 else f"*{k.fixed}") if not k.per_n else \
                "*n" if k.per_n == 1 else f"*{k.per_n}n"
            out += f"+{k.unit}{times}" + _compact_bound(k.bound)
        if alt.constraints:
            out += "where" + ",".join(c.name + ("" if c.value is None else f"{c.op}{c.value}")
                                      for c in alt.constraints)
        alts.append(out)
    return "|".join(alts)


def canonical(pattern: Pattern) -> bool:
    """Whether ``pattern``'s text is its :func:`compact` spelling give or take blanks:
    only such patterns are cached, so that a cached AST is checked against its text."""
    return compact(pattern) == "".join(pattern.text.split())


def pattern_from_data(text: str, data: Any) -> Pattern:
    """The pattern ``text`` rebuilt from cached data, every field checked (ValueError:
    not the parse of this text). Tokens must stand at their positions and the AST
    written back must be the text itself, so an edited entry cannot change a rule."""
    if type(text) is not str or type(data) is not list or not data:
        raise ValueError("a cached pattern of the wrong shape")
    reader = _Reader(text)
    pattern = Pattern(text, tuple(reader.alternative(a) for a in data))
    if not canonical(pattern):
        raise ValueError("a cached pattern that is not the parse of its text")
    for alt in pattern.alternatives:  # node positions (used in messages) at their first token
        reader.at(alt.pos, "0123456789<")
        if not isinstance(alt.core, Literal):
            reader.at(alt.core.pos, "0123456789")
        for k in alt.kickers:
            reader.at(k.pos, "+")
    return pattern
