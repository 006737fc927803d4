"""The ``openspiel`` engine: asks OpenSpiel's ``dou_dizhu`` game (open-spiel 2.0.2, ``pyspiel``).

OpenSpiel exposes no move generator of its own to Python: only game states. So every
question is answered from a real state, set up by driving the game from its start
(the deal and the bidding, then a few scripted plays), and read back through
``state.legal_actions()``; nothing here re-implements its rules.

**Action ids.** 0 is Pass, 1–3 are the bids, 4–26056 the 26,053 plays, in families
laid out as ``open_spiel/games/dou_dizhu/dou_dizhu_utils.h`` declares them (solo,
solo chain, pair, pair chain, trio, trio with solo, trio with pair, airplane,
airplane with solo, airplane with pair, bomb, rocket). ``state.action_to_string``
names a play's cards (``(BWJ)`` small joker, ``(CJ)`` big joker; an airplane with
wings as ``333444-56``, chain first), which is how the cards of every id are read.
A card set has one id per way OpenSpiel reads it (``333444555666`` is three ids).

**Deal and bidding: how a ddzrules position becomes an OpenSpiel state.**

* ddzrules seat *s* is OpenSpiel player *s*; both play in the order *s* → *s*+1 mod 3.
* The first chance outcome (0–50) is the face-up card's position in the deal; the
  player dealt that card bids first. It is set to the landlord's seat, so the
  landlord, dealt the card at position ``landlord``, opens the bidding.
* The next 51 chance outcomes deal one card each (outcome ``51 + card``; card ids
  ``rank + 13·suit`` for 3…2, 52 the small and 53 the big joker): the *k*-th goes
  to player *k* mod 3. Each player's cards are dealt in rank order, the landlord's
  first 17 only: its three highest cards are never dealt, and OpenSpiel gives the
  three cards left in the deck, the kitty (底牌), to the winning bidder.
* The landlord bids 3, which ends the bidding at once: the landlord takes the kitty
  and leads the first trick. ``observation_string`` is checked to show the hands.

**Positions for ``moves`` and ``compare``.** A hand to act must be reached by play:

* leading with *n* cards: the landlord is dealt the hand and 20−*n* other cards and
  leads each of those as a single, both farmers passing, until it holds the hand;
* answering with 17 cards: seat 1 (a farmer) is dealt the hand and the landlord
  leads the play to answer as its first play;
* answering with fewer: seat 1 is also dealt *m* extra cards ``d₁ > … > dₘ`` and gets
  rid of them. The landlord leads its lowest spare card, seat 1 answers ``d₁``, seat 2
  passes; then, for each of ``d₂…dₘ``, the landlord passes (seat 1 wins the trick), seat
  1 leads it and seat 2 passes; then the landlord beats seat 1's last card with its
  highest spare card, both farmers pass, and the landlord leads the play to answer;
* answering with 18 or 19 cards: the landlord holds it (dealt 1–2 extra cards, led as
  singles); seat 1 beats the last of them with a higher single, everyone passes, and
  seat 1 leads the play to answer, seat 2 passing.

Positions OpenSpiel cannot reach raise :class:`Unsupported`: a 20-card hand never
answers anything (the landlord leads first), a play to answer too large for the
player who must make it, and a hand and a play that together hold more of a rank
than one deck.

**Findings.** On a lead every play whose cards the hand holds should be legal; the
adapter checks it and reports OpenSpiel's omissions (chains whose lowest rank the hand
holds four of), and reports bombs offered on the rocket.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar

from ddzrules import cards as C
from ddzrules.engines import (
    BudgetExceeded,
    CensusAnswer,
    Classification,
    Discrepancy,
    Finding,
    MovesAnswer,
    PerftAnswer,
    Reading,
    Unsupported,
)

#: OpenSpiel's play families in action-id order with their sizes (dou_dizhu_utils.h),
#: each mapped to the compat/openspiel combo that reads it
FAMILIES: tuple[tuple[str, int, str], ...] = (
    ("solo", 15, "single"),
    ("solo_chain", 36, "straight"),
    ("pair", 13, "pair"),
    ("pair_chain", 52, "pair_chain"),
    ("trio", 13, "trio"),
    ("trio_with_solo", 182, "trio_single"),
    ("trio_with_pair", 156, "trio_pair"),
    ("airplane", 45, "plane"),
    ("airplane_with_solo", 22588, "plane_solos"),
    ("airplane_with_pair", 2939, "plane_pairs"),
    ("bomb", 13, "bomb"),
    ("rocket", 1, "rocket"),
)
COMBO_OF_FAMILY = {family: combo for family, _, combo in FAMILIES}
#: OpenSpiel's names for the jokers in action strings
_JOKER_NAMES = (("(BWJ)", "X"), ("(CJ)", "D"))
_FULL = C.full_deck()
#: the high bit of each rank's 4-bit field. With every count at most 4, ``(hand | _HIGH)
#: - play`` borrows across no field, and keeps all those bits exactly when ``play`` is
#: inside ``hand``: one subtraction tests a play against a hand (see _note_lead)
_HIGH = sum(8 << (C.BITS * r) for r in range(C.NUM_RANKS))
_MAX_WITNESSES = 5


def _counts(text: str) -> list[int]:
    """Per-rank counts of an OpenSpiel card string (jokers renamed, ``-`` dropped)."""
    for name, char in _JOKER_NAMES:
        text = text.replace(name, char)
    counts = [0] * C.NUM_RANKS
    for ch in text:
        if ch != "-":
            counts[C.RANK_INDEX[ch]] += 1
    return counts


def _canonical(text: str) -> str:
    """Canonical cards of an OpenSpiel card string."""
    return C.counts_to_string(_counts(text))


@dataclass(frozen=True)
class Action:
    """One OpenSpiel play action: its id, its cards and how OpenSpiel reads them."""

    id: int
    text: str  # OpenSpiel's own action string
    cards: str  # canonical
    family: str
    reading: Reading  # in compat/openspiel's combo names
    packed: int


def _action(aid: int, text: str, family: str) -> Action:
    """An action with its compat/openspiel reading (combo, main rank, number of groups),
    checked against its family: the family comes from the declared id layout, and the
    cards must agree with it."""
    counts = _counts(text)
    cards = C.counts_to_string(counts)
    shape = sorted((c for c in counts if c), reverse=True)
    groups = len(shape)
    if family in ("airplane_with_solo", "airplane_with_pair"):
        chain = text.split("-")[0]  # the action string names its chain first: 333444-56
        length = len(chain) // 3
        wing = 1 if family == "airplane_with_solo" else 2
        ok = "-" in text and len(cards) == length * (3 + wing)
        reading = Reading(COMBO_OF_FAMILY[family], chain[-1], length)
    elif family in ("solo_chain", "pair_chain", "airplane"):
        width = {"solo_chain": 1, "pair_chain": 2, "airplane": 3}[family]
        ok = set(shape) == {width} and groups >= {1: 5, 2: 3, 3: 2}[width]
        reading = Reading(COMBO_OF_FAMILY[family], cards[-1], groups)
    elif family in ("trio_with_solo", "trio_with_pair"):
        ok = shape == [3, 1 if family == "trio_with_solo" else 2]
        reading = Reading(COMBO_OF_FAMILY[family], C.RANKS[counts.index(3)], 1)
    else:  # single-rank plays and the rocket (rank D)
        size = {"solo": 1, "pair": 2, "trio": 3, "bomb": 4, "rocket": 1}[family]
        ok = cards == "XD" if family == "rocket" else shape == [size]
        reading = Reading(COMBO_OF_FAMILY[family], cards[-1], 1)
    if not ok:
        raise RuntimeError(f"OpenSpiel action {aid} ({text}) is not a {family}: "
                           "its action layout is not the one this adapter knows")
    return Action(aid, text, cards, family, reading, C.pack(counts))


@dataclass(frozen=True)
class Layout:
    """OpenSpiel's ids: pass, the winning bid, the deal outcomes per rank, every play."""

    game: Any
    pass_id: int
    bid3_id: int
    deal_ids: tuple[tuple[int, ...], ...]  # per rank: the deal outcomes of its cards
    actions: dict[int, Action]
    by_cards: dict[str, tuple[int, ...]]  # canonical cards -> action ids, ascending
    packed: tuple[tuple[int, int], ...]  # (action id, packed cards) of every play


@cache
def layout() -> Layout:
    """Read OpenSpiel's ids once per process: pass, bids, deal outcomes and every play."""
    import pyspiel

    game = pyspiel.load_game("dou_dizhu")
    state = game.new_initial_state()
    names = {a: state.action_to_string(0, a) for a in range(game.num_distinct_actions())}
    pass_id = next(a for a, t in names.items() if t == "Pass")
    bid3_id = next(a for a, t in names.items() if t == "Bid 3")
    first_play = max(a for a, t in names.items() if t == "Pass" or t.startswith("Bid ")) + 1
    state.apply_action(state.legal_actions()[0])  # the face-up position: now the deal
    deal: list[list[int]] = [[] for _ in range(C.NUM_RANKS)]
    for outcome, _ in state.chance_outcomes():
        name = state.action_to_string(pyspiel.PlayerId.CHANCE, outcome).removeprefix("Deal ")
        rank = C.RANK_INDEX[dict(_JOKER_NAMES).get(name, name[-1])]
        deal[rank].append(outcome)
    if [len(d) for d in deal] != _FULL:
        raise RuntimeError("OpenSpiel's deal is not one 54-card deck")
    actions: dict[int, Action] = {}
    a = first_play
    for family, size, _ in FAMILIES:
        for aid in range(a, a + size):
            actions[aid] = _action(aid, names[aid], family)
        a += size
    if a != game.num_distinct_actions():
        raise RuntimeError(f"OpenSpiel has {game.num_distinct_actions() - first_play} plays, "
                           f"this adapter knows {a - first_play}")
    by_cards: dict[str, list[int]] = {}
    for aid, act in actions.items():
        by_cards.setdefault(act.cards, []).append(aid)
    return Layout(game, pass_id, bid3_id, tuple(tuple(d) for d in deal), actions,
                  {k: tuple(v) for k, v in by_cards.items()},
                  tuple((aid, act.packed) for aid, act in actions.items()))


# ====================================================================== setting up states


@dataclass(frozen=True)
class Script:
    """A way to reach a position: the deal (20 cards for the landlord, 17 for the others),
    the landlord's seat and the actions after the bidding, each (seat, what): a card
    string, an action id, or None for a pass."""

    hands: tuple[list[int], list[int], list[int]]  # per-rank counts
    landlord: int
    steps: tuple[tuple[int, str | int | None], ...] = ()  # cards, an action id, or pass


def _cards(counts: list[int]) -> list[int]:
    return C.deck_list(counts)


def _take(pool: list[int], rank: int) -> list[int]:
    """One card of ``rank`` as counts, removed from ``pool``."""
    pool[rank] -= 1
    one = [0] * C.NUM_RANKS
    one[rank] = 1
    return one


def _add(*parts: list[int]) -> list[int]:
    return [sum(x) for x in zip(*parts)]


def _fill(pool: list[int], n: int, avoid: list[int] | None = None) -> list[int]:
    """``n`` cards from the top of ``pool`` (highest ranks first), removed from it; ranks
    ``avoid`` holds go last, so that the player who makes a chain play is not also given
    the fourth card of its lowest rank (OpenSpiel would then not let it play the chain)."""
    out = [0] * C.NUM_RANKS
    order = list(reversed(range(C.NUM_RANKS)))
    if avoid is not None:
        order.sort(key=lambda r: avoid[r] > 0)  # stable: still highest first
    for r in order:
        k = min(pool[r], n)
        out[r] += k
        pool[r] -= k
        n -= k
    if n:
        raise Unsupported("not enough cards left in the deck for this position")
    return out


def _free(*used: list[int]) -> list[int]:
    """The cards of one deck not in ``used``; Unsupported when they overflow it."""
    pool = list(_FULL)
    for counts in used:
        pool = [p - c for p, c in zip(pool, counts)]
    if min(pool) < 0:
        over = "".join(C.RANKS[r] for r, p in enumerate(pool) if p < 0)
        raise Unsupported(f"the hand and the play to answer hold more {over} than one deck has, "
                          "so OpenSpiel has no such position")
    return pool


def lead_script(hand: list[int]) -> Script:
    """The landlord (seat 0) leads holding ``hand``: it is dealt ``hand`` and 20−n other
    cards and leads each of those as a single while both farmers pass."""
    n = sum(hand)
    if not 0 < n <= 20:
        raise Unsupported(f"OpenSpiel hands hold 1 to 20 cards, not {n}")
    pool = _free(hand)
    extra = _fill(pool, 20 - n)
    steps: list[tuple[int, str | int | None]] = []
    for r in _cards(extra):
        steps += [(0, C.RANKS[r]), (1, None), (2, None)]
    return Script((_add(hand, extra), _fill(pool, 17), _fill(pool, 17)), 0, tuple(steps))


def answer_script(hand: list[int], after: int) -> tuple[Script, int]:
    """A position where ``hand`` is to answer the play ``after`` (an action id): the
    script and the seat to act. See the module docstring for the two shapes."""
    lay = layout()
    play = C.unpack(lay.actions[after].packed)
    n, k = sum(hand), sum(play)
    pool = _free(hand, play)
    low = min(r for r in range(C.NUM_RANKS) if pool[r])
    high = max(r for r in range(C.NUM_RANKS) if pool[r])
    steps: list[tuple[int, str | int | None]] = []
    if 0 < n <= 17:  # seat 1, a farmer, answers the landlord (seat 0)
        m = 17 - n
        if m == 0:
            if k > 19:
                raise Unsupported(f"a {k}-card play ends the game: nobody answers it in OpenSpiel")
            landlord = _add(play, _fill(pool, 20 - k, play))
            return Script((landlord, hand, _fill(pool, 17)), 0, ((0, after),)), 1
        if k > 17:
            raise Unsupported(f"OpenSpiel has no position where {n} cards answer a {k}-card play")
        e_low, s_high = _take(pool, low), _take(pool, high)
        middle = [pool[r] if low < r < high else 0 for r in range(C.NUM_RANKS)]
        extra = _fill(middle, m)  # the extra cards of seat 1: ranks strictly between
        pool = [p - x for p, x in zip(pool, extra)]
        d = list(reversed(_cards(extra)))  # d[0] answers the landlord's low card
        steps += [(0, C.RANKS[low]), (1, C.RANKS[d[0]]), (2, None)]
        for r in d[1:]:
            steps += [(0, None), (1, C.RANKS[r]), (2, None)]
        steps += [(0, C.RANKS[high]), (1, None), (2, None), (0, after)]
        landlord = _add(play, e_low, s_high, _fill(pool, 18 - k, play))
        return Script((landlord, _add(hand, extra), _fill(pool, 17)), 0, tuple(steps)), 1
    if n in (18, 19):  # the landlord answers seat 1 after leading 1-2 extra cards
        if k > 15:
            raise Unsupported(f"OpenSpiel has no position where {n} cards answer a {k}-card play")
        extra = _fill_low(pool, 20 - n)
        beat = _take(pool, high)
        led = _cards(extra)
        if high <= led[-1]:
            raise Unsupported("no card left to win the landlord's lead")  # pragma: no cover
        for r in led[:-1]:
            steps += [(0, C.RANKS[r]), (1, None), (2, None)]
        steps += [(0, C.RANKS[led[-1]]), (1, C.RANKS[high]), (2, None), (0, None),
                  (1, after), (2, None)]
        seat1 = _add(play, beat, _fill(pool, 16 - k, play))
        return Script((_add(hand, extra), seat1, _fill(pool, 17)), 0, tuple(steps)), 0
    if n == 20:
        raise Unsupported("OpenSpiel never has 20 cards answer a play: a 20-card hand is the "
                          "landlord's before its first play, and the landlord leads first")
    raise Unsupported(f"OpenSpiel hands hold 1 to 20 cards, not {n}")


def _fill_low(pool: list[int], n: int) -> list[int]:
    """``n`` cards from the bottom of ``pool`` (lowest ranks first), removed from it."""
    out = [0] * C.NUM_RANKS
    for r in range(C.NUM_RANKS):
        k = min(pool[r], n)
        out[r] += k
        pool[r] -= k
        n -= k
    return out


def deal_state(hands: Iterable[list[int]], landlord: int) -> Any:
    """A state in the play phase: ``hands`` dealt (the landlord's 20 include the kitty),
    ``landlord`` having bid 3, about to lead."""
    lay = layout()
    hands = list(hands)
    if len(hands) != 3 or sorted(sum(h) for h in hands) != [17, 17, 20] or sum(hands[landlord]) != 20:
        raise Unsupported("OpenSpiel deals 17 cards to each of 3 players and 3 to the landlord")
    if any(sum(h[r] for h in hands) != _FULL[r] for r in range(C.NUM_RANKS)):
        raise Unsupported("the hands are not one whole 54-card deck")
    outcomes = [list(ids) for ids in lay.deal_ids]
    dealt: list[list[int]] = []
    for h in hands:
        dealt.append([outcomes[r].pop() for r in _cards(h)])
    dealt[landlord] = dealt[landlord][:17]  # the last three stay in the deck: the kitty
    state = lay.game.new_initial_state()
    state.apply_action(landlord)  # the face-up card goes to the landlord: it bids first
    for k in range(51):
        state.apply_action(dealt[k % 3][k // 3])
    if state.current_player() != landlord:
        raise RuntimeError(f"OpenSpiel asks player {state.current_player()} to bid first, "
                           f"not the landlord {landlord}")  # pragma: no cover
    state.apply_action(lay.bid3_id)
    for seat, h in enumerate(hands):
        shown = state.observation_string(seat).split("\n", 1)[0].removeprefix("My hand ")
        if _canonical(shown) != C.counts_to_string(h):
            raise RuntimeError(f"OpenSpiel dealt player {seat} {shown}, not "
                               f"{C.counts_to_string(h)}")  # pragma: no cover
    return state


def run_script(script: Script) -> Any:
    """The state a script reaches; every scripted action is checked to be legal."""
    lay = layout()
    state = deal_state(script.hands, script.landlord)
    for seat, what in script.steps:
        if state.current_player() != seat:
            raise RuntimeError(f"script expected player {seat} to act, "
                               f"OpenSpiel has {state.current_player()}")  # pragma: no cover
        legal = set(state.legal_actions())
        if what is None:
            choice = [lay.pass_id]
        elif isinstance(what, int):
            choice = [what]
        else:
            choice = list(lay.by_cards[what])
        ok = [a for a in choice if a in legal]
        if not ok:
            raise RuntimeError(f"script step {seat}: {what} is not legal")  # pragma: no cover
        state.apply_action(ok[0])
    return state


# ====================================================================== the adapter


class OpenSpielEngine:
    """OpenSpiel's ``dou_dizhu`` (open-spiel ≥ 2.0, ``pyspiel``). No options: OpenSpiel has
    one rule set, so even ``spec`` is refused."""

    name = "openspiel"
    OPTIONS = ()
    #: defects of open-spiel 2.0.2's dou_dizhu found by conformance runs (docs/engines/openspiel.md)
    KNOWN_DEFECTS: ClassVar[dict[str, str]] = {
        "chain-with-four-of-its-lowest-rank": (
            "OpenSpiel never offers a straight, pair chain or plane without wings when the hand "
            "holds four cards of the chain's lowest rank (leading or answering)"),
        "bomb-on-rocket": (
            "OpenSpiel lets any bomb answer the rocket (its search adds the hand's bombs to every "
            "answer unless the play to answer is in the bomb id block, which the rocket is not)"),
    }
    _CHAIN_FAMILIES: ClassVar[frozenset[str]] = frozenset({"solo_chain", "pair_chain", "airplane"})

    def __init__(self, manifest: dict[str, Any], options: dict[str, str]) -> None:
        spec = manifest.get("spec_resolved") or {}
        deck = spec.get("deck") or {}
        if int(deck.get("decks", 1)) != 1 or not deck.get("jokers", True):
            raise Unsupported("OpenSpiel's dou_dizhu plays one 54-card deck with both jokers")
        if int(spec.get("players", 3)) != 3:
            raise Unsupported("OpenSpiel's dou_dizhu has exactly 3 players")
        deal = spec.get("deal") or {}
        if int(deal.get("hand", 17)) != 17 or int(deal.get("kitty", 3)) != 3:
            raise Unsupported("OpenSpiel deals 17 cards each and a 3-card kitty")
        if spec.get("wildcards"):
            raise Unsupported("OpenSpiel's dou_dizhu has no wild cards (癞子)")
        self.layout = layout()
        self._missing_on_lead: list[str] = []
        self._bomb_on_rocket: list[str] = []

    # -------------------------------------------------------------- helpers
    @staticmethod
    def _no_wild(wild: str | None) -> None:
        if wild is not None:
            raise Unsupported("OpenSpiel's dou_dizhu has no wild cards (癞子)")

    def _ids(self, cards: str) -> tuple[int, ...]:
        return self.layout.by_cards.get(C.parse_cards(cards), ())

    def _state_for(self, hand: list[int], after: int | None) -> Any:
        """A state where the player to act holds ``hand`` and leads (``after`` None) or
        answers the action ``after``."""
        if after is None:
            state = run_script(lead_script(hand))
        else:
            script, _ = answer_script(hand, after)
            state = run_script(script)
        return state

    def _note_lead(self, hand: list[int], legal: set[int]) -> None:
        """A leader may play any action whose cards it holds: note those OpenSpiel omits."""
        held = C.pack(hand) | _HIGH  # one subtraction a play: see _HIGH
        missing = [self.layout.actions[aid].text for aid, packed in self.layout.packed
                   if (held - packed) & _HIGH == _HIGH and aid not in legal]
        if missing:
            self._witness(self._missing_on_lead, f"hand {C.counts_to_string(hand)} leading: "
                          f"{', '.join(missing[:4])} not offered")

    @staticmethod
    def _witness(into: list[str], text: str) -> None:
        if text not in into and len(into) < _MAX_WITNESSES:
            into.append(text)

    def _note_answer(self, hand: list[int], after: int, legal: set[int]) -> None:
        if self.layout.actions[after].family != "rocket":
            return
        bombs = [self.layout.actions[a].cards for a in legal
                 if a in self.layout.actions and self.layout.actions[a].family == "bomb"]
        if bombs:
            self._witness(self._bomb_on_rocket,
                          f"hand {C.counts_to_string(hand)}: {', '.join(sorted(bombs))} on XD")

    # -------------------------------------------------------------- capabilities
    def classify(self, cards: str, wild: str | None) -> Classification:
        """Whether the cards are an OpenSpiel play; one reading per action id."""
        self._no_wild(wild)
        ids = self._ids(cards)
        readings = sorted({self.layout.actions[a].reading for a in ids},
                          key=lambda r: (r.combo, r.rank, r.length))
        return Classification(bool(ids), tuple(readings))

    def compare(self, a: str, b: str, wild: str | None) -> bool:
        """Whether OpenSpiel lets ``a`` answer ``b``: the hand ``a`` faces each action of
        ``b`` in turn, and some action of ``a`` must be legal."""
        self._no_wild(wild)
        ids_a, ids_b = self._ids(a), self._ids(b)
        if not ids_a or not ids_b:
            return False  # no action: nothing to play or to answer
        hand = C.unpack(self.layout.actions[ids_a[0]].packed)
        for after in ids_b:
            legal = set(self._state_for(hand, after).legal_actions())
            self._note_answer(hand, after, legal)
            if legal & set(ids_a):
                return True
        return False

    def moves(self, hand: str, after: str | None, wild: str | None) -> MovesAnswer:
        """OpenSpiel's legal actions for ``hand``, as distinct card sets. A play to answer
        with several actions is answered as its last (highest) id, as ddzrules reads a
        card string by its strongest reading."""
        self._no_wild(wild)
        counts = C.counts_of(C.parse_ranks(hand))
        prev: int | None = None
        if after is not None:
            ids = self._ids(after)
            if not ids:
                raise Unsupported(f"{after} is not an OpenSpiel play, so there is nothing to answer")
            prev = ids[-1]
        state = self._state_for(counts, prev)
        legal = set(state.legal_actions())
        if prev is None:
            self._note_lead(counts, legal)
        else:
            self._note_answer(counts, prev, legal)
        plays = frozenset(self.layout.actions[a].cards for a in legal if a != self.layout.pass_id)
        return MovesAnswer(plays, self.layout.pass_id in legal)

    def census(self) -> CensusAnswer:
        """OpenSpiel's play actions as ddzrules counts a universe: distinct card sets in
        total (25,661 for 26,053 ids) and, per compat/openspiel combo, the card sets that
        have an action of that family."""
        per: dict[str, set[str]] = {combo: set() for _, _, combo in FAMILIES}
        for act in self.layout.actions.values():
            per[act.reading.combo].add(act.cards)
        return CensusAnswer(len(self.layout.by_cards), {k: len(v) for k, v in per.items()})

    def perft(self, position: dict[str, Any], depth: int, budget: int | None = None) -> PerftAnswer:
        """Action sequences of exactly ``depth`` actions, counted on OpenSpiel's own states
        (``clone``, ``apply_action``, ``legal_actions``); the divide sums the action ids
        of one card set. With ``budget``, at most that many positions are visited."""
        if position.get("wild") is not None:
            raise Unsupported("OpenSpiel's dou_dizhu has no wild cards (癞子)")
        if int(position.get("players", 3)) != 3:
            raise Unsupported("OpenSpiel's dou_dizhu has exactly 3 players")
        landlord = position.get("landlord")
        if landlord is None or int(position["to_act"]) != int(landlord):
            raise Unsupported("in OpenSpiel the landlord makes the first play")
        if depth < 1:
            raise Unsupported("perft depth starts at 1")
        hands = [C.counts_of(C.parse_ranks(h)) for h in position["hands"]]
        state = deal_state(hands, int(landlord))
        actions = self.layout.actions
        divide: dict[str, int] = {}
        total = 0
        legal = state.legal_actions()
        visited = [len(legal)]
        for a in legal:
            n = 1 if depth == 1 else _count(state, a, depth - 1, visited, budget)
            key = "pass" if a == self.layout.pass_id else actions[a].cards
            divide[key] = divide.get(key, 0) + n
            total += n
        order = sorted((k for k in divide if k != "pass"),
                       key=lambda k: (len(k), [C.RANK_INDEX[c] for c in k]))
        out = {k: divide[k] for k in order}
        if "pass" in divide:
            out["pass"] = divide["pass"]
        return PerftAnswer(total, out)

    def known_defect(self, d: Discrepancy) -> str | None:
        """Which of :data:`KNOWN_DEFECTS` explains a discrepancy, judged from the cards
        alone (the hand, the play, the play to answer), never from a vector's identity."""
        families = {self.layout.actions[a].family for a in self._ids(d.play)} if d.play else set()
        if d.category == "moves" and d.kind == "a legal play the engine does not list" and d.hand \
                and families & self._CHAIN_FAMILIES and d.play:
            lowest = min(C.RANK_INDEX[c] for c in d.play)
            if C.counts_of(C.parse_ranks(d.hand))[lowest] == 4:
                return "chain-with-four-of-its-lowest-rank"
        allows = ("a play the engine lists that the spec does not allow here", "a beat the engine allows")
        rocket_answered = (d.after if d.category == "moves" else d.other) == "XD"
        if d.kind in allows and rocket_answered and "bomb" in families:
            return "bomb-on-rocket"
        return None

    def findings(self) -> list[Finding]:
        out = []
        if self._missing_on_lead:
            out.append(Finding(
                "OpenSpiel omits chains from a leader's legal actions",
                "A leader may play any action whose cards it holds, but OpenSpiel's chain "
                "search skips every chain (straight, pair chain, plane without wings) whose "
                "lowest rank the hand holds four of.",
                tuple(self._missing_on_lead)))
        if self._bomb_on_rocket:
            out.append(Finding(
                "OpenSpiel lets a bomb answer the rocket",
                "After a bomb only a higher bomb or the rocket is legal, yet after the rocket "
                "every bomb is: the search adds the hand's bombs to every answer unless the "
                "play to answer is itself a bomb, and the rocket is not in the bomb id block.",
                tuple(self._bomb_on_rocket)))
        return out


def _count(state: Any, action: int, depth: int, visited: list[int], budget: int | None) -> int:
    """Sequences of ``depth`` more actions after ``action``; none once a hand is empty.
    ``visited[0]`` counts the positions seen, against ``budget``."""
    child = state.clone()
    child.apply_action(action)
    if child.is_terminal():
        return 0
    legal = child.legal_actions()
    visited[0] += len(legal)
    if budget is not None and visited[0] > budget:
        raise BudgetExceeded(f"the search visited more than {budget:,} positions, its budget")
    if depth == 1:
        return len(legal)
    return sum(_count(child, a, depth - 1, visited, budget) for a in legal)


__all__ = ["FAMILIES", "OpenSpielEngine", "answer_script", "deal_state", "layout", "lead_script"]
