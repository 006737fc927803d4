"""``RuleSpec``: a spec's merged data parsed once into frozen dataclasses, the value every
later stage reads — the deck, the deal, the rank orders, the combos and bombs, the wild
cards, the table and the ``game:`` section — with every default stated here, once.

The model is made from data the schema has accepted (``spec.rule_spec`` of a loaded
:class:`~ddzrules.spec.loaded.Spec`): it converts, it does not check. Messages still point
at the file through the spec beside it (``spec.problem(("deal", "kitty"), ...)``), as the
positions are the spec's, not the model's. The raw merged dict stays on the spec only for
what is a format: a record's ``spec_resolved`` and the cache keys.

>>> from ddzrules.spec import load_spec
>>> rules = load_spec("hubei-4p-2deck").rule_spec
>>> rules.players, rules.deal.hand, rules.deal.kitty, rules.deck.decks
(4, 25, 8, 2)
>>> RuleSpec.from_data({"name": "bare"}).deal
Deal(hand=17, kitty=3, kitty_shown=True, undealt=0)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import TypeVar

#: a value of a spec's data as JSON has it, made read-only: mappings are read-only views and
#: lists are tuples (what a plugin's own parameters are given as in :attr:`RuleSpec.game`)
Frozen = None | bool | int | float | str | tuple["Frozen", ...] | Mapping[str, "Frozen"]

#: the play rules a spec that does not name them plays (``play:``; the runtime's PLAY_RULES)
DEFAULT_PLAY_RULES = "climbing"
#: the defaults of a spec that does not say: 3 players, 17 cards a hand, a kitty of 3
DEFAULT_PLAYERS = 3
DEFAULT_HAND = 17
DEFAULT_KITTY = 3
#: the table kinds a spec may name (``table.kind``); the first is the default
TABLE_KINDS = ("landlord", "free-for-all", "partnerships")


_V = TypeVar("_V")


class ReadOnly(Mapping[str, _V]):
    """A mapping that cannot be changed (and, unlike ``types.MappingProxyType``, can be
    pickled with the spec that holds it)."""

    __slots__ = ("_items",)

    def __init__(self, items: Mapping[str, _V] | None = None) -> None:
        self._items = dict(items or {})

    def __getitem__(self, key: str) -> _V:
        return self._items[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __repr__(self) -> str:
        return f"ReadOnly({self._items!r})"


def freeze(value: object) -> Frozen:
    """``value`` (JSON-like data) as a read-only value: dicts become read-only mappings,
    lists tuples, at every depth."""
    if isinstance(value, Mapping):
        return ReadOnly({str(k): freeze(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(freeze(v) for v in value)
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    raise TypeError(f"not JSON-like data: {type(value).__name__}")


def _section(data: Mapping[str, object], key: str) -> Mapping[str, object]:
    """The mapping at ``key``, empty when absent or null."""
    value = data.get(key)
    return value if isinstance(value, Mapping) else {}


@dataclass(frozen=True)
class Deck:
    """The cards in play: ``decks`` full decks, with or without jokers, less the removed
    whole ranks, then single cards (card notation)."""

    decks: int = 1
    jokers: bool = True
    remove_ranks: str = ""
    remove_cards: str = ""
    #: where the removed single cards were written (``deck.remove`` given as a card string
    #: is short for ``{cards: ...}``): what a message about them points at
    remove_cards_path: tuple[str, ...] = ("deck", "remove", "cards")

    @classmethod
    def from_data(cls, deck: Mapping[str, object]) -> Deck:
        remove = deck.get("remove")
        path: tuple[str, ...]
        if isinstance(remove, str):
            ranks, cards, path = "", remove, ("deck", "remove")
        else:
            table = remove if isinstance(remove, Mapping) else {}
            ranks, cards = str(table.get("ranks") or ""), str(table.get("cards") or "")
            path = ("deck", "remove", "cards")
        return cls(_int(deck.get("decks"), 1), bool(deck.get("jokers", True)), ranks.strip(), cards.strip(), path)


@dataclass(frozen=True)
class Deal:
    """What each seat is dealt: ``hand`` cards each, a ``kitty`` (底牌) shown or not when
    taken, and ``undealt`` cards left out of the game."""

    hand: int = DEFAULT_HAND
    kitty: int = DEFAULT_KITTY
    kitty_shown: bool = True
    undealt: int = 0

    @classmethod
    def from_data(cls, deal: Mapping[str, object]) -> Deal:
        return cls(_int(deal.get("hand"), DEFAULT_HAND), _int(deal.get("kitty"), DEFAULT_KITTY),
                   bool(deal.get("kitty_shown", True)), _int(deal.get("undealt"), 0))


@dataclass(frozen=True)
class Table:
    """Who plays with whom: a landlord against the others (the default), everyone for
    themselves, or fixed partnerships (``teams``: seats by team); ``must_beat``: a seat
    that can beat the play on the table may not pass."""

    kind: str = TABLE_KINDS[0]
    teams: tuple[tuple[int, ...], ...] = ()
    must_beat: bool = False

    @classmethod
    def from_data(cls, table: Mapping[str, object]) -> Table:
        teams = table.get("teams")
        seats = tuple(tuple(s for s in team if isinstance(s, int)) for team in teams
                      if isinstance(team, (list, tuple))) if isinstance(teams, (list, tuple)) else ()
        return cls(str(table.get("kind") or TABLE_KINDS[0]), seats, bool(table.get("must_beat", False)))


@dataclass(frozen=True)
class Combo:
    """One combo class (牌型): its pattern in the pattern language, its names and how two
    of its plays compare. ``path`` is where the pattern was written, for messages."""

    name: str
    pattern: str
    zh: str = ""
    description: str = ""
    compare: tuple[str, ...] = ("rank",)
    path: tuple[str, ...] = ()

    @classmethod
    def from_data(cls, name: str, entry: object) -> Combo:
        if not isinstance(entry, Mapping):  # a pattern written alone is short for {pattern: ...}
            return cls(name, str(entry), path=("combos", name))
        compare = entry.get("compare")
        return cls(name, str(entry["pattern"]), str(entry.get("zh", "")), str(entry.get("description", "")),
                   tuple(str(c) for c in compare) if isinstance(compare, (list, tuple)) and compare else ("rank",),
                   ("combos", name, "pattern"))


@dataclass(frozen=True)
class Wildcards:
    """Wild cards (癞子): the ranks a wild card may stand for, and how many ranks are wild at
    once (天地癞子: two)."""

    stand_for: str = "3..2"
    ranks: int = 1

    @classmethod
    def from_data(cls, wild: Mapping[str, object]) -> Wildcards:
        return cls(str(wild.get("stand_for", "3..2")), _int(wild.get("ranks"), 1))


@dataclass(frozen=True)
class RuleSpec:
    """A spec's rules, typed. Made once from the merged, schema-checked data
    (:meth:`from_data`); never modified.

    ``game`` is the ``game:`` section as read-only data: each entry's parameters belong to
    the plugin it names, which owns their schema and checks them (the runtime's plugin
    checks, ``ddzrules validate``), so the model keeps them as written."""

    name: str
    title_zh: str = ""
    title_en: str = ""
    region: str | None = None
    #: the document the rules are taken from: ``document``, ``section``, ``url`` as written
    #: (a key set to null, which removes an inherited one, is absent)
    source: Mapping[str, str] = field(default_factory=lambda: ReadOnly())
    #: what the spec's author adds in words, if anything
    notes: str | None = None
    players: int = DEFAULT_PLAYERS
    direction: str = "counter-clockwise"
    #: the play phase's rules, by name (``play:``)
    play: str = DEFAULT_PLAY_RULES
    deck: Deck = field(default_factory=Deck)
    deal: Deal = field(default_factory=Deal)
    table: Table = field(default_factory=Table)
    #: the largest hand a play is drawn from, when the spec says (else :attr:`max_hand`)
    max_hand_given: int | None = None
    #: the ranks a chain may run over, lowest..highest
    chain_ranks: str = "3..A"
    combos: tuple[Combo, ...] = ()
    #: the bomb classes, lowest tier first (names of combos)
    bombs: tuple[str, ...] = ()
    wildcards: Wildcards | None = None
    #: the reading chosen for each ambiguous rule: id -> what this spec does and why
    readings: Mapping[str, str | None] = field(default_factory=lambda: ReadOnly())
    game: Mapping[str, Frozen] = field(default_factory=lambda: ReadOnly())

    @property
    def max_hand(self) -> int:
        """The largest hand a play is drawn from: ``max_hand`` when given, else a hand and
        the kitty (the landlord's hand)."""
        return self.max_hand_given or self.deal.hand + self.deal.kitty

    def combo(self, name: str) -> Combo | None:
        """The combo of that name, if the spec has one."""
        return next((c for c in self.combos if c.name == name), None)

    @classmethod
    def from_data(cls, data: Mapping[str, object]) -> RuleSpec:
        """The model of merged spec data the schema accepted (keys set to null, which
        remove an inherited entry, are absent or read as absent)."""
        title = _section(data, "title")
        region = data.get("region")
        notes = data.get("notes")
        wild = data.get("wildcards")
        readings = _section(data, "readings")
        max_hand = data.get("max_hand")
        return cls(
            name=str(data.get("name", "")),
            title_zh=str(title.get("zh", "")), title_en=str(title.get("en", "")),
            region=region if isinstance(region, str) else None,
            source=ReadOnly({str(k): str(v) for k, v in _section(data, "source").items() if v is not None}),
            notes=notes if isinstance(notes, str) else None,
            players=_int(data.get("players"), DEFAULT_PLAYERS),
            direction=str(data.get("direction") or "counter-clockwise"),
            play=str(data.get("play") or DEFAULT_PLAY_RULES),
            deck=Deck.from_data(_section(data, "deck")),
            deal=Deal.from_data(_section(data, "deal")),
            table=Table.from_data(_section(data, "table")),
            max_hand_given=max_hand if isinstance(max_hand, int) and max_hand else None,
            chain_ranks=str(data.get("chain_ranks", "3..A")),
            combos=tuple(Combo.from_data(str(name), entry) for name, entry in _section(data, "combos").items()
                         if entry is not None),
            bombs=tuple(str(b) for b in _list(data.get("bombs"))),
            wildcards=Wildcards.from_data(wild) if isinstance(wild, Mapping) and wild else None,
            readings=ReadOnly({str(k): v if isinstance(v, str) else None for k, v in readings.items()}),
            game=ReadOnly({str(k): freeze(v) for k, v in _section(data, "game").items()}),
        )


def _int(value: object, default: int) -> int:
    """An integer the schema accepted, or the default when it is absent (None)."""
    if value is None:
        return default
    if isinstance(value, (int, float, str)):
        return int(value)
    raise TypeError(f"not a whole number: {type(value).__name__}")


def _list(value: object) -> list[object]:
    return list(value) if isinstance(value, (list, tuple)) else []
