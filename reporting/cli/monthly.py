"""``baccarat-report monthly``: the scheduled run of the 5th (safe to re-run)."""

from __future__ import annotations

import functools
import logging
import os
import re
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from reporting import __version__
from reporting.cli.common import (
    DEFAULT_DB,
    DEFAULT_DB_WAIT,
    DEFAULT_WORKER_WAIT,
    MAX_JOBS,
    ConfigOption,
    DbOption,
    DbWaitOption,
    JsonOption,
    LogsOption,
    SchedulerOption,
    WorkerWaitOption,
    load_publishing_config,
    print_json,
    progress_bars,
    verification_workers,
)
from reporting.cli.disclose import parse_as_of
from reporting.cli.logs import (
    JOB_LINE,
    command_logger,
    document_on_stdout,
    drop_log_file,
    log_file_path,
)
from reporting.errors import InputError

if TYPE_CHECKING:
    # Imported where they run, not here: --help of every command imports this module.
    from reporting.config.loader import OperatorConfig
    from reporting.config.operator import Operator
    from reporting.engine.games import GameSpec
    from reporting.figures.disclosure import Disclosure
    from reporting.jobs.monthly import MonthlyResult
    from reporting.verify.bearing import MonthAlerts
    from reporting.verify.partitions import Workers


#: ``verify``'s ``--jobs``, which here also says how many processes render the documents.
MonthlyJobsOption = Annotated[
    int | None,
    typer.Option(
        "--jobs",
        min=1,
        max=MAX_JOBS,
        metavar="N",
        help="Worker processes that verify the month's tables and render its documents"
        " side by side; the files are the same whatever N. Default: the cores available"
        " (the verification: 1 for fewer than 50,000 rounds).",
    ),
]


def render_game(
    game: GameSpec,
    disclosure: Disclosure,
    as_of: date,
    folder: Path,
    *,
    operator: Operator | None = None,
) -> list[Path]:
    """The disclosure pages and the rule sheets of one game, in each configured language,
    published by ``operator`` (the configuration's ``[operator]``)."""
    from reporting.presentation.documents import FORMATS, render_game_documents, write_documents

    rendered = render_game_documents(
        game,
        game.languages,
        FORMATS,
        disclosure=disclosure,
        as_of=as_of,
        folder=folder,
        tool_version=__version__,
        disclosure_formats=("html", "pdf"),
        operator=operator,
    )
    return [document.path for document in write_documents(rendered.pages)]


#: ``--inbox``: a file there is refused saying what it is (``refuse_unless_inbox``), where
#: click said "is a file" without the file's kind.
InboxOption = Annotated[
    Path, typer.Option("--inbox", metavar="<dir>", help="Folder the round logs arrive in.")
]


def monthly_command(
    inbox: InboxOption,
    out: Annotated[
        Path,
        typer.Option("--out", file_okay=False, help="Report folder; one subfolder per month."),
    ],
    as_of: Annotated[
        str | None,
        typer.Option(
            "--as-of",
            metavar="YYYY-MM-DD",
            help="Date of the run. Default: today in each game's time zone.",
        ),
    ] = None,
    wait: Annotated[
        float,
        typer.Option(
            "--wait",
            min=0,
            metavar="SECONDS",
            help="Seconds to wait for another run's lock before giving up (0: at once).",
        ),
    ] = 0.0,
    jobs: MonthlyJobsOption = None,
    scheduler: SchedulerOption = None,
    logs: LogsOption = None,
    worker_wait: WorkerWaitOption = DEFAULT_WORKER_WAIT,
    db: DbOption = DEFAULT_DB,
    db_wait: DbWaitOption = DEFAULT_DB_WAIT,
    config: ConfigOption = None,
    as_json: JsonOption = False,
) -> None:
    """Ingest new logs, verify the reference month, write disclosures, rule sheets, workbook."""
    from reporting.ingest.discovery import refuse_unless_inbox
    from reporting.verify.partitions import available_cores

    # Before anything else, so that no line of a refused run lands in the inbox.
    _refuse_log_inside(*(Path(os.path.realpath(folder)) for folder in (inbox, out)))
    if as_json:
        document_on_stdout()
    operator = load_publishing_config(config)
    dates = {game.id: parse_as_of(as_of, game.timezone) for game in operator.games.values()}
    refuse_unless_inbox(inbox)
    _refuse_nested(inbox, out, db)
    # The monthly job names the logs in the store relative to the inbox (stored_name).
    default_logs = os.path.realpath(inbox) if scheduler is not None else None
    workers = verification_workers(jobs, scheduler, logs or default_logs, worker_wait)
    result = _run_locked(
        operator, inbox, out, dates, db=db, waits=(wait, db_wait), workers=workers,
        render_jobs=jobs or available_cores(), as_json=as_json,
    )  # fmt: skip
    if as_json:
        print_json(monthly_document(result))
    else:
        _summary(result)
    # 1 tells the scheduler to look: whatever bears on the month (reporting.verify.bearing:
    # findings, rejected lines, unread inbox files, unverified rounds, publishing problems).
    raise typer.Exit(result.exit_code)


def _refuse_nested(inbox: Path, out: Path, db: Path) -> None:
    """Refuse, before anything is touched, an inbox, report folder and database that are not
    apart: a month's folder of reports is replaced whole when it is published (an inbox
    inside it, ``--inbox out/2026-11``, goes with it), an inbox holding the reports or the
    database reads them as logs on every run, and a database among the reports would be
    published, or replaced."""
    inbox_at, out_at = (Path(os.path.realpath(folder)) for folder in (inbox, out))
    if inbox_at.is_relative_to(out_at) or out_at.is_relative_to(inbox_at):
        raise InputError(
            f"--inbox {inbox} and --out {out} are one inside the other: a month's reports"
            " replace their folder whole, and the inbox is read as round logs; give two"
            " separate folders"
        )
    db_at = Path(os.path.realpath(db))
    if db_at.is_relative_to(out_at):
        raise InputError(
            f"--db {db} is inside --out {out}, whose month folders are replaced whole and"
            " published: keep the database outside it"
        )
    if db_at.is_relative_to(inbox_at):
        raise InputError(
            f"--db {db} is inside --inbox {inbox}, whose files are read as round logs: keep"
            " the database outside it"
        )


def _refuse_log_inside(inbox: Path, out: Path) -> None:
    """Refuse a ``--log-file`` in the inbox (read as a round log, or said unread, on every
    run) or in a folder the run replaces or removes whole (a month's, ``.staging``, a
    previous month's ``.YYYY-MM.old``), where the log would go with it; beside the month
    folders (``out/monthly.log``) it stays."""
    log = log_file_path()
    if log is None:
        return
    at = Path(os.path.realpath(log))
    replaced = at.is_relative_to(out) and len(parts := at.relative_to(out).parts) > 1
    if replaced and (re.fullmatch(r"\d{4}-\d{2}", parts[0]) or parts[0].startswith(".")):
        drop_log_file()
        raise InputError(
            f"--log-file {log} is inside {out / parts[0]}, which a run replaces or removes"
            " whole: the log would go with it; keep the log file elsewhere"
        )
    if at.is_relative_to(inbox):
        drop_log_file()
        raise InputError(
            f"--log-file {log} is inside the inbox {inbox}, whose files are read as round"
            " logs: keep the log file elsewhere"
        )


def _run_locked(
    operator: OperatorConfig,
    inbox: Path,
    out: Path,
    dates: dict[str, date],
    *,
    db: Path,
    waits: tuple[float, float],
    workers: Workers,
    render_jobs: int,
    as_json: bool,
) -> MonthlyResult:
    """The job under its locks: the output folder's first (a second run waits, or stops,
    before it touches the database), then the database's (a run writing elsewhere from the
    same database waits too), then the database itself. ``waits``: seconds to wait for
    another run's lock, and for the database while another process writes to it;
    ``render_jobs``: the processes that render the documents."""
    from reporting.jobs.monthly import no_progress, output_lock, run_monthly
    from reporting.store.faults import database_lock
    from reporting.store.schema import connect

    wait, db_wait = waits
    with (
        output_lock(out, wait),
        database_lock(db, wait),
        progress_bars(quiet=as_json, unit="percent") as bars,
    ):
        connection = connect(db, wait=db_wait)
        try:
            return run_monthly(
                connection,
                operator,
                inbox,
                out,
                dates,
                functools.partial(render_game, operator=operator.operator),
                locked=True,
                log=_log,
                progress=bars.task if bars.watched else no_progress,
                jobs=workers.jobs,
                runner=workers.runner,
                render_jobs=render_jobs,
            )
        finally:
            connection.close()


def _log(line: str) -> None:
    """One plain log line on stderr (no colour codes), stamped for the scheduler's log, and
    in ``--log-file``; a warning (the job words it "...: warning: ...") at its level, so the
    journal's priority filter finds it."""
    level = logging.WARNING if ": warning: " in line else logging.INFO
    command_logger("monthly").log(level, "%s", line, extra={JOB_LINE: True})


def monthly_document(result: MonthlyResult) -> dict:
    """The ``monthly --json`` document."""
    from reporting.records import every_kind

    return {
        "as_of": {game: day.isoformat() for game, day in sorted(result.as_of.items())},
        "rounds_loaded": result.ingest.rounds_loaded,
        "bets_loaded": result.ingest.bets_loaded,
        "rejected_count": result.ingest.rejected_count,
        "rejected_elsewhere": result.rejected_elsewhere,
        "rejected_elsewhere_months": result.rejected_months,
        "rounds_elsewhere": result.rounds_elsewhere,
        "repeated_elsewhere": [
            {"month": item.month, "file": item.file, "fields_not_read": list(item.fields)}
            for item in result.repeats
        ],
        "exit_code": result.exit_code,
        "months": [
            {
                "month": month.month,
                "folder": str(month.folder),
                "games": month.games,
                "findings": month.findings,
                "findings_by_kind": every_kind(month.findings_by_kind),
                "rejected_records": month.rejected,
                "without_play": month.without_play,
                "warnings": {game: list(items) for game, items in month.warnings.items()},
                "files": [str(path) for path in month.files],
                "alerts": month.alerts.to_document(),
            }
            for month in result.months
        ],
    }


def _sheets_to_read(alerts: MonthAlerts) -> list[str]:
    """The audit workbook's sheets that hold what the alerts and warnings are about, in the
    workbook's order (tests/jobs/test_late_rounds.py holds them to its sheets)."""
    held = (
        ("Findings", alerts.findings),
        ("Availability gaps", alerts.availability),
        ("Shoes", alerts.hands_missing or alerts.hands_not_judged),
        ("Checks not run", alerts.checks_not_run),
        ("Rejected records", alerts.rejected or alerts.unread_files),
        ("Ingest log", alerts.fields_not_read),
        ("Pages", alerts.publishing),
    )
    return ["Summary", *(sheet for sheet, present in held if present)]


def _summary(result: MonthlyResult) -> None:
    """Where the reports are, then every alert that bears on each month: the exit code's
    reasons, worded once by :class:`reporting.verify.bearing.MonthAlerts`."""
    from reporting.jobs.monthly import repeats_line
    from reporting.verify.bearing import rejected_lines_bear

    for month in result.months:
        typer.echo(f"Reports for {month.month} ({', '.join(month.games)}): {month.folder}")
        typer.echo(f"  {len(month.files)} files, manifest: {month.folder / 'manifest.json'}")
        alerts, warnings = month.alerts.alerts, month.alerts.warnings
        if not month.findings and not month.alerts.all_read_and_checked:
            typer.echo(
                "  no findings in the checks that ran: every payout they recomputed matches and"
                " every rule they judged holds (see what was not read or not checked below)"
            )
        elif not month.findings:
            typer.echo("  no findings: every payout matches and every round follows the rules")
        for line in alerts:
            typer.echo(f"  {line}")
        for line in warnings:  # what could not be checked: no alert by itself
            typer.echo(f"  warning: {line}")
        if alerts or warnings:
            typer.echo(
                f"  see audit-{month.month}.xlsx ({', '.join(_sheets_to_read(month.alerts))})"
            )
    for item in result.repeats:
        typer.echo(f"warning: {repeats_line(item, result.publish_as_of[item.month])}")
    if result.rejected_elsewhere:
        typer.echo(
            f"{rejected_lines_bear(result.rejected_elsewhere)} on other months"
            f" ({', '.join(result.rejected_months)}): see `verify --month` of each"
        )
