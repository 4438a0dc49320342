"""The audit report's charts as self-contained SVG: outcome frequencies against expectation,
actual RTP per bet type against its 99.9% band, and the cumulative RTP of a game over the
month's days.

Drawn as :mod:`reporting.presentation.roads` draws the scoreboard: pure functions, records in,
SVG text out, the same bytes for the same records; no script, no external reference, a
``role="img"`` with its ``<title>`` and ``aria-label``. Every figure stays exact (integer
counts and cents, ``Fraction``) until it becomes a coordinate, which is rounded once, half up,
to a tenth of a pixel (:func:`px`). The report is in English (the audit workbook's language):
the few words on the axes are written here; the title and the screen reader sentence are the
caller's.

All three are drawings 380 px wide, so that a phone shows them whole (scaled a little).

>>> from reporting.figures.statistics import OutcomeTest
>>> test = OutcomeTest("g", "T1", 100, 46, 44, 10, 45.86, 44.62, 9.52, 0.05, 0.97)
>>> svg = outcome_chart_svg([test], ChartLabels("Outcomes", "Banker 46, Player 44, Tie 10"))
>>> svg.count('class="bar '), svg.count('class="expected"')
(3, 3)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from xml.sax.saxutils import escape, quoteattr

from reporting.engine.money import round_fraction
from reporting.figures.audit_records import MoneyRow
from reporting.figures.statistics import CONFIDENCE_LABEL, OutcomeTest, RtpCheck
from reporting.presentation.roads import BANKER_COLOUR, PLAYER_COLOUR, TIE_COLOUR

__all__ = [
    "BAND_CLIP_POINTS",
    "WIDTH",
    "band_clipped",
    "ChartLabels",
    "bar_length",
    "cumulative_legend",
    "cumulative_rtp",
    "cumulative_rtp_svg",
    "outcome_chart_svg",
    "percent_text",
    "px",
    "rtp_chart_svg",
]

_FONT = "DejaVu Sans, Verdana, sans-serif"
#: Every chart's width, px.
WIDTH = 380
#: Where the bars and bands begin and end, px (labels to the left, figures to the right).
_PLOT_LEFT, _PLOT_RIGHT = 62, 292
_PLOT = _PLOT_RIGHT - _PLOT_LEFT
#: A 99.9% band wider than this many percentage points either side is drawn clipped, with
#: a "small volume" note (the issue's +-485% on 230 perfect-pair bets).
BAND_CLIP_POINTS = 10
_INK, _FAINT, _BAND = "#212121", "#c8c8c8", "#bbdefb"


@dataclass(frozen=True, slots=True)
class ChartLabels:
    """The words of a chart: a short title (the SVG ``<title>``) and the sentence a screen
    reader says (the ``aria-label``)."""

    title: str
    description: str


def px(value: Fraction | int) -> str:
    """A coordinate, rounded half up to a tenth of a pixel, written without a trailing zero.

    >>> px(Fraction(1, 3)), px(Fraction(5, 2)), px(7), px(Fraction(-1, 20))
    ('0.3', '2.5', '7', '-0.1')
    """
    rounded = round_fraction(Fraction(value), 1)
    return str(rounded.quantize(Decimal(1)) if rounded == rounded.to_integral() else rounded)


def percent_text(value: Fraction, places: int = 2) -> str:
    """A ratio as percent text for a drawing and its legend (``0.9894`` -> ``98.94%``)."""
    return f"{round_fraction(value * 100, places)}%"


def _text(
    x: Fraction | int,
    y: Fraction | int,
    text: str,
    *,
    anchor: str = "start",
    font_size: str = "11",
    **style: str,
) -> str:
    attributes = "".join(
        f' {name.rstrip("_").replace("_", "-")}="{value}"' for name, value in style.items()
    )
    return (
        f'<text x="{px(x)}" y="{px(y)}" text-anchor="{anchor}" font-family="{_FONT}"'
        f' font-size="{font_size}" fill="{_INK}"{attributes}>{escape(text)}</text>'
    )


def _one_game(records: Sequence[OutcomeTest] | Sequence[RtpCheck]) -> None:
    if len({record.game_id for record in records}) > 1:
        raise ValueError("a chart of tables or bet types is of one game")


def _svg_open(height: int, labels: ChartLabels, kind: str) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart {kind}" role="img"'
        f' viewBox="0 0 {WIDTH} {height}" width="{WIDTH}" height="{height}"'
        f" aria-label={quoteattr(labels.description)}>"
        f"<title>{escape(labels.title)}</title>"
    )


# --------------------------------------------------------------------------------------------
# (a) Outcome frequencies against expectation


def bar_length(count: int, rounds: int, scale: Fraction) -> Fraction:
    """The length of an outcome's bar, px, exact: its share of the rounds over the axis's
    full share ``scale`` (``Fraction(3, 5)``: 60% of the rounds is the whole plot).

    >>> bar_length(46, 100, Fraction(3, 5)) == Fraction(46, 100) / Fraction(3, 5) * 230
    True
    """
    if rounds <= 0:
        return Fraction(0)
    return Fraction(count, rounds) / scale * _PLOT


def _outcome_scale(tests: Sequence[OutcomeTest]) -> Fraction:
    """The share the plot's width stands for: 60%, or the largest share rounded up to 10%."""
    largest = max(
        (
            Fraction(count, test.rounds)
            for test in tests
            if test.rounds
            for count in (test.banker, test.player, test.tie)
        ),
        default=Fraction(0),
    )
    tenths = max(6, -(-largest.numerator * 10 // largest.denominator))
    return Fraction(tenths, 10)


_OUTCOME_ROWS = (
    ("banker", "Banker", BANKER_COLOUR),
    ("player", "Player", PLAYER_COLOUR),
    ("tie", "Tie", TIE_COLOUR),
)
_GROUP_HEAD, _BAR_ROW, _GROUP_GAP = 18, 18, 8


def _outcome_group(test: OutcomeTest, top: int, scale: Fraction) -> list[str]:
    verdict = f" · outside the {CONFIDENCE_LABEL} region" if test.flagged else ""
    parts = [
        _text(
            2,
            top + 13,
            f"{test.table_id} · {test.rounds:,} rounds{verdict}",
            font_weight="bold" if test.flagged else "normal",
        )
    ]
    for index, (name, word, colour) in enumerate(_OUTCOME_ROWS):
        y = top + _GROUP_HEAD + index * _BAR_ROW
        count = getattr(test, name)
        length = bar_length(count, test.rounds, scale)
        expected = Fraction(getattr(test, f"expected_{name}"))  # the float, exactly
        share = Fraction(count, test.rounds) if test.rounds else Fraction(0)
        parts.append(_text(_PLOT_LEFT - 6, y + 12, word, anchor="end"))
        parts.append(
            f'<rect class="bar {name}" data-count="{count}" x="{_PLOT_LEFT}" y="{y + 3}"'
            f' width="{px(length)}" height="{_BAR_ROW - 6}" fill="{colour}"/>'
        )
        if test.rounds:
            mark = _PLOT_LEFT + expected / test.rounds / scale * _PLOT
            parts.append(
                f'<path class="expected" d="M{px(mark)} {y}v{_BAR_ROW}" stroke="{_INK}"'
                ' stroke-width="2"/>'
            )
        parts.append(
            _text(
                WIDTH - 2,
                y + 12,
                f"{count:,} ({percent_text(share, 1)})",
                anchor="end",
                font_size="10",
            )
        )
    return parts


def outcome_chart_svg(tests: Sequence[OutcomeTest], labels: ChartLabels) -> str:
    """Banker, Player and Tie of each table of one game: a bar as long as the outcome's share
    of the table's rounds, a black tick where the exact probability puts it, the count and
    share beside it. The axis runs from 0 to 60% (or further, if a share is larger)."""
    _one_game(tests)
    scale = _outcome_scale(tests)
    group = _GROUP_HEAD + len(_OUTCOME_ROWS) * _BAR_ROW + _GROUP_GAP
    axis = 18
    height = len(tests) * group + axis + 4
    parts = [_svg_open(height, labels, "outcomes")]
    ticks = []
    for tenth in range(0, scale.numerator * 10 // scale.denominator + 1):
        x = _PLOT_LEFT + Fraction(tenth, 10) / scale * _PLOT
        # below each table's line of words, never through it
        ticks += (
            f"M{px(x)} {index * group + _GROUP_HEAD}v{group - _GROUP_HEAD}"
            for index in range(len(tests))
        )
        parts.append(_text(x, height - 6, f"{tenth * 10}%", anchor="middle", font_size="9"))
    parts.append(f'<path class="grid" d="{"".join(ticks)}" stroke="{_FAINT}" fill="none"/>')
    for index, test in enumerate(tests):
        parts += _outcome_group(test, index * group, scale)
    parts.append("</svg>")
    return "".join(parts)


# --------------------------------------------------------------------------------------------
# (b) Actual RTP per bet type against its 99.9% band

_RTP_HEAD, _RTP_BAND, _RTP_NOTE = 16, 20, 14


def _points_x(points: Fraction) -> Fraction:
    """The x of a distance from the theoretical RTP, in percentage points (clipped)."""
    clipped = max(min(points, Fraction(BAND_CLIP_POINTS)), Fraction(-BAND_CLIP_POINTS))
    return _PLOT_LEFT + (clipped + BAND_CLIP_POINTS) / (2 * BAND_CLIP_POINTS) * _PLOT


def band_clipped(check: RtpCheck) -> bool:
    """Whether the bet type's 99.9% band is wider than the axis (a small volume)."""
    return Fraction(check.bound) * 100 > BAND_CLIP_POINTS


def _rtp_row(check: RtpCheck, top: int, name: str) -> tuple[list[str], int]:
    """One bet type: its line of words, the band, the theoretical line, the actual dot."""
    actual = check.actual_rtp
    bound_points = Fraction(check.bound) * 100  # the float bound, exactly, in points
    clipped = band_clipped(check)
    actual_text = percent_text(actual) if actual is not None else "no stakes"
    weight = "bold" if check.flagged else "normal"
    parts = [
        _text(2, top + 12, f"{name} · {check.bets:,} bets", font_weight=weight),
        _text(
            WIDTH - 2,
            top + 12,
            f"{actual_text} (theory {percent_text(check.theoretical_rtp)})",
            anchor="end",
            font_size="10",
            font_weight=weight,
        ),
    ]
    y = top + _RTP_HEAD
    left, right = _points_x(-bound_points), _points_x(bound_points)
    parts.append(
        f'<rect class="band{" clipped" if clipped else ""}" x="{px(left)}" y="{y + 4}"'
        f' width="{px(right - left)}" height="{_RTP_BAND - 8}" fill="{_BAND}"/>'
    )
    centre = _points_x(Fraction(0))
    parts.append(
        f'<path class="theoretical" d="M{px(centre)} {y}v{_RTP_BAND}" stroke="{_INK}"'
        ' stroke-width="2"/>'
    )
    if actual is not None:
        distance = (actual - check.theoretical_rtp) * 100
        x, middle = _points_x(distance), y + _RTP_BAND // 2
        colour = BANKER_COLOUR if check.flagged else PLAYER_COLOUR
        if abs(distance) > BAND_CLIP_POINTS:  # a triangle at the axis's end, pointing beyond
            way = 1 if distance > 0 else -1
            parts.append(
                f'<path class="actual off-scale" d="M{px(x - 7 * way)} {middle - 6}'
                f'L{px(x + 3 * way)} {middle}L{px(x - 7 * way)} {middle + 6}Z"'
                f' fill="{colour}" stroke="#fff"/>'
            )
        else:
            parts.append(
                f'<circle class="actual" cx="{px(x)}" cy="{middle}" r="5"'
                f' fill="{colour}" stroke="#fff"/>'
            )
    height = _RTP_HEAD + _RTP_BAND
    if clipped:
        parts.append(
            _text(
                _PLOT_LEFT,
                top + height + 10,
                f"small volume: the band is ±{round_fraction(bound_points, 1)} points, clipped",
                class_="note",
                font_size="10",
                font_style="italic",
            )
        )
        height += _RTP_NOTE
    return parts, height + 6


def rtp_chart_svg(
    checks: Sequence[RtpCheck], labels: ChartLabels, names: Mapping[str, str] | None = None
) -> str:
    """Each bet type's actual RTP (a dot) against its theoretical RTP (the black line) and
    the 99.9% band around it (pale blue), on one axis of percentage points from the
    theoretical RTP, ±:data:`BAND_CLIP_POINTS`. A wider band is drawn to the axis's ends with
    a "small volume" note; an actual RTP beyond the axis is a triangle at its end, pointing
    the way it lies (class off-scale), its figure written beside the row.
    The checks are of one game; ``names`` gives a bet type's name (else its id is shown)."""
    _one_game(checks)
    rows, top = [], 0
    for check in checks:
        parts, height = _rtp_row(check, top, (names or {}).get(check.bet_type, check.bet_type))
        rows += parts
        top += height
    axis = 18
    height = top + axis
    parts = [_svg_open(height, labels, "rtp-bands")]
    ticks = []
    for points in range(-BAND_CLIP_POINTS, BAND_CLIP_POINTS + 1, 5):
        x = _points_x(Fraction(points))
        ticks.append(f"M{px(x)} 0v{top}")
        parts.append(
            _text(x, height - 6, f"{points:+d}" if points else "0", anchor="middle", font_size="9")
        )
    parts.append(f'<path class="grid" d="{"".join(ticks)}" stroke="{_FAINT}" fill="none"/>')
    parts += rows
    parts.append(_text(WIDTH - 2, height - 6, "points", anchor="end", font_size="9"))
    parts.append("</svg>")
    return "".join(parts)


# --------------------------------------------------------------------------------------------
# (c) Cumulative RTP per day of a game


def running_money(days: Sequence[MoneyRow]) -> list[tuple[MoneyRow, int, int]]:
    """Each day row with the month's stakes and payouts so far (cents), in day order. The rows
    must be one game's day rows (every table) in one currency."""
    if len({(row.game_id, row.currency) for row in days}) > 1:
        raise ValueError("a cumulative RTP is of one game in one currency")
    if any(row.day is None or row.table_id is not None for row in days):
        raise ValueError("a cumulative RTP is drawn from a game's day rows of every table")
    if any(type(row.stakes) is not int or type(row.payouts) is not int for row in days):
        raise TypeError("money is integer cents: a day row's stakes or payouts are not")
    stakes = payouts = 0
    running = []
    for row in sorted(days, key=lambda row: row.day):
        stakes += row.stakes
        payouts += row.payouts
        running.append((row, stakes, payouts))
    return running


def cumulative_rtp(days: Sequence[MoneyRow]) -> list[tuple[MoneyRow, Fraction | None]]:
    """Each day row with the RTP of the month so far (cumulative payouts over cumulative
    stakes, exact; ``None`` while nothing is staked), in day order: of
    :func:`running_money`.

    >>> from datetime import date
    >>> rows = [MoneyRow("g", None, date(2026, 10, d), "EUR", 1, 0, 1, 1, s, p)
    ...         for d, s, p in ((1, 100, 50), (2, 100, 150))]
    >>> [rtp for _, rtp in cumulative_rtp(rows)]
    [Fraction(1, 2), Fraction(1, 1)]
    """
    return [
        (row, Fraction(payouts, stakes) if stakes else None)
        for row, stakes, payouts in running_money(days)
    ]


_LINE_TOP, _LINE_HEIGHT = 8, 150


def _line_range(values: list[Fraction]) -> tuple[Fraction, Fraction]:
    """The y axis, in whole percent: the values' span rounded out, at least 2 points."""
    low = min(values) * 100
    high = max(values) * 100
    bottom = Fraction(low.numerator // low.denominator)
    top = Fraction(-(-high.numerator // high.denominator))
    if top - bottom < 2:
        middle = (top + bottom) / 2
        bottom, top = middle - 1, middle + 1
    return bottom, top


def cumulative_rtp_svg(
    days: Sequence[MoneyRow], labels: ChartLabels, theoretical: Fraction | None = None
) -> str:
    """The month's RTP so far after each local day (a line with a dot per day), and the
    theoretical RTP of the game's play as a dashed reference line when given."""
    points = cumulative_rtp(days)
    values = [rtp for _, rtp in points if rtp is not None]
    height = _LINE_TOP + _LINE_HEIGHT + 22
    parts = [_svg_open(height, labels, "cumulative-rtp")]
    if not values:
        parts.append(_text(_PLOT_LEFT, _LINE_TOP + 20, "no stakes this month"))
        parts.append("</svg>")
        return "".join(parts)
    bottom, top = _line_range(values + ([theoretical] if theoretical is not None else []))

    def y_of(ratio: Fraction) -> Fraction:
        return _LINE_TOP + (top - ratio * 100) / (top - bottom) * _LINE_HEIGHT

    # Days placed by their date, so that a day without play leaves its gap on the time axis.
    first_day = points[0][0].day
    span = max((points[-1][0].day - first_day).days, 1)

    def x_of(index: int) -> Fraction:
        return _PLOT_LEFT + Fraction((points[index][0].day - first_day).days, span) * _PLOT

    grid = []
    for label, ratio in ((top, top / 100), (bottom, bottom / 100)):
        grid.append(f"M{_PLOT_LEFT} {px(y_of(ratio))}h{_PLOT}")
        parts.append(
            _text(_PLOT_LEFT - 4, y_of(ratio) + 4, f"{label}%", anchor="end", font_size="9")
        )
    parts.append(f'<path class="grid" d="{"".join(grid)}" stroke="{_FAINT}" fill="none"/>')
    if theoretical is not None:
        y = px(y_of(theoretical))
        parts.append(
            f'<path class="theoretical" d="M{_PLOT_LEFT} {y}h{_PLOT}" stroke="{_INK}"'
            ' stroke-dasharray="5 3"/>'
        )
        parts.append(
            _text(_PLOT_RIGHT + 4, y_of(theoretical) + 4, percent_text(theoretical), font_size="9")
        )
    drawn = [(x_of(i), y_of(rtp), row) for i, (row, rtp) in enumerate(points) if rtp is not None]
    path = "".join(f"{'M' if i == 0 else 'L'}{px(x)} {px(y)}" for i, (x, y, _) in enumerate(drawn))
    parts.append(
        f'<path class="line" d="{path}" stroke="{PLAYER_COLOUR}" stroke-width="2" fill="none"/>'
    )
    for x, y, row in drawn:
        parts.append(
            f'<circle class="day" data-day="{row.day.isoformat()}" cx="{px(x)}" cy="{px(y)}"'
            f' r="2.5" fill="{PLAYER_COLOUR}"/>'
        )
    first, last = points[0][0].day, points[-1][0].day
    parts.append(_text(_PLOT_LEFT, height - 6, first.isoformat(), font_size="9"))
    parts.append(_text(_PLOT_RIGHT, height - 6, last.isoformat(), anchor="end", font_size="9"))
    parts.append("</svg>")
    return "".join(parts)


def cumulative_legend(days: Sequence[MoneyRow], theoretical: Fraction | None) -> str | None:
    """What a cumulative RTP chart's two lines are, with the figure each ends on (the chart's
    one printed figure, the theoretical RTP, was read as the month's); None without stakes."""
    actual = [rtp for _, rtp in cumulative_rtp(days) if rtp is not None]
    if not actual:
        return None
    legend = f"Solid line: the RTP of the month so far, {percent_text(actual[-1])} at its end"
    if theoretical is not None:
        legend += f"; dashed line: the theoretical RTP of its play, {percent_text(theoretical)}"
    return legend + "."
