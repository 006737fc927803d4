"""Variants I: compile, census and legal-move speed of hubei-4p-2deck and laizi (wild cards).

    python benchmarks/bench_variants.py [--hands 60] [--repeat 3] [--seed 0] [--wild 7|random]
                                        [--census-wild 7] [--clock cpu|wall] [--quick] [--json]

Everything runs in this one process. Measured:

* **compile**: ``load_variant`` of ``hubei-4p-2deck`` and ``laizi`` with
  ``DDZRULES_NO_CACHE=1`` (no table is read from or written to the disk cache), after
  one untimed warm-up load of ``hubei-3p`` (imports, the pattern grammar); then the
  census build: ``Variant.census()`` for hubei-4p-2deck (enumerates and tabulates the
  universe), ``Variant.census(wild=R)`` for laizi, which counts every (cards, reading)
  reachable from the full deck with 0–4 wild cards of rank ``R``. The natural table
  and listing index each variant's ``legal_moves`` needs are built next, untimed
  below, and reported as setup.
* **hubei-4p-2deck**: legal moves of seeded random 33-card landlord hands (two decks
  shuffled into four 25-card hands and an 8-card kitty; the landlord's hand is the
  first hand plus the kitty), leading and answering a random play.
* **laizi**: legal moves of seeded random one-deck hands of 17 and 20 cards holding
  exactly k = 1, 2, 3, 4 wild cards (k cards of the wild rank and 17−k or 20−k of the
  other 50 cards), leading and answering, with ``wild=R``; and of the *same* hands
  with ``wild=None`` (the wild rank's cards are then natural cards). The ratio of the
  two times is the wildcard slowdown (the issue's target: a hand with wilds at most
  10× slower than the same hand without); because a wild hand has many more distinct
  plays, the per-move cost ratio (µs per listed move, wild over natural) is printed
  too, and the ratio of the numbers of moves: even at equal cost per move a wild
  hand's listing is slower by that much. The wild rank is drawn per hand from 3..2
  (``--wild random``, the default, as a deal does) or fixed (``--wild 7``).

The play to answer is, for each hand, a random legal lead of another random hand of
the same set (with the same wild rank), passed as the :class:`Move` the runtime
passes, so nothing is classified inside the timing. Both listings of a hand answer
the same Move.

Times are the best of ``--repeat`` rounds, the runners interleaved in every round,
with the garbage collector paused while a runner runs; ``--clock cpu`` (the default)
measures this process's CPU time. The first round also warms the wildcard Move
cache (as the natural listing's table is built before timing).
"""

from __future__ import annotations

import os

from _header import print_header  # benchmarks/_header.py: the build measured

os.environ["DDZRULES_NO_CACHE"] = "1"  # before ddzrules reads it: compile every table afresh

import argparse
import json
import random
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from bench_moves import best_of, clock_fn

from ddzrules import cards as C
from ddzrules import load_variant
from ddzrules.rules.moves import Move

HUBEI = "hubei-4p-2deck"
LAIZI = "laizi"
WARMUP_SPEC = "hubei-3p"
WILD_COUNTS = (1, 2, 3, 4)
LAIZI_SIZES = (17, 20)
TARGET_SLOWDOWN = 10.0  # a hand with wilds at most this many times slower than without


# ---------------------------------------------------------------------- timing


# clock_fn and best_of are bench_moves.py's (same directory, so importable when run as a script)


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    t0 = time.perf_counter()
    out = fn()
    return time.perf_counter() - t0, out


# ---------------------------------------------------------------------- workloads


def hubei_hands(n: int, seed: int) -> list[list[int]]:
    """Seeded 33-card landlord hands: two decks, four hands of 25, an 8-card kitty."""
    rng = random.Random(seed)
    deck = C.deck_list(C.full_deck(2, True))
    assert len(deck) == 108
    out = []
    for _ in range(n):
        d = deck[:]
        rng.shuffle(d)
        out.append(C.Ranks(sorted(d[0:25] + d[100:108])))
    return out


def laizi_hands(n: int, size: int, k: int, stand_for: tuple[int, ...], wild: int | None,
                seed: int) -> list[tuple[list[int], int]]:
    """Seeded one-deck hands of ``size`` cards with exactly ``k`` cards of the wild rank:
    (sorted rank indices, wild rank)."""
    rng = random.Random(seed * 1000 + size * 10 + k)
    deck = C.deck_list(C.full_deck())
    out = []
    for _ in range(n):
        w = wild if wild is not None else rng.choice(stand_for)
        others = [c for c in deck if c != w]
        out.append((C.Ranks(sorted(rng.sample(others, size - k) + [w] * k)), w))
    return out


def previous_plays(hands: list[list[int]], wilds: Sequence[int | None],
                   listing: Callable[[list[int], int | None], Any], seed: int) -> list[Move]:
    """For each hand, a random legal lead of another random hand (same wild rank)."""
    rng = random.Random(seed)
    n = len(hands)
    out = []
    for i in range(n):
        while True:
            j = rng.randrange(n)
            if j == i and n > 1:
                continue
            leads = listing(hands[j], wilds[i]).moves
            if leads:
                out.append(rng.choice(leads))
                break
    return out


def laizi_runners(lz: Callable[..., Any], dealt: list[tuple[list[int], int]],
                  prevs: list[Move]) -> dict[str, Callable[[], int]]:
    """The four timed listings of one laizi row: with the wild rank, and the same hands
    (and previous plays) without it."""
    hands = [h for h, _ in dealt]

    def lead_wild() -> int:
        return sum(len(lz(h, wild=w)) for h, w in dealt)

    def lead_none() -> int:
        return sum(len(lz(h)) for h in hands)

    def answer_wild() -> int:
        return sum(len(lz(h, after=p, wild=w)) for (h, w), p in zip(dealt, prevs))

    def answer_none() -> int:
        return sum(len(lz(h, after=p)) for h, p in zip(hands, prevs))

    return {"lead_wild": lead_wild, "lead_none": lead_none, "answer_wild": answer_wild,
            "answer_none": answer_none}


# ---------------------------------------------------------------------- run


def run(args: argparse.Namespace) -> dict[str, Any]:
    clock = clock_fn(args.clock)
    census_wild = C.parse_rank(args.census_wild)

    # ------------------------------------------------------------ compile + census
    warm, _ = timed(lambda: load_variant(WARMUP_SPEC))
    compile_s: dict[str, float] = {}
    census_s: dict[str, float] = {}
    setup_s: dict[str, float] = {}
    census: dict[str, Any] = {}
    compile_s[HUBEI], hubei = timed(lambda: load_variant(HUBEI))
    compile_s[LAIZI], laizi = timed(lambda: load_variant(LAIZI))
    census_s[HUBEI], c = timed(hubei.census)
    census[HUBEI] = c.to_dict()
    census_s[LAIZI], c = timed(lambda: laizi.census(wild=census_wild))
    census[LAIZI] = {"wild": C.RANKS[census_wild], **c.to_dict()}
    # untimed below: the listing index (hubei) and the natural table + index (laizi)
    setup_s[HUBEI], _ = timed(lambda: hubei.legal_moves("3"))
    setup_s[LAIZI], _ = timed(lambda: laizi.legal_moves("3"))

    results: dict[str, Any] = {}

    # ------------------------------------------------------------ hubei-4p-2deck
    hs = hubei_hands(args.hands, args.seed)
    prevs = previous_plays(hs, [None] * len(hs), lambda h, w: hubei.legal_moves(h), args.seed + 1)
    lm = hubei.legal_moves
    timed_h = best_of(args.repeat, {
        "lead": lambda: sum(len(lm(h)) for h in hs),
        "answer": lambda: sum(len(lm(h, after=p)) for h, p in zip(hs, prevs)),
    }, clock)
    results[HUBEI] = {kind: _row(t, n, len(hs)) for kind, (t, n) in timed_h.items()}

    # ------------------------------------------------------------ laizi
    lz = laizi.legal_moves
    fixed = None if args.wild == "random" else C.parse_rank(args.wild)
    rows: dict[str, Any] = {}
    for size in LAIZI_SIZES:
        for k in WILD_COUNTS:
            dealt = laizi_hands(args.hands, size, k, laizi.rules.stand_for, fixed, args.seed)
            hands = [h for h, _ in dealt]
            wilds = [w for _, w in dealt]
            prevs_l = previous_plays(hands, wilds, lambda h, w: lz(h, wild=w), args.seed + size + k)
            t = best_of(args.repeat, laizi_runners(lz, dealt, prevs_l), clock)
            rows[f"{size}/{k}"] = {name: _row(tt, n, len(hands)) for name, (tt, n) in t.items()}
    results[LAIZI] = rows

    return {
        "config": {"hands": args.hands, "repeat": args.repeat, "seed": args.seed, "clock": args.clock,
                   "wild": args.wild, "census_wild": C.RANKS[census_wild], "python": sys.version.split()[0],
                   "DDZRULES_NO_CACHE": os.environ.get("DDZRULES_NO_CACHE")},
        "warmup_seconds": {WARMUP_SPEC: warm},
        "compile_seconds": compile_s,
        "census_seconds": census_s,
        "setup_seconds": setup_s,
        "census": census,
        "results": results,
    }


def _row(t: float, n: int, hands: int) -> dict[str, float]:
    return {"seconds": t, "moves": n, "hands_per_s": hands / t, "moves_per_s": n / t,
            "us_per_hand": t / hands * 1e6, "moves_per_hand": n / hands, "us_per_move": t / n * 1e6 if n else 0.0}


def summarise(raw: dict[str, Any]) -> dict[str, Any]:
    """Slowdown ratios (wild over natural, same hands and same previous plays)."""
    rows = raw["results"][LAIZI]
    per_cell: dict[str, Any] = {}
    per_k: dict[str, Any] = {}
    for kind in ("lead", "answer"):
        for k in WILD_COUNTS:
            tw = tn = nw = nn = 0.0
            for size in LAIZI_SIZES:
                cell = rows[f"{size}/{k}"]
                w, n = cell[f"{kind}_wild"], cell[f"{kind}_none"]
                per_cell[f"{kind} {size}/{k}"] = {
                    "slowdown": w["seconds"] / n["seconds"],
                    "per_move_ratio": (w["us_per_move"] / n["us_per_move"]) if n["moves"] and w["moves"] else None,
                    "moves_ratio": w["moves"] / n["moves"] if n["moves"] else None,
                }
                tw += w["seconds"]
                tn += n["seconds"]
                nw += w["moves"]
                nn += n["moves"]
            per_k[f"{kind} {k}"] = {"slowdown": tw / tn, "per_move_ratio": (tw / nw) / (tn / nn) if nw and nn else None,
                                    "moves_ratio": nw / nn if nn else None}
    worst = max(v["slowdown"] for v in per_k.values())
    return {"per_size_and_wilds": per_cell, "per_wilds": per_k,
            "target": {"max_slowdown": worst, "target": TARGET_SLOWDOWN, "met": worst <= TARGET_SLOWDOWN}}


# ---------------------------------------------------------------------- report


def print_table(raw: dict[str, Any], summary: dict[str, Any]) -> None:
    cfg = raw["config"]
    clock = "CPU time of this process" if cfg["clock"] == "cpu" else "wall time"
    wild = "drawn per hand from 3..2" if cfg["wild"] == "random" else cfg["wild"]
    print(f"bench_variants: {cfg['hands']} hands per row, seed {cfg['seed']}, best of {cfg['repeat']} "
          f"interleaved rounds, {clock}; wild rank {wild}; Python {cfg['python']}")
    print(f"DDZRULES_NO_CACHE={cfg['DDZRULES_NO_CACHE']}; warm-up load of {WARMUP_SPEC} (imports, grammar): "
          f"{raw['warmup_seconds'][WARMUP_SPEC]:.3f}s")
    print()
    head = f"{'compile + census':<22}{'load_variant':>13}{'census':>10}{'  census totals'}"
    print(head)
    print("-" * 100)
    for spec in (HUBEI, LAIZI):
        c = raw["census"][spec]
        what = f"  {c['total']:,} card sets, {c['readings']:,} readings"
        label = spec
        if spec == LAIZI:
            label = f"laizi census(wild={c['wild']})"
            byw = ", ".join(f"{k}: {v:,}" for k, v in c["readings_by_wilds"].items())
            what += f"; readings by wild cards held {{{byw}}}"
        print(f"{label:<22}{raw['compile_seconds'][spec]:>12.3f}s{raw['census_seconds'][spec]:>9.2f}s{what}")
    c = raw["census"][LAIZI]
    print(f"  laizi census(wild={c['wild']}) counts every (cards, reading) reachable from the full 54-card deck "
          f"with 0-4 wild cards ({c['wild']} as wild)")
    for spec in (HUBEI, LAIZI):
        combos = ", ".join(f"{k} {v:,}" for k, v in raw["census"][spec]["by_combo"].items())
        print(f"  {spec} by combo: {combos}")
    print("  setup before the timings (natural table + listing index): "
          + ", ".join(f"{s} {t:.2f}s" for s, t in raw["setup_seconds"].items()))
    print()

    head = (f"{'legal moves':<33}{'hands/s':>10}{'moves/s':>12}{'us/hand':>11}{'moves/hand':>12}{'us/move':>9}"
            f"{'slowdown':>10}{'per-move':>10}")
    print(head)
    print("-" * len(head))

    def line(label: str, row: dict[str, float], ratio: dict[str, Any] | None = None) -> None:
        extra = ""
        if ratio is not None:
            pm = ratio["per_move_ratio"]
            extra = f"{ratio['slowdown']:>9.1f}x{(f'{pm:.1f}x' if pm else '-'):>10}"
        print(f"{label:<33}{row['hands_per_s']:>10,.0f}{row['moves_per_s']:>12,.0f}{row['us_per_hand']:>11,.1f}"
              f"{row['moves_per_hand']:>12.1f}{row['us_per_move']:>9.2f}{extra}")

    for kind in ("lead", "answer"):
        line(f"{HUBEI} 33 cards, {kind}", raw["results"][HUBEI][kind])
    for kind in ("lead", "answer"):
        print()
        for size in LAIZI_SIZES:
            for k in WILD_COUNTS:
                cell = raw["results"][LAIZI][f"{size}/{k}"]
                line(f"laizi {size} cards {k}W {kind}, wild", cell[f"{kind}_wild"],
                     summary["per_size_and_wilds"][f"{kind} {size}/{k}"])
                line(f"{'':<25}no wild", cell[f"{kind}_none"])
    print()
    print("slowdown = time with wild=R / time of the same hands with wild=None; per-move = (us per move with")
    print("wilds) / (us per move without); 17 and 20 cards pooled:")
    head = f"{'wild cards':<12}" + "".join(f"{h:>14}" for h in ("lead slowdown", "lead per-move", "lead moves",
                                                                  "answ slowdown", "answ per-move", "answ moves"))
    print(head)
    print("-" * len(head))
    for k in WILD_COUNTS:
        cells = []
        for kind in ("lead", "answer"):
            r = summary["per_wilds"][f"{kind} {k}"]
            cells += [f"{r['slowdown']:.1f}x", f"{r['per_move_ratio']:.1f}x" if r["per_move_ratio"] else "-",
                      f"{r['moves_ratio']:.1f}x" if r["moves_ratio"] else "-"]
        print(f"{k:<12}" + "".join(f"{c:>14}" for c in cells))
    print("moves = moves listed with wilds / without. Every move is listed, so even at equal cost per move")
    print("the slowdown would be the moves ratio; the per-move ratio is what the enumeration can change.")
    t = summary["target"]
    print()
    print(f"target: a hand with wilds at most {t['target']:g}x slower than the same hand without: worst "
          f"{t['max_slowdown']:.1f}x - {'met' if t['met'] else 'NOT met'}")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=None, help="hands per row (default 60; --quick 8)")
    ap.add_argument("--repeat", type=int, default=None, help="rounds; the best counts (default 3; --quick 2)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--wild", default="random", help="wild rank of the laizi hands, or 'random' (per hand)")
    ap.add_argument("--census-wild", default="7", help="wild rank of the laizi census (default 7)")
    ap.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    ap.add_argument("--quick", action="store_true", help="fewer hands and rounds")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args(argv)
    print_header(__file__, json_output=bool(getattr(args, "json", False)))
    if args.hands is None:
        args.hands = 8 if args.quick else 60
    if args.repeat is None:
        args.repeat = 2 if args.quick else 3
    raw = run(args)
    summary = summarise(raw)
    if args.json:
        print(json.dumps({**raw, "slowdown": summary}, indent=2, ensure_ascii=False))
    else:
        print_table(raw, summary)


if __name__ == "__main__":
    main()
