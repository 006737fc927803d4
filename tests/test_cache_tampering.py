"""The on-disk table cache is untrusted input: whatever is done to a cache file (its
entries edited with the hash kept, negative or huge values, a symlink to /dev/zero, a
FIFO, a directory, a huge file), census, classify and legal_moves answer as with a
clean cache, and the file is rebuilt with a warning."""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

import ddzrules
from ddzrules.variant import CacheWarning

HAND = "3456789TTJJQQKKA2"


def answers(v: ddzrules.Variant) -> tuple[object, ...]:
    return (v.census(), v.classify("3"), v.classify("33344469"), len(v.legal_moves(HAND)),
            [m.cards for m in v.legal_moves(HAND, after="34567")])


@pytest.fixture()
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    d = tmp_path / "cache"
    monkeypatch.setenv("DDZRULES_CACHE_DIR", str(d))
    monkeypatch.delenv("DDZRULES_NO_CACHE", raising=False)
    return d


def table_file(cache: Path) -> Path:
    (f,) = [p for p in cache.glob("*.json")]
    return f


def edit_entries(fn: Callable[[dict], None]) -> Callable[[Path], None]:
    """Edit the JSON payload and keep the file's digest line and the spec hash as they were."""
    def damage(path: Path) -> None:
        digest, _, body = path.read_bytes().partition(b"\n")
        payload = json.loads(body)
        fn(payload)
        path.write_bytes(digest + b"\n" + json.dumps(payload).encode())
    return damage


def _pair_for_three(p: dict) -> None:
    for e in p["idents"]:
        if e[0] == 1:  # the single 3
            e[1] = 1  # read as a pair


def _replace_file(make: Callable[[Path], None]) -> Callable[[Path], None]:
    def damage(path: Path) -> None:
        path.unlink()
        make(path)
    return damage


DAMAGE = {
    "3 read as a pair": edit_entries(_pair_for_three),
    "empty table": edit_entries(lambda p: (p["idents"].clear(), p["shapes"].clear())),
    "negative packed value": edit_entries(lambda p: p["idents"][0].__setitem__(0, -5)),
    "huge packed value": edit_entries(lambda p: p["idents"][0].__setitem__(0, 10**400)),
    "combo out of range": edit_entries(lambda p: p["idents"][0].__setitem__(1, 99)),
    "entry not a list": edit_entries(lambda p: p["idents"].__setitem__(0, "x")),
    "more cards than the deck": edit_entries(lambda p: p["idents"][0].__setitem__(0, 5)),
    "shapes out of range": edit_entries(lambda p: p["shapes"].__setitem__(0, 10**6)),
    "deep JSON": lambda path: path.write_bytes(path.read_bytes().partition(b"\n")[0] + b"\n"
                                               + b"[" * 100000 + b"]" * 100000),
    "digest recomputed without the key": lambda path: path.write_bytes(
        b"0" * 64 + b"\n" + path.read_bytes().partition(b"\n")[2]),
    "truncated": lambda path: path.write_bytes(path.read_bytes()[:1000]),
    "symlink to /dev/zero": _replace_file(lambda p: p.symlink_to("/dev/zero")),
    "a FIFO": _replace_file(lambda p: os.mkfifo(p)),
    "a directory": _replace_file(lambda p: p.mkdir()),
}


@pytest.mark.parametrize("name", list(DAMAGE))
def test_tampered_cache_never_changes_an_answer(cache: Path, name: str) -> None:
    clean = answers(ddzrules.load_variant("hubei-3p"))
    DAMAGE[name](table_file(cache))
    result: list[object] = []

    def run() -> None:
        worker = threading.Thread(target=lambda: result.append(answers(ddzrules.load_variant("hubei-3p"))),
                                  daemon=True)
        worker.start()
        worker.join(timeout=60)  # a FIFO must not block: never wait for a writer

    with pytest.warns(CacheWarning, match="rebuilding"):
        run()
    assert result == [clean], name


def test_a_foreign_cache_key_is_not_trusted(cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A table written under another installation's key (a copied cache) is rebuilt."""
    clean = answers(ddzrules.load_variant("hubei-3p"))
    (cache / "key").write_bytes(os.urandom(32))
    with pytest.warns(CacheWarning):
        assert answers(ddzrules.load_variant("hubei-3p")) == clean


def test_oversized_cache_file_is_not_read(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    clean = answers(ddzrules.load_variant("hubei-3p"))
    monkeypatch.setattr("ddzrules.cache.MAX_CACHE_BYTES", 1000)
    with pytest.warns(CacheWarning, match="larger than"):
        assert answers(ddzrules.load_variant("hubei-3p")) == clean


def test_a_clean_cache_is_served_without_warning(cache: Path, recwarn: pytest.WarningsRecorder) -> None:
    clean = answers(ddzrules.load_variant("hubei-3p"))
    assert answers(ddzrules.load_variant("hubei-3p")) == clean
    assert not [w for w in recwarn if issubclass(w.category, CacheWarning)]
