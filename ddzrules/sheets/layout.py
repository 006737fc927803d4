"""A computed sheet laid out in one language: the blocks of the document model
(:mod:`ddzrules.sheets.document`), in the order the page shows them — the spec, deck and
deal, combos, comparisons and bombs, wildcards, game rules, the worked example and the
readings — each sentence taken from the words (:mod:`ddzrules.sheets.words`) and filled
with the sheet's values. Neither format is written here.
"""

from __future__ import annotations

import re
import string
from collections.abc import Sequence
from typing import Any

from ddzrules import cards as C
from ddzrules.sheets.document import Block, Bullets, Heading, Inline, Para, Table, code, plain
from ddzrules.sheets.facts import Example, Sheet, Turn, WorkedExample
from ddzrules.sheets.words import LANGS, check_lang, load_words, units

_MARKUP = re.compile(r"(`[^`]*`|\*\*[^*]*\*\*)")
_FORMATTER = string.Formatter()


class Writer:
    """The fixed texts of one language (:mod:`ddzrules.sheets.words`), as inline runs."""

    def __init__(self, lang: str) -> None:
        check_lang(lang)
        self.lang = lang
        self.i = LANGS.index(lang)
        self.words = load_words()

    def s(self, key: str, **kw: Any) -> str:
        """A fixed text as plain words (its markup dropped)."""
        return "".join(t for _, t in self.t(key, **kw))

    def t(self, key: str, **kw: Any) -> Inline:
        """A fixed text with its markup: the template is split first and each piece filled
        after, so that a value (a reading, a pattern) is never read as markup. A value
        given as inline runs (``code(...)``) is spliced in with its own styles."""
        out: list[tuple[str, str]] = []
        for piece in _MARKUP.split(self.words.texts[key][self.i]):
            if not piece:
                continue
            style = ""
            if piece.startswith("`") and piece.endswith("`") and len(piece) >= 2:
                style, piece = "code", piece[1:-1]
            elif piece.startswith("**") and piece.endswith("**") and len(piece) >= 4:
                style, piece = "b", piece[2:-2]
            for literal, field, spec, conv in _FORMATTER.parse(piece):
                if literal:
                    out.append((style, literal))
                if field is None:
                    continue
                value = kw[field]
                if isinstance(value, tuple):  # inline runs
                    out.extend(value)
                else:
                    out.append(
                        (
                            style,
                            _FORMATTER.format_field(
                                _FORMATTER.convert_field(value, conv), spec or ""
                            ),
                        )
                    )
        return tuple(out)


def _num(n: float) -> str:
    return f"{n:,}" if isinstance(n, int) else f"{n:,g}"


def _shown(ex: Example | None, w: Writer) -> Inline:
    if ex is None:
        return plain("—")
    out = code(ex.cards)
    if ex.wild is not None:
        subst = " ".join(f"{a}→{b}" for a, b in ex.stands_for)
        note = w.s("shown.wild.subst", wild=ex.wild, subst=subst) if subst else w.s(
            "shown.wild", wild=ex.wild
        )
        out += plain(note)
    return out


def _source_text(source: dict[str, str]) -> Inline:
    src: Inline = code(source["document"]) if "document" in source else ()
    for key in ("section", "url"):
        if key in source:
            src += plain((" — " if src else "") + source[key])
    return src


def sheet_blocks(sheet: Sheet, lang: str) -> list[Block]:
    w = Writer(lang)
    out: list[Block] = []
    title = sheet.title.get(lang) or sheet.title.get("en") or sheet.title.get("zh") or ""
    heading = w.s("title.line", name=sheet.name, title=title) if title else sheet.name
    out.append(Heading(1, plain(heading)))
    command = f"ddzrules sheet {sheet.arg}" + ("" if lang == "en" else f" --lang {lang}")
    if sheet.seed is not None:
        command += f" --seed {sheet.seed}"
    out.append(Para(w.t("generated", command=command)))
    rows: list[tuple[Inline, ...]] = [(plain(w.s("spec")), code(sheet.name))]
    titles = [sheet.title[k] for k in ("zh", "en") if sheet.title.get(k)]
    if titles:
        rows.append((plain(w.s("title")), plain(" · ".join(titles))))
    rows.append((plain(w.s("region")), plain(sheet.region or "—")))
    if sheet.source:
        rows.append((plain(w.s("source")), _source_text(sheet.source)))
    if sheet.parents:
        chain: Inline = ()
        for i, p in enumerate(sheet.parents):
            chain += (plain(" ← ") if i else ()) + code(p)
            prov = sheet.parent_provenance[i] if i < len(sheet.parent_provenance) else None
            if prov is not None:  # the parent's provenance, said as the parent's
                region, source = prov
                chain += plain(" (")
                if region:
                    chain += plain(region + (w.s("list.sep") if source else ""))
                if source:
                    chain += plain(w.s("source") + " ") + _source_text(source)
                chain += plain(")")
        rows.append((plain(w.s("extends")), chain))
    else:
        rows.append((plain(w.s("extends")), plain(w.s("standalone"))))
    rows.append((plain(w.s("hash")), code(sheet.content_hash[:16])))
    if sheet.notes:
        rows.append((plain(w.s("notes")), plain(sheet.notes)))
    out.append(Table(None, tuple(rows)))
    out += _deck_blocks(sheet, w)
    out += _combo_blocks(sheet, w)
    out += _compare_blocks(sheet, w)
    if sheet.wild is not None:
        out += _wild_blocks(sheet, w)
    out += _game_blocks(sheet, w)
    if sheet.example is not None:
        out += _example_blocks(sheet, sheet.example, w)
    out.append(Heading(2, plain(w.s("h.readings"))))
    if sheet.readings:
        out.append(Para(w.t("readings.intro")))
        out.append(
            Table(
                (plain(w.s("col.id")), plain(w.s("col.reading"))),
                tuple((code(k), plain(t)) for k, t in sheet.readings),
            )
        )
    else:
        out.append(Para(w.t("readings.none")))
    return out


def _rank_counts(deck: Sequence[int], w: Writer) -> str:
    """The cards of each rank 3..2, a run of consecutive ranks with one count at a time:
    "4 of each rank 3 to K, 3 of rank A, 1 of rank 2" (a rank the deck lacks ends a run)."""
    runs: list[tuple[int, int, int]] = []  # (count, first rank, last rank)
    for r in range(C.SMALL_JOKER):
        n = deck[r]
        if n and runs and runs[-1][0] == n and runs[-1][2] == r - 1:
            runs[-1] = (n, runs[-1][1], r)
        elif n:
            runs.append((n, r, r))
    parts = [
        w.s("deck.run" if a != b else "deck.one", n=n, a=C.RANKS[a], b=C.RANKS[b]) for n, a, b in runs
    ]
    return w.s("list.sep").join(parts)


def _removed(sheet: Sheet, w: Writer) -> str:
    """What ``deck.remove`` takes out: every card of some ranks, some single cards."""
    ranks = w.s("deck.and").join(dict.fromkeys(sheet.removed_ranks))
    if ranks and sheet.removed_cards:
        return w.s("deck.less.both", ranks=ranks, cards=sheet.removed_cards, n=len(sheet.removed_cards))
    if ranks:
        return w.s("deck.less.ranks", ranks=ranks)
    if sheet.removed_cards:
        return w.s("deck.less.cards", cards=sheet.removed_cards, n=len(sheet.removed_cards))
    return ""


def _jokers(n: int, w: Writer) -> str:
    return w.s("word.joker" if n == 1 else "word.jokers")


def _team_text(seats: Sequence[int], w: Writer) -> str:
    return w.s("team", seats="+".join(map(str, seats)))


def _table_text(sheet: Sheet, w: Writer) -> str:
    if sheet.table_kind == "partnerships":
        teams = w.s("table.teams.sep").join(_team_text(t, w) for t in sheet.teams)
        return w.s("table.partnerships", teams=teams)
    if sheet.table_kind == "free-for-all":
        return w.s("table.free-for-all")
    if sheet.players == 2:
        return w.s("table.landlord.one")
    return w.s("table.landlord", n=sheet.players - 1)


def _deck_blocks(sheet: Sheet, w: Writer) -> list[Block]:
    total = sum(sheet.deck)
    x, d = sheet.deck[C.SMALL_JOKER], sheet.deck[C.BIG_JOKER]
    deck = w.s(
        "deck.v",
        decks=sheet.decks,
        deck_word=w.s("word.deck" if sheet.decks == 1 else "word.decks"),
        less=_removed(sheet, w),
        total=total,
        counts=_rank_counts(sheet.deck, w),
    )
    deck += (
        w.s("deck.jokers", x=x, d=d, xj=_jokers(x, w), dj=_jokers(d, w))
        if x or d
        else w.s("deck.nojokers")
    )
    if sheet.kitty == 0:
        kitty = w.s("kitty.none")
    else:
        kitty = w.s("kitty.shown" if sheet.kitty_shown else "kitty.hidden", n=sheet.kitty)
    ranks = [C.RANKS[r] for r in range(C.NUM_RANKS) if sheet.deck[r]]
    rows: list[tuple[Inline, ...]] = [
        (
            plain(w.s("players")),
            plain(w.s("players.v", n=sheet.players, direction=w.s(sheet.direction))),
        ),
        (plain(w.s("deck")), plain(deck)),
        (plain(w.s("hand")), plain(w.s("hand.v", n=sheet.hand))),
        (plain(w.s("kitty")), plain(kitty)),
    ]
    if sheet.undealt:
        rows.append((plain(w.s("undealt")), plain(w.s("undealt.v", n=sheet.undealt))))
    if sheet.density is not None:  # measured (sheets.density), for these very rules
        own, shuffled = sheet.density
        rows.append((plain(w.s("density")), plain(w.s(
            "density.v", bombs=f"{own.bombs:.2f}", share=f"{own.share:.0%}", base=f"{shuffled.bombs:.2f}",
            base_share=f"{shuffled.share:.0%}", deals=f"{own.deals:,}", seed=own.seed,
            after=w.s("density.after", bots=own.bots) if sheet.carries_cards else "")) + code(
            "benchmarks/bench_buxipai.py") + plain(w.s("density.end"))))
    rows += [
        (plain(w.s("table")), plain(_table_text(sheet, w))),
        (plain(w.s("must_beat")), plain(w.s("must_beat.yes" if sheet.must_beat else "must_beat.no"))),
        (plain(w.s("max_hand")), plain(w.s("max_hand.v", n=sheet.max_hand))),
        (plain(w.s("chain_ranks")), code(sheet.chain_ranks)),
        (plain(w.s("order")), code(" < ".join(ranks)) + plain(w.s("order.ten"))),
    ]
    if sheet.wild is not None:
        many = sheet.wild.count > 1
        rows.append((plain(w.s("wildcards.row")),
                     plain(w.s("wildcards.row.many", n=sheet.wild.count) if many else w.s("wildcards.row.v"))))
    return [Heading(2, plain(w.s("h.deck"))), Table(None, tuple(rows))]


def _combo_blocks(sheet: Sheet, w: Writer) -> list[Block]:
    intro = w.t("combos.intro")
    rows = []
    for c in sheet.combos:
        what = c.forms[w.lang]
        if c.description:
            what = w.s("combo.described", description=c.description, forms=what)
        rows.append((code(c.name), plain(c.zh or "—"), code(c.pattern), plain(what)))
    head = tuple(plain(w.s(k)) for k in ("col.combo", "col.zh", "col.pattern", "col.forms"))
    ex_rows = []
    for c in sheet.combos:
        chain = plain("—")
        if c.chain is not None:
            ch = c.chain
            chain = plain(
                w.s(
                    "chain.v" if ch.shortest != ch.longest else "chain.one",
                    a=ch.shortest,
                    b=ch.longest,
                    units=units(ch.unit, w.lang),
                    lo=ch.lowest,
                    hi=ch.highest,
                )
            )
        plays = plain(_num(c.plays))
        if c.wild_only:
            plays = plain(w.s("plays.wild", n=_num(c.plays), needs=w.s("wild.needs")))
        ex_rows.append((code(c.name), _shown(c.smallest, w), _shown(c.largest, w), chain, plays))
    ex_head = tuple(
        plain(w.s(k))
        for k in ("col.combo", "col.smallest", "col.largest", "col.chain", "col.plays")
    )
    out: list[Block] = [
        Heading(2, plain(w.s("h.combos"))),
        Para(intro),
        Table(head, tuple(rows)),
        Para(w.t("examples.intro", max_hand=sheet.max_hand)),
        Table(ex_head, tuple(ex_rows)),
        Para(
            w.t(
                "census.total", total=_num(sheet.census_total), readings=_num(sheet.census_readings)
            )
        ),
    ]
    if sheet.wild is not None:
        out.append(Para(w.t("census.wild", name=sheet.arg)))
    return out


def _code_list(names: Sequence[str], w: Writer) -> Inline:
    """Names in code, joined as the language joins a list."""
    out: Inline = ()
    for i, name in enumerate(names):
        out += (plain(w.s("list.names")) if i else ()) + code(name)
    return out


def _compare_key(keys: Sequence[str], w: Writer) -> str:
    return w.s("key.then").join(w.s(f"key.{k}") for k in keys)


def _compare_blocks(sheet: Sheet, w: Writer) -> list[Block]:
    out: list[Block] = [Heading(2, plain(w.s("h.compare"))), Para(w.t("compare.plain"))]
    bombs = sorted((c for c in sheet.combos if c.bomb_class >= 0), key=lambda c: c.bomb_class)
    out.append(Para(w.t("compare.bombs" if bombs else "compare.nobombs")))
    if sheet.comparisons:
        items = []
        for cmp in sheet.comparisons:
            a, b = cmp.a, cmp.b
            if cmp.a_beats_b:
                items.append(
                    w.t("compare.beats", a=a.cards, ca=code(a.combo), b=b.cards, cb=code(b.combo))
                )
            elif cmp.b_beats_a:
                items.append(
                    w.t("compare.beats", a=b.cards, ca=code(b.combo), b=a.cards, cb=code(a.combo))
                )
            else:
                items.append(w.t("compare.none", a=a.cards, b=b.cards, la=a.length, lb=b.length))
        out += [Para(w.t("compare.intro")), Bullets(tuple(items))]
    if bombs:
        out.append(Heading(2, plain(w.s("h.bombs"))))
        out.append(Para(w.t("bombs.intro")))
        head = tuple(
            plain(w.s(k))
            for k in ("col.class", "col.combo", "col.zh", "col.key", "col.smallest", "col.largest")
        )
        rows = tuple(
            (
                plain(str(c.bomb_class + 1)),
                code(c.name),
                plain(c.zh or "—"),
                plain(_compare_key(c.compare, w)),
                _shown(c.smallest, w),
                _shown(c.largest, w),
            )
            for c in bombs
        )
        out.append(Table(head, rows))
    return out


def _wild_blocks(sheet: Sheet, w: Writer) -> list[Block]:
    info = sheet.wild
    assert info is not None
    drawn = w.t("wild.drawn", plugin=info.plugin) if info.plugin else ()
    out: list[Block] = [
        Heading(2, plain(w.s("h.wild"))),
        Para(w.t("wild.what", drawn=drawn, lo=info.lowest, hi=info.highest) if info.count == 1 else
             w.t("wild.what.many", n=info.count, drawn=drawn, lo=info.lowest, hi=info.highest)),
    ]
    ex = info.substitution
    if ex is not None:
        combo = next(c for c in sheet.combos if c.name == ex.combo)
        subst = " ".join(f"{a}→{b}" for a, b in ex.stands_for)
        out.append(
            Para(
                w.t(
                    "wild.example",
                    w=ex.wild,
                    cards=ex.cards,
                    combo=code(ex.combo),
                    zh=combo.zh or ex.combo,
                    rank=ex.rank,
                    subst=subst,
                )
            )
        )
    items = []
    if info.wild_only:
        items.append(w.t("wild.only", names=_code_list(info.wild_only, w)))
    if info.natural_only:
        items.append(w.t("wild.natural", names=_code_list(info.natural_only, w)))
    if items:
        out.append(Bullets(tuple(items)))
    return out


def _game_blocks(sheet: Sheet, w: Writer) -> list[Block]:
    out: list[Block] = [Heading(2, plain(w.s("h.game")))]
    if not sheet.has_game:
        out.append(Para(w.t("game.none")))
        return out
    out.append(Para(w.t("game.intro")))
    for role in ("wildcards", "landlord", "declarations", "leader", "rules", "multipliers", "settlement"):
        entries = [p for p in sheet.plugins if p.role == role]
        if not entries:
            continue
        out.append(Heading(3, plain(w.s(f"role.{role}"))))
        for p in entries:
            out.append(Para(code(p.name) + plain(" — " + p.summary[w.lang])))
            if p.rules[w.lang]:
                out.append(Bullets(tuple(plain(r) for r in p.rules[w.lang])))
            if p.params:
                head = tuple(plain(w.s(k)) for k in ("col.param", "col.value", "col.meaning"))
                rows = tuple(
                    (
                        code(q.name),
                        (plain(q.value) if q.value == "—" else code(q.value))
                        + (plain(w.s("default")) if q.default else ()),
                        plain(q.meaning[w.lang] or "—"),
                    )
                    for q in p.params
                )
                out.append(Table(head, rows))
    out.append(Heading(3, plain(w.s("h.play"))))
    leader = next((p for p in sheet.plugins if p.role == "leader"), None)
    if sheet.table_kind != "landlord":
        text = leader.summary[w.lang] if leader else w.s("play.1.seat0")
        first = w.t("play.1.free", leader=text[:1].lower() + text[1:])
    else:
        shown = w.s("play.shown" if sheet.kitty_shown else "play.hidden")
        nokitty = ".nokitty" if sheet.kitty == 0 else ""  # no kitty: no sentence about taking it
        first = w.t(("play.1.leader" if leader else "play.1") + nokitty, shown=shown)
    items = [first, w.t("play.2", direction=w.s(sheet.direction))]
    if sheet.must_beat:
        items.append(w.t("play.must"))
    items.append(w.t("play.3", n=sheet.players - 1))
    if sheet.table_kind == "partnerships":
        teams = w.s("table.teams.sep").join(_team_text(t, w) for t in sheet.teams)
        items.append(w.t("play.4.partnerships", teams=teams))
    else:
        items.append(w.t("play.4" if sheet.table_kind == "landlord" else "play.4.free-for-all"))
    out.append(Bullets(tuple(items)))
    return out


def _action(turn: Turn, w: Writer) -> str:
    """A decision in words: "seat 1 bid 2", "seat 0 no rob" / "1号位叫2分", "0号位不抢地主"."""
    kind = turn.declined if turn.kind == "decline" and turn.declined is not None else turn.kind
    if kind == "show" and turn.phase == "declare":  # the landlord's 亮牌, not a 明牌 before calling
        kind = "show_hand"
    if turn.kind == "decline" and turn.declined is not None:
        en, zh = w.words.actions.get(kind, (kind, kind))
        declined = (en if w.lang == "en" else zh).format(v="")
        what = w.s("action.declined", what=declined.strip() if w.lang == "en" else declined)
    else:
        en, zh = w.words.actions.get(kind, (kind + (" {v}" if turn.value else ""),) * 2)
        what = (en if w.lang == "en" else zh).format(v=turn.value or "")
    return w.s("action.line", seat=w.s("ex.seat", seat=turn.seat), what=what)


def _event_name(name: str, sheet: Sheet, w: Writer) -> Inline:
    if w.lang == "zh":
        combo = next((c for c in sheet.combos if c.name == name), None)
        if combo is not None and combo.zh:
            return plain(combo.zh)
        if name in w.words.event_names_zh:
            return plain(w.words.event_names_zh[name])
    return code(name)


def _example_blocks(sheet: Sheet, ex: WorkedExample, w: Writer) -> list[Block]:
    out: list[Block] = [
        Heading(2, plain(w.s("h.example"))),
        Para(w.t("example.intro", bot=ex.bot, seed=ex.seed, name=sheet.arg)),
    ]

    def seat(s: int) -> str:
        return w.s("ex.seat", seat=s)

    rows: list[tuple[Inline, ...]] = []
    if ex.wild is not None:
        rows.append((plain(w.s("ex.wild")), code(ex.wild)))
    if ex.face_up is not None:
        rows.append(
            (
                plain(w.s("ex.face_up")),
                plain(w.s("ex.face_up.v", card=ex.face_up[1], seat=ex.face_up[0])),
            )
        )
    lordless = ex.landlord is None
    if lordless:
        rows.append((plain(w.s("ex.leader")), plain(seat(ex.first_leader or 0))))
    else:
        rows.append((plain(w.s("ex.first")), plain(seat(ex.first_bidder))))
    if ex.redeals:
        reasons = [r if w.lang == "en" else w.words.redeal_reasons_zh.get(r, r) for r in ex.redeals]
        rows.append((plain(w.s("ex.redeals")), plain(f"{len(ex.redeals)}: " + "; ".join(reasons))))
    if not lordless:
        if sheet.kitty:  # no kitty: no kitty row
            rows.append((plain(w.s("ex.kitty")), code(ex.kitty or "—")))
        stake = f"{ex.stake:g}"
        rows.append(
            (plain(w.s("ex.landlord")), plain(w.s("ex.landlord.v", seat=ex.landlord, stake=stake)))
        )
    if ex.undealt:
        rows.append((plain(w.s("ex.undealt")), code(ex.undealt)))
    rows.append((plain(w.s("ex.multiple")), plain(f"×{ex.multiple:g}")))
    if ex.pair_factors:
        rows.append(
            (
                plain(w.s("ex.pairs")),
                plain(", ".join(w.s("ex.pairs.v", seat=s, f=f"{f:g}") for s, f in ex.pair_factors)),
            )
        )
    bombs = ", ".join(ex.bombs) if ex.bombs else w.s("ex.none")
    rows.append((plain(w.s("ex.plays")), plain(w.s("ex.plays.v", n=ex.plays, bombs=bombs))))
    if not lordless:
        end = w.s("ex.winner.lord" if ex.landlord_won else "ex.winner.farmers", seat=ex.winner)
    elif sheet.table_kind == "partnerships":
        end = w.s("ex.winner.team", seat=ex.winner, team=_team_text(ex.winners, w))
    else:
        end = w.s("ex.winner.alone", seat=ex.winner)
    rows.append((plain(w.s("ex.winner")), plain(end)))
    out.append(Table(None, tuple(rows)))
    items: list[Inline] = []
    joiner = w.s("list.sep")
    deals = sorted({t.deal for t in ex.turns if t.phase == "landlord"})
    for d in deals:
        acts = [_action(t, w) for t in ex.turns if t.phase == "landlord" and t.deal == d]
        items.append(plain(w.s("ex.deal", n=d + 1) + joiner.join(acts)))
    declared = [_action(t, w) for t in ex.turns if t.phase == "declare"]
    if declared:
        items.append(plain(w.s("ex.declare") + joiner.join(declared)))
    if items:
        out += [Para(w.t("ex.turns")), Bullets(tuple(items))]
    if ex.events:
        head = tuple(
            plain(w.s(k))
            for k in ("col.event", "col.factor", "col.seat", "col.detail", "col.group")
        )
        rows2 = tuple(
            (
                _event_name(e.name, sheet, w),
                plain(f"×{e.factor:g}"),
                plain("—" if e.seat is None else str(e.seat)),
                code(e.detail) if e.detail else plain("—"),
                plain(e.group or "—"),
            )
            for e in ex.events
        )
        out += [Para(w.t("ex.events")), Table(head, rows2)]
    else:
        out.append(Para(w.t("ex.noevents")))
    settle = next((p.name for p in sheet.plugins if p.role == "settlement"), "?")
    head = tuple(plain(w.s(k)) for k in ("col.seat", "col.role", "col.dealt", "col.score"))
    rows3 = tuple(
        (
            plain(str(s)),
            plain(_role(sheet, ex, s, w)),
            code(hand),
            plain(f"{score:+,}"),
        )
        for s, (hand, score) in enumerate(zip(ex.hands, ex.scores))
    )
    out += [Para(w.t("ex.scores", plugin=settle)), Table(head, rows3)]
    return out


def _role(sheet: Sheet, ex: WorkedExample, seat: int, w: Writer) -> str:
    """A seat's part in the worked example: landlord or farmer, else winner or loser
    (with his team at a partnerships table)."""
    if ex.landlord is not None:
        return w.s("role.lord" if seat == ex.landlord else "role.farmer")
    role = w.s("role.winner" if seat in ex.winners else "role.loser")
    if sheet.table_kind != "partnerships":
        return role
    team = next((t for t in sheet.teams if seat in t), (seat,))
    return w.s("role.team", team=_team_text(team, w), role=role)
