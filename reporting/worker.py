"""Reading a large JSON Lines file in a second process, so that two cores share the work.

Ingest has two halves of about the same weight: decoding and checking every line (Python),
and writing the rows into SQLite (the parent, which holds the one write transaction). For a
large file the first half runs in a child process (``python -m reporting.worker``), which
sends each batch of checked records through a pipe as a MessagePack frame (msgspec encodes
and decodes it in C); the parent writes batch *n* while the child reads batch *n + 1*.
Nothing else changes: the same reader (:func:`reporting.logs.read_jsonl`) makes the same
batches, and the parent still decides duplicates and conflicts and commits once per file.

The child is a fresh interpreter started with :mod:`subprocess` (not :mod:`multiprocessing`,
which would re-run the caller's main script in it). It holds no database connection and
writes nothing but frames. If the parent stops (an error, Ctrl-C, SIGKILL), the child's next
write finds the pipe closed and it exits; if the child stops, the parent finds the pipe
closed, rolls the file back and says so.

A frame is 8 bytes of length (little-endian) and a MessagePack array whose first item names
it: ``["batch", records, rejects, position]``, ``["done"]``, ``["input_error", message]`` or
``["crash", traceback]``.
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
from reporting.logs import (
    Batch,
    BatchReader,
    RejectedLine,
    Source,
    cyclic_gc_paused,
    read_jsonl,
)

__all__ = ["WORKER_MIN_BYTES", "read_in_worker", "worth_a_worker"]

#: Files from this size on are read in a second process (starting it costs about 0.2 s).
WORKER_MIN_BYTES = 8 * 1024 * 1024
_LENGTH = 8  # bytes of a frame's length prefix


def worth_a_worker(source: Source) -> bool:
    """Whether reading ``source`` in a second process pays: a large JSON Lines file, and a
    second processor to run it on."""
    return (
        source.format in ("jsonl", "jsonl.gz")
        and _usable_cpus() > 1
        and source.size >= WORKER_MIN_BYTES
    )


def _usable_cpus() -> int:
    """Processors this process may run on (its affinity where the system tells it)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def _command() -> list[str]:
    """The child's command line: this module, run by the same interpreter."""
    return [sys.executable, "-m", "reporting.worker"]


def read_in_worker(source: Source, games: Mapping[str, GameSpec], size: int) -> BatchReader:
    """The batches of :func:`reporting.logs.read_jsonl`, made by a child process.

    Close the generator (or exhaust it) to stop the child; an error in the child is raised
    here: :class:`InputError` for a file that cannot be read, RuntimeError for a bug.
    """
    child = subprocess.Popen(_command(), stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert child.stdin is not None and child.stdout is not None
    decode = msgspec.msgpack.Decoder().decode
    try:
        try:
            with child.stdin:
                pickle.dump((source, dict(games), size), child.stdin)
        except BrokenPipeError:
            pass  # the child is gone already: reading says how it ended
        while True:
            frame = _read_frame(child.stdout)
            if frame is None:
                raise InputError(
                    f"{source.path}: the process reading it stopped (exit code {child.wait()})"
                    "; nothing of it was loaded"
                )
            kind, *payload = decode(frame)
            if kind == "batch":
                records, rejects, position = payload
                yield Batch(records, [RejectedLine(*reject) for reject in rejects], position)
            elif kind == "input_error":
                raise InputError(payload[0])
            elif kind == "crash":
                raise RuntimeError(f"the process reading {source.path} failed:\n{payload[0]}")
            else:
                return
    finally:
        child.stdout.close()
        if child.poll() is None:
            child.kill()
        child.wait()


def _read_frame(stream: IO[bytes]) -> bytes | None:
    header = stream.read(_LENGTH)
    if len(header) < _LENGTH:
        return None
    length = int.from_bytes(header, "little")
    frame = stream.read(length)
    return frame if len(frame) == length else None


def _serve() -> None:
    """The child: read the source named on stdin and write its batches as frames."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and stops us
    # Frames go to a private copy of stdout; anything printed by mistake goes to stderr.
    frames = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    encode = msgspec.msgpack.Encoder().encode

    def send(*message: object) -> None:
        data = encode(message)
        frames.write(len(data).to_bytes(_LENGTH, "little"))
        frames.write(data)

    try:
        source, games, size = pickle.load(sys.stdin.buffer)
        with cyclic_gc_paused():
            for batch in read_jsonl(source, games, size):
                send("batch", batch.records, batch.rejects, batch.position)
        send("done")
        frames.flush()
    except (BrokenPipeError, ConnectionResetError):
        os._exit(0)  # the parent has gone: nobody is waiting for the rest
    except InputError as error:
        send("input_error", str(error))
    except BaseException:
        send("crash", traceback.format_exc())
    try:
        frames.close()
    except BrokenPipeError:
        os._exit(0)


if __name__ == "__main__":
    _serve()
