"""The table seam: who sits on which side, and what happens between the deal and the
declarations. A spec's ``table.kind`` chooses one :class:`Table` once, when its rules are
made (:func:`table_of`); the runtime then asks the table and never the kind's name, so a
table without a landlord never enters landlord code.

Built in: :class:`LandlordTable` (landlord, kitty and stake: the landlord phase a plugin
makes, 叫分/抢地主, then the kitty to the landlord; two sides, the landlord against the
farmers), :class:`FreeForAllTable` (each seat for itself, 跑得快) and
:class:`PartnershipsTable` (fixed teams).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

from ddzrules.errors import PluginError, SpecError, brief
from ddzrules.game.door import Hook
from ddzrules.game.values import GameState, Phase
from ddzrules.spec import Spec

#: a phase and the plugin and hook that made it (for messages naming the plugin)
OwnedPhase = tuple[Phase, tuple[str, str]]


class TableGame(Protocol):
    """What a table uses of a game as it opens a deal (the game is also what the hooks it
    calls are given)."""

    players: int
    first_bidder: int
    #: the landlord fixed before the deal (GameRules.new_game), or None
    fixed_landlord: int | None

    @property
    def landlord(self) -> int | None: ...
    @landlord.setter
    def landlord(self, value: int | None) -> None: ...
    @property
    def stake(self) -> int | float: ...
    @stake.setter
    def stake(self, value: int | float) -> None: ...  # noqa: PYI041 - an int stays an int
    def give_kitty(self) -> None: ...


class Table(Protocol):
    """What the runtime asks of a kind of table."""

    #: the name of the kind (``table.kind``), for messages and ``GameRules.table_kind``
    kind: str
    #: whether a seat becomes the landlord (a landlord phase, a kitty, the landlord's side)
    has_landlord: bool
    #: the fixed teams (seats), or () when sides are not fixed
    teams: tuple[tuple[int, ...], ...]
    #: the phase a deal is in while the table opens it ("declare": the table has no phases of
    #: its own before the declarations)
    first_phase: str

    def opening(self, game: TableGame, hooks: Mapping[str, Hook]) -> list[OwnedPhase]:
        """Once a deal is dealt (and its wild ranks drawn): the table's own phases, played
        before the declarations; [] for none."""
        ...

    def opening_over(self, game: TableGame, phase: Phase, owner: tuple[str, str]) -> None:
        """The last of the opening's phases (``phase``, made by ``owner``) is over; what the
        table does before the declarations (a PluginError when the phase left it unable to)."""
        ...

    def side_of(self, game: GameState, seat: int) -> tuple[int, ...]:
        """The seats on ``seat``'s side, itself included."""
        ...

    def partners(self, game: GameState, seat: int) -> tuple[int, ...]:
        """The other seats on ``seat``'s side: () until the sides are known (asked at every
        view: a table answers from what it has worked out before)."""
        ...

    def seat_role(self, game: GameState, seat: int) -> str:
        """The seat's role in words ("" for none), for a game told in words."""
        ...

    def result_words(self, game: GameState, out: str, winners: str, you_won: bool) -> str:
        """Who won, in the words of the table: ``out`` names the first player out
        ("seat 2 is"), ``winners`` the winning side."""
        ...


class FreeForAllTable:
    """Each seat for itself: the first player out wins (跑得快)."""

    kind = "free-for-all"
    has_landlord = False
    teams: tuple[tuple[int, ...], ...] = ()
    first_phase = "declare"

    def opening(self, game: TableGame, hooks: Mapping[str, Hook]) -> list[OwnedPhase]:
        return []

    def opening_over(self, game: TableGame, phase: Phase, owner: tuple[str, str]) -> None:
        return None

    def side_of(self, game: GameState, seat: int) -> tuple[int, ...]:
        return (seat,)

    def partners(self, game: GameState, seat: int) -> tuple[int, ...]:
        return ()

    def seat_role(self, game: GameState, seat: int) -> str:
        return ""

    def result_words(self, game: GameState, out: str, winners: str, you_won: bool) -> str:
        return f"{out} out first and " + ("win." if you_won else "wins.")


class PartnershipsTable(FreeForAllTable):
    """Fixed teams: a team wins when one of its seats is out first."""

    kind = "partnerships"

    def __init__(self, teams: tuple[tuple[int, ...], ...]) -> None:
        self.teams = teams
        #: seat -> its team
        self._team_of = {s: team for team in teams for s in team}
        self._partners = {s: tuple(p for p in team if p != s) for s, team in self._team_of.items()}

    def side_of(self, game: GameState, seat: int) -> tuple[int, ...]:
        return self._team_of[seat]

    def partners(self, game: GameState, seat: int) -> tuple[int, ...]:
        return self._partners[seat]

    def seat_role(self, game: GameState, seat: int) -> str:
        return "team " + "+".join(map(str, self._team_of[seat]))

    def result_words(self, game: GameState, out: str, winners: str, you_won: bool) -> str:
        return f"{out} out first. Team {winners} wins."


class LandlordTable:
    """Landlord, kitty and stake: a landlord phase (or a landlord fixed before the deal, at
    stake 1) names the landlord, who takes the kitty and plays alone against the farmers."""

    kind = "landlord"
    has_landlord = True
    teams: tuple[tuple[int, ...], ...] = ()
    first_phase = "landlord"

    def __init__(self) -> None:
        #: (landlord, seat) -> the seat's partners (asked at every view)
        self._partners: dict[tuple[int | None, int], tuple[int, ...]] = {}

    def opening(self, game: TableGame, hooks: Mapping[str, Hook]) -> list[OwnedPhase]:
        fixed = game.fixed_landlord
        if fixed is not None:  # no landlord phase: the seat takes the kitty at stake 1
            game.landlord = game.first_bidder = fixed
            game.stake = 1
            game.give_kitty()
            return []
        first = hooks["ddzrules_first_bidder"].one(game=game)
        game.first_bidder = 0 if first is None else first
        hook = hooks["ddzrules_landlord_phase"]
        answers = hook.pairs(None, game=game)
        if not answers:  # GameRules checks that a landlord plugin exists: it answered None
            raise PluginError(hook.owners(), hook.name, "answered no landlord phase (None)")
        label, phase = answers[0]
        return [(phase, (label, hook.name))]

    def opening_over(self, game: TableGame, phase: Phase, owner: tuple[str, str]) -> None:
        if game.landlord is None:
            name = getattr(phase, "name", "?")
            raise PluginError(owner[0], owner[1], f"its phase {brief(name)} ended without a landlord "
                                                  "(game.landlord)")
        game.give_kitty()

    def side_of(self, game: GameState, seat: int) -> tuple[int, ...]:
        landlord = game.landlord
        if landlord is not None and seat != landlord:
            return tuple(s for s in range(game.players) if s != landlord)
        return (seat,)

    def partners(self, game: GameState, seat: int) -> tuple[int, ...]:
        key = (game.landlord, seat)
        got = self._partners.get(key)
        if got is None:
            got = self._partners[key] = () if key[0] is None else \
                tuple(s for s in self.side_of(game, seat) if s != seat)
        return got

    def seat_role(self, game: GameState, seat: int) -> str:
        landlord = game.landlord
        return "地主 landlord" if landlord == seat else ("farmer" if landlord is not None else "")

    def result_words(self, game: GameState, out: str, winners: str, you_won: bool) -> str:
        return f"{out} out. {'Landlord wins' if game.landlord_won else 'Farmers win'}."


def _without_teams(spec: Spec, section: Mapping[str, Any]) -> None:
    if section.get("teams"):
        raise SpecError([spec.problem(("table", "teams"), "teams: is for a partnerships "
                                                          "table (table.kind: partnerships)")])


def _landlord_table(spec: Spec, section: Mapping[str, Any], players: int) -> Table:
    _without_teams(spec, section)
    return LandlordTable()


def _free_for_all_table(spec: Spec, section: Mapping[str, Any], players: int) -> Table:
    _without_teams(spec, section)
    return FreeForAllTable()


def _partnerships_table(spec: Spec, section: Mapping[str, Any], players: int) -> Table:
    """Fixed teams (SpecError unless they partition the seats)."""
    teams = tuple(tuple(int(s) for s in t) for t in section.get("teams") or [])
    seats = sorted(s for t in teams for s in t)
    if seats != list(range(players)) or len(teams) < 2:
        raise SpecError([spec.problem(("table", "teams"), f"the teams must put each of the "
                                                          f"{players} seats (0-{players - 1}) in "
                                                          "exactly one of two or more teams")])
    return PartnershipsTable(teams)


#: the built-in kinds of table (spec key ``table.kind``), each with what makes its table
#: from the spec's ``table:`` section and the number of players
TABLE_MAKERS: dict[str, Callable[[Spec, Mapping[str, Any], int], Table]] = {
    "landlord": _landlord_table,
    "free-for-all": _free_for_all_table,
    "partnerships": _partnerships_table,
}
TABLE_KINDS = tuple(TABLE_MAKERS)


def table_of(spec: Spec, section: Mapping[str, Any], players: int) -> Table:
    """The table a spec's ``table:`` section names (default: landlord; the schema allows
    only the built-in kinds)."""
    return TABLE_MAKERS[str(section.get("kind", "landlord"))](spec, section, players)
