"""A record is untrusted input that names things: it never makes replay open a file the
user did not name, a stored spec that differs from the spec it names is never
"verified", and the record file itself is read only when it is a regular file with
each key once. Every case goes through the CLI: exit 1 and one clear message, quickly."""

from __future__ import annotations

import copy
import json
import os
import socket
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from fuzzers import bounded

import ddzrules.records as R
import ddzrules.spec as S
import ddzrules.untrusted as U
from ddzrules.bots import HeuristicBot, RandomBot
from ddzrules.cli import main
from ddzrules.errors import DdzError
from ddzrules.records import FORMAT, ReplayError, _hash_of, game_record, load_record, replay
from ddzrules.runtime import GameRules
from ddzrules.simulate import play_game

SECRET = "aws_secret_access_key: wJalrXUtnFEMI/K7MDENG/bPxRfiCY\npassword = hunter2\n"
SECRET_WORDS = ("wJalrXUtnFEMI", "hunter2", "aws_secret")
#: seconds any one command here may take before it counts as a hang
HANG_SECONDS = 20


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    rules = GameRules.load("hubei-3p")
    game = play_game(rules, [HeuristicBot(1), RandomBot(2), HeuristicBot(3)], 2024)
    return json.loads(json.dumps(game_record(game)))


@pytest.fixture()
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture()
def spec_reads(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Path]]:
    """Every spec file read while the test runs (all go through read_spec_text)."""
    reads: list[Path] = []
    real = S.read_spec_text

    def spy(path: Path, file: str) -> str:
        reads.append(Path(path).resolve())
        return real(path, file)

    monkeypatch.setattr(S.reading, "read_spec_text", spy)
    yield reads


def outside_bundle(reads: list[Path], *allowed: Path) -> list[Path]:
    root = S.bundled_root().resolve()
    ok = {a.resolve() for a in allowed}
    return [p for p in reads if not p.is_relative_to(root) and p not in ok]


def run(*args: str) -> Result:
    with bounded(f"ddzrules {' '.join(args)}", HANG_SECONDS):
        return CliRunner().invoke(main, list(args))


def refused(result: Result) -> str:
    """The one-line message of a command that must exit 1 with a user error."""
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "ok:" not in result.output and "] verified" not in result.output  # no "scores [..] verified"
    return " ".join(result.output.split())


def verified(result: Result) -> str:
    assert result.exit_code == 0, result.output
    assert "verified" in result.output
    return " ".join(result.output.split())


def renamed(record: dict[str, Any], name: str) -> dict[str, Any]:
    """The record as if played under a spec of another name: stored spec and hash agree."""
    rec = copy.deepcopy(record)
    rec["spec"] = name
    rec["spec_resolved"]["name"] = name
    rec["spec_hash"] = _hash_of(rec["spec_resolved"])
    return rec


def old_format(record: dict[str, Any], name: str) -> dict[str, Any]:
    """The record in format /1 (the spec by name only), naming ``name``."""
    rec = {k: v for k, v in copy.deepcopy(record).items() if k != "spec_resolved"}
    rec["format"] = "ddzrules-game/1"
    rec["spec"] = name
    return rec


def write(path: Path, record: dict[str, Any]) -> str:
    path.write_text(json.dumps(record, ensure_ascii=False, indent=1), encoding="utf-8")
    return str(path)


def traps(folder: Path) -> None:
    """Files a record's spec name could point at: secrets, and FIFOs that block an open()."""
    for name in ("secret", "secret.yaml", "sub/secret", "sub/secret.yaml", "notes.txt"):
        (folder / name).parent.mkdir(exist_ok=True)
        (folder / name).write_text(SECRET, encoding="utf-8")
    for name in ("trap", "trap.yaml", "sub/trap.yaml"):
        os.mkfifo(folder / name)


# ====================================================================== a record's spec name


@pytest.mark.parametrize("name", ["secret", "secret.yaml", "sub/secret", "../secret.yaml", "notes.txt",
                                  "trap", "trap.yaml", "ABS/secret", "ABS/secret.yaml", "ABS/trap.yaml",
                                  "/etc/passwd", "/dev/zero", "-"])
def test_an_old_format_record_naming_a_file_never_opens_it(
        here: Path, record: dict[str, Any], spec_reads: list[Path], name: str) -> None:
    traps(here)
    (here / "run").mkdir()
    name = name.replace("ABS", str(here))
    path = write(here / "run" / "game.json", old_format(record, name))
    os.chdir(here / "run")  # "../secret.yaml" is next to it
    text = refused(run("replay", path))
    assert "not a bundled spec" in text and "--spec FILE" in text
    assert not any(word in text for word in SECRET_WORDS)
    assert outside_bundle(spec_reads) == []


@pytest.mark.parametrize("name", ["secret", "trap", "sub/secret", "sub/trap", "passwd"])
def test_a_stored_spec_record_named_like_a_file_never_opens_it(
        here: Path, record: dict[str, Any], spec_reads: list[Path], name: str) -> None:
    # before: replay looked for NAME and NAME.yaml here, hung on the FIFO trap.yaml
    traps(here)
    path = write(here / "game.json", renamed(record, name))
    text = verified(run("replay", path))
    assert f"'{name}' is not a bundled spec" in text and "nothing on disk was compared" in text
    assert not any(word in text for word in SECRET_WORDS)
    assert outside_bundle(spec_reads) == []


def test_a_bundled_name_is_read_from_the_bundle_not_from_here(
        here: Path, record: dict[str, Any], spec_reads: list[Path]) -> None:
    (here / "hubei-3p.yaml").write_text(SECRET, encoding="utf-8")
    os.mkfifo(here / "hubei-3p")
    path = write(here / "game.json", record)
    text = verified(run("replay", path))
    assert "matches the bundled spec 'hubei-3p' (specs/hubei-3p.yaml)" in text
    assert outside_bundle(spec_reads) == []
    text = verified(run("replay", write(here / "old.json", old_format(record, "hubei-3p"))))
    assert "under the bundled spec 'hubei-3p' (specs/hubei-3p.yaml), which matches" in text
    assert outside_bundle(spec_reads) == []


def test_the_spec_the_user_names_is_the_one_file_read(
        here: Path, record: dict[str, Any], spec_reads: list[Path]) -> None:
    traps(here)
    rec = renamed(record, "house")
    spec = here / "mine.yaml"
    spec.write_text(S.dump_yaml(rec["spec_resolved"]), encoding="utf-8")
    assert "the spec file mine.yaml matches" in verified(run("replay", write(here / "g.json", rec),
                                                             "--spec", "mine.yaml"))
    # format /1 of a spec that is not bundled replays with --spec, and only with it
    old = write(here / "old.json", old_format(rec, "house"))
    assert "not a bundled spec" in refused(run("replay", old))
    verified(run("replay", old, "--spec", "mine.yaml"))
    assert outside_bundle(spec_reads, spec) == []
    assert spec.resolve() in spec_reads


def test_a_house_spec_file_beside_a_record_is_not_read_by_its_name(
        here: Path, spec_reads: list[Path]) -> None:
    house = here / "house.yaml"
    house.write_text("extends: hubei-3p\nname: house\nplayers: 3\n", encoding="utf-8")
    assert run("play", "house.yaml", "--auto", "--seed", "3", "--record", "g.json").exit_code == 0
    house.write_text("extends: hubei-3p\nname: house\ntitle: {en: Changed since}\n", encoding="utf-8")
    spec_reads.clear()
    text = verified(run("replay", "g.json"))  # the stored rules, as recorded; the file unread
    assert "'house' is not a bundled spec" in text and "--spec FILE" in text
    assert spec_reads == []
    text = refused(run("replay", "g.json", "--spec", "house.yaml"))
    assert "house.yaml does not match this record" in text and "they differ at title" in text


# ====================================================================== stored rules that differ


def edit_title(spec: dict[str, Any]) -> None:
    spec["title"]["en"] = "Hubei, but with house rules"


def drop_readings(spec: dict[str, Any]) -> None:
    del spec["readings"]


def add_reading(spec: dict[str, Any]) -> None:
    spec["readings"]["\x1b[31mhouse\x07"] = "a key that would drive a terminal"


def edit_rule(spec: dict[str, Any]) -> None:
    spec["players"] = 4


def edit_many(spec: dict[str, Any]) -> None:
    for key in spec["readings"]:
        spec["readings"][key] += " (edited)"


@pytest.mark.parametrize("edit, places", [
    (edit_title, ["title.en"]), (drop_readings, ["readings"]), (add_reading, ["readings.?[31mhouse?"]),
    (edit_rule, ["players"]), (edit_many, ["readings.", ", …"]),
])
def test_stored_rules_that_differ_from_the_bundled_spec_are_not_verified(
        here: Path, record: dict[str, Any], edit: Any, places: list[str]) -> None:
    rec = copy.deepcopy(record)
    edit(rec["spec_resolved"])
    rec["spec_hash"] = _hash_of(rec["spec_resolved"])  # a consistent forgery
    result = run("replay", write(here / "g.json", rec))
    text = refused(result)
    assert "differ from the bundled spec 'hubei-3p' it names" in text
    assert "not verified as a 'hubei-3p' game" in text and "--spec FILE" in text
    assert all(p in text for p in places), text
    assert "\x1b" not in result.output and "\x07" not in result.output
    with pytest.raises(ReplayError, match="differ from the bundled spec"):
        replay(rec)
    if edit is edit_rule:  # compared before the stored spec is compiled (4 seats do not deal)
        with pytest.raises(DdzError, match="4 hands of 17"):
            replay(rec, check_disk=False)
    else:  # the API can still replay it under the stored rules alone
        assert replay(rec, check_disk=False).game.over


def test_a_house_spec_named_like_a_bundled_one(here: Path) -> None:
    (here / "house.yaml").write_text("extends: hubei-3p\nname: hubei-3p\n"
                                     "title: {en: Hubei at my house}\n", encoding="utf-8")
    assert run("play", "house.yaml", "--auto", "--seed", "3", "--record", "g.json").exit_code == 0
    text = refused(run("replay", "g.json"))
    assert "differ from the bundled spec 'hubei-3p'" in text and "title.en" in text
    assert "the spec file house.yaml matches" in verified(run("replay", "g.json", "--spec", "house.yaml"))
    text = refused(run("replay", "g.json", "--spec", "hubei-3p"))
    assert "hubei-3p does not match this record" in text and "title.en" in text


# ====================================================================== the record file itself


def fifo(folder: Path) -> Path:
    os.mkfifo(folder / "g.json")
    return folder / "g.json"


def to_zero(folder: Path) -> Path:
    (folder / "g.json").symlink_to("/dev/zero")
    return folder / "g.json"


def to_null(folder: Path) -> Path:
    (folder / "g.json").symlink_to(os.devnull)
    return folder / "g.json"


def unix_socket(folder: Path) -> Path:
    sock = socket.socket(socket.AF_UNIX)
    sock.bind("g.sock")  # relative to the test's folder: AF_UNIX paths are short
    unix_socket.keep = sock  # type: ignore[attr-defined]  # open until the test ends
    return folder / "g.sock"


def pipe(folder: Path) -> Path:
    r, w = os.pipe()
    pipe.keep = (r, w)  # type: ignore[attr-defined]
    return Path(f"/proc/self/fd/{r}")  # what /dev/stdin is when stdin is a pipe


@pytest.mark.parametrize("make, kind", [
    (fifo, "a FIFO"), (to_zero, "a character device"), (to_null, "a character device"),
    (unix_socket, "a socket"), (pipe, "a FIFO"),
])
def test_a_record_that_is_not_a_regular_file_is_refused_at_once(here: Path, make: Any, kind: str) -> None:
    if make is pipe and not Path("/proc/self/fd").is_dir():
        pytest.skip("no /proc")
    path = make(here)
    # before: a FIFO or a pipe blocked for ever, /dev/zero ran out of memory
    text = refused(run("replay", str(path)))
    assert f"is {kind}" in text and "not a game record file" in text
    with pytest.raises(DdzError, match=kind):
        load_record(path)


def test_a_directory_is_refused(here: Path) -> None:
    (here / "g.json").mkdir()
    with pytest.raises(DdzError, match="is a directory"):
        load_record(here / "g.json")
    result = run("replay", "g.json")  # click's own check, before load_record: exit 2
    assert result.exit_code != 0 and "is a directory" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_a_file_swapped_for_a_fifo_after_the_check_does_not_block(
        here: Path, record: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    write(here / "real.json", record)
    fifo(here)
    real_stat = os.stat

    def looks_regular(path: Any, *args: Any, **kwargs: Any) -> os.stat_result:
        if str(path).endswith("g.json"):  # what stat saw a moment before the swap
            return real_stat(here / "real.json")
        return real_stat(path, *args, **kwargs)

    monkeypatch.setattr(U.os, "stat", looks_regular)
    with bounded("load_record of a swapped FIFO", HANG_SECONDS), pytest.raises(DdzError, match="a FIFO"):
        load_record(here / "g.json")


def test_a_file_larger_than_it_said_is_read_no_further(
        here: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (here / "g.json").write_text("{" + " " * 5000 + "}", encoding="utf-8")
    (here / "small").write_text("{}", encoding="utf-8")
    real_stat, real_fstat, real_read = os.stat, os.fstat, os.read

    def said_small(path: Any, *args: Any, **kwargs: Any) -> os.stat_result:
        return real_stat(here / "small" if str(path).endswith("g.json") else path, *args, **kwargs)

    def open_said_small(fd: int) -> os.stat_result:  # the open file lies too (it grows while read)
        st = real_fstat(fd)
        return real_stat(here / "small") if st.st_size == 5002 else st

    reads: list[int] = []

    def counted(fd: int, n: int) -> bytes:
        chunk = real_read(fd, n)
        reads.append(len(chunk))
        return chunk

    monkeypatch.setattr(R, "MAX_RECORD_BYTES", 100)
    monkeypatch.setattr(U.os, "stat", said_small)
    monkeypatch.setattr(U.os, "fstat", open_said_small)
    monkeypatch.setattr(U.os, "read", counted)
    with pytest.raises(DdzError, match="too large"):
        load_record(here / "g.json")
    assert sum(reads) == 101  # one byte past the limit says "too large"; the rest is never read


def test_a_symlink_to_a_record_is_read(here: Path, record: dict[str, Any]) -> None:
    write(here / "real.json", record)
    (here / "g.json").symlink_to(here / "real.json")
    verified(run("replay", "g.json"))


# ====================================================================== a key given twice


def after(anchor: str, addition: str) -> Any:
    """A change that adds ``addition`` (which starts with ", " and a key) after the first
    ``anchor``; it gives the changed text and the offset of the added key."""
    def change(text: str) -> tuple[str, int]:
        at = text.index(anchor) + len(anchor)
        return text[:at] + addition + text[at:], at + addition.index('"')
    return change


def at_the_end(addition: str) -> Any:
    def change(text: str) -> tuple[str, int]:
        assert text.endswith("\n}")
        return text[:-2] + addition + text[-2:], len(text) - 2 + addition.index('"')
    return change


@pytest.mark.parametrize("change, key", [
    (at_the_end(',\n "scores": [0, 0, 0]'), "scores"),  # which scores would count?
    (after('"kind": "bid"', ', "kind": "pass"'), "kind"),  # inside actions[i]
    (after('"spec": "hubei-3p"', ', "sp\\u0065c": "secret"'), "spec"),  # spelled another way
    (after('"name": "hubei-3p"', ', "name": "x"'), "name"),  # inside the stored spec
])
def test_a_key_given_twice_is_refused_with_where(here: Path, record: dict[str, Any],
                                                  change: Any, key: str) -> None:
    text = json.dumps(record, indent=1)
    bad, at = change(text)
    (here / "g.json").write_text(bad, encoding="utf-8")
    line, col = bad.count("\n", 0, at) + 1, at - bad.rfind("\n", 0, at)
    message = refused(run("replay", "g.json"))
    assert f"g.json:{line}:{col}: the key '{key}' appears twice in one object" in message
    assert "secret" not in message


def test_a_key_twice_at_the_end_of_a_large_record_is_found_quickly(here: Path) -> None:
    body = ",".join(['{"a":1,"b":[2]}'] * 120_000)  # ~1.9 MB of tiny objects
    (here / "g.json").write_text('{"format":"ddzrules-game/2","x":[' + body + '],"y":{"k":1,\n"k":2}}',
                                 encoding="utf-8")
    message = refused(run("replay", "g.json"))
    assert "g.json:2:1: the key 'k' appears twice" in message


def test_the_nested_duplicate_that_comes_first_is_the_one_named(here: Path) -> None:
    (here / "g.json").write_text('{"a": 1, "a": {"b": 1, "b": 2}}', encoding="utf-8")
    assert "g.json:1:10: the key 'a' appears twice" in refused(run("replay", "g.json"))


def test_a_record_without_duplicates_is_unchanged(here: Path, record: dict[str, Any]) -> None:
    assert load_record(write(here / "g.json", record)) == record
    assert record["format"] == FORMAT
    assert stat.S_ISREG(os.stat(here / "g.json").st_mode)
