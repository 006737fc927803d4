"""Readings with wild cards from first principles, for the wildcard specs built on
hubei-3p's combos (laizi, tiandi-laizi): an oracle independent of ddzrules.rules.wild."""

from __future__ import annotations

import itertools

from ddzrules import cards as C
from ddzrules.rules.variant import Variant

WILD_RANKS = range(13)  # 3..2: a wild card never stands for a joker


def oracle_readings(hubei: Variant, counts: list[int], wild: tuple[int, ...]) -> set[tuple[str, str, str, int]]:
    """Every reading of exactly these cards, as (cards, combo, rank, length): wild cards
    alone are themselves (four of a rank: the pure bomb); otherwise each wild card (a card
    of any of the ranks ``wild``) stands for any rank 3..2, its own included, and the result
    is read under hubei-3p, a bomb being hard without wilds, soft with them."""
    cards = C.counts_to_string(counts)
    k = sum(counts[w] for w in wild)
    if k == sum(counts):
        return {(cards, "pure_bomb" if r.combo == "bomb" else r.combo, r.rank_name, r.length)
                for r in hubei.classify(cards)}
    base = list(counts)
    for w in wild:
        base[w] = 0
    out = set()
    for stands in itertools.combinations_with_replacement(WILD_RANKS, k):
        nat = list(base)
        for r in stands:
            nat[r] += 1
        for r in hubei.classify(C.counts_to_string(nat)):
            combo = ("soft_bomb" if k else "hard_bomb") if r.combo == "bomb" else r.combo
            out.add((cards, combo, r.rank_name, r.length))
    return out


def oracle_leads(hubei: Variant, counts: list[int], wild: tuple[int, ...]) -> set[tuple[str, str, str, int]]:
    """Every reading of every non-empty part of a hand: what a lead may play."""
    expected: set[tuple[str, str, str, int]] = set()
    for sub in itertools.product(*(range(c + 1) for c in counts)):
        if any(sub):
            expected |= oracle_readings(hubei, list(sub), wild)
    return expected
