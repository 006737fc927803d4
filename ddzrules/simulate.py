"""Driving games with agents: one game, or many in parallel with a summary.

Game ``i`` of a simulation with seed ``S`` uses its own seed derived from
``(S, i)`` and sits at index ``i`` of a match seeded by ``S``; so the figures do
not depend on how many worker processes share the games.
"""

from __future__ import annotations

import hashlib
import statistics
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from .bots import Agent, make_bot
from .runtime import Game, GameRules, MatchInfo


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a run seeded ``seed`` (stable across Python versions)."""
    digest = hashlib.sha256(f"ddzrules:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def play_game(rules: GameRules, agents: Sequence[Agent], seed: int, match: MatchInfo | None = None,
              on_action: Callable[[Game, Any], None] | None = None) -> Game:
    """Play one whole game; each seat's agent chooses among the legal actions."""
    game = rules.new_game(seed, match)
    while not game.over:
        seat = game.to_act
        assert seat is not None
        legal = game.legal_actions()
        action = agents[seat].act(game.view(seat), legal)
        game.apply(action)
        if on_action is not None:
            on_action(game, action)
    return game


@dataclass
class GameSummary:
    """The figures of one game that a simulation aggregates."""

    index: int
    landlord: int
    landlord_won: bool
    multiple: float
    bombs: int
    spring: bool
    anti_spring: bool
    plays: int
    redeals: int
    stake: int
    scores: list[int]
    events: dict[str, int] = field(default_factory=dict)
    stats: dict[str, float] = field(default_factory=dict)


def summarise(game: Game, index: int) -> GameSummary:
    assert game.landlord is not None and game.scores is not None
    plays = sum(1 for a in game.history if a.kind == "play")
    bombs = sum(1 for ms in game.played for m in ms if m.is_bomb)
    names = Counter(e.name for e in game.events)
    return GameSummary(index, game.landlord, bool(game.landlord_won), game.multiple, bombs,
                       names["spring"] > 0, names["anti_spring"] > 0, plays, len(game.redeal_reasons),
                       game.stake, list(game.scores), dict(names), dict(game.stats))


# per-process state of the worker pool
_worker_rules: GameRules | None = None
_worker_bots: list[str] = []


def _init_worker(spec: str, bots: list[str]) -> None:
    global _worker_rules, _worker_bots
    _worker_rules = GameRules.load(spec)
    _worker_bots = bots


def _run_one(args: tuple[int, int]) -> GameSummary:
    seed, index = args
    assert _worker_rules is not None
    gseed = game_seed(seed, index)
    agents = [make_bot(kind, gseed + 101 * (i + 1)) for i, kind in enumerate(_worker_bots)]
    game = play_game(_worker_rules, agents, gseed, MatchInfo(index, seed))
    return summarise(game, index)


def run_games(spec: str, games: int, seed: int, bots: list[str], workers: int = 1) -> Iterator[GameSummary]:
    """Yield the summaries of ``games`` games in index order."""
    jobs = [(seed, i) for i in range(games)]
    if workers <= 1:
        _init_worker(spec, bots)
        for job in jobs:
            yield _run_one(job)
        return
    import multiprocessing as mp

    ctx = mp.get_context("spawn")
    with ctx.Pool(workers, initializer=_init_worker, initargs=(spec, bots)) as pool:
        yield from pool.imap(_run_one, jobs, chunksize=max(1, min(64, games // (workers * 8) or 1)))


def aggregate(summaries: list[GameSummary], bots: list[str]) -> dict[str, Any]:
    """The simulation's figures; identical for identical summaries in the same order."""
    n = len(summaries)
    if n == 0:
        return {"games": 0}
    landlord_scores = [s.scores[s.landlord] for s in summaries]
    per_seat = [statistics.fmean(s.scores[i] for s in summaries) for i in range(len(summaries[0].scores))]
    by_bot: dict[str, list[float]] = {}
    wins_by_bot: dict[str, list[int]] = {}
    for s in summaries:
        for seat, score in enumerate(s.scores):
            kind = bots[seat] if seat < len(bots) else "?"
            by_bot.setdefault(kind, []).append(score)
            won = (seat == s.landlord) == s.landlord_won
            wins_by_bot.setdefault(kind, []).append(1 if won else 0)
    events: Counter[str] = Counter()
    stats: dict[str, float] = {}
    for s in summaries:
        events.update(s.events)
        for k, v in s.stats.items():
            stats[k] = stats.get(k, 0) + v
    dist = Counter(landlord_scores)
    return {
        "games": n,
        "landlord_win_rate": sum(s.landlord_won for s in summaries) / n,
        "mean_multiple": statistics.fmean(s.multiple for s in summaries),
        "bombs_per_game": statistics.fmean(s.bombs for s in summaries),
        "spring_rate": sum(s.spring for s in summaries) / n,
        "anti_spring_rate": sum(s.anti_spring for s in summaries) / n,
        "mean_plays": statistics.fmean(s.plays for s in summaries),
        "redeals_per_game": statistics.fmean(s.redeals for s in summaries),
        "mean_stake": statistics.fmean(s.stake for s in summaries),
        "mean_score_by_seat": per_seat,
        "mean_score_by_bot": {k: statistics.fmean(v) for k, v in by_bot.items()},
        "win_rate_by_bot": {k: statistics.fmean(v) for k, v in wins_by_bot.items()},
        "landlord_score_distribution": {str(k): dist[k] for k in sorted(dist)},
        "events_per_game": {k: events[k] / n for k in sorted(events)},
        "stats_per_game": {k: stats[k] / n for k in sorted(stats)},
    }
