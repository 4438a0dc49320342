"""Reading a large round log in a second process, so that two cores share the work.

Ingest has two halves of about the same weight: decoding and checking every line (Python),
and writing the rows into SQLite (the parent, which holds the one write transaction). For a
large file (JSON Lines, gzipped or not, or a CSV pair, which the child stages in its own
temporary database) the first half runs in a child process (``python -m reporting.ingest.worker``), which
sends each batch of checked records through a pipe as a MessagePack frame (msgspec encodes
and decodes it in C, the records as arrays: back into typed rounds, each bet straight into
the row the store binds, :data:`BetRow`); the parent
writes batch *n* while the child reads batch *n + 1*. Nothing else changes: the same reader
(:func:`reporting.ingest.formats.read_source`) makes the same batches, and the parent still
decides duplicates and conflicts and commits once per file.

The child is a fresh interpreter started with :mod:`subprocess` (not :mod:`multiprocessing`,
which would re-run the caller's main script in it). It holds no database connection and
writes nothing but frames (and its private staging file for a CSV pair). If the parent
stops (an error, Ctrl-C, SIGKILL), the child's next write finds the pipe closed and it exits;
if the child stops, the parent finds the pipe closed, rolls the file back and says so.

A frame is 8 bytes of length (little-endian) and one of the :data:`Frame` records as a
MessagePack array whose first item names it: ``["ready"]`` once the child has started, then
``["batch", records, rejects, position]`` for each batch and ``["done"]``, or
``["input_error", message]`` or ``["crash", traceback]``.
"""

from __future__ import annotations

import os
import pickle
import signal
import subprocess
import sys
import traceback
from collections.abc import Mapping
from typing import IO

import msgspec

from reporting.engine.games import GameSpec
from reporting.errors import InputError
from reporting.ingest.formats import read_source
from reporting.ingest.sources import Batch, BatchReader, Source, cyclic_gc_paused
from reporting.records import Bet, RejectedLine, Round

__all__ = [
    "WORKER_MIN_BYTES",
    "BatchFrame",
    "Crash",
    "Done",
    "Frame",
    "InputErrorFrame",
    "Ready",
    "read_in_worker",
    "worth_a_worker",
    "write_frame",
]

#: Logs from this size on are read in a second process (starting it costs about 0.2 s).
WORKER_MIN_BYTES = 8 * 1024 * 1024
_LENGTH = 8  # bytes of a frame's length prefix


class Ready(msgspec.Struct, array_like=True, tag="ready"):
    """The child has started and read its orders."""


class BatchFrame(msgspec.Struct, array_like=True, tag="batch", gc=False):
    """One batch of the reader (see :class:`reporting.ingest.sources.Batch`)."""

    records: list[Round]
    rejects: list[RejectedLine]
    position: int


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

# How the parent reads a batch frame: the same bytes, each bet decoded (and type-checked)
# straight into the row the bets table is bound with, its fields in the order of Bet, and the
# rest of each round a record as named as Round. The writer then builds no Bet to turn back
# into a row: at a million rounds, six million objects fewer on the process ingest waits for.
#: A bet as the writer binds it: :class:`~reporting.records.Bet`'s fields as a tuple.
BetRow = tuple[tuple(field.type for field in msgspec.structs.fields(Bet))]
#: A round as the writer receives it from the child: Round's fields, its bets as rows.
RoundOfRows = msgspec.defstruct(
    "RoundOfRows",
    [
        (field.name, list[BetRow] if field.name == "bets" else field.type)
        for field in msgspec.structs.fields(Round)
    ],
    array_like=True,
    gc=False,
    module=__name__,
)


class _RowsFrame(msgspec.Struct, array_like=True, tag="batch", gc=False):
    """A :class:`BatchFrame` as the parent decodes it."""

    records: list[RoundOfRows]  # type: ignore[valid-type]
    rejects: list[RejectedLine]
    position: int


_ROWS_DECODER = msgspec.msgpack.Decoder(Ready | _RowsFrame | Done | InputErrorFrame | Crash)


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


def read_in_worker(source: Source, games: Mapping[str, GameSpec], size: int) -> BatchReader:
    """The batches of :func:`reporting.ingest.formats.read_source`, made by a child process.

    If the child cannot be started (no process to spare, or an interpreter that cannot
    import this package), the file is read in this process instead: slower, same result.
    Close the generator (or exhaust it) to stop the child. An error in the child is raised
    here: :class:`InputError` for a file that cannot be read, RuntimeError for a bug.
    """
    try:
        child = subprocess.Popen(_command(), stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    except OSError:
        yield from read_source(source, games, size)
        return
    assert child.stdin is not None and child.stdout is not None
    try:
        try:
            with child.stdin:
                pickle.dump((source, dict(games), size), child.stdin)
        except BrokenPipeError:
            pass  # the child is gone already: the first frame says so
        if not _started(child.stdout):  # it could not start (see its stderr): read here
            yield from read_source(source, games, size)
            return
        yield from _batches_of(child, source)
    finally:
        child.stdout.close()
        if child.poll() is None:
            child.kill()
        child.wait()


def _batches_of(child: subprocess.Popen, source: Source) -> BatchReader:
    """The batches a started child sends, up to its "done" frame; an error otherwise."""
    assert child.stdout is not None
    decode = _ROWS_DECODER.decode
    while True:
        data = _read_frame(child.stdout)
        if data is None:
            raise InputError(
                f"{source.path}: the process reading it {_ended(child.wait())}; nothing of"
                " it was loaded; run the ingest again"
            )
        try:
            frame = decode(data)
        except msgspec.DecodeError as error:  # a ValidationError too: an unknown kind
            raise RuntimeError(
                f"the process reading {source.path} sent a frame that is not one of ours: {error}"
            ) from None
        match frame:
            case _RowsFrame(records, rejects, position):
                yield Batch(records, rejects, position)
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
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and stops us
    # Frames go to a private copy of stdout; anything printed by mistake goes to stderr.
    frames = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    try:
        source, games, size = pickle.load(sys.stdin.buffer)
        write_frame(frames, Ready())
        with cyclic_gc_paused():
            for batch in read_source(source, games, size):
                write_frame(frames, BatchFrame(batch.records, batch.rejects, batch.position))
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
