"""Schema messages point at the innermost offending value and say in words what is wrong
(issue 43): a bad value inside ``compare:`` at that value, not at the combo's ``{``; a
suited card says that specs have no suits yet and what to write; a comma inside a
flow-style value is said as what happened, once; a regex never reaches the user. Each
through ``ddzrules validate`` on a small spec: exit 1, no traceback, the line:col of the
value itself."""

from __future__ import annotations

import copy
import json
import re
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ddzrules.bots import BOTS
from ddzrules.cli import main
from ddzrules.lint import validate_spec
from ddzrules.runtime import PluginRegistry
from ddzrules.spec import PATTERN_WORDS, bundled_root, dotted, read_yaml

#: what a message must never hold: a regex, or jsonschema's own wording
REGEX = re.compile(r"\^\\s|\\s\*|\[3-9|does not match|is not valid under any of the given schemas")


def validate(tmp_path: Path, text: str, name: str = "bad") -> tuple[int, str]:
    path = tmp_path / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", str(path)])
    # the file as the messages name it: relative here, whatever the tmp directory
    shown = result.output.replace(f"{tmp_path}/", "")
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return result.exit_code, shown


def where(text: str, token: str, line_hint: str | None = None) -> str:
    """``line:col`` of ``token`` in ``text`` (on the line holding ``line_hint``)."""
    for n, line in enumerate(text.splitlines(), 1):
        if (line_hint or token) in line and token in line:
            return f"{n}:{line.index(token) + 1}"
    raise AssertionError(token)


#: (spec text, the offending token, words the message must hold)
CASES = [
    ("name: bad\nextends: hubei-3p\ncombos:\n  bomb: {pattern: \"4\", zh: 炸弹, compare: [size, colour]}\n",
     "colour", ["combos.bomb.compare.1", "'colour' is not one of", "'size', 'rank', 'length'"]),
    ("name: bad\nextends: hubei-3p\ncombos:\n  bomb:\n    pattern: \"4\"\n    compare: [rank, rank]\n",
     "[rank, rank]", ["combos.bomb.compare", "repeated"]),
    ("name: bad\nextends: hubei-3p\ndeck:\n  remove: {cards: \"♥3\"}\n",
     "\"♥3\"", ["deck.remove.cards", "no suits", "'3'"]),
    ("name: bad\nextends: hubei-3p\ngame:\n  leader:\n    plugin: first-leader\n    params: {rank: \"♥3\"}\n",
     "\"♥3\"", ["game.leader.params.rank", "no suits", "'3'", "among: first-dealt"]),
    ("name: bad\nextends: hubei-3p\ndeck:\n  remove: {ranks: \"3Z\"}\n",
     "\"3Z\"", ["deck.remove.ranks", "'3Z' is not cards, one character a card"]),
    ("name: bad\nextends: hubei-3p\nchain_ranks: \"3 to A\"\n",
     "\"3 to A\"", ["chain_ranks", "a range of ranks, low..high"]),
    ("name: bad\nextends: hubei-3p\ngame:\n  leader:\n    plugin: first-leader\n    params: {by: holder}\n",
     "holder", ["game.leader.params.by", "'holder' is not one of", "did you mean 'rank-holder'?"]),
    ("name: bad\nextends: hubei-3p\ndeal: {hand: seventeen}\n",
     "seventeen", ["deal.hand", "'seventeen' is a string; this key takes a whole number"]),
]


@pytest.mark.parametrize(("text", "token", "words"), CASES, ids=[c[2][0] + "-" + c[1] for c in CASES])
def test_a_schema_error_is_at_the_value_and_in_words(tmp_path: Path, text: str, token: str,
                                                     words: list[str]) -> None:
    code, out = validate(tmp_path, text)
    assert code == 1, out
    first = out.splitlines()[0]
    assert first.startswith(f"bad.yaml:{where(text, token)}: "), out
    for w in words:
        assert w in first, (w, out)
    assert not REGEX.search(out), out


def test_a_comma_in_a_flow_value_is_one_clear_error(tmp_path: Path) -> None:
    text = "name: bad\nextends: hubei-3p\ntitle: {zh: 湖北, 改, en: Hubei}\n"
    code, out = validate(tmp_path, text)
    assert code == 1, out
    problems = [line for line in out.splitlines() if line.startswith("bad.yaml:")]
    assert problems == [problems[0]] and problems[0].startswith(f"bad.yaml:{where(text, '改')}: title.改: ")
    assert "read as a key with no value" in out and "quote a value that holds a comma" in out
    assert "removes" not in out and "unknown key" not in out  # the second, confusing error is gone
    # the fix the message offers is accepted
    assert validate(tmp_path, "name: ok\nextends: hubei-3p\ntitle: {zh: \"湖北, 改\", en: Hubei}\n",
                    "ok")[0] == 0
    # an explicit empty value is not taken for a comma's mistake
    code, out = validate(tmp_path, "name: bad\nextends: hubei-3p\ntitle: {zh: 湖北, en: }\n")
    assert code == 1 and "no value (null); this key takes a string" in out and "comma" not in out


def _patterns(node: Any) -> list[str]:
    if isinstance(node, dict):
        found = [node["pattern"]] if isinstance(node.get("pattern"), str) else []
        return found + [p for v in node.values() for p in _patterns(v)]
    if isinstance(node, list):
        return [p for v in node for p in _patterns(v)]
    return []


def test_every_pattern_a_schema_checks_has_words() -> None:
    """The spec schema's and every built-in plugin's: a value that fails one is told what
    form it must take, never the regex."""
    spec_schema = json.loads(resources.files("ddzrules.spec").joinpath("spec.schema.json").read_text(encoding="utf-8"))
    registry = PluginRegistry()
    schemas = [spec_schema] + [getattr(registry.get(n), "params_schema", {}) for n in registry.names()]
    missing = {p for s in schemas for p in _patterns(s) if p not in PATTERN_WORDS}
    assert not missing


RESTATE = "name: restate\nextends: hubei-3p\n{readings}combos:\n  trio_with_pair: {{pattern: \"3 + 2\", zh: 三带二}}\n"


def test_restating_an_inherited_combo_under_a_new_name_warns(tmp_path: Path) -> None:
    text = RESTATE.format(readings="")
    code, out = validate(tmp_path, text, "restate")
    assert code == 0, out
    assert f"restate.yaml:{where(text, 'trio_with_pair')}: combos.trio_with_pair: warning:" in out
    assert "'trio_with_hand'" in out and "two readings" in out and "trio_with_hand: null" in out
    # said why in this spec's own readings: no warning
    said = RESTATE.format(readings="readings:\n  both: >-\n"
                          "    trio_with_pair and trio_with_hand both stand (三带二).\n")
    assert "warning" not in validate(tmp_path, said, "restate")[1]
    # the inherited combo changed by its own name: one reading, no warning
    own = "name: own\nextends: hubei-3p\ncombos:\n  trio_with_hand: {pattern: \"3 + 2\", zh: 三带二}\n"
    assert "warning" not in validate(tmp_path, own, "own")[1]


def test_play_help_names_every_bot() -> None:
    out = " ".join(CliRunner().invoke(main, ["play", "--help"]).output.split())
    assert "heuristic or random" not in out
    for name in BOTS:
        assert name in out


# ------------------------------------------------------------------ the class: any leaf, any bad value


def _leaves(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    if isinstance(node, dict):
        return [p for k, v in node.items() for p in _leaves(v, path + (k,))]
    if isinstance(node, list):
        return [p for i, v in enumerate(node) for p in _leaves(v, path + (i,))]
    return [path]


def _bundled_own(name: str) -> dict[str, Any]:
    return yaml.safe_load((bundled_root() / f"{name}.yaml").read_text(encoding="utf-8"))


HUBEI = _bundled_own("hubei-3p")
LEAVES = [p for p in _leaves(HUBEI) if p[0] not in ("name", "readings", "title", "source", "region")]
BAD = st.one_of(st.sampled_from(["♥3", "colour", "3 to A", "", "many", "-1", "1e999x"]),
                st.integers(-5, 10**6), st.booleans(), st.lists(st.integers(-2, 3), max_size=3),
                st.just({"x": 1}))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(path=st.sampled_from(LEAVES), bad=BAD)
def test_any_bad_leaf_is_reported_at_itself_in_words(tmp_path: Path, path: tuple[Any, ...], bad: Any) -> None:
    """A value put at any leaf of hubei-3p: every schema problem names that value (or a
    part of it) and is at its line and column — the innermost offending value, never an
    enclosing ``{`` — and no message shows a regex or jsonschema's own wording."""
    data = copy.deepcopy(HUBEI)
    node = data
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = bad
    text = yaml.safe_dump(data, allow_unicode=True, sort_keys=False)
    file = tmp_path / "leaf.yaml"
    file.write_text(text, encoding="utf-8")
    _, positions, _ = read_yaml(text, str(file))
    report = validate_spec(str(file))
    for p in report.findings:
        assert not REGEX.search(p.message), p
        if p.code != "schema" or p.location is None:
            continue
        # the value put there, or inside it: not the mapping around it
        assert p.path == dotted(path) or p.path.startswith(dotted(path) + "."), (p, path)
        at = next((k for k in positions if dotted(k) == p.path), None)
        assert at is not None, p
        assert (p.location.line, p.location.column) == (positions[at].location.line,
                                                         positions[at].location.column), (p, text)
