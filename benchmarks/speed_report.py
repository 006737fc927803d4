"""Every row of the speed table (issues 12, 25 and 44), measured in one run, with its target checked.

    python benchmarks/speed_report.py [--quick] [--json]

Runs, one after the other on this machine, each benchmark that owns a row (each
interleaves its engines and takes medians itself; see its docstring) and prints
one table:

| row | benchmark | anchor |
| --- | --- | --- |
| legal leads, 17–20 cards | ``bench_moves.py`` (``compat/douzero``, DouZero's rules) | DouZero's lister |
| legal answers | ``bench_moves.py`` | DouZero |
| whole games per step, hubei-3p and laizi | ``bench_steps.py`` | DouZero ``GameEnv`` |
| wild listing per play, from the first query and by table (1–4 wilds) | ``bench_wild.py`` | \
the same hands without wilds |
| warm load + first classify | ``bench_load.py`` | milliseconds of CPU |
| game 100,000 of a run vs game 0 | here: ``_play_index`` at both indices, interleaved | itself |
| environment steps, AEC and batched (issue 25) | ``bench_env.py`` (needs the ``rl`` and ``rlcard`` extras; \
left out without them) | RLCard's env |

A target is checked by the figure of this run; nothing here is a test. ``--quick``
runs fewer rounds (a smoke run: the figures are noisier).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from _header import print_header  # benchmarks/_header.py: the build measured

HERE = Path(__file__).resolve().parent


def run_json(script: str, *args: str) -> dict[str, Any]:
    """The ``--json`` figures of one benchmark script, run in a process of its own."""
    proc = subprocess.run([sys.executable, str(HERE / script), *args, "--json"],
                          capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise SystemExit(f"{script} failed ({proc.returncode}):\n{proc.stderr[-2000:]}")
    return dict(json.loads(proc.stdout))


def game_index_cost(games: int, rounds: int, far: int = 100_000) -> dict[str, float]:
    """CPU seconds per game of games ``0..games-1`` and ``far..far+games-1`` of one
    hubei-3p run (random bots), rounds interleaved, medians; and their ratio."""
    from ddzrules.simulate import play_span

    specs, bots = ["hubei-3p"], [["random"] * 3]
    play_span(specs, bots, 0, 0, 0)  # the rules loaded before the clock starts
    per: dict[int, list[float]] = {0: [], far: []}
    for r in range(rounds):
        for start in (0, far):
            t = time.process_time()
            for i in range(start, start + games):
                play_span(specs, bots, r, i, i + 1)
            per[start].append((time.process_time() - t) / games)
    near, away = statistics.median(per[0]), statistics.median(per[far])
    return {"game_0_ms": near * 1e3, f"game_{far}_ms": away * 1e3, "ratio": away / near}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer rounds: a smoke run")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    print_header(__file__, json_output=bool(getattr(args, "json", False)))
    q = args.quick
    moves = run_json("bench_moves.py", "--spec", "compat/douzero", "--deals", "300" if q else "2000",
                     "--plays", "20000" if q else "200000", "--repeat", "3" if q else "7")
    steps = run_json("bench_steps.py", "--rounds", "3" if q else "9", "--games", "10" if q else "40")
    wild = run_json("bench_wild.py", "--rounds", "2" if q else "5", "--hands", "10" if q else "40")
    wild["short_run"] = run_json("bench_wild.py", "--short-run", "60" if q else "324", "--rounds", "2" if q else "5")
    load = run_json("bench_load.py", "--rounds", "3" if q else "7")  # every bundled spec
    linear = game_index_cost(20 if q else 200, 3 if q else 5)
    try:
        import pettingzoo  # noqa: F401
        import rlcard  # noqa: F401
    except ImportError:
        envs = None
    else:
        envs = run_json("bench_env.py", "--rounds", "2" if q else "5", "--games", "10" if q else "20")

    t = moves["targets"]["compat/douzero"]
    wild_ratios = [row["ratio_table"] for row in wild["rows"]]
    warm = [load["specs"][s]["warm_ms"] for s in ("hubei-3p", "laizi")]
    # issue 25: a warm load and the first legal_moves of a fresh process, every bundled spec
    first = {s: row["warm_ms"] + row["moves_ms"] for s, row in load["specs"].items()}
    slowest = max(first, key=first.__getitem__)
    # issue 44's targets, judged on what `pip install .` gives (the header names the build)
    short = wild["short_run"]  # bench_wild.py --short-run: fresh processes, every hand walked
    rows = [
        ("legal leads, 17-20 cards", "DouZero lister", t["lead"]["min_x_douzero"], ">= 10x",
         t["lead"]["min_x_douzero"] >= 10),
        ("legal answers", "DouZero", t["answer"]["min_x_douzero"], ">= 10x", t["answer"]["min_x_douzero"] >= 10),
        ("whole games per step (hubei-3p)", "DouZero GameEnv", steps["ratio_vs_douzero"]["hubei-3p"], ">= 8x",
         steps["ratio_vs_douzero"]["hubei-3p"] >= 8),
        ("whole games per step (laizi), no target", "DouZero GameEnv", steps["ratio_vs_douzero"]["laizi"], "retired",
         True),
        ("wild listing per play, from the first query", "same hands, no wilds", short["ratio_per_play"], "<= 1.2x",
         short["ratio_per_play"] <= 1.2),
        ("wild listing per play (1-4 wilds), by table, worst", "same hands, no wilds", max(wild_ratios),
         "<= 2x slower", max(wild_ratios) <= 2),
        ("warm load + classify, worst of hubei-3p/laizi (ms)", "-", max(warm), "<= 20 ms", max(warm) <= 20),
        (f"warm load + first legal_moves, worst spec ({slowest}) (ms)", "-", first[slowest], "<= 20 ms",
         first[slowest] <= 20),
        ("game 100,000 vs game 0 (hubei-3p)", "itself", linear["ratio"], "<= 1.3x", linear["ratio"] <= 1.3),
    ]
    if envs is not None and envs["list_agent_ratio"] is not None:
        rows += [
            ("env steps (hubei-3p), agents reading the legal list", "RLCard env", envs["list_agent_ratio"],
             ">= 3x", envs["list_agent_ratio"] >= 3),
            (f"BatchEnv table-steps ({envs['tables']} tables, one core)", "RLCard env", envs["batch_ratio"],
             ">= 10x", envs["batch_ratio"] >= 10),
        ]
    machine = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    build = moves["config"].get("build") or "pure Python"
    if args.json:
        print(json.dumps({"machine": machine, "build": build, "rows": [
            {"row": r[0], "anchor": r[1], "figure": r[2], "target": r[3], "met": r[4]} for r in rows],
            "moves": moves["targets"], "steps": steps, "wild": wild, "load": load, "linear": linear,
            "env": envs}, indent=1))
        return
    print(f"the speed table, measured in this run ({machine}; {build}){' [quick]' if q else ''}")
    print(f"{'measure':<52}{'anchor':<22}{'now':>9}  {'target':<14}met")
    for name, anchor, figure, target, met in rows:
        unit = "" if "ms" in name else "x"
        print(f"{name:<52}{anchor:<22}{figure:>8.2f}{unit}  {target:<14}{'yes' if met else 'NO'}")
    print(f"  leads/answers by best rounds: {t['lead']['min_x_douzero_best']:.2f}x / "
          f"{t['answer']['min_x_douzero_best']:.2f}x; wild per play by wild count: "
          + ", ".join(f"{r['wilds']}: {r['ratio_table']:.2f}x" for r in wild["rows"])
          + f"; warm load hubei-3p {warm[0]:.1f} ms, laizi {warm[1]:.1f} ms; "
          f"game 0 {linear['game_0_ms']:.2f} ms, game 100,000 {linear['game_100000_ms']:.2f} ms CPU")


if __name__ == "__main__":
    main()
