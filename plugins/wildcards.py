"""癞子 (wildcards): draw the wild rank of each deal."""

from __future__ import annotations

from typing import Any, ClassVar

from ddzrules import cards as C
from ddzrules.hookspecs import hookimpl
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
        return {"summary": f"癞子: one wild rank a deal, drawn from {C.RANKS[self.ranks[0]]}..{C.RANKS[self.ranks[-1]]}"}

    @hookimpl
    def ddzrules_wild_rank(self, game: Game) -> int:
        allowed = [r for r in self.ranks if r in game.variant.rules.stand_for]
        return allowed[game.rng.randrange(len(allowed))]
