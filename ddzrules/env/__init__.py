"""A PettingZoo AEC environment for any playable spec (``pip install 'ddzrules[rl]'``).

>>> from ddzrules.env import env            # doctest: +SKIP
>>> e = env("hubei-3p")                     # doctest: +SKIP
>>> e.reset(seed=1)                         # doctest: +SKIP

Agents are ``player_0 … player_{n-1}``, ``player_i`` being seat ``i`` of the runtime.

**Actions** (``Discrete(N)``, fixed per spec, see :attr:`raw_env.action_list`):

* id ``0``: pass (in the tricks, and the ``pass`` of a point-bid auction);
* ids ``1 … P``: every reading of every play of the spec's move universe, ordered by
  the canonical card string (``Variant.universe()`` order) and, for a set of cards
  with several readings, in the order ``Variant.classify`` returns them (weakest
  first): two readings of one set of cards are two actions;
* with wild cards (癞子, ``wildcards:``) a play is the action of what it *stands for*
  (its reading and its cards with each wild card counted as the rank it replaces,
  :func:`play_key`), so an id means the same play whatever the deal's wild rank: wild
  7 ``445567`` (the 7 as a 6) is the action ``445566 (pair_chain)``. Readings only wild cards
  make (a soft bomb, a pure wild bomb) follow the natural ones, found once per spec by
  walking the full deck with each wild rank (about 10–25 s, then kept in the keyed
  cache). With several wild ranks a deal (天地癞子) the table is the same: every play
  they make stands for a play one wild rank makes (:func:`several_wild_ranks_problem`
  says when that holds; the environment refuses a spec where it does not). Where a hand can
  make one such action in several ways, the environment
  plays the one using the fewest wild cards as other ranks (its natural cards first);
* then the non-play actions of the spec's landlord and declaration plugins, as
  ``(kind, value)`` pairs, in the order of the spec's plugins, as each declares them
  (:func:`~ddzrules.hookspecs.ddzrules_actions`): e.g. ``("bid", 1)``, ``("bid", 2)``, ``("bid", 3)`` for
  ``point-bids``; ``("decline", None)``, ``("call", None)``, ``("rob", None)`` … for
  ``call-rob``.

**Observations**: ``{"observation": {...}, "action_mask": int8[N]}``; the inner dict
holds int8/int16/float32 arrays, seats relative to the observer (index 0 = the
observer, 1 = the next seat in the order of play …), 15 ranks ``3…2 X D``:

* ``hand`` ``[15]``: own card counts per rank;
* ``wild`` ``[16]``: the wild ranks (癞子), one entry each (several for 天地癞子, 地癞子 once
  drawn), the last entry set when there is none;
* ``played`` ``[n, 15]``: the cards each seat has played;
* ``last_play`` ``[15]``: the play to beat, as the cards it stands for (zeros when leading);
* ``last_seat`` ``[n + 1]``: one-hot seat of that play, last = none;
* ``landlord`` ``[n + 1]``: one-hot landlord, last = none (not yet, or no landlord);
* ``hand_sizes`` ``[n]`` (int16): cards left in each hand;
* ``kitty`` ``[15]``: the kitty (底牌) once shown, else zeros;
* ``shown`` ``[n, 15]``: hands shown (明牌), zeros when not shown (one's own row always);
* ``history`` ``[5n, 15]``: the cards of the last ``5n`` actions of the tricks, oldest
  first, right-aligned (a pass is zeros); ``history_seat`` ``[5n, n + 1]``: one-hot
  seat of each, last = no action (padding);
* ``bids`` ``[n, K]``: how often each seat took each non-play action before the tricks:
  column 0 a pass, then :attr:`raw_env.bid_columns` (bids, calls, robs, 明牌, 加倍 …);
* ``phase`` ``[4]``: one-hot over :data:`PHASES`;
* ``multiple`` and ``stake`` ``[1]`` (float32, clipped to 1e9): the game's multiple so
  far and the stake.

One-hot rows, rows of zeros, the kitty, ``multiple``, ``stake`` and a ``shown`` with no hand
shown are read-only arrays shared between observations (copy one before changing it).

**Rewards**: 0 until the game ends, then each seat's settlement score
(``Game.scores``); ``normalize=True`` divides them by the game's stake.

**One seat against bots**: :class:`SingleAgentEnv` is a Gymnasium environment where
the learner plays one seat and bundled bots the others.

**Errors**: an unknown spec raises the library's :class:`~ddzrules.errors.SpecError`
(or ``DdzError``); a spec with no ``game:`` section (the compat profiles) or with a
landlord/declaration plugin that declares no actions (``ddzrules_actions``) raises
:class:`~ddzrules.errors.DdzError`. ``step()`` with an action id out of range or
masked out raises :class:`IllegalActionError` (a ``DdzError`` and a ``ValueError``)
and leaves the state unchanged.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ddzrules import cards as C
from ddzrules.env.actions import (  # noqa: F401 - re-exported: the package's names, wherever they are defined
    ENV_VERSION,
    NUM_RANKS,
    SEED_LIMIT,
    ActionKey,
    PlayKey,
    counts_of_text,
    game_seed,
    nonplay_actions,
    play_actions,
    play_key,
    plugin_registry,
    several_wild_ranks_problem,
    spec_wild_ranks,
    wilds_replaced,
)
from ddzrules.errors import ArgumentError as ArgumentError
from ddzrules.errors import DdzError, brief
from ddzrules.errors import IllegalActionError as IllegalActionError
from ddzrules.errors import NotResetError as NotResetError
from ddzrules.errors import SeedError as SeedError
from ddzrules.rules.moves import Move
from ddzrules.runtime import (
    Action,
    Game,
    GameRules,
)

#: the play phase's last actions in the ``history`` observation: this many rounds
HISTORY_ROUNDS = 5
#: the ``multiple`` and ``stake`` observations are clipped to this (the space's bound)
SCALE_LIMIT = 1e9
#: the runtime's phases, in the order of the ``phase`` one-hot
PHASES = ("landlord", "declare", "play", "over")


def _frozen(a: np.ndarray) -> np.ndarray:
    """``a`` made read-only: observations share such constant rows instead of copying."""
    a.setflags(write=False)
    return a


def env(spec: str = "hubei-3p", **kwargs: Any) -> AECEnv:
    """The environment of ``spec`` (a bundled name or a path), wrapped with PettingZoo's
    :class:`~pettingzoo.utils.wrappers.OrderEnforcingWrapper`. Illegal and out-of-range
    actions are refused by :class:`raw_env` itself (:class:`IllegalActionError`), not by
    ``AssertOutOfBoundsWrapper`` (whose AssertionError says less)."""
    return wrappers.OrderEnforcingWrapper(raw_env(spec, **kwargs))


class raw_env(AECEnv):
    """The unwrapped AEC environment (see the module docstring for the encoding)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["human", "ansi"], "name": "ddzrules_v0",
                                          "is_parallelizable": False}

    def __init__(self, spec: str = "hubei-3p", render_mode: str | None = None,
                 normalize: bool = False, plugins: Sequence[str] = ()) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise DdzError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        if not isinstance(spec, str):  # (the compiled runtime would refuse it with a bare TypeError)
            raise DdzError(f"spec is a bundled spec's name or a spec file's path, not {brief(spec)}")
        self.rules = rules = GameRules.load(spec, plugin_registry(plugins))
        self.render_mode = render_mode
        self.normalize = normalize
        self.n = n = rules.players
        self._tables()
        self.history_len = HISTORY_ROUNDS * n
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agents: list[str] = []
        n_actions = len(self.action_list)
        deck = np.array(rules.variant.rules.deck[:NUM_RANKS], dtype=np.int64)
        top = int(max(deck.max(), 1))
        # a wild play stands for up to 4 more cards of a rank than the deck holds
        wilds = sorted((int(deck[r]) for r in self.wild_ranks), reverse=True)[:rules.variant.rules.wild_count]
        stands = top + sum(wilds)
        counts = spaces.Box(0, top, (NUM_RANKS,), np.int8)
        one_hot = spaces.Box(0, 1, (n + 1,), np.int8)
        inner = spaces.Dict({
            "hand": counts,
            "wild": spaces.Box(0, 1, (NUM_RANKS + 1,), np.int8),
            "played": spaces.Box(0, top, (n, NUM_RANKS), np.int8),
            "last_play": spaces.Box(0, stands, (NUM_RANKS,), np.int8),
            "last_seat": one_hot,
            "landlord": one_hot,
            "hand_sizes": spaces.Box(0, int(deck.sum()), (n,), np.int16),
            "kitty": counts,
            "shown": spaces.Box(0, top, (n, NUM_RANKS), np.int8),
            "history": spaces.Box(0, top, (self.history_len, NUM_RANKS), np.int8),
            "history_seat": spaces.Box(0, 1, (self.history_len, n + 1), np.int8),
            "bids": spaces.Box(0, 127, (n, len(self.bid_columns)), np.int8),
            "phase": spaces.Box(0, 1, (len(PHASES),), np.int8),
            "multiple": spaces.Box(0, SCALE_LIMIT, (1,), np.float32),
            "stake": spaces.Box(0, SCALE_LIMIT, (1,), np.float32),
        })
        self.observation_spaces = {a: spaces.Dict({
            "observation": inner, "action_mask": spaces.Box(0, 1, (n_actions,), np.int8)})
            for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(n_actions) for a in self.possible_agents}
        self._seeds = random.Random()
        self.game: Game | None = None
        self._legal: dict[int, Action] = {}
        self._legal_ids = np.zeros(0, np.int64)
        self._obs_memo: dict[str, tuple[int, dict[str, Any]]] = {}
        self._row_memo: dict[int, np.ndarray] = {}
        self._scalar_memo: dict[float, np.ndarray] = {}
        self._kitty_memo: dict[bytes, np.ndarray] = {}
        self._reset_tallies()

    #: what _tables derives from the rules alone and never changes: a copy shares it, a
    #: pickle leaves it out and the unpickled environment derives it again
    _TABLES: ClassVar[frozenset[str]] = frozenset({
        "action_list", "_play_ids", "_other_ids", "bid_columns", "_bid_ids", "wild_ranks", "_zeros",
        "_eye", "_wild_eye", "_phase_eye", "_orders", "_relative", "_position_ids",
        "_seat_rows", "_no_hands"})
    #: memos a copy starts afresh (or, keyed by objects both share, from a copy)
    _MEMOS: ClassVar[frozenset[str]] = frozenset({"_obs_memo", "_row_memo", "_by_move", "_scalar_memo",
                                                  "_kitty_memo"})
    # the running tallies of the game's history (set by _reset_tallies, kept by _sync)
    _synced: int
    _last_seen: Action | None
    _in_tricks: bool
    _played: np.ndarray
    _bids: np.ndarray
    _hist_rows: np.ndarray
    _hist_seats: np.ndarray
    _hist_end: int

    def _tables(self) -> None:
        """The action table and the constants of observations, from the rules."""
        rules, n = self.rules, self.n
        plays = play_actions(rules)
        others = nonplay_actions(rules)
        #: what each action id means: None (pass), a Move (for a play with wild cards:
        #: the cards it stands for), or a (kind, value) pair
        self.action_list: list[Move | ActionKey | None] = [None, *plays, *others]
        self._play_ids: dict[PlayKey, int] = {play_key(m): i for i, m in enumerate(self.action_list, 0)
                                              if isinstance(m, Move)}
        self._other_ids: dict[ActionKey, int] = {
            a: i for i, a in enumerate(self.action_list) if isinstance(a, tuple)}
        # memo of play_key lookups by Move identity (Moves are interned; equal Moves of
        # two wild ranks may stand for different cards, Move equality ignores that)
        self._by_move: dict[int, tuple[Move, int]] = {}
        #: the columns of the ``bids`` observation: a pass outside the tricks, then the
        #: non-play actions
        self.bid_columns: list[ActionKey] = [("pass", None), *others]
        self._bid_ids = {a: i for i, a in enumerate(self.bid_columns)}
        self.wild_ranks = spec_wild_ranks(rules)
        #: (the variant's fast index's Moves, the action id of each): see position_ids
        self._position_ids: tuple[tuple[Move, ...], np.ndarray] | None = None
        self._zeros = _frozen(np.zeros(NUM_RANKS, np.int8))
        self._no_hands = _frozen(np.zeros((n, NUM_RANKS), np.int8))  # ``shown`` when none is
        self._eye = _frozen(np.eye(n + 1, dtype=np.int8))
        self._wild_eye = _frozen(np.eye(NUM_RANKS + 1, dtype=np.int8))
        self._phase_eye = _frozen(np.eye(len(PHASES), dtype=np.int8))
        self._orders = [np.array([(me + k) % n for k in range(n)]) for me in range(n)]
        self._relative = [np.array([(s - me) % n for s in range(n)] + [n]) for me in range(n)]
        # per observer, the one-hot row of each absolute seat, then (index -1: a history
        # row's seat -1) of no seat
        self._seat_rows = [_frozen(self._eye[self._relative[me]]) for me in range(n)]

    # ------------------------------------------------------------------ copies
    # copy.deepcopy: an independent environment (its game, generator, tallies, spaces and
    # their generators copied) sharing the rules and the action table; pickle: the same,
    # the table derived again from the unpickled rules (the same ids: it is a function of
    # the spec), the legal actions listed again by the unpickled game.
    def __deepcopy__(self, memo: dict[int, Any]) -> raw_env:
        copied = self.__class__.__new__(self.__class__)
        memo[id(self)] = copied
        state = copied.__dict__
        for key, value in self.__dict__.items():
            if key == "rules" or key in self._TABLES:
                state[key] = value
            elif key == "_obs_memo":
                state[key] = {}
            elif key in self._MEMOS:
                state[key] = dict(value)  # keyed by packed cards, or by the shared rules' Moves
            else:
                state[key] = copy.deepcopy(value, memo)
        return copied

    def __getstate__(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k not in self._TABLES and k not in self._MEMOS}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._obs_memo = {}
        self._row_memo = {}
        self._scalar_memo = {}
        self._kitty_memo = {}
        self._tables()
        game = self.game
        if game is not None and not game.over:  # the actions of the unpickled rules' own lister
            self._legal = self.legal_of(game)
            self._legal_ids = np.fromiter(self._legal, np.int64, len(self._legal))

    def _started(self, what: str) -> Game:
        """The game, or NotResetError when there is none yet."""
        game = self.game
        if game is None:
            raise NotResetError(f"call reset() before {what}()")
        return game

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ AEC
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; ``seed`` is the game's seed (None: drawn from the environment's
        generator, itself reseeded by every explicit seed)."""
        if seed is not None:
            chosen = game_seed(seed)  # SeedError for anything it cannot replay
            self._seeds.seed(chosen)
        else:
            chosen = self._seeds.getrandbits(63)
        self.game = self.rules.new_game(seed=chosen)
        self._obs_memo.clear()
        self._reset_tallies()
        self.agents = list(self.possible_agents)
        self.rewards: dict[str, float] = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._after_action()

    def action_id(self, action: Action) -> int:
        """The action id of a runtime action (a DdzError for one the table lacks)."""
        if action.kind == "pass":
            return 0
        if action.kind == "play":
            move = action.move
            assert move is not None
            memo = self._by_move.get(id(move))
            i: int | None
            if memo is not None:
                i = memo[1]
            else:
                i = self._play_ids.get(play_key(move))
                if i is not None:
                    if len(self._by_move) >= 1 << 16:
                        self._by_move.clear()
                    self._by_move[id(move)] = (move, i)  # the Move kept alive: its id stays its own
        else:
            i = self._other_ids.get((action.kind, action.value))
        if i is None:
            raise DdzError(f"{self.rules.variant.name}: the runtime offered {action}, which has no "
                           "action id (a bug of the environment's action table)")
        return i

    def play_id(self, move: Move) -> int:
        """The action id of a play: that of its reading and the cards it stands for
        (:func:`play_key`); a DdzError for a play the table lacks."""
        i = self._play_ids.get(play_key(move))
        if i is None:
            raise DdzError(f"{self.rules.variant.name}: the play {move.cards} ({move.combo}) has no "
                           "action id (a bug of the environment's action table)")
        return i

    def legal_of(self, game: Game) -> dict[int, Action]:
        """The legal actions of ``game``'s seat to act by id (:meth:`legal_by_id`); the plays
        the runtime listed in the variant's fast index (natural cards: no two share an id)
        are mapped by their positions in one NumPy gather (:meth:`position_ids`)."""
        actions, listed = game.legal_listing()
        if listed is None:
            return self.legal_by_id(actions)
        moves, positions = listed
        ids = self.position_ids(moves)[positions].tolist()
        if len(actions) > len(positions):  # the pass, listed last
            ids.append(0)
        return dict(zip(ids, actions))

    def position_ids(self, moves: tuple[Move, ...]) -> np.ndarray:
        """The action id of each play of the variant's fast index (``moves``, its Moves in
        listing order: see ``Game.legal_listing``), made once per index."""
        got = self._position_ids
        if got is None or got[0] is not moves:
            got = self._position_ids = (moves, np.array([self.play_id(m) for m in moves], np.int64))
        return got[1]

    def legal_by_id(self, actions: list[Action]) -> dict[int, Action]:
        """The legal actions by id (of the runtime's ``actions``, as the mask marks them; the
        batched environment, :mod:`ddzrules.env.batch`, maps its tables' actions with it too). Plays
        with wild cards that stand for the same cards in
        the same reading share an id; the one kept uses the fewest wild cards as other
        ranks (the hand's natural cards first), the first listed on a tie."""
        out: dict[int, Action] = {}
        for a in actions:
            i = self.action_id(a)
            kept = out.get(i)
            if kept is None or (a.move is not None and kept.move is not None
                                and wilds_replaced(a.move) < wilds_replaced(kept.move)):
                out[i] = a
        return out

    def _after_action(self) -> None:
        game = self.game
        assert game is not None
        if game.over:
            self._legal = {}
            self._legal_ids = np.zeros(0, np.int64)
            scores = game.scores or [0] * self.n
            scale = game.stake if self.normalize and game.stake else 1
            for i, a in enumerate(self.possible_agents):
                self.rewards[a] = scores[i] / scale if self.normalize else scores[i]
                self.terminations[a] = True
                self.infos[a] = {"scores": list(scores)}
            self.agent_selection = self.agents[0]
            return
        self._legal = self.legal_of(game)
        self._legal_ids = np.fromiter(self._legal, np.int64, len(self._legal))
        seat = game.to_act
        assert seat is not None
        self.agent_selection = self.possible_agents[seat]
        for a in self.possible_agents:
            self.infos[a] = {"legal_moves": sorted(self._legal)} if a == self.agent_selection else {}

    def step(self, action: int | None) -> None:
        self._started("step")
        agent = self.agent_selection
        if self.terminations.get(agent) or self.truncations.get(agent):
            self._was_dead_step(action)
            return
        i = self._action_index(action)
        chosen = self._legal.get(i)
        if chosen is None:
            legal = ", ".join(f"{k} ({self.describe(k)})" for k in sorted(self._legal)[:8])
            raise IllegalActionError(f"action {i} ({self.describe(i)}) is not legal for {agent} now; "
                                     f"legal: {legal}{' …' if len(self._legal) > 8 else ''}")
        assert self.game is not None
        self._cumulative_rewards[agent] = 0
        self.game.apply(chosen)
        self._after_action()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        self._started("last")
        return super().last(observe)

    def _action_index(self, action: object) -> int:
        """``action`` as an index of :attr:`action_list` (a NumPy integer too), or an
        :class:`IllegalActionError`: not an integer, or outside 0 to the last id (a negative
        id would index from the end)."""
        try:
            i = int(action)  # type: ignore[call-overload]  # None, a string: the errors caught below
        except (TypeError, ValueError, OverflowError):
            raise IllegalActionError(f"an action is an integer id, not {brief(action)}") from None
        if i != action or not 0 <= i < len(self.action_list):
            raise IllegalActionError(f"action {brief(action)} is out of range 0-{len(self.action_list) - 1}")
        return i

    def describe(self, action_id: object) -> str:
        """What an action id means, as text (``pass``, ``play 33 (pair)``, ``bid 2`` …);
        :class:`IllegalActionError` for what is no action id (as :meth:`step` refuses it)."""
        a = self.action_list[self._action_index(action_id)]
        if a is None:
            return "pass"
        if isinstance(a, Move):
            return f"play {a.cards} ({a.combo})"
        return a[0] if a[1] is None else f"{a[0]} {a[1]}"

    def observe(self, agent: str) -> dict[str, Any]:
        game = self._started("observe")
        if agent not in self.possible_agents:
            raise DdzError(f"no agent {brief(agent)}; the agents are {', '.join(self.possible_agents)}")
        stamp = len(game.history) << 3 | PHASES.index(game.phase)
        memo = self._obs_memo.get(agent)
        if memo is not None and memo[0] == stamp:
            return memo[1]
        obs = self._observe(game, self.possible_agents.index(agent))
        self._obs_memo[agent] = (stamp, obs)
        return obs

    def _sync(self, game: Game) -> None:
        """Bring the running tallies (cards played, bids, the tricks' last actions, by
        absolute seat) up to the game's history: each action is read once."""
        history = game.history
        done = self._synced
        if done > len(history) or (done and history[done - 1] is not self._last_seen):
            self._reset_tallies()  # another game (or a rewound one): read it all again
            done = 0
        for a in history[done:]:
            self._in_tricks = self._in_tricks or a.kind == "play"  # a trick opens with a play
            if not self._in_tricks:  # the auction and declarations
                col = self._bid_ids.get(("pass", None) if a.kind == "pass" else (a.kind, a.value))
                if col is not None and self._bids[a.seat, col] < 127:
                    self._bids[a.seat, col] += 1
                continue
            row = self._rows(a.move) if a.move is not None else self._zeros
            if a.move is not None:
                self._played[a.seat] += row
            # the last history_len actions are rows [end - history_len, end) of a window
            # twice that long, slid back when full: O(1) an action
            end = self._hist_end
            if end == len(self._hist_seats):
                keep = self.history_len
                self._hist_rows[:keep] = self._hist_rows[end - keep:end]
                self._hist_seats[:keep] = self._hist_seats[end - keep:end]
                end = keep
            self._hist_rows[end] = row
            self._hist_seats[end] = a.seat
            self._hist_end = end + 1
        self._synced = len(history)
        self._last_seen = history[-1] if history else None

    def _reset_tallies(self) -> None:
        n = self.n
        self._synced = 0
        self._last_seen = None
        self._in_tricks = False
        self._played = np.zeros((n, NUM_RANKS), np.int8)
        self._bids = np.zeros((n, len(self.bid_columns)), np.int8)
        self._hist_rows = np.zeros((2 * self.history_len, NUM_RANKS), np.int8)
        self._hist_seats = np.full(2 * self.history_len, -1, np.int64)
        self._hist_end = self.history_len

    def _scalar(self, value: float) -> np.ndarray:
        """A read-only float32 array of one value (memoised: a game has few multiples and stakes)."""
        row = self._scalar_memo.get(value)
        if row is None:
            if len(self._scalar_memo) >= 1 << 12:
                self._scalar_memo.clear()
            row = self._scalar_memo[value] = _frozen(np.array([value], np.float32))
        return row

    def _kitty_row(self, kitty: list[int]) -> np.ndarray:
        """The kitty's counts as a read-only int8 row (memoised by the counts)."""
        key = bytes(kitty[:NUM_RANKS])
        row = self._kitty_memo.get(key)
        if row is None:
            if len(self._kitty_memo) >= 1 << 16:
                self._kitty_memo.clear()
            row = self._kitty_memo[key] = _frozen(np.frombuffer(key, np.int8).copy())
        return row

    def _rows(self, move: Move) -> np.ndarray:
        """The counts of a play's cards as an int8 row (memoised by its packed cards)."""
        row = self._row_memo.get(move.packed)
        if row is None:
            if len(self._row_memo) >= 1 << 16:
                self._row_memo.clear()
            row = self._row_memo[move.packed] = _frozen(np.array(C.unpack(move.packed)[:NUM_RANKS], np.int8))
        return row

    def _observe(self, game: Game, me: int) -> dict[str, Any]:
        n = self.n
        self._sync(game)
        order = self._orders[me]  # absolute seat of each relative index
        rel = self._relative[me]  # relative index of each absolute seat, then n for "none"
        one_hot = self._eye
        hand = np.array(game.hand_counts(me)[:NUM_RANKS] if game.visible_dealt is None
                        else counts_of_text(game.view(me).hand), np.int8)
        wild_text = game.public.get("wild") if self.wild_ranks else None
        if not wild_text:
            wild = self._wild_eye[NUM_RANKS]
        elif "," in wild_text:  # several wild ranks (天地癞子): one entry each
            wild = self._wild_eye[[C.RANKS.index(r) for r in wild_text.split(",")]].sum(axis=0, dtype=np.int8)
        else:
            wild = self._wild_eye[C.RANKS.index(wild_text)]
        last_play = game.last_play
        if last_play is None:
            last = self._zeros
        elif last_play.substitution:  # what it stands for: what an answer must beat
            last = np.array(C.unpack(play_key(last_play)[3])[:NUM_RANKS], np.int8)
        else:
            last = self._rows(last_play)  # read-only, shared
        last_seat = one_hot[rel[game.last_seat] if game.last_seat is not None and last_play is not None else n]
        landlord = one_hot[rel[game.landlord] if game.landlord is not None else n]
        kitty = self._kitty_row(game.kitty) if game.kitty_visible and game.kitty else self._zeros
        shown = np.zeros((n, NUM_RANKS), np.int8) if game.shown_hands else self._no_hands
        for s in game.shown_hands:
            if s != me:
                shown[rel[s]] = counts_of_text(game.seen_hand(s))
        window = slice(self._hist_end - self.history_len, self._hist_end)
        history_seat = self._seat_rows[me][self._hist_seats[window]]
        phase = self._phase_eye[PHASES.index(game.phase)]
        mask = np.zeros(len(self.action_list), np.int8)
        if me == game.to_act and not game.over:
            mask[self._legal_ids] = 1
        # read-only for good (an array on bytes cannot be made writeable): observe() hands the
        # same observation out again until the game moves, and a mask edited by one caller was
        # every later caller's (MaskablePPO's action_masks() included)
        mask = np.frombuffer(mask.tobytes(), np.int8)
        # one-hot rows and empty rows are read-only views of constant arrays (no copy)
        return {"observation": {
            "hand": hand, "wild": wild, "played": self._played[order], "last_play": last,
            "last_seat": last_seat, "landlord": landlord,
            "hand_sizes": np.array([sum(game.hands[s]) for s in order], np.int16),
            "kitty": kitty, "shown": shown, "history": self._hist_rows[window].copy(),
            "history_seat": history_seat, "bids": self._bids[order], "phase": phase,
            "multiple": self._scalar(min(game.multiple if game.events else 1.0, SCALE_LIMIT)),
            "stake": self._scalar(min(game.stake or 0, SCALE_LIMIT)),
        }, "action_mask": mask}

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = self._text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _text(self) -> str:
        game = self.game
        if game is None:
            return "(not reset)"
        landlord = "-" if game.landlord is None else f"player_{game.landlord}"
        head = (f"{self.rules.variant.name} · phase {game.phase} · landlord {landlord} · "
                f"stake {game.stake} · multiple {game.multiple:g}")
        lines = [head]
        for s in range(self.n):
            mark = ">" if game.to_act == s else " "
            last = game.played[s][-1].cards if game.played[s] else "-"
            lines.append(f"{mark} player_{s}: {game.hand_string(s) or '(empty)'}   last play {last}")
        if game.last_play is not None:
            lines.append(f"to beat: {game.last_play.cards} ({game.last_play.combo}) by player_{game.last_seat}")
        if game.over:
            lines.append(f"over: scores {game.scores}")
        return "\n".join(lines)

    def close(self) -> None:
        pass


class SingleAgentEnv(gymnasium.Env):
    """A Gymnasium environment: one seat of ``spec`` played by the learner, the other
    seats by bundled bots (:mod:`ddzrules.bots`).

    >>> from ddzrules.env import SingleAgentEnv          # doctest: +SKIP
    >>> e = SingleAgentEnv("hubei-3p", seat=0, opponents="heuristic")  # doctest: +SKIP
    >>> obs, info = e.reset(seed=1)                       # doctest: +SKIP
    >>> obs, reward, terminated, truncated, info = e.step(int(info["legal_moves"][0]))  # doctest: +SKIP

    Observations, actions and ``action_mask`` are those of :class:`raw_env` for the
    learner's seat (the mask is also in ``info["action_mask"]``, with the legal ids in
    ``info["legal_moves"]``). The bots act in between, so every ``step`` returns at the
    learner's next turn or at the end of the game; the reward is 0 until then, and then
    the seat's settlement score (divided by the stake with ``normalize=True``).
    ``opponents`` is one bot kind for every other seat or one per other seat, in seat
    order (``random``, ``heuristic``); ``seed`` in :meth:`reset` seeds the deal and the
    bots, so a seed replays the same game for the same actions.
    """

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"]}  # noqa: RUF012 - gymnasium.Env declares an instance variable

    def __init__(self, spec: str = "hubei-3p", seat: int = 0, opponents: str | list[str] = "heuristic",
                 normalize: bool = False, render_mode: str | None = None, plugins: Sequence[str] = ()) -> None:
        from ddzrules.bots import check_bot

        self.aec = raw_env(spec, render_mode=render_mode, normalize=normalize, plugins=plugins)
        n = self.aec.n
        if not isinstance(seat, int) or not 0 <= seat < n:
            raise DdzError(f"seat must be 0-{n - 1} for {self.aec.rules.variant.name}, not {seat!r}")
        kinds = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
        if len(kinds) != n - 1:
            raise DdzError(f"opponents: {n - 1} bot kinds expected (one per other seat), got {len(kinds)}")
        for kind in kinds:
            try:
                check_bot(kind, self.aec.rules)
            except ValueError as e:
                raise DdzError(str(e)) from None
        self.seat = seat
        self.agent = self.aec.possible_agents[seat]
        self._kinds = {s: kinds.pop(0) for s in range(n) if s != seat}
        self._bots: dict[int, Any] = {}
        self.observation_space = self.aec.observation_space(self.agent)
        self.action_space = self.aec.action_space(self.agent)
        self.render_mode = render_mode

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        from ddzrules.bots import make_bot

        chosen = None if seed is None else game_seed(seed)  # SeedError before gymnasium's own check
        super().reset(seed=chosen)
        seeded = int(self.np_random.integers(2**62)) if chosen is None else chosen
        self.aec.reset(seed=seeded)
        # each bot seeded from the game's seed and its seat: one seed, one game
        self._bots = {s: make_bot(k, seeded * 31 + s) for s, k in self._kinds.items()}
        self._run_bots()
        return self._obs(), self._info()

    def step(self, action: int) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        game = self.aec.game
        if game is None:
            raise DdzError("call reset() before step()")
        if game.over:
            raise DdzError("the game is over: call reset()")
        self.aec.step(action)
        self._run_bots()
        over = game.over  # the same game: step() does not replace it
        reward = self.aec.rewards[self.agent] if over else 0
        return self._obs(), reward, over, False, self._info()

    def _run_bots(self) -> None:
        aec = self.aec
        game = aec.game
        assert game is not None
        while not game.over and game.to_act != self.seat:
            seat = game.to_act
            assert seat is not None
            legal = list(aec._legal.values())
            chosen = self._bots[seat].act(game.view(seat), legal)
            aec.step(aec.action_id(chosen))

    def _obs(self) -> dict[str, Any]:
        return self.aec.observe(self.agent)

    def _info(self) -> dict[str, Any]:
        game = self.aec.game
        assert game is not None
        info: dict[str, Any] = {"action_mask": self._obs()["action_mask"],
                                "legal_moves": sorted(self.aec._legal) if not game.over else []}
        if game.over:
            info["scores"] = list(game.scores or [])
        return info

    def render(self) -> str | None:
        return self.aec.render()

    def action_masks(self) -> np.ndarray:
        """The legal-action mask (the name sb3-contrib's MaskablePPO looks for)."""
        return self._obs()["action_mask"].astype(bool)
