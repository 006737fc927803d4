"""The value types of plays: :class:`Move` (one reading of a set of cards) and
:class:`LegalMoves` (what a hand may play, and whether it may pass).

A set of cards can be read more than one way (``333444555666`` is a plane of four
trios and a plane of three trios with single wings); each reading is one Move.

>>> m = Move("33344469", "plane_wings", 1, 2, 8, -1, (1,), 0)
>>> m.rank_name, m.family
('4', ('plane_wings', 8, 2))
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import repeat
from typing import Any

from ddzrules.cards import RANKS
from ddzrules.errors import DdzError, brief


@dataclass(frozen=True, slots=True)
class Move:
    """One reading of a play.

    ``cards`` is the canonical string; ``combo`` the combo's name; ``rank`` the
    rank index of the main group (a chain's highest unit); ``length`` the number of
    units in the chain (1 for a group); ``tier`` the bomb class (``-1`` for a play
    that is not a bomb); ``key`` the comparison key (among bombs it starts with the
    tier); ``packed`` the packed count of the cards.
    """

    cards: str
    combo: str
    rank: int
    length: int
    size: int
    tier: int
    key: tuple[int, ...]
    packed: int
    #: for wildcard readings: which physical cards stand for which ranks (empty: none)
    substitution: tuple[tuple[str, str], ...] = field(default=(), compare=False)

    @property
    def is_bomb(self) -> bool:
        """True for a bomb or a rocket (any bomb class: ``tier >= 0``)."""
        return self.tier >= 0

    @property
    def strength(self) -> tuple[int, ...]:
        """Orders the readings of one set of cards, strongest last: bombs above other
        plays, then by the comparison key."""
        return (self.tier, *self.key)

    @property
    def rank_name(self) -> str:
        """The rank as a card letter (``"4"``, ``"T"``, ``"2"``), ``"-"`` when it has none."""
        return RANKS[self.rank] if 0 <= self.rank < len(RANKS) else "-"

    @property
    def family(self) -> tuple[str, int, int] | str:
        """Plays compare only within one family: bombs all share one; other plays
        share one when combo, card count and chain length are equal."""
        return "bomb" if self.tier >= 0 else (self.combo, self.size, self.length)

    def beats(self, other: Move) -> bool:
        """True when this play may be played on ``other`` (a Move of the same variant:
        ``Variant.beats`` re-reads a Move of another)."""
        try:  # free unless it raises: this is the inner loop of legal-move filtering
            if self.tier >= 0:
                return other.tier < 0 or self.key > other.key
            return (other.tier < 0 and self.combo == other.combo and self.size == other.size
                    and self.length == other.length and self.rank > other.rank)
        except (AttributeError, TypeError):  # not a Move, or a Move built by hand with odd fields
            raise DdzError(f"a play compares with a Move, not {brief(other)}") from None

    def to_dict(self) -> dict[str, object]:
        """The reading as JSON-ready data (what ``--json`` output prints for a play)."""
        out: dict[str, object] = {
            "cards": self.cards, "combo": self.combo, "rank": self.rank_name,
            "length": self.length, "size": self.size, "bomb": self.is_bomb, "key": list(self.key),
        }
        if self.tier >= 0:
            out["tier"] = self.tier
        if self.substitution:
            out["substitution"] = [list(p) for p in self.substitution]
        return out

    def __str__(self) -> str:
        return self.cards

    # immutable: a copy (of a game's history or plays, of an environment) is the move itself,
    # not a field-by-field rebuild of each one, and stays the very object the rules listed
    def __copy__(self) -> Move:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Move:
        return self


class LegalMoves(tuple[Move, ...]):
    """Every distinct legal play of a hand, each once in listing order, and whether
    passing is legal.

    A tuple of :class:`Move` (so ``len``, iteration and indexing run at C speed: a game
    lists plays at every step) with ``can_pass`` beside it. Two LegalMoves are equal when
    they list the same plays and agree on passing.

    >>> lm = LegalMoves([], can_pass=True)
    >>> len(lm), lm.can_pass, lm == LegalMoves((), can_pass=False)
    (0, True, False)
    """

    __slots__ = ()
    #: whether passing is legal (on a lead it is not)
    can_pass: bool

    def __new__(cls, moves: Iterable[Move] = (), can_pass: bool = False) -> LegalMoves:  # noqa: PYI034
        # one subclass per value of can_pass, so that the instance is a bare tuple (no
        # __dict__) made in one C call
        return tuple.__new__(_LegalAnswers if can_pass else _LegalLeads, moves)

    @property
    def moves(self) -> tuple[Move, ...]:
        """The plays as a plain tuple."""
        return tuple(self)

    def __contains__(self, cards: object) -> bool:
        if isinstance(cards, Move):
            return tuple.__contains__(self, cards)
        return any(m.cards == cards for m in self)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LegalMoves):
            return self.can_pass == other.can_pass and tuple.__eq__(self, other)
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        if isinstance(other, LegalMoves):
            return not self == other
        return NotImplemented

    # equal LegalMoves list equal plays, so the plays' hash serves
    __hash__ = tuple.__hash__

    def __getnewargs__(self) -> tuple[tuple[Move, ...], bool]:
        return tuple(self), self.can_pass  # pickle remakes the right subclass

    # immutable, of immutable Moves: a copy is the listing itself
    def __copy__(self) -> LegalMoves:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> LegalMoves:
        return self

    def __repr__(self) -> str:
        return f"LegalMoves(moves={tuple(self)!r}, can_pass={self.can_pass})"


class _LegalLeads(LegalMoves):
    __slots__ = ()
    can_pass = False


class _LegalAnswers(LegalMoves):
    __slots__ = ()
    can_pass = True


#: a LegalMoves class by can_pass, for callers that make one from a ready tuple
LEGAL_MOVES = (_LegalLeads, _LegalAnswers)


def bulk_maker(cls: type, names: tuple[str, ...]) -> Callable[..., list[Any]]:
    """A function making many instances of a frozen, slotted dataclass ``cls`` at once from
    one column of values per field of ``names`` (its fields, in order): each field set by
    a C-level pass of its slot's setter over new objects — what the dataclass's
    ``__init__`` does, at a third of its cost. When ``cls`` is not such a class (a
    ``__post_init__``, other fields or no slots) the function calls the class per row."""
    fields = getattr(cls, "__dataclass_fields__", None)
    if (fields is None or tuple(fields) != names or hasattr(cls, "__post_init__")
            or tuple(getattr(cls, "__slots__", ())) != names):
        return lambda *columns: list(map(cls, *columns))
    setters = [getattr(cls, name).__set__ for name in names]
    new = object.__new__

    def make(*columns: Sequence[Any]) -> list[Any]:
        objs: list[Any] = list(map(new, repeat(cls, len(columns[0]))))
        for setter, column in zip(setters, columns):
            any(map(setter, objs, column))  # each returns None: a C-level pass
        return objs

    return make


#: Moves made in bulk (see bulk_maker) from the columns of Move's fields in order
make_moves = bulk_maker(Move, ("cards", "combo", "rank", "length", "size", "tier", "key", "packed", "substitution"))
