"""CLI commands that play many all-bot games: ``simulate`` (figures with intervals,
several specs compared on the same seeded games) and ``match`` (consecutive games,
totals and the winner)."""

from __future__ import annotations

import math
from typing import Any

import click
from rich.table import Table

from .bots import BOTS, make_bot
from .cli import (
    backend_options,
    check_backend,
    console,
    emit_json,
    game_progress,
    json_option,
    main,
    styled,
    user_errors,
)
from .cli_game import SEED, load_rules, plugin_option, seats_phrase, user_plugins
from .errors import DdzError
from .simulate import FIGURES, Figure, compare_specs, game_seed, play_game


@main.command()
@click.argument("specs", metavar="SPEC...", nargs=-1, required=True)
@click.option("--games", type=int, default=1000, show_default=True)
@click.option("--seed", type=SEED, default=0, show_default=True)
@click.option("--workers", type=int, default=None,
              help="Worker processes (default 1); with --backend ray and no --address, the "
                   "CPUs of the local Ray (default: every core).")
@click.option("--bots", default="random", show_default=True,
              help=f"Bot per seat, comma-separated ({', '.join(BOTS)}); one name means every seat.")
@backend_options
@plugin_option
@json_option
@user_errors
def simulate(specs: tuple[str, ...], games: int, seed: int, workers: int | None, bots: str,
             backend: str, address: str | None, plugins: tuple[str, ...], as_json: bool) -> None:
    """Play many all-bot games and summarise them, every figure with its 95% interval.

    With several SPECs every spec plays the same seeded games (same deals where the
    decks match, same bots) and each is compared with the first: the paired
    difference and, for comparison, the unpaired one. Same seed → same figures, any
    --workers. See docs/simulation.md.
    """
    kinds = [k.strip() for k in bots.split(",")]
    for k in kinds:
        if k not in BOTS:
            raise DdzError(f"unknown bot {k!r}; choose from {', '.join(BOTS)}")
    if games < 1 or (workers is not None and workers < 1):
        raise DdzError("--games and --workers must be at least 1")
    check_backend(backend, address)
    with user_plugins(plugins):
        for spec in specs if plugins else ():
            load_rules(spec, plugins)  # a --plugin class that fails is a plain error
        result = _simulate(specs, games, seed, workers, kinds, backend, address)
    if as_json:
        emit_json(result["specs"][0] if len(specs) == 1 else result)
        return
    _print_simulation(result)


def _simulate(specs: tuple[str, ...], games: int, seed: int, workers: int | None,
              kinds: list[str], backend: str = "local",
              address: str | None = None) -> dict[str, Any]:
    with game_progress(f"simulating {', '.join(specs)}", games) as advance:
        return compare_specs(list(specs), games, seed, kinds, workers, progress=advance,
                             backend=backend, address=address)


def _decimals(fig: Figure, halves: list[float]) -> int:
    """Decimals of a figure: 3 for a proportion; else two significant digits of the
    narrowest of the interval half-widths shown together (3 when none is finite)."""
    if fig.kind == "proportion":
        return 3
    finite = [h for h in halves if math.isfinite(h) and h > 0]
    if not finite:
        return 3
    return max(0, 1 - math.floor(math.log10(min(finite))))


def _half(low: float | None, high: float | None) -> float:
    return math.inf if low is None or high is None else (high - low) / 2


def _bounds(low: float | None, high: float | None, d: int) -> str:
    """``[low, high]``; an interval that cannot be estimated (one game) is ``[?]``."""
    return "[?]" if low is None or high is None else f"[{low:.{d}f}, {high:.{d}f}]"


def _figure_cell(fig: Figure, e: dict[str, Any] | None) -> str:
    if e is None:
        return "n/a"
    d = _decimals(fig, [_half(e["low"], e["high"])])
    return f"{e['mean']:.{d}f} {_bounds(e['low'], e['high'], d)}"


def _print_simulation(result: dict[str, Any]) -> None:
    """Figures as rows, specs as columns (``mean [low, high]``, or n/a); then, for each
    spec after the first, its differences to the first."""
    runs = result["specs"]
    names = [r["spec"] for r in runs]
    bots = ",".join(result["bots"])
    console.print(styled("[bold]{}[/]: {} games, seed {}, bots {}; mean [{} interval]; "
                         "n/a: the rule set has no such figure", ", ".join(names), result["games"],
                         result["seed"], bots, f"{result['confidence']:.0%}"))
    table = Table("figure", *names, box=None)
    table.add_row("games", *[str(r["games"]) for r in runs])
    for fig in FIGURES:
        table.add_row(fig.label, *[_figure_cell(fig, r["figures"][fig.name]) for r in runs])
    table.add_row("score unit", *[r["unit"] or "n/a" for r in runs])
    table.add_row("mean stake unit",
                  *["n/a" if r["mean_stake_unit"] is None else f"{r['mean_stake_unit']:.4g}"
                    for r in runs])

    def union(key: str) -> list[str]:
        seen: dict[str, None] = {}
        for r in runs:
            seen.update(dict.fromkeys(r[key]))
        return list(seen)

    def cell(r: dict[str, Any], key: str, name: str, fmt: str) -> str:
        value = r[key].get(name)
        return "—" if value is None else format(value, fmt)

    for kind in union("win_rate_by_bot"):
        table.add_row(f"win rate: {kind}", *[cell(r, "win_rate_by_bot", kind, ".4g") for r in runs])
    for kind in union("mean_score_by_bot"):
        table.add_row(f"mean score: {kind}",
                      *[cell(r, "mean_score_by_bot", kind, "+.4g") for r in runs])
    # events and the protocols' own counts; — : none recorded in that rule set's games
    for name in sorted(union("events_per_game")):
        table.add_row(f"per game: {name} events",
                      *[cell(r, "events_per_game", name, ".4g") for r in runs])
    for name in sorted(union("stats_per_game")):
        table.add_row(f"per game: {name.replace('_', ' ')}",
                      *[cell(r, "stats_per_game", name, ".4g") for r in runs])
    console.print(table)
    for r in runs:
        where = f" ({r['spec']})" if len(runs) > 1 else ""
        dist = r["multiple_distribution"]
        console.print(f"multiple distribution{where}: "
                      + ", ".join(f"×{k}: {v}" for k, v in dist.items()))
        dist = r["landlord_score_distribution"]
        console.print(f"landlord score distribution{where}: "
                      + ", ".join(f"{k}: {v}" for k, v in dist.items()))
    for comp in result["comparisons"]:
        _print_comparison(comp, result["confidence"])


def _print_comparison(comp: dict[str, Any], confidence: float) -> None:
    console.print()
    console.print(styled("[bold]{} − {}[/]: the difference of the means with its {} interval, "
                         "paired (per-game differences over the same games) and unpaired (Welch)",
                         comp["spec"], comp["baseline"], f"{confidence:.0%}"))
    if not comp["paired"]:
        console.print(f"{comp['reason']}: unpaired intervals only")
    table = Table("figure", "difference", "paired", "unpaired", "paired/unpaired width", box=None)
    for fig in FIGURES:
        e = comp["figures"][fig.name]
        if e is None:
            table.add_row(fig.label, "n/a", "n/a", "n/a", "")
            continue
        un, pa = e["unpaired"], e["paired"]
        d = _decimals(fig, [_half(iv["low"], iv["high"]) for iv in (un, pa) if iv is not None])
        paired = "n/a (not paired)" if pa is None else _bounds(pa["low"], pa["high"], d)
        ratio = "" if e["narrowing"] is None else f"{e['narrowing']:.2f}"
        table.add_row(fig.label, f"{e['difference']:+.{d}f}", paired,
                      _bounds(un["low"], un["high"], d), ratio)
    console.print(table)


@main.command("match")
@click.argument("spec", metavar="SPEC")
@click.option("--games", type=int, default=10, show_default=True)
@click.option("--seed", type=SEED, default=0, show_default=True)
@click.option("--bots", default="heuristic", show_default=True,
              help=f"Bot per seat, comma-separated ({', '.join(BOTS)}).")
@click.option("--holdings", type=int, default=None,
              help="Beans each seat starts with; carried from game to game (bean settlements).")
@plugin_option
@json_option
@user_errors
def match_cmd(spec: str, games: int, seed: int, bots: str, holdings: int | None,
              plugins: tuple[str, ...], as_json: bool) -> None:
    """Play a match of consecutive all-bot games and report the totals and the winner."""
    with user_plugins(plugins):
        _match(spec, games, seed, bots, holdings, plugins, as_json)


def _match(spec: str, games: int, seed: int, bots: str, holdings: int | None,
           plugins: tuple[str, ...], as_json: bool) -> None:
    from .runtime import MatchInfo

    rules = load_rules(spec, plugins)
    kinds = [k.strip() for k in bots.split(",")]
    kinds = (kinds * rules.players)[: rules.players]
    if games < 1:
        raise DdzError("--games must be at least 1")
    totals = [0] * rules.players
    rows = []
    previous: int | None = None  # the seat out first in the last game (first-leader by: previous-winner)
    for i in range(games):
        gseed = game_seed(seed, i)
        held = tuple(holdings + t for t in totals) if holdings is not None else None
        agents = [make_bot(kinds[s], gseed + 101 * (s + 1)) for s in range(rules.players)]
        game = play_game(rules, agents, gseed, MatchInfo(i, seed, held, previous_winner=previous))
        assert game.scores is not None
        totals = [t + v for t, v in zip(totals, game.scores)]
        rows.append({"game": i + 1, "seed": gseed, "landlord": game.landlord, "stake": game.stake,
                     "multiple": game.multiple, "landlord_won": game.landlord_won,
                     "first_leader": game.first_leader, "winner": game.winner,
                     "winners": list(game.winners), "scores": game.scores})
        previous = game.winner
    best = max(totals)
    winners = [s for s, t in enumerate(totals) if t == best]
    if as_json:
        emit_json({"spec": rules.variant.name, "seed": seed, "bots": kinds, "table": rules.table_kind,
                   "games": rows, "totals": totals, "winners": winners})
        return
    seat_columns = [f"seat {s}" for s in range(rules.players)]
    if rules.table_kind == "landlord":
        table = Table("game", "landlord", "stake", "multiple", "result", *seat_columns, box=None)
        for r in rows:
            table.add_row(str(r["game"]), str(r["landlord"]), str(r["stake"]), f"×{r['multiple']:g}",
                          "landlord" if r["landlord_won"] else "farmers", *[f"{v:+d}" for v in r["scores"]])
    else:  # no landlord: who led, who went out first, which side won
        table = Table("game", "leads", "out first", "multiple", "winners", *seat_columns, box=None)
        for r in rows:
            table.add_row(str(r["game"]), f"seat {r['first_leader']}", f"seat {r['winner']}",
                          f"×{r['multiple']:g}", seats_phrase(r["winners"]), *[f"{v:+d}" for v in r["scores"]])
    table.add_row("total", "", "", "", "", *[styled("[bold]{}[/]", f"{t:+d}") for t in totals])
    console.print(styled("[bold]{}[/]: a match of {} games, seed {}, bots {}", rules.variant.name, games, seed,
                         ",".join(kinds)))
    console.print(table)
    names = " and ".join(f"seat {s} ({kinds[s]})" for s in winners)
    console.print(f"match winner: {names} with {best:+d}" + (" (tie)" if len(winners) > 1 else ""))
