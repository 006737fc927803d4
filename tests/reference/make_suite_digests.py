"""Make ``suite_digests.json``: the digest of each vector file of every bundled spec's
conformance suite at the standard level (seed 0), as ``conformance generate`` writes it.
``tests/test_suite_digests.py`` checks that generating them again gives the same files, so
that no change to the rules, the generator or the format alters a suite by accident. A
change meant to alter suites regenerates this file and says so in its commit::

    python tests/reference/make_suite_digests.py

The manifest is left out: it carries the resolved spec with its prose (titles, readings),
which may be reworded without changing any vector."""

from __future__ import annotations

import hashlib
import json
import sys
import tempfile
from pathlib import Path

from ddzrules import load_variant
from ddzrules.conformance import generate, write_suite
from ddzrules.spec import bundled_names

HERE = Path(__file__).parent
LEVEL = "standard"


def suite_digests(spec: str) -> dict[str, str]:
    """The sha256 of each vector file of ``spec``'s suite, by file name."""
    with tempfile.TemporaryDirectory() as tmp:
        out = write_suite(generate(load_variant(spec), LEVEL, seed=0), Path(tmp) / "suite")
        return {p.name: hashlib.sha256(p.read_bytes()).hexdigest()
                for p in sorted(Path(out).glob("*.jsonl"))}


def main() -> None:
    digests = {spec: suite_digests(spec) for spec in bundled_names()}
    (HERE / "suite_digests.json").write_text(json.dumps(digests, indent=1, sort_keys=True) + "\n", "utf-8")
    print(f"{len(digests)} suites digested", file=sys.stderr)


if __name__ == "__main__":
    main()
