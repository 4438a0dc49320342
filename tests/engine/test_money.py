"""Money: one parser for every amount string, integer cents, named rounding policies."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest
from helpers import within_seconds
from hypothesis import given
from hypothesis import strategies as st

from reporting.engine.money import (
    AmountError,
    RoundingPolicy,
    cents_to_decimal,
    exact_decimal,
    format_cents,
    format_money,
    parse_amount,
    parse_ratio,
    round_cents,
    round_fraction,
)

DOWN, HALF_UP, HALF_EVEN = RoundingPolicy.DOWN, RoundingPolicy.HALF_UP, RoundingPolicy.HALF_EVEN


# --- parse_amount -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "cents"),
    [
        ("25.00", 2500),
        ("5", 500),
        ("0.5", 50),
        ("12.3", 1230),
        ("12.35", 1235),
        ("0.01", 1),
        ("0.00", 0),
        ("0", 0),
        ("1000.00", 100_000),
        ("48.75", 4875),
    ],
)
def test_parse_amount_accepts_plain_decimal_strings(text, cents):
    assert parse_amount(text) == cents


@pytest.mark.parametrize(
    "number",
    [25, 25.0, 0.1, Decimal("25.00"), 0],
    ids=["int", "float", "float-0.1", "Decimal", "int-zero"],
)
def test_parse_amount_refuses_json_numbers(number):
    with pytest.raises(AmountError, match="decimal string"):
        parse_amount(number)


@pytest.mark.parametrize("flag", [True, False])
def test_parse_amount_refuses_bool(flag):
    with pytest.raises(AmountError):
        parse_amount(flag)


@pytest.mark.parametrize(
    ("value", "type_name"),
    [(None, "NoneType"), (b"25.00", "bytes"), (["25.00"], "list")],
    ids=["None", "bytes", "list"],
)
def test_parse_amount_refuses_other_types(value, type_name):
    with pytest.raises(AmountError) as error:
        parse_amount(value)
    assert str(error.value) == f"amount must be a decimal string, got {type_name}"


@pytest.mark.parametrize(
    "text",
    [
        "-5.00",
        "+5.00",
        "1e3",
        "1E3",
        "1,000.00",
        "1 000.00",
        "12,50",
        "12.345",
        "",
        " 5",
        "5 ",
        "5\n",
        ".5",
        "5.",
        "NaN",
        "Infinity",
        "five",
        "0x10",
        "١٢",  # Arabic-Indic digits are digits to str.isdigit, not to a money parser
    ],
)
def test_parse_amount_refuses_ambiguous_strings(text):
    with pytest.raises(AmountError) as error:
        parse_amount(text)
    assert repr(text) in str(error.value)


def test_parse_amount_refuses_zero_when_zero_is_not_allowed():
    with pytest.raises(AmountError, match="greater than zero"):
        parse_amount("0.00", allow_zero=False)
    with pytest.raises(AmountError):
        parse_amount("0", allow_zero=False)
    assert parse_amount("0.01", allow_zero=False) == 1


def test_amount_error_is_a_value_error():
    assert issubclass(AmountError, ValueError)


# --- format_cents / cents_to_decimal ---------------------------------------------------------


@pytest.mark.parametrize(
    ("cents", "text"),
    [(2408, "24.08"), (5, "0.05"), (0, "0.00"), (-150, "-1.50"), (100_000, "1000.00")],
)
def test_format_cents(cents, text):
    assert format_cents(cents) == text


@pytest.mark.parametrize(
    ("cents", "text"),
    [(1234500, "12,345.00 EUR"), (5, "0.05 DKK"), (-123456, "-1,234.56 EUR"), (99, "0.99 EUR")],
)
def test_format_money_groups_thousands_and_names_the_currency(cents, text):
    assert format_money(cents, text[-3:]) == text


@given(st.integers(min_value=0, max_value=10**15))
def test_format_money_is_format_cents_grouped(cents):
    figure, currency = format_money(cents, "EUR").split(" ")
    assert (figure.replace(",", ""), currency) == (format_cents(cents), "EUR")
    assert format_money(cents) == figure


def test_cents_to_decimal_is_exact():
    assert cents_to_decimal(1234) == Decimal("12.34")
    assert cents_to_decimal(5) == Decimal("0.05")
    assert cents_to_decimal(-150) == Decimal("-1.50")


@given(st.integers(min_value=0, max_value=10**15))
def test_format_then_parse_round_trips_every_amount(cents):
    text = format_cents(cents)
    assert parse_amount(text) == cents
    assert format_cents(parse_amount(text)) == text
    assert cents_to_decimal(cents) == Decimal(text)


@given(
    st.integers(min_value=0, max_value=10**12),
    st.sampled_from(["", "0", "5", "00", "07", "50", "99"]),
)
def test_parse_amount_means_what_decimal_means(units, decimals):
    # Any plain string with 0, 1 or 2 decimals is that exact number of cents.
    text = f"{units}.{decimals}" if decimals else str(units)
    assert parse_amount(text) == int(Decimal(text) * 100)


# --- round_cents ----------------------------------------------------------------------------


ROUNDING_CASES = [
    # exact halves: down truncates, half_up goes away from zero, half_even to the even cent
    (Fraction(2345, 2), {DOWN: 1172, HALF_UP: 1173, HALF_EVEN: 1172}),  # 11.725
    (Fraction(2347, 2), {DOWN: 1173, HALF_UP: 1174, HALF_EVEN: 1174}),  # 11.735
    (Fraction(1, 2), {DOWN: 0, HALF_UP: 1, HALF_EVEN: 0}),
    (Fraction(3, 2), {DOWN: 1, HALF_UP: 2, HALF_EVEN: 2}),
    (Fraction(57, 2), {DOWN: 28, HALF_UP: 29, HALF_EVEN: 28}),
    # below a half: all three agree on the lower cent
    (Fraction(117325, 100), {DOWN: 1173, HALF_UP: 1173, HALF_EVEN: 1173}),  # 11.7325
    (Fraction(1, 3), {DOWN: 0, HALF_UP: 0, HALF_EVEN: 0}),
    (Fraction(4999, 1000), {DOWN: 4, HALF_UP: 5, HALF_EVEN: 5}),  # above a half
    (Fraction(2, 3), {DOWN: 0, HALF_UP: 1, HALF_EVEN: 1}),
    # whole cents are left alone
    (Fraction(1173), {DOWN: 1173, HALF_UP: 1173, HALF_EVEN: 1173}),
    (Fraction(0), {DOWN: 0, HALF_UP: 0, HALF_EVEN: 0}),
]


@pytest.mark.parametrize(
    ("amount", "expected"),
    [pytest.param(amount, expected, id=f"{amount}-cents") for amount, expected in ROUNDING_CASES],
)
@pytest.mark.parametrize("policy", list(RoundingPolicy), ids=str)
def test_round_cents_under_each_policy(amount, expected, policy):
    result = round_cents(amount, policy)
    assert type(result) is int
    assert result == expected[policy]


def test_round_cents_banker_example_from_games_md():
    # A 12.35 banker win at 0.95:1 is 11.7325; paid down to the cent: 12.35 + 11.73 = 24.08.
    win = 1235 * Fraction(19, 20)
    assert win == Fraction(117325, 100)
    assert 1235 + round_cents(win, RoundingPolicy.DOWN) == 2408
    assert format_cents(1235 + round_cents(win, RoundingPolicy.DOWN)) == "24.08"


def test_round_cents_refuses_negative_amounts():
    with pytest.raises(ValueError) as error:
        round_cents(Fraction(-1, 2), RoundingPolicy.DOWN)
    assert str(error.value) == "round_cents is for non-negative amounts"


def test_rounding_policy_values_are_the_configuration_spellings():
    assert [policy.value for policy in RoundingPolicy] == ["down", "half_up", "half_even"]
    assert RoundingPolicy("half_even") is HALF_EVEN


@given(
    st.integers(min_value=0, max_value=10**9),
    st.integers(min_value=1, max_value=10**4),
    st.sampled_from(list(RoundingPolicy)),
)
def test_round_cents_lands_on_a_neighbouring_cent(numerator, denominator, policy):
    amount = Fraction(numerator, denominator)
    result = round_cents(amount, policy)
    assert type(result) is int
    assert amount - 1 < result < amount + 1
    if policy is RoundingPolicy.DOWN:
        assert result <= amount
    else:
        assert abs(result - amount) <= Fraction(1, 2)


# --- round_fraction -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "places", "expected"),
    [
        (Fraction(9712, 100), 2, Decimal("97.12")),
        (Fraction(1, 8), 2, Decimal("0.13")),  # 0.125: the half goes up
        (Fraction(-1, 8), 2, Decimal("-0.13")),  # ... away from zero
        (Fraction(3, 8), 2, Decimal("0.38")),  # 0.375 up, not to even
        (Fraction(1, 3), 6, Decimal("0.333333")),
        (Fraction(2, 3), 6, Decimal("0.666667")),
        (Fraction(1, 1000), 2, Decimal("0.00")),
        (Fraction(-1, 1000), 2, Decimal("0.00")),  # no "-0.00"
        (Fraction(-5, 1000), 2, Decimal("-0.01")),
        (Fraction(1, 2**40), 40, Decimal(5**40).scaleb(-40)),
        (Fraction(5, 1000), 2, Decimal("0.01")),
        (Fraction(1), 2, Decimal("1.00")),
    ],
)
def test_round_fraction_rounds_halves_up(value, places, expected):
    result = round_fraction(value, places)
    assert isinstance(result, Decimal)
    assert result == expected
    assert str(result) == str(expected)


# --- parse_ratio ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "ratio"),
    [
        ("8", Fraction(8)),
        ("0.95", Fraction(19, 20)),
        ("19/20", Fraction(19, 20)),
        ("19 / 20", Fraction(19, 20)),
        ("1.5", Fraction(3, 2)),
        ("3/2", Fraction(3, 2)),
        ("3:2", Fraction(3, 2)),
        ("0.54", Fraction(27, 50)),
        ("27/50", Fraction(27, 50)),
        ("200", Fraction(200)),
        (" 25 ", Fraction(25)),
        (11, Fraction(11)),
    ],
)
def test_parse_ratio_forms(text, ratio):
    result = parse_ratio(text)
    assert isinstance(result, Fraction)
    assert result == ratio


@pytest.mark.parametrize(
    "value",
    [0.95, True, "-1", "1e3", "a/b", "19/", "/20", "", "1/0", None, ["8"]],
    ids=repr,
)
def test_parse_ratio_refuses_floats_and_malformed_odds(value):
    with pytest.raises(AmountError):
        parse_ratio(value)


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (0.95, 'odds must be written as a string such as "19/20", got 0.95'),
        (True, 'odds must be written as a string such as "19/20", got True'),
        (None, "odds must be a string, got NoneType"),
        (["8"], "odds must be a string, got list"),
        ("1e3", 'odds \'1e3\' are not a number or ratio such as "8", "0.95", "19/20"'),
        ("1/0", "odds '1/0' divide by zero"),
        ("3:0.0", "odds '3:0.0' divide by zero"),
        ("-1", "odds '-1' must be above zero"),  # was "not a number": it is one
        ("-19/20", "odds '-19/20' must be above zero"),
    ],
    ids=[
        "float",
        "bool",
        "None",
        "list",
        "exponent",
        "zero",
        "zero-decimal",
        "negative",
        "neg-ratio",
    ],
)
def test_parse_ratio_says_what_is_wrong_with_the_odds(value, message):
    with pytest.raises(AmountError) as error:
        parse_ratio(value)
    assert str(error.value) == message


# --- exact_decimal --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (Fraction(19, 20), "0.95"),
        (Fraction(8), "8"),
        (Fraction(0), "0"),
        (Fraction(1, 2), "0.5"),
        (Fraction(1, 100), "0.01"),
        (Fraction(3, 8), "0.375"),  # three twos: three places, not rounded to two
        (Fraction(1, 625), "0.0016"),  # four fives
        (Fraction(-7, 40), "-0.175"),
        (Fraction(123456789, 1000), "123456.789"),
        (Fraction(1, 2**64), "0." + str(5**64).rjust(64, "0")),  # 45 digits: beyond 28
    ],
    ids=str,
)
def test_exact_decimal_gives_every_digit_of_a_terminating_fraction(value, expected):
    with within_seconds(5):
        result = exact_decimal(value)
    assert result == Decimal(expected)
    assert result.as_tuple() == Decimal(expected).as_tuple()  # same digits, same places


@pytest.mark.parametrize(
    "value",
    [Fraction(1, 3), Fraction(2, 3), Fraction(1, 7), Fraction(1, 30), Fraction(7, 2**70 * 3)],
    ids=str,
)
def test_exact_decimal_is_none_for_a_fraction_that_does_not_terminate(value):
    with within_seconds(5):
        assert exact_decimal(value) is None


def test_exact_decimal_of_a_huge_power_of_two_is_exact_and_quick():
    """2**-1100 has 1100 decimals: beyond any float, so the denominator's twos and fives
    must be taken out in whole numbers."""
    value = Fraction(1, 2**1100)
    with within_seconds(5):
        result = exact_decimal(value)
    assert result is not None
    assert Fraction(result) == value
    assert -result.as_tuple().exponent == 1100
