"""The in-memory memos and intern tables of the domain modules, as mechanisms: what is kept,
how much and what goes first is said here once; what a value is, and when it may be kept, is
the caller's. Nothing here changes an answer: a value dropped is made again.

- :class:`LastUsed`: the values of the last ``limit`` keys used, the least recently used
  dropped first (a few large values: compiled tables, variants);
- :class:`Emptied`: a dict emptied whole once it holds ``limit`` entries (many small values
  on a hot path: its reads are a dict's own);
- :class:`InternGroups`: intern tables, one per group, the groups used last kept while all
  hold at most ``limit`` entries.

>>> memo = LastUsed[str, int](2)
>>> [memo.kept(k, lambda: len(k)) for k in ("a", "bb", "a", "ccc")]
[1, 2, 1, 3]
>>> list(memo)  # "bb" was used least recently
['a', 'ccc']
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator, Mapping
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")
G = TypeVar("G", bound=Hashable)


class LastUsed(Generic[K, V]):
    """The values of the last ``limit`` keys used (None is a value like any other), the one
    used least recently dropped first."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._items: OrderedDict[K, V] = OrderedDict()

    def kept(self, key: K, make: Callable[[], V]) -> V:
        """The value of ``key``: the one kept, or ``make()``'s, kept from now on."""
        items = self._items
        if key in items:
            items.move_to_end(key)
            return items[key]
        value = items[key] = make()
        while len(items) > self.limit:
            items.popitem(last=False)
        return value

    def __contains__(self, key: object) -> bool:
        return key in self._items

    def __iter__(self) -> Iterator[K]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def clear(self) -> None:
        self._items.clear()


class Emptied(dict[K, V]):
    """A memo that is a dict (``get`` and ``[]`` at a dict's speed), emptied whole when it
    holds ``limit`` entries and one more is kept: no order to keep up on a hot path."""

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit

    def keep(self, key: K, value: V) -> V:
        """Keep ``value`` for ``key`` (the memo emptied first when full) and return it."""
        if len(self) >= self.limit:
            self.clear()
        self[key] = value
        return value


class InternGroups(Mapping[G, dict[K, V]]):
    """Intern tables (key -> the one value made for it), one per group, kept for the groups
    used last while all of them hold at most ``limit`` entries: using a group drops those
    used least recently (``dropped`` is told each one, for what the caller keeps beside
    it), and empties the group itself when it alone holds more."""

    def __init__(self, limit: int, dropped: Callable[[G], object] = lambda group: None) -> None:
        self.limit = limit
        self._dropped = dropped
        self._groups: dict[G, dict[K, V]] = {}  # the least recently used first

    def use(self, group: G) -> dict[K, V]:
        """The intern table of ``group`` (a new one the first time), now the last used."""
        groups = self._groups
        table = groups.pop(group, None)
        if table is None:
            table = {}
        groups[group] = table
        kept = sum(map(len, groups.values()))
        if kept > self.limit:
            for key in list(groups):
                if key == group or kept <= self.limit:
                    break
                kept -= len(groups.pop(key))
                self._dropped(key)
            if kept > self.limit:
                table.clear()  # this group alone is above the bound: made again when used
        return table

    def __getitem__(self, group: G) -> dict[K, V]:
        return self._groups[group]

    def __iter__(self) -> Iterator[G]:
        return iter(self._groups)

    def __len__(self) -> int:
        return len(self._groups)
