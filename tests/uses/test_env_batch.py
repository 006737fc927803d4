"""The batched environment (ddzrules.env.batch.BatchEnv): each table's row is what the AEC
environment (the oracle) observes in the same game after the same actions, field by
field; rewards, the next deal, seeds, refused actions that change nothing."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")

from hypothesis import given, settings
from hypothesis import strategies as st

from ddzrules.env import IllegalActionError, NotResetError, env
from ddzrules.env.batch import MAX_TABLES, BatchEnv
from ddzrules.errors import DdzError, TableError

#: landlord tables of 3 and 4 seats, wild cards (one and two ranks), a card dealt face
#: up, 明牌 among the call-rob actions, a table without a landlord, two players
SPECS = ["hubei-3p", "laizi", "tiandi-laizi", "faceup-3p", "qiangdizhu", "paodekuai", "erren",
         "hubei-4p-2deck"]


def aec_at(spec: str, seed: int):
    e = env(spec)
    e.reset(seed=seed)
    return e


def assert_rows_match(batch: BatchEnv, obs: dict, aecs: list) -> None:
    """Row i of the batch's observation is the AEC environment's observation of table i."""
    for i, e in enumerate(aecs):
        u = e.unwrapped
        agent = u.agent_selection
        assert int(obs["to_act"][i]) == u.possible_agents.index(agent)
        want = u.observe(agent)
        for key, value in want["observation"].items():
            assert obs[key].dtype == value.dtype, key
            assert np.array_equal(obs[key][i], value), (key, i)
        assert np.array_equal(obs["action_mask"][i], want["action_mask"])
        assert batch.legal_ids(i) == sorted(np.flatnonzero(want["action_mask"]).tolist())


@pytest.mark.parametrize("spec", SPECS)
def test_each_row_is_the_aec_observation_of_the_same_game(spec: str) -> None:
    batch = BatchEnv(spec, num_tables=3)
    obs = batch.reset(seed=11)
    aecs = [aec_at(spec, s) for s in batch.seeds]
    rng = np.random.default_rng(2)
    ended = 0
    for _ in range(160):
        assert_rows_match(batch, obs, aecs)
        actions = batch.sample(rng)
        for i, e in enumerate(aecs):
            e.step(int(actions[i]))
        seeds_before = list(batch.seeds)
        obs, rewards, terminated, info = batch.step(actions)
        assert rewards.shape == (3, batch.n) and rewards.dtype == np.float64
        finished = {i: (seed, scores) for i, seed, scores in info["finished"]}
        for i, e in enumerate(aecs):
            u = e.unwrapped
            if u.game.over:
                ended += 1
                assert terminated[i] and finished[i] == (seeds_before[i], list(u.game.scores))
                assert rewards[i].tolist() == [u.rewards[a] for a in u.possible_agents]
                assert batch.seeds[i] != seeds_before[i]
                aecs[i] = aec_at(spec, batch.seeds[i])  # the next game dealt at that table
            else:
                assert not terminated[i] and not rewards[i].any() and i not in finished
    assert ended >= 1  # the tables went through a game's end and the next deal


def test_rows_match_with_the_lister_index_built_first() -> None:
    """The plays the runtime lists in the variant's fast index map to ids in bulk: the
    same ids as the AEC environment's own mapping, with the index built from the start."""
    batch = BatchEnv("hubei-3p", num_tables=4)
    assert batch.rules.variant.fast_index()
    obs = batch.reset(seed=5)
    aecs = [aec_at("hubei-3p", s) for s in batch.seeds]
    rng = random.Random(3)
    for _ in range(60):
        assert_rows_match(batch, obs, aecs)
        actions = batch.sample(rng)
        for i, e in enumerate(aecs):
            e.step(int(actions[i]))
        obs, _, terminated, _ = batch.step(actions)
        for i in np.flatnonzero(terminated):
            aecs[i] = aec_at("hubei-3p", batch.seeds[i])


def test_normalize_divides_the_scores_by_the_stake() -> None:
    batch = BatchEnv("hubei-3p", num_tables=2, normalize=True)
    batch.reset(seed=1)
    rng = np.random.default_rng(1)
    while True:
        _, rewards, terminated, info = batch.step(batch.sample(rng))
        if info["finished"]:
            break
    i, seed, scores = info["finished"][0]
    game = batch.rules.new_game(seed=seed)
    assert terminated[i] and scores and any(scores)
    # the stake of that game is what divides: the rewards are the scores' proportions
    ratio = [r / s for r, s in zip(rewards[i].tolist(), scores) if s]
    assert len({round(x, 6) for x in ratio}) == 1 and 0 < ratio[0] <= 1
    assert game.seed == seed


def test_the_same_seed_gives_the_same_games() -> None:
    def run(seed: int) -> list:
        batch = BatchEnv("laizi", num_tables=4)
        obs = batch.reset(seed=seed)
        rng = np.random.default_rng(7)
        out = [batch.seeds[:], obs["hand"].copy()]
        for _ in range(40):
            obs, rewards, _, info = batch.step(batch.sample(rng))
            out += [obs["history"].copy(), obs["action_mask"].copy(), rewards, info["finished"]]
        return out

    a, b, c = run(3), run(3), run(4)
    assert all(np.array_equal(x, y) if isinstance(x, np.ndarray) else x == y for x, y in zip(a, b))
    assert a[0] != c[0]


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    batch = BatchEnv("hubei-3p", num_tables=3)
    obs = batch.reset(seed=9)
    before = {k: v.copy() for k, v in obs.items()}
    histories = [len(g.history) for g in batch.games]
    good = batch.sample(random.Random(0))
    legal = batch.legal_ids(1)
    bad_id = next(a for a in range(batch.num_actions) if a not in legal)
    cases = [
        (np.array([good[0], bad_id, good[2]]), "table 1: action"),
        (np.array([good[0], good[1], batch.num_actions]), "out of range"),
        (np.array([good[0], good[1], -1]), "out of range"),
        (good[:2], "shape (3,)"),
        (good.astype(np.float64), "integer"),
    ]
    for actions, words in cases:
        with pytest.raises(IllegalActionError, match=re.escape(words)) as info:
            batch.step(actions)
        assert "nothing was applied" in str(info.value) or "integer" in str(info.value)
        assert [len(g.history) for g in batch.games] == histories  # no table moved
    assert np.array_equal(batch._observe()["action_mask"], before["action_mask"])
    obs, *_ = batch.step(good)  # and the legal actions still play
    assert [len(g.history) for g in batch.games] != histories


def test_a_game_that_raises_keeps_its_state_and_the_others_step() -> None:
    """A table whose every seat passes the bidding reaches the runtime's redeal limit and
    its game raises: that table stays as it was, the other one steps, the error names the
    table and carries the step's results, and the batch goes on from them."""
    batch = BatchEnv("hubei-3p", num_tables=2)
    batch.reset(seed=4)
    rng = random.Random(4)
    for _ in range(2000):
        actions = batch.sample(rng)
        actions[1] = 0  # table 1: always pass (id 0 is legal in the auction)
        histories = [len(g.history) for g in batch.games]
        mover, stuck = batch.games
        try:
            obs, *_ = batch.step(actions)
        except TableError as error:
            assert error.tables == [1] and "table 1" in str(error) and "redeal" in str(error)
            assert batch.games[1] is stuck and len(stuck.history) == histories[1]  # as it was
            # table 0 took its action: its history grew, or its game ended and the next was dealt
            assert batch.games[0] is not mover or len(mover.history) > histories[0]
            obs, rewards, terminated, _ = error.result
            assert not terminated[1] and not rewards[1].any()  # the table that raised: no end
            now = batch.observe()
            assert all(np.array_equal(now[k], v) for k, v in obs.items())
            assert batch.legal_ids(1) == sorted(np.flatnonzero(obs["action_mask"][1]).tolist())
            batch.step(batch.sample(rng))  # and it steps on
            return
    pytest.fail("table 1 never reached the redeal limit")


def test_the_mask_is_a_read_only_view_and_other_arrays_are_new() -> None:
    batch = BatchEnv("hubei-3p", num_tables=2)
    obs = batch.reset(seed=1)
    with pytest.raises(ValueError):
        obs["action_mask"][0, 0] = 1
    hand = obs["hand"]
    hand[:] = 0  # the caller's to change
    obs2, *_ = batch.step(batch.sample(random.Random(1)))
    assert obs2["hand"] is not hand and obs2["hand"].any()


def test_bad_construction_and_order_of_calls() -> None:
    for bad in (0, -1, MAX_TABLES + 1, 2.0, True, "4"):
        with pytest.raises(DdzError, match="num_tables"):
            BatchEnv("hubei-3p", num_tables=bad)  # type: ignore[arg-type]
    with pytest.raises(DdzError, match="at most 5,071 tables"):  # 52,932 ids: the mask's memory bound
        BatchEnv("paodekuai", num_tables=6000)
    batch = BatchEnv("hubei-3p", num_tables=2)
    with pytest.raises(NotResetError):
        batch.step(np.zeros(2, np.int64))
    with pytest.raises(NotResetError):
        batch.sample(random.Random(0))
    batch.reset(seed=0)
    with pytest.raises(DdzError, match="Generator or a random.Random"):
        batch.sample(7)
    with pytest.raises(IllegalActionError, match="integer array"):
        batch.step(5)
    with pytest.raises(IllegalActionError, match="integer array"):
        batch.step(["a", "b"])
    for seed in (-1, 2**64, 1.5, "x", True):
        with pytest.raises(DdzError):
            batch.reset(seed=seed)
    for table in (-1, 2, "0", True):
        with pytest.raises(DdzError, match="no table"):
            batch.legal_ids(table)
    for action_id in (-1, batch.num_actions, "0", 1.0):
        with pytest.raises(DdzError, match="no action id"):
            batch.describe(action_id)
    assert batch.describe(0) == "pass"
    # ids and tables as a mask gives them (np.int64) were refused as "no action id np.int64(0)"
    assert batch.describe(np.flatnonzero(np.arange(3) == 0)[0]) == "pass"
    assert batch.legal_ids(np.int64(1)) == batch.legal_ids(1)
    for bad in (np.True_, np.float64(0)):
        with pytest.raises(DdzError, match="no table"):
            batch.legal_ids(bad)
    assert BatchEnv("hubei-3p", num_tables=np.int64(3)).num_tables == 3
    for spec, plugins in (("no-such-spec", ()), (123, ()), ("hubei-3p", "x.py:Y")):
        with pytest.raises(DdzError):
            BatchEnv(spec, num_tables=2, plugins=plugins)
    with pytest.raises(DdzError, match="not 123"):
        env(123)  # type: ignore[arg-type]  # the AEC environment too (the compiled runtime's TypeError before)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), tables=st.integers(1, 6),
       spec=st.sampled_from(["hubei-3p", "laizi", "paodekuai"]))
def test_sampled_actions_are_always_legal_and_games_end(seed: int, tables: int, spec: str) -> None:
    batch = BatchEnv(spec, num_tables=tables)
    obs = batch.reset(seed=seed)
    rng = random.Random(seed)
    ended = 0
    for _ in range(300):
        actions = batch.sample(rng)
        assert (obs["action_mask"][np.arange(tables), actions] == 1).all()
        assert obs["action_mask"].sum(axis=1).tolist() == [len(batch.legal_ids(i)) for i in range(tables)]
        obs, _, terminated, _ = batch.step(actions)
        ended += int(terminated.sum())
    assert ended >= 1


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32), spec=st.sampled_from(["hubei-3p", "erren", "hubei-4p-2deck", "paodekuai"]),
       steps=st.integers(0, 120))
def test_ids_by_position_are_the_ids_of_the_actions(seed: int, spec: str, steps: int) -> None:
    """The AEC environment and the batch map the plays listed in the variant's index to ids
    by their positions (one gather); the oracle is the id of each action on its own
    (``legal_by_id``): the same ids, the same actions, in the same order."""
    e = env(spec).unwrapped
    assert e.rules.variant.fast_index()
    e.reset(seed=seed)
    rng = random.Random(seed)
    by_position = 0
    for _ in range(steps):
        game = e.game
        if game.over:
            break
        actions, listed = game.legal_listing()
        by_position += listed is not None
        mapped = e.legal_of(game)
        oracle = e.legal_by_id(actions)
        assert list(mapped.items()) == list(oracle.items())
        e.step(rng.choice(list(mapped)))
    if steps > 40 and not e.rules.restricted:  # (a plugin's restriction lists another way)
        assert by_position  # the play phase was reached and listed by position


def test_an_edited_mask_never_changes_what_step_applies() -> None:
    """The caller can make a view writeable again: an id the mask had out, marked 1 by the
    caller, was taken as legal and applied the next legal play of the listing instead. Now
    the mask cannot be made writeable, and step() checks ids against the game's own listing."""
    batch = BatchEnv("hubei-3p", num_tables=2)
    obs = batch.reset(seed=3)
    with pytest.raises(ValueError):
        obs["action_mask"].flags.writeable = True
    rng = random.Random(3)
    for _ in range(200):  # to the play phase at table 0, where ids map to listed plays
        if batch.games[0].phase == "play" and len(batch.legal_ids(0)) > 1:
            break
        batch.step(batch.sample(rng))
    legal = batch.legal_ids(0)
    bad = next(a for a in range(1, batch.num_actions) if a not in legal and "play" in batch.describe(a))
    batch._mask[0, bad] = 1  # what writing into the view did (the batch's own array)
    actions = batch.sample(rng)
    actions[0] = bad
    history = [len(g.history) for g in batch.games]
    with pytest.raises(IllegalActionError, match=f"table 0: action {bad} .* is not legal there now"):
        batch.step(actions)
    assert [len(g.history) for g in batch.games] == history


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), spec=st.sampled_from(["hubei-3p", "laizi", "erren"]), steps=st.integers(0, 40))
def test_step_takes_exactly_the_listed_ids(seed: int, spec: str, steps: int) -> None:
    """An id is applied when the game lists it, refused otherwise: every id of a table is
    tried with the other tables' legal ones, and what is applied is the action of that id."""
    batch = BatchEnv(spec, num_tables=2)
    batch.reset(seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        batch.step(batch.sample(rng))
    legal = set(batch.legal_ids(0))
    other = batch.sample(rng)
    for a in random.Random(seed).sample(range(batch.num_actions), 60) + sorted(legal):
        actions = other.copy()
        actions[0] = a
        if a in legal:
            listed = batch._check(actions)[0]
            assert batch.single.action_id(listed) == a
        else:
            with pytest.raises(IllegalActionError, match="table 0"):
                batch._check(actions)


def test_numpy_arguments_are_the_ints_they_hold_or_a_clear_value_error() -> None:
    """np.array([3]) as num_tables, a seed, a table or an id escaped as NumPy's TypeError
    ("only integer scalar arrays can be converted to a scalar index"), a ragged list of
    actions as NumPy's ValueError, and normalize=np.array([...]) as "truth value ambiguous"."""
    from ddzrules.env import ArgumentError, SeedError

    assert BatchEnv("erren", num_tables=np.array(3)).num_tables == 3  # an array of no axis: its int
    batch = BatchEnv("erren", num_tables=np.int32(2), normalize=np.bool_(True))
    assert batch.normalize is True
    first = batch.reset(seed=np.array(5))
    assert np.array_equal(first["hand"], BatchEnv("erren", num_tables=2).reset(seed=5)["hand"])
    assert batch.legal_ids(np.array(1)) == batch.legal_ids(1)
    assert batch.describe(np.array(0)) == "pass"
    actions = batch.sample(np.random.default_rng(0))
    for given_as in (actions, list(actions), actions.astype(np.uint16), [int(a) for a in actions]):
        batch2 = BatchEnv("erren", num_tables=2)
        batch2.reset(seed=5)
        batch2.step(given_as)  # arrays of any integer type, lists of NumPy or Python ints
    bad: list[tuple[Any, type[Exception], str]] = [
        (lambda: BatchEnv("erren", num_tables=np.array([3])), ArgumentError, r"num_tables .* array of shape \(1,\)"),
        (lambda: BatchEnv("erren", num_tables=2, normalize=np.array([True, False])), ArgumentError, "normalize"),
        (lambda: BatchEnv("erren", num_tables=2, normalize="no"), ArgumentError, "normalize is True or False"),
        (lambda: batch.reset(seed=np.array([5])), SeedError, r"seed.*array of shape \(1,\)"),
        (lambda: batch.legal_ids(np.array([1])), ArgumentError, r"legal_ids\(table\)"),
        (lambda: batch.describe(np.array([0, 1])), IllegalActionError, r"describe\(action_id\)"),
        (lambda: batch.step([1, [2, 3]]), IllegalActionError, "one integer action id per table"),
        (lambda: batch.step([2**70, 0]), IllegalActionError, "one integer action id per table"),
        (lambda: batch.step(np.zeros((2, 1), np.int64)), IllegalActionError, r"shape \(2, 1\)"),
        (lambda: batch.step(np.array([True, False])), IllegalActionError, "integer"),
        (lambda: batch.sample(np.random.RandomState(0)), ArgumentError, "sample"),
    ]
    for call, kind, words in bad:
        with pytest.raises(kind, match=words) as info:
            call()
        assert isinstance(info.value, ValueError) and isinstance(info.value, DdzError)
