"""``ddzrules validate`` is one pass: no problem hides another. A missing parent still
leaves the child's own keys and patterns checked; a schema failure in one section still
leaves the other sections' checks (unknown bomb classes, unknown plugins, parameter
types) to run; and no check reports what only a stand-in for a broken part would cause."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ddzrules.cli import main
from ddzrules.errors import Problem
from ddzrules.lint import validate_spec

#: one problem of each kind the checks after the schema find, each on a line of its own
EACH_KIND = """
    name: house
    extends: {parent}
    players: three
    combos:
      straigth: "1{{5..}} in 3..2"
      pair_chain: {{pattern: "2{{3.."}}
      trio_chain: {{pattern: "3{{2..}} in 3..Z"}}
      plane: null
    bombs: [bomb, rocket, nuke]
    game:
      landlord:
        plugin: point-bid
      settlement:
        plugin: stake-settlement
        params: {{per_farmer: lots}}
"""

#: code -> (the text on its line, the column, the message, exactly as each check words it)
EXPECTED: dict[str, tuple[str, int, str]] = {
    "schema": ("players: three", 10, "'three' is a string; this key takes a whole number"),
    "pattern-syntax": ("pair_chain", 31, "pattern syntax: pattern ends too early; expected '}', a number"),
    "unknown-rank": ("trio_chain", 39, "unknown rank 'Z' (ranks are 3-9, 10/T, J, Q, K, A, 2, X, D)"),
    "missing-removal": ("plane: null", 3,
                        "removes 'plane', which the parent does not have (did you mean 'plane_wings'?)"),
    "unknown-bomb": ("bombs:", 23, "bomb class 'nuke' is not a combo of this spec"),
    "unknown-plugin": ("plugin: point-bid", 13, ("unknown plugin 'point-bid' (did you mean 'point-bids'?); "
                                                 "installed: ")),
    "plugin-params": ("per_farmer", 26, "plugin 'stake-settlement': 'lots' is a string; this key takes a number"),
    "close-to-inherited": ("straigth", 3, ("new combo 'straigth' is close to the inherited combo "
                                           "'straight': did you mean 'straight'?")),
}


def write(path: Path, text: str) -> Path:
    path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return path


def line_of(path: Path, needle: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if needle in line)


def run(*args: str) -> Any:
    return CliRunner().invoke(main, list(args))


def by_code(findings: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for f in findings:
        out.setdefault(f["code"], []).append(f)
    return out


def check(path: Path, found: dict[str, list[dict[str, Any]]], codes: list[str]) -> None:
    """Each of ``codes`` found once, at its line and column of ``path``, worded as before."""
    for code in codes:
        assert len(found.get(code, [])) == 1, (code, found)
        (f,) = found[code]
        needle, column, message = EXPECTED[code]
        assert Path(f["file"]).name == path.name, (code, f)
        assert (f["line"], f["column"]) == (line_of(path, needle), column), (code, f)
        assert f["message"].startswith(message), (code, f["message"])


def findings_of(problems: list[Problem]) -> dict[str, list[dict[str, Any]]]:
    return by_code([{"file": p.location.file if p.location else None,
                     "line": p.location.line if p.location else None,
                     "column": p.location.column if p.location else None,
                     "code": p.code, "message": p.message} for p in problems])


def test_one_problem_of_each_kind_in_one_run(tmp_path: Path) -> None:
    spec = write(tmp_path / "house.yaml", EACH_KIND.format(parent="hubei-3p"))
    result = run("validate", str(spec), "--json")
    assert result.exit_code == 1 and "Traceback" not in result.output
    (report,) = json.loads(result.stdout)
    assert report["ok"] is False
    found = by_code(report["findings"])
    check(spec, found, list(EXPECTED))
    assert set(found) == set(EXPECTED)  # nothing a stand-in for the broken players: would cause
    assert found["close-to-inherited"][0]["severity"] == "warning"
    assert len(report["problems"]) == len(report["findings"]) == len(EXPECTED)
    # the API the command uses finds the same
    api = validate_spec(str(spec))
    assert findings_of(api.findings).keys() == found.keys()
    check(spec, findings_of(api.findings), list(EXPECTED))


def test_text_output_lists_each_at_file_line_col(tmp_path: Path) -> None:
    spec = write(tmp_path / "house.yaml", EACH_KIND.format(parent="hubei-3p"))
    result = run("validate", str(spec))
    assert result.exit_code == 1 and "Traceback" not in result.output
    for code, (needle, column, message) in EXPECTED.items():
        assert f"house.yaml:{line_of(spec, needle)}:{column}: " in result.stderr, code
        assert message in result.stderr, code


def test_missing_parent_still_checks_the_childs_own_keys_and_patterns(tmp_path: Path) -> None:
    """A parent given as a path (never guessed) that is not there: the child's schema,
    patterns and plugin entries are still checked; what the parent could settle (a bomb
    class it may define, a removal of its key, a deal against its deck) is not reported."""
    spec = write(tmp_path / "orphan.yaml", EACH_KIND.format(parent="./gone.yaml"))
    result = run("validate", str(spec), "--json")
    assert result.exit_code == 1 and "Traceback" not in result.output
    (report,) = json.loads(result.stdout)
    found = by_code(report["findings"])
    (missing,) = found.pop("missing-parent")
    assert (missing["line"], missing["column"], missing["path"]) == (line_of(spec, "extends"), 1, "extends")
    assert missing["message"].startswith("parent './gone.yaml': no spec file './gone.yaml'")
    own = ["schema", "pattern-syntax", "unknown-rank", "unknown-plugin", "plugin-params"]
    check(spec, found, own)
    assert set(found) == set(own)
    api = validate_spec(str(spec))
    assert set(findings_of(api.findings)) == set(own) | {"missing-parent"}


def test_missing_parent_reports_only_pattern_findings(tmp_path: Path) -> None:
    """Checked without its parent's deck, a combo that needs more cards than the default
    deck holds, or that is too large for the default hand, may be right: not reported;
    a pattern's own mistakes are."""
    spec = write(tmp_path / "o.yaml", """
        name: o
        extends: ./gone.yaml
        combos:
          five: "5"
          long: "1{5..} + 1*n + 1*n + 1*n + 1*n + 1*n where distinct"
          bad: "3 + 1 where distinctt"
        bombs: [five, nuke]
    """)
    report = validate_spec(str(spec))
    errors = [(p.code, p.path, p.message) for p in report.errors]
    assert errors[0][0] == "missing-parent"
    assert [e[:2] for e in errors[1:]] == [("compile", "combos.bad")]
    assert errors[1][2].startswith("unknown constraint 'distinctt'")


def test_schema_failure_in_the_deck_hides_no_other_section(tmp_path: Path) -> None:
    """A broken deck: is left out (the parent's stands in); the bomb classes, the
    plugins and their parameters are still checked, the patterns' own mistakes too, and
    nothing that only the stand-in deck would cause (the deal, a combo's card counts)."""
    spec = write(tmp_path / "deck.yaml", """
        name: deck
        extends: hubei-3p
        deck: {decks: two}
        deal: {hand: 25, kitty: 8}
        combos:
          five: "5"
          trio_chain: {pattern: "3{2..} in 3..Z"}
        bombs: [bomb, rocket, five, nuke]
        game:
          landlord:
            plugin: point-bids
            params: {bids: many}
          multipliers:
            - plugin: spring
              params: {spring: 2, anti_sprin: 2}
    """)
    result = run("validate", str(spec), "--json")
    assert result.exit_code == 1
    (report,) = json.loads(result.stdout)
    got = sorted((f["code"], f["path"], f["line"]) for f in report["findings"])
    assert got == sorted([
        ("schema", "deck.decks", 3),
        ("unknown-rank", "combos.trio_chain.pattern", line_of(spec, "trio_chain")),
        ("unknown-bomb", "bombs.3", line_of(spec, "bombs:")),
        ("plugin-params", "game.landlord.params.bids", line_of(spec, "bids: many")),
        ("plugin-params", "game.multipliers.0.params.anti_sprin", line_of(spec, "anti_sprin")),
    ]), got
    messages = {f["path"]: f["message"] for f in report["findings"]}
    assert messages["game.landlord.params.bids"] == "plugin 'point-bids': 'many' is a string; this key takes a list"
    assert messages["game.multipliers.0.params.anti_sprin"] == \
        "plugin 'spring' has no parameter 'anti_sprin' (did you mean 'anti_spring'?)"


def test_a_missing_name_hides_nothing(tmp_path: Path) -> None:
    spec = write(tmp_path / "noname.yaml", """
        extends: hubei-3p
        combos:
          trio_chain: {pattern: "3{2..} in 3..Z"}
        bombs: [bomb, nuke]
        game:
          landlord: {plugin: point-bid}
    """)
    codes = sorted(p.code for p in validate_spec(str(spec)).errors)
    assert codes == ["schema", "unknown-bomb", "unknown-plugin", "unknown-rank"]


def test_a_deal_that_does_not_add_up_hides_no_plugin(tmp_path: Path) -> None:
    """The runtime stops at a deal that does not fit the deck, before the plugins: each
    plugin entry is still checked on its own."""
    spec = write(tmp_path / "deal.yaml", """
        name: deal
        extends: hubei-3p
        deal: {hand: 10, kitty: 3}
        game:
          landlord:
            plugin: point-bids
            params: {bids: many}
          leader: {plugin: first-leaderr}
    """)
    found = {p.code: p for p in validate_spec(str(spec)).errors}
    assert sorted(found) == ["game", "plugin-params", "unknown-plugin"]
    assert found["game"].message.startswith("3 hands of 10, a kitty of 3 and 0 undealt do not make the "
                                            "54-card deck")
    assert found["unknown-plugin"].location is not None
    assert found["unknown-plugin"].location.line == line_of(spec, "first-leaderr")


def test_combos_not_a_mapping(tmp_path: Path) -> None:
    """The child's combos: broken whole: the bomb classes naming them are not reported
    as unknown (they may well be in it), the plugins still are checked."""
    spec = write(tmp_path / "list.yaml", """
        name: list
        extends: hubei-3p
        combos: [single, pair]
        bombs: [bomb, rocket, quad]
        game:
          landlord: {plugin: point-bid}
    """)
    codes = sorted(p.code for p in validate_spec(str(spec)).errors)
    assert codes == ["schema", "unknown-plugin"]


def test_broken_bomb_classes_keep_their_places(tmp_path: Path) -> None:
    """A bomb class that is not a name and one naming a broken combo are left out of the
    compile; an unknown one after them is reported at its own place."""
    spec = write(tmp_path / "bombs.yaml", """
        name: bombs
        extends: hubei-3p
        combos:
          pair: {pattern: "2", zh: 5}
        bombs: [pair, 7, nuke, bomb]
    """)
    got = sorted((p.code, p.path, p.location.column if p.location else 0)
                 for p in validate_spec(str(spec)).errors)
    assert got == [("schema", "bombs.1", 15), ("schema", "combos.pair.zh", 28), ("unknown-bomb", "bombs.2", 18)]


def test_a_broken_plugin_entry_leaves_the_others_checked(tmp_path: Path) -> None:
    spec = write(tmp_path / "entry.yaml", """
        name: entry
        extends: hubei-3p
        game:
          landlord: {plugin: point-bids, param: {bids: [1]}}
          settlement:
            plugin: stake-settlement
            params: {per_farmer: lots}
    """)
    got = sorted((p.code, p.path) for p in validate_spec(str(spec)).errors)
    assert got == [("plugin-params", "game.settlement.params.per_farmer"), ("schema", "game.landlord")]


@pytest.mark.parametrize("parent", ["hubei-3p", "./gone.yaml"])
def test_json_lists_every_finding_of_several_specs(tmp_path: Path, parent: str) -> None:
    one = write(tmp_path / "one.yaml", EACH_KIND.format(parent=parent))
    two = write(tmp_path / "two.yaml", "name: two\nextends: hubei-3p\nbombs: [bomb, nuke]\n")
    result = run("validate", str(one), str(two), "--json")
    assert result.exit_code == 1
    reports = {Path(r["spec"]).name: r for r in json.loads(result.stdout)}
    assert len(reports["one.yaml"]["findings"]) == (len(EXPECTED) if parent == "hubei-3p" else 6)
    assert [f["code"] for f in reports["two.yaml"]["findings"]] == ["unknown-bomb"]
    for r in reports.values():
        for f in r["findings"]:
            assert set(f) == {"file", "line", "column", "path", "severity", "code", "message", "hint"}
            assert f["line"] >= 1 and f["column"] >= 1


def test_a_sound_spec_still_passes(tmp_path: Path) -> None:
    spec = write(tmp_path / "fine.yaml", """
        name: fine
        extends: hubei-3p
        combos:
          trio_chain: {pattern: "3{2..} in 3..K"}
    """)
    result = run("validate", str(spec))
    assert result.exit_code == 0, result.output
    assert "ok  " in result.stdout
