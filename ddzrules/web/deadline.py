"""Time bounds checked inside the work: a job, or a bot's decision in it, stops itself.

Counting rollouts does not bound time (a rollout costs what the spec's games cost: a
three-deck spec's are many times a Dou Dizhu one's), and a worker ended from outside
takes with it whatever it held. So a worker arms a timer (``SIGALRM``, checked by the
interpreter between any two steps of the work, enumerations and rollouts included) for
each job, and a bot's decision runs under a shorter one nested in it: :class:`OverTime`
is raised where the work stands when its bound passes, and the code that set the bound
decides what follows (the job answers that it was stopped; a decision falls back to a
cheap one). Nested bounds never extend an outer one.

What an interrupted step leaves is safe to keep: the runtime's and the matcher's caches
assign a value only once it is whole, and the games in play are rebuilt from their
actions (:mod:`ddzrules.web.games`), never from a half-applied state.

Only the main thread of a process can take signals: elsewhere (a test's thread) the bounds
are not armed and the work runs unbounded, as it did before.
"""

from __future__ import annotations

import math
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from ddzrules.errors import OverTime as OverTime  # noqa: PLC0414 - re-exported: raised here

_ends: list[float] = []  # the bounds in force, innermost last (each at most its outer one)


#: seconds after which the timer fires again, should its OverTime be lost: raised inside a
#: garbage-collection callback or a ``__del__``, Python prints it and carries on
REFIRE = 0.05


def _fire(signum: int, frame: object) -> None:
    if _ends:  # again soon, unless the bound's own exit clears the timer first
        signal.setitimer(signal.ITIMER_REAL, REFIRE)
    raise OverTime(_ends[-1] if _ends else math.inf)


def _arm() -> None:
    """The timer set for the innermost bound (at once if it has passed), or cleared."""
    if not _ends:
        signal.setitimer(signal.ITIMER_REAL, 0)
        return
    signal.setitimer(signal.ITIMER_REAL, max(_ends[-1] - time.monotonic(), 1e-4))


def armed() -> bool:
    """Whether bounds can be armed here (the main thread; a system with ``SIGALRM``)."""
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


def remaining() -> float:
    """Seconds left of the innermost bound (infinite with none)."""
    return _ends[-1] - time.monotonic() if _ends else math.inf


@contextmanager
def bound(seconds: float) -> Iterator[float]:
    """Run the block within ``seconds`` (and within every bound outside it): past it,
    :class:`OverTime` is raised inside the block, its ``end`` this bound's (yielded).
    Not armed where :func:`armed` is false."""
    end = time.monotonic() + seconds
    if _ends:
        end = min(end, _ends[-1])
    if not armed():
        yield end
        return
    if not _ends:
        signal.signal(signal.SIGALRM, _fire)
    _ends.append(end)
    try:
        _arm()
        yield end
    finally:
        _ends.pop()
        _arm()  # the outer bound again, or none
