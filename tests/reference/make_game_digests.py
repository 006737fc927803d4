"""Digests of whole seeded bot games, so that speed work on the runtime can be checked
to change nothing a game does.

    python tests/reference/make_game_digests.py            # rewrite game_digests.json
    python tests/reference/make_game_digests.py --check    # compare, exit 1 on a difference

For every bundled spec with a ``game:`` section and every seed 0..SEEDS-1, one game is
played with the bundled bots (a seed-dependent mix of RandomBot and HeuristicBot, one a
seat) and reduced to a digest: the SHA-256 of its JSON record
(:func:`ddzrules.records.game_record`) and of what the seats saw and could choose at a
few steps (every seat's :class:`~ddzrules.runtime.PlayerView` and the legal actions of
the seat to act). ``tests/test_game_digests.py`` replays the same games and compares.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from ddzrules.bots import make_bot
from ddzrules.records import game_record
from ddzrules.runtime import Action, Game, GameRules, MatchInfo, PlayerView
from ddzrules.spec import bundled_names, load_spec

OUT = Path(__file__).with_name("game_digests.json")
SEEDS = 30
#: steps (indices into the game's actions) at which views and legal actions are digested
VIEW_STEPS = frozenset({0, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144})
MATCH_SEED = 20240501


def game_specs() -> list[str]:
    """The bundled specs that can be played (compat/* profiles have no game section)."""
    return [name for name in bundled_names() if load_spec(name).data.get("game")]


def bot_kinds(seed: int, players: int) -> list[str]:
    """A seed-dependent mix of the bundled bots, one a seat."""
    return ["heuristic" if (seed >> seat) & 1 else "random" for seat in range(players)]


def _jsonable(x: Any) -> Any:
    if isinstance(x, Action):
        return x.to_dict()
    if hasattr(x, "to_dict"):
        return x.to_dict()
    if isinstance(x, dict):
        return {str(k): _jsonable(v) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [_jsonable(v) for v in x]
    return x


def view_data(view: PlayerView) -> dict[str, Any]:
    """Every field of a view, JSON-ready (a Move by its to_dict, an Action by its to_dict)."""
    return {name: _jsonable(getattr(view, name)) for name in PlayerView.__dataclass_fields__}


def _digest(data: Any) -> str:
    text = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def play_digest(rules: GameRules, seed: int) -> dict[str, str]:
    """Play game ``seed`` of ``rules`` with the bundled bots; its record's and its views' digests."""
    agents = [make_bot(kind, seed * 10 + seat) for seat, kind in enumerate(bot_kinds(seed, rules.players))]
    game: Game = rules.new_game(seed, MatchInfo(index=seed, seed=MATCH_SEED))
    seen = hashlib.sha256()
    step = 0
    while not game.over:
        seat = game.to_act
        assert seat is not None
        legal = game.legal_actions()
        if step in VIEW_STEPS:
            snap = {"step": step, "views": [view_data(game.view(s)) for s in range(rules.players)],
                    "legal": [a.to_dict() for a in legal]}
            seen.update(_digest(snap).encode())
        game.apply(agents[seat].act(game.view(seat), legal))
        step += 1
    final = {"views": [view_data(game.view(s)) for s in range(rules.players)]}
    seen.update(_digest(final).encode())
    return {"record": _digest(game_record(game)), "views": seen.hexdigest(), "actions": str(len(game.history))}


def all_digests(seeds: int = SEEDS) -> dict[str, dict[str, dict[str, str]]]:
    out: dict[str, dict[str, dict[str, str]]] = {}
    for name in game_specs():
        rules = GameRules.load(name)
        out[name] = {str(seed): play_digest(rules, seed) for seed in range(seeds)}
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="compare with the committed file instead of writing it")
    args = ap.parse_args()
    got = all_digests()
    if args.check:
        want = json.loads(OUT.read_text(encoding="utf-8"))
        bad = [(s, k) for s in want for k in want[s] if got.get(s, {}).get(k) != want[s][k]]
        for spec, seed in bad:
            print(f"{spec} seed {seed}: differs")
        print(f"{sum(map(len, want.values())) - len(bad)} games identical, {len(bad)} differ")
        return 1 if bad else 0
    OUT.write_text(json.dumps(got, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {OUT} ({sum(map(len, got.values()))} games)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
