"""What the bots played: simulate and diff count plays a game by combo, with intervals,
and name the combos never or rarely played (a rule the games hardly tested)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from ddzrules.cli import main
from ddzrules.simulate import RARELY_PLAYED, compare_specs


def test_the_plays_by_combo_add_up_to_the_plays() -> None:
    result = compare_specs(["hubei-3p"], games=30, seed=2, bots=["heuristic"])
    run = result["specs"][0]
    plays = run["plays_by_combo"]
    assert sum(e["mean"] for e in plays.values()) == pytest.approx(run["mean_plays"])
    assert all(e["low"] <= e["mean"] <= e["high"] for e in plays.values())
    # every combo of the spec is listed, played or not, and the flags agree with the counts
    from ddzrules.runtime import GameRules

    combos = {c.name for c in GameRules.load("hubei-3p").variant.rules.combos}
    assert combos <= set(plays)
    assert run["combos_never_played"] == sorted(k for k, e in plays.items() if e["plays"] == 0)
    assert run["combos_rarely_played"] == sorted(k for k, e in plays.items()
                                                 if e["plays"] and e["mean"] < RARELY_PLAYED)


def test_random_bots_play_what_heuristic_bots_never_do() -> None:
    """The figure is of the bots: the same rules, other bots, other combos exercised."""
    heuristic = compare_specs(["hubei-3p"], games=30, seed=5, bots=["heuristic"])["specs"][0]
    random_ = compare_specs(["hubei-3p"], games=30, seed=5, bots=["random"])["specs"][0]
    assert heuristic["plays_by_combo"] != random_["plays_by_combo"]


def test_simulate_and_diff_print_them_with_the_bots() -> None:
    runner = CliRunner()
    out = runner.invoke(main, ["simulate", "hubei-3p", "--games", "20", "--bots", "heuristic"]).output
    assert "plays a game by combo, as the bots heuristic played them" in out
    assert "never played by heuristic:" in out
    diff = runner.invoke(main, ["diff", "hubei-3p", "laizi", "--games", "10", "--bots", "random"])
    assert diff.exit_code == 1 and "Traceback" not in diff.output, diff.output  # 1: the rule sets differ, as diff(1)
    assert "plays a game by combo, as the bots random" in diff.output


def test_the_html_report_shows_them(tmp_path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "r.html"
    result = CliRunner().invoke(main, ["simulate", "hubei-3p", "--games", "10", "--bots", "heuristic",
                                       "--html", str(out)])
    assert result.exit_code == 0, result.output
    html = out.read_text(encoding="utf-8")
    assert "Plays a game by combo" in html and "As the bots heuristic" in html and "never played by" in html
