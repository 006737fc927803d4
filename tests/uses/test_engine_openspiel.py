"""The ``openspiel`` engine adapter answers the conformance questions from OpenSpiel's own
states, and agrees with compat/openspiel except for OpenSpiel's two legal-action defects
(chains whose lowest rank the hand holds four of are never offered; bombs are offered on
the rocket), which it reports as findings."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

import ddzrules
from ddzrules import cards as C
from ddzrules.engines import Reading, Unsupported
from ddzrules.rules.moves import Move
from ddzrules.rules.variant import Variant

pytest.importorskip("pyspiel")

from ddzrules.engines.openspiel import OpenSpielEngine, answer_script, run_script

CHAINS = {"straight", "pair_chain", "plane"}


@pytest.fixture(scope="module")
def variant(_private_cache: None) -> Variant:
    return ddzrules.load_variant("compat/openspiel")


@pytest.fixture(scope="module")
def engine(variant: Variant) -> OpenSpielEngine:
    return OpenSpielEngine({"spec": variant.name, "spec_resolved": variant.spec.data}, {})


def deck() -> list[int]:
    return C.deck_list(C.full_deck())


def expected_plays(v: Variant, hand: str, after: str | None) -> set[str]:
    """compat/openspiel's legal card sets, with OpenSpiel's two defects applied: a chain
    none of whose other readings is legal and whose lowest rank the hand holds four of
    is not offered; on the rocket, the hand's bombs are."""
    counts = Counter(hand)
    out: set[str] = set()
    for m in v.legal_moves(hand, after=after):
        if not (m.combo in CHAINS and counts[m.cards[0]] == 4):
            out.add(m.cards)
    if after == "XD":
        out |= {r * 4 for r in C.RANKS[:13] if counts[r] == 4}
    return out


# ------------------------------------------------------------------ moves


def test_moves_on_seeded_hands(engine, variant):
    """Leads of 1-20 cards, answers of 1-19 cards, a seeded random play of another
    hand to answer."""
    rng = random.Random(11)
    asked = Counter()
    for i in range(120):
        size = [20, 17, 19, 18, rng.randint(1, 16)][i % 5]
        cards = deck()
        rng.shuffle(cards)
        hand = C.counts_to_string(C.counts_of(cards[:size]))
        other = C.counts_to_string(C.counts_of(cards[size:size + 17]))
        leads = [m.cards for m in variant.legal_moves(other) if len(variant.classify(m.cards)) == 1]
        for after in (None, rng.choice(leads)):
            try:
                got = engine.moves(hand, after, None)
            except Unsupported:
                assert after is not None and (size == 20 or len(after) > 15), (hand, after)
                continue
            asked["lead" if after is None else f"answer-{min(size, 18)}"] += 1
            assert got.plays == expected_plays(variant, hand, after), (hand, after)
            assert got.can_pass is (after is not None)
    assert {"lead", "answer-18", "answer-17", "answer-16"} <= set(asked)
    assert sum(1 for k in asked if k.startswith("answer-")) >= 10
    assert asked["lead"] == 120 and sum(asked.values()) > 200


def test_answer_scripts_reach_the_hand(engine):
    """Each shape of position holds exactly the hand, with the play to answer on the table."""
    layout = engine.layout
    after = layout.by_cards["33344456"][0]
    for hand in ("7", "789TJQKA", "77889TJQKA2XD2", "77889TJQKA2XD2AAK", "77889TJQKA2XD2AAKQ",
                 "77889TJQKA2XD2AAKQJ"):
        script, seat = answer_script(C.counts_of(C.parse_ranks(hand)), after)
        state = run_script(script)
        assert state.current_player() == seat
        shown = state.observation_string(seat).split("\n")[0].removeprefix("My hand ")
        assert C.parse_cards(shown.replace("(BWJ)", "X").replace("(CJ)", "D")) == C.parse_cards(hand)
        assert 0 in state.legal_actions()  # answering: passing is legal


def test_unreachable_positions_are_unsupported(engine):
    with pytest.raises(Unsupported, match="20 cards"):
        engine.moves("33445566778899TTJJQQ", "3", None)
    with pytest.raises(Unsupported, match="one deck"):
        engine.moves("3333", "3", None)
    with pytest.raises(Unsupported, match="wild"):
        engine.moves("3333", None, "3")
    with pytest.raises(Unsupported, match="nothing to answer"):
        engine.moves("3333", "333344", None)


# ------------------------------------------------------------------ compare and classify


def test_compare_on_seeded_plays(engine, variant):
    rng = random.Random(5)
    universe = [c for c in variant.universe() if len(c) <= 15]
    by_combo: dict[str, list[str]] = {}
    for c in universe:
        by_combo.setdefault(variant.classify(c)[-1].combo, []).append(c)
    checked = 0
    for _ in range(150):
        combo = rng.choice(sorted(by_combo))
        b = rng.choice(by_combo[combo])
        a = rng.choice(by_combo[combo] if rng.random() < 0.7 else universe)
        try:
            got = engine.compare(a, b, None)
        except Unsupported:
            continue  # a and b hold more of a rank than one deck
        want = variant.beats(a, b) or (b == "XD" and variant.classify(a)[0].combo == "bomb")
        assert got is want, (a, b)
        checked += 1
    assert checked > 100
    assert engine.compare("XD", "2222", None)
    assert engine.compare("2222", "XD", None)  # OpenSpiel's defect: a bomb on the rocket
    assert engine.compare("89TJQ", "34567", None) and not engine.compare("3456789", "34567", None)
    assert not engine.compare("333344", "3", None)  # no 四带二: not a play at all


def test_classify_readings(engine, variant):
    rng = random.Random(3)
    samples = rng.sample(variant.universe(), 300) + ["333444555666", "3334445556667778",
                                                      "333344", "3333XD", "34", "XD", "3"]
    for cards in samples:
        got = engine.classify(cards, None)
        want = sorted({Reading(m.combo, m.rank_name, m.length) for m in variant.classify(cards)},
                      key=lambda r: (r.combo, r.rank, r.length))
        assert got.play is bool(want)
        assert list(got.readings or ()) == want, cards
    assert len(engine.classify("333444555666", None).readings or ()) == 3


def test_census(engine, variant):
    census = engine.census()
    mine = variant.census()
    assert (census.total, census.by_combo) == (mine.total, mine.by_combo)
    assert census.total == 25661
    assert sum(len(ids) for ids in engine.layout.by_cards.values()) == 26053


# ------------------------------------------------------------------ perft


def count(v: Variant, hands: list[list[int]], to_act: int, last: Move | None,
          last_seat: int | None, depth: int, defects: bool) -> int:
    """Sequences of ``depth`` actions (readings distinct, a pass an action), stopping when
    a hand is empty; with ``defects``, OpenSpiel's two search defects applied."""
    if last is not None and last_seat == to_act:
        last = None  # everyone else passed: a new lead
    hand = C.counts_to_string(hands[to_act])
    moves = list(v.legal_moves(hand, after=last))
    if defects:
        moves = [m for m in moves if not (m.combo in CHAINS and hands[to_act][C.RANK_INDEX[m.cards[0]]] == 4)]
        if last is not None and last.combo == "rocket":
            moves += [v.classify(r * 4)[0] for r in C.RANKS[:13] if hand.count(r) == 4]
    acts: list[Move | None] = list(moves) + ([None] if last is not None else [])
    if depth == 1:
        return len(acts)
    nxt = (to_act + 1) % 3
    total = 0
    for m in acts:
        if m is None:
            total += count(v, hands, nxt, last, last_seat, depth - 1, defects)
            continue
        left = [a - b for a, b in zip(hands[to_act], C.unpack(m.packed))]
        if any(left):
            child = list(hands)
            child[to_act] = left
            total += count(v, child, nxt, m, to_act, depth - 1, defects)
    return total


def divide(v: Variant, pos: dict[str, Any], depth: int, defects: bool) -> dict[str, int]:
    """The first action's card string (or "pass") -> sequences of ``depth`` actions."""
    hands = [C.counts_of(C.parse_ranks(h)) for h in pos["hands"]]
    seat = pos["to_act"]
    out: dict[str, int] = {}
    for m in v.legal_moves(C.counts_to_string(hands[seat])):
        if defects and m.combo in CHAINS and hands[seat][C.RANK_INDEX[m.cards[0]]] == 4:
            continue
        left = [a - b for a, b in zip(hands[seat], C.unpack(m.packed))]
        n = 1
        if depth > 1:
            child = list(hands)
            child[seat] = left
            n = count(v, child, (seat + 1) % 3, m, seat, depth - 1, defects) if any(left) else 0
        out[m.cards] = out.get(m.cards, 0) + n
    return out


def positions() -> list[dict[str, Any]]:
    """Three seeded whole deals, the landlord to lead; in the third both defects of
    OpenSpiel show within two actions (3333 with 4567, then the rocket and three bombs)."""
    out = []
    rng = random.Random(2024)
    for _ in range(2):
        cards = deck()
        rng.shuffle(cards)
        hands = [C.counts_of(cards[i * 17:(i + 1) * 17]) for i in range(3)]
        landlord = rng.randrange(3)
        for r in cards[51:]:
            hands[landlord][r] += 1
        out.append({"players": 3, "hands": [C.counts_to_string(h) for h in hands],
                    "landlord": landlord, "to_act": landlord, "wild": None})
    landlord = C.parse_cards("3333" + "4567" + "XD" + "222" + "AAKKQQJ")
    second = C.parse_cards("8888" + "9999" + "TTTT" + "JJQQK")
    pool = Counter(deck())
    pool.subtract(C.parse_ranks(landlord + second))
    third = C.counts_to_string(C.counts_of(pool.elements()))
    out.append({"players": 3, "hands": [third, landlord, second], "landlord": 1, "to_act": 1,
                "wild": None})
    return out


@pytest.mark.parametrize("index", [0, 1, 2])
@pytest.mark.parametrize("depth", [1, 2])
def test_perft(engine, variant, index, depth):
    pos = positions()[index]
    hands = [C.counts_of(C.parse_ranks(h)) for h in pos["hands"]]
    got = engine.perft(pos, depth)
    assert got.nodes == count(variant, hands, pos["to_act"], None, None, depth, defects=True)
    assert got.divide == divide(variant, pos, depth, defects=True)
    if index == 2:  # both defects matter here
        assert got.nodes < count(variant, hands, pos["to_act"], None, None, depth, defects=False)
        assert "34567" not in got.divide and "45678" not in got.divide
        if depth == 2:
            assert got.divide["XD"] == 1 + 3  # a pass, or one of the next player's three bombs


def test_perft_needs_a_whole_deal(engine):
    with pytest.raises(Unsupported):
        engine.perft({"players": 3, "hands": ["33", "4", "5"], "landlord": 0, "to_act": 0}, 1)
    pos = positions()[0]
    with pytest.raises(Unsupported, match="landlord"):
        engine.perft(pos | {"to_act": (pos["landlord"] + 1) % 3}, 1)


# ------------------------------------------------------------------ construction and findings


def test_constructor_refuses_other_decks(variant):
    data = dict(variant.spec.data)
    with pytest.raises(Unsupported, match="54-card"):
        OpenSpielEngine({"spec_resolved": data | {"deck": {"decks": 2, "jokers": True}}}, {})
    with pytest.raises(Unsupported, match="wild"):
        OpenSpielEngine({"spec_resolved": data | {"wildcards": {"stand_for": "3..2"}}}, {})
    with pytest.raises(Unsupported, match="3 players"):
        OpenSpielEngine({"spec_resolved": data | {"players": 4}}, {})


def test_findings(variant):
    engine = OpenSpielEngine({"spec_resolved": variant.spec.data}, {})
    assert engine.findings() == []
    engine.moves("3333456789TJQKA", None, None)
    assert engine.compare("4444", "XD", None)
    titles = {f.title: f.witnesses for f in engine.findings()}
    assert set(titles) == {"OpenSpiel omits chains from a leader's legal actions",
                           "OpenSpiel lets a bomb answer the rocket"}
    assert any("34567" in w for w in titles["OpenSpiel omits chains from a leader's legal actions"])
