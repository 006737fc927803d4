"""The playground's HTTP side (ddzrules.web.app) through Starlette's TestClient: the page
and its assets, the API's refusals (host, type, size, unknown job), and the bounds of the
worker processes (a job over its time or memory is stopped, and the next one is served)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

import warnings

with warnings.catch_warnings():  # Starlette 1.10 would rather have httpx2; httpx works the same here
    warnings.simplefilter("ignore", DeprecationWarning)
    from starlette.testclient import TestClient

from ddzrules.errors import DdzError
from ddzrules.spec import bundled_names
from ddzrules.web.app import create_app
from ddzrules.web.lanes import Limits

HOST = "http://127.0.0.1"


def client_for(limits: Limits) -> TestClient:
    return TestClient(create_app(limits), base_url=HOST)


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with client_for(Limits(seconds=60, request_bytes=256 * 1024)) as c:
        yield c


def post(c: TestClient, job: str, args: dict[str, Any]) -> Any:
    return c.post(f"/api/{job}", json=args)


def test_the_page_and_its_assets_come_from_the_package(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and 'id="source"' in page.text
    assert "http://" not in page.text and "https://" not in page.text  # nothing from elsewhere
    for asset in ("app.js", "app.css", "favicon.svg"):
        r = client.get(f"/static/{asset}")
        assert r.status_code == 200 and r.content
        assert "https://" not in r.text
    policy = page.headers["content-security-policy"]
    assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy


def test_the_bundled_specs_are_listed(client: TestClient) -> None:
    r = post(client, "specs", {})
    assert r.status_code == 200
    assert [s["name"] for s in r.json()["specs"]] == bundled_names()


def test_validate_over_http_marks_the_line(client: TestClient) -> None:
    r = post(client, "validate", {"text": "name: x\nextends: hubei-3p\ncombos:\n  pair: {pattern: \"2x(\"}\n"})
    assert r.status_code == 200
    errors = [f for f in r.json()["findings"] if f["severity"] == "error"]
    assert errors and errors[0]["line"] == 4 and errors[0]["in_editor"]


def test_refusals(client: TestClient) -> None:
    assert client.get("/", headers={"host": "evil.example"}).status_code == 400  # DNS rebinding
    r = client.post("/api/validate", content=b'{"text": "x"}', headers={"content-type": "text/plain"})
    assert r.status_code == 415
    assert post(client, "nope", {}).status_code == 404
    assert client.get("/api/validate").status_code == 405
    r = client.post("/api/validate", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 422 and "not JSON" in r.json()["error"]
    r = client.post("/api/validate", content=b"[1, 2]", headers={"content-type": "application/json"})
    assert r.status_code == 422
    r = client.post("/api/validate", content=b"[" * 100_000, headers={"content-type": "application/json"})
    assert r.status_code == 422
    big = post(client, "validate", {"text": "#" * 300_000})
    assert big.status_code == 413 and "larger" in big.json()["error"]
    bad = post(client, "classify", {"text": "name: x\nextends: hubei-3p\n", "cards": "33Z"})
    assert bad.status_code == 422 and "unknown card" in bad.json()["error"]
    # and the server still answers
    assert post(client, "specs", {}).status_code == 200


def test_a_job_over_its_time_bound_is_stopped_and_the_next_is_served() -> None:
    with client_for(Limits(seconds=1.5)) as c:
        text = post(c, "spec_text", {"name": "tiandi-laizi"}).json()["text"]
        slow = post(c, "census", {"text": text, "wild": "7,9"})  # about 5 s, pure Python, here
        if slow.status_code == 200:
            pytest.skip("this build counted it within 1.5 s")
        assert slow.status_code == 503 and "longer than 1.5 s" in slow.json()["error"]
        after = post(c, "classify", {"text": text, "cards": "33"})
        assert after.status_code == 200 and after.json()["readings"][0]["combo"] == "pair"


def test_a_game_survives_its_worker_being_stopped() -> None:
    """The games in play lived in the game worker: a job stopped at the time bound ended
    it, and every user's game was lost. The server keeps each game as its actions: a
    worker ended outright (SIGKILL, as the out-of-memory killer does) or stopped loses
    nothing, and the game goes on where it was."""
    import os
    import signal

    with client_for(Limits(seconds=60)) as c:
        text = post(c, "spec_text", {"name": "hubei-3p"}).json()["text"]
        game = post(c, "new_game", {"text": text, "bots": "heuristic", "seed": 1}).json()
        for _ in range(3):  # a few turns in, bids and plays alike
            if game["over"]:
                break
            game = post(c, "act", {"game": game["game"], "turn": game["turn"], "index": 0}).json()
        before = post(c, "state", {"game": game["game"]}).json()
        workers = c.app.state.lanes["game"]  # type: ignore[attr-defined]
        for stop in (signal.SIGKILL, signal.SIGTERM):
            pids = []
            for lane in workers:  # every game worker, whichever holds the game
                if lane._process is not None:
                    pids.append(lane._process.pid)
                    os.kill(lane._process.pid, stop)
                    lane._process.join(10)
            assert pids
            after = post(c, "state", {"game": game["game"]})
            assert after.status_code == 200 and after.json() == before
            assert not {lane._process.pid for lane in workers if lane._process is not None} & set(pids)
        if not before["over"]:
            moved = post(c, "act", {"game": game["game"], "turn": before["turn"], "index": 0})
            assert moved.status_code == 200 and moved.json()["turn"] > before["turn"]


def test_a_job_over_its_memory_bound_fails_clearly() -> None:
    with client_for(Limits(seconds=120, memory_mb=300)) as c:
        text = post(c, "spec_text", {"name": "tiandi-laizi"}).json()["text"]
        r = post(c, "census", {"text": text, "wild": "7,9"})  # about 400 MiB, pure Python, here
        if r.status_code == 200:
            pytest.skip("this build counted it in less than 300 MiB")
        assert r.status_code == 503 and "more memory" in r.json()["error"]
        assert post(c, "compare", {"text": text, "a": "XD", "b": "33"}).json()["a_beats_b"]


def test_serve_refuses_without_the_web_extra_and_warns_off_loopback(monkeypatch: pytest.MonkeyPatch) -> None:
    from click.testing import CliRunner

    from ddzrules.cli import main
    from ddzrules.cli.serve import _listen, _loopback

    def bound_to_loopback(host: str) -> bool:
        with _listen(host, 0) as sock:
            return _loopback(sock)

    # every spelling of loopback is one (127.1 and ::ffff:127.0.0.1 were warned about)
    for host in ("127.0.0.1", "localhost", "127.1", "127.0.0.2", "::1", "::ffff:127.0.0.1"):
        try:
            assert bound_to_loopback(host), host
        except DdzError:  # no IPv6 here
            assert ":" in host
    assert not bound_to_loopback("0.0.0.0")
    monkeypatch.setitem(__import__("sys").modules, "hypercorn", None)  # as if not installed
    r = CliRunner().invoke(main, ["serve"])
    assert r.exit_code == 1 and "pip install 'ddzrules[web]'" in r.output
    assert "Traceback" not in r.output
    bad = CliRunner().invoke(main, ["serve", "--port", "70000"])
    assert bad.exit_code == 2
    # NaN passes click's FloatRange: every request then failed with a traceback
    nan = CliRunner().invoke(main, ["serve", "--time-limit", "nan"])
    assert nan.exit_code == 2 and "nan is not a number of seconds" in nan.output


def test_serve_refuses_a_host_or_port_it_cannot_listen_on_in_one_line() -> None:
    import socket

    from click.testing import CliRunner

    from ddzrules.cli import main

    pytest.importorskip("hypercorn")
    with socket.socket() as taken:  # a port another server listens on
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        cases = {
            # TEST-NET-1: an address, but of no interface here (no name lookup)
            ("--host", "192.0.2.1", "--port", "0"): "cannot listen on --host '192.0.2.1' --port 0: ",
            ("--port", port): f"cannot listen on --host '127.0.0.1' --port {port}: ",
            # IDNA cannot encode these: a TypeError traceback
            ("--host", "\u202e", "--port", "0"): "cannot listen on --host '\\u202e' --port 0: not a name",
            ("--host", "é" * 70, "--port", "0"): "cannot listen on --host ",
            # the system reads an empty host as every interface: it listened on 0.0.0.0
            ("--host", "", "--port", "0"): "--host is empty",
        }
        for args, message in cases.items():
            r = CliRunner().invoke(main, ["serve", *args])
            # the server logged "ERROR: [Errno 99] …" after the "playground on" line and exited 3
            assert r.exit_code == 1 and "Traceback" not in r.output, r.output
            (line,) = r.output.splitlines()
            assert line.startswith(f"error: {message}"), line


def test_serve_on_every_interface_accepts_this_machines_names_and_no_other_host(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``--host 0.0.0.0`` (or ``::``) accepted every Host header (``hosts=("*",)``): a page
    of attacker.example could reach the playground through DNS rebinding. It accepts this
    machine's own names and addresses, and those given with ``--allowed-host``."""
    import socket

    from click.testing import CliRunner

    from ddzrules.cli import main
    from ddzrules.cli.serve import allowed_hosts

    pytest.importorskip("hypercorn")
    from ddzrules.web import server

    hosts = allowed_hosts("0.0.0.0", True)
    assert {"localhost", "127.0.0.1", "[::1]", socket.gethostname().lower()} <= set(hosts)
    assert "attacker.example" not in hosts and "*" not in hosts
    client = TestClient(create_app(Limits(), hosts=hosts), base_url=HOST)
    assert client.get("/", headers={"host": "attacker.example:8413"}).status_code == 400
    for host in ("localhost:8413", "127.0.0.1", "[::1]:8413", f"{socket.gethostname()}:8413"):
        assert client.get("/", headers={"host": host}).status_code == 200, host
    assert "play.example.org" in allowed_hosts("::", True, ("play.example.org",))
    assert socket.gethostname().lower() not in allowed_hosts("127.0.0.1", False)

    # the command itself, its server not run: the app it would serve
    served: list[Any] = []
    monkeypatch.setattr(server, "serve", lambda app, sock, shutdown=None: served.append(app))
    r = CliRunner().invoke(main, ["serve", "--host", "0.0.0.0", "--port", "0",
                                  "--allowed-host", "Play.Example.org", "--allowed-host", "192.0.2.7"])
    assert r.exit_code == 0, r.output
    assert "requests must name one of these hosts: 0.0.0.0, localhost, 127.0.0.1, [::1]" in r.output
    assert "play.example.org" in r.output and "192.0.2.7" in r.output
    client = TestClient(served[0], base_url=HOST)
    assert client.get("/", headers={"host": "attacker.example:8413"}).status_code == 400
    for host in ("play.example.org:8413", "192.0.2.7:8413", "localhost"):
        assert client.get("/", headers={"host": host}).status_code == 200, host
    for bad in ("", "*", "*.example.org", "a b", "http://x.example", "x.example:8413", "x/y"):
        r = CliRunner().invoke(main, ["serve", "--port", "0", "--allowed-host", bad])
        assert r.exit_code == 2 and "--allowed-host" in r.output and "Traceback" not in r.output, (bad, r.output)


# ---------------------------------------------------------------- issue 43: one client, everyone's playground


def test_one_clients_new_games_never_end_anothers() -> None:
    """32 cheap new_game requests evicted every other user's game (one store of 32 in the
    game worker). A client holds at most its quota; its new games end its own oldest."""
    from ddzrules.web.games import PER_CLIENT

    app = create_app(Limits(seconds=60))
    with TestClient(app, base_url=HOST, client=("192.0.2.1", 5000)) as alice, \
            TestClient(app, base_url=HOST, client=("192.0.2.66", 5000)) as mallory:
        text = post(alice, "spec_text", {"name": "hubei-3p"}).json()["text"]
        game = post(alice, "new_game", {"text": text, "bots": "random", "seed": 1}).json()
        mine = [post(mallory, "new_game", {"text": text, "bots": "random", "seed": i}).json()["game"]
                for i in range(32)]
        assert post(alice, "state", {"game": game["game"]}).status_code == 200
        assert app.state.games.of("192.0.2.66") == mine[-PER_CLIENT:]
        gone = post(mallory, "state", {"game": mine[0]})
        assert gone.status_code == 422 and "no such game" in gone.json()["error"]


def test_a_key_given_twice_is_refused_naming_it(client: TestClient) -> None:
    """{"text": a, "text": b} was read as b without a word (JSON readers disagree on which)."""
    for body, key in ((b'{"text": "name: a\\n", "text": "name: b\\n"}', "'text'"),
                      (b'{"game": "x", "turn": 1, "index": 0, "index": 1}', "'index'")):
        r = client.post("/api/validate", content=body, headers={"content-type": "application/json"})
        assert r.status_code == 422 and f"gives {key} twice" in r.json()["error"], r.text
    nested = b'{"text": "name: a\\n", "x": {"k": 1, "k": 2}}'
    r = client.post("/api/validate", content=nested, headers={"content-type": "application/json"})
    assert r.status_code == 422 and "'k' twice" in r.json()["error"]


def test_a_burst_of_one_client_neither_stalls_others_nor_holds_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    """One client's burst of spec jobs stalled every request, static files included: each
    waited for the lane in one of the server's 40 threads. A client has at most MAX_PENDING
    requests in the server (429 past it), waits for its turn without a thread, and takes
    its turn after the others' (first come, first served, one request of it at a time)."""
    import asyncio
    import threading

    import httpx

    from ddzrules.web.app import MAX_PENDING, WORKERS

    app = create_app(Limits(seconds=30))
    ran: list[str] = []
    release = threading.Event()  # the other client's jobs run until the test has looked

    def slow_call(job: str, args: dict[str, Any], saved: Any = None) -> dict[str, Any]:
        if args.get("text") != "alice":
            release.wait(30)
        ran.append(args.get("text", ""))
        return {"ok": True}

    for workers in app.state.lanes.values():
        for lane in workers:
            monkeypatch.setattr(lane, "call", slow_call)

    async def scenario() -> tuple[list[int], int, int, int]:
        def client(ip: str) -> httpx.AsyncClient:
            return httpx.AsyncClient(transport=httpx.ASGITransport(app=app, client=(ip, 4000)), base_url=HOST)

        async with client("192.0.2.66") as mallory, client("192.0.2.1") as alice:
            burst = [asyncio.create_task(mallory.post("/api/validate", json={"text": f"m{i}"}))
                     for i in range(MAX_PENDING + 4)]
            for _ in range(1000):  # the four over its quota are answered at once
                if sum(t.done() for t in burst) >= 4:
                    break
                await asyncio.sleep(0.01)
            page = await alice.get("/static/app.css")
            waiting_at_page = sum(not t.done() for t in burst)
            mine = await alice.post("/api/validate", json={"text": "alice"})
            waiting_at_mine = sum(not t.done() for t in burst)
            release.set()
            codes = [r.status_code for r in await asyncio.gather(*burst)]
            return codes, page.status_code + mine.status_code, waiting_at_page, waiting_at_mine

    codes, ok, waiting_at_page, waiting_at_mine = asyncio.run(scenario())
    assert ok == 400  # both 200
    assert codes.count(429) == 4 and codes.count(200) == MAX_PENDING
    # the page's file and alice's job were served while all of the burst waited: the
    # burst held one spec worker (one request of a client at a time), alice had the other
    assert waiting_at_page == waiting_at_mine == MAX_PENDING
    assert ran[0] == "alice" and WORKERS >= 2


def test_connections_that_never_finish_a_request_are_closed(monkeypatch: pytest.MonkeyPatch) -> None:
    """uvicorn held a connection that never finished its headers or its body for ever
    (about a thousand made the server unreachable). Hypercorn's own timeouts close them
    (here shortened to 1 s), and a client that behaves is served meanwhile."""
    import socket
    import urllib.request

    pytest.importorskip("hypercorn")
    from ddzrules.web import server

    monkeypatch.setattr(server, "HEADER_SECONDS", 1)
    monkeypatch.setattr(server, "READ_SECONDS", 1)
    cfg = server.config(socket.socket())
    assert (cfg.keep_alive_timeout, cfg.read_timeout) == (1, 1)
    heads = (b"POST /api/validate HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Ty",  # headers never finished
             (b"POST /api/validate HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
              b"Content-Length: 1000\r\n\r\n{\"text\": "))  # a body never finished
    with server.in_thread(create_app(Limits(seconds=30))) as url:
        host, port = url.removeprefix("http://").split(":")
        idle = []
        for i in range(100):
            s = socket.create_connection((host, int(port)))
            s.sendall(heads[i % 2])
            idle.append(s)
        with urllib.request.urlopen(url + "/static/app.css", timeout=30) as page:
            assert page.status == 200
        for s in idle:
            s.settimeout(30)
            try:
                while s.recv(4096):  # an answer (a 4xx) may come first: then the close
                    pass
            except ConnectionResetError:
                pass
            s.close()
