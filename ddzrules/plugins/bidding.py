"""Landlord protocols: point bids (叫分), once each (湖北) or rising until passes (皇冠), and
no bidding at all, the landlord found by the deal (the engines' games)."""

from __future__ import annotations

import random
from typing import Any, ClassVar

from ddzrules import cards as C
from ddzrules.hookspecs import hookimpl
from ddzrules.plugins import Description, first_bidder_rule
from ddzrules.runtime import Action, Game


def rotated_seat(game: Game, first: int) -> int:
    """Where a first seat of the match's first game has moved to by this game: one seat
    on per earlier game of the match and per redeal of this one. In closed form, not a
    step per game, so game N costs the same as game 0 and a record's huge match index
    cannot hang a replay; seats are numbered in the order of play (``next_seat`` is one
    on, modulo the players)."""
    return (first + game.match.index + game.deal_number) % game.players


class PointBids:
    """Bids of 1/2/3 points (or as configured); the highest bid takes the landlord.

    ``rounds: once`` — each player bids once, in turn (湖北, 000 A1).
    ``rounds: until-passes`` — bidding goes round, each bid higher than the last,
    until ``passes_to_end`` consecutive passes follow a bid (皇冠, 002).
    Either way the top bid ends the auction at once, and if nobody bids the cards
    are dealt again. The first bidder is chosen by ``first_bidder``.
    """

    name = "point-bids"
    params_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "bids": {"type": "array", "items": {"type": "integer", "minimum": 1}, "minItems": 1,
                     "uniqueItems": True, "description": "Allowed bids, e.g. [1, 2, 3]."},
            "rounds": {"enum": ["once", "until-passes"]},
            "passes_to_end": {"type": "integer", "minimum": 1,
                              "description": "until-passes: consecutive passes after a bid that end it "
                                             "(default: players - 1)."},
            "must_bid": {
                "type": "object", "additionalProperties": False,
                "description": "A player holding every joker (rocket: true) or this many bombs must bid "
                               "at least the lowest bid when nobody has bid before him (湖北 two decks).",
                "properties": {"rocket": {"type": "boolean"}, "bombs": {"type": "integer", "minimum": 1}},
            },
            "first_bidder": {"enum": ["random-then-rotate", "face-up-card", "random"],
                             "description": "random-then-rotate: random in a match's first game, then the "
                                            "next seat each game (and each redeal); face-up-card: the "
                                            "holder of a card turned face up in the deal."},
        },
    }

    def __init__(self, params: dict[str, Any]) -> None:
        self.bids = sorted(params.get("bids", [1, 2, 3]))
        self.rounds = params.get("rounds", "once")
        self.passes_to_end = params.get("passes_to_end")
        self.first_bidder = params.get("first_bidder", "random-then-rotate")
        must = params.get("must_bid") or {}
        self.must_rocket = bool(must.get("rocket", False))
        self.must_bombs = must.get("bombs")

    def must_bid(self, game: Game, seat: int) -> bool:
        """Whether ``seat`` may not pass because of the strength of his hand."""
        hand = game.hands[seat]
        deck = game.variant.rules.deck
        if self.must_rocket and all(hand[j] == deck[j] > 0 for j in (C.SMALL_JOKER, C.BIG_JOKER)):
            return True
        bombs = sum(1 for r in range(C.SMALL_JOKER) if hand[r] >= 4)
        return self.must_bombs is not None and bombs >= self.must_bombs

    @hookimpl
    def ddzrules_describe(self) -> dict[str, Any]:
        """The auction as configured: the sheet prints it as the spec's landlord rules."""
        bids = ", ".join(map(str, self.bids))
        top = self.bids[-1]
        d = Description(f"叫分: bids of {bids} points, the highest bidder is the landlord",
                        f"叫分：可叫{'、'.join(map(str, self.bids))}分，叫分最高者为地主")
        first_bidder_rule(d, self.first_bidder)
        if self.rounds == "once":
            d.rule("Each player bids once, in turn: a bid higher than every earlier bid, or a "
                   "pass.", "每人按顺序只叫一次：叫比之前都高的分，或不叫。")
        elif self.passes_to_end is None:
            d.rule("Bidding goes round the table, each bid higher than the last, until every other "
                   "player has passed in a row after a bid; a player who passed may bid again.",
                   "叫分轮流进行，每次须高于前一次，直到有人叫分后其余玩家都连续不叫为止；"
                   "不叫过的玩家轮到时仍可再叫。")
        else:
            d.rule(f"Bidding goes round the table, each bid higher than the last, until "
                   f"{self.passes_to_end} consecutive passes follow a bid; a player who passed may "
                   f"bid again.",
                   f"叫分轮流进行，每次须高于前一次，直到有人叫分后连续{self.passes_to_end}人不叫为止；"
                   f"不叫过的玩家轮到时仍可再叫。")
        d.rule(f"A bid of {top} ends the bidding at once.", f"叫到{top}分立即结束叫分。")
        d.rule("The highest bidder is the landlord, and his bid is the stake (底分).",
               "叫分最高的玩家成为地主，所叫分数即底分。")
        d.rule("If every player passes, the cards are dealt again.", "如果所有人都不叫，重新发牌。")
        if self.must_rocket:
            d.rule("A player holding every joker must bid when nobody has bid before him.",
                   "手握全部王牌的玩家，在之前无人叫分时必须叫分。")
        if self.must_bombs is not None:
            d.rule(f"A player holding {self.must_bombs} bombs (ranks of 4 or more cards) must bid "
                   f"when nobody has bid before him.",
                   f"手握{self.must_bombs}个炸弹（同点数4张或以上）的玩家，在之前无人叫分时必须叫分。")
        must = {k: v for k, v in (("rocket", self.must_rocket), ("bombs", self.must_bombs)) if v}
        d.param("bids", self.bids, "the bids allowed", "可叫的分数")
        d.param("rounds", self.rounds,
                "once: each player bids once; until-passes: bidding goes round until passes end it",
                "once：每人只叫一次；until-passes：轮流叫分直到连续不叫为止")
        d.param("passes_to_end", self.passes_to_end,
                "until-passes: the passes after a bid that end the bidding (none: every other "
                "player)",
                "until-passes：有人叫分后结束叫分的连续不叫人数（未设：其余所有玩家）")
        d.param("must_bid", must or None, "the hands that may not pass while nobody has bid",
                "在无人叫分时不得不叫的牌")
        d.param("first_bidder", self.first_bidder, "who bids first", "谁先叫分")
        return d.done()

    @hookimpl
    def ddzrules_actions(self) -> list[tuple[str, Any]]:
        return [("bid", b) for b in self.bids]

    @hookimpl
    def ddzrules_first_bidder(self, game: Game) -> int:
        n = game.players
        if self.first_bidder == "face-up-card":
            dealt = game.rules.hand_size * n
            index = game.rng.randrange(dealt)
            seat = index // game.rules.hand_size
            game.face_up = (seat, game.dealt_order[index])
            game.public["face_up"] = {"seat": seat, "card": "3456789TJQKA2XD"[game.dealt_order[index]]}
            return seat
        if self.first_bidder == "random":
            return game.rng.randrange(n)
        # random in the match's first game (from the match seed), then rotating
        return rotated_seat(game, random.Random(game.match.seed).randrange(n))

    @hookimpl
    def ddzrules_landlord_phase(self, game: Game) -> PointBidPhase:
        return PointBidPhase(self, game)


class PointBidPhase:
    name = "point-bids"

    def __init__(self, plugin: PointBids, game: Game) -> None:
        self.plugin = plugin
        self.turn: int | None = game.first_bidder
        self.high = 0
        self.high_seat: int | None = None
        self.acted = 0
        self.passes_in_row = 0
        self.passes_to_end = plugin.passes_to_end or game.players - 1

    def to_act(self, game: Game) -> int | None:
        return self.turn

    def options(self, game: Game) -> list[Action]:
        seat = self.turn
        assert seat is not None
        bids = [Action(seat, "bid", b) for b in self.plugin.bids if b > self.high]
        if self.high_seat is None and self.plugin.must_bid(game, seat):
            return bids
        return [Action(seat, "pass")] + bids

    def apply(self, game: Game, action: Action) -> None:
        self.acted += 1
        if action.kind == "bid":
            assert isinstance(action.value, int)
            self.high, self.high_seat = action.value, action.seat
            self.passes_in_row = 0
            game.stake = self.high
            game.public["high_bid"] = {"seat": action.seat, "bid": self.high}
            if self.high == self.plugin.bids[-1]:
                return self._end(game)
        else:
            self.passes_in_row += 1
        if self.plugin.rounds == "once" or self.high_seat is None:
            if self.acted >= game.players:
                return self._end(game)
        elif self.passes_in_row >= self.passes_to_end:
            return self._end(game)
        self.turn = game.next_seat(action.seat)

    def _end(self, game: Game) -> None:
        self.turn = None
        if self.high_seat is None:
            game.request_redeal("every player passed")
        else:
            game.landlord = self.high_seat
            game.stake = self.high


class DealtLandlord:
    """No auction: the landlord is found by the deal alone, as in the engines' games
    (RLCard's ``Dealer.determine_role`` makes ``players[0]`` the landlord of every deal;
    DouZero's env has fixed roles). He takes the kitty; the stake is ``stake``.

    ``seat: first`` — seat 0 every game; ``random`` — drawn in every deal;
    ``random-then-rotate`` — drawn in a match's first game, then the next seat each game.
    """

    name = "dealt-landlord"
    params_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "seat": {"enum": ["first", "random", "random-then-rotate"],
                     "description": "first: seat 0 every game; random: drawn in every deal; "
                                    "random-then-rotate: drawn in a match's first game, then the next "
                                    "seat each game."},
            "stake": {"type": "integer", "minimum": 1, "description": "The stake (底分) of every game."},
        },
    }

    def __init__(self, params: dict[str, Any]) -> None:
        self.seat = params.get("seat", "first")
        self.stake = int(params.get("stake", 1))

    @hookimpl
    def ddzrules_describe(self) -> dict[str, Any]:
        d = Description("No bidding: the landlord is chosen by the deal", "不叫地主：地主由发牌决定")
        if self.seat == "first":
            d.rule("The first seat (seat 0) is the landlord in every game.", "每局都由第一个座位（0号）当地主。")
        elif self.seat == "random":
            d.rule("The landlord is drawn at random in every deal.", "每次发牌后随机选定地主。")
        else:
            d.rule("The landlord is drawn at random in a match's first game, then it is the next seat in "
                   "the order of play each game.", "首局随机选定地主，之后每局由下一位玩家当地主。")
        d.rule(f"The landlord takes the kitty; the stake (底分) is {self.stake}.",
               f"地主拿底牌；底分为{self.stake}。")
        d.param("seat", self.seat, "who is the landlord", "谁当地主")
        d.param("stake", self.stake, "the stake of every game", "每局的底分")
        return d.done()

    @hookimpl
    def ddzrules_actions(self) -> list[tuple[str, Any]]:
        return []  # the deal chooses the landlord: no decision

    @hookimpl
    def ddzrules_first_bidder(self, game: Game) -> int:
        if self.seat == "first":
            return 0
        if self.seat == "random":
            return game.rng.randrange(game.players)
        return rotated_seat(game, random.Random(game.match.seed).randrange(game.players))

    @hookimpl
    def ddzrules_landlord_phase(self, game: Game) -> DealtLandlordPhase:
        return DealtLandlordPhase(self.stake)


class DealtLandlordPhase:
    """A landlord phase with no decision: the first bidder (the seat the deal chose) is
    the landlord as soon as the runtime asks who acts."""

    name = "dealt-landlord"

    def __init__(self, stake: int) -> None:
        self.stake = stake

    def to_act(self, game: Game) -> int | None:
        game.landlord = game.first_bidder
        game.stake = self.stake
        return None

    def options(self, game: Game) -> list[Action]:
        return []  # never asked: the phase has no seat to act

    def apply(self, game: Game, action: Action) -> None:
        raise AssertionError("dealt-landlord has no decision to apply")  # the runtime never calls it
