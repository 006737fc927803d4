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
* then the non-play actions of the spec's landlord and declaration plugins, as
  ``(kind, value)`` pairs, in the order of the spec's plugins (see
  :data:`PLUGIN_ACTIONS`): e.g. ``("bid", 1)``, ``("bid", 2)``, ``("bid", 3)`` for
  ``point-bids``; ``("decline", None)``, ``("call", None)``, ``("rob", None)`` … for
  ``call-rob``.

**Observations**: ``{"observation": {...}, "action_mask": int8[N]}``; the inner dict
holds int8/float32 arrays, seats relative to the observer (index 0 = the observer,
1 = the next seat in the order of play …): ``hand`` (own card counts per rank, 15
ranks ``3…2 X D``), ``played`` (counts each seat has played, ``[n, 15]``),
``last_play`` (the counts of the play to beat, zeros when leading), ``last_seat``
(one-hot ``n + 1``, last = none), ``landlord`` (one-hot ``n + 1``, last = none),
``hand_sizes`` (``[n]``), ``kitty`` (counts once shown, else zeros), ``phase``
(one-hot over :data:`PHASES`), ``multiple`` and ``stake`` (float32 ``[1]``).

**Rewards**: 0 until the game ends, then each seat's settlement score
(``Game.scores``); ``normalize=True`` divides them by the game's stake.

**Errors**: an unknown spec raises the library's :class:`~ddzrules.errors.SpecError`
(or ``DdzError``); a spec with ``wildcards:`` (癞子) or with a landlord/declaration
plugin that :data:`PLUGIN_ACTIONS` does not know raises :class:`~ddzrules.errors.DdzError`
(not supported yet). ``step()`` with an action id out of range or masked out raises
:class:`IllegalActionError` (a ``DdzError`` and a ``ValueError``) and leaves the
state unchanged.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from . import cards as C
from .errors import DdzError
from .moves import Move
from .runtime import Action, Game, GameRules

#: the runtime's phases, in the order of the ``phase`` one-hot
PHASES = ("landlord", "declare", "play", "over")
NUM_RANKS = C.NUM_RANKS

ActionKey = tuple[str, int | str | None]


def _point_bids(inst: Any) -> list[ActionKey]:
    return [("bid", int(b)) for b in inst.bids]


def _call_rob(inst: Any) -> list[ActionKey]:
    out: list[ActionKey] = [("decline", None), ("call", None), ("rob", None)]
    if getattr(inst, "show_moments", None):
        out.append(("show", None))
    if getattr(inst, "peeks", 0):
        out.append(("peek", None))
    return out


def _fixed(*kinds: str) -> Callable[[Any], list[ActionKey]]:
    return lambda inst: [(k, None) for k in kinds]


#: the non-play actions each built-in plugin's phases can offer, from its instance
#: (its parameters); the ``pass`` of ``point-bids`` is action 0
PLUGIN_ACTIONS: dict[str, Callable[[Any], list[ActionKey]]] = {
    "point-bids": _point_bids,
    "call-rob": _call_rob,
    "hk-rob": _fixed("decline", "take", "rob"),
    "show-hand": _fixed("decline", "show"),
    "doubling": _fixed("decline", "double"),
    "jiabang": _fixed("decline", "jiabang"),
}
_PHASE_HOOKS = ("ddzrules_landlord_phase", "ddzrules_declaration_phases")


class IllegalActionError(DdzError, ValueError):
    """An action id out of range, or not legal now (masked out)."""


_PLAYS: dict[str, tuple[Move, ...]] = {}


def _plays(rules: GameRules) -> tuple[Move, ...]:
    """Every reading of the universe, in action order (memoised by the rules' content:
    Moves compare by value, so one variant's serve another with the same rules)."""
    v = rules.variant
    key = v.rules.content_hash
    got = _PLAYS.get(key)
    if got is None:
        if len(_PLAYS) >= 16:
            _PLAYS.clear()
        got = _PLAYS[key] = tuple(m for cards in v.universe() for m in v.classify(cards))
    return got


def _nonplay_actions(rules: GameRules) -> list[ActionKey]:
    out: dict[ActionKey, None] = {}
    for _role, name, inst in rules.active:
        known = PLUGIN_ACTIONS.get(name)
        if known is None:
            if any(hasattr(getattr(inst, h, None), "ddzrules_impl") for h in _PHASE_HOOKS):
                raise DdzError(f"{rules.variant.name}: the environment does not know the actions of "
                               f"plugin {name!r} (not supported yet)")
            continue
        for key in known(inst):
            out.setdefault(key, None)
    return list(out)


def _counts(cards: str) -> list[int]:
    """The counts per rank of a canonical card string (one letter a card)."""
    return C.counts_of(C.RANKS.index(c) for c in cards) if cards else [0] * NUM_RANKS


def env(spec: str = "hubei-3p", **kwargs: Any) -> AECEnv:
    """The environment of ``spec`` (a bundled name or a path), wrapped with PettingZoo's
    :class:`~pettingzoo.utils.wrappers.OrderEnforcingWrapper`. Illegal and out-of-range
    actions are refused by :class:`raw_env` itself (:class:`IllegalActionError`), not by
    ``AssertOutOfBoundsWrapper`` (whose AssertionError says less)."""
    return wrappers.OrderEnforcingWrapper(raw_env(spec, **kwargs))


class raw_env(AECEnv):
    """The unwrapped AEC environment (see the module docstring for the encoding)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["human", "ansi"], "name": "ddzrules_v0", "is_parallelizable": False}

    def __init__(self, spec: str = "hubei-3p", render_mode: str | None = None,
                 normalize: bool = False) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise DdzError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.rules = rules = GameRules.load(spec)
        if rules.variant.spec.data.get("wildcards"):
            raise DdzError(f"{rules.variant.name}: specs with wildcards: (癞子) are not supported by "
                           "the environment yet")
        self.render_mode = render_mode
        self.normalize = normalize
        self.n = rules.players
        plays = _plays(rules)
        #: what each action id means: None (pass), a Move, or a (kind, value) pair
        self.action_list: list[Move | ActionKey | None] = [None, *plays, *_nonplay_actions(rules)]
        self._play_ids: dict[Move, int] = {m: i for i, m in enumerate(self.action_list) if isinstance(m, Move)}
        self._other_ids: dict[ActionKey, int] = {
            a: i for i, a in enumerate(self.action_list) if isinstance(a, tuple)}
        self.possible_agents = [f"player_{i}" for i in range(self.n)]
        self.agents = []
        n_actions = len(self.action_list)
        deck = np.array(rules.variant.rules.deck[:NUM_RANKS], dtype=np.int64)
        top = int(max(deck.max(), 1))
        counts = spaces.Box(0, top, (NUM_RANKS,), np.int8)
        inner = spaces.Dict({
            "hand": counts,
            "played": spaces.Box(0, top, (self.n, NUM_RANKS), np.int8),
            "last_play": counts,
            "last_seat": spaces.Box(0, 1, (self.n + 1,), np.int8),
            "landlord": spaces.Box(0, 1, (self.n + 1,), np.int8),
            "hand_sizes": spaces.Box(0, int(deck.sum()), (self.n,), np.int16),
            "kitty": counts,
            "phase": spaces.Box(0, 1, (len(PHASES),), np.int8),
            "multiple": spaces.Box(0, np.inf, (1,), np.float32),
            "stake": spaces.Box(0, np.inf, (1,), np.float32),
        })
        self.observation_spaces = {a: spaces.Dict({
            "observation": inner, "action_mask": spaces.Box(0, 1, (n_actions,), np.int8)})
            for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(n_actions) for a in self.possible_agents}
        self._seeds = random.Random()
        self.game: Game | None = None
        self._legal: dict[int, Action] = {}

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ AEC
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; ``seed`` is the game's seed (None: drawn from the environment's
        generator, itself reseeded by every explicit seed)."""
        if seed is not None:
            self._seeds.seed(seed)
            game_seed = int(seed)
        else:
            game_seed = self._seeds.getrandbits(63)
        self.game = self.rules.new_game(seed=game_seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._after_action()

    def _index(self, action: Action) -> int:
        if action.kind == "pass":
            return 0
        if action.kind == "play":
            i = self._play_ids.get(action.move)  # type: ignore[arg-type]
        else:
            i = self._other_ids.get((action.kind, action.value))
        if i is None:
            raise DdzError(f"{self.rules.variant.name}: the runtime offered {action}, which has no "
                           "action id (a bug of the environment's action table)")
        return i

    def _after_action(self) -> None:
        game = self.game
        assert game is not None
        if game.over:
            self._legal = {}
            scores = game.scores or [0] * self.n
            scale = game.stake if self.normalize and game.stake else 1
            for i, a in enumerate(self.possible_agents):
                self.rewards[a] = scores[i] / scale if self.normalize else scores[i]
                self.terminations[a] = True
                self.infos[a] = {"scores": list(scores)}
            self.agent_selection = self.agents[0]
            return
        self._legal = {self._index(a): a for a in game.legal_actions()}
        seat = game.to_act
        assert seat is not None
        self.agent_selection = self.possible_agents[seat]
        for a in self.possible_agents:
            self.infos[a] = {"legal_moves": sorted(self._legal)} if a == self.agent_selection else {}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations.get(agent) or self.truncations.get(agent):
            self._was_dead_step(action)
            return
        try:
            i = int(action)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            raise IllegalActionError(f"an action is an integer id, not {action!r}") from None
        if i != action or not 0 <= i < len(self.action_list):
            raise IllegalActionError(f"action {action!r} is out of range 0-{len(self.action_list) - 1}")
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

    def describe(self, action_id: int) -> str:
        """What an action id means, as text (``pass``, ``play 33 (pair)``, ``bid 2`` …)."""
        a = self.action_list[action_id]
        if a is None:
            return "pass"
        if isinstance(a, Move):
            return f"play {a.cards} ({a.combo})"
        return a[0] if a[1] is None else f"{a[0]} {a[1]}"

    def observe(self, agent: str) -> dict[str, Any]:
        game = self.game
        assert game is not None
        me = self.possible_agents.index(agent)
        n = self.n
        order = [(me + k) % n for k in range(n)]
        rel = {s: k for k, s in enumerate(order)}
        view = game.view(me)
        hand = np.zeros(NUM_RANKS, np.int8)
        hand[:] = _counts(view.hand)
        played = np.zeros((n, NUM_RANKS), np.int8)
        for s in range(n):
            for m in game.played[s]:
                played[rel[s]] += np.array(C.unpack(m.packed)[:NUM_RANKS], np.int8)
        last = np.zeros(NUM_RANKS, np.int8)
        if view.last_play is not None:
            last[:] = C.unpack(view.last_play.packed)[:NUM_RANKS]
        last_seat = np.zeros(n + 1, np.int8)
        last_seat[rel[view.last_seat] if view.last_seat is not None and view.last_play is not None else n] = 1
        landlord = np.zeros(n + 1, np.int8)
        landlord[rel[view.landlord] if view.landlord is not None else n] = 1
        kitty = np.zeros(NUM_RANKS, np.int8)
        if view.kitty:
            kitty[:] = _counts(view.kitty)
        phase = np.zeros(len(PHASES), np.int8)
        phase[PHASES.index(view.phase)] = 1
        mask = np.zeros(len(self.action_list), np.int8)
        if agent == self.agent_selection and not game.over:
            mask[list(self._legal)] = 1
        return {"observation": {
            "hand": hand, "played": played, "last_play": last, "last_seat": last_seat,
            "landlord": landlord,
            "hand_sizes": np.array([view.hand_sizes[s] for s in order], np.int16),
            "kitty": kitty, "phase": phase,
            "multiple": np.array([view.multiple], np.float32),
            "stake": np.array([view.stake or 0], np.float32),
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
