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
so concurrent writers never mix; the temporary files a killed writer left behind are
removed once they are older than :data:`STALE_TMP_SECONDS`. A ``key`` that is not a
regular file of 32 bytes (empty, truncated, a symlink …) is replaced by a new one, with
one warning (the entries keyed by the old one are rebuilt): the cache never stays off.
The entries together take at most :data:`MAX_CACHE_DIR_BYTES` (1 GiB, or
``DDZRULES_MAX_CACHE_DIR_BYTES``): past it, storing an entry removes those used least
recently (:func:`trim`). ``DDZRULES_NO_CACHE=1`` turns the cache off.
"""

from __future__ import annotations

import hashlib
import hmac
import importlib
import importlib.machinery
import importlib.resources
import importlib.util
import os
import re
import stat
import string
import sys
import time
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache as _memo
from pathlib import Path
from types import ModuleType
from typing import TypeVar

from ddzrules import untrusted
from ddzrules.errors import CacheWarning as CacheWarning  # noqa: PLC0414 - re-exported: it lived here

T = TypeVar("T")


#: a cache file larger than this is not read (untrusted input: bounded memory); None:
#: ``DDZRULES_MAX_CACHE_BYTES``, else 512 MiB
MAX_CACHE_BYTES: int | None = None
#: the disk all entries may take together (None: ``DDZRULES_MAX_CACHE_DIR_BYTES``, else
#: 1 GiB): past it, storing an entry removes the entries used least recently until they
#: take at most TRIM_TO of it (every change of the code keys its tables anew, so the old
#: ones would pile up: 1.9 GB on one developer's machine)
MAX_CACHE_DIR_BYTES: int | None = None
TRIM_TO = 0.75
#: a loaded entry older than this is marked used again (its mtime): one write an hour at most
_TOUCH_SECONDS = 3600
_KEY_BYTES = 32
_DIGEST_BYTES = 64  # hex of SHA-256
#: a temporary file of a writer (``<name>.<pid>.<8 hex>.tmp``, see :func:`_private_tmp`)
#: this old was left by a writer that died: it is removed (no write takes minutes)
STALE_TMP_SECONDS = 600
_TMP_NAME = re.compile(r"[^/]+\.[0-9]+\.[0-9a-f]{8}\.tmp")
#: at most this many directory entries are looked at for stale temporary files (bounded time)
_SCAN_LIMIT = 10_000
#: cache directories cleaned of stale temporary files by this process, and key files it has
#: warned about (once each)
_cleaned: set[str] = set()
_warned: set[tuple[str, str]] = set()
#: cache directory -> when this process made its key again (entries written before it are
#: keyed by the lost key: rebuilt without a warning each, the key's one warning said so)
_renewed: dict[str, float] = {}


def cache_dir() -> Path:
    base = os.environ.get("DDZRULES_CACHE_DIR")
    if base:
        return Path(base)
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "ddzrules"


#: set inside :func:`disabled`: this context neither reads nor writes the cache
_OFF: ContextVar[bool] = ContextVar("ddzrules_cache_off", default=False)


def enabled() -> bool:
    return not os.environ.get("DDZRULES_NO_CACHE") and not _OFF.get()


@contextmanager
def disabled() -> Iterator[None]:
    """No cache entry is read or written inside (in this context: thread or task). The
    playground computes the specs its editor sends with it: each keystroke is a new
    spec, and its entries would fill the user's cache for nothing."""
    token = _OFF.set(True)
    try:
        yield
    finally:
        _OFF.reset(token)


#: what :func:`code_hash` hashes: a module (the object, or its dotted name such as
#: ``"ddzrules.rules.wild"``), a package resource ``(package, name)`` such as
#: ``("ddzrules.spec", "pattern.lark")``, or — the old form, kept for now — a file name relative
#: to the package's directory (``"rules/wild.py"``), told apart by its file suffix
Source = str | ModuleType | tuple[str | ModuleType, str]
#: the directory the old form's file names are relative to: the package's (``ddzrules/``)
PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
#: the file suffixes of the old form's names (no module of the package is named ``py``,
#: ``json`` …, so a dotted module name never ends in one)
_FILE_SUFFIXES = (".py", ".pyi", ".lark", ".json", ".c")


@_memo
def code_hash(version: object, *sources: Source) -> str:
    """A short hash of a format version and of the code that writes an entry, so that
    changed code never reads an entry the old code wrote.

    Each source is named by what it is, not where it sits: a module (object or dotted
    name), or a package resource ``(package, name)`` read through
    :mod:`importlib.resources`. Only contents are hashed — no path, no module name — so a
    source moved to another directory or subpackage (and an installed copy anywhere)
    gives the same key, and any change of a source's bytes gives another. A compiled
    module (an extension ``.so``/``.pyd``) is hashed by the ``.py`` shipped beside it,
    which is what it was built from (a pure and a compiled build of one source share
    their entries), or by the extension file itself when there is none. Each source is
    read once a process. The old form, a file name relative to the package's directory
    (``"rules/wild.py"``), still works and gives the same key as the module or resource it
    names; it breaks when the file moves, so write the new form."""
    h = hashlib.sha256(str(version).encode())
    for source in sources:
        h.update(_source_digest(_resolved(source)))
    return h.hexdigest()[:16]


def _resolved(source: Source) -> ModuleType | tuple[str, str, str]:
    """A source as the thing it names: the module object (a dotted name imported when it
    is not yet), ``("resource", package, name)`` or, for the old form, ``("file", name, "")``."""
    if isinstance(source, ModuleType):
        return source
    if isinstance(source, tuple):
        package, name = source
        return ("resource", package if isinstance(package, str) else package.__name__, name)
    if isinstance(source, str):
        if source.endswith(_FILE_SUFFIXES):
            return ("file", source, "")
        module = sys.modules.get(source)
        # a module not imported yet is found, not imported: hashing the compiler's source
        # must not cost a process the compiler's import (and its grammar's)
        return module if module is not None else ("module", source, "")
    raise TypeError(f"code_hash: not a module, a (package, resource) pair or a file name: {source!r}")


@_memo
def _source_digest(source: ModuleType | tuple[str, str, str]) -> bytes:
    """SHA-256 of one source's bytes (read once a process: entries share sources)."""
    if isinstance(source, ModuleType):
        data = _module_bytes(source)
    elif source[0] == "module":
        spec = importlib.util.find_spec(source[1])
        if spec is None:
            raise ModuleNotFoundError(f"code_hash: no module named {source[1]!r}", name=source[1])
        data = _spec_bytes(spec, source[1])
    elif source[0] == "resource":
        data = importlib.resources.files(source[1]).joinpath(source[2]).read_bytes()
    else:
        with open(os.path.join(PACKAGE_DIR, source[1]), "rb") as f:
            data = f.read()
    return hashlib.sha256(data).digest()


def _module_bytes(module: ModuleType) -> bytes:
    """The bytes a module is made of: its source file (an ``__init__.py`` for a package);
    for an extension module, the ``.py`` beside it when shipped, else the extension file.
    Raises ValueError for a module with no file (built in, frozen, a namespace package)."""
    return _spec_bytes(module.__spec__, module.__name__)


def _spec_bytes(spec: importlib.machinery.ModuleSpec | None, name: str) -> bytes:
    """:func:`_module_bytes` of the module ``spec`` finds (imported or not)."""
    if (spec is not None and isinstance(spec.loader, importlib.machinery.ExtensionFileLoader)
            and spec.origin is not None and not os.path.isfile(spec.origin)):
        # mypyc's compiled modules import each other outside the import system and record a
        # wrong origin (the package directory twice, ddzrules/ddzrules/wild.*.so): found again
        # on the package's own path, which does not consult sys.modules
        parent = name.rpartition(".")[0]
        search = getattr(sys.modules.get(parent), "__path__", None) if parent else None
        spec = importlib.machinery.PathFinder.find_spec(name, list(search)) if search is not None else None
        if spec is not None and spec.origin is not None and not os.path.isfile(spec.origin):
            spec = None
    if spec is None or not spec.has_location or spec.origin is None:
        raise ValueError(f"code_hash: the module {name} has no file to hash")
    path = spec.origin
    suffix = next((s for s in importlib.machinery.EXTENSION_SUFFIXES if path.endswith(s)), None)
    if suffix is not None and os.path.isfile(path[: -len(suffix)] + ".py"):
        path = path[: -len(suffix)] + ".py"
    get_data = getattr(spec.loader, "get_data", None)
    if get_data is not None:  # a file loader, or one reading from a zip archive
        return bytes(get_data(path))
    with open(path, "rb") as f:
        return f.read()


def _cache_key() -> bytes | None:
    """The secret this installation keys its cache digests with (``key`` in the cache
    directory, readable by the user only): made on first use, and made again (with one
    :class:`CacheWarning`) when what is there is not a regular file of 32 bytes — an empty
    or truncated file a writer killed half-way left, a symlink, a FIFO — so that the cache
    is never off for good. None when the directory cannot hold a key (a read-only home, or
    a ``key`` that is a directory): the cache is then not used."""
    path = cache_dir() / "key"
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return _new_key(path, replace=False)
    except OSError:
        return None
    if stat.S_ISREG(st.st_mode) and st.st_size == _KEY_BYTES:
        try:
            key = read_regular(path, _KEY_BYTES)
        except (OSError, ValueError):
            key = None  # swapped for something else since lstat: made again below
        if key is not None and len(key) == _KEY_BYTES:
            return key
    what = (f"{st.st_size} bytes, not {_KEY_BYTES}" if stat.S_ISREG(st.st_mode)
            else "a symlink" if stat.S_ISLNK(st.st_mode) else "not a regular file")
    _warn_once(path, f"the table cache's key {path} is damaged ({what}); making a new one: the tables "
                     "cached under the old one are rebuilt", "damaged")
    return _new_key(path, replace=True)


def _warn_once(path: Path, message: str, kind: str) -> None:
    """Warn about the key ``path`` once a process for each ``kind`` of trouble."""
    if (str(path), kind) not in _warned:
        _warned.add((str(path), kind))
        warnings.warn(message, CacheWarning, stacklevel=4)


def _private_tmp(path: Path) -> Path:
    """A temporary file beside ``path`` for one writer (its pid and 4 random bytes)."""
    return path.with_name(f"{path.name}.{os.getpid()}.{os.urandom(4).hex()}.tmp")


def _new_key(path: Path, replace: bool) -> bytes | None:
    """Make a new key at ``path``, whole or not at all: written to a private temporary
    file first, then linked into place when there is none (another process's key, made
    meanwhile, wins: it is read back) or renamed over the damaged one. The key read back
    is returned (a concurrent renewal may have won), or None when none can be made."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        clean_stale(path.parent)
        tmp = _private_tmp(path)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(os.urandom(_KEY_BYTES))
            if replace:
                os.replace(tmp, path)
                _renewed[str(path.parent)] = os.lstat(path).st_mtime
            else:
                try:
                    os.link(tmp, path)  # fails if another process made one first
                except FileExistsError:
                    pass
        finally:
            tmp.unlink(missing_ok=True)
        key = read_regular(path, _KEY_BYTES)
    except (OSError, ValueError) as e:
        _warn_once(path, f"the table cache's key {path} cannot be made ({e}); the table cache is not used", "unmade")
        return None
    return key if key is not None and len(key) == _KEY_BYTES else None


def clean_stale(directory: Path) -> None:
    """Remove the temporary files writers that died left in ``directory``: names of the
    cache's own pattern (``<name>.<pid>.<8 hex>.tmp``), regular files or symlinks (the
    link, never what it points to) older than STALE_TMP_SECONDS. Once a process for each
    directory, looking at no more than _SCAN_LIMIT entries; any OSError is ignored."""
    if str(directory) in _cleaned:
        return
    _cleaned.add(str(directory))
    now = time.time()
    for name, path, st in _scan(directory):
        if _TMP_NAME.fullmatch(name) and (stat.S_ISREG(st.st_mode) or stat.S_ISLNK(st.st_mode)) \
                and now - st.st_mtime > STALE_TMP_SECONDS:
            try:
                os.unlink(path)
            except OSError:
                continue


def _scan(directory: Path) -> list[tuple[str, str, os.stat_result]]:
    """(name, path, lstat) of the first _SCAN_LIMIT entries of ``directory`` (bounded
    time); an entry that cannot be stat'ed is left out, a directory that cannot be read
    gives none."""
    out = []
    try:
        with os.scandir(directory) as entries:
            for n, entry in enumerate(entries):
                if n >= _SCAN_LIMIT:
                    break
                try:
                    out.append((entry.name, entry.path, entry.stat(follow_symlinks=False)))
                except OSError:
                    continue
    except OSError:
        pass
    return out


def _is_entry(path: str) -> bool:
    """Whether the regular file ``path`` begins as an entry does (its digest: 64 hex
    digits and a newline): a file of another kind in the directory is never removed."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(fd, "rb") as f:
        head = f.read(_DIGEST_BYTES + 1)
    return len(head) == _DIGEST_BYTES + 1 and head.endswith(b"\n") \
        and all(chr(b) in string.hexdigits for b in head[:-1])


def trim(directory: Path, keep: str = "", limit: int | None = None) -> list[str]:
    """When the entries in ``directory`` take more than ``limit`` bytes (default
    :func:`max_dir_bytes`), remove those used least recently (by mtime, which a
    load refreshes) until they take at most :data:`TRIM_TO` of it; never ``keep``, the
    key, a writer's temporary file or a file that does not begin as an entry does.
    Looks at no more than _SCAN_LIMIT directory entries; any OSError is ignored. The
    names removed."""
    limit = max_dir_bytes() if limit is None else limit
    found = [(st.st_mtime, st.st_size, name, path) for name, path, st in _scan(directory)
             if name != "key" and not _TMP_NAME.fullmatch(name) and stat.S_ISREG(st.st_mode)]
    total = sum(size for _, size, _, _ in found)
    if total <= limit:
        return []
    removed: list[str] = []
    for _, size, name, path in sorted(found):
        if total <= limit * TRIM_TO:
            break
        if name == keep:
            continue
        try:
            if _is_entry(path):
                os.unlink(path)
                total -= size
                removed.append(name)
        except OSError:
            continue
    return removed


def _env_bytes(name: str, default: int) -> int:
    """A size in bytes from the environment variable ``name``, read when used (so the
    CLI shows a bad one as its other warnings); a value that is no whole number of bytes
    is said (a CacheWarning, once) and the default used, never a traceback."""
    text = os.environ.get(name, "").strip()
    if not text:
        return default
    if text.isdigit() and len(text) <= 20:
        return int(text)
    key = (name, text)
    if key not in _warned_env:
        _warned_env.add(key)
        warnings.warn(f"{name}={text[:40]!r} is not a number of bytes; using {default}", CacheWarning,
                      stacklevel=3)
    return default


_warned_env: set[tuple[str, str]] = set()


def max_file_bytes() -> int:
    """The largest cache file read (:data:`MAX_CACHE_BYTES`)."""
    return MAX_CACHE_BYTES if MAX_CACHE_BYTES is not None else _env_bytes("DDZRULES_MAX_CACHE_BYTES", 512 * 2**20)


def max_dir_bytes() -> int:
    """The disk all entries may take (:data:`MAX_CACHE_DIR_BYTES`)."""
    return MAX_CACHE_DIR_BYTES if MAX_CACHE_DIR_BYTES is not None \
        else _env_bytes("DDZRULES_MAX_CACHE_DIR_BYTES", 2**30)


def read_regular(path: Path, limit: int) -> bytes | None:
    """A regular file's bytes (no symlink, FIFO or device; at most ``limit`` bytes), or
    None when there is no such file; raises ValueError when it is not one to read (the
    one bounded reader, :func:`ddzrules.untrusted.read_regular`, with no symlink followed:
    an entry is the file itself, never a link planted in its place)."""
    try:
        return untrusted.read_regular(path, limit, follow_symlinks=False)
    except untrusted.FileRefused as e:
        if e.problem == "missing":
            return None
        raise ValueError(e.describe()) from None


def parse_json(body: bytes, max_depth: int = untrusted.JSONPolicy.max_depth,
               max_int_digits: int = untrusted.JSONPolicy.max_int_digits) -> untrusted.JSONValue:
    """An entry's payload read as the one strict JSON (:func:`ddzrules.untrusted.parse_json`),
    at most an entry's size; a refusal is a ValueError, so that :func:`load` distrusts the
    entry as any other it cannot read."""
    try:
        return untrusted.parse_json(body, untrusted.JSONPolicy(max_file_bytes(), max_depth, max_int_digits))
    except untrusted.JSONRefused as e:
        raise ValueError(str(e)) from None


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
        data = read_regular(path, max_file_bytes())
        if data is None:
            return None
        key = _cache_key()
        if key is None:
            return None
        digest, body = data[:_DIGEST_BYTES], data[_DIGEST_BYTES + 1:]
        if data[_DIGEST_BYTES:_DIGEST_BYTES + 1] != b"\n" \
                or not hmac.compare_digest(digest, _digest(key, name, body)):
            renewed = _renewed.get(str(path.parent))
            if renewed is not None and os.lstat(path).st_mtime <= renewed:
                return None  # keyed by the key this process replaced: rebuilt, already said
            raise ValueError("its digest does not match its content")
        parsed = parse(body)
        _touch(path)
        return parsed
    # a parser's own slip on a payload that passed the digest is still no reason to fail
    except (OSError, ValueError, TypeError, IndexError, KeyError, OverflowError, RecursionError) as e:
        distrust(name, e, stacklevel=stacklevel + 1)
        return None


def _touch(path: Path) -> None:
    """Mark an entry as used now (its mtime), so that :func:`trim` keeps it longer; at
    most once an hour, and a cache that cannot be written is no error."""
    try:
        if time.time() - os.lstat(path).st_mtime > _TOUCH_SECONDS:
            os.utime(path, follow_symlinks=os.utime not in os.supports_follow_symlinks)
    except OSError:
        pass


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
        clean_stale(path.parent)
        tmp = _private_tmp(path)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(_digest(key, name, body) + b"\n")
                f.write(body)
            os.replace(tmp, path)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
        trim(path.parent, keep=name)
    except OSError:
        pass
