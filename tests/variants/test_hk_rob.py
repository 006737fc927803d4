"""HOYA (Hong Kong) rules, 搶地主 (seeds/003, digest D), as specs/hk-rob.yaml reads them.

同樣,抽到好牌的一方可以優先選擇當地主。當一家選擇當地主後,賭注即以底注的3倍計(相當於選3分)。
下家此時可選擇搶地主或不搶,如搶地主,則他成為地主,同時賭注再乘2;如不搶即放棄做地主。然後由
下一位玩家選擇是否搶地主。當有玩家第二次搶到地主,或其他玩家均放棄搶地主時,他就成為最終的地主。

Readings (hk-rob.yaml): nobody takes → reshuffle; a player who declines (to take or to
rob) is never asked again; the second rob of the deal ends it (``ends: second-rob``),
the other reading being ``ends: own-second-rob``. Seats are numbered in the order of
play (逆時針), so the next seat is ``(seat + 1) % 3``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ddzrules.bots import HeuristicBot, RandomBot
from ddzrules.errors import PlayError
from ddzrules.runtime import Action, Game, GameRules

T, R, D = "take", "rob", "decline"


@pytest.fixture(scope="module")
def rules(_private_cache: None) -> GameRules:
    return GameRules.load("hk-rob")


@pytest.fixture(scope="module")
def own_second(_private_cache: None, tmp_path_factory: pytest.TempPathFactory) -> GameRules:
    path = Path(tmp_path_factory.mktemp("specs")) / "hk-rob-own.yaml"
    path.write_text("name: scratch/hk-rob-own\nextends: hk-rob\n"
                    "game:\n  landlord:\n    plugin: hk-rob\n    params: {ends: own-second-rob}\n",
                    encoding="utf-8")
    return GameRules.load(str(path))


def run(game: Game, steps: list[tuple[int, str]]) -> None:
    """Apply ``(seat offset from the first chooser, kind)`` steps, checking each is that seat's turn."""
    first = game.first_bidder
    for offset, kind in steps:
        seat = (first + offset) % 3
        assert game.to_act == seat, f"expected seat {seat} to act before {kind}, got {game.to_act}"
        game.apply(Action(seat, kind))


# (steps as (offset from the face-up holder, choice); landlord offset; robs) — the
# landlord's stake is 3 and the multiple 2**robs; landlord None: reshuffle.
SECOND_ROB = [
    # nobody robs: the taker is landlord at 3× base
    ([(0, T), (1, D), (2, D)], 0, 0),
    # one rob, then the others (the robbed taker included) decline
    ([(0, T), (1, R), (2, D), (0, D)], 1, 1),
    ([(0, T), (1, D), (2, R), (0, D)], 2, 1),
    # the second rob ends it at once, whoever makes it
    ([(0, T), (1, R), (2, R)], 2, 2),
    ([(0, T), (1, R), (2, D), (0, R)], 0, 2),     # the robbed taker robs back
    ([(0, T), (1, D), (2, R), (0, R)], 0, 2),
    # a player who declined to take has given up: he is never asked to rob
    ([(0, D), (1, T), (2, D)], 1, 0),
    ([(0, D), (1, T), (2, R), (1, D)], 2, 1),
    ([(0, D), (1, T), (2, R), (1, R)], 1, 2),
    ([(0, D), (1, D), (2, T)], 2, 0),             # nobody left to rob
    # nobody takes: reshuffle
    ([(0, D), (1, D), (2, D)], None, 0),
]

OWN_SECOND_ROB = [
    ([(0, T), (1, D), (2, D)], 0, 0),
    ([(0, T), (1, R), (2, R), (0, R), (1, R)], 1, 4),   # seat +1's own second rob ends it
    ([(0, T), (1, R), (2, R), (0, D), (1, R)], 1, 3),
    ([(0, T), (1, R), (2, R), (0, D), (1, D)], 2, 2),   # two robs do not end it here
    ([(0, T), (1, R), (2, R), (0, R), (1, D), (2, D)], 0, 3),
    ([(0, T), (1, R), (2, D), (0, R), (1, R)], 1, 3),   # taking is no rob: +0 robs once, +1 twice
    ([(0, T), (1, R), (2, D), (0, R), (1, D)], 0, 2),
    ([(0, D), (1, D), (2, D)], None, 0),
]


def check(game: Game, steps: list[tuple[int, str]], landlord: int | None, robs: int) -> None:
    first = game.first_bidder
    run(game, steps)
    if landlord is None:
        assert game.phase == "landlord" and game.deal_number == 1
        assert game.redeal_reasons == ["nobody took the landlord"]
        assert game.to_act == game.first_bidder == game.face_up[0]
        return
    assert game.phase == "play"
    assert game.landlord == (first + landlord) % 3
    assert game.to_act == game.landlord and sum(game.hands[game.landlord]) == 20
    assert game.stake == 3                                    # 賭注即以底注的3倍計
    assert game.multiple == 2 ** robs                         # 同時賭注再乘2
    assert [(e.name, e.factor) for e in game.events] == [("rob", 2)] * robs
    assert game.stats.get("robs", 0) == robs
    assert game.public["hk_rob"] == {"holder": game.landlord, "robs": robs}


@pytest.mark.parametrize("steps,landlord,robs", SECOND_ROB, ids=[" ".join(f"{o}{k[0]}" for o, k in s)
                                                                  for s, *_ in SECOND_ROB])
def test_second_rob(rules, steps, landlord, robs):
    check(rules.new_game(5), steps, landlord, robs)


@pytest.mark.parametrize("steps,landlord,robs", OWN_SECOND_ROB, ids=[" ".join(f"{o}{k[0]}" for o, k in s)
                                                                      for s, *_ in OWN_SECOND_ROB])
def test_own_second_rob_parameter(own_second, steps, landlord, robs):
    check(own_second.new_game(5), steps, landlord, robs)


def test_the_face_up_card_holder_chooses_first(rules):
    # 抽到好牌的一方可以優先選擇當地主 (the holder of the card turned face up)
    for seed in range(20):
        game = rules.new_game(seed)
        holder, rank = game.face_up
        assert game.to_act == game.first_bidder == holder
        assert game.hands[holder][rank] >= 1
        assert [a.kind for a in game.legal_actions()] == [D, T]


def test_options_per_step(rules):
    game = rules.new_game(5)
    first = game.first_bidder
    with pytest.raises(PlayError):
        game.apply(Action(first, R))                   # nothing to rob yet
    game.apply(Action(first, T))
    robber = (first + 1) % 3
    assert [a.kind for a in game.legal_actions()] == [D, R]
    with pytest.raises(PlayError):
        game.apply(Action(robber, T))
    with pytest.raises(PlayError):
        game.apply(Action((first + 2) % 3, R))         # not his turn
    assert game.stake == 3 and game.landlord is None


def test_stake_with_robs_and_bombs_settles_zero_sum(rules):
    # stake 3 × 2^robs × 2^(bombs + rockets), each farmer against the landlord
    seen_robs = 0
    for seed in range(12):
        game = rules.new_game(seed)
        bots = [HeuristicBot(seed), RandomBot(seed + 1), RandomBot(seed + 2)]
        while not game.over:
            seat = game.to_act
            game.apply(bots[seat].act(game.view(seat), game.legal_actions()))
        robs = sum(1 for a in game.history if a.kind == R)
        bombs = sum(1 for a in game.history if a.kind == "play" and a.move is not None and a.move.is_bomb)
        seen_robs += robs
        per_farmer = 3 * 2 ** robs * 2 ** bombs
        sign = 1 if game.landlord_won else -1
        assert game.scores == [sign * (2 * per_farmer if s == game.landlord else -per_farmer) for s in range(3)]
    assert seen_robs > 0
