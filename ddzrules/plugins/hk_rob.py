"""搶地主 as the HOYA (Hong Kong) rules play it (003, digest D).

The holder of the card turned face up in the deal chooses first whether to be
landlord (選擇當地主); if he declines, the next player chooses, and so on; if nobody
takes it the cards are shuffled and dealt again. Once a player takes it the stake
is three times the base (相當於選3分). Then the next player may rob (搶地主: he becomes
the landlord and the stake is doubled) or decline, then the next, and so on round
the table. The landlord is final when the landlord is robbed for the second time,
or when every other player has declined (當有玩家第二次搶到地主,或其他玩家均放棄搶地主時).
Declining — to take or to rob — gives up the landlord for the rest of the deal
(如不搶即放棄做地主).

"第二次搶到地主" is ambiguous; ``ends`` chooses the reading:

* ``second-rob`` (default): the second rob of the deal ends the robbing, whoever
  makes it;
* ``own-second-rob``: a player robbing for his own second time ends it (taking the
  landlord is not a rob), so the landlord can change hands more often.
"""

from __future__ import annotations

from typing import Any, ClassVar

from ddzrules.hookspecs import hookimpl
from ddzrules.plugins import Description, first_bidder_rule, times
from ddzrules.plugins.bidding import PointBids
from ddzrules.runtime import Action, Game, MultiplierEvent


class HkRob:
    """HK 搶地主: take (×3 base) then robs (×2 each) until the second rob or all decline."""

    name = "hk-rob"
    params_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "take_stake": {"type": "number", "exclusiveMinimum": 0,
                           "description": "The stake once a player takes the landlord (003: 3, 相當於選3分)."},
            "rob_factor": {"type": "number", "exclusiveMinimum": 0,
                           "description": "The multiplier of each rob (003: ×2)."},
            "ends": {"enum": ["second-rob", "own-second-rob"],
                     "description": "second-rob: the second rob of the deal makes the landlord final; "
                                    "own-second-rob: a player's own second rob does."},
            "first_bidder": {"enum": ["face-up-card", "random-then-rotate", "random"],
                             "description": "Who chooses first, as point-bids chooses its first bidder "
                                            "(003: face-up-card)."},
        },
    }

    def __init__(self, params: dict[str, Any]) -> None:
        self.take_stake = params.get("take_stake", 3)
        self.rob_factor = params.get("rob_factor", 2)
        self.ends = params.get("ends", "second-rob")
        self.first_bidder = params.get("first_bidder", "face-up-card")
        # the first chooser is found exactly as point-bids finds its first bidder
        self._first = PointBids({"first_bidder": self.first_bidder})

    @hookimpl
    def ddzrules_describe(self) -> dict[str, Any]:
        """Taking, robbing and the end of robbing as configured (the sheet's landlord rules)."""
        rob, stake = times(self.rob_factor), f"{self.take_stake:g}"
        d = Description(f"搶地主: take the landlord (stake {stake}), then robs {rob} each",
                        f"抢地主：当地主（底分{stake}），之后每抢一次{rob}")
        first_bidder_rule(d, self.first_bidder, "chooses", "选择")
        d.rule("Each player in turn may take the landlord or decline, until one takes it; if all "
               "decline, the cards are dealt again.",
               "每位玩家依次选择当地主或放弃，直到有人当地主；所有人都放弃则重新发牌。")
        d.rule(f"Taking the landlord sets the stake to {stake}.", f"当地主后底分为{stake}。")
        d.rule(f"Then each other player in turn who has not declined may rob ({rob}; he becomes "
               f"the landlord) or decline; declining gives the landlord up for the deal, and a "
               f"player robbed from may rob back when his turn comes round.",
               f"之后其他未放弃的玩家依次可以抢地主（{rob}，抢到者成为地主）或放弃；"
               f"放弃即本局不再当地主，被抢者轮到时可以抢回。")
        if self.ends == "second-rob":
            d.rule("The second rob of the deal ends the robbing, whoever makes it; otherwise it "
                   "ends when every other player has declined.",
                   "本局第二次有人抢地主即结束抢地主；否则在其他玩家都放弃时结束。")
        else:
            d.rule("A player's own second rob ends the robbing; otherwise it ends when every other "
                   "player has declined.",
                   "有玩家自己第二次抢到地主即结束抢地主；否则在其他玩家都放弃时结束。")
        d.param("take_stake", self.take_stake, "the stake once a player takes the landlord",
                "当地主后的底分")
        d.param("rob_factor", self.rob_factor, "the multiplier of each rob", "每次抢地主的倍数")
        d.param("ends", self.ends,
                "second-rob: the deal's second rob ends the robbing; own-second-rob: a player's "
                "own second rob does",
                "second-rob：本局第二次抢地主即结束；own-second-rob：玩家自己的第二次抢地主才结束")
        d.param("first_bidder", self.first_bidder, "who chooses first", "谁先选择")
        return d.done()

    @hookimpl
    def ddzrules_first_bidder(self, game: Game) -> int:
        return self._first.ddzrules_first_bidder(game)

    @hookimpl
    def ddzrules_actions(self) -> list[tuple[str, Any]]:
        return [("decline", None), ("take", None), ("rob", None)]

    @hookimpl
    def ddzrules_landlord_phase(self, game: Game) -> HkRobPhase:
        return HkRobPhase(self, game)


class HkRobPhase:
    """Steps: ``take`` (each player in turn, until one takes) then ``rob``."""

    name = "hk-rob"

    def __init__(self, plugin: HkRob, game: Game) -> None:
        self.plugin = plugin
        self.turn: int | None = game.first_bidder
        self.step = "take"
        self.out: set[int] = set()  # declined to take or to rob: no longer a candidate
        self.holder: int | None = None  # the current landlord
        self.robs = 0
        self.robs_by = [0] * game.players

    def to_act(self, game: Game) -> int | None:
        return self.turn

    def options(self, game: Game) -> list[Action]:
        seat = self.turn
        assert seat is not None
        return [Action(seat, "decline"), Action(seat, "take" if self.step == "take" else "rob")]

    def apply(self, game: Game, action: Action) -> None:
        seat = action.seat
        if self.step == "take":
            if action.kind == "take":
                self.holder = seat
                self.step = "rob"
                game.stake = self.plugin.take_stake
                game.count("takes")
                self._publish(game)
                self._next_robber(game, seat)
                return
            self.out.add(seat)
            if len(self.out) >= game.players:
                self.turn = None
                game.request_redeal("nobody took the landlord")
                return
            self.turn = game.next_seat(seat)
            return
        if action.kind == "rob":
            self.holder = seat
            self.robs += 1
            self.robs_by[seat] += 1
            game.add_event(MultiplierEvent("rob", self.plugin.rob_factor, seat, f"rob {self.robs}"))
            game.count("robs")
            self._publish(game)
            if self.plugin.ends == "second-rob" and self.robs >= 2:
                return self._end(game)
            if self.plugin.ends == "own-second-rob" and self.robs_by[seat] >= 2:
                return self._end(game)
        else:
            self.out.add(seat)
        self._next_robber(game, seat)

    def _next_robber(self, game: Game, after: int) -> None:
        """The next seat after ``after`` that may still rob, or the end."""
        seat = after
        for _ in range(game.players):
            seat = game.next_seat(seat)
            if seat != self.holder and seat not in self.out:
                self.turn = seat
                return
        self._end(game)

    def _publish(self, game: Game) -> None:
        game.public["hk_rob"] = {"holder": self.holder, "robs": self.robs}

    def _end(self, game: Game) -> None:
        self.turn = None
        game.landlord = self.holder
        game.stake = self.plugin.take_stake
