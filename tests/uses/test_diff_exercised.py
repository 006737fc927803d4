"""``ddzrules diff`` starts from what differs (issue 43): each differing combo, phase or
parameter, how often the paired games exercised it, a warning when they did not, and a
summary in plain words; the never/rarely-played flags are of the combos that differ."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ddzrules import load_variant
from ddzrules.cli import main
from ddzrules.diff import diff_specs
from ddzrules.diff.exercised import describe
from ddzrules.simulate import FIGURES, RARELY_PLAYED


def child(tmp_path: Path, name: str, body: str, parent: str) -> Path:
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"name: {name}\nextends: {parent}\n{body}", encoding="utf-8")
    return path


def run(*args: str) -> dict[str, Any]:
    r = CliRunner().invoke(main, ["diff", *args, "--json"])
    assert r.exit_code in (0, 1) and "Traceback" not in r.output, r.output
    data: dict[str, Any] = json.loads(r.output)
    return data


@pytest.fixture(scope="module")
def no42(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return child(tmp_path_factory.mktemp("no42"), "no42", "combos:\n  four_with_two: null\n", "hubei-3p")


@pytest.fixture(scope="module")
def kitty(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # the kitty shown to all: a rule of what the bots may see (the deal itself is the same)
    return child(tmp_path_factory.mktemp("kitty"), "kitty8", "deal: {hand: 25, kitty: 8, kitty_shown: true}\n",
                 "hubei-4p-2deck")


def test_removing_four_with_two_is_measured_where_it_differs(no42: Path) -> None:
    data = run("hubei-3p", str(no42), "--games", "30", "--seed", "3")
    (e,) = data["differences"]
    assert (e["kind"], e["what"], e["change"], e["zh"]) == ("combo", "four_with_two", "removed", "四带二")
    games = data["games"]
    a = games["specs"][0]
    # its plays a game are A's plays of it (B has no such combo); a play needs a chance
    assert e["plays_a"] == a["plays_by_combo"]["four_with_two"]["mean"] and e["plays_b"] is None
    assert e["chances_a"] >= e["plays_a"] > 0 and e["chances_b"] is None
    # the games went otherwise in some pairs: the bots could not ignore the rule
    assert 0 < e["games_otherwise"] <= 30 and e["exercised"] is True
    assert data["summary"].startswith("With these bots (heuristic, random, random; 30 games, seed 3), "
                                      "removing 四带二 (four_with_two) changes")


def test_every_combo_had_at_least_as_many_chances_as_plays(no42: Path) -> None:
    games = run("hubei-3p", str(no42), "--games", "8", "--seed", "5")["games"]
    for spec in games["specs"]:
        for name, e in spec["plays_by_combo"].items():
            assert spec["chances_by_combo"].get(name, 0) >= e["mean"], (spec["spec"], name)
        # a hand that leads may always play a single: a chance at every lead at least
        assert spec["chances_by_combo"]["single"] >= spec["plays_by_combo"]["single"]["mean"] > 0


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_a_combo_the_games_did_not_play_gets_a_warning_and_only_then(no42: Path, seed: int) -> None:
    data = run("hubei-3p", str(no42), "--games", "4", "--seed", str(seed))
    (e,) = data["differences"]
    played = (e["plays_a"] or 0) + (e["plays_b"] or 0)
    assert (e["warning"] is not None) == (played < RARELY_PLAYED or e["games_otherwise"] == 0)
    assert data["warnings"] == ([e["warning"]] if e["warning"] else [])
    if played == 0:
        assert "四带二 (four_with_two): never played by heuristic,random,random in these 4 games" in e["warning"]
        assert e["exercised"] is False


def test_the_seeds_above_include_a_combo_never_played(no42: Path) -> None:
    """(So the warning's branch is taken by the test above, not only its negation.)"""
    assert any(run("hubei-3p", str(no42), "--games", "4", "--seed", str(s))["warnings"] for s in (1, 2, 4))


def test_a_rule_the_bots_ignore_is_said_to_be_untested(kitty: Path) -> None:
    data = run("hubei-4p-2deck", str(kitty), "--games", "6", "--seed", "2", "--bots", "heuristic")
    (e,) = data["differences"]
    assert (e["kind"], e["what"], e["a"], e["b"]) == ("parameter", "deal.kitty_shown", False, True)
    comparison = data["games"]["comparisons"][0]
    assert comparison["paired"] and comparison["games_alike"] == 6 and e["games_otherwise"] == 0
    # every figure's difference is 0: the games went alike, action for action
    assert all(f is None or f["difference"] == 0 for f in comparison["figures"].values())
    assert e["exercised"] is False
    (warning,) = data["warnings"]
    assert "deal.kitty_shown" in warning and "all 6 paired games went alike" in warning
    assert "cannot test it" in warning
    assert "changes nothing" in data["summary"] and "went alike" in data["summary"]
    text = CliRunner().invoke(main, ["diff", "hubei-4p-2deck", str(kitty), "--games", "6", "--seed", "2",
                                     "--bots", "heuristic"])
    assert text.exit_code == 1 and "warning:" in text.output and "In plain words:" in text.output


def test_identical_specs_have_no_difference_and_no_warning() -> None:
    data = run("hubei-3p", "hubei-3p", "--games", "3")
    assert data["same"] and data["differences"] == [] and data["warnings"] == [] and data["summary"] is None
    assert data["games"]["comparisons"][0]["games_alike"] == 3
    r = CliRunner().invoke(main, ["diff", "hubei-3p", "hubei-3p", "--games", "3"])
    assert r.exit_code == 0 and "What differs" not in r.output and "warning" not in r.output


def test_a_rename_alone_and_documentation_are_no_difference(tmp_path: Path) -> None:
    path = child(tmp_path, "renamed", "title: {en: another}\ncombos:\n  four_with_two: null\n"
                 "  four_two: {pattern: '4 + 1*2 where distinct, jokers<=1 | 4 + 2*2 where distinct'}\n",
                 "hubei-3p")
    d = diff_specs(load_variant("hubei-3p"), load_variant(path))
    assert d.differences == []


def test_what_differs_comes_first_and_the_flags_are_of_the_combos_that_differ(no42: Path) -> None:
    r = CliRunner().invoke(main, ["diff", "hubei-3p", str(no42), "--games", "12", "--seed", "1"])
    out = r.output
    assert r.exit_code == 1 and out.index("What differs") < out.index("Rules") < out.index("Games")
    # trio is the same in both specs: never flagged, whatever the bots played of it
    flags = [line for line in out.splitlines() if "never played by" in line or "rarely played (" in line]
    assert not any("trio" in line for line in flags), flags


def test_the_summary_names_exactly_the_figures_that_measurably_change(no42: Path) -> None:
    data = run("hubei-3p", str(no42), "--games", "40", "--seed", "7")
    comparison, text = data["games"]["comparisons"][0], data["summary"]
    moved = []
    for fig in FIGURES:
        e = comparison["figures"][fig.name]
        if e is not None and e["paired"]["low"] is not None and not e["paired"]["low"] <= 0 <= e["paired"]["high"]:
            moved.append(fig)
    for fig in moved[:4]:
        assert f"the {fig.label}" in text, (fig.label, text)
    lw = comparison["figures"]["landlord_won"]["paired"]
    assert ("landlord's win rate does not measurably change" in text) == (lw["low"] <= 0 <= lw["high"])


def test_the_html_report_starts_from_what_differs(tmp_path: Path, kitty: Path) -> None:
    out = tmp_path / "r.html"
    r = CliRunner().invoke(main, ["diff", "hubei-4p-2deck", str(kitty), "--games", "3", "--bots", "heuristic",
                                  "--html", str(out)])
    assert r.exit_code == 1, r.output
    html = out.read_text(encoding="utf-8")
    assert html.index("<h2>What differs</h2>") < html.index("<h2>Rules</h2>")
    assert "class='warning'" in html and "In plain words" in html


def test_differences_in_words() -> None:
    assert describe({"kind": "combo", "what": "four_with_two", "zh": "四带二", "change": "removed"}) == \
        "removing 四带二 (four_with_two)"
    assert describe({"kind": "parameter", "what": "deal.kitty", "a": 3, "b": 4, "change": "changed"}) == \
        "deal.kitty 4 instead of 3"


def test_games_of_other_deals_are_said_to_be_compared_unpaired(tmp_path: Path) -> None:
    """The note said paired games "are not compared", and the games were compared unpaired."""
    bigger = child(tmp_path, "kitty4", "deal: {hand: 16, kitty: 6}\n", "hubei-3p")
    for b in ("hubei-4p-2deck", str(bigger)):
        data = run("hubei-3p", b, "--games", "3")
        comparison = data["games"]["comparisons"][0]
        assert comparison["paired"] is False and comparison["games_alike"] is None
        assert any(f is not None and f["unpaired"] is not None for f in comparison["figures"].values())
        assert not any("not compared" in n and "games" in n for n in data["notes"]), data["notes"]
        assert any("the games are compared unpaired" in n for n in data["notes"]), data["notes"]
