"""The header of a write-ahead log, read as SQLite reads it (:mod:`reporting.store.wal`)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from reporting.store.wal import HEADER_BYTES, is_write_ahead_log


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


def test_the_log_sqlite_writes_is_one(log_of_a_store):
    assert is_write_ahead_log(str(log_of_a_store))


@pytest.mark.parametrize("byte", range(HEADER_BYTES))
def test_a_bit_changed_anywhere_in_the_header_makes_it_no_log(log_of_a_store, byte):
    """The magic number and the version are read, and the checksum covers the 24 bytes
    before it: the page size, the checkpoint count and the salts too."""
    data = bytearray(log_of_a_store.read_bytes())
    data[byte] ^= 0x10
    log_of_a_store.write_bytes(bytes(data))
    assert not is_write_ahead_log(str(log_of_a_store))


@pytest.mark.parametrize("length", [0, 1, HEADER_BYTES - 1])
def test_a_file_shorter_than_a_header_or_none_is_no_log(tmp_path, log_of_a_store, length):
    short = tmp_path / "short"
    short.write_bytes(log_of_a_store.read_bytes()[:length])
    assert not is_write_ahead_log(str(short))
    assert not is_write_ahead_log(str(tmp_path / "missing"))
