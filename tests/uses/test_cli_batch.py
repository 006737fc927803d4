"""Batch mode of classify, compare and moves: JSON Lines in, one JSON answer per line
out, in order, equal to the single question's --json answer; bad lines answered with
an error and their line number, the run going on and exiting 1."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from ddzrules.cli import main
from ddzrules.cli import rules as rule_commands

_load_variant = cache(rule_commands.load_variant)


@pytest.fixture(autouse=True)
def _variants_loaded_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each command loads its spec; here every spec is loaded (and its table read) once
    for the whole module, so that a test may ask many single questions quickly."""
    monkeypatch.setattr(rule_commands, "load_variant", _load_variant)


def run(*args: str, stdin: str | bytes | None = None) -> Result:
    return CliRunner().invoke(main, list(args), input=stdin)


def batch(command: str, spec: str, lines: list[Any], *extra: str,
          exit_code: int = 0) -> list[dict[str, Any]]:
    """Run ``command SPEC --batch -`` on ``lines`` (dicts are written as JSON, strings
    as they are) and return the answers."""
    text = "".join((json.dumps(q, ensure_ascii=False) if isinstance(q, dict) else q) + "\n"
                   for q in lines)
    result = run(command, spec, "--batch", "-", *extra, stdin=text)
    assert result.exit_code == exit_code, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        repr(result.exception)
    assert "Traceback" not in result.output
    assert result.stdout.endswith("\n") or not result.stdout
    return [json.loads(line) for line in result.stdout.splitlines()]


def single(*args: str) -> dict[str, Any]:
    result = run(*args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


# ------------------------------------------------------------------ same answers as --json


CLASSIFY = [("hubei-3p", "333444+69"), ("hubei-3p", "大王小王"), ("hubei-3p", "34"),
            ("compat/douzero", "333444555666"), ("hubei-3p", "10 J Q K A"), ("hubei-3p", "2222")]


def test_classify_equals_single_json():
    for spec in {s for s, _ in CLASSIFY}:
        questions = [c for s, c in CLASSIFY if s == spec]
        answers = batch("classify", spec, [{"cards": c} for c in questions])
        assert answers == [single("classify", spec, c) for c in questions]


COMPARE = [("2222", "XD"), ("XD", "2222"), ("45678", "34567"), ("33", "444"), ("3", "3")]


def test_compare_equals_single_json():
    answers = batch("compare", "hubei-3p", [{"a": a, "b": b} for a, b in COMPARE])
    assert answers == [single("compare", "hubei-3p", a, b) for a, b in COMPARE]


MOVES = [("3456789TT", "34567"), ("33", None), ("33445566778899TJQ", "44"), ("3456789TT", "")]


def test_moves_equals_single_json():
    questions = [{"hand": h, "after": a} if a is not None else {"hand": h} for h, a in MOVES]
    answers = batch("moves", "hubei-3p", questions)
    expected = [single("moves", "hubei-3p", "--hand", h, *(["--after", a] if a is not None else []))
                for h, a in MOVES]
    assert answers == expected
    assert answers[1]["after"] is None and answers[3]["after"] is None  # "" leads too
    assert batch("moves", "hubei-3p", [{"hand": "33", "after": None}]) == [expected[1]]


# ------------------------------------------------------------------ ids, order, blank lines


def test_id_echoed_and_order_kept():
    ids: list[Any] = [7, "q-2", None, {"k": [1, 2]}, 3.5, "-"]
    cards = ["3", "33", "333", "3333", "XD", "34567"]
    answers = batch("classify", "hubei-3p", [{"id": i, "cards": c} for i, c in zip(ids, cards)])
    assert [a["id"] for a in answers] == ids
    assert [a["cards"] for a in answers] == cards
    assert list(answers[0]) == ["id", "cards", "readings"]


def test_no_id_no_id_field():
    (answer,) = batch("classify", "hubei-3p", [{"cards": "33"}])
    assert "id" not in answer


def test_many_questions_in_order():
    cards = ["3456789TJQKA"[:n] for n in range(5, 13)] * 25
    answers = batch("classify", "hubei-3p", [{"id": n, "cards": c} for n, c in enumerate(cards)])
    assert [a["id"] for a in answers] == list(range(len(cards)))
    assert all(a["readings"][0]["combo"] == "straight" for a in answers)


def test_blank_lines_skipped():
    answers = batch("classify", "hubei-3p", ["", {"cards": "3"}, "   ", "\t", {"cards": "33"}, ""])
    assert [a["cards"] for a in answers] == ["3", "33"]


def test_empty_input():
    assert batch("classify", "hubei-3p", []) == []


def test_crlf_and_bom():
    result = run("classify", "hubei-3p", "--batch", "-",
                 stdin='\ufeff{"cards": "3"}\r\n{"cards": "44"}\r\n'.encode())
    assert result.exit_code == 0, result.output
    assert [json.loads(line)["cards"] for line in result.stdout.splitlines()] == ["3", "44"]


def test_cards_starting_with_a_dash():
    answers = batch("classify", "hubei-3p", [{"cards": "-33"}, {"cards": "--XD"}])
    assert [a["cards"] for a in answers] == ["33", "XD"]
    (c,) = batch("compare", "hubei-3p", [{"a": "-2222", "b": "-XD"}])
    assert c["verdict"] == "XD beats 2222"
    (m,) = batch("moves", "hubei-3p", [{"hand": "-3456789TT", "after": "-34567"}])
    assert {x["cards"] for x in m["moves"]} == {"45678", "56789", "6789T"}


# ------------------------------------------------------------------ bad lines


def test_error_lines_have_line_numbers_and_the_run_goes_on():
    lines: list[Any] = [
        {"id": "a", "cards": "33"},  # 1
        "not json",  # 2
        "",  # 3: blank, skipped but counted
        {"id": "b"},  # 4: missing field
        {"id": "c", "cards": "3Z3"},  # 5: malformed card string
        {"cards": 33},  # 6: not a string
        "[1, 2]",  # 7: not an object
        {"cards": "3", "wlid": "7"},  # 8: unknown field
        '{"cards": NaN}',  # 9: not JSON
        {"id": "d", "cards": "XD"},  # 10
    ]
    answers = batch("classify", "hubei-3p", lines, exit_code=1)
    assert len(answers) == 9
    assert answers[0]["cards"] == "33" and answers[-1]["cards"] == "XD"
    errors = answers[1:-1]
    assert [e["line"] for e in errors] == [2, 4, 5, 6, 7, 8, 9]
    assert all(set(e) <= {"id", "line", "error"} and e["error"] for e in errors)
    by_line = {e["line"]: e for e in errors}
    assert by_line[2]["error"].startswith("not JSON") and "id" not in by_line[2]
    assert by_line[4] == {"id": "b", "line": 4, "error": "missing field 'cards'"}
    assert by_line[5]["id"] == "c" and "unknown card 'Z'" in by_line[5]["error"]
    assert "position 2" in by_line[5]["error"]
    assert "must be a string" in by_line[6]["error"]
    assert "JSON object" in by_line[7]["error"]
    assert "unknown field 'wlid'" in by_line[8]["error"]
    assert "NaN" in by_line[9]["error"]


def test_lines_json_reads_but_python_cannot_hold_are_errors_in_strict_json():
    """Valid JSON that Python reads as a float infinity (1e999), nests past the recursion
    limit, or holds an integer past Python's digit bound is an error line naming that;
    every answer line is strict JSON (no Infinity), whatever the id was."""
    lines: list[Any] = [
        '{"cards": "33", "id": 1e999}',
        '{"cards": "33", "id": -1e999}',
        '{"cards": "33", "id": ' + "[" * 5000 + "]" * 5000 + "}",
        '{"cards": "33", "id": ' + "7" * 5000 + "}",
        '{"cards": "33", "id": 2.5e300}',
    ]
    text = "".join(line + "\n" for line in lines)
    result = run("classify", "hubei-3p", "--batch", "-", stdin=text)
    assert result.exit_code == 1 and "Traceback" not in result.output
    answers = [json.loads(line, parse_constant=lambda name: pytest.fail(f"{name} in an answer"))
               for line in result.stdout.splitlines()]
    assert [a.get("error") for a in answers] == [
        "a number too large for a float", "a number too large for a float", "a line nested too deeply to read",
        "an integer of 5,000 digits (at most 24)", None]
    assert answers[-1]["id"] == 2.5e300


def test_not_a_combo_errors_for_compare_and_moves():
    answers = batch("compare", "hubei-3p", [{"a": "34", "b": "3"}, {"a": "4", "b": "3"},
                                            {"a": "4"}], exit_code=1)
    assert answers[0] == {"line": 1, "error": "'34' is not a combo of hubei-3p"}
    assert answers[1]["a_beats_b"] is True
    assert answers[2] == {"line": 3, "error": "missing field 'b'"}
    answers = batch("moves", "hubei-3p", [{"hand": "3456", "after": "34", "id": 1},
                                          {"hand": "XX"}, {"after": "3"}], exit_code=1)
    assert answers[0]["id"] == 1 and "not a combo" in answers[0]["error"]
    assert "only 1" in answers[1]["error"]
    assert answers[2]["error"] == "missing field 'hand'"


def test_classify_of_no_combo_is_an_answer():
    # as `classify --json` says: no readings, not an error
    assert batch("classify", "hubei-3p", [{"cards": "34"}]) == [{"cards": "34", "readings": []}]


def test_no_terminal_escapes_in_messages():
    result = run("classify", "hubei-3p", "--batch", "-",
                 stdin=json.dumps({"cards": "3\x1b[31m3\x9b2J"}) + "\n" + "\x1b[0m\n")
    assert result.exit_code == 1
    assert "\x1b" not in result.stdout and "\x9b" not in result.stdout
    first, second = (json.loads(line) for line in result.stdout.splitlines())
    for answer in (first, second):
        assert not any(ord(ch) < 32 and ch != "\n" or 0x7F <= ord(ch) < 0xA0
                       for ch in answer["error"])
    assert "\\x1b" in first["error"]


def test_not_utf8_line():
    result = run("classify", "hubei-3p", "--batch", "-", stdin=b'{"cards": "\xff"}\n{"cards": "3"}\n')
    assert result.exit_code == 1
    first, second = (json.loads(line) for line in result.stdout.splitlines())
    assert first["line"] == 1 and "UTF-8" in first["error"]
    assert second["cards"] == "3"


def test_all_good_exits_0_one_bad_exits_1():
    assert batch("compare", "hubei-3p", [{"a": "4", "b": "3"}])[0]["a_beats_b"] is True
    batch("compare", "hubei-3p", [{"a": "4", "b": "3"}, "{"], exit_code=1)


# ------------------------------------------------------------------ wild cards


def test_wild_cards_on_laizi():
    questions = [("445567", "7"), ("4477", "7"), ("4477", None), ("33", "3")]
    answers = batch("classify", "laizi",
                    [{"cards": c, **({"wild": w} if w else {})} for c, w in questions])
    assert answers == [single("classify", "laizi", c, *(["--wild", w] if w else []))
                       for c, w in questions]
    assert answers[0]["readings"][0]["substitution"] == [["7", "6"]]
    assert answers[2]["readings"] == []  # without a wild rank, 4477 is no combo


def test_wild_default_from_the_command_line():
    answers = batch("classify", "laizi", [{"cards": "445567"}, {"cards": "4477", "wild": None},
                                          {"cards": "445567", "wild": "5"}], "--wild", "7")
    assert answers[0] == single("classify", "laizi", "445567", "--wild", "7")
    assert answers[1]["readings"] == []  # null: no wild rank on this line
    assert answers[2] == single("classify", "laizi", "445567", "--wild", "5")


def test_wild_compare_and_moves_on_laizi():
    (c,) = batch("compare", "laizi", [{"a": "4477", "b": "3333", "wild": "7"}])
    assert c == single("compare", "laizi", "4477", "3333", "--wild", "7")
    (m,) = batch("moves", "laizi", [{"hand": "4455677", "after": "33", "wild": "7"}])
    assert m == single("moves", "laizi", "--hand", "4455677", "--after", "33", "--wild", "7")
    assert any("substitution" in x for x in m["moves"])


def test_bad_wild_lines():
    answers = batch("classify", "laizi", [{"cards": "33", "wild": "Z"}, {"cards": "33", "wild": 7}],
                    exit_code=1)
    assert "unknown rank 'Z'" in answers[0]["error"]
    assert "must be a string" in answers[1]["error"]
    (answer,) = batch("classify", "hubei-3p", [{"cards": "33", "wild": "7"}], exit_code=1)
    assert "no wildcards" in answer["error"]


# ------------------------------------------------------------------ files and usage


def test_batch_file(tmp_path: Path):
    path = tmp_path / "questions.jsonl"
    path.write_text('{"id": 1, "cards": "333444+69"}\n\n{"id": 2, "cards": "34"}\n', encoding="utf-8")
    result = run("classify", "hubei-3p", "--batch", str(path))
    assert result.exit_code == 0, result.output
    answers = [json.loads(line) for line in result.stdout.splitlines()]
    assert [a["id"] for a in answers] == [1, 2]
    assert answers[0]["readings"][0]["combo"] == "plane_wings"


@pytest.mark.parametrize("command", [["classify", "hubei-3p"], ["compare", "hubei-3p"],
                                     ["moves", "hubei-3p"]])
def test_missing_batch_file(tmp_path: Path, command: list[str]):
    missing = tmp_path / "nope.jsonl"
    result = run(*command, "--batch", str(missing))
    assert result.exit_code == 1
    assert isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    assert "nope.jsonl" in result.stderr and "No such file" in result.stderr
    assert result.stdout == ""


def test_batch_directory(tmp_path: Path):
    result = run("classify", "hubei-3p", "--batch", str(tmp_path))
    assert result.exit_code == 1 and "cannot read" in result.stderr


def test_batch_device_is_refused():
    result = run("classify", "hubei-3p", "--batch", "/dev/zero")
    assert result.exit_code == 1 and "a device, not a file of questions" in result.stderr


def test_batch_stdin_with_no_line_end_stops():
    """17 MiB with no line end (what /dev/zero gives) is one error line, then the end: the
    rest of such a stream is never read."""
    result = run("classify", "hubei-3p", "--batch", "-", stdin=b"\0" * (17 << 20) + b'\n{"cards": "33"}\n')
    assert result.exit_code == 1 and "Traceback" not in result.output
    (answer,) = [json.loads(line) for line in result.stdout.splitlines()]
    assert answer == {"line": 1, "error": "line longer than 65,536 bytes: not read"}


@pytest.mark.parametrize("args", [
    ["classify", "hubei-3p", "33", "--batch", "-"],
    ["compare", "hubei-3p", "3", "--batch", "-"],
    ["compare", "hubei-3p", "3", "4", "--batch", "-"],
    ["moves", "hubei-3p", "--hand", "33", "--batch", "-"],
    ["moves", "hubei-3p", "--after", "3", "--batch", "-"],
    ["moves", "hubei-3p", "--limit", "3", "--batch", "-"],
])
def test_arguments_and_batch_do_not_mix(args: list[str]):
    result = run(*args, stdin="")
    assert result.exit_code == 2, result.output
    assert "--batch" in result.output and "do not go together" in result.output


@pytest.mark.parametrize("args,missing", [
    (["classify", "hubei-3p"], "CARDS"),
    (["compare", "hubei-3p", "3"], "'B'"),
    (["moves", "hubei-3p"], "--hand"),
])
def test_arguments_needed_without_batch(args: list[str], missing: str):
    result = run(*args)
    assert result.exit_code == 2
    assert "Missing" in result.output and missing in result.output


def test_unknown_spec_fails_before_reading():
    result = run("classify", "nope", "--batch", "-", stdin='{"cards": "3"}\n')
    assert result.exit_code == 1
    assert "no spec named 'nope'" in result.stderr and result.stdout == ""


def test_answers_through_a_pipe_line_by_line():
    """A driver writes one question and reads its answer before writing the next: each
    answer is flushed as soon as it is written (one real process, stdin not closed)."""
    proc = subprocess.Popen([sys.executable, "-c", "from ddzrules.cli import main; main()",
                             "compare", "hubei-3p", "--batch", "-"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert proc.stdin is not None and proc.stdout is not None
    watchdog = threading.Timer(120, proc.kill)  # a missing flush would block readline()
    watchdog.start()
    try:
        answers = []
        for a, b in [("2222", "XD"), ("45678", "34567"), ("3", "34")]:
            proc.stdin.write(json.dumps({"a": a, "b": b}) + "\n")
            proc.stdin.flush()
            answers.append(json.loads(proc.stdout.readline()))
        proc.stdin.close()
        assert proc.wait() == 1
    finally:
        watchdog.cancel()
        proc.kill()
    assert answers[0]["verdict"] == "XD beats 2222" and answers[1]["a_beats_b"] is True
    assert answers[2] == {"line": 3, "error": "'34' is not a combo of hubei-3p"}
