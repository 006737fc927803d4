"""The game: :class:`GameRules` (a variant and the plugins its spec activates, see
:mod:`ddzrules.game.rules`) and :class:`Game`, one game's public face: its rules and its
:class:`~ddzrules.game.state.State` (plain data), moved on by the flow's functions (the
deal and phases, :mod:`ddzrules.game.deal`; the turns, :mod:`ddzrules.game.play`) in
transactions (:mod:`ddzrules.game.transaction`); here the copies, pickling, the sides and
what a seat sees; worlds for a search are :mod:`ddzrules.game.determinize`'s."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

from ddzrules.errors import DdzError, SpecError, brief
from ddzrules.game import deal, determinize, play
from ddzrules.game.climbing import CLIMBING
from ddzrules.game.face import GameFace, PlayRules
from ddzrules.game.loading import PluginRegistry
from ddzrules.game.rules import ActivatedRules
from ddzrules.game.state import State, copy_state
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


def _unpickle_game(rules: GameRules, state: State) -> Game:
    return Game(rules, state=state)


class Game(GameFace):
    """One game: its rules and its :class:`~ddzrules.game.state.State`, and the face
    through which people, bots and plugins see and move it: deal (and redeals), landlord
    phase, declarations, tricks, scoring. The state's fields read as the game's own
    (``game.hands`` is ``game.state.hands``).

    An action that runs plugin code (:meth:`apply`, :meth:`abandon`) is a transaction:
    when a plugin fails (a :class:`~ddzrules.errors.PluginError`, see
    :func:`~ddzrules.game.door.call_plugin`) or anything else interrupts it, the game is
    put back as it was before the action (:mod:`ddzrules.game.transaction`). What plugin
    code sets is checked when set (``stake``, ``landlord``, ``visible_dealt``,
    ``face_up``: :class:`~ddzrules.errors.WriteRefused`). ``copy.deepcopy`` (and
    ``copy.copy``) of a game makes an independent game that shares only the rules; a game
    pickles with its rules and plugins (whose classes must be importable where it is
    unpickled).
    """


    def __init__(self, rules: GameRules, seed: int = 0, match: MatchInfo | None = None,
                 state: State | None = None, fixed_landlord: int | None = None) -> None:
        self.rules = rules
        self.variant = rules.variant
        self.players = rules.players
        self.play_rules = rules.play_rules
        self.undo = None
        self.legal_cache = None
        self.plays_cache = None  # never copied nor pickled: made again when asked for
        self.multiple_memo = None
        self.shared = rules.shared
        if state is not None:  # a copy, or an unpickled game
            self.state = state
            return
        self.state = State(seed, match if match is not None else MatchInfo(seed=seed), random.Random(seed),
                           fixed_landlord)
        deal.start_deal(self)

    # ------------------------------------------------------------------ the flow
    @property
    def over(self) -> bool:
        return self.state.phase == "over"

    @property
    def to_act(self) -> int | None:
        s = self.state
        return None if s.phase == "over" else s.turn

    @property
    def leading(self) -> bool:
        s = self.state
        return s.phase == "play" and s.last_play is None

    def legal_actions(self) -> list[Action]:
        """Every legal action of the seat to act (plays, passes, bids, declarations); in the
        play phase, as the ``rules:`` plugins restrict them (ddzrules_restrict_actions)."""
        return play.legal_actions(self)

    def apply(self, action: Action) -> None:
        """Apply one action; raises PlayError (state unchanged) if it is not legal now."""
        play.apply(self, action)

    def after_play(self, seat: int, move: Move, led: bool, next_seat: int) -> None:
        """For play rules: :func:`ddzrules.game.play.after_play`."""
        play.after_play(self, seat, move, led, next_seat)

    def abandon(self, seat: int) -> None:
        """逃跑: ``seat`` leaves the game; the escape rule of the settlement charges him.

        Raises PlayError (state unchanged) when the game is over or the variant has
        no escape rule.
        """
        deal.abandon(self, seat)



    def gathered_cards(self) -> tuple[int, ...]:
        """The cards as a table gathers them for a deal that does not shuffle (不洗牌): see
        :func:`ddzrules.game.deal.gathered_cards`."""
        return deal.gathered_cards(self)

    def seen_hand(self, seat: int) -> str:
        """A hand as far as it has been dealt (all of it, except while deciding 明牌
        before or during the deal)."""
        return deal.seen_hand(self, seat)



    # ------------------------------------------------------------------ copies and pickling
    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        """An independent copy sharing only the rules (and the variant and plugin instances):
        each can go on with its own actions, and neither sees the other's."""
        for key, shared in self.rules.shared.items():
            memo.setdefault(key, shared)
        # its rules are GameRules (Game's own), typed as the face's ActivatedRules
        copied = Game(cast("GameRules", self.rules), state=self.state)  # shares the state for a moment
        memo[id(self)] = copied  # phases that refer to this game refer to the copy
        # the listed actions are the shared rules' own objects, never changed: shared too
        copied.legal_cache = self.legal_cache
        copied.state = copy_state(self.state, memo)
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
        # the rules' listed actions (legal_cache) are not pickled: listed again after unpickling
        return _unpickle_game, (self.rules, self.state)

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
        s = self.state
        played, history, phase = s.played, s.history, s.phase
        hands = tuple(map(bytes, s.hands))  # copies: the lazy fields show this moment
        kitty = bytes(s.kitty) if s.kitty_visible else None
        shown = s.shown_hands
        view = _new(PlayerView)  # its fields set at once, not through the dataclass __init__
        view.__dict__ = {
            "seat": seat, "phase": phase, "landlord": s.landlord,
            "to_act": None if phase == "over" else s.turn,
            "stake": s.stake, "multiple": self.multiple if s.events else 1.0,
            "shown_hands": {h: self.seen_hand(h) for h in shown if h != seat} if shown else {},
            "last_play": s.last_play, "last_seat": s.last_seat,
            "extra": dict(s.public), "private": dict(s.private[seat]),
            "partners": self.rules.table.partners(self, seat),
            "_lazy": (history, len(history), played, tuple(map(len, played)), hands, kitty),
            "_world": (self, len(history)),  # what sample_world copies (see PlayerView)
        }
        if kitty is None:
            view.__dict__["kitty"] = None
        if s.visible_dealt is not None:  # 明牌 while dealing: the part dealt so far
            view.__dict__["hand"] = self.seen_hand(seat)
        return view


if TYPE_CHECKING:  # the type checker holds Game and GameRules to the faces the hooks' contracts show
    _game_face: type[GameState] = Game
    _world_face: type[World] = Game
    _rules_face: type[TableRules] = GameRules
