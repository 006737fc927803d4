"""The HTML report of ``ddzrules diff --html``: one self-contained file, viewable offline.

Tables are plain HTML; the plots (plays per combo, and with ``--games`` the
distribution of the multiple and the win rates with their intervals) are drawn by
matplotlib (the ``report`` extra: ``pip install 'ddzrules[report]'``) as inline
SVG, so the file loads nothing from anywhere.
"""

from __future__ import annotations

import io
from html import escape
from typing import Any

from .errors import DdzError
from .variant import Variant


def _pyplot() -> Any:
    try:
        import matplotlib

        matplotlib.use("Agg")  # no screen: draw to files only
        import matplotlib.pyplot as plt
    except ImportError:
        raise DdzError("--html draws its plots with matplotlib: pip install 'ddzrules[report]'") from None
    plt.rcParams["svg.fonttype"] = "none"  # text stays text (and the file stays small)
    plt.rcParams["svg.hashsalt"] = "ddzrules"  # deterministic ids in the SVG
    return plt


def _svg(fig: Any) -> str:
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
    text = buf.getvalue()
    return text[text.index("<svg"):]  # drop the XML prolog and doctype: inline SVG


def plays_per_combo_plot(a: Variant, b: Variant) -> str:
    plt = _pyplot()
    ca, cb = a.census().by_combo, b.census().by_combo
    names = list(ca) + [n for n in cb if n not in ca]
    fig, ax = plt.subplots(figsize=(8, 0.35 * len(names) + 1.2))
    ys = range(len(names))
    ax.barh([y - 0.2 for y in ys], [ca.get(n, 0) for n in names], height=0.4, label=a.name)
    ax.barh([y + 0.2 for y in ys], [cb.get(n, 0) for n in names], height=0.4, label=b.name)
    ax.set_yticks(list(ys), names)
    ax.invert_yaxis()
    ax.set_xscale("symlog")
    ax.set_xlabel("plays in the universe (log scale)")
    ax.legend()
    ax.set_title("Plays per combo")
    svg = _svg(fig)
    plt.close(fig)
    return svg


def games_plots(games: dict[str, Any]) -> list[str]:
    """The multiple's distribution and the landlord win rates with 95% intervals."""
    plt = _pyplot()
    out = []
    specs = games.get("specs", [])
    dists = [(s["spec"], s.get("multiple_distribution") or {}) for s in specs]
    if any(d for _, d in dists):
        keys = sorted({float(k) for _, d in dists for k in d})
        fig, ax = plt.subplots(figsize=(8, 3.2))
        width = 0.8 / max(1, len(dists))
        for i, (name, d) in enumerate(dists):
            n = sum(d.values()) or 1
            ax.bar([j + i * width for j in range(len(keys))],
                   [d.get(_key(k, d), 0) / n for k in keys], width=width, label=name)
        ax.set_xticks([j + width * (len(dists) - 1) / 2 for j in range(len(keys))],
                      [f"{k:g}" for k in keys])
        ax.set_xlabel("multiple")
        ax.set_ylabel("share of games")
        ax.set_title("Distribution of the multiple")
        ax.legend()
        out.append(_svg(fig))
        plt.close(fig)
    rates = [(s["spec"], (s.get("figures") or {}).get("landlord_won")) for s in specs]
    if rates and all(isinstance(r, dict) for _, r in rates):
        fig, ax = plt.subplots(figsize=(6, 0.5 * len(rates) + 1.2))
        for i, (_, r) in enumerate(rates):
            assert r is not None
            ax.errorbar([r["mean"]], [i], xerr=[[r["mean"] - r["low"]], [r["high"] - r["mean"]]],
                        fmt="o", capsize=4)
        ax.set_yticks(range(len(rates)), [n for n, _ in rates])
        ax.set_xlabel(f"landlord win rate ({round(100 * games.get('confidence', 0.95))}% interval)")
        ax.set_title("Landlord win rate")
        out.append(_svg(fig))
        plt.close(fig)
    return out


def _key(k: float, d: dict[str, Any]) -> str:
    for s in d:
        if float(s) == k:
            return s
    return str(k)


def _table(head: list[str], rows: list[list[Any]]) -> str:
    th = "".join(f"<th>{escape(str(h))}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{escape(_cell(c))}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>"


def _cell(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, float):
        return f"{value:.4g}"
    if isinstance(value, int):
        return f"{value:,}"
    return " ".join(str(value).split())


CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI","Noto Sans CJK SC",sans-serif;margin:2em auto;
max-width:70em;padding:0 1em;color:#222}
h1{font-size:1.6em}h2{border-bottom:1px solid #ccc;padding-bottom:.2em;margin-top:2em}
table{border-collapse:collapse;margin:.5em 0 1em}td,th{border:1px solid #ddd;padding:.25em .6em;
text-align:left;vertical-align:top;font-size:.92em}th{background:#f4f4f4}
.same{color:#176117}.differ{color:#9b1c1c}svg{max-width:100%;height:auto}
code{font-family:ui-monospace,monospace}
"""


def render_html(d: Any, a: Variant, b: Variant) -> str:
    """The whole report as one HTML document (no external resources)."""
    verdict = ("<p class='same'>No difference.</p>" if d.same
               else "<p class='differ'>The rule sets differ.</p>")
    parts = [(f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
              f"<title>ddzrules diff {escape(d.a)} → {escape(d.b)}</title><style>{CSS}</style></head><body>"),
             f"<h1>ddzrules diff <code>{escape(d.a)}</code> → <code>{escape(d.b)}</code></h1>", verdict]
    for note in d.notes:
        parts.append(f"<p><em>{escape(note)}</em></p>")
    parts.append("<h2>Rules</h2>")
    parts.append(_table(["section", "what", d.a, d.b, "change"],
                        [[r["section"], r["what"], _short(r["a"]), _short(r["b"]), r["change"]]
                         for r in d.rules]) if d.rules else "<p>The resolved specs are the same.</p>")
    p = d.plays
    parts.append("<h2>Plays</h2>")
    parts.append(f"<p>{p['universe_a']:,} plays in {escape(d.a)}, {p['universe_b']:,} in {escape(d.b)}: "
                 f"{p['only_a']:,} only in {escape(d.a)}, {p['only_b']:,} only in {escape(d.b)}, "
                 f"{p['read_differently']:,} read differently.</p>")
    if p["per_combo"]:
        parts.append(_table(["combo", f"only in {d.a}", f"only in {d.b}", "smallest witnesses"],
                            [[r["combo"], r["only_a"], r["only_b"],
                              " ".join(r["witnesses_a"] or r["witnesses_b"])] for r in p["per_combo"]]))
    if p["differently"]:
        parts.append(_table(["read in " + d.a, "read in " + d.b, "card sets", "e.g."],
                            [[r["a"], r["b"], r["count"], r["witnesses"][0]["cards"]]
                             for r in p["differently"]]))
    parts.append(plays_per_combo_plot(a, b))
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
                            [[h["hands"], h["seed"], f"{h['leads_differ_share']:.1%}",
                              f"{h['answers_differ_share']:.1%}"]]))
    if d.games:
        parts.append("<h2>Games</h2>")
        parts.append(_games_table(d.games))
        parts.extend(games_plots(d.games))
    parts.append("</body></html>\n")
    return "\n".join(parts)


def _short(value: Any) -> str:
    text = "—" if value is None else value if isinstance(value, str) else repr(value)
    return text if len(text) < 300 else text[:299] + "…"


def _interval(v: dict[str, Any] | None, key: str = "mean") -> str:
    if v is None:
        return "n/a"
    return f"{v[key]:.4g} [{v['low']:.4g}, {v['high']:.4g}]"


def _games_table(games: dict[str, Any]) -> str:
    """Per rule set every figure with its interval, and the paired and unpaired
    difference of the second to the first."""
    specs = games.get("specs", [])
    comparison = (games.get("comparisons") or [None])[0]
    names = list((specs[0].get("figures") or {}) if specs else [])
    head = ["figure", *[f"{s['spec']} ({s.get('unit', '?')})" for s in specs]]
    if comparison:
        head += ["difference", "paired interval", "unpaired interval"]
    rows = []
    for f in names:
        row: list[Any] = [f] + [_interval((s.get("figures") or {}).get(f)) for s in specs]
        if comparison:
            c = (comparison.get("figures") or {}).get(f)
            row += (["n/a"] * 3 if c is None else
                    [f"{c['difference']:+.4g}",
                     _interval(c.get("paired"), "estimate") if c.get("paired") else "not paired",
                     _interval(c.get("unpaired"), "estimate")])
        rows.append(row)
    note = ""
    if comparison and not comparison.get("paired"):
        note = f"<p><em>Not paired: {escape(str(comparison.get('reason') or ''))}</em></p>"
    return _table(head, rows) + note
