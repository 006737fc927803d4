"""The Moves of plays with wild cards, made once and kept (:class:`WildMoveStore`, what
:class:`~ddzrules.rules.wild.WildMoves` answers from): a wild rank's table read or built, the
Moves at its positions, the walks of several wild ranks (天地癞子), and the layout of the int
keys leads are ordered by."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from itertools import compress, repeat
from operator import (
    add,
    and_,
    eq,
    is_,
    itemgetter,
    lshift,
    mul,
    ne,
    or_,
    rshift,
)
from typing import Any

from ddzrules import cards as C
from ddzrules.errors import DdzError, brief
from ddzrules.rules.compiler import COMPILER_SOURCES
from ddzrules.rules.moves import LegalMoves, Move, make_moves
from ddzrules.rules.shapes import Rules, Shape
from ddzrules.rules.wild_table import FORMAT as TABLE_FORMAT
from ddzrules.rules.wild_table import WildTable
from ddzrules.rules.wild_walk import (
    RANK_SHIFTS,
    Found,
    Wild,
    enumerate_wild,
    pairs_of,
    place_wilds,
    shape_sizes,
    walk,
    wild_splits,
)
from ddzrules.speed import cache
from ddzrules.speed.memo import Emptied, InternGroups

#: the modules a wild table is made by: what its cache entry (and an environment's) names
#: among its sources, beside the compiler's, so a change to any is a new key
WILD_SOURCES = ("ddzrules.rules.wild_walk", "ddzrules.rules.wild_store", "ddzrules.rules.wild",
                "ddzrules.rules.wild_table")

#: several wild ranks (天地癞子) have no table of their own: the Moves their queries make
#: are kept for the sets of wild ranks used last, at most this many in all (about 0.9 KB a
#: Move with its action and entries; a search over tiandi-laizi meets a million a deal)
SEVERAL_INTERN_LIMIT = 1 << 18
#: listings of several wild ranks kept (their Moves outlive the intern bound while kept:
#: 1024 listings held about 90 MB less than 4096 over a tiandi-laizi search deal, as fast)
SEVERAL_LISTED_LIMIT = 1024
#: leads of several wild ranks kept as keys (WildMoves.lead_plays; a walked one holds
#: thousands of entries: over a tiandi-laizi search deal 256 held 237 MB at peak, 1024
#: 412 MB, for 3% less time)
SEVERAL_LEADS_LIMIT = 256


# ====================================================================== variant-level API


#: a lead's key in :class:`WildLeads`, low bits first: the place among readings of the
#: same cards, combo and rank (8 bits; a plane of four or five trios can read 20 cards
#: alike), the packed cards (C.BITS * C.NUM_RANKS), then the table's ``high`` (32 bits:
#: combo name, rank, size, tier + 1)
KEY_TIE_BITS = 8
KEY_PACKED_BITS = C.BITS * C.NUM_RANKS
KEY_HIGH_SHIFT = KEY_TIE_BITS + KEY_PACKED_BITS
#: every lead key is below this (read on a key's first use, to refuse one that is none)
KEY_END = 1 << (KEY_HIGH_SHIFT + 32)
KEY_RANK_SHIFT = KEY_HIGH_SHIFT + 8
KEY_SIZE_SHIFT = KEY_HIGH_SHIFT + 16
#: a key at or above this is a bomb's (tier + 1 above 0)
FIRST_BOMB_KEY = 1 << (KEY_HIGH_SHIFT + 24)
KEY_PACKED_MASK = (1 << KEY_PACKED_BITS) - 1


def key_range(size: int) -> tuple[int, int]:
    """The keys of the plays of ``size`` cards that are no bomb (with ``size`` 0: of the
    bombs) are those from the first number up to the second (not included)."""
    return (size << KEY_SIZE_SHIFT, (size + 1) << KEY_SIZE_SHIFT) if size else (FIRST_BOMB_KEY, KEY_END)


#: where a WildLeads reads the plays it has not made: a wild table, or the walk's pooled
#: readings (their key with the pooled wild cards -> (length, ranks the wild cards stand for))
LeadSource = WildTable | dict[int, tuple[int, tuple[int, ...]]]


class WildMoveStore:
    """The Moves of plays with wild cards for one variant, made once and kept (interned), and
    what :class:`WildMoves` answers its queries from: a rank's
    :class:`~ddzrules.rules.wild_table.WildTable` (read from the keyed disk cache, else built
    and kept there), the Moves at a table's positions, and the walks of several wild ranks
    (天地癞子) and of wild cards played alone."""

    #: False: every query walks the hand (the reference), no table is built
    use_table = True
    #: queries of one wild rank answered by walking the hand before that rank's table is
    #: read from the disk cache (when it holds one): reading it and making its blocks costs
    #: 0.3-0.45 s a rank and the table saves about a millisecond a query in a game, so it
    #: pays after some hundreds of queries (a long run: a simulation, an environment), not
    #: for a few questions (a rule sheet, a CLI call, a short run); 0 reads it at the
    #: first query. Both paths give the same answers.
    load_after = 300
    #: queries of one wild rank walked before its table is built when the disk cache holds
    #: none: building costs 1-2.5 s (once per installation: it is then kept in the cache)
    table_after = 500
    #: whether a table read or built because a rank was asked about often enough makes
    #: every block's bit sets at once (0.1-0.2 s a rank) instead of at each block's first
    #: query, which would cost a step of a long run 50-150 ms now and then
    fill_blocks = True

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self._tables: dict[Wild, WildTable] = {}
        self._queries: dict[int, int] = {}  # per wild rank, queries walked so far
        self._not_on_disk: set[int] = set()  # wild ranks whose cache file was missing or refused
        #: wild ranks whose table was read from the disk cache, built here (benchmarks report them)
        self.loaded: set[int] = set()
        self.built: set[int] = set()
        #: wild rank -> (packed, combo, rank, length) -> (its legal-move order as one int, Move),
        #: for Moves made by walks (a table keeps its own by position)
        self._intern: dict[Wild, dict[tuple[int, int, int, int], tuple[int, Move]]] = {}
        #: those of several wild ranks, for the sets of ranks used last (their tables are in
        #: _intern too)
        self._intern_several: InternGroups[tuple[int, ...], tuple[int, int, int, int], tuple[int, Move]] = \
            InternGroups(SEVERAL_INTERN_LIMIT, self._drop_several)
        #: combo -> (the bits of its tier and name order in the int order key)
        names = sorted(c.name for c in rules.combos)
        self._order_bits = [((c.tier + 1) << 12) | names.index(c.name) for c in rules.combos]
        self._shapes_by_combo: dict[int, list[Shape]] = {}
        for s in rules.shapes:
            self._shapes_by_combo.setdefault(s.combo, []).append(s)
        self._bomb_shapes = [s for s in rules.shapes if rules.combos[s.combo].tier >= 0]
        self._plain_shapes = [s for s in rules.shapes if rules.combos[s.combo].tier < 0]
        #: the sizes a play that is no bomb can have (a lead's size with none is not walked)
        self._plain_sizes = frozenset(n for s in self._plain_shapes for n in shape_sizes(s, rules.max_hand))
        self._combo_index = {c.name: i for i, c in enumerate(rules.combos)}
        self._names = [c.name for c in rules.combos]
        self._tiers = [c.tier for c in rules.combos]
        #: (combo, size, rank, length) -> the comparison key (one tuple per key, shared)
        self._keys: dict[tuple[int, int, int, int], tuple[int, ...]] = {}
        #: wild rank -> substitution -> its (physical, stands for) letter pairs
        self._pairs: dict[int, dict[tuple[int, ...], tuple[tuple[str, str], ...]]] = {}
        #: wild ranks -> (cards taken of each, ranks stood for) -> the Move's letter pairs
        self._placings: dict[tuple[int, ...], dict[tuple[tuple[int, ...], tuple[int, ...]],
                                                   tuple[tuple[str, str], ...]]] = {}
        self._pairs_by_table: dict[int, tuple[WildTable, list[tuple[tuple[str, str], ...]]]] = {}
        #: listings of several wild ranks, by (wild ranks, hand, play to beat)
        self._several_listed: Emptied[tuple[tuple[int, ...], tuple[int, ...], Move | None], LegalMoves] = \
            Emptied(SEVERAL_LISTED_LIMIT)
        #: the readings of several wild ranks' cards alone, by those cards and the query
        self._alone: Emptied[tuple[object, ...], list[tuple[int, Move]]] = Emptied(4096)
        #: per combo, its tier + 1 and name bits as a table's ``high`` holds them (size and
        #: rank apart); the combo of those name bits
        self._high_of = [((b >> 12) & 0xFF) << 24 | (b & 0xFF) for b in self._order_bits]
        self._combo_by_name = {b & 0xFF: i for i, b in enumerate(self._order_bits)}
        #: per table, its positions' keys in a WildLeads (:meth:`_lead_keys`)
        self._lead_keys_by_table: dict[tuple[int, bool], tuple[WildTable, list[int]]] = {}

    def check_rank(self, wild: int) -> None:
        if not self.rules.stand_for:
            raise DdzError(f"{self.rules.name} has no wildcards (癞子)")
        if wild not in self.rules.stand_for:
            ranks = "".join(C.RANKS[r] for r in self.rules.stand_for)
            # an index outside 0-14 names no rank (and -1 must not read as the big joker)
            what = (f"{C.RANKS[wild]} cannot be" if type(wild) is int and 0 <= wild < C.NUM_RANKS
                    else f"{brief(wild)} is no rank index (0-14), so not")
            raise DdzError(f"{what} the wild rank of {self.rules.name} (it may be one of {ranks})")

    def interned(self, wild: Wild, ident: tuple[int, int, int, int]) -> Move | None:
        """The Move of a reading already made with wild rank ``wild``, or None."""
        entry = self._interned(wild).get(ident)
        if entry is not None:
            return entry[1]
        table = self._tables.get(wild)
        if table is not None:
            p = table.find(ident)
            if p >= 0:
                return table.moves[p]  # type: ignore[return-value]
        return None

    def move(self, packed: int, combo: int, rank: int, length: int, subst: tuple[int, ...], wild: int) -> Move:
        return self._entry((packed, combo, rank, length), subst, wild)[1]

    def _interned(self, wild: Wild) -> dict[tuple[int, int, int, int], tuple[int, Move]]:
        table = self._intern.get(wild)
        if not isinstance(wild, tuple):
            if table is None:
                table = self._intern[wild] = {}
            return table
        # several wild ranks: no table of their own holds their Moves, so they are kept
        # here for the sets of ranks used last, at most SEVERAL_INTERN_LIMIT in all (a
        # search samples 地癞子 afresh in each world: a run switches sets all the time)
        table = self._intern[wild] = self._intern_several.use(wild)
        return table

    def _drop_several(self, wild: tuple[int, ...]) -> None:
        """Forget what is kept beside the Moves of a set of wild ranks no longer kept."""
        del self._intern[wild]
        self._placings.pop(wild, None)

    def _order(self, packed: int, combo: int, rank: int, size: int) -> int:
        """A reading's legal-move order (tier, size, rank, combo name, packed) as one int."""
        bits = self._order_bits[combo]
        return ((((bits >> 12) << 16 | size) << 8 | rank) << 12 | (bits & 0xFFF)) << (C.BITS * C.NUM_RANKS) | packed

    def _make(self, packed: int, combo: int, rank: int, length: int, size: int,
              sub: tuple[tuple[str, str], ...]) -> Move:
        """A new Move of a reading with substitution pairs ``sub`` (its card string and key
        shared)."""
        kid = (combo, size, rank, length)
        key = self._keys.get(kid)
        if key is None:
            key = self._keys[kid] = self.rules.combos[combo].key(size, rank, length)
        return Move(C.to_strings((packed,))[0], self._names[combo], rank, length, size, self._tiers[combo], key,
                    packed, sub)

    def _letters(self, wild: int, subst: tuple[int, ...]) -> tuple[tuple[str, str], ...]:
        """The (physical, stands for) letter pairs of the wild cards of rank ``wild``
        standing for ``subst`` (one tuple per substitution, shared)."""
        pairs = self._pairs.get(wild)
        if pairs is None:
            pairs = self._pairs[wild] = {}
        sub = pairs.get(subst)
        if sub is None:
            letter = C.RANKS[wild]
            sub = pairs[subst] = tuple((letter, C.RANKS[r]) for r in subst)
        return sub

    def _placement(self, wild: tuple[int, ...], taken: tuple[int, ...],
                   subst: tuple[int, ...]) -> tuple[tuple[str, str], ...]:
        """The letter pairs of a pooled reading's wild cards (standing for ``subst``) when
        ``taken`` of each wild rank are played (:func:`place_wilds`), memoised per set of wild
        ranks: a run meets few of them and many readings share each."""
        placings = self._placings.get(wild)
        if placings is None:
            placings = self._placings[wild] = {}
        sub = placings.get((taken, subst))
        if sub is None:
            sub = placings[taken, subst] = tuple((C.RANKS[a], C.RANKS[b])
                                                 for a, b in pairs_of(place_wilds(wild, taken, subst)))
        return sub

    def _entry(self, ident: tuple[int, int, int, int], subst: tuple[int, ...], wild: int) -> tuple[int, Move]:
        """(legal-move order, Move) of a reading a walk found (with the substitution it was
        first found with): interned, or the table's Move of it, or made now."""
        interned = self._interned(wild)
        entry = interned.get(ident)
        if entry is not None:
            return entry
        packed, combo, rank, length = ident
        size = C.size_of(packed)
        m: Move | None = None
        table = self._tables.get(wild)
        if table is not None:
            p = table.find(ident)
            if p >= 0:
                m = table.moves[p]  # type: ignore[assignment]
                if m is None:
                    m = table.moves[p] = self._make(packed, combo, rank, length, size, self._letters(wild, subst))
        if m is None:
            m = self._make(packed, combo, rank, length, size, self._letters(wild, subst))
        entry = interned[ident] = (self._order(packed, combo, rank, size), m)
        return entry

    def _entries(self, found: dict[tuple[int, int, int, int], Any],
                 interned: dict[tuple[int, int, int, int], tuple[int, Move]],
                 pairs: Callable[[tuple[int, int, int, int]], tuple[tuple[str, str], ...]]) -> list[tuple[int, Move]]:
        """(legal-move order, Move) of each reading ``found``: interned, else made in bulk
        (with the substitution pairs ``pairs`` gives) and interned."""
        # Any, not the entry type: None marks the missing ones until _fill (and mypyc checks
        # a declared element type on every read)
        out: list[Any] = list(map(interned.get, found))
        if not all(out):  # an entry is a non-empty tuple: None marks a reading met for the first time
            idents = list(found)
            at = [i for i, entry in enumerate(out) if entry is None]
            missing = [idents[i] for i in at]
            self._fill(out, at, missing, list(map(pairs, missing)), interned)
        return out

    # ------------------------------------------------------------------ several wild ranks
    def _collect_several(self, counts: list[int], wild: tuple[int, ...], **kw: object) -> list[tuple[int, Move]]:
        """Every reading found with several wild ranks (天地癞子), as (legal-move order key,
        Move): :meth:`_walk_several`'s, interned or made in bulk."""
        found = self._walk_several(counts, wild, **kw)
        placement = self._placement
        return self._entries(found, self._interned(wild), lambda ident: placement(wild, *found[ident]))

    def _walk_several(self, counts: list[int], wild: tuple[int, ...],
                      **kw: object) -> dict[tuple[int, int, int, int], tuple[tuple[int, ...], tuple[int, ...]]]:
        """Every reading found with several wild ranks, in the walk's order: (packed, combo,
        rank, length) -> (wild cards taken of each rank, ranks they stand for). The walk
        pools the wild cards of every wild rank under the first; each play it reports is
        then placed on the wild cards held in every way (a 7 or a 9 for one wild card of 7
        and 9: two plays, two sets of cards). A play of wild cards only is themselves, as
        with one wild rank: each card reads as its own rank."""
        naturals = list(counts)
        have = tuple(naturals[w] for w in wild)
        for w in wild:
            naturals[w] = 0
        pooled = RANK_SHIFTS[wild[0]]
        units = [1 << RANK_SHIFTS[w] for w in wild]
        found: dict[tuple[int, int, int, int], tuple[tuple[int, ...], tuple[int, ...]]] = {}
        ways_by_n: dict[int, list[tuple[int, ...]]] = {}

        def emit(packed: int, combo: int, rank: int, length: int, subst: tuple[int, ...]) -> None:
            n = len(subst)
            base = packed - (n << pooled)
            ways = ways_by_n.get(n)
            if ways is None:
                ways = ways_by_n[n] = wild_splits(have, n)
            if n and not base:  # wild cards only: themselves (the walk let each be any wild rank)
                own = tuple(map(subst.count, wild))
                ways = [own] if own in ways else []
            for k in ways:
                ident = (base + sum(map(mul, k, units)), combo, rank, length)
                if ident not in found:
                    found[ident] = (k, subst)

        enumerate_wild(self.rules, naturals, sum(have), wild[0], emit, wild_ranks=wild, **kw)  # type: ignore[arg-type]
        return found

    # ------------------------------------------------------------------ by table
    # The queries below read the wild rank's WildTable; the *_enumerated ones walk the
    # hand (the reference the tests compare the tables with, and the path for hands
    # larger than the table's plays).

    def _cache_name(self, wild: int) -> str:
        # the code hash: changed walking, filing or compiling code never reads an old table
        code = cache.code_hash(TABLE_FORMAT, *WILD_SOURCES, *COMPILER_SOURCES)
        return f"wild-{self.rules.content_hash[:32]}-{code}-{wild}.bin"

    def _load(self, wild: int) -> WildTable | None:
        """The table of ``wild`` from the disk cache (served only when its keyed digest and
        its structure check, see :mod:`ddzrules.speed.cache`), or None."""
        name = self._cache_name(wild)
        table = cache.load(name, lambda body: WildTable.decode(self.rules, wild, self._order_bits, body),
                           stacklevel=4)
        if table is not None:
            self.loaded.add(wild)
        return table

    def table(self, wild: int) -> WildTable:
        """The universe table of wild rank ``wild``: from the disk cache, else built (and
        stored there)."""
        table = self._tables.get(wild)
        if table is None:
            table = self._load(wild)
            if table is None:
                deck = list(self.rules.deck)
                wilds = deck[wild]
                deck[wild] = 0
                found: Found = {}
                walk(self.rules, deck, wilds, wild, found, max_size=self.rules.max_hand)
                table = WildTable.build(self.rules, wild, self._order_bits, found, self.rules.max_hand)
                del found
                self.built.add(wild)
                if cache.enabled():
                    cache.store(self._cache_name(wild), table.encode(self.rules.content_hash))
            self._tables[wild] = table
        return table

    def moves_at(self, table: WildTable, positions: list[int]) -> list[Move]:
        """The Moves of table positions (made on first use, in bulk, shared with Moves the
        walks made before the table was there)."""
        moves = table.moves
        out = list(map(moves.__getitem__, positions))
        if all(out):  # a Move is always true: a C-level test (``None in`` would call Move.__eq__ on each)
            return out  # type: ignore[return-value]
        at = list(compress(range(len(out)), map(is_, out, repeat(None))))
        ps = list(map(positions.__getitem__, at))
        wild = table.wild
        interned = self._intern.get(wild)
        if interned:  # Moves made by walking before the table was read: the same objects
            for i, p in zip(at, ps):
                entry = interned.get(table.ident(p))
                if entry is not None:
                    out[i] = moves[p] = entry[1]
            at = list(compress(range(len(out)), map(is_, out, repeat(None))))
            ps = list(map(positions.__getitem__, at))
        packs = list(map(table.packed.__getitem__, ps))
        metas = list(map(table.meta.__getitem__, ps))
        sizes = list(map(table.sizes.__getitem__, ps))
        combos = list(map(rshift, metas, repeat(16)))
        ranks = list(map(and_, map(rshift, metas, repeat(8)), repeat(0xFF)))
        lengths = list(map(and_, metas, repeat(0xFF)))
        keys = list(map(self._keys.get, zip(combos, sizes, ranks, lengths)))
        if None in keys:
            for i, kid in enumerate(zip(combos, sizes, ranks, lengths)):
                if keys[i] is None:
                    keys[i] = self._keys.get(kid) or self._keys.setdefault(
                        kid, self.rules.combos[kid[0]].key(kid[1], kid[2], kid[3]))
        pairs = self._table_pairs(table)
        columns = (C.to_strings(packs), list(map(self._names.__getitem__, combos)), ranks, lengths, sizes,
                   list(map(self._tiers.__getitem__, combos)), keys, packs,
                   list(map(pairs.__getitem__, map(table.subst_index.__getitem__, ps))))
        made = make_moves(*columns)
        any(map(moves.__setitem__, ps, made))  # C-level stores (each returns None)
        any(map(out.__setitem__, at, made))
        return out  # type: ignore[return-value]

    def _table_pairs(self, table: WildTable) -> list[tuple[tuple[str, str], ...]]:
        """Per substitution index of ``table``, the Move's (physical, stands for) letter pairs."""
        got = self._pairs_by_table.get(id(table))
        if got is None or got[0] is not table:
            letter = C.RANKS[table.wild]
            got = self._pairs_by_table[id(table)] = (
                table, [tuple((letter, C.RANKS[r]) for r in s) for s in table.substs])
        return got[1]

    def _by_table(self, wild: Wild) -> bool:
        """Whether this query reads the wild rank's table (see :attr:`load_after` and
        :attr:`table_after`): read from the disk cache after ``load_after`` walked
        queries, built after ``table_after``."""
        if not self.use_table or type(wild) is not int:  # several wild ranks: walked (no table)
            return False
        if wild in self._tables:
            return True
        asked = self._queries[wild] = self._queries.get(wild, 0) + 1
        table = None
        if asked > self.table_after:
            table = self.table(wild)  # read from the disk cache, else built
        elif asked > self.load_after and wild not in self._not_on_disk:
            table = self._load(wild)
            if table is None:
                self._not_on_disk.add(wild)  # built (or read) when table_after is reached
                return False
            self._tables[wild] = table
        if table is None:
            return False
        if self.fill_blocks:
            table.fill()  # a long run meets every block: made now, not in the middle of a game
        return True

    def _pooled_table(self, counts: list[int], wild: tuple[int, ...]) -> WildTable | None:
        """The table that lists the pooled hand ``counts`` of the wild ranks ``wild``
        (:meth:`_several_table`), or None when it is walked instead: a pool of more wild
        cards than the table holds, a hand above the largest, or no table read yet."""
        have = tuple(counts[w] for w in wild)
        pooled = sum(have)
        if sum(counts) > self.rules.max_hand or pooled > max(self.rules.deck[w] for w in wild):
            return None
        table = self._several_table(wild)
        if table is None or pooled > table.most_wilds:
            return None
        return table

    def _several_table(self, wild: tuple[int, ...]) -> WildTable | None:
        """The table that lists a pooled hand of the wild ranks ``wild``: any one of theirs
        does (a wild card of every rank stands for the same ranks, and the pooled hand holds
        no natural card of either), so the first already read; else the query counts toward
        each rank's :attr:`load_after` and :attr:`table_after`, and reads at most one. The
        rank shared by a run's sets of wild ranks (天癞子, while 地癞子 changes) is read
        once and serves them all."""
        tables = self._tables
        for w in wild:
            table = tables.get(w)
            if table is not None:
                return table
        for w in wild:
            if self._by_table(w):
                return tables[w]
        return None

    def _answer_positions(self, table: WildTable, nat: list[int], wilds: int, after: Move) -> list[int]:
        """The positions of the readings ``nat`` plus ``wilds`` wild cards hold that may
        answer ``after``: its combo at its size and length above its rank, then every bomb
        (those still to be compared with ``after``)."""
        plain: list[int] = []
        if after.tier < 0 and after.combo in self._combo_index:
            combo = self._combo_index[after.combo]
            meta = table.meta
            lo = combo << 16 | (after.rank + 1) << 8
            hi = (combo + 1) << 16
            length = after.length
            plain = [p for p in table.sized(nat, wilds, after.size, False)
                     if lo <= meta[p] < hi and meta[p] & 0xFF == length]
        return plain + table.sized(nat, wilds, 0, True)

    def _placed(self, table: WildTable, positions: list[int], wild: tuple[int, ...],
                have: tuple[int, ...]) -> list[tuple[int, Move]]:
        """The readings of several wild ranks at table ``positions`` (of the pooled hand),
        each placed on the wild cards held in every way, as ``_collect_several`` places
        the walk's: (legal-move order key, Move). Readings without a natural card are left
        out (see the section's comment)."""
        shift = RANK_SHIFTS[table.wild]  # where the table's readings hold the pooled wild cards
        units = [1 << RANK_SHIFTS[w] for w in wild]
        interned = self._interned(wild)
        get = interned.get
        # per number of wild cards: each way of taking them from the ranks held, with the
        # packed cards it adds
        ways_by_n: dict[int, list[tuple[tuple[int, ...], int]]] = {}
        packs, meta, substs, subst_index = table.packed, table.meta, table.substs, table.subst_index
        out: list[tuple[int, Move]] = []
        append = out.append
        missing: list[tuple[int, tuple[int, int, int, int], tuple[int, ...], int]] = []
        for p in positions:
            packed = packs[p]
            n = (packed >> shift) & C.MASK
            base = packed - (n << shift)
            if not base:
                continue
            ways = ways_by_n.get(n)
            if ways is None:
                ways = ways_by_n[n] = [(k, sum(map(mul, k, units))) for k in wild_splits(have, n)]
            m = meta[p]
            for k, added in ways:
                ident = (base + added, m >> 16, (m >> 8) & 0xFF, m & 0xFF)
                entry = get(ident)
                if entry is None:  # made below, in bulk
                    missing.append((len(out), ident, k, p))
                append(entry)  # type: ignore[arg-type]  # None until made below
        if missing:
            self._make_placed(out, missing, wild, substs, subst_index)
        return out

    def _make_placed(self, out: list[tuple[int, Move]], missing: list[tuple[int, tuple[int, int, int, int],
                     tuple[int, ...], int]], wild: tuple[int, ...], substs: list[tuple[int, ...]],
                     subst_index: Sequence[int]) -> None:
        """The Moves of placed readings met for the first time, made in bulk, interned, and
        put in ``out`` at their places."""
        placement = self._placement
        self._fill(out, [x[0] for x in missing], [x[1] for x in missing],
                   [placement(wild, k, substs[subst_index[p]]) for _, _, k, p in missing], self._interned(wild))

    def _fill(self, out: list[tuple[int, Move]], at: list[int], idents: list[tuple[int, int, int, int]],
              subs: list[tuple[tuple[str, str], ...]],
              interned: dict[tuple[int, int, int, int], tuple[int, Move]]) -> None:
        """Make the Moves of readings met for the first time (``idents``, with substitution
        pairs ``subs``) in bulk — card strings in one pass, fields by
        :func:`~ddzrules.rules.moves.make_moves`: a third of the cost of one Move at a time —,
        intern them, and put (order, Move) in ``out`` at ``at``."""
        packs = [i[0] for i in idents]
        combos = [i[1] for i in idents]
        ranks = [i[2] for i in idents]
        lengths = [i[3] for i in idents]
        sizes = C.sizes_of(packs)
        keys_made = self._keys
        keys = []
        for kid in zip(combos, sizes, ranks, lengths):
            key = keys_made.get(kid)
            if key is None:
                key = keys_made[kid] = self.rules.combos[kid[0]].key(kid[1], kid[2], kid[3])
            keys.append(key)
        made = make_moves(C.to_strings(packs), list(map(self._names.__getitem__, combos)), ranks, lengths, sizes,
                          list(map(self._tiers.__getitem__, combos)), keys, packs, subs)
        order = self._order
        for i, ident, move, size in zip(at, idents, made, sizes):
            out[i] = interned[ident] = (order(ident[0], ident[1], ident[2], size), move)

    def _wild_cards_alone(self, counts: list[int], wild: tuple[int, ...], **kw: object) -> list[tuple[int, Move]]:
        """The readings of the hand's wild cards alone (no natural card), walked on those
        cards: memoised by the cards and the query (a hand holds few of them)."""
        held = sum(counts[w] for w in wild)
        size = kw.get("exact_size")
        if type(size) is int and size > held:
            return []
        size = kw.get("max_size")
        if type(size) is int and size > held:  # the hand's size: the wild cards' own serves
            kw = {**kw, "max_size": held}      # (one entry for every size of hand)
        key = (wild, tuple(counts[w] for w in wild), tuple(sorted((k, id(v) if k == "shapes" else v)
                                                                  for k, v in kw.items())))
        got = self._alone.get(key)
        if got is None:
            alone = [0] * C.NUM_RANKS
            for w in wild:
                alone[w] = counts[w]
            got = self._alone.keep(key, self._collect_several(alone, wild, **kw))
        return got

    @staticmethod
    def _pooled_hand(counts: list[int], wild: tuple[int, ...]) -> tuple[list[int], int]:
        """The hand without its wild cards, and how many it holds of the wild ranks."""
        nat = list(counts)
        for w in wild:
            nat[w] = 0
        return nat, sum(counts[w] for w in wild)

    def _placed_keys(self, pooled: list[int], held: list[int], counts: list[int], wild: tuple[int, ...],
                     pool_rank: int) -> list[int]:
        """The keys of a hand's readings with natural cards, given pooled (their wild cards
        under ``pool_rank``: ``pooled`` their keys, ``held`` their wild cards), placed on
        the wild cards held, unsorted. Per number of wild cards n, each reading's key once
        per way of taking n wild cards from the ranks held: the placed cards differ from
        the pooled ones only in the wild ranks' fields, so one addition a key, in C."""
        have = tuple(counts[w] for w in wild)
        shift = RANK_SHIFTS[pool_rank]
        units = [1 << RANK_SHIFTS[w] for w in wild]
        keys: list[int] = []
        for n in sorted(set(held)):
            chosen = list(compress(pooled, map(eq, held, repeat(n))))
            for k in wild_splits(have, n):
                delta = (sum(map(mul, k, units)) - (n << shift)) << KEY_TIE_BITS
                keys += map(add, chosen, repeat(delta)) if delta else chosen
        return keys

    def _walk_pooled(self, counts: list[int], wild: tuple[int, ...],
                     **kw: Any) -> tuple[list[int], list[int], dict[int, tuple[int, tuple[int, ...]]]]:
        """The walk of the pooled hand (``kw`` as :func:`walk` takes them), each distinct
        reading with natural cards once (its first substitution): their keys with the
        pooled wild cards, their wild cards, and key -> (length, the ranks the wild cards
        stand for). Readings of the same cards, combo and rank keep the walk's order."""
        naturals, pooled_count = self._pooled_hand(counts, wild)
        found: Found = {}
        walk(self.rules, naturals, pooled_count, wild[0], found, wild_ranks=wild, **kw)
        shift = RANK_SHIFTS[wild[0]]
        idents = list(found)
        packs = list(map(itemgetter(0), idents))
        sizes = C.sizes_of(packs)
        held = list(map(and_, map(rshift, packs, repeat(shift)), repeat(C.MASK)))
        natural = list(map(ne, sizes, held))  # readings of wild cards alone: walked apart
        highs = map(or_, map(or_, map(self._high_of.__getitem__, map(itemgetter(1), idents)),
                             map(lshift, sizes, repeat(16))), map(lshift, map(itemgetter(2), idents), repeat(8)))
        pooled = list(compress(map(lshift, map(or_, map(lshift, highs, repeat(KEY_PACKED_BITS)), packs),
                                   repeat(KEY_TIE_BITS)), natural))
        held = list(compress(held, natural))
        readings = list(compress(zip(map(itemgetter(3), idents), found.values()), natural))
        if len(set(pooled)) < len(pooled):  # readings of the same cards, combo and rank: the walk's order
            seen: set[int] = set()
            for i, k in enumerate(pooled):
                while k in seen:
                    k += 1
                seen.add(k)
                pooled[i] = k
        return pooled, held, dict(zip(pooled, readings))

    def check_several(self, counts: list[int], max_size: int, wild: tuple[int, ...], what: str,
                      per_rank: bool = True) -> None:
        """Refuse a walk of ``counts`` with several wild ranks whose bound (the compiler's
        cost of every shape, the wild cards of ``len(wild)`` ranks pooled) is above the
        enumeration limit × 20 (× the number of wild ranks squared with ``per_rank``: a
        census counts, it makes no Move): with one wild rank the compiler bounds every
        hand a game deals, with several only this does."""
        from ddzrules.rules.cost import WILD_FACTOR, max_enumeration, shape_cost, show_count

        rules = self.rules
        k = len(wild)
        most = max_enumeration() * WILD_FACTOR * (k * k if per_rank else 1)
        bound = sum(shape_cost(s, counts, max_size, rules.stand_for, k).steps for s in rules.shapes)
        if bound > most:
            times = f"20 × {k}² × " if per_rank else "20 × "
            raise DdzError(f"{what} with {k} wild ranks would take up to {show_count(bound)} steps, "
                           f"above the limit of {most:,} ({times}DDZRULES_MAX_ENUMERATION, which raises it)")

    def census_several(self, wild: tuple[int, ...], max_size: int) -> tuple[dict[str, int], int, int, dict[int, int]]:
        """:meth:`census` with several wild ranks, counted without making every play: the
        walk of the full deck with the wild cards pooled lists each play once with its number
        of wild cards ``n``, and that play stands for as many plays as there are ways of
        taking ``n`` cards from the wild ranks (each way other cards); plays of wild cards
        only (themselves) are read one by one. Refused above a bound on the walk (the
        enumeration limit × 20 × the number of wild ranks squared)."""
        rules = self.rules
        self.check_several(list(rules.deck), max_size, wild, f"the census of {rules.name}")
        deck = list(rules.deck)
        have = tuple(deck[w] for w in wild)
        for w in wild:
            deck[w] = 0
        found: Found = {}
        walk(rules, deck, sum(have), wild[0], found, max_size=max_size, wild_ranks=wild)
        ways = [len(wild_splits(have, n)) for n in range(sum(have) + 1)]
        pooled = RANK_SHIFTS[wild[0]]
        per: dict[int, set[int]] = {}
        readings = 0
        by_wilds: dict[int, int] = {}
        for packed, combo, _, _ in found:
            n = (packed >> pooled) & C.MASK
            if n and packed == n << pooled:
                continue  # wild cards only: read one by one below
            readings += ways[n]
            by_wilds[n] = by_wilds.get(n, 0) + ways[n]
            per.setdefault(combo, set()).add(packed)
        del found

        def count(packs: set[int]) -> int:
            return sum(ways[(p >> pooled) & C.MASK] for p in packs)

        per_count = {self._names[c]: count(packs) for c, packs in per.items()}
        total = count(set().union(*per.values()))
        # plays of wild cards only: every handful of the wild ranks' cards, read as themselves
        alone: dict[str, set[int]] = {}
        for taken in itertools.product(*(range(h + 1) for h in have)):
            if not any(taken) or sum(taken) > max_size:
                continue
            counts = [0] * C.NUM_RANKS
            for w, k in zip(wild, taken):
                counts[w] = k
            for _, m in self._collect_several(counts, wild, exact_size=sum(taken)):
                readings += 1
                by_wilds[sum(taken)] = by_wilds.get(sum(taken), 0) + 1
                alone.setdefault(m.combo, set()).add(m.packed)
        total += len(set().union(*alone.values())) if alone else 0
        for name, packs in alone.items():
            per_count[name] = per_count.get(name, 0) + len(packs)
        return ({c.name: per_count.get(c.name, 0) for c in rules.combos}, total, readings,
                dict(sorted(by_wilds.items())))
