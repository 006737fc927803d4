"""Hostile conformance suites (issue 20): every file is read as a bounded stream, every
vector checked against what can occur in a game of the suite's spec, the work of a run
bounded per vector (a perft node budget) and per suite (vectors, work), and the JUnit XML
escaped whatever the suite or the adapter holds. Each refusal through the CLI: exit 1,
a message naming the file and line, no traceback."""

from __future__ import annotations

import hashlib
import json
import os
import random
import threading
import time
import tracemalloc
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from ddzrules import cards as C
from ddzrules import load_variant
from ddzrules.cli import main
from ddzrules.conformance import (
    LEVELS,
    LISTED_UNITS,
    MAX_LINE_BYTES,
    MAX_VECTORS,
    MAX_WORK,
    STEP_UNITS,
    Limits,
    Position,
    SuiteError,
    check_suite,
    gen_perft,
    generate,
    load_manifest,
    perft,
    perft_budget,
    read_vectors,
    write_suite,
)
from ddzrules.conformance.read import _impossible, _Table
from ddzrules.conformance.run import junit_xml, run_suite
from ddzrules.engines import BudgetExceeded, Unsupported
from ddzrules.engines.native import NativeEngine
from ddzrules.spec import bundled_names

Line = dict[str, Any] | bytes

SOLO = {"id": "classify-000001", "cards": "3",
        "expect": {"play": True, "readings": [{"combo": "single", "rank": "3", "length": 1}]},
        "covers": "single/lowest"}


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("hubei-smoke")
    write_suite(generate(load_variant("hubei-3p"), level="smoke", seed=1), d)
    return d


def first(base: Path, category: str) -> dict[str, Any]:
    line = (base / f"{category}.jsonl").read_text(encoding="utf-8").splitlines()[0]
    vec: dict[str, Any] = json.loads(line)
    return vec


def make_suite(base: Path, d: Path, files: dict[str, list[Line]], declare: dict[str, int] | None = None,
               **manifest_fields: Any) -> Path:
    """A suite with the base suite's spec and the given lines (a dict: one vector; bytes:
    written as they are), its manifest's digests right and its counts as ``declare`` says."""
    d.mkdir(parents=True, exist_ok=True)
    manifest = json.loads((base / "manifest.json").read_text(encoding="utf-8"))
    manifest.update(manifest_fields)
    manifest["files"], manifest["counts"] = {}, {}
    for category, lines in files.items():
        data = b"".join(x if isinstance(x, bytes) else
                        json.dumps(x, ensure_ascii=False).encode("utf-8", "surrogatepass") + b"\n"
                        for x in lines)
        (d / f"{category}.jsonl").write_bytes(data)
        n = (declare or {}).get(category, len(lines))
        manifest["files"][category] = {"file": f"{category}.jsonl", "sha256": hashlib.sha256(data).hexdigest(),
                                       "vectors": n}
        manifest["counts"][category] = n
    (d / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return d


def run(d: Path, *args: str, engine: str = "ddzrules") -> Result:
    return CliRunner().invoke(main, ["conformance", "run", str(d), "--engine", engine, *args])


def refused(r: Result, where: str, message: str) -> None:
    """Exit 1, ``error: <where>...<message>``, no traceback, nothing run."""
    text = " ".join(r.output.split())
    assert r.exit_code == 1, r.output
    assert "Traceback" not in r.output and (r.exception is None or isinstance(r.exception, SystemExit))
    assert "error:" in text and where in text and message in text, r.output
    assert "PASS" not in text and "FAIL" not in text  # refused before any vector ran


def classify(i: int, **fields: Any) -> dict[str, Any]:
    return {**SOLO, "id": f"classify-{i:06d}", **fields}


# ---------------------------------------------------------------- the suite's size


def test_a_suite_declaring_more_vectors_than_the_limit_is_refused_before_a_line_is_read(
        base: Path, tmp_path: Path) -> None:
    # just over the default limit, as a million-vector suite would be; its lines are not
    # even written: the manifest's declaration alone is refused
    d = make_suite(base, tmp_path / "s", {"classify": [classify(1)]}, declare={"classify": MAX_VECTORS + 1})
    started = time.perf_counter()
    r = run(d)
    refused(r, "manifest.json: files", f"declares {MAX_VECTORS + 1:,} vectors")
    assert "--max-vectors" in r.output and time.perf_counter() - started < 10
    # an explicit, lower limit counts every category run together
    d = make_suite(base, tmp_path / "t", {"classify": [classify(i) for i in range(1, 4)],
                                          "compare": [first(base, "compare")]})
    refused(run(d, "--max-vectors", "3"), "manifest.json", "declares 4 vectors (classify, compare)")
    assert run(d, "--max-vectors", "3", "--category", "classify").exit_code == 0
    assert run(d, "--max-vectors", "4").exit_code == 0


def test_a_file_with_more_vectors_than_its_manifest_declares_stops_at_that_line(
        base: Path, tmp_path: Path) -> None:
    # 50 MB of vectors behind a manifest declaring 10: refused at line 11, the file
    # never held in memory
    line = json.dumps(classify(1)).encode() + b"\n"
    lines: list[Line] = [json.dumps(classify(i)).encode() + b"\n" for i in range(1, 11)]
    lines.append(line * (50_000_000 // len(line)))
    d = make_suite(base, tmp_path / "s", {"classify": lines}, declare={"classify": 10})
    m = load_manifest(d)
    v = load_variant("hubei-3p")
    tracemalloc.start()
    try:
        with pytest.raises(SuiteError, match=r"classify\.jsonl:11: more vectors than the 10"):
            check_suite(d, m, ["classify"], v)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 8 * 2**20, peak
    refused(run(d), "classify.jsonl:11:", "more vectors than the 10 the manifest declares")


def test_read_vectors_alone_keeps_the_vector_limit(base: Path, tmp_path: Path) -> None:
    d = make_suite(base, tmp_path / "s", {"classify": [classify(i) for i in range(1, 6)]})
    with pytest.raises(SuiteError, match=r"classify\.jsonl:4: the suite holds more than 3 vectors"):
        read_vectors(d, load_manifest(d), "classify", limits=Limits(max_vectors=3))


def listed_in_replay(game: dict[str, Any], spec: str | Path) -> int:
    """The actions a replay of ``game`` lists: the legal actions of every step but the last,
    counted here by playing the vector's actions through the runtime."""
    from ddzrules.records import find_action
    from ddzrules.runtime import GameRules, MatchInfo

    rules = GameRules(load_variant(str(spec)))
    match = game["match"]
    g = rules.new_game(game["seed"], MatchInfo(match["index"], match["seed"]))
    listed = 0
    for i, data in enumerate(game["actions"]):
        if data["kind"] != "redeal":
            listed += len(g.legal_actions())
            g.apply(find_action(g, data, i))
    assert g.over
    return listed


def test_the_suites_work_is_bounded(base: Path, tmp_path: Path) -> None:
    games = first(base, "games")
    d = make_suite(base, tmp_path / "s", {"classify": [classify(i) for i in range(1, 4)], "games": [games]})
    work = 3 + 1 + STEP_UNITS * len(games["actions"]) + LISTED_UNITS * listed_in_replay(games, "hubei-3p")
    assert check_suite(d, load_manifest(d), ["classify", "games"]).work == work
    assert run(d, "--max-work", str(work)).exit_code == 0
    refused(run(d, "--max-work", str(work - 1)), "games.jsonl:1:", "the suite's work passes the limit")


THREE_DECKS = """name: three-deck
extends: hubei-3p
deck: {decks: 3, jokers: true}
deal: {hand: 50, kitty: 12}
"""


def test_costly_games_count_what_their_replay_lists(base: Path, tmp_path: Path) -> None:
    """Issue 43: a games vector counted 1 + its actions whatever its spec cost to replay, so
    copies of one genuine game of a three-deck spec (hands of 50 cards, hundreds of plays
    listed a step) ran at 1.8 ms a unit and the default --max-work admitted hours. The
    replay now adds a unit for each action it lists, and stops at the limit."""
    from ddzrules.conformance import LEVELS, gen_games
    from ddzrules.spec import spec_from_data

    (tmp_path / "three.yaml").write_text(THREE_DECKS, encoding="utf-8")
    v = load_variant(str(tmp_path / "three.yaml"))
    (game,) = gen_games(v, replace(LEVELS["smoke"], games=1), 0)
    listed = listed_in_replay(game, tmp_path / "three.yaml")
    per_copy = 1 + STEP_UNITS * len(game["actions"]) + LISTED_UNITS * listed
    # as many units an action again as a step of hubei-3p lists: the count tracks the spec
    ordinary = first(base, "games")
    assert listed / len(game["actions"]) > 5 * listed_in_replay(ordinary, "hubei-3p") / len(ordinary["actions"])
    copies = [{**game, "id": f"games-{i:06d}"} for i in range(1, 101)]
    d = make_suite(base, tmp_path / "s", {"games": copies}, spec="three-deck", spec_resolved=v.spec.data,
                   spec_hash=spec_from_data(v.spec.data, "test").content_hash)
    limit = 3 * per_copy + per_copy // 2  # three copies and a half: stopped inside the fourth's replay
    with pytest.raises(SuiteError, match=r"games\.jsonl:4: actions/\d+: the suite's work passes the limit of"):
        check_suite(d, load_manifest(d), ["games"], limits=Limits(max_work=limit))
    assert check_suite(d, load_manifest(d), ["games"], limits=Limits(max_work=100 * per_copy)).work == \
        100 * per_copy
    # the defaults admit a few hundred copies (a minute or two), not 280,000 (1 + 70 units each: hours)
    assert MAX_WORK // per_copy < 1_000


def test_a_run_stops_at_its_time_limit(base: Path, tmp_path: Path) -> None:
    """Whatever the units say, a run has a deadline (--max-seconds, 600 by default): checked
    before each vector and each step of a game's replay."""
    games = [{**first(base, "games"), "id": f"games-{i:06d}"} for i in range(1, 4)]
    d = make_suite(base, tmp_path / "s", {"games": games})
    refused(run(d, "--max-seconds", "0.001"), "games.jsonl:", "the run passed its time limit of 0.001 s")
    # inside a game: a deadline past when the replay starts stops it at its first step
    from ddzrules.conformance import Tally
    from ddzrules.conformance.read import _not_its_game

    late = Tally(Limits(max_seconds=1.0), deadline=time.monotonic() - 1)
    assert _not_its_game(load_manifest(d), games[0], late) == \
        "actions/0: " + late.deadline_message() == "actions/0: " + \
        "the run passed its time limit of 1 s (--max-seconds raises it; the suite's work is bounded in units too, " \
        "--max-work)"
    assert run(d, "--max-seconds", "nan").exit_code == 2
    assert run(d).exit_code == 0


# ---------------------------------------------------------------- perft


def big_position() -> dict[str, Any]:
    deck = C.deck_list(load_variant("hubei-3p").rules.deck)
    hands = [deck[0::3], deck[1::3], deck[2::3]]  # 18 cards each, the whole deck
    return {"players": 3, "hands": [C.counts_to_string(C.counts_of(h)) for h in hands],
            "landlord": 0, "to_act": 0, "wild": None}


def perft_vector(position: dict[str, Any], depth: int, nodes: int, i: int = 1) -> dict[str, Any]:
    return {"id": f"perft-{i:06d}", "position": position, "depth": depth,
            "expect": {"nodes": nodes, "divide": {"3": nodes} if nodes else {}}, "covers": "perft/big"}


def test_a_perft_vector_expecting_more_than_the_node_budget_is_refused(base: Path, tmp_path: Path) -> None:
    d = make_suite(base, tmp_path / "s", {"perft": [perft_vector(big_position(), 8, 10**15)]})
    started = time.perf_counter()
    refused(run(d), "perft.jsonl:1:", "expect/nodes: 1,000,000,000,000,000 sequences, more than the limit "
                                      "of 1,000,000")
    assert time.perf_counter() - started < 10
    # an honest depth-2 vector: refused when it expects more than the limit; counted when
    # the limit covers every position the search visits (its sequences of 1 and 2 actions)
    honest = json.loads((base / "perft.jsonl").read_text(encoding="utf-8").splitlines()[-1])
    assert honest["depth"] == 2
    d = make_suite(base, tmp_path / "t", {"perft": [honest]})
    n = honest["expect"]["nodes"]
    refused(run(d, "--max-perft-nodes", str(n - 1)), "perft.jsonl:1:", "more than the limit of "
                                                                        f"{n - 1:,} a perft vector may expect")
    first_plays = len(load_variant("hubei-3p").legal_moves(honest["position"]["hands"][honest["position"]["to_act"]]))
    r = run(d, "--max-perft-nodes", str(n + first_plays - 1))
    assert r.exit_code == 1 and "the search passed its budget" in r.output
    assert run(d, "--max-perft-nodes", str(n + first_plays)).exit_code == 0


def test_a_perft_vector_understating_its_count_is_stopped_by_the_search_budget(
        base: Path, tmp_path: Path) -> None:
    # whole hands to depth 8 (before the budget: no end in sight); it claims 1 sequence,
    # so the search may visit 8 × 2 + PERFT_SLACK positions before the vector fails
    d = make_suite(base, tmp_path / "s", {"perft": [perft_vector(big_position(), 8, 1)]})
    started = time.perf_counter()
    r = run(d, "--json")
    assert time.perf_counter() - started < 30
    assert r.exit_code == 1 and "Traceback" not in r.output
    data = json.loads(r.output)
    assert data["categories"]["perft"]["failed"] == 1
    (group,) = data["groups"]
    assert group["kind"] == "the search passed its budget"
    assert f"more than {perft_budget(8, 1, Limits()):,} positions" in group["detail"]


def test_perft_honours_its_budget_and_counts_exactly_within_it() -> None:
    v = load_variant("hubei-3p")
    pos = Position([C.counts_of(C.parse_ranks(h)) for h in ("34", "5", "6")], 0)
    # it visits 2 leads, 4 answers, 4 answers to those passes, 2 new leads: 12 positions
    assert perft(v, pos, 4, budget=12) == perft(v, pos, 4) == (2, {"3": 1, "4": 1})
    with pytest.raises(BudgetExceeded, match="more than 11 positions"):
        perft(v, pos, 4, budget=11)
    big = Position.from_dict(v, big_position())
    with pytest.raises(BudgetExceeded):
        perft(v, big, 8, budget=5_000)


class NoBudget(NativeEngine):
    """A third party's adapter whose perft takes no budget: asked the plain way."""

    def perft(self, position: dict[str, Any], depth: int) -> Any:  # type: ignore[override]
        return super().perft(position, depth)


def test_an_adapter_without_a_budget_parameter_is_asked_without_one(base: Path) -> None:
    report = run_suite(base, f"{__name__}:NoBudget", categories=["perft"])
    assert report.ok and report.counts["perft"]["passed"] > 0


def test_openspiel_honours_the_budget() -> None:
    pytest.importorskip("pyspiel")
    from ddzrules.engines.openspiel import OpenSpielEngine

    suite = generate(load_variant("compat/openspiel"), level="smoke", seed=0)
    engine = OpenSpielEngine(suite.manifest, {})
    vec = suite.vectors["perft"][-1]
    want = vec["expect"]["nodes"]
    assert engine.perft(vec["position"], vec["depth"], budget=10**6).nodes == want
    with pytest.raises(BudgetExceeded):
        engine.perft(vec["position"], vec["depth"], budget=want // 2)


# ---------------------------------------------------------------- positions that cannot occur


def _perft(base: Path, **position: Any) -> dict[str, Any]:
    vec = first(base, "perft")
    vec["position"] = {**vec["position"], **position}
    return vec


@pytest.mark.parametrize("case, message", [
    ("rank-over-deck", "cards: 5 cards of rank 3, the deck holds 4"),
    ("longer-than-a-hand", "cards: 21 cards, more than any hand holds (20)"),
    ("hands-over-deck", "position/hands together: 8 cards of rank 3, the deck holds 4"),
    ("hands-over-deck-size", "position/hands: 60 cards together, the deck holds 54"),
    ("to-act", "position/to_act: 5 is no seat of a 3-player game"),
    ("landlord", "position/landlord: 3 is no seat of a 3-player game"),
    ("players", "position/players: 4, the suite's spec is played by 3"),
    ("hands-count", "position/hands: 2 hands for 3 players"),
    ("negative-nodes", "expect/nodes: must be at least 0"),
    ("negative-census", "expect/plays: must be at least 0"),
    ("divide", "expect/divide: sums to"),
    ("wild-without-wildcards", "wild: the suite's spec has no wild cards"),
    ("deal-over-deck", "deals/0 together: "),
    ("seat", "actions/0/seat: 7 is no seat"),
    ("moves-after", "after: 5 cards of rank 3"),
    ("undealt", "deals/0/undealt: does not match the pattern"),
])
def test_impossible_vectors_are_refused_with_file_and_line(base: Path, tmp_path: Path, case: str,
                                                            message: str) -> None:
    category, vec = "classify", classify(1)
    if case == "rank-over-deck":
        vec["cards"] = "33333"
    elif case == "longer-than-a-hand":
        vec["cards"] = "3333444455556666777X"[:20] + "D"
    elif case == "hands-over-deck":
        category, vec = "perft", _perft(base, hands=["3333" + "4" * 4, "3333", "5"])
    elif case == "hands-over-deck-size":
        deck = C.deck_list(load_variant("hubei-3p").rules.deck)
        hands = [C.counts_to_string(C.counts_of(deck[i:i + 20])) for i in (0, 20, 34)]
        category, vec = "perft", _perft(base, hands=hands)
    elif case == "to-act":
        category, vec = "perft", _perft(base, to_act=5)
    elif case == "landlord":
        category, vec = "perft", _perft(base, landlord=3)
    elif case == "players":
        category, vec = "perft", _perft(base, players=4)
    elif case == "hands-count":
        category, vec = "perft", _perft(base)
        vec["position"]["hands"] = vec["position"]["hands"][:2]
    elif case == "negative-nodes":
        category, vec = "perft", _perft(base)
        vec["expect"]["nodes"] = -1
    elif case == "negative-census":
        category, vec = "census", first(base, "census")
        vec["expect"]["plays"] = -3
    elif case == "divide":
        category, vec = "perft", _perft(base)
        vec["expect"]["nodes"] += 1
    elif case == "wild-without-wildcards":
        vec["wild"] = "7"
    elif case == "deal-over-deck":  # two seats dealt the same hand
        category, vec = "games", first(base, "games")
        vec["deals"][0]["hands"][0] = vec["deals"][0]["hands"][1]
    elif case == "seat":
        category, vec = "games", first(base, "games")
        vec["actions"][0]["seat"] = 7
    elif case == "undealt":  # not cards at all
        category, vec = "games", first(base, "games")
        vec["deals"][0]["undealt"] = "ZZZ"
    elif case == "moves-after":
        category, vec = "moves", first(base, "moves")
        vec["after"] = "33333"
    vec["id"] = f"{category}-999999"  # the first line is the base suite's own vector
    d = make_suite(base, tmp_path / "s", {category: [first(base, category), vec]})
    refused(run(d), f"{category}.jsonl:2:", message)


# ---------------------------------------------------------------- games that are not their seed's


def _tamper_game(vec: dict[str, Any], case: str) -> None:
    """The base suite's first game (hubei-3p, seed 1: seat 2 takes the landlord at 3 and
    leads 6222; it holds X, not D), changed as ``case`` says."""
    actions = vec["actions"]
    if case == "illegal-play":  # the reviewer's: a play the seat cannot make there
        assert actions[3]["seat"] == 2 and actions[3]["kind"] == "play" and "D" not in vec["deals"][0]["hands"][2]
        actions[3]["value"] = "XD"
    elif case == "seed-off-by-one":  # the recorded deal is not the one the seed gives
        vec["seed"] += 1
    elif case == "wrong-seat":
        actions[0]["seat"] = 1
    elif case == "cut-short":
        actions.pop()
    elif case == "after-the-end":
        actions.append({"seat": 0, "kind": "pass"})
    elif case == "stray-redeal":
        actions.insert(2, {"seat": -1, "kind": "redeal", "value": "every player passed"})
    elif case == "check":
        vec["checks"]["10"] = vec["checks"]["10"][:-1]
    elif case == "check-at-no-step":
        vec["checks"]["999"] = []
    elif case == "scores":
        vec["expect"]["scores"] = [-s for s in vec["expect"]["scores"]]
    elif case == "events":
        vec["expect"]["events"] = ["x\x1b[31m"]
    elif case == "escape":
        actions[4] = {"seat": 0, "kind": "escape"}
    elif case == "record-field":  # a field no action of a game record has
        actions[4]["note"] = "\x1b[31m"


@pytest.mark.parametrize("case, message", [
    ("illegal-play", "actions/3: not an action the rules allow here (seat 2 to act)"),
    ("seed-off-by-one", "deals/0: not the deal its seed gives under the suite's spec"),
    ("wrong-seat", "actions/0: not an action the rules allow here (seat 0 to act)"),
    ("cut-short", "actions: the game is not over after the last action"),
    ("after-the-end", "an action after the game is over"),
    ("stray-redeal", "actions/2: not a redeal marker of the rules"),
    ("check", "checks/10: not the legal actions of that step of the game"),
    ("check-at-no-step", "checks/999: no step of the game at which a seat acts"),
    ("scores", "expect/scores: not the game's outcome, the rules give [6, 6, -12]"),
    ("events", "expect/events: not the game's outcome, the rules give ['bomb']"),
    ("escape", "actions/4: an escape; a suite's games are played to their end"),
    ("record-field", "actions/4: a field the schema does not have"),
])
def test_a_game_that_is_not_its_seeds_is_refused_before_the_engine_is_asked(
        base: Path, tmp_path: Path, case: str, message: str) -> None:
    # the engine was blamed for these ("the engine refuses an action of the game", "final
    # scores differs"): the suite is replayed by ddzrules' own runtime under its spec first
    vec = first(base, "games")
    _tamper_game(vec, case)
    d = make_suite(base, tmp_path / "s", {"games": [vec]})
    r = run(d, "--category", "games")
    refused(r, "games.jsonl:1:", message)
    assert "XD" not in r.output and "\x1b" not in r.output and "[31m" not in r.output  # not echoed
    with pytest.raises(SuiteError, match=r"games\.jsonl:1: "):
        check_suite(d, load_manifest(d), ["games"])
    # the game untouched passes
    d = make_suite(base, tmp_path / "t", {"games": [first(base, "games")]})
    assert run(d, "--category", "games").exit_code == 0


def test_a_games_vector_counts_the_spec_it_is_replayed_under(base: Path, tmp_path: Path) -> None:
    # the replay reads the suite's spec whole for every game: a spec of megabytes (a long
    # title) makes each game cost more work, so the limit bounds the time of the check
    from ddzrules.conformance import SPEC_BYTES_PER_STEP
    from ddzrules.spec import spec_from_data

    manifest = json.loads((base / "manifest.json").read_text(encoding="utf-8"))
    data = {**manifest["spec_resolved"], "title": {"en": "x" * (40 * SPEC_BYTES_PER_STEP)}}
    game = first(base, "games")
    d = make_suite(base, tmp_path / "s", {"games": [game]}, spec_resolved=data,
                   spec_hash=spec_from_data(data, "test").content_hash)
    work = check_suite(d, load_manifest(d), ["games"]).work
    known = 1 + STEP_UNITS * len(game["actions"]) + LISTED_UNITS * listed_in_replay(game, "hubei-3p")
    assert known + STEP_UNITS * 40 <= work <= known + STEP_UNITS * 41


def test_a_manifest_naming_another_spec_than_the_one_it_carries_is_refused(base: Path, tmp_path: Path) -> None:
    # it was shown as the suite's spec: "/etc/passwd suite (smoke) against ddzrules … PASS"
    d = make_suite(base, tmp_path / "s", {"classify": [classify(1)]}, spec="/etc/passwd")
    refused(run(d), "manifest.json: spec:", "the manifest names spec '/etc/passwd', but the spec it carries "
                                            "(spec_resolved) is 'hubei-3p'")
    d = make_suite(base, tmp_path / "t", {"classify": [classify(1)]}, spec="hubei-3p\x1b[31m" + "y" * 150)
    r = run(d)
    refused(r, "manifest.json: spec:", "the manifest names spec 'hubei-3p\\x1b[31my")
    assert "\x1b" not in r.output and "y" * 50 not in r.output  # escaped and clipped


def test_a_wild_rank_the_spec_does_not_allow_is_refused(tmp_path: Path) -> None:
    laizi = tmp_path / "laizi"
    write_suite(generate(load_variant("laizi"), level="smoke", seed=0), laizi)
    vec = first(laizi, "classify")
    d = make_suite(laizi, tmp_path / "s", {"classify": [{**vec, "wild": "X"}]})
    refused(run(d), "classify.jsonl:1:", "wild: X cannot be the wild rank of the suite's spec")


@pytest.fixture(scope="module")
def tiandi(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("tiandi")
    write_suite(generate(load_variant("tiandi-laizi"), level="smoke", seed=0), d)
    return d


@pytest.mark.parametrize("wild,message", [
    ("7,7", "wild: a wild rank is given twice"),
    ("7,9,J", "wild: 3 wild ranks, the suite's spec makes at most 2 wild at once"),
    ("7,X", "wild: X cannot be the wild rank of the suite's spec"),
])
def test_several_wild_ranks_the_spec_does_not_allow_are_refused(tiandi: Path, tmp_path: Path, wild: str,
                                                                message: str) -> None:
    vec = first(tiandi, "classify")
    d = make_suite(tiandi, tmp_path / "s", {"classify": [{**vec, "wild": wild}]})
    refused(run(d), "classify.jsonl:1:", message)


def test_duplicate_and_misfiled_ids_are_refused(base: Path, tmp_path: Path) -> None:
    d = make_suite(base, tmp_path / "s", {"classify": [classify(1), classify(2), classify(1)]})
    refused(run(d), "classify.jsonl:3:", "the vector id is already used at")
    assert "classify.jsonl:1" in " ".join(run(d).output.split())
    d = make_suite(base, tmp_path / "t", {"classify": [classify(1)],
                                          "compare": [{**first(base, "compare"), "id": "classify-000001"}]})
    refused(run(d), "compare.jsonl:1:", "the vector id is already used at")
    d = make_suite(base, tmp_path / "u", {"compare": [{**first(base, "compare"), "id": "moves-000001"}]})
    refused(run(d), "compare.jsonl:1:", "a compare vector's id starts with compare-")


# ---------------------------------------------------------------- JSON that is no suite's


@pytest.mark.parametrize("line, message", [
    (b'{"id": "classify-000001", "n": ' + b"9" * 5000 + b"}\n", "an integer of 5,000 digits (at most 20)"),
    (b'{"id": "classify-000001", "n": 123456789012345678901}\n', "an integer of 21 digits"),
    (b'{"id": "classify-000001", "n": NaN}\n', "NaN is not a JSON number"),
    (b'{"id": "classify-000001", "n": 1e999}\n', "a number too large for a float"),
    (b'{"id": "classify-000001", "covers": "\\ud800"}\n', "lone surrogate"),
    (b"[" * 100_000 + b"]" * 100_000 + b"\n", "nested too deeply"),
    (b"\xff\xfe\n", "not UTF-8 text"),
    (b"\n", "an empty line"),
    (b'{"id": "classify-000001",\n', "not valid JSON"),
    ((b'{"id": "classify-000001", "cards": "3", "covers": "x", "expect": {"play": true, "readings": []}, '
      b'"zzz-\\u001b[31m": 1}\n'), "top level: a field the schema does not have"),
])
def test_json_a_suite_cannot_hold_is_refused_with_its_line(base: Path, tmp_path: Path, line: bytes,
                                                           message: str) -> None:
    d = make_suite(base, tmp_path / "s", {"classify": [classify(1), line]}, declare={"classify": 2})
    r = run(d)
    refused(r, "classify.jsonl:2", message)
    assert "\x1b" not in r.output and "[31m" not in r.output  # the file's content is not echoed


@pytest.mark.parametrize("value, why", [
    (b"1" * 101, "an integer of 101 digits (at most 20)"),
    (b"NaN", "NaN is not a JSON number"),
    (b"-Infinity", "-Infinity is not a JSON number"),
    (b"1e999", "a number too large for a float"),
    (b"0." + b"5" * 60, "a number written with 62 characters (at most 40)"),
])
def test_a_refused_number_is_named_by_its_field_line_and_column(base: Path, tmp_path: Path, value: bytes,
                                                                why: str) -> None:
    """Issue 43: a forged 101-digit integer or NaN was refused without saying where it was."""
    head = b'{"id": "classify-000002", "cards": "3", "covers": "x: 12345", "expect": {"readings": [], "play": '
    d = make_suite(base, tmp_path / "s", {"classify": [classify(1), head + value + b"}}\n"]})
    refused(run(d), f"classify.jsonl:2:{len(head) + 1}: expect/play: {why}", why)
    # in the manifest: its line and column, and the field
    text = (d / "manifest.json").read_text(encoding="utf-8").replace('"seed": 1', '"seed": 1,\n  "seed2": 7')
    (d / "manifest.json").write_text(text.replace('"seed2": 7', '"seed2": ' + value.decode()), encoding="utf-8")
    line = text.split('"seed2"')[0].count("\n") + 1
    refused(run(d), f"manifest.json:{line}:12: seed2: {why}", why)


def test_an_overlong_line_is_refused_without_reading_it_whole(base: Path, tmp_path: Path) -> None:
    long = b'{"id": "classify-000001", "covers": "' + b"x" * (4 * MAX_LINE_BYTES) + b'"}\n'
    d = make_suite(base, tmp_path / "s", {"classify": [long]})
    m, v = load_manifest(d), load_variant("hubei-3p")
    tracemalloc.start()
    try:
        with pytest.raises(SuiteError, match=r"classify\.jsonl:1: a line longer than the limit"):
            check_suite(d, m, ["classify"], v)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 3 * MAX_LINE_BYTES, peak
    refused(run(d), "classify.jsonl:1:", "a line longer than the limit of 1,048,576 bytes")


def test_a_manifest_that_is_no_json_is_refused_at_its_line_and_column(base: Path, tmp_path: Path) -> None:
    d = make_suite(base, tmp_path / "s", {"classify": [classify(1)]})
    (d / "manifest.json").write_text('{\n "format": "ddzrules-suite/1",\n "spec": [}\n', encoding="utf-8")
    refused(run(d), "manifest.json:3:11:", "not valid JSON")


def test_a_huge_integer_in_the_manifest_is_refused(base: Path, tmp_path: Path) -> None:
    d = make_suite(base, tmp_path / "s", {"classify": [classify(1)]})
    text = (d / "manifest.json").read_text(encoding="utf-8")
    (d / "manifest.json").write_text(text.replace('"seed": 1', '"seed": ' + "7" * 4500), encoding="utf-8")
    refused(run(d), "manifest.json", "an integer of 4,500 digits")


def test_a_fifo_in_place_of_a_suite_file_is_refused_without_hanging(base: Path, tmp_path: Path) -> None:
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    d = make_suite(base, tmp_path / "s", {"classify": [classify(1)]})
    (d / "classify.jsonl").unlink()
    os.mkfifo(d / "classify.jsonl")
    result: list[Result] = []
    t = threading.Thread(target=lambda: result.append(run(d)), daemon=True)
    t.start()
    t.join(30)
    assert result, "the run hung on a FIFO"
    refused(result[0], "classify.jsonl", "not a regular file")


class Rewriter(NativeEngine):
    """An adapter that changes the suite between the check and the run."""

    def __init__(self, manifest: dict[str, Any], options: dict[str, str]) -> None:
        super().__init__(manifest, options)
        path = Path(options["path"])
        path.write_bytes(path.read_bytes().replace(b'"cards": "3"', b'"cards": "4"'))


def test_a_file_changed_after_the_check_is_refused_at_the_changed_line(base: Path, tmp_path: Path) -> None:
    five = {"play": True, "readings": [{"combo": "single", "rank": "5", "length": 1}]}
    d = make_suite(base, tmp_path / "s", {"classify": [classify(1, cards="5", expect=five), classify(2)]})
    assert run(d).exit_code == 0
    r = run(d, "--option", f"path={d / 'classify.jsonl'}", engine=f"{__name__}:Rewriter")
    refused(r, "classify.jsonl:2:", "the file changed after the suite was checked")


# ---------------------------------------------------------------- reports that always parse


CONTROL_CHARS = "".join(chr(i) for i in range(0x20)) + "\x7f\x85\ufffe"
CONTROL = CONTROL_CHARS + "\x1b[31m"


class Hostile(NativeEngine):
    """An adapter whose name, messages and skip reasons are full of control characters."""

    def __init__(self, manifest: dict[str, Any], options: dict[str, str]) -> None:
        super().__init__(manifest, options)
        self.name = "engine" + CONTROL

    def classify(self, cards: str, wild: str | None) -> Any:
        if cards == "4":
            raise RuntimeError("broken" + CONTROL)
        return super().classify(cards, wild)

    def compare(self, a: str, b: str, wild: str | None) -> bool:
        raise Unsupported("no compare" + CONTROL)


def test_junit_xml_escapes_every_control_character(base: Path, tmp_path: Path) -> None:
    d = make_suite(base, tmp_path / "s", {
        "classify": [classify(1, covers="single/" + CONTROL), classify(2, cards="4", covers=CONTROL),
                     classify(3, cards="5", covers="x", expect={"play": False, "readings": []})],
        "compare": [first(base, "compare")],
    })
    # a suite's spec name is its spec's (refused otherwise, see below), which has no control
    # character; a report built otherwise may carry one, and the XML escapes it too
    report = replace(run_suite(d, f"{__name__}:Hostile"), spec="hubei" + CONTROL)
    assert report.counts["classify"] == {"passed": 1, "failed": 2, "known": 0, "skipped": 0}
    xml = junit_xml(report)
    root = ET.fromstring(xml)  # parses: nothing XML 1.0 forbids is left in it
    cases = root.findall(".//testcase")
    assert len(cases) == 4
    assert "\\x1b[31m" in cases[0].get("name", "") and "\\x00" in cases[0].get("name", "")
    assert "\\x1b" in root.get("name", "") and "\\x1b" in cases[0].get("classname", "")
    failures = root.findall(".//failure")
    assert len(failures) == 2 and all(f.get("message") for f in failures)
    assert root.find(".//skipped") is not None
    for ch in CONTROL_CHARS.replace("\t", "").replace("\n", "").replace("\r", ""):
        assert ch not in xml
    junit = tmp_path / "junit.xml"
    r = run(d, "--junit", str(junit), engine=f"{__name__}:Hostile")
    assert r.exit_code == 1 and "Traceback" not in r.output
    ET.parse(junit)
    # the text report: no control character reaches the terminal, every one is shown escaped
    assert not any(ch in r.output for ch in CONTROL_CHARS.replace("\n", "").replace("\ufffe", ""))
    assert "\\x1b" in r.output
    r = run(d, "--json", engine=f"{__name__}:Hostile")
    assert json.loads(r.output)["ok"] is False


def test_a_generated_suite_is_within_every_limit(tmp_path: Path) -> None:
    # the defaults leave room for what ddzrules generates (every bundled spec at the
    # exhaustive level is measured in docs/conformance.md); here four players, two decks
    d = tmp_path / "s"
    write_suite(generate(load_variant("hubei-4p-2deck"), level="standard", seed=0), d)
    tally = check_suite(d, load_manifest(d), ["classify", "compare", "moves", "census", "perft", "games"])
    assert 0 < tally.vectors < MAX_VECTORS and 0 < tally.work < Limits().max_work


@pytest.mark.parametrize("spec", bundled_names())
def test_every_bundled_specs_perft_vectors_are_within_the_limits_generated_for(spec: str) -> None:
    """tiandi-laizi's standard suite held a perft vector expecting 2,440,303 sequences, which
    `conformance run` refused (--max-perft-nodes 1,000,000) right after `generate` wrote it.
    A position now stops at the depth before the one past the limit: here a limit of 3,000
    positions, so that every spec's standard positions reach it cheaply."""
    v = load_variant(spec)
    limits = Limits(max_perft_nodes=3_000)
    vectors = gen_perft(v, LEVELS["standard"], random.Random(0), limits)
    table = _Table.of(v)
    assert vectors and all(x["depth"] >= 1 for x in vectors)
    for x in vectors:
        assert _impossible(table, "perft", x, limits) is None
        budget = perft_budget(x["depth"], x["expect"]["nodes"], limits)
        assert perft(v, Position.from_dict(v, x["position"]), x["depth"], budget)[0] == x["expect"]["nodes"]
    deepest = {x["position"]["hands"][0]: x["depth"] for x in vectors}
    for x in vectors:  # a position stopped short stops where the next depth passes the limit
        if x["depth"] == deepest[x["position"]["hands"][0]] < LEVELS["standard"].perft_depth:
            with pytest.raises(BudgetExceeded):
                perft(v, Position.from_dict(v, x["position"]), x["depth"] + 1, limits.max_perft_nodes)


def test_a_suite_generate_makes_is_one_run_accepts_under_the_same_limits(tmp_path: Path) -> None:
    v = load_variant("tiandi-laizi")
    limits = Limits(max_perft_nodes=200)
    d = tmp_path / "s"
    write_suite(generate(v, level="smoke", seed=0, limits=limits), d)
    tally = check_suite(d, load_manifest(d), ["perft", "games"], limits=limits)
    assert tally.vectors > 0 and run_suite(d, "ddzrules", categories=["perft"], limits=limits).ok


def test_a_junit_fifo_is_refused_before_the_run(base: Path, tmp_path: Path) -> None:
    """--junit to a FIFO would block the write until someone reads it: refused at once,
    before any vector runs."""
    fifo = tmp_path / "junit.xml"
    os.mkfifo(fifo)
    refused(run(base, "--junit", str(fifo)), "--junit", "is not a regular file")


@pytest.mark.parametrize("trap, message", [
    ("fifo", None),  # replaced, never written into: the write hung
    ("dir", "compare.jsonl there is a directory"),  # refused before the work: a half suite was left
])
def test_generate_checks_its_directory_before_the_work(tmp_path: Path, trap: str, message: str | None) -> None:
    out = tmp_path / "suite"
    out.mkdir()
    if trap == "fifo":
        os.mkfifo(out / "classify.jsonl")
    else:
        (out / "compare.jsonl").mkdir()
    result = CliRunner().invoke(main, ["conformance", "generate", "hubei-3p", "-o", str(out), "--level", "smoke"])
    assert "Traceback" not in result.output, result.output
    if message is None:
        assert result.exit_code == 0, result.output
        assert (out / "classify.jsonl").is_file() and (out / "manifest.json").is_file()
        assert load_manifest(out)["spec"] == "hubei-3p"
    else:
        assert result.exit_code == 1 and message in result.output, result.output
        if trap == "dir":
            assert sorted(p.name for p in out.iterdir()) == ["compare.jsonl"]  # nothing written
