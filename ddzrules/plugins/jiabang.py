"""加棒: after a top bid, each farmer may raise the stake between himself and the landlord.

叫分 block of 004: 当有人叫3分抢得地主后,两农民中如果有人对自己一方取胜有信心,可以选择
"加棒"地主,加棒后该农民与地主之间的得失分翻倍. The factor applies to one
farmer–landlord pair only (``game.pair_factors``), so a settlement that honours
pairwise factors (stake-settlement) doubles that farmer's score and the
landlord's share of it, and leaves the other farmer's untouched.
"""

from __future__ import annotations

from typing import Any, ClassVar

from ddzrules.hookspecs import hookimpl
from ddzrules.plugins import Description, times
from ddzrules.runtime import Action, Game


class JiaBang:
    """加棒: offered only when the stake equals ``top_bid``; each farmer in turn, ×``factor``."""

    name = "jiabang"
    params_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "factor": {"type": "number", "exclusiveMinimum": 0,
                       "description": "The factor on the farmer–landlord pair (004: 翻倍, ×2)."},
            "top_bid": {"type": "number", "exclusiveMinimum": 0,
                        "description": "加棒 is open only when the landlord's stake (the winning bid) "
                                       "equals this (004: 3分)."},
        },
    }

    def __init__(self, params: dict[str, Any]) -> None:
        self.factor = params.get("factor", 2)
        self.top_bid = params.get("top_bid", 3)

    @hookimpl
    def ddzrules_describe(self) -> dict[str, Any]:
        """加棒 as configured: when it is open and what it multiplies."""
        f, top = times(self.factor), f"{self.top_bid:g}"
        d = Description(f"加棒: after a {top}-point bid each farmer may {f} his own settlement with "
                        f"the landlord",
                        f"加棒：地主叫{top}分时，每位农民可将自己与地主之间的得失分{f}")
        d.rule(f"加棒 is offered only when the landlord's bid (the stake) is {top}.",
               f"只有地主所叫为{top}分时才能加棒。")
        d.rule(f"Each farmer in turn, in the order of play from the landlord, may 加棒 once: the "
               f"settlement between him and the landlord {f}, the other farmer's untouched; both "
               f"farmers may.",
               f"两位农民从地主下家起依次可选择加棒一次：该农民与地主之间的得失分{f}，"
               f"另一位农民不受影响；两位农民都可以加棒。")
        d.param("factor", self.factor, "the factor on that farmer's settlement with the landlord",
                "该农民与地主之间得失分的倍数")
        d.param("top_bid", self.top_bid, "the bid that opens 加棒", "可以加棒的叫分")
        return d.done()

    @hookimpl
    def ddzrules_actions(self) -> list[tuple[str, Any]]:
        return [("decline", None), ("jiabang", None)]

    @hookimpl
    def ddzrules_declaration_phases(self, game: Game) -> list[JiaBangPhase]:
        if game.stake != self.top_bid:
            return []
        return [JiaBangPhase(self.factor, game)]


class JiaBangPhase:
    """The farmers, in the order of play from the landlord, each choose once."""

    name = "jiabang"

    def __init__(self, factor: float, game: Game) -> None:
        assert game.landlord is not None
        self.factor = factor
        self.queue: list[int] = []
        seat = game.landlord
        for _ in range(game.players - 1):
            seat = game.next_seat(seat)
            self.queue.append(seat)

    def to_act(self, game: Game) -> int | None:
        return self.queue[0] if self.queue else None

    def options(self, game: Game) -> list[Action]:
        seat = self.queue[0]
        return [Action(seat, "decline"), Action(seat, "jiabang")]

    def apply(self, game: Game, action: Action) -> None:
        seat = self.queue.pop(0)
        if action.kind == "jiabang":
            game.pair_factors[seat] = game.pair_factors.get(seat, 1.0) * self.factor
            game.count("jiabang")
            game.public.setdefault("jiabang", []).append(seat)
