"""A bet whose pay table returns more than 100% of stakes, or a small stake its rounding pays
otherwise than its odds, never reaches a page without a word."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import reporting.config.rtp as rtp
from reporting.config.loader import load_catalogue, load_config
from reporting.config.rtp import bet_warnings, favourable_bet_warnings, small_stake_warnings
from reporting.engine.money import round_fraction
from reporting.engine.odds import bet_odds, main_probabilities
from reporting.engine.theory import game_odds
from reporting.figures.regulators import configuration_warnings
from reporting.presentation.publisher import render_page
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


def test_a_figure_compared_with_a_bound_is_never_shown_as_the_bound(tmp_path):
    """A tie at 9.5091:1 returns 100.0004%: the warning said "returns 100.00% of stakes:
    above 100%", and the page's banner "100.00% of stakes: more than it takes". A declared
    98.95% above a best bet of 98.9479% said "(best: 98.95%)". Each figure is shown with as
    many decimals as set it apart from the bound, exactly from the engine."""
    from decimal import Decimal

    from reporting.engine.money import round_apart

    tie = configured(tmp_path, '[games.live-baccarat-dk]\npay = { tie = "9.5091" }\n')
    game = tie.game("live-baccarat-dk")
    rtp = bet_odds(game.bet("tie"), 8, game.pay_table).rtp * 100
    assert round_fraction(rtp, 2) == 100 and round_apart(rtp, 100) == Decimal("100.0004")
    (warning,) = favourable_bet_warnings(game)
    assert warning.startswith("the tie bet returns 100.0004% of stakes under this pay table")
    sheet = build_rule_sheet(game, "da", disclosure=None, as_of=date(2026, 11, 5), tool_version="t")
    from reporting.presentation.html import render_html

    page = render_html(sheet).replace("\xa0", " ")  # the sign after a no-break space
    assert "100,0004 % af indsatserne tilbage: mere end den modtager" in page
    declared = configured(
        tmp_path,
        '[games.live-baccarat-dk]\npay = { player = "1.0041" }\ndeclared_rtp = "98.95"\n',
    ).game("live-baccarat-dk")
    best = game_odds(declared).best_rtp * 100
    assert round_fraction(best, 2) == Decimal("98.95")
    (above,) = [w for w in configuration_warnings(declared, game_odds(declared)) if "declared" in w]
    assert above.endswith("above the theoretical RTP of every bet offered (best: 98.948%)")


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


# --- small stakes whose winnings the rounding undoes ------------------------------------------


def test_no_catalogue_or_sample_game_has_a_stake_its_rounding_pays_otherwise():
    sample = load_config(Path(__file__).resolve().parents[2] / "sample_data" / "operator.toml")
    for game in [*load_catalogue().games.values(), *sample.games.values()]:
        assert small_stake_warnings(game) == [], game.id


def test_a_minimum_stake_whose_win_rounds_to_nothing_warns_at_the_limits(tmp_path):
    """DKK 0.01 on Banker at 0.95:1 earns 0.0095, paid as 0.00 rounded down: the page's
    0.95:1 and 98.94% do not hold for it."""
    game = configured(
        tmp_path, '[games.live-baccarat-dk]\nlimits = { min = "0.01", max = "1000.00" }\n'
    ).game("live-baccarat-dk")
    (warning,) = small_stake_warnings(game)
    assert warning.kind == "small_stake_wins_nothing"
    assert warning == (
        "a winning banker bet of 0.01 DKK, its minimum stake, is paid nothing in winnings at"
        " 0.95:1 (rounded down): its odds and RTP do not hold at that stake; raise its minimum"
        " stake"
    )
    assert bet_warnings(game) == [warning]


def test_winnings_rounded_up_at_small_stakes_favour_the_player_up_to_a_stake(tmp_path):
    """Rounded half up, a Banker stake of 0.01 to 0.10 is paid even money: the bet then
    returns P(Banker) x 2 + P(tie), above 100%, counted here from the outcomes alone."""

    text = (
        '[games.live-baccarat-dk]\nrounding = "half_up"\nbets = ["player", "banker", "tie"]\n'
        'limits = {{ min = "{}", max = "1000.00" }}\n'
    )
    game = configured(tmp_path, text.format("0.01")).game("live-baccarat-dk")
    outcomes = main_probabilities(8)
    even_money = outcomes["banker"] * 2 + outcomes["tie"]
    assert even_money > 1
    (warning,) = small_stake_warnings(game)
    assert warning.kind == "small_stake_favourable"
    assert warning.figures["rtp"] == even_money * 100
    assert warning == (
        f"the banker bet returns {round_fraction(even_money * 100, 2):.2f}% of a stake of"
        " 0.01 DKK (winnings rounded half up): above 100%, it favours the player at stakes up"
        " to 0.10 DKK; raise its minimum stake above that"
    )
    # 0.11 earns 0.1045, paid 0.10: from there on no stake returns more than it takes
    assert (
        small_stake_warnings(configured(tmp_path, text.format("0.11")).game("live-baccarat-dk"))
        == []
    )


def test_a_draft_says_in_its_language_which_small_stake_is_paid_otherwise(tmp_path):
    config = configured(
        tmp_path,
        '[games.live-baccarat-it]\nrounding = "half_up"\nbets = ["player", "banker", "tie"]\n'
        'limits = { min = "0.01", max = "1000.00" }\n',
    )
    game = config.game("live-baccarat-it")
    sheet = build_rule_sheet(game, "it", disclosure=None, as_of=date(2026, 11, 5), tool_version="t")
    page = render_page(sheet, "rules/page.html.j2")
    assert "Con le vincite arrotondate, la puntata Banco restituisce il 101,24%" in page
    assert "per puntate fino a 0,10\xa0€" in page


def test_a_bound_past_the_stakes_tried_is_said_to_be_at_least(tmp_path, monkeypatch):
    """The stakes tried stop at MAX_STAKES_TRIED past the minimum: a bet favoured further up
    is said to be so "up to at least" the largest stake tried, never up to it alone."""
    text = (
        '[games.live-baccarat-dk]\nrounding = "half_up"\nbets = ["player", "banker", "tie"]\n'
        'limits = { min = "0.01", max = "1000.00" }\n'
    )
    game = configured(tmp_path, text).game("live-baccarat-dk")
    monkeypatch.setattr(rtp, "MAX_STAKES_TRIED", 5)
    (warning,) = small_stake_warnings(game)
    assert "it favours the player at stakes up to at least 0.06 DKK;" in warning
    monkeypatch.setattr(rtp, "MAX_STAKES_TRIED", 10_000)
    assert "it favours the player at stakes up to 0.10 DKK;" in small_stake_warnings(game)[0]
