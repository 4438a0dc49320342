"""The audit workbook's Summary lines above its table: the period, what was checked, and a
count of each thing that bears on it (the Sign-off sheet gives each count that is not zero a
row for the reviewer's remarks)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from reporting.config.loader import OperatorConfig
from reporting.figures.audit_records import MonthAudit
from reporting.figures.ledger import PeriodLedger
from reporting.figures.statistics import CONFIDENCE_LABEL, OutcomeTest, RtpCheck
from reporting.presentation.audit_xlsx.cells import COUNT, DATE, TEXT, _Alert, _Book
from reporting.verify.run import VerifyResult
from reporting.verify.shoes import ShoeSummary

__all__ = ["summary_meta"]

#: A Summary line: its label, its cell kind and its value (an :class:`_Alert` for a count of
#: what bears on the period).
Line = tuple[str, str, object]


def summary_meta(
    book: _Book,
    config: OperatorConfig,
    result: VerifyResult,
    outcomes: Sequence[OutcomeTest],
    rtp: Sequence[RtpCheck],
    publishing: Mapping[str, Sequence[str]] | None,
    audit: MonthAudit | None,
    unread: Sequence[str] | None = None,
    late: Mapping[str, int] | None = None,
    *,
    ledger: PeriodLedger,
    shoes: Sequence[ShoeSummary] | None = None,
) -> list[Line]:
    """The Summary's lines above its table: the period, what was checked, and each count of
    what bears on it (an :class:`_Alert`, emphasised when not zero; the Sign-off sheet gives
    each one that is not zero a row for the reviewer's remarks). ``unread``, ``late`` and
    ``publishing`` are the monthly job's (None: a line not shown), ``audit`` the month's
    registers, ``shoes`` verify's shoe summaries (the Shoes sheet's)."""
    # the files behind the period with fields of their own (the Ingest log names them)
    unnamed = sum(
        1
        for item in ledger.ingest
        if item.behind_period and (item.fields_not_read is None or item.fields_not_read)
    )
    meta: list[Line] = [
        ("Period", TEXT, book.period),
        ("As of", DATE, book.as_of),
        ("Tool version", TEXT, f"baccarat-report {book.tool_version}"),
        ("Rounds checked", COUNT, result.rounds_checked),
        ("Bets checked", COUNT, result.bets_checked),
        ("Bets not verified", COUNT, result.bets_unverified),
        (
            "Rounds not verified (game not configured)",
            COUNT,
            _Alert(sum(result.unconfigured_rounds.values())),
        ),
        ("Checks not run", COUNT, _Alert(len(result.checks_not_run))),
        ("Input files with fields not read", COUNT, _Alert(unnamed)),
    ]
    meta += _month_lines(config, publishing, audit, unread, late)
    if shoes is not None:  # rounds dealt from a shoe that no log loaded holds
        skipping = sum(1 for shoe in shoes if shoe.hands_missing)
        meta.append(("Shoes with hands missing", COUNT, _Alert(skipping)))
        unjudged = sum(1 for shoe in shoes if not shoe.hands_judged)  # a round without hand_no
        meta.append(("Shoes not checked for hands missing", COUNT, _Alert(unjudged)))
    meta += [
        (
            f"RTP checks outside {CONFIDENCE_LABEL}",
            COUNT,
            _Alert(sum(check.flagged for check in rtp)),
        ),
        (
            f"Outcome tests outside {CONFIDENCE_LABEL}",
            COUNT,
            _Alert(sum(test.flagged for test in outcomes)),
        ),
    ]
    return meta


def _month_lines(
    config: OperatorConfig,
    publishing: Mapping[str, Sequence[str]] | None,
    audit: MonthAudit | None,
    unread: Sequence[str] | None,
    late: Mapping[str, int] | None,
) -> list[Line]:
    """The lines of what only a month's run knows, each where it is given."""
    meta: list[Line] = []
    if unread is not None:  # the monthly job's inbox: its files not read
        meta.append(("Inbox files not read", COUNT, _Alert(len(unread))))
    if late is not None:  # the monthly job's: rounds of other months loaded, in no report
        months = ", ".join(f"{month}: {rounds:,}" for month, rounds in sorted(late.items()))
        count = _Alert(sum(late.values()), f"rounds of {months}" if late else None)
        meta.append(("Rounds of other months in no report", COUNT, count))
    if publishing is not None:  # the pages of the month: games whose pages are drafts
        drafts = sum(1 for game in config.games if publishing.get(game))
        meta.append(("Games with draft pages", COUNT, _Alert(drafts)))
    if audit is not None:  # the month's registers: its tables' idle stretches
        meta.append(("Availability gaps", COUNT, _Alert(len(audit.gaps))))
        unchecked = sorted(game.id for game in config.games.values() if game.availability_unchecked)
        count = _Alert(len(unchecked), ", ".join(unchecked) or None)
        meta.append(("Live games not checked for availability", COUNT, count))
    return meta
