"""Simulation statistics: the interval functions (ddzrules.simulate.stats), the per-game figures
and their aggregation, paired comparisons of rule sets (compare_specs) and the
multi-spec ``simulate`` command."""

from __future__ import annotations

import doctest
import json
import math
import statistics
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from ddzrules.bots import make_bot
from ddzrules.cli import main
from ddzrules.runtime import GameRules, MatchInfo
from ddzrules.simulate import (
    FIGURE_NAMES,
    Accumulator,
    GameSummary,
    aggregate,
    compare_specs,
    format_comparison,
    game_seed,
    play_game,
    rule_facts,
    stake_unit,
    stats,
    summarise,
)
from ddzrules.simulate.stats import (
    Moments,
    mean_interval,
    paired_difference,
    welch_difference,
    wilson_interval,
)

Z = 1.959963984540054  # the 97.5% standard normal quantile


# ====================================================================== the interval functions


def test_stats_docstring_examples() -> None:
    result = doctest.testmod(stats, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0


def test_z_value() -> None:
    assert stats.z_value() == pytest.approx(Z, abs=1e-12)
    assert stats.z_value(0.99) == pytest.approx(2.5758293, abs=1e-6)
    with pytest.raises(ValueError):
        stats.z_value(1.0)


def test_mean_interval_by_hand() -> None:
    # 1..5: mean 3, s² = (4+1+0+1+4)/4 = 2.5, se = √(2.5/5) = √0.5, half = 1.96·0.70711 = 1.38590
    iv = mean_interval([1, 2, 3, 4, 5])
    assert (iv.estimate, iv.n, iv.method) == (3.0, 5, "normal")
    half = Z * math.sqrt(0.5)
    assert half == pytest.approx(1.3859038, abs=1e-6)
    assert (iv.low, iv.high) == (pytest.approx(3 - half), pytest.approx(3 + half))
    # one value: no spread can be estimated
    one = mean_interval([7])
    assert one.estimate == 7 and one.low == -math.inf and one.high == math.inf
    assert one.to_dict()["low"] is None
    with pytest.raises(ValueError):
        mean_interval([])


def test_wilson_interval_by_hand() -> None:
    # 8 of 10: p = 0.8, z²/n = 0.3841459, centre = (0.8 + 0.1920729)/1.3841459 = 0.7167402,
    # half = z·√(0.016 + 0.0096036)/1.3841459 = 0.3136178/1.3841459 = 0.2265777
    # → [0.4901625, 0.9433178]
    iv = wilson_interval(8, 10)
    assert iv.estimate == 0.8 and iv.method == "wilson"
    assert iv.low == pytest.approx(0.4901625, abs=1e-6)
    assert iv.high == pytest.approx(0.9433178, abs=1e-6)
    # 0 of 20: [0, z²/(n + z²)] = [0, 3.841459/23.841459] = [0, 0.161125]
    zero = wilson_interval(0, 20)
    assert zero.low == 0.0 and zero.high == pytest.approx(0.161125, abs=1e-6)
    full = wilson_interval(20, 20)
    assert full.high == 1.0 and full.low == pytest.approx(1 - 0.161125, abs=1e-6)
    for bad in ((1, 0), (-1, 5), (6, 5)):
        with pytest.raises(ValueError):
            wilson_interval(*bad)


def test_paired_and_unpaired_differences_by_hand() -> None:
    a, b = [1, 2, 3], [2, 4, 5]
    # differences 1, 2, 2: mean 5/3, s² = (4/9 + 1/9 + 1/9)/2 = 1/3, se = √(1/9) = 1/3
    p = paired_difference(a, b)
    assert p.estimate == pytest.approx(5 / 3)
    assert (p.low, p.high) == (pytest.approx(5 / 3 - Z / 3), pytest.approx(5 / 3 + Z / 3))
    assert p.method == "paired" and p.n == 3
    # Welch: s_a² = 1, s_b² = 7/3, se = √(1/3 + 7/9) = √(10/9)
    u = welch_difference(a, b)
    se = math.sqrt(10 / 9)
    assert u.estimate == pytest.approx(5 / 3)
    assert (u.low, u.high) == (pytest.approx(5 / 3 - Z * se), pytest.approx(5 / 3 + Z * se))
    assert p.width < u.width  # the series are positively correlated
    with pytest.raises(ValueError):
        paired_difference([1, 2], [1, 2, 3])


def test_moments_match_the_statistics_module() -> None:
    values = [3, -1, 4, 1, -5, 9, 2, 6, 5, 3, 5, 10_000]
    m = Moments()
    for x in values:
        m.add(x)
    assert m.total == sum(values) and m.n == len(values)
    assert m.mean == pytest.approx(statistics.fmean(values))
    assert m.variance == pytest.approx(statistics.variance(values))
    assert math.isnan(Moments().mean) and math.isnan(Moments().variance)


finite = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False, allow_infinity=False)


@settings(max_examples=200, deadline=None)
@given(st.lists(finite, min_size=2, max_size=50))
def test_paired_interval_of_a_series_with_itself_is_zero(xs: list[float]) -> None:
    iv = paired_difference(xs, xs)
    assert (iv.estimate, iv.low, iv.high) == (0.0, 0.0, 0.0)


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=1, max_value=10**6).flatmap(
    lambda n: st.tuples(st.integers(min_value=0, max_value=n), st.just(n))),
    st.sampled_from([0.5, 0.8, 0.9, 0.95, 0.99]))
def test_wilson_interval_contains_the_proportion(kn: tuple[int, int], confidence: float) -> None:
    k, n = kn
    iv = wilson_interval(k, n, confidence)
    assert 0.0 <= iv.low <= k / n <= iv.high <= 1.0


# ====================================================================== per-game figures

BOTS = ["heuristic", "random", "random"]


@pytest.fixture(scope="module")
def loaded() -> dict[str, GameRules]:
    """Rule sets loaded once (each load prepares its own move tables)."""
    return {name: GameRules.load(name) for name in ("hubei-3p", "qiangdizhu-classic", "laizi")}


def one_game(rules: GameRules, seed: int, index: int = 0) -> GameSummary:
    gseed = game_seed(seed, index)
    agents = [make_bot(kind, gseed + 101 * (s + 1)) for s, kind in enumerate(BOTS)]
    return summarise(play_game(rules, agents, gseed), index)


def test_figures_a_rule_set_lacks_are_none(loaded: dict[str, GameRules]) -> None:
    hubei = rule_facts(loaded["hubei-3p"])
    assert hubei.has_spring and hubei.has_rockets and hubei.has_bombs and not hubei.has_robs
    assert hubei.bid_kinds == ("bid",) and hubei.unit == "points"
    classic = rule_facts(loaded["qiangdizhu-classic"])  # multipliers: [] — no spring
    assert not classic.has_spring and classic.has_robs and classic.bid_kinds == ("call", "rob")
    s = one_game(loaded["qiangdizhu-classic"], 5)
    assert s.spring is None and s.anti_spring is None and s.robs is not None
    assert s.figures()["spring"] is None
    h = one_game(loaded["hubei-3p"], 5)
    assert h.robs is None and h.spring is not None and h.bids is not None
    assert h.figures()["robs"] is None and h.figures()["spring"] in (0, 1)


def test_summary_figures_agree_with_the_game(loaded: dict[str, GameRules]) -> None:
    rules = loaded["hubei-3p"]
    for i in range(6):
        gseed = game_seed(4, i)
        agents = [make_bot("heuristic", gseed + 101 * (s + 1)) for s in range(3)]
        game = play_game(rules, agents, gseed)
        s = summarise(game, i)
        played = [m for ms in game.played for m in ms]
        assert s.bombs is not None and s.rockets is not None
        assert s.bombs + s.rockets == sum(m.is_bomb for m in played)
        assert s.rockets == sum(m.combo == "rocket" for m in played)
        assert s.bids == sum(a.kind == "bid" for a in game.history)
        assert s.plays == sum(a.kind == "play" for a in game.history)
        assert game.landlord is not None and game.scores is not None
        assert s.landlord_score == game.scores[game.landlord]
        assert stake_unit(game) == (float(game.stake), "points")  # stake-settlement, per_farmer 1
        assert s.score_per_stake == pytest.approx(s.landlord_score / game.stake)


def test_units_of_the_bean_and_win_point_settlements(loaded: dict[str, GameRules]) -> None:
    laizi = one_game(loaded["laizi"], 2)
    assert rule_facts(loaded["laizi"]).unit == "beans"
    assert laizi.unit == "beans" and laizi.stake_unit == 1 * 1000 * 0.25  # 底分 × N × 癞子场
    assert laizi.score_per_stake == pytest.approx(laizi.landlord_score / 250)
    classic = one_game(loaded["qiangdizhu-classic"], 2)
    assert classic.unit == "points" and classic.stake_unit == 1.0
    assert classic.score_per_stake in (0.0, 1.0)


def test_accumulator_keeps_the_historical_fields_and_adds_intervals(
        loaded: dict[str, GameRules]) -> None:
    summaries = [one_game(loaded["hubei-3p"], 2, i) for i in range(30)]
    figures = aggregate(summaries, BOTS)
    for key in ("games", "landlord_win_rate", "mean_multiple", "bombs_per_game", "spring_rate",
                "anti_spring_rate", "mean_plays", "redeals_per_game", "mean_stake",
                "mean_score_by_seat", "mean_score_by_bot", "win_rate_by_bot",
                "landlord_score_distribution", "events_per_game", "stats_per_game"):
        assert key in figures
    assert figures["landlord_win_rate"] == sum(s.landlord_won for s in summaries) / 30
    all_bombs = sum((s.bombs or 0) + (s.rockets or 0) for s in summaries) / 30
    assert figures["bombs_per_game"] == pytest.approx(all_bombs)
    assert set(figures["figures"]) == set(FIGURE_NAMES)
    win = figures["figures"]["landlord_won"]
    assert win["method"] == "wilson" and win["low"] <= win["mean"] <= win["high"]
    assert figures["figures"]["robs"] is None
    assert sum(figures["multiple_distribution"].values()) == 30
    for name, entry in figures["figures"].items():
        if entry is not None and name not in ("landlord_score", "score_per_stake"):
            assert entry["low"] >= 0  # counts and multiples are cut at 0
    # fed one at a time: the same
    acc = Accumulator(BOTS)
    for s in summaries:
        acc.add(s)
    assert acc.result() == figures


# ====================================================================== paired comparisons


@pytest.fixture(scope="module")
def trio() -> dict[str, Any]:
    """hubei-3p, crown-3p and hubei-3p again on the same 80 games."""
    calls: list[tuple[int, int]] = []
    result = compare_specs(["hubei-3p", "crown-3p", "hubei-3p"], 80, 1, BOTS,
                           progress=lambda done, total: calls.append((done, total)))
    assert calls == [(i, 80) for i in range(1, 81)]
    return result


def test_a_spec_compared_with_itself_differs_by_zero(trio: dict[str, Any]) -> None:
    first, _, again = trio["specs"]
    assert first == again
    comp = trio["comparisons"][1]
    assert comp["spec"] == comp["baseline"] == "hubei-3p"
    assert comp["paired"] and comp["reason"] is None
    for name, entry in comp["figures"].items():
        if entry is None:
            assert first["figures"][name] is None  # n/a on both sides
            continue
        assert entry["difference"] == 0
        assert (entry["paired"]["low"], entry["paired"]["high"]) == (0.0, 0.0)


def test_the_same_seed_deals_the_same_cards_under_specs_with_one_deck() -> None:
    specs = ["hubei-3p", "crown-3p", "laizi", "qiangdizhu-classic"]  # three landlord protocols
    rules = [GameRules.load(s) for s in specs]
    for i in range(20):
        deals = {str(r.new_game(game_seed(9, i)).deals[0]) for r in rules}
        assert len(deals) == 1


def test_pairing_narrows_the_interval_of_the_landlord_win_rate(trio: dict[str, Any]) -> None:
    comp = trio["comparisons"][0]
    assert comp["spec"] == "crown-3p" and comp["baseline"] == "hubei-3p" and comp["paired"]
    win = comp["figures"]["landlord_won"]
    assert win["paired"]["width"] < win["unpaired"]["width"]
    assert win["narrowing"] < 1 and win["correlation"] > 0
    hubei, crown, _ = trio["specs"]
    rates = crown["landlord_win_rate"] - hubei["landlord_win_rate"]
    assert win["difference"] == pytest.approx(rates)
    assert win["paired"]["estimate"] == pytest.approx(win["difference"])
    assert win["unpaired"]["method"] == "welch" and win["paired"]["method"] == "paired"
    # the paired interval is never wider where the figures are positively correlated
    for entry in comp["figures"].values():
        if entry is not None and entry["correlation"] is not None and entry["correlation"] > 0:
            assert entry["paired"]["width"] <= entry["unpaired"]["width"] + 1e-12


def test_figures_a_spec_lacks_are_na_in_the_comparison(trio: dict[str, Any]) -> None:
    hubei, crown, _ = trio["specs"]
    assert crown["figures"]["spring"] is None and crown["spring_rate"] is None  # no spring rule
    assert hubei["figures"]["spring"] is not None and hubei["spring_rate"] is not None
    assert hubei["figures"]["robs"] is None and crown["figures"]["robs"] is None  # point bids
    comp = trio["comparisons"][0]
    assert comp["figures"]["spring"] is None and comp["figures"]["robs"] is None


def test_format_comparison_is_plain_text(trio: dict[str, Any]) -> None:
    text = format_comparison(trio)
    assert "[bold]" not in text and "\x1b" not in text
    lines = text.splitlines()
    assert lines[1].split() == ["figure", "hubei-3p", "crown-3p", "hubei-3p"]
    spring = next(x for x in lines if x.startswith("spring rate")).split()
    assert spring[5] == "n/a"  # spring rate, hubei-3p (3 words), then crown-3p: none
    assert "crown-3p − hubei-3p" in text and "hubei-3p − hubei-3p" in text
    win = [x for x in lines if x.startswith("landlord win rate")]
    assert len(win) == 3  # the figures, then one row per comparison


def test_specs_with_other_decks_are_not_paired() -> None:
    result = compare_specs(["hubei-3p", "hubei-4p-2deck"], 2, 1, ["heuristic"])
    comp = result["comparisons"][0]
    assert not comp["paired"] and "not paired" in comp["reason"]
    assert "108-card" in comp["reason"]
    win = comp["figures"]["landlord_won"]
    assert win["paired"] is None and win["narrowing"] is None and win["unpaired"] is not None
    assert result["specs"][1]["bots"] == ["heuristic"] * 4  # the bots fill four seats


def test_workers_do_not_change_the_figures() -> None:
    specs = ["hubei-3p", "qiangdizhu-classic"]
    one = compare_specs(specs, 4, 5, BOTS, workers=1)
    two = compare_specs(specs, 4, 5, BOTS, workers=2)
    assert json.dumps(one, sort_keys=True) == json.dumps(two, sort_keys=True)


def test_compare_specs_rejects_bad_arguments() -> None:
    with pytest.raises(ValueError):
        compare_specs([], 10, 1, BOTS)
    with pytest.raises(ValueError):
        compare_specs(["hubei-3p"], 0, 1, BOTS)
    with pytest.raises(ValueError):
        compare_specs(["hubei-3p"], 1, 1, ["genius"])


# ====================================================================== the command


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def line_of(output: str, label: str) -> list[str]:
    """The cells of the table row whose label starts with ``label``, split on spaces."""
    line = next(x for x in output.splitlines() if x.strip().startswith(label))
    return line.split()


def test_simulate_several_specs_prints_one_table_and_the_differences(runner: CliRunner) -> None:
    result = runner.invoke(main, ["simulate", "hubei-3p", "crown-3p", "qiangdizhu-classic",
                                  "--games", "3", "--seed", "2", "--bots", "heuristic,random"],
                           env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    out = result.output
    assert line_of(out, "figure") == ["figure", "hubei-3p", "crown-3p", "qiangdizhu-classic"]
    assert line_of(out, "spring rate")[-2:] == ["n/a", "n/a"]  # neither crown nor classic has it
    assert line_of(out, "robs")[1:3] == ["n/a", "n/a"]  # point bids: no robbing
    win = " ".join(line_of(out, "landlord win rate"))
    assert win.count("[") == 3 and win.count("]") == 3  # mean [low, high] for each spec
    assert "win rate: heuristic" in out
    assert "crown-3p − hubei-3p" in out and "qiangdizhu-classic − hubei-3p" in out
    headers = [x.split() for x in out.splitlines() if x.split()[:2] == ["figure", "difference"]]
    header = ["figure", "difference", "paired", "unpaired", "paired/unpaired", "width"]
    assert headers == [header, header]


def test_simulate_json_of_several_specs(runner: CliRunner) -> None:
    args = ["simulate", "hubei-3p", "crown-3p", "--games", "2", "--seed", "4", "--json"]
    result = runner.invoke(main, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)  # nothing but the JSON on stdout: no progress bar
    assert result.stderr == ""
    assert [s["spec"] for s in data["specs"]] == ["hubei-3p", "crown-3p"]
    assert data["games"] == 2 and data["seed"] == 4 and data["bots"] == ["random"]
    for spec in data["specs"]:
        assert set(spec["figures"]) == set(FIGURE_NAMES)
        assert "landlord_win_rate" in spec and "multiple_distribution" in spec
    comp = data["comparisons"][0]
    assert comp["paired"] and set(comp["figures"]) == set(FIGURE_NAMES)


def test_simulate_json_of_one_spec_keeps_its_shape(runner: CliRunner) -> None:
    args = ["simulate", "qiangdizhu-classic", "--games", "2", "--seed", "1"]
    result = runner.invoke(main, [*args, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)  # the one-spec shape: the figures at the top level
    assert data["spec"] == "qiangdizhu-classic" and data["games"] == 2
    assert data["spring_rate"] is None and data["figures"]["spring"] is None
    assert data["unit"] == "points" and data["figures"]["robs"] is not None


def test_simulate_needs_a_spec_and_valid_ones(runner: CliRunner) -> None:
    assert runner.invoke(main, ["simulate", "--games", "2"]).exit_code != 0
    bad = runner.invoke(main, ["simulate", "hubei-3p", "no-such-spec", "--games", "2"])
    assert bad.exit_code == 1 and "Traceback" not in bad.output


# ====================================================================== streaming


def test_per_game_summaries_are_streamed_as_games_finish() -> None:
    """``on_game`` is handed each game's summaries (one per spec) in index order, as
    each finishes, and the figures are what the summaries aggregate to."""
    seen: list[tuple[int, list[GameSummary]]] = []
    result = compare_specs(["hubei-3p", "crown-3p"], 12, 3, BOTS, on_game=lambda i, row: seen.append((i, row)))
    assert [i for i, _ in seen] == list(range(12))
    assert all([s.index for s in row] == [i, i] for i, row in seen)
    for k, spec in enumerate(result["specs"]):
        alone = aggregate([row[k] for _, row in seen], spec["bots"])
        assert alone["games"] == spec["games"] == 12
        assert alone["mean_stake"] == spec["mean_stake"]


def test_a_late_game_is_played_like_an_early_one(loaded: dict[str, GameRules]) -> None:
    """The rotation repeats every ``players`` games: game 3·10**6 (and 3·10**400) of a
    hubei-3p match is, for the same deal seed, the same game as game 0 — figures
    included — and is set up as fast (the first bidder is no longer a loop over games)."""
    rules = loaded["hubei-3p"]
    gseed = game_seed(1, 0)

    def played(index: int) -> GameSummary:
        agents = [make_bot(kind, gseed + 101 * (i + 1)) for i, kind in enumerate(BOTS)]
        return summarise(play_game(rules, agents, gseed, MatchInfo(index, 1)), 0)

    early = played(0)
    assert played(3 * 10**6) == early
    assert played(3 * 10**400) == early


# ====================================================================== rockets by what was played


def _bomb_order_children(tmp_path: Any) -> tuple[str, str]:
    """Two children of hubei-3p with one more bomb class (2222 as its own class): one
    ranks it above the rocket, the other below — the rocket is not the top class in
    the first."""
    paths = []
    for name, order in (("twos-over-rocket", "[bomb, rocket, twos_bomb]"),
                        ("rocket-over-twos", "[bomb, twos_bomb, rocket]")):
        path = tmp_path / f"{name}.yaml"
        path.write_text(f"name: {name}\nextends: hubei-3p\ncombos:\n  twos_bomb: {{pattern: \"<2222>\"}}\n"
                        f"bombs: {order}\n", encoding="utf-8")
        paths.append(str(path))
    return paths[0], paths[1]


def test_rockets_are_counted_by_what_was_played_wherever_the_rocket_ranks(tmp_path: Any) -> None:
    low, top = _bomb_order_children(tmp_path)
    rules_low, rules_top = GameRules.load(low), GameRules.load(top)
    for rules in (rules_low, rules_top):
        facts = rule_facts(rules)
        assert facts.has_rockets and facts.has_bombs and facts.rocket_combos == {"rocket"}
    # game by game: the same plays give the same counts, and a rocket is counted as one
    # under both orders
    rockets_seen = 0
    for i in range(40):
        a, b = one_game(rules_low, 7, i), one_game(rules_top, 7, i)
        ga = play_game(rules_low, [make_bot(k, game_seed(7, i) + 101 * (s + 1)) for s, k in enumerate(BOTS)],
                       game_seed(7, i))
        played = [m for ms in ga.played for m in ms]
        assert a.rockets == sum(m.cards == "XD" for m in played)
        assert a.bombs == sum(m.is_bomb and m.cards != "XD" for m in played)
        rockets_seen += a.rockets or 0
        if a.plays == b.plays and a.scores == b.scores:
            assert (a.bombs, a.rockets) == (b.bombs, b.rockets)
    assert rockets_seen > 0
    result = compare_specs([low, top], 40, 7, BOTS)
    assert result["specs"][0]["figures"]["rockets"] is not None  # not n/a under either order
    comp = result["comparisons"][0]
    for name in ("bombs", "rockets"):
        entry = comp["figures"][name]
        assert entry["difference"] == 0, name
        assert (entry["paired"]["low"], entry["paired"]["high"]) == (0.0, 0.0), name
    # and the text report has no "rockets n/a" either
    assert "n/a" not in next(x for x in format_comparison(result).splitlines() if x.startswith("rockets"))


# ====================================================================== honest numbers

samples = st.one_of(
    st.lists(st.floats(min_value=-1e300, max_value=1e300, allow_nan=False), min_size=1, max_size=40),
    st.lists(st.integers(min_value=-10**400, max_value=10**400), min_size=1, max_size=20),
    st.tuples(st.floats(allow_nan=False, allow_infinity=False), st.integers(1, 30)).map(
        lambda t: [t[0]] * t[1]),  # a constant sample
    st.lists(st.sampled_from([0.1, 0.2, 0.7, 1e-300, 5e-324]), min_size=1, max_size=30),
)


def _inside(iv: stats.Interval) -> None:
    d = iv.to_dict()
    if d["estimate"] is None or d["low"] is None or d["high"] is None:
        assert "reason" in d  # never a bare null
        return
    assert d["low"] <= d["estimate"] <= d["high"]
    json.loads(stats.dumps_finite(d))


@settings(max_examples=300, deadline=None)
@given(samples, samples, st.sampled_from([0.5, 0.95, 0.999]))
def test_every_interval_holds_its_estimate(xs: list[float], ys: list[float], confidence: float) -> None:
    a, b = Moments(), Moments()
    for x in xs:
        a.add(x)
    for y in ys:
        b.add(y)
    _inside(stats.moments_interval(a, confidence))
    _inside(stats.welch_from_moments(a, b, confidence))
    n = min(len(xs), len(ys))
    if all(isinstance(v, float) for v in xs[:n] + ys[:n]):
        if all(math.isfinite(y - x) for x, y in zip(xs[:n], ys[:n])):
            _inside(paired_difference(xs[:n], ys[:n], confidence))
        else:  # a difference overflows: refused plainly, never an interval of infinities
            with pytest.raises(ValueError, match="beyond the range of floats"):
                paired_difference(xs[:n], ys[:n], confidence)


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 10**6).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_a_proportion_of_zero_or_one_or_between_holds_its_estimate(kn: tuple[int, int]) -> None:
    _inside(wilson_interval(*kn))


#: pairs of per-game values: independent, or the second a constant shift of the first
#: (a zero-width paired interval, where the difference of the means, rounded twice,
#: used to fall outside it in about half the cases)
value_pairs = st.one_of(
    st.lists(st.tuples(st.integers(-50, 50), st.integers(-50, 50)), min_size=1, max_size=40),
    st.tuples(st.lists(st.integers(-50, 50), min_size=2, max_size=40), st.integers(-5, 5)).map(
        lambda t: [(x, x + t[1]) for x in t[0]]),
)


@settings(max_examples=300, deadline=None)
@given(value_pairs, st.sampled_from([1.0, 0.1, 0.3, 1e-9, 1e250]))
def test_a_difference_lies_inside_its_paired_and_its_unpaired_interval(
        pairs: list[tuple[int, int]], scale: float) -> None:
    from ddzrules.simulate import _difference_entry

    a, b, d = Moments(), Moments(), Moments()
    for x, y in pairs:
        a.add(x * scale)
        b.add(y * scale)
        d.add(y * scale - x * scale)
    e = _difference_entry(a, b, d, 0.95)
    assert e is not None
    json.loads(stats.dumps_finite(e))
    for iv in (e["paired"], e["unpaired"]):
        if iv["low"] is not None and e["difference"] is not None:
            assert iv["low"] <= e["difference"] <= iv["high"], (e, iv)


def test_a_constant_sample_is_its_own_zero_width_interval() -> None:
    iv = mean_interval([0.1] * 10)
    assert iv.low <= iv.estimate <= iv.high and iv.width <= 1e-15
    one = Moments()
    one.add(3)
    assert stats.moments_interval(one).to_dict() == {
        "estimate": 3.0, "low": None, "high": None, "n": 1, "method": "normal",
        "reason": "one value: no spread can be estimated"}


def test_a_series_refuses_nan_and_infinity_and_keeps_huge_ints_exact() -> None:
    m = Moments()
    for bad in (math.nan, math.inf, -math.inf):
        with pytest.raises(ValueError, match="finite numbers"):
            m.add(bad)
    assert m.n == 0  # nothing was added
    m.add(10**400)
    m.add(-(10**400))
    assert m.total == 0 and m.n == 2
    huge = Moments()
    for x in (10**400, 3 * 10**400):
        huge.add(x)
    iv = stats.moments_interval(huge).to_dict()
    assert iv["estimate"] is None and iv["low"] is None and iv["reason"] == "the values overflow a float"


def test_json_never_holds_nan_or_infinity() -> None:
    with pytest.raises(ValueError, match=r"specs\[1\]\.figures\.sd is inf"):
        stats.dumps_finite({"specs": [{}, {"figures": {"sd": math.inf}}]})
    with pytest.raises(ValueError, match="is nan"):
        stats.dumps_finite([math.nan])
    assert stats.dumps_finite({"x": [1, 2.5, None]}) == '{"x": [1, 2.5, null]}'


def test_figures_that_overflow_a_float_are_null_with_a_reason(loaded: dict[str, GameRules]) -> None:
    """A spec whose factors make multiples near the largest float (bomb-doubling
    factor 1e300): the spread overflows; the JSON says so instead of Infinity."""
    from dataclasses import replace

    base = [one_game(loaded["hubei-3p"], 3, i) for i in range(6)]
    summaries = [replace(s, multiple=1e300 if i % 2 else 1.0, score_per_stake=1.5e308 if i % 2 else -1.0)
                 for i, s in enumerate(base)]
    result = aggregate(summaries, BOTS)
    text = stats.dumps_finite(result)  # valid JSON: no NaN, no Infinity
    data = json.loads(text, parse_constant=lambda c: pytest.fail(f"{c} in the JSON"))
    multiple = data["figures"]["multiple"]
    assert multiple["sd"] is None and multiple["low"] is None and multiple["reason"] == "the values overflow a float"
    assert multiple["mean"] == pytest.approx(0.5e300)


def test_a_game_whose_figures_are_not_finite_is_refused(loaded: dict[str, GameRules]) -> None:
    """Whatever put it there (the runtime refuses a NaN through ``game.count``; a plugin
    may still write ``game.stats`` itself), a figure that is not a finite number stops
    the run with a message naming the game, never a NaN in a mean or in the JSON."""
    from ddzrules.errors import DdzError

    gseed = game_seed(1, 0)
    game = play_game(loaded["hubei-3p"], [make_bot(k, gseed + 101 * (s + 1)) for s, k in enumerate(BOTS)], gseed)
    game.stats["odd"] = math.nan
    with pytest.raises(DdzError, match="hubei-3p, game 4: its statistic 'odd' is nan, not a finite number"):
        summarise(game, 4)
