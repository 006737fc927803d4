"""Serving the playground: Hypercorn, with its own timeouts for slow and idle clients.

uvicorn (0.55) has no timeout for a request's headers or body: ``timeout_keep_alive``
runs only between requests, so a connection that never finishes its headers is held for
ever, and about a thousand of them made the playground unreachable. Hypercorn has both,
and they are used here rather than a timeout of our own:

- ``keep_alive_timeout`` (:data:`HEADER_SECONDS`) runs from the moment a connection is
  made, and again after each answer, until a request's headers are all read: a
  connection that does not finish them in time is closed, however it trickles them;
- ``read_timeout`` (:data:`READ_SECONDS`) bounds each read of a request, its body
  included: a client that stops sending is closed;
- ``h11_max_incomplete_size`` bounds the headers' size (16 KiB).

A body trickled just fast enough to pass ``read_timeout`` holds one of its client's few
requests (:data:`ddzrules.web.app.MAX_PENDING`), never another client's.
"""

from __future__ import annotations

import asyncio
import os
import socket
import threading
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from typing import Any

#: seconds a connection may take to send a request's headers (from connecting, or from
#: the last answer on it); an idle connection is closed after as long
HEADER_SECONDS = 10
#: seconds a connection may leave between two reads of a request (its body included)
READ_SECONDS = 10
#: connections waiting to be accepted
BACKLOG = 1024


def config(sock: socket.socket) -> Any:
    """Hypercorn's configuration for serving on ``sock`` (bound, listening or not)."""
    from hypercorn.config import Config

    cfg = Config()
    cfg.bind = [f"fd://{os.dup(sock.fileno())}"]  # its own descriptor: closing either leaves the other
    cfg.keep_alive_timeout = HEADER_SECONDS
    cfg.read_timeout = READ_SECONDS
    cfg.backlog = BACKLOG
    cfg.loglevel = "WARNING"
    cfg.accesslog = None
    cfg.include_server_header = False
    return cfg


def serve(app: Any, sock: socket.socket, shutdown: Callable[[], Awaitable[Any]] | None = None) -> None:
    """Serve ``app`` on ``sock`` until ``shutdown`` returns (by default until SIGINT or
    SIGTERM, when run in the main thread)."""
    from hypercorn.asyncio import serve as hypercorn_serve

    asyncio.run(hypercorn_serve(app, config(sock), shutdown_trigger=shutdown))


@contextmanager
def in_thread(app: Any, host: str = "127.0.0.1") -> Iterator[str]:
    """``app`` served on a free port of ``host`` in a thread, for the duration: its base
    URL (for the browser tests and the load benchmark)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, 0))
    sock.listen(BACKLOG)
    port = sock.getsockname()[1]
    stop: dict[str, asyncio.Event] = {}
    started = threading.Event()

    async def shutdown() -> None:
        stop["event"] = asyncio.Event()
        started.set()
        await stop["event"].wait()

    loop_of: dict[str, asyncio.AbstractEventLoop] = {}

    def run() -> None:
        async def main() -> None:
            from hypercorn.asyncio import serve as hypercorn_serve

            loop_of["loop"] = asyncio.get_running_loop()
            await hypercorn_serve(app, config(sock), shutdown_trigger=shutdown)

        asyncio.run(main())

    thread = threading.Thread(target=run, daemon=True, name="playground-server")
    thread.start()
    if not started.wait(60):
        raise RuntimeError("the playground server did not start")
    try:
        yield f"http://{host}:{port}"
    finally:
        loop_of["loop"].call_soon_threadsafe(stop["event"].set)
        thread.join(30)
        sock.close()
