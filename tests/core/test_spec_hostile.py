"""Hostile spec files fail fast with a file:line:col message, never a traceback, a hang
or a memory blow-up: limits hold before anything is expanded."""

from __future__ import annotations

import contextlib
import json
import os
import resource
import stat
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from fuzzers import fuzz_settings, tally
from hostile_specs import CASES
from hypothesis import given
from hypothesis import strategies as st

from ddzrules.cli import main
from ddzrules.errors import DdzError, SpecError
from ddzrules.lint import validate_spec
from ddzrules.spec import bundled_names, bundled_root, load_spec

needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")


def _rss_kb() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


@pytest.mark.parametrize("case", sorted(CASES))
def test_hostile_spec_fails_fast_with_a_location(tmp_path: Path, case: str) -> None:
    path = tmp_path / f"{case}.yaml"
    path.write_bytes(CASES[case])
    before, start = _rss_kb(), time.monotonic()
    with pytest.raises(SpecError) as info:
        load_spec(path)
    assert time.monotonic() - start < 5
    assert _rss_kb() - before < 200_000  # kilobytes: no expansion happened
    problem = info.value.problems[0]
    assert problem.location is not None and problem.location.file.endswith(f"{case}.yaml")
    assert "Traceback" not in str(info.value)


@pytest.mark.parametrize("case", sorted(CASES))
def test_cli_validate_refuses_hostile_spec(tmp_path: Path, case: str) -> None:
    path = tmp_path / f"{case}.yaml"
    path.write_bytes(CASES[case])
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit)
    assert f"{case}.yaml:" in result.stderr
    assert "Traceback" not in result.output


def test_messages_name_the_problem(tmp_path: Path) -> None:
    expected = {"billion-laughs": "alias", "python-tag": "tag", "custom-tag": "tag",
                "nul": "NUL", "control-char": "U+001B", "not-utf8": "UTF-8", "deep-nesting": "nested",
                "self-alias": "alias", "huge": "DDZRULES_MAX_SPEC_BYTES", "many-values": "DDZRULES_MAX_SPEC_VALUES",
                "nan": "'.nan' is not a finite number", "digits": "a number of more than 4,300 digits",
                "surrogate": "lone surrogate"}
    for case, word in expected.items():
        path = tmp_path / f"{case}.yaml"
        path.write_bytes(CASES[case])
        with pytest.raises(SpecError) as info:
            load_spec(path)
        assert word in str(info.value), (case, str(info.value))


def test_nul_position(tmp_path: Path) -> None:
    path = tmp_path / "nul.yaml"
    path.write_bytes(CASES["nul"])
    with pytest.raises(SpecError) as info:
        load_spec(path)
    loc = info.value.problems[0].location
    assert loc is not None and (loc.line, loc.column) == (2, 20)


def test_size_limit_is_configurable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "big.yaml"
    path.write_text("name: s\nnotes: \"" + "x" * 3000 + "\"\ncombos: {single: '1'}\n", encoding="utf-8")
    monkeypatch.setenv("DDZRULES_MAX_SPEC_BYTES", "1000")
    with pytest.raises(SpecError):
        load_spec(path)
    monkeypatch.setenv("DDZRULES_MAX_SPEC_BYTES", "10000")
    assert load_spec(path).name == "s"


def test_extends_to_a_non_spec_file_never_echoes_it(tmp_path: Path) -> None:
    secret = tmp_path / "secrets.txt"
    secret.write_text("password: hunter2\n: : :\n", encoding="utf-8")
    child = tmp_path / "sub" / "child.yaml"
    child.parent.mkdir()
    child.write_text("name: c\nextends: ../secrets.txt\n", encoding="utf-8")
    with pytest.raises(SpecError) as info:
        load_spec(child)
    assert "hunter2" not in str(info.value)
    assert info.value.problems[0].location is not None
    result = CliRunner().invoke(main, ["validate", str(child)])
    assert result.exit_code == 1 and "hunter2" not in result.output
    assert "Traceback" not in result.output


def test_extends_through_a_yaml_link_to_a_non_spec_file_never_echoes_it(tmp_path: Path) -> None:
    """A parent named ``.yaml`` that links to another file (/etc/shadow, say) is refused
    as what it is, and no line of it is printed; a link to a spec still works."""
    secret = tmp_path / "secrets.txt"
    secret.write_text("root:hunter2:20228:0\n", encoding="utf-8")
    (tmp_path / "shadow.yaml").symlink_to(secret)
    child = tmp_path / "child.yaml"
    child.write_text("name: c\nextends: shadow.yaml\n", encoding="utf-8")
    with pytest.raises(SpecError) as info:
        load_spec(child)
    assert "hunter2" not in str(info.value)
    assert "a link to a file that is not a .yaml/.yml spec file" in str(info.value)
    result = CliRunner().invoke(main, ["validate", str(child)])
    assert result.exit_code == 1 and "hunter2" not in result.output and "Traceback" not in result.output
    (tmp_path / "parent.yaml").write_text("name: parent\nextends: hubei-3p\n", encoding="utf-8")
    (tmp_path / "linked.yaml").symlink_to(tmp_path / "parent.yaml")
    child.write_text("name: c\nextends: linked.yaml\n", encoding="utf-8")
    assert load_spec(child).name == "c"


def test_extends_cannot_leave_the_bundle() -> None:
    with pytest.raises(SpecError):
        load_spec(bundled_root() / "../../pyproject")


MUTATIONS = st.sampled_from(["delete", "duplicate", "replace", "delete-line", "duplicate-line",
                             "swap-lines"])
TEXTS = {name: (bundled_root() / f"{name}.yaml").read_text(encoding="utf-8") for name in bundled_names()}


def _mutate(text: str, ops: list[tuple[str, int, str]]) -> str:
    for op, at, ch in ops:
        lines = text.split("\n")
        if op.endswith("line"):
            i = at % len(lines)
            if op == "delete-line":
                del lines[i]
            else:
                lines.insert(i, lines[i])
            text = "\n".join(lines)
        elif op == "swap-lines":
            i = at % len(lines)
            j = (i + 1) % len(lines)
            lines[i], lines[j] = lines[j], lines[i]
            text = "\n".join(lines)
        elif text:
            i = at % len(text)
            text = (text[:i] + text[i + 1:] if op == "delete" else
                    text[:i] + text[i] + text[i:] if op == "duplicate" else
                    text[:i] + ch + text[i + 1:])
    return text


@fuzz_settings(100)
@given(name=st.sampled_from(sorted(TEXTS)),
       ops=st.lists(st.tuples(MUTATIONS, st.integers(0, 10**6),
                              st.sampled_from(list(":{}[]&*!|>-#'\"\n 0123456789abcXDn\t%@`,?"))),
                    min_size=1, max_size=6))
def test_mutated_bundled_specs_raise_only_ddz_errors(tmp_path_factory: pytest.TempPathFactory,
                                                     name: str, ops: list[tuple[str, int, str]]) -> None:
    tally("specs (mutated bundled specs)")
    path = tmp_path_factory.mktemp("fuzz") / "mutant.yaml"
    text = _mutate(TEXTS[name], ops)
    if "extends:" in text:  # a bundled child names its parent by bundled name: keep it resolvable
        pass
    path.write_text(text, encoding="utf-8")
    start = time.monotonic()
    try:
        load_spec(path)
    except DdzError:
        pass
    report = validate_spec(str(path))  # never raises: every problem is a finding
    assert all(p.severity in ("error", "warning") for p in report.findings)
    assert time.monotonic() - start < 60


# ------------------------------------------------------------------ not a regular file
# A spec path (the one asked for or an extends: parent) that is a FIFO would block the
# reader until something writes to it, /dev/zero never ends, a directory has no text:
# each is refused by what it is, before a byte is read, through one reader.

def _special(kind: str, at: Path) -> Path:
    """A file of ``kind`` at ``at`` (made here, in the test's own directory)."""
    if kind == "fifo":
        os.mkfifo(at)
    elif kind == "directory":
        at.mkdir()
    elif kind == "symlink to /dev/zero":
        at.symlink_to("/dev/zero")
    elif kind == "symlink to a fifo":
        os.mkfifo(at.with_name(at.name + ".pipe"))
        at.symlink_to(at.name + ".pipe")
    elif kind == "symlink to a directory":
        at.with_name(at.name + ".d").mkdir()
        at.symlink_to(at.name + ".d")
    else:
        raise AssertionError(kind)
    return at


SPECIAL = {"fifo": "FIFO", "directory": "directory", "symlink to /dev/zero": "character device",
           "symlink to a fifo": "FIFO", "symlink to a directory": "directory"}


def _bounded(call: Callable[[], object], fifos: list[Path], timeout: float = 30) -> list[object]:
    """``call()`` in a thread, failing (not hanging) when it does not return in time; a
    reader left blocked on a FIFO is released by opening the FIFO for writing."""
    out: list[object] = []
    worker = threading.Thread(target=lambda: out.append(call()), daemon=True)
    start = time.monotonic()
    worker.start()
    worker.join(timeout)
    if worker.is_alive():
        for fifo in fifos:
            with contextlib.suppress(OSError):
                os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        worker.join(5)
        pytest.fail(f"still reading after {time.monotonic() - start:.0f} s")
    return out


def _fifos(root: Path) -> list[Path]:
    return [p for p in root.rglob("*") if not p.is_symlink() and stat.S_ISFIFO(p.lstat().st_mode)]


@needs_fifo
@pytest.mark.parametrize("kind", sorted(SPECIAL))
def test_special_file_as_the_spec_is_refused(tmp_path: Path, kind: str) -> None:
    path = _special(kind, tmp_path / "special.yaml")

    def load() -> str:
        try:
            load_spec(path)
        except SpecError as e:
            return str(e)
        return "loaded"

    message = _bounded(load, _fifos(tmp_path))[0]
    assert f"special.yaml:1:1: not a regular file but a{'n' if SPECIAL[kind][0] in 'aeiou' else ''} " \
           f"{SPECIAL[kind]}" in str(message)
    result = _bounded(lambda: CliRunner().invoke(main, ["validate", str(path)]), _fifos(tmp_path))[0]
    assert isinstance(result, Result)
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)
    assert "special.yaml:1:1: not a regular file" in result.stderr and "Traceback" not in result.output
    result = _bounded(lambda: CliRunner().invoke(main, ["classify", str(path), "3"]), _fifos(tmp_path))[0]
    assert isinstance(result, Result)
    assert result.exit_code == 1 and "error: " in result.stderr and SPECIAL[kind] in result.stderr


@needs_fifo
@pytest.mark.parametrize("kind", sorted(SPECIAL))
def test_special_file_as_a_parent_is_refused(tmp_path: Path, kind: str) -> None:
    _special(kind, tmp_path / "parent.yaml")
    child = tmp_path / "child.yaml"
    child.write_text("name: c\nextends: ./parent.yaml\ncombos: {single: '1'}\n", encoding="utf-8")
    result = _bounded(lambda: CliRunner().invoke(main, ["validate", str(child), "--json"]),
                      _fifos(tmp_path))[0]
    assert isinstance(result, Result) and result.exit_code == 1
    (report,) = json.loads(result.stdout)
    (finding,) = report["findings"]
    assert finding["code"] == "broken-parent" and finding["file"].endswith("child.yaml")
    assert (finding["line"], finding["path"]) == (2, "extends")
    assert SPECIAL[kind] in finding["message"] and "parent.yaml:1:1" in finding["message"]

    def load() -> str:
        try:
            load_spec(child)
        except SpecError as e:
            return str(e)
        return "loaded"

    message = str(_bounded(load, _fifos(tmp_path))[0])
    assert "in parent './parent.yaml'" in message and SPECIAL[kind] in message


def test_dev_zero_named_directly_is_refused() -> None:
    if not Path("/dev/zero").exists():
        pytest.skip("no /dev/zero")
    result = CliRunner().invoke(main, ["validate", "/dev/zero"])
    assert result.exit_code == 1
    assert "/dev/zero:1:1: not a regular file but a character device" in result.stderr


def test_huge_file_is_refused_by_its_size_before_reading(tmp_path: Path) -> None:
    """A 10 GB file (sparse: it takes no disk) is refused from its size alone, at once."""
    path = tmp_path / "huge.yaml"
    with path.open("wb") as f:
        f.truncate(10 * 1024**3)
    before, start = _rss_kb(), time.monotonic()
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert time.monotonic() - start < 5 and _rss_kb() - before < 50_000
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "huge.yaml:1:1: the file is 10,737,418,240 bytes, more than the 1,000,000 a spec may have" \
        in result.stderr


def test_a_schema_error_quotes_a_long_value_and_line_clipped(tmp_path: Path) -> None:
    """A value of 10,000 items gave a message line of 30,000 characters and its source line
    whole: now both are clipped, the caret still under the column."""
    path = tmp_path / "long.yaml"
    path.write_text("name: x\nextends: hubei-3p\nplayers: [" + "1, " * 10_000 + "1]\n", encoding="utf-8")
    with pytest.raises(SpecError) as info:
        load_spec(path)
    lines = str(info.value).splitlines()
    assert max(map(len, lines)) < 300, [len(line) for line in lines]
    assert (lines[0].startswith(f"{path}:3:10: players: [1, 1")
            and lines[0].endswith("is a list; this key takes a whole number"))
    assert lines[1:] == ["  players: [" + "1, " * 26 + "1…", "           ^"]


def test_an_excerpt_is_a_window_around_its_caret() -> None:
    from ddzrules.errors import EXCERPT_WINDOW, Location, Problem

    line = "".join(chr(ord("a") + i % 26) for i in range(1000))
    problem = Problem(Location("f.yaml", 1, 501), "k", "bad", f"  {line}\n  {' ' * 500}^")
    shown, caret = problem.excerpt.split("\n")
    assert shown[2 + caret.index("^") - 2] == line[500]  # the caret under the same character
    assert len(shown) <= 2 * EXCERPT_WINDOW + 5 and shown.startswith("  …") and shown.endswith("…")
    short = Problem(Location("f.yaml", 1, 3), "k", "m" * 10_000, "  ab\n    ^")
    assert short.excerpt == "  ab\n    ^" and len(short.message) == 500
