"""The search bot's rollout policy against `heuristic`, whole games with a fixed landlord:
how often each plays bombs and what the landlord scores (docs/bots.md, hubei-4p-2deck).

    python benchmarks/bench_rollout_policy.py [--spec hubei-4p-2deck] [--games 1500]

Each policy plays the same deals (seeds 0..N-1, seat 0 the landlord with the kitty, no
bidding); the figures are of these two policies, not of the rules.
"""

from __future__ import annotations

import argparse
import random
import statistics

from _header import print_header  # benchmarks/_header.py: the build measured

from ddzrules.bots import make_bot
from ddzrules.bots.search import rollout_action
from ddzrules.runtime import GameRules


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--spec", default="hubei-4p-2deck")
    ap.add_argument("--games", type=int, default=1500)
    args = ap.parse_args()
    print_header(__file__, json_output=bool(getattr(args, "json", False)))
    rules = GameRules.load(args.spec)
    for policy in ("heuristic", "rollout"):
        scores: list[float] = []
        wins: list[bool] = []
        bombs: list[int] = []
        for g in range(args.games):
            game = rules.new_game(g, landlord=0)
            rng = random.Random(g)
            bots = [make_bot("heuristic", g * 10 + s) for s in range(rules.players)]
            played = 0
            while not game.over:
                legal = game.legal_actions()
                seat = game.to_act
                assert seat is not None
                a = rollout_action(game, legal, rng) if policy == "rollout" else bots[seat].act(game.view(seat), legal)
                played += a.kind == "play" and a.move is not None and a.move.is_bomb
                game.apply(a)
            assert game.scores is not None
            scores.append(game.scores[0])
            wins.append(game.scores[0] > 0)
            bombs.append(played)
        half = 1.96 * statistics.stdev(scores) / len(scores) ** 0.5
        print(f"{policy:9}  landlord win {statistics.mean(wins):.3f}  landlord score "
              f"{statistics.mean(scores):+.1f} ± {half:.1f}  bombs a game {statistics.mean(bombs):.2f}")


if __name__ == "__main__":
    main()
