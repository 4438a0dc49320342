"""The store's shape held to the schema this release makes (:data:`reporting.store.sql.SCHEMA`),
each time it is opened: a store changed by hand or by another program fails in one line that
names what is wrong, before a command reads or writes a row, never with a traceback halfway
(a column renamed), a wait without end (an index dropped: each bet of a month looked for
among every bet of the store) or a write refused (a trigger on the findings).

- each table's columns must all be there, by name (a store upgraded from an earlier release
  may hold more), each as the schema makes it: its type, NOT NULL, its place in the primary
  key; and each table STRICT. A table made again without them (by a tool that copies tables,
  or by hand) takes a NULL stake or text in a number's column, and a command met it as a
  traceback halfway (``int + NoneType``);
- each JSON text of the files' log (the fields not read, the months already stored) must be
  JSON: SQLite's JSON functions stop a whole statement at one that is not ("malformed JSON",
  a traceback). The log holds a row per file loaded: reading it all is cheap;
- each reporting month of the rounds must be a month (``YYYY-MM``, 1980-01 to 2099-12): a
  round of month ``2026-13`` was in no month's verify, audit or page, and said nowhere. The
  months are read by ``rounds_by_month``, a step per month, not a row per round;
- each index of the schema must be there: one dropped is made again, when the store may be
  written (it holds nothing but what its table holds); read where it is, the store is refused;
- no trigger: the tool makes none, and one would run inside the tool's own writes.
"""

from __future__ import annotations

import sqlite3
from functools import cache
from pathlib import Path

from reporting.errors import InputError
from reporting.records import MONTHS_HANDLED, Month
from reporting.store.damage import CHANGED_OUTSIDE, quoted, said
from reporting.store.sql import INGEST_LOG_JSON, SCHEMA, TABLES

__all__ = ["check_shape"]


class _Shape:
    """The tables' columns and the indexes' statements of :data:`SCHEMA`, as SQLite made them."""

    def __init__(self) -> None:
        made = sqlite3.connect(":memory:")
        try:
            made.executescript(SCHEMA)
            self.columns = {table: _columns(made, table) for table in TABLES}
            self.indexes = dict(
                made.execute(
                    "SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL"
                )
            )
        finally:
            made.close()


@cache
def _shape() -> _Shape:
    return _Shape()


def _columns(connection: sqlite3.Connection, table: str) -> dict[str, tuple[str, int, int]]:
    """Each column of the table by name: its declared type, whether NOT NULL, its place in
    the key."""
    return {
        name: (kind.upper(), notnull, key)
        for _, name, kind, notnull, _, key in connection.execute(f"PRAGMA table_info({table})")
    }


def _said(definition: tuple[str, int, int]) -> str:
    kind, notnull, key = definition
    return " ".join(filter(None, (kind, "NOT NULL" if notnull else "", "KEY" if key else "")))


def check_shape(connection: sqlite3.Connection, path: Path, *, writable: bool) -> None:
    """Refuse (one InputError naming ``path`` and every problem found) a store whose tables
    are not as the schema makes them, whose files' log or months hold what ingest never
    writes, or that holds a trigger; make again an index of the schema it lacks when
    ``writable``, else refuse it too. The store's tables are all there (the caller has
    checked)."""
    shape = _shape()
    columns = _column_problems(connection, shape)
    problems = columns + ([] if columns else _json_problems(connection))
    triggers = [
        name
        for (name,) in connection.execute(
            "SELECT name FROM sqlite_schema WHERE type = 'trigger' ORDER BY name"
        )
    ]
    if triggers:
        problems.append(
            f"holds trigger {said(', '.join(triggers))}, which baccarat-report never makes: it"
            f" was added by another program or by hand; remove it (DROP TRIGGER"
            f" {said(triggers[0])}) or use a copy from before it"
        )
    indexes = {
        name
        for (name,) in connection.execute("SELECT name FROM sqlite_schema WHERE type = 'index'")
    }
    lacking = [name for name in shape.indexes if name not in indexes]
    if lacking and not writable:
        problems.append(
            f"index {', '.join(lacking)} is missing (dropped by another program or by hand), and"
            " the store is read where it is: copy it to writable storage and give the copy as"
            " --db (the index is made again there)"
        )
    if not problems:  # nothing refused: the store may be written
        for name in lacking:
            connection.execute(shape.indexes[name])
        problems = _month_problems(connection)  # read through the months' index
    if problems:
        raise InputError(f"{path}: {'; '.join(problems)}")


def _column_problems(connection: sqlite3.Connection, shape: _Shape) -> list[str]:
    """The columns of the schema the tables lack, and the tables made again otherwise than by
    the schema (a column of another type, one that takes NULL or is out of its key, or a table
    not STRICT), as one problem naming each."""
    strict = {
        name: flag
        for _, name, kind, _, _, flag in connection.execute("PRAGMA main.table_list")
        if kind == "table"
    }
    problems: list[str] = []
    remade: set[str] = set()  # the tables made again otherwise (not those lacking a column)
    for table, expected in shape.columns.items():
        present = _columns(connection, table)
        missing = [column for column in expected if column not in present]
        if missing:
            problems.append(f"table {table} has no column {', '.join(missing)}")
            continue
        differs = [
            f"column {table}.{column} is {_said(present[column])}, where baccarat-report"
            f" makes it {_said(definition)}"
            for column, definition in expected.items()
            if present[column] != definition
        ]
        if strict and not strict.get(table):  # (no table_list before SQLite 3.37)
            differs.insert(
                0,
                f"table {table} is not STRICT, as baccarat-report makes it, and takes any value"
                " in any column",
            )
        if differs:
            problems.extend(differs)
            remade.add(table)
    if not problems:
        return []
    how = (
        "the store was changed"
        if not remade
        else "the table was made again"
        if len(remade) == 1
        else "the tables were made again"
    )
    return [f"{'; '.join(problems)}: {how} {CHANGED_OUTSIDE}"]


def _json_problems(connection: sqlite3.Connection) -> list[str]:
    """Each JSON column of the files' log holding a text that is not JSON, naming a file."""
    problems = []
    for column in INGEST_LOG_JSON:
        found = connection.execute(
            f"SELECT file_name FROM ingest_log WHERE {column} IS NOT NULL"
            f" AND NOT json_valid({column}) LIMIT 1"
        ).fetchone()
        if found is not None:
            problems.append(
                f"the files' log holds, for {said(found[0])}, {column} that is not JSON"
                f" (baccarat-report writes it as JSON): it was changed {CHANGED_OUTSIDE}"
            )
    return problems


#: Each distinct reporting month of the rounds, a step of ``rounds_by_month`` each (SQLite
#: walks every row for DISTINCT or GROUP BY).
_MONTHS = """
WITH RECURSIVE months (month) AS (
    SELECT min(report_month) FROM rounds
    UNION ALL
    SELECT (SELECT min(report_month) FROM rounds WHERE report_month > month)
    FROM months WHERE month IS NOT NULL
)
SELECT month FROM months WHERE month IS NOT NULL
"""


def _month_problems(connection: sqlite3.Connection) -> list[str]:
    """Each reporting month of the rounds that is no month, naming a round of it."""
    problems = []
    first, last = MONTHS_HANDLED
    for (month,) in connection.execute(_MONTHS).fetchall():
        try:
            Month.parse(month)
        except ValueError:
            (round_id,) = connection.execute(
                "SELECT round_id FROM rounds WHERE report_month = ? LIMIT 1", (month,)
            ).fetchone()
            problems.append(
                f"round {said(round_id)} is stored under reporting month {quoted(month)}, no"
                f" month YYYY-MM from {first} to {last}: ingest reckons a round's month from its"
                f" settling time, so the store was changed {CHANGED_OUTSIDE}"
            )
    return problems
