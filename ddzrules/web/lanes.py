"""Worker processes with a bound on each job's time and memory.

A lane is one worker process that runs the jobs of :mod:`ddzrules.web.jobs` one at a time.
The server sends a job's name and arguments down a pipe; the job stops itself at the time
bound (:mod:`ddzrules.web.deadline`, checked inside the work), and a job that has not
answered a little later is stopped by ending the process (Python cannot stop a thread);
the next job then starts a fresh one. The worker limits its own address
space (``RLIMIT_AS``), so a job that wants more memory fails with a clear message instead
of swapping the machine. The worker works in a private temporary directory of its own
(the editor's text is written there), removed however it ends: the worker turns the
``SIGTERM`` that stops it into a normal exit and removes it itself, and the server, which
made it, removes it again once the process is gone (a worker killed with ``SIGKILL``, or
by the system for its memory, removes nothing itself).

The playground has two lanes: ``spec`` (validation, census, sheets, diff, replay …) and
``game``. Neither holds anything that a stopped job could take with it: the games in play
are kept by the server as their actions (:mod:`ddzrules.web.games`), and a game worker
only holds them built, as a cache it can build again.
"""

from __future__ import annotations

import multiprocessing
import os
import shutil
import signal
import sys
import tempfile
import threading
import traceback
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

from ddzrules.errors import JobError as JobError  # noqa: PLC0414 - re-exported for the app
from ddzrules.errors import Stopped


@dataclass(frozen=True)
class Limits:
    """The bounds of one job: wall time in seconds, the worker's memory in MiB, and the
    largest request body in bytes."""

    seconds: float = 30.0
    memory_mb: int = 4096
    request_bytes: int = 2 * 2**20


class _Stopped(Stopped):
    """Raised in the worker by ``SIGTERM``: not an :class:`Exception` (no job's handler
    catches it), and a :class:`~ddzrules.errors.Stopped`, which calls into plugin code let
    through (they make a plugin's own SystemExit a PluginError)."""


def _stopped(signum: int, frame: object) -> None:
    raise _Stopped


def _worker(conn: Connection, memory_mb: int, home: str) -> None:
    """The worker process: :func:`_serve` in ``home`` (made by the server), then ``home``
    removed, however the loop ended but by ``SIGKILL``."""
    # first: SIGTERM's default action ends the process without running the finally below
    signal.signal(signal.SIGTERM, _stopped)
    try:
        try:
            _serve(conn, memory_mb, home)
        finally:
            signal.signal(signal.SIGTERM, signal.SIG_IGN)  # a second SIGTERM must not cut the removal short
            os.chdir("/")
            shutil.rmtree(home, ignore_errors=True)
    except _Stopped:
        pass  # the server stopped this worker (a job over its time, or shutting down)


def _serve(conn: Connection, memory_mb: int, home: str) -> None:
    """The worker's loop: one job at a time, each answered ("ok", result) or ("error",
    message, status)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the server's to handle
    try:
        import resource

        limit = memory_mb * 2**20
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    except (ImportError, ValueError, OSError):  # pragma: no cover - not on every system
        pass
    os.chdir(home)
    from ddzrules.errors import DdzError
    from ddzrules.web import deadline
    from ddzrules.web.jobs import run

    conn.send(("ready",))  # started and imported: a job's time bound starts after this
    while True:
        try:
            name, args, saved, seconds = conn.recv()
        except EOFError:
            return
        try:
            # the job stops itself at its bound (checked inside the work); the server ends
            # this process only if it does not (a step that never returns to Python)
            with deadline.bound(seconds):
                answer = run(name, args, saved)
            conn.send(("ok", answer))
        except deadline.OverTime:
            conn.send(("error", (f"{name} took longer than {seconds:g} s, this server's bound (--time-limit): "
                                "stopped; nothing of it was kept (a game is as it was before)"), 503))
        except JobError as e:
            conn.send(("error", _clean(e.message, home), e.status))
        except DdzError as e:
            conn.send(("error", _clean(str(e), home), 422))
        except OSError as e:  # the system's (a full disk, no file handles): not the request's
            conn.send(("error", (f"{name}: the server's system failed it ({e.strerror or type(e).__name__}); "
                                "try again, or tell whoever runs the server"), 503))
        except MemoryError:
            conn.send(("error", (f"the job needed more memory than this server allows "
                                 f"({memory_mb} MiB, --memory-limit)"), 503))
        except RecursionError:
            conn.send(("error", "the input is nested too deeply", 422))
        except Exception as e:  # noqa: BLE001 - a fault of ours: logged for the developer, not echoed
            traceback.print_exc(file=sys.stderr)
            conn.send(("error", f"internal error ({type(e).__name__}) in {name}: see the server's log", 500))


def _clean(message: str, home: str) -> str:
    """A message with the worker's private directory taken out of file names."""
    return message.replace(home + os.sep, "").replace(home, ".")


#: how long a new worker process may take to start and import the package
STARTUP_SECONDS = 60
#: how long past its bound a job that has not stopped itself is waited for before its
#: worker is ended (a step that does not return to Python, such as one long C call)
GRACE_SECONDS = 2.0


class Lane:
    """One worker process; :meth:`call` runs a job in it within the time bound."""

    def __init__(self, name: str, limits: Limits) -> None:
        self.name, self.limits = name, limits
        self._lock = threading.Lock()
        self._process: Any = None
        self._conn: Connection | None = None
        self._home: str | None = None  # the worker's private directory, removed by _stop

    @property
    def home(self) -> str | None:
        """The private directory of the worker running now (None when none is)."""
        return self._home

    def _start(self) -> Connection:
        if self._conn is not None and self._process is not None and self._process.is_alive():
            return self._conn
        self._stop()  # a worker that ended by itself (killed for its memory): its directory goes too
        context = multiprocessing.get_context("spawn")  # no fork of a threaded server
        parent, child = context.Pipe()
        # made here, not in the worker, so that it is removed even if the worker is killed
        try:
            home = tempfile.mkdtemp(prefix="ddzrules-playground-")
        except OSError as e:  # a full or read-only temporary disk
            raise JobError(f"the {self.name} worker could not make its temporary directory "
                           f"({e.strerror or type(e).__name__}); whoever runs the server can free space "
                           "there", 507) from None
        process = context.Process(target=_worker, args=(child, self.limits.memory_mb, home),
                                  name=f"ddzrules-{self.name}", daemon=True)
        try:
            process.start()
        except OSError as e:  # no process to be had (a limit on processes, no memory)
            parent.close()
            shutil.rmtree(home, ignore_errors=True)
            raise JobError(f"the {self.name} worker did not start ({e.strerror or e})", 503) from None
        finally:
            child.close()
        self._process, self._conn, self._home = process, parent, home
        # a fresh interpreter importing the package: its time is not the first job's
        try:
            ready = parent.poll(STARTUP_SECONDS) and parent.recv() == ("ready",)
        except (EOFError, OSError):
            ready = False
        if not ready:
            self._stop()
            raise JobError(f"the {self.name} worker did not start (within {STARTUP_SECONDS} s; "
                           "the server's log says why if it failed)", 503)
        return parent

    def _stop(self) -> None:
        """Ends the worker (SIGTERM, which it turns into a normal exit; SIGKILL if it is
        still running 2 s later) and removes its directory, whatever it left there."""
        process, self._process, conn, self._conn = self._process, None, self._conn, None
        home, self._home = self._home, None
        if conn is not None:
            conn.close()
        if process is not None:
            process.terminate()
            process.join(2)
            if process.is_alive():
                process.kill()
                process.join(2)
        if home is not None:
            shutil.rmtree(home, ignore_errors=True)

    def close(self) -> None:
        with self._lock:
            self._stop()

    def call(self, job: str, args: dict[str, Any], saved: dict[str, Any] | None = None) -> dict[str, Any]:
        """The job's answer; :class:`JobError` when it failed or ran over the bound. The job
        stops itself at the bound (:mod:`ddzrules.web.deadline`); one that has not answered
        :data:`GRACE_SECONDS` later is stopped by ending the worker. ``saved``: the game a
        game job is about, as the server keeps it (nothing of it lives only in the worker)."""
        seconds = self.limits.seconds
        if not self._lock.acquire(timeout=seconds):
            raise JobError(f"the server is busy with another {self.name} job; try again", 503)
        try:
            conn = self._start()
            try:
                conn.send((job, args, saved, seconds))
                ready = conn.poll(seconds + GRACE_SECONDS)
                answer = conn.recv() if ready else None
            except (EOFError, OSError, BrokenPipeError):
                self._stop()
                raise JobError(f"the {self.name} worker ended during {job} (out of memory?); it is "
                               "started again for the next request", 503) from None
            if answer is None:
                self._stop()
                raise JobError(f"{job} took longer than {seconds:g} s, this server's bound (--time-limit): "
                               "stopped; nothing of it was kept (a game is as it was before)", 503)
        finally:
            self._lock.release()
        if answer[0] == "ok":
            result: dict[str, Any] = answer[1]
            return result
        raise JobError(answer[1], answer[2])
