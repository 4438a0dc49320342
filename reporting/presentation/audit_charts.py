"""The audit report's charts, drawn once as SVG for the report's view model: per game, its
tables' outcomes (at most :data:`MAX_TABLES`, in charts of :data:`TABLES_PER_CHART`), its bet
types' RTP against their band, and its RTP day by day (:mod:`reporting.presentation.charts`
draws them; :mod:`reporting.presentation.audit_report` places them)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from markupsafe import Markup

from reporting.figures.audit_records import MoneyRow, MonthAudit
from reporting.figures.statistics import CONFIDENCE_LABEL, OutcomeTest, RtpCheck, played_rtp
from reporting.presentation import charts
from reporting.presentation.audit_shoes import svg_markup
from reporting.presentation.listing import first_of

__all__ = ["MAX_TABLES", "TABLES_PER_CHART", "Chart", "GameCharts", "game_charts"]

#: Tables of a game listed in the money table (by table id) and drawn in its outcome chart
#: (those outside their 99.9% region first, then by table id) at most; the rest are counted
#: (the workbook's Money and Outcome tests sheets hold them all): 500 tables printed 165
#: pages in 1.6 GB.
MAX_TABLES = 50
#: Tables in one outcome chart: as printed (10 cm wide, 2.1 cm a table), ten keep a chart
#: on one A4 page, which a drawing cannot break across (a game's 50 ran off its page).
TABLES_PER_CHART = 10


@dataclass(frozen=True, slots=True)
class Chart:
    """A chart of the report: its heading and its drawing, or in its place one line saying
    why it is not drawn."""

    heading: str
    svg: Markup | None
    note: str | None = None
    left_out: int = 0  # tables the drawing leaves out (of at most MAX_TABLES drawn)
    legend: str | None = None  # what the drawing's lines are, with their figures


@dataclass(frozen=True, slots=True)
class GameCharts:
    """The charts of one game."""

    game_id: str
    charts: tuple[Chart, ...]


def _game_charts(
    game_id: str,
    tests: Sequence[OutcomeTest],
    checks: Sequence[RtpCheck],
    days: dict[str, list[MoneyRow]],
    names: dict[str, str],
) -> tuple[Chart, ...]:
    """A game's charts: its tables' outcomes, its bet types' RTP, its RTP day by day (one
    line per currency)."""
    drawn = []
    if tests:
        drawn += _outcome_charts(game_id, tests)
    if checks and all(charts.band_clipped(check) for check in checks):
        drawn.append(
            Chart(
                f"Actual RTP per bet type against its {CONFIDENCE_LABEL} band",
                None,
                f"not drawn: the band of each of its {len(checks)} bet types is wider than"
                f" ±{charts.BAND_CLIP_POINTS} points: at this volume only a large departure"
                " from the theory stands out (the workbook's RTP checks sheet gives every"
                " figure)" + _outside_note(checks),
            )
        )
    elif checks:
        labels = charts.ChartLabels(
            f"Actual RTP per bet type of {game_id}",
            f"Actual RTP of {len(checks)} bet types of {game_id} against their theoretical"
            f" RTP and {CONFIDENCE_LABEL} band;"
            f" {sum(check.flagged for check in checks)} outside the band.",
        )
        drawn.append(
            Chart(
                f"Actual RTP per bet type against its {CONFIDENCE_LABEL} band",
                svg_markup(charts.rtp_chart_svg(checks, labels, names)),
            )
        )
    theoretical = played_rtp(check for check in checks if check.game_id == game_id)
    reference = "" if theoretical is None else ", with the theoretical RTP of its play (dashed)"
    for currency, rows in sorted(days.items()):
        labels = charts.ChartLabels(
            f"Cumulative RTP of {game_id} ({currency})",
            f"The RTP of {game_id} in {currency} so far after each of {len(rows)} days{reference}.",
        )
        drawn.append(
            Chart(
                f"Cumulative RTP per day ({currency})",
                svg_markup(charts.cumulative_rtp_svg(rows, labels, theoretical)),
                legend=charts.cumulative_legend(rows, theoretical),
            )
        )
    return tuple(drawn)


def _outside_note(checks: Sequence[RtpCheck]) -> str:
    """What a note of bands too wide to draw adds of the bet types outside their band."""
    outside = sum(check.flagged for check in checks)
    if not outside:
        return ""
    which = "bet type lies" if outside == 1 else "bet types lie"
    return f"; {outside} {which} outside its band all the same, named in the summary"


def _outcome_charts(game_id: str, tests: Sequence[OutcomeTest]) -> list[Chart]:
    """A game's tables' outcomes: at most :data:`MAX_TABLES` of them drawn, those outside
    their 99.9% region first, then by table id, in their order; in charts of at most
    :data:`TABLES_PER_CHART` tables, one after another."""
    flagged = sum(test.flagged for test in tests)
    drawn = first_of(tests, MAX_TABLES, key=lambda test: (not test.flagged, test.table_id))
    some = "" if len(drawn) == len(tests) else f"{len(drawn)} of the "
    tables = "table" if len(tests) == 1 else "tables"
    heading = "Outcomes against expectation, per table"
    shown = []
    for start in range(0, len(drawn), TABLES_PER_CHART):
        part = drawn[start : start + TABLES_PER_CHART]
        which = "" if len(part) == len(drawn) else f" ({start + 1}-{start + len(part)})"
        labels = charts.ChartLabels(
            f"Banker, Player and Tie per table of {game_id}{which}",
            f"Banker, Player and Tie shares of {some}{len(tests)} {tables} of {game_id}{which}"
            f" against their exact probabilities; {flagged} outside the {CONFIDENCE_LABEL} region.",
        )
        shown.append(Chart(heading + which, svg_markup(charts.outcome_chart_svg(part, labels))))
    shown[-1] = replace(shown[-1], left_out=len(tests) - len(drawn))
    return shown


def game_charts(
    tests: Sequence[OutcomeTest],
    checks: Sequence[RtpCheck],
    audit: MonthAudit,
    names: dict[str, str],
) -> tuple[GameCharts, ...]:
    """The charts of each game with tables, bets or days, in game order."""
    days: dict[str, dict[str, list[MoneyRow]]] = {}
    for row in audit.money:
        if row.table_id is None and row.day is not None:
            days.setdefault(row.game_id, {}).setdefault(row.currency, []).append(row)
    games = sorted({t.game_id for t in tests} | {c.game_id for c in checks} | set(days))
    return tuple(
        GameCharts(
            game_id,
            _game_charts(
                game_id,
                [test for test in tests if test.game_id == game_id],
                [check for check in checks if check.game_id == game_id],
                days.get(game_id, {}),
                names,
            ),
        )
        for game_id in games
    )
