"""The store's SQL: its tables, indexes and views as text, with the schema's version and the
mark of our stores (:mod:`reporting.store.schema` opens a store and makes or checks them)."""

from __future__ import annotations

__all__ = [
    "APPLICATION_ID",
    "FINDINGS_SCHEMA",
    "GAME_MONTH_INDEX",
    "INGEST_LOG",
    "INGEST_LOG_COLUMNS",
    "INGEST_LOG_JSON",
    "INGEST_MONTHS",
    "MONTH_INDEXES",
    "REJECTS_BY_MONTH",
    "SCHEMA",
    "SCHEMA_VERSION",
    "TABLES",
    "TABLES_OF_VERSION_1",
    "TABLES_OF_VERSION_2",
    "VIEWS",
    "VIEW_NAMES",
]

#: The schema's version, kept in ``PRAGMA user_version``. 1: the first release (no CHECK
#: lifted, the findings table made by verify when it first ran); 2: the findings table is
#: part of the schema, and ``ingest_log.format`` is checked by the table of input formats
#: (:data:`reporting.ingest.formats.FORMATS`) instead of a CHECK that new formats would break;
#: 3: ``ingest_log`` names the log profile that read each file, and its hash; 4: a finding
#: points to its round and bet by foreign keys (Datasette links them), and the views a
#: compliance officer browses (:data:`VIEWS`); 5: the indexes by which a month's verification
#: reads that month only (:data:`MONTH_INDEXES`); 6: a rejected line keeps its reporting
#: month where its game and settlement time could be read (``rejected_records.report_month``);
#: 7: the rounds' index by game and month holds the table too (:data:`GAME_MONTH_INDEX`);
#: 8: each file's rounds and rejected lines by reporting month, and whether a monthly run
#: has told of them (:data:`INGEST_MONTHS`); 9: the fields of each file the tool does not
#: read (``ingest_log.fields_not_read``); 10: each file's rounds already stored, by month
#: (``ingest_log.duplicate_months``: a re-export is behind the months it repeats); 11: the
#: month whose report told of each file (``ingest_months.announced_in``: a run that writes
#: that month again tells of it again, its report replacing the one that did), and whether a
#: report of the file's month counts what it holds there (``ingest_months.counted``).
SCHEMA_VERSION = 11

#: ``PRAGMA application_id`` of every store this tool makes ("BacR"): the mark that tells our
#: database from another application's SQLite file before anything is written to it. Stores
#: made before the mark existed are recognised by their version and tables, and marked.
APPLICATION_ID = int.from_bytes(b"BacR", "big")

INGEST_LOG = """
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
    rejected         INTEGER NOT NULL DEFAULT 0,
    profile          TEXT,              -- the log profile that read it; NULL: the spec's log
    profile_sha256   TEXT,              -- the profile file's sha256 (NULL: the spec's log)
    fields_not_read  TEXT,              -- JSON list of the fields no check reads; NULL: not looked for
    duplicate_months TEXT               -- JSON {month: its rounds already stored}; NULL: not kept
) STRICT;
"""

#: The columns of the files' log that hold JSON texts (SQLite's JSON functions read them,
#: and stop a whole statement at one that is not JSON); its others hold text and numbers.
INGEST_LOG_JSON = ("fields_not_read", "duplicate_months")

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
    message         TEXT NOT NULL,
    FOREIGN KEY (round_id) REFERENCES rounds (round_id),
    FOREIGN KEY (round_id, bet_id) REFERENCES bets (round_id, bet_id)
) STRICT;
CREATE INDEX IF NOT EXISTS findings_by_month ON findings (report_month, kind);
"""

#: The indexes by which verify of a month reads that month and nothing else, however many
#: months the store holds: the month's rounds in round-id order (its bets follow by their
#: primary key, its shoes by ``rounds_by_shoe``), and each of its bet ids looked up among every
#: bet of the store (``duplicate_bet_id``: a bet id is unique across the whole store).
MONTH_INDEXES = """
CREATE INDEX IF NOT EXISTS rounds_by_month ON rounds (report_month, round_id);
CREATE INDEX IF NOT EXISTS bets_by_bet_id ON bets (bet_id);
"""

#: The index by which a partition of a month's verification reads its own tables' rounds and
#: no other's (schema version 7; by game and month alone before, each partition walked every
#: round of its game's month: a month of twenty tables of one game, twenty times).
GAME_MONTH_INDEX = """
CREATE INDEX IF NOT EXISTS rounds_by_game_month ON rounds (game_id, report_month, table_id);
"""

#: The index by which a month finds the rejected lines that name it (schema version 6).
REJECTS_BY_MONTH = """
CREATE INDEX IF NOT EXISTS rejected_by_month ON rejected_records (report_month)
    WHERE report_month IS NOT NULL;
"""

#: Each loaded file's rounds, and rejected lines of a month of their own, by reporting month,
#: counted when it is loaded (schema version 8). ``announced`` (the same on every row of a
#: file): 1 once a monthly run has finished after loading the file, having counted, named or
#: left to their own month's run what it holds (:mod:`reporting.store.announced`); 0 until
#: then, whoever loaded it (``ingest``, or a monthly run that stopped before its end).
#: ``announced_in`` (version 11): the last month that run wrote, whose report told of the
#: file; NULL until then, and for the files announced before version 11. ``counted``
#: (version 11): 1 once a monthly run has written the row's month after loading the file, its
#: report counting the file's rounds of the month (and naming its rejected lines and fields
#: there): nothing of them is late any more, whatever file or pair brought them.
INGEST_MONTHS = """
CREATE TABLE IF NOT EXISTS ingest_months (
    ingest_id    INTEGER NOT NULL REFERENCES ingest_log (ingest_id),
    report_month TEXT NOT NULL,
    rounds       INTEGER NOT NULL DEFAULT 0,
    rejected     INTEGER NOT NULL DEFAULT 0,
    announced    INTEGER NOT NULL DEFAULT 0 CHECK (announced IN (0, 1)),
    announced_in TEXT,
    counted      INTEGER NOT NULL DEFAULT 0 CHECK (counted IN (0, 1)),
    PRIMARY KEY (ingest_id, report_month)
) STRICT, WITHOUT ROWID;
"""

#: Views over the tables for a person browsing the store (``baccarat-report serve``, the
#: sqlite3 shell): money in cents, times in UTC, as in the tables.
VIEWS = """
CREATE VIEW IF NOT EXISTS finding_evidence AS
SELECT f.finding_id, f.kind, f.game_id, f.report_month, f.round_id, f.bet_id,
    r.table_id, r.shoe_id, r.hand_no, r.settled_at, r.status, r.player_cards, r.banker_cards,
    b.account, b.bet_type, b.stake_cents, b.payout_cents,
    f.expected_payout_cents, f.logged_payout_cents, f.rule,
    f.source_file || ':' || f.source_line AS source, f.message
FROM findings AS f
JOIN rounds AS r ON r.round_id = f.round_id
LEFT JOIN bets AS b ON b.round_id = f.round_id AND b.bet_id = f.bet_id;

CREATE VIEW IF NOT EXISTS void_rounds AS
SELECT r.round_id, r.game_id, r.table_id, r.shoe_id, r.hand_no, r.settled_at, r.report_month,
    r.void_reason, count(b.bet_id) AS bets, coalesce(sum(b.stake_cents), 0) AS stakes_cents,
    coalesce(sum(b.payout_cents), 0) AS refunded_cents,
    i.file_name || ':' || r.source_line AS source
FROM rounds AS r
JOIN ingest_log AS i ON i.ingest_id = r.ingest_id
LEFT JOIN bets AS b ON b.round_id = r.round_id
WHERE r.status = 'void'
GROUP BY r.round_id;

CREATE VIEW IF NOT EXISTS money_by_table_and_utc_day AS
SELECT r.game_id, r.report_month, r.table_id, substr(r.settled_at, 1, 10) AS utc_day,
    b.currency, count(DISTINCT r.round_id) AS rounds, count(*) AS bets,
    count(DISTINCT b.account) AS accounts, sum(b.stake_cents) AS stakes_cents,
    sum(b.payout_cents) AS payouts_cents, sum(b.stake_cents) - sum(b.payout_cents) AS ggr_cents
FROM rounds AS r
JOIN bets AS b ON b.round_id = r.round_id
WHERE r.status = 'settled'
GROUP BY r.game_id, r.report_month, r.table_id, utc_day, b.currency;
"""

#: The views' names, in :data:`VIEWS` order.
VIEW_NAMES = ("finding_evidence", "void_rounds", "money_by_table_and_utc_day")

#: The whole schema of a new store.
SCHEMA = (
    INGEST_LOG
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
    raw_text    TEXT NOT NULL,
    report_month TEXT               -- YYYY-MM of the line's settled_at in its game's time
                                    -- zone, where both could be read; NULL: see its file
) STRICT;

CREATE INDEX IF NOT EXISTS rounds_by_shoe ON rounds (shoe_id, hand_no) WHERE shoe_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS rejected_by_ingest ON rejected_records (ingest_id, line);
"""
    + GAME_MONTH_INDEX
    + REJECTS_BY_MONTH
    + MONTH_INDEXES
    + FINDINGS_SCHEMA
    + INGEST_MONTHS
    + VIEWS
)

#: Every table of the schema.
TABLES = ("ingest_log", "rounds", "bets", "rejected_records", "findings", "ingest_months")
#: The tables a version 1 store always has (verify made the findings table when it ran).
TABLES_OF_VERSION_1 = ("ingest_log", "rounds", "bets", "rejected_records")
TABLES_OF_VERSION_2 = (*TABLES_OF_VERSION_1, "findings")
INGEST_LOG_COLUMNS = (
    "ingest_id, file_name, companion_name, file_sha256, file_size, format, ingested_at,"
    " lines_read, rounds_loaded, bets_loaded, rounds_skipped_duplicate, rejected"
)
