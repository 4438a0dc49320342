"""A store whose values were changed by another program or by hand, in ways ingest never
writes: each command that reads such a value stops in one line naming the round and what it
holds (exit 2), where each met it as a traceback halfway through a month. (A store whose shape
is not the schema's is refused when opened: tests/store/test_schema.py.)"""

from __future__ import annotations

import re
import sqlite3

import pytest
from helpers import bet_record as bet
from helpers import round_record, run_main, store_records
from hypothesis import given, settings
from hypothesis import strategies as st

from reporting.config.loader import OperatorConfig
from reporting.errors import InputError
from reporting.figures.audit import money_and_activity
from reporting.records import Month
from reporting.store.damage import is_stored_time, unstored_time_sql
from reporting.store.load import ingest
from reporting.store.parquet import export_parquet
from reporting.store.schema import connect
from reporting.verify.run import verify

CHANGED = (
    ": ingest stores no such round, so the store was changed by another program or by hand;"
    " use a copy from before the change"
)


@pytest.fixture
def store(tmp_path):
    connection = connect(tmp_path / "store.sqlite")
    store_records(
        connection,
        [
            round_record("R-1", bet("R-1", "B-1")),
            round_record("R-2", bet("R-2", "B-2"), shoe_id="S-1"),
        ],
        file_name="october.jsonl",
    )
    yield connection
    connection.close()


def _changed(connection: sqlite3.Connection, statement: str) -> None:
    connection.execute("PRAGMA foreign_keys = OFF")
    connection.execute(statement)
    connection.commit()
    connection.execute("PRAGMA foreign_keys = ON")


@pytest.mark.parametrize(
    ("statement", "said"),
    [
        (
            "UPDATE rounds SET player_cards = 'ZZ QH' WHERE round_id = 'R-2'",
            "the store holds round R-2 with cards it cannot deal (player 'ZZ QH', banker"
            " '5D 2C': bad card code 'ZZ': suit must be one of S H D C or ♠ ♥ ♦ ♣)",
        ),
        (
            "UPDATE rounds SET player_cards = 'QS' WHERE round_id = 'R-2'",
            "the store holds round R-2 with cards it cannot deal (player 'QS', banker '5D 2C':"
            " the player hand holds 1 cards; a hand holds 2 or 3)",
        ),
        (
            "UPDATE rounds SET player_cards = '" + "QS " * 200 + "QS' WHERE round_id = 'R-2'",
            "the store holds round R-2 with cards it cannot deal (player 'QS QS QS QS QS QS QS QS"
            " QS QS QS QS QS QS QS QS QS QS QS QS QS QS QS QS QS QS QS'... (602 characters),"
            " banker '5D 2C': the player hand holds 201 cards; a hand holds 2 or 3)",
        ),
        (
            "UPDATE bets SET stake_cents = 9223372036854775807 WHERE round_id = 'R-1'",
            "the store holds round R-1 with a bet of stake 9,223,372,036,854,775,807 cents and"
            " payout 0, where ingest takes amounts below 100,000,000,000,000 cents",
        ),
        (  # read as placed after betting closed: a false past-posting finding
            "UPDATE bets SET placed_at = 'garbage' WHERE round_id = 'R-1'",
            "the store holds round R-1 with a placed_at of bet B-1 that is no time as ingest"
            " stores one ('garbage')",
        ),
        (  # a round without findings: the month's audit refused it, plain verify said nothing
            "UPDATE rounds SET settled_at = 'yesterday' WHERE round_id = 'R-1'",
            "the store holds round R-1 with a settled_at that is no time as ingest stores one"
            " ('yesterday')",
        ),
        (  # of the stored shape, on no day: SQLite's date functions read it as 1 October
            "UPDATE rounds SET settled_at = '2026-09-31T18:40:17.000Z' WHERE round_id = 'R-1'",
            "the store holds round R-1 with a settled_at that is no time as ingest stores one"
            " ('2026-09-31T18:40:17.000Z')",
        ),
        (  # the same, sorting among the month's times as text
            "UPDATE rounds SET settled_at = '2026-10-03T18:40:17 x' WHERE round_id = 'R-1'",
            "the store holds round R-1 with a settled_at that is no time as ingest stores one"
            " ('2026-10-03T18:40:17 x')",
        ),
        (  # a time of August under October: was told as the game's zone changed since
            "UPDATE rounds SET settled_at = '2026-08-15T12:00:00.000Z' WHERE round_id = 'R-1'",
            "the store holds round R-1 with a settled_at of '2026-08-15T12:00:00.000Z' stored"
            " under reporting month '2026-10', in which no time zone places it",
        ),
        (  # the same, at the end of the month in a zone 14 hours behind UTC (there is none)
            "UPDATE rounds SET settled_at = '2026-11-01T14:00:00.000Z' WHERE round_id = 'R-1'",
            "the store holds round R-1 with a settled_at of '2026-11-01T14:00:00.000Z' stored"
            " under reporting month '2026-10', in which no time zone places it",
        ),
        (
            "DELETE FROM ingest_log",
            "the store holds round R-1 with no file it was loaded from (file 1 of the files' log"
            " is gone)",
        ),
    ],
)
@pytest.mark.parametrize("jobs", [1, 2])
def test_verify_stops_at_a_stored_round_ingest_never_writes_naming_it(
    store, tmp_path, operator_config: OperatorConfig, statement, said, jobs
):
    _changed(store, statement)
    with pytest.raises(InputError) as refused:
        verify(store, operator_config, "2026-10", jobs=jobs)
    assert str(refused.value) == f"{tmp_path / 'store.sqlite'}: {said}{CHANGED}"
    assert store.execute("SELECT count(*) FROM findings").fetchone() == (0,)


@pytest.mark.parametrize("column", ["settled_at", "started_at"])
def test_export_stops_at_a_stored_time_that_is_no_time_naming_its_round(store, tmp_path, column):
    _changed(store, f"UPDATE rounds SET {column} = 'yesterday' WHERE round_id = 'R-2'")
    with pytest.raises(InputError) as refused:
        export_parquet(store, tmp_path / "copy")
    assert str(refused.value) == (
        f"{tmp_path / 'store.sqlite'}: the store holds round R-2 with a {column} that is no time"
        f" as ingest stores one ('yesterday'){CHANGED}"
    )
    assert not (tmp_path / "copy").exists()


@pytest.mark.parametrize(
    "value",
    [
        "2026-10-03T18:40:17Z",
        "2026-10-03T18:40:17.000+00:00",
        "2026-10-03 18:40:17.000Z",
        "2026-09-31T18:40:17.000Z",
        "0000-10-03T18:40:17.000Z",
    ],
)
def test_verify_and_export_refuse_the_same_times(store, tmp_path, operator_config, value):
    """Export took what Arrow's cast reads (no milliseconds, an offset, a year 0) where
    verify refused it; SQLite's date() gave a 31 September back, and verify's query took it."""
    _changed(store, f"UPDATE rounds SET settled_at = '{value}' WHERE round_id = 'R-1'")
    said = (
        f"{tmp_path / 'store.sqlite'}: the store holds round R-1 with a settled_at that is no"
        f" time as ingest stores one ('{value}'){CHANGED}"
    )
    with pytest.raises(InputError) as refused:
        verify(store, operator_config, "2026-10", jobs=1)
    assert str(refused.value) == said
    with pytest.raises(InputError) as refused:
        export_parquet(store, tmp_path / "copy")
    assert str(refused.value) == said


def test_the_audit_figures_stop_at_a_settled_time_that_is_no_time(store, tmp_path, operator_config):
    """The month's money and activity by local day: the local hour of 'yesterday' was NULL,
    and the figures a traceback (None[:10])."""
    _changed(store, "UPDATE rounds SET settled_at = '' WHERE round_id = 'R-1'")
    game = operator_config.games["live-baccarat-it"]
    with pytest.raises(InputError) as refused:
        money_and_activity(store, game, Month.parse("2026-10"))
    assert (
        str(refused.value)
        == f"{tmp_path / 'store.sqlite'}: the store holds round R-1 with a settled_at that is no"
        f" time as ingest stores one (''){CHANGED}"
    )


def test_a_file_loaded_after_the_files_log_lost_its_rows_is_refused_naming_the_round(
    tmp_path, operator_config, make_round
):
    """The log's rows deleted (foreign keys off), the next file took the first one's number,
    and its rounds' bets failed the bets' primary key: a traceback. The file is not loaded."""
    import json

    from reporting.ingest.sources import Source

    log = tmp_path / "october.jsonl"
    log.write_text(json.dumps(make_round("R-1")) + "\n", encoding="utf-8")
    connection = connect(tmp_path / "store.sqlite")
    try:
        assert ingest(connection, [Source(log, "jsonl")], operator_config).failed == []
        _changed(connection, "DELETE FROM ingest_log")
        (failed,) = ingest(connection, [Source(log, "jsonl")], operator_config).failed
        assert failed.error == (
            f"{tmp_path / 'store.sqlite'}: the store holds round R-1 with a file number, 1, that"
            " the files' log does not hold (its row was deleted, and the file loaded now took"
            f" its number){CHANGED}"
        )
        assert connection.execute("SELECT count(*) FROM ingest_log").fetchone() == (0,)
    finally:
        connection.close()


def test_the_command_says_it_in_one_line_and_exits_2(tmp_path, store):
    _changed(store, "UPDATE rounds SET banker_cards = '' WHERE round_id = 'R-1'")
    process = run_main("verify", "--db", "store.sqlite", "--month", "2026-10", cwd=tmp_path)
    assert process.returncode == 2
    assert "Traceback" not in process.stderr
    assert process.stderr.strip().splitlines()[-1] == (
        f"baccarat-report: {tmp_path / 'store.sqlite'}: the store holds round R-1 with cards it"
        " cannot deal"
        " (player '9H KS',"
        " banker '': the banker hand holds 0 cards; a hand holds 2 or 3)" + CHANGED
    )


def test_the_void_register_and_the_evidence_stop_at_a_text_longer_than_ingest_stores(
    store, operator_config
):
    """A void reason of 1.4 MB, set by hand, held the audit report's layout for minutes
    (ingest stores 1,000 characters of one, and the report prints each whole)."""
    from reporting.figures.audit import void_register
    from reporting.figures.evidence import findings_with_evidence

    _changed(
        store,
        "UPDATE rounds SET status = 'void', void_reason = hex(zeroblob(700000))"
        " WHERE round_id = 'R-2'",
    )
    game = operator_config.games["live-baccarat-it"]
    said = "the store holds round R-2 with a void_reason of 1,400,000 characters (ingest stores"
    with pytest.raises(InputError, match=re.escape(said)):
        void_register(store, [game], Month.parse("2026-10"))
    store.execute(
        "INSERT INTO findings (kind, game_id, report_month, round_id, source_file, source_line,"
        " message) VALUES ('void_refund_mismatch', 'live-baccarat-it', '2026-10', 'R-2',"
        " 'october.jsonl', 2, 'x')"
    )
    with pytest.raises(InputError, match=re.escape(said)):
        findings_with_evidence(store, "2026-10")


@pytest.mark.parametrize(
    ("statement", "said"),
    [
        (
            "UPDATE bets SET payout_cents = 9223372036854775807 WHERE round_id = 'R-1'",
            "the store holds round R-1 with a bet of stake 2,500 cents and payout"
            " 9,223,372,036,854,775,807, where ingest takes amounts below 100,000,000,000,000"
            " cents: ingest stores no such round",
        ),
        (
            "UPDATE bets SET currency = 'USD' WHERE round_id = 'R-2'",
            "round R-2 of live-baccarat-it holds a bet in USD, where the game's currency is EUR:"
            " a disclosure sums one currency",
        ),
    ],
)
def test_the_disclosure_sums_no_amount_past_the_bound_nor_another_currency(
    store, tmp_path, operator_config, statement, said
):
    """Summed, a payout of 2^63 - 1 cents printed a win percentage of 1,073,631,992,569,064%
    on the regulator's page, and a bet set to USD in a EUR game was counted as euros."""
    from datetime import date

    from reporting.figures.disclosure import disclose

    _changed(store, statement)
    game = operator_config.games["live-baccarat-it"]
    with pytest.raises(InputError) as refused:
        disclose(store, game, date(2026, 11, 5))
    assert str(refused.value).startswith(f"{tmp_path / 'store.sqlite'}: {said}")  # its store


@pytest.mark.parametrize("jobs", [1, 2])
def test_the_message_names_the_store_the_value_was_read_from(
    store, tmp_path, operator_config, jobs
):
    """The store a message named was the one the process had opened last: a store opened
    after the damaged one was named for its damage."""
    _changed(store, "UPDATE rounds SET banker_cards = '' WHERE round_id = 'R-1'")
    connect(tmp_path / "other.sqlite").close()
    with pytest.raises(InputError) as refused:
        verify(store, operator_config, "2026-10", jobs=jobs)
    assert str(refused.value).startswith(f"{tmp_path / 'store.sqlite'}: the store holds round R-1")


_TIME_PIECES = st.sampled_from(["0", "1", "2", "3", "9", "-", ":", "T", "Z", ".", " ", "x"])


_TIMES = st.one_of(
    st.builds(  # of the stored shape: any digits, so any day, month and year
        "{:04d}-{:02d}-{:02d}T{:02d}:{:02d}:{:02d}.{:03d}Z".format,
        st.integers(0, 9999),
        st.integers(0, 99),
        st.integers(0, 99),
        st.integers(0, 29),
        st.integers(0, 69),
        st.integers(0, 69),
        st.integers(0, 999),
    ),
    st.lists(_TIME_PIECES, max_size=30).map("".join),
    st.text(max_size=30),
)


@settings(max_examples=3_000, deadline=None)
@given(_TIMES)
def test_a_stored_time_is_decided_the_same_in_sql_and_in_python(value):
    """Verify's query decides by SQL what a round's checks and export decide by Python: on
    SQLite 3.40, ``date()`` gave back a 31 September as written, and the query took it."""
    connection = sqlite3.connect(":memory:")
    (unstored,) = connection.execute(f"SELECT {unstored_time_sql('?1')}", (value,)).fetchone()
    assert bool(unstored) == (not is_stored_time(value)), value


@settings(max_examples=2_000, deadline=None)
@given(_TIMES)
def test_a_stored_time_is_decided_the_same_by_export_as_by_python(value):
    """Export decides by Arrow (a regular expression, the cast's calendar) what verify
    decides by Python."""
    import pyarrow as pa

    from reporting.store.parquet import as_times

    assert (as_times(pa.array([value], pa.string())) is not None) == is_stored_time(value), value
