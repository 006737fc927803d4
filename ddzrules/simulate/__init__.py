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

import math
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from typing import Any

from ddzrules.bots import check_bot
from ddzrules.errors import brief
from ddzrules.runtime import GameRules
from ddzrules.simulate.backends import (
    BACKENDS,
    MAX_WORKERS,
    WORKERS_PER_CPU,
    Backend,
    LocalBackend,
    Run,
    check_workers,
    get_backend,
    play_span,
    register_backend,
    usable_cpus,
    worker_limit,
)
from ddzrules.simulate.games import (
    BID_KINDS,
    FIGURE_NAMES,
    FIGURES,
    Figure,
    GameSummary,
    RuleFacts,
    game_seed,
    is_rocket,
    play_game,
    rule_facts,
    seat_bots,
    stake_unit,
    summarise,
)
from ddzrules.simulate.ray_backend import RayBackend
from ddzrules.simulate.stats import (
    CONFIDENCE,
    Moments,
    finite_or_none,
    moments_interval,
    welch_from_moments,
    wilson_interval,
)

__all__ = [
    "BACKENDS",
    "BID_KINDS",
    "CONFIDENCE",
    "FIGURES",
    "FIGURE_NAMES",
    "MAX_WORKERS",
    "WORKERS_PER_CPU",
    "Accumulator",
    "Backend",
    "Figure",
    "GameSummary",
    "LocalBackend",
    "PairedAccumulator",
    "Progress",
    "RayBackend",
    "RuleFacts",
    "Run",
    "aggregate",
    "check_workers",
    "compare_specs",
    "decimals_for",
    "fixed",
    "format_comparison",
    "game_seed",
    "get_backend",
    "half_width",
    "is_rocket",
    "play_counts_text",
    "play_game",
    "play_span",
    "rarely_played",
    "register_backend",
    "rule_facts",
    "run_games",
    "seat_bots",
    "significant",
    "stake_unit",
    "summarise",
    "usable_cpus",
    "worker_limit",
]

# the built-in backends, registered as a third party's would be
register_backend(LocalBackend())
register_backend(RayBackend())

#: a combo played less often than this a game is flagged as rarely played: a comparison of
#: rules it takes part in says little (the bots hardly tested it)
RARELY_PLAYED = 0.05

#: each figure's kind, and the figures that are never negative (their intervals clipped at 0)
_KIND = {f.name: f.kind for f in FIGURES}
_NONNEGATIVE = {f.name for f in FIGURES if f.nonnegative}

#: a progress callback: (games finished, games in all); a "game" of a comparison is
#: one seed played under every rule set
Progress = Callable[[int, int], None]




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

    def __init__(self, bots: Sequence[str], confidence: float = CONFIDENCE, combos: Sequence[str] = ()) -> None:
        self.bots = list(bots)
        self.confidence = confidence
        self.n = 0
        #: plays a game of each combo (the spec's, and any other name a play had)
        self.combo_plays: dict[str, Moments] = {name: Moments() for name in combos}
        #: decisions a game where a play of each combo was among the choices
        self.combo_chances: Counter[str] = Counter()
        self.combos = tuple(combos)
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
        for name in s.combo_plays:
            if name not in self.combo_plays:  # a name first seen now: 0 in every game before
                m = self.combo_plays[name] = Moments()
                for _ in range(self.n - 1):
                    m.add(0)
        for name, m in self.combo_plays.items():
            m.add(s.combo_plays.get(name, 0))
        self.combo_chances.update(s.combo_chances)
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
            "plays_by_combo": self._plays_by_combo(),
            "combos_never_played": sorted(k for k, m in self.combo_plays.items() if m.total == 0),
            "combos_rarely_played": sorted(k for k, m in self.combo_plays.items()
                                           if m.total > 0 and m.mean < RARELY_PLAYED),
            # added (issue 43): decisions a game where each combo could have been played
            "chances_by_combo": {k: self.combo_chances[k] / n for k in sorted(self.combo_chances)},
        }

    def _plays_by_combo(self) -> dict[str, dict[str, Any]]:
        """Each combo's plays a game, with its interval (a combo of no game's plays: 0)."""
        out = {}
        for name in sorted(self.combo_plays):
            m = self.combo_plays[name]
            d = moments_interval(m, self.confidence).to_dict()
            out[name] = {"mean": m.mean, "low": max(0.0, d["low"]) if d["low"] is not None else None,
                         "high": d["high"], "plays": m.total}
        return out


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
        #: pairs whose two games went alike, deal for deal and action for action
        self.alike = 0

    def add(self, a: GameSummary, b: GameSummary) -> None:
        if a.index != b.index:
            raise ValueError(f"games {a.index} and {b.index} are not a pair")
        self.alike += bool(a.course) and a.course == b.course
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


def run_games(spec: str, games: int, seed: int, bots: list[str],
              workers: int = 1) -> Iterator[GameSummary]:
    """Yield the summaries of ``games`` games in index order (``bots`` repeated to
    fill the seats)."""
    rules = GameRules.load(spec)
    kinds = seat_bots(bots, rules.players)
    run = Run((spec,), (tuple(kinds),), games, seed, workers, loaded=(rules,))
    for row in LocalBackend().run(run):
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
    after the first: ``{"spec", "baseline", "paired", "reason", "figures",
    "games_alike"}`` where each figure is None (n/a in either) or ``{"difference",
    "paired", "unpaired", "correlation", "narrowing"}`` — the difference is *spec −
    baseline*, ``paired`` the interval of the mean per-game difference (None when the
    decks differ), ``unpaired`` the Welch interval of the same difference, ``narrowing``
    the paired width over the unpaired width — and ``games_alike`` the pairs whose two
    games went alike, deal for deal and action for action (None when not paired).

    ``backend`` names a registered :class:`~ddzrules.simulate.backends.Backend`: ``"local"``
    (``workers`` processes; None means 1) or ``"ray"`` (Ray tasks by index range;
    ``workers`` the CPUs of a local Ray, None every core; ``address`` a cluster to join
    instead): the figures are the same whichever plays them.
    """
    if not specs:
        raise ValueError("compare_specs needs at least one spec")
    where = get_backend(backend)
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be at least 1, not {brief(games)}")
    where.check(workers, address)
    for kind in bots:
        check_bot(kind)
    rules = [GameRules.load(s) for s in specs]  # fail early, in this process, on a bad spec
    for r in rules:
        for kind in bots:
            check_bot(kind, r)  # a bot that cannot play a rule set says so before any game
    kinds = [seat_bots(bots, r.players) for r in rules]
    facts = [rule_facts(r) for r in rules]
    accs = [Accumulator(k, confidence, [c.name for c in r.variant.rules.combos]) for k, r in zip(kinds, rules)]
    pairable = [f.deal_key == facts[0].deal_key for f in facts]
    pairs = [PairedAccumulator() if ok else None for ok in pairable]
    run = Run(tuple(specs), tuple(tuple(k) for k in kinds), games, seed, workers, address, tuple(rules))
    rows = where.run(run)
    try:
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
    finally:  # however this loop ends (an error in a callback, Ctrl-C): the workers stop now
        close = getattr(rows, "close", None)
        if close is not None:
            close()
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
        # games_alike: the pairs played the same, action for action (None: not paired) —
        # the rules that differ changed nothing any bot did in them
        comparisons.append({"spec": results[i]["spec"], "baseline": results[0]["spec"],
                            "paired": p is not None, "reason": reason, "figures": figures,
                            "games_alike": p.alike if p is not None else None})
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


def format_comparison(result: dict[str, Any], combos: Collection[str] | None = None) -> str:
    """A :func:`compare_specs` result as plain text (no markup): one table with the
    figures as rows and the specs as columns (``mean [low, high]``, ``n/a`` where a
    spec lacks the figure), then for each spec after the first its differences to the
    first — ``difference``, the paired and the unpaired interval and the ratio of
    their widths. ``combos``: flag only these combos as never or rarely played (a diff's
    differing combos: the others' play says nothing of the rules that differ)."""
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
    out += ["", play_counts_text(result, combos)]
    return "\n".join(out)


def rarely_played(run: dict[str, Any], combos: Collection[str] | None = None) -> tuple[list[str], list[str]]:
    """The combos of a spec's games never played, and those rarely played (under
    :data:`RARELY_PLAYED` a game); only those of ``combos`` when it is given."""
    never = [c for c in run.get("combos_never_played", []) if combos is None or c in combos]
    rare = [c for c in run.get("combos_rarely_played", []) if combos is None or c in combos]
    return never, rare


def play_counts_text(result: dict[str, Any], combos: Collection[str] | None = None) -> str:
    """What the bots played of each spec's combos: plays a game by combo (with the
    interval), and the combos never or rarely played, whose rules the games hardly tested
    (only those of ``combos`` when it is given)."""
    bots = ",".join(result["bots"])
    conf = f"{result.get('confidence', CONFIDENCE):.0%}"
    out = [f"plays a game by combo, as the bots {bots} played them (mean [{conf} interval]):"]
    for run in result["specs"]:
        plays = run.get("plays_by_combo", {})
        cells = [f"{name} {fixed(e['mean'], 3)} [{fixed(e['low'], 3)}, {fixed(e['high'], 3)}]"
                 for name, e in plays.items() if e["plays"]]
        out.append(f"  {run['spec']}: " + ("; ".join(cells) if cells else "no plays"))
        never, rare = rarely_played(run, combos)
        if never:
            out.append(f"    never played by {bots}: {', '.join(never)}")
        if rare:
            out.append(f"    rarely played (under {RARELY_PLAYED:g} a game): {', '.join(rare)}")
        if never or rare:
            out.append("    a difference in these rules is barely tested by these games: a figure of the bots")
    return "\n".join(out)
