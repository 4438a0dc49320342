"""The findings of a month with their evidence, for the audit report: each finding beside its
round's cards and its bet, from one SQL join of the stored findings, rounds and bets.

The report shows at most ``per_kind`` findings of each kind (the first by file and line) and
names how many it leaves out, which the audit workbook's Findings sheet lists whole. The
window functions count each kind while they number its findings, so the store is read once.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from types import MappingProxyType
from typing import NamedTuple

from reporting.figures.audit_records import FINDING_SEVERITY, Severity, column_names, from_rows
from reporting.records import SourceLocation
from reporting.store.damage import refuse_overlong_texts

__all__ = ["FindingEvidence", "MonthEvidence", "findings_with_evidence"]


class FindingEvidence(NamedTuple):
    """A stored finding with its round and bet (what the store holds of them)."""

    finding_id: int
    kind: str
    game_id: str
    round_id: str
    bet_id: str | None
    expected_payout: int | None  # cents
    logged_payout: int | None  # cents
    rule: str | None
    source_file: str
    source_line: int
    message: str
    # the round (None: the round is not in the store)
    table_id: str | None
    shoe_id: str | None
    hand_no: int | None
    settled_at: str | None  # UTC, the store's text
    status: str | None
    void_reason: str | None
    player_cards: str | None  # canonical codes, deal order
    banker_cards: str | None
    # the bet (None: a finding of the round, or a bet not in the store)
    account: str | None
    bet_type: str | None
    stake: int | None  # cents
    bet_payout: int | None  # cents, as logged
    currency: str | None

    @property
    def severity(self) -> Severity:
        """How much the finding weighs (:data:`FINDING_SEVERITY`)."""
        return FINDING_SEVERITY.get(self.kind, Severity.LOW)  # a kind of a later version: low

    @property
    def source(self) -> str:
        """``path:line`` of the record the finding is about."""
        return str(SourceLocation(self.source_file, self.source_line))


@dataclass(frozen=True, slots=True)
class MonthEvidence:
    """The findings a report shows with their evidence, and how many of each kind it leaves
    out."""

    month: str
    per_kind: int
    findings: tuple[FindingEvidence, ...]  # by severity, kind, then file and line
    counts: MappingProxyType  # kind -> findings of the month of that kind

    def left_out(self, kind: str) -> int:
        """Findings of ``kind`` the report does not show."""
        return max(self.counts.get(kind, 0) - self.per_kind, 0)


_EVIDENCE = """
WITH numbered AS (
    SELECT f.*,
        row_number() OVER (PARTITION BY f.kind
            ORDER BY f.source_file, f.source_line, f.bet_id, f.finding_id) AS number,
        count(*) OVER (PARTITION BY f.kind) AS of_kind
    FROM findings AS f
    WHERE f.report_month = ? AND f.game_id IN (SELECT value FROM json_each(?))
)
SELECT n.finding_id, n.kind, n.game_id, n.round_id, n.bet_id,
    n.expected_payout_cents AS expected_payout, n.logged_payout_cents AS logged_payout, n.rule,
    n.source_file, n.source_line, n.message,
    r.table_id, r.shoe_id, r.hand_no, r.settled_at, r.status, r.void_reason,
    r.player_cards, r.banker_cards,
    b.account, b.bet_type, b.stake_cents AS stake, b.payout_cents AS bet_payout, b.currency,
    n.of_kind
FROM numbered AS n
LEFT JOIN rounds AS r ON r.round_id = n.round_id
LEFT JOIN bets AS b ON b.round_id = n.round_id AND b.bet_id = n.bet_id
WHERE n.number <= ? OR n.number = 1
ORDER BY n.kind, n.number
"""


def findings_with_evidence(
    connection: sqlite3.Connection,
    month: str,
    per_kind: int = 50,
    *,
    games: Iterable[str] | None = None,
) -> MonthEvidence:
    """The stored findings of ``month`` (``YYYY-MM``) with their round and bet: at most
    ``per_kind`` of each kind (``0``: none shown, only counted), the first by source file
    and line, and the count of each kind. ``games``: only the findings of these games (the
    configured ones, which verify judged); every game's by default."""
    if per_kind < 0:
        raise ValueError(f"per_kind is a count of findings, not {per_kind}")
    counts: dict[str, int] = {}
    shown: list[FindingEvidence] = []
    if games is None:
        games = [game for (game,) in connection.execute("SELECT DISTINCT game_id FROM findings")]
    scope = json.dumps(sorted(games))
    cursor = connection.execute(_EVIDENCE, (month, scope, per_kind))
    columns = column_names(cursor)[:-1]  # the last: the count of the finding's kind
    for row in cursor:
        (finding,) = from_rows(FindingEvidence, columns, [row[:-1]])
        refuse_overlong_texts(finding, connection)
        counts[finding.kind] = row[-1]
        if per_kind:
            shown.append(finding)
    shown.sort(
        key=lambda f: (
            f.severity.rank,
            f.kind,
            f.source_file,
            f.source_line,
            f.bet_id or "",
            f.finding_id,
        )
    )
    return MonthEvidence(
        month, per_kind, tuple(shown), MappingProxyType(dict(sorted(counts.items())))
    )
