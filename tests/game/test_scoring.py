"""Scoring of the bundled games, from the rule texts.

hubei-3p (seeds/000 一幅牌计分, digest A1): base = the winning bid; landlord wins →
landlord +2×base, each farmer −base; loses → the reverse. ×2 per *effective* bomb
or rocket (one that beats another play; one that opens a trick, 发牌, does not
count); ×2 spring (the landlord goes out and neither farmer played a card); ×2
anti-spring (a farmer goes out while the landlord played only one hand).

crown-3p (seeds/002 記分, digest C): each farmer pays the landlord (or is paid)
contract × 2^(bombs + rockets played), every bomb counting, led or not; the
text's example: bid 3, two bombs and a rocket → 24 per farmer, 48 in all.

The exact positions are set up by :func:`rig`, which replaces the deal of a fresh
game before the landlord phase ends (the kitty goes to the landlord when it does).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ddzrules import cards as C
from ddzrules.bots import HeuristicBot, RandomBot
from ddzrules.runtime import Action, Game, GameRules

DECK = C.full_deck()


@pytest.fixture(scope="module")
def hubei() -> GameRules:
    return GameRules.load("hubei-3p")


@pytest.fixture(scope="module")
def crown() -> GameRules:
    return GameRules.load("crown-3p")


# ====================================================================== helpers


def counts(cards: str) -> list[int]:
    return C.counts_of(C.parse_ranks(cards))


def rig(game: Game, landlord: str, farmer1: str | None = None, farmer2: str | None = None) -> dict[str, int]:
    """Replace the deal of a fresh game (still in its landlord phase, nobody has bid).

    The seat to bid first will be the landlord: ``landlord`` is its 20 cards, the
    first 17 (in rank order) dealt to it and the last 3 put in the kitty. ``farmer1``
    is the next seat's hand, ``farmer2`` the one after; a hand left out gets the rest
    of the deck. Returns the seats by role: {"L": …, "F1": …, "F2": …}.
    """
    assert game.phase == "landlord" and not game.history, "rig a fresh game only"
    first = game.to_act
    assert first is not None
    seats = {"L": first, "F1": (first + 1) % 3, "F2": (first + 2) % 3}
    left = list(DECK)
    given_hands = {"L": landlord, "F1": farmer1, "F2": farmer2}
    for cards in given_hands.values():
        if cards is not None:
            for r, c in enumerate(counts(cards)):
                left[r] -= c
    assert min(left) >= 0, "the rigged hands use a card twice"
    rest = C.deck_list(left)
    for role in ("F1", "F2"):
        if given_hands[role] is None:
            given_hands[role], rest = C.counts_to_string(C.counts_of(rest[:17])), rest[17:]
    assert not rest, "the rigged hands do not use the whole deck"
    lord_cards = C.deck_list(counts(landlord))
    assert len(lord_cards) == 20
    hands = [[0] * C.NUM_RANKS for _ in range(3)]
    hands[seats["L"]] = C.counts_of(lord_cards[:17])
    for role in ("F1", "F2"):
        hand = counts(given_hands[role] or "")
        assert sum(hand) == 17, f"{role} needs 17 cards"
        hands[seats[role]] = hand
    kitty = C.counts_of(lord_cards[17:])
    total = [sum(h[r] for h in hands) + kitty[r] for r in range(C.NUM_RANKS)]
    assert total == DECK
    game.hands = hands
    game.kitty = kitty
    return seats


def take_landlord(game: Game, stake: int) -> None:
    """The first bidder bids ``stake``; the others pass if the auction is still open."""
    first = game.to_act
    assert first is not None
    game.apply(Action(first, "bid", stake))
    while game.phase == "landlord":
        seat = game.to_act
        assert seat is not None
        game.apply(Action(seat, "pass"))
    assert game.landlord == first and game.stake == stake


def run(game: Game, seats: dict[str, int], plays: list[tuple[str, str | None]]) -> None:
    """Play a scripted sequence: (role, cards) or (role, None) for a pass."""
    for role, cards in plays:
        assert game.to_act == seats[role], f"expected {role} to act before {cards}"
        game.play(seats[role], cards)


def by_role(game: Game, seats: dict[str, int]) -> tuple[int, int, int]:
    assert game.scores is not None
    return game.scores[seats["L"]], game.scores[seats["F1"]], game.scores[seats["F2"]]


def event_names(game: Game) -> list[str]:
    return [e.name for e in game.events]


# ====================================================================== scenarios

# The landlord leads two bombs and a rocket and goes out; the farmers never play.
LORD_LEADS_BOMBS = {"landlord": "3333 4444 XD 555666 7778"}
LORD_LEADS_BOMBS_PLAYS: list[tuple[str, str | None]] = [
    ("L", "3333"), ("F1", None), ("F2", None),
    ("L", "4444"), ("F1", None), ("F2", None),
    ("L", "XD"), ("F1", None), ("F2", None),
    ("L", "555666"), ("F1", None), ("F2", None),
    ("L", "7778"),
]

# Two bombs and a rocket, each beating the play before it; a farmer goes out.
FARMERS_WIN_BOMBS = {"landlord": "3333 4444 777 888 999 T XD",
                         "farmer1": "5555 TT Q KKK AAA 2222",
                         "farmer2": "6666 7 89TJQKA JJJ QQ"}
FARMERS_WIN_BOMBS_PLAYS: list[tuple[str, str | None]] = [
    ("L", "3"), ("F1", "5555"), ("F2", "6666"), ("L", "XD"), ("F1", None), ("F2", None),
    ("L", "4"), ("F1", None), ("F2", "7"), ("L", None), ("F1", None),
    ("F2", "89TJQKA"), ("L", None), ("F1", None),
    ("F2", "JJJQQ"),
]

# The landlord plays one hand (a single 3); a farmer bombs it and goes out.
ANTI_SPRING = {"landlord": "3333 4444 666 777 888 9 XD", "farmer1": "5555 789TJQKA KKK22"}
ANTI_SPRING_PLAYS: list[tuple[str, str | None]] = [
    ("L", "3"), ("F1", "5555"), ("F2", None), ("L", None),
    ("F1", "789TJQKA"), ("F2", None), ("L", None),
    ("F1", "KKK22"),
]

# The landlord wins, but a farmer played one card: no spring.
LORD_WINS_PLAIN = {"landlord": "3 2 444555666777 888999", "farmer1": "333 4 5 6 7 8 9 TTTT JJJJ"}
LORD_WINS_PLAIN_PLAYS: list[tuple[str, str | None]] = [
    ("L", "3"), ("F1", "5"), ("F2", None), ("L", "2"), ("F1", None), ("F2", None),
    ("L", "444555666777"), ("F1", None), ("F2", None),
    ("L", "888999"),
]


def play_scenario(rules: GameRules, hands: dict[str, str], plays: list[tuple[str, str | None]],
                  stake: int = 3, seed: int = 1) -> tuple[Game, dict[str, int]]:
    game = rules.new_game(seed)
    seats = rig(game, **hands)
    take_landlord(game, stake)
    run(game, seats, plays)
    assert game.over
    return game, seats


# ====================================================================== crown-3p (002)


def test_crown_text_example_landlord_wins_24_per_farmer(crown: GameRules) -> None:
    # 某局牌出了2个炸弹和1个火箭, 叫3分的地主如果先出完, 他就向每个农民赢得24分【总共赢得48分】
    game, seats = play_scenario(crown, LORD_LEADS_BOMBS, LORD_LEADS_BOMBS_PLAYS, stake=3)
    assert game.winner == seats["L"]
    assert sorted(event_names(game)) == ["bomb", "bomb", "rocket"]  # led bombs count in 皇冠
    assert game.multiple == 8
    assert by_role(game, seats) == (48, -24, -24)


def test_crown_text_example_farmers_win_24_each(crown: GameRules) -> None:
    # 如果农民先出完, 地主就向每个农民输掉24分【总共输掉48分】
    game, seats = play_scenario(crown, FARMERS_WIN_BOMBS, FARMERS_WIN_BOMBS_PLAYS, stake=3)
    assert game.winner == seats["F2"]
    assert game.multiple == 8
    assert by_role(game, seats) == (-48, 24, 24)


@pytest.mark.parametrize("stake", [1, 2, 3])
def test_crown_contract_is_paid_by_each_farmer_without_bombs(crown: GameRules, stake: int) -> None:
    # 如果没有出过炸弹或火箭, 那么每个农民要把定约的分数付给地主; no spring in 皇冠
    game, seats = play_scenario(crown, LORD_WINS_PLAIN, LORD_WINS_PLAIN_PLAYS, stake=stake)
    assert game.events == []
    assert by_role(game, seats) == (2 * stake, -stake, -stake)


def test_crown_has_no_spring_or_anti_spring(crown: GameRules) -> None:
    game, seats = play_scenario(crown, ANTI_SPRING, ANTI_SPRING_PLAYS, stake=3)
    assert event_names(game) == ["bomb"]
    assert by_role(game, seats) == (-12, 6, 6)


# ====================================================================== hubei-3p (000)


@pytest.mark.parametrize("stake", [1, 2, 3])
def test_hubei_landlord_wins_plus_two_base_each_farmer_minus_base(hubei: GameRules, stake: int) -> None:
    game, seats = play_scenario(hubei, LORD_WINS_PLAIN, LORD_WINS_PLAIN_PLAYS, stake=stake)
    assert game.winner == seats["L"] and game.landlord_won
    assert game.events == []  # a farmer played a card: no spring
    assert game.multiple == 1
    assert by_role(game, seats) == (2 * stake, -stake, -stake)


@pytest.mark.parametrize("stake", [1, 2, 3])
def test_hubei_led_bombs_do_not_double_but_spring_does(hubei: GameRules, stake: int) -> None:
    # 如果发牌时直接发出炸弹或火箭, 计分时不翻番; 地主把牌出完, 其余两家一张牌都没出, 分数×2
    game, seats = play_scenario(hubei, LORD_LEADS_BOMBS, LORD_LEADS_BOMBS_PLAYS, stake=stake)
    assert event_names(game) == ["spring"]
    assert game.multiple == 2
    assert by_role(game, seats) == (4 * stake, -2 * stake, -2 * stake)


def test_hubei_effective_bombs_double_and_a_loss_reverses(hubei: GameRules) -> None:
    # 5555 beats a single, 6666 beats 5555, the rocket beats 6666: three effective bombs;
    # the landlord played three hands, so no anti-spring
    game, seats = play_scenario(hubei, FARMERS_WIN_BOMBS, FARMERS_WIN_BOMBS_PLAYS, stake=3)
    assert not game.landlord_won
    assert sorted(event_names(game)) == ["bomb", "bomb", "rocket"]
    assert game.multiple == 8
    assert by_role(game, seats) == (-2 * 3 * 8, 3 * 8, 3 * 8)


@pytest.mark.parametrize("stake", [1, 3])
def test_hubei_anti_spring(hubei: GameRules, stake: int) -> None:
    # 两家中有一家出完牌, 而地主仅仅出过一手牌, 分数×2 (and the bomb that beat his single ×2)
    game, seats = play_scenario(hubei, ANTI_SPRING, ANTI_SPRING_PLAYS, stake=stake)
    assert game.winner == seats["F1"]
    assert sorted(event_names(game)) == ["anti_spring", "bomb"]
    assert game.multiple == 4
    assert by_role(game, seats) == (-8 * stake, 4 * stake, 4 * stake)


def test_led_and_effective_bombs_event_by_event(hubei: GameRules, crown: GameRules) -> None:
    hands = {"landlord": "3333 XD 44 55 66 77 88 TT JJ", "farmer1": "9999 " + "QQQQKKKKAAAA2"}
    for rules, expected in ((hubei, [0, 1, 2]), (crown, [1, 2, 3])):
        game = rules.new_game(3)
        seats = rig(game, **hands)
        take_landlord(game, 1)
        seen = []
        run(game, seats, [("L", "3333")])      # leads a bomb: 发牌 — not effective
        seen.append(len(game.events))
        run(game, seats, [("F1", "9999")])     # beats the bomb with a bomb: effective
        seen.append(len(game.events))
        run(game, seats, [("F2", None), ("L", "XD")])  # the rocket beats it: effective
        seen.append(len(game.events))
        assert seen == expected, rules.variant.name
        assert game.multiple == 2 ** expected[-1]
        assert all(e.factor == 2 for e in game.events)


def test_hubei_a_rocket_led_after_a_trick_is_not_effective(hubei: GameRules) -> None:
    hands = {"landlord": "3 XD 44 55 66 77 88 99 TT JJ Q", "farmer1": "QQQ KKKK AAAA 2222 9 T"}
    game = hubei.new_game(4)
    seats = rig(game, **hands)
    take_landlord(game, 2)
    run(game, seats, [("L", "3"), ("F1", None), ("F2", None)])
    assert game.leading and game.to_act == seats["L"]
    run(game, seats, [("L", "XD")])
    assert game.events == []
    run(game, seats, [("F1", None), ("F2", None), ("L", "44")])
    assert game.events == []


# ====================================================================== settlement as a formula


def expected_outcome(game: Game, effective_only: bool, springs: bool) -> tuple[int, int, float, list[int]]:
    """Landlord, stake, multiple and scores recomputed from the history alone, by the texts."""
    hist = game.history
    start = max((i + 1 for i, a in enumerate(hist) if a.kind == "redeal"), default=0)
    deal = hist[start:]
    first_play = next(i for i, a in enumerate(deal) if a.kind == "play")
    bids = [a for a in deal[:first_play] if a.kind == "bid"]
    top = max(bids, key=lambda a: a.value)  # type: ignore[arg-type, return-value]
    landlord, stake = top.seat, int(top.value)  # type: ignore[arg-type]
    bombs = 0
    played = [0, 0, 0]
    leading, passes, winner = True, 0, None
    for a in deal[first_play:]:
        if a.kind == "pass":
            passes += 1
            if passes == 2:
                leading, passes = True, 0
            continue
        cards = str(a.value)
        is_bomb = cards == "XD" or (len(cards) == 4 and len(set(cards)) == 1)
        if is_bomb and not (effective_only and leading):
            bombs += 1
        played[a.seat] += 1
        leading, passes, winner = False, 0, a.seat
    multiple = 2.0 ** bombs
    farmers = [s for s in range(3) if s != landlord]
    if springs:
        if winner == landlord and all(played[f] == 0 for f in farmers):
            multiple *= 2
        if winner != landlord and played[landlord] == 1:
            multiple *= 2
    sign = 1 if winner == landlord else -1
    unit = int(stake * multiple)
    scores = [0, 0, 0]
    scores[landlord] = 2 * sign * unit
    for f in farmers:
        scores[f] = -sign * unit
    return landlord, stake, multiple, scores


@pytest.mark.parametrize("spec, effective_only, springs", [("hubei-3p", True, True), ("crown-3p", False, False)])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**31), bots=st.sampled_from(["random", "heuristic", "mixed"]))
def test_scores_follow_the_text_formula(spec: str, effective_only: bool, springs: bool, seed: int,
                                        bots: str) -> None:
    rules = _rules(spec)
    table: dict[str, list[type[Any]]] = {"random": [RandomBot] * 3, "heuristic": [HeuristicBot] * 3,
                                         "mixed": [HeuristicBot, RandomBot, RandomBot]}
    kinds = table[bots]
    agents = [cls(seed + i) for i, cls in enumerate(kinds)]
    game = rules.new_game(seed)
    for _ in range(3000):
        if game.over:
            break
        seat = game.to_act
        assert seat is not None
        game.apply(agents[seat].act(game.view(seat), game.legal_actions()))
    assert game.over
    landlord, stake, multiple, scores = expected_outcome(game, effective_only, springs)
    assert (game.landlord, game.stake, game.multiple, game.scores) == (landlord, stake, multiple, scores)


_RULES: dict[str, GameRules] = {}


def _rules(spec: str) -> GameRules:
    if spec not in _RULES:
        _RULES[spec] = GameRules.load(spec)
    return _RULES[spec]
