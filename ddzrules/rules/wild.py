"""Enumeration with wild cards (癞子).

In a wildcard game one rank is wild: each of its cards may stand for any rank a
spec allows (never a joker), and combines into every combo — with wild 7,
``44556+7`` plays as the pair chain ``445566``. Played alone, wild cards are
themselves: ``77`` is a pair of 7s and four wilds are the pure wild bomb.

This module walks the same compiled :class:`~ddzrules.rules.compiler.Shape`\\ s as the
natural enumeration, with a pool of wild cards: wherever a shape needs ``c`` cards
of a rank, they may come from the naturals of that rank and from the pool, in
every split. Each play is reported with its *physical* cards (the wild cards under
their own rank) and the ranks the wild cards stand for, and the play-level
constraints ``wilds``/``naturals`` (soft, hard, pure bombs) are checked.
"""

from __future__ import annotations

import itertools
from bisect import bisect_left
from collections.abc import Callable, Iterator, Sequence
from itertools import compress, repeat
from operator import (
    add,
    and_,
    attrgetter,
    eq,
    index,
    is_,
    itemgetter,
    lshift,
    mul,
    ne,
    not_,
    or_,
    rshift,
)
from typing import Any, overload

from ddzrules.speed import cache
from ddzrules import cards as C
from ddzrules.rules.compiler import Rules, Shape
from ddzrules.errors import DdzError, brief
from ddzrules.rules.moves import LegalMoves, Move, make_moves
from ddzrules.rules.wild_table import FORMAT as TABLE_FORMAT
from ddzrules.rules.wild_table import WildTable, census_counts

#: emit(physical packed, combo, rank, length, ranks the wild cards stand for)
WildEmit = Callable[[int, int, int, int, tuple[int, ...]], None]
#: (physical packed, combo, rank, length) -> the ranks its wild cards stand for (the first found)
Found = dict[tuple[int, int, int, int], tuple[int, ...]]
#: a core split between naturals and wilds: (packed naturals, naturals, wilds, the ranks the wilds stand for)
Core = tuple[int, int, int, tuple[int, ...]]
#: a kicker choice: (packed naturals + wilds under the wild rank, naturals, wilds, the ranks the wilds
#: stand for, whether all of them stand for the wild rank)
Kick = tuple[int, int, int, tuple[int, ...], bool]
#: a kicker choice while listing: (next rank position, groups left, jokers, packed naturals, naturals,
#: wilds, the ranks the wilds stand for)
_Choice = tuple[int, int, int, int, int, int, tuple[int, ...]]
#: one way a rank gives kicker groups: (groups, wilds, packed naturals, naturals, jokers, the ranks the
#: wilds stand for)
_Way = tuple[int, int, int, int, int, tuple[int, ...]]
_SHIFT = [C.BITS * r for r in range(C.NUM_RANKS)]
#: several wild ranks (天地癞子) have no table of their own: the Moves their queries make
#: are kept for the sets of wild ranks used last, at most this many in all (about 0.9 KB a
#: Move with its action and entries; a search over tiandi-laizi meets a million a deal)
_SEVERAL_INTERN_LIMIT = 1 << 18
#: listings of several wild ranks kept (their Moves outlive the intern bound while kept:
#: 1024 listings held about 90 MB less than 4096 over a tiandi-laizi search deal, as fast)
_SEVERAL_LISTED_LIMIT = 1024
#: leads of several wild ranks kept as keys (WildMoves.lead_plays; a walked one holds
#: thousands of entries: over a tiandi-laizi search deal 256 held 237 MB at peak, 1024
#: 412 MB, for 3% less time)
_SEVERAL_LEADS_LIMIT = 256
#: the wild ranks of a query: one rank index (癞子), or several, ascending (天地癞子)
Wild = C.WildKey


def _splits(have: tuple[int, ...], n: int) -> list[tuple[int, ...]]:
    """Every way of taking ``n`` wild cards from the wild ranks' cards held (``have`` per
    rank), as the number taken of each.

    >>> _splits((2, 1), 2)
    [(1, 1), (2, 0)]
    """
    if len(have) == 1:
        return [(n,)] if n <= have[0] else []
    return [(k, *rest) for k in range(min(n, have[0]) + 1) for rest in _splits(have[1:], n - k)]


def _place(wild: tuple[int, ...], taken: tuple[int, ...], subst: tuple[int, ...]) -> tuple[int, ...]:
    """Which wild card stands for which rank, as flat (physical, stands for) pairs sorted by
    what they stand for: a wild card of a rank stands for its own rank first (so a 9 of
    wild 7 and 9 read as a 9 is shown as itself), the others in rank order."""
    left = dict(zip(wild, taken))
    pairs: list[tuple[int, int]] = []
    rest: list[int] = []
    for r in subst:
        if left.get(r):
            left[r] -= 1
            pairs.append((r, r))
        else:
            rest.append(r)
    pairs += zip((w for w in wild for _ in range(left[w])), rest)
    pairs.sort(key=lambda p: (p[1], p[0]))
    return tuple(x for p in pairs for x in p)


def _pairs_of(flat: tuple[int, ...]) -> list[tuple[int, int]]:
    return list(zip(flat[::2], flat[1::2]))


class _EmitAll(dict):  # type: ignore[type-arg]
    """Stands in for the walk's dictionary of plays found and passes every play it is
    given (duplicates included, in order) to a callback: :func:`enumerate_wild`'s contract."""

    def __init__(self, emit: WildEmit) -> None:
        super().__init__()
        self.emit = emit

    def __contains__(self, key: object) -> bool:
        return False

    def __setitem__(self, key: tuple[int, int, int, int], subst: tuple[int, ...]) -> None:
        self.emit(key[0], key[1], key[2], key[3], subst)


class _Walk:
    """One enumeration: the hand's natural cards, its wild cards and where to report.

    Plays are reported in the order of a depth-first walk: per shape, per core (each
    split of its cards between naturals and wilds, fewer wilds first), per kicker
    choice; ``found`` keeps the first substitution of each play. The walk is done
    breadth-first where that is cheaper, in the same order. A core's kicker choices
    depend only on the ranks it blocks (or, when kickers may share the core's ranks,
    on the naturals it leaves) and on the pool of wilds left, so they are listed once
    per core ranks, with the largest pool, and filtered for each smaller pool: a
    smaller pool only prunes branches of the same walk, so the order stays.
    """

    def __init__(self, rules: Rules, naturals: list[int], wilds: int, wild_rank: int, found: Found,
                 wild_ranks: tuple[int, ...] = ()) -> None:
        self.nat = naturals
        self.nat_total = sum(naturals)
        self.wilds = wilds
        self.wild_rank = wild_rank
        self.wild_shift = _SHIFT[wild_rank]
        #: several wild ranks (天地癞子): the pool holds the cards of all of them, listed under
        #: ``wild_rank``; a play of wild cards only may use any of them as their own rank
        self.multi = len(wild_ranks) > 1
        self.is_wild = [r in (wild_ranks or (wild_rank,)) for r in range(C.NUM_RANKS)]
        self.found = found
        #: every play is reported once (not to a callback that wants them all): kicker
        #: choices that give the same cards as an earlier choice can be dropped
        self.once = type(found) is dict
        stand = set(rules.stand_for)
        self.stands = [r in stand for r in range(C.NUM_RANKS)]
        #: (id(shape), length, adjacent, core signature) -> (largest pool listed, choices, {pool: choices})
        self.kick_cache: dict[tuple[object, ...], tuple[int, list[Kick], dict[int, list[Kick]]]] = {}

    # ------------------------------------------------------------------ cores
    def groups(self, shape: Shape, cap: int, exact: int | None, min_rank: int) -> None:
        kick = shape.kicker_cards(1)
        counts = [c for c in range(shape.unit, shape.max_count + 1)
                  if c + kick <= cap and (exact is None or c + kick == exact)]
        if not counts:
            return
        nat, stands, wilds, report = self.nat, self.stands, self.wilds, self.report
        for r in shape.ranks:
            if r <= min_rank:
                continue
            have = nat[r]
            pool = wilds if stands[r] else 0
            shift = _SHIFT[r]
            cores: list[Core] = []
            for count in counts:
                hi_w = count if count < pool else pool  # noqa: FURB136 - cheaper than min() here
                for w in range(count - have if count > have else 0, hi_w + 1):
                    n = count - w
                    cores.append((n << shift, n, w, (r,) * w))
            if cores:
                report(shape, cores, r, 1, (r,), ())

    def chains(self, shape: Shape, cap: int, exact: int | None, min_rank: int, only_length: int) -> None:
        unit = shape.unit
        ranks = shape.ranks
        lo, hi = ranks[0], ranks[-1]
        per_unit = unit + sum(k.unit * k.per_n for k in shape.kickers)
        fixed = sum(k.unit * k.fixed for k in shape.kickers)
        min_len, max_len = shape.min_len, shape.max_len
        if only_length and only_length < max_len:
            max_len = only_length
        if per_unit * min_len + fixed > cap:
            return  # even the shortest chain is too large
        nat, stands, wilds, report, extend = self.nat, self.stands, self.wilds, self.report, self._extend
        for start in range(lo, hi + 1):
            need = 0  # the fewest wild cards the chain start..top needs
            # every split of the chain start..top between naturals and wilds, in depth-first
            # order (lower ranks first, fewer wilds first): the splits of start..top-1, each
            # extended by the ways rank top can be made within the pool
            cores: list[Core] = [(0, 0, 0, ())]
            for top in range(start, hi + 1):
                short = unit - nat[top]
                if short > 0:
                    if not stands[top]:
                        break
                    need += short
                    if need > wilds:
                        break
                length = top - start + 1
                if length > max_len:
                    break
                size = per_unit * length + fixed
                if size > cap:
                    break
                cores = extend(cores, top, unit)
                if length < min_len or top <= min_rank:
                    continue
                if (only_length and length != only_length) or (exact is not None and size != exact):
                    continue
                adjacent = tuple(r for r in (start - 1, top + 1) if lo <= r <= hi)
                report(shape, cores, top, length, tuple(range(start, top + 1)), adjacent)

    def _extend(self, cores: list[Core], r: int, unit: int) -> list[Core]:
        """Each core extended by ``unit`` cards of rank ``r`` in every split between
        naturals and wilds (fewer wilds first) that the pool allows."""
        lo_w = unit - self.nat[r]
        if lo_w < 0:  # noqa: PLR1730 - cheaper than max() in this loop
            lo_w = 0
        most = unit if self.stands[r] else 0
        total = self.wilds
        shift = _SHIFT[r]
        if lo_w == most:  # one way (the rank has enough naturals, or cannot be a wild)
            nn = unit - lo_w
            add = nn << shift
            if lo_w == 0:
                return [(p + add, k + nn, w, s) for p, k, w, s in cores]
            ws = (r,) * lo_w
            return [(p + add, k + nn, w + lo_w, s + ws) for p, k, w, s in cores if w + lo_w <= total]
        grown: list[Core] = []
        append = grown.append
        for p, k, w, s in cores:
            hi_w = total - w
            if hi_w > most:  # noqa: PLR1730 - cheaper than min() in this loop
                hi_w = most
            for x in range(lo_w, hi_w + 1):
                append((p + ((unit - x) << shift), k + unit - x, w + x, s + (r,) * x if x else s))
        return grown

    def literal(self, shape: Shape, cap: int, exact: int | None, min_rank: int) -> None:
        counts = C.unpack(shape.literal)
        size = sum(counts)
        if size > cap or (exact is not None and size != exact):
            return
        rank = max(r for r, c in enumerate(counts) if c)
        if rank <= min_rank:
            return
        packed = naturals = need = 0
        subst: tuple[int, ...] = ()
        for r, c in enumerate(counts):
            if c:
                w = max(0, c - self.nat[r])
                if w and not self.stands[r]:
                    return
                need += w
                packed += (c - w) << _SHIFT[r]
                naturals += c - w
                subst += (r,) * w
        if need <= self.wilds:  # literal cards take naturals first (wilds only where short)
            self.report(shape, [(packed, naturals, need, subst)], rank, 1,
                        tuple(r for r, c in enumerate(counts) if c), ())

    # ------------------------------------------------------------------ report
    def report(self, shape: Shape, cores: list[Core], rank: int, length: int, core_ranks: tuple[int, ...],
               adjacent: tuple[int, ...]) -> None:
        """Cores chosen (in walk order): add every kicker choice and report the plays the
        shape's wilds/naturals constraints allow (played alone, wild cards are themselves)."""
        found = self.found
        combo = shape.combo
        wmin, wmax, nmin, nmax = shape.wilds_min, shape.wilds_max, shape.naturals_min, shape.naturals_max
        wild_rank = self.wild_rank
        is_wild = self.is_wild
        shift = self.wild_shift
        if not shape.kickers:
            for packed, naturals, wilds, subst in cores:
                if wilds < wmin or wilds > wmax or naturals < nmin or naturals > nmax:
                    continue
                if naturals == 0 and any(r != wild_rank and not is_wild[r] for r in subst):
                    continue
                key = (packed + (wilds << shift), combo, rank, length)
                if key not in found:
                    found[key] = subst  # a core's wilds are listed by rank: already sorted
            return
        total = self.wilds
        overlap = shape.overlap
        n_ok = nmax >= self.nat_total  # kickers cannot take more naturals than the hand holds
        kick_list = self.kick_list
        for packed, naturals, wilds, subst in cores:
            pool = total - wilds
            if overlap:  # the kicker choices depend on the naturals this core leaves
                core_nat = tuple((r, (packed >> _SHIFT[r]) & C.MASK) for r in core_ranks)
                kicks = kick_list(shape, length, adjacent, core_nat, (), core_nat, pool)
            else:
                kicks = kick_list(shape, length, adjacent, core_ranks, core_ranks, (), pool)
            base = packed + (wilds << shift)
            if naturals > 0 and wmin <= wilds and wilds + pool <= wmax and nmin <= naturals and n_ok:
                # the common case: every choice fits the bounds (each holds at most ``pool`` wilds)
                for kpw, _, _, ksub, _ in kicks:
                    key = (base + kpw, combo, rank, length)
                    if key not in found:
                        found[key] = (tuple(sorted(subst + ksub)) if subst else ksub) if ksub else subst
                continue
            for kpw, kn, kw, ksub, all_wild in kicks:
                w = wilds + kw
                n = naturals + kn
                if w < wmin or w > wmax or n < nmin or n > nmax:
                    continue
                if n == 0 and not (all_wild and all(r == wild_rank or is_wild[r] for r in subst)):
                    continue
                key = (base + kpw, combo, rank, length)
                if key not in found:
                    found[key] = tuple(sorted(subst + ksub))

    # ------------------------------------------------------------------ kickers
    def kick_list(self, shape: Shape, length: int, adjacent: tuple[int, ...], sig: tuple[object, ...],
                  blocked: tuple[int, ...], core_nat: tuple[tuple[int, int], ...], pool: int) -> list[Kick]:
        """The kicker choices of a core (cached by the core's signature) with at most
        ``pool`` wild cards."""
        ckey = (id(shape), length, adjacent, sig)
        entry = self.kick_cache.get(ckey)
        if entry is None or entry[0] < pool:
            rem = list(self.nat)
            for r, n in core_nat:
                rem[r] -= n
            entry = self.kick_cache[ckey] = (pool, self.kicks(shape, rem, blocked, length, adjacent, pool), {})
        if pool == entry[0]:
            return entry[1]
        kicks = entry[2].get(pool)
        if kicks is None:
            kicks = entry[2][pool] = [k for k in entry[1] if k[2] <= pool]
        return kicks

    def kicks(self, shape: Shape, rem: list[int], blocked: tuple[int, ...], length: int,
              adjacent: tuple[int, ...], pool: int) -> list[Kick]:
        """Every choice of kickers, with at most ``pool`` wild cards, in depth-first
        order (per kicker rule, ranks ascending, fewer groups and fewer wilds first):
        (packed natural kicker cards + wild kicker cards under the wild rank, natural
        kicker cards, wild kicker cards, the ranks those stand for, sorted, whether all
        of them stand for the wild rank)."""
        plan = [(rule.unit, rule.groups(length), [r for r in rule.ranks if r not in blocked])
                for rule in shape.kickers]
        if len(plan) == 1:
            raw, last = _one_rule_kicks(shape, *plan[0], rem, self.stands, adjacent, pool)
        else:
            raw, last = _kicks(shape, plan, rem, self.stands, adjacent, pool), None
        wild_rank, shift = self.wild_rank, self.wild_shift
        multi, is_wild = self.multi, self.is_wild
        once = self.once
        out: list[Kick] = []
        append = out.append
        seen: set[int] = set()
        add = seen.add
        if last is not None:
            # one group a rank, every choice one group short: add the last group here
            joker_max = shape.jokers
            m = len(last)
            for pos, _, jokers, packed, naturals, wilds, sub in raw:
                room = pool - wilds
                for p in range(pos, m):
                    for _, w, kp, kn, kj, ks in last[p]:
                        if w > room or (kj and jokers + kj > joker_max):
                            continue
                        s = sub + ks if ks else sub
                        all_wild = (not s or (s[0] == wild_rank and s[-1] == wild_rank)  # s is sorted
                                    or (multi and all(map(is_wild.__getitem__, s))))
                        kw = wilds + w
                        kpw = packed + kp + (kw << shift)
                        if once:
                            key = kpw + kpw + all_wild
                            if key in seen:
                                continue
                            add(key)
                        append((kpw, naturals + kn, kw, s, all_wild))
            return out
        if not once:
            return [(packed + (wilds << shift), naturals, wilds, sub,
                     not sub or (sub[0] == wild_rank and sub[-1] == wild_rank)
                     or (multi and all(map(is_wild.__getitem__, sub))))
                    for _, _, _, packed, naturals, wilds, sub in raw]
        # a later choice of the same cards (with wilds standing for the wild rank alike)
        # reports nothing new: keep the first
        for _, _, _, packed, naturals, wilds, sub in raw:
            all_wild = (not sub or (sub[0] == wild_rank and sub[-1] == wild_rank)  # sub is sorted
                        or (multi and all(map(is_wild.__getitem__, sub))))
            kpw = packed + (wilds << shift)
            key = kpw + kpw + all_wild
            if key not in seen:
                add(key)
                append((kpw, naturals, wilds, sub, all_wild))
        return out


def _kicks(shape: Shape, plan: list[tuple[int, int, list[int]]], rem: list[int], stands: list[bool],
           adjacent: tuple[int, ...], pool: int) -> list[_Choice]:
    """Kicker choices of any number of kicker rules, depth-first, as :func:`_one_rule_kicks`
    lists them."""
    last = len(plan)
    used = [0] * C.NUM_RANKS
    distinct, per_rank, adjacent_max, joker_max = shape.distinct, shape.per_rank, shape.adjacent, shape.jokers
    out: list[_Choice] = []
    sub: list[int] = []
    append = out.append

    def fill(idx: int, start: int, need: int, jokers: int, packed: int, naturals: int, wilds: int) -> None:
        while need == 0:  # this rule's groups chosen: the next rule, or a complete choice
            idx += 1
            if idx == last:
                append((0, 0, 0, packed, naturals, wilds, tuple(sorted(sub))))
                return
            start, need = 0, plan[idx][1]
        unit, _, cands = plan[idx]
        left = pool - wilds
        for i in range(start, len(cands)):
            r = cands[i]
            if distinct and used[r]:
                continue
            have = rem[r]
            spare = left if stands[r] else 0
            most = (have + spare) // unit
            if per_rank < 99:
                most = min(most, (per_rank - used[r]) // unit)
            if adjacent_max < 99 and r in adjacent:
                most = min(most, (adjacent_max - used[r]) // unit)
            if distinct and most > 1:
                most = 1
            most = min(most, need)
            is_joker = r >= C.SMALL_JOKER
            shift = _SHIFT[r]
            for times in range(1, most + 1):
                cards = times * unit
                if is_joker and jokers + cards > joker_max:
                    break
                for w in range(max(0, cards - have), min(spare, cards) + 1):
                    n = cards - w
                    rem[r] -= n
                    used[r] += cards
                    if w:
                        sub.extend((r,) * w)
                    fill(idx, i + 1, need - times, jokers + (cards if is_joker else 0),
                         packed + (n << shift), naturals + n, wilds + w)
                    if w:
                        del sub[-w:]
                    used[r] -= cards
                    rem[r] += n

    fill(-1, 0, 0, 0, 0, 0, 0)
    return out


def _one_rule_kicks(shape: Shape, unit: int, need: int, cands: list[int], rem: list[int], stands: list[bool],
                    adjacent: tuple[int, ...], pool: int) -> tuple[list[_Choice], list[list[_Way]] | None]:
    """Every choice of kickers for a shape of one kicker rule in depth-first order (ranks
    ascending, fewer groups and fewer wilds first), listed breadth-first without a call
    per choice: (_, _, _, packed naturals, naturals, wilds, the ranks the wilds stand
    for, sorted). When each rank gives at most one group, the choices are returned one
    group short, with the ways each rank gives it (by rank position), for the caller
    to add the last group."""
    if need == 0:
        return [(0, 0, 0, 0, 0, 0, ())], None
    per_rank, adjacent_max, joker_max, distinct = shape.per_rank, shape.adjacent, shape.jokers, shape.distinct
    # per candidate rank, the ways it gives groups: (groups, wilds, packed naturals, naturals, jokers, subst)
    ways_by_rank: list[list[_Way]] = []
    for r in cands:
        have = rem[r]
        spare = pool if stands[r] else 0
        most = (have + spare) // unit
        if per_rank < 99:
            most = min(most, per_rank // unit)
        if adjacent_max < 99 and r in adjacent:
            most = min(most, adjacent_max // unit)
        if distinct and most > 1:
            most = 1
        most = min(most, need)
        is_joker = r >= C.SMALL_JOKER
        shift = _SHIFT[r]
        ways = []
        for times in range(1, most + 1):
            cards = times * unit
            if is_joker and cards > joker_max:
                break
            for w in range(max(0, cards - have), min(spare, cards) + 1):
                n = cards - w
                ways.append((times, w, n << shift, n, cards if is_joker else 0, (r,) * w))
        if ways:
            ways_by_rank.append(ways)
    m = len(ways_by_rank)
    single = all(ways[-1][0] == 1 for ways in ways_by_rank)  # no rank gives two groups
    # the most groups the ranks from position p on can give (to drop choices that cannot complete)
    supply = [0] * (m + 1)
    for p in range(m - 1, -1, -1):
        supply[p] = supply[p + 1] + ways_by_rank[p][-1][0]
    # partial choices in depth-first order: (next position, groups left, jokers, packed, naturals, wilds, subst);
    # each round extends the unfinished ones in place, which keeps the order
    states: list[_Choice] = [(0, need, 0, 0, 0, 0, ())]
    while True:
        if single and states and states[0][1] == 1:  # every choice is one group short
            return states, ways_by_rank
        grown: list[_Choice] = []
        add = grown.append
        unfinished = False
        for state in states:
            pos, left, jokers, packed, naturals, wilds, sub = state
            if left == 0:
                add(state)
                continue
            for p in range(pos, m):
                if supply[p] < left:
                    break
                after = supply[p + 1]
                for times, w, kp, kn, kj, ks in ways_by_rank[p]:
                    if times > left:
                        break
                    if wilds + w > pool or left - times > after or (kj and jokers + kj > joker_max):
                        continue
                    if times < left:
                        unfinished = True
                    add((p + 1, left - times, jokers + kj, packed + kp, naturals + kn, wilds + w, sub + ks))
        states = grown
        if not unfinished:
            return states, None


def _shape_sizes(shape: Shape, most: int) -> set[int]:
    """The sizes, at most ``most``, of the plays ``shape`` makes (as the walk sizes them:
    a play's size is its core's, its kickers fixed by the core)."""
    if shape.kind == "chain":
        per_unit = shape.unit + sum(k.unit * k.per_n for k in shape.kickers)
        fixed = sum(k.unit * k.fixed for k in shape.kickers)
        sizes = {per_unit * n + fixed for n in range(shape.min_len, shape.max_len + 1)}
    elif shape.kind == "group":
        kick = shape.kicker_cards(1)
        sizes = {c + kick for c in range(shape.unit, shape.max_count + 1)}
    else:
        sizes = {sum(C.unpack(shape.literal))}
    return {n for n in sizes if n <= most}


def enumerate_wild(rules: Rules, naturals: list[int], wilds: int, wild_rank: int, emit: WildEmit,
                   shapes: list[Shape] | None = None, max_size: int | None = None,
                   exact_size: int | None = None, min_rank: int = -1, length: int = 0,
                   wild_ranks: tuple[int, ...] = ()) -> None:
    """Report every play of ``naturals`` (no card of the wild rank) plus up to ``wilds``
    wild cards, as :meth:`Rules.enumerate` does for natural cards.

    With several ``wild_ranks`` (天地癞子) the pool is the cards of all of them, reported
    under ``wild_rank`` (one of them): a play of wild cards only may then read each as any
    of the wild ranks, and the caller places the pool's cards on their own ranks
    (:meth:`WildMoves` does, keeping the plays whose wild-only cards read as themselves)."""
    walk(rules, naturals, wilds, wild_rank, _EmitAll(emit), shapes, max_size, exact_size, min_rank, length,
         wild_ranks)


def walk(rules: Rules, naturals: list[int], wilds: int, wild_rank: int, found: Found,
          shapes: list[Shape] | None = None, max_size: int | None = None,
          exact_size: int | None = None, min_rank: int = -1, length: int = 0,
          wild_ranks: tuple[int, ...] = ()) -> None:
    """:func:`enumerate_wild` into a dictionary: each distinct play once, with the
    substitution it was first found with."""
    walk = _Walk(rules, naturals, wilds, wild_rank, found, wild_ranks)
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


#: a lead's key in :class:`WildLeads`, low bits first: the place among readings of the
#: same cards, combo and rank (8 bits; a plane of four or five trios can read 20 cards
#: alike), the packed cards (C.BITS * C.NUM_RANKS), then the table's ``high`` (32 bits:
#: combo name, rank, size, tier + 1)
_TIE_BITS = 8
_PACKED_BITS = C.BITS * C.NUM_RANKS
_HIGH_SHIFT = _TIE_BITS + _PACKED_BITS
#: every lead key is below this (read on a key's first use, to refuse one that is none)
_KEY_END = 1 << (_HIGH_SHIFT + 32)
_RANK_SHIFT = _HIGH_SHIFT + 8
_SIZE_SHIFT = _HIGH_SHIFT + 16
#: a key at or above this is a bomb's (tier + 1 above 0)
_FIRST_BOMB_KEY = 1 << (_HIGH_SHIFT + 24)
_PACKED_MASK = (1 << _PACKED_BITS) - 1


def _key_range(size: int) -> tuple[int, int]:
    """The keys of the plays of ``size`` cards that are no bomb (with ``size`` 0: of the
    bombs) are those from the first number up to the second (not included)."""
    return (size << _SIZE_SHIFT, (size + 1) << _SIZE_SHIFT) if size else (_FIRST_BOMB_KEY, _KEY_END)


#: where a WildLeads reads the plays it has not made: a wild table, or the walk's pooled
#: readings (their key with the pooled wild cards -> (length, ranks the wild cards stand for))
_LeadSource = WildTable | dict[int, tuple[int, tuple[int, ...]]]


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
        self._source: _LeadSource = table if table is not None else {}
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
            if type(key) is not int or not 0 < key < _KEY_END:
                raise ValueError(f"no play of key {brief(key)}")
            keys = self._keys if self._keys is not None else self.plain_keys(self.key_size(key)) \
                if key < _FIRST_BOMB_KEY else self.bomb_keys()
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
        keys = self._keys if self._keys is not None else self.plain_keys(move.size) if prefix < _FIRST_BOMB_KEY \
            else self.bomb_keys()
        i = bisect_left(keys, prefix)
        while i < len(keys) and keys[i] >> _TIE_BITS == prefix >> _TIE_BITS:
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
                lo, hi = _key_range(size)
                start = bisect_left(keys, lo)
                got = keys[start:bisect_left(keys, hi, start)]
            else:
                got = self._owner._read_leads(self, size)
            self._blocks[size] = got
        return got

    @staticmethod
    def key_size(key: int) -> int:
        """The number of cards of the play of ``key``."""
        return (key >> _SIZE_SHIFT) & 0xFF

    @staticmethod
    def first_clear(keys: list[int], fields: int) -> int:
        """The first of ``keys`` whose play's packed cards touch none of ``fields``, or -1."""
        return next(compress(keys, map(not_, map(and_, keys, repeat(fields << _TIE_BITS)))), -1)

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
        return list(map(and_, map(rshift, self.keys, repeat(_SIZE_SHIFT)), repeat(0xFF)))

    def ranks(self) -> list[int]:
        """Per play, its rank."""
        return list(map(and_, map(rshift, self.keys, repeat(_RANK_SHIFT)), repeat(0xFF)))

    def plain(self) -> int:
        """How many plays are no bomb: they come first."""
        return bisect_left(self.keys, _FIRST_BOMB_KEY)

    def size_at(self, i: int) -> int:
        """The number of cards of play ``i``."""
        return (self.keys[i] >> _SIZE_SHIFT) & 0xFF

    def first_of_size(self, size: int, bombs: bool = True) -> int:
        """The index of the first play of ``size`` cards in listing order (among the plays
        that are no bomb only, unless ``bombs``), or -1: a bisection a bomb tier."""
        keys = self.keys
        if not keys or not 0 <= size < 0x100:
            return -1
        tiers = (keys[-1] >> (_HIGH_SHIFT + 24)) + 1 if bombs else 1
        for tier in range(tiers):
            start = (tier << 24 | size << 16) << _HIGH_SHIFT
            i = bisect_left(keys, start)
            if i < len(keys) and keys[i] < start + (1 << (_HIGH_SHIFT + 16)):
                return i
        return -1

    def first_clear_of(self, fields: int, start: int, end: int) -> int:
        """The first index from ``start`` to ``end`` (not included) of a play whose packed
        cards touch none of ``fields``, or -1."""
        found = compress(range(start, end), map(not_, map(and_, self.keys[start:end], repeat(fields << _TIE_BITS))))
        return next(found, -1)

    def clear_of(self, fields: int, end: int) -> list[int]:
        """The indices below ``end`` of the plays whose packed cards touch none of ``fields``."""
        return list(compress(range(end), map(not_, map(and_, self.keys[:end], repeat(fields << _TIE_BITS)))))


class WildMoves:
    """Readings with wild cards for one variant: interned Move objects and the three
    queries (classify, legal moves, census) the :class:`~ddzrules.rules.variant.Variant`
    delegates to when a wild rank is given.

    ``classify``, ``legal_moves`` and ``census`` read a :class:`~ddzrules.rules.wild_table.WildTable`
    per wild rank once that rank has been asked about often enough (:attr:`load_after`,
    :attr:`table_after`; read from the keyed disk cache, else built and kept there);
    until then, and ``*_enumerated`` always, they walk the hand (the reference the table
    is tested against)."""

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
        #: those of several wild ranks, least recently used first
        self._intern_several: dict[tuple[int, ...], dict[tuple[int, int, int, int], tuple[int, Move]]] = {}
        #: combo -> (the bits of its tier and name order in the int order key)
        names = sorted(c.name for c in rules.combos)
        self._order_bits = [((c.tier + 1) << 12) | names.index(c.name) for c in rules.combos]
        self._shapes_by_combo: dict[int, list[Shape]] = {}
        for s in rules.shapes:
            self._shapes_by_combo.setdefault(s.combo, []).append(s)
        self._bomb_shapes = [s for s in rules.shapes if rules.combos[s.combo].tier >= 0]
        self._plain_shapes = [s for s in rules.shapes if rules.combos[s.combo].tier < 0]
        #: the sizes a play that is no bomb can have (a lead's size with none is not walked)
        self._plain_sizes = frozenset(n for s in self._plain_shapes for n in _shape_sizes(s, rules.max_hand))
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
        self._several_listed: dict[tuple[tuple[int, ...], tuple[int, ...], Move | None], LegalMoves] = {}
        #: the readings of several wild ranks' cards alone, by those cards and the query
        self._alone: dict[tuple[object, ...], list[tuple[int, Move]]] = {}
        #: leads of several wild ranks as keys (:meth:`lead_plays`), by (wild ranks, hand)
        self._several_leads: dict[tuple[Wild, tuple[int, ...]], WildLeads] = {}
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
        # here for the sets of ranks used last, at most _SEVERAL_INTERN_LIMIT in all (a
        # search samples 地癞子 afresh in each world: a run switches sets all the time)
        several = self._intern_several
        if table is None:
            table = {}
        else:
            del several[wild]
        several[wild] = table  # the last used last
        kept = sum(map(len, several.values()))
        if kept > _SEVERAL_INTERN_LIMIT:
            for key in list(several):
                if key == wild or kept <= _SEVERAL_INTERN_LIMIT:
                    break
                kept -= len(several.pop(key))
                del self._intern[key]
                self._placings.pop(key, None)
            if kept > _SEVERAL_INTERN_LIMIT:
                table.clear()  # this set alone is above it: made again when listed
        self._intern[wild] = table
        return table

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
        return Move(C.to_strings((packed,))[0], self._names[combo], rank, length, size, self._tiers[combo], key, packed, sub)

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
        ``taken`` of each wild rank are played (:func:`_place`), memoised per set of wild
        ranks: a run meets few of them and many readings share each."""
        placings = self._placings.get(wild)
        if placings is None:
            placings = self._placings[wild] = {}
        sub = placings.get((taken, subst))
        if sub is None:
            sub = placings[taken, subst] = tuple((C.RANKS[a], C.RANKS[b])
                                                 for a, b in _pairs_of(_place(wild, taken, subst)))
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

    def _collect(self, counts: list[int], wild: Wild, **kw: object) -> list[Move]:
        return list(map(_second, self._collect_ordered(counts, wild, **kw)))

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
        pooled = _SHIFT[wild[0]]
        units = [1 << _SHIFT[w] for w in wild]
        found: dict[tuple[int, int, int, int], tuple[tuple[int, ...], tuple[int, ...]]] = {}
        ways_by_n: dict[int, list[tuple[int, ...]]] = {}

        def emit(packed: int, combo: int, rank: int, length: int, subst: tuple[int, ...]) -> None:
            n = len(subst)
            base = packed - (n << pooled)
            ways = ways_by_n.get(n)
            if ways is None:
                ways = ways_by_n[n] = _splits(have, n)
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
        code = cache.code_hash(TABLE_FORMAT, "ddzrules.rules.wild", "ddzrules.rules.wild_table", "ddzrules.rules.compiler",
                               "ddzrules.cards", "ddzrules.spec.patterns", ("ddzrules.spec", "pattern.lark"))
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
        shift = _SHIFT[table.wild]  # where the table's readings hold the pooled wild cards
        units = [1 << _SHIFT[w] for w in wild]
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
                ways = ways_by_n[n] = [(k, sum(map(mul, k, units))) for k in _splits(have, n)]
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
            if len(self._alone) >= 4096:
                self._alone.clear()
            got = self._alone[key] = self._collect_several(alone, wild, **kw)
        return got

    def _legal_moves_several(self, counts: list[int], after: Move | None, wild: tuple[int, ...]) -> LegalMoves:
        # memoised: a search meets the same hand and play again and again (its own hand in
        # every rollout), and a listing of several wild ranks costs milliseconds
        memo = self._several_listed
        key = (wild, tuple(counts), after)
        listed = memo.get(key)
        if listed is None:
            if len(memo) >= _SEVERAL_LISTED_LIMIT:
                memo.clear()
            listed = memo[key] = self._list_several(counts, after, wild)
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
            if len(memo) >= _SEVERAL_LEADS_LIMIT:
                memo.clear()
            got = memo[key] = WildLeads(self, list(counts), (wild,), table, single=True)
            return got
        assert type(wild) is tuple
        if len(memo) >= _SEVERAL_LEADS_LIMIT:
            memo.clear()
        table = self._pooled_table(counts, wild)
        if table is None and (sum(counts) > self.rules.max_hand or len(self._order_bits) > 256):
            return None  # no hand a game deals (legal_moves says so); combos beyond a key's name bits
        got = memo[key] = WildLeads(self, list(counts), wild, table)
        return got

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
            lo, hi = _key_range(size)
            keys += [k for k in leads._alone_moves() if lo <= k < hi]
        keys.sort()
        return keys

    @staticmethod
    def _pooled_hand(counts: list[int], wild: tuple[int, ...]) -> tuple[list[int], int]:
        """The hand without its wild cards, and how many it holds of the wild ranks."""
        nat = list(counts)
        for w in wild:
            nat[w] = 0
        return nat, sum(counts[w] for w in wild)

    def _table_pooled(self, table: WildTable, positions: list[int],
                      single: bool = False) -> tuple[list[int], list[int]]:
        """The keys of the readings at ``positions`` that hold natural cards (several wild
        ranks: those of wild cards alone are walked apart; one wild rank: all of them), and
        their wild cards read off the keys' pooled field."""
        pooled = list(filter(None, map(self._lead_keys(table, single).__getitem__, positions)))
        held = list(map(and_, map(rshift, pooled, repeat(_TIE_BITS + _SHIFT[table.wild])), repeat(C.MASK)))
        return pooled, held

    def _placed_keys(self, pooled: list[int], held: list[int], counts: list[int], wild: tuple[int, ...],
                     pool_rank: int) -> list[int]:
        """The keys of a hand's readings with natural cards, given pooled (their wild cards
        under ``pool_rank``: ``pooled`` their keys, ``held`` their wild cards), placed on
        the wild cards held, unsorted. Per number of wild cards n, each reading's key once
        per way of taking n wild cards from the ranks held: the placed cards differ from
        the pooled ones only in the wild ranks' fields, so one addition a key, in C."""
        have = tuple(counts[w] for w in wild)
        shift = _SHIFT[pool_rank]
        units = [1 << _SHIFT[w] for w in wild]
        keys: list[int] = []
        for n in sorted(set(held)):
            chosen = list(compress(pooled, map(eq, held, repeat(n))))
            for k in _splits(have, n):
                delta = (sum(map(mul, k, units)) - (n << shift)) << _TIE_BITS
                keys += map(add, chosen, repeat(delta)) if delta else chosen
        return keys

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

    def _walk_pooled(self, counts: list[int], wild: tuple[int, ...],
                     **kw: Any) -> tuple[list[int], list[int], dict[int, tuple[int, tuple[int, ...]]]]:
        """The walk of the pooled hand (``kw`` as :func:`walk` takes them), each distinct
        reading with natural cards once (its first substitution): their keys with the
        pooled wild cards, their wild cards, and key -> (length, the ranks the wild cards
        stand for). Readings of the same cards, combo and rank keep the walk's order."""
        naturals, pooled_count = self._pooled_hand(counts, wild)
        found: Found = {}
        walk(self.rules, naturals, pooled_count, wild[0], found, wild_ranks=wild, **kw)
        shift = _SHIFT[wild[0]]
        idents = list(found)
        packs = list(map(itemgetter(0), idents))
        sizes = C.sizes_of(packs)
        held = list(map(and_, map(rshift, packs, repeat(shift)), repeat(C.MASK)))
        natural = list(map(ne, sizes, held))  # readings of wild cards alone: walked apart
        highs = map(or_, map(or_, map(self._high_of.__getitem__, map(itemgetter(1), idents)),
                             map(lshift, sizes, repeat(16))), map(lshift, map(itemgetter(2), idents), repeat(8)))
        pooled = list(compress(map(lshift, map(or_, map(lshift, highs, repeat(_PACKED_BITS)), packs),
                                   repeat(_TIE_BITS)), natural))
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

    def _lead_keys(self, table: WildTable, single: bool = False) -> list[int]:
        """Per position of ``table``, its key as :class:`WildLeads` holds them; with several
        wild ranks (not ``single``) 0 for a reading of wild cards alone (made once a table
        and kind: 0.2 s and about 20 MB for one of 450,000 readings)."""
        got = self._lead_keys_by_table.get((id(table), single))
        if got is not None and got[0] is table:
            return got[1]
        keys = list(map(or_, map(lshift, table.high, repeat(_PACKED_BITS)), table.packed))
        tied = list(compress(range(1, len(keys)), map(eq, keys[1:], keys)))
        keys = list(map(lshift, keys, repeat(_TIE_BITS)))
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
        return (high << _PACKED_BITS | move.packed) << _TIE_BITS

    def _lead_move(self, key: int, source: _LeadSource, wild: tuple[int, ...], single: bool = False) -> Move:
        """The Move of a :class:`WildLeads` key read off ``source`` (a table, or a walk's
        pooled readings): one wild rank's (``single``), the table's own; else interned, or
        made with the substitution of its pooled reading, placed as :meth:`_placed` places
        it."""
        packed = (key >> _TIE_BITS) & _PACKED_MASK
        high = key >> _HIGH_SHIFT
        taken = tuple((packed >> _SHIFT[w]) & C.MASK for w in wild)
        n = sum(taken)
        table = source if isinstance(source, WildTable) else None
        pool_rank = table.wild if table is not None else wild[0]
        pooled = packed - sum(map(mul, taken, (1 << _SHIFT[w] for w in wild))) + (n << _SHIFT[pool_rank])
        tie = key & ((1 << _TIE_BITS) - 1)
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
            length, subst = source[(high << _PACKED_BITS | pooled) << _TIE_BITS | tie]  # type: ignore[index]
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

    def check_several(self, counts: list[int], max_size: int, wild: tuple[int, ...], what: str,
                      per_rank: bool = True) -> None:
        """Refuse a walk of ``counts`` with several wild ranks whose bound (the compiler's
        cost of every shape, the wild cards of ``len(wild)`` ranks pooled) is above the
        enumeration limit × 20 (× the number of wild ranks squared with ``per_rank``: a
        census counts, it makes no Move): with one wild rank the compiler bounds every
        hand a game deals, with several only this does."""
        from ddzrules.rules.compiler import WILD_FACTOR, max_enumeration, shape_cost, show_count

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
        ways = [len(_splits(have, n)) for n in range(sum(have) + 1)]
        pooled = _SHIFT[wild[0]]
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
