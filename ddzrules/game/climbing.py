"""Climbing play rules (the family of 斗地主, 跑得快 …), the default play rules
(:class:`~ddzrules.game.face.PlayRules`): a trick is led by any play; each seat in turn
beats the last play or passes (must beat, 有大必压, when ``table.must_beat`` and a play
beats it); the trick ends when all the others pass, and its winner leads the next; the
first player out ends the game. Its plays are listed fast, once for each state (see
:class:`~ddzrules.game.plays.PlayLister`)."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import repeat as _repeat
from operator import is_ as _is
from typing import TYPE_CHECKING, Any

from ddzrules import cards as C
from ddzrules.errors import PlayError, PluginError, brief
from ddzrules.game import play
from ddzrules.game.plays import is_listed, universe_positions
from ddzrules.game.values import Action, play_counts
from ddzrules.rules.moves import Move
from ddzrules.rules.wild import WildLeads

if TYPE_CHECKING:
    from ddzrules.game.face import GameFace


class Climbing:
    """Climbing play rules: lead, beat or pass, the trick ends when the others pass, the
    first out wins; besides the runtime's questions, the listings a climbing game offers
    (:meth:`legal_plays`, :meth:`legal_moves`, :meth:`legal_listing`) and its plays by
    card string (:meth:`play`, :meth:`explain_illegal`)."""

    name = "climbing"

    def legal_actions(self, game: GameFace) -> list[Action]:
        """The seat to act's plays and pass, as the ``rules:`` plugins restrict them
        (ddzrules_restrict_actions); listed once for each state (see is_listed)."""
        s = game.state
        seat = s.turn
        assert seat is not None
        key = (s.deal_number, len(s.history), seat, tuple(s.hands[seat]), s.last_play, s.wild)
        cached = game.legal_cache
        if cached is not None and cached[0] == key:
            return list(cached[1])
        out, proof = game.rules.play_lister.listed(seat, s.hands[seat], s.last_play, s.wild)
        if game.rules.restricted:
            out, proof = self._restrict(game, seat, out), None
        game.legal_cache = (key, out, proof)
        return list(out)

    def apply(self, game: GameFace, action: Action) -> None:
        """Apply a play or a pass of the seat to act; PlayError (nothing changed) unless it
        is legal. An action legal_actions or legal_plays just listed for this very state
        is not checked again."""
        state = self._play_state(game)
        cached = game.legal_cache
        if cached is not None and cached[0] == state and is_listed(action, cached[1], cached[2]):
            # an action legal_actions just listed for this very state: no need to check it again
            if action.kind == "pass":
                self._pass(game, action)
            else:
                self._commit_play(game, action, action.move)  # type: ignore[arg-type]
            return
        plays = game.plays_cache
        if plays is not None and plays[0] == state:
            # a play legal_plays just listed for this very state (the very Move), or its pass
            move = action.move
            if action.kind == "pass" and plays[2]:
                self._pass(game, game.rules.play_lister.passes[action.seat])
                return
            listed = plays[1]
            if action.kind == "play" and move is not None and (
                    listed.holds(move) if type(listed) is WildLeads else any(map(_is, listed, _repeat(move)))):
                self._commit_play(game, Action(action.seat, "play", move.cards, move), move)
                return
        self._apply_play(game, action)

    def winner_after(self, game: GameFace, seat: int) -> int | None:
        """The first player out ends the game and wins (for his side)."""
        return None if any(game.state.hands[seat]) else seat

    def legal_moves(self, game: GameFace) -> tuple[list[Move], bool]:
        """In the play phase: the legal plays of the seat to act and whether it may pass
        (never when ``table.must_beat`` and a play beats; restrictions not applied)."""
        seat = game.state.turn
        assert seat is not None
        return game.rules.play_lister.moves(game.state.hands[seat], game.state.last_play, game.state.wild)

    def legal_plays(self, game: GameFace) -> tuple[Sequence[Move], bool]:
        """:meth:`Game.legal_plays <ddzrules.game.game.Game.legal_plays>` under the climbing
        rules: the plays the seat to act may make, as Moves, and whether it may pass."""
        s = game.state
        if s.phase != "play":
            raise PlayError(f"legal_plays lists the plays of the play phase; this game is in its {s.phase} phase")
        seat = s.turn
        assert seat is not None
        state = self._play_state(game)
        cached = game.plays_cache
        if cached is None or cached[0] != state:
            plays: Sequence[Move]
            if game.rules.restricted:  # what the plugins keep: read off the actions
                actions = self.legal_actions(game)
                plays = tuple([a.move for a in actions if a.kind == "play" and a.move is not None])
                can_pass = any(a.kind == "pass" for a in actions)
            else:
                plays, can_pass = game.rules.play_lister.plays(s.hands[seat], s.last_play, s.wild)
            cached = game.plays_cache = (state, plays, can_pass)
        return cached[1], cached[2]

    def legal_listing(self, game: GameFace,
                      ) -> tuple[list[Action], tuple[tuple[Move, ...], list[int]] | None]:
        """:meth:`legal_actions`, and where the plays among them were listed in the
        variant's fast index (:attr:`Variant.built_fast_index`) the index's Moves in listing
        order with the positions of those plays, ascending (the pass, when legal, is the
        last action and has no position); else None (outside the play phase, wild cards
        held, a plugin's restriction, the index not built yet). For callers that map plays
        to ids of their own in bulk (the batched environment)."""
        actions = play.legal_actions(game)
        cached = game.legal_cache  # the listing legal_actions just read or made
        if game.state.phase != "play" or cached is None:
            return actions, None
        return actions, universe_positions(cached[2])

    def _play_state(self, game: GameFace) -> tuple[Any, ...]:
        """What the play phase's legal actions depend on (a hand set by hand included)."""
        s = game.state
        seat = s.turn
        return (s.deal_number, len(s.history), seat, tuple(s.hands[seat]),  # type: ignore[index]
                s.last_play, s.wild)

    def _restrict(self, game: GameFace, seat: int, actions: list[Action]) -> list[Action]:
        """Keep the actions every ddzrules_restrict_actions answer keeps (the intersection);
        each answer is checked to hold only actions of ``actions`` (see _check_restriction)."""
        hook = game.rules.hooks["ddzrules_restrict_actions"]
        kept = list(actions)
        for allowed in hook.pairs(context={"actions": actions}, game=game, seat=seat, actions=list(actions)):
            ids = set(map(id, allowed[1]))
            kept = [a for a in kept if id(a) in ids]
        if not kept:
            raise PluginError(hook.owners(), hook.name, f"the plugins left seat {seat} no legal action")
        return kept

    def play(self, game: GameFace, seat: int, cards: str | None) -> Move | None:
        """Convenience for people and tests: play a card string (or pass with None)."""
        if cards is None:
            play.apply(game, Action(seat, "pass"))
            return None
        move = self._strongest_legal_reading(game, seat, cards)
        play.apply(game, Action(seat, "play", move.cards, move))
        return move

    def _strongest_legal_reading(self, game: GameFace, seat: int, cards: object) -> Move:
        """The strongest reading of ``cards`` that ``seat`` may play now (PlayError if none)."""
        if not isinstance(cards, str):
            raise PlayError(f"a play needs cards, got {cards!r}")
        try:
            canonical = C.parse_cards(cards)
        except C.CardError as e:
            raise PlayError(str(e)) from None
        readings = game.variant.classify(canonical, game.state.wild)
        legal = [m for m in readings if self._is_legal_move(game, seat, m)]
        if not legal:
            self._raise_illegal(game, seat, canonical, readings)
        if game.rules.restricted and game.state.phase == "play" and seat == game.state.turn:
            allowed = {a.move for a in self.legal_actions(game) if a.kind == "play"}
            legal = [m for m in legal if m in allowed] or legal  # none allowed: _apply_play says so
        return max(legal, key=lambda m: m.strength)

    def _is_legal_move(self, game: GameFace, seat: int, m: Move) -> bool:
        if not C.contains(C.pack(game.state.hands[seat]), m.packed):
            return False
        return game.state.last_play is None or m.beats(game.state.last_play)

    def explain_illegal(self, game: GameFace, seat: int, cards: str) -> None:
        """Raise the PlayError saying why ``cards`` cannot be played by ``seat`` now."""
        canonical = C.parse_cards(cards)
        self._raise_illegal(game, seat, canonical, game.variant.classify(canonical, game.state.wild))

    def _raise_illegal(self, game: GameFace, seat: int, canonical: str, readings: tuple[Move, ...],
                       claimed: Move | None = None) -> None:
        if not readings:
            raise PlayError(f"{canonical} is not a combo of {game.variant.name}")
        if not C.contains(C.pack(game.state.hands[seat]), readings[0].packed):
            raise PlayError(f"{canonical} is not in your hand ({game.hand_string(seat)})")
        if claimed is not None and claimed not in readings:
            raise PlayError(f"{canonical} cannot be read as {claimed.combo} ({claimed.rank_name}); its readings: "
                            + ", ".join(f"{m.combo} ({m.rank_name})" for m in readings))
        if game.state.last_play is None:  # pragma: no cover - any reading of cards in hand may lead
            raise PlayError(f"{canonical} cannot be played now")
        raise PlayError(f"{canonical} ({readings[-1].combo}) does not beat {game.state.last_play.cards} "
                        f"({game.state.last_play.combo})")

    def _apply_play(self, game: GameFace, action: Action) -> None:
        seat = action.seat
        if action.kind == "pass":
            if game.state.last_play is None:
                raise PlayError("you lead this trick and cannot pass")
            if game.rules.must_beat:
                moves, _ = self.legal_moves(game)
                if moves:
                    raise PlayError(f"must beat (有大必压): you can beat {game.state.last_play.cards}, e.g. with "
                                    f"{moves[0].cards}, so you may not pass")
            if game.rules.restricted and not any(a.kind == "pass" for a in self.legal_actions(game)):
                raise PlayError("passing is not allowed now by this table's rules: "
                                + self._allowed_text(game))
            self._pass(game, game.rules.play_lister.passes[seat])  # a pass carries no cards, whatever was given
            return
        if action.kind != "play":
            raise PlayError(f"{action.kind!r} is not an action of the play phase (play or pass)")
        move = action.move
        if move is None:
            move = self._strongest_legal_reading(game, seat, action.value)
        else:
            if not isinstance(move, Move) or not isinstance(move.cards, str):
                raise PlayError(f"a play's move is a Move (a reading of its cards), not {brief(move)}")
            try:
                readings = game.variant.classify(move.cards, game.state.wild)
            except C.CardError as e:
                raise PlayError(str(e)) from None
            if move not in readings or not self._is_legal_move(game, seat, move):
                self._raise_illegal(game, seat, move.cards, readings, claimed=move)
        if game.rules.restricted and not any(a.kind == "play" and a.move == move
                                             for a in self.legal_actions(game)):
            raise PlayError(f"{move.cards} is not allowed now by this table's rules: "
                            + self._allowed_text(game))
        self._commit_play(game, Action(seat, "play", move.cards, move), move)

    def _pass(self, game: GameFace, action: Action) -> None:
        """Record a pass already checked (``action``: the runtime's own pass of that seat)."""
        s = game.state
        s.history.append(action)
        s.passes += 1
        if s.passes >= game.players - 1:
            s.last_play = None  # trick over: its winner leads
            s.passes = 0
            s.turn = s.last_seat
        else:
            s.turn = game.rules.next_seat(action.seat)

    def _commit_play(self, game: GameFace, action: Action, move: Move) -> None:
        """Play ``move`` as ``action`` (already checked; ``action`` is what the history keeps);
        taken back when the plugins' on_play (or at the end on_game_end and settle) fail."""
        s = game.state
        seat = action.seat
        hand = s.hands[seat]
        counts = play_counts(move.packed)
        for r, c in counts:
            hand[r] -= c
        last_play, last_seat, passes = s.last_play, s.last_seat, s.passes
        history, played = s.history, s.played[seat]
        history.append(action)
        played.append(move)
        s.last_play = move
        s.last_seat = seat
        s.passes = 0
        try:
            play.after_play(game, seat, move, last_play is None, game.rules.next_seat(seat))
        except BaseException:
            # the play taken back (after_play took back what came of it)
            for r, c in counts:
                hand[r] += c
            history.pop()
            played.pop()
            s.last_play, s.last_seat, s.passes = last_play, last_seat, passes
            raise

    def _allowed_text(self, game: GameFace) -> str:
        legal = self.legal_actions(game)
        shown = ", ".join(map(str, legal[:8])) + (" …" if len(legal) > 8 else "")
        return f"choose one of: {shown}"


#: the climbing rules (they hold no state: one serves every game)
CLIMBING = Climbing()
