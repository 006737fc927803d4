"""The bomb density of a deal, measured: how many bombs the dealt hands of a game hold,
and the share of games holding at least one. 不洗牌 (no-shuffle) is played for its
bombs, so its sheet states the figure, and only a measured one: ``benchmarks/
bench_buxipai.py --write`` runs :func:`measure` and stores the figures in
:data:`DENSITY_FILE` with the content hash of the rules measured; a sheet states a
spec's figure only while its rules still hash the same (a child that changes the deal is
another measurement)."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

DENSITY_FILE = "deal_density.json"
#: the spec whose shuffled deal every figure is set beside
SHUFFLED = "hubei-3p"


@dataclass(frozen=True)
class Density:
    """``bombs`` a game (mean), ``share`` of games with one or more, over ``deals`` seeded
    deals from ``seed`` (the previous game of each, where the deal needs one, played by
    ``bots`` at every seat); ``content_hash``: the rules measured."""

    spec: str
    content_hash: str
    deals: int
    seed: int
    bots: str
    bombs: float
    share: float


def measure(spec: str, deals: int, seed: int = 0, bots: str = "heuristic") -> Density:
    """Deal ``deals`` games of ``spec`` (game i seeded ``game_seed(seed, i)``, the second
    game of a match of its own, as ``simulate`` plays it) and count the bombs of the hands
    as dealt, before the kitty is taken, as ``simulate``'s ``bombs_dealt`` counts them
    (:func:`~ddzrules.simulate.games.dealt_bombs`: a rank held four times or more, a hand
    holding every joker)."""
    from ddzrules.runtime import GameRules, MatchInfo
    from ddzrules.simulate import game_seed
    from ddzrules.simulate.games import dealt_bombs, prelude_cards

    rules = GameRules.load(spec)
    total = some = 0
    for i in range(deals):
        gseed = game_seed(seed, i)
        match = MatchInfo(1, seed, previous_cards=prelude_cards(rules, [bots] * rules.players, gseed,
                                                                MatchInfo(0, seed)))
        game = rules.new_game(gseed, match)
        n = dealt_bombs(game)
        total += n
        some += n > 0
    return Density(spec, rules.variant.rules.content_hash, deals, seed, bots, round(total / deals, 4),
                   round(some / deals, 4))


@lru_cache(maxsize=1)
def stored() -> dict[str, Density]:
    """The figures :data:`DENSITY_FILE` holds, by spec name (none when it is missing)."""
    try:
        text = resources.files("ddzrules.sheets").joinpath(DENSITY_FILE).read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    data: dict[str, Any] = json.loads(text)  # the package's own file, not input: the plain reader
    return {name: Density(**entry) for name, entry in data.items()}


def density_of(spec: str, content_hash: str) -> tuple[Density, Density] | None:
    """``(this spec's figure, the shuffled deal's)`` when both were measured and the spec's
    rules are the ones measured; else None."""
    figures = stored()
    own, shuffled = figures.get(spec), figures.get(SHUFFLED)
    if own is None or shuffled is None or own.content_hash != content_hash or spec == SHUFFLED:
        return None
    return own, shuffled


def to_json(figures: list[Density]) -> str:
    return json.dumps({d.spec: asdict(d) for d in figures}, indent=1, ensure_ascii=False, sort_keys=True) + "\n"
