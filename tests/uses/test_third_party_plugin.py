"""A plugin written outside the package, first-class: the worked 超级加倍 plugin of
docs/house-rules.md (its code is read from the page), a declaration phase of its own,
across validate, sheet, play, replay, simulate, diff, the environment and the bots, with
no registration but ``--plugin`` (``plugins=`` in the API)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ddzrules.cli import main
from ddzrules.errors import DdzError
from ddzrules.records import load_record

DOC = Path(__file__).parents[2] / "docs" / "house-rules.md"


def _doc_plugin() -> str:
    """The worked plugin of docs/house-rules.md: the code block after its marker comment."""
    text = DOC.read_text(encoding="utf-8")
    after = text.split("test_third_party_plugin.py runs -->", 1)[1]
    return after.split("```python", 1)[1].split("```", 1)[0]


PLUGIN = _doc_plugin() + '''

class Undeclared(SuperDouble):
    """The same phases, but no ddzrules_actions: the environment cannot table them."""

    name = "super-double"
    ddzrules_actions = None
'''

SPEC = """name: house-super
extends: hubei-3p
game:
  declarations:
    - plugin: super-double
      params: {super: 4}
"""

TARGET = "superdouble.py:SuperDouble"


@pytest.fixture()
def house(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "superdouble.py").write_text(PLUGIN, encoding="utf-8")
    (tmp_path / "house.yaml").write_text(SPEC, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output
    return result.exit_code, result.output


def test_validate_and_sheet_take_the_plugin(house: Path) -> None:
    code, out = cli("validate", "house.yaml")
    assert code == 1 and "unknown plugin 'super-double'" in out
    code, out = cli("validate", "house.yaml", "--plugin", TARGET)
    assert code == 0 and "ok  house.yaml" in out
    code, out = cli("validate", "house.yaml", "--plugin", "missing.py:X")
    assert code == 1 and "no file" in out
    code, sheet = cli("sheet", "house.yaml", "--plugin", TARGET)
    assert code == 0
    # no ddzrules_describe: the parameters come from the schema, defaults marked
    assert "| `double` | `2` (default) | the factor of 加倍 |" in sheet
    assert "| `super` | `4` | the factor of 超级加倍 |" in sheet


def test_validate_refuses_a_factor_the_runtime_would(house: Path) -> None:
    # 超级加倍 of 1e20: validate said ok, and the game failed when a player super-doubled
    (house / "big.yaml").write_text(SPEC.replace("{super: 4}", "{super: 1.0e+20}"), encoding="utf-8")
    code, out = cli("validate", "big.yaml", "--plugin", TARGET)
    assert code == 1, out
    assert "big.yaml:6:23: game.declarations.0.params.super: plugin 'super-double': 1e+20 is beyond ±2**53" in out


def test_play_record_and_replay(house: Path) -> None:
    code, out = cli("play", "house.yaml", "--auto", "--bots", "search:iters=24", "--seed", "4",
                    "--plugin", TARGET, "--record", "game.json")
    assert code == 0, out
    record = load_record("game.json")
    kinds = [a["kind"] for a in record["actions"]]
    assert sum(k in ("decline", "double", "super_double") for k in kinds) == 3  # each player once
    code, out = cli("replay", "game.json", "--plugin", TARGET)
    assert code == 0 and "verified" in out
    code, out = cli("replay", "game.json")
    assert code == 1 and "unknown plugin 'super-double'" in out


def test_simulate_and_diff_with_the_plugin(house: Path) -> None:
    code, out = cli("simulate", "house.yaml", "--games", "12", "--seed", "2", "--json",
                    "--bots", "search:iters=16", "--plugin", TARGET)
    assert code == 0, out
    assert json.loads(out)["games"] == 12
    code, out = cli("diff", "hubei-3p", "house.yaml", "--plugin", TARGET)
    assert code == 1 and "declarations: super-double" in out


def test_the_environment_tables_the_declared_actions(house: Path) -> None:
    pytest.importorskip("pettingzoo")
    import numpy as np

    from ddzrules.env import env

    e = env("house.yaml", plugins=[TARGET])
    table = e.unwrapped.action_list
    assert table[-3:] == [("decline", None), ("double", None), ("super_double", None)]
    declared = {len(table) - 3, len(table) - 2, len(table) - 1}
    e.reset(seed=3)
    rng = np.random.default_rng(3)
    taken: set[int] = set()
    for agent in e.agent_iter(max_iter=2000):
        _obs, _reward, done, truncated, _info = e.last()
        if done or truncated:
            e.step(None)
            continue
        legal = np.flatnonzero(e.observe(agent)["action_mask"])
        choice = int(rng.choice(legal))
        taken |= {choice} & declared
        e.step(choice)
    assert taken  # the declaration phase was played through the table
    with pytest.raises(DdzError, match="does not declare their actions"):
        env("house.yaml", plugins=["superdouble.py:Undeclared"])
    with pytest.raises(DdzError, match="unknown plugin"):
        env("house.yaml")


def test_bots_take_the_declaration(house: Path) -> None:
    from ddzrules.bots import make_bot
    from ddzrules.runtime import GameRules, PluginRegistry, load_plugin_class

    registry = PluginRegistry()
    registry.register(*load_plugin_class(TARGET))
    rules = GameRules.load("house.yaml", registry)
    doubled = {}
    for kind in ("heuristic", "search:iters=16", "random"):
        doubled[kind] = 0
        for seed in range(4):
            game = rules.new_game(seed)
            bots = [make_bot(kind, 10 + s) for s in range(3)]
            while not game.over:
                seat = game.to_act
                assert seat is not None
                legal = game.legal_actions()
                action = bots[seat].act(game.view(seat), legal)
                assert action in legal
                game.apply(action)
            assert game.scores is not None and sum(game.scores) == 0
            doubled[kind] += len(game.pair_factors)
    assert doubled["search:iters=16"] > 0 and doubled["random"] > 0
