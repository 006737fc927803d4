"""The document model of a rule sheet, which both writers read: inline text is a tuple of
(style, text) runs, style "" (plain), "code" or "b"; blocks are headings, paragraphs,
bullet lists and tables. One model, two writers (:mod:`ddzrules.sheets.markdown`,
:mod:`ddzrules.sheets.html_page`), so the two formats can never say different things.
Also here: the cleaning of text that any page needs (control characters, whitespace).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

Inline = tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Heading:
    level: int
    text: Inline


@dataclass(frozen=True)
class Para:
    text: Inline


@dataclass(frozen=True)
class Bullets:
    items: tuple[Inline, ...]


@dataclass(frozen=True)
class Table:
    head: tuple[Inline, ...] | None  # None: a two-column key/value table without a header
    rows: tuple[tuple[Inline, ...], ...]


Block = Heading | Para | Bullets | Table


def plain(text: str) -> Inline:
    """Plain text as inline runs (none for an empty text)."""
    return (("", text),) if text else ()


def code(text: str) -> Inline:
    """Text as one code run."""
    return (("code", text),)


_WS = re.compile(r"\s+")
#: characters no page can hold — C0 and C1 controls and DEL, but tab, newline and
#: carriage return (an XML parser refuses the page at the first of them)
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def printable(text: str) -> str:
    """A text with each control character (:data:`_CONTROL`) as U+FFFD, in either format."""
    return _CONTROL.sub("\ufffd", text)


def clean(text: str) -> str:
    """A text on one line: whitespace runs (newlines too) as one space, controls as U+FFFD."""
    return printable(_WS.sub(" ", text))


def merged(runs: Inline) -> Inline:
    """Adjacent runs of one style as one run (a code span filled from several values is
    one span)."""
    out: list[tuple[str, str]] = []
    for style, text in runs:
        if out and out[-1][0] == style:
            out[-1] = (style, out[-1][1] + text)
        elif text:
            out.append((style, text))
    return tuple(out)
