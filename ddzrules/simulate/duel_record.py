"""A duel's record: each deal's outcome appended to a file as it finishes, so that a long
duel (hours on a slow spec) survives being stopped and resumes where it was.

The file is JSON lines: a header naming the duel (spec and its content hash, protocol,
seed, bots, the ddzrules version that plays it), then one line a deal (its index, what the
protocol keeps of its games, each
side's decision times in seconds). A duel given a record reads the deals it holds, plays
the others, and computes its figures from all of them in deal order, so a resumed duel
gives the figures of one played at once (decision times aside: they are of the machines
that played).

A record is read as untrusted input: a regular file (no symlink) of bounded size, read
line by line, every line checked (types, ranges, lengths, finite numbers, roles, no deal
twice, no key twice in an object, a bounded number of decision times, and outcomes a deal
can give: win gains of -1, 0 or 1, whole points, a role at every seat of a landlord table
and at none of another) before any figure is taken from it; a bad one
is refused with its line number and what is wrong, never its content, and the file is
left as it was. A last line cut off by a stopped write (no newline) is dropped before the
duel appends. The file is held open and locked while the duel runs: a second duel on it
is refused, and every write goes to the file that was checked.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "duel.jsonl"
>>> head = {"spec": "erren", "spec_hash": "0" * 64, "protocol": "duplicate", "seed": 1,
...         "bots": ["heuristic", "random"], "players": 2}
>>> with DuelRecord(path, head) as rec:
...     rec.read()
...     rec.append(0, [[1.0, 2.0, "landlord"], [0.0, 0.0, "farmer"]], {"a": [0.01], "b": [0.0]})
{}
>>> with DuelRecord(path, head) as rec:
...     sorted(rec.read())
[0]
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import IO, Any, Self

from ddzrules.errors import DdzError
from ddzrules.untrusted import JSONPolicy, JSONRefused, not_regular, parse_json

try:
    import fcntl
except ImportError:  # not POSIX: no lock (a second duel on one record is then not refused)
    fcntl = None  # type: ignore[assignment]

FORMAT = "ddzrules-duel/1"
#: the largest record read (a deal's line is some hundreds of bytes to a few KB)
MAX_RECORD_BYTES = 256 * 1024 * 1024
#: the longest line of a record
MAX_LINE_BYTES = 1024 * 1024
#: the most decisions one side may have in a deal's line
MAX_DECISIONS = 100_000
#: the most decision times a record may hold in all (a float each: about 32 bytes)
MAX_ALL_DECISIONS = 20_000_000
#: the most runs of consecutive deals the recorded ones may leave to play (a duel's own
#: record leaves a few: deals are recorded in order)
MAX_GAPS = 4096
#: the largest magnitude of a score gain or of points (a plugin's scores fit in 64 bits)
MAX_POINTS = 2.0 ** 65
#: the roles a seat's result may name (None: a table without roles)
ROLES = ("landlord", "farmer", None)

#: one deal as the duel keeps it: (what the protocol keeps of its games, decision times by side)
Deal = tuple[Any, dict[str, list[float]]]


class DuelRecord:
    """The record file of one duel, named by ``header`` (spec, spec_hash, protocol,
    seed, bots, players, ddzrules), held open and locked from :meth:`read` until it is
    closed (a context manager)."""

    def __init__(self, path: str | os.PathLike[str], header: dict[str, Any],
                 landlord_table: bool | None = None) -> None:
        self.path = Path(path)
        self.header = {"format": FORMAT, **header}
        #: whether the spec's table has a landlord (None: not known, roles not checked
        #: against it): a landlord table's every seat has a role, another table's none
        self.landlord_table = landlord_table
        self._file: IO[bytes] | None = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()  # the lock goes with it
            self._file = None

    def read(self, deals: int | None = None) -> dict[int, Deal]:
        """The deals the record holds below ``deals`` (none when the file is new or empty:
        its header is written); a DdzError when it is not a record of this duel, a line is
        bad, or another duel holds it."""
        where = str(self.path)
        existed = os.path.lexists(self.path)
        try:
            # no symlink followed, a FIFO not waited on; made when missing
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)
                         | getattr(os, "O_NONBLOCK", 0), 0o644)
        except OSError as e:
            raise DdzError(f"{where}: cannot open it as a duel record ({e.strerror or type(e).__name__})") from None
        st = os.fstat(fd)
        kind = not_regular(st.st_mode)
        if kind is not None:  # (before a file object: a FIFO is no seekable file)
            os.close(fd)
            raise DdzError(f"{where}: cannot be a duel record: not a regular file ({kind})")
        f = os.fdopen(fd, "r+b")
        try:
            if st.st_size > MAX_RECORD_BYTES:
                raise DdzError(f"{where}: cannot be a duel record: larger than {MAX_RECORD_BYTES:,} bytes")
            if fcntl is not None:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except OSError:
                    raise DdzError(f"{where}: another duel is using this record") from None
            found = self._read(f, where, deals)
        except BaseException:
            f.close()
            if not existed:  # made here, and its header could not be written: not left behind
                self.path.unlink(missing_ok=True)
            raise
        self._file = f
        return found

    def _read(self, f: IO[bytes], where: str, deals: int | None) -> dict[int, Deal]:
        raw = f.readline(MAX_LINE_BYTES + 1)
        if not raw:  # new, or made and never written: the header now
            _append_line(f, (json.dumps(self.header, sort_keys=True) + "\n").encode(), where)
            return {}
        if not raw.endswith(b"\n"):
            raise DdzError(f"{where}:1: no whole header line: not a duel record")
        self._check_header(_parse(raw, where, 1), where)
        found: dict[int, Deal] = {}
        seen: set[int] = set()
        decisions = 0
        good = len(raw)  # bytes of whole lines read
        number = 1
        while True:
            raw = f.readline(MAX_LINE_BYTES + 1)
            if not raw:
                break
            number += 1
            if not raw.endswith(b"\n"):
                if len(raw) > MAX_LINE_BYTES:
                    raise DdzError(f"{where}:{number}: a line longer than {MAX_LINE_BYTES:,} bytes")
                break  # the last line, cut off by a stopped write: dropped below
            deal, outcome, times = self._check_row(_parse(raw, where, number), where, number)
            if deal in seen:
                raise DdzError(f"{where}:{number}: deal {deal} is recorded twice")
            seen.add(deal)
            decisions += len(times["a"]) + len(times["b"])
            if decisions > MAX_ALL_DECISIONS:
                raise DdzError(f"{where}:{number}: more than {MAX_ALL_DECISIONS:,} decision times in all")
            if deals is None or deal < deals:
                found[deal] = (outcome, times)
            good += len(raw)
        if deals is not None and found:
            gaps = 0
            for i in range(max(found) + 1):
                if i not in found and (i == 0 or i - 1 in found):
                    gaps += 1
            if gaps > MAX_GAPS:
                raise DdzError(f"{where}: the recorded deals leave more than {MAX_GAPS:,} runs of deals to "
                               "play: not a record a duel wrote")
        f.truncate(good)  # a cut-off last line dropped (nothing when there is none)
        f.seek(good)
        return found

    def append(self, deal: int, outcome: Any, times: dict[str, list[float]]) -> None:
        """Add a deal that finished (one line, flushed at once), to the file :meth:`read`
        checked and holds."""
        assert self._file is not None, "read the record first"
        # decision times to the microsecond: a line a third as long, the figures the same
        row = {"deal": deal, "outcome": outcome,
               "times": {side: [round(t, 6) for t in times[side]] for side in ("a", "b")}}
        _append_line(self._file, (json.dumps(row, allow_nan=False) + "\n").encode(), str(self.path))

    def _check_header(self, got: Any, where: str) -> None:
        if not isinstance(got, dict) or got.get("format") != FORMAT:
            raise DdzError(f"{where}:1: not a duel record (its first line is no {FORMAT} header)")
        for field in self.header:
            if got.get(field) != self.header[field]:
                raise DdzError(f"{where}:1: the record of another duel (its {field} differs from this duel's): "
                               "name another file to start this one")
        if set(got) != set(self.header):
            raise DdzError(f"{where}:1: the header has fields a duel record has not")

    def _check_row(self, row: Any, where: str, number: int) -> tuple[int, Any, dict[str, list[float]]]:
        def bad(what: str) -> DdzError:
            return DdzError(f"{where}:{number}: {what}")

        if not isinstance(row, dict) or set(row) != {"deal", "outcome", "times"}:
            raise bad("not a deal's line (an object of deal, outcome and times)")
        deal = row["deal"]
        if type(deal) is not int or not 0 <= deal < 10**9:
            raise bad("the deal is no index 0 to 999,999,999")
        outcome = row["outcome"]
        if self.header["protocol"] == "duplicate":
            players = self.header["players"]
            if not isinstance(outcome, list) or len(outcome) != players:
                raise bad(f"the outcome is not one result for each of the {players} seats")
            for seat in outcome:
                if (not isinstance(seat, list) or len(seat) != 3 or not _number(seat[0], 1.0)
                        or not _number(seat[1], MAX_POINTS) or seat[2] not in ROLES):
                    raise bad("a seat's result is not [win gain -1 to 1, score gain, landlord, farmer or null]")
            _check_duplicate(outcome, self.landlord_table, bad)
            outcome = [tuple(seat) for seat in outcome]
        else:
            if not isinstance(outcome, list) or len(outcome) != 2:
                raise bad("the outcome is not the results of two games (A as landlord, A as farmers)")
            for game in outcome:
                if (not isinstance(game, list) or len(game) != 2 or type(game[0]) is not bool
                        or not _number(game[1], MAX_POINTS)):
                    raise bad("a game's result is not [won, points]")
                if not _whole(game[1]):
                    raise bad("a game's points are not a whole number: a game's scores are integers")
            outcome = [tuple(game) for game in outcome]
        times = row["times"]
        if not isinstance(times, dict) or set(times) != {"a", "b"}:
            raise bad("the times are not an object of a and b")
        for side in ("a", "b"):
            spent = times[side]
            if (not isinstance(spent, list) or len(spent) > MAX_DECISIONS
                    or not all(_number(t, 1e9) and t >= 0 for t in spent)):
                raise bad(f"side {side}'s times are not a list of at most {MAX_DECISIONS:,} durations")
        return deal, outcome, {"a": [float(t) for t in times["a"]], "b": [float(t) for t in times["b"]]}


def _whole(x: float) -> bool:
    """An integer's value (a game's scores are integers, so are their sums and differences)."""
    return type(x) is int or x.is_integer()


def _check_duplicate(seats: list[list[Any]], landlord_table: bool | None,
                     bad: Callable[[str], DdzError]) -> None:
    """What a duplicate deal can give (each seat: A's game at that seat against the one
    base game of B in every seat): a win gain of a game won or lost minus another, -1, 0 or
    1; a score gain of whole points; a role at a landlord table's every seat, at no other;
    and a base game with a winner and a loser (a gain of 1 at every seat says the base game
    had no winner, of -1 no loser)."""
    for i, (win, score, role) in enumerate(seats):
        if win not in (-1, 0, 1):
            raise bad(f"seat {i}'s win gain is not -1, 0 or 1 (a game won or lost, minus another)")
        if not _whole(score):
            raise bad(f"seat {i}'s score gain is not a whole number: a game's scores are integers")
        if landlord_table is True and role is None:
            raise bad(f"seat {i} has no role: at a landlord table every seat is the landlord or a farmer")
        if landlord_table is False and role is not None:
            raise bad(f"seat {i} has a role: a table without a landlord has no roles")
    wins = {seat[0] for seat in seats}
    if wins == {1} or wins == {-1}:
        raise bad(f"every seat's win gain is {seats[0][0]}: the deal's base game would have had "
                  f"no {'winner' if wins == {1} else 'loser'}")


def _number(x: Any, bound: float) -> bool:
    """A finite JSON number (not a bool) of magnitude at most ``bound`` (an int of any
    size is compared as it is: no float conversion to overflow)."""
    if type(x) is int:
        return abs(x) <= bound
    return type(x) is float and math.isfinite(x) and abs(x) <= bound


#: the keys a record's lines have, which a message may name (any other is the file's content)
_KEYS = frozenset({"deal", "outcome", "times", "a", "b", "format", "spec", "spec_hash", "protocol", "seed",
                   "bots", "players", "ddzrules"})


def _append_line(f: IO[bytes], line: bytes, where: str) -> None:
    """``line`` written at the end of ``f`` whole, or not at all: a write that fails (a full
    disk) is cut back, and is a DdzError. Written on the file descriptor, not through the
    buffer, which would try the failed write again at every later flush and at close."""
    f.flush()
    fd = f.fileno()
    end = os.lseek(fd, 0, os.SEEK_END)
    try:
        view = memoryview(line)
        while view:
            view = view[os.write(fd, view):]
    except OSError as e:
        try:
            os.ftruncate(fd, end)
        except OSError:
            pass
        raise DdzError(f"{where}: cannot write the duel record ({e.strerror or type(e).__name__})") from None
    finally:
        f.seek(0, os.SEEK_END)  # the buffer's idea of the position, after writes past it


#: a line of a duel record under the one strict-JSON policy
LINE_JSON = JSONPolicy(max_bytes=MAX_LINE_BYTES)


def _parse(raw: bytes, where: str, number: int) -> Any:
    if len(raw) > MAX_LINE_BYTES:
        raise DdzError(f"{where}:{number}: a line longer than {MAX_LINE_BYTES:,} bytes")
    try:
        return parse_json(raw, LINE_JSON)
    except JSONRefused as e:
        if e.problem != "key":  # what is wrong, never where in the line: a line is the file's content
            raise DdzError(f"{where}:{number}: not a line of JSON") from None
        # a record's own key is named; another is the file's content, never echoed
        key = repr(e.key) if e.key in _KEYS else "a key"
        raise DdzError(f"{where}:{number}: {key} is given twice in one object (which one counts?)") from None
