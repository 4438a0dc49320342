"""The audit workbook's cells and tables: column kinds and their formats, the styles built
once, and the writer of one table into a write-only sheet (widths, panes, wrapped rows)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from fractions import Fraction

from openpyxl import Workbook
from openpyxl.cell.cell import Cell
from openpyxl.styles import Alignment, Border, Font, PatternFill, Side
from openpyxl.utils import get_column_letter
from openpyxl.worksheet._write_only import WriteOnlyWorksheet

from reporting.engine.money import cents_to_decimal, round_fraction
from reporting.figures.audit_records import FINDING_SEVERITY
from reporting.presentation.i18n import PERCENT_PLACES
from reporting.presentation.workbook_base import (
    FONT,
    LINE_HEIGHT,
    SHEET_ROWS,
    Margins,
    cell_text,
    put_value,
    set_column_widths,
    set_up_printing,
)

MONEY_FORMAT = "#,##0.00"
#: Significant digits a spreadsheet keeps of a number (Excel's and LibreOffice's 15): an amount
#: of more is written as its exact text, where a number cell would round it (a hostile log's
#: totals; no real month's).
SHEET_DIGITS = 15
#: Rows kept free under a table that fills its sheet, for the notes written under it (the
#: line that says how many rows are left out, a sheet's own notes: a few lines each).
_ROOM_UNDER_TABLE = 100


COUNT_FORMAT = "#,##0"


PERCENT_FORMAT = f"0.{'0' * PERCENT_PLACES}%"


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
    """A value to emphasise on its own (a non-zero finding count); ``which``: what it counts,
    named (the games, the months), beside it on the Summary and the Sign-off."""

    value: object
    which: str | None = None


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
        return len(value if isinstance(value, str) else f"{value:,.2f}")
    if kind == PERCENT:
        return len(f"{value * 100:.2f}%")
    if kind == EXPECTED:
        return len(f"{value:,.1f}")
    if kind == STAT:
        return len(f"{value:.2f}")
    if kind == P_VALUE:
        return 6
    return 10  # dates


def rotated_lines(header: str) -> tuple[str, ...]:
    """A header written upwards, in the one or two lines whose longer is shortest (split at a
    space): its row is made as tall as that line, so that a spreadsheet wrapping the header at
    the row's height wraps it in two lines at most (its column is made wide enough for two).

    >>> rotated_lines("Exclusive side bets held together"), rotated_lines("late_bet")
    (('Exclusive side', 'bets held together'), ('late_bet',))
    """
    words = header.split()
    splits = [(" ".join(words[:cut]), " ".join(words[cut:])) for cut in range(1, len(words))]
    return min(splits, key=lambda lines: max(map(len, lines)), default=(header,))


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


def _horizontal(kind: str, variant: str | None) -> str | None:
    """A cell's alignment across, where it is not its type's: a flag centred, and a date of a
    block of labels and values (the period, as of) on the left, as the text beside it."""
    if kind == FLAG:
        return "center"
    if kind == DATE and variant in ("free", "free alert"):
        return "left"
    return None


class _Styles:
    """The workbook's cell styles, built once; each new cell copies one.

    A style is named by (kind, variant): the kind of a column (text, money, ...) or of a
    free-form cell (header, title, label, note); the variant ``None`` for a table cell (ruled),
    ``"flagged"`` (a row outside the statistical bound), ``"total"``, ``"alert"`` (a non-zero
    count), ``"free"`` (a value outside any table, unruled) or ``"free alert"`` (a non-zero
    count outside any table).
    """

    VARIANTS = (None, "flagged", "total", "alert", "free", "free alert")

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
            alignment=Alignment(
                horizontal="center", vertical="bottom", text_rotation=90, wrap_text=True
            ),
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
                horizontal=_horizontal(kind, variant),
            ),
        }
        if variant not in ("free", "free alert"):
            attributes["border"] = _GRID
        if kind in _NUMBER_FORMATS:
            attributes["number_format"] = _NUMBER_FORMATS[kind]
        if variant == "flagged":
            attributes["fill"] = _FLAGGED_FILL
            attributes["font"] = Font(**_FONT, bold=kind == FLAG)
        elif variant == "total":
            attributes["font"] = Font(**_FONT, bold=True)
        elif variant in ("alert", "free alert"):
            attributes["font"] = Font(**_FONT, bold=True, color=_ALERT_COLOR)
        return self._build(**attributes)

    def cell(
        self, sheet: WriteOnlyWorksheet, kind: str, value: object, variant: str | None
    ) -> Cell:
        """A styled cell for a write-only sheet; text always stays text, never a formula."""
        if isinstance(value, _Alert):
            value = value.value
            if value:  # in a table or outside one (a count above a sheet's table)
                variant = "free alert" if variant == "free" else variant or "alert"
        cell = Cell(sheet, row=1, column=1, style_array=self._arrays[(kind, variant)])
        if value is not None:
            textual = kind in _TEXT_KINDS or kind in ("header", "title", "label", "note")
            put_value(cell, cell_text(value) if textual else value)
            if kind == MONEY and isinstance(value, str):  # an exact amount past SHEET_DIGITS
                cell.alignment = Alignment(vertical="top", horizontal="right")
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
        self.rows_left_out = 0  # past what the sheet holds (SHEET_ROWS): counted, not written
        self.left_out_where: list[str] = []  # where the rows left out are, each said once
        self.next_row = 1
        self.sheet = sheet = book.workbook.create_sheet(title)
        book.sheets[title] = sheet
        book.headers[title] = [column.header for column in columns]
        self.widths: list[int] = []
        header_lines = 1
        header_height = LINE_HEIGHT
        for column, content in zip(columns, content_widths, strict=True):
            if column.rotate:  # upwards, in one line or two (rotated_lines)
                lines = rotated_lines(column.header)
                width = max(content, 2 + 2 * len(lines))
                header_height = max(header_height, 6.5 * max(map(len, lines)) + 10)
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
        # A table at the top of its sheet keeps its header in view as it scrolls. Under a
        # block of rows (Summary's figures, Sign-off's reviewer) the panes would hold the whole
        # block: on Summary, 16 rows and a header of rotated kinds, about 490 pixels, which is
        # all the grid a laptop's spreadsheet shows. There only the first column (the games,
        # the labels) stays in view, as the table scrolls sideways.
        sheet.freeze_panes = f"A{header_row + 1}" if header_row == 1 else "B1"
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
        assert self.next_row == self.header_row, (
            "the header lands on the row its panes and filter were set for"
        )
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
        *,
        left_out_where: str = "",
    ) -> None:
        """Table rows; with ``flagged_column``, rows whose value there is "yes" are emphasised;
        with ``variant_of``, each row takes the variant it gives (``"flagged"``, ``"total"``).

        The rows past what the sheet holds (:data:`SHEET_ROWS`, less the room kept for the
        notes under the table) are counted, not written: :meth:`finish_table` says how many,
        and ``left_out_where`` where every row is."""
        rows = iter(rows)
        room = SHEET_ROWS - _ROOM_UNDER_TABLE - self.next_row + 1
        for row in itertools.islice(rows, max(room, 0)):
            if variant_of is not None:
                variant = variant_of(row)
            elif flagged_column is not None and row[flagged_column] == "yes":
                variant = "flagged"
            else:
                variant = None
            self.row(row, variant)
            self.rows_written += 1
        left_out = sum(1 for _ in rows)
        if left_out:
            self.rows_left_out += left_out
            if left_out_where and left_out_where not in self.left_out_where:
                self.left_out_where.append(left_out_where)

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
        """The autofilter over the header and the rows written so far; under a header with no
        row, a line that says so (a printed sheet of headers alone reads as a failed export);
        under a table longer than its sheet, how many rows it left out and where they are."""
        last = get_column_letter(len(self.columns))
        self.sheet.auto_filter.ref = (
            f"A{self.header_row}:{last}{self.header_row + self.rows_written}"
        )
        if self.rows_left_out:  # below a blank line, as every note under a table; emphasised
            where = " ".join(self.left_out_where)
            self.append([])
            self.append(
                [
                    (
                        TEXT,
                        f"{self.rows_left_out:,} more rows are not listed here: a sheet holds"
                        f" at most {SHEET_ROWS:,} rows. {where}".rstrip(),
                    )
                ],
                "free alert",
            )
        elif not self.rows_written:
            self.append([])
            self.append([("note", "None this period.")])


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
    """A ratio (an RTP) for a percentage cell, rounded once, from the exact value, to what
    the cell shows (:data:`PERCENT_PLACES`), halves up as the pages round: a cell of six
    decimals was rounded again by the spreadsheet, and showed an RTP of 99.99495% as
    100.00% where the disclosure and the report say 99.99%."""
    return None if value is None else round_fraction(value, PERCENT_PLACES + 2)


def _yes_no(flag: bool) -> str:
    return "yes" if flag else "no"


def _money_header(label: str, currencies: set[str]) -> str:
    """``Stakes (EUR)`` when every game plays in one currency; else see the Currency column."""
    return f"{label} ({next(iter(currencies))})" if len(currencies) == 1 else label


def _money(cents: int | None) -> Decimal | str | None:
    """An amount as the sheet holds it: a number, or its exact text past :data:`SHEET_DIGITS`."""
    if cents is None:
        return None
    if abs(cents) >= 10**SHEET_DIGITS:
        return f"{cents_to_decimal(cents):,}"
    return cents_to_decimal(cents)


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


def _severity(kind: str) -> str | None:
    """A finding kind's severity, as text (None for a kind this version does not know)."""
    severity = FINDING_SEVERITY.get(kind)
    return None if severity is None else str(severity)


def _column_number(columns: Sequence[_Column], header: str) -> int:
    """The 1-based column of a header (a chart's reference into a sheet)."""
    return 1 + [column.header for column in columns].index(header)


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
