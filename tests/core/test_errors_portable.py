"""Every public error type survives a process boundary (issue 43, left from round 3): a
worker of ``simulate --workers`` that raises one hands it to its parent, which must read it
back. ``PluginError`` could not be unpickled ("missing 2 required positional arguments"):
the pool's result thread died and the run hung. The error types are found, not listed: every
exception class a public module of ``ddzrules`` defines or exports, so a new one is covered
as soon as it exists (a parameter of a kind this test has no sample for fails it, saying so)."""

from __future__ import annotations

import importlib
import inspect
import pickle
import pkgutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import ddzrules
from ddzrules.errors import DdzError, Location, PluginError, Problem, portable
from ddzrules.simulate import backends


def public_error_types() -> list[type[BaseException]]:
    """Every exception class named without a leading underscore in a module of ddzrules
    whose own path has none (a module that needs an extra this machine lacks, such as the
    environment's pettingzoo, is passed over; any other failure to import fails the test)."""
    found: dict[type[BaseException], None] = {}
    for info in pkgutil.walk_packages(ddzrules.__path__, "ddzrules.", onerror=lambda name: None):
        if any(part.startswith("_") for part in info.name.split(".")[1:]):
            continue
        try:
            module = importlib.import_module(info.name)
        except ModuleNotFoundError as e:
            if (e.name or "ddzrules").split(".")[0] == "ddzrules":
                raise
            continue
        for name, value in vars(module).items():
            if (not name.startswith("_") and isinstance(value, type) and issubclass(value, BaseException)
                    and value.__module__.startswith("ddzrules")):
                found[value] = None
    return list(found)


#: a value for each kind of parameter an error's __init__ takes, by its annotation
SAMPLES: dict[str, Any] = {
    "str": "what went wrong \u6597",
    "int": 3,
    "int | None": 4,
    "str | None": "what was refused",
    "float": 2.5,
    "list[Problem]": [Problem(Location("spec.yaml", 3, 5), "combos.x", "bad", "  x: 1\n  ^", code="schema"),
                      Problem(None, "", "also bad", severity="warning")],
    "list[int]": [1, 2],
    "list[Exception]": [PluginError("p", "ddzrules_settle", "raised KeyError"), ValueError("v")],
    "tuple[Any, ...]": ({"obs": [1, 2]}, [0.5, -0.5], [False, True], {}),
}


def made(cls: type[BaseException]) -> BaseException:
    """An instance of ``cls``, each parameter of its __init__ given the sample of its kind."""
    init = cls.__init__
    if init is BaseException.__init__ or init is Exception.__init__:
        return cls("what went wrong")
    params = list(inspect.signature(init).parameters.values())[1:]
    if all(p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in params):
        return cls("what went wrong")
    args = []
    for p in params:
        if p.annotation not in SAMPLES:
            pytest.fail(f"{cls.__qualname__}.__init__ takes {p.name}: {p.annotation}; give SAMPLES a value "
                        "of that kind")
        args.append(SAMPLES[p.annotation])
    return cls(*args)


def same(a: BaseException, b: BaseException) -> None:
    assert type(a) is type(b)
    assert str(a) == str(b)
    assert a.args == b.args or repr(a.args) == repr(b.args)
    assert {k: repr(v) for k, v in vars(a).items()} == {k: repr(v) for k, v in vars(b).items()}


def test_the_error_types_are_found() -> None:
    names = {cls.__name__ for cls in public_error_types()}
    # a floor, so that a search that found nothing cannot pass: the types round 3 named
    assert {"PluginError", "SpecError", "CardError", "TableError", "JobError", "DdzError"} <= names


@pytest.mark.parametrize("cls", public_error_types(), ids=lambda c: f"{c.__module__}.{c.__qualname__}")
def test_every_public_error_type_survives_pickling(cls: type[BaseException]) -> None:
    error = made(cls)
    for protocol in range(2, pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(error, protocol))
        same(error, back)
        same(back, pickle.loads(pickle.dumps(back, protocol)))
    assert portable(error) is error


class Unpicklable(Exception):
    """What a plugin may raise: an error whose __init__ its args cannot call again."""

    def __init__(self, a: int, b: int) -> None:
        super().__init__(f"{a} and {b}\x1b[31m")


def test_an_error_that_does_not_pickle_is_made_one_that_does() -> None:
    with pytest.raises(TypeError):
        pickle.loads(pickle.dumps(Unpicklable(1, 2)))
    got = portable(Unpicklable(1, 2))
    assert isinstance(got, DdzError)
    assert str(got) == "Unpicklable: 1 and 2\\x1b[31m"
    same(got, pickle.loads(pickle.dumps(got)))


def test_a_pool_worker_whose_set_up_fails_raises_in_its_tasks(monkeypatch: pytest.MonkeyPatch) -> None:
    # an initializer that raises makes multiprocessing start another worker, for ever
    monkeypatch.setattr(backends, "_init_failure", None)
    monkeypatch.setattr(backends, "_worker_sets", [])
    backends._init_pool_worker(["no-such-spec-anywhere"], [["random"] * 3])
    assert backends._init_failure is not None
    with pytest.raises(DdzError, match="no-such-spec-anywhere"):
        backends._pool_play_index((0, 0))


PLUGIN = """
from ddzrules.hookspecs import hookimpl


class Boom:
    name = "boom"

    def __init__(self, params):
        pass

    @hookimpl
    def ddzrules_on_play(self, game, seat, move, led):
        raise RuntimeError("boom")
"""


def test_a_plugin_failing_in_a_worker_ends_the_run_with_its_message(tmp_path: Path) -> None:
    (tmp_path / "boom.py").write_text(PLUGIN, encoding="utf-8")
    (tmp_path / "boom.yaml").write_text("name: boomy\nextends: hubei-3p\ngame:\n  multipliers: [{plugin: boom}]\n",
                                        encoding="utf-8")
    # it hung: the timeout is the test's failure, never reached by a run that ends
    done = subprocess.run([sys.executable, "-m", "ddzrules", "simulate", "boom.yaml", "--games", "8",
                           "--workers", "2", "--plugin", "boom.py:Boom"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 1, done.stderr
    assert "plugin 'boom', ddzrules_on_play: raised RuntimeError: boom" in done.stderr + done.stdout
    assert "Traceback" not in done.stderr


def _raises_unpicklable(a: int, start: int, stop: int) -> list[Any]:
    raise Unpicklable(a, start)


def test_a_map_task_hands_over_what_it_raises_as_it_unpickles() -> None:
    # duel --workers runs its deals through LocalBackend.map, one _map_item a task
    with pytest.raises(DdzError, match="Unpicklable: 7 and 0") as got:
        backends._map_item((_raises_unpicklable, (7,), 0))
    same(got.value, pickle.loads(pickle.dumps(got.value)))
