"""The SQLite store: STRICT tables with integer money, readable by other tools, versioned."""

from __future__ import annotations

import sqlite3
import subprocess
import sys

import pytest
import sqlite_utils

from reporting.errors import InputError
from reporting.store.schema import SCHEMA_VERSION, connect, stored_round_content

TABLES = {"rounds", "bets", "ingest_log", "rejected_records"}


def add_round(connection: sqlite3.Connection, round_id: str = "R-1") -> None:
    connection.execute(
        "INSERT INTO ingest_log (ingest_id, file_name, file_sha256, file_size, format, ingested_at)"
        " VALUES (1, 'log.jsonl', 'ab', 10, 'jsonl', '2026-11-05T00:00:00Z')"
        " ON CONFLICT DO NOTHING"
    )
    connection.execute(
        "INSERT INTO rounds (round_id, game_id, table_id, settled_at, report_month, status,"
        " player_cards, banker_cards, ingest_id, source_line)"
        " VALUES (?, 'live-baccarat-it', 'LB01', '2026-10-03T18:40:41.870Z', '2026-10',"
        " 'settled', '9H KS', '5D 2C', 1, 1)",
        (round_id,),
    )


def add_bet(connection: sqlite3.Connection, stake, payout=0, bet_id: str = "B-1") -> None:
    connection.execute(
        "INSERT INTO bets (round_id, bet_id, account, bet_type, stake_cents, payout_cents,"
        " currency, placed_at, source_line) VALUES ('R-1', ?, 'acc', 'banker', ?, ?, 'EUR', NULL, 1)",
        (bet_id, stake, payout),
    )


def test_a_new_database_has_the_four_tables_and_the_schema_version(tmp_path):
    connection = connect(tmp_path / "store.sqlite")
    try:
        names = {
            row[0]
            for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        }
        version = connection.execute("PRAGMA user_version").fetchone()[0]
    finally:
        connection.close()
    assert names >= TABLES
    assert version == SCHEMA_VERSION


def test_every_table_is_strict(tmp_path):
    connection = connect(tmp_path / "store.sqlite")
    try:
        strict = dict(
            connection.execute(
                "SELECT name, strict FROM pragma_table_list WHERE schema = 'main'"
            ).fetchall()
        )
    finally:
        connection.close()
    assert {name: strict[name] for name in TABLES} == dict.fromkeys(TABLES, 1)


@pytest.mark.parametrize(
    ("stake", "payout"),
    [(25.5, 0), (2500, 12.34), ("25.50", 0), (2500, "ten euros")],
    ids=["REAL stake", "REAL payout", "TEXT stake", "TEXT payout"],
)
def test_money_columns_refuse_anything_but_integers(tmp_path, stake, payout):
    connection = connect(tmp_path / "store.sqlite")
    try:
        add_round(connection)
        with pytest.raises(sqlite3.IntegrityError, match="cannot store"):
            add_bet(connection, stake, payout)
        assert connection.execute("SELECT count(*) FROM bets").fetchone() == (0,)
    finally:
        connection.close()


def test_money_columns_refuse_a_zero_stake_and_a_negative_payout(tmp_path):
    connection = connect(tmp_path / "store.sqlite")
    try:
        add_round(connection)
        with pytest.raises(sqlite3.IntegrityError, match="CHECK"):
            add_bet(connection, 0, 0, "B-1")
        with pytest.raises(sqlite3.IntegrityError, match="CHECK"):
            add_bet(connection, 500, -1, "B-2")
        add_bet(connection, 500, 0, "B-3")
        assert connection.execute(
            "SELECT typeof(stake_cents), typeof(payout_cents) FROM bets"
        ).fetchall() == [("integer", "integer")]
    finally:
        connection.close()


def test_a_round_status_is_settled_or_void(tmp_path):
    connection = connect(tmp_path / "store.sqlite")
    try:
        add_round(connection)
        with pytest.raises(sqlite3.IntegrityError):
            connection.execute("UPDATE rounds SET status = 'pending'")
    finally:
        connection.close()


def test_the_database_opens_with_sqlite_utils(tmp_path):
    path = tmp_path / "store.sqlite"
    connect(path).close()
    database = sqlite_utils.Database(path)
    try:
        assert set(database.table_names()) >= TABLES
        assert {column.name for column in database["bets"].columns} >= {
            "round_id",
            "bet_id",
            "stake_cents",
            "payout_cents",
            "source_line",
        }
        assert database["rounds"].pks == ["round_id"]
    finally:
        database.close()


def test_reopening_keeps_the_data(tmp_path):
    path = tmp_path / "store.sqlite"
    connection = connect(path)
    add_round(connection)
    add_bet(connection, 2500, 4875)
    connection.close()
    connection = connect(path)
    try:
        assert stored_round_content(connection, "R-1") == (
            "R-1",
            "live-baccarat-it",
            "LB01",
            None,
            None,
            None,
            None,
            "2026-10-03T18:40:41.870Z",
            "settled",
            None,
            "9H KS",
            "5D 2C",
            (("B-1", "acc", "banker", 2500, 4875, "EUR", None),),
        )
        assert stored_round_content(connection, "R-404") is None
    finally:
        connection.close()


def test_a_database_of_another_schema_version_is_refused(tmp_path):
    path = tmp_path / "store.sqlite"
    other = sqlite3.connect(path)
    other.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    other.close()
    with pytest.raises(InputError, match=f"version {SCHEMA_VERSION + 1}"):
        connect(path)
    # Refused, not changed.
    other = sqlite3.connect(path)
    try:
        assert other.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION + 1,)
        assert other.execute("SELECT count(*) FROM sqlite_master").fetchone() == (0,)
    finally:
        other.close()


def test_a_file_that_is_not_a_database_is_refused(tmp_path):
    path = tmp_path / "store.sqlite"
    path.write_text("round_id,table_id\n" * 200, encoding="utf-8")
    with pytest.raises(InputError, match=str(path)):
        connect(path)


def test_opening_a_missing_database_without_create_is_refused(tmp_path):
    with pytest.raises(InputError, match="no such database"):
        connect(tmp_path / "missing.sqlite", create=False)
    assert not (tmp_path / "missing.sqlite").exists()


def test_ingest_into_a_database_of_another_version_exits_2(
    tmp_path, make_round, write_jsonl, sample_config_path
):
    path = tmp_path / "store.sqlite"
    other = sqlite3.connect(path)
    other.execute("PRAGMA user_version = 99")
    other.close()
    log = write_jsonl(tmp_path / "log.jsonl", make_round("R-1"))
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "reporting",
            "ingest",
            str(log),
            "--db",
            str(path),
            "--config",
            str(sample_config_path),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    [message] = result.stderr.strip().splitlines()
    assert "version 99" in message
