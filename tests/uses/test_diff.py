"""``ddzrules diff``: the same spec, a child that removes a combo or swaps two bomb
classes, the compat profiles against the reference universes, exact comparison
counts checked by brute force, the HTML report, and bad input."""

from __future__ import annotations

import json
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path
from typing import ClassVar

import pytest
from click.testing import CliRunner
from conftest import REFERENCE

from ddzrules import load_variant
from ddzrules.cli import main
from ddzrules.diff import diff_specs


def child(tmp_path: Path, name: str, body: str, parent: str = "hubei-3p") -> Path:
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"name: {name}\nextends: {parent}\n{body}", encoding="utf-8")
    return path


def test_same_spec_is_no_difference() -> None:
    r = CliRunner().invoke(main, ["diff", "hubei-3p", "hubei-3p"])
    assert r.exit_code == 0, r.output
    assert "no difference" in r.output
    d = diff_specs(load_variant("hubei-3p"), load_variant("hubei-3p"), hands=50)
    assert d.same and not d.rules and d.hands is not None and d.hands["leads_differ"] == 0


def test_child_that_removes_one_combo(tmp_path: Path) -> None:
    path = child(tmp_path, "no-four-two", "combos:\n  four_with_two: null\n")
    a, b = load_variant("hubei-3p"), load_variant(path)
    d = diff_specs(a, b)
    assert not d.same
    assert [r for r in d.rules if r["section"] == "combos"] == [
        {"section": "combos", "what": "four_with_two", "a": a.spec.data["combos"]["four_with_two"]["pattern"],
         "b": None, "change": "removed"}]
    (row,) = d.plays["per_combo"]
    assert row["combo"] == "four_with_two" and row["only_b"] == 0
    assert row["only_a"] == d.plays["only_a"] == a.census().total - b.census().total
    assert row["witnesses_a"][0] == "333345"
    r = CliRunner().invoke(main, ["diff", "hubei-3p", str(path), "--json"])
    assert r.exit_code == 1
    assert json.loads(r.output)["plays"]["only_a"] == row["only_a"]


def test_child_that_swaps_two_bomb_classes(tmp_path: Path) -> None:
    path = child(tmp_path, "rocket-low", "bombs: [rocket, bomb]\n")
    d = diff_specs(load_variant("hubei-3p"), load_variant(path))
    assert [r["what"] for r in d.rules if r["section"] == "bombs"] == ["bomb classes, lowest first"]
    groups = {(g["x_combo"], g["y_combo"], g["beats_in"]): g for g in d.comparisons["groups"]}
    assert set(groups) == {("rocket", "bomb", "a"), ("bomb", "rocket", "b")}
    assert groups[("rocket", "bomb", "a")]["pairs"] == groups[("bomb", "rocket", "b")]["pairs"] == 13
    assert groups[("rocket", "bomb", "a")]["witnesses"][0] == {"x": "XD", "y": "3333"}
    assert groups[("bomb", "rocket", "b")]["witnesses"][0] == {"x": "3333", "y": "XD"}
    assert d.comparisons["pairs"] == 26


def reference_universe(name: str) -> set[str]:
    rows = [line.split("\t") for line in (REFERENCE / name).read_text(encoding="utf-8").splitlines()
            if line and not line.startswith("#")]
    if name.startswith("rlcard"):
        return {r[2] for r in rows if r[1] != "pass"}
    return {r[2] for r in rows}


def test_rlcard_against_douzero_equals_the_reference_universes() -> None:
    a, b = load_variant("compat/rlcard"), load_variant("compat/douzero")
    d = diff_specs(a, b)
    ra, rb = reference_universe("rlcard_actions.txt"), reference_universe("douzero_universe.txt")
    assert d.only_a_plays == ra - rb and d.only_b_plays == rb - ra
    assert d.plays["only_b"] == len(rb - ra) == 2513 and d.plays["only_a"] == 0
    assert {r["combo"] for r in d.plays["per_combo"]} == {"four_two", "plane_solos"}


def test_comparison_counts_are_exact_by_brute_force() -> None:
    # a pair is judged differently only if one of its plays is read differently (the
    # others have the same readings under both specs): brute-force every such pair
    a, b = load_variant("compat/rlcard"), load_variant("compat/douzero")
    d = diff_specs(a, b)
    ta, tb = a.plays_by_string, b.plays_by_string
    common = sorted(set(ta) & set(tb))
    odd = [c for c in common if {(m.combo, m.rank, m.length) for m in ta[c]} !=
           {(m.combo, m.rank, m.length) for m in tb[c]}]
    assert len(odd) == d.plays["read_differently"] == 9

    def beats(t: dict, x: str, y: str) -> bool:
        return any(p.beats(q) for p in t[x] for q in t[y])

    count = 0
    odd_set = set(odd)
    for x in odd:
        for y in common:
            if x == y:
                continue
            count += beats(ta, x, y) != beats(tb, x, y)
            if y not in odd_set:  # (y, x) too, once
                count += beats(ta, y, x) != beats(tb, y, x)
    assert count == d.comparisons["pairs"] > 0


@pytest.mark.parametrize("a, b", [("hubei-3p", "crown-3p"), ("qiangdizhu", "jiaofen"),
                                  ("hk", "space-shuttle"), ("compat/rlcard", "compat/douzero")])
def test_full_reports(a: str, b: str) -> None:
    r = CliRunner().invoke(main, ["diff", a, b, "--hands", "100", "--json"])
    assert r.exit_code == 1, r.output
    data = json.loads(r.output)
    assert data["same"] is False and data["rules"]
    assert data["hands"]["hands"] == 100
    text = CliRunner().invoke(main, ["diff", a, b])
    assert text.exit_code == 1 and "Comparisons" in text.output and "Traceback" not in text.output


def test_different_decks_say_what_cannot_be_compared() -> None:
    r = CliRunner().invoke(main, ["diff", "hubei-3p", "hubei-4p-2deck", "--hands", "20", "--json"])
    assert r.exit_code == 1
    data = json.loads(r.output)
    assert data["hands"] is None and any("decks differ" in n for n in data["notes"])
    assert any(x["what"] == "deck.decks" for x in data["rules"])


@pytest.mark.parametrize("args, message", [
    (["hubei-3p", "nosuch"], "no spec named 'nosuch'"),
    (["hubei-3p", "broken"], "broken.yaml"),
])
def test_bad_input_exits_2(tmp_path: Path, args: list[str], message: str, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "broken.yaml").write_text("name: broken\nextends: hubei-3p\ncombos:\n  x: {pattern: '3{'}\n")
    monkeypatch.chdir(tmp_path)
    args = [str(tmp_path / "broken.yaml") if x == "broken" else x for x in args]
    r = CliRunner().invoke(main, ["diff", *args])
    assert r.exit_code == 2 and message in r.output and "Traceback" not in r.output


class _Checker(HTMLParser):
    VOID: ClassVar[set[str]] = {"meta", "br", "img", "input", "link", "hr", "path", "use", "stop", "rect", "circle",
            "line", "polyline", "polygon", "ellipse"}

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.tags: set[str] = set()
        self.external: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)
        for k, v in attrs:
            if k in ("src", "href") and v and not v.startswith("#"):
                self.external.append(v)
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in self.VOID:
            return
        assert self.stack and self.stack[-1] == tag, (tag, self.stack[-5:])
        self.stack.pop()


def test_html_report_is_self_contained_and_well_formed(tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    r = CliRunner().invoke(main, ["diff", "compat/rlcard", "compat/douzero", "--hands", "30",
                                  "--html", str(out)])
    assert r.exit_code == 1, r.output
    html = out.read_text(encoding="utf-8")
    checker = _Checker()
    checker.feed(html)
    assert not checker.stack and not checker.external
    assert {"html", "table", "svg", "h2"} <= checker.tags
    assert "plane_solos" in html and "2,513" in html
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium:  # a real browser: it must render the page without errors
        proc = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu",
                               "--disable-background-networking", "--enable-logging=stderr", "--v=0",
                               "--dump-dom", out.as_uri()],
                              capture_output=True, text=True, timeout=60, check=False)
        assert proc.returncode == 0 and "plane_solos" in proc.stdout
        # the page's own errors (script, resources) are logged as CONSOLE lines
        assert not [line for line in proc.stderr.splitlines() if "CONSOLE" in line]


def test_paired_games_of_the_same_rules_differ_by_nothing() -> None:
    r = CliRunner().invoke(main, ["diff", "hubei-3p", "hubei-3p", "--games", "40", "--seed", "3", "--json"])
    assert r.exit_code == 0, r.output
    games = json.loads(r.output)["games"]
    (comparison,) = games["comparisons"]
    assert comparison["paired"] is True
    for name, fig in comparison["figures"].items():
        if fig is not None:
            assert fig["difference"] == 0 and fig["paired"]["low"] == fig["paired"]["high"] == 0, name


def test_games_in_the_text_and_html_reports(tmp_path: Path) -> None:
    out = tmp_path / "games.html"
    r = CliRunner().invoke(main, ["diff", "hubei-3p", "crown-3p", "--games", "40", "--seed", "1",
                                  "--html", str(out)])
    assert r.exit_code == 1, r.output
    assert "Games" in r.output and "paired" in r.output and "n/a" in r.output  # crown-3p has no spring
    html = out.read_text(encoding="utf-8")
    assert "Distribution of the multiple" in html and "Landlord win rate" in html
    # drawn without a plotting library: the plays per combo, each difference that both
    # rule sets have, a bar per multiple and rule set, the win rates
    comparison = CliRunner().invoke(main, ["diff", "hubei-3p", "crown-3p", "--games", "40", "--seed", "1",
                                           "--json"])
    games = json.loads(comparison.output)["games"]
    differences = sum(v is not None for v in games["comparisons"][0]["figures"].values())
    multiples = len({k for s in games["specs"] for k in s["multiple_distribution"]})
    assert html.count("<svg") == 1 + differences + 2 * multiples + 1
