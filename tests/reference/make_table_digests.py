"""Make ``table_digests.json``: for every bundled spec, digests of what its compiled rules
answer — the matcher table (every reading of the move universe, in table order), the census
(with a wild rank where the spec has wild cards), ``beats`` over a seeded sample of pairs,
and ``legal_moves`` for seeded hands, leading and answering. ``tests/test_table_digests.py``
checks that compiling again gives the same answers, so that a change of the spec stage, the
compiler, the lister or their speed machinery cannot alter a table by accident. A change meant
to alter tables regenerates this file and says so in its commit::

    python tests/reference/make_table_digests.py

Only public calls are used (``plays_by_packed``, ``census``, ``beats``, ``legal_moves``), so
the digests hold across any restructuring of the modules behind them."""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path

from ddzrules import Counts, load_variant
from ddzrules.spec import bundled_names

HERE = Path(__file__).parent
PAIRS = 400
HANDS = 12


def _digest(lines: list[str]) -> str:
    return hashlib.sha256("\n".join(lines).encode("utf-8")).hexdigest()


def _moves(moves: object) -> list[str]:
    return [json.dumps(m.to_dict(), sort_keys=True, ensure_ascii=False) for m in moves]  # type: ignore[attr-defined]


def seeded_hands(v: object, n: int, seed: int = 1) -> list[Counts]:
    """``n`` seeded hands of the spec's largest hand size, as counts."""
    deck = [r for r, k in enumerate(v.rules.deck) for _ in range(k)]  # type: ignore[attr-defined]
    size = max(1, min(len(deck), v.rules.max_hand))  # type: ignore[attr-defined]
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        picked = rng.sample(deck, size)
        out.append(Counts([picked.count(r) for r in range(len(v.rules.deck))]))  # type: ignore[attr-defined]
    return out


def table_digests(spec: str) -> dict[str, str]:
    """The digests of ``spec``'s table, census, beats sample and legal-move sample."""
    v = load_variant(spec)
    table = [line for readings in v.plays_by_packed.values() for line in _moves(readings)]
    out = {"table": _digest(table),
           "census": _digest([json.dumps(v.census().__dict__, sort_keys=True, default=str)])}
    wild = v.spec.data.get("wildcards")
    if wild:
        out["census_wild_7"] = _digest([json.dumps(v.census(wild="7").__dict__, sort_keys=True, default=str)])
    plays = v.universe()
    rng = random.Random(0)
    pairs = [(rng.choice(plays), rng.choice(plays)) for _ in range(PAIRS)]
    out["beats"] = _digest([f"{a} {b} {v.beats(a, b)}" for a, b in pairs])
    deck = [r for r, n in enumerate(v.rules.deck) for _ in range(n)]
    hand_size = max(1, min(len(deck), v.rules.max_hand))
    lines = []
    for _ in range(HANDS):
        picked = rng.sample(deck, hand_size)
        counts = Counts([picked.count(r) for r in range(len(v.rules.deck))])
        lines += ["lead", *_moves(v.legal_moves(counts))]
        after = rng.choice(plays)
        lines += [f"after {after}", *_moves(v.legal_moves(counts, after=after))]
    out["legal_moves"] = _digest(lines)
    if wild:
        lines = []
        for _ in range(HANDS // 2):
            picked = rng.sample(deck, hand_size)
            counts = Counts([picked.count(r) for r in range(len(v.rules.deck))])
            lines += ["lead", *_moves(v.legal_moves(counts, wild="7"))]
        out["legal_moves_wild_7"] = _digest(lines)
    return out


def main() -> None:
    digests = {spec: table_digests(spec) for spec in bundled_names()}
    (HERE / "table_digests.json").write_text(json.dumps(digests, indent=1, sort_keys=True) + "\n", "utf-8")
    print(f"{len(digests)} specs' tables digested", file=sys.stderr)


if __name__ == "__main__":
    main()
