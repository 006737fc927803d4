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

import json
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from operator import gt, index, itemgetter
from pathlib import Path
from typing import Any

from . import cache
from . import cards as C
from .cache import CacheWarning, cache_dir
from .compiler import Rules, Shape, compile_spec
from .errors import DdzError, brief
from .lister import MovePlan
from .moves import LegalMoves, Move
from .spec import Spec, load_spec
from .wild import WildMoves

#: bump when the cached table format or the enumeration changes
TABLE_FORMAT = 3
__all__ = ["TABLE_FORMAT", "TABLE_LIMIT", "CacheWarning", "Census", "Variant", "cache_dir", "load_variant"]

#: universes larger than this are not tabulated; classification falls back to decomposition
TABLE_LIMIT = 3_000_000

CardsLike = str | Move | Iterable[int]
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
        self._table: dict[int, tuple[Move, ...]] | None = None
        self._by_string: dict[str, tuple[Move, ...]] = {}
        self._tabulated: bool | None = None
        self._shapes_by_combo: dict[int, list[Shape]] = {}
        for s in rules.shapes:
            self._shapes_by_combo.setdefault(s.combo, []).append(s)
        self._bomb_shapes = [s for s in rules.shapes if rules.combos[s.combo].tier >= 0]
        self._combo_index = {name: i for i, name in enumerate(self.combo_names)}
        #: the fast listing index (see _prepare_fast); None until first needed, False when
        #: the universe is not tabulated
        self._fast: _FastIndex | None | bool = None
        self._wild_moves: WildMoves | None = None

    # ------------------------------------------------------------------ moves
    def _move(self, packed: int, combo: int, rank: int, length: int) -> Move:
        ident = (packed, combo, rank, length)
        m = self._intern.get(ident)
        if m is None:
            info = self.rules.combos[combo]
            size = C.size_of(packed)
            m = Move(C.to_string(packed), info.name, rank, length, size, info.tier,
                     info.key(size, rank, length), packed)
            self._intern[ident] = m
            self._interned_ids.add(id(m))
        return m

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
        return C.check_counts(C.counts_of(cards))

    def _check_deck(self, counts: list[int], what: str) -> None:
        if len(counts) == len(self.rules.deck) and not any(map(gt, counts, self.rules.deck)):
            return
        for r, c in enumerate(counts):
            if c > self.rules.deck[r]:
                raise DdzError(f"{what} has {c} × {C.RANKS[r]} but {self.name} has only "
                               f"{self.rules.deck[r]} in its deck")

    # ------------------------------------------------------------------ table
    def _ensure_table(self) -> None:
        if self._tabulated is not None:
            return
        cached = _load_cached(self.rules)
        if cached is None:
            cached = self._universe_idents()
            if cached is not None:
                _store_cached(self.rules, *cached)
        if cached is None:
            self._tabulated = False
            return
        idents, self._ident_shapes = cached
        self._idents = idents
        table: dict[int, list[Move]] = {}
        for ident in idents:
            table.setdefault(ident[0], []).append(self._move(*ident))
        self._table = {k: tuple(sorted(v, key=_reading_order)) for k, v in table.items()}
        self._by_string = {C.to_string(k): v for k, v in self._table.items()}
        self._tabulated = True

    def _universe_idents(self) -> tuple[list[tuple[int, int, int, int]], list[int]] | None:
        """Every reading of the universe, and for each the (first) shape that produces it."""
        found: dict[tuple[int, int, int, int], int] = {}
        shape = 0

        class _TooBig(Exception):
            pass

        def emit(packed: int, combo: int, rank: int, length: int) -> None:
            key = (packed, combo, rank, length)
            if key not in found:
                found[key] = shape
                if len(found) > TABLE_LIMIT:
                    raise _TooBig

        deck = list(self.rules.deck)
        try:
            for shape, s in enumerate(self.rules.shapes):
                self.rules.enumerate(deck, emit, shapes=[s], max_size=self.rules.max_hand)
        except _TooBig:
            return None
        return list(found), list(found.values())

    # ------------------------------------------------------------------ API
    def classify(self, cards: CardsLike, wild: int | str | None = None) -> tuple[Move, ...]:
        """Every reading of a set of cards (empty when it is no combo). With ``wild``
        (a wildcard variant's wild rank, e.g. ``"7"``) readings may use the wild cards
        as other ranks; each such Move carries its ``substitution``.

        >>> [(m.combo, m.rank_name) for m in load_variant("compat/douzero").classify("333444555666")]
        [('plane_solos', '5'), ('plane', '6'), ('plane_solos', '6')]
        """
        if wild is not None:
            w = self._wild_rank(wild)
            counts = self._counts(cards)
            if counts[w]:
                if sum(counts) > self.rules.max_hand or any(map(gt, counts, self.rules.deck)):
                    return ()  # no play of the universe, as the natural table says (and not a long walk)
                return self._wilds().classify(counts, w)
        try:  # the common case: a canonical card string of the universe
            return self._by_string[cards]  # type: ignore[index]
        except (KeyError, TypeError):  # not in the table (yet), or unhashable (a list of ranks)
            pass
        if self._tabulated is None:
            self._ensure_table()
            if isinstance(cards, str):
                hit = self._by_string.get(cards)
                if hit is not None:
                    return hit
        counts = self._counts(cards)
        if self._table is not None:
            return self._table.get(C.pack(counts), ())
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
        self._ensure_table()
        if self._table is None:  # pragma: no cover - universes too large to tabulate
            return lambda cards: self.classify(cards) or None
        return self._by_string.get

    def reading(self, cards: CardsLike, wild: int | str | None = None) -> Move:
        """The reading of a play for the runtime: the single one, or the strongest
        when several; raises when the cards are no combo."""
        if isinstance(cards, Move):
            return self._own(cards, wild)
        readings = self.classify(cards, wild)
        if not readings:
            raise DdzError(f"{_show(cards)} is not a combo of {self.name}")
        return readings[-1]

    def beats(self, a: CardsLike, b: CardsLike, wild: int | str | None = None) -> bool:
        """True when ``a`` may be played on ``b``. Moves compare exactly by their
        reading; card strings by any of their readings."""
        ra = (self._own(a, wild),) if isinstance(a, Move) else self.classify(a, wild)
        rb = (self._own(b, wild),) if isinstance(b, Move) else self.classify(b, wild)
        if not ra:
            raise DdzError(f"{_show(a)} is not a combo of {self.name}")
        if not rb:
            raise DdzError(f"{_show(b)} is not a combo of {self.name}")
        return any(x.beats(y) for x in ra for y in rb)

    def legal_moves(self, hand: CardsLike, after: CardsLike | None = None,
                    wild: int | str | None = None) -> LegalMoves:
        """Every distinct legal play of ``hand`` (each reading once); on a lead
        (``after`` None) passing is not allowed. With ``wild`` the hand's cards of that
        rank are wild (癞子): every distinct (cards, reading) is listed once.

        >>> v = load_variant("hubei-3p")
        >>> [m.cards for m in v.legal_moves("3456789", after="34567")]
        ['45678', '56789']
        """
        owned = False  # True when ``after`` is known to be a reading of this variant
        if wild is not None:
            w = self._wild_rank(wild)
            counts = self._counts(hand)
            self._check_deck(counts, "the hand")
            prev = None if after is None else self.reading(after, w)
            if counts[w]:
                return self._wilds().legal_moves(counts, prev, w)
            # no wild card in hand: the natural listing (of a play perhaps read with wild cards)
            hand, after, owned = C.deck_list(counts), prev, True
        fast = self._fast
        if fast is None:
            fast = self._prepare_fast()
        raw = None
        if (type(hand) is list or type(hand) is tuple) and fast is not False \
                and len(hand) <= fast.fits:  # type: ignore[union-attr,arg-type]
            # the runtime's form, a list of rank indices: count it here, check it fits the deck
            counts = [0] * 15  # C.NUM_RANKS
            try:
                for r in hand:  # type: ignore[union-attr]
                    if r < 0:  # -1 would count as the big joker
                        raise IndexError
                    counts[r] += 1
            except (IndexError, TypeError):
                pass  # the general path below raises the usual error
            else:
                raw = bytes(counts)
                if (int.from_bytes(raw, "little") + fast.over) & fast.high:  # type: ignore[union-attr]
                    raw = None  # more of a rank than the deck holds
        if raw is None:  # the general path: any form of cards; raises on bad ones
            counts = self._counts(hand)
            self._check_deck(counts, "the hand")
            if fast is False or sum(counts) > fast.max_hand:  # type: ignore[union-attr]
                # plays larger than the table's
                prev = None if after is None else after if owned else self.reading(after)
                return self._legal_moves_enumerated(counts, prev)
            raw = bytes(counts)
        if after is None:
            order = fast.plan.lead(raw)  # type: ignore[union-attr]
            can_pass = False
        else:
            # the play to beat, and the plan's function answering it (memoised by string)
            known = fast.answers.get(after) if type(after) is str else None  # type: ignore[union-attr]
            if known is None:
                if type(after) is str:
                    readings = self._by_string.get(after)
                    prev = readings[-1] if readings else self.reading(after)
                else:
                    # a Move this variant made as it is; anything else read (re-read: a Move of another variant)
                    prev = after if owned or id(after) in self._interned_ids else self.reading(after)
                recipe = None
                if prev.tier < 0:
                    combo = self._combo_index[prev.combo]  # prev is a reading of this variant
                    recipe = fast.plan.answerer(combo, prev.size, prev.length, prev.rank)  # type: ignore[union-attr]
                known = (prev, recipe)
                if type(after) is str and readings:
                    fast.answers[after] = known  # type: ignore[union-attr]
            prev, recipe = known
            if recipe is not None:
                order = recipe(raw)
            else:
                moves = fast.moves  # type: ignore[union-attr]
                order = [i for i in fast.plan.bomb_plays(raw)  # type: ignore[union-attr]
                         if i >= 0 and moves[i].beats(prev)]
            can_pass = True
        order.sort()
        if order and order[0] < 0:  # placeholders for "no reading" sort first
            del order[:bisect_left(order, 0)]
        moves = fast.moves  # type: ignore[union-attr]
        result = _new(LegalMoves)  # LegalMoves(...) without the frozen dataclass's slow __init__
        d = result.__dict__
        d["moves"] = itemgetter(*order)(moves) if len(order) > 1 else (moves[order[0]],) if order else ()
        d["can_pass"] = can_pass
        return result

    def _legal_moves_enumerated(self, counts: list[int], prev: Move | None) -> LegalMoves:
        """legal_moves by plain enumeration (hands larger than the table's plays, or
        variants whose universe is not tabulated); ``prev`` is a reading of this variant."""
        if prev is None:
            found = self._collect(counts, max_size=sum(counts))
            moves = [self._move(*i) for i in found]
            return LegalMoves(tuple(sorted(moves, key=_move_order)), can_pass=False)
        out: list[Move] = []
        if prev.tier < 0:
            shapes = self._shapes_by_combo.get(self._combo_index[prev.combo], [])
            found = self._collect(counts, shapes=shapes, exact_size=prev.size, min_rank=prev.rank,
                                  length=prev.length)
            out.extend(m for m in (self._move(*i) for i in found) if m.beats(prev))
        found = self._collect(counts, shapes=self._bomb_shapes, max_size=sum(counts))
        out.extend(m for m in (self._move(*i) for i in found) if m.beats(prev))
        return LegalMoves(tuple(sorted(out, key=_move_order)), can_pass=True)

    def _prepare_fast(self) -> _FastIndex | bool:
        self._ensure_table()
        if not self._tabulated or self._table is None:
            self._fast = False
            return False
        fast = self._fast = _FastIndex(self.rules, self._idents, self._ident_shapes, self._move)
        return fast

    def census(self, wild: int | str | None = None) -> Census:
        """Count the move universe: every play from the full deck that fits the largest
        hand (with ``wild``: every (cards, reading) reachable with 0–4 wild cards)."""
        if wild is not None:
            w = self._wild_rank(wild)
            per_combo, total, readings_n, by_wilds = self._wilds().census(w, self.rules.max_hand)
            return Census(per_combo, total, readings_n, by_wilds)
        self._ensure_table()
        if self._table is not None:
            readings = [m for ms in self._table.values() for m in ms]
            total = len(self._table)
        else:  # pragma: no cover - only for universes above TABLE_LIMIT
            idents = self._collect(list(self.rules.deck), max_size=self.rules.max_hand)
            readings = [self._move(*i) for i in idents]
            total = len({m.packed for m in readings})
        per: Counter[str] = Counter()
        for combo, packs in _group_packs(readings).items():
            per[combo] = len(packs)
        ordered = {name: per.get(name, 0) for name in self.combo_names}
        return Census(ordered, total, len(readings))

    # ------------------------------------------------------------------ wildcards
    def _wild_rank(self, wild: int | str) -> int:
        """The rank index of a wild rank given as text (``"7"``) or as an index (7 is "T")."""
        if isinstance(wild, str):
            w = C.parse_rank(wild)
        elif isinstance(wild, bool) or not hasattr(type(wild), "__index__"):  # True is no rank; nor is 7.0
            raise C.CardError("", None, f"a wild rank is a rank such as '7' or its index 0-14, not {brief(wild)}")
        else:
            w = index(wild)  # also numpy integers, which str() would misread as a rank's name
        self._wilds().check_rank(w)
        return w

    def _own(self, m: Move, wild: int | str | None = None) -> Move:
        """``m`` when it is a reading of this variant (equal to one: a copy or an unpickled
        Move counts), else its cards re-read here, the strongest reading; DdzError when they
        are no play here. A Move of another variant has that variant's combo names and
        bomb tiers, so comparing it by its own fields would answer wrongly."""
        if id(m) in self._interned_ids:  # the common case: a Move this variant made
            return m
        w = None if wild is None else self._wild_rank(wild)
        try:
            ident = (m.packed, self._combo_index.get(m.combo), m.rank, m.length)
            mine = self._intern.get(ident)
            if mine is None and w is not None:
                mine = self._wilds().interned(w, ident)
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

    def _wilds(self) -> WildMoves:
        if self._wild_moves is None:
            self._wild_moves = WildMoves(self.rules)
        return self._wild_moves

    def universe(self) -> list[str]:
        """Every distinct play of the universe as a canonical string, sorted."""
        self._ensure_table()
        if self._table is None:  # pragma: no cover
            raise DdzError(f"{self.name}: the universe is too large to list")
        return sorted(self._by_string)


class _FastIndex:
    """The universe's readings in legal-move order, and the plan that lists a hand's.

    ``moves[i]`` is the i-th reading in the order legal_moves returns plays, so a
    sorted list of positions is a sorted list of moves.
    """

    def __init__(self, rules: Rules, idents: list[tuple[int, int, int, int]], shapes: list[int],
                 move: Callable[..., Move]) -> None:
        readings = sorted(((move(*i), i, s) for i, s in zip(idents, shapes)), key=lambda x: _fast_order(x[0]))
        self.moves = tuple(m for m, _, _ in readings)
        # the deck check on a hand's counts (a byte a rank, each below 128): adding
        # ``over`` sets a byte's high bit exactly when its rank has more than the deck
        self.over = sum((127 - c) << (8 * r) for r, c in enumerate(rules.deck))
        self.high = sum(128 << (8 * r) for r in range(C.NUM_RANKS))
        self.max_hand = rules.max_hand
        #: hands of up to this many cards take the quick path (counts fit 7 bits; no play
        #: larger than the table's)
        self.fits = min(127, rules.max_hand)
        #: card string of a play of the universe -> (its reading, the plan's recipe to answer it)
        self.answers: dict[str, tuple[Move, Any]] = {}
        self.plan = MovePlan(rules, ((pos, ident, shape) for pos, (_, ident, shape) in enumerate(readings)))


_new = object.__new__


def _group_packs(moves: list[Move]) -> dict[str, set[int]]:
    out: dict[str, set[int]] = {}
    for m in moves:
        out.setdefault(m.combo, set()).add(m.packed)
    return out


def _reading_order(m: Move) -> tuple[int, int, str, int]:
    return (m.tier, m.rank, m.combo, m.length)


def _move_order(m: Move) -> tuple[int, int, int, str, int]:
    return (m.tier, m.size, m.rank, m.combo, m.packed)


def _fast_order(m: Move) -> tuple[int, int, int, str, int, int]:
    return (m.tier, m.size, m.rank, m.combo, m.packed, m.length)


def _show(cards: CardsLike) -> str:
    if isinstance(cards, str):
        return brief(cards, 80)
    if isinstance(cards, Move):
        return brief(cards.cards, 80)
    return repr(C.counts_to_string(C.counts_of(cards)))


# ------------------------------------------------------------------ disk cache


def _cache_name(rules: Rules) -> str:
    # the code hash: a changed compiler or format never reads a stale table
    code = cache.code_hash(TABLE_FORMAT, "compiler.py", "cards.py", "patterns.py", "pattern.lark")
    return f"{rules.content_hash[:32]}-{code}.json"


def _check_table(rules: Rules, idents: Any, shapes: Any) -> tuple[list[tuple[int, int, int, int]], list[int]]:
    """Types and ranges of a cached table, against the rules it claims to be for."""
    if not isinstance(idents, list) or not isinstance(shapes, list) or len(idents) != len(shapes):
        raise ValueError("malformed table")
    deck, combos, n_shapes, max_hand = rules.deck, len(rules.combos), len(rules.shapes), rules.max_hand
    out: list[tuple[int, int, int, int]] = []
    for ident in idents:
        if not isinstance(ident, list) or len(ident) != 4 or not all(type(x) is int for x in ident):
            raise ValueError("malformed entry")
        packed, combo, rank, length = ident
        if packed <= 0 or packed >> (C.BITS * C.NUM_RANKS) or not 0 <= combo < combos \
                or not 0 <= rank < C.NUM_RANKS or not 1 <= length <= C.NUM_RANKS:
            raise ValueError("entry out of range")
        counts = C.unpack(packed)
        if any(map(gt, counts, deck)) or sum(counts) > max_hand:
            raise ValueError("entry not a set of the deck's cards")
        out.append((packed, combo, rank, length))
    if not all(type(x) is int and 0 <= x < n_shapes for x in shapes):
        raise ValueError("shape index out of range")
    return out, shapes


def _load_cached(rules: Rules) -> tuple[list[tuple[int, int, int, int]], list[int]] | None:
    """The cached universe table, or None (see :mod:`ddzrules.cache`: served only when
    its keyed digest and its structure check). JSON, not pickle: a cache file is data
    and can never run code."""
    def parse(body: bytes) -> tuple[list[tuple[int, int, int, int]], list[int]]:
        payload = json.loads(body)
        if not isinstance(payload, dict) or payload.get("hash") != rules.content_hash:
            raise ValueError("it is the table of other rules")
        return _check_table(rules, payload.get("idents"), payload.get("shapes"))

    return cache.load(_cache_name(rules), parse, stacklevel=3)


def _store_cached(rules: Rules, idents: list[tuple[int, int, int, int]], shapes: list[int]) -> None:
    if not cache.enabled():
        return
    body = json.dumps({"hash": rules.content_hash, "idents": idents, "shapes": shapes},
                      separators=(",", ":")).encode("utf-8")
    cache.store(_cache_name(rules), body)


def load_variant(name_or_path: str | Path) -> Variant:
    """Load, validate and compile a spec by bundled name or path."""
    spec = load_spec(name_or_path)
    return Variant(spec, compile_spec(spec))
