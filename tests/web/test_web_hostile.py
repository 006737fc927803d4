"""Hostile requests to the playground: each a 4xx naming what is wrong, never a 500."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

import warnings

with warnings.catch_warnings():  # Starlette 1.10 would rather have httpx2; httpx works the same here
    warnings.simplefilter("ignore", DeprecationWarning)
    from starlette.testclient import TestClient

from ddzrules.web.app import MAX_REQUEST_DEPTH, create_app
from ddzrules.web.lanes import Limits

SPEC = "name: x\nextends: hubei-3p\n"


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Limits(seconds=60)), base_url="http://127.0.0.1") as c:
        yield c


def raw(client: TestClient, job: str, body: bytes) -> tuple[int, str]:
    r = client.post(f"/api/{job}", content=body, headers={"content-type": "application/json"})
    return r.status_code, r.text


@pytest.mark.parametrize("depth", [MAX_REQUEST_DEPTH, 496, 900])
def test_a_request_nested_deeper_than_the_bound_is_refused(client: TestClient, depth: int) -> None:
    """496 levels read as JSON but broke the pickling that hands a request to a worker (500)."""
    status, text = raw(client, "validate", b'{"text": "name: x\\n", "pad": ' + b"[" * depth + b"]" * depth + b"}")
    assert status == 422 and "nested more than 32 levels" in json.loads(text)["error"]
    status, text = raw(client, "validate", b'{"text": "name: x\\n", "pad": ' + b"[" * 30 + b"]" * 30 + b"}")
    assert status == 422 and "'pad': not a field of validate" in json.loads(text)["error"]  # past the depth check


@pytest.mark.parametrize(("job", "body"), [
    ("validate", b'{"text": "name: x\\ud800"}'),
    ("replay", b'{"record": "\\ud800"}'),
    ("spec_text", b'{"name": "hubei-3p", "new": true, "child": "a\\ud800"}'),
    ("validate", b'{"text": "name: x\\n", "\\udc00": 1}'),
])
def test_a_lone_surrogate_in_a_request_is_refused(client: TestClient, job: str, body: bytes) -> None:
    """Each was a 500 (UnicodeEncodeError: hashing the text, or encoding the answer)."""
    status, text = raw(client, job, body)
    assert status == 422 and "lone surrogate" in json.loads(text)["error"], text


def test_a_lone_surrogate_inside_a_spec_or_record_is_refused_at_its_place(client: TestClient) -> None:
    spec = SPEC + 'title: {en: "\\ud800", zh: x}\n'  # a YAML escape: the spec's hash failed on it
    r = client.post("/api/validate", json={"text": spec})
    findings = r.json()["findings"]
    assert r.status_code == 200 and [(f["line"], f["severity"]) for f in findings] == [(3, "error")]
    assert "lone surrogate" in findings[0]["message"] and "bombs" not in findings[0]["message"]
    assert client.post("/api/sheet", json={"text": spec}).status_code == 422
    record = json.dumps({"format": 1, "spec": "hubei-3p", "actions": [{"kind": "\udc00"}]})
    r = client.post("/api/replay", json={"record": record})
    assert r.status_code == 422 and "lone surrogate" in r.json()["error"], r.text


@pytest.mark.parametrize("child", ["a\nextends: /etc/passwd\n#", "../../etc/passwd", "My Rules", ""])
def test_a_new_specs_name_follows_the_rule_of_ddzrules_new(client: TestClient, child: str) -> None:
    """It was written into the starter text as given: lines injected into the YAML."""
    r = client.post("/api/spec_text", json={"name": "hubei-3p", "new": True, "child": child})
    assert r.status_code == 422, r.text
    assert "lower case letters" in r.json()["error"] or "child" in r.json()["error"]
    ok = client.post("/api/spec_text", json={"name": "hubei-3p", "new": True, "child": "my-rules"})
    assert ok.status_code == 200 and "name: my-rules\n" in ok.json()["text"]


def test_a_flag_or_turn_of_the_wrong_type_is_refused(client: TestClient) -> None:
    """`"new": "false"` made a new spec; `"turn": 0.0` and `true` passed for a turn number."""
    r = client.post("/api/spec_text", json={"name": "hubei-3p", "new": "false"})
    assert r.status_code == 422 and "new: true or false" in r.json()["error"]
    game = client.post("/api/new_game", json={"text": SPEC, "seed": 1, "bots": "heuristic"}).json()
    for turn in (float(game["turn"]), True, str(game["turn"])):
        r = client.post("/api/act", json={"game": game["game"], "turn": turn, "index": 0})
        assert r.status_code == 422 and "turn:" in r.json()["error"], (turn, r.text)
    r = client.post("/api/act", json={"game": game["game"], "turn": game["turn"], "index": 0})
    assert r.status_code == 200


@pytest.mark.parametrize("bots", ["search:ms=600000", "search:iters=1000000", "search:iters=100:candidates=1000"])
def test_a_bot_that_could_outlast_a_request_is_refused(client: TestClient, bots: str) -> None:
    """search:ms=600000 ran past the time limit, which stopped the game worker: every game
    in play was lost with it."""
    other = client.post("/api/new_game", json={"text": SPEC, "seed": 1, "bots": "heuristic"}).json()
    r = client.post("/api/new_game", json={"text": SPEC, "seed": 1, "seat": 2, "bots": bots})
    assert r.status_code == 422 and "the playground's bots decide within a request" in r.json()["error"]
    assert client.post("/api/state", json={"game": other["game"]}).status_code == 200
    ok = client.post("/api/new_game", json={"text": SPEC, "seed": 1, "bots": "search:iters=40"})
    assert ok.status_code == 200


@pytest.mark.parametrize("job", ["validate", "census", "spec_text", "new_game", "act", "replay", "specs"])
def test_a_field_no_job_reads_is_refused(client: TestClient, job: str) -> None:
    """`{"txet": …}` was accepted and ignored: the job ran on its defaults without a word."""
    r = client.post(f"/api/{job}", json={"txet": "x"})
    assert r.status_code == 422 and f"'txet': not a field of {job}" in r.json()["error"], r.text


def test_every_field_a_job_reads_is_listed() -> None:
    """jobs.FIELDS against the code: each field a job (or a helper it passes args to) reads."""
    import ast
    import inspect

    from ddzrules.web import jobs

    tree = ast.parse(inspect.getsource(jobs))
    funcs = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}

    def const(node: ast.AST) -> Any:
        return node.value if isinstance(node, ast.Constant) else None

    def reads(name: str, seen: set[str]) -> set[str]:
        out: set[str] = set()
        if name in seen or name not in funcs:
            return out
        seen.add(name)
        for node in ast.walk(funcs[name]):
            if isinstance(node, ast.Call):
                f = node.func
                if isinstance(f, ast.Attribute) and f.attr == "get" and getattr(f.value, "id", "") == "args":
                    out.add(const(node.args[0]))
                elif isinstance(f, ast.Name):
                    if f.id in ("_word", "_cards") and len(node.args) > 1:
                        out.add(const(node.args[1]))
                    if f.id == "_text":
                        out.add(const(node.args[1]) if len(node.args) > 1 else "text")
                    if any(getattr(a, "id", "") == "args" for a in node.args):
                        out |= reads(f.id, seen)
            elif isinstance(node, ast.Subscript) and getattr(node.value, "id", "") == "args":
                out.add(const(node.slice))
            elif isinstance(node, ast.Compare) and any(getattr(c, "id", "") == "args" for c in node.comparators):
                out.add(const(node.left))
        return out - {None}

    assert set(jobs.FIELDS) == set(jobs.JOBS)
    for name, job in jobs.JOBS.items():
        assert reads(job.__name__, set()) == jobs.FIELDS[name], name


def test_cards_played_before_the_play_phase_say_what_may_be_chosen(client: TestClient) -> None:
    """It said "illegal: 33 is not allowed now by this table's rules; you may play: " (nothing)."""
    game = client.post("/api/new_game", json={"text": SPEC, "seed": 1, "seat": 0, "bots": "heuristic"}).json()
    assert game["phase"] != "play", game["phase"]
    r = client.post("/api/act", json={"game": game["game"], "turn": game["turn"], "cards": "33"})
    assert r.status_code == 422
    error = r.json()["error"]
    assert f"no cards are played in the {game['phase']} phase; choose one of: " in error and "pass" in error
