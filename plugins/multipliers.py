"""Multipliers: bombs and rockets (all, or only effective ones), spring and anti-spring."""

from __future__ import annotations

from typing import Any, ClassVar

from ddzrules.hookspecs import hookimpl
from ddzrules.moves import Move
from ddzrules.runtime import Game, MultiplierEvent


class BombDoubling:
    """Every bomb-class play multiplies the score.

    ``bombs: all`` — every bomb and rocket counts, led or not (皇冠, 002).
    ``bombs: effective`` — 有效炸弹 (湖北, 000): a bomb or rocket that opens a trick
    (发牌) does not count; only one that beats another play does.
    ``factors`` sets a factor per bomb combo (default ``factor`` for each).
    """

    name = "bomb-doubling"
    params_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "bombs": {"enum": ["all", "effective"]},
            "factor": {"type": "number", "exclusiveMinimum": 0},
            "factors": {"type": "object", "additionalProperties": {"type": "number", "exclusiveMinimum": 0},
                        "description": "Per bomb combo, e.g. {rocket: 4}."},
            "per_unit": {"type": "array", "items": {"type": "string"}, "uniqueItems": True,
                         "description": "Combos that count as one bomb per unit of their chain, whether "
                                        "or not they are bombs (太空梭: one bomb per four)."},
        },
    }

    def __init__(self, params: dict[str, Any]) -> None:
        self.mode = params.get("bombs", "all")
        self.factor = params.get("factor", 2)
        self.factors = params.get("factors", {})
        self.per_unit = set(params.get("per_unit", []))

    @hookimpl
    def ddzrules_describe(self) -> dict[str, Any]:
        return {"summary": f"×{self.factor} per {'effective ' if self.mode == 'effective' else ''}bomb/rocket"}

    @hookimpl
    def ddzrules_on_play(self, game: Game, seat: int, move: Move, led: bool) -> list[MultiplierEvent] | None:
        units = move.length if move.combo in self.per_unit else (1 if move.is_bomb else 0)
        if not units or (led and self.mode == "effective"):
            return None
        factor = self.factors.get(move.combo, self.factor)
        return [MultiplierEvent(move.combo, factor, seat, move.cards) for _ in range(units)]


class Spring:
    """春天 (spring): the landlord goes out and no farmer played a card;
    反春 (anti-spring): a farmer goes out while the landlord played only one hand."""

    name = "spring"
    params_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "spring": {"type": "number", "exclusiveMinimum": 0},
            "anti_spring": {"type": "number", "exclusiveMinimum": 0},
        },
    }

    def __init__(self, params: dict[str, Any]) -> None:
        self.spring = params.get("spring", 2)
        self.anti_spring = params.get("anti_spring", 2)

    @hookimpl
    def ddzrules_describe(self) -> dict[str, Any]:
        return {"summary": f"spring ×{self.spring}, anti-spring ×{self.anti_spring}"}

    @hookimpl
    def ddzrules_on_game_end(self, game: Game) -> list[MultiplierEvent] | None:
        landlord = game.landlord
        assert landlord is not None
        farmers = [s for s in range(game.players) if s != landlord]
        if game.winner == landlord and all(not game.played[f] for f in farmers):
            return [MultiplierEvent("spring", self.spring, landlord)]
        if game.winner != landlord and len(game.played[landlord]) == 1:
            return [MultiplierEvent("anti_spring", self.anti_spring, game.winner)]
        return None
