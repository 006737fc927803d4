"""`ddzrules duel`: two bots on the same deals (duplicate and douzero protocols), the
figures named by their bots, bad input refused before any game."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from ddzrules.cli import main
from ddzrules.simulate.duel import duel

FAST = "search:iters=16"


def test_a_bot_against_itself_gains_nothing() -> None:
    """The same bot both sides plays the same games: every paired difference is 0."""
    r = duel("hubei-3p", "heuristic", "heuristic", deals=6, seed=3)
    assert r["win_rate_gain"] == 0 and r["score_gain"] == 0
    assert r["win_rate_gain_ci"] == [0.0, 0.0] or r["win_rate_gain_ci"][0] <= 0 <= r["win_rate_gain_ci"][1]


def test_duplicate_names_the_bots_and_splits_by_role() -> None:
    r = duel("hubei-3p", FAST, "random", deals=4, seed=1)
    assert r["bots"] == {"a": FAST, "b": "random"} and r["bot_options"]["a"] == {"iters": 16}
    assert set(r["by_role"]) <= {"landlord", "farmer"} and r["by_role"]
    assert sum(v["games"] for v in r["by_role"].values()) == 4 * 3
    low, high = r["score_gain_ci"]
    assert low <= r["score_gain"] <= high
    assert r["decision_ms"]["a"]["decisions"] > 0


def test_duplicate_on_a_table_without_roles() -> None:
    r = duel("paodekuai", FAST, "heuristic", deals=2, seed=2)
    assert "by_role" not in r and r["protocol"] == "duplicate"


def test_douzero_is_same_deals_fixed_landlord() -> None:
    r = duel("hubei-3p", "heuristic", "heuristic", deals=10, seed=4, protocol="douzero")
    # the same bot both sides: A wins as landlord exactly when the landlord wins; as farmers when they do
    assert r["win_rate_landlord"] + r["win_rate_farmers"] == pytest.approx(1.0)
    assert r["win_rate"] == pytest.approx(0.5)
    assert r["landlord_seat"] == 0


@pytest.mark.parametrize(("args", "words"), [
    (["hubei-3p", "--bots", "search"], "two bots"),
    (["hubei-3p", "--bots", "search,nobody"], "unknown bot 'nobody'"),
    (["hubei-3p", "--bots", "search:iters=0,heuristic"], "must be 1 to"),
    (["hubei-3p", "--bots", "random,random", "--deals", "0"], "deals must be 1"),
    (["paodekuai", "--bots", "random,random", "--protocol", "douzero"], "needs a landlord table"),
    (["no-such-spec", "--bots", "random,random"], "no spec named"),
])
def test_bad_input_exits_1_with_a_message(args: list[str], words: str) -> None:
    result = CliRunner().invoke(main, ["duel", *args])
    assert result.exit_code == 1 and words in result.output, result.output
    assert "Traceback" not in result.output


def test_the_command_prints_and_writes_json() -> None:
    runner = CliRunner()
    text = runner.invoke(main, ["duel", "hubei-3p", "--bots", f"{FAST},heuristic", "--deals", "2"])
    assert text.exit_code == 0, text.output
    assert FAST in text.output and "figures of these two bots" in text.output
    data = json.loads(runner.invoke(main, ["duel", "hubei-3p", "--bots", f"{FAST},heuristic", "--deals", "2",
                                           "--protocol", "douzero", "--json"]).output)
    assert {"win_rate", "win_rate_ci", "decision_ms"} <= set(data)
    assert set(data["decision_ms"]["a"]) == {"decisions", "median", "p95", "max"}
    again = json.loads(runner.invoke(main, ["duel", "hubei-3p", "--bots", f"{FAST},heuristic", "--deals", "2",
                                            "--protocol", "douzero", "--json"]).output)
    strip = lambda d: {k: v for k, v in d.items() if k != "decision_ms"}
    assert strip(again) == strip(data)  # same seed, same games


def test_workers_play_the_same_duel() -> None:
    one = duel("hubei-3p", FAST, "heuristic", deals=4, seed=8)
    two = duel("hubei-3p", FAST, "heuristic", deals=4, seed=8, workers=2)
    strip = lambda d: {k: v for k, v in d.items() if k not in ("decision_ms", "workers")}
    assert strip(one) == strip(two)
    assert two["decision_ms"]["a"]["decisions"] == one["decision_ms"]["a"]["decisions"]
