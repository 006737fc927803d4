"""The terminal sessions docs/getting-started.md shows are what the commands print
(issue 43: it showed an 'escape' choice the spec has not, and roles that the log no
longer gives): each `$ ddzrules play …` and `$ ddzrules replay …` of the walkthrough is
run on the walkthrough's own house.yaml, with the answers the page types, and every
line the page shows must be printed, in the page's order ("…" stands for lines left out)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from ddzrules.cli import main

PAGE = Path(__file__).resolve().parents[2] / "docs" / "getting-started.md"
CONSOLE = re.compile(r"```console\n(.*?)```", re.DOTALL)
#: a prompt and what the page typed at it ("your choice [1]: 4")
ANSWER = re.compile(r"^(?:your choice|play \(.*\)) \[[^\]]*\]: (.*)$")


def sessions() -> list[tuple[str, list[str]]]:
    """``(command, lines shown)`` for every command of the page's console blocks."""
    out: list[tuple[str, list[str]]] = []
    for block in CONSOLE.findall(PAGE.read_text(encoding="utf-8")):
        for line in block.splitlines():
            if line.startswith("$ "):
                out.append((line[2:], []))
            elif out:
                out[-1][1].append(line)
    return out


def house(tmp_path: Path) -> None:
    """house.yaml as the walkthrough makes it: `new`, then the edited lines it shows
    (lines 6 to 18), with its typo fixed as the page then does."""
    result = CliRunner().invoke(main, ["new", "house", "--extends", "hubei-3p", "-o", str(tmp_path / "house.yaml")])
    assert result.exit_code == 0, result.output
    edited = next(lines for command, lines in sessions() if command == "sed -n 6,18p house.yaml")
    lines = (tmp_path / "house.yaml").read_text(encoding="utf-8").splitlines()
    lines[5:18] = [line.replace("four_wth_two", "four_with_two") for line in edited]
    (tmp_path / "house.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_the_play_sessions_of_the_walkthrough(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    house(tmp_path)
    monkeypatch.chdir(tmp_path)
    ran = 0
    for command, shown in sessions():
        args = shlex.split(command)
        if args[:2] not in (["ddzrules", "play"], ["ddzrules", "replay"]):
            continue
        answers = [m[1] for line in shown if (m := ANSWER.match(line))]
        result = CliRunner().invoke(main, args[1:], input="".join(a + "\n" for a in answers),
                                    terminal_width=200)
        printed = [line.rstrip() for line in result.output.splitlines()]
        at = 0
        for line in (line.rstrip() for line in shown):
            if not line or line == "…":
                continue
            assert line in printed[at:], f"`{command}` does not print {line!r}:\n{result.output}"
            at = printed.index(line, at) + 1
        ran += 1
    assert ran >= 4  # --auto, at the terminal, --record, replay
