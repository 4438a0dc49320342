"""The operator on every page: name and licence in the masthead (with the logo) and in the PDF's
running header, the accent colour, the tool named only in the metadata and one footer line,
and the operator's template folder replacing built-in templates by name."""

from __future__ import annotations

import base64
import dataclasses
import io
import re
from datetime import date
from pathlib import Path

import helpers
import pytest
from helpers import png_bytes, run_main
from openpyxl import load_workbook
from pypdf import PdfReader

from reporting.config.operator import Logo, Operator
from reporting.presentation.html import render_disclosure_html, render_html
from reporting.presentation.i18n import TEMPLATE_DIR
from reporting.presentation.pdf import _url_fetcher, render_disclosure_pdf, render_pdf
from reporting.presentation.publisher import (
    GENERIC_LICENCE_WORDS,
    TemplateOverrideError,
    publisher_of,
    with_publisher,
)
from reporting.presentation.rulesheet import build_rule_sheet
from reporting.presentation.rulesheet_xlsx import render_xlsx

AS_OF = date(2026, 11, 30)
SAMPLE = Path(__file__).resolve().parents[2] / "sample_data"
NAME = "Casinò Esempio S.p.A."
#: The licence line of each sample game's own language (the catalogues' market terms).
LICENCE_LINES = {
    ("live-baccarat-it", "it"): "Concessione ADM n. ADM-0000-ESEMPIO",
    ("live-baccarat-dk", "da"): "Tilladelse fra Spillemyndigheden nr. SPIL-0000-EKSEMPEL",
    ("live-baccarat-gr", "el"): "Άδεια ΕΕΕΠ αρ. HGC-0000-PARADEIGMA",
    ("live-baccarat-gr", "en"): "Hellenic Gaming Commission licence no. HGC-0000-PARADEIGMA",
}


def published(config, game_id: str, language: str, operator: Operator | None = None):
    game = config.game(game_id)
    sheet = build_rule_sheet(game, language, disclosure=None, as_of=AS_OF, tool_version="9.8.7")
    return with_publisher(sheet, operator or config.operator, game)


def pdf_text(pdf: bytes, tmp_path: Path) -> list[str]:
    """The text of each page, as pdftotext lays it out."""
    return helpers.pdf_text(pdf, layout=True).split("\f")[:-1]


def masthead(html: str) -> str:
    return html.split('<header class="masthead">', 1)[1].split("</header>", 1)[0]


def licence_in(head: str) -> str:
    """The masthead's licence line as read, and its number kept whole (never broken across
    lines: an id)."""
    (line,) = re.findall(r'<span class="licence">(.*?)</span>\s*</p>', head)
    (number,) = re.findall(r'<span class="id">([^<]+)</span>', line)
    assert number.split()[0] == number
    return re.sub(r"<[^>]+>", "", line)


def test_each_game_shows_the_licence_of_its_jurisdiction(operator_config):
    numbers = {
        game_id: publisher_of(operator_config.operator, operator_config.game(game_id)).licence
        for game_id in operator_config.games
    }
    by_jurisdiction = {
        "IT": "ADM-0000-ESEMPIO",
        "DK": "SPIL-0000-EKSEMPEL",
        "GR": "HGC-0000-PARADEIGMA",
    }
    assert {
        "live-baccarat-it": "ADM-0000-ESEMPIO",
        "live-baccarat-dk": "SPIL-0000-EKSEMPEL",
        "live-baccarat-gr": "HGC-0000-PARADEIGMA",
        "mini-baccarat-it": "ADM-0000-ESEMPIO",
    }.items() <= numbers.items()
    # every game of the sample (its variant tables too) shows its jurisdiction's number
    assert numbers == {
        game_id: by_jurisdiction[game.jurisdiction]
        for game_id, game in operator_config.games.items()
    }
    swiss = dataclasses.replace(operator_config.game("live-baccarat-it"), jurisdiction="CH")
    elsewhere = publisher_of(Operator("X", {"CH": "CH-1"}), swiss)
    assert elsewhere.licence == "CH-1" and elsewhere.licence_words == GENERIC_LICENCE_WORDS


@pytest.mark.parametrize(("game_id", "language"), sorted(LICENCE_LINES))
def test_the_masthead_names_the_operator_its_licence_and_shows_the_logo(
    operator_config, game_id, language
):
    html = render_html(published(operator_config, game_id, language))
    head = masthead(html)
    assert NAME in head and licence_in(head) == LICENCE_LINES[game_id, language]
    (image,) = re.findall(r'<img class="logo" src="([^"]+)" alt="([^"]+)">', head)
    assert image[1] == NAME  # the logo's alt text, in the HTML and in the tagged PDF
    prefix, encoded = image[0].split(",", 1)
    assert prefix == "data:image/svg+xml;base64"
    assert base64.b64decode(encoded) == (SAMPLE / "logo.svg").read_bytes()
    # only ever through <img>, never inlined: every inline drawing is one of the scoreboard's
    assert all(
        svg.startswith(' xmlns="http://www.w3.org/2000/svg" class="road ')
        for svg in html.split("<svg")[1:]
    )


def test_the_disclosure_page_and_the_workbook_carry_the_operator_too(operator_config):
    sheet = published(operator_config, "live-baccarat-it", "it")
    head = masthead(render_disclosure_html(sheet))
    assert licence_in(head) == LICENCE_LINES["live-baccarat-it", "it"]
    rules = load_workbook(io.BytesIO(render_xlsx(sheet)))["Regolamento"]
    banner, publisher, title = [cell for cell in rules["A"] if cell.value][:3]
    assert banner.value.startswith("BOZZA")  # the page is a draft: its banner comes first
    assert publisher.value == f"{NAME} · Concessione ADM n. ADM-0000-ESEMPIO"
    assert publisher.font.name == "Calibri" and publisher.font.bold
    assert title.value == "Live Baccarat" and title.row == publisher.row + 1


def test_the_accent_colour_drives_the_accent_property(operator_config):
    html = render_html(published(operator_config, "live-baccarat-dk", "da"))
    assert ":root { --accent: #1f4e79; --accent-tint: #e8edf1; }" in html
    assert html.index("--accent: #1f4e79") > html.index("--accent: #7a1f2b")  # it overrides
    plain = render_html(published(operator_config, "live-baccarat-dk", "da", Operator(NAME)))
    assert "--accent: #1f4e79" not in plain and '<img class="logo"' not in plain


def test_the_tool_is_named_in_the_metadata_and_one_footer_line_only(operator_config, tmp_path):
    sheet = published(operator_config, "live-baccarat-gr", "en")
    html = render_html(sheet)
    assert html.count("baccarat-report") == 2
    assert '<meta name="generator" content="baccarat-report 9.8.7">' in html
    assert "Generated by baccarat-report 9.8.7" in html.split('<footer class="page-footer">')[1]
    pdf = render_pdf(sheet)
    pages = pdf_text(pdf, tmp_path)
    assert len(pages) > 2
    header = f"{NAME} · Hellenic Gaming Commission licence no. HGC-0000-PARADEIGMA"
    assert all(header in page.splitlines()[0] for page in pages), [p[:200] for p in pages]
    assert sum(page.count("baccarat-report") for page in pages) == 1
    assert "Generated by baccarat-report 9.8.7" in pages[-1]
    metadata = PdfReader(io.BytesIO(pdf)).metadata
    assert metadata.author == NAME and metadata.creator == "baccarat-report 9.8.7"


def figures_alt(pdf: bytes) -> list[str]:
    """The alt text of every /Figure of the PDF's structure tree."""
    found: list[str] = []
    pending = [PdfReader(io.BytesIO(pdf)).trailer["/Root"]["/StructTreeRoot"]]
    while pending:
        node = pending.pop().get_object()
        if isinstance(node, list):
            pending.extend(node)
        elif isinstance(node, dict):
            if node.get("/S") == "/Figure":
                found.append(str(node.get("/Alt")))
            if "/K" in node:
                pending.append(node["/K"])
    return found


def test_the_pdf_draws_the_logo_tagged_and_stays_byte_identical(operator_config, tmp_path):
    sheet = published(operator_config, "live-baccarat-it", "it")
    first, second = render_disclosure_pdf(sheet), render_disclosure_pdf(sheet)
    assert first == second
    assert figures_alt(first) == [NAME]
    assert "ESEMPIO" in pdf_text(first, tmp_path)[0].split(NAME)[1]  # the logo's own word


def images_on_first_page(pdf: bytes) -> int:
    """Images drawn on page 1, in its resources or nested in a drawing's (an SVG's form)."""
    count, pending = 0, [PdfReader(io.BytesIO(pdf)).pages[0]["/Resources"]]
    while pending:
        objects = pending.pop().get_object().get("/XObject", {})
        for name in objects:
            drawn = objects[name].get_object()
            count += drawn["/Subtype"] == "/Image"
            if "/Resources" in drawn:
                pending.append(drawn["/Resources"])
    return count


def test_a_png_logo_is_embedded_as_an_image(operator_config, tmp_path):
    logo = Logo("image/png", png_bytes(), tmp_path / "logo.png")
    operator = dataclasses.replace(operator_config.operator, logo=logo)
    pdf = render_pdf(published(operator_config, "mini-baccarat-it", "en", operator))
    assert images_on_first_page(pdf) == 1


def test_an_svg_logo_fetches_nothing_when_the_pdf_is_printed(operator_config, tmp_path):
    """An SVG that points at a local file and a web address: shown through <img> in the HTML
    (where a browser fetches nothing for it), and drawn without them in the PDF."""
    secret = tmp_path / "secret.png"
    secret.write_bytes(png_bytes())
    hostile = (
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"'
        ' width="40" height="40"><script>alert(1)</script>'
        f'<image href="{secret.as_uri()}" width="40" height="40"/>'
        '<image xlink:href="http://192.0.2.1/x.png" width="40" height="40"/></svg>'
    ).encode()
    operator = Operator(NAME, logo=Logo("image/svg+xml", hostile, tmp_path / "logo.svg"))
    sheet = published(operator_config, "mini-baccarat-it", "en", operator)
    html = render_html(sheet)
    assert "<script" not in html and secret.as_uri() not in html
    assert images_on_first_page(render_pdf(sheet)) == 0  # the local PNG was not fetched
    fetcher = _url_fetcher()
    with pytest.raises(ValueError, match="not fetched"):
        fetcher(secret.as_uri())
    assert fetcher("data:text/plain;base64,eA==") is not None


def test_a_hostile_name_is_escaped_in_the_masthead(operator_config):
    operator = Operator('<b>"Bad" & Co</b>', {"IT": "<i>1</i>"})
    html = render_html(published(operator_config, "live-baccarat-it", "en", operator))
    head = masthead(html)
    assert "<b>" not in head and "<i>" not in head
    assert "&lt;b&gt;&#34;Bad&#34; &amp; Co&lt;/b&gt;" in head


# --- the template folder -----------------------------------------------------------------------

MALFUNCTION = """<section id="malfunction">
  <h2>{{ text.malfunctions_title() }}</h2>
  <p>{{ _("Our own words") }}: {{ sheet.game_name }}.</p>
</section>
"""


def with_templates(operator_config, folder: Path) -> Operator:
    return dataclasses.replace(operator_config.operator, templates=folder)


def section(html: str, name: str) -> tuple[str, str]:
    """The section ``name`` of a page, and the page without it."""
    start = html.index(f'<section id="{name}">')
    end = html.index("</section>", start) + len("</section>")
    return html[start:end], html[:start] + html[end:]


def test_an_override_replaces_its_template_and_nothing_else(operator_config, tmp_path):
    (tmp_path / "rules" / "sections").mkdir(parents=True)
    (tmp_path / "rules" / "sections" / "malfunction.html.j2").write_text(MALFUNCTION, "utf-8")
    operator = with_templates(operator_config, tmp_path)
    built_in = render_html(published(operator_config, "live-baccarat-it", "it"))
    overridden = render_html(published(operator_config, "live-baccarat-it", "it", operator))
    own, rest = section(overridden, "malfunction")
    theirs, built_in_rest = section(built_in, "malfunction")
    assert own == (
        '<section id="malfunction">\n  <h2>Malfunzionamenti</h2>\n'
        "  <p>Our own words: Live Baccarat.</p>\n</section>"
    )
    assert own != theirs and rest == built_in_rest


def test_an_override_of_the_stylesheet_restyles_the_page_and_its_pdf(operator_config, tmp_path):
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "rules.css").write_text("h1 { color: #006400; }\n", "utf-8")
    sheet = published(
        operator_config, "mini-baccarat-it", "en", with_templates(operator_config, tmp_path)
    )
    html = render_html(sheet)
    assert "h1 { color: #006400; }" in html and "--ink: #1d2330" not in html
    assert render_pdf(sheet)[:5] == b"%PDF-"


@pytest.mark.parametrize(
    ("text", "line", "reason"),
    [
        ("<section>\n<p>{% if %}</p>\n</section>\n", 2, "Expected an expression"),
        (
            "<section>\n\n<p>{{ no_such_name.x }}</p>\n</section>\n",
            3,
            "'no_such_name' is undefined",
        ),
        ("<section>\n<p>{{ 1 + 'a' }}</p>\n</section>\n", 2, "TypeError"),
        (
            '<section>\n{% include "rules/none.html.j2" %}\n</section>\n',
            2,
            "no template 'rules/none.html.j2' (neither in the folder nor built in)",
        ),
    ],
)
def test_a_mistake_in_an_override_names_its_file_and_line(
    operator_config, tmp_path, text, line, reason
):
    override = tmp_path / "rules" / "sections" / "malfunction.html.j2"
    override.parent.mkdir(parents=True)
    override.write_text(text, "utf-8")
    sheet = published(
        operator_config, "live-baccarat-it", "en", with_templates(operator_config, tmp_path)
    )
    with pytest.raises(TemplateOverrideError) as error:
        render_html(sheet)
    (problem,) = error.value.problems
    assert problem.startswith(f"{override}:{line}: "), problem
    assert reason in problem


def test_a_mistake_in_an_override_is_exit_2_through_the_cli_and_nothing_is_written(tmp_path):
    for name in ("operator.toml", "logo.svg"):
        (tmp_path / name).write_bytes((SAMPLE / name).read_bytes())
    config = tmp_path / "operator.toml"
    text = config.read_text("utf-8").replace('# templates = "my-templates"', 'templates = "mine"')
    config.write_text(text, "utf-8")
    override = tmp_path / "mine" / "rules" / "sections" / "malfunction.html.j2"
    override.parent.mkdir(parents=True)
    override.write_text("<section>\n<p>{{ nope }}</p>\n</section>\n", "utf-8")
    out = tmp_path / "out"
    process = run_main(
        "rules", "--config", str(config), "--game", "live-baccarat-it", "--out", str(out)
    )
    assert process.returncode == 2, process.stderr
    assert f"template: {override}:2: 'nope' is undefined" in process.stderr
    assert "Traceback" not in process.stderr and "internal error" not in process.stderr
    assert not out.exists()  # no page written, nor the folder for them


def test_the_workbook_takes_its_words_from_the_overrides_too(operator_config, tmp_path):
    """The workbook states what the page states: an override of the macros reaches both."""
    built_in = TEMPLATE_DIR / "rules" / "macros.html.j2"
    macros = built_in.read_text("utf-8").replace(
        '{{ _("A malfunction voids the round',
        '{{ "Our policy. " }}{{ _("A malfunction voids the round',
    )
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "macros.html.j2").write_text(macros, "utf-8")
    sheet = published(
        operator_config, "live-baccarat-it", "en", with_templates(operator_config, tmp_path)
    )
    assert "Our policy. A malfunction voids the round" in render_html(sheet)
    book = load_workbook(io.BytesIO(render_xlsx(sheet)))
    texts = [str(c.value) for ws in book.worksheets for row in ws.iter_rows() for c in row]
    assert any(text.startswith("Our policy. A malfunction voids") for text in texts)


def test_an_override_that_replaces_no_template_is_refused(operator_config, tmp_path):
    """A misspelt name would leave the built-in template in use without a word."""
    (tmp_path / "rules" / "sections").mkdir(parents=True)
    (tmp_path / "rules" / "sections" / "malfunctions.html.j2").write_text("<p></p>", "utf-8")
    (tmp_path / "README.md").write_text("our notes", "utf-8")  # not a template: left be
    sheet = published(
        operator_config, "live-baccarat-dk", "da", with_templates(operator_config, tmp_path)
    )
    with pytest.raises(TemplateOverrideError) as error:
        render_html(sheet)
    (problem,) = error.value.problems
    assert problem.endswith(
        "malfunctions.html.j2: replaces no built-in template"
        " (did you mean rules/sections/malfunction.html.j2?)"
    ), problem
