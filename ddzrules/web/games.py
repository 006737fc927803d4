"""The games in play, kept by the server (not a worker), each as what builds it again.

A game worker can be stopped (a job past its bound, out of memory): the games it held
were lost with it, every user's. So the server keeps each game as its editor text, seat,
seed, bots and the journal of its actions (:func:`ddzrules.web.jobs.saved_game`), and
hands it to the worker with each request; a worker that does not hold it as it stands
builds it again from that. A request that is stopped changes nothing here.

Each game belongs to the client that started it (its address, :func:`client_of`): a
client holds at most ``per_client`` games, and starting one more ends that client's own
game left alone longest, never another's. The server holds at most ``total`` games; when
it is full, games left alone longer than ``idle_seconds`` make room, and a new game is
refused (503) while none is. Stdlib only: a bare install tests it.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ddzrules.errors import JobError

#: what a request about a game the server does not hold is told
NO_GAME = ("no such game here: it ended, was left alone too long, or the server restarted "
           "(start a new one)")
#: games one client may hold at once (a new one ends its own oldest)
PER_CLIENT = 4
#: games the server holds at once
TOTAL = 256
#: a game nobody has touched for this long may make room for a new one
IDLE_SECONDS = 3600.0


@dataclass
class Kept:
    """One game: whose it is, what builds it, when it was last asked about."""

    client: str
    saved: dict[str, Any]
    touched: float


class GameStore:
    """The games in play by id, their clients' quotas, and room for new ones."""

    def __init__(self, per_client: int = PER_CLIENT, total: int = TOTAL, idle_seconds: float = IDLE_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.per_client, self.total, self.idle_seconds, self.clock = per_client, total, idle_seconds, clock
        self._games: OrderedDict[str, Kept] = OrderedDict()  # least recently touched first

    def __len__(self) -> int:
        return len(self._games)

    def of(self, client: str) -> list[str]:
        """``client``'s games, the one left alone longest first."""
        return [gid for gid, kept in self._games.items() if kept.client == client]

    def admit(self, client: str) -> None:
        """Room for one more game of ``client``, made before the game is dealt: its own
        oldest game ended if it holds its quota, idle games of anyone ended if the server
        is full; a :class:`JobError` (503) when there is still no room."""
        mine = self.of(client)
        if len(mine) >= self.per_client:
            for gid in mine[: len(mine) - self.per_client + 1]:
                del self._games[gid]
        if len(self._games) >= self.total:
            now = self.clock()
            for gid in [gid for gid, kept in self._games.items() if now - kept.touched > self.idle_seconds]:
                del self._games[gid]
        if len(self._games) >= self.total:
            raise JobError(f"the server holds as many games as it takes ({self.total}); try again later", 503)

    def add(self, gid: str, client: str, saved: dict[str, Any]) -> None:
        """A new game (:meth:`admit` made room for it)."""
        self._games[gid] = Kept(client, saved, self.clock())
        while len(self.of(client)) > self.per_client:  # two of one client's admitted at once
            del self._games[self.of(client)[0]]

    def get(self, gid: Any) -> dict[str, Any] | None:
        """The game ``gid`` as kept (None for no such game), now touched."""
        kept = self._games.get(gid) if isinstance(gid, str) else None
        if kept is None:
            return None
        kept.touched = self.clock()
        self._games.move_to_end(gid)
        return kept.saved

    def update(self, gid: str, saved: dict[str, Any]) -> None:
        """The game ``gid`` as a request left it (nothing if it has ended meanwhile)."""
        kept = self._games.get(gid)
        if kept is not None:
            kept.saved = saved


def client_of(peer: tuple[str, int] | None) -> str:
    """The client a request comes from: its peer's address (no port: every tab and
    connection of one machine is one client). The playground is meant to be reached
    directly, by no proxy: behind one, every user would be one client."""
    return peer[0] if peer else "unknown"
