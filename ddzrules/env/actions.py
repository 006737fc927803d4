"""The environment's fixed action table and its seeds: every play of the spec's move
universe as the action it stands for (:func:`play_key`), the plays only wild cards make
(found once per spec, kept in the keyed cache), the non-play actions the plugins
declare, and the one check of a game's seed. :mod:`ddzrules.env` and
:mod:`ddzrules.env.batch` build their action spaces from it."""

from __future__ import annotations

import json
import operator
from collections.abc import Sequence
from typing import Any, SupportsIndex, cast

import numpy as np

from ddzrules import cards as C
from ddzrules.errors import (
    DdzError,
    SeedError,
    brief,
)
from ddzrules.rules.compiler import COMPILER_SOURCES
from ddzrules.rules.moves import Move
from ddzrules.rules.shapes import Shape
from ddzrules.rules.wild_store import WILD_SOURCES
from ddzrules.runtime import (
    GameRules,
    PluginRegistry,
    call_declared,
    load_plugin_class,
)
from ddzrules.speed import cache
from ddzrules.untrusted import JSONPolicy, JSONRefused, parse_json

#: the version of the action table's layout, in the cache key of the wild-only plays
ENV_VERSION = 1

NUM_RANKS = C.NUM_RANKS

ActionKey = tuple[str, int | str | None]


_PHASE_HOOKS = ("ddzrules_landlord_phase", "ddzrules_declaration_phases")


#: seeds are integers 0 to 2**64 - 1: each is one game, which a record can replay
SEED_LIMIT = 2**64


def game_seed(seed: object) -> int:
    """``seed`` as a game's seed: an integer (a Python ``int`` or an integer type such as
    numpy's) from 0 to 2**64 - 1. Anything else is a :class:`SeedError`: a bool, a float or
    a string is no seed, and a negative seed would give the game of its absolute value (the
    generator seeds from it), so two seeds would name one game and a record could not say
    which. A NumPy array of no axis holding an integer is that integer; one of several
    values is no seed (its ``__index__`` raised a bare TypeError)."""
    if isinstance(seed, np.ndarray):
        if seed.ndim == 0 and seed.dtype.kind in "iu":
            seed = int(seed)
        else:
            raise SeedError(f"reset(seed=...) takes an integer 0 to 2**64 - 1 (the game's seed, which a "
                            f"record replays), not an array of shape {seed.shape} ({seed.dtype})")
    if isinstance(seed, bool) or not hasattr(type(seed), "__index__"):
        raise SeedError(f"reset(seed=...) takes an integer 0 to 2**64 - 1 (the game's seed, which a "
                        f"record replays), not {brief(seed)} ({type(seed).__name__})")
    value = operator.index(cast(SupportsIndex, seed))  # its type has __index__ (checked above)
    if not 0 <= value < SEED_LIMIT:
        raise SeedError(f"reset(seed=...) takes an integer 0 to 2**64 - 1 (the game's seed, which a "
                        f"record replays), not {brief(value)}")
    return value


#: a play's action identity: (combo, rank, chain length, the packed counts it stands
#: for); for a play without wild cards these are its own cards
PlayKey = tuple[str, int, int, int]
_PLAYS: dict[str, tuple[Move, ...]] = {}


def play_key(move: Move) -> PlayKey:
    """The action identity of a play: its reading and the cards it *stands for* (a wild
    card counted as the rank it replaces), so that one action id means the same play
    whatever the deal's wild rank."""
    packed = move.packed
    if move.substitution:
        counts = C.unpack(packed)
        for wild, stands_for in move.substitution:
            counts[C.RANKS.index(wild)] -= 1
            counts[C.RANKS.index(stands_for)] += 1
        packed = C.pack(counts)
    return move.combo, move.rank, move.length, packed


def spec_wild_ranks(rules: GameRules) -> tuple[int, ...]:
    """The ranks the spec's wildcard plugin may make wild, drawn or fixed (its
    ``may_be_wild``, else its ``ranks``; empty without wildcards)."""
    for role, _name, inst in rules.active:
        if role == "wildcards":
            ranks = getattr(inst, "may_be_wild", None) or getattr(inst, "ranks", None)
            if ranks is None:
                raise DdzError(f"{rules.variant.name}: the environment needs the wild ranks of the "
                               f"wildcards plugin {_name!r} (an attribute 'ranks')")
            return tuple(ranks)
    return ()


def _rank_cap(shape: Shape) -> int:
    """The most cards of one rank a play of ``shape`` may stand for."""
    if shape.kind == "literal":
        core = max(C.unpack(shape.literal))
    else:
        core = shape.max_count if shape.kind == "group" else shape.unit
    length = 1 if shape.kind == "group" else shape.max_len
    kickers = shape.kicker_cards(length)
    if shape.overlap:  # kickers may be of the core's ranks
        return core + kickers
    return max(core, max((k.unit for k in shape.kickers), default=0) if shape.distinct else kickers)


def several_wild_ranks_problem(rules: GameRules) -> str | None:
    """Why the action table of one wild rank a deal misses plays of several (天地癞子), or
    None. A play of several wild ranks stands for cards (its key, :func:`play_key`); one
    wild rank makes the same key when (a) no shape stands for more cards of a rank than
    the deck holds (so a key of a shape that admits natural cards only is natural) and
    (b) a shape that needs wild cards (a soft or pure bomb) holds at most as many as one
    wild rank has: the same naturals with that many cards of an unused rank make it."""
    v = rules.variant.rules
    if v.wild_count <= 1:
        return None
    names = [c.name for c in v.combos]
    ranks = [r for r in spec_wild_ranks(rules) if r in v.stand_for]
    fewest = min((v.deck[r] for r in ranks), default=0)
    for shape in v.shapes:
        cap = _rank_cap(shape)
        over = [C.RANKS[r] for r in v.stand_for if cap > v.deck[r]]
        if over:
            return (f"combo {names[shape.combo]!r} may stand for {cap} cards of rank {over[0]}, more than "
                    f"the deck holds, which several wild ranks could make in ways one cannot")
        if not shape.natural:
            most = min(shape.wilds_max, shape.max_size() - shape.naturals_min)
            if most > fewest:
                return (f"combo {names[shape.combo]!r} holds up to {most} wild cards, more than one "
                        f"wild rank has ({fewest})")
    return None


def _wild_only(rules: GameRules, natural: set[PlayKey]) -> list[Move]:
    """The plays only wild cards make (癞子场's soft and pure bombs …), over every wild
    rank the spec may draw: one full-deck walk per rank (about a second each), kept in
    the keyed cache. Each is shown as a Move of the cards it stands for."""
    v = rules.variant
    ranks = spec_wild_ranks(rules)
    code = cache.code_hash(ENV_VERSION, "ddzrules.env", *WILD_SOURCES, *COMPILER_SOURCES)
    # the ranks walked are the plugin's, not the compiled rules': they name the file too
    name = f"env-{v.rules.content_hash[:24]}-{code[:12]}-{''.join(C.RANKS[r] for r in ranks)}.json"
    combo_names = {c.name for c in v.rules.combos}
    deck = v.rules.deck
    # a play stands for at most the deck's cards of a rank plus every wild card
    limits = [deck[r] + max(deck[w] for w in ranks) for r in range(len(deck))]
    keys = cache.load(name, lambda body: _parse_keys(body, combo_names, limits, v.rules.max_hand))
    if keys is None:
        from ddzrules.rules.wild_walk import walk

        found: set[PlayKey] = set()
        names = [c.name for c in v.rules.combos]
        for w in ranks:
            deck = list(v.rules.deck)
            wilds, deck[w] = deck[w], 0
            readings: dict[tuple[int, int, int, int], tuple[int, ...]] = {}
            walk(v.rules, deck, wilds, w, readings, max_size=v.rules.max_hand)
            wild_unit = 1 << (C.BITS * w)
            for (packed, combo, rank, length), subst in readings.items():
                # the packed counts it stands for: each wild card moved to its rank
                stands = packed - len(subst) * wild_unit + sum(1 << (C.BITS * r) for r in subst)
                key = (names[combo], rank, length, stands)
                if key not in natural:
                    found.add(key)
        keys = sorted(found, key=lambda k: (C.to_string(k[3]), k))
        cache.store(name, json.dumps([list(k) for k in keys]).encode())
    combos = {c.name: c for c in v.rules.combos}
    return [Move(C.to_string(packed), combo, rank, length, C.size_of(packed), combos[combo].tier,
                 combos[combo].key(C.size_of(packed), rank, length), packed, ())
            for combo, rank, length, packed in keys]


#: a cache entry of wild-only keys under the one strict-JSON policy: a list of lists
_KEYS_JSON = JSONPolicy(max_bytes=1 << 31, max_depth=2)


def _parse_keys(body: bytes, combo_names: set[str], limits: list[int], max_hand: int) -> list[PlayKey]:
    """The cached wild-only keys, their structure checked (the cache is untrusted): known
    combos, ranks and lengths in range, counts within ``limits`` per rank, sizes at most
    ``max_hand``."""
    try:
        rows = parse_json(body, _KEYS_JSON)
    except JSONRefused as e:  # the cache's own word for an entry it does not trust
        raise ValueError(f"not a list of play keys ({e})") from None
    if not isinstance(rows, list) or len(rows) > 1_000_000:
        raise ValueError("not a list of play keys")
    out: list[PlayKey] = []
    for row in rows:
        if not (isinstance(row, list) and len(row) == 4):
            raise ValueError(f"bad play key {row!r}")
        combo, rank, length, packed = row
        if not (isinstance(combo, str) and combo in combo_names and type(rank) is int and type(length) is int
                and type(packed) is int and all(0 <= x < 1 << 60 for x in (rank, length, packed))
                and rank < NUM_RANKS and 1 <= length <= max_hand):
            raise ValueError(f"bad play key {row!r}")
        counts = C.unpack(packed)
        if any(c > lim for c, lim in zip(counts, limits)) or not 0 < sum(counts) <= max_hand:
            raise ValueError(f"bad play key {row!r}: not cards a play can stand for")
        out.append((combo, rank, length, packed))
    return out


def play_actions(rules: GameRules) -> tuple[Move, ...]:
    """Every play action in id order (memoised by the rules' content: Moves compare by
    value, so one variant's serve another with the same rules): each reading of the
    universe, then the readings only wild cards make."""
    v = rules.variant
    key = v.rules.content_hash
    got = _PLAYS.get(key)
    if got is None:
        if len(_PLAYS) >= 16:
            _PLAYS.clear()
        natural = [m for cards in v.universe() for m in v.classify(cards)]
        problem = several_wild_ranks_problem(rules)
        if problem:
            raise DdzError(f"{v.name}: the environment cannot give every play of "
                           f"{v.rules.wild_count} wild ranks an action id: {problem}")
        if spec_wild_ranks(rules):
            natural += _wild_only(rules, {play_key(m) for m in natural})
        got = _PLAYS[key] = tuple(natural)
    return got


def plugin_registry(plugins: Sequence[str]) -> PluginRegistry | None:
    """The plugin registry with ``plugins`` (``"module:Class"`` or ``"file.py:Class"``, as
    ``--plugin`` takes them) registered first; None (the default registry) for none."""
    if isinstance(plugins, str):
        raise DdzError(f"plugins must be a list of module:Class targets, not the string {plugins!r}")
    if not plugins:
        return None
    registry = PluginRegistry()
    for target in plugins:
        name, cls = load_plugin_class(str(target))
        registry.register(name, cls, f"plugins= {target}")
    return registry


def _declared(name: str, inst: Any) -> list[ActionKey] | None:
    """What ``inst`` answers to ``ddzrules_actions`` (None: it has no such hook), checked
    against the hook's contract by the runtime (:func:`~ddzrules.runtime.call_declared`):
    a list of at most :data:`~ddzrules.game.checks.MAX_ITEMS` (kind, value) pairs, a kind
    a string, a value an int, a string or None. A failure (SystemExit included) or another
    answer is a PluginError naming the plugin and the hook."""
    declared: list[ActionKey] | None = call_declared(name, inst, "ddzrules_actions")
    return declared


def nonplay_actions(rules: GameRules) -> list[ActionKey]:
    """The non-play actions the plugins declare (``ddzrules_actions``), in the spec's order;
    a plugin with phases that declares none cannot be given a fixed action table."""
    out: dict[ActionKey, None] = {}
    for _role, name, inst in rules.active:
        declared = _declared(name, inst)
        if declared is None:
            if any(hasattr(getattr(inst, h, None), "ddzrules_impl") for h in _PHASE_HOOKS):
                raise DdzError(f"{rules.variant.name}: plugin {name!r} has decision phases but does not "
                               f"declare their actions (implement ddzrules_actions)")
            continue
        for key in declared:
            out.setdefault(key, None)
    return list(out)


def wilds_replaced(move: Move) -> int:
    """How many of a play's wild cards stand for another rank."""
    return sum(1 for wild, stands_for in move.substitution if wild != stands_for)


def counts_of_text(cards: str) -> list[int]:
    """The counts per rank of a canonical card string (one letter a card)."""
    return C.counts_of(C.RANKS.index(c) for c in cards) if cards else [0] * NUM_RANKS
