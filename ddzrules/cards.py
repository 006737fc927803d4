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
from operator import index as _index
from typing import Self

from ddzrules.errors import CardError as CardError  # noqa: PLC0414 - re-exported: it lived here
from ddzrules.errors import brief

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


def parse_ranks(text: str) -> list[int]:
    """Read a card string into a list of rank indices, in the order written.

    Accepts the canonical letters, lower case, ``10`` for ten, 小王/大王, and
    spaces, ``+`` or commas as separators.

    >>> parse_ranks("888+99")
    [5, 5, 5, 6, 6]
    """
    if not isinstance(text, str):
        raise CardError("", None, f"a card string must be text, not {brief(text)}")
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
    """Per-rank counts of a sequence of rank indices (integers 0 to 14; anything
    else is a :class:`CardError`).

    >>> counts_of([0, 0, 14])[0], counts_of([0, 0, 14])[14]
    (2, 1)
    """
    counts = [0] * NUM_RANKS
    r: object = _NOTHING
    try:
        for r in ranks:
            i = _index(r)  # any integer type, as bytes() takes it on legal_moves' quick path
            if i < 0:  # -1 would index the big joker
                raise IndexError
            counts[i] += 1
    except (IndexError, TypeError):
        raise _rank_error(ranks, r) from None
    return counts


_NOTHING = object()


def _rank_error(ranks: object, bad: object) -> CardError:
    if bad is _NOTHING or isinstance(ranks, (str, bytes, bytearray)):
        return CardError("", None, f"cards must be a card string or rank indices 0-14, not {brief(ranks)}")
    return CardError("", None, f"{brief(bad)} is not a rank index (ranks are 0-14: 3 4 … A 2 X D)")


def pack(counts: Sequence[int]) -> int:
    """Pack per-rank counts into one int (4 bits a rank).

    A count that does not fit its 4 bits would spill into the next rank and
    silently become another set of cards, so it is refused.
    """
    key = 0
    try:
        if len(counts) > NUM_RANKS:  # a 16th count would pack beyond the big joker
            raise CardError("", None, f"{len(counts)} counts: a set of cards has {NUM_RANKS} ranks")
        for r, c in enumerate(counts):
            if c:
                if not 0 < c <= MASK:
                    raise _count_error(c, r)
                key |= c << (BITS * r)
    except TypeError:  # no sequence, or a count that is no integer
        raise CardError("", None, f"counts must be a sequence of integers 0-{MASK}, not {brief(counts)}") from None
    return key


def check_counts(counts: list[int]) -> list[int]:
    """``counts`` (non-negative integers) when each fits a packed count's field (at most
    15 of a rank); a :class:`CardError` otherwise. Cheap: one ``max``."""
    if max(counts) > MASK:
        r = max(range(len(counts)), key=counts.__getitem__)
        raise _count_error(counts[r], r)
    return counts


def _count_error(count: object, rank: int) -> CardError:
    return CardError("", None, f"{brief(count)} × {RANKS[rank]}: a set of cards holds 0 to {MASK} of a rank")


def unpack(key: int) -> list[int]:
    """Per-rank counts of a packed count."""
    return [(key >> (BITS * r)) & MASK for r in range(NUM_RANKS)]


def size_of(key: int) -> int:
    """Number of cards in a packed count."""
    if not isinstance(key, int) or key < 0:  # a negative key would shift right forever (-1 >> 4 is -1)
        raise CardError("", None, f"{brief(key)} is not a packed count (an int of at least 0)")
    total = 0
    while key:
        total += key & MASK
        key >>= BITS
    return total


#: every byte's low nibble, over the 8 bytes of a packed count
_LOW_NIBBLES = int.from_bytes(b"\x0f" * 8, "little")


def sizes_of(packs: Iterable[int]) -> list[int]:
    """:func:`size_of` of many packed counts made here (the readings of a walk or a table:
    not checked), each by adding its 4-bit fields pairwise into bytes and the bytes in C.

    >>> sizes_of([pack_cards("3345"), pack_cards("XD"), 0])
    [4, 2, 0]
    """
    low = _LOW_NIBBLES
    return [sum(((p & low) + ((p >> 4) & low)).to_bytes(8, "little")) for p in packs]


def to_string(key: int) -> str:
    """Canonical string of a packed count: ranks ascending, no separators."""
    out = []
    for r in range(NUM_RANKS):
        c = (key >> (BITS * r)) & MASK
        if c:
            out.append(RANKS[r] * c)
    return "".join(out)


#: per byte of a packed count (ranks 2k and 2k+1), its cards as text
_BYTE_CARDS = [[RANKS[2 * k] * (b & MASK) + (RANKS[2 * k + 1] * (b >> BITS) if 2 * k + 1 < NUM_RANKS else "")
                for b in range(256)] for k in range(8)]


class _ChunkCards(dict[int, str]):
    """The card text of 20 bits of a packed count (five ranks from rank ``5 * part``),
    made on first use: a card string is then three lookups (:func:`to_strings`)."""

    def __init__(self, part: int) -> None:
        super().__init__()
        self.shift = 20 * part

    def __missing__(self, chunk: int) -> str:
        packed = chunk << self.shift
        text = self[chunk] = "".join(map(list.__getitem__, _BYTE_CARDS, packed.to_bytes(8, "little")))
        return text


_CHUNKS = [_ChunkCards(part) for part in range(3)]
_CHUNK_MASK = (1 << 20) - 1


def to_strings(packs: Iterable[int]) -> list[str]:
    """:func:`to_string` of many packed counts at once (those of a table's plays), each
    from three memoised 20-bit pieces.

    >>> to_strings([pack_cards("3345"), pack_cards("XD")])
    ['3345', 'XD']
    """
    low, mid, high = (chunks.__getitem__ for chunks in _CHUNKS)
    m = _CHUNK_MASK
    return [low(p & m) + mid((p >> 20) & m) + high(p >> 40) for p in packs]


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


class Ranks(list[int]):
    """A set of cards as a rank index for each card (``Ranks([0, 0, 14])`` is 33D): what
    the runtime lists a hand's plays from. A bare list of numbers is no set of cards to
    :class:`~ddzrules.rules.variant.Variant`: it could as well be counts by rank (what
    ``Game.hands`` holds), and the two readings differ without a word (the counts of
    3456789 read as 3333333344444444 on a two-deck spec)."""

    __slots__ = ()


class Counts(tuple[int, ...]):
    """A set of cards as its count of each rank, by rank index (``Counts([2, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 1])`` is 33D; a shorter tuple leaves the higher ranks at 0):
    what ``Game.hands`` holds for each seat."""

    __slots__ = ()

    def __new__(cls, counts: Iterable[int] = ()) -> Self:
        values = tuple(counts)
        if len(values) > NUM_RANKS:
            raise CardError("", None, f"counts are one a rank, at most {NUM_RANKS}, not {len(values)}")
        try:
            out = super().__new__(cls, (_index(c) for c in values))
        except TypeError:
            raise CardError("", None, f"counts must be integers 0-{MASK}, not {brief(values, 60)}") from None
        for r, c in enumerate(out):
            if not 0 <= c <= MASK:
                raise _count_error(c, r)
        return out


#: what Variant says of a bare list of numbers given as cards
AMBIGUOUS_CARDS = ("a list of numbers is no set of cards here: it could be counts by rank (what Game.hands "
                   "holds) or a rank index per card, which name different cards. Pass a card string "
                   "('3456789'), ddzrules.Counts(...) for counts by rank, or ddzrules.Ranks(...) for a rank "
                   "index per card")


def deck_list(counts: Sequence[int]) -> Ranks:
    """Every physical card of a count vector as a rank index, ascending (for dealing, and
    the runtime's listings: a :class:`Ranks`)."""
    return Ranks([r for r, c in enumerate(counts) for _ in range(c)])


def rank_name(rank: int) -> str:
    return RANKS[rank]


def parse_rank(text: str) -> int:
    """One rank written as a letter or ``10``; raises :class:`CardError` (a ValueError)
    otherwise."""
    if not isinstance(text, str):
        raise CardError("", None, f"a rank must be text such as '7', not {brief(text)}")
    t = RANK_ALIASES.get(text, text).upper()
    if t not in RANK_INDEX:
        raise CardError(text, None, f"unknown rank {brief(text)} (ranks are 3-9, 10/T, J, Q, K, A, 2, X, D)")
    return RANK_INDEX[t]


#: the wild ranks of a deal or a query as the wild-card code takes them: one rank index
#: (癞子), or the ascending indices of several (天地癞子)
WildKey = int | tuple[int, ...]


def wild_tuple(wild: WildKey | None) -> tuple[int, ...]:
    """The wild ranks as a tuple (empty for None).

    >>> wild_tuple(None), wild_tuple(4), wild_tuple((4, 6))
    ((), (4,), (4, 6))
    """
    return () if wild is None else (wild,) if type(wild) is int else wild  # type: ignore[return-value]


def holds_wild(counts: Sequence[int], wild: WildKey) -> bool:
    """Whether a hand's counts hold a card of the wild rank(s).

    >>> holds_wild([0] * 4 + [1] + [0] * 10, (4, 6)), holds_wild([0] * 15, 4)
    (True, False)
    """
    return bool(counts[wild]) if type(wild) is int else any(counts[r] for r in wild)  # type: ignore[union-attr]
