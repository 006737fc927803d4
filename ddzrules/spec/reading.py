"""Reading one spec file, untrusted: bounded bytes of a regular file, then YAML with the
position of every scalar, only the safe tags, bounded depth and size, no duplicate keys."""

from __future__ import annotations

import datetime
import math
import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ddzrules.errors import (
    LONE_SURROGATE,
    LONE_SURROGATE_WORDS,
    Location,
    Problem,
    SpecError,
    brief,
    escaped,
)

if TYPE_CHECKING:
    import yaml  # imported where a spec's YAML is read or written: a warm load never needs it

from ddzrules.spec.source import Path_, ScalarSource, dotted
from ddzrules.untrusted import FileRefused, read_regular

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


def _too_large(file: str, limit: int, size: int | None = None) -> SpecError:
    said = (f"{size:,} bytes, more than the {limit:,}" if size is not None
            else f"more than the {limit:,} bytes")
    return SpecError([Problem(Location(file, 1, 1), "", f"the file is {said} a spec may have "
                              "(DDZRULES_MAX_SPEC_BYTES raises the limit)")])


def read_spec_bytes(path: Path, file: str) -> bytes:
    """The bytes of a spec file, at most :func:`max_spec_bytes`: every spec file (the one
    asked for and each ``extends:`` parent) is read through here, so that none can hang
    or exhaust memory. Only a regular file is read (a symbolic link to one is followed):
    a FIFO would block until something writes to it, ``/dev/zero`` never ends, a
    directory has no text. Its size is checked before a byte is read."""
    limit = max_spec_bytes()
    try:
        return read_regular(path, limit)
    except FileRefused as e:
        if e.problem == "not regular":
            raise SpecError([Problem(Location(file, 1, 1), "", f"not a regular file but {e.kind}: a spec is read "
                                     "only from a regular file")]) from None
        if e.problem == "too large":
            raise _too_large(file, limit, e.size) from None
        raise SpecError([Problem(None, "", f"cannot read {file}: {e.reason or e.problem}")]) from None


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


# over the complexity bound on purpose: one dispatch over YAML's event kinds
def read_yaml(text: str, file: str, check_events: bool = True,  # noqa: C901
               ) -> tuple[Any, dict[Path_, ScalarSource], dict[Path_, ScalarSource]]:
    import yaml

    try:
        if check_events:
            _check_events(text, file)
        # a text that passed before (see checked_before) is composed by libyaml when
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
