"""The one module for untrusted bytes (issue 45, step 6): its bounded reader of regular
files and its strict-JSON policy, on their own; the readers built on them (records,
suites, duel records, batch lines, playground requests) have their own hostile tests."""

from __future__ import annotations

import json
import os
import socket
import stat
from pathlib import Path

import pytest
from fuzzers import bounded
from hypothesis import given, settings
from hypothesis import strategies as st

from ddzrules.errors import DdzError
from ddzrules.untrusted import (
    FileRefused,
    JSONPolicy,
    JSONRefused,
    file_kind,
    not_regular,
    open_regular,
    parse_json,
    read_regular,
)

POLICY = JSONPolicy(max_bytes=4096, max_depth=4, max_int_digits=6, max_number_chars=12)


# ====================================================================== files


def test_a_regular_file_is_read_whole(tmp_path: Path) -> None:
    (tmp_path / "f").write_bytes(b"abc\x00def")
    assert read_regular(tmp_path / "f", 8) == b"abc\x00def"
    with open_regular(tmp_path / "f", 8) as f:
        assert f.readline() == b"abc\x00def"


def test_a_file_over_the_limit_is_refused_naming_the_file_and_the_limit(tmp_path: Path) -> None:
    (tmp_path / "f").write_bytes(b"SECRET-CONTENT")
    with pytest.raises(FileRefused) as e:
        read_regular(tmp_path / "f", 5)
    assert e.value.problem == "too large" and e.value.size == 14 and e.value.limit == 5
    message = str(e.value)
    assert str(tmp_path / "f") in message and "the limit of 5 bytes" in message and "SECRET" not in message


def test_a_file_that_grows_while_read_stops_one_byte_past_the_limit(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The size the file gave is a claim: the read itself is bounded."""
    import ddzrules.untrusted as U

    (tmp_path / "big").write_bytes(b"x" * 5000)
    (tmp_path / "small").write_bytes(b"x")
    real_stat, real_fstat, real_read = os.stat, os.fstat, os.read
    monkeypatch.setattr(U.os, "stat", lambda p, **kw: real_stat(tmp_path / "small", **kw))
    monkeypatch.setattr(U.os, "fstat", lambda fd: real_stat(tmp_path / "small") if real_fstat(fd).st_size == 5000
                        else real_fstat(fd))
    reads: list[int] = []

    def counted(fd: int, n: int) -> bytes:
        chunk = real_read(fd, n)
        reads.append(len(chunk))
        return chunk

    monkeypatch.setattr(U.os, "read", counted)
    with pytest.raises(FileRefused, match="larger than the limit of 100 bytes") as e:
        read_regular(tmp_path / "big", 100)
    assert e.value.size is None and sum(reads) == 101


def test_a_name_that_is_no_path_is_refused_cleanly() -> None:
    with pytest.raises(FileRefused) as e:
        read_regular("a\0b", 10)
    assert e.value.problem == "unreadable" and "\0" not in str(e.value)


def test_a_missing_file_is_said_missing(tmp_path: Path) -> None:
    with pytest.raises(FileRefused) as e:
        read_regular(tmp_path / "nothing", 10)
    assert e.value.problem == "missing" and isinstance(e.value, DdzError)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "fifo")
    with bounded("read_regular of a FIFO", 10), pytest.raises(FileRefused) as e:
        read_regular(tmp_path / "fifo", 10)
    assert e.value.problem == "not regular" and e.value.kind == "a FIFO (named pipe)"


@pytest.mark.parametrize("path", ["/dev/zero", "/dev/null", "."])
def test_devices_and_directories_are_refused_by_what_they_are(path: str) -> None:
    if not os.path.exists(path):
        pytest.skip(f"no {path} here")
    with bounded(f"read_regular of {path}", 10), pytest.raises(FileRefused) as e:
        read_regular(path, 10)
    assert e.value.problem == "not regular"
    assert e.value.kind in ("a character device", "a directory")


def test_a_symlink_is_followed_unless_refused(tmp_path: Path) -> None:
    (tmp_path / "real").write_bytes(b"{}")
    (tmp_path / "link").symlink_to(tmp_path / "real")
    assert read_regular(tmp_path / "link", 10) == b"{}"
    with pytest.raises(FileRefused) as e:
        read_regular(tmp_path / "link", 10, follow_symlinks=False)
    assert e.value.kind == "a symbolic link"


def test_file_kind_names_every_kind_of_file(tmp_path: Path) -> None:
    sock = socket.socket(socket.AF_UNIX)
    try:
        sock.bind(str(tmp_path / "s"))
        assert not_regular(os.stat(tmp_path / "s").st_mode) == "a socket"
    finally:
        sock.close()
    assert not_regular(stat.S_IFREG) is None
    assert file_kind(stat.S_IFBLK) == "a block device"


# ====================================================================== JSON


def refusal(text: str | bytes, policy: JSONPolicy = POLICY) -> JSONRefused:
    with pytest.raises(JSONRefused) as e:
        parse_json(text, policy)
    return e.value


def test_strict_json_reads_what_json_holds() -> None:
    value = {"a": [1, -2.5, "x", None, True, {"b": []}], "é": "\U0001f600"}
    assert parse_json(json.dumps(value), POLICY) == value
    assert parse_json(json.dumps(value).encode(), POLICY) == value


def test_a_key_given_twice_is_named_at_its_second_place() -> None:
    e = refusal('{"a": {"k": 1,\n  "k": 2}}')
    assert (e.problem, e.key, e.line, e.column) == ("key", "k", 2, 3)
    assert str(e) == "2:3: the key 'k' appears twice in one object"


def test_the_duplicate_named_is_the_first_in_the_text() -> None:
    # the inner object closes first, but the outer key comes back before the inner one does
    e = refusal('{"a": 1, "a": {"z": 1, "z": 2}}')
    assert (e.key, e.column) == ("a", 10)


def test_an_escaped_key_is_compared_as_the_text_it_stands_for() -> None:
    e = refusal('{"\\u0061": 1, "a": 2}')
    assert e.key == "a" and e.column == 15


def test_a_repeated_key_is_shown_without_control_characters() -> None:
    e = refusal('{"\\u001b[2J": 1, "\\u001b[2J": 2}')
    assert "\x1b" not in str(e) and e.key == "\x1b[2J"


@pytest.mark.parametrize(("text", "field", "why"), [
    ('{"n": NaN}', "n", "NaN is not a JSON number"),
    ('{"n": [1, -Infinity]}', "n/1", "-Infinity is not a JSON number"),
    ('[{"x": 1e999}]', "0/x", "a number too large for a float"),
    ('{"seed": 1234567}', "seed", "an integer of 7 digits (at most 6)"),
    ('{"f": 1.00000000000001}', "f", "a number written with 16 characters (at most 12)"),
    ('{"a b": 1234567}', "<key>", "an integer of 7 digits"),
    ("1234567", "top level", "an integer of 7 digits"),
])
def test_a_refused_number_is_named_by_its_field_and_column(text: str, field: str, why: str) -> None:
    e = refusal(text)
    assert e.problem == "number" and e.field == field and why in e.reason
    assert text[e.column - 1] in "-0123456789NI"  # the column is where the number starts


def test_a_digit_inside_a_string_is_no_number() -> None:
    text = '{"s": "1234567 [ { ,", "n": 1234567}'
    e = refusal(text)
    assert (e.field, e.column) == ("n", text.rindex("1234567") + 1)


def test_nesting_is_bounded_by_the_policy_and_never_by_python() -> None:
    assert parse_json("[[[[1]]]]", POLICY) == [[[[1]]]]
    e = refusal("[[[[[1]]]]]")
    assert (e.problem, e.column) == ("depth", 5) and "more than 4 levels" in e.reason
    with bounded("a text nested 200,000 deep", 30):
        e = refusal("[" * 200_000 + "]" * 200_000, JSONPolicy(max_bytes=10**6, max_depth=4))
    assert (e.problem, e.column) == ("depth", 5)


def test_a_text_over_the_size_bound_is_refused_unread() -> None:
    e = refusal(b" " * 4097)
    assert e.problem == "size" and "4,097 bytes, larger than the limit of 4,096" in str(e)


def test_bytes_that_are_no_utf8_are_placed() -> None:
    e = refusal(b'{"a":\n "\xff"}')
    assert (e.problem, e.line, e.column) == ("encoding", 2, 3) and "byte 9" in e.reason


def test_a_lone_surrogate_is_refused_and_a_pair_is_read() -> None:
    assert parse_json('["\\ud83d\\ude00"]', POLICY) == ["\U0001f600"]
    e = refusal('["ok", {"\\ud800": 1}]')
    assert (e.problem, e.column) == ("surrogate", 9)


def test_a_syntax_error_keeps_the_decoders_words() -> None:
    e = refusal('{"a": 1,}')
    assert e.problem == "syntax" and e.syntax is not None and e.reason == f"not valid JSON: {e.syntax}"


def test_a_refusal_survives_a_process_boundary() -> None:
    import pickle

    e = pickle.loads(pickle.dumps(refusal('{"a": 1, "a": 2}')))
    assert isinstance(e, JSONRefused) and e.key == "a" and str(e).endswith("appears twice in one object")


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200) | st.text(alphabet='{}[]:,"\\ 0123456789-.eE+aNIfinityulrsd\n\ud800',
                                         max_size=80))
def test_any_input_gives_a_value_or_a_clean_refusal(raw: bytes | str) -> None:
    """Whatever the bytes, the answer is JSON's value or a JSONRefused: never another
    exception (a RecursionError, a UnicodeError, an int() too long)."""
    try:
        value = parse_json(raw, POLICY)
    except JSONRefused as e:
        assert e.line >= 1 and e.column >= 1 and e.reason
    else:
        assert json.loads(json.dumps(value)) == value


@settings(max_examples=200, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers(-10**5, 10**5) | st.text(max_size=5),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner,
                                                                                max_size=3),
                    max_leaves=10))
def test_what_json_writes_within_the_bounds_reads_back(value: object) -> None:
    text = json.dumps(value)
    try:
        assert parse_json(text, POLICY) == value
    except JSONRefused as e:  # only the depth bound can refuse what json.dumps writes here
        assert e.problem in ("depth", "surrogate"), e
