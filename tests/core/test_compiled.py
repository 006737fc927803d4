"""The optional compiled build (docs/compiled.md): ``ddzrules.COMPILED`` tells the truth
about which modules run compiled, and the compiled build behaves as the pure one where
mypyc would otherwise differ. The suite runs against both builds; a CI job of the compiled
build sets ``DDZRULES_EXPECT_COMPILED`` (``1``, or the module names, comma-separated) so it
cannot pass on pure Python by accident."""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import inspect
import os
import pickle
import pkgutil
import types

import pytest

import ddzrules
from ddzrules import cards as C
from ddzrules.bots import make_bot
from ddzrules.runtime import Game, GameRules, MultiplierEvent, PlayerView

#: the modules a compiled build may compile (setup.py's COMPILED_MODULES and the other
#: candidates it was measured against)
CANDIDATES = ("cards", "rules.moves", "game", "records", "bots", "rules.lister", "rules.fast_shape", "rules.variant",
              "rules.wild", "rules.wild_store", "rules.wild_walk", "rules.wild_table", "rules.compiler",
              "rules.shapes", "env")
#: candidates that need an optional extra to import (skipped without it)
NEEDS_EXTRA = {"env": "pettingzoo"}


def _own_functions(module: types.ModuleType) -> list[object]:
    """The functions the module's source defines: at module level, and the named (not
    dunder) methods of its classes."""
    found = []
    for value in vars(module).values():
        if getattr(value, "__module__", None) != module.__name__:
            continue  # imported
        if isinstance(value, type):
            found += [v for k, v in vars(value).items() if callable(v) and not k.startswith("__")]
        elif callable(value):
            found.append(value)
    return found


#: C modules (``ddzrules/speed/name.c``, named as under ``ddzrules``): built by default where a C
#: compiler exists (setup.py),
#: absent in a pure install, and not used under ``DDZRULES_PURE=1``
C_MODULES = ("speed._quick",)


def test_the_flag_is_whether_any_module_is_compiled() -> None:
    assert ddzrules.COMPILED is bool(ddzrules.COMPILED_MODULES)
    assert set(ddzrules.COMPILED_MODULES) <= set(CANDIDATES) | set(C_MODULES)


@pytest.mark.parametrize("name", C_MODULES)
def test_a_c_module_exists_exactly_when_the_flag_says_so(name: str) -> None:
    spec = importlib.util.find_spec(f"ddzrules.{name}")
    assert (spec is not None) is (name in ddzrules.COMPILED_MODULES)
    if spec is not None:
        assert isinstance(spec.loader, importlib.machinery.ExtensionFileLoader)


def _modules_of(name: str) -> list[types.ModuleType]:
    """``ddzrules.name``, or for a subpackage (``runtime``) its modules but ``__init__``."""
    module = importlib.import_module(f"ddzrules.{name}")
    if not hasattr(module, "__path__"):
        return [module]
    return [importlib.import_module(f"{module.__name__}.{info.name}")
            for info in pkgutil.iter_modules(module.__path__)]


@pytest.mark.parametrize("name", CANDIDATES)
def test_a_module_is_compiled_exactly_when_the_flag_says_so(name: str) -> None:
    if name in NEEDS_EXTRA:
        pytest.importorskip(NEEDS_EXTRA[name])
    modules = _modules_of(name)
    assert modules, f"ddzrules.{name} is a package of no modules"
    for module in modules:
        functions = _own_functions(module)
        assert functions, f"{module.__name__} defines no function to tell its build by"
        extension = isinstance(module.__loader__, importlib.machinery.ExtensionFileLoader)
        if name in ddzrules.COMPILED_MODULES:
            assert extension and module.__file__ is not None and not module.__file__.endswith(".py")
            # mypyc's functions are built-in functions, not Python ones
            assert not any(isinstance(f, types.FunctionType) for f in functions)
        else:
            assert not extension and module.__file__ is not None and module.__file__.endswith(".py")
            assert any(isinstance(f, types.FunctionType) for f in functions)


def test_the_build_expected() -> None:
    expected = os.environ.get("DDZRULES_EXPECT_COMPILED", "").strip()
    if not expected:
        pytest.skip("DDZRULES_EXPECT_COMPILED not set: either build will do")
    if expected.lower() in ("0", "no", "false"):
        assert not ddzrules.COMPILED, f"compiled modules found: {ddzrules.COMPILED_MODULES}"
    elif expected.lower() in ("1", "yes", "true"):
        assert ddzrules.COMPILED, "expected the compiled build, running pure Python"
    else:
        assert set(ddzrules.COMPILED_MODULES) == {n.strip() for n in expected.split(",") if n.strip()}


# ---------------------------------------------------------------- where mypyc would differ

def test_an_int_factor_stays_an_int() -> None:
    """mypyc stores a value annotated ``float`` as a C double: 2 would come back 2.0 (and
    records would say ``"factor": 2.0``). Hence ``int | float``."""
    event = MultiplierEvent("bomb", 2, 0)
    assert type(event.factor) is int and event.to_dict()["factor"] == 2
    assert type(MultiplierEvent("x", 1.5).factor) is float


def test_counted_stats_keep_their_type() -> None:
    game = GameRules.load("hubei-3p").new_game(1)
    game.count("robs")
    game.count("robs", 2)
    game.count("beans", 0.5)
    assert type(game.stats["robs"]) is int and game.stats["robs"] == 3
    assert game.stats["beans"] == 0.5


def test_a_view_is_a_python_class_filled_in_on_first_read() -> None:
    """PlayerView is made through its ``__dict__`` and completed by ``__getattr__``: in the
    compiled build it stays an ordinary Python class (runtime._python_class)."""
    game: Game = GameRules.load("hubei-3p").new_game(3)
    bot = make_bot("random", 3)
    while game.phase != "play" or not game.history or game.history[-1].kind != "play":
        seat = game.to_act
        assert seat is not None
        game.apply(bot.act(game.view(seat), game.legal_actions()))
    view = game.view(0)
    assert "_lazy" in vars(view)
    assert len(view.history) == len(game.history) and len(view.played) == game.rules.players
    assert "_lazy" in vars(view)  # the hand, the hand sizes and the kitty are not read yet
    assert view.hand == game.hand_string(0) and view.hand_sizes == list(map(sum, game.hands))
    assert view.kitty == (C.counts_to_string(game.kitty) if game.kitty_visible else None)
    assert "_lazy" not in vars(view)
    # a snapshot: read after the game moves on, a view shows the moment it was made
    while not any(a.kind == "play" for a in game.legal_actions()):  # pass to a seat that can play
        game.apply(game.legal_actions()[-1])
    seat = game.to_act
    assert seat is not None
    before = game.view(seat)
    hand, sizes = game.hand_string(seat), list(map(sum, game.hands))
    game.apply(next(a for a in game.legal_actions() if a.kind == "play"))
    assert before.hand == hand and before.hand_sizes == sizes and game.hand_string(seat) != hand
    copy = pickle.loads(pickle.dumps(game.view(1)))
    assert copy == game.view(1) and inspect.isclass(PlayerView)
