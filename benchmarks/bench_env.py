"""Random-agent environment steps per second: ``ddzrules.env`` beside RLCard's doudizhu env.

    python benchmarks/bench_env.py [--rounds 5] [--games 20] [--spec hubei-3p] [--json]

Both environments are made once (ddzrules' one-time set-up, the action table and the
lister's index, is timed apart), then run in this one process, interleaved: each round plays ``--games``
whole games in each, agents choosing uniformly among the legal actions, and times
them with CPU time. RLCard's agent draws from the list its state gives
(``state["legal_actions"]``); ddzrules' is timed twice, drawing from the list the
environment gives (``info["legal_moves"]``, the same footing) and scanning the action
mask (``np.flatnonzero`` over every id: the agent's own cost, about 15 µs a step).
Either way the whole observation is made each step (``observe``), as RLCard makes its
state. A step is one action of any seat (bids included for ddzrules; RLCard's
doudizhu has no bidding). The figure is the median over rounds of steps per second,
and the ratio the median of the per-round ratios (issue 13's goal: at least 5×).

``--tables K`` (default 256; 0 skips it) times the batched environment too
(:class:`ddzrules.env.batch.BatchEnv`, K tables a step, the same random agent drawing
from each table's legal ids with NumPy): steps are table-steps, one action at one
table, in the same interleaved rounds. Issue 25's goals: the AEC environment at least
3× RLCard's, the batched one at least 10× per core (this is one process: one core).
Needs the ``rl`` extra, and RLCard (``rlcard`` extra) for the anchor.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

from _header import print_header  # benchmarks/_header.py: the build measured


def ddzrules_env(spec: str) -> Any:
    from ddzrules.env import env

    e = env(spec=spec)
    e.unwrapped.rules.variant.fast_index()  # set-up: built now, not in the first round
    return e


def ddzrules_round(e: Any, games: int, seed: int, by_mask: bool = True) -> tuple[int, float]:
    """``games`` whole games; the agent draws from the action mask (``by_mask``) or from
    ``info["legal_moves"]``, the observation made either way."""
    import numpy as np

    rng = random.Random(seed)
    steps = 0
    start = time.process_time()
    for g in range(games):
        e.reset(seed=seed * 1000 + g)
        for agent in e.agent_iter():
            _, _, terminated, truncated, info = e.last(observe=False)
            if terminated or truncated:
                e.step(None)
                continue
            mask = e.unwrapped.observe(agent)["action_mask"]
            if by_mask:
                e.step(int(rng.choice(np.flatnonzero(mask))))
            else:
                legal = info["legal_moves"]
                e.step(legal[rng.randrange(len(legal))])
            steps += 1
    return steps, time.process_time() - start


def batch_env(spec: str, tables: int) -> Any:
    from ddzrules.env.batch import BatchEnv

    return BatchEnv(spec, num_tables=tables)


def batch_round(e: Any, steps: int, seed: int) -> tuple[int, float]:
    """``steps`` batched steps (each ``e.num_tables`` table-steps), going on from the
    tables as they are (a table whose game ends is dealt the next: the deals are in the
    steps, as in the AEC rounds)."""
    import numpy as np

    rng = np.random.default_rng(seed)
    start = time.process_time()
    for _ in range(steps):
        e.step(e.sample(rng))
    return steps * e.num_tables, time.process_time() - start


def rlcard_env(seed: int) -> Any:
    try:
        import rlcard
    except ImportError:
        return None
    return rlcard.make("doudizhu", config={"seed": seed})


def rlcard_round(e: Any, games: int, seed: int) -> tuple[int, float] | None:
    if e is None:
        return None
    rng = random.Random(seed)
    steps = 0
    start = time.process_time()
    for _ in range(games):
        state, _ = e.reset()
        while not e.is_over():
            action = rng.choice(list(state["legal_actions"]))
            state, _ = e.step(action)
            steps += 1
    return steps, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--spec", default="hubei-3p")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--tables", type=int, default=256, help="tables of the batched environment (0: not timed)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    print_header(__file__, json_output=bool(getattr(args, "json", False)))
    # each environment made once and warmed with a game (its one-time set-up, the
    # action table and the lister's index, is not a per-step cost)
    start = time.process_time()
    ours_env = ddzrules_env(args.spec)
    ddzrules_round(ours_env, 1, 999)
    setup = time.process_time() - start
    batched = batch_env(args.spec, args.tables) if args.tables else None
    # at least as many table-steps a round as the AEC environment's games make (about 60
    # a game), and 20 steps: a table's game is about 60 steps, so each round deals a third
    # of the tables anew
    batch_steps = max(20, args.games * 60 // args.tables) if args.tables else 0
    if batched is not None:
        batched.reset(seed=999)
        batch_round(batched, 100, 999)  # past the first deals: tables at every stage of a game
    theirs_env = rlcard_env(args.seed)
    if theirs_env is not None:
        rlcard_round(theirs_env, 1, 999)
    ours: list[float] = []
    by_list: list[float] = []
    list_ratios: list[float] = []
    theirs: list[float] = []
    ratios: list[float] = []
    batch: list[float] = []
    batch_ratios: list[float] = []
    for r in range(args.rounds):
        steps, cpu = ddzrules_round(ours_env, args.games, args.seed + r)
        ours.append(steps / cpu)
        steps, cpu = ddzrules_round(ours_env, args.games, args.seed + r, by_mask=False)
        by_list.append(steps / cpu)
        if batched is not None:
            steps, cpu = batch_round(batched, batch_steps, args.seed + r)
            batch.append(steps / cpu)
        anchor = rlcard_round(theirs_env, args.games, args.seed + r)
        if anchor is not None:
            theirs.append(anchor[0] / anchor[1])
            ratios.append(ours[-1] / theirs[-1])
            list_ratios.append(by_list[-1] / theirs[-1])
            if batch:
                batch_ratios.append(batch[-1] / theirs[-1])
    out: dict[str, Any] = {"spec": args.spec, "rounds": args.rounds, "games_per_round": args.games,
                           "setup_cpu_s": setup,
                           "ddzrules_steps_per_s": statistics.median(ours),
                           "rlcard_steps_per_s": statistics.median(theirs) if theirs else None,
                           "ratio": statistics.median(ratios) if ratios else None,
                           "ddzrules_list_agent_steps_per_s": statistics.median(by_list),
                           "list_agent_ratio": statistics.median(list_ratios) if list_ratios else None,
                           "tables": args.tables,
                           "batch_steps_per_s": statistics.median(batch) if batch else None,
                           "batch_ratio": statistics.median(batch_ratios) if batch_ratios else None}
    if args.json:
        print(json.dumps(out, indent=1))
        return
    print(f"random-agent env steps per CPU second, median of {args.rounds} interleaved rounds "
          f"of {args.games} games")
    print(f"  ddzrules.env ({args.spec}), agent reads the mask    {out['ddzrules_steps_per_s']:>10,.0f}   "
          f"(making the env and its first game: {setup:.2f} s CPU, once)")
    print(f"  ddzrules.env ({args.spec}), agent reads the list    "
          f"{out['ddzrules_list_agent_steps_per_s']:>10,.0f}")
    if batch:
        print(f"  BatchEnv, {args.tables} tables                        "
              f"{out['batch_steps_per_s']:>10,.0f}   (table-steps)")
    if theirs:
        print(f"  RLCard doudizhu env, agent reads the list           {out['rlcard_steps_per_s']:>10,.0f}")
        print(f"  ratio, both agents reading the list {out['list_agent_ratio']:.2f}x  (goal >= 3x); "
              f"ours reading the mask {out['ratio']:.2f}x")
        if batch:
            print(f"  batched ratio {out['batch_ratio']:.2f}x  (goal >= 10x per core)")
    else:
        print("  RLCard not installed: no anchor")


if __name__ == "__main__":
    main()
