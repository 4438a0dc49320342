"""JSON Lines round logs, gzipped or not: one round a line, read one line at a time."""

from __future__ import annotations

import gzip
import zlib
from collections.abc import Iterator, Mapping
from typing import IO

import msgspec

from reporting.engine.games import GameSpec
from reporting.errors import InputError
from reporting.ingest.sources import BatchReader, Source, batched, raw_text
from reporting.ingest.validation import (
    ROUND_DECODER,
    RecordError,
    RoundValidator,
    error_of_decoding,
)
from reporting.records import RejectedLine, Round

__all__ = ["read_jsonl", "read_jsonl_gz"]


def read_jsonl(
    source: Source, games: Mapping[str, GameSpec], size: int, *, gzipped: bool = False
) -> BatchReader:
    """Batches of a JSON Lines file, read one line at a time."""
    name = str(source.path)
    try:
        raw_handle = source.path.open("rb")
    except OSError as error:
        raise InputError(f"{name}: cannot be read ({error.strerror})") from None
    with raw_handle:
        handle: IO[bytes] = gzip.GzipFile(fileobj=raw_handle, mode="rb") if gzipped else raw_handle
        try:
            yield from batched(_records(handle, name, games), raw_handle.tell, size)
        except (OSError, EOFError, zlib.error) as error:
            raise InputError(
                f"{name}: cannot be read to the end ({error}); nothing of it was loaded"
            ) from None


def read_jsonl_gz(source: Source, games: Mapping[str, GameSpec], size: int) -> BatchReader:
    """Batches of a gzipped JSON Lines file (progress counts compressed bytes)."""
    return read_jsonl(source, games, size, gzipped=True)


def _records(
    handle: IO[bytes], name: str, games: Mapping[str, GameSpec]
) -> Iterator[Round | RejectedLine]:
    """Each line of the file as a round or a rejected line; blank lines are not records."""
    validate = RoundValidator(games).validate
    decode = ROUND_DECODER.decode
    for number, data in enumerate(handle, start=1):
        try:
            yield validate(decode(data), number)
        except msgspec.DecodeError as error:
            if not data.strip():
                continue
            problem = error_of_decoding(error)
            yield _rejected(name, number, problem, data, None)
        except RecordError as problem:
            yield _rejected(name, number, problem, data, _round_id_of(data))


def _rejected(
    name: str, number: int, problem: RecordError, data: bytes, round_id: str | None
) -> RejectedLine:
    return RejectedLine(
        source_file=name,
        source_line=number,
        reason=problem.reason,
        message=problem.message,
        raw_text=raw_text(data),
        round_id=round_id,
    )


def _round_id_of(data: bytes) -> str | None:
    """The round_id of a line that decoded but did not validate, if it has one."""
    try:
        round_id = msgspec.json.decode(data).get("round_id")
    except (msgspec.DecodeError, AttributeError):
        return None
    return round_id if isinstance(round_id, str) else None
