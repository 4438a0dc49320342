"""The audit workbook: one ``.xlsx`` for the compliance officer, the same bytes for the same inputs.

Sheets, in order:

* **Summary**: operator, period, as-of date and tool version, then one row per game (rounds,
  bets, stakes, payouts, actual against theoretical and declared RTP, findings by kind), and the
  rejected records of the period by reason.
* **Findings**: every row of the ``findings`` table for the period, heaviest first, then by
  source file and line.
* **Checks not run**: per game, each check that could not judge some rounds (or bets) for want
  of a field the export lacks (no shoe id, no placement time), of how many, and why
  (:mod:`reporting.verify.coverage`); their count is on the Summary.
* **Rejected records**: the lines ingest could not read that bear on the period (their month,
  or their file's: :mod:`reporting.verify.bearing`).
* **Ingest log**: every file ever loaded, with what it contributed.
* **Outcome tests** and **RTP checks**: the statistics of :mod:`reporting.figures.statistics`. They are
  two sheets rather than two tables on one so that each keeps a frozen header, an autofilter and
  a header row repeated on every printed page (a sheet has one of each).
* **Pages**: from the monthly job, each game's pages of the month: ready to publish, or
  drafts, with each problem that marks them (a required field missing, a declared RTP the
  theory does not bear out); the count of games with drafts is on the Summary.

Everything that varies comes in as an argument: the as-of date pins the document properties
and the zip entry times, so a regulator can rebuild the file and compare hashes. Text from the
round logs (ids, accounts, messages, raw lines, file names) is untrusted: every text cell is
stored as a string, so a value such as ``=HYPERLINK(...)`` never becomes a formula. Large
sheets stream from the store into a write-only workbook, so memory stays flat.

The figures come in as records (:mod:`reporting.figures`; the stored rows of the period in a
:class:`~reporting.figures.ledger.PeriodLedger`): no SQL runs here. One module per group of
sheets, each sheet one writer in the table of :func:`write_audit_workbook`: ``period``
(Summary, Findings, Checks not run, Rejected records, Ingest log, Pages), ``statistics``
(Outcome tests, RTP checks), ``month`` (the registers of :data:`MONTH_SHEETS` and Shoes),
``chart_sheet`` (Charts), ``sign_off`` (Sign-off), on the cells and tables of ``cells``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping, Sequence
from datetime import date
from pathlib import Path

from openpyxl import Workbook

from reporting.config.loader import OperatorConfig
from reporting.figures.audit_records import MonthAudit
from reporting.figures.ledger import PeriodLedger
from reporting.figures.statistics import OutcomeTest, RtpCheck
from reporting.files import write_atomically
from reporting.presentation.audit_xlsx.cells import _Book, _Styles
from reporting.presentation.audit_xlsx.chart_sheet import _write_charts
from reporting.presentation.audit_xlsx.month import (
    _write_activity,
    _write_disclosures,
    _write_gaps,
    _write_limits,
    _write_money,
    _write_shoes,
    _write_void_rounds,
)
from reporting.presentation.audit_xlsx.period import (
    _write_checks_not_run,
    _write_findings,
    _write_ingest_log,
    _write_pages,
    _write_rejects,
    _write_summary,
)
from reporting.presentation.audit_xlsx.sign_off import _write_sign_off
from reporting.presentation.audit_xlsx.statistics import _write_outcome_tests, _write_rtp_checks
from reporting.presentation.audit_xlsx.summary_lines import summary_meta
from reporting.presentation.sign_off import licence_lines
from reporting.presentation.workbook_base import (
    HEADER_LIMIT,
    cell_text,
    pin_properties,
    save_workbook,
)
from reporting.verify.run import VerifyResult
from reporting.verify.shoes import ShoeSummary

__all__ = ["MONTH_SHEETS", "SHEETS", "ShoeSummary", "write_audit_workbook"]


#: Sheet names, in workbook order.
SHEETS = (
    "Summary",
    "Findings",
    "Void rounds",
    "Money",
    "Activity",
    "Availability gaps",
    "Shoes",
    "Limits",
    "Disclosure check",
    "Checks not run",
    "Rejected records",
    "Ingest log",
    "Outcome tests",
    "RTP checks",
    "Charts",
    "Pages",
    "Sign-off",
)


#: The sheets written only with the month's audit records (``audit``); Shoes only with
#: ``shoes``. Without either, the workbook holds the other sheets, in the same order.
MONTH_SHEETS = frozenset(
    {
        "Void rounds",
        "Money",
        "Activity",
        "Availability gaps",
        "Limits",
        "Disclosure check",
        "Charts",
        "Sign-off",
    }
)


# Long on purpose: one writer per sheet, listed in SHEETS order, the arguments passed through.
def write_audit_workbook(
    path: Path,
    ledger: PeriodLedger,
    config: OperatorConfig,
    result: VerifyResult,
    outcomes: Sequence[OutcomeTest],
    rtp: Sequence[RtpCheck],
    *,
    as_of: date,
    tool_version: str,
    publishing: Mapping[str, Sequence[str]] | None = None,
    audit: MonthAudit | None = None,
    shoes: Sequence[ShoeSummary] | None = None,
    unread: Sequence[str] | None = None,
    late: Mapping[str, int] | None = None,
) -> None:
    """Write the audit workbook of ``result.month`` (or of all months) to ``path``, atomically.

    ``publishing`` (the monthly job's) gives each game's problems that make its pages drafts,
    not for publication; without it (``verify``), the Pages sheet says no page was written.
    ``unread`` (the monthly job's too): the inbox's files the run did not read, each
    ``name (why)``, counted on the Summary and named on the Rejected records sheet; ``late``
    (the monthly job's too): the rounds of other months it loaded that no report counts, by
    month.

    ``result``, ``outcomes`` and ``rtp`` are what :func:`reporting.verify.verify`,
    :func:`~reporting.figures.statistics.outcome_tests` and :func:`~reporting.figures.statistics.rtp_checks`
    returned for the same period; ``ledger``
    (:func:`~reporting.figures.ledger.period_ledger`) holds its findings, rejects and ingest log. ``audit`` (the month's registers, money, activity, limits, disclosures and
    provenance) adds the sheets of :data:`MONTH_SHEETS`, ``shoes`` the Shoes sheet; without
    them those sheets are left out. ``as_of`` pins the document dates and the zip entry times:
    the same database and arguments give the same bytes. The file appears whole or not at all.
    """
    period = result.month or "all"
    workbook = Workbook(write_only=True)
    pin_properties(
        workbook,
        as_of=as_of,
        tool_version=tool_version,
        title=cell_text(f"Audit workbook, {config.name}, period {period}", HEADER_LIMIT),
    )
    # Styles are registered through a cell of some sheet: a scratch one, removed unwritten.
    scratch = workbook.create_sheet("styles")
    book = _Book(workbook, _Styles(scratch), config.name, period, as_of, tool_version)
    workbook.remove(scratch)
    currencies = {game.currency for game in config.games.values()}
    # What bears on the period: the Summary's counts, and the Sign-off's rows for remarks.
    meta = summary_meta(
        book,
        *(config, result, outcomes, rtp, publishing, audit, unread, late),
        ledger=ledger,
        shoes=shoes,
    )
    writers: dict[str, Callable[[], None]] = {
        "Summary": lambda: _write_summary(
            book, ledger, config, result, currencies, rtp=rtp, meta=meta
        ),
        "Findings": lambda: _write_findings(book, ledger, currencies),
        "Checks not run": lambda: _write_checks_not_run(book, result),
        "Rejected records": lambda: _write_rejects(book, ledger, unread or ()),
        "Ingest log": lambda: _write_ingest_log(book, ledger),
        "Outcome tests": lambda: _write_outcome_tests(book, result, outcomes),
        "RTP checks": lambda: _write_rtp_checks(book, config, rtp, currencies),
        "Pages": lambda: _write_pages(book, config, publishing),
    }
    if shoes is not None:
        writers["Shoes"] = lambda: _write_shoes(book, shoes)
    if audit is not None:
        writers |= {
            "Void rounds": lambda: _write_void_rounds(book, audit, currencies),
            "Money": lambda: _write_money(book, audit),
            "Activity": lambda: _write_activity(book, config, audit),
            "Availability gaps": lambda: _write_gaps(book, audit),
            "Limits": lambda: _write_limits(book, config, audit),
            "Disclosure check": lambda: _write_disclosures(book, audit),
            "Charts": lambda: _write_charts(book, config, audit, outcomes, rtp),
            "Sign-off": lambda: _write_sign_off(book, ledger, audit, meta, licence_lines(config)),
        }

    try:
        for name in SHEETS:
            if name in writers:
                writers[name]()
        write_atomically(Path(path), lambda handle: save_workbook(workbook, handle, as_of))
    except BaseException:
        _discard(workbook)
        raise


def _discard(workbook: Workbook) -> None:
    """After a failure: end each sheet's stream and delete its temporary file, best effort."""
    for sheet in workbook.worksheets:
        writer = sheet._writer  # openpyxl streams each write-only sheet into a temporary file
        if writer is None:
            continue
        with contextlib.suppress(Exception):
            if not sheet.closed:
                sheet.close()
        with contextlib.suppress(OSError, ValueError):
            writer.cleanup()
