"""The sample generator's calendar: months, timestamp spellings and sessions."""

from __future__ import annotations

import random
from collections import Counter
from datetime import UTC, datetime

from reporting.sample.calendar import (
    DAY,
    ROUND_GAP,
    Clock,
    epoch_ms,
    month_span,
    pick_style,
    round_starts,
)

# 2026-10-03T18:40:02.120Z, and the night Rome goes back from +02:00 to +01:00.
SUMMER = epoch_ms(datetime(2026, 10, 3, 18, 40, 2, 120_000, tzinfo=UTC))
WINTER = epoch_ms(datetime(2026, 10, 25, 1, 30, tzinfo=UTC))


def test_a_clock_spells_one_instant_three_ways():
    clock = Clock("Europe/Rome")
    assert clock.format(SUMMER, "Z") == "2026-10-03T18:40:02.120Z"
    assert clock.format(SUMMER, "+00:00") == "2026-10-03T18:40:02.120+00:00"
    assert clock.format(SUMMER, "local") == "2026-10-03T20:40:02.120+02:00"
    assert clock.format(SUMMER, "Z", milliseconds=False) == "2026-10-03T18:40:02Z"
    assert clock.format(SUMMER - 120, "Z") == "2026-10-03T18:40:02Z"  # whole seconds: no decimals
    assert clock.naive(SUMMER) == "2026-10-03T18:40:02.120"


def test_a_clock_follows_the_change_of_offset():
    clock = Clock("Europe/Rome")
    assert clock.format(WINTER, "local") == "2026-10-25T02:30:00+01:00"
    assert clock.local_day(WINTER) == "20261025" and clock.local_hour(WINTER) == 2
    assert clock.local_day(epoch_ms(datetime(2026, 10, 2, 22, 30, tzinfo=UTC))) == "20261003"


def test_styles_are_mostly_z():
    assert [pick_style(draw) for draw in (0.0, 0.849, 0.85, 0.929, 0.93, 0.999)] == [
        "Z", "Z", "+00:00", "+00:00", "local", "local",
    ]  # fmt: skip


def test_sessions_deal_the_rounds_asked_for_each_day():
    span = month_span("2026-10", "Europe/Rome")
    starts = round_starts(random.Random(2), span, span[0] + 2 * 3_600_000, 60)
    moments = list(starts)
    assert all(span[0] <= moment < span[1] for moment in moments)
    days = Counter((moment - span[0]) // DAY for moment in moments)
    # 31 days of 24 hours, then the hour October gains in Rome: 60 x 1/24, rounded.
    assert days == {**{day: 60 for day in range(31)}, 31: 2}
    gaps = [later - earlier for earlier, later in zip(moments, moments[1:], strict=False)]
    assert all(gap >= ROUND_GAP[0] for gap in gaps)
