"""Deals that are not shuffled: 不洗牌 (no-shuffle), the last game's cards picked up in the
order they were played, cut and dealt in clumps, so that the bombs and chains of the last
game come round again."""

from __future__ import annotations

from typing import Any, ClassVar

from ddzrules.hookspecs import hookimpl
from ddzrules.plugins import Description
from ddzrules.runtime import Game


class NoShuffle:
    """不洗牌: the deal of a game is the previous game's cards as they were gathered
    (:meth:`~ddzrules.runtime.Game.gathered_cards`: the plays in order, then the cards left
    in hand), cut, then dealt round the table ``clump`` cards at a time, seat 0 first,
    until every hand is full; the next cards are the kitty, the rest stay undealt.

    ``cut: random`` — cut at a point drawn from the game's seed (at least one card from
    either end); ``cut: none`` — no cut. A match's first game, with no previous game (or
    a previous game of another deck), is shuffled as usual.
    """

    name = "no-shuffle"
    #: the deal depends on the match's previous game (simulate plays one before each game)
    carries_cards = True
    params_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "clump": {"type": "integer", "minimum": 1, "maximum": 64,
                      "description": "Cards dealt to a seat at a time (default 4)."},
            "cut": {"enum": ["random", "none"],
                    "description": "random: the gathered cards are cut at a random point; none: not cut "
                                   "(default random)."},
        },
    }

    def __init__(self, params: dict[str, Any]) -> None:
        self.clump = int(params.get("clump", 4))
        self.cut = params.get("cut", "random")

    @hookimpl
    def ddzrules_describe(self) -> dict[str, Any]:
        d = Description(f"不洗牌: the last game's cards, cut, dealt {self.clump} at a time",
                        f"不洗牌：上一局的牌不洗，切牌后每次发{self.clump}张")
        d.rule("The cards of the last game are picked up in the order they were played, then the "
               "cards left in each hand (seat by seat); they are not shuffled.",
               "上一局的牌按出牌顺序收起，再收各家手里剩下的牌（按座位顺序），不洗牌。")
        if self.cut == "random":
            d.rule("The pack is cut once at a random point.", "随机切牌一次。")
        d.rule(f"The cards are dealt round the table {self.clump} at a time, the first seat first, "
               f"until every hand is full; the next cards are the kitty.",
               f"从第一个座位起轮流每次发{self.clump}张，直到每人手牌发满；接下来的牌为底牌。")
        d.rule("The first game of a match has no last game: its cards are shuffled.",
               "一场比赛的第一局没有上一局：洗牌发牌。")
        d.param("clump", self.clump, "cards dealt to a seat at a time", "每次发给一家的张数")
        d.param("cut", self.cut, "random: one cut at a random point; none: no cut",
                "random：随机切牌一次；none：不切牌")
        return d.done()

    @hookimpl
    def ddzrules_deal(self, game: Game, deck: list[int]) -> list[int] | None:
        previous = game.match.previous_cards
        if previous is None or sorted(previous) != deck:
            return None  # nothing gathered (or another deck's cards): a shuffled deal
        cards = list(previous)
        if self.cut == "random" and len(cards) > 1:
            at = game.rng.randrange(1, len(cards))
            cards = cards[at:] + cards[:at]
        hand, players = game.rules.hand_size, game.players
        hands: list[list[int]] = [[] for _ in range(players)]
        pos = 0
        while any(len(h) < hand for h in hands):
            for h in hands:
                take = min(self.clump, hand - len(h))
                h += cards[pos:pos + take]
                pos += take
        return [c for h in hands for c in h] + cards[pos:]
