"""The words of the rule sheets: every fixed text of a sheet, in English and Chinese side
by side, read from the catalogue ``words.json`` beside this module (package data), the one
place where they are written.

The catalogue has these sections, each entry ``{"en": ..., "zh": ...}`` unless said:

* ``texts``: the sentences, labels and headings of a sheet, by key. Markup: `code` and
  **bold**; ``{name}`` placeholders are filled with values that are never read as markup
  (:meth:`ddzrules.sheets.layout.Writer.t`);
* ``units`` and ``unit``: the plural and the singular name of a chain's unit, by its size
  (``"1"`` … ``"4"``; a larger unit is written with ``texts`` ``units.other``);
* ``actions``: a decision before the first play in words, by its kind (``{v}``: its value);
* ``event_names_zh``: a multiplier event's Chinese name (a plain string; the English sheet
  shows the event's own name);
* ``redeal_reasons_zh``: a redeal reason, as the runtime writes it, in Chinese (a plain string).

:func:`load_words` reads the file once per process; a file that is not that shape is a
:class:`~ddzrules.errors.DdzError` saying which entry is wrong.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from ddzrules.errors import DdzError

#: the languages of a sheet; a text's pair of words is in this order
LANGS = ("en", "zh")
WORDS_FILE = "words.json"
_WHERE = f"ddzrules/sheets/{WORDS_FILE}"


@dataclass(frozen=True)
class Words:
    """The catalogue as read: each pair of words is (English, Chinese)."""

    texts: dict[str, tuple[str, str]]
    units: dict[int, tuple[str, str]]  # a chain's unit by its size, plural
    unit: dict[int, tuple[str, str]]  # ... singular
    actions: dict[str, tuple[str, str]]
    event_names_zh: dict[str, str]
    redeal_reasons_zh: dict[str, str]


def check_lang(lang: str) -> None:
    """A :class:`~ddzrules.errors.DdzError` unless ``lang`` is one of :data:`LANGS`."""
    if lang not in LANGS:
        raise DdzError(f"unknown language {lang!r}; choose one of {', '.join(LANGS)}")


@cache
def load_words() -> Words:
    """The catalogue, read and checked on the first call and kept for the process."""
    try:
        text = resources.files("ddzrules.sheets").joinpath(WORDS_FILE).read_text(encoding="utf-8")
        data = json.loads(text)  # the package's own file, not input: the plain reader
    except (OSError, ValueError) as e:  # ValueError: not JSON, or not UTF-8
        raise DdzError(f"{_WHERE}: cannot read the words of the rule sheets: {e}") from None
    if not isinstance(data, dict):
        raise DdzError(f"{_WHERE}: not a JSON object of sections")
    return Words(
        texts=_pairs(data, "texts"),
        units=_by_size(data, "units"),
        unit=_by_size(data, "unit"),
        actions=_pairs(data, "actions"),
        event_names_zh=_strings(data, "event_names_zh"),
        redeal_reasons_zh=_strings(data, "redeal_reasons_zh"),
    )


def text(key: str, lang: str) -> str:
    """The ``texts`` template ``key`` in ``lang``, its markup and placeholders as written."""
    return load_words().texts[key][LANGS.index(lang)]


def units(unit: int, lang: str, plural: bool = True) -> str:
    """The name of a chain's unit of ``unit`` cards: "pairs" / "对子" (``plural=False``:
    "pair")."""
    words = load_words()
    table = words.units if plural else words.unit
    if unit in table:
        return table[unit][LANGS.index(lang)]
    return text("units.other", lang).format(n=unit)


def _section(data: dict[str, Any], name: str) -> dict[str, Any]:
    section = data.get(name)
    if not isinstance(section, dict):
        raise DdzError(f"{_WHERE}: the section {name!r} is missing or not an object")
    return section


def _pair(entry: Any, where: str) -> tuple[str, str]:
    if not isinstance(entry, dict) or not all(isinstance(entry.get(lang), str) for lang in LANGS):
        raise DdzError(f"{_WHERE}: {where} is not an object of an \"en\" and a \"zh\" string")
    en, zh = (entry[lang] for lang in LANGS)
    return en, zh


def _pairs(data: dict[str, Any], name: str) -> dict[str, tuple[str, str]]:
    return {key: _pair(entry, f"{name}.{key}") for key, entry in _section(data, name).items()}


def _by_size(data: dict[str, Any], name: str) -> dict[int, tuple[str, str]]:
    out = {}
    for key, pair in _pairs(data, name).items():
        if not key.isdigit():
            raise DdzError(f"{_WHERE}: {name}.{key}: a unit's size is a number of cards")
        out[int(key)] = pair
    return out


def _strings(data: dict[str, Any], name: str) -> dict[str, str]:
    section = _section(data, name)
    for key, value in section.items():
        if not isinstance(value, str):
            raise DdzError(f"{_WHERE}: {name}.{key} is not a string")
    return dict(section)
