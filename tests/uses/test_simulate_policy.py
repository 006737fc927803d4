"""One policy for the commands that play games — ``simulate``, ``match`` and ``diff
--games``: the same limits and messages for --games, --seed, --bots and --workers (one
worker cap for every command and for compare_specs), defaults stated in --help, and
Ctrl-C or SIGTERM ending a run with one line and 130 or 143, its workers stopped, no
traceback (checked on a real process)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from ddzrules.cli import main
from ddzrules.cli.simulate import MAX_GAMES, check_run, parse_bots
from ddzrules.errors import DdzError
from ddzrules.simulate import (
    MAX_WORKERS,
    WORKERS_PER_CPU,
    check_workers,
    compare_specs,
    usable_cpus,
    worker_limit,
)

#: each command with the arguments it needs, and its exit status on a bad option
#: (diff follows `git diff --exit-code`: 1 means "they differ", so an error is 2)
COMMANDS = {
    "simulate": (["simulate", "hubei-3p"], 1),
    "match": (["match", "hubei-3p"], 1),
    "diff": (["diff", "hubei-3p", "crown-3p", "--games", "2"], 2),
}


def refused(result: Result, status: int) -> str:
    """The one-line message of a refused command (no traceback)."""
    assert result.exit_code == status, result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    (line,) = [x for x in result.output.splitlines() if x.strip()]
    assert line.startswith("error: ")
    return line.removeprefix("error: ")


# ====================================================================== the shared limits


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("option, value, message", [
    ("--games", "0", f"--games must be between 1 and {MAX_GAMES:,}, not 0"),
    ("--games", str(MAX_GAMES + 1), f"--games must be between 1 and {MAX_GAMES:,}, not {MAX_GAMES + 1}"),
    ("--games", "-5", f"--games must be between 1 and {MAX_GAMES:,}, not -5"),
    ("--seed", "-1", "--seed must be between 0 and 2**63-1, not -1"),
    ("--seed", str(2**63), f"--seed must be between 0 and 2**63-1, not {2**63}"),
    ("--bots", "genius", "--bots: unknown bot 'genius'; choose from random, heuristic"),
    ("--bots", "heuristic,genius", "--bots: unknown bot 'genius'; choose from random, heuristic"),
    ("--bots", "heuristic,,random", "--bots 'heuristic,,random': a bot name per seat"),
    ("--bots", "", "--bots '': a bot name per seat"),
])
def test_every_command_refuses_the_same_bad_run_option_alike(command: str, option: str, value: str,
                                                            message: str) -> None:
    args, status = COMMANDS[command]
    started = time.monotonic()
    line = refused(CliRunner().invoke(main, [*args, option, value]), status)
    assert line.startswith(message), line
    assert time.monotonic() - started < 10  # refused before any game or table work


@pytest.mark.parametrize("command", ["simulate", "diff"])
def test_workers_past_the_cap_are_refused_not_started(command: str) -> None:
    args, status = COMMANDS[command]
    limit = worker_limit()
    for workers in (0, limit + 1, 1000):
        line = refused(CliRunner().invoke(main, [*args, "--workers", str(workers)]), status)
        assert line.startswith(f"--workers must be between 1 and {limit} "), line
        assert f"{WORKERS_PER_CPU} per CPU" in line and f"at most {MAX_WORKERS}" in line


def test_the_worker_cap_is_one_rule_for_the_library_too() -> None:
    assert worker_limit() == min(MAX_WORKERS, WORKERS_PER_CPU * usable_cpus()) >= WORKERS_PER_CPU
    check_workers(None)
    check_workers(worker_limit())
    for bad in (0, -1, worker_limit() + 1, True, 2.0):
        with pytest.raises(ValueError, match="must be between 1 and"):
            check_workers(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="must be between 1 and"):
        compare_specs(["hubei-3p"], 2, 1, ["random"], workers=worker_limit() + 1)
    with pytest.raises(DdzError, match="--workers must be between 1 and"):
        check_run(10, 1, "random", worker_limit() + 1)


def test_bots_mean_the_same_in_every_command() -> None:
    assert parse_bots("random") == ["random"]
    assert parse_bots(" heuristic , random ") == ["heuristic", "random"]
    runner = CliRunner()
    # one name: every seat; a list: seat by seat, repeated to fill the seats
    for bots, seats in (("random", ["random"] * 3),
                        ("heuristic,random", ["heuristic", "random", "heuristic"])):
        sim = json.loads(runner.invoke(main, ["simulate", "hubei-3p", "--games", "2", "--bots", bots,
                                              "--json"]).output)
        match = json.loads(runner.invoke(main, ["match", "hubei-3p", "--games", "2", "--bots", bots,
                                                "--json"]).output)
        diff = runner.invoke(main, ["diff", "hubei-3p", "crown-3p", "--games", "2", "--bots", bots, "--json"])
        assert diff.exit_code == 1, diff.output
        games = json.loads(diff.output)["games"]
        assert sim["bots"] == match["bots"] == games["specs"][0]["bots"] == seats


def test_the_same_seed_means_the_same_games_in_simulate_and_diff() -> None:
    runner = CliRunner()
    sim = json.loads(runner.invoke(main, ["simulate", "hubei-3p", "crown-3p", "--games", "6", "--seed", "9",
                                          "--bots", "heuristic,random,random", "--json"]).output)
    diff = runner.invoke(main, ["diff", "hubei-3p", "crown-3p", "--games", "6", "--seed", "9", "--json"])
    assert json.loads(diff.output)["games"] == sim  # diff's default bots: heuristic,random,random


@pytest.mark.parametrize("command, defaults", [
    ("simulate", ["--games", "[default: 1000]", "--seed", "[default: 0]", "[default: random]"]),
    ("match", ["--games", "[default: 10]", "--seed", "[default: 0]", "[default: heuristic]"]),
    ("diff", ["--games", "Without it no games are played", "[default: 1]",
              "[default: heuristic,random,random]"]),
])
def test_help_states_each_commands_defaults_and_the_limits(command: str, defaults: list[str]) -> None:
    text = " ".join(CliRunner().invoke(main, [command, "--help"], env={"COLUMNS": "300"}).output.split())
    for words in defaults:
        assert words in text, (words, text)
    assert f"1 to {MAX_GAMES:,}" in text and "0 to 2**63-1" in text
    assert "one name means every seat" in text


# ====================================================================== Ctrl-C and SIGTERM

_SIMULATE = [sys.executable, "-c", "from ddzrules.cli import main; main()",
             "simulate", "hubei-3p", "--games", "200000", "--seed", "1", "--workers", "2"]


def _children(pid: int) -> dict[int, str]:
    """The live (not zombie) child processes of ``pid`` and their command lines."""
    out = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            if int(fields[1]) == pid and fields[0] != "Z":
                out[int(entry)] = Path(f"/proc/{entry}/cmdline").read_text().replace("\0", " ")
        except (OSError, IndexError, ValueError):
            continue
    return out


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux's /proc")
@pytest.mark.parametrize("signum, to_group, status", [
    (signal.SIGINT, True, 130),    # Ctrl-C at a terminal: the whole process group gets it
    (signal.SIGTERM, False, 143),  # kill PID: only the command's own process
])
def test_a_signal_stops_the_run_with_one_line_and_no_traceback(signum: int, to_group: bool,
                                                               status: int) -> None:
    proc = subprocess.Popen(_SIMULATE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        workers: dict[int, str] = {}
        while time.monotonic() < deadline and len(workers) < 2:
            workers = {p: c for p, c in _children(proc.pid).items() if "spawn_main" in c}
            time.sleep(0.1)
        assert len(workers) == 2, "the two workers did not start"
        time.sleep(1.5)  # into the games (a signal during a worker's start-up is ignored too)
        if to_group:
            os.killpg(proc.pid, signum)
        else:
            os.kill(proc.pid, signum)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == status, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err and "Aborted" not in err, err
    name = signal.Signals(signum).name
    assert err.splitlines() == [f"interrupted by {name}: simulate stopped, nothing written"]
    assert out == ""
    deadline = time.monotonic() + 10
    while any(_alive(p) for p in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(_alive(p) for p in workers), "a worker outlived the command"


def test_ctrl_c_in_a_single_process_run_is_one_line_too(monkeypatch: pytest.MonkeyPatch) -> None:
    from ddzrules.simulate import games

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(games.GameRules, "new_game", interrupted)  # the first game is interrupted
    # whatever handlers the process had (ray.init, run earlier in this worker, installs its
    # own SIGTERM handler) are the ones it has afterwards
    before = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
    result = CliRunner().invoke(main, ["simulate", "hubei-3p", "--games", "5"])
    assert result.exit_code == 130
    assert result.output.strip() == "interrupted by SIGINT: simulate stopped, nothing written"
    assert (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)) == before


def test_ctrl_c_in_a_recorded_duel_says_the_record_is_kept(monkeypatch: pytest.MonkeyPatch,
                                                           tmp_path: Path) -> None:
    """duel --record keeps each finished deal for a resumed run: "nothing written" was false."""
    from ddzrules.simulate import games

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(games.GameRules, "new_game", interrupted)
    record = tmp_path / "duel.jsonl"
    result = CliRunner().invoke(main, ["duel", "hubei-3p", "--bots", "random,heuristic", "--deals", "3",
                                       "--record", str(record)])
    assert result.exit_code == 130
    assert result.output.strip() == (f"interrupted by SIGINT: duel stopped; the deals finished are kept in "
                                     f"{record} (the same command resumes)")


# ====================================================================== match --holdings


@pytest.mark.parametrize("value", ["-5", "-1", str(2**63), "9" * 60])
def test_match_refuses_holdings_out_of_range(value: str) -> None:
    # the beans each seat starts with: none to what a game record stores; -5 played a match
    started = time.monotonic()
    line = refused(CliRunner().invoke(main, ["match", "qiangdizhu", "--games", "2", "--holdings", value]), 1)
    assert line.startswith("--holdings must be between 0 and 2**63-1 beans, not "), line
    assert len(line) < 120  # a huge number is clipped, not echoed whole
    assert time.monotonic() - started < 10  # refused before any game


def test_match_takes_holdings_from_none_to_the_largest() -> None:
    for value in ("0", str(2**63 - 1)):
        r = CliRunner().invoke(main, ["match", "qiangdizhu", "--games", "1", "--holdings", value, "--json"])
        assert r.exit_code == 0, r.output


# ====================================================================== one seed check


@pytest.mark.parametrize("args", [["demo", "hubei-3p"], ["sheet", "hubei-3p"], ["duel", "hubei-3p", "--bots",
                                                                                   "random,heuristic"]])
@pytest.mark.parametrize("value", ["-1", str(2**63), "9" * 60])
def test_every_seed_is_checked_as_simulate_checks_it(args: list[str], value: str) -> None:
    # demo and sheet took any integer (a negative or a 60-digit seed dealt a hand)
    started = time.monotonic()
    line = refused(CliRunner().invoke(main, [*args, "--seed", value]), 1)
    assert line.startswith("--seed must be between 0 and 2**63-1, not "), line
    assert len(line) < 100  # a huge seed is clipped, not echoed whole
    assert time.monotonic() - started < 10  # refused before the work
