"""Shared fixtures: the bundled variants, compiled once per session, and a private
table cache so that the suite never reads (or writes) the user's ~/.cache."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

import ddzrules
from ddzrules.rules.variant import Variant

# The suite's properties draw the same examples on every run (derandomize), so the README's
# test command and CI are red only for a change of the code, never for a new random draw;
# HYPOTHESIS_PROFILE=explore draws fresh examples each run (benchmarks/fuzz.py runs longer).
settings.register_profile("default", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

REFERENCE = Path(__file__).parent / "reference"


def pytest_configure(config: pytest.Config) -> None:
    """RLCard unzips its data files at its first import; under pytest-xdist two workers
    doing so at once read them half-written. The controller (or a run without xdist)
    imports it first, before any worker starts."""
    if hasattr(config, "workerinput"):
        return
    try:
        import rlcard.games.doudizhu.utils  # noqa: F401
    except ImportError:
        pass


@pytest.fixture(scope="session", autouse=True)
def _private_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    old = os.environ.get("DDZRULES_CACHE_DIR")
    os.environ["DDZRULES_CACHE_DIR"] = str(tmp_path_factory.mktemp("ddzrules-cache"))
    yield
    if old is None:
        os.environ.pop("DDZRULES_CACHE_DIR", None)
    else:
        os.environ["DDZRULES_CACHE_DIR"] = old


@pytest.fixture()
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A table cache of this test's own (so a test may damage it), switched on."""
    d = tmp_path / "cache"
    monkeypatch.setenv("DDZRULES_CACHE_DIR", str(d))
    monkeypatch.delenv("DDZRULES_NO_CACHE", raising=False)
    return d


@pytest.fixture(scope="session")
def hubei(_private_cache: None) -> Variant:
    return ddzrules.load_variant("hubei-3p")


@pytest.fixture(scope="session")
def douzero(_private_cache: None) -> Variant:
    return ddzrules.load_variant("compat/douzero")


@pytest.fixture(scope="session")
def rlcard(_private_cache: None) -> Variant:
    return ddzrules.load_variant("compat/rlcard")


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """For benchmarks/fuzz.py: how many inputs each fuzzing category tried."""
    report = os.environ.get("DDZRULES_FUZZ_REPORT")
    if report:
        from fuzzers import TALLY
        Path(report).write_text(json.dumps(dict(TALLY), indent=1), encoding="utf-8")
