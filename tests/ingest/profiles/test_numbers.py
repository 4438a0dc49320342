"""Exact money and epoch times from JSON numbers: every rule of the reading, and properties
against msgspec's own encoding of Decimals and against datetime and the round log's
validator."""

from __future__ import annotations

import functools
from datetime import UTC, datetime, timedelta
from decimal import Decimal

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from reporting.config.values import MAX_CENTS
from reporting.ingest.limits import MAX_AMOUNT_CHARS
from reporting.ingest.profiles import numbers
from reporting.ingest.profiles.numbers import epoch_time, minor_units
from reporting.ingest.validation import YEARS, RecordError, _Canon
from reporting.records import RejectReason

#: How the profile decoders decode: floats kept as their text.
DECODE = msgspec.json.Decoder(float_hook=msgspec.Raw).decode
ENCODE_DECIMAL = msgspec.json.Encoder(decimal_format="number").encode
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def json_number(text: str) -> object:
    """The value a profile decoder hands over for a JSON number written as ``text``."""
    return DECODE(text.encode())


# --- money ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("written", "major", "digits", "cents"),
    [
        ("5", True, 2, 500),  # an int in major units
        ("12.5", True, 2, 1250),
        ("12.35", True, 2, 1235),
        ("5.0000", True, 2, 500),  # exact, whatever the zeros
        ("-5.25", True, 2, -525),  # a net payout of a lost bet: returned as it is
        ("-0.0", True, 2, 0),
        ("0", True, 2, 0),
        ("1e3", True, 2, 100_000),
        ("1.5E+1", True, 2, 1500),
        ("125e-2", True, 2, 125),
        ("-5.0005", True, 4, -50005),  # four decimals: a currency (or scale) that holds them
        ("7", True, 0, 7),  # a currency without minor units
        ("500", False, 2, 500),  # already in minor units
        ("500.0", False, 2, 500),
        ("5e2", False, 2, 500),
    ],
)
def test_money_read_exactly(written, major, digits, cents):
    value = json_number(written)
    assert minor_units(value, major=major, digits=digits, field="betAmount") == cents
    assert minor_units(written, major=major, digits=digits, field="betAmount") == cents


def money_reject(value: object, *, major: bool = True, digits: int = 2) -> str:
    with pytest.raises(RecordError) as caught:
        minor_units(value, major=major, digits=digits, field="betAmount")
    assert caught.value.reason == RejectReason.BAD_MONEY
    assert caught.value.message.startswith("betAmount ")
    return caught.value.message


@pytest.mark.parametrize(
    ("value", "said"),
    [
        (json_number("5.0005"), "more decimals than a minor unit of 2 digits holds"),
        (json_number("0.001"), "more decimals than"),
        ("12.345", "more decimals than"),
        (json_number("-5.0005"), "more decimals than"),
        (True, "True is not a number"),
        (False, "is not a number"),
        (None, "None is not a number"),
        (5.0, "was decoded as a float"),
        (Decimal("5"), "Decimal, not a number"),
        ("NaN", "is not a number"),
        ("Infinity", "is not a number"),
        ("-Infinity", "is not a number"),
        ("", "is not a number"),
        (" 5", "is not a number"),
        ("5.", "is not a number"),
        (".5", "is not a number"),
        ("1,000.00", "is not a number"),
        ("0x10", "is not a number"),
        (json_number("1e21"), "an exponent beyond 20"),
        ("1e-999999999", "an exponent beyond 20"),
        ("1" * (MAX_AMOUNT_CHARS + 1), f"longer than any number read ({MAX_AMOUNT_CHARS}"),
        (MAX_CENTS // 100, "beyond any stake or payout"),
        (json_number("1e13"), "beyond any stake or payout"),
        (-(MAX_CENTS // 100), "beyond any stake or payout"),
    ],
)
def test_money_that_is_not_an_exact_number_of_minor_units_is_bad_money(value, said):
    assert said in money_reject(value)


def test_minor_units_must_be_whole():
    assert "not a whole number of minor units" in money_reject(json_number("500.5"), major=False)


def test_the_largest_amount_and_one_more():
    largest = MAX_CENTS - 1
    assert minor_units(largest, major=False, digits=2, field="f") == largest
    assert minor_units(-largest, major=False, digits=2, field="f") == -largest
    assert "beyond any stake" in money_reject(MAX_CENTS, major=False)
    text = str(Decimal(largest).scaleb(-2))
    assert minor_units(json_number(text), major=True, digits=2, field="f") == largest


def test_a_rejected_value_is_never_cached_as_accepted():
    for _ in range(2):
        assert "more decimals" in money_reject(json_number("5.0005"))
    assert minor_units(json_number("5.0005"), major=True, digits=4, field="f") == 50005


@given(cents=st.integers(-(MAX_CENTS - 1), MAX_CENTS - 1), digits=st.integers(0, 4))
def test_any_amount_written_by_msgspec_from_a_decimal_reads_back(cents, digits):
    """Property: the major-unit text of any amount, written as a JSON number by msgspec
    from a Decimal (with trailing zeros or none), gives the amount back exactly."""
    for amount in (Decimal(cents).scaleb(-digits), Decimal(cents).scaleb(-digits).normalize()):
        value = DECODE(ENCODE_DECIMAL(amount))
        assert minor_units(value, major=True, digits=digits, field="f") == cents


@given(cents=st.integers(-(10**12), 10**12), extra=st.integers(1, 9))
def test_any_amount_with_a_decimal_too_many_is_refused(cents, extra):
    """Property: one more decimal than the unit holds, not zero, is refused, never rounded."""
    text = str(Decimal(cents * 10 + (extra if cents >= 0 else -extra)).scaleb(-3))
    assert "more decimals" in money_reject(json_number(text))


# --- epoch times ----------------------------------------------------------------------------


def stored(millis: int) -> str:
    """The store's form of an epoch millisecond, by datetime."""
    moment = EPOCH + timedelta(milliseconds=millis)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


FIRST_MS = int((datetime(YEARS.start, 1, 1, tzinfo=UTC) - EPOCH).total_seconds()) * 1000
END_MS = int((datetime(YEARS.stop, 1, 1, tzinfo=UTC) - EPOCH).total_seconds()) * 1000


@pytest.mark.parametrize(
    ("value", "milliseconds", "instant"),
    [
        (1790000004532, True, "2026-09-21T14:13:24.532Z"),
        (json_number("1790000004532"), True, "2026-09-21T14:13:24.532Z"),
        ("1790000004532", True, "2026-09-21T14:13:24.532Z"),
        (json_number("1790000004.532"), False, "2026-09-21T14:13:24.532Z"),
        (json_number("1790000004.5"), False, "2026-09-21T14:13:24.500Z"),
        (json_number("1790000019"), False, "2026-09-21T14:13:39.000Z"),
        (1790000019, False, "2026-09-21T14:13:39.000Z"),
        (json_number("1790000004.5329999"), False, "2026-09-21T14:13:24.532Z"),  # truncated
        (json_number("1790000004532.9"), True, "2026-09-21T14:13:24.532Z"),
        (json_number("1.790000004532e9"), False, "2026-09-21T14:13:24.532Z"),
        (0, True, "1970-01-01T00:00:00.000Z"),
        (json_number("-1.5678"), False, "1969-12-31T23:59:58.432Z"),  # toward the past
        (-1, True, "1969-12-31T23:59:59.999Z"),
    ],
)
def test_epoch_times_in_the_stored_form(value, milliseconds, instant):
    assert epoch_time(value, milliseconds=milliseconds, field="startDate") == instant


def time_reject(value: object, milliseconds: bool = True) -> str:
    with pytest.raises(RecordError) as caught:
        epoch_time(value, milliseconds=milliseconds, field="startDate")
    assert caught.value.reason == RejectReason.BAD_VALUE
    assert caught.value.message.startswith("startDate ")
    return caught.value.message


@pytest.mark.parametrize(
    ("value", "said"),
    [
        (True, "True is not a number of epoch milliseconds"),
        (None, "is not a number"),
        ("2026-10-01", "is not a number"),
        ("", "is not a number"),
        (1790000004.532, "was decoded as a float"),
        ([1], "list, not a number"),
        (json_number("1e400"), "an exponent beyond"),
        ("9" * 40, "longer than any number"),
        (FIRST_MS - 1, f"outside the years {YEARS.start}-{YEARS.stop - 1}"),
        (END_MS, "outside the years"),
        (10**400, "outside the years"),
        (json_number("-99999999999999.5"), "outside the years"),
    ],
)
def test_what_is_not_an_epoch_time_in_the_years_handled_is_bad_value(value, said):
    assert said in time_reject(value)


def test_the_first_and_last_milliseconds_of_the_years_handled():
    assert (
        epoch_time(FIRST_MS, milliseconds=True, field="f") == f"{YEARS.start}-01-01T00:00:00.000Z"
    )
    assert (
        epoch_time(END_MS - 1, milliseconds=True, field="f")
        == f"{YEARS.stop - 1}-12-31T23:59:59.999Z"
    )


@given(millis=st.integers(FIRST_MS, END_MS - 1))
def test_any_millisecond_agrees_with_datetime(millis):
    """Property: epoch milliseconds and the same instant in seconds (as the numeric feed
    writes it: three decimals trimmed of trailing zeros) give datetime's instant."""
    assert epoch_time(millis, milliseconds=True, field="f") == stored(millis)
    seconds, milli = divmod(abs(millis), 1000)
    text = f"{seconds}.{milli:03d}".rstrip("0").rstrip(".") if milli else str(seconds)
    text = f"-{text}" if millis < 0 else text
    assert epoch_time(json_number(text), milliseconds=False, field="f") == stored(millis)
    # the same digits handed over as text kept as written (a Raw of an int, or a str)
    assert epoch_time(msgspec.Raw(str(millis).encode()), milliseconds=True, field="f") == stored(
        millis
    )
    assert epoch_time(msgspec.Raw(text.encode()), milliseconds=False, field="f") == stored(millis)
    assert epoch_time(text, milliseconds=False, field="f") == stored(millis)


@given(millis=st.integers(0, END_MS - 1), micros=st.integers(0, 999))
def test_digits_past_the_millisecond_truncate_as_the_validator_does(millis, micros):
    """Property: seconds with six decimals give what the round log's validator stores for
    the same instant written in ISO 8601 with microseconds."""
    seconds, milli = divmod(millis, 1000)
    moment = EPOCH + timedelta(seconds=seconds, microseconds=milli * 1000 + micros)
    iso = moment.isoformat(timespec="microseconds").replace("+00:00", "Z")
    from_epoch = epoch_time(
        json_number(f"{seconds}.{milli:03d}{micros:03d}"), milliseconds=False, field="f"
    )
    assert from_epoch == _Canon().timestamp(iso, "f") == stored(millis)


def test_the_minute_cache_stays_bounded(monkeypatch):
    monkeypatch.setattr(numbers, "CACHE_LIMIT", 100)
    monkeypatch.setattr(numbers, "_MINUTES", {})
    for minute in range(1000):
        millis = 1_790_000_000_000 + minute * 60_000 + 7
        assert epoch_time(millis, milliseconds=True, field="f") == stored(millis)
        assert len(numbers._MINUTES) <= 100


def test_an_integer_too_long_to_write_out_is_still_one_reject():
    """msgspec decodes integers of hundreds of digits; Python will not write one of more
    than 4,300: the reject says its size instead."""
    assert "an integer of some 5,001 digits is beyond any stake" in money_reject(10**5000)
    assert "an integer of some 5,001 digits is outside the years" in time_reject(-(10**5000))


# --- amounts written with a market's marks ---------------------------------------------------


@pytest.mark.parametrize(
    ("text", "decimal", "grouping", "cents"),
    [
        ("1.234,50", ",", ".", 123450),
        ("-1.234.567,5", ",", ".", -123456750),
        ("12,50", ",", ".", 1250),  # no thousand to group
        ("12,50", ",", None, 1250),
        ("1234,50", ",", None, 123450),
        ("1234,50", ",", ".", 123450),  # grouping is not required
        ("1,234.50", ".", ",", 123450),
        ("1'234.50", ".", "'", 123450),
        ("1\u202f234,50", ",", "\u202f", 123450),
        ("5", ",", ".", 500),
    ],
)
def test_a_text_amount_is_read_with_the_profile_s_marks(text, decimal, grouping, cents):
    assert minor_units(text, major=True, digits=2, field="stake", decimal=decimal, grouping=grouping) == cents  # fmt: skip


@pytest.mark.parametrize(
    ("text", "decimal", "grouping"),
    [
        ("12.50", ",", "."),  # a point for the decimals: twelve thousand fifty?
        ("12.50", ",", None),
        ("1.23,50", ",", "."),  # a group of two digits
        ("1.2345,50", ",", "."),  # of four
        (".234,50", ",", "."),
        ("1.234,", ",", "."),
        (",50", ",", "."),
        ("1 234,50", ",", "."),  # another grouping than the profile's
        ("1,5e3", ",", None),  # no exponent in a text of the market's form
        ("EUR 12,50", ",", "."),
        ("0.500", ",", "."),  # a first group of a zero: a point and three decimals
        ("0.001,00", ",", "."),
        ("0,500", ".", ","),
        ("12,505", ",", None),  # more decimals than a cent, not rounded
    ],
)
def test_a_text_amount_written_otherwise_is_a_bad_money_reject(text, decimal, grouping):
    with pytest.raises(RecordError) as raised:
        minor_units(text, major=True, digits=2, field="stake", decimal=decimal, grouping=grouping)
    assert raised.value.reason == RejectReason.BAD_MONEY


def test_a_json_number_is_read_as_json_writes_it_whatever_the_marks():
    """The marks are of text: a JSON number's point is its decimal mark, always."""
    read = functools.partial(minor_units, major=True, digits=2, field="stake", decimal=",")
    assert read(json_number("12.5"), grouping=".") == 1250
    assert read(12, grouping=".") == 1200


@given(
    cents=st.integers(-(10**12), 10**12),
    marks=st.sampled_from([(",", "."), (",", None), (".", ","), (",", "\u00a0"), (".", "'")]),
)
def test_any_amount_a_market_writes_reads_back_as_its_cents(cents, marks):
    """Written as the market writes it (Python's own grouping, its marks swapped in), every
    amount reads back exactly."""
    decimal, grouping = marks
    written = (
        f"{Decimal(cents).scaleb(-2):,.2f}" if grouping else f"{Decimal(cents).scaleb(-2):.2f}"
    )
    written = written.translate({ord(","): grouping or "", ord("."): decimal})
    assert minor_units(written, major=True, digits=2, field="stake", decimal=decimal, grouping=grouping) == cents  # fmt: skip


def test_an_offset_of_seconds_before_standard_time_is_said_as_a_clock_writes_it():
    """A zone's local mean time of 1900 (-0:43:08 in Monrovia) was said as Python's
    timedelta, "(-1 day, 23:16:52)"."""
    from zoneinfo import ZoneInfo

    from reporting.ingest.profiles.numbers import local_time

    with pytest.raises(RecordError) as refused:
        local_time("1900-06-01T12:00:00", ZoneInfo("Africa/Monrovia"), "settledAt")
    assert str(refused.value) == (
        "settledAt '1900-06-01T12:00:00': Africa/Monrovia's offset then (-00:43:08) is not"
        " whole minutes"
    )
