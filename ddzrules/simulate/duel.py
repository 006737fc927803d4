"""Two bots on the same deals: how much better A plays a spec than B.

* ``duplicate`` (any spec): deal ``i`` is played once with B in every seat, then once per
  seat ``s`` with A at ``s`` and B elsewhere; A's gain is its result at ``s`` minus B's at
  the same seat of the same deal (won or not, and score), averaged over the seats of a
  deal, with paired 95% intervals over the deals (deals are independent; the seats of one
  deal are not). Split by A's role where the table has roles.
* ``douzero`` (landlord tables): no bidding, a fixed landlord with the kitty (seat 0) as
  DouZero and PerfectDou evaluate; A as landlord against B farmers, and B as landlord
  against A farmers, on the same deal. WP is A's share of games won, ADP the mean points
  A's side scores a game (the landlord's, or the farmers' together; zero-sum tables make
  it the difference DouZero's "average difference in points" means).

The figures are of the two bots that played them, and every result names them.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from typing import Any

import ddzrules
from ddzrules.bots import check_bot, make_bot, parse_bot
from ddzrules.errors import DdzError, brief
from ddzrules.runtime import Action, Game, GameRules, MatchInfo, PlayerView
from ddzrules.simulate.backends import get_backend
from ddzrules.simulate.duel_record import Deal, DuelRecord
from ddzrules.simulate.games import game_seed, prelude_cards
from ddzrules.simulate.stats import CONFIDENCE, Moments, moments_interval, wilson_interval

PROTOCOLS = ("duplicate", "douzero")
#: the landlord's seat under the douzero protocol
DOUZERO_LANDLORD = 0
#: the most deals of one duel (each is several games)
MAX_DEALS = 1_000_000


class _Timed:
    """An agent whose decision times are kept (only decisions with a choice: a forced
    action costs no thought)."""

    def __init__(self, agent: Any, times: list[float]) -> None:
        self.agent = agent
        self.times = times

    def act(self, view: PlayerView, legal: list[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        start = time.perf_counter()
        choice: Action = self.agent.act(view, legal)
        self.times.append(time.perf_counter() - start)
        return choice


def _play(rules: GameRules, kinds: Sequence[str], seed: int, index: int, times: dict[str, list[float]],
          landlord: int | None = None, previous: tuple[int, ...] | None = None) -> Game:
    gseed = game_seed(seed, index)
    agents = [_Timed(make_bot(k, gseed + 101 * (s + 1)), times.setdefault(k, [])) for s, k in enumerate(kinds)]
    game = rules.new_game(gseed, MatchInfo(index, seed, previous_cards=previous), landlord=landlord)
    while not game.over:
        seat = game.to_act
        assert seat is not None
        game.apply(agents[seat].act(game.view(seat), game.legal_actions()))
    return game


def _won(game: Game, seat: int) -> float:
    return 1.0 if seat in game.winners else 0.0


def _role(game: Game, seat: int) -> str | None:
    if game.landlord is None:
        return None
    return "landlord" if seat == game.landlord else "farmer"


def _interval(m: Moments, confidence: float) -> list[float | None]:
    d = moments_interval(m, confidence).to_dict()
    return [d["low"], d["high"]]


def _timing(times: list[float]) -> dict[str, float | int | None]:
    if not times:
        return {"decisions": 0, "median": None, "p95": None, "max": None}
    ordered = sorted(times)
    return {"decisions": len(ordered), "median": 1000 * statistics.median(ordered),
            "p95": 1000 * ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], "max": 1000 * ordered[-1]}


def check_duel(rules: GameRules, bot_a: str, bot_b: str, deals: int, protocol: str) -> None:
    """A ValueError saying what is wrong with a duel before any game is played."""
    for bot in (bot_a, bot_b):
        check_bot(bot, rules)
    if protocol not in PROTOCOLS:
        raise ValueError(f"unknown protocol {brief(protocol)}; choose from {', '.join(PROTOCOLS)}")
    if isinstance(deals, bool) or not isinstance(deals, int) or not 1 <= deals <= MAX_DEALS:
        raise ValueError(f"deals must be 1 to {MAX_DEALS:,}, not {brief(deals)}")
    if protocol == "douzero" and rules.table_kind != "landlord":
        raise ValueError(f"the douzero protocol needs a landlord table; {rules.variant.name} is a "
                         f"{rules.table_kind} table (use --protocol duplicate)")


def duel(spec: str, bot_a: str, bot_b: str, deals: int, seed: int, protocol: str = "duplicate",
         confidence: float = CONFIDENCE, progress: Callable[[int, int], None] | None = None,
         workers: int | None = None, backend: str = "local", address: str | None = None,
         record: str | os.PathLike[str] | None = None) -> dict[str, Any]:
    """Play a duel of ``bot_a`` against ``bot_b`` on ``deals`` deals of ``spec`` seeded
    ``seed`` (deal ``i`` is the game seed ``game_seed(seed, i)``); the result as a dict
    (see the module's docstring for the protocols). ``progress(done, deals)`` as each
    deal finishes; ``workers`` processes share the deals (None: 1), or Ray tasks with
    ``backend="ray"`` (``address`` a cluster to join), the figures the same whatever plays
    them (decision times aside). With ``record`` (a file, see
    :mod:`~ddzrules.simulate.duel_record`) each deal is appended as it finishes and the
    deals it holds already are not played again: a stopped duel resumes, with the
    figures of one played at once."""
    rules = GameRules.load(spec)
    check_duel(rules, bot_a, bot_b, deals, protocol)
    where = get_backend(backend)
    where.check(workers, address)
    head: dict[str, Any] = {
        "spec": rules.variant.name, "protocol": protocol, "deals": deals, "seed": seed,
        "bots": {"a": bot_a, "b": bot_b},
        "bot_options": {"a": parse_bot(bot_a)[1], "b": parse_bot(bot_b)[1]},
        "confidence": confidence, "workers": workers or 1, "backend": backend,
    }
    recorded: dict[int, Deal] = {}
    # the figures from every deal in deal order (a resumed duel's are a duel's played at
    # once), streamed: only the recorded deals are held
    times: dict[str, list[float]] = {"a": [], "b": []}
    agg = _Douzero(rules.players) if protocol == "douzero" else _Duplicate()
    with ExitStack() as held:
        log = None
        if record is not None:
            # the version too: another version's bots may play other moves
            log = held.enter_context(DuelRecord(record, {
                "spec": rules.variant.name, "spec_hash": rules.variant.rules.content_hash, "protocol": protocol,
                "seed": seed, "bots": [bot_a, bot_b], "players": rules.players, "ddzrules": ddzrules.__version__},
                landlord_table=rules.table_kind == "landlord"))
            recorded = log.read(deals)
            head["recorded"] = len(recorded)
        # the deals to play, as runs of indices (a few: a record is written in deal order)
        todo = _runs([i for i in range(deals) if i not in recorded]) if recorded else ((0, deals),)
        # a spec file as an absolute path: Ray's workers may not share this directory
        task = (os.path.abspath(spec) if os.path.isfile(spec) else spec, bot_a, bot_b, seed, protocol)
        count = sum(stop - start for start, stop in todo)
        done = len(recorded)
        if progress is not None and done:
            progress(done, deals)
        # (none left to play: no backend needed, the figures come from the record)
        results = where.map(play_deal_runs, (task, todo), count, workers, address) if count else iter(())
        for i in range(deals):
            deal = recorded.pop(i, None)
            if deal is None:  # the next deal played: the map yields the deals to play in order
                deal = next(results)
                if log is not None:
                    log.append(i, deal[0], deal[1])
                done += 1
                if progress is not None:
                    progress(done, deals)
            outcome, spent = deal
            agg.add(outcome)
            for side in ("a", "b"):
                times[side] += spent[side]
    return {**head, **agg.result(deals, confidence),
            "decision_ms": {"a": _timing(times["a"]), "b": _timing(times["b"])}}


def _runs(indices: list[int]) -> tuple[tuple[int, int], ...]:
    """Ascending ``indices`` as (start, stop) runs of consecutive ones."""
    runs: list[tuple[int, int]] = []
    for i in indices:
        if runs and runs[-1][1] == i:
            runs[-1] = (runs[-1][0], i + 1)
        else:
            runs.append((i, i + 1))
    return tuple(runs)


def _deal_at(runs: Sequence[tuple[int, int]], j: int) -> int:
    """The ``j``-th deal of ``runs`` (a linear pass: a duel's record leaves a few runs, at
    most :data:`~ddzrules.simulate.duel_record.MAX_GAPS`)."""
    for start, stop in runs:
        if j < stop - start:
            return start + j
        j -= stop - start
    raise IndexError(j)


#: the rules of the deals played in this process, by spec (a worker loads each once)
_rules: dict[str, GameRules] = {}


def _play_deal(task: tuple[str, str, str, int, str], index: int) -> tuple[Any, dict[str, list[float]]]:
    """One deal of a duel: what the protocol keeps of its games, and each side's decision times."""
    spec, a, b, seed, protocol = task
    rules = _rules.get(spec)
    if rules is None:
        rules = _rules[spec] = GameRules.load(spec)
    times: dict[str, list[float]] = {}
    n = rules.players
    # a deal that deals the last game's cards (不洗牌): one game before the deal, by B, for all
    previous = prelude_cards(rules, [b] * n, game_seed(seed, index), MatchInfo(index, seed))
    if protocol == "douzero":
        lord = DOUZERO_LANDLORD
        games = [(_play(rules, [a if s == lord else b for s in range(n)], seed, index, times, lord, previous),
                  [lord]),
                 (_play(rules, [b if s == lord else a for s in range(n)], seed, index, times, lord, previous),
                  [s for s in range(n) if s != lord])]
        outcome: Any = [(any(s in g.winners for s in seats), float(sum(g.scores[s] for s in seats)))
                        for g, seats in games if g.scores is not None]
    else:
        base = _play(rules, [b] * n, seed, index, times, previous=previous)
        seats = []
        for s in range(n):
            game = _play(rules, [a if t == s else b for t in range(n)], seed, index, times, previous=previous)
            assert game.scores is not None and base.scores is not None
            seats.append((_won(game, s) - _won(base, s), float(game.scores[s] - base.scores[s]), _role(game, s)))
        outcome = seats
    # a bot spec named twice (A = B) plays both sides: its times are both sides'
    return outcome, {"a": times.get(a, []), "b": times.get(b, []) if b != a else times.get(a, [])}


def play_deal_runs(task: tuple[str, str, str, int, str], runs: Sequence[tuple[int, int]], start: int,
                   stop: int) -> list[tuple[Any, dict[str, list[float]]]]:
    """The ``start``-th to ``stop - 1``-th deals of ``runs`` (the deals a duel still has to
    play; a backend's task)."""
    return [_play_deal(task, _deal_at(runs, j)) for j in range(start, stop)]


class _Duplicate:
    """A duplicate duel's figures, deal by deal: A's gains averaged over a deal's seats."""

    def __init__(self) -> None:
        self.win, self.score = Moments(), Moments()
        self.by_role: dict[str, tuple[Moments, Moments]] = {}

    def add(self, seats: list[tuple[float, float, str | None]]) -> None:
        for w, g, role in seats:
            if role is not None:
                rw, rs = self.by_role.setdefault(role, (Moments(), Moments()))
                rw.add(w)
                rs.add(g)
        self.win.add(sum(w for w, _, _ in seats) / len(seats))
        self.score.add(sum(g for _, g, _ in seats) / len(seats))

    def result(self, deals: int, confidence: float) -> dict[str, Any]:
        out: dict[str, Any] = {
            "win_rate_gain": self.win.mean, "win_rate_gain_ci": _interval(self.win, confidence),
            "score_gain": self.score.mean, "score_gain_ci": _interval(self.score, confidence),
            "score_unit": "the spec's points per game",
        }
        if self.by_role:
            # within a role the games of one deal are not independent: intervals as if they were
            out["by_role"] = {role: {"games": rw.n, "win_rate_gain": rw.mean,
                                     "win_rate_gain_ci": _interval(rw, confidence), "score_gain": rs.mean,
                                     "score_gain_ci": _interval(rs, confidence)}
                              for role, (rw, rs) in sorted(self.by_role.items())}
        return out


class _Douzero:
    """A douzero duel's figures: A's wins as landlord and as farmers, the points its side scores."""

    def __init__(self, players: int) -> None:
        self.wins = {"landlord": 0, "farmers": 0}
        self.adp = Moments()

    def add(self, games: list[tuple[bool, float]]) -> None:
        for (won, points), side in zip(games, ("landlord", "farmers")):
            self.wins[side] += won
            self.adp.add(points)

    def result(self, deals: int, confidence: float) -> dict[str, Any]:
        total = self.wins["landlord"] + self.wins["farmers"]
        iv = wilson_interval(total, 2 * deals, confidence).to_dict()
        return {
            "win_rate": total / (2 * deals), "win_rate_ci": [iv["low"], iv["high"]],
            "win_rate_landlord": self.wins["landlord"] / deals, "win_rate_farmers": self.wins["farmers"] / deals,
            "adp": self.adp.mean, "adp_ci": _interval(self.adp, confidence),
            "landlord_seat": DOUZERO_LANDLORD, "stake": "1 (no bidding)",
        }


def format_duel(result: dict[str, Any]) -> str:
    """The duel as text: what was played, by which bots, and A's figures with intervals."""
    def pct(x: float | None) -> str:
        return "n/a" if x is None else f"{100 * x:+.1f}%"

    def ci(pair: list[float | None], f: Callable[[float | None], str]) -> str:
        return f"[{f(pair[0])}, {f(pair[1])}]"

    def num(x: float | None) -> str:
        return "n/a" if x is None else f"{x:+.3f}"

    bots = result["bots"]
    lines = [(f"duel on {result['spec']}: A = {bots['a']} against B = {bots['b']}, {result['deals']} deals, "
              f"seed {result['seed']}, protocol {result['protocol']}"),
             "(figures of these two bots on this spec: they say how the bots play it, not what the rules are)"]
    if result.get("recorded"):
        lines.insert(1, f"({result['recorded']} of the deals read from the duel's record, played before)")
    if result["protocol"] == "douzero":
        share = ci(result["win_rate_ci"], lambda x: "n/a" if x is None else f"{100 * x:.1f}%")
        lines += [f"  WP (A's share of games won)   {100 * result['win_rate']:.1f}%  {share}",
                  (f"  as landlord {100 * result['win_rate_landlord']:.1f}%, as farmers "
                   f"{100 * result['win_rate_farmers']:.1f}%"),
                  f"  ADP (the points A's side scores, a game)  {num(result['adp'])}  {ci(result['adp_ci'], num)}"]
    else:
        lines += [(f"  win-rate gain of A over B, same seat and deal   {pct(result['win_rate_gain'])}  "
                   f"{ci(result['win_rate_gain_ci'], pct)}"),
                  (f"  score gain ({result['score_unit']})   {num(result['score_gain'])}  "
                   f"{ci(result['score_gain_ci'], num)}")]
        for role, r in result.get("by_role", {}).items():
            lines.append(f"    as {role} ({r['games']} games): win rate {pct(r['win_rate_gain'])} "
                         f"{ci(r['win_rate_gain_ci'], pct)}, score {num(r['score_gain'])} "
                         f"{ci(r['score_gain_ci'], num)}")
    for side in ("a", "b"):
        t = result["decision_ms"][side]
        if t["decisions"]:
            lines.append(f"  decision time of {bots[side]}: median {t['median']:.1f} ms, p95 {t['p95']:.1f} ms, "
                         f"max {t['max']:.1f} ms over {t['decisions']} decisions with a choice")
    return "\n".join(lines)


def checked_duel(spec: str, bot_a: str, bot_b: str, deals: int, seed: int, protocol: str,
                 progress: Callable[[int, int], None] | None = None, workers: int | None = None,
                 backend: str = "local", address: str | None = None,
                 record: str | os.PathLike[str] | None = None) -> dict[str, Any]:
    """:func:`duel`, a bad argument a DdzError (for the command line)."""
    try:
        return duel(spec, bot_a, bot_b, deals, seed, protocol, progress=progress, workers=workers,
                    backend=backend, address=address, record=record)
    except ValueError as e:
        raise DdzError(str(e)) from None
