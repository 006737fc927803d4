"""The HTML report of ``diff --html`` and ``simulate --html``: one renderer for the games,
saying how they were made and what the intervals mean, figures in words, numbers in
fixed decimals (never 8.827e-05, never -0.000), every difference drawn as inline SVG
(no plotting library), every spec string escaped; and the output path checked before
any work."""

from __future__ import annotations

import doctest
import json
import os
import re
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from test_diff import _Checker

from ddzrules import simulate as simulate_module
from ddzrules.cli import main
from ddzrules.diff import diff_specs
from ddzrules.diff import html as diff_html
from ddzrules.diff.html import games_section, render_games_html, render_html
from ddzrules.outputs import write_file
from ddzrules.rules.variant import load_variant
from ddzrules.simulate import FIGURE_NAMES, FIGURES, compare_specs

BOTS = ["heuristic", "random", "random"]


@pytest.fixture(scope="module")
def games() -> dict[str, Any]:
    return compare_specs(["hubei-3p", "crown-3p"], 30, 2, BOTS)


def well_formed(html: str) -> _Checker:
    checker = _Checker()
    checker.feed(html)
    assert not checker.stack and not checker.external
    return checker


def numbers_are_plain(html: str) -> None:
    text = re.sub(r"<[^>]+>", " ", html)  # the text, and the SVGs' titles and labels
    assert not re.search(r"\d[eE][-+]?\d", text), re.search(r".{30}\d[eE][-+]?\d.{30}", text)
    assert not re.search(r"-0\.0*(?!\d*[1-9])\b", text), re.search(r".{30}-0\.0+\b.{30}", text)
    assert "nan" not in text.lower().split() and "inf" not in text.lower().split()


def test_the_number_helpers_doctests() -> None:
    for module in (simulate_module, diff_html):
        result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
        assert result.failed == 0


def test_the_games_section_says_how_the_games_were_made(games: dict[str, Any]) -> None:
    html = render_games_html(games)
    well_formed(html)
    words = " ".join(re.sub(r"<[^>]+>", " ", html).split())
    assert "30 per rule set" in words and "Seed 2:" in words
    assert "heuristic,random,random" in words and "seat 0 heuristic, seat 1 random, seat 2 random" in words
    assert "Paired: game i is played under every rule set with the same seed" in words
    assert "Welch" in words and "paired 95% interval" in words and "unpaired 95% interval" in words
    assert "Wilson score interval" in words and "n/a: the rule set has no such figure" in words
    # figures by their names in words, not their identifiers
    for fig in FIGURES:
        assert f"<td>{fig.label}</td>" in html.replace("&#x27;", "'"), fig.label
    for name in FIGURE_NAMES:
        if "_" in name:
            assert name not in words, name
    numbers_are_plain(html)


def test_every_difference_is_drawn_with_its_intervals(games: dict[str, Any]) -> None:
    html = render_games_html(games)
    comp = games["comparisons"][0]
    drawn = re.findall(r"<svg[^>]*aria-label='([^']*difference[^']*)'", html)
    present = [f for f in FIGURES if comp["figures"][f.name] is not None]
    assert len(drawn) == len(present) and len(present) >= 8
    win = next(label for label in drawn if label.startswith("landlord win rate"))
    e = comp["figures"]["landlord_won"]
    assert f"paired [{e['paired']['low']:.3f}, {e['paired']['high']:.3f}]".replace("-0.000", "0.000") in win
    assert "unpaired [" in win


def test_simulate_and_diff_share_one_renderer(tmp_path: Path, games: dict[str, Any]) -> None:
    a, b = load_variant("hubei-3p"), load_variant("crown-3p")
    d = diff_specs(a, b, games=30, seed=2, bots=BOTS)
    assert d.games == games
    section = "\n".join(games_section(games))
    # the diff flags never or rarely played only the combos that differ: the same renderer told so
    assert "\n".join(games_section(games, d.differing_combos)) in render_html(d, a, b)
    assert section in render_games_html(games)
    out = tmp_path / "sim.html"
    r = CliRunner().invoke(main, ["simulate", "hubei-3p", "crown-3p", "--games", "30", "--seed", "2",
                                  "--bots", "heuristic,random,random", "--html", str(out)])
    assert r.exit_code == 0, r.output
    assert out.read_text(encoding="utf-8") == render_games_html(games)
    out = tmp_path / "diff.html"
    r = CliRunner().invoke(main, ["diff", "hubei-3p", "crown-3p", "--games", "30", "--seed", "2", "--html", str(out)])
    assert r.exit_code == 1, r.output
    html = out.read_text(encoding="utf-8")
    assert "\n".join(games_section(games, d.differing_combos)) in html
    well_formed(html)
    numbers_are_plain(html)


def _entry(mean: float, low: float | None, high: float | None) -> dict[str, Any]:
    return {"mean": mean, "low": low, "high": high, "n": 10, "sd": 1.0, "method": "normal"}


def test_tiny_and_negative_zero_values_print_in_fixed_decimals(games: dict[str, Any]) -> None:
    odd = json.loads(json.dumps(games))
    figures = odd["specs"][0]["figures"]
    figures["multiple"] = _entry(8.827e-05, -0.0000004, 0.00021)
    figures["plays"] = _entry(-0.0000001, -0.0004, 0.0003)
    figures["stake"] = _entry(12345.678, None, None)  # one game: no interval
    diff = odd["comparisons"][0]["figures"]["multiple"]
    diff.update({"difference": -0.00000002,
                 "paired": {"estimate": -0.00000002, "low": -0.00004, "high": 0.00003, "n": 30,
                            "method": "paired", "width": 0.00007},
                 "unpaired": {"estimate": -0.00000002, "low": -0.0003, "high": 0.0002, "n": 30,
                              "method": "welch", "width": 0.0005}})
    odd["specs"][0]["events_per_game"] = {"bomb": 8.827e-05}
    html = render_games_html(odd)
    numbers_are_plain(html)
    assert "12345.678 [?]" in html or "12346 [?]" in html or "12345.678" in html


def test_spec_strings_are_escaped(tmp_path: Path) -> None:
    hostile = "<script>alert('x')</script><img src=x onerror=alert(1)>"
    path = tmp_path / "house.yaml"
    path.write_text("name: house\nextends: hubei-3p\n"
                    f"title: {{zh: 'x', en: \"{hostile}\"}}\n"
                    f"readings: {{odd: \"{hostile}\"}}\n", encoding="utf-8")
    out = tmp_path / "r.html"
    r = CliRunner().invoke(main, ["diff", "hubei-3p", str(path), "--games", "3", "--html", str(out)])
    assert r.exit_code == 0, r.output  # documentation only: the same rules
    html = out.read_text(encoding="utf-8")
    assert "<script" not in html and "<img" not in html
    assert html.count("&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;") == 2  # the title and the reading
    well_formed(html)


def test_the_report_works_without_matplotlib(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "matplotlib", None)  # `import matplotlib` fails
    out = tmp_path / "r.html"
    r = CliRunner().invoke(main, ["diff", "compat/rlcard", "compat/douzero", "--html", str(out)])
    assert r.exit_code == 1, r.output
    assert "<svg" in out.read_text(encoding="utf-8")


# ====================================================================== the output path


def refused_fast(args: list[str], status: int, words: str) -> None:
    started = time.monotonic()
    result: Result = CliRunner().invoke(main, args)
    assert time.monotonic() - started < 15, "the path was checked after the work"
    assert result.exit_code == status, result.output
    assert words in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("command, status", [
    (["diff", "hubei-3p", "crown-3p", "--games", "100000000"], 2),
    (["simulate", "hubei-3p", "--games", "100000000"], 1),
])
def test_a_bad_html_path_is_refused_before_the_work(tmp_path: Path, command: list[str], status: int) -> None:
    # 10**8 games would take days: a refusal in seconds shows the check comes first
    refused_fast([*command, "--html", str(tmp_path)], status, "is a directory")
    refused_fast([*command, "--html", str(tmp_path / "x") + "/"], status, "not a directory")
    refused_fast([*command, "--html", str(tmp_path / "missing" / "r.html")], status, "does not exist")
    fifo = tmp_path / "pipe.html"
    os.mkfifo(fifo)
    done = threading.Event()

    def reader() -> None:  # would unblock a writer that opened the FIFO: it must not be needed
        done.wait(20)

    threading.Thread(target=reader, daemon=True).start()
    refused_fast([*command, "--html", str(fifo)], status, "is not a regular file")
    done.set()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe.html"]  # nothing written


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere")
def test_an_unwritable_directory_is_refused_before_the_work(tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        refused_fast(["simulate", "hubei-3p", "--games", "100000000", "--html", str(locked / "r.html")], 1,
                     "is not writable")
    finally:
        locked.chmod(0o700)


def test_the_report_replaces_a_file_in_one_step(tmp_path: Path, games: dict[str, Any]) -> None:
    out = tmp_path / "r.html"
    out.write_text("old", encoding="utf-8")
    out.chmod(0o640)
    write_file(out, render_games_html(games))
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert out.stat().st_mode & 0o777 == 0o640  # its permissions kept
    assert [p.name for p in tmp_path.iterdir()] == ["r.html"]  # no temporary file left
