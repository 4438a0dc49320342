"""The SQLite store: STRICT tables with integer money, readable by other tools, versioned."""

from __future__ import annotations

import contextlib
import hashlib
import json
import sqlite3
import sys
from pathlib import Path

import pytest
import sqlite_utils
from children import warm_run
from helpers import rows, run_main

from reporting.errors import InputError, NotOurDatabase
from reporting.store.announced import (
    loaded_through,
    mark_announced,
    record_months,
    unannounced_rounds,
)
from reporting.store.faults import lock_path
from reporting.store.schema import (
    APPLICATION_ID,
    SCHEMA_VERSION,
    connect,
    stored_round_content,
)
from reporting.store.schema import TABLES as SCHEMA_TABLES
from reporting.store.sql import INGEST_LOG_JSON, VIEW_NAMES

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
    result = warm_run(
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


#: The schema of version 1 as the first release created it (findings made later by verify).
SCHEMA_V1 = """
CREATE TABLE IF NOT EXISTS ingest_log (
    ingest_id        INTEGER PRIMARY KEY,
    file_name        TEXT NOT NULL,     -- the round log as given (rounds.csv for a CSV pair)
    companion_name   TEXT,              -- bets.csv of a CSV pair
    file_sha256      TEXT NOT NULL UNIQUE,
    file_size        INTEGER NOT NULL,
    format           TEXT NOT NULL CHECK (format IN ('jsonl', 'jsonl.gz', 'csv')),
    ingested_at      TEXT NOT NULL,     -- UTC
    lines_read       INTEGER NOT NULL DEFAULT 0,
    rounds_loaded    INTEGER NOT NULL DEFAULT 0,
    bets_loaded      INTEGER NOT NULL DEFAULT 0,
    rounds_skipped_duplicate INTEGER NOT NULL DEFAULT 0,
    rejected         INTEGER NOT NULL DEFAULT 0
) STRICT;

CREATE TABLE IF NOT EXISTS rounds (
    round_id          TEXT PRIMARY KEY,
    game_id           TEXT NOT NULL,
    table_id          TEXT NOT NULL,
    shoe_id           TEXT,
    hand_no           INTEGER,
    started_at        TEXT,
    betting_closed_at TEXT,
    settled_at        TEXT NOT NULL,
    report_month      TEXT NOT NULL,    -- YYYY-MM of settled_at in the game's time zone
    status            TEXT NOT NULL CHECK (status IN ('settled', 'void')),
    void_reason       TEXT,
    player_cards      TEXT NOT NULL,    -- canonical codes, space-separated, deal order
    banker_cards      TEXT NOT NULL,
    ingest_id         INTEGER NOT NULL REFERENCES ingest_log (ingest_id),
    source_line       INTEGER NOT NULL
) STRICT;

CREATE TABLE IF NOT EXISTS bets (
    round_id      TEXT NOT NULL REFERENCES rounds (round_id),
    bet_id        TEXT NOT NULL,
    account       TEXT NOT NULL,
    bet_type      TEXT NOT NULL,
    stake_cents   INTEGER NOT NULL CHECK (stake_cents > 0),
    payout_cents  INTEGER NOT NULL CHECK (payout_cents >= 0),
    currency      TEXT NOT NULL,
    placed_at     TEXT,
    source_line   INTEGER NOT NULL,     -- line in the round log (bets.csv for a CSV pair)
    PRIMARY KEY (round_id, bet_id)
) STRICT, WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS rejected_records (
    reject_id   INTEGER PRIMARY KEY,
    ingest_id   INTEGER NOT NULL REFERENCES ingest_log (ingest_id),
    file_name   TEXT NOT NULL,
    line        INTEGER NOT NULL,
    reason      TEXT NOT NULL,
    message     TEXT NOT NULL,
    round_id    TEXT,
    raw_text    TEXT NOT NULL
) STRICT;

CREATE INDEX IF NOT EXISTS rounds_by_game_month ON rounds (game_id, report_month);
CREATE INDEX IF NOT EXISTS rounds_by_shoe ON rounds (shoe_id, hand_no) WHERE shoe_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS rejected_by_ingest ON rejected_records (ingest_id, line);
"""

FINDINGS_V1 = """
CREATE TABLE IF NOT EXISTS findings (
    finding_id      INTEGER PRIMARY KEY,
    kind            TEXT NOT NULL,
    game_id         TEXT NOT NULL,
    report_month    TEXT NOT NULL,
    round_id        TEXT NOT NULL,
    bet_id          TEXT,
    expected_payout_cents INTEGER,
    logged_payout_cents   INTEGER,
    rule            TEXT,
    source_file     TEXT NOT NULL,
    source_line     INTEGER NOT NULL,
    message         TEXT NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS findings_by_month ON findings (report_month, kind);
"""


def version_1_store(path, *, with_findings: bool) -> dict[str, list]:
    """A store as version 1 wrote it, with a little of everything; its rows by table."""
    connection = sqlite3.connect(path, isolation_level=None)
    connection.executescript(SCHEMA_V1 + (FINDINGS_V1 if with_findings else ""))
    connection.execute("PRAGMA user_version = 1")
    for ingest_id, format_name in ((1, "jsonl"), (2, "csv")):
        connection.execute(
            "INSERT INTO ingest_log (ingest_id, file_name, companion_name, file_sha256,"
            " file_size, format, ingested_at, lines_read, rounds_loaded, bets_loaded,"
            " rounds_skipped_duplicate, rejected) VALUES (?, ?, ?, ?, 10, ?,"
            " '2026-11-05T00:00:00Z', 3, 1, 1, 0, 1)",
            (
                ingest_id,
                f"log{ingest_id}",
                "bets.csv" if ingest_id == 2 else None,
                f"h{ingest_id}",
                format_name,
            ),
        )
        connection.execute(
            "INSERT INTO rounds (round_id, game_id, table_id, settled_at, report_month, status,"
            " player_cards, banker_cards, ingest_id, source_line) VALUES (?, 'live-baccarat-it',"
            " 'LB01', '2026-10-03T18:40:41.870Z', '2026-10', 'settled', '9H KS', '5D 2C', ?, 1)",
            (f"R-{ingest_id}", ingest_id),
        )
        connection.execute(
            "INSERT INTO bets VALUES (?, 'B-1', 'acc', 'banker', 2500, 4875, 'EUR', NULL, 1)",
            (f"R-{ingest_id}",),
        )
        connection.execute(
            "INSERT INTO rejected_records (ingest_id, file_name, line, reason, message, round_id,"
            " raw_text) VALUES (?, ?, 2, 'bad_json', 'not valid JSON', NULL, '{')",
            (ingest_id, f"log{ingest_id}"),
        )
    if with_findings:
        connection.execute(
            "INSERT INTO findings (kind, game_id, report_month, round_id, source_file,"
            " source_line, message) VALUES ('late_bet', 'live-baccarat-it', '2026-10', 'R-1',"
            " 'log1', 1, 'late')"
        )
    rows = table_rows(connection)
    connection.close()
    return rows


def months_made(rows: dict[str, list]) -> dict[str, list]:
    """``rows`` (of :func:`table_rows`, after an upgrade to version 8) without
    ``ingest_months``, having checked that it counts each file's rounds and rejected lines of
    a month by month, all announced (which runs of the release before named is not known)."""
    made = rows.pop("ingest_months")
    counts: dict[tuple, list[int]] = {}
    for row in rows["rounds"]:
        counts.setdefault((row[13], row[8]), [0, 0])[0] += 1
    for row in rows["rejected_records"]:
        if row[-1] is not None:
            counts.setdefault((row[1], row[-1]), [0, 0])[1] += 1
    assert made == sorted((*key, *n, 1, None, 0) for key, n in counts.items())
    return rows


def fields_not_read_made(rows: dict[str, list]) -> dict[str, list]:
    """``rows`` (of :func:`table_rows`, after an upgrade to version 10) without the ingest
    log's last two columns, having checked that they name no field and no month repeated for
    the files read before."""
    assert [row[-2:] for row in rows["ingest_log"]] == [(None, None)] * len(rows["ingest_log"])
    rows["ingest_log"] = [row[:-2] for row in rows["ingest_log"]]
    return rows


def table_rows(connection: sqlite3.Connection) -> dict[str, list]:
    names = [
        name
        for (name,) in connection.execute(
            "SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name"
        )
    ]
    return {
        name: connection.execute(f"SELECT * FROM {name} ORDER BY 1").fetchall() for name in names
    }


@pytest.mark.parametrize("with_findings", [False, True], ids=["before verify", "after verify"])
@pytest.mark.parametrize("create", [True, False], ids=["by ingest", "by verify or monthly"])
def test_a_version_1_store_is_upgraded_in_place_keeping_every_row(tmp_path, create, with_findings):
    path = tmp_path / "store.sqlite"
    before = version_1_store(path, with_findings=with_findings)

    connection = connect(path, create=create)
    try:
        after = table_rows(connection)
        version = connection.execute("PRAGMA user_version").fetchone()[0]
        indexes = {
            name
            for (name,) in connection.execute("SELECT name FROM sqlite_schema WHERE type = 'index'")
        }
        # The format is no longer held to the three first formats by a CHECK.
        connection.execute(
            "INSERT INTO ingest_log (file_name, file_sha256, file_size, format, ingested_at)"
            " VALUES ('vendor.xml', 'h3', 1, 'vendor-xml', '2026-11-06T00:00:00Z')"
        )
        foreign_keys = connection.execute("PRAGMA foreign_key_check").fetchall()
        by_game_month = [
            row[2] for row in connection.execute("PRAGMA index_info(rounds_by_game_month)")
        ]
    finally:
        connection.close()

    assert version == SCHEMA_VERSION == 11
    months_made(after)
    assert {name: len(rows) for name, rows in after.items()} == {
        **{name: len(rows) for name, rows in before.items()},
        "findings": 1 if with_findings else 0,
    }
    # version 3 adds the profile columns, version 9 the fields not read, version 10 the
    # months repeated: empty here
    width = len(before["ingest_log"][0])
    assert [row[width:] for row in after["ingest_log"]] == [(None, None, None, None)] * len(
        before["ingest_log"]
    )
    after["ingest_log"] = [row[:width] for row in after["ingest_log"]]
    # version 6 adds a rejected line's month: unknown (NULL) for the lines read before
    assert {row[-1] for row in after["rejected_records"]} <= {None}
    after["rejected_records"] = [row[:-1] for row in after["rejected_records"]]
    assert {name: rows for name, rows in after.items() if name in before} == before
    assert indexes >= {
        "rounds_by_game_month",
        "rounds_by_shoe",
        "rejected_by_ingest",
        "findings_by_month",
        "rounds_by_month",
        "bets_by_bet_id",
    }
    assert foreign_keys == []
    # version 7 makes the index by game and month again, with the table (a partition's seek)
    assert by_game_month == ["game_id", "report_month", "table_id"]


def test_an_upgraded_store_is_upgraded_once(tmp_path):
    path = tmp_path / "store.sqlite"
    version_1_store(path, with_findings=False)
    connect(path).close()
    schema = sqlite3.connect(path).execute("SELECT sql FROM sqlite_schema ORDER BY name").fetchall()
    connection = connect(path, create=False)
    try:
        assert (
            connection.execute("SELECT sql FROM sqlite_schema ORDER BY name").fetchall() == schema
        )
        assert connection.execute("SELECT count(*) FROM rounds").fetchone() == (2,)
    finally:
        connection.close()


def test_an_upgrade_that_cannot_be_made_changes_nothing(tmp_path):
    """All or nothing: a version 1 store whose rows point to no file stays as it was."""
    path = tmp_path / "store.sqlite"
    version_1_store(path, with_findings=False)
    broken = sqlite3.connect(path, isolation_level=None)
    broken.execute("UPDATE rounds SET ingest_id = 99 WHERE round_id = 'R-2'")
    before = table_rows(broken)
    schema = broken.execute("SELECT sql FROM sqlite_schema ORDER BY name").fetchall()
    broken.close()

    with pytest.raises(InputError, match="cannot be upgraded"):
        connect(path)

    unchanged = sqlite3.connect(path)
    try:
        assert unchanged.execute("PRAGMA user_version").fetchone() == (1,)
        assert table_rows(unchanged) == before
        assert unchanged.execute("SELECT sql FROM sqlite_schema ORDER BY name").fetchall() == schema
    finally:
        unchanged.close()


def test_a_new_store_holds_the_whole_schema_findings_included(tmp_path):
    connection = connect(tmp_path / "store.sqlite")
    try:
        names = {
            name
            for (name,) in connection.execute("SELECT name FROM sqlite_schema WHERE type = 'table'")
        }
    finally:
        connection.close()
    assert names == set(SCHEMA_TABLES)


@pytest.mark.parametrize("command", ["ingest", "verify"])
def test_a_command_on_a_version_1_store_upgrades_it_and_runs(
    command, tmp_path, sample_config_path, make_round, write_jsonl
):
    path = tmp_path / "store.sqlite"
    version_1_store(path, with_findings=False)
    arguments = {
        "ingest": [str(write_jsonl(tmp_path / "log.jsonl", make_round("R-9")))],
        "verify": ["--month", "2026-10"],
    }[command]
    result = run_main(command, *arguments, "--db", str(path), "--config", str(sample_config_path))
    assert "Traceback" not in result.stderr
    assert result.returncode in (0, 1), result.stderr
    connection = sqlite3.connect(path)
    try:
        assert connection.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
        rounds = connection.execute("SELECT round_id FROM rounds ORDER BY 1").fetchall()
    finally:
        connection.close()
    assert rounds == [
        (round_id,)
        for round_id in (["R-1", "R-2", "R-9"] if command == "ingest" else ["R-1", "R-2"])
    ]


# --- a database that is not ours is refused before anything is written -----------------------


def sha256_file(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def other_application(path, *, journal: str, tables: str, application_id: int = 0) -> None:
    """A SQLite file another application made: its own tables, a row, its journal mode."""
    other = sqlite3.connect(path, isolation_level=None)
    other.execute(f"PRAGMA journal_mode = {journal}")
    if application_id:
        other.execute(f"PRAGMA application_id = {application_id}")
    for table in tables.split():
        other.execute(f"CREATE TABLE {table} (id INTEGER PRIMARY KEY, note TEXT)")
        other.execute(f"INSERT INTO {table} (note) VALUES ('theirs')")
    other.close()


@pytest.mark.parametrize("create", [True, False], ids=["ingest", "verify"])
@pytest.mark.parametrize("journal", ["delete", "wal"])
@pytest.mark.parametrize(
    ("tables", "application_id"),
    [("notes", 0), ("rounds bets", 0), ("", 0x2A), ("notes", 0x2A)],
    ids=["no clashing table", "clashing tables", "empty, another's mark", "another's mark"],
)
def test_another_applications_database_is_refused_and_left_byte_for_byte(
    tmp_path, create, journal, tables, application_id
):
    path = tmp_path / "theirs.sqlite"
    other_application(path, journal=journal, tables=tables, application_id=application_id)
    before = sha256_file(path)
    with pytest.raises(NotOurDatabase) as caught:
        connect(path, create=create)
    message = str(caught.value)
    assert message.startswith(f"{path}: not a baccarat-report database (")
    assert "nothing was changed" in message
    assert "\n" not in message
    assert sha256_file(path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["theirs.sqlite"]  # no -wal, no -shm
    other = sqlite3.connect(path)
    try:
        assert other.execute("PRAGMA journal_mode").fetchone() == (journal,)
    finally:
        other.close()


def test_a_file_that_is_not_sqlite_is_refused_without_sqlite_touching_it(tmp_path):
    path = tmp_path / "notes.sqlite"
    path.write_bytes(b"PK\x03\x04 a zip, say" + bytes(200))
    before = sha256_file(path)
    with pytest.raises(NotOurDatabase, match="not a SQLite file"):
        connect(path)
    assert sha256_file(path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.sqlite"]


def test_ingest_into_another_applications_database_exits_2_and_changes_nothing(
    tmp_path, make_round, write_jsonl, sample_config_path
):
    path = tmp_path / "theirs.sqlite"
    other_application(path, journal="delete", tables="notes")
    before = sha256_file(path)
    log = write_jsonl(tmp_path / "log.jsonl", make_round("R-1"))
    result = run_main("ingest", str(log), "--db", str(path), "--config", str(sample_config_path))
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    [line] = result.stderr.strip().splitlines()
    assert line.startswith(f"baccarat-report: {path}: not a baccarat-report database")
    assert sha256_file(path) == before


@pytest.mark.parametrize("kind", ["new path", "zero-length file", "SQLite file without tables"])
def test_a_new_path_or_an_empty_file_becomes_a_store_carrying_our_mark(tmp_path, kind):
    path = tmp_path / "store.sqlite"
    if kind == "zero-length file":
        path.touch()
    elif kind == "SQLite file without tables":
        sqlite3.connect(path).execute("VACUUM").connection.close()
        assert path.stat().st_size > 0
    connection = connect(path)
    connection.close()
    check = sqlite3.connect(path)
    try:
        assert check.execute("PRAGMA application_id").fetchone() == (APPLICATION_ID,)
        assert check.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
    finally:
        check.close()
    assert APPLICATION_ID.to_bytes(4, "big") == b"BacR"


@pytest.mark.parametrize("kind", ["new path", "zero-length file"])
def test_a_command_that_reads_a_store_creates_none(tmp_path, kind):
    path = tmp_path / "store.sqlite"
    if kind == "zero-length file":
        path.touch()
    with pytest.raises(InputError, match="run `baccarat-report ingest` first"):
        connect(path, create=False)
    assert sorted(p.name for p in tmp_path.iterdir()) == ([] if kind == "new path" else [path.name])
    assert not path.exists() or path.stat().st_size == 0


def unmark(path) -> None:
    """Make a store look as the release before the mark made it: schema version 2 (no
    profile columns), no application id."""
    as_version_5(path)
    connection = sqlite3.connect(path, isolation_level=None)
    connection.execute("ALTER TABLE ingest_log DROP COLUMN profile_sha256")
    connection.execute("ALTER TABLE ingest_log DROP COLUMN profile")
    connection.execute("PRAGMA user_version = 2")
    connection.execute("PRAGMA application_id = 0")
    connection.close()


@pytest.mark.parametrize("create", [True, False])
def test_a_version_2_store_made_before_the_mark_is_accepted_marked_and_upgraded(tmp_path, create):
    path = tmp_path / "store.sqlite"
    connection = connect(path)
    add_round(connection)
    connection.close()
    unmark(path)
    before = table_rows(sqlite3.connect(path))
    connection = connect(path, create=create)
    try:
        assert connection.execute("PRAGMA application_id").fetchone() == (APPLICATION_ID,)
        assert connection.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
        after = months_made(table_rows(connection))
    finally:
        connection.close()
    # Version 3's columns name the log profile that read a file: the spec's (NULL) for
    # every file read before; version 9's fields not read and version 10's months repeated
    # are unknown (NULL) for them.
    assert [row[-4:] for row in after["ingest_log"]] == [(None, None, None, None)] * len(
        before["ingest_log"]
    )
    after["ingest_log"] = [row[:-4] for row in after["ingest_log"]]
    assert after == before


def test_a_version_1_store_is_marked_when_upgraded(tmp_path):
    path = tmp_path / "store.sqlite"
    version_1_store(path, with_findings=True)
    connect(path, create=False).close()
    check = sqlite3.connect(path)
    try:
        assert check.execute("PRAGMA application_id").fetchone() == (APPLICATION_ID,)
        assert check.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
    finally:
        check.close()


def test_a_store_missing_a_table_of_its_version_is_not_taken_for_ours(tmp_path):
    """Recognised by its tables: a version 2 file without the findings table is not ours."""
    path = tmp_path / "store.sqlite"
    connect(path).close()
    unmark(path)
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("DROP TABLE findings")
    other.close()
    before = sha256_file(path)
    with pytest.raises(NotOurDatabase, match="schema version 2"):
        connect(path)
    assert sha256_file(path) == before


def test_a_store_of_a_later_version_asks_for_a_newer_release_naming_it(tmp_path):
    """Named: a scheduler's log of a run over several stores said "database schema version
    11 is not 10" without which."""
    path = tmp_path / "store.sqlite"
    connect(path).close()
    later = sqlite3.connect(path, isolation_level=None)
    later.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    later.close()
    for read_only in (False, True):
        with pytest.raises(InputError) as refused:
            connect(path, read_only=read_only)
        assert str(refused.value) == (
            f"{path}: database schema version {SCHEMA_VERSION + 1} is not {SCHEMA_VERSION}:"
            " use a newer baccarat-report"
        )


def as_version_3(path) -> None:
    """Make a store look as version 3 made it: findings without foreign keys, no views."""
    as_version_5(path)
    connection = sqlite3.connect(path, isolation_level=None)
    for view in ("finding_evidence", "void_rounds", "money_by_table_and_utc_day"):
        connection.execute(f"DROP VIEW {view}")
    connection.execute("ALTER TABLE findings RENAME TO old_findings")
    connection.execute(
        "CREATE TABLE findings (finding_id INTEGER PRIMARY KEY, kind TEXT NOT NULL,"
        " game_id TEXT NOT NULL, report_month TEXT NOT NULL, round_id TEXT NOT NULL,"
        " bet_id TEXT, expected_payout_cents INTEGER, logged_payout_cents INTEGER, rule TEXT,"
        " source_file TEXT NOT NULL, source_line INTEGER NOT NULL, message TEXT NOT NULL)"
        " STRICT"
    )
    connection.execute("INSERT INTO findings SELECT * FROM old_findings")
    connection.execute("DROP TABLE old_findings")
    connection.execute("PRAGMA user_version = 3")
    connection.close()


def test_a_version_3_store_gets_the_findings_foreign_keys_and_the_views(tmp_path):
    """Version 4: a finding points to its round and bet (Datasette links them), and the
    views over findings, void rounds and money exist; every finding is kept."""
    path = tmp_path / "store.sqlite"
    connection = connect(path)
    add_round(connection)
    add_bet(connection, 500)
    round_id, bet_id = connection.execute("SELECT round_id, bet_id FROM bets").fetchone()
    connection.execute(
        "INSERT INTO findings (kind, game_id, report_month, round_id, bet_id, source_file,"
        " source_line, message) VALUES ('payout_mismatch', 'g', '2026-10', ?, ?, 'f', 1, 'm')",
        (round_id, bet_id),
    )
    connection.close()
    as_version_3(path)
    before = table_rows(sqlite3.connect(path))
    connection = connect(path, create=False)
    try:
        assert connection.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
        assert fields_not_read_made(months_made(table_rows(connection))) == before
        keys = connection.execute("PRAGMA foreign_key_list(findings)").fetchall()
        assert {(row[2], row[3], row[4]) for row in keys} == {
            ("rounds", "round_id", "round_id"),
            ("bets", "round_id", "round_id"),
            ("bets", "bet_id", "bet_id"),
        }
        assert connection.execute("PRAGMA foreign_key_check").fetchall() == []
        evidence = connection.execute(
            "SELECT round_id, bet_id, kind, source FROM finding_evidence"
        ).fetchall()
        assert evidence == [(round_id, bet_id, "payout_mismatch", "f:1")]
        views = {
            name
            for (name,) in connection.execute("SELECT name FROM sqlite_schema WHERE type = 'view'")
        }
        assert views == {"finding_evidence", "void_rounds", "money_by_table_and_utc_day"}
    finally:
        connection.close()


def as_version_9(path) -> None:
    """Make a store look as version 9 made it: no months repeated in its ingest log."""
    connection = sqlite3.connect(path, isolation_level=None)
    connection.execute("ALTER TABLE ingest_log DROP COLUMN duplicate_months")
    connection.execute("PRAGMA user_version = 9")
    connection.close()


def as_version_8(path) -> None:
    """Make a store look as version 8 made it: no fields not read either."""
    as_version_9(path)
    connection = sqlite3.connect(path, isolation_level=None)
    connection.execute("ALTER TABLE ingest_log DROP COLUMN fields_not_read")
    connection.execute("PRAGMA user_version = 8")
    connection.close()


@pytest.mark.parametrize(
    ("as_version", "added"),
    [
        (as_version_9, {"duplicate_months": '{"2026-10": 1}'}),
        (as_version_8, {"fields_not_read": '["dealer"]', "duplicate_months": '{"2026-10": 1}'}),
    ],
    ids=["version 9", "version 8"],
)
def test_the_ingest_log_s_new_columns_are_unknown_for_the_files_read_before(
    tmp_path, as_version, added
):
    """Version 9: each file's fields the tool does not read; version 10: its rounds already
    stored, by month. Releases before kept neither, so the files they read have none (NULL),
    and the next file's are kept."""
    path = tmp_path / "store.sqlite"
    connection = connect(path)
    add_round(connection)
    connection.close()
    as_version(path)
    before = table_rows(sqlite3.connect(path))
    connection = connect(path, create=False)
    try:
        assert connection.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
        after = table_rows(connection)
        connection.execute(
            "INSERT INTO ingest_log (file_name, file_sha256, file_size, format, ingested_at,"
            f" {', '.join(added)}) VALUES ('b.jsonl', 'h', 1, 'jsonl', '2026-11-06T00:00:00Z',"
            f" {', '.join('?' * len(added))})",
            tuple(added.values()),
        )
        kept = connection.execute(
            f"SELECT file_name, {', '.join(added)} FROM ingest_log ORDER BY ingest_id"
        ).fetchall()
    finally:
        connection.close()
    width = len(added)
    assert [row[-width:] for row in after["ingest_log"]] == [(None,) * width] * len(
        before["ingest_log"]
    )
    after["ingest_log"] = [row[:-width] for row in after["ingest_log"]]
    assert after == before
    assert kept[-1] == ("b.jsonl", *added.values())


def as_version_7(path) -> None:
    """Make a store look as version 7 made it: no count of its files' rounds by month."""
    as_version_8(path)
    connection = sqlite3.connect(path, isolation_level=None)
    connection.execute("DROP TABLE ingest_months")
    connection.execute("PRAGMA user_version = 7")
    connection.close()


def as_version_5(path) -> None:
    """Make a store look as version 5 made it: rejected lines without their month."""
    as_version_7(path)
    connection = sqlite3.connect(path, isolation_level=None)
    connection.execute("DROP INDEX rejected_by_month")
    connection.execute("ALTER TABLE rejected_records DROP COLUMN report_month")
    connection.execute("PRAGMA user_version = 5")
    connection.close()


def test_a_version_5_store_keeps_its_rejected_lines_of_no_month_and_gets_the_column(tmp_path):
    """Version 6: a rejected line keeps its reporting month where it could be read; the lines
    rejected before keep none (NULL), and bear on a month through their file as they did."""
    path = tmp_path / "store.sqlite"
    connection = connect(path)
    add_round(connection)
    connection.execute(
        "INSERT INTO rejected_records (ingest_id, file_name, line, reason, message, raw_text)"
        " SELECT ingest_id, 'f.jsonl', 7, 'bad_json', 'not JSON', 'x' FROM ingest_log LIMIT 1"
    )
    connection.close()
    as_version_5(path)
    before = table_rows(sqlite3.connect(path))
    connection = connect(path, create=False)
    try:
        assert connection.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
        after = fields_not_read_made(months_made(table_rows(connection)))
        index = connection.execute("PRAGMA index_info(rejected_by_month)").fetchall()
    finally:
        connection.close()
    assert [row[-1] for row in after["rejected_records"]] == [None]
    after["rejected_records"] = [row[:-1] for row in after["rejected_records"]]
    assert after == before
    assert [row[2] for row in index] == ["report_month"]


def as_version_4(path) -> None:
    """Make a store look as version 4 made it: without the month's indexes."""
    as_version_5(path)
    connection = sqlite3.connect(path, isolation_level=None)
    connection.execute("DROP INDEX rounds_by_month")
    connection.execute("DROP INDEX bets_by_bet_id")
    connection.execute("PRAGMA user_version = 4")
    connection.close()


def test_a_version_4_store_gets_the_indexes_a_month_is_read_by(tmp_path):
    """Version 5: a month's rounds are found by month (``rounds_by_month``) and a bet id
    among every bet (``bets_by_bet_id``), so that verify of a month reads only that month;
    the upgrade makes them over the rows the store holds, and keeps every row."""
    path = tmp_path / "store.sqlite"
    connection = connect(path)
    add_round(connection)
    add_bet(connection, 500)
    connection.close()
    as_version_4(path)
    before = table_rows(sqlite3.connect(path))
    connection = connect(path, create=False)
    try:
        assert connection.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
        assert fields_not_read_made(months_made(table_rows(connection))) == before
        columns = {
            index: [row[2] for row in connection.execute(f"PRAGMA index_info({index})")]
            for index in ("rounds_by_month", "bets_by_bet_id")
        }
        plan = " ".join(
            row[3]
            for row in connection.execute(
                "EXPLAIN QUERY PLAN SELECT round_id FROM bets WHERE bet_id = 'B-1'"
            )
        )
    finally:
        connection.close()
    assert columns == {
        "rounds_by_month": ["report_month", "round_id"],
        "bets_by_bet_id": ["bet_id"],
    }
    assert "USING COVERING INDEX bets_by_bet_id (bet_id=?)" in plan


def test_a_store_with_a_second_name_is_refused_before_anything_is_written(tmp_path):
    """Two hard-linked names of one store (`cp -al`, a snapshot tool): two ingests at once,
    one through each name, each kept its own -wal beside its name, and the store was corrupt
    ("database disk image is malformed") or each name showed a month the other lost."""
    import os

    store = tmp_path / "report.sqlite"
    connect(store).close()
    os.link(store, tmp_path / "link.sqlite")
    before = store.read_bytes()
    for name in (store, tmp_path / "link.sqlite"):
        with pytest.raises(InputError, match=r"has 2 names \(hard links\).*keep one name"):
            connect(name)
    result = run_main("verify", "--db", str(store), "--month", "2026-10")
    assert result.returncode == 2 and "has 2 names" in result.stderr, result
    assert store.read_bytes() == before
    assert sorted(path.name for path in tmp_path.iterdir()) == ["link.sqlite", "report.sqlite"]
    os.unlink(tmp_path / "link.sqlite")
    connect(store).close()  # one name again: opened as before


def test_a_version_10_store_keeps_its_files_announced_in_no_month(tmp_path):
    """Version 11: the month whose report told of each file, so that a run writing that month
    again tells of it again. The files a run of the release before announced were told of
    in a month not known: no run tells of them again, as before."""
    path = tmp_path / "store.sqlite"
    connection = connect(path)
    add_round(connection)
    record_months(connection, 1, {"2026-10": 1})
    mark_announced(connection, loaded_through(connection), ["2026-11"])
    told = connection.execute(
        "SELECT announced, announced_in, counted FROM ingest_months"
    ).fetchall()
    connection.execute("UPDATE ingest_months SET announced_in = NULL")
    connection.close()
    old = sqlite3.connect(path, isolation_level=None)
    old.execute("ALTER TABLE ingest_months DROP COLUMN announced_in")
    old.execute("ALTER TABLE ingest_months DROP COLUMN counted")
    old.execute("PRAGMA user_version = 10")
    old.close()
    connection = connect(path, create=False)
    try:
        assert connection.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
        made = connection.execute(
            "SELECT announced, announced_in, counted FROM ingest_months"
        ).fetchall()
        again = unannounced_rounds(connection, loaded_through(connection), ["2026-11"])
    finally:
        connection.close()
    assert told == [(1, "2026-11", 0)]  # a round of October, told of by November's run
    assert made == [(1, None, 0)] and again == []


def test_a_version_7_store_counts_its_files_rounds_by_month_all_announced(tmp_path):
    """Version 8: each file's rounds and rejected lines of a month of their own, by month,
    with whether a monthly run has written or named them. The upgrade counts what the store
    holds, and calls all of it announced: a run after the upgrade names no round loaded
    before it (the release before named them, or had no way to)."""
    path = tmp_path / "store.sqlite"
    connection = connect(path)
    add_round(connection)
    add_round(connection, "R-2")
    connection.execute("UPDATE rounds SET report_month = '2026-09' WHERE round_id = 'R-2'")
    connection.execute(
        "INSERT INTO rejected_records (ingest_id, file_name, line, reason, message, raw_text,"
        " report_month) SELECT 1, 'f.jsonl', line, 'bad_amount', 'm', 'x', month FROM"
        " (SELECT 7 AS line, '2026-10' AS month UNION ALL SELECT 8, '2026-08'"
        " UNION ALL SELECT 9, NULL)"
    )
    connection.close()
    as_version_7(path)
    connection = connect(path, create=False)
    try:
        assert connection.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
        made = connection.execute("SELECT * FROM ingest_months ORDER BY 2").fetchall()
        late = unannounced_rounds(connection, loaded_through(connection))
    finally:
        connection.close()
    assert made == [  # announced, in no month known (version 11 keeps it)
        (1, "2026-08", 0, 1, 1, None, 0),
        (1, "2026-09", 1, 0, 1, None, 0),
        (1, "2026-10", 1, 1, 1, None, 0),
    ]
    assert late == []


def test_every_table_and_view_is_described_to_a_person_browsing_the_store():
    from reporting.store.browse import DESCRIPTIONS

    assert set(DESCRIPTIONS) == {*SCHEMA_TABLES, *VIEW_NAMES}


def test_every_column_of_cents_utc_time_or_month_says_so_to_a_person_browsing(tmp_path):
    """A column in cents, in UTC or of a reporting month is read wrong without its unit: a
    view or table left without the description (rejected lines' month) is found here."""
    from reporting.store.browse import DESCRIPTIONS

    connection = connect(tmp_path / "store.sqlite")
    try:
        columns = {
            name: [row[1] for row in connection.execute(f"PRAGMA table_info({name})")]
            for name in DESCRIPTIONS
        }
    finally:
        connection.close()
    unsaid = [
        f"{name}.{column}"
        for name, names in columns.items()
        for column in names
        if column.endswith(("_cents", "_at")) or column == "report_month"
        if column not in DESCRIPTIONS[name][1]
    ]
    assert unsaid == []


def _damaged(tmp_path, *statements: str):
    """A store of one round, then changed by ``statements`` as another program would."""
    tmp_path.mkdir(exist_ok=True)
    db = tmp_path / "store.sqlite"
    connect(db).close()
    other = sqlite3.connect(db)
    other.execute(
        "INSERT INTO ingest_log (file_name, file_sha256, file_size, format, ingested_at)"
        " VALUES ('log.jsonl', 'x', 1, 'jsonl', '2026-11-01T00:00:00Z')"
    )
    other.execute(
        "INSERT INTO rounds (round_id, game_id, table_id, settled_at, report_month, status,"
        " player_cards, banker_cards, ingest_id, source_line) VALUES ('R-1', 'g', 't',"
        " '2026-10-03T18:40:00Z', '2026-10', 'settled', 'QS QH', '6H 5C', 1, 1)"
    )
    for statement in statements:
        other.execute(statement)
    other.commit()
    other.close()
    return db


def _refusal(db) -> str:
    """What opening the store ``db`` is refused with."""
    with pytest.raises(InputError) as refused:
        connect(db)
    return str(refused.value)


def _refused_unchanged(db) -> str:
    """What opening the store ``db`` is refused with, its bytes held unchanged by it."""
    before = sha256_file(db)
    said = _refusal(db)
    assert sha256_file(db) == before
    return said


def _indexes(db) -> dict[str, str]:
    """The store's indexes of its own (not a primary key's), by name: their statements."""
    return dict(
        rows(db, "SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND sql NOT NULL")
    )


def test_every_index_the_schema_makes_is_made_again_when_dropped(tmp_path):
    """A store whose indexes were dropped by another program: each is made again as the
    schema makes it when the store is opened (a month read without bets_by_bet_id looked for
    each of its bets among every bet of the store, and a stop could not end it)."""
    whole = _indexes(_damaged(tmp_path / "whole"))
    assert {"bets_by_bet_id", "rounds_by_month", "rounds_by_game_month"} <= whole.keys()
    db = _damaged(tmp_path, *(f"DROP INDEX {name}" for name in whole))
    assert _indexes(db) == {}
    connect(db).close()
    assert _indexes(db) == whole
    assert rows(db, "SELECT round_id FROM rounds") == [("R-1",)]


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (
            "ALTER TABLE rounds RENAME COLUMN settled_at TO settled_time",
            "table rounds has no column settled_at",
        ),
        ("ALTER TABLE bets DROP COLUMN placed_at", "table bets has no column placed_at"),
    ],
)
def test_a_store_whose_column_was_renamed_or_dropped_is_refused_naming_it(tmp_path, change, said):
    db = _damaged(tmp_path, change)
    assert _refusal(db) == (
        f"{db}: {said}: the store was changed by another program or by hand; use a copy from"
        " before the change"
    )


def test_a_store_holding_a_trigger_is_refused_naming_it(tmp_path):
    """A trigger runs inside the tool's own writes: one that refused every finding stopped
    verify with a traceback."""
    db = _damaged(
        tmp_path,
        "CREATE TRIGGER no_findings BEFORE INSERT ON findings BEGIN SELECT RAISE(ABORT, 'no'); END",
    )
    assert _refusal(db) == (
        f"{db}: holds trigger no_findings, which baccarat-report never makes: it was added by"
        " another program or by hand; remove it (DROP TRIGGER no_findings) or use a copy from"
        " before it"
    )


def _remade(table: str, definition: str) -> list[str]:
    """Statements that make ``table`` again as ``definition`` (a copy tool's or a person's
    rebuild), its rows kept, foreign keys off."""
    return [
        "PRAGMA foreign_keys = OFF",
        f"ALTER TABLE {table} RENAME TO old_{table}",
        definition,
        f"INSERT INTO {table} SELECT * FROM old_{table}",
        f"DROP TABLE old_{table}",
    ]


_BETS_LOOSE = """CREATE TABLE bets (round_id TEXT NOT NULL, bet_id TEXT NOT NULL,
    account TEXT NOT NULL, bet_type TEXT NOT NULL, stake_cents INTEGER, payout_cents INTEGER
    NOT NULL, currency TEXT NOT NULL, placed_at TEXT, source_line INTEGER NOT NULL,
    PRIMARY KEY (round_id, bet_id)) {options}"""


@pytest.mark.parametrize(
    ("definition", "said"),
    [
        (
            _BETS_LOOSE.format(options="WITHOUT ROWID"),
            "table bets is not STRICT, as baccarat-report makes it, and takes any value in any"
            " column; column bets.stake_cents is INTEGER, where baccarat-report makes it"
            " INTEGER NOT NULL: the table was made again by another program or by hand",
        ),
        (
            _BETS_LOOSE.format(options="STRICT, WITHOUT ROWID"),
            "column bets.stake_cents is INTEGER, where baccarat-report makes it INTEGER NOT NULL:"
            " the table was made again by another program or by hand",
        ),
        (
            _BETS_LOOSE.replace("stake_cents INTEGER,", "stake_cents TEXT NOT NULL,").format(
                options="STRICT, WITHOUT ROWID"
            ),
            "column bets.stake_cents is TEXT NOT NULL, where baccarat-report makes it INTEGER"
            " NOT NULL: the table was made again by another program or by hand",
        ),
    ],
)
def test_a_table_made_again_otherwise_than_by_the_schema_is_refused_naming_it(
    tmp_path, definition, said
):
    """A table made again without STRICT or a NOT NULL (by a tool that copies tables, or by
    hand) took a NULL stake, and verify met it as a traceback halfway (int + NoneType)."""
    db = _damaged(tmp_path, *_remade("bets", definition))
    assert _refusal(db) == f"{db}: {said}; use a copy from before the change"


def test_every_column_and_table_unlike_the_schema_is_named_in_one_refusal(tmp_path):
    """A store with a column dropped, and two tables made again loosely: each is named at
    once (the first was named alone, and the next run met the next)."""
    loose_bets = _BETS_LOOSE.replace("payout_cents INTEGER\n    NOT NULL", "payout_cents TEXT")
    db = _damaged(
        tmp_path,
        "ALTER TABLE rounds RENAME COLUMN void_reason TO why_void",
        *_remade("ingest_months", _INGEST_MONTHS_LOOSE),
        *_remade("bets", loose_bets.format(options="WITHOUT ROWID")),
    )
    assert _refusal(db) == (
        f"{db}: table rounds has no column void_reason; table bets is not STRICT, as"
        " baccarat-report makes it, and takes any value in any column; column bets.stake_cents"
        " is INTEGER, where baccarat-report makes it INTEGER NOT NULL; column"
        " bets.payout_cents is TEXT, where baccarat-report makes it INTEGER NOT NULL; column"
        " ingest_months.rounds is INTEGER NOT NULL KEY, where baccarat-report makes it INTEGER"
        " NOT NULL: the tables were made again by another program or by hand; use a copy from"
        " before the change"
    )


def test_a_store_changed_in_several_ways_is_refused_naming_each_at_once(tmp_path):
    """A trigger added and both JSON texts of the files' log broken: the first was named,
    and each next run named the next."""
    db = _damaged(
        tmp_path,
        "CREATE TRIGGER no_findings BEFORE INSERT ON findings BEGIN SELECT RAISE(ABORT, 'no'); END",
        "UPDATE ingest_log SET fields_not_read = '[1,2', duplicate_months = '{'",
    )
    said = _refusal(db)
    assert said.startswith(f"{db}: the files' log holds, for log.jsonl, fields_not_read that")
    assert "; the files' log holds, for log.jsonl, duplicate_months that is not JSON" in said
    assert "; holds trigger no_findings, which baccarat-report never makes" in said


_INGEST_MONTHS_LOOSE = """CREATE TABLE ingest_months (ingest_id INTEGER NOT NULL,
    report_month TEXT NOT NULL, rounds INTEGER NOT NULL DEFAULT 0, rejected INTEGER NOT NULL
    DEFAULT 0, announced INTEGER NOT NULL DEFAULT 0, announced_in TEXT, counted INTEGER NOT NULL
    DEFAULT 0, PRIMARY KEY (ingest_id, report_month, rounds)) STRICT, WITHOUT ROWID"""


@pytest.mark.parametrize("column", INGEST_LOG_JSON)
def test_a_files_log_holding_a_json_text_that_is_not_json_is_refused_naming_the_file(
    tmp_path, column
):
    """SQLite's JSON functions stop a whole statement at one text that is not JSON: verify
    ended in a traceback ("malformed JSON"). Each column the schema says holds JSON is
    checked (a test below holds the list to the columns ingest writes JSON in)."""
    db = _damaged(tmp_path, f"UPDATE ingest_log SET {column} = '[1,2'")
    said = _refusal(db)
    assert said == (
        f"{db}: the files' log holds, for log.jsonl, {column} that is not JSON"
        " (baccarat-report writes it as JSON): it was changed by another program or by hand;"
        " use a copy from before the change"
    )


def test_the_json_texts_checked_are_the_columns_ingest_writes_json_in(tmp_path, make_round):
    """A log of a field no check reads, loaded beside a copy of its round: every column of
    the files' log that ingest filled with a JSON array or object is one the check reads."""
    from reporting.config.loader import load_config
    from reporting.ingest.sources import Source
    from reporting.store.load import ingest

    first, again = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    first.write_text(json.dumps({**make_round("R-1"), "dealer": "Ann"}) + "\n", encoding="utf-8")
    again.write_text(json.dumps(make_round("R-1")) + "\n", encoding="utf-8")
    connection = connect(tmp_path / "store.sqlite")
    try:
        config = load_config(Path(__file__).resolve().parents[2] / "sample_data/operator.toml")
        ingest(connection, [Source(first, "jsonl"), Source(again, "jsonl")], config)
        cursor = connection.execute("SELECT * FROM ingest_log")
        names = [column[0] for column in cursor.description]
        written = set()
        for row in cursor.fetchall():
            for name, value in zip(names, row, strict=True):
                if isinstance(value, str) and value[:1] in "[{":
                    with contextlib.suppress(ValueError):
                        json.loads(value)
                        written.add(name)
    finally:
        connection.close()
    assert written == set(INGEST_LOG_JSON)


def test_a_round_stored_under_a_month_that_is_no_month_is_refused_naming_it(tmp_path):
    """A round whose reporting month was set to 2026-13 was in no month's verify, audit or
    page, and said nowhere: verify of 2026-10 passed without it."""
    db = _damaged(tmp_path, "UPDATE rounds SET report_month = '2026-13'")
    assert _refusal(db) == (
        f"{db}: round R-1 is stored under reporting month '2026-13', no month YYYY-MM from"
        " 1980-01 to 2099-12: ingest reckons a round's month from its settling time, so the"
        " store was changed by another program or by hand; use a copy from before the change"
    )


def test_a_long_value_set_by_hand_is_quoted_cut_short(tmp_path):
    """A month, a round id and a file's name of a megabyte each were quoted whole: a message
    of megabytes on the terminal and in the log."""
    db = _damaged(
        tmp_path,
        "UPDATE ingest_log SET file_name = hex(zeroblob(500000)), duplicate_months = '['",
        "UPDATE rounds SET report_month = hex(zeroblob(500000))",
    )
    said = _refusal(db)
    assert len(said) < 500 and "(1,000,000 characters)" in said, said
    db.unlink()
    db = _damaged(tmp_path, "UPDATE rounds SET report_month = hex(zeroblob(500000))")
    said = _refusal(db)
    assert len(said) < 500 and "(1,000,000 characters)" in said, said


def test_the_months_of_a_store_are_read_a_step_per_month_by_their_index(tmp_path):
    """The months are looked at each time a store is opened: by ``rounds_by_month``, a
    search per month, never a walk over every round."""
    from reporting.store.shape import _MONTHS

    db = _damaged(tmp_path)
    plan = " ".join(row[-1] for row in rows(db, f"EXPLAIN QUERY PLAN {_MONTHS}"))
    assert "SEARCH rounds USING COVERING INDEX rounds_by_month (report_month>?)" in plan
    assert "SCAN rounds" not in plan


def test_a_store_of_a_schema_version_no_release_writes_is_refused_unchanged(tmp_path):
    """A header whose version was set to -1 by hand was taken for an earlier release's: the
    upgrade wrote to the file, then the store was refused as "not a baccarat-report database
    ... missing nothing; run ingest into a new file first"."""
    path = tmp_path / "store.sqlite"
    connect(path).close()
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("PRAGMA user_version = -1")
    other.close()
    assert _refused_unchanged(path) == (
        f"{path}: database schema version -1, which no release of baccarat-report writes"
        " (nothing was changed): its header was changed by another program or by hand; use a"
        " copy from before the change"
    )


def test_a_store_whose_header_is_damaged_is_said_to_be_damaged_not_another_kind_of_file(
    tmp_path,
):
    """The file begins as a SQLite database does, but its page size is no page size: it was
    "not a baccarat-report database (not a SQLite file) ... name a baccarat-report database
    or a new file", which sent its owner to start over instead of to the backup."""
    path = tmp_path / "store.sqlite"
    connect(path).close()
    with path.open("r+b") as file:
        file.seek(16)
        file.write(b"\xff\x00\x07\x07")
    assert _refused_unchanged(path) == (
        f"{path}: a SQLite file whose header is damaged (SQLite cannot read it as a database);"
        " nothing was changed; restore it from a backup"
    )


@pytest.mark.parametrize(
    "name", [":memory:", "file:x.sqlite?mode=memory", "file:y.sqlite?mode=rwc"]
)
def test_a_store_named_as_sqlite_s_own_syntax_is_the_file_of_that_name(tmp_path, monkeypatch, name):
    """`--db :memory:` loaded a month into memory and exited 0, nothing kept; a `file:` URI
    wrote another file than the lock it took (two runs on one store did not wait for each
    other). A name is a file's name."""
    monkeypatch.chdir(tmp_path)
    connection = connect(Path(name))
    try:
        connection.execute("INSERT INTO ingest_log (file_name, file_sha256, file_size, format,"
                           " ingested_at) VALUES ('a', 'b', 1, 'jsonl', 'now')")  # fmt: skip
    finally:
        connection.close()
    assert sorted(path.name for path in tmp_path.iterdir() if "-" not in path.name) == [name]
    assert rows(tmp_path / name, "SELECT file_name FROM ingest_log") == [("a",)]


def test_ingest_into_a_store_named_memory_keeps_the_month_in_that_file(tmp_path, make_round):
    """Through the command line: `ingest --db :memory:` exited 0 and kept nothing. The month
    is in the file `:memory:`, and its lock is beside it, not beside another name."""
    log = tmp_path / "log.jsonl"
    log.write_text(json.dumps(make_round("R-1")) + "\n", encoding="utf-8")
    done = run_main("ingest", str(log), "--db", ":memory:", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert rows(tmp_path / ":memory:", "SELECT round_id FROM rounds") == [("R-1",)]
    assert (tmp_path / lock_path(Path(":memory:")).name).exists()
