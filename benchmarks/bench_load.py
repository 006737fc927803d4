"""Loading time of every bundled spec, and start-up of a one-question command.

Each round runs in a fresh subprocess (so nothing is cached in memory: imports,
lru caches, interned Moves), and each figure is the median of the rounds, in CPU
time (the machine may be shared):

- ``import``: ``import ddzrules``;
- ``cold``: ``load_variant(name)`` and a first ``classify`` with no table cache
  (the table is enumerated from the spec);
- ``warm``: the same with a warm table cache (the file read and checked);
- ``+moves``: after a warm load, the first ``legal_moves`` of a seeded 14-card hand (by
  enumeration: the lister's index is built only once a variant has listed
  ``FAST_INDEX_AFTER`` hands); ``warm`` + ``+moves`` is issue 25's first answer;
- start-up: CPU time of whole processes ``ddzrules --help`` and
  ``ddzrules classify hubei-3p 33`` (warm cache).

    python benchmarks/bench_load.py [--rounds 5] [--specs hubei-3p,laizi] [--path DIR]

``--path`` puts another checkout's package first on the child's ``sys.path``
(to measure a before/after pair on one machine).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from _header import print_header  # benchmarks/_header.py: the build measured

#: with --path: that checkout's package first (past an editable install's import hook),
#: its bundled specs (``specs/`` at the top of a source checkout) as ``ddzrules.specs``
#: the way pyproject.toml's package-dir maps them
PRELUDE = (
    "import os, sys\n"
    "if os.environ.get('DDZ_BENCH_PATH'):\n"
    "    sys.meta_path[:] = [f for f in sys.meta_path if '__editable__' not in getattr(f, '__module__', '')\n"
    "                        and '__editable__' not in getattr(f, '__name__', '')]\n"
    "    sys.path.insert(0, os.environ['DDZ_BENCH_PATH'])\n"
    "    class _Specs:\n"
    "        @staticmethod\n"
    "        def find_spec(name, path=None, target=None):\n"
    "            if name != 'ddzrules.specs' and not name.startswith('ddzrules.specs.'):\n"
    "                return None\n"
    "            import importlib.util\n"
    "            d = os.path.join(os.environ['DDZ_BENCH_PATH'], 'specs', *name.split('.')[2:])\n"
    "            return importlib.util.spec_from_file_location(name, os.path.join(d, '__init__.py'),\n"
    "                                                          submodule_search_locations=[d])\n"
    "    if not os.path.isdir(os.path.join(os.environ['DDZ_BENCH_PATH'], 'ddzrules', 'specs')):\n"
    "        sys.meta_path.insert(0, _Specs)\n"
)

CHILD = PRELUDE + r"""
import json, sys, time
t0 = time.process_time()
import ddzrules
t1 = time.process_time()
v = ddzrules.load_variant(sys.argv[1])
v.classify("33")
t2 = time.process_time()
import random
deck = [r for r, n in enumerate(v.rules.deck) for _ in range(n)]
v.legal_moves(ddzrules.Ranks(sorted(random.Random(1).sample(deck, min(14, v.rules.max_hand)))))""" \
r"""  # a hand the spec can deal
t3 = time.process_time()
print(json.dumps({"import": t1 - t0, "load": t2 - t1, "moves": t3 - t2, "file": ddzrules.__file__}))
"""

CLI = PRELUDE + "import sys; from ddzrules.cli import main; sys.argv[0] = 'ddzrules'; main()"


def child_env(cache: Path, path: str | None, no_cache: bool = False) -> dict[str, str]:
    env = dict(os.environ, DDZRULES_CACHE_DIR=str(cache))
    env.pop("DDZRULES_NO_CACHE", None)
    if no_cache:
        env["DDZRULES_NO_CACHE"] = "1"
    if path:
        env["DDZ_BENCH_PATH"] = path
    return env


def run_child(name: str, env: dict[str, str]) -> dict[str, float]:
    out = subprocess.run([sys.executable, "-c", CHILD, name], env=env, capture_output=True, text=True,
                         check=True)
    return json.loads(out.stdout)


def cpu(argv: list[str], env: dict[str, str]) -> float:
    """CPU time (user + system) of a whole child process: on a shared machine wall time
    measures the neighbours as much as the program."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, env=env, capture_output=True, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def ms(xs: list[float]) -> str:
    return f"{statistics.median(xs) * 1000:7.1f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--specs", default="")
    ap.add_argument("--path", default=None, help="a checkout whose ddzrules the children import")
    ap.add_argument("--json", action="store_true", help="the medians as JSON (ms CPU), no start-up rows")
    args = ap.parse_args()
    print_header(__file__, json_output=bool(getattr(args, "json", False)))
    say = (lambda *a, **k: None) if args.json else print
    figures: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        cache = Path(tmp) / "cache"
        env = child_env(cache, args.path)
        names = args.specs.split(",") if args.specs else json.loads(subprocess.run(
            [sys.executable, "-c", PRELUDE + "import json; from ddzrules.spec import bundled_names\n"
             + "print(json.dumps(bundled_names()))"], env=env, capture_output=True, text=True,
            check=True).stdout)
        first = run_child(names[0], env)
        say(f"# {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
              f"Python {platform.python_version()}; {args.rounds} rounds, each a fresh process; "
              f"package {Path(first['file']).parent}")
        say(f"{'spec':<22}{'import':>8}{'cold':>8}{'warm':>8}{'+moves':>8}   (ms CPU, medians)")
        for name in names:
            run_child(name, env)  # write the cache
            rows: dict[str, list[float]] = {"import": [], "cold": [], "warm": [], "moves": []}
            for _ in range(args.rounds):
                cold = run_child(name, child_env(cache, args.path, no_cache=True))
                warm = run_child(name, env)
                rows["cold"].append(cold["load"])
                rows["warm"].append(warm["load"])
                rows["moves"].append(warm["moves"])
                rows["import"].append(warm["import"])
            say(f"{name:<22}{ms(rows['import'])}{ms(rows['cold'])}{ms(rows['warm'])}{ms(rows['moves'])}")
            figures[name] = {f"{k}_ms": 1000 * statistics.median(v) for k, v in rows.items()}
        if args.json:
            print(json.dumps({"rounds": args.rounds, "specs": figures}, indent=1))
            return
        py = [sys.executable, "-c"]
        starts = {
            "python -c pass": py + ["pass"],
            "python -c 'import ddzrules'": py + [PRELUDE + "import ddzrules"],
            "ddzrules --help": py + [CLI, "--help"],
            "ddzrules classify hubei-3p 33": py + [CLI, "classify", "hubei-3p", "33"],
        }
        cpu(starts["ddzrules classify hubei-3p 33"], env)  # warm its cache
        for label, argv in starts.items():
            times = [cpu(argv, env) for _ in range(args.rounds)]
            print(f"start-up {label:<40}{ms(times)} ms CPU")


if __name__ == "__main__":
    main()
