"""ddzrules: the rules of Dou Dizhu (斗地主) and its regional variants, as data.

>>> import ddzrules
>>> v = ddzrules.load_variant("hubei-3p")
>>> v.beats("XD", "2222")
True
"""

from ddzrules.speed.build import switch_off_kernels

switch_off_kernels()  # DDZRULES_PURE=1: before any module imports the C kernels

from ddzrules.cards import Counts, Ranks, parse_cards
from ddzrules.errors import DdzError, PlayError, SpecError
from ddzrules.rules.moves import LegalMoves, Move
from ddzrules.rules.variant import Census, Comparison, Variant, load_variant
from ddzrules.spec import load_spec

__all__ = [
    "BUILD", "COMPILED", "COMPILED_MODULES", "Census", "Comparison", "Counts", "DdzError", "LegalMoves", "Move",
    "PlayError", "Ranks", "SpecError", "Variant",
    "load_spec", "load_variant", "parse_cards",
]
__version__ = "0.2.0"


def _compiled_modules() -> tuple[str, ...]:
    """The modules of this package that are extension modules beside their ``.py`` (the
    compiled build, docs/compiled.md: Python imports those in place of the source) or
    their ``.c`` (C kernels the pure build does without), as setup.py's COMPILED_MODULES
    names them: a subpackage (``runtime``) when all its modules but ``__init__`` are
    compiled, else each compiled one of them (``runtime.plays``)."""
    import importlib.machinery
    import os
    import sys

    here = os.path.dirname(os.path.abspath(__file__))

    def compiled_in(folder: str) -> tuple[set[str], set[str]]:
        """(the compiled modules, every module) of one folder, by stem."""
        names = os.listdir(folder)
        compiled = set()
        for filename in names:
            for suffix in importlib.machinery.EXTENSION_SUFFIXES:
                stem = filename.removesuffix(suffix)
                if stem != filename and "__mypyc" not in stem and any(
                        os.path.isfile(os.path.join(folder, stem + source)) for source in (".py", ".c")):
                    compiled.add(stem)
        return compiled, {n[:-3] for n in names if n.endswith(".py") and n != "__init__.py"}

    found, _ = compiled_in(here)
    found = {name for name in found if sys.modules.get(f"ddzrules.{name}", True) is not None}  # DDZRULES_PURE
    for entry in os.listdir(here):
        folder = os.path.join(here, entry)
        if os.path.isfile(os.path.join(folder, "__init__.py")):
            compiled, every = compiled_in(folder)
            if compiled and compiled == every:
                found.add(entry)
            else:
                found.update(f"{entry}.{stem}" for stem in compiled
                             if sys.modules.get(f"ddzrules.{entry}.{stem}", True) is not None)
    return tuple(sorted(found))


#: the modules running compiled (mypyc, or C), by name ("runtime", "speed._quick" …); empty: pure Python
COMPILED_MODULES = _compiled_modules()
#: whether any module runs compiled: the C kernels a default install builds, or more
COMPILED = bool(COMPILED_MODULES)


def _build_name() -> str:
    from ddzrules.speed.build import KERNELS, pure_requested

    if not COMPILED_MODULES:
        return "pure Python (DDZRULES_PURE)" if pure_requested() else "pure Python"
    if set(COMPILED_MODULES) <= set(KERNELS):
        return f"C kernels ({', '.join(COMPILED_MODULES)})"
    return f"compiled: {', '.join(COMPILED_MODULES)}"


#: the build running, in words: "C kernels (speed._quick)" (what ``pip install .`` gives where a C
#: compiler exists), "pure Python" (where none does), or "compiled: ..." (``DDZRULES_COMPILE=1``)
BUILD = _build_name()
