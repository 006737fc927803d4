"""A game's state: :class:`State`, everything one game holds besides its rules, as plain
data (the flow is :mod:`ddzrules.game.deal`'s and :mod:`ddzrules.game.play`'s functions of
a game and an action), and :func:`copy_state`, an independent copy of it. The public face
over it is :class:`~ddzrules.game.game.Game`; the plugins' face is
:class:`~ddzrules.game.values.GameState`."""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from ddzrules.game.values import Action, MatchInfo, MultiplierEvent, Phase
from ddzrules.rules.moves import Move


@dataclass(slots=True, eq=False)
class State:
    """Everything one game holds besides its rules: the deal, what plugins wrote, the
    tricks, the phases. Plain data: the flow's functions change it, and
    :class:`~ddzrules.game.game.Game` shows it (and guards what plugin code writes of it,
    see :mod:`ddzrules.game.transaction`)."""

    seed: int
    match: MatchInfo
    #: the seeded generator, the only randomness a plugin may use (``game.rng``)
    rng: random.Random
    #: the landlord fixed before the deal (GameRules.new_game), or None: the plugins choose
    fixed_landlord: int | None = None
    #: the deal being played: 0, then 1 after a redeal …
    deal_number: int = -1
    #: each deal's hands and kitty, as card strings
    deals: list[dict[str, Any]] = field(default_factory=list)
    history: list[Action] = field(default_factory=list)
    redeal_reasons: list[str] = field(default_factory=list)
    #: per seat, the cards in hand as counts by rank
    hands: list[list[int]] = field(default_factory=list)
    kitty: list[int] = field(default_factory=list)
    #: the cards nobody receives (deal.undealt), unseen for the whole game
    undealt: list[int] = field(default_factory=list)
    #: the shuffled deck, hands dealt from its front (for plugins that turn a card face up)
    dealt_order: list[int] = field(default_factory=list)
    kitty_visible: bool = False

    # what plugin code writes through the game (Game's properties check and guard it)
    #: (seat, rank) of a card turned face up in the deal
    face_up: tuple[int, int] | None = None
    landlord: int | None = None
    #: the base score (叫分: the winning bid)
    stake: int | float = 0
    events: list[MultiplierEvent] = field(default_factory=list)
    #: per farmer, the factor of his settlement with the landlord (加倍, 加棒)
    pair_factors: dict[int, int | float] = field(default_factory=dict)
    #: the seats whose hands everyone sees (明牌, 亮牌)
    shown_hands: set[int] = field(default_factory=set)
    public: dict[str, Any] = field(default_factory=dict)
    private: dict[int, dict[str, Any]] = field(default_factory=dict)
    #: while set, each seat sees only this many of its dealt cards (明牌 while dealing)
    visible_dealt: int | None = None
    stats: dict[str, int | float] = field(default_factory=dict)
    #: a landlord phase's request to deal again: its reason
    redeal: str | None = None

    # the tricks and the end
    escaped: int | None = None
    played: list[list[Move]] = field(default_factory=list)
    last_play: Move | None = None
    last_seat: int | None = None
    passes: int = 0
    winner: int | None = None
    scores: list[int] | None = None
    #: the seat that led the first trick (ddzrules_first_leader), once the tricks begin
    first_leader: int | None = None
    #: the wild rank (癞子) of this deal: its index, the ascending indices of several
    #: (天地癞子: 地癞子 joins once the landlord is known), or None
    wild: int | tuple[int, ...] | None = None

    # whose turn, and the phases
    turn: int | None = None
    first_bidder: int = 0
    phase: str = "deal"
    #: the phases still to come, and the plugin and hook that made each
    phases: list[Phase] = field(default_factory=list)
    owners: list[tuple[str, str]] = field(default_factory=list)
    #: the phase being played (plugin code) and its plugin and hook
    current: Phase | None = None
    owner: tuple[str, str] = ("", "")


class GameCore:
    """A game as its transactions (:mod:`ddzrules.game.transaction`) and the door to
    plugin code (:mod:`ddzrules.game.door`) take it: its state, the running transaction's
    snapshot (None outside one), and what is derived from the state and put back with it.
    The base of the game's face (:class:`~ddzrules.game.face.GameFace`): a class, not a
    protocol, so that compiled code reaches these fields directly."""

    #: the game's data: everything it holds besides its rules
    state: State
    #: while an action runs (a transaction): what it must put back if it fails; else None
    undo: dict[str, Any] | None
    #: (the events, their multiple) as last worked out
    multiple_memo: tuple[tuple[MultiplierEvent, ...], float] | None
    #: the play phase's legal actions: (the state they are for, the actions, what tells
    #: whether an object is one of them: see is_listed); derived, not state
    legal_cache: tuple[tuple[Any, ...], list[Action], Any] | None
    #: the play phase's legal plays as Moves (legal_plays): (the state, the Moves, may pass)
    plays_cache: tuple[tuple[Any, ...], Sequence[Move], bool] | None
    #: what a copy of the game shares, by id (the rules, the variant, the plugin instances)
    shared: dict[int, Any]

    def copy_memo(self) -> dict[int, Any]:
        """A memo for copying the state: what a copy shares (the rules, their plugins), and
        the game itself (phases that refer to it refer to it still)."""
        memo = dict(self.shared)
        memo[id(self)] = self
        return memo


#: the fields of a State, in order
FIELDS: tuple[str, ...] = tuple(f.name for f in fields(State))

#: values fast_copy keeps as they are (immutable)
_ATOMS = frozenset({int, float, complex, str, bytes, bool, type(None), frozenset, range,
                    Move, Action, MultiplierEvent, MatchInfo})
_MISSING = object()


def fast_copy(value: Any, memo: dict[int, Any]) -> Any:
    """A deep copy of game state: lists, dicts, sets and tuples copied (each once, as
    ``memo`` records), immutable values (numbers, strings, Moves, Actions, events) and
    what ``memo`` already maps (the rules, the plugin instances) kept as they are, anything
    else through ``copy.deepcopy`` with the same memo."""
    kind = type(value)
    if kind in _ATOMS:
        return value
    known = memo.get(id(value), _MISSING)
    if known is not _MISSING:
        return known
    if kind is list:
        out: list[Any] = []
        memo[id(value)] = out
        # atoms (a history's Actions, a hand's counts) taken as they are, with no call each
        out.extend([v if type(v) in _ATOMS else fast_copy(v, memo) for v in value])
        return out
    if kind is dict:
        d: dict[Any, Any] = {}
        memo[id(value)] = d
        for k, v in value.items():
            d[k] = v if type(v) in _ATOMS else fast_copy(v, memo)
        return d
    if kind is set:
        copied = memo[id(value)] = set(value)  # items of a set are hashable: immutable enough
        return copied
    if kind is tuple:
        return tuple([v if type(v) in _ATOMS else fast_copy(v, memo) for v in value])
    return copy.deepcopy(value, memo)


def copy_state(state: State, memo: dict[int, Any]) -> State:
    """An independent copy of ``state``: every container copied (fast_copy, with ``memo``:
    what it maps is shared, the rules and plugins), the generator given the same state."""
    rng = random.Random(0)  # seeded from 0, not from the OS (costly), then given the state
    rng.setstate(state.rng.getstate())
    copied = State(state.seed, state.match, rng)
    memo[id(state)] = copied
    for name in FIELDS[3:]:
        setattr(copied, name, fast_copy(getattr(state, name), memo))
    return copied
