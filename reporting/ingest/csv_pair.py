"""CSV round logs: a pair of files, ``rounds.csv`` (one round a row) and ``bets.csv`` (one bet
a row, naming its round), in any order.

Both files are first copied into a private staging database, so neither needs to be sorted
and memory stays flat; then each round is read back with its bets and checked like a JSON
line. A bad bet row is rejected at its own line of bets.csv.
"""

from __future__ import annotations

import csv
import re
import sqlite3
from collections.abc import Iterator, Mapping
from itertools import groupby
from operator import itemgetter
from pathlib import Path
from typing import IO, Any, NamedTuple

import msgspec

from reporting.engine.games import GameSpec
from reporting.errors import InputError
from reporting.ingest.sources import BatchReader, Source, batched
from reporting.ingest.validation import RawRound, RecordError, RoundValidator, error_of_decoding
from reporting.records import RejectedLine, RejectReason, Round

__all__ = ["CSV_BET_FIELDS", "CSV_ROUND_FIELDS", "read_csv_pair"]


#: Columns of rounds.csv and bets.csv, in the order the sample generator writes them.
CSV_ROUND_FIELDS = (
    "round_id",
    "table_id",
    "game",
    "shoe_id",
    "hand_no",
    "started_at",
    "betting_closed_at",
    "settled_at",
    "status",
    "void_reason",
    "player_cards",
    "banker_cards",
)
CSV_BET_FIELDS = (
    "round_id",
    "bet_id",
    "account",
    "type",
    "stake",
    "payout",
    "currency",
    "placed_at",
)
_CSV_REQUIRED_ROUND = ("round_id", "table_id", "game", "settled_at", "status")
_CSV_REQUIRED_BET = ("round_id", "bet_id", "account", "type", "stake", "payout", "currency")


class _CsvFile(NamedTuple):
    """An open CSV file: its rows as lists, and where each named column is."""

    handle: IO[str]
    reader: Any  # csv.reader: its line_num is the physical line of the last row read
    columns: dict[str, int]
    width: int  # cells in the header


def _open_csv(path: Path, required: tuple[str, ...]) -> _CsvFile:
    # A byte that is not UTF-8 spoils its row, not the file: keep it as a surrogate escape
    # here and reject the row (see _readable).
    handle = path.open("r", encoding="utf-8", errors="surrogateescape", newline="")
    reader = csv.reader(handle)
    try:
        header = next(reader, [])
    except csv.Error as error:
        handle.close()
        raise InputError(f"{path}:1: cannot be read as CSV ({error})") from None
    missing = [name for name in required if name not in header]
    if missing:
        handle.close()
        raise InputError(f"{path}:1: CSV header lacks column(s) {', '.join(missing)}")
    columns = {name: index for index, name in enumerate(header)}  # the last of a repeated name
    return _CsvFile(handle, reader, columns, len(header))


def _readable(value: str) -> tuple[str, bool]:
    """``value`` with undecodable bytes shown as U+FFFD, and whether it had any."""
    if value.isascii():
        return value, False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return value.encode("utf-8", "surrogateescape").decode("utf-8", "replace"), True
    return value, False


def _stage(
    connection: sqlite3.Connection,
    csv_file: _CsvFile,
    name: str,
    table: str,
    fields: tuple[str, ...],
) -> None:
    """Copy a CSV file into a table of the staging database: the cells of ``fields`` (NULL
    where the file has no such column or the row is short), the line, the row's text as read
    (the header's columns), and flags for a row that is not UTF-8 (its cells then shown
    readable) or has more cells than the header."""
    columns = ", ".join(f"{field} TEXT" for field in fields)
    connection.execute(
        f"CREATE TABLE {table} (line INTEGER PRIMARY KEY, {columns}, raw_text TEXT,"
        " bad_utf8 INTEGER, extra_cells INTEGER)"
    )
    present = [field for field in fields if field in csv_file.columns]
    indexes = [csv_file.columns[field] for field in present]
    cells_of = itemgetter(*indexes)  # at least the required columns: always a tuple
    width, reader = csv_file.width, csv_file.reader

    def rows() -> Iterator[tuple]:
        for row in reader:
            if len(row) == width:  # the common case, in C as far as it goes
                raw_text = ",".join(row)
                if raw_text.isascii():
                    yield (reader.line_num, *cells_of(row), raw_text, False, False)
                    continue
            elif not row:
                continue  # a blank line is not a record
            raw_text, bad = _readable(",".join(row[:width]))
            cells = [row[index] if index < len(row) else None for index in indexes]
            if bad:
                cells = [cell if cell is None else _readable(cell)[0] for cell in cells]
            yield (reader.line_num, *cells, raw_text, bad, len(row) > width)

    names = ", ".join(("line", *present, "raw_text", "bad_utf8", "extra_cells"))
    marks = ",".join("?" * (len(present) + 4))
    connection.execute("BEGIN")  # one transaction: a commit per row is 20x slower
    try:
        connection.executemany(f"INSERT INTO {table} ({names}) VALUES ({marks})", rows())
    except (UnicodeDecodeError, csv.Error) as error:
        raise InputError(f"{name}: cannot be read as CSV ({error})") from None
    finally:
        connection.execute("COMMIT")


def read_csv_pair(source: Source, games: Mapping[str, GameSpec], size: int) -> BatchReader:
    """Batches of a CSV pair.

    Both files are first copied into a private staging database (a temporary file SQLite
    deletes on close), so neither needs to be sorted and memory stays flat whatever their
    size; then one ordered join gives each round with its bets, in rounds-file order.
    """
    assert source.companion is not None
    rounds_file = _open_csv(source.path, _CSV_REQUIRED_ROUND)
    try:
        bets_file = _open_csv(source.companion, _CSV_REQUIRED_BET)
    except BaseException:
        rounds_file.handle.close()
        raise
    staging = sqlite3.connect("", isolation_level=None)  # "": a private temporary database
    try:
        for pragma in ("journal_mode = OFF", "synchronous = OFF", "cache_size = -16384"):
            staging.execute(f"PRAGMA {pragma}")
        with rounds_file.handle:
            _stage(staging, rounds_file, str(source.path), "rounds", CSV_ROUND_FIELDS)
        with bets_file.handle:
            _stage(staging, bets_file, str(source.companion), "bets", CSV_BET_FIELDS)
        staging.execute("CREATE INDEX bets_by_round ON bets (round_id, line)")
        staging.execute("CREATE INDEX rounds_by_id ON rounds (round_id)")
        last_line = staging.execute("SELECT max(line) FROM rounds").fetchone()[0] or 1
        total = source.size
        reached = [0]  # the rounds-file line reached, for the progress position
        yield from batched(
            _csv_records(source, RoundValidator(games), staging, reached),
            lambda: total * reached[0] // last_line,
            size,
        )
    finally:
        staging.close()


# The staged rounds in file order, and their bets in the same order (two cursors merged in
# Python: half the columns of one join that would repeat each round's cells on every bet).
_STAGED_ROUNDS = (
    "SELECT line, raw_text, bad_utf8, extra_cells, "
    + ", ".join(CSV_ROUND_FIELDS)
    + " FROM rounds ORDER BY line"
)
_STAGED_BETS = (
    "SELECT r.line, b.line, "
    + ", ".join(f"b.{field}" for field in CSV_BET_FIELDS[1:])
    + ", b.raw_text, b.bad_utf8 FROM rounds AS r JOIN bets AS b ON b.round_id = r.round_id"
    " WHERE r.round_id <> '' ORDER BY r.line, b.line"
)


def _csv_records(
    source: Source,
    validator: RoundValidator,
    staging: sqlite3.Connection,
    reached: list[int],
) -> Iterator[Round | RejectedLine]:
    """Each staged round with its bets, validated, in rounds-file order; then the bets whose
    round the rounds file does not hold."""
    assert source.companion is not None
    rounds_name, bets_name = str(source.path), str(source.companion)
    bets_by_round = groupby(staging.execute(_STAGED_BETS), itemgetter(0))
    pending = next(bets_by_round, None)
    for line, raw_text, bad_row, extra_cells, *cells in staging.execute(_STAGED_ROUNDS):
        bets: list[_StagedBet] = []
        if pending is not None and pending[0] == line:
            bets = [_StagedBet._make(row[1:]) for row in pending[1]]
            pending = next(bets_by_round, None)
        reached[0] = line
        round_id = cells[0] or None
        row = _StagedRound(line, raw_text, bad_row, extra_cells, cells)
        try:
            yield _csv_round(validator, row, bets)
        except RecordError as problem:
            if problem.source_line is None:
                yield _rejected(rounds_name, line, problem, raw_text, round_id)
            else:
                bad_text = next(
                    bet.raw_text for bet in bets if bet.source_line == problem.source_line
                )
                yield _rejected(bets_name, problem.source_line, problem, bad_text, round_id)
    yield from _orphan_bets(staging, rounds_name, bets_name)


class _StagedRound(NamedTuple):
    """A staged rounds.csv row: its line, text, flags and the cells of CSV_ROUND_FIELDS."""

    source_line: int
    raw_text: str
    bad_utf8: bool
    extra_cells: bool
    cells: list[str | None]


class _StagedBet(NamedTuple):
    """A staged bets.csv row of a round (as _STAGED_BETS gives it, the round's line aside)."""

    source_line: int
    bet_id: str | None
    account: str | None
    type: str | None
    stake: str | None
    payout: str | None
    currency: str | None
    placed_at: str | None
    raw_text: str
    bad_utf8: bool


def _csv_round(validator: RoundValidator, row: _StagedRound, bets: list[_StagedBet]) -> Round:
    """One staged round with its bets, checked; RecordError (with the bets.csv line when the
    bad part is a bet) otherwise."""
    if row.bad_utf8:
        raise RecordError(RejectReason.BAD_VALUE, "the row is not valid UTF-8")
    bad_bet = next((bet for bet in bets if bet.bad_utf8), None)
    if bad_bet is not None:
        raise RecordError(RejectReason.BAD_VALUE, "the row is not valid UTF-8", bad_bet.source_line)
    if row.extra_cells:
        raise RecordError(
            RejectReason.BAD_VALUE, "the row has more cells than the header has columns"
        )
    raw = _raw_round(dict(zip(CSV_ROUND_FIELDS, row.cells, strict=True)), bets)
    return validator.validate(raw, row.source_line, [bet.source_line for bet in bets])


def _raw_round(row: Mapping[str, Any], bets: list[_StagedBet]) -> RawRound:
    """Decode one rounds.csv row with its bets.csv rows into the same shape as a JSON line."""
    document: dict[str, Any] = {
        field: value for field in CSV_ROUND_FIELDS if (value := row.get(field)) not in (None, "")
    }
    for hand in ("player_cards", "banker_cards"):
        if hand in document:
            document[hand] = document[hand].split()
    document["bets"] = [
        {
            name: value
            for name, value in zip(CSV_BET_FIELDS[1:], bet[1:8], strict=True)
            if value not in (None, "")
        }
        for bet in bets
    ]
    try:
        return msgspec.convert(document, RawRound, strict=False)
    except msgspec.ValidationError as error:
        problem = error_of_decoding(error)
        bet_index = re.match(r".*at `\$\.bets\[(\d+)\]", str(error))
        if bet_index:
            problem.source_line = bets[int(bet_index.group(1))].source_line
        raise problem from None


def _orphan_bets(
    staging: sqlite3.Connection, rounds_name: str, bets_name: str
) -> Iterator[RejectedLine]:
    """The bets whose round the rounds file does not hold (or that name no round)."""
    orphans = staging.execute(
        "SELECT line, round_id, raw_text FROM bets AS b WHERE coalesce(round_id, '') = ''"
        " OR NOT EXISTS (SELECT 1 FROM rounds AS r WHERE r.round_id = b.round_id) ORDER BY line"
    )
    for line, round_id, raw_text in orphans:
        yield RejectedLine(
            source_file=bets_name,
            source_line=line,
            reason=RejectReason.BAD_VALUE.value,
            message=f"bet of round {round_id!r}, which {rounds_name} does not hold",
            raw_text=raw_text,
            round_id=round_id,
        )


def _rejected(
    name: str, line: int, problem: RecordError, raw_text: str, round_id: str | None
) -> RejectedLine:
    return RejectedLine(
        source_file=name,
        source_line=line,
        reason=problem.reason,
        message=problem.message,
        raw_text=raw_text,
        round_id=round_id,
    )
