"""Landlord protocols by point bids (叫分): once each (湖北) or rising until passes (皇冠)."""

from __future__ import annotations

import random
from typing import Any, ClassVar

from ddzrules import cards as C
from ddzrules.hookspecs import hookimpl
from ddzrules.runtime import Action, Game


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
        return {"summary": f"point bids {self.bids}, {self.rounds}, first bidder {self.first_bidder}"}

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
        first = random.Random(game.match.seed).randrange(n)
        seat = first
        for _ in range(game.match.index + game.deal_number):
            seat = game.next_seat(seat)
        return seat

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
