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
import heapq
import os
import sqlite3
import struct
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
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
from reporting.verify.pool import forked_worker_started, private_folder, worker_pool
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
    "merged_round_findings",
    "merged_shoe_findings",
    "merged_totals",
    "plan_partitions",
    "read_only",
    "spool_folder",
    "spooled_findings",
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


#: What the fork server imports once, before it forks verify's workers (each would otherwise
#: start as a fresh interpreter and import the checks on its own).
_PRELOAD = ("reporting.verify.partitions",)


def spool_folder() -> contextlib.AbstractContextManager[str]:
    """A private folder for the workers' spool files, removed when the run ends."""
    return private_folder("baccarat-verify-")
