"""The rule sheet as a workbook: the page's content in five sheets, for reading and printing.

Sheets (names translated): **Rules** (the game, the shoe, card values, dealing, malfunctions,
limits), **Pay table** (every offered bet, the bonus bets and their table, payouts and
rounding), **Drawing rules** (the Player's table and the full Banker matrix), for a live game
that shows a scoreboard **Scoreboard** (what each part shows, the example shoe's statistics)
and **Roads** (its Bead Road and Big Road drawn in cells), **RTP** (the theoretical return of
every offered bet) and, for an ADM game, **Disclosure** (the ADM block).

The sentences are the page's own: the workbook calls the macros of
``reporting/templates/rules/macros.html.j2`` and takes their text, so a sentence is written and
translated once. Figures are stored as numbers (money and odds as ``Decimal``, percentages
as ``Decimal`` shares rounded to what is shown, dates as dates) with number formats in the
sheet's locale: currency symbol and its place, the date's language. Every text cell is a
string: text never becomes a formula.

Reproducible: the workbook's created and modified properties are the as-of date, and every
zip entry carries that date too, so the same sheet gives the same bytes.
"""

from __future__ import annotations

from openpyxl import Workbook

from reporting.presentation.publisher import with_templates_of
from reporting.presentation.rulesheet_model import RuleSheet
from reporting.presentation.rulesheet_xlsx.cells import PageText, excel_formats
from reporting.presentation.rulesheet_xlsx.sheets import (
    disclosure_sheet,
    drawing_sheet,
    pay_sheet,
    roads_sheet,
    rtp_sheet,
    rules_sheet,
    scoreboard_sheet,
)
from reporting.presentation.workbook_base import header_text, pin_properties, workbook_bytes

__all__ = ["SHEET_IDS", "excel_formats", "render_xlsx"]

#: The sheets, by their English (msgid) names, in workbook order.
SHEET_IDS = ("Rules", "Pay table", "Drawing rules", "Scoreboard", "Roads", "RTP", "Disclosure")


def render_xlsx(sheet: RuleSheet) -> bytes:
    """The workbook of a rule sheet, the same bytes for the same sheet (its words from the
    operator's templates where they override the built-in ones, with their errors)."""
    return with_templates_of(sheet, lambda: _workbook(sheet))


def _workbook(sheet: RuleSheet) -> bytes:
    text = PageText(sheet)
    formats = excel_formats(sheet.locale, sheet.currency)
    workbook = Workbook()
    workbook.remove(workbook.active)
    # The title is escaped as a print header is (its "&" doubled), as it has always been.
    title = header_text(f"{sheet.game_name}: {text.game_rules_title()}")
    pin_properties(workbook, as_of=sheet.as_of, tool_version=sheet.tool_version, title=title)
    workbook.properties.language = sheet.language
    rules_sheet(workbook, sheet, text, formats)
    pay_sheet(workbook, sheet, text, formats)
    drawing_sheet(workbook, sheet, text, formats)
    if sheet.scoreboard is not None:
        scoreboard_sheet(workbook, sheet, text, formats)
        roads_sheet(workbook, sheet, text, formats)
    rtp_sheet(workbook, sheet, text, formats)
    if sheet.adm is not None:
        disclosure_sheet(workbook, sheet, text, formats)
    return workbook_bytes(workbook, sheet.as_of)
