"""The door to plugin code: :func:`call_plugin`, the one place where the runtime runs it
(each answer checked, a failure a :class:`~ddzrules.errors.PluginError`), :class:`Hook`,
one hook called as pluggy calls it, and :class:`GameRecord`, what plugin code may write
of a game, guarded by the transaction an action runs in (saved when first reached, put
back when the action fails)."""

from __future__ import annotations

import copy
import math
import random
from collections.abc import Sequence
from typing import Any, cast

from ddzrules.errors import STOPS, PluginError, brief
from ddzrules.game.checks import (
    FACTOR_LIMIT,
    HOOK_CHECKS,
    NO_CONTEXT,
    event_problem,
    factor_problem,
    number_problem,
    raised_text,
)
from ddzrules.game.values import Action, MatchInfo, MultiplierEvent, Phase, counts_string
from ddzrules.rules.moves import Move
from ddzrules.variant import Variant


def call_plugin(game: GameRecord, plugin: str, hook: str, function: Any, args: list[Any],
                check: Any, context: dict[str, Any], method: str = "") -> Any:
    """Call plugin code — one implementation of a hook, or the ``method`` of a phase a
    plugin made with that hook — for ``game``: the one place where the runtime does.
    Whatever it raises, an answer (not None) that ``check`` refuses, and what it wrote to
    the game that breaks the game's invariants (:meth:`Game._audit`: the stake, the
    landlord, pairwise factors, the events it added) become a :class:`PluginError` naming
    ``plugin`` and the hook; the caller's transaction then puts the game back as it was."""
    before = -1 if game._guarded else len(game._events)  # in a transaction: see Game._audit
    try:
        answer = function(*args)
    except BaseException as e:  # plugin code: any failure is its own (SystemExit, GeneratorExit …)
        if isinstance(e, STOPS):  # Ctrl-C, a stopped worker: not the plugin's
            raise
        raise PluginError(plugin, _hook_name(hook, method), raised_text(e)) from e
    if answer is not None and check is not None:
        answer = _checked(game, plugin, hook, check, answer, context, method)
    # in a transaction, what plugin code writes is saved when reached (Game._keep): nothing
    # saved, nothing written (a play that touches nothing is not audited)
    if game._undo or not game._guarded:
        problem = game._audit(before)
        if problem is not None:
            raise PluginError(plugin, _hook_name(hook, method), problem)
    return answer


def call_declared(plugin: str, inst: Any, hook: str) -> Any:
    """Call hook ``hook`` of a plugin instance that tooling calls, never a game
    (``ddzrules_actions``): None when it has none, else its answer checked by the hook's
    contract (:data:`HOOK_CHECKS`, a list read to a bound). Whatever it raises (SystemExit
    included) and an answer the contract does not allow are a PluginError naming the
    plugin and the hook."""
    function = getattr(inst, hook, None)
    if not callable(function) or not hasattr(function, "ddzrules_impl"):
        return None
    try:
        answer = function()
    except BaseException as e:  # plugin code: any failure is its own
        if isinstance(e, STOPS):
            raise
        raise PluginError(plugin, hook, raised_text(e)) from e
    check = HOOK_CHECKS.get(hook)
    if answer is None or check is None:
        return answer
    try:
        return check(None, answer, NO_CONTEXT)
    except ValueError as e:
        raise PluginError(plugin, hook, str(e)) from None
    except Exception as e:  # an answer whose own methods raise when read
        raise PluginError(plugin, hook, f"answered {brief(answer)}, which cannot be read ({raised_text(e)})") from e


def _hook_name(hook: str, method: str) -> str:
    return f"{hook}, phase.{method}" if method else hook


def _checked(game: GameRecord, plugin: str, hook: str, check: Any, answer: Any, context: dict[str, Any],
             method: str = "") -> Any:
    """``answer`` as ``check`` keeps it; a PluginError saying what is wrong with it otherwise."""
    try:
        return check(game, answer, context)
    except ValueError as e:
        raise PluginError(plugin, _hook_name(hook, method), str(e)) from None
    except Exception as e:  # an answer whose own methods raise when read
        raise PluginError(plugin, _hook_name(hook, method), f"answered {brief(answer)}, which cannot "
                                                            f"be read ({raised_text(e)})") from e


class Hook:
    """One hook of one :class:`GameRules`, called as pluggy calls it — every
    implementation, the last registered first, keeping the answers that are not None; a
    firstresult hook stops at the first — through :func:`call_plugin`, which checks each
    answer by the hook's contract (:data:`HOOK_CHECKS`), and without pluggy's per-call
    bookkeeping: on hubei-3p, a call of ddzrules_on_play that nobody answers costs 1.3 us
    here, checks included, and 1.8 us through pluggy's HookCaller, unchecked; at 0.48 calls
    a step, 2% of a step (11.8 us). Through pluggy's own loop, each implementation wrapped
    in call_plugin (tried for issue 45), a step cost 5% more. While any implementation is a
    wrapper, the call goes through pluggy itself, failures named after every plugin
    implementing the hook."""

    __slots__ = ("caller", "check", "first", "impls", "labels", "name", "plan")

    def __init__(self, caller: Any, name: str, first: bool, labels: dict[str, str]) -> None:
        self.caller = caller
        self.name = name
        self.first = first
        self.check = HOOK_CHECKS.get(name)
        self.labels = labels  # registered name -> the plugin's name in the spec
        self.impls: list[Any] = []
        self.plan: list[tuple[Any, tuple[str, ...], str]] | None = []

    def _plan(self) -> list[tuple[Any, tuple[str, ...], str]] | None:
        impls = self.caller.get_hookimpls()
        if impls != self.impls:  # a plugin registered or removed since the last call
            self.impls = impls
            wrapped = any(i.hookwrapper or i.wrapper for i in impls)
            self.plan = None if wrapped else [
                (i.function, tuple(i.argnames), self.labels.get(i.plugin_name, i.plugin_name))
                for i in reversed(impls)]
        return self.plan

    def pairs(self, context: dict[str, Any] | None = None, **kwargs: Any) -> list[tuple[str, Any]]:
        """Each implementation's checked answer that is not None, with the name of its plugin
        (only the first for a firstresult hook). ``context``: what the check reads besides the
        hook's arguments (which plugins could change), by default those arguments."""
        plan = self._plan()
        game = kwargs["game"]
        ctx = kwargs if context is None else context
        if plan is None:
            return self._through_pluggy(game, kwargs, ctx)
        out = []
        for function, names, label in plan:
            answer = call_plugin(game, label, self.name, function, [kwargs[n] for n in names],
                                 self.check, ctx)
            if answer is not None:
                out.append((label, answer))
                if self.first:
                    break
        return out

    def __call__(self, **kwargs: Any) -> list[Any]:
        """Each implementation's checked answer that is not None (a hook that is not
        firstresult, called at every play: no pairs made)."""
        plan = self.plan if self.caller.get_hookimpls() == self.impls else self._plan()
        game = kwargs["game"]
        if plan is None:
            return [a for _, a in self._through_pluggy(game, kwargs, kwargs)]
        out = []
        for function, names, label in plan:
            answer = call_plugin(game, label, self.name, function, [kwargs[n] for n in names],
                                 self.check, kwargs)
            if answer is not None:
                out.append(answer)
        return out

    def one(self, **kwargs: Any) -> Any:
        """The first checked answer that is not None, or None (a firstresult hook)."""
        got = self.pairs(None, **kwargs)
        return got[0][1] if got else None

    def owners(self) -> str:
        """The plugins implementing the hook, for a message."""
        names = [self.labels.get(i.plugin_name, i.plugin_name) for i in self.caller.get_hookimpls()]
        return ", ".join(dict.fromkeys(reversed(names))) or "none"

    def _through_pluggy(self, game: GameRecord, kwargs: dict[str, Any],
                        context: dict[str, Any]) -> list[tuple[str, Any]]:
        label = self.owners()
        got = call_plugin(game, label, self.name, self._call_pluggy, [kwargs], None, context)
        answers = ([] if got is None else [got]) if self.first else [a for a in got if a is not None]
        return [(label, _checked(game, label, self.name, self.check, a, context)) for a in answers]

    def _call_pluggy(self, kwargs: dict[str, Any]) -> Any:
        return self.caller(**kwargs)


# ====================================================================== the game


#: values fast_copy keeps as they are (immutable)
_ATOMS = frozenset({int, float, complex, str, bytes, bool, type(None), frozenset, range,
                    Move, Action, MultiplierEvent, MatchInfo})
_MISSING = object()


def fast_copy(value: Any, memo: dict[int, Any]) -> Any:
    """A deep copy of game state: lists, dicts, sets and tuples copied (each once, as
    ``memo`` records), immutable values (numbers, strings, Moves, Actions, events) and
    what ``memo`` already maps (the rules, the plugin instances) kept as they are, anything
    else through ``copy.deepcopy`` with the same memo."""
    kind = type(value)
    if kind in _ATOMS:
        return value
    known = memo.get(id(value), _MISSING)
    if known is not _MISSING:
        return known
    if kind is list:
        out: list[Any] = []
        memo[id(value)] = out
        # atoms (a history's Actions, a hand's counts) taken as they are, with no call each
        out.extend([v if type(v) in _ATOMS else fast_copy(v, memo) for v in value])
        return out
    if kind is dict:
        d: dict[Any, Any] = {}
        memo[id(value)] = d
        for k, v in value.items():
            d[k] = v if type(v) in _ATOMS else fast_copy(v, memo)
        return d
    if kind is set:
        copied = memo[id(value)] = set(value)  # items of a set are hashable: immutable enough
        return copied
    if kind is tuple:
        return tuple([v if type(v) in _ATOMS else fast_copy(v, memo) for v in value])
    return copy.deepcopy(value, memo)


#: the game's fields that plugins write through its interface (``game.stake = …``,
#: ``game.public[…] = …``): while an action runs, each is saved the first time it is
#: reached (see Game._keep), so that a failed action puts it back; containers and values
_PLUGIN_CONTAINERS = ("public", "private", "stats", "pair_factors", "shown_hands", "events")
_PLUGIN_VALUES = ("stake", "landlord", "visible_dealt", "face_up", "redeal")


class GameRecord:
    """What a game holds, declared once, and what plugin code may write of it through the
    game's interface (``stake``, ``landlord``, ``public``, ``private``, ``stats``,
    ``pair_factors``, ``shown_hands``, ``events``, ``visible_dealt``, ``face_up``,
    ``request_redeal``, ``rng``): while an action runs (a transaction), each is saved the
    first time it is reached, so that a failed action puts it back, and an action that
    touches none of them costs nothing to guard. The flow builds on it
    (:class:`~ddzrules.game.deal.DealFlow`, :class:`~ddzrules.game.play.PlayFlow`), and
    :class:`~ddzrules.game.game.Game` is the whole."""

    # every field, declared here once (methods assign them in several places: the deal,
    # a transaction's rollback, a copy)
    variant: Variant
    players: int
    seed: int
    match: MatchInfo
    _rng: random.Random
    _guarded: bool
    _undo: dict[str, Any]
    deal_number: int
    deals: list[dict[str, Any]]
    history: list[Action]
    redeal_reasons: list[str]
    hands: list[list[int]]
    kitty: list[int]
    #: the cards nobody receives (deal.undealt), unseen for the whole game
    undealt: list[int]
    #: the shuffled deck, hands dealt from its front (for plugins that turn a card face up)
    dealt_order: list[int]
    # what plugins write is Any here, not its type: compiled code would refuse a value of
    # another type when it is read, before _audit can say which plugin wrote it
    # what plugins write is an object here, not its type: compiled code would refuse a value
    # of another type when it is stored, before _audit can say which plugin wrote it; the
    # getters give it as its type (cast: _audit checks it after each plugin call)
    _face_up: object  # tuple[int, int] | None
    _landlord: object  # int | None
    _stake: object  # int | float
    _events: list[Any]  # list[MultiplierEvent]
    #: (the events, their multiple) as last worked out (Game.multiple, asked at every view)
    _multiple: tuple[tuple[MultiplierEvent, ...], float] | None
    _pair_factors: dict[Any, Any]  # dict[int, int | float]
    _shown_hands: set[int]
    kitty_visible: bool
    _public: dict[str, Any]
    _private: dict[int, dict[str, Any]]
    _visible_dealt: object  # int | None
    _stats: dict[str, int | float]  # not float: compiled, 1 would read 1.0
    escaped: int | None
    _redeal: str | None
    played: list[list[Move]]
    last_play: Move | None
    last_seat: int | None
    passes: int
    winner: int | None
    scores: list[int] | None
    #: the seat that led the first trick (ddzrules_first_leader), once the tricks begin
    first_leader: int | None
    #: the play phase's legal actions: (the state they are for, the actions, what tells
    #: whether an object is one of them: see is_listed)
    legal_cache: tuple[tuple[Any, ...], list[Action], Any] | None
    #: the play phase's legal plays as Moves (legal_plays): (the state, the Moves, may pass)
    plays_cache: tuple[tuple[Any, ...], Sequence[Move], bool] | None
    turn: int | None
    _phases: list[Phase]
    #: the plugin and the hook that made each phase of _phases, and the current one
    _owners: list[tuple[str, str]]
    _current: Phase | None
    _owner: tuple[str, str]
    first_bidder: int
    fixed_landlord: int | None
    phase: str
    #: the wild rank (癞子) of this deal: its index, the ascending indices of several
    #: (天地癞子: 地癞子 joins once the landlord is known), or None
    wild: int | tuple[int, ...] | None

    @property
    def rng(self) -> random.Random:
        """The game's seeded random generator, the only randomness a plugin may use."""
        if self._guarded and "rng" not in self._undo:
            self._undo["rng"] = self._rng.getstate()
        return self._rng

    @rng.setter
    def rng(self, value: random.Random) -> None:
        if self._guarded and "rng" not in self._undo:
            self._undo["rng"] = self._rng.getstate()
        self._rng = value

    @property
    def stake(self) -> int | float:
        """The base score (叫分: the winning bid), set by the landlord phase."""
        return cast("int | float", self._stake)

    @stake.setter
    def stake(self, value: int | float) -> None:  # noqa: PYI041 - compiled: 1 stays 1
        if self._guarded:
            self._keep("stake")
        self._stake = value

    @property
    def landlord(self) -> int | None:
        """The landlord's seat, once the landlord phase has named him."""
        return cast("int | None", self._landlord)

    @landlord.setter
    def landlord(self, value: int | None) -> None:
        if self._guarded:
            self._keep("landlord")
        self._landlord = value

    @property
    def visible_dealt(self) -> int | None:
        """While set, each seat sees only this many of its dealt cards (明牌 before/during the deal)."""
        return cast("int | None", self._visible_dealt)

    @visible_dealt.setter
    def visible_dealt(self, value: int | None) -> None:
        if self._guarded:
            self._keep("visible_dealt")
        self._visible_dealt = value

    @property
    def face_up(self) -> tuple[int, int] | None:
        """(seat, rank) of a card turned face up in the deal, if any."""
        return cast("tuple[int, int] | None", self._face_up)

    @face_up.setter
    def face_up(self, value: tuple[int, int] | None) -> None:
        if self._guarded:
            self._keep("face_up")
        self._face_up = value

    @property
    def public(self) -> dict[str, Any]:
        """Public facts plugins publish (every view shows them)."""
        if self._guarded:
            self._keep("public")
        return self._public

    @public.setter
    def public(self, value: dict[str, Any]) -> None:
        if self._guarded:
            self._keep("public")
        self._public = value

    @property
    def private(self) -> dict[int, dict[str, Any]]:
        """Per seat, facts only that seat may see (黄金眼 …)."""
        if self._guarded:
            self._keep("private")
        return self._private

    @private.setter
    def private(self, value: dict[int, dict[str, Any]]) -> None:
        if self._guarded:
            self._keep("private")
        self._private = value

    @property
    def stats(self) -> dict[str, int | float]:
        """Per-game statistics that ``simulate`` averages (see :meth:`count`)."""
        if self._guarded:
            self._keep("stats")
        return self._stats

    @stats.setter
    def stats(self, value: dict[str, int | float]) -> None:
        if self._guarded:
            self._keep("stats")
        self._stats = value

    @property
    def pair_factors(self) -> dict[int, int | float]:
        """Per farmer, the factor of his settlement with the landlord (加倍, 加棒)."""
        if self._guarded:
            self._keep("pair_factors")
        return self._pair_factors

    @pair_factors.setter
    def pair_factors(self, value: dict[int, int | float]) -> None:
        if self._guarded:
            self._keep("pair_factors")
        self._pair_factors = value

    @property
    def shown_hands(self) -> set[int]:
        """The seats whose hands are shown to everyone (明牌, 亮牌)."""
        if self._guarded:
            self._keep("shown_hands")
        return self._shown_hands

    @shown_hands.setter
    def shown_hands(self, value: set[int]) -> None:
        if self._guarded:
            self._keep("shown_hands")
        self._shown_hands = value

    @property
    def events(self) -> list[MultiplierEvent]:
        """The multiplier events so far (see :attr:`multiple`)."""
        if self._guarded:
            self._keep("events")
        return self._events

    @events.setter
    def events(self, value: list[MultiplierEvent]) -> None:
        if self._guarded:
            self._keep("events")
        self._events = value

    def _keep(self, name: str) -> None:
        """Save the field ``name`` as it is now, for the running transaction (once): a value
        as it is, a container as the object and a copy of its contents."""
        undo = self._undo
        if name in undo:
            return
        if name in _PLUGIN_VALUES:
            undo[name] = getattr(self, "_" + name)
            return
        obj = getattr(self, "_" + name)
        undo[name] = (obj, fast_copy(obj, self._copy_memo()))

    def _copy_memo(self) -> dict[int, Any]:
        """A memo for fast_copy of game state: what a copy shares (the rules, their
        plugins), and the game itself (phases that refer to it refer to it still)."""
        raise NotImplementedError  # the rules are DealFlow's

    def _keep_deal(self) -> None:
        """Before a redeal inside a transaction: everything the new deal replaces (it makes
        new objects, so the old ones are kept as they are)."""
        undo = self._undo
        for name in _PLUGIN_CONTAINERS:
            if name not in undo:
                undo[name] = (getattr(self, "_" + name), None)
        for name in _PLUGIN_VALUES:
            if name not in undo:
                undo[name] = getattr(self, "_" + name)
        if "deal" not in undo:
            undo["deal"] = (
                self.deal_number, len(self.deals), self.hands, self.kitty, self.undealt, self.dealt_order,
                self._multiple, self.kitty_visible, self.escaped, self.played, self.last_play,
                self.last_seat, self.passes, self.winner, self.scores, self.first_leader,
                self.legal_cache, self.turn, self._phases, self._owners, self._current, self._owner,
                self.first_bidder, self.phase, self.wild)
        self.rng  # noqa: B018 - saves the generator's state: the deal shuffles with it

    def _begin(self) -> tuple[Any, ...]:
        """A transaction begins: what any action may change besides what _keep saves when it
        is reached (the history, the turn, the phases and the current phase's own state)."""
        self._guarded = True
        phase = self._current
        phase_state = None
        if phase is not None:
            state = getattr(phase, "__dict__", None)
            phase_state = fast_copy(phase if state is None else state, self._copy_memo())
        return (len(self.history), len(self.redeal_reasons), self.phase, self.turn, self.first_leader,
                self.escaped, self.winner, self.scores, self.legal_cache, phase, phase_state,
                self._owner, self._phases, list(self._phases), self._owners, list(self._owners))

    def _rollback(self, saved: tuple[Any, ...]) -> None:
        """Put back what :meth:`_begin`, :meth:`_keep`, :meth:`_keep_deal` and the giving of
        the kitty saved: the very objects, their contents as they were."""
        undo = self._undo
        kitty = undo.get("kitty")
        if kitty is not None:
            hand, counts, self.kitty_visible, self.wild = kitty
            hand[:] = counts
        deal = undo.get("deal")
        if deal is not None:
            (self.deal_number, n_deals, self.hands, self.kitty, self.undealt, self.dealt_order,
             self._multiple, self.kitty_visible, self.escaped, self.played, self.last_play,
             self.last_seat, self.passes, self.winner, self.scores, self.first_leader,
             self.legal_cache, self.turn, self._phases, self._owners, self._current, self._owner,
             self.first_bidder, self.phase, self.wild) = deal
            del self.deals[n_deals:]
        (n_history, n_reasons, self.phase, self.turn, self.first_leader, self.escaped, self.winner,
         self.scores, self.legal_cache, phase, phase_state, self._owner, phases, phase_items, owners,
         owner_items) = saved
        del self.history[n_history:]
        del self.redeal_reasons[n_reasons:]
        phases[:] = phase_items
        self._phases = phases
        owners[:] = owner_items
        self._owners = owners
        if phase is not None and getattr(phase, "__dict__", None) is not None:
            vars(phase).clear()
            vars(phase).update(phase_state)
            self._current = phase
        else:
            self._current = phase_state  # None, or a phase without a __dict__: its saved copy
        self._put_back()

    def _put_back(self) -> None:
        """Put back the fields _keep saved."""
        undo = self._undo
        if not undo:
            return
        for name in _PLUGIN_CONTAINERS:
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
                setattr(self, "_" + name, obj)
        for name in _PLUGIN_VALUES:
            if name in undo:
                setattr(self, "_" + name, undo[name])
        state = undo.get("rng")
        if state is not None:
            self._rng.setstate(state)

    def _end(self) -> None:
        """The transaction is over (committed or put back)."""
        self._guarded = False
        if self._undo:
            self._undo = {}

    def _audit(self, events_before: int) -> str | None:
        """What plugin code may have written to the game, checked (by call_plugin after each
        call): the stake, the landlord, the pairwise factors and the events added since
        ``events_before`` (-1: since the transaction began); what is wrong, or None."""
        stake = self._stake
        if type(stake) is not int or not 0 <= stake <= FACTOR_LIMIT:
            problem = number_problem(stake, zero_ok=True)
            if problem is not None:
                return f"set game.stake to {problem}"
        landlord = self._landlord
        if landlord is not None and (type(landlord) is not int or not 0 <= landlord < self.players):
            return f"set game.landlord to {brief(landlord)}, not a seat 0-{self.players - 1}"
        if self._pair_factors:
            for seat, f in self._pair_factors.items():
                problem = factor_problem(f)
                if problem is not None:
                    return f"set the pairwise factor of seat {brief(seat)} to {problem}"
        events = self._events
        if events_before < 0:  # in a transaction: events added since it began (see _keep)
            kept = self._undo.get("events")
            events_before = len(events) if kept is None or kept[1] is None else len(kept[1])
        if len(events) > events_before:
            for e in events[events_before:]:
                problem = event_problem(e)
                if problem is not None:
                    return f"added {problem}"
        return None

    def request_redeal(self, reason: str) -> None:
        """Called by a landlord phase: nobody takes the landlord; deal again."""
        if self._guarded:
            self._keep("redeal")
        self._redeal = reason

    def add_event(self, event: MultiplierEvent) -> None:
        """Record a multiplier event (checked when the plugin code that adds it returns)."""
        if self._guarded:
            self._keep("events")
        self._events.append(event)

    def _add_events(self, events: list[MultiplierEvent]) -> None:
        """Record events a hook answered (already checked)."""
        if self._guarded:
            self._keep("events")
        self._events.extend(events)

    def count(self, stat: str, amount: object = 1) -> None:
        """Add to a per-game statistic that ``simulate`` averages (robs, 明牌, bean flow …);
        ``amount`` is a finite int or float (ValueError otherwise: an average would be
        poisoned; ``object``, not ``int | float``: compiled code would refuse it first, and
        would turn 1 into 1.0)."""
        if isinstance(amount, bool) or not isinstance(amount, (int, float)) \
                or (isinstance(amount, float) and not math.isfinite(amount)):
            raise ValueError(f"game.count({brief(stat)}, ...) takes a finite number, not {brief(amount)}")
        if self._guarded:
            self._keep("stats")
        self._stats[stat] = self._stats.get(stat, 0) + amount

    @property
    def multiple(self) -> float:
        """The product of all multiplier events (per group, only the largest)."""
        events = tuple(self._events)
        memo = self._multiple
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
        self._multiple = (events, m)
        return m

    def hand_string(self, seat: int) -> str:
        return counts_string(self.hands[seat])

    def hand_counts(self, seat: int) -> list[int]:
        return self.hands[seat]
