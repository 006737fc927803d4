"""The games the playground's server keeps (ddzrules.web.games): each client's quota, and
room made only from the client's own games or from idle ones. 32 new_game requests of
one client ended everyone's games (one store of 32, the oldest evicted whoever it was).
No web stack is needed: these run on a bare install."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ddzrules.errors import JobError
from ddzrules.web.games import GameStore, client_of


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def start(store: GameStore, client: str, gid: str) -> None:
    store.admit(client)
    store.add(gid, client, {"journal": [], "who": client})


def test_a_client_over_its_quota_ends_its_own_oldest_game_only() -> None:
    store = GameStore(per_client=4, total=100)
    start(store, "10.0.0.2", "theirs")
    for i in range(32):  # the burst
        start(store, "10.0.0.9", f"mine-{i}")
    assert store.get("theirs") is not None
    assert store.of("10.0.0.9") == [f"mine-{i}" for i in range(28, 32)]


def test_a_touched_game_is_not_the_one_ended() -> None:
    store = GameStore(per_client=2, total=100)
    start(store, "a", "g1")
    start(store, "a", "g2")
    assert store.get("g1") is not None  # g1 played since
    start(store, "a", "g3")
    assert store.of("a") == ["g1", "g3"]


def test_a_full_server_makes_room_from_idle_games_or_refuses() -> None:
    clock = Clock()
    store = GameStore(per_client=4, total=3, idle_seconds=100, clock=clock)
    start(store, "a", "a1")
    clock.now = 50
    start(store, "b", "b1")
    start(store, "c", "c1")
    with pytest.raises(JobError) as full:  # nobody idle: refused, nobody's game ended
        start(store, "d", "d1")
    assert full.value.status == 503 and "as many games" in full.value.message
    assert len(store) == 3
    clock.now = 120  # a1 left alone past idle_seconds; b1, c1 not
    start(store, "d", "d1")
    assert store.get("a1") is None and {"b1", "c1", "d1"} <= {g for c in "bcd" for g in store.of(c)}


def test_unknown_games_and_ids_of_other_types() -> None:
    store = GameStore()
    for gid in ("nope", None, 3, ["x"]):
        assert store.get(gid) is None
    store.update("nope", {"journal": [1]})  # a game ended meanwhile: nothing
    assert len(store) == 0
    assert client_of(("192.0.2.7", 51234)) == client_of(("192.0.2.7", 40000)) == "192.0.2.7"
    assert client_of(None) == "unknown"


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from("abcde"), st.booleans()), max_size=80),
       st.integers(1, 5), st.integers(1, 12))
def test_no_client_ever_ends_another_clients_game(steps: list[tuple[str, bool]], per_client: int,
                                                  total: int) -> None:
    """Whatever the clients do, a game ends only by its own client's new game, or by
    being idle when the server is full; no client holds more than its quota."""
    clock = Clock()
    store = GameStore(per_client=per_client, total=total, idle_seconds=10, clock=clock)
    made = 0
    for client, touch_all in steps:
        clock.now += 1
        before = {c: set(store.of(c)) for c in "abcde"}
        if touch_all:  # everyone else plays a move: no game is idle
            for c in "abcde":
                for gid in store.of(c):
                    store.get(gid)
        try:
            start(store, client, f"{client}{made}")
            made += 1
        except JobError:
            pass
        for other in "abcde":
            if other == client:
                continue
            lost = before[other] - set(store.of(other))
            if touch_all:
                assert not lost, (other, lost)
        assert all(len(store.of(c)) <= per_client for c in "abcde")
        assert len(store) <= total
