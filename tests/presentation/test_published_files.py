"""What a published file says about itself: a rule sheet's PDF is tagged (PDF/UA-1) with its
language, title and the operator as author; every styled cell of a rule-sheet workbook
names its font."""

from __future__ import annotations

import io
import zipfile
from datetime import date

import helpers
import pytest
from openpyxl import load_workbook
from pypdf import PdfReader

from reporting.config.languages import SUPPORTED_LANGUAGES
from reporting.presentation.i18n import SOFT_HYPHEN
from reporting.presentation.pdf import render_disclosure_pdf, render_pdf
from reporting.presentation.rulesheet import build_rule_sheet
from reporting.presentation.rulesheet_xlsx import render_xlsx
from reporting.presentation.workbook_base import FONT
from tests.presentation.variants import VARIANT_GAMES

AS_OF = date(2026, 11, 30)


def sheet(config, game_id: str, language: str):
    return build_rule_sheet(
        config.game(game_id),
        language,
        disclosure=None,
        as_of=AS_OF,
        tool_version="test",
        operator=config.name,
    )


def test_the_disclosure_page_pdf_is_tagged_too(operator_config):
    reader = PdfReader(
        io.BytesIO(render_disclosure_pdf(sheet(operator_config, "live-baccarat-it", "it")))
    )
    assert reader.trailer["/Root"]["/Lang"] == "it"
    assert reader.metadata.author == operator_config.name


@pytest.mark.parametrize("game_id", ["live-baccarat-it", "mini-baccarat-it", *VARIANT_GAMES])
def test_every_cell_of_a_rule_sheet_workbook_names_its_font(
    operator_config, variant_config, game_id
):
    config = variant_config if game_id in VARIANT_GAMES else operator_config
    book = load_workbook(io.BytesIO(render_xlsx(sheet(config, game_id, "en"))))
    fonts = {
        (cell.font.name, cell.font.family)
        for worksheet in book.worksheets
        for row in worksheet.iter_rows()
        for cell in row
        if cell.value is not None
    }
    assert fonts == {(FONT["name"], FONT["family"])}


def pdf_pages_text(pdf: bytes) -> list[str]:
    return helpers.pdf_text(pdf).split("\f")[:-1]


#: How each language's draft banner (at the top of the screen and the workbook) begins, as
#: the reviewers of the first four wrote it (the others' from their catalogues).
DRAFT_MARKS = {
    "it": "BOZZA, non pubblicare",
    "da": "UDKAST, må ikke offentliggøres",
    "el": "ΠΡΟΣΧΕΔΙΟ, όχι για δημοσίευση",
    "en": "DRAFT, not for publication",
}


def test_a_sheet_without_warnings_carries_no_draft_mark(operator_config):
    clean = sheet(operator_config, "live-baccarat-gr", "el")
    assert not clean.draft
    from reporting.presentation.html import render_html

    assert 'class="draft"' not in render_html(clean)
    assert not any(DRAFT_MARKS["el"] in page for page in pdf_pages_text(render_pdf(clean)))


def test_a_game_that_declares_no_single_rtp_shows_every_bet_s(operator_config):
    """The Mini Baccarat ADM block: the theoretical RTP of each bet it offers (the seed page's
    98,76% / 98,94% / 85,56%) and the operator's share of each, never "Non disponibile"."""
    import re

    from reporting.presentation.html import render_disclosure_html

    mini = sheet(operator_config, "mini-baccarat-it", "it")
    text = re.sub(r"<[^>]+>", "|", render_disclosure_html(mini).replace(SOFT_HYPHEN, ""))
    rows = [cell.strip() for cell in text.split("|") if cell.strip()]
    rtp = rows[rows.index("Quota della raccolta destinata a montepremi (% RTP)") + 1]
    share = rows[rows.index("Compenso del concessionario") + 1]
    # each bet's name and figure on one line (no-break spaces), the lines broken after the
    # dots (a line began with one)
    assert rtp == "Giocatore\xa098,76%\xa0· Banco\xa098,94%\xa0· Pareggio\xa085,56%"
    assert share == "Giocatore\xa01,24%\xa0· Banco\xa01,06%\xa0· Pareggio\xa014,44%"
    book = load_workbook(io.BytesIO(render_xlsx(mini)))
    values = [cell.value for ws in book.worksheets for row in ws.iter_rows() for cell in row]
    assert rtp in values and share in values


def test_a_certificate_cannot_make_a_declared_rtp_above_every_bet_true(tmp_path):
    """Issue 23: citing a certificate (``declared_rtp_reference``) took the Italian page's
    99,50% out of draft, though no bet of the table returns more than 98,94%. The figure stays
    a warning, which names the certificate; a figure the theory bears out is cited on every
    page with its certificate, with no warning."""
    from reporting.config.loader import load_config
    from reporting.engine.theory import game_odds
    from reporting.figures.regulators import configuration_warnings
    from reporting.presentation.html import render_disclosure_html

    path = tmp_path / "operator.toml"
    path.write_text(
        '[games.live-baccarat-it]\nlanguages = ["it"]\n'
        'declared_rtp_reference = "GLI-19 IT-2026-0042"\n',
        encoding="utf-8",
    )
    italy = load_config(path).game("live-baccarat-it")
    assert configuration_warnings(italy, game_odds(italy)) == [
        "declared RTP 99.50% is above the theoretical RTP of every bet offered (best: 98.94%):"
        " the certificate cited (GLI-19 IT-2026-0042) cannot make it true for these bets"
    ]
    path.write_text(
        '[games.live-baccarat-it]\nlanguages = ["it"]\ndeclared_rtp = "98.50"\n'
        'declared_rtp_reference = "GLI-19 IT-2026-0042"\n',
        encoding="utf-8",
    )
    config = load_config(path)
    italy = config.game("live-baccarat-it")
    assert configuration_warnings(italy, game_odds(italy)) == []
    page = sheet(config, "live-baccarat-it", "it")
    html = render_disclosure_html(page).replace(SOFT_HYPHEN, "")  # as read
    assert "98,50% (certificato: GLI-19 IT-2026-0042)" in html
    values = [
        c.value
        for ws in load_workbook(io.BytesIO(render_xlsx(page))).worksheets
        for r in ws.iter_rows()
        for c in r
    ]
    assert "98,50% (certificato: GLI-19 IT-2026-0042)" in values


@pytest.mark.parametrize("language", SUPPORTED_LANGUAGES)
def test_a_page_calls_nothing_certified_that_the_configuration_does_not_cite(operator_config, language):  # fmt: skip
    """The RNG game's sheet says a random number generator shuffles: the configuration names
    no certificate of it, so no page calls it certified."""
    from reporting.presentation.html import render_html

    html = render_html(sheet(operator_config, "mini-baccarat-it", language)).lower()
    assert not any(word in html for word in ("certif", "πιστοποιημ"))


@pytest.mark.parametrize(
    ("language", "mark", "reason"),
    [
        ("it", "BOZZA", "L'RTP dichiarato, 99,50%, supera il ritorno teorico di ogni puntata"),
        ("en", "DRAFT", "The declared RTP of 99.50% is above the theoretical RTP of every bet"),
    ],
)
def test_a_drafts_banner_names_the_figure_in_doubt_and_why_on_every_sheet(
    operator_config, language, mark, reason
):
    """Issue 23: the banner said only "draft, the command lists the problems", and only the
    workbook's first sheet carried it. It names the figure in doubt and why, in the page's
    language, at the top of the page, of every sheet of the workbook and in every sheet's
    print header."""
    from reporting.presentation.html import render_html

    page = sheet(operator_config, "live-baccarat-it", language)
    kinds = [doubt.kind for doubt in page.doubts]
    assert page.draft and kinds == ["declared_above_theory", "no_round_logs"]  # no --db
    html = render_html(page)
    banner = html[html.index('<div class="draft"') :]
    banner = banner[: banner.index("</div>")]
    assert mark in banner and reason in banner.replace("&#39;", "'")
    book = load_workbook(io.BytesIO(render_xlsx(page)))
    for worksheet in book.worksheets:
        top = next(str(c.value) for row in worksheet.iter_rows() for c in row if c.value)
        assert top.startswith(mark) and reason in top, worksheet.title
        assert mark in worksheet.oddHeader.center.text, worksheet.title


def test_a_drafts_print_header_puts_its_mark_on_a_line_below_the_sheets_name_and_date(
    operator_config,
):
    """The draft's mark sat on the header's one line, between the sheet's name and its date:
    in Italian the three ran together ("BOZZA, non pubblicaRegolamento in vigore"). It is a
    line of its own below them, written as a line break (openpyxl's escape wrote it
    ``_x000a_``, which LibreOffice printed as those characters)."""
    book = render_xlsx(sheet(operator_config, "live-baccarat-it", "it"))
    for sections in helpers.printed_headers(book):
        assert sections["oddHeader.C"] == "\nBOZZA, non pubblicare"
        assert "\n" not in sections["oddHeader.L"] + sections["oddHeader.R"]
    with zipfile.ZipFile(io.BytesIO(book)) as archive:
        assert not [name for name in archive.namelist() if b"_x000a_" in archive.read(name)]


def test_a_workbooks_win_percentage_says_what_its_page_says_of_its_publication(operator_config):
    """The PDF of a draft says its figure was "computed on 5 November 2026; not yet
    published"; its workbook showed the bare figure, which read as published. A draft's
    workbook says it as its page does; a page not a draft keeps the number (with its date)."""
    import dataclasses
    from decimal import Decimal

    page = sheet(operator_config, "live-baccarat-it", "it")
    page = dataclasses.replace(
        page, adm=dataclasses.replace(page.adm, win_percentage=Decimal("97.25"))
    )

    def win_cells(rules) -> list:
        disclosure = load_workbook(io.BytesIO(render_xlsx(rules))).worksheets[-1]
        return [row[1] for row in disclosure.iter_rows(values_only=True)
                if str(row[0]).startswith(("Consuntivo vincite", "Data di aggiornamento"))]  # fmt: skip

    assert page.draft  # its date in its sentence, no row "updated on" beside it
    assert win_cells(page) == ["97,25% (calcolato in data 5 novembre 2026; non ancora pubblicato)"]
    published = win_cells(dataclasses.replace(page, warnings=(), doubts=()))
    assert published[0] == 0.9725 and published[1].date() == page.adm.updated_on


@pytest.mark.parametrize("language", SUPPORTED_LANGUAGES)
def test_a_workbook_table_s_columns_hold_their_longest_words_whole(operator_config, language):
    """The Danish stake limits' header "Maksimumsindsats" broke in two ("Maksimumsindsa / ts")
    in a column of 16: every table column of a rule sheet's workbook is as wide as its
    longest word asks (up to a bound a web address may pass)."""
    from openpyxl.utils import get_column_letter

    from reporting.presentation.rulesheet_xlsx.cells import _WIDEST_WORD

    book = load_workbook(
        io.BytesIO(render_xlsx(sheet(operator_config, "live-baccarat-dk", language)))
    )
    for worksheet in book.worksheets:
        for row in worksheet.iter_rows():
            for cell in row:
                if not isinstance(cell.value, str) or cell.border.left.style is None:
                    continue  # a table's cells are ruled; a paragraph's words wrap as text
                longest = max((len(word) for word in cell.value.split()), default=0)
                width = worksheet.column_dimensions[get_column_letter(cell.column)].width
                assert min(longest, _WIDEST_WORD - 2) + 1 <= width, (
                    worksheet.title,
                    cell.coordinate,
                    cell.value,
                )
