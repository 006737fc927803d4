"""What a rule sheet says of the game's plugins, and its worked example: each activated
plugin as it describes itself (``ddzrules_describe``, checked as any answer of plugin
code), its parameters from its schema, and one seeded game of the bundled bots, its
turns and multiplier events recorded."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ddzrules import cards as C
from ddzrules.errors import brief
from ddzrules.game.checks import plain_answer
from ddzrules.sheets.words import LANGS

if TYPE_CHECKING:
    from ddzrules.runtime import Game

#: the seeds tried, in order, for the worked example: the first game with a multiplier
#: event is shown (else the first), so the example shows the score being multiplied
EXAMPLE_SEEDS = range(1, 21)
#: the bot at every seat of the worked example (the default of ``ddzrules play``)
EXAMPLE_BOT = "heuristic"


@dataclass(frozen=True)
class ParamEntry:
    name: str
    value: str
    default: bool  # not set in the spec: the plugin's default
    meaning: dict[str, str]


@dataclass(frozen=True)
class PluginEntry:
    """An activated plugin as it describes itself."""

    role: str
    name: str
    summary: dict[str, str]
    rules: dict[str, tuple[str, ...]]
    params: tuple[ParamEntry, ...]


@dataclass(frozen=True)
class Turn:
    """One decision before the first play (a bid, a call, a declaration …)."""

    deal: int
    phase: str
    seat: int
    kind: str
    value: str | None
    #: what a ``decline`` declined (``call``, ``rob``, ``show``, ``double`` …), else None
    declined: str | None = None


@dataclass(frozen=True)
class EventEntry:
    name: str
    factor: float
    seat: int | None
    detail: str
    group: str


@dataclass(frozen=True)
class WorkedExample:
    """One seeded game of the bundled bots, as the runtime played and scored it."""

    seed: int
    bot: str
    wild: str | None
    face_up: tuple[int, str] | None
    first_bidder: int
    redeals: tuple[str, ...]
    hands: tuple[str, ...]
    kitty: str
    kitty_shown: bool
    turns: tuple[Turn, ...]
    landlord: int | None  # None: a table without a landlord
    stake: float
    events: tuple[EventEntry, ...]
    multiple: float
    pair_factors: tuple[tuple[int, float], ...]
    winner: int
    landlord_won: bool | None  # None: a table without a landlord
    scores: tuple[int, ...]
    plays: int
    bombs: tuple[str, ...]
    #: the seat that led the first trick and the winning side (game.winners)
    first_leader: int | None = None
    winners: tuple[int, ...] = ()
    #: the cards left undealt in the deal shown (deal.undealt), "" when none
    undealt: str = ""


def _format_value(value: Any) -> str:
    """A parameter value as a spec writes it (YAML flow style), stable across runs."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_format_value(x) for x in value) + "]"
    if isinstance(value, Mapping):  # the spec's own parameters are read-only mappings
        return "{" + ", ".join(f"{k}: {_format_value(x)}" for k, x in value.items()) + "}"
    return str(value)


def _both(value: Any) -> dict[str, str]:
    """A text of a description in both languages (a plain string stands for both)."""
    if isinstance(value, dict):
        en = str(value.get("en") or value.get("zh") or "")
        return {"en": en, "zh": str(value.get("zh") or en)}
    return {"en": str(value or ""), "zh": str(value or "")}


def _texts(value: object, what: str) -> None:
    """ValueError unless ``value`` is a list (or tuple) of strings."""
    if not isinstance(value, (list, tuple)):
        raise ValueError(f"answered {what} {brief(value)}, not a list of strings")  # noqa: TRY004
    for x in value:
        if not isinstance(x, str):
            raise ValueError(f"answered {brief(x)} among {what}, not a string")  # noqa: TRY004


def _plain(value: object, depth: int = 0) -> bool:
    """Whether ``value`` is what a spec's YAML could hold (None, a bool, a number, a string,
    lists and mappings of these, nested at most 8 deep): what a sheet can print."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return True
    if depth >= 8:
        return False
    if isinstance(value, (list, tuple)):
        return all(_plain(x, depth + 1) for x in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and _plain(x, depth + 1) for k, x in value.items())
    return False


def _check_description(game: Any, answer: Any, context: dict[str, Any]) -> dict[str, Any]:
    """``ddzrules_describe``'s answer as its contract (ddzrules.hookspecs) has it — a
    mapping of ``summary`` (a string, or one per language), ``rules`` (a list of strings,
    or one per language), ``params`` (a list of mappings with a string ``name``) — or a
    ValueError saying what is wrong (call_plugin makes a check's ValueError, never a
    TypeError, the PluginError that says what the plugin answered). Read as a bounded plain
    copy (:func:`~ddzrules.game.checks.plain_answer`: a list that iterates for ever is not
    read), which is what the sheet keeps."""
    answer = plain_answer(answer)
    if not isinstance(answer, dict):
        raise ValueError(f"answered {brief(answer)}, not a mapping of summary, rules and params")  # noqa: TRY004
    summary = answer.get("summary")
    if isinstance(summary, dict):
        for lang, text in summary.items():
            if not isinstance(text, str):
                raise ValueError(f"answered the summary {brief(lang)} {brief(text)}, not a string")  # noqa: TRY004
    elif summary is not None and not isinstance(summary, str):
        raise ValueError(f"answered the summary {brief(summary)}, not a string")
    rules = answer.get("rules")
    if isinstance(rules, dict):
        for lang, texts in rules.items():
            _texts(texts, f"the rules {brief(lang)}")
    elif rules is not None:
        _texts(rules, "the rules")
    params = answer.get("params")
    if params is not None:
        if not isinstance(params, (list, tuple)):
            raise ValueError(f"answered the params {brief(params)}, not a list of mappings")
        for p in params:
            if not isinstance(p, dict) or not isinstance(p.get("name"), str):
                raise ValueError(f"answered {brief(p)} among the params, not a mapping with a name")  # noqa: TRY004
            if not _plain(p.get("value")):
                raise ValueError(f"answered the value of parameter {brief(p['name'])} as "
                                 f"{brief(p.get('value'))}, not a value a spec could give")
            for lang in LANGS:
                if p.get(lang) is not None and not isinstance(p[lang], str):
                    raise ValueError(f"answered the {lang} text {brief(p[lang])} of parameter "
                                     f"{brief(p['name'])}, not a string")
    return answer


def plugin_entry(role: str, name: str, inst: Any, game: Mapping[str, Any], probe: Game) -> PluginEntry:
    """What an activated plugin says of itself; a plugin without ``ddzrules_describe``
    is shown by its docstring and the parameters the spec gives it. The call goes through
    :func:`~ddzrules.runtime.call_plugin`, for ``probe`` (a game of the plugin's rules):
    whatever describe raises, and an answer its contract does not allow, is a
    :class:`~ddzrules.errors.PluginError` naming the plugin and the hook."""
    from ddzrules.runtime import call_plugin

    entries = game.get(role)
    given: Mapping[str, Any] = {}
    # the game section as the model keeps it (read-only: tuples and mappings) or as written
    for entry in entries if isinstance(entries, (list, tuple)) else [entries]:
        if isinstance(entry, Mapping) and entry.get("plugin") == name:
            given = entry.get("params") or {}
    describe = getattr(inst, "ddzrules_describe", None)
    d: dict[str, Any] = {}
    if callable(describe):
        d = call_plugin(probe, name, "ddzrules_describe", describe, [], _check_description, {}) or {}
    doc = (type(inst).__doc__ or "").strip().splitlines()
    summary = _both(d.get("summary") or (doc[0] if doc else name))
    raw_rules = d.get("rules") or {}
    if isinstance(raw_rules, dict):
        rules = {
            lang: tuple(str(x) for x in raw_rules.get(lang) or raw_rules.get("en") or ())
            for lang in LANGS
        }
    else:
        rules = {lang: tuple(str(x) for x in raw_rules) for lang in LANGS}
    params: list[ParamEntry] = []
    described = d.get("params")
    if isinstance(described, list):
        for p in described:
            params.append(
                ParamEntry(
                    str(p.get("name")),
                    _format_value(p.get("value")),
                    p.get("name") not in given,
                    _both({"en": p.get("en"), "zh": p.get("zh")}),
                )
            )
    else:
        params = _schema_params(inst, given)
    return PluginEntry(role, name, summary, rules, tuple(params))


def _schema_params(inst: Any, given: Mapping[str, Any]) -> list[ParamEntry]:
    """The parameters of a plugin that does not describe itself, from its ``params_schema``:
    every property with the value the spec gives it, else the schema's ``default`` (marked
    as a default), and its ``description`` as the meaning; the given ones the schema does
    not name (none get past validation) after them."""
    schema = getattr(type(inst), "params_schema", None)
    props = schema.get("properties") if isinstance(schema, dict) else None
    out: list[ParamEntry] = []
    for key, sub in (props or {}).items() if isinstance(props, dict) else ():
        sub = sub if isinstance(sub, dict) else {}
        meaning = sub.get("description")
        text = " ".join(meaning.split()) if isinstance(meaning, str) else ""
        value = given[key] if key in given else sub.get("default")
        out.append(ParamEntry(str(key), _format_value(value), key not in given, {"en": text, "zh": text}))
    named = {p.name for p in out}
    out += [ParamEntry(k, _format_value(v), False, {"en": "", "zh": ""}) for k, v in given.items() if k not in named]
    return out


class _Recording:
    """A bot that notes each decision it takes before the first play: the phase and deal
    it sees and, for a ``decline``, what the other option was (so the sheet can say "no
    rob" rather than "decline"). It chooses exactly as the bot it wraps."""

    def __init__(self, agent: Any, turns: list[Turn]) -> None:
        self.agent = agent
        self.turns = turns

    def act(self, view: Any, legal: list[Any]) -> Any:
        action = self.agent.act(view, legal)
        if view.phase in ("landlord", "declare"):
            deal = sum(1 for a in view.history if a.kind == "redeal")
            other = [a.kind for a in legal if a.kind not in ("decline", "peek")]
            declined = other[0] if action.kind == "decline" and other else None
            value = None if action.value is None else str(action.value)
            self.turns.append(Turn(deal, view.phase, action.seat, action.kind, value, declined))
        return action


def worked_example(rules: Any, seed: int | None) -> WorkedExample:
    """Play seeded games with the bundled bots (as ``ddzrules play SPEC --auto --seed S``
    does) and record the one shown: ``seed``, or the first with a multiplier event."""
    from ddzrules.bots import make_bot
    from ddzrules.simulate import game_seed, play_game

    chosen = None
    for s in [seed] if seed is not None else EXAMPLE_SEEDS:
        turns: list[Turn] = []
        # the bots and seeds of `ddzrules play SPEC --auto --seed S`: the same game
        agents = [
            _Recording(make_bot(EXAMPLE_BOT, game_seed(s, 1000 + i)), turns)
            for i in range(rules.players)
        ]
        game = play_game(rules, agents, s)
        if chosen is None or game.events:
            chosen = (s, game, tuple(turns))
        if game.events:
            break
    assert chosen is not None
    s, game, shown_turns = chosen
    assert game.winner is not None, "play_game returns a finished game, which has a winner"
    last = game.deals[-1]
    face = game.public.get("face_up")
    return WorkedExample(
        seed=s,
        bot=EXAMPLE_BOT,
        wild=None if game.wild is None else str(game.public["wild"]),
        face_up=(int(face["seat"]), str(face["card"])) if face else None,
        first_bidder=game.first_bidder,
        redeals=tuple(game.redeal_reasons),
        hands=tuple(last["hands"]),
        kitty=last["kitty"],
        kitty_shown=game.rules.kitty_shown,
        turns=shown_turns,
        landlord=game.landlord,
        stake=game.stake,
        events=tuple(EventEntry(e.name, e.factor, e.seat, e.detail, e.group) for e in game.events),
        multiple=game.multiple,
        pair_factors=tuple(sorted(game.pair_factors.items())),
        winner=game.winner,
        landlord_won=game.landlord_won,
        scores=tuple(game.scores or ()),
        plays=sum(1 for a in game.history if a.kind == "play"),
        bombs=tuple(m.cards for ms in game.played for m in ms if m.is_bomb),
        first_leader=game.first_leader,
        winners=tuple(game.winners),
        undealt=C.counts_to_string(game.undealt),
    )
