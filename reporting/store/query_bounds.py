"""The bounds of a query someone runs on the store through ``baccarat-report serve``, each
with the reason for its value.

Datasette lets anyone who reaches the server run their own SELECT. Its time limit
(:data:`TIME_LIMIT_MS`) is checked between SQLite's instructions, so it cannot stop one
instruction that allocates a gigabyte (``randomblob(1000000000)``), nor rows that are cheap
to make and large to hold; the bounds here hold the memory of one query to a few hundred
megabytes whatever its SQL:

* a value (a string, a blob, a row SQLite builds) is at most :data:`MAX_VALUE_BYTES`;
* SQLite's whole heap in the process is at most :data:`SQLITE_HEAP_BYTES`: the values a row
  holds at once, an aggregate's state, a sort, a recursive query's queue;
* the rows handed to Python are at most :data:`MAX_RESULT_BYTES` of Python objects per query
  (Datasette renders them as JSON or HTML, a few times their size).

:func:`bound_connection` applies the first and the last to each connection Datasette opens
(with ``fts3_tokenizer()`` refused), :func:`bound_sqlite_heap` the heap bound to the process.
"""

from __future__ import annotations

import sqlite3
import sys
from collections.abc import Callable
from typing import Any

from reporting.ingest.limits import RAW_TEXT_LIMIT

__all__ = [
    "MAX_CSV_MB",
    "MAX_RETURNED_ROWS",
    "MAX_LIKE_PATTERN_BYTES",
    "MAX_REQUESTS",
    "MAX_RESULT_BYTES",
    "MAX_VALUE_BYTES",
    "REFUSED_FUNCTIONS",
    "SQLITE_HEAP_BYTES",
    "TIME_LIMIT_MS",
    "ResultTooLarge",
    "bound_connection",
    "bound_sqlite_heap",
]

#: Milliseconds a query may run (Datasette's ``sql_time_limit_ms``): a browsing question on a
#: month of rounds answers in well under a second; anything slower is stopped.
TIME_LIMIT_MS = 5_000

#: Bytes of one string, blob or row (SQLite's ``SQLITE_LIMIT_LENGTH``, 1,000,000,000 by
#: default). The longest value the store holds is a rejected line's raw text
#: (:data:`~reporting.ingest.limits.RAW_TEXT_LIMIT` characters, 4 bytes each at most) and a
#: row of the store a few of its values: twelve times that reads every row ingest writes, and
#: refuses ``randomblob(1000000000)`` before it is allocated. It also bounds the one SQLite
#: instruction the time limit cannot stop: ``instr`` and ``replace`` cost the product of
#: their arguments' lengths, 1.5 s for the longest values here, 6 minutes at 8 MiB.
MAX_VALUE_BYTES = 12 * 4 * RAW_TEXT_LIMIT

#: Bytes of a LIKE or GLOB pattern (SQLite's ``SQLITE_LIMIT_LIKE_PATTERN_LENGTH``, 50,000 by
#: default): matching costs the text's length times the pattern's, in one instruction the
#: time limit cannot stop (a 10,000-byte pattern over 2 MB of text took 26 s). A browsing
#: pattern (``'%LB-IT-01%'``) is a few dozen; a thousand bytes over the longest value take
#: well under a second.
MAX_LIKE_PATTERN_BYTES = 1_000

#: Bytes of SQLite's heap in the serving process (``PRAGMA hard_heap_limit``): past it a
#: query fails with "out of memory" and the server carries on. Each connection's page cache
#: is 2 MiB and a sort spills to temporary files past that, so the store's own queries use a
#: few megabytes; 128 MiB holds some 250 values of :data:`MAX_VALUE_BYTES` at once.
SQLITE_HEAP_BYTES = 128 * 1024 * 1024

#: Bytes of Python objects (each row, and each of its values, as ``sys.getsizeof`` counts
#: them) one query hands to Datasette. A page of 2,000 rows (Datasette's most) of rounds, the
#: widest table, takes 1.8 MiB; rejected lines at their longest (10,000 characters) fit some
#: 800 to a query. Sending rows as JSON takes some 30 times their size at worst
#: (6 bytes for a control character, copied on its way out): 8 MiB of rows peaked at about
#: 320 MiB of the server's memory, 32 MiB passed 1 GiB.
MAX_RESULT_BYTES = 8 * 1024 * 1024

#: Requests ``serve`` answers at once; the others wait their turn. Each may hold a query's
#: rows (:data:`MAX_RESULT_BYTES`) and their JSON, some 30 times that at worst: 100 clients
#: at once, each asking for 42 MB of JSON, took the server to 4.2 GB answered together, and
#: to 1.4 GB four at a time (1.0 GB for 40 clients, 0.7 GB for 10). A person browsing (a
#: page and its few queries) waits only behind other clients' answers being sent.
MAX_REQUESTS = 4

#: Rows of a query's answer (Datasette's ``max_returned_rows``): a page of a table shows
#: fewer and links to the next; a query written in the SQL box stops there, said on its page
#: and in its JSON (``truncated``), and its CSV is refused rather than cut there without a
#: mark. A table's or a view's CSV is read page by page and holds every row.
MAX_RETURNED_ROWS = 2000

#: Megabytes of one CSV download (Datasette's ``max_csv_mb``, its default): a table streamed
#: whole (``?_stream=on``) ends past it with Datasette's last line "CSV contains more than
#: ... bytes", not the rows after. A month of a busy operator's bets is several times that:
#: ``baccarat-report export --parquet`` is the copy for analysis, with no such bound.
MAX_CSV_MB = 100

#: SQL functions no query may call (a query calling one is refused when it is prepared).
#: ``fts3_tokenizer()`` hands out (and, with two arguments, takes) the address of a
#: tokenizer's C functions: code execution where SQLite is built with
#: ``SQLITE_ENABLE_FTS3_TOKENIZER``, as Debian's is (and Python's ``sqlite3`` before 3.12 has
#: no ``setconfig`` to turn it off). ``printf()`` (``format()``) writes a width or precision
#: the query gives (``'%.*c', 2147483647``) in one instruction before :data:`MAX_VALUE_BYTES`
#: is checked: 11 s a call, which the time limit cannot stop, and a table page's filter
#: repeats it in each of its fifty queries (ten minutes of a core for one request).
REFUSED_FUNCTIONS = frozenset({"fts3_tokenizer", "printf", "format"})


class ResultTooLarge(sqlite3.OperationalError):
    """A query's rows exceed :data:`MAX_RESULT_BYTES` (an OperationalError, so that Datasette
    shows it as the query's error, as it shows SQLite's own)."""


def bound_connection(connection: sqlite3.Connection) -> None:
    """Bound what a query on ``connection`` may make: values of at most
    :data:`MAX_VALUE_BYTES`, patterns of at most :data:`MAX_LIKE_PATTERN_BYTES`, rows of at most :data:`MAX_RESULT_BYTES` in all (counted by the
    connection's row factory, which keeps making the rows it made), no call of
    :data:`REFUSED_FUNCTIONS`."""
    connection.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, MAX_VALUE_BYTES)
    connection.setlimit(sqlite3.SQLITE_LIMIT_LIKE_PATTERN_LENGTH, MAX_LIKE_PATTERN_BYTES)
    connection.set_authorizer(_refuse_functions)
    connection.row_factory = _ResultBudget(connection.row_factory)


def bound_sqlite_heap() -> None:
    """Hold SQLite's heap in this process to :data:`SQLITE_HEAP_BYTES` (the bound is the
    process's, across every connection: call it in a process that only serves)."""
    connection = sqlite3.connect(":memory:")
    try:
        connection.execute(f"PRAGMA hard_heap_limit = {SQLITE_HEAP_BYTES}")
    finally:
        connection.close()


def _refuse_functions(action: int, _: str | None, name: str | None, *__: str | None) -> int:
    # SQLITE_FUNCTION names the function in the second argument (the first is NULL).
    refused = action == sqlite3.SQLITE_FUNCTION and (name or "").lower() in REFUSED_FUNCTIONS
    return sqlite3.SQLITE_DENY if refused else sqlite3.SQLITE_OK


class _ResultBudget:
    """A row factory that counts the Python memory of the rows of each cursor (each query)
    and raises :class:`ResultTooLarge` past :data:`MAX_RESULT_BYTES`. A connection runs one
    query at a time, so a new cursor starts a new count."""

    def __init__(self, make_row: Callable[[sqlite3.Cursor, tuple], Any] | None) -> None:
        self.make_row = make_row
        self.cursor: sqlite3.Cursor | None = None
        self.spent = 0

    def __call__(self, cursor: sqlite3.Cursor, row: tuple) -> Any:
        if cursor is not self.cursor:
            self.cursor, self.spent = cursor, 0
        self.spent += sys.getsizeof(row) + sum(map(sys.getsizeof, row))
        if self.spent > MAX_RESULT_BYTES:
            raise ResultTooLarge(
                f"the query's rows take more than {MAX_RESULT_BYTES // 2**20} MiB, the most"
                " one query may return here: ask for fewer rows or columns, or shorter values"
            )
        return row if self.make_row is None else self.make_row(cursor, row)
