"""The game: :class:`GameRules` (a variant and the plugins its spec activates, see
:mod:`ddzrules.game.rules`) and :class:`Game`, its public face: the deal and phases
(:mod:`ddzrules.game.deal`), the tricks (:mod:`ddzrules.game.play`), what plugins write
and the transactions that guard it (:mod:`ddzrules.game.door`), and here the copies,
pickling, the sides and what a seat sees; worlds for a search are
:mod:`ddzrules.game.determinize`'s."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ddzrules.errors import DdzError, SpecError, brief
from ddzrules.game import determinize
from ddzrules.game.climbing import CLIMBING
from ddzrules.game.door import fast_copy
from ddzrules.game.loading import PluginRegistry
from ddzrules.game.play import PlayFlow, PlayRules
from ddzrules.game.rules import ActivatedRules
from ddzrules.game.tables import Table
from ddzrules.game.values import Action, MatchInfo, PlayerView
from ddzrules.rules.moves import Move
from ddzrules.speed.build import python_class
from ddzrules.variant import Variant, load_variant

if TYPE_CHECKING:
    from ddzrules.game.values import GameState, TableRules, World

_new = object.__new__

#: the play rules a spec may name (key ``play``), by name; a caller may add its own
PLAY_RULES: dict[str, PlayRules] = {"climbing": CLIMBING}
#: the play rules of a spec that names none


@python_class  # weakly referenced (simulate caches figures by rules): a Python class compiled
class GameRules(ActivatedRules):
    """A variant plus its activated plugins and its play rules: everything needed to play
    games. ``table`` and ``play_rules``: a table and play rules of the caller's own, in
    place of those the spec names (``table.kind``, ``play``)."""

    def __init__(self, variant: Variant, registry: PluginRegistry | None = None,
                 table: Table | None = None, play_rules: PlayRules | None = None) -> None:
        super().__init__(variant, registry, table)
        #: the rules of the play phase, chosen once here (see PLAY_RULES)
        self.play_rules: PlayRules = play_rules if play_rules is not None else self._named_play_rules()

    def _named_play_rules(self) -> PlayRules:
        name = self.spec.rule_spec.play
        got = PLAY_RULES.get(name)
        if got is None:
            raise SpecError([self.spec.problem(("play",), f"unknown play rules {brief(name)}; known: "
                                                          f"{', '.join(PLAY_RULES)}")])
        return got

    @classmethod
    def load(cls, name_or_path: str, registry: PluginRegistry | None = None) -> GameRules:
        return cls(load_variant(name_or_path), registry)

    def new_game(self, seed: int, match: MatchInfo | None = None, landlord: object = None) -> Game:
        """A game of these rules, dealt from ``seed``. ``landlord`` fixes the landlord at a
        landlord table (DouZero's protocol: no bidding, that seat takes the kitty, stake 1);
        None: the landlord phase the spec's plugins run decides."""
        if landlord is not None:
            if not self.table.has_landlord:
                raise DdzError(f"{self.variant.name} has no landlord ({self.table_kind} table): "
                               "a fixed landlord is for landlord tables")
            if isinstance(landlord, bool) or not isinstance(landlord, int) or not 0 <= landlord < self.players:
                raise DdzError(f"the landlord must be a seat 0-{self.players - 1}, not {brief(landlord)}")
            return Game(self, seed, match or MatchInfo(seed=seed), fixed_landlord=landlord)
        return Game(self, seed, match or MatchInfo(seed=seed))



def _unpickle_game(rules: GameRules, seed: int, match: MatchInfo, state: dict[str, Any]) -> Game:
    return Game(rules, seed, match, state=state)


class Game(PlayFlow[GameRules]):
    """One game: deal (and redeals), landlord phase, declarations, tricks, scoring.

    An action that runs plugin code (:meth:`apply`, :meth:`abandon`) is a transaction:
    when a plugin fails (a :class:`~ddzrules.errors.PluginError`, see :func:`call_plugin`)
    or anything else interrupts it, the game is put back as it was before the action:
    what the runtime changed, the current phase's own state, and what plugins wrote through
    the game's interface (``stake``, ``landlord``, ``public``, ``private``, ``stats``,
    ``pair_factors``, ``shown_hands``, ``events``, ``visible_dealt``, ``face_up``,
    ``request_redeal``, ``rng``), each saved only when first reached, so an action that
    touches none of them costs nothing to guard. ``copy.deepcopy`` (and ``copy.copy``) of
    a game makes an independent game that shares only the rules; a game pickles with its
    rules and plugins (whose classes must be importable where it is unpickled).
    """



    def __init__(self, rules: GameRules, seed: int, match: MatchInfo,
                 state: dict[str, Any] | None = None, fixed_landlord: int | None = None) -> None:
        self.rules = rules
        self._play_rules = rules.play_rules
        #: the landlord fixed before the deal (GameRules.new_game), or None: the plugins choose
        self.fixed_landlord = fixed_landlord if state is None else state.get("fixed_landlord")
        self.variant = rules.variant
        self.players = rules.players
        self.seed = seed
        self.match = match
        #: the seeded generator (plugins use it as ``game.rng``)
        self._rng = random.Random(seed) if state is None else state["rng"]
        #: while an action runs (a transaction): what it must put back if it fails (see _keep)
        self._guarded = False
        self._undo = {}
        self.deal_number = -1
        self.deals = []
        self.history = []
        self.redeal_reasons = []
        self._owners = []
        self._owner = ("", "")
        self.plays_cache = None  # never copied nor pickled: made again when asked for
        if state is not None:  # a copy, or an unpickled game (see _state)
            self._set_state(state)
            return
        self._start_deal()

    def _state(self) -> dict[str, Any]:
        """Everything a game holds besides its rules, seed and match (by reference)."""
        return {
            "rng": self._rng, "deal_number": self.deal_number, "deals": self.deals,
            "history": self.history, "redeal_reasons": self.redeal_reasons, "hands": self.hands,
            "kitty": self.kitty, "undealt": self.undealt, "dealt_order": self.dealt_order,
            "face_up": self._face_up, "landlord": self._landlord, "stake": self._stake, "events": self._events,
            "pair_factors": self._pair_factors, "shown_hands": self._shown_hands,
            "kitty_visible": self.kitty_visible, "public": self._public, "private": self._private,
            "visible_dealt": self._visible_dealt, "stats": self._stats, "escaped": self.escaped,
            "redeal": self._redeal, "played": self.played, "last_play": self.last_play,
            "last_seat": self.last_seat, "passes": self.passes, "winner": self.winner,
            "scores": self.scores, "first_leader": self.first_leader, "wild": self.wild,
            "turn": self.turn, "phases": self._phases, "owners": self._owners, "current": self._current,
            "owner": self._owner, "first_bidder": self.first_bidder, "phase": self.phase,
            "legal_cache": self.legal_cache, "fixed_landlord": self.fixed_landlord,
        }

    def _set_state(self, state: dict[str, Any]) -> None:
        self._rng = state["rng"]
        self.deal_number = state["deal_number"]
        self.deals = state["deals"]
        self.history = state["history"]
        self.redeal_reasons = state["redeal_reasons"]
        self.hands = state["hands"]
        self.kitty = state["kitty"]
        self.undealt = state["undealt"]
        self.dealt_order = state["dealt_order"]
        self._face_up = state["face_up"]
        self._landlord = state["landlord"]
        self._stake = state["stake"]
        self._events = state["events"]
        self._multiple = None
        self._pair_factors = state["pair_factors"]
        self._shown_hands = state["shown_hands"]
        self.kitty_visible = state["kitty_visible"]
        self._public = state["public"]
        self._private = state["private"]
        self._visible_dealt = state["visible_dealt"]
        self._stats = state["stats"]
        self.escaped = state["escaped"]
        self._redeal = state["redeal"]
        self.played = state["played"]
        self.last_play = state["last_play"]
        self.last_seat = state["last_seat"]
        self.passes = state["passes"]
        self.winner = state["winner"]
        self.scores = state["scores"]
        self.first_leader = state["first_leader"]
        self.wild = state["wild"]
        self.turn = state["turn"]
        self._phases = state["phases"]
        self._owners = state["owners"]
        self._current = state["current"]
        self._owner = state["owner"]
        self.first_bidder = state["first_bidder"]
        self.phase = state["phase"]
        self.legal_cache = state.get("legal_cache")

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        """An independent copy sharing only the rules (and the variant and plugin instances):
        each can go on with its own actions, and neither sees the other's."""
        for key, shared in self.rules.shared.items():
            memo.setdefault(key, shared)
        state = self._state()
        copied = Game(self.rules, self.seed, self.match, state=state)  # shares all for a moment
        memo[id(self)] = copied  # phases that refer to this game refer to the copy
        rng = random.Random(0)  # seeded from 0, not from the OS (costly), then given the state
        rng.setstate(self._rng.getstate())
        # the listed actions are the shared rules' own objects, never changed: shared too
        state = {key: value if key == "legal_cache" else fast_copy(value, memo)
                 for key, value in state.items() if key != "rng"}
        state["rng"] = rng
        copied._set_state(state)
        return copied

    def __copy__(self) -> Game:
        """As ``copy.deepcopy``: a game that shared its hands and history with another would
        corrupt both."""
        return self.__deepcopy__({})

    def copy(self) -> Game:
        """An independent copy (``copy.deepcopy``): it shares only the rules, and each game
        goes on with its own actions. What a search clones at every node."""
        return self.__deepcopy__({})

    def __reduce__(self) -> tuple[Any, ...]:
        state = self._state()
        state["legal_cache"] = None  # the rules' listed actions: listed again after unpickling
        return _unpickle_game, (self.rules, self.seed, self.match, state)

    def known_cards(self, s: int, seat: int) -> list[int]:
        """The cards of seat ``s``'s hand that ``seat`` knows are there, by rank (see
        :func:`ddzrules.game.determinize.known_cards`)."""
        return determinize.known_cards(self, s, seat)

    def hidden_from(self, seat: int) -> tuple[list[int], list[tuple[str, int, int]]]:
        """What ``seat`` cannot see of the cards: the pool of hidden cards (counts by rank)
        and the places they fill (see :func:`ddzrules.game.determinize.hidden_from`)."""
        return determinize.hidden_from(self, seat)

    def determinized(self, seat: int, rng: random.Random) -> Game:
        """A copy of this game in which the cards ``seat`` cannot see (:meth:`hidden_from`)
        are dealt again at random among the places they could be, each keeping its size,
        and what only the others know is forgotten (their private facts, the deal's order):
        one world consistent with all ``seat`` knows; its generator, for the chance still
        to come, is drawn from ``rng`` too. Games ``seat`` cannot tell apart give the same
        world for the same ``rng`` state, so a search over such worlds cannot use what
        ``seat`` does not know.

        >>> rules = GameRules.load("hubei-3p")
        >>> game = rules.new_game(seed=7)
        >>> world = game.determinized(0, random.Random(1))
        >>> world.hands[0] == game.hands[0], list(map(sum, world.hands)) == list(map(sum, game.hands))
        (True, True)
        """
        world = self.__deepcopy__({})
        determinize.deal_world(self, world, seat, rng)
        world.legal_cache = None  # listed for the cards of the real game
        return world

    # the climbing rules' own listings and plays by card string (CLIMBING: the default
    # play rules, which every bundled spec plays)
    def legal_moves(self) -> tuple[list[Move], bool]:
        """In the play phase: the legal plays of the seat to act and whether it may pass
        (never when ``table.must_beat`` and a play beats; restrictions not applied)."""
        return CLIMBING.legal_moves(self)

    def legal_plays(self) -> tuple[Sequence[Move], bool]:
        """In the play phase: the plays :meth:`legal_actions` lists, as their Moves in the
        same order, and whether it lists a pass; the ``rules:`` plugins' restrictions
        applied. No action is made per play (a search's rollouts list at every step, and a
        hand with wild cards has hundreds of plays). The plays are an immutable sequence:
        a tuple, or for a lead of several wild ranks (天地癞子, thousands of plays) a
        :class:`~ddzrules.rules.wild.WildLeads`, which makes each Move only when asked for it
        and gives a policy each play's size, rank and cards without one. A play of this
        listing applied as ``Action(seat, "play", move.cards, move)`` with the very Move,
        or a pass when it is allowed, is not checked again, as an action
        :meth:`legal_actions` listed is not.

        >>> game = GameRules.load("hubei-3p").new_game(seed=1, landlord=0)
        >>> moves, can_pass = game.legal_plays()
        >>> [a.move for a in game.legal_actions()] == list(moves), can_pass
        (True, False)
        """
        return CLIMBING.legal_plays(self)

    def legal_listing(self) -> tuple[list[Action], tuple[tuple[Move, ...], list[int]] | None]:
        """:meth:`legal_actions`, and where the plays among them were listed in the
        variant's fast index (:attr:`Variant.built_fast_index`) the index's Moves in listing
        order with the positions of those plays, ascending (the pass, when legal, is the
        last action and has no position); else None (outside the play phase, wild cards
        held, a plugin's restriction, the index not built yet). For callers that map plays
        to ids of their own in bulk (the batched environment)."""
        return CLIMBING.legal_listing(self)

    def play(self, seat: int, cards: str | None) -> Move | None:
        """Convenience for people and tests: play a card string (or pass with None)."""
        return CLIMBING.play(self, seat, cards)

    def explain_illegal(self, seat: int, cards: str) -> None:
        """Raise the PlayError saying why ``cards`` cannot be played by ``seat`` now."""
        CLIMBING.explain_illegal(self, seat, cards)

    def side_of(self, seat: int) -> tuple[int, ...]:
        """The seats on ``seat``'s side, itself included: the landlord alone or the farmers
        (once the landlord is known), a fixed team, or the seat alone (free-for-all): as
        the table says (:class:`~ddzrules.game.tables.Table`)."""
        return self.rules.table.side_of(self, seat)

    def partners(self, seat: int) -> tuple[int, ...]:
        """The other seats on ``seat``'s side (empty before the sides are known)."""
        return self.rules.table.partners(self, seat)

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats of the winning side (the side of the first player out); () until then."""
        return () if self.winner is None else self.side_of(self.winner)

    @property
    def landlord_won(self) -> bool | None:
        """Whether the landlord's side won (None: not over, or a table without a landlord)."""
        landlord = self.landlord
        if self.winner is None or landlord is None:
            return None
        return self.winner == landlord

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may see: its own hand, shown kitty and hands, all plays.

        A snapshot: it shows this moment however the game goes on. Its ``history`` and
        ``played`` are copied when first read (see :class:`PlayerView`)."""
        played, history, phase = self.played, self.history, self.phase
        hands = tuple(map(bytes, self.hands))  # copies: the lazy fields show this moment
        kitty = bytes(self.kitty) if self.kitty_visible else None
        view = _new(PlayerView)  # its fields set at once, not through the dataclass __init__
        view.__dict__ = {
            "seat": seat, "phase": phase, "landlord": self._landlord,
            "to_act": None if phase == "over" else self.turn,
            "stake": self._stake, "multiple": self.multiple if self._events else 1.0,
            "shown_hands": {s: self.seen_hand(s) for s in self._shown_hands if s != seat} if self._shown_hands else {},
            "last_play": self.last_play, "last_seat": self.last_seat,
            "extra": dict(self._public), "private": dict(self._private[seat]),
            "partners": self.rules.table.partners(self, seat),
            "_lazy": (history, len(history), played, tuple(map(len, played)), hands, kitty),
            "_world": (self, len(history)),  # what sample_world copies (see PlayerView)
        }
        if kitty is None:
            view.__dict__["kitty"] = None
        if self._visible_dealt is not None:  # 明牌 while dealing: the part dealt so far
            view.__dict__["hand"] = self.seen_hand(seat)
        return view


if TYPE_CHECKING:  # the type checker holds Game and GameRules to the faces the hooks' contracts show
    _game_face: type[GameState] = Game
    _world_face: type[World] = Game
    _rules_face: type[TableRules] = GameRules
