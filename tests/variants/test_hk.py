"""HOYA (Hong Kong) rules, 叫地主 by points (seeds/003, digest D), as specs/hk.yaml reads them.

Every expectation comes from the rule text or from the spec's stated ``readings:``;
the quoted Chinese is the text each case is taken from. Seats are numbered in the
order of play (逆時針), so the next seat is ``(seat + 1) % 3``.
"""

from __future__ import annotations

import pytest

import ddzrules
from ddzrules import DdzError, parse_cards
from ddzrules import cards as C
from ddzrules.bots import HeuristicBot, RandomBot
from ddzrules.errors import PlayError
from ddzrules.rules.variant import Variant
from ddzrules.runtime import Action, Game, GameRules


@pytest.fixture(scope="module")
def hk(_private_cache: None) -> Variant:
    return ddzrules.load_variant("hk")


@pytest.fixture(scope="module")
def rules(_private_cache: None) -> GameRules:
    return GameRules.load("hk")


# ================================================================== combos

# (play as the text writes it, combo, rank of the main group, chain length)
LEGAL = [
    # 單張: 大王 > 小王 > 2 > A > … > 3
    ("3", "single", "3", 1),
    ("2", "single", "2", 1),
    ("小王", "single", "X", 1),
    ("大王", "single", "D", 1),
    # 一對: 22 > … > 33
    ("33", "pair", "3", 1),
    ("22", "pair", "2", 1),
    # 三不帶(三帶零),即三條,例如222,AAA,666,888
    ("222", "trio", "2", 1),
    ("AAA", "trio", "A", 1),
    ("666", "trio", "6", 1),
    ("888", "trio", "8", 1),
    # 三帶一,即三條+一隻,例如222 3,AAA J,666 9
    ("222 3", "trio_single", "2", 1),
    ("AAA J", "trio_single", "A", 1),
    ("666 9", "trio_single", "6", 1),
    ("333 大王", "trio_single", "3", 1),                 # reading trio-kinds: any single
    # 三帶二,即三條+一對,例如222 33,AAA JJ
    ("222 33", "trio_pair", "2", 1),
    ("AAA JJ", "trio_pair", "A", 1),
    # 單順: 最少5張牌,最多12張牌(3⋯A) 例如:345678,78910JQ,345678910JQKA
    ("345678", "straight", "8", 6),
    ("78910JQ", "straight", "Q", 6),
    ("345678910JQKA", "straight", "A", 12),
    ("34567", "straight", "7", 5),
    # 連對: 最少連3對,最多連10對(33⋯QQ) 例如:77 88 99,44 55 66,33 … QQ
    ("77 88 99", "pair_chain", "9", 3),
    ("44 55 66", "pair_chain", "6", 3),
    ("33 44 55 66 77 88 99 1010 JJ QQ", "pair_chain", "Q", 10),
    # 四帶二: 8888 57,JJJJ 77 (兩隻可相同),2222 QQ AA
    ("8888 57", "four_two_singles", "8", 1),
    ("JJJJ 77", "four_two_singles", "J", 1),
    ("5555 XD", "four_two_singles", "5", 1),            # reading four-with-two: any two cards
    ("2222 QQ AA", "four_two_pairs", "2", 1),
    # 飛機不帶翼: 333 444,444 555,777 888 999,777 888 999 101010 JJJ QQQ
    ("333 444", "plane", "4", 2),
    ("444 555", "plane", "5", 2),
    ("777 888 999", "plane", "9", 3),
    ("777 888 999 101010 JJJ QQQ", "plane", "Q", 6),
    # 飛機帶小翼: 333 444 56,777 888 34
    ("333 444 56", "plane_small_wings", "4", 2),
    ("777 888 34", "plane_small_wings", "8", 2),
    ("333444 2X", "plane_small_wings", "4", 2),          # reading plane-wings: wings may be 2s, jokers
    # 飛機帶大翼: 101010 JJJ QQQ 33 55 77,666 777 888 33 99 JJ
    ("101010 JJJ QQQ 33 55 77", "plane_big_wings", "Q", 3),
    ("666 777 888 33 99 JJ", "plane_big_wings", "8", 3),
    ("333444 22AA", "plane_big_wings", "4", 2),
    # 炸彈: 9999,QQQQ; 最大的炸彈是2222
    ("9999", "bomb", "9", 1),
    ("QQQQ", "bomb", "Q", 1),
    ("2222", "bomb", "2", 1),
    # 火箭: 大王+小王
    ("小王大王", "rocket", "D", 1),
]


@pytest.mark.parametrize("play,combo,rank,length", LEGAL, ids=[p for p, *_ in LEGAL])
def test_legal(hk, play, combo, rank, length):
    cards = parse_cards(play)
    readings = hk.classify(cards)
    assert [(m.combo, m.rank_name, m.length) for m in readings] == [(combo, rank, length)]
    assert readings[0].is_bomb is (combo in ("bomb", "rocket"))


ILLEGAL = [
    "3456789TJQKA2",             # 單順 … 不能有2: a 13-card straight would need the 2
    "TJQKA2",                    # 不能有2
    "23456",                     # no wrap round the 2
    "KA234",
    "33445566778899TTJJQQKK",    # 11 pairs: 最多連10對
    "KKAA22",                    # 連對 … 不能有2
    "3344",                      # 最少連3對
    "AAA222",                    # 其三條部分都不能有2
    "KKKAAA222",
    "3333 4",                    # four + one card
    "333 45",                    # 三帶 carries one card or one pair
    "333 4455",
    "333444 5 66",               # wings: all singles or all pairs
    "333444 55",                 # reading plane-wings: two equal single wings
    "33334444",                  # 太空梭 (reading space-shuttle): played as two bombs
    "4444 5555 36 JQ",
    "AAAA KKKK 66 99 33 55",
    "3333 55 55",                # 四條加兩對 of one rank would be a second four
    "XD 3",                      # the rocket carries nothing
    "2X",                        # 一隻大王不能打一對: two different cards are no pair
]


@pytest.mark.parametrize("play", ILLEGAL)
def test_illegal(hk, play):
    assert hk.classify(parse_cards(play)) == ()


def test_no_straight_longer_than_twelve(hk):
    # 最多12張牌(3⋯A): from every card of 3..2 plus both jokers, no straight exceeds 12
    hand = "3456789TJQKA2XD"
    straights = [m for m in hk.legal_moves(hand).moves if m.combo == "straight"]
    assert max(m.length for m in straights) == 12
    assert {m.cards for m in straights if m.length == 12} == {"3456789TJQKA"}


def test_every_combo_of_the_text_and_no_other(hk):
    assert sorted(hk.combo_names) == sorted([
        "single", "pair", "trio", "trio_single", "trio_pair", "straight", "pair_chain", "plane",
        "plane_small_wings", "plane_big_wings", "four_two_singles", "four_two_pairs", "bomb", "rocket"])


# ================================================================== comparison

# (a, b, a beats b, b beats a)
COMPARE = [
    ("4", "3", True, False),               # 上家出3,下家必須出4或以上
    ("D", "X", True, False),               # 大王 > 小王 > 2
    ("X", "2", True, False),
    ("44", "33", True, False),             # 上家出33,必須出44或以上
    ("D", "22", False, False),             # 一隻大王不能打一對
    ("9993", "888A", True, False),         # 只以三條的部分比大小
    ("222 3", "AAA J", True, False),
    ("444", "333 5", False, False),        # 上家出三帶一,必須跟三帶一;上家出三不帶,必須出三不帶
    ("444 55", "333 6", False, False),
    ("444 55", "333 66", True, False),
    ("456789", "345678", True, False),     # 上家出6隻,必須跟6隻
    ("45678", "345678", False, False),
    ("445566", "334455", True, False),     # 上家出3對,必須跟3對
    ("44556677", "334455", False, False),
    ("JJJJ 77", "8888 57", True, False),   # 如上家出四條加兩隻必須跟四條加兩隻
    ("2222 QQ AA", "3333 44 55", True, False),
    ("JJJJ 77", "3333 44 55", False, False),
    ("444 555", "333 444", True, False),   # 飛機不帶翼必須跟飛機不帶翼
    ("444 555 67", "333 444 56", True, False),
    ("444 555 66 77", "333 444 55 66", True, False),
    ("777 888 999 345", "333 444 555 666", False, False),   # plane kinds, same 12 cards
    ("333 444 555 666 777 89TJQ", "888 999 TTT JJJ 33 44 55 66", False, False),  # 20 cards each
    ("3333", "2222 QQ AA", True, False),   # 四帶二效果不等同炸彈
    ("3333", "JJJJ 77", True, False),
    ("3333", "345678910JQKA", True, False),  # 炸彈大於一般牌型
    ("4444", "3333", True, False),         # 4444 > 3333
    ("2222", "AAAA", True, False),         # 最大的炸彈是2222
    ("XD", "2222", True, False),           # 王炸大於所有牌型
]


@pytest.mark.parametrize("a,b,ab,ba", COMPARE, ids=[f"{a}~{b}" for a, b, *_ in COMPARE])
def test_compare(hk, a, b, ab, ba):
    assert hk.beats(parse_cards(a), parse_cards(b)) is ab
    assert hk.beats(parse_cards(b), parse_cards(a)) is ba


def test_2222_is_the_highest_bomb_and_the_rocket_beats_everything(hk):
    bombs = [r * 4 for r in "3456789TJQKA"]
    assert all(hk.beats("2222", b) and not hk.beats(b, "2222") for b in bombs)
    for play in [p for p, *_ in LEGAL if p != "小王大王"]:
        assert hk.beats("XD", parse_cards(play))
        assert not hk.beats(parse_cards(play), "XD")


def test_compare_needs_combos(hk):
    with pytest.raises(DdzError):
        hk.beats("33334444", "3333")


# ================================================================== 叫地主 by points


def nxt(seat: int, k: int = 1) -> int:
    return (seat + k) % 3


def choose(game: Game, value: int | None) -> int:
    """The seat to act chooses ``value`` points (None or 0: 放棄); returns the seat."""
    seat = game.to_act
    assert seat is not None
    game.apply(Action(seat, "pass") if not value else Action(seat, "bid", value))
    return seat


def test_the_face_up_card_holder_chooses_first(rules):
    # 摸到這張已翻出的牌的一方可以優先選擇當地主 … 摸到明牌的玩家可以在0到3分中選一個分值
    for seed in range(30):
        game = rules.new_game(seed)
        assert game.face_up is not None
        holder, rank = game.face_up
        assert game.to_act == game.first_bidder == holder
        assert game.hands[holder][rank] >= 1           # reading face-up-card: dealt, never in the kitty
        assert game.public["face_up"] == {"seat": holder, "card": C.RANKS[rank]}
        assert sorted((a.kind, a.value) for a in game.legal_actions()) == \
            [("bid", 1), ("bid", 2), ("bid", 3), ("pass", None)]


# each choice in turn from the face-up holder (0 = 放棄); the landlord as an offset from
# the holder and the stake, or None for a reshuffle
BIDDING = [
    ([3], 0, 3),                     # 如果選3分則立即成為地主
    ([1, 3], 1, 3),                  # the last player is never asked
    ([2, 0, 3], 2, 3),
    ([1, 0, 0], 0, 1),
    ([1, 2, 0], 1, 2),
    ([1, 0, 2], 2, 2),               # 選擇大於前面選擇的分值
    ([0, 0, 1], 2, 1),
    ([0, 2, 0], 1, 2),
    ([0, 0, 0], None, None),         # 若所有玩家都放棄,則本輪結束,重新洗牌
]


@pytest.mark.parametrize("choices,landlord,stake", BIDDING, ids=[str(c) for c, *_ in BIDDING])
def test_bidding(rules, choices, landlord, stake):
    game = rules.new_game(11)
    first = game.first_bidder
    seats = [choose(game, c) for c in choices]
    assert seats == [nxt(first, k) for k in range(len(choices))]     # 按逆時針的順序
    if landlord is None:
        assert game.deal_number == 1 and game.phase == "landlord"
        assert game.redeal_reasons == ["every player passed"]
        assert game.history[-1].kind == "redeal"
        assert game.to_act == game.first_bidder == game.face_up[0]   # a new card turned face up
        return
    assert game.phase == "play"
    assert game.landlord == nxt(first, landlord)
    assert game.stake == stake
    assert game.to_act == game.landlord                               # 地主首先出任一牌型
    assert sum(game.hands[game.landlord]) == 20                       # the three 地主牌 are his
    assert game.kitty_visible                                         # and shown


def test_only_higher_choices(rules):
    game = rules.new_game(11)
    choose(game, 2)
    assert sorted(a.value or 0 for a in game.legal_actions()) == [0, 3]
    with pytest.raises(PlayError):
        game.apply(Action(game.to_act, "bid", 1))
    with pytest.raises(PlayError):
        game.apply(Action(game.to_act, "bid", 2))


def test_reshuffle_deals_new_cards(rules):
    game = rules.new_game(11)
    before = game.deals[0]
    for _ in range(3):
        choose(game, 0)
    assert len(game.deals) == 2 and game.deals[1] != before


# ================================================================== stake


def play_out(game: Game, seed: int) -> None:
    bots = [HeuristicBot(seed), RandomBot(seed + 1), RandomBot(seed + 2)]
    while not game.over:
        seat = game.to_act
        assert seat is not None
        game.apply(bots[seat].act(game.view(seat), game.legal_actions()))


def test_stake_is_points_times_two_per_bomb_and_rocket(rules):
    # 分值代表底注需要乘上的倍數; 炸彈每次打出時,賭注乘二; 王炸打出時,賭注乘二
    seen_bombs = 0
    for seed in range(20):
        game = rules.new_game(seed)
        play_out(game, seed)
        bombs = sum(1 for a in game.history if a.kind == "play" and a.move is not None and a.move.is_bomb)
        seen_bombs += bombs
        assert game.multiple == 2 ** bombs                      # led or not; no spring
        assert {e.name for e in game.events} <= {"bomb", "rocket"}
        per_farmer = game.stake * 2 ** bombs
        sign = 1 if game.landlord_won else -1
        for s in range(3):
            expected = 2 * per_farmer if s == game.landlord else -per_farmer
            assert game.scores[s] == sign * expected
        assert sum(game.scores) == 0
    assert seen_bombs > 0


def test_a_led_bomb_doubles_too(rules):
    # 炸彈 … 每次打出時,賭注乘二: no 有效炸彈 rule, so a bomb that opens a trick counts
    for seed in range(200):
        game = rules.new_game(seed)
        choose(game, 3)
        ll = game.landlord
        fours = [C.RANKS[r] * 4 for r in range(13) if game.hands[ll][r] == 4]
        if fours:
            break
    else:  # pragma: no cover
        pytest.fail("no landlord with a bomb in 200 deals")
    assert game.leading and game.to_act == ll
    move = game.play(ll, fours[0])
    assert move is not None and move.combo == "bomb"
    assert game.multiple == 2 and [e.name for e in game.events] == ["bomb"]
