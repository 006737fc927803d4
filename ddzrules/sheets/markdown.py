r"""The Markdown writer of the document model, and its escaping of untrusted text.

Every text of the document model reaches the page through one of the escapers below,
chosen by the context it lands in (prose, a code span, a table cell, the start of a
block), whichever field of the spec or fixed sentence it came from. The Markdown is
read by two renderers — Python-Markdown with the site's extensions (mkdocs.yml) and
GitHub's — so each escape is one that both read the same way: a backslash where both
honour it, a character reference where one of them does not (Python-Markdown keeps
the backslash of ``\<``, ``\~`` and ``\?``), so that no spec text can open raw HTML,
a link, a code span, emphasis, an attribute list (``{: onclick=...}``), a table cell
or a block.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ddzrules.sheets.document import Block, Bullets, Heading, Inline, Para, clean, merged

#: prose: metacharacters both renderers unescape after a backslash, and the others as
#: character references (``&`` among them, so a spec's own ``&lt;`` stays text) — one
#: pass of str.translate, linear in the text
_MD_PROSE = str.maketrans(
    {c: "\\" + c for c in "\\`*_[]{}#|"} | {"<": "&lt;", ">": "&gt;", "&": "&amp;", "~": "&#126;"}
)
#: then the ``://`` and ``www.`` from which GitHub makes a link of a bare URL, so that a
#: URL is shown as text, as in the HTML sheet (the pass above leaves ``:``, ``/``, ``.``
#: and ``w`` as they are)
_MD_AUTOLINK = re.compile(r":(?=//)|(?<=[wW]{3})\.")
#: what would open a block at the start of a line: an ordered list item (``1.``, ``1)``),
#: a bullet (``-``, ``+``), a setext underline (``=``), an admonition (``!!!``) or a
#: details block (``???``); ``*``, ``#``, ``>`` and the backtick are escaped everywhere
_MD_NUMBERED = re.compile(r"(\d+)([.)])")
_MD_LINE_START = {"-": "\\-", "+": "\\+", "=": "\\=", "!": "\\!", "?": "&#63;"}
_BACKTICKS = re.compile(r"`+")


def md_text(text: str) -> str:
    """Prose: ``text`` as Markdown that renders as exactly that text (whitespace collapsed),
    in a paragraph, a heading or a table cell — no raw HTML, link, emphasis, code span,
    attribute list or cell break can come out of it."""
    return _MD_AUTOLINK.sub(
        lambda m: "&#58;" if m.group() == ":" else "\\.", clean(text).translate(_MD_PROSE)
    )


def _md_span(text: str) -> str:
    r"""One code span of ``text`` (no newline): the fence one backtick longer than the
    longest run inside, so none closes it; padded with a space where the text starts or
    ends with a backtick or a space (CommonMark takes one space off each side of a span,
    Python-Markdown every space) or ends with a backslash (Python-Markdown's table rows
    read ``\```` as an escaped backtick)."""
    if not text.strip(" "):
        return text
    longest = max((len(run) for run in _BACKTICKS.findall(text)), default=0)
    fence = "`" * (longest + 1)
    pad = longest > 0 or text[0] in " `" or text[-1] in " `\\"
    return f"{fence} {text} {fence}" if pad else f"{fence}{text}{fence}"


def md_code(text: str, in_table: bool = False) -> str:
    r"""``text`` as code. In a table cell a ``|`` cannot stay inside a code span — GitHub
    splits the cell there unless it is ``\|``, which Python-Markdown then shows with its
    backslash — so the text is cut at each ``|``: the pieces are code spans, the bars
    escaped prose between them (``3 + 1 | 3 + 2`` as `` `3 + 1` \| `3 + 2` ``)."""
    text = clean(text)
    if not in_table or "|" not in text:
        return _md_span(text)
    out = []
    for i, piece in enumerate(text.split("|")):
        core = piece.strip(" ")
        lead = " " if piece.startswith(" ") else ""
        trail = " " if piece.endswith(" ") and core else ""
        out.append(("\\|" if i else "") + lead + (_md_span(core) if core else "") + trail)
    return "".join(out)


def md_inline(runs: Inline, in_table: bool = False) -> str:
    out = []
    for style, text in merged(runs):
        if style == "code":
            out.append(md_code(text, in_table))
        elif style == "b":
            out.append(f"**{md_text(text)}**")
        else:
            out.append(md_text(text))
    return "".join(out)


def md_line(runs: Inline) -> str:
    """A paragraph or list item: it must not start like a block (a list item, a setext
    underline, an admonition …); a leading space, which renderers drop, is dropped here
    so that it cannot hide such a start."""
    line = md_inline(runs).lstrip(" ")
    m = _MD_NUMBERED.match(line)
    if m:
        return m.group(1) + "\\" + m.group(2) + line[m.end() :]
    first = _MD_LINE_START.get(line[:1])
    return first + line[1:] if first is not None else line


def write_markdown(blocks: Iterable[Block]) -> str:
    parts = []
    for b in blocks:
        if isinstance(b, Heading):
            parts.append("#" * b.level + " " + md_inline(b.text))
        elif isinstance(b, Para):
            parts.append(md_line(b.text))
        elif isinstance(b, Bullets):
            parts.append("\n".join("- " + md_line(item) for item in b.items))
        else:
            width = len(b.head) if b.head is not None else 2
            lines = [
                "| " * width + "|"
                if b.head is None
                else "| " + " | ".join(md_inline(h, True) for h in b.head) + " |",
                "|" + " --- |" * width,
            ]
            for row in b.rows:
                lines.append("| " + " | ".join(md_inline(c, True) for c in row) + " |")
            parts.append("\n".join(lines))
    return "\n\n".join(parts) + "\n"
