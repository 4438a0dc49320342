"""The SQLite store: schema, connection settings, and small queries shared by the commands.

Tables are STRICT, money is INTEGER cents, timestamps are UTC ISO 8601 text of fixed width
to the millisecond
(``2026-10-03T18:40:41.870Z``) so they sort and compare as text. Every round and every
rejected record points back to its source file and line. The database is a plain SQLite
file: it opens in the ``sqlite3`` shell, sqlite-utils or Datasette with readable names.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from reporting.errors import InputError
from reporting.records import Round

__all__ = [
    "FINDINGS_SCHEMA",
    "ROUND_CONTENT_FIELDS",
    "SCHEMA",
    "SCHEMA_VERSION",
    "TABLES",
    "connect",
    "create_schema",
    "rejected_count",
    "stored_round_content",
]

#: The schema's version, kept in ``PRAGMA user_version``. 1: the first release (no CHECK
#: lifted, the findings table made by verify when it first ran); 2: the findings table is
#: part of the schema, and ``ingest_log.format`` is checked by the table of input formats
#: (:data:`reporting.ingest.formats.FORMATS`) instead of a CHECK that new formats would break.
SCHEMA_VERSION = 2

_INGEST_LOG = """
CREATE TABLE IF NOT EXISTS ingest_log (
    ingest_id        INTEGER PRIMARY KEY,
    file_name        TEXT NOT NULL,     -- the round log as given (rounds.csv for a CSV pair)
    companion_name   TEXT,              -- bets.csv of a CSV pair
    file_sha256      TEXT NOT NULL UNIQUE,
    file_size        INTEGER NOT NULL,
    format           TEXT NOT NULL,     -- a name of reporting.ingest.formats.FORMATS
    ingested_at      TEXT NOT NULL,     -- UTC
    lines_read       INTEGER NOT NULL DEFAULT 0,
    rounds_loaded    INTEGER NOT NULL DEFAULT 0,
    bets_loaded      INTEGER NOT NULL DEFAULT 0,
    rounds_skipped_duplicate INTEGER NOT NULL DEFAULT 0,
    rejected         INTEGER NOT NULL DEFAULT 0
) STRICT;
"""

#: The findings of the last verify run of each month and game (verify replaces them).
FINDINGS_SCHEMA = """
CREATE TABLE IF NOT EXISTS findings (
    finding_id      INTEGER PRIMARY KEY,
    kind            TEXT NOT NULL,
    game_id         TEXT NOT NULL,
    report_month    TEXT NOT NULL,
    round_id        TEXT NOT NULL,
    bet_id          TEXT,
    expected_payout_cents INTEGER,
    logged_payout_cents   INTEGER,
    rule            TEXT,           -- the drawing rule, limit or house rule concerned
    source_file     TEXT NOT NULL,
    source_line     INTEGER NOT NULL,
    message         TEXT NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS findings_by_month ON findings (report_month, kind);
"""

#: The whole schema of a new store.
SCHEMA = (
    _INGEST_LOG
    + """
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

-- file_name and line: a rejected line's source file and line (names kept from version 1)
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
    + FINDINGS_SCHEMA
)

#: Every table of the schema.
TABLES = ("ingest_log", "rounds", "bets", "rejected_records", "findings")
#: The tables a version 1 store always has (verify made the findings table when it ran).
_TABLES_OF_VERSION_1 = ("ingest_log", "rounds", "bets", "rejected_records")
_INGEST_LOG_COLUMNS = (
    "ingest_id, file_name, companion_name, file_sha256, file_size, format, ingested_at,"
    " lines_read, rounds_loaded, bets_loaded, rounds_skipped_duplicate, rejected"
)


def create_schema(connection: sqlite3.Connection) -> None:
    """Create the tables and indexes of a new file, or upgrade one of an earlier version in
    place; refuse a database of a later version."""
    version = _version(connection)
    if version > SCHEMA_VERSION:
        raise InputError(
            f"database schema version {version} is not {SCHEMA_VERSION}: use a newer baccarat-report"
        )
    if version == 0:  # a new file: a write, so only then (readers must not wait on writers)
        connection.executescript(SCHEMA)
        connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    elif version < SCHEMA_VERSION:
        _upgrade(connection)


def _version(connection: sqlite3.Connection) -> int:
    return connection.execute("PRAGMA user_version").fetchone()[0]


def _tables(connection: sqlite3.Connection) -> set[str]:
    return {
        name
        for (name,) in connection.execute("SELECT name FROM sqlite_schema WHERE type = 'table'")
    }


def _upgrade(connection: sqlite3.Connection) -> None:
    """Bring a version 1 store to version 2, in one transaction: all of it or nothing.

    ``ingest_log`` loses its CHECK on the format by SQLite's twelve steps for a change
    ALTER TABLE cannot make (https://sqlite.org/lang_altertable.html#otheralter): foreign
    keys off, a new table, the rows copied, the old table dropped, the new one renamed, the
    foreign keys checked. Another process upgrading at the same time waits for the write
    lock and then finds the work done.
    """
    foreign_keys = connection.execute("PRAGMA foreign_keys").fetchone()[0]
    connection.execute("PRAGMA foreign_keys = OFF")  # no effect inside a transaction
    try:
        connection.execute("BEGIN IMMEDIATE")
        try:
            if _version(connection) == 1:
                _upgrade_1_to_2(connection)
            connection.execute("COMMIT")
        except BaseException:
            connection.execute("ROLLBACK")
            raise
    except sqlite3.OperationalError as error:  # e.g. a file this user may only read
        raise InputError(
            f"the database is of schema version 1 and could not be upgraded to"
            f" {SCHEMA_VERSION} ({error}); nothing was changed"
        ) from None
    finally:
        if foreign_keys:
            connection.execute("PRAGMA foreign_keys = ON")


def _upgrade_1_to_2(connection: sqlite3.Connection) -> None:
    """The steps of version 1 to 2, inside the caller's transaction."""
    new_table = _INGEST_LOG.replace("IF NOT EXISTS ingest_log", "ingest_log_v2")
    connection.execute(new_table)
    connection.execute(
        f"INSERT INTO ingest_log_v2 ({_INGEST_LOG_COLUMNS})"
        f" SELECT {_INGEST_LOG_COLUMNS} FROM ingest_log"
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
    connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


def connect(path: Path, *, create: bool = True) -> sqlite3.Connection:
    """Open the store (creating it and its schema when ``create``), tuned for bulk loads.

    A store of an earlier schema version is upgraded in place (once, atomically); one of a
    later version is refused. The connection is in autocommit mode: callers open explicit
    transactions (``BEGIN IMMEDIATE`` ... ``COMMIT``) so that one file loads all or nothing.
    """
    if not create and not path.is_file():
        raise InputError(f"{path}: no such database (run `baccarat-report ingest` first)")
    try:
        connection = sqlite3.connect(path, isolation_level=None, timeout=60)
    except sqlite3.DatabaseError as error:
        raise InputError(f"{path}: cannot open as a SQLite database ({error})") from None
    try:
        connection.execute("PRAGMA journal_mode = WAL")
        connection.execute("PRAGMA synchronous = NORMAL")
        connection.execute("PRAGMA cache_size = -65536")  # 64 MiB page cache
        if create:
            create_schema(connection)
        else:
            _check_schema(connection, path)
    except sqlite3.DatabaseError as error:
        connection.close()
        raise InputError(f"{path}: cannot open as a SQLite database ({error})") from None
    except BaseException:
        connection.close()
        raise
    return connection


def _check_schema(connection: sqlite3.Connection, path: Path) -> None:
    """Refuse a database that is not (or not yet) a baccarat-report store; upgrade one of an
    earlier version."""
    version = _version(connection)
    if version == 1 and not set(_TABLES_OF_VERSION_1) - _tables(connection):
        _upgrade(connection)
        version = _version(connection)
    missing = set(TABLES) - _tables(connection)
    if version != SCHEMA_VERSION or missing:
        raise InputError(
            f"{path}: not a baccarat-report database (schema version {version},"
            f" missing {', '.join(sorted(missing)) or 'nothing'}); run `baccarat-report ingest`"
            " into a new file first"
        )


def rejected_count(connection: sqlite3.Connection, month: str | None) -> int:
    """Rejected lines bearing on a period: all of them, or for a month those of the files that
    loaded rounds of that month (a rejected line has no month of its own; a file that loaded
    nothing is reported by the ingest that read it)."""
    if month is None:
        return connection.execute("SELECT count(*) FROM rejected_records").fetchone()[0]
    return connection.execute(
        "SELECT count(*) FROM rejected_records WHERE ingest_id IN"
        " (SELECT ingest_id FROM rounds WHERE report_month = ?)",
        (month,),
    ).fetchone()[0]


#: The columns that make a round's content: the same round loaded twice agrees on all of
#: them. They are :class:`reporting.records.Round`'s fields (the store's columns bear the same
#: names) less where it came from, the derived report_month and the bets.
ROUND_CONTENT_FIELDS = tuple(
    name for name in Round.__struct_fields__ if name not in ("report_month", "source_line", "bets")
)


def stored_round_content(connection: sqlite3.Connection, round_id: str) -> tuple | None:
    """A stored round in the form the ingest compares a new record with (its content, bets
    sorted), to tell a duplicate from a conflict."""
    row = connection.execute(
        f"SELECT {', '.join(ROUND_CONTENT_FIELDS)} FROM rounds WHERE round_id = ?", (round_id,)
    ).fetchone()
    if row is None:
        return None
    bets = connection.execute(
        "SELECT bet_id, account, bet_type, stake_cents, payout_cents, currency, placed_at"
        " FROM bets WHERE round_id = ? ORDER BY bet_id",
        (round_id,),
    ).fetchall()
    return (*row, tuple(sorted(bets)))
