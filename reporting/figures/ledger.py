"""The period's stored rows the audit workbook lists, as records: the findings counted by game
and kind, the rejected lines by reason, the ingest log, and every finding and rejected line.

The findings and the rejected lines of a period can run to millions: they stay in the store
and are read back in order each time their records are iterated (:class:`StoredRows`), beside
the widest value of each field, measured once by SQL so a sheet can size its columns before
its first row. Everything else is read once, when :func:`period_ledger` builds the record.
Which rejected lines bear on a month is the one rule of :mod:`reporting.verify.bearing`.
"""

from __future__ import annotations

import json
import sqlite3
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Generic, NamedTuple, TypeVar

from reporting.records import FINDING_SEVERITY, Severity
from reporting.verify.bearing import RejectScope, reject_scope

__all__ = [
    "FindingExtents",
    "FindingLine",
    "IngestFile",
    "PeriodLedger",
    "RejectExtents",
    "RejectLine",
    "StoredRows",
    "period_ledger",
]

Row = TypeVar("Row")
Extents = TypeVar("Extents")


class FindingLine(NamedTuple):
    """A stored finding with the account and stake of the bet it names (None: no bet)."""

    kind: str
    game_id: str
    round_id: str
    bet_id: str | None
    account: str | None
    stake: int | None  # cents
    expected_payout: int | None  # cents
    logged_payout: int | None  # cents
    rule: str | None
    source_file: str
    source_line: int
    message: str


class FindingExtents(NamedTuple):
    """The widest value of each field over a period's findings: a text's length in characters,
    an amount's largest value in cents (None: no finding has one)."""

    kind: int | None
    game_id: int | None
    round_id: int | None
    bet_id: int | None
    account: int | None
    stake: int | None
    expected_payout: int | None
    logged_payout: int | None
    rule: int | None
    source: int | None  # ``file:line``
    message: int | None


class RejectLine(NamedTuple):
    """A line ingest could not read, where it lies and why."""

    file_name: str
    line: int
    reason: str
    round_id: str | None
    message: str
    raw_text: str


class RejectExtents(NamedTuple):
    """The widest value of each field over a period's rejected lines (lengths; the largest
    line number)."""

    file_name: int | None
    line: int | None
    source: int | None  # ``file:line``
    reason: int | None
    round_id: int | None
    message: int | None
    raw_text: int | None


@dataclass(frozen=True, slots=True)
class IngestFile:
    """A file ever loaded and what it contributed (no ingest time: the figures depend on the
    inputs alone), with its rounds in the period."""

    file_name: str
    companion_name: str | None
    sha256: str
    size: int  # bytes
    format: str
    lines_read: int
    rounds_loaded: int
    rounds_in_period: int
    bets_loaded: int
    duplicates_skipped: int
    rejected: int
    #: Its fields the tool does not read (an exporter's own), by name; () for none; None: not
    #: looked for (a file loaded by a release that did not name them).
    fields_not_read: tuple[str, ...] | None = ()
    #: Its rounds of the period already stored with the same content (a re-export's).
    duplicates_in_period: int = 0

    @property
    def behind_period(self) -> bool:
        """Rounds of it in the period, loaded or repeated (:meth:`RejectScope.behind`)."""
        return bool(self.rounds_in_period or self.duplicates_in_period)


@dataclass(frozen=True, slots=True)
class StoredRows(Generic[Row, Extents]):
    """Rows too many to hold: the widest value of each field, measured once, and the rows
    themselves, read from the store in order each time they are iterated."""

    extents: Extents
    read: Callable[[], Iterator[Row]]

    def __iter__(self) -> Iterator[Row]:
        return self.read()


@dataclass(frozen=True, slots=True)
class PeriodLedger:
    """What the store holds of a period (a month, or None for all months) beside its figures."""

    month: str | None
    findings_by_game: Mapping[str, Mapping[str, int]]  # game -> kind -> findings
    rejects_by_reason: Mapping[str, int]
    ingest: tuple[IngestFile, ...]  # by ingest id
    findings: StoredRows[FindingLine, FindingExtents]  # by file, line, kind, bet
    rejects: StoredRows[RejectLine, RejectExtents]  # by file and line


#: The findings with the bet each names (its account and stake), when it names one.
_FINDINGS_WITH_BETS = (
    "findings f LEFT JOIN bets b ON b.round_id = f.round_id AND b.bet_id = f.bet_id"
)
_FINDING_EXTENTS = (
    "max(length(f.kind)), max(length(f.game_id)), max(length(f.round_id)),"
    " max(length(f.bet_id)), max(length(b.account)), max(b.stake_cents),"
    " max(f.expected_payout_cents), max(f.logged_payout_cents), max(length(f.rule)),"
    " max(length(f.source_file) + 1 + length(f.source_line)), max(length(f.message))"
)
_REJECT_EXTENTS = (
    "max(length(file_name)), max(line), max(length(file_name) + 1 + length(line)),"
    " max(length(reason)), max(length(round_id)), max(length(message)), max(length(raw_text))"
)


def period_ledger(connection: sqlite3.Connection, month: str | None) -> PeriodLedger:
    """The stored rows of ``month`` (None: of all months) the audit workbook lists."""
    scope = reject_scope(connection, month)
    return PeriodLedger(
        month=month,
        findings_by_game=_findings_by_game(connection, month),
        rejects_by_reason=_rejects_by_reason(connection, scope),
        ingest=_ingest_files(connection, scope),
        findings=_findings(connection, month),
        rejects=_rejects(connection, scope),
    )


def _findings_where(month: str | None, alias: str = "") -> tuple[str, tuple]:
    """The period's findings (``alias``: the findings table's name in a join, with its dot)."""
    return ("1", ()) if month is None else (f"{alias}report_month = ?", (month,))


def _findings_by_game(
    connection: sqlite3.Connection, month: str | None
) -> Mapping[str, Mapping[str, int]]:
    where, params = _findings_where(month)
    findings: dict[str, Counter[str]] = defaultdict(Counter)
    for game_id, kind, count in connection.execute(
        f"SELECT game_id, kind, count(*) FROM findings WHERE {where} GROUP BY game_id, kind",
        params,
    ):
        findings[game_id][kind] += count
    return MappingProxyType(
        {game_id: MappingProxyType(dict(kinds)) for game_id, kinds in findings.items()}
    )


def _rejects_by_reason(connection: sqlite3.Connection, scope: RejectScope) -> Mapping[str, int]:
    where, params = scope.rejects_where()
    return MappingProxyType(
        dict(
            connection.execute(
                f"SELECT reason, count(*) FROM rejected_records WHERE {where} GROUP BY reason",
                params,
            ).fetchall()
        )
    )


def _ingest_files(connection: sqlite3.Connection, scope: RejectScope) -> tuple[IngestFile, ...]:
    return tuple(
        IngestFile(
            file_name=file_name,
            companion_name=companion_name,
            sha256=sha256,
            size=size,
            format=file_format,
            lines_read=lines_read,
            rounds_loaded=rounds_loaded,
            rounds_in_period=scope.rounds_by_file.get(ingest_id, 0),
            bets_loaded=bets_loaded,
            duplicates_skipped=duplicates,
            rejected=rejected,
            fields_not_read=None if named is None else tuple(json.loads(named)),
            duplicates_in_period=scope.duplicates_by_file.get(ingest_id, 0),
        )
        for (
            ingest_id,
            file_name,
            companion_name,
            sha256,
            size,
            file_format,
            lines_read,
            rounds_loaded,
            bets_loaded,
            duplicates,
            rejected,
            named,
        ) in connection.execute(
            "SELECT ingest_id, file_name, companion_name, file_sha256, file_size, format,"
            " lines_read, rounds_loaded, bets_loaded, rounds_skipped_duplicate,"
            " rejected, fields_not_read FROM ingest_log ORDER BY ingest_id"
        )
    )


#: A finding's severity rank in SQL (0 the heaviest, as records.severity_rank; a kind of a
#: later version of the tool: low), so that the store sorts the findings, heaviest first.
_SEVERITY_RANK = (
    "CASE f.kind "
    + " ".join(f"WHEN '{kind}' THEN {severity.rank}" for kind, severity in FINDING_SEVERITY.items())
    + f" ELSE {Severity.LOW.rank} END"
)


def _findings(
    connection: sqlite3.Connection, month: str | None
) -> StoredRows[FindingLine, FindingExtents]:
    where, params = _findings_where(month, "f.")
    extents = FindingExtents(
        *connection.execute(
            f"SELECT {_FINDING_EXTENTS} FROM {_FINDINGS_WITH_BETS} WHERE {where}", params
        ).fetchone()
    )

    def read() -> Iterator[FindingLine]:
        cursor = connection.execute(
            "SELECT f.kind, f.game_id, f.round_id, f.bet_id, b.account, b.stake_cents,"
            " f.expected_payout_cents, f.logged_payout_cents, f.rule, f.source_file,"
            f" f.source_line, f.message FROM {_FINDINGS_WITH_BETS} WHERE {where}"
            f" ORDER BY {_SEVERITY_RANK}, f.source_file, f.source_line, f.kind, f.bet_id,"
            " f.finding_id",
            params,
        )
        return map(FindingLine._make, cursor)

    return StoredRows(extents, read)


def _rejects(
    connection: sqlite3.Connection, scope: RejectScope
) -> StoredRows[RejectLine, RejectExtents]:
    where, params = scope.rejects_where()
    extents = RejectExtents(
        *connection.execute(
            f"SELECT {_REJECT_EXTENTS} FROM rejected_records WHERE {where}", params
        ).fetchone()
    )

    def read() -> Iterator[RejectLine]:
        cursor = connection.execute(
            "SELECT file_name, line, reason, round_id, message, raw_text FROM rejected_records"
            f" WHERE {where} ORDER BY file_name, line, reject_id",
            params,
        )
        return map(RejectLine._make, cursor)

    return StoredRows(extents, read)
