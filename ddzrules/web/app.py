"""The playground's web application (Starlette): the page, its assets, and one JSON API.

Every asset is a file of this package (no CDN: it works offline). Every computation is a
job of :mod:`ddzrules.web.jobs` run in a worker process (:mod:`ddzrules.web.lanes`), so a
request's time and memory are bounded; the server itself only reads requests and answers.

The API: ``POST /api/JOB`` with a JSON object, answered with a JSON object, or with
``{"error": message}`` and 413 (too large), 415 (not JSON), 422 (a bad spec, cards or play,
a key given twice), 429 (this client has too many requests waiting), 503 (a bound stopped
it, or the server is full), 507 (the server's disk is full) or 500. Requests must name
this server's host (a page elsewhere cannot reach it through DNS rebinding) and be
``application/json`` (a form on another site cannot post to it).

One client (a peer address, :func:`ddzrules.web.games.client_of`) cannot take the
playground from the others: it has at most :data:`MAX_PENDING` requests in the server at
once (counted before their bodies are read), at most one of them waiting for or running
in each kind of job (:class:`Turns`), which has :data:`WORKERS` worker processes: one
client's slow job holds one of them, and its burst waits behind its own requests, not in
front of others' (first come, first served). A request waits for its turn without
holding a thread, so the page and its files are served whatever the workers are doing. Its
games are its own (:mod:`ddzrules.web.games`).
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.base import BaseHTTPMiddleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ddzrules.errors import LONE_SURROGATE_WORDS, brief
from ddzrules.untrusted import JSONPolicy, JSONRefused, parse_json
from ddzrules.web.games import GameStore, client_of
from ddzrules.web.lanes import JobError, Lane, Limits

#: the jobs each lane runs (the game lane builds the games in play; the server keeps them)
SPEC_JOBS = frozenset({"specs", "spec_text", "validate", "census", "classify", "compare", "sheet", "diff",
                       "replay"})
GAME_JOBS = frozenset({"new_game", "state", "act", "hint", "record"})
#: requests one client may have in the server at once (reading, waiting or running)
MAX_PENDING = 8
#: worker processes for each kind of job: one client's slow job holds one of them
WORKERS = 2

#: what the page may load and do: its own files only; the rule sheet and the diff report
#: are shown in sandboxed frames (no script runs in them) and style themselves inline
CONTENT_SECURITY_POLICY = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
                           "img-src 'self' data:; frame-src 'self'; object-src 'none'; base-uri 'none'; "
                           "form-action 'none'; frame-ancestors 'none'")


def _page() -> str:
    return resources.files("ddzrules.web").joinpath("static", "index.html").read_text(encoding="utf-8")


def _error(message: str, status: int) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def _body(request: Request, limit: int) -> bytes:
    """The request's body, refused past ``limit`` bytes before it is all read."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > limit):
        raise JobError(f"the request is larger than this server takes ({limit:,} bytes)", 413)
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise JobError(f"the request is larger than this server takes ({limit:,} bytes)", 413)
        chunks.append(chunk)
    return b"".join(chunks)


#: the deepest nesting a request may hold: the answers need a few levels; a request of
#: 500 levels read as JSON but broke the pickling that hands it to a worker (a 500)
MAX_REQUEST_DEPTH = 32


def _arguments(body: bytes, limit: int) -> dict[str, Any]:
    """A request's arguments: its body (at most ``limit`` bytes) read under the one
    strict-JSON policy, so a request nested deeper than :data:`MAX_REQUEST_DEPTH` or
    holding a lone surrogate (``"\\ud800"`` reads as JSON, but is no character: encoding
    it for a spec's hash, or for the answer that quotes it, failed with a 500) is refused
    as any other untrusted JSON is."""
    try:
        args = parse_json(body, JSONPolicy(max_bytes=limit, max_depth=MAX_REQUEST_DEPTH)) if body else {}
    except JSONRefused as e:
        if e.problem == "key":
            raise JobError(f"the request gives {brief(e.key, 40)} twice: give each field once", 422) from None
        if e.problem == "depth":
            raise JobError(f"the request is nested more than {MAX_REQUEST_DEPTH} levels deep", 422) from None
        if e.problem == "surrogate":
            raise JobError(f"the request holds {LONE_SURROGATE_WORDS}: send Unicode text", 422) from None
        raise JobError(f"the request is not JSON text ({e})", 422) from None
    if not isinstance(args, dict):
        raise JobError("the request is a JSON object", 422)
    return args


class Turns:
    """Whose request runs next, and in which worker. Each kind of job (``spec``, ``game``)
    has :data:`WORKERS` workers: a client has at most one request waiting for or running
    in a kind, so one client's slow job holds one worker and the others serve everyone
    else; requests take the free workers first come, first served. A game job prefers the
    worker that last served its game (it holds it built). Waiting holds no thread."""

    def __init__(self, seconds: float, lanes: dict[str, list[Lane]]) -> None:
        self.seconds = seconds
        self.pending: dict[str, int] = {}
        self._free = {kind: list(workers) for kind, workers in lanes.items()}  # the last freed last
        self._waiting: dict[str, deque[asyncio.Future[Lane]]] = {kind: deque() for kind in lanes}
        self._mine: dict[tuple[object, str], asyncio.Lock] = {}  # per event loop (a test may run several)
        self.served: dict[str, Lane] = {}  # the worker that last served each game

    def _lock(self, key: str) -> asyncio.Lock:
        loop = asyncio.get_running_loop()
        lock = self._mine.get((loop, key))
        if lock is None:
            if len(self._mine) > 4096:  # clients gone: their idle locks dropped
                for k in [k for k, v in self._mine.items() if not v.locked()]:
                    del self._mine[k]
            lock = self._mine[(loop, key)] = asyncio.Lock()
        return lock

    async def _take(self, kind: str, prefer: Lane | None) -> Lane:
        free, waiting = self._free[kind], self._waiting[kind]
        if free and not waiting:
            lane = prefer if prefer in free else free[-1]  # the warmest
            free.remove(lane)
            return lane
        handed: asyncio.Future[Lane] = asyncio.get_running_loop().create_future()
        waiting.append(handed)
        try:
            return await handed
        except asyncio.CancelledError:
            if handed.done() and not handed.cancelled():
                self._give(kind, handed.result())  # handed over as it gave up: pass it on
            else:
                waiting.remove(handed)
            raise

    def _give(self, kind: str, lane: Lane) -> None:
        waiting = self._waiting[kind]
        while waiting:
            handed = waiting.popleft()
            if not handed.done():
                handed.set_result(lane)
                return
        self._free[kind].append(lane)

    @asynccontextmanager
    async def turn(self, client: str, kind: str, game: str | None = None) -> AsyncIterator[Lane]:
        """A worker of ``kind`` for ``client``'s request, once its earlier one of that kind
        is answered and a worker is free (503 after a few jobs' time)."""
        wait = 4 * self.seconds
        mine = self._lock(f"{kind} {client}")
        try:
            await asyncio.wait_for(mine.acquire(), wait)
        except TimeoutError:
            raise JobError(f"your earlier {kind} requests are still running; try again", 503) from None
        try:
            try:
                lane = await asyncio.wait_for(self._take(kind, self.served.get(game or "")), wait)
            except TimeoutError:
                raise JobError(f"the server is busy with other users' {kind} jobs; try again", 503) from None
            try:
                yield lane
            finally:
                if game is not None:
                    self.served[game] = lane
                    if len(self.served) > 4096:
                        del self.served[next(iter(self.served))]
                self._give(kind, lane)
        finally:
            mine.release()


def create_app(limits: Limits | None = None, hosts: tuple[str, ...] = ("127.0.0.1", "localhost"),
               games: GameStore | None = None) -> Starlette:
    """The playground; ``hosts`` are the host names requests may give (the one served
    on, and ``localhost``); ``games`` the games in play (a :class:`GameStore` with its
    default quotas)."""
    limits = limits or Limits()
    lanes = {kind: [Lane(kind, limits) for _ in range(WORKERS)] for kind in ("spec", "game")}
    store = games if games is not None else GameStore()
    turns = Turns(limits.seconds, lanes)
    bundled: dict[str, Any] = {}  # the bundled specs' list, asked once

    async def api(request: Request) -> Response:
        job = request.path_params["job"]
        if job not in SPEC_JOBS and job not in GAME_JOBS:
            return _error(f"no such request: {job[:40]!r}", 404)
        if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
            return _error("send the request as application/json", 415)
        client = client_of(request.client)
        if turns.pending.get(client, 0) >= MAX_PENDING:  # before its body is read
            return _error(f"this address has {MAX_PENDING} requests in the server already: wait for "
                          "their answers", 429)
        turns.pending[client] = turns.pending.get(client, 0) + 1
        try:
            return await _answer(job, client, request)
        except JobError as e:
            return _error(e.message, e.status)
        finally:
            turns.pending[client] -= 1
            if not turns.pending[client]:
                del turns.pending[client]

    async def _answer(job: str, client: str, request: Request) -> Response:
        args = _arguments(await _body(request, limits.request_bytes), limits.request_bytes)
        if job == "specs" and bundled:
            return JSONResponse(bundled)
        lane = "spec" if job in SPEC_JOBS else "game"
        saved = None
        if job == "new_game":
            store.admit(client)
        elif lane == "game":
            # none: the worker is told so ({}), after it has checked the request's fields
            saved = store.get(args.get("game")) or {}
        game = str(args["game"]) if saved else None
        async with turns.turn(client, lane, game) as worker:
            result = await run_in_threadpool(worker.call, job, args, saved)
        if job == "new_game" and "game" in result:
            turns.served[str(result["game"])] = worker
        kept = result.pop("saved", None)
        if kept is not None and job == "new_game":
            store.add(str(result["game"]), client, kept)
        elif kept is not None:
            store.update(str(args["game"]), kept)
        if job == "specs":
            bundled.update(result)
        return JSONResponse(result)

    async def index(request: Request) -> Response:
        return HTMLResponse(_page())

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        try:
            yield
        finally:
            for workers in lanes.values():
                for lane in workers:
                    lane.close()

    async def headers(request: Request, call_next: Callable[[Request], Awaitable[Response]]) -> Response:
        response = await call_next(request)
        response.headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "no-referrer"
        response.headers["Cache-Control"] = "no-store"
        return response

    app = Starlette(
        routes=[Route("/", index), Route("/api/{job}", api, methods=["POST"]),
                Mount("/static", StaticFiles(packages=[("ddzrules.web", "static")]), name="static")],
        middleware=[Middleware(TrustedHostMiddleware, allowed_hosts=list(hosts)),
                    Middleware(BaseHTTPMiddleware, dispatch=headers)],
        lifespan=lifespan,
    )
    app.state.lanes, app.state.games = lanes, store
    return app
