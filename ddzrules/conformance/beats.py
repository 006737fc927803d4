"""The beats vectors: for every pair of combo families that can meet, a ``moves``
vector whose answer shows which beats which (the weakest and strongest plays of each),
and the coverage of those relations by a suite."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from ddzrules import cards as C
from ddzrules.conformance.common import (
    Universe,
    moves_vector,
)
from ddzrules.rules.moves import Move
from ddzrules.variant import Variant

# ====================================================================== beats

#: a relation of the spec's "beats": (the combo led, the combo answering, whether a play of
#: the second may beat a play of the first) — each ordered pair of combos (bomb tiers and the
#: rocket are combos) in both polarities, where the spec has such plays
Relation = tuple[str, str, bool]


def _extremes(moves: Iterable[Move], k: int = 2) -> list[Move]:
    """The ``k`` weakest and ``k`` strongest plays of each family of ``moves``: beating is
    monotone in a family's order, so whether some play of one combo beats some play of
    another (or fails to) shows on these, the deck's room for both permitting."""
    by_family: dict[tuple[str, int, int], list[Move]] = defaultdict(list)
    for m in moves:
        by_family[(m.combo, m.size, m.length)].append(m)
    out: list[Move] = []
    for fam in sorted(by_family):
        ms = sorted(by_family[fam], key=lambda m: (m.strength, m.packed))
        out += ms[:k] + [m for m in ms[-k:] if m not in ms[:k]]
    return out


class _Beats:
    """The spec's beats relations between combos, each with a witness: a single-reading
    play ``a`` led and a play ``b`` (read as the answering combo) that one deck holds together
    with ``a``. A positive witness is the weakest answer that beats (the nearest to the
    boundary); a negative one the play an engine is likeliest to let through wrongly — of
    ``a``'s size, above its rank, the strongest — none of whose readings beats ``a``."""

    def __init__(self, v: Variant, u: Universe) -> None:
        deck = v.rules.deck
        led = {name: _extremes(m for m in ms if len(u.table[m.cards]) == 1) for name, ms in u.by_combo.items()}
        answer = {name: _extremes(ms) for name, ms in u.by_combo.items()}
        counts: dict[int, list[int]] = {}
        for ms in (*led.values(), *answer.values()):
            for m in ms:
                counts.setdefault(m.packed, C.unpack(m.packed))
        self.witness: dict[Relation, tuple[Move, Move]] = {}
        #: negatives within one combo beyond the witness: an equal rank, a lower one, another shape
        self.extra: dict[tuple[str, str], tuple[Move, Move]] = {}
        names = [c.name for c in v.rules.combos if u.by_combo.get(c.name)]
        best: dict[Relation | tuple[str, str], tuple[Any, Move, Move]] = {}

        def offer(key: Relation | tuple[str, str], rank: Any, a: Move, b: Move) -> None:
            if key not in best or rank < best[key][0]:
                best[key] = (rank, a, b)

        for name_a in names:
            for a in led[name_a]:
                ca = counts[a.packed]
                for name_b in names:
                    for b in answer[name_b]:
                        cb = counts[b.packed]
                        if any(x + y > d for x, y, d in zip(ca, cb, deck)):
                            continue  # no deal holds both
                        cards = (a.packed, b.packed)  # a tie-break: any fixed order
                        same_shape = (b.size, b.length) == (a.size, a.length)
                        if b.beats(a):
                            offer((name_a, name_b, True), (not same_shape, b.strength,
                                                           tuple(-x for x in a.strength), cards), a, b)
                        elif not any(r.beats(a) for r in u.table[b.cards]):
                            above = b.rank > a.rank
                            offer((name_a, name_b, False), (b.size != a.size, not above,
                                                            tuple(-x for x in b.strength), cards), a, b)
                            if name_a != name_b:
                                continue
                            # within a combo: the same shape at an equal or lower rank, and
                            # another shape (a chain's length, a bomb's size) above it
                            what = ("other-shape" if not same_shape and above else "" if not same_shape
                                    else "equal-rank" if b.rank == a.rank else "lower-rank")
                            if what:
                                offer((name_a, what), (b.size != a.size, tuple(-x for x in b.strength), cards),
                                      a, b)
        for key, (_, a, b) in best.items():
            if len(key) == 3:
                self.witness[key] = (a, b)  # type: ignore[index]
            else:
                self.extra[key] = (a, b)  # type: ignore[index]
        order = {name: i for i, name in enumerate(names)}
        self.relations: list[Relation] = sorted(self.witness, key=lambda r: (order[r[0]], order[r[1]], not r[2]))


def _beats_tag(r: Relation) -> str:
    return f"{r[1]}-on-{r[0]}/{'beats' if r[2] else 'cannot-beat'}"


def gen_beats(v: Variant, u: Universe) -> list[dict[str, Any]]:
    """Moves vectors for every beats relation of the spec (``_Beats``), both polarities:
    the answering play alone is the hand, the led play is ``after``. A hand that can answer
    must list the play; a hand holding only a play of that combo which cannot must not —
    a bomb after the rocket, a lower bomb tier after a higher, a chain of another kind
    or length of the same size above the led one."""
    beats = _Beats(v, u)
    out: list[dict[str, Any]] = []
    seen: set[tuple[str, str]] = set()
    cases = [(a, b, _beats_tag(r)) for r, (a, b) in ((r, beats.witness[r]) for r in beats.relations)]
    cases += [(a, b, f"{name}-on-{name}/cannot-beat-{what}") for (name, what), (a, b) in
              sorted(beats.extra.items(), key=lambda kv: (kv[0][0], kv[0][1]))]
    for a, b, tag in cases:
        if (b.cards, a.cards) not in seen:
            seen.add((b.cards, a.cards))
            out.append(moves_vector(v, b.cards, a.cards, tag))
    return out


def beats_relations(v: Variant) -> list[Relation]:
    """The spec's beats relations (``_Beats``): (A, B, True) when a play of combo B may beat
    a play of combo A that one deal holds with it, (A, B, False) when one may not."""
    return _Beats(v, Universe(v)).relations


def beats_coverage(v: Variant, moves: Iterable[dict[str, Any]]) -> tuple[set[Relation], list[Relation]]:
    """Which of the spec's beats relations (``_Beats``) a suite's moves vectors test, and
    all of them: (A, B, True) is tested by a vector answering a single-reading play of A from
    a hand holding a play of B that beats it; (A, B, False) by one whose hand holds a play of
    B none of whose readings beats it (so it must be missing from the answer). Vectors with
    wild cards are left out (their plays' readings depend on the wild rank)."""
    u = Universe(v)
    relations = _Beats(v, u).relations
    of_led: dict[str, set[Relation]] = defaultdict(set)
    for r in relations:
        of_led[r[0]].add(r)
    covered: set[Relation] = set()
    for vec in reversed(list(moves)):  # the beats vectors, last, cover most: the rest is mostly skipped
        if vec.get("wild") is not None or vec.get("after") is None:
            continue
        led = v.classify(vec["after"])
        if len(led) != 1 or of_led[led[0].combo] <= covered:
            continue
        a = led[0]
        for m in v.legal_moves(vec["hand"]):  # leading: every play the hand holds
            if m.beats(a):
                covered.add((a.combo, m.combo, True))
            elif not any(r.beats(a) for r in u.table.get(m.cards, (m,))):
                covered.add((a.combo, m.combo, False))
    return covered & set(relations), relations
