"""A month's verification split into independent partitions, checked in parallel and merged
exactly as one pass over the whole month would have found it.

A partition is a group of game tables: one table, unless two tables logged rounds of the
month from one shoe id (then they go together, so a shoe is always checked whole). Its worker
reads its rounds and shoes from the store (a read-only connection of its own) through the
same passes as a run in one process (:mod:`reporting.verify.passes`), writes its round
findings to a spool file, and returns the rest: its totals with the round where each key
first appeared, its shoes' findings and summaries, its counts.

The coordinator merges what the partitions return so that the result is the one of a run in
one process, whatever the number of jobs: the round findings in round-id order (each
partition's spool is in that order already, and a round is in one partition only), then the
shoes' findings in shoe-id order; the totals added (integers), their keys in the order of the
round that first showed each. Totals, summaries and findings are therefore equal, and so are
the bytes of every report drawn from them.

Where a partition runs is a :data:`Runner`'s business: :class:`LocalRunner` runs them in
worker processes of this machine (``verify --jobs N``); :mod:`reporting.verify.distributed`
sends them to a Dask cluster.
"""

from __future__ import annotations

import contextlib
import ctypes
import heapq
import os
import shutil
import signal
import sqlite3
import struct
import tempfile
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from multiprocessing import active_children, forkserver, get_context, queues, resource_tracker
from multiprocessing.process import BaseProcess
from operator import attrgetter
from pathlib import Path
from typing import NamedTuple

import msgspec

from reporting.engine.games import GameSpec
from reporting.errors import EnvironmentFault
from reporting.ingest.sources import cyclic_gc_paused
from reporting.records import Finding
from reporting.store.faults import database_faults
from reporting.store.reading import read_rounds, read_shoes
from reporting.store.schema import READ_ONLY, sqlite_uri
from reporting.verify.passes import FirstSeen, RoundPass, shoe_pass
from reporting.verify.shoes import ShoeSummary
from reporting.verify.totals import Totals

__all__ = [
    "MOST_PARTITIONS",
    "FindingSpool",
    "LocalRunner",
    "Partition",
    "PartitionResult",
    "PartitionTask",
    "Runner",
    "Workers",
    "available_cores",
    "check_partition",
    "forked_worker_started",
    "merged_round_findings",
    "merged_shoe_findings",
    "merged_totals",
    "plan_partitions",
    "read_only",
    "spooled_findings",
    "worker_pool",
    "worker_started",
]

#: A month of more tables than this is checked in this many partitions, tables packed together.
MOST_PARTITIONS = 256
#: Findings per frame of a spool file.
_FRAME_FINDINGS = 4096
_LENGTH = struct.Struct("<Q")


def available_cores() -> int:
    """The cores this process may run on: the default number of jobs."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


@dataclass(frozen=True, slots=True)
class Partition:
    """A group of game tables checked together: numbered in the order of its first table."""

    number: int
    tables: tuple[tuple[str, str], ...]  # (game id, table id), sorted
    rounds: int  # the rounds of the period in it, to share the work out


class _Tables:
    """Union-find over the game tables: two tables that logged one shoe id are one group."""

    def __init__(self) -> None:
        self.parent: dict[tuple[str, str], tuple[str, str]] = {}

    def root(self, table: tuple[str, str]) -> tuple[str, str]:
        parent = self.parent.setdefault(table, table)
        while parent != table:
            grand = self.parent[parent]
            self.parent[table] = grand
            table, parent = parent, grand
        return table

    def join(self, first: tuple[str, str], second: tuple[str, str]) -> None:
        first, second = self.root(first), self.root(second)
        if first != second:
            self.parent[max(first, second)] = min(first, second)


def plan_partitions(
    connection: sqlite3.Connection, month: str | None, most: int | None = None
) -> list[Partition]:
    """The partitions of ``month`` (or of every month), at most ``most`` of them (default
    :data:`MOST_PARTITIONS`; groups of tables packed together, in table order, when there are
    more): one scan of the rounds."""
    where, params = ("1", ()) if month is None else ("report_month = ?", (month,))
    rounds: dict[tuple[str, str], int] = {}
    groups = _Tables()
    shoe_tables: dict[str, tuple[str, str]] = {}
    for game_id, table_id, shoe_id, count in connection.execute(
        f"SELECT game_id, table_id, shoe_id, count(*) FROM rounds WHERE {where}"
        " GROUP BY game_id, table_id, shoe_id",
        params,
    ):
        table = (game_id, table_id)
        rounds[table] = rounds.get(table, 0) + count
        groups.root(table)
        if shoe_id is not None:
            groups.join(shoe_tables.setdefault(shoe_id, table), table)
    members: dict[tuple[str, str], list[tuple[str, str]]] = {}
    for table in sorted(rounds):
        members.setdefault(groups.root(table), []).append(table)
    packed = _packed(sorted(members.values()), rounds, most or MOST_PARTITIONS)
    return [
        Partition(number, tuple(tables), sum(rounds[table] for table in tables))
        for number, tables in enumerate(packed)
    ]


def _packed(
    groups: list[list[tuple[str, str]]], rounds: Mapping[tuple[str, str], int], most: int
) -> list[list[tuple[str, str]]]:
    """At most ``most`` partitions of the groups, neighbours packed together while a
    partition holds fewer than its share of the rounds: a log of a thousand tables of a few
    rounds each is not a thousand tasks."""
    if len(groups) <= most:
        return groups
    share = sum(rounds.values()) / most
    packed: list[list[tuple[str, str]]] = []
    held = 0
    for group in groups:
        if not packed or (held >= share and len(packed) < most):
            packed.append([])
            held = 0
        packed[-1] += group
        held += sum(rounds[table] for table in group)
    return packed


@dataclass(frozen=True)
class PartitionTask:
    """What a worker needs to check one partition of the store: all of it picklable."""

    database: str  # the store's file
    month: str | None
    games: dict[str, GameSpec]
    partition: Partition
    spool: str  # a folder the worker writes its round findings into


@dataclass
class PartitionResult:
    """What one partition's passes found, for the coordinator to merge."""

    number: int
    rounds_seen: int
    rounds_checked: int
    bets_checked: int
    totals: Totals
    unconfigured: dict[str, int]
    first_seen: FirstSeen
    #: Its shoes' findings, each with its shoe id, in shoe-id order.
    shoe_findings: list[tuple[str, list[Finding]]] = field(default_factory=list)
    summaries: list[ShoeSummary] = field(default_factory=list)
    #: The round findings, in the order found: a spool file (frames of MessagePack) ...
    spool_file: str | None = None
    #: ... or, where the coordinator cannot read the worker's files, the frames themselves.
    frames: list[bytes] | None = None
    bets_unverified: int = 0  # bets of a type verify does not settle


class FindingSpool:
    """Round findings written in frames as they come, to a file or kept as frames."""

    def __init__(self, handle=None) -> None:
        self.handle = handle
        self.frames: list[bytes] = []
        self.pending: list[Finding] = []
        self.encoder = msgspec.msgpack.Encoder()

    def emit(self, findings: list[Finding]) -> None:
        self.pending.extend(findings)
        if len(self.pending) >= _FRAME_FINDINGS:
            self.flush()

    def flush(self) -> None:
        if not self.pending:
            return
        frame = self.encoder.encode(self.pending)
        self.pending.clear()
        if self.handle is None:
            self.frames.append(frame)
        else:
            self.handle.write(_LENGTH.pack(len(frame)) + frame)


def _spool_frames(path: str) -> Iterator[bytes]:
    with open(path, "rb") as handle:
        while head := handle.read(_LENGTH.size):
            (length,) = _LENGTH.unpack(head)
            yield handle.read(length)


def _decoded(frames: Iterable[bytes]) -> Iterator[Finding]:
    decoder = msgspec.msgpack.Decoder(list[Finding])
    for frame in frames:
        yield from decoder.decode(frame)


def spooled_findings(path: str) -> Iterator[Finding]:
    """The findings of a spool file, in the order written, one frame in memory at a time."""
    return _decoded(_spool_frames(path))


def _findings_of(result: PartitionResult) -> Iterator[Finding]:
    """A partition's round findings, in the order found."""
    if result.spool_file:
        return spooled_findings(result.spool_file)
    return _decoded(result.frames or ())


def read_only(database: str) -> sqlite3.Connection:
    """A connection of a worker to the store: read only, in autocommit."""
    uri = f"{sqlite_uri(Path(database))}?{READ_ONLY}"
    return sqlite3.connect(uri, uri=True, isolation_level=None, timeout=30)


def check_partition(task: PartitionTask) -> PartitionResult:
    """Check one partition of the store (in a worker process: a connection of its own, read
    only); its round findings go to a spool file in ``task.spool``."""
    path = Path(task.spool) / f"partition-{task.partition.number}.findings"
    connection = read_only(task.database)
    try:
        with database_faults(connection), open(path, "wb") as handle:
            result = partition_passes(connection, task.month, task.games, task.partition, handle)
    finally:
        connection.close()
    result.spool_file = str(path)
    return result


def partition_passes(
    connection: sqlite3.Connection,
    month: str | None,
    games: Mapping[str, GameSpec],
    partition: Partition,
    handle=None,
) -> PartitionResult:
    """The round pass and the shoe pass over one partition's rounds in a store; the round
    findings written to ``handle`` in frames, or kept as frames when it is None."""
    tables = partition.tables
    spool = FindingSpool(handle)
    shoe_findings: list[tuple[str, list[Finding]]] = []
    passes = RoundPass(first_seen=FirstSeen())
    with cyclic_gc_paused():
        passes.run(read_rounds(connection, month, tables), games, spool.emit)
        spool.flush()
        summaries = shoe_pass(
            read_shoes(connection, month, tables),
            games,
            month,
            lambda shoe_id, found: shoe_findings.append((shoe_id, found)),
            passes.hands,
        )
    return PartitionResult(
        number=partition.number,
        rounds_seen=passes.rounds_seen,
        rounds_checked=passes.rounds_checked,
        bets_checked=passes.bets_checked,
        bets_unverified=passes.bets_unverified,
        totals=passes.totals,
        unconfigured=passes.unconfigured,
        first_seen=passes.first_seen or FirstSeen(),
        shoe_findings=shoe_findings,
        summaries=summaries,
        frames=None if handle is not None else spool.frames,
    )


def merged_round_findings(results: Sequence[PartitionResult]) -> Iterator[Finding]:
    """Every partition's round findings in round-id order, as one pass would have found them
    (a round is in one partition; a partition's findings are in round-id order already)."""
    return heapq.merge(*map(_findings_of, results), key=attrgetter("round_id"))


def merged_shoe_findings(results: Sequence[PartitionResult]) -> Iterator[list[Finding]]:
    """Every partition's shoe findings in shoe-id order (a shoe is in one partition)."""
    found = [entry for result in results for entry in result.shoe_findings]
    found.sort(key=lambda entry: entry[0])
    return (findings for _shoe_id, findings in found)


def _first_order(entries: Iterable[tuple[int, list[tuple[object, str]]]]) -> list:
    """Keys ordered by the round that first showed them; keys one round showed first in the
    order that round added them. ``entries``: per partition, its number and its keys with
    the round that first showed each, in the order it met them."""
    first: dict[object, tuple[str, int, int]] = {}
    for number, keys in entries:
        for index, (key, round_id) in enumerate(keys):
            place = (round_id, number, index)
            if key not in first or place < first[key]:
                first[key] = place
    return sorted(first, key=first.__getitem__)


def merged_totals(results: Sequence[PartitionResult]) -> tuple[Totals, dict[str, int]]:
    """The partitions' totals added up, and their rounds of unconfigured games, each keyed in
    the order one pass over all of them would have met the keys."""
    added = Totals()
    unconfigured: dict[str, int] = {}
    for result in results:
        added.merge(result.totals)
        for game_id, count in result.unconfigured.items():
            unconfigured[game_id] = unconfigured.get(game_id, 0) + count
    tables = _first_order((r.number, r.first_seen.tables) for r in results)
    bets = _first_order((r.number, r.first_seen.bets) for r in results)
    games = _first_order((r.number, r.first_seen.unconfigured) for r in results)
    ordered = Totals(
        {key: added.tables[key] for key in tables}, {key: added.bets[key] for key in bets}
    )
    return ordered, {key: unconfigured[key] for key in games}


#: A runner: the tasks of a verification in, their results out as each partition completes.
Runner = Callable[[Sequence[PartitionTask]], Iterator[PartitionResult]]


class Workers(NamedTuple):
    """Where a verification runs: in ``jobs`` processes of this machine (1: in this one), or
    wherever ``runner`` sends its partitions."""

    jobs: int | None = 1  # None: as many as are worth it (reporting.verify.run.verify)
    runner: Runner | None = None


class LocalRunner:
    """Run the partitions in ``jobs`` worker processes of this machine, the largest first.

    Used as a context manager (``with LocalRunner(2) as runner``): the workers are started
    on entering, from a thread, so that they are forked while the coordinator plans the
    partitions, and none is left on leaving, whatever happened."""

    def __init__(self, jobs: int) -> None:
        self.jobs = jobs
        self.pool: ProcessPoolExecutor | None = None
        self._exits = contextlib.ExitStack()

    def __enter__(self) -> Runner:
        # Not forks of this process (they would inherit its open connection): forks of the
        # fork server, which has imported the checks once (_PRELOAD).
        self.pool = self._exits.enter_context(
            worker_pool(self.jobs, _PRELOAD, forked_worker_started, "verify-workers")
        )
        return self

    def __exit__(self, *exc_info) -> None:
        self._exits.__exit__(*exc_info)

    def __call__(self, tasks: Sequence[PartitionTask]) -> Iterator[PartitionResult]:
        pool = self.pool
        if pool is None:
            raise RuntimeError("LocalRunner runs partitions inside its with block")
        largest_first = sorted(tasks, key=lambda task: -task.partition.rounds)
        try:
            pending: set[Future] = {pool.submit(check_partition, task) for task in largest_first}
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    yield future.result()
        except BrokenProcessPool:  # the with block's end stops the others
            raise EnvironmentFault(
                "a verify worker process stopped (killed, or out of memory); nothing was"
                " stored: run verify again, or with --jobs 1"
            ) from None


_PR_SET_PDEATHSIG = 1


#: The stops sent to a whole process group (a terminal's Ctrl-C, its hang-up), which a
#: pool's processes leave to the run.
_GROUP_STOPS = frozenset({signal.SIGINT, signal.SIGHUP})


def worker_started(parent: int) -> None:
    """In each worker (of verify, and of the monthly job's rendering): Ctrl-C and a hang-up
    are the coordinator's to handle (it stops the workers), and the worker dies with the coordinator
    (Linux), so that a stopped run leaves none behind. Both are ignored, no longer blocked
    as in the fork server the worker was forked from (:func:`_helpers_deaf_to_stops`)."""
    for number in _GROUP_STOPS:
        signal.signal(number, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _GROUP_STOPS)
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # the coordinator died before the line above took effect
        os._exit(1)


#: What the fork server imports once, before it forks verify's workers (each would otherwise
#: start as a fresh interpreter and import the checks on its own).
_PRELOAD = ("reporting.verify.partitions",)


def forked_worker_started() -> None:
    """In a worker forked by the fork server: tied to the fork server (:func:`worker_started`),
    and the fork server to the run alone.

    The fork server ends once no process holds its "alive" pipe, which multiprocessing hands
    to every worker too: with the workers' copies closed, it ends when the run does (killed
    included), and the workers, tied to it, with it.
    """
    worker_started(os.getppid())
    alive = getattr(forkserver._forkserver, "_forkserver_alive_fd", None)
    if alive is not None:
        with contextlib.suppress(OSError):
            os.close(alive)
        forkserver._forkserver._forkserver_alive_fd = None


class _WorkerPool(ProcessPoolExecutor):
    """A pool whose workers start through the fork server: with the fork server gone (killed,
    or its interpreter could not run), a task that must start a worker meets a connection
    refused or a pipe broken; the pool is then as broken as when a worker dies."""

    #: The thread that starts the workers (:func:`_start`), while it runs.
    starting: threading.Thread | None = None

    def submit(self, fn, /, *args, **kwargs):
        if self.starting is not None and self.starting is not threading.current_thread():
            self.starting.join()  # the workers are started there, never in the run's thread
        try:
            return super().submit(fn, *args, **kwargs)
        except (ConnectionError, EOFError) as error:
            raise BrokenProcessPool(f"the fork server stopped ({error!r})") from error


@contextlib.contextmanager
def worker_pool(
    jobs: int, preload: Sequence[str], initializer: Callable[[], None], name: str
) -> Iterator[ProcessPoolExecutor]:
    """A pool of ``jobs`` workers (of verify, or of the monthly job's rendering), forked from
    multiprocessing's fork server: a fresh interpreter that holds none of the run's
    connections or lock files, runs no thread, and imports ``preload`` once (there is one fork
    server a process: the modules of the first pool that starts it are the ones it imports).

    The workers are started at once, all of them from a thread named ``name``, so that they
    are forked while the caller goes on: a start waits for the fork server's imports, and a
    stop (SIGTERM, Ctrl-C) in the middle of one would leave a worker the pool does not know
    yet, forked after the run is gone. The caller's first task waits for that thread. Leaving
    the block when every task is done tells the idle workers to end and waits for them;
    leaving it with an error or on a stop waits for the starts, then kills the workers and
    reaps them: none may go on.

    The workers' temporary files (a render worker's fonts) are made in a folder of the run's,
    removed once the workers are gone: a killed worker cannot remove its own."""
    _fork_server_folder()
    _working_folder_that_exists()
    context = get_context("forkserver")
    context.set_forkserver_preload(list(preload))
    _helpers_deaf_to_stops()
    before = set(active_children())
    with _private_folder("baccarat-workers-") as folder:
        pool = _WorkerPool(
            jobs, mp_context=context, initializer=_in_folder, initargs=(folder, initializer)
        )
        starting = pool.starting = threading.Thread(target=_start, args=(pool, jobs), name=name)
        try:
            starting.start()
            yield pool
            starting.join()
            processes = list((pool._processes or {}).values())
            pool.shutdown(wait=True)
            # A worker its pool could not tell to end (no task reached the pool's own thread,
            # which does so: each submit failed) waits for one, and the interpreter's exit
            # waits on it for good.
            _killed([process for process in processes if process.is_alive()])
        except BaseException:
            if starting.ident is not None:  # started (a thread's start is never broken off)
                starting.join()
            # Python 3.14 has pool.kill_workers(); until then the pool's table of its processes,
            # and any child started since the pool was made that the table missed: a stop
            # between a worker's start and its entry in the table (a task the run submits)
            # left it waiting for a task, and the interpreter's exit waiting on it for good.
            processes = list((pool._processes or {}).values())
            call_queue = pool._call_queue  # the pool lets go of it at its shutdown
            manager = pool._executor_manager_thread  # and of its own thread
            pool.shutdown(wait=False, cancel_futures=True)
            _killed({*processes, *(set(active_children()) - before)})
            _unblock_feeder(call_queue)
            # The pool's thread, seeing its workers dead, closes their pipes: still at it as
            # the interpreter ended, it raced multiprocessing's last wake-up of it, which
            # wrote into a pipe just closed ("OSError: [Errno 9] Bad file descriptor" with a
            # traceback, 1 stop in 200 of verify --jobs 2).
            if manager is not None:
                manager.join(timeout=_MANAGER_SECONDS)
            raise


#: The longest a stopped run waits for its pool's own thread to end (it ends at once, its
#: workers killed: a bound, not a pause).
_MANAGER_SECONDS = 10


def _killed(processes: Iterable[BaseProcess]) -> None:
    """Kill ``processes`` and wait for each to end."""
    processes = list(processes)
    for process in processes:
        process.kill()
    for process in processes:
        process.join()


def _helpers_deaf_to_stops() -> None:
    """Start multiprocessing's helpers, its resource tracker (the process that removes the
    pool's semaphores) and its fork server, with SIGINT and SIGHUP blocked, a mask each
    inherits: Ctrl-C and a hang-up, sent to the run's whole process group, are the run's to
    handle.

    - The tracker blocks SIGINT and SIGTERM itself, not SIGHUP: a hang-up killed it, and it
      printed tracebacks and left its semaphores in /dev/shm.
    - The fork server is a fresh interpreter that imports its preload for about a second (the
      checks, or WeasyPrint for the rendering) before multiprocessing makes it ignore Ctrl-C:
      a Ctrl-C meanwhile printed its ``KeyboardInterrupt`` traceback under the run's line (14
      stops in 60 of ``verify --jobs 2`` in its first second), and a hang-up killed it. With
      both blocked, neither reaches it. The workers it forks ignore both instead
      (:func:`worker_started`).

    The block is the calling thread's, for the starts alone: a stop meanwhile waits, and then
    stops the run. A fork server that cannot start is the pool's first task's to meet (the
    pool is then broken), as when it is started there."""
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, _GROUP_STOPS)
    try:
        resource_tracker.ensure_running()
        # The tracker's start unblocks SIGINT and SIGTERM, whatever blocked them before.
        signal.pthread_sigmask(signal.SIG_BLOCK, _GROUP_STOPS)
        with contextlib.suppress(Exception):
            forkserver.ensure_running()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)


def _unblock_feeder(call_queue: queues.Queue | None) -> None:
    """Let the pool's thread that writes tasks to the workers end, its workers killed. It may
    be blocked writing a task bigger than the pipe holds (a month's pages) into the pipe no
    worker reads any more: while this process holds the pipe's reading end too, the write
    waits for good, and so does the interpreter's exit, which joins that thread. The run
    stopped by SIGTERM logged its line and never exited: cron's wrapper waited, and sent no
    alert (Python 3.11.2, Debian 12's; CPython gh-94777, mended in 3.11.5 the same way:
    closing the reading end makes the write fail, and the thread end).

    The reading end is not closed but put out of use: /dev/null takes its descriptor's number
    (one system call, ``dup2``). The pool's own thread closes that end too once it sees its
    workers dead (Python 3.11.5 on); the two closes raced, and the second printed "OSError:
    [Errno 9] Bad file descriptor" with a traceback under the run's line (2 stops in 60 of
    ``verify --jobs 2``), or closed whatever file had just been given the number. The number
    is now the pool's to close, whenever it does."""
    handle = getattr(getattr(call_queue, "_reader", None), "_handle", None)
    if handle is None:
        return
    with contextlib.suppress(OSError):
        null = os.open(os.devnull, os.O_RDONLY)
        try:
            os.dup2(null, handle, inheritable=False)
        finally:
            os.close(null)


def _working_folder_that_exists() -> None:
    """Run from / if the working folder has been removed: the fork server starts from it
    (multiprocessing asks for it), where one process does without it. Every path the run
    still uses was made absolute or opened already: a relative one could not be opened in a
    removed folder."""
    try:
        os.getcwd()
    except FileNotFoundError:
        os.chdir("/")


def _in_folder(folder: str, initializer: Callable[[], None]) -> None:
    """In each worker: its temporary files in ``folder``, then its own ``initializer``."""
    tempfile.tempdir = folder
    initializer()


#: The longest path a Unix socket's address holds (``sun_path``, less its final NUL), and what
#: multiprocessing adds to its temporary folder's parent for the fork server's socket
#: (``/pymp-XXXXXXXX/listener-XXXXXXXX``).
_SOCKET_PATH_MAX = 107
_SOCKET_SUFFIX = 32


def _fork_server_folder() -> None:
    """Where the fork server's socket can be bound. It is made in multiprocessing's temporary
    folder, ``pymp-*`` in the system's (``TMPDIR``), whose path may leave too little of a
    socket address's 107 bytes. Then, as Python 3.14 does, the folder is made in /tmp or
    /var/tmp instead (removed at exit, as multiprocessing's own); where neither will do,
    the run stops with a line saying what to change."""
    from multiprocessing import process, util

    config = process.current_process()._config
    current = config.get("tempdir")
    base = os.path.dirname(current) if current else tempfile.gettempdir()
    if len(os.fsencode(base)) + _SOCKET_SUFFIX <= _SOCKET_PATH_MAX:
        return
    for short in ("/tmp", "/var/tmp"):
        if os.path.isdir(short) and os.access(short, os.W_OK | os.X_OK):
            folder = tempfile.mkdtemp(prefix="pymp-", dir=short)
            util.Finalize(
                None, util._remove_temp_dir, args=(shutil.rmtree, folder), exitpriority=-100
            )
            config["tempdir"] = folder
            return
    raise EnvironmentFault(
        f"the temporary folder {base} has too long a path for the worker processes' socket"
        f" (at most {_SOCKET_PATH_MAX - _SOCKET_SUFFIX} bytes) and neither /tmp nor /var/tmp"
        " is writable: set TMPDIR to a shorter folder, or run with --jobs 1"
    )


def _start(pool: ProcessPoolExecutor, jobs: int) -> None:
    """Start the pool's ``jobs`` workers, all of them in this thread, which no stop breaks off
    (a signal's handler runs in the main thread). A start broken off in the run's own thread
    (a stop while a task's submit waited for the fork server to fork its worker) left a worker
    the pool did not know: it found the workers' folder gone, printed a traceback, and lived
    until the run ended. The run's submits wait for this thread (:class:`_WorkerPool`), and
    then find every worker started. A failure to start one is the run's own first task's to
    meet (the pool is then broken), not this thread's to print.

    A task each then starts the pool's own thread, which ends the workers at its shutdown: a
    pool given no task (a month whose pages were all printed before) left its workers
    waiting for one, and the interpreter's exit waiting on them for good."""
    with contextlib.suppress(Exception):
        with pool._shutdown_lock:
            while len(pool._processes) < jobs:
                pool._spawn_process()
        for _ in range(jobs):
            pool.submit(os.getpid)


def spool_folder() -> contextlib.AbstractContextManager[str]:
    """A private folder for the workers' spool files, removed when the run ends."""
    return _private_folder("baccarat-verify-")


@contextlib.contextmanager
def _private_folder(prefix: str) -> Iterator[str]:
    """A private temporary folder (in ``TMPDIR``, its name ``prefix`` and random letters),
    removed when the block ends, however it ends.

    A stop that comes during the removal (a Ctrl-C as the run ends) does not break it off: it
    is finished, and then the stop goes on (an empty folder of a stopped ``verify --jobs 2``
    was left, 2 stops in 150). A failed removal is not the run's error (out of file
    descriptors, say, it would hide the one that stopped the run): the folder is left."""
    directory = tempfile.TemporaryDirectory(prefix=prefix, ignore_cleanup_errors=True)
    try:
        yield directory.name
    finally:
        try:
            directory.cleanup()
        except BaseException:
            shutil.rmtree(directory.name, ignore_errors=True)
            raise
