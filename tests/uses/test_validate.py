"""``ddzrules validate`` in one pass: every problem of a spec in one run, each at its
line with a code, warnings for likely mistakes, ``--strict``, ``schema`` and ``new``."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from ddzrules.cli import main
from ddzrules.lint import validate_spec
from ddzrules.spec import bundled_names


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def write(path: Path, text: str) -> Path:
    path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return path


def line_of(path: Path, needle: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if needle in line)


#: a misspelt combo key, a pattern syntax error, an unknown rank, a misspelt plugin
FOUR_MISTAKES = """
    name: house
    extends: {parent}
    combos:
      straigth: "1{{5..}} in 3..2"
      pair_chain: {{pattern: "2{{3.."}}
      trio_chain: {{pattern: "3{{2..}} in 3..Z"}}
    game:
      landlord:
        plugin: point-bid
"""


@pytest.fixture
def five_mistakes(tmp_path: Path) -> tuple[Path, Path]:
    child = write(tmp_path / "house.yaml", FOUR_MISTAKES.format(parent="hubei-3p"))
    orphan = write(tmp_path / "orphan.yaml", """
        name: orphan
        extends: hubei-3pp
    """)
    return child, orphan


def test_five_mistakes_in_one_run(five_mistakes: tuple[Path, Path]) -> None:
    child, orphan = five_mistakes
    result = run("validate", str(child), str(orphan), "--json")
    assert result.exit_code == 1
    by_spec = {r["spec"]: r for r in json.loads(result.stdout)}
    found = {f["code"]: f for f in by_spec[str(child)]["findings"]}
    assert found["close-to-inherited"]["severity"] == "warning"
    assert found["close-to-inherited"]["line"] == line_of(child, "straigth")
    assert "did you mean 'straight'" in found["close-to-inherited"]["message"]
    assert found["pattern-syntax"]["line"] == line_of(child, "pair_chain")
    assert found["unknown-rank"]["line"] == line_of(child, "trio_chain")
    assert found["unknown-plugin"]["severity"] == "error"
    assert found["unknown-plugin"]["line"] == line_of(child, "plugin: point-bid")
    assert "did you mean 'point-bids'?" in found["unknown-plugin"]["message"]
    missing = by_spec[str(orphan)]["findings"]
    assert missing[0]["code"] == "missing-parent" and missing[0]["line"] == 2
    assert "did you mean 'hubei-3p'" in missing[0]["message"]
    for f in [*found.values(), *missing]:
        assert set(f) == {"file", "line", "column", "path", "severity", "code", "message", "hint"}


def test_five_mistakes_in_one_file(tmp_path: Path) -> None:
    """The parent's name misspelt too: the run goes on against the bundled spec it is a
    near miss of (and says so), so the other four mistakes are still reported."""
    spec = write(tmp_path / "all.yaml", FOUR_MISTAKES.format(parent="hubei-3pp"))
    report = validate_spec(str(spec))
    at = {p.code: p for p in report.findings}
    assert at["missing-parent"].location.line == line_of(spec, "extends")  # type: ignore[union-attr]
    assert "checked as if it extended 'hubei-3p'" in at["missing-parent"].hint
    for code, needle in (("close-to-inherited", "straigth"), ("pattern-syntax", "pair_chain"),
                         ("unknown-rank", "trio_chain"), ("unknown-plugin", "plugin: point-bid")):
        assert at[code].location.line == line_of(spec, needle), code  # type: ignore[union-attr]
    assert at["close-to-inherited"].severity == "warning" and report.errors
    # a parent given as a path is never guessed
    other = write(tmp_path / "path.yaml", "name: p\nextends: ./hubei-3pp.yaml\n")
    assert [p.code for p in validate_spec(str(other)).findings] == ["missing-parent"]


def test_misspelt_plugin_beside_broken_combos(five_mistakes: tuple[Path, Path]) -> None:
    child, _ = five_mistakes
    report = validate_spec(str(child))
    codes = {p.code for p in report.findings}
    assert {"pattern-syntax", "unknown-rank", "close-to-inherited"} <= codes
    plugin = [p for p in report.findings if p.code in ("unknown-plugin", "plugin-error")]
    # the plugins are checked even though combos are broken: the misspelt one at its line
    assert [p.code for p in plugin] == ["unknown-plugin"]
    assert plugin[0].severity == "error"
    assert plugin[0].location is not None and plugin[0].location.file == str(child)
    assert plugin[0].location.line == line_of(child, "plugin: point-bid")
    assert "'point-bid'" in plugin[0].message and "did you mean 'point-bids'?" in plugin[0].message


def test_text_output_has_every_line(five_mistakes: tuple[Path, Path]) -> None:
    child, orphan = five_mistakes
    result = run("validate", str(child), str(orphan))
    assert result.exit_code == 1 and "Traceback" not in result.output
    for needle in ("straigth", "pair_chain", "trio_chain"):
        assert f"{child.name}:{line_of(child, needle)}:" in result.stderr
    assert f"{orphan.name}:2:1" in result.stderr
    assert "warning:" in result.stderr


def test_schema_and_patterns_in_one_run(tmp_path: Path) -> None:
    spec = write(tmp_path / "s.yaml", """
        name: s
        playrs: 3
        combos:
          single: "1"
          pair: "2 + wher"
    """)
    codes = {p.code for p in validate_spec(str(spec)).findings}
    assert {"schema", "pattern-syntax"} <= codes


def test_child_caused_problem_is_reported_at_the_child(tmp_path: Path) -> None:
    spec = write(tmp_path / "nojoker.yaml", """
        name: nojoker
        extends: hubei-3p
        deck: {jokers: false}
    """)
    errors = [e for e in validate_spec(str(spec)).errors if e.code != "plugin-error"]
    assert errors
    p = errors[0]
    assert p.location is not None and p.location.file.endswith("nojoker.yaml") and p.location.line == 3
    assert "hubei-3p (bundled) specs/hubei-3p.yaml:" in p.message
    assert "rocket: null" in p.hint and "bombs:" in p.hint


def test_removed_bomb_class_hint(tmp_path: Path) -> None:
    spec = write(tmp_path / "norocket.yaml", """
        name: norocket
        extends: hubei-3p
        combos:
          rocket: null
    """)
    p = next(e for e in validate_spec(str(spec)).errors if e.code == "unknown-bomb")
    assert p.location is not None and p.location.line == 4
    assert p.hint == "restate the bomb classes in this spec: bombs: [bomb]"


def test_strict_makes_warnings_fail(tmp_path: Path) -> None:
    spec = write(tmp_path / "w.yaml", """
        name: w
        extends: hubei-3p
        combos:
          straigth: "1{5..} in 3..2"
    """)
    assert run("validate", str(spec)).exit_code in (0, 1)
    report = validate_spec(str(spec))
    assert report.ok() or report.errors
    assert not report.ok(strict=True)


def test_same_cards_and_empty_combo_warnings(tmp_path: Path) -> None:
    spec = write(tmp_path / "w.yaml", """
        name: w
        combos:
          single: "1"
          solo: "1 in 3..5"
          huge: "1{12..}"
    """)
    codes = {p.code for p in validate_spec(str(spec)).warnings}
    assert "same-cards" in codes


def test_unknown_reading_comment(tmp_path: Path) -> None:
    spec = write(tmp_path / "r.yaml", """
        name: r
        readings:
          kept: Something.
        combos:
          single: "1"   # reading: keptt
    """)
    warnings = validate_spec(str(spec)).warnings
    assert [w.code for w in warnings] == ["unknown-reading"]
    assert "did you mean 'kept'" in warnings[0].message


@pytest.mark.parametrize("name", bundled_names())
def test_no_bundled_spec_warns(name: str) -> None:
    report = validate_spec(name)
    assert not report.warnings, [str(w) for w in report.warnings]
    assert not [p for p in report.errors if p.code != "plugin-error"], [str(p) for p in report.errors]


def test_schema_command() -> None:
    result = run("schema")
    assert result.exit_code == 0
    assert json.loads(result.stdout)["properties"]["combos"]


def test_new_command_validates(tmp_path: Path) -> None:
    out = tmp_path / "mine.yaml"
    result = run("new", "mine", "--extends", "hubei-3p", "-o", str(out))
    assert result.exit_code == 0, result.output
    text = out.read_text()
    assert "extends: hubei-3p" in text and "point-bids" in text and "null" in text
    report = validate_spec(str(out))
    assert not report.warnings
    assert not [p for p in report.errors if p.code != "plugin-error"]


@pytest.mark.parametrize("removed", [["single"], ["single", "pair", "trio", "trio_with_hand", "straight",
                                                  "pair_chain", "trio_chain", "plane_wings", "four_with_two",
                                                  "bomb", "rocket"]])
def test_a_played_spec_must_play_every_single_card(tmp_path: Path, removed: list[str]) -> None:
    """A spec without singles validated, then a game crashed when a hand could neither lead
    nor pass (`empty range for randrange()`, `max() arg is an empty sequence`)."""
    spec = tmp_path / "nosingle.yaml"
    nulls = ", ".join(f"{name}: null" for name in removed)
    bombs = "\nbombs: []" if "bomb" in removed else ""
    spec.write_text(f"name: nosingle\nextends: hubei-3p\ncombos: {{{nulls}}}{bombs}\n", encoding="utf-8")
    report = validate_spec(str(spec))
    (problem,) = report.errors
    assert problem.location is not None and (problem.location.line, problem.location.column) == (3, 9)
    assert "no combo plays the single card" in problem.message and "3, 4, 5" in problem.message
    for args in (["simulate", str(spec), "--games", "2"], ["play", str(spec), "--auto"]):
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 1 and "no combo plays the single card" in result.output, result.output
        assert "Traceback" not in result.output
