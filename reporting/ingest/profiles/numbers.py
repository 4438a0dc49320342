"""Money and epoch times from the numbers of a provider's export, exactly, never via a float.

The profile decoders decode floats as :class:`msgspec.Raw`
(``msgspec.json.Decoder(float_hook=msgspec.Raw)``): a JSON float reaches these functions as
its text exactly as written (``12.35``, ``-5.0005``, ``1790000004.532``), an int as an int.
A number is read as an integer mantissa and a power of ten, so that ``5.0000`` is exactly
``500`` cents and ``5.0005`` is refused, never rounded.

* :func:`minor_units`: money in minor units (cents), from major or minor units, a text of
  the export written with the profile's decimal mark and thousands separator
  (``"1.234,50"``);
* :func:`epoch_time`: an instant of epoch seconds or milliseconds, in the form the store
  keeps (``2026-09-21T14:13:24.532Z``), digits past the millisecond truncated as the round
  log's validator truncates them;
* :func:`local_time`: a time written without its UTC offset, in the profile's time zone,
  given the offset it had there (the round log's checks then read it as any other).
"""

from __future__ import annotations

import functools
import re
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import msgspec

from reporting.ingest.limits import MAX_AMOUNT_CHARS, MAX_NUMBER_EXPONENT
from reporting.ingest.validation import (
    CACHE_LIMIT,
    MAX_CENTS,
    TIMESTAMP,
    YEARS,
    RecordError,
    not_a_time,
    shown,
)
from reporting.records import RejectReason

__all__ = ["DECIMAL_MARKS", "GROUPINGS", "epoch_time", "local_time", "minor_units"]

#: A number as JSON writes it (leading zeros allowed in a text of the log: ``007.50``).
_NUMBER = re.compile(r"(-?)([0-9]+)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?")


#: Minor units of a major unit by the currency's digits (ISO 4217 uses 0 to 4); a digits
#: value outside is a KeyError of the caller's, never a float scale.
_SCALES = {digits: 10**digits for digits in range(7)}


#: The decimal marks of an export's amounts written as text (``[money] decimal``): a JSON
#: number is always written with a point.
DECIMAL_MARKS = (".", ",")
#: The characters an export may write between an amount's thousands (``[money] grouping``):
#: a point, a comma, an apostrophe, a space, a no-break space and a narrow no-break space
#: (CLDR's it, da and el group with a point, en with a comma, fr with the narrow no-break
#: space; Swiss exports write an apostrophe).
GROUPINGS = (".", ",", "'", " ", "\u00a0", "\u202f")


class _NotANumber(ValueError):
    """Why a value is not the exact number wanted (the caller adds the field)."""


def _decimal(text: str | bytes) -> tuple[int, int]:
    """``text`` as ``(mantissa, exponent)``: its value is ``mantissa * 10**exponent``.

    >>> _decimal("-12.50"), _decimal("1e3"), _decimal("5.0005")
    ((-1250, -2), (1, 3), (50005, -4))
    """
    if len(text) > MAX_AMOUNT_CHARS:
        raise _NotANumber(f"is longer than any number read ({MAX_AMOUNT_CHARS} characters at most)")
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    match = _NUMBER.fullmatch(text)
    if match is None:
        raise _NotANumber("is not a number")
    sign, units, fraction, exponent = match.groups()
    power = int(exponent) if exponent is not None else 0
    if abs(power) > MAX_NUMBER_EXPONENT:
        raise _NotANumber(f"has an exponent beyond {MAX_NUMBER_EXPONENT}")
    fraction = fraction or ""
    mantissa = int(units + fraction)
    return (-mantissa if sign else mantissa), power - len(fraction)


def _quoted(value: object) -> str:
    """A value as a message quotes it; an int too long to be written out (Python refuses
    more than 4,300 digits) by its size.

    >>> _quoted(msgspec.Raw(b"5.0005")), _quoted(10**5000)
    ('5.0005', 'an integer of some 5,001 digits')
    """
    if type(value) is int and not -(10**60) < value < 10**60:
        digits = abs(value).bit_length() * 30103 // 100_000 + 1  # log10(2) is 0.30103...
        return f"an integer of some {digits:,} digits"
    return shown(value)


def _text_of(value: object) -> str | bytes:
    """The text of a number of the export: a msgspec.Raw (a JSON float) or a str."""
    if isinstance(value, str):
        return value
    if isinstance(value, msgspec.Raw):
        return bytes(value)
    if isinstance(value, bool) or value is None:
        raise _NotANumber("is not a number")
    if isinstance(value, float):  # a decoder without float_hook=msgspec.Raw: a bug upstream
        raise _NotANumber("was decoded as a float, not read from its text")
    raise _NotANumber(f"is {type(value).__name__}, not a number")


@functools.lru_cache(maxsize=len(DECIMAL_MARKS) * (len(GROUPINGS) + 1))
def _written_form(decimal: str, grouping: str | None) -> re.Pattern[str]:
    """An amount's text with ``decimal`` for its decimal mark and ``grouping`` (if any)
    between its thousands: a sign, whole units and a fraction."""
    # a first group of a zero is no thousands' ("0.500" is a point and three decimals)
    grouped = rf"[1-9][0-9]{{0,2}}(?:{re.escape(grouping)}[0-9]{{3}})+|" if grouping else ""
    return re.compile(rf"(-?)({grouped}[0-9]+)(?:{re.escape(decimal)}([0-9]+))?")


def _as_written(text: str, decimal: str, grouping: str | None) -> str:
    """An amount's text written with the profile's marks, as a number of the round log.

    >>> _as_written("1.234,50", ",", "."), _as_written("-5,25", ",", None), _as_written("1 000", ".", " ")
    ('1234.50', '-5.25', '1000')
    """
    if len(text) > MAX_AMOUNT_CHARS:
        raise _NotANumber(f"is longer than any number read ({MAX_AMOUNT_CHARS} characters at most)")
    match = _written_form(decimal, grouping).fullmatch(text)
    if match is None:
        between = f" and {shown(grouping)} between thousands" if grouping else ""
        raise _NotANumber(f"is not an amount written with {shown(decimal)} for decimals{between}")
    sign, units, fraction = match.groups()
    units = units.replace(grouping, "") if grouping else units
    return f"{sign}{units}.{fraction}" if fraction is not None else f"{sign}{units}"


def minor_units(
    value: object,
    *,
    major: bool,
    digits: int,
    field: str,
    decimal: str = ".",
    grouping: str | None = None,
) -> int:
    """Money in minor units (cents for ``digits=2``) from a JSON int, a :class:`msgspec.Raw`
    (a JSON float's text) or a text of the log (``"12.50"``, ``"-5.0005"``, ``"1e3"``).

    ``major``: the value is in major units (``5`` is 5.00 EUR); otherwise it is already in
    minor units (``500`` is 5.00 EUR) and must be whole. A text is written with ``decimal``
    for its decimal mark and, if given, ``grouping`` between its thousands (``"1.234,50"``
    with ``","`` and ``"."``); with neither, as a JSON number. Anything that is not an exact
    number of minor units is a ``bad_money`` reject, never rounded. Negative values are
    returned as they are (a net payout of a lost bet): the caller decides.

    >>> raw = msgspec.Raw
    >>> minor_units(5, major=True, digits=2, field="stake"), minor_units(raw(b"12.5"), major=True, digits=2, field="stake")
    (500, 1250)
    >>> minor_units("5.0000", major=True, digits=2, field="stake"), minor_units("1e3", major=True, digits=0, field="stake")
    (500, 1000)
    >>> minor_units(raw(b"-5.25"), major=True, digits=2, field="win"), minor_units(500, major=False, digits=2, field="stake")
    (-525, 500)
    >>> minor_units(raw(b"5.0005"), major=True, digits=2, field="stake")
    Traceback (most recent call last):
    ...
    reporting.ingest.rejects.RecordError: stake 5.0005 has more decimals than a minor unit of 2 digits holds (it is not rounded)
    >>> minor_units(raw(b"500.5"), major=False, digits=2, field="amount")
    Traceback (most recent call last):
    ...
    reporting.ingest.rejects.RecordError: amount 500.5 is not a whole number of minor units
    >>> for value in (None, True, "NaN", raw(b"1e21"), "1" * 40, 10**13, raw(b"5.5")):
    ...     try:
    ...         minor_units(value, major=True, digits=2, field="stake")
    ...     except RecordError as error:
    ...         print(error.reason, error.message)
    bad_money stake None is not a number
    bad_money stake True is not a number
    bad_money stake 'NaN' is not a number
    bad_money stake 1e21 has an exponent beyond 20
    bad_money stake '1111111111111111111111111111111111111111' is longer than any number read (32 characters at most)
    bad_money stake 10000000000000 is beyond any stake or payout this tool accepts
    550
    """
    try:
        if type(value) is int:
            cents = value * _SCALES[digits] if major else value
            if -MAX_CENTS < cents < MAX_CENTS:
                return cents
            raise _NotANumber("is beyond any stake or payout this tool accepts")
        text = _text_of(value)
        if type(text) is str and (decimal != "." or grouping):
            text = _as_written(text, decimal, grouping)
        return _minor_units_of_text(text, major, digits)
    except _NotANumber as problem:
        raise RecordError(RejectReason.BAD_MONEY, f"{field} {_quoted(value)} {problem}") from None


@functools.lru_cache(maxsize=CACHE_LIMIT)  # stakes repeat endlessly: 5, 10, 12.5, ...
def _minor_units_of_text(text: str | bytes, major: bool, digits: int) -> int:
    mantissa, exponent = _decimal(text)
    shift = exponent + digits if major else exponent
    if shift >= 0:
        cents = mantissa * 10**shift
    else:
        cents, rest = divmod(mantissa, 10**-shift)
        if rest:
            if major:
                raise _NotANumber(
                    f"has more decimals than a minor unit of {digits} digits holds"
                    " (it is not rounded)"
                )
            raise _NotANumber("is not a whole number of minor units")
    if not -MAX_CENTS < cents < MAX_CENTS:
        raise _NotANumber("is beyond any stake or payout this tool accepts")
    return cents


_Raw = msgspec.Raw
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MILLIS_PER_MINUTE, _MINUTES_PER_DAY = 60_000, 1_440
#: The epoch milliseconds of the years handled (YEARS), first included, last excluded.
_FIRST_MS, _END_MS = (
    int((datetime(year, 1, 1, tzinfo=UTC) - _EPOCH).total_seconds()) * 1000
    for year in (YEARS.start, YEARS.stop)
)
_SECONDS = tuple(f"{second:02d}" for second in range(60))
_MILLIS = tuple(f".{milli:03d}Z" for milli in range(1000))
_CLOCK = tuple(f"T{minute // 60:02d}:{minute % 60:02d}:" for minute in range(_MINUTES_PER_DAY))
#: Epoch minute -> "YYYY-MM-DDTHH:MM:" (a round's times share a few minutes; emptied past
#: the bound, so memory stays flat).
_MINUTES: dict[int, str] = {}


def epoch_time(value: object, *, milliseconds: bool, field: str) -> str:
    """An instant given as epoch milliseconds (``milliseconds=True``) or seconds, as an int,
    a :class:`msgspec.Raw` (``1790000004.532``) or a text of digits, in the store's form
    ``YYYY-MM-DDTHH:MM:SS.mmmZ`` (UTC; digits past the millisecond truncated, toward the
    past, as the validator truncates a timestamp's fraction).

    >>> epoch_time(1790000004532, milliseconds=True, field="startDate")
    '2026-09-21T14:13:24.532Z'
    >>> epoch_time(msgspec.Raw(b"1790000004.5"), milliseconds=False, field="opened")
    '2026-09-21T14:13:24.500Z'
    >>> epoch_time("1790000019", milliseconds=False, field="closed")
    '2026-09-21T14:13:39.000Z'
    >>> epoch_time(msgspec.Raw(b"1790000004.53289"), milliseconds=False, field="opened")
    '2026-09-21T14:13:24.532Z'
    >>> epoch_time(99999999999999999, milliseconds=True, field="endDate")
    Traceback (most recent call last):
    ...
    reporting.ingest.rejects.RecordError: endDate 99999999999999999 is outside the years 1900-9998
    >>> epoch_time(False, milliseconds=True, field="endDate")
    Traceback (most recent call last):
    ...
    reporting.ingest.rejects.RecordError: endDate False is not a number of epoch milliseconds
    """
    kind = type(value)
    if kind is int:
        millis = value if milliseconds else value * 1000
    elif kind is _Raw and len(value) <= 24:  # type: ignore[arg-type]
        millis = _millis_of_digits(bytes(value), milliseconds)  # type: ignore[arg-type]
        if millis is None:
            millis = _millis_of(value, milliseconds, field)
    else:
        millis = _millis_of(value, milliseconds, field)
    if not _FIRST_MS <= millis < _END_MS:
        raise RecordError(
            RejectReason.BAD_VALUE,
            f"{field} {_quoted(value)} is outside the years {YEARS.start}-{YEARS.stop - 1}",
        )
    minute, rest = divmod(millis, _MILLIS_PER_MINUTE)
    prefix = _MINUTES.get(minute)
    if prefix is None:
        prefix = _minute_prefix(minute)
    second, milli = divmod(rest, 1000)
    return prefix + _SECONDS[second] + _MILLIS[milli]


def _millis_of_digits(text: bytes, milliseconds: bool) -> int | None:
    """The epoch milliseconds of digits with or without a fraction (the common case, in a
    few steps), truncated past the millisecond; None for any other text."""
    units, dot, fraction = text.partition(b".")
    if not units.isdigit() or (dot and not fraction.isdigit()):
        return None
    if milliseconds:
        return int(units)
    return int((units + fraction + b"000")[: len(units) + 3])


def _millis_of(value: object, milliseconds: bool, field: str) -> int:
    """The epoch milliseconds of a number's text (floored past the millisecond)."""
    try:
        mantissa, exponent = _decimal(_text_of(value))
    except _NotANumber as problem:
        raise RecordError(
            RejectReason.BAD_VALUE,
            f"{field} {shown(value)} {problem} of epoch {_unit(milliseconds)}",
        ) from None
    shift = exponent if milliseconds else exponent + 3
    return mantissa * 10**shift if shift >= 0 else mantissa // 10**-shift


def _unit(milliseconds: bool) -> str:
    return "milliseconds" if milliseconds else "seconds"


def _minute_prefix(minute: int) -> str:
    day, in_day = divmod(minute, _MINUTES_PER_DAY)
    prefix = (_EPOCH + timedelta(days=day)).date().isoformat() + _CLOCK[in_day]
    if len(_MINUTES) >= CACHE_LIMIT:
        _MINUTES.clear()
    _MINUTES[minute] = prefix
    return prefix


def _offset_text(offset: timedelta | None) -> str:
    """A UTC offset as a clock writes it, to the second: ``-00:44:30``, not Python's
    ``-1 day, 23:15:30``.

    >>> _offset_text(timedelta(minutes=-44, seconds=-30)), _offset_text(timedelta(hours=1))
    ('-00:44:30', '+01:00:00')
    """
    if offset is None:
        return "none"
    seconds = int(offset.total_seconds())
    sign, seconds = ("-" if seconds < 0 else "+"), abs(seconds)
    return f"{sign}{seconds // 3600:02d}:{seconds % 3600 // 60:02d}:{seconds % 60:02d}"


def local_time(text: str, zone: ZoneInfo, field: str) -> str:
    """A time written without its UTC offset, read as the clock time of ``zone``: the text
    with the offset it had there written after it (spaces around it dropped). A text with an
    offset, or not of a timestamp's form, is returned as it is (the round log's checks judge
    it). A clock time the zone's clocks showed twice (the hour they went back) cannot be
    placed: a ``naive_timestamp`` reject; one they skipped (the hour they went forward) never
    was, nor a date that is none or of a year outside :data:`YEARS`: a ``bad_value``, said of
    the text as written.

    >>> rome = ZoneInfo("Europe/Rome")
    >>> local_time("2026-10-03 18:40:41.5", rome, "t"), local_time("2026-12-01T08:00:00", rome, "t")
    ('2026-10-03 18:40:41.5+02:00', '2026-12-01T08:00:00+01:00')
    >>> local_time("2026-10-03T18:40:41Z", rome, "t")
    '2026-10-03T18:40:41Z'
    >>> local_time("2026-10-25T02:30:00", rome, "settledAt")
    Traceback (most recent call last):
    ...
    reporting.ingest.rejects.RecordError: settledAt '2026-10-25T02:30:00' is a clock time of Europe/Rome that came twice (its clocks went back that night): write it with its UTC offset
    """
    match = TIMESTAMP.fullmatch(text.strip())
    if match is None or match.group(5) is not None:
        return text
    date, hour, minutes = match.group(1, 2, 3)
    if int(date[:4]) not in YEARS:
        raise RecordError(
            RejectReason.BAD_VALUE,
            f"{field} {shown(text)}: year outside {YEARS.start}-{YEARS.stop - 1}",
        )
    try:
        wall = datetime.fromisoformat(f"{date}T{hour}{minutes}")
        first, second = wall.replace(tzinfo=zone), wall.replace(tzinfo=zone, fold=1)
        offset = first.utcoffset()
        if offset != second.utcoffset():
            kept = first.astimezone(UTC).astimezone(zone).replace(tzinfo=None) == wall
            raise RecordError(
                RejectReason.NAIVE_TIMESTAMP if kept else RejectReason.BAD_VALUE,
                f"{field} {shown(text)} is a clock time of {zone.key} that "
                + (
                    "came twice (its clocks went back that night): write it with its UTC offset"
                    if kept
                    else "never was (its clocks went forward past it)"
                ),
            )
    except (ValueError, OverflowError):
        raise not_a_time(text, field, minutes) from None
    if offset is None or offset.seconds % 60 or offset.microseconds:
        raise RecordError(
            RejectReason.BAD_VALUE,
            f"{field} {shown(text)}: {zone.key}'s offset then ({_offset_text(offset)}) is not"
            " whole minutes",
        )
    minutes = offset // timedelta(minutes=1)
    sign = "-" if minutes < 0 else "+"
    return f"{text.strip()}{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"
