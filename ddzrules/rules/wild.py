"""``WildMoves``: the queries a :class:`~ddzrules.rules.variant.Variant` delegates to when a
wild rank (癞子) is given — classify, legal moves, a hand's leads, census — answered from a
rank's table or by walking the hand; and ``WildLeads``, a hand's leads read lazily.
The walk itself is ``wild_walk``; the Moves and tables it is answered from, ``wild_store``."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterator, Sequence
from itertools import compress, repeat
from operator import (
    and_,
    attrgetter,
    eq,
    index,
    itemgetter,
    lshift,
    mul,
    not_,
    or_,
    rshift,
)
from typing import Any, overload

from ddzrules import cards as C
from ddzrules.errors import brief
from ddzrules.rules.moves import LegalMoves, Move
from ddzrules.rules.shapes import Rules
from ddzrules.rules.wild_store import (
    FIRST_BOMB_KEY,
    KEY_END,
    KEY_HIGH_SHIFT,
    KEY_PACKED_BITS,
    KEY_PACKED_MASK,
    KEY_RANK_SHIFT,
    KEY_SIZE_SHIFT,
    KEY_TIE_BITS,
    SEVERAL_LEADS_LIMIT,
    LeadSource,
    WildMoveStore,
    key_range,
)
from ddzrules.rules.wild_table import WildTable, census_counts
from ddzrules.rules.wild_walk import RANK_SHIFTS, Found, Wild, walk
from ddzrules.speed.memo import Emptied


class WildLeads(Sequence[Move]):
    """The leads of a hand holding wild cards, read off a wild table or walked (several
    wild ranks, 天地癞子) or off its rank's table (one wild rank, 癞子, once the table is
    read), in the order (and equal to) :meth:`WildMoves.legal_moves` lists them, each
    Move made only when it is asked for (then kept: the same object each time; with one
    wild rank, the table's own).

    A hand pooling four wild cards leads thousands of plays, and a search's rollout
    plays one of them: :attr:`keys` holds each play's legal-move order as one int (from
    the high bits: bomb tier + 1, size, rank, combo name, the packed cards, and its place
    among readings of the same cards, combo and rank), enough for a policy to choose by
    size, rank, bombs and cards (:meth:`sizes`, :meth:`first_of_size`, :meth:`plain`,
    :meth:`first_clear_of`) without a Move per play. The plays are read only as far as
    they are asked for: :meth:`plain_keys` reads one size (a table's block, or a walk of
    that size), :meth:`bomb_keys` the bombs, and every play is read only for
    :attr:`keys`, ``len()``, an index or iteration.

    >>> from ddzrules import load_variant
    >>> wilds = load_variant("tiandi-laizi").wild_moves()
    >>> hand = [1, 1, 1, 1, 0, 1, 1] + [0] * 8  # 3456 89; 3s and 7s are wild
    >>> leads = wilds.lead_plays(hand, (0, 4))
    >>> leads == wilds.legal_moves(hand, None, (0, 4))
    True
    >>> [leads[i].cards for i in range(leads.first_of_size(5), len(leads))]  # the 3 as a 7
    ['34568', '35689', '345689']
    >>> leads.sizes()[:6], leads.plain()  # six singles, ...; no bomb
    ([1, 1, 1, 1, 1, 1], 14)
    >>> fresh = load_variant("tiandi-laizi").wild_moves().lead_plays(hand, (0, 4))
    >>> [fresh.move_of(k).cards for k in fresh.plain_keys(6)], fresh  # one size read, not all
    (['345689'], WildLeads(not all read))
    """

    __slots__ = ("_alone", "_blocks", "_by_key", "_counts", "_keys", "_made", "_owner", "_single", "_source", "_table",
                 "_wild")

    def __init__(self, owner: WildMoves, counts: list[int], wild: tuple[int, ...], table: WildTable | None,
                 single: bool = False) -> None:
        self._owner = owner
        #: one wild rank (癞子): its table's readings are the plays as they are, wild cards
        #: alone included, and its Moves the table's own
        self._single = single
        self._counts = counts
        self._wild = wild
        self._table = table  # the table the plays are read off, or None: walked
        #: where the plays with natural cards are read: the table, or the walks' readings
        self._source: LeadSource = table if table is not None else {}
        self._keys: list[int] | None = None  # every play's, made when first asked for
        self._blocks: dict[int, list[int]] = {}  # size -> its plays that are no bomb; 0 -> the bombs
        self._made: dict[int, Move] = {}  # index -> its Move
        self._by_key: dict[int, Move] = {}  # key -> its Move
        #: the plays of wild cards alone (walked apart: several wild ranks), by key
        self._alone: dict[int, Move] | None = {} if single else None

    @property
    def keys(self) -> list[int]:
        """Per play, ascending: its legal-move order as one int (every play of the hand
        read: for a policy that needs them all)."""
        keys = self._keys
        if keys is None:
            keys = self._keys = self._owner._read_leads(self)
        return keys

    def _alone_moves(self) -> dict[int, Move]:
        alone = self._alone
        if alone is None:
            alone = self._alone = self._owner._alone_leads(self._counts, self._wild)
        return alone

    @property
    def by_table(self) -> bool:
        """Whether the plays were read off a wild table (else walked)."""
        return self._table is not None

    def __len__(self) -> int:
        return len(self.keys)

    @overload
    def __getitem__(self, i: int) -> Move: ...
    @overload
    def __getitem__(self, i: slice) -> tuple[Move, ...]: ...
    def __getitem__(self, i: int | slice) -> Move | tuple[Move, ...]:
        if isinstance(i, slice):
            return tuple(map(self.__getitem__, range(*i.indices(len(self.keys)))))
        j = i if type(i) is int else index(i)  # a tuple's indices: ints and what stands for one
        made = self._made.get(j)
        if made is not None:
            return made
        n = len(self.keys)
        if j < 0:
            j += n
        if not 0 <= j < n:
            raise IndexError(f"play {i!r} of {n}")
        made = self._made.get(j)
        if made is not None:
            return made
        move = self.move_of(self.keys[j])
        self._made[j] = move
        return move

    def move_of(self, key: object) -> Move:
        """The Move of one of these plays' keys (made on first use, then the same object);
        ValueError for a key that is none of theirs (``object``: the compiled build checks
        a declared ``int`` before this can say so)."""
        move: Move | None = self._by_key.get(key)  # type: ignore[call-overload]  # another type: checked on a miss
        if move is None:
            if type(key) is not int or not 0 < key < KEY_END:
                raise ValueError(f"no play of key {brief(key)}")
            keys = self._keys if self._keys is not None else self.plain_keys(self.key_size(key)) \
                if key < FIRST_BOMB_KEY else self.bomb_keys()
            i = bisect_left(keys, key)
            if i == len(keys) or keys[i] != key:
                raise ValueError(f"no play of key {brief(key)}")
            move = self._by_key[key] = (self._alone_moves().get(key)
                                        or self._owner._lead_move(key, self._source, self._wild, self._single))
        return move

    def __iter__(self) -> Iterator[Move]:
        return map(self.__getitem__, range(len(self.keys)))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence) and not isinstance(other, str):
            return len(self) == len(other) and all(map(eq, self, other))
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    __hash__ = None  # type: ignore[assignment]  # equal to a tuple, so never hashable like one

    def __repr__(self) -> str:
        return f"WildLeads({len(self.keys)} plays)" if self._keys is not None else "WildLeads(not all read)"

    def holds(self, move: Move) -> bool:
        """Whether ``move`` is one of these plays, the very object this listing gives."""
        try:
            prefix = self._owner._lead_prefix(move) if isinstance(move, Move) else None
        except (TypeError, ValueError):  # a Move made apart with fields of the wrong kind
            return False
        if prefix is None:
            return False
        # the plays of its size (or the bombs): all of them when those are read already
        keys = self._keys if self._keys is not None else self.plain_keys(move.size) if prefix < FIRST_BOMB_KEY \
            else self.bomb_keys()
        i = bisect_left(keys, prefix)
        while i < len(keys) and keys[i] >> KEY_TIE_BITS == prefix >> KEY_TIE_BITS:
            if self.move_of(keys[i]) is move:
                return True
            i += 1
        return False

    def plain_keys(self, size: int) -> list[int]:
        """The keys, ascending, of the plays of ``size`` cards that are no bomb: read for
        that size alone (a table's block of the size, or a walk of it) unless every play
        is read already. A policy that wants the longest plays reads a few sizes, not the
        thousands of plays of the others."""
        size = index(size)  # an int, or what stands for one (TypeError else)
        return self._block(size) if 0 < size <= sum(self._counts) else []

    def bomb_keys(self) -> list[int]:
        """The keys, ascending, of the bombs (read apart as :meth:`plain_keys` reads a size)."""
        return self._block(0)

    def _block(self, size: int) -> list[int]:
        got = self._blocks.get(size)
        if got is None:
            keys = self._keys
            if keys is not None:  # a slice of every play's
                lo, hi = key_range(size)
                start = bisect_left(keys, lo)
                got = keys[start:bisect_left(keys, hi, start)]
            else:
                got = self._owner._read_leads(self, size)
            self._blocks[size] = got
        return got

    @staticmethod
    def key_size(key: int) -> int:
        """The number of cards of the play of ``key``."""
        return (key >> KEY_SIZE_SHIFT) & 0xFF

    @staticmethod
    def first_clear(keys: list[int], fields: int) -> int:
        """The first of ``keys`` whose play's packed cards touch none of ``fields``, or -1."""
        return next(compress(keys, map(not_, map(and_, keys, repeat(fields << KEY_TIE_BITS)))), -1)

    def only_one(self) -> bool:
        """Whether the hand leads exactly one play (read from the smallest sizes up, as
        far as a second play)."""
        if self._keys is not None:
            return len(self._keys) == 1
        found = 0
        for size in range(1, sum(self._counts) + 1):
            found += len(self.plain_keys(size))
            if found > 1:
                return False
        return found + len(self.bomb_keys()) == 1

    def position(self, key: int) -> int:
        """The index of the play of ``key`` (every play read)."""
        keys = self.keys
        i = bisect_left(keys, key)
        if i == len(keys) or keys[i] != key:
            raise ValueError(f"no play of key {brief(key)}")
        return i

    def sizes(self) -> list[int]:
        """Per play, its number of cards."""
        return list(map(and_, map(rshift, self.keys, repeat(KEY_SIZE_SHIFT)), repeat(0xFF)))

    def ranks(self) -> list[int]:
        """Per play, its rank."""
        return list(map(and_, map(rshift, self.keys, repeat(KEY_RANK_SHIFT)), repeat(0xFF)))

    def plain(self) -> int:
        """How many plays are no bomb: they come first."""
        return bisect_left(self.keys, FIRST_BOMB_KEY)

    def size_at(self, i: int) -> int:
        """The number of cards of play ``i``."""
        return (self.keys[i] >> KEY_SIZE_SHIFT) & 0xFF

    def first_of_size(self, size: int, bombs: bool = True) -> int:
        """The index of the first play of ``size`` cards in listing order (among the plays
        that are no bomb only, unless ``bombs``), or -1: a bisection a bomb tier."""
        keys = self.keys
        if not keys or not 0 <= size < 0x100:
            return -1
        tiers = (keys[-1] >> (KEY_HIGH_SHIFT + 24)) + 1 if bombs else 1
        for tier in range(tiers):
            start = (tier << 24 | size << 16) << KEY_HIGH_SHIFT
            i = bisect_left(keys, start)
            if i < len(keys) and keys[i] < start + (1 << (KEY_HIGH_SHIFT + 16)):
                return i
        return -1

    def first_clear_of(self, fields: int, start: int, end: int) -> int:
        """The first index from ``start`` to ``end`` (not included) of a play whose packed
        cards touch none of ``fields``, or -1."""
        found = compress(range(start, end), map(not_, map(and_, self.keys[start:end], repeat(fields << KEY_TIE_BITS))))
        return next(found, -1)

    def clear_of(self, fields: int, end: int) -> list[int]:
        """The indices below ``end`` of the plays whose packed cards touch none of ``fields``."""
        return list(compress(range(end), map(not_, map(and_, self.keys[:end], repeat(fields << KEY_TIE_BITS)))))


class WildMoves(WildMoveStore):
    """Readings with wild cards for one variant: interned Move objects and the three
    queries (classify, legal moves, census) the :class:`~ddzrules.rules.variant.Variant`
    delegates to when a wild rank is given.

    ``classify``, ``legal_moves`` and ``census`` read a :class:`~ddzrules.rules.wild_table.WildTable`
    per wild rank once that rank has been asked about often enough (:attr:`load_after`,
    :attr:`table_after`; read from the keyed disk cache, else built and kept there);
    until then, and ``*_enumerated`` always, they walk the hand (the reference the table
    is tested against)."""

    def __init__(self, rules: Rules) -> None:
        super().__init__(rules)
        #: leads of several wild ranks as keys (:meth:`lead_plays`), by (wild ranks, hand)
        self._several_leads: Emptied[tuple[Wild, tuple[int, ...]], WildLeads] = Emptied(SEVERAL_LEADS_LIMIT)

    def _collect_ordered(self, counts: list[int], wild: Wild, **kw: object) -> list[tuple[int, Move]]:
        """Every reading found, as (legal-move order key, Move)."""
        if type(wild) is tuple:
            return self._collect_several(counts, wild, **kw)
        assert type(wild) is int
        naturals = list(counts)
        wilds = naturals[wild]
        naturals[wild] = 0
        found: Found = {}
        walk(self.rules, naturals, wilds, wild, found, **kw)  # type: ignore[arg-type]
        interned = self._interned(wild)
        if wild in self._tables:  # the table's own Moves first (a hand the table does not list)
            get = interned.get
            new = self._entry
            return [get(ident) or new(ident, subst, wild) for ident, subst in found.items()]
        letters = self._letters
        return self._entries(found, interned, lambda ident: letters(wild, found[ident]))

    def _collect(self, counts: list[int], wild: Wild, **kw: object) -> list[Move]:
        return list(map(_second, self._collect_ordered(counts, wild, **kw)))

    def classify(self, counts: list[int], wild: Wild) -> tuple[Move, ...]:
        if type(wild) is tuple:
            got = self._several_positions(counts, None, wild, exact=True)
            if got is None:
                return self.classify_enumerated(counts, wild)
            found = self._placed(*got)
            if not any(c for r, c in enumerate(counts) if r not in wild):  # wild cards alone
                found += self._wild_cards_alone(counts, wild, exact_size=sum(counts))
            return tuple(sorted(map(_second, found), key=_reading_order))
        if sum(counts) > self.rules.max_hand or not self._by_table(wild):
            return self.classify_enumerated(counts, wild)
        assert type(wild) is int
        table = self.table(wild)
        nat = list(counts)
        wilds = nat[wild]
        nat[wild] = 0
        return tuple(sorted(self.moves_at(table, table.exact(nat, wilds)), key=_reading_order))

    def legal_moves(self, counts: list[int], after: Move | None, wild: Wild) -> LegalMoves:
        if type(wild) is tuple:
            return self._legal_moves_several(counts, after, wild)
        got = self.legal_positions(counts, after, wild)
        if got is None:
            return self.legal_moves_enumerated(counts, after, wild)
        table, positions = got
        return LegalMoves(tuple(self.moves_at(table, positions)), can_pass=after is not None)

    def legal_positions(self, counts: list[int], after: Move | None, wild: Wild) -> tuple[WildTable, list[int]] | None:
        """The table of ``wild`` and the positions in it (ascending: legal-move order) of the
        hand's legal plays, as :meth:`legal_moves` lists them; None when this query walks the
        hand instead (a hand above the largest, or the table not used yet). Moves are made
        only for the bombs an answer must compare (the runtime makes the others' Moves only
        for the plays it has no action of yet)."""
        total = sum(counts)
        if total > self.rules.max_hand or not self._by_table(wild):
            return None
        assert type(wild) is int
        table = self.table(wild)
        nat = list(counts)
        wilds = nat[wild]
        nat[wild] = 0
        if after is None:
            return table, table.lead(nat, wilds, total)
        # the same candidates as the enumeration: the play's combo at its size, length and
        # above its rank (each beats the play: no need to ask), then the bombs that beat it;
        # in legal-move order the bombs come last (positions above every other play's)
        plain: list[int] = []
        if after.tier < 0 and after.combo in self._combo_index:
            combo = self._combo_index[after.combo]
            meta = table.meta
            lo = combo << 16 | (after.rank + 1) << 8  # the play's combo above its rank, at its length
            hi = (combo + 1) << 16
            length = after.length
            plain = [p for p in table.sized(nat, wilds, after.size, False)
                     if lo <= meta[p] < hi and meta[p] & 0xFF == length]
        bombs = table.sized(nat, wilds, 0, True)  # ascending, as the plain plays
        if bombs:
            plain += compress(bombs, [m.beats(after) for m in self.moves_at(table, bombs)])
        return table, plain

    # ------------------------------------------------------------------ several ranks by table
    # With several wild ranks (天地癞子) the walk pools the wild cards under the first rank
    # (_collect_several); a pool of at most four cards is what a hand of one wild rank
    # holds, so that rank's table lists the same plays, placed on the cards held the same
    # way, and so does the other rank's (a wild card of either stands for the same ranks,
    # and the pooled hand holds no natural card of either). The plays of wild cards alone
    # read each card as any wild rank, which one rank's table does not: those are walked,
    # on the wild cards alone (a small walk).
    # tests/core/test_wild_table.py holds this path to the walk of the whole hand.

    def _several_positions(self, counts: list[int], after: Move | None, wild: tuple[int, ...],
                           exact: bool = False) -> tuple[WildTable, list[int], tuple[int, ...], tuple[int, ...]] | None:
        """(a wild rank's table (:meth:`_several_table`), the positions of the pooled hand's
        readings that hold natural cards — its leads, its answers to ``after``, or with
        ``exact`` the readings of the whole hand —, the wild ranks, the cards held of
        each); None when the hand is walked instead: a pool of more wild cards than the
        table holds, a hand above the largest, or no table of these ranks read yet."""
        table = self._pooled_table(counts, wild)
        if table is None:
            return None
        nat, pooled = self._pooled_hand(counts, wild)
        if exact:
            positions = table.exact(nat, pooled)
        elif after is None:
            positions = table.lead(nat, pooled, sum(counts))
        else:
            positions = self._answer_positions(table, nat, pooled, after)
        return table, positions, wild, tuple(counts[w] for w in wild)

    def _legal_moves_several(self, counts: list[int], after: Move | None, wild: tuple[int, ...]) -> LegalMoves:
        # memoised: a search meets the same hand and play again and again (its own hand in
        # every rollout), and a listing of several wild ranks costs milliseconds
        memo = self._several_listed
        key = (wild, tuple(counts), after)
        listed = memo.get(key)
        if listed is None:
            listed = memo.keep(key, self._list_several(counts, after, wild))
        return listed

    def _list_several(self, counts: list[int], after: Move | None, wild: tuple[int, ...]) -> LegalMoves:
        got = self._several_positions(counts, after, wild)
        if got is None:
            return self.legal_moves_enumerated(counts, after, wild)
        out = self._placed(*got)
        if after is None:
            out += self._wild_cards_alone(counts, wild, max_size=sum(counts))
        else:
            if after.tier < 0 and after.combo in self._combo_index:
                out += self._wild_cards_alone(counts, wild, shapes=self._shapes_by_combo.get(
                    self._combo_index[after.combo], []), exact_size=after.size, min_rank=after.rank,
                    length=after.length)
            out += self._wild_cards_alone(counts, wild, shapes=self._bomb_shapes, max_size=sum(counts))
            out = [x for x in out if x[1].beats(after)]
        out.sort(key=_first)
        return LegalMoves(tuple(map(_second, out)), can_pass=after is not None)

    # ------------------------------------------------------------------ leads as keys
    def lead_plays(self, counts: list[int], wild: Wild) -> WildLeads | None:
        """The leads of a hand holding wild cards as :meth:`legal_moves` lists them, as a
        :class:`WildLeads` (a Move made only for a play asked for, the plays read only as
        far as they are asked for). Several wild ranks: read off a table, or walked (a
        pool of more wild cards than a table holds, or no table read yet); one wild rank:
        read off its table once it is read (its Moves the table's own). None for a hand
        above the largest a game deals, or one wild rank whose table is not read yet (ask
        :meth:`legal_moves`, which walks it and counts the query toward reading the
        table). Memoised by hand, as the full listings are."""
        memo = self._several_leads
        key = (wild, tuple(counts))
        got = memo.get(key)
        if got is not None:
            return got
        if type(wild) is int:
            table = self._tables.get(wild)
            if table is None or sum(counts) > self.rules.max_hand or len(self._order_bits) > 256:
                return None
            return memo.keep(key, WildLeads(self, list(counts), (wild,), table, single=True))
        assert type(wild) is tuple
        if len(memo) >= memo.limit:
            memo.clear()  # before the pooled table is made: the leads kept are large
        table = self._pooled_table(counts, wild)
        if table is None and (sum(counts) > self.rules.max_hand or len(self._order_bits) > 256):
            return None  # no hand a game deals (legal_moves says so); combos beyond a key's name bits
        return memo.keep(key, WildLeads(self, list(counts), wild, table))

    def _read_leads(self, leads: WildLeads, size: int | None = None) -> list[int]:
        """Keys of ``leads``, ascending: every one (``size`` None), those of the plays of
        ``size`` cards that are no bomb, or with ``size`` 0 those of the bombs. The table's
        readings the pooled hand holds (all, or the block of the size or of the bombs), or
        a walk of the pooled hand (all, that size, or the bombs' shapes) whose readings
        join ``leads``' source; each placed on the wild cards held; and the wild cards
        alone among them."""
        counts, wild, table = leads._counts, leads._wild, leads._table
        if size and size not in self._plain_sizes:  # no combo of that size: nothing to walk or read
            return []
        if table is not None:
            nat, pool = self._pooled_hand(counts, wild)
            positions = table.lead(nat, pool, sum(counts)) if size is None else table.sized(nat, pool, size, not size)
            pooled, held = self._table_pooled(table, positions, leads._single)
            pool_rank = table.wild
        else:
            kw: dict[str, Any] = ({"max_size": sum(counts)} if size is None
                                  else {"exact_size": size, "shapes": self._plain_shapes} if size
                                  else {"max_size": sum(counts), "shapes": self._bomb_shapes})
            pooled, held, readings = self._walk_pooled(counts, wild, **kw)
            leads._source.update(readings)  # type: ignore[union-attr]  # walked: a dict
            pool_rank = wild[0]
        keys = self._placed_keys(pooled, held, counts, wild, pool_rank)
        if size is None:
            keys += leads._alone_moves()
        else:
            lo, hi = key_range(size)
            keys += [k for k in leads._alone_moves() if lo <= k < hi]
        keys.sort()
        return keys

    def _table_pooled(self, table: WildTable, positions: list[int],
                      single: bool = False) -> tuple[list[int], list[int]]:
        """The keys of the readings at ``positions`` that hold natural cards (several wild
        ranks: those of wild cards alone are walked apart; one wild rank: all of them), and
        their wild cards read off the keys' pooled field."""
        pooled = list(filter(None, map(self._lead_keys(table, single).__getitem__, positions)))
        held = list(map(and_, map(rshift, pooled, repeat(KEY_TIE_BITS + RANK_SHIFTS[table.wild])), repeat(C.MASK)))
        return pooled, held

    def _alone_leads(self, counts: list[int], wild: tuple[int, ...]) -> dict[int, Move]:
        """The leads of the hand's wild cards alone (walked apart: each card reads as any
        wild rank, see _list_several), by their key in a WildLeads."""
        alone: dict[int, Move] = {}
        for _, move in self._wild_cards_alone(counts, wild, max_size=sum(counts)):
            prefix = self._lead_prefix(move)
            assert prefix is not None
            while prefix in alone:  # another reading of the same cards, combo and rank: after it
                prefix += 1
            alone[prefix] = move
        return alone

    def _lead_keys(self, table: WildTable, single: bool = False) -> list[int]:
        """Per position of ``table``, its key as :class:`WildLeads` holds them; with several
        wild ranks (not ``single``) 0 for a reading of wild cards alone (made once a table
        and kind: 0.2 s and about 20 MB for one of 450,000 readings)."""
        got = self._lead_keys_by_table.get((id(table), single))
        if got is not None and got[0] is table:
            return got[1]
        keys = list(map(or_, map(lshift, table.high, repeat(KEY_PACKED_BITS)), table.packed))
        tied = list(compress(range(1, len(keys)), map(eq, keys[1:], keys)))
        keys = list(map(lshift, keys, repeat(KEY_TIE_BITS)))
        for p in tied:  # the walk's order among readings of the same cards, combo and rank
            keys[p] = keys[p - 1] + 1
        if not single:
            alone = compress(range(len(keys)), map(eq, table.sizes, table.wcol))  # no natural card
            for p in alone:
                keys[p] = 0
        self._lead_keys_by_table[(id(table), single)] = (table, keys)
        return keys

    def _lead_prefix(self, move: Move) -> int | None:
        """The key of ``move`` in a :class:`WildLeads`, but its place among readings of the
        same cards, combo and rank (0 there); None for a combo this variant lacks."""
        combo = self._combo_index.get(move.combo)
        if combo is None:
            return None
        bits = self._order_bits[combo]
        high = ((bits >> 12) & 0xFF) << 24 | move.size << 16 | move.rank << 8 | (bits & 0xFF)
        return (high << KEY_PACKED_BITS | move.packed) << KEY_TIE_BITS

    def _lead_move(self, key: int, source: LeadSource, wild: tuple[int, ...], single: bool = False) -> Move:
        """The Move of a :class:`WildLeads` key read off ``source`` (a table, or a walk's
        pooled readings): one wild rank's (``single``), the table's own; else interned, or
        made with the substitution of its pooled reading, placed as :meth:`_placed` places
        it."""
        packed = (key >> KEY_TIE_BITS) & KEY_PACKED_MASK
        high = key >> KEY_HIGH_SHIFT
        taken = tuple((packed >> RANK_SHIFTS[w]) & C.MASK for w in wild)
        n = sum(taken)
        table = source if isinstance(source, WildTable) else None
        pool_rank = table.wild if table is not None else wild[0]
        pooled = packed - sum(map(mul, taken, (1 << RANK_SHIFTS[w] for w in wild))) + (n << RANK_SHIFTS[pool_rank])
        tie = key & ((1 << KEY_TIE_BITS) - 1)
        if table is not None:
            lo = bisect_left(table.high, high)
            hi = bisect_left(table.high, high + 1, lo)
            p = bisect_left(table.packed, pooled, lo, hi) + tie
            if single:
                return self.moves_at(table, [p])[0]
            m = table.meta[p]
            combo, rank, length = m >> 16, (m >> 8) & 0xFF, m & 0xFF
            subst = table.substs[table.subst_index[p]]
        else:
            length, subst = source[(high << KEY_PACKED_BITS | pooled) << KEY_TIE_BITS | tie]  # type: ignore[index]
            combo, rank = self._combo_by_name[high & 0xFF], (high >> 8) & 0xFF
        ident = (packed, combo, rank, length)
        interned = self._interned(wild)
        entry = interned.get(ident)
        if entry is not None:
            return entry[1]
        size = C.size_of(packed)
        move = self._make(packed, combo, rank, length, size, self._placement(wild, taken, subst))
        interned[ident] = (self._order(packed, combo, rank, size), move)
        return move

    def census(self, wild: Wild, max_size: int) -> tuple[dict[str, int], int, int, dict[int, int]]:
        """Distinct plays of the full deck per combo, distinct card sets, readings, and
        readings by the number of wild cards they hold."""
        if isinstance(wild, tuple):
            return self.census_several(wild, max_size)
        if not self.use_table or max_size != self.rules.max_hand:
            return self.census_enumerated(wild, max_size)
        return census_counts(self.table(wild), (c.name for c in self.rules.combos))

    def classify_enumerated(self, counts: list[int], wild: Wild) -> tuple[Move, ...]:
        moves = self._collect(counts, wild, exact_size=sum(counts))
        return tuple(sorted(moves, key=_reading_order))

    def legal_moves_enumerated(self, counts: list[int], after: Move | None, wild: Wild) -> LegalMoves:
        if type(wild) is tuple and sum(counts) > self.rules.max_hand:  # no hand a game deals
            self.check_several(counts, sum(counts), wild, f"listing the plays of a {sum(counts)}-card hand",
                               per_rank=False)
        # sorted by one int per Move: the order (m.tier, m.size, m.rank, m.combo, m.packed)
        if after is None:
            moves = self._collect_ordered(counts, wild, max_size=sum(counts))
            moves.sort(key=_first)
            return LegalMoves(tuple(map(_second, moves)), can_pass=False)
        out: list[tuple[int, Move]] = []
        if after.tier < 0 and after.combo in self._combo_index:
            shapes = self._shapes_by_combo.get(self._combo_index[after.combo], [])
            out.extend(x for x in self._collect_ordered(counts, wild, shapes=shapes, exact_size=after.size,
                                                        min_rank=after.rank, length=after.length)
                       if x[1].beats(after))
        out.extend(x for x in self._collect_ordered(counts, wild, shapes=self._bomb_shapes, max_size=sum(counts))
                   if x[1].beats(after))
        out.sort(key=_first)
        return LegalMoves(tuple(map(_second, out)), can_pass=True)

    def census_enumerated(self, wild: Wild, max_size: int) -> tuple[dict[str, int], int, int, dict[int, int]]:
        """Distinct plays of the full deck per combo, distinct card sets, readings, and
        readings by the number of wild cards they hold (by enumeration: the reference)."""
        moves = self._collect(list(self.rules.deck), wild, max_size=max_size)
        per: dict[str, set[int]] = {}
        by_wilds: dict[int, int] = {}
        shifts = [C.BITS * w for w in C.wild_tuple(wild)]
        for m in moves:
            per.setdefault(m.combo, set()).add(m.packed)
            w = sum((m.packed >> shift) & C.MASK for shift in shifts)
            by_wilds[w] = by_wilds.get(w, 0) + 1
        total = len({m.packed for m in moves})
        return ({c.name: len(per.get(c.name, ())) for c in self.rules.combos}, total, len(moves),
                dict(sorted(by_wilds.items())))


_first = itemgetter(0)
_second = itemgetter(1)
#: reading order (m.tier, m.rank, m.combo, m.length), as the natural classify's
_reading_order = attrgetter("tier", "rank", "combo", "length")
