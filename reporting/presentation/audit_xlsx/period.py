"""The sheets of any period (a month, or all months): Summary, Findings, Checks not run,
Pages, Rejected records and Ingest log."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from reporting.config.loader import OperatorConfig
from reporting.engine.games import GameSpec
from reporting.engine.theory import game_odds
from reporting.figures.audit_records import Severity
from reporting.figures.ledger import PeriodLedger
from reporting.figures.regulators import declared_rtp_unsupported
from reporting.figures.statistics import RtpCheck, played_rtp
from reporting.presentation.audit_xlsx.cells import (
    COUNT,
    FLAG,
    LINE,
    MONEY,
    PERCENT,
    TEXT,
    WRAP,
    _Alert,
    _Book,
    _Column,
    _content_widths,
    _extent_widths,
    _money,
    _money_header,
    _ratio,
    _severity,
    _SheetWriter,
)
from reporting.records import FINDING_KINDS, REJECT_REASONS, SourceLocation, finding_title
from reporting.verify.checks import settled_bets
from reporting.verify.run import VerifyResult
from reporting.verify.totals import BetTotals


@dataclass
class _Play:
    """What was played on a game (or several) over settled rounds: every bet, from verify's
    totals (a bet of a type the engine does not settle included), and the theory of the bet
    types with one, from the RTP checks."""

    bets: int = 0
    stakes: int = 0  # cents
    payouts: int = 0  # cents
    theory: list[RtpCheck] = field(default_factory=list)  # the bet types with a theory

    def add(self, totals: BetTotals) -> None:
        self.bets += totals.bets
        self.stakes += totals.stakes
        self.payouts += totals.payouts

    def add_theory(self, check: RtpCheck) -> None:
        self.theory.append(check)

    @property
    def actual_rtp(self) -> Fraction | None:
        return Fraction(self.payouts, self.stakes) if self.stakes else None

    @property
    def theoretical_rtp(self) -> Fraction | None:
        """The exact RTP of each bet type with one, weighted by its stakes."""
        return played_rtp(self.theory)


def _write_summary(
    book: _Book,
    ledger: PeriodLedger,
    config: OperatorConfig,
    result: VerifyResult,
    currencies: set[str],
    *,
    rtp: Sequence[RtpCheck],
    meta: Sequence[tuple[str, str, object]],
) -> None:
    """The Summary sheet: what was checked and what bears on the period (``meta``, the lines
    of :func:`~reporting.presentation.audit_xlsx.summary_lines.summary_meta`: each count an alert when not zero, the sheet an officer opens
    first names all of them), and the findings and money by game."""
    findings = ledger.findings_by_game
    extra_kinds = sorted(
        {kind for counts in findings.values() for kind in counts} - set(FINDING_KINDS)
    )
    kinds = (*FINDING_KINDS, *extra_kinds)
    columns = _summary_columns(kinds, currencies)
    rows, total = _summary_rows(config, result, rtp, findings, kinds, currencies)
    rejects = ledger.rejects_by_reason
    reasons = (*REJECT_REASONS, *sorted(set(rejects) - set(REJECT_REASONS)))
    widths = _content_widths(columns, [*rows, total])
    widths[0] = max(
        widths[0],
        *(len(label) for label, _, _ in meta),
        *(len(reason) for reason in reasons),
        len("Rejected records"),
    )
    writer = _SheetWriter(book, "Summary", columns, widths, header_row=len(meta) + 3)
    writer.append([("title", f"Audit workbook: {book.operator}")], height=21)
    for label, kind, value in meta:
        named = isinstance(value, _Alert) and value.value and value.which
        writer.append([("label", label), (kind, value), *([("note", named)] if named else [])])
    writer.append([])
    writer.header()
    writer.rows(rows)
    writer.finish_table()
    writer.row(total, "total")
    writer.append([])
    settled = settled_bets(config.games.values())
    unsettled = any(bet_type not in settled for _, bet_type in result.bet_totals)
    for note in _summary_notes(one_currency=len(currencies) == 1, unsettled=unsettled):
        writer.append([("note", note)])
    writer.append([])
    _write_summary_rejects(writer, rejects, reasons, by_month=ledger.month is not None)


def _write_summary_rejects(
    writer: _SheetWriter, rejects: Mapping[str, int], reasons: Sequence[str], *, by_month: bool
) -> None:
    """The Summary's table of the period's rejected lines by reason."""
    writer.append([("header", "Rejected records"), ("header", "Lines")])
    for reason in reasons:
        writer.append([(TEXT, reason), (COUNT, _Alert(rejects.get(reason, 0)))], None)
    writer.append([(TEXT, "Total"), (COUNT, sum(rejects.values()))], "total")
    if by_month:
        writer.append(
            [
                (
                    "note",
                    "Counted here: the rejected lines whose game and settlement time put them"
                    " in this month, and the rejected lines whose month could not be read if"
                    " their file loaded rounds of this month or none (the Rejected records"
                    " sheet lists each).",
                )
            ]
        )


def _summary_columns(kinds: Sequence[str], currencies: set[str]) -> list[_Column]:
    """The per-game table's columns: one count per finding kind, its title written upwards
    (as the audit report names it)."""
    return [
        _Column("Game", TEXT),
        _Column("Jurisdiction", TEXT),
        _Column("Currency", TEXT),
        _Column("Rounds settled", COUNT),
        _Column("Rounds void", COUNT),
        _Column("Bets", COUNT),
        _Column(_money_header("Stakes", currencies), MONEY),
        _Column(_money_header("Payouts", currencies), MONEY),
        _Column("Actual RTP", PERCENT),
        _Column("Theoretical RTP of the play", PERCENT),
        _Column("Declared RTP", PERCENT),
        *(_Column(finding_title(kind), COUNT, rotate=True) for kind in kinds),
        _Column("Findings", COUNT),
    ]


def _plays(result: VerifyResult, rtp: Sequence[RtpCheck]) -> tuple[dict[str, _Play], _Play]:
    """What was played on each game, and on all of them."""
    play: dict[str, _Play] = defaultdict(_Play)
    all_play = _Play()
    for (game_id, _bet_type), totals in sorted(result.bet_totals.items()):
        play[game_id].add(totals)
        all_play.add(totals)
    for check in rtp:
        play[check.game_id].add_theory(check)
        all_play.add_theory(check)
    return play, all_play


def _summary_rows(
    config: OperatorConfig,
    result: VerifyResult,
    rtp: Sequence[RtpCheck],
    findings: Mapping[str, Mapping[str, int]],
    kinds: Sequence[str],
    currencies: set[str],
) -> tuple[list[tuple], tuple]:
    """A row per game (configured, played or with findings), and the All games row."""
    rounds: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for (game_id, _table), counts in result.tables.items():
        rounds[game_id][0] += counts.rounds
        rounds[game_id][1] += counts.void
    play, all_play = _plays(result, rtp)
    game_ids = sorted(set(config.games) | set(rounds) | set(play) | set(findings))
    rows = []
    for game_id in game_ids:
        game = config.games.get(game_id)
        settled, void = rounds.get(game_id, (0, 0))
        game_play = play.get(game_id, _Play())
        counts = findings.get(game_id, {})
        rows.append(
            (
                game_id,
                game.jurisdiction if game else None,
                game.currency if game else None,
                settled,
                void,
                game_play.bets,
                _money(game_play.stakes),
                _money(game_play.payouts),
                _ratio(game_play.actual_rtp),
                _ratio(game_play.theoretical_rtp),
                _declared(game),
                *(_Alert(counts.get(kind, 0)) for kind in kinds),
                _Alert(sum(counts.values())),
            )
        )
    one_currency = len(currencies) == 1
    total = (
        "All games",
        None,
        next(iter(currencies)) if one_currency else None,
        sum(settled for settled, _ in rounds.values()),
        sum(void for _, void in rounds.values()),
        all_play.bets,
        _money(all_play.stakes) if one_currency else None,
        _money(all_play.payouts) if one_currency else None,
        _ratio(all_play.actual_rtp) if one_currency else None,
        _ratio(all_play.theoretical_rtp) if one_currency else None,
        None,
        *(sum(counts.get(kind, 0) for counts in findings.values()) for kind in kinds),
        sum(sum(counts.values()) for counts in findings.values()),
    )
    return rows, total


def _declared(game: GameSpec | None) -> object:
    """A game's declared RTP as a share, emphasised when the theory of its bets does not
    bear it out (its pages are drafts: the Pages sheet says why)."""
    if game is None or game.declared_rtp is None:
        return None
    share = game.declared_rtp.scaleb(-2)
    return _Alert(share) if declared_rtp_unsupported(game, game_odds(game)) else share


def _summary_notes(*, one_currency: bool, unsettled: bool) -> list[str]:
    """The notes under the per-game table (``unsettled``: some bets are of a type the engine
    does not settle)."""
    notes = [
        "Bets, stakes and payouts are those of settled rounds (a void round refunds its bets),"
        " as in the RTP checks sheet.",
        "Theoretical RTP of the play: the exact RTP of each bet type weighted by its stakes"
        " (the Disclosure check's best theoretical RTP is that of the best bet offered).",
    ]
    if unsettled:
        notes.append(
            "Bets of a type this tool does not settle (unverified_bet) count in the bets, stakes,"
            " payouts and actual RTP, not in the theoretical RTP nor in the RTP checks sheet."
        )
    if not one_currency:
        notes.append(
            "Amounts are in each game's currency: the All games row adds no amounts across"
            " currencies."
        )
    return notes


#: Width of the reviewer's remarks column, in characters.
_REMARKS_WIDTH = 28


def _write_findings(book: _Book, ledger: PeriodLedger, currencies: set[str]) -> None:
    """Every finding of the period, readable in print: its severity, the bet's account and
    stake (joined from the bets table as the findings stream from the store), one source column
    and an empty column for the reviewer's remarks."""
    columns = [
        _Column("Severity", TEXT),
        _Column("Kind", TEXT),
        _Column("Game", TEXT),
        _Column("Round", TEXT, cap=24),
        _Column("Bet", TEXT, cap=16),
        _Column("Account", TEXT, cap=16),
        _Column(_money_header("Stake", currencies), MONEY),
        _Column(_money_header("Expected payout", currencies), MONEY),
        _Column(_money_header("Logged payout", currencies), MONEY),
        _Column("Rule", WRAP, cap=20),
        _Column("Source", WRAP, cap=30),
        _Column("Message", WRAP, cap=50),
        _Column("Remarks", WRAP, cap=_REMARKS_WIDTH),
    ]
    severity_width = max(len(severity) for severity in Severity)
    extents = (severity_width, *ledger.findings.extents, _REMARKS_WIDTH)
    writer = _SheetWriter(book, "Findings", columns, _extent_widths(columns, extents))
    writer.header()
    findings = (
        (
            *(_severity(line.kind), line.kind, line.game_id, line.round_id, line.bet_id),
            *(line.account, _money(line.stake), _money(line.expected_payout)),
            *(_money(line.logged_payout), line.rule),
            *(str(SourceLocation(line.source_file, line.source_line)), line.message, None),
        )
        for line in ledger.findings
    )
    writer.rows(
        findings,
        left_out_where="The heaviest are listed. Every finding of the period is in the store's"
        " findings table, and in the file verify --findings-file writes.",
    )
    writer.finish_table()


def _write_checks_not_run(book: _Book, result: VerifyResult) -> None:
    """Per game, each check that could not judge some records, of how many, and why."""
    columns = [
        _Column("Game", TEXT),
        _Column("Check", TEXT),
        _Column("Not run on", COUNT),
        _Column("Of", COUNT),
        _Column("Unit", TEXT),
        _Column("Why", WRAP, cap=50),
    ]
    rows = [
        (entry.game_id, entry.check, entry.records, entry.of, entry.unit, entry.why)
        for entry in result.checks_not_run
    ]
    writer = _SheetWriter(book, "Checks not run", columns, _content_widths(columns, rows))
    writer.header()
    writer.rows(rows)
    writer.finish_table()


def _write_pages(
    book: _Book, config: OperatorConfig, publishing: Mapping[str, Sequence[str]] | None
) -> None:
    """Each game's pages of the month: ready to publish, or a draft and each reason why (the
    problems its pages are marked for, and the exit code counts). Empty but for its header
    from ``verify``, which writes no page."""
    columns = [
        _Column("Game", TEXT),
        _Column("Draft", FLAG),
        _Column("Why not for publication", WRAP, cap=90),
    ]
    rows: list[tuple[object, ...]] = []
    for game_id in sorted(config.games) if publishing is not None else ():
        problems = publishing.get(game_id, ())
        if not config.games[game_id].languages:  # not "no": it has no page to publish
            unpaged = [(game_id, "no page", problem) for problem in problems]
            rows += unpaged or [(game_id, "no page", "its configuration lists no language")]
            continue
        rows += [(game_id, "yes", problem) for problem in problems] or [(game_id, "no", None)]
    writer = _SheetWriter(book, "Pages", columns, _content_widths(columns, rows))
    writer.header()
    writer.rows(rows, flagged_column=1)
    writer.finish_table()


#: The reason a file of the inbox the run did not read is listed under, beside rejected lines,
#: and what its row says.
NOT_READ = "not_read"
_NOT_READ_MESSAGE = "a file of the inbox this run did not read: none of its records is counted"


def _write_rejects(book: _Book, ledger: PeriodLedger, unread: Sequence[str]) -> None:
    """The period's rejected lines, then each inbox file the run did not read (a monthly
    run's: ``name (why)``), so that the sheet names everything not read."""
    columns = [
        _Column("File", WRAP, cap=28),
        _Column("Line", LINE),
        _Column("Source", WRAP, cap=32),
        _Column("Reason", TEXT),
        _Column("Round", TEXT, cap=28),
        _Column("Message", WRAP, cap=50),
        _Column("Raw line", WRAP, cap=70),
    ]
    extents = ledger.rejects.extents
    if unread:
        extents = extents._replace(
            file_name=max(extents.file_name or 0, *map(len, unread)),
            reason=max(extents.reason or 0, len(NOT_READ)),
            message=max(extents.message or 0, len(_NOT_READ_MESSAGE)),
        )
    writer = _SheetWriter(book, "Rejected records", columns, _extent_widths(columns, extents))
    writer.header()
    writer.rows(
        (
            (line.file_name, line.line, str(SourceLocation(line.file_name, line.line)))
            + (line.reason, line.round_id, line.message, line.raw_text)
            for line in ledger.rejects
        ),
        left_out_where="Every rejected line is in the store's rejected_records table.",
    )
    writer.rows(
        ((name, None, None, NOT_READ, None, _NOT_READ_MESSAGE, None) for name in unread),
        left_out_where="Every file not read is in the run's manifest.json.",
    )
    writer.finish_table()


def _fields_cell(fields: tuple[str, ...] | None) -> str | None:
    """The Ingest log's cell of a file's fields not read: their names, nothing, or that they
    were not looked for (a file loaded by a release that did not name them)."""
    if fields is None:
        return "not looked for (loaded before they were named)"
    return ", ".join(fields) or None


def _write_ingest_log(book: _Book, ledger: PeriodLedger) -> None:
    columns = [
        _Column("File", WRAP, cap=36),
        _Column("Companion file", WRAP, cap=30),
        _Column("SHA-256", WRAP, cap=33),
        _Column("Size (bytes)", COUNT),
        _Column("Format", TEXT),
        # No ingest time: the workbook depends on the inputs alone, so a re-run (or a new
        # database of the same logs) reproduces it byte for byte.
        _Column("Lines read", COUNT),
        _Column("Rounds loaded", COUNT),
        _Column("Rounds in period", COUNT),
        _Column("Bets loaded", COUNT),
        _Column("Duplicates skipped", COUNT),
        # a re-export's rounds of the period stored before: it is behind the period too
        _Column("Duplicates in period", COUNT),
        _Column("Rejected", COUNT),
        _Column("Fields not read", WRAP, cap=30),
    ]
    rows = [
        (
            *(item.file_name, item.companion_name, item.sha256, item.size, item.format),
            *(item.lines_read, item.rounds_loaded, item.rounds_in_period, item.bets_loaded),
            *(item.duplicates_skipped, item.duplicates_in_period, item.rejected),
            _fields_cell(item.fields_not_read),
        )
        for item in ledger.ingest
    ]
    writer = _SheetWriter(book, "Ingest log", columns, _content_widths(columns, rows))
    writer.header()
    writer.rows(rows, left_out_where="Every file is in the store's ingest_log table.")
    writer.finish_table()
