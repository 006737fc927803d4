"""The bundled rule sheets kept in sync: the generated blocks of a document (between the
markers :data:`BEGIN` and :data:`END`), and :func:`update_docs`, which rewrites them from
their specs (``ddzrules sheet --update-docs docs/rules``) or, checking, says which files
are stale.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ddzrules.errors import DdzError
from ddzrules.sheets.render import sheet_text

BEGIN = "<!-- BEGIN GENERATED: ddzrules sheet {spec} --lang {lang} -->"
END = "<!-- END GENERATED -->"
_BEGIN_RE = re.compile(
    r"^<!-- BEGIN GENERATED: ddzrules sheet (?P<spec>\S+) --lang (?P<lang>\S+) -->$", re.MULTILINE
)


@dataclass(frozen=True)
class GeneratedBlock:
    """One generated block of a document: the spec and language its marker names, and
    the text between the markers."""

    spec: str
    lang: str
    start: int  # offset of the first character after the BEGIN line
    end: int  # offset of the END marker
    text: str


def generated_blocks(text: str, where: str = "the document") -> list[GeneratedBlock]:
    """The generated blocks of a document, in order; a BEGIN without its END is an error."""
    out = []
    for m in _BEGIN_RE.finditer(text):
        start = m.end() + 1
        end = text.find(END, start)
        nested = _BEGIN_RE.search(text, start)
        if end < 0 or (nested is not None and nested.start() < end):
            raise DdzError(f"{where}: the marker for {m.group('spec')} has no {END} after it")
        out.append(GeneratedBlock(m.group("spec"), m.group("lang"), start, end, text[start:end]))
    return out


def regenerate(text: str, make: Callable[[str, str], str], where: str = "the document") -> str:
    """``text`` with every generated block replaced by ``make(spec, lang)``."""
    out, pos = [], 0
    for b in generated_blocks(text, where):
        out.append(text[pos : b.start])
        out.append(make(b.spec, b.lang))
        pos = b.end
    out.append(text[pos:])
    return "".join(out)


@dataclass(frozen=True)
class DocStatus:
    path: Path
    specs: tuple[str, ...]
    stale: (
        bool  # the file differed from what its specs generate (and was rewritten unless checking)
    )


def update_docs(
    directory: str | Path, check: bool = False, make: Callable[[str, str], str] | None = None
) -> list[DocStatus]:
    """Regenerate the generated block of every ``*.md`` of ``directory`` (not recursive).

    With ``check`` nothing is written: the result says which files are stale. Files
    without markers are left alone. ``make(spec, lang)`` defaults to the Markdown sheet.
    """
    root = Path(directory)
    if not root.is_dir():
        raise DdzError(f"{directory}: not a directory")
    cache: dict[tuple[str, str], str] = {}

    def default(spec: str, lang: str) -> str:
        if (spec, lang) not in cache:
            cache[(spec, lang)] = sheet_text(spec, lang)
        return cache[(spec, lang)]

    out = []
    for path in sorted(root.glob("*.md")):
        text = path.read_text(encoding="utf-8")
        blocks = generated_blocks(text, str(path))
        if not blocks:
            continue
        new = regenerate(text, make or default, str(path))
        stale = new != text
        if stale and not check:
            path.write_text(new, encoding="utf-8")
        out.append(DocStatus(path, tuple(b.spec for b in blocks), stale))
    return out
