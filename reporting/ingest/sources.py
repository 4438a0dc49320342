"""What the readers read and what they give: a source (one round log, or a pair of files), and
its batches of validated rounds and rejected lines, one at a time."""

from __future__ import annotations

import gc
from collections.abc import Callable, Generator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from reporting.files import sha256_of
from reporting.records import RejectedLine, Round

__all__ = ["Batch", "BatchReader", "Source", "batched", "cyclic_gc_paused", "raw_text"]

#: Characters of a rejected line's text that are kept (a hostile line can be megabytes).
RAW_TEXT_LIMIT = 10_000


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
        """Total size in bytes."""
        return sum(path.stat().st_size for path in self.files)

    def sha256(self) -> str:
        """Content hash of the source (of both files, in order, for a CSV pair)."""
        return sha256_of(*self.files)


class Batch(NamedTuple):
    """A slice of a source: its valid rounds, its rejected lines, and how far reading got."""

    records: list[Round]
    rejects: list[RejectedLine]
    position: int  # bytes of the source file read so far (compressed bytes for .gz)


#: What the readers return: batches, one at a time; ``close()`` stops reading.
BatchReader = Generator[Batch, None, None]


def batched(
    items: Iterator[Round | RejectedLine], position: Callable[[], int], size: int
) -> Iterator[Batch]:
    """Rounds and rejected lines, in file order, gathered into batches of up to ``size`` of
    either kind; ``position`` tells how far reading got when a batch is full."""
    records: list[Round] = []
    rejects: list[RejectedLine] = []
    for item in items:
        if type(item) is Round:
            records.append(item)
            if len(records) >= size:
                yield Batch(records, rejects, position())
                records, rejects = [], []
        else:
            rejects.append(item)
            if len(rejects) >= size:
                yield Batch(records, rejects, position())
                records, rejects = [], []
    yield Batch(records, rejects, position())


def raw_text(data: bytes) -> str:
    """A line's bytes as the text a rejected line keeps: decoded, without its line ending,
    at most :data:`RAW_TEXT_LIMIT` characters."""
    return data.decode("utf-8", errors="replace").rstrip("\r\n")[:RAW_TEXT_LIMIT]


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
