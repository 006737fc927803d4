"""Plugins that do not end (issue 43): a hook or phase method raising SystemExit or
GeneratorExit, a list answer that iterates for ever, a phase that never ends, a plugin
declaring endless decisions, a parameter the runtime would refuse. Each is bounded and is
a PluginError (or, for a parameter, a spec problem at its line) naming the plugin and the
hook; Ctrl-C and a stop from outside still go through plugin code."""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path
from typing import Any, ClassVar

import pytest

from ddzrules.bots import make_bot
from ddzrules.errors import PluginError, SpecError, Stopped
from ddzrules.game.checks import FACTOR_LIMIT, MAX_ITEMS
from ddzrules.game.rules import MAX_REDEALS, PHASE_TURNS
from ddzrules.hookspecs import hookimpl
from ddzrules.lint import validate_spec
from ddzrules.rules.variant import load_variant
from ddzrules.runtime import (
    Action,
    Game,
    GameRules,
    MultiplierEvent,
    PluginRegistry,
    call_declared,
    default_registry,
)


class Endless(list):  # type: ignore[type-arg]
    """A list that says it is short and iterates for ever (each item the first)."""

    def __init__(self, item: Any) -> None:
        super().__init__([item])
        self.item = item

    def __iter__(self) -> Any:
        return itertools.repeat(self.item)


class OnPlay:
    """Raises, or answers, on each play what its ``kind`` says."""

    name = "on-play"
    params_schema: ClassVar[dict[str, Any]] = {"type": "object"}

    def __init__(self, params: dict[str, Any]) -> None:
        self.kind = params["kind"]

    @hookimpl
    def ddzrules_on_play(self, game: Game, seat: int, move: Any, led: bool) -> Any:
        kind = self.kind
        if kind == "endless":
            return Endless(MultiplierEvent("x", 2))
        if kind == "too-many":
            return [MultiplierEvent("x", 1)] * (MAX_ITEMS + 1)
        raise {"SystemExit": SystemExit(0), "GeneratorExit": GeneratorExit(),
               "KeyboardInterrupt": KeyboardInterrupt(), "Stopped": Stopped(),
               "BaseException": BaseException("odd")}[kind]


class Forever:
    """A landlord phase that never ends: whoever acts passes the turn on, for ever (or, with
    ``kind: endless-options``, is offered a list that iterates for ever)."""

    name = "forever"

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.turn = 0

    def to_act(self, game: Game) -> int:
        return self.turn

    def options(self, game: Game) -> Any:
        if self.kind == "endless-options":
            return Endless(Action(self.turn, "wait"))
        return [Action(self.turn, "wait")]

    def apply(self, game: Game, action: Action) -> None:
        self.turn = game.next_seat(self.turn)


class ForeverLandlord:
    name = "forever-landlord"
    params_schema: ClassVar[dict[str, Any]] = {"type": "object"}

    def __init__(self, params: dict[str, Any]) -> None:
        self.kind = params.get("kind", "")

    @hookimpl
    def ddzrules_landlord_phase(self, game: Game) -> Any:
        return Forever(self.kind)

    @hookimpl
    def ddzrules_actions(self) -> Any:
        if self.kind == "declares-endless":
            return Endless(("wait", None))
        if self.kind == "declares-too-many":
            return [("wait", i) for i in range(MAX_ITEMS + 1)]
        if self.kind == "declares-exit":
            raise SystemExit(0)
        return [("wait", None)]


def registry() -> PluginRegistry:
    found = PluginRegistry()
    for cls in (OnPlay, ForeverLandlord):
        found.register(cls.name, cls)
    return found


def spec_with(tmp_path: Path, game: dict[str, Any]) -> Path:
    path = tmp_path / "bounds.yaml"
    path.write_text(f"name: bounds\nextends: hubei-3p\ngame: {json.dumps(game)}\n", encoding="utf-8")
    return path


def on_play_rules(tmp_path: Path, kind: str) -> GameRules:
    path = spec_with(tmp_path, {"multipliers": [{"plugin": "on-play", "params": {"kind": kind}}]})
    return GameRules(load_variant(path), registry())


def play_until_a_play(rules: GameRules) -> None:
    game = rules.new_game(5)
    bots = [make_bot("random", s) for s in range(game.players)]
    while not game.over:
        seat = game.to_act
        assert seat is not None
        game.apply(bots[seat].act(game.view(seat), game.legal_actions()))


@pytest.mark.parametrize("kind", ["SystemExit", "GeneratorExit", "BaseException"])
def test_a_hook_raising_a_base_exception_is_a_plugin_error(tmp_path: Path, kind: str) -> None:
    with pytest.raises(PluginError) as got:
        play_until_a_play(on_play_rules(tmp_path, kind))
    assert got.value.plugin == "on-play" and got.value.hook == "ddzrules_on_play"
    assert f"raised {kind}" in str(got.value)


@pytest.mark.parametrize(("kind", "stop"), [("KeyboardInterrupt", KeyboardInterrupt), ("Stopped", Stopped)])
def test_a_stop_from_outside_goes_through_plugin_code(tmp_path: Path, kind: str, stop: type) -> None:
    with pytest.raises(stop):
        play_until_a_play(on_play_rules(tmp_path, kind))


@pytest.mark.parametrize(("kind", "says"), [("endless", "more than 1,000 MultiplierEvents"),
                                            ("too-many", "1,001 MultiplierEvents")])
def test_a_list_answer_is_read_to_a_bound(tmp_path: Path, kind: str, says: str) -> None:
    with pytest.raises(PluginError, match=says) as got:
        play_until_a_play(on_play_rules(tmp_path, kind))
    assert got.value.plugin == "on-play" and got.value.hook == "ddzrules_on_play"


def forever_rules(tmp_path: Path, kind: str = "") -> GameRules:
    path = spec_with(tmp_path, {"landlord": {"plugin": "forever-landlord", "params": {"kind": kind}},
                                "settlement": {"plugin": "stake-settlement", "params": {}}})
    return GameRules(load_variant(path), registry())


def test_a_phase_that_never_ends_is_stopped_at_its_bound(tmp_path: Path) -> None:
    rules = forever_rules(tmp_path)
    assert rules.phase_actions == rules.players * PHASE_TURNS  # one plugin makes phases
    game = rules.new_game(1)
    taken = 0
    with pytest.raises(PluginError) as got:
        while True:
            seat = game.to_act
            assert seat is not None
            game.apply(Action(seat, "wait"))
            taken += 1
    assert taken == rules.phase_actions
    assert got.value.plugin == "forever-landlord" and got.value.hook == "ddzrules_landlord_phase"
    assert "has not ended after 300 actions" in str(got.value)
    assert len(game.history) == taken  # the refused action changed nothing


class Redealing(Forever):
    """A landlord phase whose one action asks for a redeal, deal after deal."""

    def apply(self, game: Game, action: Action) -> None:
        game.request_redeal("again")
        self.turn = None  # type: ignore[assignment]

    def to_act(self, game: Game) -> Any:
        return self.turn


def test_a_phase_asking_for_deals_for_ever_is_stopped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ForeverLandlord, "ddzrules_landlord_phase",
                        hookimpl(lambda self, game: Redealing("")))
    game = forever_rules(tmp_path).new_game(1)
    with pytest.raises(PluginError) as got:
        for _ in range(MAX_REDEALS + 2):
            game.apply(Action(game.to_act, "wait"))  # type: ignore[arg-type]
    assert got.value.plugin == "forever-landlord" and got.value.hook == "ddzrules_landlord_phase"
    assert f"after {MAX_REDEALS} redeals" in str(got.value)
    assert game.deal_number == MAX_REDEALS and len(game.redeal_reasons) == MAX_REDEALS  # unchanged


def test_a_phase_offering_endless_options_is_refused(tmp_path: Path) -> None:
    game = forever_rules(tmp_path, "endless-options").new_game(1)
    with pytest.raises(PluginError, match="more than 1,000 actions") as got:
        game.legal_actions()
    assert got.value.plugin == "forever-landlord"


@pytest.mark.parametrize(("kind", "says"), [("declares-endless", "more than 1,000"),
                                            ("declares-too-many", "1,001"),
                                            ("declares-exit", "raised SystemExit")])
def test_declared_decisions_are_bounded(tmp_path: Path, kind: str, says: str) -> None:
    rules = forever_rules(tmp_path, kind)
    with pytest.raises(PluginError, match=says) as got:
        declared(rules)
    assert got.value.plugin == "forever-landlord" and got.value.hook == "ddzrules_actions"


def declared(rules: GameRules) -> Any:
    """The decisions the environment tables for ``rules``' plugins (as it builds its table)."""
    return [call_declared(name, inst, "ddzrules_actions") for _, name, inst in rules.active]


def test_the_environment_tables_declared_decisions_through_the_check(tmp_path: Path) -> None:
    path = spec_with(tmp_path, {"landlord": {"plugin": "forever-landlord", "params": {"kind": "declares-exit"}},
                                "settlement": {"plugin": "stake-settlement", "params": {}}})
    (tmp_path / "forever.py").write_text(FOREVER_SOURCE, encoding="utf-8")
    pytest.importorskip("pettingzoo")
    from ddzrules.env import raw_env

    with pytest.raises(PluginError, match="ddzrules_actions: raised SystemExit"):
        raw_env(str(path), plugins=[f"{tmp_path / 'forever.py'}:ForeverLandlord"])


FOREVER_SOURCE = """
from ddzrules.hookspecs import hookimpl


class ForeverLandlord:
    name = "forever-landlord"
    params_schema = {"type": "object"}

    def __init__(self, params):
        pass

    @hookimpl
    def ddzrules_landlord_phase(self, game):
        return None

    @hookimpl
    def ddzrules_actions(self):
        raise SystemExit(0)
"""


# ---------------------------------------------------------------- parameters the runtime refuses

def number_params(schema: dict[str, Any], path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], bool]]:
    """Every parameter of a params_schema that holds a number (a map of numbers as one entry
    ``*``), and whether it must be above 0."""
    out = []
    for key, prop in (schema.get("properties") or {}).items():
        types = prop.get("type")
        types = types if isinstance(types, list) else [types]
        if "number" in types or "integer" in types:
            out.append((path + (key,), "exclusiveMinimum" in prop))
        extra = prop.get("additionalProperties")
        if isinstance(extra, dict) and extra.get("type") in ("number", "integer"):
            out.append((path + (key, "*"), "exclusiveMinimum" in extra))
    return out


BUILT_IN = [(name, path) for name in default_registry().names()
            for path, _ in number_params(getattr(default_registry().get(name), "params_schema", {}))]


def test_the_built_ins_have_number_parameters() -> None:
    assert len(BUILT_IN) >= 10 and any(path == ("super_factor",) for _, path in BUILT_IN)


@pytest.mark.parametrize(("plugin", "param"), BUILT_IN, ids=lambda x: x if isinstance(x, str) else ".".join(x))
def test_validate_refuses_every_number_parameter_the_runtime_would(tmp_path: Path, plugin: str,
                                                                   param: tuple[str, ...]) -> None:
    """Each built-in plugin's number parameters, given a number the runtime refuses of a
    factor, a stake or a score (beyond 2**53): validate refuses it at its own line and column."""
    value: Any = 2**60
    for key in reversed(param):
        value = {"k" if key == "*" else key: value}
    role = "rules"
    line = f"    - plugin: {plugin}\n      params: {json.dumps(value)}\n"
    path = tmp_path / "big.yaml"
    path.write_text(f"name: big\nextends: hubei-3p\ngame:\n  {role}:\n{line}", encoding="utf-8")
    report = validate_spec(str(path))
    # refused at the value (by the runtime's limit, or by a schema's tighter maximum)
    found = [p for p in report.errors if p.location is not None and p.location.line == 6
             and p.location.column > len("      params: ") and f"plugin {plugin!r}" in p.message]
    assert found, [str(p) for p in report.errors]
    with pytest.raises(SpecError, match=f"plugin {plugin!r}"):
        GameRules.load(str(path))


def test_a_super_double_validate_accepts_is_played(tmp_path: Path) -> None:
    # the largest factor validate takes: a super double of it is a pairwise factor the game keeps
    path = spec_with(tmp_path, {"declarations": [{"plugin": "doubling",
                                                  "params": {"factor": 2, "super_factor": FACTOR_LIMIT}}]})
    assert validate_spec(str(path)).ok()
    game = GameRules.load(str(path)).new_game(3)
    while game.phase == "landlord":
        game.apply(game.legal_actions()[-1])
    assert game.landlord is not None
    farmer = next(s for s in range(game.players) if s != game.landlord)
    while game.to_act != farmer:
        game.apply(next(a for a in game.legal_actions() if a.kind == "decline"))
    game.apply(next(a for a in game.legal_actions() if a.kind == "super_double"))
    assert game.pair_factors[farmer] == FACTOR_LIMIT
    assert not math.isnan(game.multiple)


class EndlessDict(dict):  # type: ignore[type-arg]
    """A mapping whose items never end."""

    def items(self) -> Any:
        return itertools.repeat(("k", "v"))


class Describer:
    """Describes itself with what its ``kind`` says."""

    name = "describer"
    params_schema: ClassVar[dict[str, Any]] = {"type": "object"}

    def __init__(self, params: dict[str, Any]) -> None:
        self.kind = params["kind"]

    @hookimpl
    def ddzrules_first_leader(self, game: Game) -> None:
        return None

    @hookimpl
    def ddzrules_describe(self) -> Any:
        rules = Endless("a rule")
        if self.kind == "endless-rules":
            return {"summary": "s", "rules": {"en": rules, "zh": ["规则"]}}
        if self.kind == "endless-dict":
            return {"summary": EndlessDict(en="s"), "params": [{"name": "p", "value": EndlessDict(a=1)}]}
        if self.kind == "too-many":
            return {"summary": "s", "params": [{"name": f"p{i}", "value": i} for i in range(MAX_ITEMS + 1)]}
        if self.kind == "deep":
            value: Any = 1
            for _ in range(20):
                value = [value]
            return {"summary": "s", "params": [{"name": "p", "value": value}]}
        return {"summary": "s", "rules": {"en": ["one"], "zh": ["一"]}}


@pytest.mark.parametrize(("kind", "says"), [("endless-rules", None), ("endless-dict", None),
                                            ("deep", "nested more than 8 deep"),
                                            ("too-many", "1,001 items in one list"), ("ok", None)])
def test_a_description_is_read_to_a_bound(tmp_path: Path, kind: str, says: str | None) -> None:
    from ddzrules.sheets.facts import plugin_entry

    found = registry()
    found.register("describer", Describer)
    path = spec_with(tmp_path, {"leader": {"plugin": "describer", "params": {"kind": kind}}})
    rules = GameRules(load_variant(path), found)
    (role, name, inst), = [a for a in rules.active if a[1] == "describer"]
    probe = rules.new_game(0)
    if kind == "ok":
        assert plugin_entry(role, name, inst, rules.variant.spec.data["game"], probe).rules["zh"] == ("一",)
        return
    # an endless list or mapping is read by the built-in's own storage: its one item
    entry_or_error: Any
    try:
        entry_or_error = plugin_entry(role, name, inst, rules.variant.spec.data["game"], probe)
    except PluginError as e:
        entry_or_error = e
    if says is None:
        assert not isinstance(entry_or_error, PluginError), entry_or_error
    else:
        assert isinstance(entry_or_error, PluginError) and says in str(entry_or_error)
        assert entry_or_error.plugin == "describer" and entry_or_error.hook == "ddzrules_describe"
