"""The face a game shows of its state: :class:`GameFace`, the base of
:class:`~ddzrules.game.game.Game`. Each field of the game's
:class:`~ddzrules.game.state.State` reads and sets as the game's own (``game.hands`` is
``game.state.hands``); what plugin code may change in place joins the running
transaction's snapshot when first reached (:mod:`ddzrules.game.transaction`), and a value
plugin code sets is checked when set (:class:`~ddzrules.errors.WriteRefused`).

Kept Python in the compiled build (``ddzrules.speed.build.KEPT_PYTHON``): its properties
are made from the state's fields, and mypyc compiles no property setter of a Python class."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from operator import attrgetter
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from ddzrules.errors import WriteRefused, brief
from ddzrules.game import transaction
from ddzrules.game.checks import FACTOR_LIMIT, number_problem
from ddzrules.game.running import PlayRules
from ddzrules.game.state import State
from ddzrules.game.values import Action, MatchInfo, MultiplierEvent
from ddzrules.rules.moves import Move
from ddzrules.variant import Variant

if TYPE_CHECKING:
    from ddzrules.game.rules import ActivatedRules

_T = TypeVar("_T")

if TYPE_CHECKING:
    class _Field(Generic[_T]):
        """How the type checker sees a field of the game's state shown on its face."""

        def __get__(self, game: object, owner: object = None) -> _T: ...

        def __set__(self, game: object, value: _T) -> None: ...


def _shown(name: str) -> Any:
    """A field of the game's state on its face, read and set as the state's own."""
    def put(game: GameFace, value: Any) -> None:
        setattr(game.state, name, value)
    return property(attrgetter("state." + name), put, doc=f"The game state's ``{name}`` (:class:`State`).")


def _reached(name: str) -> Any:
    """A container of the game's state that plugin code may change in place: in a
    transaction, kept (see :func:`~ddzrules.game.transaction.keep`) when first reached."""
    def get(game: GameFace) -> Any:
        if game.undo is not None:
            transaction.keep(game, name)
        return getattr(game.state, name)

    def put(game: GameFace, value: Any) -> None:
        if game.undo is not None:
            transaction.keep(game, name)
        setattr(game.state, name, value)
    return property(get, put, doc=f"The game state's ``{name}``, guarded (:mod:`ddzrules.game.transaction`).")


class GameFace:
    """A game's rules and state, shown: its fields, and what plugin code may write of them,
    guarded. :class:`~ddzrules.game.game.Game` adds the flow and the copies."""

    __slots__ = ("legal_cache", "multiple_memo", "play_rules", "players", "plays_cache", "rules", "state",
                 "undo", "variant")

    #: the play phase's legal actions: (the state they are for, the actions, what tells
    #: whether an object is one of them: see is_listed); derived, never part of the state
    legal_cache: tuple[tuple[Any, ...], list[Action], Any] | None
    #: the play phase's legal plays as Moves (legal_plays): (the state, the Moves, may pass)
    plays_cache: tuple[tuple[Any, ...], Sequence[Move], bool] | None
    #: (the events, their multiple) as last worked out (:attr:`multiple`, asked at every view)
    multiple_memo: tuple[tuple[MultiplierEvent, ...], float] | None
    #: while an action runs (a transaction): what it must put back if it fails; else None
    undo: dict[str, Any] | None

    seed: _Field[int] = _shown("seed")
    match: _Field[MatchInfo] = _shown("match")
    fixed_landlord: _Field[int | None] = _shown("fixed_landlord")
    deal_number: _Field[int] = _shown("deal_number")
    deals: _Field[list[dict[str, Any]]] = _shown("deals")
    history: _Field[list[Action]] = _shown("history")
    redeal_reasons: _Field[list[str]] = _shown("redeal_reasons")
    hands: _Field[list[list[int]]] = _shown("hands")
    kitty: _Field[list[int]] = _shown("kitty")
    undealt: _Field[list[int]] = _shown("undealt")
    dealt_order: _Field[list[int]] = _shown("dealt_order")
    kitty_visible: _Field[bool] = _shown("kitty_visible")
    escaped: _Field[int | None] = _shown("escaped")
    played: _Field[list[list[Move]]] = _shown("played")
    last_play: _Field[Move | None] = _shown("last_play")
    last_seat: _Field[int | None] = _shown("last_seat")
    passes: _Field[int] = _shown("passes")
    winner: _Field[int | None] = _shown("winner")
    scores: _Field[list[int] | None] = _shown("scores")
    first_leader: _Field[int | None] = _shown("first_leader")
    wild: _Field[int | tuple[int, ...] | None] = _shown("wild")
    turn: _Field[int | None] = _shown("turn")
    first_bidder: _Field[int] = _shown("first_bidder")
    phase: _Field[str] = _shown("phase")
    #: public facts plugins publish (every view shows them)
    public: _Field[dict[str, Any]] = _reached("public")
    #: per seat, facts only that seat may see (黄金眼 …)
    private: _Field[dict[int, dict[str, Any]]] = _reached("private")
    #: per-game statistics that ``simulate`` averages (see :meth:`count`)
    stats: _Field[dict[str, int | float]] = _reached("stats")
    #: per farmer, the factor of his settlement with the landlord (加倍, 加棒)
    pair_factors: _Field[dict[int, int | float]] = _reached("pair_factors")
    #: the seats whose hands are shown to everyone (明牌, 亮牌)
    shown_hands: _Field[set[int]] = _reached("shown_hands")
    #: the multiplier events so far (see :attr:`multiple`)
    events: _Field[list[MultiplierEvent]] = _reached("events")

    rules: ActivatedRules
    variant: Variant
    players: int
    #: the rules of the play phase, chosen once when the rules are made
    play_rules: PlayRules
    #: the game's data: everything it holds besides its rules
    state: State

    # ------------------------------------------------------------------ what plugins write
    @property
    def rng(self) -> random.Random:
        """The game's seeded random generator, the only randomness a plugin may use."""
        if self.undo is not None:
            transaction.keep(self, "rng")
        return self.state.rng

    @rng.setter
    def rng(self, value: random.Random) -> None:
        if not isinstance(value, random.Random):
            raise WriteRefused(f"set game.rng to {brief(value)}, not a random.Random")
        if self.undo is not None:
            transaction.keep(self, "rng")
        self.state.rng = value

    @property
    def stake(self) -> int | float:
        """The base score (叫分: the winning bid), set by the landlord phase."""
        return self.state.stake

    @stake.setter
    def stake(self, value: int | float) -> None:
        if type(value) is not int or not 0 <= value <= FACTOR_LIMIT:
            problem = number_problem(value, zero_ok=True)
            if problem is not None:
                raise WriteRefused(f"set game.stake to {problem}")
        self._set("stake", value)

    @property
    def landlord(self) -> int | None:
        """The landlord's seat, once the landlord phase has named him."""
        return self.state.landlord

    @landlord.setter
    def landlord(self, value: int | None) -> None:
        if value is not None and (type(value) is not int or not 0 <= value < self.players):
            raise WriteRefused(f"set game.landlord to {brief(value)}, not a seat 0-{self.players - 1}")
        self._set("landlord", value)

    @property
    def visible_dealt(self) -> int | None:
        """While set, each seat sees only this many of its dealt cards (明牌 before/during the deal)."""
        return self.state.visible_dealt

    @visible_dealt.setter
    def visible_dealt(self, value: int | None) -> None:
        if value is not None and (type(value) is not int or not 0 <= value <= self.rules.hand_size):
            raise WriteRefused(f"set game.visible_dealt to {brief(value)}, not a number of cards "
                               f"0-{self.rules.hand_size} (or None)")
        self._set("visible_dealt", value)

    @property
    def face_up(self) -> tuple[int, int] | None:
        """(seat, rank) of a card turned face up in the deal, if any."""
        return self.state.face_up

    @face_up.setter
    def face_up(self, value: tuple[int, int] | None) -> None:
        if value is not None and not (type(value) is tuple and len(value) == 2
                                      and all(type(v) is int for v in value)):
            raise WriteRefused(f"set game.face_up to {brief(value)}, not (seat, rank) (or None)")
        self._set("face_up", value)

    def _set(self, name: str, value: object) -> None:
        if self.undo is not None:
            transaction.keep(self, name)
        setattr(self.state, name, value)

    def request_redeal(self, reason: str) -> None:
        """Called by a landlord phase: nobody takes the landlord; deal again."""
        self._set("redeal", reason)

    def add_event(self, event: MultiplierEvent) -> None:
        """Record a multiplier event (checked when the plugin code that adds it returns)."""
        self.events.append(event)

    def add_events(self, events: list[MultiplierEvent]) -> None:
        """Record events a hook answered (already checked)."""
        if self.undo is not None:
            transaction.keep(self, "events")
        self.state.events.extend(events)

    def count(self, stat: str, amount: object = 1) -> None:
        """Add to a per-game statistic that ``simulate`` averages (robs, 明牌, bean flow …);
        ``amount`` is a finite int or float (ValueError otherwise: an average would be
        poisoned)."""
        if isinstance(amount, bool) or not isinstance(amount, (int, float)) \
                or (isinstance(amount, float) and not math.isfinite(amount)):
            raise ValueError(f"game.count({brief(stat)}, ...) takes a finite number, not {brief(amount)}")
        stats = self.stats
        stats[stat] = stats.get(stat, 0) + amount

    @property
    def multiple(self) -> float:
        """The product of all multiplier events (per group, only the largest)."""
        events = tuple(self.state.events)
        memo = self.multiple_memo
        if memo is not None and memo[0] == events:  # the same events (asked at every view)
            return memo[1]
        m = 1.0
        groups: dict[str, float] = {}
        for e in events:
            if e.group:
                groups[e.group] = max(groups.get(e.group, 0.0), e.factor)
            else:
                m *= e.factor
        for factor in groups.values():
            m *= factor
        self.multiple_memo = (events, m)
        return m

    def copy_memo(self) -> dict[int, Any]:
        """A memo for copying game state: what a copy shares (the rules, their plugins), and
        the game itself (phases that refer to it refer to it still)."""
        memo = dict(self.rules.shared)
        memo[id(self)] = self
        return memo
