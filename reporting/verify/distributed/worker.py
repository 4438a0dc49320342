"""The worker's side of a month verified on a Dask cluster: one partition checked from the
round logs on shared storage, through a private temporary store
(:func:`check_logged_partition`)."""

from __future__ import annotations

import gzip
import hashlib
import json
import shutil
import sqlite3
import tempfile
from collections.abc import Sequence
from contextlib import closing
from pathlib import Path, PurePosixPath

from msgspec.structs import astuple

from reporting.errors import InputError
from reporting.ingest.formats import read_source
from reporting.ingest.sources import Source, cyclic_gc_paused
from reporting.records import Bet, Round
from reporting.store.schema import create_schema
from reporting.verify.distributed.tasks import LogChangedError, LogFileError, LoggedFile, LogTask
from reporting.verify.partitions import PartitionResult, partition_passes

#: Bytes copied from shared storage at a time.
_CHUNK = 1 << 20
#: Rounds per batch read from a log on a worker.
_BATCH_ROUNDS = 2_000
_TABLES = "((r.game_id, r.table_id) IN (SELECT value ->> 0, value ->> 1 FROM json_each(:tables)))"


def one_line(error: BaseException) -> str:
    return " ".join(str(error).split())


class _Digests:
    """The sha256 of the bytes copied, and of their first ``ingested`` bytes (the size the
    store recorded): a log that grew since its ingest, its first bytes unchanged, is told
    from one that was replaced."""

    def __init__(self, ingested: int) -> None:
        self.whole = hashlib.sha256()
        self.ingested = hashlib.sha256()
        self.left = ingested  # bytes of the ingested size still to come
        self.size = 0

    def update(self, chunk: bytes) -> None:
        self.whole.update(chunk)
        self.ingested.update(chunk[: max(self.left, 0)])
        self.left -= len(chunk)
        self.size += len(chunk)

    def grown(self, sha256: str) -> bool:
        """Whether the bytes are the ingested ones with more after them."""
        return self.left < 0 and self.ingested.hexdigest() == sha256


def _fetch(location: str, target: Path, digests: _Digests) -> None:
    """Copy one file from shared storage to ``target`` in chunks, into ``digests`` too."""
    import fsspec

    with fsspec.open(location, "rb") as remote, open(target, "wb") as local:
        while chunk := remote.read(_CHUNK):
            digests.update(chunk)
            local.write(chunk)


def _local_copy(logged: LoggedFile, task: LogTask, folder: Path) -> Source:
    """The file (or pair) copied to ``folder`` under its own base names, its hash checked
    against the store's: a :class:`Source` the readers read as the ingest did."""
    folder.mkdir()
    digests = _Digests(logged.file_size)
    paths = []
    for name in filter(None, (logged.file_name, logged.companion_name)):
        location = task.location(name)
        target = folder / PurePosixPath(name).name
        try:
            _fetch(location, target, digests)
        except FileNotFoundError:
            raise LogFileError(
                f"{name}: not found at {location} on this Dask worker: the workers must see"
                " the round logs the store ingested, under --logs"
            ) from None
        except (OSError, ImportError, ValueError) as error:  # an unknown URL scheme too
            raise LogFileError(
                f"{name}: cannot be read at {location} on this Dask worker ({one_line(error)})"
            ) from None
        paths.append(target)
    if digests.whole.hexdigest() != logged.file_sha256:
        pair = "" if logged.companion_name is None else f" with {logged.companion_name}"
        where = f"{logged.file_name}{pair}: the file at {task.location(logged.file_name)}"
        if digests.grown(logged.file_sha256):
            added = digests.size - logged.file_size
            raise LogChangedError(
                f"{where} grew since its ingest ({added:,} byte{'' if added == 1 else 's'}"
                " added after the ones ingested)"
            )
        raise LogFileError(
            f"{where} is not the one ingested (its sha256 differs): it changed since, or"
            " another file has its name"
        )
    companion = paths[1] if len(paths) > 1 else None
    if logged.profile is None and logged.format in _LINE_FORMATS:
        return Source(_only_kept_lines(paths[0], logged), "jsonl")
    return Source(paths[0], logged.format, companion, logged.profile)


#: The spec's line formats: a line is a round, so the lines of other partitions can be left out
#: before they are read.
_LINE_FORMATS = {"jsonl": False, "jsonl.gz": True}  # name -> gzipped


def _only_kept_lines(path: Path, logged: LoggedFile) -> Path:
    """A copy of a JSON Lines log (gzipped or not: the copy is plain) with every line that is
    not one of the partition's made blank: the reader skips blank lines and numbers the others
    as in the original, so the partition's rounds are read, and only they, at their own lines.
    A log holding a whole month's tables is then decompressed by each partition, not parsed
    and checked by each."""
    kept = path.with_name(path.name + ".kept.jsonl")
    opened = gzip.open if _LINE_FORMATS[logged.format] else open
    ranges = iter(logged.lines)
    first, last = next(ranges, (0, -1))
    with opened(path, "rb") as lines, open(kept, "wb") as out:
        for number, line in enumerate(lines, 1):
            while number > last and first <= last:
                first, last = next(ranges, (0, -1))
            out.write(line if first <= number <= last else b"\n")
    path.unlink()
    return kept


_ROUND_FIELDS = Round.__struct_fields__[:-1]
_INSERT_ROUND = (
    f"INSERT INTO rounds ({', '.join(_ROUND_FIELDS)}, ingest_id)"
    f" VALUES ({', '.join('?' * len(_ROUND_FIELDS))}, ?)"
)
_INSERT_BET = (
    f"INSERT INTO bets ({', '.join(Bet.__struct_fields__)})"
    f" VALUES ({', '.join('?' * len(Bet.__struct_fields__))})"
)


def _load_kept(connection: sqlite3.Connection, logged: LoggedFile, source: Source, games) -> int:
    """The file's rounds at the partition's lines written into the private store; how many."""
    connection.execute(
        "INSERT INTO ingest_log (ingest_id, file_name, companion_name, file_sha256, file_size,"
        " format, ingested_at) VALUES (?, ?, ?, ?, ?, ?, '')",
        (
            logged.ingest_id,
            logged.file_name,
            logged.companion_name,
            logged.file_sha256,
            logged.file_size,
            logged.format,
        ),
    )
    kept = 0
    width = len(_ROUND_FIELDS)
    try:
        with closing(read_source(source, games, _BATCH_ROUNDS)) as batches:
            for batch in batches:
                rounds = [r for r in batch.records if logged.holds_line(r.source_line)]
                connection.executemany(
                    _INSERT_ROUND, [(*astuple(r)[:width], logged.ingest_id) for r in rounds]
                )
                connection.executemany(_INSERT_BET, [astuple(b) for r in rounds for b in r.bets])
                kept += len(rounds)
    except InputError as error:  # named by the local copy: named as the store names it
        message = str(error)
        for path, name in zip(
            source.files, (logged.file_name, logged.companion_name), strict=False
        ):
            message = message.replace(str(path), name or str(path))
        raise LogFileError(message) from None
    return kept


def _private_store(path: Path) -> sqlite3.Connection:
    connection = sqlite3.connect(path, isolation_level=None)
    connection.execute("PRAGMA journal_mode = OFF")
    connection.execute("PRAGMA synchronous = OFF")
    create_schema(connection)
    return connection


def _check_kept(logged: LoggedFile, kept: int) -> None:
    """Every round the store holds from the file at the partition's lines was read again."""
    if kept != logged.round_count:
        raise LogFileError(
            f"{logged.file_name}: {kept:,} of the {logged.round_count:,} rounds the store"
            " holds from it were read again: the configuration changed since the ingest"
            " (verify with the one it was ingested under)"
        )


def _check_partition_rounds(connection: sqlite3.Connection, task: LogTask) -> None:
    """The rounds read again are the partition's: as many of its tables in its month."""
    expected = task.partition.rounds - sum(rounds for _, rounds, _ in task.unconfigured)
    params = {"month": task.month, "tables": json.dumps(task.partition.tables)}
    month = "1" if task.month is None else "r.report_month = :month"
    query = f"SELECT count(*) FROM rounds AS r WHERE {month} AND {_TABLES}"
    (found,) = connection.execute(query, params).fetchone()
    if found != expected:
        names = ", ".join(logged.file_name for logged in task.files)
        raise LogFileError(
            f"{names}: {found:,} rounds of the partition's month were read again where the"
            f" store holds {expected:,}: the configuration changed since the ingest (verify"
            " with the one it was ingested under)"
        )


def _scratch() -> str | None:
    """Where a partition's private store is made: the Dask worker's own local directory. A
    worker killed mid-partition cannot remove its store (the copied logs of its tables, read
    again), and the next worker started in that workspace purges a dead worker's directory;
    in the system's temporary folder it would stay for good. Outside a worker: that folder."""
    from distributed import get_worker

    try:
        return get_worker().local_directory
    except ValueError:  # not running in a worker
        return None


def check_logged_partition(task: LogTask) -> PartitionResult:
    """On a worker: check one partition from the round logs on shared storage, through a
    private temporary store; the result as a worker process of the coordinator's machine
    gives it, its round findings as frames."""
    with tempfile.TemporaryDirectory(prefix="baccarat-partition-", dir=_scratch()) as folder:
        connection = _private_store(Path(folder) / "partition.sqlite")
        try:
            with cyclic_gc_paused():
                connection.execute("BEGIN")
                for logged in task.files:
                    files = Path(folder) / str(logged.ingest_id)
                    source = _local_copy(logged, task, files)
                    kept = _load_kept(connection, logged, source, task.games)
                    _check_kept(logged, kept)
                    shutil.rmtree(files)  # the copy is read: only the kept rounds stay
                connection.execute("COMMIT")
            _check_partition_rounds(connection, task)
            result = partition_passes(connection, task.month, task.games, task.partition)
        finally:
            connection.close()
    return _with_unconfigured(result, task.unconfigured)


def _with_unconfigured(
    result: PartitionResult, unconfigured: Sequence[tuple[str, int, str]]
) -> PartitionResult:
    """The partition's rounds of unconfigured games, counted by the coordinator, added to
    its result as its round pass would have counted them."""
    for game_id, rounds, first_round in unconfigured:
        result.rounds_seen += rounds
        result.unconfigured[game_id] = result.unconfigured.get(game_id, 0) + rounds
        result.first_seen.unconfigured.append((game_id, first_round))
    return result
