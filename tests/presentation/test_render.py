"""Rendering rule sheets: every game in every language, the PDFs of PRINTED, the HTML's shape.

All sheets are rendered once into a module-scoped folder, and the tests read from there: every
game in every language as HTML and as a workbook, and as a PDF the sheets of
:data:`PRINTED` (printing is the slow part: tests/presentation/printed.py).
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import subprocess
import sys
from datetime import date, datetime
from decimal import Decimal
from html.parser import HTMLParser
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from helpers import HEADER_CODES_NAME, glossary, noisy, pdf_text, printed_headers, written_numbers
from openpyxl import load_workbook
from pypdf import PdfReader
from typer.testing import CliRunner

from reporting.config.languages import LANGUAGES, SUPPORTED_LANGUAGES
from reporting.errors import InputError
from reporting.presentation.documents import (
    file_name,
    render_disclosure_page,
    write_disclosure_page,
)
from reporting.presentation.html import render_html
from reporting.presentation.i18n import SOFT_HYPHEN, TEMPLATE_DIR, Formatter, load_translations
from reporting.presentation.pdf import render_pdf
from reporting.presentation.publisher import with_publisher
from reporting.presentation.rulesheet import build_rule_sheet
from reporting.presentation.rulesheet_xlsx import SHEET_IDS, render_xlsx
from tests.presentation.printed import (
    break_problems_of,
    formats_of,
    printed_sheets,
    write_sheets,
)
from tests.presentation.test_published_files import DRAFT_MARKS

AS_OF = date(2026, 11, 30)
TOOL_VERSION = "test"
ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).resolve().parent / "golden"
GAMES = ("live-baccarat-it", "live-baccarat-dk", "live-baccarat-gr", "mini-baccarat-it")
#: The sheets printed: each game in the sample operator's languages for it, and the Italian live
#: game (its ADM block, its draft marks) in every language.
PRINTED = printed_sheets(
    (ROOT / "sample_data" / "operator.toml").read_text(encoding="utf-8"), GAMES, GAMES[0]
)


def sheet_of(config, game_id: str, language: str):
    """The sheet as the sample operator publishes it (name, licence, logo, accent)."""
    game = config.game(game_id)
    sheet = build_rule_sheet(
        game, language, disclosure=None, as_of=AS_OF, tool_version=TOOL_VERSION
    )
    return with_publisher(sheet, config.operator, game)


@pytest.fixture(scope="module")
def written(operator_config, tmp_path_factory) -> tuple[Path, dict]:
    """Every game in every language, written once: as HTML and a workbook, and as a PDF if
    :data:`PRINTED`; with the page breaks of each PDF, read from the layout it is written
    from (tests/presentation/printed.py)."""
    folder = tmp_path_factory.mktemp("rule-sheets")
    sheets = {
        (game_id, language): sheet_of(operator_config, game_id, language)
        for game_id in GAMES
        for language in SUPPORTED_LANGUAGES
    }
    return folder, write_sheets(sheets, PRINTED, folder)


@pytest.fixture(scope="module")
def rendered(written) -> Path:
    """The folder of every sheet written (:func:`written`)."""
    return written[0]


@pytest.fixture(scope="module")
def page_breaks(written) -> dict[tuple[str, str], list[list[str]]]:
    """What the breaks of each printed sheet do wrong, by (game, language)."""
    return written[1]


def test_every_game_language_and_format_is_written(rendered):
    names = {path.name for path in rendered.iterdir()}
    expected = {
        f"{game}.{language}.{fmt}"
        for game in GAMES
        for language in SUPPORTED_LANGUAGES
        for fmt in formats_of(PRINTED, game, language)
    }
    assert {game for game, _ in PRINTED} == set(GAMES)
    assert {language for _, language in PRINTED} == set(SUPPORTED_LANGUAGES)
    assert names == expected  # and no temporary file left behind
    for name in expected:
        assert (rendered / name).stat().st_size > 1000, name


@pytest.mark.parametrize("language", SUPPORTED_LANGUAGES)
def test_no_printed_page_parts_a_heading_or_a_note_from_its_table(rendered, page_breaks, language):
    """Every game's sheet as printed: no row split over two pages, no heading or caption at the
    foot of a page, no table apart from the heading and paragraph that introduce it, no note
    apart from the table it follows (printed.break_problems, on each PDF's own layout)."""
    problems = break_problems_of(page_breaks, GAMES, language)
    assert not problems, "\n".join(problems)


# --- HTML ----------------------------------------------------------------------------------------


class Structure(HTMLParser):
    """Collects what a structure check needs: tags in order, attributes, nesting errors."""

    VOID = {"meta", "link", "br", "img", "hr", "input", "col", "source", "wbr"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.errors: list[str] = []
        self.tags: list[tuple[str, dict]] = []
        self.text_in: dict[str, list[str]] = {}

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes <{self.stack[-1] if self.stack else None}>")
            return
        self.stack.pop()

    def handle_data(self, data):
        if self.stack:
            self.text_in.setdefault(self.stack[-1], []).append(data)


def parse(html: str) -> Structure:
    structure = Structure()
    structure.feed(html)
    structure.close()
    return structure


@pytest.mark.parametrize("language", SUPPORTED_LANGUAGES)
@pytest.mark.parametrize("game_id", GAMES)
def test_html_structure(rendered, game_id, language):
    html = (rendered / f"{game_id}.{language}.html").read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>")
    page = parse(html)
    assert page.errors == [] and page.stack == []
    tags = [tag for tag, _ in page.tags]
    assert page.tags[0] == ("html", {"lang": language})
    # one <title> for the page, and one in each drawing (the scoreboard's roads)
    assert tags.count("h1") == 1 and tags.count("main") == 1
    assert tags.count("title") == 1 + tags.count("svg")
    # headings never skip a level
    level = 1
    for tag in tags:
        if tag in ("h1", "h2", "h3", "h4"):
            assert int(tag[1]) <= level + 1, f"{tag} after h{level}"
            level = int(tag[1])
    # every table has a caption first, every header cell a scope
    for index, tag in enumerate(tags):
        if tag == "table":
            assert tags[index + 1] == "caption"
    for tag, attributes in page.tags:
        if tag == "th":
            assert attributes.get("scope") in ("col", "row", "colgroup"), attributes
    # self-contained: no script, no external resource; the operator's logo, an <img> of a
    # data: URI with the operator's name as its alt text, is the only image
    assert not {"script", "link", "iframe"} & set(tags)
    images = [attributes for tag, attributes in page.tags if tag == "img"]
    assert [image["src"].split(",")[0] for image in images] == ["data:image/svg+xml;base64"]
    assert [image["alt"] for image in images] == ["Casinò Esempio S.p.A."]
    # (the drawings' SVG namespace is a name, never fetched)
    bare = html.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert "http://" not in bare and "https://" not in bare and "url(" not in html
    assert tags.count("style") == 3  # the stylesheet, the operator's accent, the print furniture


def test_html_shows_the_figures_in_the_locale(rendered):
    italian = (rendered / "live-baccarat-it.it.html").read_text(encoding="utf-8")
    assert "98,94%" in italian and "99,50%" in italian and "1.000,00\xa0€" in italian
    english = (rendered / "live-baccarat-it.en.html").read_text(encoding="utf-8")
    assert "98.94%" in english and "€1,000.00" in english and "30 November 2026" in english
    danish = (rendered / "live-baccarat-dk.da.html").read_text(encoding="utf-8")
    assert "50.000,00\xa0kr." in danish and "10.000,00\xa0kr." in danish  # tie limit apart
    greek = (rendered / "live-baccarat-gr.el.html").read_text(encoding="utf-8")
    assert "30 Νοεμβρίου 2026" in greek


def test_html_escapes_configuration_text(operator_config):
    import dataclasses

    game = dataclasses.replace(
        operator_config.game("live-baccarat-it"), name='<script>alert("x")</script> & Co'
    )
    sheet = build_rule_sheet(game, "en", disclosure=None, as_of=AS_OF, tool_version=TOOL_VERSION)
    html = render_html(sheet)
    assert "<script>" not in html
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; &amp; Co" in html
    assert parse(html).errors == []


def test_golden_html(rendered):
    """The English page of live-baccarat-it, byte for byte. Regenerate on purpose only:
    UPDATE_GOLDEN=1 pytest tests/presentation/test_render.py, then read the diff before committing."""
    name = "live-baccarat-it.en.html"
    actual = (rendered / name).read_text(encoding="utf-8")
    golden = GOLDEN / name
    if os.environ.get("UPDATE_GOLDEN") == "1":
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(actual, encoding="utf-8")
    assert golden.is_file(), f"{golden} is missing: run with UPDATE_GOLDEN=1 to create it"
    assert actual == golden.read_text(encoding="utf-8"), (
        f"{name} differs from {golden}; if the change is intended, run UPDATE_GOLDEN=1"
    )


# --- PDF -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("game_id", "language"), sorted(PRINTED))
def test_pdf_text_has_the_locale_figures_and_words(rendered, game_id, language):
    path = rendered / f"{game_id}.{language}.pdf"
    reader = PdfReader(io.BytesIO(path.read_bytes()))
    text = pdf_text(path)
    banker_rtp = "98,94" if language != "en" else "98.94"
    assert banker_rtp in text
    translations = load_translations(language)
    # the words of the language: translated where the catalogue has them, English until then
    for message in ("Bets and payouts", "Return to player", "Malfunctions"):
        assert translations.gettext(message) in text, message
    pages = len(reader.pages)
    last_page = translations.gettext("Page %(page)s of %(pages)s") % {
        "page": pages,
        "pages": pages,
    }
    assert last_page in text
    assert reader.metadata.creation_date == datetime(
        2026, 11, 30, tzinfo=reader.metadata.creation_date.tzinfo
    )


def test_pdf_page_size_and_fonts(rendered):
    reader = PdfReader(io.BytesIO((rendered / "live-baccarat-gr.el.pdf").read_bytes()))
    box = reader.pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (595, 842)  # A4 in points
    fonts = set()
    for page in reader.pages:
        for font in page["/Resources"]["/Font"].values():
            fonts.add(str(font.get_object()["/BaseFont"]))
    assert fonts and all("DejaVu" in font for font in fonts), fonts


def test_pdf_is_byte_identical_across_renders(operator_config, rendered):
    before = os.environ.get("SOURCE_DATE_EPOCH")
    sheet = sheet_of(operator_config, "live-baccarat-dk", "da")
    again = render_pdf(sheet)
    assert again == (rendered / "live-baccarat-dk.da.pdf").read_bytes()
    assert os.environ.get("SOURCE_DATE_EPOCH") == before  # restored after the render


# --- XLSX ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("game_id", GAMES)
def test_xlsx_is_byte_identical_across_renders(operator_config, rendered, game_id):
    for language in SUPPORTED_LANGUAGES:
        sheet = sheet_of(operator_config, game_id, language)
        assert render_xlsx(sheet) == (rendered / f"{game_id}.{language}.xlsx").read_bytes()


@pytest.mark.parametrize("language", SUPPORTED_LANGUAGES)
def test_the_bonus_table_s_results_span_the_bet_s_and_condition_s_columns(
    operator_config, rendered, language
):
    """The bonus table's results ("Wins by 9 points, without a natural") stood in the bets'
    narrow first column, wrapped in three lines a row beside an empty column. Each result
    spans the first two columns, its pay and odds beside it, each row one line or two."""
    from reporting.presentation.workbook_base import LINE_HEIGHT

    sheet = load_workbook(rendered / f"live-baccarat-it.{language}.xlsx").worksheets[1]
    joined = {str(cells) for cells in sheet.merged_cells.ranges if cells.max_col == 2}
    rows = [row for row in range(1, sheet.max_row + 1) if f"A{row}:B{row}" in joined]
    results = sheet_of(operator_config, "live-baccarat-it", language).bonus_table
    assert len(rows) == 1 + len(results) and results  # the header, then each result
    for row in rows[1:]:
        assert sheet.cell(row, 3).value and sheet.cell(row, 1).value, row
        assert sheet.row_dimensions[row].height <= 2 * LINE_HEIGHT, (row, sheet.cell(row, 1).value)


@pytest.mark.parametrize("game_id", GAMES)
def test_a_rule_sheet_workbook_writes_each_number_with_its_own_digits(rendered, game_id):
    """An RTP of 0.8564 was written 0.8564000000000001 (openpyxl's binary float): each rate,
    amount and odds is written with the digits of its exact value, in every language."""
    for language in SUPPORTED_LANGUAGES:
        numbers = written_numbers(rendered / f"{game_id}.{language}.xlsx")
        assert numbers, language
        assert {where: values for where, values in numbers.items() if noisy(values)} == {}


@pytest.mark.parametrize("language", SUPPORTED_LANGUAGES)
@pytest.mark.parametrize("game_id", GAMES)
def test_xlsx_has_no_formula(rendered, game_id, language):
    workbook = load_workbook(rendered / f"{game_id}.{language}.xlsx")
    for worksheet in workbook.worksheets:
        for row in worksheet.iter_rows():
            for cell in row:
                assert cell.data_type != "f", f"{worksheet.title}!{cell.coordinate}: {cell.value}"


@pytest.mark.parametrize("language", SUPPORTED_LANGUAGES)
def test_a_workbook_s_percentages_show_their_sign_as_its_page_does(rendered, language):
    """A Danish page printed "98,76 %" and its workbook "98,76%": the format's sign is placed
    and spaced as the page's (the locale's CLDR pattern), the digits left to the reader's
    system as every number of the workbook. The RTPs and the ADM block's percentages to two
    decimals, the scoreboard's shares to one."""
    locale = next(entry.locale for entry in LANGUAGES if entry.code == language)
    workbook = load_workbook(rendered / f"live-baccarat-it.{language}.xlsx")
    for sheet, places in [("RTP", 2), ("Disclosure", 2), ("Scoreboard", 1)]:
        worksheet = workbook.worksheets[SHEET_IDS.index(sheet)]
        (shown,) = {
            cell.number_format
            for row in worksheet.iter_rows()
            for cell in row
            if isinstance(cell.value, int | float | Decimal) and "%" in cell.number_format
        }
        value = "98.76"[: 3 + places]
        page = Formatter(locale).percent(Decimal(value), places)
        number = re.sub(r'"([^"]*)"', r"\1", shown).replace("0." + "0" * places, value)
        assert number == page.replace(",", "."), sheet


def test_xlsx_content_and_formats(rendered):
    workbook = load_workbook(rendered / "live-baccarat-it.en.xlsx")
    assert workbook.sheetnames == [
        "Rules",
        "Pay table",
        "Drawing rules",
        "Scoreboard",
        "Roads",
        "RTP",
        "Disclosure",
    ]
    assert workbook.properties.created == datetime(2026, 11, 30)
    assert workbook.properties.modified == datetime(2026, 11, 30)
    rtp = {row[0].value: row[1] for row in workbook["RTP"].iter_rows() if row[0].value}
    assert rtp["Banker"].value == pytest.approx(0.9894) and rtp["Banker"].number_format == "0.00%"
    assert rtp["Tie"].value == pytest.approx(0.8564)
    limits = [row for row in workbook["Rules"].iter_rows() if row[0].value == "Every bet"][0]
    assert limits[1].value == 5 and limits[2].value == 1000
    assert "€" in limits[1].number_format
    disclosure = {
        row[0].value: row[1] for row in workbook["Disclosure"].iter_rows() if row[0].value
    }
    assert disclosure["ADM game code"].value == "2376"
    assert disclosure["Share of stakes returned as prizes (RTP)"].value == pytest.approx(0.995)
    matrix = workbook["Drawing rules"]
    texts = [cell.value for row in matrix.iter_rows() for cell in row if cell.value]
    assert texts.count("Draws") + texts.count("Stands") >= 88  # 8 totals x 11 columns, + Player
    sheet = workbook["Rules"]
    assert str(sheet.page_setup.paperSize) == sheet.PAPERSIZE_A4
    assert "&P" in sheet.oddFooter.right.text and "&N" in sheet.oddFooter.right.text


def test_xlsx_without_adm_block_has_no_disclosure_sheet(rendered):
    workbook = load_workbook(rendered / "live-baccarat-dk.da.xlsx")
    assert len(workbook.sheetnames) == 6  # rules, pay table, drawing, scoreboard, roads, RTP
    money = [
        cell.number_format
        for row in workbook.worksheets[0].iter_rows()
        for cell in row
        if isinstance(cell.value, (int, float)) and "kr" in cell.number_format
    ]
    assert money and all(fmt == "#,##0.00 [$kr.-406]" for fmt in money)


def test_xlsx_text_never_becomes_a_formula(operator_config):
    import dataclasses

    game = dataclasses.replace(operator_config.game("live-baccarat-it"), name="=HYPERLINK(1)")
    sheet = build_rule_sheet(game, "en", disclosure=None, as_of=AS_OF, tool_version=TOOL_VERSION)
    workbook = load_workbook(io.BytesIO(render_xlsx(sheet)))
    # the title, under the draft's banner (the page is a draft: no round logs)
    (cell,) = [c for c in workbook["Rules"]["A"] if c.value == "=HYPERLINK(1)"]
    assert cell.data_type == "s"


def test_xlsx_prints_the_publisher_s_name_as_it_is_written(operator_config):
    """Issue 23, 15: an ``&`` of the operator's name starts a code in a print footer; doubled,
    it printed as itself, but openpyxl then turned the ``&[Page]`` of ``&&[Page]`` into a
    page number."""
    import dataclasses

    game = operator_config.game("live-baccarat-it")
    operator = dataclasses.replace(operator_config.operator, name=HEADER_CODES_NAME)
    sheet = build_rule_sheet(game, "en", disclosure=None, as_of=AS_OF, tool_version=TOOL_VERSION)
    printed = printed_headers(render_xlsx(with_publisher(sheet, operator, game)))
    assert len(printed) == 7
    for sections in printed:
        assert sections["oddFooter.L"].startswith(f"{HEADER_CODES_NAME} · ADM concession")
        assert sections["oddFooter.R"] == "Page «P» of «N»"  # the one place for codes
        assert "«" not in sections["oddHeader.L"] + sections["oddHeader.R"]


# --- the command ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def rules_app():
    """The ``rules`` command on its own Typer app (the main app registers it too)."""
    import typer

    from reporting.cli.rules import rules_command

    app = typer.Typer()
    app.command(name="rules")(rules_command)
    app.command(name="noop")(lambda: None)  # two commands keep ``rules`` a subcommand
    return app


def test_the_workbook_retypes_no_sentence_of_the_templates():
    """Each sentence once: the workbook translates only labels of its own (sheet names, its
    extra columns); every other word comes from the template macros."""
    package = ROOT / "reporting/presentation/rulesheet_xlsx"
    source = "".join(path.read_text(encoding="utf-8") for path in sorted(package.glob("*.py")))
    own = set(re.findall(r'text\._\(\s*"([^"]*)"', source))
    assert own == {
        "Rules",
        "Pay table",
        "Drawing rules",
        "Scoreboard",
        "Roads",
        "RTP",
        "Disclosure",
        "Odds",
        "Updated on",
        "Item",
        "Value",
    }
    in_templates = {
        message if isinstance(message, str) else message[0]
        for _file, _line, message, _comments, _context in extract_from_dir(
            TEMPLATE_DIR,
            [("**.j2", "jinja2")],
            {"**.j2": {"extensions": "jinja2.ext.i18n", "trim_blocks": "True"}},
        )
    }
    assert "Bets and payouts" in in_templates
    assert own & in_templates == set()


def test_rules_command_writes_files_and_reports_their_hashes(
    rules_app, tmp_path, sample_config_path
):
    result = CliRunner().invoke(
        rules_app,
        [
            "rules",
            "--game",
            "live-baccarat-it",
            "--format",
            "html,xlsx",
            "--out",
            str(tmp_path / "out"),
            "--as-of",
            "2026-11-30",
            "--config",
            str(sample_config_path),
            "--json",
        ],
    )
    assert result.exit_code == 1, result.output  # no round logs: the ADM pages are drafts
    document = json.loads(result.stdout)
    assert document["draft"] is True
    names = [Path(entry["path"]).name for entry in document["files"]]
    assert names == [
        "live-baccarat-it.it.html",
        "live-baccarat-it.it.xlsx",
        "live-baccarat-it.en.html",
        "live-baccarat-it.en.xlsx",
    ]  # the game's configured languages, in order, each in the formats asked for
    for entry in document["files"]:
        data = Path(entry["path"]).read_bytes()
        assert entry["sha256"] == hashlib.sha256(data).hexdigest()
        assert entry["as_of"] == "2026-11-30"
    assert any("no round logs" in warning for warning in document["warnings"])


def test_rules_command_reads_the_monthly_figure_from_the_database(
    rules_app, tmp_path, sample_config_path
):
    from reporting.store.schema import connect

    database = tmp_path / "empty.sqlite"
    connect(database).close()  # an empty store: no play in the reference month
    result = CliRunner().invoke(
        rules_app,
        [
            "rules",
            "--game",
            "live-baccarat-it",
            "--lang",
            "en",
            "--format",
            "html",
            "--out",
            str(tmp_path),
            "--db",
            str(database),
            "--as-of",
            "2026-11-30",
            "--config",
            str(sample_config_path),
        ],
    )
    assert result.exit_code == 1, result.output  # no play, a declared RTP in doubt: a draft
    assert f"wrote {tmp_path / 'live-baccarat-it.en.html'}" in result.stdout
    html = (tmp_path / "live-baccarat-it.en.html").read_text(encoding="utf-8")
    assert "0.00% (computed on 5 November 2026; not yet published)" in html  # a draft
    assert "no play in 2026-10" in result.stderr


def test_rules_that_cannot_write_one_sheet_leave_every_sheet_of_the_folder_as_it_was(
    rules_app, tmp_path, sample_config_path
):
    """The sheets of a run are written as one set: the last one's name taken by a folder,
    the run stops before any sheet is replaced, and the folder keeps one date's sheets."""
    out = tmp_path / "sheets"

    def rules(as_of: str):
        arguments = ["rules", "--lang", "en", "--format", "html", "--out", str(out)]
        arguments += ["--as-of", as_of, "--config", str(sample_config_path), "--json"]
        return CliRunner().invoke(rules_app, arguments)

    first = rules("2026-11-30")
    assert first.exit_code == 1, first.output
    paths = [Path(entry["path"]) for entry in json.loads(first.stdout)["files"]]
    assert len(paths) >= 4
    before = {path: path.read_bytes() for path in paths[:-1]}
    paths[-1].unlink()
    paths[-1].mkdir()
    second = rules("2026-12-31")
    assert isinstance(second.exception, InputError)
    assert str(second.exception).startswith(f"{paths[-1]}: cannot write it (no file was")
    assert {path: path.read_bytes() for path in paths[:-1]} == before
    assert sorted(p.name for p in out.iterdir()) == sorted(path.name for path in paths)


def test_rules_refused_for_its_database_make_no_folder(rules_app, tmp_path, sample_config_path):
    """A missing ``--db`` stopped the run after ``--out`` had been made: an empty folder
    left where the sheets were to go."""
    out = tmp_path / "sheets"
    arguments = ["rules", "--out", str(out), "--db", str(tmp_path / "missing.sqlite")]
    result = CliRunner().invoke(rules_app, [*arguments, "--config", str(sample_config_path)])
    assert isinstance(result.exception, InputError) and "missing.sqlite" in str(result.exception)
    assert not out.exists()


def test_a_set_of_files_fails_whole_when_its_last_file_finds_no_space(tmp_path, monkeypatch):
    import errno
    import os

    from reporting.errors import DiskFull
    from reporting.files import write_all_atomically

    first, second = tmp_path / "a.pdf", tmp_path / "b.pdf"
    first.write_bytes(b"old a")
    synced = []

    def fsync(descriptor):
        synced.append(descriptor)
        if len(synced) == 2:
            raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", fsync)
    with pytest.raises(DiskFull, match="b.pdf: cannot write it"):
        write_all_atomically([(first, b"new a"), (second, b"new b")])
    assert first.read_bytes() == b"old a"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["a.pdf"]  # no temporary left
    monkeypatch.undo()
    write_all_atomically([(first, b"new a"), (second, b"new b")])
    assert (first.read_bytes(), second.read_bytes()) == (b"new a", b"new b")


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("--lang", "it,ja", "--lang 'it,ja'"),
        ("--format", "docx", "--format 'docx'"),
        ("--as-of", "30/11/2026", "--as-of '30/11/2026'"),
    ],
)
def test_rules_command_refuses_bad_arguments(rules_app, tmp_path, option, value, message):
    result = CliRunner().invoke(rules_app, ["rules", "--out", str(tmp_path), option, value])
    assert isinstance(result.exception, InputError)
    assert message in str(result.exception)


def test_html_and_cli_do_not_import_weasyprint():
    code = (
        "import sys, reporting.cli.rules, reporting.presentation.html, reporting.presentation.rulesheet_xlsx;"
        "sys.exit('weasyprint' in sys.modules)"
    )
    assert subprocess.run([sys.executable, "-c", code], timeout=60).returncode == 0


def test_file_names(operator_config):
    sheet = sheet_of(operator_config, "mini-baccarat-it", "el")
    assert file_name(sheet, "pdf") == "mini-baccarat-it.el.pdf"


# --- the ADM disclosure page ---------------------------------------------------------------------


def test_disclosure_page_of_an_adm_game(operator_config, tmp_path):
    sheet = sheet_of(operator_config, "live-baccarat-it", "it")
    html_path = write_disclosure_page(sheet, "html", tmp_path)
    assert html_path.name == "live-baccarat-it.it.disclosure.html"
    html = html_path.read_text(encoding="utf-8")
    page = parse(html)
    assert page.errors == [] and page.tags[0] == ("html", {"lang": "it"})
    assert "2376" in html and "99,50%" in html and "0,50%" in html and "ottobre 2026" in html
    pdf_path = write_disclosure_page(sheet, "pdf", tmp_path)
    assert "99,50" in pdf_text(pdf_path)
    assert render_disclosure_page(sheet, "pdf") == pdf_path.read_bytes()


def test_disclosure_page_needs_an_adm_block(operator_config, tmp_path):
    sheet = sheet_of(operator_config, "live-baccarat-dk", "da")
    with pytest.raises(ValueError, match="no ADM disclosure block"):
        write_disclosure_page(sheet, "html", tmp_path)
    assert list(tmp_path.iterdir()) == []  # nothing half-written


#: Words each language's sheets must show: written here, not taken from the catalogues, so a
#: catalogue falling back to English fails.
@pytest.mark.parametrize(("game_id", "language"), sorted(PRINTED))
def test_pdf_text_is_in_the_language_of_the_sheet(rendered, game_id, language):
    """The glossary's words for the hands and the tie (the top of each catalogue), and a
    heading of every page, in the page's language."""
    words = glossary(language)
    text = pdf_text(rendered / f"{game_id}.{language}.pdf")
    heading = load_translations(language).gettext("Malfunctions")
    for word in (words["Player"], words["Banker"], words["Tie"], heading):
        assert word in text, (game_id, language, word)


# --- the published files' marks, read from the files written once above ------------------------


@pytest.mark.parametrize("language", SUPPORTED_LANGUAGES)
def test_a_rule_sheet_pdf_is_tagged_with_its_language_title_and_operator(
    rendered, operator_config, language
):
    reader = PdfReader(io.BytesIO((rendered / f"live-baccarat-it.{language}.pdf").read_bytes()))
    catalog = reader.trailer["/Root"]
    assert catalog["/Lang"] == language
    assert "/StructTreeRoot" in catalog and catalog["/MarkInfo"]["/Marked"]
    assert reader.metadata.author == operator_config.name == "Casinò Esempio S.p.A."
    assert reader.metadata.title.startswith("Live Baccarat")


@pytest.mark.parametrize("language", SUPPORTED_LANGUAGES)
def test_a_sheet_with_warnings_is_marked_a_draft_on_every_page_and_in_every_format(
    rendered, operator_config, language
):
    """Without the month's figure (no round logs) and with a declared RTP above the theory, the
    Italian live page is not publishable as it is: marked on every printed page, at the top of
    the screen and of the workbook."""
    draft = sheet_of(operator_config, "live-baccarat-it", language)
    assert draft.draft and draft.warnings
    mark = DRAFT_MARKS.get(language) or load_translations(language).gettext(DRAFT_MARKS["en"])
    assert language == "en" or mark != DRAFT_MARKS["en"]
    pages = pdf_text(rendered / f"live-baccarat-it.{language}.pdf").split("\f")[:-1]
    assert len(pages) > 1 and all(mark in page for page in pages)
    html = (rendered / f"live-baccarat-it.{language}.html").read_text(encoding="utf-8")
    banner = html.split('<div class="draft" role="note"><p>')[1].split("</p>")[0]
    assert banner.replace(SOFT_HYPHEN, "") == mark
    book = load_workbook(rendered / f"live-baccarat-it.{language}.xlsx")
    first = [
        cell.value for row in book.worksheets[0].iter_rows(max_row=8) for cell in row if cell.value
    ]
    assert any(str(value).startswith(mark) for value in first), first
