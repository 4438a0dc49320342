"""``baccarat-report verify``: recompute every payout and check every round."""

from __future__ import annotations

import itertools
import threading
from collections.abc import Mapping, Sequence
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from reporting import __version__
from reporting.cli.common import (
    DEFAULT_DB,
    DEFAULT_DB_WAIT,
    DEFAULT_WORKER_WAIT,
    EXIT_FINDINGS,
    EXIT_OK,
    ConfigOption,
    DbOption,
    DbWaitOption,
    JobsOption,
    JsonOption,
    LogsOption,
    SchedulerOption,
    WorkerWaitOption,
    keep_apart,
    load_operator_config,
    make_folder,
    print_json,
    progress_bars,
    stdout_console,
    verification_workers,
)
from reporting.cli.disclose import parse_as_of
from reporting.cli.logs import command_logger
from reporting.engine.money import format_cents, format_money, round_fraction
from reporting.errors import InputError, counted, printable

if TYPE_CHECKING:
    # Imported where they run, not here: --help of every command imports this module.
    from reporting.figures.statistics import OutcomeTest, RtpCheck
    from reporting.verify.bearing import MonthAlerts
    from reporting.verify.partitions import Workers
    from reporting.verify.run import VerifyResult

#: The findings the terminal shows (the heaviest: a list cut short drops ``unverified_bet``
#: findings before any other), then how many more; every finding is counted by kind, stored
#: in the findings table and written whole by ``--findings-file``.
SHOWN_FINDINGS = 200
#: The tables the terminal's outcome tests show (those outside their 99.9% region first): a
#: month of 75,000 table ids, each its own, printed a table of 75,000 rows and held it in
#: memory first. ``--json`` and the audit workbook list every one.
SHOWN_TABLES = 50
#: The findings ``--json`` lists, the heaviest (``findings_truncated`` true when there are
#: more), kept in memory while the run goes: ``findings_by_kind`` counts every finding, and
#: the findings table and ``--findings-file`` hold them all.
FINDINGS_LISTED = 10_000


# Long on purpose: half of it declares the options; the library is imported where it runs.
def verify_command(
    month: Annotated[
        str | None,
        typer.Option("--month", metavar="YYYY-MM", help="Only rounds of this reporting month."),
    ] = None,
    workbook: Annotated[
        Path | None,
        typer.Option("--workbook", dir_okay=False, help="Also write the audit workbook (.xlsx)."),
    ] = None,
    report: Annotated[
        Path | None,
        typer.Option(
            "--report",
            file_okay=False,
            help="Also write the month's audit report (audit-YYYY-MM.html and .pdf) into this"
            " folder (made if missing); needs --month.",
        ),
    ] = None,
    as_of: Annotated[
        str | None,
        typer.Option(
            "--as-of",
            metavar="YYYY-MM-DD",
            help="Date printed on the workbook and the report. Default: today.",
        ),
    ] = None,
    findings_file: Annotated[
        Path | None,
        typer.Option(
            "--findings-file",
            dir_okay=False,
            metavar="FILE.jsonl",
            help="Also write every finding of the period, one JSON object a line, heaviest"
            f" first (the terminal shows {SHOWN_FINDINGS:,}, --json lists"
            f" {FINDINGS_LISTED:,}).",
        ),
    ] = None,
    jobs: JobsOption = None,
    scheduler: SchedulerOption = None,
    logs: LogsOption = None,
    worker_wait: WorkerWaitOption = DEFAULT_WORKER_WAIT,
    db: DbOption = DEFAULT_DB,
    db_wait: DbWaitOption = DEFAULT_DB_WAIT,
    config: ConfigOption = None,
    as_json: JsonOption = False,
) -> None:
    """Recompute every payout from the logged cards and check every round; exit 1 on findings."""
    from reporting.figures.statistics import outcome_tests, rtp_checks
    from reporting.store.faults import database_lock
    from reporting.store.schema import connect
    from reporting.verify.bearing import month_alerts

    check_month(month)
    if report is not None and month is None:
        raise InputError("--report needs --month: the audit report is of one month")
    reports = {} if report is None or month is None else _report_files(report, month)
    keep_apart(
        {"--workbook": workbook, "--findings-file": findings_file, **reports},
        {"--db": db, "--config": config},
    )
    operator = load_operator_config(config)
    day = parse_as_of(as_of, "UTC")
    workers = verification_workers(jobs, scheduler, logs, worker_wait)  # before the store
    # The month's audit figures hold its availability gaps: counted once, for both.
    audited = month is not None and (workbook is not None or report is not None)
    connection = connect(db, create=False, wait=db_wait)
    try:
        # Not inside a monthly run on the store, which reads its month's findings.
        with database_lock(db, db_wait, shared=True, done="checked"):
            # With workers, this process waits for them: it reads the rest meanwhile.
            parallel = workers.jobs != 1 or workers.runner is not None
            # the date a month still running counts its gaps to (None: the audit counts them)
            gaps_as_of = None if audited else day
            ahead = _ReadAhead(db, operator, month, gaps_as_of=gaps_as_of) if parallel else None
            result = _verify_watched(connection, operator, month, workers, quiet=as_json)
            scope, availability = (
                _summary_reads(connection, operator, month, gaps_as_of=gaps_as_of)
                if ahead is None
                else ahead.result()
            )
            audit = _month_audit(connection, operator, month, day) if audited else None
            if audit is not None:
                availability = _availability_of(audit.gaps, operator, month)
            outcomes = outcome_tests(result.tables, operator.games)
            rtp = rtp_checks(result.bet_totals, operator.games)
            # What bears on the period, by the rule monthly and the workbook follow too.
            alerts = month_alerts(
                connection,
                month,
                findings_by_kind=result.findings_by_kind,
                unverified_rounds=result.unconfigured_rounds,
                checks_not_run=result.checks_not_run,
                availability=availability,
                scope=scope,
                misplaced_rounds=result.misplaced_rounds,
                shoes=result.shoes,
            )
            written = _write_audit(
                connection,
                operator,
                result,
                (outcomes, rtp, alerts, audit),
                (workbook, report),
                day,
            )
            if findings_file is not None:
                _write_findings(findings_file, connection, operator, month)
    finally:
        connection.close()
    files = (workbook, written, findings_file)
    _print_outcome(result, (outcomes, rtp), alerts, files, operator.games, as_json=as_json)
    for game_id, rounds in sorted(result.unconfigured_rounds.items()):  # in --json's too
        command_logger().warning(
            "%s of %s %s not checked: the configuration does not list that game",
            counted(rounds, "round"),
            game_id or "a game whose id is empty",
            "was" if rounds == 1 else "were",
        )
    for line in alerts.alerts_but("unverified"):  # the exit code's reasons, in --log-file too
        command_logger().warning("%s", line)  # (the unverified rounds: said just above)
    raise typer.Exit(EXIT_FINDINGS if alerts.exit_code else EXIT_OK)


def _print_outcome(result, figures, alerts, files, games, *, as_json: bool) -> None:
    """What the run checked and found (``games``: the configuration's, by id), and the files it
    wrote, as tables or one JSON."""
    (outcomes, rtp), (workbook, written, findings_file) = figures, files
    if as_json:
        document = verify_document(result, outcomes, rtp)
        document["rejected_records"] = alerts.rejected
        document["alerts"] = alerts.to_document()
        document["workbook"] = None if workbook is None else str(workbook)
        document["report"] = [str(path) for path in written]
        document["findings_file"] = None if findings_file is None else str(findings_file)
        print_json(document)
        return
    currencies = {game_id: game.currency for game_id, game in games.items()}
    print_report(result, outcomes, rtp, currencies, alerts.warnings)
    _print_rejects(alerts)
    console = stdout_console()  # wrapped between words at the terminal's width
    for game_id, problems in sorted(alerts.availability.items()):
        for problem in problems:  # why the exit code is 1 when nothing else is wrong
            console.print(f"{game_id}: {problem}", markup=False, highlight=False)
    if workbook is not None:
        typer.echo(f"Audit workbook: {workbook}")
    for path in written:
        typer.echo(f"Audit report: {path}")
    if findings_file is not None:
        typer.echo(f"Every finding: {findings_file}")


def check_month(month: str | None) -> None:
    """``--month``: YYYY-MM of the months handled, or an input error."""
    if month is None:
        return
    from reporting.records import Month, MonthOutOfRange

    try:
        Month.parse(month)
    except MonthOutOfRange as error:
        raise InputError(f"--month {error}") from None
    except ValueError:
        raise InputError(f"--month {month!r}: expected YYYY-MM, e.g. 2026-10") from None


def _verify_watched(
    connection, operator, month: str | None, workers: Workers, *, quiet: bool
) -> VerifyResult:
    """The verify run, with a progress bar where a person watches."""
    from reporting.verify.run import verify

    with progress_bars(quiet=quiet) as bars:
        total = _rounds_in(connection, month) if bars.watched else None
        advance = bars.task(f"verify {month or 'every month'}", total)
        return verify(
            connection,
            operator,
            month,
            keep=FINDINGS_LISTED,
            progress=advance,
            jobs=workers.jobs,
            runner=workers.runner,
        )


def _rounds_in(connection, month: str | None) -> int:
    """The rounds a verify of ``month`` (or of all) reads: the progress bar's total."""
    if month is None:
        return connection.execute("SELECT count(*) FROM rounds").fetchone()[0]
    query = "SELECT count(*) FROM rounds WHERE report_month = ?"
    return connection.execute(query, (month,)).fetchone()[0]


def _print_rejects(alerts: MonthAlerts) -> None:
    """The rejected lines that bear on the period, file by file (why the exit code is 1 when
    there is no finding)."""
    if alerts.rejected:
        typer.echo(
            f"{alerts.rejected:,} rejected lines bear on this period: they are in the"
            " rejected_records table (and the audit workbook)"
        )
        for line in alerts.rejected_file_lines:
            typer.echo(line)


class _ReadAhead(threading.Thread):
    """The summary's store reads (:func:`_summary_reads`) and the exact odds its outcome tests
    need, done in a thread on a connection of its own (read only) while the partitions run in
    their workers: SQLite and the odds' counting fill the cores the coordinator leaves idle as
    it waits. The store is the same: verify writes only findings."""

    def __init__(self, db: Path, operator, month: str | None, *, gaps_as_of: date | None):
        super().__init__(name="read ahead", daemon=True)
        self.db, self.operator, self.month, self.gaps_as_of = db, operator, month, gaps_as_of
        self.read: tuple = ()
        self.error: BaseException | None = None
        self.start()

    def run(self) -> None:
        from reporting.engine.odds import main_probabilities
        from reporting.store.faults import database_faults
        from reporting.verify.partitions import read_only

        try:
            connection = read_only(str(self.db))
            try:
                with database_faults(connection):
                    self.read = _summary_reads(
                        connection, self.operator, self.month, gaps_as_of=self.gaps_as_of
                    )
            finally:
                connection.close()
            for decks in sorted({game.decks for game in self.operator.games.values()}):
                main_probabilities(decks)  # cached: the outcome tests find them counted
        except BaseException as error:  # raised in the coordinator's thread
            self.error = error

    def result(self) -> tuple:
        """What :func:`_summary_reads` read, once the thread is done; its error raised here."""
        self.join()
        if self.error is not None:
            raise self.error
        return self.read


def _summary_reads(connection, operator, month: str | None, *, gaps_as_of: date | None) -> tuple:
    """The files behind the period (:func:`~reporting.verify.bearing.reject_scope`) and the
    month's availability problems, a month still running counted to the start of the run's
    date ``gaps_as_of`` (None for every month, or when ``gaps_as_of`` is None: the month's
    audit figures count them)."""
    from reporting.figures.audit import availability_gaps
    from reporting.records import Month
    from reporting.verify.bearing import reject_scope

    availability = None
    if month is not None and gaps_as_of is not None:
        parsed = Month.parse(month)
        found = [
            gap
            for game in operator.games.values()
            for gap in availability_gaps(connection, game, parsed, as_of=gaps_as_of)
        ]
        availability = _availability_of(found, operator, month)
    return reject_scope(connection, month), availability


def _availability_of(gaps, operator, month: str) -> dict[str, tuple[str, ...]]:
    """The month's availability problems, of its gaps: games open 24h whose tables were idle."""
    from reporting.figures.audit import availability_problems
    from reporting.records import Month

    return availability_problems(gaps, operator.games, Month.parse(month))


def _write_audit(connection, operator, result, figures, targets, day) -> list[Path]:
    """``--workbook`` (with the month's sheets for a month) and ``--report``; the report's
    files. ``figures``: the outcome tests, the RTP checks, the month's alerts and its audit
    figures (None but for a month)."""
    workbook, report = targets
    *figures, alerts, audit = figures
    if report is not None:
        make_folder(report, "--report")
    if workbook is not None:
        _write_workbook(workbook, connection, operator, result, (*figures, audit), day)
    if report is None:
        return []
    return _write_report(report, connection, operator, result, (audit, alerts), day)


def _month_audit(connection, operator, month: str, day: date):
    """The month's audit figures (the workbook's and the report's month sheets); a month
    still running on ``day`` counts its availability gaps to that day's start."""
    from reporting.figures.audit import audit_month

    return audit_month(
        connection,
        operator,
        month,
        as_of_by_game={},  # each game disclosed as of its page's update day for the month
        configuration_path=operator.source,
        tool_version=__version__,
        gaps_as_of=day,
    )


def _report_files(folder: Path, month: str) -> dict[str, Path | None]:
    """The files ``--report`` writes, by the words that name them in a refusal."""
    from reporting.presentation.audit_report import report_file_names

    return {f"--report {folder}:": folder / name for name in report_file_names(month)}


def _write_workbook(workbook, connection, operator, result, figures, day) -> None:
    """The audit workbook of the run (``--workbook``): with the month's sheets for a month."""
    from reporting.figures.ledger import period_ledger
    from reporting.presentation.audit_xlsx import write_audit_workbook  # openpyxl: only here

    outcomes, rtp, audit = figures
    try:
        write_audit_workbook(
            workbook,
            period_ledger(connection, result.month),
            operator,
            result,
            outcomes,
            rtp,
            as_of=day,
            tool_version=__version__,
            audit=audit,
            shoes=result.shoes if audit is not None else None,
        )
    except OSError as error:
        raise InputError(f"{workbook}: cannot write the workbook ({error.strerror})") from None


def _write_findings(path: Path, connection, operator, month: str | None) -> None:
    """Every stored finding of the period (``--findings-file``), one JSON document a line."""
    import json

    from reporting.files import write_atomically
    from reporting.store.reading import read_findings

    def write(handle) -> None:
        for finding in read_findings(connection, month, operator.games):
            handle.write(json.dumps(finding.to_document(), ensure_ascii=False).encode())
            handle.write(b"\n")

    write_atomically(path, write)


def _write_report(folder: Path, connection, operator, result, month, day) -> list[Path]:
    """The month's audit report, HTML and PDF, in ``folder`` (``--report``); ``month``: the
    month's audit figures and its alerts."""
    from reporting.jobs.audit import month_report
    from reporting.presentation.audit_report import write_audit_report

    audit, alerts = month
    try:
        return write_audit_report(
            folder, month_report(connection, operator, result, audit, as_of=day, alerts=alerts)
        )
    except OSError as error:
        raise InputError(f"{folder}: cannot write the report ({error.strerror})") from None


def verify_document(result: VerifyResult, outcomes: list[OutcomeTest], rtp: list[RtpCheck]) -> dict:
    """The ``verify --json`` document."""
    from reporting.records import every_kind

    return {
        "month": result.month,
        "rounds_checked": result.rounds_checked,
        "bets_checked": result.bets_checked,
        "bets_unverified": result.bets_unverified,
        "findings_by_kind": every_kind(result.findings_by_kind),
        "findings": [finding.to_document() for finding in result.findings],
        "findings_truncated": len(result.findings) < result.finding_count,
        "findings_listed": len(result.findings),
        "unconfigured_rounds": dict(sorted(result.unconfigured_rounds.items())),
        "checks_not_run": [entry.to_document() for entry in result.checks_not_run],
        "statistics": {
            "outcomes": [
                {
                    "game": test.game_id,
                    "table": test.table_id,
                    "rounds": test.rounds,
                    "banker": test.banker,
                    "player": test.player,
                    "tie": test.tie,
                    "expected": {
                        "banker": test.expected_banker,
                        "player": test.expected_player,
                        "tie": test.expected_tie,
                    },
                    "chi_square": test.chi_square,
                    "p_value": test.p_value,
                    "flagged": test.flagged,
                }
                for test in outcomes
            ],
            "rtp": [
                {
                    "game": check.game_id,
                    "bet_type": check.bet_type,
                    "bets": check.bets,
                    "stakes": format_cents(check.stakes),
                    "payouts": format_cents(check.payouts),
                    "actual_rtp": None if check.actual_rtp is None else float(check.actual_rtp),
                    "theoretical_rtp": float(check.theoretical_rtp),
                    "bound_99_9": check.bound,
                    "z_score": check.z_score,
                    "flagged": check.flagged,
                }
                for check in rtp
            ],
        },
    }


def _percent(value) -> str:
    return "-" if value is None else f"{round_fraction(value * 100, 2)}%"


def print_report(
    result: VerifyResult,
    outcomes: list[OutcomeTest],
    rtp: list[RtpCheck],
    currencies: Mapping[str, str],
    not_checked: Sequence[str] = (),
) -> None:
    """Summary tables (money in the currency ``currencies`` gives each game id), then every
    finding as ``path:line: kind: message``, then what could not be checked (``not_checked``:
    one line per game, :attr:`MonthAlerts.warnings`)."""
    from reporting.cli.tables import FoldingTable as Table
    from reporting.records import FINDING_KINDS

    console = stdout_console()
    scope = f"month {result.month}" if result.month else "all months"
    summary = Table(
        title=f"Verify, {scope}: {result.rounds_checked:,} rounds, {result.bets_checked:,} bets"
        + (f", {result.bets_unverified:,} not verified" if result.bets_unverified else ""),
        title_justify="left",
    )
    summary.add_column("Finding", identifier=True)
    summary.add_column("Count", justify="right")
    for kind in FINDING_KINDS:
        summary.add_row(kind, f"{result.findings_by_kind.get(kind, 0):,}")
    console.print(summary)

    console.print(_outcome_table(outcomes))
    if len(outcomes) > SHOWN_TABLES:
        typer.echo(
            f"... {len(outcomes) - SHOWN_TABLES:,} more tables: all are in the audit workbook's"
            " Outcome tests sheet and in --json"
        )
    for table in _rtp_tables(rtp, currencies):
        console.print(table)

    for finding in result.findings[:SHOWN_FINDINGS]:  # ids from the logs: escaped
        typer.echo(printable(f"{finding.source}: {finding.kind}: {finding.message}"))
    if result.finding_count > SHOWN_FINDINGS:
        typer.echo(
            f"... {result.finding_count - SHOWN_FINDINGS:,} more findings: all are in the"
            " findings table, the audit workbook and --findings-file (--json lists the"
            f" {FINDINGS_LISTED:,} heaviest)"
        )
    for line in not_checked:
        typer.echo(line)
    if not result.rounds_checked:
        typer.echo("No rounds in this period: nothing was checked.")
    elif not result.finding_count and not_checked:
        typer.echo(
            "No findings in the checks that ran: every payout they recomputed matches and every"
            " rule they judged holds (see what was not checked above)."
        )
    elif not result.finding_count:
        typer.echo("No findings: every payout matches and every round follows the rules.")


def _outcome_table(outcomes: list[OutcomeTest]):
    """Banker / Player / Tie counts of each table against the exact odds."""
    from reporting.cli.tables import FoldingTable as Table
    from reporting.figures.statistics import CONFIDENCE_LABEL

    table = Table(title="Banker / Player / Tie against the exact odds", title_justify="left")
    table.add_column("Game", identifier=True)
    table.add_column("Table", identifier=True)
    for header in ("Rounds", "Banker", "Player", "Tie", "Chi-square", "p"):
        table.add_column(header, justify="right")
    table.add_column("")  # "outside 99.9%" where a table's counts are (drawn only then)
    # those outside their region first, then as they come (by game and table)
    shown = sorted(outcomes, key=lambda test: not test.flagged)[:SHOWN_TABLES]
    for test in shown:
        table.add_row(
            printable(test.game_id),
            printable(test.table_id),
            f"{test.rounds:,}",
            f"{test.banker:,} ({test.expected_banker:,.0f})",
            f"{test.player:,} ({test.expected_player:,.0f})",
            f"{test.tie:,} ({test.expected_tie:,.0f})",
            f"{test.chi_square:.2f}",
            f"{test.p_value:.3f}",
            f"outside {CONFIDENCE_LABEL}" if test.flagged else "",
        )
    return table


def _rtp_tables(rtp: list[RtpCheck], currencies: Mapping[str, str]) -> list:
    """Actual RTP of each bet type against the theory, with the 99.9% bound: a table per game
    (an 80-column terminal has no room for a game id beside a bet id and the figures), its
    money in the game's currency, named in the headers."""
    from reporting.cli.tables import FoldingTable as Table
    from reporting.figures.statistics import CONFIDENCE_LABEL

    tables = []
    for game_id, checks in itertools.groupby(rtp, key=lambda check: check.game_id):
        table = Table(
            title=f"Actual RTP of {game_id} against theoretical ({CONFIDENCE_LABEL} bound)",
            title_justify="left",
        )
        currency = currencies[game_id]
        table.add_column("Bet", identifier=True)
        for header in ("Bets", f"Stakes ({currency})", f"Payouts ({currency})", "Actual"):
            table.add_column(header, justify="right")
        for header in ("Theory", "Bound"):
            table.add_column(header, justify="right")
        table.add_column("")  # "outside" where the actual RTP is (drawn only then)
        for check in checks:
            table.add_row(
                printable(check.bet_type),
                f"{check.bets:,}",
                format_money(check.stakes),
                format_money(check.payouts),
                _percent(check.actual_rtp),
                _percent(check.theoretical_rtp),
                f"±{check.bound * 100:.2f}%",
                "outside" if check.flagged else "",
            )
        tables.append(table)
    return tables
