"""Untrusted bytes: one bounded reader of regular files and one strict-JSON policy.

Records, conformance suites and their manifests, duel records, batch lines, playground
requests, cache entries and spec files all come from outside the program. Each is read
here, the same way:

- **a file** is read only when it is a regular file (a FIFO or a terminal would block for
  ever, ``/dev/zero`` never ends, a directory holds no text), checked before it is opened
  (opening some devices does something) and again on the open descriptor, which is opened
  without blocking, so a file swapped for a FIFO in between cannot hang the read; at most
  ``limit`` bytes are read, and a larger file is refused with the limit it broke. A
  refusal names the file and what it is, never its content.
- **JSON** is strict: UTF-8 text; no NaN or Infinity, which are not JSON; no number that
  is not a finite float or that has more digits than a value can need (``int()`` of a
  huge literal costs time, and past 4,300 digits raises); no key given twice in one object
  (JSON readers disagree on which of the two counts, so a record could replay one way here
  and show another elsewhere); nesting and size bounded; no string holding a lone
  surrogate (an escape such as ``\\ud800``, which is no character). A refusal says where,
  as ``line:column``, and, for a number, the field that holds it.

>>> policy = JSONPolicy(max_bytes=1000)
>>> parse_json(b'{"a": [1, 2.5, "x"]}', policy)
{'a': [1, 2.5, 'x']}
>>> try:
...     parse_json('{"a": 1,\\n "a": 2}', policy)
... except JSONRefused as e:
...     print(e)
2:2: the key 'a' appears twice in one object
>>> try:
...     parse_json('{"n": [1, NaN]}', policy)
... except JSONRefused as e:
...     print(e, "/", e.field)
1:11: NaN is not a JSON number / n/1
"""

from __future__ import annotations

import json
import math
import os
import re
import stat
from dataclasses import dataclass
from functools import lru_cache
from typing import BinaryIO

from ddzrules.errors import (
    LONE_SURROGATE,
    LONE_SURROGATE_WORDS,
    SURROGATE_ESCAPE,
    has_lone_surrogate,
)
from ddzrules.errors import FileRefused as FileRefused  # noqa: PLC0414 - the errors users catch live in errors
from ddzrules.errors import JSONRefused as JSONRefused  # noqa: PLC0414

__all__ = ["FileRefused", "JSONPolicy", "JSONRefused", "JSONValue", "file_kind", "not_regular", "open_regular",
           "parse_json", "read_regular"]

#: what :func:`parse_json` returns: JSON's values as Python reads them
JSONValue = dict[str, "JSONValue"] | list["JSONValue"] | str | int | float | bool | None

# ====================================================================== files

_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISSOCK, "a socket"), (stat.S_ISLNK, "a symbolic link"))


def file_kind(mode: int) -> str:
    """What a file that is not a regular file is, for a message.

    >>> file_kind(stat.S_IFIFO), file_kind(stat.S_IFDIR)
    ('a FIFO (named pipe)', 'a directory')
    """
    return next((kind for test, kind in _KINDS if test(mode)), "a special file")


def not_regular(mode: int) -> str | None:
    """What a file of ``mode`` is when it is not a regular file (None when it is)."""
    return None if stat.S_ISREG(mode) else file_kind(mode)


#: open flags of a read: never blocking (a FIFO put in the file's place), never making the
#: file this process's terminal, not inherited by children, binary on Windows
_READ_FLAGS = (os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
               | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0))


def _checked(st: os.stat_result, path: str, limit: int) -> None:
    kind = not_regular(st.st_mode)
    if kind is not None:
        raise FileRefused(path, "not regular", limit=limit, kind=kind)
    if st.st_size > limit:
        raise FileRefused(path, "too large", limit=limit, size=st.st_size)


def _open_fd(path: str | os.PathLike[str], limit: int, follow_symlinks: bool) -> int:
    """A descriptor of ``path`` open for reading, checked twice (by name, then open) to be a
    regular file of at most ``limit`` bytes; ``follow_symlinks=False`` refuses a link."""
    where = os.fspath(path)
    try:
        _checked(os.stat(path, follow_symlinks=follow_symlinks), where, limit)
        fd = os.open(path, _READ_FLAGS | (0 if follow_symlinks else getattr(os, "O_NOFOLLOW", 0)))
    except (FileNotFoundError, NotADirectoryError) as e:
        raise FileRefused(where, "missing", limit=limit, reason=e.strerror) from None
    except OSError as e:
        raise FileRefused(where, "unreadable", limit=limit, reason=e.strerror or str(e)) from None
    except ValueError:  # a NUL in the name: no path at all
        raise FileRefused(where.replace("\0", "\\0"), "unreadable", limit=limit,
                          reason="not a path (it holds a NUL)") from None
    try:
        _checked(os.fstat(fd), where, limit)
    except BaseException:
        os.close(fd)
        raise
    return fd


def open_regular(path: str | os.PathLike[str], limit: int, *, follow_symlinks: bool = True) -> BinaryIO:
    """``path`` open for reading, when it is a regular file of at most ``limit`` bytes (a
    :class:`FileRefused` otherwise), for a reader that takes it line by line and bounds
    each line itself; the file may still grow while it is read."""
    return os.fdopen(_open_fd(path, limit, follow_symlinks), "rb")


def read_regular(path: str | os.PathLike[str], limit: int, *, follow_symlinks: bool = True) -> bytes:
    """The bytes of ``path`` when it is a regular file of at most ``limit`` bytes, else a
    :class:`FileRefused` (a file that grows past the limit while read too: at most
    ``limit + 1`` bytes are ever read). ``follow_symlinks=False`` refuses a symbolic link
    (a cache entry is the file itself, never a link planted in its place)."""
    fd = _open_fd(path, limit, follow_symlinks)
    chunks: list[bytes] = []
    got = 0
    try:
        while got <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - got))
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
    except OSError as e:
        raise FileRefused(os.fspath(path), "unreadable", limit=limit, reason=e.strerror or str(e)) from None
    finally:
        os.close(fd)
    if got > limit:
        raise FileRefused(os.fspath(path), "too large", limit=limit)
    return b"".join(chunks)


# ====================================================================== JSON


@dataclass(frozen=True)
class JSONPolicy:
    """The bounds of one kind of untrusted JSON: its size in bytes, the nesting of its
    objects and arrays, and the characters of one number (digits of an integer, characters
    of any other number). What is refused besides is the same for every kind."""

    max_bytes: int
    max_depth: int = 32
    max_int_digits: int = 24
    max_number_chars: int = 40


class _Refusal(ValueError):
    """Raised inside the decoder by a hook; :func:`parse_json` finds where, then raises
    a :class:`JSONRefused`."""

    def __init__(self, reason: str, key: str | None = None) -> None:
        super().__init__(reason)
        self.reason, self.key = reason, key


def _unique_pairs(pairs: list[tuple[str, JSONValue]]) -> dict[str, JSONValue]:
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _Refusal("", key)
            seen.add(key)
    return out


def _number_refusal(token: str, policy: JSONPolicy) -> str | None:
    """Why the number ``token`` of JSON text is refused (None when it is not)."""
    if token[-1] in "yN":  # NaN, Infinity, -Infinity: Python's json reads them, JSON has none
        return f"{token} is not a JSON number"
    if not any(c in token for c in ".eE"):
        digits = len(token.lstrip("-"))
        if digits > policy.max_int_digits:
            return f"an integer of {digits:,} digits (at most {policy.max_int_digits})"
        return None
    if len(token) > policy.max_number_chars:
        return f"a number written with {len(token):,} characters (at most {policy.max_number_chars})"
    if not math.isfinite(float(token)):
        return "a number too large for a float"
    return None


@lru_cache(maxsize=16)
def _decoder(policy: JSONPolicy) -> json.JSONDecoder:
    """The decoder of ``policy``: its hooks refuse what the policy refuses, each as cheaply
    as it can (a number's hook runs for every number of the text); the full reason is
    :func:`_number_refusal`'s, found again when the text is refused."""
    max_digits, max_chars = policy.max_int_digits, policy.max_number_chars

    def integer(token: str) -> int:
        if len(token) > max_digits and len(token) - (token[0] == "-") > max_digits:
            raise _Refusal(_number_refusal(token, policy) or "")
        return int(token)

    def number(token: str) -> float:
        value = float(token)
        if len(token) > max_chars or not math.isfinite(value):
            raise _Refusal(_number_refusal(token, policy) or "")
        return value

    def constant(name: str) -> float:
        raise _Refusal(f"{name} is not a JSON number")

    return json.JSONDecoder(parse_int=integer, parse_float=number, parse_constant=constant,
                            object_pairs_hook=_unique_pairs)


#: the tokens of JSON text that say where something is: strings, brackets, colons,
#: commas and numbers (a string is matched whole, so that no digit inside one is taken
#: for a number or a bracket)
_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[{}\[\]:,]|-?Infinity|NaN|'
                     r'-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?')
#: a key shown as itself in a field's path; any other is ``<key>``
_PLAIN_KEY = re.compile(r"[A-Za-z0-9_.-]{1,40}")


@dataclass
class _Frame:
    """One open object (``keys`` its keys so far) or array (``keys`` None) of the text."""

    keys: set[str] | None
    at: str = ""  # the current key or index, for a field's path
    index: int = 0


def _position(text: str, offset: int) -> tuple[int, int]:
    return text.count("\n", 0, offset) + 1, offset - text.rfind("\n", 0, offset)


def _located(text: str, policy: JSONPolicy, refusal: _Refusal | None, depth_refused: bool) -> JSONRefused:
    """Where in ``text`` the first refused thing is: a key given twice, a refused number,
    an object or array past the depth bound, in the order of the text (the order the
    decoder met them). Read again as tokens, a refused text only (about a second of CPU
    for 8 MiB of tiny objects, the worst case)."""
    frames: list[_Frame] = []
    last: re.Match[str] | None = None  # the string just before, a key if a colon follows
    for token in _TOKENS.finditer(text):
        c = text[token.start()]
        if c == '"':
            last = token
            continue
        keys = frames[-1].keys if frames else None
        if c == ":" and last is not None and keys is not None:
            raw = last.group()
            key: str = json.loads(raw) if "\\" in raw else raw[1:-1]
            frames[-1].at = key if _PLAIN_KEY.fullmatch(key) else "<key>"
            if refusal is not None and refusal.key is not None and key in keys:
                line, column = _position(text, last.start())
                return JSONRefused("key", f"the key {_printable(repr(key), 60)} appears twice in one object",
                                   line, column, key=key)
            keys.add(key)
        elif c in "{[":
            frames.append(_Frame(set() if c == "{" else None, "0"))
            if depth_refused and len(frames) > policy.max_depth:
                line, column = _position(text, token.start())
                return JSONRefused("depth", _too_deep_words(policy), line, column)
        elif c in "}]":
            if frames:
                frames.pop()
        elif c == ",":
            if frames and frames[-1].keys is None:
                frames[-1].index += 1
                frames[-1].at = str(frames[-1].index)
        elif c != ":" and refusal is not None and refusal.key is None:
            why = _number_refusal(token.group(), policy)
            if why is not None:
                line, column = _position(text, token.start())
                field = "/".join(f.at for f in frames) or "top level"
                return JSONRefused("number", why, line, column, field=field)
        last = None
    # not found again (cannot happen: the decoder met it in this text); said without a place
    if refusal is None:
        return JSONRefused("depth", _too_deep_words(policy))
    return JSONRefused("number" if refusal.key is None else "key", refusal.reason, key=refusal.key)


def _too_deep_words(policy: JSONPolicy) -> str:
    return f"nested too deeply: more than {policy.max_depth} levels"


def _printable(text: str, limit: int) -> str:
    """``text`` with unprintable characters as ``?``, shortened: a key ends up in a message
    and must not drive the terminal."""
    text = "".join(ch if ch.isprintable() else "?" for ch in text)
    return text if len(text) <= limit else text[:limit] + "…"


#: the bytes of JSON text :func:`_too_deep` drops: all but brackets and quotes; then every
#: bracket as a parenthesis
_NOT_BRACKET_OR_QUOTE = bytes(b for b in range(256) if b not in b'[]{}"')
_PAIRS = bytes.maketrans(b"[{]}", b"(())")


def _too_deep(raw: bytes, max_depth: int) -> bool:
    """Whether JSON text the decoder accepted nests deeper than ``max_depth``, from its
    brackets outside strings, the innermost pairs dropped once a level; all in C (walking
    the value in Python took four times the decoding of a cache entry). Its escapes go
    first, pairs from the left as the decoder reads them (no backslash is outside a string)."""
    kept = raw.replace(b"\\\\", b"").replace(b'\\"', b"").translate(None, _NOT_BRACKET_OR_QUOTE)
    brackets = b"".join(kept.split(b'"')[::2]).translate(_PAIRS)
    for _ in range(max_depth):
        brackets = brackets.replace(b"()", b"")
        if not brackets:
            return False
    return True


def _lone_surrogate_at(text: str) -> tuple[int, int]:
    """Where the first string of ``text`` holding a lone surrogate is."""
    for token in _TOKENS.finditer(text):
        raw = token.group()
        if raw[0] == '"' and SURROGATE_ESCAPE.search(raw) and LONE_SURROGATE.search(json.loads(raw)):
            return _position(text, token.start())
    return 1, 1  # pragma: no cover - only called when the parsed value holds one


def parse_json(raw: bytes | str, policy: JSONPolicy) -> JSONValue:
    """``raw`` read as strict JSON under ``policy`` (see the module's text), or a
    :class:`JSONRefused` saying why and where; any input gives one or the other."""
    if len(raw) > policy.max_bytes:
        raise JSONRefused("size", f"{len(raw):,} bytes, larger than the limit of {policy.max_bytes:,}")
    if isinstance(raw, bytes):
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            line = raw.count(b"\n", 0, e.start) + 1
            raise JSONRefused("encoding", f"not UTF-8 text (byte {e.start + 1})", line,
                              e.start - raw.rfind(b"\n", 0, e.start)) from None
    else:
        text = raw
    try:
        value: JSONValue = _decoder(policy).decode(text)
    except json.JSONDecodeError as e:
        raise JSONRefused("syntax", f"not valid JSON: {e.msg}", e.lineno, e.colno, syntax=e.msg) from None
    except _Refusal as e:
        raise _located(text, policy, e, False) from None
    except RecursionError:
        raise _located(text, policy, None, True) from None
    # (more brackets than the bound, the only texts that can be too deep: counted in C)
    if text.count("[") + text.count("{") > policy.max_depth and _too_deep(
            raw if isinstance(raw, bytes) else text.encode("utf-8", "surrogatepass"), policy.max_depth):
        raise _located(text, policy, None, True)
    if SURROGATE_ESCAPE.search(text) and has_lone_surrogate(value):
        line, column = _lone_surrogate_at(text)
        raise JSONRefused("surrogate", f"a string holds {LONE_SURROGATE_WORDS}", line, column)
    return value
