"""Hostile spec files fail fast with a file:line:col message, never a traceback, a hang
or a memory blow-up: limits hold before anything is expanded."""

from __future__ import annotations

import resource
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from fuzzers import fuzz_settings, tally
from hypothesis import given
from hypothesis import strategies as st

from ddzrules.cli import main
from ddzrules.errors import DdzError, SpecError
from ddzrules.lint import validate_spec
from ddzrules.spec import bundled_names, bundled_root, load_spec

LAUGHS = "name: lol\n" + "a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n" + "".join(
    f"a{i}: &a{i} [*a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, "
    f"*a{i - 1}, *a{i - 1}]\n" for i in range(1, 10))

CASES: dict[str, bytes] = {
    "billion-laughs": LAUGHS.encode(),
    "alias-bomb-in-combos": b"name: s\ncombos:\n  single: &p \"1\"\n  pair: *p\n",
    "python-tag": b"name: s\ncombos: !!python/object/apply:os.system [\"echo hi\"]\n",
    "custom-tag": b"name: s\ncombos: {single: !mine \"1\"}\n",
    "nul": b"name: s\ncombos: {single: \"1\x00\"}\n",
    "control-char": b"name: s\ncombos:\n  single: \"\x1b[31m1\"\n",
    "not-utf8": b"name: s\ntitle: {zh: \"\xb6\xb7\xb5\xd8\xd6\xf7\"}\n",
    "deep-nesting": b"name: s\nnotes: " + b"[" * 5000 + b"]" * 5000 + b"\n",
    "self-alias": b"name: s\ncombos: &c {single: \"1\", again: *c}\n",
    "huge": b"name: s\nnotes: \"" + b"x" * 2_000_000 + b"\"\n",
}


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
                "self-alias": "alias", "huge": "DDZRULES_MAX_SPEC_BYTES"}
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
