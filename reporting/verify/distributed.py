"""A month's partitions verified on a Dask cluster, the workers reading the round logs from
shared storage (``verify --scheduler tcp://HOST:8786``; the ``[dask]`` extra).

The store stays on the coordinator, the machine that runs ``verify``: the workers never open
it. For each partition (:mod:`reporting.verify.partitions`) the coordinator writes a
:class:`LogTask`: the partition, the month, the games, and for each round log that holds a
round the partition's passes read (a round of its tables in the month, or of one of their
shoes, whatever its month or table) the file's row of the ingest log and the source lines of
those rounds, as ranges. A worker (:func:`check_logged_partition`) opens each file through
fsspec at ``<logs>/<file name>`` (a folder, a network mount, ``s3://bucket/prefix``), copies
it in chunks to a local temporary file while hashing it, refuses a file whose sha256 is not
the one ingested, reads it with the project's own readers (which validate it again), keeps
the rounds at those lines in a private temporary store of the project's schema (the same
ingest ids and file names, so a finding names the same ``file:line``), and runs the same
passes on it as a worker process of this machine does. What it returns is merged as theirs
is: the same findings, totals and report bytes as one process.

Rounds of a game the configuration no longer lists are passed over by every check: the
coordinator counts them (by game, in round-id order of their first round) and the worker
adds the counts to its result, so no worker has to read a round it cannot validate.

Why Dask distributed rather than a scheduler of our own: it already places tasks on the
workers that are free, re-runs a task whose worker died, and shows the run in its dashboard;
a partition is one plain function call on picklable values, which is what it schedules.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import tempfile
import uuid
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from msgspec.structs import astuple

from reporting.engine.games import GameSpec
from reporting.errors import InputError
from reporting.ingest.formats import read_source
from reporting.ingest.profiles.loader import built_in_profiles, load_profile
from reporting.ingest.profiles.model import Profile
from reporting.ingest.sources import Source, cyclic_gc_paused
from reporting.records import Bet, Round
from reporting.store.faults import database_faults
from reporting.store.schema import create_schema
from reporting.verify.partitions import (
    Partition,
    PartitionResult,
    PartitionTask,
    Runner,
    partition_passes,
    read_only,
)

__all__ = [
    "ClusterError",
    "LogFileError",
    "LogTask",
    "LoggedFile",
    "check_logged_partition",
    "dask_runner",
    "log_location",
    "log_tasks",
]

#: How the command line says what to install when the extra is missing.
INSTALL_HINT = "pip install 'baccarat-report[dask]'"
#: Bytes copied from shared storage at a time.
_CHUNK = 1 << 20
#: Rounds per batch read from a log on a worker.
_BATCH_ROUNDS = 2_000


class ClusterError(InputError):
    """The cluster could not check a partition (or could not be reached): one line naming
    the partition and the file."""


class LogFileError(InputError):
    """A round log a worker cannot use: missing from shared storage, unreadable, or not the
    file the store ingested."""


@dataclass(frozen=True)
class LoggedFile:
    """One round log as the store's ingest log knows it, and the lines a worker keeps of it."""

    ingest_id: int
    file_name: str  # as the store names it (rounds.csv of a CSV pair)
    companion_name: str | None  # bets.csv of a CSV pair
    format: str
    profile: Profile | None  # loaded on the coordinator, checked against its stored hash
    file_sha256: str
    file_size: int
    #: The source lines of the rounds kept, as sorted (first, last) ranges.
    lines: tuple[tuple[int, int], ...]

    @property
    def round_count(self) -> int:
        """The rounds this file gives the partition."""
        return sum(last - first + 1 for first, last in self.lines)

    def holds_line(self, line: int) -> bool:
        """Whether a round read at ``line`` is one of the partition's."""
        index = bisect_right(self.lines, (line, float("inf"))) - 1
        return index >= 0 and self.lines[index][0] <= line <= self.lines[index][1]


@dataclass(frozen=True)
class LogTask:
    """What a worker needs to check one partition from the round logs alone."""

    partition: Partition
    month: str | None
    games: dict[str, GameSpec]
    files: tuple[LoggedFile, ...]
    logs: str  # where the logs are: a folder or an fsspec URL, the file names under it
    #: The partition's rounds of games not configured: (game id, rounds, first round id).
    unconfigured: tuple[tuple[str, int, str], ...] = ()

    def location(self, name: str) -> str:
        """Where a worker opens the file the store names ``name``."""
        return log_location(name, self.logs)


def log_location(name: str, logs: str) -> str:
    """A stored file name under the logs base; a name stored as an absolute path stays one.

    >>> log_location("2026/a.jsonl", "s3://bucket/logs/")
    's3://bucket/logs/2026/a.jsonl'
    >>> log_location("/srv/logs/a.jsonl", "/mnt/shared")
    '/srv/logs/a.jsonl'
    """
    if PurePosixPath(name).is_absolute():
        return name
    return f"{logs.rstrip('/')}/{name}"


# -- the coordinator's side ----------------------------------------------------------------

#: The rounds a partition's passes read, of configured games: of its tables in the month,
#: and every round of a shoe one of those holds (read_shoes reads shoes whole).
_PARTITION_ROUNDS = """
SELECT r.ingest_id, r.source_line FROM rounds AS r
WHERE r.game_id IN (SELECT value FROM json_each(:games)) AND (
    ({month_r} AND {tables_r})
    OR (r.shoe_id IS NOT NULL AND r.shoe_id IN (
        SELECT m.shoe_id FROM rounds AS m
        WHERE m.shoe_id IS NOT NULL AND {month_m} AND {tables_m})))
ORDER BY r.ingest_id, r.source_line
"""
_UNCONFIGURED = """
SELECT r.game_id, count(*), min(r.round_id) FROM rounds AS r
WHERE r.game_id NOT IN (SELECT value FROM json_each(:games)) AND {month_r} AND {tables_r}
GROUP BY r.game_id ORDER BY min(r.round_id)
"""
_TABLES = "(({alias}.game_id, {alias}.table_id) IN (SELECT value ->> 0, value ->> 1 FROM json_each(:tables)))"


def _query(template: str, month: str | None) -> str:
    scope = {}
    for alias in ("r", "m"):
        scope[f"month_{alias}"] = "1" if month is None else f"{alias}.report_month = :month"
        scope[f"tables_{alias}"] = _TABLES.format(alias=alias)
    return template.format(**scope)


def _ranges(lines: Iterator[int]) -> tuple[tuple[int, int], ...]:
    """Sorted line numbers as (first, last) ranges of consecutive lines."""
    ranges: list[list[int]] = []
    for line in lines:
        if ranges and ranges[-1][1] + 1 == line:
            ranges[-1][1] = line
        else:
            ranges.append([line, line])
    return tuple((first, last) for first, last in ranges)


def _profile_of(label: str | None, sha256: str | None, file_name: str) -> Profile | None:
    """The log profile that read a file, found again here by the name the store keeps (a
    built-in name, or ``name (file)``) and held to the hash the store keeps."""
    if label is None:
        return None
    reference = label
    if label not in built_in_profiles() and label.endswith(")") and " (" in label:
        reference = label[label.index(" (") + 2 : -1]
    try:
        profile = load_profile(reference)
    except InputError as error:
        raise LogFileError(f"{file_name}: was read with log profile {label}: {error}") from None
    if profile is None or profile.sha256 != sha256:
        raise LogFileError(
            f"{file_name}: was read with log profile {label}, and the profile found here is"
            " not the same file any more: verify it where the ingest ran, with that profile"
        )
    return profile


def log_tasks(
    connection: sqlite3.Connection, tasks: Sequence[PartitionTask], logs: str
) -> list[LogTask]:
    """The log task of each partition task, from the store (read only here)."""
    profiles: dict[int, Profile | None] = {}
    logged = {
        row[0]: row
        for row in connection.execute(
            "SELECT ingest_id, file_name, companion_name, format, profile, profile_sha256,"
            " file_sha256, file_size FROM ingest_log"
        )
    }
    out = []
    for task in tasks:
        games = json.dumps(sorted(task.games))
        params = {"games": games, "month": task.month, "tables": json.dumps(task.partition.tables)}
        by_file: dict[int, list[int]] = {}
        for ingest_id, line in connection.execute(_query(_PARTITION_ROUNDS, task.month), params):
            by_file.setdefault(ingest_id, []).append(line)
        files = []
        for ingest_id, lines in by_file.items():
            _, name, companion, fmt, label, profile_sha, sha, size = logged[ingest_id]
            if ingest_id not in profiles:
                profiles[ingest_id] = _profile_of(label, profile_sha, name)
            ranges = _ranges(iter(lines))
            files.append(
                LoggedFile(ingest_id, name, companion, fmt, profiles[ingest_id], sha, size, ranges)
            )
        unconfigured = tuple(connection.execute(_query(_UNCONFIGURED, task.month), params))
        out.append(
            LogTask(task.partition, task.month, dict(task.games), tuple(files), logs, unconfigured)
        )
    return out


def _client_of(address_or_cluster, timeout: float):
    """A client of the cluster, and whether this run made it (and so closes it)."""
    from distributed import Client

    if isinstance(address_or_cluster, Client):
        return address_or_cluster, False
    try:
        return Client(address_or_cluster, timeout=timeout, set_as_default=False), True
    except (OSError, TimeoutError) as error:
        shown = address_or_cluster if isinstance(address_or_cluster, str) else "the cluster"
        raise ClusterError(
            f"--scheduler {shown}: cannot reach the Dask scheduler ({error}); is `dask"
            " scheduler` running there?"
        ) from None


def _failure(task: LogTask, error: BaseException) -> ClusterError:
    """A worker's failure as the user's one line, naming the partition."""
    tables = ", ".join(f"{game}/{table}" for game, table in task.partition.tables)
    where = f"partition {task.partition.number} ({tables})"
    if isinstance(error, InputError):
        return ClusterError(f"{where}: {error}; nothing was stored")
    name = type(error).__name__
    if name == "KilledWorker":
        return ClusterError(
            f"{where}: the Dask workers that ran it stopped (killed, or out of memory);"
            " nothing was stored"
        )
    return ClusterError(f"{where}: failed on a Dask worker ({name}: {error}); nothing was stored")


def dask_runner(address_or_cluster, logs: str | None = None, *, timeout: float = 10.0) -> Runner:
    """A :data:`~reporting.verify.partitions.Runner` sending each partition to a Dask cluster:
    an address (``tcp://HOST:8786``), or a ``distributed`` cluster or client object.

    ``logs`` is where the workers find the round logs, the store's file names under it (a
    folder or an fsspec URL); None: the folder this process runs in. ``timeout``: seconds to
    wait for the scheduler. Without the ``[dask]`` extra: an InputError saying what to
    install."""
    try:
        import distributed  # noqa: F401
        import fsspec  # noqa: F401
    except ImportError:
        raise InputError(f"--scheduler needs Dask: {INSTALL_HINT}") from None
    base = os.getcwd() if logs is None else logs

    def run(tasks: Sequence[PartitionTask]) -> Iterator[PartitionResult]:
        from distributed import as_completed

        if not tasks:
            return
        connection = read_only(tasks[0].database)
        try:
            with database_faults(connection):
                planned = log_tasks(connection, tasks, base)
        finally:
            connection.close()
        planned.sort(key=lambda task: -task.partition.rounds)
        client, own = _client_of(address_or_cluster, timeout)
        run_id = uuid.uuid4().hex[:8]
        futures = {}
        try:
            for task in planned:
                future = client.submit(
                    check_logged_partition,
                    task,
                    key=f"baccarat-partition-{task.partition.number}-{run_id}",
                    priority=task.partition.rounds,
                    pure=False,
                )
                futures[future] = task
            for future in as_completed(futures, loop=client.loop):
                try:
                    yield future.result()
                except Exception as error:
                    raise _failure(futures[future], error) from None
        finally:
            for future in futures:
                future.cancel()
            if own:
                client.close()

    return run


# -- the worker's side ---------------------------------------------------------------------


def _fetch(location: str, target: Path, digest) -> None:
    """Copy one file from shared storage to ``target`` in chunks, into ``digest`` too."""
    import fsspec

    with fsspec.open(location, "rb") as remote, open(target, "wb") as local:
        while chunk := remote.read(_CHUNK):
            digest.update(chunk)
            local.write(chunk)


def _local_copy(logged: LoggedFile, task: LogTask, folder: Path) -> Source:
    """The file (or pair) copied to ``folder`` under its own base names, its hash checked
    against the store's: a :class:`Source` the readers read as the ingest did."""
    folder.mkdir()
    digest = hashlib.sha256()
    paths = []
    for name in filter(None, (logged.file_name, logged.companion_name)):
        location = task.location(name)
        target = folder / PurePosixPath(name).name
        try:
            _fetch(location, target, digest)
        except FileNotFoundError:
            raise LogFileError(
                f"{name}: not found at {location} on this Dask worker: the workers must see"
                " the round logs the store ingested, under --logs"
            ) from None
        except OSError as error:
            raise LogFileError(f"{name}: cannot be read at {location} ({error})") from None
        paths.append(target)
    if digest.hexdigest() != logged.file_sha256:
        raise LogFileError(
            f"{logged.file_name}: the file at {task.location(logged.file_name)} is not the one"
            " ingested (its sha256 differs): it changed since, or another file has its name"
        )
    companion = paths[1] if len(paths) > 1 else None
    return Source(paths[0], logged.format, companion, logged.profile)


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
    query = _query("SELECT count(*) FROM rounds AS r WHERE {month_r} AND {tables_r}", task.month)
    (found,) = connection.execute(query, params).fetchone()
    if found != expected:
        names = ", ".join(logged.file_name for logged in task.files)
        raise LogFileError(
            f"{names}: {found:,} rounds of the partition's month were read again where the"
            f" store holds {expected:,}: the configuration changed since the ingest (verify"
            " with the one it was ingested under)"
        )


def check_logged_partition(task: LogTask) -> PartitionResult:
    """On a worker: check one partition from the round logs on shared storage, through a
    private temporary store; the result as a worker process of the coordinator's machine
    gives it, its round findings as frames."""
    with tempfile.TemporaryDirectory(prefix="baccarat-partition-") as folder:
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
