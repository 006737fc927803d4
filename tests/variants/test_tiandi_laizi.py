"""天地癞子 (two wild ranks a deal) as specs/tiandi-laizi.yaml reads it, on 004's 癞子场.

The readings (the seed texts do not describe 天地癞子; the spec states each choice):

* 天癞子 is drawn when the cards are dealt and is public from then on; 地癞子 is drawn once
  the landlord is known (after the kitty), another rank, public too.
* From then on both ranks' cards are wild alike: each stands for any rank but a joker
  (天 7, 地 9: ``3379`` is the soft bomb ``3333``); played on their own, wild cards are
  themselves, each its own rank (``7777`` the pure bomb, ``7799`` no combo).
* Bombs, their order and multipliers as 癞子场.

The expectations come from these sentences by hand, or from an independent brute force
(each wild card replaced by every rank it may stand for, the result read under
hubei-3p), never from the code's output.
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from wild_oracle import oracle_leads, oracle_readings

import ddzrules
from ddzrules import cards as C
from ddzrules.bots import HeuristicBot, RandomBot
from ddzrules.cli import main
from ddzrules.errors import DdzError
from ddzrules.rules.moves import Move
from ddzrules.rules.variant import Variant
from ddzrules.runtime import Action, Game, GameRules
from ddzrules.simulate import play_game

R = C.RANKS.index


@pytest.fixture(scope="module")
def td(_private_cache: None) -> Variant:
    return ddzrules.load_variant("tiandi-laizi")


@pytest.fixture(scope="module")
def rules(_private_cache: None) -> GameRules:
    return GameRules.load("tiandi-laizi")


def ident(m: Move) -> tuple[str, str, str, int]:
    return (m.cards, m.combo, m.rank_name, m.length)


def readings(v: Variant, cards: str, wild: object) -> set[tuple[str, str, int]]:
    return {(m.combo, m.rank_name, m.length) for m in v.classify(cards, wild=wild)}


# ====================================================================== readings by hand


def test_the_soft_bomb_of_two_wild_ranks(td: Variant) -> None:
    # 天 7, 地 9: 33 + 7 + 9 is four 3s made with two wild cards of two ranks
    assert ("soft_bomb", "3", 1) in readings(td, "3379", "7,9")
    bomb = next(m for m in td.classify("3379", wild="7,9") if m.combo == "soft_bomb")
    assert sorted(bomb.substitution) == [("7", "3"), ("9", "3")]
    # with 7 alone wild, the 9 is a natural 9: no bomb
    assert ("soft_bomb", "3", 1) not in readings(td, "3379", "7")
    # the same in every notation of the ranks
    for wild in ("9,7", ("7", "9"), ["9", 7 - 3 + R("3")], (R("7"), R("9"))):
        assert readings(td, "3379", wild) == readings(td, "3379", "7,9")


def test_wild_cards_alone_are_themselves(td: Variant) -> None:
    assert readings(td, "7777", "7,9") == {("pure_bomb", "7", 1)}
    assert readings(td, "77", "7,9") == {("pair", "7", 1)}
    assert readings(td, "9", "7,9") == {("single", "9", 1)}
    assert readings(td, "7799", "7,9") == set()  # two pairs of two ranks: no combo
    assert readings(td, "79", "7,9") == set()


def test_a_wild_card_stands_for_the_other_wild_rank(td: Variant) -> None:
    # 5677 + 8: one 7 as itself, the other as a 9 (the other wild rank): the straight to 9
    straight = next(m for m in td.classify("56778", wild="7,9") if m.combo == "straight" and m.rank_name == "9")
    assert sorted(straight.substitution) == [("7", "7"), ("7", "9")]
    # and a 9 as a 7 with a 9 as itself
    assert ("straight", "9", 5) in readings(td, "56899", "7,9")


def test_each_wild_card_is_a_card_of_its_own(td: Variant) -> None:
    # 3 with one wild card: the 7 or the 9, two different plays of the pair of 3s
    pairs = {m.cards for m in td.legal_moves("379", wild="7,9") if m.combo == "pair" and m.rank_name == "3"}
    assert pairs == {"37", "39"}


def test_bombs_keep_laizis_order(td: Variant) -> None:
    def bomb(cards: str) -> Move:
        return max((m for m in td.classify(cards, wild="7,9") if m.is_bomb), key=lambda m: m.key)
    soft, hard, pure, rocket = bomb("3379"), bomb("4444"), bomb("9999"), bomb("XD")
    assert (soft.combo, hard.combo, pure.combo, rocket.combo) == ("soft_bomb", "hard_bomb", "pure_bomb", "rocket")
    assert rocket.beats(pure) and pure.beats(hard) and hard.beats(soft)
    assert not soft.beats(hard) and not hard.beats(pure)
    assert bomb("22" + "79").beats(bomb("3379"))  # soft by rank


def test_bad_wild_rank_lists(td: Variant) -> None:
    for wild, words in [("7,7", "twice"), ("7,X", "cannot be"), ("7,", "rank"), ([], "no wild rank"),
                        (("7", True), "rank"), ("7,9,Z", "rank")]:
        with pytest.raises((DdzError, C.CardError), match=words):
            td.classify("3379", wild=wild)
    hubei = ddzrules.load_variant("hubei-3p")
    with pytest.raises(DdzError, match="no wildcards"):
        hubei.classify("3379", wild="7,9")


# ====================================================================== the oracle

DECK = tuple(C.deck_list(C.full_deck()))


@st.composite
def hand_and_wilds(draw, max_size: int = 7) -> tuple[list[int], tuple[int, ...]]:
    """Two distinct wild ranks 3..2 and a small hand, with 0-3 of each wild rank's cards
    put in first (so that hands with both kinds of wild card are common)."""
    a, b = draw(st.lists(st.integers(0, 12), min_size=2, max_size=2, unique=True))
    deck = draw(st.permutations(DECK))
    n = draw(st.integers(1, max_size))
    ka = min(n, draw(st.integers(0, 3)))
    kb = min(n - ka, draw(st.integers(0, 3)))
    rest = [c for c in deck if c not in (a, b)]
    return C.counts_of([a] * ka + [b] * kb + rest[:n - ka - kb]), (a, b)


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(hw=hand_and_wilds())
def test_leads_are_exactly_the_substitution_oracle(td: Variant, hubei: Variant, hw) -> None:
    counts, wild = hw
    expected = oracle_leads(hubei, counts, wild)
    listed = td.legal_moves(C.deck_list(counts), wild=wild)
    got = [ident(m) for m in listed]
    assert len(got) == len(set(got)), "a reading listed twice"
    assert set(got) == expected, (C.counts_to_string(counts), [C.RANKS[w] for w in wild])
    assert {ident(m) for m in td.classify(C.counts_to_string(counts), wild=wild)} == \
        oracle_readings(hubei, counts, wild)
    for m in listed:
        # one substitution pair per wild card held in the play, from a wild rank, never to a joker
        held = C.unpack(m.packed)
        assert sorted(a for a, _ in m.substitution) == sorted(C.RANKS[w] for w in wild for _ in range(held[w]))
        assert all(b not in "XD" for _, b in m.substitution)


@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(hw=hand_and_wilds(max_size=12), other=hand_and_wilds(max_size=8), data=st.data())
def test_answers_are_the_leads_that_beat(td: Variant, hw, other, data) -> None:
    counts, wild = hw
    plays = td.legal_moves(C.deck_list(other[0]), wild=wild).moves
    after = plays[data.draw(st.integers(0, len(plays) - 1), label="after")]
    result = td.legal_moves(C.deck_list(counts), after=after, wild=wild)
    assert result.can_pass and all(m.beats(after) for m in result)
    assert set(result) == {m for m in td.legal_moves(C.deck_list(counts), wild=wild) if m.beats(after)}


def test_one_wild_rank_in_a_list_is_that_rank(td: Variant) -> None:
    lz = ddzrules.load_variant("laizi")
    for hand in ("3345779", "77XD", "345677"):
        assert list(td.legal_moves(hand, wild=("7",))) == list(lz.legal_moves(hand, wild="7"))


# ====================================================================== games


def test_tian_before_the_bidding_di_after_the_landlord(rules: GameRules) -> None:
    seen_pairs = set()
    for seed in range(60):
        game = rules.new_game(seed)
        assert type(game.wild) is int  # 天癞子 only while bidding
        tian = game.wild
        assert all(game.view(s).extra["wild"] == C.RANKS[tian] for s in range(3))
        assert rules.new_game(seed).wild == tian  # same seed, same draw
        while game.phase == "landlord":
            seat = game.to_act
            assert seat is not None and game.wild == tian
            kinds = [a.kind for a in game.legal_actions()]
            game.apply(Action(seat, "call" if "call" in kinds else "decline"))
        # the landlord is known: 地癞子 drawn, another rank, shown after 天癞子
        assert isinstance(game.wild, tuple) and len(game.wild) == 2 and tian in game.wild
        di = next(r for r in game.wild if r != tian)
        assert all(game.view(s).extra["wild"] == f"{C.RANKS[tian]},{C.RANKS[di]}" for s in range(3))
        assert all(0 <= r <= R("2") for r in game.wild)
        seen_pairs.add((tian, di))
    assert len(seen_pairs) > 30


def every_card_once(game: Game) -> None:
    played = [0] * C.NUM_RANKS
    for moves in game.played:
        for m in moves:
            played = [a + b for a, b in zip(played, C.unpack(m.packed))]
    left = [sum(x) for x in zip(*game.hands)]
    assert [a + b for a, b in zip(played, left)] == C.full_deck()


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_bot_games(rules: GameRules, seed: int) -> None:
    agents = [RandomBot(seed), HeuristicBot(seed), HeuristicBot(seed + 1)]
    game = play_game(rules, agents, seed)
    assert game.over and game.winner is not None and sum(game.hands[game.winner]) == 0
    every_card_once(game)
    wild = set(game.wild) if isinstance(game.wild, tuple) else {game.wild}
    for moves in game.played:
        for m in moves:
            # each wild card of a play is a card of a wild rank
            assert {C.RANKS.index(a) for a, _ in m.substitution} <= wild
    assert sum(game.scores) + game.stats["house_take"] == 0


def test_a_move_with_both_wild_ranks_is_played_and_recorded(rules: GameRules, tmp_path) -> None:
    from ddzrules.records import ReplayError, load_record, replay, write_record

    for seed in range(40):
        game = play_game(rules, [HeuristicBot(seed + k) for k in range(3)], seed)
        both = [m for ms in game.played for m in ms if len({a for a, _ in m.substitution}) == 2]
        if both:
            break
    else:
        pytest.fail("no play with both wild ranks in 40 games")
    path = tmp_path / "g.json"
    write_record(game, path)
    record = load_record(path)
    assert record["wild"] == game.view(0).extra["wild"] and "," in record["wild"]
    again = replay(record).game
    assert again.scores == game.scores and again.wild == game.wild
    tampered = dict(record, wild=record["wild"][::-1])  # the ranks in the other order
    with pytest.raises(ReplayError, match="wild ranks"):
        replay(tampered)


def test_a_laizi_record_from_before_the_wild_field_replays(tmp_path) -> None:
    # records written before "wild" was recorded have none: the seed implies the rank
    from ddzrules.records import game_record, replay

    rules = GameRules.load("laizi")
    game = play_game(rules, [HeuristicBot(k) for k in range(3)], 3)
    record = game_record(game)
    assert record["wild"] == game.view(0).extra["wild"]
    old = {k: v for k, v in record.items() if k != "wild"}
    assert replay(old).game.scores == game.scores


def test_cli_classify_finds_the_soft_bomb() -> None:
    result = CliRunner().invoke(main, ["classify", "tiandi-laizi", "3379", "--wild", "7,9"])
    assert result.exit_code == 0, result.output
    assert "soft_bomb" in result.output
    bad = CliRunner().invoke(main, ["classify", "tiandi-laizi", "3379", "--wild", "7,7"])
    assert bad.exit_code == 1 and "twice" in bad.output and "Traceback" not in bad.output
    for wild in ("7,", ",", "7,,9"):
        bad = CliRunner().invoke(main, ["classify", "tiandi-laizi", "3379", "--wild", wild])
        assert bad.exit_code == 1 and "an empty wild rank" in bad.output and "Traceback" not in bad.output


# ====================================================================== census

SMALL_SPEC = """\
name: scratch/tiandi-small
extends: tiandi-laizi
combos:
  trio_with_hand: null
  plane_wings: null
  four_with_two: null
"""


def test_census_of_two_wild_ranks(_private_cache: None, tmp_path) -> None:
    path = tmp_path / "tiandi-small.yaml"
    path.write_text(SMALL_SPEC, encoding="utf-8")
    v = ddzrules.load_variant(str(path))
    c = v.census(wild="7,9")
    # by hand: 13 ranks and 2 jokers; hard bombs of the 11 ranks that are not wild; pure bombs
    # 7777 and 9999 (7799 is no combo); soft bombs: for each of the 11 natural ranks, 1-3
    # naturals and 3-1 wild cards taken from four 7s and four 9s (2 + 3 + 4 ways)
    assert (c.by_combo["single"], c.by_combo["hard_bomb"], c.by_combo["pure_bomb"]) == (15, 11, 2)
    assert c.by_combo["soft_bomb"] == 11 * (2 + 3 + 4)
    assert c.by_combo["rocket"] == 1
    # the counting census agrees with listing every play (two different paths)
    per, total, n_readings, by_wilds = v.wild_moves().census_enumerated(v.wild_key("7,9"), v.rules.max_hand)
    assert (c.by_combo, c.total, c.readings, c.by_wilds) == (per, total, n_readings, by_wilds)
    assert max(c.by_wilds or {}) == 8  # up to all eight wild cards in one play


def test_census_of_several_wild_ranks_is_bounded(td: Variant, monkeypatch) -> None:
    monkeypatch.setenv("DDZRULES_MAX_ENUMERATION", "1000")
    with pytest.raises(DdzError, match="above the limit"):
        td.census(wild="7,9")


# ====================================================================== the environment


def test_the_env_plays_two_wild_ranks(_private_cache: None) -> None:
    pytest.importorskip("pettingzoo")
    import numpy as np

    from ddzrules.env import env

    e = env("tiandi-laizi")
    rng = np.random.default_rng(5)
    for seed in range(3):
        e.reset(seed=seed)
        counts: set[int] = set()
        for _agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            wild = obs["observation"]["wild"]
            counts.add(int(wild[:-1].sum()))
            assert wild[-1] == 0  # there is always a wild rank
            legal = np.flatnonzero(obs["action_mask"])
            # every legal play has an id (the env raises otherwise) and means its cards
            e.step(int(rng.choice(legal)))
        game = e.unwrapped.game
        # 天癞子 alone during the bidding, both once the landlord took the kitty
        assert counts == {1, 2} and len(game.public["wild"].split(",")) == 2


def test_the_env_refuses_plays_one_wild_rank_cannot_stand_for(tmp_path) -> None:
    pytest.importorskip("pettingzoo")
    from ddzrules.env import env

    # six wild cards as a pure wild pair chain: one rank has four
    path = tmp_path / "six.yaml"
    path.write_text("name: scratch/six\nextends: tiandi-laizi\ncombos:\n"
                    "  pure_chain: {pattern: \"2{3} where naturals<=0\", zh: 纯癞子连对}\n", encoding="utf-8")
    with pytest.raises(DdzError, match="pure_chain.*6 wild cards, more than one wild rank has"):
        env(str(path))


def test_a_sampled_world_does_not_know_the_earth_wild_rank(_private_cache: None) -> None:
    # a search world made during the bidding draws 地癞子 from its own sampled chance, not
    # the real game's generator (which would tell it the rank to come)
    import random

    rules = GameRules.load("tiandi-laizi")
    told = 0
    for seed in range(12):
        game = rules.new_game(seed)
        seat = game.to_act
        assert seat is not None and game.phase == "landlord"
        draws = []
        for k in range(4):
            world = game.determinized(seat, random.Random(k))
            again = game.determinized(seat, random.Random(k))
            assert world.rng.getstate() == again.rng.getstate()  # still deterministic
            while world.landlord is None and not world.over:
                world.apply(world.legal_actions()[-1])
            draws.append(world.wild)
        real = game.copy()
        while real.landlord is None and not real.over:
            real.apply(real.legal_actions()[-1])
        told += all(d == real.wild for d in draws)
    assert told <= 1  # by chance at most: four worlds agreeing with the real draw


FIXED_TWO = """\
name: scratch/fixed-two
extends: laizi
game:
  wildcards:
    plugin: wild-rank
    params: {ranks: 3..K, draws: [], fixed: ["2"]}
"""


def test_a_fixed_wild_rank_outside_the_drawn_range_has_its_actions(_private_cache: None, tmp_path) -> None:
    pytest.importorskip("pettingzoo")
    from ddzrules.env import play_key, raw_env

    path = tmp_path / "fixed-two.yaml"
    path.write_text(FIXED_TWO, encoding="utf-8")
    e = raw_env(str(path))
    e.reset(seed=0)
    assert e.game is not None and e.game.public["wild"] == "2"  # wild in every deal, drawn from none
    v = e.rules.variant
    pure = next(m for m in v.classify("2222", wild="2") if m.combo == "pure_bomb")
    assert play_key(pure) in e._play_ids


@pytest.mark.parametrize("params,message", [
    ('{ranks: 3..2, draws: [], fixed: ["X"]}', "makes X wild in every deal, a rank a wild card cannot stand for"),
    ("{ranks: K..3}", "can make no rank wild"),
])
def test_wild_ranks_that_can_never_be_wild_are_spec_errors(tmp_path, params: str, message: str) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(f"name: scratch/bad\nextends: laizi\ngame:\n  wildcards:\n    plugin: wild-rank\n"
                    f"    params: {params}\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.exit_code == 1 and message in result.output and "Traceback" not in result.output
    assert "bad.yaml:5:" in result.output  # at the plugin's entry


def test_a_wild_hook_answering_an_empty_list_draws_none(rules: GameRules) -> None:
    from ddzrules.game.checks import _check_wild

    game = rules.new_game(1)
    assert _check_wild(game, [], {}) == ()  # as None: no wild rank now
    with pytest.raises(ValueError, match="wild already"):
        _check_wild(game, list(C.wild_tuple(game.wild)), {})


def test_listing_a_hand_no_game_deals_with_two_wild_ranks_is_bounded(td: Variant) -> None:
    whole = C.counts_to_string(list(td.rules.deck))
    with pytest.raises(DdzError, match="54-card hand with 2 wild ranks .* above the limit"):
        td.legal_moves(whole, wild="7,9")
    result = CliRunner().invoke(main, ["moves", "tiandi-laizi", "--hand", whole, "--wild", "7,9"])
    assert result.exit_code == 1 and "above the limit" in result.output and "Traceback" not in result.output
