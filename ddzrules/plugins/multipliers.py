"""Multipliers: bombs and rockets (all, or only effective ones), spring and anti-spring."""

from __future__ import annotations

from typing import Any, ClassVar

from ddzrules.hookspecs import hookimpl
from ddzrules.plugins import Description, times
from ddzrules.rules.moves import Move
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
        """Which bombs count and by how much, as configured."""
        f = times(self.factor)
        if self.mode == "effective":
            d = Description(f"{f} per effective bomb or rocket (有效炸弹)", f"每个有效炸弹或火箭{f}")
            d.rule(f"Only an effective bomb (有效炸弹) multiplies the score, {f}: a bomb or rocket "
                   f"that beats another play; one that leads a trick does not count.",
                   f"只有有效炸弹才加倍（{f}）：用来压过别人出牌的炸弹或火箭；首发打出的不加倍。")
        else:
            d = Description(f"{f} per bomb or rocket played", f"每个炸弹或火箭{f}")
            d.rule(f"Every bomb and rocket played multiplies the score, {f}, whether it leads a "
                   f"trick or beats a play.", f"每打出一个炸弹或火箭，无论是否首发，倍数{f}。")
        if self.factors:
            listed = ", ".join(f"{k} {times(v)}" for k, v in self.factors.items())
            d.rule(f"Factors by combo, instead of {f}: {listed}.", f"各牌型的倍数（代替{f}）：{listed}。")
        if self.per_unit:
            names = ", ".join(sorted(self.per_unit))
            d.rule(f"{names}: each counts as one bomb per unit of its chain (a chain of three "
                   f"fours multiplies three times), bomb or not.",
                   f"{names}：按连牌中的每一组（如每个四张）各计一个炸弹加倍，无论是否属于炸弹。")
        d.param("bombs", self.mode,
                "all: every bomb counts; effective: only those that beat a play",
                "all：所有炸弹都加倍；effective：只有压牌的炸弹加倍")
        d.param("factor", self.factor, "the multiplier of each bomb", "每个炸弹的倍数")
        d.param("factors", self.factors or None, "factors by combo", "各牌型的倍数")
        d.param("per_unit", sorted(self.per_unit) or None, "combos counted once per chain unit",
                "按每组计炸弹的牌型")
        return d.done()

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
    needs_landlord = True  # refused at a table without a landlord
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
        """春天 and 反春 with their factors."""
        s, a = times(self.spring), times(self.anti_spring)
        d = Description(f"spring (春天) {s}, anti-spring (反春) {a}", f"春天{s}，反春{a}")
        d.rule(f"Spring (春天): the landlord goes out while no farmer has played a card: {s}.",
               f"春天：地主出完牌时农民一张牌都没出：{s}。")
        d.rule(f"Anti-spring (反春): a farmer goes out while the landlord has played only one hand: "
               f"{a}.", f"反春：农民出完牌时地主只出过一手牌：{a}。")
        d.param("spring", self.spring, "the multiplier of a spring", "春天的倍数")
        d.param("anti_spring", self.anti_spring, "the multiplier of an anti-spring", "反春的倍数")
        return d.done()

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
