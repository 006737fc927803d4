"""ddzrules: the rules of Dou Dizhu (斗地主) and its regional variants, as data.

>>> import ddzrules
>>> v = ddzrules.load_variant("hubei-3p")
>>> v.beats("XD", "2222")
True
"""

from .cards import parse_cards
from .errors import DdzError, PlayError, SpecError
from .moves import LegalMoves, Move
from .spec import load_spec
from .variant import Census, Variant, load_variant

__all__ = [
    "Census", "DdzError", "LegalMoves", "Move", "PlayError", "SpecError", "Variant",
    "load_spec", "load_variant", "parse_cards",
]
__version__ = "0.1.0"
