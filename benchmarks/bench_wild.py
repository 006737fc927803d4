"""Wild cards by table: per-play listing cost with wild cards vs the same hands without,
and the table path checked against the enumeration.

    python benchmarks/bench_wild.py [--hands 40] [--rounds 5] [--seed 0]
    python benchmarks/bench_wild.py --check 10000 [--seed 0]

Timing (CPU time, one process): seeded one-deck laizi hands of 17 cards holding exactly
k = 1..4 cards of a wild rank drawn per hand from 3..2; per round, interleaved, the
natural listing of the same hands (``wild=None``: the wild rank's cards are natural),
the table listing (``wild=R``) and the enumeration (the reference, ``use_table``
False), leads and answers to a random lead of another hand. Printed: µs per listed
play, medians over rounds, and the ratios wild/natural. The tables of every wild rank
are built or read from the disk cache before the timing (as the natural table is),
their time printed with that of a second load from the cache and their memory
(``WildTable.nbytes``, every block's bit sets made).

``--check N``: N random hands per wild count (sizes 1..20, the wild rank random),
every query by table (``load_after`` and ``table_after`` 0), comparing the table with
the enumeration: leads, answers to a random play of every
combo the hand's own leads show, and classify of a random lead; the same Moves in the
same order with the same substitutions. Prints the counts and exits 1 on a difference.

``--short-run N``: what a short run costs from the first query (issue 25): N seeded
17-card laizi hands, each holding its wild rank (drawn per hand), listed as leads in a
fresh process with ``wild=`` (walked: no rank is asked about often enough to read its
table) and, in another fresh process, the same hands with ``wild=None`` (the natural
listing a fresh process does: enumeration until the lister's index pays, then the index).
The processes alternate over ``--rounds``; printed: µs per play listed and ms per hand,
medians, and the ratio wild/natural per play.

``--check-several N``: the same comparison with two wild ranks (``tiandi-laizi``, 天地癞子),
N random hands of 1-20 cards (any number of wild cards) over random pairs of ranks: the
table of either rank (every other rank's is read, no other) placed on the cards held
against the walk of the whole hand, on a WildMoves of its own.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time

from _header import print_header  # benchmarks/_header.py: the build measured

from ddzrules import cards as C
from ddzrules import load_variant
from ddzrules.rules.moves import Move
from ddzrules.rules.wild import WildMoves

DECK = C.deck_list(C.full_deck())


def deal(rng: random.Random, k: int, size: int, wild: int) -> list[int]:
    """Counts of a hand of ``size`` cards holding exactly ``k`` of the wild rank."""
    others = [c for c in DECK if c != wild]
    counts = [0] * C.NUM_RANKS
    for r in [wild] * k + rng.sample(others, size - k):
        counts[r] += 1
    return counts


def same(a: tuple[Move, ...], b: tuple[Move, ...]) -> bool:
    return a == b and [m.substitution for m in a] == [m.substitution for m in b]


def check(wm: WildMoves, n: int, seed: int) -> int:
    """Compare the table path with the enumeration on ``n`` hands per wild count; the
    number of differences."""
    rng = random.Random(seed)
    bad = 0
    wm.load_after = wm.table_after = 0  # every query by table (read from the disk cache or built)
    for k in (1, 2, 3, 4):
        counts_done = {"leads": 0, "answers": 0, "classify": 0}
        t0 = time.process_time()
        for _ in range(n):
            wild = rng.randrange(13)
            counts = deal(rng, k, rng.randint(max(k, 1), 20), wild)
            lead = wm.legal_moves(counts, None, wild).moves
            ref = wm.legal_moves_enumerated(counts, None, wild).moves
            counts_done["leads"] += 1
            if not same(lead, ref):
                bad += 1
                print("lead differs", k, C.RANKS[wild], C.to_string(C.pack(counts)))
                continue
            other = deal(rng, k, rng.randint(max(k, 1), 20), wild)
            by_combo: dict[str, list[Move]] = {}
            for m in ref:
                by_combo.setdefault(m.combo, []).append(m)
            for plays in by_combo.values():
                prev = rng.choice(plays)
                counts_done["answers"] += 1
                if not same(wm.legal_moves(other, prev, wild).moves,
                            wm.legal_moves_enumerated(other, prev, wild).moves):
                    bad += 1
                    print("answer differs", k, C.RANKS[wild], C.to_string(C.pack(other)), prev)
            if ref:
                cards = C.unpack(rng.choice(ref).packed)
                counts_done["classify"] += 1
                if not same(wm.classify(cards, wild), wm.classify_enumerated(cards, wild)):
                    bad += 1
                    print("classify differs", k, C.RANKS[wild], C.to_string(C.pack(cards)))
        print(f"{k} wild: {counts_done['leads']} hands, {counts_done['answers']} answers, "
              f"{counts_done['classify']} classify, differences so far {bad} "
              f"({time.process_time() - t0:.0f} s)", flush=True)
    return bad


def short_run_hands(n: int, seed: int) -> list[tuple[list[int], int]]:
    """``n`` seeded 17-card hands, each with a wild rank it holds."""
    rng = random.Random(seed)
    hands: list[tuple[list[int], int]] = []
    while len(hands) < n:
        w = rng.randrange(13)
        counts = C.counts_of(rng.sample(DECK, 17))
        if counts[w]:
            hands.append((C.deck_list(counts), w))
    return hands


def short_run_child(mode: str, n: int, seed: int) -> None:
    """In a fresh process: list the hands (``mode`` wild or natural); print JSON."""
    hands = short_run_hands(n, seed)
    v = load_variant("laizi")
    t = time.process_time()
    plays = sum(len(v.legal_moves(h, wild=w if mode == "wild" else None)) for h, w in hands)
    cpu = time.process_time() - t
    print(json.dumps({"mode": mode, "hands": n, "plays": plays, "cpu_s": cpu}))


def short_run(n: int, rounds: int, seed: int, as_json: bool) -> None:
    import subprocess

    per: dict[str, list[dict[str, float]]] = {"natural": [], "wild": []}
    for r in range(rounds):
        for mode in ("natural", "wild"):
            out = subprocess.run([sys.executable, __file__, "--short-run-child", mode, "--short-run", str(n),
                                  "--seed", str(seed + r)], capture_output=True, text=True, check=True)
            got = json.loads(out.stdout)
            per[mode].append({"us_per_play": got["cpu_s"] / got["plays"] * 1e6,
                              "ms_per_hand": got["cpu_s"] / got["hands"] * 1e3, "plays": got["plays"] / n})
    med = {mode: {k: statistics.median(x[k] for x in rows) for k in rows[0]} for mode, rows in per.items()}
    ratio = statistics.median(w["us_per_play"] / m["us_per_play"] for w, m in zip(per["wild"], per["natural"]))
    if as_json:
        print(json.dumps({"hands": n, "rounds": rounds, "natural": med["natural"], "wild": med["wild"],
                          "ratio_per_play": ratio}, indent=1))
        return
    print(f"a short run, fresh processes, {n} laizi hands of 17 cards holding their wild rank, "
          f"{rounds} rounds, medians")
    for mode in ("natural", "wild"):
        m = med[mode]
        print(f"  {mode:<8} {m['plays']:>8.0f} plays/hand  {m['us_per_play']:>6.2f} us/play  "
              f"{m['ms_per_hand']:>6.2f} ms/hand")
    print(f"  wild/natural per play {ratio:.2f}x (issue 44: <= 1.2x from the first query)")


def check_several(n: int, seed: int) -> int:
    """Two wild ranks: the table path against the walk on ``n`` hands; the number of
    differences."""
    wm = load_variant("tiandi-laizi").wild_moves()
    # the tables of every other rank, and no other read: a pair holding one of them reads
    # it whichever its place (the first rank's or the second's), a pair of neither walks
    for rank in range(1, 13, 2):
        wm.table(rank)
    wm.load_after = wm.table_after = 1 << 62
    # the walk on a WildMoves of its own: neither path may reuse the other's Moves (a Move
    # keeps the substitution it was made with)
    walked = WildMoves(wm.rules)
    walked.use_table = False
    rng = random.Random(seed)
    bad = queries = by_table = second = 0
    t0 = time.process_time()
    for i in range(n):
        wild = tuple(sorted(rng.sample(range(13), 2)))
        counts = C.counts_of(rng.sample(DECK, rng.choice((17, 20, rng.randint(1, 20)))))
        got = wm._several_positions(counts, None, wild)
        by_table += got is not None
        second += got is not None and got[0].wild != wild[0]  # read from the other rank's table
        ref = walked.legal_moves_enumerated(counts, None, wild).moves
        queries += 1
        if not same(wm.legal_moves(counts, None, wild).moves, ref):
            bad += 1
            print("lead differs", wild, C.to_string(C.pack(counts)))
            continue
        other = C.counts_of(rng.sample(DECK, rng.randint(1, 20)))
        by_combo: dict[str, list[Move]] = {}
        for m in ref:
            by_combo.setdefault(m.combo, []).append(m)
        for plays in by_combo.values():
            prev = rng.choice(plays)
            queries += 1
            if not same(wm.legal_moves(other, prev, wild).moves,
                        walked.legal_moves_enumerated(other, prev, wild).moves):
                bad += 1
                print("answer differs", wild, C.to_string(C.pack(other)), prev)
        for cards in ([C.unpack(rng.choice(ref).packed)] if ref else []) + [counts]:
            queries += 1
            if not same(wm.classify(cards, wild), walked.classify_enumerated(cards, wild)):
                bad += 1
                print("classify differs", wild, C.to_string(C.pack(cards)))
        if (i + 1) % 100 == 0:
            print(f"{i + 1} hands ({by_table} by table, {second} of them by the second rank's), {queries} queries, "
                  f"differences {bad} "
                  f"({time.process_time() - t0:.0f} s)", flush=True)
    print(f"{n} hands ({by_table} by table, {second} of them by the second rank's), {queries} queries, "
          f"differences {bad}")
    return bad


def timing(args: argparse.Namespace) -> None:
    say = (lambda *a, **k: None) if args.json else print
    tables: list[dict[str, object]] = []
    rows: list[dict[str, float]] = []
    v = load_variant("laizi")
    wm = v.wild_moves()
    for w in v.rules.stand_for:
        t = time.process_time()
        table = wm.table(w)
        took = time.process_time() - t
        how = "read from the disk cache" if w in wm.loaded else "built"
        # a second reader of the same rank: its load from the keyed cache (digest, checks, filing)
        t = time.process_time()
        again = WildMoves(v.rules)._load(w)
        load = f", a load {time.process_time() - t:.2f} s" if again is not None else ", no disk cache"
        tables.append({"rank": C.RANKS[w], "readings": len(table.packed), "mb": table.nbytes() / 1e6,
                       "how": how, "seconds": took})
        say(f"table {C.RANKS[w]}: {len(table.packed):,} readings, {table.nbytes() / 1e6:.1f} MB, "
              f"{how} in {took:.2f} s{load}", flush=True)
    rng = random.Random(args.seed)
    say("wilds | plays/hand natural | wild | µs/play natural | table | enumeration | ratio table | enumeration")
    for k in (1, 2, 3, 4):
        dealt = []
        for _ in range(args.hands):
            w = rng.choice(v.rules.stand_for)
            dealt.append((C.deck_list(deal(rng, k, 17, w)), w))
        # a natural lead of another hand: a play both listings can answer
        prevs = [rng.choice(v.legal_moves(dealt[rng.randrange(len(dealt))][0]).moves) for _ in dealt]

        pairs = list(zip(dealt, prevs))

        def natural(pairs: list[tuple[tuple[list[int], int], Move]] = pairs) -> int:
            return sum(len(v.legal_moves(h)) + len(v.legal_moves(h, after=p)) for (h, _), p in pairs)

        def wild(pairs: list[tuple[tuple[list[int], int], Move]] = pairs) -> int:
            return sum(len(v.legal_moves(h, wild=w)) + len(v.legal_moves(h, after=p, wild=w)) for (h, w), p in pairs)

        per: dict[str, list[float]] = {"natural": [], "table": [], "enumeration": []}
        plays: dict[str, int] = {}
        wild()  # first use makes the Moves (as the natural table's are made before)
        for _ in range(args.rounds):
            for name, times in per.items():
                wm.use_table = name != "enumeration"
                run = natural if name == "natural" else wild
                t = time.process_time()
                plays[name] = run()
                times.append((time.process_time() - t) / plays[name])
        wm.use_table = True
        med = {name: statistics.median(xs) * 1e6 for name, xs in per.items()}
        rows.append({"wilds": k, "plays_natural": plays["natural"] / args.hands,
                     "plays_wild": plays["table"] / args.hands, "us_per_play": med,  # type: ignore[dict-item]
                     "ratio_table": med["table"] / med["natural"],
                     "ratio_enumeration": med["enumeration"] / med["natural"]})
        say(f"{k} | {plays['natural'] / args.hands:.0f} | {plays['table'] / args.hands:.0f} | "
              f"{med['natural']:.2f} | {med['table']:.2f} | {med['enumeration']:.2f} | "
              f"{med['table'] / med['natural']:.2f}x | {med['enumeration'] / med['natural']:.2f}x", flush=True)
    if args.json:
        print(json.dumps({"hands": args.hands, "rounds": args.rounds, "tables": tables, "rows": rows}, indent=1))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=40)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--check", type=int, default=0, metavar="N",
                    help="compare the table with the enumeration on N hands per wild count")
    ap.add_argument("--short-run", type=int, default=0, metavar="N",
                    help="a short run from the first query: N hands, wild and natural, fresh processes")
    ap.add_argument("--short-run-child", choices=["wild", "natural"], help=argparse.SUPPRESS)
    ap.add_argument("--check-several", type=int, default=0, metavar="N",
                    help="compare the two-wild-rank table path with the walk on N hands")
    ap.add_argument("--json", action="store_true", help="the figures as JSON")
    args = ap.parse_args()
    print_header(__file__, json_output=bool(args.json or args.short_run_child))  # a child writes JSON
    if args.check_several:
        sys.exit(1 if check_several(args.check_several, args.seed) else 0)
    if args.short_run_child:
        short_run_child(args.short_run_child, args.short_run, args.seed)
        return
    if args.short_run:
        short_run(args.short_run, args.rounds, args.seed, args.json)
        return
    if args.check:
        sys.exit(1 if check(load_variant("laizi").wild_moves(), args.check, args.seed) else 0)
    timing(args)


if __name__ == "__main__":
    main()
