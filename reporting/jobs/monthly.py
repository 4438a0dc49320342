"""The monthly scheduled run: ingest the inbox, verify the reference month, write every report.

Safe to run unattended and to re-run:

* one run at a time: a lock file beside the output folder (``.<name>.lock``, outside the tree
  that gets published), opened without following links; a second run waits (``wait``
  seconds) or stops with :class:`LockHeld` (:mod:`reporting.jobs.out_folder`);
* every report of a month is written into a hidden staging folder, then the month's folder is
  swapped in by renames: a failure or a kill leaves the previous reports as they were and no
  half-written file in the month's folder (stale staging folders are cleared next time, and a
  kill between the two renames of the swap is repaired at the next start);
* the same inputs and as-of date give byte-identical files, listed with their sha256 in
  ``manifest.json`` (which holds no clock time, so it is byte-identical too), however the
  paths were typed: files are named relative to the inbox;
* what bears on the month (findings, rejected lines, late rounds of other months, unread
  inbox files, unverified rounds, publishing problems) is one record,
  :class:`reporting.verify.bearing.MonthAlerts`, which the exit code, the summary, the log's
  warnings and the audit all follow; what could not be checked (a field the export lacks)
  is said beside it as a warning, which does not change the exit code;
* late rounds of a month already written, and rejected lines of other months, are told of by
  every run until one finishes after their file was loaded (:mod:`reporting.store.announced`):
  a re-run after a run that stopped says what the stopped run would have said.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from reporting import __version__
from reporting.config.loader import OperatorConfig
from reporting.engine.games import GameSpec
from reporting.errors import InputError, printable
from reporting.figures.audit import audit_month, availability_problems
from reporting.figures.disclosure import Disclosure, disclose
from reporting.files import remove_staging, sha256_of, swap_in_folder
from reporting.ingest.discovery import (
    discover_inbox,
    inbox_profiles,
    refuse_unless_inbox,
    unread_names,
)
from reporting.ingest.sources import Source
from reporting.jobs.audit import write_month_workbook
from reporting.jobs.late import late_repeats, late_rounds
from reporting.jobs.months import as_of_writing, games_by_month
from reporting.jobs.out_folder import (
    MANIFEST,
    REPORTS,
    STAGING,
    LockHeld,
    lock_path,
    output_lock,
    prepare_out,
    refuse_unlisted,
    staging_folder,
)
from reporting.jobs.rendering import Renders, render_workers
from reporting.presentation.audit_report import AuditReport, write_audit_report
from reporting.records import Month
from reporting.store.announced import (
    UnannouncedRepeats,
    loaded_through,
    mark_announced,
    unannounced_files,
    unannounced_months,
)
from reporting.store.load import IngestResult, ingest, read_with
from reporting.verify.bearing import (
    LateMonth,
    MonthAlerts,
    first_named,
    month_alerts,
    rejected_lines_bear,
)
from reporting.verify.partitions import Runner
from reporting.verify.run import VerifyResult, verify

__all__ = ["LockHeld", "MonthReport", "MonthlyResult", "lock_path", "output_lock", "run_monthly"]

#: Writes one game's rendered documents into a folder; returns the files written.
#: (rule sheets and disclosure pages; supplied by the renderer so that this module needs no
#: template machinery to be tested)
Renderer = Callable[[GameSpec, Disclosure, date, Path], list[Path]]
#: Receives progress lines for the log.
Log = Callable[[str], None]
#: A progress display: ``progress(label, total)`` starts a bar and gives the callback that
#: moves it (``advance(done)``); the default shows nothing.
Progress = Callable[[str, "int | None"], Callable[..., None]]


def no_progress(label: str, total: int | None) -> Callable[..., None]:
    """No bar: the job run by a scheduler, or with ``--json``."""
    return lambda *done: None


@dataclass
class MonthReport:
    """What was written for one reference month."""

    month: str
    folder: Path
    games: list[str]
    alerts: MonthAlerts  # what bears on the month: the exit code and the summary follow it
    files: list[Path] = field(default_factory=list)
    warnings: dict[str, tuple[str, ...]] = field(default_factory=dict)  # game id -> warnings
    without_play: list[str] = field(default_factory=list)  # games with no stakes in the month

    @property
    def findings(self) -> int:
        """Findings of the month."""
        return self.alerts.findings

    @property
    def findings_by_kind(self) -> dict[str, int]:
        """Findings of the month by kind (kinds with none left out)."""
        return dict(self.alerts.findings_by_kind)

    @property
    def rejected(self) -> int:
        """Rejected lines bearing on the month (see :mod:`reporting.verify.bearing`)."""
        return self.alerts.rejected


@dataclass
class MonthlyResult:
    """The outcome of one monthly run."""

    as_of: dict[str, date]
    ingest: IngestResult
    months: list[MonthReport]
    #: Rejected lines of the files no finished run has told of (this run's, a stopped run's,
    #: ``ingest``'s: :mod:`reporting.store.announced`) that no report written here shows:
    #: named once in the log and the summary (exit 1); their own month's report shows them.
    rejected_elsewhere: int = 0
    #: The months they bear on (those of their files' rounds and rejected lines).
    rejected_months: list[str] = field(default_factory=list)
    #: Late rounds (:mod:`reporting.jobs.late`) of files no finished run has told of, by
    #: month: named in each month's alerts (the log, the summary, the audit; exit 1); no
    #: published report counts them.
    late: list[LateMonth] = field(default_factory=list)
    #: Re-exports of files no finished run has told of that repeat rounds of a month
    #: published before with fields no check reads (:func:`reporting.jobs.late.late_repeats`):
    #: named once in the log and the summary, a warning (the exit code unchanged), as such
    #: fields are in a month's own audit.
    repeats: list[UnannouncedRepeats] = field(default_factory=list)
    #: The ``--as-of`` date of the run that publishes each month of :attr:`repeats` again.
    publish_as_of: dict[str, str] = field(default_factory=dict)

    @property
    def rounds_elsewhere(self) -> dict[str, int]:
        """The late rounds (:attr:`late`) by month."""
        return {item.month: item.rounds for item in self.late}

    @property
    def findings(self) -> int:
        """Findings over every month written."""
        return sum(month.findings for month in self.months)

    @property
    def rejected(self) -> int:
        """Rejected lines bearing on the months written."""
        return sum(month.rejected for month in self.months)

    @property
    def without_play(self) -> list[str]:
        """Games whose reference month had no stakes: their pages show 0.00%."""
        return [game for month in self.months for game in month.without_play]

    @property
    def exit_code(self) -> int:
        """1 when anything bears on a month written, or the run tells of rejected lines of
        another month or of late rounds; 0 otherwise."""
        if self.rejected_elsewhere or self.late:
            return 1
        if any(month.alerts.exit_code for month in self.months):
            return 1
        return 0


def run_monthly(
    connection: sqlite3.Connection,
    config: OperatorConfig,
    inbox: Path,
    out: Path,
    as_of: dict[str, date],
    render: Renderer,
    *,
    wait: float = 0.0,
    locked: bool = False,
    log: Log = lambda line: None,
    progress: Progress = no_progress,
    jobs: int | None = 1,
    runner: Runner | None = None,
    render_jobs: int = 1,
) -> MonthlyResult:
    """Ingest new inbox files, then for each reference month write every report.

    ``as_of``: each game's page date (local). A reference month's games get ``out/YYYY-MM/``:
    per game the disclosure JSON and what ``render`` writes (disclosure pages, rule sheets),
    the audit and ``manifest.json``. ``locked``: the caller holds the output folder's lock
    (:func:`output_lock`). The inbox's files the ingest does not read
    (:func:`reporting.ingest.discovery.discover_inbox`) are an alert of every month written.
    ``progress`` shows each step as it goes. ``jobs``, ``runner``: where the partitions are
    verified (:func:`reporting.verify.run.verify`); ``render_jobs``: :mod:`.rendering`.
    """
    refuse_unless_inbox(inbox)
    months = games_by_month(config, as_of)
    workers = (jobs, runner, render_jobs)  # where the month is verified and rendered
    with contextlib.nullcontext() if locked else output_lock(out, wait):
        prepare_out(out, months, log)
        ingested, inputs, unread = _read_inbox(connection, config, inbox, log, progress)
        through = loaded_through(connection)  # the files the month is read with

        def manifest_of(month: str) -> Path:
            return out / month / MANIFEST

        # Rounds of other months no report counts: each month's alerts (and audit) name them.
        late = late_rounds(connection, config, months, through, manifest_of, max(as_of.values()))
        repeats = late_repeats(connection, months, through, manifest_of)
        reports = []
        try:
            for month, games in sorted(months.items()):
                with staging_folder(out, month) as staging:
                    reports.append(
                        _write_month(
                            connection,
                            config,
                            _MonthRun(month, games, as_of, out, inputs, unread, late, *workers),
                            render,
                            (log, progress),
                            staging,
                        )
                    )
        finally:  # a run that stops leaves nothing in the output folder (the next clears it)
            with contextlib.suppress(OSError):
                remove_staging(out / STAGING)
        result = MonthlyResult(as_of, ingested, reports, late=late, repeats=repeats)
        return _finish(connection, config, result, through, log)


def _finish(
    connection: sqlite3.Connection,
    config: OperatorConfig,
    result: MonthlyResult,
    through: int,
    log: Log,
) -> MonthlyResult:
    """The run's reports are written: name the rejected lines of other months that the files
    no run has told of yet (loaded up to ingest id ``through``,
    :mod:`reporting.store.announced`) hold and no report written shows (their late rounds
    each month's alerts named), and the re-exports of months published before, with the
    run that publishes each again (``config``'s update days). They are then announced."""
    months = [report.month for report in result.months]
    shown = {item.name for report in result.months for item in report.alerts.rejected_files}
    files = unannounced_files(connection, through, months)
    result.rejected_elsewhere = sum(rejected for name, rejected in files if name not in shown)
    if result.rejected_elsewhere:
        of_files = {name for name, rejected in files if rejected and name not in shown}
        result.rejected_months = sorted(
            {
                month
                for name, month in unannounced_months(connection, through, months)
                if name in of_files
            }
            - set(months)
        )
        log(
            f"other months: warning: {rejected_lines_bear(result.rejected_elsewhere)} on other"
            f" months than {', '.join(sorted(months))} ({', '.join(result.rejected_months)}):"
            " see verify --month of each"
        )
    for item in result.repeats:
        result.publish_as_of[item.month] = as_of_writing(config, item.month)
        log(f"{item.month}: warning: {repeats_line(item, result.publish_as_of[item.month])}")
    mark_announced(connection, through, months)
    return result


def repeats_line(item: UnannouncedRepeats, as_of: str) -> str:
    """What a re-export of a month published before is, in one line (the log's and the
    summary's), with the ``--as-of`` date of the run that publishes the month again."""
    return (
        f"{printable(item.file)} repeats rounds of {item.month}, published before, with fields"
        f" no check reads ({', '.join(item.fields)}), which its audit does not name: see"
        f" verify --month {item.month}, then publish {item.month} again (monthly --as-of"
        f" {as_of})"
    )


def _read_inbox(
    connection: sqlite3.Connection,
    config: OperatorConfig,
    inbox: Path,
    log: Log,
    progress: Progress,
) -> tuple[IngestResult, list[dict], tuple[str, ...]]:
    """Ingest the inbox (each file by its profile, :func:`inbox_profiles`); what was
    loaded, the input files, and the files left unread (the first few each logged as a
    warning, then how many more: :func:`~reporting.verify.bearing.first_named`; the manifest
    names them all)."""
    sources, unread_files = discover_inbox(inbox, inbox_profiles(config.inbox))
    ingested, inputs = _ingest_inbox(connection, config, inbox, sources, log, progress)
    unread = unread_names(inbox, unread_files)
    for line in first_named(
        [f"not read: {entry}" for entry in unread],
        "and {more:,} more files not read: manifest.json names them all",
    ):
        log(f"inbox: warning: {line}")
    return ingested, inputs, unread


def _ingest_inbox(
    connection: sqlite3.Connection,
    config: OperatorConfig,
    inbox: Path,
    sources: list[Source],
    log: Log,
    progress: Progress,
) -> tuple[IngestResult, list[dict]]:
    """Ingest the inbox's round logs, stored by their names relative to the inbox (so the
    workbook's bytes do not depend on how ``--inbox`` was typed); what was loaded, and each
    input file with its sha256 (for the manifest). A file that could not be read stops the
    run (after the others were tried)."""
    log(f"inbox {inbox}: {len(sources)} round log(s)")
    ingested = ingest(
        connection,
        sources,
        config,
        base=inbox,
        progress=lambda source: progress(f"ingest {source.path.name}", source.size),
    )
    for item in ingested.files:
        log(
            f"ingest {inbox / item.file}: {item.status}, {item.rounds_loaded} rounds,"
            f" {item.bets_loaded} bets, {item.rounds_skipped_duplicate} duplicates,"
            f" {item.rejected_count} rejected"
        )
    if ingested.failed:
        failures = [str(item.error) for item in ingested.failed]  # one line, of bounded length
        raise InputError("; ".join(first_named(failures, "and {more:,} more files not read")))
    recorded = read_with(connection, [item.sha256 for item in ingested.files])  # not the rule
    inputs = []
    for source, item in zip(sources, ingested.files, strict=True):
        profile = recorded.get(item.sha256, (None, None))[0]
        now = None if source.profile is None else source.profile.label
        if profile != now:
            said = [f"log profile {p}" if p else "the spec's round log" for p in (profile, now)]
            log(
                f"inbox: warning: {printable(item.file)} was read before as {said[0]}, not"
                f" {said[1]} as its rule now says: a file is read once per store, and its"
                " rounds stay as first read"
            )
        inputs += [
            {  # a one-file log's hash is the one ingest took: not read again
                "file": _relative_name(path, inbox),
                "sha256": item.sha256 if source.companion is None else sha256_of(path),
                "size": path.stat().st_size,
            }
            | ({} if profile is None else {"profile": profile})
            for path in source.files
        ]
    return ingested, inputs


def _relative_name(path: Path, inbox: Path) -> str:
    """A file of the inbox named as the reports name it: relative to the inbox, with ``/``."""
    return path.relative_to(inbox).as_posix()


@dataclass(frozen=True)
class _MonthRun:
    """What one month's reports are written from."""

    month: str
    games: list[GameSpec]
    as_of: dict[str, date]
    out: Path
    inputs: list[dict]
    unread: Sequence[str]
    late: Sequence[LateMonth]  # rounds of other months in no report: every month names them
    jobs: int | None = 1  # the verification's worker processes (None: as many as worth it)
    runner: Runner | None = None  # or where else its partitions run
    render_jobs: int = 1  # the worker processes that render the documents (1: this one)


def _write_month(
    connection: sqlite3.Connection,
    config: OperatorConfig,
    run: _MonthRun,
    render: Renderer,
    watch: tuple[Log, Progress],
    staging: Path,
) -> MonthReport:
    month, games, as_of = run.month, run.games, run.as_of
    log = watch[0]
    ordered = sorted(games, key=lambda game: game.id)
    # The render workers start first: they get ready to print while this process reads the
    # month's figures and verifies it. Only documents worth a worker count: the audit report,
    # and the pages of each game that publishes them (a game without languages writes its
    # disclosure JSON alone); one of them is printed here, in turn.
    printed = 1 + sum(1 for game in ordered if game.languages)
    with render_workers(min(run.render_jobs, printed)) as renders:
        # Each game's figures first: their warnings are the pages' problems, which the audit
        # workbook lists (the figures read the month's rounds, not verify's findings).
        disclosures = {game.id: disclose(connection, game, as_of[game.id]) for game in ordered}
        warnings = {game_id: disclosure.warnings for game_id, disclosure in disclosures.items()}
        verified = _verify_month(connection, config, run, watch)
        # The audit's files, then each game's pages: most of the run's time, watched step by
        # step.
        alerts, files = _write_documents(
            connection, config, run, (staging, render, renders), verified, watch,
            disclosures=disclosures, publishing=warnings,
        )  # fmt: skip
    for game in ordered:
        for warning in disclosures[game.id].warnings:
            log(f"disclose {game.id}: warning: {warning}")
    without_play = [game.id for game in ordered if not disclosures[game.id].stakes]
    manifest = _write_manifest(run, staging, files)
    final = run.out / month
    refuse_unlisted(final)  # again: a file may have been put there while the run ran
    left = swap_in_folder(staging, final, MANIFEST, REPORTS)
    if left is not None:
        log(f"warning: {left}")
    log(f"reports for {month}: {final}")
    return MonthReport(
        month=month,
        folder=final,
        games=[game.id for game in games],
        alerts=alerts,
        warnings=warnings,
        without_play=without_play,
        files=[final / path.relative_to(staging) for path in [*files, manifest]],
    )


def _write_documents(
    connection: sqlite3.Connection,
    config: OperatorConfig,
    run: _MonthRun,
    into: tuple[Path, Renderer, Renders],
    verified: VerifyResult,
    watch: tuple[Log, Progress],
    *,
    disclosures: Mapping[str, Disclosure],
    publishing: dict[str, tuple[str, ...]],
) -> tuple[MonthAlerts, list[Path]]:
    """The month's audit and each game's pages staged, rendered by ``renders`` (in
    ``run.render_jobs`` processes: :mod:`reporting.jobs.rendering`), a step of the bar as each
    is done; the alerts, and the files in the same order whatever the number of jobs."""
    staging, render, renders = into
    ordered = sorted(run.games, key=lambda game: game.id)
    advance = watch[1](f"write {run.month}", 1 + len(ordered))
    # The pages first: the workers start on them while this process writes the workbook.
    pages = [
        renders.submit(_write_game, game, disclosures[game.id], run.as_of[game.id], staging, render)
        for game in ordered
    ]
    alerts, workbook, report = _write_audit(
        connection, config, run, staging, verified, watch[0], disclosures=disclosures,
        publishing=publishing,
    )  # fmt: skip
    audit = renders.submit(write_audit_report, staging, report)
    for done, _outcome in enumerate(renders.completed([audit, *pages]), start=1):
        advance(done)
    return alerts, [workbook, *audit.result(), *(path for page in pages for path in page.result())]


def _write_manifest(run: _MonthRun, staging: Path, files: list[Path]) -> Path:
    """``manifest.json`` of the staged month: every file with its sha256."""
    manifest = staging / MANIFEST
    document = _manifest(run, staging, files)
    manifest.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return manifest


def _verify_month(
    connection: sqlite3.Connection,
    config: OperatorConfig,
    run: _MonthRun,
    watch: tuple[Log, Progress],
) -> VerifyResult:
    """Verify the month (findings replaced in the store), with its bar and its log lines."""
    log, progress = watch
    month = run.month
    total = None
    if progress is not no_progress:  # someone watches: the bar's total is worth a count
        query = "SELECT count(*) FROM rounds WHERE report_month = ?"
        total = connection.execute(query, (month,)).fetchone()[0]
    verified = verify(
        connection,
        config,
        month,
        progress=progress(f"verify {month}", total),
        jobs=run.jobs,
        runner=run.runner,
    )
    log(
        f"verify {month}: {verified.rounds_checked} rounds, {verified.bets_checked} bets,"
        f" {verified.finding_count} findings"
        + (f", {verified.bets_unverified} bets not verified" if verified.bets_unverified else "")
    )
    for entry in verified.checks_not_run:
        log(f"verify {month}: warning: {entry.game_id}: not checked: {entry.describe()}")
    return verified


def _log_alerts(alerts: MonthAlerts, month: str, log: Log) -> None:
    """The exit code's reasons, each a warning of the log (which the journal's priority filter
    finds; the inbox's unread files and the pages' problems were warnings of their steps);
    then the files' fields not read and the shoes' hands missing, warnings too, of no alert
    (as the checks not run, which verify logged)."""
    for line in alerts.alerts_but("unread", "publishing"):
        log(f"month {month}: warning: {line}")
    for line in alerts.fields_not_read_lines + alerts.shoes_lines:
        log(f"month {month}: warning: {line}")


def _write_audit(
    connection: sqlite3.Connection,
    config: OperatorConfig,
    run: _MonthRun,
    staging: Path,
    verified: VerifyResult,
    log: Log,
    *,
    disclosures: Mapping[str, Disclosure],
    publishing: dict[str, tuple[str, ...]],
) -> tuple[MonthAlerts, Path, AuditReport]:
    """What bears on the month, gathered, and the month's audit: the workbook, which lists the
    pages' ``publishing`` problems (game id -> the warnings that make them drafts), written,
    and the report, which names every alert, built (to be rendered as HTML and PDF by
    :func:`~reporting.presentation.audit_report.write_audit_report`). The alerts returned,
    with the workbook's path and the report."""
    month = run.month
    day = max(run.as_of[game.id] for game in run.games)
    audit = audit_month(
        connection,
        config,
        month,
        as_of_by_game=run.as_of,
        configuration_path=config.source,
        tool_version=__version__,
        disclosures=disclosures,
    )
    log(
        f"audit {month}: {len(audit.void_rounds)} void rounds,"
        f" {len(audit.gaps)} availability gaps, {len(verified.shoes)} shoes"
    )
    alerts = month_alerts(
        connection,
        month,
        findings_by_kind=verified.findings_by_kind,
        unverified_rounds=verified.unconfigured_rounds,
        unread_files=run.unread,
        publishing=publishing,
        checks_not_run=verified.checks_not_run,
        availability=availability_problems(audit.gaps, config.games, Month.parse(month)),
        misplaced_rounds=verified.misplaced_rounds,
        late_rounds=run.late,
        shoes=verified.shoes,
    )
    _log_alerts(alerts, month, log)
    workbook, report = write_month_workbook(
        staging,
        connection,
        config,
        verified,
        audit,
        as_of=day,
        publishing=publishing,
        alerts=alerts,
    )
    return alerts, workbook, report


def _write_game(
    game: GameSpec, disclosure: Disclosure, as_of: date, staging: Path, render: Renderer
) -> list[Path]:
    """A game's folder of the month: its disclosure JSON, then what ``render`` writes."""
    game_folder = staging / game.id
    game_folder.mkdir()
    disclosure_json = game_folder / f"{game.id}.disclosure.json"
    disclosure_json.write_text(
        json.dumps(disclosure.to_document(), indent=2, ensure_ascii=False) + "\n",
        encoding="utf-8",
    )
    return [disclosure_json, *render(game, disclosure, as_of, game_folder)]


def _manifest(run: _MonthRun, staging: Path, files: list[Path]) -> dict:
    """The month's manifest: the run's inputs and every file it wrote, with their hashes; and
    every inbox file it did not read, when there is one (the audit report names the first)."""
    document = {
        "tool": "baccarat-report",
        "tool_version": __version__,
        "reference_month": run.month,
        "as_of": {
            game.id: run.as_of[game.id].isoformat()
            for game in sorted(run.games, key=lambda g: g.id)
        },
        "inputs": run.inputs,
        "outputs": [
            {
                "file": path.relative_to(staging).as_posix(),
                "sha256": sha256_of(path),
                "size": path.stat().st_size,
            }
            for path in sorted(files, key=lambda p: p.relative_to(staging).as_posix())
        ],
    }
    if run.unread:
        document["not_read"] = sorted(run.unread)
    return document
