"""The door to plugin hooks (ddzrules.game.door.Hook), pluggy's semantics kept: each
implementation's answer checked and each failure named after the one plugin at fault;
plugins registered or removed between calls seen at the next call; a firstresult hook
stopping at the first answer (the last registered first); hook wrappers run by pluggy
around the others, what they leave checked, a failure under them named after every
implementing plugin; pluggy's own hook callers left as they are. A design that calls
through pluggy's loop instead of Hook's own (issue 45) has these to keep."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

import pytest

from ddzrules.errors import PluginError
from ddzrules.hookspecs import hookimpl
from ddzrules.rules.moves import Move
from ddzrules.runtime import Game, GameRules, MultiplierEvent


def playing() -> tuple[GameRules, Game, Move]:
    """hubei-3p's rules (loaded afresh: the tests register plugins on them), a game in its
    tricks, and a play its seat to act may lead."""
    rules = GameRules.load("hubei-3p")
    game = rules.new_game(seed=1, landlord=0)
    assert game.phase == "play"
    return rules, game, game.legal_plays()[0][0]


def on_play(rules: GameRules, game: Game, move: Move) -> list[Any]:
    return rules.on_play(game=game, seat=game.to_act, move=move, led=True)


class Doubler:
    """Answers one event at every play, or ``answer`` when given."""

    def __init__(self, answer: Any = None) -> None:
        self.answer = answer
        self.calls = 0

    @hookimpl
    def ddzrules_on_play(self, game: Game, seat: int, move: Move, led: bool) -> Any:
        self.calls += 1
        return [MultiplierEvent("double", 2, seat)] if self.answer is None else self.answer


class Raiser:
    @hookimpl
    def ddzrules_on_play(self, game: Game, seat: int, move: Move, led: bool) -> Any:
        raise RuntimeError("boom")


def test_under_a_hook_wrapper_calls_go_through_pluggy() -> None:
    rules, game, move = playing()
    rules.pm.register(Wrapper(), name="wrapper")
    seen: list[tuple[str, list[str]]] = []
    undo = rules.pm.add_hookcall_monitoring(
        lambda name, impls, kwargs: seen.append((name, [i.plugin_name for i in impls])),
        lambda outcome, name, impls, kwargs: None)
    try:
        on_play(rules, game, move)
    finally:
        undo()
    assert [name for name, _ in seen] == ["ddzrules_on_play"]
    assert seen[0][1] == [i.plugin_name for i in rules.hook.ddzrules_on_play.get_hookimpls()]


def test_plugins_registered_and_removed_between_calls() -> None:
    rules, game, move = playing()
    assert on_play(rules, game, move) == []  # a single: bomb-doubling answers nothing
    doubler = Doubler()
    rules.pm.register(doubler, name="doubler")
    assert [[(e.name, e.factor) for e in got] for got in on_play(rules, game, move)] == [[("double", 2)]]
    raiser = Raiser()
    rules.pm.register(raiser, name="raiser")
    with pytest.raises(PluginError) as err:
        on_play(rules, game, move)
    assert (err.value.plugin, err.value.hook) == ("raiser", "ddzrules_on_play")
    assert "raised RuntimeError: boom" in str(err.value)
    rules.pm.unregister(raiser)
    rules.pm.unregister(doubler)
    calls = doubler.calls
    assert on_play(rules, game, move) == []
    assert doubler.calls == calls


def test_each_answer_is_checked_and_named_after_its_plugin() -> None:
    rules, game, move = playing()
    rules.pm.register(Doubler(), name="good")
    rules.pm.register(Doubler([MultiplierEvent("bad", -2)]), name="bad")
    with pytest.raises(PluginError) as err:
        on_play(rules, game, move)
    assert err.value.plugin == "bad" and "factor -2, not above 0" in str(err.value)


def test_pluggys_own_callers_are_left_as_they_are() -> None:
    rules, game, move = playing()
    rules.pm.register(Doubler([MultiplierEvent("bad", -2)]), name="bad")
    with pytest.raises(PluginError):
        on_play(rules, game, move)
    # rules.hook is pluggy's: unchecked, as pluggy calls it
    got = rules.hook.ddzrules_on_play(game=game, seat=game.to_act, move=move, led=True)
    assert [[e.factor for e in events] for events in got] == [[-2]]


class Leader:
    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.calls = 0

    @hookimpl
    def ddzrules_first_leader(self, game: Game) -> int | None:
        self.calls += 1
        return self.seat


def test_a_firstresult_hook_stops_at_the_first_answer() -> None:
    rules, game, _ = playing()
    hook = rules.hooks["ddzrules_first_leader"]
    first, silent, last = Leader(1), Leader(None), Leader(2)
    for name, plugin in (("first", first), ("last", last), ("silent", silent)):
        rules.pm.register(plugin, name=name)
    # the last registered first: silent answers nothing, last answers, first is not called
    assert hook.pairs(game=game) == [("last", 2)]
    assert hook.one(game=game) == 2
    assert (first.calls, silent.calls, last.calls) == (0, 2, 2)
    rules.pm.register(Leader(7), name="far")
    with pytest.raises(PluginError) as err:
        hook.one(game=game)
    assert err.value.plugin == "far" and "7" in str(err.value)


class Wrapper:
    """A new-style hook wrapper around ddzrules_on_play: records what the others answered,
    then leaves ``leave`` (when given) or raises (``raises``)."""

    def __init__(self, leave: Any = None, raises: bool = False) -> None:
        self.leave = leave
        self.raises = raises
        self.saw: list[Any] = []

    @hookimpl(wrapper=True)
    def ddzrules_on_play(self, game: Game, seat: int, move: Move, led: bool) -> Generator[None, Any, Any]:
        got = yield
        self.saw.append(got)
        if self.raises:
            raise ValueError("wrapped badly")
        return got if self.leave is None else self.leave


def test_a_hook_wrapper_sees_the_answers_and_what_it_leaves_is_checked() -> None:
    rules, game, move = playing()
    wrapper = Wrapper()
    rules.pm.register(Doubler(), name="doubler")
    rules.pm.register(wrapper, name="wrapper")
    owners = rules.on_play.owners()
    assert owners.startswith("wrapper, doubler")
    got = on_play(rules, game, move)
    assert [[e.name for e in events] for events in got] == [["double"]]
    assert wrapper.saw == [got]  # the answers themselves
    wrapper.leave = [[MultiplierEvent("bad", 0)]]
    with pytest.raises(PluginError) as err:
        on_play(rules, game, move)
    assert err.value.plugin == owners and "not above 0" in str(err.value)
    wrapper.leave, wrapper.raises = None, True
    with pytest.raises(PluginError) as err:
        on_play(rules, game, move)
    assert err.value.plugin == owners and "raised ValueError: wrapped badly" in str(err.value)


def test_under_a_hook_wrapper_a_failure_names_every_implementing_plugin() -> None:
    rules, game, move = playing()
    rules.pm.register(Raiser(), name="raiser")
    rules.pm.register(Wrapper(), name="wrapper")
    with pytest.raises(PluginError) as err:
        on_play(rules, game, move)
    assert err.value.plugin == rules.on_play.owners() and "raiser" in err.value.plugin
    assert "boom" in str(err.value)


def test_pairs_under_a_hook_wrapper_name_every_implementing_plugin() -> None:
    rules, game, _ = playing()
    rules.pm.register(Leader(2), name="leader")
    hook = rules.hooks["ddzrules_first_leader"]
    owners_before = hook.owners()

    class FirstWrapper:
        @hookimpl(wrapper=True)
        def ddzrules_first_leader(self, game: Game) -> Generator[None, Any, Any]:
            return (yield)

    rules.pm.register(FirstWrapper(), name="first-wrapper")
    [(label, seat)] = hook.pairs(game=game)
    assert seat == 2 and label == hook.owners() and "first-wrapper" in label and owners_before in label
