"""Driving games with agents: one game, or many in parallel, summarised with intervals.

Game ``i`` of a simulation with seed ``S`` uses its own seed derived from
``(S, i)`` and sits at index ``i`` of a match seeded by ``S``; so the figures do
not depend on how many worker processes share the games.

Each finished game is reduced to a :class:`GameSummary` (its per-game figures,
:data:`FIGURES`) and fed to an :class:`Accumulator`, which keeps running sums and
distributions only — never the summaries — and gives every figure's mean with its
95% interval (:mod:`ddzrules.simulate.stats`). :func:`compare_specs` plays the *same* seeded
games under several rule sets and adds, for each rule set after the first, the
paired difference to the first. See ``docs/simulation.md``.
"""

from __future__ import annotations

import hashlib
import math
import os
import signal
import threading
import weakref
from collections import Counter
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from contextlib import closing, contextmanager
from dataclasses import dataclass, field
from typing import Any

from ddzrules import cards as C
from ddzrules.bots import BOTS, Agent, make_bot
from ddzrules.errors import DdzError, brief
from ddzrules.moves import Move
from ddzrules.runtime import Game, GameRules, MatchInfo, PluginRegistry, implemented_hooks
from ddzrules.simulate.stats import (
    CONFIDENCE,
    Moments,
    finite_or_none,
    moments_interval,
    welch_from_moments,
    wilson_interval,
)

#: a progress callback: (games finished, games in all); a "game" of a comparison is
#: one seed played under every rule set
Progress = Callable[[int, int], None]


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


def seat_bots(bots: Sequence[str], players: int) -> list[str]:
    """One bot kind per seat: ``bots`` repeated (or cut) to ``players`` seats."""
    if not bots:
        raise ValueError("at least one bot kind is needed")
    return (list(bots) * players)[:players]


# ====================================================================== figures


@dataclass(frozen=True)
class Figure:
    """A per-game figure: ``proportion`` (a yes/no per game; Wilson interval) or
    ``mean`` (a number per game; normal interval of the mean). The interval of a
    figure that cannot be negative (a count, a multiple) is cut at 0: the normal
    approximation would otherwise put the lower end of a rare count below it."""

    name: str
    kind: str
    label: str
    about: str
    nonnegative: bool = True


#: every per-game figure, in the order reports print them
FIGURES: tuple[Figure, ...] = (
    Figure("landlord_won", "proportion", "landlord win rate", "the landlord's side won the game"),
    Figure("multiple", "mean", "multiple",
           "the game's multiple: the product of its multiplier events "
           "(bombs, spring, robs, 明牌 …)"),
    Figure("bombs", "mean", "bombs",
           "bomb-class plays other than rockets (led or not, effective or not)"),
    Figure("rockets", "mean", "rockets",
           "bomb-class plays made of jokers only (王炸: XD, or XXDD with two decks), wherever "
           "the spec ranks them among its bombs"),
    Figure("spring", "proportion", "spring rate", "春天: a spring was scored"),
    Figure("anti_spring", "proportion", "anti-spring rate", "反春: an anti-spring was scored"),
    Figure("redeals", "mean", "redeals", "deals thrown in because nobody took the landlord"),
    Figure("bids", "mean", "bids",
           "landlord claims: bid (叫分), call (叫地主), take (HK 選擇當地主) "
           "and rob (抢地主) actions"),
    Figure("robs", "mean", "robs", "rob actions (抢地主, rob-back included)"),
    Figure("plays", "mean", "plays", "plays of cards (passes not counted)"),
    Figure("stake", "mean", "stake",
           "the game's stake: the winning bid, or the base a call or take sets"),
    Figure("landlord_score", "mean", "landlord score",
           "the landlord's score, in the settlement's unit", nonnegative=False),
    Figure("score_per_stake", "mean", "landlord score / stake unit",
           "the landlord's score divided by the game's stake unit (comparable across "
           "settlements)", nonnegative=False),
)
FIGURE_NAMES = tuple(f.name for f in FIGURES)
_KIND = {f.name: f.kind for f in FIGURES}
_NONNEGATIVE = {f.name for f in FIGURES if f.nonnegative}

#: the landlord-phase action kinds counted as bids, by landlord plugin. A plugin not
#: listed may declare its own as a class attribute ``bid_kinds``; otherwise its
#: rule sets have no bids figure (n/a).
BID_KINDS: dict[str, tuple[str, ...]] = {
    "point-bids": ("bid",),
    "call-rob": ("call", "rob"),
    "hk-rob": ("take", "rob"),
}


@dataclass(frozen=True)
class RuleFacts:
    """What a rule set has, so that a figure it lacks is ``None`` (n/a), never 0."""

    has_bombs: bool
    has_rockets: bool
    #: the bomb classes whose every play is made of jokers only (the rocket)
    rocket_combos: frozenset[str]
    has_spring: bool
    bid_kinds: tuple[str, ...] | None
    settlement: str | None
    unit: str | None
    #: what a comparison must share for a seed to deal the same cards
    deal_key: tuple[Any, ...]

    @property
    def has_robs(self) -> bool:
        return self.bid_kinds is not None and "rob" in self.bid_kinds


_facts_cache: weakref.WeakKeyDictionary[GameRules, RuleFacts] = weakref.WeakKeyDictionary()


def _plugin_name(inst: Any, registered: str) -> str:
    return str(getattr(inst, "name", registered))


def _is_rocket_cards(cards: str) -> bool:
    return bool(cards) and all(c in "XD" for c in cards)


def is_rocket(move: Move) -> bool:
    """A rocket: a bomb-class play made of jokers only. Decided by what was played, not
    by where the spec ranks it among its bombs: a house rule that puts a bomb class
    above the rocket still counts its rockets as rockets (wild cards never stand for a
    joker, so the cards say it)."""
    return move.is_bomb and _is_rocket_cards(move.cards)


def rule_facts(rules: GameRules) -> RuleFacts:
    """The figures a rule set has: bombs, rockets, spring, bids, robs, the score's unit."""
    cached = _facts_cache.get(rules)
    if cached is not None:
        return cached
    variant = rules.variant
    deck = variant.rules.deck
    # the rocket classes: bombs a hand of every joker of the deck can play that are made
    # of jokers only (the legal-move tables games use anyway), and whose every play of
    # the universe is such a play — a class that also has other plays ("4 | <XD>")
    # still has bombs
    jokers = [0] * len(deck)
    for j in C.JOKERS:
        jokers[j] = deck[j]
    joker_plays = Counter(m.combo for m in variant.legal_moves(C.deck_list(jokers)).moves
                          if is_rocket(m))
    per_combo = variant.census().by_combo
    bomb_classes = [c.name for c in variant.rules.combos if c.tier >= 0]
    rocket_combos = frozenset(name for name in bomb_classes
                              if joker_plays[name] and joker_plays[name] == per_combo.get(name))
    has_bombs = any(name not in rocket_combos for name in bomb_classes)
    has_spring = False
    bid_kinds: tuple[str, ...] | None = None
    settlement: str | None = None
    for role, registered, inst in rules.active:
        if role == "multipliers" and "ddzrules_on_game_end" in implemented_hooks(inst):
            has_spring = True
        if role == "landlord":
            name = _plugin_name(inst, registered)
            declared = getattr(inst, "bid_kinds", None)
            bid_kinds = tuple(declared) if declared else BID_KINDS.get(name)
        if role == "settlement":
            settlement = _plugin_name(inst, registered)
    units = {"stake-settlement": "points", "win-points": "points", "beans": "beans",
             "cards-left": "points"}
    unit = units.get(settlement or "")
    for role, _, inst in rules.active:
        if role == "settlement" and unit is None:
            unit = getattr(inst, "stake_unit_name", None)
    facts = RuleFacts(has_bombs, bool(joker_plays), rocket_combos, has_spring, bid_kinds, settlement, unit,
                      (tuple(deck), rules.players, rules.hand_size, rules.kitty_size,
                       rules.undealt))
    _facts_cache[rules] = facts
    return facts


def stake_unit(game: Game) -> tuple[float, str] | None:
    """The game's stake unit and its name: what one farmer–landlord pair settles at
    multiple 1 (no 加倍/加棒), so that ``score / unit`` compares across settlements.

    * ``stake-settlement``: ``per_farmer × stake`` points (the stake is the winning
      bid, or 3 for an HK take);
    * ``win-points``: ``points`` (the points a winner scores);
    * ``beans``: ``stake × rate × wild_factor`` beans (底分 × N, × the 癞子场 factor).

    Another settlement plugin may provide a method ``stake_unit(game) -> float`` and
    a class attribute ``stake_unit_name``; without them the answer is None.
    """
    for role, registered, inst in game.rules.active:
        if role != "settlement":
            continue
        name = _plugin_name(inst, registered)
        if name == "stake-settlement":
            return float(inst.per_farmer * game.stake), "points"
        if name == "win-points":
            return float(inst.points), "points"
        if name == "beans":
            return float(game.stake * inst.rate * inst.wild_factor), "beans"
        custom = getattr(inst, "stake_unit", None)
        if callable(custom):
            value = custom(game)
            try:
                amount = float(value)
            except (TypeError, ValueError, OverflowError):
                raise DdzError(f"settlement plugin {name!r}: stake_unit(game) must return a number, "
                               f"not {brief(value)}") from None
            return amount, str(getattr(inst, "stake_unit_name", "points"))
    return None


@dataclass
class GameSummary:
    """The figures of one game that a simulation aggregates (None: the rule set
    does not have the figure)."""

    index: int
    landlord: int | None  # None: a table without a landlord (free-for-all, partnerships)
    landlord_won: bool | None
    multiple: float
    bombs: int | None  # bomb-class plays other than rockets (is_rocket)
    spring: bool | None
    anti_spring: bool | None
    plays: int
    redeals: int
    stake: float | None  # the runtime's game.stake (an int in the bundled plugins)
    scores: list[int]
    events: dict[str, int] = field(default_factory=dict)
    stats: dict[str, float] = field(default_factory=dict)
    rockets: int | None = None
    bids: int | None = None
    robs: int | None = None
    landlord_score: int | None = 0
    stake_unit: float | None = None
    unit: str | None = None
    score_per_stake: float | None = None
    #: the seats of the winning side (the first out's: the landlord or the farmers, a team,
    #: or the winner alone)
    winners: tuple[int, ...] = ()

    def figures(self) -> dict[str, float | None]:
        """Every figure of :data:`FIGURES`: booleans as 0/1, None where n/a."""
        out: dict[str, float | None] = {}
        for name in FIGURE_NAMES:
            v = getattr(self, name)
            out[name] = None if v is None else (int(v) if isinstance(v, bool) else v)
        return out


def summarise(game: Game, index: int) -> GameSummary:
    """The per-game figures of a finished game; at a table without a landlord the
    landlord figures (win rate, stake, landlord score, score per stake) are None (n/a)."""
    assert game.scores is not None
    facts = rule_facts(game.rules)
    plays = sum(1 for a in game.history if a.kind == "play")
    bombs = rockets = 0
    for ms in game.played:
        for m in ms:
            if is_rocket(m):
                rockets += 1
            elif m.is_bomb:
                bombs += 1
    names = Counter(e.name for e in game.events)
    kinds = facts.bid_kinds
    bids = None if kinds is None else sum(1 for a in game.history if a.kind in kinds)
    robs = sum(1 for a in game.history if a.kind == "rob") if facts.has_robs else None
    has_landlord = game.landlord is not None
    landlord_score = game.scores[game.landlord] if game.landlord is not None else None
    unit = stake_unit(game)
    per_stake = (landlord_score / unit[0] if landlord_score is not None and unit is not None
                 and unit[0] else None)
    summary = GameSummary(
        index, game.landlord, bool(game.landlord_won) if has_landlord else None, game.multiple,
        bombs if facts.has_bombs else None,
        names["spring"] > 0 if facts.has_spring else None,
        names["anti_spring"] > 0 if facts.has_spring else None,
        plays, len(game.redeal_reasons), game.stake if has_landlord else None, list(game.scores),
        dict(names), dict(game.stats),
        rockets=rockets if facts.has_rockets else None, bids=bids, robs=robs,
        landlord_score=landlord_score, stake_unit=unit[0] if unit else None,
        unit=unit[1] if unit else facts.unit, score_per_stake=per_stake,
        winners=tuple(game.winners))
    _check_finite(summary, game.rules.variant.name)
    return summary


def _check_finite(s: GameSummary, spec: str) -> None:
    """Refuse a game whose figures are not finite numbers (a plugin's factors that
    overflow a float, a stake unit or a statistic of NaN): no mean, interval or JSON
    can be made of them, and a report must not print them as numbers."""
    values: list[tuple[str, Any]] = [("multiple", s.multiple), ("stake unit", s.stake_unit),
                                     ("score per stake unit", s.score_per_stake)]
    values += [(f"statistic {k!r}", v) for k, v in s.stats.items()]
    for what, value in values:
        if value is not None and not (isinstance(value, int) or math.isfinite(value)):
            raise DdzError(f"{spec}, game {s.index}: its {what} is {value}, not a finite number "
                           "(a plugin's factors overflow a float?): no figure can be made of it")


# ====================================================================== aggregation


def _figure_entry(name: str, m: Moments, confidence: float) -> dict[str, Any] | None:
    """A figure's mean with its interval (Wilson for proportions), or None (n/a)."""
    if m.n == 0:
        return None
    if _KIND[name] == "proportion":
        iv = wilson_interval(int(m.total), m.n, confidence)
    else:
        iv = moments_interval(m, confidence)
    d = iv.to_dict()
    if name in _NONNEGATIVE and d["low"] is not None and d["low"] < 0:
        d["low"] = 0.0  # the mean of values >= 0 is >= 0: still inside
    out = {"mean": d["estimate"], "low": d["low"], "high": d["high"], "n": m.n,
           "sd": finite_or_none(m.sd) if m.n > 1 else None, "method": iv.method}
    if "reason" in d:
        out["reason"] = d["reason"]
    return out


def _key(x: float) -> str:
    return f"{x:g}"


class Accumulator:
    """Running figures of one rule set's games: feed summaries with :meth:`add` as
    games finish, read :meth:`result` at any time. Keeps sums, Welford moments and
    distributions, never the summaries; the same summaries in the same order give
    identical results."""

    def __init__(self, bots: Sequence[str], confidence: float = CONFIDENCE) -> None:
        self.bots = list(bots)
        self.confidence = confidence
        self.n = 0
        self.moments = {name: Moments() for name in FIGURE_NAMES}
        self.all_bombs = Moments()  # bombs + rockets: the legacy bombs_per_game
        self.seat_totals: list[int] = []
        self.bot_scores: dict[str, list[int]] = {}  # kind -> [total score, seat-games]
        self.bot_wins: dict[str, list[int]] = {}  # kind -> [wins, seat-games]
        self.landlord_scores: Counter[int] = Counter()
        self.multiples: Counter[float] = Counter()
        self.events: Counter[str] = Counter()
        self.stats: dict[str, float] = {}
        self.units: Counter[str] = Counter()
        self.unit_total = Moments()

    def add(self, s: GameSummary) -> None:
        self.n += 1
        for name, value in s.figures().items():
            if value is not None:
                self.moments[name].add(value)
        if s.bombs is not None or s.rockets is not None:
            self.all_bombs.add((s.bombs or 0) + (s.rockets or 0))
        if len(self.seat_totals) < len(s.scores):
            self.seat_totals.extend([0] * (len(s.scores) - len(self.seat_totals)))
        for seat, score in enumerate(s.scores):
            self.seat_totals[seat] += score
            kind = self.bots[seat] if seat < len(self.bots) else "?"
            won = seat in s.winners if s.winners else (seat == s.landlord) == s.landlord_won
            tot = self.bot_scores.setdefault(kind, [0, 0])
            tot[0] += score
            tot[1] += 1
            w = self.bot_wins.setdefault(kind, [0, 0])
            w[0] += 1 if won else 0
            w[1] += 1
        if s.landlord is not None:
            self.landlord_scores[s.scores[s.landlord]] += 1
        self.multiples[s.multiple] += 1
        self.events.update(s.events)
        for k, v in s.stats.items():
            self.stats[k] = self.stats.get(k, 0) + v
        if s.unit is not None:
            self.units[s.unit] += 1
        if s.stake_unit is not None:
            self.unit_total.add(s.stake_unit)

    def _mean(self, name: str) -> float | None:
        m = self.moments[name]
        return m.mean if m.n else None

    def result(self) -> dict[str, Any]:
        """The figures: the historical ones (``landlord_win_rate``, ``mean_multiple`` …)
        and, under ``figures``, every figure with its interval."""
        n = self.n
        if n == 0:
            return {"games": 0}
        figures = {name: _figure_entry(name, self.moments[name], self.confidence)
                   for name in FIGURE_NAMES}
        return {
            "games": n,
            "landlord_win_rate": self._mean("landlord_won"),
            "mean_multiple": self._mean("multiple"),
            "bombs_per_game": self.all_bombs.mean if self.all_bombs.n else None,
            "spring_rate": self._mean("spring"),
            "anti_spring_rate": self._mean("anti_spring"),
            "mean_plays": self._mean("plays"),
            "redeals_per_game": self._mean("redeals"),
            "mean_stake": self._mean("stake"),
            "mean_score_by_seat": [t / n for t in self.seat_totals],
            "mean_score_by_bot": {k: t / c for k, (t, c) in self.bot_scores.items()},
            "win_rate_by_bot": {k: w / c for k, (w, c) in self.bot_wins.items()},
            "landlord_score_distribution": {str(k): self.landlord_scores[k]
                                            for k in sorted(self.landlord_scores)},
            "events_per_game": {k: self.events[k] / n for k in sorted(self.events)},
            "stats_per_game": {k: self.stats[k] / n for k in sorted(self.stats)},
            # added: every figure with its interval, the multiple's distribution, units
            "confidence": self.confidence,
            "figures": figures,
            "multiple_distribution": {_key(k): self.multiples[k] for k in sorted(self.multiples)},
            "unit": self.units.most_common(1)[0][0] if self.units else None,
            "mean_stake_unit": self.unit_total.mean if self.unit_total.n else None,
        }


def aggregate(summaries: Iterable[GameSummary], bots: list[str],
              confidence: float = CONFIDENCE) -> dict[str, Any]:
    """The simulation's figures; identical for identical summaries in the same order."""
    acc = Accumulator(bots, confidence)
    for s in summaries:
        acc.add(s)
    return acc.result()


class PairedAccumulator:
    """Running per-game differences ``b − a`` of every figure, for two rule sets
    playing the same games (game ``i`` of each from the same seed)."""

    def __init__(self) -> None:
        self.diffs = {name: Moments() for name in FIGURE_NAMES}

    def add(self, a: GameSummary, b: GameSummary) -> None:
        if a.index != b.index:
            raise ValueError(f"games {a.index} and {b.index} are not a pair")
        fb = b.figures()
        for name, x in a.figures().items():
            y = fb[name]
            if x is not None and y is not None:
                self.diffs[name].add(y - x)


def _correlation(a: Moments, b: Moments, d: Moments) -> float | None:
    """corr(a, b) from var(a), var(b) and var(b − a): cov = (va + vb − vd) / 2 (None
    when a variance is 0, or too large for a float)."""
    if min(a.n, b.n, d.n) < 2:
        return None
    va, vb, vd = a.variance, b.variance, d.variance
    if not all(map(math.isfinite, (va, vb, vd))) or va <= 0 or vb <= 0:
        return None
    r = (va + vb - vd) / 2 / math.sqrt(va * vb)
    return max(-1.0, min(1.0, r)) if math.isfinite(r) else None


def _difference_entry(a: Moments, b: Moments, d: Moments | None,
                      confidence: float) -> dict[str, Any] | None:
    """The difference b − a with its paired interval (None when not paired) and its
    unpaired one. Paired over every game, the difference is the mean of the per-game
    differences — the difference of the means up to rounding — and both intervals are
    centred on that one number, so it lies inside each."""
    if a.n == 0 or b.n == 0:
        return None
    paired = moments_interval(d, confidence, "paired") if d is not None and d.n else None
    estimate = paired.estimate if paired is not None and d is not None and d.n == a.n == b.n else None
    unpaired = welch_from_moments(a, b, confidence, estimate)
    out: dict[str, Any] = {"difference": finite_or_none(unpaired.estimate),
                           "unpaired": {**unpaired.to_dict(), "width": finite_or_none(unpaired.width)},
                           "paired": None, "correlation": None, "narrowing": None}
    if paired is not None and d is not None:
        out["paired"] = {**paired.to_dict(), "width": finite_or_none(paired.width)}
        out["correlation"] = _correlation(a, b, d) if d.n == a.n == b.n else None
        if math.isfinite(paired.width) and math.isfinite(unpaired.width) and unpaired.width > 0:
            out["narrowing"] = paired.width / unpaired.width
    return out


# ====================================================================== running games

#: worker processes per CPU this process may use: past the cores more processes only
#: cost memory (each loads the rule sets and their tables) and start-up time; a little
#: above one per core still helps while other jobs share the machine
WORKERS_PER_CPU = 4
#: the most worker processes of a run on any machine
MAX_WORKERS = 256


def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity, where the platform says)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # not Linux
        return max(1, os.cpu_count() or 1)


def worker_limit() -> int:
    """The most ``workers`` a run may ask for here: :data:`WORKERS_PER_CPU` per usable
    CPU, at most :data:`MAX_WORKERS`. The one cap of every command that takes
    ``--workers`` (simulate, diff) and of :func:`compare_specs`."""
    return min(MAX_WORKERS, WORKERS_PER_CPU * usable_cpus())


def check_workers(workers: int | None, option: str = "workers") -> None:
    """A ValueError when ``workers`` (None: the default) is below 1 or above
    :func:`worker_limit`: refused, never quietly lowered."""
    if workers is None:
        return
    limit = worker_limit()
    if isinstance(workers, bool) or not isinstance(workers, int) or not 1 <= workers <= limit:
        raise ValueError(f"{option} must be between 1 and {limit} ({WORKERS_PER_CPU} per CPU of the "
                         f"{usable_cpus()} this process may use, at most {MAX_WORKERS}), not {brief(workers)}")


# per-process state of the worker pool: (rules, bot kind per seat) per rule set
_worker_sets: list[tuple[GameRules, list[str]]] = []


def _init_worker(specs: Sequence[str], bots: Sequence[Sequence[str]],
                 loaded: Sequence[GameRules] | None = None) -> None:
    """Load the rule sets (or take those already ``loaded`` in this process)."""
    global _worker_sets
    rules = list(loaded) if loaded is not None else [GameRules.load(spec) for spec in specs]
    _worker_sets = [(r, list(kinds)) for r, kinds in zip(rules, bots)]


def _init_pool_worker(specs: Sequence[str], bots: Sequence[Sequence[str]]) -> None:
    """A pool worker: Ctrl-C is the parent's to handle (it terminates the pool), so a
    worker ignores SIGINT instead of printing its own KeyboardInterrupt traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _init_worker(specs, bots)


@contextmanager
def _sigint_ignored() -> Iterator[None]:
    """SIGINT ignored in this process while the pool's workers start: an ignored signal
    stays ignored across exec, and Python keeps it so, so a worker cannot be interrupted
    while it imports, before its initializer runs. (Only the main thread can set it.)"""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _play_index(args: tuple[int, int]) -> list[GameSummary]:
    """Game ``index`` of a run seeded ``seed``, under every rule set of the worker:
    same game seed, same match position, same bots seeded the same way."""
    seed, index = args
    gseed = game_seed(seed, index)
    out = []
    for rules, kinds in _worker_sets:
        agents = [make_bot(kind, gseed + 101 * (i + 1)) for i, kind in enumerate(kinds)]
        game = play_game(rules, agents, gseed, MatchInfo(index, seed))
        out.append(summarise(game, index))
    return out


#: the rule sets of :func:`play_span` in this process, by (specs, bots, plugins)
_span_sets: dict[tuple[Any, ...], list[tuple[GameRules, list[str]]]] = {}


def play_span(specs: Sequence[str], bots: Sequence[Sequence[str]], seed: int, start: int,
              stop: int) -> list[list[GameSummary]]:
    """The summaries of games ``start`` to ``stop - 1`` of a run seeded ``seed`` under every
    spec: a remote worker's task (:mod:`ddzrules.simulate.ray_backend`). The rules are
    loaded once a process for the same specs, bots and plugins (``DDZRULES_PLUGINS``)."""
    global _worker_sets
    key = (tuple(specs), tuple(tuple(b) for b in bots), os.environ.get(PluginRegistry.ENV))
    if key not in _span_sets:
        _span_sets.clear()
        _init_worker(specs, bots)
        _span_sets[key] = list(_worker_sets)
    _worker_sets = _span_sets[key]
    return [_play_index((seed, i)) for i in range(start, stop)]


#: where the games run: worker processes of this machine, or Ray tasks
BACKENDS = ("local", "ray")


def _run(specs: Sequence[str], bots: Sequence[Sequence[str]], games: int, seed: int,
         workers: int | None, loaded: Sequence[GameRules] | None = None,
         backend: str = "local", address: str | None = None) -> Generator[list[GameSummary], None, None]:
    """Yield, game index by game index, the summaries of that game under every spec
    (``loaded``: the specs' rules, already loaded, for the single-process case).
    ``backend="ray"`` plays them as Ray tasks (:mod:`ddzrules.simulate.ray_backend`): ``workers``
    is then the CPUs of a local Ray (None: every core), ``address`` a cluster to join."""
    if backend == "ray":
        from ddzrules.simulate.ray_backend import run_ray

        yield from run_ray(specs, bots, games, seed, workers, address, play_span)
        return
    check_workers(workers)
    workers = min(workers or 1, games)  # never a process without a game to play
    jobs = ((seed, i) for i in range(games))  # made as the pool takes them: no list of every game
    if workers <= 1:
        _init_worker(specs, bots, loaded)
        for job in jobs:
            yield _play_index(job)
        return
    import multiprocessing as mp

    ctx = mp.get_context("spawn")
    initargs = (list(specs), [list(b) for b in bots])
    chunksize = max(1, min(64, games // (workers * 8) or 1))
    with _sigint_ignored():
        pool = ctx.Pool(workers, initializer=_init_pool_worker, initargs=initargs)
    # however the run ends — finished, an error, Ctrl-C or SIGTERM raised in this
    # process, or the consumer dropping this generator — the workers are stopped
    try:
        yield from pool.imap(_play_index, jobs, chunksize=chunksize)
    finally:
        pool.terminate()
        pool.join()


def run_games(spec: str, games: int, seed: int, bots: list[str],
              workers: int = 1) -> Iterator[GameSummary]:
    """Yield the summaries of ``games`` games in index order (``bots`` repeated to
    fill the seats)."""
    rules = GameRules.load(spec)
    kinds = seat_bots(bots, rules.players)
    for row in _run([spec], [kinds], games, seed, workers, [rules]):
        yield row[0]


def _deal_description(rules: GameRules) -> str:
    decks = rules.variant.rules.deck
    undealt = f", {rules.undealt} undealt," if rules.undealt else ""
    return (f"{rules.players} hands of {rules.hand_size} and a kitty of {rules.kitty_size}"
            f"{undealt} from a {sum(decks)}-card deck")


def compare_specs(specs: list[str], games: int, seed: int, bots: list[str],
                  workers: int | None = 1,
                  progress: Progress | None = None,
                  confidence: float = CONFIDENCE,
                  on_game: Callable[[int, list[GameSummary]], None] | None = None,
                  backend: str = "local", address: str | None = None) -> dict[str, Any]:
    """Play the same seeded games under every rule set of ``specs`` and compare them.

    Game ``i`` of every spec uses the game seed ``game_seed(seed, i)``, the match
    position ``MatchInfo(i, seed)`` and the bots ``bots`` (repeated to fill the
    seats) seeded ``game seed + 101·(seat + 1)``. ``runtime.Game`` shuffles with
    ``random.Random(game seed)`` before anything else, so specs with the same deck,
    players, hand and kitty sizes deal the same first deal. ``progress(done, games)``
    is called as each game index finishes under every spec, and ``on_game(index,
    summaries)`` (one summary per spec) when per-game output is wanted: the summaries are
    handed on as games finish and never kept, so memory stays flat however many games.

    Returns ``{"games", "seed", "bots", "confidence", "specs": [...],
    "comparisons": [...]}``: ``specs`` holds one :meth:`Accumulator.result` per spec
    (plus ``spec``, ``seed``, ``bots``, ``deal``), ``comparisons`` one entry per spec
    after the first: ``{"spec", "baseline", "paired", "reason", "figures"}`` where
    each figure is None (n/a in either) or ``{"difference", "paired", "unpaired",
    "correlation", "narrowing"}`` — the difference is *spec − baseline*, ``paired``
    the interval of the mean per-game difference (None when the decks differ),
    ``unpaired`` the Welch interval of the same difference, ``narrowing`` the paired
    width over the unpaired width.

    ``backend`` is ``"local"`` (``workers`` processes; None means 1) or ``"ray"``
    (Ray tasks by index range; ``workers`` the CPUs of a local Ray, None every core;
    ``address`` a cluster to join instead): the figures are the same either way.
    """
    if not specs:
        raise ValueError("compare_specs needs at least one spec")
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; choose from {', '.join(BACKENDS)}")
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be at least 1, not {brief(games)}")
    check_workers(workers)
    if address is not None and backend != "ray":
        raise ValueError("an address is for the ray backend only")
    for kind in bots:
        if kind not in BOTS:
            raise ValueError(f"unknown bot {kind!r}; choose from {', '.join(BOTS)}")
    rules = [GameRules.load(s) for s in specs]  # fail early, in this process, on a bad spec
    kinds = [seat_bots(bots, r.players) for r in rules]
    facts = [rule_facts(r) for r in rules]
    accs = [Accumulator(k, confidence) for k in kinds]
    pairable = [f.deal_key == facts[0].deal_key for f in facts]
    pairs = [PairedAccumulator() if ok else None for ok in pairable]
    # closed however this loop ends (an error in a callback, Ctrl-C): the workers stop now,
    # not when the generator is collected
    with closing(_run(specs, kinds, games, seed, workers, rules, backend, address)) as rows:
        for done, row in enumerate(rows, start=1):
            for acc, s in zip(accs, row):
                acc.add(s)
            for p, s in zip(pairs[1:], row[1:]):
                if p is not None:
                    p.add(row[0], s)
            if on_game is not None:
                on_game(done - 1, row)
            if progress is not None:
                progress(done, games)
    results = []
    for r, k, acc in zip(rules, kinds, accs):
        results.append({"spec": r.variant.name, "seed": seed, "bots": k,
                        "deal": _deal_description(r),
                        "settlement": rule_facts(r).settlement, **acc.result()})
    comparisons = []
    base = accs[0]
    for i in range(1, len(specs)):
        p = pairs[i]
        reason = None
        if p is None:
            reason = (f"not paired: {results[i]['spec']} deals {results[i]['deal']}, "
                      f"{results[0]['spec']} {results[0]['deal']}, so a seed deals different cards")
        figures = {name: _difference_entry(base.moments[name], accs[i].moments[name],
                                           p.diffs[name] if p is not None else None, confidence)
                   for name in FIGURE_NAMES}
        comparisons.append({"spec": results[i]["spec"], "baseline": results[0]["spec"],
                            "paired": p is not None, "reason": reason, "figures": figures})
    return {"games": games, "seed": seed, "bots": list(bots), "confidence": confidence,
            "specs": results, "comparisons": comparisons}


# ====================================================================== plain-text report


#: the most decimals a report prints: below that a half-width is rounding noise
MAX_DECIMALS = 6


def decimals_for(kind: str, halves: Iterable[float | None]) -> int:
    """The decimals of a figure shown with intervals: 3 for a proportion; else two
    significant digits of the narrowest finite half-width (3 when there is none), at
    most :data:`MAX_DECIMALS`. One count for a row, so its numbers line up.

    >>> decimals_for("mean", [0.0123, 0.5]), decimals_for("mean", [12.0]), decimals_for("mean", [])
    (3, 0, 3)
    """
    if kind == "proportion":
        return 3
    finite = [h for h in halves if h is not None and math.isfinite(h) and h > 0]
    if not finite:
        return 3
    return min(MAX_DECIMALS, max(0, 1 - math.floor(math.log10(min(finite)))))


def fixed(x: float | None, decimals: int, sign: bool = False) -> str:
    """``x`` with ``decimals`` decimals: never in exponent notation, and never a
    negative zero — a value that rounds to zero prints as ``0.000``, with no sign
    (``sign`` puts ``+`` before a positive difference). ``n/a`` for None.

    >>> fixed(-0.0001, 3), fixed(0.00008827, 3, sign=True), fixed(0.25, 3, sign=True), fixed(-2.5, 1)
    ('0.000', '0.000', '+0.250', '-2.5')
    """
    if x is None:
        return "n/a"
    if not math.isfinite(x):
        return "?"
    text = f"{x:+.{decimals}f}" if sign else f"{x:.{decimals}f}"
    return f"{0:.{decimals}f}" if float(text) == 0 else text


def significant(x: float | None, digits: int = 4, sign: bool = False) -> str:
    """``x`` to about ``digits`` significant digits, without exponent notation (at most
    :data:`MAX_DECIMALS` decimals) and without trailing zeros: for figures shown
    without an interval (win rates by bot, events per game).

    >>> significant(0.91254), significant(2.64), significant(8.827e-05), significant(1402.0)
    ('0.9125', '2.64', '0.000088', '1402')
    """
    if x is None:
        return "n/a"
    if not math.isfinite(x):
        return "?"
    d = 0 if x == 0 else min(MAX_DECIMALS, max(0, digits - 1 - math.floor(math.log10(abs(x)))))
    text = fixed(x, d, sign)
    return text.rstrip("0").rstrip(".") if "." in text else text


def half_width(iv: dict[str, Any] | None) -> float:
    """Half the width of an interval entry (inf when a bound is unknown)."""
    if iv is None:
        return math.inf
    low, high = iv.get("low"), iv.get("high")
    return math.inf if low is None or high is None else (high - low) / 2


def bracket(iv: dict[str, Any], d: int) -> str:
    """``[low, high]`` with ``d`` decimals; ``[?]`` when a bound cannot be estimated."""
    low, high = iv.get("low"), iv.get("high")
    return "[?]" if low is None or high is None else f"[{fixed(low, d)}, {fixed(high, d)}]"


def figure_cell(fig: Figure, e: dict[str, Any] | None) -> str:
    """A spec's figure as ``mean [low, high]`` (``n/a``: the rule set lacks it)."""
    if e is None:
        return "n/a"
    d = decimals_for(fig.kind, [half_width(e)])
    mean = "?" if e["mean"] is None else fixed(e["mean"], d)  # None: it overflowed a float
    return f"{mean} {bracket(e, d)}"


def difference_cells(fig: Figure, e: dict[str, Any] | None) -> list[str]:
    """A comparison's figure: the difference, the paired and the unpaired interval and
    the ratio of their widths, all with the row's one count of decimals."""
    if e is None:
        return ["n/a", "n/a", "n/a", ""]
    un, pa = e["unpaired"], e["paired"]
    d = decimals_for(fig.kind, [half_width(iv) for iv in (un, pa) if iv is not None])
    return ["?" if e["difference"] is None else fixed(e["difference"], d, sign=True),
            "n/a (not paired)" if pa is None else bracket(pa, d), bracket(un, d),
            "" if e["narrowing"] is None else f"{e['narrowing']:.2f}"]


def _columns(rows: list[list[str]]) -> str:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows)


def format_comparison(result: dict[str, Any]) -> str:
    """A :func:`compare_specs` result as plain text (no markup): one table with the
    figures as rows and the specs as columns (``mean [low, high]``, ``n/a`` where a
    spec lacks the figure), then for each spec after the first its differences to the
    first — ``difference``, the paired and the unpaired interval and the ratio of
    their widths."""
    runs = result["specs"]
    conf = f"{result.get('confidence', CONFIDENCE):.0%}"
    head = (f"{result['games']} games per spec, seed {result['seed']}, bots "
            f"{','.join(result['bots'])}; mean [{conf} interval]; n/a: the rule set has no "
            "such figure")
    out = [head]
    rows = [["figure", *[r["spec"] for r in runs]], ["games", *[str(r["games"]) for r in runs]]]
    for fig in FIGURES:
        rows.append([fig.label, *[figure_cell(fig, r["figures"][fig.name]) for r in runs]])
    rows.append(["score unit", *[r.get("unit") or "n/a" for r in runs]])
    out.append(_columns(rows))
    for comp in result["comparisons"]:
        out.append("")
        out.append(f"{comp['spec']} − {comp['baseline']}: difference of the means, {conf} "
                   "intervals paired (per-game differences, same games) and unpaired (Welch)")
        if not comp["paired"]:
            out.append(f"{comp['reason']}: unpaired intervals only")
        rows = [["figure", "difference", "paired", "unpaired", "paired/unpaired width"]]
        for fig in FIGURES:
            rows.append([fig.label, *difference_cells(fig, comp["figures"][fig.name])])
        out.append(_columns(rows))
    return "\n".join(out)
