"""The compatibility profiles reproduce the move universes of RLCard 1.2.0 and
DouZero 1.1.0 exactly: as sets of plays, per family, and play by play."""

from __future__ import annotations

from collections import Counter

import pytest
from reference_data import (
    DOUZERO_FAMILIES,
    RLCARD_TYPES,
    douzero_universe,
    readme_table,
    rlcard_actions,
)

# ------------------------------------------------------------------ sanity of the reference data


def test_reference_files_agree_with_their_readme():
    rl, dz, (rl_total, dz_total) = readme_table()
    actions = rlcard_actions()
    universe = douzero_universe()
    assert len(actions) == rl_total == sum(rl.values())
    assert len(universe) == dz_total
    assert Counter(RLCARD_TYPES[k] for k in actions.values()) == rl
    per_family = Counter(DOUZERO_FAMILIES[f] for fams in universe.values() for f in fams)
    assert per_family == dz


# ------------------------------------------------------------------ the profiles


def test_rlcard_universe_is_the_action_space(rlcard):
    expected = set(rlcard_actions())
    got = set(rlcard.universe())
    assert not (got - expected), sorted(got - expected)[:20]
    assert not (expected - got), sorted(expected - got)[:20]


def test_douzero_universe_is_the_generator_output(douzero):
    expected = set(douzero_universe())
    got = set(douzero.universe())
    assert not (got - expected), sorted(got - expected)[:20]
    assert not (expected - got), sorted(expected - got)[:20]


@pytest.mark.parametrize("which", ["rlcard", "douzero"])
def test_per_combo_counts_match_the_readme(request, which):
    v = request.getfixturevalue(which)
    rl, dz, (rl_total, dz_total) = readme_table()
    census = v.census()
    assert census.by_combo == (rl if which == "rlcard" else dz)
    assert census.total == (rl_total if which == "rlcard" else dz_total)


def test_rlcard_play_by_play(rlcard):
    """Each action reads as exactly its RLCard type, and nothing else."""
    for cards, kind in rlcard_actions().items():
        got = {m.combo for m in rlcard.classify(cards)}
        assert got == {RLCARD_TYPES[kind]}, (cards, kind, got)


def test_douzero_play_by_play(douzero):
    """Each play reads as exactly the generator families that produce it (nine come
    out of two generators: a plane of four trios is also three trios with wings)."""
    for cards, families in douzero_universe().items():
        got = {m.combo for m in douzero.classify(cards)}
        assert got == {DOUZERO_FAMILIES[f] for f in families}, (cards, families, got)


# the kicker-policy table of tests/reference/README.md: (play, DouZero has it, RLCard has it)
KICKER_POLICIES = [
    ("3334", True, True),                 # trio + single of another rank
    ("3333", True, True),                 # ... its own rank is a bomb, not a trio + single
    ("333344", True, True),               # four + two identical singles
    ("3333XD", True, False),              # four + both jokers
    ("333444XD", True, False),            # plane single wings = both jokers
    ("33344455556", False, False),        # 11 cards: no plane shape
    ("333444555666+7777", True, False),   # wings holding a four
    ("333444555666+7778", True, False),   # a trio next to the chain
    ("333444555666+2229", True, True),    # a 222 trio never extends a chain
    ("333444555666+9998", True, True),    # a trio not next to the chain
    ("44445555", False, False),           # four + two pairs of one rank
]


@pytest.mark.parametrize("play,in_douzero,in_rlcard", KICKER_POLICIES)
def test_kicker_policies(douzero, rlcard, play, in_douzero, in_rlcard):
    from ddzrules import parse_cards

    cards = parse_cards(play)
    assert bool(douzero.classify(cards)) is in_douzero
    assert bool(rlcard.classify(cards)) is in_rlcard
    # and the reference files agree with the README's table
    assert (cards in douzero_universe()) is in_douzero
    assert (cards in rlcard_actions()) is in_rlcard
