"""湖北斗地主, one deck, three players (seed 000, digest A1), as the hubei-3p spec
reads it. Every expectation comes from the rule text or from the spec's stated
``readings:``; the quoted Chinese is the text the case is taken from."""

from __future__ import annotations

from itertools import combinations
from math import comb

import hubei_oracle as oracle
import pytest

from ddzrules import DdzError, parse_cards

# ------------------------------------------------------------------ legal plays

# (play as the text writes it, combo, rank of the main group, chain length)
LEGAL = [
    # ◆ 火箭:即双王(双花牌)
    ("XD", "rocket", "D", 1),
    ("大王小王", "rocket", "D", 1),
    # ◆ 炸弹:四张牌点相同的牌(如四个8)
    ("8888", "bomb", "8", 1),
    ("3333", "bomb", "3", 1),
    ("2222", "bomb", "2", 1),
    # ◆ 单牌 / 对牌 / 三张牌
    ("3", "single", "3", 1),
    ("2", "single", "2", 1),
    ("小王", "single", "X", 1),
    ("D", "single", "D", 1),
    ("TT", "pair", "T", 1),
    ("22", "pair", "2", 1),
    ("999", "trio", "9", 1),
    ("222", "trio", "2", 1),
    # ◆ 三带一手:三张牌 + 一张单牌或一对牌。例如: 888+9或888+99
    ("888+9", "trio_with_hand", "8", 1),
    ("888+99", "trio_with_hand", "8", 1),
    ("333+2", "trio_with_hand", "3", 1),
    ("333+X", "trio_with_hand", "3", 1),
    ("222+33", "trio_with_hand", "2", 1),
    # ◆ 单顺:五张或更多连续的单牌。例如:3+4+5+6+7+8
    ("3+4+5+6+7+8", "straight", "8", 6),
    ("34567", "straight", "7", 5),
    ("10JQKA", "straight", "A", 5),
    ("3456789TJQKA", "straight", "A", 12),
    # ◆ 双顺:三个或更多连续的对牌。例如:33+44+55
    ("33+44+55", "pair_chain", "5", 3),
    ("QQKKAA", "pair_chain", "A", 3),
    ("33445566778899TTJJQQ", "pair_chain", "Q", 10),      # 20 cards, the landlord's hand
    # ◆ 三顺:二个或更多连续的三张牌。例如:333444、444555666777
    ("333444", "trio_chain", "4", 2),
    ("444555666777", "trio_chain", "7", 4),
    ("KKKAAA", "trio_chain", "A", 2),
    ("333444555666777888", "trio_chain", "8", 6),
    # ◆ 飞机带翅膀:三顺+同数量的一套牌。例如:333444+69 或333444555+667799
    ("333444+69", "plane_wings", "4", 2),
    ("333444555+667799", "plane_wings", "5", 3),
    ("333444+2X", "plane_wings", "4", 2),           # one joker among single wings
    ("333444+AA22", "plane_wings", "4", 2),         # a pair of 2s is a set
    ("333444+56", "plane_wings", "4", 2),           # a wing next to the chain
    ("333444555666777+89TJQ", "plane_wings", "7", 5),
    ("333444555666+7788TTQQ", "plane_wings", "6", 4),
    # ◆ 四带二:四张牌+任意两套张数相同的牌。例如:5555+3+8或 4444+55+77
    ("5555+3+8", "four_with_two", "5", 1),
    ("4444+55+77", "four_with_two", "4", 1),
    ("2222+3+4", "four_with_two", "2", 1),
    ("5555+3+X", "four_with_two", "5", 1),
    ("3333+22+AA", "four_with_two", "3", 1),
]


@pytest.mark.parametrize("play,combo,rank,length", LEGAL, ids=[p for p, *_ in LEGAL])
def test_legal(hubei, play, combo, rank, length):
    cards = parse_cards(play)
    readings = hubei.classify(cards)
    assert [(m.combo, m.rank_name, m.length) for m in readings] == [(combo, rank, length)]
    (m,) = readings
    assert m.cards == cards
    assert m.size == len(cards)
    assert m.is_bomb is (combo in ("bomb", "rocket"))


def test_legal_table_agrees_with_the_oracle():
    for play, combo, rank, length in LEGAL:
        assert oracle.readings(oracle.counts(parse_cards(play))) == {
            (combo, oracle.RANKS.index(rank), length)}, play


# ------------------------------------------------------------------ illegal plays

ILLEGAL = [
    # 不包括2和大、小王: no 2 or joker in any chain
    "JQKA2", "TJQKA2", "QKA2X", "KA2XD", "23456", "A2345",
    "KKAA22", "QQKKAA22", "AAA222", "KKKAAA222", "22XD",
    # too short
    "3456", "3344", "33+44", "4567",
    # gaps
    "34568", "334466", "333555",
    # mixed wings: 三顺+同数量的一套牌 (all singles or all pairs)
    "333444+66+7", "333444555+66+7", "333444555+6677", "333444+6+77",
    # wrong number of wings
    "333444+6", "333444+678", "333444555+67", "333444+66+77+88",
    # two equal singles are a pair, not two sets
    "333444+66", "333444555+667", "5555+3+3",
    # a wing of the chain's own rank
    "333444+34", "333444+3+5",
    # the rocket is not two single wings / two singles of 四带二
    "333444+XD", "5555+XD", "2222+XD",
    # 四带二 needs two sets of the same size
    "5555+3", "5555+33", "5555+3+44", "5555+33+4", "4444+55+55",
    # the trio+single kicker is another rank: 3333 is a bomb, 33334 nothing
    "33334", "333344",
    # not combos at all
    "34", "3X", "3334445", "33334444", "XX", "3333X",
    # 21 cards: no hand is that large
    "333444555666777888999", "3333444455556666777788",
]


@pytest.mark.parametrize("play", ILLEGAL)
def test_illegal(hubei, play):
    assert hubei.classify(parse_cards(play)) == ()
    with pytest.raises(DdzError):
        hubei.reading(parse_cards(play))


def test_illegal_table_agrees_with_the_oracle():
    for play in ILLEGAL:
        c = oracle.counts(parse_cards(play))
        assert oracle.readings(c) == set(), play


def test_four_of_a_kind_is_a_bomb_not_trio_with_single(hubei):
    # 3333 read as 333+3 would be a trio+single whose kicker is the trio's rank
    assert [m.combo for m in hubei.classify("3333")] == ["bomb"]


def test_more_cards_than_the_deck(hubei):
    # one deck: one of each joker, four of a rank
    assert hubei.classify("33333") == ()
    assert hubei.classify("XX") == ()


# ------------------------------------------------------------------ comparison

# (a, b, a beats b, b beats a)
COMPARE = [
    # ◆ 火箭什么牌型都可打,是最大的牌
    ("XD", "2222", True, False),
    ("XD", "3", True, False),
    ("XD", "2222+3+4", True, False),
    ("XD", "333444555666777+89TJQ", True, False),
    # ◆ 炸弹,除火箭和比自己大的炸弹外,比其它牌型都大
    ("3333", "2", True, False),
    ("3333", "D", True, False),
    ("3333", "22", True, False),
    ("3333", "222", True, False),
    ("3333", "2223", True, False),
    ("3333", "10JQKA", True, False),
    ("3333", "3456789TJQKA", True, False),
    ("3333", "333444555666777+89TJQ", True, False),
    ("3333", "KKKAAA", True, False),
    ("4444", "3333", True, False),
    ("2222", "AAAA", True, False),
    # 四带二 is not a bomb: it loses to any bomb, and beats no other play type
    ("3333", "2222+3+4", True, False),
    ("3333", "2222+33+44", True, False),
    ("2222+3+4", "A", False, False),
    ("2222+3+4", "345678", False, False),
    # ◆ 只有当牌套和总张数相同的牌,才可比较大小
    ("4", "3", True, False),
    ("D", "X", True, False),
    ("X", "2", True, False),
    ("2", "A", True, False),
    ("33", "2", False, False),
    ("44", "333", False, False),
    ("999", "888+9", False, False),
    ("45678", "34567", True, False),
    ("456789", "34567", False, False),        # same combo, different card count
    ("3456789", "45678", False, False),
    ("445566", "334455", True, False),
    ("33445566", "445566", False, False),
    ("444555", "333444", True, False),
    ("34567", "334455", False, False),
    ("333444", "33445566", False, False),
    # ◆ 像三带一、四带二等组合牌型,只要比较其牌数最多牌的牌点就行
    ("999+3", "888+A", True, False),
    ("999+3", "888+2", True, False),
    ("999+33", "888+AA", True, False),
    ("999+33", "888+A", False, False),          # 三带一手: single and pair never compare
    ("999+3", "999+4", False, False),           # equal main group: neither is bigger
    ("444555+37", "333444+AK", True, False),
    ("444555+3377", "333444+KKAA", True, False),
    ("444555+37", "333444+KKAA", False, False),
    ("6666+3+4", "5555+A+2", True, False),
    ("6666+33+44", "5555+AA+22", True, False),
    ("6666+3+4", "5555+AA+22", False, False),   # 四带二: the two forms never compare
    ("6666+33+44", "5555+A+2", False, False),
]


@pytest.mark.parametrize("a,b,ab,ba", COMPARE, ids=[f"{a} vs {b}" for a, b, *_ in COMPARE])
def test_compare(hubei, a, b, ab, ba):
    a, b = parse_cards(a), parse_cards(b)
    assert hubei.beats(a, b) is ab
    assert hubei.beats(b, a) is ba


def test_compare_table_agrees_with_the_oracle():
    def only(play):
        c = oracle.counts(parse_cards(play))
        (r,) = oracle.readings(c)
        return (*r, sum(c))

    for a, b, ab, ba in COMPARE:
        assert oracle.beats(only(a), only(b)) is ab, (a, b)
        assert oracle.beats(only(b), only(a)) is ba, (b, a)


def test_bomb_order(hubei):
    """Bombs by rank 3 < 4 < … < A < 2, then the rocket above all."""
    bombs = [r * 4 for r in "3456789TJQKA2"] + ["XD"]
    for lo, hi in combinations(range(len(bombs)), 2):
        assert hubei.beats(bombs[hi], bombs[lo]), (bombs[hi], bombs[lo])
        assert not hubei.beats(bombs[lo], bombs[hi]), (bombs[lo], bombs[hi])
    for b in bombs:
        assert not hubei.beats(b, b)


def test_nothing_beats_the_rocket(hubei):
    rocket = hubei.reading("XD")
    for play in hubei.universe():
        for m in hubei.classify(play):
            assert not m.beats(rocket), play


def test_bombs_beat_every_other_play(hubei):
    bomb = hubei.reading("3333")
    for play in hubei.universe():
        for m in hubei.classify(play):
            if m.combo not in ("bomb", "rocket"):
                assert bomb.beats(m) and not m.beats(bomb), play


def test_four_with_two_is_no_bomb(hubei):
    for play in ("5555+3+8", "4444+55+77"):
        (m,) = hubei.classify(parse_cards(play))
        assert not m.is_bomb and m.tier < 0


def test_compare_needs_combos(hubei):
    with pytest.raises(DdzError):
        hubei.beats("34", "3")
    with pytest.raises(DdzError):
        hubei.beats("3", "34")


# ------------------------------------------------------------------ legal moves


@pytest.mark.parametrize("hand,after,expected", [
    # straights of five ranked above 34567
    ("3456789TT", "34567", {"45678", "56789", "6789T"}),
    # singles above 4, and the rocket
    ("3335XD", "4", {"5", "X", "D", "XD"}),
    # trio + single above 333+4 (four cards: the trio+pair of five cards does not compare)
    ("444555X", "3334", {"4445", "444X", "4555", "555X"}),
    # 四带二 loses to any bomb
    ("33334456", "22223344", {"3333"}),
    # over 2222 only the rocket
    ("3333XD", "2222", {"XD"}),
    # nothing beats the rocket
    ("3333XD", "XD", set()),
    # pairs above 55; 6666 is a bomb, and its pairs count too
    ("336666", "55", {"66", "6666"}),
])
def test_answers(hubei, hand, after, expected):
    result = hubei.legal_moves(hand, after=after)
    assert result.can_pass
    assert {m.cards for m in result} == expected


@pytest.mark.parametrize("hand,expected", [
    ("3", {"3"}),
    ("33", {"3", "33"}),
    ("XD", {"X", "D", "XD"}),
    ("3334", {"3", "4", "33", "333", "3334"}),
    ("3333", {"3", "33", "333", "3333"}),
    ("34567", {"3", "4", "5", "6", "7", "34567"}),
])
def test_leads(hubei, hand, expected):
    result = hubei.legal_moves(hand)
    assert not result.can_pass            # 发牌: the leader must play
    assert {m.cards for m in result} == expected


def test_hand_larger_than_the_deck_is_refused(hubei):
    with pytest.raises(DdzError):
        hubei.legal_moves("XX")


# ------------------------------------------------------------------ the spec's readings


def test_readings_are_stated(hubei):
    readings = hubei.spec.data["readings"]
    assert {"trio-with-hand", "plane-wings", "rocket-as-kickers", "four-with-two",
            "chain-limits"} <= set(readings)


def test_reading_trio_with_hand(hubei):
    """三带一手 is one combo (single or pair); the two forms never compare."""
    (a,) = hubei.classify("8889")
    (b,) = hubei.classify("88899")
    assert a.combo == b.combo == "trio_with_hand"
    (c,) = hubei.classify("99933")
    assert not c.beats(a) and not a.beats(c)


def test_reading_plane_wings(hubei):
    """All singles or all pairs, never mixed; distinct wing ranks; no chain rank."""
    assert hubei.classify("33344469")
    assert hubei.classify("3334445577")
    assert hubei.classify("33344466") == ()         # equal singles
    assert hubei.classify("333444556") == ()        # mixed
    assert hubei.classify("3334445555") == ()       # two equal pairs
    assert hubei.classify("33334445") == ()         # a wing of the chain's rank


def test_reading_rocket_as_kickers(hubei):
    assert hubei.classify("333444XD") == ()
    assert hubei.classify("3333XD") == ()
    assert hubei.classify("333444X2")
    assert hubei.classify("3333XA")


def test_reading_four_with_two(hubei):
    assert [m.combo for m in hubei.classify("355558")] == ["four_with_two"]
    assert [m.combo for m in hubei.classify("44445577")] == ["four_with_two"]
    assert hubei.classify("355553") == ()
    assert not hubei.beats("666634", "44445577") and not hubei.beats("66663344", "355558")


def test_reading_chain_limits(hubei):
    """No maximum length is given: chains run within 3..A, up to the 20-card hand."""
    assert hubei.classify("3456789TJQKA")                    # 12 singles, the whole 3..A
    assert hubei.classify("33445566778899TTJJQQ")            # 10 pairs = 20 cards
    assert hubei.classify("33445566778899TTJJQQKK") == ()    # 11 pairs = 22 cards
    assert hubei.classify("333444555666777888")              # 6 trios = 18 cards
    assert hubei.classify("333444555666777888999") == ()     # 7 trios = 21 cards


# ------------------------------------------------------------------ census, from first principles


def test_census_counts(hubei):
    """Each combo's number of distinct plays, counted by hand from the rules.

    Chains lie in 3..A (12 ranks); a chain of length n starts at 12 - n + 1 places.
    Single wings are n distinct ranks outside the chain (15 - n ranks, jokers
    included) but not both jokers; pair wings n distinct ranks among the 13 - n
    non-joker ranks outside the chain. Everything is at most 20 cards.
    """
    def starts(n):
        return 12 - n + 1

    plane_single = sum(starts(n) * (comb(15 - n, n) - comb(13 - n, n - 2)) for n in range(2, 6))
    plane_pair = sum(starts(n) * comb(13 - n, n) for n in range(2, 5))
    expected = {
        "single": 15,
        "pair": 13,
        "trio": 13,
        "trio_with_hand": 13 * 14 + 13 * 12,
        "straight": sum(starts(n) for n in range(5, 13)),
        "pair_chain": sum(starts(n) for n in range(3, 11)),
        "trio_chain": sum(starts(n) for n in range(2, 7)),
        "plane_wings": plane_single + plane_pair,
        "four_with_two": 13 * ((comb(14, 2) - 1) + comb(12, 2)),
        "bomb": 13,
        "rocket": 1,
    }
    census = hubei.census()
    assert census.by_combo == expected
    # every play has one reading, so the distinct total is the sum
    assert census.total == census.readings == sum(expected.values())


def test_universe_agrees_with_the_oracle(hubei):
    universe = hubei.universe()
    assert len(universe) == hubei.census().total
    for play in universe:
        got = {(m.combo, m.rank, m.length) for m in hubei.classify(play)}
        assert got == oracle.readings(oracle.counts(play)), play
