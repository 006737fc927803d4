"""The ``ddzrules`` engine: answers a suite from a spec (the suite's own, or ``--spec``).

Run against the suite's own spec it must pass everything (a self-check of the
suite and of this version of ddzrules); with ``--spec OTHER`` the failures list
exactly where the two rule sets differ.
"""

from __future__ import annotations

from typing import Any

from ddzrules.conformance import Position, perft, suite_variant
from ddzrules.engines import (
    CensusAnswer,
    Classification,
    GameAnswer,
    MovesAnswer,
    PerftAnswer,
    Reading,
)
from ddzrules.errors import DdzError
from ddzrules.rules.variant import Variant, load_variant


class NativeEngine:
    """ddzrules itself, on any spec. Options: ``spec`` (a bundled name or a path)."""

    OPTIONS = ("spec",)

    def __init__(self, manifest: dict[str, Any], options: dict[str, str]) -> None:
        spec = options.get("spec")
        self.variant: Variant = load_variant(spec) if spec else suite_variant(manifest)
        self.name = f"ddzrules ({self.variant.name})"

    def classify(self, cards: str, wild: str | None) -> Classification:
        readings = self.variant.classify(cards, wild=wild)
        return Classification(bool(readings),
                              tuple(sorted({Reading(m.combo, m.rank_name, m.length) for m in readings},
                                           key=lambda r: (r.combo, r.rank, r.length))))

    def compare(self, a: str, b: str, wild: str | None) -> bool:
        ra, rb = self.variant.classify(a, wild=wild), self.variant.classify(b, wild=wild)
        return any(x.beats(y) for x in ra for y in rb)  # no reading: neither beats

    def moves(self, hand: str, after: str | None, wild: str | None) -> MovesAnswer:
        if after is not None and not self.variant.classify(after, wild=wild):
            raise DdzError(f"{after} is not a play of {self.variant.name}, so there is nothing to answer")
        lm = self.variant.legal_moves(hand, after=after, wild=wild)
        return MovesAnswer(frozenset(m.cards for m in lm), lm.can_pass)

    def census(self) -> CensusAnswer:
        c = self.variant.census()
        return CensusAnswer(c.total, dict(c.by_combo))

    def perft(self, position: dict[str, Any], depth: int, budget: int | None = None) -> PerftAnswer:
        nodes, divide = perft(self.variant, Position.from_dict(self.variant, position), depth, budget)
        return PerftAnswer(nodes, divide)

    def game(self, vector: dict[str, Any]) -> GameAnswer:
        """Replay the vector's actions through this spec's runtime."""
        from ddzrules.records import ReplayError, find_action
        from ddzrules.runtime import GameRules, MatchInfo

        rules = GameRules(self.variant)
        match = vector["match"]
        game = rules.new_game(int(vector["seed"]), MatchInfo(int(match["index"]), int(match["seed"])))
        wanted = {int(k) for k in vector["checks"]}
        legal: dict[int, list[str]] = {}
        for i, data in enumerate(vector["actions"]):
            if data.get("kind") == "redeal":
                continue  # the rules add their own marker
            if game.over:
                return GameAnswer(legal, error=f"action #{i + 1}: the game is already over")
            if i in wanted:
                legal[i] = sorted(str(a) for a in game.legal_actions())
            try:
                game.apply(find_action(game, data, i))
            except ReplayError as e:
                return GameAnswer(legal, error=str(e))
            except DdzError as e:
                return GameAnswer(legal, error=f"action #{i + 1}: {e}")
        if not game.over:
            return GameAnswer(legal, error=f"the game is not over after the record's actions "
                                           f"(seat {game.to_act} to act)")
        return GameAnswer(legal, game.multiple, [e.name for e in game.events],
                          list(game.scores) if game.scores is not None else None)


__all__ = ["NativeEngine"]
