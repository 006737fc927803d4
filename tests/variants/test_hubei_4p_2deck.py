"""湖北斗地主, two decks, four players (seeds/000 二幅牌, digest A2), as specs/hubei-4p-2deck.yaml.

The expectations are derived from the text, not from running the code:

* 游戏人数:4人; 游戏用牌:二副牌 → 108 cards; 随机留八张底牌,其他牌随机均分给四家 → 25 each and
  8 in the kitty; 将八张底牌交给地主,其他人看不到底牌 … 地主手中有33张牌.
* 牌套: 火箭 = 四王; 炸弹 = 四张或四张以上牌点相同的牌, 张数多的炸弹比张数小的炸弹大, 相同张数数值大
  的大 (2 仅次于王牌); 单牌; 对牌 (两张牌点相同: XX and DD too, the spec's joker-pairs reading);
  三张牌; 三张带一对 (888+99); 双顺 ≥3 pairs (334455, 88991010JJ); 三顺 ≥2 (333444,
  444555666777); 飞机带翅膀 = 三顺 + 同数量的对牌 (333444555+667799). There is no 单顺, no
  三带一 and no 四带二 in the two-deck list.
* 叫牌 as one deck, plus: 如果一个人手中有4个王或是3个炸弹并且在他之前没有人叫分,他至少叫1分.
* 计分: 地主胜 +3×底分, 其余三家各 −底分 (reversed on a loss); ×2 per 有效炸弹 (or rocket);
  亮牌 ×3; ×2 when 其余三家一张牌都没出; ×2 when a farmer goes out and 地主仅仅出过一手牌.

Seats are numbered in the order of play (逆时针), so the next seat is ``(seat + 1) % 4``.
"""

from __future__ import annotations

import itertools
from math import comb
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ddzrules import cards as C
from ddzrules.bots import HeuristicBot, RandomBot
from ddzrules.errors import PlayError
from ddzrules.rules.variant import Variant
from ddzrules.runtime import Action, Game, GameRules, MatchInfo
from ddzrules.simulate import play_game

N = 4
DECK = C.full_deck(decks=2)
JOKER_GROUP = (C.SMALL_JOKER, C.BIG_JOKER)


@pytest.fixture(scope="module")
def rules(_private_cache: None) -> GameRules:
    return GameRules.load("hubei-4p-2deck")


@pytest.fixture(scope="module")
def v(rules: GameRules) -> Variant:
    return rules.variant


# ====================================================================== helpers


def counts(cards: str) -> list[int]:
    return C.counts_of(C.parse_ranks(cards))


def bombs_of(hand: list[int]) -> int:
    """Ranks held four or more times."""
    return sum(1 for r in range(13) if hand[r] >= 4)


def deal(game: Game, given: dict[int, str], kitty: str | None = None, strict: bool = True) -> None:
    """Replace the deal of a fresh game: seat ``s`` holds the cards ``given[s]`` (filled up
    to 25 from the rest of the deck when fewer), the kitty ``kitty`` (or rest cards).
    The rest is spread where its rank is scarcest, so that (checked when ``strict``) no
    filled-in card makes a bomb or puts all four jokers together."""
    assert game.phase == "landlord" and not game.history, "deal into a fresh game only"
    left = list(DECK)
    dest: dict[int | str, list[int]] = {}
    for seat in range(N):
        dest[seat] = counts(given.get(seat, ""))
    dest["kitty"] = counts(kitty or "")
    size: dict[int | str, int] = {s: 25 for s in range(N)}
    size["kitty"] = 8
    for d, c in dest.items():
        assert sum(c) <= size[d], f"{d} given too many cards"
        for r in range(C.NUM_RANKS):
            left[r] -= c[r]
    assert min(left) >= 0, "the given hands use a card more often than two decks have it"
    base = {d: list(c) for d, c in dest.items()}

    def held(d: int | str, r: int) -> int:
        if r in JOKER_GROUP:
            return dest[d][C.SMALL_JOKER] + dest[d][C.BIG_JOKER]
        return dest[d][r]

    for r in range(C.NUM_RANKS):
        for _ in range(left[r]):
            open_ = [d for d in dest if sum(dest[d]) < size[d]]
            d = min(open_, key=lambda d: (held(d, r), sum(dest[d]) - size[d]))
            dest[d][r] += 1
    for d, hand in dest.items():
        added = [hand[r] - base[d][r] for r in range(C.NUM_RANKS)]
        if strict and any(added[:13]):
            assert all(hand[r] < 4 for r in range(13) if added[r]), f"the rest made a bomb in {d}"
        if strict and any(added[13:]):
            assert held(d, C.SMALL_JOKER) < 4, f"the rest made the rocket in {d}"
        assert sum(hand) == size[d]
    total = [sum(dest[d][r] for d in dest) for r in range(C.NUM_RANKS)]
    assert total == DECK
    game.hands = [dest[s] for s in range(N)]
    game.kitty = dest["kitty"]


def rig(game: Game, landlord: str, **farmers: str) -> dict[str, int]:
    """The first bidder will be landlord with the 33 cards ``landlord`` (the 25 lowest dealt
    to him, the 8 highest in the kitty); ``F1``/``F2``/``F3`` (the next seats in turn) hold
    at least the cards given. Returns the seats by role."""
    first = game.first_bidder
    seats = {"L": first, "F1": (first + 1) % N, "F2": (first + 2) % N, "F3": (first + 3) % N}
    lord_cards = C.deck_list(counts(landlord))
    assert len(lord_cards) == 33
    given = {seats["L"]: C.counts_to_string(C.counts_of(lord_cards[:25]))}
    for role, cards in farmers.items():
        given[seats[role]] = cards
    deal(game, given, C.counts_to_string(C.counts_of(lord_cards[25:])), strict=False)
    return seats


def take_landlord(game: Game, stake: int, show: bool = False) -> None:
    """The first bidder bids ``stake``, the others pass; he shows his hand (亮牌) or not."""
    first = game.to_act
    assert first is not None
    game.apply(Action(first, "bid", stake))
    while game.phase == "landlord":
        game.apply(Action(game.to_act, "pass"))  # type: ignore[arg-type]
    assert game.landlord == first and game.stake == stake
    assert game.phase == "declare" and game.to_act == first
    assert {a.kind for a in game.legal_actions()} == {"decline", "show"}
    game.apply(Action(first, "show" if show else "decline"))
    assert game.phase == "play" and game.to_act == first


def run(game: Game, seats: dict[str, int], plays: list[tuple[str, str | None]]) -> None:
    for role, cards in plays:
        assert game.to_act == seats[role], f"expected {role} to act before {cards}"
        game.play(seats[role], cards)


def others_pass(leader: str) -> list[tuple[str, str | None]]:
    order = ["L", "F1", "F2", "F3"]
    i = order.index(leader)
    return [(order[(i + k) % 4], None) for k in (1, 2, 3)]


def by_role(game: Game, seats: dict[str, int]) -> tuple[int, ...]:
    assert game.scores is not None
    return tuple(game.scores[seats[r]] for r in ("L", "F1", "F2", "F3"))


# ====================================================================== deck and deal


def test_the_deck_has_108_cards(v: Variant) -> None:
    assert sum(v.rules.deck) == 108
    assert v.rules.deck == [8] * 13 + [2, 2]   # eight of each rank, two small and two big jokers


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_deal_four_hands_of_25_and_a_kitty_of_8(rules: GameRules, seed: int) -> None:
    game = rules.new_game(seed)
    assert game.players == 4
    assert [sum(h) for h in game.hands] == [25] * 4
    assert sum(game.kitty) == 8
    assert [sum(h[r] for h in game.hands) + game.kitty[r] for r in range(C.NUM_RANKS)] == DECK
    for s in range(4):
        view = game.view(s)
        assert len(view.hand) == 25 and view.kitty is None
        assert view.hand_sizes == [25] * 4


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_kitty_goes_to_the_landlord_unseen(rules: GameRules, seed: int) -> None:
    game = rules.new_game(seed)
    kitty = C.counts_to_string(game.kitty)
    lord = game.to_act
    assert lord is not None
    before = C.pack(game.hands[lord])
    take_landlord(game, 2)
    # 地主手中有33张牌, 另三位玩家手中只有25张牌
    assert sum(game.hands[lord]) == 33
    assert C.pack(game.hands[lord]) == before + C.pack_cards(kitty)
    for s in range(4):
        view = game.view(s)
        assert view.hand_sizes[lord] == 33
        if s != lord:
            # 其他人看不到底牌
            assert view.kitty is None
            assert view.hand_sizes[s] == 25
            assert kitty not in str(view.extra)
            assert view.shown_hands == {}


def test_the_landlord_leads_and_play_goes_round_four_seats(rules: GameRules) -> None:
    game = rules.new_game(4)
    take_landlord(game, 1)
    lord = game.landlord
    assert lord is not None
    lowest = next(r for r in range(15) if game.hands[lord][r])
    game.play(lord, C.RANKS[lowest])
    for k in (1, 2, 3):
        assert game.to_act == (lord + k) % 4
        game.play((lord + k) % 4, None)
    assert game.to_act == lord and game.leading   # three passes end the trick


# ====================================================================== combos


LEGAL = [
    ("3", "single"), ("2", "single"), ("X", "single"), ("D", "single"),
    ("33", "pair"), ("22", "pair"),
    ("XX", "pair"), ("DD", "pair"),                  # reading joker-pairs: 两张牌点相同
    ("888", "trio"), ("222", "trio"),
    ("88899", "trio_pair"), ("333XX", "trio_pair"), ("22233", "trio_pair"),
    ("334455", "pair_chain"), ("88991010JJ", "pair_chain"), ("QQKKAA", "pair_chain"),
    ("33445566778899TTJJQQKKAA", "pair_chain"),
    ("333444", "trio_chain"), ("444555666777", "trio_chain"), ("KKKAAA", "trio_chain"),
    ("3334445566", "plane_pairs"), ("333444555667799", "plane_pairs"),
    ("333444XXDD", "plane_pairs"), ("KKKAAA2233", "plane_pairs"),
    ("4444", "bomb"), ("44444", "bomb"), ("444444", "bomb"), ("4444444", "bomb"), ("44444444", "bomb"),
    ("2222", "bomb"), ("22222222", "bomb"),
    ("XXDD", "rocket"),
]

ILLEGAL = [
    "8889",          # no 三带一
    "34567",         # no 单顺
    "3456789TJQKA",
    "3344",          # a pair chain needs three pairs
    "KKAA22",        # no 2 in a chain
    "AAA222",
    "5555+3+8",      # no 四带二 (two singles)
    "4444+55+77",    # no 四带二 (two pairs)
    "33334444",      # two fours are no combo either
    "3334445555",    # the wing pairs must differ (5555 is a bomb, not two pairs)
    "33344455",      # as many pairs as trios
    "333444555+6677",
    "3334445",       # no single wings in two decks
    "XD",            # one small and one big joker: no pair, no rocket
    "XXD", "XDD",    # three jokers: not the rocket (四王)
    "8888XX",
    "222XD",         # XD is no pair
]


@pytest.mark.parametrize("cards,combo", LEGAL)
def test_legal_combos(v: Variant, cards: str, combo: str) -> None:
    readings = v.classify(cards)
    assert [m.combo for m in readings] == [combo]


@pytest.mark.parametrize("cards", ILLEGAL)
def test_illegal_combos(v: Variant, cards: str) -> None:
    assert v.classify(cards) == ()


def test_combo_catalogue(v: Variant) -> None:
    assert set(v.combo_names) == {"single", "pair", "trio", "trio_pair", "pair_chain", "trio_chain",
                                  "plane_pairs", "bomb", "rocket"}


COMPARE = [
    # (a, b, a beats b, b beats a)
    ("XX", "22", True, False),            # the joker pairs rank above 22
    ("DD", "XX", True, False),
    ("D", "X", True, False),
    ("445566", "334455", True, False),
    ("33445566", "445566", False, False),  # the same combo and card count only
    ("88899", "777XX", True, False),      # trio+pair compares by the trio
    ("444555", "333444", True, False),
    ("444555666", "333444", False, False),
    ("4445556677", "3334448899", True, False),
    # bombs: more cards beat fewer; equal sizes by rank, 2 highest
    ("33333", "2222", True, False),
    ("22222", "33333", True, False),
    ("2222", "AAAA", True, False),
    ("3333333", "222222", True, False),
    ("33333333", "2222222", True, False),
    ("44444444", "33333333", True, False),
    # a bomb beats every other combo
    ("3333", "333444555667799", True, False),
    ("3333", "DD", True, False),
    # the rocket (四王) beats everything, the largest bomb included
    ("XXDD", "22222222", True, False),
    ("XXDD", "88888888", True, False),
    ("XXDD", "3", True, False),
]


@pytest.mark.parametrize("a,b,ab,ba", COMPARE)
def test_compare(v: Variant, a: str, b: str, ab: bool, ba: bool) -> None:
    assert v.beats(a, b) is ab
    assert v.beats(b, a) is ba


def test_bomb_order_is_size_then_rank(v: Variant) -> None:
    bombs = [r * n for n in range(4, 9) for r in "3456789TJQKA2"]
    moves = [v.classify(b)[0] for b in bombs]
    for i, a in enumerate(moves):
        for j, b in enumerate(moves):
            assert a.beats(b) is (i > j), (a.cards, b.cards)


# ====================================================================== census by hand


def test_census_of_the_small_families(v: Variant) -> None:
    census = v.census().by_combo
    ranks = 13
    chain_ranks = 12                            # 3..A
    longest = 33                                # the landlord's hand
    assert census["single"] == 15               # 13 ranks, X, D
    assert census["pair"] == 15                 # 13 ranks, XX, DD
    assert census["trio"] == 13
    # pair chains of 3..12 pairs (24 cards at most: within 33)
    assert census["pair_chain"] == sum(chain_ranks - n + 1 for n in range(3, 13)) == 55
    # trio chains of 2..11 trios (12 trios would be 36 cards)
    assert census["trio_chain"] == sum(chain_ranks - n + 1 for n in range(2, longest // 3 + 1)) == 65
    assert census["bomb"] == ranks * 5 == 65    # 13 ranks × sizes 4..8
    assert census["rocket"] == 1
    # a trio and a pair of another rank (a joker pair included): 13 × 14
    assert census["trio_pair"] == 13 * 14 == 182
    # n trios in a chain and n distinct pairs outside it (15 pair ranks − n): 5n ≤ 33
    planes = sum((chain_ranks - n + 1) * comb(15 - n, n) for n in range(2, longest // 5 + 1))
    assert census["plane_pairs"] == planes == 8632
    assert set(census) == {"single", "pair", "trio", "pair_chain", "trio_chain", "bomb", "rocket",
                           "trio_pair", "plane_pairs"}


# ====================================================================== mandatory bids


def opening_kinds(game: Game) -> list[tuple[str, object]]:
    return [(a.kind, a.value) for a in game.legal_actions()]


FORCED = [
    "XXDD",                        # 4个王
    "3333 4444 5555",              # 3个炸弹
    "3333 44444 22222222",         # bombs of any size; 8 of a rank is one bomb
]
FREE = [
    "XXD 3333 4444",               # three jokers are not the rocket; two bombs
    "3333 44444444",               # two bombs (reading: 8 of a rank counts once)
    "",                            # a hand without bombs
]


@pytest.mark.parametrize("strong", FORCED)
def test_a_strong_hand_may_not_pass_when_nobody_has_bid(rules: GameRules, strong: str) -> None:
    game = rules.new_game(31)
    first = game.first_bidder
    deal(game, {first: strong})
    assert opening_kinds(game) == [("bid", 1), ("bid", 2), ("bid", 3)]
    with pytest.raises(PlayError):
        game.apply(Action(first, "pass"))
    assert game.to_act == first and not game.history


@pytest.mark.parametrize("strong", FREE)
def test_other_hands_may_pass(rules: GameRules, strong: str) -> None:
    game = rules.new_game(31)
    first = game.first_bidder
    deal(game, {first: strong})
    assert bombs_of(game.hands[first]) < 3
    assert opening_kinds(game) == [("pass", None), ("bid", 1), ("bid", 2), ("bid", 3)]


@pytest.mark.parametrize("strong", FORCED)
def test_after_passes_nobody_has_bid_so_he_must_bid(rules: GameRules, strong: str) -> None:
    game = rules.new_game(32)
    first = game.first_bidder
    third = (first + 2) % 4
    deal(game, {third: strong})
    assert all(bombs_of(game.hands[s]) < 3 for s in (first, (first + 1) % 4))
    game.apply(Action(first, "pass"))
    game.apply(Action((first + 1) % 4, "pass"))
    assert game.to_act == third
    assert opening_kinds(game) == [("bid", 1), ("bid", 2), ("bid", 3)]


@pytest.mark.parametrize("strong", FORCED)
def test_after_a_bid_he_may_pass(rules: GameRules, strong: str) -> None:
    game = rules.new_game(33)
    first = game.first_bidder
    second = (first + 1) % 4
    deal(game, {second: strong})
    game.apply(Action(first, "bid", 1))
    assert opening_kinds(game) == [("pass", None), ("bid", 2), ("bid", 3)]
    game.apply(Action(second, "pass"))
    game.apply(Action((first + 2) % 4, "pass"))
    game.apply(Action((first + 3) % 4, "pass"))
    assert game.landlord == first and game.stake == 1


def test_bidding_once_each_and_3_ends_it(rules: GameRules) -> None:
    game = rules.new_game(34)
    first = game.first_bidder
    deal(game, {})
    game.apply(Action(first, "bid", 1))
    game.apply(Action((first + 1) % 4, "pass"))
    game.apply(Action((first + 2) % 4, "bid", 3))
    # the fourth player has no chance: the 3 ends bidding
    assert game.landlord == (first + 2) % 4 and game.stake == 3


def test_all_pass_redeals(rules: GameRules) -> None:
    game = rules.new_game(35)
    first = game.first_bidder
    deal(game, {})
    for k in range(4):
        game.apply(Action((first + k) % 4, "pass"))
    assert len(game.deals) == 2 and game.phase == "landlord" and game.landlord is None
    assert [sum(h) for h in game.hands] == [25] * 4


# ====================================================================== scoring

SPRING_LORD = "333444555666777888 99TTJJQQKKAA 222"
SPRING_PLAYS = (
    [("L", "333444555666777888")] + others_pass("L")
    + [("L", "99TTJJQQKKAA")] + others_pass("L")
    + [("L", "222")]
)


@pytest.mark.parametrize("stake", [1, 2, 3])
@pytest.mark.parametrize("show", [False, True])
def test_spring_and_show_hand(rules: GameRules, stake: int, show: bool) -> None:
    # 地主把牌出完,其余三家一张牌都没出,分数×2; 地主亮牌打,分数×3
    game = rules.new_game(40)
    seats = rig(game, SPRING_LORD)
    take_landlord(game, stake, show=show)
    if show:
        for role in ("F1", "F2", "F3"):
            assert game.view(seats[role]).shown_hands == {seats["L"]: game.hand_string(seats["L"])}
    run(game, seats, SPRING_PLAYS)
    assert game.over and game.landlord_won
    multiple = 2 * (3 if show else 1)
    assert sorted(e.name for e in game.events) == sorted(["spring"] + (["show_hand"] if show else []))
    assert game.multiple == multiple
    # 地主胜: 地主得 3 × 底分, 其余三家各得 −底分 (× the multiple)
    unit = stake * multiple
    assert by_role(game, seats) == (3 * unit, -unit, -unit, -unit)


EFFECTIVE_LORD = "3 XXDD 66666666 777888999TTT JJQQKK AA"
EFFECTIVE_PLAYS = (
    [("L", "3"), ("F1", "2222"), ("F2", "55555"), ("F3", None), ("L", "XXDD")] + others_pass("L")
    + [("L", "66666666")] + others_pass("L")          # led: 发牌 — not effective
    + [("L", "777888999TTT")] + others_pass("L")
    + [("L", "JJQQKK")] + others_pass("L")
    + [("L", "AA")]
)


def test_effective_bombs_and_rocket_double_led_ones_do_not(rules: GameRules) -> None:
    game = rules.new_game(41)
    seats = rig(game, EFFECTIVE_LORD, F1="2222", F2="55555")
    take_landlord(game, 2)
    run(game, seats, EFFECTIVE_PLAYS)
    assert game.over and game.landlord_won
    # 2222 beats a single, 55555 beats 2222 (more cards), 四王 beats 55555: three effective;
    # 66666666 opens a trick; two farmers played: no spring
    assert [e.name for e in game.events] == ["bomb", "bomb", "rocket"]
    assert game.multiple == 8
    assert by_role(game, seats) == (3 * 2 * 8, -16, -16, -16)


ANTI_SPRING_F1 = "2222 444555666777 888999TTT"
ANTI_SPRING_LORD = "3 33 JJJJ QQQQ KKKK AAAA XXDD 5555 66666 7"
ANTI_SPRING_PLAYS = (
    [("L", "3"), ("F1", "2222"), ("F2", None), ("F3", None), ("L", None)]
    + [("F1", "444555666777")] + others_pass("F1")
    + [("F1", "888999TTT")]
)


@pytest.mark.parametrize("stake", [1, 3])
def test_anti_spring_and_a_loss_reverses(rules: GameRules, stake: int) -> None:
    # 其他三家中有一家出完牌,而地主仅仅出过一手牌,分数×2 (and the effective bomb ×2)
    game = rules.new_game(42)
    seats = rig(game, ANTI_SPRING_LORD, F1=ANTI_SPRING_F1)
    take_landlord(game, stake)
    run(game, seats, ANTI_SPRING_PLAYS)
    assert game.over and game.winner == seats["F1"] and not game.landlord_won
    assert sorted(e.name for e in game.events) == ["anti_spring", "bomb"]
    assert game.multiple == 4
    # 地主败: 地主得 −3 × 底分, 其余三家各得 底分
    unit = stake * 4
    assert by_role(game, seats) == (-3 * unit, unit, unit, unit)


def test_show_hand_with_a_loss(rules: GameRules) -> None:
    game = rules.new_game(43)
    seats = rig(game, ANTI_SPRING_LORD, F1=ANTI_SPRING_F1)
    take_landlord(game, 2, show=True)
    run(game, seats, ANTI_SPRING_PLAYS)
    assert game.multiple == 3 * 2 * 2
    assert by_role(game, seats) == (-3 * 24, 24, 24, 24)


# ====================================================================== whole games


def expected_scores(game: Game) -> tuple[float, list[int]]:
    """The multiple and scores recomputed from the history alone, by the text."""
    hist = game.history
    start = max((i + 1 for i, a in enumerate(hist) if a.kind == "redeal"), default=0)
    deal_actions = hist[start:]
    bids = [a for a in deal_actions if a.kind == "bid"]
    top = max(bids, key=lambda a: a.value)  # type: ignore[arg-type, return-value]
    landlord, stake = top.seat, int(top.value)  # type: ignore[arg-type]
    shows = sum(1 for a in deal_actions if a.kind == "show")
    plays = [a for a in deal_actions if a.kind in ("play", "pass")]
    bombs, played, leading, passes, winner = 0, [0] * 4, True, 0, None
    for a in plays:
        if a.kind == "pass":
            passes += 1
            if passes == 3:
                leading, passes = True, 0
            continue
        assert a.move is not None
        cards = a.move.cards
        is_bomb = cards == "XXDD" or (len(cards) >= 4 and len(set(cards)) == 1)
        if is_bomb and not leading:
            bombs += 1
        played[a.seat] += 1
        leading, passes, winner = False, 0, a.seat
    multiple = 2.0 ** bombs * 3.0 ** shows
    farmers = [s for s in range(4) if s != landlord]
    if winner == landlord and all(played[f] == 0 for f in farmers):
        multiple *= 2
    if winner != landlord and played[landlord] == 1:
        multiple *= 2
    sign = 1 if winner == landlord else -1
    unit = round(stake * multiple)
    return multiple, [3 * sign * unit if s == landlord else -sign * unit for s in range(4)]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**31), kinds=st.sampled_from(["heuristic", "random", "mixed"]))
def test_all_bot_games_end_and_settle_zero_sum(rules: GameRules, seed: int, kinds: str) -> None:
    table: dict[str, list[Any]] = {"heuristic": [HeuristicBot] * 4, "random": [RandomBot] * 4,
             "mixed": [HeuristicBot, RandomBot, HeuristicBot, RandomBot]}
    agents = [cls(seed + i) for i, cls in enumerate(table[kinds])]
    game = play_game(rules, agents, seed)
    assert game.over and game.scores is not None
    assert sum(game.scores) == 0
    assert not any(game.hands[game.winner])                  # type: ignore[index]
    multiple, scores = expected_scores(game)
    assert game.multiple == multiple
    assert game.scores == scores


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_fixed_seed_bot_games(rules: GameRules, seed: int) -> None:
    game = play_game(rules, [HeuristicBot(seed + i) for i in range(4)], seed)
    assert game.over and game.scores is not None and sum(game.scores) == 0
    lord = game.landlord
    assert lord is not None
    # 108 cards: what was played plus what is left
    played = sum(len(m.cards) for p in game.played for m in p)
    assert played + sum(sum(h) for h in game.hands) == 108


def test_the_first_bidder_rotates_round_four_seats(rules: GameRules) -> None:
    # 第一局首个叫牌人由系统随机指定,以后每局按逆时针顺序轮流开始叫牌
    firsts = [rules.new_game(500 + i, MatchInfo(i, 77)).first_bidder for i in range(9)]
    assert all(b == (a + 1) % 4 for a, b in itertools.pairwise(firsts))
    assert {rules.new_game(5, MatchInfo(0, m)).first_bidder for m in range(60)} == {0, 1, 2, 3}


def test_counts_given_as_a_bare_list_are_refused_not_misread() -> None:
    """Game.hands holds counts by rank; Variant's doors read a bare list of ints as rank
    indices. The counts of 3456789 listed 18 plays of 3333333344444444 here (two decks hold
    eight 3s), without a word. A bare list that could be either is refused, saying how to
    pass each; typed, each reading gives the plays of its own cards."""
    import pytest

    from ddzrules import Counts, Ranks, load_variant
    from ddzrules import cards as C
    from ddzrules.errors import CardError
    from ddzrules.runtime import GameRules

    v = load_variant("hubei-4p-2deck")
    counts = C.counts_of(C.parse_ranks("3456789"))
    want = [m.cards for m in v.legal_moves("3456789")]
    # what the counts name read as rank indices, the misreading a bare list allowed: the 18
    # plays of 3333333344444444
    misread = [m.cards for m in v.legal_moves(Ranks(counts))]
    assert len(misread) == 18 and set("".join(misread)) == {"3", "4"} and misread != want
    for door in (lambda cards: v.legal_moves(cards), lambda cards: v.legal_moves("3", after=cards),
                 lambda cards: v.classify(cards), lambda cards: v.reading(cards),
                 lambda cards: v.beats(cards, "3"), lambda cards: v.beats("3", cards)):
        with pytest.raises(CardError, match="could be counts by rank .* or a rank index per card") as info:
            door(counts)
        assert "Counts(" in str(info.value) and "Ranks(" in str(info.value)
        with pytest.raises(CardError, match="could be counts"):
            door(tuple(counts))
    assert [m.cards for m in v.legal_moves(Counts(counts))] == want
    assert [m.cards for m in v.legal_moves(Ranks(C.parse_ranks("3456789")))] == want
    assert [m.cards for m in v.legal_moves(Counts(counts[:7]))] == want  # the higher ranks at 0
    # a game's own hand, as the game holds it
    game = GameRules.load("hubei-4p-2deck").new_game(seed=3)
    hand = game.hands[0]
    as_text = C.counts_to_string(hand)
    assert [m.cards for m in v.legal_moves(Counts(hand))] == [m.cards for m in v.legal_moves(as_text)]
    # a bare list is refused whatever its length (issue 45): one longer than 15, which could
    # only be rank indices, too, so that no caller learns to pass bare lists
    many = C.parse_ranks(as_text)
    assert len(many) > 15
    with pytest.raises(CardError, match="could be counts by rank .* or a rank index per card"):
        v.legal_moves(many)
    assert [m.cards for m in v.legal_moves(Ranks(many))] == [m.cards for m in v.legal_moves(as_text)]
    for other in (None, {"3": 1}, b"3456789", iter(counts)):
        with pytest.raises(CardError, match=r"a card string .*Counts.* or ddzrules\.Ranks"):
            v.legal_moves(other)  # type: ignore[arg-type]
    for bad in ([16], [1] * 16, [-1]):
        with pytest.raises(CardError):
            Counts(bad)
