"""The fuzzers shared by the test suite and the longer run in ``benchmarks/fuzz.py``.

In the suite each fuzzer tries a few hundred inputs so that CI stays fast; the longer
run sets ``DDZRULES_FUZZ_SCALE`` (a multiplier of every fuzzer's example count) and
``DDZRULES_FUZZ_REPORT`` (a JSON file that receives the number of inputs each category
tried, written when the session ends by ``conftest.py``).

Every fuzzer asserts the same contract: bad input is refused with a
:class:`~ddzrules.errors.DdzError` (a message, exit 1 from the CLI), never another
exception, a hang or a change of state.
"""

from __future__ import annotations

import os
import signal
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import fields, is_dataclass
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

#: multiplier of every fuzzer's example count (1 in the suite)
SCALE = float(os.environ.get("DDZRULES_FUZZ_SCALE", "1"))
#: inputs tried per category in this session
TALLY: Counter[str] = Counter()
#: seconds one call may take before it counts as a hang (the issue's bound; a hang
#: detector, not a speed test: a normal call takes milliseconds)
CALL_LIMIT_SECONDS = 20


def fuzz_settings(examples: int) -> settings:
    """Hypothesis settings for a fuzzer that tries ``examples`` inputs in the suite.

    The suite's runs are derandomized (the same inputs on every run, so CI cannot
    flake); the longer run draws fresh inputs.
    """
    return settings(max_examples=max(1, int(examples * SCALE)), deadline=None,
                    derandomize=SCALE == 1, database=None,
                    suppress_health_check=list(HealthCheck))


def tally(category: str) -> None:
    TALLY[category] += 1


@contextmanager
def bounded(what: str, seconds: int = CALL_LIMIT_SECONDS) -> Iterator[None]:
    """Fail (instead of hanging the suite) when the block runs past ``seconds``: a guard
    against hangs, not a timing (the guarded calls take milliseconds)."""
    def expire(signum: int, frame: Any) -> None:
        raise AssertionError(f"{what} ran past {seconds} s")
    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


# ---------------------------------------------------------------- card strings
#: the characters a card string is made of, its separators, and the troublemakers
CARD_CHARS = "3456789TJQKA2XDtjqkaxd10 +,-/、，小大王"
HOSTILE_CHARS = "\x00\x1b[31m\n\r\t\x7f\u202e\ufeff😀Ａ"


def card_texts() -> st.SearchStrategy[str]:
    """Card strings near the notation (most are valid or almost) and arbitrary text."""
    near = st.text(alphabet=st.sampled_from(CARD_CHARS + HOSTILE_CHARS), max_size=40)
    many_of_a_rank = st.builds(lambda ch, n: ch * n, st.sampled_from("3A2XD"), st.integers(1, 40))
    return st.one_of(near, near, many_of_a_rank, st.text(max_size=30))


# ---------------------------------------------------------------- state snapshots
_SKIP = frozenset({"rules", "variant", "legal_cache", "hook", "registry", "shared"})  # shared: the rules'


def snapshot(obj: Any, depth: int = 0) -> Any:
    """A comparable copy of an object's whole state (for "a rejected action changes
    nothing"): containers and plain objects recursively, values as they are."""
    if depth > 12:
        return repr(obj)
    if isinstance(obj, (str, int, float, bool, type(None), bytes)):
        return obj
    if isinstance(obj, dict):
        return {repr(k): snapshot(v, depth + 1) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [snapshot(v, depth + 1) for v in obj]
    if isinstance(obj, (set, frozenset)):
        return sorted(repr(v) for v in obj)
    if hasattr(obj, "getstate") and callable(obj.getstate):  # random.Random
        return obj.getstate()
    if is_dataclass(obj) and obj.__dataclass_params__.frozen:
        return repr(obj)  # immutable value (Move, Action): its repr is its state
    if hasattr(obj, "__dict__") or is_dataclass(obj):
        names = ([f.name for f in fields(obj)] if is_dataclass(obj) else list(vars(obj)))
        return {n: snapshot(getattr(obj, n), depth + 1) for n in names
                if n not in _SKIP and not callable(getattr(obj, n))}
    return repr(obj)
