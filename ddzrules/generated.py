"""Generated blocks of documents: one mechanism for every part of the docs that a command
writes (rule sheets, the plugins' parameters, the CLI and schema references).

A block sits between two markers; the first names, as a command line, what writes it::

    <!-- BEGIN GENERATED: ddzrules sheet hubei-3p --lang en -->
    … whatever that command prints …
    <!-- END GENERATED -->

A *generator* makes a block's text from its source's words after the command's own
(``["hubei-3p", "--lang", "en"]``); generators are looked up by the command's words
(``"ddzrules sheet"``). :func:`regenerate` rewrites the blocks of a text, and
:func:`update_files` those of Markdown files (or, checking, says which are stale): used by
``ddzrules docs update``, by ``sheet --update-docs`` and ``plugins --update-docs`` (each
with its one generator), by the docs site's build and by the tests that keep the
committed blocks true.

>>> text = "a\\n<!-- BEGIN GENERATED: ddzrules echo hi -->\\nold\\n<!-- END GENERATED -->\\nb\\n"
>>> print(regenerate(text, {"ddzrules echo": lambda args: " ".join(args) + "\\n"}), end="")
a
<!-- BEGIN GENERATED: ddzrules echo hi -->
hi
<!-- END GENERATED -->
b
"""

from __future__ import annotations

import bisect
import os
import re
import shlex
import stat
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from ddzrules.errors import DdzError, SpecError, brief
from ddzrules.outputs import write_file

BEGIN = "<!-- BEGIN GENERATED: {source} -->"
END = "<!-- END GENERATED -->"
#: the largest Markdown page read (the site's largest is some 100 KB): a 3 GB file was read whole
MAX_PAGE_BYTES = 16 * 2**20
#: the most files and folders a directory named to ``docs update`` is walked through
MAX_WALKED = 100_000
#: the deepest folder ``docs update`` walks into, below the directory named
MAX_DEPTH = 64
_BEGIN_RE = re.compile(r"^<!-- BEGIN GENERATED: (?P<source>[^\n]*?) -->$", re.MULTILINE)

#: a block's text from the words of its source after the command's (``["hubei-3p", "--lang", "en"]``)
Generator = Callable[[list[str]], str]


@dataclass(frozen=True)
class Block:
    """One generated block of a text: its source (the marker's command line), where its
    text starts (the character after the BEGIN line) and ends (the END marker)."""

    source: str
    start: int
    end: int
    text: str

    def words(self) -> list[str]:
        """The source split as a shell would (a DdzError when it cannot be)."""
        try:
            return shlex.split(self.source)
        except ValueError as e:
            raise DdzError(f"the block {brief(self.source, 80)}: {e}") from None


_FENCE_RE = re.compile(r"^[ ]{0,3}(```|~~~)", re.MULTILINE)


def _fenced(text: str) -> list[tuple[int, int]]:
    """The spans of ``text``'s fenced code blocks (a marker shown in an example is no block),
    in order and apart."""
    spans, opened = [], None
    for m in _FENCE_RE.finditer(text):
        if opened is None:
            opened = m
        elif m.group(1) == opened.group(1):
            spans.append((opened.start(), m.end()))
            opened = None
    if opened is not None:
        spans.append((opened.start(), len(text)))
    return spans


def _in_fence(spans: list[tuple[int, int]], starts: list[int], at: int) -> bool:
    """Whether ``at`` lies in one of ``spans`` (``starts``: their starts): a bisection, so
    a page of many fences and many markers is read in linear time (a 4 MB page of both
    took minutes when each marker was compared with every fence)."""
    i = bisect.bisect_right(starts, at) - 1
    return i >= 0 and at < spans[i][1]


def blocks(text: str, where: str = "the document") -> list[Block]:
    """The generated blocks of ``text`` in order (not those inside fenced code: examples);
    a BEGIN without its END (or with another BEGIN before it) is a DdzError naming
    ``where`` and the line."""
    fenced = _fenced(text)
    starts = [a for a, _ in fenced]
    found = [m for m in _BEGIN_RE.finditer(text) if not _in_fence(fenced, starts, m.start())]
    out = []
    for i, m in enumerate(found):
        start = m.end() + 1
        end = text.find("\n" + END, m.end())
        nested = found[i + 1] if i + 1 < len(found) else None
        if end < 0 or (nested is not None and nested.start() < end):
            line = text.count("\n", 0, m.start()) + 1
            raise DdzError(f"{where}:{line}: the block {brief(m.group('source'), 80)} has no {END} after it")
        end += 1  # the END marker's own first character
        out.append(Block(m.group("source"), start, end, text[start:end]))
    return out


def generator_for(block: Block, generators: Mapping[str, Generator]) -> tuple[Generator, list[str]] | None:
    """The generator of a block (the longest command among ``generators`` its source begins
    with) and the words it takes, or None when none is given for it."""
    words = block.words()
    for n in range(len(words), 0, -1):
        found = generators.get(" ".join(words[:n]))
        if found is not None:
            return found, words[n:]
    return None


def regenerate(text: str, generators: Mapping[str, Generator], where: str = "the document",
               strict: bool = False) -> str:
    """``text`` with each generated block rewritten by its generator. A block no generator
    is given for is left as it is, or with ``strict`` is a DdzError (``ddzrules docs
    update`` knows every generator: a block it cannot make is a typo).

    The text made is bounded as a page read is, by :data:`MAX_PAGE_BYTES` (a DdzError once
    it would pass it): a 40 KB page of 600 markers of the CLI reference was written as
    17 MiB, a page ``docs update`` then refused to read. Blocks of the same source are made
    once."""
    out, pos = [], 0
    size = 0  # UTF-8 bytes of ``out``
    made_for: dict[str, tuple[str, int]] = {}  # by source: its text and that text's bytes
    for block in blocks(text, where):
        found = generator_for(block, generators)
        if found is None:
            if strict:
                line = text.count("\n", 0, block.start)
                raise DdzError(f"{where}:{line}: no command writes the block {brief(block.source, 80)}; "
                               f"the generated blocks are {', '.join(sorted(generators))}")
            continue
        if block.source not in made_for:
            made = _make(block, found, text, where)
            made = made if made.endswith("\n") or not made else made + "\n"
            made_for[block.source] = (made, len(made.encode("utf-8", "surrogatepass")))
        made, made_bytes = made_for[block.source]
        before = text[pos:block.start]
        size += len(before.encode("utf-8", "surrogatepass")) + made_bytes
        if size > MAX_PAGE_BYTES:
            line = text.count("\n", 0, block.start)
            raise DdzError(f"{where}:{line}: the page its blocks make would pass the "
                           f"{MAX_PAGE_BYTES // 2**20} MiB a page may hold (at the block {brief(block.source, 80)}); "
                           "nothing was written")
        out += [before, made]
        pos = block.end
    rest = text[pos:]
    if size + len(rest.encode("utf-8", "surrogatepass")) > MAX_PAGE_BYTES:
        raise DdzError(f"{where}: the page its blocks make would pass the {MAX_PAGE_BYTES // 2**20} MiB "
                       "a page may hold; nothing was written")
    out.append(rest)
    return "".join(out)


def _make(block: Block, found: tuple[Generator, list[str]], text: str, where: str) -> str:
    """A block's new text from its generator; its failure a DdzError naming the page and line."""
    make, args = found
    try:
        return make(args)
    except SpecError as e:
        line = text.count("\n", 0, block.start)  # the BEGIN line's number (start: after it)
        # the block names a spec file, which need not be the user's (a page can name
        # /etc/shadow): its problems quote its lines, so they are counted, not shown
        raise DdzError(f"{where}:{line}: the block {brief(block.source, 80)} names a spec that does not "
                       f"load ({len(e.problems)} problem{'' if len(e.problems) == 1 else 's'}; ddzrules validate "
                       "lists them)") from None
    except DdzError as e:
        line = text.count("\n", 0, block.start)
        raise DdzError(f"{where}:{line}: the block {brief(block.source, 80)}: {e}") from None


@dataclass(frozen=True)
class FileStatus:
    """One file's generated blocks: their sources, and whether the file differed from what
    they generate (rewritten unless checking)."""

    path: Path
    sources: tuple[str, ...]
    stale: bool


def markdown_files(paths: Iterable[str | Path]) -> list[Path]:
    """The Markdown files named: files as they are, directories' ``*.md`` (recursively,
    not into hidden directories such as ``.git`` or ``.venv``, and never through a symbolic
    link, to a folder or to a page: a link found in a directory may lead out of it, and the
    page would be rewritten there), sorted. A path that does not exist is a DdzError, and
    so is a directory holding more than :data:`MAX_WALKED` entries (``docs update /``
    would walk the whole file system) or folders nested more than :data:`MAX_DEPTH` deep.

    >>> [p.name for p in markdown_files(["README.md"])]
    ['README.md']
    """
    out: set[Path] = set()
    for given in paths:
        path = Path(given)
        if path.is_dir():
            out.update(_walk_markdown(path, str(given)))
        elif path.is_file():
            out.add(path)
        else:
            raise DdzError(f"{brief(str(given), 80)}: no such file or directory")
    return sorted(out)


def _walk_markdown(top: Path, given: str) -> list[Path]:
    """The ``*.md`` files under ``top`` (see :func:`markdown_files`): walked with a stack
    of its own, not os.walk, which recurses (a tree 1,000 folders deep was a RecursionError)."""
    found: list[Path] = []
    walked = 0
    stack: list[tuple[Path, int]] = [(top, 0)]
    while stack:
        folder, depth = stack.pop()
        try:
            with os.scandir(folder) as listing:
                entries = list(listing)
        except OSError:  # an unreadable folder is skipped, as os.walk did
            continue
        walked += len(entries)
        if walked > MAX_WALKED:
            raise DdzError(f"{brief(given, 80)}: more than {MAX_WALKED:,} files and folders under it; "
                           "name the documentation's own folder")
        for entry in sorted(entries, key=lambda e: e.name, reverse=True):
            try:
                # lstat: a symbolic link is neither a folder nor a page here
                mode = entry.stat(follow_symlinks=False).st_mode
            except OSError:
                continue
            if stat.S_ISDIR(mode) and not entry.name.startswith("."):
                if depth + 1 > MAX_DEPTH:
                    raise DdzError(f"{brief(given, 80)}: folders nested more than {MAX_DEPTH} deep under it; "
                                   "name the documentation's own folder")
                stack.append((Path(entry.path), depth + 1))
            elif stat.S_ISREG(mode) and entry.name.endswith(".md"):
                found.append(Path(entry.path))
    return found


def update_files(paths: Iterable[str | Path], generators: Mapping[str, Generator], check: bool = False,
                 strict: bool = False) -> list[FileStatus]:
    """Regenerate the blocks of every Markdown file of ``paths`` that has a block some
    generator makes (files without one are not listed). With ``check`` nothing is
    written: the statuses say which files are stale."""
    out = []
    writes: list[tuple[Path, str]] = []
    paths_given = list(paths)
    for path in markdown_files(paths_given):
        try:
            size = path.stat().st_size
            if size > MAX_PAGE_BYTES:
                raise DdzError(f"{path}: {size:,} bytes, more than the {MAX_PAGE_BYTES // 2**20} MiB a page "
                               "may hold")
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise DdzError(f"cannot read {path}: {getattr(e, 'strerror', None) or e}") from None
        found = [b for b in blocks(text, str(path)) if strict or generator_for(b, generators) is not None]
        if not found:
            continue
        new = regenerate(text, generators, str(path), strict)
        stale = new != text
        if stale and not check:
            writes.append((path, new))
        out.append(FileStatus(path, tuple(b.source for b in found), stale))
    named = {Path(p) for p in paths_given if not Path(p).is_dir()}
    # written only once every page has been made: a block that fails leaves every file as it was
    for path, new in writes:
        # in one step: Ctrl-C never leaves half a page. A page found in a directory was no
        # link when it was walked: should one replace it since, the link is replaced, and
        # what it leads to (out of the directory, maybe) is not written
        write_file(path, new, follow_links=path in named)
    return out
