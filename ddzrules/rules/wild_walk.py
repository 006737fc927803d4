"""Enumeration with wild cards (癞子).

In a wildcard game one rank is wild: each of its cards may stand for any rank a
spec allows (never a joker), and combines into every combo — with wild 7,
``44556+7`` plays as the pair chain ``445566``. Played alone, wild cards are
themselves: ``77`` is a pair of 7s and four wilds are the pure wild bomb.

This module walks (``walk``, ``enumerate_wild``) the same compiled :class:`~ddzrules.rules.compiler.Shape`\\ s as the
natural enumeration, with a pool of wild cards: wherever a shape needs ``c`` cards
of a rank, they may come from the naturals of that rank and from the pool, in
every split. Each play is reported with its *physical* cards (the wild cards under
their own rank) and the ranks the wild cards stand for, and the play-level
constraints ``wilds``/``naturals`` (soft, hard, pure bombs) are checked.
"""

from __future__ import annotations

from collections.abc import Callable

from ddzrules import cards as C
from ddzrules.rules.shapes import Rules, Shape

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
RANK_SHIFTS = [C.BITS * r for r in range(C.NUM_RANKS)]
#: the wild ranks of a query: one rank index (癞子), or several, ascending (天地癞子)
Wild = C.WildKey


def wild_splits(have: tuple[int, ...], n: int) -> list[tuple[int, ...]]:
    """Every way of taking ``n`` wild cards from the wild ranks' cards held (``have`` per
    rank), as the number taken of each.

    >>> wild_splits((2, 1), 2)
    [(1, 1), (2, 0)]
    """
    if len(have) == 1:
        return [(n,)] if n <= have[0] else []
    return [(k, *rest) for k in range(min(n, have[0]) + 1) for rest in wild_splits(have[1:], n - k)]


def place_wilds(wild: tuple[int, ...], taken: tuple[int, ...], subst: tuple[int, ...]) -> tuple[int, ...]:
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


def pairs_of(flat: tuple[int, ...]) -> list[tuple[int, int]]:
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
        self.wild_shift = RANK_SHIFTS[wild_rank]
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
            shift = RANK_SHIFTS[r]
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
        shift = RANK_SHIFTS[r]
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
                packed += (c - w) << RANK_SHIFTS[r]
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
                core_nat = tuple((r, (packed >> RANK_SHIFTS[r]) & C.MASK) for r in core_ranks)
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
            shift = RANK_SHIFTS[r]
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


# over the complexity bound on purpose: the kicker search's cases, a hot loop kept in one frame
def _one_rule_kicks(shape: Shape, unit: int, need: int, cands: list[int], rem: list[int],  # noqa: C901
                    stands: list[bool],
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
        shift = RANK_SHIFTS[r]
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


def shape_sizes(shape: Shape, most: int) -> set[int]:
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
