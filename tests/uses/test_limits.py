"""Every hostile input of the hardening issue, through the CLI, under its limits: a 2 GiB
address space and 20 s per command. None hangs, exhausts memory or shows a traceback;
each bad input exits 1 with a message, and a damaged cache gives the clean answer.

The inputs are run by tests/cli_under_limits.py in one child process (so the limit
applies to it alone and one interpreter start serves every case).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hostile_specs import CASES as HOSTILE_SPECS

from ddzrules.bots import HeuristicBot
from ddzrules.records import game_record
from ddzrules.runtime import GameRules
from ddzrules.simulate import play_game

DRIVER = Path(__file__).resolve().parents[1] / "cli_under_limits.py"

#: 19 single kickers, each a different rank, on a single: C(14, 19)... every way of
#: choosing them is enumerated by a naive compiler (issue 11: validated, then hung)
KICKER_EXPLOSION = """name: kickers
extends: hubei-3p
combos:
  single_with_many: {pattern: "1 + 1*19 where distinct"}
"""


def _record_cases(tmp: Path) -> dict[str, dict[str, Any]]:
    game = play_game(GameRules.load("hubei-3p"), [HeuristicBot(s) for s in (1, 2, 3)], 7)
    record = json.loads(json.dumps(game_record(game)))
    text = json.dumps(record)
    variants: dict[str, str] = {
        "match index 10**400": text.replace('"index": 0', '"index": 1' + "0" * 400, 1),
        "seed Infinity": text.replace(f'"seed": {record["seed"]}', '"seed": Infinity', 1),
        "deep JSON": '{"format": "ddzrules-game/2", "x": ' + "[" * 100_000 + "]" * 100_000 + "}",
        "actions a number": json.dumps({**record, "actions": 5}),
        "deals a number": json.dumps({**record, "deals": 5}),
        "match a string": json.dumps({**record, "match": "x"}),
        "scores deleted": json.dumps({k: v for k, v in record.items() if k != "scores"}),
        "not JSON": "{\"format\": ",
    }
    cases = {}
    for name, body in variants.items():
        path = tmp / f"record-{len(cases)}.json"
        path.write_text(body, encoding="utf-8")
        cases[f"record: {name}"] = {"argv": ["replay", str(path)]}
    return cases


def _spec_cases(tmp: Path) -> dict[str, dict[str, Any]]:
    cases = {}
    for name, body in HOSTILE_SPECS.items():
        path = tmp / f"{name}.yaml"
        path.write_bytes(body)
        cases[f"spec: {name}"] = {"argv": ["validate", str(path)]}
    secret = tmp / "settings.txt"
    secret.write_text("db_password: hunter2\n", encoding="utf-8")
    child = tmp / "child.yaml"
    child.write_text(f"name: child\nextends: {secret}\n", encoding="utf-8")
    cases["spec: extends a non-spec file"] = {"argv": ["validate", str(child)]}
    explosive = tmp / "kickers.yaml"
    explosive.write_text(KICKER_EXPLOSION, encoding="utf-8")
    cases["spec: 19 distinct kickers (validate)"] = {"argv": ["validate", str(explosive)]}
    cases["spec: 19 distinct kickers (classify)"] = {"argv": ["classify", str(explosive), "33"]}
    return cases


def _card_cases() -> dict[str, dict[str, Any]]:
    return {
        "cards: starts with a dash": {"argv": ["classify", "hubei-3p", "-3z"]},
        "cards: 16 of a rank": {"argv": ["classify", "hubei-3p", "3" * 16]},
        "cards: escape codes": {"argv": ["classify", "hubei-3p", "3\x1b[2J4"]},
        "cards: negative limit": {"argv": ["moves", "hubei-3p", "--hand", "345", "--limit", "-5"]},
        "cards: wild rank out of range": {"argv": ["classify", "laizi", "33", "--wild", "15"]},
    }


def _cache_cases(tmp: Path) -> tuple[dict[str, dict[str, Any]], str]:
    """A cache whose table file is a symlink to /dev/zero, and one that is a FIFO."""
    from click.testing import CliRunner

    from ddzrules.cli import main
    cases = {}
    clean = ""
    for name, damage in {"symlink to /dev/zero": lambda p: p.symlink_to("/dev/zero"),
                         "FIFO": os.mkfifo}.items():
        directory = tmp / f"cache-{len(cases)}"
        old = os.environ.get("DDZRULES_CACHE_DIR")
        os.environ["DDZRULES_CACHE_DIR"] = str(directory)
        try:
            clean = CliRunner().invoke(main, ["census", "crown-3p"]).output
        finally:
            if old is not None:
                os.environ["DDZRULES_CACHE_DIR"] = old
        (table,) = directory.glob("*.json")
        table.unlink()
        damage(table)
        cases[f"cache: {name}"] = {"argv": ["census", "crown-3p"], "env": {"DDZRULES_CACHE_DIR": str(directory)}}
    return cases, clean


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, dict[str, Any]], str]:
    tmp = tmp_path_factory.mktemp("limits")
    cache_cases, clean_census = _cache_cases(tmp)
    cases = {**_record_cases(tmp), **_spec_cases(tmp), **_card_cases(), **cache_cases}
    (tmp / "cases.json").write_text(json.dumps(cases), encoding="utf-8")
    proc = subprocess.run([sys.executable, str(DRIVER), str(tmp / "cases.json")], capture_output=True,
                          text=True, timeout=20 * len(cases) + 60, check=False,
                          env=dict(os.environ, DDZRULES_CACHE_DIR=str(tmp / "driver-cache")))
    assert proc.returncode == 0, proc.stderr[-3000:]
    results = json.loads(proc.stdout)
    assert set(results) == set(cases)
    return results, clean_census


BAD_INPUTS = (["record: " + n for n in ("match index 10**400", "seed Infinity", "deep JSON", "actions a number",
                                         "deals a number", "match a string", "scores deleted", "not JSON")]
              + ["spec: " + n for n in sorted(HOSTILE_SPECS)]
              + ["spec: extends a non-spec file"]
              + ["cards: " + n for n in ("starts with a dash", "16 of a rank", "escape codes",
                                         "wild rank out of range")])


@pytest.mark.parametrize("case", BAD_INPUTS)
def test_bad_input_exits_1_with_a_message(outcomes: tuple[dict[str, dict[str, Any]], str], case: str) -> None:
    result = outcomes[0][case]
    assert result["exception"] is None, result  # no hang, no MemoryError, no uncaught error
    assert result["exit"] == 1, result
    assert result["output"].strip() and "Traceback" not in result["output"]
    assert "\x1b" not in result["output"], "a terminal escape code reached the terminal"


@pytest.mark.parametrize("case", ["spec: 19 distinct kickers (validate)", "spec: 19 distinct kickers (classify)"])
def test_an_explosive_pattern_is_refused_or_bounded(outcomes: tuple[dict[str, dict[str, Any]], str],
                                                     case: str) -> None:
    """Refused by validate with its estimated size, or compiled in bounded time: either
    way no call hangs (the alarm would have said so) and the answer is a clean exit."""
    result = outcomes[0][case]
    assert result["exception"] is None and result["exit"] in (0, 1), result
    assert "Traceback" not in result["output"]


def test_a_negative_limit_is_refused(outcomes: tuple[dict[str, dict[str, Any]], str]) -> None:
    result = outcomes[0]["cards: negative limit"]
    assert result["exception"] is None and result["exit"] != 0, result
    assert "more" not in result["output"] and "limit" in result["output"].lower()


def test_extends_never_echoes_a_foreign_file(outcomes: tuple[dict[str, dict[str, Any]], str]) -> None:
    assert "hunter2" not in outcomes[0]["spec: extends a non-spec file"]["output"]


@pytest.mark.parametrize("case", ["cache: symlink to /dev/zero", "cache: FIFO"])
def test_a_damaged_cache_gives_the_clean_answer(outcomes: tuple[dict[str, dict[str, Any]], str],
                                                case: str) -> None:
    results, clean = outcomes
    assert results[case]["exception"] is None and results[case]["exit"] == 0, results[case]
    assert clean.strip() and clean in results[case]["output"]
