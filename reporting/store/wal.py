"""The ``-wal`` file beside a store in WAL mode, read as SQLite reads it (``walIndexRecover``
in its ``wal.c``): a header of 32 bytes, big-endian, of a magic number, the log's format
version, the page size, a checkpoint count, two salts, and a checksum of the 24 bytes before
it; then frames of a 24-byte header and a page each.

A store read where it is, on a read-only file system or by a user who may only read it
(:mod:`reporting.store.schema`), is read through its ``-wal`` file when one waits. SQLite
meets a ``-wal`` file without this header there, and a ``-shm`` file that says it holds
transactions, by trying again for some ten seconds before it fails: the file is read first,
so that such a store is refused at once, and one whose log holds no frame is read without."""

from __future__ import annotations

import enum
import os
import struct

#: The magic numbers of a log, whose lowest bit tells the byte order of its checksums' words
#: (1: big-endian), and the only format version SQLite writes and reads.
MAGIC = (0x377F0682, 0x377F0683)
VERSION = 3007000
HEADER_BYTES = 32
FRAME_HEADER_BYTES = 24


class Log(enum.Enum):
    """What a ``-wal`` file beside a store holds, for a reader that may not write there."""

    NONE = "none"  # no file, an empty one, or its header alone: no transaction waits in it
    FRAMES = "frames"  # a log with a frame at least: transactions may wait in it
    UNREADABLE = "unreadable"  # this user may not read it
    NOT_A_LOG = "not a log"  # bytes of something else: damaged, or another file's


def log_at(path: str) -> Log:
    """What the ``-wal`` file at ``path`` holds (:class:`Log`)."""
    try:
        with open(path, "rb") as file:
            size = os.fstat(file.fileno()).st_size
            header = file.read(HEADER_BYTES)
    except FileNotFoundError:
        return Log.NONE
    except OSError:
        return Log.UNREADABLE
    if size == 0:
        return Log.NONE
    if not is_write_ahead_log_header(header):
        return Log.NOT_A_LOG
    page_size = struct.unpack(">I", header[8:12])[0]
    return Log.FRAMES if size >= HEADER_BYTES + FRAME_HEADER_BYTES + page_size else Log.NONE


def is_write_ahead_log_header(header: bytes) -> bool:
    """Whether ``header`` is a write-ahead log's header: its magic number, its version, and
    a checksum that holds."""
    if len(header) < HEADER_BYTES:
        return False
    magic, version = struct.unpack(">II", header[:8])
    if magic not in MAGIC or version != VERSION:
        return False
    return _checksum(header[:24], big_endian=bool(magic & 1)) == struct.unpack(">II", header[24:32])


def _checksum(data: bytes, *, big_endian: bool) -> tuple[int, int]:
    """SQLite's checksum of a log's header (``walChecksumBytes``): its words in pairs, each
    added into two running sums of 32 bits."""
    words = struct.unpack(f"{'>' if big_endian else '<'}{len(data) // 4}I", data)
    first = second = 0
    for even, odd in zip(words[::2], words[1::2], strict=True):
        first = (first + even + second) & 0xFFFFFFFF
        second = (second + odd + first) & 0xFFFFFFFF
    return first, second
