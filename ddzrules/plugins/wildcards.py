"""癞子 (wildcards): draw the wild rank of each deal."""

from __future__ import annotations

from typing import Any, ClassVar

from ddzrules import cards as C
from ddzrules.hookspecs import hookimpl
from ddzrules.plugins import Description
from ddzrules.runtime import Game


class WildRank:
    """Each deal draws one wild rank, shown to every player (004 癞子场).

    The rank is drawn uniformly with the game's seeded generator from ``ranks``
    (default ``3..2``: never a joker).
    """

    name = "wild-rank"
    params_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "ranks": {"type": "string", "pattern": r"^\s*\S+\s*\.\.\s*\S+\s*$",
                      "description": "Ranks the wild rank is drawn from, e.g. 3..2."},
        },
    }

    def __init__(self, params: dict[str, Any]) -> None:
        lo, hi = (C.parse_rank(t.strip()) for t in params.get("ranks", "3..2").split(".."))
        self.ranks = tuple(range(lo, hi + 1))

    @hookimpl
    def ddzrules_describe(self) -> dict[str, Any]:
        """Where the wild rank of a deal is drawn from."""
        span = f"{C.RANKS[self.ranks[0]]}..{C.RANKS[self.ranks[-1]]}"
        d = Description(f"癞子: one wild rank a deal, drawn from {span}",
                        f"癞子：每局从{span}中抽取一个癞子点数")
        d.rule(f"Each deal draws one wild rank (癞子) from {span}, among the ranks a wild card may "
               f"stand for, with the game's seeded generator; every player sees it from the start "
               f"of the deal.",
               f"每局发牌后从{span}中（且须为癞子可代替的点数）随机抽取一个点数作为癞子，"
               f"所有玩家都可见。")
        d.param("ranks", span, "the ranks the wild rank is drawn from", "癞子点数的抽取范围")
        return d.done()

    @hookimpl
    def ddzrules_wild_rank(self, game: Game) -> int:
        allowed = [r for r in self.ranks if r in game.variant.rules.stand_for]
        return allowed[game.rng.randrange(len(allowed))]
