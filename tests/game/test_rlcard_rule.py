"""The ``rlcard-rule`` bot (RLCard's ``DouDizhuRuleAgentV1``) and the game it plays,
compat/rlcard with RLCard's protocol (``dealt-landlord``: seat 0 takes the kitty; win
points 1/0). The bot's choices are held to the agent's rules as RLCard's source states
them (a lead holds the lowest card; an answer is the lowest of the same type; a partner's
play is let through), checked with ddzrules' own readings of the plays."""

from __future__ import annotations

import sys

import pytest

pytest.importorskip("rlcard")
import numpy as np
from click.testing import CliRunner

from ddzrules.bots import check_bot, make_bot, rlcard_rule
from ddzrules.cards import RANKS
from ddzrules.cli import main
from ddzrules.errors import DdzError
from ddzrules.runtime import Game, GameRules
from ddzrules.simulate import play_game

_RULES: dict[str, GameRules] = {}


def rules_for(spec: str) -> GameRules:
    if spec not in _RULES:
        _RULES[spec] = GameRules.load(spec)
    return _RULES[spec]


def play_checked(seed: int) -> tuple[Game, dict[str, int]]:
    """A game of three rlcard-rule bots, every decision checked; how often each rule of
    the agent was seen."""
    rules = rules_for("compat/rlcard")
    game = rules.new_game(seed)
    bots = [make_bot("rlcard-rule", seed * 10 + s) for s in range(3)]
    seen = {"lead": 0, "lowest-answer": 0, "partner-pass": 0}
    while not game.over:
        seat = game.to_act
        assert seat is not None
        view, legal = game.view(seat), game.legal_actions()
        action = bots[seat].act(view, legal)
        assert action in legal
        plays = [a for a in legal if a.kind == "play"]
        if view.last_play is None:  # a lead: the combination holding the hand's lowest card
            seen["lead"] += 1
            lowest = min(view.hand, key=RANKS.index)
            assert action.kind == "play" and lowest in action.value
        elif view.last_play.combo in ("single", "pair"):
            same = [a for a in plays if a.move is not None and a.move.combo == view.last_play.combo]
            if same:
                seen["lowest-answer"] += 1
                assert action.move is not None and action.move.combo == view.last_play.combo
                assert action.move.rank == min(a.move.rank for a in same if a.move is not None)
            elif seat != game.landlord and view.last_seat != game.landlord:
                seen["partner-pass"] += 1
                assert action.kind == "pass"
        game.apply(action)
    return game, seen


def test_the_agent_plays_by_its_rules() -> None:
    totals = {"lead": 0, "lowest-answer": 0, "partner-pass": 0}
    for seed in range(12):
        game, seen = play_checked(seed)
        assert game.landlord == 0  # RLCard: players[0] is the landlord of every deal
        assert game.scores is not None and sorted(game.scores) in ([0, 0, 1], [0, 1, 1])
        for k, v in seen.items():
            totals[k] += v
    assert all(totals.values()), totals  # every rule was exercised


def test_dealt_landlord_takes_the_kitty_with_no_decision() -> None:
    game = rules_for("compat/rlcard").new_game(5)
    assert game.phase == "play" and game.to_act == 0 and game.landlord == 0
    assert sum(game.hands[0]) == 20 and [sum(h) for h in game.hands[1:]] == [17, 17]
    assert not [a for a in game.history if a.kind != "play"]


def test_same_seed_same_game_and_numpy_left_alone() -> None:
    rules = rules_for("compat/rlcard")
    np.random.seed(123)
    before = np.random.get_state()[1].copy()
    a = play_game(rules, [make_bot("rlcard-rule", 7 + s) for s in range(3)], 99)
    assert (np.random.get_state()[1] == before).all()
    np.random.seed(999)  # another global state: the bots' choices do not depend on it
    b = play_game(rules, [make_bot("rlcard-rule", 7 + s) for s in range(3)], 99)
    assert a.history == b.history


@pytest.mark.parametrize(("spec", "why"), [
    ("laizi", "no wild card"),
    ("paodekuai", "three-player landlord game"),
    ("hubei-4p-2deck", "three-player landlord game"),
    ("erren", "three-player landlord game"),
    ("hubei-3p", "no bidding or declarations; hubei-3p asks for bid, pass"),
    ("crown-3p", "allows 896 plays RLCard's game does not have .the first: 2222XD."),
])
def test_refuses_rules_it_does_not_understand(spec: str, why: str) -> None:
    with pytest.raises(ValueError, match=f"bot rlcard-rule cannot play {spec}: .*{why}"):
        check_bot("rlcard-rule", rules_for(spec))
    assert check_bot("rlcard-rule", rules_for("compat/rlcard")) == "rlcard-rule"


def test_the_cli_refuses_before_any_game() -> None:
    for args in (["play", "laizi", "--auto", "--bots", "rlcard-rule"],
                 ["simulate", "paodekuai", "--games", "2", "--bots", "rlcard-rule"],
                 ["duel", "hubei-3p", "--bots", "search,rlcard-rule", "--deals", "2"]):
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 1, args
        assert "rlcard-rule cannot play" in result.output and "Traceback" not in result.output


def test_without_rlcard_it_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    rlcard_rule._rlcard.cache_clear()
    monkeypatch.setitem(sys.modules, "rlcard.models.doudizhu_rule_models", None)
    try:
        with pytest.raises(DdzError, match=r"pip install 'ddzrules\[rlcard\]'"):
            check_bot("rlcard-rule")
        with pytest.raises(DdzError, match="needs RLCard"):
            make_bot("rlcard-rule", 1)
    finally:
        rlcard_rule._rlcard.cache_clear()
