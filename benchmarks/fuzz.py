"""The longer fuzzing run: the test suite's fuzzers with many more inputs each.

    python benchmarks/fuzz.py [--scale 50] [--json]

Runs the fuzzers of ``tests/uses/test_fuzz.py`` (card strings through the API and the CLI,
game actions, cache files), ``tests/core/test_spec_hostile.py`` (mutated bundled specs) and
``tests/game/test_records_hardening.py`` (mutated records) under pytest with
``DDZRULES_FUZZ_SCALE`` = ``--scale`` (each fuzzer tries ``scale`` times its suite
count, with fresh random inputs rather than the suite's fixed ones), every process
under a 2 GiB address-space limit. Prints the inputs tried per category and the
failing fuzzers (hypothesis stops a fuzzer at its first failure and shrinks it, so a
failure is reported once with its smallest input in pytest's output). The figures of
a run are in docs/security.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from pathlib import Path

from _header import print_header  # benchmarks/_header.py: the build measured

ROOT = Path(__file__).resolve().parents[1]
FUZZERS = [
    "tests/uses/test_fuzz.py",
    "tests/core/test_spec_hostile.py::test_mutated_bundled_specs_raise_only_ddz_errors",
    "tests/game/test_records_hardening.py::test_fuzz_mutated_records",
]
ADDRESS_SPACE = 2 * 2**30


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=50, help="multiplier of each fuzzer's suite count")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    print_header(__file__, json_output=bool(getattr(args, "json", False)))
    if args.scale <= 0:
        parser.error("--scale must be positive")
    with tempfile.TemporaryDirectory() as tmp:
        report, junit = Path(tmp) / "tally.json", Path(tmp) / "junit.xml"
        # explore: fresh random inputs each run (the suite's default profile draws the same ones)
        env = dict(os.environ, DDZRULES_FUZZ_SCALE=str(args.scale), DDZRULES_FUZZ_REPORT=str(report),
                   HYPOTHESIS_PROFILE="explore")
        start = time.perf_counter()
        proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "0",
                               f"--junitxml={junit}", *FUZZERS], check=False, cwd=ROOT, env=env,
                              preexec_fn=_limit_memory, capture_output=True, text=True)
        seconds = time.perf_counter() - start
        tried = json.loads(report.read_text(encoding="utf-8")) if report.exists() else {}
        failed = ([case.get("name", "?") for case in ET.parse(junit).iter("testcase")
                   if case.find("failure") is not None or case.find("error") is not None]
                  if junit.exists() else ["(pytest did not finish)"])
    figures = {"scale": args.scale, "seconds": round(seconds, 1), "inputs": tried,
               "total": sum(tried.values()), "failing_fuzzers": failed,
               "address_space_limit_bytes": ADDRESS_SPACE,
               "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"}
    if args.json:
        print(json.dumps(figures, indent=1))
    else:
        print(f"fuzzing at scale {args.scale:g} on {figures['machine']}, {seconds:.0f} s, "
              f"under a {ADDRESS_SPACE // 2**30} GiB address-space limit")
        width = max((len(k) for k in tried), default=10)
        for category, count in sorted(tried.items()):
            print(f"  {category:<{width}}  {count:>9,} inputs")
        print(f"  {'total':<{width}}  {figures['total']:>9,} inputs; failing fuzzers: {len(failed)}")
        for name in failed:
            print(f"    FAILED {name}")
    if proc.returncode and not failed:
        print(proc.stdout[-3000:], proc.stderr[-3000:], file=sys.stderr)
    elif failed:
        print(proc.stdout[-6000:], file=sys.stderr)
    return 1 if proc.returncode else 0


if __name__ == "__main__":
    sys.exit(main())
