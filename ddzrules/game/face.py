"""The face a game shows of its state: :class:`GameFace`, the base of
:class:`~ddzrules.game.game.Game`. Each field of the game's
:class:`~ddzrules.game.state.State` reads and sets as the game's own (``game.hands`` is
``game.state.hands``); what plugin code may change in place joins the running
transaction's snapshot when first reached (:mod:`ddzrules.game.transaction`), and a value
plugin code sets is checked when set (:class:`~ddzrules.errors.WriteRefused`).

A value plugin code sets arrives as whatever it is (the setters take ``object``): in the
compiled build a typed setter would raise its own TypeError before the check could say
which value is wrong."""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING, Any, Protocol

from ddzrules import cards as C
from ddzrules.errors import WriteRefused, brief
from ddzrules.game import transaction
from ddzrules.game.checks import FACTOR_LIMIT, number_problem
from ddzrules.game.state import GameCore
from ddzrules.game.values import Action, MatchInfo, MultiplierEvent, counts_string
from ddzrules.rules.moves import Move
from ddzrules.variant import Variant

if TYPE_CHECKING:
    from ddzrules.game.rules import ActivatedRules


class GameFace(GameCore):
    """A game's rules and state, shown: its fields, and what plugin code may write of them,
    guarded. :class:`~ddzrules.game.game.Game` adds the flow and the copies."""

    rules: ActivatedRules
    variant: Variant
    players: int
    #: the rules of the play phase, chosen once when the rules are made
    play_rules: PlayRules

    # ------------------------------------------------------------------ the state's fields
    # written out, not made in a loop: the compiled build makes them native getters and
    # setters, which compiled callers (the env, the flow) reach without a lookup
    @property
    def seed(self) -> int:
        return self.state.seed

    @seed.setter
    def seed(self, value: int) -> None:
        self.state.seed = value

    @property
    def match(self) -> MatchInfo:
        return self.state.match

    @match.setter
    def match(self, value: MatchInfo) -> None:
        self.state.match = value

    @property
    def fixed_landlord(self) -> int | None:
        return self.state.fixed_landlord

    @fixed_landlord.setter
    def fixed_landlord(self, value: int | None) -> None:
        self.state.fixed_landlord = value

    @property
    def deal_number(self) -> int:
        return self.state.deal_number

    @deal_number.setter
    def deal_number(self, value: int) -> None:
        self.state.deal_number = value

    @property
    def deals(self) -> list[dict[str, Any]]:
        return self.state.deals

    @deals.setter
    def deals(self, value: list[dict[str, Any]]) -> None:
        self.state.deals = value

    @property
    def history(self) -> list[Action]:
        return self.state.history

    @history.setter
    def history(self, value: list[Action]) -> None:
        self.state.history = value

    @property
    def redeal_reasons(self) -> list[str]:
        return self.state.redeal_reasons

    @redeal_reasons.setter
    def redeal_reasons(self, value: list[str]) -> None:
        self.state.redeal_reasons = value

    @property
    def hands(self) -> list[list[int]]:
        return self.state.hands

    @hands.setter
    def hands(self, value: list[list[int]]) -> None:
        self.state.hands = value

    @property
    def kitty(self) -> list[int]:
        return self.state.kitty

    @kitty.setter
    def kitty(self, value: list[int]) -> None:
        self.state.kitty = value

    @property
    def undealt(self) -> list[int]:
        return self.state.undealt

    @undealt.setter
    def undealt(self, value: list[int]) -> None:
        self.state.undealt = value

    @property
    def dealt_order(self) -> list[int]:
        return self.state.dealt_order

    @dealt_order.setter
    def dealt_order(self, value: list[int]) -> None:
        self.state.dealt_order = value

    @property
    def kitty_visible(self) -> bool:
        return self.state.kitty_visible

    @kitty_visible.setter
    def kitty_visible(self, value: bool) -> None:
        self.state.kitty_visible = value

    @property
    def escaped(self) -> int | None:
        return self.state.escaped

    @escaped.setter
    def escaped(self, value: int | None) -> None:
        self.state.escaped = value

    @property
    def played(self) -> list[list[Move]]:
        return self.state.played

    @played.setter
    def played(self, value: list[list[Move]]) -> None:
        self.state.played = value

    @property
    def last_play(self) -> Move | None:
        return self.state.last_play

    @last_play.setter
    def last_play(self, value: Move | None) -> None:
        self.state.last_play = value

    @property
    def last_seat(self) -> int | None:
        return self.state.last_seat

    @last_seat.setter
    def last_seat(self, value: int | None) -> None:
        self.state.last_seat = value

    @property
    def passes(self) -> int:
        return self.state.passes

    @passes.setter
    def passes(self, value: int) -> None:
        self.state.passes = value

    @property
    def winner(self) -> int | None:
        return self.state.winner

    @winner.setter
    def winner(self, value: int | None) -> None:
        self.state.winner = value

    @property
    def scores(self) -> list[int] | None:
        return self.state.scores

    @scores.setter
    def scores(self, value: list[int] | None) -> None:
        self.state.scores = value

    @property
    def first_leader(self) -> int | None:
        return self.state.first_leader

    @first_leader.setter
    def first_leader(self, value: int | None) -> None:
        self.state.first_leader = value

    @property
    def wild(self) -> int | tuple[int, ...] | None:
        return self.state.wild

    @wild.setter
    def wild(self, value: int | tuple[int, ...] | None) -> None:
        self.state.wild = value

    @property
    def turn(self) -> int | None:
        return self.state.turn

    @turn.setter
    def turn(self, value: int | None) -> None:
        self.state.turn = value

    @property
    def first_bidder(self) -> int:
        return self.state.first_bidder

    @first_bidder.setter
    def first_bidder(self, value: int) -> None:
        self.state.first_bidder = value

    @property
    def phase(self) -> str:
        return self.state.phase

    @phase.setter
    def phase(self, value: str) -> None:
        self.state.phase = value

    # ------------------------------------------------------------------ what plugins change in place
    # kept for the running transaction when first reached (transaction.keep)
    @property
    def public(self) -> dict[str, Any]:
        """Public facts plugins publish (every view shows them)."""
        if self.undo is not None:
            transaction.keep(self, "public")
        return self.state.public

    @public.setter
    def public(self, value: dict[str, Any]) -> None:
        if self.undo is not None:
            transaction.keep(self, "public")
        self.state.public = value

    @property
    def private(self) -> dict[int, dict[str, Any]]:
        """Per seat, facts only that seat may see (黄金眼 …)."""
        if self.undo is not None:
            transaction.keep(self, "private")
        return self.state.private

    @private.setter
    def private(self, value: dict[int, dict[str, Any]]) -> None:
        if self.undo is not None:
            transaction.keep(self, "private")
        self.state.private = value

    @property
    def stats(self) -> dict[str, int | float]:
        """Per-game statistics that ``simulate`` averages (see :meth:`count`)."""
        if self.undo is not None:
            transaction.keep(self, "stats")
        return self.state.stats

    @stats.setter
    def stats(self, value: dict[str, int | float]) -> None:
        if self.undo is not None:
            transaction.keep(self, "stats")
        self.state.stats = value

    @property
    def pair_factors(self) -> dict[int, int | float]:
        """Per farmer, the factor of his settlement with the landlord (加倍, 加棒)."""
        if self.undo is not None:
            transaction.keep(self, "pair_factors")
        return self.state.pair_factors

    @pair_factors.setter
    def pair_factors(self, value: dict[int, int | float]) -> None:
        if self.undo is not None:
            transaction.keep(self, "pair_factors")
        self.state.pair_factors = value

    @property
    def shown_hands(self) -> set[int]:
        """The seats whose hands are shown to everyone (明牌, 亮牌)."""
        if self.undo is not None:
            transaction.keep(self, "shown_hands")
        return self.state.shown_hands

    @shown_hands.setter
    def shown_hands(self, value: set[int]) -> None:
        if self.undo is not None:
            transaction.keep(self, "shown_hands")
        self.state.shown_hands = value

    @property
    def events(self) -> list[MultiplierEvent]:
        """The multiplier events so far (see :attr:`multiple`)."""
        if self.undo is not None:
            transaction.keep(self, "events")
        return self.state.events

    @events.setter
    def events(self, value: list[MultiplierEvent]) -> None:
        if self.undo is not None:
            transaction.keep(self, "events")
        self.state.events = value

    # ------------------------------------------------------------------ what plugins set, checked
    @property
    def rng(self) -> random.Random:
        """The game's seeded random generator, the only randomness a plugin may use."""
        if self.undo is not None:
            transaction.keep(self, "rng")
        return self.state.rng

    @rng.setter
    def rng(self, value: object) -> None:
        if not isinstance(value, random.Random):
            raise WriteRefused(f"set game.rng to {brief(value)}, not a random.Random")
        if self.undo is not None:
            transaction.keep(self, "rng")
        self.state.rng = value

    @property
    def stake(self) -> int | float:
        """The base score (叫分: the winning bid), set by the landlord phase."""
        return self.state.stake

    @stake.setter
    def stake(self, value: object) -> None:
        if type(value) is not int or not 0 <= value <= FACTOR_LIMIT:
            problem = number_problem(value, zero_ok=True)
            if problem is not None:
                raise WriteRefused(f"set game.stake to {problem}")
        self._set("stake", value)

    @property
    def landlord(self) -> int | None:
        """The landlord's seat, once the landlord phase has named him."""
        return self.state.landlord

    @landlord.setter
    def landlord(self, value: object) -> None:
        if value is not None and (type(value) is not int or not 0 <= value < self.players):
            raise WriteRefused(f"set game.landlord to {brief(value)}, not a seat 0-{self.players - 1}")
        self._set("landlord", value)

    @property
    def visible_dealt(self) -> int | None:
        """While set, each seat sees only this many of its dealt cards (明牌 before/during the deal)."""
        return self.state.visible_dealt

    @visible_dealt.setter
    def visible_dealt(self, value: object) -> None:
        if value is not None and (type(value) is not int or not 0 <= value <= self.rules.hand_size):
            raise WriteRefused(f"set game.visible_dealt to {brief(value)}, not a number of cards "
                               f"0-{self.rules.hand_size} (or None)")
        self._set("visible_dealt", value)

    @property
    def face_up(self) -> tuple[int, int] | None:
        """(seat, rank) of a card turned face up in the deal, if any."""
        return self.state.face_up

    @face_up.setter
    def face_up(self, value: object) -> None:
        if value is not None and not (type(value) is tuple and len(value) == 2
                                      and all(type(v) is int for v in value)):
            raise WriteRefused(f"set game.face_up to {brief(value)}, not (seat, rank) (or None)")
        self._set("face_up", value)

    def _set(self, name: str, value: object) -> None:
        if self.undo is not None:
            transaction.keep(self, name)
        setattr(self.state, name, value)

    def request_redeal(self, reason: str) -> None:
        """Called by a landlord phase: nobody takes the landlord; deal again."""
        self._set("redeal", reason)

    def add_event(self, event: MultiplierEvent) -> None:
        """Record a multiplier event (checked when the plugin code that adds it returns)."""
        self.events.append(event)

    def add_events(self, events: list[MultiplierEvent]) -> None:
        """Record events a hook answered (already checked)."""
        if self.undo is not None:
            transaction.keep(self, "events")
        self.state.events.extend(events)

    def count(self, stat: str, amount: object = 1) -> None:
        """Add to a per-game statistic that ``simulate`` averages (robs, 明牌, bean flow …);
        ``amount`` is a finite int or float (ValueError otherwise: an average would be
        poisoned)."""
        if isinstance(amount, bool) or not isinstance(amount, (int, float)) \
                or (isinstance(amount, float) and not math.isfinite(amount)):
            raise ValueError(f"game.count({brief(stat)}, ...) takes a finite number, not {brief(amount)}")
        stats = self.stats
        stats[stat] = stats.get(stat, 0) + amount

    @property
    def multiple(self) -> float:
        """The product of all multiplier events (per group, only the largest)."""
        events = tuple(self.state.events)
        memo = self.multiple_memo
        if memo is not None and memo[0] == events:  # the same events (asked at every view)
            return memo[1]
        m = 1.0
        groups: dict[str, float] = {}
        for e in events:
            if e.group:
                groups[e.group] = max(groups.get(e.group, 0.0), e.factor)
            else:
                m *= e.factor
        for factor in groups.values():
            m *= factor
        self.multiple_memo = (events, m)
        return m

    # ------------------------------------------------------------------ the kitty and wild ranks
    def give_kitty(self) -> None:
        """The landlord takes the kitty (a landlord table's step, see
        :class:`~ddzrules.game.tables.LandlordTable`); then 地癞子, the wild ranks drawn
        once the landlord is known (``ddzrules_landlord_wild_rank``)."""
        s = self.state
        landlord = s.landlord
        assert landlord is not None
        hand = s.hands[landlord]
        transaction.keep_kitty(self, hand)
        for r, c in enumerate(s.kitty):
            hand[r] += c
        s.kitty_visible = self.rules.kitty_shown
        if self.rules.wild_later:
            self.draw_wild("ddzrules_landlord_wild_rank")

    def draw_wild(self, hook: str) -> None:
        """Add the wild ranks a wildcards hook draws now (checked: ranks a wild card may be,
        none wild yet) to ``wild`` and to the public view (in the order drawn)."""
        drawn = self.rules.hooks[hook].one(game=self)
        if not drawn:
            return
        s = self.state
        ranks = tuple(sorted((*C.wild_tuple(s.wild), *drawn)))
        s.wild = ranks[0] if len(ranks) == 1 else ranks
        public = self.public  # through the face: kept for a rollback when inside an action
        shown = public.get("wild")
        public["wild"] = ",".join([*([shown] if shown else []), *(C.RANKS[r] for r in drawn)])

    def hand_string(self, seat: int) -> str:
        return counts_string(self.state.hands[seat])

    def hand_counts(self, seat: int) -> list[int]:
        return self.state.hands[seat]

    def next_seat(self, seat: int) -> int:
        return self.rules.next_seat(seat)


class PlayRules(Protocol):
    """What the runtime asks of the rules of the play phase (the play-rules seam). The seat
    to act is ``game.turn`` (who leads first: the leader plugin, else the landlord, else
    seat 0); the rules keep the trick in the game's state (``last_play``, ``last_seat``,
    ``passes``), record each action in its ``history``, and end each play with
    :func:`ddzrules.game.play.after_play`, which runs the plugins and asks
    :meth:`winner_after`."""

    #: the name a spec gives them (key ``play``)
    name: str

    def legal_actions(self, game: GameFace) -> list[Action]:
        """The legal actions of the seat to act (``game.turn``)."""
        ...

    def apply(self, game: GameFace, action: Action) -> None:
        """Apply an action of the seat to act; PlayError, nothing changed, unless legal."""
        ...

    def winner_after(self, game: GameFace, seat: int) -> int | None:
        """After ``seat``'s play (its plugins run): the winner when the game is over, else None."""
        ...
