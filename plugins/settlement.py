"""Settlement in points: each farmer against the landlord."""

from __future__ import annotations

from typing import Any, ClassVar

from ddzrules.hookspecs import hookimpl
from ddzrules.runtime import Game


class StakeSettlement:
    """Each farmer pays the landlord (or is paid) ``per_farmer × stake × multiple``,
    times that farmer's pairwise factor (加倍, 加棒); the landlord gets the sum.

    湖北 3-player: landlord ±2×base×multiple, each farmer ∓base×multiple.
    皇冠: each farmer pays or receives contract × 2^(bombs+rockets).
    Scores always sum to zero.
    """

    name = "stake-settlement"
    params_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "per_farmer": {"type": "number", "exclusiveMinimum": 0,
                           "description": "Units of stake × multiple each farmer settles (default 1)."},
        },
    }

    def __init__(self, params: dict[str, Any]) -> None:
        self.per_farmer = params.get("per_farmer", 1)

    @hookimpl
    def ddzrules_describe(self) -> dict[str, Any]:
        return {"summary": f"each farmer ±{self.per_farmer}×stake×multiple, landlord the sum"}

    @hookimpl
    def ddzrules_settle(self, game: Game) -> list[int]:
        landlord = game.landlord
        assert landlord is not None and game.winner is not None
        sign = 1 if game.winner == landlord else -1
        scores = [0] * game.players
        for farmer in range(game.players):
            if farmer == landlord:
                continue
            amount = round(self.per_farmer * game.stake * game.multiple * game.pair_factors.get(farmer, 1.0))
            scores[farmer] -= sign * amount
            scores[landlord] += sign * amount
        return scores


class WinPoints:
    """胜方每人积一分: each player on the winning side scores ``points``; losers score 0.

    001 (叫地主/抢地主 rules): ten games make a match and the highest total wins.
    Not zero-sum by design.
    """

    name = "win-points"
    params_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "additionalProperties": False,
        "properties": {"points": {"type": "integer", "minimum": 1}},
    }

    def __init__(self, params: dict[str, Any]) -> None:
        self.points = params.get("points", 1)

    @hookimpl
    def ddzrules_describe(self) -> dict[str, Any]:
        return {"summary": f"each winner +{self.points}"}

    @hookimpl
    def ddzrules_settle(self, game: Game) -> list[int]:
        landlord_won = game.winner == game.landlord
        return [self.points if (seat == game.landlord) == landlord_won else 0 for seat in range(game.players)]
