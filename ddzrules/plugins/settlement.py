"""Settlement in points: each farmer against the landlord."""

from __future__ import annotations

from typing import Any, ClassVar

from ddzrules.hookspecs import hookimpl
from ddzrules.plugins import Description
from ddzrules.runtime import Game


class StakeSettlement:
    """Each farmer pays the landlord (or is paid) ``per_farmer × stake × multiple``,
    times that farmer's pairwise factor (加倍, 加棒); the landlord gets the sum.

    湖北 3-player: landlord ±2×base×multiple, each farmer ∓base×multiple.
    皇冠: each farmer pays or receives contract × 2^(bombs+rockets).
    Scores always sum to zero.
    """

    name = "stake-settlement"
    needs_landlord = True  # refused at a table without a landlord
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
        """The settlement formula with its factor."""
        k = f"{self.per_farmer:g}"
        d = Description(f"each farmer ±{k} × stake × multiple, the landlord the sum",
                        f"每位农民±{k}×底分×倍数，地主得失其总和")
        d.rule(f"Each farmer pays the landlord, or is paid by him, {k} × stake × multiple × that "
               f"farmer's own factor (加倍, 加棒), rounded to a whole point; the landlord receives or "
               f"pays the sum, so the scores add up to zero.",
               f"每位农民向地主支付（或从地主获得）{k}×底分×倍数×该农民自己的系数（加倍、加棒），"
               f"取整；地主得失其总和，总分为零。")
        d.param("per_farmer", self.per_farmer, "units of stake × multiple each farmer settles",
                "每位农民结算的底分×倍数的份数")
        return d.done()

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
        """Win points: what each winner scores."""
        d = Description(f"each winner +{self.points}", f"胜方每人+{self.points}")
        d.rule(f"Each player on the winning side scores {self.points}; the losers score 0, so the "
               f"scores do not add up to zero.", f"胜方每人得{self.points}分，负方得0分（总分不为零）。")
        d.param("points", self.points, "the points of each winner", "胜方每人的得分")
        return d.done()

    @hookimpl
    def ddzrules_settle(self, game: Game) -> list[int]:
        winners = game.winners  # the first out's side, at any table
        return [self.points if seat in winners else 0 for seat in range(game.players)]
