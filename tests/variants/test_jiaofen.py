"""叫分 rules with 亮牌 and 加棒: the 叫分 block of seeds/004 (digest E), as specs/jiaofen.yaml reads it.

叫牌按出牌的顺序轮流开始,每人只能叫一次。叫牌时可以叫"1分","2分","3分","不叫"。后叫牌者只能叫比
前面玩家高的分或者不叫。… 如果有玩家叫"3分"则立即结束叫牌,该玩家为地主;如果都不叫,则重新发牌。
第一轮叫牌的玩家由系统选定,以后每一轮首先叫牌的玩家按出牌顺序轮流担任。
亮牌: … 亮牌后地主和两农民的得失分乘3倍。
加棒: 当有人叫3分抢得地主后,两农民中如果有人对自己一方取胜有信心,可以选择"加棒"地主,加棒后该农民与
地主之间的得失分翻倍。

Seats are numbered in the order of play, so the next seat is ``(seat + 1) % 3``.
"""

from __future__ import annotations

import pytest

from ddzrules import cards as C
from ddzrules.bots import HeuristicBot, RandomBot
from ddzrules.errors import PlayError
from ddzrules.runtime import Action, Game, GameRules, MatchInfo


@pytest.fixture(scope="module")
def rules(_private_cache: None) -> GameRules:
    return GameRules.load("jiaofen")


def nxt(seat: int, k: int = 1) -> int:
    return (seat + k) % 3


def bid(game: Game, value: int | None) -> int:
    seat = game.to_act
    assert seat is not None
    game.apply(Action(seat, "pass") if value is None else Action(seat, "bid", value))
    return seat


def declare(game: Game, seat: int, kind: str) -> None:
    assert game.phase == "declare" and game.to_act == seat
    game.apply(Action(seat, kind))


def first_legal(game: Game) -> None:
    """Play the game out with a policy that ignores declarations (the first legal action),
    so that games differing only in 亮牌/加棒 are played card for card alike."""
    while not game.over:
        game.apply(game.legal_actions()[0])


# ================================================================== 叫分

# bids in turn from the first bidder (None: 不叫); landlord offset and stake, or None: redeal
BIDDING = [
    ([3], 0, 3),                       # 叫"3分"则立即结束叫牌
    ([1, 3], 1, 3),
    ([1, 2, 3], 2, 3),
    ([2, None, None], 0, 2),
    ([1, None, 2], 2, 2),
    ([None, 1, None], 1, 1),
    ([None, None, 1], 2, 1),
    ([1, 2, None], 1, 2),
    ([None, None, None], None, None),  # 如果都不叫,则重新发牌,重新叫牌
]


@pytest.mark.parametrize("bids,landlord,stake", BIDDING, ids=[str(b) for b, *_ in BIDDING])
def test_bidding(rules, bids, landlord, stake):
    game = rules.new_game(2)
    first = game.first_bidder
    assert [bid(game, b) for b in bids] == [nxt(first, k) for k in range(len(bids))]
    if landlord is None:
        assert game.phase == "landlord" and game.deal_number == 1
        assert game.first_bidder == nxt(first)     # reading first-bidder: a redeal is a new round
        return
    assert game.landlord == nxt(first, landlord) and game.stake == stake
    assert sum(game.hands[game.landlord]) == 20
    # 亮牌 is offered to the landlord whatever the bid
    assert game.phase == "declare" and game.to_act == game.landlord
    assert [a.kind for a in game.legal_actions()] == ["decline", "show"]


def test_only_higher_bids(rules):
    game = rules.new_game(2)
    bid(game, 2)
    assert sorted(a.value or 0 for a in game.legal_actions()) == [0, 3]
    with pytest.raises(PlayError):
        game.apply(Action(game.to_act, "bid", 1))


def test_first_bidder_rotates_game_by_game(rules):
    # 第一轮叫牌的玩家由系统选定,以后每一轮首先叫牌的玩家按出牌顺序轮流担任
    firsts = [rules.new_game(100 + i, MatchInfo(index=i, seed=9)).first_bidder for i in range(6)]
    assert all(firsts[i + 1] == nxt(firsts[i]) for i in range(5))


# ================================================================== 亮牌 and 加棒


def after_bids(rules: GameRules, bids: list[int | None], seed: int = 2) -> Game:
    game = rules.new_game(seed)
    for b in bids:
        bid(game, b)
    assert game.phase == "declare"
    return game


def test_show_hand_triples_everyone(rules):
    game = after_bids(rules, [2, None, None])
    ll = game.landlord
    declare(game, ll, "show")
    assert game.phase == "play"                         # 2 points: no 加棒
    assert game.multiple == 3
    assert ll in game.shown_hands
    assert game.view(nxt(ll)).shown_hands == {ll: game.hand_string(ll)}
    first_legal(game)
    bombs = sum(1 for a in game.history if a.kind == "play" and a.move is not None and a.move.is_bomb)
    springs = [e.factor for e in game.events if e.name in ("spring", "anti_spring")]
    mult = 3 * 2 ** bombs * (springs[0] if springs else 1)
    assert game.multiple == mult
    sign = 1 if game.landlord_won else -1
    assert game.scores == [sign * (4 * mult if s == ll else -2 * mult) for s in range(3)]


@pytest.mark.parametrize("bids", [[1, None, None], [2, None, None], [1, 2, None], [None, None, 2]])
def test_no_jiabang_below_three(rules, bids):
    game = after_bids(rules, bids)
    declare(game, game.landlord, "decline")
    assert game.phase == "play" and game.to_act == game.landlord
    assert all(a.kind in ("play", "pass") for a in game.legal_actions())


@pytest.mark.parametrize("bids", [[3], [1, 3], [1, 2, 3], [None, None, 3]])
def test_jiabang_after_a_three(rules, bids):
    game = after_bids(rules, bids)
    ll = game.landlord
    declare(game, ll, "decline")
    # each farmer in turn, in the order of play from the landlord
    assert [a.kind for a in game.legal_actions()] == ["decline", "jiabang"]
    declare(game, nxt(ll), "jiabang")
    assert game.to_act == nxt(ll, 2)
    with pytest.raises(PlayError):
        game.apply(Action(nxt(ll, 2), "show"))
    declare(game, nxt(ll, 2), "decline")
    assert game.phase == "play" and game.to_act == ll
    assert game.pair_factors == {nxt(ll): 2}
    assert game.multiple == 1                          # 加棒 is no multiplier for everyone
    assert game.stats["jiabang"] == 1


def settled(rules: GameRules, seed: int, show: bool, jiabang: set[int]) -> tuple[Game, list[int]]:
    """A 3-point game; ``jiabang`` holds the farmers (as offsets from the landlord) who 加棒."""
    game = after_bids(rules, [3], seed)
    ll = game.landlord
    declare(game, ll, "show" if show else "decline")
    for k in (1, 2):
        declare(game, nxt(ll, k), "jiabang" if k in jiabang else "decline")
    first_legal(game)
    assert game.scores is not None
    return game, game.scores


@pytest.mark.parametrize("seed", [2, 3, 4])
@pytest.mark.parametrize("show", [False, True])
def test_jiabang_doubles_only_that_pair(rules, seed, show):
    base_game, base = settled(rules, seed, show, set())
    ll = base_game.landlord
    f1, f2 = nxt(ll), nxt(ll, 2)
    unit = 3 * base_game.multiple                      # bid × multiple, each farmer
    sign = 1 if base_game.landlord_won else -1
    assert base == [sign * (2 * unit if s == ll else -unit) for s in range(3)]
    # one farmer 加棒: that farmer–landlord pair doubled, the other farmer untouched
    game, one = settled(rules, seed, show, {1})
    plays = [a for a in game.history if a.kind in ("play", "pass")]
    assert plays == [a for a in base_game.history if a.kind in ("play", "pass")]   # card for card alike
    assert one[f1] == 2 * base[f1]
    assert one[f2] == base[f2]
    assert one[ll] == -(one[f1] + one[f2]) == sign * 3 * unit
    # the other farmer alone, then both
    _, other = settled(rules, seed, show, {2})
    assert other[f2] == 2 * base[f2] and other[f1] == base[f1]
    _, both = settled(rules, seed, show, {1, 2})
    assert both == [2 * x for x in base]
    for scores in (base, one, other, both):
        assert sum(scores) == 0


def test_every_bomb_doubles_led_or_not(rules):
    # reading multipliers: 每炸弹 *2 (004's 计分规则) for every bomb and rocket, 春天 ×2
    seen = 0
    for seed in range(15):
        game = rules.new_game(seed)
        bots = [HeuristicBot(seed), RandomBot(seed + 1), RandomBot(seed + 2)]
        while not game.over:
            seat = game.to_act
            game.apply(bots[seat].act(game.view(seat), game.legal_actions()))
        bombs = sum(1 for a in game.history if a.kind == "play" and a.move is not None and a.move.is_bomb)
        seen += bombs
        factors = {"bomb": 2, "rocket": 2, "show_hand": 3, "spring": 2, "anti_spring": 2}
        assert all(e.factor == factors[e.name] for e in game.events)
        assert sum(1 for e in game.events if e.name in ("bomb", "rocket")) == bombs
        assert sum(game.scores) == 0
    assert seen > 0


def test_a_led_bomb_doubles_too(rules):
    # reading multipliers: every bomb counts, also one that opens a trick (no 有效炸弹 rule)
    for seed in range(200):
        game = rules.new_game(seed)
        bid(game, 3)
        ll = game.landlord
        fours = [C.RANKS[r] * 4 for r in range(13) if game.hands[ll][r] == 4]
        if fours:
            break
    else:  # pragma: no cover
        pytest.fail("no landlord with a bomb in 200 deals")
    declare(game, ll, "decline")
    declare(game, nxt(ll), "decline")
    declare(game, nxt(ll, 2), "decline")
    assert game.leading and game.to_act == ll
    game.play(ll, fours[0])
    assert game.multiple == 2 and [e.name for e in game.events] == ["bomb"]
