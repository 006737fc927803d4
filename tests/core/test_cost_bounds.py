"""Compile-time cost bounds: a pattern whose enumeration would explode is refused, with
its estimate and its place, before anything is enumerated; the bundled specs stay well
under the limit, and the estimate is never below what the enumeration really makes."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner
from fuzzers import bounded

import ddzrules
from ddzrules import cards as C
from ddzrules.cli import main
from ddzrules.errors import SpecError
from ddzrules.lint import validate_spec
from ddzrules.rules.compiler import compile_spec
from ddzrules.rules.cost import (
    DEFAULT_MAX_ENUMERATION,
    ENUMERATION_ENV,
    WILD_FACTOR,
    max_enumeration,
    shape_cost,
)
from ddzrules.rules.wild_walk import enumerate_wild
from ddzrules.spec import bundled_names, load_spec

#: issue 11: one single with 19 single kickers, `where distinct`, validated and then hung
NINETEEN = "1" + " + 1" * 19 + " where distinct"


def write(path: Path, text: str) -> Path:
    path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return path


def spec_with(tmp_path: Path, pattern: str, extends: str = "hubei-3p", extra: str = "") -> Path:
    return write(tmp_path / "wide.yaml", f"""
        name: scratch/wide
        extends: {extends}
        {extra}combos:
          wide: "{pattern}"
        """)


def test_nineteen_kickers_refused_by_validate_with_estimate_and_place(tmp_path: Path) -> None:
    path = spec_with(tmp_path, NINETEEN)
    with bounded("the refusal", 30):
        report = validate_spec(str(path))
    [problem] = [p for p in report.errors if p.code == "too-large"]
    assert problem.location is not None
    assert (problem.location.line, problem.location.column) == (4, 10)  # the pattern's first token
    assert problem.path == "combos.wide"
    assert "combo 'wide' is too large to enumerate" in problem.message
    assert "×10^" in problem.message and "steps" in problem.message  # the estimate, 15 × 14^19 and more
    assert ENUMERATION_ENV in problem.message and problem.hint
    with bounded("the refusal", 30):
        result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.exit_code == 1
    assert "wide.yaml:4:10: combos.wide: combo 'wide' is too large to enumerate" in result.output


def test_nineteen_kickers_never_reach_a_call(tmp_path: Path) -> None:
    """Loading refuses the spec, so no later call (the one that hung) can start."""
    path = spec_with(tmp_path, NINETEEN)
    with bounded("the refusal", 30), pytest.raises(SpecError, match="too large to enumerate"):
        ddzrules.load_variant(path)


@pytest.mark.parametrize(("pattern", "extends", "extra", "wild"), [
    ("3 + 1*12", "hubei-4p-2deck", "", False),  # multisets of twelve kickers, eight of a rank
    ("1{5..} + 1*2n", "hubei-3p", "max_hand: 54\n        ", False),  # a whole deck as the hand
    ("3{2..} + 1*n + 1*n", "hubei-3p", "", False),  # two kicker terms multiply
    ("1{5..} + 1*n", "laizi", "", True),  # fine naturally, not with four wild cards
])
def test_explosive_shapes_refused(tmp_path: Path, pattern: str, extends: str, extra: str, wild: bool) -> None:
    path = spec_with(tmp_path, pattern, extends, extra)
    with bounded("the refusal", 30), pytest.raises(SpecError) as info:
        compile_spec(load_spec(path))
    [problem] = info.value.problems
    assert problem.code == "too-large" and problem.path == "combos.wide"
    assert ("with wild cards" in problem.message) == wild
    limit = max_enumeration() * (WILD_FACTOR if wild else 1)
    assert f"above the limit of {limit:,}" in problem.message


def test_the_limit_can_be_raised(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = spec_with(tmp_path, "3{2..} + 1*n + 1*n")
    monkeypatch.setenv(ENUMERATION_ENV, "100000000")
    assert max_enumeration() == 100_000_000
    compile_spec(load_spec(path))  # compiles: nothing is enumerated at compile time
    for bad in ("", "0", "-5", "lots"):  # not trusted: the default stands
        monkeypatch.setenv(ENUMERATION_ENV, bad)
        assert max_enumeration() == DEFAULT_MAX_ENUMERATION


def test_combos_together_over_the_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each combo under the limit but the spec over it: reported at ``combos``, naming the largest."""
    rules = compile_spec(load_spec("hubei-3p"))
    costs = {}
    for s in rules.shapes:
        name = rules.combos[s.combo].name
        costs[name] = costs.get(name, 0) + shape_cost(s, rules.deck, rules.max_hand).steps
    largest = max(costs.values())
    monkeypatch.setenv(ENUMERATION_ENV, str(largest + 1))
    with pytest.raises(SpecError) as info:
        compile_spec(load_spec("hubei-3p"))
    [problem] = info.value.problems
    assert problem.path == "combos" and problem.code == "too-large"
    assert "the combos together are too large" in problem.message and "plane_wings" in problem.message


def test_kicker_maximum_that_cannot_fit_still_compiles(tmp_path: Path) -> None:
    """One kicker term of nineteen distinct singles never fits 15 ranks: cheap, not refused."""
    path = spec_with(tmp_path, "1 + 1*19 where distinct")
    rules = compile_spec(load_spec(path))
    [shape] = [s for s in rules.shapes if rules.combos[s.combo].name == "wide"]
    cost = shape_cost(shape, rules.deck, rules.max_hand)
    assert cost.plays == 0 and cost.steps < max_enumeration()


def bundled_costs() -> dict[str, tuple[int, int]]:
    out = {}
    for name in bundled_names():
        rules = compile_spec(load_spec(name))
        natural = sum(shape_cost(s, rules.deck, rules.max_hand).steps for s in rules.shapes)
        wild = sum(shape_cost(s, rules.deck, rules.max_hand, rules.stand_for).steps
                   for s in rules.shapes) if rules.stand_for else 0
        out[name] = (natural, wild)
    return out


def test_bundled_specs_well_under_the_limit() -> None:
    costs = bundled_costs()
    assert len(costs) >= 16
    for name, (natural, wild) in costs.items():
        assert natural * 10 <= DEFAULT_MAX_ENUMERATION, (name, natural)
        assert wild * 4 <= DEFAULT_MAX_ENUMERATION * WILD_FACTOR, (name, wild)
    assert costs["laizi"][1] > 0  # the wild bound is checked for the wildcard spec


@pytest.mark.parametrize("name", bundled_names())
def test_estimate_bounds_the_true_enumeration(name: str) -> None:
    """Per shape, the plays bound is at least what the enumeration emits (duplicates
    included), and per combo at least the census's distinct card sets."""
    v = ddzrules.load_variant(name)
    rules = v.rules
    per_combo: dict[str, int] = {}
    for s in rules.shapes:
        cost = shape_cost(s, rules.deck, rules.max_hand)
        emitted = [0]
        rules.enumerate(list(rules.deck), lambda *_, n=emitted: n.__setitem__(0, n[0] + 1),
                        shapes=[s], max_size=rules.max_hand)
        assert emitted[0] <= cost.plays <= cost.steps, (rules.combos[s.combo].name, emitted[0], cost)
        combo = rules.combos[s.combo].name
        per_combo[combo] = per_combo.get(combo, 0) + cost.plays
    for combo, count in v.census().by_combo.items():
        if count:
            assert count <= per_combo[combo], (combo, count, per_combo[combo])


def test_wild_estimate_bounds_the_wild_walk() -> None:
    """laizi with wild 7 (four wild cards): each shape's wild bound is at least the
    plays the wild walk over the whole deck reports, duplicates included."""
    rules = compile_spec(load_spec("laizi"))
    wild = C.parse_rank("7")
    naturals = list(rules.deck)
    wilds, naturals[wild] = naturals[wild], 0
    for s in rules.shapes:
        cost = shape_cost(s, rules.deck, rules.max_hand, rules.stand_for)
        emitted = [0]
        enumerate_wild(rules, naturals, wilds, wild, lambda *_, n=emitted: n.__setitem__(0, n[0] + 1),
                       shapes=[s], max_size=rules.max_hand)
        assert emitted[0] <= cost.plays, (rules.combos[s.combo].name, emitted[0], cost)
