"""The ``douzero`` engine: DouZero 1.1.0's Dou Dizhu rules, asked through DouZero's own code.

DouZero has three pieces of rules code that do not quite agree, and a conformance
run should show each where the game uses it:

* ``classify``: the lead generator — a card set is a play iff ``MovesGener`` makes
  it from a hand of exactly those cards (readings are not reported: the generator
  names families, not ranks); ``move_detector.get_move_type``, the classifier its game
  applies to the rival's move, is asked too, and where it disagrees that is a finding;
* ``moves``, ``compare``: ``GameEnv.get_legal_card_play_actions`` itself, run on a
  ``GameEnv`` whose acting player holds the hand and whose action sequence ends with
  the play to answer: the detector types the rival move, ``MovesGener`` generates that
  type, ``move_selector`` filters it, bombs, the rocket and pass are added;
* ``census``: every distinct play ``MovesGener`` makes from a full deck, at most 20
  cards (the landlord's hand).

Where the three disagree the adapter keeps a finding (``findings()``): generator plays
the detector rejects, card sets the detector accepts that the generator never makes,
single-wing planes the selector ranks by a trio in the wings, and plays its lists
repeat. Cards cross the boundary in ddzrules' canonical notation; DouZero's cards are
the ints 3-14 (3 to A), 17 (2), 20 (small joker) and 30 (big joker). douzero is
imported when the adapter is built, so this module imports without it. Importing
any ``douzero.env`` module runs ``douzero/env/__init__.py``, which imports ``env``
and ``game`` (numpy, no torch, in 1.1.0), so ``GameEnv`` costs nothing extra. See
``docs/engines/douzero.md``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from importlib import metadata
from typing import Any, ClassVar

from ddzrules.engines import (
    CensusAnswer,
    Classification,
    Discrepancy,
    Finding,
    FindingNotes,
    MovesAnswer,
    no_wild,
    require_one_deck,
)
from ddzrules.errors import brief

INSTALL = "pip install --no-deps douzero==1.1.0"
RANKS = "3456789TJQKA2XD"
RANK_INDEX = {ch: i for i, ch in enumerate(RANKS)}
#: DouZero's card int for each canonical rank, and back
DZ_CARD = (3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 20, 30)
CARD_OF = {n: RANKS[i] for i, n in enumerate(DZ_CARD)}
TO_DZ = dict(zip(RANKS, DZ_CARD))
#: one deck: four of each rank, one of each joker
DECK = tuple([4] * 13 + [1, 1])
#: DouZero deals 17, 17 and 20 cards: no play is larger than the landlord's hand
LARGEST_HAND = 20
#: chain ranks 3..A are indices 0..11
CHAIN_RANKS = 12
#: serial trios with single wings from this many trios up are generated from hands that
#: cover the full deck's choices (``census=hands``); below, from the full deck itself
COVER_FROM = 4
WITNESSES = 5

#: detector type -> compat/douzero combo
COMBOS = {
    1: "single", 2: "pair", 3: "trio", 4: "bomb", 5: "rocket", 6: "trio_single", 7: "trio_pair",
    8: "straight", 9: "pair_chain", 10: "plane", 11: "plane_solos", 12: "plane_pairs",
    13: "four_two", 14: "four_two_pairs",
}
#: generator families: MovesGener method -> compat/douzero combo
FAMILIES = {
    "gen_type_1_single": "single", "gen_type_2_pair": "pair", "gen_type_3_triple": "trio",
    "gen_type_4_bomb": "bomb", "gen_type_5_king_bomb": "rocket", "gen_type_6_3_1": "trio_single",
    "gen_type_7_3_2": "trio_pair", "gen_type_8_serial_single": "straight",
    "gen_type_9_serial_pair": "pair_chain", "gen_type_10_serial_triple": "plane",
    "gen_type_11_serial_3_1": "plane_solos", "gen_type_12_serial_3_2": "plane_pairs",
    "gen_type_13_4_2": "four_two", "gen_type_14_4_22": "four_two_pairs",
}


def _play_key(cards: str) -> tuple[int, tuple[int, ...]]:
    """Smallest first: by size, then rank by rank (how witnesses are chosen and shown)."""
    return len(cards), tuple(RANK_INDEX[c] for c in cards)


def to_douzero(cards: str) -> list[int]:
    """Canonical cards -> DouZero's sorted card ints (its detector and selector expect
    sorted lists). Raises ValueError for a character that is no card."""
    try:
        return sorted(TO_DZ[c] for c in cards)
    except KeyError as e:
        raise ValueError(f"{cards!r}: {e.args[0]!r} is not a card of {RANKS}") from None


def from_douzero(move: list[int]) -> str:
    return "".join(CARD_OF[n] for n in sorted(move))


# the titles of the findings (tests and docs refer to them)
REJECTED = "generator plays its own detector rejects"
DETECTOR_ONLY = "card sets the detector accepts that the generator never makes"
WING_RANKED = "single-wing planes the selector ranks by a trio in the wings"
TWO_FAMILIES = "plays two of its generators both make"
REPEATED = "plays listed more than once for one hand"


def _chain_top(cards: str) -> int:
    """The top (a DouZero card int) of the longest run of trios 3..A in ``cards``, the
    highest such run on a tie: where a plane's chain ends, wings aside."""
    held = Counter(to_douzero(cards))
    best = (0, 0)
    run = 0
    for n in range(3, 15):
        run = run + 1 if held[n] >= 3 else 0
        if run:
            best = max(best, (run, n))
    return best[1]


def cover_hands(length: int) -> Iterator[list[int]]:
    """Hands whose ``gen_type_11_serial_3_1(repeat_num=length)`` outputs, together, hold
    every distinct play that call makes on the full deck, at a tenth of the work.

    On the full deck the generator takes every ``length``-combination of the 54 - 4*length
    cards outside a chain's ranks (2.2 million lists for five trios, 6.5 s) to reach some
    12,000 distinct plays. Here, per chain and per *profile* (the ranks the wings repeat,
    with their counts, at most ``length`` cards in all), the hand is the chain's trios, the
    profile's cards and, unless the profile alone fills the wings, one card of every other
    rank outside the chain (both jokers included). Any wing set W is inside the hand of
    its own chain and its own profile (its repeated ranks exactly, every other card of W a
    different rank), so the union is complete; every hand is part of a deck, so nothing
    the full deck would not give is added. ``census=deck`` runs the full deck instead."""
    for start in range(CHAIN_RANKS - length + 1):
        chain = range(start, start + length)
        outside = [r for r in range(13) if r not in chain]
        trios = [DZ_CARD[r] for r in chain for _ in range(3)]
        for profile in _profiles(outside, length):
            hand = list(trios)
            for r, k in profile:
                hand += [DZ_CARD[r]] * k
            if sum(k for _, k in profile) < length:
                used = {r for r, _ in profile}
                hand += [DZ_CARD[r] for r in outside if r not in used] + [20, 30]
            yield sorted(hand)


def _profiles(outside: list[int], length: int) -> Iterator[tuple[tuple[int, int], ...]]:
    """Every way wings of ``length`` cards can repeat ranks: (rank, count >= 2) pairs."""
    def grow(i: int, room: int, acc: tuple[tuple[int, int], ...]) -> Iterator[tuple[tuple[int, int], ...]]:
        yield acc
        for j in range(i, len(outside)):
            for k in range(2, min(DECK[outside[j]], room) + 1):
                yield from grow(j + 1, room - k, (*acc, (outside[j], k)))
    yield from grow(0, length, ())


class DouZeroEngine:
    """DouZero 1.1.0 (``pip install --no-deps douzero==1.1.0``). Options: ``census`` =
    ``hands`` (default: the full deck, serial trios with single wings from cover hands)
    or ``deck`` (everything from the full deck: ~10 s, ~600 MB)."""

    OPTIONS = ("census",)
    #: where DouZero's answers follow its detector or selector rather than its generator
    #: (docs/engines/douzero.md); ``known_defect`` tells them from the cards alone
    KNOWN_DEFECTS: ClassVar[dict[str, str]] = {
        "plane-ranked-by-a-wing-trio": (
            "move_selector compares planes with single wings by the highest rank held three "
            "times, wings included, so 333444555999 beats 444555666JQK"),
        "answer-to-a-rejected-play": (
            "after a play its own detector rejects (TYPE_15_WRONG: planes of 4-5 trios whose "
            "single wings hold a trio or a four), DouZero allows only bombs and the rocket"),
    }

    def __init__(self, manifest: dict[str, Any], options: dict[str, str]) -> None:
        require_one_deck(manifest, "DouZero")
        self._census_mode = options.get("census", "hands")
        if self._census_mode not in ("hands", "deck"):
            raise ValueError(f"census={brief(self._census_mode)}: choose hands or deck")
        try:
            from douzero.env import move_detector, move_generator
            from douzero.env.game import GameEnv
        except ImportError as e:
            hint = " (and numpy, which douzero.env imports)" if getattr(e, "name", "") == "numpy" else ""
            raise ImportError(f"the douzero engine drives DouZero 1.1.0, which cannot be imported "
                              f"({e}); install it with: {INSTALL}{hint}") from e
        try:
            version = metadata.version("douzero")
        except metadata.PackageNotFoundError:  # pragma: no cover - a source checkout
            version = "?"
        self.name = f"DouZero {version}"
        self._md = move_detector
        self._MovesGener = move_generator.MovesGener
        # GameEnv's constructor only sets attributes; players are never asked to act here
        self._env = GameEnv(players={})
        self._env.acting_player_position = "landlord"
        self._wrong = move_detector.TYPE_15_WRONG
        self._pass = move_detector.TYPE_0_PASS
        self._notes = FindingNotes(WITNESSES)
        self._types: dict[str, dict[str, int]] = {}  # detector answers by canonical cards
        self._census: CensusAnswer | None = None
        self._universe: dict[str, tuple[str, ...]] = {}

    # ------------------------------------------------------------------ DouZero's code

    def _type(self, cards: str) -> dict[str, int]:
        """``move_detector.get_move_type`` of canonical cards (memoised: a run asks about
        the same plays again and again)."""
        t = self._types.get(cards)
        if t is None:
            t = self._types[cards] = self._md.get_move_type(to_douzero(cards))
        return t

    def _is_play(self, t: dict[str, int]) -> bool:
        return t["type"] not in (self._wrong, self._pass)

    def _legal(self, hand: list[int], rival: list[int]) -> list[list[int]]:
        """``GameEnv.get_legal_card_play_actions`` for the acting player holding ``hand``
        after ``rival`` (empty: a lead). Copies go in: the selector sorts moves in place."""
        env = self._env
        env.info_sets["landlord"].player_hand_cards = list(hand)
        env.card_play_action_seq = [list(rival)] if rival else []
        moves: list[list[int]] = env.get_legal_card_play_actions()
        return moves

    def _wing_trio_rank(self, cards: str) -> int:
        """The rank ``move_selector.filter_type_11_serial_3_1`` compares: the highest rank
        held three times, wings included."""
        counts = Counter(to_douzero(cards))
        return max(k for k, v in counts.items() if v == 3)

    # ------------------------------------------------------------------ capabilities

    def classify(self, cards: str, wild: str | None) -> Classification:
        """A play iff the lead generator makes it from a hand of exactly these cards (what
        a DouZero player can play). The detector is asked too: where the two disagree,
        that is a finding, not the answer."""
        no_wild(wild, "DouZero")
        cards = from_douzero(to_douzero(cards))
        t = self._type(cards)
        play = self._is_play(t)
        made = cards in {from_douzero(m) for m in self._MovesGener(to_douzero(cards)).gen_moves()}
        if made and not play:
            self._note_rejected(cards)
        elif play and not made:
            self._notes.add(DETECTOR_ONLY, "{n:,} card set(s) move_detector types as a play that "
                            "MovesGener never generates, so a DouZero player can never play them: "
                            "a four and a single read as a trio and a pair, two fours as a four and "
                            "two pairs, four trios (three in a row) with any extra cards as a plane "
                            "of three trios, whatever the number of wings",
                            f"{cards} ({COMBOS.get(t['type'], t['type'])})", _play_key(cards))
        return Classification(made, None)

    def compare(self, a: str, b: str, wild: str | None) -> bool:
        """Whether ``a`` is among the legal actions of a player holding exactly ``a`` after
        the rival played ``b`` (so: the detector types ``b``, the selector filters ``a``'s
        family, bombs and the rocket beat everything below them)."""
        no_wild(wild, "DouZero")
        hand = to_douzero(a)
        return hand in self._legal(hand, to_douzero(b))

    def moves(self, hand: str, after: str | None, wild: str | None) -> MovesAnswer:
        """``GameEnv.get_legal_card_play_actions`` as it is: plays it repeats are reported
        in ``duplicates`` (and as findings), and so are listed plays its detector rejects."""
        no_wild(wild, "DouZero")
        dz_hand = to_douzero(hand)
        held = Counter(dz_hand)
        if any(held[n] > DECK[i] for i, n in enumerate(DZ_CARD)):
            raise ValueError(f"{hand}: more cards of a rank than one deck holds")
        hand = from_douzero(dz_hand)
        listed = self._legal(dz_hand, to_douzero(after) if after else [])
        counts = Counter(from_douzero(m) for m in listed)
        can_pass = counts.pop("", 0) > 0
        duplicates = tuple(sorted((p for p, n in counts.items() if n > 1), key=_play_key))
        for p in duplicates:
            self._notes.add(REPEATED, "{n:,} (hand, play) pair(s) where get_legal_card_play_actions "
                            "lists a play more than once (two generators make it, or a generator's "
                            "itertools.groupby only drops repeats that come next to each other)",
                            f"{p} ×{counts[p]} from hand {hand}", (*_play_key(p), _play_key(hand)))
        for p in counts:
            if not self._is_play(self._type(p)):
                self._note_rejected(p, hand)
        return MovesAnswer(frozenset(counts), can_pass, duplicates)

    def _note_rejected(self, play: str, hand: str | None = None) -> None:
        self._notes.add(REJECTED, "{n:,} play(s) MovesGener generates that move_detector types "
                        "TYPE_15_WRONG (planes of 4-5 trios whose single wings hold a trio or a "
                        "four); after one of them only a bomb or the rocket may be played",
                        play, _play_key(play))

    def census(self) -> CensusAnswer:
        """Every distinct play MovesGener makes from one full deck, at most 20 cards, per
        generator family (a play two families make counts in both, once in the total).
        Each family runs on the full deck; serial trios with single wings are asked one
        chain length at a time (plays of 6+ trios exceed 20 cards), from four trios up on
        :func:`cover_hands` unless the option ``census=deck`` is given. The universe is
        then checked against DouZero's own detector and selector (findings)."""
        if self._census is not None:
            return self._census
        deck = [DZ_CARD[i] for i in range(len(RANKS)) for _ in range(DECK[i])]
        mg = self._MovesGener(deck)
        families: dict[str, set[str]] = {}
        for method, combo in FAMILIES.items():
            if method == "gen_type_11_serial_3_1":
                continue
            moves = getattr(mg, method)()
            families[combo] = {from_douzero(m) for m in moves if len(m) <= LARGEST_HAND}
        wings: set[tuple[int, ...]] = set()  # sorted card ints: cheap to deduplicate
        for length in range(2, LARGEST_HAND // 4 + 1):
            if length < COVER_FROM or self._census_mode == "deck":
                wings.update(map(tuple, map(sorted, mg.gen_type_11_serial_3_1(repeat_num=length))))
            else:
                for hand in cover_hands(length):
                    got = self._MovesGener(hand).gen_type_11_serial_3_1(repeat_num=length)
                    wings.update(map(tuple, map(sorted, got)))
        families["plane_solos"] = {from_douzero(list(p)) for p in wings if len(p) <= LARGEST_HAND}
        universe: dict[str, list[str]] = {}
        for combo, plays in families.items():
            for p in plays:
                universe.setdefault(p, []).append(combo)
        self._check_universe(universe)
        self._universe = {p: tuple(combos) for p, combos in universe.items()}
        self._census = CensusAnswer(len(universe), {c: len(p) for c, p in families.items()})
        return self._census

    def universe(self) -> dict[str, tuple[str, ...]]:
        """The census' plays, each with the compat/douzero combos of the generator families
        that make it (not a capability of the protocol: for tests and curious readers)."""
        self.census()
        return dict(self._universe)

    def _check_universe(self, universe: dict[str, list[str]]) -> None:
        """DouZero against itself over its whole universe: plays its detector rejects,
        single-wing planes its selector ranks otherwise than its detector reads them, and
        plays two generators make."""
        for p, combos in universe.items():
            if len(combos) > 1:
                self._notes.add(TWO_FAMILIES, "{n:,} play(s) two MovesGener families both make "
                                "(a plane of trios is also trios with a trio as wings), so "
                                "gen_moves lists them twice for a hand that holds them",
                                f"{p} ({' and '.join(sorted(combos))})", _play_key(p))
            t = self._type(p)
            if not self._is_play(t):
                self._note_rejected(p)
            elif t["type"] == self._md.TYPE_11_SERIAL_3_1 and "plane_solos" in combos:
                chain_top = t["rank"] + t["len"] - 1
                by_selector = self._wing_trio_rank(p)
                if by_selector != chain_top:
                    self._notes.add(
                        WING_RANKED, "{n:,} single-wing plane(s) move_detector reads by their chain "
                        "but move_selector compares by a higher trio in the wings, so they beat "
                        "planes with a higher chain", f"{p} (chain to {CARD_OF[chain_top]}, "
                        f"ranked {CARD_OF[by_selector]})", _play_key(p))

    def known_defect(self, d: Discrepancy) -> str | None:
        """Which of :data:`KNOWN_DEFECTS` explains a compare or answer discrepancy."""
        rival = d.other if d.category == "compare" else d.after
        if d.category not in ("compare", "moves") or not rival or not d.play:
            return None
        t = self._type(rival)
        if not self._is_play(t):
            return "answer-to-a-rejected-play"
        # the selector ranks two single-wing planes by their highest trio, wings included
        if t["type"] == self._md.TYPE_11_SERIAL_3_1 and len(d.play) == len(rival) \
                and any(self._wing_trio_rank(c) != _chain_top(c) for c in (d.play, rival)):
            return "plane-ranked-by-a-wing-trio"
        return None

    def findings(self) -> list[Finding]:
        """DouZero disagreeing with itself, as far as this run has looked (``census``
        looks at the whole universe; ``classify`` and ``moves`` at what they are asked)."""
        return self._notes.findings()


__all__ = ["DouZeroEngine", "cover_hands"]
