"""``rlcard-rule``: RLCard 1.2.0's rule agent (``DouDizhuRuleAgentV1``), the anchor anyone
can run (``pip install 'ddzrules[rlcard]'``).

The agent is RLCard's own code, asked with the state RLCard's game would give it: the
seat's hand, the trace of plays and passes since the first lead, the legal plays and who
the landlord is, all in RLCard's notation (``B``/``R`` for the jokers ``X``/``D``). Only
two things are ours: its legal plays come in ddzrules' order (the agent takes the first
of equal candidates), and its one random choice (following a play it cannot answer with
the same type) is drawn from the bot's seed, not NumPy's global generator, which is left
as it was.

It plays only rules it understands (:meth:`RLCardRuleBot.refusal`): three players, one
deck with jokers, a landlord, no wild card, every play one of RLCard's, and no decision
but plays (RLCard's game deals the kitty to a fixed seat: no bids, no declarations).
"""

from __future__ import annotations

import random
from functools import cache
from typing import TYPE_CHECKING, Any

from ddzrules import cards as C
from ddzrules.errors import DdzError
from ddzrules.runtime import Action, PlayerView

if TYPE_CHECKING:
    from ddzrules.runtime import GameRules

INSTALL = "pip install 'ddzrules[rlcard]'"
TO_RLCARD = str.maketrans("XD", "BR")


@cache
def _rlcard() -> tuple[Any, Any, frozenset[str]]:
    """RLCard's agent class, NumPy's random module and RLCard's plays (imported once)."""
    try:
        import numpy as np
        from rlcard.games.doudizhu.utils import CARD_TYPE
        from rlcard.models.doudizhu_rule_models import DouDizhuRuleAgentV1
    except ImportError:
        raise DdzError(f"the bot rlcard-rule needs RLCard 1.2.0: {INSTALL}") from None
    return DouDizhuRuleAgentV1, np.random, frozenset(CARD_TYPE[0])


class RLCardRuleBot:
    """RLCard's ``DouDizhuRuleAgentV1``: leads the combination holding its lowest card
    (rocket, bombs, trios, chains, pairs, singles picked in that order), answers with the
    lowest play of the same type, passes a partner's play, and otherwise plays at random."""

    name = "rlcard-rule"

    def __init__(self, seed: int = 0) -> None:
        agent_class, self._np_random, _plays = _rlcard()
        self.agent = agent_class()
        self.rng = random.Random(seed)

    @staticmethod
    def refusal(rules: GameRules | None) -> str | None:
        """Why the agent cannot play ``rules`` (None: it can, or no rules were given).
        Raises :class:`~ddzrules.errors.DdzError` when RLCard is not installed."""
        _agent, _np, plays = _rlcard()
        if rules is None:
            return None
        deck = rules.variant.rules.deck
        name = rules.variant.name
        if rules.players != 3 or rules.table_kind != "landlord":
            return f"it plays RLCard's three-player landlord game; {name} is not one"
        if list(deck) != [4] * C.SMALL_JOKER + [1, 1]:
            return f"it plays RLCard's one deck with two jokers; {name} deals another deck"
        foreign = [p for p in rules.variant.universe() if p.translate(TO_RLCARD) not in plays]
        if foreign:
            return (f"{name} allows {len(foreign):,} plays RLCard's game does not have "
                    f"(the first: {min(foreign, key=lambda p: (len(p), p))})")
        game = rules.new_game(0)
        if game.wild is not None:
            return f"RLCard's game has no wild card; {name} has one"
        if game.phase != "play":
            kinds = sorted({a.kind for a in game.legal_actions()})
            return (f"RLCard's game has no bidding or declarations; {name} asks for "
                    f"{', '.join(kinds)} before the play")
        return None

    def act(self, view: PlayerView, legal: list[Action]) -> Action:
        if view.phase != "play":
            raise DdzError(f"rlcard-rule plays only the tricks; it was asked to choose among "
                              f"{', '.join(sorted({a.kind for a in legal}))}")
        by_cards: dict[str, Action] = {}
        for action in legal:
            key = "pass" if action.kind == "pass" else str(action.value).translate(TO_RLCARD)
            by_cards.setdefault(key, action)
        history = view.history
        first = next((i for i, a in enumerate(history) if a.kind == "play"), len(history))
        trace = [(a.seat, "pass" if a.kind == "pass" else str(a.value).translate(TO_RLCARD))
                 for a in history[first:] if a.kind in ("play", "pass")]
        state = {"raw_obs": {"current_hand": view.hand.translate(TO_RLCARD), "trace": trace,
                             "actions": list(by_cards), "landlord": view.landlord, "self": view.seat}}
        saved = self._np_random.get_state()
        self._np_random.seed(self.rng.randrange(2**32))
        try:
            choice = self.agent.step(state)
        finally:
            self._np_random.set_state(saved)
        chosen = by_cards.get(str(choice))
        if chosen is None:
            raise DdzError(f"rlcard-rule chose {choice!r}, which is not a legal play here")
        return chosen
