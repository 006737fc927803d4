"""Card notation: what a card string may look like, its canonical form, packed
counts of one to three decks, and errors that say which character is wrong."""

from __future__ import annotations

import pytest

from ddzrules import cards as C
from ddzrules.cards import CardError, parse_cards, parse_rank, parse_ranks
from ddzrules.errors import DdzError

# 牌点大小: 大王>小王>2>A>K>Q>J>10>9>8>7>6>5>4>3 (seed 000), low to high.
RULE_TEXT_ORDER = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "小王", "大王"]


def test_rank_order_is_the_rule_texts():
    assert [parse_rank(r) for r in RULE_TEXT_ORDER] == list(range(15))
    assert C.RANKS == "3456789TJQKA2XD"
    assert (C.SMALL_JOKER, C.BIG_JOKER) == (13, 14)


# (written, canonical)
NOTATION = [
    ("3", "3"),
    ("TJQKA", "TJQKA"),
    ("10JQKA", "TJQKA"),                  # 10 for ten
    ("10 J Q K A", "TJQKA"),              # spaces
    ("tjqka", "TJQKA"),                   # lower case
    ("10jqKa", "TJQKA"),
    ("78910JQK", "789TJQK"),              # 10 in the middle of other ranks
    ("888+9", "8889"),                    # '+' separators, as the rule texts write plays
    ("333444+69", "33344469"),
    ("333444555+667799", "333444555667799"),
    ("5555+3+8", "355558"),
    ("3+4+5+6+7+8", "345678"),
    ("33 + 44 + 55", "334455"),
    ("3,3,3", "333"),                     # commas
    ("小王", "X"),
    ("大王", "D"),
    ("大王小王", "XD"),                    # canonical order: small joker before big
    ("小王 大王", "XD"),
    ("xd", "XD"),
    ("DX", "XD"),
    ("2A3", "3A2"),                       # canonical sort follows rank, not character
    ("2 X A 10 3", "3TA2X"),
    ("KQJ1098", "89TJQK"),
    ("88888888", "88888888"),             # 8 of a rank (two decks)
    ("", ""),
    ("  + ", ""),
]


@pytest.mark.parametrize("text,canonical", NOTATION)
def test_notation(text, canonical):
    assert parse_cards(text) == canonical


@pytest.mark.parametrize("text,canonical", NOTATION)
def test_canonical_is_a_fixed_point(text, canonical):
    assert parse_cards(canonical) == canonical


def test_parse_ranks_keeps_written_order():
    assert parse_ranks("888+99") == [5, 5, 5, 6, 6]
    assert parse_ranks("大王10小王3") == [14, 7, 13, 0]


# (text, 0-based position of the bad character, the bad character)
BAD = [
    ("1", 0, "1"),
    ("3Z4", 1, "Z"),
    ("33 1 44", 3, "1"),
    ("10 11", 3, "1"),          # "11" is not ten
    ("0", 0, "0"),
    ("3334B", 4, "B"),          # RLCard's B/R joker letters are not card notation here
    ("王", 0, "王"),
    ("大王大", 2, "大"),
    ("小 王", 0, "小"),
    ("33*", 2, "*"),
]


@pytest.mark.parametrize("text,pos,char", BAD)
def test_bad_cards_name_character_and_position(text, pos, char):
    with pytest.raises(CardError) as info:
        parse_cards(text)
    err = info.value
    assert err.position == pos
    assert err.text == text
    message = str(err)
    assert repr(char) in message
    assert f"position {pos + 1}" in message
    lines = message.splitlines()
    # the text, then a caret under the offending character
    assert lines[-2] == "  " + text
    assert lines[-1] == "  " + " " * pos + "^"


def test_card_error_is_a_ddz_error_and_a_value_error():
    # one hierarchy for the library's errors; ``except ValueError`` callers keep working
    assert issubclass(CardError, DdzError)
    assert issubclass(CardError, ValueError)


@pytest.mark.parametrize("text,pos", [("3\x1b[2J", 1), ("\x1b]0;title\x07 3", 0), ("33\x00", 2), ("3\r4Z", 1)])
def test_control_characters_are_escaped_in_the_caret_line(text, pos):
    # a bad card string never carries a terminal escape sequence into the message
    message = str(pytest.raises(CardError, parse_cards, text).value)
    assert all(ch == "\n" or ch.isprintable() for ch in message)
    shown, caret = message.splitlines()[-2:]
    bad = repr(text[pos])[1:-1]
    # the caret stands under the escape of the bad character
    assert shown[caret.index("^"):].startswith(bad)


def test_a_long_card_string_shows_a_window_around_the_error():
    text = "3" * 500 + "Z" + "4" * 500
    err = pytest.raises(CardError, parse_cards, text).value
    assert err.position == 500
    shown, caret = str(err).splitlines()[-2:]
    assert len(shown) < 100
    assert shown[caret.index("^")] == "Z"
    assert "position 501" in str(err)


@pytest.mark.parametrize("text,index", [("10", 7), ("T", 7), ("t", 7), ("x", 13), ("小王", 13),
                                        ("大王", 14), ("2", 12), ("a", 11)])
def test_parse_rank(text, index):
    assert parse_rank(text) == index


@pytest.mark.parametrize("text", ["1", "11", "Z", "", "34", "王", None, 7])
def test_parse_rank_rejects(text):
    with pytest.raises(CardError):
        parse_rank(text)


# ------------------------------------------------------------------ packed counts


@pytest.mark.parametrize("text", ["", "3", "33344469", "XD", "3456789TJQKA2XD", "88888888",
                                  "333344445555666677778888", "2" * 12 + "XXXDDD"])
def test_pack_round_trip(text):
    key = C.pack_cards(text)
    assert C.to_string(key) == text
    assert C.size_of(key) == len(text)
    assert C.counts_to_string(C.unpack(key)) == text


def test_pack_adds_multisets():
    assert C.pack_cards("3345") + C.pack_cards("35X") == C.pack_cards("333455X")
    # eight of a rank, as two decks hold, survive addition
    assert C.to_string(C.pack_cards("8888") + C.pack_cards("8888")) == "88888888"


def test_pack_refuses_counts_that_do_not_fit():
    # 16 of a rank would spill into the next rank's field and become other cards
    with pytest.raises(CardError, match="16 × 3"):
        C.pack_cards("3" * 16)
    with pytest.raises(CardError, match="17 × D"):
        C.pack([0] * 14 + [17])
    with pytest.raises(CardError, match="-1 × 4"):
        C.pack([0, -1])
    with pytest.raises(CardError, match="16 counts"):  # a 16th rank would pack above the big joker
        C.pack([0] * 15 + [1])
    assert C.to_string(C.pack_cards("3" * 15)) == "3" * 15


@pytest.mark.parametrize("ranks,bad", [([-1], "-1"), ([0, -15], "-15"), ([15], "15"), ([0, None], "None"),
                                       ([1.0], "1.0"), (["3"], "'3'"), ([10**40], str(10**40))])
def test_counts_of_refuses_what_is_no_rank_index(ranks, bad):
    # -1 used to count as the big joker (a list index from the end)
    with pytest.raises(CardError, match=f"{bad[:30]}.* is not a rank index"):
        C.counts_of(ranks)


@pytest.mark.parametrize("cards", [None, 7, "33"])
def test_counts_of_refuses_what_is_no_sequence_of_ranks(cards):
    with pytest.raises(CardError, match="card string or rank indices"):
        C.counts_of(cards)


@pytest.mark.parametrize("key", [-5, -1, -(1 << 80), 1.5, None])
def test_size_of_refuses_what_is_no_packed_count(key):
    # a negative key used to shift right forever
    with pytest.raises(CardError, match="not a packed count"):
        C.size_of(key)


@pytest.mark.parametrize("hand,play,inside", [
    ("33344469", "333", True),
    ("33344469", "3333", False),
    ("33344469", "69", True),
    ("33344469", "", True),
    ("33344469", "33344469", True),
    ("33344469", "X", False),
    ("88888888", "8888", True),
])
def test_contains(hand, play, inside):
    assert C.contains(C.pack_cards(hand), C.pack_cards(play)) is inside


@pytest.mark.parametrize("decks,jokers,total,per_rank,per_joker", [
    (1, True, 54, 4, 1),      # 一副牌: 54 cards (A1)
    (2, True, 108, 8, 2),     # 二副牌: 108 cards, four jokers (A2)
    (3, True, 162, 12, 3),
    (1, False, 52, 4, 0),
])
def test_full_deck(decks, jokers, total, per_rank, per_joker):
    deck = C.full_deck(decks, jokers)
    assert sum(deck) == total
    assert deck[:13] == [per_rank] * 13
    assert deck[13:] == [per_joker] * 2
    physical = C.deck_list(deck)
    assert len(physical) == total
    assert physical == sorted(physical)
    assert C.counts_of(physical) == deck
