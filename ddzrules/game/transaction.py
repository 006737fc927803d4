"""Transactions: an action that runs plugin code either completes or leaves the game as it
was. :func:`begin` snapshots what any action may change (the history's length, the turn,
the phases and the current phase's own state); what plugin code may write through the
game (``stake``, ``landlord``, ``public``, ``private``, ``stats``, ``pair_factors``,
``shown_hands``, ``events``, ``visible_dealt``, ``face_up``, ``request_redeal``, ``rng``)
joins the snapshot when the game's face first reaches it (:func:`keep`), so an action
that touches none of it costs nothing to guard: a play's plugins run at every step, and
copying their containers at each (0.6-1.3 us) would cost 5-11% of a step (11.8 us).
:func:`rollback` puts the snapshot back: the very objects, their contents as they were."""

from __future__ import annotations

from typing import Any

from ddzrules.errors import brief
from ddzrules.game.checks import event_problem, factor_problem
from ddzrules.game.state import GameCore, fast_copy

#: what plugins write through the game's face: containers (their contents kept) and values
PLUGIN_CONTAINERS = ("public", "private", "stats", "pair_factors", "shown_hands", "events")
PLUGIN_VALUES = ("stake", "landlord", "visible_dealt", "face_up", "redeal")


def keep(game: GameCore, name: str) -> None:
    """Add the field ``name`` of the game's state, as it is now, to the running
    transaction's snapshot (once): a value as it is, a container as the object and a copy
    of its contents; the generator as its state."""
    undo = game.undo
    if undo is None or name in undo:
        return
    state = game.state
    if name == "rng":
        undo[name] = state.rng.getstate()
    elif name in PLUGIN_VALUES:
        undo[name] = getattr(state, name)
    else:
        obj = getattr(state, name)
        undo[name] = (obj, fast_copy(obj, game.copy_memo()))


def keep_deal(game: GameCore) -> None:
    """Before a redeal inside a transaction: everything the new deal replaces (it makes
    new objects, so the old ones are kept as they are)."""
    undo = game.undo
    assert undo is not None
    s = game.state
    for name in PLUGIN_CONTAINERS:
        if name not in undo:
            undo[name] = (getattr(s, name), None)
    for name in PLUGIN_VALUES:
        if name not in undo:
            undo[name] = getattr(s, name)
    if "deal" not in undo:
        undo["deal"] = (
            s.deal_number, len(s.deals), s.hands, s.kitty, s.undealt, s.dealt_order, game.multiple_memo,
            s.kitty_visible, s.escaped, s.played, s.last_play, s.last_seat, s.passes, s.winner, s.scores,
            s.first_leader, game.legal_cache, s.turn, s.phases, s.owners, s.current, s.owner,
            s.first_bidder, s.phase, s.wild)
    keep(game, "rng")  # the deal shuffles with it


def keep_kitty(game: GameCore, hand: list[int]) -> None:
    """Before the landlord takes the kitty inside a transaction: his hand's counts, and
    what the kitty's giving changes besides."""
    undo = game.undo
    if undo is not None and "kitty" not in undo:
        undo["kitty"] = (hand, list(hand), game.state.kitty_visible, game.state.wild)


def begin(game: GameCore) -> tuple[Any, ...]:
    """A transaction begins: the snapshot of what any action may change besides what
    :func:`keep` adds when it is reached."""
    game.undo = {}
    s = game.state
    phase = s.current
    phase_state = None
    if phase is not None:
        fields = getattr(phase, "__dict__", None)
        phase_state = fast_copy(phase if fields is None else fields, game.copy_memo())
    return (len(s.history), len(s.redeal_reasons), s.phase, s.turn, s.first_leader, s.escaped, s.winner,
            s.scores, game.legal_cache, phase, phase_state, s.owner, s.phases, list(s.phases), s.owners,
            list(s.owners))


def rollback(game: GameCore, saved: tuple[Any, ...]) -> None:
    """Put back what :func:`begin`, :func:`keep`, :func:`keep_deal` and
    :func:`keep_kitty` saved."""
    undo = game.undo or {}
    s = game.state
    kitty = undo.get("kitty")
    if kitty is not None:
        hand, counts, s.kitty_visible, s.wild = kitty
        hand[:] = counts
    deal = undo.get("deal")
    if deal is not None:
        (s.deal_number, n_deals, s.hands, s.kitty, s.undealt, s.dealt_order, game.multiple_memo,
         s.kitty_visible, s.escaped, s.played, s.last_play, s.last_seat, s.passes, s.winner, s.scores,
         s.first_leader, game.legal_cache, s.turn, s.phases, s.owners, s.current, s.owner,
         s.first_bidder, s.phase, s.wild) = deal
        del s.deals[n_deals:]
    (n_history, n_reasons, s.phase, s.turn, s.first_leader, s.escaped, s.winner, s.scores, game.legal_cache,
     phase, phase_state, s.owner, phases, phase_items, owners, owner_items) = saved
    del s.history[n_history:]
    del s.redeal_reasons[n_reasons:]
    phases[:] = phase_items
    s.phases = phases
    owners[:] = owner_items
    s.owners = owners
    if phase is not None and getattr(phase, "__dict__", None) is not None:
        vars(phase).clear()
        vars(phase).update(phase_state)
        s.current = phase
    else:
        s.current = phase_state  # None, or a phase without a __dict__: its saved copy
    put_back(game)


def put_back(game: GameCore) -> None:
    """Put back the fields :func:`keep` saved."""
    undo = game.undo
    if not undo:
        return
    s = game.state
    for name in PLUGIN_CONTAINERS:
        got = undo.get(name)
        if got is not None:
            obj, content = got
            if content is not None:
                if type(obj) is dict or type(obj) is set:
                    obj.clear()
                    obj.update(content)
                elif type(obj) is list:
                    obj[:] = content
                else:  # not a container of its own: its copy stands for it
                    obj = content
            setattr(s, name, obj)
    for name in PLUGIN_VALUES:
        if name in undo:
            setattr(s, name, undo[name])
    rng = undo.get("rng")
    if rng is not None:
        s.rng.setstate(rng)


def end(game: GameCore) -> None:
    """The transaction is over (committed or put back)."""
    game.undo = None


def audit(game: GameCore, events_before: int) -> str | None:
    """What plugin code may have written into the game's containers, checked (by
    call_plugin after each call; the values it sets are checked when set, see Game): the
    pairwise factors, and the events added since ``events_before`` (-1: since the
    transaction began); what is wrong, or None."""
    s = game.state
    if s.pair_factors:
        for seat, f in s.pair_factors.items():
            problem = factor_problem(f)
            if problem is not None:
                return f"set the pairwise factor of seat {brief(seat)} to {problem}"
    events = s.events
    if events_before < 0:  # in a transaction: events added since it began (see keep)
        kept = (game.undo or {}).get("events")
        events_before = len(events) if kept is None or kept[1] is None else len(kept[1])
    if len(events) > events_before:
        for e in events[events_before:]:
            problem = event_problem(e)
            if problem is not None:
                return f"added {problem}"
    return None
