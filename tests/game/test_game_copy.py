"""A runtime Game copied (``copy.deepcopy``, ``copy.copy``) or pickled at any moment is
the same game, and then an independent one: the original and the copy take different
actions, each stays what a fresh game of the same seed with its own actions is, and the
original is untouched by what the copy does (issue 20)."""

from __future__ import annotations

import copy
import json
import pickle
from typing import Any

import pytest
from game_state import jsonable

from ddzrules.bots import make_bot
from ddzrules.records import game_record
from ddzrules.runtime import Action, Game, GameRules, PlayerView
from ddzrules.spec import bundled_names

#: every bundled spec that can be played: landlord tables with bids, robs and declarations,
#: wild cards (laizi), tables without a landlord (paodekuai), two decks, two players
SPECS = [n for n in bundled_names() if not n.startswith("compat/")]
COPIES = {
    "deepcopy": copy.deepcopy,
    "copy": copy.copy,
    "pickle": lambda g: pickle.loads(pickle.dumps(g)),
}




def state_of(game: Game) -> str:
    """What a game is, as one string: record, views, legal actions, hands, facts, generator."""
    views = [{f: jsonable(getattr(game.view(s), f)) for f in PlayerView.__dataclass_fields__}
             for s in range(game.players)]
    return json.dumps({
        "record": jsonable(game_record(game)), "views": views,
        "legal": [a.to_dict() for a in game.legal_actions()], "hands": game.hands, "kitty": game.kitty,
        "stats": game.stats, "pairs": jsonable(game.pair_factors), "public": jsonable(game.public),
        "private": jsonable(game.private), "phase": game.phase, "to_act": game.to_act,
        "rng": list(game.rng.getstate()[1]), "deal": game.deal_number,
    }, sort_keys=True, default=repr)


def step(game: Game, bot: Any) -> Action:
    seat = game.to_act
    assert seat is not None
    action = bot.act(game.view(seat), game.legal_actions())
    game.apply(action)
    return action


def replayed(rules: GameRules, seed: int, actions: list[Action]) -> Game:
    """A fresh game of ``seed`` given ``actions`` (matched among its legal ones by value)."""
    game = rules.new_game(seed)
    for action in actions:
        wanted = action.to_dict()
        game.apply(next(a for a in game.legal_actions() if a.to_dict() == wanted))
    return game


def moments(rules: GameRules, seed: int) -> list[int]:
    """How many actions into game ``seed`` (heuristic bots) to copy it: at the start, in the
    landlord phase, at the first play, in the middle of a trick and near the end."""
    game = rules.new_game(seed)
    bots = [make_bot("heuristic", s) for s in range(rules.players)]
    phases = []
    while not game.over:
        phases.append(game.phase)
        step(game, bots[game.to_act])  # type: ignore[index]
    n = len(phases)
    first_play = phases.index("play")
    return sorted({0, min(1, first_play), first_play, first_play + 2, (first_play + n) // 2, n - 1})


@pytest.mark.parametrize("how", list(COPIES))
@pytest.mark.parametrize("spec", SPECS)
def test_a_copy_is_the_same_game_and_then_its_own(spec: str, how: str) -> None:
    rules = GameRules.load(spec)
    seed = 5
    for at in moments(rules, seed):
        game = rules.new_game(seed)
        same = [make_bot("heuristic", s) for s in range(rules.players)]
        taken = [step(game, same[game.to_act]) for _ in range(at)]  # type: ignore[index]
        before = state_of(game)
        twin = COPIES[how](game)
        assert twin is not game and twin.hands is not game.hands and twin.history is not game.history
        assert state_of(twin) == before == state_of(game)
        # the copy goes on with other bots (other actions), to its end
        others = [make_bot("random", 100 + s) for s in range(rules.players)]
        twin_taken = list(taken)
        while not twin.over:
            twin_taken.append(step(twin, others[twin.to_act]))  # type: ignore[index]
        assert state_of(game) == before, f"{spec} at {at}: the original changed"
        # the original goes on with its own bots
        own = list(taken)
        while not game.over:
            own.append(step(game, same[game.to_act]))  # type: ignore[index]
        # each is the game its seed and its own actions make
        assert state_of(game) == state_of(replayed(rules, seed, own)), f"{spec} at {at}: original"
        assert state_of(twin) == state_of(replayed(rules, seed, twin_taken)), f"{spec} at {at}: copy"
        assert game.scores is not None and twin.scores is not None


def test_a_copy_shares_only_the_rules() -> None:
    rules = GameRules.load("hubei-3p")
    game = rules.new_game(2)
    twin = copy.deepcopy(game)
    assert twin.rules is rules and twin.variant is game.variant
    assert copy.deepcopy(rules) is rules and copy.copy(rules) is rules
    for name in ("hands", "kitty", "history", "played", "events", "public", "private", "stats",
                 "pair_factors", "shown_hands", "deals"):
        assert getattr(twin, name) is not getattr(game, name), name
    assert twin.rng is not game.rng and twin.rng.getstate() == game.rng.getstate()
    assert twin.state.current is not game.state.current
    twin.rng.random()
    assert twin.rng.getstate() != game.rng.getstate()


def test_a_pickled_game_carries_its_rules() -> None:
    """Unpickled, a game has rules of its own, built from the pickled spec and plugins, that
    list and play as the originals (several games of one pickle share them)."""
    rules = GameRules.load("laizi")
    games = [rules.new_game(s) for s in range(3)]
    for g in games:
        bots = [make_bot("random", s) for s in range(3)]
        for _ in range(6):
            step(g, bots[g.to_act])  # type: ignore[index]
    copies = pickle.loads(pickle.dumps(games))
    assert copies[0].rules is copies[1].rules is copies[2].rules
    assert copies[0].rules is not rules
    assert [r for r, _, _ in copies[0].rules.active] == [r for r, _, _ in rules.active]
    for g, c in zip(games, copies):
        assert state_of(g) == state_of(c)
    # the unpickled rules make new games too, the same as the originals
    assert state_of(copies[0].rules.new_game(9)) == state_of(rules.new_game(9))


def test_moves_are_copied_as_themselves() -> None:
    """A Move (and a LegalMoves) is immutable: copy and deepcopy give the object itself, so a
    copied game's plays are the very Moves of the original's rules (not rebuilt one by one),
    while pickle still makes equal ones."""
    variant = GameRules.load("hubei-3p").variant
    listing = variant.legal_moves("3334445569TJQKA2XD")
    move = listing[0]
    assert copy.deepcopy(move) is move and copy.copy(move) is move
    assert copy.deepcopy(listing) is listing and copy.copy(listing) is listing
    held = {"plays": [move, (move, 1)]}
    copied = copy.deepcopy(held)
    assert copied is not held and copied["plays"] is not held["plays"]
    assert copied["plays"][0] is move and copied["plays"][1][0] is move
    unpickled = pickle.loads(pickle.dumps(move))
    assert unpickled == move and unpickled is not move
    assert pickle.loads(pickle.dumps(listing)) == listing

    rules = GameRules.load("hubei-3p")
    game = rules.new_game(3)
    bots = [make_bot("heuristic", s) for s in range(rules.players)]
    while not any(game.played):
        step(game, bots[game.to_act])  # type: ignore[index]
    twin = copy.deepcopy(game)
    assert twin.played is not game.played
    assert [[id(m) for m in p] for p in twin.played] == [[id(m) for m in p] for p in game.played]
    # the copy still goes its own way: its plays do not appear in the original
    before = state_of(game)
    others = [make_bot("random", 50 + s) for s in range(rules.players)]
    while not twin.over:
        step(twin, others[twin.to_act])  # type: ignore[index]
    assert state_of(game) == before
