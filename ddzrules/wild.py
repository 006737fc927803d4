"""Enumeration with wild cards (癞子).

In a wildcard game one rank is wild: each of its cards may stand for any rank a
spec allows (never a joker), and combines into every combo — with wild 7,
``44556+7`` plays as the pair chain ``445566``. Played alone, wild cards are
themselves: ``77`` is a pair of 7s and four wilds are the pure wild bomb.

This module walks the same compiled :class:`~ddzrules.compiler.Shape`\\ s as the
natural enumeration, with a pool of wild cards: wherever a shape needs ``c`` cards
of a rank, they may come from the naturals of that rank and from the pool, in
every split. Each play is reported with its *physical* cards (the wild cards under
their own rank) and the ranks the wild cards stand for, and the play-level
constraints ``wilds``/``naturals`` (soft, hard, pure bombs) are checked.
"""

from __future__ import annotations

from collections.abc import Callable

from . import cards as C
from .compiler import KickerRule, Rules, Shape
from .errors import DdzError
from .moves import LegalMoves, Move

#: emit(physical packed, combo, rank, length, ranks the wild cards stand for)
WildEmit = Callable[[int, int, int, int, tuple[int, ...]], None]
_SHIFT = [C.BITS * r for r in range(C.NUM_RANKS)]


class _Walk:
    """One enumeration: the hand's natural cards, its wild cards and where to report."""

    def __init__(self, rules: Rules, naturals: list[int], wilds: int, wild_rank: int, emit: WildEmit) -> None:
        self.nat = naturals
        self.wilds = wilds
        self.wild_rank = wild_rank
        self.emit = emit
        stand = set(rules.stand_for)
        self.stands = [r in stand for r in range(C.NUM_RANKS)]

    # ------------------------------------------------------------------ cores
    def groups(self, shape: Shape, cap: int, exact: int | None, min_rank: int) -> None:
        kick = shape.kicker_cards(1)
        for r in shape.ranks:
            if r <= min_rank:
                continue
            have = self.nat[r]
            pool = self.wilds if self.stands[r] else 0
            for count in range(shape.unit, shape.max_count + 1):
                size = count + kick
                if size > cap or (exact is not None and size != exact):
                    continue
                for w in range(max(0, count - have), min(count, pool) + 1):
                    self.finish(shape, [(r, count - w, w)], r, 1)

    def chains(self, shape: Shape, cap: int, exact: int | None, min_rank: int, only_length: int) -> None:
        unit = shape.unit
        ranks = shape.ranks
        lo, hi = ranks[0], ranks[-1]
        per_unit = unit + sum(k.unit * k.per_n for k in shape.kickers)
        fixed = sum(k.unit * k.fixed for k in shape.kickers)
        for start in range(lo, hi + 1):
            need = 0  # the fewest wild cards the chain start..top needs
            for top in range(start, hi + 1):
                short = max(0, unit - self.nat[top])
                if short and not self.stands[top]:
                    break
                need += short
                if need > self.wilds:
                    break
                length = top - start + 1
                if length > shape.max_len:
                    break
                size = per_unit * length + fixed
                if size > cap:
                    break
                if length < shape.min_len or top <= min_rank:
                    continue
                if (only_length and length != only_length) or (exact is not None and size != exact):
                    continue
                adjacent = tuple(r for r in (start - 1, top + 1) if lo <= r <= hi)
                self._split_chain(shape, list(range(start, top + 1)), 0, [], self.wilds, top, length, adjacent)

    def _split_chain(self, shape: Shape, ranks: list[int], i: int, core: list[tuple[int, int, int]],
                     pool: int, top: int, length: int, adjacent: tuple[int, ...]) -> None:
        if i == len(ranks):
            self.finish(shape, core, top, length, adjacent)
            return
        r = ranks[i]
        unit = shape.unit
        lo_w = max(0, unit - self.nat[r])
        hi_w = min(unit, pool) if self.stands[r] else 0
        # leave enough of the pool for the ranks still to come
        later = sum(max(0, unit - self.nat[x]) for x in ranks[i + 1:])
        for w in range(lo_w, min(hi_w, pool - later) + 1):
            core.append((r, unit - w, w))
            self._split_chain(shape, ranks, i + 1, core, pool - w, top, length, adjacent)
            core.pop()

    def literal(self, shape: Shape, cap: int, exact: int | None, min_rank: int) -> None:
        counts = C.unpack(shape.literal)
        size = sum(counts)
        if size > cap or (exact is not None and size != exact):
            return
        rank = max(r for r, c in enumerate(counts) if c)
        if rank <= min_rank:
            return
        core: list[tuple[int, int, int]] = []
        need = 0
        for r, c in enumerate(counts):
            if c:
                w = max(0, c - self.nat[r])
                if w and not self.stands[r]:
                    return
                need += w
                core.append((r, c - w, w))
        if need <= self.wilds:  # literal cards take naturals first (wilds only where short)
            self.finish(shape, core, rank, 1)

    # ------------------------------------------------------------------ kickers
    def finish(self, shape: Shape, core: list[tuple[int, int, int]], rank: int, length: int,
               adjacent: tuple[int, ...] = ()) -> None:
        """Core chosen as (rank, naturals, wilds) triples: add the kickers and report."""
        rem = list(self.nat)
        packed = 0
        wilds_used = 0
        subst: list[int] = []
        core_ranks = set()
        for r, n, w in core:
            rem[r] -= n
            packed += n << _SHIFT[r]
            wilds_used += w
            subst.extend([r] * w)
            core_ranks.add(r)
        naturals_used = C.size_of(packed)
        if not shape.kickers:
            self.report(shape, packed, naturals_used, wilds_used, subst, rank, length)
            return
        blocked = core_ranks if not shape.overlap else set()
        used = [0] * C.NUM_RANKS
        self.kick(shape, shape.kickers, 0, length, rem, used, blocked, 0, packed, naturals_used, wilds_used,
                  subst, rank, adjacent)

    def kick(self, shape: Shape, rules: tuple[KickerRule, ...], idx: int, length: int, rem: list[int],
             used: list[int], blocked: set[int], jokers: int, packed: int, naturals: int, wilds: int,
             subst: list[int], rank: int, adjacent: tuple[int, ...]) -> None:
        if idx == len(rules):
            self.report(shape, packed, naturals, wilds, subst, rank, length)
            return
        rule = rules[idx]
        cands = [r for r in rule.ranks if r not in blocked]
        self.fill(shape, rules, idx, length, rem, used, blocked, jokers, packed, naturals, wilds, subst, rank,
                  adjacent, cands, 0, rule.groups(length), rule.unit)

    def fill(self, shape: Shape, rules: tuple[KickerRule, ...], idx: int, length: int, rem: list[int],
             used: list[int], blocked: set[int], jokers: int, packed: int, naturals: int, wilds: int,
             subst: list[int], rank: int, adjacent: tuple[int, ...], cands: list[int], start: int, need: int,
             unit: int) -> None:
        if need == 0:
            self.kick(shape, rules, idx + 1, length, rem, used, blocked, jokers, packed, naturals, wilds, subst,
                      rank, adjacent)
            return
        pool = self.wilds - wilds
        for i in range(start, len(cands)):
            r = cands[i]
            if shape.distinct and used[r]:
                continue
            have = rem[r]
            spare = pool if self.stands[r] else 0
            most = (have + spare) // unit
            if shape.per_rank < 99:
                most = min(most, (shape.per_rank - used[r]) // unit)
            if shape.adjacent < 99 and r in adjacent:
                most = min(most, (shape.adjacent - used[r]) // unit)
            if shape.distinct:
                most = min(most, 1)
            is_joker = r >= C.SMALL_JOKER
            for times in range(1, min(most, need) + 1):
                cards = times * unit
                if is_joker and jokers + cards > shape.jokers:
                    break
                for w in range(max(0, cards - have), min(cards, spare) + 1):
                    n = cards - w
                    rem[r] -= n
                    used[r] += cards
                    subst.extend([r] * w)
                    self.fill(shape, rules, idx, length, rem, used, blocked, jokers + (cards if is_joker else 0),
                              packed + (n << _SHIFT[r]), naturals + n, wilds + w, subst, rank, adjacent, cands,
                              i + 1, need - times, unit)
                    del subst[len(subst) - w:]
                    used[r] -= cards
                    rem[r] += n

    # ------------------------------------------------------------------ report
    def report(self, shape: Shape, packed: int, naturals: int, wilds: int, subst: list[int], rank: int,
               length: int) -> None:
        if not shape.wild_ok(wilds, naturals):
            return
        if naturals == 0 and any(r != self.wild_rank for r in subst):
            return  # played alone, wild cards are themselves
        self.emit(packed + (wilds << _SHIFT[self.wild_rank]), shape.combo, rank, length, tuple(sorted(subst)))


def enumerate_wild(rules: Rules, naturals: list[int], wilds: int, wild_rank: int, emit: WildEmit,
                   shapes: list[Shape] | None = None, max_size: int | None = None,
                   exact_size: int | None = None, min_rank: int = -1, length: int = 0) -> None:
    """Report every play of ``naturals`` (no card of the wild rank) plus up to ``wilds``
    wild cards, as :meth:`Rules.enumerate` does for natural cards."""
    walk = _Walk(rules, naturals, wilds, wild_rank, emit)
    cap = exact_size if exact_size is not None else (max_size if max_size is not None else 1 << 30)
    for shape in shapes if shapes is not None else rules.shapes:
        if shape.kind == "chain":
            walk.chains(shape, cap, exact_size, min_rank, length)
        elif length and length != 1:
            continue
        elif shape.kind == "group":
            walk.groups(shape, cap, exact_size, min_rank)
        else:
            walk.literal(shape, cap, exact_size, min_rank)


# ====================================================================== variant-level API


class WildMoves:
    """Readings with wild cards for one variant: interned Move objects and the three
    queries (classify, legal moves, census) the :class:`~ddzrules.variant.Variant`
    delegates to when a wild rank is given."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self._intern: dict[tuple[int, int, int, int, int], Move] = {}
        self._shapes_by_combo: dict[int, list[Shape]] = {}
        for s in rules.shapes:
            self._shapes_by_combo.setdefault(s.combo, []).append(s)
        self._bomb_shapes = [s for s in rules.shapes if rules.combos[s.combo].tier >= 0]
        self._combo_index = {c.name: i for i, c in enumerate(rules.combos)}

    def check_rank(self, wild: int) -> None:
        if not self.rules.stand_for:
            raise DdzError(f"{self.rules.name} has no wildcards (癞子)")
        if wild not in self.rules.stand_for:
            raise DdzError(f"{C.RANKS[wild]} cannot be the wild rank of {self.rules.name}")

    def move(self, packed: int, combo: int, rank: int, length: int, subst: tuple[int, ...], wild: int) -> Move:
        ident = (packed, combo, rank, length, wild)
        m = self._intern.get(ident)
        if m is None:
            info = self.rules.combos[combo]
            size = C.size_of(packed)
            if info.tier >= 0:
                fields = {"size": size, "rank": rank, "length": length}
                key: tuple[int, ...] = (info.tier, *(fields[f] for f in info.compare))
            else:
                key = (rank,)
            letter = C.RANKS[wild]
            m = Move(C.to_string(packed), info.name, rank, length, size, info.tier, key, packed,
                     tuple((letter, C.RANKS[r]) for r in subst))
            self._intern[ident] = m
        return m

    def _collect(self, counts: list[int], wild: int, **kw: object) -> list[Move]:
        naturals = list(counts)
        wilds = naturals[wild]
        naturals[wild] = 0
        found: dict[tuple[int, int, int, int], tuple[int, ...]] = {}

        def emit(packed: int, combo: int, rank: int, length: int, subst: tuple[int, ...]) -> None:
            found.setdefault((packed, combo, rank, length), subst)

        enumerate_wild(self.rules, naturals, wilds, wild, emit, **kw)  # type: ignore[arg-type]
        return [self.move(*ident, subst, wild) for ident, subst in found.items()]

    def classify(self, counts: list[int], wild: int) -> tuple[Move, ...]:
        moves = self._collect(counts, wild, exact_size=sum(counts))
        return tuple(sorted(moves, key=lambda m: (m.tier, m.rank, m.combo, m.length)))

    def legal_moves(self, counts: list[int], after: Move | None, wild: int) -> LegalMoves:
        if after is None:
            moves = self._collect(counts, wild, max_size=sum(counts))
            return LegalMoves(tuple(sorted(moves, key=_order)), can_pass=False)
        out: list[Move] = []
        if after.tier < 0 and after.combo in self._combo_index:
            shapes = self._shapes_by_combo.get(self._combo_index[after.combo], [])
            out.extend(m for m in self._collect(counts, wild, shapes=shapes, exact_size=after.size,
                                                min_rank=after.rank, length=after.length) if m.beats(after))
        out.extend(m for m in self._collect(counts, wild, shapes=self._bomb_shapes, max_size=sum(counts))
                   if m.beats(after))
        return LegalMoves(tuple(sorted(out, key=_order)), can_pass=True)

    def census(self, wild: int, max_size: int) -> tuple[dict[str, int], int, int, dict[int, int]]:
        """Distinct plays of the full deck per combo, distinct card sets, readings, and
        readings by the number of wild cards they hold."""
        moves = self._collect(list(self.rules.deck), wild, max_size=max_size)
        per: dict[str, set[int]] = {}
        by_wilds: dict[int, int] = {}
        shift = C.BITS * wild
        for m in moves:
            per.setdefault(m.combo, set()).add(m.packed)
            w = (m.packed >> shift) & C.MASK
            by_wilds[w] = by_wilds.get(w, 0) + 1
        total = len({m.packed for m in moves})
        return ({c.name: len(per.get(c.name, ())) for c in self.rules.combos}, total, len(moves),
                dict(sorted(by_wilds.items())))


def _order(m: Move) -> tuple[int, int, int, str, int]:
    return (m.tier, m.size, m.rank, m.combo, m.packed)
