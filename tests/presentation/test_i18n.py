"""Languages: catalogues complete and in step with the sources, locale-aware formatting."""

from __future__ import annotations

import dataclasses
import io
import re
import sys
from datetime import date, time
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest
from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po
from helpers import glossary

from reporting.config.bets import BETS_PATH, catalogue_bets
from reporting.config.languages import DAY_FORMATS, LANGUAGES, SUPPORTED_LANGUAGES, Language
from reporting.config.loader import load_catalogue, load_config
from reporting.engine.bets import BetGroup, BetRule, PayRow, Wording
from reporting.engine.money import RoundingPolicy
from reporting.presentation.bet_words import catalogue_bet, extract_bet_words, own_words
from reporting.presentation.html import render_disclosure_html, render_html
from reporting.presentation.i18n import (
    LOCALE_DIR,
    LOCALES,
    TEMPLATE_DIR,
    CompiledTemplates,
    Formatter,
    catalogue_path,
    compile_translations,
    css_counters,
    css_string,
    load_catalog,
    load_translations,
    make_environment,
    plain_text,
)
from reporting.presentation.rulesheet import build_rule_sheet
from reporting.presentation.rulesheet_model import HUNDREDTHS

ROOT = Path(__file__).resolve().parents[2]
NBSP = "\xa0"


def template_messages() -> set[str | tuple[str, str]]:
    """The msgids the sources hold now, extracted as ``make i18n`` does (babel.cfg)."""
    with (ROOT / "babel.cfg").open(encoding="utf-8") as handle:
        method_map, options_map = parse_mapping_cfg(handle)
    found: set[str | tuple[str, str]] = set()
    for _file, _line, message, _comments, _context in extract_from_dir(
        ROOT, method_map, options_map
    ):
        found.add(message if isinstance(message, str) else tuple(message[:2]))
    return found


def template_catalog() -> Catalog:
    with (LOCALE_DIR / "messages.pot").open("rb") as handle:
        return read_po(handle)


def message_key(message) -> str | tuple[str, str]:
    return message.id if isinstance(message.id, str) else tuple(message.id)


# --- catalogues ----------------------------------------------------------------------------------


def test_every_supported_language_has_a_locale_and_a_catalogue():
    assert set(LOCALES) == set(SUPPORTED_LANGUAGES)
    for language in SUPPORTED_LANGUAGES:
        assert catalogue_path(language).is_file(), f"missing {catalogue_path(language)}"


def test_every_catalogue_on_disk_is_a_language_of_the_table():
    """A catalogue folder without its row in reporting/config/languages.py is never used."""
    folders = {path.parent.parent.name for path in LOCALE_DIR.glob("*/LC_MESSAGES/messages.po")}
    assert folders == set(SUPPORTED_LANGUAGES)


def test_the_template_catalogue_is_in_step_with_the_sources():
    pot = {message_key(m) for m in template_catalog() if m.id}
    sources = template_messages()
    assert sources - pot == set(), "run `make i18n`: these msgids are not in messages.pot"
    assert pot - sources == set(), "run `make i18n`: messages.pot holds msgids no source uses"


def catalogue_problems(language: str) -> list[str]:
    """Everything that keeps a language from being complete, one line per entry."""
    pot = {message_key(m): m for m in template_catalog() if m.id}
    catalog = load_catalog(language)
    plural_forms = Locale.parse(LOCALES[language]).plural_form.tags | {"other"}
    problems = []
    if catalog.num_plurals != len(plural_forms):
        problems.append(
            f"header: Plural-Forms has nplurals={catalog.num_plurals}, the {LOCALES[language]}"
            f" locale has {len(plural_forms)} forms ({', '.join(sorted(plural_forms))})"
        )
    seen = set()
    for message in catalog:
        if not message.id:
            continue
        key = message_key(message)
        seen.add(key)
        shown = key if isinstance(key, str) else key[0]
        if key not in pot:
            problems.append(f"stray (not in messages.pot): {shown!r}")
            continue
        if message.fuzzy:
            problems.append(f"fuzzy: {shown!r}")
        if isinstance(message.id, tuple):
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            strings = tuple(strings) + ("",) * (catalog.num_plurals - len(strings))
            for index, text in enumerate(strings):
                if not text:
                    problems.append(f"plural form msgstr[{index}] empty: {shown!r}")
        elif not message.string:
            problems.append(f"untranslated: {shown!r}")
    for key in pot.keys() - seen:
        shown = key if isinstance(key, str) else key[0]
        problems.append(f"missing (in messages.pot, not in the catalogue): {shown!r}")
    return problems


@pytest.mark.parametrize("language", SUPPORTED_LANGUAGES)
def test_catalogue_is_complete(language):
    """A locale is complete or fails here: untranslated, fuzzy, an empty plural form (Italian
    has three in Babel 2.19), a stray key or a missing one.

    it, da and el fail until the translators have filled their catalogues.
    """
    problems = catalogue_problems(language)
    assert not problems, (
        f"{catalogue_path(language).relative_to(ROOT)} is not complete: {len(problems)} "
        f"problem(s); the sheets show English for these entries:\n  " + "\n  ".join(problems)
    )


def test_completeness_check_catches_each_kind_of_gap(tmp_path, monkeypatch):
    # a small Italian catalogue with one problem of each kind, checked against a small pot
    pot = Catalog(locale=None)
    pot.add("Banker")
    pot.add("Tie")
    pot.add("Player")
    pot.add(("%(n)s deck", "%(n)s decks"))
    italian = Catalog(locale="it_IT")
    italian.add("Banker", "Banco")
    italian.add("Tie", "Pareggio", flags=["fuzzy"])
    italian.add(("%(n)s deck", "%(n)s decks"), ("%(n)s mazzo", "", "%(n)s mazzi"))
    italian.add("Stray", "Vagante")
    this = sys.modules[__name__]
    monkeypatch.setattr(this, "template_catalog", lambda: pot)
    monkeypatch.setattr(this, "load_catalog", lambda language: italian)
    problems = this.catalogue_problems("it")
    assert "fuzzy: 'Tie'" in problems
    assert "plural form msgstr[1] empty: '%(n)s deck'" in problems
    assert "stray (not in messages.pot): 'Stray'" in problems
    assert "missing (in messages.pot, not in the catalogue): 'Player'" in problems
    assert len(problems) == 4


# --- the bets' words: their declarations' msgids -------------------------------------------------


def bet_msgids(bet: BetRule) -> list[str | tuple[str, str]]:
    """Every msgid of a bet's declaration: its name, when it wins (a plural pair when it
    counts the cards dealt) and each pay row's words."""
    wins = bet.wins.msgid if bet.wins_plural is None else (bet.wins.msgid, bet.wins_plural)
    return [bet.name.msgid, wins, *(row.says.msgid for row in bet.rows)]


@pytest.mark.parametrize("language", [entry.code for entry in LANGUAGES])
def test_every_catalogue_bets_words_are_translated(language):
    """Every bet of reporting/data/bets.toml, complete in every language of the languages
    table: its name, its "wins when" sentence (every plural form filled) and the words of each
    of its pay rows. A new bet fails here until its words are translated (`make i18n`)."""
    catalog = load_catalog(language)
    bets = catalogue_bets()
    assert len(bets) >= 23 and "banker_ez" in bets  # the classic bets and the variants
    for bet in bets.values():
        for msgid in bet_msgids(bet):
            assert msgid, f"{bet.id}: a word without a msgid"
            message = catalog.get(msgid if isinstance(msgid, str) else msgid[0])
            assert message is not None, f"{bet.id}: {msgid!r} is not in the {language} catalogue"
            assert message_key(message) == msgid, f"{bet.id}: {msgid!r} singular or plural differs"
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            if isinstance(msgid, tuple):  # every plural form of the language, filled
                strings = tuple(strings) + ("",) * (catalog.num_plurals - len(strings))
            assert all(strings), f"{bet.id}: {msgid!r} untranslated in {language}"
            assert not message.fuzzy, f"{bet.id}: {msgid!r} fuzzy in {language}"


def test_the_extraction_method_finds_every_msgid_of_the_declarations():
    """babel.cfg's method for bets.toml yields exactly the declarations' msgids, each at the
    line that holds it, plural pairs as ngettext."""
    with BETS_PATH.open("rb") as handle:
        found = list(extract_bet_words(handle, (), (), {}))
    expected = {msgid for bet in catalogue_bets().values() for msgid in bet_msgids(bet)}
    assert {message for _, _, message, _ in found} == expected
    lines = BETS_PATH.read_text(encoding="utf-8").splitlines()
    for line, function, message, comments in found:
        singular = message if isinstance(message, str) else message[0]
        assert f'"{singular}"' in lines[line - 1], (line, singular)
        assert function == ("_" if isinstance(message, str) else "ngettext")
        assert comments and comments[0].startswith("Translators:")
    assert expected <= template_messages()  # babel.cfg runs it


def test_the_extraction_method_refuses_a_declaration_with_a_problem():
    bad = io.BytesIO(b'[bets.monkey_6]\ngroup = "side"\nname = "Monkey 6"\n')
    with pytest.raises(ValueError, match="rows"):
        list(extract_bet_words(bad, (), (), {}))


@pytest.mark.parametrize("language", SUPPORTED_LANGUAGES)
def test_the_macros_print_each_catalogue_bets_words_translated(language):
    """Each bet's words, as the catalogue translates them (a name the page keeps in English
    marked as English: see the tests of the page's words)."""
    macros = make_environment(language).get_template("rules/macros.html.j2").module
    translations = load_translations(language)
    for bet in catalogue_bets().values():
        assert plain_text(macros.bet_name(bet)) == translations.gettext(bet.name.msgid)
        assert plain_text(macros.bet_name(bet.id)) == translations.gettext(bet.name.msgid)
        for row in bet.rows:
            assert plain_text(macros.words(row.says)) == translations.gettext(row.says.msgid)


def test_an_operators_bet_prints_its_own_text_in_the_pages_language():
    """A bet of the operator's configuration has no msgid: the page prints its own words in
    its language, as written (escaped where shown), and never through gettext."""
    monkey = BetRule(
        "monkey_6",
        BetGroup.SIDE,
        (PayRow((("banker_total", frozenset({6})),), Fraction(12), "monkey_6"),),
        name=Wording(by_language=(("en", "Monkey 6 & Co"), ("it", "Scimmia 6"))),
    )
    english = make_environment("en").get_template("rules/macros.html.j2").module
    italian = make_environment("it").get_template("rules/macros.html.j2").module
    assert str(english.bet_name(monkey)) == "Monkey 6 &amp; Co"
    assert str(italian.bet_name(monkey)) == "Scimmia 6"
    danish = make_environment("da").get_template("rules/macros.html.j2").module
    with pytest.raises(KeyError, match="no 'da' text for 'Monkey 6 & Co'"):
        danish.bet_name(monkey)
    assert own_words("it", monkey.name) == "Scimmia 6"


def test_a_bet_id_the_catalogue_lacks_stops_the_render_naming_it():
    macros = make_environment("en").get_template("rules/macros.html.j2").module
    with pytest.raises(KeyError, match="lucky_six"):
        macros.bet_name("lucky_six")
    with pytest.raises(KeyError, match="no bet 'lucky_six' in the catalogue"):
        catalogue_bet("lucky_six")


def test_italian_catalogue_declares_three_plural_forms():
    assert load_catalog("it").num_plurals == 3
    assert Locale.parse("it_IT").plural_form.tags | {"other"} == {"one", "many", "other"}


def test_an_unusable_translation_falls_back_to_english():
    catalog = Catalog(locale="it_IT")
    catalog.add("Banker", "Banco")
    catalog.add("Tie", "")  # untranslated
    catalog.add("Player", "Giocatore", flags=["fuzzy"])
    catalog.add(("%(n)s deck", "%(n)s decks"), ("%(n)s mazzo", "", "%(n)s mazzi"))
    translations = compile_translations(catalog)
    assert translations.gettext("Banker") == "Banco"
    assert translations.gettext("Tie") == "Tie"
    assert translations.gettext("Player") == "Player"
    # one plural form empty: the whole entry falls back, for every count
    assert translations.ngettext("%(n)s deck", "%(n)s decks", 1) == "%(n)s deck"
    assert translations.ngettext("%(n)s deck", "%(n)s decks", 8) == "%(n)s decks"


def test_english_catalogue_translates_to_english():
    translations = load_translations("en")
    assert translations.gettext("Banker") == "Banker"
    assert (
        translations.ngettext(
            "Wins by %(count)s point, without a natural",
            "Wins by %(count)s points, without a natural",
            9,
        )
        == "Wins by %(count)s points, without a natural"
    )


#: Each language's word for the euro's hundredth (a stem: any form).
CENT_WORDS = {
    "da": "cent", "de": "cent", "el": "λεπτ", "en": "cent", "es": "céntim", "fr": "centime",
    "it": "centesim", "nl": "cent", "pt": "cêntim", "ro": "cenț", "sv": "cent",
}  # fmt: skip
#: The kroner's hundredth, in the scripts the catalogues write it in.
ORE_WORDS = ("øre", "έρε")
#: The languages whose reviewed rounding sentence says two decimal places of every currency.
TWO_DECIMALS_EVERYWHERE = ("de", "ro", "sv")
#: The hundredth a page names, by currency: the euro's cent and the Danish and Norwegian
#: øre; None: no coin's name, two decimal places (the dollar's cent is another word than the
#: euro's in French, Greek and Spanish; the Swedish öre is not the øre).
HUNDREDTH_NAMES = {
    "EUR": "cent", "DKK": "øre", "NOK": "øre", "USD": None, "SEK": None, "GBP": None,
    "CHF": None,
}  # fmt: skip


@pytest.mark.parametrize("language", SUPPORTED_LANGUAGES)
def test_the_rounding_sentence_names_the_hundredth_of_the_pages_own_currency(
    operator_config, language
):
    """A Danish table's English page said "Winnings are paid to the cent" of its kroner, and
    its Spanish page "al céntimo"; a Danish page of a euro table would have said "i hele øre".
    Each rounding rule, in each language, for currencies whose hundredth the test knows
    (:data:`HUNDREDTH_NAMES`) and each of :data:`HUNDREDTHS`: the cent where the hundredth is a
    cent, the øre where it is an øre, and two decimal places, by no coin's name, for any other
    (a name the template has no sentence for would fall there too, and fail)."""
    macros = make_environment(language).get_template("rules/macros.html.j2").module
    game = operator_config.game("live-baccarat-it")
    base = build_rule_sheet(
        game, language, disclosure=None, as_of=date(2026, 11, 30), tool_version="test"
    )
    for currency in HUNDREDTH_NAMES.keys() | HUNDREDTHS.keys():
        said = set()
        for rounding in RoundingPolicy:
            sheet = dataclasses.replace(base, currency=currency, rounding=rounding)
            text = plain_text(macros.rounding_text(sheet)).lower()
            said.add(text)
            named = (CENT_WORDS[language] in text, any(word in text for word in ORE_WORDS))
            unit = HUNDREDTH_NAMES.get(currency, HUNDREDTHS.get(currency))
            unit = None if language in TWO_DECIMALS_EVERYWHERE else unit
            expected = {None: (False, False), "cent": (True, False), "øre": (False, True)}
            assert named == expected[unit], (currency, text)
        assert len(said) == 3, said  # the three rules say three things


def test_the_french_catalogue_keeps_its_typography():
    """Its rule: a no-break space before a colon, a narrow one before a semicolon, an
    exclamation or question mark and inside guillemets; a plain space there lets the mark
    begin a line (the new rounding sentences had one before their semicolon)."""
    catalog = load_catalog("fr")
    plain = re.compile(r" [;:!?»]|« ")
    found = [
        text
        for message in catalog
        if message.id
        for text in (message.string if isinstance(message.string, tuple) else (message.string,))
        if plain.search(re.sub(r"<[^>]+>", "", text))
    ]
    assert found == []


def test_unknown_language_is_refused():
    with pytest.raises(ValueError, match="no catalogue for language 'ja'"):
        make_environment("ja")


# --- formatting ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("locale", "currency", "expected"),
    [
        ("it_IT", "EUR", f"1.000,00{NBSP}€"),
        ("da_DK", "DKK", f"1.000,00{NBSP}kr."),
        ("el_GR", "EUR", f"1.000,00{NBSP}€"),
        ("en_GB", "EUR", "€1,000.00"),
        ("en_GB", "DKK", f"DKK{NBSP}1,000.00"),  # Babel alone writes "DKK1,000.00"
        ("it_IT", "DKK", f"1.000,00{NBSP}DKK"),
        ("en_GB", "CHF", f"CHF{NBSP}1,000.00"),
        ("en_GB", "USD", "US$1,000.00"),  # a symbol, not letters: no space
    ],
)
def test_money_in_the_locale_from_integer_cents(locale, currency, expected):
    assert Formatter(locale).money(100000, currency) == expected


def test_money_parts_a_currency_code_from_a_negative_figure_too():
    assert Formatter("en_GB").money(-5050, "DKK") == f"-DKK{NBSP}50.50"


def test_money_refuses_anything_but_integer_cents():
    formatter = Formatter("it_IT")
    assert formatter.money(1235, "EUR") == f"12,35{NBSP}€"
    for bad in (12.35, Decimal("12.35"), True):
        with pytest.raises(TypeError):
            formatter.money(bad, "EUR")


@pytest.mark.parametrize(
    ("locale", "expected"),
    [("it_IT", "98,94%"), ("da_DK", f"98,94{NBSP}%"), ("el_GR", "98,94%"), ("en_GB", "98.94%")],
)
def test_percent_keeps_two_decimals_in_the_locale_pattern(locale, expected):
    # Babel's default would round 98.9421 to "99 %" (NOTES.md)
    assert Formatter(locale).percent(Fraction(989421, 10000)) == expected


def test_percent_rounds_half_up_from_exact_values():
    formatter = Formatter("en_GB")
    assert formatter.percent(Fraction(98945, 1000)) == "98.95%"  # half up, not half even
    assert formatter.percent(Decimal("99.50")) == "99.50%"
    assert formatter.percent(0) == "0.00%"
    assert formatter.percent(Fraction(5), None) == "5%"
    assert formatter.percent(Fraction(5, 2), None) == "2.5%"
    with pytest.raises(TypeError):
        formatter.percent(98.94)


def test_odds_and_plain_decimals():
    italian = Formatter("it_IT")
    assert italian.odds(Fraction(19, 20)) == "0,95:1"
    assert italian.odds(Fraction(27, 50)) == "0,54:1"
    assert italian.odds(Fraction(8)) == "8:1"
    assert italian.decimal(Fraction(20330, 4000)) == "5,0825"
    assert Formatter("en_GB").decimal(Fraction(3, 2)) == "1.5"
    assert Formatter("en_GB").decimal(Fraction(1, 3)) == "0.3333"


def test_greek_months_nominative_alone_genitive_in_a_date():
    greek = Formatter("el_GR")
    assert greek.month((2026, 2)) == "Φεβρουάριος 2026"
    assert greek.long_date(date(2026, 2, 5)) == "5 Φεβρουαρίου 2026"
    assert Formatter("it_IT").long_date(date(2026, 11, 5)) == "5 novembre 2026"
    assert Formatter("da_DK").long_date(date(2026, 11, 5)) == "5. november 2026"
    assert Formatter("en_GB").long_date(date(2026, 11, 5)) == "5 November 2026"
    assert Formatter("en_GB").month(date(2026, 10, 1)) == "October 2026"


def test_lists_and_times_in_the_locale():
    assert Formatter("it_IT").join_or(["Player Pair", "Banker Pair"]) == "Player Pair o Banker Pair"
    assert Formatter("en_GB").join_and(["10", "J", "Q", "K"]) == "10, J, Q and K"
    assert Formatter("da_DK").time(time(0, 1)) == "00.01"


def test_css_strings_cannot_break_out_of_a_style_element():
    escaped = str(css_string('Live "Baccarat" </style><script>'))
    assert escaped.startswith('"') and escaped.endswith('"')
    assert "<" not in escaped and '"' not in escaped[1:-1] and "&" not in escaped
    assert str(css_counters("Side {page} / {pages}")) == (
        '"Side " counter(page) " \\00002f  " counter(pages)'
    )


def test_templates_autoescape():
    environment = make_environment("en")
    assert environment.autoescape is True
    rendered = environment.from_string("{{ name }}").render(name="<b>Live</b> & co")
    assert rendered == "&lt;b&gt;Live&lt;/b&gt; &amp; co"


def test_the_filters_are_registered_in_one_place():
    environment = make_environment("it")
    for name in ("money", "percent", "decimal", "odds", "long_date", "month", "time"):
        assert name in environment.filters
    rendered = environment.from_string("{{ 98.94|percent }}")
    with pytest.raises(TypeError):  # a float literal never reaches the page
        rendered.render()
    assert environment.from_string("{{ cents|money('EUR') }}").render(cents=500) == f"5,00{NBSP}€"


# --- the market's wording ------------------------------------------------------------------------


def translations_of(language: str) -> list[str]:
    """Every msgstr of a language's catalogue, each plural form on its own."""
    found = []
    for message in load_catalog(language):
        if message.id:
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            found.extend(strings)
    return found


def test_greek_says_mpanka_never_trapezitis():
    """Greek operators write "μπάνκα" for the Banker, in every case (η Μπάνκα, της Μπάνκας)."""
    texts = translations_of("el")
    assert not [text for text in texts if "Τραπεζίτ" in text]
    translations = load_translations("el")
    assert translations.gettext("Banker") == "Μπάνκα"
    assert "της Μπάνκας" in translations.gettext("The Banker’s hand has the higher value.")


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        (
            "it",
            {
                "Player": "Giocatore",
                "Banker": "Banco",
                "Tie": "Pareggio",
                "Player Pair": "Coppia Giocatore",
                "Banker Pair": "Coppia Banco",
                "Either Pair": "Almeno una coppia",
                "Small": "Piccolo",
                "Big": "Grande",
                "Player Bonus": "Bonus Giocatore",
                "Banker Bonus": "Bonus Banco",
            },
        ),
        (
            "da",
            {
                "Player": "Player",
                "Banker": "Banker",
                "Tie": "Tie",
                "Player Pair": "Player Pair",
                "Banker Pair": "Banker Pair",
                "Either Pair": "Either Pair",
            },
        ),
        (
            "el",
            {
                "Player": "Παίκτης",
                "Banker": "Μπάνκα",
                "Tie": "Ισοπαλία",
                "Player Pair": "Player Pair",
                "Banker Pair": "Banker Pair",
            },
        ),
    ],
)
def test_bet_names_are_the_ones_the_markets_table_shows(language, expected):
    translations = load_translations(language)
    assert {msgid: translations.gettext(msgid) for msgid in expected} == expected


def test_italian_uses_the_adm_labels():
    macros = make_environment("it").get_template("rules/macros.html.j2").module
    assert str(macros.declared_rtp_label()) == "Quota della raccolta destinata a montepremi (% RTP)"
    translations = load_translations("it")
    assert translations.gettext("Operator’s share") == "Compenso del concessionario"
    for label in ("Minimum stake per bet", "Maximum stake per bet"):
        assert "del diritto di partecipazione" in translations.gettext(label)
    # ADM's label, and its standing statement of the update day (the regulator's day, 5).
    game = load_config(None).games["live-baccarat-it"]
    sheet = build_rule_sheet(game, "it", disclosure=None, as_of=date(2026, 11, 5), tool_version="t")
    assert str(macros.win_percentage_label(sheet.adm)) == (
        "Consuntivo vincite mese precedente (ottobre 2026; aggiornato il 5 di ogni mese)"
    )


@pytest.mark.parametrize(
    ("language", "day", "expected"),
    [
        ("en", 5, "updated on the 5th of each month"),
        ("en", 1, "updated on the 1st of each month"),
        ("da", 5, "opdateres den 5. i hver måned"),
        ("el", 5, "ενημερώνεται στις 5 κάθε μήνα"),
    ],
)
def test_the_update_day_reads_in_each_language(language, day, expected):
    game = load_config(None).games["live-baccarat-it"]
    sheet = build_rule_sheet(
        game, language, disclosure=None, as_of=date(2026, 11, 5), tool_version="t"
    )
    macros = make_environment(language).get_template("rules/macros.html.j2").module
    adm = dataclasses.replace(sheet.adm, update_day=day)
    assert expected in str(macros.win_percentage_label(adm))


def test_the_day_of_month_is_written_in_the_day_format_of_the_language_s_row():
    """No language code in the formatter: each row of the languages table names its day
    format, and a new language picks one (or adds one to DAY_FORMATS)."""
    for row in LANGUAGES:
        for day in range(1, 32):
            expected = DAY_FORMATS[row.day_format](day)
            assert Formatter(row.locale).day_of_month(day) == expected
    english = [
        Formatter("en_GB").day_of_month(day) for day in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 31)
    ]
    assert english == [
        "1st",
        "2nd",
        "3rd",
        "4th",
        "11th",
        "12th",
        "13th",
        "21st",
        "22nd",
        "23rd",
        "31st",
    ]
    assert [Formatter(LOCALES[code]).day_of_month(5) for code in ("it", "da", "el")] == [
        "5",
        "5.",
        "5",
    ]
    with pytest.raises(ValueError, match="language xx: no day format 'roman'"):
        Language("xx", "xx_XX", 0x0409, hand_genitive="", day_format="roman")
    with pytest.raises(ValueError, match="32 is not a day of a month"):
        Formatter("da_DK").day_of_month(32)


def test_italian_sabot_and_dates_read_as_italian():
    """ "dal sabot" (never "dallo"/"dello sabot"), and no article before a date Babel writes:
    "al 1 dicembre" and "il 1 dicembre" are wrong, "in data 1 dicembre" is right for any day."""
    texts = translations_of("it")
    assert not [text for text in texts if re.search(r"\bd[ae]llo sabot", text)]
    assert not [text for text in texts if re.search(r"\b(al|il|del|dal) %\(date\)s", text)]
    environment = make_environment("it")
    rendered = environment.from_string("{{ _('Rules in force on %(date)s', date=day|long_date) }}")
    assert rendered.render(day=date(2026, 12, 1)) == "Regolamento in vigore in data 1 dicembre 2026"


def test_the_regulator_s_page_is_dated_as_information_not_as_rules():
    """The ADM page is the game's information, not its rules: its subtitle and footer said
    "Regolamento in vigore in data 5 novembre 2026" above the RTP and the opening hours."""
    sheet = build_rule_sheet(
        load_catalogue().game("live-baccarat-it"),
        "it",
        disclosure=None,
        as_of=date(2026, 11, 5),
        tool_version="test",
    )
    page = render_disclosure_html(sheet)
    assert "Informazioni aggiornate in data 5 novembre 2026" in page
    assert "informazioni aggiornate in data 5 novembre 2026" in page  # the printed footer
    assert "Regolamento" not in page and "regolamento" not in page
    assert "Regolamento in vigore in data 5 novembre 2026" in render_html(sheet)


def test_english_calls_the_monthly_figure_what_players_get_back():
    """ "Win percentage" reads as the house's win: the figure is the share paid back."""
    texts = translations_of("en")
    assert not [text for text in texts if "win percentage" in text.lower()]
    translations = load_translations("en")
    label = translations.gettext(
        "Win percentage of the previous month (%(month)s; updated on the %(day)s of each month)"
    )
    assert label == (
        "Payout percentage of the previous month (%(month)s; updated on the %(day)s of each month)"
    )
    # ADM's "diritto di partecipazione" is Italian; in English the limit is each bet's (a round
    # takes several bets): "stake per bet", never "per participation" nor "per round"
    assert not [text for text in texts if re.search(r"per (participation|round)\b", text)]


@pytest.mark.parametrize("language", SUPPORTED_LANGUAGES)
def test_every_review_comment_says_old_new_and_why(language):
    """A reviewed entry carries its decision: ``review: "old" -> "new": why``."""
    reviews = 0
    for message in load_catalog(language):
        comment = " ".join(message.user_comments)
        if "review:" in comment:
            reviews += 1
            assert re.search(r'review: ".*" -> ".*": \S', comment), (language, comment)
    assert reviews > 0


# --- the glossaries: the words each catalogue chose, and why ------------------------------------

#: The terms every glossary names, beside the bets' names.
GLOSSARY_TERMS = ("shoe", "pair", "roads", "commission", "natural")


@pytest.mark.parametrize("language", SUPPORTED_LANGUAGES)
def test_every_catalogue_opens_with_its_glossary_and_keeps_to_it(language):
    """The top of each catalogue says the words its pages use (the hands, the tie, the
    shoe, the pairs, the roads, commission, natural, every bet of bets.toml), and each bet's
    word is the one its msgstr prints: a glossary that drifts from its catalogue fails."""
    words = glossary(language)
    translations = load_translations(language)
    bets = catalogue_bets()
    names = {bet.name.msgid for bet in bets.values()}
    assert set(GLOSSARY_TERMS) | names <= set(words), sorted(
        (set(GLOSSARY_TERMS) | names) - set(words)
    )
    for name in names:
        assert words[name] == translations.gettext(name), (language, name)


def test_a_glossary_line_is_read_with_or_without_its_reason():
    assert glossary("en")["Player"] == "Player"
    assert all(" — " not in word for word in glossary("fr").values())


# fmt: off
@pytest.mark.parametrize(
    ("language", "money", "percent", "first", "month", "fifth"),
    [
        ("es", "1.234.567,89\xa0€", "98,94\xa0%", "1 de diciembre de 2026", "octubre de 2026", "5"),
        ("pt", "1\xa0234\xa0567,89\xa0€", "98,94%", "1 de dezembro de 2026", "outubro de 2026", "5"),
        ("ro", "1.234.567,89\xa0EUR", "98,94\xa0%", "1 decembrie 2026", "octombrie 2026", "5"),
        ("sv", "1\xa0234\xa0567,89\xa0€", "98,94\xa0%", "1 december 2026", "oktober 2026", "5:e"),
        ("nl", "€\xa01.234.567,89", "98,94%", "1 december 2026", "oktober 2026", "5e"),
        ("de", "1.234.567,89\xa0€", "98,94\xa0%", "1. Dezember 2026", "Oktober 2026", "5."),
        ("fr", "1\u202f234\u202f567,89\xa0€", "98,94\xa0%", "1er décembre 2026", "octobre 2026", "5"),
    ],
)
# fmt: on
def test_the_new_markets_numbers_and_dates(language, money, percent, first, month, fifth):
    """CLDR's patterns for each locale (Babel), the row's day format for a day alone: what a
    reader of that market expects (Portuguese and Dutch write 98,94% close; French groups
    thousands with a narrow no-break space and writes the first of a month 1er)."""
    formatter = Formatter(LOCALES[language])
    assert formatter.money(123_456_789, "EUR") == money
    assert formatter.percent(Decimal("98.94")) == percent
    assert formatter.long_date(date(2026, 12, 1)) == first
    assert formatter.month((2026, 10)) == month
    assert formatter.day_of_month(5) == fifth


#: Words a catalogue may print as English writes them, beyond its glossary's kept terms: the
#: same word in that language, or an abbreviation its market uses as it is.
SAME_AS_ENGLISH = {
    "*": {"RTP": "the abbreviation players and regulators use in these markets"},
    "da": {"Odds": "a Danish word"},
    "sv": {"Odds": "a Swedish word"},
    "fr": {"Points": "a French word"},
}


@pytest.mark.parametrize("language", [code for code in SUPPORTED_LANGUAGES if code != "en"])
def test_no_message_is_left_in_english(language):
    """A msgstr equal to its English msgid is a message left untranslated, unless it holds no
    word (a placeholder, a letter), is a term its glossary keeps in English, or is the same
    word in the language (listed above with the reason)."""
    kept = {word for chosen in glossary(language).values() for word in re.split(r", | / ", chosen)}
    allowed = kept | set(SAME_AS_ENGLISH["*"]) | set(SAME_AS_ENGLISH.get(language, {}))
    left = []
    for message in load_catalog(language):
        if not message.id:
            continue
        ids = (message.id,) if isinstance(message.id, str) else tuple(message.id)
        strings = (message.string,) if isinstance(message.string, str) else tuple(message.string)
        for text in strings:
            if text not in ids or text in allowed:
                continue
            if re.search(r"[^\W\d_]{2,}", re.sub(r"%\(\w+\)s", "", text)):
                left.append(text)
    assert left == [], f"{language}: left in English: {left}"


def test_every_language_renders_a_template_from_the_code_compiled_once():
    """The environments of two languages (and of a game's names of the hands) share what
    jinja2 compiled, and each still renders in its own words."""
    environments = [make_environment("it"), make_environment("da", (("banker", "Bank"),))]
    first, second = (env.get_template("rules/page.html.j2") for env in environments)
    assert first.root_render_func.__code__ is second.root_render_func.__code__
    assert environments[0].from_string("{{ _('Banker') }}").render() == "Banco"


def test_a_changed_template_is_compiled_again():
    from jinja2 import DictLoader, Environment

    sources = {"page.j2": "one {{ n }}"}
    cache = CompiledTemplates()
    environment = Environment(loader=DictLoader(sources), bytecode_cache=cache, auto_reload=True)
    assert environment.get_template("page.j2").render(n=1) == "one 1"
    sources["page.j2"] = "two {{ n }}"
    fresh = Environment(loader=DictLoader(sources), bytecode_cache=cache)
    assert fresh.get_template("page.j2").render(n=2) == "two 2"


def test_every_kind_of_doubt_is_said_in_the_page_s_language():
    """A draft's reasons are said in the page's language, each kind by its own sentence of
    ``doubt_text``; a kind without one fell into the English fallback. Every ``Doubt(...,
    "kind")`` of the package is held to a branch of the macro, and ``check``'s located keys
    to kinds that exist."""
    import ast

    from reporting.cli.check import _WARNING_KEYS

    package = Path(__file__).resolve().parents[2] / "reporting"
    kinds = set()
    for path in package.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Doubt":
                kind = node.args[1]
                if isinstance(kind, ast.Constant):  # (records.py rebuilds one from its parts)
                    kinds.add(kind.value)
    macros = (TEMPLATE_DIR / "rules" / "macros.html.j2").read_text(encoding="utf-8")
    said = set(re.findall(r'doubt\.kind == "(\w+)"', macros))
    assert {"favourable_bet", "small_stake_favourable", "no_play"} <= kinds
    assert kinds <= said, sorted(kinds - said)
    assert set(_WARNING_KEYS) <= kinds
