"""A game told in the words of its table: who a seat is (地主 landlord, farmer, a team),
what an action was, who won, and why a play cannot be made now. What the command line's
``play`` prints and the playground shows, from one place."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ddzrules import cards as C
from ddzrules.errors import PlayError
from ddzrules.game.game import Game
from ddzrules.game.values import Action, PlayerView


def seat_name(game: Game, seat: int, human: int | None = None, roles: bool = True) -> str:
    role = game.rules.table.seat_role(game, seat) if roles else ""
    who = "you" if seat == human else f"seat {seat}"
    return f"{who}" + (f" ({role})" if role else "")


def seats_phrase(seats: tuple[int, ...] | list[int], human: int | None = None) -> str:
    return " and ".join("you" if s == human else f"seat {s}" for s in seats)


def result_text(game: Game, human: int | None = None) -> str:
    """Who won, in the words of the table: the landlord or the farmers, a team, or the
    first player out alone (game.winners is the winning side at every table)."""
    assert game.winner is not None
    out = seat_name(game, game.winner, human) + (" are" if game.winner == human else " is")
    return game.rules.table.result_words(game, out, seats_phrase(game.winners, human), game.winner == human)


def describe_action(game: Game, action: Action, human: int | None = None, roles: bool = True) -> str:
    """One log line for ``action``; ``roles=False`` for an action of bidding or declaring,
    taken before the roles were known (the pass that ends the bidding is no farmer's)."""
    who = seat_name(game, action.seat, human, roles) if action.seat >= 0 else "dealer"
    if action.kind == "play" and action.move is not None:
        m = action.move
        subst = " " + ",".join(f"{a}→{b}" for a, b in m.substitution if a != b) if m.substitution else ""
        return f"{who}: {m.cards}  [{m.combo}{' bomb' if m.is_bomb else ''}{subst.rstrip()}]"
    if action.kind == "redeal":
        return f"— {action.value}: redeal —"
    return f"{who}: {action}"


def has_escape_rule(game: Game) -> bool:
    """Whether a player may leave the game (逃跑): some plugin settles an escape."""
    return bool(game.rules.hook.ddzrules_settle_escape.get_hookimpls())


def no_pass_reason(game: Game, view: PlayerView) -> str:
    if view.last_play is None:
        return "you lead this trick and cannot pass"
    if game.rules.must_beat:
        return f"must beat (有大必压): you can beat {view.last_play.cards}, so you may not pass"
    return "passing is not allowed now by this table's rules"


def illegal_reason(game: Game, view: PlayerView, cards: str) -> str:
    """Why ``cards`` cannot be played now, in the game's own words. More of a rank than
    any set of cards holds (16 × 3) is refused before the rules see it (they cannot
    even read it)."""
    if game.phase != "play":  # said "you may play: " with nothing after it
        choices = ", ".join(str(a) for a in game.legal_actions())
        return f"no cards are played in the {game.phase} phase; choose one of: {choices}"
    if any(cards.count(r) > C.MASK for r in set(cards)):
        return f"{cards} is not in your hand ({view.hand}): no hand holds more than {C.MASK} of a rank"
    moves, _ = game.legal_moves()
    if not any(m.cards == cards for m in moves):
        try:
            game.explain_illegal(view.seat, cards)
        except (PlayError, ValueError) as e:
            return str(e)
    # a legal play the table's rules: plugins exclude (the first lead must hold the 3 …)
    plays = [str(a.value) for a in game.legal_actions() if a.kind == "play"]
    shown = ", ".join(plays[:8]) + (" …" if len(plays) > 8 else "")
    return f"{cards} is not allowed now by this table's rules; you may play: {shown}"


def first_leader_text(game: Game, human: int | None = None) -> str | None:
    """Once the tricks begin: who leads the first trick and why (the card they hold, the
    table's rule, or, at a landlord table, that the landlord leads). None before."""
    if game.phase != "play" or game.first_leader is None:
        return None
    info = game.public.get("first_leader") or {}
    if info.get("card"):
        why = f" (holds a {info['card']})"
    elif info.get("rule"):
        why = f" ({info['rule']})"
    elif game.landlord is not None and game.first_leader == game.landlord:
        why = " (the landlord leads the first trick)"
    else:  # a plugin chose without saying why
        why = " (chosen by the table's rules)"
    verb = "lead" if game.first_leader == human else "leads"
    return f"{seat_name(game, game.first_leader, human)} {verb} first{why}"


@dataclass(frozen=True)
class Before:
    """What an action may change that the log reports: taken just before it is applied."""

    phase: str
    landlord: int | None
    wild: C.WildKey | None
    deal_number: int
    history: int

    @classmethod
    def of(cls, game: Game) -> Before:
        return cls(game.phase, game.landlord, game.wild, game.deal_number, len(game.history))


def deal_lines(game: Game, labels: Sequence[str] | None = None, human: int | None = None,
               show_kitty: bool = False) -> list[str]:
    """The lines that open a deal (the first and each redeal's): the wild rank and the
    face-up card, and, given ``labels`` (one a seat: who plays it), every seat's hand as
    dealt (a redeal replaces the hands, so they are told again from the game itself);
    then, where the deal settles it at once (a dealt landlord), the landlord and the kitty
    taken, and who leads first."""
    lines = []
    if game.wild is not None and game.landlord is None:
        lines.append(f"wild rank 癞子: {game.public['wild']}")
    if "face_up" in game.public:
        face = game.public["face_up"]
        lines.append(f"face-up card: {face['card']}, dealt to seat {face['seat']} (bids first)")
    if labels is not None:
        lines += [f"seat {s} ({labels[s]}): {hand}" for s, hand in enumerate(game.deals[-1]["hands"])]
    if game.landlord is not None:  # no landlord phase to narrate: the deal made one
        lines += _landlord_lines(game, None, human, show_kitty)
    lead = first_leader_text(game, human)  # a table that deals straight into the tricks
    if lead is not None:
        lines.append(lead)
    return lines


def _landlord_lines(game: Game, wild_before: C.WildKey | None, human: int | None, show_kitty: bool) -> list[str]:
    """The landlord now known, his stake and the kitty he took (shown where it is, or to a
    watcher); wild ranks drawn since ``wild_before`` (地癞子, once the landlord is known)."""
    assert game.landlord is not None
    kitty = C.counts_to_string(game.kitty)
    you = " (you)" if game.landlord == human else ""
    shown = kitty if game.kitty_visible or show_kitty else "(hidden)"
    lines = [f"landlord: seat {game.landlord}{you}, stake {game.stake}; kitty 底牌 {shown}"]
    if game.wild != wild_before:
        if wild_before is None:
            lines.append(f"wild rank 癞子: {game.public['wild']}")
        else:
            drawn = ",".join(C.RANKS[r] for r in C.wild_tuple(game.wild) if r not in C.wild_tuple(wild_before))
            lines.append(f"wild ranks 癞子 now: {game.public['wild']} (地癞子 {drawn})")
    return lines


def step_lines(game: Game, action: Action, before: Before, human: int | None = None,
               labels: Sequence[str] | None = None, show_kitty: bool = False,
               echo_own: bool = True) -> list[str]:
    """Every line the log tells for ``action``, once applied (``before`` taken just before
    it): the action; each redeal it caused and the new deal (:func:`deal_lines`); the
    landlord chosen and the kitty; wild ranks drawn then; who leads the first trick. Each
    line is read from the game as it is now, never from what an earlier line said.
    ``echo_own=False``: the person's own action is not told back (the terminal showed it)."""
    lines = []
    if echo_own or action.seat != human:
        lines.append(describe_action(game, action, human, roles=before.phase == "play"))
    if game.deal_number != before.deal_number:  # redealt: the deal told is the new one
        for marker in game.history[before.history:]:
            if marker.kind == "redeal":
                lines.append(describe_action(game, marker, human))
        return lines + deal_lines(game, labels, human, show_kitty)
    if before.landlord is None and game.landlord is not None:
        lines += _landlord_lines(game, before.wild, human, show_kitty)
    if before.phase != "play":
        lead = first_leader_text(game, human)
        if lead is not None:
            lines.append(lead)
    return lines
