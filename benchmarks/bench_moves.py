"""Legal-move listing and classification speed: ddzrules beside DouZero and RLCard.

    python benchmarks/bench_moves.py [--deals 2000] [--plays 200000] [--repeat 7]
                                     [--seed 0] [--clock cpu|wall] [--json]
                                     [--spec compat/douzero --spec hubei-3p]

Everything runs in this one process on the same seeded deals. Each deal shuffles one
54-card deck into three 17-card hands and a 3-card kitty; the first hand is a 17-card
hand, the second plus the kitty a 20-card (landlord) hand. Measured per hand size:

* **lead**: every legal play of the hand (``Variant.legal_moves(hand)``);
* **answer**: every legal answer to a previous play (``legal_moves(hand, after=...)``).
  The previous play is a random legal lead of another random hand of the same size
  with exactly one reading (so every engine reads it the same way; for DouZero's
  rules also no plane whose single wings hold a trio or four, which DouZero's
  classifier reads differently). ddzrules gets it as its card string and looks it up
  each time (DouZero's path classifies its card list with ``move_detector``).
* **classify**: ``Variant.classify`` on random plays drawn from the variant's
  universe, as canonical card strings.

Baselines (optional; skipped when not importable):

* DouZero 1.1.0 (``pip install --no-deps douzero numpy``): ``MovesGener(hand)``.
  Leading is what its env does on a lead (``md.get_move_type([])`` then
  ``gen_moves()``, then sorting each move); answering replicates
  ``GameEnv.get_legal_card_play_actions``: classify the rival move with
  ``move_detector``, generate only that type (chain types with the rival's length)
  and filter it with ``move_selector``, add bombs and the rocket, add pass, sort
  each move. DouZero gets its own card lists (3..14, 17, 20, 30), built beforehand.
* RLCard's classification is a dict lookup, ``CARD_TYPE[0][action]``, from the action
  string to its types; the dict is built here from ``tests/reference/rlcard_actions.txt``
  (RLCard's action space) as RLCard builds it from its json, and looked up (``.get``)
  with the plays already in RLCard's notation (jokers ``B``/``R``): the bare lookup,
  with no conversion charged to RLCard. Plays RLCard lacks miss. Both engines get
  fresh string objects made the same way.

Each engine runs ``--repeat`` rounds, the engines interleaved in every round, with the
garbage collector paused while a round runs (as ``timeit`` does); the tables give the
best round and the ratios of both the best rounds and the medians, and the targets
(issue 44: lead and answer at least 10x DouZero on the default build; issue 12's was 5x) are judged on the
medians. ``--clock cpu`` (the default) measures this process's CPU time, which shared
machines disturb less than wall time. Building ddzrules' tables happens before timing
and is reported separately. ddzrules memoises some of its listing as it goes (chain
runs and chain answers by rank mask, the pairs of kicker ranks a rank mask holds, the
answer function by previous play), so its timed rounds are warm ones; from a cold
start its first few hundred leads run about 2x slower (1.7-2.6x measured). ddzrules
lists each distinct play once per reading; DouZero's generator repeats some plays, so
its moves/hand runs higher.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from _header import print_header  # benchmarks/_header.py: the build measured

from ddzrules import BUILD, load_variant
from ddzrules import cards as C

ROOT = Path(__file__).resolve().parent.parent
RLCARD_ACTIONS = ROOT / "tests" / "reference" / "rlcard_actions.txt"
DOUZERO_SPEC = "compat/douzero"
#: DouZero's card ints, by ddzrules rank index
DZ_CARD = [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 20, 30]
TO_RLCARD = str.maketrans("XD", "BR")

TARGET_MOVES = 10.0  # issue 44: on what `pip install .` gives (the C kernels built)
GOAL_MOVES = 10.0  # issue 12's goal, now the target
TARGET_CLASSIFY = 1.0  # classify: at least RLCard's dict lookup


# ---------------------------------------------------------------------- workload


def deal(deals: int, seed: int) -> dict[int, list[C.Ranks]]:
    """Seeded deals → {17: hands, 20: hands}, each hand its sorted rank indices (C.Ranks)."""
    rng = random.Random(seed)
    deck = C.deck_list(C.full_deck())
    hands: dict[int, list[C.Ranks]] = {17: [], 20: []}
    for _ in range(deals):
        d = deck[:]
        rng.shuffle(d)
        hands[17].append(C.Ranks(sorted(d[0:17])))
        hands[20].append(C.Ranks(sorted(d[17:34] + d[51:54])))
    return hands


def douzero_agrees(move: Any) -> bool:
    """False for plays DouZero's classifier reads differently from its generator: planes
    with single wings that hold a trio or a four."""
    if move.combo != "plane_solos":
        return True
    chain = range(move.rank - move.length + 1, move.rank + 1)
    counts = C.unpack(move.packed)
    return all(c < 3 for r, c in enumerate(counts) if r not in chain)


def previous_plays(variant: Any, hands: list[list[int]], seed: int, douzero_rules: bool) -> list[str]:
    """For each hand, a random single-reading lead of another random hand (card string)."""
    rng = random.Random(seed)
    out = []
    n = len(hands)
    for i in range(n):
        while True:
            j = rng.randrange(n)
            if j == i and n > 1:
                continue
            leads = [m for m in variant.legal_moves(hands[j])
                     if len(variant.classify(m.cards)) == 1 and (not douzero_rules or douzero_agrees(m))]
            if leads:
                out.append(rng.choice(leads).cards)
                break
    return out


# ---------------------------------------------------------------------- DouZero


# over the complexity bound on purpose: DouZero's own move generator, transcribed case by case
def douzero_engine() -> dict[str, Any] | None:  # noqa: C901
    try:
        from douzero.env import move_detector as md
        from douzero.env import move_selector as ms
        from douzero.env.move_generator import MovesGener
    except ImportError:
        return None

    def lead(hand: list[int]) -> list[list[int]]:
        # GameEnv.get_legal_card_play_actions with no rival move
        mg = MovesGener(hand)
        rival_type = md.get_move_type([])
        assert rival_type["type"] == md.TYPE_0_PASS
        moves = mg.gen_moves()
        for m in moves:
            m.sort()
        return moves

    def answer(hand: list[int], rival_move: list[int]) -> list[list[int]]:
        # GameEnv.get_legal_card_play_actions (douzero/env/game.py), statement for statement
        mg = MovesGener(hand)
        rival_type = md.get_move_type(rival_move)
        rival_move_type = rival_type["type"]
        rival_move_len = rival_type.get("len", 1)
        moves: list[list[int]] = []
        if rival_move_type == md.TYPE_0_PASS:
            moves = mg.gen_moves()
        elif rival_move_type == md.TYPE_1_SINGLE:
            moves = ms.filter_type_1_single(mg.gen_type_1_single(), rival_move)
        elif rival_move_type == md.TYPE_2_PAIR:
            moves = ms.filter_type_2_pair(mg.gen_type_2_pair(), rival_move)
        elif rival_move_type == md.TYPE_3_TRIPLE:
            moves = ms.filter_type_3_triple(mg.gen_type_3_triple(), rival_move)
        elif rival_move_type == md.TYPE_4_BOMB:
            moves = ms.filter_type_4_bomb(mg.gen_type_4_bomb() + mg.gen_type_5_king_bomb(), rival_move)
        elif rival_move_type == md.TYPE_5_KING_BOMB:
            moves = []
        elif rival_move_type == md.TYPE_6_3_1:
            moves = ms.filter_type_6_3_1(mg.gen_type_6_3_1(), rival_move)
        elif rival_move_type == md.TYPE_7_3_2:
            moves = ms.filter_type_7_3_2(mg.gen_type_7_3_2(), rival_move)
        elif rival_move_type == md.TYPE_8_SERIAL_SINGLE:
            moves = ms.filter_type_8_serial_single(mg.gen_type_8_serial_single(repeat_num=rival_move_len),
                                                   rival_move)
        elif rival_move_type == md.TYPE_9_SERIAL_PAIR:
            moves = ms.filter_type_9_serial_pair(mg.gen_type_9_serial_pair(repeat_num=rival_move_len), rival_move)
        elif rival_move_type == md.TYPE_10_SERIAL_TRIPLE:
            moves = ms.filter_type_10_serial_triple(mg.gen_type_10_serial_triple(repeat_num=rival_move_len),
                                                    rival_move)
        elif rival_move_type == md.TYPE_11_SERIAL_3_1:
            moves = ms.filter_type_11_serial_3_1(mg.gen_type_11_serial_3_1(repeat_num=rival_move_len), rival_move)
        elif rival_move_type == md.TYPE_12_SERIAL_3_2:
            moves = ms.filter_type_12_serial_3_2(mg.gen_type_12_serial_3_2(repeat_num=rival_move_len), rival_move)
        elif rival_move_type == md.TYPE_13_4_2:
            moves = ms.filter_type_13_4_2(mg.gen_type_13_4_2(), rival_move)
        elif rival_move_type == md.TYPE_14_4_22:
            moves = ms.filter_type_14_4_22(mg.gen_type_14_4_22(), rival_move)
        if rival_move_type not in [md.TYPE_0_PASS, md.TYPE_4_BOMB, md.TYPE_5_KING_BOMB]:
            moves = moves + mg.gen_type_4_bomb() + mg.gen_type_5_king_bomb()
        if len(rival_move) != 0:  # rival_move is not 'pass'
            moves = moves + [[]]
        for m in moves:
            m.sort()
        return moves

    import douzero

    return {"lead": lead, "answer": answer, "md": md,
            "version": getattr(douzero, "__version__", None) or _dist_version("douzero")}


def _dist_version(name: str) -> str | None:
    try:
        from importlib.metadata import version

        return version(name)
    except Exception:  # noqa: BLE001 - informational only
        return None


def to_douzero(cards: list[int] | str) -> list[int]:
    ranks = C.parse_ranks(cards) if isinstance(cards, str) else cards
    return sorted(DZ_CARD[r] for r in ranks)


# ---------------------------------------------------------------------- RLCard


def rlcard_card_type() -> tuple[dict[str, Any], list[str], set[str]] | None:
    """RLCard's CARD_TYPE: (action -> [[type, weight]], actions, set of actions)."""
    if not RLCARD_ACTIONS.exists():
        return None
    data: dict[str, Any] = {}
    for line in RLCARD_ACTIONS.read_text(encoding="utf-8").splitlines():
        if not line or line.startswith("#"):
            continue
        cols = line.split("\t")
        if cols[1] == "pass":
            continue
        data.setdefault(cols[1], []).append([cols[3], cols[4]])
    return data, list(data), set(data)


# ---------------------------------------------------------------------- timing


def clock_fn(name: str) -> Callable[[], float]:
    return time.process_time if name == "cpu" else time.perf_counter


def best_of(rounds: int, runners: dict[str, Callable[[], int]],
            clock: Callable[[], float]) -> dict[str, tuple[float, int, float]]:
    """Run each runner ``rounds`` times, interleaved: its best time, its output count and
    its median time."""
    times: dict[str, list[float]] = {name: [] for name in runners}
    counts: dict[str, int] = {}
    for _ in range(rounds):
        for name, run in runners.items():
            gc.collect()
            gc.disable()  # as timeit does: a collection would bill one engine for the other's garbage
            try:
                t0 = clock()
                n = run()
                dt = clock() - t0
            finally:
                gc.enable()
            times[name].append(dt)
            counts[name] = n
    return {name: (min(ts), counts[name], statistics.median(ts)) for name, ts in times.items()}


def _loop(fn: Callable[[str], Any], plays: list[str]) -> int:
    """Call ``fn`` on every play: the classification workload, the same for every engine."""
    for s in plays:
        fn(s)
    return len(plays)


def run(args: argparse.Namespace) -> dict[str, Any]:
    clock = clock_fn(args.clock)
    hands = deal(args.deals, args.seed)
    dz = douzero_engine()
    card_type = rlcard_card_type()

    setup: dict[str, float] = {}
    variants = {}
    for spec in args.spec:
        t0 = time.perf_counter()
        v = load_variant(spec)
        v.fast_index()  # the universe table and the listing index, as a long run has them
        v.legal_moves(hands[20][0])
        setup[spec] = time.perf_counter() - t0
        variants[spec] = v

    # previous plays, per spec and hand size; DouZero answers the compat/douzero ones
    prevs: dict[str, dict[int, list[str]]] = {}
    for spec, v in variants.items():
        prevs[spec] = {size: previous_plays(v, hands[size], args.seed + size, spec == DOUZERO_SPEC)
                       for size in (17, 20)}
    dz_prev_spec = DOUZERO_SPEC if DOUZERO_SPEC in variants else None
    if dz is not None and dz_prev_spec is None:
        dz_rules = load_variant(DOUZERO_SPEC)
        prevs_dz = {size: previous_plays(dz_rules, hands[size], args.seed + size, True) for size in (17, 20)}
    elif dz is not None:
        prevs_dz = prevs[DOUZERO_SPEC]

    results: dict[str, Any] = {}
    for size in (17, 20):
        hs = hands[size]
        dz_hands = [to_douzero(h) for h in hs]
        # lead
        runners: dict[str, Callable[[], int]] = {}
        if dz is not None:
            dz_lead = dz["lead"]
            runners["DouZero"] = lambda dz_lead=dz_lead, dz_hands=dz_hands: sum(len(dz_lead(h)) for h in dz_hands)
        for spec, v in variants.items():
            runners[spec] = lambda lm=v.legal_moves, hs=hs: sum(len(lm(h)) for h in hs)
        results[f"lead_{size}"] = best_of(args.repeat, runners, clock)
        # answer
        runners = {}
        mismatched = 0
        if dz is not None:
            dz_answer, md = dz["answer"], dz["md"]
            rivals = [to_douzero(p) for p in prevs_dz[size]]
            mismatched = sum(md.get_move_type(list(r))["type"] == md.TYPE_15_WRONG for r in rivals)
            # DouZero's count leaves out the pass it appends
            runners["DouZero"] = lambda dz_answer=dz_answer, rivals=rivals, dz_hands=dz_hands: sum(
                len(dz_answer(h, r)) - 1 for h, r in zip(dz_hands, rivals))
        for spec, v in variants.items():
            ps = prevs[spec][size]
            runners[spec] = lambda lm=v.legal_moves, ps=ps, hs=hs: sum(len(lm(h, after=p)) for h, p in zip(hs, ps))
        results[f"answer_{size}"] = best_of(args.repeat, runners, clock)
        results[f"answer_{size}_douzero_rejected_prev"] = mismatched

    # classification
    classify: dict[str, Any] = {}
    for spec, v in variants.items():
        rng = random.Random(args.seed)
        universe = v.universe()
        # fresh string objects for both engines, made the same way (a play's string from
        # the universe list would sit wherever the table put it, RLCard's fresh ones side by
        # side in memory, which alone makes a measurable difference)
        plays = [rng.choice(universe).encode().decode() for _ in range(args.plays)]
        runners = {}
        found: dict[str, int] = {}
        if card_type is not None:
            rl_plays = [p.translate(TO_RLCARD).encode().decode() for p in plays]
            lookup = card_type[0].get
            found["RLCard"] = sum(1 for s in rl_plays if lookup(s) is not None)
            runners["RLCard"] = lambda lookup=lookup, rl_plays=rl_plays: _loop(lookup, rl_plays)
        found[spec] = sum(1 for s in plays if v.classify(s))
        runners[spec] = lambda cl=v.classify, plays=plays: _loop(cl, plays)
        # the hot-loop form: Variant.classifier(), the table's own lookup, like RLCard's
        classifier = v.classifier()
        found[f"{spec} classifier()"] = sum(1 for s in plays if classifier(s))
        runners[f"{spec} classifier()"] = lambda cl=classifier, plays=plays: _loop(cl, plays)
        timed = best_of(args.repeat, runners, clock)
        classify[spec] = {name: (t, found[name]) for name, (t, _, _) in timed.items()}
    results["classify"] = classify

    return {
        "config": {"deals": args.deals, "plays": args.plays, "repeat": args.repeat, "seed": args.seed,
                   "clock": args.clock, "specs": args.spec, "python": sys.version.split()[0],
                   "build": BUILD,
                   "douzero": dz["version"] if dz else None, "rlcard_lookup": card_type is not None},
        "setup_seconds": setup,
        "results": results,
    }


# ---------------------------------------------------------------------- report


def summarise(raw: dict[str, Any]) -> dict[str, Any]:
    """Rates and ratios from the raw best times."""
    res = raw["results"]
    deals = raw["config"]["deals"]
    plays = raw["config"]["plays"]
    out: dict[str, Any] = {"moves": {}, "classify": {}, "targets": {}}
    for size in (17, 20):
        for kind in ("lead", "answer"):
            key = f"{kind}_{size}"
            rows = {}
            base = res[key].get("DouZero")
            for engine, (t, n, median) in res[key].items():
                row = {"seconds": t, "median_seconds": median, "hands_per_s": deals / t, "moves_per_s": n / t,
                       "us_per_hand": t / deals * 1e6, "moves_per_hand": n / deals}
                if base is not None and engine != "DouZero":
                    row["x_douzero"] = base[0] / t
                    row["x_douzero_median"] = base[2] / median
                rows[engine] = row
            out["moves"][key] = rows
    for spec, r in res["classify"].items():
        rows = {}
        base = r.get("RLCard")
        for engine, (t, n) in r.items():
            row = {"seconds": t, "per_s": plays / t, "ns_per_play": t / plays * 1e9, "found": n}
            if base is not None and engine != "RLCard":
                row["x_rlcard"] = base[0] / t
            rows[engine] = row
        out["classify"][spec] = rows
    # targets
    for spec in raw["config"]["specs"]:
        t: dict[str, Any] = {}
        for kind in ("lead", "answer"):
            rows = [out["moves"][f"{kind}_{size}"][spec] for size in (17, 20)]
            if any("x_douzero" not in row for row in rows):
                t[kind] = None
                continue
            # judged on the medians (issue 12's measure); the best rounds shown beside
            least = min(row["x_douzero_median"] for row in rows)
            t[kind] = {"min_x_douzero": least, "min_x_douzero_best": min(row["x_douzero"] for row in rows),
                       "target": TARGET_MOVES, "goal": GOAL_MOVES, "met": least >= TARGET_MOVES}
        x = out["classify"][spec][spec].get("x_rlcard")
        t["classify"] = None if x is None else {"x_rlcard": x, "target": TARGET_CLASSIFY, "met": x >= TARGET_CLASSIFY}
        xc = out["classify"][spec].get(f"{spec} classifier()", {}).get("x_rlcard")
        t["classifier"] = None if xc is None else {"x_rlcard": xc, "target": TARGET_CLASSIFY,
                                                   "met": xc >= TARGET_CLASSIFY}
        out["targets"][spec] = t
    return out


def print_table(raw: dict[str, Any], summary: dict[str, Any]) -> None:
    cfg = raw["config"]
    clock = "CPU time of this process" if cfg["clock"] == "cpu" else "wall time"
    print(f"bench_moves: {cfg['deals']} deals (one 17- and one 20-card hand each), seed {cfg['seed']}, "
          f"{cfg['repeat']} interleaved rounds (best shown; ratios of best and median), {clock}; "
          f"Python {cfg['python']}; {cfg['build']}")
    print("DouZero " + (cfg["douzero"] or "?") if cfg["douzero"] else "DouZero: not installed "
          "(pip install --no-deps douzero numpy) - its rows are skipped")
    print("ddzrules setup (table + index, not timed below): "
          + ", ".join(f"{s} {t:.2f}s" for s, t in raw["setup_seconds"].items()))
    print()
    head = (f"{'legal moves':<18}{'engine':<18}{'hands/s':>10}{'moves/s':>12}{'us/hand':>10}{'moves/hand':>12}"
            f"{'vs DouZero':>12}{'(median)':>10}")
    print(head)
    print("-" * len(head))
    for kind in ("lead", "answer"):
        for size in (17, 20):
            rows = summary["moves"][f"{kind}_{size}"]
            label = f"{kind}, {size} cards"
            for engine, row in rows.items():
                x, xm = row.get("x_douzero"), row.get("x_douzero_median")
                name = "DouZero" if engine == "DouZero" else f"ddzrules {engine}"
                print(f"{label:<18}{name[:17]:<18}{row['hands_per_s']:>10,.0f}{row['moves_per_s']:>12,.0f}"
                      f"{row['us_per_hand']:>10.1f}{row['moves_per_hand']:>12.1f}"
                      f"{(f'{x:.2f}x' if x else ''):>12}{(f'{xm:.2f}x' if xm else ''):>10}")
                label = ""
    print()
    head = f"{'classify':<18}{'engine':<28}{'plays/s':>12}{'ns/play':>10}{'vs RLCard':>11}"
    print(head)
    print("-" * len(head))
    for spec, rows in summary["classify"].items():
        label = spec
        for engine, row in rows.items():
            x = row.get("x_rlcard")
            name = ("RLCard CARD_TYPE lookup" if engine == "RLCard"
                    else "ddzrules classifier()" if engine.endswith("classifier()") else "ddzrules classify")
            print(f"{label[:17]:<18}{name:<28}{row['per_s']:>12,.0f}{row['ns_per_play']:>10.0f}"
                  f"{(f'{x:.2f}x' if x else ''):>11}")
            label = ""
    print()
    for spec, t in summary["targets"].items():
        parts = []
        for kind in ("lead", "answer"):
            if t[kind] is None:
                parts.append(f"{kind}: no DouZero")
            else:
                parts.append(f"{kind} {t[kind]['min_x_douzero']:.2f}x DouZero by medians, "
                             f"{t[kind]['min_x_douzero_best']:.2f}x by best rounds (target {TARGET_MOVES:g}x: "
                             f"{'met' if t[kind]['met'] else 'NOT met'}; goal {GOAL_MOVES:g}x)")
        if t["classify"] is None:
            parts.append("classify: no RLCard table")
        else:
            parts.append(f"classify {t['classify']['x_rlcard']:.2f}x RLCard (target {TARGET_CLASSIFY:g}x: "
                         f"{'met' if t['classify']['met'] else 'NOT met'})")
        if t.get("classifier"):
            parts.append(f"classifier() {t['classifier']['x_rlcard']:.2f}x RLCard "
                         f"({'met' if t['classifier']['met'] else 'NOT met'})")
        print(f"{spec}: " + "; ".join(parts))
    rejected = [raw["results"].get(f"answer_{s}_douzero_rejected_prev", 0) for s in (17, 20)]
    if any(rejected):
        print(f"warning: DouZero's classifier rejected {sum(rejected)} of the previous plays")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=2000, help="deals (one 17- and one 20-card hand each)")
    ap.add_argument("--plays", type=int, default=200_000, help="plays to classify per spec")
    ap.add_argument("--repeat", type=int, default=7, help="rounds (best and median reported)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    ap.add_argument("--spec", action="append", help="ddzrules spec (repeatable; default compat/douzero and hubei-3p)")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args(argv)
    print_header(__file__, json_output=bool(getattr(args, "json", False)))
    if not args.spec:
        args.spec = [DOUZERO_SPEC, "hubei-3p"]
    raw = run(args)
    summary = summarise(raw)
    if args.json:
        res = raw["results"]
        print(json.dumps({"config": raw["config"], "setup_seconds": raw["setup_seconds"],
                          "douzero_rejected_prev": {s: res[f"answer_{s}_douzero_rejected_prev"] for s in (17, 20)},
                          **summary}, indent=2))
    else:
        print_table(raw, summary)


if __name__ == "__main__":
    main()
