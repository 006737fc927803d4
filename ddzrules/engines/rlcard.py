"""The ``rlcard`` engine: RLCard 1.2.0's Dou Dizhu rules, asked through RLCard's own code.

A conformance run should test the engine, not a re-implementation of it, so every
answer here comes from RLCard's modules as its game uses them:

* ``classify``: the ``CARD_TYPE`` lookup RLCard loads from its json
  (``rlcard.games.doudizhu.utils``), the same table ``get_gt_cards`` reads;
* ``compare`` and answers in ``moves``: ``DoudizhuPlayer.available_actions`` with a
  rival holding the play, i.e. ``get_gt_cards`` (same type, higher weight, plus bombs
  and the rocket, plus ``pass``), exactly what ``DoudizhuGame.get_state`` asks;
* leads in ``moves``: ``available_actions`` without a rival, i.e. the
  ``DoudizhuJudger`` built on the hand (``playable_cards_from_hand``);
* ``census``: the action space (``ID_2_ACTION`` without ``pass``).

Cards cross the boundary in ddzrules' canonical notation; RLCard writes the same
ranks in the same order except the jokers, ``B`` (black, small) and ``R`` (red, big)
for ``X`` and ``D``. rlcard is imported when the adapter is built, so this module
imports without it. See ``docs/engines/rlcard.md``.
"""

from __future__ import annotations

import re
from collections import Counter
from importlib import metadata
from typing import Any

from ddzrules.engines import (
    CensusAnswer,
    Classification,
    Finding,
    FindingNotes,
    MovesAnswer,
    Reading,
    Unsupported,
    no_wild,
    require_one_deck,
)
from ddzrules.errors import DdzError

INSTALL = "pip install 'ddzrules[rlcard]'"
RANKS = "3456789TJQKA2XD"
RANK_INDEX = {ch: i for i, ch in enumerate(RANKS)}
TO_RLCARD = str.maketrans("XD", "BR")
FROM_RLCARD = str.maketrans("BR", "XD")
SUITS = "SHDC"
#: the first rank that never chains (2) and the jokers' ranks
TWO, SMALL_JOKER, BIG_JOKER = 12, 13, 14
#: how many witnesses a finding shows
WITNESSES = 5

#: RLCard card type (without its ``_N`` chain length) -> (compat/rlcard combo, cards per
#: unit of the main group); the main group is what RLCard's weight ranks
TYPES: dict[str, tuple[str, int]] = {
    "solo": ("single", 1), "pair": ("pair", 2), "trio": ("trio", 3), "bomb": ("bomb", 4),
    "rocket": ("rocket", 1), "trio_solo": ("trio_single", 3), "trio_pair": ("trio_pair", 3),
    "solo_chain": ("straight", 1), "pair_chain": ("pair_chain", 2), "trio_chain": ("plane", 3),
    "trio_solo_chain": ("plane_solos", 3), "trio_pair_chain": ("plane_pairs", 3),
    "four_two_solo": ("four_two", 4), "four_two_pair": ("four_two_pairs", 4),
}
_TYPE_RE = re.compile(r"^(.*?)(?:_(\d+))?$")


def _play_key(cards: str) -> tuple[int, tuple[int, ...]]:
    """Smallest first: by size, then rank by rank (how witnesses are chosen and shown)."""
    return len(cards), tuple(RANK_INDEX[c] for c in cards)


def canonical(cards: str) -> str:
    """``cards`` sorted low to high; raises ValueError for a character that is no card.
    The protocol promises sorted canonical strings, but a wrong order would silently
    miss RLCard's lookup, so it is restored rather than trusted."""
    try:
        return "".join(sorted(cards, key=RANK_INDEX.__getitem__))
    except KeyError as e:
        raise ValueError(f"{cards!r}: {e.args[0]!r} is not a card of {RANKS}") from None


_HALF_READ = ("RLCard's data files (rlcard/games/doudizhu/jsondata/) were read incomplete: RLCard "
              "unpacks them at its first import and another process was doing so at the same time. "
              "Import it once alone (python -c 'import rlcard.games.doudizhu.utils') and run again.")


class RLCardEngine:
    """RLCard 1.2.0's Dou Dizhu (``pip install 'ddzrules[rlcard]'``). No options."""

    OPTIONS = ()

    def __init__(self, manifest: dict[str, Any], options: dict[str, str]) -> None:
        require_one_deck(manifest, "RLCard")
        try:
            from rlcard.games.base import Card
            from rlcard.games.doudizhu import utils
            from rlcard.games.doudizhu.game import DoudizhuGame
            from rlcard.games.doudizhu.judger import DoudizhuJudger
            from rlcard.games.doudizhu.player import DoudizhuPlayer
        except ImportError as e:
            raise ImportError(f"the rlcard engine drives RLCard 1.2.0, which cannot be imported "
                              f"({e}); install it with: {INSTALL}") from e
        except ValueError:  # a half-written JSON data file (json.JSONDecodeError)
            raise DdzError(_HALF_READ) from None
        try:
            version = metadata.version("rlcard")
        except metadata.PackageNotFoundError:  # pragma: no cover - a source checkout
            version = "?"
        self.name = f"RLCard {version}"
        self._Card = Card
        self._Judger = DoudizhuJudger
        self._Player = DoudizhuPlayer
        self._get_gt_cards = utils.get_gt_cards
        self._card_type: dict[str, list[list[str]]] = utils.CARD_TYPE[0]
        self._type_card: dict[str, dict[str, list[str]]] = utils.TYPE_CARD
        self._action_space: list[str] = list(utils.ID_2_ACTION)
        self._num_actions: int = DoudizhuGame.get_num_actions()
        letters = set(RANKS.translate(TO_RLCARD))
        # RLCard unzips its data files at its first import; a process importing it while
        # another unzips them reads them half-written (seen under pytest -n 2): a prefix
        # of the one-line action space, or bytes that are no cards. (In RLCard 1.2.0 the
        # action count is a constant that the whole file matches.)
        if len(self._action_space) != self._num_actions or not all(
                a == "pass" or set(a) <= letters for a in self._action_space):
            raise DdzError(_HALF_READ)
        self._notes = FindingNotes(WITNESSES)
        self._readings: dict[str, tuple[Reading, ...] | None] | None = None  # on first classify
        self._matrix: Any = None  # the action space as counts, built on the first lead

    # ------------------------------------------------------------------ notation

    def _player(self, hand: str, player_id: int = 0) -> Any:
        """A ``DoudizhuPlayer`` holding ``hand`` as RLCard's Card objects (suits only
        tell equal ranks apart; jokers are suit BJ/RJ with an empty rank, as its dealer
        makes them), sorted as its dealer sorts a hand."""
        cards = []
        seen: Counter[str] = Counter()
        for ch in hand:
            if ch == "X":
                cards.append(self._Card("BJ", ""))
            elif ch == "D":
                cards.append(self._Card("RJ", ""))
            else:
                if seen[ch] >= len(SUITS):
                    raise ValueError(f"{hand}: more than four {ch} (RLCard deals one deck)")
                cards.append(self._Card(SUITS[seen[ch]], ch))
                seen[ch] += 1
        if hand.count("X") > 1 or hand.count("D") > 1:
            raise ValueError(f"{hand}: one deck has one small and one big joker")
        player = self._Player(player_id, None)
        player.set_current_hand(cards)
        return player

    def _map_readings(self) -> dict[str, tuple[Reading, ...] | None]:
        """Each action's readings in compat/rlcard's terms.

        RLCard types a play by name (``trio_solo_chain_3``) and a *weight*, its rank key.
        In 1.2.0 the weight is the main group's lowest rank index plus a constant per type
        (0 for plain groups and chains, 1 for plays with kickers). Rather than trust that,
        the constant is measured here over the whole action space against the main group
        found in the cards, and the rank reported is the main group's highest unit
        (ddzrules' convention) read off the weight. A type whose
        weights do not follow one constant gets no readings (None) and a finding, rather
        than a guess."""
        structural: dict[str, list[tuple[str, int, int, int, int]]] = {}
        for action, types in self._card_type.items():
            cards = action.translate(FROM_RLCARD)
            counts = Counter(RANK_INDEX[c] for c in cards)
            for type_name, weight_text in types:
                m = _TYPE_RE.match(type_name)
                assert m is not None
                base, length = m.group(1), int(m.group(2) or 1)
                if base not in TYPES:
                    structural.setdefault(base, []).append((action, -1, -1, length, int(weight_text)))
                    continue
                per_unit = TYPES[base][1]
                if base == "rocket":
                    low = BIG_JOKER  # ddzrules ranks the rocket by its big joker
                    length = 1
                else:
                    mains = sorted(r for r, n in counts.items() if n >= per_unit)
                    starts = [r for r in mains if r + length - 1 < (TWO if length > 1 else BIG_JOKER + 1)
                              and all(r + i in counts and counts[r + i] >= per_unit for i in range(length))]
                    low = starts[0] if len(starts) == 1 else -1
                structural.setdefault(base, []).append((action, low, low + length - 1, length, int(weight_text)))
        offsets: dict[str, int | None] = {}
        for base, rows in structural.items():
            diffs = Counter(w - low for _, low, _, _, w in rows if low >= 0)
            offsets[base] = diffs.most_common(1)[0][0] if diffs and base in TYPES else None
            if base not in TYPES:
                self._notes.add("card types ddzrules cannot name",
                                "{n:,} RLCard card type(s) outside the 14 of compat/rlcard; "
                                "their plays get no readings", base, (0, base))
        out: dict[str, tuple[Reading, ...] | None] = {}
        unreliable: set[str] = set()
        for base, rows in structural.items():
            off = offsets[base]
            for action, low, high, length, weight in rows:
                if off is None or low < 0 or weight - off != low:
                    unreliable.add(action)
                    if base in TYPES:
                        self._notes.add(
                            "weights that do not rank the main group",
                            "{n:,} action(s) whose RLCard weight is not the main group's rank plus "
                            "its type's constant (their readings are not reported)",
                            action.translate(FROM_RLCARD), _play_key(action.translate(FROM_RLCARD)))
                    continue
                out[action] = (*(out.get(action) or ()), Reading(TYPES[base][0], RANKS[high], length))
        for action in unreliable:
            out[action] = None
        return out

    # ------------------------------------------------------------------ capabilities

    def classify(self, cards: str, wild: str | None) -> Classification:
        """A play iff RLCard's ``CARD_TYPE`` has it; its readings from RLCard's type/weight."""
        no_wild(wild, "RLCard")
        key = canonical(cards).translate(TO_RLCARD)
        if key not in self._card_type:
            return Classification(False)
        if self._readings is None:
            self._readings = self._map_readings()
        return Classification(True, self._readings.get(key))

    def compare(self, a: str, b: str, wild: str | None) -> bool:
        """Whether RLCard lets a player holding exactly ``a`` play it on ``b``:
        ``available_actions`` against a rival who played ``b`` (``get_gt_cards``)."""
        no_wild(wild, "RLCard")
        ra, rb = canonical(a).translate(TO_RLCARD), canonical(b).translate(TO_RLCARD)
        if rb not in self._card_type:
            raise Unsupported(f"{b} is not an RLCard play, so RLCard has no rule for answering it")
        if ra not in self._card_type:
            return False
        return ra in self._answers(canonical(a), rb)

    def _answers(self, hand: str, after_rl: str) -> list[str]:
        rival = self._Player(1, None)
        rival.played_cards = after_rl
        actions: list[str] = self._player(hand).available_actions(rival, None)
        return actions

    def moves(self, hand: str, after: str | None, wild: str | None) -> MovesAnswer:
        """The legal actions RLCard's game offers: on a lead the judger's playable cards of
        the hand, on an answer ``get_gt_cards`` (which includes ``pass``)."""
        no_wild(wild, "RLCard")
        hand = canonical(hand)
        if after is None:
            player = self._player(hand)
            judger = self._Judger([player], None)
            listed = list(player.available_actions(None, judger))
            self._check_lead(hand, set(listed))
        else:
            after_rl = canonical(after).translate(TO_RLCARD)
            if after_rl not in self._card_type:
                raise Unsupported(f"{after} is not an RLCard play, so RLCard has no rule for answering it")
            listed = self._answers(hand, after_rl)
        counts = Counter(a.translate(FROM_RLCARD) for a in listed)
        can_pass = counts.pop("pass", 0) > 0
        duplicates = tuple(sorted((p for p, n in counts.items() if n > 1), key=_play_key))
        for p in duplicates:
            self._notes.add("plays listed twice", "{n:,} (hand, play) pair(s) where RLCard lists a "
                            "play more than once", f"{p} from hand {hand}", (*_play_key(p), hand))
        return MovesAnswer(frozenset(counts), can_pass, duplicates)

    def _check_lead(self, hand: str, listed: set[str]) -> None:
        """RLCard has two listings: the judger's for a lead and, for an answer, every
        action of the action space the hand holds (``get_gt_cards``). A lead the action
        space lacks could never be answered (``CARD_TYPE`` has no type for it), and an
        action the hand holds that the judger leaves out is legal on an answer only; both
        would be RLCard disagreeing with itself, so each lead is checked against the
        action space (one vectorised containment test)."""
        import numpy as np  # RLCard's own dependency

        if self._matrix is None:
            actions = [a for a in self._action_space if a != "pass"]
            m = np.zeros((len(actions), len(RANKS)), dtype=np.int8)
            for i, a in enumerate(actions):
                for c in a.translate(FROM_RLCARD):
                    m[i, RANK_INDEX[c]] += 1
            self._matrix = (actions, m)
        actions, m = self._matrix
        counts = np.zeros(len(RANKS), dtype=np.int8)
        for c in hand:
            counts[RANK_INDEX[c]] += 1
        held = {actions[i] for i in np.flatnonzero((m <= counts).all(axis=1))}
        for a in listed - held:
            p = a.translate(FROM_RLCARD)
            self._notes.add("leads outside the action space",
                            "{n:,} play(s) the judger lists for a lead that RLCard's action space "
                            "(CARD_TYPE) lacks: nobody could answer them", f"{p} from hand {hand}",
                            (*_play_key(p), hand))
        for a in held - listed:
            p = a.translate(FROM_RLCARD)
            self._notes.add("actions the judger does not lead",
                            "{n:,} action(s) a hand holds that the judger does not list for a lead, "
                            "though get_gt_cards would list them on an answer",
                            f"{p} from hand {hand}", (*_play_key(p), hand))

    def census(self) -> CensusAnswer:
        """RLCard's action space without ``pass``, per combo by its ``CARD_TYPE``; checks on
        the way that the action space, ``CARD_TYPE``, ``TYPE_CARD`` and the game's action
        count agree (a disagreement is a finding, not a failure)."""
        actions = [a for a in self._action_space if a != "pass"]
        repeated = [a for a, n in Counter(actions).items() if n > 1]
        for a in repeated:
            p = a.translate(FROM_RLCARD)
            self._notes.add("actions listed twice", "{n:,} play(s) appear more than once in "
                            "RLCard's action space", p, _play_key(p))
        distinct = set(actions)
        for a in distinct ^ set(self._card_type):
            p = a.translate(FROM_RLCARD)
            where = "CARD_TYPE" if a in distinct else "the action space"
            self._notes.add("action space and CARD_TYPE differ",
                            "{n:,} play(s) in one of RLCard's action space and CARD_TYPE but not "
                            "the other", f"{p} (missing from {where})", _play_key(p))
        inverse = {(a, t, w) for t, by_weight in self._type_card.items()
                   for w, plays in by_weight.items() for a in plays}
        direct = {(a, t, w) for a, types in self._card_type.items() for t, w in types}
        for a, t, w in inverse ^ direct:
            p = a.translate(FROM_RLCARD)
            self._notes.add("CARD_TYPE and TYPE_CARD differ",
                            "{n:,} (play, type, weight) entries in one of RLCard's two type tables "
                            "but not the other", f"{p} {t} {w}", _play_key(p))
        by_combo: Counter[str] = Counter()
        for a in distinct:
            for type_name, _ in self._card_type.get(a, ()):
                m = _TYPE_RE.match(type_name)
                assert m is not None
                by_combo[TYPES.get(m.group(1), (m.group(1), 0))[0]] += 1
        return CensusAnswer(len(distinct), dict(by_combo))

    def findings(self) -> list[Finding]:
        """What the run noticed of RLCard disagreeing with itself (none so far for 1.2.0)."""
        return self._notes.findings()


__all__ = ["RLCardEngine"]
