"""Conformance suite speed: generating a suite and running it against the ddzrules engine.

    python benchmarks/bench_conformance.py [--spec hubei-3p] [--level standard]
                                           [--rounds 3] [--engine ddzrules] [--json]

Each round generates the suite into a fresh directory (``generate`` and
``write_suite``, as ``ddzrules conformance generate`` does) and runs it
(``run_suite``, as ``ddzrules conformance run`` does), in this one process with a
warm table cache (compiling a spec the first time is reported apart). Wall time,
median of the rounds; the issue's target is "well under a minute" for each.
Per-category times of the run come from one extra instrumented run (the first
category's time includes reading the suite and starting the engine).
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from _header import print_header  # benchmarks/_header.py: the build measured

from ddzrules import load_variant
from ddzrules.conformance import generate, write_suite
from ddzrules.conformance.run import run_suite


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--spec", default="hubei-3p")
    p.add_argument("--level", default="standard")
    p.add_argument("--engine", default="ddzrules")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    print_header(__file__, json_output=bool(getattr(args, "json", False)))

    t0 = time.perf_counter()
    variant = load_variant(args.spec)
    variant.census()  # builds (or loads) the table
    load_s = time.perf_counter() - t0
    gen_times, run_times = [], []
    counts: dict[str, int] = {}
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(args.rounds):
            d = Path(tmp) / f"suite-{r}"
            t0 = time.perf_counter()
            suite = generate(load_variant(args.spec), level=args.level, seed=args.seed)
            write_suite(suite, d)
            gen_times.append(time.perf_counter() - t0)
            counts = suite.manifest["counts"]
            t0 = time.perf_counter()
            report = run_suite(d, args.engine)
            run_times.append(time.perf_counter() - t0)
            ok = ok and report.ok
        per_category: dict[str, float] = {}
        last = {"t": time.perf_counter(), "c": ""}

        def progress(category: str, done: int, total: int) -> None:
            now = time.perf_counter()
            per_category[category] = per_category.get(category, 0.0) + now - last["t"]
            last["t"] = now

        run_suite(Path(tmp) / "suite-0", args.engine, progress=progress)
    out: dict[str, Any] = {
        "spec": args.spec, "level": args.level, "engine": args.engine, "rounds": args.rounds,
        "vectors": counts, "load_and_table_s": round(load_s, 3),
        "generate_s_median": round(statistics.median(gen_times), 3),
        "run_s_median": round(statistics.median(run_times), 3),
        "run_s_by_category": {k: round(v, 3) for k, v in per_category.items()},
        "passed": ok,
    }
    if args.json:
        print(json.dumps(out, indent=2))
        return
    print(f"{args.spec} suite, level {args.level}: {sum(counts.values()):,} vectors {counts}")
    print(f"  load + table        {out['load_and_table_s']:8.3f} s")
    print(f"  generate (median)   {out['generate_s_median']:8.3f} s")
    print(f"  run vs {args.engine:<12} {out['run_s_median']:8.3f} s  ({'all passed' if ok else 'FAILURES'})")
    for k, v in out["run_s_by_category"].items():
        print(f"    {k:<10} {v:8.3f} s")


if __name__ == "__main__":
    main()
