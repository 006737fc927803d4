"""The search bot's strength and decision time (issue 22's targets), as `ddzrules duel`
measures them: figures of the bots that played, on the deals of one seed.

    python benchmarks/bench_search.py douzero  [--spec hubei-3p] [--deals 1000] [--bots search,heuristic]
    python benchmarks/bench_search.py duplicate [--deals 300]            # every bundled playable spec
    python benchmarks/bench_search.py budget   [--spec hubei-3p] [--deals 200] [--iters 20,40,80,160]
    python benchmarks/bench_search.py timing   [--deals 5] [--by-phase] # decision time, every playable spec

Common options: --seed S, --workers K, --jsonl FILE (each duel's JSON appended as it
finishes, so a long run keeps what it has done). Each prints the duel's figures as it
finishes (JSON with --json). ``timing`` plays a few duplicate deals of every bundled
playable spec (one process: one core) and prints A's decision times in one table against
issue 22's target (median at most 100 ms, p95 at most 1 s at the default budget). Decision times are of this machine,
one process, pure Python unless the compiled build is installed; they are medians, p95
and maxima over the decisions that had a choice. ``--by-phase`` splits the search bot's
decisions by the phase they were made in (bids, calls and robs; declarations; plays):
how many, their median, p95 and maximum, and how many took at most 100 ms.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from typing import Any

from _header import print_header  # benchmarks/_header.py: the build measured

from ddzrules import BUILD
from ddzrules import cards as C
from ddzrules.errors import DdzError
from ddzrules.runtime import GameRules
from ddzrules.simulate.duel import duel, format_duel
from ddzrules.spec import bundled_names, load_spec


def playable() -> list[str]:
    """The bundled specs with a game: section."""
    return [n for n in bundled_names() if load_spec(n).data.get("game")]


def duels(args: argparse.Namespace) -> Iterator[tuple[str, str, str, str]]:
    """(spec, bot A, bot B, protocol) of each duel the run plays."""
    a, b = args.bots.split(",")
    if args.what == "douzero":
        yield args.spec, a, b, "douzero"
    elif args.what in ("duplicate", "timing"):
        for s in [args.spec] if args.spec else playable():
            yield s, a, b, "duplicate"
    else:
        protocol = "douzero" if GameRules.load(args.spec).table_kind == "landlord" else "duplicate"
        for iters in (int(x) for x in args.iters.split(",")):
            yield args.spec, f"{a}:iters={iters}", b, protocol


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=["douzero", "duplicate", "budget", "timing"])
    parser.add_argument("--spec", default=None)
    parser.add_argument("--deals", type=int, default=None)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bots", default="search,heuristic")
    parser.add_argument("--iters", default="20,40,80,160")
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--jsonl", default=None, help="append each duel's JSON to this file")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--by-phase", action="store_true", help="timing: the search bot's decisions by phase")
    args = parser.parse_args()
    print_header(__file__, json_output=bool(getattr(args, "json", False)))
    if args.spec is None and args.what not in ("duplicate", "timing"):
        args.spec = "hubei-3p"
    if args.deals is None:
        args.deals = {"douzero": 1000, "duplicate": 300, "budget": 200, "timing": 5}[args.what]
    if args.what == "timing" and args.workers not in (None, 1):
        parser.error("timing measures one process on one core: no --workers")
    print(f"build: {BUILD}",
          file=sys.stderr)
    if args.by_phase and (args.what != "timing" or args.bots.split(",")[1].startswith("search")):
        parser.error("--by-phase times bot A's decisions in timing, against a bot B that is not search")
    rows: list[tuple[str, dict[str, float | int | None], str]] = []
    for spec, a, b, protocol in duels(args):
        PHASES.clear()
        with phases_timed() if args.by_phase else nullcontext():
            r = duel(spec, a, b, args.deals, args.seed, protocol, workers=args.workers)
        if args.by_phase:
            print(phase_lines(spec, a, b), file=sys.stderr, flush=True)
        if args.jsonl:
            with open(args.jsonl, "a", encoding="utf-8") as f:
                f.write(json.dumps(r) + "\n")
        if args.what == "timing":
            rows.append((spec, r["decision_ms"]["a"], wild_tables(spec)))
            print(f"{spec}: {_times(r['decision_ms']['a'])}", file=sys.stderr, flush=True)
            continue
        print(json.dumps(r, indent=2) if args.json else format_duel(r) + "\n", flush=True)
    if rows:
        print_timing(rows, args)


def wild_tables(spec: str) -> str:
    """What this process's wild tables of ``spec`` did (a wild spec's first decisions
    walk, then read its tables from the disk cache or build them: a cold cache costs
    1-2.5 s a rank); "" for a spec without wild cards."""
    from ddzrules.simulate import duel as played  # the rules its deals ran with (one process)

    variant = played._rules[spec].variant
    if not variant.rules.stand_for:
        return ""
    wilds = variant.wild_moves()

    def names(ranks: set[int]) -> str:
        return "".join(C.RANKS[r] for r in sorted(ranks)) or "none"

    return f"wild tables read from disk {names(wilds.loaded)}, built {names(wilds.built)}"


#: the search bot's decisions with a choice, by phase, while :func:`phases_timed` runs: seconds
PHASES: dict[str, list[float]] = {}


@contextmanager
def phases_timed() -> Iterator[None]:
    """While inside, the bot named ``search`` is a SearchBot that also keeps its decisions'
    times by phase in PHASES (decisions with a choice, as the duel times them)."""
    from ddzrules.bots import BOTS, SearchBot

    class PhasedSearch(SearchBot):
        def act(self, view: Any, legal: list[Any]) -> Any:
            if len(legal) == 1:
                return super().act(view, legal)
            start = time.perf_counter()
            try:
                return super().act(view, legal)
            finally:
                PHASES.setdefault(view.phase, []).append(time.perf_counter() - start)

    BOTS["search"] = PhasedSearch
    try:
        yield
    finally:
        BOTS["search"] = SearchBot


def phase_lines(spec: str, a: str, b: str) -> str:
    """PHASES as a few lines: per phase, the decisions, their median, p95 and maximum, and
    how many took at most 100 ms."""
    lines = [f"{spec}: decisions of {a} (against {b}) by phase:"]
    for phase, times in sorted(PHASES.items()):
        t = sorted(times)
        lines.append(f"  {phase:10s} {len(t):5,} decisions: median {1000 * statistics.median(t):,.0f} ms, "
                     f"p95 {1000 * t[min(len(t) - 1, int(0.95 * len(t)))]:,.0f} ms, max {1000 * t[-1]:,.0f} ms, "
                     f"{sum(x <= 0.1 for x in t):,} at most 100 ms")
    return "\n".join(lines)


def _times(t: dict[str, float | int | None]) -> str:
    if not t["decisions"]:
        return "no decision with a choice"
    return f"{t['median']:,.0f} / {t['p95']:,.0f} / {t['max']:,.0f} ms over {t['decisions']:,} decisions"


def print_timing(rows: list[tuple[str, dict[str, float | int | None], str]], args: argparse.Namespace) -> None:
    """A's decision times per spec, each against the target (median <= 100 ms, p95 <= 1 s
    at the default budget: a bot with options is not judged)."""
    a, b = args.bots.split(",")
    judged = a == "search"
    if args.json:
        print(json.dumps({"bots": args.bots, "deals": args.deals, "seed": args.seed, "workers": 1,
                          "decision_ms": {spec: t for spec, t, _ in rows},
                          "wild_tables": {spec: w for spec, _, w in rows if w}}, indent=2))
        return
    print(f"decision time of {a} (against {b}), {args.deals} duplicate deals a spec, seed {args.seed}, "
          f"one process: median / p95 / max" + ("" if judged else " (not the default budget: not judged)"))
    for spec, t, wild in rows:
        met = (t["median"] is not None and t["p95"] is not None
               and t["median"] <= 100 and t["p95"] <= 1000)  # type: ignore[operator]
        verdict = ("met" if met else "NOT met") if judged else ""
        print(f"  {spec:20s} {_times(t):45s} {verdict:8s} {wild}".rstrip())


if __name__ == "__main__":
    try:
        main()
    except (DdzError, ValueError) as error:  # a bad spec, deal count or bot: the message, no traceback
        sys.exit(f"bench_search.py: {error}")
