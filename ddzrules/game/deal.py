"""The deal and the phases around the tricks: dealing (and redealing), the landlord
phase, the declarations, the start of the tricks, the end (a player out, an escape) and
its scores. Built on :class:`~ddzrules.game.door.GameRecord`; the tricks are
:class:`~ddzrules.game.play.PlayFlow`'s."""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from ddzrules import cards as C
from ddzrules.errors import DdzError, PlayError, PluginError, brief
from ddzrules.game.checks import NO_CONTEXT, PHASE_CHECKS
from ddzrules.game.door import GameRecord, call_plugin
from ddzrules.game.rules import MAX_REDEALS, ActivatedRules
from ddzrules.game.values import Action, Phase

#: the rules a game is made of (GameRules, for a Game): generic, not a narrower attribute in
#: the subclass, which the compiled build refuses
RulesT_co = TypeVar("RulesT_co", bound=ActivatedRules, covariant=True)


class DealFlow(GameRecord, Generic[RulesT_co]):
    """A game's deal and its phases before and after the tricks."""

    rules: RulesT_co

    def _copy_memo(self) -> dict[int, Any]:
        memo = dict(self.rules.shared)
        memo[id(self)] = self
        return memo

    def _start_deal(self) -> None:
        if self._guarded:  # a redeal inside an action: what it replaces, to put back
            self._keep_deal()
        self.deal_number += 1
        if self.deal_number > MAX_REDEALS:
            raise DdzError(f"no landlord after {MAX_REDEALS} redeals")
        self._landlord = None
        self._stake = 0
        self._events = []
        self._multiple = None
        self._pair_factors = {}
        self._shown_hands = set()
        self.kitty_visible = False
        self._public = {}
        self._private = {s: {} for s in range(self.players)}
        self._visible_dealt = None
        self._stats = {}
        self.escaped = None
        self._redeal = None
        self.played = [[] for _ in range(self.players)]
        self.last_play = None
        self.last_seat = None
        self.passes = 0
        self.winner = None
        self.scores = None
        self.first_leader = None
        self.legal_cache = None
        self.turn = None
        self._phases = []
        self._owners = []
        self._current = None
        self.first_bidder = 0
        # the deal last: a deal: plugin is called as any plugin is, on a game reset for it
        deck = C.deck_list(self.variant.rules.deck)
        # the check compares with the deck itself, not the list the plugin may have changed
        dealt = self.rules.hooks["ddzrules_deal"].pairs({"deck": tuple(deck)}, game=self, deck=list(deck))
        if not dealt:  # the usual deal: shuffled
            self._rng.shuffle(deck)
        else:  # a deal: plugin's order (checked: the deck's cards)
            deck = dealt[0][1]
        n, h, k = self.players, self.rules.hand_size, self.rules.kitty_size
        self.hands = [C.counts_of(deck[i * h:(i + 1) * h]) for i in range(n)]
        self.kitty = C.counts_of(deck[n * h:n * h + k])
        self.undealt = C.counts_of(deck[n * h + k:])
        self.dealt_order = deck
        self._face_up = None
        self.deals.append({"hands": [C.counts_to_string(x) for x in self.hands],
                           "kitty": C.counts_to_string(self.kitty)})
        table = self.rules.table
        self.phase = table.first_phase
        self.wild = None
        self._draw_wild("ddzrules_wild_rank")
        opening = table.opening(self, self.rules.hooks)  # the table's own phases (the landlord's)
        if opening:
            self._phases = [phase for phase, _ in opening]
            self._owners = [owner for _, owner in opening]
        else:  # declarations, then tricks
            self.phase = "declare"
            self._phases, self._owners = self._declaration_phases()
        if not self._next_phase():
            self._start_play()
            return
        self._advance()

    def _declaration_phases(self) -> tuple[list[Phase], list[tuple[str, str]]]:
        """The declaration phases in the spec's order, and the plugin (and hook) of each."""
        hook = self.rules.hooks["ddzrules_declaration_phases"]
        answers: list[tuple[str, list[Phase]]] = hook.pairs(game=self)
        phases: list[Phase] = []
        owners: list[tuple[str, str]] = []
        # pluggy calls the last-registered plugin first; the spec's order is the reverse
        for label, made in reversed(answers):
            for phase in made:
                phases.append(phase)
                owners.append((label, hook.name))
        return phases, owners

    def _next_phase(self) -> bool:
        """The next phase of _phases becomes the current one (None when there is none);
        whether there is one. (Callers test this answer, not ``self._current``: just after
        ``self._current = None`` the type checker, and so the compiled build, would take
        the attribute to be None still.)"""
        if self._phases:
            self._current = self._phases.pop(0)
            self._owner = self._owners.pop(0)
            return True
        self._current = None
        self._owner = ("", "")
        return False

    def _phase_call(self, method: str, *args: Any) -> Any:
        """Call a method of the current phase (plugin code) through call_plugin, its answer
        checked as a hook's is (PHASE_CHECKS)."""
        phase = self._current
        plugin, hook = self._owner
        context = {"seat": self.turn} if method == "options" else NO_CONTEXT
        return call_plugin(self, plugin, hook, getattr(phase, method), [self, *args],
                           PHASE_CHECKS[method], context, method)

    def _start_play(self) -> None:
        """The tricks begin: ``ddzrules_first_leader`` names who leads (default: the
        landlord, or seat 0 at a table without one)."""
        self.phase = "play"
        self._current = None
        leader = self.rules.hooks["ddzrules_first_leader"].one(game=self)  # checked: a seat
        if leader is None:
            landlord = self.landlord
            leader = landlord if landlord is not None else 0
        self.first_leader = leader
        self.turn = leader

    def _advance(self) -> None:
        """Move to the next phase when the current one is over."""
        while self._current is not None:
            seat = self._phase_call("to_act")
            if seat is not None:
                self.turn = seat
                return
            if self._redeal is not None:
                if self.deal_number >= MAX_REDEALS:  # a phase that asks for deals for ever
                    plugin, hook = self._owner
                    raise PluginError(plugin, hook, f"its phase asked for a redeal after {MAX_REDEALS} "
                                                    "redeals, the most a game takes")
                self.redeal_reasons.append(self._redeal)
                self.history.append(Action(-1, "redeal", self._redeal))
                self._start_deal()
                return
            if self.phase != "declare":  # the table's own phases are over (the landlord's)
                ended = self._current
                assert ended is not None
                self.rules.table.opening_over(self, ended, self._owner)
                self.phase = "declare"
                self._phases, self._owners = self._declaration_phases()
            if not self._next_phase():
                self._start_play()
                return
        return

    def give_kitty(self) -> None:
        """The landlord takes the kitty (a landlord table's step, see
        :class:`~ddzrules.game.tables.LandlordTable`); then 地癞子, the wild ranks drawn
        once the landlord is known (``ddzrules_landlord_wild_rank``)."""
        landlord = self.landlord
        assert landlord is not None
        hand = self.hands[landlord]
        if self._guarded and "kitty" not in self._undo:
            self._undo["kitty"] = (hand, list(hand), self.kitty_visible, self.wild)
        for r, c in enumerate(self.kitty):
            hand[r] += c
        self.kitty_visible = self.rules.kitty_shown
        if self.rules.wild_later:
            self._draw_wild("ddzrules_landlord_wild_rank")

    def _draw_wild(self, hook: str) -> None:
        """Add the wild ranks a wildcards hook draws now (checked: ranks a wild card may be,
        none wild yet) to ``wild`` and to the public view (in the order drawn)."""
        drawn = self.rules.hooks[hook].one(game=self)
        if not drawn:
            return
        ranks = tuple(sorted((*C.wild_tuple(self.wild), *drawn)))
        self.wild = ranks[0] if len(ranks) == 1 else ranks
        public = self.public  # kept for a rollback when inside an action
        shown = public.get("wild")
        public["wild"] = ",".join([*([shown] if shown else []), *(C.RANKS[r] for r in drawn)])

    def abandon(self, seat: int) -> None:
        """逃跑: ``seat`` leaves the game; the escape rule of the settlement charges him.

        Raises PlayError (state unchanged) when the game is over or the variant has
        no escape rule.
        """
        if self.phase == "over":
            raise PlayError("the game is over")
        if isinstance(seat, bool) or type(seat) is not int or not 0 <= seat < self.players:
            raise PlayError(f"no seat {brief(seat)}")
        if not self.rules.hook.ddzrules_settle_escape.get_hookimpls():
            raise PlayError(f"{self.variant.name} has no escape rule")
        saved = self._begin()
        try:
            self.escaped = seat
            self.history.append(Action(seat, "escape"))
            self.phase = "over"
            self.turn = None
            scores = self.rules.hooks["ddzrules_settle_escape"].one(game=self, seat=seat)  # checked
            self.scores = scores if scores is not None else [0] * self.players
        except BaseException:
            self._rollback(saved)
            raise
        finally:
            self._end()

    def _finish(self, seat: int) -> None:
        self.winner = seat
        self.phase = "over"
        self.turn = None
        hooks = self.rules.hooks
        for events in hooks["ddzrules_on_game_end"](game=self):
            if events:
                self._add_events(events)
        hook = hooks["ddzrules_settle"]
        scores = hook.one(game=self)  # checked: one integer per seat
        if scores is None:  # GameRules checks that a settlement plugin exists: it answered None
            raise PluginError(hook.owners(), hook.name, "answered no scores (None)")
        self.scores = scores

    def next_seat(self, seat: int) -> int:
        return self.rules.next_seat(seat)

    def _deal_start(self) -> int:
        """Where the last deal's actions begin in the history (after its last redeal marker)."""
        for i in range(len(self.history) - 1, -1, -1):
            if self.history[i].kind == "redeal":
                return i + 1
        return 0

    def gathered_cards(self) -> tuple[int, ...]:
        """The cards of this game gathered as a table picks them up for a deal that does not
        shuffle (不洗牌): every play of the last deal in the order it was made (each play's
        cards low to high), then each seat's cards left in hand (seat 0 first, low to high),
        then the kitty if nobody took it and the cards never dealt. As rank indices; the
        next game of a match gets them as ``MatchInfo.previous_cards``."""
        out: list[int] = []
        for action in self.history[self._deal_start():]:
            if action.kind == "play" and action.move is not None:
                out += C.parse_ranks(action.move.cards)
        for hand in self.hands:
            out += C.deck_list(hand)
        rest = C.deck_list(self.undealt)
        if len(out) + len(rest) < sum(self.variant.rules.deck):  # the kitty, never taken
            out += C.deck_list(self.kitty)
        return tuple(out + rest)

    def seen_hand(self, seat: int) -> str:
        """A hand as far as it has been dealt (all of it, except while deciding 明牌
        before or during the deal)."""
        seen = self.visible_dealt
        if seen is None:
            return self.hand_string(seat)
        h = self.rules.hand_size
        return C.counts_to_string(C.counts_of(self.dealt_order[seat * h: seat * h + seen]))
