"""``ddzrules diff A B``: how two rule sets differ, from the data up to the games.

Exit status as ``git diff --exit-code``: 0 when the rule sets are the same, 1 when
they differ, 2 on error (an unknown or broken spec, a bad option).
"""

from __future__ import annotations

import sys
from contextlib import nullcontext
from typing import Any

import click
from rich.table import Table

from ddzrules.cli import (
    backend_options,
    check_backend,
    console,
    err_console,
    game_progress,
    plugin_option,
    spec_inputs,
    styled,
    user_plugins,
)
from ddzrules.cli import main as cli_main
from ddzrules.cli.simulate import (
    bots_option,
    check_run,
    games_option,
    seed_option,
    stop_on_signal,
    workers_option,
)
from ddzrules.errors import DdzError
from ddzrules.outputs import check_output_path, write_file
from ddzrules.simulate.stats import dumps_finite


def _fmt(value: Any, limit: int = 60) -> str:
    if value is None:
        return "—"
    text = value if isinstance(value, str) else repr(value)
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


@cli_main.command("diff")
@click.argument("a", metavar="A")
@click.argument("b", metavar="B")
@click.option("--hands", type=click.IntRange(0, 10_000_000), default=0,
              help="Also deal this many random hands: the share whose leads or answers differ.")
@games_option(None, "Also play this many paired games (the same seeded deals and bots under both rule sets)")
@seed_option(1)
@bots_option("heuristic,random,random")
@workers_option
@backend_options
@click.option("--witnesses", type=click.IntRange(1, 100), default=3, show_default=True,
              help="Smallest examples shown per difference.")
@click.option("--json", "as_json", is_flag=True, help="Every figure as JSON.")
@click.option("--html", "html_path", default=None, metavar="FILE",
              help="Also write a self-contained HTML report (tables and drawings) to this file.")
@plugin_option
def diff_cmd(a: str, b: str, hands: int, games: int | None, seed: int, bots: str, workers: int | None,
             backend: str, address: str | None, witnesses: int, as_json: bool, html_path: str | None,
             plugins: tuple[str, ...]) -> None:
    """Compare two rule sets: rules, plays, comparisons (exact), and optionally random
    hands and paired games. Exit 0 when the same, 1 when they differ, 2 on error."""
    from ddzrules.diff import diff_specs
    from ddzrules.rules.variant import load_variant

    try:
        # every option checked before any work: the rule tables, the games, the report
        bot_list = check_run(games, seed, bots, workers)
        check_backend(backend, address)
        html = None
        if html_path is not None:
            html = check_output_path(html_path, "--html", spec_inputs(a, b))
        with stop_on_signal("diff"), user_plugins(plugins):
            va, vb = load_variant(a), load_variant(b)
            # a bar only when there are paired games to play
            with game_progress(f"paired games {a} / {b}", games) if games else nullcontext(None) as advance:
                d = diff_specs(va, vb, hands=hands, games=games or 0, seed=seed, witnesses=witnesses,
                               bots=bot_list, workers=workers, sources=(a, b), backend=backend,
                               address=address, progress=advance)
            if html is not None:
                from ddzrules.diff.html import render_html

                write_file(html, render_html(d, va, vb), "--html")
            text = dumps_finite(d.to_dict(), ensure_ascii=False, indent=2) if as_json else None
    except (DdzError, ValueError, OSError) as e:
        err_console.print(styled("[bold red]error:[/] {}", e), soft_wrap=True)
        sys.exit(2)
    if text is not None:
        click.echo(text)
    else:
        _print(d)
    sys.exit(0 if d.same else 1)


def _print(d: Any) -> None:
    head = "no difference" if d.same else "the rule sets differ"
    console.print(styled("[bold]diff {} → {}[/]: {}", d.a, d.b, head))
    for note in d.notes:
        console.print(styled("[yellow]note:[/] {}", note))
    _print_differences(d)
    if d.rules:
        console.print(styled("\n[bold]Rules[/]"))
        t = Table("section", "what", d.a, d.b, box=None)
        for r in d.rules:
            what = r["what"] + (" (renamed)" if r["change"] == "renamed" else "")
            t.add_row(r["section"], what, _fmt(r["a"]), _fmt(r["b"]))
        console.print(t)
    p = d.plays
    console.print(styled("\n[bold]Plays[/]"), f": {p['universe_a']:,} in {d.a}, {p['universe_b']:,} in {d.b}; "
                  f"{p['only_a']:,} only in {d.a}, {p['only_b']:,} only in {d.b}, "
                  f"{p['read_differently']:,} read differently", sep="")
    if p["per_combo"]:
        t = Table("combo", f"only in {d.a}", f"only in {d.b}", "smallest witnesses", box=None)
        for row in p["per_combo"]:
            ws = row["witnesses_a"] or row["witnesses_b"]
            t.add_row(row["combo"], f"{row['only_a']:,}", f"{row['only_b']:,}", " ".join(ws))
        console.print(t)
    for row in p["differently"]:
        w = row["witnesses"][0]
        ra = ", ".join(f"{x['combo']} {x['rank']}" for x in w["a"])
        rb = ", ".join(f"{x['combo']} {x['rank']}" for x in w["b"])
        console.print(f"  read differently ({row['count']:,}): {row['a']} → {row['b']}, "
                      f"e.g. {w['cards']}: {ra} / {rb}")
    c = d.comparisons
    console.print(styled("\n[bold]Comparisons[/]"), f" (exact, over the {c['common_plays']:,} plays both allow): "
                  f"{c['pairs']:,} ordered pair(s) judged differently", sep="")
    if c["groups"]:
        t = Table("play", "on", "beats only under", "pairs", "smallest witnesses", box=None)
        for g in c["groups"]:
            who = d.a if g["beats_in"] == "a" else d.b
            ws = ", ".join(f"{w['x']} on {w['y']}" for w in g["witnesses"])
            t.add_row(g["x_combo"], g["y_combo"], who, f"{g['pairs']:,}", ws)
        console.print(t)
    if d.hands:
        h = d.hands
        console.print(styled("\n[bold]Hands[/]"), f" ({h['hands']:,} random hands, seed {h['seed']}): leads differ in "
                      f"{h['leads_differ_share']:.1%}, answers to a random play both allow differ in "
                      f"{h['answers_differ_share']:.1%} (of {h['answers_checked']:,})"
                      + (f"; e.g. hand {h['witness_lead']}" if h["witness_lead"] else ""), sep="")
    if d.games:
        _print_games(d)


def _print_differences(d: Any) -> None:
    """What differs first: each combo, phase or parameter, what the games made of it, the
    warnings for those they did not exercise, and the summary in plain words."""
    if not d.differences:
        return
    from ddzrules.diff.exercised import describe
    from ddzrules.simulate import significant

    console.print(styled("\n[bold]What differs[/]"))
    for e in d.differences:
        line = f"  {describe(e)}"
        if e.get("kind") == "combo" and "plays_a" in e:
            parts = [f"{significant(p, 2)} plays and {significant(c, 2)} chances a game in {name}"
                     for p, c, name in ((e["plays_a"], e["chances_a"], d.a), (e["plays_b"], e["chances_b"], d.b))
                     if p is not None and c is not None]
            line += ": " + "; ".join(parts)
        if e.get("games_otherwise") is not None:
            line += f" (games that went otherwise: {e['games_otherwise']} of {d.games['games']})"
        console.print(line, markup=False, highlight=False)
    for warning in d.warnings:
        console.print(styled("[yellow]warning:[/] {}", warning))
    if d.summary:
        console.print(styled("[bold]In plain words:[/] {}", d.summary))


def _print_games(d: Any) -> None:
    from ddzrules.simulate import format_comparison

    console.print(styled("\n[bold]Games[/]"))
    # never or rarely played: flagged for the combos that differ only (the others' play
    # says nothing of the rules that differ)
    console.print(format_comparison(d.games, d.differing_combos))
