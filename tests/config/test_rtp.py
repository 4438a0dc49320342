"""A bet whose pay table returns more than 100% of stakes never reaches a page without a word."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from reporting.config.loader import load_catalogue, load_config
from reporting.config.rtp import favourable_bet_warnings
from reporting.engine.money import round_fraction
from reporting.engine.odds import bet_odds
from reporting.engine.theory import game_odds
from reporting.figures.regulators import configuration_warnings
from reporting.presentation.rulesheet import build_rule_sheet


def configured(tmp_path: Path, text: str):
    path = tmp_path / "operator.toml"
    path.write_text(text, encoding="utf-8")
    return load_config(path)


def test_the_catalogue_has_no_bet_that_favours_the_player():
    for game in load_catalogue().games.values():
        assert favourable_bet_warnings(game) == []


def test_a_tie_paying_10_to_1_on_eight_decks_warns_with_the_engine_s_rtp(tmp_path):
    game = configured(tmp_path, '[games.live-baccarat-dk]\npay = { tie = "10" }\n').game(
        "live-baccarat-dk"
    )
    rtp = bet_odds(game.bet("tie"), 8, game.pay_table).rtp
    assert rtp > 1
    shown = f"{round_fraction(rtp * 100, 2):.2f}%"
    assert favourable_bet_warnings(game) == [
        f"the tie bet returns {shown} of stakes under this pay table: above 100%, it favours the"
        " player"
    ]


def test_the_warning_is_one_of_the_game_s_configuration_warnings(tmp_path):
    """configuration_warnings feed the disclosure, the monthly job's log and the rule sheets."""
    game = configured(tmp_path, '[games.live-baccarat-gr]\npay = { player_pair = "13" }\n').game(
        "live-baccarat-gr"
    )
    warnings = configuration_warnings(game, game_odds(game))
    assert any(w.startswith("the player_pair bet returns") for w in warnings), warnings


def test_a_rule_sheet_of_a_game_without_a_disclosure_page_warns_too(tmp_path):
    game = configured(tmp_path, '[games.live-baccarat-dk]\npay = { tie = "10" }\n').game(
        "live-baccarat-dk"
    )
    sheet = build_rule_sheet(game, "en", disclosure=None, as_of=date(2026, 11, 5), tool_version="t")
    assert [w for w in sheet.warnings if "favours the player" in w] == [
        f"live-baccarat-dk: {favourable_bet_warnings(game)[0]}"
    ]


def test_a_variant_paid_above_its_odds_warns_with_the_engine_s_rtp(tmp_path):
    # Dragon 7 at 60:1 (40:1 by default) on the EZ game of the sample's kind.
    game = configured(
        tmp_path,
        "[games.ez-baccarat-it]\n"
        'base = "live-baccarat-it"\n'
        'bets = ["player", "banker_ez", "tie", "dragon_7", "panda_8"]\n'
        'pay = { dragon_7 = "60" }\n',
    ).game("ez-baccarat-it")
    rtp = bet_odds(game.bet("dragon_7"), 8, game.pay_table).rtp
    assert rtp > 1
    assert favourable_bet_warnings(game) == [
        f"the dragon_7 bet returns {round_fraction(rtp * 100, 2):.2f}% of stakes under this pay"
        " table: above 100%, it favours the player"
    ]
    # At its default 40:1 it does not.
    default = configured(
        tmp_path,
        '[games.ez-baccarat-it]\nbase = "live-baccarat-it"\nbets = ["player", "banker_ez", "dragon_7"]\n',
    ).game("ez-baccarat-it")
    assert favourable_bet_warnings(default) == []
