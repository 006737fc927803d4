"""The typed ``RuleSpec`` (issue 45, step 1): a spec's merged data parsed once, every default
stated once, read-only, with the positions kept beside it on the spec for messages."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from pathlib import Path

import pytest

from ddzrules.rules.compiler import compile_spec
from ddzrules.rules.variant import Variant
from ddzrules.runtime import GameRules
from ddzrules.spec import (
    DEFAULT_HAND,
    DEFAULT_KITTY,
    DEFAULT_PLAYERS,
    RuleSpec,
    bundled_names,
    load_spec,
    spec_from_data,
)

BARE = {"name": "bare", "combos": {"single": "1", "pair": "2", "trio": "3", "bomb": "4", "rocket": "<XD>"},
        "bombs": ["bomb", "rocket"]}


def test_a_spec_that_says_nothing_gets_the_defaults_of_the_model() -> None:
    rules = RuleSpec.from_data({"name": "bare"})
    assert (rules.players, rules.deal.hand, rules.deal.kitty) == (DEFAULT_PLAYERS, DEFAULT_HAND, DEFAULT_KITTY)
    assert rules.max_hand == DEFAULT_HAND + DEFAULT_KITTY and rules.max_hand_given is None
    assert rules.table.kind == "landlord" and rules.wildcards is None and rules.deck.decks == 1


def test_every_stage_reads_the_same_defaults() -> None:
    """The compiler and the runtime agree with the model on a spec that states no deal:
    the hand size, the kitty and the largest hand are the model's, not restated ones."""
    spec = spec_from_data(dict(BARE), "bare.yaml")
    model = spec.rule_spec
    compiled = compile_spec(spec)
    assert compiled.max_hand == model.max_hand
    game = copy.deepcopy(load_spec("hubei-3p").data["game"])  # a table to play at
    dealt = spec_from_data({**BARE, "game": game, "deal": {"undealt": 54 - 3 * 17 - 3}}, "bare.yaml")
    game_rules = GameRules(Variant(dealt, compile_spec(dealt)))
    assert (game_rules.players, game_rules.hand_size, game_rules.kitty_size) == \
        (model.players, model.deal.hand, model.deal.kitty)


@pytest.mark.parametrize("name", bundled_names())
def test_the_model_agrees_with_the_compiled_rules(name: str) -> None:
    spec = load_spec(name)
    model = spec.rule_spec
    rules = compile_spec(spec)
    assert [c.name for c in model.combos] == [c.name for c in rules.combos]
    assert [c.pattern for c in model.combos] == [c.pattern for c in rules.combos]
    assert model.max_hand == rules.max_hand
    assert sum(rules.deck) == model.players * model.deal.hand + model.deal.kitty + model.deal.undealt
    assert (model.wildcards is not None) == bool(rules.stand_for)
    assert {c.name for c in rules.combos if c.tier >= 0} == set(model.bombs)


def test_the_model_is_read_only_and_travels() -> None:
    spec = load_spec("laizi")
    model = spec.rule_spec
    assert spec.rule_spec is model  # parsed once
    with pytest.raises(dataclasses.FrozenInstanceError):
        model.players = 4  # type: ignore[misc]
    with pytest.raises(TypeError):
        model.game["deal"] = None  # type: ignore[index]
    assert model.game  # a plugin's parameters, as written
    assert pickle.loads(pickle.dumps(model)) == model
    assert pickle.loads(pickle.dumps(spec)).rule_spec == model


def test_positions_stay_beside_the_model(tmp_path: Path) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text("extends: hubei-3p\nname: mine\ndeal:\n  hand: 16\n  kitty: 6\n", encoding="utf-8")
    spec = load_spec(str(path))
    assert spec.rule_spec.deal.kitty == 6
    problem = spec.problem(("deal", "kitty"), "too many")
    assert (problem.location.line, problem.location.column) == (5, 10)


def test_the_model_has_what_a_sheet_shows(tmp_path: Path) -> None:
    """The source and the notes are rules of the model (the sheet reads no raw data): a
    source key set to null removes the inherited one, as the merge does."""
    assert RuleSpec.from_data({"name": "bare"}).source == {}
    assert RuleSpec.from_data({"name": "bare"}).notes is None
    path = tmp_path / "mine.yaml"
    path.write_text("extends: hubei-3p\nname: mine\nsource:\n  section: null\n  url: https://example.org\n"
                    "notes: dealt by hand\n", encoding="utf-8")
    model = load_spec(str(path)).rule_spec
    assert dict(model.source) == {"document": load_spec("hubei-3p").rule_spec.source["document"],
                                  "url": "https://example.org"}
    assert model.notes == "dealt by hand"
