"""Fuzzing: card strings, CLI arguments, game actions and cache files from hypothesis.

The contract each fuzzer checks (issue 11): bad input is refused with a DdzError — a
message, exit 1 from the CLI — never another exception or a traceback, within the
per-call bound, and a rejected game action leaves the game exactly as it was. The
same fuzzers run longer in ``benchmarks/fuzz.py`` (figures in docs/security.md).
"""

from __future__ import annotations

import json
import os
import random
from typing import Any

import pytest
from click.testing import CliRunner
from fuzzers import bounded, card_texts, fuzz_settings, snapshot, tally
from hypothesis import given
from hypothesis import strategies as st

import ddzrules
from ddzrules import cards as C
from ddzrules.cli import main
from ddzrules.errors import DdzError
from ddzrules.rules.variant import Variant
from ddzrules.runtime import Action, Game, GameRules
from ddzrules.spec import bundled_names, load_spec

API_VARIANTS = ("hubei-3p", "laizi", "hubei-4p-2deck", "paodekuai")
#: wild ranks as a user could give them: valid names and indices, and nonsense
WILDS = st.one_of(st.none(), st.sampled_from(["3", "7", "A", "2", "X", "10", "", "33", "-1", "\x1b"]),
                  st.integers(-3, 20), st.sampled_from([1.5, True, 10**30]))


@pytest.fixture(scope="module")
def variants() -> dict[str, Variant]:
    return {name: ddzrules.load_variant(name) for name in API_VARIANTS}


def _refused_or_answered(call: Any) -> Any:
    """Run ``call``; a DdzError is a refusal, anything else that escapes fails the test."""
    try:
        return call()
    except DdzError as e:
        assert str(e).strip(), "a refusal must say what is wrong"
        return None


@fuzz_settings(300)
@given(name=st.sampled_from(API_VARIANTS), a=card_texts(), b=card_texts(), wild=WILDS)
def test_card_strings_through_the_api(variants: dict[str, Variant], name: str, a: str, b: str,
                                      wild: Any) -> None:
    tally("card strings (API)")
    v = variants[name]
    with bounded(f"{name} with {a!r}, {b!r}, wild={wild!r}"):
        canonical = _refused_or_answered(lambda: C.parse_cards(a))
        if canonical is not None:  # a string that parses reads back to itself
            assert C.parse_cards(canonical) == canonical
        _refused_or_answered(lambda: v.classify(a, wild=wild))
        _refused_or_answered(lambda: v.beats(a, b, wild=wild))
        result = _refused_or_answered(lambda: v.legal_moves(a, after=b or None, wild=wild))
        if result is not None:  # whatever is listed is a play from that hand
            hand = C.pack_cards(a)
            assert all(C.contains(hand, m.packed) for m in result)


CLI_SPECS = st.sampled_from(["hubei-3p", "laizi", "paodekuai", "no-such-spec", "specs/../README.md"])


@fuzz_settings(60)
@given(data=st.data(), spec=CLI_SPECS, a=card_texts(), b=card_texts())
def test_cli_card_arguments_never_show_a_traceback(data: st.DataObject, spec: str, a: str, b: str) -> None:
    tally("CLI arguments")
    command = data.draw(st.sampled_from(["classify", "compare", "moves"]))
    args = {"classify": [a], "compare": [a, b], "moves": ["--hand", a, "--after", b]}[command]
    if command == "moves" and data.draw(st.booleans()):
        args += ["--limit", str(data.draw(st.integers(-10, 10)))]
    if data.draw(st.booleans()):
        args += ["--wild", data.draw(st.sampled_from(["7", "X", "", "0", "-3", "10"]))]
    if data.draw(st.booleans()):
        args.append("--json")
    with bounded(f"ddzrules {command} {spec} {args}"):
        result = CliRunner().invoke(main, [command, spec, *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), (args, result.output)
    assert "Traceback" not in result.output
    # a card string is data: refusing it is exit 1; exit 2 is kept for a malformed
    # command line (a negative --limit, an unknown option)
    assert result.exit_code in (0, 1, 2), result.output
    if result.exit_code:
        assert result.output.strip(), "a refusal says why"
    if not any(x.startswith("--limit") or x == "--wild" for x in args):
        assert result.exit_code in (0, 1), (args, result.output)


# ---------------------------------------------------------------- game actions
GAME_SPECS = sorted(n for n in bundled_names() if load_spec(n).data.get("game"))  # the playable ones
KINDS = ["play", "pass", "bid", "call", "rob", "show", "double", "escape", "", "PLAY", "bid "]


@pytest.fixture(scope="module")
def rules() -> dict[str, GameRules]:
    return {}


def _rules(cache: dict[str, GameRules], name: str) -> GameRules:
    if name not in cache:
        cache[name] = GameRules.load(name)
    return cache[name]


_SHUTTLE: list[Variant] = []


def _shuttle() -> Variant:
    if not _SHUTTLE:
        _SHUTTLE.append(ddzrules.load_variant("space-shuttle"))
    return _SHUTTLE[0]


def _hostile_action(game: Game, rng: random.Random, foreign: list[Any]) -> Action:
    """An action that is probably illegal now: a wrong seat, kind, value or reading."""
    seat = rng.choice([game.to_act or 0, rng.randrange(-2, game.players + 2)])
    kind = rng.choice(KINDS)
    value: Any = rng.choice([None, rng.randrange(-5, 10**6), "33", "3", "XD", "2222", "\x1b[2J", 1.5,
                             "".join(rng.choice("3456789TJQKA2XD") for _ in range(rng.randrange(1, 25)))])
    legal = game.legal_actions()
    move = None
    if rng.random() < 0.5:
        pool = [a.move for a in legal if a.move is not None] + foreign
        move = rng.choice(pool) if pool else None
        if move is not None and rng.random() < 0.5:
            value = move.cards
    return Action(seat, kind, value, move)


@fuzz_settings(40)
@given(name=st.sampled_from(GAME_SPECS), seed=st.integers(0, 2**32), tries=st.integers(1, 4))
def test_rejected_game_actions_change_nothing(rules: dict[str, GameRules], variants: dict[str, Variant],
                                               name: str, seed: int, tries: int) -> None:
    rng = random.Random(seed)
    game = _rules(rules, name).new_game(seed)
    # plays of other variants (a 太空梭 shuttle, a wild reading) offered as readings here
    foreign = [m for v in variants.values() for m in v.classify("333444555666")[:1]]
    foreign += list(_shuttle().classify("33334444"))
    steps = 0
    while not game.over and steps < 400:
        steps += 1
        for _ in range(tries):
            action = _hostile_action(game, rng, foreign)
            tally("game actions")
            legal = game.legal_actions()
            before = snapshot(game)
            with bounded(f"{name} seed {seed}: {action!r}"):
                try:
                    game.apply(action)
                except DdzError:
                    assert snapshot(game) == before, f"{action!r} was refused but changed the game"
                    continue
            # accepted: then it was one of the legal actions (a play given by its cards)
            assert any(game.history[-1].matches(a) for a in legal), f"{action!r} was accepted"
            if game.over:
                break
        if game.over:
            break
        if game.phase == "play" and rng.random() < 0.5:
            text = rng.choice(["", "-", "33", "3" * 16, "\x1b[31m", "XD", "10", "小王大王", "z"])
            tally("game actions")
            before = snapshot(game)
            try:
                game.play(game.to_act, text)  # type: ignore[arg-type]
            except DdzError:
                assert snapshot(game) == before, f"play {text!r} was refused but changed the game"
            if game.over:
                break
        game.apply(rng.choice(game.legal_actions()))
    assert game.over


# ---------------------------------------------------------------- cache files
@fuzz_settings(8)
@given(data=st.data())
def test_a_mutated_cache_never_changes_an_answer(tmp_path_factory: pytest.TempPathFactory,
                                                 data: st.DataObject) -> None:
    """Any byte of a cache file changed, inserted or deleted: the answers stay those of a
    clean cache (the damaged file is rebuilt with a warning)."""
    tally("cache files")
    directory = tmp_path_factory.mktemp("fuzzcache")
    old = os.environ.get("DDZRULES_CACHE_DIR")
    os.environ["DDZRULES_CACHE_DIR"] = str(directory)
    try:
        clean = _answers(ddzrules.load_variant("crown-3p"))
        (path,) = directory.glob("*.json")
        raw = bytearray(path.read_bytes())
        at = data.draw(st.integers(0, len(raw) - 1))
        op = data.draw(st.sampled_from(["flip", "delete", "insert", "truncate"]))
        if op == "flip":
            raw[at] ^= data.draw(st.integers(1, 255))
        elif op == "delete":
            del raw[at]
        elif op == "insert":
            raw.insert(at, data.draw(st.integers(0, 255)))
        else:
            del raw[at:]
        path.write_bytes(bytes(raw))
        with bounded("loading a mutated cache"), pytest.warns(Warning):
            damaged = _answers(ddzrules.load_variant("crown-3p"))
        assert damaged == clean
    finally:
        if old is None:
            os.environ.pop("DDZRULES_CACHE_DIR", None)
        else:
            os.environ["DDZRULES_CACHE_DIR"] = old


def _answers(v: Variant) -> Any:
    hand = "3456789TTJJQQKKA2"
    return json.dumps([str(v.census()), [repr(m) for m in v.classify("33344469")],
                       len(v.legal_moves(hand)), [m.cards for m in v.legal_moves(hand, after="34567")]])

