"""What the runtime accepts of plugin code's answers: each hook's answer and each phase
method's, checked against the contracts of :mod:`ddzrules.hookspecs` (a check returns the
answer as the runtime keeps it or raises ValueError saying what is wrong), and the limits
on factors and scores."""

from __future__ import annotations

import math
import operator
from itertools import islice
from typing import Any, cast

from ddzrules import cards as C
from ddzrules.errors import brief, escaped
from ddzrules.game.values import Action, GameState, MultiplierEvent

#: a float, exact for integers up to 2**53 (and a larger int would not even convert)
FACTOR_LIMIT = 2**53
#: a score beyond ±this is refused (records and engines read scores as 64-bit integers)
SCORE_LIMIT = 2**63
#: how much of an exception's text a PluginError quotes (one line, control characters escaped)
_QUOTE_LIMIT = 200
#: the most items the runtime reads of a list a plugin answers (the phases a hook makes, the
#: actions a phase offers, the events of one call, the decisions ddzrules_actions declares):
#: one item past it is read, never more, and the answer is refused; an answer whose size the
#: call fixes is held to that size (a restriction to the actions it was given, a deal to the
#: deck, scores to the seats). A list that claims to be one but iterates for ever was read
#: until memory ran out.
MAX_ITEMS = 1000


def raised_text(e: BaseException) -> str:
    """What plugin code raised, for a message: its type and its text, on one line and clipped."""
    try:
        text = str(e)
    except Exception:  # noqa: BLE001 - a hostile __str__ must not hide the failure
        text = ""
    text = escaped(text)
    if len(text) > _QUOTE_LIMIT:
        text = text[:_QUOTE_LIMIT - 1] + "…"
    kind = escaped(type(e).__name__)
    return f"raised {kind}: {text}" if text else f"raised {kind}"


def number_problem(value: object, zero_ok: bool) -> str | None:
    """Why ``value`` is not a finite int or float above 0 (0 included when ``zero_ok``) and at
    most FACTOR_LIMIT, or None when it is one."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return f"{brief(value)}, not a number"
    if isinstance(value, float) and math.isnan(value):  # (a huge int does not convert)
        return "NaN"
    if value in (math.inf, -math.inf):
        return f"{value}, not finite"
    if value < 0 or (value == 0 and not zero_ok):
        return f"{value}, {'below' if zero_ok else 'not above'} 0"
    if value > FACTOR_LIMIT:
        return f"{brief(value)}, above 2**53"
    return None


def param_numbers(params: object, path: tuple[str | int, ...] = ()) -> list[tuple[tuple[str | int, ...], str]]:
    """Every number of a plugin's parameters (at any depth) the runtime could not take, with
    its key path and why: above 2**53 in size (a factor, a stake or a score built from it is
    refused past :data:`FACTOR_LIMIT`). GameRules checks a plugin's parameters with it when
    it activates the plugin, so validate (which activates them) refuses at the parameter
    what a game would refuse when it met it. Bounded: a spec holds at most 20,000 values."""
    out: list[tuple[tuple[str | int, ...], str]] = []
    stack: list[tuple[tuple[str | int, ...], object]] = [(path, params)]
    while stack:
        where, value = stack.pop()
        if isinstance(value, dict):
            stack += [(where + (k,), v) for k, v in value.items()]
        elif isinstance(value, list):
            stack += [(where + (i,), v) for i, v in enumerate(value)]
        elif (isinstance(value, (int, float)) and not isinstance(value, bool)
              and not -FACTOR_LIMIT <= value <= FACTOR_LIMIT):
            out.append((where, (f"{brief(value)} is beyond ±2**53, the largest number the runtime "
                                "takes of a factor, a stake or a score")))
    return sorted(out, key=lambda found: str(found[0]))


def factor_problem(value: object) -> str | None:
    """Why ``value`` is not a multiplier or pairwise factor (a finite number above 0)."""
    return number_problem(value, zero_ok=False)


def event_problem(event: object) -> str | None:
    """Why ``event`` is not a MultiplierEvent with a factor a finite number above 0."""
    if not isinstance(event, MultiplierEvent):
        return f"{brief(event)}, not a MultiplierEvent"
    # read untyped: compiled code would check it as int | float first
    problem = factor_problem(getattr(event, "factor", None))
    return None if problem is None else f"event {brief(event.name)} with factor {problem}"


def _seat_of(game: GameState, value: object, what: str) -> int:
    """``value`` as a seat of ``game`` (an int, or an integer type's __index__); ValueError
    saying what it is otherwise."""
    if type(value) is int and 0 <= value < game.players:
        return value
    if isinstance(value, bool) or not hasattr(type(value), "__index__"):
        raise ValueError(f"answered {brief(value)} as {what}, not a seat 0-{game.players - 1}")
    seat = operator.index(value)  # type: ignore[arg-type]
    if not 0 <= seat < game.players:
        raise ValueError(f"answered seat {brief(seat)} as {what}; the seats are 0-{game.players - 1}")
    return seat


def answer_items(value: object, what: str, limit: int = MAX_ITEMS) -> list[Any]:
    """A plugin's list (or tuple) answer as a list of at most ``limit`` items; ValueError for
    anything else (an iterator or generator, which could be endless, included) and for more
    items, of which one past the limit is read (a list subclass's own iteration, which may
    not end, included)."""
    kind = type(value)
    if kind is list or kind is tuple:  # the usual answer: its length is its own
        if len(value) > limit:  # type: ignore[arg-type]
            raise ValueError(f"answered {len(value):,} {what}; at most {limit:,} are read")  # type: ignore[arg-type]
        return list(cast("list[Any] | tuple[Any, ...]", value))
    if not isinstance(value, (list, tuple)):
        raise ValueError(f"answered {brief(value)}, not a list of {what}")  # noqa: TRY004 - the checks' one kind
    items = list(islice(value, limit + 1))
    if len(items) > limit:
        raise ValueError(f"answered more than {limit:,} {what}; at most {limit:,} are read")
    return items



def _check_seat(game: GameState, answer: Any, context: dict[str, Any]) -> Any:
    return _seat_of(game, answer, context.get("_what", "a seat"))


#: the most values :func:`plain_answer` copies of one answer, at any depth, and how deep
MAX_VALUES = 10_000
MAX_DEPTH = 8


def plain_answer(value: object) -> Any:
    """A plugin's answer of mappings and lists (``ddzrules_describe``'s) copied into plain
    built-in dicts, lists and strings, each read by the built-in type's own storage (a
    subclass's ``__iter__`` or ``items`` that never ends is not called), at most
    :data:`MAX_ITEMS` items a list, :data:`MAX_VALUES` values in all and :data:`MAX_DEPTH`
    levels deep (ValueError past them); any other value as it is, for the hook's check to
    judge. What the check then reads, and the caller keeps, is this copy."""
    budget = [MAX_VALUES]

    def copy(item: object, depth: int) -> Any:
        budget[0] -= 1
        if budget[0] < 0:
            raise ValueError(f"answered more than {MAX_VALUES:,} values")
        if isinstance(item, str):
            return str.__str__(item)
        if isinstance(item, (dict, list, tuple)) and depth >= MAX_DEPTH:
            raise ValueError(f"answered values nested more than {MAX_DEPTH} deep")
        if isinstance(item, dict):
            size, kind = dict.__len__(item), "mapping"  # the built-in's own count, before any copy
        elif isinstance(item, list):
            size, kind = list.__len__(item), "list"
        elif isinstance(item, tuple):
            size, kind = tuple.__len__(item), "list"
        else:
            return item
        if size > MAX_ITEMS:
            raise ValueError(f"answered {size:,} items in one {kind}; at most {MAX_ITEMS:,} are read")
        if isinstance(item, dict):
            return {copy(k, depth + 1): copy(v, depth + 1) for k, v in list(dict.items(item))}
        items = list(list.__iter__(item)) if isinstance(item, list) else list(tuple.__iter__(item))
        return [copy(x, depth + 1) for x in items]

    return copy(value, 0)


def _check_wild(game: GameState, answer: Any, context: dict[str, Any]) -> Any:
    """One rank index, or a list of distinct ones, each a rank a wild card may stand for
    and none wild already: as a tuple."""
    stand_for = game.variant.rules.stand_for
    items = answer_items(answer, "wild ranks", len(C.RANKS)) if isinstance(answer, (list, tuple)) else [answer]
    if not items:
        return ()  # an empty list: no wild rank now, as None
    already = set(C.wild_tuple(game.wild))
    ranks: list[int] = []
    for item in items:
        if isinstance(item, bool) or not hasattr(type(item), "__index__"):
            raise ValueError(f"answered {brief(item)}, not a rank index")
        rank = operator.index(item)
        name = C.RANKS[rank] if 0 <= rank < len(C.RANKS) else brief(rank)
        if rank not in stand_for:
            raise ValueError(f"answered rank {name}, which cannot be a wild rank of {game.variant.name}")
        if rank in already or rank in ranks:
            raise ValueError(f"answered rank {name}, which is wild already")
        ranks.append(rank)
    most = game.variant.rules.wild_count
    if len(already) + len(ranks) > most:
        raise ValueError(f"made {len(already) + len(ranks)} ranks wild at once; the spec allows at most "
                         f"{most} (wildcards.ranks)")
    return tuple(ranks)


def _is_phase(value: object) -> bool:
    return all(callable(getattr(value, name, None)) for name in ("to_act", "options", "apply"))


def _check_phase(game: GameState, answer: Any, context: dict[str, Any]) -> Any:
    if not _is_phase(answer):
        raise ValueError(f"answered {brief(answer)}, not a phase (to_act, options and apply)")
    return answer


def _check_phases(game: GameState, answer: Any, context: dict[str, Any]) -> Any:
    phases = answer_items(answer, "phases")
    for phase in phases:
        if not _is_phase(phase):
            raise ValueError(f"answered {brief(phase)} among its phases, not a phase "
                             "(to_act, options and apply)")
    return phases


def _check_restriction(game: GameState, answer: Any, context: dict[str, Any]) -> Any:
    """The allowed actions as the very objects of ``actions`` (an equal action stands for
    the one it equals)."""
    actions: list[Action] = context["actions"]
    allowed = answer_items(answer, "actions", len(actions))
    ids = set(map(id, actions))
    out = []
    for a in allowed:
        if id(a) not in ids:
            if not isinstance(a, Action) or a not in actions:
                raise ValueError(f"answered {brief(a)}, which is not one of the legal actions it was given")
            a = actions[actions.index(a)]
        out.append(a)
    return out


def _check_events(game: GameState, answer: Any, context: dict[str, Any]) -> Any:
    events = answer_items(answer, "MultiplierEvents")
    for event in events:
        problem = event_problem(event)
        if problem is not None:
            raise ValueError(f"answered {problem}")
    return events


def _check_scores(game: GameState, answer: Any, context: dict[str, Any]) -> Any:
    scores = answer_items(answer, "scores")
    if len(scores) != game.players:
        raise ValueError(f"answered {len(scores)} scores for {game.players} seats")
    out = []
    for s in scores:
        if isinstance(s, bool) or not hasattr(type(s), "__index__"):
            raise ValueError(f"answered the score {brief(s)}, not an integer")
        score = operator.index(s)
        if not -SCORE_LIMIT <= score <= SCORE_LIMIT:
            raise ValueError(f"answered the score {brief(score)}, beyond ±2**63")
        out.append(score)
    return out


def _check_options(game: GameState, answer: Any, context: dict[str, Any]) -> Any:
    options = answer_items(answer, "actions")
    seat = context["seat"]
    if not options:
        raise ValueError(f"offered seat {seat} no action")
    for a in options:
        if not isinstance(a, Action) or a.seat != seat:
            raise ValueError(f"offered {brief(a)}, not an action of seat {seat}")
    return options


def _check_deal(game: GameState, answer: Any, context: dict[str, Any]) -> Any:
    deck = context["deck"]
    cards = answer_items(answer, "cards")
    if len(cards) != len(deck):
        raise ValueError(f"dealt {len(cards)} cards from a deck of {len(deck)}")
    for c in cards:
        if isinstance(c, bool) or not isinstance(c, int):
            raise ValueError(f"dealt {brief(c)}, not a rank index")  # noqa: TRY004 - the checks speak ValueError
    if sorted(cards) != sorted(deck):
        raise ValueError("dealt other cards than the deck's")
    return list(cards)


def _check_declared(game: GameState | None, answer: Any, context: dict[str, Any]) -> Any:
    """``ddzrules_actions``' answer: at most MAX_ITEMS (kind, value) pairs, a kind a string other
    than ``play``, a value an int, a string or None; as a list of pairs."""
    pairs = answer_items(answer, "(kind, value) pairs")
    for p in pairs:
        if not (isinstance(p, tuple) and len(p) == 2 and isinstance(p[0], str) and p[0] != "play"
                and (p[1] is None or (isinstance(p[1], (int, str)) and not isinstance(p[1], bool)))):
            raise ValueError(f"answered {brief(p)}, not a (kind, value) pair: a kind a string other than "
                             "'play', a value an int, a string or None")
    return [(str(k), v) for k, v in pairs]


def _check_to_act(game: GameState, answer: Any, context: dict[str, Any]) -> Any:
    return _seat_of(game, answer, "the seat to act")


#: what each hook's answers must be (a function of the game, the answer that is not
#: None and the call's arguments, returning the answer as the runtime keeps it, raising
#: ValueError saying what is wrong); the contracts are in ddzrules.hookspecs
HOOK_CHECKS: dict[str, Any] = {
    "ddzrules_deal": _check_deal,
    "ddzrules_wild_rank": _check_wild,
    "ddzrules_landlord_wild_rank": _check_wild,
    "ddzrules_first_bidder": _check_seat,
    "ddzrules_landlord_phase": _check_phase,
    "ddzrules_first_leader": _check_seat,
    "ddzrules_restrict_actions": _check_restriction,
    "ddzrules_declaration_phases": _check_phases,
    "ddzrules_on_play": _check_events,
    "ddzrules_on_game_end": _check_events,
    "ddzrules_settle": _check_scores,
    "ddzrules_settle_escape": _check_scores,
    "ddzrules_actions": _check_declared,  # called by tooling only (call_declared)
}
NO_CONTEXT: dict[str, Any] = {}
#: the methods of a phase, checked as the hooks are
PHASE_CHECKS: dict[str, Any] = {"to_act": _check_to_act, "options": _check_options, "apply": None}
