"""The search bot's strength and decision time (issue 22's targets), as `ddzrules duel`
measures them: figures of the bots that played, on the deals of one seed.

    python benchmarks/bench_search.py douzero  [--spec hubei-3p] [--deals 1000] [--bots search,heuristic]
    python benchmarks/bench_search.py duplicate [--deals 300]            # every bundled playable spec
    python benchmarks/bench_search.py budget   [--spec hubei-3p] [--deals 200] [--iters 20,40,80,160]

Each prints the duel's figures (JSON with --json). Decision times are of this machine,
one process, pure Python unless the compiled build is installed; they are medians, p95
and maxima over the decisions that had a choice.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ddzrules import COMPILED_MODULES
from ddzrules.runtime import GameRules
from ddzrules.simulate.duel import duel, format_duel
from ddzrules.spec import bundled_names


def playable() -> list[str]:
    return [n for n in bundled_names() if not n.startswith("compat/")]


def run(args: argparse.Namespace) -> list[dict[str, Any]]:
    a, b = args.bots.split(",")
    if args.what == "douzero":
        return [duel(args.spec, a, b, args.deals, args.seed, "douzero")]
    if args.what == "duplicate":
        specs = [args.spec] if args.spec else playable()
        return [duel(s, a, b, args.deals, args.seed, "duplicate") for s in specs]
    out = []
    protocol = "douzero" if GameRules.load(args.spec).table_kind == "landlord" else "duplicate"
    for iters in (int(x) for x in args.iters.split(",")):
        out.append(duel(args.spec, f"{a}:iters={iters}", b, args.deals, args.seed, protocol))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=["douzero", "duplicate", "budget"])
    parser.add_argument("--spec", default=None)
    parser.add_argument("--deals", type=int, default=None)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bots", default="search,heuristic")
    parser.add_argument("--iters", default="20,40,80,160")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.spec is None and args.what != "duplicate":
        args.spec = "hubei-3p"
    if args.deals is None:
        args.deals = {"douzero": 1000, "duplicate": 300, "budget": 200}[args.what]
    print(f"build: {'compiled ' + ','.join(COMPILED_MODULES) if COMPILED_MODULES else 'pure Python'}",
          file=sys.stderr)
    results = run(args)
    if args.json:
        print(json.dumps(results, indent=2))
        return
    for r in results:
        print(format_duel(r))
        print()


if __name__ == "__main__":
    main()
