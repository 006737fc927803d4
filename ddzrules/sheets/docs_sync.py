"""The bundled rule sheets kept in sync: the generated blocks of a document whose marker
names a sheet (``<!-- BEGIN GENERATED: ddzrules sheet SPEC --lang LANG -->``, the blocks
of :mod:`ddzrules.generated`), and :func:`update_docs`, which rewrites them from their
specs (``ddzrules sheet --update-docs docs/rules``) or, checking, says which files are
stale.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ddzrules import generated
from ddzrules.errors import DdzError
from ddzrules.sheets.render import sheet_text

#: a sheet block's first marker (``generated.BEGIN`` with the command that writes it)
BEGIN = generated.BEGIN.format(source="ddzrules sheet {spec} --lang {lang}")
END = generated.END
#: the command a sheet block's marker names, before its spec and language
COMMAND = "ddzrules sheet"


@dataclass(frozen=True)
class GeneratedBlock:
    """One generated sheet block of a document: the spec and language its marker names,
    and the text between the markers."""

    spec: str
    lang: str
    start: int  # offset of the first character after the BEGIN line
    end: int  # offset of the END marker
    text: str


def _spec_and_lang(block: generated.Block, where: str) -> tuple[str, str] | None:
    words = block.words()
    if words[:2] != COMMAND.split():
        return None
    if len(words) != 5 or words[3] != "--lang":
        raise DdzError(f"{where}: a sheet block's marker is {BEGIN}, not {block.source!r}")
    return words[2], words[4]


def generated_blocks(text: str, where: str = "the document") -> list[GeneratedBlock]:
    """The sheet blocks of a document, in order; a BEGIN without its END is an error."""
    out = []
    for b in generated.blocks(text, where):
        found = _spec_and_lang(b, where)
        if found is not None:
            out.append(GeneratedBlock(found[0], found[1], b.start, b.end, b.text))
    return out


def _generators(make: Callable[[str, str], str], where: str) -> dict[str, generated.Generator]:
    def sheet(args: list[str]) -> str:
        if len(args) != 3 or args[1] != "--lang":
            raise DdzError(f"{where}: a sheet block's marker is {BEGIN}, not {' '.join([COMMAND, *args])!r}")
        return make(args[0], args[2])

    return {COMMAND: sheet}


def regenerate(text: str, make: Callable[[str, str], str], where: str = "the document") -> str:
    """``text`` with every sheet block replaced by ``make(spec, lang)``."""
    return generated.regenerate(text, _generators(make, where), where)


@dataclass(frozen=True)
class DocStatus:
    path: Path
    specs: tuple[str, ...]
    #: the file differed from what its specs generate (and was rewritten unless checking)
    stale: bool


def update_docs(
    directory: str | Path, check: bool = False, make: Callable[[str, str], str] | None = None
) -> list[DocStatus]:
    """Regenerate the sheet blocks of every ``*.md`` of ``directory`` (not recursive).

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
    # not a symbolic link: what it leads to may lie outside the directory named
    pages = sorted(p for p in root.glob("*.md") if not p.is_symlink())
    for status in generated.update_files(pages, _generators(make or default, str(root)),
                                         check=check):
        specs = tuple(b.spec for b in generated_blocks(status.path.read_text(encoding="utf-8"), str(status.path)))
        out.append(DocStatus(status.path, specs, status.stale))
    return out
