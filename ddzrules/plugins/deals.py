"""Deals that are not shuffled: 不洗牌 (no-shuffle), the last game's cards picked up in the
order they were played, cut and dealt in clumps, so that the bombs and chains of the last
game come round again; or, as the apps' 不洗牌 rooms deal, the pack in rank order, cut and
dealt in runs of a few cards."""

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

    ``gather: sorted`` — the apps' 不洗牌 rooms: the pack in rank order (3s up to the 2s,
    then the jokers: the last game's cards sorted, 理牌), in every game, the first too;
    with ``clump: [3, 5]`` each run dealt to a seat is 3 to 5 cards, drawn from the
    game's seed. Far more bombs than the gathered reading: the sheet of a bundled spec
    states each reading's measured density (``benchmarks/bench_buxipai.py``).
    """

    name = "no-shuffle"
    params_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "clump": {"oneOf": [{"type": "integer", "minimum": 1, "maximum": 64},
                                {"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": 64},
                                 "minItems": 2, "maxItems": 2}],
                      "description": "Cards dealt to a seat at a time (default 4); [low, high]: "
                                     "each run is low to high cards, drawn from the game's seed."},
            "cut": {"enum": ["random", "none"],
                    "description": "random: the gathered cards are cut at a random point; none: not cut "
                                   "(default random)."},
            "gather": {"enum": ["played", "sorted"],
                       "description": "played: the last game's cards in the order they were played, "
                                      "then the hands (default; a match's first game is shuffled); "
                                      "sorted: the pack in rank order in every game, as the apps' "
                                      "不洗牌 rooms deal."},
        },
    }

    def __init__(self, params: dict[str, Any]) -> None:
        clump = params.get("clump", 4)
        self.clump: int | tuple[int, int] = (
            (min(int(clump[0]), int(clump[1])), max(int(clump[0]), int(clump[1])))
            if isinstance(clump, list | tuple) else int(clump))
        self.cut = params.get("cut", "random")
        self.gather = params.get("gather", "played")
        #: the deal depends on the match's previous game (simulate plays one before each
        #: game): not in rank order, which deals from the deck alone
        self.carries_cards = self.gather == "played"

    def _runs(self) -> tuple[str, str]:
        if isinstance(self.clump, tuple):
            return f"{self.clump[0]} to {self.clump[1]}", f"{self.clump[0]}到{self.clump[1]}"
        return str(self.clump), str(self.clump)

    @hookimpl
    def ddzrules_describe(self) -> dict[str, Any]:
        en, zh = self._runs()
        sorted_ = self.gather == "sorted"
        d = Description(f"不洗牌: {'the pack in rank order' if sorted_ else 'the last game’s cards'}, "
                        f"cut, dealt {en} at a time",
                        f"不洗牌：{'按点数排好的牌' if sorted_ else '上一局的牌不洗'}，切牌后每次发{zh}张")
        if sorted_:
            d.rule("Every game is dealt from the pack in rank order (the 3s, the 4s, … the 2s, then the "
                   "jokers), as the apps' 不洗牌 rooms deal: the last game's cards sorted, never shuffled.",
                   "每一局都从按点数排好的牌发牌（3、4……2，然后大小王），如各应用的不洗牌场：上一局的牌理好，不洗。")
        else:
            d.rule("The cards of the last game are picked up in the order they were played, then the "
                   "cards left in each hand (seat by seat); they are not shuffled.",
                   "上一局的牌按出牌顺序收起，再收各家手里剩下的牌（按座位顺序），不洗牌。")
        if self.cut == "random":
            d.rule("The pack is cut once at a random point.", "随机切牌一次。")
        if isinstance(self.clump, tuple):
            d.rule(f"The cards are dealt round the table in runs of {en} cards (each run's size drawn "
                   f"at random), the first seat first, until every hand is full; the next cards are the kitty.",
                   f"从第一个座位起轮流发牌，每次随机发{zh}张，直到每人手牌发满；接下来的牌为底牌。")
        else:
            d.rule(f"The cards are dealt round the table {en} at a time, the first seat first, "
                   f"until every hand is full; the next cards are the kitty.",
                   f"从第一个座位起轮流每次发{zh}张，直到每人手牌发满；接下来的牌为底牌。")
        if not sorted_:
            d.rule("The first game of a match has no last game: its cards are shuffled.",
                   "一场比赛的第一局没有上一局：洗牌发牌。")
        d.param("clump", list(self.clump) if isinstance(self.clump, tuple) else self.clump,
                "cards dealt to a seat at a time", "每次发给一家的张数")
        d.param("cut", self.cut, "random: one cut at a random point; none: no cut",
                "random：随机切牌一次；none：不切牌")
        d.param("gather", self.gather, "played: the last game's cards in play order; sorted: the pack in "
                "rank order", "played：上一局的牌按出牌顺序；sorted：按点数排好的牌")
        return d.done()

    @hookimpl
    def ddzrules_deal(self, game: Game, deck: list[int]) -> list[int] | None:
        if self.gather == "sorted":
            cards = sorted(deck)  # rank order: the deck list is, but a deal: plugin may not rely on it
        else:
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
                run = self.clump if isinstance(self.clump, int) else game.rng.randint(*self.clump)
                take = min(run, hand - len(h))
                h += cards[pos:pos + take]
                pos += take
        return [c for h in hands for c in h] + cards[pos:]
