"""The HTML reports of ``ddzrules diff --html`` and ``ddzrules simulate --html``: one
self-contained file each, viewable offline (no script, no stylesheet or font to fetch).

The games part — how they were made (games, seed, bots, the pairing), what the
intervals mean, every figure per rule set and every difference with its paired and
unpaired interval, drawn — is one renderer, :func:`games_section`, shared by both
commands. The drawings are plain inline SVG written here: no plotting library is
needed. Every string that comes from a spec or the user (names, combos, witnesses,
rule values, reasons) is HTML-escaped. Numbers use the text report's precision
(:func:`ddzrules.simulate.fixed`): fixed decimals, never exponent notation, never
``-0.000``.

The command checks the output path before any work and writes the file in one step
(:mod:`ddzrules.outputs`).
"""

from __future__ import annotations

import math
from collections.abc import Collection
from html import escape
from typing import Any

from ddzrules.simulate import (
    FIGURES,
    Figure,
    decimals_for,
    fixed,
    half_width,
    rarely_played,
    significant,
)

# ====================================================================== text and tables


def _text(value: Any) -> str:
    """Any value as escaped HTML text (quotes too: safe in attributes)."""
    return escape(str(value), quote=True)


def _cell(value: Any) -> str:
    """A table cell's text: None as —, ints with thousands separators, floats to four
    significant digits without exponent notation, anything else on one line."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        return significant(value)
    return " ".join(str(value).split())


class Raw(str):
    """Markup made here (an SVG drawing), put into a cell as it is."""


def _table(head: list[Any], rows: list[list[Any]], cls: str = "") -> str:
    th = "".join(f"<th>{_text(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{c if isinstance(c, Raw) else _text(_cell(c))}</td>"
                                    for c in row) + "</tr>" for row in rows)
    attr = f" class='{cls}'" if cls else ""
    return f"<table{attr}><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>"


def _short(value: Any) -> str:
    text = "—" if value is None else value if isinstance(value, str) else repr(value)
    return text if len(text) < 300 else text[:299] + "…"


CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI","Noto Sans CJK SC",sans-serif;margin:2em auto;
max-width:72em;padding:0 1em;color:#222;line-height:1.45}
h1{font-size:1.6em}h2{border-bottom:1px solid #ccc;padding-bottom:.2em;margin-top:2em}
table{border-collapse:collapse;margin:.5em 0 1em}td,th{border:1px solid #ddd;padding:.25em .6em;
text-align:left;vertical-align:middle;font-size:.92em}th{background:#f4f4f4}
table.figures td{font-variant-numeric:tabular-nums;white-space:nowrap}
table.figures td:last-child{white-space:normal}
.same{color:#176117}.differ{color:#9b1c1c}svg{max-width:100%;height:auto;vertical-align:middle}
code{font-family:ui-monospace,monospace}dl.how dt{font-weight:600;margin-top:.4em}dl.how dd{margin-left:1.5em}
.key{display:inline-block;width:1.4em;height:.6em;margin:0 .3em 0 .8em}
"""

PAIRED_COLOUR = "#1f5fa8"
UNPAIRED_COLOUR = "#a9c3e0"
SPEC_COLOURS = ("#1f5fa8", "#c8641e", "#2e8540", "#8a3ea8", "#a83e4e", "#5a6470")


def _document(title: str, body: list[str]) -> str:
    return "\n".join([(f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
                      f"<title>{_text(title)}</title><style>{CSS}</style></head><body>"),
                      *body, "</body></html>\n"])


# ====================================================================== drawings (inline SVG)


def _svg(width: float, height: float, label: str, parts: list[str]) -> str:
    return (f"<svg xmlns='http://www.w3.org/2000/svg' width='{width:g}' height='{height:g}' "
            f"viewBox='0 0 {width:g} {height:g}' role='img' aria-label='{_text(label)}'>"
            f"<title>{_text(label)}</title>{''.join(parts)}</svg>")


def difference_drawing(label: str, e: dict[str, Any], decimals: int) -> str:
    """One difference drawn on its own scale, symmetric about 0: a vertical line at 0,
    the unpaired interval (light bar), the paired interval (dark bar) and the
    difference (dot). An interval that crosses the line does not exclude 0."""
    w, h, margin = 220.0, 30.0, 8.0
    pa, un, diff = e.get("paired"), e.get("unpaired"), e.get("difference")
    if diff is None:
        return ""
    ends = [abs(v) for iv in (pa, un) if iv for v in (iv.get("low"), iv.get("high")) if v is not None]
    span = max([abs(diff), *ends]) or 1.0

    def x(v: float) -> float:
        return margin + (v + span) / (2 * span) * (w - 2 * margin)

    parts = [(f"<line x1='{x(0):.1f}' y1='2' x2='{x(0):.1f}' y2='{h - 2:g}' stroke='#888' "
             "stroke-width='1' stroke-dasharray='2,2'/>")]
    words = [f"{label}: difference {fixed(diff, decimals, sign=True)}"]
    for iv, y, colour, name in ((un, 7.0, UNPAIRED_COLOUR, "unpaired"), (pa, 17.0, PAIRED_COLOUR, "paired")):
        if iv is None or iv.get("low") is None or iv.get("high") is None:
            continue
        lo, hi = x(iv["low"]), x(iv["high"])
        parts.append(f"<rect x='{lo:.1f}' y='{y:g}' width='{max(hi - lo, 1.0):.1f}' height='6' fill='{colour}'/>")
        words.append(f"{name} [{fixed(iv['low'], decimals)}, {fixed(iv['high'], decimals)}]")
    parts.append(f"<circle cx='{x(diff):.1f}' cy='15' r='3.5' fill='#111'/>")
    return _svg(w, h, ", ".join(words), parts)


def _rate_drawing(rows: list[tuple[str, dict[str, Any]]], what: str) -> str:
    """Proportions with their intervals on a 0–1 axis, one row per rule set."""
    w, label_w, row_h = 520.0, 160.0, 22.0
    h = row_h * len(rows) + 24
    axis_w = w - label_w - 16

    def x(v: float) -> float:
        return label_w + v * axis_w

    parts = []
    for t in (0.0, 0.25, 0.5, 0.75, 1.0):
        parts.append(f"<line x1='{x(t):.1f}' y1='4' x2='{x(t):.1f}' y2='{h - 18:g}' stroke='#ddd'/>"
                     f"<text x='{x(t):.1f}' y='{h - 4:g}' font-size='11' text-anchor='middle'>{t:g}</text>")
    words = []
    for i, (name, r) in enumerate(rows):
        y = 6 + i * row_h
        colour = SPEC_COLOURS[i % len(SPEC_COLOURS)]
        parts.append(f"<text x='{label_w - 6:g}' y='{y + 11:g}' font-size='12' text-anchor='end'>"
                     f"{_text(_clip(name, 24))}</text>")
        if r.get("low") is not None and r.get("high") is not None:
            parts.append(f"<rect x='{x(r['low']):.1f}' y='{y + 5:g}' "
                         f"width='{max(x(r['high']) - x(r['low']), 1.0):.1f}' "
                         f"height='6' fill='{colour}' opacity='.45'/>")
        if r.get("mean") is not None:
            parts.append(f"<circle cx='{x(r['mean']):.1f}' cy='{y + 8:g}' r='4' fill='{colour}'/>")
        words.append(f"{name} {fixed(r.get('mean'), 3)} [{fixed(r.get('low'), 3)}, {fixed(r.get('high'), 3)}]")
    return _svg(w, h, f"{what}: " + "; ".join(words), parts)


def _share_bar(share: float, colour: str) -> Raw:
    """A small horizontal bar of a share (0–1), for a table cell."""
    w = 120.0
    return Raw(_svg(w, 12, f"{fixed(share, 3)} of the games",
                    [f"<rect x='0' y='2' width='{w:g}' height='8' fill='#f0f0f0'/>",
                     f"<rect x='0' y='2' width='{max(share * w, 0.0):.1f}' height='8' fill='{colour}'/>"]))


def plays_per_combo_drawing(names: list[str], counts_a: dict[str, int], counts_b: dict[str, int],
                            a: str, b: str) -> str:
    """The plays of each combo in both rule sets, two bars per combo on a log scale."""
    w, label_w, bar_h = 640.0, 180.0, 8.0
    h = len(names) * (2 * bar_h + 8) + 8
    top = max([1, *counts_a.values(), *counts_b.values()])
    scale = (w - label_w - 70) / math.log10(1 + top)
    parts = []
    for i, name in enumerate(names):
        y = 4 + i * (2 * bar_h + 8)
        parts.append(f"<text x='{label_w - 6:g}' y='{y + bar_h + 4:g}' font-size='11' text-anchor='end'>"
                     f"{_text(_clip(name, 28))}</text>")
        for j, (counts, colour) in enumerate(((counts_a, SPEC_COLOURS[0]), (counts_b, SPEC_COLOURS[1]))):
            n = counts.get(name, 0)
            length = math.log10(1 + n) * scale
            yy = y + j * bar_h
            parts.append(f"<rect x='{label_w:g}' y='{yy:g}' width='{length:.1f}' height='{bar_h - 1:g}' "
                         f"fill='{colour}'/><text x='{label_w + length + 4:.1f}' y='{yy + bar_h - 1:g}' "
                         f"font-size='9'>{n:,}</text>")
    return _svg(w, h, f"plays per combo in {a} (first bar) and {b} (second bar), log scale", parts)


def _clip(text: str, limit: int) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


# ====================================================================== the games


def _how(games: dict[str, Any]) -> str:
    """How the games were made and what the intervals mean, in words."""
    specs = games.get("specs", [])
    conf = f"{games.get('confidence', 0.95):.0%}"
    seats = "; ".join(f"{_text(s['spec'])}: "
                      + ", ".join(f"seat {i} {_text(k)}" for i, k in enumerate(s.get("bots", [])))
                      for s in specs)
    several = len(specs) > 1
    rows = [
        ("Games", f"{games.get('games', 0):,} per rule set" if several else f"{games.get('games', 0):,}"),
        ("Seed", (f"{_text(games.get('seed'))}: game <i>i</i> is dealt from a seed made of (seed, <i>i</i>) and "
                 "its bots are seeded from it, so the same seed gives the same games whatever the number of "
                 "workers")),
        ("Bots", (f"{_text(','.join(games.get('bots', [])))} (one name means every seat; a list goes seat by "
                 f"seat, repeated to fill the seats) — {seats}")),
    ]
    if several:
        rows.append(("Protocol", ("Paired: game <i>i</i> is played under every rule set with the same seed, "
                     "the same match position and the same bots in the same seats. Rule sets with the same "
                     "deck, players, hand and kitty sizes deal the same cards from a seed; the decisions "
                     "diverge as soon as the rules offer other actions, so the pairing shares the luck of "
                     "the deal, not every later choice. Rule sets that deal differently cannot be paired: "
                     "they get unpaired intervals only.")))
    rows.append(("Intervals", (f"Each figure is its mean over the games with a {conf} interval: the Wilson "
                 "score interval for a rate, mean ± z·s/√n (a normal approximation) for any other "
                 "figure, cut at 0 for one that cannot be negative.")))
    if several:
        rows.append(("Differences", ("A difference is the rule set minus the first one (the baseline). Its "
                     f"<b>paired</b> {conf} interval comes from the per-game differences over the same games — "
                     "what both rule sets share cancels, so it is narrower when the figures move together; its "
                     f"<b>unpaired</b> {conf} interval is Welch's, the two series taken as independent samples, "
                     "as two separate runs on different deals would give. An interval that contains 0 does not "
                     "show a difference. In the drawings the dashed line is 0, the light bar the unpaired "
                     "interval, the dark bar the paired one and the dot the difference.")))
    rows.append(("n/a and ?", ("n/a: the rule set has no such figure (no spring rule, no robbing); "
                 "[?]: the interval cannot be estimated (a single game).")))
    items = "".join(f"<dt>{name}</dt><dd>{text}</dd>" for name, text in rows)
    return f"<dl class='how'>{items}</dl>"


def _figure_rows(specs: list[dict[str, Any]]) -> list[list[Any]]:
    rows: list[list[Any]] = [["games", *[s.get("games") for s in specs], "games played"]]
    for fig in FIGURES:
        cells = []
        for s in specs:
            e = (s.get("figures") or {}).get(fig.name)
            cells.append(_figure_text(fig, e))
        rows.append([fig.label, *cells, fig.about])
    rows.append(["score unit", *[s.get("unit") or "n/a" for s in specs], "what scores are counted in"])
    return rows


def _figure_text(fig: Figure, e: dict[str, Any] | None) -> str:
    if e is None:
        return "n/a"
    d = decimals_for(fig.kind, [half_width(e)])
    mean = "?" if e.get("mean") is None else fixed(e["mean"], d)
    if e.get("low") is None or e.get("high") is None:
        return f"{mean} [?]"
    return f"{mean} [{fixed(e['low'], d)}, {fixed(e['high'], d)}]"


def _comparison(comp: dict[str, Any], conf: str) -> list[str]:
    out = [f"<h3>{_text(comp['spec'])} − {_text(comp['baseline'])}</h3>"]
    if not comp.get("paired"):
        out.append(f"<p><em>Not paired: {_text(comp.get('reason') or '')}. Unpaired intervals only.</em></p>")
    rows: list[list[Any]] = []
    for fig in FIGURES:
        e = (comp.get("figures") or {}).get(fig.name)
        if e is None:
            rows.append([fig.label, "n/a", "n/a", "n/a", "", ""])
            continue
        un, pa = e.get("unpaired"), e.get("paired")
        d = decimals_for(fig.kind, [half_width(iv) for iv in (un, pa) if iv is not None])
        diff = "?" if e.get("difference") is None else fixed(e["difference"], d, sign=True)
        rows.append([fig.label, diff, "not paired" if pa is None else _bracket(pa, d), _bracket(un, d),
                     "" if e.get("narrowing") is None else f"{e['narrowing']:.2f}",
                     Raw(difference_drawing(fig.label, e, d))])
    out.append(_table(["figure", "difference", f"paired {conf} interval", f"unpaired {conf} interval",
                       "paired / unpaired width", "drawn"], rows, "figures"))
    return out


def _bracket(iv: dict[str, Any] | None, d: int) -> str:
    if iv is None or iv.get("low") is None or iv.get("high") is None:
        return "[?]"
    return f"[{fixed(iv['low'], d)}, {fixed(iv['high'], d)}]"


def _multiple_table(specs: list[dict[str, Any]]) -> str:
    dists = [s.get("multiple_distribution") or {} for s in specs]
    keys = sorted({k for d in dists for k in d}, key=float)
    if not keys:
        return ""
    rows: list[list[Any]] = []
    for k in keys:
        row: list[Any] = [f"×{significant(float(k))}"]
        for i, d in enumerate(dists):
            n = sum(d.values()) or 1
            share = d.get(k, 0) / n
            row += [f"{d.get(k, 0):,} ({fixed(share, 3)})", _share_bar(share, SPEC_COLOURS[i % len(SPEC_COLOURS)])]
        rows.append(row)
    head = ["multiple"]
    for s in specs:
        head += [f"{s['spec']}: games (share)", "drawn"]
    return _table(head, rows)


def games_section(games: dict[str, Any], combos: Collection[str] | None = None) -> list[str]:
    """The games part of a report (a :func:`ddzrules.simulate.compare_specs` result):
    how they were made, every figure per rule set, every difference drawn, the
    multiple's distribution and the landlord win rates. Shared by ``diff --html`` and
    ``simulate --html``."""
    specs = games.get("specs", [])
    conf = f"{games.get('confidence', 0.95):.0%}"
    out = [_how(games), "<h3>Figures</h3>",
           f"<p>Mean [{conf} interval] of each figure per rule set.</p>",
           _table(["figure", *[s["spec"] for s in specs], "what it counts"], _figure_rows(specs), "figures")]
    for comp in games.get("comparisons") or []:
        out.extend(_comparison(comp, conf))
    table = _multiple_table(specs)
    if table:
        out += ["<h3>Distribution of the multiple</h3>", table]
    out += _plays_by_combo(games, conf, combos)
    rates = [(s["spec"], (s.get("figures") or {}).get("landlord_won")) for s in specs]
    shown = [(name, r) for name, r in rates if isinstance(r, dict)]
    if shown:
        out += ["<h3>Landlord win rate</h3>",
                f"<p>The share of games the landlord's side won, with its {conf} (Wilson) interval.</p>",
                _rate_drawing(shown, "landlord win rate")]
    return out


def _plays_by_combo(games: dict[str, Any], conf: str, combos: Collection[str] | None = None) -> list[str]:
    """What the bots played of each combo, a game, and the combos they never or rarely
    played: a difference in those rules is barely tested by the games."""
    specs = games.get("specs", [])
    names: dict[str, None] = {}
    for s in specs:
        names.update(dict.fromkeys(s.get("plays_by_combo", {})))
    if not names:
        return []
    bots = _text(",".join(games.get("bots", [])))

    def cell(s: dict[str, Any], name: str) -> str:
        e = s.get("plays_by_combo", {}).get(name)
        if e is None:
            return "—"
        return f"{fixed(e['mean'], 3)} [{fixed(e['low'], 3)}, {fixed(e['high'], 3)}]"

    out = ["<h3>Plays a game by combo</h3>",
           (f"<p>As the bots {bots} played them (mean [{conf} interval]); — : not a combo of that rule set. "
            "These are figures of the bots: a combo they never or rarely play is a rule these games "
            "barely tested.</p>"),
           _table(["combo", *[s["spec"] for s in specs]], [[n, *[cell(s, n) for s in specs]] for n in names])]
    for s in specs:
        never, rare = rarely_played(s, combos)
        if never or rare:
            out.append(f"<p>{_text(s['spec'])}: never played by {bots}: {_text(', '.join(never)) or 'none'}; "
                       f"rarely played: {_text(', '.join(rare)) or 'none'}.</p>")
    return out


def render_games_html(games: dict[str, Any]) -> str:
    """The report of ``simulate SPEC... --html FILE``: the games section alone."""
    names = [s["spec"] for s in games.get("specs", [])]
    title = f"ddzrules simulate {', '.join(names)}"
    return _document(title, [f"<h1>ddzrules simulate {' · '.join(f'<code>{_text(n)}</code>' for n in names)}</h1>",
                             *games_section(games)])


# ====================================================================== the diff


def _differences(d: Any) -> list[str]:
    """What differs, first: each difference, what the games made of it (plays and chances
    a game of a combo, the paired games that went otherwise), the warnings, the summary."""
    if not d.differences:
        return []
    from ddzrules.diff.exercised import describe

    def per_game(x: Any) -> str:
        return "—" if x is None else significant(x, 2)

    games = d.games is not None
    head = ["what differs", "kind"]
    if games:
        head += [f"plays a game in {d.a}", f"in {d.b}", f"chances a game in {d.a}", f"in {d.b}",
                 "games that went otherwise", "exercised"]
    rows = []
    for e in d.differences:
        row: list[Any] = [describe(e), e["kind"]]
        if games:
            row += [per_game(e.get("plays_a")), per_game(e.get("plays_b")), per_game(e.get("chances_a")),
                    per_game(e.get("chances_b")),
                    "— (not paired)" if e.get("games_otherwise") is None
                    else f"{e['games_otherwise']:,} of {d.games['games']:,}", e.get("exercised")]
        rows.append(row)
    out = ["<h2>What differs</h2>", _table(head, rows)]
    out += [f"<p class='warning'><strong>warning:</strong> {_text(w)}</p>" for w in d.warnings]
    if d.summary:
        out.append(f"<p class='summary'><strong>In plain words:</strong> {_text(d.summary)}</p>")
    return out


def render_html(d: Any, a: Any, b: Any) -> str:
    """The whole ``diff --html`` report as one HTML document (no external resources)."""
    verdict = ("<p class='same'>No difference.</p>" if d.same
               else "<p class='differ'>The rule sets differ.</p>")
    parts = [f"<h1>ddzrules diff <code>{_text(d.a)}</code> → <code>{_text(d.b)}</code></h1>", verdict]
    for note in d.notes:
        parts.append(f"<p><em>{_text(note)}</em></p>")
    parts += _differences(d)
    parts.append("<h2>Rules</h2>")
    parts.append(_table(["section", "what", d.a, d.b, "change"],
                        [[r["section"], r["what"], _short(r["a"]), _short(r["b"]), r["change"]]
                         for r in d.rules]) if d.rules else "<p>The resolved specs are the same.</p>")
    p = d.plays
    parts.append("<h2>Plays</h2>")
    parts.append(f"<p>{p['universe_a']:,} plays in {_text(d.a)}, {p['universe_b']:,} in {_text(d.b)}: "
                 f"{p['only_a']:,} only in {_text(d.a)}, {p['only_b']:,} only in {_text(d.b)}, "
                 f"{p['read_differently']:,} read differently.</p>")
    if p["per_combo"]:
        parts.append(_table(["combo", f"only in {d.a}", f"only in {d.b}", "smallest witnesses"],
                            [[r["combo"], r["only_a"], r["only_b"],
                              " ".join(r["witnesses_a"] or r["witnesses_b"])] for r in p["per_combo"]]))
    if p["differently"]:
        parts.append(_table(["read in " + d.a, "read in " + d.b, "card sets", "e.g."],
                            [[r["a"], r["b"], r["count"], r["witnesses"][0]["cards"]]
                             for r in p["differently"]]))
    ca, cb = a.census().by_combo, b.census().by_combo
    names = list(ca) + [n for n in cb if n not in ca]
    parts.append(f"<p><span class='key' style='background:{SPEC_COLOURS[0]}'></span>{_text(d.a)}"
                 f"<span class='key' style='background:{SPEC_COLOURS[1]}'></span>{_text(d.b)}: "
                 "plays per combo (log scale)</p>")
    parts.append(plays_per_combo_drawing(names, ca, cb, d.a, d.b))
    c = d.comparisons
    parts.append("<h2>Comparisons</h2>")
    parts.append(f"<p>Exact, over the {c['common_plays']:,} plays both allow: {c['pairs']:,} ordered "
                 f"pairs judged differently.</p>")
    if c["groups"]:
        parts.append(_table(["play", "on", "beats only under", "pairs", "smallest witnesses"],
                            [[g["x_combo"], g["y_combo"], d.a if g["beats_in"] == "a" else d.b, g["pairs"],
                              ", ".join(f"{w['x']} on {w['y']}" for w in g["witnesses"])]
                             for g in c["groups"]]))
    if d.hands:
        h = d.hands
        parts.append("<h2>Hands</h2>")
        parts.append(_table(["random hands", "seed", "leads differ", "answers differ"],
                            [[h["hands"], h["seed"], f"{fixed(100 * h['leads_differ_share'], 1)}%",
                              f"{fixed(100 * h['answers_differ_share'], 1)}%"]]))
    if d.games:
        parts.append("<h2>Games</h2>")
        parts.extend(games_section(d.games, d.differing_combos))
    return _document(f"ddzrules diff {d.a} → {d.b}", parts)
