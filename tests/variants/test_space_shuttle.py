"""太空梭 (space shuttle), seeds/003 (digest D), as specs/space-shuttle.yaml reads it, and
the other reading (specs/hk.yaml).

太空梭: 此種牌型極少出現,玩家須以出兩次炸彈的方式代替。亦即連續數字的四條或四帶二,同樣可以不帶翼,帶翼。
如: 不帶翼: 3333 4444 5555; 帶小翼: 4444 5555 36 JQ; 帶大翼: AAAA KKKK 66 99 33 55.
任何情況下,其三條部分都不能有2 (planes; the spec extends "no 2" to chains of fours, as
its chain_ranks 3..A say). 炸彈 … 每次打出時,賭注乘二; 王炸 … 打出時,賭注乘二, 王炸大於所有牌型.

space-shuttle: a shuttle is a play in three kinds, each following only its own kind
and length; a bomb or the rocket beats it; for the stake each four counts as a bomb
(×2 per four). hk: a shuttle is no play; its fours are played as separate bombs.
"""

from __future__ import annotations

from math import comb

import pytest

from ddzrules import cards as C
from ddzrules.errors import PlayError
from ddzrules.rules.variant import Variant
from ddzrules.runtime import Action, Game, GameRules

DECK = C.full_deck()


@pytest.fixture(scope="module")
def rules(_private_cache: None) -> GameRules:
    return GameRules.load("space-shuttle")


@pytest.fixture(scope="module")
def hk_rules(_private_cache: None) -> GameRules:
    return GameRules.load("hk")


@pytest.fixture(scope="module")
def v(rules: GameRules) -> Variant:
    return rules.variant


@pytest.fixture(scope="module")
def hk(hk_rules: GameRules) -> Variant:
    return hk_rules.variant


# ====================================================================== the text's examples


TEXT_EXAMPLES = [
    ("3333 4444 5555", "shuttle", "5", 3),            # 不帶翼
    ("4444 5555 36 JQ", "shuttle_small", "5", 2),     # 帶小翼: two singles per four
    ("AAAA KKKK 66 99 33 55", "shuttle_big", "A", 2),  # 帶大翼: two pairs per four
]


@pytest.mark.parametrize("cards,combo,rank,length", TEXT_EXAMPLES)
def test_the_texts_examples_are_the_three_kinds(v: Variant, cards: str, combo: str, rank: str,
                                                length: int) -> None:
    readings = v.classify(cards)
    assert [(m.combo, m.rank_name, m.length) for m in readings] == [(combo, rank, length)]
    assert not readings[0].is_bomb            # not in the bomb classes (reading shuttle-order)


@pytest.mark.parametrize("cards,combo,rank,length", TEXT_EXAMPLES)
def test_hk_reads_no_shuttle(hk: Variant, cards: str, combo: str, rank: str, length: int) -> None:
    assert hk.classify(cards) == ()


MORE_LEGAL = [
    ("33334444", "shuttle", 2),
    ("3333444455556666", "shuttle", 4),
    ("33334444555566667777", "shuttle", 5),            # the 20-card hand's longest
    ("JJJJQQQQKKKKAAAA", "shuttle", 4),
    ("333344445XD6", "shuttle_small", 2),              # small wings may be both jokers
    ("555566667777 3 4 8 9 J 2", "shuttle_small", 3),
    ("JJJJQQQQ 22 33 44 55", "shuttle_big", 2),        # wing pairs of 2 are fine
]

ILLEGAL = [
    "KKKK AAAA 2222",     # no 2 in a chain of fours
    "AAAA 2222",
    "2222 3333",          # no wrapping round
    "AAAA 2222 3 4 5 6",
    "3333 5555",          # not consecutive
    "3333 4444 55",       # wings: two singles per four …
    "3333 4444 5 6",
    "3333 4444 5566",     # … or two pairs per four (12 cards: neither)
    "4444 5555 66 JQ",    # small wings of distinct ranks (reading shuttle-wings)
    "AAAA KKKK 66 66 33 55",
]


@pytest.mark.parametrize("cards,combo,length", MORE_LEGAL)
def test_more_shuttles(v: Variant, cards: str, combo: str, length: int) -> None:
    assert [(m.combo, m.length) for m in v.classify(cards)] == [(combo, length)]


@pytest.mark.parametrize("cards", ILLEGAL)
def test_not_shuttles(v: Variant, cards: str) -> None:
    assert v.classify(cards) == ()


# ====================================================================== comparison

COMPARE = [
    # (a, b, a beats b, b beats a)
    # the same kind and length: by the highest four
    ("444455556666", "333344445555", True, False),
    ("55556666", "33334444", True, False),
    ("5555666637JQ", "4444555536JQ", True, False),
    ("AAAAKKKK66993355", "JJJJQQQQ33445566", True, False),
    # another length: no comparison, either way
    ("555566667777", "33334444", False, False),
    ("4444555566667777", "333344445555", False, False),
    ("555566667777 3 4 8 9 J 2", "4444555536JQ", False, False),
    # another kind, even with the same card count: no comparison
    ("555566667777", "4444555536JQ", False, False),      # 12 cards: bare 3 vs small 2
    ("3333444455556666", "AAAAKKKK66993355", False, False),  # 16 cards: bare 4 vs big 2
    ("99998888", "4444555536JQ", False, False),
    # bombs and the rocket beat every shuttle; a shuttle beats no bomb
    ("3333", "333344445555", True, False),
    ("2222", "AAAAKKKK66993355", True, False),
    ("3333", "JJJJQQQQKKKKAAAA", True, False),
    ("XD", "333344445555", True, False),
    ("XD", "4444555536JQ", True, False),
    ("XD", "33334444555566667777", True, False),
    # and a shuttle is not a four-with-two
    ("55556666", "4444 33 77", False, False),
]


@pytest.mark.parametrize("a,b,ab,ba", COMPARE)
def test_compare(v: Variant, a: str, b: str, ab: bool, ba: bool) -> None:
    assert v.beats(a, b) is ab
    assert v.beats(b, a) is ba


def test_only_a_same_kind_and_length_shuttle_or_a_bomb_answers(v: Variant) -> None:
    hand = "5555 6666 7777 8888 9 T XD"
    answers = {m.cards for m in v.legal_moves(hand, after="33334444")}
    # the 2-four bare shuttles above 3333-4444, the bombs and the rocket; nothing longer,
    # nothing winged
    assert answers == {"55556666", "66667777", "77778888", "5555", "6666", "7777", "8888", "XD"}
    moves = v.legal_moves(hand, after="4444555536JQ").moves
    # small-winged 2-four shuttles above 4444-5555 (a chain up to 6, 7 or 8 + four singles), bombs, rocket
    assert {m.combo for m in moves} == {"shuttle_small", "bomb", "rocket"}
    assert {m.cards for m in moves if m.is_bomb} == {"5555", "6666", "7777", "8888", "XD"}
    small = [m for m in moves if m.combo == "shuttle_small"]
    assert small and all(m.length == 2 and m.rank_name in "678" and m.size == 12 for m in small)


# ====================================================================== census by hand


def test_census_of_the_shuttles(v: Variant) -> None:
    census = v.census().by_combo
    chain = 12                                      # 3..A
    # n consecutive fours, 4n ≤ 20
    assert census["shuttle"] == sum(chain - n + 1 for n in range(2, 6)) == 38
    # + 2n distinct singles outside the chain (13 − n ranks and the two jokers), 6n ≤ 20
    assert census["shuttle_small"] == sum((chain - n + 1) * comb(15 - n, 2 * n) for n in (2, 3)) == 17105
    # + 2n distinct pairs outside the chain (13 − n ranks), 8n ≤ 20
    assert census["shuttle_big"] == (chain - 1) * comb(11, 4) == 3630
    assert census["bomb"] == 13 and census["rocket"] == 1


# ====================================================================== the stake


def rig(game: Game, landlord: str, farmer1: str | None = None) -> dict[str, int]:
    """Replace the deal of a fresh game: the first bidder gets ``landlord``'s 17 lowest
    cards and the kitty its 3 highest; the next seat ``farmer1`` (or part of the rest);
    the last seat the rest."""
    assert game.phase == "landlord" and not game.history
    first = game.to_act
    assert first is not None
    seats = {"L": first, "F1": (first + 1) % 3, "F2": (first + 2) % 3}
    lord_cards = C.deck_list(C.counts_of(C.parse_ranks(landlord)))
    assert len(lord_cards) == 20
    left = [DECK[r] - c for r, c in enumerate(C.counts_of(lord_cards))]
    if farmer1 is not None:
        f1 = C.counts_of(C.parse_ranks(farmer1))
        assert sum(f1) == 17
    else:
        rest = C.deck_list(left)
        f1 = C.counts_of(rest[0::2][:17])
    left = [a - b for a, b in zip(left, f1)]
    assert min(left) >= 0 and sum(left) == 17
    hands = [[0] * C.NUM_RANKS for _ in range(3)]
    hands[seats["L"]] = C.counts_of(lord_cards[:17])
    hands[seats["F1"]] = f1
    hands[seats["F2"]] = left
    game.hands = hands
    game.kitty = C.counts_of(lord_cards[17:])
    return seats


def take_landlord(game: Game, stake: int) -> None:
    first = game.to_act
    assert first is not None
    game.apply(Action(first, "bid", stake))
    while game.phase == "landlord":
        game.apply(Action(game.to_act, "pass"))  # type: ignore[arg-type]
    assert game.landlord == first and game.stake == stake and game.phase == "play"


def run(game: Game, seats: dict[str, int], plays: list[tuple[str, str | None]]) -> None:
    for role, cards in plays:
        assert game.to_act == seats[role], f"expected {role} to act before {cards}"
        game.play(seats[role], cards)


def by_role(game: Game, seats: dict[str, int]) -> tuple[int, int, int]:
    assert game.scores is not None
    return game.scores[seats["L"]], game.scores[seats["F1"]], game.scores[seats["F2"]]


SHUTTLE_GAMES = [
    # (landlord's 20 cards, his two leads, the events, fours + bombs)
    ("333344445555 66667777", ["333344445555", "66667777"], ["shuttle"] * 5, 5),
    ("4444555536JQ 77778888", ["4444555536JQ", "77778888"], ["shuttle_small"] * 2 + ["shuttle"] * 2, 4),
    ("AAAAKKKK66993355 7777", ["AAAAKKKK66993355", "7777"], ["shuttle_big"] * 2 + ["bomb"], 3),
]


@pytest.mark.parametrize("stake", [1, 3])
@pytest.mark.parametrize("hand,leads,events,doublings", SHUTTLE_GAMES)
def test_a_shuttle_counts_one_bomb_per_four(rules: GameRules, hand: str, leads: list[str],
                                            events: list[str], doublings: int, stake: int) -> None:
    game = rules.new_game(7)
    seats = rig(game, hand)
    take_landlord(game, stake)
    first = game.play(seats["L"], leads[0])
    assert first is not None and first.length * 4 <= len(first.cards)
    # led or not, each four doubles the stake at once, like a bomb played
    assert game.multiple == 2 ** first.length
    run(game, seats, [("F1", None), ("F2", None), ("L", leads[1])])
    assert game.over and game.landlord_won
    assert [e.name for e in game.events] == events
    assert game.multiple == 2 ** doublings
    per_farmer = stake * 2 ** doublings                   # no spring in hk
    assert by_role(game, seats) == (2 * per_farmer, -per_farmer, -per_farmer)


def test_a_bomb_and_the_rocket_beat_a_shuttle_in_play(rules: GameRules) -> None:
    game = rules.new_game(8)
    seats = rig(game, "TTTTJJJJ3567 88 99 QQ AA", "4 777 88 99 QQ KKKK AA 2")
    take_landlord(game, 1)
    run(game, seats, [("L", "TTTTJJJJ3567")])
    # F1 has no small-winged shuttle: a bomb or a pass
    options = [a.move.cards if a.move else a.kind for a in game.legal_actions()]
    assert options == ["KKKK", "pass"]
    run(game, seats, [("F1", "KKKK"), ("F2", "XD")])
    assert [a.kind for a in game.legal_actions()] == ["pass"]     # the landlord cannot answer
    run(game, seats, [("L", None), ("F1", None),
                      ("F2", "333444555666"), ("L", None), ("F1", None),
                      ("F2", "222")])
    assert game.over and game.winner == seats["F2"]
    assert [e.name for e in game.events] == ["shuttle_small", "shuttle_small", "bomb", "rocket"]
    assert game.multiple == 16
    assert by_role(game, seats) == (-32, 16, 16)


def test_a_shuttle_answers_a_shuttle_in_play(rules: GameRules) -> None:
    game = rules.new_game(9)
    seats = rig(game, "33334444 7 8 9 T J QQ KK A 2 X", "55556666 789 TTT JJ 2")
    take_landlord(game, 2)
    run(game, seats, [("L", "33334444")])
    assert "55556666" in [a.value for a in game.legal_actions()]
    run(game, seats, [("F1", "55556666")])
    assert game.multiple == 16                 # two fours each
    # the last seat has no shuttle and no bomb
    assert [a.kind for a in game.legal_actions()] == ["pass"]
    with pytest.raises(PlayError):
        game.play(seats["F2"], "777")
    assert game.multiple == 16


# ====================================================================== the other reading


def test_hk_does_not_accept_a_shuttle_as_a_play(hk_rules: GameRules) -> None:
    game = hk_rules.new_game(7)
    seats = rig(game, "333344445555 66667777")
    take_landlord(game, 3)
    lord = seats["L"]
    assert "33334444" not in [a.value for a in game.legal_actions()]
    assert hk_rules.variant.classify("33334444") == ()
    with pytest.raises(PlayError):
        game.play(lord, "33334444")
    with pytest.raises(PlayError):
        game.play(lord, "333344445555")
    assert game.leading and game.to_act == lord and not game.events
    # the fours are played as separate bombs: each doubles the stake, as each four of a
    # shuttle does in the space-shuttle reading
    run(game, seats, [("L", "3333"), ("F1", None), ("F2", None), ("L", "4444")])
    assert game.multiple == 4
