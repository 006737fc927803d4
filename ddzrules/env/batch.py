"""Many tables a step: the environment of :mod:`ddzrules.env`, batched, in NumPy arrays.

>>> import numpy as np                                   # doctest: +SKIP
>>> from ddzrules.env.batch import BatchEnv              # doctest: +SKIP
>>> tables = BatchEnv("hubei-3p", num_tables=256)        # doctest: +SKIP
>>> obs = tables.reset(seed=1)                           # doctest: +SKIP
>>> rng = np.random.default_rng(0)                       # doctest: +SKIP
>>> for _ in range(1000):                                # doctest: +SKIP
...     actions = tables.sample(rng)                     # a legal action id per table
...     obs, rewards, terminated, info = tables.step(actions)

Each of the ``num_tables`` tables plays its own game of the spec. A step takes one action
id per table, for the seat whose turn it is there (``obs["to_act"]``), and returns:

* ``obs``: the observation of :mod:`ddzrules.env` — the same fields, ids and encoding,
  seats relative to the seat to act — with one more leading axis, the table
  (``obs["hand"]`` is ``int8[num_tables, 15]``, ``obs["history"]`` is
  ``int8[num_tables, 5n, 15]`` …); ``obs["action_mask"]`` is ``int8[num_tables, N]``,
  the legal ids of each table's seat to act, and ``obs["to_act"]`` (``int64[num_tables]``)
  that seat;
* ``rewards`` ``float64[num_tables, n]``: zeros, but for a table whose game ended with
  this step, each seat's settlement (absolute seats; divided by the stake with
  ``normalize=True``), as the AEC environment's rewards;
* ``terminated`` ``bool[num_tables]``: the tables whose game ended. Such a table has
  already been dealt its next game (its seed drawn from the batch's generator), and its
  row of ``obs`` is that game's first observation;
* ``info``: ``{"finished": [(table, game seed, scores), ...]}`` for the games that ended
  (a game seed replays the game: ``GameRules.new_game(seed)``, ``ddzrules play --seed``).

Row ``i`` of ``obs`` is exactly what ``ddzrules.env.env(spec).observe(agent)`` gives the
agent to act in the same game after the same actions (``tests/uses/test_env_batch.py``
holds the two to that, field by field). The arrays are new each step, except
``action_mask``: a read-only view of the batch's own mask (one that cannot be made
writeable), valid until the next ``step()`` or ``reset()`` (copy it to keep it; masking
256 tables of 12,658 ids afresh each step would cost more than the games).

``step()`` checks every table's action before it applies any, against the game's own
listing of its legal actions (never the mask): an id out of range or not legal raises
:class:`~ddzrules.errors.IllegalActionError` naming the table, and nothing changes.
Integers may be Python's or NumPy's, ``actions`` any integer array or list of them;
another argument that is no value it takes (``num_tables=np.array([3])``,
``normalize="no"``) is an :class:`~ddzrules.errors.ArgumentError`, a ValueError naming it. A
game that raises as it takes its (legal) action — a plugin's error, 100
redeals in a row — stays as it was while the other tables step; ``step()`` then raises
:class:`~ddzrules.errors.TableError` naming the tables, with the step's results as its
``result``. Everything random comes from ``reset(seed=...)``: the same seed gives the same
games, the same observations and the same seeds of the games that follow.
"""

from __future__ import annotations

import operator
import random
from bisect import bisect_left
from collections.abc import Sequence
from typing import Any, SupportsIndex, cast

import numpy as np

from ddzrules import cards as C
from ddzrules.env import NUM_RANKS, PHASES, counts_of_text, game_seed, play_key, raw_env
from ddzrules.errors import (
    ArgumentError,
    DdzError,
    IllegalActionError,
    NotResetError,
    TableError,
    brief,
)
from ddzrules.rules.moves import Move
from ddzrules.runtime import Action, Game

#: the most tables one batch plays
MAX_TABLES = 1 << 16
#: rows of card counts kept (plays, kitties) before they are made afresh between two steps
_ROWS_LIMIT = 1 << 16
#: the most bytes of the action mask (num_tables × the spec's action count): 256 MiB
MAX_MASK_BYTES = 1 << 28



def _index(value: object) -> int | None:
    """``value`` as an integer when it is one: a Python or NumPy integer (the ids of a mask
    come as ``np.int64``) or a NumPy array of no dimension holding one; else None (a bool,
    a float, a string, an array of several values …)."""
    if isinstance(value, np.ndarray):
        # one integer in an array of no axis (what indexing an array with [()] gives)
        return int(value) if value.ndim == 0 and value.dtype.kind in "iu" else None
    if isinstance(value, (bool, np.bool_)) or not hasattr(type(value), "__index__"):
        return None
    return operator.index(cast(SupportsIndex, value))  # __index__: checked above


def _shown(value: object) -> str:
    """``value`` in a message: an array by its shape and type (its items could be millions)."""
    if isinstance(value, np.ndarray):
        return f"an array of shape {value.shape} ({value.dtype})"
    return brief(value)


def _flag(value: object, name: str) -> bool:
    """``value`` as a yes or no: a bool (NumPy's too, or an array of no axis holding one);
    anything else an :class:`ArgumentError` naming ``name`` (bool() read "no" as True, and
    raised NumPy's ValueError on an array)."""
    if isinstance(value, np.ndarray) and value.ndim == 0 and value.dtype.kind == "b":
        return bool(value)
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    raise ArgumentError(f"{name} is True or False, not {_shown(value)}")


class BatchEnv:
    """``num_tables`` games of ``spec`` stepped together (module docstring). ``spec`` and
    ``plugins`` as :func:`ddzrules.env.env`; ``normalize`` divides the final scores by the
    stake."""

    # the arguments a caller may get wrong are ``object``: checked here, with a DdzError
    # that says what is wrong, in the compiled build too (mypyc would refuse a wrong type
    # with a bare TypeError before the check)
    def __init__(self, spec: object = "hubei-3p", num_tables: object = 64, normalize: object = False,
                 plugins: object = ()) -> None:
        count = _index(num_tables)
        if count is None or not 1 <= count <= MAX_TABLES:
            raise ArgumentError(f"num_tables must be an integer 1-{MAX_TABLES}, not {_shown(num_tables)}")
        num_tables = count
        normalize = _flag(normalize, "normalize")
        #: the AEC environment of the spec: its action table, spaces and id mapping are the batch's
        if not isinstance(spec, str):
            raise ArgumentError(f"spec is a bundled spec's name or a spec file's path, not {_shown(spec)}")
        # the AEC environment checks plugins and says what is wrong with them (Any: a cast
        # would be checked by mypyc, with its TypeError)
        given: Any = plugins
        self.single = single = raw_env(spec, normalize=bool(normalize), plugins=given)
        if num_tables * len(single.action_list) > MAX_MASK_BYTES:
            raise DdzError(f"{num_tables:,} tables of {single.rules.variant.name} would need an action mask of "
                           f"{num_tables * len(single.action_list):,} bytes, above the limit of {MAX_MASK_BYTES:,} "
                           f"(256 MiB): at most {MAX_MASK_BYTES // len(single.action_list):,} tables")
        self.rules = single.rules
        self.num_tables = t = num_tables
        self.n = n = single.n
        self.normalize = bool(normalize)
        self.action_list = single.action_list
        self.num_actions = len(single.action_list)
        self.history_len = h = single.history_len
        self.wild_ranks = single.wild_ranks
        self._bid_ids = {a: i for i, a in enumerate(single.bid_columns)}
        k = len(single.bid_columns)
        # the tallies of each table's history by absolute seat (the AEC environment's _sync)
        self._played = np.zeros((t, n, NUM_RANKS), np.int8)
        self._bids = np.zeros((t, n, k), np.int8)
        # the last history_len actions of the tricks: a ring per table, the next write at
        # count % history_len (oldest first once full; right-aligned padding before)
        self._hist_rows = np.zeros((t, h, NUM_RANKS), np.int8)
        self._hist_seats = np.full((t, h), -1, np.int64)
        self._mask = np.zeros((t, self.num_actions), np.int8)
        # what obs["action_mask"] is: read-only for good (a view's flag could be set back to
        # writeable; one made on a read-only buffer cannot), and never what step() trusts
        self._mask_view = np.frombuffer(self._mask.data.toreadonly(), np.int8).reshape(self._mask.shape)
        # rows of card counts by id (0: no cards), for plays and kitties
        self._rows = np.zeros((64, NUM_RANKS), np.int8)
        self._row_ids: dict[object, int] = {0: 0}
        self._wild_ids: dict[str | None, int] = {}
        self._wild_table = np.zeros((0, NUM_RANKS + 1), np.int8)
        self._eye = np.eye(n + 1, dtype=np.int8)
        self._wild_eye = np.eye(NUM_RANKS + 1, dtype=np.int8)
        self._phase_eye = np.eye(len(PHASES), dtype=np.int8)
        self._phase_index = {p: i for i, p in enumerate(PHASES)}
        self._orders = np.array([[(me + j) % n for j in range(n)] for me in range(n)], np.int64)
        self._ring = np.arange(h, dtype=np.int64)
        self._tables = np.arange(t, dtype=np.int64)
        self._seeds = random.Random()
        self.games: list[Game] = []
        #: each table's game seed (the game now at that table)
        self.seeds: list[int] = []
        # each table's legal actions: the plays listed in the variant's fast index, as
        # (positions ascending, the actions: those plays, then the pass when legal), else a
        # dict id -> action; and all tables' legal ids flat, table i's at
        # _ids[_offsets[i]:_offsets[i + 1]]
        self._listed: list[tuple[list[int], list[Action]] | dict[int, Action]] = []
        self._ids = np.zeros(0, np.int64)
        self._offsets = np.zeros(t + 1, np.int64)
        self._position_ids: tuple[tuple[Move, ...], np.ndarray, np.ndarray] | None = None
        self._gather = np.zeros(0, np.int64)
        self._set_gather(np.zeros(0, np.int64))
        self._synced = [0] * t
        self._last_seen: list[Action | None] = [None] * t
        self._in_tricks = [False] * t
        self._count = [0] * t
        self._pending: list[tuple[int, int, int, int]] = []

    # ------------------------------------------------------------------ public
    def reset(self, seed: object = None) -> dict[str, np.ndarray]:
        """A new game at every table; ``seed`` seeds the batch's generator, which draws each
        game's seed (None: drawn from the generator as it stands). The first observations."""
        if seed is not None:
            self._seeds.seed(game_seed(seed))
        self._mask[...] = 0
        self._pending = []
        self._forget_rows()
        self.games = [None] * self.num_tables  # type: ignore[list-item]
        self.seeds = [0] * self.num_tables
        self._listed = [{} for _ in range(self.num_tables)]
        self._ids = np.zeros(0, np.int64)
        for i in range(self.num_tables):
            self._deal(i)
        self._flush_pending()
        self._mark_all()
        return self._observe()

    def step(self, actions: object) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, dict[str, Any]]:
        """One action id per table (module docstring): (obs, rewards, terminated, info)."""
        if not self.games:
            raise NotResetError("call reset() before step()")
        chosen = self._check(actions)
        if len(self._row_ids) > _ROWS_LIMIT:
            self._forget_rows()
        t, n = self.num_tables, self.n
        rewards = np.zeros((t, n), np.float64)
        terminated = np.zeros(t, bool)
        finished: list[tuple[int, int, list[float]]] = []
        ended: list[int] = []
        failed: list[tuple[int, Exception]] = []
        for i, action in enumerate(chosen):
            game = self.games[i]
            try:
                game.apply(action)
            except DdzError as error:  # the game is as it was (the runtime rolls back)
                failed.append((i, error))
                continue
            self._sync(i, game)
            if game.over:
                scores: list[float] = list(game.scores or [0] * n)
                scale = game.stake if self.normalize and game.stake else 1
                rewards[i] = [s / scale for s in scores] if self.normalize else scores
                terminated[i] = True
                finished.append((i, self.seeds[i], scores))
                ended.append(i)
        self._flush_pending()
        for i in ended:  # the next game at each table whose game ended
            self._deal(i)
        if ended:
            self._flush_pending()
        self._mark_all()
        result = self._observe(), rewards, terminated, {"finished": finished}
        if failed:
            first, first_error = failed[0]
            raise TableError(f"table {first}: {first_error} (that game is as it was; "
                             f"{len(failed)} of {t} tables raised, the others took their actions: "
                             "the step's results are the error's .result)",
                             [i for i, _ in failed], [e for _, e in failed], result)
        return result

    def observe(self) -> dict[str, np.ndarray]:
        """The observations now (what the last ``reset()`` or ``step()`` returned)."""
        if not self.games:
            raise NotResetError("call reset() before observe()")
        return self._observe()

    def sample(self, rng: object) -> np.ndarray:
        """A legal action id per table, uniformly (a random agent; ``rng`` a NumPy generator
        or a ``random.Random``)."""
        if not self.games:
            raise NotResetError("call reset() before sample()")
        if not isinstance(rng, (random.Random, np.random.Generator)):
            raise ArgumentError(f"sample() takes a numpy.random.Generator or a random.Random, not {brief(rng)}")
        starts, sizes = self._offsets[:-1], np.diff(self._offsets)
        if isinstance(rng, random.Random):
            which = np.array([rng.randrange(k) for k in sizes.tolist()], np.int64)
        else:
            which = np.minimum((rng.random(len(sizes)) * sizes).astype(np.int64), sizes - 1)
        return self._ids[starts + which]

    def legal_ids(self, table: object) -> list[int]:
        """The legal action ids at ``table``, ascending (what its mask row marks)."""
        t = _index(table)
        if t is None or not 0 <= t < self.num_tables:
            raise ArgumentError(f"legal_ids(table): no table {_shown(table)}: the tables are 0-{self.num_tables - 1}")
        return sorted(self._ids[self._offsets[t]:self._offsets[t + 1]].tolist())

    def describe(self, action_id: object) -> str:
        """What an action id means, in words (as :meth:`ddzrules.env.raw_env.describe`)."""
        i = _index(action_id)
        if i is None or not 0 <= i < self.num_actions:
            raise IllegalActionError(f"describe(action_id): no action id {_shown(action_id)}: the ids are "
                                     f"0-{self.num_actions - 1}")
        return self.single.describe(i)

    # ------------------------------------------------------------------ the games
    def _check(self, actions: object) -> list[Action]:
        """The runtime action of each table's id, every id checked before any is applied,
        against the listing of the game's legal actions (never the mask: the caller holds
        it, and a mask edited once made a masked-out id apply the next legal play)."""
        try:
            arr = np.asarray(actions)
        except (ValueError, TypeError, OverflowError):  # ragged lists, ids past any integer type
            arr = np.asarray(None)
        if arr.shape != (self.num_tables,) or arr.dtype.kind not in "iu":
            raise IllegalActionError(f"step() takes one integer action id per table: an integer array of "
                                     f"shape ({self.num_tables},), not "
                                     f"{_shown(arr) if arr.ndim else _shown(actions)}")
        out: list[Action] = []
        assert self._position_ids is not None or all(type(x) is dict for x in self._listed)
        position_of = self._position_ids[2] if self._position_ids is not None else None
        for i, (a, listed) in enumerate(zip(arr.tolist(), self._listed)):
            chosen = self._listed_action(a, listed, position_of)
            if chosen is None:
                inside = 0 <= a < self.num_actions
                what = (f"action {a} ({self.single.describe(a)}) is not legal there now" if inside
                        else f"action {a} is out of range 0-{self.num_actions - 1}")
                ids = self.legal_ids(i)
                raise IllegalActionError(f"table {i}: {what}; legal: {', '.join(map(str, ids[:8]))}"
                                         f"{' …' if len(ids) > 8 else ''} (nothing was applied)")
            out.append(chosen)
        return out

    @staticmethod
    def _listed_action(a: int, listed: tuple[list[int], list[Action]] | dict[int, Action],
                       position_of: np.ndarray | None) -> Action | None:
        """The legal action of id ``a`` in a table's listing, or None when it has none."""
        if isinstance(listed, dict):
            return listed.get(a)
        positions, acts = listed
        if a == 0:  # the pass: listed last, when it is legal
            return acts[-1] if len(acts) > len(positions) else None
        if position_of is None or not 0 < a < len(position_of):
            return None
        position = int(position_of[a])
        k = bisect_left(positions, position)
        return acts[k] if position >= 0 and k < len(positions) and positions[k] == position else None

    def _deal(self, i: int) -> None:
        """A new game at table ``i`` (its tallies cleared, its history read)."""
        seed = self._seeds.getrandbits(63)
        self.seeds[i] = seed
        self.games[i] = game = self.rules.new_game(seed=seed)
        self._clear(i)
        self._sync(i, game)

    def _clear(self, i: int) -> None:
        self._played[i] = 0
        self._bids[i] = 0
        self._hist_rows[i] = 0
        self._hist_seats[i] = -1
        self._synced[i] = 0
        self._last_seen[i] = None
        self._in_tricks[i] = False
        self._count[i] = 0

    def _sync(self, i: int, game: Game) -> None:
        """Read table ``i``'s new history (as the AEC environment's ``_sync``). The writes
        of the tricks' actions are gathered in ``_pending`` and made for every table at
        once (:meth:`_flush_pending`: a NumPy call per kind of write, not per action)."""
        history = game.history
        done = self._synced[i]
        if done > len(history) or (done and history[done - 1] is not self._last_seen[i]):
            self._flush_pending()  # a rewound game: read again from the start
            self._clear(i)
            done = 0
        in_tricks = self._in_tricks[i]
        for a in history[done:]:
            in_tricks = in_tricks or a.kind == "play"
            if not in_tricks:  # the auction and declarations: few, written now
                col = self._bid_ids.get(("pass", None) if a.kind == "pass" else (a.kind, a.value))
                if col is not None and self._bids[i, a.seat, col] < 127:
                    self._bids[i, a.seat, col] += 1
                continue
            move = a.move
            c = self._count[i]
            # (table, ring position, row of the cards: 0 for a pass, seat)
            self._pending.append((i, c % self.history_len, 0 if move is None else self._row_of(move.packed), a.seat))
            self._count[i] = c + 1
        self._in_tricks[i] = in_tricks
        self._synced[i] = len(history)
        self._last_seen[i] = history[-1] if history else None

    def _flush_pending(self) -> None:
        if self._pending:
            at, pos, row, seat = zip(*self._pending)
            self._pending = []
            cards = self._rows[list(row)]
            np.add.at(self._played, (at, seat), cards)  # a pass adds its row of zeros
            self._hist_rows[at, pos] = cards
            self._hist_seats[at, pos] = seat

    def _forget_rows(self) -> None:
        """Start the rows of card counts afresh (between steps: no id is held then)."""
        self._rows = np.zeros((64, NUM_RANKS), np.int8)
        self._row_ids = {0: 0}

    def _row_of(self, key: object, counts: Sequence[int] | None = None) -> int:
        """The id of a row of card counts: ``key`` a packed int (its counts unpacked) or
        any hashable naming ``counts``."""
        got = self._row_ids.get(key)
        if got is None:
            got = len(self._row_ids)
            if got == len(self._rows):
                self._rows = np.concatenate([self._rows, np.zeros_like(self._rows)])
            self._rows[got] = (C.unpack(key) if counts is None else counts)[:NUM_RANKS]  # type: ignore[arg-type]
            self._row_ids[key] = got
        return got

    def _mark_all(self) -> None:
        """List each table's legal actions and mark them in the mask (the marks of the
        step before cleared first). Every table's legal ids come from one gather through
        ``_gather``: plays listed in the variant's fast index by their positions, other
        actions (the pass, and listings of bids, declarations, wild cards: the AEC
        environment's ``legal_by_id``) by their ids, written -1 - id."""
        if len(self._ids):
            self._mask[np.repeat(self._tables, np.diff(self._offsets)), self._ids] = 0
        by_id = self.single.legal_by_id
        sizes: list[int] = []
        flat: list[int] = []
        listed = self._listed
        moves = self._position_ids[0] if self._position_ids is not None else None
        for i, game in enumerate(self.games):
            actions, got = game.legal_listing()
            if got is not None:
                if got[0] is not moves:
                    self._position_ids = self._map_positions(got[0])
                    moves = got[0]
                positions = got[1]
                listed[i] = (positions, actions)
                flat += positions
                if len(actions) > len(positions):  # the pass (id 0), listed last
                    flat.append(-1)
                sizes.append(len(actions))
            else:
                legal = listed[i] = by_id(actions)
                flat += [-1 - a for a in legal]
                sizes.append(len(legal))
        at = np.array(flat, np.int64)
        self._ids = self._gather[np.where(at < 0, len(self._gather) - self.num_actions - 1 - at, at)]
        self._offsets = np.zeros(self.num_tables + 1, np.int64)
        np.cumsum(sizes, out=self._offsets[1:])
        self._mask[np.repeat(self._tables, sizes), self._ids] = 1

    def _map_positions(self, moves: tuple[Move, ...]) -> tuple[tuple[Move, ...], np.ndarray, np.ndarray]:
        """(the fast index's Moves, the action id of each position, the position of each
        action id or -1): natural plays, whose id is that of their reading; ``_gather``
        made for them."""
        ids = self.single.position_ids(moves)
        position_of = np.full(self.num_actions, -1, np.int64)
        position_of[ids] = np.arange(len(moves))
        self._set_gather(ids)
        return moves, ids, position_of

    def _set_gather(self, position_ids: np.ndarray) -> None:
        """``_gather``: the id of each position, then every id as itself."""
        self._gather = np.concatenate([position_ids, np.arange(self.num_actions)]).astype(np.int64)

    # ------------------------------------------------------------------ observations
    def _wild_index(self, text: str | None) -> int:
        """The row of ``_wild_table`` of a game's wild ranks (its ``public["wild"]``)."""
        got = self._wild_ids.get(text)
        if got is None:
            if not text:
                row = self._wild_eye[NUM_RANKS]
            else:  # one entry per wild rank (天地癞子: several)
                row = self._wild_eye[[C.RANKS.index(r) for r in text.split(",")]].sum(axis=0, dtype=np.int8)
            got = self._wild_ids[text] = len(self._wild_table)
            self._wild_table = np.concatenate([self._wild_table, row[None]])
        return got

    def _observe(self) -> dict[str, np.ndarray]:
        """The observation of each table's seat to act (the AEC environment's ``_observe``,
        a row per table): what each game says is read in one pass, the arrays made once."""
        t, n = self.num_tables, self.n
        games = self.games
        phases = self._phase_index
        wilds = bool(self.wild_ranks)
        row_of = self._row_of
        wild_index = self._wild_index
        per: list[tuple[int, int, int, int, int, int, float, float, int]] = []
        seen: list[int] = []  # tables whose hands are seen through a view, or with hands shown
        for i, game in enumerate(games):
            st = game.state  # the game's data, read directly (no property a field)
            s = st.turn
            assert s is not None and st.phase != "over"
            lp = st.last_play
            if lp is None:
                last, last_seat = 0, n
            else:
                last = row_of(play_key(lp)[3]) if lp.substitution else row_of(lp.packed)
                ls = st.last_seat
                last_seat = n if ls is None else (ls - s) % n
            lord = st.landlord
            kitty = st.kitty
            per.append((s, last, last_seat, n if lord is None else (lord - s) % n,
                        row_of(bytes(kitty), kitty) if st.kitty_visible and kitty else 0,
                        phases[st.phase], min(game.multiple if st.events else 1.0, 1e9),
                        min(st.stake or 0, 1e9), wild_index(st.public.get("wild") if wilds else None)))
            if st.visible_dealt is not None or st.shown_hands:
                seen.append(i)
        me, lasts, last_seats, landlords, kitties, phase, multiple, stake, wild = map(list, zip(*per))
        me_np = np.array(me, np.int64)
        order = self._orders[me_np]  # (t, n): absolute seat of each relative index
        tables = self._tables
        by_seat = tables[:, None]
        # every hand's counts, as bytes (counts are small): one buffer, no per-card conversion
        hands = np.frombuffer(b"".join([bytes(h) for game in games for h in game.state.hands]),
                              np.uint8).reshape(t, n, -1)
        hand = hands[tables, me_np, :NUM_RANKS].astype(np.int8)
        sizes = hands.sum(axis=2, dtype=np.int16)[by_seat, order]
        shown = np.zeros((t, n, NUM_RANKS), np.int8)
        for i in seen:
            game, s = games[i], me[i]
            if game.visible_dealt is not None:
                hand[i] = counts_of_text(game.view(s).hand)[:NUM_RANKS]
            for other in game.shown_hands:
                if other != s:
                    shown[i, (other - s) % n] = counts_of_text(game.seen_hand(other))[:NUM_RANKS]
        count = np.array(self._count, np.int64)
        window = (count[:, None] + self._ring) % self.history_len
        seats = self._hist_seats[by_seat, window]
        rel = np.where(seats < 0, n, (seats - me_np[:, None]) % n)
        rows = self._rows
        eye = self._eye
        return {
            "hand": hand,
            "wild": self._wild_table[wild],
            "played": self._played[by_seat, order],
            "last_play": rows[lasts],
            "last_seat": eye[last_seats],
            "landlord": eye[landlords],
            "hand_sizes": sizes,
            "kitty": rows[kitties],
            "shown": shown,
            "history": self._hist_rows[by_seat, window],
            "history_seat": eye[rel],
            "bids": self._bids[by_seat, order],
            "phase": self._phase_eye[phase],
            "multiple": np.array(multiple, np.float32)[:, None],
            "stake": np.array(stake, np.float32)[:, None],
            "action_mask": self._mask_view,
            "to_act": me_np,
        }


__all__ = ["MAX_MASK_BYTES", "MAX_TABLES", "ArgumentError", "BatchEnv", "IllegalActionError", "NotResetError"]
