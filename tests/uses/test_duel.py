"""`ddzrules duel`: two bots on the same deals (duplicate and douzero protocols), the
figures named by their bots, bad input refused before any game."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from ddzrules.cli import main
from ddzrules.errors import DdzError
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
    def strip(d):
        return {k: v for k, v in d.items() if k != "decision_ms"}
    assert strip(again) == strip(data)  # same seed, same games


def test_workers_play_the_same_duel() -> None:
    one = duel("hubei-3p", FAST, "heuristic", deals=4, seed=8)
    two = duel("hubei-3p", FAST, "heuristic", deals=4, seed=8, workers=2)
    def strip(d):
        return {k: v for k, v in d.items() if k not in ("decision_ms", "workers")}
    assert strip(one) == strip(two)
    assert two["decision_ms"]["a"]["decisions"] == one["decision_ms"]["a"]["decisions"]


# ---------------------------------------------------------------------- --record

def _strip(result: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in result.items() if k not in ("decision_ms", "recorded", "workers")}


@pytest.mark.parametrize("protocol", ["duplicate", "douzero"])
def test_a_stopped_duel_resumes_from_its_record(tmp_path: Path, protocol: str) -> None:
    """A record keeps each deal as it finishes; a duel resumed from part of it (deals 0, 1
    and 4 kept, the last line cut off by a stopped write) plays only the others and gives
    the figures of the duel played at once."""
    whole = duel("hubei-3p", "heuristic", "random", deals=6, seed=5, protocol=protocol)
    path = tmp_path / "duel.jsonl"
    first = duel("hubei-3p", "heuristic", "random", deals=6, seed=5, protocol=protocol, record=path)
    assert _strip(first) == _strip(whole) and first["recorded"] == 0
    lines = path.read_text().splitlines(keepends=True)
    assert len(lines) == 7 and json.loads(lines[0])["format"] == "ddzrules-duel/1"
    kept = [lines[0], lines[1], lines[2], lines[5], lines[3][:20]]  # deals 0, 1, 4, and a cut-off line
    path.write_text("".join(kept))
    played: list[int] = []
    again = duel("hubei-3p", "heuristic", "random", deals=6, seed=5, protocol=protocol, record=path,
                 progress=lambda done, total: played.append(done))
    assert _strip(again) == _strip(whole) and again["recorded"] == 3
    assert played == [3, 4, 5, 6]
    deals = [json.loads(line)["deal"] for line in path.read_text().splitlines()[1:]]
    assert sorted(deals) == list(range(6)) and deals[:3] == [0, 1, 4]
    # nothing left to play: read back, not played
    before = path.read_bytes()
    done = duel("hubei-3p", "heuristic", "random", deals=6, seed=5, protocol=protocol, record=path)
    assert _strip(done) == _strip(whole) and done["recorded"] == 6 and path.read_bytes() == before


def test_a_record_of_another_duel_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "duel.jsonl"
    duel("erren", "heuristic", "random", deals=2, seed=1, record=path)
    before = path.read_bytes()
    for other in ({"seed": 2}, {"bot_b": "heuristic"}, {"protocol": "douzero"}):
        args = {"spec": "erren", "bot_a": "heuristic", "bot_b": "random", "deals": 2, "seed": 1,
                "protocol": "duplicate", **other}
        with pytest.raises(DdzError, match="the record of another duel"):
            duel(record=path, **args)  # type: ignore[arg-type]
    assert path.read_bytes() == before
    # a record of another version of ddzrules (its bots may play otherwise)
    import ddzrules
    version = ddzrules.__version__
    try:
        ddzrules.__version__ = version + ".other"
        with pytest.raises(DdzError, match="its ddzrules differs"):
            duel("erren", "heuristic", "random", deals=2, seed=1, record=path)
    finally:
        ddzrules.__version__ = version
    assert path.read_bytes() == before


SECRET = "s3cr3t-content"


def _deal(outcome: str, times_a: str = "[]") -> str:
    """A deal's line of erren (two seats) with this outcome (JSON text)."""
    return f'{{"deal": 9, "outcome": {outcome}, "times": {{"a": {times_a}, "b": []}}}}\n'


@pytest.mark.parametrize(("edit", "words"), [
    (lambda lines: [f'{{"note": "{SECRET}"}}\n'] + lines[1:], ":1: not a duel record"),
    (lambda lines: lines + [f"{SECRET}\n"], ":4: not a line of JSON"),
    (lambda lines: lines + [lines[1]], ":4: deal 0 is recorded twice"),
    (lambda lines: lines + ['{"deal": -1, "outcome": [], "times": {"a": [], "b": []}}\n'], ":4: the deal is no index"),
    (lambda lines: lines + ['{"deal": 9, "outcome": [[2, 0, null], [0, 0, null]], "times": {"a": [], "b": []}}\n'],
     ":4: a seat's result"),
    (lambda lines: lines + ['{"deal": 9, "outcome": [[0, NaN, null], [0, 0, null]], "times": {"a": [], "b": []}}\n'],
     ":4: not a line of JSON"),
    (lambda lines: lines + ['{"deal": 9, "outcome": [[0, 0, null]], "times": {"a": [], "b": []}}\n'],
     ":4: the outcome is not one result for each of the 2 seats"),
    (lambda lines: lines + [_deal('[[0, 0, "farmer"], [0, 0, "landlord"]]', "[-1]")], ":4: side a's times"),
    # outcomes no deal can give (issue 43): a win gain between -1, 0 and 1, a fraction of a
    # point, no role at a landlord table, a base game with no winner or no loser
    (lambda lines: lines + [_deal('[[0.5, 0, "farmer"], [0, 0, "landlord"]]')],
     ":4: seat 0's win gain is not -1, 0 or 1"),
    (lambda lines: lines + [_deal('[[0, 0, "farmer"], [1, 2.5, "landlord"]]')],
     ":4: seat 1's score gain is not a whole number"),
    (lambda lines: lines + [_deal('[[0, 0, null], [0, 0, "landlord"]]')], ":4: seat 0 has no role"),
    (lambda lines: lines + [_deal('[[1, 2, "farmer"], [1, 4, "landlord"]]')], ":4: every seat's win gain is 1"),
    (lambda lines: lines + [_deal('[[-1, -2, "farmer"], [-1, 0, "landlord"]]')], ":4: every seat's win gain is -1"),
    # a key given twice (json took the last silently): named when it is a record's own
    (lambda lines: lines + [_deal('[[1, 2, "farmer"], [0, 0, "landlord"]], "outcome": [[0, 0, "farmer"], '
                                  '[0, 0, "landlord"]]')], ":4: 'outcome' is given twice in one object"),
    (lambda lines: [lines[0].replace('{', '{"' + SECRET + '": 1, "' + SECRET + '": 2, ', 1)] + lines[1:],
     ":1: a key is given twice in one object"),
    (lambda lines: lines + ["[" * 100_000 + "\n"], ":4: not a line of JSON"),
    (lambda lines: lines + ['{"deal": 9' + " " * (2 * 1024 * 1024) + "}\n"], ":4: a line longer than"),
    # an integer of more digits than a figure can need (the strict-JSON policy's bound), a
    # role that is none, a douzero outcome of one game
    (lambda lines: lines + ['{"deal": 9, "outcome": [[0, 1' + "0" * 400 + ', null], [0, 0, null]], '
                            '"times": {"a": [1' + "0" * 400 + '], "b": []}}\n'], ":4: not a line of JSON"),
    (lambda lines: lines + ['{"deal": 9, "outcome": [[0, 0, "\\u001b[2J' + SECRET + '"], [0, 0, null]], '
                            '"times": {"a": [], "b": []}}\n'], ":4: a seat's result"),
    # a cut-off last line after a bad one: refused, the file not cut
    (lambda lines: lines + [f"{SECRET}\n", '{"deal": 5, "outc'], ":4: not a line of JSON"),
])
def test_a_bad_record_is_refused_by_line_without_its_content(tmp_path: Path, edit: Any, words: str) -> None:
    path = tmp_path / "duel.jsonl"
    duel("erren", "heuristic", "random", deals=2, seed=1, record=path)
    path.write_text("".join(edit(path.read_text().splitlines(keepends=True))))
    before = path.read_bytes()
    result = CliRunner().invoke(main, ["duel", "erren", "--bots", "heuristic,random", "--deals", "3",
                                       "--seed", "1", "--record", str(path)])
    assert result.exit_code == 1 and words in result.output, result.output
    assert "Traceback" not in result.output and SECRET not in result.output
    assert path.read_bytes() == before  # refused before any deal was played or written


def test_a_record_that_is_no_regular_file_is_refused(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["duel", "erren", "--bots", "heuristic,random", "--deals", "2",
                                       "--record", str(tmp_path)])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "cannot open it as a duel record" in result.output, result.output
    link = tmp_path / "link.jsonl"
    link.symlink_to(tmp_path / "elsewhere.jsonl")
    result = CliRunner().invoke(main, ["duel", "erren", "--bots", "heuristic,random", "--deals", "2",
                                       "--record", str(link)])
    assert result.exit_code == 1 and "cannot open it as a duel record" in result.output, result.output
    assert not (tmp_path / "elsewhere.jsonl").exists()  # the link not followed
    fifo = tmp_path / "fifo.jsonl"
    os.mkfifo(fifo)
    result = CliRunner().invoke(main, ["duel", "erren", "--bots", "heuristic,random", "--deals", "2",
                                       "--record", str(fifo)])
    assert result.exit_code == 1 and "cannot be a duel record: not a regular file" in result.output, result.output


def test_a_record_in_use_by_another_duel_is_refused(tmp_path: Path) -> None:
    from ddzrules.simulate.duel_record import DuelRecord

    path = tmp_path / "duel.jsonl"
    head = {"spec": "erren", "spec_hash": "0" * 64, "protocol": "douzero", "seed": 1, "bots": ["a", "b"],
            "players": 2, "ddzrules": "0"}
    with DuelRecord(path, head) as first:
        assert first.read(4) == {}
        first.append(0, [[True, 2.0], [False, -2.0]], {"a": [0.1], "b": []})
        with pytest.raises(DdzError, match="another duel is using this record"):
            DuelRecord(path, head).read(4)
    with DuelRecord(path, head) as again:  # released when the first is closed
        assert list(again.read(4)) == [0]


def test_a_douzero_record_of_one_game_a_deal_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "duel.jsonl"
    duel("erren", "heuristic", "random", deals=2, seed=1, protocol="douzero", record=path)
    lines = path.read_text().splitlines(keepends=True)
    row = json.loads(lines[2])
    row["outcome"] = row["outcome"][:1]
    path.write_text(lines[0] + lines[1] + json.dumps(row) + "\n")
    with pytest.raises(DdzError, match=":3: the outcome is not the results of two games"):
        duel("erren", "heuristic", "random", deals=2, seed=1, protocol="douzero", record=path)


def test_the_command_resumes_and_says_so(tmp_path: Path) -> None:
    path = tmp_path / "duel.jsonl"
    args = ["duel", "erren", "--bots", "heuristic,random", "--deals", "3", "--seed", "4", "--record", str(path)]
    assert CliRunner().invoke(main, args).exit_code == 0
    text = CliRunner().invoke(main, args[:5] + ["5"] + args[6:])
    assert text.exit_code == 0 and "3 of the deals read from the duel's record" in text.output, text.output
    assert len(path.read_text().splitlines()) == 1 + 5


def test_a_douzero_record_of_a_fraction_of_a_point_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "duel.jsonl"
    duel("erren", "heuristic", "random", deals=2, seed=1, protocol="douzero", record=path)
    lines = path.read_text().splitlines(keepends=True)
    row = json.loads(lines[2])
    row["outcome"][1][1] += 0.5
    path.write_text(lines[0] + lines[1] + json.dumps(row) + "\n")
    with pytest.raises(DdzError, match=":3: a game's points are not a whole number"):
        duel("erren", "heuristic", "random", deals=2, seed=1, protocol="douzero", record=path)


def test_a_role_at_a_table_without_a_landlord_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "duel.jsonl"
    duel("paodekuai", "heuristic", "random", deals=1, seed=1, record=path)
    lines = path.read_text().splitlines(keepends=True)
    row = json.loads(lines[1])
    assert all(seat[2] is None for seat in row["outcome"])  # as the duel wrote it
    row["outcome"][0][2] = "landlord"
    path.write_text(lines[0] + json.dumps(row) + "\n")
    with pytest.raises(DdzError, match=":2: seat 0 has a role: a table without a landlord has no roles"):
        duel("paodekuai", "heuristic", "random", deals=2, seed=1, record=path)


@pytest.mark.parametrize(("spec", "protocol"), [("hubei-3p", "duplicate"), ("paodekuai", "duplicate"),
                                                ("erren", "douzero")])
def test_every_record_a_duel_writes_passes_its_checks(tmp_path: Path, spec: str, protocol: str) -> None:
    """The checks refuse only what no deal gives: a duel's own record is read back whole."""
    path = tmp_path / "duel.jsonl"
    first = duel(spec, "heuristic", "random", deals=5, seed=3, protocol=protocol, record=path)
    again = duel(spec, "heuristic", "random", deals=5, seed=3, protocol=protocol, record=path)
    assert again["recorded"] == 5 and _strip(again) == _strip(first)


_HEAD = {"spec": "s", "spec_hash": "0" * 64, "protocol": "duplicate", "seed": 1, "bots": ["a", "b"], "players": 3,
         "ddzrules": "0"}


def _read_deal(tmp: Path, outcome: list[list[Any]], landlord_table: bool) -> None:
    from ddzrules.simulate.duel_record import DuelRecord

    path = tmp / "r.jsonl"
    path.write_text(json.dumps({"format": "ddzrules-duel/1", **_HEAD}, sort_keys=True) + "\n"
                    + json.dumps({"deal": 0, "outcome": outcome, "times": {"a": [], "b": []}}) + "\n")
    with DuelRecord(path, _HEAD, landlord_table=landlord_table) as rec:
        rec.read(1)


@settings(max_examples=60, deadline=None)
@given(base=st.lists(st.booleans(), min_size=3, max_size=3).filter(lambda w: 0 < sum(w) < 3),
       won=st.lists(st.booleans(), min_size=3, max_size=3),
       scores=st.lists(st.tuples(st.integers(-10**6, 10**6), st.integers(-10**6, 10**6)), min_size=3, max_size=3),
       roles=st.lists(st.sampled_from(["landlord", "farmer"]), min_size=3, max_size=3),
       as_float=st.booleans())
def test_what_a_duplicate_deal_can_give_is_read(tmp_path_factory: pytest.TempPathFactory, base: list[bool],
                                                won: list[bool], scores: list[tuple[int, int]], roles: list[str],
                                                as_float: bool) -> None:
    """Any outcome a deal can give — a base game with a winner and a loser, A's games won or
    not, integer scores — is read (floats as the duel writes them, or ints)."""
    number = float if as_float else int
    outcome = [[number(int(w) - int(b)), number(x - y), role]
               for w, b, (x, y), role in zip(won, base, scores, roles)]
    _read_deal(tmp_path_factory.mktemp("ok"), outcome, landlord_table=True)


@settings(max_examples=60, deadline=None)
@given(win=st.floats(-1, 1).filter(lambda x: x not in (-1.0, 0.0, 1.0)), seat=st.integers(0, 2))
def test_a_win_gain_no_deal_gives_is_refused(tmp_path_factory: pytest.TempPathFactory, win: float, seat: int) -> None:
    outcome: list[list[Any]] = [[0, 0, None] for _ in range(3)]
    outcome[seat][0] = win
    with pytest.raises(DdzError, match=f":2: seat {seat}'s win gain is not -1, 0 or 1"):
        _read_deal(tmp_path_factory.mktemp("bad"), outcome, landlord_table=False)
