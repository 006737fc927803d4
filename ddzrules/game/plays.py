"""The play phase's legal actions, made fast: the positions of the variant's table that a
hand holds and that beat the previous play, turned into :class:`Action` objects kept per
seat so that the same play is the same object from one step to the next."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from itertools import compress
from itertools import repeat as _repeat
from operator import attrgetter
from operator import is_ as _is
from operator import is_not as _is_not
from operator import le as _le
from operator import not_ as _not
from typing import Any

from ddzrules import cards as C
from ddzrules.game.values import MEMO_LIMIT, Action
from ddzrules.rules.moves import LegalMoves, Move, bulk_maker
from ddzrules.variant import Variant

# ====================================================================== the play phase's lister


#: stands for "no action yet" in PlayLister.actions (its move is no Move)
_NO_ACTION = Action(-1, "play", None, None)
_move_of = attrgetter("move")
_cards_of = attrgetter("cards")
#: play actions made in bulk (see ddzrules.rules.moves.bulk_maker)
_make_actions = bulk_maker(Action, ("seat", "kind", "value", "move"))
#: per seat, the most play actions kept for wild plays (by table position, or by Move when
#: the hand is walked): a wild rank's universe is 450,000-760,000 readings and a long run
#: lists more and more of them, so the actions are dropped (and made again when listed)
#: beyond this (about 130 bytes an action kept, see docs/census-variants.md)
_WILD_ACTIONS_LIMIT = 1 << 18


class _SeatActions(dict[int, Action]):
    """One seat's play actions by position in the variant's listing order, each built
    on first use and then reused (an Action a play, not an Action a play a step);
    ``rev`` gives an action's position back by its id (Game.apply's check)."""

    __slots__ = ("moves", "rev", "seat")

    def __init__(self, seat: int, moves: tuple[Move, ...]) -> None:
        super().__init__()
        self.seat, self.moves = seat, moves
        self.rev: dict[int, int] = {}

    def __missing__(self, pos: int) -> Action:
        m = self.moves[pos]
        action = self[pos] = Action(self.seat, "play", m.cards, m)
        self.rev[id(action)] = pos
        return action


class _WildSeatActions(dict[int, Action]):
    """One seat's play actions for the plays of one wild rank's table, by table position
    (made in bulk by PlayLister.actions for the positions without one); ``rev`` gives
    an action's position back by its id."""

    __slots__ = ("rev", "table")

    def __init__(self, table: Any) -> None:
        super().__init__()
        self.table = table
        self.rev: dict[int, int] = {}

    def clear(self) -> None:
        super().clear()
        self.rev.clear()


def is_listed(action: Action, out: list[Action], proof: Any) -> bool:
    """Whether ``action`` is one of the objects ``out`` (the legal actions listed) holds:
    ``proof`` is (the actions by position, the listed positions ascending), or None (a
    C-level identity scan)."""
    if out and out[-1] is action:  # the pass, or the last play
        return True
    if proof is None:
        return any(map(_is, out, _repeat(action)))
    index, positions = proof
    p = index.rev.get(id(action))
    if p is None or index.get(p) is not action:
        return False
    i = bisect_left(positions, p)
    return i < len(positions) and positions[i] == p


def universe_positions(proof: Any) -> tuple[tuple[Move, ...], list[int]] | None:
    """The plays a listing's ``proof`` (see :func:`is_listed`) holds as positions in the
    variant's fast index: (its Moves in listing order, the positions ascending) when the
    hand was listed there (natural cards), else None (listed another way: wild cards walked
    or by table, a restriction, before the index was built)."""
    if proof is None or type(proof[0]) is not _SeatActions:
        return None
    return proof[0].moves, proof[1]


class PlayLister:
    """The play phase's legal actions of one :class:`GameRules`, made fast: the hand's
    counts go to the variant's lister as they are (no card list to count again), and
    each (seat, play) has one :class:`Action`, built once and reused by every game of
    these rules. Hands holding wild cards go to the wild rank's table when the variant
    reads it (actions by table position: a Move and an Action are made only for plays
    listed for the first time); hands walked with wild cards, hands the variant's table
    does not cover and variants without one go through :meth:`Variant.legal_moves`; the
    plays and their order are the same either way (a hand without wild cards lists its
    natural plays, whatever it answers: what Variant.legal_moves does too)."""

    def __init__(self, variant: Variant, players: int, must_beat: bool) -> None:
        self.variant = variant
        self.must_beat = must_beat
        self.passes = tuple(Action(s, "pass") for s in range(players))
        self._fast: Any = None  # the variant's fast index; False: not usable
        self._by_position: list[_SeatActions] = []
        #: per seat, id(move) -> its action, for plays listed through Variant.legal_moves
        self._by_move: list[dict[int, Action]] = [{} for _ in range(players)]
        #: per seat, wild rank -> its actions by position in that rank's table
        self._by_wild: list[dict[C.WildKey, _WildSeatActions]] = [{} for _ in range(players)]
        #: id(play to beat) -> (that play, the lister's answer function or None for a bomb)
        self._answers: dict[int, tuple[Move, Any]] = {}
        #: (id(play to beat), wild rank) -> (that play, its reading with that wild rank)
        self._wild_prev: dict[tuple[int, C.WildKey], tuple[Move, Move]] = {}
        self._deck = bytes(self.variant.rules.deck)

    def _fast_index(self) -> Any:
        fast = self._fast
        if fast is None:
            # the variant's table of readings in listing order and its MovePlan, once the
            # variant has built it (Variant.legal_moves does after FAST_INDEX_AFTER hands:
            # until then None, and the hands go through it); False when not tabulated
            fast = self.variant.built_fast_index
            if fast is None:
                return None
            if fast is not False and not (hasattr(fast, "plan") and type(getattr(fast, "moves", None)) is tuple):
                fast = False
            self._fast = fast
            if fast is not False:
                self._by_position = [_SeatActions(s, fast.moves) for s in range(len(self.passes))]
                self._keep_actions(fast.moves)
        return fast

    def _keep_actions(self, moves: tuple[Move, ...]) -> None:
        """The actions made before the index was there (by move, through
        Variant.legal_moves) filed under their positions, so that a play stays the very
        same Action object when the lister switches to the index."""
        if not any(self._by_move):
            return
        position = {id(m): i for i, m in enumerate(moves)}
        for seat, table in enumerate(self._by_move):
            index = self._by_position[seat]
            for move_id, action in table.items():
                i = position.get(move_id)
                if i is not None and action.move is moves[i]:
                    index[i] = action
                    index.rev[id(action)] = i

    def positions(self, hand: list[int], prev: Move | None) -> list[int] | None:
        """The positions of the hand's legal plays in the variant's listing order, as
        ``Variant.legal_moves`` lists them; None when this path does not apply."""
        fast = self._fast
        if fast is None:
            fast = self._fast_index()
        if fast is None or fast is False:
            return None
        try:
            raw = bytes(hand)
        except (ValueError, TypeError):
            return None
        if sum(raw) > fast.fits or (int.from_bytes(raw, "little") + fast.over) & fast.high:
            return None  # more cards than the table's plays, or than the deck holds
        order: list[int]
        if prev is None:
            order = fast.plan.lead(raw)
        else:
            known = self._answers.get(id(prev))
            if known is None or known[0] is not prev:
                recipe = None
                if prev.tier < 0:
                    combo = self.variant.combo_index.get(prev.combo)
                    if combo is None:
                        return None
                    recipe = fast.plan.answerer(combo, prev.size, prev.length, prev.rank)
                known = self._answers[id(prev)] = (prev, recipe)
            recipe = known[1]
            if recipe is not None:
                order = recipe(raw)
            else:
                moves = fast.moves
                order = [i for i in fast.plan.bomb_plays(raw) if i >= 0 and moves[i].beats(prev)]
        order.sort()
        if order and order[0] < 0:  # the lister's placeholders for "no reading" sort first
            del order[:bisect_left(order, 0)]
        return order

    def _of_deck(self, hand: list[int]) -> bool:
        """Whether ``hand`` (counts) is a hand of the deck."""
        deck = self._deck
        try:
            return len(hand) == len(deck) and all(map(_le, hand, deck)) and min(hand) >= 0
        except TypeError:
            return False

    def _wild_listing(self, hand: list[int], prev: Move | None, wild: C.WildKey) -> Any:
        """A hand holding wild cards, listed as ``Variant.legal_moves`` lists it: (the wild
        rank's table, the positions in it of the legal plays) when the variant reads the
        table for this query, else its LegalMoves (the hand walked); None when the hand is
        not one of the deck's (Variant.legal_moves says what is wrong with it)."""
        if not self._of_deck(hand):
            return None
        if prev is not None:
            # the play to beat as the variant reads it with this wild rank (the very Move
            # when it is one of its readings), memoised by the play's identity
            known = self._wild_prev.get((id(prev), wild))
            if known is None or known[0] is not prev:
                if len(self._wild_prev) >= MEMO_LIMIT:
                    self._wild_prev.clear()
                known = self._wild_prev[(id(prev), wild)] = (prev, self.variant.reading(prev, wild))
            prev = known[1]
        wilds = self.variant.wild_moves()
        counts = list(hand)
        if type(wild) is tuple:  # several wild ranks: by the first one's table, or walked
            return wilds.legal_moves(counts, prev, wild)
        got = wilds.legal_positions(counts, prev, wild)
        return wilds.legal_moves_enumerated(counts, prev, wild) if got is None else got

    def moves(self, hand: list[int], prev: Move | None, wild: C.WildKey | None) -> tuple[list[Move], bool]:
        """The legal plays of a hand and whether it may pass (Game.legal_moves): :meth:`plays`
        as a list of its own."""
        plays, can_pass = self.plays(hand, prev, wild, lazy=False)
        return list(plays), can_pass

    def plays(self, hand: list[int], prev: Move | None, wild: C.WildKey | None,
              lazy: bool = True) -> tuple[Sequence[Move], bool]:
        """The legal plays as Moves, in the order :meth:`listed` lists their actions, and
        whether it lists a pass (Game.legal_plays): the same paths, no action made. A lead
        holding wild cards is a :class:`~ddzrules.rules.wild.WildLeads` (several wild ranks, or
        one whose table is read), which makes a Move only for a play asked for (unless
        ``lazy`` is False)."""
        moves: Sequence[Move]
        if wild is not None and C.holds_wild(hand, wild):
            if lazy and prev is None and self._of_deck(hand):
                leads = self.variant.wild_moves().lead_plays(list(hand), wild)
                if leads is not None:
                    return leads, False
            got = self._wild_listing(hand, prev, wild)
            if type(got) is tuple:
                moves = tuple(self.variant.wild_moves().moves_at(*got))
                can_pass = prev is not None
            else:
                if got is None:
                    got = self.variant.legal_moves(C.deck_list(hand), after=prev, wild=wild)
                moves, can_pass = tuple(got.moves), got.can_pass
        else:
            order = self.positions(hand, prev)
            if order is not None:
                moves = tuple(map(self._fast.moves.__getitem__, order))
                can_pass = prev is not None
            else:
                lm = self.variant.legal_moves(C.deck_list(hand), after=prev, wild=wild)
                moves, can_pass = tuple(lm.moves), lm.can_pass
        return moves, can_pass and not (self.must_beat and moves)

    def actions(self, seat: int, hand: list[int], prev: Move | None, wild: C.WildKey | None) -> list[Action]:
        """Every legal play and pass of ``seat`` as actions, the same objects every time."""
        return self.listed(seat, hand, prev, wild)[0]

    def listed(self, seat: int, hand: list[int], prev: Move | None,
               wild: C.WildKey | None) -> tuple[list[Action], Any]:
        """:meth:`actions`, and what tells at once whether an object is one of them (see
        :func:`is_listed`)."""
        proof: Any = None
        if wild is not None and C.holds_wild(hand, wild):
            got = self._wild_listing(hand, prev, wild)
            if type(got) is tuple:
                out, proof = self._wild_actions(seat, wild, *got)
                can_pass = prev is not None
            else:
                if got is None:
                    got = self.variant.legal_moves(C.deck_list(hand), after=prev, wild=wild)
                out, can_pass = self._actions_of_moves(seat, got, wild)
        else:
            order = self.positions(hand, prev)
            if order is not None:
                index = self._by_position[seat]
                out = list(map(index.__getitem__, order))
                proof = (index, order)
                can_pass = prev is not None
            else:
                out, can_pass = self._actions_of_moves(
                    seat, self.variant.legal_moves(C.deck_list(hand), after=prev, wild=wild), wild)
        if can_pass and not (self.must_beat and out):
            out.append(self.passes[seat])
        return out, proof

    def _wild_actions(self, seat: int, wild: C.WildKey, table: Any, positions: list[int]) -> tuple[list[Action], Any]:
        """The actions of table positions: those the seat has, and for the others (found
        by C-level passes) their Moves made in bulk and an Action each."""
        by_rank = self._by_wild[seat]
        index = by_rank.get(wild)
        if index is None or index.table is not table:
            index = by_rank[wild] = _WildSeatActions(table)
        out: list[Any] = list(map(index.get, positions))
        if not all(out):  # an Action is always true: None marks a play without one yet
            at = list(compress(range(len(out)), map(_not, out)))
            ps = list(map(positions.__getitem__, at))
            kept = sum(map(len, by_rank.values()))
            if kept + len(ps) > _WILD_ACTIONS_LIMIT:
                for other in by_rank.values():
                    if other is not index:
                        other.clear()
                if len(index) + len(ps) > _WILD_ACTIONS_LIMIT:
                    index.clear()
            moves = self.variant.wild_moves().moves_at(table, ps)
            cards = list(map(_cards_of, moves))
            k = len(moves)
            made = _make_actions([seat] * k, _repeat("play", k), cards, moves)
            any(map(out.__setitem__, at, made))  # C-level stores (each returns None)
            index.update(zip(ps, made))
            index.rev.update(zip(map(id, made), ps))
        return out, (index, positions)

    def _actions_of_moves(self, seat: int, lm: LegalMoves, wild: C.WildKey | None) -> tuple[list[Action], bool]:
        """The actions of the plays of a LegalMoves, by id(move) (each checked to be that
        move's: the action keeps its move alive, so the id is not reused)."""
        table = self._by_move[seat]
        moves = lm.moves
        out = list(map(table.get, map(id, moves), _repeat(_NO_ACTION)))
        # the plays without an action yet, found by C-level passes
        at = list(compress(range(len(out)), map(_is_not, map(_move_of, out), moves)))
        if at:
            if len(table) + len(at) > (_WILD_ACTIONS_LIMIT if wild is not None else MEMO_LIMIT):
                table.clear()
            new = list(map(moves.__getitem__, at))
            k = len(new)
            made = _make_actions([seat] * k, _repeat("play", k), list(map(_cards_of, new)), new)
            any(map(out.__setitem__, at, made))  # C-level stores (each returns None)
            table.update(zip(map(id, new), made))
        return out, lm.can_pass
