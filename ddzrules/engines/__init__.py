"""Engine adapters: how ``ddzrules conformance run`` asks another engine the suite's questions.

An adapter is a class, found by name through the entry-point group
``ddzrules.engines`` (or given as ``module:Class``). It is built once per run as
``EngineClass(manifest, options)`` where ``manifest`` is the suite's
``manifest.json`` as a dict (it carries the resolved spec) and ``options`` the
``--option key=value`` pairs of the command line (``--spec`` is ``spec=...``).

Every capability is an optional method; a method the class does not define, or
one that raises :class:`Unsupported`, makes its vectors *skipped*, never passed.
Cards cross this boundary in ddzrules' canonical notation (ranks low to high
``3456789TJQKA2XD``, one character per card, sorted: ``T`` ten, ``X`` small joker
小王, ``D`` big joker 大王); the adapter owns the mapping to its engine's notation.

Capabilities (each answer in canonical notation):

``classify(cards, wild) -> Classification``
    Whether ``cards`` is one play and, if the adapter can say, its readings.
``compare(a, b, wild) -> bool``
    Whether the play ``a`` may be played on the play ``b`` (under some reading).
``moves(hand, after, wild) -> MovesAnswer``
    The distinct card sets ``hand`` may play (leading when ``after`` is None, else
    answering ``after``) and whether passing is legal.
``census() -> CensusAnswer``
    The move universe: distinct plays in total and, if the adapter can say, by combo.
``perft(position, depth[, budget]) -> PerftAnswer``
    The number of action sequences of exactly ``depth`` actions from ``position``
    and the divide per first play (see ``docs/conformance.md`` for the definition).
    An adapter whose ``perft`` takes a ``budget`` keyword is given the most positions
    (sequences of 1 to ``depth`` actions) its search may visit, and raises
    :class:`BudgetExceeded` past it, so that a vector cannot hold a run for hours.
``game(vector) -> GameAnswer``
    Replay a seeded game's actions and report what the engine saw.

An adapter should declare ``OPTIONS``, a tuple of the ``--option`` names it reads
(``()`` for none): :func:`open_engine` then refuses any other name before building it,
naming the ones it reads (an option nobody reads would otherwise be ignored, and the run
pass as if it had been). An adapter that declares none in its own class body (a subclass
of another adapter included) is given every option as it is.

An adapter may also define ``findings() -> list[Finding]``: facts it noticed
about its engine during the run that are not failures of the suite (its engine
disagreeing with itself, duplicates in its lists); the report prints them.

And ``known_defect(discrepancy: Discrepancy) -> str | None``: called for each way a
vector failed; it returns the name of a documented defect of the engine that
explains it (a key of the adapter's ``KNOWN_DEFECTS`` dict, whose values describe
each defect), or None. A vector whose every discrepancy is explained counts as
*known*, not failed, and the report lists the known defects with witnesses apart;
``run --strict`` counts them as failures. The predicate must be a property of the
engine's behaviour stated in its docs, never a list of vector ids.
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import metadata
from typing import Any, Protocol

from ddzrules.errors import BudgetExceeded as BudgetExceeded  # re-exported: it lived here
from ddzrules.errors import DdzError, brief
from ddzrules.errors import EngineError as EngineError  # re-exported: it lived here
from ddzrules.errors import Unsupported as Unsupported  # re-exported: it lived here

#: the entry-point group third-party adapters register under
ENTRY_POINT_GROUP = "ddzrules.engines"


@dataclass(frozen=True)
class Reading:
    """One reading of a play, in the suite's spec's terms (combo names of that spec)."""

    combo: str
    rank: str  # the rank of the main group as a card character, e.g. "4"
    length: int


@dataclass(frozen=True)
class Classification:
    """An engine's answer to "what is this set of cards?".

    ``readings`` is None when the adapter can only say whether it is a play.
    """

    play: bool
    readings: tuple[Reading, ...] | None = None


@dataclass(frozen=True)
class MovesAnswer:
    """The distinct card sets a hand may play, and whether passing is legal."""

    plays: frozenset[str]
    can_pass: bool
    #: plays the engine listed more than once (a finding, not a failure)
    duplicates: tuple[str, ...] = ()


@dataclass(frozen=True)
class CensusAnswer:
    total: int
    by_combo: dict[str, int] | None = None


@dataclass(frozen=True)
class PerftAnswer:
    nodes: int
    #: first play's cards (or "pass") -> sequences starting with it; None if not counted
    divide: dict[str, int] | None = None


@dataclass(frozen=True)
class GameAnswer:
    """What an engine saw replaying a game: legal actions at the checked steps (as
    the action strings of the vector), the final multiple, event names and scores.
    Fields the engine cannot report stay None and are not compared."""

    legal: dict[int, list[str]] | None = None
    multiple: float | None = None
    events: list[str] | None = None
    scores: list[int] | None = None
    error: str | None = None  # the engine refused an action of the record: where and why


@dataclass(frozen=True)
class Discrepancy:
    """One way an engine's answer differs from a vector's, as ``known_defect`` sees it.

    ``play`` is the card set concerned (for compare: the play on the left, ``other``
    the play it is put on); ``hand``/``after``/``wild`` the moves question."""

    category: str
    kind: str
    play: str | None = None
    other: str | None = None
    hand: str | None = None
    after: str | None = None
    wild: str | None = None


@dataclass(frozen=True)
class Finding:
    """Something an adapter noticed about its engine (not a failure of the suite)."""

    title: str
    detail: str
    witnesses: tuple[str, ...] = field(default=())


class Engine(Protocol):
    """The minimum an adapter has: a name. Every capability above is optional."""

    name: str


CAPABILITIES = ("classify", "compare", "moves", "census", "perft", "game")


def builtin_engines() -> dict[str, str]:
    """Engine names to ``module:Class`` of every registered adapter (entry points)."""
    return {ep.name: ep.value for ep in metadata.entry_points(group=ENTRY_POINT_GROUP)}


def load_engine_class(name: str) -> type:
    """The adapter class for ``name``: a registered engine name, or ``module:Class`` /
    ``path/to/file.py:Class`` imported as ``--plugin`` imports a plugin (a module of the
    current folder is found; a file is imported from its path). Any failure, and a class
    that is no adapter, is an :class:`EngineError`."""
    from ddzrules.runtime import import_class

    registered = builtin_engines()
    target = registered.get(name)
    if target is None and ":" not in name:
        known = ", ".join(sorted(registered)) or "none"
        raise EngineError(f"unknown engine {name!r}; registered engines: {known} "
                          "(or give a class as module:Class or path/to/file.py:Class)")
    try:
        cls = import_class(target or name, "--engine")
    except DdzError as e:
        raise EngineError(str(e)) from None
    return _adapter(name, cls)


def _adapter(name: str, cls: type) -> type:
    """``cls`` when it can be an adapter: built as ``Class(manifest, options)``, with at
    least one capability (a class with none would have every vector skipped, and pass)."""
    if not any(callable(getattr(cls, what, None)) for what in CAPABILITIES):
        raise EngineError(f"--engine {name!r}: {cls.__name__} is not an engine adapter "
                          f"(it has none of the methods {', '.join(CAPABILITIES)}; see ddzrules.engines)")
    try:
        inspect.signature(cls).bind(None, None)
    except TypeError:
        raise EngineError(f"--engine {name!r}: {cls.__name__} is not an engine adapter "
                          "(it is not built as Class(manifest, options))") from None
    except ValueError:  # no signature to read (a C type): building it will tell
        pass
    return cls


def engine_options(cls: type) -> tuple[str, ...] | None:
    """The option names an adapter class declares it reads (its own ``OPTIONS``), or None
    when it declares none (it is then given every option as it is). A subclass that does
    not declare its own is not held to its base's: it may read more."""
    declared = vars(cls).get("OPTIONS")
    if declared is None:
        return None
    if not isinstance(declared, tuple) or not all(isinstance(o, str) for o in declared):
        raise EngineError(f"{cls.__name__}.OPTIONS must be a tuple of option names")
    return declared


def options_phrase(known: tuple[str, ...]) -> str:
    """The declared options, for a message: ``its options: census`` or ``it takes no options``."""
    return f"its options: {', '.join(known)}" if known else "it takes no options"


def check_options(name: str, cls: type, options: Mapping[str, str]) -> None:
    """An :class:`EngineError` for an option the adapter ``cls`` (engine ``name``) does not
    declare in its ``OPTIONS``; nothing for an adapter that declares none."""
    known = engine_options(cls)
    if known is None:
        return
    for key in options:
        if key not in known:
            raise EngineError(f"--option {brief(key)}: the {name} engine has no such option "
                              f"({options_phrase(known)})")


def open_engine(name: str, manifest: dict[str, Any], options: dict[str, str]) -> Any:
    """Build the adapter for a suite. Errors (a missing package, an option it does not
    read, a bad option value) become :class:`EngineError` with the adapter's own message."""
    cls = load_engine_class(name)
    check_options(name, cls, options)
    try:
        return cls(manifest, options)
    except (DdzError, Unsupported) as e:
        raise EngineError(f"engine {name!r}: {e}") from None
    except ImportError as e:
        raise EngineError(f"engine {name!r} needs a package that is not installed: {e}") from None
    except Exception as e:  # noqa: BLE001 - a third party's constructor
        raise EngineError(f"engine {name!r} could not start: {type(e).__name__}: {e}") from None
    except SystemExit as e:  # sys.exit in a constructor ended the run with its status and no word
        raise EngineError(f"engine {name!r} could not start: it called sys.exit({brief(e.code)})") from None


def capability(engine: Any, what: str) -> Any:
    """The engine's method for a capability, or None when it has none."""
    fn = getattr(engine, what, None)
    return fn if callable(fn) else None


# ====================================================================== helpers for adapters


def require_one_deck(manifest: dict[str, Any], engine: str) -> None:
    """Refuse a suite whose spec is not played with one standard 54-card deck, or has
    wild cards: an engine with one hard-coded deck cannot be asked about those rules."""
    spec = manifest.get("spec_resolved") or {}
    deck = spec.get("deck") or {}
    if int(deck.get("decks", 1)) != 1 or not bool(deck.get("jokers", True)):
        raise Unsupported(f"{engine} plays one 54-card deck; the suite's spec "
                          f"{manifest.get('spec')!r} uses {deck}")
    if spec.get("wildcards"):
        raise Unsupported(f"{engine} has no wild cards; the suite's spec "
                          f"{manifest.get('spec')!r} has wildcards: {spec['wildcards']}")


def no_wild(wild: str | None, engine: str) -> None:
    if wild is not None:
        raise Unsupported(f"{engine} has no wild cards (asked with wild {wild})")


class FindingNotes:
    """Findings gathered while an adapter runs: per title, the distinct witnesses seen
    (counted) and a detail naming the count. Distinct, because a run asks about the
    same hand many times (shrinking does) and a count of calls would mean nothing."""

    def __init__(self, witnesses: int = 5) -> None:
        self._witnesses = witnesses
        self._items: dict[str, tuple[str, dict[str, tuple[Any, ...]]]] = {}

    def add(self, title: str, detail: str, witness: str, key: tuple[Any, ...]) -> None:
        """``detail`` may use ``{n:,}`` for the number of distinct witnesses."""
        entry = self._items.setdefault(title, (detail, {}))
        entry[1].setdefault(witness, key)

    def count(self, title: str) -> int:
        entry = self._items.get(title)
        return len(entry[1]) if entry else 0

    def findings(self) -> list[Finding]:
        out = []
        for title, (detail, seen) in self._items.items():
            smallest = sorted(seen, key=seen.__getitem__)[:self._witnesses]
            out.append(Finding(title, detail.format(n=len(seen)), tuple(smallest)))
        return out
