"""Every command that writes a file, against a path it cannot write: a missing directory,
a device (/dev/full) and a full disk (a file size limit, which fails the write as ENOSPC
would). Each says so in one line, exits 1, shows no traceback and leaves no half file.

The list of output commands is checked against the CLI itself, so an option added later
that writes a file must join it (and so be held to the same).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner

from ddzrules import generated
from ddzrules.cli import main

DRIVER = Path(__file__).resolve().parents[1] / "cli_under_limits.py"

#: every option or argument of the CLI that names a file or a folder a command writes, by
#: (command, parameter), with the command's words ({out}: the path written, {suite}: a
#: suite conformance run can read) and what {out} is: a new "file", or an existing "page"
#: (or "folder" of pages) whose generated blocks are rewritten, or a "suite" folder made
OUTPUTS: dict[tuple[str, str], tuple[list[str], str]] = {
    ("sheet", "output"): (["sheet", "hubei-3p", "-o", "{out}"], "file"),
    ("sheet", "update_dir"): (["sheet", "--update-docs", "{out}"], "folder"),
    ("play", "record_path"): (["play", "erren", "--auto", "--seed", "1", "--record", "{out}"], "file"),
    ("simulate", "html_path"): (["simulate", "erren", "--games", "2", "--html", "{out}"], "file"),
    ("diff", "html_path"): (["diff", "erren", "erren", "--games", "2", "--html", "{out}"], "file"),
    ("new", "output"): (["new", "mine", "--extends", "hubei-3p", "-o", "{out}"], "file"),
    ("conformance run", "junit"): (["conformance", "run", "{suite}", "--engine", "ddzrules",
                                    "--junit", "{out}"], "file"),
    ("conformance generate", "output"): (["conformance", "generate", "erren", "--level", "smoke",
                                          "-o", "{out}"], "suite"),
    ("docs update", "paths"): (["docs", "update", "{out}"], "page"),
    ("duel", "record"): (["duel", "erren", "--bots", "random,random", "--deals", "1", "--record", "{out}"],
                         "file"),
    ("plugins", "docs"): (["plugins", "--params", "all", "--update-docs", "{out}"], "plugins page"),
}

#: the exit status of an error, where it is not 1: diff's are git diff's (1: the specs differ)
ERROR_EXIT = {("diff", "html_path"): 2}

#: what an option's help says when it writes a file (``--check``'s "write nothing" does not)
_WRITES = re.compile(r"\b(?<!nothing )(write|rewrite|regenerate|append)s?\b(?! nothing)", re.IGNORECASE)


def _writing_parameters() -> set[tuple[str, str]]:
    """(command, parameter) of every option whose help says it writes something, and every
    path argument of a command whose help starts by saying it writes (an argument has no
    help of its own)."""
    found: set[tuple[str, str]] = set()

    def walk(cmd: click.Command, path: list[str]) -> None:
        if isinstance(cmd, click.Group):
            for name in cmd.list_commands(click.Context(cmd)):
                sub = cmd.get_command(click.Context(cmd), name)
                assert sub is not None
                walk(sub, path + [name])
            return
        first = (cmd.help or "").split(".")[0]
        for param in cmd.params:
            if isinstance(param, click.Option):
                said = param.help
            else:
                said = first if isinstance(param.type, click.Path) else None
            if said and _WRITES.search(said) and not said.lower().startswith("write nothing"):
                assert param.name is not None
                found.add((" ".join(path), param.name))

    walk(main, [])
    return found


def test_the_list_of_output_commands_is_the_cli_s() -> None:
    assert _writing_parameters() == set(OUTPUTS)


STALE_PAGES = {
    "page": "ddzrules docs schema",
    "folder": "ddzrules sheet erren --lang en",
    "plugins page": "ddzrules docs plugins",
}


def _page(source: str) -> str:
    return f"# x\n\n{generated.BEGIN.format(source=source)}\nSTALE\n{generated.END}\n"


@pytest.fixture(scope="module")
def suite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("suite") / "erren"
    result = CliRunner().invoke(main, ["conformance", "generate", "erren", "--level", "smoke", "-o", str(out)])
    assert result.exit_code == 0, result.output
    return out


def _target(kind: str, where: str, folder: Path) -> Path:
    """The path a case writes to: under a missing folder, a device, or one that fills the disk."""
    if where == "device":
        return Path("/dev/full")
    base = folder / "missing" if where == "missing" else folder / "out"
    if where == "full":
        base.mkdir()
    if kind == "folder":
        if where == "full":
            (base / "rules.md").write_text(_page(STALE_PAGES[kind]), encoding="utf-8")
        return base
    if kind in ("page", "plugins page"):
        if where == "full":
            (base / "page.md").write_text(_page(STALE_PAGES[kind]), encoding="utf-8")
        return base / "page.md"
    return base / ("suite" if kind == "suite" else "written.out")


def _snapshot(folder: Path) -> dict[str, bytes | None]:
    return {str(p.relative_to(folder)): (p.read_bytes() if p.is_file() else None)
            for p in sorted(folder.rglob("*"))}


def _run_all(cases: dict[str, dict[str, Any]], limit: int | None) -> dict[str, dict[str, Any]]:
    path = Path(cases.pop("__file__")["argv"][0])
    path.write_text(json.dumps(cases), encoding="utf-8")
    extra = ["--max-file-bytes", str(limit)] if limit is not None else []
    done = subprocess.run([sys.executable, str(DRIVER), str(path), *extra], check=False, capture_output=True, text=True,
                          timeout=600, env={**os.environ, "COLUMNS": "200"})
    assert done.returncode == 0, done.stderr[-3000:]
    result: dict[str, dict[str, Any]] = json.loads(done.stdout)
    return result


@pytest.mark.parametrize("where", ["missing", "device", "full"])
def test_every_output_command_refuses_a_path_it_cannot_write_cleanly(tmp_path: Path, suite: Path,
                                                                     where: str) -> None:
    cases: dict[str, dict[str, Any]] = {"__file__": {"argv": [str(tmp_path / "cases.json")]}}
    before: dict[str, tuple[Path, dict[str, bytes | None]]] = {}
    status: dict[str, int] = {}
    for (command, param), (words, kind) in OUTPUTS.items():
        name = f"{command} {param}"
        status[name] = ERROR_EXIT.get((command, param), 1)
        folder = tmp_path / name.replace(" ", "_")
        folder.mkdir()
        out = _target(kind, where, folder)
        argv = [w.format(out=out, suite=suite) for w in words]
        cases[name] = {"argv": argv}
        before[name] = (folder, _snapshot(folder))
    # a full disk: no file may grow past 64 bytes; every output is larger (and so is every
    # cache file: the commands run on caches made by this process)
    results = _run_all(cases, 64 if where == "full" else None)
    failures = []
    for name, got in results.items():
        folder, snapshot = before[name]
        lines = got["output"].strip().splitlines()
        if (got["exit"] != status[name] or got["exception"] is not None or "Traceback" in got["output"]
                or not lines or not lines[-1].startswith("error: ")):
            failures.append(f"{name}: exit {got['exit']}, {got['exception']}, {got['output'][-400:]!r}")
        elif _snapshot(folder) != snapshot:
            failures.append(f"{name}: left {sorted(set(_snapshot(folder)) ^ set(snapshot)) or 'a changed page'}")
    assert not failures, "\n".join(failures)


def test_a_duel_record_takes_a_deal_whole_or_not_at_all(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A full disk midway through a deal's line: the line is cut back (it was left half
    written), and the record reads as before; the next deal is appended after it."""
    import errno

    from ddzrules.errors import DdzError
    from ddzrules.simulate.duel_record import DuelRecord

    head = {"spec": "erren", "spec_hash": "0" * 64, "protocol": "duplicate", "seed": 1,
            "bots": ["heuristic", "random"], "players": 2}
    path = tmp_path / "duel.jsonl"
    outcome = [[1.0, 2.0, "landlord"], [0.0, 0.0, "farmer"]]
    with DuelRecord(path, head) as rec:
        rec.read()
        rec.append(0, outcome, {"a": [0.01], "b": [0.0]})
    before = path.read_bytes()
    real_write = os.write
    calls = []

    def full(fd: int, data: Any) -> int:
        calls.append(len(data))
        if len(calls) == 1:
            return real_write(fd, bytes(data[:10]))  # a part, then the disk is full
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    with DuelRecord(path, head) as rec:
        assert sorted(rec.read()) == [0]
        monkeypatch.setattr(os, "write", full)
        with pytest.raises(DdzError, match="cannot write the duel record .No space left on device."):
            rec.append(1, outcome, {"a": [0.02], "b": [0.0]})
        monkeypatch.setattr(os, "write", real_write)
        assert path.read_bytes() == before
        rec.append(2, outcome, {"a": [0.03], "b": [0.0]})
    with DuelRecord(path, head) as rec:
        assert sorted(rec.read()) == [0, 2]
