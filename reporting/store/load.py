"""Loading round logs into the store: file by file, each in one transaction, by large batches.

* A file whose content hash is already in the ingest log is skipped whole.
* A round already stored with the same content is skipped (counted as a duplicate); with
  other content it is rejected as a ``conflict``, never overwritten.
* A round of a CSV export (its consecutive rows) whose id comes back later in the file with
  other rows is apart: neither part loads, each is a ``conflict`` naming the other
  (:mod:`reporting.store.writer`).
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
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import closing
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from msgspec.structs import replace

from reporting.config.loader import OperatorConfig
from reporting.engine.games import GameSpec
from reporting.errors import InputError, checkpoint
from reporting.files import environment_fault, utf8_name
from reporting.ingest.formats import check_source
from reporting.ingest.sources import Source, cyclic_gc_paused
from reporting.ingest.worker import WORKER_MIN_BYTES, read_here, read_in_worker, worth_a_worker
from reporting.records import RejectedLine
from reporting.store.announced import record_months
from reporting.store.faults import begin_immediate, connection_fault
from reporting.store.writer import BatchWriter

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
    #: The optional fields its log profile reads that were empty in every round (or bet) of
    #: the file's first batch, each with its path: a path that matches nothing in the export
    #: stores every value empty without a reject.
    empty_fields: list[str] = field(default_factory=list)
    #: The fields of the file the tool does not read (an exporter's own: a round's by name, a
    #: bet's as ``bets[].name``): what they hold is in no check
    #: (:class:`~reporting.ingest.sources.UnreadFields`).
    fields_not_read: tuple[str, ...] = ()
    #: Its rounds already stored with the same content (``rounds_skipped_duplicate``), by the
    #: stored round's reporting month: a re-export is behind the months it repeats.
    duplicate_months: dict[str, int] = field(default_factory=dict)


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


def read_with(
    connection: sqlite3.Connection, hashes: Sequence[str]
) -> dict[str, tuple[str | None, str | None]]:
    """The log profile each file of these sha256 was read with when it was loaded, and the
    profile file's sha256 then (None, None: the spec's round log): a file is read once per
    store, whatever profile names it later."""
    return {
        sha256: (profile, profile_sha256)
        for sha256, profile, profile_sha256 in connection.execute(
            "SELECT file_sha256, profile, profile_sha256 FROM ingest_log"
            " WHERE file_sha256 IN (SELECT value FROM json_each(?))",
            (json.dumps(list(hashes)),),
        )
    }


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
        return _text_of(str(path))
    for absolute in (os.path.abspath, os.path.realpath):
        try:
            return _text_of(Path(absolute(path)).relative_to(absolute(base)).as_posix())
        except ValueError:
            continue
    return _text_of(str(path))


def _text_of(name: str) -> str:
    """A file's name as the store keeps it: its bytes read as UTF-8, whatever the locale
    decoded them as (under a C or Latin-1 locale, ``été`` is ``\udcc3\udca9t...`` or
    ``Ã©tÃ©``). A name that is no UTF-8 is refused before a file is read."""
    return utf8_name(name)


class StoredNames:
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


#: A file its writer cut short, added to or replaced while it was read: the rounds read are
#: not those of the content hashed, by which a later run knows the file (a file cut short
#: kept its rounds up to the cut, and the whole file, sent again, was taken as loaded).
_CHANGED = (
    "{}: changed while it was read (its size or a time of change is not what it was); nothing"
    " of it was loaded (it loads at the next run, once its writer has finished it)"
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
    names = StoredNames(source, base)
    check_source(source)  # an unknown format is a bug: fail before anything is written
    try:
        before = source.state()
        sha256 = source.sha256()
        total_bytes = sum(state.size for state in before)
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
        if source.state() != before:  # what was read is not what was hashed
            raise InputError(_CHANGED.format(source.path))
        checkpoint()  # a stop dropped while the file was read: its rounds are not kept
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
    names: StoredNames,
    games: Mapping[str, GameSpec],
    report: ProgressCallback | None,
    keep_rejects: int,
    in_worker: bool,
    result: FileResult,
) -> None:
    """Read the source and write it into the open transaction, filling ``result``."""
    total_bytes = source.size
    ingest_id = _log_file(connection, source, names, result.sha256, total_bytes)
    rows_together = source.profile is not None and source.format == "csv"
    writer = BatchWriter(connection, ingest_id, result, keep_rejects, names, rows_together)
    if source.profile is not None:
        writer.watch_fields(source.profile.round_fields, source.profile.bet_fields)
    with cyclic_gc_paused():
        batches = (
            read_in_worker(source, games, BATCH_ROUNDS)
            if in_worker
            else read_here(source, games, BATCH_ROUNDS)
        )
        with closing(batches):  # stops a reading process at once if writing fails
            for batch in batches:
                writer.write(batch)
                result.fields_not_read = batch.unread  # the last batch's: the file's
                if report is not None:
                    report(batch.position, total_bytes)
    _log_totals(connection, ingest_id, writer.lines, result)
    # a re-export's months count too when it holds fields no check reads (its rows of no
    # round: the monthly job tells of them for a month already published)
    repeated = result.duplicate_months if result.fields_not_read else {}
    record_months(connection, ingest_id, result.months, repeated)


def _roll_back(connection: sqlite3.Connection) -> None:
    """Undo the open transaction, unless SQLite already has (after a full disk it may):
    the error being handled is the one to report, never one of the rollback."""
    if connection.in_transaction:
        with contextlib.suppress(sqlite3.Error):
            connection.execute("ROLLBACK")


def _log_file(
    connection: sqlite3.Connection, source: Source, names: StoredNames, sha256: str, size: int
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
        " rounds_skipped_duplicate = ?, rejected = ?, fields_not_read = ?, duplicate_months = ?"
        " WHERE ingest_id = ?",
        (
            lines,
            result.rounds_loaded,
            result.bets_loaded,
            result.rounds_skipped_duplicate,
            result.rejected_count,
            json.dumps(result.fields_not_read, ensure_ascii=False),  # NULL: not looked for
            json.dumps(dict(sorted(result.duplicate_months.items()))),  # NULL: not kept
            ingest_id,
        ),
    )
