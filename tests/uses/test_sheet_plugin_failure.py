"""A plugin's ``ddzrules_describe`` is plugin code like any hook: whatever it raises, and an
answer its contract (ddzrules.hookspecs) does not allow, is a PluginError naming the plugin
and the hook — from ``build_sheet`` and from ``ddzrules sheet``, exit 1 and one line, no
traceback (issue 20). Before, an exception in it was a traceback, and an answer of the
wrong shape an AttributeError or TypeError from deep in the sheet's code."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import ddzrules.cli.sheet  # noqa: F401 - registers the sheet command on main
from ddzrules import sheets as S
from ddzrules.cli import main
from ddzrules.errors import PluginError
from ddzrules.rules.variant import load_variant
from ddzrules.runtime import GameRules, PluginRegistry
from ddzrules.sheets import facts

ROOT = Path(__file__).resolve().parents[2]
#: the ``ddzrules`` command, in a process of its own
CLI = "import sys; from ddzrules.cli import main; sys.argv[0] = 'ddzrules'; main()"

#: a house rule that says of itself whatever its ``answer`` parameter names
PLUGIN = '''\
from ddzrules.hookspecs import hookimpl


class Talker:
    """House rule: describes itself as told."""

    name = "talker"
    params_schema = {"type": "object", "additionalProperties": False,
                     "properties": {"answer": {"type": "string"}}}
    ANSWERS = {
        "list": lambda: ["a summary"],
        "generator": lambda: ({"summary": "x"} for _ in iter(int, 1)),
        "summary-number": lambda: {"summary": 3},
        "summary-zh-list": lambda: {"summary": {"en": "ok", "zh": ["no"]}},
        "rules-string": lambda: {"rules": "one long sentence"},
        "rules-generator": lambda: {"rules": (s for s in iter(str, "x"))},
        "rules-zh-numbers": lambda: {"rules": {"en": ["a"], "zh": [1]}},
        "params-dict": lambda: {"params": {"name": "x"}},
        "param-no-name": lambda: {"params": [{"value": 1}]},
        "param-value-object": lambda: {"params": [{"name": "x", "value": object()}]},
        "param-text-number": lambda: {"params": [{"name": "x", "value": 1, "zh": 2}]},
    }

    def __init__(self, params):
        self.answer = params.get("answer", "raise")

    @hookimpl
    def ddzrules_restrict_actions(self, game, seat, actions):
        return None

    @hookimpl
    def ddzrules_describe(self):
        if self.answer == "raise":
            raise ZeroDivisionError("describe\\x1b[2J " + "x" * 1000)
        if self.answer == "exit":
            raise SystemExit(3)
        return self.ANSWERS[self.answer]()
'''

#: each bad answer, and what the message says of it
BAD_ANSWERS = {
    "raise": "raised ZeroDivisionError: describe\\x1b[2J xxx",
    "exit": "raised SystemExit: 3",
    "list": "not a mapping of summary, rules and params",
    "generator": "not a mapping of summary, rules and params",
    "summary-number": "the summary 3, not a string",
    "summary-zh-list": "the summary 'zh' ['no'], not a string",
    "rules-string": "not a list of strings",
    "rules-generator": "not a list of strings",
    "rules-zh-numbers": "answered 1 among the rules 'zh', not a string",
    "params-dict": "the params {'name': 'x'}, not a list of mappings",
    "param-no-name": "among the params, not a mapping with a name",
    "param-value-object": "not a value a spec could give",
    "param-text-number": "the zh text 2 of parameter 'x', not a string",
}


def _files(tmp_path: Path, answer: str) -> tuple[Path, Path]:
    plugin = tmp_path / "talker.py"
    plugin.write_text(PLUGIN, encoding="utf-8")
    spec = tmp_path / "house.yaml"
    spec.write_text(textwrap.dedent(f"""\
        name: house
        extends: hubei-3p
        game:
          rules:
            - plugin: talker
              params: {{answer: {answer}}}
        """), encoding="utf-8")
    return plugin, spec


def _registry(plugin: Path) -> PluginRegistry:
    import importlib.util

    spec = importlib.util.spec_from_file_location(f"talker_{abs(hash(plugin))}", plugin)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    registry = PluginRegistry()
    registry.register("talker", module.Talker)
    return registry


@pytest.mark.parametrize("answer", list(BAD_ANSWERS))
def test_a_describe_that_fails_is_a_plugin_error(tmp_path: Path, answer: str,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    plugin, spec = _files(tmp_path, answer)
    # build_sheet builds GameRules with the default registry, which reads DDZRULES_PLUGINS
    # (what --plugin sets); patching runtime.default_registry would not reach a compiled runtime
    monkeypatch.setenv("DDZRULES_PLUGINS", f"{plugin}:Talker")
    with pytest.raises(PluginError) as info:
        S.build_sheet(load_variant(spec))
    message = str(info.value)
    assert message.startswith("plugin 'talker', ddzrules_describe: ")
    assert BAD_ANSWERS[answer] in message
    assert "\n" not in message and "\x1b" not in message and len(message) < 400


def test_a_describe_that_answers_the_contract_is_shown(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """The checks refuse no answer the contract allows: every part, in either form."""
    class Good:
        """House rule."""

        def ddzrules_describe(self) -> dict[str, Any]:
            return {"summary": {"en": "Trios double", "zh": "三张翻倍"},
                    "rules": ["Each trio doubles the score."],
                    "params": [{"name": "factor", "value": [2, {"cap": 8.5}], "en": "the factor"},
                               {"name": "quiet", "value": None}]}

    probe = GameRules.load("hubei-3p").new_game(0)
    entry = facts.plugin_entry("rules", "good", Good(), {"rules": [{"plugin": "good"}]}, probe)
    assert entry.summary == {"en": "Trios double", "zh": "三张翻倍"}
    assert entry.rules == {"en": ("Each trio doubles the score.",), "zh": ("Each trio doubles the score.",)}
    assert [p.value for p in entry.params] == ["[2, {cap: 8.5}]", "—"]


def _one_error_line(result_output: str) -> str:
    lines = result_output.strip().splitlines()
    assert len(lines) == 1, result_output
    return lines[0]


@pytest.mark.parametrize("answer", ["raise", "list"])
def test_ddzrules_sheet_exits_1_naming_the_plugin_and_hook(tmp_path: Path, answer: str) -> None:
    """The CLI end to end, in a process of its own: one line, exit 1, no traceback. The
    plugin comes through DDZRULES_PLUGINS, the variable ``--plugin`` sets for a command."""
    plugin, spec = _files(tmp_path, answer)
    env = {**os.environ, PluginRegistry.ENV: f"{plugin}:Talker"}
    done = subprocess.run([sys.executable, "-c", CLI, "sheet", str(spec)], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 1, done.stderr
    assert done.stdout == ""
    line = _one_error_line(done.stderr)
    assert line.startswith("error: plugin 'talker', ddzrules_describe: ")
    assert BAD_ANSWERS[answer] in line
    assert "Traceback" not in done.stderr


def test_ddzrules_sheet_with_plugin_option(tmp_path: Path) -> None:
    """``ddzrules sheet SPEC --plugin file.py:Class``, as ``play`` and ``simulate`` take it."""
    plugin, spec = _files(tmp_path, "raise")
    params = {p.name for p in main.commands["sheet"].params}
    if "plugins" not in params:
        pytest.skip("ddzrules sheet has no --plugin option yet (ddzrules/cli/sheet.py)")
    result = CliRunner().invoke(main, ["sheet", str(spec), "--plugin", f"{plugin}:Talker"])
    assert result.exit_code == 1
    line = _one_error_line(result.output)
    assert line.startswith("error: plugin 'talker', ddzrules_describe: raised ZeroDivisionError")
