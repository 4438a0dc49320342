"""TEMPORARY stand-in (not committed): replaced by the stream helper's module."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from decimal import Decimal, InvalidOperation

import msgspec

from reporting.ingest.validation import RecordError
from reporting.records import RejectReason


def minor_units(value, *, major, digits, field):
    if isinstance(value, bool) or value is None:
        raise RecordError(RejectReason.BAD_MONEY, f"{field}: {value!r} is not an amount")
    if isinstance(value, msgspec.Raw):
        value = bytes(value).decode()
    try:
        number = Decimal(value) if isinstance(value, str) else Decimal(int(value))
    except (InvalidOperation, ValueError, TypeError):
        raise RecordError(RejectReason.BAD_MONEY, f"{field}: {value!r} is not an amount") from None
    scaled = number.scaleb(digits) if major else number
    if scaled != scaled.to_integral_value():
        raise RecordError(RejectReason.BAD_MONEY, f"{field} {value}: more decimals than the unit")
    return int(scaled)


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def epoch_time(value, *, milliseconds, field):
    if isinstance(value, bool):
        raise RecordError(RejectReason.BAD_VALUE, f"{field}: not a time")
    if isinstance(value, msgspec.Raw):
        value = bytes(value).decode()
    number = Decimal(value) if isinstance(value, str) else Decimal(value)
    ms = int(number if milliseconds else number * 1000)
    moment = _EPOCH + timedelta(milliseconds=ms)
    return moment.isoformat(timespec="milliseconds")[:-6] + "Z"
