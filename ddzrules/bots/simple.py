"""The two simple bots: :class:`RandomBot` (uniform) and :class:`HeuristicBot` (plays
sensibly by hand-written rules, spec-generic), and :class:`Agent`, the interface every
player implements."""

from __future__ import annotations

import random
from typing import ClassVar, Protocol

from ddzrules import cards as C
from ddzrules.rules.moves import Move
from ddzrules.runtime import Action, PlayerView

HIGH_RANK = C.RANKS.index("2")  # 2, X and D are the cards worth keeping


class Agent(Protocol):
    """Anything that can choose an action."""

    def act(self, view: PlayerView, legal: list[Action]) -> Action:
        """Return one element of ``legal``."""


class RandomBot:
    """Uniform over the legal actions."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def act(self, view: PlayerView, legal: list[Action]) -> Action:
        return legal[self.rng.randrange(len(legal))]


def hand_strength(hand: str) -> float:
    """A rough bidding strength: rockets, bombs, 2s, jokers and aces."""
    counts = C.counts_of(C.parse_ranks(hand))
    s = 0.0
    if counts[C.SMALL_JOKER] and counts[C.BIG_JOKER]:
        s += 8
    else:
        s += 3 * counts[C.BIG_JOKER] + 2 * counts[C.SMALL_JOKER]
    s += sum(6 for r in range(C.SMALL_JOKER) if counts[r] >= 4)
    s += 2 * counts[HIGH_RANK] + 1 * counts[C.RANKS.index("A")]
    return s


class HeuristicBot:
    """Plays sensibly: bids on hand strength, leads to shed many cards in few plays,
    answers with the smallest play that beats, keeps bombs for when they matter and
    does not beat its partner."""

    name = "heuristic"

    def __init__(self, seed: int = 0, bid_thresholds: tuple[float, float, float] = (5, 8, 11)) -> None:
        self.rng = random.Random(seed)
        self.thresholds = bid_thresholds

    # ------------------------------------------------------------------ decisions
    def act(self, view: PlayerView, legal: list[Action]) -> Action:
        if view.phase == "play":
            return self._play(view, legal)
        return self._declare(view, legal)

    #: the hand strength at which each yes-or-no declaration is worth making
    DECLARE_AT: ClassVar[dict[str, float]] = {"call": 5.0, "take": 6.0, "rob": 8.0, "rob_back": 8.0, "double": 9.0,
                                              "jiabang": 9.0, "show": 12.0, "super_double": 14.0}

    def _declare(self, view: PlayerView, legal: list[Action]) -> Action:
        strength = hand_strength(view.hand) if view.hand else 0.0
        dealt = max(1, view.hand_sizes[view.seat])
        seen = len(view.hand)
        if seen < dealt:  # deciding before or during the deal: judge the part seen, scaled up
            strength = strength * dealt / max(seen, 1) * 0.8 if seen else 0.0
        bids = [a for a in legal if a.kind == "bid" and isinstance(a.value, int)]
        if bids:
            # bid up to the level the hand supports
            target = sum(1 for t in self.thresholds if strength >= t)
            ok = [a for a in bids if isinstance(a.value, int) and a.value <= target]
            if ok:
                return max(ok, key=lambda a: a.value if isinstance(a.value, int) else 0)
        # the boldest declaration the hand supports (超级加倍 over 加倍)
        worth = [a for a in legal if a.kind in self.DECLARE_AT and strength >= self.DECLARE_AT[a.kind]]
        if worth:
            return max(worth, key=lambda a: self.DECLARE_AT[a.kind])
        peek = next((a for a in legal if a.kind == "peek"), None)
        if peek is not None and 3 <= strength < 8 and "peeked" not in view.private:
            return peek  # 黄金眼: worth a look when the hand is borderline
        passive = [a for a in legal if a.kind not in self.DECLARE_AT and a.kind not in ("bid", "peek")]
        return passive[0] if passive else legal[0]

    def _play(self, view: PlayerView, legal: list[Action]) -> Action:
        plays = [a for a in legal if a.kind == "play" and a.move is not None]
        pass_action = next((a for a in legal if a.kind == "pass"), None)
        hand_size = view.hand_sizes[view.seat]
        # going out wins at once
        for a in plays:
            assert a.move is not None
            if a.move.size == hand_size:
                return a
        counts = C.counts_of(C.parse_ranks(view.hand))
        bombs_held = {r for r in range(C.NUM_RANKS) if counts[r] >= 4}
        partners = set(view.partners)  # the farmers' side, a team; none when each plays alone
        opponents = [s for s in range(len(view.hand_sizes)) if s != view.seat and s not in partners]
        danger = min(view.hand_sizes[s] for s in opponents) if opponents else 99

        def breaks_bomb(m: Move) -> bool:
            if m.is_bomb:
                return False
            played = C.unpack(m.packed)
            return any(played[r] and r in bombs_held for r in range(C.NUM_RANKS))

        def high_cards(m: Move) -> int:
            played = C.unpack(m.packed)
            return sum(played[r] for r in range(HIGH_RANK, C.NUM_RANKS))

        if view.last_play is None:  # leading: shed many cards, low ones first
            normal = [a for a in plays if a.move and not a.move.is_bomb and not breaks_bomb(a.move)] or \
                     [a for a in plays if a.move and not a.move.is_bomb] or plays

            def lead_score(a: Action) -> float:
                m = a.move
                assert m is not None
                score = m.size - 1.5 * high_cards(m) - m.rank / 13
                if danger <= 2 and m.size <= danger:  # do not feed a nearly-empty opponent
                    score -= 10 - m.rank / 2
                return score

            return max(normal, key=lead_score)

        partner_leads = view.last_seat in partners  # never beat a partner (with must-beat: no pass)
        if partner_leads and pass_action is not None:
            return pass_action
        normal = [a for a in plays if a.move and not a.move.is_bomb]
        cheap = [a for a in normal if a.move and not breaks_bomb(a.move)]
        if cheap:
            choice = min(cheap, key=lambda a: (a.move.rank if a.move else 0, high_cards(a.move) if a.move else 0))
            assert choice.move is not None
            # keep 2s and jokers unless the opponents are getting close
            if high_cards(choice.move) == 0 or danger <= 6 or pass_action is None:
                return choice
        bombs = [a for a in plays if a.move and a.move.is_bomb]
        if bombs and (danger <= 5 or hand_size - bombs[0].move.size <= 4 if bombs[0].move else False):
            return min(bombs, key=lambda a: a.move.key if a.move else ())
        if pass_action is not None:
            return pass_action
        return min(plays, key=lambda a: (a.move.rank if a.move else 0))
