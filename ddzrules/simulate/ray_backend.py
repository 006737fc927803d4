"""Simulation on Ray (extra ``ddzrules[ray]``): the games of a run split into tasks by
index range, every game played with the seed and match position it has locally, the
summaries handed back in index order — so the figures are identical to ``--workers 1``
whatever the cluster size. Ray is imported only when this backend is used.

See ``docs/ray.md``.
"""

from __future__ import annotations

import os
import socket
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from ddzrules.errors import DdzError
from ddzrules.runtime import PluginRegistry
from ddzrules.simulate.backends import Run, check_workers, play_span
from ddzrules.simulate.games import GameSummary

#: what a Ray task runs: ``play(*args, start, stop)``, the results of items ``start`` to
#: ``stop - 1`` in order (:func:`ddzrules.simulate.backends.play_span` for a simulation's
#: games; a task pickles it by name)
PlaySpan = Callable[..., list[Any]]

#: seconds allowed to reach a cluster's address before giving up
CONNECT_TIMEOUT = 5.0
#: the most games in one task, and the fewest tasks per CPU (to spread the work and
#: to report progress as tasks finish)
MAX_TASK_GAMES = 250
TASKS_PER_CPU = 4
#: tasks submitted but not yet consumed, per CPU: bounds the driver's memory
IN_FLIGHT_PER_CPU = 4

# per worker process: the rule sets last loaded, keyed by (specs, bots, plugins)


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise DdzError("--backend ray needs Ray: pip install 'ddzrules[ray]'") from None
    return ray


def split_address(address: str) -> tuple[str, int]:
    """``(host, port)`` of ``HOST:PORT`` or ``ray://HOST:PORT``; a :class:`DdzError` for
    anything else. Checked before any work starts, and before Ray is imported, so a typo
    is reported as a typo even where Ray is not installed."""
    target = address.split("://", 1)[1] if "://" in address else address
    host, sep, port = target.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise DdzError(f"--address {address!r}: expected HOST:PORT or ray://HOST:PORT")
    return host.strip("[]"), int(port)


def _check_reachable(address: str, timeout: float = CONNECT_TIMEOUT) -> None:
    """Fail fast (a :class:`DdzError`) when ``address`` (``host:port`` or ``ray://host:port``)
    does not accept a connection within ``timeout`` seconds; ``auto`` is left to Ray."""
    if address in ("auto", "local"):
        return
    host, port = split_address(address)
    try:
        with socket.create_connection((host, port), timeout=timeout):
            pass
    except OSError as e:
        raise DdzError(f"cannot reach the Ray cluster at {address}: {e.strerror or e} "
                       f"(is `ray start --head` running there?)") from None


def task_ranges(games: int, cpus: int) -> list[tuple[int, int]]:
    """The games split into consecutive index ranges ``[start, stop)``: about
    :data:`TASKS_PER_CPU` tasks per CPU, none longer than :data:`MAX_TASK_GAMES`."""
    size = max(1, min(MAX_TASK_GAMES, -(-games // max(1, cpus * TASKS_PER_CPU))))
    return [(start, min(games, start + size)) for start in range(0, games, size)]


@contextmanager
def _bounded_connect(joining: bool) -> Iterator[None]:
    """While joining a cluster: at most about :data:`CONNECT_TIMEOUT` seconds of Ray's
    attempts to reach its GCS (Ray's default is 20), and its C++ retry warnings quiet.
    A variable the user has set is left as it is."""
    wanted = {"RAY_gcs_server_port_wait_time_s": str(int(CONNECT_TIMEOUT)),
              "RAY_BACKEND_LOG_LEVEL": "error"} if joining else {}
    added = [k for k in wanted if k not in os.environ]
    for k in added:
        os.environ[k] = wanted[k]
    saved = None
    if joining:  # the GCS client's retry warnings go to fd 2 from C++: hold them back
        sys.stderr.flush()
        saved = os.dup(2)
        with open(os.devnull, "wb") as null:
            os.dup2(null.fileno(), 2)
    try:
        yield
    finally:
        if saved is not None:
            os.dup2(saved, 2)
            os.close(saved)
        for k in added:
            os.environ.pop(k, None)


def _runtime_env() -> dict[str, Any]:
    """What the workers need from the driver's environment: the ``--plugin`` classes."""
    plugins = os.environ.get(PluginRegistry.ENV)
    return {"env_vars": {PluginRegistry.ENV: plugins}} if plugins else {}


def _spec_path(spec: str) -> str:
    """A spec file as an absolute path (workers may not share the driver's directory)."""
    return os.path.abspath(spec) if os.path.isfile(spec) else spec


def run_ray(specs: Sequence[str], bots: Sequence[Sequence[str]], games: int, seed: int,
            workers: int | None, address: str | None, play: PlaySpan) -> Iterator[list[Any]]:
    """Yield, game index by game index, the summaries of that game under every spec,
    the games played as Ray tasks by ``play(specs, bots, seed, start, stop)``."""
    return map_ray(play, ([_spec_path(s) for s in specs], [list(b) for b in bots], seed), games,
                   workers, address)


def map_ray(play: PlaySpan, args: tuple[Any, ...], count: int, workers: int | None,
            address: str | None) -> Iterator[Any]:
    """Yield ``play(*args, start, stop)``'s results for items ``0`` to ``count - 1`` in
    order, the items split into Ray tasks by index range (``args`` pickled to every
    task). Without ``address`` a local Ray is started with ``workers`` CPUs (default:
    every core) and shut down at the end; with one, that cluster is joined. A Ray
    already initialised in this process is used as it is."""
    ray = _import_ray()
    if address is not None:
        _check_reachable(address)
    started = False
    if not ray.is_initialized():
        options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                                   "logging_level": "ERROR", "runtime_env": _runtime_env()}
        if address is None:
            options["num_cpus"] = workers or os.cpu_count() or 1
        else:
            options["address"] = address
        try:
            with _bounded_connect(address is not None):
                ray.init(**options)
        except Exception as e:  # noqa: BLE001 - Ray's own errors, reported without a traceback
            what = f"join the Ray cluster at {address}" if address else "start a local Ray"
            raise DdzError(f"cannot {what}: {type(e).__name__}: {e}") from None
        started = True
    try:
        yield from _run_tasks(ray, play, args, count)
    finally:
        if started:
            ray.shutdown()


def _run_tasks(ray: Any, play: PlaySpan, args: tuple[Any, ...], count: int) -> Iterator[Any]:
    cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
    remote = ray.remote(num_cpus=1, max_retries=2)(play)
    env = _runtime_env()
    if env:  # a Ray initialised elsewhere: the plugins still reach the workers
        remote = remote.options(runtime_env=env)
    pending_ranges = iter(task_ranges(count, cpus))
    running: dict[Any, int] = {}  # task -> its first game index
    done: dict[int, list[Any]] = {}  # finished tasks not yet handed on, by first index
    next_index = 0
    limit = cpus * IN_FLIGHT_PER_CPU

    def submit() -> None:
        while len(running) + len(done) < limit:
            rng = next(pending_ranges, None)
            if rng is None:
                return
            running[remote.remote(*args, *rng)] = rng[0]

    submit()
    try:
        while running or done:
            if next_index not in done:
                ready, _ = ray.wait(list(running), num_returns=1)
                for ref in ready:
                    done[running.pop(ref)] = _get(ray, ref)
                continue
            rows = done.pop(next_index)
            next_index += len(rows)
            submit()
            yield from rows
    finally:
        for ref in running:
            ray.cancel(ref, force=True)


def _get(ray: Any, ref: Any) -> list[Any]:
    try:
        return list(ray.get(ref))
    except ray.exceptions.RayTaskError as e:
        cause = e.cause if getattr(e, "cause", None) is not None else e
        if isinstance(cause, DdzError):
            raise DdzError(str(cause)) from None
        raise DdzError(f"a Ray task failed: {type(cause).__name__}: {cause}") from None


class RayBackend:
    """``--backend ray``: the games as Ray tasks (``workers``: the CPUs of a local Ray, None
    every core; ``address``: a cluster to join instead)."""

    name = "ray"

    def check(self, workers: int | None, address: str | None) -> None:
        check_workers(workers)

    def run(self, run: Run) -> Iterator[list[GameSummary]]:
        return run_ray(run.specs, run.bots, run.games, run.seed, run.workers, run.address, play_span)

    def map(self, play: PlaySpan, args: tuple[Any, ...], count: int, workers: int | None,
            address: str | None) -> Iterator[Any]:
        return map_ray(play, args, count, workers, address)
