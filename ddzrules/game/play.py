"""The turns, as functions of a game and an action: :func:`legal_actions` and
:func:`apply` send the play phase's questions to its :class:`PlayRules` (the rules of the
tricks, chosen once when the rules are made, :mod:`ddzrules.game.face`'s seam; the
default, climbing, is :mod:`ddzrules.game.climbing`'s) and the other phases' to their plugins
(:mod:`ddzrules.game.deal`); :func:`after_play` is what play rules call once a play is
recorded: its plugins, in a transaction, and the game's end."""

from __future__ import annotations

from ddzrules.errors import PlayError
from ddzrules.game import deal, transaction
from ddzrules.game.face import GameFace, PlayRules
from ddzrules.game.values import Action
from ddzrules.rules.moves import Move

__all__ = ["PlayRules", "after_play", "apply", "legal_actions"]


def legal_actions(game: GameFace) -> list[Action]:
    """Every legal action of the seat to act (plays, passes, bids, declarations); in the
    play phase, as the ``rules:`` plugins restrict them (ddzrules_restrict_actions)."""
    phase = game.state.phase
    if phase == "play":
        return game.play_rules.legal_actions(game)
    if phase == "over":
        return []
    options: list[Action] = deal.phase_call(game, "options")  # a list of its own (see _check_options)
    return options


def apply(game: GameFace, action: Action) -> None:
    """Apply one action; PlayError (state unchanged) if it is not legal now."""
    s = game.state
    if s.phase == "over":
        raise PlayError("the game is over")
    if action.seat != s.turn:
        raise PlayError(f"it is seat {s.turn}'s turn, not seat {action.seat}'s")
    if s.phase == "play":
        game.play_rules.apply(game, action)
    else:
        deal.apply_phase_action(game, action)


def after_play(game: GameFace, seat: int, move: Move, led: bool, next_seat: int) -> None:
    """For play rules, once ``seat``'s play of ``move`` is recorded: the plugins'
    on_play, then the end of the game if the rules name a winner now (on_game_end and
    settle), else ``next_seat`` to act; a transaction: when plugin code fails, what it
    wrote is put back and the game is in its tricks again, ``seat`` to act, and the
    error raised for the rules to take back the play."""
    s = game.state
    game.undo = {}  # what plugins write is kept when reached (see transaction.keep)
    try:
        for events in game.rules.on_play(game=game, seat=seat, move=move, led=led):
            if events:
                game.add_events(events)
        winner = game.play_rules.winner_after(game, seat)
        if winner is not None:
            deal.finish(game, winner)
        else:
            s.turn = next_seat
    except BaseException:
        # what came of the play taken back: the game was in its tricks, not over
        s.winner, s.scores, s.phase, s.turn = None, None, "play", seat
        transaction.put_back(game)
        raise
    finally:
        game.undo = None
