"""The table's scoreboard on the rule sheets of live games: the statistics, the Bead Road and
the Big Road, in every language, in the HTML page, the PDF and the workbook.

Every figure is checked against the example shoe recomputed here from the engine's rounds
(``deal_shoe`` gives the resolved rounds; the counts are taken from them directly, not from
the roads module's own statistics).
"""

from __future__ import annotations

import io
import re
from datetime import date, time

import pytest
from helpers import pdf_text
from openpyxl import load_workbook

from reporting.config.languages import SUPPORTED_LANGUAGES
from reporting.config.loader import ConfigError, load_config
from reporting.engine.rules import Winner
from reporting.presentation.html import render_html
from reporting.presentation.i18n import load_translations, page_translations
from reporting.presentation.pdf import render_pdf
from reporting.presentation.roads import EXAMPLE_SEED, deal_shoe
from reporting.presentation.rulesheet import build_rule_sheet
from reporting.presentation.rulesheet_xlsx import render_xlsx

AS_OF = date(2026, 11, 5)
LIVE_GAMES = ("live-baccarat-it", "live-baccarat-dk", "live-baccarat-gr")


def sheet_of(config, game_id: str, language: str):
    return build_rule_sheet(
        config.game(game_id), language, disclosure=None, as_of=AS_OF, tool_version="test"
    )


def example_counts(decks: int) -> dict[str, int]:
    """The example shoe's counts, from the engine's rounds (14 cards behind the cut card: the
    generator's own depth, the catalogue stating none)."""
    rounds = deal_shoe(EXAMPLE_SEED, decks, 14)
    return {
        "hands": len(rounds),
        "banker": sum(r.winner is Winner.BANKER for r in rounds),
        "player": sum(r.winner is Winner.PLAYER for r in rounds),
        "tie": sum(r.winner is Winner.TIE for r in rounds),
        "banker_pair": sum(r.banker_pair for r in rounds),
        "player_pair": sum(r.player_pair for r in rounds),
    }


def section(html: str) -> str:
    match = re.search(r'<section id="scoreboard">(.*?)</section>', html, re.S)
    assert match, "no scoreboard section"
    return match.group(1)


@pytest.mark.parametrize("language", SUPPORTED_LANGUAGES)
@pytest.mark.parametrize("game_id", LIVE_GAMES)
def test_a_live_page_explains_and_draws_its_scoreboard(operator_config, game_id, language):
    sheet = sheet_of(operator_config, game_id, language)
    html = render_html(sheet)
    board = section(html)
    counts = example_counts(sheet.decks)
    gettext = load_translations(language).gettext
    page_text = page_translations(language).gettext  # a name kept in English marked English
    for heading in ("The table’s scoreboard", "Shoe statistics", "Bead Road", "Big Road"):
        assert f">{page_text(heading)}</h" in board
    assert 'href="#scoreboard"' in html  # in the contents
    # the statistics table: hands dealt, then each result with its count
    cells = re.findall(r'<td class="num">([^<]*)</td>', board)
    assert cells[0] == str(counts["hands"])
    assert cells[2::2] == [
        str(counts[key]) for key in ("banker", "player", "tie", "banker_pair", "player_pair")
    ]
    assert counts["banker"] + counts["player"] + counts["tie"] == counts["hands"]
    # the Bead Road: the last 36 hands; the Big Road: a cell per Banker or Player hand, and a
    # pending first cell when the shoe opens with a tie (this example's does)
    assert board.count('<svg xmlns="http://www.w3.org/2000/svg" class="road bead-road"') == 1
    assert board.count('class="bead ') == min(36, counts["hands"])
    leading_ties = 0
    for outcome in deal_shoe(EXAMPLE_SEED, sheet.decks, 14):
        if outcome.winner is not Winner.TIE:
            break
        leading_ties += 1
    assert leading_ties >= 1  # EXAMPLE_SEED is chosen for it
    assert board.count('class="cell ') == counts["banker"] + counts["player"]
    # ties marked: one bar per cell holding ties; every tie counted somewhere
    assert board.count('class="tie-mark"') >= 1
    # the phone's cue beside the Big Road, inside its scrolling box
    assert re.search(r'<div class="scroll road-band">\s*<p class="scroll-cue"', board)
    if language != "en":  # translated, not the English msgids
        assert gettext("Swipe sideways to see the whole road.") != (
            "Swipe sideways to see the whole road."
        )


def test_only_the_shoe_count_starts_again_at_the_reset_time(operator_config):
    """The Italian live game's statistics reset at 00:01 (games.md): only the shoe count does;
    the other figures are per shoe."""
    html = render_html(sheet_of(operator_config, "live-baccarat-it", "en"))
    board = section(html)
    assert "The counts start again with every new shoe." in board
    assert "The shoe number counts the shoes dealt since 00:01 local time" in board
    assert "statistics shown on screen start again every day" not in html
    # a live game whose configuration states no reset time says nothing of one
    danish = section(render_html(sheet_of(operator_config, "live-baccarat-dk", "en")))
    assert "shoe number" not in danish


def test_a_game_without_a_scoreboard_shows_none(operator_config):
    mini = sheet_of(operator_config, "mini-baccarat-it", "it")
    assert mini.scoreboard is None
    html = render_html(mini)
    assert 'id="scoreboard"' not in html and "<svg" not in html


def test_a_configuration_says_which_parts_a_table_shows(tmp_path):
    config = tmp_path / "operator.toml"
    config.write_text(
        '[games.live-baccarat-dk]\nscoreboard = ["big_road"]\nstatistics_reset = "06:00"\n',
        encoding="utf-8",
    )
    sheet = sheet_of(load_config(config), "live-baccarat-dk", "en")
    assert sheet.scoreboard.parts == ("big_road",)
    assert sheet.scoreboard.statistics_reset == time(6, 0)
    board = section(render_html(sheet))
    assert "Big Road" in board and "bead-road" not in board and "Shoe statistics" not in board
    # without the statistics panel, the reset time is said in the shoe's paragraph
    assert "The shoe number counts the shoes dealt since 06:00" in render_html(sheet)


def test_a_reshuffled_game_has_no_scoreboard_to_show(tmp_path):
    config = tmp_path / "operator.toml"
    config.write_text('[games.mini-baccarat-it]\nscoreboard = ["bead_road"]\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"scoreboard: a shoe reshuffled every round keeps no"):
        load_config(config)


def test_the_pdf_holds_the_scoreboard(operator_config):
    sheet = sheet_of(operator_config, "live-baccarat-gr", "el")
    text = pdf_text(render_pdf(sheet))
    gettext = load_translations("el").gettext
    for heading in ("The table’s scoreboard", "Shoe statistics", "Bead Road", "Big Road"):
        assert gettext(heading) in text
    assert gettext("Swipe sideways to see the whole road.") not in text  # a screen's cue only


def test_the_workbook_holds_the_scoreboard_and_draws_the_roads(operator_config):
    sheet = sheet_of(operator_config, "live-baccarat-it", "it")
    book = load_workbook(io.BytesIO(render_xlsx(sheet)), rich_text=True)
    gettext = load_translations("it").gettext
    assert gettext("Scoreboard") in book.sheetnames and gettext("Roads") in book.sheetnames
    board = book[gettext("Scoreboard")]
    texts = [str(c.value) for row in board.iter_rows() for c in row if c.value is not None]
    assert gettext("Shoe statistics") in texts
    counts = example_counts(sheet.decks)
    rows = {
        row[0].value: row[1].value
        for row in board.iter_rows()
        if row[0].value and isinstance(row[1].value, int)
    }
    assert rows[gettext("Hands dealt")] == counts["hands"]
    assert rows[gettext("Tie")] == counts["tie"]
    roads = book[gettext("Roads")]
    tinted = [
        c
        for row in roads.iter_rows()
        for c in row
        if c.fill is not None and c.fill.fgColor is not None and c.fill.fgColor.rgb != "00000000"
    ]
    # a cell per Bead Road hand and per Big Road Banker or Player hand
    assert len(tinted) == min(36, counts["hands"]) + counts["banker"] + counts["player"]
    # each Bead Road cell: its winner's letter, then its score
    letters = "".join(gettext(letter) for letter in ("B", "P", "T"))
    beads = [str(c.value) for c in tinted[:36]]
    assert all(re.match(rf"^[{letters}]\d", bead) for bead in beads), beads


#: How the pages used to say where the opening ties go, against the drawing: "an empty first
#: place", which the drawing does not show once the first win has filled it.
EMPTY_FIRST_PLACE = {
    "en": "empty first place",
    "it": "prima casella vuota",
    "da": "tom første plads",
    "el": "κενή πρώτη θέση",
}


def leading_ties(decks: int) -> int:
    """How many ties the example shoe opens with, from the engine's rounds."""
    count = 0
    for outcome in deal_shoe(EXAMPLE_SEED, decks, 14):
        if outcome.winner is not Winner.TIE:
            return count
        count += 1
    return count


@pytest.mark.parametrize("language", SUPPORTED_LANGUAGES)
def test_the_big_road_draws_the_opening_ties_where_its_text_says(operator_config, language):
    """The example shoe opens with ties: the Big Road marks them on the first place, which the
    first win's ring then takes (the usual convention), so the first ring carries the tie
    line and the count of the ties *before* it; the page's sentence says exactly that, and
    not that they sit on an empty place."""
    sheet = sheet_of(operator_config, "live-baccarat-it", language)
    opening = leading_ties(sheet.decks)
    assert opening >= 2  # EXAMPLE_SEED is chosen for it
    board = section(render_html(sheet))
    big = board[board.index('class="road big-road"') :]
    first = re.search(r'<g class="cell (\w+)" data-hand="(\d+)">(.*?)</g>', big)
    assert first, big[:500]
    winner, number, marks = first.groups()
    assert winner in ("banker", "player") and int(number) == opening + 1
    assert 'fill="none" stroke=' in marks  # the first win's ring
    assert 'class="tie-mark"' in marks
    assert '<text class="tie-count"' in marks and f">{opening}</text>" in marks
    # the sentence under the heading says the same, in the page's language
    heading = re.escape(load_translations(language).gettext("Big Road"))
    start = re.search(heading + r"(</span>)?</h3>", board)  # lang="en" where kept in English
    assert start, board[:500]
    paragraph = board[start.end() :].split("</p>")[0]
    assert EMPTY_FIRST_PLACE.get(language, "empty first place") not in paragraph
    if language == "en":
        assert "on the first ring, the line stands for the ties before that win" in paragraph


@pytest.mark.parametrize("language", SUPPORTED_LANGUAGES)
def test_each_bead_carries_its_winners_letter_as_the_legend_names_it(operator_config, language):
    """For a reader who cannot tell the colours apart: every Bead Road disc has its winner's
    letter (the page's own, three different letters), and the legend pairs each colour with it
    ("a red circle (B)")."""
    sheet = sheet_of(operator_config, "live-baccarat-it", language)
    gettext = load_translations(language).gettext
    codes = (("banker", "B"), ("player", "P"), ("tie", "T"))
    letters = {winner: gettext(code) for winner, code in codes}
    assert len(set(letters.values())) == 3, letters
    board = section(render_html(sheet))
    bead = r'<g class="bead (\w+)" data-hand="\d+">.*?fill="#fff">([^<]+)<tspan'
    beads = re.findall(bead, board)
    assert len(beads) == 36
    assert all(letter == letters[winner] for winner, letter in beads), beads
    start = re.search(re.escape(gettext("Bead Road")) + r"(</span>)?</h3>", board)
    assert start, board[:500]
    paragraph = board[start.end() :].split("</p>")[0]
    for letter in letters.values():
        assert f"({letter})" in paragraph, paragraph
