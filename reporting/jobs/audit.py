"""A month's audit written out: the audit workbook and the audit report (HTML and PDF), from
verify's result and the month's audit figures; used by the monthly job and by ``verify``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence
from datetime import date
from pathlib import Path

from reporting import __version__
from reporting.config.loader import OperatorConfig
from reporting.figures.audit_records import MonthAudit
from reporting.figures.evidence import findings_with_evidence
from reporting.figures.ledger import period_ledger
from reporting.figures.statistics import OutcomeTest, RtpCheck, outcome_tests, rtp_checks
from reporting.presentation.audit_report import (
    AuditReport,
    audit_file_name,
    build_audit_report,
    shoe_views,
)
from reporting.presentation.audit_xlsx import write_audit_workbook
from reporting.verify.bearing import MonthAlerts
from reporting.verify.run import VerifyResult

__all__ = ["FINDINGS_PER_KIND", "month_report", "write_month_workbook"]

#: Findings of each kind the report shows with their evidence (the workbook lists them all):
#: a page of evidence costs the PDF about 45 ms a finding.
FINDINGS_PER_KIND = 20


def _statistics(
    verified: VerifyResult, config: OperatorConfig
) -> tuple[list[OutcomeTest], list[RtpCheck]]:
    return outcome_tests(verified.tables, config.games), rtp_checks(
        verified.bet_totals, config.games
    )


def month_report(
    connection: sqlite3.Connection,
    config: OperatorConfig,
    verified: VerifyResult,
    audit: MonthAudit,
    *,
    as_of: date,
    alerts: MonthAlerts,
    findings_per_kind: int = FINDINGS_PER_KIND,
    figures: tuple[list[OutcomeTest], list[RtpCheck]] | None = None,
) -> AuditReport:
    """The audit report of the month ``verified`` checked and ``audit`` describes, naming
    everything in ``alerts`` (what was not read or not verified); ``figures``: its outcome
    tests and RTP checks when already worked out."""
    outcomes, rtp = figures or _statistics(verified, config)
    return build_audit_report(
        config=config,
        month=audit.month,
        as_of=as_of,
        tool_version=__version__,
        result=verified,
        outcome_tests=outcomes,
        rtp_checks=rtp,
        audit=audit,
        evidence=findings_with_evidence(
            connection, audit.month, per_kind=findings_per_kind, games=config.games
        ),
        shoes=shoe_views(verified.shoes),
        alerts=alerts,
    )


def write_month_workbook(
    folder: Path,
    connection: sqlite3.Connection,
    config: OperatorConfig,
    verified: VerifyResult,
    audit: MonthAudit,
    *,
    as_of: date,
    alerts: MonthAlerts,
    publishing: Mapping[str, Sequence[str]] | None = None,
) -> tuple[Path, AuditReport]:
    """Write ``audit-YYYY-MM.xlsx`` into ``folder`` and build the month's report (what reads
    the store), which :func:`~reporting.presentation.audit_report.write_audit_report` renders,
    here or in a worker process; the workbook's path and the report."""
    workbook = folder / audit_file_name(audit.month, "xlsx")
    figures = _statistics(verified, config)
    write_audit_workbook(
        workbook,
        period_ledger(connection, verified.month),
        config,
        verified,
        *figures,
        as_of=as_of,
        tool_version=__version__,
        publishing=publishing,
        audit=audit,
        shoes=verified.shoes,
        unread=alerts.unread_files,
        late=alerts.late_by_month,
    )
    report = month_report(
        connection, config, verified, audit, as_of=as_of, alerts=alerts, figures=figures
    )
    return workbook, report
