"""The landlord phase (叫牌) of the bundled games, checked against the rule texts.

hubei-3p (seeds/000, digest A1): each player bids once (1, 2, 3 or pass), the
highest bid is landlord, a 3 ends bidding at once, all pass → redeal; the first
bidder is random in a match's first game, then rotates counter-clockwise game by
game (the spec reads a redeal as a new game, so it moves the first bidder on too).

crown-3p (seeds/002, digest C): the holder of the face-up card bids first; each
turn pass or bid higher; bidding continues counter-clockwise until two consecutive
passes or a 3; a pass does not forfeit later turns; all three pass → redeal.

Seats are numbered in the order of play, so the next seat is ``(seat + 1) % 3``.
"""

from __future__ import annotations

import itertools
import random

import pytest
from fuzzers import bounded

from ddzrules.errors import PlayError
from ddzrules.plugins.bidding import PointBids
from ddzrules.plugins.calling import CallRob
from ddzrules.plugins.hk_rob import HkRob
from ddzrules.runtime import Action, Game, GameRules, MatchInfo


@pytest.fixture(scope="module")
def hubei() -> GameRules:
    return GameRules.load("hubei-3p")


@pytest.fixture(scope="module")
def crown() -> GameRules:
    return GameRules.load("crown-3p")


def nxt(seat: int, k: int = 1) -> int:
    return (seat + k) % 3


def bid(game: Game, value: int | None) -> int:
    """The seat to act bids ``value`` (None: pass); returns that seat."""
    seat = game.to_act
    assert seat is not None
    game.apply(Action(seat, "pass") if value is None else Action(seat, "bid", value))
    return seat


def bids_offered(game: Game) -> list[int]:
    return sorted(a.value for a in game.legal_actions() if a.kind == "bid")  # type: ignore[misc]


def assert_bidding_over(game: Game, landlord: int, stake: int) -> None:
    assert game.phase == "play"
    assert game.landlord == landlord
    assert game.stake == stake
    # the landlord leads the first trick (每局牌都由地主先发牌) and holds the kitty: 20 cards
    assert game.to_act == landlord
    assert sum(game.hands[landlord]) == 20
    assert all(sum(game.hands[s]) == 17 for s in range(3) if s != landlord)


# ============================================================== hubei-3p: once each


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_hubei_opening_bids_are_pass_1_2_3(hubei: GameRules, seed: int) -> None:
    game = hubei.new_game(seed)
    assert game.phase == "landlord"
    kinds = {(a.kind, a.value) for a in game.legal_actions()}
    assert kinds == {("pass", None), ("bid", 1), ("bid", 2), ("bid", 3)}


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_hubei_a_3_ends_bidding_at_once(hubei: GameRules, seed: int) -> None:
    game = hubei.new_game(seed)
    first = bid(game, 3)
    assert_bidding_over(game, first, 3)
    assert [a.kind for a in game.history] == ["bid"]


def test_hubei_a_3_after_a_lower_bid_also_ends_it(hubei: GameRules) -> None:
    game = hubei.new_game(5)
    bid(game, 1)
    second = bid(game, 3)
    # the third player gets no chance to bid
    assert_bidding_over(game, second, 3)
    assert len(game.history) == 2


@pytest.mark.parametrize(
    "sequence, winner_offset, stake",
    [
        ([1, None, None], 0, 1),
        ([None, 1, 2], 2, 2),
        ([1, 2, None], 1, 2),
        ([None, None, 1], 2, 1),
        ([None, 2, None], 1, 2),
        ([2, None, None], 0, 2),
    ],
)
def test_hubei_highest_bid_wins_after_one_bid_each(hubei: GameRules, sequence: list[int | None],
                                                   winner_offset: int, stake: int) -> None:
    game = hubei.new_game(11)
    first = game.to_act
    assert first is not None
    for i, value in enumerate(sequence):
        assert game.phase == "landlord"
        assert game.to_act == nxt(first, i)  # counter-clockwise turns
        bid(game, value)
    # once each: after three bids the auction is over, the first bidder does not bid again
    assert_bidding_over(game, nxt(first, winner_offset), stake)


def test_hubei_bids_must_rise(hubei: GameRules) -> None:
    game = hubei.new_game(12)
    bid(game, 2)
    seat = game.to_act
    assert seat is not None
    assert bids_offered(game) == [3]
    for value in (1, 2):
        with pytest.raises(PlayError):
            game.apply(Action(seat, "bid", value))
    assert game.to_act == seat and game.stake == 2 and game.landlord is None


def test_hubei_all_pass_redeals(hubei: GameRules) -> None:
    game = hubei.new_game(13)
    first = game.to_act
    assert first is not None
    first_deal = game.deals[0]
    for _ in range(3):
        bid(game, None)
    # a new deal, marked in the history, still in the landlord phase
    assert game.phase == "landlord"
    assert game.landlord is None
    assert len(game.deals) == 2
    assert game.deals[1] != first_deal
    assert [a.kind for a in game.history] == ["pass", "pass", "pass", "redeal"]
    assert game.history[-1].seat == -1
    assert len(game.redeal_reasons) == 1
    # the current hands are the new deal's
    assert [game.hand_string(s) for s in range(3)] == game.deals[1]["hands"]
    # reading first-bidder: a redeal is a new game, so the first bidder moves on
    assert game.to_act == nxt(first)
    # and the new deal is played normally
    lord = bid(game, 3)
    assert_bidding_over(game, lord, 3)


def test_hubei_two_redeals_in_a_row(hubei: GameRules) -> None:
    game = hubei.new_game(14)
    first = game.to_act
    assert first is not None
    for _ in range(6):
        bid(game, None)
    assert len(game.deals) == 3
    assert sum(1 for a in game.history if a.kind == "redeal") == 2
    assert game.to_act == nxt(first, 2)


@pytest.mark.parametrize("match_seed", [0, 1, 7, 1234])
def test_hubei_first_bidder_rotates_with_the_match_index(hubei: GameRules, match_seed: int) -> None:
    firsts = []
    for index in range(7):
        # each game of the match has its own deal seed; the rotation follows the match
        game = hubei.new_game(1000 + 17 * index, MatchInfo(index, match_seed))
        firsts.append(game.to_act)
    for a, b in itertools.pairwise(firsts):
        assert a is not None
        assert b == nxt(a)


def test_hubei_first_bidder_of_a_match_is_random(hubei: GameRules) -> None:
    firsts = {hubei.new_game(5, MatchInfo(0, match_seed)).to_act for match_seed in range(40)}
    assert firsts == {0, 1, 2}


def test_hubei_redeal_and_match_rotation_combine(hubei: GameRules) -> None:
    game = hubei.new_game(21, MatchInfo(3, 99))
    first = game.to_act
    assert first is not None
    assert hubei.new_game(22, MatchInfo(4, 99)).to_act == nxt(first)
    for _ in range(3):
        bid(game, None)
    assert game.to_act == nxt(first)


# ============================================================== crown-3p: rising until passes


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_crown_face_up_card_holder_bids_first(crown: GameRules, seed: int) -> None:
    game = crown.new_game(seed)
    assert game.face_up is not None
    seat, rank = game.face_up
    assert game.to_act == seat
    assert game.hands[seat][rank] >= 1  # he really holds the card turned face up
    # the face-up card is public: every seat sees it
    for s in range(3):
        shown = game.view(s).extra["face_up"]
        assert shown["seat"] == seat
        assert shown["card"] == "3456789TJQKA2XD"[rank]


def test_crown_face_up_holder_varies_with_the_deal(crown: GameRules) -> None:
    assert {crown.new_game(seed).to_act for seed in range(40)} == {0, 1, 2}


def test_crown_bid_then_two_passes_ends(crown: GameRules) -> None:
    game = crown.new_game(31)
    first = bid(game, 1)
    bid(game, None)
    bid(game, None)
    assert_bidding_over(game, first, 1)


def test_crown_bidding_goes_round_until_two_consecutive_passes(crown: GameRules) -> None:
    game = crown.new_game(32)
    first = game.to_act
    assert first is not None
    bid(game, 1)                       # first
    bid(game, None)                    # first+1
    bid(game, 2)                       # first+2: one pass between bids does not end it
    assert game.phase == "landlord"
    assert game.to_act == first        # back round to the first bidder
    bid(game, None)                    # first
    assert game.phase == "landlord"
    bid(game, None)                    # first+1: second consecutive pass
    assert_bidding_over(game, nxt(first, 2), 2)


def test_crown_a_player_who_passed_may_bid_again(crown: GameRules) -> None:
    game = crown.new_game(33)
    first = game.to_act
    assert first is not None
    bid(game, None)                    # first passes
    bid(game, 1)                       # first+1
    bid(game, None)                    # first+2
    assert game.to_act == first
    # 这次不出并不意味着放弃下次出牌的权利: his earlier pass does not stop him now
    assert bids_offered(game) == [2, 3]
    bid(game, 2)
    bid(game, None)
    bid(game, None)
    assert_bidding_over(game, first, 2)


def test_crown_passes_before_any_bid_do_not_end_it(crown: GameRules) -> None:
    game = crown.new_game(34)
    first = game.to_act
    assert first is not None
    bid(game, None)
    bid(game, None)
    # two passes, but nobody has bid yet: the third player still bids
    assert game.phase == "landlord" and game.to_act == nxt(first, 2)
    bid(game, 1)
    bid(game, None)
    bid(game, None)
    assert_bidding_over(game, nxt(first, 2), 1)


@pytest.mark.parametrize("opening", [[3], [1, 3], [1, 2, 3], [None, None, 3]])
def test_crown_a_3_ends_bidding(crown: GameRules, opening: list[int | None]) -> None:
    game = crown.new_game(35)
    seat = None
    for value in opening:
        seat = bid(game, value)
    assert seat is not None
    assert_bidding_over(game, seat, 3)


def test_crown_bids_must_rise(crown: GameRules) -> None:
    game = crown.new_game(36)
    bid(game, 2)
    seat = game.to_act
    assert seat is not None
    assert bids_offered(game) == [3]
    with pytest.raises(PlayError):
        game.apply(Action(seat, "bid", 2))
    with pytest.raises(PlayError):
        game.apply(Action(seat, "bid", 1))


def test_crown_all_pass_redeals_with_a_new_face_up_card(crown: GameRules) -> None:
    game = crown.new_game(37)
    for _ in range(3):
        bid(game, None)
    assert game.phase == "landlord"
    assert len(game.deals) == 2
    assert game.history[-1].kind == "redeal"
    assert game.face_up is not None
    seat, rank = game.face_up
    assert game.to_act == seat
    assert game.hands[seat][rank] >= 1
    lord = bid(game, 3)
    assert_bidding_over(game, lord, 3)


# ============================================================== rotation in closed form

ROTATING = ("hubei-3p", "hubei-4p-2deck", "jiaofen")  # bundled specs with random-then-rotate


def looped_first_bidder(game: Game) -> int:
    """The rotation as it was computed before: a step per earlier game and redeal."""
    seat = random.Random(game.match.seed).randrange(game.players)
    for _ in range(game.match.index + game.deal_number):
        seat = game.next_seat(seat)
    return seat


def rotation_plugins() -> list[tuple[str, object]]:
    """Every bidding plugin that rotates: the bundled specs' point bids, and call-rob and
    hk-rob set to rotate (their bundled specs draw at random or by a face-up card)."""
    out: list[tuple[str, object]] = []
    for name in ROTATING:
        rules = GameRules.load(name)
        [plugin] = [p for p in rules.pm.get_plugins() if isinstance(p, PointBids)]
        out.append((name, plugin))
    out.append(("qiangdizhu", CallRob({"first_caller": "random-then-rotate"})))
    out.append(("hk-rob", HkRob({"first_bidder": "random-then-rotate"})))
    return out


@pytest.mark.parametrize(("name", "plugin"), rotation_plugins(), ids=lambda x: x if isinstance(x, str) else "")
def test_rotation_in_closed_form_matches_the_loop(name: str, plugin: object) -> None:
    game = GameRules.load(name).new_game(3)
    for match_seed in (0, 5, 2**70 + 3):
        for index in range(2001):
            for deal in (0, 1, 4):
                game.match = MatchInfo(index, match_seed)
                game.deal_number = deal
                assert plugin.ddzrules_first_bidder(game) == looped_first_bidder(game), (index, deal)  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", ROTATING)
def test_a_huge_match_index_starts_a_game_at_once(name: str) -> None:
    """A record's ``"match": {"index": 10**400}`` used to loop for ever; the closed form
    gives the seat the loop would reach: ``10**400 % players`` seats on."""
    rules = GameRules.load(name)
    with bounded("the first bidder of game 10**400", 10):
        game = rules.new_game(8, MatchInfo(10**400, 77))
    first = random.Random(77).randrange(rules.players)
    assert game.first_bidder == (first + 10**400) % rules.players
    assert game.to_act == game.first_bidder
