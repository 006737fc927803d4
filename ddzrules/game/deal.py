"""The flow before and after the tricks, as functions of a game: dealing (and redealing),
the landlord phase and the declarations (phases plugins make), the start of the tricks,
the end (a player out, an escape) and its scores. The tricks are
:mod:`ddzrules.game.play`'s; a game's data is its :class:`~ddzrules.game.state.State`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ddzrules import cards as C
from ddzrules.errors import DdzError, PlayError, PluginError, brief
from ddzrules.game import transaction
from ddzrules.game.checks import NO_CONTEXT, PHASE_CHECKS
from ddzrules.game.door import call_plugin
from ddzrules.game.rules import MAX_REDEALS, PHASE_TURNS
from ddzrules.game.values import Action, Phase

if TYPE_CHECKING:
    from ddzrules.game.face import GameFace


def start_deal(game: GameFace) -> None:
    """Deal (again): the state of a new deal, the deck shuffled (or a ``deal:`` plugin's
    order), the wild ranks drawn, then the table's opening phases or the declarations."""
    if game.undo is not None:  # a redeal inside an action: what it replaces, to put back
        transaction.keep_deal(game)
    s = game.state
    players = game.players
    s.deal_number += 1
    if s.deal_number > MAX_REDEALS:
        raise DdzError(f"no landlord after {MAX_REDEALS} redeals")
    s.landlord = None
    s.stake = 0
    s.events = []
    game.multiple_memo = None
    s.pair_factors = {}
    s.shown_hands = set()
    s.kitty_visible = False
    s.public = {}
    s.private = {seat: {} for seat in range(players)}
    s.visible_dealt = None
    s.stats = {}
    s.escaped = None
    s.redeal = None
    s.played = [[] for _ in range(players)]
    s.last_play = None
    s.last_seat = None
    s.passes = 0
    s.winner = None
    s.scores = None
    s.first_leader = None
    game.legal_cache = None
    s.turn = None
    s.phases = []
    s.owners = []
    s.current = None
    s.first_bidder = 0
    # the deal last: a deal: plugin is called as any plugin is, on a game reset for it
    rules = game.rules
    deck = C.deck_list(game.variant.rules.deck)
    # the check compares with the deck itself, not the list the plugin may have changed
    dealt = rules.hooks["ddzrules_deal"].pairs({"deck": tuple(deck)}, game=game, deck=list(deck))
    if not dealt:  # the usual deal: shuffled
        s.rng.shuffle(deck)
    else:  # a deal: plugin's order (checked: the deck's cards)
        deck = dealt[0][1]
    n, h, k = players, rules.hand_size, rules.kitty_size
    s.hands = [C.counts_of(deck[i * h:(i + 1) * h]) for i in range(n)]
    s.kitty = C.counts_of(deck[n * h:n * h + k])
    s.undealt = C.counts_of(deck[n * h + k:])
    s.dealt_order = deck
    s.face_up = None
    s.deals.append({"hands": [C.counts_to_string(x) for x in s.hands], "kitty": C.counts_to_string(s.kitty)})
    table = rules.table
    s.phase = table.first_phase
    s.wild = None
    game.draw_wild("ddzrules_wild_rank")
    opening = table.opening(game, rules.hooks)  # the table's own phases (the landlord's)
    if opening:
        s.phases = [phase for phase, _ in opening]
        s.owners = [owner for _, owner in opening]
    else:  # declarations, then tricks
        s.phase = "declare"
        s.phases, s.owners = declaration_phases(game)
    if not next_phase(game):
        start_play(game)
        return
    advance(game)


def declaration_phases(game: GameFace) -> tuple[list[Phase], list[tuple[str, str]]]:
    """The declaration phases in the spec's order, and the plugin (and hook) of each."""
    hook = game.rules.hooks["ddzrules_declaration_phases"]
    answers: list[tuple[str, list[Phase]]] = hook.pairs(game=game)
    phases: list[Phase] = []
    owners: list[tuple[str, str]] = []
    # pluggy calls the last-registered plugin first; the spec's order is the reverse
    for label, made in reversed(answers):
        for phase in made:
            phases.append(phase)
            owners.append((label, hook.name))
    return phases, owners


def next_phase(game: GameFace) -> bool:
    """The next phase to come becomes the current one (None when there is none); whether
    there is one. (Callers test this answer, not ``state.current``: just after it is set
    to None the type checker, and so the compiled build, would take it to be None still.)"""
    s = game.state
    if s.phases:
        s.current = s.phases.pop(0)
        s.owner = s.owners.pop(0)
        return True
    s.current = None
    s.owner = ("", "")
    return False


def phase_call(game: GameFace, method: str, *args: Any) -> Any:
    """Call a method of the current phase (plugin code) through call_plugin, its answer
    checked as a hook's is (PHASE_CHECKS)."""
    s = game.state
    plugin, hook = s.owner
    context = {"seat": s.turn} if method == "options" else NO_CONTEXT
    return call_plugin(game, plugin, hook, getattr(s.current, method), [game, *args],
                       PHASE_CHECKS[method], context, method)


def start_play(game: GameFace) -> None:
    """The tricks begin: ``ddzrules_first_leader`` names who leads (default: the
    landlord, or seat 0 at a table without one)."""
    s = game.state
    s.phase = "play"
    s.current = None
    leader = game.rules.hooks["ddzrules_first_leader"].one(game=game)  # checked: a seat
    if leader is None:
        landlord = s.landlord
        leader = landlord if landlord is not None else 0
    s.first_leader = leader
    s.turn = leader


def advance(game: GameFace) -> None:
    """Move to the next phase when the current one is over."""
    s = game.state
    while s.current is not None:
        seat = phase_call(game, "to_act")
        if seat is not None:
            s.turn = seat
            return
        if s.redeal is not None:
            if s.deal_number >= MAX_REDEALS:  # a phase that asks for deals for ever
                plugin, hook = s.owner
                raise PluginError(plugin, hook, f"its phase asked for a redeal after {MAX_REDEALS} "
                                                "redeals, the most a game takes")
            s.redeal_reasons.append(s.redeal)
            s.history.append(Action(-1, "redeal", s.redeal))
            start_deal(game)
            return
        if s.phase != "declare":  # the table's own phases are over (the landlord's)
            ended = s.current
            assert ended is not None
            game.rules.table.opening_over(game, ended, s.owner)
            s.phase = "declare"
            s.phases, s.owners = declaration_phases(game)
        if not next_phase(game):
            start_play(game)
            return
    return


def apply_phase_action(game: GameFace, action: Action) -> None:
    """Apply an action of a phase plugins made (bids, declarations): one of the options
    the phase offers, else PlayError; a transaction (see :mod:`ddzrules.game.transaction`)."""
    s = game.state
    assert s.current is not None
    limit = game.rules.phase_actions
    if len(s.history) - deal_start(game) >= limit:  # what a phase took: not play's
        plugin, hook = s.owner
        raise PluginError(plugin, hook, f"its phase {brief(getattr(s.current, 'name', '?'))} has not "
                                        f"ended after {limit:,} actions of this deal's phases, the most "
                                        f"{game.players} seats may take ({PHASE_TURNS} a seat "
                                        "for each plugin that makes phases)")
    options = phase_call(game, "options")
    chosen = next((o for o in options if action.matches(o)), None)
    if chosen is None:
        raise PlayError(f"{action} is not allowed now; choose one of: " + ", ".join(map(str, options)))
    saved = transaction.begin(game)
    try:
        # the history keeps the option itself, not whatever else the caller attached to it
        s.history.append(chosen)
        phase_call(game, "apply", chosen)
        advance(game)
    except BaseException:
        transaction.rollback(game, saved)
        raise
    finally:
        transaction.end(game)


def abandon(game: GameFace, seat: int) -> None:
    """逃跑: ``seat`` leaves the game; the escape rule of the settlement charges him.
    PlayError (state unchanged) when the game is over or the variant has no escape rule."""
    s = game.state
    if s.phase == "over":
        raise PlayError("the game is over")
    if isinstance(seat, bool) or type(seat) is not int or not 0 <= seat < game.players:
        raise PlayError(f"no seat {brief(seat)}")
    if not game.rules.hook.ddzrules_settle_escape.get_hookimpls():
        raise PlayError(f"{game.variant.name} has no escape rule")
    saved = transaction.begin(game)
    try:
        s.escaped = seat
        s.history.append(Action(seat, "escape"))
        s.phase = "over"
        s.turn = None
        scores = game.rules.hooks["ddzrules_settle_escape"].one(game=game, seat=seat)  # checked
        s.scores = scores if scores is not None else [0] * game.players
    except BaseException:
        transaction.rollback(game, saved)
        raise
    finally:
        transaction.end(game)


def finish(game: GameFace, seat: int) -> None:
    """The game is over, won by ``seat`` (for his side): on_game_end, then the settlement."""
    s = game.state
    s.winner = seat
    s.phase = "over"
    s.turn = None
    hooks = game.rules.hooks
    for events in hooks["ddzrules_on_game_end"](game=game):
        if events:
            game.add_events(events)
    hook = hooks["ddzrules_settle"]
    scores = hook.one(game=game)  # checked: one integer per seat
    if scores is None:  # GameRules checks that a settlement plugin exists: it answered None
        raise PluginError(hook.owners(), hook.name, "answered no scores (None)")
    s.scores = scores


def deal_start(game: GameFace) -> int:
    """Where the last deal's actions begin in the history (after its last redeal marker)."""
    history = game.state.history
    for i in range(len(history) - 1, -1, -1):
        if history[i].kind == "redeal":
            return i + 1
    return 0


def gathered_cards(game: GameFace) -> tuple[int, ...]:
    """The cards of this game gathered as a table picks them up for a deal that does not
    shuffle (不洗牌): every play of the last deal in the order it was made (each play's
    cards low to high), then each seat's cards left in hand (seat 0 first, low to high),
    then the kitty if nobody took it and the cards never dealt. As rank indices; the
    next game of a match gets them as ``MatchInfo.previous_cards``."""
    s = game.state
    out: list[int] = []
    for action in s.history[deal_start(game):]:
        if action.kind == "play" and action.move is not None:
            out += C.parse_ranks(action.move.cards)
    for hand in s.hands:
        out += C.deck_list(hand)
    rest = C.deck_list(s.undealt)
    if len(out) + len(rest) < sum(game.variant.rules.deck):  # the kitty, never taken
        out += C.deck_list(s.kitty)
    return tuple(out + rest)


def seen_hand(game: GameFace, seat: int) -> str:
    """A hand as far as it has been dealt (all of it, except while deciding 明牌
    before or during the deal)."""
    s = game.state
    seen = s.visible_dealt
    if seen is None:
        return C.counts_to_string(s.hands[seat])
    h = game.rules.hand_size
    return C.counts_to_string(C.counts_of(s.dealt_order[seat * h: seat * h + seen]))
