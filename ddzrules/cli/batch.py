"""``--batch``: many questions of ``classify``, ``compare`` or ``moves`` in one process,
JSON Lines in and out (docs/batch.md). Each line is untrusted input, read under the one
strict-JSON policy (:mod:`ddzrules.untrusted`); a bad line is answered with its error
and the batch goes on."""

from __future__ import annotations

import json
import os
import stat
import sys
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from typing import IO, Any, Literal, NoReturn, overload

import click

from ddzrules.cli.common import fail, plain
from ddzrules.errors import DdzError
from ddzrules.untrusted import JSONPolicy, JSONRefused, parse_json

batch_option = click.option(
    "--batch", default=None, metavar="FILE",
    help="Answer many questions in one process: JSON Lines in (FILE, or - for stdin), "
         "one JSON answer per line out (see docs/batch.md).")


class _BadLine(Exception):
    """A batch line that is not a question (not JSON, a missing or mistyped field)."""


_JSON_TYPES = {dict: "an object", list: "an array", bool: "a boolean", int: "a number",
               float: "a number"}


@overload
def text_field(q: dict[str, Any], name: str, default: str | None = None, *,
                required: Literal[True]) -> str: ...


@overload
def text_field(q: dict[str, Any], name: str, default: str | None = None,
                required: bool = False) -> str | None: ...


def text_field(q: dict[str, Any], name: str, default: str | None = None,
                required: bool = False) -> str | None:
    """The string field ``name`` of a question; ``default`` when absent (``null`` when
    given as null), an error when required and absent."""
    if name not in q:
        if required:
            raise _BadLine(f"missing field {name!r}")
        return default
    value = q[name]
    if value is None and not required:
        return None
    if not isinstance(value, str):
        kind = "null" if value is None else _JSON_TYPES.get(type(value), type(value).__name__)
        raise _BadLine(f"field {name!r} must be a string, not {kind}")
    return value


#: a question (a decoded line) and the command line's --wild → the answer's fields
Answer = Callable[[dict[str, Any], str | None], dict[str, Any]]


def answer_line(raw: bytes | str, number: int, fields: tuple[str, ...],
                 answer: Answer, wild: str | None) -> tuple[str, bool] | None:
    """The JSON answer to one batch line and whether it is an error (None for a blank
    line)."""
    head: dict[str, Any] = {}
    error = False
    try:
        try:
            text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
        except UnicodeDecodeError as e:
            raise _BadLine(f"not UTF-8 text (byte {e.start + 1})") from None
        if number == 1:
            text = text.removeprefix("\ufeff")
        if not text.strip():
            return None
        try:
            q = parse_json(text, BATCH_JSON)
        except JSONRefused as e:
            raise _BadLine(f"not JSON: {e.syntax} at column {e.column}" if e.problem == "syntax"
                           else "a line nested too deeply to read" if e.problem == "depth"
                           else e.reason) from None
        if not isinstance(q, dict):
            raise _BadLine("a line must be a JSON object, e.g. " + _EXAMPLES[fields[0]])
        if "id" in q:
            head["id"] = q["id"]
        unknown = [k for k in q if k not in fields and k != "id"]
        if unknown:
            allowed = ", ".join(f"{f!r}" for f in (*fields, "id"))
            raise _BadLine(f"unknown field {unknown[0]!r} (the fields are {allowed})")
        out = {**head, **answer(q, wild)}
    except (_BadLine, DdzError, ValueError) as e:
        out = {**head, "line": number, "error": plain(str(e))}
        error = True
    try:
        return json.dumps(out, separators=(",", ":")), error
    except (ValueError, RecursionError):  # an id nested too deeply to write back
        return json.dumps({"line": number, "error": "the id is nested too deeply"}), True


_EXAMPLES = {"cards": '{"cards": "333444+69"}', "a": '{"a": "2222", "b": "XD"}',
             "hand": '{"hand": "3456789TT", "after": "34567"}'}


#: the longest --batch line read (a question is a few hundred bytes); a longer one is
#: answered with an error and skipped without being held in memory
MAX_BATCH_LINE = 64 * 1024
#: a --batch line under the one strict-JSON policy (a question nests two levels; an id may nest)
BATCH_JSON = JSONPolicy(max_bytes=MAX_BATCH_LINE)
#: how much of one over-long line is read and dropped before the rest of the input is
#: left unread (a stream with no line end, such as /dev/zero, would be read forever)
MAX_BATCH_DROPPED = 16 << 20


def bounded_lines(stream: IO[Any]) -> Iterator[bytes | str | None]:
    """The lines of ``stream``, each at most :data:`MAX_BATCH_LINE` long; ``None`` in
    place of a longer line, whose rest is read and dropped in pieces of that size."""
    while True:
        line = stream.readline(MAX_BATCH_LINE + 1)
        if not line:
            return
        if len(line) <= MAX_BATCH_LINE or line[-1:] in (b"\n", "\n"):
            yield line
            continue
        dropped = len(line)
        while line and line[-1:] not in (b"\n", "\n"):
            if dropped > MAX_BATCH_DROPPED:  # no line end in sight: the rest is not read
                yield None
                return
            line = stream.readline(MAX_BATCH_LINE)
            dropped += len(line)
        yield None


def run_batch(source: str, fields: tuple[str, ...], answer: Answer, wild: str | None) -> NoReturn:
    """Answer every line of ``source`` (a file, or ``-`` for stdin) in order, one JSON
    line each, flushed as it is written; exit 1 when any line had an error."""
    with ExitStack() as closing:
        if source == "-":
            stream: IO[Any] = getattr(sys.stdin, "buffer", sys.stdin)
        else:
            try:
                stream = closing.enter_context(open(source, "rb"))
                mode = os.fstat(stream.fileno()).st_mode
            except OSError as e:
                fail(f"cannot read the --batch file {source!r}: {e.strerror or e}")
            # a file or a pipe (--batch <(…)); a device (/dev/zero) is no file of questions
            if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
                fail(f"cannot read the --batch file {source!r}: a device, not a file of questions")
        failed = False
        for number, raw in enumerate(bounded_lines(stream), 1):  # line by line, also from a pipe
            answered = (answer_line(raw, number, fields, answer, wild) if raw is not None else
                        (json.dumps({"line": number, "error": f"line longer than {MAX_BATCH_LINE:,} "
                                     "bytes: not read"}, separators=(",", ":")), True))
            if answered is None:
                continue
            line, error = answered
            failed = failed or error
            sys.stdout.write(line + "\n")
            sys.stdout.flush()
    sys.exit(1 if failed else 0)


def batch_usage(batch: str | None, given: dict[str, Any], needed: tuple[str, ...]) -> None:
    """A usage error when a question's arguments (``given``, by name) come with --batch,
    or when one of ``needed`` is missing without it (so each of them is given then)."""
    if batch is not None:
        for name, value in given.items():
            if value:
                raise click.UsageError(f"{name} and --batch do not go together: each line of "
                                       "the --batch file is one question.")
        return
    for name in needed:
        if given[name] is None:
            raise click.UsageError(f"Missing {name} (or give --batch FILE).")
