"""Tables without a landlord: who leads first (首出), and settlement per card left (跑得快)."""

from __future__ import annotations

from typing import Any, ClassVar

from ddzrules import cards as C
from ddzrules.hookspecs import hookimpl
from ddzrules.plugins import Description, times
from ddzrules.runtime import Action, Game


def _rank_zh(rank: str) -> str:
    return {"X": "小王", "D": "大王", "T": "10"}.get(rank, rank)


class FirstLeader:
    """Who leads the first trick: the holder of a rank's card (跑得快: the ♠3), the previous
    game's winner, a random seat, or a fixed seat; optionally that first lead must hold
    the card.

    ddzrules has no suits. ``among: first-dealt`` reads "the holder of the ♠3" as the
    holder of the first card of ``rank`` in the shuffled deck's order among the dealt
    hands: the cards of a rank are interchangeable in the shuffle, so that card is as
    likely to be in each hand as a real ♠3 would be (a hand with two 3s is twice as
    likely). ``among: lowest-seat`` takes the lowest seat holding the rank instead.
    """

    name = "first-leader"
    params_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "by": {"enum": ["rank-holder", "previous-winner", "random", "seat"],
                   "description": "rank-holder: a holder of a card of `rank` leads (default); "
                                  "previous-winner: the seat that went out first in the match's "
                                  "previous game (MatchInfo.previous_winner), `fallback` in the "
                                  "first game; random: a seat drawn with the game's rng; seat: "
                                  "always `seat`."},
            "rank": {"type": "string", "pattern": "^(10|[3-9TJQKA2XD])$",
                     "description": "rank-holder: the rank whose card decides (default 3). A "
                                    "suit's card (跑得快's ♠3) is not written here: `among: "
                                    "first-dealt` stands for it."},
            "among": {"enum": ["first-dealt", "lowest-seat"],
                      "description": "rank-holder with several holders: first-dealt: the holder "
                                     "of the first card of the rank in the shuffled deck (a "
                                     "suit's card, e.g. ♠3, without suits; default); lowest-seat: "
                                     "the lowest seat holding one. Nobody holds one (all "
                                     "undealt): the next rank up decides."},
            "fallback": {"enum": ["rank-holder", "random", "seat"],
                         "description": "previous-winner: the rule of a match's first game "
                                        "(default rank-holder)."},
            "seat": {"type": "integer", "minimum": 0,
                     "description": "seat (and the seat fallback): the seat that leads (default 0)."},
            "lead_with": {"type": "boolean",
                          "description": "rank-holder: the first lead of the game must contain a "
                                         "card of `rank` (首出必带黑桃3; default false)."},
        },
    }

    def __init__(self, params: dict[str, Any]) -> None:
        self.by: str = params.get("by", "rank-holder")
        self.rank_name: str = C.RANKS[C.parse_rank(str(params.get("rank", "3")))]
        self.rank = C.RANKS.index(self.rank_name)
        self.among: str = params.get("among", "first-dealt")
        self.fallback: str = params.get("fallback", "rank-holder")
        self.seat: int = int(params.get("seat", 0))
        self.lead_with = bool(params.get("lead_with", False))

    # ------------------------------------------------------------------ choosing
    def holder(self, game: Game) -> tuple[int, int]:
        """(seat, rank): who holds the deciding card; the next rank up if none is dealt."""
        n, h = game.players, game.rules.hand_size
        for rank in range(self.rank, C.NUM_RANKS):
            if self.among == "lowest-seat":
                seats = [s for s in range(n) if game.hands[s][rank]]
                if seats:
                    return seats[0], rank
                continue
            for index, r in enumerate(game.dealt_order[:n * h]):
                if r == rank:
                    return index // h, rank
        return 0, self.rank  # pragma: no cover - a deal always gives someone a card

    def _choose(self, game: Game, rule: str) -> int:
        if rule == "rank-holder":
            seat, rank = self.holder(game)
            game.public["first_leader"] = {"seat": seat, "rule": rule, "card": C.RANKS[rank]}
            return seat
        seat = game.rng.randrange(game.players) if rule == "random" else self.seat % game.players
        game.public["first_leader"] = {"seat": seat, "rule": rule}
        return seat

    @hookimpl
    def ddzrules_first_leader(self, game: Game) -> int:
        if self.by == "previous-winner":
            prev = game.match.previous_winner
            if prev is not None and 0 <= prev < game.players:
                game.public["first_leader"] = {"seat": prev, "rule": "previous-winner"}
                return prev
            return self._choose(game, self.fallback)
        return self._choose(game, self.by)

    @hookimpl
    def ddzrules_restrict_actions(self, game: Game, seat: int, actions: list[Action]) -> list[Action] | None:
        """lead_with: the game's first play must contain the deciding card's rank."""
        if not self.lead_with or game.last_play is not None or any(game.played):
            return None
        info = game.public.get("first_leader") or {}
        card = info.get("card")
        if card is None or seat != game.first_leader:
            return None
        rank = C.RANKS.index(card)
        keep = [a for a in actions if a.move is not None and C.unpack(a.move.packed)[rank]]
        return keep or None

    @hookimpl
    def ddzrules_describe(self) -> dict[str, Any]:
        """Who leads first, as configured."""
        r, rz = self.rank_name, _rank_zh(self.rank_name)
        holder_en = (f"the holder of a {r} leads the first trick; with several holders, the one "
                     f"dealt the first {r} of the shuffled deck (how a {r} of one suit, e.g. the "
                     f"♠{r}, falls without suits)" if self.among == "first-dealt" else
                     f"the lowest seat holding a {r} leads the first trick")
        holder_zh = (f"持有{rz}的玩家首出；多人持有时，由洗好的牌中第一张{rz}的持有者首出"
                     f"（无花色时等同于某一花色的{rz}，如黑桃{rz}）" if self.among == "first-dealt"
                     else f"持有{rz}的座位号最小的玩家首出")
        texts = {
            "rank-holder": (holder_en, holder_zh),
            "random": ("a seat drawn at random leads the first trick", "随机选定一名玩家首出"),
            "seat": (f"seat {self.seat} leads the first trick", f"{self.seat}号座位首出"),
        }
        if self.by == "previous-winner":
            fen, fzh = texts[self.fallback]
            d = Description("the previous game's winner leads first", "上局赢家首出")
            d.rule("The player who went out first in the previous game of the match leads the "
                   f"first trick; in a match's first game, {fen}.",
                   f"由本场比赛上一局最先出完牌的玩家首出；首局时，{fzh}。")
        else:
            en, zh = texts[self.by]
            d = Description(en[0].upper() + en[1:], zh)
            d.rule(en[0].upper() + en[1:] + ".", zh + "。")
        if self.lead_with and (self.by == "rank-holder" or self.fallback == "rank-holder"):
            d.rule(f"That first lead must contain a {r}.", f"首出的牌必须包含{rz}。")
        d.param("by", self.by, "rank-holder, previous-winner, random or seat",
                "rank-holder（持牌者）、previous-winner（上局赢家）、random（随机）或 seat（固定座位）")
        d.param("rank", self.rank_name, "the rank whose card decides", "决定首出的牌点")
        d.param("among", self.among, "several holders: first-dealt (a suit's card) or lowest-seat",
                "多人持有时：first-dealt（某一花色的那张）或 lowest-seat（座位号最小者）")
        d.param("fallback", self.fallback, "previous-winner: the rule of a match's first game",
                "previous-winner：首局的规则")
        d.param("seat", self.seat, "the fixed seat (seat)", "固定首出的座位（seat）")
        d.param("lead_with", self.lead_with, "the first lead must contain the rank",
                "首出必须包含该牌点")
        return d.done()


class CardsLeftSettlement:
    """Settlement per card left (跑得快): the first player out wins; each loser pays each
    winner ``per_card`` × the cards left in his hand, with these rules, in this order:

    * ``last_card_free`` — a loser left with exactly one card pays nothing (报单不输);
    * ``shut_out`` — a loser who never played a card (被关 / 全关, also called 关门: he was
      shut out of the game) pays × ``shut_out`` (default 2);
    * the amount is multiplied by ``game.multiple`` (multiplier plugins, e.g. bombs) and
      rounded to a whole point;
    * ``bomb_points`` — apart from the cards, each bomb played (a bomb-tier combo) earns
      the bomber ``bomb_points`` from every other player (0: none).

    The winners are the first player out's side: himself at a free-for-all table, his
    team at a partnerships table, the landlord or the farmers at a landlord table; each
    loser pays every winner his amount. Scores add up to zero.
    """

    name = "cards-left"
    stake_unit_name = "points"
    params_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "per_card": {"type": "integer", "minimum": 1,
                         "description": "Points a loser pays each winner per card left (default 1)."},
            "shut_out": {"type": "number", "minimum": 1,
                         "description": "被关/全关 (关门): the factor of a loser who played no card "
                                        "(default 2; 1: no doubling)."},
            "last_card_free": {"type": "boolean",
                               "description": "A loser left with one card pays nothing (报单不输; "
                                              "default true)."},
            "bomb_points": {"type": "integer", "minimum": 0,
                            "description": "Each bomb played earns the bomber this from every "
                                           "other player, at once and win or lose (default 0)."},
        },
    }

    def __init__(self, params: dict[str, Any]) -> None:
        self.per_card: int = int(params.get("per_card", 1))
        self.shut_out: float = float(params.get("shut_out", 2))
        self.last_card_free = bool(params.get("last_card_free", True))
        self.bomb_points: int = int(params.get("bomb_points", 0))

    def stake_unit(self, game: Game) -> float:
        return float(self.per_card)

    def owed(self, game: Game, seat: int) -> int:
        """What loser ``seat`` pays each winner for his cards."""
        left = sum(game.hands[seat])
        if self.last_card_free and left == 1:
            return 0
        amount = self.per_card * left * game.multiple
        if not game.played[seat]:
            amount *= self.shut_out
        return int(amount + 0.5)

    @hookimpl
    def ddzrules_settle(self, game: Game) -> list[int]:
        assert game.winner is not None
        winners = game.winners
        scores = [0] * game.players
        for loser in range(game.players):
            if loser in winners:
                continue
            amount = self.owed(game, loser)
            if not game.played[loser] and self.shut_out != 1:
                game.count("shut_out")
            for w in winners:
                scores[loser] -= amount
                scores[w] += amount
        if self.bomb_points:
            for seat, moves in enumerate(game.played):
                for m in moves:
                    if m.is_bomb:
                        for other in range(game.players):
                            if other != seat:
                                scores[other] -= self.bomb_points
                                scores[seat] += self.bomb_points
        return scores

    @hookimpl
    def ddzrules_describe(self) -> dict[str, Any]:
        """The per-card settlement as configured."""
        k = self.per_card
        d = Description(f"each loser pays each winner {k} per card left",
                        f"每位输家按剩余牌数每张{k}分付给每位赢家")
        d.rule("The first player out wins, with his side (his team at a partnerships table, the "
               "landlord or the farmers at a landlord table); everyone else loses.",
               "最先出完牌的玩家及其一方（组队时为其队友，斗地主时为地主或农民）获胜，其余玩家为输家。")
        d.rule(f"Each loser pays each winner {k} point(s) per card left in his hand.",
               f"每位输家按手中剩余牌数，每张{k}分，付给每位赢家。")
        if self.last_card_free:
            d.rule("A loser left with exactly one card pays nothing (报单不输).",
                   "输家只剩一张牌时不输分（报单不输）。")
        if self.shut_out != 1:
            d.rule(f"A loser who has not played a single card (被关, 全关, also called 关门) pays "
                   f"{times(self.shut_out)}.",
                   f"一张牌都没出的输家（被关、全关，又称关门）付{times(self.shut_out)}。")
        d.rule("The amount is multiplied by the game's multiple (if the spec has multipliers) and "
               "rounded to a whole point.", "金额再乘以本局倍数（如有加倍规则），取整。")
        if self.bomb_points:
            d.rule(f"Each bomb played earns its player {self.bomb_points} from every other player, "
                   f"win or lose.", f"每打出一个炸弹，其余每位玩家付给出炸弹者{self.bomb_points}分，与输赢无关。")
        d.rule("The scores add up to zero.", "总分为零。")
        d.param("per_card", k, "points per card left", "每张剩牌的分数")
        d.param("shut_out", self.shut_out, "the factor of a loser who played no card (被关/全关)",
                "一张未出的输家的倍数（被关/全关）")
        d.param("last_card_free", self.last_card_free, "a loser with one card left pays nothing",
                "剩一张牌的输家不输分")
        d.param("bomb_points", self.bomb_points, "what each bomb earns from every other player",
                "每个炸弹从其余每位玩家处得的分")
        return d.done()
