"""The combo-pattern language: every construct parses to the AST it describes, and
syntax errors carry a line, a column and a caret under the offending place.

Expected ASTs are written from the grammar's own description (pattern.lark and
docs), in a position-free summary form:

    group:   ("group", min, max, bound)
    chain:   ("chain", unit, min_len, max_len, bound)
    literal: ("literal", cards)
    kicker:  (unit, fixed, per_n, bound)
    constraint: (name, value)
"""

from __future__ import annotations

import pytest

from ddzrules.spec.patterns import Chain, Group, Literal, PatternSyntaxError, Pos, parse_pattern


def _bound(b):
    return None if b is None else (b.low, b.high)


def summary(text):
    out = []
    for alt in parse_pattern(text).alternatives:
        core = alt.core
        if isinstance(core, Group):
            c = ("group", core.min_count, core.max_count, _bound(core.bound))
        elif isinstance(core, Chain):
            c = ("chain", core.unit, core.min_len, core.max_len, _bound(core.bound))
        else:
            assert isinstance(core, Literal)
            c = ("literal", core.cards)
        kickers = tuple((k.unit, k.fixed, k.per_n, _bound(k.bound)) for k in alt.kickers)
        cons = tuple((c.name, c.value) for c in alt.constraints)
        out.append((c, kickers, cons))
    return out


def alt(core, kickers=(), constraints=()):
    return (core, tuple(kickers), tuple(constraints))


PATTERNS = [
    # groups: n cards of one rank
    ("1", [alt(("group", 1, 1, None))]),
    ("2", [alt(("group", 2, 2, None))]),
    ("3", [alt(("group", 3, 3, None))]),
    ("4", [alt(("group", 4, 4, None))]),
    # count ranges (two-deck bombs of 4 to 8 cards)
    ("4..8", [alt(("group", 4, 8, None))]),
    ("4 .. 8", [alt(("group", 4, 8, None))]),
    # chains with min and max units
    ("1{5..}", [alt(("chain", 1, 5, None, None))]),
    ("2{3..10}", [alt(("chain", 2, 3, 10, None))]),
    ("3{2..}", [alt(("chain", 3, 2, None, None))]),
    ("4{2..}", [alt(("chain", 4, 2, None, None))]),
    ("1{5}", [alt(("chain", 1, 5, 5, None))]),
    ("1{ 5 .. 12 }", [alt(("chain", 1, 5, 12, None))]),
    # rank bounds
    ("1{5..} in 3..A", [alt(("chain", 1, 5, None, ("3", "A")))]),
    ("2{3..10} in 3..K", [alt(("chain", 2, 3, 10, ("3", "K")))]),
    ("1{5..} in 10..A", [alt(("chain", 1, 5, None, ("10", "A")))]),
    ("4..8 in 3..2", [alt(("group", 4, 8, ("3", "2")))]),
    ("1 in 3..a", [alt(("group", 1, 1, ("3", "a")))]),   # checked by the compiler, not here
    # literals
    ("<XD>", [alt(("literal", "XD"))]),
    ("<XXDD>", [alt(("literal", "XXDD"))]),
    ("<大王小王>", [alt(("literal", "大王小王"))]),
    # kickers: k cards of a rank, times a number or times the chain length n
    ("3 + 1", [alt(("group", 3, 3, None), [(1, 1, 0, None)])]),
    ("3 + 2", [alt(("group", 3, 3, None), [(2, 1, 0, None)])]),
    ("4 + 1*2", [alt(("group", 4, 4, None), [(1, 2, 0, None)])]),
    ("4 + 2*2", [alt(("group", 4, 4, None), [(2, 2, 0, None)])]),
    ("3{2..} + 1*n", [alt(("chain", 3, 2, None, None), [(1, 0, 1, None)])]),
    ("3{2..} + 2*n", [alt(("chain", 3, 2, None, None), [(2, 0, 1, None)])]),
    ("4{2..} + 1*2n", [alt(("chain", 4, 2, None, None), [(1, 0, 2, None)])]),
    ("4{2..}+1*2n", [alt(("chain", 4, 2, None, None), [(1, 0, 2, None)])]),
    ("3 + 1 + 2", [alt(("group", 3, 3, None), [(1, 1, 0, None), (2, 1, 0, None)])]),
    ("3 + 1 in 3..K", [alt(("group", 3, 3, None), [(1, 1, 0, ("3", "K"))])]),
    ("3 in 3..K + 1", [alt(("group", 3, 3, ("3", "K")), [(1, 1, 0, None)])]),
    ("3 + 1*2 in X..D", [alt(("group", 3, 3, None), [(1, 2, 0, ("X", "D"))])]),
    # alternatives: one combo
    ("3 + 1 | 3 + 2", [alt(("group", 3, 3, None), [(1, 1, 0, None)]),
                       alt(("group", 3, 3, None), [(2, 1, 0, None)])]),
    ("1|2|3", [alt(("group", 1, 1, None)), alt(("group", 2, 2, None)), alt(("group", 3, 3, None))]),
    # where-constraints
    ("3 + 1 where distinct", [alt(("group", 3, 3, None), [(1, 1, 0, None)], [("distinct", None)])]),
    ("3{2..} + 1*n where distinct, jokers<=1",
     [alt(("chain", 3, 2, None, None), [(1, 0, 1, None)], [("distinct", None), ("jokers", 1)])]),
    ("3{2..} + 1*n where jokers<=1, per_rank<=3, adjacent<=2",
     [alt(("chain", 3, 2, None, None), [(1, 0, 1, None)],
          [("jokers", 1), ("per_rank", 3), ("adjacent", 2)])]),
    ("1 + 1 where overlap", [alt(("group", 1, 1, None), [(1, 1, 0, None)], [("overlap", None)])]),
    ("3 + 1 where per_rank <= 2", [alt(("group", 3, 3, None), [(1, 1, 0, None)], [("per_rank", 2)])]),
    # constraints belong to their own alternative
    ("3{2..} + 1*n where distinct, jokers<=1 | 3{2..} + 2*n where distinct",
     [alt(("chain", 3, 2, None, None), [(1, 0, 1, None)], [("distinct", None), ("jokers", 1)]),
      alt(("chain", 3, 2, None, None), [(2, 0, 1, None)], [("distinct", None)])]),
    ("3 + 1 where distinct | 3", [alt(("group", 3, 3, None), [(1, 1, 0, None)], [("distinct", None)]),
                                  alt(("group", 3, 3, None))]),
    # whitespace and line breaks are free
    ("  3 + 1  ", [alt(("group", 3, 3, None), [(1, 1, 0, None)])]),
    ("3{2..} + 1*n\n| 3{2..} + 2*n\n", [alt(("chain", 3, 2, None, None), [(1, 0, 1, None)]),
                                        alt(("chain", 3, 2, None, None), [(2, 0, 1, None)])]),
]


@pytest.mark.parametrize("text,expected", PATTERNS, ids=[p for p, _ in PATTERNS])
def test_parses(text, expected):
    assert summary(text) == expected


def test_bundled_patterns_parse():
    """Every pattern of the bundled specs is in the language."""
    from ddzrules import load_spec
    from ddzrules.spec import bundled_names

    for name in bundled_names():
        for combo, entry in load_spec(name).data["combos"].items():
            if entry is None:
                continue
            text = entry if isinstance(entry, str) else entry["pattern"]
            assert parse_pattern(text).alternatives, (name, combo)


def test_pattern_keeps_its_text():
    assert parse_pattern("3 + 1 | 3 + 2").text == "3 + 1 | 3 + 2"


def test_positions():
    p = parse_pattern("3{2..} + 1*n where distinct, jokers<=1 | 4 in 3..K + 2*2")
    first, second = p.alternatives
    assert first.pos == Pos(1, 1)
    assert first.core.pos == Pos(1, 1)
    assert first.kickers[0].pos == Pos(1, 8)          # the '+'
    assert [c.pos for c in first.constraints] == [Pos(1, 20), Pos(1, 30)]
    assert second.pos == Pos(1, 42)
    assert second.core.bound.low_pos == Pos(1, 47)
    assert second.core.bound.high_pos == Pos(1, 50)


def test_positions_on_later_lines():
    p = parse_pattern("3 + 1\n  | <XD>\n  | 1 in 3..Z")
    assert p.alternatives[1].core.pos == Pos(2, 6)   # inside the brackets
    assert p.alternatives[2].core.bound.high_pos == Pos(3, 13)


# (pattern, line, column, a fragment of the message)
SYNTAX_ERRORS = [
    ("", 1, 1, "ends too early"),
    ("   ", 1, 1, "ends too early"),
    ("1 |", 1, 4, "ends too early"),
    ("3 +", 1, 4, "ends too early"),
    ("3 +   ", 1, 4, "ends too early"),         # trailing blanks do not count
    ("3{2..", 1, 6, "ends too early"),
    ("<XD", 1, 4, "ends too early"),
    ("3 + 1*", 1, 7, "ends too early"),
    ("1{5..} in 3", 1, 12, "ends too early"),
    ("3 + 1 where", 1, 12, "ends too early"),
    ("3 + 1 where distinct,", 1, 22, "ends too early"),
    ("4 + 1*2 where jokers<=", 1, 23, "ends too early"),
    ("1\n| 2 +", 2, 6, "ends too early"),
    ("1\n| 2 +\n", 2, 6, "ends too early"),   # a YAML block scalar's final line break
    ("1\n| 2 +\n\n  \n", 2, 6, "ends too early"),
    ("a", 1, 1, "unexpected 'a'"),
    ("1 2", 1, 3, "unexpected '2'"),
    ("3 @ 4", 1, 3, "'@'"),
    ("3 + 1 where 5", 1, 13, "unexpected '5'"),
    ("3 + 1 where distinct\n  | 3 + 2 where ,", 2, 17, "unexpected ','"),
    ("3..4{2..}", 1, 1, "chain unit is one count"),
    ("1 {5..} | 2{3..10..}", 1, 18, "unexpected"),
]


@pytest.mark.parametrize("text,line,column,fragment", SYNTAX_ERRORS, ids=[repr(t) for t, *_ in SYNTAX_ERRORS])
def test_syntax_errors(text, line, column, fragment):
    with pytest.raises(PatternSyntaxError) as info:
        parse_pattern(text)
    err = info.value
    assert (err.line, err.column) == (line, column)
    assert fragment in err.message
    message = str(err)
    assert f"line {line}, column {column}" in message
    *_, src, caret = message.splitlines()
    lines = text.splitlines() or [""]
    assert src == "  " + lines[line - 1]
    assert caret == "  " + " " * (column - 1) + "^"


def test_syntax_error_names_what_was_expected():
    with pytest.raises(PatternSyntaxError) as info:
        parse_pattern("3 +")
    assert "expected a number" in info.value.message
    with pytest.raises(PatternSyntaxError) as info:
        parse_pattern("3 + 1 where")
    assert "constraint name" in info.value.message
    # never lark's internal terminal names
    for text, *_ in SYNTAX_ERRORS:
        with pytest.raises(PatternSyntaxError) as info:
            parse_pattern(text)
        for internal in ("__ANON", "$END", "LBRACE", "RANGE", "INT"):
            assert internal not in info.value.message, text


def test_syntax_error_is_a_value_error():
    assert issubclass(PatternSyntaxError, ValueError)
