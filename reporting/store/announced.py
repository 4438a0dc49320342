"""Files loaded since a monthly run last finished: what the job tells of them, until one does.

A log of October that arrives after October's reports were written is loaded by a later run,
but that run writes November: nothing checks October's late rounds, and October's published
reports do not count them. The run names them (and exits 1), as it names the rejected lines
it read that bear on another month than the one written. It used to name only what it had
read itself: when it stopped before its end (another file of the inbox unreadable, a full
disk), the next run found the files loaded already and exited 0 without a word.

So the store remembers. Each file's rounds, and its rejected lines of a month of their own,
are counted by reporting month as it is loaded (``ingest_months``, in the file's
transaction). A file is *announced* once a monthly run has finished after loading it: that
run counted its rounds in the month it wrote, named them, or left them to their own month's
run. Until then every run tells of it, whoever loaded it (``ingest`` by hand, or a monthly
run that stopped), so a re-run after a failure says what the stopped run would have said.
The store keeps the last month that run wrote (``announced_in``): a run that writes that
month again replaces the report that told of the file, and tells of it again (a re-run of
November on the same day read the same inputs, but its report no longer named a late round
of October, and it exited 0).

A run marks only the files loaded before it read its month (:func:`loaded_through`, taken
then). The ``ingest`` command waits for a monthly run's database lock; a file loaded beside a
run all the same (through the library, which takes no lock) is told of by the next run: marked
with the others, late rounds of the very month being written were called counted while the
published reports did not hold them.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from types import MappingProxyType

__all__ = [
    "UnannouncedRepeats",
    "UnannouncedRounds",
    "loaded_through",
    "mark_announced",
    "record_months",
    "unannounced_files",
    "unannounced_months",
    "unannounced_repeats",
    "unannounced_rounds",
]


@dataclass(frozen=True, slots=True)
class UnannouncedRounds:
    """A file's rounds of one month, the file not yet announced."""

    month: str
    rounds: int
    file: str  # as stored (relative to the inbox for the monthly job's files)
    companion: str | None  # bets.csv of a CSV pair
    sha256: str  # of the file (of both files of a pair)


def record_months(
    connection: sqlite3.Connection,
    ingest_id: int,
    rounds: Mapping[str, int],
    repeated: Mapping[str, int] = MappingProxyType({}),
) -> None:
    """Count a file's ``rounds`` (by month, as loaded) and its stored rejected lines of a month
    of their own, inside the file's open transaction (by ``rejected_by_ingest``: its rows only).
    The months of its ``repeated`` rounds (a re-export's, stored before, given when it holds
    fields no check reads) get a row too, of no round and no rejected line if nothing else:
    :func:`unannounced_repeats`."""
    connection.execute(
        "INSERT INTO ingest_months (ingest_id, report_month, rounds, rejected)"
        " SELECT ?1, month, sum(rounds), sum(rejected) FROM ("
        "  SELECT key AS month, value AS rounds, 0 AS rejected FROM json_each(?2)"
        "  UNION ALL SELECT key, 0, 0 FROM json_each(?3)"
        "  UNION ALL SELECT report_month, 0, count(*) FROM rejected_records"
        "  WHERE ingest_id = ?1 AND report_month IS NOT NULL GROUP BY report_month"
        ") GROUP BY month",
        (ingest_id, json.dumps(dict(rounds)), json.dumps(dict(repeated))),
    )


def loaded_through(connection: sqlite3.Connection) -> int:
    """The newest file loaded (its ingest id; 0 for none): a run marks those up to it."""
    return connection.execute("SELECT coalesce(max(ingest_id), 0) FROM ingest_log").fetchone()[0]


#: A row of ``ingest_months`` (``m``) whose file no report of a month other than those a run
#: writes (``json_each`` of ``?2``) tells of: not announced, or announced by a run whose last
#: month is one of them (its report is being replaced); and that no report of its own month
#: counts (a run wrote that month after the file was loaded: ``counted``).
_UNTOLD = (
    "(m.counted = 0 AND (m.announced = 0 OR m.announced_in IN (SELECT value FROM json_each(?2))))"
)


def _writing(months: Collection[str]) -> str:
    """The months a run writes, as the parameter of :data:`_UNTOLD`."""
    return json.dumps(sorted(months))


def unannounced_rounds(
    connection: sqlite3.Connection, through: int, writing: Collection[str] = ()
) -> list[UnannouncedRounds]:
    """The rounds of the files not yet told of (loaded up to ``through``; ``writing``: the
    months the run writes, whose report told of a file this run tells of again), by file and
    month, in month and load order (a table of a row per file and month: read whole)."""
    return [
        UnannouncedRounds(*row)
        for row in connection.execute(
            "SELECT m.report_month, m.rounds, l.file_name, l.companion_name, l.file_sha256"
            " FROM ingest_months AS m JOIN ingest_log AS l ON l.ingest_id = m.ingest_id"
            f" WHERE {_UNTOLD} AND m.ingest_id <= ?1 AND m.rounds > 0"
            " ORDER BY m.report_month, m.ingest_id",
            (through, _writing(writing)),
        )
    ]


@dataclass(frozen=True, slots=True)
class UnannouncedRepeats:
    """A re-export's month: rounds of it stored before, repeated with fields no check reads,
    and no round of the file loaded in that month (its rejected lines there, if any, are told
    of apart); the file not yet announced."""

    month: str
    file: str
    fields: tuple[str, ...]


def unannounced_repeats(
    connection: sqlite3.Connection, through: int, writing: Collection[str] = ()
) -> list[UnannouncedRepeats]:
    """The months of the files not yet told of (loaded up to ``through``; ``writing``: as
    :func:`unannounced_rounds`) whose rounds they repeat and load none of, with fields no
    check reads (:func:`record_months`), in month and load order."""
    return [
        UnannouncedRepeats(month, file, tuple(json.loads(fields)))
        for month, file, fields in connection.execute(
            "SELECT m.report_month, l.file_name, l.fields_not_read"
            " FROM ingest_months AS m JOIN ingest_log AS l ON l.ingest_id = m.ingest_id"
            f" WHERE {_UNTOLD} AND m.ingest_id <= ?1 AND m.rounds = 0"
            " AND l.fields_not_read != '[]' AND EXISTS (SELECT 1 FROM"
            " json_each(l.duplicate_months) WHERE key = m.report_month)"
            " ORDER BY m.report_month, m.ingest_id",
            (through, _writing(writing)),
        )
    ]


def unannounced_files(
    connection: sqlite3.Connection, through: int, writing: Collection[str] = ()
) -> list[tuple[str, int]]:
    """The files not yet told of (loaded up to ``through``; ``writing``: as
    :func:`unannounced_rounds`), each with its rejected lines: (name, lines). A file of no
    round and no rejected line of a month of its own has no row of ``ingest_months``: its
    lines bear on every month, each month's report shows them."""
    return connection.execute(
        "SELECT file_name, rejected FROM ingest_log WHERE ingest_id IN (SELECT DISTINCT"
        f" m.ingest_id FROM ingest_months AS m WHERE {_UNTOLD} AND m.ingest_id <= ?1)"
        " ORDER BY ingest_id",
        (through, _writing(writing)),
    ).fetchall()


def unannounced_months(
    connection: sqlite3.Connection, through: int, writing: Collection[str] = ()
) -> list[tuple[str, str]]:
    """The months of the rounds and rejected lines of each file not yet told of (loaded up to
    ``through``; ``writing``: as :func:`unannounced_rounds`): (name, month), in load and month
    order. A rejected line of no month of its own bears on its file's months
    (:mod:`reporting.verify.bearing`)."""
    return connection.execute(
        "SELECT log.file_name, m.report_month FROM ingest_months AS m"
        " JOIN ingest_log AS log ON log.ingest_id = m.ingest_id"
        f" WHERE {_UNTOLD} AND m.ingest_id <= ?1"
        " ORDER BY m.ingest_id, m.report_month",
        (through, _writing(writing)),
    ).fetchall()


def mark_announced(connection: sqlite3.Connection, through: int, written: Collection[str]) -> None:
    """A monthly run that wrote the months ``written`` has finished: the files loaded up to
    ``through`` that it told of are announced, in the last month it wrote; and their rows of
    the months it wrote are counted, its reports holding them (a late round of October, loaded
    by hand or in a CSV pair, which October's manifest cannot list by its file's hash, is late
    no more once October is published again)."""
    connection.execute(
        "UPDATE ingest_months AS m SET announced = 1, announced_in = ?3"
        f" WHERE {_UNTOLD} AND m.ingest_id <= ?1",
        (through, _writing(written), max(written, default=None)),
    )
    connection.execute(
        "UPDATE ingest_months SET counted = 1 WHERE counted = 0 AND ingest_id <= ?1"
        " AND report_month IN (SELECT value FROM json_each(?2))",
        (through, _writing(written)),
    )
