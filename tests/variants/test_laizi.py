"""癞子场 (wildcards) as specs/laizi.yaml reads seeds/004 (digest E), "“癞子场”的新增牌型",
"牌型的大小" and "计分规则 (癞子场)".

From the text:

* 癞子 … 可以通用的万能牌（除了不能用作大小王）: a wild card stands for any rank but a joker.
* 癞子可以和其他牌搭配成上述各种牌型: wilds combine into every combo of the list (the
  combos of hubei-3p, digest A1): wild 7, ``44556+7`` is the pair chain ``445566``.
* 但癞子单独出时 … 只能作为其本身使用: played alone, wild cards are themselves (``77`` is a
  pair of 7s, nothing else).
* 软炸弹 = wilds + naturals (wild 5: ``333+5`` = 3333, ``77+55`` = 7777); 硬炸弹 = four
  natural cards (wild 6: four 7s); 纯癞子炸弹 = four wilds (wild 5: four 5s).
* 火箭 > 纯癞子炸弹 > 硬炸弹 > 软炸弹, each class by rank; other combos made with wilds equal
  the natural ones (不区分大小).
* 计分: soft ×2, hard ×4, pure ×4, rocket ×4, then × 0.25, at most 10,000 a game.

Every expectation below is derived from these sentences (and the hubei-3p combos), by
hand or by an independent brute force over what the wild cards may stand for; none is
copied from the code's output.

Seats are numbered in the order of play, so the next seat is ``(seat + 1) % 3``.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from wild_oracle import WILD_RANKS, oracle_leads, oracle_readings

import ddzrules
from ddzrules import cards as C
from ddzrules.bots import HeuristicBot, RandomBot
from ddzrules.cli import main
from ddzrules.errors import DdzError
from ddzrules.plugins.beans import bombs_in_hand
from ddzrules.rules.moves import Move
from ddzrules.rules.variant import Variant
from ddzrules.runtime import Action, Game, GameRules
from ddzrules.simulate import play_game

BOMBS = ("soft_bomb", "hard_bomb", "pure_bomb")
#: laizi's bomb classes, as the one natural bomb of hubei-3p
NATURAL = {"soft_bomb": "bomb", "hard_bomb": "bomb", "pure_bomb": "bomb"}
R = C.RANKS.index


@pytest.fixture(scope="module")
def lz(_private_cache: None) -> Variant:
    return ddzrules.load_variant("laizi")


@pytest.fixture(scope="module")
def rules(_private_cache: None) -> GameRules:
    return GameRules.load("laizi")


# ====================================================================== helpers


def readings(v: Variant, cards: str, wild: str | None) -> set[tuple[str, str, int]]:
    """(combo, rank, length) of every reading."""
    return {(m.combo, m.rank_name, m.length) for m in v.classify(C.parse_cards(cards), wild=wild)}


def reading(v: Variant, cards: str, wild: str | None, combo: str) -> Move:
    found = [m for m in v.classify(C.parse_cards(cards), wild=wild) if m.combo == combo]
    assert len(found) == 1, (cards, wild, combo, v.classify(C.parse_cards(cards), wild=wild))
    return found[0]


def ident(m: Move) -> tuple[str, str, str, int]:
    return (m.cards, m.combo, m.rank_name, m.length)


def natural_form(m: Move, wild: int) -> list[int]:
    """The play's cards with each wild card replaced by the rank it stands for."""
    counts = C.unpack(m.packed)
    counts[wild] = 0
    for _, rank in m.substitution:
        counts[R(rank)] += 1
    return counts


# ====================================================================== readings from the text


def test_the_texts_pair_chain(lz: Variant) -> None:
    # 癞子为7， 44556 + 7会作为445566的双顺使用
    [m] = lz.classify(C.parse_cards("44556+7"), wild="7")
    assert (m.combo, m.rank_name, m.length, m.size) == ("pair_chain", "6", 3, 6)
    assert m.substitution == (("7", "6"),)
    assert not m.is_bomb
    # the wild rank may be given as a rank index too
    assert lz.classify("445567", wild=R("7")) == (m,)


def test_wilds_played_alone_are_themselves(lz: Variant) -> None:
    # 77单出时，只能作为一对7使用: not a pair of As, nor of anything else
    [m] = lz.classify("77", wild="7")
    assert (m.combo, m.rank_name) == ("pair", "7")
    assert m.substitution == (("7", "7"), ("7", "7"))
    assert readings(lz, "7", "7") == {("single", "7", 1)}
    assert readings(lz, "777", "7") == {("trio", "7", 1)}
    assert readings(lz, "7777", "7") == {("pure_bomb", "7", 1)}
    # with a natural card beside them they stand for anything: 3 + 7 is a pair of 3s
    assert readings(lz, "37", "7") == {("pair", "3", 1)}
    assert reading(lz, "37", "7", "pair").substitution == (("7", "3"),)


def test_soft_bombs_of_the_text(lz: Variant) -> None:
    # 癞子为5， 333＋5就构成了3333软炸弹。77＋55就构成了7777软炸弹
    soft = reading(lz, "333+5", "5", "soft_bomb")
    assert soft.rank_name == "3" and soft.substitution == (("5", "3"),)
    soft = reading(lz, "77+55", "5", "soft_bomb")
    assert soft.rank_name == "7" and soft.substitution == (("5", "7"), ("5", "7"))
    # the same four cards are also a trio with one card (三带一): 333+x, 777+x
    assert readings(lz, "3335", "5") == {("soft_bomb", "3", 1), ("trio_with_hand", "3", 1)}
    assert readings(lz, "7755", "5") == {("soft_bomb", "7", 1), ("trio_with_hand", "7", 1)}
    # one natural and three wilds is soft too (由癞子和非癞子牌搭配而成)
    assert ("soft_bomb", "9", 1) in readings(lz, "9555", "5")


def test_hard_and_pure_bombs_of_the_text(lz: Variant) -> None:
    # 癞子为6，四个7就是硬炸弹
    [m] = lz.classify("7777", wild="6")
    assert (m.combo, m.rank_name, m.substitution) == ("hard_bomb", "7", ())
    # 癞子为5，四个5即为纯癞子炸弹; with another wild rank they are a hard bomb
    [m] = lz.classify("5555", wild="5")
    assert (m.combo, m.rank_name) == ("pure_bomb", "5")
    assert m.substitution == (("5", "5"),) * 4
    assert readings(lz, "5555", "6") == {("hard_bomb", "5", 1)}
    # laizi has no plain bomb: 4 of a kind is always one of the three classes
    assert "bomb" not in lz.combo_names
    assert set(BOMBS) <= set(lz.combo_names)


def test_a_wild_never_stands_for_a_joker(lz: Variant) -> None:
    # 除了不能用作大小王: no pair of jokers, no rocket, no two jokers made of wilds
    for cards in ("7X", "7D", "77X", "77D", "7XD", "77XD", "7777XD"):
        assert readings(lz, cards, "7") == set(), cards
    # with a joker beside them the wilds are not alone: 777+X is a trio of any rank 3..2
    # with the joker as its single, never anything with the wilds as jokers
    assert readings(lz, "777X", "7") == {("trio_with_hand", r, 1) for r in C.RANKS[:13]}
    assert readings(lz, "XD", "7") == {("rocket", "D", 1)}
    assert reading(lz, "XD", "7", "rocket").substitution == ()


def test_chains_keep_to_the_chain_ranks(lz: Variant) -> None:
    # 不包括 2 点和双王: a wild in a straight stands for 3..A only
    assert readings(lz, "TJQK7", "7") == {("straight", "K", 5), ("straight", "A", 5)}
    assert readings(lz, "JQKA7", "7") == {("straight", "A", 5)}  # not JQKA2
    assert readings(lz, "QKA77", "7") == {("straight", "A", 5)}  # TJQKA only
    assert readings(lz, "3456+9", "9") == {("straight", "7", 5)}


def bomb(v: Variant, cards: str, wild: str) -> Move:
    found = [m for m in v.classify(cards, wild=wild) if m.is_bomb]
    assert len(found) == 1, (cards, found)
    return found[0]


def test_bomb_order(lz: Variant) -> None:
    # 火箭 > 纯癞子炸弹 > 硬炸弹 > 软炸弹。同等级别的炸弹按牌的分值比大小
    w = "5"
    ladder = [bomb(lz, c, w) for c in ("3335", "4445", "2225", "3333", "4444", "2222", "5555", "XD")]
    assert [m.combo for m in ladder] == ["soft_bomb"] * 3 + ["hard_bomb"] * 3 + ["pure_bomb", "rocket"]
    for i, a in enumerate(ladder):
        for j, b in enumerate(ladder):
            assert a.beats(b) == (i > j), (a.cards, b.cards)
    # the lowest pure wild bomb beats the highest hard bomb, the lowest hard the highest soft
    assert bomb(lz, "3333", "3").beats(bomb(lz, "2222", "3"))
    assert bomb(lz, "3333", "7").beats(bomb(lz, "2227", "7"))
    # soft bombs by rank, however many wilds they hold
    one, three = bomb(lz, "3335", "5"), bomb(lz, "3555", "5")
    assert one.combo == three.combo == "soft_bomb"
    assert not one.beats(three) and not three.beats(one)
    assert bomb(lz, "4555", "5").beats(one)
    # every bomb class beats a play that is no bomb; no such play beats a bomb
    for top in ("2", "22", "222", "2223", "TJQKA", "D"):
        plain = lz.classify(top, wild=w)[-1]
        assert not plain.is_bomb
        for b in ladder:
            assert b.beats(plain) and not plain.beats(b)


def test_wild_made_combos_equal_natural_ones(lz: Variant) -> None:
    # 癞子搭配出的牌型和“原装”的牌型不区分大小
    assert not lz.beats("34569", "34567", wild="9") and not lz.beats("34567", "34569", wild="9")
    assert lz.beats("45679", "34567", wild="9")      # 4567+W reads 45678
    assert not lz.beats("34567", "45679", wild="9")
    assert not lz.beats("37", "33", wild="7") and not lz.beats("33", "37", wild="7")
    assert lz.beats("47", "33", wild="7") and lz.beats("44", "37", wild="7")
    assert not lz.beats("377", "333", wild="7") and not lz.beats("333", "377", wild="7")
    assert lz.beats("447", "333", wild="7")
    # a wild pair chain and the natural one of the same top
    assert not lz.beats("445567", "445566", wild="7") and not lz.beats("445566", "445567", wild="7")
    assert readings(lz, "556677", "7") == {("pair_chain", "6", 3), ("pair_chain", "7", 3), ("trio_chain", "6", 2)}
    assert lz.beats("556677", "445566", wild="7")
    # different card counts never compare, wilds or not
    assert not lz.beats("4567+7", "345678", wild="7") and not lz.beats("345678", "45677", wild="7")


def test_classify_without_wild_is_natural(lz: Variant) -> None:
    assert readings(lz, "3335", None) == {("trio_with_hand", "3", 1)}
    assert readings(lz, "7777", None) == {("hard_bomb", "7", 1)}
    assert readings(lz, "5555", None) == {("hard_bomb", "5", 1)}
    assert readings(lz, "445567", None) == set()
    assert readings(lz, "37", None) == set()
    assert readings(lz, "77", None) == {("pair", "7", 1)}
    assert all(m.substitution == () for c in ("3335", "7777", "77") for m in lz.classify(c))
    # wild= given but no card of that rank: the same natural readings
    assert lz.classify("3334", wild="7") == lz.classify("3334")


# ====================================================================== legal moves


# hand 3477, wild 7, derived by hand: singles 3, 4, 7 (itself); pairs 3+W, 4+W, 77 (itself);
# trios 3+WW, 4+WW; the four cards are 333+4 or 444+3 (三带一); no bomb (at most three 3s or 4s)
HAND_3477 = {
    ("3", "single", "3", 1), ("4", "single", "4", 1), ("7", "single", "7", 1),
    ("37", "pair", "3", 1), ("47", "pair", "4", 1), ("77", "pair", "7", 1),
    ("377", "trio", "3", 1), ("477", "trio", "4", 1),
    ("3477", "trio_with_hand", "3", 1), ("3477", "trio_with_hand", "4", 1),
}


def test_lead_listing_of_a_small_hand(lz: Variant) -> None:
    result = lz.legal_moves("3477", wild="7")
    assert not result.can_pass
    got = [ident(m) for m in result]
    assert len(got) == len(set(got)) == len(HAND_3477)
    assert set(got) == HAND_3477
    # the text's example is among the leads of its hand, once
    lead = lz.legal_moves("445567", wild="7")
    assert [ident(m) for m in lead].count(("445567", "pair_chain", "6", 3)) == 1


@pytest.mark.parametrize("after,expected", [
    ("33", {("47", "pair", "4", 1), ("77", "pair", "7", 1)}),         # 37 is only equal
    ("3", {("4", "single", "4", 1), ("7", "single", "7", 1)}),
    ("2", set()),
    ("3339", {("3477", "trio_with_hand", "4", 1)}),
    ("888+9", set()),
    ("XD", set()),
])
def test_answers_of_a_small_hand(lz: Variant, after: str, expected: set) -> None:
    result = lz.legal_moves("3477", after=after, wild="7")
    assert result.can_pass
    assert {ident(m) for m in result} == expected
    assert len(result) == len(expected)


def test_answering_bombs(lz: Variant) -> None:
    # after a play read with the wild (333+5 is at its strongest a soft 3333)
    answers = lz.legal_moves("4445", after="3335", wild="5")
    assert {ident(m) for m in answers} == {("4445", "soft_bomb", "4", 1)}
    assert answers.can_pass
    assert {ident(m) for m in lz.legal_moves("3333", after="2225", wild="5")} == {("3333", "hard_bomb", "3", 1)}
    assert len(lz.legal_moves("4445", after="3333", wild="5")) == 0       # soft < hard
    assert {ident(m) for m in lz.legal_moves("5555", after="2222", wild="5")} == {("5555", "pure_bomb", "5", 1)}
    assert len(lz.legal_moves("2222", after="5555", wild="5")) == 0       # hard < pure
    assert {ident(m) for m in lz.legal_moves("XD", after="5555", wild="5")} == {("XD", "rocket", "D", 1)}
    # a bomb answers a plain play; the trio-with-one reading of the same cards cannot answer 3339 …
    got = {ident(m) for m in lz.legal_moves("4445", after="3339", wild="5")}
    assert got == {("4445", "soft_bomb", "4", 1), ("4445", "trio_with_hand", "4", 1)}
    # … and answering with a Move keeps its reading
    prev = reading(lz, "3335", "5", "trio_with_hand")
    assert {ident(m) for m in lz.legal_moves("4445", after=prev, wild="5")} == got


def hubei_idents(hb: Variant, hand: str, after: Move | None = None) -> set[tuple[str, str, str, int]]:
    lm = hb.legal_moves(hand) if after is None else hb.legal_moves(hand, after=after)
    return {(m.cards, "hard_bomb" if m.combo == "bomb" else m.combo, m.rank_name, m.length) for m in lm}


@pytest.mark.parametrize("hand,wild", [("33334", "7"), ("334455689TTJQKA2XD", "7"), ("3456789TJQKAA", "2"),
                                       ("44448888", "3")])
def test_a_hand_without_wild_cards_plays_naturally(lz: Variant, hubei: Variant, hand: str, wild: str) -> None:
    assert wild not in hand
    with_wild = lz.legal_moves(hand, wild=wild)
    assert set(with_wild) == set(lz.legal_moves(hand))
    assert {ident(m) for m in with_wild} == hubei_idents(hubei, hand)
    assert not any(m.combo in ("soft_bomb", "pure_bomb") or m.substitution for m in with_wild)


def test_bad_wild_ranks(lz: Variant, hubei: Variant) -> None:
    for bad in ("X", "D", R("X")):
        with pytest.raises(DdzError, match="wild rank"):
            lz.classify("3", wild=bad)
        with pytest.raises(DdzError):
            lz.legal_moves("3", wild=bad)
    with pytest.raises(DdzError, match="no wildcards"):
        hubei.classify("77", wild="7")
    with pytest.raises(DdzError, match="no wildcards"):
        hubei.legal_moves("3477", wild="7")


# ====================================================================== properties

DECK = tuple(C.deck_list(C.full_deck()))
PROPS = settings(max_examples=60, deadline=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


@st.composite
def hand_and_wild(draw, max_size: int = 12) -> tuple[list[int], int]:
    """A random wild rank 3..2 and a hand dealt from a shuffled deck, with between 0
    and 4 of the wild rank's cards put in first (so that hands with several wilds are common)."""
    wild = draw(st.integers(0, 12))
    deck = draw(st.permutations(DECK))
    n = draw(st.integers(1, max_size))
    k = min(n, draw(st.integers(0, 4)))
    rest = [c for c in deck if c != wild]
    return C.counts_of([wild] * k + rest[:n - k]), wild


@PROPS
@given(hw=hand_and_wild())
def test_every_play_is_a_natural_play_in_disguise(lz: Variant, hubei: Variant, hw) -> None:
    counts, wild = hw
    letter = C.RANKS[wild]
    packed = C.pack(counts)
    result = lz.legal_moves(C.deck_list(counts), wild=wild)
    assert not result.can_pass
    idents = [ident(m) for m in result]
    assert len(idents) == len(set(idents)), "a reading listed twice"
    classified: dict[str, tuple[Move, ...]] = {}
    for m in result:
        assert C.contains(packed, m.packed), (C.counts_to_string(counts), m.cards)
        held = C.unpack(m.packed)
        wilds, naturals = held[wild], m.size - held[wild]
        # one substitution pair per wild card, from the wild rank, never to a joker
        assert len(m.substitution) == wilds, (m, m.substitution)
        assert all(a == letter and b not in "XD" for a, b in m.substitution), m.substitution
        if naturals == 0:  # played alone, wild cards are themselves
            assert set(m.substitution) <= {(letter, letter)}
        # the bomb class follows from the cards
        if m.combo == "hard_bomb":
            assert wilds == 0
        elif m.combo == "soft_bomb":
            assert wilds >= 1 and naturals >= 1
        elif m.combo == "pure_bomb":
            assert naturals == 0 and wilds == 4
        # with the wilds replaced, the cards are the same combo and rank under hubei-3p
        nat = C.counts_to_string(natural_form(m, wild))
        assert (NATURAL.get(m.combo, m.combo), m.rank, m.length) in \
            {(r.combo, r.rank, r.length) for r in hubei.classify(nat)}, (m, m.substitution, nat)
        # classify(cards, wild) knows this reading
        if m.cards not in classified:
            classified[m.cards] = lz.classify(m.cards, wild=wild)
        assert m in classified[m.cards], (m, classified[m.cards])


@PROPS
@given(hw=hand_and_wild(), other=hand_and_wild(), data=st.data())
def test_answers_are_the_leads_that_beat(lz: Variant, hw, other, data) -> None:
    counts, wild = hw
    hand = C.deck_list(counts)
    # something to beat: a play of another random hand, read with the same wild rank
    plays = lz.legal_moves(C.deck_list(other[0]), wild=wild).moves
    after = plays[data.draw(st.integers(0, len(plays) - 1), label="after")]
    result = lz.legal_moves(hand, after=after, wild=wild)
    assert result.can_pass
    answers = [ident(m) for m in result]
    assert len(answers) == len(set(answers))
    assert all(m.beats(after) for m in result)
    assert set(result) == {m for m in lz.legal_moves(hand, wild=wild) if m.beats(after)}


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(hw=hand_and_wild(max_size=7))
def test_leads_are_exactly_the_substitution_oracle(lz: Variant, hubei: Variant, hw) -> None:
    counts, wild = hw
    expected = oracle_leads(hubei, counts, (wild,))
    got = [ident(m) for m in lz.legal_moves(C.deck_list(counts), wild=wild)]
    assert len(got) == len(set(got))
    assert set(got) == expected, (C.counts_to_string(counts), C.RANKS[wild])
    # and classify agrees with the oracle on the whole hand
    assert {ident(m) for m in lz.classify(C.counts_to_string(counts), wild=wild)} == \
        oracle_readings(hubei, counts, (wild,))


@PROPS
@given(wild=st.integers(0, 12), deck=st.permutations(DECK), n=st.integers(1, 14), data=st.data())
def test_hands_without_wild_cards_list_naturally(lz: Variant, hubei: Variant, wild, deck, n, data) -> None:
    hand = C.Ranks([c for c in deck if c != wild][:n])
    with_wild = lz.legal_moves(hand, wild=wild)
    assert set(with_wild) == set(lz.legal_moves(hand))
    assert {ident(m) for m in with_wild} == hubei_idents(hubei, C.counts_to_string(C.counts_of(hand)))
    assert not any(m.combo in ("soft_bomb", "pure_bomb") for m in with_wild)
    # answering too (a natural play to beat)
    other = C.Ranks([c for c in deck if c != wild][n:n + 10])
    plays = hubei.legal_moves(other).moves
    after_h = plays[data.draw(st.integers(0, len(plays) - 1), label="after")]
    combo = "hard_bomb" if after_h.combo == "bomb" else after_h.combo
    [after_l] = [m for m in lz.classify(after_h.cards)
                 if (m.combo, m.rank, m.length) == (combo, after_h.rank, after_h.length)]
    got = {ident(m) for m in lz.legal_moves(hand, after=after_l, wild=wild)}
    assert got == hubei_idents(hubei, C.counts_to_string(C.counts_of(hand)), after=after_h)


# ====================================================================== census

SMALL_SPEC = """\
name: scratch/laizi-small
extends: laizi
combos:
  trio_with_hand: null
  plane_wings: null
  four_with_two: null
"""


@pytest.fixture(scope="module")
def small(_private_cache: None, tmp_path_factory: pytest.TempPathFactory) -> Variant:
    """laizi without its three large families (the wild census of the whole of laizi
    takes ~15 s); the census counts each combo on its own, so the others are unchanged."""
    path = tmp_path_factory.mktemp("laizi") / "laizi-small.yaml"
    path.write_text(SMALL_SPEC, encoding="utf-8")
    return ddzrules.load_variant(str(path))


def census_oracle(wild: int) -> list[tuple[tuple[tuple[int, int], ...], int, str, int, int]]:
    """Every reading of the full deck for the small spec's combos as
    (naturals as ((rank, count), …), wild cards, combo, rank, length), from the text."""
    out = []
    for r in WILD_RANKS:  # groups of 1..4 of a rank
        for size in range(1, 5):
            name = {1: "single", 2: "pair", 3: "trio"}.get(size)
            if r == wild:  # only wild cards: themselves
                out.append(((), size, name or "pure_bomb", r, 1))
                continue
            for w in range(size):  # at least one natural card
                combo = name or ("hard_bomb" if w == 0 else "soft_bomb")
                if combo == "single" and w:
                    continue
                out.append((((r, size - w),), w, combo, r, 1))
    out += [(((R("X"), 1),), 0, "single", R("X"), 1), (((R("D"), 1),), 0, "single", R("D"), 1),
            (((R("X"), 1), (R("D"), 1)), 0, "rocket", R("D"), 1)]
    # chains over 3..A; every unit of the wild rank is wild cards; at most 4 wilds, 20 cards
    for combo, unit, least in (("straight", 1, 5), ("pair_chain", 2, 3), ("trio_chain", 3, 2)):
        for length in range(least, 13):
            if unit * length > 20:
                break
            for start in range(12 - length + 1):
                for nat, w in chain_fills(list(range(start, start + length)), unit, wild):
                    out.append((nat, w, combo, start + length - 1, length))
    return out


def chain_fills(ranks: list[int], unit: int, wild: int) -> list[tuple[tuple[tuple[int, int], ...], int]]:
    """Every way to make ``unit`` cards of each rank from naturals and at most 4 wilds:
    (naturals as ((rank, count), …), wild cards)."""
    out: list[tuple[tuple[tuple[int, int], ...], int]] = [((), 0)]
    for r in ranks:
        out = [(nat + (((r, n),) if n else ()), w + unit - n)
               for nat, w in out for n in ([0] if r == wild else range(unit + 1)) if w + unit - n <= 4]
    return out


def test_census_of_the_small_families_by_hand(small: Variant) -> None:
    c = small.census(wild="7")
    # 13 ranks (the 7 as itself) + X + D; 12 non-wild ranks × {rr, r+W} + WW;
    # 12 × {rrr, rrW, rWW} + WWW; 12 × {rrrW, rrWW, rWWW}; 12 natural quads; WWWW; XD
    assert {k: c.by_combo[k] for k in ("single", "pair", "trio", "soft_bomb", "hard_bomb", "pure_bomb",
                                       "rocket")} == {
        "single": 15, "pair": 25, "trio": 37, "soft_bomb": 36, "hard_bomb": 12, "pure_bomb": 1, "rocket": 1}
    # the readings of those families by wild cards: 0: 14 singles, 12 pairs, 12 trios, 12 hard, XD;
    # 1: the 7, 12 r+W, 12 rrW, 12 rrrW; 2: WW, 12 rWW, 12 rrWW; 3: WWW, 12 rWWW; 4: WWWW
    small_by_w = {0: 51, 1: 37, 2: 25, 3: 13, 4: 1}
    chains = [x for x in census_oracle(R("7")) if x[2] in ("straight", "pair_chain", "trio_chain")]
    by_w = dict(small_by_w)
    for _, w, *_ in chains:
        by_w[w] += 1
    assert c.by_wilds == by_w


@pytest.mark.parametrize("wild", ["3", "7", "A", "2"])
def test_census_matches_the_oracle(small: Variant, wild: str) -> None:
    oracle = census_oracle(R(wild))
    c = small.census(wild=wild)
    per: dict[str, set] = {}
    by_w: dict[int, int] = {}
    for nat, w, combo, _, _ in oracle:
        per.setdefault(combo, set()).add((nat, w))
    for _, w, *_ in set(oracle):
        by_w[w] = by_w.get(w, 0) + 1
    assert c.by_combo == {name: len(per.get(name, ())) for name in small.combo_names}
    assert c.readings == len(set(oracle))
    assert c.total == len({(nat, w) for nat, w, *_ in oracle})
    assert c.by_wilds == dict(sorted(by_w.items()))
    # the small families do not depend on the wild rank
    assert (c.by_combo["pair"], c.by_combo["trio"], c.by_combo["soft_bomb"]) == (25, 37, 36)


def test_small_spec_is_laizi_minus_three_families(lz: Variant, small: Variant) -> None:
    assert small.combo_names == [n for n in lz.combo_names
                                 if n not in ("trio_with_hand", "plane_wings", "four_with_two")]
    assert small.rules.stand_for == lz.rules.stand_for == tuple(WILD_RANKS)


# ====================================================================== the runtime


def test_each_deal_draws_a_wild_rank_from_the_seed(rules: GameRules) -> None:
    drawn = []
    for seed in range(200):
        game = rules.new_game(seed)
        assert game.wild is not None and 0 <= game.wild <= R("2")   # 3..2, never a joker
        assert rules.new_game(seed).wild == game.wild                   # same seed, same wild rank
        for seat in range(3):
            assert game.view(seat).extra["wild"] == C.RANKS[game.wild]  # shown to everybody
        drawn.append(game.wild)
    assert set(drawn) == set(WILD_RANKS)


def test_a_redeal_draws_again(rules: GameRules) -> None:
    game = rules.new_game(3)
    for deal in range(1, 5):
        while game.deal_number < deal:  # nobody shows, nobody calls: deal again
            seat = game.to_act
            assert seat is not None and game.phase == "landlord"
            game.apply(Action(seat, "decline"))
        assert game.wild is not None and game.public["wild"] == C.RANKS[game.wild]
        assert all(game.view(s).extra["wild"] == C.RANKS[game.wild] for s in range(3))
    assert len(game.deals) == 5


def every_card_once(game: Game) -> None:
    full = C.full_deck()
    for d in game.deals:
        dealt = [C.counts_of(C.parse_ranks(h)) for h in (*d["hands"], d["kitty"])]
        assert [sum(x) for x in zip(*dealt)] == full
    played = [0] * C.NUM_RANKS
    for moves in game.played:
        for m in moves:
            played = [a + b for a, b in zip(played, C.unpack(m.packed))]
    left = [sum(x) for x in zip(*game.hands)]
    assert [a + b for a, b in zip(played, left)] == full


FACTORS = {"soft_bomb": 2, "hard_bomb": 4, "pure_bomb": 4, "rocket": 4}


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_bot_games(rules: GameRules, seed: int) -> None:
    agents = [RandomBot(seed), HeuristicBot(seed), RandomBot(seed + 1) if seed % 2 else HeuristicBot(seed + 2)]

    def check_view(game: Game, _action: object) -> None:
        for s in range(3):
            assert game.view(s).extra["wild"] == C.RANKS[game.wild]

    game = play_game(rules, agents, seed, on_action=check_view)
    assert game.over and game.winner is not None and game.scores is not None
    assert sum(game.hands[game.winner]) == 0
    every_card_once(game)
    # every play read with the deal's wild rank; each bomb multiplies by its class's factor
    bombs = [(m.combo, m.cards) for seat_moves in game.played for m in seat_moves if m.is_bomb]
    events = [(e.name, e.detail) for e in game.events if e.name in FACTORS]
    assert sorted(events) == sorted(bombs)
    assert all(e.factor == FACTORS[e.name] for e in game.events if e.name in FACTORS)
    # beans: zero-sum but for the house's take, 50 from each; at most 10,000 won or lost
    assert sum(game.scores) + game.stats["house_take"] == 0
    assert game.stats["house_take"] == 150
    assert all(abs(s + 50) <= 10000 for s in game.scores)


# ------------------------------------------------------------------ rigged games


def seed_with_wild(rules: GameRules, wild: str) -> int:
    return next(s for s in range(1000) if rules.new_game(s).wild == R(wild))


def to_play(rules: GameRules, wild: str) -> Game:
    """A game of the given wild rank in the play phase: nobody shows, the first caller
    calls, nobody robs or doubles (stake 1, multiple 1)."""
    game = rules.new_game(seed_with_wild(rules, wild))
    while game.phase != "play":
        seat = game.to_act
        assert seat is not None
        kinds = [a.kind for a in game.legal_actions()]
        game.apply(Action(seat, "call" if "call" in kinds else "decline"))
    assert game.wild == R(wild) and game.stake == 1 and game.multiple == 1 and game.events == []
    return game


def rig(game: Game, hands: dict[int, str]) -> None:
    """Give the seats in ``hands`` exactly those cards; the rest of the deck goes to the
    other seats, card by card in turn (so none of them holds more than two of a rank)."""
    left = C.full_deck()
    new: dict[int, list[int]] = {}
    for seat, cards in hands.items():
        counts = C.counts_of(C.parse_ranks(cards))
        assert sum(counts) == sum(game.hands[seat]), (seat, cards)
        new[seat] = counts
        left = [a - b for a, b in zip(left, counts)]
        assert min(left) >= 0, cards
    rest = [s for s in range(3) if s not in hands]
    for s in rest:
        new[s] = [0] * C.NUM_RANKS
    for i, r in enumerate(C.deck_list(left)):
        new[rest[i % len(rest)]][r] += 1
    assert [sum(new[s]) for s in range(3)] == [sum(h) for h in game.hands]
    for s in range(3):
        game.hands[s] = new[s]


def play_as(game: Game, seat: int, cards: str, combo: str) -> Move:
    """Play ``cards`` as ``combo``, which must be among the legal actions."""
    cards = C.parse_cards(cards)
    assert game.to_act == seat
    [action] = [a for a in game.legal_actions()
                if a.kind == "play" and a.move is not None and a.move.cards == cards and a.move.combo == combo]
    game.apply(action)
    return action.move


def pass_(game: Game, seat: int) -> None:
    assert game.to_act == seat
    game.apply(Action(seat, "pass"))


def lord(game: Game) -> int:
    assert game.landlord is not None
    return game.landlord


def run_out(game: Game, plays: list[tuple[str, str]]) -> None:
    """The landlord leads every play, the farmers pass: a spring (春天 ×2)."""
    landlord = lord(game)
    for cards, combo in plays:
        play_as(game, landlord, cards, combo)
        if game.over:
            break
        pass_(game, (landlord + 1) % 3)
        pass_(game, (landlord + 2) % 3)
    assert game.over and game.winner == landlord


# the landlord's 20 cards (wild 5) and how he plays them out; the bomb is played first
RIGS = {
    "soft": ("3335+4+6789T+JJQQKK+AA+22",
             [("3335", "soft_bomb"), ("4", "single"), ("6789T", "straight"), ("JJQQKK", "pair_chain"),
              ("AA", "pair"), ("22", "pair")], [("soft_bomb", 2)]),
    "hard": ("4444+3+6789T+JJQQKK+AA+22",
             [("4444", "hard_bomb"), ("3", "single"), ("6789T", "straight"), ("JJQQKK", "pair_chain"),
              ("AA", "pair"), ("22", "pair")], [("hard_bomb", 4)]),
    "pure": ("5555+3+6789T+JJQQKK+AA+22",
             [("5555", "pure_bomb"), ("3", "single"), ("6789T", "straight"), ("JJQQKK", "pair_chain"),
              ("AA", "pair"), ("22", "pair")], [("pure_bomb", 4)]),
    "rocket": ("XD+33+4+6789T+JJQQKK+AA+22",
               [("XD", "rocket"), ("33", "pair"), ("4", "single"), ("6789T", "straight"),
                ("JJQQKK", "pair_chain"), ("AA", "pair"), ("22", "pair")], [("rocket", 4)]),
}


@pytest.mark.parametrize("name", list(RIGS))
def test_bomb_multipliers_and_beans(rules: GameRules, name: str) -> None:
    hand, plays, bomb_events = RIGS[name]
    game = to_play(rules, "5")
    landlord = lord(game)
    rig(game, {landlord: hand})
    run_out(game, plays)
    events = [(e.name, e.factor) for e in game.events]
    assert events == bomb_events + [("spring", 2)]
    multiple = bomb_events[0][1] * 2
    assert game.multiple == multiple
    # X×N per farmer = base 1 × multiple × 1000 × 0.25; the landlord has both; 50 taken from each
    per_farmer = multiple * 1000 // 4
    assert game.scores is not None
    assert game.scores[landlord] == 2 * per_farmer - 50
    for f in ((landlord + 1) % 3, (landlord + 2) % 3):
        assert game.scores[f] == -per_farmer - 50
    assert game.stats["house_take"] == 150


def test_the_cap(rules: GameRules) -> None:
    # hard ×4, rocket ×4, spring ×2 = 32: each farmer owes 1 × 32 × 1000 × 0.25 = 8000, the
    # landlord would win 16000; he wins 10,000, 5,000 from each farmer
    game = to_play(rules, "5")
    landlord = lord(game)
    rig(game, {landlord: "4444+XD+3+6789T+JJQQKK+AA"})
    run_out(game, [("4444", "hard_bomb"), ("XD", "rocket"), ("3", "single"), ("6789T", "straight"),
                   ("JJQQKK", "pair_chain"), ("AA", "pair")])
    assert game.multiple == 32
    assert game.scores is not None
    assert game.scores[landlord] == 10000 - 50
    assert game.scores[(landlord + 1) % 3] == game.scores[(landlord + 2) % 3] == -5000 - 50
    assert sum(game.scores) + game.stats["house_take"] == 0


def bomb_plays(game: Game) -> set[tuple[str, str]]:
    return {(a.move.cards, a.move.combo) for a in game.legal_actions() if a.move is not None and a.move.is_bomb}


def test_bombs_answering_bombs(rules: GameRules) -> None:
    # wild 5. The landlord leads a 3; farmer 1 answers 444+5 (soft 4444), farmer 2 6666 (hard),
    # the landlord XD, and nothing beats that.
    game = to_play(rules, "5")
    landlord = lord(game)
    f1, f2 = (landlord + 1) % 3, (landlord + 2) % 3
    rig(game, {landlord: "33+XD+5+7+88+99+TT+JJ+QQ+KK+A+2",
               f1: "3+444+55+777+8+9+T+J+Q+AA+2"})
    assert C.counts_to_string(game.hands[f2]) == "345666689TJQKKA22"
    play_as(game, landlord, "3", "single")
    # farmer 1's two wilds: 444+5, 44+55, 777+5, 77+55, AA+55 are soft bombs; nothing else is a bomb
    assert bomb_plays(game) == {("4445", "soft_bomb"), ("4455", "soft_bomb"), ("5777", "soft_bomb"),
                                ("5577", "soft_bomb"), ("55AA", "soft_bomb")}
    assert any(a.kind == "pass" for a in game.legal_actions())
    play_as(game, f1, "4445", "soft_bomb")
    # farmer 2: the hard 6666 and 666+5 (a soft 6666, above the soft 4444)
    assert bomb_plays(game) == {("6666", "hard_bomb"), ("5666", "soft_bomb")}
    play_as(game, f2, "6666", "hard_bomb")
    assert bomb_plays(game) == {("XD", "rocket")}
    play_as(game, landlord, "XD", "rocket")
    assert [a.kind for a in game.legal_actions()] == ["pass"]               # nothing beats the rocket
    assert [(e.name, e.factor, e.seat) for e in game.events] == [
        ("soft_bomb", 2, f1), ("hard_bomb", 4, f2), ("rocket", 4, landlord)]
    assert game.multiple == 2 * 4 * 4


def test_a_played_string_takes_the_bomb_reading_of_333_plus_wild(rules: GameRules) -> None:
    game = to_play(rules, "5")
    landlord = lord(game)
    rig(game, {landlord: "3335+4+6789T+JJQQKK+AA+22"})
    move = game.play(landlord, "3335")
    assert move is not None and move.combo == "soft_bomb"
    assert [(e.name, e.factor) for e in game.events] == [("soft_bomb", 2)]


def test_a_played_string_takes_the_strongest_reading(rules: GameRules) -> None:
    game = to_play(rules, "5")
    landlord = lord(game)
    rig(game, {landlord: "4445+3+6789T+JJQQKK+AA+22"})
    strongest = rules.variant.reading("4445", wild="5")
    assert strongest.combo == "soft_bomb"
    move = game.play(landlord, "4445")
    assert move == strongest
    assert [(e.name, e.factor) for e in game.events] == [("soft_bomb", 2)]


def test_escape_counts_the_bombs_wild_cards_make(rules: GameRules) -> None:
    # wild 5, one wild in the landlord's hand: 333+5 is the one bomb he could make (soft, ×2)
    game = to_play(rules, "5")
    landlord = lord(game)
    rig(game, {landlord: "3335+44+66+77+88+99+TJQKA2"})
    [beans] = [inst for _, name, inst in rules.active if name == "beans"]
    assert game.multiple == 1
    # 逃跑计算时将计算当盘所有的炸弹数量: at least the landlord's soft bomb (×2) counts (the farmers,
    # holding three wilds between them, can make soft bombs too)
    assert beans.escape_multiple(game) >= 2
    assert bombs_in_hand(game, landlord) == ["soft_bomb"]
    # and four wilds are the pure wild bomb (×4), not a hard bomb
    rig(game, {landlord: "5555+3+44+66+77+88+99+TJQK+A"})
    assert "pure_bomb" in bombs_in_hand(game, landlord)


# ====================================================================== the command line


def cli(*args: str):
    return CliRunner().invoke(main, list(args))


def test_cli_classify(_private_cache: None) -> None:
    result = cli("classify", "laizi", "445567", "--wild", "7", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["cards"] == "445567"
    [r] = data["readings"]
    assert (r["combo"], r["rank"], r["length"], r["bomb"]) == ("pair_chain", "6", 3, False)
    assert r["substitution"] == [["7", "6"]]
    # text output names what the wild stands for
    result = cli("classify", "laizi", "44556+7", "--wild", "7")
    assert result.exit_code == 0 and "7→6" in result.output
    # without --wild the cards are natural: no combo
    assert json.loads(cli("classify", "laizi", "445567", "--json").stdout)["readings"] == []


def test_cli_moves(_private_cache: None) -> None:
    result = cli("moves", "laizi", "--hand", "3477", "--wild", "7", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["can_pass"] is False
    got = {(m["cards"], m["combo"], m["rank"], m["length"]) for m in data["moves"]}
    assert got == HAND_3477 and len(data["moves"]) == len(HAND_3477)
    subs = {m["cards"]: m.get("substitution") for m in data["moves"] if m["combo"] != "trio_with_hand"}
    assert subs["37"] == [["7", "3"]] and subs["77"] == [["7", "7"], ["7", "7"]] and subs["3"] is None
    result = cli("moves", "laizi", "--hand", "3477", "--after", "33", "--wild", "7", "--json")
    data = json.loads(result.stdout)
    assert data["can_pass"] is True
    assert {(m["cards"], m["rank"]) for m in data["moves"]} == {("47", "4"), ("77", "7")}


@pytest.mark.parametrize("args", [
    ("classify", "laizi", "77", "--wild", "X"),
    ("classify", "laizi", "77", "--wild", "D"),
    ("moves", "laizi", "--hand", "3477", "--wild", "X"),
    ("classify", "hubei-3p", "77", "--wild", "7"),
    ("moves", "hubei-3p", "--hand", "3477", "--wild", "7"),
    ("compare", "hubei-3p", "33", "44", "--wild", "7"),
])
def test_cli_bad_wild(_private_cache: None, args: tuple[str, ...]) -> None:
    result = cli(*args)
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    message = result.stderr
    assert "wild" in message or "癞子" in message, message


def test_cli_compare(_private_cache: None) -> None:
    data = json.loads(cli("compare", "laizi", "3335", "4444", "--wild", "5", "--json").stdout)
    assert (data["a_beats_b"], data["b_beats_a"]) == (False, True)      # soft < hard
    data = json.loads(cli("compare", "laizi", "5555", "2222", "--wild", "5", "--json").stdout)
    assert (data["a_beats_b"], data["b_beats_a"]) == (True, False)      # pure > hard
