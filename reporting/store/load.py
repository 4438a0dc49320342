"""Loading round logs into the store: file by file, each in one transaction, by large batches.

* A file whose content hash is already in the ingest log is skipped whole.
* A round already stored with the same content is skipped (counted as a duplicate); with
  other content it is rejected as a ``conflict``, never overwritten.
* Bad lines are rejected with their reason and kept in ``rejected_records``; good lines load.
* A file loads all or nothing: a crash or an unreadable file mid-way leaves the database as it
  was before that file.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterable, Mapping
from contextlib import closing
from dataclasses import dataclass, field
from datetime import UTC, datetime
from itertools import chain
from operator import attrgetter

from msgspec.structs import astuple

from reporting.config.loader import OperatorConfig
from reporting.engine.games import GameSpec
from reporting.errors import InputError
from reporting.ingest.formats import format_named, read_source
from reporting.ingest.sources import Batch, Source, cyclic_gc_paused
from reporting.ingest.worker import WORKER_MIN_BYTES, read_in_worker, worth_a_worker
from reporting.records import Bet, RejectedLine, RejectReason, Round
from reporting.store.schema import ROUND_CONTENT_FIELDS, stored_round_content

#: A record's content in the order :func:`stored_round_content` gives it.
_round_content = attrgetter(*ROUND_CONTENT_FIELDS)
#: The same, named as in the round log, for the raw text of a conflict reject.
_LOG_NAMES = (*("game" if name == "game_id" else name for name in ROUND_CONTENT_FIELDS), "bets")

__all__ = ["FileResult", "IngestResult", "ingest"]

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


def ingest(
    connection: sqlite3.Connection,
    sources: Iterable[Source],
    config: OperatorConfig,
    *,
    progress: Callable[[Source], ProgressCallback | None] = lambda source: None,
    keep_rejects: int = 10_000,
    worker_min_bytes: int = WORKER_MIN_BYTES,
) -> IngestResult:
    """Load every source; returns what each one contributed.

    ``keep_rejects`` bounds how many rejected lines per file are kept in memory for the
    report; all of them are stored in the database and counted. JSON Lines files of
    ``worker_min_bytes`` or more are read in a second process (see :mod:`reporting.ingest.worker`).
    """
    results = []
    for source in sources:
        results.append(
            _ingest_source(
                connection,
                source,
                config.games,
                progress(source),
                keep_rejects,
                worth_a_worker(source, worker_min_bytes),
            )
        )
    return IngestResult(results)


def _ingest_source(
    connection: sqlite3.Connection,
    source: Source,
    games: Mapping[str, GameSpec],
    report: ProgressCallback | None,
    keep_rejects: int,
    in_worker: bool,
) -> FileResult:
    name = str(source.path)
    format_named(source.format)  # an unknown format is a bug: fail before anything is written
    try:
        sha256 = source.sha256()
        total_bytes = source.size
    except OSError as error:
        return FileResult(name, "", "failed", error=f"{name}: cannot be read ({error})")
    known = connection.execute(
        "SELECT file_name FROM ingest_log WHERE file_sha256 = ?", (sha256,)
    ).fetchone()
    if known is not None:
        return FileResult(name, sha256, "already_ingested")
    result = FileResult(name, sha256, "loaded")
    connection.execute("BEGIN IMMEDIATE")
    try:
        ingest_id = _log_file(connection, source, sha256, total_bytes)
        writer = _BatchWriter(connection, ingest_id, result, keep_rejects)
        with cyclic_gc_paused():
            batches = (
                read_in_worker(source, games, BATCH_ROUNDS)
                if in_worker
                else read_source(source, games, BATCH_ROUNDS)
            )
            with closing(batches):  # stops a reading process at once if writing fails
                for batch in batches:
                    writer.write(batch)
                    if report is not None:
                        report(batch.position, total_bytes)
        _log_totals(connection, ingest_id, writer.lines, result)
        connection.execute("COMMIT")
    except InputError as error:
        connection.execute("ROLLBACK")
        return FileResult(name, sha256, "failed", error=str(error))
    except BaseException:
        connection.execute("ROLLBACK")
        raise
    if report is not None:
        report(total_bytes, total_bytes)
    return result


def _log_file(connection: sqlite3.Connection, source: Source, sha256: str, size: int) -> int:
    """Enter the file in the ingest log (inside the open transaction); its ingest_id."""
    return connection.execute(
        "INSERT INTO ingest_log (file_name, companion_name, file_sha256, file_size, format,"
        " ingested_at) VALUES (?, ?, ?, ?, ?, ?)",
        (
            str(source.path),
            str(source.companion) if source.companion else None,
            sha256,
            size,
            source.format,
            datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
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


# A Round's fields but its bets, and a Bet's fields, are columns of the rounds and bets
# tables: astuple gives the row in the statement's order (a tuple costs less than asking
# for each field by name).
_ROUND_COLUMNS = Round.__struct_fields__[:-1]
assert Round.__struct_fields__[-1] == "bets"
#: The file's ingest id is a number of the store's own (never text of the log), written into
#: the statement once per file: a round's row is then its record's fields alone.
_INSERT_ROUND = (
    f"INSERT INTO rounds ({', '.join(_ROUND_COLUMNS)}, ingest_id)"
    f" VALUES ({', '.join('?' * len(_ROUND_COLUMNS))}, {{ingest_id:d}})"
)
_ROUND_WIDTH = len(_ROUND_COLUMNS)
_INSERT_BET = (
    f"INSERT INTO bets ({', '.join(Bet.__struct_fields__)})"
    f" VALUES ({', '.join('?' * len(Bet.__struct_fields__))})"
)
# The table keeps its v1 column names: file_name is a RejectedLine's source_file, line its
# source_line.
_INSERT_REJECT = (
    "INSERT INTO rejected_records (ingest_id, file_name, line, reason, message, round_id,"
    " raw_text) VALUES (?,?,?,?,?,?,?)"
)


class _BatchWriter:
    """Writes batches into the open transaction, resolving duplicates and conflicts."""

    def __init__(
        self, connection: sqlite3.Connection, ingest_id: int, result: FileResult, keep_rejects: int
    ):
        self.connection = connection
        self.ingest_id = ingest_id
        self.result = result
        self.keep_rejects = keep_rejects
        self.lines = 0
        self._file_names: dict[int, str] = {}
        self._insert_round = _INSERT_ROUND.format(ingest_id=ingest_id)

    def write(self, batch: Batch) -> None:
        """Store a batch: its new rounds with their bets, and its rejected lines together
        with the rounds that conflict with one stored (or earlier in the batch)."""
        rejects = list(batch.rejects)
        fresh = self._new_in_batch(batch.records, rejects)
        if fresh:
            self._drop_stored(fresh, rejects)
            self.connection.executemany(
                self._insert_round, [astuple(record)[:_ROUND_WIDTH] for record in fresh.values()]
            )
            bets = list(map(astuple, chain.from_iterable(r.bets for r in fresh.values())))
            self.connection.executemany(_INSERT_BET, bets)
            self.result.rounds_loaded += len(fresh)
            self.result.bets_loaded += len(bets)
        self.lines += len(batch.records) + len(batch.rejects)
        if rejects:
            self._store_rejects(rejects)

    def _new_in_batch(self, records: list[Round], rejects: list[RejectedLine]) -> dict[str, Round]:
        """The batch's rounds by id, the first of each; a repeat is a duplicate when its
        content is the same, a conflict (added to ``rejects``) when not."""
        fresh: dict[str, Round] = {}
        for record in records:
            earlier = fresh.get(record.round_id)
            if earlier is None:
                fresh[record.round_id] = record
            elif self._content(earlier) == self._content(record):
                self.result.rounds_skipped_duplicate += 1
            else:
                rejects.append(self._conflict(record, f"line {earlier.source_line} of this file"))
        return fresh

    def _drop_stored(self, fresh: dict[str, Round], rejects: list[RejectedLine]) -> None:
        """Take out of ``fresh`` the rounds already stored: duplicates, or conflicts."""
        connection = self.connection
        stored = connection.execute(
            "SELECT round_id, ingest_id, source_line FROM rounds"
            " WHERE round_id IN (SELECT value FROM json_each(?))",
            (json.dumps(list(fresh)),),
        ).fetchall()
        for round_id, ingest_id, source_line in stored:
            record = fresh.pop(round_id)
            if stored_round_content(connection, round_id) == self._content(record):
                self.result.rounds_skipped_duplicate += 1
            elif ingest_id == self.ingest_id:
                rejects.append(self._conflict(record, f"line {source_line} of this file"))
            else:
                where = f"{self._source_name(ingest_id)}:{source_line}"
                rejects.append(self._conflict(record, where))

    def _store_rejects(self, rejects: list[RejectedLine]) -> None:
        """Store the rejected lines in file order, and keep the first ones for the report."""
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
        bets = tuple(sorted(astuple(bet)[1:8] for bet in record.bets))
        return (*_round_content(record), bets)

    def _conflict(self, record: Round, where: str) -> RejectedLine:
        content = self._content(record)
        return RejectedLine(
            source_file=self.result.file,
            source_line=record.source_line,
            reason=RejectReason.CONFLICT.value,
            message=f"round {record.round_id!r} was already loaded from {where} with other"
            " content; the stored round is kept",
            raw_text=json.dumps(dict(zip(_LOG_NAMES, content, strict=True)), ensure_ascii=False),
            round_id=record.round_id,
        )

    def _source_name(self, ingest_id: int) -> str:
        if ingest_id not in self._file_names:
            row = self.connection.execute(
                "SELECT file_name FROM ingest_log WHERE ingest_id = ?", (ingest_id,)
            ).fetchone()
            self._file_names[ingest_id] = row[0] if row else "an earlier file"
        return self._file_names[ingest_id]
