"""Every hook of the ddzrules runtime, in one module. Each docstring is the hook's contract.

A *plugin* is a class registered under the entry-point group ``ddzrules`` (the
built-in ones in ``plugins/`` register exactly like a third-party package would).
A spec activates plugins in its ``game:`` section with parameters::

    game:
      landlord:    {plugin: point-bids, params: {bids: [1, 2, 3], rounds: once}}
      leader:      {plugin: first-leader, params: {by: rank-holder, rank: "3"}}
      declarations: [{plugin: show-hand, params: {factor: 3}}]
      multipliers: [{plugin: bomb-doubling, params: {bombs: effective}}]
      settlement:  {plugin: stake-settlement, params: {}}

For each spec the runtime instantiates every named plugin class once with its
validated parameters (``cls(params)``) and registers the instance on a pluggy
``PluginManager`` of project name ``"ddzrules"``; the hooks below are then called
on the activated plugins only. Plugin instances hold configuration, never game
state: all per-game state lives in the :class:`~ddzrules.runtime.Game` or in the
phase objects the hooks return. Each hook receives that game; its annotation here is
:class:`~ddzrules.runtime.GameState`, the part of a game a plugin may use (the type
checker holds ``Game`` to it).

A plugin class may declare ``params_schema`` (a JSON Schema of its parameters,
validated before the instance is made) and ``name`` (its entry-point name).

**What the runtime checks.** Every call of plugin code — a hook, or ``to_act``,
``options`` and ``apply`` of a phase a hook returned — goes through
:func:`ddzrules.runtime.call_plugin`. Anything it raises (``SystemExit`` and other
``BaseException`` too, but ``KeyboardInterrupt`` and :class:`~ddzrules.errors.Stopped`), an
answer its contract below does not allow (a wrong type, an iterator where a list is due, a
list of more than 1,000 items, a seat that does not exist, a factor that is NaN, infinite, 0
or negative, a score that is no integer …), a deal's phases taking more than
``players × 100 × the plugins that make phases`` actions (a phase that never ends), and a
write to the game that breaks it (``game.stake`` not a finite number ≥ 0, ``game.landlord``
not a seat, a pairwise factor or an added event's factor not a finite number above 0; at
most 2**53 each) is a :class:`~ddzrules.errors.PluginError` naming the plugin and the hook.
The action that ran it (:meth:`~ddzrules.runtime.Game.apply`,
:meth:`~ddzrules.runtime.Game.abandon`) then leaves the game as it was: what the runtime
changed, the current phase's own state, and what plugins wrote through the game
(``stake``, ``landlord``, ``public``, ``private``, ``stats``, ``pair_factors``,
``shown_hands``, ``events``, ``visible_dealt``, ``face_up``, ``request_redeal``, ``rng``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pluggy

if TYPE_CHECKING:  # pragma: no cover
    # the values module, not the runtime package: the runtime registers these specs, and the
    # values module imports nothing of it (no cycle, even for the type checker)
    from ddzrules.game.values import Action, GameState, MultiplierEvent, Phase

PROJECT = "ddzrules"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


@hookspec(firstresult=True)
def ddzrules_deal(game: GameState, deck: list[int]) -> list[int] | None:
    """Order the cards of a fresh deal (洗牌), for a spec with a ``deal:`` plugin.

    Called at every deal (a redeal included), before the wild rank is drawn. ``deck`` is
    every card of the spec's deck as its rank index (0 = 3 … 14 = D), low to high, in a
    fresh list. Returns the same cards in the order they are dealt: the first ``hand``
    cards are seat 0's hand, the next seat 1's …, then the kitty, then the cards left
    undealt. A list that is not the deck's cards reordered is a plugin bug (a
    :class:`~ddzrules.errors.PluginError`). None: the runtime shuffles with ``game.rng``,
    the usual deal. ``game.match.previous_cards`` holds the last game's cards gathered in
    play order when the match carries them (不洗牌: see
    :meth:`~ddzrules.runtime.Game.gathered_cards`); draw any randomness from ``game.rng``.
    firstresult: the spec's ``deal:`` plugin answers.
    """


@hookspec(firstresult=True)
def ddzrules_wild_rank(game: GameState) -> int | list[int] | None:
    """Choose the wild rank (癞子; 天癞子 when another follows) of a fresh deal, for a
    spec with ``wildcards:``.

    Called once per deal (redeals included), right after the cards are dealt and
    before :func:`ddzrules_first_bidder`; ``game.rng`` is the only randomness to use.
    Returns a rank index among the spec's ``wildcards.stand_for`` ranks, a list of
    distinct ones (several wild ranks from the start), or None or an empty list (no
    wild rank this deal).
    The ranks are public: every view shows them (``game.wild``: one index, or several
    ascending). firstresult.
    """


@hookspec(firstresult=True)
def ddzrules_landlord_wild_rank(game: GameState) -> int | list[int] | None:
    """Draw more wild ranks once the landlord is known (地癞子), for a spec with ``wildcards:``.

    Called once per deal at a landlord table, right after the landlord takes the kitty
    (``game.landlord`` is set; bids, calls and robs are over) and before the declaration
    phases; ``game.rng`` is the only randomness to use. Returns a rank index among the
    spec's ``wildcards.stand_for`` ranks that is not wild yet, a list of distinct such
    ranks, or None (no more wild ranks). From then on every wild rank is wild, for every
    player; the ranks are public. firstresult.
    """


@hookspec(firstresult=True)
def ddzrules_first_bidder(game: GameState) -> int | None:
    """Choose the seat that acts first in the landlord phase of a fresh deal.

    Called once per deal (redeals included), after the cards are dealt and before
    :func:`ddzrules_landlord_phase`; only at a landlord table (``table.kind:
    landlord``, the default). ``game.match`` gives the game's index in its
    match and ``game.deal_number`` counts redeals; ``game.rng`` is the game's seeded
    random generator (the only randomness a plugin may use).

    Returns a seat index, or None to let the next plugin decide. firstresult: the
    first non-None answer wins; with no answer the runtime uses seat 0.
    """


@hookspec(firstresult=True)
def ddzrules_landlord_phase(game: GameState) -> Phase | None:
    """Create the landlord phase (叫地主/叫分/抢地主 …) of a fresh deal.

    Called once per deal, after :func:`ddzrules_first_bidder`. Returns a
    :class:`~ddzrules.runtime.Phase`: a small state machine the runtime drives by
    asking whose turn it is, which actions are legal, and applying actions. When it
    ends it must have set ``game.landlord`` and ``game.stake`` (the base score, e.g.
    the winning bid), or called ``game.request_redeal(reason)``.

    firstresult: exactly one active plugin should answer; the spec's ``landlord:``
    plugin. A spec without one is an error reported when the rules are built.
    """


@hookspec(firstresult=True)
def ddzrules_first_leader(game: GameState) -> int | None:
    """Choose the seat that leads the first trick (首出).

    Called once per game, when the tricks begin: after the landlord phase, the kitty
    and the declarations at a landlord table (``game.landlord`` is known), right after
    the deal (and any declarations) at a table without a landlord (``table.kind:
    free-for-all`` or ``partnerships``). ``game.hands`` and ``game.dealt_order`` (the
    shuffled deck, hands dealt from its front) are known; ``game.match`` gives the
    game's place in its match, ``game.match.previous_winner`` the seat that went out
    first in the previous game (None when unknown); ``game.rng`` is the only randomness
    to use.

    Returns a seat index, or None to let the next plugin decide. firstresult: the
    spec's ``leader:`` plugin answers; with no answer the landlord leads, or seat 0 at
    a table without a landlord. The answer is ``game.first_leader``.
    """


@hookspec
def ddzrules_restrict_actions(game: GameState, seat: int, actions: list[Action]) -> list[Action] | None:
    """Restrict the legal actions of the play phase (a house rule: lead with the ♠3, 报单 …).

    Called by ``Game.legal_actions()`` in the play phase, each time the legal actions
    of ``seat`` (the seat to act) are computed for a new position, and by
    ``Game.apply`` through it; never in the landlord or declaration phases. ``actions``
    is what the variant and the table allow (plays, and a pass unless the seat leads or
    ``table.must_beat`` forbids it); it is a fresh list the plugin may not mutate.

    Returns the subset of ``actions`` the plugin allows (elements taken from
    ``actions``), or None for no restriction. Not firstresult: every active plugin is
    called and the runtime keeps the actions *every* answer keeps (the intersection),
    so plugins compose in any order. An answer holding an action not in ``actions``,
    or an intersection that is empty, is a plugin bug: the runtime raises
    :class:`~ddzrules.errors.DdzError` (never leave a seat without an action).
    ``Game.apply`` refuses any other action with :class:`~ddzrules.errors.PlayError`
    and leaves the state unchanged. The answer must depend only on the game's state
    (the hook may be called more than once for one position), never on ``game.rng``.
    """


@hookspec
def ddzrules_declaration_phases(game: GameState) -> list[Phase]:  # type: ignore[empty-body]  # a contract: never run
    """Create the declaration phases that follow the landlord phase (亮牌, 加倍, 加棒 …).

    Called once per game after the landlord is known and the kitty (底牌) has been
    given to the landlord, before the first play. Returns a list of phases (possibly
    empty); all plugins' lists are concatenated in the order the spec lists them and
    run one after the other. A phase records its effects as multiplier events
    (``game.add_event``) or pairwise factors (``game.pair_factors``).
    """


@hookspec
def ddzrules_on_play(game: GameState, seat: int, move: Any, led: bool) -> list[MultiplierEvent] | None:
    """React to a play (not a pass) during the tricks.

    Called after ``move`` (a :class:`~ddzrules.rules.moves.Move`) by ``seat`` has been
    applied; ``led`` is True when it opened a trick (发牌), False when it beat
    another play. Returns multiplier events to record (e.g. a doubling for an
    effective bomb), or None. All plugins are called; their events are all kept.
    """


@hookspec
def ddzrules_on_game_end(game: GameState) -> list[MultiplierEvent] | None:
    """React to the end of the tricks, before settlement.

    Called once when a player has emptied his hand (``game.winner`` is set).
    Returns multiplier events (spring 春天, anti-spring 反春 …) or None. All
    plugins are called.
    """


@hookspec(firstresult=True)
def ddzrules_settle(game: GameState) -> list[int] | None:
    """Turn the finished game into scores, one per seat.

    Called once after :func:`ddzrules_on_game_end`. ``game.stake`` is the base,
    ``game.multiple`` the product of all multiplier events, ``game.pair_factors``
    the per-farmer factors (加倍, 加棒). Returns a list of integers indexed by
    seat (positive = won). firstresult: the spec's ``settlement:`` plugin answers.
    """


@hookspec(firstresult=True)
def ddzrules_settle_escape(game: GameState, seat: int) -> list[int] | None:
    """Charge a player who leaves the game (逃跑) and return everyone's scores.

    Called once by :meth:`~ddzrules.runtime.Game.abandon`, at any moment of the
    game (the landlord may not be known yet). ``game.escaped`` is the seat.
    Returns one integer per seat. firstresult: the settlement plugin that has an
    escape rule answers; a variant whose plugins implement none cannot be abandoned.
    """


@hookspec
def ddzrules_actions() -> list[tuple[str, Any]] | None:
    """Declare every decision the plugin's phases can offer, as ``(kind, value)`` pairs:
    ``("bid", 1)``, ``("decline", None)``, ``("double", None)`` … (a point-bid ``pass`` is
    the play phase's pass and is not declared).

    Called only by tooling, on the activated instance (its parameters are known), never
    during a game. All plugins are called. A plugin that implements
    :func:`ddzrules_landlord_phase` or :func:`ddzrules_declaration_phases` declares its
    actions here, so that a fixed action table can hold them: the PettingZoo environment
    builds its non-play actions from these answers, in the spec's order, and refuses a
    plugin with phases that declares none. A phase offering an action it did not declare
    is a plugin bug the environment reports when it happens. Returns a list of pairs
    (an empty list: phases with no decision), or None for a plugin without phases.
    """


@hookspec
def ddzrules_describe() -> dict[str, Any] | None:
    """Describe the plugin, as configured, for people: the rule sheets of ``ddzrules sheet``
    print what it returns, so a sheet states the rules the plugin was actually given, in
    English and in Chinese, and can never drift from them.

    Called only by tooling (on the activated instance, whose parameters are known), never
    during a game. All plugins are called. Returns a mapping:

    * ``summary`` — one line: ``{"en": ..., "zh": ...}``; a plain string is accepted and
      shown in both languages;
    * ``rules`` (optional) — ``{"en": [...], "zh": [...]}``: one sentence per rule the
      plugin enforces, built from its actual parameters, in the order a player meets
      them; the two lists translate each other item by item;
    * ``params`` (optional) — ``[{"name", "value", "en", "zh"}, ...]``: every parameter
      with its effective value (defaults filled in) and what it means in each language.

    A plugin without this hook is shown by its docstring's first line and the parameters
    the spec gives it. The built-ins build the mapping with ``ddzrules.plugins.Description``.
    """
