"""Writers of the round log: JSON lines (optionally gzipped on a second thread) and CSV.

A writer knows the format, not the faults: an injector that must break an encoded line
(:mod:`reporting.sample.faults`) does it through the primitives here. Files are written as
``*.part`` (hidden, of a name of its own: :func:`part_of`) and renamed once complete, or
removed.
"""

from __future__ import annotations

import csv
import gzip
import os
import queue
import secrets
import threading
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any, Literal

import msgspec

from reporting.records import CSV_BET_FIELDS, CSV_PAIR, CSV_ROUND_FIELDS

LogFormat = Literal["jsonl", "csv", "replay-api", "replay-api-jsonl", "numeric-feed", "flat-csv"]

_ROUND_COLUMNS = CSV_ROUND_FIELDS  # the reader's columns, so the two cannot drift apart
_BET_COLUMNS = CSV_BET_FIELDS


class BackgroundStream:
    """Writes chunks to a stream on a second thread: zlib compresses without holding the GIL,
    so a gzipped log costs little more time than a plain one on a machine with two cores."""

    def __init__(self, stream: Any):
        self._stream = stream
        self._chunks: queue.Queue[bytes | None] = queue.Queue(maxsize=4)
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="gzip-writer", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            while (chunk := self._chunks.get()) is not None:
                self._stream.write(chunk)
        except BaseException as error:  # handed to the producer on its next write or close
            self._error = error
            while self._chunks.get() is not None:
                pass

    def write(self, chunk: bytes) -> None:
        """Queue a chunk; raises the writing thread's error, if it had one."""
        if self._error is not None:
            raise self._error
        self._chunks.put(chunk)

    def close(self) -> None:
        """Write what is queued, then close the stream."""
        self._chunks.put(None)
        self._thread.join()
        self._stream.close()
        if self._error is not None:
            raise self._error


def part_of(path: Path) -> tuple[Path, int]:
    """A new temporary file beside ``path``, hidden and of a name of its own
    (``.NAME.<hex>.part``), created for this run alone: never a link followed, nor another
    run's file written into (two runs onto one ``--out`` each finish their own). Its path and
    file descriptor."""
    temporary = path.with_name(f".{path.name}.{secrets.token_hex(6)}.part")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
    return temporary, os.open(temporary, flags, 0o666)


def open_part(path: Path) -> tuple[Path, IO[bytes], BackgroundStream]:
    """Open a ``*.part`` file of ``path`` (:func:`part_of`) for writing, gzipped when the
    name ends in ``.gz`` (no file name and no time in the header: the same log gives the
    same bytes), written on a second thread; the temporary path, the raw file and the stream
    to write to."""
    temporary, descriptor = part_of(path)
    raw = os.fdopen(descriptor, "wb")
    target: Any = raw
    if path.name.endswith(".gz"):
        target = gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=6)
    return temporary, raw, BackgroundStream(target)


def close_part(raw: IO[bytes], stream: BackgroundStream) -> None:
    """Close what :func:`open_part` opened (the stream, then the file)."""
    try:
        stream.close()  # closes the gzip stream, or the file itself
    finally:
        raw.close()


def finish_part(
    temporary: Path,
    path: Path,
    keep: bool,
    flush: Callable[[], None],
    opened: tuple[IO[bytes], BackgroundStream],
) -> None:
    """Write what ``flush`` holds, close what :func:`open_part` ``opened``, then keep the
    ``*.part`` file under its name or remove it; when a step fails (a full disk on the last
    bytes), the part is removed too, not left beside the log."""
    try:
        try:
            flush()
        finally:
            close_part(*opened)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    keep_part(temporary, path, keep)


def keep_part(temporary: Path, path: Path, keep: bool) -> None:
    """Keep a closed ``*.part`` file under its name, or remove it (also when it cannot be
    kept: a folder at ``path``)."""
    try:
        if keep:
            os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)


class JsonLinesWriter:
    """One round per line, compact JSON, optionally gzipped with a fixed header."""

    format: LogFormat = "jsonl"
    positions = "line"

    def __init__(self, path: Path):
        self.path = path
        self.temporary, self._raw, self._stream = open_part(path)
        self._encoder = msgspec.json.Encoder()
        self._pending: list[bytes] = []
        self.lines = 0

    def write_round(self, data: dict[str, Any], bet_index: int | None) -> tuple[int, None]:
        """Write a round as one line; returns its line number (and no bets line)."""
        self.write_line(self._encoder.encode(data))
        return self.lines, None

    def encode(self, data: dict[str, Any]) -> bytes:
        """A round as one line of compact JSON, without the newline."""
        return self._encoder.encode(data)

    def write_line(self, line: bytes) -> None:
        """Write one line as given."""
        self._pending.append(line)
        self.lines += 1
        if len(self._pending) >= 2000:
            self._flush()

    def _flush(self) -> None:
        if self._pending:
            self._stream.write(b"\n".join(self._pending) + b"\n")
            self._pending = []

    def files(self) -> list[Path]:
        """The files this writer writes."""
        return [self.path]

    def close(self, keep: bool) -> None:
        """Finish the file, then keep it under its name or remove it."""
        finish_part(self.temporary, self.path, keep, self._flush, (self._raw, self._stream))


class CsvWriter:
    """``rounds.csv`` and ``bets.csv`` in one folder, sharing ``round_id``."""

    format: LogFormat = "csv"
    positions = "line"

    def __init__(self, folder: Path):
        folder.mkdir(parents=True, exist_ok=True)
        self.folder = folder
        self.paths = [folder / name for name in CSV_PAIR]
        self._temporaries: list[Path] = []
        self._handles = []
        for path in self.paths:
            temporary, descriptor = part_of(path)
            self._temporaries.append(temporary)
            self._handles.append(open(descriptor, "w", encoding="utf-8", newline=""))  # noqa: SIM115 (closed by close())
        self._rounds = csv.writer(self._handles[0], lineterminator="\n")
        self._bets = csv.writer(self._handles[1], lineterminator="\n")
        self._rounds.writerow(_ROUND_COLUMNS)
        self._bets.writerow(_BET_COLUMNS)
        self.lines = 0
        self.bet_lines = 0

    def write_round_row(self, data: dict[str, Any]) -> None:
        """Write the round's line of ``rounds.csv``, without its bets."""
        row = []
        for column in _ROUND_COLUMNS:
            value = data.get(column)
            if isinstance(value, list):
                value = " ".join(value)
            row.append("" if value is None else str(value))
        self._rounds.writerow(row)
        self.lines += 1

    def write_round(
        self, data: dict[str, Any], bet_index: int | None, stake: str | None = None
    ) -> tuple[int, int | None]:
        """Write a round and its bets, the bet ``bet_index`` with ``stake`` as its stake text
        if given; returns the round's line and that bet's line in ``bets.csv``."""
        self.write_round_row(data)
        round_line = self.lines + 1  # the header is line 1
        bet_line = None
        for index, bet in enumerate(data["bets"]):
            chosen = index == bet_index
            self._bets.writerow(
                [data["round_id"], bet["bet_id"], bet["account"], bet["type"],
                 stake if chosen and stake is not None else bet["stake"],
                 bet["payout"], bet["currency"], bet["placed_at"] or ""]
            )  # fmt: skip
            self.bet_lines += 1
            if chosen:
                bet_line = self.bet_lines + 1
        return round_line, bet_line

    def files(self) -> list[Path]:
        """The files this writer writes."""
        return list(self.paths)

    def close(self, keep: bool) -> None:
        """Finish the files, then keep them under their names or remove them (both removed
        when one cannot be finished)."""
        parts = list(zip(self._handles, self._temporaries, self.paths, strict=True))
        try:
            for handle, _, _ in parts:
                handle.close()
        except BaseException:
            for _, temporary, _ in parts:
                temporary.unlink(missing_ok=True)
            raise
        for _, temporary, path in parts:
            keep_part(temporary, path, keep)


LogWriter = JsonLinesWriter | CsvWriter


def manifest_file(fmt: str, out: Path) -> Path:
    """Where the fault manifest of a log of ``fmt`` at ``out`` goes: beside the log, or in a
    CSV pair's folder."""
    return out / "faults.json" if fmt == "csv" else out.with_name(out.name + ".faults.json")


def open_writer(fmt: LogFormat, out: Path) -> tuple[LogWriter, Path]:
    """The writer of a log, and where its fault manifest goes."""
    if fmt == "csv":
        return CsvWriter(out), manifest_file(fmt, out)
    out.parent.mkdir(parents=True, exist_ok=True)
    return JsonLinesWriter(out), manifest_file(fmt, out)
