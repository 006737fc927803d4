"""CLI commands that play many all-bot games: ``simulate`` (figures with intervals,
several specs compared on the same seeded games) and ``match`` (consecutive games,
totals and the winner) — and the options every command that plays games shares
(``diff --games`` too): ``--games``, ``--seed``, ``--bots``, ``--workers``, one policy
checked in one place (:func:`check_run`), and :func:`stop_on_signal`, which turns
Ctrl-C or SIGTERM into one line and exit status 130 or 143."""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any, TypeVar

import click
from rich.table import Table

from ddzrules.bots import BOTS, check_bot, make_bot
from ddzrules.cli import (
    backend_options,
    check_backend,
    check_seed,
    console,
    err_console,
    game_progress,
    json_option,
    main,
    plugin_option,
    spec_inputs,
    styled,
    user_errors,
    user_plugins,
)
from ddzrules.cli.game import check_bots_for, load_rules
from ddzrules.errors import DdzError, brief
from ddzrules.game.narration import seats_phrase
from ddzrules.outputs import check_output_path, write_file
from ddzrules.simulate import (
    FIGURES,
    MAX_WORKERS,
    WORKERS_PER_CPU,
    check_workers,
    compare_specs,
    difference_cells,
    figure_cell,
    game_seed,
    play_counts_text,
    play_game,
    seat_bots,
    significant,
)
from ddzrules.simulate.stats import dumps_finite

F = TypeVar("F", bound=Callable[..., Any])

# ====================================================================== the shared run options

#: the most games one run may ask for (per spec): at about 6 ms a game, a week of one
#: core — past it an extra zero or three is likelier than a wish
MAX_GAMES = 100_000_000
#: the beans a seat may start a match with: 0 (a seat with none) to what a game record
#: stores (a negative holding would be a debt, which no settlement plugin reads)
MAX_HOLDINGS = 2**63 - 1
_BOT_NAMES = ", ".join(BOTS)


def games_option(default: int | None, what: str = "Games to play") -> Callable[[F], F]:
    """``--games N``: 1 to :data:`MAX_GAMES` (checked by :func:`check_run`)."""
    tail = "" if default is not None else " Without it no games are played."
    return click.option("--games", type=int, default=default, show_default=default is not None,
                        help=f"{what}: 1 to {MAX_GAMES:,}.{tail}")


def seed_option(default: int) -> Callable[[F], F]:
    """``--seed S``: the run's seed, 0 to 2**63 − 1."""
    return click.option("--seed", type=int, default=default, show_default=True,
                        help="The run's seed, 0 to 2**63-1: game i is dealt, and its bots seeded, "
                             "from (seed, i), so the same seed plays the same games.")


def bots_option(default: str) -> Callable[[F], F]:
    """``--bots``: one name means every seat; comma-separated names go seat by seat and
    are repeated to fill the seats."""
    return click.option("--bots", default=default, show_default=True,
                        help=f"The bot of each seat ({_BOT_NAMES}; options after colons, e.g. "
                             "search:iters=400 or search:ms=50): one name means every seat; "
                             "comma-separated names go seat by seat from seat 0, repeated to fill "
                             "the seats.")


def workers_option(fn: F) -> F:
    """``--workers K``: 1 to ``min(256, 4 × usable CPUs)`` (:func:`ddzrules.simulate.worker_limit`)."""
    return click.option("--workers", type=int, default=None,
                        help=f"Worker processes (default 1), at most {WORKERS_PER_CPU} per CPU and "
                             f"{MAX_WORKERS} in all; with --backend ray and no --address, the CPUs "
                             "of the local Ray (default: every core). The figures do not depend on it.")(fn)


def parse_bots(text: str) -> list[str]:
    """The bot names of ``--bots``: one, or one per seat, comma-separated; a
    :class:`DdzError` for an empty name or an unknown one."""
    names = [k.strip() for k in text.split(",")]
    if not all(names):
        raise DdzError(f"--bots {brief(text)}: a bot name per seat, comma-separated ({_BOT_NAMES})")
    for name in names:
        try:
            check_bot(name)
        except ValueError as e:
            raise DdzError(f"--bots: {e}") from None
    return names


def check_run(games: int | None, seed: int, bots: str, workers: int | None = None) -> list[str]:
    """The one check of the run options of ``simulate``, ``match`` and ``diff``: games
    1 to :data:`MAX_GAMES` (None: the command plays none), a seed 0 to 2**63 − 1
    (:func:`ddzrules.cli.check_seed`), known bots, and workers within
    :func:`ddzrules.simulate.worker_limit` — refused with a :class:`DdzError` before any
    work, never quietly changed. Returns the bot names."""
    if games is not None and not 1 <= games <= MAX_GAMES:
        raise DdzError(f"--games must be between 1 and {MAX_GAMES:,}, not {brief(games)}")
    check_seed(seed)
    kinds = parse_bots(bots)
    try:
        check_workers(workers, "--workers")
    except ValueError as e:
        raise DdzError(str(e)) from None
    return kinds


def emit_finite_json(data: Any) -> None:
    """The JSON of a run: never NaN or Infinity (a ValueError saying where, instead)."""
    click.echo(dumps_finite(data, ensure_ascii=False, indent=2))


# ====================================================================== Ctrl-C and SIGTERM


class Interrupted(KeyboardInterrupt):
    """SIGINT or SIGTERM during a command that plays games. A KeyboardInterrupt, so
    that every ``finally`` on the way out runs as for Ctrl-C (the worker pool is
    terminated) and no ``except Exception`` catches it."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


@contextmanager
def stop_on_signal(command: str, kept: str | None = None) -> Iterator[None]:
    """Run a command's work so that Ctrl-C (SIGINT) or SIGTERM stops it with one line on
    stderr — ``interrupted by SIGINT: simulate stopped, nothing written`` — and exit
    status 128 + the signal (130, 143): no traceback, no "Aborted!", workers stopped.
    Further signals while it stops are ignored. (Signals are the main thread's only:
    elsewhere the work runs as it is.)"""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def on_signal(signum: int, frame: FrameType | None) -> None:
        for s in (signal.SIGINT, signal.SIGTERM):
            signal.signal(s, signal.SIG_IGN)
        raise Interrupted(signum)

    previous = {s: signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    except KeyboardInterrupt as e:
        signum = e.signum if isinstance(e, Interrupted) else signal.SIGINT
        if kept is None:
            err_console.print(styled("interrupted by {}: {} stopped, nothing written",
                                     signal.Signals(signum).name, command))
        else:  # duel --record: the deals finished are in the record, and the same command resumes
            err_console.print(styled("interrupted by {}: {} stopped; the deals finished are kept in {} "
                                     "(the same command resumes)", signal.Signals(signum).name, command, kept))
        sys.exit(128 + signum)
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler if handler is not None else signal.SIG_DFL)


# ====================================================================== simulate


def _check_html(path: str | None, specs: tuple[str, ...]) -> Any:
    if path is None:
        return None
    return check_output_path(path, "--html", spec_inputs(*specs))


@main.command()
@click.argument("specs", metavar="SPEC...", nargs=-1, required=True)
@games_option(1000)
@seed_option(0)
@workers_option
@bots_option("random")
@backend_options
@click.option("--html", "html_path", default=None, metavar="FILE",
              help="Also write the report as one self-contained HTML file (how the games were made, "
                   "every figure, every difference drawn).")
@plugin_option
@json_option
@user_errors
def simulate(specs: tuple[str, ...], games: int, seed: int, workers: int | None, bots: str,
             backend: str, address: str | None, html_path: str | None, plugins: tuple[str, ...],
             as_json: bool) -> None:
    """Play many all-bot games and summarise them, every figure with its 95% interval.

    With several SPECs every spec plays the same seeded games (same deals where the
    decks match, same bots) and each is compared with the first: the paired
    difference and, for comparison, the unpaired one. Same seed → same figures, any
    --workers. See docs/simulation.md.
    """
    kinds = check_run(games, seed, bots, workers)
    check_backend(backend, address)
    html = _check_html(html_path, specs)  # before the games: not a directory, a FIFO, a missing folder
    with stop_on_signal("simulate"), user_plugins(plugins):
        for spec in specs if plugins else ():
            load_rules(spec, plugins)  # a --plugin class that fails is a plain error
        result = _simulate(specs, games, seed, workers, kinds, backend, address)
        if html is not None:
            from ddzrules.diff.html import render_games_html

            write_file(html, render_games_html(result), "--html")
    if as_json:
        emit_finite_json(result["specs"][0] if len(specs) == 1 else result)
        return
    _print_simulation(result)


def _simulate(specs: tuple[str, ...], games: int, seed: int, workers: int | None,
              kinds: list[str], backend: str = "local",
              address: str | None = None) -> dict[str, Any]:
    with game_progress(f"simulating {', '.join(specs)}", games) as advance:
        return compare_specs(list(specs), games, seed, kinds, workers, progress=advance,
                             backend=backend, address=address)


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
        table.add_row(fig.label, *[figure_cell(fig, r["figures"][fig.name]) for r in runs])
    table.add_row("score unit", *[r["unit"] or "n/a" for r in runs])
    table.add_row("mean stake unit", *[significant(r["mean_stake_unit"]) for r in runs])

    def union(key: str) -> list[str]:
        seen: dict[str, None] = {}
        for r in runs:
            seen.update(dict.fromkeys(r[key]))
        return list(seen)

    def cell(r: dict[str, Any], key: str, name: str, sign: bool = False) -> str:
        value = r[key].get(name)
        return "—" if value is None else significant(value, sign=sign)

    for kind in union("win_rate_by_bot"):
        table.add_row(f"win rate: {kind}", *[cell(r, "win_rate_by_bot", kind) for r in runs])
    for kind in union("mean_score_by_bot"):
        table.add_row(f"mean score: {kind}", *[cell(r, "mean_score_by_bot", kind, sign=True) for r in runs])
    # events and the protocols' own counts; — : none recorded in that rule set's games
    for name in sorted(union("events_per_game")):
        table.add_row(f"per game: {name} events", *[cell(r, "events_per_game", name) for r in runs])
    for name in sorted(union("stats_per_game")):
        table.add_row(f"per game: {name.replace('_', ' ')}",
                      *[cell(r, "stats_per_game", name) for r in runs])
    console.print(table)
    for r in runs:
        where = f" ({r['spec']})" if len(runs) > 1 else ""
        dist = r["multiple_distribution"]
        console.print(f"multiple distribution{where}: "
                      + ", ".join(f"×{k}: {v}" for k, v in dist.items()))
        dist = r["landlord_score_distribution"]
        console.print(f"landlord score distribution{where}: "
                      + ", ".join(f"{k}: {v}" for k, v in dist.items()))
    console.print(play_counts_text(result), markup=False, soft_wrap=True)
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
        table.add_row(fig.label, *difference_cells(fig, comp["figures"][fig.name]))
    console.print(table)


@main.command("match")
@click.argument("spec", metavar="SPEC")
@games_option(10, "Games of the match")
@seed_option(0)
@bots_option("heuristic")
@click.option("--holdings", type=int, default=None,
              help="Beans each seat starts with, 0 to 2**63-1; carried from game to game (bean settlements).")
@plugin_option
@json_option
@user_errors
def match_cmd(spec: str, games: int, seed: int, bots: str, holdings: int | None,
              plugins: tuple[str, ...], as_json: bool) -> None:
    """Play a match of consecutive all-bot games and report the totals and the winner."""
    names = check_run(games, seed, bots)
    if holdings is not None and not 0 <= holdings <= MAX_HOLDINGS:
        raise DdzError(f"--holdings must be between 0 and 2**63-1 beans, not {brief(holdings)}")
    with stop_on_signal("match"), user_plugins(plugins):
        _match(spec, games, seed, names, holdings, plugins, as_json)


def _match(spec: str, games: int, seed: int, names: list[str], holdings: int | None,
           plugins: tuple[str, ...], as_json: bool) -> None:
    from ddzrules.runtime import MatchInfo

    rules = load_rules(spec, plugins)
    kinds = seat_bots(names, rules.players)
    check_bots_for(rules, kinds)
    totals = [0] * rules.players
    rows: list[dict[str, Any]] = []
    previous: int | None = None  # the seat out first in the last game (first-leader by: previous-winner)
    gathered: tuple[int, ...] | None = None  # its cards as picked up (a no-shuffle deal deals them)
    for i in range(games):
        gseed = game_seed(seed, i)
        held = tuple(holdings + t for t in totals) if holdings is not None else None
        agents = [make_bot(kinds[s], gseed + 101 * (s + 1)) for s in range(rules.players)]
        game = play_game(rules, agents, gseed, MatchInfo(i, seed, held, previous_winner=previous,
                                                         previous_cards=gathered))
        assert game.scores is not None
        totals = [t + v for t, v in zip(totals, game.scores)]
        rows.append({"game": i + 1, "seed": gseed, "landlord": game.landlord, "stake": game.stake,
                     "multiple": game.multiple, "landlord_won": game.landlord_won,
                     "first_leader": game.first_leader, "winner": game.winner,
                     "winners": list(game.winners), "scores": game.scores})
        previous = game.winner
        gathered = game.gathered_cards()
    best = max(totals)
    winners = [s for s, t in enumerate(totals) if t == best]
    if as_json:
        emit_finite_json({"spec": rules.variant.name, "seed": seed, "bots": kinds, "table": rules.table_kind,
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
    who = " and ".join(f"seat {s} ({kinds[s]})" for s in winners)
    console.print(f"match winner: {who} with {best:+d}" + (" (tie)" if len(winners) > 1 else ""))


@main.command("duel")
@click.argument("spec", metavar="SPEC")
@click.option("--bots", "bots", required=True, metavar="A,B",
              help="The two bots, A then B (options after colons: search:iters=400).")
@click.option("--deals", type=int, default=100, show_default=True,
              help="Deals to play (each is several games): 1 to 1,000,000.")
@seed_option(0)
@click.option("--protocol", type=click.Choice(["duplicate", "douzero"]), default="duplicate", show_default=True,
              help="duplicate: B everywhere, then A at each seat in turn (any spec); douzero: no bidding, a "
                   "fixed landlord, A as landlord then as farmers (landlord tables).")
@click.option("--record", "record", default=None, metavar="FILE",
              help="Append each deal to FILE as it finishes, and resume from the deals it holds "
                   "(a long duel survives being stopped; the figures are those of one run).")
@workers_option
@backend_options
@plugin_option
@json_option
@user_errors
def duel_cmd(spec: str, bots: str, deals: int, seed: int, protocol: str, record: str | None, workers: int | None,
             backend: str, address: str | None, plugins: tuple[str, ...], as_json: bool) -> None:
    """Two bots on the same deals: A's gain over B, with paired 95% intervals, and each bot's decision time."""
    from ddzrules.simulate.duel import checked_duel, format_duel

    names = parse_bots(bots)
    if len(names) != 2:
        raise DdzError(f"--bots {brief(bots)}: two bots, A,B (e.g. search,heuristic)")
    check_seed(seed)
    check_backend(backend, address)
    with stop_on_signal("duel", record), user_plugins(plugins):
        load_rules(spec, plugins)  # a bad spec or plugin fails here, before any game
        with game_progress(f"duel on {spec}", deals) as advance:
            result = checked_duel(spec, names[0], names[1], deals, seed, protocol, progress=advance,
                                  workers=workers, backend=backend, address=address, record=record)
    if as_json:
        emit_finite_json(result)
        return
    console.print(format_duel(result), markup=False, soft_wrap=True)
