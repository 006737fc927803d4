"""The playground's jobs (ddzrules.web.jobs), called as its worker calls them: a spec as
text, written to editor.yaml in the working directory. No web stack is needed for these,
so they run on a bare install too."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from ddzrules.errors import DdzError
from ddzrules.rules.variant import load_variant
from ddzrules.web import jobs as _jobs

SECRET = "TOP-SECRET-MARKER-41"


class _Jobs:
    """Each job as the worker runs it (jobs.run: extends: bundled only, the cache off)."""

    def __getattr__(self, name: str) -> Any:
        job = getattr(_jobs, name)
        key = next(k for k, f in _jobs.JOBS.items() if f is job)
        return lambda args: _jobs.run(key, args)


jobs = _Jobs()


@pytest.fixture(autouse=True)
def _workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    work = tmp_path / "worker"
    work.mkdir()
    monkeypatch.chdir(work)
    return work


def bundled(name: str) -> str:
    return jobs.spec_text({"name": name})["text"]


def findings(text: str) -> list[dict[str, Any]]:
    return list(jobs.validate({"text": text})["findings"])


def test_a_bundled_spec_as_written_validates_with_its_extends_kept() -> None:
    text = bundled("jiaofen")
    assert "extends: hubei-3p" in text
    answer = jobs.validate({"text": text})
    assert answer["ok"] and answer["combos"] == load_variant("jiaofen").rules.combos.__len__()
    assert [f for f in answer["findings"] if f["severity"] == "error"] == []


def test_a_typo_is_marked_at_its_line_and_column() -> None:
    text = bundled("jiaofen")
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if "plugin: show-hand" in line)
    lines[at] = lines[at].replace("show-hand", "show-hnd")
    found = findings("\n".join(lines) + "\n")
    errors = [f for f in found if f["severity"] == "error"]
    assert len(errors) == 1
    assert errors[0]["in_editor"] and errors[0]["line"] == at + 1
    assert errors[0]["column"] == lines[at].index("show-hnd") + 1
    assert "show-hand" in errors[0]["message"]  # did you mean


def test_a_pattern_syntax_error_is_marked_inside_the_pattern() -> None:
    text = "name: mine\nextends: hubei-3p\ncombos:\n  straight: {pattern: \"seq(1x, 5..12\"}\n"
    errors = [f for f in findings(text) if f["severity"] == "error"]
    assert errors and all(f["in_editor"] and f["line"] == 4 for f in errors)


def test_a_fixed_spec_has_no_errors_again() -> None:
    broken = "name: mine\nextends: hubei-3p\ncombos:\n  four_with_two: nul\n"
    assert [f for f in findings(broken) if f["severity"] == "error"]
    fixed = broken.replace("nul\n", "null\n")
    answer = jobs.validate({"text": fixed})
    assert answer["ok"], answer["findings"]


@pytest.mark.parametrize("parent", ["../secret.yaml", "secret.yaml", "{abs}", "/etc/passwd"])
def test_extends_never_reads_a_file(parent: str, tmp_path: Path) -> None:
    secret = tmp_path / "secret.yaml"
    secret.write_text(f"name: {SECRET}\nextends: hubei-3p\n# {SECRET}\n", encoding="utf-8")
    shutil_copy = Path("secret.yaml")  # beside editor.yaml too
    shutil_copy.write_text(secret.read_text(encoding="utf-8"), encoding="utf-8")
    parent = parent.replace("{abs}", str(secret))
    text = f"name: mine\nextends: {parent}\n"
    answer = jobs.validate({"text": text})
    assert not answer["ok"]
    shown = json.dumps(answer)
    assert SECRET not in shown
    assert "bundled spec" in shown
    for job in (jobs.census, jobs.classify):
        with pytest.raises(DdzError) as e:
            job({"text": text, "cards": "33"})
        assert SECRET not in str(e.value)


def test_the_editors_specs_leave_nothing_in_the_cache(cache: Path) -> None:
    load_variant("hubei-3p").ensure_table()  # the bundled parent's entries, made as ever
    before = sorted(p.name for p in cache.rglob("*") if p.is_file())
    assert before  # the cache is on in this test
    for i in range(3):
        draft = f"name: draft{i}\nextends: hubei-3p\nmax_hand: {18 + i}\n"
        assert jobs.validate({"text": draft})["ok"]
        jobs.census({"text": draft})
    assert sorted(p.name for p in cache.rglob("*") if p.is_file()) == before


def test_census_is_the_variants_census() -> None:
    text = bundled("hubei-3p")
    answer = jobs.census({"text": text})
    c = load_variant("hubei-3p").census()
    assert answer["total"] == c.total and answer["readings"] == c.readings
    assert {r["combo"]: r["plays"] for r in answer["rows"]} == dict(c.by_combo)


def test_classify_compare_and_bad_cards() -> None:
    text = bundled("hubei-3p")
    assert [r["combo"] for r in jobs.classify({"text": text, "cards": "333444"})["readings"]] == ["trio_chain"]
    assert jobs.compare({"text": text, "a": "XD", "b": "2222"})["verdict"] == "XD beats 2222"
    assert jobs.compare({"text": text, "a": "33", "b": "34567"})["verdict"] == "33 and 34567 do not compare"
    with pytest.raises(DdzError, match="unknown card 'Z'"):
        jobs.classify({"text": text, "cards": "33Z"})
    with pytest.raises(DdzError, match="no cards"):
        jobs.classify({"text": text, "cards": ""})
    laizi = bundled("laizi")
    readings = jobs.classify({"text": laizi, "cards": "3337", "wild": "7"})["readings"]
    # 癞子 7 stands for a 3 (软炸 3333) or for another rank (三带一)
    assert {(r["combo"], tuple(map(tuple, r["substitution"]))) for r in readings} == {
        ("soft_bomb", (("7", "3"),)), ("trio_with_hand", (("7", "4"),))}


def test_oversized_and_mistyped_requests_are_refused() -> None:
    with pytest.raises(DdzError, match="at most"):
        jobs.validate({"text": "#" * (2**20 + 10)})
    with pytest.raises(DdzError, match="no text"):
        jobs.validate({"text": 3})
    with pytest.raises(DdzError, match="no bundled spec"):
        jobs.spec_text({"name": "../../etc/passwd"})
    with pytest.raises(DdzError, match="lang"):
        jobs.sheet({"text": bundled("hubei-3p"), "lang": "fr"})


def test_sheet_and_diff_are_html_pages() -> None:
    text = bundled("jiaofen")
    page = jobs.sheet({"text": text, "lang": "zh"})["html"]
    assert page.lstrip().lower().startswith("<!doctype html>") and "jiaofen" in page
    d = jobs.diff({"text": text, "other": "hubei-3p"})
    assert not d["same"] and d["rules"] > 0 and "<html" in d["html"].lower()
    assert jobs.diff({"text": bundled("hubei-3p"), "other": "hubei-3p"})["same"]


def play_out(state: dict[str, Any]) -> dict[str, Any]:
    while not state["over"]:
        assert state["your_turn"] and state["actions"]
        chosen = jobs.hint({"game": state["game"]})
        state = jobs.act({"game": state["game"], "turn": state["turn"], "index": chosen["index"]})
    return state


@pytest.mark.parametrize("spec", ["hubei-3p", "paodekuai", "laizi", "jiaofen"])
def test_a_game_plays_to_the_end_and_its_record_replays(spec: str) -> None:
    state = jobs.new_game({"text": bundled(spec), "seat": 1, "bots": "heuristic", "seed": 5})
    final = play_out(state)
    record = jobs.record({"game": final["game"]})["record"]
    steps = jobs.replay_steps({"record": json.dumps(record)})
    assert steps["ok"] and steps["scores"] == final["result"]["scores"]
    assert len(steps["steps"]) == len(record["actions"]) + 1
    assert steps["steps"][-1]["hands"] == final["result"]["hands"]


def test_the_same_seed_deals_the_same_game() -> None:
    text = bundled("hubei-3p")
    a = jobs.new_game({"text": text, "seat": 0, "bots": "heuristic", "seed": 11})
    b = jobs.new_game({"text": text, "seat": 0, "bots": "heuristic", "seed": 11})
    assert a["hand"] == b["hand"] and a["log"] == b["log"] and a["game"] != b["game"]


def test_illegal_stale_and_foreign_actions_are_refused_and_change_nothing() -> None:
    text = bundled("hubei-3p")
    state = jobs.new_game({"text": text, "seat": 0, "bots": "heuristic", "seed": 3})
    while state["phase"] != "play" and not state["over"]:
        state = jobs.act({"game": state["game"], "turn": state["turn"], "index": 0})
    while not state["over"] and state["last_play"] is not None:  # reach a lead of ours
        state = jobs.act({"game": state["game"], "turn": state["turn"],
                          "index": jobs.hint({"game": state["game"]})["index"]})
    if state["over"]:
        pytest.skip("the bots ended this deal before seat 0 led")
    gid, turn = state["game"], state["turn"]
    state.pop("saved")  # what the server keeps of the game, not part of its state
    with pytest.raises(DdzError, match="lead"):
        jobs.act({"game": gid, "turn": turn, "cards": "pass"})
    with pytest.raises(DdzError, match="illegal|not in your hand"):
        jobs.act({"game": gid, "turn": turn, "cards": "XXXX"})
    with pytest.raises(DdzError, match="moved on"):
        jobs.act({"game": gid, "turn": turn - 1, "index": 0})
    with pytest.raises(DdzError, match="index"):
        jobs.act({"game": gid, "turn": turn, "index": 10_000})
    with pytest.raises(DdzError, match="no such game"):
        jobs.act({"game": "not-a-game", "turn": 0, "index": 0})
    assert jobs.game_state({"game": gid}) == state


def test_bad_game_options_are_refused() -> None:
    text = bundled("hubei-3p")
    with pytest.raises(DdzError, match="seat"):
        jobs.new_game({"text": text, "seat": 3})
    with pytest.raises(DdzError, match="bots"):
        jobs.new_game({"text": text, "bots": "douzero"})
    with pytest.raises(DdzError, match="seed"):
        jobs.new_game({"text": text, "seed": -1})
    with pytest.raises(DdzError, match="not over"):
        state = jobs.new_game({"text": text, "bots": "heuristic", "seed": 1})
        jobs.record({"game": state["game"]})


def test_a_tampered_record_is_refused_without_quoting_it() -> None:
    text = bundled("hubei-3p")
    final = play_out(jobs.new_game({"text": text, "seat": 0, "bots": "heuristic", "seed": 2}))
    record = jobs.record({"game": final["game"]})["record"]
    record["scores"] = [9, 9, 9]
    with pytest.raises(DdzError, match="scores"):
        jobs.replay_steps({"record": json.dumps(record)})
    with pytest.raises(DdzError, match="not valid JSON"):
        jobs.replay_steps({"record": "{" + SECRET})
    with pytest.raises(DdzError, match="too large"):
        jobs.replay_steps({"record": " " * (64 * 2**20)})
    assert set(os.listdir(".")) <= {"editor.yaml"}  # a replay writes nothing


# ---------------------------------------------------------------- issue 43: games the server keeps


def test_a_game_is_built_again_from_what_the_server_keeps() -> None:
    """A game lived only in its worker: a stopped worker lost it. A game job now answers
    with the game as the server keeps it (text, seat, seed, bots, journal), and a worker
    that does not hold it builds it from that, to the same state, and plays on."""
    state = jobs.new_game({"text": bundled("hubei-3p"), "seat": 1, "bots": "heuristic", "seed": 9})
    for _ in range(4):
        if state["over"]:
            break
        saved = state.pop("saved")
        state = _jobs.run("act", {"game": state["game"], "turn": state["turn"], "index": 0}, saved)
    state = json.loads(json.dumps(state))  # as the page has it (the answer shares the game's log)
    saved = state.pop("saved")
    assert saved["journal"] and len(saved["journal"]) == state["turn"]
    _jobs._GAMES.clear()  # a fresh worker: it holds no game
    with pytest.raises(DdzError, match="no such game"):
        jobs.game_state({"game": state["game"]})  # without what the server keeps, nothing
    assert _jobs.run("state", {"game": state["game"]}, saved) == state
    # a worker whose copy is behind (or ahead of) the server's is given the server's
    _jobs._GAMES[state["game"]].journal.append(0)
    assert _jobs.run("state", {"game": state["game"]}, saved) == state


def test_a_stopped_act_keeps_nothing_and_the_game_is_as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    """A request stopped at its bound in the middle of the bots' turns changed the game
    the worker held; the server's journal was not. The worker drops its copy, and the
    next request builds the game as it was before the stopped one."""
    from ddzrules.web.deadline import OverTime

    state = json.loads(json.dumps(jobs.new_game({"text": bundled("hubei-3p"), "seat": 0, "bots": "heuristic",
                                                 "seed": 4})))  # a copy: the answer shares the game's log
    saved = state.pop("saved")
    if state["over"] or not state["your_turn"]:
        pytest.skip("this deal gave seat 0 no turn")

    def stopped(sess: Any) -> None:
        _jobs._apply(sess, sess.game.legal_actions()[0])  # a bot acted, then the bound passed
        raise OverTime(0.0)

    monkeypatch.setattr(_jobs, "_bots_play", stopped)
    with pytest.raises(OverTime):
        _jobs.run("act", {"game": state["game"], "turn": state["turn"], "index": 0}, saved)
    assert state["game"] not in _jobs._GAMES
    monkeypatch.undo()
    assert _jobs.run("state", {"game": state["game"]}, saved) == state


def test_a_slow_bot_decision_falls_back_to_the_heuristic_within_its_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rollout caps did not bound a decision's time (a rollout costs what the spec's games
    cost). A decision is bounded by time checked inside it: past DECISION_SECONDS the
    heuristic bot decides, and the game goes on."""
    import time

    from ddzrules.web import deadline

    if not deadline.armed():
        pytest.skip("no SIGALRM here")
    monkeypatch.setattr(_jobs, "DECISION_SECONDS", 0.2)
    calls: list[float] = []

    class Stuck:
        def act(self, view: Any, legal: Any) -> Any:  # a decision that never ends by itself
            calls.append(time.monotonic())
            while True:
                pass

    state = jobs.new_game({"text": bundled("hubei-3p"), "seat": 0, "bots": "heuristic", "seed": 6})
    sess = _jobs._GAMES[state["game"]]
    sess.agents = [Stuck() for _ in sess.agents]
    while not sess.game.over and sess.game.to_act == sess.seat:
        _jobs._apply(sess, sess.game.legal_actions()[0])
    _jobs._bots_play(sess)  # every bot decision is stuck: each falls back (it returns at all)
    assert calls and (sess.game.over or sess.game.to_act == sess.seat)
    assert len(sess.journal) >= len(calls)  # each stuck decision became a play


def test_a_job_stops_itself_at_its_bound_inside_the_work() -> None:
    """The job's bound is checked inside it (not only by ending the worker from outside):
    a census of tiandi-laizi over 7,9 (seconds) is stopped where it stands."""
    import time

    from ddzrules.web import deadline

    if not deadline.armed():
        pytest.skip("no SIGALRM here")
    fresh = bundled("tiandi-laizi") + "\n# a text of its own: compiled and counted anew\n"
    with pytest.raises(deadline.OverTime) as stopped, deadline.bound(0.3) as end:
        jobs.census({"text": fresh, "wild": "7,9"})
    assert stopped.value.end == end  # this bound's, raised where the census stood
    assert deadline.remaining() == float("inf")  # no bound left armed
    with deadline.bound(5), deadline.bound(60) as inner:  # an inner bound never outlasts its outer one
        assert inner <= time.monotonic() + 5


def test_a_full_disk_is_a_clear_507_not_a_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    """A full temporary disk made every editor request a 500 (an OSError from writing the
    editor's text). It is a JobError, 507, saying what happened and who can fix it, with
    no path of the server's."""
    import errno

    from ddzrules.errors import JobError

    def full(self: Path, *args: Any, **kwargs: Any) -> int:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(self))

    monkeypatch.setattr(Path, "write_text", full)
    for job, args in (("validate", {"text": "name: x\n"}), ("census", {"text": "name: y\nextends: hubei-3p\n"})):
        with pytest.raises(JobError) as caught:
            _jobs.run(job, args)
        assert caught.value.status == 507 and "No space left on device" in caught.value.message
        assert "temporary disk" in caught.value.message and "/" not in caught.value.message
    assert os.listdir(".") == []


def test_the_editors_text_is_named_as_its_download_not_editor_yaml() -> None:
    """Messages and the sheet named an internal editor.yaml; they name the file the page's
    Download saves (NAME.yaml), and nothing of it is left after the job."""
    text = "name: house/rules\nextends: hubei-3p\nplugins: []\n"
    found = findings(text)
    assert found and all(f["file"] == "house-rules.yaml" and f["in_editor"] for f in found)
    assert not any("editor.yaml" in f["text"] for f in found)
    with pytest.raises(DdzError, match=r"^house-rules\.yaml:3:1: "):
        jobs.census({"text": text})
    sheet = jobs.sheet({"text": "name: house\nextends: hubei-3p\n"})["html"]
    assert "editor.yaml" not in sheet and "house.yaml" in sheet
    assert _jobs.editor_file("# no name\n") == "spec.yaml"
    assert _jobs.editor_file("name: ../../x\n") == "..-..-x.yaml"  # no directory: the / go
    assert os.listdir(".") == []


def test_the_play_to_beat_is_gone_once_the_game_is_over() -> None:
    """"to beat" stayed on screen after the game: the state gave the last play still."""
    final = play_out(jobs.new_game({"text": bundled("hubei-3p"), "seat": 0, "bots": "heuristic", "seed": 2}))
    assert final["over"] and final["last_play"] is None
    record = jobs.record({"game": final["game"]})["record"]
    steps = jobs.replay_steps({"record": json.dumps(record)})["steps"]
    assert steps[-1]["last_play"] is None and any(s["last_play"] for s in steps)
