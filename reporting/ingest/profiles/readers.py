"""The readers of profiled exports: a JSON document (its array of rounds streamed), JSON
Lines, or a CSV file of one row per bet; each makes the batches every reader makes.

Every record (an element of the array, a line, a round's rows) is decoded without a float
(numbers with a fraction kept as their text, :class:`msgspec.Raw`), checked for a key given
twice as the spec's JSON Lines reader checks it, mapped by the profile
(:class:`~reporting.ingest.profiles.mapping.RecordMapper`) and validated by the spec's own
:class:`~reporting.ingest.validation.RoundValidator`. A record that cannot be used is that
record's reject, at ``path:line`` (``path:#index`` for the element of a JSON array, counted
from 0); the others load. What makes the whole file unusable (a document that is not JSON,
a CSV header without a column the profile names) is an InputError: nothing of the file is
loaded.
"""

from __future__ import annotations

import csv
import io
import zlib
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from contextlib import suppress
from operator import itemgetter
from typing import IO, Any, NamedTuple

import msgspec

from reporting.engine.games import GameSpec
from reporting.errors import InputError, NotARegularFile, counted, printable
from reporting.files import open_regular
from reporting.ingest.csv_pair import (
    BoundedLines,
    csv_problem,
    leading_cells,
    readable,
    swallowed_rows,
)
from reporting.ingest.jsonl import (
    check_repeated_keys,
    gunzipped,
    refuse_if_cut,
    refuse_unreadable_text,
    skip_blank_run,
    skip_over_long,
)
from reporting.ingest.limits import (
    MAX_CSV_COLUMNS,
    MAX_CSV_FIELD_CHARS,
    MAX_CSV_LINE_CHARS,
    MAX_LINE_BYTES,
    past_round_bounds,
    round_past_bound,
)
from reporting.ingest.profiles.json_stream import TOO_DEEP, Element, array_elements, too_deep
from reporting.ingest.profiles.mapping import CSV_ROWS, RecordMapper
from reporting.ingest.profiles.model import Profile
from reporting.ingest.sniff import refuse_binary
from reporting.ingest.sources import BatchReader, Source, batched, raw_text
from reporting.ingest.validation import RecordError, RoundValidator, shown
from reporting.records import RejectedLine, RejectReason, Round

__all__ = ["read_profiled"]

_DECODE = msgspec.json.Decoder(float_hook=msgspec.Raw).decode
_ENCODE_INTO = msgspec.json.Encoder().encode_into
_WHITESPACE = b" \t\r\n"
_BOM = b"\xef\xbb\xbf"


def read_profiled(source: Source, games: Mapping[str, GameSpec], size: int) -> BatchReader:
    """Batches of a file of a profiled export (``source.profile``), by its layout
    (``source.format``: json, jsonl or csv)."""
    profile = source.profile
    assert profile is not None
    name = str(source.path)
    try:
        raw_handle = open_regular(source.path)
    except NotARegularFile:
        raise
    except OSError as error:
        raise InputError(f"{name}: cannot be read ({error.strerror})") from None
    with raw_handle:
        gzipped = source.path.name.lower().endswith(".gz")
        handle: IO[bytes] = gunzipped(raw_handle, name) if gzipped else raw_handle
        refuse_binary(name, handle, gzipped=gzipped)  # UTF-16 text too
        records = _RECORDS[source.format](handle, name, profile, games)
        try:
            reader = f"the log profile {profile.label}"
            yield from batched(records, raw_handle.tell, size, name, reader=reader)
        except (OSError, EOFError, zlib.error) as error:
            raise InputError(
                f"{name}: cannot be read to the end ({error}); nothing of it was loaded"
            ) from None


class _Records:
    """What every layout does with one record's bytes: decode, rule out a repeated key, map,
    validate; or the record's reject."""

    def __init__(self, name: str, profile: Profile, games: Mapping[str, GameSpec]):
        self.name = name
        self.label = profile.label
        self.mapper = RecordMapper(profile, games)
        self.validator = RoundValidator(games, keep_unknown_bet_types=True)
        self.validate = self.validator.validate
        self._encoded = bytearray()

    def of_json(self, data: bytes, number: int) -> Round | RejectedLine:
        """The round (or reject) of one JSON record's bytes, at line (or index) ``number``."""
        document: Any = None
        try:
            # Nesting is held to MAX_DEPTH, as a JSON document's element is (a line of JSON
            # Lines loaded what the same element was rejected for); deeper still, the decoder
            # stops at its own depth (RecursionError, this record's reject).
            document = _DECODE(data)
            if too_deep(data):
                raise RecordError(RejectReason.BAD_VALUE, TOO_DEEP)
            _ENCODE_INTO(document, self._encoded)
            if not _same_but_whitespace(data, self._encoded):
                check_repeated_keys(data)  # raises the reject of a repeated key
            return self.validate(self.mapper.round_of(document), number)
        except msgspec.DecodeError as error:
            problem = RecordError(RejectReason.BAD_JSON, f"not valid JSON: {error}")
        except RecordError as error:
            # Without its traceback: kept, it holds this frame, which holds it (a cycle per
            # reject, freed only by the collector, which a read keeps paused).
            problem = error.with_traceback(None)
        except RecursionError:  # deeper than the decoder goes: said as a depth past the bound
            problem = RecordError(RejectReason.BAD_VALUE, TOO_DEEP)
        except Exception as error:  # whatever else a hostile record makes a parser raise
            problem = RecordError(
                RejectReason.BAD_VALUE, f"cannot be read ({type(error).__name__}: {error})"
            )
        return self.rejected(number, problem, data, document)

    def refuse_unread_bets(self) -> None:
        """Refuse the file when none of its rounds holds its bets where the profile reads
        them (a path that matches nothing in the export, ``wager[]`` for its ``wagers``,
        loaded every round without its bets, their stakes and payouts in no figure, and said
        nothing), or none of its bets its currency (each was taken in its game's currency, a
        bet the export writes in another too)."""
        mapper = self.mapper
        if not mapper.currency_held and mapper.bets_without_currency:
            bets, their = mapper.bets_without_currency, _their(mapper.bets_without_currency)
            raise InputError(
                f"{self.name}: no bet of it holds a currency where the log profile {self.label}"
                f" reads it, at {mapper.profile.bet_fields['currency'].text} ([bet] currency):"
                f" its {counted(bets, 'bet')} would be taken in {their} game's currency, whatever the export"
                " writes. Mend the profile's path, or leave it out if the export writes none"
            )
        if mapper.bets_held or not mapper.rounds_without_bets:
            return
        keys = ", ".join(printable(key[:40]) for key in mapper.first_keys[:12])
        more = len(mapper.first_keys) - 12
        rounds, their = mapper.rounds_without_bets, _their(mapper.rounds_without_bets)
        raise InputError(
            f"{self.name}: no round of it holds its bets where the log profile {self.label}"
            f" reads them, at {mapper.bets_path} ([bet] each): its {counted(rounds, 'round')}"
            f" would load without {their} bets. Mend the profile's path, or read the file with"
            " the profile of its export (the first such round's keys:"
            f" {keys}{f', {more:,} more' if more > 0 else ''})"
        )

    def rejected(
        self, number: int, problem: RecordError, data: bytes, document: Any
    ) -> RejectedLine:
        return RejectedLine(
            source_file=self.name,
            source_line=number,
            reason=problem.reason,
            message=problem.message,
            raw_text=raw_text(data),
            round_id=_readable_id(self.mapper.round_id_of(document)),
            report_month=self.validator.month_of(*self.mapper.month_facts_of(document)),
        )


def _their(count: int) -> str:
    """``its`` of one, ``their`` of several."""
    return "its" if count == 1 else "their"


def _readable_id(round_id: str | None) -> str | None:
    """A reject's round id as stored: a byte that is not UTF-8 (a CSV cell's, kept as a
    surrogate escape and the reason of the reject; a JSON record's is decoded as U+FFFD
    already) shown as U+FFFD."""
    return None if round_id is None else readable(round_id)[0]


def _same_but_whitespace(data: bytes, encoded: bytearray) -> bool:
    """Whether the record re-encoded is as long as it was written, whitespace aside (counted
    on both sides: strings keep theirs): a key given twice makes it shorter."""
    if len(encoded) == len(data) - (data[-1:] == b"\n"):  # compact JSON: nothing to count
        return True
    written = len(data) - sum(data.count(byte) for byte in (b" ", b"\n", b"\r", b"\t"))
    again = len(encoded) - encoded.count(b" ")
    return written == again


def _document_records(
    handle: IO[bytes], name: str, profile: Profile, games: Mapping[str, GameSpec]
) -> Iterator[Round | RejectedLine]:
    """Each element of the document's array of rounds (streamed, never loaded whole)."""
    records = _Records(name, profile, games)
    path = () if profile.rounds is None else tuple(profile.rounds.steps)
    for item in array_elements(handle, path, name):
        if type(item) is Element:
            yield records.of_json(item.data, item.index)
        else:
            problem = RecordError(RejectReason.BAD_VALUE, item.message)
            yield records.rejected(item.index, problem, item.head, None)
    records.refuse_unread_bets()


def _line_records(
    handle: IO[bytes], name: str, profile: Profile, games: Mapping[str, GameSpec]
) -> Iterator[Round | RejectedLine]:
    """Each line of a JSON Lines file (bounded as the spec's reader bounds them)."""
    records = _Records(name, profile, games)
    readline = handle.readline
    number = 0
    data = readline(MAX_LINE_BYTES)
    if data.startswith(_BOM):
        data = data[len(_BOM) :]
    refuse_unreadable_text(name, data, handle)
    while data:
        number += 1
        if not data.strip(_WHITESPACE):
            number += skip_blank_run(handle)
        else:
            try:
                if len(data) == MAX_LINE_BYTES and data[-1:] != b"\n":
                    skip_over_long(handle, data)
                record = records.of_json(data, number)
            except RecordError as problem:
                record = records.rejected(number, problem, data, None)
            if type(record) is RejectedLine and record.reason == RejectReason.BAD_JSON.value:
                refuse_if_cut(name, number, data)  # met midway through its writing
            yield record
        data = readline(MAX_LINE_BYTES)
    records.refuse_unread_bets()


# Long on purpose: one pass over the rows of a CSV export, grouping each round's rows.
def _csv_records(
    handle: IO[bytes], name: str, profile: Profile, games: Mapping[str, GameSpec]
) -> Iterator[Round | RejectedLine]:
    """Each round of a CSV export of one row per bet: the consecutive rows of one round id,
    its bets one a row (a row whose bet cells are all empty holds no bet)."""
    records = _Records(name, profile, games)
    # A byte that is not UTF-8 spoils its row, not the file (kept as a surrogate escape, the
    # row rejected); a physical line is read up to MAX_CSV_LINE_CHARS (the rest streamed past).
    text = io.TextIOWrapper(handle, encoding="utf-8-sig", errors="surrogateescape", newline="")
    lines = BoundedLines(text)
    previous_limit = csv.field_size_limit(MAX_CSV_FIELD_CHARS)
    try:
        reader = csv.reader(iter(lines), delimiter=profile.delimiter)
        header = _csv_header(reader, name, profile)
        if _not_utf8(",".join(header)):
            raise InputError(f"{name}:1: the CSV header is not UTF-8 text")
        rounds, join = _Rounds(records, profile, header), profile.delimiter.join
        width = len(header)
        while True:
            lines.row_start = lines.number + 1  # on, past blank lines: the row's first line
            try:
                row = next(reader)
            except StopIteration:
                break
            except csv.Error as error:  # the row's first line names its round, as a row would
                line, first = lines.row_start, lines.first.rstrip("\r\n")
                problem = csv_problem(error, line, lines.number)
                row = leading_cells(first, profile.delimiter)
                yield from rounds.add(_Row(line, row, first, problem))
                yield from _swallowed(rounds, lines, line, profile.delimiter)
                continue
            line = lines.row_start
            if row == [""]:  # a line of one empty cell (blank lines never reach the reader)
                continue
            raw = join(row)
            problem = (
                None  # the common case: a whole row of ASCII text
                if len(row) == width and raw.isascii() and lines.cut < line
                else _row_problem(
                    row, header, lines.cut >= line, raw, (line, lines.number), profile
                )
            )
            finished = rounds.add(_Row(line, row, raw, problem))
            if finished:
                yield from finished
            if problem is not None and lines.number > line:  # a quote left open
                yield from _swallowed(rounds, lines, line, profile.delimiter)
        yield from rounds.flush()
    except UnicodeDecodeError as error:
        raise InputError(
            f"{name}: not UTF-8 text ({error.reason}); nothing of it was loaded"
        ) from None
    finally:
        csv.field_size_limit(previous_limit)
        with suppress(ValueError):  # the file closed already (its reading stopped)
            text.detach()


def _swallowed(
    rounds: _Rounds, lines: BoundedLines, first: int, delimiter: str
) -> Iterator[Round | RejectedLine]:
    """The lines a row refused took after its first (a quote left open on line ``first``),
    each a row of its round, rejected: a round they held is rejected, never loaded without
    them."""
    for number, cells, text, problem in swallowed_rows(lines, first, delimiter):
        yield from rounds.add(_Row(number, cells, text, problem))


def _row_problem(
    row: list[str],
    header: list[str],
    cut: bool,
    raw: str,
    lines: tuple[int, int],
    profile: Profile,
) -> str | None:
    """Why a CSV row (of physical ``lines`` first to last) cannot be read as one, or None;
    with why a row has more cells than the header, when the profile's amounts and its cells
    are both parted by commas."""
    if cut:
        return f"a line is longer than {MAX_CSV_LINE_CHARS:,} characters"
    if len(row) != len(header):
        first, last = lines
        if last > first:  # a row spans lines only from a quote left open on its first line
            return (
                f"lines {first}-{last} read as one row (a quoted cell opened on line {first}"
                f" runs to line {last}): {len(row)} cells under a header of {len(header)}"
            )
        told = f"row of {len(row)} cells under a header of {len(header)}"
        marks = {profile.decimal: "decimals", profile.grouping: "thousands"}
        if len(row) > len(header) and profile.delimiter in marks:
            written = "5,00" if marks[profile.delimiter] == "decimals" else "1,234.50"
            told += (
                f" ({profile.delimiter!r} parts the cells and marks the amounts'"
                f" {marks[profile.delimiter]}: an amount written without quotes ({written}) is"
                " two cells or more; quote the amounts, or set [csv] delimiter)"
            )
        return told
    if _not_utf8(raw):
        return "not UTF-8 text (a byte that is not UTF-8)"
    return None


def _not_utf8(text: str) -> bool:
    """Whether a text read with surrogate escapes held a byte that is not UTF-8."""
    if text.isascii():
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _columns(paths: Any) -> tuple[str, ...]:
    columns: list[str] = []
    for path in paths:
        for one in path if isinstance(path, tuple) else (path,):
            columns.append(one.text)
    return tuple(columns)


def _csv_header(reader: Any, name: str, profile: Profile) -> list[str]:
    """The header, checked: no column twice, every column the profile names present."""
    try:
        header = next(reader, [])
    except csv.Error as error:
        raise InputError(f"{name}:1: cannot be read as CSV ({error})") from None
    if len(header) > MAX_CSV_COLUMNS:
        raise InputError(f"{name}:1: CSV header of {len(header):,} columns")
    twice = sorted(column[:60] for column, count in Counter(header).items() if count > 1)
    if twice:
        raise InputError(f"{name}:1: CSV header names column(s) {', '.join(twice)} twice")
    named = _columns(profile.round_fields.values()) + _columns(profile.bet_fields.values())
    missing = [column for column in named if column not in header]
    if missing:
        raise InputError(
            f"{name}:1: CSV header lacks column(s) {', '.join(missing)} that the log profile"
            f" {profile.label} reads (header: {', '.join(header[:30])})"
        )
    return header


class _Row(NamedTuple):
    """A row of a CSV export: its first line, its cells as read (of a row the csv module
    refused, the whole cells at the start of its first line), its text, and why it cannot be
    read (None: it can). A row without a problem has a cell under every column."""

    line: int
    cells: list[str]
    raw: str
    problem: str | None


def _cells_getter(indexes: tuple[int, ...]) -> Callable[[list[str]], tuple[str, ...]]:
    """The cells at ``indexes`` of a whole row, as a tuple (one subscript each, in C)."""
    if len(indexes) == 1:
        index = indexes[0]
        return lambda cells: (cells[index],)
    return itemgetter(*indexes)


class _Rounds:
    """The rows of the round being read: the consecutive rows of one round id. A round whose
    rows pass :data:`MAX_LINE_BYTES` characters (a JSON Lines round's bound), or
    :data:`MAX_ROUND_ROWS` rows, is kept no further: the rest of its rows are counted and
    streamed past, and it is one reject.

    A row is kept as the list of its cells; the profile's columns are read off it by their
    place in the header, and only for a round that loads: its first row's round columns, and
    the bet columns of each row that holds a bet (the non-empty ones, by column)."""

    def __init__(self, records: _Records, profile: Profile, header: list[str]):
        self.records = records
        self.header = header
        place = {column: index for index, column in enumerate(header)}
        self.id_index = place[profile.round_fields["round_id"].text]  # type: ignore[union-attr]
        self.round_columns = tuple(dict.fromkeys(_columns(profile.round_fields.values())))
        self.bet_columns = tuple(dict.fromkeys(_columns(profile.bet_fields.values())))
        self.round_cells = _cells_getter(tuple(place[column] for column in self.round_columns))
        self.bet_cells = _cells_getter(tuple(place[column] for column in self.bet_columns))
        self.group: list[_Row] = []
        self.round_id: str | None = None  # of the rows in the group
        self.chars = 0
        self.passed: list[int] = []  # past the bound: the rows' count and the last line

    def cells(self, row: _Row) -> dict[str, str]:
        """A row's non-empty cells by column (what a reject reads its round id and month of)."""
        return {column: cell for column, cell in zip(self.header, row.cells, strict=False) if cell}

    def add(self, row: _Row) -> list[Round | RejectedLine]:
        """Take the next row; the round before it, once it is of another round id."""
        index = self.id_index
        round_id = (row.cells[index] or None) if index < len(row.cells) else None
        finished = []
        if self.group and self.round_id != round_id:
            finished = self.flush()
        if self.passed:
            self.passed = [self.passed[0] + 1, row.line]
            return finished
        if not self.group:
            self.round_id = round_id
        self.group.append(row)
        self.chars += len(row.raw)
        if past_round_bounds(self.chars, len(self.group)):
            self.passed = [len(self.group), row.line]
            del self.group[1:]  # its first row stays: the round id, and the reject's text
        return finished

    def flush(self) -> list[Round | RejectedLine]:
        """The round of the rows taken (or its reject), and a fresh start."""
        group = self.group
        if not group:
            return []
        if self.passed:
            first = group[0]
            rows, last = self.passed
            lines = f"lines {first.line}-{last}"
            bound = round_past_bound(f"{rows:,} rows", lines, self.chars)
            problem = RecordError(RejectReason.BAD_VALUE, bound)
            finished = self.records.rejected(first.line, problem, _raw_of(group), self.cells(first))
        else:
            finished = self._round(group)
        self.group, self.chars, self.passed = [], 0, []
        return [finished]

    def _round(self, group: list[_Row]) -> Round | RejectedLine:
        """The round of one group of rows, or its reject: a round loads whole or not at all (a
        row that cannot be read, or that disagrees with the first on a round column, rejects
        its round at that row, with every row of the round in its text)."""
        records, first = self.records, group[0]
        problem = self._problem(group)
        if problem is not None:
            line, message = problem
            if len(group) > 1:
                message += f" (its round's {len(group)} rows, lines {first.line}-{group[-1].line}, are not loaded)"
            error = RecordError(RejectReason.BAD_VALUE, message)
            return records.rejected(line, error, _raw_of(group), self.cells(first))
        columns, bet_cells = self.bet_columns, self.bet_cells
        bets, bet_lines = [], []
        for row in group:
            cells = bet_cells(row.cells)
            if any(cells):
                bets.append(
                    {column: cell for column, cell in zip(columns, cells, strict=True) if cell}
                )
                bet_lines.append(row.line)
        document: dict[str, Any] = {
            column: cell
            for column, cell in zip(self.round_columns, self.round_cells(first.cells), strict=True)
            if cell
        }
        document[CSV_ROWS] = bets
        try:
            return records.validate(records.mapper.round_of(document), first.line, bet_lines)
        except RecordError as error:
            return records.rejected(first.line, error, _raw_of(group), self.cells(first))
        except Exception as error:  # whatever else a hostile row makes a parser raise
            error_problem = RecordError(
                RejectReason.BAD_VALUE, f"cannot be read ({type(error).__name__})"
            )
            return records.rejected(first.line, error_problem, _raw_of(group), self.cells(first))

    def _problem(self, group: list[_Row]) -> tuple[int, str] | None:
        """The first line of a round's rows that keeps the round from loading, and why."""
        first = group[0]
        if first.problem is not None:
            return first.line, first.problem
        round_cells = self.round_cells
        expected = round_cells(first.cells)  # the common case: all alike
        for row in group[1:]:
            if row.problem is not None:
                return row.line, row.problem
            if round_cells(row.cells) != expected:
                cells, first_cells = self.cells(row), self.cells(first)
                column = next(
                    column
                    for column in self.round_columns
                    if cells.get(column) != first_cells.get(column)
                )
                return first.line, (
                    f"line {row.line}: column {column} {shown(cells.get(column, ''))} differs"
                    f" from the round's first row (line {first.line}: {shown(first_cells.get(column, ''))})"
                )
        return None


def _raw_of(group: list[_Row]) -> bytes:
    """A rejected round's text: its rows, as read (only made for a reject)."""
    return "\n".join(row.raw for row in group).encode("utf-8", "surrogateescape")


_RECORDS = {"json": _document_records, "jsonl": _line_records, "csv": _csv_records}
