"""Game records as JSON, and replay that verifies them.

A record holds the spec's name and content hash, the seed, every deal, every
action, the multiplier events and the final scores. Replaying re-deals from the
seed and re-applies each action through the rules; the first action (or deal, or
final figure) that does not agree is reported.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import cards as C
from .errors import DdzError
from .runtime import Action, Game, GameRules, MatchInfo, PluginRegistry

FORMAT = "ddzrules-game/1"


def game_record(game: Game) -> dict[str, Any]:
    """The JSON-ready record of a finished (or unfinished) game."""
    return {
        "format": FORMAT,
        "spec": game.variant.name,
        "spec_hash": game.variant.spec.content_hash,
        "seed": game.seed,
        "match": {"index": game.match.index, "seed": game.match.seed},
        "deals": game.deals,
        "actions": [a.to_dict() for a in game.history],
        "landlord": game.landlord,
        "stake": game.stake,
        "events": [e.to_dict() for e in game.events],
        "multiple": game.multiple,
        "winner": game.winner,
        "escaped": game.escaped,
        "scores": game.scores,
    }


def write_record(game: Game, path: str | Path) -> None:
    Path(path).write_text(json.dumps(game_record(game), ensure_ascii=False, indent=1), encoding="utf-8")


class ReplayError(DdzError):
    """A record that does not replay: says where it first diverges."""

    def __init__(self, message: str, action_index: int | None = None) -> None:
        self.action_index = action_index
        where = f"action #{action_index + 1}: " if action_index is not None else ""
        super().__init__(f"{where}{message}")


@dataclass
class ReplayResult:
    game: Game
    actions: int


def _find_action(game: Game, data: dict[str, Any], index: int) -> Action:
    try:
        seat = int(data["seat"])
        kind = str(data["kind"])
    except (KeyError, TypeError, ValueError):
        raise ReplayError(f"malformed action {data!r}", index) from None
    if game.to_act != seat:
        raise ReplayError(f"the record has seat {seat} act, but it is seat {game.to_act}'s turn", index)
    legal = game.legal_actions()
    if kind == "play":
        try:
            cards = C.parse_cards(str(data.get("value", "")))
        except C.CardError as e:
            raise ReplayError(f"bad cards: {e}", index) from None
        for a in legal:
            if a.kind == "play" and a.move is not None and a.move.cards == cards \
                    and data.get("combo", a.move.combo) == a.move.combo \
                    and data.get("rank", a.move.rank_name) == a.move.rank_name:
                return a
        raise ReplayError(f"seat {seat} plays {cards}, which is not legal here "
                          f"(hand {game.hand_string(seat)}, "
                          f"to beat {game.last_play.cards if game.last_play else 'nothing: a lead'})", index)
    for a in legal:
        if a.kind == kind and a.value == data.get("value"):
            return a
    shown = f"{kind} {data['value']}" if data.get("value") is not None else kind
    raise ReplayError(f"seat {seat}: {shown} is not legal here; legal: {', '.join(map(str, legal))}", index)


def replay(record: dict[str, Any], registry: PluginRegistry | None = None) -> ReplayResult:
    """Replay a record through the rules; raises :class:`ReplayError` at the first divergence."""
    if record.get("format") != FORMAT:
        raise ReplayError(f"not a ddzrules game record (format {record.get('format')!r}, expected {FORMAT!r})")
    try:
        rules = GameRules.load(str(record["spec"]), registry)
        seed = int(record["seed"])
    except KeyError as e:
        raise ReplayError(f"the record has no {e.args[0]!r}") from None
    if record.get("spec_hash") not in (None, rules.variant.spec.content_hash):
        raise ReplayError(f"the spec {record['spec']!r} has changed since this game was recorded "
                          f"(hash {str(record['spec_hash'])[:12]}…, now "
                          f"{rules.variant.spec.content_hash[:12]}…)")
    match = record.get("match") or {}
    game = rules.new_game(seed, MatchInfo(int(match.get("index", 0)), int(match.get("seed", seed))))
    deals = record.get("deals") or []

    def check_deal(n: int, index: int | None) -> None:
        if n < len(deals) and deals[n] != game.deals[n]:
            raise ReplayError(f"deal {n + 1} differs from the one seed {seed} gives "
                              f"(recorded {deals[n]}, dealt {game.deals[n]})", index)

    check_deal(0, None)
    actions = record.get("actions") or []
    for i, data in enumerate(actions):
        if isinstance(data, dict) and data.get("kind") == "redeal":
            # the rules add a redeal marker themselves; the record's must sit at the same place
            if i >= len(game.history) or game.history[i].kind != "redeal":
                raise ReplayError("the record has a redeal here, but the rules do not", i)
            continue
        if game.over:
            raise ReplayError("the game is already over, but the record goes on", i)
        if isinstance(data, dict) and data.get("kind") == "escape":  # 逃跑 ends the game at once
            try:
                game.abandon(int(data["seat"]))
            except (DdzError, KeyError, TypeError, ValueError) as e:
                raise ReplayError(f"escape not possible: {e}", i) from None
            continue
        before = len(game.deals)
        try:
            game.apply(_find_action(game, data, i))
        except ReplayError:
            raise
        except DdzError as e:
            raise ReplayError(str(e), i) from None
        if len(game.deals) > before:
            check_deal(len(game.deals) - 1, i)
            nxt = actions[i + 1] if i + 1 < len(actions) else None
            if not (isinstance(nxt, dict) and nxt.get("kind") == "redeal"):
                raise ReplayError("the rules deal again here (nobody took the landlord), "
                                  "but the record has no redeal", i + 1)
    if not game.over:
        raise ReplayError(f"the record ends before the game does (seat {game.to_act} to act)")
    if len(game.history) != len(actions):
        raise ReplayError(f"the record lists {len(actions)} actions but the game took {len(game.history)} "
                          "(a redeal marker or an action is missing)")
    if len(deals) != len(game.deals):
        raise ReplayError(f"the record lists {len(deals)} deal(s) but the game had {len(game.deals)}")
    if record.get("escaped", game.escaped) != game.escaped:
        raise ReplayError(f"the record says seat {record.get('escaped')} escaped, the actions say {game.escaped}")
    for key, actual in (("landlord", game.landlord), ("stake", game.stake), ("winner", game.winner),
                        ("multiple", game.multiple), ("scores", game.scores)):
        if key in record and record[key] != actual:
            raise ReplayError(f"the record says {key} = {record[key]}, the rules give {actual}")
    events = [e.to_dict() for e in game.events]
    if "events" in record and record["events"] != events:
        raise ReplayError(f"the record's multiplier events {record['events']} differ from the rules' {events}")
    return ReplayResult(game, len(actions))


def load_record(path: str | Path) -> dict[str, Any]:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as e:
        raise DdzError(f"cannot read {path}: {e.strerror}") from None
    except json.JSONDecodeError as e:
        raise DdzError(f"{path}:{e.lineno}:{e.colno}: not valid JSON: {e.msg}") from None
    if not isinstance(data, dict):
        raise DdzError(f"{path}: a game record is a JSON object")
    return data
