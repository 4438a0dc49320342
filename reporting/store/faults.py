"""Faults of the machine under the database, as one-line errors, and the per-database lock.

SQLite reports a full disk, a read-only file, a missing folder or a database another process
holds as :class:`sqlite3.OperationalError` with a result code. :func:`database_fault` turns
those into the :class:`~reporting.errors.InputError` subclass a user can act on, naming the
database; any other ``sqlite3`` error (a constraint, a syntax error) stays what it is: a bug.

:func:`database_lock` is one lock per database for work that must not interleave with another
run's (two ``monthly`` runs on one database): a ``flock`` on ``<database>.lock`` beside the
database file (beside the real file when the given path is a symbolic link), never in an
output tree that gets published.

:func:`begin_immediate` waits for another process's write lock in short steps, so that a
signal (a scheduler's SIGTERM) stops the wait at once rather than after ``--db-wait``.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from reporting.errors import (
    DatabaseBusy,
    DiskFull,
    EnvironmentFault,
    InputError,
    NotARegularFile,
    NotOurDatabase,
    PermissionDenied,
    StoreDamaged,
)
from reporting.files import SQLITE_HEADER, hold_lock, open_regular

__all__ = [
    "DEFAULT_WAIT",
    "WAIT_STEP",
    "begin_immediate",
    "connection_fault",
    "database_fault",
    "database_faults",
    "database_file",
    "database_lock",
    "lock_path",
    "on_read_only_media",
    "store_file",
]

#: Seconds a command waits for another process's lock on the database before giving up.
DEFAULT_WAIT = 60.0

#: Seconds of one step of :func:`begin_immediate`'s wait: SQLite waits in C, where Python
#: runs no signal handler, so a SIGTERM or Ctrl-C is handled within a step.
WAIT_STEP = 0.2


def begin_immediate(connection: sqlite3.Connection) -> None:
    """``BEGIN IMMEDIATE`` on ``connection``, waiting for another writer as long as its busy
    timeout says (``--db-wait``), but in steps of :data:`WAIT_STEP`: between two steps a
    signal's handler runs, and stops the command at once. Past the wait, SQLite's own
    "database is locked", with the busy timeout as it was (the fault names the wait)."""
    allowed = connection.execute("PRAGMA busy_timeout").fetchone()[0]
    deadline = time.monotonic() + allowed / 1000
    try:
        while True:
            step = max(0.0, min(WAIT_STEP, deadline - time.monotonic()))
            connection.execute(f"PRAGMA busy_timeout = {int(step * 1000)}")
            try:
                connection.execute("BEGIN IMMEDIATE")
                return
            except sqlite3.OperationalError as error:
                code = getattr(error, "sqlite_errorcode", 0) & 0xFF
                if code != sqlite3.SQLITE_BUSY or time.monotonic() >= deadline:
                    raise
    finally:
        connection.execute(f"PRAGMA busy_timeout = {allowed}")


_ADVICE_ACCESS = (
    "make the file and its folder writable by this user (SQLite writes -wal and -shm files"
    " beside it), or use another --db"
)

_ADVICE_READ_ONLY = (
    "this command writes to it (SQLite's -wal and -shm files at least): copy it to writable"
    " storage and give the copy as --db (export, serve, disclose and rules --db read a store"
    " where it is)"
)
#: The result codes of a write or an open refused (SQLITE_PERM, SQLITE_READONLY,
#: SQLITE_CANTOPEN): on a read-only file system, said as such.
_WRITE_REFUSED = frozenset({3, 8, 14})


def on_read_only_media(path: Path | str) -> bool:
    """Whether ``path`` (or, when it does not exist, the folder it would be in) is on a file
    system mounted read-only: a write-once archive, a read-only mount or snapshot."""
    place = Path(path)
    if not place.exists():
        place = place.absolute().parent
    try:
        return bool(os.statvfs(place).f_flag & os.ST_RDONLY)
    except OSError:
        return False


#: SQLite's primary result codes (https://sqlite.org/rescode.html) that are faults of the
#: machine or of the file: the error class, what happened, what to do.
_FAULTS: dict[int, tuple[type[InputError], str, str]] = {
    sqlite3.SQLITE_PERM: (PermissionDenied, "permission denied", _ADVICE_ACCESS),
    sqlite3.SQLITE_BUSY: (
        DatabaseBusy,
        "another process held the database locked for more than {wait} s",
        "run again when it ends, or allow a longer wait (--db-wait SECONDS)",
    ),
    sqlite3.SQLITE_LOCKED: (
        DatabaseBusy,
        "the database was locked (by this process) for more than {wait} s",
        "run again",
    ),
    sqlite3.SQLITE_READONLY: (
        PermissionDenied,
        "the database is read-only for this user",
        _ADVICE_ACCESS,
    ),
    sqlite3.SQLITE_IOERR: (
        EnvironmentFault,
        "input/output error on the database ({error})",
        "check the disk",
    ),
    sqlite3.SQLITE_CORRUPT: (
        EnvironmentFault,
        "the database file is damaged ({error})",
        "restore it from a backup",
    ),
    sqlite3.SQLITE_FULL: (
        DiskFull,
        "the disk is full (or the database reached its size limit)",
        "free space on the database's disk and run again",
    ),
    sqlite3.SQLITE_CANTOPEN: (
        PermissionDenied,
        "the database cannot be opened (its folder is missing, or this user may not read and"
        " write the file or its folder)",
        "check the path and its permissions",
    ),
    sqlite3.SQLITE_PROTOCOL: (  # a damaged or foreign -wal or -shm file, on read-only media
        EnvironmentFault,
        "SQLite's locking protocol failed on the database ({error})",
        "check the -wal and -shm files beside it (damaged, or another database's), or restore"
        " it from a backup",
    ),
    sqlite3.SQLITE_AUTH: (PermissionDenied, "access refused by SQLite ({error})", _ADVICE_ACCESS),
    sqlite3.SQLITE_NOTADB: (
        NotOurDatabase,
        "not a baccarat-report database (not a SQLite file); nothing was changed",
        "name a baccarat-report database or a new file",
    ),
}


#: SQLITE_NOTADB said of a file that begins as a SQLite database does (its first 16 bytes):
#: its header is damaged, not another kind of file (it was "not a SQLite file").
_NOTADB = sqlite3.SQLITE_NOTADB
_DAMAGED_HEADER = (
    EnvironmentFault,
    "a SQLite file whose header is damaged (SQLite cannot read it as a database); nothing was"
    " changed",
    "restore it from a backup",
)


def _begins_as_sqlite(path: Path | str) -> bool:
    try:
        with open_regular(path) as handle:
            return handle.read(len(SQLITE_HEADER)) == SQLITE_HEADER
    except (OSError, NotARegularFile):  # gone, unreadable, or no file (a FIFO, /proc)
        return False


#: SQLITE_IOERR, SQLITE_FULL, and SQLITE_IOERR_SHMSIZE (the -shm file could not grow).
_IOERR, _FULL, _IOERR_SHMSIZE = (
    sqlite3.SQLITE_IOERR,
    sqlite3.SQLITE_FULL,
    sqlite3.SQLITE_IOERR_SHMSIZE,
)


def _no_space(path: Path | str) -> bool:
    """Whether the file system of the database at ``path`` has no space left for it."""
    try:
        return os.statvfs(Path(path).absolute().parent).f_bavail == 0
    except OSError:
        return False


def database_fault(
    error: sqlite3.Error,
    path: Path | str,
    *,
    wait: float | None = None,
    context: str = "",
    real_path: bool = True,
) -> InputError | None:
    """The one-line error the user sees for ``error`` on the database at ``path``, or None
    when ``error`` is not a fault of the machine or the file (then it is a bug to show).

    ``wait`` is the lock wait in seconds (for a busy database); ``context`` follows the
    description of what happened (``" while loading x.jsonl: nothing of it was kept"``).
    A file that cannot be opened or written because it sits on a read-only file system is
    said to (``real_path``: ``path`` names the file, whose file system can be looked at;
    not a stand-in such as "the database").

    >>> error = sqlite3.OperationalError("database or disk is full")
    >>> error.sqlite_errorcode = 13
    >>> str(database_fault(error, "reports.sqlite"))
    "reports.sqlite: the disk is full (or the database reached its size limit); free space on the database's disk and run again"
    """
    code = getattr(error, "sqlite_errorcode", None)
    if not isinstance(code, int) or code < 0 or (code & 0xFF) not in _FAULTS:
        return None
    if real_path and code & 0xFF in _WRITE_REFUSED and on_read_only_media(path):
        if not Path(path).exists():
            return PermissionDenied(
                f"{path}: its folder is on a read-only file system{context}; give --db a path"
                " on writable storage"
            )
        return PermissionDenied(
            f"{path}: the database is on a read-only file system{context}; {_ADVICE_READ_ONLY}"
        )
    if code & 0xFF == _IOERR and real_path and (code == _IOERR_SHMSIZE or _no_space(path)):
        code = _FULL  # the -shm file could not grow: the disk is full, not failing
    kind, what, advice = _FAULTS[code & 0xFF]
    if code & 0xFF == _NOTADB and real_path and _begins_as_sqlite(path):
        kind, what, advice = _DAMAGED_HEADER
    waited = "the allowed" if wait is None else f"{wait:g}"
    what = what.format(wait=waited, error=error)
    return kind(f"{path}: {what}{context}; {advice}")


def store_file(connection: sqlite3.Connection) -> str:
    """:func:`database_file`, or '' for a connection beyond asking (a message still has to
    be told)."""
    try:
        return database_file(connection)
    except sqlite3.Error:
        return ""


def database_file(connection: sqlite3.Connection) -> str:
    """The file of ``connection``'s main database ('' for one in memory), its name read as
    the file system gives it (a name that is not UTF-8 keeps its bytes, escaped)."""
    factory = connection.text_factory
    connection.text_factory = lambda raw: raw.decode("utf-8", "surrogateescape")
    try:
        rows = connection.execute("PRAGMA database_list").fetchall()
    finally:
        connection.text_factory = factory
    return next((file for _, name, file in rows if name == "main"), "")


def connection_fault(
    connection: sqlite3.Connection, error: sqlite3.Error, *, context: str = ""
) -> InputError | None:
    """:func:`database_fault` for an error met on ``connection``, naming its file and wait."""
    try:
        path = database_file(connection)
        wait = connection.execute("PRAGMA busy_timeout").fetchone()[0] / 1000
    except sqlite3.Error:  # the connection is beyond asking: the fault still has to be told
        path, wait = "", None
    if not path:
        return database_fault(error, "the database", wait=wait, context=context, real_path=False)
    return database_fault(error, path, wait=wait, context=context)


@contextmanager
def database_faults(connection: sqlite3.Connection) -> Iterator[None]:
    """Within the block, a fault of the machine on ``connection`` (:func:`connection_fault`)
    is raised as its one-line :class:`~reporting.errors.InputError`; other errors pass."""
    try:
        yield
    except sqlite3.Error as error:
        fault = connection_fault(connection, error)
        if fault is None:
            raise
        raise fault from None
    except StoreDamaged as error:  # met where only the round was at hand: named here
        raise error.at(store_file(connection)) from None


def lock_path(database: Path) -> Path:
    """The lock file of a database: ``<name>.lock`` beside the real file of ``database``."""
    real = Path(os.path.realpath(database))
    return real.with_name(f"{real.name}.lock")


@contextmanager
def database_lock(
    database: Path, wait: float = DEFAULT_WAIT, *, shared: bool = False, done: str = "changed"
) -> Iterator[Path]:
    """Hold the database's own lock (:func:`lock_path`) for a run that must not interleave
    with another one on the same database, waiting up to ``wait`` seconds; yields the lock
    file's path. ``shared``: a load or a check (``ingest``, ``verify``), which may run beside
    others but not inside a monthly run, whose month's documents must all be read from the
    same rows. ``done``: what was not done when the wait runs out (``nothing was changed``).

    The lock file is opened without following links and never truncates another file
    (:func:`reporting.files.hold_lock`); it stays beside the database afterwards, holding the
    last holder's pid. A run still holding it after ``wait`` raises
    :class:`~reporting.errors.DatabaseBusy`. The lock is advisory: only runs that take it
    wait for each other (each SQLite transaction is protected by SQLite's own locks anyway).
    """
    path = lock_path(database)

    # A load's one wait (--db-wait) is for both; a monthly run has --wait for this lock.
    option = (
        "--db-wait SECONDS"
        if shared
        else "--wait SECONDS (the wait for another run's lock; --db-wait is for another"
        " process's write)"
    )

    def held(holder: str) -> InputError:
        return DatabaseBusy(
            f"{database}: another run on this database ({holder}) held its lock {path.name}"
            f" for more than {wait:g} s; nothing was {done}; run again when it ends, or pass"
            f" {option}"
        )

    with hold_lock(path, wait, held_by_other=held, shared=shared):
        yield path
