"""加倍/超级加倍 as specs/huanle.yaml reads them (reading super-double): after the landlord is
known each player, the landlord first, makes one choice (不加倍, 加倍 ×2, 超级加倍 ×4); a
choice multiplies the settlement between that farmer and the landlord (the landlord's: with
both farmers), so a pair's factor is the farmer's times the landlord's. A player the room's
threshold excludes is offered only 不加倍. The record, the replay and the final line carry
each pair's factor, so the score can be checked by hand."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from ddzrules.bots import HeuristicBot
from ddzrules.cli import main
from ddzrules.records import ReplayError, game_record, replay
from ddzrules.runtime import Action, Game, GameRules, MatchInfo

LEVELS = {"decline": 1, "double": 2, "super_double": 4}


@pytest.fixture(scope="module")
def huanle() -> GameRules:
    return GameRules.load("huanle")


def to_doubling(rules: GameRules, seed: int, match: MatchInfo | None = None) -> Game:
    """A game of ``rules`` driven by heuristic bots up to its 加倍 phase."""
    game = rules.new_game(seed, match)
    bots = [HeuristicBot(seed + s) for s in range(3)]
    for _ in range(200):
        kinds = {a.kind for a in game.legal_actions()}
        if kinds & {"double", "super_double"} or (game.phase == "declare" and kinds == {"decline"}):
            return game
        seat = game.to_act
        assert seat is not None
        game.apply(bots[seat].act(game.view(seat), game.legal_actions()))
    raise AssertionError("no 加倍 phase reached")


@pytest.mark.parametrize("choices", [
    ("super_double", "double", "decline"),
    ("decline", "super_double", "super_double"),
    ("double", "decline", "double"),
    ("super_double", "super_double", "super_double"),
])
def test_each_pair_is_the_farmer_times_the_landlord(huanle: GameRules, choices: tuple[str, ...]) -> None:
    game = to_doubling(huanle, 11)
    lord = game.landlord
    assert lord is not None and game.to_act == lord  # the landlord chooses first
    made: dict[int, str] = {}
    for kind in choices:
        seat = game.to_act
        assert seat is not None
        assert sorted(a.kind for a in game.legal_actions()) == ["decline", "double", "super_double"]
        game.apply(Action(seat, kind))
        made[seat] = kind
    assert game.phase == "play"  # one choice each, then the tricks
    farmers = [s for s in range(3) if s != lord]
    expected = {f: LEVELS[made[f]] * LEVELS[made[lord]] for f in farmers}
    assert {f: game.pair_factors.get(f, 1) for f in farmers} == expected


def test_doubling_leaves_the_common_multiple(huanle: GameRules) -> None:
    plain, doubled = to_doubling(huanle, 11), to_doubling(huanle, 11)
    for game, kind in ((plain, "decline"), (doubled, "super_double")):
        for _ in range(3):
            seat = game.to_act
            assert seat is not None
            game.apply(Action(seat, kind))
    assert plain.multiple == doubled.multiple and not plain.pair_factors


def test_a_player_the_threshold_excludes_may_only_decline(huanle: GameRules) -> None:
    # 004 六.4-5: a farmer may double only when he and the landlord hold more than 5,000
    game = to_doubling(huanle, 11, MatchInfo(0, 1, holdings=(100_000, 100_000, 100_000)))
    lord = game.landlord
    poor = (lord + 1) % 3
    game = to_doubling(huanle, 11, MatchInfo(0, 1, holdings=tuple(4_000 if s == poor else 100_000
                                                                   for s in range(3))))
    seen = {}
    while game.phase == "declare":
        seat = game.to_act
        assert seat is not None
        seen[seat] = sorted(a.kind for a in game.legal_actions())
        game.apply(Action(seat, "decline"))
    assert seen[poor] == ["decline"]
    assert seen[lord] == ["decline"]  # a landlord needs every player above the threshold
    other = 3 - lord - poor
    assert seen[other] == ["decline", "double", "super_double"]


def test_record_replay_and_final_line_carry_the_pairs(huanle: GameRules, tmp_path) -> None:
    game = to_doubling(huanle, 11)
    for kind in ("double", "super_double", "decline"):
        seat = game.to_act
        assert seat is not None
        game.apply(Action(seat, kind))
    bots = [HeuristicBot(s) for s in range(3)]
    while not game.over:
        seat = game.to_act
        assert seat is not None
        game.apply(bots[seat].act(game.view(seat), game.legal_actions()))
    record = json.loads(json.dumps(game_record(game)))
    assert record["pair_factors"] == [{"farmer": f, "factor": v} for f, v in sorted(game.pair_factors.items())]
    assert replay(record).game.scores == game.scores
    record["pair_factors"][0]["factor"] *= 2
    with pytest.raises(ReplayError, match="pair factors"):
        replay(record)
    for seed in range(1, 12):
        out = CliRunner().invoke(main, ["play", "huanle", "--auto", "--seed", str(seed),
                                        "--bots", "search:iters=16"]).output
        if "super_double" in out:
            break
    assert "pair factors with the landlord" in out
