"""Pure Python beside the compiled build (docs/compiled.md): the ratios to DouZero of
``bench_moves.py`` (legal leads and answers) and ``bench_steps.py`` (whole games), each
tree in its own process, the trees interleaved round by round, medians printed.

    python benchmarks/bench_compiled.py --tree pure=/tmp/pure --tree compiled=/tmp/comp

A tree is a source checkout (``--tree NAME=PATH``: run with ``PYTHONPATH=PATH``, the
benchmarks from ``PATH/benchmarks``); with none, the ddzrules this interpreter imports
(one row). Each tree prints which build it is (``ddzrules.COMPILED_MODULES``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

from _header import print_header  # benchmarks/_header.py: the build measured

HERE = Path(__file__).resolve().parent


def _run(tree: str | None, script: str, args: list[str]) -> Any:
    env = dict(os.environ)
    bench = HERE
    if tree is not None:
        env["PYTHONPATH"] = tree + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        bench = Path(tree) / "benchmarks"
    out = subprocess.run([sys.executable, str(bench / script), *args, "--json"], env=env, cwd=tree,
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def _build(tree: str | None) -> str:
    env = dict(os.environ)
    if tree is not None:
        env["PYTHONPATH"] = tree
    out = subprocess.run([sys.executable, "-c", "import ddzrules; print(','.join(ddzrules.COMPILED_MODULES))"],
                         env=env, cwd=tree, capture_output=True, text=True, check=True).stdout.strip()
    return f"compiled: {out}" if out else "pure Python"


def one_round(tree: str | None, args: argparse.Namespace) -> dict[str, float]:
    """One run of each benchmark: {row: ratio to DouZero}."""
    got: dict[str, float] = {}
    for spec in args.moves_spec:
        data = _run(tree, "bench_moves.py", ["--spec", spec, "--repeat", str(args.repeat),
                                             "--deals", str(args.deals)])
        for row, engines in data["moves"].items():
            if spec in engines and "x_douzero_median" in engines[spec]:
                got[f"{row} ({spec})"] = engines[spec]["x_douzero_median"]
    steps = [a for spec in args.steps_spec for a in ("--spec", spec)]
    data = _run(tree, "bench_steps.py", [*steps, "--rounds", str(args.repeat)])
    for spec, ratio in data["ratio_vs_douzero"].items():
        got[f"game step ({spec})"] = ratio
    return got


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tree", action="append", default=[], metavar="NAME=PATH")
    ap.add_argument("--rounds", type=int, default=3, help="rounds; every tree runs once a round")
    ap.add_argument("--repeat", type=int, default=3, help="the benchmarks' own rounds a run")
    ap.add_argument("--deals", type=int, default=1000, help="bench_moves.py --deals")
    ap.add_argument("--moves-spec", action="append", default=None, help="default compat/douzero")
    ap.add_argument("--steps-spec", action="append", default=None, help="default hubei-3p")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    print_header(__file__, json_output=bool(getattr(args, "json", False)))
    args.moves_spec = args.moves_spec or ["compat/douzero"]
    args.steps_spec = args.steps_spec or ["hubei-3p"]
    trees: list[tuple[str, str | None]] = [(t.partition("=")[0], t.partition("=")[2]) for t in args.tree]
    if not trees:
        trees = [("this", None)]
    builds = {name: _build(path) for name, path in trees}
    runs: dict[str, list[dict[str, float]]] = {name: [] for name, _ in trees}
    for r in range(args.rounds):
        for name, path in trees if r % 2 == 0 else reversed(trees):  # interleaved, order alternating
            runs[name].append(one_round(path, args))
            print(f"round {r + 1}/{args.rounds}: {name} done", file=sys.stderr)
    rows = list(dict.fromkeys(row for got in runs.values() for one in got for row in one))
    medians = {name: {row: statistics.median(one[row] for one in got if row in one) for row in rows}
               for name, got in runs.items()}
    if args.json:
        print(json.dumps({"builds": builds, "medians": medians, "rounds": args.rounds}, indent=2))
        return
    names = [name for name, _ in trees]
    for name in names:
        print(f"{name}: {builds[name]}")
    print(f"\nratio to DouZero, median of {args.rounds} interleaved runs")
    width = max(map(len, rows))
    print(f"{'':{width}}  " + "  ".join(f"{n:>10}" for n in names)
          + ("" if len(names) < 2 else "  " + "  ".join(f"{n + '/' + names[0]:>14}" for n in names[1:])))
    for row in rows:
        cells = "  ".join(f"{medians[n][row]:>9.2f}x" for n in names)
        gains = "" if len(names) < 2 else "  " + "  ".join(
            f"{medians[n][row] / medians[names[0]][row]:>13.2f}x" for n in names[1:])
        print(f"{row:{width}}  {cells}{gains}")


if __name__ == "__main__":
    main()
