"""Conformance runs against the real engines (the issue's acceptance): each engine
passes a suite generated from its compat profile, a DouZero suite fails against RLCard
with the kicker policies as causes, perft agrees with OpenSpiel's own state cloning to
depth 3, and known engine defects are reported apart (failures under --strict)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ddzrules import load_variant
from ddzrules.cli import main
from ddzrules.conformance import generate, write_suite
from ddzrules.conformance.run import run_suite


def suite(tmp_path_factory: pytest.TempPathFactory, spec: str, level: str = "smoke", seed: int = 0) -> Path:
    d = tmp_path_factory.mktemp(spec.replace("/", "-"))
    write_suite(generate(load_variant(spec), level=level, seed=seed), d)
    return d


@pytest.mark.parametrize("engine, spec, package", [
    ("rlcard", "compat/rlcard", "rlcard"),
    ("douzero", "compat/douzero", "douzero"),
    ("openspiel", "compat/openspiel", "pyspiel"),
])
def test_each_engine_passes_its_compat_profile(tmp_path_factory: pytest.TempPathFactory, engine: str,
                                               spec: str, package: str) -> None:
    pytest.importorskip(package)
    d = suite(tmp_path_factory, spec)
    r = CliRunner().invoke(main, ["conformance", "run", str(d), "--engine", engine])
    assert r.exit_code == 0, r.output
    report = run_suite(d, engine)
    for category in ("classify", "moves", "census"):
        assert report.counts[category]["passed"] > 0, category
        assert report.counts[category]["failed"] == 0, category


def test_douzero_suite_fails_against_rlcard_on_the_kicker_policies(tmp_path_factory: pytest.TempPathFactory) -> None:
    pytest.importorskip("rlcard")
    d = suite(tmp_path_factory, "compat/douzero", "standard")
    report = run_suite(d, "rlcard")
    assert not report.ok
    moves = {g.subject: g for g in report.groups if g.category == "moves"}
    # the two combos whose kickers the engines allow differently, and how (the kicker
    # policies of tests/reference/README.md): both jokers, a four, a trio next to the chain
    assert {s.split(" ")[0] for s in moves} == {"four_two", "plane_solos"}
    policies = {f for s in moves for f in s.partition("(kickers: ")[2].rstrip(")").split(", ")}
    assert policies <= {"both jokers", "a four", "a trio next to the chain", "a trio"}
    assert {"both jokers", "a four"} <= policies
    assert all(g.kind == "a legal play the engine does not list" for g in moves.values())
    play, _, hand = moves["four_two (kickers: both jokers)"].witness.partition(" from hand ")
    assert play.endswith("XD") and hand.startswith(play)  # four + both jokers, shrunk to itself
    census = {g.subject for g in report.groups if g.category == "census"}
    assert census == {"four_two", "plane_solos", "total"}


def test_perft_to_depth_3_agrees_with_openspiel(tmp_path_factory: pytest.TempPathFactory) -> None:
    pytest.importorskip("pyspiel")
    d = suite(tmp_path_factory, "compat/openspiel", "standard", seed=4)
    report = run_suite(d, "openspiel", categories=["perft"])
    assert report.counts["perft"] == {"passed": 12, "failed": 0, "known": 0, "skipped": 0}


def test_known_defects_are_reported_apart_and_fail_under_strict(tmp_path_factory: pytest.TempPathFactory) -> None:
    pytest.importorskip("pyspiel")
    d = suite(tmp_path_factory, "compat/openspiel", "standard")
    report = run_suite(d, "openspiel", categories=["moves", "compare"])  # both defects show here
    assert report.ok and report.counts["moves"]["known"] > 0
    known = {g.known for g in report.groups}
    assert known == {"chain-with-four-of-its-lowest-rank", "bomb-on-rocket"}
    chain = next(g for g in report.groups if g.known == "chain-with-four-of-its-lowest-rank")
    play, _, rest = chain.witness.partition(" from hand ")
    hand = rest.split(" ")[0]
    assert hand.count(play[0]) == 4  # the hand holds four of the chain's lowest rank
    r = CliRunner().invoke(main, ["conformance", "run", str(d), "--engine", "openspiel", "--strict",
                                  "--category", "compare", "--json"])
    assert r.exit_code == 1
    strict = json.loads(r.output)
    assert strict["categories"]["compare"]["failed"] == report.counts["compare"]["known"] > 0
    assert {g["known_defect"] for g in strict["groups"]} == {"bomb-on-rocket"}
