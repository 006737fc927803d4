"""One game and what is kept of it: the seeds (game ``i`` of a run seeded ``S`` is played
with :func:`game_seed`), :func:`play_game`, the figures (:data:`FIGURES`) and the rule
facts a summary needs, and :class:`GameSummary`, what aggregation keeps of a finished game."""

from __future__ import annotations

import hashlib
import math
import weakref
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ddzrules import cards as C
from ddzrules.bots import Agent, make_bot
from ddzrules.errors import DdzError, brief
from ddzrules.game.rules import ActivatedRules
from ddzrules.rules.moves import Move
from ddzrules.runtime import Game, GameRules, MatchInfo, implemented_hooks


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a run seeded ``seed`` (stable across Python versions)."""
    digest = hashlib.sha256(f"ddzrules:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def play_game(rules: GameRules, agents: Sequence[Agent], seed: int, match: MatchInfo | None = None,
              on_action: Callable[[Game, Any], None] | None = None,
              chances: Counter[str] | None = None) -> Game:
    """Play one whole game; each seat's agent chooses among the legal actions. With
    ``chances``, each combo is counted once at every decision where one of the choices
    was a play of it: how often the game gave a hand the chance to play it."""
    game = rules.new_game(seed, match)
    while not game.over:
        seat = game.to_act
        assert seat is not None
        legal = game.legal_actions()
        if chances is not None:
            chances.update({a.move.combo for a in legal if a.move is not None})
        action = agents[seat].act(game.view(seat), legal)
        game.apply(action)
        if on_action is not None:
            on_action(game, action)
    return game


def carries_cards(rules: GameRules) -> bool:
    """Whether a plugin of ``rules`` deals from the match's previous game (不洗牌: its class
    says ``carries_cards = True``)."""
    return any(getattr(inst, "carries_cards", False) is True for _role, _name, inst in rules.active)


def prelude_cards(rules: GameRules, kinds: Sequence[str], seed: int, match: MatchInfo) -> tuple[int, ...] | None:
    """For rules whose deal needs the previous game's cards (:func:`carries_cards`): the
    cards of a game played just before game ``seed``, shuffled, by the same bots (its seed
    and theirs drawn from ``seed``), so that a game of a simulation is the second game of
    a match of its own; None for any other rules (nothing is played)."""
    if not carries_cards(rules):
        return None
    pseed = game_seed(seed, 1)
    agents = [make_bot(kind, pseed + 101 * (s + 1)) for s, kind in enumerate(kinds)]
    return play_game(rules, agents, pseed, match).gathered_cards()


def seat_bots(bots: Sequence[str], players: int) -> list[str]:
    """One bot kind per seat: ``bots`` repeated (or cut) to ``players`` seats."""
    if not bots:
        raise ValueError("at least one bot kind is needed")
    return (list(bots) * players)[:players]


# ====================================================================== figures


@dataclass(frozen=True)
class Figure:
    """A per-game figure: ``proportion`` (a yes/no per game; Wilson interval) or
    ``mean`` (a number per game; normal interval of the mean). The interval of a
    figure that cannot be negative (a count, a multiple) is cut at 0: the normal
    approximation would otherwise put the lower end of a rare count below it."""

    name: str
    kind: str
    label: str
    about: str
    nonnegative: bool = True


#: every per-game figure, in the order reports print them
FIGURES: tuple[Figure, ...] = (
    Figure("landlord_won", "proportion", "landlord win rate", "the landlord's side won the game"),
    Figure("multiple", "mean", "multiple",
           "the game's multiple: the product of its multiplier events "
           "(bombs, spring, robs, 明牌 …)"),
    Figure("bombs", "mean", "bombs",
           "bomb-class plays other than rockets (led or not, effective or not)"),
    Figure("rockets", "mean", "rockets",
           "bomb-class plays made of jokers only (王炸: XD, or XXDD with two decks), wherever "
           "the spec ranks them among its bombs"),
    Figure("bombs_dealt", "mean", "bombs dealt",
           "bombs in the hands as dealt, before the kitty: each rank held four times or more, "
           "and a hand holding every joker (how a deal, shuffled or not, makes bombs)"),
    Figure("bomb_dealt", "proportion", "deals with a bomb", "at least one bomb in the hands as dealt"),
    Figure("spring", "proportion", "spring rate", "春天: a spring was scored"),
    Figure("anti_spring", "proportion", "anti-spring rate", "反春: an anti-spring was scored"),
    Figure("redeals", "mean", "redeals", "deals thrown in because nobody took the landlord"),
    Figure("bids", "mean", "bids",
           "landlord claims: bid (叫分), call (叫地主), take (HK 選擇當地主) "
           "and rob (抢地主) actions"),
    Figure("robs", "mean", "robs", "rob actions (抢地主, rob-back included)"),
    Figure("plays", "mean", "plays", "plays of cards (passes not counted)"),
    Figure("stake", "mean", "stake",
           "the game's stake: the winning bid, or the base a call or take sets"),
    Figure("landlord_score", "mean", "landlord score",
           "the landlord's score, in the settlement's unit", nonnegative=False),
    Figure("score_per_stake", "mean", "landlord score / stake unit",
           "the landlord's score divided by the game's stake unit (comparable across "
           "settlements)", nonnegative=False),
)
FIGURE_NAMES = tuple(f.name for f in FIGURES)

#: the landlord-phase action kinds counted as bids, by landlord plugin. A plugin not
#: listed may declare its own as a class attribute ``bid_kinds``; otherwise its
#: rule sets have no bids figure (n/a).
BID_KINDS: dict[str, tuple[str, ...]] = {
    "point-bids": ("bid",),
    "call-rob": ("call", "rob"),
    "hk-rob": ("take", "rob"),
}


@dataclass(frozen=True)
class RuleFacts:
    """What a rule set has, so that a figure it lacks is ``None`` (n/a), never 0."""

    has_bombs: bool
    has_rockets: bool
    #: the bomb classes whose every play is made of jokers only (the rocket)
    rocket_combos: frozenset[str]
    has_spring: bool
    bid_kinds: tuple[str, ...] | None
    settlement: str | None
    unit: str | None
    #: what a comparison must share for a seed to deal the same cards
    deal_key: tuple[Any, ...]

    @property
    def has_robs(self) -> bool:
        return self.bid_kinds is not None and "rob" in self.bid_kinds


_facts_cache: weakref.WeakKeyDictionary[ActivatedRules, RuleFacts] = weakref.WeakKeyDictionary()


def _plugin_name(inst: Any, registered: str) -> str:
    return str(getattr(inst, "name", registered))


def _is_rocket_cards(cards: str) -> bool:
    return bool(cards) and all(c in "XD" for c in cards)


def is_rocket(move: Move) -> bool:
    """A rocket: a bomb-class play made of jokers only. Decided by what was played, not
    by where the spec ranks it among its bombs: a house rule that puts a bomb class
    above the rocket still counts its rockets as rockets (wild cards never stand for a
    joker, so the cards say it)."""
    return move.is_bomb and _is_rocket_cards(move.cards)


def rule_facts(rules: ActivatedRules) -> RuleFacts:
    """The figures a rule set has: bombs, rockets, spring, bids, robs, the score's unit."""
    cached = _facts_cache.get(rules)
    if cached is not None:
        return cached
    variant = rules.variant
    deck = variant.rules.deck
    # the rocket classes: bombs a hand of every joker of the deck can play that are made
    # of jokers only (the legal-move tables games use anyway), and whose every play of
    # the universe is such a play — a class that also has other plays ("4 | <XD>")
    # still has bombs
    jokers = [0] * len(deck)
    for j in C.JOKERS:
        jokers[j] = deck[j]
    joker_plays = Counter(m.combo for m in variant.legal_moves(C.deck_list(jokers)).moves
                          if is_rocket(m))
    per_combo = variant.census().by_combo
    bomb_classes = [c.name for c in variant.rules.combos if c.tier >= 0]
    rocket_combos = frozenset(name for name in bomb_classes
                              if joker_plays[name] and joker_plays[name] == per_combo.get(name))
    has_bombs = any(name not in rocket_combos for name in bomb_classes)
    has_spring = False
    bid_kinds: tuple[str, ...] | None = None
    settlement: str | None = None
    for role, registered, inst in rules.active:
        if role == "multipliers" and "ddzrules_on_game_end" in implemented_hooks(inst):
            has_spring = True
        if role == "landlord":
            name = _plugin_name(inst, registered)
            declared = getattr(inst, "bid_kinds", None)
            bid_kinds = tuple(declared) if declared else BID_KINDS.get(name)
        if role == "settlement":
            settlement = _plugin_name(inst, registered)
    units = {"stake-settlement": "points", "win-points": "points", "beans": "beans",
             "cards-left": "points"}
    unit = units.get(settlement or "")
    for role, _, inst in rules.active:
        if role == "settlement" and unit is None:
            unit = getattr(inst, "stake_unit_name", None)
    facts = RuleFacts(has_bombs, bool(joker_plays), rocket_combos, has_spring, bid_kinds, settlement, unit,
                      (tuple(deck), rules.players, rules.hand_size, rules.kitty_size,
                       rules.undealt))
    _facts_cache[rules] = facts
    return facts


def stake_unit(game: Game) -> tuple[float, str] | None:
    """The game's stake unit and its name: what one farmer–landlord pair settles at
    multiple 1 (no 加倍/加棒), so that ``score / unit`` compares across settlements.

    * ``stake-settlement``: ``per_farmer × stake`` points (the stake is the winning
      bid, or 3 for an HK take);
    * ``win-points``: ``points`` (the points a winner scores);
    * ``beans``: ``stake × rate × wild_factor`` beans (底分 × N, × the 癞子场 factor).

    Another settlement plugin may provide a method ``stake_unit(game) -> float`` and
    a class attribute ``stake_unit_name``; without them the answer is None.
    """
    for role, registered, inst in game.rules.active:
        if role != "settlement":
            continue
        name = _plugin_name(inst, registered)
        if name == "stake-settlement":
            return float(inst.per_farmer * game.stake), "points"
        if name == "win-points":
            return float(inst.points), "points"
        if name == "beans":
            return float(game.stake * inst.rate * inst.wild_factor), "beans"
        custom = getattr(inst, "stake_unit", None)
        if callable(custom):
            value = custom(game)
            try:
                amount = float(value)
            except (TypeError, ValueError, OverflowError):
                raise DdzError(f"settlement plugin {name!r}: stake_unit(game) must return a number, "
                               f"not {brief(value)}") from None
            return amount, str(getattr(inst, "stake_unit_name", "points"))
    return None


@dataclass
class GameSummary:
    """The figures of one game that a simulation aggregates (None: the rule set
    does not have the figure)."""

    index: int
    landlord: int | None  # None: a table without a landlord (free-for-all, partnerships)
    landlord_won: bool | None
    multiple: float
    bombs: int | None  # bomb-class plays other than rockets (is_rocket)
    spring: bool | None
    anti_spring: bool | None
    plays: int
    redeals: int
    stake: float | None  # the runtime's game.stake (an int in the bundled plugins)
    scores: list[int]
    events: dict[str, int] = field(default_factory=dict)
    stats: dict[str, float] = field(default_factory=dict)
    rockets: int | None = None
    bids: int | None = None
    robs: int | None = None
    landlord_score: int | None = 0
    stake_unit: float | None = None
    unit: str | None = None
    score_per_stake: float | None = None
    #: the seats of the winning side (the first out's: the landlord or the farmers, a team,
    #: or the winner alone)
    winners: tuple[int, ...] = ()
    #: the plays of the game by combo name (what the bots played: a rule never played was
    #: never tested by the game)
    combo_plays: dict[str, int] = field(default_factory=dict)
    bombs_dealt: int | None = None
    bomb_dealt: bool | None = None
    #: decisions where a play of the combo was among the choices, by combo (see play_game)
    combo_chances: dict[str, int] = field(default_factory=dict)
    #: a digest of the game's course (its deals and every action): two rule sets' games of
    #: one seed with the same course were played alike, whatever the rules that differ
    course: str = ""

    def figures(self) -> dict[str, float | None]:
        """Every figure of :data:`FIGURES`: booleans as 0/1, None where n/a."""
        out: dict[str, float | None] = {}
        for name in FIGURE_NAMES:
            v = getattr(self, name)
            out[name] = None if v is None else (int(v) if isinstance(v, bool) else v)
        return out


def dealt_bombs(game: Game) -> int:
    """Bombs in the hands of the game's last deal, as dealt (the kitty apart): each rank a
    hand holds four times or more, and a hand holding every joker of the deck."""
    deck = game.variant.rules.deck
    jokers = [r for r in (C.SMALL_JOKER, C.BIG_JOKER) if deck[r]]
    out = 0
    for text in game.deals[-1]["hands"]:
        counts = C.counts_of(C.parse_ranks(text))
        out += sum(1 for r in range(C.SMALL_JOKER) if counts[r] >= 4)
        out += bool(jokers) and all(counts[r] == deck[r] for r in jokers)
    return out


def course_digest(game: Game) -> str:
    """A digest of what happened in ``game``: every deal's hands and kitty, and every
    action (seat, kind, value). Equal digests: the same game, action for action."""
    h = hashlib.sha256()
    for deal in game.deals:
        h.update(repr((deal.get("hands"), deal.get("kitty"))).encode())
    for a in game.history:
        h.update(repr((a.seat, a.kind, a.value)).encode())
    return h.hexdigest()[:32]


def summarise(game: Game, index: int, chances: Counter[str] | None = None) -> GameSummary:
    """The per-game figures of a finished game; at a table without a landlord the
    landlord figures (win rate, stake, landlord score, score per stake) are None (n/a).
    ``chances``: what :func:`play_game` counted of the combos offered."""
    assert game.scores is not None
    facts = rule_facts(game.rules)
    plays = sum(1 for a in game.history if a.kind == "play")
    bombs = rockets = 0
    for ms in game.played:
        for m in ms:
            if is_rocket(m):
                rockets += 1
            elif m.is_bomb:
                bombs += 1
    names = Counter(e.name for e in game.events)
    combos = Counter(m.combo for ms in game.played for m in ms)
    kinds = facts.bid_kinds
    bids = None if kinds is None else sum(1 for a in game.history if a.kind in kinds)
    robs = sum(1 for a in game.history if a.kind == "rob") if facts.has_robs else None
    has_landlord = game.landlord is not None
    landlord_score = game.scores[game.landlord] if game.landlord is not None else None
    unit = stake_unit(game)
    per_stake = (landlord_score / unit[0] if landlord_score is not None and unit is not None
                 and unit[0] else None)
    summary = GameSummary(
        index, game.landlord, bool(game.landlord_won) if has_landlord else None, game.multiple,
        bombs if facts.has_bombs else None,
        names["spring"] > 0 if facts.has_spring else None,
        names["anti_spring"] > 0 if facts.has_spring else None,
        plays, len(game.redeal_reasons), game.stake if has_landlord else None, list(game.scores),
        dict(names), dict(game.stats),
        rockets=rockets if facts.has_rockets else None, bids=bids, robs=robs,
        landlord_score=landlord_score, stake_unit=unit[0] if unit else None,
        unit=unit[1] if unit else facts.unit, score_per_stake=per_stake,
        winners=tuple(game.winners), combo_plays=dict(combos),
        bombs_dealt=(dealt := dealt_bombs(game)) if facts.has_bombs else None,
        bomb_dealt=dealt > 0 if facts.has_bombs else None,
        combo_chances=dict(chances) if chances is not None else {}, course=course_digest(game))
    _check_finite(summary, game.rules.variant.name)
    return summary


def _check_finite(s: GameSummary, spec: str) -> None:
    """Refuse a game whose figures are not finite numbers (a plugin's factors that
    overflow a float, a stake unit or a statistic of NaN): no mean, interval or JSON
    can be made of them, and a report must not print them as numbers."""
    values: list[tuple[str, Any]] = [("multiple", s.multiple), ("stake unit", s.stake_unit),
                                     ("score per stake unit", s.score_per_stake)]
    values += [(f"statistic {k!r}", v) for k, v in s.stats.items()]
    for what, value in values:
        if value is not None and not (isinstance(value, int) or math.isfinite(value)):
            raise DdzError(f"{spec}, game {s.index}: its {what} is {value}, not a finite number "
                           "(a plugin's factors overflow a float?): no figure can be made of it")
