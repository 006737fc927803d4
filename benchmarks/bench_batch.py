"""Batch mode speed: N questions in one ``ddzrules classify SPEC --batch -`` process
against one ``ddzrules classify SPEC CARDS --json`` process per question.

    python benchmarks/bench_batch.py [--spec hubei-3p] [--questions 20000] [--processes 20]
                                     [--rounds 5] [--pipe 2000] [--seed 0] [--json]

The questions are seeded random plays from the spec's move universe (canonical card
strings), each line ``{"id": n, "cards": "..."}``. Every round, interleaved:

* **batch**: one process answers all ``--questions`` lines written to its stdin; the
  time per question is the process's wall time (start-up, spec loading and all)
  divided by the number of questions;
* **empty batch**: one ``--batch -`` process given no line: its fixed cost (start-up,
  loading the spec and its table), so that the marginal cost per question is
  ``(batch - empty) / N``;
* **per process**: ``--processes`` processes, each ``classify SPEC CARDS --json`` for
  one question of the same set; the time per question is one process's wall time.

Reported are the medians over rounds (over every process for the per-process figure)
and their ratio; the issue's target is a batch at least 100x faster per question.
Each per-process answer is checked against the batch's answer to the same question.
Finally (``--pipe``, 0 to skip) one batch process is driven as a driver would, one
question written and its answer read before the next: the median round trip.

Times are wall-clock (``time.perf_counter``) around whole processes, start-up
included; the spec's matcher table is read from the user's table cache, which an
untimed warm-up process fills first. The command is the ``ddzrules`` console script
when it is on PATH, else ``python -c "from ddzrules.cli import main; main()"``.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import subprocess
import sys
import time
from typing import Any

from _header import print_header  # benchmarks/_header.py: the build measured

from ddzrules import load_variant


def command() -> list[str]:
    script = shutil.which("ddzrules")
    return [script] if script else [sys.executable, "-c", "from ddzrules.cli import main; main()"]


def questions(spec: str, n: int, seed: int) -> list[str]:
    universe = load_variant(spec).universe()
    rng = random.Random(seed)
    return [rng.choice(universe) for _ in range(n)]


def run_batch(cmd: list[str], spec: str, lines: str, expected: int) -> tuple[float, list[str]]:
    """Wall time of one --batch process fed ``lines``, and its answer lines."""
    start = time.perf_counter()
    done = subprocess.run([*cmd, "classify", spec, "--batch", "-"], input=lines,
                          capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - start
    answers = done.stdout.splitlines()
    if done.returncode != 0 or len(answers) != expected:
        sys.exit(f"batch run failed (exit {done.returncode}, {len(answers)} answers of "
                 f"{expected}): {done.stderr.strip()}")
    return elapsed, answers


def run_single(cmd: list[str], spec: str, cards: str) -> tuple[float, dict[str, Any]]:
    """Wall time of one ``classify SPEC CARDS --json`` process, and its answer."""
    start = time.perf_counter()
    done = subprocess.run([*cmd, "classify", spec, cards, "--json"], capture_output=True,
                          text=True, check=False)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"classify {cards} failed (exit {done.returncode}): {done.stderr.strip()}")
    return elapsed, json.loads(done.stdout)


def pipe_round_trips(cmd: list[str], spec: str, plays: list[str]) -> list[float]:
    """Drive one --batch - process line by line; the round trip of every question."""
    proc = subprocess.Popen([*cmd, "classify", spec, "--batch", "-"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdin is not None and proc.stdout is not None
    times = []
    try:
        for n, cards in enumerate(plays):
            start = time.perf_counter()
            proc.stdin.write(json.dumps({"id": n, "cards": cards}) + "\n")
            proc.stdin.flush()
            answer = json.loads(proc.stdout.readline())
            times.append(time.perf_counter() - start)
            if answer.get("id") != n or "error" in answer:
                sys.exit(f"pipe: unexpected answer {answer}")
        proc.stdin.close()
        proc.wait()
    finally:
        proc.kill()
    return times[1:]  # the first also waits for the start-up


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--spec", default="hubei-3p")
    parser.add_argument("--questions", type=int, default=20000, help="questions per batch")
    parser.add_argument("--processes", type=int, default=20, help="single processes per round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--pipe", type=int, default=2000, help="round trips through a pipe")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    print_header(__file__, json_output=bool(getattr(args, "json", False)))

    cmd = command()
    plays = questions(args.spec, args.questions, args.seed)
    lines = "".join(json.dumps({"id": n, "cards": c}) + "\n" for n, c in enumerate(plays))
    rng = random.Random(args.seed + 1)
    run_single(cmd, args.spec, plays[0])  # warm-up: fills the table cache, warms the OS caches

    batch_per_q: list[float] = []
    empty: list[float] = []
    single: list[float] = []
    for _ in range(args.rounds):
        elapsed, answers = run_batch(cmd, args.spec, lines, len(plays))
        batch_per_q.append(elapsed / len(plays))
        empty.append(run_batch(cmd, args.spec, "", 0)[0])
        for n in rng.sample(range(len(plays)), args.processes):
            elapsed, answer = run_single(cmd, args.spec, plays[n])
            single.append(elapsed)
            batched = json.loads(answers[n])
            if batched.pop("id") != n or batched != answer:
                sys.exit(f"batch and single answers differ for {plays[n]}")

    batch_q, single_q, fixed = (statistics.median(x) for x in (batch_per_q, single, empty))
    marginal = max(batch_q - fixed / len(plays), 0.0)
    trips = pipe_round_trips(cmd, args.spec, plays[: args.pipe + 1]) if args.pipe else []
    result = {
        "spec": args.spec, "command": cmd, "questions": len(plays), "rounds": args.rounds,
        "processes_per_round": args.processes,
        "batch_us_per_question": batch_q * 1e6,
        "batch_marginal_us_per_question": marginal * 1e6,
        "batch_fixed_ms": fixed * 1e3,
        "process_ms_per_question": single_q * 1e3,
        "ratio": single_q / batch_q,
        "pipe_round_trip_us": statistics.median(trips) * 1e6 if trips else None,
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(f"{args.spec}: {len(plays):,} classify questions, {args.rounds} rounds (medians)")
    print(f"  one process per question   {single_q * 1e3:10.1f} ms/question "
          f"({args.processes} processes a round)")
    print(f"  one --batch process        {batch_q * 1e6:10.1f} µs/question "
          f"(start-up {fixed * 1e3:.0f} ms, then {marginal * 1e6:.1f} µs/question)")
    if trips:
        print(f"  through a pipe, one by one {result['pipe_round_trip_us']:10.1f} µs round trip "
              f"({len(trips)} questions)")
    print(f"  batch is {result['ratio']:,.0f}x faster per question (target: at least 100x)")


if __name__ == "__main__":
    main()
