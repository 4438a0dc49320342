"""The month's audit figures (reporting.figures.audit): the void register, money per game,
table and local day (GGR, distinct accounts, per currency), activity per local hour across the
DST change, availability gaps of games open 24h, the configured limits, the disclosure
cross-check and the provenance digest, each read from a store built from records with a known
answer."""

from __future__ import annotations

import dataclasses
import hashlib
import sqlite3
from datetime import UTC, date, datetime, timedelta
from fractions import Fraction
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from helpers import bet_record, round_record, store_records

from reporting.config.loader import ConfigError, load_config
from reporting.engine.theory import game_odds
from reporting.errors import InputError
from reporting.figures.audit import (
    audit_month,
    availability_gaps,
    hours_dealt,
    local_hour_sql,
    money_and_activity,
    month_hours,
    utc_offsets,
    void_register,
)
from reporting.figures.audit_records import MoneyRow
from reporting.figures.disclosure import disclose
from reporting.records import Month, stored_instant
from reporting.store.schema import connect

ITALY = "live-baccarat-it"
DENMARK = "live-baccarat-dk"
OCTOBER = Month(2026, 10)
SAMPLE_CONFIG = Path(__file__).resolve().parents[2] / "sample_data" / "operator.toml"


@pytest.fixture
def store(tmp_path: Path):
    connection = connect(tmp_path / "store.sqlite")
    yield connection
    connection.close()


def audit(connection: sqlite3.Connection, config, configuration_path=SAMPLE_CONFIG):
    return audit_month(
        connection,
        config,
        "2026-10",
        as_of_by_game={},
        configuration_path=configuration_path,
        tool_version="9.9.9",
    )


def at(minutes: float) -> str:
    """A store time ``minutes`` after 2026-10-03T10:00Z."""
    moment = datetime(2026, 10, 3, 10, tzinfo=UTC) + timedelta(minutes=minutes)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


# --- the void register ----------------------------------------------------------------


def test_the_void_register_lists_every_void_round_by_settlement_time_with_its_bets_and_source(
    store, operator_config
):
    refunded = [
        bet_record("R-3", "B-1", stake_cents=2500, payout_cents=2500, source_line=7),
        bet_record("R-3", "B-2", account="acc-2", stake_cents=1000, payout_cents=0, source_line=7),
    ]
    store_records(
        store,
        [
            round_record("R-1", bet_record("R-1", "B-1"), settled_at=at(0), source_line=3),
            round_record(
                "R-2", settled_at=at(20), status="void", void_reason="shoe change", source_line=5
            ),  # fmt: skip
            round_record(
                "R-3",
                *refunded,
                settled_at=at(10),
                status="void",
                void_reason="dealer error",
                source_line=7,
            ),  # fmt: skip
            round_record("R-4", settled_at=at(5), status="void", report_month="2026-11"),
        ],
        file_name="inbox/october.jsonl",
    )
    register = audit(store, operator_config).void_rounds
    assert [line.round_id for line in register] == ["R-3", "R-2"]  # R-4 is November's
    first, second = register
    assert (first.game_id, first.table_id, first.shoe_id, first.hand_no) == (
        ITALY,
        "LB01",
        "S-1",
        3,
    )
    assert (first.settled_at, first.void_reason) == (at(10), "dealer error")
    assert (first.bets, first.stakes, first.refunded, first.currency) == (2, 3500, 2500, "EUR")
    assert (first.source_file, first.source_line) == ("inbox/october.jsonl", 7)
    assert (second.bets, second.stakes, second.refunded, second.currency) == (0, 0, 0, None)
    assert second.void_reason == "shoe change"


# --- money ------------------------------------------------------------------------------


def money_store(store) -> None:
    """Two tables over two local days: known stakes, payouts and accounts."""
    rounds = [
        round_record("A-1", bet_record("A-1", "B-1", account="acc-1", stake_cents=1000,
                     payout_cents=1950), bet_record("A-1", "B-2", account="acc-2",
                     stake_cents=500), table_id="LB01", settled_at="2026-10-03T10:00:00.000Z"),
        round_record("A-2", bet_record("A-2", "B-1", account="acc-1", stake_cents=2000),
                     table_id="LB01", settled_at="2026-10-04T10:00:00.000Z"),
        round_record("A-3", bet_record("A-3", "B-1", account="acc-1", stake_cents=4000,
                     payout_cents=8000), bet_record("A-3", "B-2", account="acc-3",
                     stake_cents=300), table_id="LB02", settled_at="2026-10-03T11:00:00.000Z"),
        round_record("A-4", bet_record("A-4", "B-1", account="acc-9", stake_cents=700,
                     payout_cents=700), table_id="LB02", status="void",
                     settled_at="2026-10-04T12:00:00.000Z"),
        round_record("A-5", table_id="LB02", settled_at="2026-10-04T13:00:00.000Z"),
    ]  # fmt: skip
    store_records(store, rounds, file_name="october.jsonl")


def test_money_of_the_month_counts_settled_rounds_bets_distinct_accounts_stakes_and_ggr(
    store, operator_config
):
    money_store(store)
    month = next(row for row in audit(store, operator_config).money if row.game_id == ITALY)
    assert month == MoneyRow(
        game_id=ITALY, table_id=None, day=None, currency="EUR", rounds=4, void_rounds=1,
        bets=5, accounts=3, stakes=7800, payouts=9950,
    )  # fmt: skip
    assert month.ggr == 7800 - 9950  # the void round's bet (refunded) is not money of play


def test_money_per_table_and_per_day_sum_to_the_month_but_accounts_are_distinct(
    store, operator_config
):
    money_store(store)
    rows = [row for row in audit(store, operator_config).money if row.game_id == ITALY]
    month = rows[0]
    tables = [row for row in rows if row.table_id is not None]
    days = [row for row in rows if row.day is not None]
    assert (month.table_id, month.day) == (None, None)
    assert [(row.table_id, row.day) for row in tables] == [("LB01", None), ("LB02", None)]
    assert [(row.table_id, row.day) for row in days] == [
        (None, date(2026, 10, 3)),
        (None, date(2026, 10, 4)),
    ]
    assert len(rows) == 5
    for part in (tables, days):
        for field in ("rounds", "void_rounds", "bets", "stakes", "payouts", "ggr"):
            assert sum(getattr(row, field) for row in part) == getattr(month, field), field
    # acc-1 plays at both tables and on both days: counted once in the month
    assert [row.accounts for row in tables] == [2, 2]
    assert [row.accounts for row in days] == [3, 1]
    assert month.accounts == 3


def test_money_is_kept_per_game_and_currency_never_added_across_currencies(store, operator_config):
    store_records(
        store,
        [
            round_record("I-1", bet_record("I-1", "B-1", stake_cents=2500)),
            round_record(
                "D-1",
                bet_record("D-1", "B-1", stake_cents=50000, payout_cents=97500, currency="DKK"),
                game_id=DENMARK,
                table_id="LB-DK-01",
            ),
        ],
        file_name="october.jsonl",
    )
    rows = audit(store, operator_config).money
    months = {
        (row.game_id, row.currency): row for row in rows if row.table_id is None and row.day is None
    }
    assert months[(DENMARK, "DKK")].stakes == 50000
    assert months[(DENMARK, "DKK")].payouts == 97500
    assert months[(ITALY, "EUR")].stakes == 2500
    assert (DENMARK, "EUR") not in months and (ITALY, "DKK") not in months
    assert {row.currency for row in rows if row.game_id == DENMARK} == {"DKK"}
    # a configured game without play has its month row, all zeros
    greece = months[("live-baccarat-gr", "EUR")]
    assert (greece.rounds, greece.bets, greece.stakes, greece.accounts) == (0, 0, 0, 0)


# --- local days and hours ---------------------------------------------------------------


def test_the_local_day_and_hour_follow_the_game_s_zone_across_the_dst_change(
    store, operator_config
):
    """Rome leaves summer time at 2026-10-25T01:00Z: 02:00-02:59 local comes twice."""
    settled = {
        "T-1": "2026-09-30T22:30:00.000Z",  # 00:30 on 1 October in Rome: October's
        "T-2": "2026-10-25T00:30:00.000Z",  # 02:30 CEST
        "T-3": "2026-10-25T00:59:59.999Z",  # 02:59 CEST
        "T-4": "2026-10-25T01:00:00.000Z",  # 02:00 CET, the hour again
        "T-5": "2026-10-25T22:30:00.000Z",  # 23:30 CET on the 25th
        "T-6": "2026-10-25T23:30:00.000Z",  # 00:30 on the 26th
        "T-7": "2026-10-31T23:30:00.000Z",  # 00:30 on 1 November: not October's
    }
    store_records(
        store,
        [
            round_record(
                round_id,
                bet_record(round_id, "B-1"),
                settled_at=when,
                started_at=None,
                report_month="2026-11" if round_id == "T-7" else "2026-10",
            )
            for round_id, when in settled.items()
        ],
        file_name="october.jsonl",
    )
    result = audit(store, operator_config)
    hours = [(row.day, row.hour, row.rounds) for row in result.activity if row.game_id == ITALY]
    assert hours == [
        (date(2026, 10, 1), 0, 1),
        (date(2026, 10, 25), 2, 3),
        (date(2026, 10, 25), 23, 1),
        (date(2026, 10, 26), 0, 1),
    ]
    days = {row.day: row.rounds for row in result.money if row.game_id == ITALY and row.day}
    assert days == {date(2026, 10, 1): 1, date(2026, 10, 25): 4, date(2026, 10, 26): 1}
    assert all(row.stakes == 2500 * row.rounds for row in result.activity)
    # The hours it was dealt in, of the month's local clock hours: 02:00 twice is one.
    assert hours_dealt(result.activity, ITALY) == 4
    assert hours_dealt(result.activity, "live-baccarat-dk") == 0
    assert month_hours(OCTOBER, "Europe/Rome") == 31 * 24


@pytest.mark.parametrize(
    "zone", ["Europe/Rome", "Australia/Lord_Howe", "America/Sao_Paulo", "Asia/Kolkata", "UTC"]
)
@pytest.mark.parametrize("month", [Month(2026, 3), Month(2026, 4), OCTOBER])
def test_the_month_s_hours_are_the_local_clock_hours_its_minutes_pass_through(zone, month):
    """Each day and hour the local clock shows in some minute of the month, counted minute by
    minute: a skipped hour (Rome's in March) is none, a repeated one (October's) is one, and a
    half-hour change (Lord Howe's) skips no hour."""
    local = ZoneInfo(zone)
    start = datetime(month.year, month.month, 1, tzinfo=local).astimezone(UTC)
    following = month.next()
    end = datetime(following.year, following.month, 1, tzinfo=local).astimezone(UTC)
    minutes = int((end - start).total_seconds()) // 60
    shown = set()
    for minute in range(minutes):
        moment = (start + timedelta(minutes=minute)).astimezone(local)
        shown.add((moment.date(), moment.hour))
    assert month_hours(month, zone) == len(shown)
    if (zone, month) == ("Europe/Rome", Month(2026, 3)):
        assert len(shown) == 31 * 24 - 1


def test_the_zone_s_offsets_in_a_month_come_from_its_transitions():
    assert utc_offsets("Europe/Rome", OCTOBER) == [("2026-10-25T01:00:00.000Z", 7200), (None, 3600)]
    assert utc_offsets("Europe/Rome", Month(2026, 11)) == [(None, 3600)]
    assert utc_offsets("America/Sao_Paulo", OCTOBER) == [(None, -3 * 3600)]


@pytest.mark.parametrize(
    "zone", ["Europe/Rome", "Europe/Copenhagen", "Australia/Lord_Howe", "Asia/Kolkata", "UTC"]
)
@pytest.mark.parametrize("month", [Month(2026, 3), Month(2026, 4), OCTOBER])
def test_the_sql_local_hour_is_the_zone_s_own_at_every_quarter_hour(zone, month):
    """Lord Howe moves by half an hour, Kolkata is half an hour off UTC."""
    tz = ZoneInfo(zone)
    start = datetime(month.year, month.month, 1, tzinfo=tz).astimezone(UTC)
    end = datetime(*month.next(), 1, tzinfo=tz).astimezone(UTC)
    instants = []
    moment = start
    while moment < end:
        instants += [moment, moment + timedelta(minutes=14, seconds=59, milliseconds=999)]
        moment += timedelta(minutes=15)
    texts = [m.strftime("%Y-%m-%dT%H:%M:%S.") + f"{m.microsecond // 1000:03d}Z" for m in instants]
    connection = sqlite3.connect(":memory:")
    connection.execute("CREATE TABLE t (settled_at TEXT)")
    connection.executemany("INSERT INTO t VALUES (?)", [(text,) for text in texts])
    local = [row[0] for row in connection.execute(f"SELECT {local_hour_sql(zone, month)} FROM t")]
    assert local == [m.astimezone(tz).strftime("%Y-%m-%d %H") for m in instants]


# --- availability gaps ------------------------------------------------------------------


def gap_store(store, silence_minutes: float, *, started: bool = True) -> None:
    """Table LB01 deals at 10:00 and 10:01, then is silent for ``silence_minutes`` before the
    next round starts (settling a minute later), and deals one more round a minute after;
    table LB02 deals every 5 minutes from 10:05 to 10:20 (its edges within the threshold)."""
    later = at(1 + silence_minutes)
    third = at(2 + silence_minutes) if started else later
    rounds = [
        round_record("G-1", settled_at=at(0), started_at=at(-1)),
        round_record("G-2", settled_at=at(1), started_at=at(0.5)),
        round_record("G-3", settled_at=third, started_at=later if started else None),
        round_record(
            "G-4",
            settled_at=at(3 + silence_minutes) if started else at(2 + silence_minutes),
            started_at=None,
        ),
        *(
            round_record(f"H-{n}", table_id="LB02", settled_at=at(5 * n), started_at=None)
            for n in range(1, 5)
        ),
    ]
    store_records(store, rounds, file_name="october.jsonl")


#: The month's first instant and the next month's, in the Italian game's time zone (UTC).
MONTH_START, MONTH_END = (stored_instant(moment) for moment in OCTOBER.utc_bounds("Europe/Rome"))


def between_rounds(gaps) -> list:
    """The gaps between two rounds of a table, not at its edges of the month (a table that
    deals on the 3rd alone is idle from the 1st, and to the 31st)."""
    return [gap for gap in gaps if gap.after_round and gap.before_round]


def test_a_table_silent_longer_than_the_threshold_is_one_gap_from_settlement_to_next_start(
    store, operator_config
):
    gap_store(store, 20)
    (gap,) = between_rounds(audit(store, operator_config).gaps)
    assert (gap.game_id, gap.table_id, gap.after_round, gap.before_round) == (
        ITALY, "LB01", "G-2", "G-3",
    )  # fmt: skip
    assert (gap.start, gap.end, gap.minutes) == (at(1), at(21), 20)


def test_a_tables_edges_run_from_the_month_s_start_and_to_its_end(store, operator_config):
    """LB02 starts dealing 30 minutes after LB01 and stops 40 minutes before it: its edges
    run from the month's start (midnight of the 1st in Rome) and to its end, as LB01's."""
    rounds = [
        round_record("G-1", settled_at=at(0), started_at=at(-1)),
        *(round_record(f"G-{n}", settled_at=at(10 * n), started_at=None) for n in range(2, 10)),
        *(
            round_record(f"H-{n}", table_id="LB02", settled_at=at(30 + 5 * n), started_at=None)
            for n in range(0, 4)
        ),
    ]
    store_records(store, rounds, file_name="october.jsonl")
    gaps = audit(store, operator_config).gaps
    edges = {table: [(g.after_round, g.before_round, g.start, g.end) for g in gaps
                     if g.table_id == table and not (g.after_round and g.before_round)]
             for table in ("LB01", "LB02")}  # fmt: skip
    assert edges == {
        "LB01": [(None, "G-1", MONTH_START, at(-1)), ("G-9", None, at(90), MONTH_END)],
        "LB02": [(None, "H-0", MONTH_START, at(30)), ("H-3", None, at(45), MONTH_END)],
    }
    assert [g.minutes for g in gaps if g.table_id == "LB02"] == [
        (2 * 24 + 12) * 60 + 30,  # from 22:00 UTC on 30 September (Rome's midnight) to
        28 * 24 * 60 + 12 * 60 + 15,  # 10:30 on the 3rd; from 10:45 to 23:00 on the 31st
    ]


def test_a_game_whose_every_table_stops_is_idle_to_the_month_s_end(store, operator_config):
    """A game open 24h whose only table dealt on the 3rd alone: the audit listed no gap (the
    silence of every table at once was not seen), where it was idle all month but those 90
    minutes, whether it stopped dealing or its logs stopped coming; a table that stopped on
    the 13th was idle "for 17,406 of the month's 44,700 minutes", its last 19 days left out."""
    from reporting.figures.audit import availability_problems

    rounds = [round_record(f"G-{n}", settled_at=at(10 * n), started_at=None) for n in range(10)]
    store_records(store, rounds, file_name="october.jsonl")
    gaps = audit(store, operator_config).gaps
    assert [(g.after_round, g.before_round, g.start, g.end) for g in gaps] == [
        (None, "G-0", MONTH_START, at(0)),
        ("G-9", None, at(90), MONTH_END),
    ]
    (problem,) = availability_problems(gaps, operator_config.games, OCTOBER)[ITALY]
    assert "its table was idle for 44,610 of the month's 44,700 minutes, in 2 gaps" in problem


def test_a_month_still_running_counts_its_last_edge_to_the_start_of_the_run_s_date(store):
    """Verify of a month still running, as of a date in it: a table's last edge runs to the
    start of that date in the game's time zone, not to the month's end (the rest of the month
    is yet to come), nor to the clock's time (the same store and date, the same gaps). Rounds
    dealt on the date itself end no edge before them."""
    rounds = [round_record(f"G-{n}", settled_at=at(10 * n), started_at=None) for n in range(10)]
    store_records(store, rounds, file_name="october.jsonl")
    italy = load_config(SAMPLE_CONFIG).games[ITALY]
    *_, last = availability_gaps(store, italy, OCTOBER, as_of=date(2026, 10, 4))
    # from G-9 (11:30 UTC on the 3rd) to midnight of the 4th in Rome (22:00 UTC)
    assert (last.after_round, last.end, last.minutes) == ("G-9", "2026-10-03T22:00:00.000Z", 630)
    gaps = availability_gaps(store, italy, OCTOBER, as_of=date(2026, 10, 3))
    assert [gap.after_round for gap in gaps] == [None]  # the month's start to G-0, no last edge
    assert availability_gaps(store, italy, OCTOBER)[-1].end == MONTH_END  # a month over


def test_a_table_the_configuration_names_that_dealt_nothing_is_silent_all_along(
    store, operator_config
):
    """A table named exactly in the configuration (``tables = ["LB01", "LB02", "LB03"]``)
    that dealt no round all month while the game dealt at others: the report said "No gap:
    every table ... was dealing". It is one gap, the whole month. A pattern (``LB-SPARE-*``,
    ``LB-0?``) names no table that must deal (one with ``?`` was taken for a table's id)."""
    gap_store(store, 10)  # LB01 and LB02, within the threshold between their rounds
    italy = operator_config.games[ITALY]
    named = dataclasses.replace(italy, tables=("LB01", "LB02", "LB03", "LB-SPARE-*", "LB-0?"))
    (gap,) = [gap for gap in availability_gaps(store, named, OCTOBER)
              if gap.table_id not in ("LB01", "LB02")]  # fmt: skip
    assert gap.table_id == "LB03"
    assert (gap.after_round, gap.before_round, gap.start, gap.end) == (
        None, None, MONTH_START, MONTH_END,
    )  # fmt: skip
    assert {gap.table_id for gap in availability_gaps(store, italy, OCTOBER)} == {"LB01", "LB02"}


@pytest.mark.parametrize(
    ("started", "gaps"),
    [
        (-30 * 24 * 60, []),  # a start typed a month early: from the month's first instant
        (60 * 24 * 60, []),  # two months late: after the round's settlement, none
    ],
    ids=["a month early", "two months late"],
)
def test_a_start_typed_outside_the_month_moves_no_gap_out_of_it(
    store, operator_config, started, gaps
):
    """Two tables dealing every 5 minutes, one round's start typed a month early or two
    months late: the audit listed gaps from 3 September, or to 3 December (idle for 87,849 of
    the month's 44,700 minutes), for tables that never stopped. A start before the month or
    after the round's settlement counts as its settlement: no gap between rounds, and each
    table's edges within the month."""
    rounds = [
        *(round_record(f"G-{n}", settled_at=at(5 * n), started_at=None) for n in range(4)),
        *(
            round_record(f"H-{n}", table_id="LB02", settled_at=at(5 * n), started_at=None)
            for n in range(4)
        ),
    ]
    rounds[1] = round_record("G-1", settled_at=at(5), started_at=at(started))
    store_records(store, rounds, file_name="october.jsonl")
    found = audit(store, operator_config).gaps
    assert between_rounds(found) == gaps
    assert [(g.start, g.end) for g in found] == [(MONTH_START, at(0)), (at(15), MONTH_END)] * 2


def test_a_round_without_a_start_ends_a_gap_at_its_settlement(store, operator_config):
    gap_store(store, 15.5, started=False)
    (gap,) = between_rounds(audit(store, operator_config).gaps)
    assert (gap.start, gap.end, gap.minutes) == (at(1), at(16.5), 15)  # minutes rounded down


@pytest.mark.parametrize("silence", [10, 15])
def test_a_silence_within_the_threshold_is_no_gap(store, operator_config, silence):
    gap_store(store, silence)  # 15 minutes exactly is not longer than 15
    assert between_rounds(audit(store, operator_config).gaps) == []


def test_gaps_only_for_a_game_open_24h_that_sets_a_threshold(store, operator_config):
    gap_store(store, 20)
    italy = operator_config.games[ITALY]
    assert italy.availability_gap_minutes == 15  # the sample's
    assert len(between_rounds(availability_gaps(store, italy, OCTOBER))) == 1
    assert (
        availability_gaps(store, dataclasses.replace(italy, availability_gap_minutes=None), OCTOBER)
        == []
    )
    closed_at_night = dataclasses.replace(italy, opening_hours="10:00-02:00")
    assert availability_gaps(store, closed_at_night, OCTOBER) == []


def test_gaps_of_a_game_its_pages_say_is_open_24h_are_an_alert_of_the_month(store, operator_config):
    """Issue 23: the Italian live table was idle most of October while its page said "24 ore
    su 24", and the summary said "No finding". The gaps contradict the opening hours: one
    line per game, an alert of the month (exit 1)."""
    from helpers import alerts_of

    from reporting.figures.audit import availability_problems
    from reporting.verify.run import verify

    gap_store(store, 20)
    gaps = audit(store, operator_config).gaps
    problems = availability_problems(gaps, operator_config.games, OCTOBER)
    # LB01: the month's start to G-1's start, G-2 to G-3 (20), G-4 to the month's end; LB02:
    # the month's start to H-1, H-4 to the month's end (by the clock, not by the gaps' figures)
    edges = [(MONTH_START, at(-1)), (at(1), at(21)), (at(23), MONTH_END), (MONTH_START, at(5)),
             (at(20), MONTH_END)]  # fmt: skip
    moment = lambda text: datetime.fromisoformat(text.replace("Z", "+00:00"))  # noqa: E731
    minutes = [int((moment(end) - moment(start)).total_seconds()) // 60 for start, end in edges]
    assert sorted(gap.minutes for gap in gaps) == sorted(minutes) and 20 in minutes
    assert problems == {
        ITALY: (
            f"its pages say it is open 24 hours a day, but 2 of its tables were idle for"
            f" {sum(minutes):,} minutes in all (the month has 44,700 minutes a table), in 5 gaps"
            " of over 15 minutes (listed under Availability)",
        )
    }
    alerts = alerts_of(store, verify(store, operator_config, "2026-10"), availability=problems)
    assert alerts.exit_code == 1
    assert f"{ITALY}: {problems[ITALY][0]}" in alerts.alerts
    assert alerts.to_document()["availability"] == {ITALY: list(problems[ITALY])}


def test_the_threshold_is_refused_for_a_game_not_open_24h(tmp_path):
    path = tmp_path / "operator.toml"
    path.write_text(
        '[games.live-baccarat-gr]\nlanguages = ["el"]\navailability_gap_minutes = 15\n',
        encoding="utf-8",
    )
    with pytest.raises(ConfigError, match="availability_gap_minutes.*opening_hours"):
        load_config(path)
    path.write_text(
        '[games.live-baccarat-gr]\nlanguages = ["el"]\nopening_hours = "24h"\n'
        "availability_gap_minutes = 0\n",
        encoding="utf-8",
    )
    with pytest.raises(ConfigError, match="availability_gap_minutes"):
        load_config(path)


# --- limits and disclosures -------------------------------------------------------------


def test_the_limits_are_the_configuration_s_per_game_and_bet_type(store, operator_config):
    limits = audit(store, operator_config).limits
    denmark = {row.bet_type: row for row in limits if row.game_id == DENMARK}
    assert set(denmark) == set(operator_config.games[DENMARK].bet_ids)
    tie = denmark["tie"]
    assert (tie.currency, tie.minimum, tie.maximum) == ("DKK", 5000, 1_000_000)  # the sample's
    assert (denmark["banker"].minimum, denmark["banker"].maximum) == (5000, 5_000_000)
    game = operator_config.games[DENMARK]
    assert (tie.below_minimum, tie.above_maximum) == (game.below_minimum, game.above_maximum)
    assert tie.below_minimum == "reject"
    italy = operator_config.games[ITALY]
    assert [(row.minimum, row.maximum) for row in limits if row.game_id == ITALY] == [
        (italy.limits_for(bet).minimum, italy.limits_for(bet).maximum) for bet in italy.bets
    ]
    assert sorted({row.game_id for row in limits}) == sorted(operator_config.games)


def test_the_disclosure_cross_check_is_the_game_s_disclosure(store, operator_config):
    money_store(store)
    as_of = date(2026, 11, 20)
    checks = audit_month(
        store,
        operator_config,
        OCTOBER,
        as_of_by_game={ITALY: as_of},
        configuration_path=None,
        tool_version="9.9.9",
    ).disclosures
    italy = next(check for check in checks if check.game_id == ITALY)
    disclosure = disclose(store, operator_config.games[ITALY], as_of)
    assert (italy.as_of, italy.reference_month, italy.updated_on) == (
        as_of, "2026-10", disclosure.updated_on,
    )  # fmt: skip
    assert (italy.rounds, italy.stakes, italy.payouts) == (4, 7800, 9950)
    assert (italy.rounds, italy.stakes, italy.payouts) == (
        disclosure.rounds, disclosure.stakes, disclosure.payouts,
    )  # fmt: skip
    assert italy.win_percentage == disclosure.win_percentage
    assert italy.regulator == operator_config.games[ITALY].regulator == "ADM"
    assert (italy.declared_rtp, italy.warnings) == (disclosure.declared_rtp, disclosure.warnings)
    best = game_odds(operator_config.games[ITALY]).best_rtp * 100
    assert italy.best_theoretical_rtp == best and isinstance(best, Fraction)
    # a game without a date is disclosed as of its page for the month
    denmark = next(check for check in checks if check.game_id == DENMARK)
    assert denmark.reference_month == "2026-10" and denmark.as_of == denmark.updated_on


# --- provenance -------------------------------------------------------------------------


def add_finding(connection: sqlite3.Connection, message: str, finding_id: int = 1) -> None:
    connection.execute(
        "INSERT INTO findings (finding_id, kind, game_id, report_month, round_id, source_file,"
        " source_line, message) VALUES (?, 'late_bet', ?, '2026-10', 'A-1', 'october.jsonl', 1, ?)",
        (finding_id, ITALY, message),
    )


def test_provenance_names_the_configuration_the_tool_and_the_month_s_input_files(
    store, operator_config
):
    money_store(store)
    store_records(store, [round_record("N-1", report_month="2026-11")], file_name="november.jsonl")
    provenance = audit(store, operator_config).provenance
    assert provenance.tool_version == "9.9.9"
    assert provenance.configuration == "operator.toml"
    assert provenance.configuration_sha256 == hashlib.sha256(SAMPLE_CONFIG.read_bytes()).hexdigest()
    (october,) = provenance.inputs
    assert (october.file_name, october.rounds_loaded, october.bets_loaded) == (
        "october.jsonl",
        5,
        6,
    )
    assert october.sha256 == hashlib.sha256(b"october.jsonl").hexdigest()  # the helper's
    catalogue = audit(store, operator_config, configuration_path=None).provenance
    assert (catalogue.configuration, catalogue.configuration_sha256) == (None, None)


def test_provenance_names_every_file_whose_rejected_lines_count_in_the_month(
    store, operator_config
):
    """A provider's export read without its profile (every line rejected, no round loaded):
    its 30 rejected lines counted in October, and manifest.json listed it, but the audit's
    provenance ("Input files 1") named only the files that loaded October's rounds: the
    signed audit had no hash for it. It names every file behind the month, as its alerts
    count them: rounds of it or repeated (a re-export), rejected lines of it, or no round at
    all (a file that bears on every month); not a file whose rounds and rejected lines are
    all of another month."""

    def rejected_file(name: str, *months: str | None) -> None:
        ingest_id = store_records(store, [], file_name=name)
        store.executemany(
            "INSERT INTO rejected_records (ingest_id, file_name, line, reason, message,"
            " raw_text, report_month) VALUES (?, ?, ?, 'missing_field', 'no round_id', '{}', ?)",
            [(ingest_id, name, line, month) for line, month in enumerate(months, start=1)],
        )

    money_store(store)
    rejected_file("replay-games-2026-10.jsonl", None, None)  # nothing of it could be read
    rejected_file("stakes-2026-10.jsonl", "2026-10")  # an October round, rejected
    store_records(store, [round_record("N-1", report_month="2026-11")], file_name="november.jsonl")
    rejected_file("stakes-2026-11.jsonl", "2026-11")
    again = store_records(store, [], file_name="october-again.jsonl")  # a re-export of October
    store.execute(
        "UPDATE ingest_log SET rounds_skipped_duplicate = 5, duplicate_months = ?"
        " WHERE ingest_id = ?",
        ('{"2026-10": 5}', again),
    )
    names = [file.file_name for file in audit(store, operator_config).provenance.inputs]
    assert names == [
        "october.jsonl",
        "replay-games-2026-10.jsonl",
        "stakes-2026-10.jsonl",
        "october-again.jsonl",
    ]


def test_the_store_digest_is_stable_and_changes_with_the_month_s_findings(store, operator_config):
    money_store(store)
    add_finding(store, "placed after betting closed")
    first = audit(store, operator_config).provenance.store_digest
    assert audit(store, operator_config).provenance.store_digest == first
    # verify replacing the same findings (new row ids) leaves it as it was
    store.execute("DELETE FROM findings")
    add_finding(store, "placed after betting closed", finding_id=2)
    assert audit(store, operator_config).provenance.store_digest == first
    store.execute("UPDATE findings SET message = 'placed 2 s after betting closed'")
    changed = audit(store, operator_config).provenance.store_digest
    assert changed != first
    store_records(store, [round_record("N-1", report_month="2026-11")], file_name="november.jsonl")
    assert audit(store, operator_config).provenance.store_digest not in (first, changed)


def test_the_whole_audit_of_a_month_without_rounds(store, operator_config):
    result = audit(store, operator_config)
    assert result.month == "2026-10"
    assert (result.void_rounds, result.activity, result.gaps) == ((), (), ())
    assert [row.game_id for row in result.money] == sorted(operator_config.games)
    assert result.provenance.inputs == ()


def test_money_and_activity_agree_hour_by_hour(store, operator_config):
    money_store(store)
    money, activity = money_and_activity(store, operator_config.games[ITALY], OCTOBER)
    assert sum(row.rounds for row in activity) == money[0].rounds + money[0].void_rounds
    # activity counts the void round's bet too: every bet dealt at the table
    assert sum(row.bets for row in activity) == money[0].bets + 1
    assert sum(row.stakes for row in activity) == money[0].stakes + 700
    assert {(row.table_id, row.day, row.hour) for row in activity} == {
        ("LB01", date(2026, 10, 3), 12),  # 10:00Z is noon in Rome in October (CEST)
        ("LB01", date(2026, 10, 4), 12),
        ("LB02", date(2026, 10, 3), 13),
        ("LB02", date(2026, 10, 4), 14),
        ("LB02", date(2026, 10, 4), 15),
    }


def test_disclosures_already_computed_are_used_as_they_are(store, operator_config):
    money_store(store)
    as_of = date(2026, 11, 20)
    italy = operator_config.games[ITALY]
    computed = {ITALY: disclose(store, italy, as_of)}
    fresh = audit_month(
        store, operator_config, OCTOBER, as_of_by_game={ITALY: as_of},
        configuration_path=None, tool_version="9.9.9",
    ).disclosures  # fmt: skip
    store.execute("DELETE FROM bets WHERE round_id = 'A-3'")  # the store moves on
    given = audit_month(
        store, operator_config, OCTOBER, as_of_by_game={}, configuration_path=None,
        tool_version="9.9.9", disclosures=computed,
    ).disclosures  # fmt: skip
    assert [check for check in given if check.game_id == ITALY] == [
        check for check in fresh if check.game_id == ITALY
    ]


def test_money_past_what_sqlite_adds_is_summed_exactly_and_refused_where_summed_in_python(
    store, operator_config
):
    """Amounts whose total SQLite's own sum() cannot hold: the month's money and void register
    are still computed, exactly. (Ingest takes amounts below MAX_CENTS, so such a total takes
    a hundred thousand bets of a month; a few amounts past it, stored here by hand, stand for
    them. The disclosure, which sums in Python, refuses an amount past the bound as a store
    changed by hand: tests/store/test_damage.py.)"""
    huge = 2**62 + 12_345
    store_records(
        store,
        [
            round_record(
                f"H-{number}",
                *(
                    bet_record(f"H-{number}", f"B-{bet}", stake_cents=huge, payout_cents=huge)
                    for bet in range(3)
                ),
                status="void" if number == 3 else "settled",
                settled_at=at(number),
            )
            for number in (1, 2, 3)
        ],
        file_name="hostile.jsonl",
    )
    game = operator_config.game(ITALY)
    money, _activity = money_and_activity(store, game, OCTOBER)
    month = next(row for row in money if row.table_id is None and row.day is None)
    assert (month.bets, month.stakes, month.payouts, month.ggr) == (6, 6 * huge, 6 * huge, 0)
    (void,) = void_register(store, [game], OCTOBER)
    assert (void.bets, void.stakes, void.refunded) == (3, 3 * huge, 3 * huge)
    for whole in (
        lambda: disclose(store, game, date(2026, 11, 5)),
        lambda: audit(store, operator_config),
    ):
        with pytest.raises(InputError, match="where ingest takes amounts below"):
            whole()
