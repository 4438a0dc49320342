"""The audit workbook: one ``.xlsx`` for the compliance officer, the same bytes for the same inputs.

Sheets, in order:

* **Summary**: operator, period, as-of date and tool version, then one row per game (rounds,
  bets, stakes, payouts, actual against theoretical and declared RTP, findings by kind), and the
  rejected records of the period by reason.
* **Findings**: every row of the ``findings`` table for the period, by source file and line.
* **Checks not run**: per game, each check that could not judge some rounds (or bets) for want
  of a field the export lacks (no shoe id, no placement time), of how many, and why
  (:mod:`reporting.verify.coverage`); their count is on the Summary.
* **Rejected records**: the lines ingest could not read, of the files behind the period.
* **Ingest log**: every file ever loaded, with what it contributed.
* **Outcome tests** and **RTP checks**: the statistics of :mod:`reporting.figures.statistics`. They are
  two sheets rather than two tables on one so that each keeps a frozen header, an autofilter and
  a header row repeated on every printed page (a sheet has one of each).
* **Pages**: from the monthly job, each game's pages of the month: ready to publish, or
  drafts, with each problem that marks them (a required field missing, a declared RTP the
  theory does not bear out); the count of games with drafts is on the Summary.

Everything that varies comes in as an argument: the as-of date pins the document properties
and the zip entry times, so a regulator can rebuild the file and compare hashes. Text from the
round logs (ids, accounts, messages, raw lines, file names) is untrusted: every text cell is
stored as a string, so a value such as ``=HYPERLINK(...)`` never becomes a formula. Large
sheets stream from SQLite into a write-only workbook, so memory stays flat.
"""

from __future__ import annotations

import contextlib
import math
from collections import Counter, defaultdict
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from fractions import Fraction
from itertools import groupby
from pathlib import Path
from typing import Any

from openpyxl import Workbook
from openpyxl.cell.cell import Cell
from openpyxl.chart import BarChart, LineChart, Reference, Series
from openpyxl.chart.data_source import StrRef
from openpyxl.chart.series import SeriesLabel
from openpyxl.chart.text import RichText, Text
from openpyxl.chart.title import Title
from openpyxl.drawing.text import (
    CharacterProperties,
    Paragraph,
    ParagraphProperties,
    RegularTextRun,
)
from openpyxl.styles import Alignment, Border, Font, PatternFill, Side
from openpyxl.utils import get_column_letter
from openpyxl.worksheet._write_only import WriteOnlyWorksheet
from openpyxl.worksheet.pagebreak import Break

from reporting.config.loader import OperatorConfig
from reporting.engine.games import GameSpec
from reporting.engine.money import cents_to_decimal, round_fraction
from reporting.engine.theory import game_odds
from reporting.figures.audit_records import (
    FINDING_SEVERITY,
    ActivityHour,
    MoneyRow,
    MonthAudit,
    Severity,
)
from reporting.figures.ledger import PeriodLedger
from reporting.figures.regulators import declared_rtp_unsupported
from reporting.figures.statistics import OutcomeTest, RtpCheck, played_rtp
from reporting.files import write_atomically
from reporting.presentation import charts
from reporting.presentation.workbook_base import (
    FONT,
    HEADER_LIMIT,
    LINE_HEIGHT,
    Margins,
    cell_text,
    pin_properties,
    put_value,
    save_workbook,
    set_column_widths,
    set_up_printing,
)
from reporting.records import FINDING_KINDS, REJECT_REASONS, SourceLocation
from reporting.verify.checks import settled_bets
from reporting.verify.run import VerifyResult
from reporting.verify.shoes import ShoeSummary
from reporting.verify.totals import BetTotals

__all__ = ["MONTH_SHEETS", "SHEETS", "ShoeSummary", "write_audit_workbook"]

#: Sheet names, in workbook order.
SHEETS = (
    "Summary",
    "Findings",
    "Void rounds",
    "Money",
    "Activity",
    "Availability gaps",
    "Shoes",
    "Limits",
    "Disclosure check",
    "Checks not run",
    "Rejected records",
    "Ingest log",
    "Outcome tests",
    "RTP checks",
    "Charts",
    "Pages",
    "Sign-off",
)
#: The sheets written only with the month's audit records (``audit``); Shoes only with
#: ``shoes``. Without either, the workbook holds the other sheets, in the same order.
MONTH_SHEETS = frozenset(
    {
        "Void rounds",
        "Money",
        "Activity",
        "Availability gaps",
        "Limits",
        "Disclosure check",
        "Charts",
        "Sign-off",
    }
)

MONEY_FORMAT = "#,##0.00"
COUNT_FORMAT = "#,##0"
PERCENT_FORMAT = "0.00%"
DATE_FORMAT = "yyyy-mm-dd"

# Column kinds: how a value is stored, formatted and measured.
TEXT, WRAP, COUNT, LINE, MONEY, PERCENT, EXPECTED, STAT, P_VALUE, DATE, FLAG = (
    "text",
    "wrap",
    "count",
    "line",
    "money",
    "percent",
    "expected",
    "stat",
    "p_value",
    "date",
    "flag",
)
_TEXT_KINDS = frozenset({TEXT, WRAP, FLAG})
_NUMBER_FORMATS = {
    COUNT: COUNT_FORMAT,
    LINE: "0",
    MONEY: MONEY_FORMAT,
    PERCENT: PERCENT_FORMAT,
    EXPECTED: "#,##0.0",
    STAT: "0.00",
    P_VALUE: "0.0000",
    DATE: DATE_FORMAT,
}

#: Typeface of every cell: openpyxl's own default, named so no reader substitutes another.
_FONT = FONT
_HEADER_FILL = PatternFill("solid", start_color="FFD9E1F2")
_FLAGGED_FILL = PatternFill("solid", start_color="FFFCE4E4")
_ALERT_COLOR = "FF9C0006"
_RULE = Side(style="thin", color="FFA6A6A6")
_GRID = Border(left=_RULE, right=_RULE, top=_RULE, bottom=_RULE)
#: The most lines a wrapped row is given.
_MAX_LINES = 6
_MARGINS = Margins(sides=0.4, top_bottom=0.6, header_footer=0.25)


@dataclass(frozen=True, slots=True)
class _Column:
    header: str
    kind: str
    cap: int = 40  # widest the column gets, in characters
    rotate: bool = False  # header written upwards (narrow count columns)


@dataclass(frozen=True, slots=True)
class _Alert:
    """A value to emphasise on its own (a non-zero finding count)."""

    value: object


def _shown_width(kind: str, value: object) -> int:
    """Characters a value takes once formatted, to size its column."""
    if value is None:
        return 0
    if isinstance(value, _Alert):
        value = value.value
    if kind in _TEXT_KINDS:
        return max((len(line) for line in str(value).splitlines()), default=0)
    if kind == COUNT:
        return len(f"{value:,}")
    if kind == LINE:
        return len(str(value))
    if kind == MONEY:
        return len(f"{value:,.2f}")
    if kind == PERCENT:
        return len(f"{value * 100:.2f}%")
    if kind == EXPECTED:
        return len(f"{value:,.1f}")
    if kind == STAT:
        return len(f"{value:.2f}")
    if kind == P_VALUE:
        return 6
    return 10  # dates


def _wrapped_lines(text: str, width: int) -> int:
    """Lines a text takes when wrapped at spaces into ``width`` characters (long words split)."""
    lines = 0
    for paragraph in text.splitlines() or [""]:
        lines += 1
        used = 0
        for word in paragraph.split():
            if used and used + 1 + len(word) <= width:
                used += 1 + len(word)
                continue
            if used:
                lines += 1
            extra, rest = divmod(len(word) - 1, width)  # a word wider than a line is split
            lines += extra
            used = rest + 1
    return lines


class _Styles:
    """The workbook's cell styles, built once; each new cell copies one.

    A style is named by (kind, variant): the kind of a column (text, money, ...) or of a
    free-form cell (header, title, label, note); the variant ``None`` for a table cell (ruled),
    ``"flagged"`` (a row outside the statistical bound), ``"total"``, ``"alert"`` (a non-zero
    count) or ``"free"`` (a value outside any table, unruled).
    """

    VARIANTS = (None, "flagged", "total", "alert", "free")

    def __init__(self, host: WriteOnlyWorksheet):
        self.host = host
        self._arrays: dict[tuple[str, str | None], object] = {}
        for kind in (*_TEXT_KINDS, *_NUMBER_FORMATS):
            for variant in self.VARIANTS:
                self._arrays[(kind, variant)] = self._make(kind, variant)
        bold = Font(**_FONT, bold=True)
        self._arrays[("header", None)] = self._build(
            font=bold,
            fill=_HEADER_FILL,
            border=_GRID,
            alignment=Alignment(vertical="bottom", wrap_text=True),
        )
        self._arrays[("header", "rotated")] = self._build(
            font=bold,
            fill=_HEADER_FILL,
            border=_GRID,
            alignment=Alignment(horizontal="center", vertical="bottom", text_rotation=90),
        )
        top = Alignment(vertical="top")
        self._arrays[("title", None)] = self._build(
            font=Font(**{**_FONT, "size": 14}, bold=True), alignment=Alignment(vertical="center")
        )
        self._arrays[("label", None)] = self._build(font=bold, alignment=top)
        self._arrays[("note", None)] = self._build(font=Font(**_FONT, italic=True), alignment=top)

    def _build(self, **attributes: object) -> object:
        cell = Cell(self.host, row=1, column=1)
        for name, value in attributes.items():
            setattr(cell, name, value)
        # openpyxl's private style array: copying it into a new cell is 25 times faster than
        # the public attributes (which hash each style again); openpyxl is pinned below 3.2
        # for it (pyproject.toml, checked by tests/test_packaging.py).
        return cell._style

    def _make(self, kind: str, variant: str | None) -> object:
        attributes: dict[str, object] = {
            "font": Font(**_FONT),
            "alignment": Alignment(
                vertical="top",
                wrap_text=kind == WRAP or None,
                horizontal="center" if kind == FLAG else None,
            ),
        }
        if variant != "free":
            attributes["border"] = _GRID
        if kind in _NUMBER_FORMATS:
            attributes["number_format"] = _NUMBER_FORMATS[kind]
        if variant == "flagged":
            attributes["fill"] = _FLAGGED_FILL
            attributes["font"] = Font(**_FONT, bold=kind == FLAG)
        elif variant == "total":
            attributes["font"] = Font(**_FONT, bold=True)
        elif variant == "alert":
            attributes["font"] = Font(**_FONT, bold=True, color=_ALERT_COLOR)
        return self._build(**attributes)

    def cell(
        self, sheet: WriteOnlyWorksheet, kind: str, value: object, variant: str | None
    ) -> Cell:
        """A styled cell for a write-only sheet; text always stays text, never a formula."""
        if isinstance(value, _Alert):
            value = value.value
            variant = variant or ("alert" if value else None)
        cell = Cell(sheet, row=1, column=1, style_array=self._arrays[(kind, variant)])
        if value is not None:
            textual = kind in _TEXT_KINDS or kind in ("header", "title", "label", "note")
            put_value(cell, cell_text(value) if textual else value)
        return cell


class _SheetWriter:
    """Writes one table (optionally below a few title rows) into a write-only sheet.

    A write-only sheet takes its column widths, panes and row heights before the rows they
    concern: widths come from the caller (measured in memory or by SQL), and each wrapped row
    gets a height from its longest text, given just before the row and dropped after it so
    memory stays flat however many rows stream through.
    """

    def __init__(
        self,
        book: _Book,
        title: str,
        columns: Sequence[_Column],
        content_widths: Sequence[int],
        *,
        header_row: int = 1,
    ):
        self.book = book
        self.columns = columns
        self.header_row = header_row
        self.rows_written = 0
        self.next_row = 1
        self.sheet = sheet = book.workbook.create_sheet(title)
        book.sheets[title] = sheet
        book.headers[title] = [column.header for column in columns]
        self.widths: list[int] = []
        header_lines = 1
        header_height = LINE_HEIGHT
        for column, content in zip(columns, content_widths, strict=True):
            if column.rotate:
                width = max(content, 3)
                header_height = max(header_height, 6.5 * len(column.header) + 10)
            else:
                longest_word = max(len(word) for word in column.header.split())
                header_need = (
                    len(column.header)
                    if len(column.header) <= max(content, 12)
                    else max(longest_word, math.ceil(len(column.header) / 2))
                )
                width = min(max(content, header_need, 4), column.cap)
                header_lines = max(header_lines, _wrapped_lines(column.header, width))
            self.widths.append(width)
        set_column_widths(sheet, [width + 2 for width in self.widths])
        self.header_height = max(header_height, LINE_HEIGHT * header_lines)
        self.wrapped = [index for index, column in enumerate(columns) if column.kind == WRAP]
        sheet.freeze_panes = f"A{header_row + 1}"
        set_up_printing(
            sheet,
            orientation="landscape",
            margins=_MARGINS,
            header=(
                title,
                f"{book.operator}, period {book.period}",
                f"as of {book.as_of.isoformat()}",
            ),
            footer_left=f"baccarat-report {book.tool_version}",
            page_count="Page &P of &N",
        )
        sheet.print_title_rows = f"{header_row}:{header_row}"

    def _put(self, cells: list[Cell], height: float | None = None) -> None:
        row = self.next_row
        if height is not None:
            self.sheet.row_dimensions[row].height = height
        self.sheet.append(cells)
        if height is not None:
            del self.sheet.row_dimensions[row]
        self.next_row += 1

    def append(
        self,
        kinds_and_values: Iterable[tuple[str, object]],
        variant: str | None = "free",
        height: float | None = None,
    ) -> None:
        """A free-form row (title, labels, notes), unruled unless a variant says otherwise."""
        styles = self.book.styles
        cells = []
        for kind, value in kinds_and_values:
            free_form = kind in ("header", "title", "label", "note")
            cells.append(styles.cell(self.sheet, kind, value, None if free_form else variant))
        self._put(cells, height)

    def header(self) -> None:
        """The table's header row, at ``header_row``."""
        assert self.next_row == self.header_row, "the header lands where the panes froze"
        styles = self.book.styles
        self._put(
            [
                styles.cell(
                    self.sheet, "header", column.header, "rotated" if column.rotate else None
                )
                for column in self.columns
            ],
            self.header_height,
        )

    def rows(
        self,
        rows: Iterable[Sequence[object]],
        flagged_column: int | None = None,
        variant_of: Callable[[Sequence[object]], str | None] | None = None,
    ) -> None:
        """Table rows; with ``flagged_column``, rows whose value there is "yes" are emphasised;
        with ``variant_of``, each row takes the variant it gives (``"flagged"``, ``"total"``)."""
        for row in rows:
            if variant_of is not None:
                variant = variant_of(row)
            elif flagged_column is not None and row[flagged_column] == "yes":
                variant = "flagged"
            else:
                variant = None
            self.row(row, variant)
            self.rows_written += 1

    def row(self, row: Sequence[object], variant: str | None) -> None:
        """One table row; on its own (not through :meth:`rows`) it lies outside the filter."""
        styles = self.book.styles
        sheet = self.sheet
        lines = 1
        for index in self.wrapped:
            value = row[index]
            if value is not None:
                lines = max(lines, _wrapped_lines(str(value), self.widths[index] + 1))
        self._put(
            [
                styles.cell(sheet, column.kind, value, variant)
                for column, value in zip(self.columns, row, strict=True)
            ],
            LINE_HEIGHT * min(lines, _MAX_LINES) if lines > 1 else None,
        )

    def finish_table(self) -> None:
        """The autofilter over the header and the rows written so far."""
        last = get_column_letter(len(self.columns))
        self.sheet.auto_filter.ref = (
            f"A{self.header_row}:{last}{self.header_row + self.rows_written}"
        )


def _content_widths(columns: Sequence[_Column], rows: Sequence[Sequence[object]]) -> list[int]:
    widths = [0] * len(columns)
    for row in rows:
        for index, (column, value) in enumerate(zip(columns, row, strict=True)):
            widths[index] = max(widths[index], _shown_width(column.kind, value))
    return widths


@dataclass
class _Book:
    workbook: Workbook
    styles: _Styles
    operator: str
    period: str
    as_of: date
    tool_version: str
    #: The sheets written so far, by title (charts reference their cells).
    sheets: dict[str, WriteOnlyWorksheet] = field(default_factory=dict)
    headers: dict[str, list[str]] = field(default_factory=dict)  # each table's, by sheet


def _ratio(value: Fraction | None) -> Decimal | None:
    """A ratio (an RTP) for a percentage cell: six decimals, exact rounding."""
    return None if value is None else round_fraction(value, 6)


def _yes_no(flag: bool) -> str:
    return "yes" if flag else "no"


def _money_header(label: str, currencies: set[str]) -> str:
    """``Stakes (EUR)`` when every game plays in one currency; else see the Currency column."""
    return f"{label} ({next(iter(currencies))})" if len(currencies) == 1 else label


# Long on purpose: one writer per sheet, listed in SHEETS order, the arguments passed through.
def write_audit_workbook(
    path: Path,
    ledger: PeriodLedger,
    config: OperatorConfig,
    result: VerifyResult,
    outcomes: Sequence[OutcomeTest],
    rtp: Sequence[RtpCheck],
    *,
    as_of: date,
    tool_version: str,
    publishing: Mapping[str, Sequence[str]] | None = None,
    audit: MonthAudit | None = None,
    shoes: Sequence[ShoeSummary] | None = None,
) -> None:
    """Write the audit workbook of ``result.month`` (or of all months) to ``path``, atomically.

    ``publishing`` (the monthly job's) gives each game's problems that make its pages drafts,
    not for publication; without it (``verify``), the Pages sheet says no page was written.

    ``result``, ``outcomes`` and ``rtp`` are what :func:`reporting.verify.verify`,
    :func:`~reporting.figures.statistics.outcome_tests` and :func:`~reporting.figures.statistics.rtp_checks`
    returned for the same period; ``ledger``
    (:func:`~reporting.figures.ledger.period_ledger`) holds its findings, rejects and ingest log. ``audit`` (the month's registers, money, activity, limits, disclosures and
    provenance) adds the sheets of :data:`MONTH_SHEETS`, ``shoes`` the Shoes sheet; without
    them those sheets are left out. ``as_of`` pins the document dates and the zip entry times:
    the same database and arguments give the same bytes. The file appears whole or not at all.
    """
    period = result.month or "all"
    workbook = Workbook(write_only=True)
    pin_properties(
        workbook,
        as_of=as_of,
        tool_version=tool_version,
        title=cell_text(f"Audit workbook, {config.name}, period {period}", HEADER_LIMIT),
    )
    # Styles are registered through a cell of some sheet: a scratch one, removed unwritten.
    scratch = workbook.create_sheet("styles")
    book = _Book(workbook, _Styles(scratch), config.name, period, as_of, tool_version)
    workbook.remove(scratch)
    currencies = {game.currency for game in config.games.values()}
    writers: dict[str, Callable[[], None]] = {
        "Summary": lambda: _write_summary(
            book, ledger, config, result, rtp, currencies, publishing
        ),
        "Findings": lambda: _write_findings(book, ledger, currencies),
        "Checks not run": lambda: _write_checks_not_run(book, result),
        "Rejected records": lambda: _write_rejects(book, ledger),
        "Ingest log": lambda: _write_ingest_log(book, ledger),
        "Outcome tests": lambda: _write_outcome_tests(book, result, outcomes),
        "RTP checks": lambda: _write_rtp_checks(book, config, rtp, currencies),
        "Pages": lambda: _write_pages(book, config, publishing),
    }
    if shoes is not None:
        writers["Shoes"] = lambda: _write_shoes(book, shoes)
    if audit is not None:
        writers |= {
            "Void rounds": lambda: _write_void_rounds(book, audit, currencies),
            "Money": lambda: _write_money(book, audit),
            "Activity": lambda: _write_activity(book, config, audit),
            "Availability gaps": lambda: _write_gaps(book, audit),
            "Limits": lambda: _write_limits(book, audit),
            "Disclosure check": lambda: _write_disclosures(book, audit),
            "Charts": lambda: _write_charts(book, audit, outcomes, rtp),
            "Sign-off": lambda: _write_sign_off(book, ledger, audit),
        }

    try:
        for name in SHEETS:
            if name in writers:
                writers[name]()
        write_atomically(Path(path), lambda handle: save_workbook(workbook, handle, as_of))
    except BaseException:
        _discard(workbook)
        raise


# --- sheets ------------------------------------------------------------------------------------


@dataclass
class _Play:
    """What was played on a game (or several) over settled rounds: every bet, from verify's
    totals (a bet of a type the engine does not settle included), and the theory of the bet
    types with one, from the RTP checks."""

    bets: int = 0
    stakes: int = 0  # cents
    payouts: int = 0  # cents
    theory: list[RtpCheck] = field(default_factory=list)  # the bet types with a theory

    def add(self, totals: BetTotals) -> None:
        self.bets += totals.bets
        self.stakes += totals.stakes
        self.payouts += totals.payouts

    def add_theory(self, check: RtpCheck) -> None:
        self.theory.append(check)

    @property
    def actual_rtp(self) -> Fraction | None:
        return Fraction(self.payouts, self.stakes) if self.stakes else None

    @property
    def theoretical_rtp(self) -> Fraction | None:
        """The exact RTP of each bet type with one, weighted by its stakes."""
        return played_rtp(self.theory)


def _write_summary(
    book: _Book,
    ledger: PeriodLedger,
    config: OperatorConfig,
    result: VerifyResult,
    rtp: Sequence[RtpCheck],
    currencies: set[str],
    publishing: Mapping[str, Sequence[str]] | None = None,
) -> None:
    findings = ledger.findings_by_game
    extra_kinds = sorted(
        {kind for counts in findings.values() for kind in counts} - set(FINDING_KINDS)
    )
    kinds = (*FINDING_KINDS, *extra_kinds)
    columns = _summary_columns(kinds, currencies)
    rows, total = _summary_rows(config, result, rtp, findings, kinds, currencies)
    meta = [
        ("Period", TEXT, book.period),
        ("As of", DATE, book.as_of),
        ("Tool version", TEXT, f"baccarat-report {book.tool_version}"),
        ("Rounds checked", COUNT, result.rounds_checked),
        ("Bets checked", COUNT, result.bets_checked),
        ("Bets not verified", COUNT, result.bets_unverified),
        ("Checks not run", COUNT, len(result.checks_not_run)),
    ]
    if publishing is not None:  # the pages of the month: games whose pages are drafts
        drafts = sum(1 for game in config.games if publishing.get(game))
        meta.append(("Games with draft pages", COUNT, _Alert(drafts)))
    rejects = ledger.rejects_by_reason
    reasons = (*REJECT_REASONS, *sorted(set(rejects) - set(REJECT_REASONS)))
    widths = _content_widths(columns, [*rows, total])
    widths[0] = max(
        widths[0],
        *(len(label) for label, _, _ in meta),
        *(len(reason) for reason in reasons),
        len("Rejected records"),
    )
    writer = _SheetWriter(book, "Summary", columns, widths, header_row=len(meta) + 3)
    writer.append([("title", f"Audit workbook: {book.operator}")], height=21)
    for label, kind, value in meta:
        writer.append([("label", label), (kind, value)])
    writer.append([])
    writer.header()
    writer.rows(rows)
    writer.finish_table()
    writer.row(total, "total")
    writer.append([])
    settled = settled_bets(config.games.values())
    unsettled = any(bet_type not in settled for _, bet_type in result.bet_totals)
    for note in _summary_notes(one_currency=len(currencies) == 1, unsettled=unsettled):
        writer.append([("note", note)])
    writer.append([])
    _write_summary_rejects(writer, rejects, reasons, by_month=ledger.month is not None)


def _write_summary_rejects(
    writer: _SheetWriter, rejects: Mapping[str, int], reasons: Sequence[str], *, by_month: bool
) -> None:
    """The Summary's table of the period's rejected lines by reason."""
    writer.append([("header", "Rejected records"), ("header", "Lines")])
    for reason in reasons:
        writer.append([(TEXT, reason), (COUNT, _Alert(rejects.get(reason, 0)))], None)
    writer.append([(TEXT, "Total"), (COUNT, sum(rejects.values()))], "total")
    if by_month:
        writer.append(
            [
                (
                    "note",
                    "Rejected lines of the files that loaded rounds of this month, and of files"
                    " that loaded none (see the Rejected records sheet).",
                )
            ]
        )


def _summary_columns(kinds: Sequence[str], currencies: set[str]) -> list[_Column]:
    """The per-game table's columns: one count per finding kind, upright headers."""
    return [
        _Column("Game", TEXT),
        _Column("Jurisdiction", TEXT),
        _Column("Currency", TEXT),
        _Column("Rounds settled", COUNT),
        _Column("Rounds void", COUNT),
        _Column("Bets", COUNT),
        _Column(_money_header("Stakes", currencies), MONEY),
        _Column(_money_header("Payouts", currencies), MONEY),
        _Column("Actual RTP", PERCENT),
        _Column("Theoretical RTP", PERCENT),
        _Column("Declared RTP", PERCENT),
        *(_Column(kind, COUNT, rotate=True) for kind in kinds),
        _Column("Findings", COUNT),
    ]


def _plays(result: VerifyResult, rtp: Sequence[RtpCheck]) -> tuple[dict[str, _Play], _Play]:
    """What was played on each game, and on all of them."""
    play: dict[str, _Play] = defaultdict(_Play)
    all_play = _Play()
    for (game_id, _bet_type), totals in sorted(result.bet_totals.items()):
        play[game_id].add(totals)
        all_play.add(totals)
    for check in rtp:
        play[check.game_id].add_theory(check)
        all_play.add_theory(check)
    return play, all_play


def _summary_rows(
    config: OperatorConfig,
    result: VerifyResult,
    rtp: Sequence[RtpCheck],
    findings: Mapping[str, Mapping[str, int]],
    kinds: Sequence[str],
    currencies: set[str],
) -> tuple[list[tuple], tuple]:
    """A row per game (configured, played or with findings), and the All games row."""
    rounds: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for (game_id, _table), counts in result.tables.items():
        rounds[game_id][0] += counts.rounds
        rounds[game_id][1] += counts.void
    play, all_play = _plays(result, rtp)
    game_ids = sorted(set(config.games) | set(rounds) | set(play) | set(findings))
    rows = []
    for game_id in game_ids:
        game = config.games.get(game_id)
        settled, void = rounds.get(game_id, (0, 0))
        game_play = play.get(game_id, _Play())
        counts = findings.get(game_id, {})
        rows.append(
            (
                game_id,
                game.jurisdiction if game else None,
                game.currency if game else None,
                settled,
                void,
                game_play.bets,
                cents_to_decimal(game_play.stakes),
                cents_to_decimal(game_play.payouts),
                _ratio(game_play.actual_rtp),
                _ratio(game_play.theoretical_rtp),
                _declared(game),
                *(_Alert(counts.get(kind, 0)) for kind in kinds),
                _Alert(sum(counts.values())),
            )
        )
    one_currency = len(currencies) == 1
    total = (
        "All games",
        None,
        next(iter(currencies)) if one_currency else None,
        sum(settled for settled, _ in rounds.values()),
        sum(void for _, void in rounds.values()),
        all_play.bets,
        cents_to_decimal(all_play.stakes) if one_currency else None,
        cents_to_decimal(all_play.payouts) if one_currency else None,
        _ratio(all_play.actual_rtp) if one_currency else None,
        _ratio(all_play.theoretical_rtp) if one_currency else None,
        None,
        *(sum(counts.get(kind, 0) for counts in findings.values()) for kind in kinds),
        sum(sum(counts.values()) for counts in findings.values()),
    )
    return rows, total


def _declared(game: GameSpec | None) -> object:
    """A game's declared RTP as a share, emphasised when the theory of its bets does not
    bear it out (its pages are drafts: the Pages sheet says why)."""
    if game is None or game.declared_rtp is None:
        return None
    share = game.declared_rtp.scaleb(-2)
    return _Alert(share) if declared_rtp_unsupported(game, game_odds(game)) else share


def _summary_notes(*, one_currency: bool, unsettled: bool) -> list[str]:
    """The notes under the per-game table (``unsettled``: some bets are of a type the engine
    does not settle)."""
    notes = [
        "Bets, stakes and payouts are those of settled rounds (a void round refunds its bets),"
        " as in the RTP checks sheet.",
        "Theoretical RTP of a game: the exact RTP of each bet type weighted by its stakes.",
    ]
    if unsettled:
        notes.append(
            "Bets of a type this tool does not settle (unverified_bet) count in the bets, stakes,"
            " payouts and actual RTP, not in the theoretical RTP nor in the RTP checks sheet."
        )
    if not one_currency:
        notes.append(
            "Amounts are in each game's currency: the All games row adds no amounts across"
            " currencies."
        )
    return notes


def _money(cents: int | None) -> Decimal | None:
    return None if cents is None else cents_to_decimal(cents)


def _extent_widths(columns: Sequence[_Column], extents: Sequence[int | None]) -> list[int]:
    """Content widths of a table streamed from the store, from the widest value of each field
    (a text's length, or the largest number, which is then formatted), before its first row."""
    widths = []
    for column, value in zip(columns, extents, strict=True):
        if value is None:
            widths.append(0)
        elif column.kind in _TEXT_KINDS:
            widths.append(value)
        else:
            widths.append(
                _shown_width(column.kind, _money(value) if column.kind == MONEY else value)
            )
    return widths


#: Width of the reviewer's remarks column, in characters.
_REMARKS_WIDTH = 28


def _write_findings(book: _Book, ledger: PeriodLedger, currencies: set[str]) -> None:
    """Every finding of the period, readable in print: its severity, the bet's account and
    stake (joined from the bets table as the findings stream from the store), one source column
    and an empty column for the reviewer's remarks."""
    columns = [
        _Column("Severity", TEXT),
        _Column("Kind", TEXT),
        _Column("Game", TEXT),
        _Column("Round", TEXT, cap=24),
        _Column("Bet", TEXT, cap=16),
        _Column("Account", TEXT, cap=16),
        _Column(_money_header("Stake", currencies), MONEY),
        _Column(_money_header("Expected payout", currencies), MONEY),
        _Column(_money_header("Logged payout", currencies), MONEY),
        _Column("Rule", WRAP, cap=20),
        _Column("Source", WRAP, cap=30),
        _Column("Message", WRAP, cap=50),
        _Column("Remarks", WRAP, cap=_REMARKS_WIDTH),
    ]
    severity_width = max(len(severity) for severity in Severity)
    extents = (severity_width, *ledger.findings.extents, _REMARKS_WIDTH)
    writer = _SheetWriter(book, "Findings", columns, _extent_widths(columns, extents))
    writer.header()
    writer.rows(
        (
            *(_severity(line.kind), line.kind, line.game_id, line.round_id, line.bet_id),
            *(line.account, _money(line.stake), _money(line.expected_payout)),
            *(_money(line.logged_payout), line.rule),
            *(str(SourceLocation(line.source_file, line.source_line)), line.message, None),
        )
        for line in ledger.findings
    )
    writer.finish_table()


def _severity(kind: str) -> str | None:
    """A finding kind's severity, as text (None for a kind this version does not know)."""
    severity = FINDING_SEVERITY.get(kind)
    return None if severity is None else str(severity)


def _write_checks_not_run(book: _Book, result: VerifyResult) -> None:
    """Per game, each check that could not judge some records, of how many, and why."""
    columns = [
        _Column("Game", TEXT),
        _Column("Check", TEXT),
        _Column("Not run on", COUNT),
        _Column("Of", COUNT),
        _Column("Unit", TEXT),
        _Column("Why", WRAP, cap=50),
    ]
    rows = [
        (entry.game_id, entry.check, entry.records, entry.of, entry.unit, entry.why)
        for entry in result.checks_not_run
    ]
    writer = _SheetWriter(book, "Checks not run", columns, _content_widths(columns, rows))
    writer.header()
    writer.rows(rows)
    writer.finish_table()


def _write_pages(
    book: _Book, config: OperatorConfig, publishing: Mapping[str, Sequence[str]] | None
) -> None:
    """Each game's pages of the month: ready to publish, or a draft and each reason why (the
    problems its pages are marked for, and the exit code counts). Empty but for its header
    from ``verify``, which writes no page."""
    columns = [
        _Column("Game", TEXT),
        _Column("Draft", FLAG),
        _Column("Why not for publication", WRAP, cap=90),
    ]
    rows: list[tuple[object, ...]] = []
    for game_id in sorted(config.games) if publishing is not None else ():
        problems = publishing.get(game_id, ())
        rows += [(game_id, "yes", problem) for problem in problems] or [(game_id, "no", None)]
    writer = _SheetWriter(book, "Pages", columns, _content_widths(columns, rows))
    writer.header()
    writer.rows(rows, flagged_column=1)
    writer.finish_table()


def _write_rejects(book: _Book, ledger: PeriodLedger) -> None:
    columns = [
        _Column("File", WRAP, cap=28),
        _Column("Line", LINE),
        _Column("Source", WRAP, cap=32),
        _Column("Reason", TEXT),
        _Column("Round", TEXT, cap=28),
        _Column("Message", WRAP, cap=50),
        _Column("Raw line", WRAP, cap=70),
    ]
    widths = _extent_widths(columns, ledger.rejects.extents)
    writer = _SheetWriter(book, "Rejected records", columns, widths)
    writer.header()
    writer.rows(
        (line.file_name, line.line, str(SourceLocation(line.file_name, line.line)))
        + (line.reason, line.round_id, line.message, line.raw_text)
        for line in ledger.rejects
    )
    writer.finish_table()


def _write_ingest_log(book: _Book, ledger: PeriodLedger) -> None:
    columns = [
        _Column("File", WRAP, cap=36),
        _Column("Companion file", WRAP, cap=30),
        _Column("SHA-256", WRAP, cap=33),
        _Column("Size (bytes)", COUNT),
        _Column("Format", TEXT),
        # No ingest time: the workbook depends on the inputs alone, so a re-run (or a new
        # database of the same logs) reproduces it byte for byte.
        _Column("Lines read", COUNT),
        _Column("Rounds loaded", COUNT),
        _Column("Rounds in period", COUNT),
        _Column("Bets loaded", COUNT),
        _Column("Duplicates skipped", COUNT),
        _Column("Rejected", COUNT),
    ]
    rows = [
        (
            *(item.file_name, item.companion_name, item.sha256, item.size, item.format),
            *(item.lines_read, item.rounds_loaded, item.rounds_in_period, item.bets_loaded),
            *(item.duplicates_skipped, item.rejected),
        )
        for item in ledger.ingest
    ]
    writer = _SheetWriter(book, "Ingest log", columns, _content_widths(columns, rows))
    writer.header()
    writer.rows(rows)
    writer.finish_table()


_OUTCOME_COLUMNS = (
    _Column("Game", TEXT),
    _Column("Table", TEXT),
    _Column("Rounds settled", COUNT),
    _Column("Rounds void", COUNT),
    _Column("Banker", COUNT),
    _Column("Banker expected", EXPECTED),
    _Column("Player", COUNT),
    _Column("Player expected", EXPECTED),
    _Column("Tie", COUNT),
    _Column("Tie expected", EXPECTED),
    _Column("Chi-square (2 df)", STAT),
    _Column("p-value", P_VALUE),
    _Column("Outside 99.9%", FLAG),
)


def _column_number(columns: Sequence[_Column], header: str) -> int:
    """The 1-based column of a header (a chart's reference into a sheet)."""
    return 1 + [column.header for column in columns].index(header)


def _write_outcome_tests(
    book: _Book, result: VerifyResult, outcomes: Sequence[OutcomeTest]
) -> None:
    columns = _OUTCOME_COLUMNS
    rows = []
    for test in outcomes:
        counts = result.tables.get((test.game_id, test.table_id))
        rows.append(
            (
                test.game_id,
                test.table_id,
                test.rounds,
                counts.void if counts is not None else None,
                test.banker,
                test.expected_banker,
                test.player,
                test.expected_player,
                test.tie,
                test.expected_tie,
                test.chi_square,
                test.p_value,
                _yes_no(test.flagged),
            )
        )
    writer = _SheetWriter(book, "Outcome tests", columns, _content_widths(columns, rows))
    writer.header()
    writer.rows(rows, flagged_column=len(columns) - 1)
    writer.finish_table()


def _write_rtp_checks(
    book: _Book, config: OperatorConfig, rtp: Sequence[RtpCheck], currencies: set[str]
) -> None:
    columns = [
        _Column("Game", TEXT),
        _Column("Bet type", TEXT),
        _Column("Currency", TEXT),
        _Column("Bets", COUNT),
        _Column(_money_header("Stakes", currencies), MONEY),
        _Column(_money_header("Payouts", currencies), MONEY),
        _Column("Actual RTP", PERCENT),
        _Column("Theoretical RTP", PERCENT),
        _Column("Actual - theoretical", PERCENT),
        _Column("Bound (99.9%, ±)", PERCENT),
        _Column("Lower bound", PERCENT),
        _Column("Upper bound", PERCENT),
        _Column("z-score", STAT),
        _Column("Outside 99.9%", FLAG),
    ]
    rows = []
    for check in rtp:
        game = config.games.get(check.game_id)
        actual = check.actual_rtp
        rows.append(
            (
                check.game_id,
                check.bet_type,
                game.currency if game else None,
                check.bets,
                cents_to_decimal(check.stakes),
                cents_to_decimal(check.payouts),
                _ratio(actual),
                _ratio(check.theoretical_rtp),
                None if actual is None else _ratio(actual - check.theoretical_rtp),
                _ratio(Fraction(check.bound)),
                _ratio(check.theoretical_rtp - Fraction(check.bound)),
                _ratio(check.theoretical_rtp + Fraction(check.bound)),
                check.z_score,
                _yes_no(check.flagged),
            )
        )
    writer = _SheetWriter(book, "RTP checks", columns, _content_widths(columns, rows))
    writer.header()
    writer.rows(rows, flagged_column=len(columns) - 1)
    writer.finish_table()


# --- the month's sheets (with the audit records) ---------------------------------------------


def _write_table(
    book: _Book,
    title: str,
    columns: Sequence[_Column],
    rows: Sequence[Sequence[object]],
    variant_of: Callable[[Sequence[object]], str | None] | None = None,
) -> _SheetWriter:
    """A sheet holding one table of rows known in memory (widths measured from them)."""
    writer = _SheetWriter(book, title, columns, _content_widths(columns, rows))
    writer.header()
    writer.rows(rows, variant_of=variant_of)
    writer.finish_table()
    return writer


def _write_void_rounds(book: _Book, audit: MonthAudit, currencies: set[str]) -> None:
    """The void register: every void round of the month, why, and what its bets got back (a
    row whose refunds fall short of its stakes is emphasised)."""
    columns = [
        _Column("Round", TEXT, cap=28),
        _Column("Game", TEXT),
        _Column("Table", TEXT),
        _Column("Shoe", TEXT, cap=24),
        _Column("Hand", LINE),
        _Column("Settled at (UTC)", TEXT),
        _Column("Reason", WRAP, cap=40),
        _Column("Bets", COUNT),
        _Column("Currency", TEXT),
        _Column(_money_header("Stakes", currencies), MONEY),
        _Column(_money_header("Refunded", currencies), MONEY),
        _Column("Source", WRAP, cap=36),
    ]
    rows = [
        (
            *(void.round_id, void.game_id, void.table_id, void.shoe_id, void.hand_no),
            *(void.settled_at, void.void_reason, void.bets, void.currency),
            *(_money(void.stakes), _money(void.refunded)),
            str(SourceLocation(void.source_file, void.source_line)),
        )
        for void in audit.void_rounds
    ]
    _write_table(
        book, "Void rounds", columns, rows, lambda row: "flagged" if row[10] < row[9] else None
    )


#: What the Money sheet's Table column says on a row of every table.
_ALL_TABLES = "All tables"


def _money_order(row: MoneyRow) -> tuple:
    """Per game and currency: the month, then each table, then each day."""
    level = 0 if row.table_id is None and row.day is None else 1 if row.day is None else 2
    return (row.game_id, row.currency, level, row.table_id or "", row.day or date.min)


def _write_money(book: _Book, audit: MonthAudit) -> None:
    """Money of settled rounds per game and currency: the month (bold), each table, each local
    day, with the gross gaming revenue; no row adds two currencies."""
    columns = [
        _Column("Game", TEXT),
        _Column("Currency", TEXT),
        _Column("Table", TEXT),
        _Column("Day", DATE),
        _Column("Rounds settled", COUNT),
        _Column("Rounds void", COUNT),
        _Column("Bets", COUNT),
        _Column("Accounts", COUNT),
        _Column("Stakes", MONEY),
        _Column("Payouts", MONEY),
        _Column("GGR", MONEY),
    ]
    rows = [
        (
            *(row.game_id, row.currency, row.table_id or _ALL_TABLES, row.day),
            *(row.rounds, row.void_rounds, row.bets, row.accounts),
            *(_money(row.stakes), _money(row.payouts), _money(row.ggr)),
        )
        for row in sorted(audit.money, key=_money_order)
    ]
    writer = _write_table(
        book,
        "Money",
        columns,
        rows,
        lambda row: "total" if row[2] == _ALL_TABLES and row[3] is None else None,
    )
    writer.append([])
    for note in (
        "Per game and currency: the month (bold), then each table, then each local day of the"
        " game's time zone. GGR: stakes less payouts.",
        "Amounts are in the currency of their row: no figure adds two currencies.",
    ):
        writer.append([("note", note)])


def _activity_order(hour: ActivityHour) -> tuple:
    return (hour.game_id, hour.table_id, hour.day, hour.hour)


def _write_activity(book: _Book, config: OperatorConfig, audit: MonthAudit) -> None:
    """Play per table, local day and hour."""
    columns = [
        _Column("Game", TEXT),
        _Column("Table", TEXT),
        _Column("Day", DATE),
        _Column("Hour", LINE),
        _Column("Rounds", COUNT),
        _Column("Bets", COUNT),
        _Column("Currency", TEXT),
        _Column("Stakes", MONEY),
    ]
    currency = {game_id: game.currency for game_id, game in config.games.items()}
    rows = [
        (
            *(hour.game_id, hour.table_id, hour.day, hour.hour, hour.rounds, hour.bets),
            *(currency.get(hour.game_id), _money(hour.stakes)),
        )
        for hour in sorted(audit.activity, key=_activity_order)
    ]
    _write_table(book, "Activity", columns, rows)


def _write_gaps(book: _Book, audit: MonthAudit) -> None:
    """The stretches without a round at a table announced as always open."""
    columns = [
        _Column("Game", TEXT),
        _Column("Table", TEXT),
        _Column("After round", TEXT, cap=28),
        _Column("Before round", TEXT, cap=28),
        _Column("Start (UTC)", TEXT),
        _Column("End (UTC)", TEXT),
        _Column("Minutes", COUNT),
    ]
    rows = [
        (gap.game_id, gap.table_id, gap.after_round, gap.before_round, gap.start, gap.end)
        + (gap.minutes,)
        for gap in audit.gaps
    ]
    _write_table(book, "Availability gaps", columns, rows)


def _write_shoes(book: _Book, shoes: Sequence[ShoeSummary]) -> None:
    """Per shoe: its hands and outcomes, pairs, cards dealt; a shoe with findings emphasised."""
    columns = [
        _Column("Game", TEXT),
        _Column("Table", TEXT),
        _Column("Shoe", TEXT, cap=28),
        _Column("First settlement (UTC)", TEXT),
        _Column("Last settlement (UTC)", TEXT),
        _Column("Hands", COUNT),
        _Column("Banker", COUNT),
        _Column("Player", COUNT),
        _Column("Tie", COUNT),
        _Column("Banker pairs", COUNT),
        _Column("Player pairs", COUNT),
        _Column("Cards dealt", COUNT),
        _Column("Void rounds", COUNT),
        _Column("Findings", COUNT),
    ]
    ordered = sorted(
        shoes, key=lambda shoe: (shoe.game_id, shoe.table_id, shoe.first_settled_at, shoe.shoe_id)
    )
    rows = [
        (
            *(shoe.game_id, shoe.table_id, shoe.shoe_id),
            *(shoe.first_settled_at, shoe.last_settled_at, shoe.rounds),
            *(shoe.banker_wins, shoe.player_wins, shoe.ties),
            *(shoe.banker_pairs, shoe.player_pairs, shoe.cards_dealt, shoe.void_rounds),
            shoe.findings,
        )
        for shoe in ordered
    ]
    _write_table(book, "Shoes", columns, rows, lambda row: "flagged" if row[-1] else None)


def _write_limits(book: _Book, audit: MonthAudit) -> None:
    """The configured stake limits, what ``stake_out_of_limits`` is read against."""
    columns = [
        _Column("Game", TEXT),
        _Column("Bet type", TEXT),
        _Column("Currency", TEXT),
        _Column("Minimum", MONEY),
        _Column("Maximum", MONEY),
        _Column("Below the minimum", TEXT),
        _Column("Above the maximum", TEXT),
    ]
    rows = [
        (limit.game_id, limit.bet_type, limit.currency, _money(limit.minimum))
        + (_money(limit.maximum), limit.below_minimum, limit.above_maximum)
        for limit in sorted(audit.limits, key=lambda limit: (limit.game_id, limit.bet_type))
    ]
    _write_table(book, "Limits", columns, rows)


def _percent_share(percent: Decimal | Fraction | None) -> Decimal | None:
    """A figure in percent as the share a percentage cell holds."""
    if percent is None:
        return None
    if isinstance(percent, Fraction):
        return _ratio(percent / 100)
    return percent.scaleb(-2)


def _write_disclosures(book: _Book, audit: MonthAudit) -> None:
    """Each game's published figure beside what it rests on; a row with warnings emphasised
    (its pages are drafts)."""
    columns = [
        _Column("Game", TEXT),
        _Column("Regulator", TEXT),
        _Column("Published figure", PERCENT),
        _Column("Reference month", TEXT),
        _Column("Updated on", DATE),
        _Column("Rounds", COUNT),
        _Column("Currency", TEXT),
        _Column("Stakes", MONEY),
        _Column("Payouts", MONEY),
        _Column("Declared RTP", PERCENT),
        _Column("Declared RTP reference", WRAP, cap=30),
        _Column("Best theoretical RTP", PERCENT),
        _Column("Warnings", WRAP, cap=60),
    ]
    rows = [
        (
            *(check.game_id, check.regulator, _percent_share(check.win_percentage)),
            *(check.reference_month, check.updated_on, check.rounds, check.currency),
            *(_money(check.stakes), _money(check.payouts), _percent_share(check.declared_rtp)),
            check.declared_rtp_reference,
            _percent_share(check.best_theoretical_rtp),
            "\n".join(check.warnings) or None,
        )
        for check in sorted(audit.disclosures, key=lambda check: check.game_id)
    ]
    _write_table(
        book, "Disclosure check", columns, rows, lambda row: "flagged" if row[-1] else None
    )


# --- charts ------------------------------------------------------------------------------------

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
    axis are named in the title (insufficient volume)."""
    sheet = book.sheets["RTP checks"]
    headers = book.headers["RTP checks"]
    bars = BarChart()
    bars.type, bars.grouping = "col", "clustered"
    title = f"{game_id}: RTP per bet type against its 99.9% band"
    if too_wide:
        title += f"; insufficient volume, band off the axis: {', '.join(too_wide)}"
    _chart_frame(bars, title, "RTP")
    for header in ("Actual RTP", "Theoretical RTP"):
        bars.series.append(_series(sheet, 1 + headers.index(header), rows))
    lines = LineChart()
    for header in ("Lower bound", "Upper bound"):
        bound = _series(sheet, 1 + headers.index(header), rows)
        bound.marker.symbol, bound.marker.size = "dash", 14  # visible for a single bet type
        lines.series.append(bound)
    bet_type = 1 + headers.index("Bet type")
    bars.set_categories(Reference(sheet, min_col=bet_type, min_row=rows[0], max_row=rows[1]))
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
    chart.series.append(series)
    day = _column_number(_CUMULATIVE_COLUMNS, "Day")
    chart.set_categories(Reference(sheet, min_col=day, min_row=rows[0], max_row=rows[1]))
    chart.x_axis.number_format = "mm-dd"
    chart.y_axis.number_format = "0.0%"
    chart.legend = None
    return chart


def _wide_bands(rtp: Sequence[RtpCheck]) -> dict[str, list[str]]:
    """Per game, the bet types whose 99.9% band leaves the RTP charts' axis."""
    low, high = (Fraction(limit).limit_denominator(100) for limit in _RTP_AXIS)
    wide: dict[str, list[str]] = defaultdict(list)
    for check in rtp:
        bound = Fraction(check.bound)
        if check.theoretical_rtp - bound < low or check.theoretical_rtp + bound > high:
            wide[check.game_id].append(check.bet_type)
    return wide


def _write_charts(
    book: _Book, audit: MonthAudit, outcomes: Sequence[OutcomeTest], rtp: Sequence[RtpCheck]
) -> None:
    """The Charts sheet: the table of cumulative stakes and payouts per day, and beside it,
    per game, native charts of its outcomes, its RTP per bet type against the band and its
    cumulative RTP; every chart reads cells of this workbook, no value is retyped."""
    rows = _cumulative_rows(audit.money)
    writer = _write_table(book, "Charts", _CUMULATIVE_COLUMNS, rows)
    wide = _wide_bands(rtp)
    if wide:
        writer.append([])
    for game_id, bet_types in sorted(wide.items()):
        writer.append(
            [
                (
                    "note",
                    f"{game_id}: too few bets for a useful band on {', '.join(bet_types)}"
                    " (insufficient volume): its band leaves the RTP chart's axis.",
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


# --- sign-off ----------------------------------------------------------------------------------

_SIGN_OFF_COLUMNS = (
    _Column("Finding kind", TEXT),
    _Column("Severity", TEXT),
    _Column("Findings", COUNT),
    _Column("Remarks", WRAP, cap=48),
)
#: The reviewer's block: what they fill in, and how tall each box is (points).
_REVIEWER_FIELDS = (("Name", None), ("Role", None), ("Date", None), ("Signature", 45.0))
_INPUT_HEADERS = ("File", "SHA-256", "Size (bytes)", "Format", "Profile", "Rounds loaded")
_SHA_WIDTH = 33  # a SHA-256 in two lines


def _write_sign_off(book: _Book, ledger: PeriodLedger, audit: MonthAudit) -> None:
    """The page the reviewer signs: the period, the operator, a block to fill in (name, role,
    date, signature), a remarks row per finding kind that occurred, then the provenance
    (tool, configuration, store digest, every input file with its hash)."""
    counts: Counter[str] = Counter()
    for by_kind in ledger.findings_by_game.values():
        counts.update(by_kind)
    kinds = [kind for kind in FINDING_KINDS if counts[kind]]
    kinds += sorted(set(counts) - set(FINDING_KINDS))
    rows = [(kind, _severity(kind), counts[kind], None) for kind in kinds]
    provenance = audit.provenance
    labels = ("Configuration SHA-256", "Store digest (SHA-256)")
    widths = _content_widths(_SIGN_OFF_COLUMNS, rows)
    widths[0] = max(
        widths[0],
        *(len(label) for label in labels),
        *(min(len(item.file_name), 30) for item in provenance.inputs),
    )
    widths[1] = _SHA_WIDTH
    widths[2] = max(widths[2], len("Size (bytes)"))
    widths[3] = 48
    writer = _SheetWriter(
        book, "Sign-off", _SIGN_OFF_COLUMNS, widths, header_row=7 + len(_REVIEWER_FIELDS)
    )
    # Two more columns for the input files' table of the provenance block.
    writer.widths += [len("Profile") + 4, len("Rounds loaded")]
    set_column_widths(writer.sheet, [width + 2 for width in writer.widths])
    writer.append([("title", f"Sign-off: {book.operator}")], height=21)
    writer.append([("label", "Period"), (TEXT, book.period)])
    writer.append([("label", "Operator"), (TEXT, book.operator)])
    writer.append([("label", "As of"), (DATE, book.as_of)])
    writer.append([])
    writer.append([("label", "Reviewer")])
    for label, height in _REVIEWER_FIELDS:
        # empty ruled boxes to fill in, by hand or in the file
        writer.append([("label", label), (TEXT, None), (TEXT, None), (TEXT, None)], None, height)
    writer.header()
    writer.rows(rows)
    writer.finish_table()
    if not rows:
        writer.append([("note", "No finding this period.")])
    writer.append([])
    _write_provenance(writer, audit)


def _write_provenance(writer: _SheetWriter, audit: MonthAudit) -> None:
    """Where the figures come from, under the sign-off: tool, configuration, store, inputs."""
    provenance = audit.provenance
    writer.append([("label", "Provenance")])
    for label, value in (
        ("Tool version", f"baccarat-report {provenance.tool_version}"),
        ("Configuration", provenance.configuration or "the built-in catalogue"),
        ("Configuration SHA-256", provenance.configuration_sha256),
        ("Store digest (SHA-256)", provenance.store_digest),
    ):
        long = value is not None and len(value) > _SHA_WIDTH
        writer.append([("label", label), (WRAP, value)], "free", LINE_HEIGHT * 2 if long else None)
    writer.append([])
    writer.append([("header", header) for header in _INPUT_HEADERS])
    for item in audit.provenance.inputs:
        name = item.file_name
        if item.companion_name:
            name += f" + {item.companion_name}"
        lines = max(2, _wrapped_lines(name, writer.widths[0] + 1))
        writer.append(
            [
                *((WRAP, name), (WRAP, item.sha256), (COUNT, item.size)),
                *((TEXT, item.format), (TEXT, item.profile), (COUNT, item.rounds_loaded)),
            ],
            None,
            LINE_HEIGHT * min(lines, _MAX_LINES),
        )


# --- saving ------------------------------------------------------------------------------------


def _discard(workbook: Workbook) -> None:
    """After a failure: end each sheet's stream and delete its temporary file, best effort."""
    for sheet in workbook.worksheets:
        writer = sheet._writer  # openpyxl streams each write-only sheet into a temporary file
        if writer is None:
            continue
        with contextlib.suppress(Exception):
            if not sheet.closed:
                sheet.close()
        with contextlib.suppress(OSError, ValueError):
            writer.cleanup()
