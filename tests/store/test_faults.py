"""SQLite's faults as one-line errors, and the per-database lock (reporting.store.faults)."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import time
from types import SimpleNamespace

import pytest

import reporting.store.faults
from reporting.errors import (
    DatabaseBusy,
    DiskFull,
    EnvironmentFault,
    InputError,
    NotARegularFile,
    NotOurDatabase,
    PermissionDenied,
)
from reporting.store.faults import (
    connection_fault,
    database_fault,
    database_faults,
    database_lock,
    lock_path,
)
from reporting.store.schema import connect


def sqlite_error(code: int, message: str = "boom") -> sqlite3.OperationalError:
    error = sqlite3.OperationalError(message)
    error.sqlite_errorcode = code
    return error


@pytest.mark.parametrize(
    ("code", "kind", "words"),
    [
        (13, DiskFull, "the disk is full"),
        (8, PermissionDenied, "read-only for this user"),
        (8 | (3 << 8), PermissionDenied, "read-only for this user"),  # SQLITE_READONLY_ROLLBACK
        (14, PermissionDenied, "cannot be opened"),
        (3, PermissionDenied, "permission denied"),
        (5, DatabaseBusy, "locked for more than 2.5 s"),
        (10 | (3 << 8), EnvironmentFault, "input/output error"),  # SQLITE_IOERR_WRITE
        (10 | (19 << 8), DiskFull, "the disk is full"),  # SQLITE_IOERR_SHMSIZE: no room
        (11, EnvironmentFault, "damaged"),
        (26, NotOurDatabase, "not a SQLite file"),
    ],
)
def test_each_fault_of_the_machine_is_one_line_naming_the_database(code, kind, words):
    fault = database_fault(sqlite_error(code), "db/store.sqlite", wait=2.5)
    assert type(fault) is kind
    assert str(fault).startswith("db/store.sqlite: ")
    assert words in str(fault)
    assert "\n" not in str(fault)


def test_an_input_output_error_on_a_disk_without_space_is_a_full_disk(monkeypatch):
    """A store on a disk that filled while it was written: SQLite's "disk I/O error" (the
    -shm file, or a page, could not grow) told the administrator to check the hardware."""
    monkeypatch.setattr(
        reporting.store.faults.os, "statvfs", lambda path: SimpleNamespace(f_bavail=0)
    )
    fault = database_fault(sqlite_error(10 | (3 << 8)), "db/store.sqlite")
    assert type(fault) is DiskFull
    assert str(fault) == (
        "db/store.sqlite: the disk is full (or the database reached its size limit); free"
        " space on the database's disk and run again"
    )


def test_an_error_that_is_not_a_fault_of_the_machine_stays_a_bug(tmp_path):
    connection = sqlite3.connect(tmp_path / "x.sqlite")
    connection.execute("CREATE TABLE t (id INTEGER PRIMARY KEY)")
    connection.execute("INSERT INTO t VALUES (1)")
    with pytest.raises(sqlite3.IntegrityError) as integrity:
        connection.execute("INSERT INTO t VALUES (1)")
    with pytest.raises(sqlite3.OperationalError) as syntax:
        connection.execute("SELEC 1")
    connection.close()
    assert database_fault(integrity.value, "x") is None
    assert database_fault(syntax.value, "x") is None
    assert database_fault(sqlite3.ProgrammingError("closed"), "x") is None


def test_a_real_full_database_names_its_file_and_the_connections_wait(tmp_path):
    connection = connect(tmp_path / "store.sqlite", wait=7)
    pages = connection.execute("PRAGMA page_count").fetchone()[0]
    connection.execute(f"PRAGMA max_page_count = {pages}")
    try:
        full = f"^{tmp_path / 'store.sqlite'}: the disk is full"
        with pytest.raises(DiskFull, match=full), database_faults(connection):
            connection.execute("CREATE TABLE filler (x TEXT)")
        busy = connection_fault(connection, sqlite_error(5))
    finally:
        connection.close()
    assert "more than 7 s" in str(busy)


def test_database_faults_lets_other_errors_through(tmp_path):
    connection = connect(tmp_path / "store.sqlite")
    try:
        missing = pytest.raises(sqlite3.OperationalError, match="no such table")
        with missing, database_faults(connection):
            connection.execute("SELECT * FROM missing_table")
    finally:
        connection.close()


# --- the per-database lock ----------------------------------------------------------------


HOLD_LOCK = """
import sys, time
from pathlib import Path
from reporting.store.faults import database_lock
with database_lock(Path(sys.argv[1]), wait=0):
    print("held", flush=True)
    time.sleep(float(sys.argv[2]))
"""


def test_a_second_run_waits_for_the_database_lock_then_says_who_holds_it(tmp_path):
    db = tmp_path / "store.sqlite"
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_LOCK, str(db), "30"], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout.readline() == "held\n"
        started = time.monotonic()
        with pytest.raises(DatabaseBusy) as caught, database_lock(db, wait=0.5):
            pass
        waited = time.monotonic() - started
    finally:
        holder.kill()
        holder.wait()
        holder.stdout.close()
    assert 0.45 <= waited < 5
    assert str(caught.value) == (
        f"{db}: another run on this database (pid {holder.pid}) held its lock store.sqlite.lock"
        " for more than 0.5 s; nothing was changed; run again when it ends, or pass --wait"
        " SECONDS (the wait for another run's lock; --db-wait is for another process's write)"
    )
    # The holder is gone: the lock is free again (the kernel released it with the process).
    with database_lock(db, wait=0) as path:
        assert path.read_text() == f"pid {os.getpid()}\n"


def test_the_lock_is_beside_the_database_and_taken_in_turn(tmp_path):
    db = tmp_path / "data" / "store.sqlite"
    db.parent.mkdir()
    with database_lock(db, wait=0) as path:
        assert path == db.parent / "store.sqlite.lock"
        # Another open of the file is another holder, even in the same process.
        with pytest.raises(DatabaseBusy), database_lock(db, wait=0):
            pass
    with database_lock(db, wait=0):
        pass
    assert sorted(p.name for p in db.parent.iterdir()) == ["store.sqlite.lock"]


def test_the_lock_of_a_linked_database_is_beside_the_real_file(tmp_path):
    real = tmp_path / "real" / "store.sqlite"
    real.parent.mkdir()
    link = tmp_path / "link.sqlite"
    link.symlink_to(real)
    assert lock_path(link) == real.parent / "store.sqlite.lock"


def test_a_symbolic_link_as_lock_file_is_refused_and_its_target_untouched(tmp_path):
    db = tmp_path / "store.sqlite"
    precious = tmp_path / "precious.txt"
    precious.write_text("keep me\n")
    (tmp_path / "store.sqlite.lock").symlink_to(precious)
    with pytest.raises(InputError, match="symbolic link"), database_lock(db, wait=0):
        pass
    assert precious.read_text() == "keep me\n"


def test_a_lock_file_with_a_second_name_is_refused_and_left_as_it_was(tmp_path):
    db = tmp_path / "store.sqlite"
    precious = tmp_path / "precious.txt"
    precious.write_text("keep me\n")
    os.link(precious, tmp_path / "store.sqlite.lock")
    with pytest.raises(InputError, match="2 names"), database_lock(db, wait=0):
        pass
    assert precious.read_text() == "keep me\n"


def test_a_fifo_as_lock_file_is_refused_at_once(tmp_path):
    db = tmp_path / "store.sqlite"
    os.mkfifo(tmp_path / "store.sqlite.lock")
    started = time.monotonic()
    with pytest.raises(NotARegularFile, match="a FIFO"), database_lock(db, wait=0):
        pass
    assert time.monotonic() - started < 2


def test_a_not_a_database_fault_at_a_path_that_is_no_regular_file_is_still_told(tmp_path):
    """SQLite's "not a database" at a FIFO: the look for a damaged header refused to open it
    (no regular file), and the fault escaped as that refusal, from a function that returns
    faults."""
    fifo = tmp_path / "store.sqlite"
    os.mkfifo(fifo)
    error = sqlite_error(26, "file is not a database")
    fault = database_fault(error, str(fifo))
    assert isinstance(fault, NotOurDatabase)
    assert str(fault).startswith(f"{fifo}: ")
