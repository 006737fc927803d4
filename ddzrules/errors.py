"""Errors a user can cause, each saying what went wrong and where.

Every error a spec can raise carries ``file:line:column``, the key path inside
the spec and a plain message; the CLI prints them and exits 1, never a traceback.
"""

from __future__ import annotations

from dataclasses import dataclass


class DdzError(Exception):
    """Base of every error caused by user input (cards, specs, plays)."""


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

    def __str__(self) -> str:
        where = f"{self.location}: " if self.location else ""
        at = f"{self.path}: " if self.path else ""
        text = f"{where}{at}{self.message}"
        text = f"{text}\n{self.excerpt}" if self.excerpt else text
        return f"{text}\n  hint: {self.hint}" if self.hint else text


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
class IllegalActionError(DdzError, ValueError):
    """An action id out of range, or not legal now (masked out)."""


class SeedError(DdzError, ValueError):
    """A seed the environment cannot replay (see :func:`ddzrules.env.game_seed`)."""


class NotResetError(DdzError, RuntimeError):
    """The environment used (``step``, ``observe``, ``last``) before ``reset()``."""


# the conformance suite's (ddzrules.conformance re-exports it)
class SuiteError(DdzError):
    """A suite that cannot be read: missing, corrupt or of another format."""


class BudgetExceeded(Exception):
    """Raised by a search (perft) that visited more positions than its budget allows:
    the vector fails with this message and the run goes on."""
