"""Whole seeded bot games give the same records, views and legal actions as when
``tests/reference/game_digests.json`` was made (``tests/reference/make_game_digests.py``):
the runtime's speed work must not change what a game does. If a change of the rules
or of the bots is meant to change games, regenerate the file with that script and say
so in the commit."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest

REFERENCE = Path(__file__).parent / "reference"


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_game_digests", REFERENCE / "make_game_digests.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GEN = _generator()
WANT: dict[str, dict[str, dict[str, str]]] = json.loads((REFERENCE / "game_digests.json").read_text("utf-8"))


def test_every_playable_bundled_spec_has_digests() -> None:
    assert sorted(WANT) == sorted(GEN.game_specs())
    assert all(len(games) == GEN.SEEDS for games in WANT.values())


@pytest.mark.parametrize("indexed", [False, True], ids=["listed-first", "indexed"])
@pytest.mark.parametrize("spec", sorted(WANT))
def test_seeded_games_are_unchanged(spec: str, indexed: bool) -> None:
    """Both ways the runtime lists plays: through Variant.legal_moves, as a fresh process
    does for its first FAST_INDEX_AFTER hands, and through the lister's index."""
    rules = GEN.GameRules.load(spec)
    if indexed:
        rules.variant.fast_index()
    differ = [seed for seed, want in WANT[spec].items() if GEN.play_digest(rules, int(seed)) != want]
    assert not differ, f"{spec}: games {differ} no longer play as recorded"
