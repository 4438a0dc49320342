"""The rule sheet as a workbook: the page's content in five sheets, for reading and printing.

Sheets (names translated): **Rules** (the game, the shoe, card values, dealing, malfunctions,
limits), **Pay table** (every offered bet, the bonus bets and their table, payouts and
rounding), **Drawing rules** (the Player's table and the full Banker matrix), for a live game
that shows a scoreboard **Scoreboard** (what each part shows, the example shoe's statistics)
and **Roads** (its Bead Road and Big Road drawn in cells), **RTP** (the theoretical return of
every offered bet) and, for an ADM game, **Disclosure** (the ADM block).

The sentences are the page's own: the workbook calls the macros of
``templates/rules/macros.html.j2`` and takes their text, so a sentence is written and
translated once. Figures are stored as numbers (money and odds as ``Decimal``, percentages
as ``Decimal`` shares rounded to what is shown, dates as dates) with number formats in the
sheet's locale: currency symbol and its place, the date's language. Every text cell is a
string: text never becomes a formula.

Reproducible: the workbook's created and modified properties are the as-of date, and every
zip entry carries that date too, so the same sheet gives the same bytes.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction

from babel import Locale
from babel.numbers import get_currency_symbol
from markupsafe import Markup
from openpyxl import Workbook
from openpyxl.cell.cell import Cell
from openpyxl.cell.rich_text import CellRichText, TextBlock
from openpyxl.cell.text import InlineFont
from openpyxl.styles import Alignment, Border, Font, PatternFill, Side
from openpyxl.worksheet.worksheet import Worksheet

from reporting.config.languages import LANGUAGES
from reporting.engine.money import cents_to_decimal, round_fraction
from reporting.engine.rules import Winner
from reporting.presentation.i18n import page_translations
from reporting.presentation.publisher import environment_of, with_templates_of
from reporting.presentation.roads import BANKER_COLOUR, PLAYER_COLOUR, TIE_COLOUR
from reporting.presentation.rulesheet_model import OfferedBet, PayForm, RuleSheet, Scoreboard
from reporting.presentation.workbook_base import (
    FONT,
    LINE_HEIGHT,
    Margins,
    header_text,
    pin_properties,
    put_value,
    set_column_widths,
    set_up_printing,
    workbook_bytes,
)


def _font(**changes: object) -> Font:
    """The workbook's font (:data:`FONT`, named in every style) with ``changes``."""
    return Font(**(FONT | changes))


__all__ = ["SHEET_IDS", "excel_formats", "render_xlsx"]

#: The sheets, by their English (msgid) names, in workbook order.
SHEET_IDS = ("Rules", "Pay table", "Drawing rules", "Scoreboard", "Roads", "RTP", "Disclosure")

#: Windows locale ids by locale: Excel's ``[$-LCID]`` tag names the language of month names and
#: symbols (from the languages table; a locale outside it is a KeyError, not US English).
_LCID = {entry.locale: entry.excel_lcid for entry in LANGUAGES}
_INVALID_SHEET_CHARACTERS = re.compile(r"[\[\]:*?/\\]")

_THIN = Side(style="thin", color="C9CED8")
_BORDER = Border(left=_THIN, right=_THIN, top=_THIN, bottom=_THIN)
_HEAD_FILL = PatternFill("solid", fgColor="EEF1F6")
_DRAW_FILL = PatternFill("solid", fgColor="DCEBDC")
_WRAP = Alignment(wrap_text=True, vertical="top")
_WRAP_RIGHT = Alignment(wrap_text=True, vertical="top", horizontal="right")
_CENTER = Alignment(horizontal="center", vertical="top", wrap_text=True)
_CENTER_MIDDLE = Alignment(horizontal="center", vertical="center")
_MARGINS = Margins(sides=0.6, top_bottom=0.75, header_footer=0.3)


def excel_formats(locale: str, currency: str) -> dict[str, str]:
    """Excel number formats for a locale: ``money``, ``odds``, ``percent`` and ``date``.

    Excel shows the group and decimal separators of the reader's system; the format sets the
    currency symbol and its place (from CLDR) and the language of month names.

    >>> excel_formats("it_IT", "EUR")["money"]
    '#,##0.00 [$€-410]'
    >>> excel_formats("en_GB", "EUR")["money"]
    '[$€-809]#,##0.00'
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
        "percent": "0.00%",
        "date": f"[$-{lcid}]d mmmm yyyy",
    }


class _Text:
    """The page's words for the workbook: ``text.<macro>(...)`` is the text of that macro of
    ``templates/rules/macros.html.j2`` (tags stripped); ``text._(...)`` translates a label of
    the workbook's own (a sheet name, a column the page does not have)."""

    def __init__(self, sheet: RuleSheet):
        self.sheet = sheet
        # The page's macros, the operator's overrides of them included (publisher.environment_of)
        self.macros = environment_of(sheet).get_template("rules/macros.html.j2").module
        self.translations = page_translations(sheet.language, sheet.hand_words)

    def __getattr__(self, name: str):
        macro = getattr(self.macros, name)

        def call(*args: object) -> str:
            return Markup(macro(*args)).striptags()

        return call

    def _(self, message: str) -> str:
        return Markup(self.translations.gettext(message)).striptags()


class _Sheet:
    """One worksheet written row by row: headings, paragraphs, tables."""

    def __init__(
        self, workbook: Workbook, title: str, widths: Sequence[int], text: _Text, formats: dict
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
            # A draft says so at the head of every printed page, as the PDF's pages do.
            header=(
                f"{rules.game_name}: {title}",
                text.draft_mark() if rules.draft else None,
                text.in_force(rules),
            ),
            # Who publishes the sheet on every printed page; the tool in one line at the end
            # of the Rules sheet (as at the foot of the page) and in the properties.
            footer_left=text.publisher_line(rules) or text.in_force(rules),
            page_count=text.page_of("&P", "&N"),
        )
        if rules.draft:  # and at the top of every sheet, with why, in the page's language
            self.paragraph(_draft_text(text, rules), font=_font(bold=True, color="9C0006"))
            self.skip()

    def put(self, column: int, value: object, *, number_format: str | None = None) -> Cell:
        cell = put_value(self.sheet.cell(row=self.row, column=column), value)
        if number_format:
            cell.number_format = number_format
        return cell

    def skip(self, rows: int = 1) -> None:
        self.row += rows

    def title(self, text: str, subtitle: Sequence[str] = ()) -> None:
        self.put(1, text).font = _font(bold=True, size=16)
        self.sheet.row_dimensions[self.row].height = 24
        self.skip()
        for line in subtitle:
            self.paragraph(line, font=_font(color="5A6273"))
        self.skip()

    def caption(self, text: str) -> None:
        """A table's caption, as the page shows it above the table."""
        self.paragraph(text, font=_font(size=9, color="5A6273"))

    def heading(self, text: str, level: int = 2) -> None:
        cell = self.put(1, text)
        cell.font = _font(
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
    ) -> None:
        """A header row (bold, shaded) and the rows; the first column is the row header."""
        self._row(headers, header=True, center=center)
        for index, values in enumerate(rows):
            row_fills = fills[index] if index < len(fills) else ()
            self._row(values, formats=formats, fills=row_fills, center=center)
        self.skip()

    def _row(
        self,
        values: Sequence[object],
        *,
        header: bool = False,
        formats: Sequence[str | None] = (),
        fills: Sequence[PatternFill | None] = (),
        center: bool = False,
    ) -> None:
        lines = 1
        for column, value in enumerate(values, start=1):
            number_format = formats[column - 1] if column - 1 < len(formats) else None
            cell = self.put(column, value, number_format=None if header else number_format)
            cell.border = _BORDER
            numeric = not isinstance(value, str) and value is not None
            cell.alignment = (
                _CENTER if center and column > 1 else (_WRAP_RIGHT if numeric else _WRAP)
            )
            if header:
                cell.font = _font(bold=True)
                cell.fill = _HEAD_FILL
            elif column == 1:
                cell.font = _font(bold=True)
            fill = fills[column - 1] if column - 1 < len(fills) else None
            if fill is not None:
                cell.fill = fill
            if isinstance(value, str):
                width = self.widths[column - 1] if column - 1 < len(self.widths) else 10
                lines = max(lines, _lines(value, width))
        self.sheet.row_dimensions[self.row].height = LINE_HEIGHT * lines
        self.skip()


def _lines(text: str, width: int) -> int:
    """Lines a wrapped text takes in a column ``width`` characters wide (an estimate)."""
    usable = max(width - 2, 4)
    return max(1, sum(max(1, math.ceil(len(line) / usable)) for line in text.split("\n")))


def _draft_text(text: _Text, sheet: RuleSheet) -> str:
    """A draft's mark and each reason it is one, a line each (the page's banner)."""
    reasons = [text.doubt_text(sheet, doubt) for doubt in sheet.doubts] or [text.draft_text()]
    return "\n".join([text.draft_mark(), *(f"• {reason}" for reason in reasons)])


def _sheet_title(title: str) -> str:
    return _INVALID_SHEET_CHARACTERS.sub(" ", title).strip()[:31] or "Sheet"


def _share(percent: Fraction | Decimal) -> Decimal:
    """A percentage as the share Excel's ``0.00%`` shows: 98.94 -> 0.9894 (half up)."""
    return round_fraction(Fraction(percent) / 100, 4)


def _odds(value: Fraction | None) -> Decimal | None:
    return None if value is None else round_fraction(value, 4)


# --- the sheets ----------------------------------------------------------------------------------


def _title(page: _Sheet, sheet: RuleSheet, text: _Text) -> None:
    """The operator's line (name and licence, as the page's masthead), the sheet's title and
    subtitle lines, and the draft mark the HTML and PDF carry."""
    publisher = text.publisher_line(sheet)
    if publisher:
        page.paragraph(publisher, font=_font(bold=True))
    subtitle = [text.game_rules_title(), text.kind_text(sheet)]
    if sheet.adm and sheet.adm.regulator_code:
        subtitle.append(text.adm_code_text(sheet.adm))
    if sheet.game_version:
        subtitle.append(text.game_version(sheet))
    subtitle.append(text.in_force(sheet))
    page.title(sheet.game_name, subtitle)


def _rules_sheet(workbook: Workbook, sheet: RuleSheet, text: _Text, formats: dict) -> None:
    page = _Sheet(workbook, text._("Rules"), (34, 58, 16), text, formats)
    _title(page, sheet, text)

    page.heading(text.object_title())
    page.paragraph(text.object_text())

    page.heading(text.cards_title())
    page.paragraph(text.shoe_text(sheet))
    if sheet.live and sheet.statistics_reset and not sheet.shows_statistics:
        page.paragraph(text.shoe_count_text(sheet.statistics_reset))
    page.heading(text.card_values_title(), level=3)
    page.caption(text.card_values_caption())
    page.table(
        [text.card_label(), text.points_label()],
        [[text.card_group(group), text.card_points(group)] for group in sheet.card_values],
    )
    page.paragraph(text.hand_value_text())
    page.heading(text.hand_examples_title(), level=3)
    page.table(
        [text.cards_label(), text.points_label(), text.hand_value_label()],
        [
            [
                " ".join(text.card_code(card) for card in example.cards),
                f"{' + '.join(str(p) for p in example.points)} = {example.total}",
                f"{example.value} {text.natural_mark()}" if example.natural else example.value,
            ]
            for example in sheet.hand_examples
        ],
        formats=(None, None, "0"),
    )

    page.heading(text.deal_title())
    page.paragraph(text.deal_text())
    page.paragraph(text.natural_text(sheet))
    page.heading(text.who_wins_title(), level=3)
    page.paragraph(text.who_wins_text())

    page.heading(text.limits_title())
    page.caption(text.limits_caption(sheet))
    page.table(
        [text.bet_label(), text.minimum_label(), text.maximum_label()],
        [
            [
                text.limit_bets(group, sheet),
                cents_to_decimal(group.limits.minimum),
                cents_to_decimal(group.limits.maximum),
            ]
            for group in sheet.limit_groups
        ],
        formats=(None, formats["money"], formats["money"]),
    )
    page.paragraph(f"{text.below_minimum(sheet)} {text.above_maximum(sheet)}")
    for group in sheet.exclusive_groups:
        page.paragraph(text.exclusive_rule(group), font=_font(bold=True))

    page.heading(text.malfunctions_title())
    page.paragraph(text.malfunction_text())
    page.skip()
    page.paragraph(text.generated_by(sheet), font=_font(size=9, color="5A6273"))


def _pay_sheet(workbook: Workbook, sheet: RuleSheet, text: _Text, formats: dict) -> None:
    page = _Sheet(workbook, text._("Pay table"), (18, 56, 30, 12), text, formats)
    page.heading(text.bets_title())
    page.paragraph(text.payout_example(sheet.payout_example, sheet))
    headers = [text.bet_label(), text.wins_label(), text.pays_label(), text._("Odds")]
    page.heading(text.main_bets_title(), level=3)
    page.caption(text.main_bets_caption())
    _bet_table(page, headers, sheet.main_bets, sheet, text, formats)
    if sheet.side_bets or not sheet.bonus_bets:
        page.heading(text.side_bets_title(), level=3)
        if sheet.side_bets:
            page.paragraph(text.side_bets_text())
            page.caption(text.side_bets_caption())
            _bet_table(page, headers, sheet.side_bets, sheet, text, formats)
        else:
            page.paragraph(text.no_side_bets_text())
    for group in sheet.exclusive_groups:
        page.paragraph(text.exclusive_rule(group), font=_font(bold=True))
    if sheet.bonus_bets:
        page.heading(text.bonus_bets_title(), level=3)
        page.caption(text.bonus_bets_caption())
        _bet_table(page, headers, sheet.bonus_bets, sheet, text, formats)
    if sheet.bonus_table:
        page.paragraph(text.bonus_text())
        page.caption(text.bonus_table_caption())
        page.table(
            [text.result_label(), text.pays_label(), "", text._("Odds")],
            [
                [text.bonus_result(row), text.row_pays(row), None, _odds(row.odds)]
                for row in sheet.bonus_table
            ],
            formats=(None, None, None, formats["odds"]),
        )
    page.heading(text.rounding_title(), level=3)
    rounding = text.rounding_text(sheet)
    if sheet.rounding_example:
        rounding += " " + text.rounding_example(sheet.rounding_example, sheet)
    page.paragraph(rounding)


def _bet_table(
    page: _Sheet,
    headers: Sequence[str],
    bets: Sequence[OfferedBet],
    sheet: RuleSheet,
    text: _Text,
    formats: dict,
) -> None:
    rows: list[list[object]] = []
    spans: list[tuple[int, int]] = []  # a bet stated row by row: its name over its rows
    for offered in bets:
        if offered.form == PayForm.ROWS:
            # as the page: the bet and when it wins, then each of its rows with its pay
            spans.append((len(rows), len(rows) + len(offered.rows)))
            rows.append([text.bet_name(offered), text.bet_wins(offered), None, None])
            rows += [
                [None, text.words(row.says), text.row_pays(row), _odds(row.odds)]
                for row in offered.rows
            ]
            continue
        rows.append(
            [
                text.bet_name(offered),
                text.bet_wins(offered),
                text.bet_pays(offered, sheet),
                # One figure cannot say "25 for one hand, 200 for both": the text does.
                None if offered.perfect_pair_variant == "B" else _odds(offered.odds),
            ]
        )
    first = page.row + 1  # below the header row
    page.table(headers, rows, formats=(None, None, None, formats["odds"]))
    for top, bottom in spans:
        page.sheet.merge_cells(
            start_row=first + top, start_column=1, end_row=first + bottom, end_column=1
        )


def _drawing_sheet(workbook: Workbook, sheet: RuleSheet, text: _Text, formats: dict) -> None:
    columns = len(sheet.banker_columns)
    page = _Sheet(
        workbook, text._("Drawing rules"), (18, 14, *([8] * (columns - 1))), text, formats
    )
    page.heading(text.deal_title())
    page.paragraph(text.natural_text(sheet))
    page.heading(text.player_third_title(), level=3)
    page.caption(text.player_rule_caption())
    page.table(
        [text.player_total_label(), text.player_label()],
        [
            [text.range_text(row.first, row.last), text.player_action(row)]
            for row in sheet.player_rule
        ],
        fills=[[None, _DRAW_FILL if row.draws else None] for row in sheet.player_rule],
    )
    page.heading(text.banker_third_title(), level=3)
    page.paragraph(text.banker_third_text())
    page.caption(text.banker_rule_caption())
    over_columns = page.put(3, text.player_third_points_label())
    over_columns.font = _font(bold=True)
    over_columns.alignment = _CENTER
    over_columns.fill = _HEAD_FILL
    page.sheet.merge_cells(
        start_row=page.row, start_column=3, end_row=page.row, end_column=columns + 1
    )
    page.skip()
    first = page.row + 1  # below the header row
    page.table(
        [
            text.banker_total_label(),
            text.player_stood_label(),
            *[str(column) for column in sheet.banker_columns if column is not None],
        ],
        [
            [row.total, text.natural_action(), *[None] * (columns - 1)]
            if row.natural
            else [row.total, *[text.draw_action(cell.draws) for cell in row.cells]]
            for row in sheet.banker_rows
        ],
        fills=[
            [None, *[_DRAW_FILL if cell.draws else None for cell in row.cells]]
            for row in sheet.banker_rows
        ],
        formats=("0",),
        center=True,
    )
    # The natural totals: one cell across their rows says why no column applies, as the page.
    naturals = [index for index, row in enumerate(sheet.banker_rows) if row.natural]
    if naturals:
        page.sheet.merge_cells(
            start_row=first + naturals[0],
            start_column=2,
            end_row=first + naturals[-1],
            end_column=columns + 1,
        )


def _scoreboard_sheet(workbook: Workbook, sheet: RuleSheet, text: _Text, formats: dict) -> None:
    """What the table's scoreboard shows, in the page's words, and the example's statistics."""
    board = sheet.scoreboard
    assert board is not None
    page = _Sheet(workbook, text._("Scoreboard"), (30, 12, 18, 30), text, formats)
    page.heading(text.scoreboard_title())
    page.paragraph(
        f"{text.scoreboard_text()} {text.bet_shares_text(board)}"
        f" {text.scoreboard_example_text(board)}"
    )
    if "statistics" in board.parts:
        page.heading(text.statistics_title(), level=3)
        statistics = text.statistics_text()
        if board.statistics_reset:
            statistics += " " + text.shoe_count_text(board.statistics_reset)
        page.paragraph(statistics)
        page.caption(text.statistics_caption())
        page.table(
            [text.result_label(), text.hands_label(), text.share_label()],
            [
                [text.hands_dealt_label(), board.statistics.hands, None],
                *[
                    [text.bet_name(row.bet), row.count, _share(row.share * 100)]
                    for row in board.statistics_rows
                ],
            ],
            formats=(None, "0", "0.0%"),
        )
    if "bead_road" in board.parts:
        page.heading(text.bead_road_title(), level=3)
        page.paragraph(f"{text.bead_road_text(board)} {text.pair_dots_text()}")
    if "big_road" in board.parts:
        page.heading(text.big_road_title(), level=3)
        page.paragraph(f"{text.big_road_text()} {text.pair_dots_text()}")


#: A hand's cell on the Roads sheet: a light tint of its winner's colour, the text in the colour.
_TINTS = {Winner.BANKER: "FDE0E0", Winner.PLAYER: "DDE8F8", Winner.TIE: "DDF0DE"}
_INKS = {
    Winner.BANKER: BANKER_COLOUR[1:],
    Winner.PLAYER: PLAYER_COLOUR[1:],
    Winner.TIE: TIE_COLOUR[1:],
}
_ROAD_CELL = 4.5  # characters: a square-ish cell at the row height below
_ROAD_ROW_HEIGHT = 24  # points


def _road_text(
    bead: tuple[str, int] | None, ink: str | None, *, ties: int, pairs: tuple[bool, bool]
) -> CellRichText:
    """A road cell's text: the winner's letter and the score (Bead Road, ``bead``), a green
    ``/`` and the count of ties (Big Road), a red dot for a Banker pair and a blue one for a
    Player pair."""
    blocks: list[str | TextBlock] = []
    if bead is not None:
        letter, score = bead
        blocks.append(TextBlock(InlineFont(b=True, color=ink, rFont=FONT["name"]), letter))
        blocks.append(TextBlock(InlineFont(color=ink, rFont=FONT["name"]), str(score)))
    if ties:
        mark = "/" if ties == 1 else f"/{ties}"
        blocks.append(TextBlock(InlineFont(b=True, color=_INKS[Winner.TIE]), mark))
    banker_pair, player_pair = pairs
    if banker_pair:
        blocks.append(TextBlock(InlineFont(color=_INKS[Winner.BANKER]), "•"))
    if player_pair:
        blocks.append(TextBlock(InlineFont(color=_INKS[Winner.PLAYER]), "•"))
    return CellRichText(blocks)


def _road_grid(
    page: _Sheet, grid: tuple[int, int], cells: Sequence[tuple[int, int, object]]
) -> None:
    """Cells ``(column, row, (winner, text))`` of a road drawn in a grid of ``grid``
    (columns, rows)."""
    top = page.row
    columns, rows = grid
    for row in range(rows):
        page.sheet.row_dimensions[top + row].height = _ROAD_ROW_HEIGHT
        for column in range(columns):
            page.sheet.cell(row=top + row, column=column + 1).border = _BORDER
    for column, row, (winner, value) in cells:
        cell = page.sheet.cell(row=top + row, column=column + 1)
        cell.value = value
        cell.alignment = _CENTER_MIDDLE
        if winner is not None:
            cell.fill = PatternFill("solid", fgColor=_TINTS[winner])
    page.skip(rows + 1)


def _roads_sheet(workbook: Workbook, sheet: RuleSheet, text: _Text, formats: dict) -> None:
    """The example shoe's Bead Road and Big Road, a hand per cell, as the page draws them."""
    board: Scoreboard | None = sheet.scoreboard
    assert board is not None
    columns = max(board.big.columns, board.bead.columns, 12)
    page = _Sheet(workbook, text._("Roads"), (_ROAD_CELL,) * columns, text, formats)
    page.paragraph(text.road_cells_text())
    if "bead_road" in board.parts:
        page.heading(text.bead_road_title(), level=3)
        page.caption(text.bead_road_caption(board))
        bead = [
            (
                cell.column,
                cell.row,
                (
                    cell.hand.winner,
                    _road_text(
                        (text.winner_letter(cell.hand.winner.value), cell.hand.score),
                        _INKS[cell.hand.winner],
                        ties=0,
                        pairs=(cell.hand.banker_pair, cell.hand.player_pair),
                    ),
                ),
            )
            for cell in board.bead.cells
        ]
        _road_grid(page, (board.bead.columns, board.bead.rows), bead)
    if "big_road" in board.parts:
        page.heading(text.big_road_title(), level=3)
        page.caption(text.big_road_caption(board))
        big = [
            (
                cell.column,
                cell.row,
                (
                    cell.winner,
                    _road_text(
                        None, None, ties=cell.ties, pairs=(cell.banker_pair, cell.player_pair)
                    ),
                ),
            )
            for cell in board.big.cells
        ]
        _road_grid(page, (columns, board.big.rows), big)


def _rtp_sheet(workbook: Workbook, sheet: RuleSheet, text: _Text, formats: dict) -> None:
    page = _Sheet(workbook, text._("RTP"), (30, 20, 40), text, formats)
    page.heading(text.rtp_title())
    page.paragraph(text.rtp_text())
    page.caption(text.rtp_caption())
    page.table(
        [text.bet_label(), text.rtp_label()],
        [[text.bet_name(o), _share(o.rtp_percent)] for o in sheet.bets],
        formats=(None, formats["percent"]),
    )
    page.paragraph(f"{text.best_rtp_text(sheet)} {text.strategy_text()}")


def _disclosure_sheet(workbook: Workbook, sheet: RuleSheet, text: _Text, formats: dict) -> None:
    adm = sheet.adm
    assert adm is not None
    page = _Sheet(workbook, text._("Disclosure"), (44, 60), text, formats)
    page.heading(text.adm_title())
    page.paragraph(text.adm_caption())
    win: object = (
        text.win_percentage_value(adm) if adm.win_percentage is None else _share(adm.win_percentage)
    )
    rows: list[tuple[str, object, str | None]] = [
        (text.game_label(), adm.game_name, None),
        (
            text.adm_code_label(),
            adm.regulator_code or text.missing_value("regulator_code"),
            None,
        ),
        (
            text.declared_rtp_label(),
            text.bets_rtp(sheet)
            if adm.declared_rtp is None
            else text.declared_rtp(adm)
            if adm.declared_rtp_reference
            else _share(adm.declared_rtp),
            formats["percent"],
        ),
        (
            text.operator_share_label(),
            text.bets_operator_share(sheet)
            if adm.operator_share is None
            else _share(adm.operator_share),
            formats["percent"],
        ),
        (
            text.adm_minimum_label(),
            cents_to_decimal(adm.minimum_stake),
            formats["money"],
        ),
        (
            text.adm_maximum_label(),
            cents_to_decimal(adm.maximum_stake),
            formats["money"],
        ),
        (
            text.opening_hours_label(sheet),
            text.opening_hours(adm) if adm.opening_hours else text.missing_value("opening_hours"),
            None,
        ),
        (text.malfunctions_title(), text.malfunction_text(), None),
        (text.strategy_label(), text.strategy_text(), None),
        (text.win_percentage_label(adm), win, formats["percent"]),
    ]
    if adm.win_percentage is not None:
        rows.append((text._("Updated on"), adm.updated_on, formats["date"]))
    page._row([text._("Item"), text._("Value")], header=True)
    for label, value, number_format in rows:
        page._row([label, value], formats=(None, number_format))
    page.skip()
    page.paragraph(text.variation_text())


# --- saving --------------------------------------------------------------------------------------


def render_xlsx(sheet: RuleSheet) -> bytes:
    """The workbook of a rule sheet, the same bytes for the same sheet (its words from the
    operator's templates where they override the built-in ones, with their errors)."""
    return with_templates_of(sheet, lambda: _workbook(sheet))


def _workbook(sheet: RuleSheet) -> bytes:
    text = _Text(sheet)
    formats = excel_formats(sheet.locale, sheet.currency)
    workbook = Workbook()
    workbook.remove(workbook.active)
    # The title is escaped as a print header is (its "&" doubled), as it has always been.
    title = header_text(f"{sheet.game_name}: {text.game_rules_title()}")
    pin_properties(workbook, as_of=sheet.as_of, tool_version=sheet.tool_version, title=title)
    workbook.properties.language = sheet.language
    _rules_sheet(workbook, sheet, text, formats)
    _pay_sheet(workbook, sheet, text, formats)
    _drawing_sheet(workbook, sheet, text, formats)
    if sheet.scoreboard is not None:
        _scoreboard_sheet(workbook, sheet, text, formats)
        _roads_sheet(workbook, sheet, text, formats)
    _rtp_sheet(workbook, sheet, text, formats)
    if sheet.adm is not None:
        _disclosure_sheet(workbook, sheet, text, formats)
    return workbook_bytes(workbook, sheet.as_of)
