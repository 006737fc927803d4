"""The public face of a compiled spec: classify, compare, list moves, count.

>>> v = load_variant("hubei-3p")
>>> [m.combo for m in v.classify("333444+69")]
['plane_wings']
>>> v.beats("2222", "XD"), v.beats("XD", "2222")
(False, True)
>>> "888+9" in [m.cards for m in v.legal_moves("88869K")]
False
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from operator import attrgetter, gt, index, itemgetter
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from ddzrules import cards as C
from ddzrules.errors import DdzError, brief
from ddzrules.rules.compiler import compile_spec
from ddzrules.rules.cost import max_enumeration
from ddzrules.rules.moves import LEGAL_MOVES, LegalMoves, Move, make_moves
from ddzrules.rules.shapes import Rules, Shape
from ddzrules.spec import Spec, load_spec, mark_checked
from ddzrules.speed import cache
from ddzrules.speed.cache import CacheWarning, cache_dir
from ddzrules.speed.memo import LastUsed

try:  # C kernels of legal_moves' quick path: the compiled build only (docs/compiled.md)
    from ddzrules.speed._quick import hand_counts as _hand_counts
    from ddzrules.speed._quick import legal_tuple as _legal_tuple
except ImportError:  # the pure build does the same in Python
    _hand_counts = _legal_tuple = None  # type: ignore[assignment]

if TYPE_CHECKING:  # imported where first used: loading and classifying need neither
    from ddzrules.rules.lister import MovePlan
    from ddzrules.rules.wild import WildMoves

from ddzrules.rules.universe import (
    TABLE_FORMAT,
    TABLE_LIMIT,
    UniverseRows,
    load_cached,
    store_cached,
)

__all__ = ["TABLE_FORMAT", "TABLE_LIMIT", "CacheWarning", "Census", "Comparison", "Variant", "cache_dir",
           "load_variant"]

#: hands a variant lists by plain enumeration before it builds its fast index: a hand
#: enumerates in about 1 ms, the index takes 100-700 ms to build and then lists a hand
#: in some 30 µs. Building it once this many hands were listed (ski rental) keeps the
#: first answers of a fresh process fast and a long run within about twice the best
#: cost; the plays and their order are the same either way.
FAST_INDEX_AFTER = 256

#: a set of cards as the public doors take it: a card string, a Move, or a typed sequence —
#: C.Counts (a count by rank) or C.Ranks (a rank index per card). A bare sequence of numbers
#: is refused, whatever its length (:func:`_untyped`): it names different cards read either way
CardsLike = str | Move | C.Ranks | C.Counts
#: the wild ranks of a query: one rank (``"7"``, an index) or several (``"7,9"``,
#: ``("7", "9")``: 天地癞子), or None for no wild card
WildLike = int | str | tuple[int | str, ...] | list[int | str] | None
WildKey = C.WildKey
#: packed counts are below this (4 bits for each of the 15 ranks)
_PACKED_END = 1 << (C.BITS * C.NUM_RANKS)


@dataclass(frozen=True)
class Census:
    """The move universe counted by combo (a play with two readings of different
    combos counts under both; ``total`` counts distinct card sets)."""

    by_combo: dict[str, int]
    total: int
    readings: int
    #: wildcard census: readings by the number of wild cards they hold
    by_wilds: dict[int, int] | None = None

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"by_combo": dict(self.by_combo), "total": self.total, "readings": self.readings}
        if self.by_wilds is not None:
            out["readings_by_wilds"] = {str(k): v for k, v in self.by_wilds.items()}
        return out


@dataclass(frozen=True)
class Comparison:
    """Which of two plays may be played on the other (:meth:`Variant.compare`)."""

    a: str
    b: str
    a_beats_b: bool
    b_beats_a: bool

    @property
    def verdict(self) -> str:
        """The comparison as a sentence: ``'44 beats 33'``, ``'33 and 4 do not compare'``."""
        if self.a_beats_b:
            return f"{self.a} beats {self.b}"
        if self.b_beats_a:
            return f"{self.b} beats {self.a}"
        return f"{self.a} and {self.b} do not compare"

    def to_dict(self) -> dict[str, object]:
        return {"a": self.a, "b": self.b, "a_beats_b": self.a_beats_b, "b_beats_a": self.b_beats_a,
                "verdict": self.verdict}


class Variant:
    """A compiled variant: the matcher tables of one spec."""

    def __init__(self, spec: Spec, rules: Rules) -> None:
        self.spec = spec
        self.rules = rules
        self.name = spec.name
        self.combo_names = [c.name for c in rules.combos]
        self._intern: dict[tuple[int, int, int, int], Move] = {}
        #: id() of every Move in _intern (kept alive there, so no id is reused): a Move
        #: passed back in is known to be this variant's in one set lookup
        self._interned_ids: set[int] = set()
        #: the universe table (see UniverseRows); None until first needed or when not tabulated
        self._rows: UniverseRows | None = None
        #: readings of packed counts looked up so far (the table's Moves are made lazily)
        self._readings_of: dict[int, tuple[Move, ...]] = {}
        #: canonical card string -> readings, for the strings looked up so far (classify's fast path)
        self._strings: dict[str, tuple[Move, ...]] = {}
        self._full: dict[int, tuple[Move, ...]] | None = None
        self._full_strings: dict[str, tuple[Move, ...]] | None = None
        #: comparison keys by (combo, size, rank, length): many plays share one
        self._keys: dict[tuple[int, int, int, int], tuple[int, ...]] = {}
        self._tabulated: bool | None = None
        self._shapes_by_combo: dict[int, list[Shape]] = {}
        for s in rules.shapes:
            self._shapes_by_combo.setdefault(s.combo, []).append(s)
        self._bomb_shapes = [s for s in rules.shapes if rules.combos[s.combo].tier >= 0]
        self.combo_index = {name: i for i, name in enumerate(self.combo_names)}
        #: the fast listing index (see fast_index); None until built, False when the
        #: universe is not tabulated
        self._fast: _FastIndex | None | Literal[False] = None
        #: hands listed by enumeration while the fast index is not built (FAST_INDEX_AFTER)
        self._enumerated_listings = 0
        self._wild_moves: WildMoves | None = None

    # ------------------------------------------------------------------ moves
    def _move(self, packed: int, combo: int, rank: int, length: int) -> Move:
        ident = (packed, combo, rank, length)
        m = self._intern.get(ident)
        if m is None:
            info = self.rules.combos[combo]
            cards = C.to_strings((packed,))[0]
            size = len(cards)  # one letter a card
            kk = (combo, size, rank, length)
            key = self._keys.get(kk)
            if key is None:
                key = self._keys[kk] = info.key(size, rank, length)
            m = Move(cards, info.name, rank, length, size, info.tier, key, packed)
            self._intern[ident] = m
            self._interned_ids.add(id(m))
        return m

    def _moves(self, idents: list[tuple[int, int, int, int]]) -> list[Move]:
        """:meth:`_move` of many readings: those made before as they were, the others in
        bulk (card strings by chunk lookups, fields by slot setters) and interned."""
        got: list[Move | None] = list(map(self._intern.get, idents))
        new = [ident for ident, m in zip(idents, got) if m is None]
        if not new:
            return got  # type: ignore[return-value]
        packs, combos, ranks, lengths = (list(column) for column in zip(*new))
        cards = C.to_strings(packs)
        sizes = list(map(len, cards))  # one letter a card
        infos = list(map(self.rules.combos.__getitem__, combos))
        keys = [self._keys.get(kk) or self._keys.setdefault(kk, info.key(*kk[1:]))
                for info, kk in zip(infos, zip(combos, sizes, ranks, lengths))]
        columns = (cards, [i.name for i in infos], ranks, lengths, sizes, [i.tier for i in infos], keys, packs,
                   [()] * len(new))
        made = make_moves(*columns)
        self._intern.update(zip(new, made))
        self._interned_ids.update(map(id, made))
        fresh = iter(made)
        return [m if m is not None else next(fresh) for m in got]

    def _collect(self, avail: list[int], **kw: object) -> dict[tuple[int, int, int, int], None]:
        found: dict[tuple[int, int, int, int], None] = {}

        def emit(packed: int, combo: int, rank: int, length: int) -> None:
            found[(packed, combo, rank, length)] = None

        self.rules.enumerate(avail, emit, **kw)  # type: ignore[arg-type]
        return found

    # ------------------------------------------------------------------ input
    def _counts(self, cards: CardsLike) -> list[int]:
        """Per-rank counts of any accepted form of cards; CardError for anything that is
        no set of cards (so that no count spills into another rank's field)."""
        if isinstance(cards, str):
            if not cards.strip(C.RANKS):  # canonical letters only: count them directly
                return C.check_counts(list(map(cards.count, C.RANKS)))
            return C.check_counts(C.counts_of(C.parse_ranks(cards)))
        if isinstance(cards, Move):
            packed = cards.packed
            if type(packed) is not int or not 0 <= packed < _PACKED_END:  # a Move built by hand
                raise C.CardError("", None, f"{brief(cards, 80)} holds no packed count of cards")
            return C.unpack(packed)
        if isinstance(cards, C.Counts):  # checked as it was made
            return list(cards) + [0] * (C.NUM_RANKS - len(cards))
        if isinstance(cards, C.Ranks):
            return C.check_counts(C.counts_of(cards))
        raise _untyped(cards)

    def check_deck(self, counts: list[int], what: str) -> None:
        if len(counts) == len(self.rules.deck) and not any(map(gt, counts, self.rules.deck)):
            return
        for r, c in enumerate(counts):
            if c > self.rules.deck[r]:
                raise DdzError(f"{what} has {c} × {C.RANKS[r]} but {self.name} has only "
                               f"{self.rules.deck[r]} in its deck")

    # ------------------------------------------------------------------ table
    def ensure_table(self) -> None:
        if self._tabulated is not None:
            return
        if cache.enabled():
            rows = load_cached(self.rules)
            if rows is None:
                rows = self._build_rows()
                if rows is not None:
                    store_cached(self.rules, rows)
        else:  # no disk cache (the playground's drafts): this process's own tables
            rows = _TABLES.kept(_table_key(self.rules), self._build_rows)
        self._rows = rows
        self._tabulated = rows is not None

    def _build_rows(self) -> UniverseRows | None:
        built = self._universe_idents()
        return None if built is None else UniverseRows.build(*built)

    def _readings(self, packed: int) -> tuple[Move, ...]:
        """The readings of a packed count from the table (its Moves made on first use),
        weakest first; () when it is no play of the universe."""
        found = self._readings_of.get(packed)
        if found is None:
            rows = self._rows
            assert rows is not None
            packs = rows.packs
            i = j = bisect_left(packs, packed)
            while j < len(packs) and packs[j] == packed:
                j += 1
            idents = dict.fromkeys(zip(packs[i:j], rows.combos[i:j], rows.ranks[i:j], rows.lengths[i:j]))
            found = tuple(sorted((self._move(*ident) for ident in idents), key=_reading_order))
            if found:  # only plays are remembered: the memo stays as small as the table
                self._readings_of[packed] = found
                self._strings[found[0].cards] = found
        return found

    @property
    def plays_by_packed(self) -> dict[int, tuple[Move, ...]] | None:
        """The whole table, packed count -> readings (every Move made: for census-like uses)."""
        self.ensure_table()
        if self._rows is None:
            return None
        if self._full is None:
            readings = self._readings
            self._full = {p: readings(p) for p in dict.fromkeys(self._rows.packs)}
        return self._full

    def combos_by_play(self) -> dict[int, tuple[int, ...]] | None:
        """Packed count -> the indices (into ``rules.combos``) of the combos reading it,
        straight from the table: no Move is made (None when the universe is not
        tabulated). What ``validate``'s table warnings read.

        >>> from ddzrules.cards import pack_cards
        >>> v = load_variant("hubei-3p")
        >>> [v.rules.combos[i].name for i in v.combos_by_play()[pack_cards("33")]]
        ['pair']
        """
        self.ensure_table()
        rows = self._rows
        if rows is None:
            return None
        found: dict[int, tuple[int, ...]] = {}
        for packed, combo in zip(rows.packs, rows.combos):
            have = found.get(packed)
            if have is None:
                found[packed] = (combo,)
            elif combo not in have:
                found[packed] = have + (combo,)
        return found

    @property
    def plays_by_string(self) -> dict[str, tuple[Move, ...]]:
        """The whole table by canonical card string ({} when not tabulated)."""
        if self._full_strings is None:
            table = self.plays_by_packed
            if table is None:
                return {}
            self._full_strings = {ms[0].cards: ms for ms in table.values()}
        return self._full_strings

    def _universe_idents(self) -> tuple[list[tuple[int, int, int, int]], list[int]] | None:
        """Every reading of the universe, and for each the (first) shape that produces it."""
        found: dict[tuple[int, int, int, int], int] = {}
        shape = 0  # the index of the shape enumerating now, which emit records

        def emit(packed: int, combo: int, rank: int, length: int) -> None:
            key = (packed, combo, rank, length)
            if key not in found:
                found[key] = shape
                if len(found) > TABLE_LIMIT:
                    raise _TooBig

        deck = list(self.rules.deck)
        try:
            for shape, s in enumerate(self.rules.shapes):  # noqa: B007 - emit (a closure) reads shape
                self.rules.enumerate(deck, emit, shapes=[s], max_size=self.rules.max_hand)
        except _TooBig:
            return None
        return list(found), list(found.values())

    # ------------------------------------------------------------------ API
    def classify(self, cards: CardsLike, wild: WildLike = None) -> tuple[Move, ...]:
        """Every reading of a set of cards (empty when it is no combo). With ``wild``
        (a wildcard variant's wild rank, e.g. ``"7"``) readings may use the wild cards
        as other ranks; each such Move carries its ``substitution``.

        >>> [(m.combo, m.rank_name) for m in load_variant("compat/douzero").classify("333444555666")]
        [('plane_solos', '5'), ('plane', '6'), ('plane_solos', '6')]
        """
        if wild is not None:
            w = self.wild_key(wild)
            counts = self._counts(cards)
            if C.holds_wild(counts, w):
                if sum(counts) > self.rules.max_hand or any(map(gt, counts, self.rules.deck)):
                    return ()  # no play of the universe, as the natural table says (and not a long walk)
                return self.wild_moves().classify(counts, w)
        try:  # the common case: a canonical card string looked up before
            return self._strings[cards]  # type: ignore[index]
        except (KeyError, TypeError):  # not looked up yet, or unhashable (a list of ranks)
            pass
        if self._tabulated is None:
            self.ensure_table()
        counts = self._counts(cards)
        if self._rows is not None:
            return self._readings(C.pack(counts))
        total = sum(counts)
        found = self._collect(counts, exact_size=total)
        return tuple(sorted((self._move(*i) for i in found), key=_reading_order))

    def classifier(self) -> Callable[[str], tuple[Move, ...] | None]:
        """The matcher table as a lookup function for hot loops (as RLCard's ``CARD_TYPE``
        lookup is): a canonical card string of the universe → its readings, anything
        else → None (use :meth:`classify` for other notations, non-combos and wild cards).
        It is the table's own ``dict.get``, so it costs one dictionary lookup.

        >>> lookup = load_variant("hubei-3p").classifier()
        >>> [m.combo for m in lookup("33344469")], lookup("333444 69"), lookup("3334")[0].combo
        (['plane_wings'], None, 'trio_with_hand')
        """
        self.ensure_table()
        if self._rows is None:  # pragma: no cover - universes too large to tabulate
            return lambda cards: self.classify(cards) or None
        return self.plays_by_string.get

    def reading(self, cards: CardsLike, wild: WildLike = None) -> Move:
        """The reading of a play for the runtime: the single one, or the strongest
        when several; raises when the cards are no combo."""
        if isinstance(cards, Move):
            return self._own(cards, wild)
        readings = self.classify(cards, wild)
        if not readings:
            raise DdzError(f"{_show(cards)} is not a combo of {self.name}")
        return readings[-1]

    def beats(self, a: CardsLike, b: CardsLike, wild: WildLike = None) -> bool:
        """True when ``a`` may be played on ``b``. Moves compare exactly by their
        reading; card strings by any of their readings."""
        ra = (self._own(a, wild),) if isinstance(a, Move) else self.classify(a, wild)
        rb = (self._own(b, wild),) if isinstance(b, Move) else self.classify(b, wild)
        if not ra:
            raise DdzError(f"{_show(a)} is not a combo of {self.name}")
        if not rb:
            raise DdzError(f"{_show(b)} is not a combo of {self.name}")
        return any(x.beats(y) for x in ra for y in rb)

    def compare(self, a: str, b: str, wild: WildLike = None) -> Comparison:
        """:meth:`beats` both ways for two card strings (canonical in the answer).

        >>> load_variant("hubei-3p").compare("44", "33").verdict
        '44 beats 33'
        >>> load_variant("hubei-3p").compare("33", "4").verdict
        '33 and 4 do not compare'
        """
        ca, cb = C.parse_cards(a), C.parse_cards(b)
        return Comparison(ca, cb, self.beats(ca, cb, wild=wild), self.beats(cb, ca, wild=wild))

    def legal_moves(self, hand: CardsLike, after: CardsLike | None = None,
                    wild: WildLike = None) -> LegalMoves:
        """Every distinct legal play of ``hand`` (each reading once); on a lead
        (``after`` None) passing is not allowed. With ``wild`` the hand's cards of that
        rank are wild (癞子): every distinct (cards, reading) is listed once.

        >>> v = load_variant("hubei-3p")
        >>> [m.cards for m in v.legal_moves("3456789", after="34567")]
        ['45678', '56789']
        """
        order: list[int] | None = None
        fast = self._fast
        if wild is None and fast and type(hand) is C.Ranks and len(hand) <= fast.fits:
            index = fast
            # the quick path (the runtime's form, Ranks): its counts, a byte a rank,
            # checked against the deck; then a lead, or an answer to a play looked up
            # before as its string
            raw: bytes | None = None
            if _hand_counts is not None:  # the C kernel (Ranks is a list)
                raw = _hand_counts(hand, fast.limits)
            else:
                # one int from each card's weight (bytes() rejects what is no small int;
                # ranks 15-255 weigh above the 15 bytes), checked in one AND
                try:
                    packed: int = sum(map(fast.weight, bytes(hand)))
                except (TypeError, ValueError):
                    pass  # the general path raises the usual error
                else:
                    if not (packed + fast.over) & fast.check:
                        raw = packed.to_bytes(15, "little")
            if raw is not None:
                if after is None:
                    order = fast.lead(raw)
                elif type(after) is str:
                    recipe = fast.recipes.get(after)
                    if recipe is not None:
                        order = recipe(raw)
        if order is None:  # anything else
            listed = self._listed(hand, after, wild)
            if isinstance(listed, LegalMoves):  # listed in full (wild cards, plain enumeration)
                return listed
            index, order = listed
        if _legal_tuple is not None:  # the compiled build: sort, drop placeholders, look up
            return _legal_tuple(LEGAL_MOVES[after is not None], order, index.moves)
        order.sort()
        if order and order[0] < 0:  # placeholders for "no reading" sort first
            del order[:bisect_left(order, 0)]
        moves = index.moves
        # LegalMoves(...) in one C call: tuple.__new__ of the subclass for can_pass
        return _make_tuple(LEGAL_MOVES[after is not None],
                           itemgetter(*order)(moves) if len(order) > 1 else (moves[order[0]],) if order else ())

    def _listed(self, hand: CardsLike, after: CardsLike | None,
                wild: WildLike) -> LegalMoves | tuple[_FastIndex, list[int]]:
        """legal_moves' general path: the LegalMoves, or the fast index and the positions
        of the plays (unsorted, perhaps with placeholders) for legal_moves to finish."""
        owned: Move | None = None  # ``after`` as a reading of this variant, once known
        if wild is not None:
            w = self.wild_key(wild)
            counts = self._counts(hand)
            self.check_deck(counts, "the hand")
            owned = None if after is None else self.reading(after, w)
            if C.holds_wild(counts, w):
                return self.wild_moves().legal_moves(counts, owned, w)
            # no wild card in hand: the natural listing (of a play perhaps read with wild cards)
            hand, after = C.deck_list(counts), owned
        fast = self._fast
        if fast is None:
            if self._enumerated_listings < FAST_INDEX_AFTER:
                self._enumerated_listings += 1  # not worth the index yet: enumerate below
            else:
                fast = self.fast_index()
        counts = self._counts(hand)
        self.check_deck(counts, "the hand")
        if not isinstance(fast, _FastIndex) or sum(counts) > fast.max_hand:
            # plays larger than the table's
            prev = None if after is None else owned if owned is not None else self.reading(after)
            return self._legal_moves_enumerated(counts, prev)
        raw = bytes(counts)
        if after is None:
            return fast, fast.plan.lead(raw)
        # the play to beat, and the plan's function answering it (memoised by string)
        known = fast.answers.get(after) if type(after) is str else None
        if known is None:
            readings = None
            if type(after) is str:
                readings = self._strings.get(after)
                target = readings[-1] if readings else self.reading(after)
                readings = self._strings.get(after)  # known now when it is a canonical play
            elif owned is not None:
                target = owned
            elif isinstance(after, Move) and id(after) in self._interned_ids:
                target = after  # a Move this variant made, as it is
            else:  # anything else read (re-read: a Move of another variant)
                target = self.reading(after)
            recipe = None
            if target.tier < 0:
                combo = self.combo_index[target.combo]  # a reading of this variant
                recipe = fast.plan.answerer(combo, target.size, target.length, target.rank)
            known = (target, recipe)
            if type(after) is str and readings:
                fast.answers[after] = known
                if recipe is not None:
                    fast.recipes[after] = recipe
        target, recipe = known
        if recipe is not None:
            return fast, recipe(raw)
        moves = fast.moves
        return fast, [i for i in fast.plan.bomb_plays(raw) if i >= 0 and moves[i].beats(target)]

    def _legal_moves_enumerated(self, counts: list[int], prev: Move | None) -> LegalMoves:
        """legal_moves by plain enumeration (hands larger than the table's plays, or
        variants whose universe is not tabulated); ``prev`` is a reading of this variant."""
        if prev is None:
            found = self._collect(counts, max_size=sum(counts))
            moves = [self._move(*i) for i in found]
            return LegalMoves(tuple(sorted(moves, key=_move_order)), can_pass=False)
        out: list[Move] = []
        if prev.tier < 0:
            shapes = self._shapes_by_combo.get(self.combo_index[prev.combo], [])
            found = self._collect(counts, shapes=shapes, exact_size=prev.size, min_rank=prev.rank,
                                  length=prev.length)
            out.extend(m for m in (self._move(*i) for i in found) if m.beats(prev))
        found = self._collect(counts, shapes=self._bomb_shapes, max_size=sum(counts))
        out.extend(m for m in (self._move(*i) for i in found) if m.beats(prev))
        return LegalMoves(tuple(sorted(out, key=_move_order)), can_pass=True)

    @property
    def built_fast_index(self) -> _FastIndex | None | Literal[False]:
        """The fast listing index if it is built (:meth:`fast_index`), None while
        :meth:`legal_moves` still lists by enumeration, False when the universe is not
        tabulated. For a lister of its own (the runtime's) that must not build it early."""
        return self._fast

    def fast_index(self) -> _FastIndex | Literal[False]:
        """The fast listing index, built now if it is not yet (:data:`FAST_INDEX_AFTER`:
        legal_moves builds it once it has listed that many hands); False when the
        universe is not tabulated."""
        if self._fast is not None:
            return self._fast
        self.ensure_table()
        if self._rows is None:
            self._fast = False
            return False
        idents, shapes = self._rows.idents()
        fast = self._fast = _FastIndex(self.rules, idents, shapes, self._moves)
        return fast

    def census(self, wild: WildLike = None) -> Census:
        """Count the move universe: every play from the full deck that fits the largest
        hand (with ``wild``: every (cards, reading) reachable with 0–4 wild cards)."""
        if wild is not None:
            w = self.wild_key(wild)
            per_combo, total, readings_n, by_wilds = self.wild_moves().census(w, self.rules.max_hand)
            return Census(per_combo, total, readings_n, by_wilds)
        self.ensure_table()
        if self._rows is not None:  # counted from the table's arrays: no Move needed
            rows = self._rows
            idents = dict.fromkeys(zip(rows.packs, rows.combos, rows.ranks, rows.lengths))
            total = len(set(rows.packs))
            n_readings = len(idents)
            per_index = Counter(c for _, c in {(p, c) for p, c, _, _ in idents})
            per = {self.combo_names[c]: n for c, n in per_index.items()}
        else:  # pragma: no cover - only for universes above TABLE_LIMIT
            found = self._collect(list(self.rules.deck), max_size=self.rules.max_hand)
            readings = [self._move(*i) for i in found]
            total = len({m.packed for m in readings})
            n_readings = len(readings)
            per = {combo: len(packs) for combo, packs in _group_packs(readings).items()}
        ordered = {name: per.get(name, 0) for name in self.combo_names}
        return Census(ordered, total, n_readings)

    # ------------------------------------------------------------------ wildcards
    def wild_rank_index(self, wild: int | str) -> int:
        """The rank index of a wild rank given as text (``"7"``) or as an index (7 is "T")."""
        if isinstance(wild, str):
            w = C.parse_rank(wild)
        elif isinstance(wild, bool) or not hasattr(type(wild), "__index__"):  # True is no rank; nor is 7.0
            raise C.CardError("", None, f"a wild rank is a rank such as '7' or its index 0-14, not {brief(wild)}")
        else:
            w = index(wild)  # also numpy integers, which str() would misread as a rank's name
        self.wild_moves().check_rank(w)
        return w

    def wild_key(self, wild: WildLike) -> WildKey:
        """The wild ranks of a query: the index of one (``"7"``, ``7``) or the ascending
        indices of several (``"7,9"``, ``("7", "9")``, 天地癞子), each checked to be a rank
        a wild card of this variant may be.

        >>> v = load_variant("tiandi-laizi")
        >>> v.wild_key("7"), v.wild_key("9,7"), v.wild_key(["7", 6])  # 6: the index of rank 9
        (4, (4, 6), (4, 6))
        """
        if isinstance(wild, str) and "," in wild:
            parts: list[int | str] = [p.strip() for p in wild.split(",")]
            if "" in parts:
                raise DdzError(f"an empty wild rank in {wild[:40]!r}: give several ranks as 7,9")
        elif isinstance(wild, (tuple, list)):
            parts = list(wild)
            if len(parts) > C.NUM_RANKS:
                raise DdzError(f"{len(parts)} wild ranks: {self.name} has {C.NUM_RANKS} ranks")
        else:
            return self.wild_rank_index(wild)  # type: ignore[arg-type]
        if not parts:
            raise DdzError("no wild rank given (an empty list): give one rank such as 7, or several as 7,9")
        ranks = [self.wild_rank_index(p) for p in parts]
        twice = [r for r in set(ranks) if ranks.count(r) > 1]
        if twice:
            raise DdzError(f"wild rank {C.RANKS[twice[0]]} is given twice")
        most = max(self.rules.wild_count, 1)
        if len(ranks) > most:
            # the walk bounds and the tables are sized for the spec's count; a deal has no more
            raise DdzError(f"{len(ranks)} wild ranks given: {self.name} makes at most {most} "
                           f"wild at once (wildcards.ranks)")
        return ranks[0] if len(ranks) == 1 else tuple(sorted(ranks))

    def _own(self, m: Move, wild: WildLike = None) -> Move:
        """``m`` when it is a reading of this variant (equal to one: a copy or an unpickled
        Move counts), else its cards re-read here, the strongest reading; DdzError when they
        are no play here. A Move of another variant has that variant's combo names and
        bomb tiers, so comparing it by its own fields would answer wrongly."""
        if id(m) in self._interned_ids:  # the common case: a Move this variant made
            return m
        w = None if wild is None else self.wild_key(wild)
        try:
            combo = self.combo_index.get(m.combo)
            mine = None
            if combo is not None:  # else no combo of this variant: read by its cards below
                ident = (m.packed, combo, m.rank, m.length)
                mine = self._intern.get(ident)
                if mine is None and w is not None:
                    mine = self.wild_moves().interned(w, ident)
        except TypeError:  # unhashable fields: a Move built by hand, read by its cards below
            mine = None
        if mine is not None and mine == m:
            return m
        readings = self.classify(m, w)
        if m in readings:
            return m
        if not readings:
            raise DdzError(f"{_show(m)} is not a combo of {self.name}")
        return readings[-1]

    def wild_moves(self) -> WildMoves:
        if self._wild_moves is None:
            from ddzrules.rules.wild import WildMoves

            self._wild_moves = WildMoves(self.rules)
        return self._wild_moves

    def universe(self) -> list[str]:
        """Every distinct play of the universe as a canonical string, sorted."""
        self.ensure_table()
        if self._rows is None:  # pragma: no cover
            raise DdzError(f"{self.name}: the universe is too large to list")
        return sorted(C.to_strings(dict.fromkeys(self._rows.packs)))


class _FastIndex:
    """The universe's readings in legal-move order, and the plan that lists a hand's.

    ``moves[i]`` is the i-th reading in the order legal_moves returns plays, so a
    sorted list of positions is a sorted list of moves.
    """

    def __init__(self, rules: Rules, idents: list[tuple[int, int, int, int]], shapes: list[int],
                 moves: Callable[[list[tuple[int, int, int, int]]], list[Move]]) -> None:
        made = moves(idents)
        # legal-move order (tier, size, rank, combo, packed, length) by columns: no key function per reading
        order = sorted(range(len(made)), key=list(zip(
            map(_tier, made), map(_size, made), map(_rank, made), map(_combo, made),
            map(_packed, made), map(_length, made))).__getitem__)
        self.moves: tuple[Move, ...] = tuple(map(made.__getitem__, order))
        # the deck check on a hand's counts (a byte a rank, each below 128): adding
        # ``over`` sets a byte's high bit exactly when its rank has more than the deck
        self.over: int = sum((127 - c) << (8 * r) for r, c in enumerate(rules.deck))
        self.high = sum(128 << (8 * r) for r in range(C.NUM_RANKS))
        #: a card's weight by its rank (legal_moves sums them into a hand's counts): one
        #: in its rank's byte; ranks 15-255 weigh a bit above the 15 bytes, which ``check``
        #: (the high bits and everything above the bytes) catches with the deck's excess
        weights = [1 << (8 * r) for r in range(C.NUM_RANKS)] + [1 << (8 * C.NUM_RANKS + 8)] * (256 - C.NUM_RANKS)
        self.weight: Callable[[int], int] = weights.__getitem__
        self.check: int = self.high | -(1 << (8 * C.NUM_RANKS))
        #: the most cards of each rank a hand may hold, a byte a rank (the C kernel's check)
        self.limits: bytes = bytes(rules.deck)
        self.max_hand: int = rules.max_hand
        #: hands of up to this many cards take the quick path (counts fit 7 bits; no play
        #: larger than the table's)
        self.fits: int = min(127, rules.max_hand)
        #: card string of a play of the universe -> (its reading, the plan's recipe to answer it)
        self.answers: dict[str, tuple[Move, Any]] = {}
        #: the recipes of ``answers`` that are not None (legal_moves' quick path)
        self.recipes: dict[str, Callable[[bytes], list[int]]] = {}
        from ddzrules.rules.lister import MovePlan

        self.plan: MovePlan = MovePlan(rules, zip(range(len(order)), map(idents.__getitem__, order),
                                                  map(shapes.__getitem__, order)))
        self.lead: Callable[[bytes], list[int]] = self.plan.lead


_make_tuple = tuple.__new__


def _group_packs(moves: list[Move]) -> dict[str, set[int]]:
    out: dict[str, set[int]] = {}
    for m in moves:
        out.setdefault(m.combo, set()).add(m.packed)
    return out


def _reading_order(m: Move) -> tuple[int, int, str, int]:
    return (m.tier, m.rank, m.combo, m.length)


def _move_order(m: Move) -> tuple[int, int, int, str, int]:
    return (m.tier, m.size, m.rank, m.combo, m.packed)


_tier, _size, _rank, _combo, _packed, _length = (
    attrgetter(name) for name in ("tier", "size", "rank", "combo", "packed", "length"))


def _untyped(cards: object) -> C.CardError:
    """The error for cards given in no form a public door takes: a bare sequence of numbers
    (the counts of 3456789 are also seven 4s and eight 3s, and a long list of rank indices
    looks like nothing else only until a caller passes counts) is told how to pass each
    reading, ``Counts`` or ``Ranks``; anything else, what the doors take."""
    if isinstance(cards, (list, tuple, range)) and all(isinstance(c, int) for c in cards):
        return C.CardError("", None, f"{C.AMBIGUOUS_CARDS}; not {brief(cards, 60)}")
    return C.CardError("", None, "cards are a card string ('3456789'), a Move, ddzrules.Counts(...) "
                                 f"or ddzrules.Ranks(...), not {brief(cards, 60)}")


def _show(cards: CardsLike) -> str:
    if isinstance(cards, str):
        return brief(cards, 80)
    if isinstance(cards, Move):
        return brief(cards.cards, 80)
    if isinstance(cards, C.Counts):
        return repr(C.counts_to_string(cards))
    return repr(C.counts_to_string(C.counts_of(cards)))


#: with the disk cache off, the universe tables this process has built (None: not
#: tabulated), by what they are made of: the playground validates each keystroke of a
#: draft with the cache off, and a draft whose combos did not change reads its table here
#: instead of enumerating it again (memory leaves nothing behind). Never modified.
#: how many of them are kept (least recently used out); a table is a few MB
TABLES_KEPT = 8
_TABLES: LastUsed[tuple[Any, ...], UniverseRows | None] = LastUsed(TABLES_KEPT)


def _table_key(rules: Rules) -> tuple[Any, ...]:
    """What a universe table depends on, compared by value (the compiled shapes and combos
    are frozen dataclasses), and the limits it was built under: equal keys, equal tables."""
    return (tuple(rules.deck), rules.max_hand, tuple(rules.combos), tuple(rules.shapes), rules.stand_for,
            TABLE_LIMIT, max_enumeration())


class _TooBig(Exception):
    """A universe above TABLE_LIMIT: the walk that tabulates it stops."""


def load_variant(name_or_path: str | Path) -> Variant:
    """Load, validate and compile a spec by bundled name or path."""
    spec = load_spec(name_or_path)
    rules = compile_spec(spec)
    mark_checked(spec)  # only now: a spec that does not compile is never marked valid
    return Variant(spec, rules)
