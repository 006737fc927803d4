"""二人斗地主 (erren): the reduced deck, the undealt cards, bidding, replay, simulate."""

from __future__ import annotations

import json
from pathlib import Path

from ddzrules import cards as C
from ddzrules.bots import make_bot
from ddzrules.records import game_record, replay
from ddzrules.rules.variant import load_variant
from ddzrules.runtime import GameRules
from ddzrules.simulate import compare_specs, play_game


def test_deck_without_threes_and_fours() -> None:
    v = load_variant("erren")
    deck = v.rules.deck
    assert sum(deck) == 46
    assert deck[C.RANKS.index("3")] == deck[C.RANKS.index("4")] == 0
    assert deck[C.RANKS.index("5")] == 4 and deck[C.SMALL_JOKER] == deck[C.BIG_JOKER] == 1
    assert not v.classify("34567")  # no 3 in the deck: no straight from 3
    assert v.classify("56789")[0].combo == "straight"
    census = v.census().by_combo
    assert census["straight"] == 6 + 5 + 4 + 3 + 2 + 1  # 5..A, lengths 5 to 10
    assert census["bomb"] == 11 and census["rocket"] == 1


def test_deal_and_bidding() -> None:
    rules = GameRules.load("erren")
    assert (rules.players, rules.hand_size, rules.kitty_size, rules.undealt) == (2, 17, 3, 9)
    game = rules.new_game(seed=4)
    assert [sum(h) for h in game.hands] == [17, 17]
    assert sum(game.kitty) == 3 and sum(game.undealt) == 9
    assert game.phase == "landlord"
    assert {a.kind for a in game.legal_actions()} <= {"bid", "pass"}


def test_games_zero_sum_and_replay(tmp_path: Path) -> None:
    rules = GameRules.load("erren")
    for seed in range(8):
        agents = [make_bot("heuristic", seed * 7 + i) for i in range(2)]
        game = play_game(rules, agents, seed)
        assert game.scores is not None and sum(game.scores) == 0
        assert game.landlord is not None and game.first_leader == game.landlord
        record = json.loads(json.dumps(game_record(game)))
        assert replay(record).game.scores == game.scores


def test_simulate_workers_identical() -> None:
    one = compare_specs(["erren"], games=30, seed=2, bots=["heuristic", "random"], workers=1)
    two = compare_specs(["erren"], games=30, seed=2, bots=["heuristic", "random"], workers=2)
    assert one == two
    assert one["specs"][0]["landlord_win_rate"] is not None
