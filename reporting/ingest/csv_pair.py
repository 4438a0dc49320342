"""CSV round logs: a pair of files, ``rounds.csv`` (one round a row) and ``bets.csv`` (one bet
a row, naming its round), in any order.

Both files are first copied into a private staging database, so neither needs to be sorted
and memory stays flat; then each round is read back with its bets and checked like a JSON
line. A bad bet row is rejected at its own line of bets.csv.

Reading holds to the bounds of :mod:`reporting.ingest.limits`: a physical line is read up to
:data:`~reporting.ingest.limits.MAX_CSV_LINE_CHARS` (the rest streamed past), a cell up to
:data:`~reporting.ingest.limits.MAX_CSV_FIELD_CHARS`; past either, and for any row the csv
module cannot parse (a NUL byte, ...), the row is rejected and the next one read. A row is
numbered by its first line (a quoted cell may span several). A UTF-8 byte order mark (Excel's
"CSV UTF-8") is skipped. A header naming a column twice, or with a column that is a
misspelling of one of the format (``shoeid``), makes the file unusable: every row would be
read wrongly.
"""

from __future__ import annotations

import csv
import io
import re
import sqlite3
from collections import Counter
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from itertools import groupby
from operator import itemgetter
from pathlib import Path
from typing import IO, Any, NamedTuple

import msgspec

from reporting.engine.games import GameSpec
from reporting.errors import InputError, NotARegularFile, let_stops_in
from reporting.files import open_regular
from reporting.ingest.limits import (
    MAX_CSV_COLUMNS,
    MAX_CSV_FIELD_CHARS,
    MAX_CSV_LINE_CHARS,
    RAW_TEXT_LIMIT,
    SKIP_CHUNK_BYTES,
    past_round_bounds,
    round_past_bound,
)
from reporting.ingest.sniff import refuse_binary
from reporting.ingest.sources import BatchReader, Source, UnreadFields, batched
from reporting.ingest.spelling import misspelt_field
from reporting.ingest.validation import (
    RawRound,
    RecordError,
    RoundValidator,
    error_of_decoding,
    shown,
)
from reporting.records import CSV_BET_FIELDS, CSV_ROUND_FIELDS, RejectedLine, RejectReason, Round

__all__ = [
    "CSV_BET_FIELDS",
    "CSV_ROUND_FIELDS",
    "BoundedLines",
    "csv_problem",
    "leading_cells",
    "read_csv_pair",
    "readable",
    "swallowed_rows",
]


_CSV_REQUIRED_ROUND = ("round_id", "table_id", "game", "settled_at", "status")
_CSV_REQUIRED_BET = ("round_id", "bet_id", "account", "type", "stake", "payout", "currency")


#: A line with nothing on it, as a text read with universal newlines ends one.
_BLANK = ("\n", "\r\n", "\r")

#: Where a line ends, with universal newlines: ``\r\n``, ``\r`` or ``\n``.
_LINE_END = re.compile(r"\r\n?|\n")
#: Blank lines in a row after which the rest of the run is read a chunk at a time: one blank
#: line between rows (``\r\r\n`` line ends, a writer's text mode on Windows) is cheaper read
#: as a line; a run of millions (a gzip of nothing but line ends) only so.
_BLANK_RUN = 64
#: A character that ends no line: where a run of blank lines ends.
_NOT_A_LINE_END = re.compile(r"[^\r\n]")


class BoundedLines:
    """The physical lines of a text file, each cut at :data:`MAX_CSV_LINE_CHARS` (the rest of
    a longer one streamed past, a chunk at a time), numbered from 1.

    The reader sets :attr:`row_start` to the number of the line its next row starts on; that
    line is kept as :attr:`first`: of a row the csv module refuses (a quote left open swallows
    the lines after it), the line that names its round. The lines the row read after it are
    kept as :attr:`rest` (their first :data:`RAW_TEXT_LIMIT` characters; a row holds at most
    a cell's bound of them), so that each is rejected, naming its own round.

    Blank lines where a row would start (after the header) are no rows: they are counted and
    never given to the csv module, so :attr:`number` is the last line read, not the csv
    reader's ``line_num``. A run of them (:data:`_BLANK_RUN` or more) is read past a chunk at
    a time: 40 MiB of them read a line a step took 12 s.

    >>> lines = BoundedLines(io.StringIO("h\\n\\n\\r\\n\\ra\\n\\n\\nb\\n", newline=""))
    >>> given = []
    >>> for line in lines:
    ...     given.append((lines.number, line))
    ...     lines.row_start = lines.number + 1
    >>> given
    [(1, 'h\\n'), (5, 'a\\n'), (8, 'b\\n')]
    """

    def __init__(self, handle: IO[str]):
        self.number = 0  # of the last line read
        self.row_start = 1
        self.first = ""  # the line numbered row_start, once given
        self.rest: list[tuple[int, str]] = []  # the row's lines after its first: (number, text)
        self.cut = 0  # the number of the last line cut short, 0 if none was
        self._handle = handle
        # Text read past blank lines and not yet given as lines: from ``_at`` on (read by
        # position, never sliced off: a line at a time, slicing copied the rest each time).
        self._held = ""
        self._at = 0
        self._blank_run = 0  # blank lines in a row where a row would start

    def __iter__(self) -> Iterator[str]:
        readline = self._handle.readline
        while True:
            if self._at < len(self._held):
                line = self._held_line(MAX_CSV_LINE_CHARS)
            else:
                line = readline(MAX_CSV_LINE_CHARS)
            if not line:
                return
            self.number += 1
            if self.number == self.row_start and self.number > 1 and line in _BLANK:
                # no row (line 1 is the header, blank or not): the next line may start one
                self.row_start += 1
                self._blank_run += 1
                if self._blank_run >= _BLANK_RUN:  # a run of them: past it a chunk at a time
                    self.number += self._skip_blank_lines(line)
                    self.row_start = self.number + 1
                continue
            self._blank_run = 0
            if len(line) == MAX_CSV_LINE_CHARS:
                if line[-1] == "\r":  # its "\n" parted from it by the bound: one line end
                    line += self._take("\n")
                elif line[-1] != "\n" and self._skip_rest():
                    self.cut = self.number
                    line += "\n"
            if self.number == self.row_start:
                self.first = line
                if self.rest:
                    self.rest = []
            else:
                self.rest.append((self.number, line[:RAW_TEXT_LIMIT]))
            yield line

    def _take(self, wanted: str) -> str:
        """The next character if it is ``wanted`` (read), else "" (left to be read)."""
        if self._at < len(self._held):
            if self._held[self._at] != wanted:
                return ""
            self._at += 1
            return wanted
        after = self._handle.read(1)
        if after and after != wanted:
            self._held, self._at = after, 0
            return ""
        return after

    def _held_line(self, limit: int) -> str:
        """The next line (at most ``limit`` characters), read from the text held back first."""
        held, at = self._held, self._at
        end = _LINE_END.search(held, at, at + limit)
        if end is None:
            if len(held) - at >= limit:
                self._at = at + limit
                return held[at : at + limit]
            self._held, self._at = "", 0
            rest = held[at:]
            return rest + self._handle.readline(limit - len(rest))
        self._at = end.end()
        line = held[at : self._at]
        if self._at == len(held) and line[-1] == "\r" and len(line) < limit:
            line += self._take("\n")  # "\r\n" parted between reads
        return line

    def _skip_blank_lines(self, last: str) -> int:
        """Read past the blank lines after this one (``last``), a chunk at a time; their
        number. The text read past them is held back for the next line."""
        skipped = 0
        after_cr = last.endswith("\r")
        while True:
            if self._at >= len(self._held):
                self._held, self._at = self._handle.read(SKIP_CHUNK_BYTES), 0
                if not self._held:
                    return skipped
            held, start = self._held, self._at
            if after_cr and held.startswith("\n", start):  # a "\r\n" parted by the read
                start += 1
            shows = _NOT_A_LINE_END.search(held, start)
            stop = len(held) if shows is None else shows.start()
            skipped += (
                held.count("\n", start, stop)
                + held.count("\r", start, stop)
                - held.count("\r\n", start, stop)
            )
            self._at = stop
            if shows is not None:
                return skipped
            after_cr = stop > start and held[stop - 1] == "\r"

    def _skip_rest(self) -> bool:
        """Read past the rest of the line; whether there was any."""
        skipped = False
        while chunk := (
            self._held_line(SKIP_CHUNK_BYTES)
            if self._at < len(self._held)
            else self._handle.readline(SKIP_CHUNK_BYTES)
        ):
            skipped = True
            if chunk[-1] == "\r":  # its "\n" may be parted from it by the chunk's bound
                self._take("\n")
                break
            if chunk[-1] == "\n":
                break
        return skipped


class _CsvFile(NamedTuple):
    """An open CSV file: its rows as lists, and where each named column is."""

    handle: IO[str]
    lines: BoundedLines
    reader: Any  # csv.reader over ``lines`` (whose number is the physical line last read)
    columns: dict[str, int]
    width: int  # cells in the header


def _open_csv(path: Path, required: tuple[str, ...], known: tuple[str, ...]) -> _CsvFile:
    try:
        binary = open_regular(path)
    except NotARegularFile:
        raise  # says what the path is, in one line
    except OSError as error:
        reason = error.strerror
        raise InputError(f"{path}: cannot be read ({reason})") from None
    try:
        refuse_binary(str(path), binary, gzipped=False)
    except BaseException:
        binary.close()
        raise
    # A byte that is not UTF-8 spoils its row, not the file: keep it as a surrogate escape
    # here and reject the row (see readable). utf-8-sig: a byte order mark is skipped.
    handle = io.TextIOWrapper(binary, encoding="utf-8-sig", errors="surrogateescape", newline="")
    lines = BoundedLines(handle)
    reader = csv.reader(iter(lines))
    try:
        header = _header(path, reader, required, known)
    except BaseException:
        handle.close()
        raise
    columns = {name: index for index, name in enumerate(header)}
    return _CsvFile(handle, lines, reader, columns, len(header))


def _header(path: Path, reader: Any, required: tuple[str, ...], known: tuple[str, ...]) -> list:
    """The header row, checked: the required columns, none twice, none misspelt."""
    try:
        with _field_limit():
            header = next(reader, [])
    except csv.Error as error:
        raise InputError(f"{path}:1: cannot be read as CSV ({error})") from None
    if len(header) > MAX_CSV_COLUMNS:
        raise InputError(
            f"{path}:1: CSV header of {len(header):,} columns; a round log has"
            f" {len(known)} (at most {MAX_CSV_COLUMNS:,} are read)"
        )
    twice = sorted(name[:60] for name, count in Counter(header).items() if count > 1)
    if twice:
        raise InputError(
            f"{path}:1: CSV header names column(s) {', '.join(twice)} twice; which one is"
            " meant is unknown"
        )
    for name in header:
        meant = misspelt_field(name, known)
        if meant is not None:
            raise InputError(
                f"{path}:1: CSV header column {name[:60]!r} looks like a misspelling of {meant};"
                " rename it (a misspelt column would be ignored)"
            )
    missing = [name for name in required if name not in header]
    if missing:
        raise InputError(f"{path}:1: CSV header lacks column(s) {', '.join(missing)}")
    return header


@contextmanager
def _field_limit() -> Iterator[None]:
    """The csv module's (process-wide) cell limit set to :data:`MAX_CSV_FIELD_CHARS` while
    a file is read, and set back after."""
    previous = csv.field_size_limit(MAX_CSV_FIELD_CHARS)
    try:
        yield
    finally:
        csv.field_size_limit(previous)


def leading_cells(text: str, delimiter: str = ",") -> list[str]:
    """The whole cells at the start of the first line of a row the csv module refused (its
    first thousand characters, the last cell dropped as maybe cut), so that the row's reject
    still names its round."""
    return _first_cells(text, delimiter)[:-1]


def _first_cells(text: str, delimiter: str) -> list[str]:
    """The cells of a line's first thousand characters (none if the csv module refuses them):
    what names the round of a line that could not be read as a row."""
    try:
        with _field_limit():
            return next(csv.reader([text[:1000]], delimiter=delimiter), [])
    except csv.Error:
        return []


def swallowed_rows(
    lines: BoundedLines, first: int, delimiter: str = ","
) -> Iterator[tuple[int, list[str], str, str]]:
    """Each line a row of line ``first`` read after its first line, as a row rejected of its
    own: its number, its cells (those of its first thousand characters, without quote marks:
    its round id), its text, and why. A quote left open on line ``first`` took the rows after
    it into its cell: each of them is a reject naming its round, where its round loaded
    without them."""
    problem = (
        f"read into the row of line {first}: a quoted cell opened on line {first} runs to"
        f" line {lines.number}; this line is not read as a row"
    )
    for number, line in lines.rest:
        text = readable(line.rstrip("\r\n"))[0]
        cells = _first_cells(text, delimiter)
        if len(text) > 1000:
            cells = cells[:-1]  # maybe cut
        cells = [cell.replace('"', "") for cell in cells]  # the quote closed on the last line
        yield number, cells, text, problem


def csv_problem(error: csv.Error, first: int, last: int) -> str:
    """What a reject says of a row the csv module refused, read from line ``first`` to
    ``last`` (a row spans lines only from a quote left open on its first line)."""
    if "field larger than field limit" in str(error):
        problem = f"a cell is longer than {MAX_CSV_FIELD_CHARS:,} characters"
    else:
        problem = f"the row cannot be read as CSV ({error})"
    if last > first:
        return (
            f"lines {first}-{last} read as one row (a quoted cell opened on line {first} runs"
            f" to line {last}): {problem}"
        )
    return problem


def readable(value: str) -> tuple[str, bool]:
    """``value`` with undecodable bytes shown as U+FFFD, and whether it had any."""
    if value.isascii():
        return value, False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return value.encode("utf-8", "surrogateescape").decode("utf-8", "replace"), True
    return value, False


# Long on purpose: the loop every row of a CSV pair goes through, its common case inline.
def _stage(
    connection: sqlite3.Connection,
    csv_file: _CsvFile,
    name: str,
    table: str,
    fields: tuple[str, ...],
) -> None:
    """Copy a CSV file into a table of the staging database: the cells of ``fields`` (NULL
    where the file has no such column or the row is short), the row's first line, the row's
    text as read (the header's columns, at most RAW_TEXT_LIMIT characters), flags for a row
    that is not UTF-8 (its cells then shown readable) or has more cells than the header, and
    the problem of a row that could not be read whole (too long, or refused by the csv
    module; its cells NULL when it was refused)."""
    columns = ", ".join(f"{field} TEXT" for field in fields)
    connection.execute(
        f"CREATE TABLE {table} (line INTEGER PRIMARY KEY, {columns}, raw_text TEXT,"
        " bad_utf8 INTEGER, extra_cells INTEGER, problem TEXT)"
    )
    present = [field for field in fields if field in csv_file.columns]
    indexes = [csv_file.columns[field] for field in present]
    cells_of = itemgetter(*indexes)  # at least the required columns: always a tuple
    width, reader, lines = csv_file.width, csv_file.reader, csv_file.lines

    def rows() -> Iterator[tuple]:
        while True:
            lines.row_start = lines.number + 1  # on, past blank lines: the row's first line
            try:
                row = next(reader)
            except StopIteration:
                return
            except csv.Error as error:
                problem = csv_problem(error, lines.row_start, lines.number)
                yield from _refused(lines, indexes, problem)
                continue
            first, problem = lines.row_start, None
            if lines.cut >= first:
                problem = f"a line is longer than {MAX_CSV_LINE_CHARS:,} characters"
            elif lines.number > first and len(row) != width:  # a quote left open
                yield from _refused(lines, indexes, _spanned(first, lines.number, row, width))
                continue
            elif len(row) == width:  # the common case
                raw_text = ",".join(row)
                if raw_text.isascii() and len(raw_text) <= RAW_TEXT_LIMIT:
                    yield (first, *cells_of(row), raw_text, False, False, None)
                    continue
            raw_text, bad = readable(",".join(row[:width])[:RAW_TEXT_LIMIT])
            cells = [row[index] if index < len(row) else None for index in indexes]
            if bad:
                cells = [cell if cell is None else readable(cell)[0] for cell in cells]
            yield (first, *cells, raw_text, bad, len(row) > width, problem)

    names = ", ".join(("line", *present, "raw_text", "bad_utf8", "extra_cells", "problem"))
    marks = ",".join("?" * (len(present) + 5))
    connection.execute("BEGIN")  # one transaction: a commit per row is 20x slower
    try:
        with _field_limit():
            connection.executemany(f"INSERT INTO {table} ({names}) VALUES ({marks})", rows())
    except (UnicodeDecodeError, csv.Error, OSError) as error:
        raise InputError(f"{name}: cannot be read as CSV ({error})") from None
    finally:
        connection.execute("COMMIT")


def _refused(lines: BoundedLines, indexes: list[int], problem: str) -> Iterator[tuple]:
    """Staged rows, rejected for ``problem``: the row the csv module refused (its first line's
    first cells name its round), then each line it took after that one."""
    text = readable(lines.first.rstrip("\r\n")[:RAW_TEXT_LIMIT])[0]
    yield (lines.row_start, *_cells_at(leading_cells(text), indexes), text, False, False, problem)
    for number, leading, swallowed, why in swallowed_rows(lines, lines.row_start):
        yield (number, *_cells_at(leading, indexes), swallowed, False, False, why)


def _cells_at(cells: list[str], indexes: list[int]) -> tuple[str | None, ...]:
    """The cells at ``indexes`` (None past the row's end)."""
    return tuple(cells[index] if index < len(cells) else None for index in indexes)


def _spanned(first: int, last: int, row: list[str], width: int) -> str:
    """Why a ``row`` read from line ``first`` to ``last`` is refused: its cells are not the
    header's ``width``."""
    return (
        f"lines {first}-{last} read as one row (a quoted cell opened on line {first} runs to"
        f" line {last}): {len(row)} cells under a header of {width}"
    )


def read_csv_pair(source: Source, games: Mapping[str, GameSpec], size: int) -> BatchReader:
    """Batches of a CSV pair.

    Both files are first copied into a private staging database (a temporary file SQLite
    deletes on close), so neither needs to be sorted and memory stays flat whatever their
    size; then one ordered join gives each round with its bets, in rounds-file order.
    """
    assert source.companion is not None
    rounds_file = _open_csv(source.path, _CSV_REQUIRED_ROUND, CSV_ROUND_FIELDS)
    try:
        bets_file = _open_csv(source.companion, _CSV_REQUIRED_BET, CSV_BET_FIELDS)
    except BaseException:
        rounds_file.handle.close()
        raise
    staging = sqlite3.connect("", isolation_level=None)  # "": a private temporary database
    let_stops_in(staging)
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
        unread = UnreadFields()  # the columns of the exporter's own, which nothing reads
        unread.add([name for name in rounds_file.columns if name not in CSV_ROUND_FIELDS])
        unread.add([name for name in bets_file.columns if name not in CSV_BET_FIELDS], of_bets=True)
        yield from batched(
            _csv_records(source, RoundValidator(games), staging, reached),
            lambda: total * reached[0] // last_line,
            size,
            str(source.path),
            unread,
        )
    finally:
        staging.close()


# The staged rounds in file order, and their bets in the same order (two cursors merged in
# Python: half the columns of one join that would repeat each round's cells on every bet).
_STAGED_ROUNDS = (
    "SELECT line, raw_text, bad_utf8, extra_cells, problem, "
    + ", ".join(CSV_ROUND_FIELDS)
    + " FROM rounds ORDER BY line"
)
_STAGED_BETS = (
    "SELECT r.line, b.line, "
    + ", ".join(f"b.{field}" for field in CSV_BET_FIELDS[1:])
    + ", b.raw_text, b.bad_utf8, b.problem FROM rounds AS r JOIN bets AS b ON b.round_id = r.round_id"
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
    for line, raw_text, bad_row, extra_cells, problem, *cells in staging.execute(_STAGED_ROUNDS):
        bets: list[_StagedBet] = []
        too_many = None
        if pending is not None and pending[0] == line:
            bets, too_many = _bets_of(pending[1], bets_name)
            pending = next(bets_by_round, None)
        reached[0] = line
        round_id = cells[0] or None
        row = _StagedRound(line, raw_text, bad_row, extra_cells, problem, cells)
        try:
            if too_many is not None:
                raise RecordError(RejectReason.BAD_VALUE, too_many)
            yield _csv_round(validator, row, bets)
        except RecordError as problem:
            facts = (round_id, validator.month_of(cells[_GAME], cells[_SETTLED_AT]))
            if problem.source_line is None:
                yield _rejected(rounds_name, line, problem, raw_text, facts)
            else:
                bad_text = next(
                    bet.raw_text for bet in bets if bet.source_line == problem.source_line
                )
                yield _rejected(bets_name, problem.source_line, problem, bad_text, facts)
    yield from _orphan_bets(staging, rounds_name, bets_name)


def _bets_of(rows: Iterator[tuple], bets_name: str) -> tuple[list[_StagedBet], str | None]:
    """A round's staged bets; past :data:`MAX_LINE_BYTES` characters of their rows (a JSON
    Lines round's bound) or :data:`MAX_ROUND_ROWS` rows none, and why: the rest of them are
    counted, not held."""
    bets: list[_StagedBet] = []
    chars = 0
    for row in rows:
        bets.append(bet := _StagedBet._make(row[1:]))
        chars += len(bet.raw_text)
        if past_round_bounds(chars, len(bets)):
            first, count, last = bets[0].source_line, len(bets), bet.source_line
            for rest in rows:
                count, last = count + 1, rest[1]
            lines = f"{bets_name} lines {first}-{last}"
            return [], round_past_bound(f"{count:,} bets", lines, chars)
    return bets, None


class _StagedRound(NamedTuple):
    """A staged rounds.csv row: its line, text, flags and the cells of CSV_ROUND_FIELDS."""

    source_line: int
    raw_text: str
    bad_utf8: bool
    extra_cells: bool
    problem: str | None  # why the row could not be read whole
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
    problem: str | None


def _csv_round(validator: RoundValidator, row: _StagedRound, bets: list[_StagedBet]) -> Round:
    """One staged round with its bets, checked; RecordError (with the bets.csv line when the
    bad part is a bet) otherwise."""
    if row.problem is not None:
        raise RecordError(RejectReason.BAD_VALUE, row.problem)
    bad_bet = next((bet for bet in bets if bet.problem is not None), None)
    if bad_bet is not None:
        raise RecordError(RejectReason.BAD_VALUE, str(bad_bet.problem), bad_bet.source_line)
    if row.bad_utf8:
        raise RecordError(RejectReason.BAD_VALUE, "the row is not valid UTF-8")
    bad_bet = next((bet for bet in bets if bet.bad_utf8), None)
    if bad_bet is not None:
        raise RecordError(RejectReason.BAD_VALUE, "the row is not valid UTF-8", bad_bet.source_line)
    if row.extra_cells:
        raise RecordError(
            RejectReason.BAD_VALUE, "the row has more cells than the header has columns"
        )
    raw = _raw_round(validator, dict(zip(CSV_ROUND_FIELDS, row.cells, strict=True)), bets)
    return validator.validate(raw, row.source_line, [bet.source_line for bet in bets])


def _raw_round(
    validator: RoundValidator, row: Mapping[str, Any], bets: list[_StagedBet]
) -> RawRound:
    """Decode one rounds.csv row with its bets.csv rows into the same shape as a JSON line
    (the validator's, of the bet types it knows)."""
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
        return msgspec.convert(document, validator.shape, strict=False)
    except msgspec.ValidationError as error:
        # Made by a call, not held here: a frame holding the error it raises is a cycle per
        # rejected row, freed only by the collector, which a read keeps paused (150,000 rows
        # of junk held 360 MB until the file's end).
        raise _decoding_problem(error, validator, bets) from None


def _decoding_problem(
    error: msgspec.ValidationError, validator: RoundValidator, bets: list[_StagedBet]
) -> RecordError:
    """The reject of a row the decoder refused, at its bet's line of bets.csv if a bet's."""
    problem = error_of_decoding(error, validator.bet_types)
    bet_index = re.match(r".*at `\$\.bets\[(\d+)\]", str(error))
    if bet_index:
        problem.source_line = bets[int(bet_index.group(1))].source_line
    return problem


def _orphan_bets(
    staging: sqlite3.Connection, rounds_name: str, bets_name: str
) -> Iterator[RejectedLine]:
    """The bets whose round the rounds file does not hold (or that name no round)."""
    orphans = staging.execute(
        "SELECT line, round_id, raw_text, problem FROM bets AS b WHERE coalesce(round_id, '') = ''"
        " OR NOT EXISTS (SELECT 1 FROM rounds AS r WHERE r.round_id = b.round_id) ORDER BY line"
    )
    for line, round_id, raw_text, problem in orphans:
        yield RejectedLine(
            source_file=bets_name,
            source_line=line,
            reason=RejectReason.BAD_VALUE.value,
            message=problem or f"bet of round {shown(round_id)}, which {rounds_name} does not hold",
            raw_text=raw_text,
            round_id=round_id,
        )


def _rejected(
    name: str,
    line: int,
    problem: RecordError,
    raw_text: str,
    facts: tuple[str | None, str | None],
) -> RejectedLine:
    """A line's reject, with its round id and reporting month where they could be read."""
    round_id, month = facts
    return RejectedLine(
        source_file=name,
        source_line=line,
        reason=problem.reason,
        message=problem.message,
        raw_text=raw_text,
        round_id=round_id,
        report_month=month,
    )


#: Where a staged round's game and settlement time are among its cells.
_GAME, _SETTLED_AT = CSV_ROUND_FIELDS.index("game"), CSV_ROUND_FIELDS.index("settled_at")
