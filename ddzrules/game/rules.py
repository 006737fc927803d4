"""The rules of a game: a variant and the plugins its spec activates, each plugin's
parameters checked and each role filled (:class:`ActivatedRules`; ``GameRules`` adds the
games made of them)."""

from __future__ import annotations

from typing import Any, ClassVar

import jsonschema
import pluggy

from ddzrules import cards as C
from ddzrules import hookspecs
from ddzrules.errors import STOPS, DdzError, Problem, SpecError
from ddzrules.game.checks import HOOK_CHECKS, param_numbers, raised_text
from ddzrules.game.door import Hook
from ddzrules.game.loading import PluginRegistry, default_registry, implemented_hooks
from ddzrules.game.plays import PlayLister
from ddzrules.game.tables import Table, table_of
from ddzrules.spec import innermost_error, schema_words
from ddzrules.speed.build import python_class
from ddzrules.variant import Variant

ROLES = ("deal", "wildcards", "landlord", "leader", "declarations", "multipliers", "rules", "settlement")
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
class ActivatedRules:
    """A variant plus its activated plugins: everything needed to play games (which
    :class:`~ddzrules.game.game.GameRules` makes)."""

    def __init__(self, variant: Variant, registry: PluginRegistry | None = None,
                 table: Table | None = None) -> None:
        self.variant = variant
        self.spec = variant.spec
        registry = registry or default_registry()
        rule_spec = variant.spec.rule_spec
        if not rule_spec.game:
            raise SpecError([self.spec.problem((), f"{self.spec.name} has no game: section, so it can "
                                                   "classify and list moves but not be played")])
        # the plugins' parameters as written: each plugin owns their schema and checks them
        game = variant.spec.data["game"]
        # a hand of cards no combo plays could neither lead nor pass: every card must be a play
        unplayable = [C.RANKS[r] for r in range(C.NUM_RANKS) if variant.rules.deck[r]
                      and not variant.classify(C.RANKS[r])]
        if unplayable:
            raise SpecError([self.spec.problem(("combos",), (
                f"no combo plays {'the single card' if len(unplayable) == 1 else 'the single cards'} "
                f"{', '.join(unplayable)}: a hand holding only such cards could neither lead nor pass, "
                "so the game could not go on (a single: pattern \"1\")"))])
        deal = rule_spec.deal  # the defaults are the model's, stated once
        self.players = rule_spec.players
        self.hand_size = deal.hand
        self.kitty_size = deal.kitty
        self.kitty_shown = deal.kitty_shown
        self.undealt = deal.undealt
        self.direction = rule_spec.direction
        deck_total = sum(variant.rules.deck)
        dealt = self.players * self.hand_size + self.kitty_size
        if dealt + self.undealt != deck_total:
            hint = (f"; set deal.undealt: {deck_total - dealt} to leave the rest undealt"
                    if dealt < deck_total else "")
            raise SpecError([self.spec.problem(("deal",), f"{self.players} hands of {self.hand_size}, a "
                                                          f"kitty of {self.kitty_size} and "
                                                          f"{self.undealt} undealt do not make the "
                                                          f"{deck_total}-card deck{hint}")])
        section = variant.spec.data.get("table") or {}  # the table's own checks read it as written
        #: the table (see ddzrules.game.tables): the one the spec's table.kind names, or one
        #: given (a kind of table of the caller's own)
        self.table: Table = table_of(self.spec, section, self.players) if table is None else table
        self.table_kind: str = self.table.kind
        self.must_beat = rule_spec.table.must_beat
        self.teams: list[tuple[int, ...]] = list(self.table.teams)
        self.pm = pluggy.PluginManager(hookspecs.PROJECT)
        self.pm.add_hookspecs(hookspecs)
        self.hook = self.pm.hook
        self.active: list[tuple[str, str, Any]] = []  # (role, name, instance)
        #: the name each instance is registered under in ``pm`` -> its name in the spec
        self._labels: dict[str, str] = {}
        problems: list[Problem] = []
        has_landlord = self.table.has_landlord
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
        #: the hooks the runtime calls, by name (see Hook)
        self.hooks: dict[str, Hook] = {
            name: Hook(getattr(self.hook, name), name,
                        bool(getattr(self.hook, name).spec.opts.get("firstresult")), self._labels)
            for name in HOOK_CHECKS}
        #: ddzrules_on_play, called at every play
        self.on_play = self.hooks["ddzrules_on_play"]
        self.play_lister = PlayLister(self.variant, self.players, self.must_beat)
        #: objects a copy of a game shares with its original (see Game.__deepcopy__)
        self.shared: dict[int, Any] = {id(x): x for x in (self, self.variant, self.spec,
                                                          *(inst for _, _, inst in self.active))}

    # Rules are not changed once made (plugin instances hold configuration only), so a copy
    # shares them; a pickle carries the spec and the plugin instances (their classes by
    # reference) and builds the rest: the variant compiled again from the spec (once a
    # process for each spec, see _variant_of), the plugin manager, the hooks and the lister.
    def __copy__(self) -> ActivatedRules:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> ActivatedRules:
        return self

    _UNPICKLED: ClassVar[tuple[str, ...]] = ("variant", "pm", "hook", "hooks", "on_play", "play_lister",
                                             "shared")

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
