"""The on-disk table cache: untrusted input that is only ever served when it checks.

Compiled structures (the natural move table, wild-card tables …) are cached in
``~/.cache/ddzrules`` (or ``DDZRULES_CACHE_DIR``) so that loading is fast. Anyone who
can write there can edit a file, so an entry is served only when

- it is a regular file (no symlink, FIFO or device) no larger than ``MAX_CACHE_BYTES``;
- its keyed digest (HMAC-SHA-256 under a random key made once per installation, over
  the entry's name and its payload) matches, so an edited, truncated, corrupted, copied
  or renamed file is refused;
- the caller's ``parse`` accepts the payload (its own structure checks: types, ranges,
  cards of the deck), raising ``ValueError`` for anything doubtful.

Anything refused is reported with a :class:`CacheWarning` and the caller rebuilds.
Entries are written to a private temporary file and renamed into place atomically,
so concurrent writers never mix. ``DDZRULES_NO_CACHE=1`` turns the cache off.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import stat
import warnings
from collections.abc import Callable
from functools import cache as _memo
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")

#: a cache file larger than this is not read (untrusted input: bounded memory)
MAX_CACHE_BYTES = int(os.environ.get("DDZRULES_MAX_CACHE_BYTES", str(512 * 2**20)))
_KEY_BYTES = 32
_DIGEST_BYTES = 64  # hex of SHA-256


class CacheWarning(UserWarning):
    """A table cache file that was not trusted: the table was rebuilt from the spec."""


def cache_dir() -> Path:
    base = os.environ.get("DDZRULES_CACHE_DIR")
    if base:
        return Path(base)
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "ddzrules"


def enabled() -> bool:
    return not os.environ.get("DDZRULES_NO_CACHE")


@_memo
def code_hash(version: object, *sources: str) -> str:
    """A short hash of a format version and of package source files (names relative to
    the package), so that changed code never reads an entry the old code wrote."""
    h = hashlib.sha256(str(version).encode())
    for name in sources:
        h.update(_source_digest(name))
    return h.hexdigest()[:16]


@_memo
def _source_digest(name: str) -> bytes:
    """SHA-256 of one package source file (read once a process: entries share sources)."""
    with open(os.path.join(os.path.dirname(__file__), name), "rb") as f:
        return hashlib.sha256(f.read()).digest()


def _cache_key() -> bytes | None:
    """The secret this installation keys its cache digests with (``key`` in the cache
    directory, created on first use, readable by the user only). None when the
    directory cannot hold it (the cache is then not used at all)."""
    path = cache_dir() / "key"
    try:
        st = os.lstat(path)
        if stat.S_ISREG(st.st_mode) and st.st_size == _KEY_BYTES:
            return path.read_bytes()
        return None  # not a regular key file: do not use the cache at all
    except FileNotFoundError:
        pass
    except OSError:
        return None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        key = os.urandom(_KEY_BYTES)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(key)
        return key
    except FileExistsError:  # another process made it first
        return _cache_key()
    except OSError:
        return None


def read_regular(path: Path, limit: int) -> bytes | None:
    """A regular file's bytes (no symlink, FIFO or device; at most ``limit`` bytes), or
    None when there is no such file; raises ValueError when it is not one to read."""
    try:
        st = os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None
    if not stat.S_ISREG(st.st_mode):
        raise ValueError("not a regular file")
    if st.st_size > limit:
        raise ValueError(f"larger than {limit} bytes")
    # O_NOFOLLOW/O_NONBLOCK: a file swapped for a symlink or FIFO since lstat is not followed or waited on
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(fd, "rb") as f:
        data = f.read(limit + 1)
    if len(data) > limit:
        raise ValueError(f"larger than {limit} bytes")
    return data


def _digest(key: bytes, name: str, body: bytes) -> bytes:
    # the name is under the digest: a valid entry copied to another name is refused
    mac = hmac.new(key, name.encode("utf-8") + b"\0", hashlib.sha256)
    mac.update(body)
    return mac.hexdigest().encode()


def load(name: str, parse: Callable[[bytes], T], stacklevel: int = 2) -> T | None:
    """The entry ``name`` (a file name in the cache directory) parsed by ``parse``, or
    None when there is none or it is not trusted (then with a :class:`CacheWarning`).
    ``parse`` gets the payload only after its digest checked, and raises ValueError
    when the structure is wrong."""
    if not enabled():
        return None
    path = cache_dir() / name
    try:
        data = read_regular(path, MAX_CACHE_BYTES)
        if data is None:
            return None
        key = _cache_key()
        if key is None:
            return None
        digest, body = data[:_DIGEST_BYTES], data[_DIGEST_BYTES + 1:]
        if data[_DIGEST_BYTES:_DIGEST_BYTES + 1] != b"\n" \
                or not hmac.compare_digest(digest, _digest(key, name, body)):
            raise ValueError("its digest does not match its content")
        return parse(body)
    # a parser's own slip on a payload that passed the digest is still no reason to fail
    except (OSError, ValueError, TypeError, IndexError, KeyError, OverflowError, RecursionError) as e:
        distrust(name, e, stacklevel=stacklevel + 1)
        return None


def distrust(name: str, reason: object, stacklevel: int = 2) -> None:
    """Say that the entry ``name`` is not trusted (the caller rebuilds what it holds): for
    a part of an entry that its reader checks later than :func:`load` (its ``parse``)."""
    warnings.warn(f"ignoring the table cache {cache_dir() / name} ({reason}); rebuilding it", CacheWarning,
                  stacklevel=stacklevel + 1)


def store(name: str, body: bytes) -> None:
    """Write the entry ``name`` atomically (a private temporary file renamed into place);
    any OSError is ignored: a read-only home is no reason to fail."""
    if not enabled():
        return
    path = cache_dir() / name
    try:
        key = _cache_key()
        if key is None:
            return
        tmp = path.with_name(f"{name}.{os.getpid()}.{os.urandom(4).hex()}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(_digest(key, name, body) + b"\n")
                f.write(body)
            os.replace(tmp, path)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
    except OSError:
        pass
