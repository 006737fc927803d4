"""A duel's record: each deal's outcome appended to a file as it finishes, so that a long
duel (hours on a slow spec) survives being stopped and resumes where it was.

The file is JSON lines: a header naming the duel (spec and its content hash, protocol,
seed, bots, the ddzrules version that plays it), then one line a deal (its index, what the protocol keeps of its games, each
side's decision times in seconds). A duel given a record reads the deals it holds, plays
the others, and computes its figures from all of them in deal order, so a resumed duel
gives the figures of one played at once (decision times aside: they are of the machines
that played).

A record is read as untrusted input: a regular file of bounded size, every line checked
(types, ranges, lengths, finite numbers, no deal twice) before any figure is taken from
it; a bad one is refused with its line number and what is wrong, never its content, and
the file is left as it was. A last line cut off by a stopped write (no newline) is
dropped before the duel appends.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "duel.jsonl"
>>> head = {"spec": "erren", "spec_hash": "0" * 64, "protocol": "duplicate", "seed": 1,
...         "bots": ["heuristic", "random"], "players": 2}
>>> rec = DuelRecord(path, head)
>>> rec.open()
{}
>>> rec.append(0, [[1.0, 2.0, "landlord"], [0.0, 0.0, "farmer"]], {"a": [0.01], "b": [0.0]})
>>> sorted(DuelRecord(path, head).open())
[0]
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Any

from ddzrules.cache import read_regular
from ddzrules.errors import DdzError

FORMAT = "ddzrules-duel/1"
#: the largest record read (a deal's line is some hundreds of bytes to a few KB)
MAX_RECORD_BYTES = 256 * 1024 * 1024
#: the longest line of a record
MAX_LINE_BYTES = 1024 * 1024
#: the most decisions one side may have in a deal's line
MAX_DECISIONS = 100_000
#: the longest role name
MAX_ROLE = 32
#: the largest magnitude of a score gain or of points (settlements are far below)
MAX_POINTS = 1e15

#: one deal as the duel keeps it: (what the protocol keeps of its games, decision times by side)
Deal = tuple[Any, dict[str, list[float]]]


class DuelRecord:
    """The record file of one duel, named by ``header`` (spec, spec_hash, protocol,
    seed, bots, players)."""

    def __init__(self, path: str | os.PathLike[str], header: dict[str, Any]) -> None:
        self.path = Path(path)
        self.header = {"format": FORMAT, **header}

    def open(self) -> dict[int, Deal]:
        """The deals the record holds (none when the file is new: it is made with its
        header); a DdzError when it is not a record of this duel or a line is bad."""
        where = str(self.path)
        try:
            data = read_regular(self.path, MAX_RECORD_BYTES)
        except ValueError as e:
            raise DdzError(f"{where}: cannot be a duel record: {e}") from None
        except OSError as e:
            raise DdzError(f"{where}: cannot read it ({e.strerror or type(e).__name__})") from None
        if data is None:  # a new record
            self._write(json.dumps(self.header, sort_keys=True) + "\n", "x")
            return {}
        lines = data.split(b"\n")
        cut = lines.pop()  # after the last newline: empty, or a line a stopped write cut off
        if not lines:
            raise DdzError(f"{where}:1: no header line: not a duel record")
        self._check_header(_parse(lines[0], where, 1), where)
        deals: dict[int, Deal] = {}
        for number, raw in enumerate(lines[1:], start=2):
            deal, outcome, times = self._check_row(_parse(raw, where, number), where, number)
            if deal in deals:
                raise DdzError(f"{where}:{number}: deal {deal} is recorded twice")
            deals[deal] = (outcome, times)
        if cut:  # dropped, so that the next line starts on a line of its own
            try:
                with open(self.path, "r+b") as f:
                    f.truncate(len(data) - len(cut))
            except OSError as e:
                raise DdzError(f"{where}: cannot drop its cut-off last line ({e.strerror})") from None
        return deals

    def append(self, deal: int, outcome: Any, times: dict[str, list[float]]) -> None:
        """Add a deal that finished (one line, flushed at once)."""
        row = {"deal": deal, "outcome": outcome, "times": {"a": times["a"], "b": times["b"]}}
        self._write(json.dumps(row, allow_nan=False) + "\n", "a")

    def _write(self, text: str, mode: str) -> None:
        try:
            with open(self.path, mode, encoding="utf-8") as f:
                f.write(text)
        except OSError as e:
            raise DdzError(f"{self.path}: cannot write the duel record ({e.strerror or type(e).__name__})") from None

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
                        or not _number(seat[1], MAX_POINTS)
                        or not (seat[2] is None or (isinstance(seat[2], str) and len(seat[2]) <= MAX_ROLE))):
                    raise bad("a seat's result is not [win gain -1 to 1, score gain, role]")
            outcome = [tuple(seat) for seat in outcome]
        else:
            if not isinstance(outcome, list) or len(outcome) > 2:
                raise bad("the outcome is not the results of at most two games")
            for game in outcome:
                if (not isinstance(game, list) or len(game) != 2 or type(game[0]) is not bool
                        or not _number(game[1], MAX_POINTS)):
                    raise bad("a game's result is not [won, points]")
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


def _number(x: Any, bound: float) -> bool:
    """A finite JSON number (not a bool) of magnitude at most ``bound``."""
    return type(x) in (int, float) and math.isfinite(x) and abs(x) <= bound


def _parse(raw: bytes, where: str, number: int) -> Any:
    if len(raw) > MAX_LINE_BYTES:
        raise DdzError(f"{where}:{number}: a line longer than {MAX_LINE_BYTES:,} bytes")

    def refuse(_: str) -> Any:
        raise ValueError("not a finite number")

    try:
        return json.loads(raw.decode("utf-8"), parse_constant=refuse)
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise DdzError(f"{where}:{number}: not a line of JSON") from None
