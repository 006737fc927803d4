"""欢乐豆 settlement, its escape rule and the 加倍 declaration (seeds/004, digest E).

From the text (十一、计分规则): X = 底分 × 倍数 × 身份系数 (farmer 1, landlord 2); a
loser pays X×N + A, a winner receives X×N − A. Its example: N = 1000, X = 6,
A = 50, the landlord wins → landlord 6×2×1000 = 12000 (−50 take), each farmer
6×1000 = 6000 (+50 take). 逃跑: landlord below ×10 → charged ×20, else 4 × the
actual; farmer below ×10 → ×10, else 2 × the actual; every bomb counts, played
or not. 加倍 (六): the landlord's double needs every player above the room's
threshold, a farmer's needs himself and the landlord; the score between two
players is × own double × opponent's double.

How the games are set up: a temporary spec extends hubei-3p with point bids, the
doubling phase and the bean settlement. :func:`start` plays the real bidding
(the first bidder bids the stake, the others pass) and the real doubling phase;
a table test then sets the multiplier events and the winner explicitly and calls
the settlement hook itself, so the figures do not depend on how a deal plays
out. Escape tests replace the hands (a partition of the real deck) before
abandoning.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ddzrules import cards as C
from ddzrules.bots import HeuristicBot, RandomBot
from ddzrules.errors import PlayError
from ddzrules.plugins.beans import BeanSettlement, Doubling, apportion, bombs_in_hand
from ddzrules.runtime import Action, Game, GameRules, MatchInfo, MultiplierEvent
from ddzrules.simulate import play_game

SPEC = """\
name: beans-test
extends: hubei-3p
game:
  landlord: {plugin: point-bids, params: {bids: [1, 2, 3], rounds: once, first_bidder: random}}
  declarations: [{plugin: doubling, params: {factor: 2, threshold: 1000}}]
  settlement: {plugin: beans, params: {rate: 1000, take: 50}}
"""


@pytest.fixture(scope="module")
def rules(tmp_path_factory: pytest.TempPathFactory) -> GameRules:
    path: Path = tmp_path_factory.mktemp("beans") / "beans-test.yaml"
    path.write_text(SPEC, encoding="utf-8")
    return GameRules.load(str(path))


# ====================================================================== helpers


def start(rules: GameRules, stake: int = 3, doubles: tuple[int, ...] = (),
          holdings: tuple[int, ...] | None = None, seed: int = 1, strict: bool = True) -> Game:
    """A game whose first bidder took the landlord with ``stake`` (others passed),
    then the doubling phase with the seats in ``doubles`` doubling (with
    ``strict=False``, only those the thresholds allow). Ends in the play phase,
    before the first play."""
    game = rules.new_game(seed, MatchInfo(seed=seed, holdings=holdings))
    first = game.to_act
    assert first is not None
    game.apply(Action(first, "bid", stake))
    while game.phase == "landlord":
        seat = game.to_act
        assert seat is not None
        game.apply(Action(seat, "pass"))
    assert game.landlord == first and game.stake == stake
    while game.phase == "declare":
        seat = game.to_act
        assert seat is not None
        may = any(a.kind == "double" for a in game.legal_actions())
        wants = seat in doubles and (may or strict)
        game.apply(Action(seat, "double" if wants else "decline"))
    assert game.phase == "play"
    return game


def roles(rules: GameRules, seed: int = 1) -> tuple[int, int, int]:
    """(landlord, farmer 1, farmer 2) of :func:`start` with this seed: the first
    bidder, which depends on the seed only."""
    game = start(rules, seed=seed)
    assert game.landlord is not None
    return (game.landlord, *farmers(game))


def lord(game: Game) -> int:
    assert game.landlord is not None
    return game.landlord


def farmers(game: Game) -> tuple[int, int]:
    f1 = game.next_seat(lord(game))
    return f1, game.next_seat(f1)


def finish(game: Game, winner: int, factors: tuple[float, ...] = (),
           plugin: BeanSettlement | None = None) -> list[int]:
    """Set the multiplier events and the winner explicitly, then settle."""
    game.events = [MultiplierEvent("test", f) for f in factors]
    game.winner = winner
    if plugin is not None:
        return plugin.ddzrules_settle(game=game)
    scores = game.rules.hook.ddzrules_settle(game=game)
    assert scores is not None
    return scores


def deal(game: Game, hands: dict[int, str]) -> None:
    """Replace the hands with a partition of the deck: the given seats get exactly
    those cards, the others the rest, each card to the seat holding fewest of its
    rank (the jokers counting as one rank), so that the rest forms no bomb and no
    rocket (checked)."""
    left = C.full_deck()  # per-rank counts
    new: dict[int, list[int]] = {}
    for seat, cards in hands.items():
        counts = C.counts_of(C.parse_ranks(cards))
        for r, c in enumerate(counts):
            left[r] -= c
            assert left[r] >= 0, f"{cards}: more {C.rank_name(r)} than the deck has"
        new[seat] = counts
    rest = [s for s in range(game.players) if s not in hands]
    size = {s: sum(game.hands[s]) for s in rest}
    fill = {s: [0] * C.NUM_RANKS for s in rest}

    def held(s: int, r: int) -> int:
        return fill[s][C.SMALL_JOKER] + fill[s][C.BIG_JOKER] if r >= C.SMALL_JOKER else fill[s][r]

    for r in range(C.NUM_RANKS):
        for _ in range(left[r]):
            open_ = [s for s in rest if sum(fill[s]) < size[s]]
            s = min(open_, key=lambda s: (held(s, r), sum(fill[s]) - size[s], s))
            fill[s][r] += 1
    for s in rest:
        assert max(fill[s][:C.SMALL_JOKER]) < 4 and held(s, C.SMALL_JOKER) < 2, "the rest made a bomb"
    new.update(fill)
    assert [sum(new[s]) for s in range(game.players)] == [sum(h) for h in game.hands]
    for s in range(game.players):
        game.hands[s] = new[s]


# ====================================================================== the text's example


def test_the_texts_example_landlord_wins(rules: GameRules) -> None:
    # X = base × multiple = 6 (bid 3, one ×2), N = 1000, A = 50
    game = start(rules, stake=3)
    f1, f2 = farmers(game)
    scores = finish(game, lord(game), (2,))
    assert scores[lord(game)] == 6 * 2 * 1000 - 50 == 11950
    assert scores[f1] == scores[f2] == -(6 * 1000) - 50 == -6050
    assert game.stats["house_take"] == 150
    assert game.stats["bean_flow"] == 12000


def test_farmers_win(rules: GameRules) -> None:
    game = start(rules, stake=3)
    f1, f2 = farmers(game)
    scores = finish(game, f2, (2,))
    assert scores[lord(game)] == -12000 - 50
    assert scores[f1] == scores[f2] == 6000 - 50


# ====================================================================== 加倍


def test_one_farmer_doubles(rules: GameRules) -> None:
    _, f1, f2 = roles(rules)
    game = start(rules, stake=1, doubles=(f1,))
    assert game.pair_factors == {f1: 2}
    assert game.stats["doubles"] == 1
    scores = finish(game, lord(game))
    # pair L–F1: 1×1×2(F1's double)×1(L's)×1000 = 2000; pair L–F2: 1000
    assert scores[f1] == -2000 - 50 and scores[f2] == -1000 - 50
    assert scores[lord(game)] == 3000 - 50


def test_landlord_and_one_farmer_double(rules: GameRules) -> None:
    landlord, f1, f2 = roles(rules)
    game = start(rules, stake=2, doubles=(landlord, f2))
    assert game.pair_factors == {f1: 2, f2: 4}
    assert game.public["doubled"] == [lord(game), f2]
    scores = finish(game, f1, (2,))  # farmers win; base 2 × multiple 2 = 4
    assert scores[f1] == 4 * 2 * 1000 - 50 == 7950
    assert scores[f2] == 4 * 4 * 1000 - 50 == 15950
    assert scores[lord(game)] == -(8000 + 16000) - 50
    assert game.multiple == 2  # doubling is pairwise, not part of the multiple


def eligible(game: Game) -> dict[int, bool]:
    """Walk the doubling phase (everyone declines) noting who was offered a double."""
    out = {}
    while game.phase == "declare":
        seat = game.to_act
        assert seat is not None
        kinds = [a.kind for a in game.legal_actions()]
        assert kinds[0] == "decline"
        out[seat] = "double" in kinds
        game.apply(Action(seat, "decline"))
    return out


def bid_only(rules: GameRules, holdings: tuple[int, ...] | None) -> Game:
    game = rules.new_game(1, MatchInfo(seed=1, holdings=holdings))
    first = game.to_act
    assert first is not None
    game.apply(Action(first, "bid", 3))
    assert game.phase == "declare" and game.to_act == first  # the landlord decides first
    return game


def test_doubling_thresholds(rules: GameRules) -> None:
    # threshold 1000, "超过": strictly more than 1000
    landlord = bid_only(rules, None).landlord
    assert landlord is not None
    f1 = (landlord + 1) % 3
    f2 = (landlord + 2) % 3

    def holdings(lo: int, a: int, b: int) -> tuple[int, ...]:
        h = [0, 0, 0]
        h[landlord], h[f1], h[f2] = lo, a, b
        return tuple(h)

    # everyone above: all may double
    assert eligible(bid_only(rules, holdings(5000, 5000, 5000))) == {landlord: True, f1: True, f2: True}
    # one farmer at the threshold: the landlord may not (needs all), that farmer may not,
    # the other farmer may (needs only himself and the landlord)
    assert eligible(bid_only(rules, holdings(5000, 1000, 5000))) == {landlord: False, f1: False, f2: True}
    # the landlord too poor: nobody may double
    assert eligible(bid_only(rules, holdings(900, 5000, 5000))) == {landlord: False, f1: False, f2: False}
    # no holdings known: always allowed
    assert eligible(bid_only(rules, None)) == {landlord: True, f1: True, f2: True}


def test_declined_double_is_refused(rules: GameRules) -> None:
    game = bid_only(rules, (0, 0, 0))
    seat = game.to_act
    assert seat is not None
    assert [a.kind for a in game.legal_actions()] == ["decline"]
    with pytest.raises(PlayError):
        game.apply(Action(seat, "double"))


def test_doubling_plugin_start_holdings(rules: GameRules) -> None:
    game = bid_only(rules, None)
    plugin = Doubling({"threshold": 100, "start": 50})
    assert not any(plugin.may_double(game, s) for s in range(3))
    assert all(Doubling({"threshold": 49, "start": 50}).may_double(game, s) for s in range(3))


# ====================================================================== insolvency


def test_farmer_holding_less_than_he_owes(rules: GameRules) -> None:
    landlord, f1, f2 = roles(rules)
    held = [0, 0, 0]
    held[landlord], held[f1], held[f2] = 100000, 2000, 100000
    game = start(rules, stake=3, holdings=tuple(held))
    scores = finish(game, lord(game))
    # F1 owes 3000 but holds 2000: pays all of it and no take (只扣到0为止)
    assert scores[f1] == -2000
    assert scores[f2] == -3000 - 50
    assert scores[lord(game)] == 2000 + 3000 - 50  # receives only what was paid
    assert game.stats["house_take"] == 100
    assert sum(scores) + game.stats["house_take"] == 0


def test_landlord_cannot_pay_both(rules: GameRules) -> None:
    landlord, f1, f2 = roles(rules)
    held = [0, 0, 0]
    held[landlord], held[f1], held[f2] = 9000, 50000, 50000
    game = start(rules, stake=3, holdings=tuple(held))
    scores = finish(game, f1, (2,))  # owes 6000 to each farmer, holds 9000
    assert scores[lord(game)] == -9000
    assert scores[f1] == scores[f2] == 4500 - 50


def test_landlord_cannot_pay_doubled_claims_in_proportion(rules: GameRules) -> None:
    landlord, f1, f2 = roles(rules)
    held = [0, 0, 0]
    held[landlord], held[f1], held[f2] = 3001, 50000, 50000
    game = start(rules, stake=1, doubles=(f1,), holdings=tuple(held))
    scores = finish(game, f2)  # claims: F1 2000, F2 1000; the landlord holds 3001 ≥ 3000
    assert scores[f1] == 2000 - 50 and scores[f2] == 1000 - 50
    assert scores[lord(game)] == -3000 - 1  # the take stops at 0
    held[landlord] = 1500
    game = start(rules, stake=1, doubles=(f1,), holdings=tuple(held))
    scores = finish(game, f2)  # 1500 shared 2:1
    assert scores[f1] == 1000 - 50 and scores[f2] == 500 - 50 and scores[lord(game)] == -1500


def test_integer_shares_are_deterministic_and_zero_sum() -> None:
    assert apportion(1001, [6000, 6000]) == [501, 500]
    assert apportion(7, [1, 1, 1]) == [3, 2, 2]
    assert apportion(0, [5, 5]) == [0, 0]
    assert apportion(10, [0, 0]) == [0, 0]
    assert sum(apportion(12345, [7, 11, 13])) == 12345


def test_start_holdings_when_the_match_has_none(rules: GameRules) -> None:
    game = start(rules, stake=3)
    plugin = BeanSettlement({"rate": 1000, "take": 50, "start": 4000})
    scores = finish(game, lord(game), (2,), plugin=plugin)
    f1, f2 = farmers(game)
    assert scores[f1] == scores[f2] == -4000
    assert scores[lord(game)] == 8000 - 50


# ====================================================================== cap and wild factor


def test_wild_factor(rules: GameRules) -> None:
    game = start(rules, stake=3)
    f1, f2 = farmers(game)
    plugin = BeanSettlement({"rate": 1000, "take": 50, "wild_factor": 0.25})
    scores = finish(game, lord(game), (4, 2), plugin=plugin)  # hard bomb ×4, bomb ×2
    # X×N = 3 × 8 × 0.25 × 1000 = 6000 per farmer
    assert scores[f1] == scores[f2] == -6000 - 50
    assert scores[lord(game)] == 12000 - 50


def test_cap_on_gain_and_loss(rules: GameRules) -> None:
    game = start(rules, stake=3)
    f1, f2 = farmers(game)
    plugin = BeanSettlement({"rate": 1000, "take": 50, "wild_factor": 0.25, "cap": 10000})
    scores = finish(game, lord(game), (4, 4, 2), plugin=plugin)
    # each pair 3 × 32 × 0.25 × 1000 = 24000; the landlord's gain is capped at 10000,
    # the two farmers losing 5000 each
    assert scores[lord(game)] == 10000 - 50
    assert scores[f1] == scores[f2] == -5000 - 50
    game = start(rules, stake=3)
    scores = finish(game, f1, (4, 2), plugin=plugin)  # pairs of 6000: the landlord's loss capped
    assert scores[lord(game)] == -10000 - 50 and scores[f1] == scores[f2] == 5000 - 50
    game = start(rules, stake=1)
    scores = finish(game, f1, (2,), plugin=plugin)  # 500 a pair: under the cap
    assert scores[lord(game)] == -1000 - 50


def test_cap_with_doubled_pairs(rules: GameRules) -> None:
    landlord, f1, f2 = roles(rules)
    game = start(rules, stake=1, doubles=(landlord, f1))
    assert game.pair_factors == {f1: 4, f2: 2}
    plugin = BeanSettlement({"rate": 1000, "take": 50, "cap": 10000})
    scores = finish(game, f2, (4,), plugin=plugin)
    # claims: F1 1×4×4×1000 = 16000 → his gain capped at 10000; F2 8000; the
    # landlord's loss 18000 → 10000, shared 10000:8000 → 5555.6 / 4444.4 → 5556 / 4444
    assert scores[f1] == 5556 - 50 and scores[f2] == 4444 - 50
    assert scores[landlord] == -10000 - 50


# ====================================================================== escape


def escape(rules: GameRules, who: str, factors: tuple[float, ...], hands: dict[str, str],
           stake: int = 3, holdings: tuple[int, ...] | None = None) -> tuple[Game, dict[str, int]]:
    game = start(rules, stake=stake, holdings=holdings)
    f1, f2 = farmers(game)
    seats = {"L": lord(game), "F1": f1, "F2": f2}
    deal(game, {seats[k]: v for k, v in hands.items()})
    game.events = [MultiplierEvent("test", f) for f in factors]
    game.abandon(seats[who])
    assert game.over and game.scores is not None
    scores = game.scores
    return game, {k: scores[s] for k, s in seats.items()}


# landlord 20 cards, farmers 17: fixed hands with chosen bombs, the rest of the deck elsewhere
NO_BOMB_L = "33445566778899TTJJQK"
ONE_BOMB_L = "3333445566778899TTJJ"
TWO_BOMBS = {"L": "33334455667789TJQKA2", "F1": "445566789TJQKA2XD"}  # 3333 and the rocket


def test_bombs_in_hand_are_found(rules: GameRules) -> None:
    game = start(rules)
    f1, f2 = farmers(game)
    deal(game, {lord(game): "33334444556677889TJQ", f1: "556677889TJQKA2XD"})
    assert sorted(bombs_in_hand(game, game.landlord)) == ["bomb", "bomb"]
    assert bombs_in_hand(game, f1) == ["rocket"]
    assert bombs_in_hand(game, f2) == []


def test_landlord_escape_below_10(rules: GameRules) -> None:
    # multiple 2 × the bomb 3333 and the rocket in hand (×2 ×2) = 8 < 10 → as if ×20
    game, s = escape(rules, "L", (2,), TWO_BOMBS)
    per_farmer = 3 * 20 * 1000  # base 3 × 20 × farmer's share of the role factor 2 × N
    assert s["L"] == -2 * per_farmer - 50
    assert s["F1"] == s["F2"] == per_farmer - 50
    assert game.stats["escapes"] == 1 and game.stats["house_take"] == 150


def test_landlord_escape_above_10(rules: GameRules) -> None:
    # multiple 4 × two bombs in hand (×4) = 16 → 4 × the actual
    _, s = escape(rules, "L", (2, 2), TWO_BOMBS)
    per_farmer = 3 * 4 * 16 * 1000
    assert s["L"] == -2 * per_farmer - 50
    assert s["F1"] == s["F2"] == per_farmer - 50


def test_escape_at_exactly_10_is_not_below(rules: GameRules) -> None:
    # ×5 (明牌开始) × one bomb in hand = 10: not 不足 10 → 4 × 10
    _, s = escape(rules, "L", (5,), {"L": ONE_BOMB_L}, stake=1)
    assert s["F1"] == 1 * 40 * 1000 - 50


def test_bombs_in_hand_count_for_escape(rules: GameRules) -> None:
    # same multiple (×4) with and without bombs in hand: 4 → ×20; 4 × 2 × 2 = 16 → 4 × 16
    _, without = escape(rules, "L", (4,), {"L": NO_BOMB_L}, stake=1)
    _, with_bombs = escape(rules, "L", (4,), TWO_BOMBS, stake=1)
    assert without["F1"] == 20 * 1000 - 50
    assert with_bombs["F1"] == 64 * 1000 - 50


def test_farmer_escape_below_10(rules: GameRules) -> None:
    _, s = escape(rules, "F1", (2,), {"L": NO_BOMB_L}, stake=2)
    assert s["F1"] == -2 * 10 * 1000 - 50
    assert s["L"] == 2 * 10 * 1000 - 50
    assert s["F2"] == -50  # the other farmer neither pays nor receives


def test_farmer_escape_above_10(rules: GameRules) -> None:
    # ×8 × the bomb 3333 in the landlord's hand = 16 → 2 × 16
    _, s = escape(rules, "F2", (2, 2, 2), {"L": ONE_BOMB_L}, stake=2)
    assert s["F2"] == -2 * 2 * 16 * 1000 - 50
    assert s["L"] == 2 * 2 * 16 * 1000 - 50


def test_escape_limited_by_holdings(rules: GameRules) -> None:
    landlord, f1, f2 = roles(rules)
    held = [0, 0, 0]
    held[landlord], held[f1], held[f2] = 50001, 100, 100
    _, s = escape(rules, "L", (2,), TWO_BOMBS, holdings=tuple(held))
    assert s["L"] == -50001  # owed 120000, paid all he held, no take
    assert s["F1"] == 25001 - 50 and s["F2"] == 25000 - 50


def test_escape_before_the_landlord_is_known(rules: GameRules) -> None:
    game = rules.new_game(5, MatchInfo(seed=5))
    seat = game.to_act
    assert seat is not None and game.landlord is None
    # hands without bombs (the kitty is then D A 2): the multiple is 1 < 10;
    # reading: the escaper is a farmer of base 1 → 10 × 1 × 1000, shared by the others
    game.hands = [C.counts_of(C.parse_ranks(h)) for h in
                  ("3456789TJQKA23456", "3456789TJQKA2789T", "3456789TJQKA2JQKX")]
    game.abandon(seat)
    assert game.scores is not None
    assert game.scores[seat] == -10000 - 50
    others = [s for s in range(3) if s != seat]
    assert [game.scores[s] for s in others] == [5000 - 50, 5000 - 50]


def test_escape_without_take(rules: GameRules) -> None:
    game = start(rules, stake=1)
    f1, f2 = farmers(game)
    deal(game, {lord(game): NO_BOMB_L})
    plugin = BeanSettlement({"rate": 1000, "take": 50, "take_on_escape": False})
    game.escaped = f1
    scores = plugin.ddzrules_settle_escape(game=game, seat=f1)
    assert scores[f1] == -10000 and scores[lord(game)] == 10000 and scores[f2] == 0
    assert game.stats["house_take"] == 0


def test_escape_is_reported_by_abandon(rules: GameRules) -> None:
    game = start(rules)
    game.abandon(lord(game))
    with pytest.raises(PlayError):
        game.abandon(0)


# ====================================================================== whole games


def test_whole_games_with_bots(rules: GameRules) -> None:
    doubles = 0
    for i in range(12):
        held = (20000, 3000, 800) if i % 2 else None
        game = play_game(rules, [HeuristicBot(i), RandomBot(i), HeuristicBot(i + 7)], seed=100 + i,
                         match=MatchInfo(seed=100 + i, holdings=held))
        assert game.scores is not None
        assert sum(game.scores) + game.stats["house_take"] == 0
        doubled = game.public.get("doubled", [])
        doubles += len(doubled)
        assert game.stats.get("doubles", 0) == len(doubled)
        if held:
            assert all(h + s >= 0 for h, s in zip(held, game.scores))
            # seat 2 holds 800, under the threshold: neither it nor any landlord may double
            assert 2 not in doubled and game.landlord not in doubled
    assert doubles > 0  # the heuristic bots double strong hands


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    stake=st.integers(1, 3),
    factors=st.lists(st.sampled_from([2, 3, 4, 5]), max_size=5),
    doubles=st.sets(st.integers(0, 2)),
    holdings=st.none() | st.tuples(*[st.integers(0, 200000)] * 3),
    landlord_wins=st.booleans(),
    rate=st.sampled_from([1, 10, 1000, 3333]),
    take=st.integers(0, 500),
    wild=st.sampled_from([1, 0.25, 0.3]),
    cap=st.none() | st.integers(0, 50000),
    escaper=st.none() | st.integers(0, 2),
)
def test_transfers_are_zero_sum_before_the_take(rules: GameRules, stake: int, factors: list[int],
                                                doubles: set[int], holdings: tuple[int, ...] | None,
                                                landlord_wins: bool, rate: int, take: int, wild: float,
                                                cap: int | None, escaper: int | None) -> None:
    params: dict[str, object] = {"rate": rate, "take": take, "wild_factor": wild}
    if cap is not None:
        params["cap"] = cap
    plugin = BeanSettlement(params)
    game = start(rules, stake=stake, doubles=tuple(doubles), holdings=holdings, strict=False)
    game.events = [MultiplierEvent("test", f) for f in factors]
    if escaper is None:
        f1, _ = farmers(game)
        game.winner = game.landlord if landlord_wins else f1
        scores = plugin.ddzrules_settle(game=game)
    else:
        game.escaped = escaper
        scores = plugin.ddzrules_settle_escape(game=game, seat=escaper)
    assert sum(scores) + game.stats["house_take"] == 0
    assert game.stats["house_take"] <= take * 3
    if holdings is not None:
        assert all(h + s >= 0 for h, s in zip(holdings, scores))  # nobody goes below 0
    if cap is not None:
        assert all(abs(s) <= cap + take for s in scores)
