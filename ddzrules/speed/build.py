"""What the C kernels and the optional compiled build (docs/compiled.md) need of the source,
and nothing the pure-Python package does differently."""

from __future__ import annotations

import os
import sys
from typing import TypeVar

_T = TypeVar("_T", bound=type)


def python_class(cls: _T) -> _T:
    """Keep ``cls`` an ordinary Python class when its module is compiled with mypyc.

    mypyc turns the classes it compiles into native classes: attributes in fixed slots,
    no ``__dict__``, no ``object.__new__(cls)``, every field type-checked when set. It
    leaves a class with a decorator it does not know a Python class, which is all this
    decorator is for: it returns ``cls`` unchanged. Mark a class that is made through
    its ``__dict__``, by ``object.__new__`` or by its slots' setters, or that callers may
    build with values of other types than its annotations say.
    """
    return cls


#: the C kernels (``ddzrules/speed/_quick.c``), built by default where a C compiler exists, by
#: their names under ``ddzrules`` (as setup.py and ``ddzrules.COMPILED_MODULES`` name them)
KERNELS = ("speed._quick",)


def pure_requested() -> bool:
    """Whether ``DDZRULES_PURE`` asks for pure Python: the C kernels, though built, are not
    used (mypyc-compiled modules, which replace their ``.py``, still are). The pure path is
    tested in full on a build that has the kernels this way, and answers the same."""
    return os.environ.get("DDZRULES_PURE", "").strip().lower() not in ("", "0", "no", "false")


def switch_off_kernels() -> None:
    """With ``DDZRULES_PURE`` set, make every ``from ddzrules.speed._quick import ...`` fail
    with ImportError (a ``None`` in ``sys.modules`` does: the import system's own switch),
    so each module's pure fallback runs. Called once, first thing in ``ddzrules``."""
    if pure_requested():
        for name in KERNELS:
            sys.modules.setdefault(f"ddzrules.{name}", None)  # type: ignore[arg-type]
