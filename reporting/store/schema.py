"""The SQLite store: schema, connection settings, and small queries shared by the commands.

Tables are STRICT, money is INTEGER cents, timestamps are UTC ISO 8601 text of fixed width
to the millisecond
(``2026-10-03T18:40:41.870Z``) so they sort and compare as text. Every round and every
rejected record points back to its source file and line. The database is a plain SQLite
file: it opens in the ``sqlite3`` shell, sqlite-utils or Datasette with readable names.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import stat
import time
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple
from urllib.parse import quote

from reporting.errors import InputError, NotARegularFile, NotOurDatabase, let_stops_in
from reporting.files import SQLITE_HEADER, environment_fault, kind_of_file, open_regular
from reporting.records import Bet, Round
from reporting.store.damage import CHANGED_OUTSIDE
from reporting.store.faults import (
    DEFAULT_WAIT,
    database_fault,
    on_read_only_media,
)
from reporting.store.shape import check_shape
from reporting.store.sql import (
    APPLICATION_ID,
    SCHEMA,
    SCHEMA_VERSION,
    TABLES,
    TABLES_OF_VERSION_1,
    TABLES_OF_VERSION_2,
)
from reporting.store.wal import Log, log_at

__all__ = [
    "APPLICATION_ID",
    "BET_CONTENT_FIELDS",
    "DEFAULT_WAIT",
    "ROUND_CONTENT_FIELDS",
    "SCHEMA",
    "SCHEMA_VERSION",
    "TABLES",
    "WhereItIs",
    "changed_beneath",
    "check_unchanged",
    "connect",
    "create_schema",
    "file_stamp",
    "IMMUTABLE",
    "READ_ONLY",
    "read_only_query",
    "read_unchanged",
    "schema_version",
    "sqlite_uri",
    "stored_round_content",
]


def create_schema(connection: sqlite3.Connection, path: Path | None = None) -> None:
    """Create the tables and indexes of a new (empty) file, marked as ours, in one
    transaction; or upgrade one of an earlier version in place; refuse a database of a later
    version (naming ``path``, where given).

    The caller has made sure the file is ours or empty (:func:`connect` does, before any
    write): this function writes.
    """
    version = schema_version(connection)
    if version > SCHEMA_VERSION:
        raise _of_a_later_release(version, path)
    if version < 0:  # no release writes one: refused before the upgrade marks the file ours
        where = "database" if path is None else f"{path}: database"
        raise InputError(
            f"{where} schema version {version}, which no release of baccarat-report writes"
            f" (nothing was changed): its header was changed {CHANGED_OUTSIDE}"
        )
    if version == 0:  # a new file: a write, so only then (readers must not wait on writers)
        # One transaction (executescript runs the script as it is): a kill leaves the file
        # empty or whole. IF NOT EXISTS: another process creating it too finds it made.
        connection.executescript(
            f"BEGIN IMMEDIATE; {SCHEMA}; PRAGMA application_id = {APPLICATION_ID};"
            f" PRAGMA user_version = {SCHEMA_VERSION}; COMMIT;"
        )
    elif version < SCHEMA_VERSION or _application_id(connection) != APPLICATION_ID:
        from reporting.store.upgrade import upgrade  # only an earlier release's store needs it

        upgrade(connection)


def _of_a_later_release(version: int, path: Path | None = None) -> InputError:
    where = "database" if path is None else f"{path}: database"
    return InputError(
        f"{where} schema version {version} is not {SCHEMA_VERSION}: use a newer baccarat-report"
    )


def schema_version(connection: sqlite3.Connection) -> int:
    """The store's schema version (its ``user_version``)."""
    return connection.execute("PRAGMA user_version").fetchone()[0]


def _application_id(connection: sqlite3.Connection) -> int:
    return connection.execute("PRAGMA application_id").fetchone()[0]


def _tables(connection: sqlite3.Connection) -> set[str]:
    return {
        name
        for (name,) in connection.execute("SELECT name FROM sqlite_schema WHERE type = 'table'")
    }


#: What :func:`_inspect` finds at a database path before anything is written.
_NEW = "new"  # no file: SQLite creates it
_EMPTY = "empty"  # a zero-length file, or a SQLite file without tables or marks
_OURS = "ours"  # a store of ours (marked, or of version 1 or 2 recognised by its tables)


def connect(
    path: Path, *, create: bool = True, wait: float = DEFAULT_WAIT, read_only: bool = False
) -> sqlite3.Connection:
    """Open the store (creating it and its schema when ``create``), tuned for bulk loads.

    Before anything is written, the file is looked at: a new path or an empty file may
    become a store; an existing database must be ours (marked with :data:`APPLICATION_ID`,
    or a store of version 1 or 2 recognised by its tables, which is then marked); anything
    else raises :class:`~reporting.errors.NotOurDatabase` and the file is left byte for byte
    as it was. A store of an earlier schema version is upgraded in place (once,
    atomically); one of a later version is refused. ``wait`` is how many seconds a statement
    waits for another process's lock before :class:`~reporting.errors.DatabaseBusy`. A full
    disk, a read-only or forbidden file or folder raise their one-line
    :class:`~reporting.errors.EnvironmentFault` (see :mod:`reporting.store.faults`).

    The connection is in autocommit mode: callers open explicit transactions
    (``BEGIN IMMEDIATE`` ... ``COMMIT``) so that one file loads all or nothing.

    ``read_only``: the caller only reads (a store that must exist): one on a read-only file
    system is opened where it is (:func:`_open_where_it_is`), not refused.
    """
    path = Path(path)
    if read_only:
        where_it_is = _where_it_is(os.path.realpath(path))
        if where_it_is is not None:
            return _open_where_it_is(path, where_it_is, wait)
    found = _inspect(path, wait)
    if found != _OURS and not create:
        _refuse_missing(path, found)
    try:
        # As a file URI of the whole path: a name SQLite reads as its own syntax (":memory:",
        # "file:x?mode=memory") kept nothing, and locked another name than it wrote.
        connection = sqlite3.connect(sqlite_uri(path), uri=True, isolation_level=None, timeout=wait)
    except sqlite3.Error as error:
        raise _fault(error, path, wait) from None
    let_stops_in(connection)
    with _closed_on_failure(connection, path, wait):
        _use_wal(connection, wait)
        connection.execute("PRAGMA synchronous = NORMAL")
        connection.execute("PRAGMA cache_size = -65536")  # 64 MiB page cache
        create_schema(connection, path)
        _check_schema(connection, path)
    return connection


@contextlib.contextmanager
def _closed_on_failure(connection: sqlite3.Connection, path: Path, wait: float) -> Iterator[None]:
    """Within the block, a failure closes the connection just opened; a SQLite error is
    raised as its fault (:func:`_fault`)."""
    try:
        yield
    except sqlite3.Error as error:
        connection.close()
        _refuse_if_changed(path, getattr(connection, "stamp", None))
        raise _fault(error, path, wait) from None
    except BaseException:
        connection.close()
        raise


def _refuse_missing(path: Path, found: str) -> None:
    what = "no such database" if found == _NEW else "an empty file, not yet a database"
    raise InputError(f"{path}: {what} (run `baccarat-report ingest` first)")


#: The queries of a SQLite URI that open a store to read it without writing anything beside
#: it: as a file nothing changes (no lock, no ``-shm``), and read-only under SQLite's locks.
IMMUTABLE = "immutable=1"
READ_ONLY = "mode=ro"


def read_only_query(path: Path) -> str | None:
    """How a reader opens the store at ``path`` where nothing can be written beside it (a
    read-only file system, or a file and folder this user may not write), as the query of its
    SQLite URI: ``immutable=1`` when no transaction waits in a ``-wal`` file beside it
    (SQLite cannot make its ``-shm`` there), ``mode=ro`` when one does (read through the
    ``-shm`` file beside it); None where the store can be opened as usual."""
    where_it_is = _where_it_is(os.path.realpath(path))
    return None if where_it_is is None else where_it_is.query


class _WhereItIs(NamedTuple):
    """How a store is read where nothing can be written beside it: the URI query, the words
    of why (:func:`_why_read_only`), and what its ``-wal`` file holds."""

    query: str
    where: str
    log: Log


def _where_it_is(real: str) -> _WhereItIs | None:
    """How the store at ``real`` (a link resolved: SQLite keeps -wal and -shm beside the file
    a link names) is read where it is (:func:`read_only_query`); None where it can be opened
    as usual. Its file system and its -wal file are looked at once."""
    where = _why_read_only(real)
    if where is None:
        return None
    log = log_at(f"{real}-wal")
    return _WhereItIs(IMMUTABLE if log is Log.NONE else READ_ONLY, where, log)


def _why_read_only(real: str) -> str | None:
    """Why nothing can be written at or beside the store at ``real``, in the words of a
    refusal; None when the store can be written (or this user may not even read it, which
    opening it as usual says)."""
    if on_read_only_media(real):
        return "on a read-only file system"
    folder = os.path.dirname(real) or "."
    writable = os.access(real, os.W_OK) and os.access(folder, os.W_OK | os.X_OK)
    return "read-only for this user" if os.access(real, os.R_OK) and not writable else None


def _open_where_it_is(path: Path, where_it_is: _WhereItIs, wait: float) -> sqlite3.Connection:
    """A store on a read-only file system (a write-once archive, a read-only mount, a
    snapshot), or that this user may only read (an auditor's account), opened to be read where
    it is, by the URI query of :func:`read_only_query`.

    Refused, with what to do: a ``-wal`` file of transactions not yet in the store without its
    ``-shm`` (read as immutable, the store would lack them), and a store of another schema
    version or not yet marked as ours (bringing it to this version writes). A store read as
    immutable is a :class:`WhereItIs`: :func:`check_unchanged` tells whether another process
    wrote it meanwhile."""
    real = Path(os.path.realpath(path))
    query, where, log = where_it_is
    if query == READ_ONLY:
        _refuse_an_unreadable_log(path, real, where, log)
    stamp = file_stamp(real)
    try:
        found = _inspect(path, wait, query)
    except InputError:
        _refuse_if_changed(path, stamp if query == IMMUTABLE else None)
        raise
    if found != _OURS:
        _refuse_missing(path, found)
    try:
        connection = sqlite3.connect(
            f"{sqlite_uri(real)}?{query}",
            uri=True,
            isolation_level=None,
            timeout=wait,
            factory=WhereItIs,
        )
    except sqlite3.Error as error:
        raise _fault(error, path, wait) from None
    connection.path, connection.stamp = path, stamp if query == IMMUTABLE else None
    let_stops_in(connection)
    with _closed_on_failure(connection, path, wait):
        version = schema_version(connection)
        if version > SCHEMA_VERSION:
            raise _of_a_later_release(version, path)
        if version < SCHEMA_VERSION or _application_id(connection) != APPLICATION_ID:
            raise InputError(
                f"{path}: a store of schema version {version}, {where}:"
                f" this release reads version {SCHEMA_VERSION}, and bringing a store to it"
                " writes the file; copy it to writable storage and give the copy as --db"
            )
        _check_schema(connection, path, writable=False)
        connection.execute("PRAGMA query_only = 1")
    return connection


def _refuse_an_unreadable_log(path: Path, real: Path, where: str, log: Log) -> None:
    """Refuse, saying what to do, a store ``where`` it cannot be written (its words) whose
    ``-wal`` file, of transactions not yet in it, cannot be read: no ``-shm`` file to read it
    by, a ``-wal`` this user may not read, or one that is no write-ahead log."""
    if not Path(f"{real}-shm").exists():
        raise InputError(
            f"{path}: {where}, with transactions not yet written into it"
            " in its -wal file and no -shm file to read them by; copy the store and its -wal"
            " file to writable storage and give the copy as --db"
        )
    if log is Log.UNREADABLE:
        raise InputError(
            f"{path}: {where}, beside a -wal file this user may not read (its transactions"
            " not yet in the store); ask for read access to the -wal and -shm files too, or"
            " copy the three files to writable storage and give the copy as --db"
        )
    if log is Log.NOT_A_LOG:
        raise InputError(
            f"{path}: {where}, beside a -wal file that is not a SQLite"
            " write-ahead log (damaged, or another file's); restore the store from a backup,"
            " or copy it alone to writable storage and give the copy as --db"
        )


class WhereItIs(sqlite3.Connection):
    """A connection to a store read where it is (:func:`_open_where_it_is`): the store's path,
    and its file's stamp when it was opened as immutable (None: read under SQLite's locks)."""

    path: Path
    stamp: tuple[int, int, int] | None


@contextlib.contextmanager
def read_unchanged(connection: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """A block that reads the store ``connection`` reads where it is: at its end, and at a
    SQLite error within it (pages read while another process rewrote them look damaged), the
    store is checked unchanged (:func:`check_unchanged`), or what was read is not used."""
    try:
        yield connection
    except sqlite3.Error:
        check_unchanged(connection)
        raise
    check_unchanged(connection)


def _refuse_if_changed(path: Path, stamp: tuple[int, int, int] | None) -> None:
    """Raise the refusal of a store changed beneath its read (:func:`changed_beneath`) if the
    file at ``path``, read as immutable when it had ``stamp``, has changed since."""
    if stamp is not None and file_stamp(Path(os.path.realpath(path))) != stamp:
        raise InputError(changed_beneath(path)) from None


def check_unchanged(connection: sqlite3.Connection) -> None:
    """Raise :class:`~reporting.errors.InputError` if the store ``connection`` reads as
    immutable was written since it was opened: a read-only view (a bind mount, a container's
    volume) of a store another process writes, where what was read may mix two states. A
    caller checks before it uses what it read; any other connection passes."""
    if isinstance(connection, WhereItIs):
        _refuse_if_changed(connection.path, connection.stamp)


def changed_beneath(path: Path) -> str:
    """The line of a store read as immutable that another process wrote meanwhile."""
    return (
        f"{path}: the store changed while it was read (another process writes it, and this"
        " command may only read it): what was read may mix two states and was not"
        " used; run again, or read the store where it is written"
    )


def sqlite_uri(path: Path) -> str:
    """A SQLite URI of ``path`` (a name that is not UTF-8 too, or holding ``?``, ``#`` or
    ``%``), without its query."""
    return f"file:{quote(os.fsencode(path.absolute()))}"


def _use_wal(connection: sqlite3.Connection, wait: float) -> None:
    """Switch the store to WAL mode, trying again for up to ``wait`` seconds: SQLite answers
    a switch that meets another connection's (two processes creating one store at once) with
    "database is locked" at once, without waiting on its own."""
    deadline = time.monotonic() + wait
    while True:
        try:
            connection.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as error:
            if error.sqlite_errorcode & 0xFF != sqlite3.SQLITE_BUSY or time.monotonic() >= deadline:
                raise
            time.sleep(0.01)


def _fault(error: sqlite3.Error, path: Path, wait: float) -> InputError:
    """A SQLite error met opening ``path`` as the user's one line: a fault of the machine
    (:func:`~reporting.store.faults.database_fault`), or a database SQLite cannot read."""
    return database_fault(error, path, wait=wait) or InputError(
        f"{path}: cannot open as a SQLite database ({error})"
    )


def _inspect(path: Path, wait: float, where_it_is: str | None = None) -> str:
    """What ``path`` holds (:data:`_NEW`, :data:`_EMPTY` or :data:`_OURS`), read without
    writing a byte; a path that is not a regular file, a file with a second name (a hard
    link: SQLite's journal sits beside each name, so only where it may be written), or not
    our database is refused. ``where_it_is``: the URI query a store on a read-only file
    system is read by (:func:`read_only_query`)."""
    try:
        status = path.stat()
    except FileNotFoundError:
        if path.is_symlink():
            raise InputError(
                f"{path}: a symbolic link to nothing; name the database file itself"
            ) from None
        return _NEW
    except OSError as error:
        raise environment_fault(error, path, "open it as a database") from None
    if not stat.S_ISREG(status.st_mode):
        raise NotARegularFile(
            f"{path}: {kind_of_file(status.st_mode)}, not a database file; name a file"
        )
    if status.st_nlink > 1 and where_it_is is None:
        raise InputError(
            f"{path}: the database file has {status.st_nlink} names (hard links), and SQLite"
            " keeps a store's journal beside each name: a second name loses or corrupts what is"
            " written through the first; keep one name (remove the other links, or give this"
            f" one a file of its own: cp {path} {path}.new && mv {path}.new {path}); nothing"
            " was changed"
        )
    if status.st_size == 0:
        return _EMPTY
    try:
        with open_regular(path) as handle:
            header = handle.read(len(SQLITE_HEADER))
    except OSError as error:
        raise environment_fault(error, path, "read it") from None
    if header != SQLITE_HEADER:
        raise NotOurDatabase(
            f"{path}: not a baccarat-report database (not a SQLite file); nothing was changed"
        )
    if where_it_is is None:
        return _classify(path, *_marks(path, wait))
    try:
        return _classify(path, *_read_marks(f"{sqlite_uri(path)}?{where_it_is}", wait))
    except sqlite3.Error as error:
        raise _fault(error, path, wait) from None


def _marks(path: Path, wait: float) -> tuple[int, int, set[str]]:
    """A SQLite file's application id, user version and tables, read without writing.

    Without a ``-wal`` file beside it, the whole database is in the file: it is read as
    ``immutable`` (no lock, no ``-wal``/``-shm`` file made beside another application's
    file). Such a read takes no lock, so it is kept only if the file was not written while
    it was read (the same inode, size and modification time, still no ``-wal``): a
    connection that opened, committed and checkpointed meanwhile (another process creating
    the same store) could have shown it the header of before and the tables of after.
    Otherwise, or with a ``-wal``, a read-only connection reads under SQLite's locks, the WAL
    too (and never checkpoints).
    """
    uri = f"{sqlite_uri(path)}?"
    if not _in_use(path):
        before = file_stamp(path)
        with contextlib.suppress(sqlite3.Error):
            marks = _read_marks(uri + IMMUTABLE, wait)
            if not _in_use(path) and file_stamp(path) == before:
                return marks
    try:
        return _read_marks(uri + READ_ONLY, wait)
    except sqlite3.Error as error:
        raise _fault(error, path, wait) from None


def _in_use(path: Path) -> bool:
    """A ``-wal`` file beside the database: a connection has it open in WAL mode."""
    return Path(f"{path}-wal").exists()


def file_stamp(path: Path) -> tuple[int, int, int] | None:
    """What a write to the file changes: its inode, size and modification time."""
    try:
        status = path.stat()
    except OSError:
        return None
    return status.st_ino, status.st_size, status.st_mtime_ns


def _read_marks(uri: str, wait: float) -> tuple[int, int, set[str]]:
    """The three marks read in one read transaction: one snapshot of the file (three
    statements on their own would each read the store as it was then, and could show the
    header before another connection's creation of the schema with the tables after it)."""
    reader = sqlite3.connect(uri, uri=True, timeout=wait, isolation_level=None)
    try:
        reader.execute("BEGIN")
        return _application_id(reader), schema_version(reader), _tables(reader)
    finally:
        reader.close()


def _classify(path: Path, application_id: int, version: int, tables: set[str]) -> str:
    """Ours, empty, or refused: see :func:`connect`."""
    if application_id == APPLICATION_ID:
        return _OURS
    if application_id == 0 and version == 0 and not tables:
        return _EMPTY
    if application_id == 0 and _made_by_an_earlier_release(version, tables):
        return _OURS
    marks = [f"schema version {version}"]
    if application_id:
        marks.append(f"application id {application_id:#x}")
    marks.append(f"tables: {', '.join(sorted(tables)[:5]) or 'none'}")
    raise NotOurDatabase(
        f"{path}: not a baccarat-report database ({'; '.join(marks)}); nothing was changed;"
        " name a baccarat-report database, or a new file for --db"
    )


def _made_by_an_earlier_release(version: int, tables: set[str]) -> bool:
    """A store this tool made before it marked its files: version 1 (findings made by
    verify when it first ran) or 2, with every table of its version (version 3 stores were
    always marked)."""
    required = {1: TABLES_OF_VERSION_1, 2: TABLES_OF_VERSION_2}.get(version)
    return required is not None and set(required) <= tables


def _check_schema(connection: sqlite3.Connection, path: Path, *, writable: bool = True) -> None:
    """Refuse a store whose tables are not all there (after creation or upgrade), or whose
    shape is not the schema's (:func:`reporting.store.shape.check_shape`: an index it lacks
    is made again when ``writable``)."""
    version = schema_version(connection)
    missing = set(TABLES) - _tables(connection)
    if version != SCHEMA_VERSION or missing:
        raise InputError(
            f"{path}: not a baccarat-report database (schema version {version},"
            f" missing {', '.join(sorted(missing)) or 'nothing'}); run `baccarat-report ingest`"
            " into a new file first"
        )
    check_shape(connection, path, writable=writable)


#: The columns that make a round's content: the same round loaded twice agrees on all of
#: them. They are :class:`reporting.records.Round`'s fields (the store's columns bear the same
#: names) less where it came from, the derived report_month and the bets.
ROUND_CONTENT_FIELDS = tuple(
    name for name in Round.__struct_fields__ if name not in ("report_month", "source_line", "bets")
)


#: The columns that make a bet's part of its round's content: its id and what was staked,
#: paid and when (not its round, nor the line it came from).
BET_CONTENT_FIELDS = Bet.__struct_fields__[1:8]


def stored_round_content(connection: sqlite3.Connection, round_id: str) -> tuple | None:
    """A stored round in the form the ingest compares a new record with (its content, bets
    sorted), to tell a duplicate from a conflict."""
    row = connection.execute(
        f"SELECT {', '.join(ROUND_CONTENT_FIELDS)} FROM rounds WHERE round_id = ?", (round_id,)
    ).fetchone()
    if row is None:
        return None
    bets = connection.execute(
        f"SELECT {', '.join(BET_CONTENT_FIELDS)} FROM bets WHERE round_id = ? ORDER BY bet_id",
        (round_id,),
    ).fetchall()
    return (*row, tuple(sorted(bets)))
