"""What the flow's functions take and ask, as types of their own (so the flow and the
game's face, which calls it, do not import each other): :class:`Running`, a game as the
flow's functions (:mod:`ddzrules.game.deal`, :mod:`ddzrules.game.play`, the play rules)
take it, and :class:`PlayRules`, the play-rules seam: what the runtime asks of the rules
of the tricks. :class:`~ddzrules.game.game.Game` is a Running; climbing
(:mod:`ddzrules.game.climbing`) is the default PlayRules."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

from ddzrules.game.state import Guarded
from ddzrules.game.tables import TableGame
from ddzrules.game.values import Action, GameState, MultiplierEvent
from ddzrules.rules.moves import Move

if TYPE_CHECKING:
    from ddzrules.game.rules import ActivatedRules


class Running(Guarded, TableGame, GameState, Protocol):
    """A game as the flow's functions take it: what a plugin may use of it
    (:class:`~ddzrules.game.values.GameState`) and a table
    (:class:`~ddzrules.game.tables.TableGame`), its state and its transaction
    (:class:`~ddzrules.game.state.Guarded`), its rules, and the listings' caches."""

    @property
    def rules(self) -> ActivatedRules: ...
    #: the rules of the play phase, chosen once when the rules are made
    play_rules: PlayRules
    #: the play phase's legal plays as Moves (legal_plays): (the state, the Moves, may pass)
    plays_cache: tuple[tuple[Any, ...], Sequence[Move], bool] | None

    def apply(self, action: Action) -> None: ...
    def add_events(self, events: list[MultiplierEvent]) -> None: ...
    def seen_hand(self, seat: int) -> str: ...


class PlayRules(Protocol):
    """What the runtime asks of the rules of the play phase. The seat to act is
    ``game.turn`` (who leads first: the leader plugin, else the landlord, else seat 0);
    the rules keep the trick in the game's state (``last_play``, ``last_seat``,
    ``passes``), record each action in its ``history``, and end each play with
    :func:`ddzrules.game.play.after_play` (``game.after_play``), which runs the plugins and
    asks :meth:`winner_after`."""

    #: the name a spec gives them (key ``play``)
    name: str

    def legal_actions(self, game: Running) -> list[Action]:
        """The legal actions of the seat to act (``game.turn``)."""
        ...

    def apply(self, game: Running, action: Action) -> None:
        """Apply an action of the seat to act; PlayError, nothing changed, unless legal."""
        ...

    def winner_after(self, game: Running, seat: int) -> int | None:
        """After ``seat``'s play (its plugins run): the winner when the game is over, else None."""
        ...
