"""Deck shapes, tables without a landlord, must-beat, the restrict hook, first leaders."""

from __future__ import annotations

import copy
from itertools import pairwise
from pathlib import Path
from typing import Any, ClassVar

import pytest

from ddzrules import cards as C
from ddzrules.bots import make_bot
from ddzrules.errors import DdzError, PlayError, SpecError
from ddzrules.hookspecs import hookimpl
from ddzrules.rules.variant import load_variant
from ddzrules.runtime import Action, Game, GameRules, MatchInfo, PluginRegistry
from ddzrules.simulate import play_game, summarise
from tests.example_plugin import RankLeads


def write(tmp_path: Path, text: str, name: str = "t.yaml") -> str:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return str(p)


SMALL = """\
name: small
deck: {decks: 1, jokers: false, remove: {ranks: "3456789TJQ", cards: "2A"}}
players: 2
deal: {hand: 4, kitty: 0, undealt: 2}
table: {kind: free-for-all, must_beat: true}
combos:
  single: "1"
  pair: "2"
  bomb: "4"
bombs: [bomb]
game:
  settlement: {plugin: cards-left, params: {last_card_free: false}}
"""


def test_deck_shape_census_by_hand(tmp_path: Path) -> None:
    v = load_variant(write(tmp_path, SMALL))
    deck = v.rules.deck
    # K: 4, A: 3, 2: 3, no other rank, no joker: 10 cards
    assert C.counts_to_string(deck) == "KKKKAAA222"
    census = v.census()
    # singles K A 2, pairs KK AA 22, one bomb KKKK (three As and three 2s make none)
    assert dict(census.by_combo) == {"single": 3, "pair": 3, "bomb": 1}
    assert census.total == 7


def test_deal_counts_and_undealt(tmp_path: Path) -> None:
    rules = GameRules.load(write(tmp_path, SMALL))
    game = rules.new_game(seed=5)
    assert [sum(h) for h in game.hands] == [4, 4]
    assert sum(game.undealt) == 10 - 8
    total = [a + b + u for a, b, u in zip(game.hands[0], game.hands[1], game.undealt)]
    assert total == rules.variant.rules.deck
    assert game.phase == "play" and game.landlord is None and game.first_leader == 0


def test_bad_deck_and_deal_are_reported(tmp_path: Path) -> None:
    bad = SMALL.replace('cards: "2A"', 'cards: "22222"')
    with pytest.raises(SpecError, match="cannot remove 5"):
        load_variant(write(tmp_path, bad, "b.yaml"))
    bad = SMALL.replace("undealt: 2", "undealt: 1")
    with pytest.raises(SpecError, match=r"do not make the 10-card deck"):
        GameRules.load(write(tmp_path, bad, "c.yaml"))
    bad = SMALL.replace("kitty: 0", "kitty: 1").replace("undealt: 2", "undealt: 1")
    with pytest.raises(SpecError, match="no\\s+landlord to take a kitty"):
        GameRules.load(write(tmp_path, bad, "d.yaml"))


def _must_beat_game() -> Game:
    rules = GameRules.load("paodekuai")
    return rules.new_game(seed=11)


def test_must_beat_refuses_pass_and_keeps_state() -> None:
    for seed in range(40):
        game = GameRules.load("paodekuai").new_game(seed=seed)
        leader = game.to_act
        assert leader is not None
        three = next(a for a in game.legal_actions() if a.move is not None and a.move.cards == "3")
        game.apply(three)
        seat = game.to_act
        assert seat is not None
        legal = game.legal_actions()
        if any(a.kind == "play" for a in legal):
            assert not any(a.kind == "pass" for a in legal)
            before = (copy.deepcopy(game.hands), len(game.history), game.to_act, game.last_play)
            with pytest.raises(PlayError, match="must beat"):
                game.apply(Action(seat, "pass"))
            assert (game.hands, len(game.history), game.to_act, game.last_play) == before
            return
    pytest.fail("no seed gave a beatable lead")


def test_pass_allowed_when_nothing_beats() -> None:
    for seed in range(200):
        game = GameRules.load("paodekuai").new_game(seed=seed)
        lead = max((a for a in game.legal_actions() if a.move is not None and a.move.size == 4
                    and not a.move.is_bomb), key=lambda a: a.move.rank if a.move else 0,
                   default=None)
        if lead is None:
            continue
        game.apply(lead)
        legal = game.legal_actions()
        if not any(a.kind == "play" for a in legal):
            assert legal == [Action(game.to_act or 0, "pass")]
            game.apply(legal[0])
            return
    pytest.fail("no seed gave an unbeatable answer")


def test_first_lead_must_hold_a_three() -> None:
    game = GameRules.load("paodekuai").new_game(seed=2)
    seat = game.to_act
    assert seat == game.first_leader == game.public["first_leader"]["seat"]
    legal = game.legal_actions()
    assert legal and all(a.move is not None and "3" in a.move.cards for a in legal)
    other = next((r for r in "456789TJQKA2" if game.hands[seat][C.RANKS.index(r)]), None)
    assert other is not None
    history = len(game.history)
    with pytest.raises(PlayError, match="not allowed now"):
        game.play(seat, other)
    assert len(game.history) == history and game.to_act == seat


class NoPairs:
    """A restriction for the test: pairs may never be played."""

    name = "no-pairs"
    params_schema: ClassVar[dict[str, Any]] = {"type": "object"}

    def __init__(self, params: dict[str, Any]) -> None:
        pass

    @hookimpl
    def ddzrules_restrict_actions(self, game: Game, seat: int, actions: list[Action]) -> list[Action]:
        return [a for a in actions if a.move is None or a.move.combo != "pair"]


def test_restrict_hook(tmp_path: Path) -> None:
    registry = PluginRegistry()
    registry.register("no-pairs", NoPairs)
    spec = write(tmp_path, SMALL.replace("game:\n", "game:\n  rules: [{plugin: no-pairs}]\n"))
    rules = GameRules(load_variant(spec), registry)
    for seed in range(30):
        game = rules.new_game(seed)
        hand = game.hand_string(0)
        pair = next((r * 2 for r in set(hand) if hand.count(r) >= 2), None)
        if pair is None:
            continue
        assert all(a.move is None or a.move.combo != "pair" for a in game.legal_actions())
        with pytest.raises(PlayError, match="not allowed now"):
            game.play(0, pair)
        assert game.hand_string(0) == hand and not game.history
        return
    pytest.fail("no seed dealt a pair")


def test_worked_plugin_leads(tmp_path: Path) -> None:
    registry = PluginRegistry()
    registry.register("rank-leads", RankLeads)
    spec = write(tmp_path, SMALL.replace("game:\n", "game:\n  leader: {plugin: rank-leads, params: "
                                                   "{rank: A}}\n"))
    rules = GameRules(load_variant(spec), registry)
    for seed in range(10):
        game = rules.new_game(seed)
        a = C.RANKS.index("A")
        holders = [s for s in range(2) if game.hands[s][a]]
        assert game.to_act == (holders[0] if holders else 0)


def test_first_leader_modes(tmp_path: Path) -> None:
    base = SMALL.replace("game:\n", "game:\n  leader: {plugin: first-leader, params: PARAMS}\n")
    prev = GameRules.load(write(tmp_path, base.replace("PARAMS", "{by: previous-winner, "
                                                       "fallback: seat, seat: 1}"), "p.yaml"))
    assert prev.new_game(1).to_act == 1
    assert prev.new_game(1, MatchInfo(1, 1, previous_winner=0)).to_act == 0
    rnd = GameRules.load(write(tmp_path, base.replace("PARAMS", "{by: random}"), "r.yaml"))
    assert {rnd.new_game(s).to_act for s in range(20)} == {0, 1}
    low = GameRules.load(write(tmp_path, base.replace("PARAMS", "{rank: K, among: lowest-seat}"),
                               "l.yaml"))
    for s in range(10):
        g = low.new_game(s)
        k = C.RANKS.index("K")
        expected = next((x for x in range(2) if g.hands[x][k]), None)
        if expected is not None:
            assert g.to_act == expected


PARTNERS = """\
name: partners
deck: {decks: 1, jokers: true}
players: 4
deal: {hand: 13, kitty: 0, undealt: 2}
table: {kind: partnerships, teams: [[0, 2], [1, 3]]}
combos: {single: "1", pair: "2", bomb: "4"}
bombs: [bomb]
game:
  settlement: {plugin: cards-left, params: {}}
"""


def test_partnership_and_free_for_all_scoring_zero_sum(tmp_path: Path) -> None:
    for text, name in ((PARTNERS, "pa.yaml"), (SMALL, "ffa.yaml")):
        rules = GameRules.load(write(tmp_path, text, name))
        for seed in range(15):
            agents = [make_bot("heuristic", seed + i) for i in range(rules.players)]
            game = play_game(rules, agents, seed)
            assert game.scores is not None and sum(game.scores) == 0
            assert game.landlord is None and game.landlord_won is None
            winners = game.winners
            assert game.winner in winners
            assert all(game.scores[w] >= 0 for w in winners)
            s = summarise(game, seed)
            assert s.landlord_won is None and s.landlord_score is None and s.stake is None
            if text is PARTNERS:
                assert set(winners) in ({0, 2}, {1, 3})


def test_bad_tables(tmp_path: Path) -> None:
    bad = PARTNERS.replace("[[0, 2], [1, 3]]", "[[0, 2], [1]]")
    with pytest.raises(SpecError, match="exactly\\s+one of two or more teams"):
        GameRules.load(write(tmp_path, bad, "x.yaml"))
    bad = SMALL.replace("cards-left, params: {last_card_free: false}", "stake-settlement")
    with pytest.raises(SpecError, match="needs a landlord"):
        GameRules.load(write(tmp_path, bad, "y.yaml"))


def test_restriction_leaving_nothing_is_a_plugin_bug(tmp_path: Path) -> None:
    class Nothing(NoPairs):
        @hookimpl
        def ddzrules_restrict_actions(self, game: Game, seat: int,
                                      actions: list[Action]) -> list[Action]:
            return []

    registry = PluginRegistry()
    registry.register("nothing", Nothing)
    spec = write(tmp_path, SMALL.replace("game:\n", "game:\n  rules: [{plugin: nothing}]\n"))
    with pytest.raises(DdzError, match="no legal action"):
        GameRules(load_variant(spec), registry).new_game(0).legal_actions()


def test_cards_left_settlement_rules() -> None:
    rules = GameRules.load("paodekuai")
    game = rules.new_game(0)
    plugin = next(inst for role, _, inst in rules.active if role == "settlement")
    game.hands[1] = [0] * len(game.hands[1])
    game.hands[1][0] = 1  # one card left: pays nothing
    assert plugin.owed(game, 1) == 0
    game.hands[2] = [0] * len(game.hands[2])
    game.hands[2][0] = 5  # five cards, never played: double
    assert plugin.owed(game, 2) == 10
    game.played[2].append(rules.variant.classify("3")[0])
    assert plugin.owed(game, 2) == 5


def test_a_match_passes_the_previous_winner_on(tmp_path: Path) -> None:
    import json

    from click.testing import CliRunner

    from ddzrules.cli import main

    spec = write(tmp_path, "name: winner-leads\nextends: paodekuai\ngame:\n  leader: {plugin: first-leader, "
                           "params: {by: previous-winner, fallback: seat, seat: 2}}\n", "w.yaml")
    result = CliRunner().invoke(main, ["match", spec, "--games", "5", "--seed", "3", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    games = data["games"]
    assert data["table"] == "free-for-all" and games[0]["first_leader"] == 2
    for before, game in pairwise(games):
        assert game["first_leader"] == before["winner"]
        assert game["winners"] == [game["winner"]] and game["landlord"] is None
    assert {g["winner"] for g in games} != {2}, "pick a seed where another seat wins a game"
    text = CliRunner().invoke(main, ["match", spec, "--games", "2", "--seed", "3"]).output
    assert "out first" in text and "farmers" not in text and "landlord" not in text
