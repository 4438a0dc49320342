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

import gzip
import hashlib
import json
import logging
import os
import shutil
import sqlite3
import tempfile
import time
import uuid
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FuturesTimeout
from contextlib import closing, contextmanager
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
    "DEFAULT_WORKER_WAIT",
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
#: Seconds a run waits while the scheduler has no worker before it stops (``--worker-wait``).
DEFAULT_WORKER_WAIT = 60.0
#: Seconds between two looks at the scheduler's workers while partitions are running.
_WORKER_POLL = 1.0


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

#: Every round of the configured games, in the order stored (a file's rounds in file order).
_ROUNDS = (
    "SELECT ingest_id, source_line, game_id, table_id, shoe_id, report_month FROM rounds"
    " WHERE game_id IN (SELECT value FROM json_each(?)) ORDER BY rowid"
)
#: The shoes holding a round of the period, with the tables of those rounds.
_SHOES = (
    "SELECT DISTINCT shoe_id, game_id, table_id FROM rounds WHERE shoe_id IS NOT NULL AND {month}"
)
#: The period's rounds of games not configured, by table: how many, and the first round id.
_UNCONFIGURED = (
    "SELECT game_id, table_id, count(*), min(round_id) FROM rounds"
    " WHERE game_id NOT IN (SELECT value FROM json_each(?)) AND {month}"
    " GROUP BY game_id, table_id"
)
_TABLES = "((r.game_id, r.table_id) IN (SELECT value ->> 0, value ->> 1 FROM json_each(:tables)))"


class _Lines:
    """The source lines of one file that one partition reads, gathered as ranges."""

    def __init__(self) -> None:
        self.ranges: list[list[int]] = []

    def add(self, line: int) -> None:
        ranges = self.ranges
        if ranges and ranges[-1][1] + 1 == line:
            ranges[-1][1] = line
        else:
            ranges.append([line, line])

    def sorted(self) -> tuple[tuple[int, int], ...]:
        """The ranges in line order, neighbours joined (rows stored out of file order)."""
        merged: list[list[int]] = []
        for first, last in sorted(self.ranges):
            if merged and merged[-1][1] + 1 >= first:
                merged[-1][1] = max(merged[-1][1], last)
            else:
                merged.append([first, last])
        return tuple((first, last) for first, last in merged)


def _ranges(lines: Iterator[int]) -> tuple[tuple[int, int], ...]:
    """Line numbers as sorted (first, last) ranges of consecutive lines."""
    gathered = _Lines()
    for line in lines:
        gathered.add(line)
    return gathered.sorted()


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


def _partition_of_shoes(
    connection: sqlite3.Connection, month: str | None, of_table: dict[tuple[str, str], int]
) -> dict[str, int]:
    """The partition that reads each shoe holding a round of the period (the one of its
    tables: the plan keeps a shoe's tables together)."""
    where = "1" if month is None else "report_month = ?"
    params = () if month is None else (month,)
    return {
        shoe_id: of_table[(game_id, table_id)]
        for shoe_id, game_id, table_id in connection.execute(_SHOES.format(month=where), params)
    }


def _lines_by_partition(
    connection: sqlite3.Connection, month: str | None, games: str, of_table, of_shoe
) -> dict[int, dict[int, _Lines]]:
    """Per partition, per ingest id, the lines of the rounds its passes read: of its tables
    in the period, and every round of its shoes (read_shoes reads shoes whole). One scan of
    the rounds, whatever the number of partitions."""
    lines: dict[int, dict[int, _Lines]] = {}
    for ingest_id, line, game_id, table_id, shoe_id, round_month in connection.execute(
        _ROUNDS, (games,)
    ):
        number = None
        if month is None or round_month == month:
            number = of_table.get((game_id, table_id))
        if number is None and shoe_id is not None:
            number = of_shoe.get(shoe_id)
        if number is not None:
            files = lines.setdefault(number, {})
            if ingest_id not in files:
                files[ingest_id] = _Lines()
            files[ingest_id].add(line)
    return lines


def _unconfigured_by_partition(
    connection: sqlite3.Connection, month: str | None, games: str, of_table
) -> dict[int, tuple[tuple[str, int, str], ...]]:
    """Per partition, its rounds of games not configured: (game id, rounds, first round
    id), in the order of their first rounds."""
    where = "1" if month is None else "report_month = ?"
    params = (games,) if month is None else (games, month)
    found: dict[int, dict[str, list]] = {}
    for game_id, table_id, count, first in connection.execute(
        _UNCONFIGURED.format(month=where), params
    ):
        games_found = found.setdefault(of_table[(game_id, table_id)], {})
        entry = games_found.setdefault(game_id, [game_id, 0, first])
        entry[1] += count
        entry[2] = min(entry[2], first)
    return {
        number: tuple(tuple(entry) for entry in sorted(entries.values(), key=lambda e: e[2]))
        for number, entries in found.items()
    }


def log_tasks(
    connection: sqlite3.Connection, tasks: Sequence[PartitionTask], logs: str
) -> list[LogTask]:
    """The log task of each partition task (all of one period and games), from the store."""
    if not tasks:
        return []
    month, games = tasks[0].month, json.dumps(sorted(tasks[0].games))
    of_table = {table: task.partition.number for task in tasks for table in task.partition.tables}
    of_shoe = _partition_of_shoes(connection, month, of_table)
    lines = _lines_by_partition(connection, month, games, of_table, of_shoe)
    unconfigured = _unconfigured_by_partition(connection, month, games, of_table)
    logged = {
        row[0]: row
        for row in connection.execute(
            "SELECT ingest_id, file_name, companion_name, format, profile, profile_sha256,"
            " file_sha256, file_size FROM ingest_log"
        )
    }
    profiles: dict[int, Profile | None] = {}
    out = []
    for task in tasks:
        files = []
        for ingest_id, gathered in sorted(lines.get(task.partition.number, {}).items()):
            _, name, companion, fmt, label, profile_sha, sha, size = logged[ingest_id]
            if ingest_id not in profiles:
                profiles[ingest_id] = _profile_of(label, profile_sha, name)
            profile = profiles[ingest_id]
            files.append(
                LoggedFile(ingest_id, name, companion, fmt, profile, sha, size, gathered.sorted())
            )
        out.append(
            LogTask(
                task.partition,
                task.month,
                dict(task.games),
                tuple(files),
                logs,
                unconfigured.get(task.partition.number, ()),
            )
        )
    return out


def _client_of(address_or_cluster, timeout: float, worker_wait: float):
    """A client of the cluster with a worker at least (waited for ``worker_wait`` seconds),
    and whether this run made it (and so closes it)."""
    from distributed import Client

    shown = _shown(address_or_cluster)
    if isinstance(address_or_cluster, Client):
        client, own = address_or_cluster, False
    else:
        try:
            client, own = Client(address_or_cluster, timeout=timeout, set_as_default=False), True
        except (OSError, TimeoutError) as error:
            raise ClusterError(
                f"--scheduler {shown}: cannot reach the Dask scheduler ({_one_line(error)});"
                " is `dask scheduler` running there?"
            ) from None
    try:
        client.wait_for_workers(1, timeout=worker_wait)
    except (OSError, TimeoutError):
        if own:
            client.close()
        raise ClusterError(
            f"--scheduler {shown}: the Dask scheduler has no worker (waited {worker_wait:g} s):"
            " start `dask worker ADDRESS` on the machines that verify"
        ) from None
    return client, own


def _shown(address_or_cluster) -> str:
    return address_or_cluster if isinstance(address_or_cluster, str) else "(the cluster)"


class _WorkerWatch:
    """How long the scheduler has had no worker while partitions are still to come: Dask holds
    a task whose workers all died (or whose result died with its worker) until a worker
    comes, so without this bound a run would wait for ever."""

    def __init__(self, client, worker_wait: float, shown: str, partitions: int) -> None:
        self.client = client
        self.worker_wait = worker_wait
        self.shown = shown
        self.partitions = partitions
        self.checked = 0  # partitions whose results are in
        self.poll = min(_WORKER_POLL, worker_wait / 4) or _WORKER_POLL
        self._since: float | None = None

    def working(self) -> None:
        """Something came back: the cluster works."""
        self._since = None

    def look(self) -> None:
        """Nothing came back for a while: a :class:`ClusterError` once the scheduler has had
        no worker for ``worker_wait`` seconds."""
        if self._workers():
            self._since = None
            return
        now = time.monotonic()
        if self._since is None:
            self._since = now
        elif now - self._since >= self.worker_wait:
            raise ClusterError(
                f"--scheduler {self.shown}: every Dask worker has gone (none for"
                f" {self.worker_wait:g} s, {self.partitions - self.checked} of"
                f" {self.partitions} partitions unchecked); nothing was stored: start"
                " `dask worker ADDRESS` and run again"
            )

    def _workers(self) -> int:
        """The workers the scheduler has now (none if it cannot be asked)."""
        try:
            return len(self.client.nthreads())
        except (OSError, TimeoutError):
            return 0


def _as_completed(futures: Sequence, watch: _WorkerWatch) -> Iterator:
    """The futures as they complete, while the scheduler has workers to run them."""
    from distributed import wait

    pending = set(futures)
    while pending:
        try:
            with watch.client.as_current():  # wait() asks for "the" client: this run's
                done, pending = wait(pending, timeout=watch.poll, return_when="FIRST_COMPLETED")
        except TimeoutError:
            watch.look()
            continue
        watch.working()
        yield from done


def _result(future, watch: _WorkerWatch, fetcher: ThreadPoolExecutor):
    """A finished future's result, fetched from its worker by ``fetcher``'s thread; if that
    worker died meanwhile, Dask runs the task again: waited for while the scheduler has
    workers. (Not ``future.result(timeout=...)``: a fetch it breaks off leaves Dask's own
    tasks behind, which log "Task exception was never retrieved" on stderr.)"""
    fetched = fetcher.submit(future.result)
    while True:
        try:
            result = fetched.result(timeout=watch.poll)
        except FuturesTimeout:
            watch.look()
            continue
        watch.working()
        watch.checked += 1
        return result


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split())


def _failure(task: LogTask, error: BaseException) -> ClusterError:
    """A worker's failure as the user's one line, naming the partition."""
    tables = ", ".join(f"{game}/{table}" for game, table in task.partition.tables)
    where = f"partition {task.partition.number} ({tables})"
    name = type(error).__name__
    if isinstance(error, InputError):
        said = _one_line(error)
    elif name == "KilledWorker":
        said = "the Dask workers that ran it stopped (killed, or out of memory)"
    elif isinstance(error, ImportError):
        said = (
            f"a Dask worker cannot import this project ({_one_line(error)}): {INSTALL_HINT} there"
        )
    else:
        said = f"failed on a Dask worker ({name}: {_one_line(error)})"
    return ClusterError(f"{where}: {said}; nothing was stored")


def dask_runner(
    address_or_cluster,
    logs: str | None = None,
    *,
    timeout: float = 10.0,
    worker_wait: float = DEFAULT_WORKER_WAIT,
) -> Runner:
    """A :data:`~reporting.verify.partitions.Runner` sending each partition to a Dask cluster:
    an address (``tcp://HOST:8786``), or a ``distributed`` cluster or client object.

    ``logs`` is where the workers find the round logs, the store's file names under it (a
    folder or an fsspec URL); None: the folder this process runs in. ``timeout``: seconds to
    wait for the scheduler; ``worker_wait``: seconds to wait while the scheduler has no worker
    (at the start, or once every worker has died), then a :class:`ClusterError`. Without the
    ``[dask]`` extra: an InputError saying what to install."""
    try:
        import distributed  # noqa: F401
        import fsspec  # noqa: F401
    except ImportError:
        raise InputError(f"--scheduler needs Dask: {INSTALL_HINT}") from None
    base = os.getcwd() if logs is None else logs

    def run(tasks: Sequence[PartitionTask]) -> Iterator[PartitionResult]:
        if not tasks:
            return
        connection = read_only(tasks[0].database)
        try:
            with database_faults(connection):
                planned = log_tasks(connection, tasks, base)
        finally:
            connection.close()
        planned.sort(key=lambda task: -task.partition.rounds)
        with _dask_warnings_quiet():
            yield from _run_on_cluster(address_or_cluster, planned, timeout, worker_wait)

    return run


def _run_on_cluster(
    address_or_cluster, planned: list[LogTask], timeout: float, worker_wait: float
) -> Iterator[PartitionResult]:
    """Each planned partition sent to the cluster, the results as they come (see
    :func:`dask_runner`)."""
    client, own = _client_of(address_or_cluster, timeout, worker_wait)
    run_id = uuid.uuid4().hex[:8]
    futures = {}
    fetcher = ThreadPoolExecutor(1, thread_name_prefix="dask-results")
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
        watch = _WorkerWatch(client, worker_wait, _shown(address_or_cluster), len(futures))
        for future in _as_completed(list(futures), watch):
            try:
                result = _result(future, watch, fetcher)
            except ClusterError:
                raise
            except Exception as error:
                raise _failure(futures[future], error) from None
            yield result
    finally:
        for future in futures:
            future.cancel()  # a fetch still waiting ends with it
        fetcher.shutdown()
        if own:
            client.close()


@contextmanager
def _dask_warnings_quiet() -> Iterator[None]:
    """Dask's own warnings on this side (a result lost with its worker and computed again)
    are its recovery at work: they would break stderr's one line a message (what stops a
    run is said in one line here); its errors still show."""
    names = ["distributed"] + [
        name for name in logging.root.manager.loggerDict if name.startswith("distributed.")
    ]  # dask's configuration gives some of them a level of their own
    loggers = [logging.getLogger(name) for name in names]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(max(logger.level, logging.ERROR))
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)


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
        except (OSError, ImportError, ValueError) as error:  # an unknown URL scheme too
            raise LogFileError(
                f"{name}: cannot be read at {location} on this Dask worker ({_one_line(error)})"
            ) from None
        paths.append(target)
    if digest.hexdigest() != logged.file_sha256:
        pair = "" if logged.companion_name is None else f" with {logged.companion_name}"
        raise LogFileError(
            f"{logged.file_name}{pair}: the file at {task.location(logged.file_name)} is not"
            " the one ingested (its sha256 differs): it changed since, or another file has its"
            " name"
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
