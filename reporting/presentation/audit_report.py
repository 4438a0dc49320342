"""The month's audit as a report a person reads: one self-contained HTML page and its PDF.

:func:`build_audit_report` gathers what verify found and checked (:class:`VerifyResult`), the
statistics against theory, the month's audit records (:class:`MonthAudit`), the findings with
their evidence (:func:`reporting.figures.evidence.findings_with_evidence`) and the shoes to
draw into one frozen view model, :class:`AuditReport`, with every chart and road already
drawn as SVG (:mod:`reporting.presentation.charts`, :mod:`reporting.presentation.roads`).
The templates of ``reporting/templates/audit/`` only display it, through the filters of
:func:`reporting.presentation.i18n.make_environment`; the report is in English, the audit
workbook's language, so its words are written in the templates (no catalogue entries).

:func:`write_audit_report` writes ``audit-YYYY-MM.html`` and ``audit-YYYY-MM.pdf`` atomically,
the same bytes for the same report (the PDF's dates are the as-of date, as the rule sheets').
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from fractions import Fraction
from operator import attrgetter
from pathlib import Path
from types import MappingProxyType
from typing import NamedTuple

from reporting.config.loader import OperatorConfig
from reporting.engine.cards import SUIT_SYMBOLS
from reporting.figures.audit import hours_dealt, month_hours, month_minutes
from reporting.figures.audit_records import (
    FINDING_SEVERITY,
    AvailabilityGap,
    DisclosureCheck,
    MoneyRow,
    MonthAudit,
    Provenance,
    Severity,
    VoidRound,
)
from reporting.figures.evidence import FindingEvidence, MonthEvidence
from reporting.figures.statistics import CONFIDENCE_LABEL, OutcomeTest, RtpCheck
from reporting.files import write_all_atomically
from reporting.presentation import charts
from reporting.presentation.audit_charts import (
    MAX_TABLES,
    TABLES_PER_CHART,
    Chart,
    GameCharts,
    game_charts,
)
from reporting.presentation.audit_shoes import (
    ShoePanel,
    ShoeView,
    shoe_panels,
    shoe_views,
)
from reporting.presentation.bet_words import bet_names
from reporting.presentation.i18n import make_environment
from reporting.presentation.listing import Shown
from reporting.presentation.sign_off import ATTESTATION, REVIEWER_FIELDS, LicenceLine, licence_lines
from reporting.records import (
    REJECT_REASONS,
    Month,
    finding_advice,
    finding_title,
    reject_advice,
    reject_title,
)
from reporting.verify.bearing import LateMonth, MonthAlerts, RejectedFile, RejectedRecord
from reporting.verify.coverage import CheckNotRun
from reporting.verify.run import VerifyResult

__all__ = [
    "LANGUAGE",
    "MAX_GAPS",
    "MAX_INPUTS",
    "MAX_LISTED_FILES",
    "MAX_SHOES",
    "MAX_TABLES",
    "MAX_VOIDS",
    "TABLES_PER_CHART",
    "TEMPLATE",
    "WORKBOOK_SHEETS",
    "AuditReport",
    "Chart",
    "EvidenceLine",
    "GameCharts",
    "KindLine",
    "ShoePanel",
    "ShoeView",
    "UncheckedAvailability",
    "audit_file_name",
    "build_audit_report",
    "cards_text",
    "render_audit_html",
    "report_file_names",
    "shoe_views",
    "write_audit_report",
]


#: The report's template, relative to ``reporting/templates/``.
TEMPLATE = "audit/report.html.j2"
#: The report's language: the audit workbook's.
LANGUAGE = "en"
#: Shoes drawn at most (those with the most findings); the rest are counted.
MAX_SHOES = 20
#: Void rounds listed at most; the rest are counted (the workbook lists them all).
MAX_VOIDS = 50
#: Input files listed at most; the rest are counted (the workbook's Sign-off sheet lists them
#: all, and the store digest covers them): a month exported as a file per table and hour,
#: thousands of them, printed a page per forty files, in minutes and gigabytes.
MAX_INPUTS = 100
#: Files with rejected lines, and inbox files not read, listed at most, each; the rest are
#: counted (the workbook's Rejected records sheet names every record with its file, and
#: manifest.json every file not read): an export that ends each of 5,000 files with a line it
#: cannot read, or a checksum file beside each log, made a PDF of minutes and gigabytes.
MAX_LISTED_FILES = 100
#: Availability gaps listed at most (the longest first); the rest are counted (the
#: workbook's Availability gaps sheet lists them all).
MAX_GAPS = 100
#: The audit workbook's sheets the report sends a reader to for what it leaves out.
WORKBOOK_SHEETS = MappingProxyType(
    {
        "findings": "Findings",
        "void_rounds": "Void rounds",
        "shoes": "Shoes",
        "inputs": "Sign-off",
        "rejected_files": "Rejected records",
        "money": "Money",
        "outcomes": "Outcome tests",
        "rtp": "RTP checks",
        "gaps": "Availability gaps",
        "ingest": "Ingest log",
    }
)


def cards_text(codes: str | None) -> str:
    """The store's card codes with suit symbols, as a reader writes cards.

    >>> cards_text("9H KS TD"), cards_text(""), cards_text(None)
    ('9♥ K♠ 10♦', '', '')
    """
    if not codes:
        return ""
    return " ".join(
        ("10" if code[:-1] == "T" else code[:-1]) + SUIT_SYMBOLS.get(code[-1], code[-1])
        for code in codes.split()
    )


@dataclass(frozen=True, slots=True)
class KindLine:
    """A finding kind of the month: its severity, its count, how many the report shows."""

    kind: str
    severity: Severity
    count: int
    shown: int

    @property
    def left_out(self) -> int:
        """Findings of the kind the report does not show (the workbook lists them)."""
        return self.count - self.shown


@dataclass(frozen=True, slots=True)
class EvidenceLine:
    """A finding with its evidence, ready to show (cards with suit symbols)."""

    finding: FindingEvidence
    player_cards: str
    banker_cards: str


_CONFIGURATION = (
    "where a line names the configuration (a key missing, a declared RTP, a bet's pay or"
    " limits), correct it there: the next run publishes the pages"
)
_OTHER = "each line says what holds its pages back"
#: What to do about a draft page, by the kind of its reason (:class:`reporting.records.Doubt`).
DRAFT_ADVICE: dict[str, str] = {
    "missing_key": _CONFIGURATION,
    "declared_above_theory": _CONFIGURATION,
    "declared_below_minimum": _CONFIGURATION,
    "favourable_bet": _CONFIGURATION,
    "small_stake_wins_nothing": _CONFIGURATION,
    "small_stake_favourable": _CONFIGURATION,
    "no_play": "a month without play: make sure no log of the month is missing from the inbox",
    "no_round_logs": "pages made without the round logs: run them from the month's store",
    "outside_bound": (
        "a month's figure outside its statistical bound: review the game's rounds and payouts"
        " with the studio"
    ),
}


class UncheckedAvailability(NamedTuple):
    """A live game whose pages say "open 24 hours" with no ``availability_gap_minutes``, and
    the local hours of the month in which its tables dealt a round (of ``hours``), for the
    reader to weigh what was not looked for. ``clock_went_back``: the month passed through
    more time than its clock hours (the hour the clocks went through twice counts once: 744
    clock hours in October in Rome, beside its 44,700 minutes elsewhere in the report)."""

    game_id: str
    hours_dealt: int
    hours: int
    clock_went_back: bool = False


@dataclass(frozen=True, slots=True)
class AuditReport:
    """Everything the audit report shows, computed; the templates format and lay it out."""

    operator: str
    licences: tuple[LicenceLine, ...]  # the licence of each jurisdiction of its games
    month: Month
    as_of: date
    tool_version: str
    games: tuple[tuple[str, str], ...]  # id, name
    tables: int
    rounds_checked: int
    bets_checked: int
    bets_unverified: int  # of a type verify does not settle: not checked, counted apart
    kinds: tuple[KindLine, ...]  # by severity, then kind
    checks_not_run: tuple[CheckNotRun, ...]
    drafts: tuple[tuple[str, str], ...]  # game id, a disclosure warning
    provenance: Provenance
    findings: tuple[tuple[KindLine, tuple[EvidenceLine, ...]], ...]
    #: a game's month row per currency, its first MAX_TABLES tables, how many are left out
    money: tuple[tuple[MoneyRow, tuple[MoneyRow, ...], int], ...]
    voids: tuple[VoidRound, ...]
    voids_left_out: int
    gaps: tuple[AvailabilityGap, ...]
    disclosures: tuple[DisclosureCheck, ...]
    charts: tuple[GameCharts, ...]
    shoes: tuple[ShoePanel, ...]
    shoes_left_out: int
    shoes_with_findings: int
    # What was not read or not verified (the month's alerts):
    rejected_files: tuple[RejectedFile, ...]  # by file name
    first_rejects: tuple[RejectedRecord, ...]  # the first, line by line
    unread_files: tuple[str, ...]
    unverified_rounds: tuple[tuple[str, int], ...]  # game id, rounds of an unlisted game
    availability: tuple[tuple[str, int, str], ...]  # game id, gaps, what they contradict
    # game id, rounds stored in the month that settled outside it in the game's zone, the zone
    misplaced_rounds: tuple[tuple[str, int, str], ...]
    # month, rounds, why: rounds of other months this run loaded that no report counts
    late_rounds: tuple[LateMonth, ...]
    # file, the names of its fields the tool does not read (of the files behind the month)
    # (None: its fields were not looked for, a file loaded before the store kept them)
    fields_not_read: tuple[tuple[str, tuple[str, ...] | None], ...] = ()
    # game id, its shoes whose hand numbers skip some, in a line (verify.hands.describe_missing)
    hands_missing: tuple[tuple[str, str], ...] = ()
    # game id, its shoes not checked for hands missing, in a line
    # (verify.hands.describe_not_judged)
    hands_not_judged: tuple[tuple[str, str], ...] = ()
    # the month's alerts' word: every record read and checked (MonthAlerts.all_read_and_checked)
    all_read_and_checked: bool = False

    bet_names: tuple[tuple[str, str], ...] = ()  # bet type, its English name
    # Outside their 99.9% bounds (unlikely by chance; no rule broken): every bet type's RTP,
    # and each table's outcomes.
    rtp_flags: tuple[RtpCheck, ...] = ()
    outcome_flags: tuple[OutcomeTest, ...] = ()
    # Live games whose pages say "open 24 hours" with no availability_gap_minutes: their
    # tables' idle stretches were not looked for (each with the hours it was dealt in).
    availability_unchecked: tuple[UncheckedAvailability, ...] = ()
    # Games whose tables' idle stretches were looked for (GameSpec.availability_checked, as
    # the audit's gaps) and that dealt in the month: game id, threshold in minutes.
    availability_checked: tuple[tuple[str, int], ...] = ()
    # Games looked for so that dealt no round at all in the month: no table was dealing.
    availability_idle: tuple[str, ...] = ()
    # Every void round of the month and its bets (refunded), counted among those checked.
    void_rounds: int = 0
    void_bets: int = 0

    def kind_title(self, kind: str) -> str:
        """A finding kind as a person reads it (a kind of a later version: its code)."""
        return finding_title(kind)

    @staticmethod
    def kind_advice(kind: str) -> str | None:
        """What to do about a finding kind, to follow "What to do:" (a kind of a later
        version: None, and the report says nothing)."""
        advice = finding_advice(kind)
        return advice and advice[0].lower() + advice[1:]

    @staticmethod
    def reject_title(reason: str) -> str:
        """A reject reason as a person reads it (a reason of a later version: its code)."""
        return reject_title(reason)

    @staticmethod
    def reasons_in_order(by_reason: Mapping[str, int]) -> list[tuple[str, int]]:
        """A file's rejected lines by reason, as a person reads each, in the contract's order
        (a reason of a later version last, by its code)."""
        rank = {reason: place for place, reason in enumerate(REJECT_REASONS)}
        ordered = sorted(by_reason, key=lambda reason: (rank.get(reason, len(rank)), reason))
        return [(reject_title(reason), by_reason[reason]) for reason in ordered]

    def told(self, item: RejectedFile) -> str:
        """What became of a file's rejected lines, as the summary says it
        (:meth:`RejectedFile.told`), its reasons in words: "Amount not valid: 2"."""
        titled = self.reasons_in_order(item.by_reason)
        return item.told(", ".join(f"{title}: {number:,}" for title, number in titled))

    def bet_title(self, bet_type: str) -> str:
        """A bet type by its name (a provider's type the tool does not know: as logged)."""
        return dict(self.bet_names).get(bet_type, bet_type)

    @staticmethod
    def band_points(check: RtpCheck) -> Fraction:
        """The half-width of an RTP check's 99.9% band, in percentage points (exact)."""
        return Fraction(check.bound) * 100

    @property
    def draft_advice(self) -> tuple[str, ...]:
        """What to do about the month's draft pages: one sentence for each kind of reason
        they hold (:data:`DRAFT_ADVICE`), in the order the reasons come."""
        advice = (
            DRAFT_ADVICE.get(getattr(warning, "kind", ""), _OTHER) for _, warning in self.drafts
        )
        return tuple(dict.fromkeys(advice))

    @property
    def rejected(self) -> int:
        """Rejected records bearing on the month."""
        return sum(item.rejected for item in self.rejected_files)

    @property
    def rejects_advice(self) -> list[tuple[str, str, str]]:
        """What to do about the month's rejected lines, for each reason they have (in the
        contract's order): its words, its code and the advice (:data:`REJECT_ADVICE`; a
        reason of a later version of the tool: none)."""
        reasons = {reason for item in self.rejected_files for reason in item.by_reason}
        return [
            (reject_title(reason), reason, advice)
            for reason in REJECT_REASONS
            if reason in reasons and (advice := reject_advice(reason)) is not None
        ]

    @property
    def outcome_flags_shown(self) -> Shown:
        """The first :data:`MAX_TABLES` tables whose outcomes lie outside their region."""
        return Shown.of(self.outcome_flags, MAX_TABLES)

    @property
    def inputs_shown(self) -> Shown:
        """The first :data:`MAX_INPUTS` input files (the workbook's Sign-off sheet lists all)."""
        return Shown.of(self.provenance.inputs, MAX_INPUTS)

    @property
    def rejected_files_shown(self) -> Shown:
        """The first :data:`MAX_LISTED_FILES` files with rejected lines, by name."""
        return Shown.of(self.rejected_files, MAX_LISTED_FILES)

    @property
    def unread_files_shown(self) -> Shown:
        """The first :data:`MAX_LISTED_FILES` inbox files not read (manifest.json names all)."""
        return Shown.of(self.unread_files, MAX_LISTED_FILES)

    @property
    def fields_not_read_shown(self) -> Shown:
        """The first :data:`MAX_LISTED_FILES` files with fields not read (the workbook's
        Ingest log sheet names every file's)."""
        return Shown.of(self.fields_not_read, MAX_LISTED_FILES)

    @property
    def gaps_shown(self) -> Shown:
        """The longest :data:`MAX_GAPS` availability gaps, in their order (the workbook lists
        all)."""
        return Shown.of(self.gaps, MAX_GAPS, key=lambda gap: -gap.minutes)

    @property
    def input_files(self) -> int:
        """The files behind the month, those listed and those left out."""
        return len(self.provenance.inputs)

    @property
    def rejects_left_out(self) -> int:
        """Rejected records the report does not show line by line (the workbook lists them)."""
        return self.rejected - len(self.first_rejects)

    @property
    def everything_read_and_checked(self) -> bool:
        """Every record of the inbox read, every round and bet verified, every check run: the
        month's alerts' word, and no bet of a type the tool does not settle, no live game's
        availability unchecked."""
        return self.all_read_and_checked and not (
            self.bets_unverified or self.availability_unchecked
        )

    @property
    def finding_count(self) -> int:
        """Findings of every kind."""
        return sum(line.count for line in self.kinds)

    @property
    def title(self) -> str:
        """The document's title."""
        return f"Audit of {self.month} · {self.operator}"


def _kind_lines(result: VerifyResult, evidence: MonthEvidence) -> tuple[KindLine, ...]:
    counts = {str(kind): count for kind, count in result.findings_by_kind.items() if count}
    for kind, count in evidence.counts.items():
        counts.setdefault(kind, count)
    shown: dict[str, int] = {}
    for finding in evidence.findings:
        shown[finding.kind] = shown.get(finding.kind, 0) + 1
    lines = [
        KindLine(kind, FINDING_SEVERITY.get(kind, Severity.LOW), count, shown.get(kind, 0))
        for kind, count in counts.items()
    ]
    return tuple(sorted(lines, key=lambda line: (line.severity.rank, line.kind)))


def _findings(
    kinds: tuple[KindLine, ...], evidence: MonthEvidence
) -> tuple[tuple[KindLine, tuple[EvidenceLine, ...]], ...]:
    by_kind: dict[str, list[EvidenceLine]] = {}
    for finding in evidence.findings:
        line = EvidenceLine(
            finding, cards_text(finding.player_cards), cards_text(finding.banker_cards)
        )
        by_kind.setdefault(finding.kind, []).append(line)
    return tuple((kind, tuple(by_kind.get(kind.kind, ()))) for kind in kinds)


def _money(audit: MonthAudit) -> tuple[tuple[MoneyRow, tuple[MoneyRow, ...], int], ...]:
    """Each game's month row per currency, with its first :data:`MAX_TABLES` tables' month
    rows (by table id) and how many more it has."""
    months = [row for row in audit.money if row.table_id is None and row.day is None]
    tables: dict[tuple[str, str], list[MoneyRow]] = {}
    for row in audit.money:
        if row.table_id is not None and row.day is None:
            tables.setdefault((row.game_id, row.currency), []).append(row)
    shown = []
    for month in sorted(months, key=lambda row: (row.game_id, row.currency)):
        rows = sorted(
            tables.get((month.game_id, month.currency), ()), key=lambda r: r.table_id or ""
        )
        shown.append((month, tuple(rows[:MAX_TABLES]), max(0, len(rows) - MAX_TABLES)))
    return tuple(shown)


# Long on purpose: one keyword per field of the report's record, in the record's order.
def build_audit_report(
    *,
    config: OperatorConfig,
    month: str,
    as_of: date,
    tool_version: str,
    result: VerifyResult,
    outcome_tests: Sequence[OutcomeTest],
    rtp_checks: Sequence[RtpCheck],
    audit: MonthAudit,
    evidence: MonthEvidence,
    alerts: MonthAlerts,
    shoes: Sequence[ShoeView] = (),
) -> AuditReport:
    """The view model of a month's audit report (see the module's text)."""
    parsed = Month.parse(month)
    if audit.month != month or evidence.month != month:
        raise ValueError(
            f"the audit ({audit.month}) and the evidence ({evidence.month}) are not of {month}"
        )
    kinds = _kind_lines(result, evidence)
    panels, shoes_left_out, shoes_with_findings = shoe_panels(shoes, MAX_SHOES)
    voids = tuple(audit.void_rounds[:MAX_VOIDS])
    dealt = {hour.game_id for hour in audit.activity}  # the games with a round in the month
    return AuditReport(
        operator=config.name,
        licences=licence_lines(config),
        month=parsed,
        as_of=as_of,
        tool_version=tool_version,
        games=tuple(sorted((game.id, game.name) for game in config.games.values())),
        tables=len(result.tables),
        rounds_checked=result.rounds_checked,
        bets_checked=result.bets_checked,
        bets_unverified=result.bets_unverified,
        kinds=kinds,
        checks_not_run=tuple(result.checks_not_run),
        drafts=tuple(
            (check.game_id, warning) for check in audit.disclosures for warning in check.warnings
        ),
        provenance=audit.provenance,
        findings=_findings(kinds, evidence),
        money=_money(audit),
        voids=voids,
        voids_left_out=len(audit.void_rounds) - len(voids),
        gaps=audit.gaps,
        disclosures=audit.disclosures,
        charts=game_charts(outcome_tests, rtp_checks, audit, dict(bet_names(config, LANGUAGE))),
        shoes=panels,
        shoes_left_out=shoes_left_out,
        shoes_with_findings=shoes_with_findings,
        rejected_files=alerts.rejected_files,
        first_rejects=alerts.first_rejects,
        unread_files=alerts.unread_files,
        unverified_rounds=tuple(sorted(alerts.unverified_rounds.items())),
        late_rounds=alerts.late_rounds,
        fields_not_read=alerts.fields_not_read,
        hands_missing=tuple(alerts.hands_missing_by_game),
        hands_not_judged=tuple(alerts.hands_not_judged_by_game),
        all_read_and_checked=alerts.all_read_and_checked,
        misplaced_rounds=tuple(
            (game_id, rounds, timezone)
            for game_id, (rounds, timezone) in sorted(alerts.misplaced_rounds.items())
        ),
        availability=tuple(
            (game_id, sum(gap.game_id == game_id for gap in audit.gaps), problem)
            for game_id, problems in sorted(alerts.availability.items())
            for problem in problems
        ),
        bet_names=bet_names(config, LANGUAGE),
        rtp_flags=tuple(check for check in rtp_checks if check.flagged),
        outcome_flags=tuple(test for test in outcome_tests if test.flagged),
        availability_unchecked=tuple(
            UncheckedAvailability(
                game.id,
                hours_dealt(audit.activity, game.id),
                month_hours(parsed, game.timezone),
                month_minutes(parsed, game.timezone) > 60 * month_hours(parsed, game.timezone),
            )
            for game in sorted(config.games.values(), key=attrgetter("id"))
            if game.availability_unchecked
        ),
        availability_checked=tuple(
            sorted(
                (game.id, game.availability_gap_minutes)
                for game in config.games.values()
                if game.availability_checked and game.id in dealt
            )
        ),
        availability_idle=tuple(
            sorted(
                game.id
                for game in config.games.values()
                if game.availability_checked and game.id not in dealt
            )
        ),
        void_rounds=len(audit.void_rounds),
        void_bets=sum(void.bets for void in audit.void_rounds),
    )


def render_audit_html(report: AuditReport) -> str:
    """The report as one self-contained HTML page (CSS inlined, SVG inline)."""
    return (
        make_environment(LANGUAGE)
        .get_template(TEMPLATE)
        .render(
            report=report,
            sheets=WORKBOOK_SHEETS,
            reviewer=REVIEWER_FIELDS,
            attestation=ATTESTATION,
            confidence=CONFIDENCE_LABEL,
            band_clip=charts.BAND_CLIP_POINTS,
        )
    )


def audit_file_name(month: str, extension: str) -> str:
    """The name of a month's audit file: ``audit-YYYY-MM.xlsx`` (the workbook), ``.html`` and
    ``.pdf`` (the report)."""
    return f"audit-{Month.parse(month)}.{extension}"


def report_file_names(month: str) -> tuple[str, str]:
    """The report's file names for a month: ``audit-YYYY-MM.html`` and ``.pdf``."""
    return audit_file_name(month, "html"), audit_file_name(month, "pdf")


def write_audit_report(folder: Path, report: AuditReport) -> list[Path]:
    """Write the report's HTML and PDF into ``folder`` as one set (a full disk under the PDF
    leaves the HTML of the run before too, never one of each); their paths."""
    html_name, pdf_name = report_file_names(str(report.month))
    from reporting.presentation.pdf import html_to_pdf

    html = render_audit_html(report)
    pdf = html_to_pdf(html, report.as_of, author=report.operator)
    files = [(Path(folder) / html_name, html.encode("utf-8")), (Path(folder) / pdf_name, pdf)]
    write_all_atomically(files)
    return [path for path, _ in files]
