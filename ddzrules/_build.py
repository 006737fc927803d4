"""What the optional compiled build (docs/compiled.md) needs of the source, and nothing
the pure-Python package does differently."""

from __future__ import annotations

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
