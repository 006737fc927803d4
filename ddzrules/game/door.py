"""The door to plugin code: :func:`call_plugin`, the one place where the runtime runs it
(each answer checked, what it wrote audited, a failure a
:class:`~ddzrules.errors.PluginError`), and :class:`Hook`, one hook called as pluggy calls
it. What plugin code wrote is put back by the transaction the action runs in
(:mod:`ddzrules.game.transaction`)."""

from __future__ import annotations

from typing import Any

from ddzrules.errors import STOPS, PluginError, WriteRefused, brief
from ddzrules.game import transaction
from ddzrules.game.checks import HOOK_CHECKS, NO_CONTEXT, raised_text
from ddzrules.game.state import GameCore


def call_plugin(game: GameCore, plugin: str, hook: str, function: Any, args: list[Any],
                check: Any, context: dict[str, Any], method: str = "") -> Any:
    """Call plugin code — one implementation of a hook, or the ``method`` of a phase a
    plugin made with that hook — for ``game``: the one place where the runtime does.
    Whatever it raises, an answer (not None) that ``check`` refuses, a value the game
    refused when it was set (a stake, a landlord: :class:`~ddzrules.errors.WriteRefused`)
    and what it wrote into the game's containers that breaks its invariants (pairwise
    factors, the events it added: :func:`~ddzrules.game.transaction.audit`) become a
    :class:`PluginError` naming ``plugin`` and the hook; the caller's transaction then puts
    the game back as it was."""
    before = -1 if game.undo is not None else len(game.state.events)  # see transaction.audit
    try:
        answer = function(*args)
    except BaseException as e:  # plugin code: any failure is its own (SystemExit, GeneratorExit …)
        if isinstance(e, STOPS):  # Ctrl-C, a stopped worker: not the plugin's
            raise
        if isinstance(e, WriteRefused):  # a value the game refused when it was set
            raise PluginError(plugin, _hook_name(hook, method), str(e)) from None
        raise PluginError(plugin, _hook_name(hook, method), raised_text(e)) from e
    if answer is not None and check is not None:
        answer = _checked(game, plugin, hook, check, answer, context, method)
    # in a transaction, what plugin code writes is saved when reached (transaction.keep):
    # nothing saved, nothing written (a play that touches nothing is not audited)
    undo = game.undo
    if undo or undo is None:
        problem = transaction.audit(game, before)
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


def _checked(game: GameCore, plugin: str, hook: str, check: Any, answer: Any, context: dict[str, Any],
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

    def _through_pluggy(self, game: GameCore, kwargs: dict[str, Any],
                        context: dict[str, Any]) -> list[tuple[str, Any]]:
        label = self.owners()
        got = call_plugin(game, label, self.name, self._call_pluggy, [kwargs], None, context)
        answers = ([] if got is None else [got]) if self.first else [a for a in got if a is not None]
        return [(label, _checked(game, label, self.name, self.check, a, context)) for a in answers]

    def _call_pluggy(self, kwargs: dict[str, Any]) -> Any:
        return self.caller(**kwargs)
