"""The game: :class:`GameRules` (a variant and the plugins its spec activates, see
:mod:`ddzrules.game.rules`) and :class:`Game`, one game's public face: its rules and its
:class:`~ddzrules.game.state.State` (plain data), moved on by the flow's functions (the
deal and phases, :mod:`ddzrules.game.deal`; the turns, :mod:`ddzrules.game.play`) in
transactions (:mod:`ddzrules.game.transaction`); here the copies, pickling, the sides and
what a seat sees; worlds for a search are :mod:`ddzrules.game.determinize`'s."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from operator import attrgetter
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from ddzrules.errors import DdzError, SpecError, WriteRefused, brief
from ddzrules.game import deal, determinize, play, transaction
from ddzrules.game.checks import FACTOR_LIMIT, number_problem
from ddzrules.game.climbing import CLIMBING
from ddzrules.game.loading import PluginRegistry
from ddzrules.game.play import PlayRules
from ddzrules.game.rules import ActivatedRules
from ddzrules.game.state import State, copy_state
from ddzrules.game.tables import Table
from ddzrules.game.values import Action, MatchInfo, MultiplierEvent, PlayerView, counts_string
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


_T = TypeVar("_T")

if TYPE_CHECKING:
    class _Field(Generic[_T]):
        """How the type checker sees a field of the game's state shown on its face."""

        def __get__(self, game: object, owner: object = None) -> _T: ...

        def __set__(self, game: object, value: _T) -> None: ...


def _shown(name: str) -> Any:
    """A field of the game's state on its face, read and set as the state's own."""
    def put(game: Game, value: Any) -> None:
        setattr(game.state, name, value)
    return property(attrgetter("state." + name), put, doc=f"The game state's ``{name}`` (:class:`State`).")


def _reached(name: str) -> Any:
    """A container of the game's state that plugin code may change in place: in a
    transaction, kept (see :func:`~ddzrules.game.transaction.keep`) when first reached."""
    def get(game: Game) -> Any:
        if game.undo is not None:
            transaction.keep(game, name)
        return getattr(game.state, name)

    def put(game: Game, value: Any) -> None:
        if game.undo is not None:
            transaction.keep(game, name)
        setattr(game.state, name, value)
    return property(get, put, doc=f"The game state's ``{name}``, guarded (:mod:`ddzrules.game.transaction`).")


@python_class  # a face of properties made from the state's fields (see _shown): an ordinary Python class
class Game:
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

    __slots__ = ("legal_cache", "multiple_memo", "play_rules", "players", "plays_cache", "rules", "state",
                 "undo", "variant")

    #: the play phase's legal actions: (the state they are for, the actions, what tells
    #: whether an object is one of them: see is_listed); derived, never part of the state
    legal_cache: tuple[tuple[Any, ...], list[Action], Any] | None
    #: the play phase's legal plays as Moves (legal_plays): (the state, the Moves, may pass)
    plays_cache: tuple[tuple[Any, ...], Sequence[Move], bool] | None
    #: (the events, their multiple) as last worked out (:attr:`multiple`, asked at every view)
    multiple_memo: tuple[tuple[MultiplierEvent, ...], float] | None
    #: while an action runs (a transaction): what it must put back if it fails; else None
    undo: dict[str, Any] | None

    seed: _Field[int] = _shown("seed")
    match: _Field[MatchInfo] = _shown("match")
    fixed_landlord: _Field[int | None] = _shown("fixed_landlord")
    deal_number: _Field[int] = _shown("deal_number")
    deals: _Field[list[dict[str, Any]]] = _shown("deals")
    history: _Field[list[Action]] = _shown("history")
    redeal_reasons: _Field[list[str]] = _shown("redeal_reasons")
    hands: _Field[list[list[int]]] = _shown("hands")
    kitty: _Field[list[int]] = _shown("kitty")
    undealt: _Field[list[int]] = _shown("undealt")
    dealt_order: _Field[list[int]] = _shown("dealt_order")
    kitty_visible: _Field[bool] = _shown("kitty_visible")
    escaped: _Field[int | None] = _shown("escaped")
    played: _Field[list[list[Move]]] = _shown("played")
    last_play: _Field[Move | None] = _shown("last_play")
    last_seat: _Field[int | None] = _shown("last_seat")
    passes: _Field[int] = _shown("passes")
    winner: _Field[int | None] = _shown("winner")
    scores: _Field[list[int] | None] = _shown("scores")
    first_leader: _Field[int | None] = _shown("first_leader")
    wild: _Field[int | tuple[int, ...] | None] = _shown("wild")
    turn: _Field[int | None] = _shown("turn")
    first_bidder: _Field[int] = _shown("first_bidder")
    phase: _Field[str] = _shown("phase")
    #: public facts plugins publish (every view shows them)
    public: _Field[dict[str, Any]] = _reached("public")
    #: per seat, facts only that seat may see (黄金眼 …)
    private: _Field[dict[int, dict[str, Any]]] = _reached("private")
    #: per-game statistics that ``simulate`` averages (see :meth:`count`)
    stats: _Field[dict[str, int | float]] = _reached("stats")
    #: per farmer, the factor of his settlement with the landlord (加倍, 加棒)
    pair_factors: _Field[dict[int, int | float]] = _reached("pair_factors")
    #: the seats whose hands are shown to everyone (明牌, 亮牌)
    shown_hands: _Field[set[int]] = _reached("shown_hands")
    #: the multiplier events so far (see :attr:`multiple`)
    events: _Field[list[MultiplierEvent]] = _reached("events")

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

    def give_kitty(self) -> None:
        """The landlord takes the kitty (see :func:`ddzrules.game.deal.give_kitty`)."""
        deal.give_kitty(self)

    def next_seat(self, seat: int) -> int:
        return self.rules.next_seat(seat)

    def gathered_cards(self) -> tuple[int, ...]:
        """The cards as a table gathers them for a deal that does not shuffle (不洗牌): see
        :func:`ddzrules.game.deal.gathered_cards`."""
        return deal.gathered_cards(self)

    def seen_hand(self, seat: int) -> str:
        """A hand as far as it has been dealt (all of it, except while deciding 明牌
        before or during the deal)."""
        return deal.seen_hand(self, seat)

    def hand_string(self, seat: int) -> str:
        return counts_string(self.state.hands[seat])

    def hand_counts(self, seat: int) -> list[int]:
        return self.state.hands[seat]

    # ------------------------------------------------------------------ what plugins write
    @property
    def rng(self) -> random.Random:
        """The game's seeded random generator, the only randomness a plugin may use."""
        if self.undo is not None:
            transaction.keep(self, "rng")
        return self.state.rng

    @rng.setter
    def rng(self, value: random.Random) -> None:
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
    def stake(self, value: int | float) -> None:
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
    def landlord(self, value: int | None) -> None:
        if value is not None and (type(value) is not int or not 0 <= value < self.players):
            raise WriteRefused(f"set game.landlord to {brief(value)}, not a seat 0-{self.players - 1}")
        self._set("landlord", value)

    @property
    def visible_dealt(self) -> int | None:
        """While set, each seat sees only this many of its dealt cards (明牌 before/during the deal)."""
        return self.state.visible_dealt

    @visible_dealt.setter
    def visible_dealt(self, value: int | None) -> None:
        if value is not None and (type(value) is not int or not 0 <= value <= self.rules.hand_size):
            raise WriteRefused(f"set game.visible_dealt to {brief(value)}, not a number of cards "
                               f"0-{self.rules.hand_size} (or None)")
        self._set("visible_dealt", value)

    @property
    def face_up(self) -> tuple[int, int] | None:
        """(seat, rank) of a card turned face up in the deal, if any."""
        return self.state.face_up

    @face_up.setter
    def face_up(self, value: tuple[int, int] | None) -> None:
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

    # ------------------------------------------------------------------ copies and pickling
    def copy_memo(self) -> dict[int, Any]:
        """A memo for copying game state: what a copy shares (the rules, their plugins), and
        the game itself (phases that refer to it refer to it still)."""
        memo = dict(self.rules.shared)
        memo[id(self)] = self
        return memo

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        """An independent copy sharing only the rules (and the variant and plugin instances):
        each can go on with its own actions, and neither sees the other's."""
        for key, shared in self.rules.shared.items():
            memo.setdefault(key, shared)
        copied = _new(Game)
        memo[id(self)] = copied  # phases that refer to this game refer to the copy
        copied.rules, copied.variant, copied.players, copied.play_rules = (
            self.rules, self.variant, self.players, self.play_rules)
        copied.undo = None
        # the listed actions are the shared rules' own objects, never changed: shared too
        copied.legal_cache = self.legal_cache
        copied.plays_cache = None
        copied.multiple_memo = None
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
