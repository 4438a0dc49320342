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
import sqlite3
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

from openpyxl import Workbook
from openpyxl.cell.cell import Cell
from openpyxl.styles import Alignment, Border, Font, PatternFill, Side
from openpyxl.utils import get_column_letter
from openpyxl.worksheet._write_only import WriteOnlyWorksheet

from reporting.config.loader import OperatorConfig
from reporting.engine.games import GameSpec
from reporting.engine.money import cents_to_decimal, round_fraction
from reporting.engine.theory import game_odds
from reporting.figures.regulators import declared_rtp_unsupported
from reporting.figures.statistics import OutcomeTest, RtpCheck
from reporting.files import write_atomically
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
from reporting.verify.bearing import reject_scope
from reporting.verify.checks import SETTLED_BET_TYPES
from reporting.verify.run import VerifyResult
from reporting.verify.totals import BetTotals

__all__ = ["SHEETS", "write_audit_workbook"]

#: Sheet names, in workbook order.
SHEETS = (
    "Summary",
    "Findings",
    "Checks not run",
    "Rejected records",
    "Ingest log",
    "Outcome tests",
    "RTP checks",
    "Pages",
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

    def rows(self, rows: Iterable[Sequence[object]], flagged_column: int | None = None) -> None:
        """Table rows; with ``flagged_column``, rows whose value there is "yes" are emphasised."""
        for row in rows:
            variant = (
                "flagged" if flagged_column is not None and row[flagged_column] == "yes" else None
            )
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


def _ratio(value: Fraction | None) -> Decimal | None:
    """A ratio (an RTP) for a percentage cell: six decimals, exact rounding."""
    return None if value is None else round_fraction(value, 6)


def _yes_no(flag: bool) -> str:
    return "yes" if flag else "no"


def _money_header(label: str, currencies: set[str]) -> str:
    """``Stakes (EUR)`` when every game plays in one currency; else see the Currency column."""
    return f"{label} ({next(iter(currencies))})" if len(currencies) == 1 else label


class _Scope:
    """The period's rows: findings and rounds by report month, rejects by the files behind it
    (the one rule of :mod:`reporting.verify.bearing`, which the exit codes count by too)."""

    def __init__(self, connection: sqlite3.Connection, month: str | None):
        self.month = month
        self._rejects = reject_scope(connection, month)
        #: Rounds of the period by ingest id (every file's loaded rounds when all months).
        self.rounds_by_file = self._rejects.rounds_by_file

    def findings_where(self) -> tuple[str, tuple]:
        return ("1", ()) if self.month is None else ("report_month = ?", (self.month,))

    def rejects_where(self) -> tuple[str, tuple]:
        return self._rejects.rejects_where()


def write_audit_workbook(
    path: Path,
    connection: sqlite3.Connection,
    config: OperatorConfig,
    result: VerifyResult,
    outcomes: Sequence[OutcomeTest],
    rtp: Sequence[RtpCheck],
    *,
    as_of: date,
    tool_version: str,
    publishing: Mapping[str, Sequence[str]] | None = None,
) -> None:
    """Write the audit workbook of ``result.month`` (or of all months) to ``path``, atomically.

    ``publishing`` (the monthly job's) gives each game's problems that make its pages drafts,
    not for publication; without it (``verify``), the Pages sheet says no page was written.

    ``result``, ``outcomes`` and ``rtp`` are what :func:`reporting.verify.verify`,
    :func:`~reporting.figures.statistics.outcome_tests` and :func:`~reporting.figures.statistics.rtp_checks`
    returned for the same period; findings, rejects and the ingest log are read from
    ``connection``. ``as_of`` pins the document dates and the zip entry times: the same
    database and arguments give the same bytes. The file appears whole or not at all.
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
    scope = _Scope(connection, result.month)
    currencies = {game.currency for game in config.games.values()}

    try:
        _write_summary(book, connection, config, result, rtp, scope, currencies, publishing)
        _write_findings(book, connection, config, scope, currencies)
        _write_checks_not_run(book, result)
        _write_rejects(book, connection, scope)
        _write_ingest_log(book, connection, scope)
        _write_outcome_tests(book, result, outcomes)
        _write_rtp_checks(book, config, rtp, currencies)
        _write_pages(book, config, publishing)
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
    theory_stakes: int = 0  # cents: the stakes of the bet types with a theoretical RTP
    stakes_times_rtp: Fraction = Fraction(0)  # each such bet type's stakes x its RTP

    def add(self, totals: BetTotals) -> None:
        self.bets += totals.bets
        self.stakes += totals.stakes
        self.payouts += totals.payouts

    def add_theory(self, check: RtpCheck) -> None:
        self.theory_stakes += check.stakes
        self.stakes_times_rtp += check.stakes * check.theoretical_rtp

    @property
    def actual_rtp(self) -> Fraction | None:
        return Fraction(self.payouts, self.stakes) if self.stakes else None

    @property
    def theoretical_rtp(self) -> Fraction | None:
        """The exact RTP of each bet type with one, weighted by its stakes."""
        return self.stakes_times_rtp / self.theory_stakes if self.theory_stakes else None


def _write_summary(
    book: _Book,
    connection: sqlite3.Connection,
    config: OperatorConfig,
    result: VerifyResult,
    rtp: Sequence[RtpCheck],
    scope: _Scope,
    currencies: set[str],
    publishing: Mapping[str, Sequence[str]] | None = None,
) -> None:
    findings = _findings_by_game(connection, scope)
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
        ("Checks not run", COUNT, len(result.checks_not_run)),
    ]
    if publishing is not None:  # the pages of the month: games whose pages are drafts
        drafts = sum(1 for game in config.games if publishing.get(game))
        meta.append(("Games with draft pages", COUNT, _Alert(drafts)))
    rejects = _rejects_by_reason(connection, scope)
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
    unsettled = any(bet_type not in SETTLED_BET_TYPES for _, bet_type in result.bet_totals)
    for note in _summary_notes(one_currency=len(currencies) == 1, unsettled=unsettled):
        writer.append([("note", note)])
    writer.append([])
    _write_summary_rejects(writer, rejects, reasons, by_month=scope.month is not None)


def _write_summary_rejects(
    writer: _SheetWriter, rejects: Counter[str], reasons: Sequence[str], *, by_month: bool
) -> None:
    """The Summary's table of the period's rejected lines by reason."""
    writer.append([("header", "Rejected records"), ("header", "Lines")])
    for reason in reasons:
        writer.append([(TEXT, reason), (COUNT, _Alert(rejects[reason]))], None)
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


def _findings_by_game(connection: sqlite3.Connection, scope: _Scope) -> dict[str, Counter[str]]:
    """The period's findings counted by game and kind."""
    where, params = scope.findings_where()
    findings: dict[str, Counter[str]] = defaultdict(Counter)
    for game_id, kind, count in connection.execute(
        f"SELECT game_id, kind, count(*) FROM findings WHERE {where} GROUP BY game_id, kind",
        params,
    ):
        findings[game_id][kind] += count
    return findings


def _rejects_by_reason(connection: sqlite3.Connection, scope: _Scope) -> Counter[str]:
    """The period's rejected lines counted by reason."""
    where, params = scope.rejects_where()
    return Counter(
        dict(
            connection.execute(
                f"SELECT reason, count(*) FROM rejected_records WHERE {where} GROUP BY reason",
                params,
            ).fetchall()
        )
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
    findings: dict[str, Counter[str]],
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
        counts = findings.get(game_id, Counter())
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
                *(_Alert(counts[kind]) for kind in kinds),
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
        *(sum(counts[kind] for counts in findings.values()) for kind in kinds),
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


def _measured_widths(
    connection: sqlite3.Connection,
    table: str,
    scope: tuple[str, tuple],
    measured: Sequence[tuple[_Column, str | int]],
) -> list[int]:
    """Content widths of a table streamed from SQLite, measured before its first row is written.

    Each column comes with an SQL aggregate (the longest text, or the largest number, which is
    then formatted) or a width known beforehand.
    """
    where, params = scope
    expressions = [measure for _, measure in measured if isinstance(measure, str)]
    found = iter(
        connection.execute(
            f"SELECT {', '.join(expressions)} FROM {table} WHERE {where}", params
        ).fetchone()
    )
    widths = []
    for column, measure in measured:
        value = measure if isinstance(measure, int) else next(found)
        if value is None:
            widths.append(0)
        elif isinstance(measure, int) or column.kind in _TEXT_KINDS:
            widths.append(value)
        else:
            widths.append(
                _shown_width(column.kind, _money(value) if column.kind == MONEY else value)
            )
    return widths


def _write_findings(
    book: _Book,
    connection: sqlite3.Connection,
    config: OperatorConfig,
    scope: _Scope,
    currencies: set[str],
) -> None:
    measured = [
        (_Column("Kind", TEXT), "max(length(kind))"),
        (_Column("Game", TEXT), "max(length(game_id))"),
        (_Column("Month", TEXT), "max(length(report_month))"),
        (_Column("Round", TEXT, cap=28), "max(length(round_id))"),
        (_Column("Bet", TEXT, cap=20), "max(length(bet_id))"),
        (_Column("Currency", TEXT), max((len(currency) for currency in currencies), default=0)),
        (
            _Column(_money_header("Expected payout", currencies), MONEY),
            "max(expected_payout_cents)",
        ),
        (_Column(_money_header("Logged payout", currencies), MONEY), "max(logged_payout_cents)"),
        (_Column("Rule", WRAP, cap=24), "max(length(rule))"),
        (_Column("Source file", WRAP, cap=28), "max(length(source_file))"),
        (_Column("Line", LINE), "max(source_line)"),
        (_Column("Source", WRAP, cap=32), "max(length(source_file) + 1 + length(source_line))"),
        (_Column("Message", WRAP, cap=60), "max(length(message))"),
    ]
    columns = [column for column, _ in measured]
    widths = _measured_widths(connection, "findings", scope.findings_where(), measured)
    writer = _SheetWriter(book, "Findings", columns, widths)
    writer.header()
    where, params = scope.findings_where()
    cursor = connection.execute(
        "SELECT kind, game_id, report_month, round_id, bet_id, expected_payout_cents,"
        " logged_payout_cents, rule, source_file, source_line, message"
        f" FROM findings WHERE {where}"
        " ORDER BY source_file, source_line, kind, bet_id, finding_id",
        params,
    )
    currency = {game_id: game.currency for game_id, game in config.games.items()}
    writer.rows(
        (
            *(kind, game_id, month, round_id, bet_id, currency.get(game_id)),
            *(_money(expected), _money(logged), rule, file, line, str(SourceLocation(file, line))),
            message,
        )
        for kind, game_id, month, round_id, bet_id, expected, logged, rule, file, line, message in (
            cursor
        )
    )
    writer.finish_table()


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


def _write_rejects(book: _Book, connection: sqlite3.Connection, scope: _Scope) -> None:
    measured = [
        (_Column("File", WRAP, cap=28), "max(length(file_name))"),
        (_Column("Line", LINE), "max(line)"),
        (_Column("Source", WRAP, cap=32), "max(length(file_name) + 1 + length(line))"),
        (_Column("Reason", TEXT), "max(length(reason))"),
        (_Column("Round", TEXT, cap=28), "max(length(round_id))"),
        (_Column("Message", WRAP, cap=50), "max(length(message))"),
        (_Column("Raw line", WRAP, cap=70), "max(length(raw_text))"),
    ]
    columns = [column for column, _ in measured]
    widths = _measured_widths(connection, "rejected_records", scope.rejects_where(), measured)
    writer = _SheetWriter(book, "Rejected records", columns, widths)
    writer.header()
    where, params = scope.rejects_where()
    cursor = connection.execute(
        "SELECT file_name, line, reason, round_id, message, raw_text FROM rejected_records"
        f" WHERE {where} ORDER BY file_name, line, reject_id",
        params,
    )
    writer.rows(
        (file, line, str(SourceLocation(file, line)), reason, round_id, message, raw)
        for file, line, reason, round_id, message, raw in cursor
    )
    writer.finish_table()


def _write_ingest_log(book: _Book, connection: sqlite3.Connection, scope: _Scope) -> None:
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
        (*row[1:8], scope.rounds_by_file.get(row[0], 0), *row[8:])
        for row in connection.execute(
            "SELECT ingest_id, file_name, companion_name, file_sha256, file_size, format,"
            " lines_read, rounds_loaded, bets_loaded, rounds_skipped_duplicate,"
            " rejected FROM ingest_log ORDER BY ingest_id"
        )
    ]
    writer = _SheetWriter(book, "Ingest log", columns, _content_widths(columns, rows))
    writer.header()
    writer.rows(rows)
    writer.finish_table()


def _write_outcome_tests(
    book: _Book, result: VerifyResult, outcomes: Sequence[OutcomeTest]
) -> None:
    columns = [
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
    ]
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
                check.z_score,
                _yes_no(check.flagged),
            )
        )
    writer = _SheetWriter(book, "RTP checks", columns, _content_widths(columns, rows))
    writer.header()
    writer.rows(rows, flagged_column=len(columns) - 1)
    writer.finish_table()


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
