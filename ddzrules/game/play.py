"""The play phase's place in the flow: :class:`PlayRules`, what the runtime asks of the
rules of the tricks (the default, climbing, is :mod:`ddzrules.game.climbing`'s), and
:class:`PlayFlow`, which sends the play phase's questions to them (chosen once, when the
game is made) and the other phases' to their plugins, and offers play rules what they
need of the game: a play's plugins run in a transaction, and the game's end."""

from __future__ import annotations

from typing import Protocol

from ddzrules.errors import PlayError, PluginError, brief
from ddzrules.game.deal import DealFlow, RulesT_co
from ddzrules.game.rules import PHASE_TURNS, ActivatedRules
from ddzrules.game.values import Action
from ddzrules.rules.moves import Move


class PlayRules(Protocol):
    """What the runtime asks of the rules of the play phase. The seat to act is
    ``game.turn`` (who leads first: the leader plugin, else the landlord, else seat 0);
    the rules keep the trick in the game's fields (``last_play``, ``last_seat``,
    ``passes``), record each action in ``game.history``, and end each play with
    :meth:`PlayFlow.after_play`, which runs the plugins and asks :meth:`winner_after`."""

    #: the name a spec gives them (key ``play``)
    name: str

    def legal_actions(self, game: PlayFlow[ActivatedRules]) -> list[Action]:
        """The legal actions of the seat to act (``game.turn``)."""
        ...

    def apply(self, game: PlayFlow[ActivatedRules], action: Action) -> None:
        """Apply an action of the seat to act; PlayError, nothing changed, unless legal."""
        ...

    def winner_after(self, game: PlayFlow[ActivatedRules], seat: int) -> int | None:
        """After ``seat``'s play (its plugins run): the winner when the game is over, else None."""
        ...


class PlayFlow(DealFlow[RulesT_co]):
    """A game's turns: legal actions and actions applied, the play phase's by its play
    rules, the other phases' by their plugins."""

    #: the rules of the play phase (GameRules.play_rules)
    _play_rules: PlayRules

    @property
    def over(self) -> bool:
        return self.phase == "over"

    @property
    def to_act(self) -> int | None:
        return None if self.phase == "over" else self.turn

    @property
    def leading(self) -> bool:
        return self.phase == "play" and self.last_play is None

    def legal_actions(self) -> list[Action]:
        """Every legal action of the seat to act (plays, passes, bids, declarations); in the
        play phase, as the ``rules:`` plugins restrict them (ddzrules_restrict_actions)."""
        if self.phase == "over":
            return []
        if self.phase == "play":
            return self._play_rules.legal_actions(self)
        assert self._current is not None
        options: list[Action] = self._phase_call("options")  # a list of its own (see _check_options)
        return options

    def apply(self, action: Action) -> None:
        """Apply one action; raises PlayError (state unchanged) if it is not legal now."""
        if self.phase == "over":
            raise PlayError("the game is over")
        if action.seat != self.turn:
            raise PlayError(f"it is seat {self.turn}'s turn, not seat {action.seat}'s")
        if self.phase == "play":
            self._play_rules.apply(self, action)
            return
        assert self._current is not None
        limit = self.rules.phase_actions
        if len(self.history) - self._deal_start() >= limit:  # what a phase took: not play's
            plugin, hook = self._owner
            raise PluginError(plugin, hook, f"its phase {brief(getattr(self._current, 'name', '?'))} has not "
                                            f"ended after {limit:,} actions of this deal's phases, the most "
                                            f"{self.players} seats may take ({PHASE_TURNS} a seat for each "
                                            "plugin that makes phases)")
        options = self._phase_call("options")
        chosen = next((o for o in options if action.matches(o)), None)
        if chosen is None:
            raise PlayError(f"{action} is not allowed now; choose one of: " + ", ".join(map(str, options)))
        saved = self._begin()
        try:
            # the history keeps the option itself, not whatever else the caller attached to it
            self.history.append(chosen)
            self._phase_call("apply", chosen)
            self._advance()
        except BaseException:
            self._rollback(saved)
            raise
        finally:
            self._end()

    def after_play(self, seat: int, move: Move, led: bool, next_seat: int) -> None:
        """For play rules, once ``seat``'s play of ``move`` is recorded: the plugins'
        on_play, then the end of the game if the rules name a winner now (on_game_end and
        settle), else ``next_seat`` to act; a transaction: when plugin code fails, what it
        wrote is put back and the game is in its tricks again, ``seat`` to act, and the
        error raised for the rules to take back the play."""
        self._guarded = True  # what plugins write is saved when reached (see _keep)
        try:
            for events in self.rules.on_play(game=self, seat=seat, move=move, led=led):
                if events:
                    self._add_events(events)
            winner = self._play_rules.winner_after(self, seat)
            if winner is not None:
                self._finish(winner)
            else:
                self.turn = next_seat
        except BaseException:
            # what came of the play taken back: the game was in its tricks, not over
            self.winner, self.scores, self.phase, self.turn = None, None, "play", seat
            self._put_back()
            raise
        finally:
            self._guarded = False
            if self._undo:
                self._undo = {}
