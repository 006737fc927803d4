"""The game commands of the CLI: play (watching bots, or a person at the terminal),
replay, simulate. Errors a user can cause exit 1 with a message, never a traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import IO, Any

import pytest
from click.testing import CliRunner, Result
from interrupt import interrupt

from ddzrules import cards as C
from ddzrules.bots import make_bot
from ddzrules.cli import main
from ddzrules.runtime import Action, Game, GameRules
from ddzrules.simulate import game_seed


@pytest.fixture()
def runner() -> CliRunner:
    return CliRunner()


def flat(text: str) -> str:
    """Output with whitespace runs (and rich's line wrapping) collapsed."""
    return " ".join(text.split())


def assert_user_error(result: Result) -> None:
    assert result.exit_code == 1, result.output
    assert "error" in result.output.lower()
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


# ====================================================================== play --auto, replay


def test_auto_play_records_and_replays(runner: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    result = runner.invoke(main, ["play", "hubei-3p", "--auto", "--seed", "1", "--record", str(path)])
    assert result.exit_code == 0, result.output
    out = flat(result.output)
    assert "landlord:" in out and "scores:" in out
    record = json.loads(path.read_text(encoding="utf-8"))
    assert record["seed"] == 1 and record["spec"] == "hubei-3p"
    assert sum(record["scores"]) == 0

    replayed = runner.invoke(main, ["replay", str(path)])
    assert replayed.exit_code == 0, replayed.output
    assert "ok" in replayed.output
    assert str(record["scores"]) in flat(replayed.output)

    as_json = runner.invoke(main, ["replay", str(path), "--json"])
    assert as_json.exit_code == 0
    data = json.loads(as_json.stdout)
    assert data["ok"] is True and data["scores"] == record["scores"]
    assert data["actions"] == len(record["actions"])


def test_auto_play_is_reproducible(runner: CliRunner, tmp_path: Path) -> None:
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    for path in (a, b):
        result = runner.invoke(main, ["play", "crown-3p", "--auto", "--seed", "5", "--bots", "random,heuristic",
                                      "--record", str(path)])
        assert result.exit_code == 0, result.output
    assert json.loads(a.read_text()) == json.loads(b.read_text())


@pytest.mark.parametrize("tamper", ["play", "score", "truncate", "hash"])
def test_replay_of_a_tampered_record_exits_1_with_a_message(runner: CliRunner, tmp_path: Path,
                                                             tamper: str) -> None:
    path = tmp_path / "game.json"
    assert runner.invoke(main, ["play", "hubei-3p", "--auto", "--seed", "2", "--record", str(path)]).exit_code == 0
    record = json.loads(path.read_text(encoding="utf-8"))
    if tamper == "play":
        i = next(i for i, a in enumerate(record["actions"]) if a["kind"] == "play")
        record["actions"][i]["value"] = "XXDD"
    elif tamper == "score":
        record["scores"] = [s + 1 for s in record["scores"]]
    elif tamper == "truncate":
        record["actions"] = record["actions"][:-2]
    else:
        record["spec_hash"] = "f" * 64
    path.write_text(json.dumps(record), encoding="utf-8")
    result = runner.invoke(main, ["replay", str(path)])
    assert_user_error(result)


@pytest.mark.parametrize("content", ["{not json", "[]", None])
def test_replay_of_a_broken_file_exits_1_with_a_message(runner: CliRunner, tmp_path: Path,
                                                         content: str | None) -> None:
    path = tmp_path / "game.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    assert_user_error(runner.invoke(main, ["replay", str(path)]))


def test_play_with_bad_options_exits_1(runner: CliRunner) -> None:
    assert_user_error(runner.invoke(main, ["play", "no-such-spec", "--auto", "--seed", "1"]))
    assert_user_error(runner.invoke(main, ["play", "hubei-3p", "--seat", "3", "--seed", "1"], input="\n"))
    assert_user_error(runner.invoke(main, ["play", "hubei-3p", "--auto", "--seed", "1", "--bots", "genius"]))


@pytest.mark.parametrize("auto", [[], ["--auto"]])
@pytest.mark.parametrize("seat", ["-1", "3", str(2**70)])
def test_play_refuses_a_seat_the_table_has_not_with_or_without_auto(runner: CliRunner, auto: list[str],
                                                                     seat: str) -> None:
    # --auto seats no person, but a seat out of range is still a mistake (it was ignored)
    result = runner.invoke(main, ["play", "hubei-3p", *auto, "--seat", seat, "--seed", "1"], input="\n")
    assert_user_error(result)
    (line,) = result.output.splitlines()
    assert line.startswith("error: --seat must be between 0 and 2, not ") and len(line) < 100, line


def test_play_auto_takes_a_seat_of_the_table(runner: CliRunner) -> None:
    result = runner.invoke(main, ["play", "hubei-3p", "--auto", "--seat", "2", "--seed", "1"])
    assert result.exit_code == 0 and "scores:" in result.output, result.output


# ====================================================================== simulate


def test_simulate_json_is_identical_for_one_and_two_workers(runner: CliRunner) -> None:
    one = runner.invoke(main, ["simulate", "hubei-3p", "--games", "20", "--seed", "3", "--json"])
    assert one.exit_code == 0, one.output
    two = runner.invoke(main, ["simulate", "hubei-3p", "--games", "20", "--seed", "3", "--json",
                               "--workers", "2"])
    assert two.exit_code == 0, two.output
    a, b = json.loads(one.stdout), json.loads(two.stdout)
    assert a == b
    assert a["games"] == 20 and a["seed"] == 3 and a["spec"] == "hubei-3p"
    assert 0 <= a["landlord_win_rate"] <= 1


def test_simulate_text_output(runner: CliRunner) -> None:
    result = runner.invoke(main, ["simulate", "crown-3p", "--games", "5", "--seed", "1",
                                  "--bots", "heuristic,random,random"])
    assert result.exit_code == 0, result.output
    out = flat(result.output)
    assert "landlord win rate" in out and "win rate: heuristic" in out


@pytest.mark.parametrize("args", [["--games", "0"], ["--workers", "0"], ["--bots", "genius"]])
def test_simulate_rejects_bad_options(runner: CliRunner, args: list[str]) -> None:
    assert_user_error(runner.invoke(main, ["simulate", "hubei-3p", "--seed", "1", *args]))


# ====================================================================== play at the terminal


def person_turn(game: Game, agents: list[Any], seat: int) -> list[Action] | None:
    """Let the bots play until it is ``seat``'s turn: his legal actions (None: the game is over)."""
    while not game.over:
        current = game.to_act
        assert current is not None
        legal = game.legal_actions()
        if current == seat:
            return legal
        game.apply(agents[current].act(game.view(current), legal))
    return None


def scripted_session(spec: str, seed: int, seat: int = 0) -> tuple[list[str], Game, dict[str, int]]:
    """Play the game ``ddzrules play SPEC --seed SEED --seat SEAT`` will deal, with the same
    bots, deciding the person's moves here: pass whenever allowed (in bidding too), else
    lead the lowest single. Returns the lines to type — with illegal tries and hints
    mixed in before the real choices — the finished game, and what was injected."""
    rules = GameRules.load(spec)
    agents = [make_bot("heuristic", game_seed(seed, 1000 + i)) for i in range(rules.players)]
    game = rules.new_game(seed)
    lines: list[str] = []
    injected = {"not_in_hand": 0, "not_a_combo": 0, "does_not_beat": 0, "cannot_pass": 0, "hint": 0}
    while (legal := person_turn(game, agents, seat)) is not None:
        if game.phase != "play":
            choice = next(a for a in legal if a.kind == "pass")
            lines.append(str(legal.index(choice) + 1))  # the numbered option
            game.apply(choice)
            continue
        hand = game.hand_string(seat)
        if not injected["not_in_hand"]:
            absent = next((r for r in C.RANKS if r not in hand), None)
            if absent is not None:
                lines += ["hint", "34", absent]   # a hint, a non-combo, a card he does not hold
                injected["hint"] += 1
                injected["not_a_combo"] += 1
                injected["not_in_hand"] += 1
        last = game.last_play
        if last is not None and last.combo == "single" and not injected["does_not_beat"]:
            low = next((r for r in C.RANKS[: last.rank + 1] if r in hand), None)
            if low is not None:
                lines.append(low)
                injected["does_not_beat"] += 1
        passes = [a for a in legal if a.kind == "pass"]
        if passes:
            lines.append("pass")
            game.apply(passes[0])
            continue
        if not injected["cannot_pass"]:
            lines.append("pass")
            injected["cannot_pass"] += 1
        singles = [a for a in legal if a.kind == "play" and a.move is not None and a.move.combo == "single"]
        choice = min(singles, key=lambda a: a.move.rank if a.move else 0)
        assert choice.move is not None
        lines.append(choice.move.cards)
        game.apply(choice)
    return lines, game, injected


@pytest.mark.parametrize("spec, seed", [("hubei-3p", 4), ("hubei-3p", 10), ("crown-3p", 6)])
def test_interactive_play_rejects_illegal_input_and_accepts_a_retry(runner: CliRunner, tmp_path: Path,
                                                                     spec: str, seed: int) -> None:
    lines, expected, injected = scripted_session(spec, seed)
    assert injected["not_in_hand"] and injected["not_a_combo"], "pick a seed where the person plays"
    path = tmp_path / "game.json"
    result = runner.invoke(main, ["play", spec, "--seed", str(seed), "--seat", "0", "--record", str(path)],
                           input="\n".join(lines) + "\n")
    out = flat(result.output)
    assert result.exit_code == 0, result.output[-3000:]
    assert "Traceback" not in result.output
    # every illegal try was answered with its reason, and the game went on
    assert out.count("illegal:") == injected["not_in_hand"] + injected["not_a_combo"] + injected["does_not_beat"]
    assert "not in your hand" in out
    assert "is not a combo" in out
    if injected["does_not_beat"]:
        assert "does not beat" in out
    if injected["cannot_pass"]:
        assert "cannot pass" in out
    assert out.count("hint:") == injected["hint"]
    assert "scores:" in out
    # the game the terminal played is the scripted one: the retries were accepted
    record: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    assert record["actions"] == [a.to_dict() for a in expected.history]
    assert record["scores"] == expected.scores


def test_interactive_play_rejects_an_unknown_option_in_bidding(runner: CliRunner) -> None:
    rules = GameRules.load("hubei-3p")
    # find a seed where seat 0 bids first, then answer nonsense before taking the landlord with 3
    seed = next(s for s in range(100) if rules.new_game(s).to_act == 0)
    game = rules.new_game(seed)
    legal = game.legal_actions()
    three = legal.index(Action(0, "bid", 3)) + 1
    game.apply(Action(0, "bid", 3))
    lines = ["9", "bid 7", str(three)]
    # then lead the lowest single until the game ends (or pass when allowed); try to
    # pass on the first lead, which is refused
    tried_pass = False
    agents = [make_bot("heuristic", game_seed(seed, 1000 + i)) for i in range(3)]
    while (legal := person_turn(game, agents, 0)) is not None:
        passes = [a for a in legal if a.kind == "pass"]
        if passes:
            lines.append("pass")
            game.apply(passes[0])
        else:
            if not tried_pass:
                lines.append("pass")
                tried_pass = True
            single = min((a for a in legal if a.move is not None and a.move.combo == "single"),
                         key=lambda a: a.move.rank if a.move else 0)
            lines.append(str(single.value))
            game.apply(single)
    result = runner.invoke(main, ["play", "hubei-3p", "--seed", str(seed)], input="\n".join(lines) + "\n")
    assert result.exit_code == 0, result.output[-3000:]
    out = flat(result.output)
    assert out.count("not an option") == 2
    assert tried_pass and "you lead this trick and cannot pass" in out
    assert "landlord: seat 0" in out
    assert f"seat 0: {expected_score(game):+d}" in out


def expected_score(game: Game) -> int:
    assert game.scores is not None
    return game.scores[0]


# ====================================================================== bad input at a table without a landlord

#: typed at the person's first turn, each refused with its message, the game unchanged
BAD_INPUT = {
    "3Z": "not cards:",                       # a malformed card string
    "3333333333333333": "is not in your hand",  # 16 of a rank: more than a set of cards holds
    "\x1b[A": "not cards:",                   # an arrow key's escape code
    "[/]": "not cards:",                      # rich markup, printed as typed
    "escape": "has no escape rule",           # paodekuai settles no escape
    "": "hint:",                              # the default: a hint
}


def bad_input_session(spec: str, seed: int) -> tuple[list[str], Game]:
    """The lines a person at seat 0 types in ``ddzrules play SPEC --seed SEED``: the
    :data:`BAD_INPUT` lines, a pass where passing is refused and a play the rules refuse
    at his first turns, then at each turn the first legal play whose cards have a single
    reading (a pass when nothing else is legal). Returns the lines and the game they play."""
    rules = GameRules.load(spec)
    agents = [make_bot("heuristic", game_seed(seed, 1000 + i)) for i in range(rules.players)]
    game = rules.new_game(seed)
    lines: list[str] = []
    refused_pass = refused_play = False
    while (legal := person_turn(game, agents, 0)) is not None:
        if not lines:
            lines += list(BAD_INPUT)
        plays = [a for a in legal if a.kind == "play"]
        if not refused_pass and plays and not any(a.kind == "pass" for a in legal):
            lines.append("pass")
            refused_pass = True
        hand = game.hand_string(0)
        illegal = [r for r in dict.fromkeys(hand) if not any(a.value == r for a in plays)]
        if not refused_play and illegal:
            lines.append(illegal[0])
            refused_play = True
        once = [a for a in plays if sum(b.value == a.value for b in plays) == 1]
        choice = once[0] if once else legal[-1]
        lines.append("pass" if choice.kind == "pass" else str(choice.value))
        game.apply(choice)
    return lines, game


@pytest.mark.parametrize("seed", [1, 3])
def test_bad_input_is_refused_and_the_game_goes_on(runner: CliRunner, tmp_path: Path, seed: int) -> None:
    lines, expected = bad_input_session("paodekuai", seed)
    path = tmp_path / "game.json"
    result = runner.invoke(main, ["play", "paodekuai", "--seed", str(seed), "--record", str(path)],
                           input="\n".join(lines) + "\n")
    assert result.exit_code == 0, result.output[-3000:]
    assert "Traceback" not in result.output
    # (the test runner echoes what was typed; the program's own messages never hold it raw)
    assert all("\x1b" not in line for line in result.output.splitlines() if "not cards:" in line)
    out = flat(result.output)
    for message in BAD_INPUT.values():
        assert message in out
    assert "\\x1b" in out  # the escape code is shown, not sent to the terminal
    assert out.count("not cards:") == 3
    assert "must beat (有大必压)" in out or "you lead this trick and cannot pass" in out
    assert "illegal:" in out
    # every refusal left the game as it was: the terminal played the scripted game
    record: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    assert record["actions"] == [a.to_dict() for a in expected.history]
    assert record["scores"] == expected.scores
    winner = expected.winner
    assert winner is not None
    assert ("You are out first and win." if winner == 0 else f"seat {winner} is out first and wins.") in out
    assert "Farmers" not in out and "landlord" not in out.lower()


def test_end_of_input_stops_the_game_with_a_message(runner: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    result = runner.invoke(main, ["play", "paodekuai", "--seed", "1", "--record", str(path)],
                           input="3333333333333333\n")
    assert_user_error(result)
    assert "input ended" in flat(result.output)
    assert "is not in your hand" in flat(result.output)
    assert not path.exists()


def test_results_name_the_winning_side_at_every_table(runner: CliRunner) -> None:
    out = flat(runner.invoke(main, ["play", "paodekuai", "--auto", "--seed", "2"]).output)
    game = GameRules.load("paodekuai").new_game(2)
    assert f"seat {game.first_leader} leads first (holds a 3)" in out
    assert "is out first and wins." in out and "Farmers" not in out and "stake" not in out
    hubei = flat(runner.invoke(main, ["play", "hubei-3p", "--auto", "--seed", "2"]).output)
    assert "Landlord wins." in hubei or "Farmers win." in hubei


@pytest.mark.parametrize(("stdin", "said"), [
    ("3" * 10_000 + "\n", "an answer is at most 4,096 characters: that line was dropped"),
    ("\0" * (3 << 20), "the input holds no answers"),
])
def test_play_reads_bounded_answers_from_a_pipe(tmp_path: Path, stdin: str, said: str) -> None:
    """A prompt fed from a pipe or a file reads a line at most MAX_ANSWER long: a longer one
    is dropped (and asked again), and megabytes with no line end (/dev/zero) end the game
    as an ended input does; never held whole, never echoed."""
    source = tmp_path / "answers.txt"
    source.write_text(stdin, encoding="utf-8")
    with source.open("rb") as answers:
        done = subprocess.run([sys.executable, "-m", "ddzrules", "play", "hubei-3p", "--seed", "1"],
                              stdin=answers, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 1
    out = done.stdout + done.stderr
    assert said in out and "the input ended before the game did" in out
    assert "Traceback" not in out and "3" * 100 not in out and len(out) < 10_000


@pytest.mark.parametrize(("where", "said"), [
    ("dir", "is a directory"), ("", "a file name is needed"), ("missing/r.json", "does not exist"),
    ("pipe.json", "is not a regular file"),
])
def test_play_refuses_a_record_path_before_the_game(tmp_path: Path, where: str, said: str) -> None:
    """A --record path that cannot take the record is refused before a card is dealt: the
    game (a person's, perhaps) is never played to be lost at the end."""
    (tmp_path / "dir").mkdir()
    os.mkfifo(tmp_path / "pipe.json")
    path = "" if not where else str(tmp_path / where)
    result = CliRunner().invoke(main, ["play", "hubei-3p", "--auto", "--seed", "1", "--record", path])
    assert result.exit_code == 1 and said in result.stderr and "Traceback" not in result.output
    assert "scores:" not in result.output and "seat 0 (" not in result.output


@pytest.mark.parametrize("command", [
    ["sheet", "hubei-3p", "-o"],
    ["new", "x", "--extends", "hubei-3p", "--force", "-o"],
])
def test_outputs_refuse_a_fifo_at_once(tmp_path: Path, command: list[str]) -> None:
    """Writing to a FIFO blocks until someone reads it: refused before any work."""
    fifo = tmp_path / "out.yaml"
    os.mkfifo(fifo)
    result = CliRunner().invoke(main, [*command, str(fifo)])
    assert result.exit_code == 1 and "is not a regular file" in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.yaml"]


def test_ctrl_c_at_a_prompt_of_play_stops_it_with_130() -> None:
    """Ctrl-C at a prompt exited 1 like an ended input (click.prompt turns both into Abort):
    now it is what Ctrl-C is everywhere else, one line and 130, after saying the game is
    left unfinished."""
    def at_a_prompt(stdin: IO[str], stdout: IO[str]) -> None:
        seen = ""
        while "your choice" not in seen and "play (" not in seen:  # a prompt waits for an answer
            chunk = stdout.read(1)
            assert chunk, "the game ended without asking"
            seen += chunk

    code, out, err = interrupt(["play", "hubei-3p", "--seed", "1"], at_a_prompt)
    assert code == 130, err
    assert "the game is left unfinished and nothing was recorded" in out
    assert err.splitlines() == ["interrupted by SIGINT: play stopped"]
    assert "Traceback" not in out + err
