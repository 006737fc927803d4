"""A sheet written out: :func:`render_sheet` (a computed sheet in one language and
format) and :func:`sheet_text` (a spec's sheet in one call).
"""

from __future__ import annotations

from pathlib import Path

from ddzrules.errors import DdzError
from ddzrules.sheets.facts import Sheet, build_sheet
from ddzrules.sheets.html_page import write_html
from ddzrules.sheets.layout import sheet_blocks
from ddzrules.sheets.markdown import write_markdown
from ddzrules.sheets.words import check_lang

FORMATS = ("md", "html")


def render_sheet(sheet: Sheet, lang: str = "en", fmt: str = "md") -> str:
    """Write a computed sheet in ``lang`` (``en``/``zh``) as ``fmt`` (``md``/``html``)."""
    if fmt not in FORMATS:
        raise DdzError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
    blocks = sheet_blocks(sheet, lang)
    return write_markdown(blocks) if fmt == "md" else write_html(blocks, lang)


def sheet_text(spec: str | Path, lang: str = "en", fmt: str = "md", seed: int | None = None) -> str:
    """The sheet of a spec in one call: :func:`build_sheet` then :func:`render_sheet`."""
    check_lang(lang)  # a bad language fails before the (slower) building
    if fmt not in FORMATS:
        raise DdzError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
    return render_sheet(build_sheet(spec, seed), lang, fmt)
