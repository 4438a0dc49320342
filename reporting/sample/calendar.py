"""Months, clocks and sessions: when a table deals, and how its timestamps are spelled.

Nothing here reads the clock: a month is a span of UTC epoch milliseconds in a game's time
zone, and a table's round starts are drawn from the table's own random source.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from reporting.errors import InputError
from reporting.records import Month, MonthOutOfRange
from reporting.sample.draws import between

SECOND = 1000
MINUTE = 60 * SECOND
HOUR = 60 * MINUTE
DAY = 24 * HOUR
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)

# Pace of a table: one round about every 45 s, betting open for 15 s, settled 25-40 s in.
ROUND_GAP = (42 * SECOND, 48 * SECOND)
#: The most rounds a table deals in a day, every round at the quickest gap.
MAX_ROUNDS_PER_DAY = DAY // ROUND_GAP[0]
BETTING_OPEN = 15 * SECOND
SETTLE_AFTER = (25 * SECOND, 40 * SECOND)
SESSION_ROUNDS = 20  # with --rounds-per-day, rounds are dealt in sessions of about this many
# Timestamp spellings: "Z", "+00:00", or the game's local offset, all the same instant.
STYLE_WEIGHTS = ((0.85, "Z"), (0.93, "+00:00"), (1.0, "local"))

# --------------------------------------------------------------------------------------------
# Months


def parse_month(text: str) -> tuple[int, int]:
    """Year and month of a ``YYYY-MM`` string.

    >>> parse_month("2026-10")
    (2026, 10)
    >>> parse_month("2026-13")
    Traceback (most recent call last):
    ...
    reporting.errors.InputError: month '2026-13' is not YYYY-MM (e.g. 2026-10)
    """
    try:
        return tuple(Month.parse(text.strip()))  # type: ignore[return-value]
    except AttributeError:  # not text at all
        raise InputError(f"month {text!r} is not YYYY-MM (e.g. 2026-10)") from None
    except MonthOutOfRange as error:
        raise InputError(f"month {error}") from None
    except ValueError:  # not YYYY-MM
        raise InputError(f"month {text!r} is not YYYY-MM (e.g. 2026-10)") from None


def epoch_ms(moment: datetime) -> int:
    """An aware datetime as milliseconds since the epoch."""
    return (moment - EPOCH) // timedelta(milliseconds=1)


def month_span(month: str, timezone: str) -> tuple[int, int]:
    """The month in a time zone as UTC epoch milliseconds, start included, end excluded.

    >>> start, end = month_span("2026-10", "Europe/Rome")
    >>> datetime.fromtimestamp(start / 1000, UTC).isoformat(), (end - start) // 3_600_000
    ('2026-09-30T22:00:00+00:00', 745)
    """
    year, number = parse_month(month)
    zone = ZoneInfo(timezone)
    next_year, next_number = (year + 1, 1) if number == 12 else (year, number + 1)
    start = datetime(year, number, 1, tzinfo=zone)
    end = datetime(next_year, next_number, 1, tzinfo=zone)
    return epoch_ms(start), epoch_ms(end)


# --------------------------------------------------------------------------------------------
# Clocks


# "SS" and "SS.mmm" (whole seconds without decimals) for every millisecond of a minute.
SECONDS = [f"{second:02d}" for second in range(60)]
SECONDS_WITH_MILLISECONDS = [
    f"{second:02d}.{millis:03d}" if millis else f"{second:02d}"
    for second in range(60)
    for millis in range(1000)
]
_HOURS_MINUTES = [f"{minute // 60:02d}:{minute % 60:02d}:" for minute in range(24 * 60)]


class MinutePrefixes(dict[int, str]):
    """Minutes since the epoch -> ``YYYY-MM-DDTHH:MM:``, filled on first use."""

    def __init__(self) -> None:
        super().__init__()
        self._dates: dict[int, str] = {}  # days since the epoch -> "YYYY-MM-DDT"

    def __missing__(self, minute: int) -> str:
        day, minute_of_day = divmod(minute, 24 * 60)
        date = self._dates.get(day)
        if date is None:
            date = self._dates[day] = (EPOCH + timedelta(days=day)).strftime("%Y-%m-%dT")
        if len(self) > 100_000:  # a long month's minutes, twice over: start afresh
            self.clear()
        text = self[minute] = date + _HOURS_MINUTES[minute_of_day]
        return text


class Clock:
    """Formats epoch milliseconds as round-log timestamps in one game's time zone, fast.

    Each distinct minute and hour is computed once; the month has few of them.
    """

    def __init__(self, timezone: str):
        self._zone = ZoneInfo(timezone)
        self._offsets: dict[int, tuple[int, str]] = {}  # UTC hour -> (offset ms, "+hh:mm")
        self.minute_prefixes = MinutePrefixes()  # wall-clock minute -> "YYYY-MM-DDTHH:MM:"
        self._days: dict[int, str] = {}  # local day number -> "YYYYMMDD"

    def offset(self, epoch_ms: int) -> tuple[int, str]:
        """The zone's offset at an instant, in ms and as ``+hh:mm``."""
        hour = epoch_ms // HOUR
        known = self._offsets.get(hour)
        if known is None:
            moment = datetime.fromtimestamp(hour * 3600, self._zone)
            delta = moment.utcoffset() or timedelta(0)
            minutes = int(delta.total_seconds()) // 60
            sign = "+" if minutes >= 0 else "-"
            text = f"{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"
            known = self._offsets[hour] = (minutes * MINUTE, text)
        return known

    def format(self, epoch_ms: int, style: str, milliseconds: bool = True) -> str:
        """``2026-10-03T18:40:02.120Z``, ``...+00:00`` or the local wall time with its offset.

        ``style`` is ``"Z"``, ``"+00:00"`` or ``"local"``.
        """
        if style == "local":
            offset_ms, suffix = self.offset(epoch_ms)
            epoch_ms += offset_ms
        else:
            suffix = style
        minute, within = divmod(epoch_ms, MINUTE)
        if milliseconds:
            return self.minute_prefixes[minute] + SECONDS_WITH_MILLISECONDS[within] + suffix
        return self.minute_prefixes[minute] + SECONDS[within // SECOND] + suffix

    def naive(self, epoch_ms: int) -> str:
        """The UTC wall time without any offset (a timestamp the reader must refuse)."""
        return self.format(epoch_ms, "")

    def local_day(self, epoch_ms: int) -> str:
        """The local calendar date as ``YYYYMMDD`` (for round and shoe ids)."""
        day = (epoch_ms + self.offset(epoch_ms)[0]) // DAY
        text = self._days.get(day)
        if text is None:
            text = self._days[day] = (EPOCH + timedelta(days=day)).strftime("%Y%m%d")
        return text

    def local_hour(self, epoch_ms: int) -> int:
        """The local hour of day, 0-23."""
        return (epoch_ms + self.offset(epoch_ms)[0]) // HOUR % 24


def pick_style(draw: float) -> str:
    """The timestamp spelling of a round, for a uniform draw in [0, 1)."""
    for bound, style in STYLE_WEIGHTS:
        if draw < bound:
            return style
    return "Z"


# --------------------------------------------------------------------------------------------
# Sessions


def round_starts(
    rng: random.Random,
    span: tuple[int, int],
    month_start_utc: int,
    rounds_per_day: int | None,
) -> Iterator[int]:
    """When each round of a table starts: 24 hours a day about every 45 s without end (the
    caller stops at the month's end), or ``rounds_per_day`` a day dealt in sessions."""
    gap = ROUND_GAP
    span_start, span_end = span
    if rounds_per_day is None:
        moment = span_start + rng.randint(1 * SECOND, 8 * SECOND)
        while True:
            yield moment
            moment += between(rng.random(), *gap)
    previous: int | None = None
    for day_start in range(span_start, span_end, DAY):
        day_end = min(day_start + DAY, span_end)
        day = (day_start, day_end)
        for session_start, size in _sessions(rng, day, span, month_start_utc, rounds_per_day):
            moment = session_start
            if previous is not None:
                moment = max(moment, previous + between(rng.random(), *gap))
            for _ in range(size):
                yield moment
                previous = moment
                moment += between(rng.random(), *gap)


def _sessions(
    rng: random.Random,
    day: tuple[int, int],
    span: tuple[int, int],
    month_start_utc: int,
    rounds_per_day: int,
) -> list[tuple[int, int]]:
    """Sessions of about 20 rounds spread over a day; the first day opens with one at the
    month's first minute and one across UTC midnight, the last ends at the month's end."""
    day_start, day_end = day
    rounds = round(rounds_per_day * (day_end - day_start) / DAY)
    if rounds <= 0:
        return []
    count = math.ceil(rounds / SESSION_ROUNDS)
    first_day = day_start == span[0]
    crosses_utc_midnight = first_day and day_start < month_start_utc < day_end
    if crosses_utc_midnight and rounds >= 2:
        count = max(count, 2)
    sizes = [rounds // count + (1 if index < rounds % count else 0) for index in range(count)]
    window = (day_end - day_start) // count
    starts = []
    for index, size in enumerate(sizes):
        slack = window - size * ROUND_GAP[1] - MINUTE
        starts.append(day_start + index * window + rng.randint(0, max(0, slack)))
    if first_day:
        starts[0] = day_start + rng.randint(1 * SECOND, 8 * SECOND)
        if count >= 2 and crosses_utc_midnight:
            starts[1] = month_start_utc - sizes[1] * ROUND_GAP[0] // 2
    if day_end == span[1]:
        starts[-1] = max(day_start, day_end - sizes[-1] * ROUND_GAP[1] - SETTLE_AFTER[1])
    return sorted(zip(starts, sizes, strict=True))
