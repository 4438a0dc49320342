"""Statistics against the exact theory (reporting.figures.statistics): Banker / Player / Tie counts by a
chi-square test with two degrees of freedom, and the actual RTP of each bet type against its
theoretical RTP with a 99.9% bound that narrows as the volume grows."""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

import pytest
from helpers import bet_record, round_record, store_records
from hypothesis import given
from hypothesis import strategies as st

from reporting.engine.odds import bet_odds, main_probabilities
from reporting.figures.statistics import (
    CHI2_BOUND_2DF,
    Z_BOUND,
    RtpCheck,
    outcome_tests,
    rtp_checks,
)
from reporting.ingest.discovery import discover_sources
from reporting.store.load import ingest
from reporting.store.schema import connect
from reporting.verify.run import verify
from reporting.verify.totals import BetTotals, TableCounts

ITALY = "live-baccarat-it"
PLAYER_WINS = {"player_cards": ["9H", "KS"], "banker_cards": ["5D", "2C"]}  # 9 v 7
BANKER_WINS = {"player_cards": ["5H", "2C"], "banker_cards": ["9D", "KC"]}  # 7 v 9
TIE = {"player_cards": ["9H", "KS"], "banker_cards": ["9D", "KC"]}  # 9 v 9


def load(folder: Path, config, write_jsonl, *records):
    """A store holding the given rounds."""
    log = write_jsonl(folder / "log.jsonl", *records)
    connection = connect(folder / "store.sqlite")
    ingest(connection, discover_sources([log]), config)
    return connection


def one_test(operator_config, game: str = ITALY, **counts):
    (test,) = outcome_tests({(game, "T-1"): TableCounts(**counts)}, operator_config.games)
    return test


# --- Banker / Player / Tie --------------------------------------------------------------------


def test_chi_square_is_computed_against_the_exact_probabilities(operator_config):
    test = one_test(operator_config, rounds=1000, banker=470, player=430, tie=100)
    probabilities = main_probabilities(8)
    expected = [float(probabilities[name]) * 1000 for name in ("banker", "player", "tie")]
    assert [test.expected_banker, test.expected_player, test.expected_tie] == pytest.approx(
        expected, rel=1e-12
    )
    # The published 8-deck figures: 0.458597 / 0.446247 / 0.095156.
    assert test.expected_banker / 1000 == pytest.approx(0.458597, abs=5e-7)
    assert test.expected_player / 1000 == pytest.approx(0.446247, abs=5e-7)
    assert test.expected_tie / 1000 == pytest.approx(0.095156, abs=5e-7)
    chi_square = sum(
        (observed - e) ** 2 / e for observed, e in zip((470, 430, 100), expected, strict=True)
    )
    assert test.chi_square == pytest.approx(chi_square, rel=1e-12)
    assert not test.flagged


@given(
    banker=st.integers(0, 5000),
    player=st.integers(0, 5000),
    tie=st.integers(0, 1000),
)
def test_the_p_value_of_two_degrees_of_freedom_is_exp_minus_half_chi_square(
    operator_config, banker, player, tie
):
    rounds = banker + player + tie
    test = one_test(operator_config, rounds=rounds, banker=banker, player=player, tie=tie)
    assert test.p_value == pytest.approx(math.exp(-test.chi_square / 2), rel=1e-12, abs=1e-300)
    assert 0.0 <= test.p_value <= 1.0
    # Flagged exactly outside the 99.9% acceptance region.
    if rounds:
        assert test.flagged == (test.chi_square > CHI2_BOUND_2DF)


def test_a_perfect_match_gives_p_one(operator_config):
    # No rounds: nothing observed, nothing expected.
    empty = one_test(operator_config, rounds=0)
    assert (empty.chi_square, empty.p_value, empty.flagged) == (0.0, 1.0, False)
    # Counts as close to the probabilities as whole rounds allow.
    probabilities = main_probabilities(8)
    rounds = 1_000_000
    banker = round(probabilities["banker"] * rounds)
    tie = round(probabilities["tie"] * rounds)
    player = rounds - banker - tie
    close = one_test(operator_config, rounds=rounds, banker=banker, player=player, tie=tie)
    assert close.chi_square < 1e-5
    assert close.p_value == pytest.approx(1.0, abs=1e-5)
    assert not close.flagged


@pytest.mark.parametrize(
    "counts",
    [
        {"rounds": 1000, "banker": 1000, "player": 0, "tie": 0},
        {"rounds": 1000, "banker": 400, "player": 400, "tie": 200},  # ties twice as often
        {"rounds": 100_000, "banker": 44_625, "player": 45_860, "tie": 9_515},  # sides swapped
    ],
)
def test_a_table_whose_counts_are_far_off_is_flagged(operator_config, counts):
    test = one_test(operator_config, **counts)
    assert test.p_value < 0.001
    assert test.flagged


def test_each_table_is_tested_with_its_own_games_deck_count(operator_config):
    tables = {
        ("mini-baccarat-it", "MB-1"): TableCounts(rounds=100, banker=46, player=45, tie=9),
        (ITALY, "LB-1"): TableCounts(rounds=100, banker=46, player=45, tie=9),
    }
    tests = {test.game_id: test for test in outcome_tests(tables, operator_config.games)}
    assert tests["mini-baccarat-it"].expected_banker == pytest.approx(
        float(main_probabilities(6)["banker"]) * 100, rel=1e-12
    )
    assert tests[ITALY].expected_banker == pytest.approx(
        float(main_probabilities(8)["banker"]) * 100, rel=1e-12
    )
    assert tests["mini-baccarat-it"].expected_banker != tests[ITALY].expected_banker


def test_verify_counts_outcomes_per_table_with_void_rounds_apart(
    tmp_path, operator_config, make_round, write_jsonl
):
    connection = load(
        tmp_path,
        operator_config,
        write_jsonl,
        make_round("R-1", table_id="T-1", bets=[], **PLAYER_WINS),
        make_round("R-2", table_id="T-1", bets=[], **BANKER_WINS),
        make_round("R-3", table_id="T-1", bets=[], **BANKER_WINS),
        make_round("R-4", table_id="T-1", bets=[], **TIE),
        make_round("R-5", table_id="T-1", bets=[], status="void", void_reason="stream lost"),
        make_round("R-6", table_id="T-2", bets=[], **TIE),
    )
    result = verify(connection, operator_config)
    assert result.tables[(ITALY, "T-1")] == TableCounts(rounds=4, banker=2, player=1, tie=1, void=1)
    assert result.tables[(ITALY, "T-2")] == TableCounts(rounds=1, tie=1)
    tests = outcome_tests(result.tables, operator_config.games)
    assert [(test.table_id, test.rounds, test.banker, test.player, test.tie) for test in tests] == [
        ("T-1", 4, 2, 1, 1),
        ("T-2", 1, 0, 0, 1),
    ]


# --- actual RTP against the theory ------------------------------------------------------------


def banker_rounds(make_round, make_bet, rounds: int, stake: str, payout: str, **fields) -> list:
    """``rounds`` rounds dealt alike, each with one Banker bet."""
    return [
        make_round(
            f"R-{n}", bets=[make_bet(f"B-{n}", type="banker", stake=stake, payout=payout)], **fields
        )
        for n in range(rounds)
    ]


def banker_check(tmp_path, operator_config, write_jsonl, *records) -> RtpCheck:
    connection = load(tmp_path, operator_config, write_jsonl, *records)
    try:
        totals = verify(connection, operator_config, None).bet_totals
        checks = {(c.game_id, c.bet_type): c for c in rtp_checks(totals, operator_config.games)}
    finally:
        connection.close()
    return checks[(ITALY, "banker")]


def test_the_bound_halves_when_four_times_the_same_stakes_are_played(
    tmp_path, operator_config, make_round, make_bet, write_jsonl
):
    folders = [tmp_path / name for name in ("small", "large", "richer")]
    for folder in folders:
        folder.mkdir()
    small = banker_check(
        folders[0],
        operator_config,
        write_jsonl,
        *banker_rounds(make_round, make_bet, 25, "10.00", "0.00", **PLAYER_WINS),
    )
    large = banker_check(
        folders[1],
        operator_config,
        write_jsonl,
        *banker_rounds(make_round, make_bet, 100, "10.00", "0.00", **PLAYER_WINS),
    )
    richer = banker_check(
        folders[2],
        operator_config,
        write_jsonl,
        *banker_rounds(make_round, make_bet, 25, "40.00", "0.00", **PLAYER_WINS),
    )
    assert (small.bets, small.stakes) == (25, 25_000)
    assert (large.bets, large.stakes) == (100, 100_000)
    assert large.bound == pytest.approx(small.bound / 2, rel=1e-12)
    # The bound is relative: the same number of larger stakes leaves it as it was.
    assert richer.bound == pytest.approx(small.bound, rel=1e-12)
    game = operator_config.games[ITALY]
    variance = float(bet_odds(game.bet("banker"), 8, game.pay_table).variance)
    assert small.bound == pytest.approx(Z_BOUND * math.sqrt(variance / 25), rel=1e-12)


def test_the_bets_of_one_type_in_one_round_count_as_one_stake(
    tmp_path, operator_config, make_round, make_bet, write_jsonl
):
    """Twenty-five Banker bets on one round win or lose together: the bound is that of one
    stake of their sum, as wide as one bet's, not the fifth of it that 25 rounds give."""
    folders = [tmp_path / name for name in ("together", "one", "apart")]
    for folder in folders:
        folder.mkdir()
    bets = [make_bet(f"B-{n}", type="banker", stake="10.00") for n in range(25)]
    together = banker_check(
        folders[0], operator_config, write_jsonl, make_round("R-1", bets=bets, **PLAYER_WINS)
    )
    one = banker_check(
        folders[1],
        operator_config,
        write_jsonl,
        make_round("R-1", bets=[make_bet("B-1", type="banker", stake="250.00")], **PLAYER_WINS),
    )
    apart = banker_check(
        folders[2],
        operator_config,
        write_jsonl,
        *banker_rounds(make_round, make_bet, 25, "10.00", "0.00", **PLAYER_WINS),
    )
    assert (together.bets, together.stakes) == (25, 25_000)
    game = operator_config.games[ITALY]
    variance = float(bet_odds(game.bet("banker"), 8, game.pay_table).variance)
    assert together.bound == pytest.approx(Z_BOUND * math.sqrt(variance), rel=1e-12)
    assert together.bound == pytest.approx(one.bound, rel=1e-12)
    assert apart.bound == pytest.approx(together.bound / 5, rel=1e-12)


def test_actual_rtp_is_an_exact_fraction_of_settled_rounds(
    tmp_path, operator_config, make_round, make_bet, write_jsonl
):
    check = banker_check(
        tmp_path,
        operator_config,
        write_jsonl,
        make_round(
            "R-1",
            **BANKER_WINS,
            bets=[
                make_bet("B-1", type="banker", stake="10.00", payout="19.50"),
                make_bet("B-2", type="banker", stake="12.35", payout="24.08"),
            ],
        ),
        make_round(
            "R-2", **TIE, bets=[make_bet("B-1", type="banker", stake="7.00", payout="7.00")]
        ),
        make_round("R-3", **PLAYER_WINS, bets=[make_bet("B-1", type="banker", stake="5.01")]),
        # A void round's refund is no return to the player: left out.
        make_round(
            "R-4",
            status="void",
            void_reason="stream lost",
            bets=[make_bet("B-1", type="banker", stake="900.00", payout="900.00")],
        ),
    )
    assert (check.bets, check.stakes, check.payouts) == (4, 3436, 5058)
    assert isinstance(check.actual_rtp, Fraction)
    assert check.actual_rtp == Fraction(5058, 3436)
    game = operator_config.games[ITALY]
    assert check.theoretical_rtp == bet_odds(game.bet("banker"), 8, game.pay_table).rtp


def test_a_month_of_banker_bets_that_all_won_is_flagged(
    tmp_path, operator_config, make_round, make_bet, write_jsonl
):
    check = banker_check(
        tmp_path,
        operator_config,
        write_jsonl,
        *banker_rounds(make_round, make_bet, 400, "10.00", "19.50", **BANKER_WINS),
    )
    assert check.actual_rtp == Fraction(195, 100)
    assert check.z_score is not None and check.z_score > Z_BOUND
    assert check.flagged


def theory_check(stakes_scale: int = 1, shift: float = 0.0) -> RtpCheck:
    """An Italian banker RtpCheck of 10,000 bets whose actual RTP is the theory plus ``shift``
    bounds."""
    from reporting.config.loader import load_catalogue

    game = load_catalogue().games[ITALY]
    odds = bet_odds(game.bet("banker"), game.decks, game.pay_table)
    bets = 10_000
    bound = Z_BOUND * math.sqrt(float(odds.variance) / bets)
    stakes = odds.rtp.denominator * stakes_scale
    payouts = odds.rtp.numerator * stakes_scale + round(shift * bound * stakes)
    return RtpCheck(ITALY, "banker", bets, stakes, payouts, odds.rtp, bound)


def test_a_month_settled_exactly_at_theory_is_not_flagged():
    check = theory_check()
    assert check.actual_rtp == check.theoretical_rtp
    assert check.z_score == 0
    assert not check.flagged


def test_the_flag_sits_at_the_edge_of_the_bound():
    assert not theory_check(shift=0.99).flagged
    assert not theory_check(shift=-0.99).flagged
    assert theory_check(shift=1.01).flagged
    assert theory_check(shift=-1.01).flagged


def test_without_stakes_there_is_no_rtp_and_no_flag():
    check = RtpCheck(ITALY, "banker", 0, 0, 0, Fraction(98, 100), 0.0)
    assert check.actual_rtp is None and check.z_score is None and not check.flagged


def test_each_variant_bet_is_checked_against_its_own_game_s_theory(operator_config):
    """A bet of a variant is checked against the exact RTP of its game's rule and pays; a bet
    its game does not offer has no theory there, and is not checked."""
    sums = BetTotals(bets=2, stakes=2000, payouts=1500, round_stake_squares=2_000_000)
    totals = {
        ("no-commission-dk", "banker_no_commission"): sums,
        ("no-commission-dk", "super_6"): sums,
        ("ez-baccarat-it", "dragon_7"): sums,
        ("ez-baccarat-it", "super_6"): sums,  # not a bet of the EZ game
    }
    checks = rtp_checks(totals, operator_config.games)
    assert [(check.game_id, check.bet_type) for check in checks] == [
        ("ez-baccarat-it", "dragon_7"),
        ("no-commission-dk", "banker_no_commission"),
        ("no-commission-dk", "super_6"),
    ]
    for check in checks:
        game = operator_config.games[check.game_id]
        odds = bet_odds(game.bet(check.bet_type), game.decks, game.pay_table)
        assert check.theoretical_rtp == odds.rtp
        assert check.bound == pytest.approx(Z_BOUND * math.sqrt(float(odds.variance) / 2))


# --- bets the engine does not settle --------------------------------------------------------


def test_bets_of_a_type_the_tool_does_not_settle_count_in_the_totals_not_in_the_rtp_checks(
    tmp_path, operator_config
):
    connection = connect(tmp_path / "store.sqlite")
    store_records(
        connection,
        [
            round_record(
                "R-1",
                bet_record("R-1", "B-1", bet_type="player", stake_cents=1000, payout_cents=2000),
                bet_record(
                    "R-1", "B-7", bet_type="BC_PLAYER_TIGER", stake_cents=500, payout_cents=6000
                ),
            ),
            round_record("R-2", bet_record("R-2", "B-2", bet_type="Dragon 7", stake_cents=300)),
        ],
        file_name="export.json",
    )
    try:
        result = verify(connection, operator_config, "2026-10")
    finally:
        connection.close()
    totals = result.bet_totals
    assert (
        totals[(ITALY, "BC_PLAYER_TIGER")].stakes,
        totals[(ITALY, "BC_PLAYER_TIGER")].payouts,
    ) == (500, 6000)
    assert totals[(ITALY, "Dragon 7")].bets == 1
    assert sum(item.stakes for item in totals.values()) == 1800  # every bet of the month
    checks = rtp_checks(totals, operator_config.games)
    assert [(check.bet_type, check.stakes) for check in checks] == [("player", 1000)]
    (table,) = outcome_tests(result.tables, operator_config.games)
    assert (table.rounds, table.player) == (2, 2)  # such a bet never blocks its round
    assert result.findings_by_kind["unverified_bet"] == 2


def test_the_confidence_is_written_once_and_its_words_follow_it():
    """Every bound is drawn at CONFIDENCE: the quantiles are computed from it and the reports
    print its label. Two sentences cannot take it as a value and are held to it here: the
    rule sheet's, which every catalogue translates, and the audit's "once in a thousand"."""
    from statistics import NormalDist

    from reporting.figures.statistics import CONFIDENCE, CONFIDENCE_LABEL

    templates = Path(__file__).resolve().parents[2] / "reporting" / "templates"
    # the published figures at 99.9%: the normal quantile of tables, -2 ln 0.001
    assert CONFIDENCE_LABEL == "99.9%"
    assert math.isclose(Z_BOUND, 3.2905267314919255, rel_tol=1e-15)
    assert math.isclose(CHI2_BOUND_2DF, 13.815510557964274, rel_tol=1e-15)
    assert NormalDist().cdf(Z_BOUND) - NormalDist().cdf(-Z_BOUND) == pytest.approx(
        float(CONFIDENCE)
    )
    assert math.exp(-CHI2_BOUND_2DF / 2) == pytest.approx(float(1 - CONFIDENCE))
    rules = (templates / "rules" / "macros.html.j2").read_text(encoding="utf-8")
    assert f"outside the {CONFIDENCE_LABEL}% statistical bound" in rules  # "%%": gettext's %
    summary = (templates / "audit" / "sections" / "summary.html.j2").read_text(encoding="utf-8")
    assert 1 / (1 - CONFIDENCE) == 1000 and "once in a thousand times" in summary
