"""The values the runtime and plugins exchange: actions, multiplier events, phases, where a
game sits in a match, what a seat sees, and :class:`GameState`, what a plugin may use of a
game. Imports nothing of the rest of the runtime, so :mod:`ddzrules.hookspecs` can name
these types without an import cycle."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ddzrules import cards as C
from ddzrules.rules.moves import Move
from ddzrules.rules.variant import Variant
from ddzrules.speed.build import python_class


@python_class  # made in bulk by its slots' setters, and by callers with any values
@dataclass(frozen=True, slots=True)
class Action:
    """One decision of one seat: a bid, a declaration, a play or a pass.

    ``kind`` is e.g. ``"bid"``, ``"pass"``, ``"call"``, ``"rob"``, ``"show"``,
    ``"play"``; ``value`` the bid or the cards; ``move`` the reading of a play.
    """

    seat: int
    kind: str
    #: the bid (an int), the cards (a str) or None; Any, not int | str | None: a caller may
    #: offer anything, which the runtime refuses as it is (compiled code would check the type)
    value: Any = None
    move: Move | None = None

    def matches(self, other: Action) -> bool:
        if self.seat != other.seat or self.kind != other.kind:
            return False
        if self.kind == "play" and self.move is not None and other.move is not None:
            return self.move == other.move
        return bool(self.value == other.value)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat, "kind": self.kind}
        if self.value is not None:
            out["value"] = self.value
        if self.move is not None:
            out["combo"] = self.move.combo
            out["rank"] = self.move.rank_name
        return out

    def __str__(self) -> str:
        if self.kind == "play":
            return f"play {self.value}"
        return self.kind if self.value is None else f"{self.kind} {self.value}"

    # immutable: a copy (of a game's history, say) is the action itself, so that the actions
    # a copied game lists are the very objects its original's rules listed
    def __copy__(self) -> Action:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Action:
        return self


@python_class  # plugins make them: a value type as in the pure build
@dataclass(frozen=True)
class MultiplierEvent:
    """Something that multiplies the score: a bomb, a spring, a rob, a 亮牌 …

    Events multiply together, except those sharing a ``group``: of these only the
    largest factor counts (明牌 at several moments: "the largest counts").
    """

    name: str
    factor: int | float  # not float: compiled, a float field would turn 2 into 2.0
    seat: int | None = None
    detail: str = ""
    group: str = ""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "factor": self.factor}
        if self.group:
            out["group"] = self.group
        if self.seat is not None:
            out["seat"] = self.seat
        if self.detail:
            out["detail"] = self.detail
        return out

    def __copy__(self) -> MultiplierEvent:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> MultiplierEvent:
        return self


class Phase(Protocol):
    """A decision phase (bidding, robbing, declarations) driven by the runtime."""

    name: str

    def to_act(self, game: GameState) -> int | None:
        """The seat to act, or None when the phase is over."""

    def options(self, game: GameState) -> list[Action]:
        """The legal actions of the seat to act."""

    def apply(self, game: GameState, action: Action) -> None:
        """Apply an action the runtime has already checked is among ``options``."""


@python_class  # callers make them: a value type as in the pure build
@dataclass(frozen=True)
class MatchInfo:
    """Where a game sits in a match: its index, the match's seed and, for bean
    settlements, what each seat holds before the game (None: unlimited)."""

    index: int = 0
    seed: int = 0
    holdings: tuple[int, ...] | None = None
    #: the seat that went out first in the match's previous game (None: first game, or unknown)
    previous_winner: int | None = None
    #: the previous game's cards gathered in play order (:meth:`Game.gathered_cards`), as rank
    #: indices, for a deal that does not shuffle (不洗牌); None: first game, or not carried
    previous_cards: tuple[int, ...] | None = None


@python_class  # made through its __dict__ (Game.view): a Python class when compiled
@dataclass
class PlayerView:
    """What one seat may see."""

    seat: int
    phase: str
    hand: str
    hand_sizes: list[int]
    landlord: int | None
    to_act: int | None
    stake: int
    multiple: float
    kitty: str | None  # shown kitty, else None
    shown_hands: dict[int, str]
    last_play: Move | None
    last_seat: int | None
    history: list[Action]
    played: list[list[str]]
    extra: dict[str, Any] = field(default_factory=dict)  # public facts plugins publish
    private: dict[str, Any] = field(default_factory=dict)  # facts only this seat may see (黄金眼 …)
    #: the seats on this seat's side, itself excluded (farmers once the landlord is known,
    #: a fixed team; empty when everyone plays for himself or the sides are not known yet)
    partners: tuple[int, ...] = ()

    # Game.view fills ``history``, ``played``, ``hand``, ``hand_sizes`` and ``kitty`` on
    # first read: copying and formatting them at every step cost a third of a random
    # game's step, and most agents never read them. It keeps, in ``_lazy``, the game's
    # lists and their lengths when the view was made (the runtime only appends to them)
    # and the hands' and kitty's counts as bytes (copies), so the view shows that moment.
    def __getattr__(self, name: str) -> Any:
        lazy = self.__dict__.get("_lazy")
        if lazy is None or name not in _LAZY_VIEW_FIELDS:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        history, length, played, lengths, hands, kitty = lazy
        value: Any
        if name == "history":
            value = history[:length]
        elif name == "played":
            value = [[m.cards for m in moves[:n]] for moves, n in zip(played, lengths)]
        elif name == "hand":
            value = counts_string(hands[self.__dict__["seat"]])
        elif name == "hand_sizes":
            value = list(map(sum, hands))
        else:  # kitty: set at once when not shown
            value = counts_string(kitty)
        self.__dict__[name] = value
        if all(f in self.__dict__ for f in _LAZY_VIEW_FIELDS):
            del self.__dict__["_lazy"]
        return value

    def __getstate__(self) -> dict[str, Any]:
        """Pickled and copied with every field filled in, and not the game's lists (nor the
        game itself: a copy samples no worlds)."""
        for name in _LAZY_VIEW_FIELDS:
            getattr(self, name)
        return {k: v for k, v in self.__dict__.items() if k != "_world"}

    def sample_world(self, rng: random.Random) -> World:
        """One world consistent with what this seat sees, as a game to search: a copy of
        the game the view was made from, the cards this seat cannot see dealt again at
        random (:meth:`~ddzrules.runtime.Game.determinized`). Games this seat cannot tell
        apart give the same world for the same ``rng`` state. Only while the game has not
        moved on since the view was made (a bot asks while choosing); a ValueError for a
        view that was copied, unpickled or made by hand, or is out of date."""
        source = self.__dict__.get("_world")
        if source is None:
            raise ValueError("this view has no game to sample worlds from (a copy, or not made by Game.view)")
        game, moment = source
        if len(game.history) != moment:
            raise ValueError("the game has moved on since this view was made: ask a fresh view")
        world: World = game.determinized(self.seat, rng)
        return world


_LAZY_VIEW_FIELDS = ("history", "played", "hand", "hand_sizes", "kitty")
#: canonical strings of card counts, by the counts as bytes (hands and kitties shown in views)
_COUNT_STRINGS: dict[bytes, str] = {}
#: the (rank, count) pairs of a play's packed counts, by packed counts (what apply takes from a hand)
_PLAY_COUNTS: dict[int, tuple[tuple[int, int], ...]] = {}
MEMO_LIMIT = 1 << 16


def counts_string(counts: Sequence[int]) -> str:
    """``C.counts_to_string``, memoised: a hand's string is made again at every step. Counts
    as a list (a hand) or as bytes (a view's copy of one)."""
    try:
        key = bytes(counts)
    except (ValueError, TypeError):  # counts no byte holds: not memoised
        return C.counts_to_string(counts)
    got = _COUNT_STRINGS.get(key)
    if got is None:
        if len(_COUNT_STRINGS) >= MEMO_LIMIT:
            _COUNT_STRINGS.clear()
        got = _COUNT_STRINGS[key] = C.counts_to_string(counts)
    return got


def play_counts(packed: int) -> tuple[tuple[int, int], ...]:
    got = _PLAY_COUNTS.get(packed)
    if got is None:
        if len(_PLAY_COUNTS) >= MEMO_LIMIT:
            _PLAY_COUNTS.clear()
        got = _PLAY_COUNTS[packed] = tuple((r, c) for r, c in enumerate(C.unpack(packed)) if c)
    return got


class TableRules(Protocol):
    """What a plugin may read of a game's rules (``game.rules``): the table's size and the
    variant; :class:`~ddzrules.runtime.GameRules` has these and more."""

    # read-only here (properties), so any object with these attributes fits
    @property
    def variant(self) -> Variant: ...
    @property
    def players(self) -> int: ...
    @property
    def hand_size(self) -> int: ...
    @property
    def kitty_size(self) -> int:  # the kitty: 底牌
        ...


class GameState(Protocol):
    """What a plugin may use of a game: the members of :class:`~ddzrules.runtime.Game` that
    the hooks' contracts (:mod:`ddzrules.hookspecs`) and the phases plugins make read and
    write. A hook receives the game itself; this protocol is its documented face, and the
    type checker holds :class:`~ddzrules.runtime.Game` to it (runtime/game.py)."""

    @property
    def rules(self) -> TableRules: ...
    variant: Variant
    players: int
    seed: int
    match: MatchInfo
    deal_number: int
    history: list[Action]
    hands: list[list[int]]
    kitty: list[int]
    #: the shuffled deck, hands dealt from its front
    dealt_order: list[int]
    played: list[list[Move]]
    last_play: Move | None
    last_seat: int | None
    winner: int | None
    first_bidder: int
    first_leader: int | None
    phase: str
    #: the wild rank (癞子) of this deal: its index, the ascending indices of several
    #: (天地癞子), or None
    wild: int | tuple[int, ...] | None

    # what plugins write (saved and put back when an action fails: see Game)
    @property
    def rng(self) -> random.Random: ...
    @rng.setter
    def rng(self, value: random.Random) -> None: ...
    @property
    def stake(self) -> int | float: ...
    @stake.setter
    def stake(self, value: int | float) -> None: ...  # noqa: PYI041 - an int stays an int
    @property
    def landlord(self) -> int | None: ...
    @landlord.setter
    def landlord(self, value: int | None) -> None: ...
    @property
    def visible_dealt(self) -> int | None: ...
    @visible_dealt.setter
    def visible_dealt(self, value: int | None) -> None: ...
    @property
    def face_up(self) -> tuple[int, int] | None: ...
    @face_up.setter
    def face_up(self, value: tuple[int, int] | None) -> None: ...
    @property
    def public(self) -> dict[str, Any]: ...
    @public.setter
    def public(self, value: dict[str, Any]) -> None: ...
    @property
    def private(self) -> dict[int, dict[str, Any]]: ...
    @private.setter
    def private(self, value: dict[int, dict[str, Any]]) -> None: ...
    @property
    def stats(self) -> dict[str, int | float]: ...
    @stats.setter
    def stats(self, value: dict[str, int | float]) -> None: ...
    @property
    def pair_factors(self) -> dict[int, int | float]: ...
    @pair_factors.setter
    def pair_factors(self, value: dict[int, int | float]) -> None: ...
    @property
    def shown_hands(self) -> set[int]: ...
    @shown_hands.setter
    def shown_hands(self, value: set[int]) -> None: ...
    @property
    def events(self) -> list[MultiplierEvent]: ...
    @events.setter
    def events(self, value: list[MultiplierEvent]) -> None: ...

    def request_redeal(self, reason: str) -> None: ...
    def add_event(self, event: MultiplierEvent) -> None: ...
    def count(self, stat: str, amount: object = 1) -> None: ...
    def next_seat(self, seat: int) -> int: ...
    @property
    def multiple(self) -> float: ...
    def hand_string(self, seat: int) -> str: ...
    def hand_counts(self, seat: int) -> list[int]: ...
    @property
    def over(self) -> bool: ...
    @property
    def to_act(self) -> int | None: ...
    @property
    def leading(self) -> bool: ...
    def legal_moves(self) -> tuple[list[Move], bool]: ...
    def legal_plays(self) -> tuple[Sequence[Move], bool]: ...
    def side_of(self, seat: int) -> tuple[int, ...]: ...
    def partners(self, seat: int) -> tuple[int, ...]: ...
    @property
    def winners(self) -> tuple[int, ...]: ...
    def legal_actions(self) -> list[Action]: ...
    @property
    def landlord_won(self) -> bool | None: ...
    def view(self, seat: int) -> PlayerView: ...


class World(GameState, Protocol):
    """A game to search (what :meth:`PlayerView.sample_world` gives): the plugin's face of
    a game plus what a search does with it, on a copy that it owns."""

    scores: list[int] | None

    def apply(self, action: Action) -> None: ...
    def copy(self) -> World: ...
    def determinized(self, seat: int, rng: random.Random) -> World: ...
