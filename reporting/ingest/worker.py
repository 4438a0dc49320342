"""Reading a large round log in a second process, so that two cores share the work.

Ingest has two halves of about the same weight: decoding and checking every line (Python),
and writing the rows into SQLite (the parent, which holds the one write transaction). For a
large file (JSON Lines, gzipped or not, or a CSV pair, which the child stages in its own
temporary database) the first half runs in a child process (``python -m reporting.ingest.worker``), which
sends each batch of checked records through a pipe as a MessagePack frame: the batch as the
store writes it (:class:`~reporting.ingest.sources.RowBatch`), its rounds and bets already
the very rows the INSERT statements bind, so that the parent, the process ingest waits for,
decodes them (msgspec, in C, type-checked) and hands them to SQLite without building
anything per round or per field. A thread of the parent reads the next frames off the pipe
while it writes (a few frames ahead, so memory stays flat), so neither process waits for the
other to finish a batch. Nothing else changes: the same reader
(:func:`reporting.ingest.formats.read_source`) makes the same batches, and the parent still
decides duplicates and conflicts and commits once per file.

The child is a fresh interpreter started with :mod:`subprocess` (not :mod:`multiprocessing`,
which would re-run the caller's main script in it). It holds no database connection and
writes nothing but frames (and its private staging file for a CSV pair). If the parent
stops (an error, Ctrl-C, SIGKILL), the child's next write finds the pipe closed and it exits;
if the child stops, the parent finds the pipe closed, rolls the file back and says so.

A frame is 8 bytes of length (little-endian) and one of the :data:`Frame` records as a
MessagePack array whose first item names it: ``["ready"]`` once the child has started, then
``["batch", rounds, bets, bet_counts, rejects, position, unread]`` for each batch and ``["done"]``,
or ``["input_error", message]`` or ``["crash", traceback]``.
"""

from __future__ import annotations

import os
import pickle
import queue
import signal
import subprocess
import sys
import threading
import traceback
from collections.abc import Mapping
from contextlib import closing, suppress
from typing import IO

import msgspec

from reporting.engine.games import GameSpec
from reporting.errors import InputError
from reporting.ingest.formats import read_source
from reporting.ingest.sources import (
    Batch,
    RowBatch,
    RowReader,
    Source,
    cyclic_gc_paused,
    rows_of,
)
from reporting.records import Bet, RejectedLine, Round

__all__ = [
    "WORKER_MIN_BYTES",
    "BatchFrame",
    "Crash",
    "Done",
    "Frame",
    "InputErrorFrame",
    "Ready",
    "batch_frame",
    "read_here",
    "read_in_worker",
    "worth_a_worker",
    "write_frame",
]

#: Logs from this size on are read in a second process (starting it costs about 0.2 s).
WORKER_MIN_BYTES = 8 * 1024 * 1024
_LENGTH = 8  # bytes of a frame's length prefix


class Ready(msgspec.Struct, array_like=True, tag="ready"):
    """The child has started and read its orders."""


# The rows as the parent decodes them: each item type-checked (a frame that is not one of
# ours is an error, never a row), into the tuples the INSERT statements bind.
_RoundRow = tuple[tuple(field.type for field in msgspec.structs.fields(Round)[:-1])]
_BetRow = tuple[tuple(field.type for field in msgspec.structs.fields(Bet))]


class BatchFrame(msgspec.Struct, array_like=True, tag="batch", gc=False):
    """One batch of the reader as the store writes it (see
    :class:`reporting.ingest.sources.RowBatch`)."""

    rounds: list[_RoundRow]  # type: ignore[valid-type]
    bets: list[_BetRow]  # type: ignore[valid-type]
    bet_counts: list[int]
    rejects: list[RejectedLine]
    position: int
    unread: tuple[str, ...]  # on the file's last batch: the fields of the file not read


def batch_frame(batch: Batch) -> BatchFrame:
    """The frame that sends ``batch``: its rows, made here (in the child); its bets go as
    their records, which encode as their rows."""
    return BatchFrame(*rows_of(batch, bet_rows=False))


class Done(msgspec.Struct, array_like=True, tag="done"):
    """The source was read to the end."""


class InputErrorFrame(msgspec.Struct, array_like=True, tag="input_error"):
    """The source cannot be read (an :class:`InputError`, with its message)."""

    message: str


class Crash(msgspec.Struct, array_like=True, tag="crash"):
    """A bug in the child, with its traceback."""

    traceback: str


#: Everything the child sends.
Frame = Ready | BatchFrame | Done | InputErrorFrame | Crash
_FRAME_DECODER = msgspec.msgpack.Decoder(Frame)
_FRAME_ENCODER = msgspec.msgpack.Encoder()
#: Frames the parent's reading thread may hold ahead of the writer (each up to a batch).
_FRAMES_AHEAD = 4


def worth_a_worker(source: Source, min_bytes: int = WORKER_MIN_BYTES) -> bool:
    """Whether reading ``source`` in a second process pays: a log of ``min_bytes`` or more
    (both files of a CSV pair together), and a second processor to run it on."""
    if _usable_cpus() < 2:
        return False
    try:
        return source.size >= min_bytes
    except OSError:
        return False  # unreadable: the ingest reports it


def _usable_cpus() -> int:
    """Processors this process may run on (its affinity where the system tells it)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def _command() -> list[str]:
    """The child's command line: this module, run by the same interpreter."""
    return [sys.executable, "-m", "reporting.ingest.worker"]


def read_here(source: Source, games: Mapping[str, GameSpec], size: int) -> RowReader:
    """The batches of :func:`reporting.ingest.formats.read_source` as rows, made in this
    process (a small file, or no second processor)."""
    with closing(read_source(source, games, size)) as batches:
        for batch in batches:
            yield rows_of(batch)


def read_in_worker(source: Source, games: Mapping[str, GameSpec], size: int) -> RowReader:
    """The batches of :func:`reporting.ingest.formats.read_source` as rows, made by a child
    process.

    If the child cannot be started (no process to spare, or an interpreter that cannot
    import this package), the file is read in this process instead: slower, same result. A
    child killed by a signal, before its first frame or after, is an InputError naming it.
    Close the generator (or exhaust it) to stop the child. An error in the child is raised
    here: :class:`InputError` for a file that cannot be read, RuntimeError for a bug.
    """
    try:
        child = subprocess.Popen(_command(), stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    except OSError:
        yield from read_here(source, games, size)
        return
    assert child.stdin is not None and child.stdout is not None
    try:
        try:
            with child.stdin:
                pickle.dump((source, dict(games), size), child.stdin)
        except BrokenPipeError:
            pass  # the child is gone already: the first frame says so
        if not _started(child.stdout):
            code = child.wait()
            if code < 0:  # killed before its "ready" came through: as if killed mid-file
                raise InputError(_killed(source, code))
            # It could not start (an interpreter that cannot import us: see its stderr).
            yield from read_here(source, games, size)
            return
        frames = _FramesAhead(child.stdout)
        try:
            yield from _batches_of(child, source, frames)
        finally:
            if child.poll() is None:
                child.kill()  # the pipe then ends: the reading thread stops
            frames.stop()
    finally:
        child.stdout.close()
        if child.poll() is None:
            child.kill()
        child.wait()


class _FramesAhead:
    """A thread reading a child's frames off its pipe, a few ahead of the caller (reading
    a pipe releases the GIL: the writer works meanwhile). ``None`` is the end of the pipe."""

    def __init__(self, stream: IO[bytes]):
        self._frames: queue.Queue[bytes | None] = queue.Queue(_FRAMES_AHEAD)
        self._stream = stream
        self._thread = threading.Thread(target=self._read, name="frames", daemon=True)
        self._thread.start()

    def _read(self) -> None:
        while True:
            data = _read_frame(self._stream)
            self._frames.put(data)
            if data is None:
                return

    def next(self) -> bytes | None:
        """The next frame, as it was read; None once the pipe is closed."""
        return self._frames.get()

    def stop(self) -> None:
        """Once the pipe is closed at the other end: let the thread read to its end."""
        while self._thread.is_alive():
            with suppress(queue.Empty):
                self._frames.get(timeout=0.05)
        self._thread.join()


def _batches_of(child: subprocess.Popen, source: Source, frames: _FramesAhead) -> RowReader:
    """The batches a started child sends, up to its "done" frame; an error otherwise."""
    decode = _FRAME_DECODER.decode
    while True:
        data = frames.next()
        if data is None:
            raise InputError(_killed(source, child.wait()))
        try:
            frame = decode(data)
        except msgspec.DecodeError as error:  # a ValidationError too: an unknown kind
            raise RuntimeError(
                f"the process reading {source.path} sent a frame that is not one of ours: {error}"
            ) from None
        match frame:
            case BatchFrame(rounds, bets, bet_counts, rejects, position, unread):
                yield RowBatch(rounds, bets, bet_counts, rejects, position, unread)
            case Done():
                return
            case InputErrorFrame(message):
                raise InputError(message)
            case Crash(trace):
                raise RuntimeError(f"the process reading {source.path} failed:\n{trace}")
            case _:  # Ready again
                raise RuntimeError(f"the process reading {source.path} sent {frame!r}")


def _started(stream: IO[bytes]) -> bool:
    data = _read_frame(stream)
    try:
        return data is not None and type(_FRAME_DECODER.decode(data)) is Ready
    except msgspec.DecodeError:
        return False


def _killed(source: Source, code: int) -> str:
    """The file's one line when its reading process ended before the file did."""
    return (
        f"{source.path}: the process reading it {_ended(code)}; nothing of it was loaded; run"
        " the ingest again"
    )


def _ended(code: int) -> str:
    if code < 0:
        name = signal.Signals(-code).name if -code in signal.valid_signals() else str(-code)
        killer = " (SIGKILL: often the out-of-memory killer)" if -code == signal.SIGKILL else ""
        return f"was stopped by signal {name}{killer}"
    return f"stopped with exit code {code}"


def _read_frame(stream: IO[bytes]) -> bytes | None:
    header = stream.read(_LENGTH)
    if len(header) < _LENGTH:
        return None
    length = int.from_bytes(header, "little")
    frame = stream.read(length)
    return frame if len(frame) == length else None


def write_frame(stream: IO[bytes], frame: Frame) -> None:
    """Write one frame: its length, then the frame as MessagePack."""
    data = _FRAME_ENCODER.encode(frame)
    stream.write(len(data).to_bytes(_LENGTH, "little"))
    stream.write(data)


def _serve() -> None:
    """The child: read the source named on stdin and write its batches as frames."""
    for number in (signal.SIGINT, signal.SIGHUP):  # the parent handles them and stops us
        signal.signal(number, signal.SIG_IGN)
    # Frames go to a private copy of stdout; anything printed by mistake goes to stderr.
    frames = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    try:
        source, games, size = pickle.load(sys.stdin.buffer)
        write_frame(frames, Ready())
        # Sent now: a CSV pair is staged whole before its first batch, and a kill meanwhile
        # must read as a kill, not as a child that never started.
        frames.flush()
        with cyclic_gc_paused():
            for batch in read_source(source, games, size):
                write_frame(frames, batch_frame(batch))
        write_frame(frames, Done())
        frames.flush()
    except (BrokenPipeError, ConnectionResetError):
        os._exit(0)  # the parent has gone: nobody is waiting for the rest
    except InputError as error:
        write_frame(frames, InputErrorFrame(str(error)))
    except BaseException:
        write_frame(frames, Crash(traceback.format_exc()))
    try:
        frames.close()
    except BrokenPipeError:
        os._exit(0)


if __name__ == "__main__":
    _serve()
