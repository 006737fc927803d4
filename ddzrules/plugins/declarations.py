"""Declarations made after the landlord is known and before the first play."""

from __future__ import annotations

from typing import Any, ClassVar

from ddzrules.hookspecs import hookimpl
from ddzrules.plugins import Description, times
from ddzrules.runtime import Action, Game, MultiplierEvent


class ShowHand:
    """亮牌: the landlord may play with his hand shown to everyone, multiplying the score.

    湖北 two decks (000 A2): ×3; 叫分 block of 004: ×3 for all.
    """

    name = "show-hand"
    params_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "factor": {"type": "number", "exclusiveMinimum": 0},
            "group": {"type": "string", "description": "Multiplier group: of several events in one group "
                                                       "only the largest counts (004: 明牌 kinds)."},
        },
    }

    def __init__(self, params: dict[str, Any]) -> None:
        self.factor = params.get("factor", 3)
        self.group = params.get("group", "")

    @hookimpl
    def ddzrules_describe(self) -> dict[str, Any]:
        """亮牌 as configured: its factor and its multiplier group."""
        f = times(self.factor)
        d = Description(f"亮牌: the landlord may show his hand, {f}", f"亮牌：地主可亮牌，{f}")
        d.rule(f"After taking the kitty and before the first play, the landlord may play with his "
               f"hand shown to everyone (亮牌): {f}.",
               f"地主拿到底牌后、出第一手牌前，可选择亮牌（明牌）给所有人看：{f}。")
        d.rule("A landlord who has already shown his hand (明牌 before the calling) is not asked "
               "again.", "已经明牌的地主不再询问。")
        if self.group:
            d.rule(f"It is in the multiplier group “{self.group}”: of several events of one group "
                   f"only the largest factor counts.",
                   f"属于倍数组“{self.group}”：同组的多个倍数只计最大的一个。")
        d.param("factor", self.factor, "the multiplier of showing the hand", "亮牌的倍数")
        d.param("group", self.group or None, "the multiplier group (of a group, only the largest "
                "counts)", "倍数组（同组只计最大）")
        return d.done()

    @hookimpl
    def ddzrules_actions(self) -> list[tuple[str, Any]]:
        return [("decline", None), ("show", None)]

    @hookimpl
    def ddzrules_declaration_phases(self, game: Game) -> list[ShowHandPhase]:
        return [ShowHandPhase(self.factor, self.group)]


class ShowHandPhase:
    name = "show-hand"

    def __init__(self, factor: float, group: str) -> None:
        self.factor = factor
        self.group = group
        self.done = False

    def to_act(self, game: Game) -> int | None:
        if game.landlord in game.shown_hands:  # already shown (明牌 before the calling)
            self.done = True
        return None if self.done else game.landlord

    def options(self, game: Game) -> list[Action]:
        assert game.landlord is not None
        return [Action(game.landlord, "decline"), Action(game.landlord, "show")]

    def apply(self, game: Game, action: Action) -> None:
        self.done = True
        if action.kind == "show":
            game.shown_hands.add(action.seat)
            game.add_event(MultiplierEvent("show_hand", self.factor, action.seat, group=self.group))
            game.count("shows")
