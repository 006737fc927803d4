"""The fast lister (ddzrules/lister.py) against plain enumeration, on every bundled spec.

``Variant.legal_moves`` lists a hand's plays from the MovePlan; ``_legal_moves_enumerated``
walks the compiled shapes card group by card group. Both must give the same moves in
the same order, for leads and answers, on random hands and on hands crowded with the
trios, fours and runs of trios that the kicker paths (triangles of kicker pairs, pools
of three or more kicker groups) handle.
"""

from __future__ import annotations

import os
import random

import pytest

from ddzrules import cards as C
from ddzrules import load_variant
from ddzrules.spec import bundled_names

#: random hands per spec and kind of hand (random, crowded): about a second per spec in
#: CI; the larger run is ``DDZRULES_LISTER_HANDS=5000 python -m pytest
#: tests/core/test_lister_speedups.py`` (10,000 hands per spec, see docs/speed.md)
HANDS = int(os.environ.get("DDZRULES_LISTER_HANDS", "60"))


def _random_hand(rng: random.Random, deck: list[int], size: int) -> C.Ranks:
    cards = [r for r, n in enumerate(deck) for _ in range(n)]
    return C.Ranks(sorted(rng.sample(cards, min(size, len(cards)))))


def _crowded_hand(rng: random.Random, deck: list[int], size: int) -> list[int]:
    """Whole ranks first (trios, fours, often consecutive), then single cards."""
    counts = [0] * C.NUM_RANKS
    start = rng.randrange(C.NUM_RANKS)
    r = start
    while sum(counts) < size:
        room = deck[r] - counts[r]
        if room > 0:
            counts[r] += min(room, rng.choice((2, 3, 3, 4, 4)), size - sum(counts))
        r = (r + 1) % C.NUM_RANKS if rng.random() < 0.7 else rng.randrange(C.NUM_RANKS)
    return C.deck_list(counts)


def _hands(name: str, max_hand: int, deck: list[int]) -> list[list[int]]:
    rng = random.Random(f"lister:{name}")
    out = []
    for _ in range(HANDS):
        out.append(_random_hand(rng, deck, rng.randint(1, max_hand)))
        out.append(_crowded_hand(rng, deck, rng.randint(max(1, max_hand - 8), max_hand)))
    return out


def _show(moves: object) -> list[tuple[str, str, int, int]]:
    return [(m.cards, m.combo, m.rank, m.length) for m in moves]  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", bundled_names())
def test_fast_listing_matches_enumeration(name: str) -> None:
    v = load_variant(name)
    fast = v.fast_index() if v._fast is None else v._fast
    if fast is False:
        pytest.skip("no tabulated universe")
    deck = list(v.rules.deck)
    universe = v.universe()
    rng = random.Random(f"prev:{name}")
    for hand in _hands(name, fast.max_hand, deck):
        counts = C.counts_of(hand)
        assert _show(v.legal_moves(hand)) == _show(v._legal_moves_enumerated(list(counts), None)), hand
        prev = rng.choice(v.classify(rng.choice(universe)))
        fast_answers = v.legal_moves(hand, after=prev)
        assert _show(fast_answers) == _show(v._legal_moves_enumerated(list(counts), prev)), (hand, prev)
        # and a play of the hand itself, so that some answers are of its own shapes
        leads = v.legal_moves(hand).moves
        if leads:
            own = rng.choice(leads)
            assert _show(v.legal_moves(hand, after=own)) == _show(v._legal_moves_enumerated(list(counts), own)), \
                (hand, own)


def _outcome(fn: object, *args: object) -> object:
    try:
        return _show(fn(*args))  # type: ignore[operator]
    except Exception as e:  # noqa: BLE001 - the error itself is compared
        return (type(e), str(e))


@pytest.mark.parametrize("name", ["compat/douzero", "hubei-3p"])
def test_quick_counting_matches_the_general_path(name: str) -> None:
    """Rank indices (``Ranks``) are counted on a quick path (card weights summed into one
    int, or the C kernel); a subclass of Ranks takes the general path. Both give the same
    moves for good hands and the same errors for bad ones: negative ranks, ranks 15-255 and
    beyond, more of a rank than the deck holds, floats, strings, bools, too many cards."""
    v = load_variant(name)
    v.fast_index()  # the quick path reads it (before it is built, both paths enumerate)
    bad = [[-1], [0, -1], [-16], [-255], [15], [14, 15], [200], [255], [256], [1 << 70], [0] * 5, [13, 13],
           [1.0], ["3"], [None], [True, 2], list(range(15)) * 9, [0, 0, 1, 2.5]]
    rng = random.Random("quick-count")
    deck = [r for r, n in enumerate(v.rules.deck) for _ in range(n)]
    good = [rng.sample(deck, rng.randint(0, 20)) for _ in range(50)]  # unsorted on purpose
    for hand in bad + good:
        quick, general = C.Ranks(hand), _GeneralRanks(hand)
        assert _outcome(v.legal_moves, quick) == _outcome(v.legal_moves, general), hand
        assert _outcome(v.legal_moves, quick, "3") == _outcome(v.legal_moves, general, "3"), hand


class _GeneralRanks(C.Ranks):
    """Ranks that are not exactly ``Ranks``: legal_moves' quick path takes only the type the
    runtime passes, so these are counted on the general path."""

    __slots__ = ()


@pytest.mark.parametrize("name", ["hubei-3p", "paodekuai", "hubei-4p-2deck"])
def test_the_fast_index_is_built_once_it_pays_and_lists_the_same(name: str) -> None:
    """A fresh variant lists its first FAST_INDEX_AFTER hands by enumeration (the index
    is not built: the first answer of a process is quick), then builds the index; the
    plays, their order and the very Move objects are the same on either side."""
    from ddzrules.rules.variant import FAST_INDEX_AFTER

    v = load_variant(name)
    rng = random.Random(f"ski:{name}")
    deck = list(v.rules.deck)
    hands = [_random_hand(rng, deck, rng.randint(1, v.rules.max_hand)) for _ in range(FAST_INDEX_AFTER // 2)]
    before = []
    for hand in hands:
        lead = v.legal_moves(hand)
        before.append((lead, v.legal_moves(hand, after=lead.moves[-1])))
    assert v.built_fast_index is None
    v.legal_moves(hands[0])  # the listing past the threshold builds it
    assert v.built_fast_index not in (None, False)
    for hand, (lead, answer) in zip(hands, before):
        again = v.legal_moves(hand)
        assert list(map(id, again)) == list(map(id, lead)), hand
        assert again.can_pass is lead.can_pass is False
        got = v.legal_moves(hand, after=lead.moves[-1])
        assert list(map(id, got)) == list(map(id, answer)) and got.can_pass, hand


def test_a_game_lists_the_same_actions_before_and_after_the_index() -> None:
    """The runtime's lister goes through Variant.legal_moves until the variant has built
    its index, then reads the index: the same games either way."""
    from ddzrules.runtime import GameRules

    def actions_of(rules: GameRules, prebuilt: bool) -> list[list[object]]:
        if prebuilt:
            rules.variant.fast_index()
        seen = []
        for seed in range(3):
            game = rules.new_game(seed=seed)
            rng = random.Random(seed)
            while not game.over:
                legal = game.legal_actions()
                seen.append([(a.kind, a.value) for a in legal])
                game.apply(legal[rng.randrange(len(legal))])
        return seen

    late = GameRules.load("hubei-3p")
    assert late.variant.built_fast_index is None
    assert actions_of(late, prebuilt=False) == actions_of(GameRules.load("hubei-3p"), prebuilt=True)


def test_a_play_stays_the_same_action_when_the_index_comes() -> None:
    """The runtime makes one Action per (seat, play), reused by every game of the rules:
    the actions made before the variant had its index are the ones listed after."""
    from ddzrules.runtime import GameRules

    rules = GameRules.load("hubei-3p")
    assert rules.variant.built_fast_index is None

    def at_play(seed: int) -> list[object]:
        game = rules.new_game(seed=seed, landlord=0)
        rng = random.Random(seed)
        seen = []
        for _ in range(12):
            if game.over:
                break
            legal = game.legal_actions()
            seen.extend(legal)
            game.apply(legal[rng.randrange(len(legal))])
        return seen

    before = [at_play(seed) for seed in range(4)]
    rules.variant.fast_index()
    after = [at_play(seed) for seed in range(4)]
    assert rules.play_lister.positions([1, 1, 1] + [0] * 12, None) is not None  # the index is read now
    assert before == after
    plays = [(a, b) for xs, ys in zip(before, after) for a, b in zip(xs, ys)
             if getattr(a, "kind", None) == "play"]
    assert plays and all(a is b for a, b in plays)


#: shapes outside the plan's table forms, which the plan lists by enumerating that shape
#: alone (kickers that may share the core's rank, two kicker rules, a literal core with
#: kickers): no bundled spec has one, so a house rule adds them
GENERIC_SHAPES = """\
name: generic-shapes
extends: hubei-3p
combos:
  trio_overlap: {pattern: "3 + 1 where overlap"}
  four_single_pair: {pattern: "4 + 1 + 2"}
  jokers_and_single: {pattern: "<XD> + 1"}
"""


def test_shapes_outside_the_table_forms_list_as_enumerated(tmp_path) -> None:
    spec = tmp_path / "generic-shapes.yaml"
    spec.write_text(GENERIC_SHAPES, encoding="utf-8")
    v = load_variant(str(spec))
    fast = v.fast_index()
    assert fast is not False
    assert {fs.kind for fs in fast.plan.shapes} >= {"generic"}  # the path this test is for
    rng = random.Random("generic-shapes")
    deck = list(v.rules.deck)
    for hand in _hands("generic-shapes", fast.max_hand, deck):
        counts = list(C.counts_of(hand))
        leads = v.legal_moves(hand)
        assert _show(leads) == _show(v._legal_moves_enumerated(counts, None)), hand
        for prev in [rng.choice(leads)] if leads else []:
            assert _show(v.legal_moves(hand, after=prev)) == _show(v._legal_moves_enumerated(counts, prev)), \
                (hand, prev)
