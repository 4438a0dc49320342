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

The coordinator's side is :mod:`.tasks` (the log tasks, from the store), the worker's
:mod:`.worker`; this module sends the tasks to the cluster and gathers the results.

Why Dask distributed rather than a scheduler of our own: it already places tasks on the
workers that are free, re-runs a task whose worker died, and shows the run in its dashboard;
a partition is one plain function call on picklable values, which is what it schedules.
"""

from __future__ import annotations

import logging
import os
import re
import time
import traceback
import uuid
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FuturesTimeout
from contextlib import contextmanager
from typing import NamedTuple

from reporting.errors import InputError, printable
from reporting.store.faults import database_faults
from reporting.verify.distributed.tasks import (
    LogChangedError,
    LogFileError,
    LoggedFile,
    LogTask,
    log_location,
    log_tasks,
)
from reporting.verify.distributed.worker import check_logged_partition, one_line
from reporting.verify.partitions import (
    PartitionResult,
    PartitionTask,
    Runner,
    check_partition,
    read_only,
)

__all__ = [
    "DEFAULT_WORKER_WAIT",
    "ClusterError",
    "LogChangedError",
    "LogFileError",
    "LogTask",
    "LoggedFile",
    "check_logged_partition",
    "dask_runner",
    "log_location",
    "log_tasks",
]


def install_hint() -> str:
    """What to install when the ``[dask]`` extra is missing, for pip: its requirements as
    this installation's metadata lists them (``pyproject.toml``'s ``dask`` extra). The
    project is installed from its own wheel or checkout, so its name with the extra would
    send pip to a package index."""
    from importlib.metadata import PackageNotFoundError, requires

    try:
        listed = requires("baccarat-report") or []
    except PackageNotFoundError:
        listed = []
    needed = [item.split(";")[0].strip() for item in listed if 'extra == "dask"' in item]
    if not needed:
        return "install the project's dask extra"
    return "pip install " + " ".join(f"'{requirement}'" for requirement in needed)


#: Seconds a run waits while the scheduler has no worker before it stops (``--worker-wait``).
DEFAULT_WORKER_WAIT = 60.0
#: Seconds between two looks at the scheduler's workers while partitions are running.
_WORKER_POLL = 1.0


class ClusterError(InputError):
    """The cluster could not check a partition (or could not be reached): one line naming
    the partition and the file."""


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
                f"--scheduler {shown}: cannot reach the Dask scheduler ({one_line(error)});"
                " is `dask scheduler` running there?"
            ) from None
        except Exception as error:  # what answers there is not a Dask scheduler
            _forget_half_made_client(error, Client)
            raise ClusterError(
                f"--scheduler {shown}: what answers there is not a Dask scheduler"
                f" ({type(error).__name__}: {one_line(error)[:200]})"
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


#: A scheduler's address as ``--scheduler`` takes it: TCP (the scheme may be left out), a host
#: name, an IPv4 address or a bracketed IPv6 one, and a port.
_ADDRESS = re.compile(
    r"(?:tcp://)?(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?|\[[0-9A-Fa-f:.]{2,45}\])"
    r":(?:6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[1-9][0-9]{0,3})"
)


def _forget_half_made_client(error: BaseException, client_class) -> None:
    """Keep the client a failed handshake left half made (found in the error's frames) from
    closing itself when it is collected: its clean-up would wait 20 s for an answer that
    never comes, then print a traceback."""
    for frame, _ in traceback.walk_tb(error.__traceback__):
        client = frame.f_locals.get("self")
        if isinstance(client, client_class):
            client._Client__loop = None  # what its __del__ looks at: nothing to close


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


def _where(task: LogTask) -> str:
    """The partition of a task, as the user reads it: its number and its tables."""
    tables = ", ".join(f"{game}/{table}" for game, table in task.partition.tables)
    return f"partition {task.partition.number} ({tables})"


def _failure(task: LogTask, error: BaseException) -> ClusterError:
    """A worker's failure as the user's one line, naming the partition."""
    where = _where(task)
    name = type(error).__name__
    if isinstance(error, InputError):
        said = one_line(error)
    elif name == "KilledWorker":
        said = "the Dask workers that ran it stopped (killed, or out of memory)"
    elif isinstance(error, ImportError):
        said = (
            f"a Dask worker cannot import this project ({one_line(error)}): install this"
            f" release there, with its dask extra ({install_hint()})"
        )
    else:
        said = f"failed on a Dask worker ({name}: {one_line(error)})"
    return ClusterError(f"{where}: {said}; nothing was stored")


def dask_runner(
    address_or_cluster,
    logs: str | None = None,
    *,
    timeout: float = 10.0,
    worker_wait: float = DEFAULT_WORKER_WAIT,
    note: Callable[[str], None] | None = None,
) -> Runner:
    """A :data:`~reporting.verify.partitions.Runner` sending each partition to a Dask cluster:
    an address (``tcp://HOST:8786``), or a ``distributed`` cluster or client object.

    ``logs`` is where the workers find the round logs, the store's file names under it (a
    folder or an fsspec URL); None: the folder this process runs in. ``timeout``: seconds to
    wait for the scheduler; ``worker_wait``: seconds to wait while the scheduler has no worker
    (at the start, or once every worker has died), then a :class:`ClusterError`. A partition
    whose round log grew since its ingest (as an exporter appending to it leaves it) is
    checked from the store on this machine, in this process, and ``note`` told so in a line;
    a log replaced or missing stops the run. Without the ``[dask]`` extra: an InputError
    saying what to install."""
    try:
        import distributed  # noqa: F401
        import fsspec.core
    except ImportError:
        raise InputError(f"--scheduler needs Dask: {install_hint()}") from None
    if isinstance(address_or_cluster, str) and not _ADDRESS.fullmatch(address_or_cluster):
        raise ClusterError(
            f"--scheduler {printable(address_or_cluster)[:200]}: not a Dask scheduler's"
            " address: expected tcp://HOST:PORT (e.g. tcp://10.0.0.5:8786)"
        )
    if logs is None:
        base = os.getcwd()
    elif fsspec.core.split_protocol(logs)[0] is None:  # a folder: the workers run elsewhere
        base = os.path.abspath(logs)
    else:  # a URL (s3://bucket/prefix), the same for every worker
        base = logs

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
        local = {task.partition.number: task for task in tasks}
        with _dask_warnings_quiet():
            for result in _run_on_cluster(address_or_cluster, planned, timeout, worker_wait):
                if isinstance(result, PartitionResult):
                    yield result
                    continue
                if note is not None:
                    said = one_line(result.error)
                    note(f"{_where(result.task)}: {said}; checked from the store here")
                yield check_partition(local[result.task.partition.number])

    return run


class _LogGrown(NamedTuple):
    """A partition a worker did not check: a log it reads grew since the ingest."""

    task: LogTask
    error: LogChangedError


def _run_on_cluster(
    address_or_cluster, planned: list[LogTask], timeout: float, worker_wait: float
) -> Iterator[PartitionResult | _LogGrown]:
    """Each planned partition sent to the cluster, the results as they come (see
    :func:`dask_runner`); a partition whose log grew since the ingest comes back as a
    :class:`_LogGrown`, for the caller to check it from the store."""
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
            except LogChangedError as grown:
                watch.checked += 1  # checked here, not by a worker, but not left unchecked
                yield _LogGrown(futures[future], grown)
                continue
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
