"""Loading variant specs: YAML with positions, JSON Schema validation, ``extends:``.

A spec is read into plain Python data plus a map from each key path to where it
was written (``file:line:column``), so that every later error — a schema
violation, a pattern syntax error, a compile error — can point at the source.

>>> spec = load_spec("hubei-3p")
>>> spec.name, spec.data["deck"]["decks"]
('hubei-3p', 1)
"""

from __future__ import annotations

import copy
import dataclasses
import datetime
import difflib
import hashlib
import json
import math
import os
import re
import stat
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ddzrules import cache
from ddzrules.errors import (
    LONE_SURROGATE,
    LONE_SURROGATE_WORDS,
    DdzError,
    Location,
    Problem,
    SpecError,
    brief,
    escaped,
)

if TYPE_CHECKING:
    import yaml  # imported where a spec's YAML is read or written: a warm load never needs it

Path_ = tuple[str | int, ...]


@dataclass(frozen=True)
class ScalarSource:
    """Where a value was written and how, so columns inside it can be mapped back."""

    location: Location
    style: str | None  # None plain, "'" or '"' quoted, "|" or ">" block
    source_line: str
    block_indent: int = 0
    #: the scalar as written (quotes, block header and line breaks included), to map
    #: positions inside a multi-line or quoted value back to the file
    raw: str = field(default="", repr=False, compare=False)
    #: the scalar's value (what a pattern parser was given), for the same mapping
    value: str = field(default="", repr=False, compare=False)
    #: every line of the file, for the excerpt of a position on a later line
    lines: tuple[str, ...] = field(default=(), repr=False, compare=False)


@dataclass(frozen=True)
class SourceText:
    """One file of a spec's ``extends:`` chain as it was read: the text its data and
    positions come from, and the digest the cache knows it by."""

    path: Path  # as resolved (not made absolute): a parent is found next to it
    real: str  # the path made absolute, symbolic links followed
    file: str  # the name messages show
    text: str = field(repr=False)
    extends: str | None  # the parent this file names
    digest: str = field(repr=False)  # see _text_digest


class Spec:
    """A resolved spec: merged data (parents applied), with source positions.

    ``positions`` and ``key_positions`` map each key path to where it was written; a
    spec served whole from the cache (see :func:`load_spec`) works them out from the
    texts it was loaded from the first time they are asked for (only an error needs them).
    """

    def __init__(self, name: str, data: dict[str, Any], file: str, chain: list[str],
                 positions: dict[Path_, ScalarSource] | None = None,
                 key_positions: dict[Path_, ScalarSource] | None = None,
                 unmarked: list[str] | None = None) -> None:
        self.name = name
        self.data = data
        self.file = file
        self.chain = chain  # files from this spec up to its root ancestor
        self._positions = positions
        self._key_positions = key_positions
        #: digests of the chain's file texts checked in full by this load and not yet in the
        #: cache (see :func:`mark_checked`)
        self.unmarked: list[str] = list(unmarked or [])
        #: the chain's files as read, this spec's first (empty for a spec given as data)
        self.sources: list[SourceText] = []
        #: the resolved-spec cache entry this spec was served from (None: read from YAML)
        self.served: str | None = None
        #: what that entry holds for later stages (the compiler's parsed patterns, ...)
        self.cached: dict[str, Any] = {}
        #: what the compiler leaves for the entry once the spec compiled (None: nothing)
        self.extras: dict[str, Any] | None = None

    def __repr__(self) -> str:
        return f"Spec(name={self.name!r}, file={self.file!r}, chain={self.chain!r})"

    @property
    def files(self) -> list[str]:
        """The files of its ``extends:`` chain, this spec's first, as absolute paths with
        symbolic links followed (none for a spec given as data): what a command that
        writes a file must not overwrite."""
        return [s.real for s in self.sources]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Spec):
            return NotImplemented
        return (self.name, self.data, self.file, self.chain, self.positions, self.key_positions) == \
            (other.name, other.data, other.file, other.chain, other.positions, other.key_positions)

    # unhashable, as its data is mutable: Python's idiom, which mypy refuses against
    # object.__hash__'s declared method
    __hash__ = None  # type: ignore[assignment]

    def _sources_read(self) -> tuple[dict[Path_, ScalarSource], dict[Path_, ScalarSource]]:
        if self._positions is None or self._key_positions is None:
            self._read_positions()
        assert self._positions is not None and self._key_positions is not None
        return self._positions, self._key_positions

    @property
    def positions(self) -> dict[Path_, ScalarSource]:
        """Where each key path's value was written."""
        return self._sources_read()[0]

    @property
    def key_positions(self) -> dict[Path_, ScalarSource]:
        """Where each key path's key was written."""
        return self._sources_read()[1]

    def _read_positions(self) -> None:
        """Positions from the chain's texts, root first, each file over its parents (as
        :func:`load_spec` merges them). The texts passed their checks when the spec was
        cached, so libyaml composes them (same positions as the pure-Python loader)."""
        pos: dict[Path_, ScalarSource] = {}
        kpos: dict[Path_, ScalarSource] = {}
        for src in reversed(self.sources):
            try:
                _, p, k = read_yaml(src.text, src.file, check_events=False)
            except SpecError:  # not expected of a text that was read before: no positions then
                continue
            pos.update(p)
            kpos.update(k)
        self._positions, self._key_positions = pos, kpos

    @property
    def content_hash(self) -> str:
        """SHA-256 of the merged spec; any change to the rules changes it."""
        text = json.dumps(self.data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    def locate(self, path: Path_) -> ScalarSource | None:
        """Source of ``path`` or of its nearest ancestor that has one."""
        p = tuple(path)
        while True:
            if p in self.positions:
                return self.positions[p]
            if not p:
                return None
            p = p[:-1]

    def problem(self, path: Path_, message: str, offset: tuple[int, int] | None = None) -> Problem:
        """A :class:`Problem` at ``path``; ``offset`` is a 1-based (line, column) inside the value."""
        src = self.locate(path)
        if src is None:
            return Problem(Location(self.file, 1, 1), dotted(path), message)
        loc = src.location
        line_text = src.source_line
        if offset is not None:
            loc, line_text = _inside(src, offset)
        excerpt = f"  {line_text}\n  {' ' * (loc.column - 1)}^" if line_text else ""
        return Problem(loc, dotted(path), message, excerpt)


def _inside(src: ScalarSource, offset: tuple[int, int]) -> tuple[Location, str]:
    """Map a (line, column) inside a scalar's value to a file location and its source line.

    The value YAML hands over is not the text written: quotes are stripped, block
    indentation removed, and line breaks of plain, quoted and folded scalars folded
    into spaces. So the value is walked in step with the scalar as written, matching
    non-blank characters one to one and each run of blanks (spaces, tabs, line
    breaks) to a run of blanks.
    """
    line, col = offset
    base = src.location
    mapped = _walk(src, line, col) if src.raw and src.value else None
    if mapped is not None:
        file_line, file_col = mapped
        text = src.lines[file_line - 1] if 0 < file_line <= len(src.lines) else ""
        return Location(base.file, file_line, file_col), text
    # best effort for values written with escapes the walk does not follow
    if src.style in ("|", ">"):
        return Location(base.file, base.line + line, src.block_indent + col), ""
    if line == 1:
        quote = 1 if src.style in ("'", '"') else 0
        return Location(base.file, base.line, base.column + quote + col - 1), src.source_line
    return Location(base.file, base.line + line - 1, col), ""


def _walk(src: ScalarSource, line: int, col: int) -> tuple[int, int] | None:
    """File (line, column) of the value's (line, col), or None when the raw text
    cannot be followed (escape sequences)."""
    raw = src.raw
    start = 0
    if src.style in ("'", '"'):
        start = 1
    elif src.style in ("|", ">"):
        nl = raw.find("\n")
        if nl < 0:
            return None
        start = nl + 1
        if src.value[:1] not in (" ", "\t"):  # the block's indentation
            while start < len(raw) and raw[start] in " \t":
                start += 1
    value_lines = src.value.split("\n")
    if line < 1 or line > len(value_lines):
        return None
    target = sum(len(v) + 1 for v in value_lines[: line - 1]) + col - 1
    value = "\n".join(value_lines)
    i, j = 0, start
    blanks = " \t\n\r"
    while i < target:
        if i >= len(value):
            break
        ch = value[i]
        if ch in blanks:
            i2 = i
            while i2 < len(value) and value[i2] in blanks:
                i2 += 1
            j2 = j
            while j2 < len(raw) and raw[j2] in blanks:
                j2 += 1
            if target < i2:  # inside the blanks: stay on the first line of the run
                k = j
                while k < j2 and k - j < target - i and raw[k] not in "\r\n":
                    k += 1
                j = k
                i = target
                break
            i, j = i2, j2
            continue
        if src.style == "'" and ch == "'" and raw.startswith("''", j):  # '' is one quote
            i += 1
            j += 2
        elif j < len(raw) and raw[j] == ch and not (src.style == '"' and ch == "\\"):
            i += 1
            j += 1
        elif src.style == '"' and raw.startswith("\\", j):
            if raw[j + 1 : j + 2] in ("\n", "\r"):  # an escaped line break joins the lines
                j += 2
                while j < len(raw) and raw[j] in blanks:
                    j += 1
                continue
            j += {"x": 4, "u": 6, "U": 10}.get(raw[j + 1 : j + 2], 2)
            i += 1
        else:
            return None
    if i < target:  # past the end of the value: columns beyond the last character
        j += target - i
    before = raw[:j]
    breaks = before.count("\n")
    if breaks == 0:
        return src.location.line, src.location.column + j
    return src.location.line + breaks, j - before.rfind("\n")


def dotted(path: Path_) -> str:
    return ".".join(str(p) for p in path)


# --------------------------------------------------------------------------- YAML


#: defaults of the loading limits; each can be raised through its environment variable
DEFAULT_MAX_SPEC_BYTES = 1_000_000
DEFAULT_MAX_SPEC_DEPTH = 32
DEFAULT_MAX_SPEC_VALUES = 20_000
#: the tags a spec may carry explicitly: YAML's plain data types, nothing that builds objects
SAFE_TAGS = frozenset("tag:yaml.org,2002:" + t for t in ("str", "int", "float", "bool", "null",
                                                         "map", "seq"))


def limit_from_env(variable: str, default: int) -> int:
    """A loading limit from the environment (a user with a genuinely large spec can raise
    it); a value that is not a positive integer is ignored rather than trusted."""
    raw = os.environ.get(variable, "")
    try:
        value = int(raw)
    except ValueError:
        return default
    return value if value > 0 else default


def max_spec_bytes() -> int:
    """Largest spec file read (``DDZRULES_MAX_SPEC_BYTES``, default 1,000,000)."""
    return limit_from_env("DDZRULES_MAX_SPEC_BYTES", DEFAULT_MAX_SPEC_BYTES)


def max_spec_depth() -> int:
    """Deepest nesting of mappings and lists (``DDZRULES_MAX_SPEC_DEPTH``, default 32)."""
    return limit_from_env("DDZRULES_MAX_SPEC_DEPTH", DEFAULT_MAX_SPEC_DEPTH)


def max_spec_values() -> int:
    """Most values (scalars, mappings and lists) in one spec file (``DDZRULES_MAX_SPEC_VALUES``,
    default 20,000; the largest bundled spec holds fewer than 200): a flow list of 300,000
    numbers on one line took 12 s and 335 MB to build only to be refused."""
    return limit_from_env("DDZRULES_MAX_SPEC_VALUES", DEFAULT_MAX_SPEC_VALUES)


def _at(file: str, text: str, line: int, col: int, message: str, path: str = "") -> SpecError:
    """A one-problem error at a 1-based position, with the source line and a caret."""
    lines = text.splitlines()
    src_line = lines[line - 1] if 0 < line <= len(lines) else ""
    shown = "".join(ch if ch.isprintable() else "?" for ch in src_line)[:200]
    excerpt = f"  {shown}\n  {' ' * (col - 1)}^" if shown and col <= 200 else ""
    return SpecError([Problem(Location(file, line, col), path, message, excerpt)])


def file_kind(mode: int) -> str:
    """What a file that is not a regular file is, for a message."""
    for test, kind in ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return kind
    return "a special file"


def _too_large(file: str, limit: int, size: int | None = None) -> SpecError:
    said = (f"{size:,} bytes, more than the {limit:,}" if size is not None
            else f"more than the {limit:,} bytes")
    return SpecError([Problem(Location(file, 1, 1), "", f"the file is {said} a spec may have "
                              "(DDZRULES_MAX_SPEC_BYTES raises the limit)")])


def _not_regular(file: str, mode: int) -> SpecError:
    return SpecError([Problem(Location(file, 1, 1), "", f"not a regular file but {file_kind(mode)}: a "
                              "spec is read only from a regular file")])


def read_spec_bytes(path: Path, file: str) -> bytes:
    """The bytes of a spec file, at most :func:`max_spec_bytes`: every spec file (the one
    asked for and each ``extends:`` parent) is read through here, so that none can hang
    or exhaust memory. Only a regular file is read (a symbolic link to one is followed):
    a FIFO would block until something writes to it, ``/dev/zero`` never ends, a
    directory has no text. Its size is checked before a byte is read."""
    limit = max_spec_bytes()
    try:
        # stat first (it never blocks) for a plain refusal of a FIFO or a device, then open
        # without blocking and check the opened file again: the path may have been swapped
        # between the two, and a FIFO opened for reading blocks until a writer comes
        before = os.stat(path)
        if not stat.S_ISREG(before.st_mode):
            raise _not_regular(file, before.st_mode)
        if before.st_size > limit:
            raise _too_large(file, limit, before.st_size)
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
                     | getattr(os, "O_BINARY", 0))
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode):
                raise _not_regular(file, st.st_mode)
            if st.st_size > limit:
                raise _too_large(file, limit, st.st_size)
            chunks: list[bytes] = []
            got = 0
            while got <= limit:  # a file growing while read stops one byte past the limit
                chunk = os.read(fd, min(1 << 16, limit + 1 - got))
                if not chunk:
                    break
                chunks.append(chunk)
                got += len(chunk)
        finally:
            os.close(fd)
    except OSError as e:
        raise SpecError([Problem(None, "", f"cannot read {file}: {e.strerror or e}")]) from None
    if got > limit:
        raise _too_large(file, limit)
    return b"".join(chunks)


def read_spec_text(path: Path, file: str) -> str:
    """A spec file's text, refused before any parsing when it is not a regular file, too
    large, not UTF-8 or holds control characters: a hostile or mistaken file must fail
    fast with a position, never reach the YAML parser as something it may choke on."""
    raw = read_spec_bytes(path, file)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        before = raw[: e.start]
        line = before.count(b"\n") + 1
        col = len(before) - (before.rfind(b"\n") + 1) + 1
        raise SpecError([Problem(Location(file, line, col), "",
                                 f"not UTF-8 text: byte 0x{raw[e.start]:02x} at byte {e.start + 1} "
                                 "(save the spec as UTF-8)")]) from None
    text = text.removeprefix("\ufeff")
    bad = _CONTROL.search(text)
    if bad is not None:
        at = bad.start()
        ch = text[at]
        name = "NUL" if ch == "\0" else f"U+{ord(ch):04X}"
        raise _at(file, text, text.count("\n", 0, at) + 1, at - text.rfind("\n", 0, at),
                  f"control character {name} in the file: a spec is plain text")
    return text


#: the characters of Unicode's categories Cc (control) and Cs (surrogate) but tab, line
#: feed and carriage return: a spec is plain text
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")


def _check_events(text: str, file: str) -> None:
    """Walk the YAML event stream, before anything is built, refusing what could make
    loading slow, huge or unsafe: aliases (a "billion laughs" expands a few lines into
    billions of nodes; a self-referencing alias never ends), tags other than YAML's
    plain data types (``!!python/...`` builds objects, a custom tag has no meaning
    here), nesting deeper than :func:`max_spec_depth` (the composer recurses) and more
    values than :func:`max_spec_values`. The events come from libyaml when present (some
    20 times faster); a text it refuses is walked again by the pure-Python parser, whose
    error messages and positions the specs' errors quote."""
    import yaml

    fast = getattr(yaml, "CSafeLoader", None)
    if fast is not None:
        try:
            _check_event_stream(yaml.parse(text, Loader=fast), text, file)
            return
        except yaml.YAMLError:
            pass
    _check_event_stream(yaml.parse(text, Loader=yaml.SafeLoader), text, file)


def _check_event_stream(events: Iterator[yaml.Event], text: str, file: str) -> None:
    import yaml

    depth_limit, values_limit = max_spec_depth(), max_spec_values()
    depth = values = 0
    for event in events:
        if isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            depth -= 1
            continue
        if not isinstance(event, (yaml.NodeEvent)):
            continue  # stream and document starts and ends
        mark = event.start_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        if isinstance(event, yaml.AliasEvent):
            raise _at(file, text, line, col, f"YAML alias *{event.anchor} is not allowed in a spec: "
                                             "write the value out (aliases can expand without bound)")
        tag = getattr(event, "tag", None)
        if tag is not None and tag != "!" and tag not in SAFE_TAGS:
            raise _at(file, text, line, col, f"YAML tag {tag!r} is not allowed in a spec: only plain "
                                             "strings, numbers, booleans, null, mappings and lists")
        values += 1
        if values > values_limit:
            raise _at(file, text, line, col, f"more than {values_limit:,} values in one spec "
                                             "(DDZRULES_MAX_SPEC_VALUES raises the limit)")
        if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            depth += 1
            if depth > depth_limit:
                raise _at(file, text, line, col, f"nested more than {depth_limit} levels deep "
                                                 "(DDZRULES_MAX_SPEC_DEPTH raises the limit)")


def check_spec_data(data: Any, file: str) -> None:
    """The limits of a spec file on a spec given as data (JSON: a record's or a suite's
    resolved spec): at most :func:`max_spec_values` values, keys counted as YAML counts them,
    nested at most :func:`max_spec_depth` deep. A :class:`SpecError` at the first value past
    a limit, found without recursion and without looking further (a record's 3.9 million
    numbers took 29 s and 720 MB to be refused by the schema); what it names is a path, never
    a value."""
    depth_limit, values_limit = max_spec_depth(), max_spec_values()
    values = 1  # the spec itself; a container's items are counted when it is opened
    stack: list[tuple[Any, int, tuple[str | int, ...]]] = [(data, 1, ())]
    while stack:
        value, depth, path = stack.pop()
        if not isinstance(value, dict | list):
            continue
        if depth > depth_limit:
            raise SpecError([Problem(Location(file, 1, 1), _data_path(path),
                                     f"nested more than {depth_limit} levels deep (DDZRULES_MAX_SPEC_DEPTH "
                                     "raises the limit)")])
        values += 2 * len(value) if isinstance(value, dict) else len(value)  # a mapping's keys are values too
        if values > values_limit:
            raise SpecError([Problem(Location(file, 1, 1), _data_path(path),
                                     f"more than {values_limit:,} values in one spec (DDZRULES_MAX_SPEC_VALUES "
                                     "raises the limit)")])
        items = value.items() if isinstance(value, dict) else enumerate(value)
        stack.extend((v, depth + 1, path + (k,)) for k, v in items if isinstance(v, dict | list))


def _data_path(path: Path_) -> str:
    """Where in a spec given as data: its keys escaped and the whole bounded (a record's
    keys are anyone's)."""
    text = escaped(dotted(path))
    return text if len(text) <= 120 else text[:119] + "…"


def _construct(node: yaml.Node) -> Any:
    """A scalar's value as YAML's safe loader gives it, kept to JSON's types: a date
    stays the text written (the content hash is JSON)."""
    import yaml

    value = yaml.SafeLoader("").construct_object(node)
    if isinstance(value, (datetime.date, datetime.datetime)):
        return str(node.value)
    if isinstance(value, bytes):
        return node.value
    return value


def _compose_fast(text: str) -> yaml.Node | None:
    """``text`` composed by libyaml, or None when it is absent or refuses the text (an
    edge where the two parsers differ: the pure-Python one then decides)."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", None)
    if loader is None:
        return None
    try:
        return yaml.compose(text, Loader=loader) or None
    except yaml.YAMLError:
        return None


def _bare_flow_key(text: str, knode: Any, vnode: Any) -> bool:
    """A key of a ``{…}`` mapping written with no colon (``{zh: 湖北, 改}``): its value is an
    empty null that no ``:`` introduced."""
    import yaml

    return (isinstance(vnode, yaml.ScalarNode) and vnode.value == "" and vnode.style is None
            and ":" not in text[knode.end_mark.index:vnode.start_mark.index])


def read_yaml(text: str, file: str, check_events: bool = True,
               ) -> tuple[Any, dict[Path_, ScalarSource], dict[Path_, ScalarSource]]:
    import yaml

    try:
        if check_events:
            _check_events(text, file)
        # a text that passed before (see _checked_before) is composed by libyaml when
        # present, 5x faster, with the same nodes and marks; a new text always by the
        # pure-Python loader, whose error messages and positions the specs' errors quote
        root = None if check_events else _compose_fast(text)
        if root is None:
            root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        src_line = text.splitlines()[line - 1] if mark and line <= len(text.splitlines()) else ""
        msg = f"YAML syntax error: {e.problem or e.context}"
        excerpt = f"  {src_line}\n  {' ' * (col - 1)}^" if src_line else ""
        raise SpecError([Problem(Location(file, line, col), "", msg, excerpt)]) from None
    except yaml.YAMLError as e:  # the reader's own refusals carry no mark
        raise SpecError([Problem(Location(file, 1, 1), "", f"YAML error: {e}")]) from None
    except RecursionError:
        raise SpecError([Problem(Location(file, 1, 1), "", "the YAML is nested too deeply")]) from None
    lines = text.splitlines()
    all_lines = tuple(lines)
    positions: dict[Path_, ScalarSource] = {}
    key_positions: dict[Path_, ScalarSource] = {}
    problems: list[Problem] = []

    def source(node: yaml.Node) -> ScalarSource:
        m = node.start_mark
        style = getattr(node, "style", None) or None  # libyaml says "" for plain
        src_line = lines[m.line] if m.line < len(lines) else ""
        indent = 0
        if style in ("|", ">") and m.line + 1 < len(lines):
            nxt = lines[m.line + 1]
            indent = len(nxt) - len(nxt.lstrip(" "))
        raw = value = ""
        if isinstance(node, yaml.ScalarNode) and isinstance(node.value, str):
            raw, value = text[m.index:node.end_mark.index], node.value
        return ScalarSource(Location(file, m.line + 1, m.column + 1), style, src_line, indent,
                            raw, value, all_lines)

    def build(node: yaml.Node | None, path: Path_) -> Any:
        if node is None:
            return None
        positions[path] = source(node)
        if isinstance(node, yaml.MappingNode):
            out: dict[str, Any] = {}
            for knode, vnode in node.value:
                if not isinstance(knode, yaml.ScalarNode):
                    m = knode.start_mark
                    problems.append(Problem(Location(file, m.line + 1, m.column + 1), dotted(path),
                                            "a key must be plain text, not a mapping or a list"))
                    continue
                key = str(knode.value)
                if LONE_SURROGATE.search(key):
                    m = knode.start_mark
                    problems.append(Problem(Location(file, m.line + 1, m.column + 1), dotted(path),
                                            f"a key holds {LONE_SURROGATE_WORDS}"))
                    continue
                if key in out:
                    m = knode.start_mark
                    problems.append(Problem(Location(file, m.line + 1, m.column + 1), dotted(path + (key,)),
                                            f"duplicate key {key!r}"))
                if node.flow_style and _bare_flow_key(text, knode, vnode):
                    # {zh: 湖北, 改}: the comma ended the value, and 改 was read as a key with no
                    # value (a removal, then an unknown key): one problem, said as what happened
                    m = knode.start_mark
                    problems.append(Problem(
                        Location(file, m.line + 1, m.column + 1), dotted(path + (key,)),
                        f"{brief(key, 40)} is read as a key with no value: inside {{…}} a comma ends a "
                        f"value; quote a value that holds a comma (\"…, {brief(key, 20)[1:-1]}\") or "
                        f"write the mapping one key a line",
                        f"  {lines[m.line] if m.line < len(lines) else ''}\n  {' ' * m.column}^"))
                    continue
                key_positions[path + (key,)] = source(knode)
                out[key] = build(vnode, path + (key,))
            return out
        if isinstance(node, yaml.SequenceNode):
            return [build(v, path + (i,)) for i, v in enumerate(node.value)]
        m = node.start_mark
        try:
            value = _construct(node)
        except (yaml.YAMLError, ValueError, TypeError, OverflowError) as e:
            reason = str(e).splitlines()[0][:200]
            if isinstance(e, ValueError) and "int_max_str_digits" in reason:  # Python's limit, not its advice
                reason = f"a number of more than {sys.get_int_max_str_digits():,} digits"
            problems.append(Problem(Location(file, m.line + 1, m.column + 1), dotted(path), f"bad value: {reason}"))
            return None
        if isinstance(value, str) and LONE_SURROGATE.search(value):
            # a YAML escape of half a UTF-16 pair ("\\ud800") is no character: the spec's hash
            # (UTF-8) failed on it, and validate printed the resolved spec in its message
            problems.append(Problem(Location(file, m.line + 1, m.column + 1), dotted(path),
                                    f"bad value: {LONE_SURROGATE_WORDS}"))
            return None
        if isinstance(value, float) and not math.isfinite(value):
            # JSON has no such number, and a schema's bounds let NaN through (every comparison is false)
            problems.append(Problem(Location(file, m.line + 1, m.column + 1), dotted(path),
                                    f"bad value: {brief(str(node.value), 20)} is not a finite number"))
            return None
        return value

    data = build(root, ()) if root is not None else {}
    if problems:
        raise SpecError(problems)
    return data, positions, key_positions


# --------------------------------------------------------------------------- names


@lru_cache(maxsize=1)
def bundled_root() -> Path:
    return Path(str(resources.files("ddzrules.specs")))


@lru_cache(maxsize=1)
def _bundled_real() -> Path:
    return bundled_root().resolve()


def bundled_names() -> list[str]:
    root = bundled_root()
    names = []
    for p in sorted(root.rglob("*.yaml")):
        names.append(p.relative_to(root).with_suffix("").as_posix())
    return names


def _shown_name(name: str, limit: int = 80) -> str:
    """A name from a spec, quoted for a message and cut when long."""
    text = repr(name)
    return text if len(text) <= limit else text[:limit - 1] + "…"


#: set inside :func:`bundled_parents_only`
_PARENTS_BUNDLED: ContextVar[bool] = ContextVar("ddzrules_parents_bundled", default=False)


@contextmanager
def bundled_parents_only() -> Iterator[None]:
    r"""Inside (in this context: thread or task), an ``extends:`` resolves to a bundled
    spec only, never to a file: a spec from someone else (the playground's editor, an
    upload) cannot make this process read one of its files.

    >>> import tempfile, pathlib
    >>> child = pathlib.Path(tempfile.mkdtemp()) / "child.yaml"
    >>> _ = child.write_text("name: child\nextends: ../parent.yaml\n")
    >>> with bundled_parents_only():
    ...     load_spec(child)
    Traceback (most recent call last):
    ...
    ddzrules.errors.SpecError: ...extends: names a bundled spec here...
    """
    token = _PARENTS_BUNDLED.set(True)
    try:
        yield
    finally:
        _PARENTS_BUNDLED.reset(token)


def parents_bundled_only() -> bool:
    """Whether this context is inside :func:`bundled_parents_only`."""
    return _PARENTS_BUNDLED.get()


def resolve_name(name_or_path: str, relative_to: Path | None = None) -> Path:
    """A bundled spec name (``hubei-3p``, ``compat/rlcard``) or a path → a file.

    With ``relative_to`` (an ``extends:``) only bundled names and ``.yaml``/``.yml``
    files resolve: a parent that is some other file would have its lines echoed in
    the errors about it (``extends: ../secrets.txt``). Inside
    :func:`bundled_parents_only`, only bundled names.
    """
    candidate = Path(name_or_path)
    if "\0" in name_or_path:
        raise SpecError([Problem(None, "", "a spec name holds no NUL character")])
    if not name_or_path.strip():  # Path("") is ".": it was read as the current directory
        raise SpecError([Problem(None, "", "an empty spec name: give a bundled spec name (ddzrules list) "
                                 "or a path to a YAML file")])
    if relative_to is not None and _PARENTS_BUNDLED.get():
        bundled = bundled_root() / f"{name_or_path}.yaml"
        if bundled.is_file() and bundled.resolve().is_relative_to(_bundled_real()):
            return bundled
        close = difflib.get_close_matches(name_or_path, bundled_names(), n=1)
        more = f" (did you mean {close[0]!r}?)" if close else ""
        raise SpecError([Problem(None, "", f"no bundled spec named {_shown_name(name_or_path)}{more}: "
                                 "extends: names a bundled spec here (`ddzrules list`), never a file")])
    if candidate.suffix in (".yaml", ".yml"):
        found: Path | None = None
        if relative_to is not None and not candidate.is_absolute():
            rel = relative_to / candidate
            if rel.exists():
                found = rel
        if found is None and candidate.exists():
            found = candidate
        if found is not None:
            # a parent named .yaml may be a link to another file, whose lines the errors
            # about it would echo (``extends: shadow.yaml`` -> /etc/shadow); a link to a
            # directory or a device is refused by the reader, by its kind
            target = found.resolve()
            if relative_to is not None and target.suffix not in (".yaml", ".yml") and target.is_file():
                raise SpecError([Problem(None, "", "a link to a file "
                                         "that is not a .yaml/.yml spec file")])
            return found
    bundled = bundled_root() / f"{name_or_path}.yaml"
    if bundled.exists() and bundled.resolve().is_relative_to(_bundled_real()):
        return bundled
    if relative_to is not None:
        if candidate.suffix not in (".yaml", ".yml"):
            close = difflib.get_close_matches(name_or_path, bundled_names(), n=1)
            more = f" (did you mean {close[0]!r}?)" if close else ""
            raise SpecError([Problem(None, "", f"no spec named {name_or_path!r}{more}: extends: names "
                                     "a bundled spec or a .yaml/.yml spec file")])
        raise SpecError([Problem(None, "", f"no spec file {name_or_path!r} (looked next to the "
                                 "spec that extends it and in the current directory)")])
    if candidate.exists():  # a FIFO, a device or a directory too: the reader refuses it by name
        return candidate
    known = bundled_names()
    hint = difflib.get_close_matches(name_or_path, known, n=1)
    more = f" (did you mean {hint[0]!r}?)" if hint else ""
    raise SpecError([Problem(None, "", f"no spec named {name_or_path!r}{more}; bundled specs: "
                             + ", ".join(known))])


# --------------------------------------------------------------------------- schema


@lru_cache(maxsize=1)
def schema() -> dict[str, Any]:
    text = resources.files("ddzrules").joinpath("spec.schema.json").read_text(encoding="utf-8")
    return dict(json.loads(text))


def _schema_at(sch: dict[str, Any], path: Path_) -> dict[str, Any]:
    """The sub-schema describing the object at ``path`` (best effort, for hints)."""
    node = sch
    for part in path:
        props = node.get("properties", {})
        if isinstance(part, str) and part in props:
            node = props[part]
        elif isinstance(node.get("additionalProperties"), dict):
            node = node["additionalProperties"]
        elif isinstance(node.get("items"), dict):
            node = node["items"]
        else:
            return {}
        if "oneOf" in node:
            objs = [s for s in node["oneOf"] if s.get("type") == "object"]
            node = objs[0] if objs else node
    return node


def validate_data(data: Any, file: str, positions: dict[Path_, ScalarSource],
                  key_positions: dict[Path_, ScalarSource]) -> list[Problem]:
    """Every schema violation of one file's data, with positions and hints."""
    return [p for _, p in schema_problems(data, file, positions, key_positions)]


def schema_problems(data: Any, file: str, positions: dict[Path_, ScalarSource],
                    key_positions: dict[Path_, ScalarSource]) -> list[tuple[Path_, Problem]]:
    """:func:`validate_data`'s problems, each with the key path it is about as a tuple
    (a dotted path is ambiguous when a key holds a dot): ``validate`` leaves out exactly
    the broken parts and still checks the rest."""
    spec = Spec(name="", data={}, file=file, chain=[], positions=positions, key_positions=key_positions)
    import jsonschema  # here: most commands never validate a spec's schema

    validator = jsonschema.Draft202012Validator(schema())
    problems: list[tuple[Path_, Problem]] = []
    for err in sorted(validator.iter_errors(data), key=lambda e: [str(p) for p in e.absolute_path]):
        path = tuple(err.absolute_path)
        if "propertyNames" in err.absolute_schema_path and isinstance(err.instance, str):
            # a bad key: point at the key itself, not at the mapping that holds it
            key = err.instance
            what = "combo name" if path == ("combos",) else "key"
            kp = key_positions.get(path + (key,))
            message = (f"{what} {key!r} is not allowed: names are lower case letters, digits and _, "
                       f"starting with a letter" if err.validator == "pattern" else
                       f"{what} {brief(key, 60)}: {_schema_message(err)}")
            if kp is not None:
                excerpt = f"  {kp.source_line}\n  {' ' * (kp.location.column - 1)}^"
                problems.append((path + (key,), Problem(kp.location, dotted(path + (key,)), message,
                                                        excerpt)))
            else:
                problems.append((path + (key,), spec.problem(path, message)))
            continue
        if err.validator == "additionalProperties" and isinstance(err.instance, dict):
            allowed = list(err.schema.get("properties", {}))
            for key in err.instance:
                if key in allowed:
                    continue
                hint = difflib.get_close_matches(key, allowed, n=1, cutoff=0.6)
                more = f" (did you mean {hint[0]!r}?)" if hint else f"; allowed: {', '.join(allowed)}"
                kp = key_positions.get(path + (key,))
                if kp is not None:
                    excerpt = f"  {kp.source_line}\n  {' ' * (kp.location.column - 1)}^"
                    problems.append((path + (key,), Problem(kp.location, dotted(path + (key,)),
                                                            f"unknown key {key!r}{more}", excerpt)))
                else:
                    problems.append((path + (key,), spec.problem(path, f"unknown key {key!r}{more}")))
            continue
        if err.validator == "oneOf" and path and path[0] == "combos":
            message = ("a combo is a pattern string, a mapping with 'pattern' "
                       "(and zh, description, compare), or null to remove it")
            inst = err.instance
            if isinstance(inst, dict):
                sub = _schema_at(schema(), path)
                allowed = list(sub.get("properties", {}))
                extra = [k for k in inst if k not in allowed]
                for key in extra:
                    hint = difflib.get_close_matches(key, allowed, n=1, cutoff=0.6)
                    more = f" (did you mean {hint[0]!r}?)" if hint else f"; allowed: {', '.join(allowed)}"
                    kp = key_positions.get(path + (key,))
                    loc_problem = (Problem(kp.location, dotted(path + (key,)), f"unknown key {key!r}{more}",
                                           f"  {kp.source_line}\n  {' ' * (kp.location.column - 1)}^")
                                   if kp else spec.problem(path, f"unknown key {key!r}{more}"))
                    problems.append((path + (key,), loc_problem))
                if extra:
                    continue
                if "pattern" not in inst:
                    message = "a combo mapping needs a 'pattern'"
                else:  # a bad value inside the mapping (compare: [size, colour]): at that value
                    inner = innermost_error(err)
                    at = tuple(inner.absolute_path)
                    problems.append((at, spec.problem(at, schema_words(inner))))
                    continue
            problems.append((path, spec.problem(path, message)))
            continue
        inner = innermost_error(err)
        at = tuple(inner.absolute_path)
        problems.append((at, spec.problem(at, schema_words(inner))))
    return problems


#: a schema pattern in words (the regex itself never reaches a user): what a value of it is
PATTERN_WORDS: dict[str, str] = {
    r"^\s*(10|[3-9TJQKA2XD])+\s*$": "cards, one character a card: 3-9, T (or 10), J, Q, K, A, 2, X (small "
                                     "joker), D (big joker), e.g. \"222A\"",
    r"^(10|[3-9TJQKA2XD])$": "one rank: 3-9, T (or 10), J, Q, K, A, 2, X (small joker) or D (big joker)",
    r"^\s*\S+\s*\.\.\s*\S+\s*$": "a range of ranks, low..high, e.g. 3..A",
    r"^\s*\S{1,2}\s*$": "one rank, e.g. 3 or 10",
    r"^[a-z0-9][a-z0-9/_-]*$": "a name of lower case letters, digits, _, - and /, starting with a letter or digit",
    r"^[a-z][a-z0-9_]*$": "a name of lower case letters, digits and _, starting with a letter",
}
#: card suits, which no spec writes yet (a deck's cards are ranks): said so where one is met
SUITS = "♠♥♣♦♤♡♧♢"
_TYPE_WORDS = {"string": "a string", "integer": "a whole number", "number": "a number", "boolean": "true or false",
               "object": "a mapping", "array": "a list", "null": "null"}


def _type_word(value: Any) -> str:
    kind = {bool: "boolean", int: "integer", float: "number", str: "string", dict: "object",
            list: "array", type(None): "null"}.get(type(value), "value")
    return _TYPE_WORDS.get(kind, kind)


def innermost_error(err: Any) -> Any:
    """The error a person must fix, from a ``oneOf``/``anyOf`` one: the branch whose type is
    the value's (a mapping's branch for a mapping), then that branch's deepest error, so that
    ``compare: [size, colour]`` is about ``colour``, not the combo's ``{``. An error with
    no such branch (the value is of no branch's type) stays what it is."""
    while err.validator in ("oneOf", "anyOf") and err.context:
        branches: dict[Any, list[Any]] = {}
        for sub in err.context:
            branches.setdefault(sub.relative_schema_path[0], []).append(sub)
        typed = [errs for errs in branches.values()
                 if not any(e.validator == "type" and not e.relative_path for e in errs)]
        if len(typed) != 1:
            return err
        err = max(typed[0], key=lambda e: len(e.absolute_path))
    return err


def schema_words(err: Any) -> str:
    """What is wrong with the value of one schema error, in words: the allowed values, the
    form a pattern stands for (:data:`PATTERN_WORDS`), the type wanted; never a regex.
    Values quoted are clipped (:func:`brief`)."""
    value, kind, expected = err.instance, err.validator, err.validator_value
    shown = brief(value, 60)
    if kind == "pattern":
        form = PATTERN_WORDS.get(str(expected), "")
        description = str(err.schema.get("description") or "")
        if isinstance(value, str) and any(ch in SUITS for ch in value):
            # what works today: the rank alone, and whatever the key's own description offers
            return (f"{shown}: a spec has no suits yet (ranks only): write the rank alone, e.g. "
                    f"{brief(''.join(ch for ch in value if ch not in SUITS), 60)}"
                    + "".join(f"; {t}" for t in (form, description) if t))
        return f"{shown} is not " + (form or description or "of the form this key takes")
    if kind == "enum":
        allowed = ", ".join(brief(v, 30) for v in expected)
        hint = difflib.get_close_matches(str(value), [str(v) for v in expected], n=1, cutoff=0.6)
        more = f" (did you mean {hint[0]!r}?)" if hint and isinstance(value, str) else ""
        return f"{shown} is not one of: {allowed}{more}"
    if kind == "const":
        return f"{shown}: only {brief(expected, 30)} is allowed here"
    if kind == "type":
        wanted = [expected] if isinstance(expected, str) else list(expected)
        return (("no value (null)" if value is None else f"{shown} is {_type_word(value)}") + "; this key takes "
                + " or ".join(_TYPE_WORDS.get(str(w), str(w)) for w in wanted))
    if kind in ("minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum"):
        sign = {"minimum": "at least", "exclusiveMinimum": "more than", "maximum": "at most",
                "exclusiveMaximum": "less than"}[kind]
        return f"{shown} is out of range: it must be {sign} {expected}"
    if kind == "minItems":
        return f"{shown}: at least {expected} item{'s' if expected != 1 else ''} needed"
    if kind == "maxItems":
        return f"{shown}: at most {expected} item{'s' if expected != 1 else ''} allowed"
    if kind == "uniqueItems":
        return f"{shown}: an item is repeated; each may appear once"
    if kind == "minProperties":
        return f"{shown}: give at least {expected} key{'s' if expected != 1 else ''}"
    if kind == "minLength":
        return f"{shown}: too short (at least {expected} character{'s' if expected != 1 else ''})"
    if kind == "maxLength":
        return f"{shown}: too long (at most {expected} characters)"
    if kind == "required":
        return _schema_message(err)
    return _schema_message(err)


def _schema_message(err: Any) -> str:
    """A schema error's message with the value it quotes clipped (jsonschema quotes it
    whole: a list of 20,000 items made a message of 60,000 characters)."""
    message: str = err.message
    whole = brief(err.instance, 10**6)
    return message.replace(whole, brief(err.instance, 60), 1) if len(whole) > 60 else message


# --------------------------------------------------------------------------- merge


def merge(parent: dict[str, Any], child: dict[str, Any]) -> dict[str, Any]:
    """Child over parent: mappings merge key by key, ``null`` deletes, the rest replaces.

    A plugin entry (a mapping with ``plugin:``) that names another plugin replaces
    the parent's entry whole: the parent's parameters belong to the parent's plugin.

    >>> merge({"combos": {"a": "1", "b": "2"}}, {"combos": {"b": None, "c": "3"}})
    {'combos': {'a': '1', 'c': '3'}}
    >>> merge({"x": {"plugin": "p", "params": {"a": 1}}}, {"x": {"plugin": "q", "params": {"b": 2}}})
    {'x': {'plugin': 'q', 'params': {'b': 2}}}
    """
    out = copy.deepcopy(parent)
    for key, value in child.items():
        if value is None:
            out.pop(key, None)
        elif isinstance(value, dict) and isinstance(out.get(key), dict) and \
                value.get("plugin", out[key].get("plugin")) == out[key].get("plugin"):
            out[key] = merge(out[key], value)
        else:
            out[key] = _strip_nulls(copy.deepcopy(value))
    return out


def _strip_nulls(value: Any) -> Any:
    """A replaced entry keeps no ``null``: there is nothing below it to remove."""
    if isinstance(value, dict):
        return {k: _strip_nulls(v) for k, v in value.items() if v is not None}
    return value


def dangling_removals(parent: Any, child: dict[str, Any], path: Path_ = ()) -> list[tuple[Path_, list[str]]]:
    """Keys a child sets to ``null`` inside a mapping where the parent has no such key
    (a misspelt removal would otherwise do nothing), with the parent's keys there."""
    out: list[tuple[Path_, list[str]]] = []
    if not isinstance(parent, dict):
        return out
    for key, value in child.items():
        if value is None and path and key not in parent:
            out.append((path + (key,), list(parent)))
        elif isinstance(value, dict) and isinstance(parent.get(key), dict) and \
                value.get("plugin", parent[key].get("plugin")) == parent[key].get("plugin"):
            out.extend(dangling_removals(parent[key], value, path + (key,)))
    return out


def load_spec(name_or_path: str | Path, _seen: tuple[str, ...] = (), _relative_to: Path | None = None) -> Spec:
    """Load, validate and resolve a spec (following ``extends:``).

    Raises :class:`SpecError` listing every problem with its ``file:line:column``.
    """
    path = resolve_name(str(name_or_path), _relative_to)
    resolved = path.resolve()
    real = str(resolved)
    file = _display(path, resolved)
    if real in _seen:
        chain = " -> ".join(list(_seen) + [real])
        raise SpecError([Problem(Location(file, 1, 1), "extends", f"extends loop: {chain}")])
    text = read_spec_text(path, file)
    digest = _text_digest(text)
    if not _seen:  # the spec asked for (not a parent): served whole when the cache has it
        served = _load_resolved(path, real, file, text, digest)
        if served is not None:
            return served
    checked = _checked_before(digest)
    data, positions, key_positions = read_yaml(text, file, check_events=not checked)
    if not isinstance(data, dict):
        raise SpecError([Problem(Location(file, 1, 1), "", "a spec is a YAML mapping (key: value lines)")])
    problems = [] if checked else validate_data(data, file, positions, key_positions)
    if problems:
        raise SpecError(problems)
    unmarked = [] if checked else [digest]
    parent_name = data.get("extends")
    child_clean = {k: v for k, v in data.items() if k != "extends"}
    if parent_name:
        try:
            parent = load_spec(parent_name, _seen + (real,), path.parent)
        except SpecError as e:
            src = positions.get(("extends",))
            loc = src.location if src else Location(file, 1, 1)
            raise SpecError([Problem(loc, "extends", f"in parent {parent_name!r}: {p}") for p in e.problems]) \
                from None
        dangling = dangling_removals(parent.data, child_clean)
        if dangling:
            spec = Spec(data["name"], child_clean, file, [file], positions, key_positions)
            raise SpecError([spec.problem(p, f"removes {p[-1]!r}, which {parent_name!r} does not have"
                                             + (f" (did you mean {hint[0]!r}?)"
                                                if (hint := difflib.get_close_matches(str(p[-1]), keys, n=1))
                                                else ""))
                             for p, keys in dangling])
        merged = merge(parent.data, child_clean)
        pos = {k: v for k, v in parent.positions.items()}
        kpos = {k: v for k, v in parent.key_positions.items()}
        pos.update(positions)
        kpos.update(key_positions)
        spec = Spec(data["name"], merged, file, [file] + parent.chain, pos, kpos, unmarked + parent.unmarked)
        spec.sources = [SourceText(path, real, file, text, str(parent_name), digest)] + parent.sources
        return spec
    spec = Spec(data["name"], child_clean, file, [file], positions, key_positions, unmarked)
    spec.sources = [SourceText(path, real, file, text, None, digest)]
    return spec


# --------------------------------------------------------------------------- cache
# Reading a spec file checks its YAML events (aliases, tags, depth) and validates it
# against the schema; jsonschema's import and the walk are a large part of a load. A
# file whose exact text passed both before (under the same depth limit and the same
# code and schema) is marked in the keyed cache, and the two checks are skipped for it.
# The mark holds nothing but the text's digest: it can only say "seen valid", never
# change what is read. Marks are written by the caller once the whole spec compiled.

#: bump when what a mark means changes
CHECKED_FORMAT = 1


def _text_digest(text: str) -> str:
    # the limits are part of the digest: a lowered DDZRULES_MAX_SPEC_DEPTH (or _VALUES) re-checks
    limit = f"{CHECKED_FORMAT}\0{max_spec_depth()}\0{max_spec_values()}\0"
    return hashlib.sha256((limit + text).encode("utf-8")).hexdigest()


def _checked_name(digest: str) -> str:
    code = cache.code_hash(CHECKED_FORMAT, "ddzrules.spec", ("ddzrules", "spec.schema.json"))
    return f"spec-{digest[:32]}-{code}.ok"


def _checked_before(digest: str) -> bool:
    def parse(body: bytes) -> bool:
        if body != digest.encode("ascii"):
            raise ValueError("it marks another text")
        return True

    return bool(cache.load(_checked_name(digest), parse, stacklevel=4))


def mark_checked(spec: Spec) -> None:
    """Remember that the files of ``spec`` passed the YAML and schema checks, and the
    resolved spec with what the compiler left in ``spec.extras`` (call only once the whole
    spec loaded and compiled: a broken spec is never marked or cached)."""
    if cache.enabled():
        for digest in spec.unmarked:
            cache.store(_checked_name(digest), digest.encode("ascii"))
        if spec.sources and spec.extras is not None and (spec.served is None or spec.extras != spec.cached):
            _store_resolved(spec)
    spec.unmarked = []


# The resolved spec: a warm load reads the chain's texts (their size and characters
# checked as always) and one entry, keyed by the path and text of the spec asked for,
# holding the merged data and, for each file of the chain, the parent it names and the
# digest of its text. Each parent is resolved again and its text read: a moved or edited
# parent is simply another chain (a miss, then the spec is loaded in full and the entry
# rewritten). The entry is written only after the spec compiled, so it also stands for
# "this chain passed every check"; positions are worked out from the texts when asked.

#: bump when the resolved entry's payload or meaning changes
RESOLVED_FORMAT = 1
#: the longest extends: chain an entry may describe (a longer one is loaded in full)
_MAX_CHAIN = 64


def _resolved_name(real: str, digest: str) -> str:
    key = hashlib.sha256(f"{RESOLVED_FORMAT}\0{real}\0{digest}".encode()).hexdigest()[:32]
    # the compiler's sources too: the entry carries its parsed patterns and cost checks
    code = cache.code_hash(RESOLVED_FORMAT, "ddzrules.spec", ("ddzrules", "spec.schema.json"), "ddzrules.compiler",
                           "ddzrules.patterns", ("ddzrules", "pattern.lark"), "ddzrules.cards")
    return f"resolved-{key}-{code}.spec"


def _load_resolved(path: Path, real: str, file: str, text: str, digest: str) -> Spec | None:
    if not cache.enabled():
        return None
    name = _resolved_name(real, digest)
    top = SourceText(path, real, file, text, None, digest)
    return cache.load(name, lambda body: _decode_resolved(name, body, top), stacklevel=4)


def _plain(value: Any, depth: int) -> None:
    """``value`` is data a YAML spec gives (JSON's types, string keys), at most ``depth``
    levels deep; ValueError otherwise."""
    kind = type(value)
    if kind is dict:
        if depth <= 0:
            raise ValueError("nested too deeply")
        for k, v in value.items():
            if type(k) is not str:
                raise ValueError("a key is not a string")
            _plain(v, depth - 1)
    elif kind is list:
        if depth <= 0:
            raise ValueError("nested too deeply")
        for v in value:
            _plain(v, depth - 1)
    elif kind not in (str, int, float, bool) and value is not None:
        raise ValueError(f"a value of type {kind.__name__}")


def _decode_resolved(name: str, body: bytes, top: SourceText) -> Spec | None:
    """The spec an entry holds, its structure checked (ValueError), or None when a parent
    is no longer the file it was (moved, edited, gone: the entry is of another chain)."""
    payload = json.loads(body)
    if type(payload) is not dict or sorted(payload) != ["chain", "data", "extras"]:
        raise ValueError("not a resolved spec")
    chain, data, extras = payload["chain"], payload["data"], payload["extras"]
    if type(chain) is not list or not 0 < len(chain) <= _MAX_CHAIN or type(extras) is not dict:
        raise ValueError("not a resolved spec")
    for i, link in enumerate(chain):
        if not (type(link) is list and len(link) == 3 and type(link[0]) is str
                and (type(link[1]) is str if i + 1 < len(chain) else link[1] is None)
                and type(link[2]) is str and len(link[2]) == 64):
            raise ValueError("its extends: chain is malformed")
    if chain[0][0] != top.real or chain[0][2] != top.digest:
        raise ValueError("it is the spec of another file")
    _plain(data, max_spec_depth())
    if type(data) is not dict or type(data.get("name")) is not str or "extends" in data:
        raise ValueError("its data is not a resolved spec")
    sources = [dataclasses.replace(top, extends=chain[0][1])]
    seen = {chain[0][0]}
    for link in chain[1:]:
        child = sources[-1]
        try:
            parent = resolve_name(str(child.extends), child.path.parent)
            resolved = parent.resolve()
            real = str(resolved)
            if real != link[0] or real in seen:
                return None
            seen.add(real)
            parent_file = _display(parent, resolved)
            parent_text = read_spec_text(parent, parent_file)
        except (SpecError, OSError):
            return None
        if _text_digest(parent_text) != link[2]:
            return None
        sources.append(SourceText(parent, real, parent_file, parent_text, link[1], link[2]))
    spec = Spec(data["name"], data, top.file, [s.file for s in sources])
    spec.sources, spec.served, spec.cached = sources, name, extras
    return spec


def _store_resolved(spec: Spec) -> None:
    top = spec.sources[0]
    payload = {"chain": [[s.real, s.extends, s.digest] for s in spec.sources],
               "data": spec.data, "extras": spec.extras}
    body = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
    cache.store(_resolved_name(top.real, top.digest), body.encode("utf-8"))


def spec_from_data(data: Any, file: str) -> Spec:
    """A resolved spec given as data (a conformance suite carries one, parents applied):
    validated by the schema like a file, without ``extends:`` (it is already resolved)."""
    if not isinstance(data, dict):
        raise SpecError([Problem(Location(file, 1, 1), "", "a spec is a mapping")])
    check_spec_data(data, file)  # the bounds of a spec file, before the schema walks it
    if "extends" in data:
        raise SpecError([Problem(Location(file, 1, 1), "extends",
                                 "a resolved spec has no extends: (its parents are merged in)")])
    problems = validate_data(data, file, {}, {})
    if problems:
        raise SpecError(problems)
    return Spec(str(data["name"]), copy.deepcopy(data), file, [file])


def _display(path: Path, real: Path | None = None) -> str:
    """A short, stable file name for messages: relative to the bundle or the cwd
    (``real``: the path resolved, when the caller has it)."""
    real = real or path.resolve()
    try:
        return "specs/" + real.relative_to(_bundled_real()).as_posix()
    except ValueError:
        pass
    try:
        return real.relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return str(path)


def dump_yaml(data: dict[str, Any]) -> str:
    """The resolved spec as YAML, keys in the schema's order."""
    import yaml

    order = list(schema()["properties"])
    ordered = {k: data[k] for k in order if k in data}
    ordered.update({k: v for k, v in data.items() if k not in ordered})
    text: str = yaml.safe_dump(ordered, allow_unicode=True, sort_keys=False, width=100)
    return text


#: what a spec's name may be (``ddzrules new``, the playground's "new spec")
SPEC_NAME = re.compile(r"[a-z0-9][a-z0-9/_-]*")


def starter_text(name: str, parent: str, extends: str | None = None) -> str:
    """A commented starting spec named ``name`` that extends ``parent`` and validates as it
    is (what ``ddzrules new`` writes and the playground's "new spec" starts from);
    ``extends`` is how its ``extends:`` names the parent, when not as ``parent`` (a parent's
    path relative to where the new file goes)."""
    if not SPEC_NAME.fullmatch(name):  # it is written into the YAML: no line break, no quote
        raise DdzError(f"a spec name is lower case letters, digits, '/', '_' and '-', not {brief(name, 60)}")
    base = load_spec(parent)
    parent = extends or parent
    combos = [k for k, v in (base.data.get("combos") or {}).items() if v is not None]
    example = next((c for c in ("straight", "single") if c in combos), combos[0] if combos else "single")
    entry = (base.data.get("combos") or {}).get(example)
    pattern = entry.get("pattern") if isinstance(entry, dict) else entry
    plugins = []
    for role, value in (base.data.get("game") or {}).items():
        for e in value if isinstance(value, list) else [value]:
            if isinstance(e, dict) and e.get("plugin"):
                plugins.append(f"#   {role}: {e['plugin']}")
    plugin_lines = "\n".join(plugins) or "#   (none: the parent has no game: section)"
    return f"""# yaml-language-server: $schema=ddzrules-spec.schema.json
# {name}: house rules on top of {parent} (check with `ddzrules validate FILE`).
# The schema for editors: `ddzrules schema > ddzrules-spec.schema.json`.
name: {name}
extends: {parent}
title:
  zh: {name}
  en: {name}
# readings: the reading this spec takes where the rules are ambiguous; name the id in a
# comment next to the rule it governs (# reading: my-reading).
readings: {{}}
#   my-reading: >-
#     What the rule text says and how this spec reads it.
combos: {{}}
# Override a combo by its inherited name (long form keeps its zh:), remove one with null:
#   {example}: {{pattern: "{pattern}"}}     # reading: my-reading
#   four_with_two: null       # a removed bomb class must also leave bombs: (restate it)
# game: plugins; a child names a role to replace or merge it. The parent's plugins:
{plugin_lines}
"""
