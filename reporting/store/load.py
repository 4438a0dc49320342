"""Loading round logs into the store: file by file, each in one transaction, by large batches.

* A file whose content hash is already in the ingest log is skipped whole.
* A round already stored with the same content is skipped (counted as a duplicate); with
  other content it is rejected as a ``conflict``, never overwritten.
* Bad lines are rejected with their reason and kept in ``rejected_records``; good lines load.
* A file loads all or nothing: a crash or an unreadable file mid-way leaves the database as it
  was before that file.
* Two processes loading the same file at once: the hash is looked up again once the write
  lock is held, so the second finds the file loaded (``already_ingested``), never a clash.
* A fault of the machine under the database (a full disk, a read-only database, a lock held
  too long) stops the ingest with one line saying what was kept; a file that cannot be read
  fails alone and the next one is tried.
* Files are named in the store as given, or relative to a base folder (:func:`stored_name`).
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import closing
from dataclasses import dataclass, field
from datetime import UTC, datetime
from itertools import accumulate
from operator import attrgetter, itemgetter
from pathlib import Path

from msgspec.structs import astuple, replace

from reporting.config.loader import OperatorConfig
from reporting.engine.games import GameSpec
from reporting.engine.money import format_cents
from reporting.errors import InputError
from reporting.files import environment_fault
from reporting.ingest.formats import check_source
from reporting.ingest.sources import RowBatch, Source, cyclic_gc_paused
from reporting.ingest.validation import shown
from reporting.ingest.worker import WORKER_MIN_BYTES, read_here, read_in_worker, worth_a_worker
from reporting.records import Bet, RejectedLine, RejectReason, Round
from reporting.store.announced import record_months
from reporting.store.faults import begin_immediate, connection_fault
from reporting.store.schema import BET_CONTENT_FIELDS, ROUND_CONTENT_FIELDS, stored_round_content

#: A record's content in the order :func:`stored_round_content` gives it, and a bet's.
_round_content = attrgetter(*ROUND_CONTENT_FIELDS)
_bet_content = attrgetter(*BET_CONTENT_FIELDS)
#: The same, named as in the round log, for the raw text of a conflict reject.
_LOG_NAMES = (*("game" if name == "game_id" else name for name in ROUND_CONTENT_FIELDS), "bets")

__all__ = ["FileResult", "IngestResult", "ingest", "read_with", "stored_name"]

BATCH_ROUNDS = 2_000

#: Called with (bytes done, bytes total) of the current file; None when not reporting.
ProgressCallback = Callable[[int, int], None]


@dataclass
class FileResult:
    """What one source contributed."""

    file: str
    sha256: str
    status: str  # "loaded", "already_ingested" or "failed"
    rounds_loaded: int = 0
    bets_loaded: int = 0
    rounds_skipped_duplicate: int = 0
    rejected: list[RejectedLine] = field(default_factory=list)
    rejected_count: int = 0
    error: str | None = None
    #: The rounds loaded, by reporting month (a run that writes one month names the others).
    months: dict[str, int] = field(default_factory=dict)


@dataclass
class IngestResult:
    """Totals over every source of one ``ingest`` run."""

    files: list[FileResult]

    @property
    def rounds_loaded(self) -> int:
        """Rounds stored by this run."""
        return sum(f.rounds_loaded for f in self.files)

    @property
    def bets_loaded(self) -> int:
        """Bets stored by this run."""
        return sum(f.bets_loaded for f in self.files)

    @property
    def rounds_skipped_duplicate(self) -> int:
        """Rounds already stored with the same content."""
        return sum(f.rounds_skipped_duplicate for f in self.files)

    @property
    def rejected(self) -> list[RejectedLine]:
        """The rejected lines kept in memory for the report (see ``keep_rejects``)."""
        return [reject for f in self.files for reject in f.rejected]

    @property
    def rejected_count(self) -> int:
        """Every rejected line of this run (all are stored in the database)."""
        return sum(f.rejected_count for f in self.files)

    @property
    def failed(self) -> list[FileResult]:
        """Sources that could not be read to the end (nothing of them was loaded)."""
        return [f for f in self.files if f.status == "failed"]

    @property
    def held_no_round(self) -> bool:
        """Whether the files read held no round at all: none loaded, none rejected, none
        already stored (a provider's empty export), as against files loaded before."""
        return (
            not self.rounds_loaded
            and not self.rejected_count
            and not any(
                f.status == "already_ingested" or f.rounds_skipped_duplicate for f in self.files
            )
        )


def ingest(
    connection: sqlite3.Connection,
    sources: Iterable[Source],
    config: OperatorConfig,
    *,
    progress: Callable[[Source], ProgressCallback | None] = lambda source: None,
    keep_rejects: int = 10_000,
    worker_min_bytes: int = WORKER_MIN_BYTES,
    base: Path | None = None,
) -> IngestResult:
    """Load every source; returns what each one contributed.

    ``keep_rejects`` bounds how many rejected lines per file are kept in memory for the
    report; all of them are stored in the database and counted. JSON Lines files of
    ``worker_min_bytes`` or more are read in a second process (see :mod:`reporting.ingest.worker`).

    ``base`` says how files are named in the store and the result (:func:`stored_name`): as
    given when None (``ingest FILE`` names a file as its user typed it), else relative to
    ``base`` (the monthly job passes its inbox, so that the same inbox gives the same names
    however it was typed and from whichever folder).

    A file that cannot be read, or whose reading fails, is reported as ``failed`` (nothing of
    it kept) and the next file is tried. A fault of the machine under the database (a full
    disk, a read-only or forbidden database, a lock held longer than the connection's wait)
    would stop every later file too: nothing of the file being loaded is kept, the files
    before it stay loaded, and its :class:`~reporting.errors.EnvironmentFault` is raised,
    saying so.
    """
    results: list[FileResult] = []
    for source in sources:
        try:
            result = _ingest_source(
                connection,
                source,
                config.games,
                progress(source),
                keep_rejects,
                worth_a_worker(source, worker_min_bytes),
                base,
            )
        except sqlite3.Error as error:
            fault = connection_fault(connection, error, context=_stopped_at(source, results))
            if fault is None:
                raise
            raise fault from None
        results.append(result)
    return IngestResult(results)


def read_with(connection: sqlite3.Connection, hashes: Sequence[str]) -> dict[str, str | None]:
    """The log profile each file of these sha256 was read with when it was loaded (None: the
    spec's round log): a file is read once per store, whatever profile names it later."""
    return dict(
        connection.execute(
            "SELECT file_sha256, profile FROM ingest_log"
            " WHERE file_sha256 IN (SELECT value FROM json_each(?))",
            (json.dumps(list(hashes)),),
        )
    )


def _stopped_at(source: Source, results: list[FileResult]) -> str:
    """What a fault of the database stopping the ingest at ``source`` left, in words."""
    loaded = sum(result.status == "loaded" for result in results)
    earlier = f"; the {loaded} file(s) this run loaded before it are kept" if loaded else ""
    return (
        f" while loading {source.path}: nothing of it was kept{earlier}; the ingest stopped"
        " there (no later file was tried)"
    )


def stored_name(path: Path, base: Path | None) -> str:
    """How the store names ``path``: as given when ``base`` is None, else relative to
    ``base`` in POSIX form (a file outside ``base`` keeps the name it was given).

    >>> stored_name(Path("inbox/2026/a.jsonl"), Path("inbox"))
    '2026/a.jsonl'
    >>> stored_name(Path("inbox/a.jsonl"), None)
    'inbox/a.jsonl'
    """
    if base is None:
        return str(path)
    for absolute in (os.path.abspath, os.path.realpath):
        try:
            return Path(absolute(path)).relative_to(absolute(base)).as_posix()
        except ValueError:
            continue
    return str(path)


class _Names:
    """A source's names in the store, and the renaming of its readers' rejected lines (which
    name the files as they were opened) to them."""

    def __init__(self, source: Source, base: Path | None):
        self.file = stored_name(source.path, base)
        self.companion = None if source.companion is None else stored_name(source.companion, base)
        given = [(str(source.path), self.file)]
        if source.companion is not None:
            given.append((str(source.companion), self.companion))
        self.renames = {name: stored for name, stored in given if name != stored}

    def renamed(self, reject: RejectedLine) -> RejectedLine:
        """``reject`` naming its file (in its location and its message) as the store does."""
        message = reject.message
        for name, stored in self.renames.items():
            message = message.replace(name, stored)
        return replace(
            reject,
            source_file=self.renames.get(reject.source_file, reject.source_file),
            message=message,
        )


#: A round log of no byte (a CSV pair: both files empty), of any format: an upload that has not
#: begun more likely than a log of no round (a month published without it would say nothing
#: of it), refused as a gzip cut short is, and never recorded as read.
_EMPTY = (
    "{}: an empty file: it is still being written, or was cut; nothing of it was loaded (it"
    " loads at the next run once whole; remove it if it is meant to be empty)"
)


def _ingest_source(
    connection: sqlite3.Connection,
    source: Source,
    games: Mapping[str, GameSpec],
    report: ProgressCallback | None,
    keep_rejects: int,
    in_worker: bool,
    base: Path | None,
) -> FileResult:
    names = _Names(source, base)
    check_source(source)  # an unknown format is a bug: fail before anything is written
    try:
        sha256 = source.sha256()
        total_bytes = source.size
    except InputError as error:  # not a regular file
        return FileResult(names.file, "", "failed", error=str(error))
    except OSError as error:
        return FileResult(
            names.file, "", "failed", error=f"{source.path}: cannot be read ({error})"
        )
    if total_bytes == 0:  # an upload not begun: never a file read (its hash is every such one's)
        return FileResult(names.file, sha256, "failed", error=_EMPTY.format(source.path))
    if _known(connection, sha256):  # without the write lock: a re-run waits for nobody
        return FileResult(names.file, sha256, "already_ingested")
    begin_immediate(connection)
    try:
        # Again under the write lock: another process may have loaded the same file while
        # this one waited for the lock.
        if _known(connection, sha256):
            connection.execute("ROLLBACK")
            return FileResult(names.file, sha256, "already_ingested")
        result = FileResult(names.file, sha256, "loaded")
        _load(connection, source, names, games, report, keep_rejects, in_worker, result)
        connection.execute("COMMIT")
    except InputError as error:
        _roll_back(connection)
        return FileResult(names.file, sha256, "failed", error=str(error))
    except OSError as error:  # reading the file failed mid-way
        _roll_back(connection)
        fault = environment_fault(error, source.path, "read it to the end")
        return FileResult(names.file, sha256, "failed", error=f"{fault}; nothing of it was loaded")
    except BaseException:
        _roll_back(connection)
        raise
    if report is not None:
        report(total_bytes, total_bytes)
    return result


def _known(connection: sqlite3.Connection, sha256: str) -> bool:
    """Whether a file of this content is in the ingest log."""
    return (
        connection.execute("SELECT 1 FROM ingest_log WHERE file_sha256 = ?", (sha256,)).fetchone()
        is not None
    )


def _load(
    connection: sqlite3.Connection,
    source: Source,
    names: _Names,
    games: Mapping[str, GameSpec],
    report: ProgressCallback | None,
    keep_rejects: int,
    in_worker: bool,
    result: FileResult,
) -> None:
    """Read the source and write it into the open transaction, filling ``result``."""
    total_bytes = source.size
    ingest_id = _log_file(connection, source, names, result.sha256, total_bytes)
    writer = _BatchWriter(connection, ingest_id, result, keep_rejects, names)
    with cyclic_gc_paused():
        batches = (
            read_in_worker(source, games, BATCH_ROUNDS)
            if in_worker
            else read_here(source, games, BATCH_ROUNDS)
        )
        with closing(batches):  # stops a reading process at once if writing fails
            for batch in batches:
                writer.write(batch)
                if report is not None:
                    report(batch.position, total_bytes)
    _log_totals(connection, ingest_id, writer.lines, result)
    record_months(connection, ingest_id, result.months)


def _roll_back(connection: sqlite3.Connection) -> None:
    """Undo the open transaction, unless SQLite already has (after a full disk it may):
    the error being handled is the one to report, never one of the rollback."""
    if connection.in_transaction:
        with contextlib.suppress(sqlite3.Error):
            connection.execute("ROLLBACK")


def _log_file(
    connection: sqlite3.Connection, source: Source, names: _Names, sha256: str, size: int
) -> int:
    """Enter the file in the ingest log (inside the open transaction); its ingest_id."""
    return connection.execute(
        "INSERT INTO ingest_log (file_name, companion_name, file_sha256, file_size, format,"
        " ingested_at, profile, profile_sha256) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (
            names.file,
            names.companion,
            sha256,
            size,
            source.format,
            datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            None if source.profile is None else source.profile.label,
            None if source.profile is None else source.profile.sha256,
        ),
    ).lastrowid


def _log_totals(
    connection: sqlite3.Connection, ingest_id: int, lines: int, result: FileResult
) -> None:
    """Record in the ingest log what the file contributed."""
    connection.execute(
        "UPDATE ingest_log SET lines_read = ?, rounds_loaded = ?, bets_loaded = ?,"
        " rounds_skipped_duplicate = ?, rejected = ? WHERE ingest_id = ?",
        (
            lines,
            result.rounds_loaded,
            result.bets_loaded,
            result.rounds_skipped_duplicate,
            result.rejected_count,
            ingest_id,
        ),
    )


# A batch comes as rows (reporting.ingest.sources.RowBatch): a round's row is its record's
# fields but its bets, a bet's its record's fields, the statements' parameters in that order.
_ROUND_COLUMNS = Round.__struct_fields__[:-1]
assert Round.__struct_fields__[-1] == "bets"
_ROUND_ID = _ROUND_COLUMNS.index("round_id")
_SOURCE_LINE = _ROUND_COLUMNS.index("source_line")
_month_of = itemgetter(_ROUND_COLUMNS.index("report_month"))
_BET_ROUND_ID = Bet.__struct_fields__.index("round_id")
#: The file's ingest id is a number of the store's own (never text of the log), written into
#: the statement once per file: a round's row is then its record's fields alone. A round
#: already stored is left as it is (ON CONFLICT applies to the primary key only: a row that
#: breaks a CHECK still fails), and the writer then tells a duplicate from a conflict.
_INSERT_ROUND = (
    f"INSERT INTO rounds ({', '.join(_ROUND_COLUMNS)}, ingest_id)"
    f" VALUES ({', '.join('?' * len(_ROUND_COLUMNS))}, {{ingest_id:d}})"
    " ON CONFLICT (round_id) DO NOTHING"
)
_INSERT_BET = (
    f"INSERT INTO bets ({', '.join(Bet.__struct_fields__)})"
    f" VALUES ({', '.join('?' * len(Bet.__struct_fields__))})"
)
# The table keeps its v1 column names: file_name is a RejectedLine's source_file, line its
# source_line.
_INSERT_REJECT = (
    "INSERT INTO rejected_records (ingest_id, file_name, line, reason, message, round_id,"
    " raw_text, report_month) VALUES (?,?,?,?,?,?,?,?)"
)


#: The fields of a bet in a round's content after its id, the money ones in cents.
_BET_CONTENT = BET_CONTENT_FIELDS[1:]


def _difference(kept: tuple, given: tuple) -> str:
    """The first field in which a round given differs from the one kept, in the round log's
    words and units (``the payout of bet 'B-1': 20.00 stored, 0.00 on this line``): what the conflict is
    about, for whoever asks the provider."""
    for name, old, new in zip(_LOG_NAMES[:-1], kept, given, strict=False):
        if old != new:
            return f"{name}: {_shown(old)} stored, {_shown(new)} on this line"
    old_bets = {bet[0]: bet for bet in (kept[-1] if kept else ())}
    new_bets = {bet[0]: bet for bet in (given[-1] if given else ())}
    for bet_id in sorted(old_bets.keys() | new_bets.keys()):
        old, new = old_bets.get(bet_id), new_bets.get(bet_id)
        if old is None or new is None:
            return f"bet {shown(bet_id)} {'on this line' if old is None else 'in the stored round'} only"
        for index, name in enumerate(_BET_CONTENT, start=1):
            if old[index] != new[index]:
                money = name.endswith("_cents")
                was, now = (
                    format_cents(v) if money else _shown(v) for v in (old[index], new[index])
                )
                named = "type" if name == "bet_type" else name.removesuffix("_cents")
                return f"the {named} of bet {shown(bet_id)}: {was} stored, {now} on this line"
    return "the same fields, in another form"


def _shown(value: object) -> str:
    return "none" if value is None else shown(value) if isinstance(value, str) else str(value)


def _records_of(batch: RowBatch) -> list[Round]:
    """The batch's rounds as records again (for the rare batch whose rounds must be told
    apart: a round twice, or one already stored)."""
    ends = list(accumulate(batch.bet_counts))
    return [
        Round(*row, [Bet(*bet) for bet in batch.bets[end - count : end]])
        for row, count, end in zip(batch.rounds, batch.bet_counts, ends, strict=True)
    ]


class _BatchWriter:
    """Writes batches into the open transaction, resolving duplicates and conflicts."""

    def __init__(
        self,
        connection: sqlite3.Connection,
        ingest_id: int,
        result: FileResult,
        keep_rejects: int,
        names: _Names,
    ):
        self.connection = connection
        self.names = names
        self.ingest_id = ingest_id
        self.result = result
        self.keep_rejects = keep_rejects
        self.lines = 0
        self._file_names: dict[int, str] = {}
        self._insert_round = _INSERT_ROUND.format(ingest_id=ingest_id)

    def write(self, batch: RowBatch) -> None:
        """Store a batch: its new rounds with their bets, and its rejected lines together
        with the rounds that conflict with one stored (or earlier in the batch).

        The common batch, of rounds new to the store and each once, costs two
        ``executemany`` of its rows as they came; the rest is told apart only when the
        batch holds a round twice, or when fewer rounds than given were inserted."""
        rejects = list(batch.rejects)
        rounds, bets = batch.rounds, batch.bets
        if rounds:
            if len({row[_ROUND_ID] for row in rounds}) != len(rounds):
                rounds, bets = self._first_of_each(_records_of(batch), rejects)
            inserted = self.connection.executemany(self._insert_round, rounds).rowcount
            months = Counter(map(_month_of, rounds))
            if inserted != len(rounds):
                bets, kept_out = self._drop_stored(rounds, bets, rejects)
                months -= Counter(_month_of(row) for row in rounds if row[_ROUND_ID] in kept_out)
            self.connection.executemany(_INSERT_BET, bets)
            for month, count in months.items():
                self.result.months[month] = self.result.months.get(month, 0) + count
            self.result.rounds_loaded += inserted
            self.result.bets_loaded += len(bets)
        self.lines += len(batch.rounds) + len(batch.rejects)
        if rejects:
            self._store_rejects(rejects)

    def _first_of_each(
        self, records: list[Round], rejects: list[RejectedLine]
    ) -> tuple[list[tuple], list[tuple]]:
        """The rows of the batch's first round of each id, and of their bets; a repeat is a
        duplicate when its content is the same, a conflict (added to ``rejects``) when not."""
        fresh: dict[str, Round] = {}
        for record in records:
            earlier = fresh.get(record.round_id)
            if earlier is None:
                fresh[record.round_id] = record
            elif self._content(earlier) == self._content(record):
                self.result.rounds_skipped_duplicate += 1
            else:
                where = f"line {earlier.source_line} of this file"
                rejects.append(self._conflict(record, where, self._content(earlier)))
        kept = list(fresh.values())
        return (
            [astuple(record)[: len(_ROUND_COLUMNS)] for record in kept],
            [astuple(bet) for record in kept for bet in record.bets],
        )

    def _drop_stored(
        self, rounds: list[tuple], bets: list[tuple], rejects: list[RejectedLine]
    ) -> tuple[list[tuple], set[str]]:
        """The bets of the rounds just inserted; the rounds that were not (stored before this
        batch, by an earlier file or earlier in this one) are duplicates, or conflicts."""
        connection = self.connection
        given = {row[_ROUND_ID]: row for row in rounds}
        stored = connection.execute(
            "SELECT round_id, ingest_id, source_line FROM rounds"
            " WHERE round_id IN (SELECT value FROM json_each(?))",
            (json.dumps(list(given)),),
        ).fetchall()
        earlier = [
            (round_id, ingest_id, source_line)
            for round_id, ingest_id, source_line in stored
            if (ingest_id, source_line) != (self.ingest_id, given[round_id][_SOURCE_LINE])
        ]  # the rest: this very row, inserted now
        kept_out = {round_id for round_id, _, _ in earlier}
        bets_of: dict[str, list[Bet]] = {round_id: [] for round_id in kept_out}
        for bet in bets:
            if bet[_BET_ROUND_ID] in kept_out:
                bets_of[bet[_BET_ROUND_ID]].append(Bet(*bet))
        for round_id, ingest_id, source_line in earlier:
            record = Round(*given[round_id], bets_of[round_id])
            kept = stored_round_content(connection, round_id)
            if kept == self._content(record):
                self.result.rounds_skipped_duplicate += 1
            elif ingest_id == self.ingest_id:
                where = f"line {source_line} of this file"
                rejects.append(self._conflict(record, where, kept or ()))
            else:
                where = f"{self._source_name(ingest_id)}:{source_line}"
                rejects.append(self._conflict(record, where, kept or ()))
        return [bet for bet in bets if bet[_BET_ROUND_ID] not in kept_out], kept_out

    def _store_rejects(self, rejects: list[RejectedLine]) -> None:
        """Store the rejected lines in file order, and keep the first ones for the report."""
        if self.names.renames:
            rejects = [self.names.renamed(reject) for reject in rejects]
        rejects.sort(key=lambda reject: (reject.source_file, reject.source_line))
        ingest_id = self.ingest_id
        self.connection.executemany(
            _INSERT_REJECT,
            [
                (
                    ingest_id,
                    r.source_file,
                    r.source_line,
                    r.reason,
                    r.message,
                    r.round_id,
                    r.raw_text,
                    r.report_month,
                )
                for r in rejects
            ],
        )
        self.result.rejected_count += len(rejects)
        room = self.keep_rejects - len(self.result.rejected)
        if room > 0:
            self.result.rejected.extend(rejects[:room])

    @staticmethod
    def _content(record: Round) -> tuple:
        """The record as the store holds it (see :func:`stored_round_content`)."""
        bets = tuple(sorted(_bet_content(bet) for bet in record.bets))
        return (*_round_content(record), bets)

    def _conflict(self, record: Round, where: str, kept: tuple) -> RejectedLine:
        content = self._content(record)
        return RejectedLine(
            source_file=self.result.file,
            source_line=record.source_line,
            reason=RejectReason.CONFLICT.value,
            message=f"round {record.round_id!r} was already loaded from {where} with other"
            f" content ({_difference(kept, content)}); the stored round is kept",
            raw_text=json.dumps(dict(zip(_LOG_NAMES, content, strict=True)), ensure_ascii=False),
            round_id=record.round_id,
            report_month=record.report_month,
        )

    def _source_name(self, ingest_id: int) -> str:
        if ingest_id not in self._file_names:
            row = self.connection.execute(
                "SELECT file_name FROM ingest_log WHERE ingest_id = ?", (ingest_id,)
            ).fetchone()
            self._file_names[ingest_id] = row[0] if row else "an earlier file"
        return self._file_names[ingest_id]
