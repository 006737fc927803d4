"""The on-disk table cache is untrusted input: whatever is done to a cache file (its
entries edited with the hash kept, negative or huge values, a symlink to /dev/zero, a
FIFO, a directory, a huge file), census, classify and legal_moves answer as with a
clean cache, and the file is rebuilt with a warning."""

from __future__ import annotations

import os
import stat
import threading
import time
import warnings
from array import array
from collections.abc import Callable
from pathlib import Path

import pytest

import ddzrules
from ddzrules.rules.universe import _COLUMNS, _HEADER
from ddzrules.speed.cache import CacheWarning, _digest

HAND = "3456789TTJJQQKKA2"


def answers(v: ddzrules.Variant) -> tuple[object, ...]:
    return (v.census(), v.classify("3"), v.classify("33344469"), len(v.legal_moves(HAND)),
            [m.cards for m in v.legal_moves(HAND, after="34567")])


def table_file(cache: Path) -> Path:
    (f,) = [p for p in cache.glob("*.json")]
    return f


class Payload:
    """A table file's payload taken apart (see ddzrules.rules.universe.UniverseRows): the spec's hash
    line, the header (magic, row count) and the column arrays, editable as lists."""

    def __init__(self, body: bytes) -> None:
        self.head, _, rest = body.partition(b"\n")
        self.magic, n = _HEADER.unpack_from(rest)
        at = _HEADER.size
        self.cols: dict[str, list[int]] = {}
        for name, typecode in _COLUMNS:
            col = array(typecode)
            col.frombytes(rest[at:at + n * col.itemsize])
            at += n * col.itemsize
            self.cols[name] = col.tolist()

    def encode(self) -> bytes:
        n = len(self.cols["packs"])
        out = [self.head, b"\n", _HEADER.pack(self.magic, n)]
        for name, typecode in _COLUMNS:
            out.append(array(typecode, self.cols[name]).tobytes())
        return b"".join(out)


def edit_entries(fn: Callable[[Payload], None]) -> Callable[[Path], None]:
    """Edit the payload's rows and keep the file's digest line and the spec hash as they were."""
    def damage(path: Path) -> None:
        digest, _, body = path.read_bytes().partition(b"\n")
        payload = Payload(body)
        fn(payload)
        path.write_bytes(digest + b"\n" + payload.encode())
    return damage


def _pair_for_three(p: Payload) -> None:
    for i, packed in enumerate(p.cols["packs"]):
        if packed == 1:  # the single 3
            p.cols["combos"][i] = 1  # read as a pair


def _set(column: str, value: int, row: int = 0) -> Callable[[Payload], None]:
    return lambda p: p.cols[column].__setitem__(row, value)


def _raw_value(column: str, raw: bytes) -> Callable[[Path], None]:
    """Overwrite the first value of a column with raw bytes (values an array cannot hold)."""
    def damage(path: Path) -> None:
        data = bytearray(path.read_bytes())
        digest_end = data.index(b"\n") + 1
        at = data.index(b"\n", digest_end) + 1 + _HEADER.size
        n = _HEADER.unpack_from(data, at - _HEADER.size)[1]
        for name, typecode in _COLUMNS:
            if name == column:
                break
            at += n * array(typecode).itemsize
        data[at:at + len(raw)] = raw
        path.write_bytes(bytes(data))
    return damage


def _clear(p: Payload) -> None:
    for col in p.cols.values():
        col.clear()


def _shuffle(p: Payload) -> None:
    for col in p.cols.values():
        col.reverse()


def _replace_file(make: Callable[[Path], None]) -> Callable[[Path], None]:
    def damage(path: Path) -> None:
        path.unlink()
        make(path)
    return damage


DAMAGE = {
    "3 read as a pair": edit_entries(_pair_for_three),
    "empty table": edit_entries(_clear),
    "rows out of order": edit_entries(_shuffle),
    "negative packed value": _raw_value("packs", (-5).to_bytes(8, "little", signed=True)),
    "huge packed value": _raw_value("packs", b"\xff" * 8),
    "zero packed value": edit_entries(_set("packs", 0)),
    "combo out of range": edit_entries(_set("combos", 99)),
    "rank out of range": edit_entries(_set("ranks", 200)),
    "length zero": edit_entries(_set("lengths", 0)),
    "more cards than the deck": edit_entries(_set("packs", 5)),
    "more cards than a hand": edit_entries(_set("packs", (1 << 60) - 1 - (0xFF << 52), -1)),
    "shapes out of range": edit_entries(_set("shapes", 10**6)),
    "shapes out of range in a high byte": edit_entries(_set("shapes", 1 << 16)),
    "combo out of range in its high byte": edit_entries(_set("combos", 256)),
    "length above the ranks": edit_entries(_set("lengths", 16)),
    "the packed count's spare top field": edit_entries(_set("packs", (1 << 60) | 1)),
    "a duplicated row": edit_entries(lambda p: [col.insert(0, col[0]) for col in p.cols.values()]),
    "row count larger than the file": edit_entries(lambda p: setattr(p, "encode", lambda: (
        p.head + b"\n" + _HEADER.pack(p.magic, 10**9)))),
    "another format's magic": edit_entries(lambda p: setattr(p, "magic", b"JSON")),
    "the table of other rules": edit_entries(lambda p: setattr(p, "head", b"0" * len(p.head))),
    "JSON instead of arrays": lambda path: path.write_bytes(path.read_bytes().partition(b"\n")[0] + b"\n"
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
    monkeypatch.setattr("ddzrules.speed.cache.MAX_CACHE_BYTES", 1000)
    with pytest.warns(CacheWarning, match="larger than"):
        assert answers(ddzrules.load_variant("hubei-3p")) == clean


def test_a_clean_cache_is_served_without_warning(cache: Path, recwarn: pytest.WarningsRecorder) -> None:
    clean = answers(ddzrules.load_variant("hubei-3p"))
    assert answers(ddzrules.load_variant("hubei-3p")) == clean
    assert not [w for w in recwarn if issubclass(w.category, CacheWarning)]


def test_a_spec_without_combos_is_served_from_the_cache_without_warning(
        cache: Path, tmp_path: Path, recwarn: pytest.WarningsRecorder) -> None:
    """Its table has no rows, which every later run refused as tampered (with a warning)."""
    spec = tmp_path / "zero.yaml"
    spec.write_text("name: zero\n", encoding="utf-8")
    for _ in range(2):
        variant = ddzrules.load_variant(str(spec))
        assert variant.classify("3") == () and list(variant.legal_moves("345")) == []
    assert not [w for w in recwarn if issubclass(w.category, CacheWarning)]


#: tamperings the structure checks refuse by themselves, even under a valid digest (as if
#: the key had leaked): a value out of range, rows out of order, cards no hand can hold
STRUCTURAL = ["empty table", "rows out of order", "negative packed value", "huge packed value",
              "zero packed value", "combo out of range", "rank out of range", "length zero",
              "more cards than the deck", "more cards than a hand", "shapes out of range",
              "shapes out of range in a high byte", "combo out of range in its high byte",
              "length above the ranks", "the packed count's spare top field",
              "row count larger than the file", "another format's magic", "the table of other rules",
              "JSON instead of arrays", "truncated"]


@pytest.mark.parametrize("name", STRUCTURAL)
def test_structure_is_checked_under_a_valid_digest(cache: Path, name: str) -> None:
    clean = answers(ddzrules.load_variant("hubei-3p"))
    path = table_file(cache)
    DAMAGE[name](path)
    body = path.read_bytes().partition(b"\n")[2]
    key = (cache / "key").read_bytes()
    path.write_bytes(_digest(key, path.name, body) + b"\n" + body)
    with pytest.warns(CacheWarning, match="rebuilding"):
        assert answers(ddzrules.load_variant("hubei-3p")) == clean


def test_byte_column_checks_agree_with_counting(hubei: ddzrules.Variant) -> None:
    """The table checks read byte columns (translate) and all the packed counts as one big
    int; on random values they agree with unpacking every count and comparing it with the
    deck and the largest hand, with range checks one value at a time, and with sorting."""
    import random
    import sys

    from ddzrules.rules.universe import _all_in, _ascending, _check_cards

    if sys.byteorder != "little":
        pytest.skip("the arrays below are written in the machine's order; files are little-endian")

    rules = hubei.rules
    rng = random.Random(12)
    for _ in range(300):
        counts = [[rng.choice([0, 0, 1, 2, rng.randrange(16)]) for _ in range(16)] for _ in range(rng.randrange(1, 9))]
        packs = array("Q", [sum(c << (4 * r) for r, c in enumerate(cs)) for cs in counts])
        expected = all(cs[15] == 0 and all(c <= d for c, d in zip(cs, rules.deck))
                       and sum(cs) <= rules.max_hand for cs in counts)
        try:
            _check_cards(rules, packs.tobytes())
            got = True
        except ValueError:
            got = False
        assert got == expected, counts
    for width, typecode in ((1, "B"), (2, "H"), (4, "I")):
        for _ in range(200):
            col = array(typecode, [rng.choice([0, 1, 5, 255, 256, 1000, 70000]) % (1 << 8 * width)
                                   for _ in range(rng.randrange(1, 6))])
            low, high = rng.choice([(0, 15), (1, 16), (0, 256), (0, 300), (3, 3)])
            assert _all_in(col.tobytes(), width, low, high) == all(low <= x < high for x in col), (col, low, high)
    for _ in range(300):
        values = [rng.choice([0, 1, 2, (1 << 60) - 1, rng.randrange(1 << 60)]) for _ in range(rng.randrange(0, 7))]
        if rng.random() < 0.5:
            values.sort()
        assert _ascending(array("Q", values).tobytes()) == (values == sorted(values)), values


# ---------------------------------------------------------------- the key, and killed writers

def _key_damage() -> dict[str, Callable[[Path], None]]:
    outside_key = b"k" * 32  # a key whose content anyone knows

    def symlink_to_known(path: Path) -> None:
        target = path.parent.parent / "known-key"
        target.write_bytes(outside_key)
        path.unlink()
        path.symlink_to(target)

    return {
        "empty (a writer killed before writing it)": lambda p: p.write_bytes(b""),
        "truncated": lambda p: p.write_bytes(p.read_bytes()[:5]),
        "too long": lambda p: p.write_bytes(p.read_bytes() + b"x"),
        "a symlink to /dev/zero": _replace_file(lambda p: p.symlink_to("/dev/zero")),
        "a symlink to a file of 32 known bytes": symlink_to_known,
        "a dangling symlink": _replace_file(lambda p: p.symlink_to(p.parent / "nowhere")),
        "a FIFO": _replace_file(lambda p: os.mkfifo(p)),
    }


KEY_DAMAGE = _key_damage()


def _key_warnings(record: list[warnings.WarningMessage]) -> list[str]:
    return [str(w.message) for w in record if issubclass(w.category, CacheWarning)
            and str(w.message).startswith("the table cache's key")]


@pytest.mark.parametrize("name", list(KEY_DAMAGE))
def test_a_damaged_key_is_made_again_with_one_warning(cache: Path, name: str) -> None:
    """A key that is not a regular 32-byte file used to turn the cache off for good (every
    load then rebuilt every table, laizi's environment 25 s in each process): it is replaced,
    with one warning, and the tables are cached (and served) again."""
    clean = answers(ddzrules.load_variant("hubei-3p"))
    KEY_DAMAGE[name](cache / "key")
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        result: list[object] = []
        worker = threading.Thread(target=lambda: result.append(answers(ddzrules.load_variant("hubei-3p"))),
                                  daemon=True)
        worker.start()
        worker.join(timeout=60)  # a FIFO must not block
        assert result == [clean]
        assert answers(ddzrules.load_variant("hubei-3p")) == clean
    said = _key_warnings(record)
    assert len(said) == 1 and "damaged" in said[0] and "making a new one" in said[0], said
    # the one warning: the entries keyed by the lost key are rebuilt without one each
    assert len([w for w in record if issubclass(w.category, CacheWarning)]) == 1
    key = cache / "key"
    assert key.is_file() and not key.is_symlink() and len(key.read_bytes()) == 32
    assert key.read_bytes() != b"k" * 32
    assert stat.S_IMODE(os.lstat(key).st_mode) == 0o600
    # the table was stored again under the new key, and is served without a warning
    path = table_file(cache)
    digest, _, body = path.read_bytes().partition(b"\n")
    assert digest == _digest(key.read_bytes(), path.name, body)
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        assert answers(ddzrules.load_variant("hubei-3p")) == clean
    assert not [w for w in record if issubclass(w.category, CacheWarning)]
    assert not list(cache.glob("*.tmp"))


def test_a_key_that_cannot_be_made_warns_once_and_answers_stay_right(cache: Path) -> None:
    clean = answers(ddzrules.load_variant("hubei-3p"))
    (cache / "key").unlink()
    (cache / "key").mkdir()
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        for _ in range(3):
            assert answers(ddzrules.load_variant("hubei-3p")) == clean
    said = _key_warnings(record)
    assert len(said) == 2 and "damaged" in said[0] and "cannot be made" in said[1], said
    assert not list(cache.glob("*.tmp"))


def test_concurrent_first_uses_agree_on_one_key(cache: Path) -> None:
    """Writers racing to make the first key: one key, never a partly written one."""
    from ddzrules.speed.cache import _cache_key

    cache.mkdir(parents=True, exist_ok=True)
    got: list[bytes | None] = []
    barrier = threading.Barrier(8)

    def first_use() -> None:
        barrier.wait()
        got.append(_cache_key())

    threads = [threading.Thread(target=first_use) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert len(got) == 8 and len(set(got)) == 1 and got[0] == (cache / "key").read_bytes()
    assert not list(cache.glob("*.tmp"))


def test_stale_temporary_files_of_killed_writers_are_removed(cache: Path, tmp_path: Path) -> None:
    """Temporary files of the cache's own pattern older than STALE_TMP_SECONDS go when a
    process first writes there; newer ones (a writer at work), other names, directories and
    the targets of symlinks stay."""
    from ddzrules.speed.cache import STALE_TMP_SECONDS

    cache.mkdir(parents=True)
    old = time.time() - STALE_TMP_SECONDS - 60
    outside = tmp_path / "outside.json"
    outside.write_bytes(b"not the cache's")
    made = {
        "table-abc.json.4242.deadbeef.tmp": "stale",
        "key.17.0123abcd.tmp": "stale",
        "table-abc.json.4243.cafef00d.tmp": "fresh",
        "notes.tmp": "other", "table-abc.json.12.xyz.tmp": "other", "table.json": "other",
        "link.json.9.00000000.tmp": "stale link",
        "dir.json.9.11111111.tmp": "directory",
    }
    for name, kind in made.items():
        p = cache / name
        if kind == "stale link":
            p.symlink_to(outside)
        elif kind == "directory":
            p.mkdir()
        else:
            p.write_bytes(b"x" * 100)
        if kind != "fresh":
            os.utime(p, (old, old), follow_symlinks=False)
    ddzrules.load_variant("hubei-3p")  # writes its table (and the key): cleans first
    left = {p.name for p in cache.iterdir()}
    for name, kind in made.items():
        assert (name in left) == (kind in ("fresh", "other", "directory")), (name, kind)
    assert outside.read_bytes() == b"not the cache's"
