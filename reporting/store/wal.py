"""The header of a SQLite write-ahead log (the ``-wal`` file beside a store in WAL mode), read
as SQLite reads it (``walIndexRecover`` in its ``wal.c``): 32 bytes, big-endian, of a magic
number, the log's format version, the page size, a checkpoint count, two salts, and a
checksum of the 24 bytes before it.

A store read where it is, on a read-only file system (:mod:`reporting.store.schema`), is read
through its ``-wal`` file. SQLite meets a ``-wal`` file without this header there, and a
``-shm`` file that says it holds transactions, by trying again for some ten seconds before it
fails: the header is read first, so that such a store is refused at once."""

from __future__ import annotations

import struct

#: The magic numbers of a log, whose lowest bit tells the byte order of its checksums' words
#: (1: big-endian), and the only format version SQLite writes and reads.
MAGIC = (0x377F0682, 0x377F0683)
VERSION = 3007000
HEADER_BYTES = 32


def is_write_ahead_log(path: str) -> bool:
    """Whether the file at ``path`` begins with a write-ahead log's header whose checksum
    holds; False for a file too short, unreadable, or of other bytes."""
    try:
        with open(path, "rb") as file:
            header = file.read(HEADER_BYTES)
    except OSError:
        return False
    if len(header) < HEADER_BYTES:
        return False
    magic, version = struct.unpack(">II", header[:8])
    if magic not in MAGIC or version != VERSION:
        return False
    return _checksum(header[:24], big_endian=bool(magic & 1)) == struct.unpack(">II", header[24:])


def _checksum(data: bytes, *, big_endian: bool) -> tuple[int, int]:
    """SQLite's checksum of a log's header (``walChecksumBytes``): its words in pairs, each
    added into two running sums of 32 bits."""
    words = struct.unpack(f"{'>' if big_endian else '<'}{len(data) // 4}I", data)
    first = second = 0
    for even, odd in zip(words[::2], words[1::2], strict=True):
        first = (first + even + second) & 0xFFFFFFFF
        second = (second + odd + first) & 0xFFFFFFFF
    return first, second
