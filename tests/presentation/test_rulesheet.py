"""The rule sheet view model: every figure equals the engine's, per game."""

from __future__ import annotations

import dataclasses
from datetime import date, time
from decimal import Decimal
from fractions import Fraction

import pytest

from reporting.config.loader import load_config
from reporting.engine.bets import BetFamily, BetResult, BetType
from reporting.engine.cards import parse_cards
from reporting.engine.games import StakeLimits
from reporting.engine.rules import banker_draws, hand_value, player_draws
from reporting.engine.theory import game_odds
from reporting.figures.disclosure import disclose
from reporting.presentation import rulesheet
from reporting.presentation.rulesheet import RuleSheet, build_rule_sheet

AS_OF = date(2026, 11, 30)


@pytest.fixture(scope="module")
def sheets(operator_config) -> dict[str, RuleSheet]:
    return {
        game_id: build_rule_sheet(game, "en", disclosure=None, as_of=AS_OF, tool_version="test")
        for game_id, game in operator_config.games.items()
    }


def test_banker_matrix_equals_the_engine_cell_by_cell(sheets):
    for sheet in sheets.values():
        assert sheet.banker_columns == (None, *range(10))
        assert [row.total for row in sheet.banker_rows] == list(range(8))
        for row in sheet.banker_rows:
            assert len(row.cells) == 11
            for column, cell in zip(sheet.banker_columns, row.cells, strict=True):
                decision = banker_draws(row.total, column)
                assert (cell.player_third, cell.draws, cell.rule) == (
                    column,
                    decision.draws,
                    decision.rule,
                )


def test_banker_matrix_spot_checks_the_printed_rules(sheets):
    cells = {
        (row.total, cell.player_third): cell.draws
        for row in sheets["live-baccarat-it"].banker_rows
        for cell in row.cells
    }
    assert cells[(3, 8)] is False and cells[(3, 9)] is True  # banker_3_draws_unless_8
    assert [cells[(4, x)] for x in range(10)] == [x in range(2, 8) for x in range(10)]
    assert [cells[(5, x)] for x in range(10)] == [x in range(4, 8) for x in range(10)]
    assert [cells[(6, x)] for x in range(10)] == [x in (6, 7) for x in range(10)]
    assert not any(cells[(7, x)] for x in (None, *range(10)))
    assert cells[(5, None)] is True and cells[(6, None)] is False  # Player stood


def test_player_table_covers_every_total_with_the_engines_rule(sheets):
    rows = sheets["live-baccarat-it"].player_rule
    assert [(r.first, r.last, r.draws, r.natural) for r in rows] == [
        (0, 5, True, False),
        (6, 7, False, False),
        (8, 9, False, True),
    ]
    for row in rows[:2]:
        for total in range(row.first, row.last + 1):
            assert player_draws(total).draws is row.draws
            assert player_draws(total).rule == row.rule
    assert sheets["live-baccarat-it"].natural_totals == (8, 9)


def test_worked_examples_use_the_engines_hand_values(sheets):
    examples = {
        " ".join(card.code for card in example.cards): example
        for example in sheets["live-baccarat-it"].hand_examples
    }
    assert (examples["7H 8S"].total, examples["7H 8S"].value) == (15, 5)
    assert (examples["5H 5S 5D"].total, examples["5H 5S 5D"].value) == (15, 5)
    assert (examples["10C 9D"].total, examples["10C 9D"].value) == (9, 9)
    for code, example in examples.items():
        assert example.value == hand_value(parse_cards(code))
    assert examples["10C 9D"].natural and not examples["5H 5S 5D"].natural


def test_card_values(sheets):
    groups = {group.kind: group for group in sheets["mini-baccarat-it"].card_values}
    assert groups["ace"].ranks == ("A",) and groups["ace"].points == (1,)
    assert groups["pip"].ranks == tuple("23456789") and groups["pip"].points == tuple(range(2, 10))
    assert groups["ten_or_face"].ranks == ("10", "J", "Q", "K")
    assert groups["ten_or_face"].points == (0, 0, 0, 0)


def test_offered_bets_per_game(sheets):
    def offered(game_id):
        return [bet.bet for bet in sheets[game_id].bets]

    assert offered("mini-baccarat-it") == [BetType.PLAYER, BetType.BANKER, BetType.TIE]
    assert sheets["mini-baccarat-it"].side_bets == ()
    assert not sheets["mini-baccarat-it"].has_bonus
    assert offered("live-baccarat-gr") == [
        BetType.PLAYER,
        BetType.BANKER,
        BetType.TIE,
        BetType.PLAYER_PAIR,
        BetType.BANKER_PAIR,
    ]
    assert len(offered("live-baccarat-it")) == 11
    assert BetType.SMALL not in offered("live-baccarat-dk")


def test_what_each_bet_pays_comes_from_the_pay_table(sheets):
    bets = {bet.bet: bet for bet in sheets["live-baccarat-it"].bets}
    assert bets[BetType.PLAYER].odds == 1 and bets[BetType.PLAYER].tie_returns_stake
    assert bets[BetType.BANKER].odds == Fraction(19, 20) and bets[BetType.BANKER].tie_returns_stake
    assert bets[BetType.TIE].odds == 8 and not bets[BetType.TIE].tie_returns_stake
    assert bets[BetType.PLAYER_PAIR].odds == 11 and bets[BetType.EITHER_PAIR].odds == 5
    assert bets[BetType.SMALL].odds == Fraction(3, 2) and bets[BetType.SMALL].cards_dealt == (4,)
    assert bets[BetType.BIG].odds == Fraction(27, 50) and bets[BetType.BIG].cards_dealt == (5, 6)
    assert bets[BetType.PLAYER_BONUS].odds is None
    assert sheets["live-baccarat-it"].banker_commission_percent == 5


def test_perfect_pair_variant_a_in_italy_b_in_denmark(sheets):
    italy = {bet.bet: bet for bet in sheets["live-baccarat-it"].bets}[BetType.PERFECT_PAIR]
    assert (italy.perfect_pair_variant, italy.odds, italy.both_hands_odds) == ("A", 25, 25)
    denmark = {bet.bet: bet for bet in sheets["live-baccarat-dk"].bets}[BetType.PERFECT_PAIR]
    assert (denmark.perfect_pair_variant, denmark.odds, denmark.both_hands_odds) == ("B", 25, 200)


def test_bonus_table_rows(sheets):
    rows = sheets["live-baccarat-dk"].bonus_table
    margins = [(row.margins, row.odds) for row in rows if row.kind == "margin"]
    assert margins == [((9,), 30), ((8,), 10), ((7,), 6), ((6,), 4), ((5,), 2), ((4,), 1)]
    kinds = {row.kind: row for row in rows}
    assert (kinds["natural_win"].result, kinds["natural_win"].odds) == (BetResult.WIN, 1)
    assert kinds["natural_tie"].result is BetResult.PUSH
    assert (kinds["other"].margins, kinds["other"].result) == ((1, 2, 3), BetResult.LOSE)
    assert sheets["live-baccarat-gr"].bonus_table == ()


def test_greek_house_rule_on_exclusive_pair_bets(sheets):
    assert sheets["live-baccarat-gr"].exclusive_groups == (
        (BetType.PLAYER_PAIR, BetType.BANKER_PAIR),
    )
    assert sheets["live-baccarat-it"].exclusive_groups == ()


def test_rtp_of_every_offered_bet_equals_the_engines(sheets, operator_config):
    for game_id, sheet in sheets.items():
        odds = game_odds(operator_config.game(game_id))
        assert {bet.bet.value: bet.rtp_percent for bet in sheet.bets} == {
            o.bet: o.rtp * 100 for o in odds.bets
        }
        assert all(type(bet.rtp_percent) is Fraction for bet in sheet.bets)
    assert sheets["live-baccarat-it"].best_bet.bet is BetType.BANKER


def test_stake_limits_grouped_where_they_differ(sheets):
    italy = sheets["live-baccarat-it"].limit_groups
    assert len(italy) == 1 and italy[0].limits == StakeLimits(500, 100000)
    assert len(italy[0].bets) == 11
    denmark = {group.bets: group.limits for group in sheets["live-baccarat-dk"].limit_groups}
    assert denmark[(BetType.TIE,)] == StakeLimits(5000, 1000000)
    assert len(denmark) == 2
    assert sheets["live-baccarat-it"].above_maximum == "cap"
    assert sheets["live-baccarat-gr"].above_maximum == "reject"


def test_payout_and_rounding_examples(sheets):
    italy = sheets["live-baccarat-it"]
    example = italy.payout_example
    assert (example.bet, example.stake, example.win, example.returned) == (
        BetType.TIE,
        500,
        4000,
        4500,
    )
    rounding = italy.rounding_example
    assert rounding is not None and rounding.rounded
    assert (rounding.stake, rounding.exact_win, rounding.win, rounding.returned) == (
        535,
        Fraction(50825, 100),
        508,
        1043,
    )


def test_shoe_facts(sheets):
    live, mini = sheets["live-baccarat-it"], sheets["mini-baccarat-it"]
    # games.md states no cut card depth: the catalogue holds none, so the sheet says none
    assert (live.live, live.decks, live.cards_in_shoe, live.cut_card_depth) == (True, 8, 416, None)
    assert not live.reshuffle_every_round and live.statistics_reset == time(0, 1)
    assert (mini.live, mini.decks, mini.cards_in_shoe, mini.reshuffle_every_round) == (
        False,
        6,
        312,
        True,
    )
    assert mini.game_version == "4.15.1.2"


def test_adm_block_only_for_adm_games(sheets):
    assert sheets["live-baccarat-dk"].adm is None
    assert sheets["live-baccarat-gr"].adm is None
    adm = sheets["live-baccarat-it"].adm
    assert adm is not None
    assert (adm.regulator_code, adm.declared_rtp, adm.operator_share) == (
        "2376",
        Decimal("99.50"),
        Decimal("0.50"),
    )
    assert (adm.minimum_stake, adm.maximum_stake, adm.currency) == (500, 100000, "EUR")
    assert adm.always_open
    assert adm.reference_month == (2026, 10) and adm.updated_on == date(2026, 11, 5)
    assert adm.win_percentage is None  # no round logs
    assert any("no round logs" in warning for warning in sheets["live-baccarat-it"].warnings)
    # The sample configuration states the Mini Baccarat game's code and opening hours, which
    # the catalogue does not publish; without them its page is a draft that names both gaps.
    mini = sheets["mini-baccarat-it"]
    assert mini.adm is not None and mini.adm.missing == ()
    assert not any("no ADM game code" in w for w in mini.warnings)
    catalogue_mini = build_rule_sheet(
        load_config(None).games["mini-baccarat-it"],
        "en",
        disclosure=None,
        as_of=AS_OF,
        tool_version="test",
    )
    assert catalogue_mini.adm.missing == ("regulator_code", "opening_hours")
    assert catalogue_mini.draft
    assert any("no ADM game code" in w for w in catalogue_mini.warnings)
    assert any("no statement of opening hours" in w for w in catalogue_mini.warnings)
    assert sheets["live-baccarat-dk"].warnings == ()


def test_reference_month_follows_the_fifth(operator_config):
    game = operator_config.game("live-baccarat-it")
    before = build_rule_sheet(
        game, "it", disclosure=None, as_of=date(2026, 11, 4), tool_version="t"
    )
    on = build_rule_sheet(game, "it", disclosure=None, as_of=date(2026, 11, 5), tool_version="t")
    assert before.adm.reference_month == (2026, 9)
    assert on.adm.reference_month == (2026, 10)


def test_disclosure_figures_reach_the_adm_block(operator_config):
    game = operator_config.game("live-baccarat-it")
    disclosure = disclose(None, game, AS_OF)  # no play: 0.00% and a warning
    sheet = build_rule_sheet(game, "it", disclosure=disclosure, as_of=AS_OF, tool_version="t")
    assert sheet.adm.win_percentage == Decimal("0.00")
    assert sheet.adm.rounds == 0
    assert any("no play in 2026-10" in warning for warning in sheet.warnings)


def test_disclosure_of_another_game_or_date_is_refused(operator_config):
    italy = operator_config.game("live-baccarat-it")
    disclosure = disclose(None, italy, AS_OF)
    with pytest.raises(ValueError, match="not of mini-baccarat-it"):
        build_rule_sheet(
            operator_config.game("mini-baccarat-it"),
            "it",
            disclosure=disclosure,
            as_of=AS_OF,
            tool_version="t",
        )
    with pytest.raises(ValueError, match="as of 2026-11-29"):
        build_rule_sheet(
            italy, "it", disclosure=disclosure, as_of=date(2026, 11, 29), tool_version="t"
        )


def test_unknown_language_is_refused(operator_config):
    with pytest.raises(ValueError, match="no catalogue for language 'fr'"):
        build_rule_sheet(
            operator_config.game("live-baccarat-it"),
            "fr",
            disclosure=None,
            as_of=AS_OF,
            tool_version="t",
        )


def test_sheet_holds_values_not_formatted_strings(sheets):
    """Numbers stay numbers: formatting is the templates' filters' job."""

    def walk(value, path):
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            for field in dataclasses.fields(value):
                yield from walk(getattr(value, field.name), f"{path}.{field.name}")
        elif isinstance(value, tuple):
            for index, item in enumerate(value):
                yield from walk(item, f"{path}[{index}]")
        else:
            yield path, value

    text_fields = set()
    for sheet in sheets.values():
        for path, value in walk(sheet, "sheet"):
            assert not isinstance(value, float), path
            if isinstance(value, str):
                text_fields.add(path.split(".")[-1].split("[")[0])
    # identifiers, configuration text and enum values; never a formatted figure
    assert text_fields <= {
        "game_id",
        "game_name",
        "game_version",
        "language",
        "locale",
        "tool_version",
        "currency",
        "kind",
        "rank",
        "suit",
        "ranks",
        "rule",
        "bet",
        "bets",
        "rounding",
        "below_minimum",
        "above_maximum",
        "exclusive_groups",
        "result",
        "regulator_code",
        "opening_hours",
        "warnings",
        "parts",  # the scoreboard's parts, configuration words
        "winner",  # a road's hands: an enum value
        "missing",  # configuration keys
    }, text_fields
    italy = sheets["live-baccarat-it"]
    assert type(italy.adm.declared_rtp) is Decimal
    assert type(italy.limit_groups[0].limits.minimum) is int
    assert type(italy.as_of) is date


def test_the_terms_of_every_bet_family_are_stated():
    """The offered bet dispatches on the engine's bet family; a new family fails here."""
    assert set(rulesheet._TERMS_BY_FAMILY) == set(BetFamily)


def test_a_bet_that_does_not_win_on_its_familys_round_is_an_error(operator_config):
    table = operator_config.games["live-baccarat-it"].pay_table
    with pytest.raises(ValueError, match="player_pair"):
        rulesheet._winning_odds(BetType.PLAYER_PAIR, rulesheet._pairs(), table)
