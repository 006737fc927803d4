"""不洗牌's bomb density: how many bombs the dealt hands of a game hold, and the share of
games with at least one, for each bundled no-shuffle spec beside a shuffled deal.

    python benchmarks/bench_buxipai.py [--deals 2000] [--seed 0] [--write]

For each spec, ``--deals`` seeded games are dealt (game i from ``game_seed(seed, i)``),
each the second game of a match of its own: where the deal is the last game's cards
(``buxipai``: ``gather: played``), that game is played first by heuristic bots, as
``simulate`` does. Bombs are counted as ``simulate``'s ``bombs_dealt`` counts them: a rank
a hand holds four times or more, and a hand holding every joker, in the hands as dealt,
before the kitty is taken (:mod:`ddzrules.sheets.density`). ``--write`` stores the figures, with the content hash
of each spec measured, in ``ddzrules/sheets/deal_density.json``: the rule sheets state
them from there (``hubei-3p`` is the shuffled deal they are set beside).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from _header import print_header  # benchmarks/_header.py: the build measured

from ddzrules.sheets import density

SPECS = ("hubei-3p", "buxipai", "buxipai-app")
OUT = Path(density.__file__).with_name(density.DENSITY_FILE)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--write", action="store_true", help=f"store the figures in {OUT}")
    args = parser.parse_args()
    print_header(__file__, json_output=bool(getattr(args, "json", False)))
    figures = []
    for spec in SPECS:
        start = time.perf_counter()
        d = density.measure(spec, args.deals, args.seed)
        figures.append(d)
        print(f"{spec:12} {d.bombs:5.2f} bombs a game, {d.share:6.1%} with one or more "
              f"({d.deals:,} deals, {time.perf_counter() - start:.1f} s)")
    if args.write:
        OUT.write_text(density.to_json(figures), encoding="utf-8")
        print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
