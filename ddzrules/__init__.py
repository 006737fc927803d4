"""ddzrules: the rules of Dou Dizhu (斗地主) and its regional variants, as data.

>>> import ddzrules
>>> v = ddzrules.load_variant("hubei-3p")
>>> v.beats("XD", "2222")
True
"""

from ddzrules.cards import parse_cards
from ddzrules.errors import DdzError, PlayError, SpecError
from ddzrules.moves import LegalMoves, Move
from ddzrules.spec import load_spec
from ddzrules.variant import Census, Variant, load_variant

__all__ = [
    "COMPILED", "COMPILED_MODULES", "Census", "DdzError", "LegalMoves", "Move", "PlayError", "SpecError", "Variant",
    "load_spec", "load_variant", "parse_cards",
]
__version__ = "0.1.0"


def _compiled_modules() -> tuple[str, ...]:
    """The modules of this package that are extension modules beside their ``.py`` (the
    compiled build, docs/compiled.md: Python imports those in place of the source) or
    their ``.c`` (C kernels the pure build does without)."""
    import importlib.machinery
    import os

    here = os.path.dirname(os.path.abspath(__file__))
    found = set()
    for filename in os.listdir(here):
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            stem = filename.removesuffix(suffix)
            if stem != filename and "__mypyc" not in stem and any(
                    os.path.isfile(os.path.join(here, stem + source)) for source in (".py", ".c")):
                found.add(stem)
    return tuple(sorted(found))


#: the modules running compiled (mypyc, or C), by name ("runtime", "_quick" …); empty: pure Python
COMPILED_MODULES = _compiled_modules()
#: whether this is the compiled build (``DDZRULES_COMPILE=1 pip install .``)
COMPILED = bool(COMPILED_MODULES)
