"""不洗牌 (no-shuffle) as specs/buxipai.yaml reads it (reading no-shuffle): the last game's
cards picked up in play order, then the cards left in hand seat by seat, cut once, dealt
``clump`` at a time round the table from seat 0; the kitty next; a match's first game is
shuffled. The deal is checked against an independent re-deal of the gathered cards, and
records carry the gathered cards so that a replay deals them again."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from ddzrules import cards as C
from ddzrules.bots import HeuristicBot
from ddzrules.cli import main
from ddzrules.errors import PluginError
from ddzrules.hookspecs import hookimpl
from ddzrules.plugins.deals import NoShuffle
from ddzrules.records import ReplayError, game_record, replay
from ddzrules.runtime import GameRules, MatchInfo, PluginRegistry
from ddzrules.simulate import compare_specs, play_game
from ddzrules.simulate.games import carries_cards


@pytest.fixture(scope="module")
def buxipai() -> GameRules:
    return GameRules.load("buxipai")


def played(rules: GameRules, seed: int, match: MatchInfo | None = None):
    return play_game(rules, [HeuristicBot(seed + s) for s in range(rules.players)], seed, match)


def clump_deal(cards: list[int], players: int, hand: int, clump: int) -> list[list[int]]:
    """The hands a clump deal gives, worked out on its own: round the table, ``clump`` each."""
    hands: list[list[int]] = [[] for _ in range(players)]
    it = iter(cards)
    while any(len(h) < hand for h in hands):
        for h in hands:
            for _ in range(min(clump, hand - len(h))):
                h.append(next(it))
    return hands


def test_the_first_game_is_shuffled_as_the_parent(buxipai: GameRules) -> None:
    parent = GameRules.load("hubei-3p")
    for seed in (1, 2, 3):
        assert buxipai.new_game(seed).deals[0] == parent.new_game(seed).deals[0]


def test_gathered_cards_are_the_plays_in_order_then_the_hands(buxipai: GameRules) -> None:
    game = played(buxipai, 4)
    gathered = game.gathered_cards()
    assert Counter(gathered) == Counter(C.deck_list(buxipai.variant.rules.deck))
    plays = [r for a in game.history if a.kind == "play" for r in C.parse_ranks(a.value)]
    assert list(gathered[:len(plays)]) == plays
    rest = [r for hand in game.hands for r in C.deck_list(hand)]
    assert list(gathered[len(plays):]) == rest


@pytest.mark.parametrize("clump", [1, 4, 5, 17])
def test_an_uncut_deal_is_the_gathered_cards_dealt_in_clumps(tmp_path: Path, clump: int) -> None:
    spec = tmp_path / "uncut.yaml"
    spec.write_text(f"name: uncut\nextends: buxipai\ngame:\n  deal:\n    plugin: no-shuffle\n"
                    f"    params: {{clump: {clump}, cut: none}}\n", encoding="utf-8")
    rules = GameRules.load(str(spec))
    previous = played(rules, 6).gathered_cards()
    game = rules.new_game(7, MatchInfo(1, 0, previous_cards=previous))
    hands = clump_deal(list(previous), 3, 17, clump)
    assert [C.counts_to_string(C.counts_of(h)) for h in hands] == game.deals[0]["hands"]
    assert game.deals[0]["kitty"] == C.counts_to_string(C.counts_of(list(previous[51:])))


def test_a_cut_deal_is_a_rotation_of_the_gathered_cards(buxipai: GameRules) -> None:
    previous = played(buxipai, 8).gathered_cards()
    game = buxipai.new_game(9, MatchInfo(1, 0, previous_cards=previous))
    dealt = game.deals[0]
    rotations = []
    for at in range(1, len(previous)):
        cards = list(previous[at:] + previous[:at])
        hands = clump_deal(cards, 3, 17, 4)
        rotations.append([C.counts_to_string(C.counts_of(h)) for h in hands])
    assert dealt["hands"] in rotations


def test_a_match_deals_from_the_last_game_and_records_replay_it(buxipai: GameRules) -> None:
    first = played(buxipai, 10)
    second = played(buxipai, 11, MatchInfo(1, 0, previous_cards=first.gathered_cards()))
    record = json.loads(json.dumps(game_record(second)))
    assert record["match"]["previous_cards"] == "".join(C.RANKS[r] for r in first.gathered_cards())
    assert replay(record).game.scores == second.scores
    cards = record["match"]["previous_cards"]
    record["match"]["previous_cards"] = cards[1:] + cards[0]  # another order: another deal
    with pytest.raises(ReplayError):
        replay(record)
    code = CliRunner().invoke(main, ["match", "buxipai", "--games", "3", "--seed", "2"]).exit_code
    assert code == 0


def test_a_deal_plugin_that_deals_other_cards_is_refused() -> None:
    class Cheat:
        name = "cheat"
        params_schema = NoShuffle.params_schema

        def __init__(self, params: dict) -> None:
            pass

        @hookimpl
        def ddzrules_deal(self, game, deck):
            return [C.RANKS.index("2")] * len(deck)

    registry = PluginRegistry()
    registry.register("no-shuffle", Cheat)
    rules = GameRules.load("buxipai", registry)
    with pytest.raises(PluginError, match="dealt other cards than the deck's"):
        rules.new_game(1)


def test_simulate_shows_more_bombs_dealt_than_a_shuffled_deal() -> None:
    result = compare_specs(["hubei-3p", "buxipai"], 120, 5, ["heuristic"])
    shuffled, no_shuffle = result["specs"]
    assert no_shuffle["figures"]["bombs_dealt"]["mean"] > shuffled["figures"]["bombs_dealt"]["mean"]
    paired = result["comparisons"][0]["figures"]["bombs_dealt"]["paired"]
    assert paired["low"] > 0  # the paired interval of the difference lies above 0


def test_a_duel_deals_every_game_of_a_deal_from_the_same_last_game() -> None:
    from ddzrules.simulate.duel import duel

    # the same bot on both sides gains nothing only if each deal's games are dealt alike
    r = duel("buxipai", "heuristic", "heuristic", deals=4, seed=1)
    assert r["win_rate_gain"] == 0 and r["score_gain"] == 0


def test_a_record_whose_gathered_cards_are_no_deck_is_refused(buxipai: GameRules) -> None:
    first = played(buxipai, 12)
    second = played(buxipai, 13, MatchInfo(1, 0, previous_cards=first.gathered_cards()))
    record = json.loads(json.dumps(game_record(second)))
    record["match"]["previous_cards"] = "3" * 54
    with pytest.raises(ReplayError, match="not the cards of buxipai's deck"):
        replay(record)


# ====================================================================== the apps' reading, and its bombs


def runs_deal_of(hands: list[str], pack: list[int], low: int, high: int, hand: int) -> bool:
    """Whether ``hands`` can be dealt from ``pack`` round the table, seat 0 first, in runs
    of ``low`` to ``high`` cards (the last run of a hand cut to fill it), worked out on its
    own: a search over the run sizes, each run's cards taken from what its hand must hold."""
    want = [Counter(C.parse_ranks(h)) for h in hands]

    def deal(pos: int, seat: int, got: tuple[int, ...], left: tuple[Counter, ...]) -> bool:
        if all(n == hand for n in got):
            return True
        if got[seat] == hand:
            return deal(pos, (seat + 1) % len(got), got, left)
        for run in range(low, high + 1):
            take = min(run, hand - got[seat])
            cards = Counter(pack[pos:pos + take])
            if cards <= left[seat]:
                rest = list(left)
                rest[seat] = left[seat] - cards
                grown = list(got)
                grown[seat] += take
                if deal(pos + take, (seat + 1) % len(got), tuple(grown), tuple(rest)):
                    return True
            if take < run:  # a cut run: larger ones are the same
                break
        return False

    return deal(0, 0, (0,) * len(hands), tuple(want))


def test_the_apps_reading_deals_runs_of_the_pack_in_rank_order() -> None:
    rules = GameRules.load("buxipai-app")
    deck = C.deck_list(rules.variant.rules.deck)
    assert not carries_cards(rules)  # no previous game is needed, nor played by simulate
    for seed in range(12):
        dealt = rules.new_game(seed).deals[0]  # the first game of a match too
        pack = sorted(deck)
        assert any(runs_deal_of(dealt["hands"], pack[at:] + pack[:at], 3, 5, 17) for at in range(1, len(pack)))
    # and the gathered reading's deal is not one (a shuffled first game): the check can fail
    first = GameRules.load("buxipai").new_game(1).deals[0]
    assert not any(runs_deal_of(first["hands"], sorted(deck)[at:] + sorted(deck)[:at], 3, 5, 17)
                   for at in range(1, len(deck)))


def test_the_sheets_state_the_measured_bomb_density() -> None:
    """The figures the sheets state are what benchmarks/bench_buxipai.py measures (the
    deals that need no played game are measured again here whole); the apps' reading
    deals what players of 不洗牌 know (about 3 bombs a game, nine games in ten with one),
    the gathered reading far fewer."""
    from ddzrules.sheets import build_sheet, density, render_sheet

    stored = density.stored()
    for spec in ("hubei-3p", "buxipai-app"):
        again = density.measure(spec, stored[spec].deals, stored[spec].seed, stored[spec].bots)
        assert again == stored[spec]
    assert stored["buxipai"].content_hash == GameRules.load("buxipai").variant.rules.content_hash
    app, gathered, shuffled = stored["buxipai-app"], stored["buxipai"], stored["hubei-3p"]
    assert app.bombs >= 3.0 and app.share >= 0.9
    assert shuffled.bombs < gathered.bombs < 2.0 < app.bombs
    for spec, own in (("buxipai", gathered), ("buxipai-app", app)):
        text = render_sheet(build_sheet(spec), "en", "md")
        row = next(line for line in text.splitlines() if line.startswith("| bombs dealt (measured) |"))
        assert f"{own.bombs:.2f} a game" in row and f"{own.share:.0%} of games" in row
        assert f"a shuffled deal: {shuffled.bombs:.2f}, {shuffled.share:.0%}" in row
        assert ("each after a game of heuristic bots" in row) == (spec == "buxipai")
    assert "bombs dealt (measured)" not in render_sheet(build_sheet("hubei-3p"), "en", "md")


def test_a_child_that_changes_the_deal_claims_no_measured_density(tmp_path: Path) -> None:
    from ddzrules.sheets import build_sheet, render_sheet

    spec = tmp_path / "fours.yaml"
    spec.write_text("name: fours\nextends: buxipai-app\ngame:\n  deal:\n    plugin: no-shuffle\n"
                    "    params: {clump: 4, cut: random, gather: sorted}\n", encoding="utf-8")
    assert "bombs dealt (measured)" not in render_sheet(build_sheet(spec), "en", "md")
