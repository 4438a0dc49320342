"""The monthly scheduled run: ingest the inbox, verify the reference month, write every report.

Safe to run unattended and to re-run:

* one run at a time: a lock file in the output folder; a second run waits (``wait``
  seconds) or stops with :class:`LockHeld`;
* every report of a month is written into a hidden staging folder, then the month's folder is
  swapped in by renames: a failure or a kill leaves the previous reports as they were and no
  half-written file in the month's folder (stale staging folders are cleared next time);
* the same inputs and as-of date give byte-identical files, listed with their sha256 in
  ``manifest.json`` (which holds no clock time, so it is byte-identical too).
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shutil
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from reporting import __version__
from reporting.config.loader import OperatorConfig
from reporting.engine.games import GameSpec
from reporting.errors import InputError
from reporting.figures.disclosure import Disclosure, disclose, reference_month
from reporting.figures.regulators import update_day
from reporting.figures.statistics import outcome_tests, rtp_checks
from reporting.files import sha256_of
from reporting.ingest.discovery import discover_sources
from reporting.presentation.audit_xlsx import write_audit_workbook
from reporting.store.load import IngestResult, ingest
from reporting.store.schema import rejected_count
from reporting.verify.run import VerifyResult, verify

__all__ = ["LockHeld", "MonthReport", "MonthlyResult", "run_monthly"]

LOCK_NAME = ".baccarat-report.lock"
STAGING = ".staging"

#: Writes one game's rendered documents into a folder; returns the files written.
#: (rule sheets and disclosure pages; supplied by the renderer so that this module needs no
#: template machinery to be tested)
Renderer = Callable[[GameSpec, Disclosure, date, Path], list[Path]]
#: Receives progress lines for the log.
Log = Callable[[str], None]


class LockHeld(InputError):
    """Another monthly run holds the lock on the output folder."""


@dataclass
class MonthReport:
    """What was written for one reference month."""

    month: str
    folder: Path
    games: list[str]
    findings: int
    findings_by_kind: dict[str, int]
    rejected: int  # rejected lines bearing on the month (see reporting.store.rejected_count)
    files: list[Path] = field(default_factory=list)
    warnings: dict[str, tuple[str, ...]] = field(default_factory=dict)  # game id -> warnings
    without_play: list[str] = field(default_factory=list)  # games with no stakes in the month


@dataclass
class MonthlyResult:
    """The outcome of one monthly run."""

    as_of: dict[str, date]
    ingest: IngestResult
    months: list[MonthReport]

    @property
    def findings(self) -> int:
        """Findings over every month written."""
        return sum(month.findings for month in self.months)

    @property
    def rejected(self) -> int:
        """Rejected lines bearing on the months written, and those of files read this run."""
        return sum(month.rejected for month in self.months) + self.ingest.rejected_count

    @property
    def without_play(self) -> list[str]:
        """Games whose reference month had no stakes: their pages show 0.00%."""
        return [game for month in self.months for game in month.without_play]


@contextmanager
def output_lock(out: Path, wait: float) -> Iterator[None]:
    """Hold the output folder's lock, waiting up to ``wait`` seconds for another run."""
    out.mkdir(parents=True, exist_ok=True)
    path = out / LOCK_NAME
    handle = path.open("a+")
    deadline = time.monotonic() + wait
    try:
        while True:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    handle.seek(0)
                    holder = handle.read().strip() or "another process"
                    raise LockHeld(
                        f"{out}: another monthly run is writing here ({holder}); it was not"
                        " disturbed. Try again when it ends, or pass --wait SECONDS"
                    ) from None
                time.sleep(0.2)
        handle.seek(0)
        handle.truncate()
        handle.write(f"pid {os.getpid()}")
        handle.flush()
        yield
    finally:
        handle.close()


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
) -> MonthlyResult:
    """Ingest new inbox files, then for each reference month write every report.

    ``as_of`` gives each game's page date (its local date). Games are grouped by their
    reference month; each month gets ``out/YYYY-MM/`` with, per game, the disclosure JSON
    and what ``render`` writes (disclosure pages and rule sheets), plus the month's audit
    workbook and ``manifest.json``. ``locked`` says the caller already holds the output
    folder's lock (:func:`output_lock`), e.g. to open the database only under it.
    """
    if not inbox.is_dir():
        raise InputError(f"{inbox}: the inbox is not a folder")
    months = _games_by_month(config, as_of)
    with contextlib.nullcontext() if locked else output_lock(out, wait):
        _clear_staging(out)
        ingested, inputs = _ingest_inbox(connection, config, inbox, log)
        reports = []
        for month, games in sorted(months.items()):
            with _staging_folder(out, month) as staging:
                reports.append(
                    _write_month(
                        connection, config, month, games, as_of, out, inputs, render, log, staging
                    )
                )
        (out / STAGING).rmdir()
        return MonthlyResult(as_of, ingested, reports)


def _games_by_month(config: OperatorConfig, as_of: dict[str, date]) -> dict[str, list[GameSpec]]:
    """The games by the reference month of their page date: one month, or an input error."""
    months: dict[str, list[GameSpec]] = {}
    for game in config.games.values():
        month = reference_month(as_of[game.id], update_day(game))
        months.setdefault(str(month), []).append(game)
    if len(months) > 1:
        # A month's folder is rebuilt whole: a run that wrote only some of its games would
        # drop the others' reports. This happens only near midnight in some game's zone.
        dates = ", ".join(f"{game.id} {month}" for month, games in months.items() for game in games)
        raise InputError(
            f"the games' dates fall in different reference months ({dates}): the run is near"
            " midnight in one of their time zones; pass --as-of YYYY-MM-DD"
        )
    return months


def _ingest_inbox(
    connection: sqlite3.Connection, config: OperatorConfig, inbox: Path, log: Log
) -> tuple[IngestResult, list[dict]]:
    """Ingest the inbox's round logs; what was loaded, and each input file with its sha256
    (for the manifest). A file that could not be read stops the run."""
    sources = discover_sources([inbox])
    log(f"inbox {inbox}: {len(sources)} round log(s)")
    ingested = ingest(connection, sources, config)
    for item in ingested.files:
        log(
            f"ingest {item.file}: {item.status}, {item.rounds_loaded} rounds,"
            f" {item.bets_loaded} bets, {item.rejected_count} rejected"
        )
    if ingested.failed:
        raise InputError("; ".join(str(item.error) for item in ingested.failed))
    inputs = [
        {
            "file": path.relative_to(inbox).as_posix(),
            "sha256": sha256_of(path),
            "size": path.stat().st_size,
        }
        for source in sources
        for path in source.files
    ]
    return ingested, inputs


def _clear_staging(out: Path) -> None:
    """Remove what a killed run left in the staging area (we hold the lock: no run is live)."""
    staging = out / STAGING
    if staging.exists():
        shutil.rmtree(staging)


@contextmanager
def _staging_folder(out: Path, month: str) -> Iterator[Path]:
    """A new staging folder for a month's reports, removed again unless all are written
    (and swapped in)."""
    staging = out / STAGING / month
    staging.mkdir(parents=True)
    try:
        yield staging
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def _write_month(
    connection: sqlite3.Connection,
    config: OperatorConfig,
    month: str,
    games: list[GameSpec],
    as_of: dict[str, date],
    out: Path,
    inputs: list[dict],
    render: Renderer,
    log: Log,
    staging: Path,
) -> MonthReport:
    verified, workbook = _audit(
        connection, config, month, max(as_of[g.id] for g in games), staging, log
    )
    files: list[Path] = [workbook]
    warnings: dict[str, tuple[str, ...]] = {}
    without_play = []
    for game in sorted(games, key=lambda game: game.id):
        disclosure = disclose(connection, game, as_of[game.id])
        warnings[game.id] = disclosure.warnings
        if not disclosure.stakes:
            without_play.append(game.id)
        files.extend(_write_game(game, disclosure, as_of[game.id], staging, render))
        for warning in disclosure.warnings:
            log(f"disclose {game.id}: warning: {warning}")
    manifest = staging / "manifest.json"
    manifest.write_text(
        json.dumps(
            _manifest(month, games, as_of, inputs, staging, files),
            indent=2,
            ensure_ascii=False,
        )
        + "\n",
        encoding="utf-8",
    )
    final = out / month
    _swap_in(staging, final)
    log(f"reports for {month}: {final}")
    return MonthReport(
        month=month,
        folder=final,
        games=[game.id for game in games],
        findings=verified.finding_count,
        findings_by_kind=dict(verified.findings_by_kind),
        rejected=rejected_count(connection, month),
        warnings=warnings,
        without_play=without_play,
        files=[final / path.relative_to(staging) for path in [*files, manifest]],
    )


def _audit(
    connection: sqlite3.Connection,
    config: OperatorConfig,
    month: str,
    day: date,
    staging: Path,
    log: Log,
) -> tuple[VerifyResult, Path]:
    """Verify the month (findings replaced in the store) and write its audit workbook."""
    verified = verify(connection, config, month)
    log(
        f"verify {month}: {verified.rounds_checked} rounds, {verified.bets_checked} bets,"
        f" {verified.finding_count} findings"
    )
    workbook = staging / f"audit-{month}.xlsx"
    write_audit_workbook(
        workbook,
        connection,
        config,
        verified,
        outcome_tests(verified.tables, config.games),
        rtp_checks(verified.bet_totals, config.games),
        as_of=day,
        tool_version=__version__,
    )
    return verified, workbook


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


def _manifest(
    month: str,
    games: list[GameSpec],
    as_of: dict[str, date],
    inputs: list[dict],
    staging: Path,
    files: list[Path],
) -> dict:
    return {
        "tool": "baccarat-report",
        "tool_version": __version__,
        "reference_month": month,
        "as_of": {
            game.id: as_of[game.id].isoformat() for game in sorted(games, key=lambda g: g.id)
        },
        "inputs": inputs,
        "outputs": [
            {
                "file": path.relative_to(staging).as_posix(),
                "sha256": sha256_of(path),
                "size": path.stat().st_size,
            }
            for path in sorted(files, key=lambda p: p.relative_to(staging).as_posix())
        ],
    }


def _swap_in(staging: Path, final: Path) -> None:
    """Replace ``final`` by ``staging`` with renames: the old reports stay whole until the
    new ones are complete, and the window without a folder is two renames long."""
    retired = final.with_name(f".{final.name}.old")
    if retired.exists():
        shutil.rmtree(retired)
    if final.exists():
        os.replace(final, retired)
    os.replace(staging, final)
    if retired.exists():
        shutil.rmtree(retired)
