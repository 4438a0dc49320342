"""The words of a page after the catalogue (reporting/presentation/page_words.py): the market's
names of the hands, an operator's own names of them for a game and a language, and every
English name on a page in another language marked as English."""

from __future__ import annotations

import dataclasses
import io
import re
from datetime import date
from decimal import Decimal
from html.parser import HTMLParser

import pytest
from openpyxl import load_workbook

from reporting.config.loader import load_config
from reporting.presentation.i18n import SOFT_HYPHEN, make_environment
from reporting.presentation.publisher import render_page
from reporting.presentation.rulesheet import build_rule_sheet
from reporting.presentation.rulesheet_xlsx import render_xlsx

AS_OF = date(2026, 11, 30)


def page_of(game, language: str) -> str:
    """The page's HTML as it is read: without the soft hyphens a phone may break words at."""
    sheet = build_rule_sheet(game, language, disclosure=None, as_of=AS_OF, tool_version="t")
    return render_page(sheet, "rules/page.html.j2").replace(SOFT_HYPHEN, "")


class _Text(HTMLParser):
    """The text of a page's body, each piece with the language it is in (the innermost
    ``lang`` around it); the drawings (SVG) and the style sheets left out."""

    VOID = {"meta", "link", "br", "img", "hr", "input", "source", "wbr"}
    INLINE = {"span", "a", "strong", "em", "b", "i", "abbr", "code"}

    def __init__(self):
        super().__init__()
        self.stack: list[tuple[str, str | None]] = []
        self.pieces: list[tuple[str, str]] = []

    def handle_starttag(self, tag, attrs):
        if tag not in self.INLINE:
            self.pieces.append(("", "\n"))  # a block's text is apart from the next one's
        if tag not in self.VOID:
            self.stack.append((tag, dict(attrs).get("lang")))

    def handle_endtag(self, tag):
        if tag not in self.INLINE:
            self.pieces.append(("", "\n"))
        while self.stack:
            if self.stack.pop()[0] == tag:
                break

    def handle_data(self, data):
        tags = {tag for tag, _ in self.stack}
        if tags & {"style", "svg", "head", "script"}:
            return
        language = next((lang for _, lang in reversed(self.stack) if lang), None)
        self.pieces.append((language or "", data))


def text_by_language(html: str) -> list[tuple[str, str]]:
    parser = _Text()
    parser.feed(html)
    return parser.pieces


def visible_text(html: str) -> str:
    return "".join(text for _, text in text_by_language(html))


# --- the market's names of the hands ----------------------------------------------------------


def test_the_italian_live_page_names_the_hands_as_the_italian_adm_pages_do(operator_config):
    """Seed page 000 (an ADM-licensed live baccarat page) says Giocatore, Banco, Coppia
    Giocatore, Coppia Banco: the demo's Italian live page does, and never Player or Banker."""
    text = visible_text(page_of(operator_config.games["live-baccarat-it"], "it"))
    for words in ("Giocatore", "Banco", "Coppia Giocatore", "Coppia Banco", "Bonus Giocatore"):
        assert re.search(rf"(?<!\w){words}(?!\w)", text), words
    assert not re.findall(r"(?<!\w)(?:Player|Banker)(?!\w)", text)


# --- an operator's own words for the hands ----------------------------------------------------

WORDS = """\
[games.live-baccarat-it]
languages = ["it", "en"]
words = { it = { player = "Player", banker = "Banker" } }

[games.mini-baccarat-it]
languages = ["it", "en"]
regulator_code = "2377"
opening_hours = "24h"

[games.live-baccarat-dk]
languages = ["da", "en"]
words = { da = { player = "Spiller", banker = "Bankør" } }
"""


@pytest.fixture(scope="module")
def worded(tmp_path_factory):
    path = tmp_path_factory.mktemp("words") / "operator.toml"
    path.write_text(WORDS, encoding="utf-8")
    return load_config(path)


def test_an_operators_words_are_on_that_games_pages_in_that_language_only(worded):
    live = visible_text(page_of(worded.games["live-baccarat-it"], "it"))
    for words in ("Coppia Player", "Coppia Banker", "Bonus Player", "del Banker", "il Player"):
        assert words in live, words
    assert not re.findall(r"(?<!\w)(?:Giocatore|Banco)(?!\w)", live)
    # the other Italian game of the file keeps the catalogue's words, and so do the game's
    # pages in the languages its words do not name
    mini = visible_text(page_of(worded.games["mini-baccarat-it"], "it"))
    assert "Giocatore" in mini and "Banco" in mini
    assert not re.findall(r"(?<!\w)(?:Player|Banker)(?!\w)", mini)
    english = visible_text(page_of(worded.games["live-baccarat-it"], "en"))
    assert "The Player’s hand has the higher value." in english


def test_an_operators_word_takes_the_forms_the_language_bends_a_hand_name_into(worded):
    """Danish writes a hand's genitive with -s ("Players hånd"): the operator's word takes it
    ("Spillers hånd"); one ending in s takes an apostrophe."""
    danish = visible_text(page_of(worded.games["live-baccarat-dk"], "da"))
    assert "Spillers hånd har den højeste værdi." in danish
    assert "Bankørs hånd har den højeste værdi." in danish
    assert not re.findall(r"(?<!\w)(?:Player|Banker)s?(?!\w)", danish)
    # names of bets made of a hand's name take the word too
    assert "Spiller Pair" in danish and "Bankør Bonus" in danish


def test_the_workbook_takes_the_operators_words_without_marks(worded):
    game = worded.games["live-baccarat-it"]
    sheet = build_rule_sheet(game, "it", disclosure=None, as_of=AS_OF, tool_version="t")
    workbook = load_workbook(io.BytesIO(render_xlsx(sheet)))
    cells = [
        str(cell.value)
        for worksheet in workbook
        for row in worksheet.iter_rows()
        for cell in row
        if cell.value is not None
    ]
    assert "Coppia Player" in cells
    assert not [cell for cell in cells if "<span" in cell or "Giocatore" in cell]


# --- Greek: the hands declined in the sentences -----------------------------------------------


def test_greek_sentences_decline_the_hands_rather_than_paste_their_names(operator_config):
    """ "νίκη της Μπάνκας", "νίκη του Παίκτη": the scoreboard's sentences name the hands in the
    genitive; a bet's name (nominative) pasted after "νίκη:" is gone."""
    text = visible_text(page_of(operator_config.games["live-baccarat-gr"], "el"))
    assert "κόκκινο για νίκη της Μπάνκας" in text
    assert "μπλε για νίκη του Παίκτη" in text
    assert "ζεύγος στα δύο πρώτα φύλλα της Μπάνκας" in text
    assert not re.search(r"νίκη: ", text)
    assert not re.search(r"(?:της|του) (?:Μπάνκα|Παίκτης)(?!\w)", text)


# --- English names on a page in another language ----------------------------------------------

#: The names each page keeps in English, as its market's tables show them (the oracle).
ENGLISH_NAMES = {
    ("live-baccarat-it", "it"): ("Bead Road", "Big Road"),
    ("ez-baccarat-it", "it"): ("Dragon 7", "Panda 8"),
    ("live-baccarat-dk", "da"): (
        "Player",
        "Banker",
        "Tie",
        "Player Pair",
        "Banker Pair",
        "Perfect Pair",
        "Either Pair",
        "Player Bonus",
        "Banker Bonus",
        "Bead Road",
        "Big Road",
    ),
    ("live-baccarat-gr", "el"): ("Player Pair", "Banker Pair", "Bead Road", "Big Road"),
}


@pytest.mark.parametrize(("game_id", "language"), sorted(ENGLISH_NAMES))
def test_every_english_name_on_a_page_in_another_language_is_marked_english(
    operator_config, game_id, language
):
    html = page_of(operator_config.games[game_id], language)
    pieces = text_by_language(html)
    names = ENGLISH_NAMES[(game_id, language)]
    marked = {text.strip() for lang, text in pieces if lang == "en"}
    for name in names:
        assert name in marked, name
    unmarked = " | ".join(text for lang, text in pieces if lang != "en")
    pattern = r"(?<!\w)(?:" + "|".join(map(re.escape, names)) + r")(?=s?(?!\w))"
    assert not re.findall(pattern, unmarked)
    assert "&lt;span" not in html


def test_an_english_word_an_operator_chose_is_marked_english_inside_a_name(worded):
    html = page_of(worded.games["live-baccarat-it"], "it")
    assert 'Coppia <span lang="en">Player</span>' in html
    assert '<span lang="en">Banker</span>' in html


def test_the_english_page_marks_nothing(operator_config):
    html = page_of(operator_config.games["live-baccarat-dk"], "en")
    assert 'lang="en">' not in html.split("<body>", 1)[1]


def test_a_marked_name_is_plain_text_where_markup_cannot_go(operator_config):
    """The drawings' titles (SVG), the workbook and the PDF's running headers take a name's
    text, never its mark."""
    game = operator_config.games["live-baccarat-dk"]
    html = page_of(game, "da")
    assert "<title>Bead Road</title>" in html and "<title>Big Road</title>" in html
    environment = make_environment("da")
    assert environment.from_string("{{ _('Player Pair')|css_string }}").render() == (
        '"Player Pair"'
    )


# --- the ADM block and the scoreboard, in the market's words ---------------------------------


def test_the_italian_adm_row_of_the_month_says_updated_once(operator_config):
    game = operator_config.games["live-baccarat-it"]
    sheet = build_rule_sheet(game, "it", disclosure=None, as_of=AS_OF, tool_version="t")
    adm = dataclasses.replace(sheet.adm, win_percentage=Decimal("97.25"))
    macros = make_environment("it").get_template("rules/macros.html.j2").module
    row = f"{macros.win_percentage_label(adm)} {macros.win_percentage_value(adm)}"
    assert row.lower().count("aggiornat") == 1
    assert macros.win_percentage_value(adm) == "97,25% (pubblicato in data 5 novembre 2026)"


@pytest.mark.parametrize("language", ["it", "en", "da", "fr"])
def test_a_draft_page_says_its_win_percentage_is_not_yet_published(operator_config, language):
    """A page marked "DRAFT, not for publication" said its figure was "published on 5
    November 2026", while the audit said it was on draft pages, not published."""
    game = operator_config.games["live-baccarat-it"]
    sheet = build_rule_sheet(game, language, disclosure=None, as_of=AS_OF, tool_version="t")
    adm = dataclasses.replace(sheet.adm, win_percentage=Decimal("97.25"))
    macros = make_environment(language).get_template("rules/macros.html.j2").module
    final, draft = macros.win_percentage_value(adm), macros.win_percentage_value(adm, True)
    assert draft != final
    words = {"it": "non ancora pubblicato", "en": "not yet published", "da": "endnu ikke",
             "fr": "pas encore publié"}[language]  # fmt: skip
    assert words in draft and words not in final


def test_the_adm_block_names_the_tables_hours_and_the_strategy_as_adm_does(operator_config):
    html = page_of(operator_config.games["live-baccarat-it"], "it")
    assert "Orari di apertura del tavolo" in html
    assert "Il gioco non prevede strategie" in html
    mini = page_of(operator_config.games["mini-baccarat-it"], "it")
    assert "Orari di disponibilità del gioco" in mini and "del tavolo" not in mini
    english = page_of(operator_config.games["live-baccarat-it"], "en")
    assert "Minimum stake per bet" in english and "Maximum stake per bet" in english
    assert "per participation" not in english and "per round" not in english


def test_the_scoreboard_says_whether_the_table_shows_the_share_of_the_bets(
    operator_config, tmp_path
):
    """The Italian tables' "% Su" (the share of the bets on Banco, Giocatore and Pareggio): a
    table that shows it (scoreboard part bet_shares) has it explained, any other says it is not
    shown."""
    text = visible_text(page_of(operator_config.games["live-baccarat-it"], "it"))
    assert (
        "Lo schermo non mostra la ripartizione delle puntate del tavolo tra Banco, Giocatore e"
        " Pareggio («% Su»)."
    ) in text
    path = tmp_path / "operator.toml"
    path.write_text(
        '[games.live-baccarat-it]\nlanguages = ["it"]\n'
        'scoreboard = ["statistics", "bead_road", "big_road", "bet_shares"]\n',
        encoding="utf-8",
    )
    shown = visible_text(page_of(load_config(path).games["live-baccarat-it"], "it"))
    assert "lo schermo mostra anche la ripartizione delle puntate" in shown
    assert "non mostra la ripartizione" not in shown


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("it", "un sabot di 8 mazzi, distribuito secondo queste regole: in tutto 79 mani."),
        ("da", "én kortslæde med 8 sæt kort, givet efter disse regler: 79 runder i alt."),
        ("en", "one shoe of 8 decks, dealt by these rules: 79 hands in all."),
    ],
)
def test_the_scoreboards_example_names_its_shoe_as_the_page_does(
    operator_config, language, expected
):
    game_id = {"it": "live-baccarat-it", "da": "live-baccarat-dk", "en": "live-baccarat-it"}
    text = visible_text(page_of(operator_config.games[game_id[language]], language))
    assert expected in text
    assert "kortspil" not in text


def test_the_italian_pair_sentence_says_what_a_pair_is(operator_config):
    text = visible_text(page_of(operator_config.games["live-baccarat-it"], "it"))
    assert "formano una coppia, cioè sono due carte uguali, qualunque sia il seme" in text
    assert "stesso numero o stessa figura" not in text


def test_a_page_that_would_print_two_bets_under_one_name_is_refused(operator_config):
    """The Player named "Tie" beside the Tie bet: two rows of one name, one at 1:1 and one at
    8:1. The rule sheet refuses it, naming the game, the bets and the words to change."""
    from reporting.errors import InputError

    game = dataclasses.replace(
        operator_config.games["live-baccarat-dk"], words=(("en", (("player", "Tie"),)),)
    )
    with pytest.raises(InputError) as error:
        build_rule_sheet(game, "en", disclosure=None, as_of=AS_OF, tool_version="t")
    assert str(error.value) == (
        "words.en: on the en pages of live-baccarat-dk the player and tie bets would be named"
        " 'Tie': give them names of their own"
    )
    assert build_rule_sheet(game, "da", disclosure=None, as_of=AS_OF, tool_version="t")


def test_a_house_rule_of_three_bets_says_only_one_of_them(operator_config):
    """A group of three printed "you may bet on Player, Banker or Tie, not on both"."""
    game = dataclasses.replace(
        operator_config.games["live-baccarat-gr"],
        exclusive_bets=(frozenset({"player", "banker", "tie"}),),
    )
    english, italian = (visible_text(page_of(game, language)) for language in ("en", "it"))
    assert "you may bet on only one of Player, Banker and Tie." in english
    assert "not on both" not in english
    assert "puntare su una sola tra Giocatore, Banco e Pareggio." in italian
