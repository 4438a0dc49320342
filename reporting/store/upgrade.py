"""Bringing a store of an earlier schema version to this one, in place and in one
transaction (:func:`upgrade`): a step for each version, each inside the caller's
transaction. :func:`reporting.store.schema.create_schema` calls it for a store of an earlier
release; the versions are listed at :data:`reporting.store.schema.SCHEMA_VERSION`.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

from reporting.errors import InputError
from reporting.store.faults import begin_immediate, connection_fault
from reporting.store.schema import schema_version
from reporting.store.sql import (
    APPLICATION_ID,
    FINDINGS_SCHEMA,
    GAME_MONTH_INDEX,
    INGEST_LOG,
    INGEST_LOG_COLUMNS,
    INGEST_MONTHS,
    MONTH_INDEXES,
    REJECTS_BY_MONTH,
    SCHEMA_VERSION,
    VIEW_NAMES,
    VIEWS,
)

__all__ = ["upgrade"]


def upgrade(connection: sqlite3.Connection) -> None:
    """Bring a store of an earlier version (or one of this version made before stores
    carried :data:`APPLICATION_ID`) to this version, marked, in one transaction: all of it
    or nothing.

    ``ingest_log`` loses its CHECK on the format by SQLite's twelve steps for a change
    ALTER TABLE cannot make (https://sqlite.org/lang_altertable.html#otheralter): foreign
    keys off, a new table, the rows copied, the old table dropped, the new one renamed, the
    foreign keys checked. Another process upgrading at the same time waits for the write
    lock and then finds the work done.
    """
    version = schema_version(connection)
    foreign_keys = connection.execute("PRAGMA foreign_keys").fetchone()[0]
    connection.execute("PRAGMA foreign_keys = OFF")  # no effect inside a transaction
    try:
        begin_immediate(connection)
        try:
            while step := _STEPS.get(schema_version(connection)):
                step(connection)  # each sets the version it brings the store to
            connection.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            connection.execute("COMMIT")
        except BaseException:
            if connection.in_transaction:
                connection.execute("ROLLBACK")
            raise
    except sqlite3.Error as error:  # e.g. a file this user may only read
        raise connection_fault(
            connection,
            error,
            context=f" (upgrading it from schema version {version} to {SCHEMA_VERSION}:"
            " nothing was changed)",
        ) or InputError(
            f"the database is of schema version {version} and could not be upgraded to"
            f" {SCHEMA_VERSION} ({error}); nothing was changed"
        ) from None
    finally:
        if foreign_keys:
            connection.execute("PRAGMA foreign_keys = ON")


def _upgrade_1_to_2(connection: sqlite3.Connection) -> None:
    """The steps of version 1 to 2, inside the caller's transaction."""
    new_table = INGEST_LOG.replace("IF NOT EXISTS ingest_log", "ingest_log_v2")
    connection.execute(new_table)
    connection.execute(
        f"INSERT INTO ingest_log_v2 ({INGEST_LOG_COLUMNS})"
        f" SELECT {INGEST_LOG_COLUMNS} FROM ingest_log"
    )
    connection.execute("DROP TABLE ingest_log")
    connection.execute("ALTER TABLE ingest_log_v2 RENAME TO ingest_log")
    for statement in FINDINGS_SCHEMA.split(";"):
        if statement.strip():
            connection.execute(statement)
    problems = [  # the rows that point to the rebuilt table
        problem
        for table in ("rounds", "rejected_records")
        for problem in connection.execute(f"PRAGMA foreign_key_check({table})").fetchall()
    ]
    if problems:
        raise InputError(
            f"the database cannot be upgraded to schema version {SCHEMA_VERSION}: rows"
            f" {problems[:5]} point to no row; nothing was changed"
        )
    connection.execute("PRAGMA user_version = 3")


def _upgrade_2_to_3(connection: sqlite3.Connection) -> None:
    """The steps of version 2 to 3 (two columns added, NULL for the files already read:
    the spec's round log), inside the caller's transaction."""
    connection.execute("ALTER TABLE ingest_log ADD COLUMN profile TEXT")
    connection.execute("ALTER TABLE ingest_log ADD COLUMN profile_sha256 TEXT")
    connection.execute("PRAGMA user_version = 3")


_FINDINGS_COLUMNS = (
    "finding_id, kind, game_id, report_month, round_id, bet_id, expected_payout_cents,"
    " logged_payout_cents, rule, source_file, source_line, message"
)


def _upgrade_3_to_4(connection: sqlite3.Connection) -> None:
    """The steps of version 3 to 4, inside the caller's transaction: the findings table
    rebuilt with its foreign keys (SQLite's twelve steps, as for version 2), the views made."""
    for view in VIEW_NAMES:  # made again below, on the new table
        connection.execute(f"DROP VIEW IF EXISTS {view}")
    new_table = FINDINGS_SCHEMA.split(";")[0].replace("IF NOT EXISTS findings", "findings_v4")
    connection.execute(new_table)
    connection.execute(
        f"INSERT INTO findings_v4 ({_FINDINGS_COLUMNS}) SELECT {_FINDINGS_COLUMNS} FROM findings"
    )
    connection.execute("DROP TABLE findings")
    connection.execute("ALTER TABLE findings_v4 RENAME TO findings")
    for statement in (FINDINGS_SCHEMA.split(";")[1], *VIEWS.split(";")):
        if statement.strip():
            connection.execute(statement)
    problems = connection.execute("PRAGMA foreign_key_check(findings)").fetchall()
    if problems:  # a finding of a round or bet the store no longer holds
        raise InputError(
            f"the database cannot be upgraded to schema version {SCHEMA_VERSION}: findings"
            f" {problems[:5]} point to no round or bet; nothing was changed"
        )
    connection.execute("PRAGMA user_version = 4")


def _upgrade_4_to_5(connection: sqlite3.Connection) -> None:
    """The steps of version 4 to 5, inside the caller's transaction: the indexes of
    :data:`MONTH_INDEXES` made (once, over every round and bet the store holds)."""
    for statement in MONTH_INDEXES.split(";"):
        if statement.strip():
            connection.execute(statement)
    connection.execute("PRAGMA user_version = 5")


def _upgrade_5_to_6(connection: sqlite3.Connection) -> None:
    """The steps of version 5 to 6, inside the caller's transaction: the rejected lines'
    reporting month, unknown (NULL) for those read before (they bear on a month through their
    file, as they did), and its index."""
    connection.execute("ALTER TABLE rejected_records ADD COLUMN report_month TEXT")
    connection.execute(REJECTS_BY_MONTH)
    connection.execute("PRAGMA user_version = 6")


def _upgrade_6_to_7(connection: sqlite3.Connection) -> None:
    """The steps of version 6 to 7, inside the caller's transaction: the rounds' index by game
    and month made again with the table (once, over every round the store holds)."""
    connection.execute("DROP INDEX IF EXISTS rounds_by_game_month")
    connection.execute(GAME_MONTH_INDEX)
    connection.execute("PRAGMA user_version = 7")


def _upgrade_7_to_8(connection: sqlite3.Connection) -> None:
    """The steps of version 7 to 8, inside the caller's transaction: each file's rounds and
    rejected lines counted by month (once, over every row the store holds), all of them
    announced: which an earlier release's runs named cannot be known, and naming every round
    of every month before the next one written would bury the late ones."""
    connection.execute(INGEST_MONTHS)
    connection.execute(
        "INSERT INTO ingest_months (ingest_id, report_month, rounds, rejected, announced)"
        " SELECT ingest_id, report_month, sum(rounds), sum(rejected), 1 FROM ("
        "  SELECT ingest_id, report_month, count(*) AS rounds, 0 AS rejected FROM rounds"
        "  GROUP BY ingest_id, report_month"
        "  UNION ALL SELECT ingest_id, report_month, 0, count(*) FROM rejected_records"
        "  WHERE report_month IS NOT NULL GROUP BY ingest_id, report_month"
        ") GROUP BY ingest_id, report_month"
    )
    connection.execute("PRAGMA user_version = 8")


def _upgrade_8_to_9(connection: sqlite3.Connection) -> None:
    """The steps of version 8 to 9, inside the caller's transaction: the fields of each file
    the tool does not read, unknown (NULL) for the files read before (releases before named
    none). A store of version 1 has it already: its step made the table as it is now."""
    _add_text_column(connection, "fields_not_read")
    connection.execute("PRAGMA user_version = 9")


def _upgrade_9_to_10(connection: sqlite3.Connection) -> None:
    """The steps of version 9 to 10, inside the caller's transaction: each file's rounds
    already stored, by month, unknown (NULL) for the files read before (releases before kept
    only their count). A store of version 1 has it already, as :func:`_upgrade_8_to_9`."""
    _add_text_column(connection, "duplicate_months")
    connection.execute("PRAGMA user_version = 10")


def _upgrade_10_to_11(connection: sqlite3.Connection) -> None:
    """The steps of version 10 to 11, inside the caller's transaction: the month whose report
    told of each file, unknown (NULL) for the files announced before (a run writing their
    month again does not tell of them again, as before), and whether a report of a file's
    month counts it, not known (0) for the files loaded before (their manifests say, as
    before). A store of version 7 or before has both already: its step to 8 made the table as
    it is now."""
    columns = {row[1] for row in connection.execute("PRAGMA table_info(ingest_months)")}
    if "counted" not in columns:
        _add_text_column(connection, "announced_in", table="ingest_months")
        connection.execute(
            "ALTER TABLE ingest_months ADD COLUMN"
            " counted INTEGER NOT NULL DEFAULT 0 CHECK (counted IN (0, 1))"
        )
    connection.execute("PRAGMA user_version = 11")


def _add_text_column(
    connection: sqlite3.Connection, column: str, table: str = "ingest_log"
) -> None:
    """Add a TEXT column to ``table`` unless it has it (a store upgraded from an earlier
    version got the table as this version makes it)."""
    columns = {row[1] for row in connection.execute(f"PRAGMA table_info({table})")}
    if column not in columns:
        connection.execute(f"ALTER TABLE {table} ADD COLUMN {column} TEXT")


#: The step that brings a store of each earlier version further: version 1's rebuilds
#: ``ingest_log`` as version 3 has it, so it goes straight to 3.
_STEPS: dict[int, Callable[[sqlite3.Connection], None]] = {
    1: _upgrade_1_to_2,
    2: _upgrade_2_to_3,
    3: _upgrade_3_to_4,
    4: _upgrade_4_to_5,
    5: _upgrade_5_to_6,
    6: _upgrade_6_to_7,
    7: _upgrade_7_to_8,
    8: _upgrade_8_to_9,
    9: _upgrade_9_to_10,
    10: _upgrade_10_to_11,
}
