"""癞子 (wildcards): which ranks are wild in a deal, and when each becomes wild.

One wild rank drawn at the deal is 癞子场 (004); 天地癞子 draws one at the deal (天癞子)
and another once the landlord is known (地癞子); a rank may also be wild in every deal.
"""

from __future__ import annotations

from typing import Any, ClassVar

from ddzrules import cards as C
from ddzrules.hookspecs import hookimpl
from ddzrules.plugins import Description
from ddzrules.runtime import Game

#: when a drawn wild rank becomes wild: (English, Chinese) of each moment
MOMENTS = {
    "deal": ("when the cards are dealt, before the bidding", "发牌后、叫地主之前"),
    "landlord": ("once the landlord is known and has taken the kitty", "地主确定并拿底牌之后"),
}


class WildRank:
    """The wild ranks of a deal: ``fixed`` ranks wild in every deal, then one rank drawn
    at each moment of ``draws`` (``deal``: 天癞子, at the deal; ``landlord``: 地癞子, once
    the landlord is known), uniformly with the game's seeded generator from ``ranks``
    (default ``3..2``: never a joker) among those not wild yet.

    The default (one draw at the deal) is 004's 癞子场.
    """

    name = "wild-rank"
    params_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "ranks": {"type": "string", "pattern": r"^\s*\S+\s*\.\.\s*\S+\s*$",
                      "description": "Ranks the wild ranks are drawn from, e.g. 3..2."},
            "draws": {"type": "array", "maxItems": 4, "items": {"enum": sorted(MOMENTS)},
                      "description": "One wild rank drawn at each moment listed: deal (天癞子, "
                                     "before the bidding) or landlord (地癞子, once the landlord "
                                     "is known). Default [deal]."},
            "fixed": {"type": "array", "maxItems": 4, "uniqueItems": True,
                      "items": {"type": "string", "pattern": r"^\s*\S{1,2}\s*$"},
                      "description": "Ranks wild in every deal, e.g. [\"2\"]. Default none."},
        },
    }

    def __init__(self, params: dict[str, Any]) -> None:
        lo, hi = (C.parse_rank(t.strip()) for t in params.get("ranks", "3..2").split(".."))
        self.ranks = tuple(range(lo, hi + 1))
        self.draws: tuple[str, ...] = tuple(params.get("draws", ["deal"]))
        self.fixed = tuple(C.parse_rank(t.strip()) for t in params.get("fixed", []))
        if len(set(self.fixed)) != len(self.fixed):
            raise ValueError("fixed: a rank is listed twice")

    @property
    def may_be_wild(self) -> tuple[int, ...]:
        """Every rank this plugin may make wild: the drawn ones' range and the fixed ones."""
        return tuple(sorted(set(self.ranks) | set(self.fixed)))

    @property
    def most(self) -> int:
        """How many ranks can be wild at once in a deal."""
        return len(self.fixed) + len(self.draws)

    @hookimpl
    def ddzrules_describe(self) -> dict[str, Any]:
        """Which ranks are wild, and when each is drawn."""
        span = f"{C.RANKS[self.ranks[0]]}..{C.RANKS[self.ranks[-1]]}"
        fixed = ",".join(C.RANKS[r] for r in self.fixed)
        if self.draws == ("deal",) and not self.fixed:
            d = Description(f"癞子: one wild rank a deal, drawn from {span}",
                            f"癞子：每局从{span}中抽取一个癞子点数")
        else:
            d = Description(f"癞子: {self.most} wild ranks a deal"
                            + (f" ({fixed} always)" if fixed else "")
                            + (f", {len(self.draws)} drawn from {span}" if self.draws else ""),
                            f"癞子：每局{self.most}个癞子点数" + (f"（{fixed}固定为癞子）" if fixed else ""))
        if self.fixed:
            d.rule(f"The rank(s) {fixed} are wild in every deal.", f"{fixed}在每局都是癞子。")
        names = {"deal": ("天癞子", "the first wild rank"), "landlord": ("地癞子", "another wild rank")}
        for when in self.draws:
            zh_name, en_name = names[when] if len(self.draws) > 1 or self.fixed else ("癞子", "the wild rank")
            en_when, zh_when = MOMENTS[when]
            d.rule(f"{en_name.capitalize()} ({zh_name}) is drawn {en_when}: a rank from {span} that "
                   f"a wild card may stand for and that is not wild yet, with the game's seeded "
                   f"generator; every player sees it.",
                   f"{zh_when}，从{span}中（须为癞子可代替且尚非癞子的点数）随机抽取{zh_name}，所有玩家都可见。")
        if self.most > 1:
            d.rule("Every wild rank's cards are wild cards alike: each stands for any rank a wild card "
                   "may stand for, another wild rank included; played on their own, wild cards are "
                   "themselves (each its own rank).",
                   "各癞子点数的牌同为癞子：可代替任意可代替的点数（含另一癞子点数）；"
                   "只由癞子组成的牌按其本身点数。")
        d.param("ranks", span, "the ranks the wild ranks are drawn from", "癞子点数的抽取范围")
        d.param("draws", list(self.draws), "one wild rank drawn at each moment", "每个时机抽取一个癞子点数")
        d.param("fixed", [C.RANKS[r] for r in self.fixed] or None, "ranks wild in every deal", "固定癞子点数")
        return d.done()

    def _at(self, game: Game, moment: str) -> list[int] | None:
        """The ranks wild from ``moment`` on: the fixed ones at the deal, then one drawn for
        each draw at this moment, each from the ranks not wild yet."""
        stand_for = game.variant.rules.stand_for
        drawn = [r for r in self.fixed if r in stand_for] if moment == "deal" else []
        had = set(C.wild_tuple(game.wild))
        for when in self.draws:
            if when != moment:
                continue
            allowed = [r for r in self.ranks if r in stand_for and r not in had and r not in drawn]
            if allowed:
                drawn.append(allowed[game.rng.randrange(len(allowed))])
        return drawn or None

    @hookimpl
    def ddzrules_wild_rank(self, game: Game) -> list[int] | None:
        return self._at(game, "deal")

    @hookimpl
    def ddzrules_landlord_wild_rank(self, game: Game) -> list[int] | None:
        return self._at(game, "landlord")
