"""Reading rounds back from the store as records, streamed: each round with its bets, and the
files they were read from.

Two streams serve verification. :func:`read_rounds` gives every round of a period in round-id
order with its :class:`~reporting.records.Bet` list; :func:`read_shoes` gives each shoe the
period touches, whole (rounds of other months included) and in hand order, for the card
counts. Both come with a :class:`SourceFiles` naming the round log and the bets file (the
same file but for a CSV pair), so a finding can point back to its record without a query.

The rows are read by two ordered cursors and merged in Python: the memory held is one round
and its bets, whatever the size of the month.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from itertools import groupby, starmap
from operator import attrgetter
from typing import NamedTuple

from reporting.records import FINDING_SEVERITY, Bet, Finding, Round, Severity, severity_rank
from reporting.store.damage import damaged

__all__ = ["SourceFiles", "read_findings", "read_rounds", "read_shoes", "source_files"]


class SourceFiles(NamedTuple):
    """Where a round and its bets were read from: the round log as the ingest was given it,
    and the file of its bets (``bets.csv`` of a CSV pair, the round log itself otherwise)."""

    rounds: str
    bets: str


#: The columns of a :class:`Round` in its field order (without the bets), then the ingest id:
#: the store's column names are the records' field names.
_ROUND_COLUMNS = ", ".join(
    [f"r.{name}" for name in Round.__struct_fields__ if name != "bets"] + ["r.ingest_id"]
)
#: The columns of a :class:`Bet` in its field order.
_BET_COLUMNS = ", ".join(f"b.{name}" for name in Bet.__struct_fields__)
#: Where a row of :data:`_ROUND_COLUMNS` ends its round's fields (the ingest id follows).
_INGEST_ID = len(Round.__struct_fields__) - 1
_bet_round = attrgetter("round_id")


def source_files(connection: sqlite3.Connection) -> dict[int, SourceFiles]:
    """The files of every ingest, by ingest id."""
    return {
        ingest_id: SourceFiles(name, companion or name)
        for ingest_id, name, companion in connection.execute(
            "SELECT ingest_id, file_name, companion_name FROM ingest_log"
        )
    }


def _scope(month: str | None, alias: str) -> tuple[str, tuple]:
    if month is None:
        return "1", ()
    return f"{alias}.report_month = ?", (month,)


#: A partition's tables: (game id, table id) pairs, as one JSON array of pairs.
_IN_TABLES = (
    "({alias}.game_id, {alias}.table_id) IN (SELECT value ->> 0, value ->> 1 FROM json_each(?))"
)


def _tables_scope(
    month: str | None, tables: Sequence[tuple[str, str]] | None, alias: str
) -> tuple[str, tuple]:
    """The month's condition, and the tables' when only some tables are read."""
    where, params = _scope(month, alias)
    if tables is None:
        return where, params
    return f"{where} AND {_IN_TABLES.format(alias=alias)}", (*params, json.dumps(tables))


def read_rounds(
    connection: sqlite3.Connection,
    month: str | None = None,
    tables: Sequence[tuple[str, str]] | None = None,
) -> Iterator[tuple[Round, SourceFiles]]:
    """Every round of ``month`` (``YYYY-MM``, or every month) in round-id order, with its bets
    in bet-id order, and the files it came from; of only some tables, given as (game id,
    table id) pairs, for a partition of the work (the bets then read a chunk of rounds at a
    time)."""
    files = source_files(connection)
    if tables is not None:
        where, params = _tables_scope(month, tables, "r")
        games = json.dumps(sorted({game_id for game_id, _table_id in tables}))
        rounds = connection.execute(_TABLES_ROUNDS.format(where=where), (games, *params))
        yield from _with_bets_by_chunk(connection, rounds, files)
        return
    where, params = _scope(month, "r")
    rounds = connection.execute(
        f"SELECT {_ROUND_COLUMNS} FROM rounds AS r WHERE {where} ORDER BY r.round_id", params
    )
    bets_query = f"SELECT {_BET_COLUMNS} FROM bets AS b"
    if month is None:
        bet_rows = connection.execute(bets_query + " ORDER BY b.round_id, b.bet_id")
    else:  # the month's round ids (by rounds_by_month), then their bets by primary key: no sort
        bet_rows = connection.execute(
            bets_query + f" WHERE b.round_id IN (SELECT r.round_id FROM rounds AS r WHERE {where})"
            " ORDER BY b.round_id, b.bet_id",
            params,
        )
    yield from _with_bets(rounds, bet_rows, files)


def _with_bets(
    rounds: Iterable[tuple], bet_rows: Iterable[tuple], files: dict[int, SourceFiles]
) -> Iterator[tuple[Round, SourceFiles]]:
    """Round rows and bet rows, both in round-id order, merged into rounds with their bets."""
    groups = groupby(starmap(Bet, bet_rows), key=_bet_round)
    bets_round, group = next(groups, (None, None))
    for row in rounds:
        round_id = row[0]
        # Both cursors run in round-id order (SQLite's and Python's text order agree).
        while bets_round is not None and bets_round < round_id:
            bets_round, group = next(groups, (None, None))
        if bets_round == round_id:
            bets = list(group)
            bets_round, group = next(groups, (None, None))
        else:
            bets = []
        found = files.get(row[_INGEST_ID])
        if found is None:  # the file's row deleted from the log, foreign keys off
            raise damaged(
                round_id,
                f"no file it was loaded from (file {row[_INGEST_ID]} of the files' log is gone)",
            )  # named with the store's file by the reader's database_faults
        yield Round(*row[:_INGEST_ID], bets), found


#: Some tables' rounds of a period (the games' ids as a JSON array, then the scope's
#: parameters), found table by table by ``rounds_by_game_month`` (game, month, table) and
#: sorted by round id. Left to choose, SQLite walks every round of the month in round-id order
#: (``rounds_by_month``, no sort) and drops the other tables' rounds: each partition read the
#: whole month (forty-eight of them, a month's tables, took 2.3 times as long to read as by
#: this query). The sort holds no more than SQLite's cache in memory: past it, its sorter
#: spills to a temporary file.
_TABLES_ROUNDS = (
    f"SELECT {_ROUND_COLUMNS} FROM rounds AS r INDEXED BY rounds_by_game_month"
    " WHERE r.game_id IN (SELECT value FROM json_each(?)) AND {where} ORDER BY r.round_id"
)
#: The bets of some rounds (a JSON array of round ids), by the bets' primary key: in round-id
#: order without a sort.
_BETS_OF = (
    f"SELECT {_BET_COLUMNS} FROM bets AS b WHERE b.round_id IN (SELECT value FROM json_each(?))"
    " ORDER BY b.round_id, b.bet_id"
)
_CHUNK = 512


def _with_bets_by_chunk(
    connection: sqlite3.Connection, rounds: sqlite3.Cursor, files: dict[int, SourceFiles]
) -> Iterator[tuple[Round, SourceFiles]]:
    """A few tables' rounds (in round-id order) with their bets, fetched a chunk of rounds at
    a time by primary key: cheaper than sorting every bet of the tables, and as flat."""
    while chunk := rounds.fetchmany(_CHUNK):
        ids = json.dumps([row[0] for row in chunk])
        yield from _with_bets(chunk, connection.execute(_BETS_OF, (ids,)), files)


def read_shoes(
    connection: sqlite3.Connection,
    month: str | None = None,
    tables: Sequence[tuple[str, str]] | None = None,
) -> Iterator[list[tuple[Round, SourceFiles]]]:
    """Each shoe holding a round of ``month`` (or every shoe), whole: all its rounds, of any
    month, in hand order (then settlement time and round id), with the files they came from;
    or only the shoes holding such a round of some tables.

    A shoe is a table's: two tables that log the same shoe id (a provider numbering each
    table's shoes S01, S02, ...) deal from two shoes, whose cards are counted apart.

    The rounds come without their bets (``bets`` is empty): card counts need only the cards.
    """
    files = source_files(connection)
    where, params = _tables_scope(month, tables, "m")
    cursor = connection.execute(
        f"SELECT {_ROUND_COLUMNS} FROM rounds AS r WHERE r.shoe_id IS NOT NULL"
        " AND (r.shoe_id, r.table_id) IN (SELECT m.shoe_id, m.table_id FROM rounds AS m"
        f" WHERE m.shoe_id IS NOT NULL AND {where})"
        " ORDER BY r.shoe_id, r.table_id, r.hand_no, r.settled_at, r.round_id",
        params,
    )
    rounds = ((Round(*row[:_INGEST_ID], []), files[row[_INGEST_ID]]) for row in cursor)
    for _shoe, shoe in groupby(rounds, key=_shoe_of):
        yield list(shoe)


def _shoe_of(item: tuple[Round, SourceFiles]) -> tuple[str | None, str]:
    """The shoe a round is dealt from: its shoe id at its table."""
    return item[0].shoe_id, item[0].table_id


#: The columns of a :class:`Finding` as the store names them, in the record's field names.
_FINDING_COLUMNS = (
    "kind, game_id, report_month, round_id, source_file, source_line, message, bet_id,"
    " expected_payout_cents AS expected_payout, logged_payout_cents AS logged_payout, rule"
)


def read_findings(
    connection: sqlite3.Connection, month: str | None, games: Iterable[str]
) -> Iterator[Finding]:
    """Every stored finding of ``month`` (None: of every month) on one of ``games``, streamed
    in :func:`~reporting.records.finding_order` (SQLite sorts: one row in memory at a time)."""
    where, params = ("1", ()) if month is None else ("report_month = ?", (month,))
    ranks = json.dumps({kind: severity_rank(kind) for kind in FINDING_SEVERITY})
    cursor = connection.execute(
        f"SELECT {_FINDING_COLUMNS} FROM findings"
        f" WHERE {where} AND game_id IN (SELECT value FROM json_each(?))"
        " ORDER BY coalesce(json_extract(?, '$.' || json_quote(kind)), ?),"
        " source_file, source_line, kind, coalesce(bet_id, '')",
        (*params, json.dumps(sorted(games)), ranks, Severity.LOW.rank),
    )
    names = [column[0] for column in cursor.description]
    for row in cursor:
        yield Finding(**dict(zip(names, row, strict=True)))
