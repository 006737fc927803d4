"""The game: :class:`GameRules` (a variant and the plugins its spec activates), the calls
into plugin code (:func:`call_plugin`, each answer checked, a failure a
:class:`~ddzrules.errors.PluginError`), and :class:`Game` (deal, landlord phase,
declarations, tricks, scoring, each action a transaction)."""

from __future__ import annotations

import copy
import math
import random
from collections.abc import Sequence
from itertools import repeat as _repeat
from operator import is_ as _is
from typing import TYPE_CHECKING, Any, ClassVar

import jsonschema
import pluggy

from ddzrules import cards as C
from ddzrules import hookspecs
from ddzrules.errors import STOPS, DdzError, PlayError, PluginError, Problem, SpecError, brief
from ddzrules.rules.moves import Move
from ddzrules.rules.variant import Variant, load_variant
from ddzrules.rules.wild import WildLeads
from ddzrules.runtime.checks import (
    FACTOR_LIMIT,
    HOOK_CHECKS,
    NO_CONTEXT,
    PHASE_CHECKS,
    event_problem,
    factor_problem,
    number_problem,
    param_numbers,
    raised_text,
)
from ddzrules.runtime.loading import PluginRegistry, default_registry, implemented_hooks
from ddzrules.runtime.plays import PlayLister, is_listed, universe_positions
from ddzrules.runtime.values import (
    Action,
    MatchInfo,
    MultiplierEvent,
    Phase,
    PlayerView,
    counts_string,
    play_counts,
)
from ddzrules.spec import innermost_error, schema_words
from ddzrules.speed.build import python_class

if TYPE_CHECKING:
    from ddzrules.runtime.values import GameState, TableRules, World

_new = object.__new__


ROLES = ("deal", "wildcards", "landlord", "leader", "declarations", "multipliers", "rules", "settlement")
#: the kinds of table (spec key ``table.kind``)
TABLE_KINDS = ("landlord", "free-for-all", "partnerships")
#: the hook a plugin must implement to fill each role
ROLE_HOOKS = {
    "deal": "ddzrules_deal",
    "landlord": "ddzrules_landlord_phase",
    "declarations": "ddzrules_declaration_phases",
    "leader": "ddzrules_first_leader",
    "multipliers": None,  # any of on_play / on_game_end / first_bidder
    "rules": None,  # any hook, typically ddzrules_restrict_actions
    "wildcards": "ddzrules_wild_rank",
    "settlement": "ddzrules_settle",
}
MAX_REDEALS = 100
#: the most actions one seat may take in one phase, on average: a deal's phases (landlord,
#: declarations) may take at most ``players × PHASE_TURNS × the plugins that make phases``
#: actions between them (GameRules.phase_actions: 600 for a three-seat table with a landlord
#: plugin and a declaration plugin), past which the phase's plugin is failing (a phase that
#: never ended played for ever). A real bidding takes a few actions a seat.
PHASE_TURNS = 100
_PHASE_HOOKS = ("ddzrules_landlord_phase", "ddzrules_declaration_phases")



@python_class  # weakly referenced (simulate caches figures by rules): a Python class compiled
class GameRules:
    """A variant plus its activated plugins: everything needed to play games."""

    def __init__(self, variant: Variant, registry: PluginRegistry | None = None) -> None:
        self.variant = variant
        self.spec = variant.spec
        registry = registry or default_registry()
        data = variant.spec.data
        game = data.get("game")
        if not game:
            raise SpecError([self.spec.problem((), f"{self.spec.name} has no game: section, so it can "
                                                   "classify and list moves but not be played")])
        # a hand of cards no combo plays could neither lead nor pass: every card must be a play
        unplayable = [C.RANKS[r] for r in range(C.NUM_RANKS) if variant.rules.deck[r]
                      and not variant.classify(C.RANKS[r])]
        if unplayable:
            raise SpecError([self.spec.problem(("combos",), (
                f"no combo plays {'the single card' if len(unplayable) == 1 else 'the single cards'} "
                f"{', '.join(unplayable)}: a hand holding only such cards could neither lead nor pass, "
                "so the game could not go on (a single: pattern \"1\")"))])
        deal = data.get("deal", {})
        self.players = int(data.get("players", 3))
        self.hand_size = int(deal.get("hand", 17))
        self.kitty_size = int(deal.get("kitty", 3))
        self.kitty_shown = bool(deal.get("kitty_shown", True))
        self.undealt = int(deal.get("undealt", 0))
        self.direction = data.get("direction", "counter-clockwise")
        deck_total = sum(variant.rules.deck)
        dealt = self.players * self.hand_size + self.kitty_size
        if dealt + self.undealt != deck_total:
            hint = (f"; set deal.undealt: {deck_total - dealt} to leave the rest undealt"
                    if dealt < deck_total else "")
            raise SpecError([self.spec.problem(("deal",), f"{self.players} hands of {self.hand_size}, a "
                                                          f"kitty of {self.kitty_size} and "
                                                          f"{self.undealt} undealt do not make the "
                                                          f"{deck_total}-card deck{hint}")])
        table = data.get("table") or {}
        self.table_kind: str = table.get("kind", "landlord")
        self.must_beat = bool(table.get("must_beat", False))
        self.teams: list[tuple[int, ...]] = self._teams(table)
        self.pm = pluggy.PluginManager(hookspecs.PROJECT)
        self.pm.add_hookspecs(hookspecs)
        self.hook = self.pm.hook
        self.active: list[tuple[str, str, Any]] = []  # (role, name, instance)
        #: the name each instance is registered under in ``pm`` -> its name in the spec
        self._labels: dict[str, str] = {}
        problems: list[Problem] = []
        has_landlord = self.table_kind == "landlord"
        if not has_landlord and game.get("landlord") is not None:
            problems.append(self.spec.problem(("game", "landlord"), f"a {self.table_kind} table has no "
                                                                    "landlord: remove game.landlord "
                                                                    "(or set table.kind: landlord)"))
        if not has_landlord and self.kitty_size:
            problems.append(self.spec.problem(("deal", "kitty"), f"a {self.table_kind} table has no "
                                                                 "landlord to take a kitty: set kitty: 0 "
                                                                 "(and undealt: for cards left out)"))
        for role in ROLES:
            entries = game.get(role)
            if role == "landlord" and not has_landlord:
                continue
            if entries is None:
                if role == "settlement" or (role == "landlord" and has_landlord):
                    problems.append(self.spec.problem(("game",), f"game.{role} is missing: name the plugin "
                                                                 f"that provides it"))
                continue
            many = isinstance(entries, list)
            for i, entry in enumerate(entries if many else [entries]):
                path: tuple[str | int, ...] = ("game", role, i) if many else ("game", role)
                inst = self._activate(registry, role, entry, path, problems)
                if inst is not None:
                    self.active.append((role, entry["plugin"], inst))
        has_wild_plugin = any(role == "wildcards" for role, _, _ in self.active)
        if variant.rules.stand_for and not has_wild_plugin and not problems:
            problems.append(self.spec.problem(("wildcards",), "a spec with wildcards: needs a game.wildcards "
                                                              "plugin to draw each deal's wild rank"))
        if has_wild_plugin and not variant.rules.stand_for:
            problems.append(self.spec.problem(("game", "wildcards"), "game.wildcards needs the spec's "
                                                                     "wildcards: section (what a wild card "
                                                                     "may stand for)"))
        for role, name, inst in self.active:
            if role == "wildcards" and variant.rules.stand_for:
                problems += self._wild_rank_problems(name, inst)
            if not has_landlord and getattr(inst, "needs_landlord", False):
                problems.append(self.spec.problem(("game", role), f"plugin {name!r} needs a landlord, "
                                                                  f"which a {self.table_kind} table "
                                                                  "does not have"))
        self.restricted = bool(self.hook.ddzrules_restrict_actions.get_hookimpls())
        #: the most actions a deal's phases may take between them (see PHASE_TURNS)
        self.phase_actions = self.players * PHASE_TURNS * max(1, sum(
            1 for _, _, inst in self.active if set(_PHASE_HOOKS) & set(implemented_hooks(inst))))
        #: a plugin draws wild ranks once the landlord is known (地癞子)
        self.wild_later = bool(self.hook.ddzrules_landlord_wild_rank.get_hookimpls())
        if problems:
            raise SpecError(problems)
        self._connect()

    def _wild_rank_problems(self, name: str, inst: Any) -> list[Any]:
        """What is wrong with a wildcards plugin's ranks under the spec's ``wildcards:``:
        more ranks wild at once than ``ranks`` allows, a fixed rank a wild card cannot stand
        for (it would never be wild), or no rank it may make wild at all (an empty range)."""
        rules = self.variant.rules
        stand_for = rules.stand_for
        where = ("game", "wildcards")
        most = getattr(inst, "most", None)
        too_many = [self.spec.problem(where, f"plugin {name!r} makes up to {most} ranks wild at once; the "
                                             f"spec's wildcards.ranks allows {rules.wild_count}")
                    ] if type(most) is int and most > rules.wild_count else []
        out = [self.spec.problem(where, f"plugin {name!r} makes {C.RANKS[r]} wild in every deal, a rank a "
                                        f"wild card cannot stand for (wildcards.stand_for)")
               for r in getattr(inst, "fixed", ()) if r not in stand_for]
        may = getattr(inst, "may_be_wild", None)
        if not out and may is not None and not any(r in stand_for for r in may):
            out.append(self.spec.problem(where, f"plugin {name!r} can make no rank wild: none of its ranks is "
                                                f"one a wild card may stand for (wildcards.stand_for)"))
        return too_many + out

    def _connect(self) -> None:
        """What is made from the plugins and the variant, and not pickled: the hooks the
        runtime calls (each answer checked, see call_plugin) and the play phase's lister."""
        #: the hooks the runtime calls, by name (see _Hook)
        self.hooks: dict[str, _Hook] = {
            name: _Hook(getattr(self.hook, name), name,
                        bool(getattr(self.hook, name).spec.opts.get("firstresult")), self._labels)
            for name in HOOK_CHECKS}
        #: ddzrules_on_play, called at every play
        self.on_play = self.hooks["ddzrules_on_play"]
        self.play_lister = PlayLister(self.variant, self.players, self.must_beat)
        #: (landlord, seat) -> the seat's partners (Game.partners, asked at every view)
        self._partners: dict[tuple[int | None, int], tuple[int, ...]] = {}
        #: objects a copy of a game shares with its original (see Game.__deepcopy__)
        self._shared: dict[int, Any] = {id(x): x for x in (self, self.variant, self.spec,
                                                          *(inst for _, _, inst in self.active))}

    # Rules are not changed once made (plugin instances hold configuration only), so a copy
    # shares them; a pickle carries the spec and the plugin instances (their classes by
    # reference) and builds the rest: the variant compiled again from the spec (once a
    # process for each spec, see _variant_of), the plugin manager, the hooks and the lister.
    def __copy__(self) -> GameRules:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> GameRules:
        return self

    _UNPICKLED: ClassVar[tuple[str, ...]] = ("variant", "pm", "hook", "hooks", "on_play", "play_lister",
                                             "_partners", "_shared")

    def __getstate__(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k not in self._UNPICKLED}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.variant = _variant_of(self.spec)
        self.spec = self.variant.spec
        self.pm = pluggy.PluginManager(hookspecs.PROJECT)
        self.pm.add_hookspecs(hookspecs)
        self.hook = self.pm.hook
        for i, (role, name, inst) in enumerate(self.active):
            self.pm.register(inst, name=f"{role}:{name}:{i}")
        self._connect()

    def _teams(self, table: dict[str, Any]) -> list[tuple[int, ...]]:
        """The fixed teams of a partnerships table (SpecError unless they partition the seats)."""
        teams = [tuple(int(s) for s in t) for t in table.get("teams") or []]
        if self.table_kind != "partnerships":
            if teams:
                raise SpecError([self.spec.problem(("table", "teams"), "teams: is for a partnerships "
                                                                       "table (table.kind: partnerships)")])
            return []
        seats = sorted(s for t in teams for s in t)
        if seats != list(range(self.players)) or len(teams) < 2:
            raise SpecError([self.spec.problem(("table", "teams"), f"the teams must put each of the "
                                                                   f"{self.players} seats (0-"
                                                                   f"{self.players - 1}) in exactly "
                                                                   "one of two or more teams")])
        return teams

    def _activate(self, registry: PluginRegistry, role: str, entry: dict[str, Any],
                  path: tuple[str | int, ...], problems: list[Problem]) -> Any:
        import difflib

        name = entry.get("plugin")
        try:
            cls = registry.get(name) if name else None
        except DdzError:
            raise
        except STOPS:
            raise
        except BaseException as e:  # noqa: BLE001 - an entry point's import is plugin code
            problems.append(self.spec.problem(path + ("plugin",), f"plugin {name!r} could not be "
                                                                  f"loaded: it {raised_text(e)}"))
            return None
        if cls is None:
            hint = difflib.get_close_matches(str(name), registry.names(), n=1)
            more = f" (did you mean {hint[0]!r}?)" if hint else ""
            problems.append(self.spec.problem(path + ("plugin",), f"unknown plugin {name!r}{more}; "
                                              f"installed: {', '.join(registry.names())}"))
            return None
        params = entry.get("params") or {}
        schema = getattr(cls, "params_schema", {"type": "object", "additionalProperties": False})
        validator = jsonschema.Draft202012Validator(schema)
        bad = False
        for err in validator.iter_errors(params):
            bad = True
            err = innermost_error(err)
            where = path + ("params",) + tuple(err.absolute_path)
            msg = schema_words(err)
            if err.validator == "additionalProperties":
                allowed = list(schema.get("properties", {}))
                extra = [k for k in params if k not in allowed] if isinstance(err.instance, dict) else []
                for key in extra:
                    hint = difflib.get_close_matches(key, allowed, n=1)
                    more = f" (did you mean {hint[0]!r}?)" if hint else f"; allowed: {', '.join(allowed)}"
                    problems.append(self.spec.problem(where + (key,), f"plugin {name!r} has no parameter "
                                                                      f"{key!r}{more}"))
                continue
            problems.append(self.spec.problem(where, f"plugin {name!r}: {msg}"))
        for where, problem in param_numbers(params):  # the runtime's own limit, met at the parameter
            bad = True
            problems.append(self.spec.problem(path + ("params",) + where, f"plugin {name!r}: {problem}"))
        if bad:
            return None
        required_hook = ROLE_HOOKS[role]
        if required_hook and required_hook not in implemented_hooks(cls):
            problems.append(self.spec.problem(path + ("plugin",), f"plugin {name!r} cannot fill the {role} "
                                                                  f"role: it does not implement {required_hook}"))
            return None
        registered = f"{role}:{name}:{len(self.active)}"
        try:
            inst = cls(params)
        except STOPS:
            raise
        except BaseException as e:  # noqa: BLE001 - plugin code: any failure is its own
            problems.append(self.spec.problem(path + ("params",), f"plugin {name!r} could not be made "
                                                                  f"with these params: it {raised_text(e)}"))
            return None
        try:
            self.pm.register(inst, name=registered)
        except STOPS:
            raise
        except BaseException as e:  # noqa: BLE001 - pluggy refuses a hook's signature
            problems.append(self.spec.problem(path + ("plugin",), f"plugin {name!r} cannot be "
                                                                  f"registered: {raised_text(e)[len('raised '):]}"))
            return None
        self._labels[registered] = str(name)
        return inst

    @classmethod
    def load(cls, name_or_path: str, registry: PluginRegistry | None = None) -> GameRules:
        return cls(load_variant(name_or_path), registry)

    def new_game(self, seed: int, match: MatchInfo | None = None, landlord: object = None) -> Game:
        """A game of these rules, dealt from ``seed``. ``landlord`` fixes the landlord at a
        landlord table (DouZero's protocol: no bidding, that seat takes the kitty, stake 1);
        None: the landlord phase the spec's plugins run decides."""
        if landlord is not None:
            if self.table_kind != "landlord":
                raise DdzError(f"{self.variant.name} has no landlord ({self.table_kind} table): "
                               "a fixed landlord is for landlord tables")
            if isinstance(landlord, bool) or not isinstance(landlord, int) or not 0 <= landlord < self.players:
                raise DdzError(f"the landlord must be a seat 0-{self.players - 1}, not {brief(landlord)}")
            return Game(self, seed, match or MatchInfo(seed=seed), fixed_landlord=landlord)
        return Game(self, seed, match or MatchInfo(seed=seed))

    def next_seat(self, seat: int) -> int:
        """The seat after ``seat`` in the order of play (seats are numbered in that order)."""
        return (seat + 1) % self.players


#: variants compiled from unpickled specs, by the spec's content (GameRules.__setstate__)
_UNPICKLED_VARIANTS: dict[str, Variant] = {}


def _variant_of(spec: Any) -> Variant:
    """The variant of an unpickled spec: compiled once a process for each spec's content
    (every game of a pickled batch shares it), checked as any spec is."""
    from ddzrules.rules.compiler import compile_spec

    key = spec.content_hash
    got = _UNPICKLED_VARIANTS.get(key)
    if got is None:
        if len(_UNPICKLED_VARIANTS) >= 16:
            _UNPICKLED_VARIANTS.clear()
        got = _UNPICKLED_VARIANTS[key] = Variant(spec, compile_spec(spec))
    return got


# ====================================================================== calling plugins

#: a multiplier factor, a pairwise factor or a stake above this is refused: the multiple is


def call_plugin(game: Game, plugin: str, hook: str, function: Any, args: list[Any],
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


def _checked(game: Game, plugin: str, hook: str, check: Any, answer: Any, context: dict[str, Any],
             method: str = "") -> Any:
    """``answer`` as ``check`` keeps it; a PluginError saying what is wrong with it otherwise."""
    try:
        return check(game, answer, context)
    except ValueError as e:
        raise PluginError(plugin, _hook_name(hook, method), str(e)) from None
    except Exception as e:  # an answer whose own methods raise when read
        raise PluginError(plugin, _hook_name(hook, method), f"answered {brief(answer)}, which cannot "
                                                            f"be read ({raised_text(e)})") from e


class _Hook:
    """One hook of one :class:`GameRules`, called as pluggy calls it — every
    implementation, the last registered first, keeping the answers that are not None; a
    firstresult hook stops at the first — through :func:`call_plugin`, which checks each
    answer by the hook's contract (:data:`HOOK_CHECKS`), and without pluggy's per-call
    bookkeeping, which costs as much as a play's listing. While any implementation is a
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

    def _through_pluggy(self, game: Game, kwargs: dict[str, Any],
                        context: dict[str, Any]) -> list[tuple[str, Any]]:
        label = self.owners()
        got = call_plugin(game, label, self.name, self._call_pluggy, [kwargs], None, context)
        answers = ([] if got is None else [got]) if self.first else [a for a in got if a is not None]
        return [(label, _checked(game, label, self.name, self.check, a, context)) for a in answers]

    def _call_pluggy(self, kwargs: dict[str, Any]) -> Any:
        return self.caller(**kwargs)


# ====================================================================== the game


#: values _fast_copy keeps as they are (immutable)
_ATOMS = frozenset({int, float, complex, str, bytes, bool, type(None), frozenset, range,
                    Move, Action, MultiplierEvent, MatchInfo})
_MISSING = object()


def _fast_copy(value: Any, memo: dict[int, Any]) -> Any:
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
        out.extend([v if type(v) in _ATOMS else _fast_copy(v, memo) for v in value])
        return out
    if kind is dict:
        d: dict[Any, Any] = {}
        memo[id(value)] = d
        for k, v in value.items():
            d[k] = v if type(v) in _ATOMS else _fast_copy(v, memo)
        return d
    if kind is set:
        copied = memo[id(value)] = set(value)  # items of a set are hashable: immutable enough
        return copied
    if kind is tuple:
        return tuple([v if type(v) in _ATOMS else _fast_copy(v, memo) for v in value])
    return copy.deepcopy(value, memo)


def _unpickle_game(rules: GameRules, seed: int, match: MatchInfo, state: dict[str, Any]) -> Game:
    return Game(rules, seed, match, state=state)


#: the game's fields that plugins write through its interface (``game.stake = …``,
#: ``game.public[…] = …``): while an action runs, each is saved the first time it is
#: reached (see Game._keep), so that a failed action puts it back; containers and values
_PLUGIN_CONTAINERS = ("public", "private", "stats", "pair_factors", "shown_hands", "events")
_PLUGIN_VALUES = ("stake", "landlord", "visible_dealt", "face_up", "redeal")


class Game:
    """One game: deal (and redeals), landlord phase, declarations, tricks, scoring.

    An action that runs plugin code (:meth:`apply`, :meth:`abandon`) is a transaction:
    when a plugin fails (a :class:`~ddzrules.errors.PluginError`, see :func:`call_plugin`)
    or anything else interrupts it, the game is put back as it was before the action:
    what the runtime changed, the current phase's own state, and what plugins wrote through
    the game's interface (``stake``, ``landlord``, ``public``, ``private``, ``stats``,
    ``pair_factors``, ``shown_hands``, ``events``, ``visible_dealt``, ``face_up``,
    ``request_redeal``, ``rng``), each saved only when first reached, so an action that
    touches none of them costs nothing to guard. ``copy.deepcopy`` (and ``copy.copy``) of
    a game makes an independent game that shares only the rules; a game pickles with its
    rules and plugins (whose classes must be importable where it is unpickled).
    """

    # every field, declared here once (methods assign them in several places: the deal,
    # a transaction's rollback, a copy)
    rules: GameRules
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
    _face_up: Any  # tuple[int, int] | None
    _landlord: Any  # int | None
    _stake: Any  # int | float
    _events: list[Any]  # list[MultiplierEvent]
    #: (the events, their multiple) as last worked out (Game.multiple, asked at every view)
    _multiple: tuple[tuple[MultiplierEvent, ...], float] | None
    _pair_factors: dict[Any, Any]  # dict[int, int | float]
    _shown_hands: set[int]
    kitty_visible: bool
    _public: dict[str, Any]
    _private: dict[int, dict[str, Any]]
    _visible_dealt: Any  # int | None
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
    _legal_cache: tuple[tuple[Any, ...], list[Action], Any] | None
    #: the play phase's legal plays as Moves (legal_plays): (the state, the Moves, may pass)
    _plays_cache: tuple[tuple[Any, ...], Sequence[Move], bool] | None
    _turn: int | None
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

    def __init__(self, rules: GameRules, seed: int, match: MatchInfo,
                 state: dict[str, Any] | None = None, fixed_landlord: int | None = None) -> None:
        self.rules = rules
        #: the landlord fixed before the deal (GameRules.new_game), or None: the plugins choose
        self.fixed_landlord = fixed_landlord if state is None else state.get("fixed_landlord")
        self.variant = rules.variant
        self.players = rules.players
        self.seed = seed
        self.match = match
        #: the seeded generator (plugins use it as ``game.rng``)
        self._rng = random.Random(seed) if state is None else state["rng"]
        #: while an action runs (a transaction): what it must put back if it fails (see _keep)
        self._guarded = False
        self._undo = {}
        self.deal_number = -1
        self.deals = []
        self.history = []
        self.redeal_reasons = []
        self._owners = []
        self._owner = ("", "")
        self._plays_cache = None  # never copied nor pickled: made again when asked for
        if state is not None:  # a copy, or an unpickled game (see _state)
            self._set_state(state)
            return
        self._start_deal()

    # ------------------------------------------------------------------ what plugins write
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
        return self._stake

    @stake.setter
    def stake(self, value: int | float) -> None:  # noqa: PYI041 - compiled: 1 stays 1
        if self._guarded:
            self._keep("stake")
        self._stake = value

    @property
    def landlord(self) -> int | None:
        """The landlord's seat, once the landlord phase has named him."""
        return self._landlord

    @landlord.setter
    def landlord(self, value: int | None) -> None:
        if self._guarded:
            self._keep("landlord")
        self._landlord = value

    @property
    def visible_dealt(self) -> int | None:
        """While set, each seat sees only this many of its dealt cards (明牌 before/during the deal)."""
        return self._visible_dealt

    @visible_dealt.setter
    def visible_dealt(self, value: int | None) -> None:
        if self._guarded:
            self._keep("visible_dealt")
        self._visible_dealt = value

    @property
    def face_up(self) -> tuple[int, int] | None:
        """(seat, rank) of a card turned face up in the deal, if any."""
        return self._face_up

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
        memo = dict(self.rules._shared)
        memo[id(self)] = self
        undo[name] = (obj, _fast_copy(obj, memo))

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
                self._legal_cache, self._turn, self._phases, self._owners, self._current, self._owner,
                self.first_bidder, self.phase, self.wild)
        self.rng  # noqa: B018 - saves the generator's state: the deal shuffles with it

    def _begin(self) -> tuple[Any, ...]:
        """A transaction begins: what any action may change besides what _keep saves when it
        is reached (the history, the turn, the phases and the current phase's own state)."""
        self._guarded = True
        phase = self._current
        phase_state = None
        if phase is not None:
            memo = dict(self.rules._shared)
            memo[id(self)] = self
            state = getattr(phase, "__dict__", None)
            phase_state = _fast_copy(phase if state is None else state, memo)
        return (len(self.history), len(self.redeal_reasons), self.phase, self._turn, self.first_leader,
                self.escaped, self.winner, self.scores, self._legal_cache, phase, phase_state,
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
             self._legal_cache, self._turn, self._phases, self._owners, self._current, self._owner,
             self.first_bidder, self.phase, self.wild) = deal
            del self.deals[n_deals:]
        (n_history, n_reasons, self.phase, self._turn, self.first_leader, self.escaped, self.winner,
         self.scores, self._legal_cache, phase, phase_state, self._owner, phases, phase_items, owners,
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

    # ------------------------------------------------------------------ phases
    def _start_deal(self) -> None:
        if self._guarded:  # a redeal inside an action: what it replaces, to put back
            self._keep_deal()
        self.deal_number += 1
        if self.deal_number > MAX_REDEALS:
            raise DdzError(f"no landlord after {MAX_REDEALS} redeals")
        self._landlord = None
        self._stake = 0
        self._events = []
        self._multiple = None
        self._pair_factors = {}
        self._shown_hands = set()
        self.kitty_visible = False
        self._public = {}
        self._private = {s: {} for s in range(self.players)}
        self._visible_dealt = None
        self._stats = {}
        self.escaped = None
        self._redeal = None
        self.played = [[] for _ in range(self.players)]
        self.last_play = None
        self.last_seat = None
        self.passes = 0
        self.winner = None
        self.scores = None
        self.first_leader = None
        self._legal_cache = None
        self._turn = None
        self._phases = []
        self._owners = []
        self._current = None
        self.first_bidder = 0
        # the deal last: a deal: plugin is called as any plugin is, on a game reset for it
        deck = C.deck_list(self.variant.rules.deck)
        # the check compares with the deck itself, not the list the plugin may have changed
        dealt = self.rules.hooks["ddzrules_deal"].pairs({"deck": tuple(deck)}, game=self, deck=list(deck))
        if not dealt:  # the usual deal: shuffled
            self._rng.shuffle(deck)
        else:  # a deal: plugin's order (checked: the deck's cards)
            deck = dealt[0][1]
        n, h, k = self.players, self.rules.hand_size, self.rules.kitty_size
        self.hands = [C.counts_of(deck[i * h:(i + 1) * h]) for i in range(n)]
        self.kitty = C.counts_of(deck[n * h:n * h + k])
        self.undealt = C.counts_of(deck[n * h + k:])
        self.dealt_order = deck
        self._face_up = None
        self.deals.append({"hands": [C.counts_to_string(x) for x in self.hands],
                           "kitty": C.counts_to_string(self.kitty)})
        self.phase = "landlord" if self.rules.table_kind == "landlord" else "declare"
        self.wild = None
        hooks = self.rules.hooks
        self._draw_wild("ddzrules_wild_rank")
        if self.rules.table_kind != "landlord":  # no landlord phase: declarations, then tricks
            self._phases, self._owners = self._declaration_phases()
            if not self._next_phase():
                self._start_play()
                return
            self._advance()
            return
        if self.fixed_landlord is not None:  # no landlord phase: the seat takes the kitty at stake 1
            self._landlord = self.first_bidder = self.fixed_landlord
            self._stake = 1
            self._give_kitty()
            self.phase = "declare"
            self._phases, self._owners = self._declaration_phases()
            if not self._next_phase():
                self._start_play()
                return
            self._advance()
            return
        first = hooks["ddzrules_first_bidder"].one(game=self)
        self.first_bidder = 0 if first is None else first
        hook = hooks["ddzrules_landlord_phase"]
        answers = hook.pairs(None, game=self)
        if not answers:  # GameRules checks that a landlord plugin exists: it answered None
            raise PluginError(hook.owners(), hook.name, "answered no landlord phase (None)")
        label, phase = answers[0]
        self._phases, self._owners = [phase], [(label, hook.name)]
        self._next_phase()
        self._advance()

    def _declaration_phases(self) -> tuple[list[Phase], list[tuple[str, str]]]:
        """The declaration phases in the spec's order, and the plugin (and hook) of each."""
        hook = self.rules.hooks["ddzrules_declaration_phases"]
        answers: list[tuple[str, list[Phase]]] = hook.pairs(game=self)
        phases: list[Phase] = []
        owners: list[tuple[str, str]] = []
        # pluggy calls the last-registered plugin first; the spec's order is the reverse
        for label, made in reversed(answers):
            for phase in made:
                phases.append(phase)
                owners.append((label, hook.name))
        return phases, owners

    def _next_phase(self) -> bool:
        """The next phase of _phases becomes the current one (None when there is none);
        whether there is one. (Callers test this answer, not ``self._current``: just after
        ``self._current = None`` the type checker, and so the compiled build, would take
        the attribute to be None still.)"""
        if self._phases:
            self._current = self._phases.pop(0)
            self._owner = self._owners.pop(0)
            return True
        self._current = None
        self._owner = ("", "")
        return False

    def _phase_call(self, method: str, *args: Any) -> Any:
        """Call a method of the current phase (plugin code) through call_plugin, its answer
        checked as a hook's is (PHASE_CHECKS)."""
        phase = self._current
        plugin, hook = self._owner
        context = {"seat": self._turn} if method == "options" else NO_CONTEXT
        return call_plugin(self, plugin, hook, getattr(phase, method), [self, *args],
                           PHASE_CHECKS[method], context, method)

    def _start_play(self) -> None:
        """The tricks begin: ``ddzrules_first_leader`` names who leads (default: the
        landlord, or seat 0 at a table without one)."""
        self.phase = "play"
        self._current = None
        leader = self.rules.hooks["ddzrules_first_leader"].one(game=self)  # checked: a seat
        if leader is None:
            leader = self._landlord if self._landlord is not None else 0
        self.first_leader = leader
        self._turn = leader

    def _advance(self) -> None:
        """Move to the next phase when the current one is over."""
        while self._current is not None:
            seat = self._phase_call("to_act")
            if seat is not None:
                self._turn = seat
                return
            if self._redeal is not None:
                if self.deal_number >= MAX_REDEALS:  # a phase that asks for deals for ever
                    plugin, hook = self._owner
                    raise PluginError(plugin, hook, f"its phase asked for a redeal after {MAX_REDEALS} "
                                                    "redeals, the most a game takes")
                self.redeal_reasons.append(self._redeal)
                self.history.append(Action(-1, "redeal", self._redeal))
                self._start_deal()
                return
            if self.phase == "landlord":
                if self._landlord is None:
                    name = getattr(self._current, "name", "?")
                    raise PluginError(self._owner[0], self._owner[1],
                                      f"its phase {brief(name)} ended without a landlord (game.landlord)")
                self._give_kitty()
                self.phase = "declare"
                self._phases, self._owners = self._declaration_phases()
            if self.phase == "declare":
                if not self._next_phase():
                    self._start_play()
                    return
                continue
        return

    def _give_kitty(self) -> None:
        """The landlord takes the kitty; then 地癞子, the wild ranks drawn once the landlord
        is known (``ddzrules_landlord_wild_rank``)."""
        assert self._landlord is not None
        hand = self.hands[self._landlord]
        if self._guarded and "kitty" not in self._undo:
            self._undo["kitty"] = (hand, list(hand), self.kitty_visible, self.wild)
        for r, c in enumerate(self.kitty):
            hand[r] += c
        self.kitty_visible = self.rules.kitty_shown
        if self.rules.wild_later:
            self._draw_wild("ddzrules_landlord_wild_rank")

    def _draw_wild(self, hook: str) -> None:
        """Add the wild ranks a wildcards hook draws now (checked: ranks a wild card may be,
        none wild yet) to ``wild`` and to the public view (in the order drawn)."""
        drawn = self.rules.hooks[hook].one(game=self)
        if not drawn:
            return
        ranks = tuple(sorted((*C.wild_tuple(self.wild), *drawn)))
        self.wild = ranks[0] if len(ranks) == 1 else ranks
        public = self.public  # kept for a rollback when inside an action
        shown = public.get("wild")
        public["wild"] = ",".join([*([shown] if shown else []), *(C.RANKS[r] for r in drawn)])

    # ------------------------------------------------------------------ copies
    def _state(self) -> dict[str, Any]:
        """Everything a game holds besides its rules, seed and match (by reference)."""
        return {
            "rng": self._rng, "deal_number": self.deal_number, "deals": self.deals,
            "history": self.history, "redeal_reasons": self.redeal_reasons, "hands": self.hands,
            "kitty": self.kitty, "undealt": self.undealt, "dealt_order": self.dealt_order,
            "face_up": self._face_up, "landlord": self._landlord, "stake": self._stake, "events": self._events,
            "pair_factors": self._pair_factors, "shown_hands": self._shown_hands,
            "kitty_visible": self.kitty_visible, "public": self._public, "private": self._private,
            "visible_dealt": self._visible_dealt, "stats": self._stats, "escaped": self.escaped,
            "redeal": self._redeal, "played": self.played, "last_play": self.last_play,
            "last_seat": self.last_seat, "passes": self.passes, "winner": self.winner,
            "scores": self.scores, "first_leader": self.first_leader, "wild": self.wild,
            "turn": self._turn, "phases": self._phases, "owners": self._owners, "current": self._current,
            "owner": self._owner, "first_bidder": self.first_bidder, "phase": self.phase,
            "legal_cache": self._legal_cache, "fixed_landlord": self.fixed_landlord,
        }

    def _set_state(self, state: dict[str, Any]) -> None:
        self._rng = state["rng"]
        self.deal_number = state["deal_number"]
        self.deals = state["deals"]
        self.history = state["history"]
        self.redeal_reasons = state["redeal_reasons"]
        self.hands = state["hands"]
        self.kitty = state["kitty"]
        self.undealt = state["undealt"]
        self.dealt_order = state["dealt_order"]
        self._face_up = state["face_up"]
        self._landlord = state["landlord"]
        self._stake = state["stake"]
        self._events = state["events"]
        self._multiple = None
        self._pair_factors = state["pair_factors"]
        self._shown_hands = state["shown_hands"]
        self.kitty_visible = state["kitty_visible"]
        self._public = state["public"]
        self._private = state["private"]
        self._visible_dealt = state["visible_dealt"]
        self._stats = state["stats"]
        self.escaped = state["escaped"]
        self._redeal = state["redeal"]
        self.played = state["played"]
        self.last_play = state["last_play"]
        self.last_seat = state["last_seat"]
        self.passes = state["passes"]
        self.winner = state["winner"]
        self.scores = state["scores"]
        self.first_leader = state["first_leader"]
        self.wild = state["wild"]
        self._turn = state["turn"]
        self._phases = state["phases"]
        self._owners = state["owners"]
        self._current = state["current"]
        self._owner = state["owner"]
        self.first_bidder = state["first_bidder"]
        self.phase = state["phase"]
        self._legal_cache = state.get("legal_cache")

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        """An independent copy sharing only the rules (and the variant and plugin instances):
        each can go on with its own actions, and neither sees the other's."""
        for key, shared in self.rules._shared.items():
            memo.setdefault(key, shared)
        state = self._state()
        copied = Game(self.rules, self.seed, self.match, state=state)  # shares all for a moment
        memo[id(self)] = copied  # phases that refer to this game refer to the copy
        rng = random.Random(0)  # seeded from 0, not from the OS (costly), then given the state
        rng.setstate(self._rng.getstate())
        # the listed actions are the shared rules' own objects, never changed: shared too
        state = {key: value if key == "legal_cache" else _fast_copy(value, memo)
                 for key, value in state.items() if key != "rng"}
        state["rng"] = rng
        copied._set_state(state)
        return copied

    def __copy__(self) -> Game:
        """As ``copy.deepcopy``: a game that shared its hands and history with another would
        corrupt both."""
        return self.__deepcopy__({})

    def gathered_cards(self) -> tuple[int, ...]:
        """The cards of this game gathered as a table picks them up for a deal that does not
        shuffle (不洗牌): every play of the last deal in the order it was made (each play's
        cards low to high), then each seat's cards left in hand (seat 0 first, low to high),
        then the kitty if nobody took it and the cards never dealt. As rank indices; the
        next game of a match gets them as ``MatchInfo.previous_cards``."""
        out: list[int] = []
        for action in self.history[self._deal_start():]:
            if action.kind == "play" and action.move is not None:
                out += C.parse_ranks(action.move.cards)
        for hand in self.hands:
            out += C.deck_list(hand)
        rest = C.deck_list(self.undealt)
        if len(out) + len(rest) < sum(self.variant.rules.deck):  # the kitty, never taken
            out += C.deck_list(self.kitty)
        return tuple(out + rest)

    def _deal_start(self) -> int:
        """Where the last deal's actions begin in the history (after its last redeal marker)."""
        for i in range(len(self.history) - 1, -1, -1):
            if self.history[i].kind == "redeal":
                return i + 1
        return 0

    def copy(self) -> Game:
        """An independent copy (``copy.deepcopy``): it shares only the rules, and each game
        goes on with its own actions. What a search clones at every node."""
        return self.__deepcopy__({})

    def known_cards(self, s: int, seat: int) -> list[int]:
        """The cards of seat ``s``'s hand that ``seat`` knows are there, by rank: all of its
        own (as far as it has been dealt: 明牌 during the deal), those of a shown hand, a
        card turned face up, and a shown kitty's cards the landlord has not played since."""
        hand = self.hands[s]
        n = len(hand)
        if s == seat or s in self._shown_hands:
            if self._visible_dealt is None:
                return list(hand)
            return C.counts_of(C.parse_ranks(self.seen_hand(s)))
        # what ``seat`` saw go in (a card turned face up, a shown kitty the landlord took)
        # less what ``s`` has played since: at least that many are still there. Not read
        # off the hand's counts, which would tell ``seat`` what it cannot see (the bound
        # by the hand below changes nothing while cards leave a hand only by plays).
        seen = [0] * n
        if self._face_up is not None and self._face_up[0] == s:
            seen[self._face_up[1]] += 1
        if s == self._landlord and self.kitty_visible and self.phase != "landlord":
            for r in range(n):
                seen[r] += self.kitty[r]
        if not any(seen):
            return seen
        for m in self.played[s]:
            for r, c in enumerate(C.unpack(m.packed)):
                seen[r] -= c
        return [min(hand[r], max(0, seen[r])) for r in range(n)]

    def hidden_from(self, seat: int) -> tuple[list[int], list[tuple[str, int, int]]]:
        """What ``seat`` cannot see of the cards: the pool of hidden cards (counts by rank)
        and the places they fill, each ``(place, seat or -1, how many)``: a hand's cards
        but the :meth:`known_cards` (``"hand"``), the kitty while it is hidden and not yet
        taken (``"kitty"``), the undealt cards (``"undealt"``)."""
        n = len(C.RANKS)
        pool = [0] * n
        places: list[tuple[str, int, int]] = []
        for s in range(self.players):
            hand, known = self.hands[s], self.known_cards(s, seat)
            missing = sum(hand) - sum(known)
            if missing:
                places.append(("hand", s, missing))
                for r in range(n):
                    pool[r] += hand[r] - known[r]
        if not self.kitty_visible and (self._landlord is None or self.phase == "landlord") and any(self.kitty):
            places.append(("kitty", -1, sum(self.kitty)))
            for r in range(n):
                pool[r] += self.kitty[r]
        if any(self.undealt):
            places.append(("undealt", -1, sum(self.undealt)))
            for r in range(n):
                pool[r] += self.undealt[r]
        return pool, places

    def determinized(self, seat: int, rng: random.Random) -> Game:
        """A copy of this game in which the cards ``seat`` cannot see (:meth:`hidden_from`)
        are dealt again at random among the places they could be, each keeping its size,
        and what only the others know is forgotten (their private facts, the deal's order):
        one world consistent with all ``seat`` knows; its generator, for the chance still
        to come, is drawn from ``rng`` too. Games ``seat`` cannot tell apart give the same
        world for the same ``rng`` state, so a search over such worlds cannot use what
        ``seat`` does not know.

        >>> rules = GameRules.load("hubei-3p")
        >>> game = rules.new_game(seed=7)
        >>> world = game.determinized(0, random.Random(1))
        >>> world.hands[0] == game.hands[0], list(map(sum, world.hands)) == list(map(sum, game.hands))
        (True, True)
        """
        pool, places = self.hidden_from(seat)
        world = self.__deepcopy__({})
        cards = [r for r, c in enumerate(pool) for _ in range(c)]  # in rank order: the same pool, the same deal
        rng.shuffle(cards)
        at = 0
        for place, s, size in places:
            taken = C.counts_of(cards[at:at + size])
            at += size
            if place == "hand":
                known = self.known_cards(s, seat)
                world.hands[s] = [known[r] + taken[r] for r in range(len(known))]
            elif place == "kitty":
                world.kitty = taken
            else:
                world.undealt = taken
        # what seat never saw: the deal's order, the others' private facts
        world.dealt_order = self._world_order(world, seat)
        world.deals[-1] = {"hands": [C.counts_to_string(x) for x in world.hands],
                           "kitty": C.counts_to_string(world.kitty)}
        world._private = {s: (facts if s == seat else {}) for s, facts in world._private.items()}
        # chance to come (a redeal's shuffle, 地癞子's draw) is sampled too: the game's own
        # generator would tell the world what the real game will draw
        world._rng = random.Random(rng.getrandbits(64))
        world._legal_cache = None
        return world

    def _world_order(self, world: Game, seat: int) -> list[int]:
        """A deal order for ``world``'s hands that shows nothing ``seat`` did not see: each
        hand in rank order, except that while hands are dealt in part (明牌 during the deal)
        the cards seen so far of ``seat``'s and the shown hands lead their segments."""
        h, seen = self.rules.hand_size, self._visible_dealt
        order: list[int] = []
        for s, hand in enumerate(world.hands):
            first: list[int] = []
            if seen is not None and (s == seat or s in self._shown_hands):
                first = self.dealt_order[s * h: s * h + seen]
            rest = list(hand)
            for r in first:
                rest[r] -= 1
            order += first + [r for r, c in enumerate(rest) for _ in range(c)]
        for counts in (world.kitty, world.undealt):
            order += [r for r, c in enumerate(counts) for _ in range(c)]
        return order

    def __reduce__(self) -> tuple[Any, ...]:
        state = self._state()
        state["legal_cache"] = None  # the rules' listed actions: listed again after unpickling
        return _unpickle_game, (self.rules, self.seed, self.match, state)

    # ------------------------------------------------------------------ for plugins
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

    def next_seat(self, seat: int) -> int:
        return self.rules.next_seat(seat)

    @property
    def multiple(self) -> float:
        """The product of all multiplier events (per group, only the largest)."""
        events = tuple(self._events)
        memo = self._multiple
        if memo is not None and memo[0] == events:  # the same events (asked at every view)
            return memo[1]  # type: ignore[no-any-return]
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

    # ------------------------------------------------------------------ turns
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
        :class:`~ddzrules.rules.wild.WildLeads`, which makes each Move only when asked for it
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

    # ------------------------------------------------------------------ teams
    def side_of(self, seat: int) -> tuple[int, ...]:
        """The seats on ``seat``'s side, itself included: the landlord alone or the farmers
        (once the landlord is known), a fixed team, or the seat alone (free-for-all)."""
        if self.rules.table_kind == "partnerships":
            return next(t for t in self.rules.teams if seat in t)
        if self.rules.table_kind == "landlord" and self._landlord is not None and seat != self._landlord:
            return tuple(s for s in range(self.players) if s != self._landlord)
        return (seat,)

    def partners(self, seat: int) -> tuple[int, ...]:
        """The other seats on ``seat``'s side (empty before the landlord is known)."""
        key = (self._landlord, seat)
        got = self.rules._partners.get(key)
        if got is None:
            if self.rules.table_kind == "landlord" and self._landlord is None:
                got = ()
            else:
                got = tuple(s for s in self.side_of(seat) if s != seat)
            self.rules._partners[key] = got
        return got

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats of the winning side (the side of the first player out); () until then."""
        return () if self.winner is None else self.side_of(self.winner)

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
        return self._phase_call("options")  # a list of its own (see _check_options)

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

    def abandon(self, seat: int) -> None:
        """逃跑: ``seat`` leaves the game; the escape rule of the settlement charges him.

        Raises PlayError (state unchanged) when the game is over or the variant has
        no escape rule.
        """
        if self.phase == "over":
            raise PlayError("the game is over")
        if isinstance(seat, bool) or type(seat) is not int or not 0 <= seat < self.players:
            raise PlayError(f"no seat {brief(seat)}")
        if not self.rules.hook.ddzrules_settle_escape.get_hookimpls():
            raise PlayError(f"{self.variant.name} has no escape rule")
        saved = self._begin()
        try:
            self.escaped = seat
            self.history.append(Action(seat, "escape"))
            self.phase = "over"
            self._turn = None
            scores = self.rules.hooks["ddzrules_settle_escape"].one(game=self, seat=seat)  # checked
            self.scores = scores if scores is not None else [0] * self.players
        except BaseException:
            self._rollback(saved)
            raise
        finally:
            self._end()

    def _finish(self, seat: int) -> None:
        self.winner = seat
        self.phase = "over"
        self._turn = None
        hooks = self.rules.hooks
        for events in hooks["ddzrules_on_game_end"](game=self):
            if events:
                self._add_events(events)
        hook = hooks["ddzrules_settle"]
        scores = hook.one(game=self)  # checked: one integer per seat
        if scores is None:  # GameRules checks that a settlement plugin exists: it answered None
            raise PluginError(hook.owners(), hook.name, "answered no scores (None)")
        self.scores = scores

    # ------------------------------------------------------------------ views
    @property
    def landlord_won(self) -> bool | None:
        """Whether the landlord's side won (None: not over, or a table without a landlord)."""
        if self.winner is None or self._landlord is None:
            return None
        return self.winner == self._landlord

    def seen_hand(self, seat: int) -> str:
        """A hand as far as it has been dealt (all of it, except while deciding 明牌
        before or during the deal)."""
        if self._visible_dealt is None:
            return self.hand_string(seat)
        h = self.rules.hand_size
        return C.counts_to_string(C.counts_of(self.dealt_order[seat * h: seat * h + self._visible_dealt]))

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may see: its own hand, shown kitty and hands, all plays.

        A snapshot: it shows this moment however the game goes on. Its ``history`` and
        ``played`` are copied when first read (see :class:`PlayerView`)."""
        played, history, phase = self.played, self.history, self.phase
        hands = tuple(map(bytes, self.hands))  # copies: the lazy fields show this moment
        kitty = bytes(self.kitty) if self.kitty_visible else None
        view = _new(PlayerView)  # its fields set at once, not through the dataclass __init__
        view.__dict__ = {
            "seat": seat, "phase": phase, "landlord": self._landlord,
            "to_act": None if phase == "over" else self._turn,
            "stake": self._stake, "multiple": self.multiple if self._events else 1.0,
            "shown_hands": {s: self.seen_hand(s) for s in self._shown_hands if s != seat} if self._shown_hands else {},
            "last_play": self.last_play, "last_seat": self.last_seat,
            "extra": dict(self._public), "private": dict(self._private[seat]),
            "partners": self.rules._partners.get((self._landlord, seat)) or self.partners(seat),
            "_lazy": (history, len(history), played, tuple(map(len, played)), hands, kitty),
            "_world": (self, len(history)),  # what sample_world copies (see PlayerView)
        }
        if kitty is None:
            view.__dict__["kitty"] = None
        if self._visible_dealt is not None:  # 明牌 while dealing: the part dealt so far
            view.__dict__["hand"] = self.seen_hand(seat)
        return view


if TYPE_CHECKING:  # the type checker holds Game and GameRules to the faces the hooks' contracts show
    _game_face: type[GameState] = Game
    _world_face: type[World] = Game
    _rules_face: type[TableRules] = GameRules
