"""A game told in the words of its table: who a seat is (地主 landlord, farmer, a team),
what an action was, who won, and why a play cannot be made now. What the command line's
``play`` prints and the playground shows, from one place."""

from __future__ import annotations

from ddzrules import cards as C
from ddzrules.errors import PlayError
from ddzrules.runtime.game import Game
from ddzrules.runtime.values import Action, PlayerView


def seat_name(game: Game, seat: int, human: int | None = None, roles: bool = True) -> str:
    if not roles:
        role = ""
    elif game.rules.table_kind == "partnerships":
        role = "team " + "+".join(map(str, game.side_of(seat)))
    else:
        role = "地主 landlord" if game.landlord == seat else ("farmer" if game.landlord is not None else "")
    who = "you" if seat == human else f"seat {seat}"
    return f"{who}" + (f" ({role})" if role else "")


def seats_phrase(seats: tuple[int, ...] | list[int], human: int | None = None) -> str:
    return " and ".join("you" if s == human else f"seat {s}" for s in seats)


def result_text(game: Game, human: int | None = None) -> str:
    """Who won, in the words of the table: the landlord or the farmers, a team, or the
    first player out alone (game.winners is the winning side at every table)."""
    assert game.winner is not None
    out = seat_name(game, game.winner, human) + (" are" if game.winner == human else " is")
    if game.landlord is not None:
        return f"{out} out. {'Landlord wins' if game.landlord_won else 'Farmers win'}."
    if game.rules.table_kind == "partnerships":
        return f"{out} out first. Team {seats_phrase(game.winners, human)} wins."
    return f"{out} out first and " + ("win." if game.winner == human else "wins.")


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
    """At a table without a landlord, once the tricks begin: who leads the first trick and
    why (None elsewhere: at a landlord table the landlord leads, as the log already says)."""
    if game.phase != "play" or game.landlord is not None or game.first_leader is None:
        return None
    info = game.public.get("first_leader") or {}
    why = f" (holds a {info['card']})" if info.get("card") else (
        f" ({info['rule']})" if info.get("rule") else "")
    return f"{seat_name(game, game.first_leader, human)} leads first{why}"
