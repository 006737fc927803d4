"""What a rule sheet says of a spec, computed: the data classes of a sheet and
:func:`build_sheet`, which fills them from the resolved spec, the compiled tables, the move
universe, the activated plugins' own descriptions and one seeded game of the bundled bots
(:mod:`ddzrules.sheets.plugin_facts`), and the combos' compiled forms in words
(:mod:`ddzrules.sheets.forms`). Nothing here writes a page (:mod:`ddzrules.sheets.layout`
does).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from ddzrules import cards as C
from ddzrules.rules.moves import Move
from ddzrules.rules.shapes import Shape
from ddzrules.sheets.density import Density, density_of
from ddzrules.sheets.forms import combo_forms
from ddzrules.sheets.plugin_facts import (  # noqa: F401 - re-exported: a sheet's data classes, wherever they are defined
    EXAMPLE_BOT,
    EXAMPLE_SEEDS,
    EventEntry,
    ParamEntry,
    PluginEntry,
    Turn,
    WorkedExample,
    plugin_entry,
    worked_example,
)
from ddzrules.sheets.words import LANGS
from ddzrules.simulate.games import carries_cards
from ddzrules.spec import Frozen, bundled_root, read_spec_text
from ddzrules.variant import Variant, load_variant


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
class WildInfo:
    lowest: str
    highest: str
    plugin: str | None
    substitution: Example | None  # a natural play made again with a wild card
    wild_only: tuple[str, ...]  # combos that need a wild card
    natural_only: tuple[str, ...]  # combos that admit none
    count: int = 1  # ranks wild at once in a deal (wildcards.ranks; 天地癞子: 2)


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
    rule_spec = v.spec.rule_spec
    # in the spec's order ("222A"); a rank removed whole once
    removed_ranks, removed_cards = ("".join(C.RANKS[r] for r in C.parse_ranks(text))
                                    for text in (rule_spec.deck.remove_ranks, rule_spec.deck.remove_cards))
    rules = v.rules
    readings = _natural_readings(v)
    census = v.census()
    combos = tuple(
        _combo_entry(v, i, readings.get(info.name, []), census.by_combo.get(info.name, 0))
        for i, info in enumerate(rules.combos)
    )
    has_game = bool(rule_spec.game)
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
            plugin_entry(role, name, inst, rule_spec.game, probe)
            for role, name, inst in game_rules.active
        )
        example = worked_example(game_rules, seed)
        carries = carries_cards(game_rules)
    parents = _parents(v)
    own_region, own_source, by_parent = _provenance(v, len(parents))
    return Sheet(
        name=v.name,
        arg=_command_name(v),
        seed=seed,
        title={lang: text for lang, text in (("zh", rule_spec.title_zh), ("en", rule_spec.title_en)) if text},
        region=own_region,
        source=own_source,
        parents=parents,
        parent_provenance=by_parent,
        content_hash=rules.content_hash,
        players=rule_spec.players,
        direction=rule_spec.direction,
        decks=rule_spec.deck.decks,
        deck=tuple(rules.deck),
        hand=rule_spec.deal.hand,
        kitty=rule_spec.deal.kitty,
        kitty_shown=rule_spec.deal.kitty_shown,
        undealt=rule_spec.deal.undealt,
        removed_ranks=removed_ranks,
        removed_cards=removed_cards,
        table_kind=rule_spec.table.kind,
        teams=rule_spec.table.teams,
        must_beat=rule_spec.table.must_beat,
        max_hand=rules.max_hand,
        chain_ranks=rule_spec.chain_ranks,
        combos=combos,
        census_total=census.total,
        census_readings=census.readings,
        comparisons=_comparisons(v, readings, combos),
        wild=_wild_info(v, combos, rule_spec.game),
        has_game=has_game,
        density=density_of(v.name, rules.content_hash),
        carries_cards=carries,
        plugins=plugins,
        example=example,
        readings=tuple((k, t) for k, t in rule_spec.readings.items() if t),
        notes=rule_spec.notes,
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
        # read again as the loader read it (bounded, a regular file, UTF-8): the file may
        # have become something else since, which must not hang or crash the sheet
        raw = yaml.safe_load(read_spec_text(path, file))
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
    spec = v.spec.rule_spec
    files = v.spec.chain
    where = v.spec.key_positions if v.spec.sources else {}

    def index(path: tuple[str, ...]) -> int:
        pos = where.get(path)
        return files.index(pos.location.file) if pos is not None and pos.location.file in files else 0

    regions: list[str | None] = [None] * (n_parents + 1)
    sources: list[dict[str, str]] = [{} for _ in range(n_parents + 1)]
    if spec.region:
        regions[min(index(("region",)), n_parents)] = spec.region
    source = {k: val for k, val in spec.source.items() if val}
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
    forms = {lang: combo_forms(v, shapes, lang) for lang in LANGS}
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


def _wild_info(v: Variant, combos: tuple[ComboEntry, ...], game: Mapping[str, Frozen]) -> WildInfo | None:
    stand = v.rules.stand_for
    if not stand:
        return None
    plugin = game.get("wildcards")
    named = plugin.get("plugin") if isinstance(plugin, Mapping) else None
    name = named if isinstance(named, str) else None
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
