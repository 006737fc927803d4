"""Agents: the interface a player (human or program) implements, and the bots.

An agent sees only its :class:`~ddzrules.runtime.PlayerView` and the list of legal
actions, and returns one of them. Bots are seeded: the same seed and the same game give
the same choices (except ``search:ms=N``, whose budget is time).

A bot is named by a *bot spec*: its name, then options, each after a colon
(``search:iters=400``, ``search:ms=50:candidates=12``; commas separate the seats' bots
in ``--bots``). :func:`make_bot` makes one,
:func:`check_bot` says what is wrong with a spec before any game is played.

>>> check_bot("search:iters=400")
'search:iters=400'
>>> make_bot("heuristic", seed=1).name
'heuristic'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ddzrules.bots.rlcard_rule import RLCardRuleBot
from ddzrules.bots.search import DEFAULT_ITERS, SearchBot
from ddzrules.bots.simple import HIGH_RANK, Agent, HeuristicBot, RandomBot, hand_strength
from ddzrules.errors import brief

if TYPE_CHECKING:
    from ddzrules.runtime import GameRules

__all__ = ["BOTS", "DEFAULT_ITERS", "HIGH_RANK", "OPTIONS", "Agent", "HeuristicBot", "RLCardRuleBot", "RandomBot",
           "SearchBot",
           "check_bot", "hand_strength", "make_bot", "parse_bot"]

#: the bots by name
BOTS: dict[str, type] = {"random": RandomBot, "heuristic": HeuristicBot, "search": SearchBot,
                         "rlcard-rule": RLCardRuleBot}
#: the options each bot takes in its spec, with their types and bounds (low, high)
OPTIONS: dict[str, dict[str, tuple[type, float, float]]] = {
    "random": {},
    "heuristic": {},
    "search": {"iters": (int, 1, 1_000_000), "ms": (float, 1, 600_000), "candidates": (int, 1, 1000),
               "early_iters": (int, 1, 1_000_000)},
    "rlcard-rule": {},
}


def parse_bot(spec: str) -> tuple[str, dict[str, Any]]:
    """A bot spec's name and options (a ValueError saying what is wrong, and which bots
    and options there are)."""
    if not isinstance(spec, str):
        raise ValueError(f"a bot is named by text, not {brief(spec)}")  # noqa: TRY004 - one error type for callers
    name, _, rest = spec.partition(":")
    name = name.strip()
    if name not in BOTS:
        raise ValueError(f"unknown bot {brief(name)}; choose from {', '.join(BOTS)}")
    allowed = OPTIONS[name]
    options: dict[str, Any] = {}
    for item in filter(None, (part.strip() for part in rest.split(":"))) if rest else ():
        key, eq, value = item.partition("=")
        key = key.strip()
        if key not in allowed:
            takes = ", ".join(f"{k}=N" for k in allowed) or "no options"
            raise ValueError(f"bot {name}: unknown option {brief(key)} ({name} takes {takes})")
        if not eq:
            raise ValueError(f"bot {name}: option {key} needs a value ({key}=N)")
        kind, low, high = allowed[key]
        try:
            text = value.strip()
            if not text.isascii() or "_" in text:  # int() also reads ١٠ and 1_0
                raise ValueError(text)
            number = kind(text)
        except ValueError:
            raise ValueError(f"bot {name}: {key} must be a number, not {brief(value.strip())}") from None
        if not low <= number <= high:
            raise ValueError(f"bot {name}: {key} must be {low:g} to {high:g}, not {brief(number)}")
        if key in options:
            raise ValueError(f"bot {name}: option {key} given twice")
        options[key] = number
    counted = [k for k in ("iters", "early_iters") if k in options]
    if "ms" in options and counted:
        raise ValueError(f"bot {name}: ms is the time budget of every decision: give it or "
                         f"{' and '.join(counted)}, not both")
    return name, options


def check_bot(spec: str, rules: GameRules | None = None) -> str:
    """``spec`` if it names a bot with valid options (that can play ``rules``, when given),
    else a ValueError saying why. A bot class may say which rules it cannot play with a
    static ``refusal(rules | None) -> str | None`` (None: it can, or no rules were given),
    which raises a :class:`~ddzrules.errors.DdzError` when what it needs is not installed."""
    name, _options = parse_bot(spec)
    refusal = getattr(BOTS[name], "refusal", None)
    why = refusal(rules) if refusal is not None else None
    if why and rules is not None:
        raise ValueError(f"bot {name} cannot play {rules.variant.name}: {why}")
    return spec


def make_bot(kind: str, seed: int) -> Agent:
    """The bot ``kind`` names (a bot spec), seeded ``seed``."""
    name, options = parse_bot(kind)
    bot: Agent = BOTS[name](seed, **options)
    return bot
