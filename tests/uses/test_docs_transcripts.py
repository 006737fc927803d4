"""The terminal sessions the docs show are what the commands print (issue 43: the
getting-started page showed an 'escape' choice the spec has not, compat.md a compat
profile it said could not be played, and the rule pages bidding lines with roles the log
no longer gives). Every `$ ddzrules play …` of every page is run (its pipe, such as
``| sed -n '5,9p'``, through the shell), on the files the pages write (getting-started's
house.yaml as the walkthrough edits it; a ```yaml block headed ``# file: NAME``), with
the answers the page types at the prompts; every line the page shows must be printed, in
the page's order ("…" stands for lines left out)."""

from __future__ import annotations

import re
import shlex
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from ddzrules.cli import main

DOCS = Path(__file__).resolve().parents[2] / "docs"
GETTING_STARTED = DOCS / "getting-started.md"
CONSOLE = re.compile(r"```console\n(.*?)```", re.DOTALL)
FILE_BLOCK = re.compile(r"```yaml\n# file: (\S+)\n(.*?)```", re.DOTALL)
#: a prompt and what the page typed at it ("your choice [1]: 4")
ANSWER = re.compile(r"^(?:your choice|play \(.*\)) \[[^\]]*\]: (.*)$")


def sessions(page: Path) -> list[tuple[str, list[str]]]:
    """``(command, lines shown)`` for every command of the page's console blocks."""
    out: list[tuple[str, list[str]]] = []
    for block in CONSOLE.findall(page.read_text(encoding="utf-8")):
        for line in block.splitlines():
            if line.startswith("$ "):
                out.append((line[2:], []))
            elif out:
                out[-1][1].append(line)
    return out


def write_files(page: Path, folder: Path) -> None:
    """The files ``page`` makes, in ``folder``: every ```yaml block headed ``# file: NAME``,
    and on the getting-started page house.yaml as the walkthrough makes it (`new`, then
    the edited lines 6 to 18 it shows, its typo fixed as the page then does)."""
    folder.mkdir()
    for name, body in FILE_BLOCK.findall(page.read_text(encoding="utf-8")):
        (folder / name).write_text(body, encoding="utf-8")
    if page != GETTING_STARTED:
        return
    result = CliRunner().invoke(main, ["new", "house", "--extends", "hubei-3p", "-o", str(folder / "house.yaml")])
    assert result.exit_code == 0, result.output
    edited = next(lines for command, lines in sessions(GETTING_STARTED) if command == "sed -n 6,18p house.yaml")
    lines = (folder / "house.yaml").read_text(encoding="utf-8").splitlines()
    lines[5:18] = [line.replace("four_wth_two", "four_with_two") for line in edited]
    (folder / "house.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")


PLAYS = [(page, command, shown) for page in sorted(DOCS.rglob("*.md")) for command, shown in sessions(page)
         if command.startswith("ddzrules play ")]


def test_the_pages_show_play_sessions() -> None:
    pages = {page.name for page, _, _ in PLAYS}
    assert {"getting-started.md", "compat.md", "hk-rob.md", "laizi.md"} <= pages


def test_every_play_session_the_docs_show(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    stale = []
    for page, command, shown in PLAYS:
        folder = tmp_path / page.relative_to(DOCS).as_posix().replace("/", "-")
        if not folder.exists():
            write_files(page, folder)
        monkeypatch.chdir(folder)
        play, _, pipe = command.partition(" | ")
        answers = [m[1] for line in shown if (m := ANSWER.match(line))]
        result = CliRunner().invoke(main, shlex.split(play)[1:], input="".join(a + "\n" for a in answers),
                                    terminal_width=200)
        text = result.output
        if pipe:
            text = subprocess.run(["bash", "-c", pipe], input=text, capture_output=True, text=True,
                                  check=True).stdout
        printed = [line.rstrip() for line in text.splitlines()]
        at = 0
        for line in (line.rstrip() for line in shown):
            if not line or line == "…":
                continue
            if line not in printed[at:]:
                stale.append(f"{page.relative_to(DOCS)}: `{command}` does not print {line!r}")
                break
            at = printed.index(line, at) + 1
    assert not stale, "\n".join(stale)
