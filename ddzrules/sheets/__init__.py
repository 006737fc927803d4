"""Rule sheets: the rules of any spec, written from the spec alone (``ddzrules sheet``).

A hand-written rule sheet drifts from its spec the day someone edits a pattern or
a plugin parameter. A sheet generated from the resolved spec, the compiled tables
and the runtime cannot: every figure, every example and every rule sentence below
is computed —

* the title, region, source and parent from the resolved spec (and the ``extends:``
  lines of its files);
* the combos' forms, chain limits and examples from the compiled shapes and the
  move universe (the smallest and the largest play of each combo are real plays,
  found by the compiler; combos that need wild cards are found by the wildcard walk);
* the comparisons from :meth:`Move.beats <ddzrules.rules.moves.Move.beats>`;
* the landlord protocol, declarations, multipliers and settlement from what each
  activated plugin says of itself (``ddzrules_describe``), built from the
  parameters it was actually given;
* the worked scoring example from one seeded game of the bundled bots.

Building (:func:`build_sheet`) does the computing once; rendering
(:func:`render_sheet`) writes it in English or Chinese, as Markdown or as one
self-contained HTML page, byte for byte the same for the same spec.

The bundled rule sheets in ``docs/rules/`` carry the English Markdown sheet of
their spec between the markers :data:`BEGIN` and :data:`END`; :func:`update_docs`
rewrites those blocks (``ddzrules sheet --update-docs docs/rules``), and the test
suite fails when one differs from what its spec generates.

The package, by job (``from ddzrules.sheets import X`` gives every public name):

* :mod:`~ddzrules.sheets.words`: the fixed texts in both languages, read from the
  catalogue ``words.json``, the one place where they are written;
* :mod:`~ddzrules.sheets.facts`: the data of a sheet and :func:`build_sheet`;
* :mod:`~ddzrules.sheets.document`: the document model (headings, paragraphs, lists, tables);
* :mod:`~ddzrules.sheets.layout`: a sheet laid out as that model in one language;
* :mod:`~ddzrules.sheets.markdown` and :mod:`~ddzrules.sheets.html_page`: the two writers,
  the Markdown one with its escaping of the spec's own texts;
* :mod:`~ddzrules.sheets.render`: :func:`render_sheet` and :func:`sheet_text`;
* :mod:`~ddzrules.sheets.docs_sync`: the generated blocks of ``docs/rules`` and
  :func:`update_docs`.
"""

from __future__ import annotations

from typing import Any

from ddzrules.errors import DdzError as DdzError
from ddzrules.sheets.docs_sync import (
    BEGIN,
    END,
    DocStatus,
    GeneratedBlock,
    generated_blocks,
    regenerate,
    update_docs,
)
from ddzrules.sheets.document import Block, Bullets, Heading, Inline, Para, Table, code, plain
from ddzrules.sheets.facts import (
    EXAMPLE_BOT,
    EXAMPLE_SEEDS,
    ChainLimits,
    ComboEntry,
    Comparison,
    EventEntry,
    Example,
    ParamEntry,
    PluginEntry,
    Sheet,
    Turn,
    WildInfo,
    WorkedExample,
    build_sheet,
)
from ddzrules.sheets.markdown import md_code, md_text
from ddzrules.sheets.render import FORMATS, render_sheet, sheet_text
from ddzrules.sheets.words import LANGS, load_words

__all__ = [
    "BEGIN",
    "END",
    "EXAMPLE_BOT",
    "EXAMPLE_SEEDS",
    "FORMATS",
    "LANGS",
    "TEXTS",
    "Block",
    "Bullets",
    "ChainLimits",
    "ComboEntry",
    "Comparison",
    "DocStatus",
    "EventEntry",
    "Example",
    "GeneratedBlock",
    "Heading",
    "Inline",
    "Para",
    "ParamEntry",
    "PluginEntry",
    "Sheet",
    "Table",
    "Turn",
    "WildInfo",
    "WorkedExample",
    "build_sheet",
    "code",
    "generated_blocks",
    "md_code",
    "md_text",
    "plain",
    "regenerate",
    "render_sheet",
    "sheet_text",
    "update_docs",
]

def __getattr__(name: str) -> Any:
    """``TEXTS``: every fixed text, key -> (English, Chinese), read from the catalogue on
    first use (:func:`ddzrules.sheets.words.load_words`), not when the package is imported."""
    if name == "TEXTS":
        return load_words().texts
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
