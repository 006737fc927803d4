"""ddzrules.outputs: every file a command writes is checked before the work and written
in one step (records, reports, sheets, JUnit files, documentation pages)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from ddzrules import outputs
from ddzrules.errors import DdzError, brief


def test_a_write_replaces_the_file_whole_and_keeps_its_permissions(tmp_path: Path) -> None:
    out = tmp_path / "r.txt"
    out.write_text("old", encoding="utf-8")
    out.chmod(0o640)
    outputs.write_file(out, "new 新\n")
    assert out.read_text(encoding="utf-8") == "new 新\n"
    assert out.stat().st_mode & 0o777 == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["r.txt"]  # no temporary file left


def test_a_write_stopped_midway_leaves_the_old_file_and_nothing_else(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "record.json"
    out.write_text("the old record", encoding="utf-8")

    def interrupted(src: str, dst: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        outputs.write_file(out, "the new record")
    assert out.read_text(encoding="utf-8") == "the old record"
    assert [p.name for p in tmp_path.iterdir()] == ["record.json"]


def test_a_symbolic_link_writes_its_target(tmp_path: Path) -> None:
    target = tmp_path / "target.txt"
    target.write_text("old", encoding="utf-8")
    (tmp_path / "link.txt").symlink_to(target)
    outputs.write_file(tmp_path / "link.txt", "new")
    assert (tmp_path / "link.txt").is_symlink() and target.read_text(encoding="utf-8") == "new"


@pytest.mark.parametrize(("where", "option", "message"), [
    ("", "-o", "-o: a file name is needed, not an empty one"),
    ("", None, "a file name is needed, not an empty one"),
    ("dir", "--html", "--html {} is a directory: give a file name"),
    ("dir", None, "{} is a directory: give a file name"),
    ("pipe", "--record", "--record {} is not a regular file (a FIFO, device or socket)"),
    ("missing/r.txt", "--junit", "--junit {}: the directory {} does not exist"),
])
def test_a_path_that_cannot_take_the_file_is_refused_before_any_write(
        tmp_path: Path, where: str, option: str | None, message: str) -> None:
    (tmp_path / "dir").mkdir()
    os.mkfifo(tmp_path / "pipe")
    path = str(tmp_path / where) if where else ""
    with pytest.raises(DdzError) as refused:
        outputs.write_file(path, "text", option)
    assert str(refused.value) == message.format(brief(path, 80), brief(str(Path(path).parent), 80))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dir", "pipe"]


def test_an_input_of_the_command_is_never_the_output(tmp_path: Path) -> None:
    spec = tmp_path / "s.yaml"
    spec.write_text("name: s\n", encoding="utf-8")
    (tmp_path / "link.yaml").symlink_to(spec)
    for named in (spec, tmp_path / "link.yaml"):
        with pytest.raises(DdzError, match="is a file this command reads"):
            outputs.check_output_path(named, "-o", [str(spec), "hubei-3p"])
    outputs.check_output_path(tmp_path / "other.yaml", "-o", [str(spec)])  # a new file: fine


def test_an_exclusive_write_never_replaces_a_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """new -o without --force: a file that appears during the work (after the check) is
    not replaced; with no file there, the text is written whole."""
    out = tmp_path / "new.yaml"
    outputs.write_file(out, "first\n", "-o", exclusive=True)
    assert out.read_text(encoding="utf-8") == "first\n"
    monkeypatch.setattr(outputs, "check_output_path", lambda *a, **k: Path(a[0]))  # the check passed earlier
    with pytest.raises(DdzError, match=r"^-o .* exists: not overwritten$"):
        outputs.write_file(out, "second\n", "-o", exclusive=True)
    assert out.read_text(encoding="utf-8") == "first\n"
    assert [p.name for p in tmp_path.iterdir()] == ["new.yaml"]


def test_a_write_that_does_not_follow_links_replaces_the_link(tmp_path: Path) -> None:
    target = tmp_path / "target.txt"
    target.write_text("old", encoding="utf-8")
    (tmp_path / "link.txt").symlink_to(target)
    outputs.write_file(tmp_path / "link.txt", "new", follow_links=False)
    assert not (tmp_path / "link.txt").is_symlink()
    assert (tmp_path / "link.txt").read_text(encoding="utf-8") == "new"
    assert target.read_text(encoding="utf-8") == "old"
