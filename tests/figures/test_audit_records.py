"""The records of a month's audit (reporting.figures.audit_records)."""

from __future__ import annotations

from datetime import date

from reporting.figures.audit_records import FINDING_SEVERITY, MoneyRow, Severity
from reporting.records import FINDING_KINDS


def test_every_finding_kind_has_a_severity():
    assert sorted(map(str, FINDING_SEVERITY)) == sorted(FINDING_KINDS)
    assert FINDING_SEVERITY["payout_mismatch"] is Severity.HIGH
    assert FINDING_SEVERITY["unverified_bet"] is Severity.LOW


def test_gross_gaming_revenue_is_stakes_less_payouts_in_cents():
    row = MoneyRow("g", "T-1", date(2026, 10, 1), "EUR", 3, 1, 5, 2, 10_000, 9_650)
    assert row.ggr == 350
