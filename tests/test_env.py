"""The PettingZoo environment (ddzrules.env): PettingZoo's own API and seed tests for
each supported bundled spec, whole random games, rewards, refused actions."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test

from ddzrules.env import PHASES, IllegalActionError, env, raw_env
from ddzrules.errors import DdzError

SPECS = ["hubei-3p", "hubei-4p-2deck", "qiangdizhu", "paodekuai", "crown-3p", "erren", "hk",
         "hk-rob", "jiaofen", "qiangdizhu-classic", "faceup-3p", "space-shuttle"]


def play_random(e, seed: int) -> tuple[dict[str, float], int]:
    """Play one game to the end with masked random actions; the rewards summed per agent."""
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals: dict[str, float] = {}
    steps = 0
    for agent in e.agent_iter(max_iter=5000):
        obs, reward, term, trunc, _ = e.last()
        totals[agent] = totals.get(agent, 0) + reward
        if term or trunc:
            e.step(None)
            continue
        assert obs["action_mask"].dtype == np.int8
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    return totals, steps


@pytest.mark.parametrize("spec", ["hubei-3p", "hubei-4p-2deck", "qiangdizhu", "paodekuai"])
def test_api_and_seed(spec: str) -> None:
    api_test(env(spec), num_cycles=200)
    seed_test(lambda: env(spec), num_cycles=200)


@pytest.mark.parametrize("spec", SPECS)
def test_random_game_to_the_end(spec: str) -> None:
    e = env(spec)
    for seed in (1, 2):
        totals, steps = play_random(e, seed)
        game = e.unwrapped.game
        assert game.over and steps > 0
        assert e.agents == []
        assert [totals[f"player_{i}"] for i in range(game.players)] == game.scores


def test_actions_are_fixed_and_decoded() -> None:
    e = raw_env("hubei-3p")
    assert e.action_list[0] is None and e.describe(0) == "pass"
    assert e.action_list[-3:] == [("bid", 1), ("bid", 2), ("bid", 3)]
    assert e.action_space("player_0").n == len(e.action_list) == 1 + 12654 + 3
    assert raw_env("hubei-3p").action_list == e.action_list  # deterministic
    e.reset(seed=7)
    obs = e.observe(e.agent_selection)
    legal = {e.describe(int(i)) for i in np.flatnonzero(obs["action_mask"])}
    assert legal == {"pass", "bid 1", "bid 2", "bid 3"}  # 湖北: the first bidder bids or passes
    inner = obs["observation"]
    assert inner["phase"][PHASES.index("landlord")] == 1
    assert inner["hand"].sum() == 17 and inner["hand_sizes"].tolist() == [17, 17, 17]
    assert inner["landlord"].tolist() == [0, 0, 0, 1]
    assert e.observation_space("player_0").contains(obs)
    # other agents see no legal action
    other = next(a for a in e.agents if a != e.agent_selection)
    assert e.observe(other)["action_mask"].sum() == 0


def test_paodekuai_two_readings_are_two_actions() -> None:
    e = raw_env("paodekuai")
    plays = [a for a in e.action_list if a is not None and not isinstance(a, tuple)]
    cards = [m.cards for m in plays]
    assert len(plays) == 52931 and len(set(cards)) == 51427


def test_illegal_action_is_refused_and_changes_nothing() -> None:
    e = env("hubei-3p")
    e.reset(seed=5)
    agent = e.agent_selection
    obs = e.observe(agent)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = (e.unwrapped.game.history[:], e.agent_selection)
    with pytest.raises(IllegalActionError, match="not legal"):
        e.step(illegal)
    for bad in (-1, e.action_space(agent).n, "3", 1.5):
        with pytest.raises(ValueError):
            e.step(bad)
    with pytest.raises(DdzError):
        e.step(illegal)
    assert (e.unwrapped.game.history, e.agent_selection) == before
    assert np.array_equal(e.observe(agent)["action_mask"], obs["action_mask"])


def test_seed_is_the_game_seed() -> None:
    e = raw_env("hubei-3p")
    e.reset(seed=11)
    from ddzrules.runtime import GameRules

    assert e.game.hands == GameRules.load("hubei-3p").new_game(seed=11).hands


def test_normalized_rewards_divide_by_the_stake() -> None:
    e = env("hubei-3p", normalize=True)
    totals, _ = play_random(e, 3)
    game = e.unwrapped.game
    assert [totals[f"player_{i}"] for i in range(3)] == [s / game.stake for s in game.scores]


def test_render_ansi_and_human(capsys: pytest.CaptureFixture[str]) -> None:
    e = env("hubei-3p", render_mode="ansi")
    e.reset(seed=1)
    text = e.render()
    assert "hubei-3p" in text and "player_0" in text and "phase landlord" in text
    h = env("hubei-3p", render_mode="human")
    h.reset(seed=1)
    assert h.render() is None
    assert "player_2" in capsys.readouterr().out


def test_bad_input() -> None:
    with pytest.raises(DdzError):
        env("no-such-spec")
    with pytest.raises(DdzError, match="wildcards"):
        env("laizi")
    with pytest.raises(DdzError, match="render_mode"):
        env("hubei-3p", render_mode="rgb_array")
