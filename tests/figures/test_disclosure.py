"""Regulator disclosures (reporting.figures.disclosure, disclosures.md, cli.md ``disclose``): the reference
month and its update day, months counted in the game's time zone, the exact half-up win
percentage over settled rounds, and the warnings a page deserves."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import date, datetime, timedelta
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from helpers import bet_record, round_record, store_records
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from reporting.cli import app
from reporting.config.loader import ConfigError, load_config
from reporting.engine.odds import main_probabilities
from reporting.errors import InputError
from reporting.figures.disclosure import (
    disclose,
    payout_variance,
    reference_month,
    updated_on,
)
from reporting.ingest.discovery import discover_sources
from reporting.store.load import ingest
from reporting.store.schema import connect

ITALY = "live-baccarat-it"
GREECE = "live-baccarat-gr"
PAGE_FOR_OCTOBER = date(2026, 11, 5)
#: A deal the Banker wins, 9 against 7.
BANKER_WINS = {"player_cards": ["5H", "2C"], "banker_cards": ["9D", "KC"]}
PAGE_FOR_NOVEMBER = date(2026, 12, 5)
TIE = {"player_cards": ["9H", "KS"], "banker_cards": ["9D", "KC"]}  # 9 v 9
runner = CliRunner()


def config_file(folder: Path, text: str) -> Path:
    path = folder / "operator.toml"
    path.write_text(text, encoding="utf-8")
    return path


def store(folder: Path, config, write_jsonl, *records):
    """A store holding the given rounds (an empty one without records)."""
    connection = connect(folder / "store.sqlite")
    if records:
        log = write_jsonl(folder / "log.jsonl", *records)
        result = ingest(connection, discover_sources([log]), config)
        assert result.rejected == [], result.rejected
    return connection


def settled(make_round, make_bet, round_id: str, settled_at: str, stake: str, payout="0.00", **f):
    """A round with one bet; disclose does not judge payouts, only sums them."""
    return make_round(
        round_id,
        settled_at=settled_at,
        bets=[make_bet(f"{round_id}-B", stake=stake, payout=payout)],
        **f,
    )


def greek(make_round, make_bet, round_id: str, settled_at: str, stake: str):
    return settled(
        make_round, make_bet, round_id, settled_at, stake, game=GREECE, table_id="LB-GR-01"
    )


# --- which month a page shows ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("page", "month"),
    [
        (date(2026, 11, 4), (2026, 9)),
        (date(2026, 11, 5), (2026, 10)),
        (date(2026, 11, 30), (2026, 10)),
        (date(2026, 11, 1), (2026, 9)),
        (date(2027, 1, 4), (2026, 11)),
        (date(2027, 1, 5), (2026, 12)),
        (date(2027, 2, 1), (2026, 12)),
        (date(2027, 2, 4), (2026, 12)),
        (date(2027, 2, 5), (2027, 1)),
        (date(2026, 3, 4), (2026, 1)),
        (date(2026, 12, 31), (2026, 11)),
    ],
)
def test_reference_month_is_the_month_before_from_the_fifth_on(page, month):
    assert reference_month(page) == month


@pytest.mark.parametrize(
    ("month", "day"),
    [
        ((2026, 9), date(2026, 10, 5)),
        ((2026, 10), date(2026, 11, 5)),
        ((2026, 11), date(2026, 12, 5)),
        ((2026, 12), date(2027, 1, 5)),
        ((2027, 1), date(2027, 2, 5)),
    ],
)
def test_a_months_figure_is_updated_on_the_fifth_of_the_next_month(month, day):
    assert updated_on(month) == day


@given(st.dates(min_value=date(1990, 1, 1), max_value=date(2200, 12, 31)))
def test_a_page_shows_the_figure_last_published_on_or_before_its_date(page):
    shown = updated_on(reference_month(page))
    assert shown <= page
    assert shown.day == 5
    # No later 5th lies between the update and the page.
    next_fifth = updated_on(reference_month(shown + timedelta(days=32)))
    assert next_fifth > page


# --- months in the game's time zone -----------------------------------------------------------


@pytest.fixture
def around_midnight(tmp_path, operator_config, make_round, make_bet, write_jsonl):
    """Rounds around the ends of September and October, in Rome and in Athens, each with its
    own stake so that the sums show which month took which round."""
    return store(
        tmp_path,
        operator_config,
        write_jsonl,
        # Rome, UTC+2 until 25 October, UTC+1 after.
        settled(make_round, make_bet, "IT-SEP", "2026-09-30T21:30:00Z", "1.00"),  # 23:30 30/9
        settled(make_round, make_bet, "IT-OCT-1", "2026-09-30T22:30:00Z", "2.00"),  # 00:30 1/10
        settled(make_round, make_bet, "IT-OCT-2", "2026-10-31T22:30:00Z", "4.00"),  # 23:30
        settled(make_round, make_bet, "IT-OCT-3", "2026-10-31T22:59:59.999Z", "8.00"),
        settled(make_round, make_bet, "IT-NOV-1", "2026-10-31T23:00:00Z", "16.00"),  # 00:00
        settled(make_round, make_bet, "IT-NOV-2", "2026-10-31T23:30:00Z", "32.00"),  # 00:30
        # The same instant written with Rome's offset.
        settled(make_round, make_bet, "IT-NOV-3", "2026-11-01T00:30:00+01:00", "64.00"),
        # Athens, UTC+2 in winter: the boundary falls an hour earlier in UTC.
        greek(make_round, make_bet, "GR-OCT-1", "2026-10-31T21:30:00Z", "100.00"),  # 23:30
        greek(make_round, make_bet, "GR-OCT-2", "2026-10-31T21:59:59Z", "200.00"),
        greek(make_round, make_bet, "GR-NOV-1", "2026-10-31T22:00:00Z", "400.00"),  # 00:00
        greek(make_round, make_bet, "GR-NOV-2", "2026-10-31T22:30:00Z", "800.00"),  # 00:30
    )


def test_a_round_settled_after_midnight_in_rome_counts_in_the_next_month(
    around_midnight, operator_config
):
    italy = operator_config.game(ITALY)
    october = disclose(around_midnight, italy, PAGE_FOR_OCTOBER)
    november = disclose(around_midnight, italy, PAGE_FOR_NOVEMBER)
    september = disclose(around_midnight, italy, date(2026, 10, 5))
    assert (october.reference_month_text, october.rounds, october.stakes) == ("2026-10", 3, 1400)
    assert (november.reference_month_text, november.rounds, november.stakes) == (
        "2026-11",
        3,
        11200,
    )
    assert (september.reference_month_text, september.rounds, september.stakes) == (
        "2026-09",
        1,
        100,
    )


def test_the_greek_months_end_an_hour_earlier_in_utc(around_midnight, operator_config):
    greece = operator_config.game(GREECE)
    october = disclose(around_midnight, greece, PAGE_FOR_OCTOBER)
    november = disclose(around_midnight, greece, PAGE_FOR_NOVEMBER)
    assert (october.rounds, october.stakes) == (2, 30_000)
    assert (november.rounds, november.stakes) == (2, 120_000)
    # 22:30Z on 31 October: November in Athens, still October in Rome.
    rows = dict(around_midnight.execute("SELECT round_id, report_month FROM rounds"))
    assert rows["GR-NOV-2"] == "2026-11" and rows["IT-OCT-2"] == "2026-10"


# --- the win percentage ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("stake", "payout", "shown"),
    [
        ("800.00", "777.00", "97.13"),  # exactly 97.125: half up
        ("1000.00", "970.05", "97.01"),  # exactly 97.005, which a float holds as 97.00499...
        ("1000.00", "970.04", "97.00"),  # 97.004
        ("800.01", "777.00", "97.12"),  # 97.12378...
        ("3.00", "2.00", "66.67"),  # 66.666...
        ("8.00", "0.01", "0.13"),  # 0.125
        ("5.00", "5.01", "100.20"),
    ],
)
def test_the_win_percentage_is_exact_and_rounded_half_up(
    tmp_path, operator_config, make_round, make_bet, write_jsonl, stake, payout, shown
):
    connection = store(
        tmp_path,
        operator_config,
        write_jsonl,
        settled(make_round, make_bet, "R-1", "2026-10-10T12:00:00Z", stake, payout),
    )
    disclosure = disclose(connection, operator_config.game(ITALY), PAGE_FOR_OCTOBER)
    assert disclosure.win_percentage == Decimal(shown)
    assert disclosure.to_document()["previous_month_win_percentage"] == shown


def test_void_rounds_are_left_out_and_pushes_count(
    tmp_path, operator_config, make_round, make_bet, write_jsonl
):
    connection = store(
        tmp_path,
        operator_config,
        write_jsonl,
        # Player 9 beats Banker 7: the banker bet is lost.
        settled(make_round, make_bet, "R-LOST", "2026-10-10T12:00:00Z", "100.00", "0.00"),
        # A tie: the player bet is pushed, staked and paid back.
        make_round(
            "R-PUSH",
            settled_at="2026-10-10T12:01:00Z",
            **TIE,
            bets=[make_bet("B-1", type="player", stake="100.00", payout="100.00")],
        ),
        # A void round refunds its stakes: no part of the figure.
        make_round(
            "R-VOID",
            settled_at="2026-10-10T12:02:00Z",
            status="void",
            void_reason="video stream interrupted",
            bets=[make_bet("B-1", stake="500.00", payout="500.00")],
        ),
        # Another game's play is not this game's.
        greek(make_round, make_bet, "R-GREEK", "2026-10-10T12:03:00Z", "900.00"),
    )
    disclosure = disclose(connection, operator_config.game(ITALY), PAGE_FOR_OCTOBER)
    document = disclosure.to_document()
    assert (disclosure.rounds, disclosure.bets) == (2, 2)
    assert (document["stakes"], document["payouts"]) == ("200.00", "100.00")
    assert document["previous_month_win_percentage"] == "50.00"


def test_a_month_without_play_shows_zero_and_warns(
    tmp_path, operator_config, make_round, make_bet, write_jsonl
):
    # Play in September only; the page of 5 November shows October.
    connection = store(
        tmp_path,
        operator_config,
        write_jsonl,
        settled(make_round, make_bet, "R-1", "2026-09-10T12:00:00Z", "100.00", "195.00"),
    )
    italy = operator_config.game(ITALY)
    for disclosure in (
        disclose(connection, italy, PAGE_FOR_OCTOBER),
        disclose(None, italy, PAGE_FOR_OCTOBER),
    ):
        assert disclosure.reference_month_text == "2026-10"
        assert disclosure.win_percentage == Decimal("0.00")
        assert disclosure.to_document()["previous_month_win_percentage"] == "0.00"
        assert (disclosure.rounds, disclosure.stakes, disclosure.payouts) == (0, 0, 0)
        assert any("no play" in warning and "2026-10" in warning for warning in disclosure.warnings)


def test_a_month_of_rounds_nobody_bet_on_shows_zero_and_warns(tmp_path, make_round, write_jsonl):
    """Live tables deal whether or not anyone bets: rounds without a single stake are still a
    month without play. The page shows 0.00%, and the run must say why."""
    config = load_config(
        config_file(tmp_path, '[games.live-baccarat-it]\ndeclared_rtp = "98.00"\n')
    )
    connection = store(
        tmp_path,
        config,
        write_jsonl,
        make_round("R-1", settled_at="2026-10-10T12:00:00Z", bets=[]),
        make_round("R-2", settled_at="2026-10-10T12:01:00Z", bets=[]),
    )
    disclosure = disclose(connection, config.game(ITALY), PAGE_FOR_OCTOBER)
    assert disclosure.stakes == 0
    assert disclosure.to_document()["previous_month_win_percentage"] == "0.00"
    assert disclosure.warnings, "0.00% shown for a month without stakes, and no warning"


def test_a_month_far_from_the_theory_warns(
    tmp_path, operator_config, make_round, make_bet, write_jsonl
):
    connection = store(
        tmp_path,
        operator_config,
        write_jsonl,
        *(
            make_round(
                f"R-{n}",
                settled_at=f"2026-10-10T12:{n // 60:02d}:{n % 60:02d}Z",
                **BANKER_WINS,
                bets=[make_bet(f"B-{n}", stake="10.00", payout="19.50")],
            )
            for n in range(400)
        ),
    )
    disclosure = disclose(connection, operator_config.game(ITALY), PAGE_FOR_OCTOBER)
    assert disclosure.to_document()["previous_month_win_percentage"] == "195.00"
    assert disclosure.within_statistical_bound is False
    assert any("statistical bound" in warning for warning in disclosure.warnings)


def test_one_deal_won_by_every_stake_on_it_is_within_the_bound(
    tmp_path, operator_config, make_round, make_bet, write_jsonl
):
    """400 Banker bets on one round won together: one deal, which the Banker wins nearly half
    the time, not 400 wins in a row."""
    connection = store(
        tmp_path,
        operator_config,
        write_jsonl,
        make_round(
            "R-1",
            settled_at="2026-10-10T12:00:00Z",
            **BANKER_WINS,
            bets=[make_bet(f"B-{n}", stake="10.00", payout="19.50") for n in range(400)],
        ),
    )
    disclosure = disclose(connection, operator_config.game(ITALY), PAGE_FOR_OCTOBER)
    assert disclosure.to_document()["previous_month_win_percentage"] == "195.00"
    assert disclosure.within_statistical_bound is True


def test_a_player_and_a_banker_stake_on_one_round_hedge_each_other_in_the_bound(
    tmp_path, operator_config, make_round, make_bet, write_jsonl
):
    """The variance of the month's payouts, counted apart from the engine's covariances: each
    round returns 2 x 10.00 on a Player win, 1.95 x 30.00 on a Banker win, 40.00 on a tie."""
    connection = store(
        tmp_path,
        operator_config,
        write_jsonl,
        *(
            make_round(
                f"R-{n}",
                settled_at=f"2026-10-10T12:00:{n:02d}Z",
                player_cards=["9H", "KS"],
                banker_cards=["5D", "2C"],
                bets=[
                    make_bet(f"P-{n}", type="player", stake="10.00", payout="20.00"),
                    make_bet(f"B-{n}", type="banker", stake="20.00"),
                    make_bet(f"C-{n}", type="banker", stake="10.00"),
                ],
            )
            for n in range(10)
        ),
    )
    p = main_probabilities(8)
    returned = {"player": 2000, "banker": Fraction(39, 20) * 3000, "tie": 4000}  # cents
    # a bet of a type the game does not offer (a provider's, kept unverified) is in no bound:
    # the round's other bets are as above
    tiger = bet_record("R-900", "T-1", bet_type="small_tiger", stake_cents=10_000)
    store_records(connection, [round_record("R-900", tiger)], file_name="export.json")
    mean = sum(p[outcome] * returned[outcome] for outcome in p)
    one_round = sum(p[outcome] * (returned[outcome] - mean) ** 2 for outcome in p)
    game = operator_config.game(ITALY)
    assert payout_variance(connection, game, "2026-10") == 10 * one_round


# --- declared RTP -----------------------------------------------------------------------------


def test_the_sample_declared_rtp_is_above_every_bets_theoretical_rtp(operator_config):
    """99.50% declared; the best Italian bet (banker) returns 98.94%."""
    disclosure = disclose(None, operator_config.game(ITALY), PAGE_FOR_OCTOBER)
    document = disclosure.to_document()
    assert (document["declared_rtp"], document["operator_share"]) == ("99.50", "0.50")
    assert document["theoretical_rtp"]["banker"] == "98.94"
    above = [w for w in disclosure.warnings if "above the theoretical RTP" in w]
    assert len(above) == 1 and "99.50" in above[0] and "98.94" in above[0]
    assert not any("Italian minimum" in warning for warning in disclosure.warnings)


@pytest.mark.parametrize(
    ("declared", "share", "below_minimum", "above_theory"),
    [
        ("85.00", "15.00", True, False),
        ("89.99", "10.01", True, False),
        ("90.00", "10.00", False, False),
        ("98.94", "1.06", False, False),  # at the banker's 98.94...% (98.9421...)
        ("98.95", "1.05", False, True),
    ],
)
def test_the_declared_rtp_against_the_italian_minimum_and_the_theory(
    tmp_path, declared, share, below_minimum, above_theory
):
    config = load_config(
        config_file(tmp_path, f'[games.live-baccarat-it]\ndeclared_rtp = "{declared}"\n')
    )
    disclosure = disclose(None, config.game(ITALY), PAGE_FOR_OCTOBER)
    document = disclosure.to_document()
    assert (document["declared_rtp"], document["operator_share"]) == (declared, share)
    warnings = disclosure.warnings
    assert any("below the Italian minimum of 90%" in w for w in warnings) == below_minimum
    assert any("above the theoretical RTP" in w for w in warnings) == above_theory
    assert not any("do not sum to 100%" in w for w in warnings)


# --- the command ----------------------------------------------------------------------------------

CONTRACT_KEYS = {
    "game",
    "as_of",
    "declared_rtp",
    "operator_share",
    "reference_month",
    "updated_on",
    "previous_month_win_percentage",
    "stakes",
    "payouts",
    "rounds",
    "warnings",
}


def test_json_output_has_every_key_of_the_contract(
    tmp_path, operator_config, sample_config_path, make_round, make_bet, write_jsonl
):
    store(
        tmp_path,
        operator_config,
        write_jsonl,
        settled(make_round, make_bet, "R-1", "2026-10-10T12:00:00Z", "800.00", "777.00"),
        settled(make_round, make_bet, "R-2", "2026-11-10T12:00:00Z", "5.00", "0.00"),
    ).close()
    result = runner.invoke(
        app,
        [
            "disclose",
            "--game",
            ITALY,
            "--as-of",
            "2026-11-30",
            "--db",
            str(tmp_path / "store.sqlite"),
            "--config",
            str(sample_config_path),
            "--json",
        ],
    )
    document = json.loads(result.stdout)
    assert result.exit_code == (1 if document["warnings"] else 0), result.output
    assert set(document) >= CONTRACT_KEYS
    assert {key: document[key] for key in CONTRACT_KEYS - {"warnings"}} == {
        "game": ITALY,
        "as_of": "2026-11-30",
        "declared_rtp": "99.50",
        "operator_share": "0.50",
        "reference_month": "2026-10",
        "updated_on": "2026-11-05",
        "previous_month_win_percentage": "97.13",
        "stakes": "800.00",
        "payouts": "777.00",
        "rounds": 1,
    }
    assert isinstance(document["warnings"], list)
    assert any("above the theoretical RTP" in warning for warning in document["warnings"])


def test_a_round_the_game_s_zone_now_puts_in_another_month_is_a_warning(
    tmp_path, operator_config, make_round, make_bet, write_jsonl
):
    """A Greek round settled at 00:30 on 1 November in Athens (23:30 on 31 October in Rome),
    stored in November; the game's zone then set to Rome. verify and the monthly job warn
    that the month counts a round its zone now puts in October; disclose counted it in
    November's figure without a word, exit 0."""
    store(
        tmp_path,
        operator_config,
        write_jsonl,
        greek(make_round, make_bet, "GR-1", "2026-10-31T22:30:00Z", "10.00"),
        greek(make_round, make_bet, "GR-2", "2026-11-10T10:00:00Z", "10.00"),
    ).close()
    rome = config_file(tmp_path, f'[games.{GREECE}]\ntimezone = "Europe/Rome"\n')
    result = runner.invoke(
        app,
        [
            *("disclose", "--game", GREECE, "--as-of", "2026-12-05", "--json"),
            *("--db", str(tmp_path / "store.sqlite"), "--config", str(rome)),
        ],
    )
    document = json.loads(result.stdout)
    assert (result.exit_code, document["rounds"]) == (1, 2)  # counted as stored
    assert document["warnings"] == [
        f"1 round of {GREECE} stored in 2026-11 settled outside it in Europe/Rome, the game's"
        " time zone now: it was loaded under another, and every report counts it in the month"
        " it was stored in; set the zone back, or build the store again from the logs"
    ]


@pytest.mark.parametrize("zone", ["Pacific/Kiritimati", "Pacific/Pago_Pago"])
def test_as_of_defaults_to_today_in_the_games_time_zone(tmp_path, write_jsonl, zone):
    """UTC+14 and UTC-11 are 25 hours apart: their dates always differ, so only the game's own
    zone gives the right day."""
    # a game of no regulator (the ADM's count in Rome's time)
    path = config_file(tmp_path, f'[games.live-baccarat-gr]\ntimezone = "{zone}"\n')
    store(tmp_path, load_config(path), write_jsonl).close()
    before = datetime.now(ZoneInfo(zone)).date()
    result = runner.invoke(
        app,
        [
            "disclose",
            "--game",
            "live-baccarat-gr",
            "--db",
            str(tmp_path / "store.sqlite"),
            "--config",
            str(path),
            "--json",
        ],
    )
    after = datetime.now(ZoneInfo(zone)).date()
    document = json.loads(result.stdout)
    assert result.exit_code == (1 if document["warnings"] else 0), result.output
    assert document["as_of"] in {before.isoformat(), after.isoformat()}
    shown = date.fromisoformat(document["as_of"])
    assert document["reference_month"] == "{:04d}-{:02d}".format(*reference_month(shown))


def test_an_unknown_game_is_a_configuration_error(tmp_path, sample_config_path, write_jsonl):
    result = runner.invoke(
        app,
        [
            "disclose",
            "--game",
            "roulette-it",
            "--db",
            str(tmp_path / "store.sqlite"),
            "--config",
            str(sample_config_path),
        ],
    )
    assert isinstance(result.exception, ConfigError)
    assert "roulette-it" in str(result.exception)


def test_bad_input_exits_2_with_one_line(
    tmp_path, sample_config_path, operator_config, write_jsonl
):
    store(tmp_path, operator_config, write_jsonl).close()
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "reporting",
            "disclose",
            "--game",
            ITALY,
            "--as-of",
            "2026-11-31",
            "--db",
            str(tmp_path / "store.sqlite"),
            "--config",
            str(sample_config_path),
        ],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
    )
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "2026-11-31" in lines[0]


def test_a_database_file_that_is_not_a_store_is_refused_as_input(tmp_path, sample_config_path):
    """An empty file opens as an empty SQLite database; disclose must say so in one line
    (an InputError, exit 2) rather than fail on a missing table."""
    empty = tmp_path / "empty.sqlite"
    empty.write_bytes(b"")
    result = runner.invoke(
        app,
        [
            "disclose",
            "--game",
            ITALY,
            "--as-of",
            "2026-11-05",
            "--db",
            str(empty),
            "--config",
            str(sample_config_path),
        ],
    )
    assert isinstance(result.exception, InputError), repr(result.exception)
    assert str(empty) in str(result.exception)


# --- bets the engine does not settle --------------------------------------------------------


def unsettled_store(folder: Path, *rounds):
    connection = connect(folder / "store.sqlite")
    store_records(connection, list(rounds), file_name="export.json")
    return connection


def test_bets_the_tool_does_not_settle_count_in_the_figures_not_in_the_bound(
    tmp_path, operator_config
):
    # Player 9 beats banker 7: the banker bet lost, the player bet won; a tiger bet of 5.00
    # paid 10,000.00, which the theory of the offered bets cannot judge.
    connection = unsettled_store(
        tmp_path,
        round_record(
            "R-1",
            bet_record("R-1", "B-1", bet_type="banker", stake_cents=2500),
            bet_record("R-1", "B-2", bet_type="player", stake_cents=1000, payout_cents=2000),
            bet_record(
                "R-1", "B-7", bet_type="BC_PLAYER_TIGER", stake_cents=500, payout_cents=10**6
            ),
        ),
    )
    try:
        disclosure = disclose(connection, operator_config.games[ITALY], PAGE_FOR_OCTOBER)
    finally:
        connection.close()
    assert (disclosure.rounds, disclosure.bets) == (1, 3)
    assert (disclosure.stakes, disclosure.payouts) == (4000, 1_002_000)
    assert disclosure.win_percentage == Decimal("25050.00")
    rtp = {odds.bet: odds.rtp for odds in disclosure.theory.bets}
    assert disclosure.expected_payouts == 2500 * rtp["banker"] + 1000 * rtp["player"]
    assert disclosure.theory_payouts == 2000
    # Counted in the bound, the tiger's payout would lie far outside it.
    assert disclosure.within_statistical_bound is True
    assert not any("statistical bound" in warning for warning in disclosure.warnings)
    assert disclosure.to_document()["payouts"] == "10020.00"


def test_a_month_of_bets_the_tool_does_not_settle_only_is_not_judged_against_the_theory(
    tmp_path, operator_config
):
    connection = unsettled_store(
        tmp_path,
        round_record("R-1", bet_record("R-1", "B-7", bet_type="Dragon 7", payout_cents=5000)),
    )
    try:
        disclosure = disclose(connection, operator_config.games[ITALY], PAGE_FOR_OCTOBER)
    finally:
        connection.close()
    assert (disclosure.bets, disclosure.stakes, disclosure.payouts) == (1, 2500, 5000)
    assert disclosure.within_statistical_bound is None
    assert disclosure.to_document()["within_statistical_bound"] is None


def test_disclose_exits_1_when_a_figure_is_missing_or_in_doubt(tmp_path, sample_config_path):
    """A disclosure with warnings (here: no play in the month; the sample's declared RTP above
    the theory) is done, with something to look at before it is published: exit 1."""
    from helpers import run_main

    from reporting.store.schema import connect

    connect(tmp_path / "store.sqlite").close()
    common = ("--db", str(tmp_path / "store.sqlite"), "--config", str(sample_config_path))
    italy = run_main("disclose", "--game", ITALY, "--as-of", "2026-11-30", *common, "--json")
    assert italy.returncode == 1
    assert any("declared RTP 99.50%" in w for w in json.loads(italy.stdout)["warnings"])
