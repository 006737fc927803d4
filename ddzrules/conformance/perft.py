"""Perft: the number of action sequences of a given depth from a position, counted
by the rules (``docs/conformance.md``, "Perft"), and the perft vectors of a suite."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ddzrules import cards as C
from ddzrules.conformance.common import (
    Level,
    Limits,
    deal_sizes,
    draw_wild,
    sort_plays,
    wild_text,
)
from ddzrules.errors import (
    BudgetExceeded,
    DdzError,
)
from ddzrules.rules.moves import Move
from ddzrules.variant import Variant

# ====================================================================== perft


@dataclass
class Position:
    """A play-phase position: hands, whose turn, and the play to beat (None: a lead)."""

    hands: list[list[int]]
    to_act: int
    last: Move | None = None
    last_seat: int | None = None
    wild: C.WildKey | None = None

    @staticmethod
    def from_dict(v: Variant, data: dict[str, Any]) -> Position:
        hands = [C.counts_of(C.parse_ranks(h)) for h in data["hands"]]
        v.check_deck([sum(col) for col in zip(*hands)] if hands else [], "the hands of the position")
        to_act = int(data["to_act"])
        if not 0 <= to_act < len(hands):
            raise DdzError(f"to_act {to_act} is no seat of a position with {len(hands)} hands")
        w = data.get("wild")
        return Position(hands, to_act, None, None, None if w is None else v.wild_key(w))


def perft(v: Variant, pos: Position, depth: int, budget: int | None = None) -> tuple[int, dict[str, int]]:
    """The number of action sequences of exactly ``depth`` actions from ``pos`` and the
    divide by first action (``docs/conformance.md`` defines both). With ``budget``, the
    search visits at most that many positions (sequences of 1 to ``depth`` actions) and
    raises :class:`~ddzrules.engines.BudgetExceeded` past it.

    Seat 0 leads 3, 4 or 33; seat 1 (44) answers 3 with 4 or passes, can only pass on
    4, and answers 33 with 44 or passes:

    >>> v = load_variant("hubei-3p")
    >>> perft(v, Position([C.counts_of(C.parse_ranks(h)) for h in ("334", "44", "5")], 0), 2)
    (5, {'3': 2, '4': 1, '33': 2})
    """
    n = len(pos.hands)
    visited = [0]

    def actions(hands: list[list[int]], to_act: int, last: Move | None,
                last_seat: int | None) -> list[tuple[Move | None, int | None]]:
        if last is not None and last_seat == to_act:  # everyone else passed: a new lead
            last = None
        lm = v.legal_moves(C.counts_to_string(hands[to_act]), after=last, wild=pos.wild)
        out: list[tuple[Move | None, int | None]] = [(m, to_act) for m in lm]
        if lm.can_pass:
            out.append((None, None))
        visited[0] += len(out)
        if budget is not None and visited[0] > budget:
            raise BudgetExceeded(f"the search visited more than {budget:,} positions, its budget")
        return out

    def count(hands: list[list[int]], to_act: int, last: Move | None, last_seat: int | None,
              d: int) -> int:
        acts = actions(hands, to_act, last, last_seat)
        if d == 1:
            return len(acts)
        total = 0
        nxt = (to_act + 1) % n
        for m, _ in acts:
            if m is None:
                total += count(hands, nxt, last, last_seat, d - 1)
                continue
            h = hands[to_act]
            played = C.unpack(m.packed)  # the physical cards, wild ones included
            h2 = [a - b for a, b in zip(h, played)]
            if not any(h2):
                continue  # the game ends with this play: no longer sequence goes through it
            hands2 = list(hands)
            hands2[to_act] = h2
            total += count(hands2, nxt, m, to_act, d - 1)
        return total

    divide: dict[str, int] = {}
    total = 0
    nxt = (pos.to_act + 1) % n
    for m, _ in actions(pos.hands, pos.to_act, pos.last, pos.last_seat):
        key = "pass" if m is None else m.cards
        if depth == 1:
            sub = 1
        elif m is None:
            sub = count(pos.hands, nxt, pos.last, pos.last_seat, depth - 1)
        else:
            h2 = [a - b for a, b in zip(pos.hands[pos.to_act], C.unpack(m.packed))]
            if not any(h2):
                sub = 0
            else:
                hands2 = list(pos.hands)
                hands2[pos.to_act] = h2
                sub = count(hands2, nxt, m, pos.to_act, depth - 1)
        divide[key] = divide.get(key, 0) + sub
        total += sub
    return total, {k: divide[k] for k in sort_plays([k for k in divide if k != "pass"])} | (
        {"pass": divide["pass"]} if "pass" in divide else {})


def gen_perft(v: Variant, level: Level, rng: random.Random, limits: Limits | None = None) -> list[dict[str, Any]]:
    """Perft vectors of seeded random deals, each position to the level's depth — or to the
    depth before the one whose search passes ``limits.max_perft_nodes`` positions, which a
    run with those limits would refuse (it expects more sequences than the limit allows, or
    its search passes its budget): a suite ``generate`` makes is one ``run`` accepts."""
    bound = (limits or Limits()).max_perft_nodes
    players, hand_size, kitty = deal_sizes(v)
    full = C.deck_list(v.rules.deck)
    out: list[dict[str, Any]] = []
    for p in range(level.perft_positions):
        deck = list(full)
        rng.shuffle(deck)
        hands = [C.counts_of(deck[i * hand_size:(i + 1) * hand_size]) for i in range(players)]
        landlord = rng.randrange(players)
        for r in deck[players * hand_size:players * hand_size + kitty]:
            hands[landlord][r] += 1
        position = {"players": players, "hands": [C.counts_to_string(h) for h in hands],
                    "landlord": landlord, "to_act": landlord, "wild": wild_text(draw_wild(v, rng))}
        pos = Position.from_dict(v, position)
        for depth in range(1, level.perft_depth + 1):
            try:  # a search within the bound counts at most that many sequences
                nodes, divide = perft(v, pos, depth, budget=bound)
            except BudgetExceeded:
                break
            out.append({"position": position, "depth": depth,
                        "expect": {"nodes": nodes, "divide": divide},
                        "covers": f"perft/position-{p + 1}-depth-{depth}"})
    return out
