"""Game records: a seeded all-bot game, recorded and replayed, gives the same
figures; a tampered record is reported, at the first divergent action when an
action was changed."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ddzrules import cards as C
from ddzrules.bots import Agent, HeuristicBot, RandomBot
from ddzrules.errors import DdzError
from ddzrules.records import FORMAT, ReplayError, game_record, load_record, replay, write_record
from ddzrules.runtime import Action, Game, GameRules, MatchInfo
from ddzrules.simulate import play_game

_RULES: dict[str, GameRules] = {}


def rules_for(spec: str) -> GameRules:
    if spec not in _RULES:
        _RULES[spec] = GameRules.load(spec)
    return _RULES[spec]


def bot_game(spec: str, seed: int, match: MatchInfo | None = None) -> Game:
    agents: list[Agent] = [HeuristicBot(seed + 1), RandomBot(seed + 2), HeuristicBot(seed + 3)]
    return play_game(rules_for(spec), agents, seed, match)


def as_json(game: Game) -> dict[str, Any]:
    """The record as it comes back from a file."""
    return json.loads(json.dumps(game_record(game)))


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    return as_json(bot_game("hubei-3p", 2024))


def play_indices(rec: dict[str, Any]) -> list[int]:
    return [i for i, a in enumerate(rec["actions"]) if a["kind"] == "play"]


def replay_error(rec: dict[str, Any]) -> ReplayError:
    with pytest.raises(ReplayError) as info:
        replay(rec)
    return info.value


# ====================================================================== round trip


@pytest.mark.parametrize("spec", ["hubei-3p", "crown-3p"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_round_trip(spec: str, seed: int) -> None:
    game = bot_game(spec, seed)
    rec = as_json(game)
    assert rec["format"] == FORMAT
    result = replay(rec)
    assert result.game.over
    assert result.game.scores == game.scores
    assert result.game.landlord == game.landlord
    assert result.game.stake == game.stake
    assert result.game.events == game.events
    assert result.game.history == game.history
    assert result.actions == len(game.history)


@settings(max_examples=15, deadline=None)
@given(spec=st.sampled_from(["hubei-3p", "crown-3p"]), seed=st.integers(0, 2**32),
       index=st.integers(0, 20), match_seed=st.integers(0, 1000))
def test_round_trip_property(spec: str, seed: int, index: int, match_seed: int) -> None:
    game = bot_game(spec, seed, MatchInfo(index, match_seed))
    result = replay(as_json(game))
    assert result.game.scores == game.scores
    assert result.game.history == game.history


def test_round_trip_through_a_file(tmp_path: Path) -> None:
    game = bot_game("crown-3p", 77)
    path = tmp_path / "game.json"
    write_record(game, path)
    assert replay(load_record(path)).game.scores == game.scores


def redeal_game() -> Game:
    """A hubei-3p game whose first deal is passed out by everyone, then played by bots."""
    rules = rules_for("hubei-3p")
    game = rules.new_game(5)
    for _ in range(3):
        seat = game.to_act
        assert seat is not None
        game.apply(Action(seat, "pass"))
    agents = [RandomBot(1), RandomBot(2), RandomBot(3)]
    while not game.over:
        seat = game.to_act
        assert seat is not None
        game.apply(agents[seat].act(game.view(seat), game.legal_actions()))
    return game


def test_a_game_with_a_redeal_round_trips() -> None:
    game = redeal_game()
    rec = as_json(game)
    assert len(rec["deals"]) >= 2
    assert any(a["kind"] == "redeal" for a in rec["actions"])
    assert replay(rec).game.scores == game.scores

    # a changed second deal is reported where the redeal happens
    bad = copy.deepcopy(rec)
    bad["deals"][1]["kitty"] = "333" if bad["deals"][1]["kitty"] != "333" else "444"
    err = replay_error(bad)
    assert "deal 2" in str(err)
    assert err.action_index == 2  # the third pass triggers the redeal

    # a redeal marker where the rules do not redeal is reported at its index
    moved = copy.deepcopy(rec)
    moved["actions"].insert(1, moved["actions"].pop(3))
    assert replay_error(moved).action_index == 1


def test_a_deleted_redeal_marker_is_reported() -> None:
    rec = as_json(redeal_game())
    i = next(i for i, a in enumerate(rec["actions"]) if a["kind"] == "redeal")
    del rec["actions"][i]
    assert replay_error(rec).action_index == i


# ====================================================================== tampering


def test_a_changed_play_is_reported_at_its_index(record: dict[str, Any]) -> None:
    plays = play_indices(record)
    for i in (plays[0], plays[len(plays) // 2], plays[-1]):
        bad = copy.deepcopy(record)
        bad["actions"][i]["value"] = "XXDD"  # cards nobody holds
        bad["actions"][i].pop("combo", None)
        bad["actions"][i].pop("rank", None)
        err = replay_error(bad)
        assert err.action_index == i
        assert f"#{i + 1}" in str(err)


def test_a_play_by_the_wrong_seat_is_reported_at_its_index(record: dict[str, Any]) -> None:
    i = play_indices(record)[3]
    bad = copy.deepcopy(record)
    bad["actions"][i]["seat"] = (bad["actions"][i]["seat"] + 1) % 3
    assert replay_error(bad).action_index == i


def test_a_changed_combo_reading_is_reported_at_its_index(record: dict[str, Any]) -> None:
    i = play_indices(record)[0]
    bad = copy.deepcopy(record)
    bad["actions"][i]["combo"] = "rocket"
    assert replay_error(bad).action_index == i


def test_a_changed_bid_is_reported_at_its_index(record: dict[str, Any]) -> None:
    bad = copy.deepcopy(record)
    first = bad["actions"][0]
    # a bid of 4 is never legal in hubei-3p
    bad["actions"][0] = {"seat": first["seat"], "kind": "bid", "value": 4}
    assert replay_error(bad).action_index == 0


def test_a_pass_turned_into_a_play_is_reported_at_its_index(record: dict[str, Any]) -> None:
    passes = [i for i, a in enumerate(record["actions"])
              if a["kind"] == "pass" and i > play_indices(record)[0]]
    i = passes[0]
    bad = copy.deepcopy(record)
    bad["actions"][i] = {"seat": bad["actions"][i]["seat"], "kind": "play", "value": "XXDD"}
    assert replay_error(bad).action_index == i


def test_a_truncated_action_list_is_reported(record: dict[str, Any]) -> None:
    for keep in (len(record["actions"]) - 1, len(record["actions"]) // 2, 0):
        bad = copy.deepcopy(record)
        bad["actions"] = bad["actions"][:keep]
        err = replay_error(bad)
        assert "ends before the game does" in str(err)


def test_an_extra_action_is_reported_at_its_index(record: dict[str, Any]) -> None:
    bad = copy.deepcopy(record)
    n = len(bad["actions"])
    bad["actions"].append({"seat": 0, "kind": "pass"})
    err = replay_error(bad)
    assert err.action_index == n
    assert "over" in str(err)


@pytest.mark.parametrize("key, value", [
    ("scores", "swap"), ("landlord", "next"), ("stake", "plus"), ("winner", "next"), ("events", "extra"),
])
def test_changed_final_figures_are_reported(record: dict[str, Any], key: str, value: str) -> None:
    bad = copy.deepcopy(record)
    if value == "swap":
        bad["scores"] = [-s for s in bad["scores"]]
    elif value == "next":
        bad[key] = (bad[key] + 1) % 3
    elif value == "plus":
        bad[key] = bad[key] + 1
    else:
        bad["events"] = bad["events"] + [{"name": "bomb", "factor": 2, "seat": 0, "detail": "3333"}]
    err = replay_error(bad)
    assert key in str(err)


def test_a_changed_multiple_is_reported(record: dict[str, Any]) -> None:
    bad = copy.deepcopy(record)
    bad["multiple"] = record["multiple"] * 2 + 1
    err = replay_error(bad)
    assert "multiple" in str(err)


def test_a_changed_deal_is_reported(record: dict[str, Any]) -> None:
    bad = copy.deepcopy(record)
    hands = bad["deals"][0]["hands"]
    # swap one card between two hands: still a whole deck, but not the seed's deal
    a, b = hands[0], hands[1]
    ca = next(ch for ch in a if ch not in b)
    cb = next(ch for ch in b if ch not in a)
    hands[0] = C.parse_cards(a.replace(ca, cb, 1))
    hands[1] = C.parse_cards(b.replace(cb, ca, 1))
    err = replay_error(bad)
    assert "deal 1 differs" in str(err)


def test_a_changed_seed_is_reported(record: dict[str, Any]) -> None:
    bad = copy.deepcopy(record)
    bad["seed"] = record["seed"] + 1
    assert "deal 1 differs" in str(replay_error(bad))


def test_a_changed_spec_hash_is_reported(record: dict[str, Any]) -> None:
    bad = copy.deepcopy(record)
    bad["spec_hash"] = "0" * len(record["spec_hash"])
    err = replay_error(bad)
    assert "changed" in str(err) and "hubei-3p" in str(err)


def test_a_record_of_another_spec_is_reported(record: dict[str, Any]) -> None:
    bad = copy.deepcopy(record)
    bad["spec"] = "crown-3p"
    assert "changed" in str(replay_error(bad))


@pytest.mark.parametrize("change", ["format", "no-seed", "no-spec", "unknown-spec"])
def test_malformed_records_are_reported(record: dict[str, Any], change: str) -> None:
    bad = copy.deepcopy(record)
    if change == "format":
        bad["format"] = "something/else"
    elif change == "no-seed":
        del bad["seed"]
    elif change == "no-spec":
        del bad["spec"]
    else:
        bad["spec"] = "no-such-spec"
    with pytest.raises(DdzError):
        replay(bad)


@pytest.mark.parametrize("garbage", ["not json at all", "[1, 2, 3]"])
def test_load_record_rejects_garbage(tmp_path: Path, garbage: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(garbage, encoding="utf-8")
    with pytest.raises(DdzError):
        load_record(path)


def test_load_record_of_a_missing_file(tmp_path: Path) -> None:
    with pytest.raises(DdzError):
        load_record(tmp_path / "missing.json")


def test_malformed_actions_are_reported_at_their_index(record: dict[str, Any]) -> None:
    for junk in ("pass", None, {"kind": "pass"}, {"seat": "x", "kind": "pass"}):
        bad = copy.deepcopy(record)
        bad["actions"][1] = junk
        assert replay_error(bad).action_index == 1


# ====================================================================== tables without a landlord

#: 跑得快 where the previous game's winner leads (a match's first game: the holder of the 3)
PREVIOUS_LEADS = """\
name: paodekuai-winner-leads
extends: paodekuai
game:
  leader: {plugin: first-leader, params: {by: previous-winner, fallback: rank-holder}}
"""


def test_a_record_keeps_the_previous_winner_who_led(tmp_path: Path) -> None:
    spec = tmp_path / "paodekuai-winner-leads.yaml"
    spec.write_text(PREVIOUS_LEADS, encoding="utf-8")
    rules = GameRules.load(str(spec))
    first = rules.new_game(9).first_leader
    previous = (first or 0) + 1  # not the seat that would lead without it
    agents: list[Agent] = [HeuristicBot(1), HeuristicBot(2), HeuristicBot(3)]
    game = play_game(rules, agents, 9, MatchInfo(1, 4, previous_winner=previous))
    assert game.first_leader == previous
    rec = as_json(game)
    assert rec["match"]["previous_winner"] == previous
    spec.unlink()  # replayed from the record alone
    result = replay(rec)
    assert result.game.first_leader == previous and result.game.scores == game.scores
    # another previous winner leads another seat: the first play is by the wrong seat
    bad = copy.deepcopy(rec)
    bad["match"]["previous_winner"] = first
    assert replay_error(bad).action_index == 0
    for value in (3, -1, "1"):
        bad["match"]["previous_winner"] = value
        with pytest.raises(ReplayError, match="previous_winner"):
            replay(bad)


def test_an_erren_record_holds_the_undealt_cards_and_replays() -> None:
    game = bot_game("erren", 5)
    rec = as_json(game)
    deck = rules_for("erren").variant.rules.deck
    for deal in rec["deals"]:
        assert len(deal["undealt"]) == 9
        together = "".join(deal["hands"]) + deal["kitty"] + deal["undealt"]
        assert C.counts_of(C.parse_ranks(together)) == list(deck)
    assert rec["deals"][-1]["undealt"] == C.counts_to_string(game.undealt)
    assert replay(rec).game.scores == game.scores
    bad = copy.deepcopy(rec)
    undealt = bad["deals"][0]["undealt"]
    bad["deals"][0]["undealt"] = undealt[1:] + ("5" if undealt[0] != "5" else "6")
    assert "deal 1 differs" in str(replay_error(bad))
    # a record of a spec that deals every card has no undealt cards to show
    assert "undealt" not in as_json(bot_game("paodekuai", 5))["deals"][0]


def test_a_paodekuai_record_round_trips() -> None:
    game = bot_game("paodekuai", 12)
    rec = as_json(game)
    assert rec["landlord"] is None and rec["winner"] == game.winner
    result = replay(rec)
    assert result.game.winners == game.winners and result.game.scores == game.scores
