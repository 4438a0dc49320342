"""The Charts sheet: the cumulative money per day, and per game native charts that read
cells of the workbook (outcomes, RTP against its band, cumulative RTP)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Mapping, Sequence
from fractions import Fraction
from itertools import groupby
from typing import Any

from openpyxl.chart import BarChart, LineChart, Reference, Series
from openpyxl.chart.data_source import StrRef
from openpyxl.chart.series import SeriesLabel
from openpyxl.chart.shapes import GraphicalProperties
from openpyxl.chart.text import RichText, Text
from openpyxl.chart.title import Title
from openpyxl.drawing.text import (
    CharacterProperties,
    Paragraph,
    ParagraphProperties,
    RegularTextRun,
    RichTextProperties,
)
from openpyxl.worksheet._write_only import WriteOnlyWorksheet
from openpyxl.worksheet.pagebreak import Break

from reporting.config.loader import OperatorConfig
from reporting.figures.audit_records import MoneyRow, MonthAudit
from reporting.figures.statistics import CONFIDENCE_LABEL, OutcomeTest, RtpCheck
from reporting.presentation import charts
from reporting.presentation.audit_report import LANGUAGE
from reporting.presentation.audit_xlsx.cells import (
    DATE,
    MONEY,
    PERCENT,
    TEXT,
    _Book,
    _Column,
    _column_number,
    _money,
    _ratio,
    _write_table,
)
from reporting.presentation.audit_xlsx.month import _money_order
from reporting.presentation.audit_xlsx.statistics import _OUTCOME_COLUMNS
from reporting.presentation.bet_words import bet_names

_CUMULATIVE_COLUMNS = (
    _Column("Game", TEXT),
    _Column("Currency", TEXT),
    _Column("Day", DATE),
    _Column("Stakes", MONEY),
    _Column("Payouts", MONEY),
    _Column("Cumulative stakes", MONEY),
    _Column("Cumulative payouts", MONEY),
    _Column("Cumulative RTP", PERCENT),
)


#: Where the charts go on the Charts sheet: beside the table, one under the other.
_CHART_COLUMN = "J"


_CHART_ROWS = 18  # rows from one chart's anchor to the next


#: The outcome bars: the road's colours (Banker red, Player blue, Tie green), the expected
#: count in a light shade of the observed one's.
_OUTCOME_COLOURS = {
    "Banker": "C0392B",
    "Banker expected": "F1A9A0",
    "Player": "1F5FAD",
    "Player expected": "A9C4EB",
    "Tie": "2E8B57",
    "Tie expected": "A8D5BA",
}


_CHART_TITLE_SIZE = 1100  # hundredths of a point


_CHARTS_PER_PAGE = 3  # a game's: outcomes, RTP, cumulative RTP (a second currency: next page)


_CHART_WIDTH, _CHART_HEIGHT = 17.0, 8.0  # centimetres


#: The RTP charts' value axis, as shares: a band wider than this is drawn cut, and named.
_RTP_AXIS = (0.0, 1.5)


def _cumulative_rows(money: Sequence[MoneyRow]) -> list[tuple]:
    """Per game and currency, each local day's stakes and payouts and the month's running
    totals up to it (:func:`reporting.presentation.charts.running_money`), from the Money
    rows of each day (every table)."""
    days = sorted(
        (row for row in money if row.table_id is None and row.day is not None),
        key=_money_order,
    )
    rows = []
    for _key, group in groupby(days, key=lambda row: (row.game_id, row.currency)):
        for row, stakes, payouts in charts.running_money(list(group)):
            rtp = Fraction(payouts, stakes) if stakes else None
            rows.append(
                (
                    *(row.game_id, row.currency, row.day, _money(row.stakes), _money(row.payouts)),
                    *(_money(stakes), _money(payouts), _ratio(rtp)),
                )
            )
    return rows


def _runs(keys: Sequence[Hashable], first_row: int) -> dict[Any, tuple[int, int]]:
    """The first and last sheet row of each key's run of rows (rows of a game lie together)."""
    runs: dict[Any, tuple[int, int]] = {}
    for offset, key in enumerate(keys):
        row = first_row + offset
        runs[key] = (runs[key][0] if key in runs else row, row)
    return runs


def _series(
    sheet: WriteOnlyWorksheet, column: int, rows: tuple[int, int], header_row: int = 1
) -> Series:
    """A chart series: the cells of one column over a run of rows, titled by its header."""
    values = Reference(sheet, min_col=column, min_row=rows[0], max_row=rows[1])
    series = Series(values)
    title = Reference(sheet, min_col=column, min_row=header_row, max_row=header_row)
    series.tx = SeriesLabel(strRef=StrRef(str(title)))
    return series


def _chart_title(text: str) -> Title:
    """A chart title in 11-point bold (the default, 18-point, leaves little room to plot)."""
    font = CharacterProperties(sz=_CHART_TITLE_SIZE, b=True)
    paragraph = Paragraph(
        pPr=ParagraphProperties(defRPr=font), r=[RegularTextRun(rPr=font, t=text)]
    )
    return Title(tx=Text(rich=RichText(p=[paragraph])), overlay=False)


def _chart_frame(chart: BarChart | LineChart, title: str, axis_title: str) -> None:
    chart.title = _chart_title(title)
    chart.width, chart.height = _CHART_WIDTH, _CHART_HEIGHT
    chart.y_axis.title = axis_title
    chart.x_axis.delete = chart.y_axis.delete = False  # openpyxl hides both axes otherwise
    chart.legend.position = "b"


def _outcome_chart(book: _Book, game_id: str, rows: tuple[int, int]) -> BarChart:
    """Observed and expected Banker, Player and Tie per table of a game, as clustered bars,
    from the Outcome tests sheet."""
    sheet = book.sheets["Outcome tests"]
    chart = BarChart()
    chart.type, chart.grouping = "col", "clustered"
    _chart_frame(chart, f"{game_id}: outcomes against expectation", "Rounds")
    for header, colour in _OUTCOME_COLOURS.items():
        series = _series(sheet, _column_number(_OUTCOME_COLUMNS, header), rows)
        series.graphicalProperties.solidFill = colour
        chart.series.append(series)
    table = _column_number(_OUTCOME_COLUMNS, "Table")
    chart.set_categories(Reference(sheet, min_col=table, min_row=rows[0], max_row=rows[1]))
    return chart


def _rtp_chart(
    book: _Book, game_id: str, rows: tuple[int, int], too_wide: Sequence[str]
) -> BarChart:
    """Actual and theoretical RTP per bet type of a game (bars) against the lower and upper
    bound of its 99.9% band (lines), from the RTP checks sheet; bets whose band leaves the
    axis are named in the title (a small volume)."""
    sheet = book.sheets["RTP checks"]
    headers = book.headers["RTP checks"]
    bars = BarChart()
    bars.type, bars.grouping = "col", "clustered"
    title = f"{game_id}: RTP per bet type against its {CONFIDENCE_LABEL} band"
    if too_wide:
        title += f"; small volume, band off the axis: {', '.join(too_wide)}"
    _chart_frame(bars, title, "RTP")
    for header in ("Actual RTP", "Theoretical RTP"):
        bars.series.append(_series(sheet, 1 + headers.index(header), rows))
    lines = LineChart()
    for header in ("Lower bound", "Upper bound"):
        bound = _series(sheet, 1 + headers.index(header), rows)
        bound.marker.symbol, bound.marker.size = "dash", 14  # visible for a single bet type
        # drawn in black: left to the application, LibreOffice drew the dashes white on white
        bound.marker.graphicalProperties = GraphicalProperties(solidFill="000000")
        bound.marker.graphicalProperties.line.solidFill = "000000"
        # a bound is a mark per bet type, not a line from one bet type to the next (a
        # smoothed one, as LibreOffice draws a series with no word on it, dives below 0%)
        bound.smooth = False
        bound.graphicalProperties.line.noFill = True
        lines.series.append(bound)
    bet = 1 + headers.index("Bet")  # by name, as the pages and the report name it
    bars.set_categories(Reference(sheet, min_col=bet, min_row=rows[0], max_row=rows[1]))
    bars.y_axis.scaling.min, bars.y_axis.scaling.max = _RTP_AXIS
    bars.y_axis.number_format = "0%"
    bars += lines
    return bars


def _cumulative_chart(book: _Book, game_id: str, currency: str, rows: tuple[int, int]) -> LineChart:
    """A game's cumulative RTP day by day over the month, from the Charts sheet's table."""
    sheet = book.sheets["Charts"]
    chart = LineChart()
    _chart_frame(chart, f"{game_id}: cumulative RTP per day ({currency})", "RTP")
    series = _series(sheet, _column_number(_CUMULATIVE_COLUMNS, "Cumulative RTP"), rows)
    series.marker.symbol = "circle"  # a month of one day is a point
    series.smooth = False  # the days as they were: LibreOffice smooths a series left unsaid
    chart.series.append(series)
    day = _column_number(_CUMULATIVE_COLUMNS, "Day")
    chart.set_categories(Reference(sheet, min_col=day, min_row=rows[0], max_row=rows[1]))
    # The day of the month alone: 31 labels of "10-01" overlapped, stacked a character a line
    # in LibreOffice (the month is in the title's sheet and the table beside it).
    chart.x_axis.number_format = "d"
    # and on their side: LibreOffice prints every label (it ignores Excel's label skip),
    # and from the 10th the days ran together ("1011121314")
    chart.x_axis.txPr = RichText(
        bodyPr=RichTextProperties(rot=-5_400_000, vert="horz"),
        p=[
            Paragraph(
                pPr=ParagraphProperties(defRPr=CharacterProperties()),
                endParaRPr=CharacterProperties(),
            )
        ],
    )
    chart.y_axis.number_format = "0.0%"
    chart.legend = None
    return chart


def _wide_bands(rtp: Sequence[RtpCheck], names: Mapping[str, str]) -> dict[str, list[str]]:
    """Per game, the bets whose 99.9% band leaves the RTP charts' axis, by name (``names``:
    each bet type's, as the charts' bars name it)."""
    low, high = (Fraction(limit).limit_denominator(100) for limit in _RTP_AXIS)
    wide: dict[str, list[str]] = defaultdict(list)
    for check in rtp:
        bound = Fraction(check.bound)
        if check.theoretical_rtp - bound < low or check.theoretical_rtp + bound > high:
            wide[check.game_id].append(names.get(check.bet_type, check.bet_type))
    return wide


def _write_charts(
    book: _Book,
    config: OperatorConfig,
    audit: MonthAudit,
    outcomes: Sequence[OutcomeTest],
    rtp: Sequence[RtpCheck],
) -> None:
    """The Charts sheet: the table of cumulative stakes and payouts per day, and beside it,
    per game, native charts of its outcomes, its RTP per bet type against the band and its
    cumulative RTP; every chart reads cells of this workbook, no value is retyped."""
    rows = _cumulative_rows(audit.money)
    writer = _write_table(book, "Charts", _CUMULATIVE_COLUMNS, rows)
    wide = _wide_bands(rtp, dict(bet_names(config, LANGUAGE)))
    if wide:
        writer.append([])
    for game_id, bet_types in sorted(wide.items()):
        writer.append(
            [
                (
                    "note",
                    f"{game_id}: {', '.join(bet_types)}: bands wider than the RTP chart's axis"
                    " (a small volume: only a large departure from the theory stands out).",
                )
            ]
        )
    outcome_runs = _runs([test.game_id for test in outcomes], 2)
    rtp_runs = _runs([check.game_id for check in rtp], 2)
    cumulative_runs = _runs([(row[0], row[1]) for row in rows], 2)
    games = sorted({*outcome_runs, *rtp_runs, *(game for game, _ in cumulative_runs)})
    for index, game_id in enumerate(games):
        charts: list[BarChart | LineChart] = []
        if game_id in outcome_runs:
            charts.append(_outcome_chart(book, game_id, outcome_runs[game_id]))
        if game_id in rtp_runs:
            charts.append(_rtp_chart(book, game_id, rtp_runs[game_id], wide.get(game_id, ())))
        charts += [
            _cumulative_chart(book, game_id, currency, run)
            for (game, currency), run in sorted(cumulative_runs.items())
            if game == game_id
        ]
        # A game's charts one under the other, on a printed page of their own.
        # From row 2: LibreOffice prints what lies over the header row on every page.
        top = 2 + index * _CHARTS_PER_PAGE * _CHART_ROWS
        for place, chart in enumerate(charts):
            writer.sheet.add_chart(chart, f"{_CHART_COLUMN}{top + place * _CHART_ROWS}")
        if index:
            writer.sheet.row_breaks.append(Break(id=top - 1))
