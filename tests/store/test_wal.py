"""The ``-wal`` file beside a store, read as SQLite reads it (:mod:`reporting.store.wal`)."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import as_the_files_say

from reporting.store.wal import HEADER_BYTES, Log, is_write_ahead_log_header, log_at


@pytest.fixture
def log_of_a_store(tmp_path) -> Path:
    """The -wal file SQLite wrote beside a store holding a transaction not yet in it."""
    db = tmp_path / "store.sqlite"
    writer = sqlite3.connect(db, isolation_level=None)
    writer.execute("PRAGMA journal_mode = WAL")
    writer.execute("PRAGMA wal_autocheckpoint = 0")
    writer.execute("CREATE TABLE t (x)")
    writer.execute("INSERT INTO t VALUES (1)")
    copy = tmp_path / "copy-wal"
    copy.write_bytes(Path(f"{db}-wal").read_bytes())
    writer.close()
    return copy


def test_the_log_sqlite_writes_holds_frames(log_of_a_store):
    assert is_write_ahead_log_header(log_of_a_store.read_bytes()[:HEADER_BYTES])
    assert log_at(str(log_of_a_store)) is Log.FRAMES


@pytest.mark.parametrize("byte", range(HEADER_BYTES))
def test_a_bit_changed_anywhere_in_the_header_makes_it_no_log(log_of_a_store, byte):
    """The magic number and the version are read, and the checksum covers the 24 bytes
    before it: the page size, the checkpoint count and the salts too."""
    data = bytearray(log_of_a_store.read_bytes())
    data[byte] ^= 0x10
    log_of_a_store.write_bytes(bytes(data))
    assert log_at(str(log_of_a_store)) is Log.NOT_A_LOG


def test_a_header_without_a_whole_frame_holds_no_transaction(tmp_path, log_of_a_store):
    """A log of its header alone (or of a frame cut short) holds no transaction: the store is
    read without it. Taken for a log of transactions, with a -shm saying it held some, it made
    SQLite try again for ten seconds before it failed."""
    data = log_of_a_store.read_bytes()
    page_size = int.from_bytes(data[8:12], "big")
    for length in (HEADER_BYTES, HEADER_BYTES + 24 + page_size - 1):
        cut = tmp_path / f"cut-{length}"
        cut.write_bytes(data[:length])
        assert log_at(str(cut)) is Log.NONE
    whole = tmp_path / "whole"
    whole.write_bytes(data[: HEADER_BYTES + 24 + page_size])
    assert log_at(str(whole)) is Log.FRAMES


@pytest.mark.parametrize("length", [0, 1, HEADER_BYTES - 1])
def test_a_file_shorter_than_a_header_or_none_is_no_log(tmp_path, log_of_a_store, length):
    short = tmp_path / "short"
    short.write_bytes(log_of_a_store.read_bytes()[:length])
    assert log_at(str(short)) is (Log.NONE if length == 0 else Log.NOT_A_LOG)
    assert log_at(str(tmp_path / "missing")) is Log.NONE


def test_a_log_this_user_may_not_read_is_said_to_be_so(log_of_a_store):
    """A -wal this user may not read was called no log at all ("restore the store from a
    backup"): it is unreadable, which access to it mends."""
    log_of_a_store.chmod(0o000)
    program = "import sys; from reporting.store.wal import log_at; print(log_at(sys.argv[1]).name)"
    command = as_the_files_say([sys.executable, "-c", program, str(log_of_a_store)])
    seen = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert seen.stdout.strip() == "UNREADABLE", seen.stderr
