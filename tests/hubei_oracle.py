"""An independent, brute-force reading of the 湖北 3-player rules (seed 000, digest
A1) as the hubei-3p spec states them in its ``readings:``. It shares no code with
ddzrules (not even the card notation), so that tests can check the compiled matcher
tables against it.

A reading is ``(combo, rank, length)``: ``rank`` the index (3 → 0 … 大王 → 14) of
the main group, for a chain its highest unit; ``length`` the number of units of a
chain, 1 otherwise.
"""

from __future__ import annotations

RANKS = "3456789TJQKA2XD"
ACE, TWO, X, D = 11, 12, 13, 14
CHAIN = range(ACE + 1)          # 3..A: 不包括2和大、小王
DECK = [4] * 13 + [1, 1]           # 一副牌: 54 cards
MAX_HAND = 17 + 3                  # the landlord's 20 cards
BOMB_TIER = {"bomb": 0, "rocket": 1}


def counts(cards: str) -> list[int]:
    c = [0] * 15
    for ch in cards:
        c[RANKS.index(ch)] += 1
    return c


def text(c: list[int]) -> str:
    return "".join(RANKS[r] * n for r, n in enumerate(c))


def _rest(c: list[int], core: range | list[int]) -> list[int]:
    rest = list(c)
    for r in core:
        rest[r] = 0
    return rest


def _sets(rest: list[int], how_many: int, size: int, max_jokers: int) -> bool:
    """The cards left are exactly ``how_many`` sets of ``size`` cards (single or
    pair), each of a different rank, with at most ``max_jokers`` jokers."""
    ranks = [r for r in range(15) if rest[r]]
    return (len(ranks) == how_many and all(rest[r] == size for r in ranks)
            and sum(rest[r] for r in (X, D)) <= max_jokers)


def readings(c: list[int]) -> set[tuple[str, int, int]]:
    n = sum(c)
    out: set[tuple[str, int, int]] = set()
    if n == 0 or n > MAX_HAND or any(c[r] > DECK[r] for r in range(15)):
        return out
    ranks = [r for r in range(15) if c[r]]
    # one rank: 单牌, 对牌, 三张牌, 炸弹 (四张牌点相同)
    if len(ranks) == 1:
        name = {1: "single", 2: "pair", 3: "trio", 4: "bomb"}.get(c[ranks[0]])
        if name:
            out.add((name, ranks[0], 1))
    # 火箭: 双王
    if n == 2 and c[X] == 1 and c[D] == 1:
        out.add(("rocket", D, 1))
    # 三带一手: 三张牌 + 一张单牌或一对牌 (the kicker never of the trio's rank)
    for t in range(15):
        if c[t] == 3:
            rest = _rest(c, [t])
            if _sets(rest, 1, 1, 1) or _sets(rest, 1, 2, 0):
                out.add(("trio_with_hand", t, 1))
    # 单顺 ≥5, 双顺 ≥3, 三顺 ≥2: consecutive ranks within 3..A, equal counts
    if ranks and ranks == list(range(ranks[0], ranks[-1] + 1)) and ranks[-1] in CHAIN:
        unit = c[ranks[0]]
        if all(c[r] == unit for r in ranks):
            need = {1: ("straight", 5), 2: ("pair_chain", 3), 3: ("trio_chain", 2)}.get(unit)
            if need and len(ranks) >= need[1]:
                out.add((need[0], ranks[-1], len(ranks)))
    # 飞机带翅膀: 三顺 + as many singles (or pairs), distinct ranks, none of the chain's,
    # never both jokers among single wings
    for lo in CHAIN:
        for hi in range(lo + 1, ACE + 1):
            chain = range(lo, hi + 1)
            if any(c[r] != 3 for r in chain):
                if any(c[r] < 3 for r in chain):
                    break
                continue
            rest = _rest(c, chain)
            length = hi - lo + 1
            if _sets(rest, length, 1, 1) or _sets(rest, length, 2, 0):
                out.add(("plane_wings", hi, length))
    # 四带二: 四张 + two singles or two pairs, of different ranks, at most one joker
    for f in range(13):
        if c[f] == 4:
            rest = _rest(c, [f])
            if _sets(rest, 2, 1, 1) or _sets(rest, 2, 2, 0):
                out.add(("four_with_two", f, 1))
    return out


def beats(a: tuple[str, int, int, int], b: tuple[str, int, int, int]) -> bool:
    """``(combo, rank, length, size)`` a may be played on b.

    火箭 beats everything; 炸弹 beats every other play and lower bombs; other plays
    compare only within the same combo and the same card count (and, as every
    engine does, the same chain length), by the rank of their main group."""
    ta, tb = BOMB_TIER.get(a[0], -1), BOMB_TIER.get(b[0], -1)
    if ta >= 0:
        return tb < 0 or (ta, a[1]) > (tb, b[1])
    if tb >= 0:
        return False
    return a[0] == b[0] and a[3] == b[3] and a[2] == b[2] and a[1] > b[1]


def sub_multisets(c: list[int]):
    """Every non-empty sub-multiset of ``c`` (as count lists)."""
    out = [[]]
    for r in range(15):
        out = [prefix + [k] for prefix in out for k in range(c[r] + 1)]
    return [s for s in out if any(s)]
