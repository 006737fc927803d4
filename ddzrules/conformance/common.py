"""What the conformance suites' generator and reader share: the format and its
categories, the levels, the helpers that write a vector's fields, the universe a suite
draws its plays from, and the limits of a run (``docs/conformance.md``, "Limits")."""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from ddzrules import cards as C
from ddzrules.errors import (
    DdzError,
)
from ddzrules.rules.moves import Move
from ddzrules.untrusted import (
    JSONPolicy,
)
from ddzrules.variant import Variant

#: the suite format this version writes and reads
FORMAT = "ddzrules-suite/1"
CATEGORIES = ("classify", "compare", "moves", "census", "perft", "games")
ACE = C.RANKS.index("A")


@dataclass(frozen=True)
class Level:
    """How much a suite covers. Boundaries, bomb tiers and the census are always complete."""

    name: str
    near_misses: int  # non-plays kept per combo
    multi_readings: int | None  # card sets with several readings (None: all)
    random_nonplays: int
    whole_universe: bool  # classify every play of the universe
    pairs_per_class: int  # compare vectors per ordered pair of combo classes
    random_hands: int  # moves: random hands (each gives a lead and an answer)
    wild_hands: int  # moves: random hands with wild cards (wildcard specs)
    perft_positions: int
    perft_depth: int
    games: int
    checks_every: int  # games: legal actions checked every this many steps


LEVELS = {
    "smoke": Level("smoke", 2, 20, 20, False, 1, 10, 10, 1, 2, 2, 10),
    "standard": Level("standard", 4, 300, 200, False, 2, 500, 200, 4, 3, 50, 5),
    "exhaustive": Level("exhaustive", 8, None, 2000, True, 6, 1500, 1000, 5, 3, 200, 1),
}


@dataclass
class Suite:
    manifest: dict[str, Any]
    vectors: dict[str, list[dict[str, Any]]] = field(default_factory=dict)


# ====================================================================== helpers


def reading_dict(m: Move) -> dict[str, Any]:
    """A reading as vectors state it: the spec's combo name, the main rank, the length."""
    return {"combo": m.combo, "rank": m.rank_name, "length": m.length}


def readings_key(readings: list[dict[str, Any]]) -> list[tuple[str, str, int]]:
    """Readings as a sorted, comparable list (order of readings carries no meaning)."""
    return sorted((str(r.get("combo")), str(r.get("rank")), int(r.get("length", 1))) for r in readings)


def play_sort_key(cards: str) -> tuple[int, str]:
    return (len(cards), "".join(chr(65 + C.RANK_INDEX[c]) for c in cards))


def sort_plays(plays: set[str] | frozenset[str] | list[str]) -> list[str]:
    """Card strings by size, then rank order (so files read naturally and diff stably)."""
    return sorted(set(plays), key=play_sort_key)


def wild_ranks(v: Variant) -> list[int]:
    """The ranks that may be a deal's wild rank (none for a spec without wildcards)."""
    if not v.rules.stand_for:
        return []
    return [r for r in range(C.NUM_RANKS) if _wild_ok(v, r)]


def draw_wild(v: Variant, rng: random.Random) -> C.WildKey | None:
    """A deal's wild ranks for a vector: one rank, or the spec's ``wildcards.ranks``
    distinct ones (天地癞子); None without wildcards."""
    ranks = wild_ranks(v)
    if not ranks:
        return None
    k = min(v.rules.wild_count, len(ranks))
    return rng.choice(ranks) if k <= 1 else tuple(sorted(rng.sample(ranks, k)))


def wild_text(wild: C.WildKey | None) -> str | None:
    """Wild ranks as vectors write them: ``7``, or ``7,9`` for several."""
    return None if wild is None else ",".join(C.RANKS[r] for r in C.wild_tuple(wild))


def _wild_ok(v: Variant, r: int) -> bool:
    try:
        v.wild_rank_index(r)
    except DdzError:
        return False
    return True


def deal_sizes(v: Variant) -> tuple[int, int, int]:
    """(players, hand, kitty) of the spec's deal, as its typed rules state them (the
    defaults, 3 players, 17 cards and a kitty of 3, are the model's)."""
    rules = v.spec.rule_spec
    return rules.players, rules.deal.hand, rules.deal.kitty


class Universe:
    """The spec's universe indexed for picking vectors."""

    def __init__(self, v: Variant) -> None:
        self.v = v
        v.ensure_table()
        if v.plays_by_packed is None:
            raise DdzError(f"{v.name}: the universe is too large to generate a suite from")
        self.table: dict[str, tuple[Move, ...]] = dict(v.plays_by_string)
        self.strings = sorted(self.table, key=play_sort_key)
        self.by_combo: dict[str, list[Move]] = defaultdict(list)
        for cards in self.strings:
            for m in self.table[cards]:
                self.by_combo[m.combo].append(m)
        #: plays with a single reading, by family — what compare vectors draw from
        self.unique_by_family: dict[tuple[str, int, int], list[Move]] = defaultdict(list)
        for cards in self.strings:
            ms = self.table[cards]
            if len(ms) == 1:
                m = ms[0]
                self.unique_by_family[(m.combo, m.size, m.length)].append(m)
        for lst in self.unique_by_family.values():
            lst.sort(key=lambda m: (m.rank, play_sort_key(m.cards)))


def moves_vector(v: Variant, hand: str, after: str | None, covers: str,
                  wild: C.WildKey | None = None) -> dict[str, Any]:
    result = v.legal_moves(hand, after=after, wild=wild)
    vec: dict[str, Any] = {"hand": hand, "after": after}
    if wild is not None:
        vec["wild"] = wild_text(wild)
    vec["expect"] = {"can_pass": result.can_pass, "plays": sort_plays({m.cards for m in result})}
    vec["covers"] = covers
    return vec


# ====================================================================== reading suites

# A suite is untrusted input: every file is read as a stream, one bounded line at a
# time, and every vector is checked (schema, an input that can occur in a game, a
# bounded amount of work) before any is asked of an engine.

#: a suite file larger than this is refused
MAX_FILE_BYTES = 512 * 1024 * 1024
#: a manifest larger than this is refused (it holds one resolved spec)
MAX_MANIFEST_BYTES = 8 * 1024 * 1024
#: a vector's line longer than this is refused (the largest bundled one is about 135 kB:
#: a laizi game at the exhaustive level)
MAX_LINE_BYTES = 1024 * 1024
#: an integer written with more digits than this is refused (a seed has at most 20)
MAX_INT_DIGITS = 20
#: a suite's lines and manifest under the one strict-JSON policy
SUITE_JSON = JSONPolicy(max_bytes=MAX_MANIFEST_BYTES, max_int_digits=MAX_INT_DIGITS)
#: default limits of a run (``conformance run --max-vectors/--max-work/--max-perft-nodes``)
MAX_VECTORS = 200_000
MAX_WORK = 20_000_000
MAX_PERFT_NODES = 1_000_000
#: positions a perft search may visit beyond depth × (its expected count + 1): room for
#: the sequences that end the game early, which the expected count does not include
PERFT_SLACK = 10_000
#: a unit of work is about what a perft search spends on one position (~4 µs on the
#: development machine); a step of a game's replay costs about a hundred (~0.35 ms: the
#: runtime applies the action, lists what the next seat may do and compares the record's),
#: so a games vector counts this many units an action …
STEP_UNITS = 100
#: … and these for each action the replay lists, counted as it lists them (~15 µs each in a
#: fresh game, its vector's schema check included): what a spec's hands cost (three decks
#: list hundreds of plays a step) is counted, not assumed
LISTED_UNITS = 4
#: default time limit of a run, in seconds (``conformance run --max-seconds``): checked before
#: each vector and each step of a game's replay, whatever the units say
MAX_SECONDS = 600.0
#: a games vector is checked by replaying it as a record of the suite's spec, which the
#: replay reads whole (its hash, its shape): a step's units per this many bytes of that
#: spec, on top of the game's actions (none for a spec of the usual size, ~10 kB; the
#: replay of an action and the reading of 16 kB take about the same time)
SPEC_BYTES_PER_STEP = 16 * 1024


@dataclass(frozen=True)
class Limits:
    """What one run of a suite may cost (``docs/conformance.md``, "Limits").

    ``max_vectors`` bounds the vectors of the categories run (and so the memory of the
    report); ``max_perft_nodes`` the sequences a perft vector may expect and the
    positions its search may visit; ``max_work`` the suite's work in all: one unit a
    vector, a perft vector its search budget (:func:`perft_budget`), a game
    :data:`STEP_UNITS` an action and one for each action its replay lists."""

    max_vectors: int = MAX_VECTORS
    max_work: int = MAX_WORK
    max_perft_nodes: int = MAX_PERFT_NODES
    #: seconds a run (its check and its engine's answers) may take; None: no time limit
    max_seconds: float | None = MAX_SECONDS


def perft_budget(depth: int, nodes: int, limits: Limits) -> int:
    """The positions a search for a perft vector expecting ``nodes`` sequences of ``depth``
    actions may visit. Every sequence of fewer actions that does not end the game has a
    longer one, so an exact count visits at most ``depth × nodes`` positions, plus those
    ending the game early (:data:`PERFT_SLACK`); never more than ``max_perft_nodes``.

    >>> perft_budget(3, 2_848, Limits()), perft_budget(8, 10**6, Limits())
    (18547, 1000000)
    """
    return min(limits.max_perft_nodes, depth * (nodes + 1) + PERFT_SLACK)
