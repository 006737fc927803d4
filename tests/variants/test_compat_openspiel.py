"""compat/openspiel reproduces OpenSpiel 2.0.2's dou_dizhu: its play actions exactly, as
(card set, reading) pairs, and its legal actions from real OpenSpiel states, up to the
two documented defects of OpenSpiel's legal-action search (tests/reference/README.md).

The reference-file tests need nothing but ddzrules; the state tests need ``pyspiel``
and set positions up here, by hand, independently of the ``openspiel`` engine adapter
(which tests/uses/test_engine_openspiel.py checks)."""

from __future__ import annotations

import random
from collections import Counter
from functools import lru_cache
from typing import Any

import pytest
from conftest import REFERENCE

import ddzrules
from ddzrules import cards as C
from ddzrules.rules.moves import Move
from ddzrules.rules.variant import Variant

# OpenSpiel family -> compat/openspiel combo
COMBOS = {
    "solo": "single", "pair": "pair", "trio": "trio", "bomb": "bomb", "rocket": "rocket",
    "trio_with_solo": "trio_single", "trio_with_pair": "trio_pair", "solo_chain": "straight",
    "pair_chain": "pair_chain", "airplane": "plane", "airplane_with_solo": "plane_solos",
    "airplane_with_pair": "plane_pairs",
}
CHAINS = {"straight", "pair_chain", "plane"}  # the chains OpenSpiel's chain search lists
Reading = tuple[str, str, str, int]  # cards, combo, rank, length


@pytest.fixture(scope="module")
def openspiel(_private_cache: None) -> Variant:
    return ddzrules.load_variant("compat/openspiel")


# ------------------------------------------------------------------ reference data


@lru_cache(maxsize=1)
def actions() -> dict[int, tuple[str, str, str]]:
    """OpenSpiel action id -> (canonical cards, OpenSpiel family, OpenSpiel action string)."""
    out = {}
    for line in (REFERENCE / "openspiel_actions.txt").read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            aid, cards, family, text = line.split("\t")
            out[int(aid)] = (cards, family, text)
    return out


def reading_of(aid: int) -> Reading:
    """The compat/openspiel reading an OpenSpiel action stands for."""
    cards, family, text = actions()[aid]
    combo = COMBOS[family]
    counts = Counter(cards)
    if "-" in text:  # an airplane with wings names its chain first
        chain = text.split("-")[0]
        return cards, combo, chain[-1], len(chain) // 3
    if combo in CHAINS:
        return cards, combo, cards[-1], len(counts)
    if combo in ("trio_single", "trio_pair"):
        return cards, combo, next(r for r, n in counts.items() if n == 3), 1
    return cards, combo, cards[-1], 1


def move_reading(m: Move) -> Reading:
    return m.cards, m.combo, m.rank_name, m.length


def readme_table() -> dict[str, tuple[int, int]]:
    """The OpenSpiel table of tests/reference/README.md: family -> (actions, card sets)."""
    text = (REFERENCE / "README.md").read_text(encoding="utf-8")
    section = text.split("### Per-family counts beside RLCard and DouZero", 1)[1].split("\n### ", 1)[0]
    out = {}
    for line in section.splitlines():
        cells = [c.strip().strip("*`") for c in line.strip().strip("|").split("|")]
        if len(cells) != 6 or not cells[2].replace(",", "").isdigit():
            continue
        out[cells[1] or "total"] = (int(cells[2].replace(",", "")), int(cells[3].replace(",", "")))
    return out


def test_reference_file_agrees_with_the_readme():
    table = readme_table()
    rows = actions()
    assert len(rows) == 26053 == table["total"][0]
    assert len({cards for cards, _, _ in rows.values()}) == 25661 == table["total"][1]
    assert sorted(rows) == list(range(4, 26057))  # 0 pass, 1-3 bids
    per_family = Counter(family for _, family, _ in rows.values())
    per_cards = {f: len({c for c, fam, _ in rows.values() if fam == f}) for f in per_family}
    for family, (n_actions, n_cards) in table.items():
        if family in ("total", "—"):
            continue
        assert (per_family[family], per_cards[family]) == (n_actions, n_cards), family
    assert per_family == {
        "solo": 15, "solo_chain": 36, "pair": 13, "pair_chain": 52, "trio": 13,
        "trio_with_solo": 182, "trio_with_pair": 156, "airplane": 45,
        "airplane_with_solo": 22588, "airplane_with_pair": 2939, "bomb": 13, "rocket": 1,
    }


# ------------------------------------------------------------------ the profile


def test_universe_is_the_action_list(openspiel):
    expected = {cards for cards, _, _ in actions().values()}
    got = set(openspiel.universe())
    assert not (got - expected), sorted(got - expected)[:20]
    assert not (expected - got), sorted(expected - got)[:20]


def test_readings_are_the_actions(openspiel):
    """One reading per action id: the same (cards, combo, rank, length) pairs, each once."""
    expected = Counter(reading_of(a) for a in actions())
    got = Counter(move_reading(m) for cards in openspiel.universe() for m in openspiel.classify(cards))
    assert max(expected.values()) == 1
    assert got == expected


def test_census_per_combo(openspiel):
    census = openspiel.census()
    per_combo: dict[str, set[str]] = {}
    for aid in actions():
        cards, combo, _, _ = reading_of(aid)
        per_combo.setdefault(combo, set()).add(cards)
    assert census.by_combo == {k: len(v) for k, v in per_combo.items()}
    assert (census.total, census.readings) == (25661, 26053)
    assert census.by_combo["plane_solos"] == 22205
    assert "four_two" not in census.by_combo and "four_two_pairs" not in census.by_combo


# (play, OpenSpiel has it): the kicker-policy table of tests/reference/README.md
KICKER_POLICIES = [
    ("333344", False),                    # no 四带二
    ("3333XD", False),
    ("33334455", False),
    ("3334", True),
    ("333444XD", False),                  # single wings never both jokers
    ("3334445X", True),
    ("333444555666+7777", False),         # wings never hold a four
    ("333444555666+7778", True),          # a trio next to the chain is a wing
    ("333444555666+2229", True),
    ("333444555666+9998", True),
    ("333444+5566", True),
    ("44445555", False),
]


@pytest.mark.parametrize("play,in_openspiel", KICKER_POLICIES)
def test_kicker_policies(openspiel, play, in_openspiel):
    cards = C.parse_cards(play)
    assert bool(openspiel.classify(cards)) is in_openspiel
    assert (cards in {c for c, _, _ in actions().values()}) is in_openspiel


def test_one_card_set_several_actions(openspiel):
    readings = sorted(move_reading(m) for m in openspiel.classify("333444555666"))
    assert readings == sorted(reading_of(a) for a in (492, 1484, 1814))
    assert [actions()[a][2] for a in (492, 1484, 1814)] == [
        "333444555666", "333444555-666", "444555666-333"]
    multi = Counter(Counter(c for c, _, _ in actions().values()).values())
    assert multi == {1: 25278, 2: 374, 3: 9}


# ------------------------------------------------------------------ against OpenSpiel's states

RANKS = C.RANKS


@lru_cache(maxsize=1)
def game() -> Any:
    pyspiel = pytest.importorskip("pyspiel")
    return pyspiel.load_game("dou_dizhu")


def deal(hands: list[str], landlord: int = 0) -> Any:
    """An OpenSpiel state after the deal and the bidding: ``hands`` (the landlord's 20
    cards include the kitty), the landlord having bid 3, about to lead. The first chance
    outcome is the position of the face-up card, whose holder bids first; deal outcome
    ``51 + card`` gives the card (``rank + 13·suit``, 52 and 53 the jokers) to player
    ``k mod 3`` on the k-th deal."""
    free = {r: ([52] if r == 13 else [53] if r == 14 else [r + 13 * s for s in range(4)])
            for r in range(15)}
    ids = [[free[RANKS.index(c)].pop() for c in h] for h in hands]
    state = game().new_initial_state()
    state.apply_action(landlord)
    for k in range(51):
        state.apply_action(51 + ids[k % 3][k // 3])
    assert state.current_player() == landlord
    state.apply_action(3)  # Bid 3
    for p, h in enumerate(hands):
        shown = state.observation_string(p).split("\n")[0].removeprefix("My hand ")
        assert C.parse_cards(shown.replace("(BWJ)", "X").replace("(CJ)", "D")) == h
    return state


def random_deal(rng: random.Random) -> list[str]:
    deck = C.deck_list(C.full_deck())
    rng.shuffle(deck)
    return [C.counts_to_string(C.counts_of(deck[i * 17:(i + 1) * 17] + (deck[51:] if i == 0 else [])))
            for i in range(3)]


def defects(hand: str, after: Reading | None, readings: set[Reading]) -> tuple[set[Reading], set[Reading]]:
    """What OpenSpiel's search does differently from the action list and the rules: the
    chains whose lowest rank the hand holds four of (never offered) and, on the rocket,
    the hand's bombs (offered)."""
    counts = Counter(hand)
    missing = {r for r in readings if r[1] in CHAINS and counts[r[0][0]] == 4}
    extra: set[Reading] = set()
    if after is not None and after[1] == "rocket":
        extra = {(r * 4, "bomb", r, 1) for r in RANKS[:13] if counts[r] == 4}
    return missing, extra


def check(v: Variant, state: Any, hand: str, after: Reading | None) -> tuple[set[Reading], set[Reading]]:
    """OpenSpiel's legal actions equal compat/openspiel's legal moves, reading by reading,
    up to the defects; returns the defects seen."""
    legal = state.legal_actions()
    got = {reading_of(a) for a in legal if a != 0}
    assert len(got) == len(legal) - (0 in legal)  # one reading per action id
    prev = None
    if after is not None:
        prev = next(m for m in v.classify(after[0]) if move_reading(m) == after)
    lm = v.legal_moves(hand, after=prev)
    want = {move_reading(m) for m in lm}
    missing, extra = defects(hand, after, want)
    assert got == (want - missing) | extra, (hand, after)
    assert (0 in legal) is lm.can_pass
    return missing, extra


def test_legal_moves_on_random_positions(openspiel):
    """The landlord leads from 20 cards; the next player answers a random legal lead with
    17; the third, after a pass, answers the same play."""
    rng = random.Random(20240601)
    seen_missing = 0
    for _ in range(150):
        hands = random_deal(rng)
        state = deal(hands)
        seen_missing += len(check(openspiel, state, hands[0], None)[0])
        lead = rng.choice([a for a in state.legal_actions() if len(actions()[a][0]) < 20])
        state.apply_action(lead)
        check(openspiel, state, hands[1], reading_of(lead))
        state.apply_action(0)  # pass
        check(openspiel, state, hands[2], reading_of(lead))
    assert seen_missing  # random 20-card hands hold four of a chain's lowest rank


def test_answers_to_every_family(openspiel):
    """The landlord leads a play of each family and size it holds, seeded."""
    rng = random.Random(7)
    seen = Counter()
    for _ in range(60):
        hands = random_deal(rng)
        state = deal(hands)
        by_family: dict[str, list[int]] = {}
        for a in state.legal_actions():
            if len(actions()[a][0]) < 20:
                by_family.setdefault(actions()[a][1], []).append(a)
        for family, ids in sorted(by_family.items()):
            child = state.clone()
            lead = rng.choice(ids)
            child.apply_action(lead)
            check(openspiel, child, hands[1], reading_of(lead))
            seen[family] += 1
    assert set(seen) == set(COMBOS)


def complete(*hands: str) -> list[str]:
    """The given hands and, last, the rest of the deck."""
    pool = Counter(C.deck_list(C.full_deck()))
    for h in hands:
        pool.subtract(C.parse_ranks(h))
    assert min(pool.values()) >= 0
    return [C.parse_cards(h) for h in hands] + [C.counts_to_string(C.counts_of(pool.elements()))]


def test_defect_chain_with_four_of_its_lowest_rank(openspiel):
    """A hand with 3333 and 456789TJQKA leads no straight from 3 in OpenSpiel (those from 4
    are offered); a hand with 8888 and 9TJQ cannot answer 34567 with 89TJQ, though it may
    answer with its bomb."""
    hands = complete("3333" + "456789TJQKA" + "22XD" + "5", "")
    hands = [hands[0], hands[2][:17], hands[2][17:]]
    state = deal(hands)
    legal = {actions()[a][0] for a in state.legal_actions() if a}
    assert "34567" not in legal and "45678" in legal
    missing, _ = check(openspiel, state, hands[0], None)
    assert {r[0] for r in missing} == {"3456789TJQKA"[:n] for n in range(5, 13)}

    hands = complete("34567" + "XD" + "2222" + "AAAKKK" + "334", "8888" + "9TJQ9TJQ" + "55667")
    state = deal(hands)
    lead = next(a for a in state.legal_actions() if actions()[a][0] == "34567")
    state.apply_action(lead)
    legal = {actions()[a][0] for a in state.legal_actions() if a}
    assert "89TJQ" not in legal and "8888" in legal
    assert "89TJQ" in {m.cards for m in openspiel.legal_moves(hands[1], after="34567")}
    missing, _ = check(openspiel, state, hands[1], reading_of(lead))
    assert {r[0] for r in missing} == {"89TJQ"}


def test_defect_bomb_on_the_rocket(openspiel):
    """The rocket is led; the next player's bombs are offered on it (the rules, and
    compat/openspiel, allow only a pass)."""
    landlord, farmer, third = complete("XD" + "56789TJQKA2" + "5678" + "9TJ",
                                       "3333" + "4444" + "QQKKAAA22")
    state = deal([landlord, farmer, third])
    rocket = next(a for a, (cards, _, _) in actions().items() if cards == "XD")
    state.apply_action(rocket)
    assert {actions()[a][0] for a in state.legal_actions() if a} == {"3333", "4444"}
    _, extra = check(openspiel, state, farmer, reading_of(rocket))
    assert extra == {("3333", "bomb", "3", 1), ("4444", "bomb", "4", 1)}
    assert not openspiel.legal_moves(farmer, after="XD").moves


def test_reference_file_is_the_installed_openspiel():
    """Every id of the file is the action OpenSpiel names so."""
    g = game()
    state = g.new_initial_state()
    assert g.num_distinct_actions() == 26057
    assert [state.action_to_string(0, a) for a in range(4)] == ["Pass", "Bid 1", "Bid 2", "Bid 3"]
    for aid, (_, _, text) in actions().items():
        assert state.action_to_string(0, aid) == text
