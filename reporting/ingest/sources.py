"""What the readers read and what they give: a source (one round log, or a pair of files), and
its batches of validated rounds and rejected lines, one at a time."""

from __future__ import annotations

import gc
import hashlib
import os
import stat
from collections.abc import Callable, Generator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, NamedTuple

from reporting.errors import InputError
from reporting.ingest.limits import MAX_BATCH_BETS, MAX_REJECTED_LINES, RAW_TEXT_LIMIT
from reporting.records import RejectedLine, Round

__all__ = [
    "RAW_TEXT_LIMIT",
    "Batch",
    "BatchReader",
    "NotARegularFile",
    "Source",
    "batched",
    "cyclic_gc_paused",
    "kind_of_file",
    "open_regular",
    "raw_text",
]


class NotARegularFile(OSError):
    """A path that is a FIFO, a device, a socket or a folder where a round log was expected:
    reading one could hang for ever or never end, so it is refused before it is read."""

    def __str__(self) -> str:
        return f"it is {self.strerror}, not a regular file"


def kind_of_file(mode: int) -> str | None:
    """What a file of this ``st_mode`` is when it is not a regular file ("a FIFO", ...);
    None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    for test, kind in (
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISDIR, "a folder"),
    ):
        if test(mode):
            return kind
    return "a special file"


def open_regular(path: Path) -> BinaryIO:
    """``path`` opened for reading in binary, if it is a regular file (links followed).

    It is opened without blocking (a FIFO with no writer would otherwise wait for ever) and
    checked on the open descriptor, so a file swapped for a FIFO after discovery is refused
    too. Raises :class:`NotARegularFile`, or the OSError of the open.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    descriptor = os.open(path, flags)
    try:
        kind = kind_of_file(os.fstat(descriptor).st_mode)
        if kind is not None:
            raise NotARegularFile(0, kind, str(path))
        if hasattr(os, "set_blocking"):
            os.set_blocking(descriptor, True)
        return os.fdopen(descriptor, "rb")
    except BaseException:
        os.close(descriptor)
        raise


@dataclass(frozen=True)
class Source:
    """One round log to ingest: a file, or a pair of files (a CSV rounds file + its bets file).

    ``format`` is the name of an entry of :data:`reporting.ingest.formats.FORMATS`.
    """

    path: Path
    format: str
    companion: Path | None = None  # bets.csv of a CSV pair

    @property
    def files(self) -> tuple[Path, ...]:
        """The files that make up the source."""
        return (self.path,) if self.companion is None else (self.path, self.companion)

    @property
    def size(self) -> int:
        """Total size in bytes (:class:`NotARegularFile` for a FIFO, a device, ...)."""
        total = 0
        for path in self.files:
            status = path.stat()
            kind = kind_of_file(status.st_mode)
            if kind is not None:
                raise NotARegularFile(0, kind, str(path))
            total += status.st_size
        return total

    def sha256(self) -> str:
        """Content hash of the source (of both files, in order, for a CSV pair); each file
        opened by :func:`open_regular`, so a FIFO is refused rather than waited on."""
        digest = hashlib.sha256()
        for path in self.files:
            with open_regular(path) as handle:
                while chunk := handle.read(1 << 20):
                    digest.update(chunk)
        return digest.hexdigest()


class Batch(NamedTuple):
    """A slice of a source: its valid rounds, its rejected lines, and how far reading got."""

    records: list[Round]
    rejects: list[RejectedLine]
    position: int  # bytes of the source file read so far (compressed bytes for .gz)


#: What the readers return: batches, one at a time; ``close()`` stops reading.
BatchReader = Generator[Batch, None, None]


def batched(
    items: Iterator[Round | RejectedLine], position: Callable[[], int], size: int, name: str
) -> Iterator[Batch]:
    """Rounds and rejected lines, in file order, gathered into batches of up to ``size`` of
    either kind (or of :data:`~reporting.ingest.limits.MAX_BATCH_BETS` bets, whichever comes
    first); ``position`` tells how far reading got when a batch is full.

    A file (``name``) with more than :data:`~reporting.ingest.limits.MAX_REJECTED_LINES`
    rejected lines, and more of them than rounds, is not a round log: InputError.
    """
    records: list[Round] = []
    rejects: list[RejectedLine] = []
    bets = rounds_before = rejects_before = 0
    for item in items:
        if type(item) is Round:
            records.append(item)
            bets += len(item.bets)
            if len(records) < size and bets < MAX_BATCH_BETS:
                continue
        else:
            rejects.append(item)
            if len(rejects) < size:
                continue
            _check_rejects(name, rejects_before + len(rejects), rounds_before + len(records))
        rounds_before += len(records)
        rejects_before += len(rejects)
        yield Batch(records, rejects, position())
        records, rejects, bets = [], [], 0
    yield Batch(records, rejects, position())


def _check_rejects(name: str, rejected: int, rounds: int) -> None:
    if rejected > MAX_REJECTED_LINES and rejected > rounds:
        raise InputError(
            f"{name}: {rejected:,} lines rejected and only {rounds:,} rounds read: this is"
            " not a round log this tool can read; nothing of it was loaded"
        )


def raw_text(data: bytes) -> str:
    """A line's bytes as the text a rejected line keeps: decoded, without its line ending,
    at most :data:`RAW_TEXT_LIMIT` characters (only their bytes are decoded)."""
    head = data[: 4 * RAW_TEXT_LIMIT]  # a UTF-8 character is at most 4 bytes
    return head.decode("utf-8", errors="replace").rstrip("\r\n")[:RAW_TEXT_LIMIT]


@contextmanager
def cyclic_gc_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector while bulk records are made.

    Records hold no reference cycles, so reference counting frees them all; without the
    pause the collector rescans every live batch again and again and halves the throughput.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
