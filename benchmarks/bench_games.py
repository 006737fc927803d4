"""All-bot random games per second: ddzrules (public API) beside RLCard's Dou Dizhu env.

    python benchmarks/bench_games.py [--seconds 10] [--spec hubei-3p] [--json]

Both engines run in this one process, one after the other, for the same wall-clock
budget: ddzrules plays whole games (bidding, tricks, scoring) with three RandomBots
through ``ddzrules.simulate.play_game``; RLCard's ``doudizhu`` environment plays with
three ``RandomAgent``s through ``env.run``. RLCard is optional (``pip install
rlcard``); without it only the ddzrules figure is printed.
"""

from __future__ import annotations

import argparse
import json
import time

from _header import print_header  # benchmarks/_header.py: the build measured


def bench_ddzrules(spec: str, seconds: float) -> dict[str, float]:
    from ddzrules.bots import RandomBot
    from ddzrules.runtime import GameRules
    from ddzrules.simulate import play_game

    rules = GameRules.load(spec)
    play_game(rules, [RandomBot(i) for i in range(rules.players)], 0)  # warm the move cache once
    games = actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game = play_game(rules, [RandomBot(games * 3 + i) for i in range(rules.players)], games + 1)
        actions += len(game.history)
        games += 1
    elapsed = time.perf_counter() - start
    return {"games": games, "seconds": elapsed, "games_per_s": games / elapsed, "actions_per_game": actions / games}


def bench_rlcard(seconds: float) -> dict[str, float] | None:
    try:
        import rlcard
        from rlcard.agents import RandomAgent
    except ImportError:
        return None
    env = rlcard.make("doudizhu", config={"seed": 0})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])
    env.run(is_training=False)
    games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.run(is_training=False)
        games += 1
    elapsed = time.perf_counter() - start
    return {"games": games, "seconds": elapsed, "games_per_s": games / elapsed}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--spec", default="hubei-3p")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    print_header(__file__, json_output=bool(getattr(args, "json", False)))
    ours = bench_ddzrules(args.spec, args.seconds)
    theirs = bench_rlcard(args.seconds)
    result = {"ddzrules": ours, "rlcard": theirs,
              "ratio": ours["games_per_s"] / theirs["games_per_s"] if theirs else None}
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(f"ddzrules ({args.spec}, RandomBot x3): {ours['games_per_s']:8.1f} games/s "
          f"({ours['games']} games, {ours['actions_per_game']:.1f} actions/game)")
    if theirs is None:
        print("rlcard: not installed (pip install rlcard), skipped")
    else:
        print(f"rlcard (doudizhu, RandomAgent x3): {theirs['games_per_s']:8.1f} games/s ({theirs['games']} games)")
        print(f"ratio: {result['ratio']:.1f}x")


if __name__ == "__main__":
    main()
