"""Tampered records never hang, crash or verify falsely: each is refused with a
DdzError (a clear message, exit 1 from the CLI), quickly."""

from __future__ import annotations

import copy
import json
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from fuzzers import fuzz_settings, tally
from hypothesis import given
from hypothesis import strategies as st

from ddzrules.bots import HeuristicBot, RandomBot
from ddzrules.cli import main
from ddzrules.errors import DdzError
from ddzrules.records import (
    FINAL_FIGURES,
    FORMAT,
    ReplayError,
    _hash_of,
    check_record,
    game_record,
    load_record,
    record_schema,
    replay,
)
from ddzrules.runtime import GameRules, MatchInfo
from ddzrules.simulate import play_game


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    rules = GameRules.load("hubei-3p")
    game = play_game(rules, [HeuristicBot(1), RandomBot(2), HeuristicBot(3)], 2024)
    return json.loads(json.dumps(game_record(game)))


def refused(rec: Any) -> DdzError:
    with pytest.raises(DdzError) as info:
        replay(rec)
    return info.value


def test_the_schema_is_valid_and_an_untouched_record_passes(record: dict[str, Any]) -> None:
    import jsonschema

    jsonschema.Draft202012Validator.check_schema(record_schema())
    check_record(record)
    assert record["format"] == FORMAT
    assert replay(record).game.scores == record["scores"]


@pytest.mark.parametrize("key, value", [
    ("actions", 3), ("deals", 7), ("match", "game 1"), ("seed", "7"), ("seed", -1), ("seed", 2**63),
    ("seed", 1.5), ("spec", 5), ("scores", "all"), ("multiple", "x2"), ("landlord", 99),
    ("events", {"a": 1}), ("spec_hash", "abc"), ("stake", True),
])
def test_retyped_fields_are_refused(record: dict[str, Any], key: str, value: Any) -> None:
    bad = copy.deepcopy(record)
    bad[key] = value
    assert key in str(refused(bad))


@pytest.mark.parametrize("value", [float("inf"), float("nan"), float("-inf")])
def test_non_finite_seeds_are_refused(record: dict[str, Any], value: float) -> None:
    bad = copy.deepcopy(record)
    bad["seed"] = value
    refused(bad)


@pytest.mark.parametrize("literal", ["Infinity", "NaN", "-Infinity", "1e400", "1" + "0" * 400])
def test_non_finite_and_huge_numbers_in_a_file_are_refused(
        tmp_path: Path, record: dict[str, Any], literal: str) -> None:
    text = json.dumps(record).replace(f'"seed": {record["seed"]}', f'"seed": {literal}', 1)
    assert literal in text
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DdzError):
        replay(load_record(path))


def test_a_huge_seed_is_refused(record: dict[str, Any]) -> None:
    bad = copy.deepcopy(record)
    bad["seed"] = 10**30
    refused(bad)


def test_a_1e400_match_index_is_refused_at_once(tmp_path: Path, record: dict[str, Any]) -> None:
    bad = copy.deepcopy(record)
    bad["match"]["index"] = 10**400
    start = time.monotonic()
    refused(bad)
    # the same from a file, through the CLI
    path = tmp_path / "huge.json"
    path.write_text(json.dumps(record).replace('"index": 0', '"index": 1' + "0" * 400), encoding="utf-8")
    result = CliRunner().invoke(main, ["replay", str(path)])
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    assert time.monotonic() - start < 5


def test_a_large_match_index_is_refused(record: dict[str, Any]) -> None:
    bad = copy.deepcopy(record)
    bad["match"]["index"] = 2**62
    start = time.monotonic()
    assert "match.index" in str(refused(bad))
    assert time.monotonic() - start < 2


def test_a_late_game_of_a_long_match_replays(record: dict[str, Any]) -> None:
    """Game 10**12 of a match: its first bidder comes in closed form, so it records and
    verifies like game 0 (and its rotation differs from game 0's by the index)."""
    rules = GameRules.load("hubei-3p")
    game = play_game(rules, [HeuristicBot(1), RandomBot(2), HeuristicBot(3)], 2024, MatchInfo(10**12, 5))
    late = json.loads(json.dumps(game_record(game)))
    assert late["match"]["index"] == 10**12
    assert replay(late).game.scores == late["scores"]


def test_deep_json_is_refused(tmp_path: Path, record: dict[str, Any]) -> None:
    path = tmp_path / "deep.json"
    path.write_text('{"format": "ddzrules-game/2", "x": ' + "[" * 100_000 + "]" * 100_000 + "}",
                    encoding="utf-8")
    with pytest.raises(DdzError):
        replay(load_record(path))
    result = CliRunner().invoke(main, ["replay", str(path)])
    assert result.exit_code == 1 and "Traceback" not in result.output
    # a deeply nested record built in Python
    bad = copy.deepcopy(record)
    deep: Any = []
    for _ in range(50_000):
        deep = [deep]
    bad["actions"][0]["value"] = deep
    assert "nested" in str(refused(bad))


def test_a_file_too_large_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import ddzrules.records as R

    monkeypatch.setattr(R, "MAX_RECORD_BYTES", 100)
    path = tmp_path / "big.json"
    path.write_text("{" + " " * 200 + "}", encoding="utf-8")
    with pytest.raises(DdzError, match="too large"):
        load_record(path)


def test_not_utf8_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "bin.json"
    path.write_bytes(b"\xff\xfe{}")
    with pytest.raises(DdzError):
        load_record(path)


def test_deleted_scores_are_refused(record: dict[str, Any]) -> None:
    bad = copy.deepcopy(record)
    del bad["scores"]
    err = refused(bad)
    assert "scores" in str(err) and "cannot be verified" in str(err)


def test_all_final_figures_deleted_are_refused(record: dict[str, Any], tmp_path: Path) -> None:
    bad = copy.deepcopy(record)
    for key in FINAL_FIGURES:
        del bad[key]
    assert "cannot be verified" in str(refused(bad))
    path = tmp_path / "nofigures.json"
    path.write_text(json.dumps(bad), encoding="utf-8")
    result = CliRunner().invoke(main, ["replay", str(path)])
    assert result.exit_code == 1
    assert "verified" not in result.output.replace("cannot be verified", "")


def test_null_scores_are_refused(record: dict[str, Any]) -> None:
    bad = copy.deepcopy(record)
    bad["scores"] = None
    refused(bad)


def test_a_tampered_stored_spec_is_refused(record: dict[str, Any]) -> None:
    bad = copy.deepcopy(record)
    bad["spec_resolved"]["game"]["settlement"]["params"] = {"per_farmer": 5}
    err = refused(bad)
    assert "spec_hash" in str(err) and "changed" in str(err)


def test_a_stored_spec_of_another_name_is_refused(record: dict[str, Any]) -> None:
    bad = copy.deepcopy(record)
    bad["spec_resolved"]["name"] = "something-else"
    bad["spec_hash"] = _hash_of(bad["spec_resolved"])
    assert "changed" in str(refused(bad))


def test_a_stored_spec_missing_in_format_2_is_refused(record: dict[str, Any]) -> None:
    bad = copy.deepcopy(record)
    del bad["spec_resolved"]
    assert "spec_resolved" in str(refused(bad))


def test_an_old_format_record_still_replays(record: dict[str, Any]) -> None:
    old = copy.deepcopy(record)
    old["format"] = "ddzrules-game/1"
    del old["spec_resolved"]
    assert replay(old).game.scores == record["scores"]


def test_a_malformed_action_is_reported_at_its_index(record: dict[str, Any]) -> None:
    bad = copy.deepcopy(record)
    bad["actions"][4]["extra"] = 1
    with pytest.raises(ReplayError) as info:
        replay(bad)
    assert info.value.action_index == 4


def test_a_record_over_a_size_bound_is_refused_reading_few_errors(
        record: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """900,000 bad actions (a 1.8 MB file, under the size limit) would be 900,000 schema
    errors: the check reads a bounded number of them and names the bound broken."""
    from ddzrules import records

    pulled = 0
    validator = records._validator()

    class Counting:
        def iter_errors(self, instance: Any) -> Any:
            nonlocal pulled
            for err in validator.iter_errors(instance):
                pulled += 1
                yield err

    monkeypatch.setattr(records, "_validator", lambda: Counting())
    bad = copy.deepcopy(record)
    bad["actions"] = [0] * 900_000
    with pytest.raises(ReplayError, match=r"actions: 900,000 items, more than the 20,000 a record may hold"):
        check_record(bad)
    assert pulled <= records.MAX_SCHEMA_ERRORS


def test_a_play_without_its_reading_is_not_verified(record: dict[str, Any]) -> None:
    i = next(i for i, a in enumerate(record["actions"]) if a["kind"] == "play")
    bad = copy.deepcopy(record)
    del bad["actions"][i]["combo"]
    with pytest.raises(ReplayError) as info:
        replay(bad)
    assert info.value.action_index == i


# ====================================================================== fuzz

_VALUES = st.one_of(st.none(), st.booleans(), st.integers(-(2**70), 2**70),
                    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=8),
                    st.lists(st.integers(-3, 3), max_size=3), st.dictionaries(st.text(max_size=3),
                                                                              st.integers(), max_size=2))


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path into a record (the stored spec only to its first level: its hash guards it)."""
    out = [path]
    if path == ("spec_resolved",):
        return out + ([path + (k,) for k in value] if isinstance(value, dict) else [])
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _paths(v, path + (i,))
    return out


@st.composite
def mutations(draw: st.DrawFn, record: dict[str, Any]) -> tuple[dict[str, Any], list[tuple[Any, ...]]]:
    rec = copy.deepcopy(record)
    touched: list[tuple[Any, ...]] = []
    for _ in range(draw(st.integers(1, 3))):
        paths = [p for p in _paths(rec) if p]
        path = draw(st.sampled_from(paths))
        parent: Any = rec
        for k in path[:-1]:
            parent = parent[k]
        op = draw(st.sampled_from(["change", "delete", "retype"]))
        key = path[-1]
        if op == "delete":
            del parent[key]
        elif op == "retype":
            parent[key] = draw(_VALUES)
        else:
            old = parent[key]
            if isinstance(old, bool) or old is None:
                parent[key] = draw(_VALUES)
            elif isinstance(old, int):
                parent[key] = old + draw(st.sampled_from([-1, 1, 2, 10**6, -(10**9)]))
            elif isinstance(old, float):
                parent[key] = old * draw(st.sampled_from([0.5, 2.0, -1.0]))
            elif isinstance(old, str):
                parent[key] = draw(st.sampled_from(["", old[::-1], old + "3", "XXDD", "pass"]))
            elif isinstance(old, list) and old:
                del old[draw(st.integers(0, len(old) - 1))]
            else:
                parent[key] = draw(_VALUES)
        touched.append(path)
    return rec, touched


@pytest.fixture(scope="module")
def small_record() -> dict[str, Any]:
    rules = GameRules.load("hubei-3p")
    game = play_game(rules, [HeuristicBot(5), HeuristicBot(6), HeuristicBot(7)], 11)
    return json.loads(json.dumps(game_record(game)))


@fuzz_settings(100)
@given(data=st.data())
def test_fuzz_mutated_records(small_record: dict[str, Any], data: st.DataObject) -> None:
    tally("records (mutated)")
    rec, touched = data.draw(mutations(small_record))
    start = time.monotonic()
    try:
        result = replay(rec, check_disk=False)
    except DdzError:
        pass
    else:
        # only a record whose figures and actions are the game's may verify
        for key in ("actions", "deals", *FINAL_FIGURES):
            assert rec[key] == small_record[key], (key, touched)
        assert result.game.scores == small_record["scores"]
    assert time.monotonic() - start < 20
