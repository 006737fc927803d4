"""Errors a user can cause, each saying what went wrong and where.

Every error a spec can raise carries ``file:line:column``, the key path inside
the spec and a plain message; the CLI prints them and exits 1, never a traceback.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

#: half a UTF-16 pair, which a YAML or JSON escape (``"\\ud800"``) reads as: no character
#: (encoding it fails), refused wherever text comes in: specs, records, playground requests
LONE_SURROGATE = re.compile("[\ud800-\udfff]")
#: how a message names one
LONE_SURROGATE_WORDS = "a lone surrogate (an escape such as \\ud800 that is no character)"
#: the JSON escape of a surrogate, in the text: where none is, no parsed string holds one
SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def has_lone_surrogate(value: object) -> bool:
    """Whether a parsed JSON or YAML value holds a string (a key or a value, at any depth)
    with a :data:`LONE_SURROGATE`: such a string can be neither printed nor written as UTF-8.

    >>> has_lone_surrogate({"a": ["ok", "\\ud800"]}), has_lone_surrogate({"\\U0001f600": 1})
    (True, False)
    """
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if LONE_SURROGATE.search(item):
                return True
        elif isinstance(item, dict):
            stack += item
            stack += item.values()
        elif isinstance(item, list):
            stack += item
    return False


class DdzError(Exception):
    """Base of every error caused by user input (cards, specs, plays).

    Every error of ddzrules survives a process boundary (a worker of ``simulate --workers``
    raises it, the parent reads it): an error pickles as its class, its ``args`` and its
    attributes, and is unpickled without calling its ``__init__``, whose parameters are
    not its ``args`` (``PluginError(plugin, hook, problem)`` has one message). Without it,
    unpickling one in the parent failed, which stopped the pool's result thread and hung
    the run."""

    def __reduce__(self) -> tuple[Any, ...]:
        return _rebuilt, (type(self), self.args, dict(vars(self)))


def _rebuilt(cls: type[BaseException], args: tuple[Any, ...], state: dict[str, Any]) -> BaseException:
    """An error of ``cls`` with these ``args`` and attributes, its ``__init__`` not called."""
    error = cls.__new__(cls, *args)
    error.args = args
    vars(error).update(state)
    return error


def portable(error: BaseException) -> BaseException:
    """``error`` itself when it survives pickling (its type, message and attributes read back
    alike), else a :class:`DdzError` saying what it was: what a worker process raises must
    reach its parent, whatever a plugin or a bot raised inside it."""
    import pickle

    try:
        back = pickle.loads(pickle.dumps(error))
        if type(back) is type(error) and str(back) == str(error):
            return error
    except Exception:  # noqa: BLE001, S110 - any failure to pickle or unpickle: replaced below
        pass
    try:
        text = str(error)
    except Exception:  # noqa: BLE001 - a hostile __str__
        text = ""
    kind = escaped(type(error).__name__)
    text = escaped(text)
    text = text if len(text) <= MAX_MESSAGE else text[:MAX_MESSAGE - 1] + "…"
    return DdzError(f"{kind}: {text}" if text else kind)


class Stopped(BaseException):
    """The work stopped from outside (a signal: the playground stopping a worker). Not an
    :class:`Exception`, so no handler of bad input catches it; and not plugin code's own
    failure, so calls into plugins let it through, as they let ``KeyboardInterrupt``
    through (a plugin's ``SystemExit`` or ``GeneratorExit`` is a PluginError)."""


#: what calls into user code (plugins) let through: a stop from outside, not the code's failure
STOPS: tuple[type[BaseException], ...] = (KeyboardInterrupt, Stopped)


def brief(value: object, limit: int = 40) -> str:
    """``repr(value)`` for a message: clipped to ``limit`` characters, control characters
    escaped (as repr does for strings), and never raising (repr of an int of more than
    4,300 digits does)."""
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 - a message about bad input must never fail itself
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[:limit - 1] + "…"


def escaped(text: str) -> str:
    """``text`` with every character that does not print (control characters, the
    escape of a terminal sequence) written as its escape, as repr writes it (``\\x1b``)."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)


@dataclass(frozen=True)
class Location:
    """A place in a spec file; lines and columns are 1-based."""

    file: str
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a spec."""

    location: Location | None
    path: str  # key path, e.g. "combos.plane.pattern"
    message: str
    excerpt: str = ""  # the offending source line with a caret under the column
    #: "error" stops a spec from loading; "warning" is a likely mistake (``validate --strict``)
    severity: str = "error"
    #: a stable, machine-readable kind (``schema``, ``unknown-rank``, …); "" when unclassified
    code: str = ""
    #: how to fix it, when there is one obvious fix
    hint: str = ""

    def __post_init__(self) -> None:
        # bounded whatever made it: a value of 60,000 characters, a source line of 40,000
        # (a flow list on one line) were printed whole
        if len(self.message) > MAX_MESSAGE:
            object.__setattr__(self, "message", self.message[:MAX_MESSAGE - 1] + "…")
        if len(self.excerpt) > 2 * EXCERPT_WINDOW + 20:
            object.__setattr__(self, "excerpt", _windowed(self.excerpt))

    def __str__(self) -> str:
        where = f"{self.location}: " if self.location else ""
        at = f"{self.path}: " if self.path else ""
        text = f"{where}{at}{self.message}"
        text = f"{text}\n{self.excerpt}" if self.excerpt else text
        return f"{text}\n  hint: {self.hint}" if self.hint else text


#: the longest message of a Problem, and how many characters of a source line an excerpt
#: shows on each side of its caret
MAX_MESSAGE = 500
EXCERPT_WINDOW = 80


def _windowed(excerpt: str) -> str:
    """An excerpt (``"  LINE\n  ^"``, the caret under a column) cut to a window of the line
    around the caret; an excerpt of another shape, each line cut."""
    lines = excerpt.split("\n")
    if len(lines) == 2 and lines[1].strip() == "^" and lines[0].startswith("  "):
        src, at = lines[0][2:], len(lines[1]) - 3  # the caret's index in the line
        start = max(0, at - EXCERPT_WINDOW)
        end = at + EXCERPT_WINDOW
        shown = ("…" if start else "") + src[start:end] + ("…" if end < len(src) else "")
        return f"  {shown}\n  {' ' * (at - start + (1 if start else 0))}^"
    return "\n".join(line if len(line) <= 2 * EXCERPT_WINDOW else line[:2 * EXCERPT_WINDOW] + "…" for line in lines)


class SpecError(DdzError):
    """A spec that cannot be loaded or compiled; holds every problem found."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


class PlayError(DdzError):
    """An illegal play or action; the game state is left unchanged."""


class PluginError(DdzError):
    """A plugin that failed: one of its hooks (or a method of a phase it made) raised, or
    answered what the hook's contract does not allow (a wrong type, NaN, an infinite or
    negative factor, a seat that does not exist …). The message names the plugin and the
    hook; the game is left as it was before the action that ran it."""

    def __init__(self, plugin: str, hook: str, problem: str) -> None:
        self.plugin = plugin
        self.hook = hook
        self.problem = problem
        super().__init__(f"plugin {plugin!r}, {hook}: {problem}")


# the environment's errors (ddzrules.env re-exports them)
class WriteRefused(DdzError, ValueError):
    """A value set on a game that a game cannot hold (a stake that is no number from 0 to
    the factor limit, a landlord that is no seat …): refused when set, the game unchanged.
    Set by plugin code, it becomes a :class:`PluginError` naming the plugin."""


class IllegalActionError(DdzError, ValueError):
    """An action id out of range, or not legal now (masked out)."""


class SeedError(DdzError, ValueError):
    """A seed the environment cannot replay (see :func:`ddzrules.env.game_seed`)."""


class ArgumentError(DdzError, ValueError):
    """An argument of an environment that is no value it takes (``num_tables``, a table's
    index, ``normalize`` …): the message names the argument and says what it takes."""


class NotResetError(DdzError, RuntimeError):
    """The environment used (``step``, ``observe``, ``last``) before ``reset()``."""


class TableError(DdzError):
    """A table of a batched environment (:class:`ddzrules.env.batch.BatchEnv`) whose game
    raised while it took its action: that game is as it was, the other tables took theirs.
    ``tables`` are the tables whose games raised, ``errors`` their errors, and ``result``
    what ``step()`` would have returned, (obs, rewards, terminated, info): nothing of the
    step is lost, and the batch steps on from it."""

    def __init__(self, message: str, tables: list[int], errors: list[Exception], result: tuple[Any, ...]) -> None:
        super().__init__(message)
        self.tables = tables
        self.errors = errors
        self.result = result


# the conformance suite's (ddzrules.conformance re-exports it)
class SuiteError(DdzError):
    """A suite that cannot be read: missing, corrupt or of another format."""


class BudgetExceeded(Exception):
    """Raised by a search (perft) that visited more positions than its budget allows:
    the vector fails with this message and the run goes on."""


# the errors and warnings of the modules that raise them (each re-exports its own, where it
# was first defined: ddzrules.cards.CardError and so on)


class CardError(DdzError, ValueError):
    """Cards that cannot be read. From a card string, ``position`` says which character
    (the message shows the string with a caret under it); ``position`` is None for cards
    that are no set of cards at all (a rank index out of range, more of a rank than a
    packed count holds, not cards). A ValueError too, for callers that catch that."""

    def __init__(self, text: str, position: int | None, message: str) -> None:
        self.text = text
        self.position = position
        if position is None:
            super().__init__(message)
            return
        shown, caret = caret_line(text, position)
        super().__init__(f"{message} at position {position + 1} of {brief(text, 80)}\n  {shown}\n  {caret}")


#: how many characters of a long card string the caret line shows on each side of the error
CARET_WINDOW = 30


def caret_line(text: str, position: int) -> tuple[str, str]:
    """The card string as the caret line shows it, and the caret under ``position``:
    control characters written as escapes (``\\x1b``), so that a message never carries a
    terminal escape sequence, and a long string cut to a window around the error."""
    start = max(0, position - CARET_WINDOW)
    end = position + CARET_WINDOW
    before = escaped(text[start:position])
    shown = ("…" if start else "") + before + escaped(text[position:end]) + ("…" if end < len(text) else "")
    return shown, " " * (len(before) + (1 if start else 0)) + "^"


class PatternSyntaxError(DdzError, ValueError):
    """A pattern that does not parse; carries the line, column and a caret. A ValueError
    too, for callers that catch that."""

    def __init__(self, message: str, text: str, line: int, column: int) -> None:
        self.message = message
        self.text = text
        self.line = line
        self.column = column
        super().__init__(f"{message} (line {line}, column {column})\n{caret_excerpt(text, line, column)}")


def caret_excerpt(text: str, line: int, column: int) -> str:
    lines = text.splitlines() or [""]
    src = lines[min(line, len(lines)) - 1]
    if not src.isprintable():  # control characters as escapes: no terminal escape sequence
        before = escaped(src[:column - 1])
        src, column = before + escaped(src[column - 1:]), len(before) + 1
    return f"  {src}\n  {' ' * (column - 1)}^"


class ReplayError(DdzError):
    """A record that does not replay: says where it first diverges."""

    def __init__(self, message: str, action_index: int | None = None) -> None:
        self.action_index = action_index
        where = f"action #{action_index + 1}: " if action_index is not None else ""
        super().__init__(f"{where}{message}")


class Unsupported(Exception):
    """Raised by an adapter for a question its engine cannot answer (the vector is skipped)."""


class EngineError(DdzError):
    """An adapter that cannot be found, built or used."""


class CacheWarning(UserWarning):
    """A table cache file that was not trusted: the table was rebuilt from the spec."""


class JobError(Exception):
    """A job that gave no answer: ``status`` is the HTTP status to answer with (422 for a
    user's mistake, 503 for a bound that stopped it, 500 for a fault of the server)."""

    def __init__(self, message: str, status: int = 422) -> None:
        super().__init__(message)
        self.message, self.status = message, status


class OverTime(Stopped):
    """Raised inside the work when a time bound of the playground passes
    (:mod:`ddzrules.web.deadline`): not an :class:`Exception`, so no handler of the work
    (``except Exception``) swallows it, and a :class:`Stopped`, so calls into plugin code
    let it through rather than blame the plugin. ``end`` is the bound's end (:func:`time.monotonic`)."""

    def __init__(self, end: float = math.inf) -> None:
        super().__init__(end)
        self.end = end


class FileRefused(DdzError):
    """A file :func:`ddzrules.untrusted.read_regular` (or ``open_regular``) would not read: ``problem`` is
    ``"missing"``, ``"not regular"`` (``kind`` says what it is), ``"too large"`` (``size``
    is its size when it was known before reading, None when it grew while read) or
    ``"unreadable"`` (``reason``: the system's words). The message names the file and
    the limit; a caller with its own words builds them from these fields."""

    def __init__(self, path: str, problem: str, limit: int, kind: str | None = None,
                 size: int | None = None, reason: str | None = None) -> None:
        self.path, self.problem, self.limit = path, problem, limit
        self.kind, self.size, self.reason = kind, size, reason
        super().__init__(self.describe())

    def describe(self) -> str:
        if self.problem == "missing":
            return f"{self.path}: no such file"
        if self.problem == "not regular":
            return f"{self.path} is {self.kind}, not a regular file"
        if self.problem == "too large":
            said = f"{self.size:,} bytes, larger than" if self.size is not None else "larger than"
            return f"{self.path}: {said} the limit of {self.limit:,} bytes"
        return f"cannot read {self.path}: {self.reason}"


class JSONRefused(DdzError):
    """JSON text :func:`ddzrules.untrusted.parse_json` refuses: ``reason`` says why, ``line`` and ``column``
    (1-based) where, ``problem`` what kind of thing: ``"size"``, ``"encoding"``,
    ``"syntax"`` (``syntax`` is then the decoder's own words), ``"key"`` (``key`` is the
    key given twice), ``"number"`` (``field`` is the path of the number: ``expect/nodes/0``;
    a key that is not a plain name is ``<key>``), ``"depth"`` or ``"surrogate"``.
    The message is ``line:column: reason``; it quotes the text only in a repeated key,
    shortened and with unprintable characters replaced."""

    def __init__(self, problem: str, reason: str, line: int = 1, column: int = 1, key: str | None = None,
                 field: str | None = None, syntax: str | None = None) -> None:
        self.problem, self.reason, self.line, self.column = problem, reason, line, column
        self.key, self.field, self.syntax = key, field, syntax
        super().__init__(f"{line}:{column}: {reason}")
