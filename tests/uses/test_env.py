"""The PettingZoo environment (ddzrules.env): PettingZoo's own API and seed tests for
each supported bundled spec, whole random games, rewards, refused actions."""

from __future__ import annotations

import copy
import pickle

import pytest

pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")

from pettingzoo.test import api_test, seed_test

from ddzrules.env import (
    PHASES,
    IllegalActionError,
    NotResetError,
    SeedError,
    SingleAgentEnv,
    env,
    play_key,
    raw_env,
)
from ddzrules.errors import DdzError
from ddzrules.records import game_record
from ddzrules.runtime import GameRules
from ddzrules.spec import bundled_names, load_spec

#: every bundled spec that can be played (compat/rlcard, but not the other compat/ profiles,
#: has a game: section)
SPECS = [n for n in bundled_names() if load_spec(n).data.get("game")]


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


def test_every_playable_bundled_spec_is_covered() -> None:
    assert len(SPECS) >= 13 and {"laizi", "hubei-4p-2deck", "paodekuai", "erren"} <= set(SPECS)


@pytest.mark.parametrize("spec", SPECS)
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
    assert e.describe(np.int64(len(e.action_list) - 1)) == "bid 3"  # an id from a mask
    last = len(e.action_list) - 1
    # -1 described the last action (a negative index counts from the end), 10**9 raised IndexError
    for bad, message in ((-1, "out of range"), (last + 1, "out of range"), (10**9, "out of range"),
                         (1.5, "out of range"), ("x", "an action is an integer id"), (None, "an integer id")):
        with pytest.raises(IllegalActionError, match=message):
            e.describe(bad)
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


def test_an_edited_mask_is_the_caller_s_own() -> None:
    """The mask observe() returns is read-only for good: it is handed out again until the
    game moves, and one marked by a caller was every later caller's. step() checks the
    game's own legal set whatever a mask says."""
    e = env("hubei-3p")
    e.reset(seed=5)
    agent = e.agent_selection
    mask = e.observe(agent)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError):
        mask[illegal] = 1
    with pytest.raises(ValueError):
        mask.flags.writeable = True
    assert e.observe(agent)["action_mask"][illegal] == 0
    assert not e.unwrapped.action_masks()[illegal] if hasattr(e.unwrapped, "action_masks") else True
    with pytest.raises(IllegalActionError, match="not legal"):
        e.step(illegal)


def test_seed_is_the_game_seed() -> None:
    e = raw_env("hubei-3p")
    e.reset(seed=11)
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
    with pytest.raises(DdzError, match="no game: section"):
        env("compat/douzero")
    with pytest.raises(DdzError, match="render_mode"):
        env("hubei-3p", render_mode="rgb_array")


def play_to(e, seed: int, until) -> None:
    """Reset with ``seed`` and take the first legal action until ``until(game)``."""
    e.reset(seed=seed)
    while not until(e.unwrapped.game):
        obs = e.observe(e.agent_selection)
        e.step(int(np.flatnonzero(obs["action_mask"])[-1]))


def test_laizi_plays_are_ids_of_what_they_stand_for() -> None:
    e = env("laizi")
    raw = e.unwrapped
    wild_only = [m for m in raw.action_list[1:] if m is not None and not isinstance(m, tuple)
                 and m.combo in ("soft_bomb", "pure_bomb")]
    # 癞子场: a soft bomb of each rank 3..2 and a pure wild bomb of each wild rank
    assert sorted((m.combo, m.cards) for m in wild_only) == sorted(
        [("soft_bomb", r * 4) for r in "3456789TJQKA2"] + [("pure_bomb", r * 4) for r in "3456789TJQKA2"])
    for seed in range(4):
        play_to(e, seed, lambda g: g.phase == "play")
        game = raw.game
        wild = game.public["wild"]
        assert raw.observe(e.agent_selection)["observation"]["wild"].tolist().index(1) == "3456789TJQKA2XD".index(wild)
        legal = game.legal_actions()
        ids = raw._legal
        # every legal play has an id; each id's action reads as the id's play
        for a in legal:
            i = raw.action_id(a)
            assert i in ids
            if a.move is not None:
                assert play_key(a.move) == play_key(raw.action_list[i])
        for i, a in ids.items():
            if a.move is None:
                continue
            same = [b for b in legal if b.move is not None and raw.action_id(b) == i]
            replaced = [sum(x != y for x, y in b.move.substitution) for b in same]
            # the kept one uses the fewest wild cards as other ranks
            assert sum(x != y for x, y in a.move.substitution) == min(replaced)


def test_wild_play_reading_is_what_it_stands_for() -> None:
    e = raw_env("laizi")
    from ddzrules import load_variant

    v = load_variant("laizi")
    m = next(m for m in v.classify("44556" + "7", wild="7") if m.combo == "pair_chain")
    assert play_key(m) == play_key(next(x for x in v.classify("445566") if x.combo == "pair_chain"))
    assert e.describe(e.action_id(type("A", (), {"kind": "play", "move": m})())) == "play 445566 (pair_chain)"


def test_observation_has_bids_history_and_shown_hands() -> None:
    e = raw_env("hubei-3p")
    play_to(e, 2, lambda g: g.over or sum(a.kind == "play" for a in g.history) >= 2)
    game = e.game
    me = e.agent_selection
    seat = int(me.split("_")[1])
    inner = e.observe(me)["observation"]
    first = next(i for i, a in enumerate(game.history) if a.kind == "play")
    bids = inner["bids"]
    assert bids.sum() == first  # every auction action counted once
    for a in game.history[:first]:
        col = e.bid_columns.index(("pass", None) if a.kind == "pass" else (a.kind, a.value))
        assert bids[(a.seat - seat) % 3, col] >= 1
    tricks = game.history[first:]
    hist, seats = inner["history"], inner["history_seat"]
    assert seats[-len(tricks):, :3].sum() == len(tricks) and seats[:-len(tricks), 3].all()
    for row, who, a in zip(hist[-len(tricks):], seats[-len(tricks):], tricks):
        assert who.tolist().index(1) == (a.seat - seat) % 3
        assert row.sum() == (a.move.size if a.move is not None else 0)
    assert inner["wild"][-1] == 1  # no wild rank
    view = game.view(seat)
    for s in range(3):  # the running tallies agree with the game's own record
        expect = np.zeros(15, np.int64)
        for cards in view.played[s]:
            for c in cards:
                expect["3456789TJQKA2XD".index(c)] += 1
        assert inner["played"][(s - seat) % 3].tolist() == expect.tolist()
    assert inner["hand"].sum() == len(view.hand) and inner["kitty"].sum() == len(view.kitty or "")
    assert e.observation_space(me).contains(e.observe(me))


def test_shown_hands_are_observed() -> None:
    e = raw_env("qiangdizhu")  # 明牌: play_to takes "show" whenever offered
    play_to(e, 1, lambda g: g.phase == "play" or g.over)
    game = e.game
    assert game.shown_hands
    for agent in e.agents:
        seat = int(agent.split("_")[1])
        shown = e.observe(agent)["observation"]["shown"]
        view = game.view(seat)
        assert shown[0].sum() == 0  # one's own row stays empty: the hand is in "hand"
        for s, cards in view.shown_hands.items():
            assert shown[(s - seat) % 3].sum() == len(cards)


def run_single(e: SingleAgentEnv, seed: int) -> tuple[list[int], float, list[int]]:
    """One game with the learner choosing at random (seeded): its actions, final reward, scores."""
    obs, info = e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    taken, done, reward = [], False, 0.0
    while not done:
        assert e.observation_space.contains(obs)
        assert np.array_equal(np.flatnonzero(obs["action_mask"]), info["legal_moves"])
        assert e.aec.game.to_act == e.seat
        taken.append(int(rng.choice(info["legal_moves"])))
        obs, reward, done, truncated, info = e.step(taken[-1])
        assert not truncated
        if not done:
            assert reward == 0
    return taken, reward, info["scores"]


@pytest.mark.parametrize("spec", ["hubei-3p", "laizi", "hubei-4p-2deck", "paodekuai"])
def test_single_agent_wrapper_plays_one_seat_against_bots(spec: str) -> None:
    for seat in (0, 1):
        e = SingleAgentEnv(spec, seat=seat, opponents="heuristic")
        for seed in (3, 4):
            taken, reward, scores = run_single(e, seed)
            assert taken and reward == scores[seat]
            assert e.aec.game.over
            # the seed replays the same game (deal and bots)
            again = SingleAgentEnv(spec, seat=seat, opponents="heuristic")
            assert run_single(again, seed) == (taken, reward, scores)


def test_single_agent_wrapper_bad_input() -> None:
    with pytest.raises(DdzError, match="seat"):
        SingleAgentEnv("hubei-3p", seat=3)
    with pytest.raises(DdzError, match="unknown bot"):
        SingleAgentEnv("hubei-3p", opponents="genius")
    with pytest.raises(DdzError, match="2 bot kinds"):
        SingleAgentEnv("hubei-3p", opponents=["random"])
    e = SingleAgentEnv("hubei-3p", opponents=["random", "heuristic"])
    with pytest.raises(DdzError, match="reset"):
        e.step(0)
    obs, _ = e.reset(seed=1)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = list(e.aec.game.history)
    with pytest.raises(IllegalActionError):
        e.step(illegal)
    assert e.aec.game.history == before


MINI_LAIZI = """\
name: mini-laizi
extends: laizi
game:
  wildcards:
    plugin: wild-rank
    params: {ranks: 3..4}   # two wild ranks: two full-deck walks, not thirteen
"""


def test_wild_only_plays_are_cached_and_a_damaged_entry_is_rebuilt(tmp_path, cache) -> None:
    import ddzrules.env.actions as env_module
    from ddzrules.speed.cache import CacheWarning

    spec = tmp_path / "mini.yaml"
    spec.write_text(MINI_LAIZI, encoding="utf-8")
    first = raw_env(str(spec)).action_list
    # soft bombs of every rank (a wild 3 or 4 makes any other rank's), pure bombs of 3 and 4
    extra = [m for m in first if m is not None and not isinstance(m, tuple) and m.combo.endswith("_bomb")
             and m.combo != "hard_bomb"]
    assert sorted(m.cards for m in extra if m.combo == "pure_bomb") == ["3333", "4444"]
    assert len([m for m in extra if m.combo == "soft_bomb"]) == 13
    entries = list(cache.glob("env-*.json"))
    assert len(entries) == 1
    env_module._PLAYS.clear()  # the process memo: the next env reads the cache
    assert raw_env(str(spec)).action_list == first
    data = bytearray(entries[0].read_bytes())
    data[-3] ^= 0x20
    entries[0].write_bytes(bytes(data))
    env_module._PLAYS.clear()
    with pytest.warns(CacheWarning):
        again = raw_env(str(spec)).action_list
    assert again == first
    # signed with the key but wrong inside (as a bug or an old format would be): refused too
    from ddzrules.speed import cache as cache_module

    for body in (b'[["no_such_combo", 3, 1, 4369]]', b'[["soft_bomb", 3, 1, 255]]', b'{"a": 1}',
                 b'[["soft_bomb", 3, 1]]', b'[[["soft_bomb"], 3, 1, 4369]]'):
        cache_module.store(entries[0].name, body)
        env_module._PLAYS.clear()
        with pytest.warns(CacheWarning):
            assert raw_env(str(spec)).action_list == first


# ---------------------------------------------------------------- copies, seeds, order of calls

def obs_data(e, agent: str) -> dict:
    """An observation as plain lists (arrays compared by value)."""
    obs = e.observe(agent)
    return {"mask": obs["action_mask"].tolist(), **{k: v.tolist() for k, v in obs["observation"].items()}}


def env_state(e) -> tuple:
    """What an environment shows: every agent's observation, last(), rewards and the game's record."""
    raw = e.unwrapped
    return (e.agent_selection, list(e.agents), [obs_data(e, a) for a in raw.possible_agents],
            dict(raw.rewards), dict(raw._cumulative_rewards), dict(raw.terminations),
            {a: dict(i) for a, i in raw.infos.items()}, game_record(raw.game))


def steps_of(e, rng, n: int) -> list[int]:
    """Take ``n`` masked random actions (fewer if the game ends); the ids taken."""
    taken = []
    for _ in range(n):
        agent = e.agent_selection
        if e.unwrapped.terminations.get(agent):
            break
        i = int(rng.choice(np.flatnonzero(e.observe(agent)["action_mask"])))
        e.step(i)
        taken.append(i)
    return taken


def replay_env(spec: str, seed: int, ids: list[int]):
    e = env(spec)
    e.reset(seed=seed)
    for i in ids:
        e.step(i)
    return e


COPIES = {"deepcopy": copy.deepcopy, "pickle": lambda e: pickle.loads(pickle.dumps(e))}


@pytest.mark.parametrize("how", list(COPIES))
@pytest.mark.parametrize("spec", ["hubei-3p", "laizi", "qiangdizhu", "paodekuai"])
def test_a_copied_env_is_the_same_and_then_its_own(spec: str, how: str) -> None:
    """copy.deepcopy or pickle of the (wrapped) environment mid-game: the copy observes the
    same; then original and copy take different actions, each is what a fresh environment
    of that seed given its own actions is, and the copy's steps leave the original as it was."""
    for at in (0, 3, 25):
        e = env(spec)
        e.reset(seed=7)
        taken = steps_of(e, np.random.default_rng(1), at)
        before = env_state(e)
        twin = COPIES[how](e)
        assert twin.unwrapped is not e.unwrapped and twin.unwrapped.game is not e.unwrapped.game
        assert env_state(twin) == before
        twin_taken = taken + steps_of(twin, np.random.default_rng(2), 1000)
        assert twin.unwrapped.game.over
        assert env_state(e) == before, f"{spec} at {at}: the copy's steps changed the original"
        own = taken + steps_of(e, np.random.default_rng(3), 1000)
        assert own != twin_taken
        assert env_state(e) == env_state(replay_env(spec, 7, own))
        assert env_state(twin) == env_state(replay_env(spec, 7, twin_taken))


def test_a_copied_env_shares_only_what_never_changes() -> None:
    e = raw_env("hubei-3p")
    e.reset(seed=2)
    twin = copy.deepcopy(e)
    assert twin.rules is e.rules and twin.action_list is e.action_list  # the table: shared
    assert twin.game is not e.game and twin._played is not e._played and twin._seeds is not e._seeds
    assert twin.action_space("player_0") is not e.action_space("player_0")
    twin.action_space("player_0").sample()  # a space's own generator: the original's unmoved
    assert e.action_space("player_0").np_random.bit_generator.state != \
        twin.action_space("player_0").np_random.bit_generator.state
    # an unstarted environment copies and pickles too
    fresh = raw_env("hubei-3p")
    for c in (copy.deepcopy(fresh), pickle.loads(pickle.dumps(fresh))):
        c.reset(seed=4)
        fresh.reset(seed=4)
        assert obs_data(c, c.agent_selection) == obs_data(fresh, fresh.agent_selection)


@pytest.mark.parametrize("seed", [-1, -2**70, 2**64, 2**100, "3", 1.5, float("nan"), True, False, [1], b"1"])
def test_reset_refuses_a_seed_it_cannot_replay(seed) -> None:
    e = env("hubei-3p")
    e.reset(seed=3)
    before = env_state(e)
    with pytest.raises(SeedError, match=r"integer 0 to 2\*\*64 - 1"):
        e.reset(seed=seed)
    assert env_state(e) == before  # the game in progress is untouched
    with pytest.raises(SeedError):
        SingleAgentEnv("hubei-3p").reset(seed=seed)
    with pytest.raises(DdzError):  # a DdzError (the CLI's convention) and a ValueError
        raw_env("hubei-3p").reset(seed=seed)


def test_reset_takes_every_integer_seed_it_can_replay() -> None:
    e = raw_env("hubei-3p")
    hands = {}
    for seed in (0, 1, 2**63, 2**64 - 1, np.int64(5), np.uint64(2**64 - 1)):
        e.reset(seed=seed)
        hands[int(seed)] = e.game.hands
        assert e.game.seed == int(seed) and type(e.game.seed) is int
    assert hands[5] == GameRules.load("hubei-3p").new_game(5).hands
    assert hands[2**64 - 1] != hands[0]
    s = SingleAgentEnv("hubei-3p")
    s.reset(seed=np.int32(6))
    assert s.aec.game.seed == 6


def test_using_raw_env_before_reset_is_a_clear_error() -> None:
    e = raw_env("hubei-3p")
    for call, name in ((lambda: e.step(0), "step"), (lambda: e.observe("player_0"), "observe"),
                       (lambda: e.last(), "last")):
        with pytest.raises(NotResetError, match=rf"call reset\(\) before {name}\(\)") as info:
            call()
        assert isinstance(info.value, DdzError) and not isinstance(info.value, AssertionError)
    assert raw_env("hubei-3p", render_mode="ansi").render() == "(not reset)"
    s = SingleAgentEnv("hubei-3p")
    with pytest.raises(DdzError, match="reset"):
        s.action_masks()
    e.reset(seed=1)
    with pytest.raises(DdzError, match="no agent 'player_9'"):
        e.observe("player_9")
    assert e.last()[1] == 0
