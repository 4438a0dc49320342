"""Rounds loaded after their month was written: what the monthly job names, until a run ends.

A log of October that arrives after October's reports were written is loaded by a later run,
but that run writes November: nothing checks October's late rounds, and October's published
reports do not count them. The run names them (and exits 1). It used to name only the rounds
it had read itself: when it stopped before its end (another file of the inbox unreadable, a
full disk), the next run found the late file loaded already and exited 0 without a word.

So the store remembers. Each file's rounds, and its rejected lines of a month of their own,
are counted by reporting month as it is loaded (``ingest_months``, in the file's transaction).
A month's count is *announced* once a monthly run that wrote that month, or a later one, has
finished: its reports counted them, or its summary named them. Until then every run that
writes a later month names them, whoever loaded them (``ingest`` by hand, or a monthly run
that stopped), so a re-run after a failure says what the failed run would have said.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass

__all__ = ["Unannounced", "mark_announced", "record_months", "unannounced_before"]


@dataclass(frozen=True, slots=True)
class Unannounced:
    """Rounds and rejected lines of one month loaded since a run last wrote or named it."""

    month: str
    rounds: int
    rejected: int

    @property
    def counted(self) -> str:
        """``3 rounds and 1 rejected line``: what of the month no report counts."""
        parts = [(self.rounds, "round"), (self.rejected, "rejected line")]
        return " and ".join(f"{n:,} {what}{'' if n == 1 else 's'}" for n, what in parts if n)

    @property
    def are(self) -> str:
        """The verb that agrees with :attr:`counted`."""
        return "is" if self.rounds + self.rejected == 1 else "are"


def record_months(
    connection: sqlite3.Connection, ingest_id: int, rounds: Mapping[str, int]
) -> None:
    """Count a file's ``rounds`` (by month, as loaded) and its stored rejected lines of a month
    of their own, inside the file's open transaction (by ``rejected_by_ingest``: its rows only)."""
    connection.execute(
        "INSERT INTO ingest_months (ingest_id, report_month, rounds, rejected)"
        " SELECT ?1, month, sum(rounds), sum(rejected) FROM ("
        "  SELECT key AS month, value AS rounds, 0 AS rejected FROM json_each(?2)"
        "  UNION ALL SELECT report_month, 0, count(*) FROM rejected_records"
        "  WHERE ingest_id = ?1 AND report_month IS NOT NULL GROUP BY report_month"
        ") GROUP BY month",
        (ingest_id, json.dumps(dict(rounds))),
    )


def unannounced_before(connection: sqlite3.Connection, month: str) -> list[Unannounced]:
    """The rounds and rejected lines of months before ``month`` that no finished monthly run
    has written or named, by month (a table of a row per file and month: read whole)."""
    return [
        Unannounced(*row)
        for row in connection.execute(
            "SELECT report_month, sum(rounds), sum(rejected) FROM ingest_months"
            " WHERE announced = 0 AND report_month < ? GROUP BY report_month"
            " ORDER BY report_month",
            (month,),
        )
    ]


def mark_announced(connection: sqlite3.Connection, through: str) -> None:
    """A monthly run that wrote ``through`` has finished: the rounds of that month and of
    every month before it are announced (counted or named). Later months wait for theirs."""
    connection.execute(
        "UPDATE ingest_months SET announced = 1 WHERE announced = 0 AND report_month <= ?",
        (through,),
    )
