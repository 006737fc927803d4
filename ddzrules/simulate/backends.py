"""Where the games of a run are played: the :class:`Backend` protocol, the registry of
backends by name (:data:`BACKENDS`; ``local`` and ``ray`` are registered as a third party's
backend would be, by :func:`register_backend`), and the local backend, worker processes of
this machine. A backend yields, game index by game index, the summaries of that game under
every rule set; the figures do not depend on which backend played them."""

from __future__ import annotations

import os
import signal
import threading
from collections import Counter
from collections.abc import Callable, Generator, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Protocol

from ddzrules.bots import make_bot
from ddzrules.errors import brief, portable
from ddzrules.runtime import GameRules, MatchInfo, PluginRegistry
from ddzrules.simulate.games import GameSummary, game_seed, play_game, prelude_cards, summarise

#: worker processes per CPU this process may use: past the cores more processes only
#: cost memory (each loads the rule sets and their tables) and start-up time; a little
#: above one per core still helps while other jobs share the machine
WORKERS_PER_CPU = 4
#: the most worker processes of a run on any machine
MAX_WORKERS = 256


def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity, where the platform says)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # not Linux
        return max(1, os.cpu_count() or 1)


def worker_limit() -> int:
    """The most ``workers`` a run may ask for here: :data:`WORKERS_PER_CPU` per usable
    CPU, at most :data:`MAX_WORKERS`. The one cap of every command that takes
    ``--workers`` (simulate, diff) and of :func:`compare_specs`."""
    return min(MAX_WORKERS, WORKERS_PER_CPU * usable_cpus())


def check_workers(workers: int | None, option: str = "workers") -> None:
    """A ValueError when ``workers`` (None: the default) is below 1 or above
    :func:`worker_limit`: refused, never quietly lowered."""
    if workers is None:
        return
    limit = worker_limit()
    if isinstance(workers, bool) or not isinstance(workers, int) or not 1 <= workers <= limit:
        raise ValueError(f"{option} must be between 1 and {limit} ({WORKERS_PER_CPU} per CPU of the "
                         f"{usable_cpus()} this process may use, at most {MAX_WORKERS}), not {brief(workers)}")


# per-process state of the worker pool: (rules, bot kind per seat) per rule set
_worker_sets: list[tuple[GameRules, list[str]]] = []
#: what a pool worker's initializer raised: each of its tasks raises it (an initializer
#: that raises makes the pool start another worker, for ever, and the run hangs)
_init_failure: BaseException | None = None


def _init_worker(specs: Sequence[str], bots: Sequence[Sequence[str]],
                 loaded: Sequence[GameRules] | None = None) -> None:
    """Load the rule sets (or take those already ``loaded`` in this process)."""
    global _worker_sets
    rules = list(loaded) if loaded is not None else [GameRules.load(spec) for spec in specs]
    _worker_sets = [(r, list(kinds)) for r, kinds in zip(rules, bots)]


def _init_pool_worker(specs: Sequence[str], bots: Sequence[Sequence[str]]) -> None:
    """A pool worker: Ctrl-C is the parent's to handle (it terminates the pool), so a
    worker ignores SIGINT instead of printing its own KeyboardInterrupt traceback."""
    global _init_failure
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        _init_worker(specs, bots)
    except Exception as e:  # noqa: BLE001 - raised again by every task, in the parent
        _init_failure = portable(e)


@contextmanager
def _sigint_ignored() -> Iterator[None]:
    """SIGINT ignored in this process while the pool's workers start: an ignored signal
    stays ignored across exec, and Python keeps it so, so a worker cannot be interrupted
    while it imports, before its initializer runs. (Only the main thread can set it.)"""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _play_index(args: tuple[int, int]) -> list[GameSummary]:
    """Game ``index`` of a run seeded ``seed``, under every rule set of the worker:
    same game seed, same match position, same bots seeded the same way."""
    seed, index = args
    gseed = game_seed(seed, index)
    out = []
    for rules, kinds in _worker_sets:
        agents = [make_bot(kind, gseed + 101 * (i + 1)) for i, kind in enumerate(kinds)]
        chances: Counter[str] = Counter()
        game = play_game(rules, agents, gseed, MatchInfo(index, seed, previous_cards=prelude_cards(
            rules, kinds, gseed, MatchInfo(index, seed))), chances=chances)
        out.append(summarise(game, index, chances))
    return out


def _pool_play_index(args: tuple[int, int]) -> list[GameSummary]:
    """:func:`_play_index` in a pool worker: what it raises reaches the parent, which raises
    it again (an error that does not unpickle there stops the pool's result thread, and the
    run waited for ever), as :func:`~ddzrules.errors.portable` makes it."""
    if _init_failure is not None:
        raise _init_failure
    try:
        return _play_index(args)
    except Exception as e:  # noqa: BLE001 - anything a game raised: handed to the parent
        raise portable(e) from None


#: the rule sets of :func:`play_span` in this process, by (specs, bots, plugins)
_span_sets: dict[tuple[Any, ...], list[tuple[GameRules, list[str]]]] = {}


def play_span(specs: Sequence[str], bots: Sequence[Sequence[str]], seed: int, start: int,
              stop: int) -> list[list[GameSummary]]:
    """The summaries of games ``start`` to ``stop - 1`` of a run seeded ``seed`` under every
    spec: a remote worker's task (:mod:`ddzrules.simulate.ray_backend`). The rules are
    loaded once a process for the same specs, bots and plugins (``DDZRULES_PLUGINS``)."""
    try:
        return _play_span(specs, bots, seed, start, stop)
    except Exception as e:  # noqa: BLE001 - what reaches the caller must unpickle there (see _pool_play_index)
        raise portable(e) from None


def _play_span(specs: Sequence[str], bots: Sequence[Sequence[str]], seed: int, start: int,
               stop: int) -> list[list[GameSummary]]:
    global _worker_sets
    key = (tuple(specs), tuple(tuple(b) for b in bots), os.environ.get(PluginRegistry.ENV))
    if key not in _span_sets:
        _span_sets.clear()
        _init_worker(specs, bots)
        _span_sets[key] = list(_worker_sets)
    _worker_sets = _span_sets[key]
    return [_play_index((seed, i)) for i in range(start, stop)]


@dataclass(frozen=True)
class Run:
    """The games a backend plays: games ``0`` to ``games - 1`` of a run seeded ``seed``, each
    under every spec of ``specs`` with the bots of ``bots`` (one list per spec, a bot per
    seat). ``workers`` and ``address`` are the backend's to read (``--workers``,
    ``--address``); ``loaded`` the specs' rules already loaded in this process, if any."""

    specs: tuple[str, ...]
    bots: tuple[tuple[str, ...], ...]
    games: int
    seed: int
    workers: int | None = None
    address: str | None = None
    loaded: tuple[GameRules, ...] | None = None


class Backend(Protocol):
    """Where games are played. ``run`` yields, in game index order, one list per game: the
    :class:`~ddzrules.simulate.games.GameSummary` of that game under each spec, in order.
    It must play game ``i`` as :func:`play_span` does (same seeds, same match position),
    so that the figures do not depend on the backend; a failure is a DdzError saying what
    went wrong. ``check`` refuses, with a ValueError, options it cannot use, before any
    game is played.

    ``map`` is the same service for any work split by index (a duel's deals): it yields
    ``play(*args, start, stop)``'s results for items ``0`` to ``count - 1`` in index
    order, ``play`` a module-level function (workers import it by name) that returns the
    results of items ``start`` to ``stop - 1``."""

    name: str

    def check(self, workers: int | None, address: str | None) -> None: ...

    def run(self, run: Run) -> Iterator[list[GameSummary]]: ...

    def map(self, play: Callable[..., list[Any]], args: tuple[Any, ...], count: int,
            workers: int | None, address: str | None) -> Iterator[Any]: ...


#: the backends by name (``--backend NAME``), in the order they were registered
BACKENDS: dict[str, Backend] = {}


def register_backend(backend: Backend) -> None:
    """Make ``backend`` available by its name (a ValueError if the name is taken)."""
    if backend.name in BACKENDS:
        raise ValueError(f"a backend named {backend.name!r} is registered already")
    BACKENDS[backend.name] = backend


def get_backend(name: str) -> Backend:
    """The backend registered as ``name``; a ValueError naming those there are otherwise."""
    try:
        return BACKENDS[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown backend {brief(name)}; choose from {', '.join(BACKENDS)}") from None


class LocalBackend:
    """Worker processes of this machine (``workers`` of them, None: one, which plays in
    this process); a pool stopped however the run ends."""

    name = "local"

    def check(self, workers: int | None, address: str | None) -> None:
        check_workers(workers)
        if address is not None:
            raise ValueError("an address is for the ray backend only")

    def run(self, run: Run) -> Generator[list[GameSummary], None, None]:
        check_workers(run.workers)
        workers = min(run.workers or 1, run.games)  # never a process without a game to play
        # made as the pool takes them: no list of every game
        jobs = ((run.seed, i) for i in range(run.games))
        if workers <= 1:
            _init_worker(run.specs, run.bots, run.loaded)
            for job in jobs:
                yield _play_index(job)
            return
        import multiprocessing as mp

        ctx = mp.get_context("spawn")
        initargs = (list(run.specs), [list(b) for b in run.bots])
        chunksize = max(1, min(64, run.games // (workers * 8) or 1))
        with _sigint_ignored():
            pool = ctx.Pool(workers, initializer=_init_pool_worker, initargs=initargs)
        # however the run ends — finished, an error, Ctrl-C or SIGTERM raised in this
        # process, or the consumer dropping this generator — the workers are stopped
        try:
            yield from pool.imap(_pool_play_index, jobs, chunksize=chunksize)
        finally:
            pool.terminate()
            pool.join()

    def map(self, play: Callable[..., list[Any]], args: tuple[Any, ...], count: int,
            workers: int | None, address: str | None) -> Generator[Any, None, None]:
        check_workers(workers)
        workers = min(workers or 1, count)
        if workers <= 1:
            for i in range(count):
                yield from play(*args, i, i + 1)
            return
        import multiprocessing as mp

        with _sigint_ignored():
            pool = mp.get_context("spawn").Pool(workers, initializer=signal.signal,
                                                initargs=(signal.SIGINT, signal.SIG_IGN))
        jobs = ((play, args, i) for i in range(count))
        try:
            # an item a task: an item (a deal) is several games, so the round trip is small
            # beside it, and a result reaches the caller (a duel's record) as it finishes,
            # not with a chunk of others
            for results in pool.imap(_map_item, jobs, chunksize=1):
                yield from results
        finally:
            pool.terminate()
            pool.join()


def _map_item(job: tuple[Callable[..., list[Any]], tuple[Any, ...], int]) -> list[Any]:
    """One item of :meth:`LocalBackend.map` in a pool worker."""
    play, args, i = job
    try:
        return play(*args, i, i + 1)
    except Exception as e:  # noqa: BLE001 - what reaches the parent must unpickle there (see _pool_play_index)
        raise portable(e) from None
