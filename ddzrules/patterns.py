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

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from .errors import DdzError, brief, escaped


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


class PatternSyntaxError(DdzError, ValueError):
    """A pattern that does not parse; carries the line, column and a caret. A ValueError
    too, for callers that catch that."""

    def __init__(self, message: str, text: str, line: int, column: int) -> None:
        self.message = message
        self.text = text
        self.line = line
        self.column = column
        super().__init__(f"{message} (line {line}, column {column})\n{caret_excerpt(text, line, column)}")


def caret_excerpt(text: str, line: int, column: int) -> str:
    lines = text.splitlines() or [""]
    src = lines[min(line, len(lines)) - 1]
    if not src.isprintable():  # control characters as escapes: no terminal escape sequence
        before = escaped(src[:column - 1])
        src, column = before + escaped(src[column - 1:]), len(before) + 1
    return f"  {src}\n  {' ' * (column - 1)}^"


def _pos(tok: Token | Tree) -> Pos:
    if isinstance(tok, Token):
        return Pos(tok.line or 1, tok.column or 1)
    return Pos(tok.meta.line, tok.meta.column)


@v_args(meta=True)
class ToAst(Transformer):  # type: ignore[type-arg]
    """Parse tree → AST. Each method receives its children already transformed."""

    def pattern(self, meta, children):
        return tuple(children)

    def alternative(self, meta, children):
        core = children[0]
        kickers = tuple(c for c in children[1:] if isinstance(c, Kicker))
        constraints: tuple[Constraint, ...] = ()
        for c in children[1:]:
            if isinstance(c, tuple):
                constraints = c
        return Alternative(core, kickers, constraints, Pos(meta.line, meta.column))

    def count(self, meta, children):
        lo = _number(children[0])
        hi = _number(children[1]) if len(children) > 1 else lo
        return (lo, hi, Pos(meta.line, meta.column))

    def group(self, meta, children):
        lo, hi, pos = children[0]
        bound = children[1] if len(children) > 1 else None
        return Group(lo, hi, bound, pos)

    def length(self, meta, children):
        lo = _number(children[0])
        if len(children) == 1:
            return (lo, lo)
        return (lo, _number(children[2]) if len(children) > 2 else None)

    def chain(self, meta, children):
        unit, hi, pos = children[0]
        if unit != hi:
            raise _semantic_at(pos, "a chain unit is one count, not a range")
        lo_len, hi_len = children[1]
        bound = children[2] if len(children) > 2 else None
        return Chain(unit, lo_len, hi_len, bound, pos)

    def literal(self, meta, children):
        tok = children[0]
        return Literal(str(tok), _pos(tok))

    def bound(self, meta, children):
        lo, hi = children
        return RankBound(str(lo), str(hi), _pos(lo), _pos(hi))

    def multiplier(self, meta, children):
        if children and isinstance(children[-1], Token) and children[-1].type == "N":
            factor = _number(children[0]) if len(children) > 1 else 1
            return (0, factor)
        return (_number(children[0]), 0)

    def kicker(self, meta, children):
        unit = _number(children[0])
        fixed, per_n = 1, 0
        bound = None
        for c in children[1:]:
            if isinstance(c, tuple):
                fixed, per_n = c
            elif isinstance(c, RankBound):
                bound = c
        return Kicker(unit, fixed, per_n, bound, Pos(meta.line, meta.column))

    def constraints(self, meta, children):
        return tuple(children)

    def constraint(self, meta, children):
        name = children[0]
        if len(children) > 1:
            return Constraint(str(name), _number(children[2]), _pos(name), str(children[1]))
        return Constraint(str(name), None, _pos(name))


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
    grammar = resources.files("ddzrules").joinpath("pattern.lark").read_text(encoding="utf-8")
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
            f"unexpected character {text[e.pos_in_stream]!r}", text, e.line, e.column) from None
    except UnexpectedInput as e:  # pragma: no cover - other lark errors
        raise PatternSyntaxError(str(e), text, e.line, e.column) from None
    try:
        alternatives = ToAst().transform(tree)
    except Exception as e:  # lark wraps transformer errors in VisitError
        inner = getattr(e, "orig_exc", e)
        if isinstance(inner, _SemanticInTransformer):
            raise PatternSyntaxError(inner.message, text, inner.pos.line, inner.pos.column) from None
        raise
    return Pattern(text, alternatives)
