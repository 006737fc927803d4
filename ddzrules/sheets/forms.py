"""A combo's compiled forms in words, in both languages: read off the compiled shapes
(lengths, spans, kickers, constraints), so that a sheet says what the tables do."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ddzrules import cards as C
from ddzrules.rules.shapes import UNBOUNDED, KickerRule, Shape
from ddzrules.sheets.words import text, units
from ddzrules.variant import Variant


def combo_forms(v: Variant, shapes: list[Shape], lang: str) -> str:
    """A combo's compiled alternatives in words: core, kickers, constraints."""
    return text("form.sep", lang).join(_form(v, s, lang) for s in shapes)


def _say(key: str, lang: str, **values: Any) -> str:
    return text(key, lang).format(**values)


def _span(ranks: Sequence[int]) -> str:
    return f"{C.RANKS[ranks[0]]}..{C.RANKS[ranks[-1]]}"


def _form(v: Variant, s: Shape, lang: str) -> str:
    all_ranks = tuple(r for r in range(C.NUM_RANKS) if v.rules.deck[r] >= max(s.unit, 1))
    if s.kind == "group":
        n = (
            f"{s.unit}"
            if s.max_count == s.unit
            else _say("form.count.range", lang, a=s.unit, b=s.max_count)
        )
        one = s.unit == 1 and s.max_count == 1
        core = _say("form.group.one" if one else "form.group", lang, n=n)
        if s.ranks != all_ranks:
            core += _say("form.span", lang, span=_span(s.ranks))
    elif s.kind == "chain":
        n = (
            f"{s.min_len}"
            if s.min_len == s.max_len
            else _say("form.chain.range", lang, a=s.min_len, b=s.max_len)
        )
        core = _say("form.chain", lang, n=n, units=units(s.unit, lang), span=_span(s.ranks))
    else:
        core = _say("form.literal", lang, cards=C.to_string(s.literal))
    plus = text("form.plus", lang)
    out = core + "".join(plus + _kicker(v, k, s, lang) for k in s.kickers)
    cons = _constraints(s, lang)
    if cons:
        out += _say("form.conditions", lang, conditions=text("form.and", lang).join(cons))
    return out


def _kicker(v: Variant, k: KickerRule, s: Shape, lang: str) -> str:
    kind_1, kind_n = units(k.unit, lang, plural=False), units(k.unit, lang)
    out = []
    if k.fixed:
        out.append(_say("kicker.fixed", lang, n=k.fixed, unit=kind_1,
                        units=kind_1 if k.fixed == 1 else kind_n))
    if k.per_n:
        out.append(_say("kicker.per", lang, n=k.per_n, unit=kind_1,
                        units=kind_1 if k.per_n == 1 else kind_n,
                        per=units(s.unit, lang, plural=False)))
    words = text("form.plus", lang).join(out)
    full = tuple(r for r in range(C.NUM_RANKS) if v.rules.deck[r] > 0)
    if k.ranks != full:
        words += _say("kicker.from", lang, span=_span(k.ranks))
    return words


def _constraints(s: Shape, lang: str) -> list[str]:
    out = []
    if s.kickers:
        if s.distinct:
            out.append(text("cond.distinct", lang))
        if s.overlap:
            out.append(text("cond.overlap", lang))
        if s.jokers < UNBOUNDED:
            out.append(_say("cond.jokers.one" if s.jokers == 1 else "cond.jokers", lang, n=s.jokers))
        if s.per_rank < UNBOUNDED:
            out.append(_say("cond.per_rank", lang, n=s.per_rank))
        if s.adjacent < UNBOUNDED:
            out.append(_say("cond.adjacent", lang, n=s.adjacent))
    for what, lo, hi in (
        ("cond.wild", s.wilds_min, s.wilds_max),
        ("cond.natural", s.naturals_min, s.naturals_max),
    ):
        name = text(what, lang)
        if hi == 0:
            out.append(_say("cond.none", lang, what=name))
        elif hi < UNBOUNDED:
            out.append(_say("cond.at_most.one" if hi == 1 else "cond.at_most", lang, n=hi, what=name))
        if lo > 0:
            out.append(_say("cond.at_least.one" if lo == 1 else "cond.at_least", lang, n=lo, what=name))
    return out
