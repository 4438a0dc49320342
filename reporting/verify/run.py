"""The verification run: every round of a period streamed from the store through the checks.

The rounds come with their bets from :mod:`reporting.store.reading`; each goes through the
table of :data:`reporting.verify.checks.CHECKS`, and each shoe through the shoe pass (its card
counts, and its summary: :mod:`reporting.verify.shoes`). What
no round or shoe can see alone (a bet id reused by another round, of any month) is asked of
the store in SQL: :data:`STORE_CHECKS`; so is what no check could judge for want of a field
(:mod:`reporting.verify.coverage`). The findings are stored in the ``findings`` table, replacing those of the same scope, so
re-running never duplicates them; the outcome counts and bet sums come back with them
(:mod:`reporting.verify.totals`).

The passes themselves are :mod:`reporting.verify.passes`, over any batch of rounds. A large
period runs them in partitions (its tables) in worker processes, or on a cluster, while the
store checks run here; the merge gives back exactly what one process finds
(:mod:`reporting.verify.partitions`).
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from itertools import starmap
from operator import attrgetter
from pathlib import Path
from types import MappingProxyType
from typing import NamedTuple

from reporting.config.loader import OperatorConfig
from reporting.engine.games import GameSpec
from reporting.errors import checkpoint
from reporting.ingest.sources import cyclic_gc_paused
from reporting.records import Finding, FindingKind, Severity, finding_order, severity_rank
from reporting.store.faults import begin_immediate, database_faults, database_file
from reporting.store.reading import read_rounds, read_shoes, source_files
from reporting.verify.coverage import CheckNotRun, checks_not_run, misplaced_rounds
from reporting.verify.partitions import (
    FindingSpool,
    LocalRunner,
    Partition,
    PartitionResult,
    PartitionTask,
    Runner,
    available_cores,
    merged_round_findings,
    merged_shoe_findings,
    merged_totals,
    plan_partitions,
    read_only,
    spool_folder,
    spooled_findings,
)
from reporting.verify.passes import RoundPass, shoe_pass
from reporting.verify.shoes import ShoeSummary, shoe_findings, with_findings
from reporting.verify.totals import BetTotals, TableCounts, Totals

#: A period of fewer rounds is verified in one process unless more jobs are asked for: the
#: workers (a fork server that imports the checks, and its forks) cost more than they save.
PARALLEL_MIN_ROUNDS = 50_000

__all__ = [
    "PARALLEL_MIN_ROUNDS",
    "STORE_CHECKS",
    "StoreCheck",
    "VerifyResult",
    "find_duplicate_bet_ids",
    "verify",
]


@dataclass
class VerifyResult:
    """What a verification run checked and found."""

    month: str | None
    rounds_checked: int = 0
    #: Bets whose payout was judged: every bet of a settled round whose type verify settles.
    bets_checked: int = 0
    #: Bets of those rounds whose type verify does not settle (each an ``unverified_bet``):
    #: counted apart, never as checked.
    bets_unverified: int = 0
    findings_by_kind: Counter = field(default_factory=Counter)
    #: The ``keep`` heaviest findings (every one when there are no more), in
    #: :func:`finding_order`; ``findings_by_kind`` counts them all.
    findings: list[Finding] = field(default_factory=list)
    tables: dict[tuple[str, str], TableCounts] = field(default_factory=dict)
    bet_totals: dict[tuple[str, str], BetTotals] = field(default_factory=dict)
    unconfigured_rounds: dict[str, int] = field(default_factory=dict)  # game id -> rounds
    #: Per game, each check that could not judge some records for want of a field.
    checks_not_run: list[CheckNotRun] = field(default_factory=list)
    #: Per game, the month's rounds stored in it that settled outside it in the game's time
    #: zone now, and the zone (:func:`~reporting.verify.coverage.misplaced_rounds`).
    misplaced_rounds: dict[str, tuple[int, str]] = field(default_factory=dict)
    #: One summary per game, table and shoe holding a round of the month (of a configured
    #: game), ordered by game, table and first settlement (:mod:`reporting.verify.shoes`).
    shoes: list[ShoeSummary] = field(default_factory=list)

    @property
    def finding_count(self) -> int:
        """Findings of every kind."""
        return sum(self.findings_by_kind.values())


class _FindingSink:
    """Collects findings, writes them in batches, keeps the ``keep`` heaviest for the report:
    a list cut short drops the lightest (an ``unverified_bet`` before any payout or rule
    finding), the first found of a weight first kept."""

    def __init__(self, connection: sqlite3.Connection, result: VerifyResult, keep: int):
        self.connection = connection
        self.result = result
        self.keep = keep
        self.kept: list[list[Finding]] = [[] for _severity in Severity]  # by severity rank
        self.kept_count = 0
        self.pending: list[Finding] = []

    def extend(self, findings: list[Finding]) -> None:
        """Take findings in the order they were found."""
        for finding in findings:
            self.result.findings_by_kind[finding.kind] += 1
            self._keep(finding)
        self.pending.extend(findings)
        if len(self.pending) >= 10_000:
            self.flush()

    def _keep(self, finding: Finding) -> None:
        rank = severity_rank(finding.kind)
        if self.kept_count < self.keep:
            self.kept[rank].append(finding)
            self.kept_count += 1
            return
        lightest = max((r for r, kept in enumerate(self.kept) if kept), default=-1)
        if lightest > rank:  # the new finding weighs more than the lightest kept one
            self.kept[lightest].pop()
            self.kept[rank].append(finding)

    def kept_findings(self) -> list[Finding]:
        """The findings kept, heaviest first, then by file and line."""
        return sorted((finding for kept in self.kept for finding in kept), key=finding_order)

    def flush(self) -> None:
        """Write the findings taken since the last flush."""
        if self.pending:
            self.connection.executemany(
                "INSERT INTO findings (kind, game_id, report_month, round_id, bet_id,"
                " expected_payout_cents, logged_payout_cents, rule, source_file, source_line,"
                " message) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                [
                    (
                        f.kind,
                        f.game_id,
                        f.report_month,
                        f.round_id,
                        f.bet_id,
                        f.expected_payout,
                        f.logged_payout,
                        f.rule,
                        f.source_file,
                        f.source_line,
                        f.message,
                    )
                    for f in self.pending
                ],
            )
            self.pending.clear()


def verify(
    connection: sqlite3.Connection,
    config: OperatorConfig,
    month: str | None = None,
    *,
    keep: int = 10_000,
    progress: Callable[[int], None] | None = None,
    jobs: int | None = 1,
    runner: Runner | None = None,
) -> VerifyResult:
    """Check every round (of ``month``, or all) and store the findings, replacing earlier ones.

    With ``jobs`` above 1 the period's partitions (:mod:`reporting.verify.partitions`) are
    checked in that many worker processes, or wherever ``runner`` runs them; the result and
    the stored findings are the same as in one process. ``jobs=None``: as many as the cores
    available, once the period holds :data:`PARALLEL_MIN_ROUNDS` rounds (below, starting
    the workers costs more than they save). ``progress``, if given, is called
    with the number of rounds read so far, every :data:`PROGRESS_EVERY` rounds (in one
    process; as each partition completes, in several) and once at the end."""
    result = VerifyResult(month)
    games = config.games
    with database_faults(connection):  # a full disk, a lock held too long: one line
        begin_immediate(connection)
        try:
            jobs = _jobs_for(connection, month) if jobs is None else jobs
            with contextlib.ExitStack() as workers:
                spool = None
                if runner is not None or (jobs > 1 and _file_of(connection)):
                    # entered first, so removed last: after the workers are gone, which a
                    # stopped run's still running ones would write into while it is removed
                    spool = workers.enter_context(spool_folder())
                    if runner is None:
                        runner = workers.enter_context(LocalRunner(jobs))
                _replace_findings(connection, games, month, result, keep, progress, runner, spool)
            checkpoint()  # a stop dropped while the month was checked: its findings are not kept
            connection.execute("COMMIT")
        except BaseException:
            if connection.in_transaction:  # SQLite may have rolled back already (disk full)
                with contextlib.suppress(sqlite3.Error):
                    connection.execute("ROLLBACK")
            raise
    return result


def _jobs_for(connection: sqlite3.Connection, month: str | None) -> int:
    """The worker processes a verification of ``month`` is worth: the cores, or 1."""
    where, params = ("", ()) if month is None else (" WHERE report_month = ?", (month,))
    query = f"SELECT count(*) >= ? FROM (SELECT 1 FROM rounds{where} LIMIT ?)"
    (worth,) = connection.execute(query, (PARALLEL_MIN_ROUNDS, *params, PARALLEL_MIN_ROUNDS))
    return available_cores() if worth[0] else 1


def _file_of(connection: sqlite3.Connection) -> str:
    """The file of the store ('' for one in memory, which no other process can open)."""
    return database_file(connection)


# Long on purpose: one transaction's steps in order, the one-process and the partitioned run
# side by side, so that they visibly do the same.
def _replace_findings(
    connection: sqlite3.Connection,
    games: Mapping[str, GameSpec],
    month: str | None,
    result: VerifyResult,
    keep: int,
    progress: Callable[[int], None] | None,
    runner: Runner | None,
    spool: str | None,
) -> None:
    """Inside the open transaction: the scope's findings deleted, every round checked, the
    new findings written (the partitions' spool files in ``spool``, with a runner)."""
    # First: it refuses a settled time changed by hand, before any round is checked.
    result.misplaced_rounds = misplaced_rounds(connection, games, month)
    if month is None:
        where, params = "1", ()
    else:
        where, params = "findings.report_month = ?", (month,)
    # Only the configured games are judged, so only their findings are replaced.
    connection.execute(
        f"DELETE FROM findings WHERE {where} AND game_id IN (SELECT value FROM json_each(?))",
        (*params, json.dumps(sorted(games))),
    )
    sink = _FindingSink(connection, result, keep)
    with cyclic_gc_paused():
        partitions = [] if runner is None else plan_partitions(connection, month)
        if len(partitions) > 1:
            result.shoes = _partitioned(
                connection, games, month, partitions, sink, progress, runner, spool
            )
            result.findings = sink.kept_findings()
            return
        passes = RoundPass(Totals(result.tables, result.bet_totals), result.unconfigured_rounds)
        passes.run(read_rounds(connection, month), games, sink.extend, progress)
        result.rounds_checked, result.bets_checked = passes.rounds_checked, passes.bets_checked
        result.bets_unverified = passes.bets_unverified
        # The hands of the shoes' rounds, as the round pass resolved them, for the shoes.
        summaries = shoe_pass(
            read_shoes(connection, month), games, month, _shoe_sink(sink), passes.hands
        )
        for store_check in STORE_CHECKS.values():
            for finding in store_check(connection, games, month):
                sink.extend([finding])
    sink.flush()
    result.findings = sink.kept_findings()
    result.shoes = with_findings(summaries, shoe_findings(connection, games, month))
    result.checks_not_run = checks_not_run(connection, games, month)


def _shoe_sink(sink: _FindingSink) -> Callable[[str, list[Finding]], None]:
    return lambda _shoe_id, findings: sink.extend(findings)


# Long on purpose: the partitioned run's steps in the order of the one-process run's, so
# that the two visibly store the same.
def _partitioned(
    connection: sqlite3.Connection,
    games: Mapping[str, GameSpec],
    month: str | None,
    partitions: list[Partition],
    sink: _FindingSink,
    progress: Callable[[int], None] | None,
    runner: Runner,
    spool: str,
) -> list[ShoeSummary]:
    """The partitions checked by ``runner`` while the store checks and the count of what no
    check could judge run here (on a connection of their own, in a thread: SQLite works
    outside Python's lock); the partitions' findings taken in the order one pass would have
    found them, their totals added. The shoes returned."""
    result = sink.result
    database = _file_of(connection)
    tasks = [PartitionTask(database, month, dict(games), part, spool) for part in partitions]
    store_checks = _StoreChecks(database, games, month, Path(spool) / "store.findings")
    store_checks.start()
    results: list[PartitionResult] = []
    try:
        for done in runner(tasks):
            results.append(done)
            if progress is not None:
                progress(sum(r.rounds_seen for r in results))
    finally:
        store_checks.join()
    results.sort(key=attrgetter("number"))
    for finding in merged_round_findings(results):
        sink.extend([finding])
    for findings in merged_shoe_findings(results):
        sink.extend(findings)
    for finding in store_checks.findings():
        sink.extend([finding])
    sink.flush()
    totals, unconfigured = merged_totals(results)
    result.tables, result.bet_totals = totals.tables, totals.bets
    result.unconfigured_rounds = unconfigured
    result.rounds_checked = sum(r.rounds_checked for r in results)
    result.bets_checked = sum(r.bets_checked for r in results)
    result.bets_unverified = sum(r.bets_unverified for r in results)
    result.checks_not_run = store_checks.not_run
    summaries = [summary for r in results for summary in r.summaries]
    return with_findings(summaries, shoe_findings(connection, games, month))


class _StoreChecks(threading.Thread):
    """Every store check of the period, on a read-only connection of its own, its findings
    spooled to a file, and the checks not run for want of a field: what the partitions
    cannot see alone, found while they run."""

    def __init__(self, database: str, games: Mapping[str, GameSpec], month, path: Path):
        super().__init__(name="store checks", daemon=True)
        self.database, self.games, self.month, self.path = database, games, month, path
        self.error: BaseException | None = None
        self.not_run: list[CheckNotRun] = []

    def run(self) -> None:
        try:
            connection = read_only(self.database)
            try:
                with database_faults(connection), open(self.path, "wb") as handle:
                    spool = FindingSpool(handle)
                    for store_check in STORE_CHECKS.values():
                        for finding in store_check(connection, self.games, self.month):
                            spool.emit([finding])
                    spool.flush()
                self.not_run = checks_not_run(connection, self.games, self.month)
            finally:
                connection.close()
        except BaseException as error:  # handed to the coordinator's thread
            self.error = error

    def findings(self) -> Iterator[Finding]:
        """The findings, in the order found; the thread's error raised here, if it had one."""
        if self.error is not None:
            raise self.error
        return spooled_findings(str(self.path))


#: A store check: the open connection, the games, the month in scope (None for every month)
#: in; the findings on rounds of that month (and of those games) out, streamed.
StoreCheck = Callable[[sqlite3.Connection, Mapping[str, GameSpec], str | None], Iterator[Finding]]

#: Every use of a bet id that some other round uses too, numbered in order of settlement
#: (then round id) with the first use beside it, the repeats of the period's rounds kept. The
#: period's bets are read through its rounds (by game and month, then the bets' primary key)
#: and each of their ids is looked up in ``bets_by_bet_id``: a month's check reads that month
#: and the uses of its repeated ids, whatever the months the store holds. A bet id is unique
#: within its round (the primary key), so two rows of an id are two rounds.
_DUPLICATE_BET_IDS = """
WITH reused AS MATERIALIZED (
    SELECT DISTINCT b.bet_id FROM rounds AS r JOIN bets AS b ON b.round_id = r.round_id
    WHERE {where} AND r.game_id IN (SELECT value FROM json_each(?))
        AND EXISTS (
            SELECT 1 FROM bets AS other
            WHERE other.bet_id = b.bet_id AND other.round_id <> b.round_id
        )
), uses AS (
    SELECT b.bet_id, b.round_id, b.source_line, r.game_id, r.report_month, r.ingest_id,
        row_number() OVER earlier AS use_number,
        first_value(b.round_id) OVER earlier AS first_round_id,
        first_value(r.ingest_id) OVER earlier AS first_ingest_id,
        first_value(b.source_line) OVER earlier AS first_line
    FROM reused JOIN bets AS b ON b.bet_id = reused.bet_id
    JOIN rounds AS r ON r.round_id = b.round_id
    WINDOW earlier AS (PARTITION BY b.bet_id ORDER BY r.settled_at, r.round_id)
)
SELECT bet_id, round_id, source_line, game_id, report_month, ingest_id, first_round_id,
    first_ingest_id, first_line
FROM uses
WHERE use_number > 1 AND {where} AND game_id IN (SELECT value FROM json_each(?))
ORDER BY round_id, bet_id
"""


class _Reuse(NamedTuple):
    """A row of :data:`_DUPLICATE_BET_IDS`: a bet repeating an id, and the id's first use."""

    bet_id: str
    round_id: str
    source_line: int
    game_id: str
    report_month: str
    ingest_id: int
    first_round_id: str
    first_ingest_id: int
    first_line: int


def find_duplicate_bet_ids(
    connection: sqlite3.Connection, games: Mapping[str, GameSpec], month: str | None
) -> Iterator[Finding]:
    """A bet id is the bet's unique id: each bet repeating an id that an earlier round (by
    settlement time, then round id; of any month or game) already used is one
    ``duplicate_bet_id`` finding, when its round is of ``month`` (or ``month`` is None) and of
    one of ``games``. The message names the first round and its file and line."""
    files = source_files(connection)
    where, params = ("1", ()) if month is None else ("report_month = ?", (month,))
    games_list = json.dumps(sorted(games))
    rows = connection.execute(
        _DUPLICATE_BET_IDS.format(where=where), (*params, games_list, *params, games_list)
    )
    for reuse in starmap(_Reuse, rows):
        yield Finding(
            kind=FindingKind.DUPLICATE_BET_ID.value,
            game_id=reuse.game_id,
            report_month=reuse.report_month,
            round_id=reuse.round_id,
            bet_id=reuse.bet_id,
            source_file=files[reuse.ingest_id].bets,
            source_line=reuse.source_line,
            message=f"bet id {reuse.bet_id} of round {reuse.round_id} was first used by round"
            f" {reuse.first_round_id} ({files[reuse.first_ingest_id].bets}:{reuse.first_line})",
        )


#: Every store check by the kind it finds.
STORE_CHECKS: Mapping[FindingKind, StoreCheck] = MappingProxyType(
    {FindingKind.DUPLICATE_BET_ID: find_duplicate_bet_ids}
)
