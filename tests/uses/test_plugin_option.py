"""Your own specs and plugins everywhere: --plugin module:Class on play, simulate,
replay and match; records that replay without their spec file; ``plugins --params``
and the generated parameter reference in docs/plugins.md."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from ddzrules.cli import main
from ddzrules.cli.game import DOCS_BEGIN, DOCS_END, generated_docs, plugin_params
from ddzrules.errors import DdzError
from ddzrules.records import load_record, replay
from ddzrules.runtime import PluginRegistry, load_plugin_class

PLUGIN = '''
from ddzrules.hookspecs import hookimpl
from ddzrules.runtime import MultiplierEvent


class TrioBonus:
    """Every trio played doubles the score (a house rule)."""

    name = "trio-bonus"
    params_schema = {"type": "object", "additionalProperties": False,
                     "properties": {"factor": {"type": "number", "exclusiveMinimum": 0,
                                               "description": "the factor of a trio"}}}

    def __init__(self, params):
        self.factor = params.get("factor", 2)

    @hookimpl
    def ddzrules_on_play(self, game, seat, move, led):
        if move.combo.startswith("trio"):
            return [MultiplierEvent("trio", self.factor, seat, move.cards)]
        return None


class Unnamed(TrioBonus):
    name = None


class Broken(TrioBonus):
    def __init__(self, params):
        raise RuntimeError("cannot start")


class NoHooks:
    pass
'''

SPEC = """name: house-3p
extends: hubei-3p
game:
  multipliers:
    - plugin: bomb-doubling
      params: {bombs: effective, factor: 2}
    - plugin: spring
      params: {spring: 2, anti_spring: 2}
    - plugin: trio-bonus
      params: {factor: 3}
"""


@pytest.fixture()
def runner() -> CliRunner:
    return CliRunner()


@pytest.fixture()
def house(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder with a plugin module (houseplug.py) and a spec using it (house-3p.yaml)."""
    (tmp_path / "houseplug.py").write_text(PLUGIN, encoding="utf-8")
    (tmp_path / "raising.py").write_text("raise ValueError('broken module')\n", encoding="utf-8")
    (tmp_path / "house-3p.yaml").write_text(SPEC, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delenv(PluginRegistry.ENV, raising=False)
    return tmp_path


def ok(result: Result) -> Result:
    assert result.exit_code == 0, result.output
    return result


def user_error(result: Result) -> str:
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return " ".join(result.output.split())


def test_a_record_replays_after_its_spec_file_is_deleted(runner: CliRunner, house: Path) -> None:
    ok(runner.invoke(main, ["play", "house-3p.yaml", "--auto", "--seed", "4", "--record", "g.json",
                            "--plugin", "houseplug:TrioBonus"]))
    assert os.environ.get(PluginRegistry.ENV) is None  # restored after the command
    out = ok(runner.invoke(main, ["replay", "g.json", "--plugin", "houseplug:TrioBonus"])).output
    assert "verified" in out
    ok(runner.invoke(main, ["replay", "g.json", "--spec", "house-3p.yaml",
                            "--plugin", "houseplug.py:TrioBonus"]))
    (house / "house-3p.yaml").unlink()
    out = ok(runner.invoke(main, ["replay", "g.json", "--plugin", "houseplug:TrioBonus"])).output
    assert "verified" in out and "stored in the record" in " ".join(out.split())


def test_a_changed_spec_file_is_reported(runner: CliRunner, house: Path) -> None:
    ok(runner.invoke(main, ["play", "house-3p.yaml", "--auto", "--seed", "4", "--record", "g.json",
                            "--plugin", "houseplug:TrioBonus"]))
    (house / "house-3p.yaml").write_text(SPEC.replace("factor: 3", "factor: 4"), encoding="utf-8")
    text = user_error(runner.invoke(main, ["replay", "g.json", "--spec", "house-3p.yaml",
                                           "--plugin", "houseplug:TrioBonus"]))
    assert "does not match" in text and "they differ at" in text
    # without --spec the stored spec is used; house-3p.yaml is not read by the record's name
    # (a record never makes replay open a file the user did not name), and the note says so
    out = " ".join(ok(runner.invoke(main, ["replay", "g.json", "--plugin", "houseplug:TrioBonus"]))
                   .output.split())
    assert "'house-3p' is not a bundled spec" in out and "--spec FILE" in out


def test_a_spec_never_loads_code_by_itself(runner: CliRunner, house: Path) -> None:
    text = user_error(runner.invoke(main, ["play", "house-3p.yaml", "--auto", "--seed", "1"]))
    assert "trio-bonus" in text
    ok(runner.invoke(main, ["play", "house-3p.yaml", "--auto", "--seed", "1", "--record", "g.json",
                            "--plugin", "houseplug:TrioBonus"]))
    assert "trio-bonus" in user_error(runner.invoke(main, ["replay", "g.json"]))


def test_match_and_simulate_take_plugins(runner: CliRunner, house: Path) -> None:
    data = json.loads(ok(runner.invoke(main, ["match", "house-3p.yaml", "--games", "3", "--json",
                                              "--plugin", "houseplug:TrioBonus"])).output)
    assert len(data["games"]) == 3
    args = ["simulate", "house-3p.yaml", "--games", "6", "--seed", "2", "--json",
            "--plugin", "houseplug.py:TrioBonus"]
    one = json.loads(ok(runner.invoke(main, args)).output)
    two = json.loads(ok(runner.invoke(main, args + ["--workers", "2"])).output)  # spawned workers
    assert one["figures"] == two["figures"]
    assert one["events_per_game"].get("trio", 0) > 0


def test_a_plugin_registered_under_its_class_name(house: Path) -> None:
    name, cls = load_plugin_class("houseplug:Unnamed")
    assert name == "Unnamed" and cls.__name__ == "Unnamed"
    name, _ = load_plugin_class("houseplug:TrioBonus")
    assert name == "trio-bonus"


@pytest.mark.parametrize("target, words", [
    ("nosuchmodule:X", "no module"),
    ("houseplug:Missing", "has no"),
    ("houseplug:Broken", "cannot start"),
    ("houseplug:NoHooks", "no ddzrules hook"),
    ("raising:X", "broken module"),
    ("missing.py:X", "no file"),
    ("houseplug", "module:Class"),
])
@pytest.mark.parametrize("command", ["play", "simulate", "match", "replay", "plugins"])
def test_bad_plugins_are_plain_errors(runner: CliRunner, house: Path, target: str, words: str,
                                      command: str) -> None:
    args = {"play": ["play", "hubei-3p", "--auto", "--seed", "1"],
            "simulate": ["simulate", "hubei-3p", "--games", "2"],
            "match": ["match", "hubei-3p", "--games", "1"],
            "replay": ["replay", "g.json"],
            "plugins": ["plugins"]}[command]
    if command == "replay":
        ok(runner.invoke(main, ["play", "hubei-3p", "--auto", "--seed", "1", "--record", "g.json"]))
    text = user_error(runner.invoke(main, args + ["--plugin", target]))
    assert words in text
    assert os.environ.get(PluginRegistry.ENV) is None


@pytest.mark.parametrize("args, message", [
    (["--params", "all", "--update-docs", "/dev/zero"],
     "--update-docs /dev/zero: a character device, not a Markdown file (e.g. docs/plugins.md)"),
    # a directory was walked, every *.md under it rewritten
    (["--params", "all", "--update-docs", "."], "--update-docs .: a directory, not a Markdown file"),
    (["--plugin", "/dev/zero:X"], "--plugin '/dev/zero:X': /dev/zero is a character device, not a Python file"),
    (["--plugin", "./:X"], "--plugin './:X': ./ is a directory, not a Python file"),
])
def test_a_path_that_is_no_file_is_named_for_what_it_is(runner: CliRunner, house: Path, args: list[str],
                                                        message: str) -> None:
    # each said "no such file" (or "no file") of a path that is there
    (tmp := house / "docs.md").write_text(f"{DOCS_BEGIN}\nstale\n{DOCS_END}\n", encoding="utf-8")
    before = tmp.read_text(encoding="utf-8")
    text = user_error(runner.invoke(main, ["plugins", *args]))
    assert text.startswith(f"error: {message}"), text
    assert tmp.read_text(encoding="utf-8") == before


def test_an_engine_file_that_is_no_file_is_named_for_what_it_is(runner: CliRunner, house: Path) -> None:
    text = user_error(runner.invoke(main, ["conformance", "run", str(house), "--engine", "/dev/zero:X"]))
    assert text == "error: --engine '/dev/zero:X': /dev/zero is a character device, not a Python file"


def test_the_registry_reads_plugins_from_the_environment(house: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    registry = PluginRegistry()
    assert "trio-bonus" not in registry.names()
    monkeypatch.setenv(PluginRegistry.ENV, "houseplug:TrioBonus")
    assert "trio-bonus" in registry.names()
    assert registry.get("trio-bonus") is not None
    assert "--plugin" in registry.source("trio-bonus")
    assert PluginRegistry(discover=False).get("trio-bonus") is None
    monkeypatch.setenv(PluginRegistry.ENV, "nosuchmodule:X")
    with pytest.raises(DdzError):
        registry.get("trio-bonus")


def test_replay_of_a_stored_spec_with_a_registry(house: Path, runner: CliRunner) -> None:
    ok(runner.invoke(main, ["play", "house-3p.yaml", "--auto", "--seed", "9", "--record", "g.json",
                            "--plugin", "houseplug:TrioBonus"]))
    (house / "house-3p.yaml").unlink()
    registry = PluginRegistry()
    _, cls = load_plugin_class("houseplug:TrioBonus")
    registry.register("trio-bonus", cls)
    result = replay(load_record("g.json"), registry)
    assert result.game.over


# ====================================================================== plugins --params


def test_plugins_params_table_and_json(runner: CliRunner) -> None:
    out = "".join(ok(runner.invoke(main, ["plugins", "--params", "point-bids"])).output.split())
    for word in ("bids", "rounds", "passes_to_end", "first_bidder", "integer"):
        assert word in out
    data = json.loads(ok(runner.invoke(main, ["plugins", "--params", "point-bids", "--json"])).output)
    params: dict[str, Any] = {p["name"]: p for p in data[0]["params"]}
    assert params["bids"]["type"] == "array of integer"
    assert params["bids"]["default"] == "[1, 2, 3]"
    assert '"once"' in params["rounds"]["allowed"]
    assert params["rounds"]["default"] == '"once"'
    assert params["passes_to_end"]["meaning"]
    every = json.loads(ok(runner.invoke(main, ["plugins", "--params", "all", "--json"])).output)
    assert {"point-bids", "beans", "spring"} <= {p["plugin"] for p in every}
    assert "did you mean" in user_error(runner.invoke(main, ["plugins", "--params", "point-bid"]))


def test_plugins_params_of_a_user_plugin(runner: CliRunner, house: Path) -> None:
    data = json.loads(ok(runner.invoke(main, ["plugins", "--params", "trio-bonus", "--json",
                                              "--plugin", "houseplug:TrioBonus"])).output)
    assert data[0]["params"][0]["name"] == "factor"
    assert data[0]["params"][0]["meaning"] == "the factor of a trio"


def test_every_builtin_plugin_has_described_params() -> None:
    registry = PluginRegistry()
    for name in registry.names():
        cls = registry.get(name)
        assert cls is not None
        for row in plugin_params(cls):
            assert row["type"], (name, row)


def test_the_generated_parameter_reference_in_the_docs_is_up_to_date() -> None:
    path = Path(__file__).resolve().parents[2] / "docs" / "plugins.md"
    text = path.read_text(encoding="utf-8")
    start, end = text.index(DOCS_BEGIN), text.index(DOCS_END) + len(DOCS_END)
    assert text[start:end] == generated_docs(), (
        "docs/plugins.md is stale: run `ddzrules plugins --params all --update-docs docs/plugins.md`")


def test_update_docs(runner: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "p.md"
    path.write_text(f"# x\n\n{DOCS_BEGIN}\nSTALE-PLACEHOLDER\n{DOCS_END}\n\nafter\n", encoding="utf-8")
    ok(runner.invoke(main, ["plugins", "--params", "all", "--update-docs", str(path)]))
    text = path.read_text(encoding="utf-8")
    assert "### `point-bids`" in text and text.endswith("after\n") and "STALE-PLACEHOLDER" not in text
    assert "already up to date" in ok(runner.invoke(main, ["plugins", "--params", "all",
                                                           "--update-docs", str(path)])).output
    (tmp_path / "none.md").write_text("nothing\n", encoding="utf-8")
    user_error(runner.invoke(main, ["plugins", "--params", "all", "--update-docs",
                                    str(tmp_path / "none.md")]))
