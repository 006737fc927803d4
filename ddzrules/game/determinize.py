"""Worlds for a search (determinization): what a seat knows of each hand, what it cannot
see, and a game dealt again consistently with what it knows. Only the game's public face
is read and written, so what a world may keep of the real game is said here, once."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from ddzrules import cards as C
from ddzrules.game.deal import seen_hand

if TYPE_CHECKING:
    from ddzrules.game.face import GameFace


def known_cards(game: GameFace, s: int, seat: int) -> list[int]:
    """The cards of seat ``s``'s hand that ``seat`` knows are there, by rank: all of its
    own (as far as it has been dealt: 明牌 during the deal), those of a shown hand, a
    card turned face up, and a shown kitty's cards the landlord has not played since."""
    hand = game.state.hands[s]
    n = len(hand)
    if s == seat or s in game.state.shown_hands:
        if game.state.visible_dealt is None:
            return list(hand)
        return C.counts_of(C.parse_ranks(seen_hand(game, s)))
    # what ``seat`` saw go in (a card turned face up, a shown kitty the landlord took)
    # less what ``s`` has played since: at least that many are still there. Not read
    # off the hand's counts, which would tell ``seat`` what it cannot see (the bound
    # by the hand below changes nothing while cards leave a hand only by plays).
    seen = [0] * n
    face_up = game.state.face_up
    if face_up is not None and face_up[0] == s:
        seen[face_up[1]] += 1
    if s == game.state.landlord and game.state.kitty_visible and game.state.phase != "landlord":
        for r in range(n):
            seen[r] += game.state.kitty[r]
    if not any(seen):
        return seen
    for m in game.state.played[s]:
        for r, c in enumerate(C.unpack(m.packed)):
            seen[r] -= c
    return [min(hand[r], max(0, seen[r])) for r in range(n)]


def hidden_from(game: GameFace, seat: int) -> tuple[list[int], list[tuple[str, int, int]]]:
    """What ``seat`` cannot see of the cards: the pool of hidden cards (counts by rank)
    and the places they fill, each ``(place, seat or -1, how many)``: a hand's cards
    but the :func:`known_cards` (``"hand"``), the kitty while it is hidden and not yet
    taken (``"kitty"``), the undealt cards (``"undealt"``)."""
    n = len(C.RANKS)
    pool = [0] * n
    places: list[tuple[str, int, int]] = []
    for s in range(game.players):
        hand, known = game.state.hands[s], known_cards(game, s, seat)
        missing = sum(hand) - sum(known)
        if missing:
            places.append(("hand", s, missing))
            for r in range(n):
                pool[r] += hand[r] - known[r]
    state = game.state
    if not state.kitty_visible and (state.landlord is None or state.phase == "landlord") and any(state.kitty):
        places.append(("kitty", -1, sum(state.kitty)))
        for r in range(n):
            pool[r] += game.state.kitty[r]
    if any(game.state.undealt):
        places.append(("undealt", -1, sum(game.state.undealt)))
        for r in range(n):
            pool[r] += game.state.undealt[r]
    return pool, places


def deal_world(game: GameFace, world: GameFace, seat: int, rng: random.Random) -> None:
    """Deal ``world``, a copy of ``game``, again: the cards ``seat`` cannot see
    (:func:`hidden_from`) shuffled with ``rng`` among the places they could be, each
    keeping its size; what only the others know forgotten (their private facts, the
    deal's order); the world's generator drawn from ``rng`` too."""
    pool, places = hidden_from(game, seat)
    cards = [r for r, c in enumerate(pool) for _ in range(c)]  # in rank order: the same pool, the same deal
    rng.shuffle(cards)
    at = 0
    for place, s, size in places:
        taken = C.counts_of(cards[at:at + size])
        at += size
        if place == "hand":
            known = known_cards(game, s, seat)
            world.state.hands[s] = [known[r] + taken[r] for r in range(len(known))]
        elif place == "kitty":
            world.state.kitty = taken
        else:
            world.state.undealt = taken
    # what seat never saw: the deal's order, the others' private facts
    world.state.dealt_order = world_order(game, world, seat)
    world.state.deals[-1] = {"hands": [C.counts_to_string(x) for x in world.state.hands],
                       "kitty": C.counts_to_string(world.state.kitty)}
    world.state.private = {s: (facts if s == seat else {}) for s, facts in world.state.private.items()}
    # chance to come (a redeal's shuffle, 地癞子's draw) is sampled too: the game's own
    # generator would tell the world what the real game will draw
    world.state.rng = random.Random(rng.getrandbits(64))


def world_order(game: GameFace, world: GameFace, seat: int) -> list[int]:
    """A deal order for ``world``'s hands that shows nothing ``seat`` did not see: each
    hand in rank order, except that while hands are dealt in part (明牌 during the deal)
    the cards seen so far of ``seat``'s and the shown hands lead their segments."""
    h, seen = game.rules.hand_size, game.state.visible_dealt
    order: list[int] = []
    for s, hand in enumerate(world.state.hands):
        first: list[int] = []
        if seen is not None and (s == seat or s in game.state.shown_hands):
            first = game.state.dealt_order[s * h: s * h + seen]
        rest = list(hand)
        for r in first:
            rest[r] -= 1
        order += first + [r for r, c in enumerate(rest) for _ in range(c)]
    for counts in (world.state.kitty, world.state.undealt):
        order += [r for r, c in enumerate(counts) for _ in range(c)]
    return order
