"""Games per second on Ray beside local worker processes, and Ray's overhead per task.

    python benchmarks/bench_ray.py [--spec hubei-3p] [--games 2000] [--rounds 3] [--json]

Four ways to play the same ``--games`` seeded random-bot games of ``--spec`` (the
figures of each are identical; ``tests/uses/test_ray.py`` checks that):

* ``--workers 1`` and ``--workers 2``: ``compare_specs(..., backend="local")``, this
  machine's processes (a pool started per run, as the CLI does);
* Ray with 1 and with 2 CPUs: ``backend="ray"`` on a local Ray started once per
  configuration and kept for every round (as a cluster would be), so Ray's start-up
  (several seconds, printed) is not in the per-round figure.

Each Ray configuration lives in a child process of its own (one Ray per process);
the parent runs the rounds interleaved — local 1, local 2, Ray 1, Ray 2, then again —
and reports wall-clock games per second (the point is parallelism), the median over
rounds. The **overhead per task** is measured in the 2-CPU Ray: the wall time of
``--tasks`` empty tasks (``play_span`` over no game) submitted together, divided by
their number, and of one empty task waited for alone (the round trip).

Needs the ``ray`` extra. On a machine with 2 cores, 2 workers can at best double the
rate; Ray's workers and the driver share those cores.
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
from typing import Any

from _header import print_header  # benchmarks/_header.py: the build measured

CHILD = r"""
import json, sys, time
import ray
from ddzrules.simulate import compare_specs, play_span
cpus, spec, games, tasks = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
t0 = time.perf_counter()
ray.init(num_cpus=cpus, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
compare_specs([spec], 20, 0, ["random"], backend="ray")  # warm: every worker loads the rules
print(json.dumps({"startup": time.perf_counter() - t0}), flush=True)
remote = ray.remote(num_cpus=1)(play_span)
for line in sys.stdin:
    cmd, seed = line.split()
    if cmd == "games":
        t = time.perf_counter()
        result = compare_specs([spec], games, int(seed), ["random"], backend="ray")
        print(json.dumps({"seconds": time.perf_counter() - t, "games": result["specs"][0]["games"]}), flush=True)
    elif cmd == "overhead":
        ray.get(remote.remote([spec], [["random"]], 0, 0, 0))
        t = time.perf_counter()
        ray.get([remote.remote([spec], [["random"]], 0, 0, 0) for _ in range(tasks)])
        batch = (time.perf_counter() - t) / tasks
        t = time.perf_counter()
        for _ in range(20):
            ray.get(remote.remote([spec], [["random"]], 0, 0, 0))
        alone = (time.perf_counter() - t) / 20
        print(json.dumps({"batch": batch, "alone": alone}), flush=True)
ray.shutdown()
"""


class RayChild:
    """A child process with a local Ray of ``cpus`` CPUs, answering one round per request."""

    def __init__(self, cpus: int, spec: str, games: int, tasks: int) -> None:
        self.proc = subprocess.Popen([sys.executable, "-c", CHILD, str(cpus), spec, str(games), str(tasks)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.startup = self._read()["startup"]

    def _read(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit(f"the Ray child exited ({self.proc.wait()})")
        return dict(json.loads(line))

    def ask(self, cmd: str, seed: int = 0) -> dict[str, Any]:
        assert self.proc.stdin is not None
        self.proc.stdin.write(f"{cmd} {seed}\n")
        self.proc.stdin.flush()
        return self._read()

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=60)


def local_round(spec: str, games: int, seed: int, workers: int) -> float:
    from ddzrules.simulate import compare_specs

    t = time.perf_counter()
    result = compare_specs([spec], games, seed, ["random"], workers=workers)
    assert result["specs"][0]["games"] == games
    return time.perf_counter() - t


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spec", default="hubei-3p")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--tasks", type=int, default=200, help="empty tasks for the overhead figure")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    print_header(__file__, json_output=bool(getattr(args, "json", False)))
    try:
        import ray  # noqa: F401
    except ImportError:
        raise SystemExit("needs Ray: pip install 'ddzrules[ray]'") from None
    children = {cpus: RayChild(cpus, args.spec, args.games, args.tasks) for cpus in (1, 2)}
    local_round(args.spec, 20, 0, 1)  # warm this process's rules
    rates: dict[str, list[float]] = {k: [] for k in ("local 1", "local 2", "ray 1", "ray 2")}
    overhead: list[dict[str, Any]] = []
    try:
        for r in range(args.rounds):
            seed = 100 + r
            for workers in (1, 2):
                rates[f"local {workers}"].append(args.games / local_round(args.spec, args.games, seed, workers))
            for cpus, child in children.items():
                got = child.ask("games", seed)
                assert got["games"] == args.games
                rates[f"ray {cpus}"].append(args.games / got["seconds"])
            overhead.append(children[2].ask("overhead"))
    finally:
        for child in children.values():
            child.close()
    out: dict[str, Any] = {
        "spec": args.spec, "games": args.games, "rounds": args.rounds,
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
        "games_per_s": {k: statistics.median(v) for k, v in rates.items()},
        "ray_startup_s": {str(c): child.startup for c, child in children.items()},
        "task_overhead_ms": {"submitted together": 1000 * statistics.median(o["batch"] for o in overhead),
                             "one round trip": 1000 * statistics.median(o["alone"] for o in overhead)},
    }
    if args.json:
        print(json.dumps(out, indent=1))
        return
    print(f"{args.spec}: {args.games} random-bot games a run, wall-clock games/s, median of "
          f"{args.rounds} interleaved rounds ({out['machine']})")
    base = out["games_per_s"]["local 1"]
    for k, v in out["games_per_s"].items():
        label = {"local 1": "--workers 1", "local 2": "--workers 2",
                 "ray 1": "Ray, 1 CPU", "ray 2": "Ray, 2 CPUs"}[k]
        print(f"  {label:<12} {v:>8,.0f} games/s   {v / base:.2f}x --workers 1")
    print(f"  Ray start-up (not in the rates): {out['ray_startup_s']['1']:.1f} s (1 CPU), "
          f"{out['ray_startup_s']['2']:.1f} s (2 CPUs)")
    t = out["task_overhead_ms"]
    print(f"  Ray overhead per task: {t['submitted together']:.2f} ms submitted together, "
          f"{t['one round trip']:.2f} ms one round trip (empty tasks)")


if __name__ == "__main__":
    main()
