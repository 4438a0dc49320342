"""Card codes: every spelling of the round log parses to one canonical card."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reporting.engine.cards import RANKS, SUITS, Card, CardError, parse_card, parse_cards

# round-log.md: rank A 2-9 10 T J Q K; suit S H D C or the symbols; any case.
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
EMOJI_SELECTOR = "\ufe0f"
RANK_SPELLINGS = {rank: [rank] for rank in RANKS} | {"10": ["10", "T"]}


def spellings(rank: str, suit: str) -> list[str]:
    """Every spelling of one card that round-log.md accepts."""
    result = []
    for rank_text in RANK_SPELLINGS[rank]:
        for rank_case in dict.fromkeys((rank_text.upper(), rank_text.lower())):
            for suit_case in dict.fromkeys((suit.upper(), suit.lower())):
                result.append(rank_case + suit_case)
            result.append(rank_case + SUIT_SYMBOLS[suit])
            result.append(rank_case + SUIT_SYMBOLS[suit] + EMOJI_SELECTOR)
    return result


ALL_SPELLINGS = [
    pytest.param(text, rank + suit, id=f"{rank + suit}-as-{text!r}")
    for rank in RANKS
    for suit in SUITS
    for text in spellings(rank, suit)
]


def test_canonical_ranks_and_suits():
    assert RANKS == ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
    assert SUITS == ("S", "H", "D", "C")


@pytest.mark.parametrize(("text", "canonical"), ALL_SPELLINGS)
def test_every_spelling_parses_to_the_canonical_code(text, canonical):
    card = parse_card(text)
    assert card.code == canonical
    assert str(card) == canonical
    assert card == Card(canonical[:-1], canonical[-1])


def test_spellings_cover_the_whole_deck():
    # 13 ranks x 4 suits, each in several spellings; ten has twice as many (10 and T).
    parsed = {parse_card(text).code for text, _ in (p.values for p in ALL_SPELLINGS)}
    assert len(parsed) == 52


@pytest.mark.parametrize(
    ("text", "canonical"),
    [("AS", "AS"), ("10h", "10H"), ("Td", "10D"), ("tD", "10D"), ("K♣", "KC"), ("q♥️", "QH")],
)
def test_examples_from_round_log_md(text, canonical):
    assert parse_card(text).code == canonical


@pytest.mark.parametrize(
    "bad",
    ["1S", "11H", "AX", "", "A", "10", "0S", "1H", "TT", "AS ♠", "A-S", "KK", "S", "♠", "10♠♠"],
)
def test_bad_codes_raise_card_error_naming_the_code(bad):
    with pytest.raises(CardError) as error:
        parse_card(bad)
    assert repr(bad) in str(error.value)


@pytest.mark.parametrize(
    "look_alike",
    [
        "A\u017f",  # long s: str.upper() makes it "S"
        "\uff21S",  # fullwidth A
        "\u212aH",  # Kelvin sign, not K
        "1\uff10H",  # fullwidth zero
        "\u0391S",  # Greek capital alpha
    ],
    ids=ascii,
)
def test_unicode_look_alikes_are_not_card_codes(look_alike):
    # round-log.md allows the letters in any case, not characters that merely resemble them.
    with pytest.raises(CardError):
        parse_card(look_alike)


@pytest.mark.parametrize("bad", [5, None, 10.0, ("A", "S")], ids=repr)
def test_non_strings_raise_card_error_naming_the_value(bad):
    with pytest.raises(CardError) as error:
        parse_card(bad)
    assert repr(bad) in str(error.value)


def test_card_error_is_a_value_error():
    assert issubclass(CardError, ValueError)


def test_cards_are_frozen_and_hash_by_rank_and_suit():
    card = parse_card("Td")
    assert card == parse_card("10D") == Card("10", "D")
    assert hash(card) == hash(Card("10", "D"))
    assert card != Card("10", "H")
    assert len({parse_card("kc"), parse_card("K♣"), parse_card("KC")}) == 1
    with pytest.raises(AttributeError):
        card.rank = "J"  # type: ignore[misc]


@pytest.mark.parametrize(
    ("rank", "points"),
    [
        ("A", 1),
        ("2", 2),
        ("3", 3),
        ("4", 4),
        ("5", 5),
        ("6", 6),
        ("7", 7),
        ("8", 8),
        ("9", 9),
        ("10", 0),
        ("J", 0),
        ("Q", 0),
        ("K", 0),
    ],
)
def test_card_points_ace_one_pips_face_value_tens_and_courts_zero(rank, points):
    for suit in SUITS:
        assert Card(rank, suit).points == points


# --- property tests ---------------------------------------------------------------------------


@st.composite
def card_spellings(draw):
    """A random card and a random accepted spelling of it."""
    rank = draw(st.sampled_from(RANKS))
    suit = draw(st.sampled_from(SUITS))
    rank_text = draw(st.sampled_from(RANK_SPELLINGS[rank]))
    rank_text = "".join(draw(st.sampled_from([c.upper(), c.lower()])) for c in rank_text)
    suit_text = draw(
        st.sampled_from(
            [suit.upper(), suit.lower(), SUIT_SYMBOLS[suit], SUIT_SYMBOLS[suit] + EMOJI_SELECTOR]
        )
    )
    return Card(rank, suit), rank_text + suit_text


@given(card_spellings(), card_spellings())
def test_any_spelling_of_a_card_normalises_to_the_same_card(first, second):
    card, text = first
    parsed = parse_card(text)
    assert parsed == card
    assert parse_card(parsed.code) == parsed  # the canonical code is itself accepted
    other_card, other_text = second
    assert (parse_card(other_text) == parsed) == (other_card == card)


@given(card_spellings())
def test_points_follow_the_rank(spelled):
    card, text = spelled
    points = parse_card(text).points
    assert 0 <= points <= 9
    if card.rank == "A":
        assert points == 1
    elif card.rank in ("10", "J", "Q", "K"):
        assert points == 0
    else:
        assert points == int(card.rank)


ACCEPTED = {text for rank in RANKS for suit in SUITS for text in spellings(rank, suit)}
# Letters of the codes, their look-alikes, digits, symbols, selectors and spaces.
NEAR_MISSES = "AaTtJjQqKkSsHhDdCc0123456789♠♥♦♣♤♡♢♧\ufe0f\ufe0e \u017f\u0131\u212a\uff21\uff33"


@given(st.text(alphabet=st.sampled_from(NEAR_MISSES) | st.characters(), max_size=5))
def test_only_accepted_spellings_parse(text):
    # Surrounding whitespace is tolerated; anything else must be a spelling of round-log.md.
    try:
        card = parse_card(text)
    except CardError as error:
        assert repr(text) in str(error)
    else:
        assert text.strip() in ACCEPTED or text.strip().replace(EMOJI_SELECTOR, "") in ACCEPTED
        assert card.code in {rank + suit for rank in RANKS for suit in SUITS}


# --- parse_cards ------------------------------------------------------------------------------


def test_parse_cards_space_separated_string():
    assert parse_cards("9H KS") == (Card("9", "H"), Card("K", "S"))
    assert parse_cards("5d  2♣ th") == (Card("5", "D"), Card("2", "C"), Card("10", "H"))


def test_parse_cards_list_and_tuple():
    assert parse_cards(["9H", "ks"]) == parse_cards(("9h", "K♠")) == parse_cards("9H KS")


def test_parse_cards_empty():
    assert parse_cards("") == ()
    assert parse_cards([]) == ()


def test_parse_cards_names_the_bad_code():
    with pytest.raises(CardError, match="'1S'"):
        parse_cards("9H 1S")


@given(st.lists(card_spellings(), max_size=6))
def test_parse_cards_keeps_order(spelled):
    cards = tuple(card for card, _ in spelled)
    text = " ".join(text for _, text in spelled)
    assert parse_cards(text) == cards
    assert parse_cards([text for _, text in spelled]) == cards
