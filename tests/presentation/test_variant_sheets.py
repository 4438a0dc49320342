"""Rule sheets of the variant games (tests/presentation/conftest.py: EZ, no commission, Tiger):
every pay row of every bet on the sheet, named by its words, with its pay under the game's
table, in the view model, the HTML page, the PDF's text and the workbook, in every language;
the RTP of every bet the engine's. The PDFs are those of :data:`PRINTED`.

The issue it answers: "The rule sheet finds a bet's terms by probing three hand-picked
rounds, so the EZ sheet left out the push on a three-card 7 without a warning."
"""

from __future__ import annotations

import dataclasses
import io
import re
from datetime import date
from decimal import Decimal
from fractions import Fraction
from html.parser import HTMLParser
from pathlib import Path

import helpers
import pytest
from openpyxl import load_workbook
from pypdf import PdfReader

from reporting.config.languages import SUPPORTED_LANGUAGES
from reporting.config.loader import load_config
from reporting.engine.bets import BetResult
from reporting.engine.money import round_fraction
from reporting.engine.theory import game_odds
from reporting.errors import InputError
from reporting.presentation.documents import render_game_documents
from reporting.presentation.html import render_html
from reporting.presentation.i18n import (
    LOCALES,
    SOFT_HYPHEN,
    Formatter,
    load_translations,
    plain_text,
)
from reporting.presentation.publisher import with_publisher
from reporting.presentation.rulesheet import OfferedBet, PayForm, RuleSheet, build_rule_sheet
from tests.presentation.printed import (
    break_problems_of,
    printed_sheets,
    write_sheets,
)
from tests.presentation.variants import VARIANT_GAMES, VARIANTS_TOML

AS_OF = date(2026, 11, 30)
#: The sheets printed (tests/presentation/printed.py): each game in its configured languages,
#: and the Tiger table, the longest page, in every language.
PRINTED = printed_sheets(VARIANTS_TOML, VARIANT_GAMES, "tiger")


@pytest.fixture(scope="module")
def sheets(variant_config) -> dict[tuple[str, str], RuleSheet]:
    sheets = {}
    for game_id in VARIANT_GAMES:
        game = variant_config.game(game_id)
        for language in SUPPORTED_LANGUAGES:
            sheet = build_rule_sheet(
                game, language, disclosure=None, as_of=AS_OF, tool_version="test"
            )
            sheets[game_id, language] = with_publisher(sheet, variant_config.operator, game)
    return sheets


@pytest.fixture(scope="module")
def written(sheets, tmp_path_factory) -> tuple[Path, dict]:
    """Every variant game in every language, written once: as HTML and a workbook, and as a PDF
    if :data:`PRINTED`; with the page breaks of each PDF, read from the layout it is written
    from (tests/presentation/printed.py)."""
    folder = tmp_path_factory.mktemp("variant-sheets")
    return folder, write_sheets(sheets, PRINTED, folder)


@pytest.fixture(scope="module")
def rendered(written) -> Path:
    """The folder of every sheet written (:func:`written`)."""
    return written[0]


@pytest.fixture(scope="module")
def page_breaks(written) -> dict[tuple[str, str], list[list[str]]]:
    """What the breaks of each printed sheet do wrong, by (game, language)."""
    return written[1]


@pytest.mark.parametrize("language", SUPPORTED_LANGUAGES)
def test_no_printed_page_parts_a_heading_or_a_note_from_its_table(rendered, page_breaks, language):
    """Each variant game's sheet as printed: no row split over two pages, no heading or caption
    at the foot of a page, no table or note apart from what introduces it."""
    problems = break_problems_of(page_breaks, VARIANT_GAMES, language)
    assert not problems, "\n".join(problems)


# --- what a reader must find: each row's words beside its pay --------------------------------


def words(sheet: RuleSheet, wording) -> str:
    """A text of a bet in the sheet's language: a msgid translated, or the operator's own."""
    if wording.msgid is None:
        return wording.in_language(sheet.language)
    return load_translations(sheet.language).gettext(wording.msgid)


def pays(sheet: RuleSheet, result: BetResult, odds: Fraction | None) -> str:
    """A pay row's pay as the page prints it: ``40:1``, or the stake returned, or a loss."""
    if result is BetResult.WIN:
        return Formatter(LOCALES[sheet.language]).odds(odds)
    message = "Stake returned" if result is BetResult.PUSH else "Loses"
    return load_translations(sheet.language).gettext(message)


def stated_rows(sheet: RuleSheet, offered: OfferedBet) -> list[tuple[str, str]]:
    """What the page must say of a bet, as (words, pay) pairs: each row of a bet stated row
    by row; the sentence and the one figure of a bet with one winning row."""
    if offered.form is PayForm.ROWS:
        return [(words(sheet, row.says), pays(sheet, row.result, row.odds)) for row in offered.rows]
    assert offered.form is PayForm.ODDS, offered  # no variant pays by a table or hand count
    return [(words(sheet, offered.wins), Formatter(LOCALES[sheet.language]).odds(offered.odds))]


def rtp_text(sheet: RuleSheet, offered: OfferedBet) -> str:
    """A bet's name and its RTP as the page shows them (spaces as the page's text reads)."""
    rtp = Formatter(LOCALES[sheet.language]).percent(offered.rtp_percent)
    return re.sub(r"[ \t\n\r\f\v]+", " ", f"{words(sheet, offered.name)} {rtp}")


def adm_pair(sheet: RuleSheet, offered: OfferedBet) -> str:
    """A bet's name and its RTP as the ADM block writes them: one line, its spaces before a
    digit or a bracket no-break spaces (a line that began "7 92,39%" read as a figure of its
    own, "Banco (EZ)" broke before its bracket)."""
    words_of = re.sub(r" (?=[\d(])", "\xa0", re.sub(r"\s+", " ", words(sheet, offered.name)))
    return f"{words_of}\xa0{Formatter(LOCALES[sheet.language]).percent(offered.rtp_percent)}"


# --- the view model -----------------------------------------------------------------------------


@pytest.mark.parametrize("game_id", VARIANT_GAMES)
def test_every_row_of_every_bet_is_on_the_sheet_with_its_pay(variant_config, sheets, game_id):
    game = variant_config.game(game_id)
    sheet = sheets[game_id, "en"]
    assert [offered.bet for offered in sheet.bets] == list(game.bet_ids)
    for offered, rule in zip(sheet.bets, game.bets, strict=True):
        assert [row.says for row in offered.rows] == [row.says for row in rule.rows]
        for line, row in zip(offered.rows, rule.rows, strict=True):
            pay = game.pay_table.pay(row)
            assert (line.result, line.odds) == (
                (BetResult.WIN, pay) if isinstance(pay, Fraction) else (pay, None)
            )
        assert offered.name == rule.name and offered.wins == rule.wins


def test_the_ez_banker_returns_the_stake_on_a_three_card_7(sheets):
    banker = {offered.bet: offered for offered in sheets["ez-baccarat", "en"].bets}["banker_ez"]
    assert banker.form is PayForm.ROWS
    assert [(row.says.msgid, row.result, row.odds) for row in banker.rows] == [
        ("The Banker wins with a three-card 7: the stake is returned.", BetResult.PUSH, None),
        ("The Banker wins in any other way.", BetResult.WIN, 1),
        ("A tie returns the stake.", BetResult.PUSH, None),
    ]


def test_the_variants_are_grouped_with_the_main_or_the_side_bets(sheets):
    def grouped(game_id):
        sheet = sheets[game_id, "en"]
        return [bet.bet for bet in sheet.main_bets], [bet.bet for bet in sheet.side_bets]

    assert grouped("ez-baccarat") == (["player", "banker_ez", "tie"], ["dragon_7", "panda_8"])
    assert grouped("no-commission") == (["player", "banker_no_commission", "tie"], ["super_6"])
    main, side = grouped("tiger")
    assert main == ["player", "banker", "tie"]
    assert side == ["tiger", "small_tiger", "big_tiger", "tiger_tie", "tiger_pair"]
    assert all(sheets[game_id, "en"].bonus_bets == () for game_id in VARIANT_GAMES)


#: What a sheet says above its side bets: of pairs, Small and Big, that they are settled
#: whatever the main result; where a side bet wins only with a result (Super 6, Dragon 7,
#: the Tiger bets), that such a bet wins only with its result: never that Dragon 7 is
#: settled whatever the main result, a tie included (it loses on a tie).
WHATEVER_THE_RESULT = (
    "Side bets are settled on the cards, whatever the main result, a tie included."
)
ONLY_WITH_ITS_RESULT = (
    "Side bets are settled on the cards. A side bet whose winning condition names the main"
    " result (a hand winning, or a tie) wins only with that result; the others are settled"
    " whatever the main result, a tie included."
)


def test_the_side_bets_sentence_is_true_of_the_side_bets_offered(rendered, sheets, operator_config):
    for game_id in VARIANT_GAMES:  # each offers a side bet that wins only with a result
        assert any(bet.reads_the_result for bet in sheets[game_id, "en"].side_bets), game_id
        html = (rendered / f"{game_id}.en.html").read_text(encoding="utf-8")
        assert ONLY_WITH_ITS_RESULT in html and WHATEVER_THE_RESULT not in html, game_id
    classic = operator_config.game("live-baccarat-it")  # pairs only
    sheet = build_rule_sheet(classic, "en", disclosure=None, as_of=AS_OF, tool_version="test")
    assert sheet.side_bets and not sheet.side_bets_read_the_result
    html = render_html(sheet)
    assert WHATEVER_THE_RESULT in html and ONLY_WITH_ITS_RESULT not in html
    italian = (rendered / "ez-baccarat.it.html").read_text(encoding="utf-8")
    assert "vince solo con quel risultato" in italian and "pareggio compreso." in italian


def test_forms_read_from_the_rows(sheets):
    forms = {
        offered.bet: offered.form
        for game_id in VARIANT_GAMES
        for offered in sheets[game_id, "en"].bets
    }
    rows = {bet for bet, form in forms.items() if form is PayForm.ROWS}
    assert rows == {"banker_ez", "banker_no_commission", "tiger", "tiger_pair"}
    odds = {offered.bet: offered.odds for offered in sheets["tiger", "en"].bets}
    assert odds == {
        "player": 1,
        "banker": Fraction(19, 20),
        "tie": 8,
        "tiger": None,  # two figures: its rows say which
        "small_tiger": 22,
        "big_tiger": 50,
        "tiger_tie": 35,
        "tiger_pair": None,
    }


def test_a_table_without_the_classic_banker_has_no_commission_and_rounds_on_a_row(sheets):
    """A commission is stated on a main bet of one figure below even money (the classic
    Banker's 0.95:1): a no-commission table states none; its rounding example (a win falling
    between cents) is taken on the row of a bet of several figures that makes one (the
    Banker's 0.5:1 on a six), and names that pay. A Tiger table keeps the Banker's 5% and its
    example."""
    no_commission = sheets["no-commission", "en"]
    assert [bet.commission_percent for bet in no_commission.bets if bet.is_main] == [None] * len(
        [bet for bet in no_commission.bets if bet.is_main]
    )
    example = no_commission.rounding_example
    assert example is not None and example.one_of_its_pays
    assert example.bet.bet == "banker_no_commission" and example.odds == Fraction(1, 2)
    assert example.odds in {row.odds for row in example.bet.rows}
    assert example.exact_win == example.stake * example.odds != example.win
    page = plain_text(render_html(no_commission))
    assert f"where a {words(no_commission, example.bet.name)} bet pays 0.5:1, a winning bet" in page
    assert no_commission.payout_example.bet.bet == "tie"
    tiger = sheets["tiger", "en"]
    assert {bet.bet: bet.commission_percent for bet in tiger.bets if bet.is_main} == {
        "player": None,
        "banker": 5,
        "tie": None,
    }
    assert tiger.rounding_example is not None and tiger.rounding_example.bet.bet == "banker"


@pytest.mark.parametrize("game_id", VARIANT_GAMES)
def test_every_bets_rtp_is_the_engines(variant_config, sheets, game_id):
    odds = game_odds(variant_config.game(game_id))
    sheet = sheets[game_id, "en"]
    assert {offered.bet: offered.rtp_percent for offered in sheet.bets} == {
        bet.bet: bet.rtp * 100 for bet in odds.bets
    }
    assert len(sheet.bets) == len(odds.bets) >= 4


# --- the HTML page ------------------------------------------------------------------------------


class Rows(HTMLParser):
    """The rows of the page's tables: (the table's class, the row's class, its cells' text)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.table: list[str] = []
        self.rows: list[tuple[str, str, list[str]]] = []
        self.cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "table":
            self.table.append(attributes.get("class") or "")
        elif tag == "tr":
            self.rows.append((self.table[-1], attributes.get("class") or "", []))
        elif tag in ("th", "td"):
            self.cell = []

    def handle_endtag(self, tag):
        if tag == "table":
            self.table.pop()
        elif tag in ("th", "td") and self.cell is not None:
            self.rows[-1][2].append(re.sub(r"[ \t\n\r\f\v]+", " ", "".join(self.cell)).strip())
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:  # as read: without the soft hyphens a break would show
            self.cell.append(data.replace(SOFT_HYPHEN, ""))


def table_rows(html: str, table: str) -> list[tuple[str, list[str]]]:
    parser = Rows()
    parser.feed(html)
    return [
        (row_class, cells) for table_class, row_class, cells in parser.rows if table_class == table
    ]


@pytest.mark.parametrize("language", SUPPORTED_LANGUAGES)
@pytest.mark.parametrize("game_id", VARIANT_GAMES)
def test_the_page_names_every_row_beside_its_pay(rendered, sheets, game_id, language):
    sheet = sheets[game_id, language]
    html = (rendered / f"{game_id}.{language}.html").read_text(encoding="utf-8")
    rows = table_rows(html, "bets")
    for offered in sheet.bets:
        name = words(sheet, offered.name)
        (start,) = [i for i, (_, cells) in enumerate(rows) if cells and cells[0] == name]
        if offered.form is PayForm.ROWS:
            # the bet's sentence across the row, then one row per pay row: its words, its pay
            assert rows[start][1] == [name, words(sheet, offered.wins)]
            following = rows[start + 1 : start + 1 + len(offered.rows)]
            assert [row_class for row_class, _ in following] == ["pay-row"] * len(offered.rows)
            assert [tuple(cells) for _, cells in following] == stated_rows(sheet, offered)
        else:
            ((wins, figure),) = stated_rows(sheet, offered)
            assert rows[start][1][:2] == [name, wins]
            assert rows[start][1][2].startswith(figure)
    pay_rows = [cells for row_class, cells in rows if row_class == "pay-row"]
    assert len(pay_rows) == sum(len(b.rows) for b in sheet.bets if b.form is PayForm.ROWS) > 0
    assert all(len(cells) == 2 and all(cells) for cells in pay_rows)  # every row named


def test_the_italian_ez_page_states_the_push_on_a_three_card_7(rendered):
    html = (rendered / "ez-baccarat.it.html").read_text(encoding="utf-8")
    assert (
        "pay-row",
        ["Il Banco vince con 7 punti e tre carte: la puntata è restituita.", "Puntata restituita"],
    ) in table_rows(html, "bets")


@pytest.mark.parametrize("language", SUPPORTED_LANGUAGES)
@pytest.mark.parametrize("game_id", VARIANT_GAMES)
def test_the_page_gives_every_bets_rtp(rendered, sheets, game_id, language):
    sheet = sheets[game_id, language]
    html = (rendered / f"{game_id}.{language}.html").read_text(encoding="utf-8")
    rtp = [" ".join(cells) for _, cells in table_rows(html, "narrow")]
    for offered in sheet.bets:
        assert rtp_text(sheet, offered) in rtp


@pytest.mark.parametrize("language", SUPPORTED_LANGUAGES)
def test_the_adm_block_gives_every_bets_rtp(rendered, sheets, language):
    """An ADM game that declares no single RTP: its block gives the RTP of each of its bets,
    the variants' included, each the engine's."""
    sheet = sheets["ez-baccarat", language]
    assert sheet.adm is not None and sheet.adm.declared_rtp is None
    html = (rendered / f"ez-baccarat.{language}.html").read_text(encoding="utf-8")
    label = load_translations(language).gettext("Share of stakes returned as prizes (RTP)")
    (row,) = [
        cells for _, cells in table_rows(html, "facts") if cells[0] == label.replace("%%", "%")
    ]
    pairs = [adm_pair(sheet, offered) for offered in sheet.bets]
    assert row[1] == "\xa0· ".join(pairs)  # a line never begins with the separator
    # Dragon 7, Panda 8 and each figure never begin a line: no breakable space before a digit
    assert not any(re.search(r"\s(?<!\xa0)(?=[\d(])", pair) for pair in pairs), pairs
    assert any("Dragon\xa07\xa0" in pair for pair in pairs), pairs
    assert any("\xa0(EZ)\xa0" in pair for pair in pairs), pairs


# --- the PDF and the workbook -------------------------------------------------------------------


def pdf_text(path: Path) -> str:
    """The PDF's words, spaces folded."""
    return re.sub(r"\s+", " ", helpers.pdf_text(path))


@pytest.mark.parametrize(("game_id", "language"), sorted(PRINTED))
def test_the_pdf_names_every_row_beside_its_pay_and_every_rtp(rendered, sheets, game_id, language):
    sheet = sheets[game_id, language]
    path = rendered / f"{game_id}.{language}.pdf"
    text = pdf_text(path)  # the PDF's text holds a no-break space as a space
    for offered in sheet.bets:
        for said, pay in stated_rows(sheet, offered):
            assert re.sub(r"\s+", " ", f"{said} {pay}") in text, (offered.bet, said, pay)
        assert re.sub(r"\s+", " ", rtp_text(sheet, offered)) in text
    catalog = PdfReader(io.BytesIO(path.read_bytes())).trailer["/Root"]
    assert catalog["/Lang"] == language
    assert "/StructTreeRoot" in catalog and catalog["/MarkInfo"]["/Marked"]  # tagged


@pytest.mark.parametrize("language", SUPPORTED_LANGUAGES)
@pytest.mark.parametrize("game_id", VARIANT_GAMES)
def test_the_workbook_names_every_row_beside_its_pay_and_every_rtp(
    rendered, sheets, game_id, language
):
    sheet = sheets[game_id, language]
    book = load_workbook(rendered / f"{game_id}.{language}.xlsx")
    translations = load_translations(language)
    pay_table = [
        [cell.value for cell in row]
        for row in book[translations.gettext("Pay table")].iter_rows(max_col=4)
    ]
    for offered in sheet.bets:
        name = words(sheet, offered.name)
        (start,) = [i for i, row in enumerate(pay_table) if row[0] == name]
        if offered.form is PayForm.ROWS:
            assert pay_table[start][1] == words(sheet, offered.wins)
            following = pay_table[start + 1 : start + 1 + len(offered.rows)]
            assert [(row[1], row[2]) for row in following] == stated_rows(sheet, offered)
            # (openpyxl reads a number back as a float: its shortest text is the number stored)
            assert [None if row[3] is None else Decimal(str(row[3])) for row in following] == [
                None if line.odds is None else round_fraction(line.odds, 4) for line in offered.rows
            ]
        else:
            ((wins, figure),) = stated_rows(sheet, offered)
            assert pay_table[start][1] == wins and pay_table[start][2].startswith(figure)
    rtp = {
        row[0].value: Decimal(str(row[1].value))
        for row in book[translations.gettext("RTP")].iter_rows()
        if isinstance(row[1].value, float)
    }
    for offered in sheet.bets:
        assert rtp[words(sheet, offered.name)] == round_fraction(offered.rtp_percent / 100, 4)


# --- an operator's own bet ----------------------------------------------------------------------

OWN_BET_TOML = """
[operator]
name = "Casinò Esempio S.p.A."

[bets.monkey_6]
group = "side"
name = { it = "Scimmia 6", en = "Monkey 6" }
wins = { it = "Il Banker vince con 6 punti.", en = "The Banker wins with a total of 6." }
rows = [
  { when = { winner = "banker", banker_total = 6, banker_cards = 3 }, key = "monkey_6_three", pays = "20", says = { it = "Con tre carte.", en = "With three cards & more." } },
  { when = { winner = "banker", banker_total = 6 }, key = "monkey_6", pays = "12", says = { it = "Con due carte.", en = "With two cards." } },
]

[games.monkey-it]
base = "mini-baccarat-it"
name = "Monkey Baccarat"
bets = ["player", "banker", "tie", "monkey_6"]
languages = ["it", "en"]
regulator_code = "2398"
opening_hours = "24h"
"""


@pytest.fixture(scope="module")
def monkey_game(tmp_path_factory):
    path = tmp_path_factory.mktemp("own-bet") / "operator.toml"
    path.write_text(OWN_BET_TOML, encoding="utf-8")
    return load_config(path).game("monkey-it")


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("it", ["Scimmia 6", "Il Banker vince con 6 punti.", "Con tre carte.", "Con due carte."]),
        (
            "en",
            [
                "Monkey 6",
                "The Banker wins with a total of 6.",
                "With three cards & more.",
                "With two cards.",
            ],
        ),
    ],
)
def test_an_operators_bet_is_stated_in_its_own_words_row_by_row(monkey_game, language, expected):
    sheet = build_rule_sheet(monkey_game, language, disclosure=None, as_of=AS_OF, tool_version="t")
    (monkey,) = sheet.side_bets
    assert monkey.form is PayForm.ROWS and [line.odds for line in monkey.rows] == [20, 12]
    html = render_html(sheet)
    rows = table_rows(html, "bets")
    (start,) = [i for i, (_, cells) in enumerate(rows) if cells[0] == expected[0]]
    assert rows[start][1] == expected[:2]
    assert [cells for _, cells in rows[start + 1 : start + 3]] == [
        [expected[2], "20:1"],
        [expected[3], "12:1"],
    ]
    assert "&amp; more." in html or language != "en"  # the operator's text, escaped
    rtp = game_odds(monkey_game).rtp_of("monkey_6") * 100
    assert monkey.rtp_percent == rtp
    assert rtp_text(sheet, monkey).split()[-1] in " ".join(
        " ".join(cells) for _, cells in table_rows(html, "narrow")
    )


def test_a_page_in_a_language_the_operators_bet_is_not_written_in_is_refused(monkey_game, tmp_path):
    """Every bet and every language at once: `rules --lang de,fr` named only the first bet
    and the first language."""
    said = "monkey-it: own bets without their words in a language of the pages: the monkey_6"
    with pytest.raises(InputError, match=f"{said} bet has none in 'da': give each"):
        build_rule_sheet(monkey_game, "da", disclosure=None, as_of=AS_OF, tool_version="t")
    second = dataclasses.replace(monkey_game.bets[-1], id="monkey_7")
    game = dataclasses.replace(
        monkey_game,
        bets=(*monkey_game.bets, second),
        limits=(*monkey_game.limits, ("monkey_7", monkey_game.limits_for("player"))),
    )
    with pytest.raises(InputError) as refused:
        render_game_documents(
            game, ("da", "fr"), ("html",), disclosure=None, as_of=AS_OF, folder=tmp_path,
            tool_version="t",
        )  # fmt: skip
    assert f"{said} bet has none in 'da', 'fr'; the monkey_7 bet has none in 'da', 'fr'" in str(
        refused.value
    )
    assert list(tmp_path.iterdir()) == []


def test_rules_names_every_game_s_bets_without_words_before_a_sheet(tmp_path):
    """Two games of own bets without German words: `rules --lang de` named the first game
    only, and the second was found at the next run."""
    from helpers import run_main

    bet = (
        '[bets.{id}]\ngroup = "side"\nname = {{ it = "A", en = "A" }}\n'
        'wins = {{ it = "w", en = "w" }}\nrows = [{{ when = {{ winner = "tie" }}, key = "{id}",'
        ' pays = "8", says = {{ it = "s", en = "s" }} }}]\n'
    )
    game = '[games.{game}]\nbase = "live-baccarat-it"\nbets = ["player", "banker", "{id}"]\n'
    config = tmp_path / "operator.toml"
    config.write_text(
        '[operator]\nname = "X"\n'
        + bet.format(id="one")
        + bet.format(id="two")
        + game.format(game="live-baccarat-it", id="one")
        + game.format(game="mini-baccarat-it", id="two").replace(
            "live-baccarat-it", "mini-baccarat-it", 1
        )
        + 'tables = ["MB-*"]\n',
        encoding="utf-8",
    )
    done = run_main(
        "rules", "--config", str(config), "--lang", "de", "--out", str(tmp_path / "out")
    )
    assert done.returncode == 2, done.stderr
    assert "live-baccarat-it: own bets without their words" in done.stderr
    assert "mini-baccarat-it: own bets without their words" in done.stderr
    assert not (tmp_path / "out").exists()
