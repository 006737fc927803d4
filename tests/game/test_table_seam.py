"""The table seam (ddzrules.game.tables): a kind of table of the test's own, with no
landlord and a phase of its own before the declarations, plays whole games through the
same runtime; and the built-in tables answer as the spec's table.kind says."""

from __future__ import annotations

import copy
import pickle
from collections.abc import Mapping
from pathlib import Path

import pytest

import ddzrules
from ddzrules.bots import make_bot
from ddzrules.errors import DdzError, PluginError
from ddzrules.game import FreeForAllTable, LandlordTable, PartnershipsTable
from ddzrules.game.door import Hook
from ddzrules.game.tables import OwnedPhase, Table, TableGame
from ddzrules.game.values import GameState, Phase
from ddzrules.runtime import Action, Game, GameRules
from ddzrules.simulate import play_game
from ddzrules.variant import load_variant

FOUR = """\
name: four
deck: {decks: 1, jokers: true}
players: 4
deal: {hand: 13, kitty: 0, undealt: 2}
table: {kind: free-for-all}
combos: {single: "1", pair: "2", bomb: "4"}
bombs: [bomb]
game:
  settlement: {plugin: win-points, params: {points: 3}}
"""


class ChooseLoner:
    """Seat 0 names the seat that plays alone against the others."""

    name = "choose-loner"

    def __init__(self) -> None:
        self.chosen: int | None = None

    def to_act(self, game: GameState) -> int | None:
        return 0 if self.chosen is None else None

    def options(self, game: GameState) -> list[Action]:
        return [Action(0, "loner", s) for s in range(game.players)]

    def apply(self, game: GameState, action: Action) -> None:
        self.chosen = action.value


class LonerTable:
    """No landlord: one seat, chosen in a phase of the table's own, against the rest."""

    kind = "loner"
    has_landlord = False
    teams: tuple[tuple[int, ...], ...] = ()
    first_phase = "choose"

    def __init__(self) -> None:
        self.opened = 0

    def opening(self, game: TableGame, hooks: Mapping[str, Hook]) -> list[OwnedPhase]:
        self.opened += 1
        return [(ChooseLoner(), ("loner-table", "opening"))]

    def opening_over(self, game: TableGame, phase: Phase, owner: tuple[str, str]) -> None:
        assert isinstance(phase, ChooseLoner) and phase.chosen is not None
        game.public["loner"] = phase.chosen  # type: ignore[attr-defined]

    def side_of(self, game: GameState, seat: int) -> tuple[int, ...]:
        loner = game.public["loner"]
        return (seat,) if seat == loner else tuple(s for s in range(game.players) if s != loner)

    def partners(self, game: GameState, seat: int) -> tuple[int, ...]:
        return tuple(s for s in self.side_of(game, seat) if s != seat) if "loner" in game.public else ()

    def seat_role(self, game: GameState, seat: int) -> str:
        return "loner" if game.public.get("loner") == seat else ""

    def result_words(self, game: GameState, out: str, winners: str, you_won: bool) -> str:
        return f"{out} out; {winners} win."


def test_a_table_of_the_tests_own_plays_whole_games(tmp_path: Path) -> None:
    path = tmp_path / "four.yaml"
    path.write_text(FOUR, encoding="utf-8")
    table: Table = LonerTable()
    rules = GameRules(load_variant(str(path)), table=table)
    assert rules.table is table and rules.table_kind == "loner"
    sides_seen = set()
    for seed in range(12):
        game = rules.new_game(seed)
        assert game.phase == "choose" and game.to_act == 0 and game.landlord is None
        assert game.partners(1) == ()  # the sides are not known yet
        loner = seed % 4
        game.apply(Action(0, "loner", loner))
        assert game.phase == "play" and game.public["loner"] == loner
        others = tuple(s for s in range(4) if s != loner)
        assert game.side_of(loner) == (loner,) and game.side_of(others[0]) == others
        agents = [make_bot("heuristic", seed + i) for i in range(4)]
        while not game.over:
            seat = game.to_act
            assert seat is not None
            game.apply(agents[seat].act(game.view(seat), game.legal_actions()))
        assert game.landlord is None and game.kitty_visible is False
        assert game.winner is not None and set(game.winners) == set(game.side_of(game.winner))
        assert game.scores == [3 if s in game.winners else 0 for s in range(4)]
        sides_seen.add(len(game.winners))
        # a copy and a pickle keep the table and its sides
        assert copy.deepcopy(game).winners == game.winners
        assert pickle.loads(pickle.dumps(game)).winners == game.winners
    assert table.opened == 12 and sides_seen == {1, 3}  # the loner won some games, the rest others


@pytest.mark.skipif("game" in ddzrules.COMPILED_MODULES, reason="compiled classes cannot be patched")
def test_a_table_without_a_landlord_never_enters_landlord_code(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """The landlord table's steps, and the kitty's, fail when called: games at the other
    tables never call them, a landlord table's game does at once."""
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("landlord code entered")

    for name in ("opening", "opening_over", "side_of", "partners", "seat_role", "result_words"):
        monkeypatch.setattr(LandlordTable, name, refuse)
    monkeypatch.setattr(Game, "give_kitty", refuse)
    path = tmp_path / "four.yaml"
    path.write_text(FOUR, encoding="utf-8")
    partners = tmp_path / "partners.yaml"
    partners.write_text(FOUR.replace("{kind: free-for-all}", "{kind: partnerships, teams: [[0, 2], [1, 3]]}"),
                        encoding="utf-8")
    for rules in (GameRules.load(str(path)), GameRules.load(str(partners)), GameRules.load("paodekuai")):
        for seed in range(3):
            game = play_game(rules, [make_bot("random", seed + i) for i in range(rules.players)], seed)
            assert game.over and game.landlord is None and game.winners
    with pytest.raises(AssertionError, match="landlord code"):
        GameRules.load("hubei-3p").new_game(seed=1)


def test_the_spec_kind_chooses_the_built_in_table(tmp_path: Path) -> None:
    assert type(GameRules.load("hubei-3p").table) is LandlordTable
    assert type(GameRules.load("paodekuai").table) is FreeForAllTable
    path = tmp_path / "partners.yaml"
    path.write_text(FOUR.replace("{kind: free-for-all}", "{kind: partnerships, teams: [[0, 2], [1, 3]]}"),
                    encoding="utf-8")
    rules = GameRules.load(str(path))
    assert type(rules.table) is PartnershipsTable and rules.teams == [(0, 2), (1, 3)]
    game = rules.new_game(seed=2)
    assert game.side_of(3) == (1, 3) and game.partners(0) == (2,)


def test_a_landlord_is_fixed_only_at_a_table_that_has_one(tmp_path: Path) -> None:
    path = tmp_path / "four.yaml"
    path.write_text(FOUR, encoding="utf-8")
    with pytest.raises(DdzError, match=r"has no landlord \(loner table\)"):
        GameRules(load_variant(str(path)), table=LonerTable()).new_game(seed=1, landlord=0)


def test_a_table_that_fails_to_open_a_deal_is_named(tmp_path: Path) -> None:
    class Broken(LonerTable):
        def opening_over(self, game: TableGame, phase: Phase, owner: tuple[str, str]) -> None:
            raise PluginError(owner[0], owner[1], "left no loner")

    path = tmp_path / "four.yaml"
    path.write_text(FOUR, encoding="utf-8")
    game = GameRules(load_variant(str(path)), table=Broken()).new_game(seed=1)
    with pytest.raises(PluginError, match="loner-table.*left no loner"):
        game.apply(Action(0, "loner", 2))
    assert game.phase == "choose" and game.to_act == 0 and len(game.history) == 0  # put back
