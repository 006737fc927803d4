"""qiangdizhu-classic (seeds/001, digest B): win points and ten-game matches.

【勝負判定】任意一家出完牌後結束遊戲,若是地主先出完牌則地主勝,否則另外兩家勝,勝方每人積一分,
十把後積分最多者勝出 — each player of the winning side scores one point, the losers
nothing (so scores are not zero-sum), and after ten games the highest total wins.
The match is played by ``ddzrules match SPEC --games 10``.

The call-rob protocol of this spec is tested with qiangdizhu's in tests/variants/test_qiangdizhu.py.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from ddzrules import cards as C
from ddzrules.bots import HeuristicBot, RandomBot, make_bot
from ddzrules.cli import main
from ddzrules.runtime import Action, Game, GameRules, MatchInfo
from ddzrules.simulate import game_seed, play_game

DECK = C.full_deck()


@pytest.fixture(scope="module")
def classic(_private_cache: None) -> GameRules:
    return GameRules.load("qiangdizhu-classic")


@pytest.fixture()
def runner() -> CliRunner:
    return CliRunner()


# ====================================================================== helpers


def counts(cards: str) -> list[int]:
    return C.counts_of(C.parse_ranks(cards))


def take_landlord(game: Game) -> dict[str, int]:
    """Decline every 明牌 step; the first caller calls and nobody robs. Returns seats by role."""
    while game.phase == "landlord" and "show" in [a.kind for a in game.legal_actions()]:
        game.apply(Action(game.to_act, "decline"))  # type: ignore[arg-type]
    first = game.to_act
    assert first is not None
    game.apply(Action(first, "call"))
    while game.phase == "landlord":
        game.apply(Action(game.to_act, "decline"))  # type: ignore[arg-type]
    while game.phase == "declare":           # 明牌 after the kitty: declined
        game.apply(Action(game.to_act, "decline"))  # type: ignore[arg-type]
    assert game.landlord == first and game.phase == "play"
    return {"L": first, "F1": (first + 1) % 3, "F2": (first + 2) % 3}


def rig(game: Game, landlord: str, farmer1: str) -> None:
    """Replace the deal of a fresh game: the first caller (the landlord-to-be) gets the
    first 17 of ``landlord``'s 20 cards and the kitty the last 3; the next seat gets
    ``farmer1``; the seat after, the rest of the deck."""
    assert not game.history
    first = game.first_bidder
    lord_cards = C.deck_list(counts(landlord))
    assert len(lord_cards) == 20
    f1 = counts(farmer1)
    assert sum(f1) == 17
    rest = [DECK[r] - counts(landlord)[r] - f1[r] for r in range(C.NUM_RANKS)]
    assert min(rest) >= 0 and sum(rest) == 17
    hands = [[0] * C.NUM_RANKS for _ in range(3)]
    hands[first] = C.counts_of(lord_cards[:17])
    hands[(first + 1) % 3] = f1
    hands[(first + 2) % 3] = rest
    game.hands = hands
    game.kitty = C.counts_of(lord_cards[17:])


def run(game: Game, seats: dict[str, int], plays: list[tuple[str, str | None]]) -> None:
    for role, cards in plays:
        assert game.to_act == seats[role], f"expected {role} to act before {cards}"
        game.play(seats[role], cards)


# ====================================================================== win points


def test_landlord_wins_one_point_farmers_none(classic: GameRules) -> None:
    game = classic.new_game(1)
    rig(game, "3333 4444 XD 555666 7778", "5 6 7 8 9 T J Q K A 2 TT JJ QQ")
    seats = take_landlord(game)
    run(game, seats, [("L", "3333"), ("F1", None), ("F2", None),
                      ("L", "4444"), ("F1", None), ("F2", None),
                      ("L", "XD"), ("F1", None), ("F2", None),
                      ("L", "555666"), ("F1", None), ("F2", None),
                      ("L", "7778")])
    assert game.over and game.landlord_won
    # bombs, a rocket and a spring change nothing: one point to each winner
    assert game.scores is not None
    assert game.scores[seats["L"]] == 1 and game.scores[seats["F1"]] == game.scores[seats["F2"]] == 0
    assert game.multiple == 1


def test_farmers_win_one_point_each(classic: GameRules) -> None:
    game = classic.new_game(2)
    rig(game, "333 4444 5555 6666 AA 22 X", "777 888 999 TTT JJJ Q K")
    seats = take_landlord(game)
    run(game, seats, [("L", "3"), ("F1", "Q"), ("F2", None), ("L", None),
                      ("F1", "777888999TTTJJJ"), ("F2", None), ("L", None),
                      ("F1", "K")])
    assert game.over and not game.landlord_won
    assert game.scores is not None
    assert game.scores[seats["L"]] == 0
    assert game.scores[seats["F1"]] == game.scores[seats["F2"]] == 1   # the partner scores too


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6, 7, 8])
def test_bot_games_score_win_points(classic: GameRules, seed: int) -> None:
    game = play_game(classic, [HeuristicBot(seed), RandomBot(seed), HeuristicBot(seed + 3)], seed)
    assert game.over and game.scores is not None
    lord = game.landlord
    for s in range(3):
        winner_side = (s == lord) == game.landlord_won
        assert game.scores[s] == (1 if winner_side else 0)
    assert sum(game.scores) == (1 if game.landlord_won else 2)
    assert game.multiple == 1 and game.stake == 1


# ====================================================================== the match command


def match_json(runner: CliRunner, *args: str) -> dict:
    result = runner.invoke(main, ["match", *args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_match_of_ten_games(runner: CliRunner, classic: GameRules) -> None:
    data = match_json(runner, "qiangdizhu-classic", "--games", "10", "--seed", "1")
    assert data["spec"] == "qiangdizhu-classic" and data["seed"] == 1
    games = data["games"]
    assert [g["game"] for g in games] == list(range(1, 11))
    # the totals are the sums of the games' scores
    totals = [sum(g["scores"][s] for g in games) for s in range(3)]
    assert data["totals"] == totals
    # 十把後積分最多者勝出: every seat with the highest total (ties included)
    assert data["winners"] == [s for s in range(3) if totals[s] == max(totals)]
    for i, g in enumerate(games):
        assert g["seed"] == game_seed(1, i)
        lord = g["landlord"]
        expected = [1 if (s == lord) == g["landlord_won"] else 0 for s in range(3)]
        assert g["scores"] == expected
        assert g["multiple"] == 1 and g["stake"] == 1
    # the games are real games: replaying game i with the same bots gives the same result
    for i in (0, 5, 9):
        gseed = game_seed(1, i)
        agents = [make_bot("heuristic", gseed + 101 * (s + 1)) for s in range(3)]
        game = play_game(classic, agents, gseed, MatchInfo(i, 1, None))
        assert game.scores == games[i]["scores"] and game.landlord == games[i]["landlord"]


def test_match_is_reproducible_and_seeded(runner: CliRunner) -> None:
    a = match_json(runner, "qiangdizhu-classic", "--games", "10", "--seed", "1")
    b = match_json(runner, "qiangdizhu-classic", "--games", "10", "--seed", "1")
    c = match_json(runner, "qiangdizhu-classic", "--games", "10", "--seed", "2")
    assert a == b
    assert [g["seed"] for g in a["games"]] != [g["seed"] for g in c["games"]]


def test_match_text_output_names_the_winner(runner: CliRunner) -> None:
    result = runner.invoke(main, ["match", "qiangdizhu-classic", "--games", "10", "--seed", "1"])
    assert result.exit_code == 0, result.output
    out = " ".join(result.output.split())
    assert "a match of 10 games" in out and "match winner" in out
    data = match_json(runner, "qiangdizhu-classic", "--games", "10", "--seed", "1")
    for s in data["winners"]:
        assert f"seat {s}" in out.split("match winner", 1)[1]


def test_match_serves_another_variant(runner: CliRunner) -> None:
    data = match_json(runner, "hubei-3p", "--games", "4", "--seed", "3", "--bots", "heuristic,random,random")
    assert data["spec"] == "hubei-3p" and data["bots"] == ["heuristic", "random", "random"]
    assert len(data["games"]) == 4
    totals = [sum(g["scores"][s] for g in data["games"]) for s in range(3)]
    assert data["totals"] == totals
    assert data["winners"] == [s for s in range(3) if totals[s] == max(totals)]
    for g in data["games"]:
        # hubei-3p settles zero-sum: landlord ±2 × stake × multiple, each farmer ∓ stake × multiple
        assert sum(g["scores"]) == 0
        unit = round(g["stake"] * g["multiple"])
        sign = 1 if g["landlord_won"] else -1
        assert g["scores"] == [sign * (2 * unit if s == g["landlord"] else -unit) for s in range(3)]


@pytest.mark.parametrize("args", [["--games", "0"], ["--bots", "genius"]])
def test_match_rejects_bad_options(runner: CliRunner, args: list[str]) -> None:
    result = runner.invoke(main, ["match", "qiangdizhu-classic", *args])
    assert result.exit_code == 1, result.output
    assert "error" in result.output.lower() and "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
