"""The tricks: the legal actions of the seat to act (listed fast, cached for the state
they are for), the checks of an action given, and a play or a pass applied (the
plugins' ``on_play`` in a transaction). Built on :class:`~ddzrules.game.deal.DealFlow`."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import repeat as _repeat
from operator import is_ as _is
from typing import Any

from ddzrules import cards as C
from ddzrules.errors import PlayError, PluginError, brief
from ddzrules.game.deal import DealFlow
from ddzrules.game.plays import is_listed, universe_positions
from ddzrules.game.rules import PHASE_TURNS
from ddzrules.game.values import Action, play_counts
from ddzrules.moves import Move
from ddzrules.wild import WildLeads


class PlayFlow(DealFlow):
    """A game's tricks: legal actions, and actions applied."""

    @property
    def over(self) -> bool:
        return self.phase == "over"

    @property
    def to_act(self) -> int | None:
        return None if self.phase == "over" else self._turn

    @property
    def leading(self) -> bool:
        return self.phase == "play" and self.last_play is None

    def legal_moves(self) -> tuple[list[Move], bool]:
        """In the play phase: the legal plays of the seat to act and whether it may pass
        (never when ``table.must_beat`` and a play beats; restrictions not applied)."""
        seat = self._turn
        assert seat is not None
        return self.rules.play_lister.moves(self.hands[seat], self.last_play, self.wild)

    def legal_plays(self) -> tuple[Sequence[Move], bool]:
        """In the play phase: the plays :meth:`legal_actions` lists, as their Moves in the
        same order, and whether it lists a pass; the ``rules:`` plugins' restrictions
        applied. No action is made per play (a search's rollouts list at every step, and a
        hand with wild cards has hundreds of plays). The plays are an immutable sequence:
        a tuple, or for a lead of several wild ranks (天地癞子, thousands of plays) a
        :class:`~ddzrules.wild.WildLeads`, which makes each Move only when asked for it
        and gives a policy each play's size, rank and cards without one. A play of this
        listing applied as ``Action(seat, "play", move.cards, move)`` with the very Move,
        or a pass when it is allowed, is not checked again, as an action
        :meth:`legal_actions` listed is not.

        >>> game = GameRules.load("hubei-3p").new_game(seed=1, landlord=0)
        >>> moves, can_pass = game.legal_plays()
        >>> [a.move for a in game.legal_actions()] == list(moves), can_pass
        (True, False)
        """
        if self.phase != "play":
            raise PlayError(f"legal_plays lists the plays of the play phase; this game is in its {self.phase} phase")
        seat = self._turn
        assert seat is not None
        state = self._play_state()
        cached = self._plays_cache
        if cached is None or cached[0] != state:
            plays: Sequence[Move]
            if self.rules.restricted:  # what the plugins keep: read off the actions
                actions = self.legal_actions()
                plays = tuple([a.move for a in actions if a.kind == "play" and a.move is not None])
                can_pass = any(a.kind == "pass" for a in actions)
            else:
                plays, can_pass = self.rules.play_lister.plays(self.hands[seat], self.last_play, self.wild)
            cached = self._plays_cache = (state, plays, can_pass)
        return cached[1], cached[2]

    def legal_actions(self) -> list[Action]:
        """Every legal action of the seat to act (plays, passes, bids, declarations); in the
        play phase, as the ``rules:`` plugins restrict them (ddzrules_restrict_actions)."""
        if self.phase == "over":
            return []
        seat = self._turn
        assert seat is not None
        if self.phase == "play":
            key = self._play_state()
            cached = self._legal_cache
            if cached is not None and cached[0] == key:
                return list(cached[1])
            out, proof = self.rules.play_lister.listed(seat, self.hands[seat], self.last_play, self.wild)
            if self.rules.restricted:
                out, proof = self._restrict(seat, out), None
            self._legal_cache = (key, out, proof)
            return list(out)
        assert self._current is not None
        options: list[Action] = self._phase_call("options")  # a list of its own (see _check_options)
        return options

    def legal_listing(self) -> tuple[list[Action], tuple[tuple[Move, ...], list[int]] | None]:
        """:meth:`legal_actions`, and where the plays among them were listed in the
        variant's fast index (:attr:`Variant.built_fast_index`) the index's Moves in listing
        order with the positions of those plays, ascending (the pass, when legal, is the
        last action and has no position); else None (outside the play phase, wild cards
        held, a plugin's restriction, the index not built yet). For callers that map plays
        to ids of their own in bulk (the batched environment)."""
        actions = self.legal_actions()
        cached = self._legal_cache  # the listing legal_actions just read or made
        if self.phase != "play" or cached is None:
            return actions, None
        return actions, universe_positions(cached[2])

    def _play_state(self) -> tuple[Any, ...]:
        """What the play phase's legal actions depend on (a hand set by hand included)."""
        seat = self._turn
        return (self.deal_number, len(self.history), seat, tuple(self.hands[seat]),  # type: ignore[index]
                self.last_play, self.wild)

    def _restrict(self, seat: int, actions: list[Action]) -> list[Action]:
        """Keep the actions every ddzrules_restrict_actions answer keeps (the intersection);
        each answer is checked to hold only actions of ``actions`` (see _check_restriction)."""
        hook = self.rules.hooks["ddzrules_restrict_actions"]
        kept = list(actions)
        for allowed in hook.pairs(context={"actions": actions}, game=self, seat=seat, actions=list(actions)):
            ids = set(map(id, allowed[1]))
            kept = [a for a in kept if id(a) in ids]
        if not kept:
            raise PluginError(hook.owners(), hook.name, f"the plugins left seat {seat} no legal action")
        return kept

    def apply(self, action: Action) -> None:
        """Apply one action; raises PlayError (state unchanged) if it is not legal now."""
        if self.phase == "over":
            raise PlayError("the game is over")
        if action.seat != self._turn:
            raise PlayError(f"it is seat {self._turn}'s turn, not seat {action.seat}'s")
        if self.phase == "play":
            state = self._play_state()
            cached = self._legal_cache
            if cached is not None and cached[0] == state and is_listed(action, cached[1], cached[2]):
                # an action legal_actions just listed for this very state: no need to check it again
                if action.kind == "pass":
                    self._pass(action)
                else:
                    self._commit_play(action, action.move)  # type: ignore[arg-type]
                return
            plays = self._plays_cache
            if plays is not None and plays[0] == state:
                # a play legal_plays just listed for this very state (the very Move), or its pass
                move = action.move
                if action.kind == "pass" and plays[2]:
                    self._pass(self.rules.play_lister.passes[action.seat])
                    return
                listed = plays[1]
                if action.kind == "play" and move is not None and (
                        listed.holds(move) if type(listed) is WildLeads else any(map(_is, listed, _repeat(move)))):
                    self._commit_play(Action(action.seat, "play", move.cards, move), move)
                    return
            self._apply_play(action)
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

    def play(self, seat: int, cards: str | None) -> Move | None:
        """Convenience for people and tests: play a card string (or pass with None)."""
        if cards is None:
            self.apply(Action(seat, "pass"))
            return None
        move = self._strongest_legal_reading(seat, cards)
        self.apply(Action(seat, "play", move.cards, move))
        return move

    def _strongest_legal_reading(self, seat: int, cards: object) -> Move:
        """The strongest reading of ``cards`` that ``seat`` may play now (PlayError if none)."""
        if not isinstance(cards, str):
            raise PlayError(f"a play needs cards, got {cards!r}")
        try:
            canonical = C.parse_cards(cards)
        except C.CardError as e:
            raise PlayError(str(e)) from None
        readings = self.variant.classify(canonical, self.wild)
        legal = [m for m in readings if self._is_legal_move(seat, m)]
        if not legal:
            self._raise_illegal(seat, canonical, readings)
        if self.rules.restricted and self.phase == "play" and seat == self._turn:
            allowed = {a.move for a in self.legal_actions() if a.kind == "play"}
            legal = [m for m in legal if m in allowed] or legal  # none allowed: _apply_play says so
        return max(legal, key=lambda m: m.strength)

    def _is_legal_move(self, seat: int, m: Move) -> bool:
        if not C.contains(C.pack(self.hands[seat]), m.packed):
            return False
        return self.last_play is None or m.beats(self.last_play)

    def explain_illegal(self, seat: int, cards: str) -> None:
        """Raise the PlayError saying why ``cards`` cannot be played by ``seat`` now."""
        canonical = C.parse_cards(cards)
        self._raise_illegal(seat, canonical, self.variant.classify(canonical, self.wild))

    def _raise_illegal(self, seat: int, canonical: str, readings: tuple[Move, ...],
                       claimed: Move | None = None) -> None:
        if not readings:
            raise PlayError(f"{canonical} is not a combo of {self.variant.name}")
        if not C.contains(C.pack(self.hands[seat]), readings[0].packed):
            raise PlayError(f"{canonical} is not in your hand ({self.hand_string(seat)})")
        if claimed is not None and claimed not in readings:
            raise PlayError(f"{canonical} cannot be read as {claimed.combo} ({claimed.rank_name}); its readings: "
                            + ", ".join(f"{m.combo} ({m.rank_name})" for m in readings))
        if self.last_play is None:  # pragma: no cover - any reading of cards in hand may lead
            raise PlayError(f"{canonical} cannot be played now")
        raise PlayError(f"{canonical} ({readings[-1].combo}) does not beat {self.last_play.cards} "
                        f"({self.last_play.combo})")

    def _apply_play(self, action: Action) -> None:
        seat = action.seat
        if action.kind == "pass":
            if self.last_play is None:
                raise PlayError("you lead this trick and cannot pass")
            if self.rules.must_beat:
                moves, _ = self.legal_moves()
                if moves:
                    raise PlayError(f"must beat (有大必压): you can beat {self.last_play.cards}, e.g. with "
                                    f"{moves[0].cards}, so you may not pass")
            if self.rules.restricted and not any(a.kind == "pass" for a in self.legal_actions()):
                raise PlayError("passing is not allowed now by this table's rules: "
                                + self._allowed_text())
            self._pass(self.rules.play_lister.passes[seat])  # a pass carries no cards, whatever was given
            return
        if action.kind != "play":
            raise PlayError(f"{action.kind!r} is not an action of the play phase (play or pass)")
        move = action.move
        if move is None:
            move = self._strongest_legal_reading(seat, action.value)
        else:
            if not isinstance(move, Move) or not isinstance(move.cards, str):
                raise PlayError(f"a play's move is a Move (a reading of its cards), not {brief(move)}")
            try:
                readings = self.variant.classify(move.cards, self.wild)
            except C.CardError as e:
                raise PlayError(str(e)) from None
            if move not in readings or not self._is_legal_move(seat, move):
                self._raise_illegal(seat, move.cards, readings, claimed=move)
        if self.rules.restricted and not any(a.kind == "play" and a.move == move
                                             for a in self.legal_actions()):
            raise PlayError(f"{move.cards} is not allowed now by this table's rules: "
                            + self._allowed_text())
        self._commit_play(Action(seat, "play", move.cards, move), move)

    def _pass(self, action: Action) -> None:
        """Record a pass already checked (``action``: the runtime's own pass of that seat)."""
        self.history.append(action)
        self.passes += 1
        if self.passes >= self.players - 1:
            self.last_play = None  # trick over: its winner leads
            self.passes = 0
            self._turn = self.last_seat
        else:
            self._turn = self.next_seat(action.seat)

    def _commit_play(self, action: Action, move: Move) -> None:
        """Play ``move`` as ``action`` (already checked; ``action`` is what the history keeps);
        a transaction, as the plugins' on_play (and at the end on_game_end and settle) run."""
        seat = action.seat
        hand = self.hands[seat]
        counts = play_counts(move.packed)
        for r, c in counts:
            hand[r] -= c
        last_play, last_seat, passes = self.last_play, self.last_seat, self.passes
        history, played = self.history, self.played[seat]
        history.append(action)
        played.append(move)
        self.last_play = move
        self.last_seat = seat
        self.passes = 0
        self._guarded = True  # what plugins write is saved when reached (see _keep)
        try:
            for events in self.rules.on_play(game=self, seat=seat, move=move, led=last_play is None):
                if events:
                    self._add_events(events)
            if not any(hand):
                self._finish(seat)
            else:
                self._turn = self.next_seat(seat)
        except BaseException:
            # the play taken back, and what came of it: the game was in its tricks, not over
            for r, c in counts:
                hand[r] += c
            history.pop()
            played.pop()
            self.last_play, self.last_seat, self.passes = last_play, last_seat, passes
            self.winner, self.scores, self.phase, self._turn = None, None, "play", seat
            self._put_back()
            raise
        finally:
            self._guarded = False
            if self._undo:
                self._undo = {}

    def _allowed_text(self) -> str:
        legal = self.legal_actions()
        shown = ", ".join(map(str, legal[:8])) + (" …" if len(legal) > 8 else "")
        return f"choose one of: {shown}"
