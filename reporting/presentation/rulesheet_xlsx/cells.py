"""The rule sheet workbook's cells: its styles and number formats, the page's words
(:class:`PageText`), and a worksheet written row by row (:class:`SheetWriter`)."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction

from babel import Locale
from babel.numbers import get_currency_symbol, parse_pattern
from openpyxl import Workbook
from openpyxl.cell.cell import Cell
from openpyxl.styles import Alignment, Border, Font, PatternFill, Side
from openpyxl.worksheet.worksheet import Worksheet

from reporting.config.languages import LANGUAGES
from reporting.engine.money import round_fraction
from reporting.presentation.i18n import page_translations, plain_text
from reporting.presentation.publisher import environment_of
from reporting.presentation.rulesheet_model import RuleSheet
from reporting.presentation.workbook_base import (
    FONT,
    LINE_HEIGHT,
    Margins,
    put_value,
    set_column_widths,
    set_up_printing,
)


def styled_font(**changes: object) -> Font:
    """The workbook's font (:data:`FONT`, named in every style) with ``changes``."""
    return Font(**(FONT | changes))


#: Windows locale ids by locale: Excel's ``[$-LCID]`` tag names the language of month names and
#: symbols (from the languages table; a locale outside it is a KeyError, not US English).
_LCID = {entry.locale: entry.excel_lcid for entry in LANGUAGES}
_INVALID_SHEET_CHARACTERS = re.compile(r"[\[\]:*?/\\]")

_THIN = Side(style="thin", color="C9CED8")
BORDER = Border(left=_THIN, right=_THIN, top=_THIN, bottom=_THIN)
HEAD_FILL = PatternFill("solid", fgColor="EEF1F6")
DRAW_FILL = PatternFill("solid", fgColor="DCEBDC")
_WRAP = Alignment(wrap_text=True, vertical="top")
_WRAP_RIGHT = Alignment(wrap_text=True, vertical="top", horizontal="right")
CENTER = Alignment(horizontal="center", vertical="top", wrap_text=True)
CENTER_MIDDLE = Alignment(horizontal="center", vertical="center")
_MARGINS = Margins(sides=0.6, top_bottom=0.75, header_footer=0.3)


def excel_formats(locale: str, currency: str) -> dict[str, str]:
    """Excel number formats for a locale: ``money``, ``odds``, ``percent`` (two decimals),
    ``share`` (one) and ``date``.

    Excel shows the group and decimal separators of the reader's system; the format sets the
    currency symbol and its place, the percent sign's place and spacing (from CLDR, as the
    page prints them: "98,76 %" in Danish, "98,76%" in Italian) and the language of month
    names.

    >>> excel_formats("it_IT", "EUR")["money"]
    '#,##0.00 [$€-410]'
    >>> excel_formats("en_GB", "EUR")["money"]
    '[$€-809]#,##0.00'
    >>> excel_formats("it_IT", "EUR")["percent"], excel_formats("da_DK", "DKK")["percent"]
    ('0.00%', '0.00"\xa0"%')
    """
    parsed = Locale.parse(locale)
    lcid = f"{_LCID[locale]:X}"
    symbol = get_currency_symbol(currency, locale=locale).replace('"', "")
    tag = f"[${symbol}-{lcid}]"
    pattern = parsed.currency_formats["standard"].pattern.split(";")[0]
    symbol_first = pattern.strip().startswith("¤")
    money = f"{tag}#,##0.00" if symbol_first else f"#,##0.00 {tag}"
    return {
        "money": money,
        "odds": 'General":1"',
        "percent": _percent_format(parsed, "0.00"),
        "share": _percent_format(parsed, "0.0"),
        "date": f"[$-{lcid}]d mmmm yyyy",
    }


def _percent_format(locale: Locale, digits: str) -> str:
    """Excel's format of a percentage (``digits``: ``0.00``, two decimals), its sign placed
    and spaced as the locale's CLDR pattern places it (a space quoted: Excel shows a quoted
    text as it is)."""
    pattern = parse_pattern(locale.percent_formats[None].pattern)  # as the page reads it
    return f"{_quoted(pattern.prefix[0])}{digits}{_quoted(pattern.suffix[0])}"


def _quoted(text: str) -> str:
    """A format's literal text: the percent sign as it is, anything else quoted."""
    return "".join(part if part == "%" else f'"{part}"' for part in re.split("(%)", text) if part)


class PageText:
    """The page's words for the workbook: ``text.<macro>(...)`` is the text of that macro of
    ``reporting/templates/rules/macros.html.j2`` (tags stripped); ``text._(...)`` translates a
    label of the workbook's own (a sheet name, a column the page does not have)."""

    def __init__(self, sheet: RuleSheet):
        self.sheet = sheet
        # The page's macros, the operator's overrides of them included (publisher.environment_of)
        self.macros = environment_of(sheet).get_template("rules/macros.html.j2").module
        self.translations = page_translations(sheet.language, sheet.hand_words)

    def __getattr__(self, name: str):
        macro = getattr(self.macros, name)

        def call(*args: object) -> str:
            return plain_text(macro(*args))

        return call

    def _(self, message: str) -> str:
        return plain_text(self.translations.gettext(message))


class SheetWriter:
    """One worksheet written row by row: headings, paragraphs, tables."""

    def __init__(
        self, workbook: Workbook, title: str, widths: Sequence[int], text: PageText, formats: dict
    ):
        self.sheet: Worksheet = workbook.create_sheet(_sheet_title(title))
        self.widths = list(widths)
        self.text = text
        self.formats = formats
        self.row = 1
        set_column_widths(self.sheet, widths)
        rules = text.sheet
        set_up_printing(
            self.sheet,
            orientation="portrait",
            margins=_MARGINS,
            # A draft says so at the head of every printed page, as the PDF's pages do: in
            # the centre, a line below the others (on the same line, a long mark ran into
            # the sheet's name or its date: "BOZZA, non pubblicaRegolamento in vigore").
            header=(
                f"{rules.game_name}: {title}",
                f"\n{text.draft_mark()}" if rules.draft else None,
                text.in_force(rules),
            ),
            # Who publishes the sheet on every printed page; the tool in one line at the end
            # of the Rules sheet (as at the foot of the page) and in the properties.
            footer_left=text.publisher_line(rules) or text.in_force(rules),
            page_count=text.page_of("&P", "&N"),
        )
        if rules.draft:  # and at the top of every sheet, with why, in the page's language
            self.paragraph(_draft_text(text, rules), font=styled_font(bold=True, color="9C0006"))
            self.skip()

    def put(self, column: int, value: object, *, number_format: str | None = None) -> Cell:
        cell = put_value(self.sheet.cell(row=self.row, column=column), value)
        if number_format:
            cell.number_format = number_format
        return cell

    def skip(self, rows: int = 1) -> None:
        self.row += rows

    def title(self, text: str, subtitle: Sequence[str] = ()) -> None:
        self.put(1, text).font = styled_font(bold=True, size=16)
        self.sheet.row_dimensions[self.row].height = 24
        self.skip()
        for line in subtitle:
            self.paragraph(line, font=styled_font(color="5A6273"))
        self.skip()

    def caption(self, text: str) -> None:
        """A table's caption, as the page shows it above the table."""
        self.paragraph(text, font=styled_font(size=9, color="5A6273"))

    def heading(self, text: str, level: int = 2) -> None:
        cell = self.put(1, text)
        cell.font = styled_font(
            bold=True, size=13 if level == 2 else 11, color="7A1F2B" if level == 2 else None
        )
        self.skip()

    def paragraph(self, text: str, *, font: Font | None = None) -> None:
        """Text across every column, wrapped, the row tall enough for it."""
        cell = self.put(1, text)
        cell.alignment = _WRAP
        if font is not None:
            cell.font = font
        last = len(self.widths)
        if last > 1:
            self.sheet.merge_cells(
                start_row=self.row, start_column=1, end_row=self.row, end_column=last
            )
        self.sheet.row_dimensions[self.row].height = LINE_HEIGHT * _lines(text, sum(self.widths))
        self.skip()

    def table(
        self,
        headers: Sequence[str],
        rows: Sequence[Sequence[object]],
        *,
        formats: Sequence[str | None] = (),
        fills: Sequence[Sequence[PatternFill | None]] = (),
        center: bool = False,
        joined: int = 1,
    ) -> None:
        """A header row (bold, shaded) and the rows; the first column is the row header, its
        cells across the ``joined`` first columns (each row's values then skip the others)."""
        self._row(headers, header=True, center=center, joined=joined)
        for index, values in enumerate(rows):
            row_fills = fills[index] if index < len(fills) else ()
            self._row(values, formats=formats, fills=row_fills, center=center, joined=joined)
        self.skip()

    def _row(
        self,
        values: Sequence[object],
        *,
        header: bool = False,
        formats: Sequence[str | None] = (),
        fills: Sequence[PatternFill | None] = (),
        center: bool = False,
        joined: int = 1,
    ) -> None:
        lines = 1
        if joined > 1:  # the row header across the first columns, wrapped at their width
            self.sheet.merge_cells(
                start_row=self.row, start_column=1, end_row=self.row, end_column=joined
            )
        for column, value in enumerate(values, start=1):
            if 1 < column <= joined:  # within the row header's cell: its border only
                self.sheet.cell(row=self.row, column=column).border = BORDER
                continue
            number_format = formats[column - 1] if column - 1 < len(formats) else None
            cell = self.put(column, value, number_format=None if header else number_format)
            cell.border = BORDER
            numeric = not isinstance(value, str) and value is not None
            cell.alignment = (
                CENTER if center and column > 1 else (_WRAP_RIGHT if numeric else _WRAP)
            )
            if header:
                cell.font = styled_font(bold=True)
                cell.fill = HEAD_FILL
            elif column == 1:
                cell.font = styled_font(bold=True)
            fill = fills[column - 1] if column - 1 < len(fills) else None
            if fill is not None:
                cell.fill = fill
            if isinstance(value, str) and column == 1 and joined > 1:
                lines = max(lines, _lines(value, sum(self.widths[:joined])))
            elif isinstance(value, str):
                width = self._fit_word(column, value, bold=header or column == 1)
                lines = max(lines, _lines(value, width))
        self.sheet.row_dimensions[self.row].height = LINE_HEIGHT * lines
        self.skip()

    def _fit_word(self, column: int, text: str, *, bold: bool) -> int:
        """The column's width, widened to hold the text's longest word whole (at most
        :data:`_WIDEST_WORD`): a table's column is as wide as its language's words ask (the
        Danish "Maksimumsindsats" broke in two in a column of 16)."""
        while len(self.widths) < column:
            self.widths.append(10)
        longest = max((len(word) for word in text.split()), default=0)
        needed = min(math.ceil(longest * (1.1 if bold else 1.0)) + 2, _WIDEST_WORD)
        if needed > self.widths[column - 1]:
            self.widths[column - 1] = needed
            set_column_widths(self.sheet, self.widths)
        return self.widths[column - 1]


#: The widest a column grows to hold a word whole (a word longer, a web address, breaks).
_WIDEST_WORD = 40


def _lines(text: str, width: int) -> int:
    """Lines a wrapped text takes in a column ``width`` characters wide (an estimate)."""
    usable = max(width - 2, 4)
    return max(1, sum(max(1, math.ceil(len(line) / usable)) for line in text.split("\n")))


def _draft_text(text: PageText, sheet: RuleSheet) -> str:
    """A draft's mark and each reason it is one, a line each (the page's banner)."""
    reasons = [text.doubt_text(sheet, doubt) for doubt in sheet.doubts] or [text.draft_text()]
    return "\n".join([text.draft_mark(), *(f"• {reason}" for reason in reasons)])


def _sheet_title(title: str) -> str:
    return _INVALID_SHEET_CHARACTERS.sub(" ", title).strip()[:31] or "Sheet"


def excel_share(percent: Fraction | Decimal) -> Decimal:
    """A percentage as the share Excel's ``0.00%`` shows: 98.94 -> 0.9894 (half up)."""
    return round_fraction(Fraction(percent) / 100, 4)


def rounded_odds(value: Fraction | None) -> Decimal | None:
    return None if value is None else round_fraction(value, 4)
