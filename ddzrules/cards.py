"""Cards, ranks and card strings.

Suits never matter in Dou Dizhu, so a set of cards is a multiset of ranks.
Ranks are numbered low to high::

    3 4 5 6 7 8 9 T J Q K A 2 X D
    0 1 2 3 4 5 6 7 8 9 10 11 12 13 14

``X`` is the small joker (小王) and ``D`` the big joker (大王).

A multiset is held as a *packed count*: an ``int`` with 4 bits per rank, so the
counts of two decks (8 of a rank, 2 of each joker) fit, adding two packed counts
adds the multisets, and the packed count is a cheap, hashable dictionary key.

>>> parse_cards("10 J Q K A")
'TJQKA'
>>> parse_cards("333444+69")
'33344469'
>>> parse_cards("大王小王")
'XD'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

RANKS = "3456789TJQKA2XD"
NUM_RANKS = len(RANKS)
SMALL_JOKER = RANKS.index("X")
BIG_JOKER = RANKS.index("D")
JOKERS = (SMALL_JOKER, BIG_JOKER)
BITS = 4
MASK = (1 << BITS) - 1
#: a 1 in the lowest bit of each rank's field, for counting cards in a packed count
_ONES = sum(1 << (BITS * r) for r in range(NUM_RANKS))

RANK_INDEX = {ch: i for i, ch in enumerate(RANKS)}
# Names the rule texts use for ranks, besides the canonical letters.
RANK_ALIASES = {"10": "T", "小王": "X", "大王": "D"}
_SEPARATORS = set(" +,-\t/、，")


class CardError(ValueError):
    """A card string that cannot be read; says which character and where."""

    def __init__(self, text: str, position: int, message: str) -> None:
        self.text = text
        self.position = position
        caret = " " * position + "^"
        super().__init__(f"{message} at position {position + 1} of {text!r}\n  {text}\n  {caret}")


def parse_ranks(text: str) -> list[int]:
    """Read a card string into a list of rank indices, in the order written.

    Accepts the canonical letters, lower case, ``10`` for ten, 小王/大王, and
    spaces, ``+`` or commas as separators.

    >>> parse_ranks("888+99")
    [5, 5, 5, 6, 6]
    """
    ranks: list[int] = []
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch in _SEPARATORS:
            i += 1
            continue
        if text.startswith("10", i):
            ranks.append(RANK_INDEX["T"])
            i += 2
            continue
        if text.startswith("小王", i) or text.startswith("大王", i):
            ranks.append(RANK_INDEX[RANK_ALIASES[text[i : i + 2]]])
            i += 2
            continue
        up = ch.upper()
        if up in RANK_INDEX:
            ranks.append(RANK_INDEX[up])
            i += 1
            continue
        raise CardError(text, i, f"unknown card {ch!r} (cards are 3-9, 10/T, J, Q, K, A, 2, X, D)")
    return ranks


def counts_of(ranks: Iterable[int]) -> list[int]:
    """Per-rank counts of a sequence of rank indices."""
    counts = [0] * NUM_RANKS
    for r in ranks:
        counts[r] += 1
    return counts


def pack(counts: Sequence[int]) -> int:
    """Pack per-rank counts into one int (4 bits a rank).

    A count that does not fit its 4 bits would spill into the next rank and
    silently become another set of cards, so it is refused.
    """
    key = 0
    for r, c in enumerate(counts):
        if c:
            if not 0 < c <= MASK:
                raise ValueError(f"{c} × {RANKS[r]}: a set of cards holds 0 to {MASK} of a rank")
            key |= c << (BITS * r)
    return key


def unpack(key: int) -> list[int]:
    """Per-rank counts of a packed count."""
    return [(key >> (BITS * r)) & MASK for r in range(NUM_RANKS)]


def size_of(key: int) -> int:
    """Number of cards in a packed count."""
    total = 0
    while key:
        total += key & MASK
        key >>= BITS
    return total


def to_string(key: int) -> str:
    """Canonical string of a packed count: ranks ascending, no separators."""
    out = []
    for r in range(NUM_RANKS):
        c = (key >> (BITS * r)) & MASK
        if c:
            out.append(RANKS[r] * c)
    return "".join(out)


def counts_to_string(counts: Sequence[int]) -> str:
    return "".join(RANKS[r] * c for r, c in enumerate(counts) if c)


def parse_cards(text: str) -> str:
    """Canonical string for any accepted card notation.

    >>> parse_cards("78910JQK")
    '789TJQK'
    """
    return counts_to_string(counts_of(parse_ranks(text)))


def pack_cards(text: str) -> int:
    """Packed count of a card string in any accepted notation."""
    return pack(counts_of(parse_ranks(text)))


def contains(hand: int, play: int) -> bool:
    """True when the multiset ``play`` is inside ``hand`` (both packed)."""
    for r in range(NUM_RANKS):
        shift = BITS * r
        if (play >> shift) & MASK > (hand >> shift) & MASK:
            return False
    return True


def full_deck(decks: int = 1, jokers: bool = True) -> list[int]:
    """Per-rank counts of ``decks`` full decks."""
    counts = [4 * decks] * 13 + [decks if jokers else 0] * 2
    return counts


def deck_list(counts: Sequence[int]) -> list[int]:
    """Every physical card of a count vector as a rank index, ascending (for dealing)."""
    return [r for r, c in enumerate(counts) for _ in range(c)]


def rank_name(rank: int) -> str:
    return RANKS[rank]


def parse_rank(text: str) -> int:
    """One rank written as a letter or ``10``; raises ValueError otherwise."""
    t = RANK_ALIASES.get(text, text).upper()
    if t not in RANK_INDEX:
        raise ValueError(f"unknown rank {text!r}")
    return RANK_INDEX[t]
