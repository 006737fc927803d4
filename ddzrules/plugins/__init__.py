"""The built-in ddzrules plugins.

Each module holds plugin classes registered under the ``ddzrules`` entry-point
group in ``pyproject.toml`` — exactly as a third-party package would register
its own; the runtime has no private way to reach them. The hook contracts are in
:mod:`ddzrules.hookspecs`.

:class:`Description` builds what ``ddzrules_describe`` returns, so that every
built-in describes itself, as configured, the same way in English and Chinese:
the rule sheets (``ddzrules sheet``) print these texts, so a sheet says what the
plugin was actually given, never what a document once said it does.
"""

from __future__ import annotations

from typing import Any


class Description:
    """A plugin's ``ddzrules_describe`` answer, built sentence by sentence.

    Every text is given in both languages at once (``en``, ``zh``), so that a rule
    can never exist in one language only and the two lists stay translations of
    each other, item by item.
    """

    def __init__(self, en: str, zh: str) -> None:
        self.summary = {"en": en, "zh": zh}
        self.rules: dict[str, list[str]] = {"en": [], "zh": []}
        self.params: list[dict[str, Any]] = []

    def rule(self, en: str, zh: str) -> None:
        """One rule the plugin enforces, in the order a player meets them."""
        self.rules["en"].append(en)
        self.rules["zh"].append(zh)

    def param(self, name: str, value: Any, en: str, zh: str) -> None:
        """One parameter, its effective value (defaults filled in) and what it means."""
        self.params.append({"name": name, "value": value, "en": en, "zh": zh})

    def done(self) -> dict[str, Any]:
        """The mapping ``ddzrules_describe`` returns (see its contract in hookspecs)."""
        return {"summary": self.summary, "rules": self.rules, "params": self.params}


def times(x: float) -> str:
    """A factor as the rule texts write it: ×2, ×0.25 (no trailing .0)."""
    return f"×{x:g}"


def first_bidder_rule(d: Description, mode: str, en: str = "bids", zh: str = "叫分") -> None:
    """How the first bidder of a deal is found (point-bids and hk-rob share the modes);
    ``en``/``zh`` name what he does first."""
    if mode == "face-up-card":
        d.rule(f"A card is turned face up in the deal; the player who receives it {en} first.",
               f"发牌时翻开一张明牌，拿到这张牌的玩家先{zh}。")
    elif mode == "random":
        d.rule(f"The player who {en} first is drawn at random in every deal.",
               f"每次发牌后随机选定先{zh}的玩家。")
    else:
        d.rule(f"The player who {en} first is drawn at random in a match's first game, then it is "
               f"the next seat in the order of play each game (a redeal counts as a new game).",
               f"首局随机选定先{zh}的玩家，之后每局（重新发牌也算一局）由下一位玩家先{zh}。")
