"""What a new user hit at first contact (issue 20 §2): each case as the user met it,
through the CLI, with the behaviour now expected."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from ddzrules.cli import main, plural, styled
from ddzrules.cli.batch import MAX_BATCH_LINE
from ddzrules.cli.game import _summary
from ddzrules.runtime import default_registry


def user_error(result: Result) -> str:
    """The one-line message of a user error (exit 1, no traceback)."""
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return " ".join(result.output.split())


# ------------------------------------------------------------------ new -o FILE


def test_new_refuses_to_overwrite_a_spec(tmp_path: Path) -> None:
    target = tmp_path / "house.yaml"
    target.write_text("name: finished\n# a finished spec, hours of work\n", encoding="utf-8")
    message = user_error(CliRunner().invoke(main, ["new", "house", "--extends", "hubei-3p", "-o", str(target)]))
    assert "exists" in message and "--force" in message
    assert target.read_text(encoding="utf-8") == "name: finished\n# a finished spec, hours of work\n"


def test_new_force_overwrites_and_the_result_validates(tmp_path: Path) -> None:
    target = tmp_path / "house.yaml"
    target.write_text("old", encoding="utf-8")
    result = CliRunner().invoke(main, ["new", "house", "--extends", "hubei-3p", "-o", str(target), "--force"])
    assert result.exit_code == 0, result.output
    assert "extends: hubei-3p" in target.read_text(encoding="utf-8")
    assert CliRunner().invoke(main, ["validate", str(target)]).exit_code == 0


def test_new_writes_a_file_that_does_not_exist(tmp_path: Path) -> None:
    target = tmp_path / "fresh.yaml"
    result = CliRunner().invoke(main, ["new", "fresh", "--extends", "crown-3p", "-o", str(target)])
    assert result.exit_code == 0 and target.exists()


# ------------------------------------------------------------------ no output is markup


def test_styled_fills_values_in_as_plain_text() -> None:
    line = styled("[bold]{}[/]: {}", "[red]spec[/red]", "pip install 'ddzrules[report]'")
    assert line.plain == "[red]spec[/red]: pip install 'ddzrules[report]'"
    assert [span.style for span in line.spans] == ["bold"]  # only the template's style


def test_an_error_hint_keeps_its_brackets(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` raises ImportError
    message = user_error(CliRunner().invoke(main, ["simulate", "hubei-3p", "--games", "2", "--backend", "ray"]))
    assert "pip install 'ddzrules[ray]'" in message


def test_a_spec_value_that_looks_like_markup_prints_as_written(tmp_path: Path) -> None:
    spec = tmp_path / "markup.yaml"
    spec.write_text("name: '[red]x[/red]'\nextends: hubei-3p\n", encoding="utf-8")
    for command in (["census", str(spec)], ["validate", str(spec)], ["diff", str(spec), "hubei-3p"]):
        result = CliRunner().invoke(main, command)
        assert result.exit_code in (1, 2), result.output  # diff: 2 is its error code (1: the specs differ)
        assert "name: '[red]x[/red]'" in result.output, command


# ------------------------------------------------------------------ play at the terminal


def test_the_peeked_kitty_cards_are_shown_to_the_player() -> None:
    # qiangdizhu has 黄金眼 (golden_eye: 2 peeks of 2 cards); seat 0 declines the three
    # 明牌 moments, then peeks when robbing; the input then ends
    result = CliRunner().invoke(main, ["play", "qiangdizhu", "--seed", "3"], input="1\n1\n1\npeek\n")
    out = result.output
    assert "kitty cards you peeked at:" in out
    seen = out.split("kitty cards you peeked at:")[1].split()[0]
    kitty = out.split("kitty 底牌")[1].split()[0] if "kitty 底牌" in out else None
    assert len(seen) == 2
    if kitty:  # the peeked cards are kitty cards
        assert all(seen.count(c) <= kitty.count(c) for c in seen)


def test_bidding_lines_carry_no_role() -> None:
    result = CliRunner().invoke(main, ["play", "hubei-3p", "--auto", "--seed", "1"])
    assert result.exit_code == 0, result.output
    head, _, tail = result.output.partition("landlord:")
    assert tail, result.output
    assert "farmer" not in head and "地主 landlord)" not in head  # before the landlord is known
    assert "(farmer)" in tail  # roles once they are


def test_escape_is_offered_only_where_the_rules_have_it() -> None:
    # hubei-3p has no escape rule: the prompt does not offer it and asking for it is refused
    result = CliRunner().invoke(main, ["play", "hubei-3p", "--seed", "3"], input="1\n1\n1\n1\nescape\n")
    assert "'escape'" not in result.output
    assert "has no escape rule" in result.output
    # qiangdizhu's bean settlement has one (逃跑计分)
    escaped = CliRunner().invoke(main, ["play", "qiangdizhu", "--seed", "3"], input="1\n" * 9 + "escape\n")
    assert "'escape'" in escaped.output and "you leave the game" in escaped.output


def test_counts_are_in_the_singular_for_one() -> None:
    assert plural(1, "card") == "1 card" and plural(0, "card") == "0 cards" and plural(2, "card") == "2 cards"


# ------------------------------------------------------------------ plugins, classify, warnings


@pytest.mark.parametrize("name", sorted(default_registry().names()))
def test_plugin_descriptions_are_whole_sentences(name: str) -> None:
    text = _summary(default_registry().get(name))
    assert text and text[-1] in ".。:)", text  # never cut at a line break


def test_an_empty_card_string_is_an_error() -> None:
    assert "no cards given" in user_error(CliRunner().invoke(main, ["classify", "hubei-3p", ""]))
    assert "no cards given" in user_error(CliRunner().invoke(main, ["moves", "hubei-3p", "--hand", ""]))
    batch = CliRunner().invoke(main, ["classify", "hubei-3p", "--batch", "-"], input='{"cards": ""}\n')
    assert batch.exit_code == 1 and json.loads(batch.stdout)["error"] == "cards: no cards given"


def test_a_batch_line_too_long_is_answered_with_an_error_and_skipped() -> None:
    long = json.dumps({"cards": "3" * (MAX_BATCH_LINE + 10)})
    result = CliRunner().invoke(main, ["classify", "hubei-3p", "--batch", "-"],
                                input=f'{{"cards": "33"}}\n{long}\n{{"cards": "44"}}\n')
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert result.exit_code == 1
    assert lines[0]["cards"] == "33" and lines[2]["cards"] == "44"
    assert lines[1]["line"] == 2 and "longer than" in lines[1]["error"]


def test_the_cli_raises_no_deprecation_warning() -> None:
    code = ("import warnings; warnings.simplefilter('error');"
            "from click.testing import CliRunner; from ddzrules.cli import main;"
            "r = CliRunner().invoke(main, ['--help']); assert r.exit_code == 0, r.output")
    done = subprocess.run([sys.executable, "-W", "error", "-c", code], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stderr


def test_json_output_writes_no_terminal_control_raw() -> None:
    import click

    from ddzrules.cli import emit_json

    @click.command()
    def show() -> None:
        emit_json({"covers": "a\x9b31mb\x7f\x1b[0m 中", "n": [1.5]})

    out = CliRunner().invoke(show).output
    assert not any(0x7f <= ord(ch) <= 0x9f or ord(ch) < 0x20 and ch != "\n" for ch in out)
    assert json.loads(out) == {"covers": "a\x9b31mb\x7f\x1b[0m 中", "n": [1.5]}  # the same data
    assert "中" in out  # Chinese stays readable


def test_json_output_refuses_what_is_not_json() -> None:
    import click

    from ddzrules.cli import emit_json, user_errors

    @click.command()
    @user_errors
    def show() -> None:
        emit_json({"x": float("nan")})

    result = CliRunner().invoke(show)
    assert result.exit_code == 1 and "NaN" not in result.stdout and "Traceback" not in result.output
