"""The search bot's hot path (issue 25): sampled worlds, game copies and rollouts a
second, per bundled playable spec, pure Python unless the compiled build is installed.

    python benchmarks/bench_rollouts.py [--positions 40] [--rollouts 8] [--rounds 3] [--specs hubei-3p,laizi]

Positions: seeded games played by `heuristic` bots up to a random step of the play
phase. At each, per round: ``sample`` (:meth:`PlayerView.sample_world` of the seat to
act), ``copy`` (:meth:`Game.copy` of that world) and ``rollout`` (the copy played to its
end by the search's rollout policy, as :class:`~ddzrules.bots.search.SearchBot` does
for each candidate). Printed: each step's cost in µs (medians over rounds of the mean
over positions), rollouts a second (the three together), and the game steps a second a
rollout runs at. CPU time; the same positions and rollouts every round (seeded), so the
rounds differ only by the machine.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from _header import print_header  # benchmarks/_header.py: the build measured

from ddzrules import BUILD
from ddzrules.bots import make_bot
from ddzrules.bots.search import rollout
from ddzrules.runtime import Game, GameRules
from ddzrules.spec import bundled_names, load_spec


def positions(rules: GameRules, n: int, seed: int) -> list[Game]:
    """``n`` games of heuristic bots stopped at a random step of their play phase."""
    rng = random.Random(seed)
    out: list[Game] = []
    g = 0
    while len(out) < n:
        game = rules.new_game(seed=seed * 10_000 + g)
        g += 1
        bots = [make_bot("heuristic", g * 10 + s) for s in range(rules.players)]
        stop = rng.randrange(1, 40)
        played = 0
        while not game.over:
            seat = game.to_act
            assert seat is not None
            if game.phase == "play":
                played += 1
                if played == stop:
                    out.append(game)
                    break
            game.apply(bots[seat].act(game.view(seat), game.legal_actions()))
    return out


def measure(games: list[Game], rollouts: int, seed: int) -> dict[str, float]:
    """Mean µs a sample, a copy and a rollout, and steps a rollout took, over ``games``."""
    sample = copy = play = 0.0
    steps = 0
    done = 0
    for i, game in enumerate(games):
        seat = game.to_act
        assert seat is not None
        view = game.view(seat)
        worlds = random.Random(seed + i)
        noise = random.Random(seed - i)
        for _ in range(rollouts):
            t0 = time.process_time()
            world = view.sample_world(worlds)
            t1 = time.process_time()
            sim = world.copy()
            t2 = time.process_time()
            before = len(sim.history)
            rollout(sim, seat, noise)
            t3 = time.process_time()
            sample += t1 - t0
            copy += t2 - t1
            play += t3 - t2
            steps += len(sim.history) - before
            done += 1
    return {"sample_us": 1e6 * sample / done, "copy_us": 1e6 * copy / done, "rollout_us": 1e6 * play / done,
            "steps": steps / done, "step_us": 1e6 * play / max(steps, 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--positions", type=int, default=40)
    ap.add_argument("--rollouts", type=int, default=8, help="rollouts per position and round")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--specs", default="", help="comma-separated (default: every bundled playable spec)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    print_header(__file__, json_output=bool(getattr(args, "json", False)))
    names = args.specs.split(",") if args.specs else [n for n in bundled_names() if load_spec(n).data.get("game")]
    build = BUILD
    if not args.json:
        print(f"# {build}; {args.positions} positions x {args.rollouts} rollouts, {args.rounds} rounds; "
              "µs CPU, medians of rounds")
        print(f"{'spec':<20}{'sample':>9}{'copy':>9}{'rollout':>10}{'steps':>7}{'µs/step':>9}{'rollouts/s':>12}")
    out = {}
    for name in names:
        rules = GameRules.load(name)
        rules.variant.fast_index()  # a search's run is a long one
        games = positions(rules, args.positions, args.seed)
        measure(games[:3], 1, args.seed)  # warm the lister's memos
        rounds = [measure(games, args.rollouts, args.seed) for _ in range(args.rounds)]
        row = {k: statistics.median(r[k] for r in rounds) for k in rounds[0]}
        row["rollouts_per_s"] = 1e6 / (row["sample_us"] + row["copy_us"] + row["rollout_us"])
        out[name] = row
        if not args.json:
            print(f"{name:<20}{row['sample_us']:9.0f}{row['copy_us']:9.0f}{row['rollout_us']:10.0f}"
                  f"{row['steps']:7.1f}{row['step_us']:9.1f}{row['rollouts_per_s']:12.0f}")
    if args.json:
        print(json.dumps({"build": build, "specs": out}, indent=1))


if __name__ == "__main__":
    main()
