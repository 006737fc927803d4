"""A game is its rules and its state (issue 45): :class:`~ddzrules.game.state.State` is
plain data, the flow is functions of a game and an action, and the face (``Game``) holds
nothing the state does not, so a new face over a game's state plays on exactly as the
game does. Values a game cannot hold are refused when set, the state unchanged."""

from __future__ import annotations

import copy
import dataclasses
import pickle
import random

import pytest
from test_game_copy import SPECS, state_of, step

from ddzrules.bots import make_bot
from ddzrules.errors import PluginError, WriteRefused
from ddzrules.game import deal, play
from ddzrules.game.state import FIELDS, State, copy_state
from ddzrules.runtime import Game, GameRules


def test_the_state_is_a_plain_data_class() -> None:
    game = GameRules.load("hubei-3p").new_game(seed=3)
    assert type(game.state) is State and dataclasses.is_dataclass(State)
    assert tuple(f.name for f in dataclasses.fields(State)) == FIELDS
    assert not [name for name, value in vars(State).items()
                if callable(value) and not name.startswith("__")], "State holds data, no behaviour"
    # the face shows the state's own fields, the very objects
    for name in ("hands", "history", "played", "kitty", "deals"):
        assert getattr(game, name) is getattr(game.state, name)


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("moment", [0, 3, 12, 40])
def test_a_new_face_over_a_games_state_plays_on_as_the_game_does(spec: str, moment: int) -> None:
    """Everything a game is lives in its state: a Game made from the rules and a copy of
    the state (and nothing else of the first game) goes on exactly as the game does."""
    rules = GameRules.load(spec)
    game = rules.new_game(seed=moment + 11)
    bots = [make_bot("random", 100 + s) for s in range(game.players)]
    for _ in range(moment):
        if game.over:
            break
        step(game, bots[game.to_act])  # type: ignore[index]
    state = copy_state(game.state, dict(rules.shared))
    face = Game(rules, state=state)
    assert state_of(face) == state_of(game)
    twins = [make_bot("random", 100 + s) for s in range(game.players)]
    for bot, twin in zip(bots, twins):
        twin.__dict__.update(copy.deepcopy(bot.__dict__))
    while not game.over:
        seat = game.to_act
        step(game, bots[seat])  # type: ignore[index]
        step(face, twins[seat])  # type: ignore[index]
        assert state_of(face) == state_of(game)
    assert face.scores == game.scores and face.state.history == game.state.history


def test_the_flow_is_functions_of_a_game_and_an_action() -> None:
    rules = GameRules.load("hubei-3p")
    by_face, by_functions = rules.new_game(seed=5), rules.new_game(seed=5)
    rng = random.Random(1)
    while not by_face.over:
        action = rng.choice(by_face.legal_actions())
        assert play.legal_actions(by_functions) == by_functions.legal_actions()
        by_face.apply(action)
        play.apply(by_functions, next(a for a in play.legal_actions(by_functions) if a.matches(action)))
    assert by_functions.scores == by_face.scores
    assert deal.gathered_cards(by_functions) == by_face.gathered_cards()


def test_a_state_pickles_as_data() -> None:
    game = GameRules.load("hubei-3p").new_game(seed=9, landlord=1)
    back = pickle.loads(pickle.dumps(game.state))
    assert type(back) is State
    assert [getattr(back, n) for n in ("hands", "kitty", "landlord", "stake", "phase", "turn")] == \
        [getattr(game.state, n) for n in ("hands", "kitty", "landlord", "stake", "phase", "turn")]
    assert back.rng.getstate() == game.state.rng.getstate()


@pytest.mark.parametrize(("field", "value", "words"), [
    ("stake", -1, "set game.stake to -1"),
    ("stake", float("nan"), "set game.stake to NaN"),
    ("stake", "2", "set game.stake to '2'"),
    ("landlord", 3, "set game.landlord to 3, not a seat 0-2"),
    ("landlord", True, "set game.landlord to True, not a seat 0-2"),
    ("visible_dealt", -2, "set game.visible_dealt to -2"),
    ("visible_dealt", 18, "set game.visible_dealt to 18"),
    ("face_up", [0, 3], "set game.face_up to [0, 3], not (seat, rank)"),
    ("rng", 7, "set game.rng to 7, not a random.Random"),
])
def test_a_value_a_game_cannot_hold_is_refused_when_set(field: str, value: object, words: str) -> None:
    game = GameRules.load("hubei-3p").new_game(seed=2)
    before = state_of(game)
    with pytest.raises(WriteRefused) as info:
        setattr(game, field, value)
    assert str(info.value).startswith(words)
    assert state_of(game) == before


def test_a_plugin_that_sets_what_a_game_cannot_hold_is_named_and_nothing_changes() -> None:
    rules = GameRules.load("hubei-3p")
    game = rules.new_game(seed=4)

    phase = game.state.current
    assert phase is not None
    before = state_of(game)
    original = type(phase).apply

    def apply(self: object, game: Game, action: object) -> None:
        game.stake = 1
        game.landlord = 9

    type(phase).apply = apply  # type: ignore[method-assign]
    try:
        with pytest.raises(PluginError) as info:
            game.apply(game.legal_actions()[0])
    finally:
        type(phase).apply = original  # type: ignore[method-assign]
    assert "set game.landlord to 9, not a seat 0-2" in str(info.value)
    assert state_of(game) == before and game.state.stake == 0
