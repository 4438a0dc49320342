"""Card dialects: every spelling a provider uses becomes the round log's own code."""

from __future__ import annotations

import pytest
from helpers import within_seconds

from reporting.engine.cards import RANKS, SUITS, Card
from reporting.ingest.profiles.cards import CardDialect, CardProblem, hand_codes

EVERY_CARD = [Card(rank, suit).code for suit in SUITS for rank in RANKS]


@pytest.mark.parametrize(
    ("dialect", "written", "code"),
    [
        (CardDialect("suit_rank", separator="_"), "S_K", "KS"),
        (CardDialect("suit_rank", separator="_"), "C_10", "10C"),
        (CardDialect("suit_rank", separator="_"), "H_8", "8H"),
        (CardDialect("suit_rank", separator="_"), "SPADE_A", "AS"),
        (CardDialect("suit_rank", separator="_"), "hearts_q", "QH"),
        (CardDialect("suit_rank", ranks="numbers"), "H11", "JH"),
        (CardDialect("suit_rank", ranks="numbers"), "C1", "AC"),
        (CardDialect("suit_rank", ranks="numbers"), "D13", "KD"),
        (CardDialect("rank_suit"), "10H", "10H"),
        (CardDialect("rank_suit"), "Td", "10D"),
        (CardDialect("rank_suit"), "K♣", "KC"),
        (CardDialect("index", order="SHDC", base=0), 0, "AS"),
        (CardDialect("index", order="SHDC", base=0), 51, "KC"),
        (CardDialect("index", order="CDHS", base=1), "1", "AC"),
        (CardDialect("index", order="SHDC", base=0, radix=16), "d", "AH"),
        (CardDialect("index", order="SHDC", base=0, radix=16), "1A", "AD"),
    ],
)
def test_a_card_in_each_dialect_is_read_as_the_round_log_s_code(dialect, written, code):
    assert dialect.card(written) == code


@pytest.mark.parametrize("base", [0, 1])
def test_an_index_dialect_counts_through_every_card_once(base):
    dialect = CardDialect("index", order="SHDC", base=base)
    assert [dialect.card(base + number) for number in range(52)] == EVERY_CARD


@pytest.mark.parametrize("written", ["S_1", "X_K", "S-K", "", 5, None, "S__K"])
def test_what_is_not_a_card_of_the_dialect_is_refused_by_name(written):
    with pytest.raises(CardProblem, match=r"is not a card in the suit_rank \(S_Q\) dialect"):
        CardDialect("suit_rank", separator="_").card(written)


def test_a_hand_is_a_list_an_indexed_object_or_a_text_of_codes():
    dialect = CardDialect("suit_rank", separator="_")
    assert hand_codes(["S_K", "H_8"], dialect) == ["KS", "8H"]
    assert hand_codes({"1": "H_8", "0": "S_K", "2": "C_10"}, dialect) == ["KS", "8H", "10C"]
    assert hand_codes("S_K, H_8", dialect) == ["KS", "8H"]
    assert hand_codes({}, dialect) == []


@pytest.mark.parametrize(
    ("hand", "message"),
    [
        ({"0": "S_K", "2": "H_8"}, "leave a gap"),
        ({"a": "S_K"}, "are not indexes"),
        ({"0": "S_K", "\u00b2": "H_8"}, "are not indexes"),  # a digit int() cannot read
        ({"\u0660": "S_K", "1": "H_8"}, "are not indexes"),  # an Arabic-Indic zero
        ({str(i): "S_K" for i in range(20)}, "a hand of 20 cards"),
        (7, "is not a list of cards"),
    ],
)
def test_a_hand_that_cannot_be_read_says_why(hand, message):
    with pytest.raises(CardProblem, match=message):
        hand_codes(hand, CardDialect("suit_rank", separator="_"))


OBJECTS = CardDialect(rank_key="rank", suit_key="suit")


def test_a_card_written_as_an_object_is_read_by_its_rank_and_suit_keys():
    """A provider writing ``[{"rank": "Q", "suit": "hearts"}, ...]``: each card of the deck
    reads as its code, its rank a letter or a word, its suit a letter, a word or a symbol, in
    any case; with ``ranks = "numbers"`` the rank is 1-13, as a number or a text."""
    assert hand_codes(
        [
            {"rank": "Q", "suit": "hearts"},
            {"rank": "10", "suit": "S"},
            {"suit": "♦", "rank": "ace"},
        ],
        OBJECTS,
    ) == ["QH", "10S", "AD"]
    for suit in SUITS:
        for rank in RANKS:
            assert OBJECTS.card({"rank": rank, "suit": suit.lower()}) == Card(rank, suit).code
    numbers = CardDialect(ranks="numbers", rank_key="r", suit_key="s")
    assert [numbers.card({"r": 12, "s": "CLUBS"}), numbers.card({"r": "1", "s": "d"})] == [
        "QC",
        "AD",
    ]


@pytest.mark.parametrize(
    "card",
    [
        {"rank": "Q"},
        {"rank": "Q", "suit": "stars"},
        {"rank": 14, "suit": "H"},
        {"rank": None, "suit": "H"},
    ],
)
def test_a_card_object_that_is_no_card_is_refused_naming_its_keys(card):
    with pytest.raises(CardProblem, match="is not a card of a rank at 'rank'.* a suit at 'suit'"):
        OBJECTS.card(card)


def test_without_the_keys_a_card_object_is_no_card():
    with pytest.raises(CardProblem, match="is not a card in the rank_suit"):
        CardDialect().card({"rank": "Q", "suit": "H"})


def test_a_card_object_reads_ascii_letters_in_either_case_and_folds_nothing_else():
    """The long s ("ſ") upper-cases to S: "ſpadeſ" loaded as spades, where the round log
    refuses 9ſ; a heart written with its emoji presentation (U+FE0F), which the round log
    reads, was refused."""
    assert OBJECTS.card({"rank": "q", "suit": "♥\ufe0f"}) == "QH"
    for suit in ("ſ", "ſpadeſ"):
        with pytest.raises(CardProblem):
            OBJECTS.card({"rank": "Q", "suit": suit})


@pytest.mark.parametrize(
    ("dialect", "written", "code"),
    [
        (CardDialect("rank_suit"), "J\u017f", "JS"),  # the long s: str.upper() makes it S
        (CardDialect("rank_suit"), "\u212aH", "KH"),  # the Kelvin sign: str.lower() makes it k
        (CardDialect("suit_rank", separator="_"), "\u017f_J", "JS"),  # replay-api's dialect
        (CardDialect("suit_rank", separator="_"), "\u017fPADE\u017f_A", "AS"),
        (CardDialect("suit_rank", separator="_"), "H_\u212a", "KH"),
        (CardDialect("index", order="SHDC", base=0, radix=36), "\u212a", "8H"),  # read as "k"
    ],
)
def test_a_card_written_as_text_folds_ascii_letters_alone(dialect, written, code):
    """A card written as text was looked up by ``str.upper()`` and ``str.lower()``: "Jſ" was
    stored as JS and "KH" written with the Kelvin sign as KH, where the round log's own reader
    and a card object refuse them. Its ASCII letters are read in either case, nothing else."""
    with pytest.raises(CardProblem):
        dialect.card(written)
    plain = written.replace("\u017f", "s").replace("\u212a", "k")
    assert dialect.card(plain) == code  # the same card in ASCII letters, in any case


@pytest.mark.parametrize(
    ("dialect", "written", "code"),
    [
        (CardDialect("rank_suit"), "K\u2660\ufe0f", "KS"),
        (CardDialect("suit_rank", separator="_"), "\u2665\ufe0f_10", "10H"),
    ],
)
def test_a_suit_symbol_in_its_emoji_presentation_is_read_as_the_round_log_reads_it(
    dialect, written, code
):
    """The round log reads "K♠" followed by U+FE0F (a symbol typed as an emoji) as KS; a
    profile's card written as text refused it."""
    assert dialect.card(written) == code


def test_a_card_object_of_a_fraction_shows_the_number_as_written():
    """A JSON fraction reaches a card as its text (msgspec.Raw): the message showed
    "<msgspec.Raw object at 0x7ff3...>", an address that changes from run to run, then
    ``'10.0'`` quoted, a string the provider did not write. It shows the number bare, as
    written, and a string written ``"10.0"`` stays quoted."""
    import msgspec

    with pytest.raises(CardProblem) as raised:
        OBJECTS.card({"rank": msgspec.Raw(b"10.0"), "suit": "H"})
    assert "{'rank': 10.0, 'suit': 'H'}" in str(raised.value)
    with pytest.raises(CardProblem) as raised:
        CardDialect().card(msgspec.Raw(b"1e1"))
    assert str(raised.value).startswith("card 1e1 is not a card")
    with pytest.raises(CardProblem) as raised:
        CardDialect().card("10.0")
    assert str(raised.value).startswith("card '10.0' is not a card")


@pytest.mark.parametrize("radix", [10, 16])
@pytest.mark.parametrize(
    ("number", "shown"),
    [(-1, "-1"), (-53, "-53"), (10**5000, "a number of thousands of digits")],
    ids=["-1", "-53", "5001-digits"],
)
def test_a_number_below_zero_or_past_every_card_is_no_card(radix, number, shown):
    """-1 in a radix other than 10 was written digit by digit for ever: one record of an
    export held ingest and the monthly run (and its lock) until killed. A number of 5,000
    digits was "cannot be read (ValueError: Exceeds the limit (4300 digits) ...)", Python's
    advice to raise the limit in a provider's reject."""
    dialect = CardDialect("index", order="SHDC", base=0, radix=radix)
    with within_seconds(5), pytest.raises(CardProblem) as refused:  # a failure, not a hang
        dialect.card(number)
    assert str(refused.value) == (
        f"card {shown} is not a card in the index (suits SHDC, first card 0) dialect"
    )


def test_a_card_object_of_a_rank_of_thousands_of_digits_is_no_card():
    dialect = CardDialect("rank_suit", rank_key="rank", suit_key="suit")
    with pytest.raises(CardProblem) as refused:
        dialect.card({"rank": 10**5000, "suit": "H"})
    assert str(refused.value).startswith("card a value holding a number of thousands of digits")
