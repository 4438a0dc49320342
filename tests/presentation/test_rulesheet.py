"""The rule sheet view model: every figure equals the engine's, per game."""

from __future__ import annotations

import dataclasses
import io
import re
from datetime import date, time
from decimal import Decimal
from fractions import Fraction

import pytest
from openpyxl import load_workbook

from reporting.config.bets import catalogue_bets
from reporting.config.loader import load_config
from reporting.engine.bets import BetGroup, BetResult, BetRule, PayRow, PayTable, Wording
from reporting.engine.cards import parse_cards
from reporting.engine.games import GameSpec, StakeLimits
from reporting.engine.rules import banker_draws, hand_value, player_draws, resolve_round
from reporting.engine.theory import describe_odds, game_odds
from reporting.figures.disclosure import disclose
from reporting.presentation import rulesheet
from reporting.presentation.html import render_html
from reporting.presentation.i18n import load_translations
from reporting.presentation.rulesheet import PayForm, RuleSheet, build_rule_sheet
from reporting.presentation.rulesheet_xlsx import render_xlsx

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
        # every two-card total has its row: 8 and 9 as naturals, where both hands stand
        assert [row.total for row in sheet.banker_rows] == list(range(10))
        assert [row.total for row in sheet.banker_rows if row.natural] == list(sheet.natural_totals)
        for row in sheet.banker_rows:
            if row.natural:
                assert row.cells == ()
                banker = parse_cards(f"{row.total}S KD")
                assert resolve_round(parse_cards("KS KH"), banker).banker_natural
                continue
            assert len(row.cells) == 11
            for column, cell in zip(sheet.banker_columns, row.cells, strict=True):
                decision = banker_draws(row.total, column)
                assert (cell.player_third, cell.draws, cell.rule) == (
                    column,
                    decision.draws,
                    decision.rule,
                )


@pytest.mark.parametrize("language", ["it", "da", "el", "en"])
def test_the_banker_matrix_shows_the_natural_rows_in_the_page_and_the_workbook(
    operator_config, language
):
    """Totals 8 and 9 are in the matrix, as in the Player's table: one cell across both rows
    says why no column applies (a natural: both hands stand), in the HTML (and so the PDF)
    and in the workbook."""
    sheet = build_rule_sheet(
        operator_config.game("live-baccarat-it"),
        language,
        disclosure=None,
        as_of=AS_OF,
        tool_version="test",
    )
    natural = load_translations(language).gettext("Natural: both hands stand")
    html = render_html(sheet)
    matrix = html[html.index('<table class="matrix">') :].split("</table>")[0]
    totals = re.findall(r'<th scope="row" class="num">(\d)</th>', matrix)
    assert totals == [str(total) for total in range(10)]
    cell = f'<td class="natural stand" colspan="11" rowspan="2">{natural}</td>'
    assert matrix.count(cell) == 1
    assert matrix.index(cell) > matrix.index('<th scope="row" class="num">8</th>')
    book = load_workbook(io.BytesIO(render_xlsx(sheet)))
    drawing = book[load_translations(language).gettext("Drawing rules")]
    rows = {row[0].value: row for row in drawing.iter_rows() if isinstance(row[0].value, int)}
    assert sorted(rows) == list(range(10))
    assert rows[8][1].value == natural and rows[9][1].value is None
    merged = [str(cells) for cells in drawing.merged_cells.ranges]
    assert f"B{rows[8][1].row}:L{rows[9][1].row}" in merged


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

    assert offered("mini-baccarat-it") == ["player", "banker", "tie"]
    assert sheets["mini-baccarat-it"].side_bets == ()
    assert not sheets["mini-baccarat-it"].has_bonus
    assert offered("live-baccarat-gr") == ["player", "banker", "tie", "player_pair", "banker_pair"]
    assert len(offered("live-baccarat-it")) == 11
    assert "small" not in offered("live-baccarat-dk")


def test_what_each_bet_pays_comes_from_the_pay_table(sheets):
    bets = {bet.bet: bet for bet in sheets["live-baccarat-it"].bets}
    assert bets["player"].odds == 1 and bets["player"].tie_returns_stake
    assert bets["banker"].odds == Fraction(19, 20) and bets["banker"].tie_returns_stake
    assert bets["tie"].odds == 8 and not bets["tie"].tie_returns_stake
    assert bets["player_pair"].odds == 11 and bets["either_pair"].odds == 5
    assert bets["small"].odds == Fraction(3, 2) and bets["small"].cards_dealt == (4,)
    assert bets["big"].odds == Fraction(27, 50) and bets["big"].cards_dealt == (5, 6)
    assert bets["player_bonus"].odds is None
    (banker,) = (bet for bet in sheets["live-baccarat-it"].bets if bet.bet == "banker")
    assert banker.commission_percent == 5
    # the classic bets keep their familiar forms, read from their rows
    assert {bet: offered.form for bet, offered in bets.items()} == {
        **{bet: PayForm.ODDS for bet in ("player", "banker", "tie", "player_pair")},
        **{bet: PayForm.ODDS for bet in ("banker_pair", "either_pair", "small", "big")},
        "perfect_pair": PayForm.ONE_OR_BOTH_HANDS,
        "player_bonus": PayForm.BONUS_TABLE,
        "banker_bonus": PayForm.BONUS_TABLE,
    }


def test_perfect_pair_variant_a_in_italy_b_in_denmark(sheets):
    italy = {bet.bet: bet for bet in sheets["live-baccarat-it"].bets}["perfect_pair"]
    assert (italy.perfect_pair_variant, italy.odds, italy.both_hands_odds) == ("A", 25, 25)
    denmark = {bet.bet: bet for bet in sheets["live-baccarat-dk"].bets}["perfect_pair"]
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
    groups = sheets["live-baccarat-gr"].exclusive_groups
    assert [[offered.bet for offered in group] for group in groups] == [
        ["player_pair", "banker_pair"]
    ]
    assert sheets["live-baccarat-it"].exclusive_groups == ()


def test_rtp_of_every_offered_bet_equals_the_engines(sheets, operator_config):
    for game_id, sheet in sheets.items():
        odds = game_odds(operator_config.game(game_id))
        assert {bet.bet: bet.rtp_percent for bet in sheet.bets} == {
            o.bet: o.rtp * 100 for o in odds.bets
        }
        assert all(type(bet.rtp_percent) is Fraction for bet in sheet.bets)
    assert sheets["live-baccarat-it"].best_bet.bet == "banker"


def test_stake_limits_grouped_where_they_differ(sheets):
    italy = sheets["live-baccarat-it"].limit_groups
    assert len(italy) == 1 and italy[0].limits == StakeLimits(500, 100000)
    assert len(italy[0].bets) == 11
    denmark = {
        tuple(offered.bet for offered in group.bets): group.limits
        for group in sheets["live-baccarat-dk"].limit_groups
    }
    assert denmark[("tie",)] == StakeLimits(5000, 1000000)
    assert len(denmark) == 2
    assert sheets["live-baccarat-it"].above_maximum == "cap"
    assert sheets["live-baccarat-gr"].above_maximum == "reject"


def test_payout_and_rounding_examples(sheets):
    italy = sheets["live-baccarat-it"]
    example = italy.payout_example
    assert (example.bet.bet, example.stake, example.win, example.returned) == (
        "tie",
        500,
        4000,
        4500,
    )
    rounding = italy.rounding_example
    assert rounding is not None and rounding.rounded and rounding.bet.bet == "banker"
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
    with pytest.raises(ValueError, match="no catalogue for language 'ja'"):
        build_rule_sheet(
            operator_config.game("live-baccarat-it"),
            "ja",
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
        "doubts",  # each a warning's English sentence, its figures kept apart as numbers
        "opening_hours",
        "warnings",
        "parts",  # the scoreboard's parts, configuration words
        "winner",  # a road's hands: an enum value
        "missing",  # configuration keys
        "group",  # a bet's group, an enum value
        "form",  # how its pays are stated, an enum value
        "msgid",  # a bet's words: msgids of its declaration (translated by the templates)
        "wins_plural",
    }, text_fields
    italy = sheets["live-baccarat-it"]
    assert type(italy.adm.declared_rtp) is Decimal
    assert type(italy.limit_groups[0].limits.minimum) is int
    assert type(italy.as_of) is date


def all_catalogue_bets_game(operator_config) -> GameSpec:
    """The Italian live game offering every bet of the catalogue, at its default pays."""
    bets = tuple(catalogue_bets().values())
    game = operator_config.game("live-baccarat-it")
    limits = game.limits_for("player")
    return dataclasses.replace(
        game,
        bets=bets,
        pay_table=PayTable.of(bets),
        limits=tuple((bet.id, limits) for bet in bets),
        exclusive_bets=(),
    )


def test_every_catalogue_bet_is_stated_with_all_its_rows(operator_config):
    """The sheet reads each bet's terms from its declaration: every row of every catalogue
    bet is on it, and each form of pay (PayForm) is the form of some catalogue bet."""
    game = all_catalogue_bets_game(operator_config)
    sheet = build_rule_sheet(game, "en", disclosure=None, as_of=AS_OF, tool_version="t")
    assert [offered.bet for offered in sheet.bets] == list(catalogue_bets())
    for offered, rule in zip(sheet.bets, game.bets, strict=True):
        assert offered.group is rule.group
        assert [row.says for row in offered.rows] == [row.says for row in rule.rows]
    assert {offered.form for offered in sheet.bets} == set(PayForm)
    assert {offered.bet for offered in sheet.bets if offered.form is PayForm.BONUS_TABLE} == {
        "player_bonus",
        "banker_bonus",
    }
    assert len(sheet.main_bets) == 5 and len(sheet.bonus_bets) == 2


def test_a_sentence_counting_cards_on_a_bet_that_wins_on_no_card_count_is_an_error(
    operator_config,
):
    """A bet whose sentence counts the cards dealt (wins_plural) must win on a condition on
    cards_dealt: the sheet has no number to put in the sentence otherwise."""
    counting = BetRule(
        "monkey_small",
        BetGroup.SIDE,
        (PayRow((("banker_total", frozenset({6})),), Fraction(12), "monkey_small"),),
        name=Wording(by_language=(("en", "Monkey Small"),)),
        wins=Wording("The round ends with %(cards)s card dealt in all."),
        wins_plural="The round ends with %(cards)s cards dealt in all.",
    )
    game = operator_config.game("mini-baccarat-it")
    game = dataclasses.replace(
        game,
        bets=(*game.bets, counting),
        pay_table=PayTable.of((*game.bets, counting)),
        limits=(*game.limits, ("monkey_small", game.limits_for("player"))),
    )
    with pytest.raises(ValueError, match="monkey_small: its sentence counts the cards dealt"):
        build_rule_sheet(game, "en", disclosure=None, as_of=AS_OF, tool_version="t")


def test_a_bonus_bet_whose_rows_make_no_bonus_table_is_stated_row_by_row():
    """The bonus table is read from the rows (a row per winning margin, the natural win, the
    tie of naturals); rows of another shape make no table, and the bet lists them."""
    player_bonus = catalogue_bets()["player_bonus"]
    table = PayTable.of([player_bonus])
    rows = rulesheet._bonus_rows(player_bonus, table)
    assert [(row.kind, row.margins) for row in rows] == [
        *(("margin", (margin,)) for margin in range(9, 3, -1)),
        ("natural_win", ()),
        ("natural_tie", ()),
        ("other", (1, 2, 3)),
    ]
    pair_bonus = BetRule(
        "pair_bonus",
        BetGroup.BONUS,
        (
            PayRow(
                (("winner", frozenset({"player"})), ("player_pair", frozenset({True}))), Fraction(5)
            ),
        ),
    )
    assert rulesheet._bonus_rows(pair_bonus, PayTable.of([pair_bonus])) is None
    # a margin row before the natural win would pay on a natural too: not the table's shape
    swapped = dataclasses.replace(player_bonus, rows=player_bonus.rows[2:] + player_bonus.rows[:2])
    assert rulesheet._bonus_rows(swapped, table) is None


def test_an_operator_s_own_bonus_bet_is_stated_by_its_own_rows(tmp_path):
    """An own bet of the bonus group paying 50:1 when the Banker wins by 9 was printed as the
    catalogue's bonus table: "wins with a natural: loses" (it pays on a natural 9 too),
    Player Bonus and Banker Bonus named though not offered, its row's words dropped; and
    odds said "bonus table" for its pays."""
    config = tmp_path / "operator.toml"
    config.write_text(
        '[operator]\nname = "X"\n'
        '[bets.big_win]\ngroup = "bonus"\nname = { en = "Big Win", it = "Grande Vincita" }\n'
        'wins = { en = "The Banker wins by 9.", it = "Il Banco vince di 9." }\n'
        'rows = [{ when = { winner = "banker", margin = 9 }, key = "big_win", pays = "50",'
        ' says = { en = "The Banker wins by 9 points.", it = "Il Banco vince di 9 punti." } }]\n'
        '[games.live-baccarat-it]\nbets = ["player", "banker", "tie", "big_win"]\n',
        encoding="utf-8",
    )
    game = load_config(config).game("live-baccarat-it")
    sheet = build_rule_sheet(game, "en", disclosure=None, as_of=AS_OF, tool_version="t")
    (offered,) = [bet for bet in sheet.bets if bet.bet == "big_win"]
    assert sheet.bonus_table == ()
    assert offered.form is not PayForm.BONUS_TABLE
    assert [(line.result, line.odds) for line in offered.rows] == [(BetResult.WIN, Fraction(50))]
    html = render_html(sheet)
    row = re.search(r'<th scope="row">Big Win</th><td>(.*?)</td><td>(.*?)</td>', html)
    assert row is not None and row.groups() == ("The Banker wins by 9.", "50:1")
    assert "Player Bonus" not in html and "Bonus table" not in html
    (big_win,) = [bet for bet in game.bets if bet.id == "big_win"]
    assert describe_odds(big_win, game.pay_table) == "50:1"
