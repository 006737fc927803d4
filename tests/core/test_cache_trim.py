"""The table cache takes bounded disk: every change of the code keys its tables anew, so
without a bound the old ones pile up. Storing an entry past the bound removes the entries
used least recently (a load counts as a use), never the new entry, the key, a writer's
temporary file or a file that is not an entry."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

import ddzrules
from ddzrules.speed import cache as K


def _aged(path: Path, seconds_ago: float) -> None:
    t = time.time() - seconds_ago
    os.utime(path, (t, t))


def _entries(cache: Path, count: int, size: int) -> list[str]:
    """``count`` entries of about ``size`` bytes, stored as the library stores them, the
    first the oldest (an hour apart)."""
    names = [f"test-{i:02d}-{'a' * 16}.bin" for i in range(count)]
    for i, name in enumerate(names):
        K.store(name, bytes([i]) * size)
        _aged(cache / name, (count - i) * 3600)
    return names


def test_storing_past_the_bound_removes_the_least_recently_used(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(K, "MAX_CACHE_DIR_BYTES", 10_000)
    names = _entries(cache, 8, 1_000)  # about 8.5 KB: under the bound, nothing removed
    assert all((cache / n).exists() for n in names)
    sizes = [(cache / n).stat().st_size for n in names]
    new = "test-new-" + "b" * 16 + ".bin"
    K.store(new, b"x" * 3_000)
    # the oldest go, as few as bring the entries to TRIM_TO of the bound
    total = sum(sizes) + (cache / new).stat().st_size
    expected = 0
    while total > 10_000 * K.TRIM_TO:
        total -= sizes[expected]
        expected += 1
    left = {p.name for p in cache.iterdir()}
    assert {new, "key"} <= left
    assert [n for n in names if n not in left] == names[:expected] and expected == 4


def test_a_load_marks_an_entry_used(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(K, "MAX_CACHE_DIR_BYTES", 6_000)
    names = _entries(cache, 5, 1_000)
    assert K.load(names[0], lambda body: body) == bytes([0]) * 1_000  # the oldest, used now
    K.store("test-new-" + "b" * 16 + ".bin", b"x" * 1_500)
    left = {p.name for p in cache.iterdir()}
    assert names[0] in left  # kept: it was used last but one
    assert names[1] not in left  # the least recently used went


def test_only_entries_are_removed(cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Files that are not entries (no digest line), other writers' temporary files,
    directories, symlinks and what they point to stay, however old."""
    monkeypatch.setattr(K, "MAX_CACHE_DIR_BYTES", 1_000)
    names = _entries(cache, 3, 1_000)
    outside = tmp_path / "outside.bin"
    outside.write_bytes(b"o" * 5_000)
    others = {"notes.txt": b"mine" * 1_000, "x.bin.4242.deadbeef.tmp": b"t" * 1_000,
              "fake-" + "c" * 16 + ".bin": b"g" * 64 + b"\n" + b"z" * 1_000}  # a digest line that is no hex
    for name, body in others.items():
        (cache / name).write_bytes(body)
        _aged(cache / name, 10 * 86400)
    (cache / "link.bin").symlink_to(outside)
    (cache / "sub").mkdir()
    K.store("test-new-" + "b" * 16 + ".bin", b"x" * 100)
    left = {p.name for p in cache.iterdir()}
    assert not set(names) & left  # every older entry went: the bound is below them
    assert set(others) | {"link.bin", "sub", "key", "test-new-" + "b" * 16 + ".bin"} <= left
    assert outside.read_bytes() == b"o" * 5_000


def test_an_unwritable_directory_is_no_error(tmp_path: Path) -> None:
    assert K.trim(tmp_path / "missing", limit=0) == []


def test_a_variant_answers_the_same_once_its_table_is_trimmed(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bound below one table: the next store removes it; the next load builds it again
    and answers as before."""
    def answers() -> tuple[object, ...]:
        v = ddzrules.load_variant("hubei-3p")
        return v.census(), [m.cards for m in v.legal_moves("33344455566")]

    before = answers()
    assert [p for p in cache.glob("*.json")]
    monkeypatch.setattr(K, "MAX_CACHE_DIR_BYTES", 1)
    K.store("test-new-" + "b" * 16 + ".bin", b"x")
    assert not [p for p in cache.glob("*.json")]  # the table went
    monkeypatch.setattr(K, "MAX_CACHE_DIR_BYTES", 10**9)
    assert answers() == before
    assert [p for p in cache.glob("*.json")]  # built and stored again


@pytest.mark.parametrize("value", ["1G", "-5", "abc", "9" * 30])
def test_a_bound_that_is_no_number_of_bytes_is_said_and_the_default_used(value: str,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DDZRULES_MAX_CACHE_DIR_BYTES", value)
    monkeypatch.setenv("DDZRULES_MAX_CACHE_BYTES", value)
    monkeypatch.setattr(K, "_warned_env", set())
    with pytest.warns(K.CacheWarning, match="DDZRULES_MAX_CACHE_DIR_BYTES=.* is not a number of bytes"):
        assert K.max_dir_bytes() == 2**30
    with pytest.warns(K.CacheWarning, match="DDZRULES_MAX_CACHE_BYTES=.* is not a number of bytes"):
        assert K.max_file_bytes() == 512 * 2**20
    monkeypatch.setenv("DDZRULES_MAX_CACHE_DIR_BYTES", "12345")
    assert K.max_dir_bytes() == 12345
