"""The worked plugin of docs/tables.md: no bidding, the holder of a rank leads.

A spec activates it as ``game.leader: {plugin: rank-leads, params: {rank: "3"}}`` at a
table without a landlord; tests register it with ``PluginRegistry.register``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from ddzrules import cards as C
from ddzrules.hookspecs import hookimpl
from ddzrules.runtime import Game


class RankLeads:
    """The lowest seat holding a card of ``rank`` leads the first trick (else seat 0)."""

    name = "rank-leads"
    params_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "additionalProperties": False,
        "properties": {"rank": {"type": "string", "description": "The rank, e.g. \"3\"."}},
    }

    def __init__(self, params: dict[str, Any]) -> None:
        self.rank = C.parse_rank(params.get("rank", "3"))

    @hookimpl
    def ddzrules_first_leader(self, game: Game) -> int | None:
        for seat in range(game.players):
            if game.hands[seat][self.rank]:
                return seat
        return None  # nobody holds one: the runtime's default (seat 0) leads
