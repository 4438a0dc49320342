"""A columnar copy of the store for analysts: rounds, bets and findings as Parquet files,
partitioned by month, game and table (``rounds/report_month=2026-10/game_id=.../table_id=...
/part-0.parquet``, the Hive layout DuckDB, Spark, pandas and pyarrow read as columns).

The copy is the store's canonical content, typed for analysis: money stays integer cents
(``int64``), times become UTC timestamps to the millisecond, the source file is named (not
its ingest id). A partition is read from SQLite and written a row group at a time
(:data:`ROW_GROUP` rows), so memory stays flat however large the month. The whole copy is
written into a staging folder beside the target and swapped in by renames: a reader never
meets a half-written copy, and a failed export leaves the previous one as it was (a full disk
or a read-only folder is one line naming the folder). A period without a round is refused
before anything is touched (:class:`NothingToExport`): an empty copy would replace a full one.
The same store gives the same files (pyarrow's version aside, which each file names).
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from reporting.errors import InputError
from reporting.files import (
    check_replaceable,
    clear_staging,
    environment_fault,
    hold_lock,
    make_staging,
    refuse_foreign,
    repair_folder_swap,
    swap_in_folder,
)
from reporting.records import STORED_TIME
from reporting.store.damage import is_stored_time, no_time
from reporting.store.schema import read_unchanged

__all__ = ["MARKER", "ROW_GROUP", "TABLES", "ExportResult", "NothingToExport", "export_parquet"]

#: Rows per row group (and per batch read from SQLite).
ROW_GROUP = 100_000
#: The file that marks a folder as an export of ours (and may be replaced by the next one).
MARKER = "_baccarat_report_export.json"
#: The longest partition value written as itself (percent-encoded); a longer one, which only
#: a hostile or broken log gives, is written as ``~`` and a hash, named in the marker file.
MAX_SEGMENT = 100

_TIME = pa.timestamp("ms", tz="UTC")

#: The stored form of a time (:data:`~reporting.records.STORED_TIME`), anchored,
#: for Arrow's regular expressions; the day's calendar is Arrow's cast's to refuse.
_STORED = f"^{STORED_TIME.pattern}$"

#: Per table of the copy: its columns (SQL over the store, Arrow type), the FROM clause, and
#: the partition columns (the rows' month, game and table).
_ROUNDS = (
    [
        ("r.round_id", "round_id", pa.string()),
        ("r.shoe_id", "shoe_id", pa.string()),
        ("r.hand_no", "hand_no", pa.int64()),
        ("r.started_at", "started_at", _TIME),
        ("r.betting_closed_at", "betting_closed_at", _TIME),
        ("r.settled_at", "settled_at", _TIME),
        ("r.status", "status", pa.string()),
        ("r.void_reason", "void_reason", pa.string()),
        ("r.player_cards", "player_cards", pa.string()),
        ("r.banker_cards", "banker_cards", pa.string()),
        ("i.file_name", "source_file", pa.string()),
        ("r.source_line", "source_line", pa.int64()),
    ],
    "rounds AS r JOIN ingest_log AS i ON i.ingest_id = r.ingest_id",
    "r.round_id",
)
_BETS = (
    [
        ("b.round_id", "round_id", pa.string()),
        ("b.bet_id", "bet_id", pa.string()),
        ("b.account", "account", pa.string()),
        ("b.bet_type", "bet_type", pa.string()),
        ("b.stake_cents", "stake_cents", pa.int64()),
        ("b.payout_cents", "payout_cents", pa.int64()),
        ("b.currency", "currency", pa.string()),
        ("b.placed_at", "placed_at", _TIME),
        # A bet's line is in bets.csv for a CSV pair (its companion), in the log otherwise.
        ("coalesce(i.companion_name, i.file_name)", "source_file", pa.string()),
        ("b.source_line", "source_line", pa.int64()),
    ],
    "bets AS b JOIN rounds AS r ON r.round_id = b.round_id"
    " JOIN ingest_log AS i ON i.ingest_id = r.ingest_id",
    "b.round_id, b.bet_id",
)
_FINDINGS = (
    [
        ("f.finding_id", "finding_id", pa.int64()),
        ("f.kind", "kind", pa.string()),
        ("f.round_id", "round_id", pa.string()),
        ("f.bet_id", "bet_id", pa.string()),
        ("f.expected_payout_cents", "expected_payout_cents", pa.int64()),
        ("f.logged_payout_cents", "logged_payout_cents", pa.int64()),
        ("f.rule", "rule", pa.string()),
        ("f.source_file", "source_file", pa.string()),
        ("f.source_line", "source_line", pa.int64()),
        ("f.message", "message", pa.string()),
    ],
    "findings AS f JOIN rounds AS r ON r.round_id = f.round_id",
    "f.finding_id",
)
#: The copy's tables, in the order they are written.
TABLES = {"rounds": _ROUNDS, "bets": _BETS, "findings": _FINDINGS}


class NothingToExport(Exception):
    """The store holds no round of the period asked for: nothing was written, and the folder
    (an earlier copy, if any) was left as it was."""


@dataclass(frozen=True, slots=True)
class ExportResult:
    """What an export wrote: rows and files per table, and where."""

    folder: Path
    rows: dict[str, int]
    files: dict[str, int]
    #: The previous copy that could not be removed once this one was in place, said.
    left: str | None = None


def export_parquet(
    connection: sqlite3.Connection, folder: Path, *, month: str | None = None
) -> ExportResult:
    """Write the copy of the store (of ``month``, or of every month) into ``folder``, which
    must be absent, empty, or an earlier export of ours (replaced whole).

    :class:`NothingToExport` if the store holds no round of the period (the folder untouched);
    an :class:`~reporting.errors.InputError` naming ``folder`` for a fault of the machine
    (no space, no permission), the earlier copy kept."""
    folder = Path(folder).absolute()
    if folder.parent == folder:
        raise InputError(f"{folder}: name a folder for the copy, not the file system's root")
    # What refuses the export is looked at before a folder or the lock file is made: a
    # refused export leaves nothing behind. Each is read-only and looked at again under the
    # lock (no state an export of ours leaves, killed or not, is refused by them).
    _check_rounds(connection, folder, month)
    _check_target(folder)
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise environment_fault(error, folder.parent, "make the copy's folder there") from None
    with hold_lock(_lock_path(folder), EXPORT_WAIT, held_by_other=_held(folder)):
        return _export_locked(connection, folder, month)


#: Seconds an export waits for another one writing the same copy, then stops.
EXPORT_WAIT = 60.0


def _lock_path(folder: Path) -> Path:
    """The lock of exports into ``folder``: beside it (``.parquet.lock`` for ``parquet``),
    outside the copy a reader sees."""
    return folder.with_name(f".{folder.name}.lock")


def _held(folder: Path):
    def held(holder: str) -> InputError:
        return InputError(
            f"{folder}: another export is writing this copy ({holder}) and held it for"
            f" {EXPORT_WAIT:g} s; it was not disturbed: try again when it ends"
        )

    return held


def _export_locked(connection: sqlite3.Connection, folder: Path, month: str | None) -> ExportResult:
    """:func:`export_parquet` under the copy's lock: two exports into one folder at once
    published a copy of some of the files, or stopped on a traceback."""
    repair_folder_swap(folder, MARKER)
    _check_target(folder)
    staging = folder.with_name(f".{folder.name}.staging")
    clear_staging(staging, "the export stages its copy")
    try:
        with read_unchanged(connection), _snapshot(connection):  # written elsewhere meanwhile
            _check_rounds(connection, folder, month)
            rows, files = _write_copy(connection, folder, staging, month)
        _refuse_foreign(folder)  # again: a file may have been put there while it was written
        left = swap_in_folder(staging, folder, MARKER, "an export of ours")
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return ExportResult(folder, rows, files, None if left is None else str(left))


@contextmanager
def _snapshot(connection: sqlite3.Connection) -> Iterator[None]:
    """One read transaction around the whole copy: every table of it is the store as it was
    at the first read, whatever an ingest commits meanwhile (a copy taken during an ingest
    held bets whose rounds it did not)."""
    connection.execute("BEGIN")
    try:
        yield
    finally:
        if connection.in_transaction:
            connection.execute("ROLLBACK")  # it only read


def _write_copy(
    connection: sqlite3.Connection, folder: Path, staging: Path, month: str | None
) -> tuple[dict[str, int], dict[str, int]]:
    """Write every table of the copy and its marker into ``staging``; rows and files by table."""
    rows, files, renamed = {}, {}, {}
    try:
        make_staging(staging)
        for name, table in TABLES.items():
            rows[name], files[name] = _write_table(
                connection, staging / name, table, month, renamed
            )
        marker = {"month": month, "rows": rows, "files": files, "renamed_values": renamed}
        (staging / MARKER).write_text(
            json.dumps(marker, indent=2, ensure_ascii=False, sort_keys=True) + "\n",
            encoding="utf-8",
        )
    except OSError as error:
        kept = "the copy as it was is kept" if folder.exists() else "no copy was written"
        raise environment_fault(error, folder, f"write the Parquet copy there ({kept})") from None
    return rows, files


def _check_rounds(connection: sqlite3.Connection, folder: Path, month: str | None) -> None:
    """A period with rounds, or :class:`NothingToExport`: a copy of nothing would replace
    the earlier one."""
    where, params = ("report_month = ?", (month,)) if month else ("1", ())
    # The game_id condition lets SQLite search the (game_id, report_month) index.
    if connection.execute(
        f"SELECT 1 FROM rounds WHERE game_id IN (SELECT DISTINCT game_id FROM rounds)"
        f" AND {where} LIMIT 1",
        params,
    ).fetchone():
        return
    period = f"of {month}" if month else "at all"
    kept = f"{folder} is left as it was" if folder.exists() else "no copy was written"
    raise NothingToExport(f"the store holds no rounds {period}: nothing exported; {kept}")


def _check_target(folder: Path) -> None:
    """The copy's folder: absent, empty or an export of ours, and the names beside it the
    swap uses free or ours (:func:`~reporting.files.check_replaceable`)."""
    if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
        raise InputError(f"{folder}: not a folder; name a folder for the copy")
    check_replaceable(folder, MARKER, "an export of ours")
    _refuse_foreign(folder)


#: The files of a copy (:func:`_write_table`'s paths), and the folders on their way.
_COPY_FILE = re.compile(
    rf"(?:{'|'.join(TABLES)})/report_month=[^/]+/game_id=[^/]+/table_id=[^/]+/part-0\.parquet"
)
_COPY_FOLDER = re.compile(
    rf"(?:{'|'.join(TABLES)})(?:/report_month=[^/]+(?:/game_id=[^/]+(?:/table_id=[^/]+)?)?)?"
)


def _refuse_foreign(folder: Path) -> None:
    """Refuse, in one line, to replace an earlier copy that holds what no export writes (an
    analyst's notes, a folder of their own): the swap would delete it with the copy."""
    if not (folder / MARKER).is_file():
        return  # absent or empty: check_replaceable said what it is
    refuse_foreign(
        folder,
        lambda relative, is_folder: (
            relative == MARKER
            or bool((_COPY_FOLDER if is_folder else _COPY_FILE).fullmatch(relative))
        ),
        wrote="no export wrote",
        within="the copy",
    )


def _partitions(
    connection: sqlite3.Connection, source: str, month: str | None
) -> list[tuple[str, str, str]]:
    where, params = ("r.report_month = ?", (month,)) if month else ("1", ())
    return connection.execute(
        f"SELECT DISTINCT r.report_month, r.game_id, r.table_id FROM {source} WHERE {where}"
        " ORDER BY 1, 2, 3",
        params,
    ).fetchall()


#: The partition value by which Hive's layout writes a null: pyarrow, DuckDB, pandas and Spark
#: read a folder of it as a missing value, so a table id of these letters is hashed too.
_HIVE_NULL = "__HIVE_DEFAULT_PARTITION__"


def _segment(key: str, value: str, renamed: dict[str, str]) -> str:
    """A partition folder's name, ``key=value``: the value percent-encoded (a ``/`` in a
    table id never makes a folder), or hashed when too long for a file name, or when readers
    would take it for a null (:data:`_HIVE_NULL`)."""
    encoded = quote(value, safe="")
    if len(encoded) > MAX_SEGMENT or value == _HIVE_NULL:
        encoded = "~" + hashlib.sha256(value.encode("utf-8")).hexdigest()[:32]
        renamed[encoded] = value
    return f"{key}={encoded}"


def _write_table(
    connection: sqlite3.Connection,
    folder: Path,
    table: tuple,
    month: str | None,
    renamed: dict[str, str],
) -> tuple[int, int]:
    columns, source, order = table
    schema = pa.schema([(name, kind) for _, name, kind in columns])
    select = ", ".join(sql for sql, _, _ in columns)
    total = files = 0
    for report_month, game_id, table_id in _partitions(connection, source, month):
        path = folder / f"report_month={report_month}" / _segment("game_id", game_id, renamed)
        path = path / _segment("table_id", table_id, renamed) / "part-0.parquet"
        path.parent.mkdir(parents=True, exist_ok=True)
        cursor = connection.execute(
            f"SELECT {select} FROM {source} WHERE r.report_month = ? AND r.game_id = ?"
            f" AND r.table_id = ? ORDER BY {order}",
            (report_month, game_id, table_id),
        )
        with pq.ParquetWriter(path, schema, compression="zstd") as writer:
            for batch in _batches(cursor, schema):
                writer.write_table(batch, row_group_size=ROW_GROUP)
                total += batch.num_rows
        files += 1
    return total, files


def _batches(cursor: sqlite3.Cursor, schema: pa.Schema) -> Iterator[pa.Table]:
    """The cursor's rows as Arrow tables of at most :data:`ROW_GROUP` rows, typed by
    ``schema`` (the store's UTC text cast to timestamps)."""
    while rows := cursor.fetchmany(ROW_GROUP):
        arrays = []
        for index, field in enumerate(schema):
            values = [row[index] for row in rows]
            if field.type == _TIME:
                times = as_times(pa.array(values, pa.string()))
                if times is None:  # a time ingest stores in no such form
                    raise _no_time(cursor, schema, rows, index)
                arrays.append(times)
            else:
                arrays.append(pa.array(values, field.type))
        yield pa.Table.from_arrays(arrays, schema=schema)


def as_times(texts: pa.Array) -> pa.Array | None:
    """Stored times (:func:`~reporting.store.damage.is_stored_time`, texts or nulls) as
    Arrow's timestamps; None where one is no time in the form ingest stores: not of its shape
    (a regular expression over the whole array), of the year 0 (Arrow's calendar has one,
    Python's none), or on no day of the calendar (the cast refuses it)."""
    stored = pc.and_not(pc.match_substring_regex(texts, _STORED), pc.starts_with(texts, "0000"))
    if not pc.all(stored, skip_nulls=True).as_py():
        return None
    try:
        return texts.cast(_TIME)
    except pa.ArrowInvalid:
        return None


def _no_time(cursor: sqlite3.Cursor, schema: pa.Schema, rows: list[tuple], index: int) -> Exception:
    """The error naming the first of ``rows`` whose value at ``index`` (a time column) is no
    time in the form ingest stores, and its round (a batch Arrow refused holds one)."""
    name = schema.field(index).name
    unstored = [row for row in rows if row[index] is not None and not is_stored_time(row[index])]
    if not unstored:
        raise AssertionError(f"Arrow refused a batch of {name} whose every value is stored time")
    row = unstored[0]
    return no_time(row[schema.get_field_index("round_id")], name, row[index], cursor.connection)
