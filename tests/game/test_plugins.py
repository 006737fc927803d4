"""Plugins: discovery through the ``ddzrules`` entry-point group, a third-party
plugin loaded with no runtime change, and the errors a spec's ``game:`` section
can cause (each a SpecError naming the culprit)."""

from __future__ import annotations

import json
from importlib import metadata
from pathlib import Path
from typing import Any, ClassVar

import pytest
from click.testing import CliRunner

from ddzrules import cards as C
from ddzrules.cli import main
from ddzrules.errors import SpecError
from ddzrules.hookspecs import hookimpl
from ddzrules.rules.moves import Move
from ddzrules.rules.variant import load_variant
from ddzrules.runtime import (
    Action,
    Game,
    GameRules,
    MultiplierEvent,
    PluginRegistry,
    implemented_hooks,
)

#: the built-in plugins and the hooks each must implement to do its job
BUILTIN_HOOKS = {
    "point-bids": {"ddzrules_first_bidder", "ddzrules_landlord_phase"},
    "bomb-doubling": {"ddzrules_on_play"},
    "spring": {"ddzrules_on_game_end"},
    "stake-settlement": {"ddzrules_settle"},
}


def builtin_registry() -> PluginRegistry:
    """A registry without discovery, holding the built-ins registered by hand."""
    registry = PluginRegistry(discover=False)
    found = PluginRegistry()
    for name in BUILTIN_HOOKS:
        cls = found.get(name)
        assert cls is not None
        registry.register(name, cls)
    return registry


def write_spec(tmp_path: Path, body: str, name: str = "test-plugins") -> Path:
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"name: {name}\nextends: hubei-3p\n{body}", encoding="utf-8")
    return path


def spec_error(path: Path, registry: PluginRegistry | None = None) -> SpecError:
    with pytest.raises(SpecError) as info:
        GameRules(load_variant(path), registry)
    return info.value


# ====================================================================== discovery


def test_entry_points_list_the_builtins() -> None:
    eps = {ep.name: ep for ep in metadata.entry_points(group="ddzrules")}
    assert set(BUILTIN_HOOKS) <= set(eps)
    for name, hooks in BUILTIN_HOOKS.items():
        cls = eps[name].load()
        assert hooks <= set(implemented_hooks(cls)), name


def test_the_default_registry_discovers_the_builtins() -> None:
    registry = PluginRegistry()
    assert set(BUILTIN_HOOKS) <= set(registry.names())
    for name, hooks in BUILTIN_HOOKS.items():
        cls = registry.get(name)
        assert cls is not None
        assert hooks <= set(implemented_hooks(cls))
        assert "entry point" in registry.source(name)


def test_a_registry_without_discovery_knows_only_what_is_registered(tmp_path: Path) -> None:
    registry = PluginRegistry(discover=False)
    assert registry.names() == []
    assert registry.get("point-bids") is None
    # so the bundled spec cannot be played with it: every plugin it names is unknown
    err = spec_error(write_spec(tmp_path, ""), registry)
    for name in BUILTIN_HOOKS:
        assert f"unknown plugin {name!r}" in str(err)


def test_builtins_registered_by_hand_play_the_bundled_spec() -> None:
    rules = GameRules(load_variant("hubei-3p"), builtin_registry())
    game = rules.new_game(3)
    seat = game.to_act
    assert seat is not None
    game.apply(Action(seat, "bid", 3))
    assert game.landlord == seat


# ====================================================================== a third-party plugin


class TrioDoubler:
    """A third-party multiplier: every trio (三张) played multiplies the score."""

    name = "trio-doubler"
    params_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "additionalProperties": False,
        "properties": {"factor": {"type": "number", "exclusiveMinimum": 0}},
    }

    def __init__(self, params: dict[str, Any]) -> None:
        self.factor = params.get("factor", 2)

    @hookimpl
    def ddzrules_on_play(self, game: Game, seat: int, move: Move, led: bool) -> list[MultiplierEvent] | None:
        if move.combo != "trio":
            return None
        return [MultiplierEvent("trio", self.factor, seat, move.cards)]

    @hookimpl
    def ddzrules_describe(self) -> dict[str, Any]:
        return {"summary": f"×{self.factor} per trio"}


THIRD_PARTY_GAME = """\
game:
  multipliers:
    - plugin: bomb-doubling
      params: {bombs: effective, factor: 2}
    - plugin: spring
    - plugin: trio-doubler
      params: {factor: 3}
"""


def test_a_third_party_plugin_loads_without_runtime_changes(tmp_path: Path) -> None:
    registry = builtin_registry()
    registry.register("trio-doubler", TrioDoubler)
    rules = GameRules(load_variant(write_spec(tmp_path, THIRD_PARTY_GAME)), registry)
    assert ("multipliers", "trio-doubler") in [(role, name) for role, name, _ in rules.active]
    plugin = next(inst for _, name, inst in rules.active if name == "trio-doubler")
    assert isinstance(plugin, TrioDoubler) and plugin.factor == 3  # its params, validated and passed

    # set up a game: the first bidder takes the landlord with these 20 cards and leads trios
    game = rules.new_game(8)
    lord = game.to_act
    assert lord is not None
    f1, f2 = (lord + 1) % 3, (lord + 2) % 3
    lord_cards = C.deck_list(C.counts_of(C.parse_ranks("333 444 555 666 777 888 99")))
    farmer1 = C.counts_of(C.parse_ranks("3 4 5 6 7 8 9 TTTT JJJJ QQ"))
    farmer2 = [4 * (r < 13) + (r >= 13) - a - b for r, (a, b) in
               enumerate(zip(C.counts_of(lord_cards), farmer1))]
    assert sum(farmer2) == 17 and min(farmer2) >= 0
    game.hands = [[], [], []]
    game.hands[lord] = C.counts_of(lord_cards[:17])
    game.hands[f1], game.hands[f2] = farmer1, farmer2
    game.kitty = C.counts_of(lord_cards[17:])
    game.apply(Action(lord, "bid", 1))
    game.apply(Action(f1, "pass"))
    game.apply(Action(f2, "pass"))
    assert game.landlord == lord

    game.play(lord, "333")
    assert [(e.name, e.factor) for e in game.events] == [("trio", 3)]
    game.play(f1, None)
    game.play(f2, None)
    game.play(lord, "444")
    assert game.multiple == 9
    for trio in ("555", "666", "777", "888"):
        game.play(f1, None)
        game.play(f2, None)
        game.play(lord, trio)
    game.play(f1, None)
    game.play(f2, None)
    game.play(lord, "99")
    assert game.over and game.landlord_won
    # six trios ×3 each, and a spring ×2 (the farmers played nothing), on a bid of 1
    assert sorted(e.name for e in game.events) == ["spring"] + ["trio"] * 6
    assert game.multiple == 3 ** 6 * 2
    assert game.scores is not None
    assert game.scores[lord] == 2 * 3 ** 6 * 2
    assert game.scores[f1] == game.scores[f2] == -(3 ** 6) * 2


def test_a_third_party_plugin_validates_its_params(tmp_path: Path) -> None:
    registry = builtin_registry()
    registry.register("trio-doubler", TrioDoubler)
    path = write_spec(tmp_path, THIRD_PARTY_GAME.replace("{factor: 3}", "{factor: 0}"))
    err = spec_error(path, registry)
    assert "trio-doubler" in str(err) and "factor" in str(err)


def test_a_plugin_without_params_schema_takes_no_params(tmp_path: Path) -> None:
    class NoParams:
        def __init__(self, params: dict[str, Any]) -> None:
            self.params = params

        @hookimpl
        def ddzrules_on_game_end(self, game: Game) -> None:
            return None

    registry = builtin_registry()
    registry.register("no-params", NoParams)
    ok = write_spec(tmp_path, "game:\n  multipliers:\n    - plugin: no-params\n", "ok")
    rules = GameRules(load_variant(ok), registry)
    assert [name for _, name, _ in rules.active].count("no-params") == 1
    bad = write_spec(tmp_path, "game:\n  multipliers:\n    - plugin: no-params\n      params: {x: 1}\n", "bad")
    err = spec_error(bad, registry)
    assert "no-params" in str(err) and "'x'" in str(err)


# ====================================================================== spec errors


def test_unknown_plugin_is_named(tmp_path: Path) -> None:
    path = write_spec(tmp_path, "game:\n  multipliers:\n    - plugin: bomb-dubling\n")
    err = spec_error(path)
    assert "unknown plugin 'bomb-dubling'" in str(err)
    assert "bomb-doubling" in str(err)  # the hint
    assert path.name in str(err)        # where: the file that names it
    assert any(p.path == "game.multipliers.0.plugin" for p in err.problems)


def test_unknown_landlord_plugin_is_named(tmp_path: Path) -> None:
    err = spec_error(write_spec(tmp_path, "game:\n  landlord: {plugin: auction-house}\n"))
    assert "unknown plugin 'auction-house'" in str(err)


def test_unknown_parameter_is_named(tmp_path: Path) -> None:
    path = write_spec(tmp_path, "game:\n  multipliers:\n    - plugin: bomb-doubling\n"
                                "      params: {bombs: all, factr: 2}\n")
    err = spec_error(path)
    assert "'factr'" in str(err) and "bomb-doubling" in str(err)
    assert "factor" in str(err)  # the hint


@pytest.mark.parametrize("params, culprit", [
    ("{bombs: sometimes}", "sometimes"),
    ("{factor: -2}", "factor"),
    ("{factor: two}", "factor"),
])
def test_invalid_parameter_is_named(tmp_path: Path, params: str, culprit: str) -> None:
    path = write_spec(tmp_path, f"game:\n  multipliers:\n    - plugin: bomb-doubling\n      params: {params}\n")
    err = spec_error(path)
    assert "bomb-doubling" in str(err) and culprit in str(err)


def test_invalid_landlord_parameter_is_named(tmp_path: Path) -> None:
    path = write_spec(tmp_path, "game:\n  landlord: {plugin: point-bids, params: {rounds: forever}}\n")
    err = spec_error(path)
    assert "point-bids" in str(err) and "forever" in str(err)


@pytest.mark.parametrize("role", ["landlord", "settlement"])
def test_missing_landlord_or_settlement_is_named(tmp_path: Path, role: str) -> None:
    err = spec_error(write_spec(tmp_path, f"game:\n  {role}: null\n"))
    assert f"game.{role} is missing" in str(err)


def test_a_plugin_that_cannot_fill_its_role_is_named(tmp_path: Path) -> None:
    err = spec_error(write_spec(tmp_path, "game:\n  settlement: {plugin: spring}\n"))
    assert "spring" in str(err) and "settlement" in str(err)
    err = spec_error(write_spec(tmp_path, "game:\n  landlord: {plugin: stake-settlement}\n", "other"))
    assert "stake-settlement" in str(err) and "landlord" in str(err)


def test_every_problem_is_reported_at_once(tmp_path: Path) -> None:
    path = write_spec(tmp_path, "game:\n  multipliers:\n    - plugin: nope\n    - plugin: spring\n"
                                "      params: {sprung: 2}\n  settlement: null\n")
    err = spec_error(path)
    text = str(err)
    assert "'nope'" in text and "'sprung'" in text and "game.settlement is missing" in text
    assert len(err.problems) == 3


def test_a_spec_without_a_game_section_cannot_be_played(tmp_path: Path) -> None:
    err = spec_error(write_spec(tmp_path, "game: null\n"))
    assert "game" in str(err)


def test_a_deal_that_does_not_make_the_deck_is_an_error(tmp_path: Path) -> None:
    err = spec_error(write_spec(tmp_path, "deal: {hand: 16, kitty: 3}\n"))
    assert "deal" in str(err) or "deck" in str(err)


# ====================================================================== the plugins command


def test_plugins_command_lists_the_builtins_with_their_hooks() -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["plugins", "--json"])
    assert result.exit_code == 0, result.output
    rows = {row["name"]: row for row in json.loads(result.output)}
    for name, hooks in BUILTIN_HOOKS.items():
        assert hooks <= set(rows[name]["hooks"]), name
        assert rows[name]["summary"]

    text = runner.invoke(main, ["plugins"])
    assert text.exit_code == 0
    flat = " ".join(text.output.split())
    for name in BUILTIN_HOOKS:
        assert name in flat
    for hook in ("first_bidder", "landlord_phase", "on_play", "on_game_end", "settle"):
        assert hook in flat
