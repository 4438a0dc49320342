"""The verification run: every round of a period streamed from the store through the checks.

The rounds come with their bets from :mod:`reporting.store.reading`; each goes through the
table of :data:`reporting.verify.checks.CHECKS`, and each shoe through the shoe pass (its card
counts, and its summary: :mod:`reporting.verify.shoes`). What
no round or shoe can see alone (a bet id reused by another round, of any month) is asked of
the store in SQL: :data:`STORE_CHECKS`; so is what no check could judge for want of a field
(:mod:`reporting.verify.coverage`). The findings are stored in the ``findings`` table, replacing those of the same scope, so
re-running never duplicates them; the outcome counts and bet sums come back with them
(:mod:`reporting.verify.totals`).
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from itertools import starmap
from types import MappingProxyType
from typing import NamedTuple

from reporting.config.loader import OperatorConfig
from reporting.engine.games import GameSpec
from reporting.ingest.sources import cyclic_gc_paused
from reporting.records import Finding, FindingKind
from reporting.store.faults import database_faults
from reporting.store.reading import read_rounds, read_shoes, source_files
from reporting.verify.checks import CHECKS, SHOE_CHECKS, CheckCache, CheckContext
from reporting.verify.coverage import CheckNotRun, checks_not_run
from reporting.verify.shoes import (
    ShoeSummary,
    encode_outcome,
    shoe_findings,
    summarize_shoe,
    with_findings,
)
from reporting.verify.totals import BetTotals, TableCounts, Totals

#: Rounds between two calls of a progress callback (cheap: a modulo per round).
PROGRESS_EVERY = 8192
#: At most this many hands are handed from the round pass to the shoe pass (about 120 bytes
#: each: a month of a million rounds fits); past it, as when every month of a large store is
#: verified, the shoe pass resolves the other hands itself, slower but with the same result.
HANDS_HANDED_OVER = 1_500_000

__all__ = ["STORE_CHECKS", "StoreCheck", "VerifyResult", "find_duplicate_bet_ids", "verify"]


@dataclass
class VerifyResult:
    """What a verification run checked and found."""

    month: str | None
    rounds_checked: int = 0
    bets_checked: int = 0
    findings_by_kind: Counter = field(default_factory=Counter)
    findings: list[Finding] = field(default_factory=list)  # the first ``keep`` findings
    tables: dict[tuple[str, str], TableCounts] = field(default_factory=dict)
    bet_totals: dict[tuple[str, str], BetTotals] = field(default_factory=dict)
    unconfigured_rounds: dict[str, int] = field(default_factory=dict)  # game id -> rounds
    #: Per game, each check that could not judge some records for want of a field.
    checks_not_run: list[CheckNotRun] = field(default_factory=list)
    #: One summary per game, table and shoe holding a round of the month (of a configured
    #: game), ordered by game, table and first settlement (:mod:`reporting.verify.shoes`).
    shoes: list[ShoeSummary] = field(default_factory=list)

    @property
    def finding_count(self) -> int:
        """Findings of every kind."""
        return sum(self.findings_by_kind.values())


class _FindingSink:
    """Collects findings, writes them in batches, keeps the first few for the report."""

    def __init__(self, connection: sqlite3.Connection, result: VerifyResult, keep: int):
        self.connection = connection
        self.result = result
        self.keep = keep
        self.pending: list[Finding] = []

    def extend(self, findings: list[Finding]) -> None:
        """Take findings in the order they were found."""
        kept = self.result.findings
        for finding in findings:
            self.result.findings_by_kind[finding.kind] += 1
            if len(kept) < self.keep:
                kept.append(finding)
        self.pending.extend(findings)
        if len(self.pending) >= 10_000:
            self.flush()

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
) -> VerifyResult:
    """Check every round (of ``month``, or all) and store the findings, replacing earlier ones.

    ``progress``, if given, is called with the number of rounds read so far, every
    :data:`PROGRESS_EVERY` rounds and once at the end (for a progress bar)."""
    result = VerifyResult(month)
    games = config.games
    with database_faults(connection):  # a full disk, a lock held too long: one line
        connection.execute("BEGIN IMMEDIATE")
        try:
            _replace_findings(connection, games, month, result, keep, progress)
            connection.execute("COMMIT")
        except BaseException:
            if connection.in_transaction:  # SQLite may have rolled back already (disk full)
                with contextlib.suppress(sqlite3.Error):
                    connection.execute("ROLLBACK")
            raise
    result.findings.sort(key=lambda f: (f.source_file, f.source_line, f.kind, f.bet_id or ""))
    return result


def _replace_findings(
    connection: sqlite3.Connection,
    games: Mapping[str, GameSpec],
    month: str | None,
    result: VerifyResult,
    keep: int,
    progress: Callable[[int], None] | None,
) -> None:
    """Inside the open transaction: the scope's findings deleted, every round checked, the
    new findings written."""
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
    # The hands of the shoes' rounds, as the round pass resolved them, for the shoe pass.
    hands: dict[str, int] = {}
    summaries: list[ShoeSummary] = []
    with cyclic_gc_paused():
        _check_rounds(connection, games, month, sink, result, progress, hands)
        for shoe in read_shoes(connection, month):
            for check in SHOE_CHECKS.values():
                sink.extend(check(shoe, games, month))
            summaries += summarize_shoe(shoe, games, month, hands)
        hands.clear()
        for store_check in STORE_CHECKS.values():
            for finding in store_check(connection, games, month):
                sink.extend([finding])
    sink.flush()
    result.shoes = with_findings(summaries, shoe_findings(connection, games, month))
    result.checks_not_run = checks_not_run(connection, games, month)


#: A store check: the open connection, the games, the month in scope (None for every month)
#: in; the findings on rounds of that month (and of those games) out, streamed.
StoreCheck = Callable[[sqlite3.Connection, Mapping[str, GameSpec], str | None], Iterator[Finding]]

#: Every use of a bet id that some other round uses too, numbered in order of settlement
#: (then round id) with the first use beside it, the repeats of the month's rounds kept. The
#: ids come from one GROUP BY over every bet of the store (a sort: no index on bet_id is paid
#: by every ingest); only the bets of those ids are joined to their rounds. A bet id is
#: unique within its round (the primary key), so two rows of an id are two rounds.
_DUPLICATE_BET_IDS = """
WITH repeated AS MATERIALIZED (
    SELECT bet_id FROM bets GROUP BY bet_id HAVING count(*) > 1
), reused AS MATERIALIZED (
    SELECT bet_id, round_id, source_line FROM bets WHERE bet_id IN repeated
), uses AS (
    SELECT b.bet_id, b.round_id, b.source_line, r.game_id, r.report_month, r.ingest_id,
        row_number() OVER earlier AS use_number,
        first_value(b.round_id) OVER earlier AS first_round_id,
        first_value(r.ingest_id) OVER earlier AS first_ingest_id,
        first_value(b.source_line) OVER earlier AS first_line
    FROM reused AS b JOIN rounds AS r ON r.round_id = b.round_id
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
    rows = connection.execute(
        _DUPLICATE_BET_IDS.format(where=where), (*params, json.dumps(sorted(games)))
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


def _check_rounds(
    connection: sqlite3.Connection,
    games: Mapping[str, GameSpec],
    month: str | None,
    sink: _FindingSink,
    result: VerifyResult,
    progress: Callable[[int], None] | None,
    hands: dict[str, int],
) -> None:
    """The streaming pass: each round of a configured game through every round check, and
    into the totals; the hand of each settled round of a shoe into ``hands``, by round id."""
    cache = CheckCache()
    checks = tuple(CHECKS.values())
    totals = Totals(result.tables, result.bet_totals)
    unconfigured = result.unconfigured_rounds
    rounds_checked = bets_checked = seen = 0
    for seen, (round, files) in enumerate(read_rounds(connection, month), 1):
        if progress is not None and not seen % PROGRESS_EVERY:
            progress(seen)
        game = games.get(round.game_id)
        if game is None:
            # Loaded under another configuration: nothing to judge it by here; counted.
            unconfigured[round.game_id] = unconfigured.get(round.game_id, 0) + 1
            continue
        rounds_checked += 1
        bets_checked += len(round.bets)
        context = CheckContext.of(round, files, cache)
        outcome = context.outcome
        totals.add(round, outcome)
        if outcome is not None and round.shoe_id is not None and len(hands) < HANDS_HANDED_OVER:
            hands[round.round_id] = encode_outcome(outcome)
        for check in checks:
            findings = check(round, game, context)
            if findings:
                sink.extend(findings)
    result.rounds_checked += rounds_checked
    result.bets_checked += bets_checked
    if progress is not None:
        progress(seen)
