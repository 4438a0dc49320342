"""What the readers read and what they give: a source (one round log, or a pair of files), and
its batches of validated rounds and rejected lines, one at a time; and the same batches as the
store writes them (:class:`RowBatch`: the very rows its INSERT statements bind)."""

from __future__ import annotations

import gc
import json
import re
from collections.abc import Callable, Generator, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import chain
from operator import attrgetter
from pathlib import Path
from typing import NamedTuple

from msgspec.structs import astuple

from reporting.errors import InputError, counted, printable
from reporting.files import sha256_of
from reporting.ingest.limits import (
    MAX_BATCH_BETS,
    MAX_NAMED_FIELDS,
    MAX_REJECTED_LINES,
    RAW_TEXT_LIMIT,
)
from reporting.ingest.profiles.model import Profile
from reporting.records import RejectedLine, RejectReason, Round

__all__ = [
    "RAW_TEXT_LIMIT",
    "Batch",
    "BatchReader",
    "BetRow",
    "RoundRow",
    "RowBatch",
    "RowReader",
    "Source",
    "UnreadFields",
    "batched",
    "cyclic_gc_paused",
    "shown_field",
    "raw_text",
    "rows_of",
]


@dataclass(frozen=True)
class Source:
    """One round log to ingest: a file, or a pair of files (a CSV rounds file + its bets file).

    ``format`` is the name of an entry of :data:`reporting.ingest.formats.FORMATS` for a
    round log of the spec; for a provider's export read through a log ``profile``, the
    profile's layout the file is read as (json, jsonl or csv).
    """

    path: Path
    format: str
    companion: Path | None = None  # bets.csv of a CSV pair
    profile: Profile | None = None  # None: the spec's round log

    @property
    def files(self) -> tuple[Path, ...]:
        """The files that make up the source."""
        return (self.path,) if self.companion is None else (self.path, self.companion)

    @property
    def size(self) -> int:
        """Total size in bytes (what each file is, is checked where it is opened)."""
        return sum(path.stat().st_size for path in self.files)

    def state(self) -> tuple[FileState, ...]:
        """What each file is now (device, inode, size, time of change of its content and of
        its inode): read before the source's hash and again after it was read, to tell a file
        that changed meanwhile (cut short, grown, or rewritten in place) from the one hashed.
        The inode's time is the one a writer cannot set back: a copy that rewrites a file in
        place at its size and restores its time of change (``rsync --inplace -t``) changes it."""
        return tuple(
            FileState(
                found.st_dev, found.st_ino, found.st_size, found.st_mtime_ns, found.st_ctime_ns
            )
            for found in (path.stat() for path in self.files)
        )

    def sha256(self) -> str:
        """Content hash of the source (of both files, in order, for a CSV pair); only regular
        files are read, so a FIFO is refused rather than waited on."""
        return sha256_of(*self.files)


class FileState(NamedTuple):
    """What a file is at a moment (:meth:`Source.state`): its device and inode, its size, the
    time its content changed and the time its inode did (which no writer can set back)."""

    device: int
    inode: int
    size: int
    changed_ns: int
    inode_changed_ns: int


class UnreadFields:
    """The fields of a file the tool does not read, as its reader meets them: a round's
    field by its name (``dealer``), a bet's as ``bets[].name`` (``bets[].bonus_payout``), in
    the order first met. What they hold is in no figure and no check, so the ingest log and
    the audit name them: :data:`~reporting.ingest.limits.MAX_NAMED_FIELDS` of the round's and
    as many of the bets' (a thousand names of the round's bury no bet's), then how many more.
    """

    def __init__(self) -> None:
        self._names: tuple[dict[str, None], dict[str, None]] = ({}, {})  # the round's, the bets'
        self._more: tuple[set[str], set[str]] = (set(), set())

    def add(self, names: Iterable[str], *, of_bets: bool = False) -> None:
        """Take the ``names`` of a round's fields (or, ``of_bets``, of a bet's)."""
        named, more = self._names[of_bets], self._more[of_bets]
        for name in names:
            if name in named or name in more:
                continue
            if len(named) < MAX_NAMED_FIELDS:
                named[name] = None
            elif len(more) < _MORE_COUNTED:  # counted up to a bound: memory stays flat
                more.add(name)

    @property
    def named(self) -> tuple[str, ...]:
        """The names as they are shown (:func:`shown_field`), the round's then the bets', each
        followed by how many more of its kind."""
        shown: list[str] = []
        for of_bets, (named, more) in enumerate(zip(self._names, self._more, strict=True)):
            prefix = "bets[]." if of_bets else ""
            shown += [prefix + shown_field(name) for name in named]
            if more:
                least = "at least " if len(more) >= _MORE_COUNTED else ""
                kind = " of the bets" if of_bets else ""
                shown.append(f"and {least}{len(more):,} more fields{kind}")
        return tuple(shown)


#: Names of fields not read counted past those named, at most (then "at least").
_MORE_COUNTED = 100_000
#: A name that would read as something else in a list of names: blank, edged with spaces,
#: holding a comma or a quote, read as a count ("and 3 more fields") or as a bet's field.
_AMBIGUOUS = re.compile(r'^\s|\s$|^$|[,"]|^and |^bets\[\]\.')


def shown_field(name: str) -> str:
    """A field's name as a list of names shows it: one line (:func:`printable`), cut to 64
    characters (ended by "…"), and quoted where bare it would be read as something else.

    >>> shown_field("dealer"), shown_field(""), shown_field("side,bet"), shown_field("x" * 70)[-3:]
    ('dealer', '""', '"side,bet"', 'xx…')
    """
    text = printable(name)
    if len(text) > 64:
        text = text[:63] + "…"
    return json.dumps(text, ensure_ascii=False) if _AMBIGUOUS.search(text) else text


class Batch(NamedTuple):
    """A slice of a source: its valid rounds, its rejected lines, how far reading got, and,
    on the file's last batch, the fields of the file not read (:class:`UnreadFields`)."""

    records: list[Round]
    rejects: list[RejectedLine]
    position: int  # bytes of the source file read so far (compressed bytes for .gz)
    unread: tuple[str, ...] = ()


#: What the readers return: batches, one at a time; ``close()`` stops reading.
BatchReader = Generator[Batch, None, None]

#: A round as the rounds table is bound with: :class:`~reporting.records.Round`'s fields but
#: its bets, in Round's order (the file's ingest id is the statement's own).
RoundRow = tuple
#: A bet as the bets table is bound with: :class:`~reporting.records.Bet`'s fields, in order.
BetRow = tuple


class RowBatch(NamedTuple):
    """A :class:`Batch` as the store writes it: its rounds and bets as the rows the INSERT
    statements bind, made by the process that read them (the worker, for a large file), so
    that the writing process hands them to SQLite as they come.

    ``bets`` holds every bet of ``rounds``, round after round, ``bet_counts[i]`` of them for
    ``rounds[i]`` (only a batch with a round twice, or a round already stored, needs to
    know which bets are whose).
    """

    rounds: list[RoundRow]
    bets: list[BetRow]
    bet_counts: list[int]
    rejects: list[RejectedLine]
    position: int
    unread: tuple[str, ...] = ()  # on the file's last batch: the fields of the file not read


#: Batches of rows, one at a time; ``close()`` stops reading.
RowReader = Generator[RowBatch, None, None]

_BETS_OF = attrgetter("bets")
_ROUND_WIDTH = len(Round.__struct_fields__) - 1
assert Round.__struct_fields__[-1] == "bets"


def rows_of(batch: Batch, *, bet_rows: bool = True) -> RowBatch:
    """The rows of a batch of records (see :class:`RowBatch`).

    With ``bet_rows`` false the bets stay :class:`~reporting.records.Bet` records (an
    ``array_like`` record encodes as its row: the worker sends them so, and its parent
    decodes them as rows), which spares the reading process a tuple per bet.
    """
    records = batch.records
    bets_of = list(map(_BETS_OF, records))
    bets = chain.from_iterable(bets_of)
    return RowBatch(
        [astuple(record)[:_ROUND_WIDTH] for record in records],
        list(map(astuple, bets) if bet_rows else bets),
        list(map(len, bets_of)),
        batch.rejects,
        batch.position,
        batch.unread,
    )


def batched(
    items: Iterator[Round | RejectedLine],
    position: Callable[[], int],
    size: int,
    name: str,
    unread: UnreadFields | None = None,
    reader: str = "the spec's round log reader",
) -> Iterator[Batch]:
    """Rounds and rejected lines, in file order, gathered into batches of up to ``size`` of
    either kind (or of :data:`~reporting.ingest.limits.MAX_BATCH_BETS` bets, whichever comes
    first); ``position`` tells how far reading got when a batch is full, and ``unread``
    (None: a reader that reads only what it names, a log profile's) the fields not read.

    A file (``name``, read by ``reader``) with more than
    :data:`~reporting.ingest.limits.MAX_REJECTED_LINES` rejected lines, and more of them than
    rounds, is not a round log: InputError. So is a file of which no round was read and half
    its records or more hold no round id where its reader reads one (``missing_field``
    rejects without one; a line cut short or a bad amount among them does not hide it): the
    spec's log read with a provider's profile, or a provider's export without it. Recorded,
    its rejects were counted in the month and the file known by its hash: read again with the
    right profile, it was "already ingested".
    """
    records: list[Round] = []
    rejects: list[RejectedLine] = []
    bets = rounds_before = rejects_before = 0
    no_round, without_ids, first = True, 0, ""  # the records without a round id, the first's
    for item in items:
        if type(item) is Round:
            records.append(item)
            bets += len(item.bets)
            no_round = False
            if len(records) < size and bets < MAX_BATCH_BETS:
                continue
        else:
            rejects.append(item)
            if no_round and _without_id(item):
                without_ids, first = without_ids + 1, first or item.message
            if len(rejects) < size:
                continue
            _check_rejects(name, rejects_before + len(rejects), rounds_before + len(records))
        rounds_before += len(records)
        rejects_before += len(rejects)
        yield Batch(records, rejects, position())
        records, rejects, bets = [], [], 0
    total = rejects_before + len(rejects)
    if no_round and without_ids and 2 * without_ids >= total:
        raise InputError(
            f"{name}: no record of it holds a round id where {reader} reads one ({first};"
            f" {without_ids:,} of its {counted(total, 'record')}): not a file it reads; nothing"
            " of it was loaded (a provider's export is read with its log profile, the spec's"
            " round log without one)"
        )
    yield Batch(records, rejects, position(), () if unread is None else unread.named)


def _without_id(reject: RejectedLine) -> bool:
    """Whether a reject is of a record without a round id where its reader reads one, or with
    an empty one (a CSV pair's bet of the round ``''``)."""
    if reject.round_id is None:
        return reject.reason == RejectReason.MISSING_FIELD.value
    return not reject.round_id.strip()


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
