"""What a rule sheet says of a spec, computed: the data classes of a sheet and
:func:`build_sheet`, which fills them from the resolved spec, the compiled tables, the move
universe, the activated plugins' own descriptions and one seeded game of the bundled bots.
The combos' compiled forms are put in words here too, in both languages, since they are
read off the compiled shapes. Nothing here writes a page (:mod:`ddzrules.sheets.layout`
does).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from ddzrules import cards as C
from ddzrules.errors import brief
from ddzrules.rules.moves import Move
from ddzrules.rules.shapes import UNBOUNDED, KickerRule, Shape
from ddzrules.rules.variant import Variant, load_variant
from ddzrules.runtime.checks import plain_answer
from ddzrules.sheets.density import Density, density_of
from ddzrules.sheets.words import LANGS, text, units
from ddzrules.simulate.games import carries_cards
from ddzrules.spec import bundled_root

if TYPE_CHECKING:
    from ddzrules.runtime import Game

#: the seeds tried, in order, for the worked example: the first game with a multiplier
#: event is shown (else the first), so the example shows the score being multiplied
EXAMPLE_SEEDS = range(1, 21)
#: the bot at every seat of the worked example (the default of ``ddzrules play``)
EXAMPLE_BOT = "heuristic"


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
    count: int = 1  # ranks wild at once in a deal (wildcards.ranks; 天地癞子: 2)


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
    #: provenance written by this spec's own file: a parent's region and source are not
    #: this spec's (a house rule made with ``new x --extends hubei-3p`` is not 湖北's text)
    region: str | None
    source: dict[str, str]
    parents: tuple[str, ...]
    #: the provenance each parent of the chain wrote (nearest first, as :attr:`parents`):
    #: ``(region, source)``, None where that parent wrote neither
    parent_provenance: tuple[tuple[str | None, dict[str, str]] | None, ...]
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
    #: the deal's bomb density, measured for these rules, beside a shuffled deal's (sheets.density)
    density: tuple[Density, Density] | None
    #: the deal is the match's previous game's cards (不洗牌, gather: played)
    carries_cards: bool
    plugins: tuple[PluginEntry, ...]
    example: WorkedExample | None
    readings: tuple[tuple[str, str], ...]
    notes: str | None


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
    carries = False
    plugins: tuple[PluginEntry, ...] = ()
    example = None
    if has_game:
        from ddzrules.runtime import GameRules

        game_rules = GameRules(v)
        # describe is plugin code: called as the runtime calls any (call_plugin), for a game
        # of these rules, which it is not given (call_plugin audits it: nothing changes)
        probe = game_rules.new_game(0)
        plugins = tuple(
            plugin_entry(role, name, inst, data["game"], probe)
            for role, name, inst in game_rules.active
        )
        example = _worked_example(game_rules, seed)
        carries = carries_cards(game_rules)
    parents = _parents(v)
    own_region, own_source, by_parent = _provenance(v, len(parents))
    return Sheet(
        name=v.name,
        arg=_command_name(v),
        seed=seed,
        title=dict(data.get("title") or {}),
        region=own_region,
        source=own_source,
        parents=parents,
        parent_provenance=by_parent,
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
        density=density_of(v.name, rules.content_hash),
        carries_cards=carries,
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


def _provenance(v: Variant, n_parents: int) -> tuple[
        str | None, dict[str, str], tuple[tuple[str | None, dict[str, str]] | None, ...]]:
    """``region`` and ``source`` split by the file of the ``extends:`` chain that wrote
    each (its key's position): this spec's own, then each parent's. A spec given as data
    (no files) wrote all of its own."""
    data = v.spec.data
    files = v.spec.chain
    where = v.spec.key_positions if v.spec.sources else {}

    def index(path: tuple[str, ...]) -> int:
        pos = where.get(path)
        return files.index(pos.location.file) if pos is not None and pos.location.file in files else 0

    regions: list[str | None] = [None] * (n_parents + 1)
    sources: list[dict[str, str]] = [{} for _ in range(n_parents + 1)]
    if data.get("region"):
        regions[min(index(("region",)), n_parents)] = str(data["region"])
    source = {k: str(val) for k, val in (data.get("source") or {}).items() if val}
    if source:  # the nearest file that writes any of it owns what it writes; a section or
        # url alone cites the document it inherits, but a parent's section is no part of
        # another document
        nearest = min(index(("source", k)) for k in source)
        own = {k: v for k, v in source.items() if index(("source", k)) == nearest}
        if "document" in source and "document" not in own:
            own = {"document": source["document"], **own}
        sources[min(nearest, n_parents)] = own
    by_parent = tuple((regions[i], sources[i]) if regions[i] or sources[i] else None
                      for i in range(1, n_parents + 1))
    return regions[0], sources[0], by_parent


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
    from ddzrules.rules.wild_walk import enumerate_wild

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
        v.rules.wild_count,
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
    TypeError, the PluginError that says what the plugin answered). Read as a bounded plain
    copy (:func:`~ddzrules.runtime.checks.plain_answer`: a list that iterates for ever is not
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


def plugin_entry(role: str, name: str, inst: Any, game: dict[str, Any], probe: Game) -> PluginEntry:
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
        params = _schema_params(inst, given)
    return PluginEntry(role, name, summary, rules, tuple(params))


def _schema_params(inst: Any, given: dict[str, Any]) -> list[ParamEntry]:
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


def _forms(v: Variant, shapes: list[Shape], lang: str) -> str:
    """A combo's compiled alternatives in words: core, kickers, constraints."""
    return text("form.sep", lang).join(_form(v, s, lang) for s in shapes)


def _say(key: str, lang: str, **values: Any) -> str:
    return text(key, lang).format(**values)


def _span(ranks: Sequence[int]) -> str:
    return f"{C.RANKS[ranks[0]]}..{C.RANKS[ranks[-1]]}"


def _form(v: Variant, s: Shape, lang: str) -> str:
    all_ranks = tuple(r for r in range(C.NUM_RANKS) if v.rules.deck[r] >= max(s.unit, 1))
    if s.kind == "group":
        n = (
            f"{s.unit}"
            if s.max_count == s.unit
            else _say("form.count.range", lang, a=s.unit, b=s.max_count)
        )
        one = s.unit == 1 and s.max_count == 1
        core = _say("form.group.one" if one else "form.group", lang, n=n)
        if s.ranks != all_ranks:
            core += _say("form.span", lang, span=_span(s.ranks))
    elif s.kind == "chain":
        n = (
            f"{s.min_len}"
            if s.min_len == s.max_len
            else _say("form.chain.range", lang, a=s.min_len, b=s.max_len)
        )
        core = _say("form.chain", lang, n=n, units=units(s.unit, lang), span=_span(s.ranks))
    else:
        core = _say("form.literal", lang, cards=C.to_string(s.literal))
    plus = text("form.plus", lang)
    out = core + "".join(plus + _kicker(v, k, s, lang) for k in s.kickers)
    cons = _constraints(s, lang)
    if cons:
        out += _say("form.conditions", lang, conditions=text("form.and", lang).join(cons))
    return out


def _kicker(v: Variant, k: KickerRule, s: Shape, lang: str) -> str:
    kind_1, kind_n = units(k.unit, lang, plural=False), units(k.unit, lang)
    out = []
    if k.fixed:
        out.append(_say("kicker.fixed", lang, n=k.fixed, unit=kind_1,
                        units=kind_1 if k.fixed == 1 else kind_n))
    if k.per_n:
        out.append(_say("kicker.per", lang, n=k.per_n, unit=kind_1,
                        units=kind_1 if k.per_n == 1 else kind_n,
                        per=units(s.unit, lang, plural=False)))
    words = text("form.plus", lang).join(out)
    full = tuple(r for r in range(C.NUM_RANKS) if v.rules.deck[r] > 0)
    if k.ranks != full:
        words += _say("kicker.from", lang, span=_span(k.ranks))
    return words


def _constraints(s: Shape, lang: str) -> list[str]:
    out = []
    if s.kickers:
        if s.distinct:
            out.append(text("cond.distinct", lang))
        if s.overlap:
            out.append(text("cond.overlap", lang))
        if s.jokers < UNBOUNDED:
            out.append(_say("cond.jokers.one" if s.jokers == 1 else "cond.jokers", lang, n=s.jokers))
        if s.per_rank < UNBOUNDED:
            out.append(_say("cond.per_rank", lang, n=s.per_rank))
        if s.adjacent < UNBOUNDED:
            out.append(_say("cond.adjacent", lang, n=s.adjacent))
    for what, lo, hi in (
        ("cond.wild", s.wilds_min, s.wilds_max),
        ("cond.natural", s.naturals_min, s.naturals_max),
    ):
        name = text(what, lang)
        if hi == 0:
            out.append(_say("cond.none", lang, what=name))
        elif hi < UNBOUNDED:
            out.append(_say("cond.at_most.one" if hi == 1 else "cond.at_most", lang, n=hi, what=name))
        if lo > 0:
            out.append(_say("cond.at_least.one" if lo == 1 else "cond.at_least", lang, n=lo, what=name))
    return out
