"""Where a spec's values were written: ``file:line:column`` of each scalar and how it was
quoted, so that a message about a column inside a value (a pattern's syntax error) points at
the file, and the texts of an ``extends:`` chain as they were read."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ddzrules.errors import (
    Location,
)

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
    digest: str = field(repr=False)  # see text_digest


def position_inside(src: ScalarSource, offset: tuple[int, int]) -> tuple[Location, str]:
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


# over the complexity bound on purpose: one dispatch over the node kinds of a YAML tree
def _walk(src: ScalarSource, line: int, col: int) -> tuple[int, int] | None:  # noqa: C901
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
