"""A spec carried as JSON (the resolved spec a game record or a suite's manifest holds, a
record given to the playground) is held to the bounds of a spec file: at most
DDZRULES_MAX_SPEC_VALUES values, DDZRULES_MAX_SPEC_DEPTH levels. One mechanism
(spec.check_spec_data, counted as the YAML reader counts), applied wherever one is read:
a record's 15,000 readings were replayed and verified, where the same spec as YAML is
refused; 3.9 million numbers took 29 s and 720 MB to be refused by the schema."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

import ddzrules.spec as S
from ddzrules.bots import HeuristicBot
from ddzrules.cli import main
from ddzrules.conformance import load_manifest
from ddzrules.errors import DdzError, ReplayError, SpecError, SuiteError
from ddzrules.records import _hash_of, game_record, replay
from ddzrules.runtime import GameRules
from ddzrules.simulate import play_game

MANY = {f"reading-{i}": "x" for i in range(15_000)}  # 30,001 values with its keys: the schema allows it


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    game = play_game(GameRules.load("erren"), [HeuristicBot(1), HeuristicBot(2)], 5)
    rec = json.loads(json.dumps(game_record(game)))
    rec["spec"] = rec["spec_resolved"]["name"] = "mine"  # not a bundled name: its stored rules are used
    rec["spec_hash"] = _hash_of(rec["spec_resolved"])
    return rec


def with_spec(record: dict[str, Any], **changes: Any) -> dict[str, Any]:
    rec = copy.deepcopy(record)
    rec["spec_resolved"].update(changes)
    rec["spec_hash"] = _hash_of(rec["spec_resolved"])
    return rec


def test_a_record_s_spec_is_bounded_as_a_spec_file(record: dict[str, Any], tmp_path: Path) -> None:
    assert replay(with_spec(record, readings={"a": "b"})).actions > 0  # a few readings: verified
    with pytest.raises(ReplayError, match=r"spec_resolved:1:1: readings: more than 20,000 values in one spec"):
        replay(with_spec(record, readings=MANY))
    # the same spec as a YAML file is refused by the same bound
    spec = tmp_path / "mine.yaml"
    spec.write_text(yaml.safe_dump(with_spec(record, readings=MANY)["spec_resolved"]), encoding="utf-8")
    with pytest.raises(SpecError, match="more than 20,000 values in one spec"):
        S.load_spec(str(spec))


def test_the_limit_is_the_environment_s(record: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DDZRULES_MAX_SPEC_VALUES", "40000")
    assert replay(with_spec(record, readings=MANY)).actions > 0
    monkeypatch.setenv("DDZRULES_MAX_SPEC_VALUES", "100")
    with pytest.raises(ReplayError, match="more than 100 values"):
        replay(record)


def test_replay_refuses_it_with_a_message(record: dict[str, Any], tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps(with_spec(record, readings=MANY)), encoding="utf-8")
    result = CliRunner().invoke(main, ["replay", str(path)])
    assert result.exit_code == 1 and "Traceback" not in result.output, result.output
    assert "more than 20,000 values in one spec (DDZRULES_MAX_SPEC_VALUES raises the limit)" in result.output


def test_a_deep_spec_in_a_record_is_refused_at_the_spec_s_depth(record: dict[str, Any],
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DDZRULES_MAX_SPEC_DEPTH", "3")
    deep = with_spec(record, game={"bidding": {"x": {"y": 1}}})
    with pytest.raises(ReplayError, match=r"game\.bidding\.x: nested more than 3 levels deep"):
        replay(deep)


def test_the_playground_s_replay_refuses_it(record: dict[str, Any], tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    from ddzrules.web import jobs

    monkeypatch.chdir(tmp_path)
    with pytest.raises(DdzError, match="more than 20,000 values in one spec"):
        jobs.run("replay", {"record": json.dumps(with_spec(record, readings=MANY))})


def test_a_suite_s_spec_is_bounded_as_a_spec_file(tmp_path: Path) -> None:
    suite = tmp_path / "suite"
    made = CliRunner().invoke(main, ["conformance", "generate", "erren", "--level", "smoke", "-o", str(suite)])
    assert made.exit_code == 0, made.output
    manifest = json.loads((suite / "manifest.json").read_text(encoding="utf-8"))
    manifest["spec_resolved"]["readings"] = MANY
    (suite / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    with pytest.raises(SuiteError, match=r"manifest\.json: spec_resolved:1:1: readings: more than 20,000 values"):
        load_manifest(suite)
    result = CliRunner().invoke(main, ["conformance", "run", str(suite), "--engine", "ddzrules"])
    assert result.exit_code == 1 and "more than 20,000 values" in result.output, result.output
    assert "Traceback" not in result.output


def test_spec_from_data_is_the_door_and_it_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    data = copy.deepcopy(S.load_spec("erren").data)
    data["readings"] = MANY
    with pytest.raises(SpecError, match="more than 20,000 values"):
        S.spec_from_data(data, "given")


def test_a_huge_list_is_refused_without_walking_it() -> None:
    """The count of a container's items is taken before they are looked at."""
    class Untouchable(list[Any]):
        def __iter__(self) -> Any:
            raise AssertionError("walked")

    with pytest.raises(SpecError, match="more than 20,000 values"):
        S.check_spec_data({"name": "x", "notes": Untouchable([0] * 30_000)}, "given")


_keys = st.text(alphabet="abc", min_size=1, max_size=3)
_data = st.recursive(st.integers(0, 9) | st.text(alphabet="xy", max_size=2) | st.none(),
                     lambda inner: st.lists(inner, max_size=5) | st.dictionaries(_keys, inner, max_size=5),
                     max_leaves=40)


@settings(max_examples=150, deadline=None)
@given(data=st.dictionaries(_keys, _data, max_size=5), limit=st.integers(1, 60), depth=st.integers(1, 6))
def test_data_is_counted_as_its_yaml_is(data: dict[str, Any], limit: int, depth: int) -> None:
    """A spec as data is refused exactly when the same spec as YAML text is: one bound."""
    import os

    saved = {k: os.environ.get(k) for k in ("DDZRULES_MAX_SPEC_VALUES", "DDZRULES_MAX_SPEC_DEPTH")}
    os.environ["DDZRULES_MAX_SPEC_VALUES"] = str(limit)
    os.environ["DDZRULES_MAX_SPEC_DEPTH"] = str(depth)
    try:
        refused_as = []
        for check in (lambda: S.check_spec_data(data, "data"),
                      lambda: S.reading._check_events(yaml.safe_dump(data), "text")):
            try:
                check()
                refused_as.append(None)
            except SpecError as e:
                refused_as.append("values" if "values" in str(e) else "depth")
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    # which bound is met first may differ (one walks depth first, the other in order)
    assert (refused_as[0] is None) == (refused_as[1] is None), (refused_as, data)
