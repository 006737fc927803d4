"""The command line: every command in text and --json form, and bad input that
exits 1 with a clear message and no traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from importlib import import_module
from typing import IO

import pytest
import yaml
from click.testing import CliRunner
from interrupt import interrupt
from reference_data import readme_table

from ddzrules import cli, load_spec
from ddzrules.cli import main
from ddzrules.spec import bundled_names


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def ok(*args: str) -> str:
    result = run(*args)
    assert result.exit_code == 0, result.output
    assert result.exception is None
    return result.output


def ok_json(*args: str):
    result = run(*args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def fails(*args: str) -> str:
    """Exit 1, a message, no traceback; returns stderr."""
    result = run(*args)
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    assert result.stderr.strip(), "the message goes to stderr"
    return result.stderr


@pytest.fixture
def broken_spec(tmp_path):
    path = tmp_path / "broken.yaml"
    path.write_text(textwrap.dedent("""\
        name: broken
        playrs: 3
        combos:
          single: "1"
          pair: "2 + wher"
    """), encoding="utf-8")
    return path


@pytest.fixture
def bad_pattern_spec(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text('name: bad\ncombos:\n  single: "1"\n  pair: "2 + wher"\n', encoding="utf-8")
    return path


# ------------------------------------------------------------------ list, validate, show


def test_help():
    out = ok("--help")
    for command in ("list", "validate", "show", "census", "classify", "compare", "moves"):
        assert command in out


def test_help_lists_lazy_commands_without_importing_them():
    """`ddzrules --help` shows the other modules' commands from cli._LAZY_COMMANDS, so
    it imports none of those modules; the help there is each command's own."""
    lazy = sorted({f"ddzrules.cli.{module}" for module, _ in cli._LAZY_COMMANDS.values()})
    probe = ("import sys; from ddzrules.cli import main; main(['--help'], standalone_mode=False); "
             f"print(sorted(m for m in sys.modules if m in {lazy!r}))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert out.splitlines()[-1] == "[]"
    for name in ("play", "diff", "sheet", "conformance"):
        assert f"  {name} " in out
    for name, (module, short) in cli._LAZY_COMMANDS.items():
        import_module(f"ddzrules.cli.{module}")
        assert main.commands[name].get_short_help_str(10_000) == short, name


def test_python_m_ddzrules_is_the_command():
    """`python -m ddzrules` runs the command (where its console script is not on the PATH):
    the same answers, and bad input refused the same way (exit 1, no traceback)."""
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "ddzrules", *args], check=False, capture_output=True, text=True,
                              timeout=120, env={**os.environ, "COLUMNS": "100"})

    good = run("classify", "hubei-3p", "334455")
    assert good.returncode == 0, good.stderr
    assert good.stdout == ok("classify", "hubei-3p", "334455")
    assert "Usage: python -m ddzrules" in run("--help").stdout
    bad = run("classify", "hubei-3p", "3Z")
    assert bad.returncode == 1
    assert "unknown card 'Z'" in bad.stderr and "Traceback" not in bad.stderr


def test_ctrl_c_stops_a_command_with_one_line_and_130():
    """Ctrl-C in a command with no handler of its own (a batch waiting for its next line):
    one line and 130, the shell's status for SIGINT (click printed `Aborted!` and exited 1,
    the status of refused input)."""
    def answered_once(stdin: IO[str], stdout: IO[str]) -> None:
        stdin.write('{"cards": "33"}\n')
        stdin.flush()
        assert '"combo":"pair"' in stdout.readline()  # answered: now waiting for the next line

    code, out, err = interrupt(["classify", "hubei-3p", "--batch", "-"], answered_once)
    assert code == 130, err
    assert err.splitlines() == ["interrupted by SIGINT: classify stopped"]
    assert out == ""


def test_ctrl_c_names_the_command_it_stopped():
    """A nested command is named whole ("conformance run" was said as "conformance")."""
    import click

    @click.group()
    def top() -> None: ...

    @top.group()
    def outer() -> None: ...

    @outer.command()
    @cli.user_errors
    def inner() -> None:
        raise KeyboardInterrupt

    r = CliRunner().invoke(top, ["outer", "inner"], prog_name="ddzrules")
    assert r.exit_code == 130
    assert r.output.splitlines() == ["interrupted by SIGINT: outer inner stopped"]


def test_list():
    out = ok("list")
    for name in ("hubei-3p", "compat/rlcard", "compat/douzero"):
        assert name in out


def test_list_json():
    rows = ok_json("list")
    assert [r["name"] for r in rows] == bundled_names()
    by_name = {r["name"]: r for r in rows}
    assert by_name["compat/rlcard"]["extends"] == "compat/douzero"
    assert by_name["hubei-3p"]["extends"] is None
    assert by_name["hubei-3p"]["zh"].startswith("湖北")


def test_validate_bundled():
    out = ok("validate", "hubei-3p", "compat/rlcard", "compat/douzero")
    assert out.count("ok") >= 3


def test_validate_json():
    results = ok_json("validate", "hubei-3p", "compat/rlcard")
    assert [r["spec"] for r in results] == ["hubei-3p", "compat/rlcard"]
    assert all(r["ok"] and r["problems"] == [] for r in results)
    assert results[0]["combos"] == len(load_spec("hubei-3p").data["combos"])


def test_validate_broken_file(broken_spec):
    err = fails("validate", str(broken_spec))
    # schema problems are found before the patterns are compiled
    assert f"{broken_spec.name}:2:1" in err
    assert "did you mean 'players'?" in err


def test_validate_bad_pattern(bad_pattern_spec):
    err = fails("validate", str(bad_pattern_spec))
    line = '  pair: "2 + wher"'
    assert f"{bad_pattern_spec.name}:4:{line.index('wher') + 1}: combos.pair:" in err
    assert line in err


def test_validate_json_broken(bad_pattern_spec):
    result = run("validate", "hubei-3p", str(bad_pattern_spec), "--json")
    assert result.exit_code == 1
    good, bad = json.loads(result.stdout)
    assert good["ok"] and not bad["ok"]
    assert any("combos.pair" in p for p in bad["problems"])


def test_validate_unknown_spec():
    err = fails("validate", "hubei-3pp")
    assert "no spec named 'hubei-3pp'" in err


def test_show_as_written():
    out = ok("show", "compat/rlcard")
    data = yaml.safe_load(out)
    assert data["extends"] == "compat/douzero"
    assert "trio_single" not in data["combos"]       # only the deltas


def test_show_resolved():
    out = ok("show", "compat/rlcard", "--resolved")
    assert "compat/douzero" in out.splitlines()[0]   # the chain it was resolved from
    data = yaml.safe_load(out)
    assert data == load_spec("compat/rlcard").data
    assert "trio_single" in data["combos"]


def test_show_resolved_json():
    assert ok_json("show", "compat/rlcard", "--resolved") == load_spec("compat/rlcard").data


def test_show_json():
    assert ok_json("show", "hubei-3p")["name"] == "hubei-3p"


#: a title that a terminal would show reordered (U+202E: right-to-left override; U+2066:
#: left-to-right isolate), with a zero-width joiner (an emoji's: no bidi control, kept)
BIDI_TITLE = "Hubei \u202eeliF\u2066 x\u200dy"


@pytest.mark.parametrize("args", [[], ["--resolved"], ["--json"], ["--resolved", "--json"]])
def test_show_writes_bidi_controls_as_escapes(tmp_path, args):
    # they were printed raw: the title read backwards on a terminal
    spec = tmp_path / "bidi.yaml"
    spec.write_text(f'name: bidi\nextends: hubei-3p\ntitle:\n  en: "{BIDI_TITLE}"\n', encoding="utf-8")
    out = ok("show", str(spec), *args)
    assert "\u202e" not in out and "\u2066" not in out
    assert "\\u202eeliF\\u2066 x\u200dy" in out
    if "--json" in args:  # an escape in a JSON string is the same character
        assert json.loads(out)["title"]["en"] == BIDI_TITLE


def test_show_writes_each_line_break_as_a_newline(tmp_path):
    """A lone carriage return is a line break to YAML; printed raw, the line after it was
    drawn over the one before ("title: x" hidden behind a comment)."""
    spec = tmp_path / "cr.yaml"
    spec.write_bytes(b'extends: hubei-3p\r\nname: cr\rtitle: {en: "x"}\r# a comment\n')
    out = ok("show", str(spec))
    assert "\r" not in out
    assert out.splitlines() == ["extends: hubei-3p", "name: cr", 'title: {en: "x"}', "# a comment"]
    assert load_spec(str(spec)).data["title"]["en"] == "x"  # what the loader reads: the same lines


def test_a_specs_control_characters_never_reach_the_terminal(tmp_path):
    """census, diff, plugins and sheet printed a spec's (or a plugin's) ESC and U+202E raw:
    every console line and table now writes them as escapes (cli.common._PlainOutput)."""
    spec = tmp_path / "e.yaml"
    spec.write_text('name: e\nextends: hubei-3p\nregion: "r\\e[31mX\\u202e"\n'
                    'combos:\n  single: {pattern: "1", zh: "\\e[31m单\\u202e"}\n', encoding="utf-8")
    plugin = tmp_path / "pl.py"
    plugin.write_text('from ddzrules.hookspecs import hookimpl\nclass P:\n    """doc \\x1b[31mred"""\n'
                      '    name = "p-\\x1b[31mx"\n    params_schema = {}\n    def __init__(self, params): pass\n'
                      '    @hookimpl\n    def ddzrules_on_play(self, game, seat, move, led): return []\n',
                      encoding="utf-8")
    runs = {"census": ["census", str(spec)], "diff": ["diff", "hubei-3p", str(spec)],
            "plugins": ["plugins", "--plugin", f"{plugin}:P"], "sheet": ["sheet", str(spec)]}
    for name, args in runs.items():
        result = CliRunner().invoke(main, args)
        assert result.exit_code in (0, 1), (name, result.output)  # diff: 1, the rule sets differ
        assert "\x1b" not in result.output and "\u202e" not in result.output, name
    assert "\\x1b[31m单\\u202e" in CliRunner().invoke(main, runs["census"]).output
    assert "p-\\x1b[31mx" in CliRunner().invoke(main, runs["plugins"]).output


def test_every_message_writes_bidi_controls_as_escapes(tmp_path):
    spec = tmp_path / "a\u202elmay.exe"  # shows as "aexe.yaml" when printed raw
    spec.write_text("name: bidi\nextends: hubei-3p\n", encoding="utf-8")
    out = ok("validate", str(spec))  # styled: "ok  PATH (N combos)"
    assert "\u202e" not in out and "a\\u202elmay.exe" in out
    from ddzrules.cli.common import plain as _plain
    from ddzrules.cli.common import styled

    assert _plain("x\u2067y\u202a") == "x\\u2067y\\u202a"
    assert styled("[bold]{}[/]", "\u2069").plain == "\\u2069"


# ------------------------------------------------------------------ census, classify, compare, moves


def test_census_text():
    out = ok("census", "compat/rlcard")
    assert "27,471" in out
    assert "plane_solos" in out


@pytest.mark.parametrize("name,column", [("compat/rlcard", 0), ("compat/douzero", 1)])
def test_census_json(name, column):
    tables = readme_table()
    data = ok_json("census", name)
    assert data["spec"] == name
    assert data["by_combo"] == tables[column]
    assert data["total"] == tables[2][column]
    assert data["hash"] == load_spec(name).content_hash


def test_classify_text():
    out = ok("classify", "hubei-3p", "333444+69")
    assert "33344469" in out and "plane_wings" in out


def test_classify_json():
    data = ok_json("classify", "hubei-3p", "333444+69")
    assert data["cards"] == "33344469"
    (r,) = data["readings"]
    assert (r["combo"], r["rank"], r["length"], r["size"], r["bomb"]) == ("plane_wings", "4", 2, 8, False)


def test_classify_bomb_json():
    (r,) = ok_json("classify", "hubei-3p", "大王小王")["readings"]
    assert r["combo"] == "rocket" and r["bomb"] is True


def test_classify_not_a_combo():
    out = ok("classify", "hubei-3p", "34")
    assert "not a combo" in out
    assert ok_json("classify", "hubei-3p", "34") == {"cards": "34", "readings": []}


def test_classify_several_readings_json():
    readings = ok_json("classify", "compat/douzero", "333444555666")["readings"]
    assert {(r["combo"], r["rank"]) for r in readings} == {("plane", "6"), ("plane_solos", "5"),
                                                           ("plane_solos", "6")}


@pytest.mark.parametrize("a,b,ab,ba", [
    ("2222", "XD", False, True),
    ("XD", "2222", True, False),
    ("45678", "34567", True, False),
    ("33", "444", False, False),
])
def test_compare_json(a, b, ab, ba):
    data = ok_json("compare", "hubei-3p", a, b)
    assert (data["a"], data["b"], data["a_beats_b"], data["b_beats_a"]) == (a, b, ab, ba)


def test_compare_text():
    assert "XD beats 2222" in ok("compare", "hubei-3p", "2222", "XD")
    assert "do not compare" in ok("compare", "hubei-3p", "33", "444")


def test_moves_json():
    data = ok_json("moves", "hubei-3p", "--hand", "3456789TT", "--after", "34567")
    assert data["hand"] == "3456789TT" and data["after"] == "34567"
    assert data["can_pass"] is True
    assert {m["cards"] for m in data["moves"]} == {"45678", "56789", "6789T"}


def test_moves_lead_json():
    data = ok_json("moves", "hubei-3p", "--hand", "33")
    assert data["after"] is None and data["can_pass"] is False
    assert {m["cards"] for m in data["moves"]} == {"3", "33"}


def test_moves_text():
    out = ok("moves", "hubei-3p", "--hand", "3456789TT", "--after", "34567")
    assert "3 legal play(s)" in out
    assert "6789T" in out


def test_moves_limit():
    out = ok("moves", "hubei-3p", "--hand", "33", "--limit", "1")
    assert "1 more" in out


def test_demo():
    out = ok("demo", "hubei-3p", "--seed", "3")
    assert "hubei-3p" in out


# ------------------------------------------------------------------ bad input


@pytest.mark.parametrize("args,fragment", [
    (["classify", "hubei-3p", "3Z3"], "unknown card 'Z'"),
    (["compare", "hubei-3p", "33", "4@"], "unknown card '@'"),
    (["moves", "hubei-3p", "--hand", "33x1"], "unknown card '1'"),
    (["moves", "hubei-3p", "--hand", "3456789", "--after", "3Q?"], "unknown card '?'"),
    (["compare", "hubei-3p", "34", "3"], "not a combo"),
    (["moves", "hubei-3p", "--hand", "3456", "--after", "34"], "not a combo"),
    (["moves", "hubei-3p", "--hand", "XX"], "only 1"),
    (["classify", "hubei-3pp", "33"], "no spec named 'hubei-3pp'"),
    (["census", "nope"], "no spec named 'nope'"),
    (["show", "nope"], "no spec named 'nope'"),
    (["moves", "nope", "--hand", "33"], "no spec named 'nope'"),
])
def test_bad_input(args, fragment):
    assert fragment in fails(*args)


@pytest.mark.parametrize("args,shown", [
    (["classify", "hubei-3p", "-3"], "3: 1 reading(s)"),       # '-' is a separator: the single 3
    (["classify", "hubei-3p", "--", "-3"], "3: 1 reading(s)"),
    (["classify", "hubei-3p", "-10JQKA", "--json"], '"cards": "TJQKA"'),
    (["compare", "hubei-3p", "-3", "4"], "4 beats 3"),           # the arguments keep their order
    (["compare", "hubei-3p", "4", "-3"], "4 beats 3"),
    (["compare", "hubei-3p", "--json", "-5", "-4"], '"a": "5"'),
    (["classify", "laizi", "--wild", "7", "-445567"], "pair_chain"),
])
def test_a_card_argument_may_start_with_a_dash(args, shown):
    # it was an unknown option (exit 2)
    assert shown in ok(*args)


@pytest.mark.parametrize("args,fragment", [
    (["classify", "hubei-3p", "-Z"], "unknown card 'Z'"),
    (["classify", "hubei-3p", "-3Z"], "unknown card 'Z'"),
    (["compare", "hubei-3p", "-3", "-Q?"], "unknown card '?'"),
])
def test_a_bad_card_argument_starting_with_a_dash_is_a_card_error(args, fragment):
    assert fragment in fails(*args)


def test_an_unknown_long_option_is_still_a_usage_error():
    result = run("classify", "hubei-3p", "--jsn", "33")
    assert result.exit_code == 2
    assert "No such option" in result.output


def test_a_negative_limit_is_refused():
    # it printed "… 7 more"
    result = run("moves", "hubei-3p", "--hand", "3456789", "--limit", "-5")
    assert result.exit_code == 2
    assert "-5 is not in the range" in result.output
    assert "more" not in result.output


@pytest.mark.parametrize("cards,escape", [("3\x1b[2J", "\\x1b"), ("\x1b]0;pwned\x07", "\\x1b"),
                                         ("33\x00", "\\x00"), ("3\x9b31m", "\\x9b")])
def test_control_characters_in_bad_cards_are_escaped(cards, escape):
    # the caret line echoed them raw: a terminal would run the escape sequence
    err = fails("classify", "hubei-3p", cards)
    assert all(ch == "\n" or ch.isprintable() for ch in err), repr(err)
    shown, caret = err.rstrip("\n").splitlines()[-2:]
    assert shown[caret.index("^"):].startswith(escape)


@pytest.mark.parametrize("cards", ["3[/]", "3[bold]x", "[red]3"])
def test_bad_cards_that_look_like_markup_are_shown_as_typed(cards):
    # the message was printed as rich markup: "[/]" raised MarkupError (a traceback)
    err = fails("classify", "hubei-3p", cards)
    assert f"  {cards}\n" in err


def test_malformed_cards_show_where(tmp_path):
    err = fails("classify", "hubei-3p", "3Z3")
    assert "position 2" in err
    assert "  3Z3\n   ^" in err


@pytest.mark.parametrize("command", [["classify", "{}", "33"], ["census", "{}"], ["show", "{}", "--resolved"],
                                     ["moves", "{}", "--hand", "33"], ["compare", "{}", "3", "4"]])
def test_broken_spec_file(broken_spec, command):
    err = fails(*[c.replace("{}", str(broken_spec)) for c in command])
    assert f"{broken_spec.name}:2:1" in err
    assert "playrs" in err


def test_bad_pattern_in_a_spec_file(bad_pattern_spec):
    err = fails("classify", str(bad_pattern_spec), "33")
    assert f"{bad_pattern_spec.name}:4:" in err
    assert "combos.pair" in err


def test_yaml_syntax_error(tmp_path):
    path = tmp_path / "syntax.yaml"
    path.write_text("name: s\ncombos: [\n", encoding="utf-8")
    err = fails("census", str(path))
    assert "YAML syntax error" in err
    assert "syntax.yaml:" in err


def test_a_rebuilt_cache_is_one_warning_line(tmp_path, monkeypatch) -> None:
    """A damaged table cache is rebuilt, and the user reads one plain warning line (not
    Python's file:line format with the source of the warn call)."""
    monkeypatch.setenv("DDZRULES_CACHE_DIR", str(tmp_path))
    clean = run("census", "crown-3p")
    for table in tmp_path.glob("*.json"):
        table.write_bytes(table.read_bytes() + b"x")
    result = run("census", "crown-3p")
    assert result.exit_code == 0 and result.stdout == clean.stdout
    assert result.stderr.startswith("warning: ignoring the table cache")
    assert "CacheWarning" not in result.stderr and ".py:" not in result.stderr


@pytest.mark.parametrize(("spec", "hand", "wild"), [("hubei-3p", "3344556789TJQKA2XD", None),
                                                     ("laizi", "3377899TJQ", "7")])
def test_move_rows_are_laid_out_as_a_rich_table_would(spec: str, hand: str, wild: str | None) -> None:
    """The plays are printed as text lines made one by one (a full deck with a wild rank
    lists 452,219 plays: minutes in a rich Table); the layout is the one a rich Table
    without a box gives, header included."""
    import io

    from rich.console import Console
    from rich.table import Table

    from ddzrules import load_variant
    from ddzrules.cli.rules import _move_rows

    moves = list(load_variant(spec).legal_moves(hand, wild=wild))
    wilds = any(m.substitution for m in moves)
    table = Table("cards", "combo", "rank", "length", "key", *(["wilds stand for"] if wilds else []), box=None)
    for m in moves:
        table.add_row(m.cards, m.combo + (" (bomb)" if m.is_bomb else ""), m.rank_name, str(m.length), str(m.key),
                      *([" ".join(f"{a}→{b}" for a, b in m.substitution)] if wilds else []))
    out = io.StringIO()
    Console(file=out, width=500, highlight=False, markup=False).print(table)
    assert list(_move_rows(moves)) == out.getvalue().splitlines()


def test_no_output_option_replaces_the_spec_or_suite_it_reads(tmp_path):
    """sheet -o, play --record, simulate/diff --html, new -o and conformance run --junit
    replaced the very spec (or a parent, or the suite's manifest) the command read."""
    parent = tmp_path / "par.yaml"
    parent.write_text("name: par\nextends: hubei-3p\n", encoding="utf-8")
    child = tmp_path / "kid.yaml"
    child.write_text("name: kid\nextends: par.yaml\n", encoding="utf-8")
    suite = tmp_path / "suite"
    assert CliRunner().invoke(main, ["conformance", "generate", "hubei-3p", "-o", str(suite),
                                     "--level", "smoke"]).exit_code == 0
    manifest = (suite / "manifest.json").read_bytes()
    before = {p: p.read_bytes() for p in (parent, child)}
    runs = [["sheet", str(child), "-o", str(child)], ["sheet", str(child), "-o", str(parent)],
            ["play", str(child), "--auto", "--record", str(parent)],
            ["simulate", str(child), "--games", "5", "--html", str(child)],
            ["diff", "hubei-3p", str(child), "--html", str(parent)],
            ["new", "q", "--extends", str(child), "-o", str(parent), "--force"],
            ["conformance", "run", str(suite), "--engine", "ddzrules", "--junit", str(suite / "manifest.json")]]
    for args in runs:
        result = CliRunner().invoke(main, args)
        assert result.exit_code in (1, 2), (args, result.output)  # diff: 2 on any error
        assert "is a file this command reads" in result.output and "not overwritten" in result.output, args
    assert {p: p.read_bytes() for p in (parent, child)} == before
    assert (suite / "manifest.json").read_bytes() == manifest


def test_new_names_a_parent_file_from_the_new_files_folder(tmp_path, monkeypatch):
    """`new kid --extends a/par.yaml -o b/kid.yaml` wrote `extends: a/par.yaml`, which is
    looked for next to b/kid.yaml: it validated only from the folder new ran in."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    assert CliRunner().invoke(main, ["new", "par", "--extends", "hubei-3p", "-o", "a/par.yaml"]).exit_code == 0
    assert CliRunner().invoke(main, ["new", "kid", "--extends", "a/par.yaml", "-o", "b/kid.yaml"]).exit_code == 0
    assert "extends: ../a/par.yaml\n" in (tmp_path / "b" / "kid.yaml").read_text(encoding="utf-8")
    monkeypatch.chdir(tmp_path / "b")
    assert CliRunner().invoke(main, ["validate", "kid.yaml"]).exit_code == 0


@pytest.mark.parametrize("args", [["validate", ""], ["classify", "", "33"], ["show", ""]])
def test_an_empty_spec_name_says_so(args):
    """`validate ""` reported `.:1:1: not a regular file but a directory` (Path("") is ".")."""
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 1 and "an empty spec name" in result.output, result.output
    assert "directory" not in result.output and "Traceback" not in result.output
