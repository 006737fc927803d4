"""The playground under load: one client misbehaving in each way issue 43 found, while
another plays a whole game, unharmed.

    python benchmarks/bench_playground_load.py [--time-limit 20] [--idle 1000] [--seed 3]
                                               [--only NAME ...] [--before DIR] [--json]

``ddzrules serve`` runs in a process of its own on a free loopback port. Two clients, told
apart by their addresses as the server tells them (the peer address): the player connects
from 127.0.0.1, the misbehaving client from 127.0.0.2. For each scenario the player starts
a game (hubei-3p against heuristic bots), then the other client starts misbehaving, and
the player loads the page and plays the game to its end (each turn the hint's play),
then plays a second game from the start. Reported per scenario: whether the first game
survived and both were finished, the player's requests, failures, and the median and
longest answer; and what the misbehaving client got.

Scenarios (``--only``):

* ``quiet``: nobody misbehaves (the reference);
* ``new-games``: new_game requests without end (the issue: 32 of them ended everyone's
  games);
* ``three-deck``: a game of a three-deck spec typed into the editor, with the largest bot
  budget the page allows (search:iters=2000:early_iters=2000), and its acts without end
  (each ran past --time-limit, which stopped the game worker and lost every game);
* ``idle``: ``--idle`` connections that never finish their headers or their body, kept
  open (one opened again as soon as the server closes one);
* ``spec-burst``: 48 spec jobs at once, again and again (census of tiandi-laizi over two
  wild ranks: seconds each).

``--before DIR``: serve from another checkout (``git archive COMMIT | tar -x -C DIR``), for
the figures before a change; the same venv's packages are used.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import queue
import re
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import Any

import httpx
from _header import print_header  # benchmarks/_header.py: the build measured

PLAYER, OTHER = "127.0.0.1", "127.0.0.2"
THREE_DECK = ("name: three-deck\nextends: hubei-4p-2deck\ndeck: {decks: 3, jokers: true}\n"
              "deal: {hand: 39, kitty: 6, kitty_shown: false}\n")
#: how long a player's request may take before it counts as a failure (unreachable)
REQUEST_SECONDS = 90.0


@contextmanager
def server(time_limit: float, before: str | None) -> Iterator[str]:
    env = dict(os.environ)
    if before:
        env["PYTHONPATH"] = before + os.pathsep + env.get("PYTHONPATH", "")
    process = subprocess.Popen([sys.executable, "-m", "ddzrules", "serve", "--port", "0", "--time-limit",
                                str(time_limit)], stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
                               env=env, cwd=before)  # -m puts the working directory first on the path
    assert process.stderr is not None
    url = None
    for line in process.stderr:
        found = re.search(r"playground on (http://\S+?)/? ", line)
        if found:
            url = found.group(1)
            break
    if url is None:
        process.kill()
        raise SystemExit("the server did not start")
    threading.Thread(target=lambda: [None for _ in process.stderr or ()], daemon=True).start()  # drain its log
    host, port = url.removeprefix("http://").split(":")
    for _ in range(300):  # listening (a server may say where before it listens)
        with socket.socket() as probe:
            if probe.connect_ex((host, int(port))) == 0:
                break
        time.sleep(0.1)
    try:
        yield url
    finally:
        process.terminate()
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            process.kill()


def client(url: str, address: str, timeout: float = REQUEST_SECONDS) -> httpx.Client:
    return httpx.Client(base_url=url, timeout=timeout,
                        transport=httpx.HTTPTransport(local_address=address, retries=0))


class Player:
    """The client who only plays: every request's time and outcome."""

    def __init__(self, url: str) -> None:
        self.http = client(url, PLAYER)
        self.times: list[float] = []
        self.failures: Counter[str] = Counter()

    def post(self, job: str, args: dict[str, Any]) -> dict[str, Any] | None:
        started = time.perf_counter()
        try:
            r = self.http.post(f"/api/{job}", json=args)
        except httpx.HTTPError as e:
            self.failures[f"{job}: {type(e).__name__}"] += 1
            return None
        finally:
            self.times.append(time.perf_counter() - started)
        if r.status_code != 200:
            self.failures[f"{job}: {r.status_code} {r.json().get('error', '')[:70]}"] += 1
            return None
        data: dict[str, Any] = r.json()
        return data

    def get(self, path: str) -> None:
        started = time.perf_counter()
        try:
            ok = self.http.get(path).status_code == 200
        except httpx.HTTPError as e:
            self.failures[f"GET {path}: {type(e).__name__}"] += 1
            return
        finally:
            self.times.append(time.perf_counter() - started)
        if not ok:
            self.failures[f"GET {path}: not 200"] += 1

    def play(self, game: dict[str, Any]) -> bool:
        """``game`` played to its end (the hint's play each turn): whether it got there."""
        for _ in range(400):
            if game["over"]:
                return True
            hint = self.post("hint", {"game": game["game"]})
            index = hint["index"] if hint else 0
            moved = self.post("act", {"game": game["game"], "turn": game["turn"], "index": index})
            if moved is None:
                moved = self.post("state", {"game": game["game"]})  # still there?
                if moved is None:
                    return False
            game = moved
        return False


def _misbehave(name: str, url: str, stop: Any, idle: int, seed: int, results: Any) -> None:
    import resource

    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)  # as many sockets as it may have
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    results.put(misbehave(name, url, stop, idle, seed))


def misbehave(name: str, url: str, stop: Any, idle: int, seed: int) -> Counter[str]:
    """The other client's misbehaviour until ``stop``: what it got, by outcome."""
    got: Counter[str] = Counter()
    other = client(url, OTHER, timeout=120)
    text = other.post("/api/spec_text", json={"name": "hubei-3p"}).json()["text"]

    def post(job: str, args: dict[str, Any]) -> dict[str, Any] | None:
        try:
            r = other.post(f"/api/{job}", json=args)
        except httpx.HTTPError as e:
            got[type(e).__name__] += 1
            return None
        got[f"{job} {r.status_code}"] += 1
        return r.json() if r.status_code == 200 else None

    if name == "new-games":
        i = 0
        while not stop.is_set():
            post("new_game", {"text": text, "bots": "random", "seed": seed + i})
            i += 1
    elif name == "three-deck":
        while not stop.is_set():
            game = post("new_game", {"text": THREE_DECK, "bots": "search:iters=2000:early_iters=2000",
                                     "seed": seed, "seat": 0})
            while game is not None and not game["over"] and not stop.is_set():
                game = post("act", {"game": game["game"], "turn": game["turn"], "index": 0})
    elif name == "idle":
        got.update(hold_idle(url, stop, idle))
    elif name == "spec-burst":
        laizi = other.post("/api/spec_text", json={"name": "tiandi-laizi"}).json()["text"]
        while not stop.is_set():
            threads = [threading.Thread(target=post, args=("census", {"text": laizi, "wild": "7,9"}))
                       for _ in range(48)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
    other.close()
    return got


def hold_idle(url: str, stop: Any, count: int) -> Counter[str]:
    """``count`` connections from the other address that never finish: half stop inside
    their headers, half inside a body they announced. One the server closes is opened again."""
    host, port = url.removeprefix("http://").split(":")
    got: Counter[str] = Counter()
    heads = (b"POST /api/validate HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: appl",
             (b"POST /api/validate HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
             b"Content-Length: 100000\r\n\r\n{\"text\": \"name: x"))
    socks: list[socket.socket | None] = [None] * count

    def open_one(i: int) -> None:
        try:
            s = socket.socket()
            s.bind((OTHER, 0))
            s.setblocking(True)
            s.settimeout(5)
            s.connect((host, int(port)))
            s.sendall(heads[i % 2])
            s.setblocking(False)
            socks[i] = s
            got["opened"] += 1
        except OSError as e:
            got[f"open failed: {e.strerror or type(e).__name__}"] += 1

    for i in range(count):
        open_one(i)
    while not stop.wait(0.5):
        for i, s in enumerate(socks):
            if s is None:
                open_one(i)
                continue
            try:
                closed = s.recv(4096) == b""
            except BlockingIOError:
                closed = False
            except OSError:
                closed = True
            if closed:
                got["closed by the server"] += 1
                s.close()
                socks[i] = None
                open_one(i)
    got["open at the end"] = sum(s is not None for s in socks)
    for s in socks:
        if s is not None:
            s.close()
    return got


def scenario(name: str, url: str, args: argparse.Namespace) -> dict[str, Any]:
    player = Player(url)
    text = player.post("spec_text", {"name": "hubei-3p"})
    assert text is not None, f"the server does not answer: {dict(player.failures)}"
    first = player.post("new_game", {"text": text["text"], "bots": "heuristic", "seed": args.seed})
    assert first is not None
    # the other client in a process of its own (as on another machine): a thread of this
    # one would take the player's turns at the interpreter
    context = multiprocessing.get_context("spawn")
    stop, results = context.Event(), context.Queue()
    other = context.Process(target=_misbehave, args=(name, url, stop, args.idle, args.seed, results), daemon=True)
    if name != "quiet":
        other.start()
        time.sleep(args.head_start)  # the misbehaviour under way
    started = time.perf_counter()
    player.get("/")
    player.get("/static/app.js")
    survived = player.post("state", {"game": first["game"]}) is not None
    finished = survived and player.play(first)
    second = player.post("new_game", {"text": text["text"], "bots": "heuristic", "seed": args.seed + 1})
    finished_second = second is not None and player.play(second)
    took = time.perf_counter() - started
    stop.set()
    got: Counter[str] = Counter()
    if name != "quiet":
        with suppress(queue.Empty):
            got = results.get(timeout=REQUEST_SECONDS + 60)
        other.join(10)
        if other.is_alive():
            other.kill()
    times = sorted(player.times)
    return {"scenario": name, "first_game_survived": survived, "games_finished": int(finished) + int(finished_second),
            "requests": len(times), "failures": dict(player.failures),
            "median_ms": round(statistics.median(times) * 1000), "max_ms": round(times[-1] * 1000),
            "seconds": round(took, 1), "other_client": dict(got)}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--time-limit", type=float, default=20.0)
    parser.add_argument("--idle", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--head-start", type=float, default=3.0, help="seconds of misbehaviour before the player")
    parser.add_argument("--only", nargs="*", default=["quiet", "new-games", "three-deck", "idle", "spec-burst"])
    parser.add_argument("--before", help="serve from this checkout (PYTHONPATH)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    print_header(__file__, json_output=bool(getattr(args, "json", False)))
    rows = []
    for name in args.only:
        with server(args.time_limit, args.before) as url:  # a fresh server each: nothing carried over
            rows.append(scenario(name, url, args))
        row = rows[-1]
        if not args.json:
            print(f"{row['scenario']:<11} first game kept: {'yes' if row['first_game_survived'] else 'NO':<3} "
                  f"games finished: {row['games_finished']}/2  requests {row['requests']:>3}  "
                  f"failed {sum(row['failures'].values()):>3}  median {row['median_ms']:>5} ms  "
                  f"max {row['max_ms']:>6} ms  ({row['seconds']} s)", flush=True)
            for failure, n in row["failures"].items():
                print(f"{'':<11} player failure ×{n}: {failure}")
            if row["other_client"]:
                print(f"{'':<11} the other client got: "
                      + ", ".join(f"{k} ×{v}" for k, v in sorted(row["other_client"].items())), flush=True)
    if args.json:
        print(json.dumps(rows, indent=2))


if __name__ == "__main__":
    with suppress(KeyboardInterrupt):
        main()
