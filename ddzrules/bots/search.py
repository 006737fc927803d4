"""The search bot: determinized search (Perfect Information Monte Carlo) for any spec.

At each decision with more than one choice, :class:`SearchBot` samples worlds consistent
with what its seat sees (:meth:`~ddzrules.runtime.PlayerView.sample_world`: the hidden
cards dealt again among the places they could be), plays each candidate action in each
world and the game on to its end with a fast rollout policy, and takes the action with
the best mean settlement for its seat (its score, not just whether it wins). It knows the
rules only through the game: the legal actions, the plugins' phases and the settlement,
so it plays every spec, phase and table the runtime does, with no per-spec code.

Budgets: ``iters`` rollouts a decision (deterministic for a seed: the default) or ``ms``
milliseconds a decision (a time cap; the choices then depend on the machine's speed). The
time cap bounds the whole decision, from the call of ``act``: the deadline is checked
before each world is sampled, before each rollout and every few steps inside one (a rollout
cut short is not counted); the candidates weighed so far are compared by their mean, and
a decision whose time ran out before any rollout ended is the heuristic bot's. ``ms=1``
took seconds: a whole world (every candidate's rollout) ran before the first check. A
decision before the play phase (a bid, a call, a rob, a declaration such as 加倍 or 明牌)
gets ``early_iters`` rollouts, by default a quarter of ``iters``: it weighs few options,
and each of its rollouts plays a whole game, several times the cost of a play's rollout
(docs/bots.md, decision time).
"""

from __future__ import annotations

import gc
import random
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

from ddzrules import cards as C
from ddzrules.bots.simple import HeuristicBot
from ddzrules.errors import PlayError
from ddzrules.game.values import World
from ddzrules.rules.moves import Move
from ddzrules.rules.wild import WildLeads
from ddzrules.runtime import Action, PlayerView

#: rollouts a decision by default (``search:iters=N``)
DEFAULT_ITERS = 160
#: a decision's rollouts before the play phase by default: ``iters`` divided by this
EARLY_ITERS_DIVISOR = 4
#: the most actions a decision weighs in the play phase (the pass, then the plays by a prior)
MAX_CANDIDATES = 8
#: how often a rollout's policy plays a random legal action instead of its own choice
ROLLOUT_NOISE = 0.1
#: a game that runs past this many actions in a rollout is scored as it stands (never: a
#: safety bound on a spec whose games would not end)
ROLLOUT_LIMIT = 2000


#: a rollout under a time cap reads the clock every this many steps
CLOCK_EVERY = 8


#: the cyclic collector's thresholds while a search runs (Python's are (700, 10, 10))
SEARCH_GC_THRESHOLDS = (50_000, 20, 10)


@contextmanager
def _few_collections() -> Iterator[None]:
    """Python's cyclic garbage collector runs less often while a search runs, as it was
    after. A search makes millions of objects that hold no cycle (game copies, Moves,
    actions) beside a large heap that lives on (the Moves and actions kept by the rules),
    so a collection every 700 allocations finds nothing and each full one walks the
    whole heap: a fifth of a tiandi-laizi duel deal (46.8 s, 23,527 collections freeing
    1,244 objects; 36.5 s with these thresholds)."""
    before = gc.get_threshold()
    gc.set_threshold(*SEARCH_GC_THRESHOLDS)
    try:
        yield
    finally:
        gc.set_threshold(*before)


class SearchBot:
    """Determinized search over sampled worlds, rollouts by :func:`rollout_action`."""

    name = "search"

    def __init__(self, seed: int = 0, iters: int = DEFAULT_ITERS, ms: float | None = None,
                 candidates: int = MAX_CANDIDATES, early_iters: int | None = None) -> None:
        self.rng = random.Random(seed)
        self.iters = iters
        #: rollouts a decision before the play phase (bids, calls, robs, declarations) weighs with
        self.early_iters = max(1, iters // EARLY_ITERS_DIVISOR) if early_iters is None else early_iters
        self.ms = ms
        self.candidates = candidates
        self.fallback = HeuristicBot(seed)
        #: the clock of the time cap, in seconds (a test gives its own)
        self.clock: Callable[[], float] = time.perf_counter

    def act(self, view: PlayerView, legal: list[Action]) -> Action:
        started = self.clock()  # the time cap counts from here: the whole decision
        if len(legal) == 1:
            return legal[0]
        if "_world" not in view.__dict__:  # a view with no game behind it: nothing to search
            return self.fallback.act(view, legal)
        candidates = self._candidates(view, legal)
        if len(candidates) == 1:
            return candidates[0]
        with _few_collections():
            if self.ms is not None:
                return self._timed(view, candidates, started + self.ms / 1000)
            return self._search(view, candidates)

    def _timed(self, view: PlayerView, candidates: list[Action], deadline: float) -> Action:
        """:meth:`_search` under a time cap: the deadline checked before each world and each
        rollout and inside rollouts; the best mean of the candidates weighed so far."""
        worlds = random.Random(self.rng.getrandbits(64))
        noise = random.Random(self.rng.getrandbits(64))
        clock = self.clock
        totals = [0.0] * len(candidates)
        counts = [0] * len(candidates)
        while clock() < deadline:
            world = view.sample_world(worlds)
            for i, action in enumerate(candidates):
                if clock() >= deadline:
                    break
                game = world.copy()
                try:
                    game.apply(action)
                except PlayError:  # not legal in this world (a plugin's options read hidden cards)
                    value: float | None = float("-inf")
                else:
                    value = rollout(game, view.seat, noise, deadline, clock)
                if value is None:  # cut short by the deadline: not counted
                    break
                totals[i] += value
                counts[i] += 1
        weighed = [i for i in range(len(candidates)) if counts[i]]
        if not weighed:
            return self.fallback.act(view, candidates)
        best = max(weighed, key=lambda i: (totals[i] / counts[i], -i))  # a tie: the earlier
        return candidates[best]

    def _search(self, view: PlayerView, candidates: list[Action]) -> Action:
        worlds = random.Random(self.rng.getrandbits(64))
        noise = random.Random(self.rng.getrandbits(64))
        totals = [0.0] * len(candidates)
        budget = self.iters if view.phase == "play" else self.early_iters
        done = 0
        while True:
            world = view.sample_world(worlds)
            for i, action in enumerate(candidates):
                totals[i] += self._value(world, action, view.seat, noise)
            done += len(candidates)
            if done + len(candidates) > budget:
                break
        best = max(range(len(candidates)), key=lambda i: (totals[i], -i))  # a tie: the earlier
        return candidates[best]

    def _candidates(self, view: PlayerView, legal: list[Action]) -> list[Action]:
        """The actions weighed: all of them outside the play phase (a few bids or
        declarations), else the pass and the plays by a prior (non-bombs first; then many
        cards first when leading, low ranks first when answering), at most ``candidates``."""
        if view.phase != "play" or len(legal) <= self.candidates:
            return list(legal)
        leading = view.last_play is None
        plays = [a for a in legal if a.kind == "play" and a.move is not None]
        others = [a for a in legal if a.kind != "play"]

        def prior(a: Action) -> tuple[float, ...]:
            m = a.move
            assert m is not None
            return (m.is_bomb, -m.size, m.rank) if leading else (m.is_bomb, m.rank, -m.size)

        ordered = others + sorted(plays, key=prior)
        return ordered[: self.candidates]

    def _value(self, world: World, action: Action, seat: int, noise: random.Random) -> float:
        game = world.copy()
        try:
            game.apply(action)
        except PlayError:  # not legal in this world (a plugin's options read hidden cards)
            return float("-inf")
        return rollout(game, seat, noise)  # type: ignore[return-value]  # no deadline: a score


def rollout(game: World, seat: int, rng: random.Random, deadline: float | None = None,
            clock: Callable[[], float] = time.perf_counter) -> float | None:
    """Play ``game`` to its end with the rollout policy for every seat (:func:`rollout_play`
    in the play phase, on the plays as Moves: no action is made per play; else
    :func:`rollout_action`); ``seat``'s score. With a ``deadline`` (of ``clock``), None when
    it passes first (read every :data:`CLOCK_EVERY` steps)."""
    for step in range(ROLLOUT_LIMIT):
        if game.over:
            break
        if deadline is not None and not step % CLOCK_EVERY and clock() >= deadline:
            return None
        if game.phase == "play":
            moves, can_pass = game.legal_plays()
            to_act = game.to_act
            assert to_act is not None
            if type(moves) is WildLeads:  # a lead of several wild ranks: read only as far as the choice needs
                move = rollout_lead(game, moves, rng)
                game.apply(Action(to_act, "play", move.cards, move))
                continue
            i = rollout_play(game, moves, can_pass, rng)
            game.apply(Action(to_act, "play", moves[i].cards, moves[i]) if i < len(moves)
                       else Action(to_act, "pass"))
        else:
            game.apply(rollout_action(game, game.legal_actions(), rng))
    scores = game.scores
    return float(scores[seat]) if scores is not None else 0.0


_declarer = HeuristicBot(0)


def rollout_action(game: World, legal: list[Action], rng: random.Random) -> Action:
    """A fast, rough choice for a rollout, read off the game itself (no view in the play
    phase): go out when possible; leading, the longest non-bomb play of the lowest rank;
    answering, pass to a partner, else the lowest play that beats. As
    :class:`~ddzrules.bots.simple.HeuristicBot` does, it keeps four or more of a rank
    whole (no play that breaks a bomb while another will do) and bombs against a nearly
    empty hand or when the bomb leaves it few cards. Declarations as
    :class:`~ddzrules.bots.simple.HeuristicBot` makes them. Now and then a random legal
    action, so the rollouts differ. Ties go to the play listed first."""
    if len(legal) == 1:
        return legal[0]
    if rng.random() < ROLLOUT_NOISE:
        return legal[rng.randrange(len(legal))]
    seat = game.to_act
    assert seat is not None
    if game.phase != "play":
        return _declarer.act(game.view(seat), legal)
    plays: list[Action] = []
    moves: list[Move] = []
    pass_action = None
    for a in legal:
        if a.move is not None and a.kind == "play":
            plays.append(a)
            moves.append(a.move)
        elif a.kind == "pass":
            pass_action = a
    if not plays:
        return pass_action if pass_action is not None else legal[0]
    i = _choose(game, moves, pass_action is not None)
    return plays[i] if i < len(plays) else pass_action  # type: ignore[return-value]


def rollout_play(game: World, moves: Sequence[Move], can_pass: bool, rng: random.Random) -> int:
    """:func:`rollout_action` on the play phase's listing as :meth:`Game.legal_plays` gives
    it: the index of the chosen play in ``moves``, or ``len(moves)`` for the pass. The same
    choice, drawing the same numbers from ``rng``, as :func:`rollout_action` makes on
    :meth:`Game.legal_actions` (the plays in that order, then the pass)."""
    n = len(moves) + can_pass
    if n == 1:
        return 0
    if rng.random() < ROLLOUT_NOISE:
        return rng.randrange(n)
    return _choose(game, moves, can_pass)


def rollout_lead(game: World, leads: WildLeads, rng: random.Random) -> Move:
    """:func:`rollout_play` on a lead of several wild ranks (:meth:`Game.legal_plays` gives
    it as a :class:`~ddzrules.rules.wild.WildLeads`): the same play, drawing the same numbers
    from ``rng``, with the hand's plays read only as far as the choice needs them (the
    longest sizes, by :meth:`~ddzrules.rules.wild.WildLeads.plain_keys`; every play only for a
    random one). Leading, a hand of four wild cards has thousands of plays and the
    policy takes one of the longest."""
    if leads.only_one():
        return leads[0]
    if rng.random() < ROLLOUT_NOISE:
        return leads[rng.randrange(len(leads))]
    hand = game.hands[game.to_act]  # type: ignore[index]
    return leads.move_of(_lead_choice(leads, hand))


def _choose(game: World, moves: Sequence[Move], can_pass: bool) -> int:
    """The policy of :func:`rollout_action` on the plays (``moves``, at least one) of the
    seat to act: the index of the chosen play, or ``len(moves)`` for the pass."""
    # one pass a list and plain comparisons, no key functions: a wild hand lists
    # hundreds of plays, and this runs at every step of every rollout
    seat = game.to_act
    assert seat is not None
    hand = game.hands[seat]
    if type(moves) is WildLeads:
        return moves.position(_lead_choice(moves, hand))
    hand_size = sum(hand)
    for k, m in enumerate(moves):
        if m.size == hand_size:  # going out
            return k
    bomb_fields = _bomb_fields(hand)
    normal: list[int] = []  # the plays that are no bomb (their indices)
    whole: list[int] = []  # those that break no bomb either
    if bomb_fields:
        for k, m in enumerate(moves):
            if m.tier < 0:
                normal.append(k)
                if not m.packed & bomb_fields:
                    whole.append(k)
    else:
        normal = whole = [k for k, m in enumerate(moves) if m.tier < 0]
    passing = len(moves)
    if game.last_play is None:
        return _longest_lowest(moves, whole or normal or range(len(moves)))
    if can_pass and game.last_seat in game.partners(seat):
        return passing
    if whole:
        return _lowest(moves, whole)
    side = game.partners(seat)
    danger = min((sum(h) for s, h in enumerate(game.hands) if s != seat and s not in side), default=99)
    bombs = [k for k, m in enumerate(moves) if m.tier >= 0]
    if bombs:
        bomb = min(bombs, key=lambda k: moves[k].key)
        if not can_pass or danger <= 5 or hand_size - moves[bomb].size <= 4:
            return bomb
    if can_pass:
        return passing
    return _lowest(moves, normal or range(len(moves)))


def _bomb_fields(hand: list[int]) -> int:
    """The 4-bit fields of the ranks ``hand`` holds four or more of (jokers never make such
    a bomb): a play whose packed count touches them breaks a bomb."""
    fields = 0
    for r in range(C.SMALL_JOKER):
        if hand[r] >= 4:
            fields |= 0xF << (4 * r)
    return fields


def _lead_choice(leads: WildLeads, hand: list[int]) -> int:
    """:func:`_choose` on a lead of several wild ranks (thousands of plays): the key of the
    same choice, read off the plays of the longest sizes only (each size's keys are in
    listing order: its lowest rank, the first listed on a tie, first), with no Move made."""
    total = sum(hand)
    out = leads.plain_keys(total)  # going out: the first such play, a bomb when no other
    if out:
        return out[0]
    out = [k for k in leads.bomb_keys() if WildLeads.key_size(k) == total]
    if out:
        return out[0]
    fields = _bomb_fields(hand)
    # the most cards first: the first size holding a play that breaks no bomb, its first
    # such play; else the longest play
    longest = -1
    for size in range(total - 1, 0, -1):
        run = leads.plain_keys(size)
        if not run:
            continue
        if longest < 0:
            longest = run[0]
        if not fields:
            return run[0]
        whole = WildLeads.first_clear(run, fields)
        if whole >= 0:
            return whole
    if longest >= 0:
        return longest
    # bombs only (a spec without singles): few plays, read as Moves
    return leads.keys[_longest_lowest(leads, range(len(leads)))]


def _longest_lowest(moves: Sequence[Move], among: Sequence[int]) -> int:
    """The play of the most cards, of the lowest rank among those; the first on a tie."""
    best = among[0]
    size, rank = moves[best].size, moves[best].rank
    for k in among:
        m = moves[k]
        if m.size > size or (m.size == size and m.rank < rank):
            best, size, rank = k, m.size, m.rank
    return best


def _lowest(moves: Sequence[Move], among: Sequence[int]) -> int:
    """The play of the lowest rank, of the fewest cards among those; the first on a tie."""
    best = among[0]
    rank, size = moves[best].rank, moves[best].size
    for k in among:
        m = moves[k]
        if m.rank < rank or (m.rank == rank and m.size < size):
            best, rank, size = k, m.rank, m.size
    return best
