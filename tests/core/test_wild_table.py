"""The wild-card table (ddzrules.rules.wild_table) against the enumeration it replaces
(WildMoves.*_enumerated): the same plays, readings, order and substitutions on random
hands of every wild count, leads, answers and classify; and the census from the table.

Bounded for CI (a few hundred hands per wild count over three wild ranks); the
10,000-hand comparison is ``python benchmarks/bench_wild.py --check 10000``.
"""

from __future__ import annotations

import dataclasses
import operator
import random
from pathlib import Path

import pytest

from ddzrules import cards as C
from ddzrules import load_variant
from ddzrules.rules import wild_store as WS
from ddzrules.rules.moves import Move
from ddzrules.rules.wild import WildMoves
from ddzrules.rules.wild_table import WildTable
from ddzrules.speed.cache import CacheWarning

DECK = C.deck_list(C.full_deck())
#: the two ends of the chain ranks and the middle: wild 3 and A drop the same chains,
#: 7 the most, 2 none (docs/census-variants.md)
WILD_RANKS = (0, 4, 12)
HANDS_PER_COUNT = 80


@pytest.fixture(scope="module")
def wm() -> WildMoves:
    wilds = load_variant("laizi").wild_moves()
    wilds.table_after = 0  # every query by table, to compare it with the enumeration
    return wilds


def _deal(rng: random.Random, k: int, size: int, wild: int) -> list[int]:
    counts = [0] * C.NUM_RANKS
    for r in [wild] * k + rng.sample([c for c in DECK if c != wild], size - k):
        counts[r] += 1
    return counts


def _same(a: tuple[Move, ...], b: tuple[Move, ...]) -> bool:
    # Move equality ignores the substitution: compare it too
    return a == b and [m.substitution for m in a] == [m.substitution for m in b]


def _answers_match(rng: random.Random, leads: tuple[Move, ...], other: list[int], wild: C.WildKey,
                   by_table: WildMoves, walked: WildMoves) -> int:
    """Answers of ``other`` to a play of each combo among ``leads``: the table path (first,
    so that it makes its own Moves) against the walk; how many were compared."""
    by_combo: dict[str, list[Move]] = {}
    for m in leads:
        by_combo.setdefault(m.combo, []).append(m)
    for plays in by_combo.values():
        prev = rng.choice(plays)
        have = by_table.legal_moves(other, prev, wild)
        want = walked.legal_moves_enumerated(other, prev, wild)
        assert _same(have.moves, want.moves), (C.to_string(C.pack(other)), prev)
        assert have.can_pass is want.can_pass is True
    return len(by_combo)


@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_table_matches_enumeration(wm: WildMoves, k: int) -> None:
    rng = random.Random(1000 + k)
    answers = 0
    for i in range(HANDS_PER_COUNT):
        wild = WILD_RANKS[i % len(WILD_RANKS)]
        counts = _deal(rng, k, rng.choice((17, 20, rng.randint(k, 20))), wild)
        ref = wm.legal_moves_enumerated(counts, None, wild)
        got = wm.legal_moves(counts, None, wild)
        assert _same(got.moves, ref.moves), C.to_string(C.pack(counts))
        assert got.can_pass is ref.can_pass is False
        # answers: a play of each combo this hand leads, to another hand
        other = _deal(rng, k, rng.randint(k, 20), wild)
        answers += _answers_match(rng, ref.moves, other, wild, wm, wm)
        # classify: a random play of the hand, and the whole hand
        for cards in (C.unpack(rng.choice(ref.moves).packed), counts):
            assert _same(wm.classify(cards, wild), wm.classify_enumerated(cards, wild))
    assert answers > HANDS_PER_COUNT  # most hands lead several combos


#: pairs of wild ranks (天地癞子): the first pair reads 3's table, the second 7's, and the
#: third (5 and 7) 7's too, read already: either rank's table answers for both
WILD_PAIRS = ((0, 4), (4, 12), (2, 4))


@pytest.fixture(scope="module")
def tiandi() -> WildMoves:
    wilds = load_variant("tiandi-laizi").wild_moves()
    wilds.table_after = 0
    return wilds


def test_several_wild_ranks_by_either_ranks_table(tiandi: WildMoves) -> None:
    """Two wild ranks: the plays of a pool of at most four wild cards come from either
    rank's table (the one read already), placed on the cards held in every way, and the wild cards alone are
    walked apart; leads, answers and classify are the walk's, substitutions included.
    The walk runs on a WildMoves of its own, so that neither path reuses the other's
    Moves (a Move keeps the substitution it was made with)."""
    walked = WildMoves(tiandi.rules)
    walked.use_table = False
    rng = random.Random(77)
    by_table = answers = 0
    for i in range(60):
        wild = WILD_PAIRS[i % len(WILD_PAIRS)]
        counts = C.counts_of(rng.sample(DECK, rng.choice((17, 20, rng.randint(1, 20)))))
        got_positions = tiandi._several_positions(counts, None, wild)
        if got_positions is not None:
            by_table += 1
            assert got_positions[0].wild == (4 if wild == (2, 4) else wild[0])
        got = tiandi.legal_moves(counts, None, wild)
        ref = walked.legal_moves_enumerated(counts, None, wild)
        assert _same(got.moves, ref.moves), C.to_string(C.pack(counts))
        other = C.counts_of(rng.sample(DECK, rng.randint(1, 20)))
        answers += _answers_match(rng, ref.moves, other, wild, tiandi, walked)
        for cards in (C.unpack(rng.choice(ref.moves).packed), counts):
            table_path = tiandi.classify(cards, wild)
            assert _same(table_path, walked.classify_enumerated(cards, wild))
    # wild cards alone, and a pool larger than a table holds (walked)
    for counts in ([0, 0, 0, 0, 2] + [0] * 10, [2, 0, 0, 0, 1] + [0] * 10, [4, 0, 0, 0, 3, 1] + [0] * 9):
        table_path = tiandi.classify(counts, (0, 4))
        assert _same(table_path, walked.classify_enumerated(counts, (0, 4)))
        leads = tiandi.legal_moves(counts, None, (0, 4)).moves
        assert _same(leads, walked.legal_moves_enumerated(counts, None, (0, 4)).moves)
    assert by_table > 40 and answers > 60


def _lead_hand(rng: random.Random, wild: tuple[int, ...]) -> list[int]:
    """A hand of 5 to 20 cards holding one to six cards of the wild ranks."""
    pool = [c for c in DECK if c not in wild]
    held = [w for w in wild for _ in range(4)]
    cards = rng.sample(held, rng.randint(1, 6))
    return C.counts_of(cards + rng.sample(pool, rng.randint(5, 20) - len(cards)))


def test_several_wild_ranks_leads_as_keys(tiandi: WildMoves) -> None:
    """WildLeads (the leads of two wild ranks as keys, a Move made when asked for) lists
    the walk's leads, substitutions and order included, read off a table (at most four
    wild cards) or walked (more); its Moves are the very objects the full listing gives;
    its sizes, ranks, bombs and cards are the Moves'; it holds its own Moves only, by
    identity."""
    walked = WildMoves(tiandi.rules)
    walked.use_table = False
    rng = random.Random(5)
    by_table = by_walk = 0
    for i in range(40):
        wild = WILD_PAIRS[i % len(WILD_PAIRS)]
        counts = _lead_hand(rng, wild)
        leads = tiandi.lead_plays(counts, wild)
        assert leads is not None
        if sum(counts[w] for w in wild) <= 4:
            by_table += 1
            assert leads.by_table
        else:
            by_walk += 1
            assert not leads.by_table
        ref = walked.legal_moves_enumerated(counts, None, wild).moves
        got = tuple(leads)
        assert _same(got, ref), C.to_string(C.pack(counts))
        assert len(leads) == len(ref) and leads == ref and leads[-1] is got[-1] and leads[:2] == got[:2]
        full = tiandi.legal_moves(counts, None, wild).moves
        assert all(map(operator.is_, got, full))  # one WildMoves, one object a play
        assert leads.sizes() == [m.size for m in ref] and leads.ranks() == [m.rank for m in ref]
        plain = leads.plain()
        assert all(m.tier < 0 for m in ref[:plain]) and all(m.tier >= 0 for m in ref[plain:])
        fields = 0xF << (4 * rng.choice([r for r in range(C.SMALL_JOKER) if counts[r]]))
        assert leads.clear_of(fields, plain) == [k for k in range(plain) if not ref[k].packed & fields]
        start, end = sorted(rng.sample(range(len(ref) + 1), 2)) if len(ref) > 1 else (0, len(ref))
        assert leads.first_clear_of(fields, start, end) == next(
            (k for k in range(start, end) if not ref[k].packed & fields), -1)
        for size in {sum(counts), rng.randint(1, 20), ref[-1].size, ref[0].size, 0, 300}:
            assert leads.first_of_size(size) == next((k for k, m in enumerate(ref) if m.size == size), -1)
            assert leads.first_of_size(size, bombs=False) == next(
                (k for k, m in enumerate(ref) if m.size == size and m.tier < 0), -1)
        assert [leads.size_at(k) for k in (0, -1)] == [ref[0].size, ref[-1].size]
        for m in rng.sample(got, min(5, len(got))):
            assert leads.holds(m)
            assert not leads.holds(dataclasses.replace(m))  # equal, not the very Move
    with pytest.raises(IndexError):
        leads[len(leads)]
    with pytest.raises(IndexError):
        leads[-len(leads) - 1]
    with pytest.raises(TypeError):
        leads["0"]  # type: ignore[call-overload]
    assert leads[-1] is leads[len(leads) - 1] and leads[True] is leads[1]
    assert by_table > 20 and by_walk > 5


def test_several_wild_ranks_leads_read_a_size_at_a_time(tiandi: WildMoves) -> None:
    """A WildLeads read by size (plain_keys, bomb_keys: a table's block, or a walk of that
    size) gives each size's plays as the whole listing has them, keys and Moves; holds
    and only_one answer from those alone; and the rollout policy's lead, read that way,
    is the one it picks from the whole listing's Moves (the walk's, an independent
    listing), reading far fewer plays."""
    from ddzrules.bots.search import _choose, _lead_choice

    walked = WildMoves(tiandi.rules)
    walked.use_table = False
    for w in {w for pair in WILD_PAIRS for w in pair}:
        tiandi.table(w)  # read now: the fresh listers below share them
    rng = random.Random(11)
    tables = walks = read_part = 0
    hands = [_lead_hand(rng, WILD_PAIRS[i % len(WILD_PAIRS)]) for i in range(36)]
    hands += [C.counts_of([0]), C.counts_of([0, 4]), C.counts_of([4, 4]), C.counts_of([0, 0, 4, 4, 4, 4, 9]),
              C.counts_of([5, 5, 5, 5]), C.counts_of([0, 0, 0, 0]), C.counts_of([5, 5, 5, 5, 0])]  # out by a bomb
    for i, counts in enumerate(hands):
        wild = WILD_PAIRS[i % len(WILD_PAIRS)] if i < 36 else (0, 4)
        ref = walked.legal_moves_enumerated(counts, None, wild).moves
        # the policy on a fresh listing, read by size (a lister of its own: nothing read before)
        fresh = WildMoves(tiandi.rules)
        fresh._tables = tiandi._tables  # the tables already read, and the same choice of table or walk
        fresh.use_table = True
        lazy = fresh.lead_plays(counts, wild)
        assert lazy is not None
        tables += lazy.by_table
        walks += not lazy.by_table
        assert lazy.only_one() == (len(ref) == 1)
        chosen = lazy.move_of(_lead_choice(lazy, counts))

        class Seat:  # the little of a game the policy reads on a lead
            to_act, hands, last_play = 0, [counts], None

        expected = ref[_choose(Seat, ref, False)]  # type: ignore[arg-type]
        assert chosen == expected and chosen.substitution == expected.substitution
        read_part += lazy._keys is None
        # holds from the sizes read: the chosen Move, not an equal one made apart
        assert lazy.holds(chosen) and not lazy.holds(dataclasses.replace(chosen))
        # every size's keys, read alone, are the whole listing's, as are its Moves
        whole = WildMoves(tiandi.rules)
        whole._tables = tiandi._tables
        one = whole.lead_plays(counts, wild)
        assert one is not None
        parts = [k for size in range(1, sum(counts) + 1) for k in one.plain_keys(size)] + one.bomb_keys()
        assert one._keys is None
        down = WildMoves(tiandi.rules)  # read downwards, as the policy does (a walk reads a few sizes at once)
        down._tables = tiandi._tables
        other = down.lead_plays(counts, wild)
        assert other is not None
        sizes = [other.plain_keys(size) for size in range(sum(counts), 0, -1)]
        assert [k for run in reversed(sizes) for k in run] + other.bomb_keys() == parts
        assert parts == one.keys == lazy.keys
        assert _same(tuple(one), ref) and all(map(operator.is_, (one.move_of(k) for k in parts), one))
        assert one.plain_keys(0) == one.plain_keys(300) == one.plain_keys(-2) == []
        for bad in (0, -1, parts[0] + 1 if parts[0] + 1 not in parts else 1, 2**300, "x", 1.0, None):
            with pytest.raises(ValueError, match="no play of key"):
                lazy.move_of(bad)  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            one.plain_keys("3")  # type: ignore[arg-type]
    assert tables > 20 and walks > 4
    assert read_part > 30  # the policy's choice read only some sizes


@pytest.mark.parametrize("spec", ["laizi", "tiandi-laizi"])
def test_plain_sizes_are_those_the_full_deck_walk_finds(spec: str) -> None:
    """The sizes a WildLeads reads (the others are never walked) are, from the shapes
    alone, the sizes of the plays that are no bomb in the full deck's table."""
    wilds = load_variant(spec).wild_moves()
    table = wilds.table(4)
    assert wilds._plain_sizes == set(table.plain[table.most_wilds])
    assert 13 not in wilds._plain_sizes and 20 in wilds._plain_sizes


def test_one_wild_rank_leads_read_a_size_at_a_time(wm: WildMoves) -> None:
    """One wild rank (癞子) once its table is read: a WildLeads of the table's own Moves
    (the very objects legal_moves gives), each size read alone as the whole listing has
    it, and the rollout policy's lead read by size the one it picks from the Moves; before
    the table is read, no WildLeads (the query walks, as legal_moves does)."""
    from ddzrules.bots.search import _choose, _lead_choice

    rng = random.Random(13)
    assert WildMoves(wm.rules).lead_plays(_deal(rng, 1, 17, 4), 4) is None  # no table read yet
    read_part = 0
    for i in range(40):
        wild = WILD_RANKS[i % len(WILD_RANKS)]
        counts = _deal(rng, rng.randint(1, 4), rng.choice([5, 12, 17, 20]), wild)
        full = wm.legal_moves(counts, None, wild).moves
        wm.table(wild)
        fresh = WildMoves(wm.rules)
        fresh._tables = wm._tables  # the same tables, so the same Move objects
        leads = fresh.lead_plays(counts, wild)
        assert leads is not None and leads.by_table

        class Seat:  # the little of a game the policy reads on a lead
            to_act, hands, last_play = 0, [counts], None

        chosen = leads.move_of(_lead_choice(leads, counts))
        assert chosen is full[_choose(Seat, full, False)]  # type: ignore[arg-type]
        read_part += leads._keys is None
        assert leads.holds(chosen) and not leads.holds(dataclasses.replace(chosen))
        down = [leads.plain_keys(size) for size in range(sum(counts), 0, -1)]
        assert [k for run in reversed(down) for k in run] + leads.bomb_keys() == leads.keys
        assert all(map(operator.is_, leads, full)) and len(leads) == len(full)
        assert leads.only_one() == (len(full) == 1)
    assert read_part > 30


def test_several_wild_ranks_leads_as_keys_keep_the_walks_order_on_a_tie(tiandi: WildMoves) -> None:
    """A plane of four trios with pair wings and one of five with single wings can read
    the same 20 cards alike (same combo, rank and cards, lengths 4 and 5): WildLeads
    lists them in the walk's order, as the full listing does."""
    table = tiandi.table(0)
    high, packed, sizes = table.high, table.packed, table.sizes
    tied = next(p for p in range(1, len(packed))
                if high[p] == high[p - 1] and packed[p] == packed[p - 1] and table.wcol[p])
    counts = list(C.unpack(packed[tied]))  # its wild cards under rank 0 (a 3)
    wild = (0, next(r for r in range(1, 13) if not counts[r]))  # 地癞子: a rank it lacks
    assert sizes[tied] == sum(counts)
    walked = WildMoves(tiandi.rules)
    walked.use_table = False
    ref = walked.legal_moves_enumerated(counts, None, wild).moves
    for lister in (tiandi, WildMoves(tiandi.rules)):  # read off the table, walked
        lister.use_table = lister is tiandi
        leads = lister.lead_plays(counts, wild)
        assert leads is not None and leads.by_table == (lister is tiandi)
        assert _same(tuple(leads), ref)
    whole = [m for m in ref if m.size == sum(counts) and m.combo == tiandi.rules.combos[table.meta[tied] >> 16].name]
    assert len({(m.packed, m.rank) for m in whole}) < len(whole)  # the tie is in the listing


def test_several_wild_ranks_moves_kept_within_one_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    """The Moves of several wild ranks are kept for the pairs used last, within one bound
    over all pairs (a search switches pairs all the time): the least recently used pair
    goes first, with its memoised placements, and a pair used again is kept."""
    monkeypatch.setattr(WS, "SEVERAL_INTERN_LIMIT", 3_000)
    walked = WildMoves(load_variant("tiandi-laizi").wild_moves().rules)
    walked.use_table = False
    hand = [1] * 10 + [0] * (C.NUM_RANKS - 10)  # 3 to Q, one each
    kept = walked._intern_several
    first, second = (3, 5), (3, 7)
    for wild in (first, second, first, (3, 9), (3, 10)):
        hand[wild[0]] += 1
        hand[wild[1]] += 1
        assert len(walked.legal_moves_enumerated(hand, None, wild)) > 500
        hand[wild[0]] -= 1
        hand[wild[1]] -= 1
        assert sum(map(len, kept.values())) <= WS.SEVERAL_INTERN_LIMIT + len(kept[wild])
        assert list(kept)[-1] == wild  # the last used last
    assert second not in kept and second not in walked._intern and second not in walked._placings
    assert list(kept)[-1] == (3, 10)


def test_census_from_table(wm: WildMoves) -> None:
    """The census read from the table is the enumeration's (wild 7: the figures in
    docs/census-variants.md)."""
    got = wm.census(4, wm.rules.max_hand)
    assert got[1:] == (383_905, 452_219, {0: 6_176, 1: 22_514, 2: 57_911, 3: 128_020, 4: 237_598})
    assert got[0]["plane_wings"] == 369_233
    assert got[0]["soft_bomb"] == 36


def test_census_matches_enumeration_small_universe() -> None:
    """Below the hand size the table is not used: census by enumeration, the same figures."""
    wm = load_variant("laizi").wild_moves()
    a = wm.census(4, 8)
    b = wm.census_enumerated(4, 8)
    assert a == b


def test_table_is_built_once_and_moves_are_shared(wm: WildMoves) -> None:
    table = wm.table(4)
    assert wm.table(4) is table
    counts = _deal(random.Random(5), 2, 17, 4)
    first = wm.legal_moves(counts, None, 4).moves
    again = wm.legal_moves_enumerated(counts, None, 4).moves
    assert all(a is b for a, b in zip(first, again))  # one interned Move per reading


def test_enumeration_used_without_table() -> None:
    wm = load_variant("laizi").wild_moves()
    wm.table_after = 0
    wm.use_table = False
    counts = _deal(random.Random(9), 3, 17, 7)
    moves = wm.legal_moves(counts, None, 7).moves
    assert not wm._tables
    wm.use_table = True
    assert _same(wm.legal_moves(counts, None, 7).moves, moves)
    assert set(wm._tables) == {7}


def test_variant_api_goes_through_table_once_it_pays() -> None:
    """A few questions walk the hand; the table is built once a wild rank has been asked
    about more than ``table_after`` times, and answers the same from then on."""
    v = load_variant("laizi")
    wilds = v.wild_moves()
    wilds.table_after = 3
    first = v.classify("445567", wild="7")
    assert [(m.combo, m.substitution) for m in first if m.combo == "pair_chain"] == [
        ("pair_chain", (("7", "6"),))]
    hand = "34567789TJQQKA2XD"
    walked = [v.legal_moves(hand, wild="7") for _ in range(2)]
    assert not wilds._tables  # three questions so far: no table yet
    by_table = v.legal_moves(hand, wild="7")
    assert set(wilds._tables) == {C.parse_rank("7")}
    assert list(by_table) == list(walked[0]) and v.classify("445567", wild="7") == first


def test_table_on_disk_read_after_load_after_queries(cache: Path) -> None:
    """A table the disk cache holds is read after ``load_after`` walked queries of its
    rank; one it does not hold is built only after ``table_after``; the answers are the
    walk's throughout."""
    wild = 4
    load_variant("laizi").wild_moves().table(wild)  # now on disk
    hand = _deal(random.Random(11), 2, 17, wild)
    wm = load_variant("laizi").wild_moves()
    wm.load_after, wm.table_after = 2, 1000
    walked = [wm.legal_moves(hand, None, wild).moves for _ in range(2)]
    assert not wm._tables
    read = wm.legal_moves(hand, None, wild).moves
    assert wm.loaded == {wild} and not wm.built and _same(read, walked[0])
    other = 7  # "T": no file for it
    for _ in range(4):
        wm.legal_moves(_deal(random.Random(12), 1, 17, other), None, other)
    assert other not in wm._tables and wm._not_on_disk == {other}
    wm.table_after = 4
    wm.legal_moves(_deal(random.Random(12), 1, 17, other), None, other)
    assert wm.built == {other}


def test_table_kept_in_disk_cache(cache: Path) -> None:
    """A built table is stored in the keyed cache and read back the same (its readings,
    order and substitutions, and the same answers); an edited file is refused with a
    CacheWarning and the table rebuilt."""
    wild = 4  # "7": the smallest table
    first = load_variant("laizi").wild_moves()
    built = first.table(wild)
    assert first.built == {wild} and not first.loaded
    (path,) = cache.glob("wild-*.bin")
    again = load_variant("laizi").wild_moves()
    loaded = again.table(wild)
    assert again.loaded == {wild} and not again.built
    assert (loaded.packed, loaded.meta, loaded.substs) == (built.packed, built.meta, built.substs)
    assert [loaded.substs[i] for i in loaded.subst_index] == [built.substs[i] for i in built.subst_index]
    rng = random.Random(3)
    for k in (1, 2, 4):
        counts = _deal(rng, k, 17, wild)
        assert _same(again.legal_moves(counts, None, wild).moves, first.legal_moves(counts, None, wild).moves)
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x10
    path.write_bytes(bytes(data))
    third = load_variant("laizi").wild_moves()
    with pytest.warns(CacheWarning):
        third.table(wild)
    assert third.built == {wild}


def test_cache_payload_structure_checked() -> None:
    """A payload that passed its digest is still checked: cards outside the deck, readings
    out of legal-move order, a substitution that does not match its wild cards, the
    substitutions out of their order (by length, then ranks)."""
    wm = load_variant("laizi").wild_moves()
    wild = 4
    table = wm.table(wild)
    body = table.encode(wm.rules.content_hash)
    assert [len(s) for s in table.substs[:3]] == [0, 1, 1]
    assert WildTable.decode(wm.rules, wild, wm._order_bits, body).packed == table.packed
    at = body.index(b"\n") + 1 + 16  # the first packed count (after the 16-byte header)
    n = len(table.packed)

    def edited(offset: int, value: bytes) -> bytes:
        return body[:offset] + value + body[offset + len(value):]

    bad = {
        "five 3s": edited(at, bytes((0x05,))),
        "out of order": edited(at, table.packed[1].to_bytes(8, "little") + table.packed[0].to_bytes(8, "little"))
        [:at + 8 * n] + edited(at + 8 * n, table.meta[1].to_bytes(4, "little") + table.meta[0].to_bytes(4, "little"))
        [at + 8 * n:],
        "wild count": edited(at + 12 * n, (len(table.substs) - 1).to_bytes(2, "little")),
        "other rank": body.replace(b"DDZW\x02\x00\x04", b"DDZW\x02\x00\x05", 1),
        # the substitutions are listed by (length, ranks): two of one length swapped
        "substitutions swapped": edited(at + 14 * n, bytes((0, 1, table.substs[2][0], 1, table.substs[1][0]))),
        "cut": body[:-3],
    }
    for name, payload in bad.items():
        with pytest.raises(ValueError):
            WildTable.decode(wm.rules, wild, wm._order_bits, payload)
        assert name
