"""Rule sheets: the rules of any spec, written from the spec alone (``ddzrules sheet``).

A hand-written rule sheet drifts from its spec the day someone edits a pattern or
a plugin parameter. A sheet generated from the resolved spec, the compiled tables
and the runtime cannot: every figure, every example and every rule sentence below
is computed —

* the title, region, source and parent from the resolved spec (and the ``extends:``
  lines of its files);
* the combos' forms, chain limits and examples from the compiled shapes and the
  move universe (the smallest and the largest play of each combo are real plays,
  found by the compiler; combos that need wild cards are found by the wildcard walk);
* the comparisons from :meth:`Move.beats <ddzrules.moves.Move.beats>`;
* the landlord protocol, declarations, multipliers and settlement from what each
  activated plugin says of itself (``ddzrules_describe``), built from the
  parameters it was actually given;
* the worked scoring example from one seeded game of the bundled bots.

Building (:func:`build_sheet`) does the computing once; rendering
(:func:`render_sheet`) writes it in English or Chinese, as Markdown or as one
self-contained HTML page, byte for byte the same for the same spec.

The bundled rule sheets in ``docs/rules/`` carry the English Markdown sheet of
their spec between the markers :data:`BEGIN` and :data:`END`; :func:`update_docs`
rewrites those blocks (``ddzrules sheet --update-docs docs/rules``), and the test
suite fails when one differs from what its spec generates.
"""

from __future__ import annotations

import html
import re
import string
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from ddzrules import cards as C
from ddzrules.compiler import UNBOUNDED, KickerRule, Shape
from ddzrules.errors import DdzError, brief
from ddzrules.moves import Move
from ddzrules.sheets.words import LANGS, check_lang, load_words, plural, units
from ddzrules.spec import bundled_root
from ddzrules.variant import Variant, load_variant

if TYPE_CHECKING:
    from ddzrules.runtime import Game

FORMATS = ("md", "html")
#: the seeds tried, in order, for the worked example: the first game with a multiplier
#: event is shown (else the first), so the example shows the score being multiplied
EXAMPLE_SEEDS = range(1, 21)
#: the bot at every seat of the worked example (the default of ``ddzrules play``)
EXAMPLE_BOT = "heuristic"
BEGIN = "<!-- BEGIN GENERATED: ddzrules sheet {spec} --lang {lang} -->"
END = "<!-- END GENERATED -->"
_BEGIN_RE = re.compile(
    r"^<!-- BEGIN GENERATED: ddzrules sheet (?P<spec>\S+) --lang (?P<lang>\S+) -->$", re.MULTILINE
)

# ====================================================================== the data of a sheet


@dataclass(frozen=True)
class Example:
    """One play of the spec, as the compiler read it (with the wild rank it needs, if any)."""

    cards: str
    combo: str
    rank: str
    length: int
    size: int
    wild: str | None = None
    #: what the wild cards stand for, only where they stand for another rank
    stands_for: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class ChainLimits:
    """The shortest and longest chain of a combo, and the lowest and highest rank it reaches."""

    unit: int
    shortest: int
    longest: int
    lowest: str
    highest: str


@dataclass(frozen=True)
class ComboEntry:
    """A combo: the spec's own texts, its compiled forms and what the universe holds of it."""

    name: str
    zh: str
    pattern: str
    description: str
    forms: dict[str, str]  # by language: the compiled alternatives in words
    bomb_class: int  # -1: not a bomb
    compare: tuple[str, ...]
    smallest: Example | None
    largest: Example | None
    chain: ChainLimits | None
    plays: int  # distinct plays in the (natural) census
    wild_only: bool  # every form needs a wild card


@dataclass(frozen=True)
class Comparison:
    """Two plays and what :meth:`Move.beats` says of them."""

    a: Example
    b: Example
    a_beats_b: bool
    b_beats_a: bool


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
class WildInfo:
    lowest: str
    highest: str
    plugin: str | None
    substitution: Example | None  # a natural play made again with a wild card
    wild_only: tuple[str, ...]  # combos that need a wild card
    natural_only: tuple[str, ...]  # combos that admit none


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


@dataclass(frozen=True)
class Sheet:
    """Everything a rule sheet says, computed; :func:`render_sheet` only writes it."""

    name: str
    #: how a command names the spec: its bundled name, else its file's name (never a
    #: directory, so that the sheet does not depend on where it was made)
    arg: str
    seed: int | None  # the seed asked for (None: chosen)
    title: dict[str, str]
    region: str | None
    source: dict[str, str]
    parents: tuple[str, ...]
    content_hash: str
    players: int
    direction: str
    decks: int
    deck: tuple[int, ...]
    hand: int
    kitty: int
    kitty_shown: bool
    #: cards left face down for the whole game (deal.undealt)
    undealt: int
    #: the ranks removed whole and the single cards removed (deck.remove), as the spec writes them
    removed_ranks: str
    removed_cards: str
    #: table.kind (landlord, free-for-all, partnerships), its teams and must_beat
    table_kind: str
    teams: tuple[tuple[int, ...], ...]
    must_beat: bool
    max_hand: int
    chain_ranks: str
    combos: tuple[ComboEntry, ...]
    census_total: int
    census_readings: int
    comparisons: tuple[Comparison, ...]
    wild: WildInfo | None
    has_game: bool
    plugins: tuple[PluginEntry, ...]
    example: WorkedExample | None
    readings: tuple[tuple[str, str], ...]
    notes: str | None


# ====================================================================== building


def build_sheet(spec: str | Path | Variant, seed: int | None = None) -> Sheet:
    """Compute the sheet of a spec (a bundled name, a path, or a variant already loaded,
    whose tables are then reused). ``seed`` fixes the worked example's game; by default
    the first of :data:`EXAMPLE_SEEDS` whose game has a multiplier event is shown. Raises
    :class:`~ddzrules.errors.DdzError` on a bad spec."""
    v = spec if isinstance(spec, Variant) else load_variant(spec)
    data = v.spec.data
    deal = data.get("deal") or {}
    deck = data.get("deck") or {}
    table = data.get("table") or {}
    remove = deck.get("remove") or {}
    removed = {"cards": remove} if isinstance(remove, str) else remove
    # in the spec's order ("222A"); a rank removed whole once
    removed = {k: "".join(C.RANKS[r] for r in C.parse_ranks(str(removed.get(k) or "")))
               for k in ("ranks", "cards")}
    rules = v.rules
    readings = _natural_readings(v)
    census = v.census()
    combos = tuple(
        _combo_entry(v, i, readings.get(info.name, []), census.by_combo.get(info.name, 0))
        for i, info in enumerate(rules.combos)
    )
    has_game = bool(data.get("game"))
    plugins: tuple[PluginEntry, ...] = ()
    example = None
    if has_game:
        from ddzrules.runtime import GameRules

        game_rules = GameRules(v)
        # describe is plugin code: called as the runtime calls any (call_plugin), for a game
        # of these rules, which it is not given (call_plugin audits it: nothing changes)
        probe = game_rules.new_game(0)
        plugins = tuple(
            _plugin_entry(role, name, inst, data["game"], probe)
            for role, name, inst in game_rules.active
        )
        example = _worked_example(game_rules, seed)
    source = {k: str(val) for k, val in (data.get("source") or {}).items() if val}
    return Sheet(
        name=v.name,
        arg=_command_name(v),
        seed=seed,
        title=dict(data.get("title") or {}),
        region=data.get("region"),
        source=source,
        parents=_parents(v),
        content_hash=rules.content_hash,
        players=int(data.get("players", 3)),
        direction=data.get("direction", "counter-clockwise"),
        decks=int(deck.get("decks", 1)),
        deck=tuple(rules.deck),
        hand=int(deal.get("hand", 17)),
        kitty=int(deal.get("kitty", 3)),
        kitty_shown=bool(deal.get("kitty_shown", True)),
        undealt=int(deal.get("undealt", 0)),
        removed_ranks=removed.get("ranks", ""),
        removed_cards=removed.get("cards", ""),
        table_kind=str(table.get("kind", "landlord")),
        teams=tuple(tuple(int(x) for x in t) for t in table.get("teams") or ()),
        must_beat=bool(table.get("must_beat", False)),
        max_hand=rules.max_hand,
        chain_ranks=str(data.get("chain_ranks", "3..A")),
        combos=combos,
        census_total=census.total,
        census_readings=census.readings,
        comparisons=_comparisons(v, readings, combos),
        wild=_wild_info(v, combos, data),
        has_game=has_game,
        plugins=plugins,
        example=example,
        readings=tuple((k, str(t)) for k, t in (data.get("readings") or {}).items() if t),
        notes=data.get("notes"),
    )


def _command_name(v: Variant) -> str:
    file = v.spec.file
    if file.startswith("specs/"):
        return file.removeprefix("specs/").removesuffix(".yaml")
    return Path(file).name


def _parents(v: Variant) -> tuple[str, ...]:
    """The ``extends:`` chain as its files write it, nearest first: the resolved spec has
    no ``extends:``, the files of its chain (this spec's first) do."""
    out: list[str] = []
    for file in v.spec.chain:
        path = (
            bundled_root() / file.removeprefix("specs/")
            if file.startswith("specs/")
            else Path(file)
        )
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
        parent = raw.get("extends") if isinstance(raw, dict) else None
        if not parent:
            break
        out.append(str(parent))
    return tuple(out)


def _natural_readings(v: Variant) -> dict[str, list[Move]]:
    """Every reading of the move universe (no wild card), by combo."""
    out: dict[str, list[Move]] = {}
    for cards in v.universe():
        for m in v.classify(cards):
            out.setdefault(m.combo, []).append(m)
    return out


def _ranks_of(cards: str) -> tuple[int, ...]:
    return tuple(C.RANK_INDEX[c] for c in cards)


def _small_key(m: Move) -> tuple[Any, ...]:
    """The lowest-rank shortest play first: chain length, card count, rank, then the cards."""
    return (m.length, m.size, m.rank, _ranks_of(m.cards))


def _large_key(m: Move) -> tuple[Any, ...]:
    """The longest, highest play last; among equals the one of the highest cards."""
    return (m.length, m.size, m.rank, tuple(sorted(_ranks_of(m.cards), reverse=True)))


def _smallest(moves: Sequence[Move]) -> Move:
    """The smallest play by :func:`_small_key`, the card comparison made only among the
    plays that tie on the cheap fields (tens of thousands of plays per spec)."""
    best = min((m.length, m.size, m.rank) for m in moves)
    return min((m for m in moves if (m.length, m.size, m.rank) == best), key=_small_key)


def _largest(moves: Sequence[Move]) -> Move:
    """The largest play by :func:`_large_key` (see :func:`_smallest`)."""
    best = max((m.length, m.size, m.rank) for m in moves)
    return max((m for m in moves if (m.length, m.size, m.rank) == best), key=_large_key)


def _example(m: Move, wild: str | None = None) -> Example:
    return Example(
        m.cards,
        m.combo,
        m.rank_name,
        m.length,
        m.size,
        wild,
        tuple((a, b) for a, b in m.substitution if a != b),
    )


def _combo_entry(v: Variant, index: int, readings: list[Move], plays: int) -> ComboEntry:
    info = v.rules.combos[index]
    shapes = [s for s in v.rules.shapes if s.combo == index]
    wild_only = bool(shapes) and not any(s.natural for s in shapes)
    smallest = largest = None
    if readings:
        smallest = _example(_smallest(readings))
        largest = _example(_largest(readings))
    elif v.rules.stand_for:
        smallest, largest = _wild_examples(v, info.name, shapes)
    chain = None
    chains = [s for s in shapes if s.kind == "chain"]
    if chains:
        if readings:  # what the universe holds: the compiler's limits, reached
            lo = min(m.rank - m.length + 1 for m in readings)
            chain = ChainLimits(
                chains[0].unit,
                min(m.length for m in readings),
                max(m.length for m in readings),
                C.RANKS[lo],
                C.RANKS[max(m.rank for m in readings)],
            )
        else:
            chain = ChainLimits(
                chains[0].unit,
                min(s.min_len for s in chains),
                max(s.max_len for s in chains),
                C.RANKS[min(s.ranks[0] for s in chains)],
                C.RANKS[max(s.ranks[-1] for s in chains)],
            )
    forms = {lang: _forms(v, shapes, lang) for lang in LANGS}
    return ComboEntry(
        info.name,
        info.zh,
        info.pattern,
        info.description,
        forms,
        info.tier,
        info.compare,
        smallest,
        largest,
        chain,
        plays,
        wild_only,
    )


def _wild_examples(
    v: Variant, combo: str, shapes: list[Shape]
) -> tuple[Example | None, Example | None]:
    """The smallest and largest play of a combo that needs wild cards: every wild rank,
    the full deck, only this combo's shapes (cheap: not the wildcard census)."""
    from ddzrules.wild import enumerate_wild

    found: dict[tuple[int, int, int, int], None] = {}
    rules = v.rules
    for w in rules.stand_for:
        naturals = list(rules.deck)
        wilds, naturals[w] = naturals[w], 0

        def emit(
            packed: int, _combo: int, rank: int, length: int, _subst: tuple[int, ...], w: int = w
        ) -> None:
            found[(w, packed, rank, length)] = None

        enumerate_wild(rules, naturals, wilds, w, emit, shapes=shapes, max_size=rules.max_hand)
    moves: list[tuple[Move, str]] = []
    for w, packed, rank, length in found:
        wild = C.RANKS[w]
        for m in v.classify(C.to_string(packed), wild=wild):
            if m.combo == combo and m.rank == rank and m.length == length:
                moves.append((m, wild))
                break
    if not moves:
        return None, None
    small = min(moves, key=lambda x: (_small_key(x[0]), x[1]))
    large = max(moves, key=lambda x: (_large_key(x[0]), x[1]))
    return _example(*small), _example(*large)


def _comparisons(
    v: Variant, readings: dict[str, list[Move]], combos: tuple[ComboEntry, ...]
) -> tuple[Comparison, ...]:
    """Plays set against each other by the compiled rules: the next play up in one chain
    combo, the same chain one unit longer, and the lowest bomb against that chain."""
    out: list[Comparison] = []
    for c in combos:
        moves = readings.get(c.name, [])
        if c.chain is None or c.bomb_class >= 0 or not moves:
            continue
        low = _smallest(moves)
        up = [
            m
            for m in moves
            if (m.length, m.size) == (low.length, low.size) and m.rank == low.rank + 1
        ]
        longer = [m for m in moves if m.length == low.length + 1]
        if not up or not longer:
            continue
        for a, b in ((_smallest(up), low), (low, _smallest(longer))):
            out.append(Comparison(_example(a), _example(b), a.beats(b), b.beats(a)))
        bombs = sorted(
            (x for x in combos if x.bomb_class >= 0 and readings.get(x.name)),
            key=lambda x: x.bomb_class,
        )
        if bombs:
            bomb = _smallest(readings[bombs[0].name])
            top = _largest(moves)
            out.append(Comparison(_example(bomb), _example(top), bomb.beats(top), top.beats(bomb)))
        break
    return tuple(out)


def _wild_info(v: Variant, combos: tuple[ComboEntry, ...], data: dict[str, Any]) -> WildInfo | None:
    stand = v.rules.stand_for
    if not stand:
        return None
    plugin = (data.get("game") or {}).get("wildcards")
    name = plugin.get("plugin") if isinstance(plugin, dict) else None
    wild_only = tuple(c.name for c in combos if c.wild_only)
    natural_only = tuple(
        c.name
        for c in combos
        if not c.wild_only
        and all(s.wilds_max == 0 for s in v.rules.shapes if s.combo == v.combo_names.index(c.name))
    )
    return WildInfo(
        C.RANKS[stand[0]],
        C.RANKS[stand[-1]],
        name,
        _substitution(v, combos),
        wild_only,
        natural_only,
    )


def _substitution(v: Variant, combos: tuple[ComboEntry, ...]) -> Example | None:
    """A chain's smallest play made again with a wild card standing for its top card: the
    lowest wild rank outside the play whose reading keeps the combo, rank and length."""
    for c in combos:
        ex = c.smallest
        if c.chain is None or ex is None or ex.wild is not None:
            continue
        ranks = _ranks_of(ex.cards)
        top = C.RANK_INDEX[ex.rank]  # the chain's highest unit: the wild card stands for one of it
        for w in v.rules.stand_for:
            if w in ranks:
                continue
            cards = list(ranks)
            cards.remove(top)
            text = C.counts_to_string(C.counts_of(cards + [w]))
            for m in v.classify(text, wild=C.RANKS[w]):
                if (m.combo, m.rank_name, m.length) == (c.name, ex.rank, ex.length):
                    return _example(m, C.RANKS[w])
    return None


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
    if isinstance(value, dict):
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
    TypeError, the PluginError that says what the plugin answered)."""
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


def _plugin_entry(role: str, name: str, inst: Any, game: dict[str, Any], probe: Game) -> PluginEntry:
    """What an activated plugin says of itself; a plugin without ``ddzrules_describe``
    is shown by its docstring and the parameters the spec gives it. The call goes through
    :func:`~ddzrules.runtime.call_plugin`, for ``probe`` (a game of the plugin's rules):
    whatever describe raises, and an answer its contract does not allow, is a
    :class:`~ddzrules.errors.PluginError` naming the plugin and the hook."""
    from ddzrules.runtime import call_plugin

    entries = game.get(role)
    given: dict[str, Any] = {}
    for entry in entries if isinstance(entries, list) else [entries]:
        if isinstance(entry, dict) and entry.get("plugin") == name:
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
        params = [
            ParamEntry(k, _format_value(val), False, {"en": "", "zh": ""})
            for k, val in given.items()
        ]
    return PluginEntry(role, name, summary, rules, tuple(params))


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


def _worked_example(rules: Any, seed: int | None) -> WorkedExample:
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
        wild=None if game.wild is None else C.RANKS[game.wild],
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


# ====================================================================== combos in words


def _forms(v: Variant, shapes: list[Shape], lang: str) -> str:
    """A combo's compiled alternatives in words: core, kickers, constraints."""
    parts = [_form(v, s, lang) for s in shapes]
    return (" | ".join(parts)) if lang == "en" else "｜".join(parts)


def _form(v: Variant, s: Shape, lang: str) -> str:
    en = lang == "en"
    all_ranks = tuple(r for r in range(C.NUM_RANKS) if v.rules.deck[r] >= max(s.unit, 1))
    if s.kind == "group":
        n = (
            f"{s.unit}"
            if s.max_count == s.unit
            else (f"{s.unit} to {s.max_count}" if en else f"{s.unit}至{s.max_count}")
        )
        card = "card" if s.unit == 1 and s.max_count == 1 else "cards"
        core = f"{n} {card} of one rank" if en else f"同点数{n}张"
        if s.ranks != all_ranks:
            span = f"{C.RANKS[s.ranks[0]]}..{C.RANKS[s.ranks[-1]]}"
            core += f" ({span})" if en else f"（{span}）"
    elif s.kind == "chain":
        n = (
            f"{s.min_len}"
            if s.min_len == s.max_len
            else (f"{s.min_len}–{s.max_len}" if en else f"{s.min_len}至{s.max_len}")
        )
        span = f"{C.RANKS[s.ranks[0]]}..{C.RANKS[s.ranks[-1]]}"
        core = (
            f"a chain of {n} consecutive {units(s.unit, lang)} in {span}"
            if en
            else f"{n}个连续的{units(s.unit, lang)}（{span}）"
        )
    else:
        cards = C.to_string(s.literal)
        core = f"the cards {cards}" if en else f"固定的牌{cards}"
    kick = [_kicker(v, k, s, lang) for k in s.kickers]
    cons = _constraints(s, lang)
    text = core + "".join((" + " if en else "＋") + k for k in kick)
    if cons:
        text += ("; " if en else "；") + (", " if en else "，").join(cons)
    return text


def _kicker(v: Variant, k: KickerRule, s: Shape, lang: str) -> str:
    en = lang == "en"
    kind_1, kind_n = units(k.unit, lang, plural=False), units(k.unit, lang)
    out = []
    if k.fixed:
        out.append(
            f"{k.fixed} {kind_1 if k.fixed == 1 else kind_n}" if en else f"{k.fixed}个{kind_1}"
        )
    if k.per_n:
        per = units(s.unit, lang, plural=False)
        out.append(
            f"{k.per_n} {kind_1 if k.per_n == 1 else kind_n} per {per}"
            if en
            else f"每个{per}带{k.per_n}个{kind_1}"
        )
    text = (" + " if en else "＋").join(out)
    full = tuple(r for r in range(C.NUM_RANKS) if v.rules.deck[r] > 0)
    if k.ranks != full:
        span = f"{C.RANKS[k.ranks[0]]}..{C.RANKS[k.ranks[-1]]}"
        text += f" from {span}" if en else f"（{span}）"
    return text


def _constraints(s: Shape, lang: str) -> list[str]:
    en = lang == "en"
    out = []
    if s.kickers:
        if s.distinct:
            out.append("kickers of different ranks" if en else "带牌点数各不相同")
        if s.overlap:
            out.append("kickers may share a rank with the core" if en else "带牌可与主体同点")
        if s.jokers < UNBOUNDED:
            out.append(
                f"at most {s.jokers} {plural(s.jokers, 'joker')} among the kickers"
                if en
                else f"带牌中最多{s.jokers}张王"
            )
        if s.per_rank < UNBOUNDED:
            out.append(
                f"at most {s.per_rank} kicker cards of one rank"
                if en
                else f"带牌中同点数最多{s.per_rank}张"
            )
        if s.adjacent < UNBOUNDED:
            out.append(
                f"at most {s.adjacent} kicker cards of a rank next to the chain"
                if en
                else f"与连牌相邻的点数在带牌中最多{s.adjacent}张"
            )
    for what, lo, hi in (
        ("wild", s.wilds_min, s.wilds_max),
        ("natural", s.naturals_min, s.naturals_max),
    ):
        zh = "癞子" if what == "wild" else "非癞子牌"
        if hi == 0:
            out.append(f"no {what} card" if en else f"不含{zh}")
        elif hi < UNBOUNDED:
            out.append(f"at most {hi} {what} {plural(hi, 'card')}" if en else f"最多{hi}张{zh}")
        if lo > 0:
            out.append(f"at least {lo} {what} {plural(lo, 'card')}" if en else f"至少{lo}张{zh}")
    return out


# ====================================================================== a small document model
# Inline text is a tuple of (style, text) runs, style "" (plain), "code" or "b"; blocks
# are headings, paragraphs, bullet lists and tables. One model, two writers (Markdown,
# HTML), so the two formats can never say different things.

Inline = tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Heading:
    level: int
    text: Inline


@dataclass(frozen=True)
class Para:
    text: Inline


@dataclass(frozen=True)
class Bullets:
    items: tuple[Inline, ...]


@dataclass(frozen=True)
class Table:
    head: tuple[Inline, ...] | None  # None: a two-column key/value table without a header
    rows: tuple[tuple[Inline, ...], ...]


Block = Heading | Para | Bullets | Table
_MARKUP = re.compile(r"(`[^`]*`|\*\*[^*]*\*\*)")
_FORMATTER = string.Formatter()


def plain(text: str) -> Inline:
    return (("", text),) if text else ()


def code(text: str) -> Inline:
    return (("code", text),)


class _Writer:
    """The fixed texts of one language, as inline runs."""

    def __init__(self, lang: str) -> None:
        check_lang(lang)
        self.lang = lang
        self.i = LANGS.index(lang)
        self.words = load_words()

    def s(self, key: str, **kw: Any) -> str:
        """A fixed text as plain words (its markup dropped)."""
        return "".join(t for _, t in self.t(key, **kw))

    def t(self, key: str, **kw: Any) -> Inline:
        """A fixed text with its markup: the template is split first and each piece filled
        after, so that a value (a reading, a pattern) is never read as markup. A value
        given as inline runs (``code(...)``) is spliced in with its own styles."""
        out: list[tuple[str, str]] = []
        for piece in _MARKUP.split(self.words.texts[key][self.i]):
            if not piece:
                continue
            style = ""
            if piece.startswith("`") and piece.endswith("`") and len(piece) >= 2:
                style, piece = "code", piece[1:-1]
            elif piece.startswith("**") and piece.endswith("**") and len(piece) >= 4:
                style, piece = "b", piece[2:-2]
            for literal, field, spec, conv in _FORMATTER.parse(piece):
                if literal:
                    out.append((style, literal))
                if field is None:
                    continue
                value = kw[field]
                if isinstance(value, tuple):  # inline runs
                    out.extend(value)
                else:
                    out.append(
                        (
                            style,
                            _FORMATTER.format_field(
                                _FORMATTER.convert_field(value, conv), spec or ""
                            ),
                        )
                    )
        return tuple(out)


def _num(n: float) -> str:
    return f"{n:,}" if isinstance(n, int) else f"{n:,g}"


def _shown(ex: Example | None, w: _Writer) -> Inline:
    if ex is None:
        return plain("—")
    out = code(ex.cards)
    if ex.wild is not None:
        subst = " ".join(f"{a}→{b}" for a, b in ex.stands_for)
        note = (
            (f" (wild {ex.wild}" if w.lang == "en" else f"（癞子{ex.wild}")
            + ((": " if w.lang == "en" else "：") + subst if subst else "")
            + (")" if w.lang == "en" else "）")
        )
        out += plain(note)
    return out


def _blocks(sheet: Sheet, lang: str) -> list[Block]:
    w = _Writer(lang)
    en = lang == "en"
    out: list[Block] = []
    title = sheet.title.get(lang) or sheet.title.get("en") or sheet.title.get("zh") or ""
    sep = ": " if en else "："
    out.append(Heading(1, plain(f"{sheet.name}{sep}{title}" if title else sheet.name)))
    command = f"ddzrules sheet {sheet.arg}" + ("" if en else " --lang zh")
    if sheet.seed is not None:
        command += f" --seed {sheet.seed}"
    out.append(Para(w.t("generated", command=command)))
    rows: list[tuple[Inline, ...]] = [(plain(w.s("spec")), code(sheet.name))]
    titles = [sheet.title[k] for k in ("zh", "en") if sheet.title.get(k)]
    if titles:
        rows.append((plain(w.s("title")), plain(" · ".join(titles))))
    rows.append((plain(w.s("region")), plain(sheet.region or "—")))
    if sheet.source:
        src = code(sheet.source["document"]) if "document" in sheet.source else ()
        for key in ("section", "url"):
            if key in sheet.source:
                src += plain((" — " if src else "") + sheet.source[key])
        rows.append((plain(w.s("source")), src))
    if sheet.parents:
        chain: Inline = code(sheet.parents[0])
        for p in sheet.parents[1:]:
            chain += plain(" ← ") + code(p)
        rows.append((plain(w.s("extends")), chain))
    else:
        rows.append((plain(w.s("extends")), plain(w.s("standalone"))))
    rows.append((plain(w.s("hash")), code(sheet.content_hash[:16])))
    if sheet.notes:
        rows.append((plain(w.s("notes")), plain(sheet.notes)))
    out.append(Table(None, tuple(rows)))
    out += _deck_blocks(sheet, w)
    out += _combo_blocks(sheet, w)
    out += _compare_blocks(sheet, w)
    if sheet.wild is not None:
        out += _wild_blocks(sheet, w)
    out += _game_blocks(sheet, w)
    if sheet.example is not None:
        out += _example_blocks(sheet, sheet.example, w)
    out.append(Heading(2, plain(w.s("h.readings"))))
    if sheet.readings:
        out.append(Para(w.t("readings.intro")))
        out.append(
            Table(
                (plain(w.s("col.id")), plain(w.s("col.reading"))),
                tuple((code(k), plain(t)) for k, t in sheet.readings),
            )
        )
    else:
        out.append(Para(w.t("readings.none")))
    return out


def _rank_counts(deck: Sequence[int], w: _Writer) -> str:
    """The cards of each rank 3..2, a run of consecutive ranks with one count at a time:
    "4 of each rank 3 to K, 3 of rank A, 1 of rank 2" (a rank the deck lacks ends a run)."""
    runs: list[tuple[int, int, int]] = []  # (count, first rank, last rank)
    for r in range(C.SMALL_JOKER):
        n = deck[r]
        if n and runs and runs[-1][0] == n and runs[-1][2] == r - 1:
            runs[-1] = (n, runs[-1][1], r)
        elif n:
            runs.append((n, r, r))
    parts = [
        w.s("deck.run" if a != b else "deck.one", n=n, a=C.RANKS[a], b=C.RANKS[b]) for n, a, b in runs
    ]
    return (", " if w.lang == "en" else "，").join(parts)


def _removed(sheet: Sheet, w: _Writer) -> str:
    """What ``deck.remove`` takes out: every card of some ranks, some single cards."""
    ranks = w.s("deck.and").join(dict.fromkeys(sheet.removed_ranks))
    if ranks and sheet.removed_cards:
        return w.s("deck.less.both", ranks=ranks, cards=sheet.removed_cards, n=len(sheet.removed_cards))
    if ranks:
        return w.s("deck.less.ranks", ranks=ranks)
    if sheet.removed_cards:
        return w.s("deck.less.cards", cards=sheet.removed_cards, n=len(sheet.removed_cards))
    return ""


def _team_text(seats: Sequence[int], w: _Writer) -> str:
    return w.s("team", seats="+".join(map(str, seats)))


def _table_text(sheet: Sheet, w: _Writer) -> str:
    if sheet.table_kind == "partnerships":
        teams = w.s("table.teams.sep").join(_team_text(t, w) for t in sheet.teams)
        return w.s("table.partnerships", teams=teams)
    if sheet.table_kind == "free-for-all":
        return w.s("table.free-for-all")
    if sheet.players == 2:
        return w.s("table.landlord.one")
    return w.s("table.landlord", n=sheet.players - 1)


def _deck_blocks(sheet: Sheet, w: _Writer) -> list[Block]:
    total = sum(sheet.deck)
    x, d = sheet.deck[C.SMALL_JOKER], sheet.deck[C.BIG_JOKER]
    deck = w.s(
        "deck.v",
        decks=sheet.decks,
        deck_word=plural(sheet.decks, "deck"),
        less=_removed(sheet, w),
        total=total,
        counts=_rank_counts(sheet.deck, w),
    )
    deck += (
        w.s("deck.jokers", x=x, d=d, xj=plural(x, "joker"), dj=plural(d, "joker"))
        if x or d
        else w.s("deck.nojokers")
    )
    if sheet.kitty == 0:
        kitty = w.s("kitty.none")
    else:
        kitty = w.s("kitty.shown" if sheet.kitty_shown else "kitty.hidden", n=sheet.kitty)
    ranks = [C.RANKS[r] for r in range(C.NUM_RANKS) if sheet.deck[r]]
    rows: list[tuple[Inline, ...]] = [
        (
            plain(w.s("players")),
            plain(w.s("players.v", n=sheet.players, direction=w.s(sheet.direction))),
        ),
        (plain(w.s("deck")), plain(deck)),
        (plain(w.s("hand")), plain(w.s("hand.v", n=sheet.hand))),
        (plain(w.s("kitty")), plain(kitty)),
    ]
    if sheet.undealt:
        rows.append((plain(w.s("undealt")), plain(w.s("undealt.v", n=sheet.undealt))))
    rows += [
        (plain(w.s("table")), plain(_table_text(sheet, w))),
        (plain(w.s("must_beat")), plain(w.s("must_beat.yes" if sheet.must_beat else "must_beat.no"))),
        (plain(w.s("max_hand")), plain(w.s("max_hand.v", n=sheet.max_hand))),
        (plain(w.s("chain_ranks")), code(sheet.chain_ranks)),
        (plain(w.s("order")), code(" < ".join(ranks)) + plain(w.s("order.ten"))),
    ]
    if sheet.wild is not None:
        rows.append((plain(w.s("wildcards.row")), plain(w.s("wildcards.row.v"))))
    return [Heading(2, plain(w.s("h.deck"))), Table(None, tuple(rows))]


def _combo_blocks(sheet: Sheet, w: _Writer) -> list[Block]:
    intro = w.t("combos.intro")
    rows = []
    for c in sheet.combos:
        what = c.forms[w.lang]
        if c.description:
            what = f"{c.description} ({what})" if w.lang == "en" else f"{c.description}（{what}）"
        rows.append((code(c.name), plain(c.zh or "—"), code(c.pattern), plain(what)))
    head = tuple(plain(w.s(k)) for k in ("col.combo", "col.zh", "col.pattern", "col.forms"))
    ex_rows = []
    for c in sheet.combos:
        chain = plain("—")
        if c.chain is not None:
            ch = c.chain
            chain = plain(
                w.s(
                    "chain.v" if ch.shortest != ch.longest else "chain.one",
                    a=ch.shortest,
                    b=ch.longest,
                    units=units(ch.unit, w.lang),
                    lo=ch.lowest,
                    hi=ch.highest,
                )
            )
        plays = plain(_num(c.plays))
        if c.wild_only:
            plays = plain(
                f"{_num(c.plays)} ({w.s('wild.needs')})"
                if w.lang == "en"
                else f"{_num(c.plays)}（{w.s('wild.needs')}）"
            )
        ex_rows.append((code(c.name), _shown(c.smallest, w), _shown(c.largest, w), chain, plays))
    ex_head = tuple(
        plain(w.s(k))
        for k in ("col.combo", "col.smallest", "col.largest", "col.chain", "col.plays")
    )
    out: list[Block] = [
        Heading(2, plain(w.s("h.combos"))),
        Para(intro),
        Table(head, tuple(rows)),
        Para(w.t("examples.intro", max_hand=sheet.max_hand)),
        Table(ex_head, tuple(ex_rows)),
        Para(
            w.t(
                "census.total", total=_num(sheet.census_total), readings=_num(sheet.census_readings)
            )
        ),
    ]
    if sheet.wild is not None:
        out.append(Para(w.t("census.wild", name=sheet.arg)))
    return out


def _code_list(names: Sequence[str], w: _Writer) -> Inline:
    """Names in code, joined as the language joins a list."""
    out: Inline = ()
    for i, name in enumerate(names):
        out += (plain(", " if w.lang == "en" else "、") if i else ()) + code(name)
    return out


def _compare_key(keys: Sequence[str], w: _Writer) -> str:
    return w.s("key.then").join(w.s(f"key.{k}") for k in keys)


def _compare_blocks(sheet: Sheet, w: _Writer) -> list[Block]:
    out: list[Block] = [Heading(2, plain(w.s("h.compare"))), Para(w.t("compare.plain"))]
    bombs = sorted((c for c in sheet.combos if c.bomb_class >= 0), key=lambda c: c.bomb_class)
    out.append(Para(w.t("compare.bombs" if bombs else "compare.nobombs")))
    if sheet.comparisons:
        items = []
        for cmp in sheet.comparisons:
            a, b = cmp.a, cmp.b
            if cmp.a_beats_b:
                items.append(
                    w.t("compare.beats", a=a.cards, ca=code(a.combo), b=b.cards, cb=code(b.combo))
                )
            elif cmp.b_beats_a:
                items.append(
                    w.t("compare.beats", a=b.cards, ca=code(b.combo), b=a.cards, cb=code(a.combo))
                )
            else:
                items.append(w.t("compare.none", a=a.cards, b=b.cards, la=a.length, lb=b.length))
        out += [Para(w.t("compare.intro")), Bullets(tuple(items))]
    if bombs:
        out.append(Heading(2, plain(w.s("h.bombs"))))
        out.append(Para(w.t("bombs.intro")))
        head = tuple(
            plain(w.s(k))
            for k in ("col.class", "col.combo", "col.zh", "col.key", "col.smallest", "col.largest")
        )
        rows = tuple(
            (
                plain(str(c.bomb_class + 1)),
                code(c.name),
                plain(c.zh or "—"),
                plain(_compare_key(c.compare, w)),
                _shown(c.smallest, w),
                _shown(c.largest, w),
            )
            for c in bombs
        )
        out.append(Table(head, rows))
    return out


def _wild_blocks(sheet: Sheet, w: _Writer) -> list[Block]:
    info = sheet.wild
    assert info is not None
    drawn = w.t("wild.drawn", plugin=info.plugin) if info.plugin else ()
    out: list[Block] = [
        Heading(2, plain(w.s("h.wild"))),
        Para(w.t("wild.what", drawn=drawn, lo=info.lowest, hi=info.highest)),
    ]
    ex = info.substitution
    if ex is not None:
        combo = next(c for c in sheet.combos if c.name == ex.combo)
        subst = " ".join(f"{a}→{b}" for a, b in ex.stands_for)
        out.append(
            Para(
                w.t(
                    "wild.example",
                    w=ex.wild,
                    cards=ex.cards,
                    combo=code(ex.combo),
                    zh=combo.zh or ex.combo,
                    rank=ex.rank,
                    subst=subst,
                )
            )
        )
    items = []
    if info.wild_only:
        items.append(w.t("wild.only", names=_code_list(info.wild_only, w)))
    if info.natural_only:
        items.append(w.t("wild.natural", names=_code_list(info.natural_only, w)))
    if items:
        out.append(Bullets(tuple(items)))
    return out


def _game_blocks(sheet: Sheet, w: _Writer) -> list[Block]:
    out: list[Block] = [Heading(2, plain(w.s("h.game")))]
    if not sheet.has_game:
        out.append(Para(w.t("game.none")))
        return out
    out.append(Para(w.t("game.intro")))
    for role in ("wildcards", "landlord", "declarations", "leader", "rules", "multipliers", "settlement"):
        entries = [p for p in sheet.plugins if p.role == role]
        if not entries:
            continue
        out.append(Heading(3, plain(w.s(f"role.{role}"))))
        for p in entries:
            out.append(Para(code(p.name) + plain(" — " + p.summary[w.lang])))
            if p.rules[w.lang]:
                out.append(Bullets(tuple(plain(r) for r in p.rules[w.lang])))
            if p.params:
                head = tuple(plain(w.s(k)) for k in ("col.param", "col.value", "col.meaning"))
                rows = tuple(
                    (
                        code(q.name),
                        (plain(q.value) if q.value == "—" else code(q.value))
                        + (plain(w.s("default")) if q.default else ()),
                        plain(q.meaning[w.lang] or "—"),
                    )
                    for q in p.params
                )
                out.append(Table(head, rows))
    out.append(Heading(3, plain(w.s("h.play"))))
    leader = next((p for p in sheet.plugins if p.role == "leader"), None)
    if sheet.table_kind != "landlord":
        text = leader.summary[w.lang] if leader else w.s("play.1.seat0")
        first = w.t("play.1.free", leader=text[:1].lower() + text[1:])
    else:
        shown = w.s("play.shown" if sheet.kitty_shown else "play.hidden")
        first = w.t("play.1.leader" if leader else "play.1", shown=shown)
    items = [first, w.t("play.2", direction=w.s(sheet.direction))]
    if sheet.must_beat:
        items.append(w.t("play.must"))
    items.append(w.t("play.3", n=sheet.players - 1))
    if sheet.table_kind == "partnerships":
        teams = w.s("table.teams.sep").join(_team_text(t, w) for t in sheet.teams)
        items.append(w.t("play.4.partnerships", teams=teams))
    else:
        items.append(w.t("play.4" if sheet.table_kind == "landlord" else "play.4.free-for-all"))
    out.append(Bullets(tuple(items)))
    return out


def _action(turn: Turn, w: _Writer) -> str:
    """A decision in words: "seat 1 bid 2", "seat 0 no rob" / "1号位叫2分", "0号位不抢地主"."""
    kind = turn.declined if turn.kind == "decline" and turn.declined is not None else turn.kind
    if kind == "show" and turn.phase == "declare":  # the landlord's 亮牌, not a 明牌 before calling
        kind = "show_hand"
    if turn.kind == "decline" and turn.declined is not None:
        en, zh = w.words.actions.get(kind, (kind, kind))
        what = "no " + en.format(v="").strip() if w.lang == "en" else "不" + zh.format(v="")
    else:
        en, zh = w.words.actions.get(kind, (kind + (" {v}" if turn.value else ""),) * 2)
        what = (en if w.lang == "en" else zh).format(v=turn.value or "")
    return w.s("ex.seat", seat=turn.seat) + (" " if w.lang == "en" else "") + what


def _event_name(name: str, sheet: Sheet, w: _Writer) -> Inline:
    if w.lang == "zh":
        combo = next((c for c in sheet.combos if c.name == name), None)
        if combo is not None and combo.zh:
            return plain(combo.zh)
        if name in w.words.event_names_zh:
            return plain(w.words.event_names_zh[name])
    return code(name)


def _example_blocks(sheet: Sheet, ex: WorkedExample, w: _Writer) -> list[Block]:
    out: list[Block] = [
        Heading(2, plain(w.s("h.example"))),
        Para(w.t("example.intro", bot=ex.bot, seed=ex.seed, name=sheet.arg)),
    ]

    def seat(s: int) -> str:
        return w.s("ex.seat", seat=s)

    rows: list[tuple[Inline, ...]] = []
    if ex.wild is not None:
        rows.append((plain(w.s("ex.wild")), code(ex.wild)))
    if ex.face_up is not None:
        rows.append(
            (
                plain(w.s("ex.face_up")),
                plain(w.s("ex.face_up.v", card=ex.face_up[1], seat=ex.face_up[0])),
            )
        )
    lordless = ex.landlord is None
    if lordless:
        rows.append((plain(w.s("ex.leader")), plain(seat(ex.first_leader or 0))))
    else:
        rows.append((plain(w.s("ex.first")), plain(seat(ex.first_bidder))))
    if ex.redeals:
        reasons = [r if w.lang == "en" else w.words.redeal_reasons_zh.get(r, r) for r in ex.redeals]
        rows.append((plain(w.s("ex.redeals")), plain(f"{len(ex.redeals)}: " + "; ".join(reasons))))
    if not lordless:
        rows.append((plain(w.s("ex.kitty")), code(ex.kitty or "—")))
        stake = f"{ex.stake:g}"
        rows.append(
            (plain(w.s("ex.landlord")), plain(w.s("ex.landlord.v", seat=ex.landlord, stake=stake)))
        )
    if ex.undealt:
        rows.append((plain(w.s("ex.undealt")), code(ex.undealt)))
    rows.append((plain(w.s("ex.multiple")), plain(f"×{ex.multiple:g}")))
    if ex.pair_factors:
        rows.append(
            (
                plain(w.s("ex.pairs")),
                plain(", ".join(w.s("ex.pairs.v", seat=s, f=f"{f:g}") for s, f in ex.pair_factors)),
            )
        )
    bombs = ", ".join(ex.bombs) if ex.bombs else w.s("ex.none")
    rows.append((plain(w.s("ex.plays")), plain(w.s("ex.plays.v", n=ex.plays, bombs=bombs))))
    if not lordless:
        end = w.s("ex.winner.lord" if ex.landlord_won else "ex.winner.farmers", seat=ex.winner)
    elif sheet.table_kind == "partnerships":
        end = w.s("ex.winner.team", seat=ex.winner, team=_team_text(ex.winners, w))
    else:
        end = w.s("ex.winner.alone", seat=ex.winner)
    rows.append((plain(w.s("ex.winner")), plain(end)))
    out.append(Table(None, tuple(rows)))
    items: list[Inline] = []
    joiner = ", " if w.lang == "en" else "，"
    deals = sorted({t.deal for t in ex.turns if t.phase == "landlord"})
    for d in deals:
        acts = [_action(t, w) for t in ex.turns if t.phase == "landlord" and t.deal == d]
        items.append(plain(w.s("ex.deal", n=d + 1) + joiner.join(acts)))
    declared = [_action(t, w) for t in ex.turns if t.phase == "declare"]
    if declared:
        items.append(plain(w.s("ex.declare") + joiner.join(declared)))
    if items:
        out += [Para(w.t("ex.turns")), Bullets(tuple(items))]
    if ex.events:
        head = tuple(
            plain(w.s(k))
            for k in ("col.event", "col.factor", "col.seat", "col.detail", "col.group")
        )
        rows2 = tuple(
            (
                _event_name(e.name, sheet, w),
                plain(f"×{e.factor:g}"),
                plain("—" if e.seat is None else str(e.seat)),
                code(e.detail) if e.detail else plain("—"),
                plain(e.group or "—"),
            )
            for e in ex.events
        )
        out += [Para(w.t("ex.events")), Table(head, rows2)]
    else:
        out.append(Para(w.t("ex.noevents")))
    settle = next((p.name for p in sheet.plugins if p.role == "settlement"), "?")
    head = tuple(plain(w.s(k)) for k in ("col.seat", "col.role", "col.dealt", "col.score"))
    rows3 = tuple(
        (
            plain(str(s)),
            plain(_role(sheet, ex, s, w)),
            code(hand),
            plain(f"{score:+,}"),
        )
        for s, (hand, score) in enumerate(zip(ex.hands, ex.scores))
    )
    out += [Para(w.t("ex.scores", plugin=settle)), Table(head, rows3)]
    return out


def _role(sheet: Sheet, ex: WorkedExample, seat: int, w: _Writer) -> str:
    """A seat's part in the worked example: landlord or farmer, else winner or loser
    (with his team at a partnerships table)."""
    if ex.landlord is not None:
        return w.s("role.lord" if seat == ex.landlord else "role.farmer")
    role = w.s("role.winner" if seat in ex.winners else "role.loser")
    if sheet.table_kind != "partnerships":
        return role
    team = next((t for t in sheet.teams if seat in t), (seat,))
    return w.s("role.team", team=_team_text(team, w), role=role)


# ====================================================================== writers
# Every text of the document model reaches the page through one of the escapers below,
# chosen by the context it lands in (prose, a code span, a table cell, the start of a
# block), whichever field of the spec or fixed sentence it came from. The Markdown is
# read by two renderers — Python-Markdown with the site's extensions (mkdocs.yml) and
# GitHub's — so each escape is one that both read the same way: a backslash where both
# honour it, a character reference where one of them does not (Python-Markdown keeps
# the backslash of ``\<``, ``\~`` and ``\?``), so that no spec text can open raw HTML,
# a link, a code span, emphasis, an attribute list (``{: onclick=...}``), a table cell
# or a block.

_WS = re.compile(r"\s+")
#: characters no page can hold — C0 and C1 controls and DEL, but tab, newline and
#: carriage return (an XML parser refuses the page at the first of them)
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
#: prose: metacharacters both renderers unescape after a backslash, and the others as
#: character references (``&`` among them, so a spec's own ``&lt;`` stays text) — one
#: pass of str.translate, linear in the text
_MD_PROSE = str.maketrans(
    {c: "\\" + c for c in "\\`*_[]{}#|"} | {"<": "&lt;", ">": "&gt;", "&": "&amp;", "~": "&#126;"}
)
#: then the ``://`` and ``www.`` from which GitHub makes a link of a bare URL, so that a
#: URL is shown as text, as in the HTML sheet (the pass above leaves ``:``, ``/``, ``.``
#: and ``w`` as they are)
_MD_AUTOLINK = re.compile(r":(?=//)|(?<=[wW]{3})\.")
#: what would open a block at the start of a line: an ordered list item (``1.``, ``1)``),
#: a bullet (``-``, ``+``), a setext underline (``=``), an admonition (``!!!``) or a
#: details block (``???``); ``*``, ``#``, ``>`` and the backtick are escaped everywhere
_MD_NUMBERED = re.compile(r"(\d+)([.)])")
_MD_LINE_START = {"-": "\\-", "+": "\\+", "=": "\\=", "!": "\\!", "?": "&#63;"}
_BACKTICKS = re.compile(r"`+")


def _printable(text: str) -> str:
    """A text with each control character (:data:`_CONTROL`) as U+FFFD, in either format."""
    return _CONTROL.sub("\ufffd", text)


def _clean(text: str) -> str:
    """A text on one line: whitespace runs (newlines too) as one space, controls as U+FFFD."""
    return _printable(_WS.sub(" ", text))


def md_text(text: str) -> str:
    """Prose: ``text`` as Markdown that renders as exactly that text (whitespace collapsed),
    in a paragraph, a heading or a table cell — no raw HTML, link, emphasis, code span,
    attribute list or cell break can come out of it."""
    return _MD_AUTOLINK.sub(
        lambda m: "&#58;" if m.group() == ":" else "\\.", _clean(text).translate(_MD_PROSE)
    )


def _md_span(text: str) -> str:
    r"""One code span of ``text`` (no newline): the fence one backtick longer than the
    longest run inside, so none closes it; padded with a space where the text starts or
    ends with a backtick or a space (CommonMark takes one space off each side of a span,
    Python-Markdown every space) or ends with a backslash (Python-Markdown's table rows
    read ``\```` as an escaped backtick)."""
    if not text.strip(" "):
        return text
    longest = max((len(run) for run in _BACKTICKS.findall(text)), default=0)
    fence = "`" * (longest + 1)
    pad = longest > 0 or text[0] in " `" or text[-1] in " `\\"
    return f"{fence} {text} {fence}" if pad else f"{fence}{text}{fence}"


def md_code(text: str, in_table: bool = False) -> str:
    r"""``text`` as code. In a table cell a ``|`` cannot stay inside a code span — GitHub
    splits the cell there unless it is ``\|``, which Python-Markdown then shows with its
    backslash — so the text is cut at each ``|``: the pieces are code spans, the bars
    escaped prose between them (``3 + 1 | 3 + 2`` as `` `3 + 1` \| `3 + 2` ``)."""
    text = _clean(text)
    if not in_table or "|" not in text:
        return _md_span(text)
    out = []
    for i, piece in enumerate(text.split("|")):
        core = piece.strip(" ")
        lead = " " if piece.startswith(" ") else ""
        trail = " " if piece.endswith(" ") and core else ""
        out.append(("\\|" if i else "") + lead + (_md_span(core) if core else "") + trail)
    return "".join(out)


def _merged(runs: Inline) -> Inline:
    """Adjacent runs of one style as one run (a code span filled from several values is
    one span)."""
    out: list[tuple[str, str]] = []
    for style, text in runs:
        if out and out[-1][0] == style:
            out[-1] = (style, out[-1][1] + text)
        elif text:
            out.append((style, text))
    return tuple(out)


def _md_inline(runs: Inline, in_table: bool = False) -> str:
    out = []
    for style, text in _merged(runs):
        if style == "code":
            out.append(md_code(text, in_table))
        elif style == "b":
            out.append(f"**{md_text(text)}**")
        else:
            out.append(md_text(text))
    return "".join(out)


def _md_line(runs: Inline) -> str:
    """A paragraph or list item: it must not start like a block (a list item, a setext
    underline, an admonition …); a leading space, which renderers drop, is dropped here
    so that it cannot hide such a start."""
    line = _md_inline(runs).lstrip(" ")
    m = _MD_NUMBERED.match(line)
    if m:
        return m.group(1) + "\\" + m.group(2) + line[m.end() :]
    first = _MD_LINE_START.get(line[:1])
    return first + line[1:] if first is not None else line


def _markdown(blocks: Iterable[Block]) -> str:
    parts = []
    for b in blocks:
        if isinstance(b, Heading):
            parts.append("#" * b.level + " " + _md_inline(b.text))
        elif isinstance(b, Para):
            parts.append(_md_line(b.text))
        elif isinstance(b, Bullets):
            parts.append("\n".join("- " + _md_line(item) for item in b.items))
        else:
            width = len(b.head) if b.head is not None else 2
            lines = [
                "| " * width + "|"
                if b.head is None
                else "| " + " | ".join(_md_inline(h, True) for h in b.head) + " |",
                "|" + " --- |" * width,
            ]
            for row in b.rows:
                lines.append("| " + " | ".join(_md_inline(c, True) for c in row) + " |")
            parts.append("\n".join(lines))
    return "\n\n".join(parts) + "\n"


_CSS = """\
body { font-family: system-ui, sans-serif; max-width: 70rem; margin: 2rem auto; padding: 0 1rem;
       line-height: 1.45; color: #1d1d1f; }
h1 { font-size: 1.6rem; }
h2 { margin-top: 2rem; border-bottom: 1px solid #ddd; }
h3 { margin-top: 1.4rem; }
table { border-collapse: collapse; margin: 0.6rem 0; }
th, td { border: 1px solid #ccc; padding: 0.25rem 0.5rem; text-align: left; vertical-align: top; }
th { background: #f4f4f6; }
code { font-family: ui-monospace, monospace; background: #f4f4f6; padding: 0 0.2rem; }
"""


def _html_inline(runs: Inline) -> str:
    out = []
    for style, text in _merged(runs):
        t = html.escape(_printable(text), quote=True)
        out.append(
            f"<code>{t}</code>"
            if style == "code"
            else f"<strong>{t}</strong>"
            if style == "b"
            else t
        )
    return "".join(out)


def _html(blocks: list[Block], lang: str) -> str:
    title = next((b.text for b in blocks if isinstance(b, Heading)), plain(""))
    body = []
    for b in blocks:
        if isinstance(b, Heading):
            body.append(f"<h{b.level}>{_html_inline(b.text)}</h{b.level}>")
        elif isinstance(b, Para):
            body.append(f"<p>{_html_inline(b.text)}</p>")
        elif isinstance(b, Bullets):
            body.append(
                "<ul>\n" + "\n".join(f"<li>{_html_inline(i)}</li>" for i in b.items) + "\n</ul>"
            )
        else:
            rows = []
            if b.head is not None:
                rows.append(
                    "<thead><tr>"
                    + "".join(f"<th>{_html_inline(h)}</th>" for h in b.head)
                    + "</tr></thead>"
                )
            rows.append("<tbody>")
            for row in b.rows:
                cells = "".join(
                    f"<{'th' if b.head is None and i == 0 else 'td'}>{_html_inline(c)}"
                    f"</{'th' if b.head is None and i == 0 else 'td'}>"
                    for i, c in enumerate(row)
                )
                rows.append(f"<tr>{cells}</tr>")
            rows.append("</tbody>")
            body.append("<table>\n" + "\n".join(rows) + "\n</table>")
    head_title = html.escape(_clean("".join(t for _, t in title)), quote=True)
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="{"zh-CN" if lang == "zh" else "en"}">\n<head>\n<meta charset="utf-8"/>\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1"/>\n'
        f"<title>{head_title}</title>\n<style>\n{_CSS}</style>\n</head>\n<body>\n"
        + "\n".join(body)
        + "\n</body>\n</html>\n"
    )


def render_sheet(sheet: Sheet, lang: str = "en", fmt: str = "md") -> str:
    """Write a computed sheet in ``lang`` (``en``/``zh``) as ``fmt`` (``md``/``html``)."""
    if fmt not in FORMATS:
        raise DdzError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
    blocks = _blocks(sheet, lang)
    return _markdown(blocks) if fmt == "md" else _html(blocks, lang)


def sheet_text(spec: str | Path, lang: str = "en", fmt: str = "md", seed: int | None = None) -> str:
    """The sheet of a spec in one call: :func:`build_sheet` then :func:`render_sheet`."""
    _Writer(lang)  # a bad language fails before the (slower) building
    if fmt not in FORMATS:
        raise DdzError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
    return render_sheet(build_sheet(spec, seed), lang, fmt)


# ====================================================================== the bundled sheets


@dataclass(frozen=True)
class GeneratedBlock:
    """One generated block of a document: the spec and language its marker names, and
    the text between the markers."""

    spec: str
    lang: str
    start: int  # offset of the first character after the BEGIN line
    end: int  # offset of the END marker
    text: str


def generated_blocks(text: str, where: str = "the document") -> list[GeneratedBlock]:
    """The generated blocks of a document, in order; a BEGIN without its END is an error."""
    out = []
    for m in _BEGIN_RE.finditer(text):
        start = m.end() + 1
        end = text.find(END, start)
        nested = _BEGIN_RE.search(text, start)
        if end < 0 or (nested is not None and nested.start() < end):
            raise DdzError(f"{where}: the marker for {m.group('spec')} has no {END} after it")
        out.append(GeneratedBlock(m.group("spec"), m.group("lang"), start, end, text[start:end]))
    return out


def regenerate(text: str, make: Callable[[str, str], str], where: str = "the document") -> str:
    """``text`` with every generated block replaced by ``make(spec, lang)``."""
    out, pos = [], 0
    for b in generated_blocks(text, where):
        out.append(text[pos : b.start])
        out.append(make(b.spec, b.lang))
        pos = b.end
    out.append(text[pos:])
    return "".join(out)


@dataclass(frozen=True)
class DocStatus:
    path: Path
    specs: tuple[str, ...]
    stale: (
        bool  # the file differed from what its specs generate (and was rewritten unless checking)
    )


def update_docs(
    directory: str | Path, check: bool = False, make: Callable[[str, str], str] | None = None
) -> list[DocStatus]:
    """Regenerate the generated block of every ``*.md`` of ``directory`` (not recursive).

    With ``check`` nothing is written: the result says which files are stale. Files
    without markers are left alone. ``make(spec, lang)`` defaults to the Markdown sheet.
    """
    root = Path(directory)
    if not root.is_dir():
        raise DdzError(f"{directory}: not a directory")
    cache: dict[tuple[str, str], str] = {}

    def default(spec: str, lang: str) -> str:
        if (spec, lang) not in cache:
            cache[(spec, lang)] = sheet_text(spec, lang)
        return cache[(spec, lang)]

    out = []
    for path in sorted(root.glob("*.md")):
        text = path.read_text(encoding="utf-8")
        blocks = generated_blocks(text, str(path))
        if not blocks:
            continue
        new = regenerate(text, make or default, str(path))
        stale = new != text
        if stale and not check:
            path.write_text(new, encoding="utf-8")
        out.append(DocStatus(path, tuple(b.spec for b in blocks), stale))
    return out


def __getattr__(name: str) -> Any:
    """``TEXTS``: every fixed text, key -> (English, Chinese), read from the catalogue on
    first use (:func:`ddzrules.sheets.words.load_words`), not when the package is imported."""
    if name == "TEXTS":
        return load_words().texts
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
