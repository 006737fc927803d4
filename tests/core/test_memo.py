"""The in-memory memos of speed/memo.py (issue 45, step 7): what each keeps and what goes
first; the domain's uses are tested where they are (test_wild_table, test_spec_cache)."""

from __future__ import annotations

import functools
import pickle

from ddzrules.speed.memo import Emptied, InternGroups, LastUsed


def test_last_used_keeps_the_last_keys_used_none_among_the_values() -> None:
    memo: LastUsed[str, int | None] = LastUsed(2)
    made: list[str] = []

    def make(key: str) -> int | None:
        made.append(key)
        return None if key == "none" else len(key)

    for key in ("none", "bb", "none", "ccc", "bb"):
        memo.kept(key, functools.partial(make, key))
    assert made == ["none", "bb", "ccc", "bb"]  # None is kept like a value; "bb" went first
    assert list(memo) == ["ccc", "bb"] and len(memo) == 2 and "none" not in memo


def test_emptied_is_a_dict_emptied_whole_when_full() -> None:
    memo: Emptied[int, int] = Emptied(3)
    for k in range(3):
        assert memo.keep(k, k * k) == k * k
    assert memo == {0: 0, 1: 1, 2: 4} and memo.get(2) == 4
    memo.keep(3, 9)
    assert memo == {3: 9}
    again = pickle.loads(pickle.dumps(memo))
    assert again == {3: 9} and again.limit == 3


def test_intern_groups_keep_the_groups_used_last_within_one_bound() -> None:
    dropped: list[str] = []
    groups: InternGroups[str, int, int] = InternGroups(4, dropped.append)
    groups.use("a").update({1: 1, 2: 2})
    groups.use("b").update({1: 1, 2: 2})
    groups.use("a")  # "b" is now the least recently used
    assert list(groups) == ["b", "a"] and dropped == []
    groups.use("c").update({1: 1})  # 5 entries: "b" goes, and the caller is told
    groups.use("c")
    assert list(groups) == ["a", "c"] and dropped == ["b"]
    big = groups.use("d")
    big.update({k: k for k in range(5)})
    table = groups.use("d")  # alone above the bound: every other group goes, then its own entries
    assert table is big and table == {} and list(groups) == ["d"] and dropped == ["b", "a", "c"]
