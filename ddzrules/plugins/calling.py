"""叫地主/抢地主 (call and rob), with 明牌 before/during the deal and 黄金眼 peeks.

As 欢乐斗地主 plays it (001, 004): players may 明牌 (show their hand) before the
deal or during it; the first to show calls first. Calling goes round: 叫地主 or
不叫; the first call ends calling. If all decline, the first player who showed is
landlord, else the cards are dealt again. Then each player who has not declined
has exactly one chance to 抢地主 (rob), in order after the caller; the last robber
is landlord, or the caller if nobody robs. Each rob multiplies the score.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from ddzrules import cards as C
from ddzrules.hookspecs import hookimpl
from ddzrules.plugins import Description, times
from ddzrules.plugins.bidding import rotated_seat
from ddzrules.runtime import Action, Game, MultiplierEvent

_SHOW_GROUP = "mingpai"


class CallRob:
    """叫地主 then 抢地主, one chance each; 明牌 priority; optional rob-back and 黄金眼."""

    name = "call-rob"
    params_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "rob_factor": {"type": "number", "exclusiveMinimum": 0, "description": "×2 per rob (004)."},
            "rob_back": {"type": "boolean",
                         "description": "After being robbed, the caller gets one last chance to rob back "
                                        "(the texts leave it open)."},
            "first_caller": {"enum": ["random", "random-then-rotate"]},
            "show": {
                "type": ["object", "null"], "additionalProperties": False,
                "description": "明牌 before the calling: factors per moment (004: ×5 before the deal, ×4/×3 "
                               "during it); factor 1 when 明牌 does not multiply (001).",
                "properties": {
                    "before_deal": {"type": "number", "exclusiveMinimum": 0},
                    "during_deal": {
                        "type": "array",
                        "items": {"type": "object", "additionalProperties": False, "required": ["cards", "factor"],
                                  "properties": {"cards": {"type": "integer", "minimum": 1},
                                                 "factor": {"type": "number", "exclusiveMinimum": 0}}},
                    },
                },
            },
            "golden_eye": {
                "type": ["object", "null"], "additionalProperties": False,
                "description": "黄金眼: while calling or robbing a player may peek at kitty cards.",
                "properties": {"peeks": {"type": "integer", "minimum": 1},
                               "cards": {"type": "integer", "minimum": 1}},
            },
        },
    }

    def __init__(self, params: dict[str, Any]) -> None:
        self.rob_factor = params.get("rob_factor", 2)
        self.rob_back = bool(params.get("rob_back", False))
        self.first_caller = params.get("first_caller", "random")
        show = params.get("show")
        self.show_moments: list[tuple[str, int, float]] = []  # (name, cards visible, factor)
        if show:
            if "before_deal" in show:
                self.show_moments.append(("show_before_deal", 0, show["before_deal"]))
            for step in show.get("during_deal", []):
                self.show_moments.append(("show_during_deal", step["cards"], step["factor"]))
        eye = params.get("golden_eye")
        self.peeks = eye.get("peeks", 2) if eye else 0
        self.peek_cards = eye.get("cards", 2) if eye else 0

    @hookimpl
    def ddzrules_describe(self) -> dict[str, Any]:
        """明牌, calling, robbing and 黄金眼 as configured (the sheet's landlord rules)."""
        rob = times(self.rob_factor)
        d = Description(f"叫地主/抢地主: a call, then one rob each ({rob})"
                        + (", rob back" if self.rob_back else ""),
                        f"叫地主/抢地主：叫地主后每人一次抢地主机会（{rob}）"
                        + ("，可抢回" if self.rob_back else ""))
        if self.show_moments:
            en = "; ".join(f"before any card is seen {times(f)}" if n == 0 else
                           f"after {n} cards {times(f)}" for _, n, f in self.show_moments)
            zh = "；".join(f"发牌前{times(f)}" if n == 0 else f"发到第{n}张牌时{times(f)}"
                          for _, n, f in self.show_moments)
            d.rule(f"Before the calling, each player in turn may show his hand (明牌): {en}. The "
                   f"first to show calls first; of several 明牌 only the largest factor counts.",
                   f"叫地主前，每位玩家依次可选择明牌：{zh}。最先明牌的玩家先叫地主；"
                   f"多人明牌时只按最大的明牌倍数计算。")
        if self.first_caller == "random-then-rotate":
            d.rule("The first caller is drawn at random in a match's first game, then it is the "
                   "next seat each game (a redeal counts as a new game).",
                   "首局随机选定第一个叫地主的玩家，之后每局（重新发牌也算一局）由下一位玩家先叫。")
        else:
            d.rule("The first caller is drawn at random in every deal.",
                   "每次发牌后随机选定第一个叫地主的玩家。")
        d.rule("Each player in turn may call the landlord (叫地主) or decline; the first call ends "
               "the calling.", "每位玩家依次选择叫地主或不叫；有人叫地主即结束叫地主。")
        if self.show_moments:
            d.rule("If nobody calls, the first player who showed his hand is the landlord; if "
                   "nobody showed, the cards are dealt again.",
                   "如果无人叫地主，由最先明牌的玩家当地主；无人明牌则重新发牌。")
        else:
            d.rule("If nobody calls, the cards are dealt again.", "如果无人叫地主，重新发牌。")
        d.rule(f"Then each player who did not decline to call, in order after the caller, has one "
               f"chance to rob (抢地主), {rob} each; the last to rob is the landlord, or the caller "
               f"if nobody robs.",
               f"之后未选择不叫的玩家从叫地主者的下家起按顺序各有一次抢地主的机会，每抢一次{rob}；"
               f"最后抢地主的玩家成为地主，无人抢则叫地主者为地主。")
        if self.rob_back:
            d.rule("A caller who has been robbed may rob back, once.", "被抢的叫地主者可以再抢回一次。")
        else:
            d.rule("A caller who has been robbed does not rob back.", "叫地主者被抢后不能再抢回。")
        if self.peeks:
            d.rule(f"黄金眼: while calling or robbing, a player may look at {self.peek_cards} kitty "
                   f"cards drawn at random, at most {self.peeks} times a game; only he sees them.",
                   f"黄金眼：叫地主或抢地主时，玩家可查看随机{self.peek_cards}张底牌，"
                   f"每局最多{self.peeks}次，只有自己可见。")
        d.rule("The stake (底分) is 1; robs and 明牌 multiply the score.",
               "底分为1；抢地主和明牌的倍数计入总倍数。")
        show: dict[str, Any] | None = None
        if self.show_moments:
            show = {}
            for name, _, f in self.show_moments:
                if name == "show_before_deal":
                    show["before_deal"] = f
            during = [{"cards": n, "factor": f} for name, n, f in self.show_moments
                      if name == "show_during_deal"]
            if during:
                show["during_deal"] = during
        eye = {"peeks": self.peeks, "cards": self.peek_cards} if self.peeks else None
        d.param("rob_factor", self.rob_factor, "the multiplier of each rob", "每次抢地主的倍数")
        d.param("rob_back", self.rob_back, "whether a caller who was robbed may rob back once",
                "被抢的叫地主者能否再抢回一次")
        d.param("first_caller", self.first_caller, "who calls first", "谁先叫地主")
        d.param("show", show, "明牌 before the calling: the factor of each moment",
                "叫地主前明牌：各时机的倍数")
        d.param("golden_eye", eye, "黄金眼: peeks a game, and kitty cards a peek",
                "黄金眼：每局次数与每次查看的底牌张数")
        return d.done()

    @hookimpl
    def ddzrules_first_bidder(self, game: Game) -> int:
        n = game.players
        if self.first_caller == "random-then-rotate":
            return rotated_seat(game, random.Random(game.match.seed).randrange(n))
        return game.rng.randrange(n)

    @hookimpl
    def ddzrules_actions(self) -> list[tuple[str, Any]]:
        out: list[tuple[str, Any]] = [("decline", None), ("call", None), ("rob", None)]
        if self.show_moments:
            out.append(("show", None))
        if self.peeks:
            out.append(("peek", None))
        return out

    @hookimpl
    def ddzrules_landlord_phase(self, game: Game) -> CallRobPhase:
        return CallRobPhase(self, game)


class CallRobPhase:
    """Steps: each 明牌 moment (everyone in turn), then calling, then robbing."""

    name = "call-rob"

    def __init__(self, plugin: CallRob, game: Game) -> None:
        self.plugin = plugin
        self.first = game.first_bidder
        self.shown_first: int | None = None
        self.declined: set[int] = set()
        self.caller: int | None = None
        self.holder: int | None = None  # the current landlord candidate
        self.peeks_used = [0] * game.players
        # the queue of (step, seat) decisions still to come
        self.queue: list[tuple[str, int]] = []
        self.moment = -1
        self._next_moment(game)

    # -- steps
    def _order_from(self, game: Game, seat: int) -> list[int]:
        order = [seat]
        while len(order) < game.players:
            order.append(game.next_seat(order[-1]))
        return order

    def _next_moment(self, game: Game) -> None:
        self.moment += 1
        moments = self.plugin.show_moments
        if self.moment < len(moments):
            _, visible, _ = moments[self.moment]
            game.visible_dealt = visible
            self.queue = [("show", s) for s in self._order_from(game, self.first) if s not in game.shown_hands]
            if not self.queue:
                self._next_moment(game)
            return
        game.visible_dealt = None
        start = self.shown_first if self.shown_first is not None else self.first
        self.queue = [("call", s) for s in self._order_from(game, start)]

    def to_act(self, game: Game) -> int | None:
        return self.queue[0][1] if self.queue else None

    def options(self, game: Game) -> list[Action]:
        step, seat = self.queue[0]
        if step == "show":
            out = [Action(seat, "decline"), Action(seat, "show")]
        elif step == "call":
            out = [Action(seat, "decline"), Action(seat, "call")]
        else:
            out = [Action(seat, "decline"), Action(seat, "rob")]
        if step in ("call", "rob", "rob_back") and self.peeks_used[seat] < self.plugin.peeks:
            out.append(Action(seat, "peek"))
        return out

    def apply(self, game: Game, action: Action) -> None:
        step, seat = self.queue[0]
        kind = action.kind
        if kind == "peek":  # 黄金眼: the turn goes on after the peek
            self.peeks_used[seat] += 1
            kitty = C.deck_list(game.kitty)
            seen = game.rng.sample(kitty, min(self.plugin.peek_cards, len(kitty)))
            game.private[seat]["peeked"] = game.private[seat].get("peeked", []) + [
                C.counts_to_string(C.counts_of(seen))]
            game.count("peeks")
            return
        self.queue.pop(0)
        if step == "show":
            if kind == "show":
                name, _, factor = self.plugin.show_moments[self.moment]
                game.shown_hands.add(seat)
                game.add_event(MultiplierEvent(name, factor, seat, group=_SHOW_GROUP))
                game.count("shows")
                if self.shown_first is None:
                    self.shown_first = seat
            if not self.queue:
                self._next_moment(game)
            return
        if step == "call":
            if kind == "call":
                self.caller = self.holder = seat
                game.count("calls")
                # one chance to rob each, for those who have not declined, in order after the caller
                self.queue = [("rob", s) for s in self._order_from(game, game.next_seat(seat))[:-1]
                              if s not in self.declined]
                if not self.queue:
                    self._end(game)
                return
            self.declined.add(seat)
            if not self.queue:  # everyone declined
                if self.shown_first is not None:
                    self.holder = self.shown_first
                    self._end(game)
                else:
                    game.request_redeal("nobody called the landlord")
            return
        # rob / rob back
        if kind == "rob":
            self.holder = seat
            game.add_event(MultiplierEvent("rob", self.plugin.rob_factor, seat))
            game.count("robs")
        if not self.queue:
            robbed = self.holder != self.caller
            if step == "rob" and robbed and self.plugin.rob_back and self.caller is not None:
                self.queue = [("rob_back", self.caller)]
                return
            self._end(game)

    def _end(self, game: Game) -> None:
        self.queue = []
        game.visible_dealt = None
        game.landlord = self.holder
        game.stake = 1  # 底分: the call is worth one point; robs and 明牌 multiply it
