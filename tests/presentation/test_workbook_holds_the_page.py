"""The rule-sheet workbook holds every statement the page holds (issue 13: "the rule-sheet
workbook holds every statement the PDF holds"; the PDF prints the HTML page).

Every text of the page (each text node of its headings, paragraphs, captions and cells, cut at
the " · " that joins short facts on one line) must be found in the workbook's cells. Left
out: what only a screen has (the contents list, the phone's scroll cue and matrix legend, the
drawings, whose statements are their captions and texts) and the figures, which the
workbook stores as numbers with number formats rather than as the page's text.
"""

from __future__ import annotations

import io
import re
from datetime import date
from html.parser import HTMLParser

import pytest
from babel import Locale
from openpyxl import load_workbook

from reporting.config.languages import SUPPORTED_LANGUAGES
from reporting.presentation.html import render_html
from reporting.presentation.i18n import LOCALES, SOFT_HYPHEN
from reporting.presentation.publisher import with_publisher
from reporting.presentation.rulesheet import build_rule_sheet
from reporting.presentation.rulesheet_xlsx import render_xlsx
from tests.presentation.variants import VARIANT_GAMES

GAMES = ("live-baccarat-it", "live-baccarat-dk", "live-baccarat-gr", "mini-baccarat-it")
# and the variant games (variants.py), whose bets are stated row by row
#: Elements a reader of the workbook has no use for: a screen's furniture.
SCREEN_ONLY = ("nav", "svg", "style", "head", "footer")
SCREEN_ONLY_CLASSES = ("scroll-cue", "matrix-legend")
#: How the pages' locales write the sample's currencies: a symbol, letters (kr., Dkr) or a code.
CURRENCY_MARKS = sorted(
    {
        mark
        for locale in LOCALES.values()
        for code in ("EUR", "DKK")
        for mark in (code, Locale.parse(locale).currency_symbols.get(code, code))
    },
    key=len,
    reverse=True,
)
#: A figure, as the page formats it: digits, separators, signs and currency marks only.
FIGURE = re.compile(
    r"[\d\s.,:%+\-–−×=€]*(?:" + "|".join(map(re.escape, CURRENCY_MARKS)) + r")?[\d\s.,%\-–]*"
)


class Texts(HTMLParser):
    """The text nodes of a page outside the screen-only parts."""

    def __init__(self):
        super().__init__()
        self.open: list[bool] = []  # per open element: whether it hides its content
        self.texts: list[str] = []

    def handle_starttag(self, tag, attrs):
        classes = (dict(attrs).get("class") or "").split()
        hidden = tag in SCREEN_ONLY or any(name in SCREEN_ONLY_CLASSES for name in classes)
        if tag not in ("meta", "br", "img"):
            self.open.append(hidden)

    def handle_endtag(self, tag):
        if self.open:
            self.open.pop()

    def handle_data(self, data):
        if not any(self.open):  # as read: without the soft hyphens a break would show
            self.texts.append(data.replace(SOFT_HYPHEN, ""))


def statements(html: str) -> list[str]:
    parser = Texts()
    parser.feed(html)
    found = []
    for text in parser.texts:
        for part in re.sub(r"\s+", " ", text).split(" · "):
            part = part.strip(" ()")
            if part and not FIGURE.fullmatch(part):
                found.append(part)
    return found


@pytest.mark.parametrize("language", SUPPORTED_LANGUAGES)
@pytest.mark.parametrize("game_id", GAMES + VARIANT_GAMES)
def test_every_statement_of_the_page_is_in_the_workbook(
    operator_config, variant_config, game_id, language
):
    config = variant_config if game_id in VARIANT_GAMES else operator_config
    game = config.game(game_id)
    sheet = with_publisher(
        build_rule_sheet(
            game, language, disclosure=None, as_of=date(2026, 11, 5), tool_version="t"
        ),
        config.operator,
        game,
    )
    book = load_workbook(io.BytesIO(render_xlsx(sheet)))
    cells = " ".join(
        str(cell.value)
        for worksheet in book.worksheets
        for row in worksheet.iter_rows()
        for cell in row
        if cell.value is not None
    )
    cells = re.sub(r"\s+", " ", cells)
    page = statements(render_html(sheet))
    assert len(page) > 100  # the page's statements were found
    missing = [text for text in page if text not in cells]
    assert missing == [], missing
