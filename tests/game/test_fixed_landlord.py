"""A landlord fixed before the deal (GameRules.new_game(landlord=…), DouZero's protocol):
no landlord phase, that seat takes the kitty at stake 1, and the record replays."""

from __future__ import annotations

import json

import pytest

from ddzrules.bots import make_bot
from ddzrules.errors import DdzError
from ddzrules.records import game_record, replay
from ddzrules.runtime import GameRules
from ddzrules.spec import bundled_names

LANDLORD_SPECS = [n for n in bundled_names() if not n.startswith("compat/")
                  and GameRules.load(n).table_kind == "landlord"]


@pytest.mark.parametrize("spec", LANDLORD_SPECS)
def test_the_fixed_seat_is_the_landlord_with_the_kitty(spec: str) -> None:
    rules = GameRules.load(spec)
    seat = rules.players - 1
    game = rules.new_game(5, landlord=seat)
    assert game.landlord == seat and game.phase != "landlord"
    assert sum(game.hands[seat]) == rules.hand_size + rules.kitty_size
    assert not any(a.kind in ("bid", "call", "rob") for a in game.history)
    bots = [make_bot("heuristic", s) for s in range(rules.players)]
    while not game.over:
        s = game.to_act
        assert s is not None
        game.apply(bots[s].act(game.view(s), game.legal_actions()))
    assert game.landlord == seat and game.scores is not None
    record = json.loads(json.dumps(game_record(game)))
    assert record["fixed_landlord"] == seat
    assert replay(record).game.scores == game.scores


def test_a_fixed_landlord_is_refused_where_it_cannot_be() -> None:
    with pytest.raises(DdzError, match="no landlord"):
        GameRules.load("paodekuai").new_game(1, landlord=0)
    for bad in (3, -1, True, "0"):
        with pytest.raises(DdzError, match="must be a seat"):
            GameRules.load("hubei-3p").new_game(1, landlord=bad)  # type: ignore[arg-type]


def test_a_copy_keeps_the_fixed_landlord() -> None:
    game = GameRules.load("hubei-3p").new_game(2, landlord=1)
    assert game.copy().fixed_landlord == 1 and game.copy().landlord == 1
