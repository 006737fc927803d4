"""The compatibility profiles reproduce the move universes of RLCard 1.2.0 and
DouZero 1.1.0 exactly: as sets of plays, per family, and play by play."""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache

import pytest
from conftest import REFERENCE

# ------------------------------------------------------------------ reference data


def _rows(name: str) -> list[list[str]]:
    out = []
    for line in (REFERENCE / name).read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            out.append(line.split("\t"))
    return out


@lru_cache(maxsize=1)
def rlcard_actions() -> dict[str, str]:
    """canonical cards -> RLCard card type (without the chain-length suffix)."""
    out = {}
    for row in _rows("rlcard_actions.txt"):
        _id, _rl, cards, kind = row[:4]
        if kind == "pass":
            continue
        assert cards not in out, f"duplicate RLCard action {cards}"
        out[cards] = re.sub(r"_\d+$", "", kind)
    return out


@lru_cache(maxsize=1)
def douzero_universe() -> dict[str, set[str]]:
    """canonical cards -> the DouZero generator families that produce it."""
    out: dict[str, set[str]] = {}
    for family, _detector, cards in _rows("douzero_universe.txt"):
        assert cards not in out, f"duplicate DouZero play {cards}"
        out[cards] = set(family.split("/"))
    return out


# reference family -> combo of the profile
RLCARD_TYPES = {
    "solo": "single", "pair": "pair", "trio": "trio", "bomb": "bomb", "rocket": "rocket",
    "trio_solo": "trio_single", "trio_pair": "trio_pair", "solo_chain": "straight",
    "pair_chain": "pair_chain", "trio_chain": "plane", "trio_solo_chain": "plane_solos",
    "trio_pair_chain": "plane_pairs", "four_two_solo": "four_two", "four_two_pair": "four_two_pairs",
}
DOUZERO_FAMILIES = {
    "single": "single", "pair": "pair", "trio": "trio", "bomb": "bomb", "rocket": "rocket",
    "trio+1": "trio_single", "trio+pair": "trio_pair", "straight": "straight",
    "pair-chain": "pair_chain", "plane": "plane", "plane+solos": "plane_solos",
    "plane+pairs": "plane_pairs", "four+2": "four_two", "four+2pairs": "four_two_pairs",
}
# the per-family table of tests/reference/README.md
README_FAMILIES = {
    "single": "single", "pair": "pair", "trio": "trio", "bomb": "bomb", "rocket": "rocket",
    "trio + single": "trio_single", "trio + pair": "trio_pair", "straight (5–12)": "straight",
    "pair chain": "pair_chain", "plane (trio chain)": "plane",
    "plane + single wings": "plane_solos", "plane + pair wings": "plane_pairs",
    "four + two singles": "four_two", "four + two pairs": "four_two_pairs",
}


def readme_table() -> tuple[dict[str, int], dict[str, int], tuple[int, int]]:
    rl: dict[str, int] = {}
    dz: dict[str, int] = {}
    total = (0, 0)
    text = (REFERENCE / "README.md").read_text(encoding="utf-8")
    section = text.split("## Per-family counts", 1)[1].split("\n## ", 1)[0]
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 3 or not cells[1].replace(",", "").replace("*", "").isdigit():
            continue
        family, a, b = cells
        a_n, b_n = int(a.replace(",", "").strip("*")), int(b.replace(",", "").strip("*"))
        if "total" in family:
            total = (a_n, b_n)
        else:
            rl[README_FAMILIES[family]] = a_n
            dz[README_FAMILIES[family]] = b_n
    assert len(rl) == len(README_FAMILIES)
    return rl, dz, total


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
