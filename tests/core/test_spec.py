"""Loading specs: schema errors, ``extends:``, pattern and compile errors with
``file:line:column``, the content hash, and the on-disk table cache.

Every expected position is computed from the YAML text written here (where the
offending key or token is in the file), never taken from the library's output.
"""

from __future__ import annotations

import os
import shutil
import textwrap
from math import comb
from pathlib import Path

import pytest

import ddzrules
from ddzrules import SpecError, load_spec, load_variant
from ddzrules.errors import Location, Problem
from ddzrules.rules.variant import CacheWarning
from ddzrules.spec import bundled_names, merge

# ---------------------------------------------------------------- helpers


def write(tmp_path: Path, name: str, text: str) -> tuple[Path, str]:
    text = textwrap.dedent(text).lstrip("\n")
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path, text


def where(text: str, needle: str, nth: int = 0, end: bool = False) -> tuple[int, int]:
    """1-based (line, column) of the ``nth`` occurrence of ``needle`` in ``text``
    (with ``end``: of the character just after it)."""
    idx = -1
    for _ in range(nth + 1):
        idx = text.index(needle, idx + 1)
    if end:
        idx += len(needle)
    before = text[:idx]
    return before.count("\n") + 1, idx - (before.rfind("\n") + 1) + 1


def problems_of(fn, *args) -> list[Problem]:
    with pytest.raises(SpecError) as info:
        fn(*args)
    probs = info.value.problems
    assert probs, "a SpecError lists its problems"
    return probs


def only(probs: list[Problem], path: str) -> Problem:
    found = [p for p in probs if p.path == path]
    assert len(found) == 1, [str(p) for p in probs]
    return found[0]


def same_file(loc: Location | None, path: Path) -> bool:
    return loc is not None and Path(loc.file).resolve() == path.resolve()


def at(problem: Problem, path: Path, line_col: tuple[int, int]) -> None:
    assert same_file(problem.location, path), str(problem)
    assert (problem.location.line, problem.location.column) == line_col, str(problem)
    # the printed form starts with file:line:column and names the key path
    text = str(problem)
    assert text.startswith(f"{problem.location.file}:{line_col[0]}:{line_col[1]}: ")
    if problem.path:
        assert f" {problem.path}: " in text.splitlines()[0]


def caret_under(problem: Problem, source_line: str, column: int) -> None:
    src, caret = problem.excerpt.splitlines()
    assert src == "  " + source_line
    assert caret == "  " + " " * (column - 1) + "^"


MINIMAL = """
name: tiny
deal: {hand: 17, kitty: 3}
combos:
  single: "1"
  pair: "2"
  straight: "1{5..}"
  bomb: "4"
  rocket: "<XD>"
bombs: [bomb, rocket]
"""


# ---------------------------------------------------------------- bundled specs


def test_bundled_names():
    assert {"hubei-3p", "compat/rlcard", "compat/douzero"} <= set(bundled_names())


@pytest.mark.parametrize("name", bundled_names())
def test_bundled_specs_load_and_compile(name):
    v = load_variant(name)
    assert v.name == name
    assert v.combo_names


# ---------------------------------------------------------------- schema errors


def test_misspelt_top_level_key(tmp_path):
    path, text = write(tmp_path, "s.yaml", """
        name: s
        playrs: 3
        combos: {single: "1"}
    """)
    p = only(problems_of(load_spec, path), "playrs")
    at(p, path, where(text, "playrs"))
    assert "unknown key 'playrs'" in p.message
    assert "did you mean 'players'?" in p.message
    caret_under(p, "playrs: 3", 1)


def test_misspelt_nested_key_in_flow_mapping(tmp_path):
    path, text = write(tmp_path, "s.yaml", """
        name: s
        deck: {decks: 1, jokerz: true}
        combos: {single: "1"}
    """)
    p = only(problems_of(load_spec, path), "deck.jokerz")
    at(p, path, where(text, "jokerz"))
    assert "did you mean 'jokers'?" in p.message


def test_misspelt_key_in_combo_mapping(tmp_path):
    path, text = write(tmp_path, "s.yaml", """
        name: s
        combos:
          single: {pattern: "1"}
          pair:
            patern: "2"
            zh: 对牌
    """)
    p = only(problems_of(load_spec, path), "combos.pair.patern")
    at(p, path, where(text, "patern"))
    assert "did you mean 'pattern'?" in p.message


def test_unknown_key_without_a_close_match_lists_the_allowed_ones(tmp_path):
    path, text = write(tmp_path, "s.yaml", """
        name: s
        deal: {hand: 17, zzzzzz: 1}
    """)
    p = only(problems_of(load_spec, path), "deal.zzzzzz")
    at(p, path, where(text, "zzzzzz"))
    for allowed in ("hand", "kitty", "kitty_shown"):
        assert allowed in p.message


@pytest.mark.parametrize("line,path_,needle,fragment", [
    ("players: three", "players", "three", "whole number"),
    ("deck: {decks: 4}", "deck.decks", "4", "at most 3"),
    ("max_hand: 0", "max_hand", "0", "at least 1"),
    ("direction: sideways", "direction", "sideways", "sideways"),
    ("deal: {hand: 17, kitty_shown: maybe}", "deal.kitty_shown", "maybe", "true or false"),
    ("chain_ranks: 3-A", "chain_ranks", "3-A", ""),
])
def test_wrong_values(tmp_path, line, path_, needle, fragment):
    path, text = write(tmp_path, "s.yaml", f"name: s\n{line}\ncombos: {{single: '1'}}\n")
    p = only(problems_of(load_spec, path), path_)
    at(p, path, where(text, needle))
    assert fragment in p.message


def test_bad_combo_name_points_at_the_key(tmp_path):
    path, text = write(tmp_path, "s.yaml", """
        name: s
        combos:
          single: "1"
          Pair: "2"
    """)
    p = only(problems_of(load_spec, path), "combos.Pair")
    at(p, path, where(text, "Pair"))
    assert "'Pair'" in p.message


def test_combo_mapping_needs_a_pattern(tmp_path):
    path, text = write(tmp_path, "s.yaml", """
        name: s
        combos:
          single: "1"
          pair: {zh: 对牌}
    """)
    p = only(problems_of(load_spec, path), "combos.pair")
    at(p, path, where(text, "{zh"))
    assert "needs a 'pattern'" in p.message


def test_combo_of_the_wrong_type(tmp_path):
    path, text = write(tmp_path, "s.yaml", """
        name: s
        combos:
          single: 1
    """)
    p = only(problems_of(load_spec, path), "combos.single")
    at(p, path, where(text, "1"))
    assert "pattern string" in p.message


def test_every_problem_is_reported_at_once(tmp_path):
    path, _ = write(tmp_path, "s.yaml", """
        name: s
        playrs: 3
        deck: {decks: 9}
        combos:
          single: {patern: "1"}
    """)
    probs = problems_of(load_spec, path)
    assert {p.path for p in probs} >= {"playrs", "deck.decks", "combos.single.patern"}


def test_missing_name(tmp_path):
    path, _ = write(tmp_path, "s.yaml", "combos: {single: '1'}\n")
    (p,) = problems_of(load_spec, path)
    assert "'name'" in p.message and "required" in p.message
    assert same_file(p.location, path)


@pytest.mark.parametrize("body", ["- a\n- b\n", "just a string\n"])
def test_a_spec_is_a_mapping(tmp_path, body):
    path, _ = write(tmp_path, "s.yaml", body)
    (p,) = problems_of(load_spec, path)
    assert "mapping" in p.message
    assert same_file(p.location, path)


def test_yaml_syntax_error(tmp_path):
    path, text = write(tmp_path, "s.yaml", """
        name: s
        players: 3: 4
        combos: {single: "1"}
    """)
    (p,) = problems_of(load_spec, path)
    assert "YAML syntax error" in p.message
    at(p, path, where(text, ": 4"))               # the second ':' on the line
    caret_under(p, "players: 3: 4", where(text, ": 4")[1])


def test_yaml_syntax_error_unclosed_quote(tmp_path):
    path, text = write(tmp_path, "s.yaml", """
        name: s
        combos:
          single: "1
    """)
    (p,) = problems_of(load_spec, path)
    assert "YAML syntax error" in p.message
    assert same_file(p.location, path)
    assert p.location.line >= where(text, '"1')[0]


def test_duplicate_key(tmp_path):
    path, text = write(tmp_path, "s.yaml", """
        name: s
        combos:
          single: "1"
          single: "2"
    """)
    (p,) = problems_of(load_spec, path)
    assert "duplicate key 'single'" in p.message
    at(p, path, where(text, "single", nth=1))


def test_unknown_spec_name():
    (p,) = problems_of(load_spec, "hubei-3pp")
    assert "no spec named 'hubei-3pp'" in p.message
    assert "did you mean 'hubei-3p'?" in p.message
    for name in ("hubei-3p", "compat/rlcard", "compat/douzero"):
        assert name in p.message


def test_missing_file(tmp_path):
    (p,) = problems_of(load_spec, str(tmp_path / "nope.yaml"))
    assert "nope.yaml" in p.message


# ---------------------------------------------------------------- extends


def test_merge_rules():
    parent = {"deck": {"decks": 1, "jokers": True}, "combos": {"a": "1", "b": "2"}, "bombs": ["a", "b"]}
    child = {"deck": {"decks": 2}, "combos": {"b": None, "c": "3"}, "bombs": ["a"]}
    assert merge(parent, child) == {
        "deck": {"decks": 2, "jokers": True},          # mappings merge key by key
        "combos": {"a": "1", "c": "3"},                # null deletes
        "bombs": ["a"],                                # lists replace
    }
    assert parent["combos"] == {"a": "1", "b": "2"}    # the parent is not modified


def test_extends_merges_deltas(tmp_path):
    path, _ = write(tmp_path, "child.yaml", """
        name: child
        extends: hubei-3p
        title: {en: a child}
        deck: {decks: 2}
        combos:
          rocket: null
          straight: {pattern: "1{6..}"}
          pair_chain: "2{3..10}"
          quad_pair: "4 + 2"
        bombs: [bomb]
        readings:
          chain-limits: null
    """)
    parent = load_spec("hubei-3p")
    spec = load_spec(path)
    data = spec.data
    assert spec.name == "child"
    assert "extends" not in data
    # untouched parent keys come through
    assert data["players"] == parent.data["players"]
    assert data["deal"] == parent.data["deal"]
    assert data["chain_ranks"] == parent.data["chain_ranks"]
    # mappings merge key by key
    assert data["deck"] == {"decks": 2, "jokers": True}
    assert data["title"] == {"zh": parent.data["title"]["zh"], "en": "a child"}
    # a null removes an inherited combo or reading
    assert "rocket" not in data["combos"]
    assert "chain-limits" not in data["readings"]
    assert "plane-wings" in data["readings"]
    # a mapping overrides inside the combo; a string replaces it
    assert data["combos"]["straight"] == {"pattern": "1{6..}", "zh": parent.data["combos"]["straight"]["zh"]}
    assert data["combos"]["pair_chain"] == "2{3..10}"
    assert data["combos"]["quad_pair"] == "4 + 2"
    assert data["combos"]["trio"] == parent.data["combos"]["trio"]
    assert data["bombs"] == ["bomb"]
    assert Path(spec.chain[0]).resolve() == path.resolve()
    assert spec.chain[1:] == parent.chain


def test_removed_combo_is_gone_from_the_variant(tmp_path):
    path, _ = write(tmp_path, "child.yaml", """
        name: child
        extends: hubei-3p
        combos: {rocket: null}
        bombs: [bomb]
    """)
    v = load_variant(path)
    assert "rocket" not in v.combo_names
    assert v.classify("XD") == ()
    assert "rocket" not in v.census().by_combo


def test_rlcard_is_douzero_plus_its_deltas():
    rl, dz = load_spec("compat/rlcard"), load_spec("compat/douzero")
    assert rl.chain[-1] == dz.chain[0]
    assert "generator-not-classifier" not in rl.data["readings"]
    assert rl.data["combos"]["four_two"]["pattern"] == "4 + 1*2 where jokers<=1"
    assert rl.data["combos"]["four_two"]["zh"] == dz.data["combos"]["four_two"]["zh"]
    assert rl.data["combos"]["trio"] == dz.data["combos"]["trio"]


def test_extends_a_relative_path(tmp_path):
    write(tmp_path, "rules/base.yaml", MINIMAL)
    path, _ = write(tmp_path, "rules/variants/child.yaml", """
        name: child
        extends: ../base.yaml
        combos: {trio: "3"}
    """)
    spec = load_spec(path)
    assert set(spec.data["combos"]) == {"single", "pair", "straight", "bomb", "rocket", "trio"}
    assert len(spec.chain) == 2


@pytest.mark.parametrize("files", [
    {"a.yaml": "name: a\nextends: a.yaml\n"},
    {"a.yaml": "name: a\nextends: b.yaml\n", "b.yaml": "name: b\nextends: a.yaml\n"},
    {"a.yaml": "name: a\nextends: b.yaml\n", "b.yaml": "name: b\nextends: c.yaml\n",
     "c.yaml": "name: c\nextends: a.yaml\n"},
])
def test_extends_loop(tmp_path, files):
    for name, body in files.items():
        write(tmp_path, name, body)
    path = tmp_path / "a.yaml"
    (p,) = problems_of(load_spec, path)
    assert "extends loop" in str(p)
    assert p.path == "extends"
    at(p, path, where(files["a.yaml"], files["a.yaml"].split("extends: ")[1].strip()))


def test_extends_unknown_parent(tmp_path):
    path, text = write(tmp_path, "s.yaml", "name: s\nextends: hubei-3pp\n")
    (p,) = problems_of(load_spec, path)
    at(p, path, where(text, "hubei-3pp"))
    assert "no spec named 'hubei-3pp'" in p.message
    assert "did you mean 'hubei-3p'?" in p.message


def test_error_in_parent_names_the_parent(tmp_path):
    write(tmp_path, "base.yaml", "name: base\nplayrs: 3\n")
    path, text = write(tmp_path, "child.yaml", "name: child\nextends: base.yaml\n")
    (p,) = problems_of(load_spec, path)
    at(p, path, where(text, "base.yaml"))
    assert "base.yaml:2:1" in p.message
    assert "did you mean 'players'?" in p.message


def test_compile_error_in_an_inherited_pattern_points_at_the_parent(tmp_path):
    base, base_text = write(tmp_path, "base.yaml", """
        name: base
        combos:
          single: "1"
          pair: "2 + "
    """)
    path, _ = write(tmp_path, "child.yaml", "name: child\nextends: base.yaml\ncombos: {trio: '3'}\n")
    p = only(problems_of(load_variant, path), "combos.pair")
    at(p, base, where(base_text, '2 +', end=True))


# ---------------------------------------------------------------- pattern syntax errors inside YAML


def _pattern_error(tmp_path, body: str) -> tuple[Problem, Path, str]:
    path, text = write(tmp_path, "s.yaml", "name: s\ncombos:\n  single: '1'\n" + body)
    probs = problems_of(load_variant, path)
    assert len(probs) == 1, [str(p) for p in probs]
    return probs[0], path, text


# (yaml lines for combo "bad", key path, the token the error is at, or END: just after
# the needle's occurrence)
END = "END"
IN_YAML = [
    # plain scalars
    ("  bad: 3 + 1 wher distinct\n", "combos.bad", "wher", None),
    ("  bad: 2 +\n", "combos.bad", "2 +", END),
    ("  bad:     3 + 1 | 3 + @\n", "combos.bad", "@", None),
    # double and single quotes (the column inside the value is shifted by the quote)
    ('  bad: "3 + 1 wher distinct"\n', "combos.bad", "wher", None),
    ("  bad: '3 + 1 wher distinct'\n", "combos.bad", "wher", None),
    ("  bad: '4 + 1*2 where distinct,'\n", "combos.bad", "distinct,", END),
    ('  bad: "  3 + 1 wher"\n', "combos.bad", "wher", None),
    ("  bad: '<X''D> + 1 wher'\n", "combos.bad", "wher", None),   # '' is one quote in the value
    # flow mappings and block mappings
    ('  bad: {pattern: "3 + 1 wher distinct", zh: x}\n', "combos.bad.pattern", "wher", None),
    ("  bad: {zh: x, pattern: 3 + 1 wher}\n", "combos.bad.pattern", "wher", None),
    ("  bad:\n    zh: x\n    pattern: '3 + 1 wher'\n", "combos.bad.pattern", "wher", None),
    # multi-line values: the error is on a later line of the file
    ("  bad:\n    pattern: |\n      3{2..} + 1*n\n      | 3{2..} + 2*n wher\n",
     "combos.bad.pattern", "wher", None),
    ("  bad:\n    pattern: |\n      3{2..} + 1*n\n      | 3{2..} + 2*n where\n",
     "combos.bad.pattern", "2*n where", END),
    ("  bad:\n    pattern: >\n      3{2..} + 1*n\n      | 3{2..} + 2*n wher\n",
     "combos.bad.pattern", "wher", None),
    ("  bad: 3{2..} + 1*n where distinct\n    | 3{2..} + 2*n oops\n", "combos.bad", "oops", None),
    ('  bad: "3{2..} + 1*n where distinct\n    | 3{2..} + 2*n oops"\n', "combos.bad", "oops", None),
    ("  bad: >-\n    3{2..} + 1*n where distinct\n\n    | 3{2..} + 2*n oops\n", "combos.bad", "oops", None),
    ("  bad: '3 + 1 where\n     distinct, jokers<='\n", "combos.bad", "jokers<=", END),
]


@pytest.mark.parametrize("body,key_path,needle,mode", IN_YAML, ids=[b for b, *_ in IN_YAML])
def test_pattern_syntax_error_position_in_yaml(tmp_path, body, key_path, needle, mode):
    p, path, text = _pattern_error(tmp_path, body)
    assert p.path == key_path
    assert "pattern syntax" in p.message
    line, col = where(text, needle, end=mode == END)
    at(p, path, (line, col))
    caret_under(p, text.splitlines()[line - 1], col)


# ---------------------------------------------------------------- semantic compile errors


def _compile_error(tmp_path, combos: str, extra: str = "") -> tuple[list[Problem], Path, str]:
    body = textwrap.indent(textwrap.dedent(combos).strip("\n") + "\n", "  ")
    path, text = write(tmp_path, "s.yaml", "name: s\n" + extra + "combos:\n" + body)
    return problems_of(load_variant, path), path, text


def test_unknown_rank_in_a_bound(tmp_path):
    probs, path, text = _compile_error(tmp_path, """
          single: "1"
          straight: "1{5..} in 3..Z"
    """)
    p = only(probs, "combos.straight")
    at(p, path, where(text, "Z"))
    assert "unknown rank 'Z'" in p.message


def test_unknown_rank_in_a_kicker_bound_on_a_later_line(tmp_path):
    probs, path, text = _compile_error(tmp_path, """
          trio_single:
            pattern: |
              3 + 1
                in 3..W
    """)
    p = only(probs, "combos.trio_single.pattern")
    at(p, path, where(text, "W"))


def test_combo_that_can_never_fit_the_largest_hand(tmp_path):
    probs, path, text = _compile_error(tmp_path, """
          single: "1"
          plane: "3{2..} + 2*n"
    """, extra="deal: {hand: 5, kitty: 3}\n")
    p = only(probs, "combos.plane")
    at(p, path, where(text, "3{2"))
    assert "10" in p.message and "8" in p.message    # needs 10 cards, the hand holds 8


def test_max_hand_overrides_hand_plus_kitty(tmp_path):
    probs, _, _ = _compile_error(tmp_path, """
          single: "1"
          straight: "1{5..}"
    """, extra="max_hand: 4\n")
    only(probs, "combos.straight")


def test_two_identical_combos(tmp_path):
    probs, path, text = _compile_error(tmp_path, """
          single: "1"
          trio_hand: "3 + 1 | 3 + 2"
          again: {pattern: "3+2|3+1"}
    """)
    p = only(probs, "combos.again.pattern")
    assert "'again'" in p.message and "'trio_hand'" in p.message
    at(p, path, where(text, "3+2"))


def test_repeated_alternative(tmp_path):
    probs, path, text = _compile_error(tmp_path, """
          single: "1 | 2 | 1"
    """)
    p = only(probs, "combos.single")
    at(p, path, where(text, "1", nth=1))


@pytest.mark.parametrize("pattern,needle,fragment", [
    ("3 + 1 where distinc", "distinc", "did you mean 'distinct'?"),
    ("3 + 1 where frobnicate", "frobnicate", "known: distinct"),
    ("3 + 1 where jokers", "jokers", "needs a limit"),
    ("3 + 1 where distinct<=2", "distinct", "takes no limit"),
])
def test_constraint_errors(tmp_path, pattern, needle, fragment):
    probs, path, text = _compile_error(tmp_path, f'bad: "{pattern}"\n')
    p = only(probs, "combos.bad")
    at(p, path, where(text, needle))
    assert fragment in p.message


@pytest.mark.parametrize("pattern,needle,fragment", [
    ("5", "5", "at most 4"),                       # one deck holds 4 of a rank
    ("3 + 5", "+", "at most 4"),
    ("3 + 1*0", "+", "at least one group"),
    ("<XXD>", "XXD", "more cards than the deck"),
    ("<3Q>", "Q>", None),                          # valid literal: no error expected (control)
    ("<X?D>", "?", "'?'"),
    ("1{5..} in A..3", "A..", "empty rank range"),
    ("2{3..} in X..D", "2{", "never be formed"),
    ("1{5..3}", "1{", "5..3"),
    ("4..2", "4..", "4..2"),
])
def test_impossible_shapes(tmp_path, pattern, needle, fragment):
    path, text = write(tmp_path, "s.yaml", f'name: s\ncombos:\n  bad: "{pattern}"\n')
    if fragment is None:
        load_variant(path)
        return
    p = only(problems_of(load_variant, path), "combos.bad")
    at(p, path, where(text, needle))
    assert fragment in p.message


def test_bomb_class_that_is_no_combo(tmp_path):
    probs, path, text = _compile_error(tmp_path, """
          bomb: "4"
          rocket: "<XD>"
    """, extra="bombs: [bomb, rokcet]\n")
    p = only(probs, "bombs.1")
    assert "'rokcet'" in p.message and "did you mean 'rocket'?" in p.message
    assert same_file(p.location, path)
    assert p.location.line == where(text, "rokcet")[0]


@pytest.mark.parametrize("extra,combos", [
    # a chain whose rank bounds hold no card of the deck
    ("deck: {jokers: false}\n", 'odd: "1{1..} in X..D"\n'),
    # default chain ranks written high to low
    ("chain_ranks: A..3\n", 'straight: "1{5..}"\n'),
])
def test_empty_chain_ranks_are_a_compile_error_not_a_crash(tmp_path, extra, combos):
    probs, path, _ = _compile_error(tmp_path, combos, extra=extra)
    assert all(same_file(p.location, path) for p in probs)


def test_every_compile_problem_at_once(tmp_path):
    probs, _, _ = _compile_error(tmp_path, """
          a: "1 in 3..Z"
          b: "3 + 1 where bogus"
          c: "5"
    """)
    assert {p.path for p in probs} == {"combos.a", "combos.b", "combos.c"}


# ---------------------------------------------------------------- content hash


def test_content_hash_is_stable(tmp_path):
    path, text = write(tmp_path, "s.yaml", MINIMAL)
    h = load_spec(path).content_hash
    assert h == load_spec(path).content_hash
    assert len(h) == 64 and int(h, 16) >= 0
    # comments and layout are not rules
    path.write_text("# a comment\n" + text.replace("combos:", "combos:   # the plays"), encoding="utf-8")
    assert load_spec(path).content_hash == h


@pytest.mark.parametrize("old,new", [
    ('straight: "1{5..}"', 'straight: "1{6..}"'),
    ('  rocket: "<XD>"\n', ""),
    ("bombs: [bomb, rocket]", "bombs: [rocket, bomb]"),
    ("kitty: 3", "kitty: 4"),
    ("name: tiny", "name: tiny2"),
])
def test_content_hash_changes_with_the_rules(tmp_path, old, new):
    path, text = write(tmp_path, "s.yaml", MINIMAL)
    before = load_spec(path).content_hash
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")
    assert load_spec(path).content_hash != before


def test_content_hash_follows_the_parent(tmp_path):
    base, base_text = write(tmp_path, "base.yaml", MINIMAL)
    child, _ = write(tmp_path, "child.yaml", "name: child\nextends: base.yaml\n")
    before = load_spec(child).content_hash
    base.write_text(base_text.replace('"1{5..}"', '"1{6..}"'), encoding="utf-8")
    assert load_spec(child).content_hash != before


# ---------------------------------------------------------------- disk cache


def _straights(max_len: int, min_len: int) -> int:
    # chains of singles within 3..A (12 ranks)
    return sum(12 - n + 1 for n in range(min_len, max_len + 1))


def _files(d: Path) -> set[Path]:
    """The table files of a cache directory (not its ``key``)."""
    return {p for p in d.rglob("*.json") if p.is_file()} if d.exists() else set()


def test_cache_dir_is_used(tmp_path, cache):
    path, _ = write(tmp_path, "s.yaml", MINIMAL)
    load_variant(path).census()
    assert _files(cache), "the table is stored under DDZRULES_CACHE_DIR"


def test_cache_never_serves_a_stale_table(tmp_path, cache):
    path, text = write(tmp_path, "s.yaml", MINIMAL)
    first = load_variant(path).census()
    assert first.by_combo["straight"] == _straights(12, 5) == 36
    assert first.by_combo["rocket"] == 1
    # same file, same name, different rules
    path.write_text(text.replace('"1{5..}"', '"1{6..}"').replace('  rocket: "<XD>"\n', "")
                    .replace("[bomb, rocket]", "[bomb]"), encoding="utf-8")
    second = load_variant(path)
    census = second.census()
    assert census.by_combo["straight"] == _straights(12, 6) == 28
    assert "rocket" not in census.by_combo
    assert second.classify("34567") == ()
    assert second.classify("XD") == ()
    # and back: the first table is right again
    path.write_text(text, encoding="utf-8")
    again = load_variant(path)
    assert again.census() == first
    assert [m.combo for m in again.classify("34567")] == ["straight"]


def test_cache_rejects_a_table_of_other_rules(tmp_path, cache):
    """A cache file that holds another spec's table (copied, or a hash collision of
    the file name) is not served."""
    path, text = write(tmp_path, "s.yaml", MINIMAL)
    load_variant(path).census()
    (first_file,) = _files(cache)
    path.write_text(text.replace('"1{5..}"', '"1{6..}"'), encoding="utf-8")
    load_variant(path).census()
    (second_file,) = _files(cache) - {first_file}
    shutil.copyfile(first_file, second_file)            # the second name, the first table
    with pytest.warns(CacheWarning, match="rebuilding"):
        census = load_variant(path).census()
    assert census.by_combo["straight"] == 28
    assert load_variant(path).classify("34567") == ()


@pytest.mark.parametrize("junk", [b"", b"not a pickle", b"\x80\x05K\x01."])
def test_corrupt_cache_files_are_ignored(tmp_path, cache, junk):
    path, _ = write(tmp_path, "s.yaml", MINIMAL)
    expected = load_variant(path).census()
    for f in _files(cache):
        f.write_bytes(junk)
    with pytest.warns(CacheWarning, match="rebuilding"):
        assert load_variant(path).census() == expected


def test_unwritable_cache_dir_is_no_error(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    monkeypatch.setenv("DDZRULES_CACHE_DIR", str(blocker / "sub"))
    path, _ = write(tmp_path, "s.yaml", MINIMAL)
    assert load_variant(path).census().by_combo["straight"] == 36


def test_no_cache_env(tmp_path, cache, monkeypatch):
    monkeypatch.setenv("DDZRULES_NO_CACHE", "1")
    path, _ = write(tmp_path, "s.yaml", MINIMAL)
    assert load_variant(path).census().by_combo["single"] == 15
    assert not _files(cache)


def test_bundled_census_matches_from_scratch(hubei, tmp_path, monkeypatch):
    """The session's (possibly cached) table equals one built with no cache."""
    monkeypatch.setenv("DDZRULES_NO_CACHE", "1")
    fresh = ddzrules.load_variant("hubei-3p")
    assert fresh.census() == hubei.census()
    assert fresh.universe() == hubei.universe()
    assert os.environ["DDZRULES_NO_CACHE"] == "1"


def test_combinatorial_check_of_a_small_spec(tmp_path, cache):
    """Counts of a tiny spec, derived by hand: trio + single has 13 trio ranks and
    14 other single ranks; four + two distinct pairs has 13 × C(12, 2)."""
    path, _ = write(tmp_path, "s.yaml", """
        name: s
        combos:
          trio_single: "3 + 1"
          four_pairs: "4 + 2*2 where distinct"
          pair_or_joker: "2 | <X> | <D>"
    """)
    census = load_variant(path).census()
    assert census.by_combo == {"trio_single": 13 * 14, "four_pairs": 13 * comb(12, 2),
                               "pair_or_joker": 13 + 2}


def test_two_decks(tmp_path, cache):
    """二副牌 (digest A2): bombs of 4 to 8 cards, more cards beat fewer, equal size by
    rank; the rocket is all four jokers."""
    path, _ = write(tmp_path, "s.yaml", """
        name: two-decks
        deck: {decks: 2, jokers: true}
        players: 4
        deal: {hand: 25, kitty: 8}
        combos:
          single: "1"
          pair: "2"
          bomb: {pattern: "4..8", compare: [size, rank]}
          rocket: "<XXDD>"
        bombs: [bomb, rocket]
    """)
    v = load_variant(path)
    census = v.census()
    assert census.by_combo == {"single": 15, "pair": 15, "bomb": 13 * 5, "rocket": 1}
    assert [(m.combo, m.size) for m in v.classify("88888888")] == [("bomb", 8)]
    assert [m.combo for m in v.classify("XX")] == ["pair"]
    assert [m.combo for m in v.classify("XXDD")] == ["rocket"]
    assert v.classify("888888888") == ()
    assert v.beats("33333", "2222")          # more cards beat fewer
    assert v.beats("22222", "AAAAA")         # equal size: by rank
    assert not v.beats("2222", "33333")
    assert v.beats("XXDD", "22222222")
    assert v.legal_moves("88888888").moves  # a hand may hold 8 of a rank
