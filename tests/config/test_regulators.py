"""Regulators as data (reporting/data/regulators.toml): loaded strictly, named by games, and
their warnings worded once."""

from __future__ import annotations

import re
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from babel.numbers import get_currency_name

from reporting.config.languages import SUPPORTED_LANGUAGES
from reporting.config.loader import ConfigError, load_config
from reporting.config.regulators import REQUIRABLE_KEYS, load_regulators
from reporting.engine.theory import game_odds
from reporting.figures.regulators import configuration_warnings, regulator_of, update_day
from reporting.presentation.i18n import load_translations
from reporting.presentation.publisher import GENERIC_LICENCE_WORDS, licence_words

REPOSITORY = Path(__file__).resolve().parents[2]


def test_adm_is_described_by_data(operator_config):
    adm = load_regulators()["ADM"]
    assert (adm.country, adm.update_day, str(adm.minimum_rtp)) == ("IT", 5, "90")
    # a game may declare no single RTP; the code and the opening hours are the configuration's
    assert adm.required == ("regulator_code", "opening_hours")
    assert adm.has_disclosure_page
    assert regulator_of(operator_config.game("live-baccarat-it")) is adm
    assert regulator_of(operator_config.game("live-baccarat-dk")) is None
    assert update_day(operator_config.game("live-baccarat-dk")) == 5


def test_every_required_key_is_a_game_key_with_words_for_its_warning(operator_config):
    game = operator_config.game("live-baccarat-it")
    for regulator in load_regulators().values():
        for key in regulator.required:
            assert key in REQUIRABLE_KEYS and hasattr(game, key)


def test_a_game_naming_an_unknown_regulator_is_a_configuration_error(tmp_path):
    config = tmp_path / "operator.toml"
    config.write_text('[games.live-baccarat-dk]\nregulator = "XYZ"\n', encoding="utf-8")
    with pytest.raises(
        ConfigError,
        match=r"regulator: 'XYZ' is not a known regulator \(known: ADM, DGA, DGOJ, HGC, KSA, ONJN, SGA, SRIJ\)",
    ):
        load_config(config)


def test_an_unknown_key_in_the_regulators_file_is_refused(tmp_path):
    path = tmp_path / "regulators.toml"
    path.write_text(
        '[regulators.X]\nname = "X"\ncountry = "XX"\nupdate_day = 5\nmarket = "X"\nlogo = "x"\n',
        encoding="utf-8",
    )
    with pytest.raises(ValueError, match="regulators.X"):
        load_regulators(path)


def test_missing_required_keys_warn_in_one_wording():
    # the catalogue's Mini Baccarat: ADM, no code, no opening hours, no declared RTP
    mini = load_config(None).game("mini-baccarat-it")
    assert configuration_warnings(mini, game_odds(mini)) == [
        "no ADM game code is configured for this ADM game",
        "no statement of opening hours is configured for this ADM game",
    ]  # a game may declare no single RTP: its page shows every bet's (not a warning)


def test_each_regulator_warning_is_worded_in_one_module():
    sentences = ("is configured for this", "is above the theoretical RTP", "minimum of")
    for sentence in sentences:
        holders = [
            path.relative_to(REPOSITORY).as_posix()
            for path in (REPOSITORY / "reporting").rglob("*.py")
            if sentence in path.read_text(encoding="utf-8")
        ]
        assert holders == ["reporting/figures/regulators.py"], (sentence, holders)


def test_a_rule_sheet_reports_the_disclosures_warnings_not_its_own(operator_config):
    from datetime import date

    from reporting.presentation.rulesheet import build_rule_sheet

    mini = load_config(None).game("mini-baccarat-it")  # the catalogue's: no code, no hours
    sheet = build_rule_sheet(mini, "it", disclosure=None, as_of=date(2026, 11, 5), tool_version="t")
    assert sheet.warnings == (
        "mini-baccarat-it: no ADM game code is configured for this ADM game",
        "mini-baccarat-it: no statement of opening hours is configured for this ADM game",
        "mini-baccarat-it: no round logs (--db): the ADM block shows no win percentage for 2026-10",
    )


#: The markets of the pages' languages, as issue 26 names their regulators.
MARKETS = {
    "IT": "Agenzia delle Dogane e dei Monopoli",
    "DK": "Spillemyndigheden",
    "GR": "Hellenic Gaming Commission",
    "ES": "Dirección General de Ordenación del Juego",
    "PT": "Serviço de Regulação e Inspeção de Jogos",
    "RO": "Oficiul Național pentru Jocuri de Noroc",
    "SE": "Spelinspektionen",
    "NL": "Kansspelautoriteit",
}


def test_every_market_has_its_regulator_with_facts_and_no_invented_requirement():
    regulators = {regulator.country: regulator for regulator in load_regulators().values()}
    assert {country: regulators[country].name for country in MARKETS} == MARKETS
    for country, regulator in regulators.items():
        assert ZoneInfo(regulator.timezone).key.startswith("Europe/")
        assert get_currency_name(regulator.currency, locale="en") != regulator.currency
        assert regulator.licence.count("%(number)s") == 1
        if country != "IT":  # only ADM's page format is written down (disclosures.md)
            assert (regulator.required, regulator.page_sections) == ((), ())
            assert regulator.minimum_rtp is None and regulator.update_day is None
    assert {regulators[c].currency for c in ("DK", "RO", "SE")} == {"DKK", "RON", "SEK"}


def test_a_page_names_the_licence_in_its_regulator_s_words_in_every_language():
    """Each regulator's licence words are a msgid (babel.cfg extracts them from the file),
    translated in every catalogue, the number kept."""
    for regulator in load_regulators().values():
        assert licence_words(regulator.country) == regulator.licence
        for language in SUPPORTED_LANGUAGES:
            words = load_translations(language).gettext(regulator.licence)
            assert "%(number)s" in words, (language, regulator.id)
            assert language == "en" or words != regulator.licence, (language, regulator.id)
    assert licence_words("CH") == GENERIC_LICENCE_WORDS


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("currency", "euro", "ISO 4217"),
        ("currency", "XYZ", "'XYZ' is not an ISO 4217 code of a currency in use"),
        ("currency", "JPY", "JPY is counted in 0 decimals"),
        ("timezone", "Europe/Atlantis", "not a time zone"),
        ("licence", "Licence no. %(id)s", "%(number)s once"),
        ("country", "Spain", "ISO 3166"),
    ],
)
def test_a_regulator_row_with_a_wrong_fact_is_refused(tmp_path, field, value, message):
    row = {
        "name": "X", "country": "XX", "currency": "EUR", "timezone": "Europe/Rome",
        "licence": "X licence no. %(number)s", "market": "X",
    } | {field: value}  # fmt: skip
    path = tmp_path / "regulators.toml"
    path.write_text(
        "[regulators.X]\n" + "".join(f'{key} = "{text}"\n' for key, text in row.items()),
        encoding="utf-8",
    )
    with pytest.raises(ValueError, match=re.escape(message)):
        load_regulators(path)


def test_every_market_s_currency_is_in_use_and_counted_in_hundredths():
    """The currencies' table (generated from Babel's CLDR; tests/test_generated.py holds it in
    step) takes each market's currency, and refuses one withdrawn or of other decimals."""
    from reporting.config.regulators import currency_decimals, currency_problem

    for regulator in load_regulators().values():
        assert currency_problem(regulator.currency) is None, regulator.id
    decimals = currency_decimals()
    assert (decimals["EUR"], decimals["JPY"], decimals["KWD"]) == (2, 0, 3)
    assert not {"DEM", "FRF", "XXX", "XTS", "XAU"} & set(decimals)
