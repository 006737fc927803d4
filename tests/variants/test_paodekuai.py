"""跑得快 (paodekuai): deck, first leader, must beat, per-card settlement, replay, simulate."""

from __future__ import annotations

import json

from ddzrules import cards as C
from ddzrules.bots import make_bot
from ddzrules.records import game_record, replay
from ddzrules.rules.variant import load_variant
from ddzrules.runtime import GameRules
from ddzrules.simulate import compare_specs, play_game


def test_deck_and_combos() -> None:
    v = load_variant("paodekuai")
    deck = v.rules.deck
    assert sum(deck) == 48 and deck[C.RANKS.index("2")] == 1 and deck[C.RANKS.index("A")] == 3
    assert deck[C.SMALL_JOKER] == deck[C.BIG_JOKER] == 0
    assert v.classify("33344")[0].combo == "trio_with_two"
    assert v.classify("33345")[0].combo == "trio_with_two"
    assert not v.classify("333")  # a trio alone is no play (reading trio-alone)
    assert v.classify("3344")[0].combo == "pair_chain"
    assert v.beats("4444", "33344") and not v.classify("JQKA2")  # no 2 in a chain
    assert v.census().by_combo["bomb"] == 11  # 3..K: three As, one 2


def test_first_leader_holds_the_spade_three() -> None:
    rules = GameRules.load("paodekuai")
    leaders = []
    for seed in range(30):
        game = rules.new_game(seed)
        assert game.landlord is None and game.phase == "play"
        n, h = 3, 16
        first_three = next(i for i, r in enumerate(game.dealt_order[:n * h]) if r == 0)
        assert game.to_act == first_three // h
        assert game.hands[game.to_act][0] >= 1
        leaders.append(game.to_act)
    assert set(leaders) == {0, 1, 2}


def test_games_zero_sum_must_beat_and_replay() -> None:
    rules = GameRules.load("paodekuai")
    for seed in range(8):
        agents = [make_bot("heuristic", seed * 3 + i) for i in range(3)]
        game = play_game(rules, agents, seed)
        assert game.scores is not None and sum(game.scores) == 0
        record = json.loads(json.dumps(game_record(game)))
        assert replay(record).game.scores == game.scores
        first = game.history[0]
        assert first.kind == "play" and "3" in str(first.value)


def test_simulate_workers_identical_and_landlord_figures_na() -> None:
    one = compare_specs(["paodekuai"], games=30, seed=5, bots=["heuristic"], workers=1)
    two = compare_specs(["paodekuai"], games=30, seed=5, bots=["heuristic"], workers=2)
    assert one == two
    run = one["specs"][0]
    assert run["landlord_win_rate"] is None and run["figures"]["landlord_won"] is None
    assert run["figures"]["stake"] is None and run["figures"]["score_per_stake"] is None
    assert abs(sum(run["mean_score_by_seat"])) < 1e-9
