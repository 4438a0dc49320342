"""The monthly scheduled job (cli.md ``monthly``, disclosures.md reference month).

It runs unattended from cron on the 5th, so these tests drive it the way cron does: the real
command in a child process, from an empty folder, then again, interrupted, locked out, with
new files arriving. Rendering PDFs is slow, so:

* one module fixture (:func:`october`) renders a two-game month for real (live-baccarat-it in
  Italian with its ADM pages, live-baccarat-gr in Greek): a first run and, beside it, the same
  run into a fresh database and folder; then a run killed while staging; then a re-run;
* the other command runs use games configured with no languages (``languages = []``): the
  real command with every step of the job except the rule sheets, which are not their subject;
* library tests pass a small renderer to :func:`reporting.jobs.monthly.run_monthly`;
* a run in this process (a library test, ``main()`` called here) prints each page once: the
  month's audit report of the same small month, printed again by some twenty tests whose
  subject is the job's steps, is taken from the first print (:func:`print_once_here`).
"""

from __future__ import annotations

import contextlib
import dataclasses
import fcntl
import functools
import gzip
import hashlib
import itertools
import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from datetime import date, datetime
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from types import SimpleNamespace
from zoneinfo import ZoneInfo

import pytest
from children import WarmChild, print_once_in_this_process
from helpers import (
    bet_record,
    pdf_text,
    round_record,
    run_main,
    sample_inbox_counts,
    store_records,
    workers_of,
)

from reporting import __version__
from reporting.cli import main
from reporting.cli.monthly import _summary, monthly_document, render_game
from reporting.config.loader import OperatorConfig, load_config
from reporting.errors import InputError
from reporting.files import make_staging
from reporting.jobs import rendering
from reporting.jobs.monthly import STAGING, LockHeld, lock_path, output_lock, run_monthly
from reporting.records import FINDING_KINDS
from reporting.sample import CARRIED_KINDS
from reporting.sample.generator import generate_month
from reporting.store.schema import connect
from tests.presentation.printed import page_breaks_read

#: The finding kinds a generated month of the spec's log carries (not unverified_bet: the
#: spec's bet types are this tool's own).
SPEC_FINDING_KINDS = tuple(kind for kind in FINDING_KINDS if kind in CARRIED_KINDS["jsonl"])

# The two games rendered for real: ADM (disclosure pages) and not, two alphabets.
TWO_GAMES = """\
[operator]
name = "Monthly Test S.p.A."

[games.live-baccarat-it]
languages = ["it"]

[games.live-baccarat-gr]
languages = ["el"]
"""

# Every file the two-game month must hold, and nothing else.
OCTOBER_FILES = {
    "audit-2026-10.xlsx",
    "audit-2026-10.html",
    "audit-2026-10.pdf",
    "manifest.json",
    "live-baccarat-it/live-baccarat-it.disclosure.json",
    "live-baccarat-it/live-baccarat-it.it.pdf",
    "live-baccarat-it/live-baccarat-it.it.xlsx",
    "live-baccarat-it/live-baccarat-it.it.html",
    "live-baccarat-it/live-baccarat-it.it.disclosure.html",
    "live-baccarat-it/live-baccarat-it.it.disclosure.pdf",
    "live-baccarat-gr/live-baccarat-gr.disclosure.json",
    "live-baccarat-gr/live-baccarat-gr.el.pdf",
    "live-baccarat-gr/live-baccarat-gr.el.xlsx",
    "live-baccarat-gr/live-baccarat-gr.el.html",
}

# One Greek game, no rule sheets: the job's every other step, in a second or two.
GREEK_NO_SHEETS = """\
[games.live-baccarat-gr]
languages = []
"""

# An Italian game (Rome's months), no rule sheets. Not the ADM game: an ADM game must publish
# its pages, so its languages cannot be empty (the configuration refuses it); this one stands
# on the Greek base, with no regulator.
ITALIAN_NO_SHEETS = """\
[games.live-baccarat-it]
base = "live-baccarat-gr"
timezone = "Europe/Rome"
languages = []
"""

# Two games that publish pages (for the library tests and the failure test, whose renderers
# stand in for the real one: so both games' pages are work for a render worker).
TWO_GAMES_STUB_SHEETS = """\
[games.live-baccarat-it]
base = "live-baccarat-gr"
timezone = "Europe/Rome"
languages = ["el"]

[games.live-baccarat-gr]
languages = ["el"]
"""

# Games 25 hours apart: their local dates differ nearly all the time.
FAR_APART_NO_SHEETS = """\
[games.live-baccarat-east]
base = "live-baccarat-gr"
timezone = "Pacific/Kiritimati"
languages = []

[games.live-baccarat-west]
base = "live-baccarat-gr"
timezone = "Pacific/Pago_Pago"
languages = []
"""

LOG_LINE = re.compile(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}[+-]\d{4} baccarat-report monthly: \S")


# --- helpers -----------------------------------------------------------------------------------


def write_config(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def snapshot(folder: Path) -> dict[str, str]:
    """Every file under ``folder`` (hidden ones too), by relative path, with its sha256."""
    if not folder.exists():
        return {}
    return {
        path.relative_to(folder).as_posix(): sha256(path)
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def files_under(folder: Path) -> set[str]:
    return set(snapshot(folder))


def command_env() -> dict[str, str]:
    """The environment of a cron job's child: no forced colours, stderr a pipe."""
    env = {key: value for key, value in os.environ.items() if key not in ("FORCE_COLOR",)}
    env["TERM"] = "xterm-256color"  # a colour-capable terminal type must not matter
    return env


def monthly_argv(
    inbox: Path, out: Path, db: Path, config: Path, *extra: str, as_of: str | None = "2026-11-05"
) -> list[str]:
    argv = [sys.executable, "-m", "reporting", "monthly", "--inbox", str(inbox), "--out", str(out)]
    argv += ["--db", str(db), "--config", str(config)]
    if as_of is not None:
        argv += ["--as-of", as_of]
    return [*argv, *extra]


@pytest.fixture(autouse=True)
def print_once_here(monkeypatch):
    """A page a run in this process printed before is taken from that print
    (:func:`children.print_once_in_this_process`)."""
    print_once_in_this_process(monkeypatch)


def run_command(argv: list[str], cwd: Path, **options) -> subprocess.CompletedProcess:
    """The command in a child process of its own (forked warm: tests/children.py)."""
    pipes = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE, "encoding": "utf-8"}
    return finish(start_command(argv, cwd, **pipes, **options))


def start_command(
    argv: list[str], cwd: Path, *, print_once=True, env: dict[str, str] | None = None, **options
) -> subprocess.Popen:
    """The command in a warm child that prints each page new to this module only (children.py:
    the pages of these runs are not their subject); ``print_once=False`` prints every page.
    ``env``: variables set over :func:`command_env`'s."""
    env = command_env() | (env or {})
    return WarmChild(argv, cwd=cwd, env=env, print_once=print_once, **options)


def finish(process: subprocess.Popen) -> subprocess.CompletedProcess:
    stdout, stderr = process.communicate(timeout=300)
    return subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)


def assert_clean_failure(process: subprocess.CompletedProcess, *fragments: str) -> str:
    """Exit 2, nothing on stdout, one line on stderr naming the problem; the line."""
    assert process.returncode == 2, (process.stdout, process.stderr)
    assert process.stdout == ""
    assert "Traceback" not in process.stderr
    lines = process.stderr.strip().splitlines()
    assert len(lines) == 1, process.stderr
    assert lines[0].startswith("baccarat-report: "), lines[0]
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]


def assert_plain_log(stderr: str) -> list[str]:
    """Every stderr line is a stamped plain log line, without a colour code; the lines."""
    assert "\x1b" not in stderr
    lines = stderr.splitlines()
    assert lines, "the run logged nothing"
    for line in lines:
        assert LOG_LINE.match(line), line
    return lines


def percent_half_up(payouts: int, stakes: int) -> str:
    return str((Decimal(100 * payouts) / Decimal(stakes)).quantize(Decimal("0.01"), ROUND_HALF_UP))


def db_rows(db: Path, sql: str, *params) -> list[tuple]:
    connection = sqlite3.connect(db)
    try:
        return connection.execute(sql, params).fetchall()
    finally:
        connection.close()


def disclosure_of(month_folder: Path, game: str) -> dict:
    return json.loads((month_folder / game / f"{game}.disclosure.json").read_text("utf-8"))


def manifest_of(month_folder: Path) -> dict:
    return json.loads((month_folder / "manifest.json").read_text("utf-8"))


def write_stub_pages(game, disclosure, as_of: date, folder: Path) -> list[Path]:
    """A renderer that writes one small page per game (the library tests' stand-in)."""
    page = folder / f"{game.id}.page.txt"
    page.write_text(
        f"{game.id} {disclosure.reference_month_text} {disclosure.win_percentage}\n",
        encoding="utf-8",
    )
    return [page]


def library_run(
    config: OperatorConfig, inbox: Path, out: Path, db: Path, day: date, render, render_jobs=1
):
    connection = connect(db)
    try:
        return run_monthly(
            connection, config, inbox, out, {game: day for game in config.games}, render,
            render_jobs=render_jobs,
        )  # fmt: skip
    finally:
        connection.close()


# Hand-written Greek rounds of October (settled 2026-10-03 18:40 UTC, 21:40 in Athens). Each
# round has a shoe of its own. Player natural 9 beats banker 7.
def greek_round(make_round, make_bet, round_id: str, bet_type: str, stake: str, payout: str):
    return make_round(
        round_id,
        game="live-baccarat-gr",
        table_id="GR-LATE",
        shoe_id=f"{round_id}-S1",
        hand_no=1,
        bets=[make_bet(f"{round_id}-B1", type=bet_type, stake=stake, payout=payout)],
    )


def write_two_greek_rounds(path: Path, make_round, make_bet, write_jsonl, *extra: str) -> Path:
    """Two October rounds: banker 25.00 lost, player 10.00 paid 20.00 (stakes 35, payouts 20)."""
    return write_jsonl(
        path,
        greek_round(make_round, make_bet, "GR-LATE-1", "banker", "25.00", "0.00"),
        greek_round(make_round, make_bet, "GR-LATE-2", "player", "10.00", "20.00"),
        *extra,
    )


def write_csv_pair(folder: Path, round_id: str, stake: str, payout: str) -> tuple[Path, Path]:
    """``rounds.csv`` and ``bets.csv`` with one Greek October round: a player bet."""
    folder.mkdir(parents=True, exist_ok=True)
    rounds = folder / "rounds.csv"
    bets = folder / "bets.csv"
    rounds.write_text(
        "round_id,table_id,game,shoe_id,hand_no,started_at,betting_closed_at,settled_at,status,"
        "void_reason,player_cards,banker_cards\n"
        f"{round_id},GR-CSV,live-baccarat-gr,{round_id}-S1,1,2026-10-04T10:00:00Z,"
        "2026-10-04T10:00:15Z,2026-10-04T10:00:40Z,settled,,9H KS,5D 2C\n",
        encoding="utf-8",
    )
    bets.write_text(
        "round_id,bet_id,account,type,stake,payout,currency,placed_at\n"
        f"{round_id},{round_id}-B1,acc-77,player,{stake},{payout},EUR,2026-10-04T10:00:05Z\n",
        encoding="utf-8",
    )
    return rounds, bets


# --- the two-game month, rendered for real -------------------------------------------------------


def _wait_for_staged_file(process: subprocess.Popen, staging: Path) -> list[str]:
    """Poll until the run has written a file into its staging folder; the files there."""
    deadline = time.monotonic() + 240
    while process.poll() is None and time.monotonic() < deadline:
        with contextlib.suppress(OSError):
            if staging.is_dir():
                staged = sorted(
                    p.relative_to(staging).as_posix() for p in staging.rglob("*") if p.is_file()
                )
                if staged:
                    return staged
        time.sleep(0.01)
    return []


@pytest.fixture(scope="module")
def october(tmp_path_factory):
    """A month with one injected fault of every kind, through the real command.

    ``first`` (database A, folder A, ``--jobs 1``) and ``fresh`` (database B, folder B,
    ``--jobs 2``: its documents rendered in two worker processes) run side by side from
    empty folders; then a run on A is killed once it has staged a file; then ``second`` runs
    on A again. Snapshots of A's month folder are taken after each step.
    """
    root = tmp_path_factory.mktemp("october")
    config_path = write_config(root / "operator.toml", TWO_GAMES)
    config = load_config(config_path)
    inbox = root / "inbox"
    log = inbox / "round-log-2026-10.jsonl.gz"
    summary = generate_month(config, "2026-10", log, rounds_per_day=20, faults=1, seed=51105)
    # The fault manifest is the test's answer key: out of the inbox.
    faults_path = summary.manifest.rename(root / summary.manifest.name)
    faults = json.loads(faults_path.read_text("utf-8"))["faults"]
    assert sorted(inbox.iterdir()) == [log]

    out_a, db_a = root / "out-a", root / "a.sqlite"
    out_b, db_b = root / "out-b", root / "b.sqlite"
    # Every page of these runs printed: they are what the job prints, and prints again.
    pipes = {
        "stdout": subprocess.PIPE,
        "stderr": subprocess.PIPE,
        "text": True,
        "print_once": False,
    }
    # The run with render workers has a temporary folder of its own, to be found empty after.
    temporary = root / "tmp-b"
    temporary.mkdir()
    fresh_argv = monthly_argv(inbox, out_b, db_b, config_path, "--jobs", "2")
    running = [
        start_command(monthly_argv(inbox, out_a, db_a, config_path, "--jobs", "1"), root, **pipes),
        start_command(fresh_argv, root, env={"TMPDIR": str(temporary)}, **pipes),
    ]
    first, fresh = (finish(process) for process in running)
    after_first = snapshot(out_a / "2026-10")
    fresh_files = snapshot(out_b / "2026-10")

    # Killed midway: once the staging folder holds a file, SIGKILL the whole process group
    # (its workers' folder, which no killed run can remove, in a temporary folder of its own).
    (root / "tmp-killed").mkdir()
    killed = start_command(
        monthly_argv(inbox, out_a, db_a, config_path),
        root,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        print_once=False,
        env={"TMPDIR": str(root / "tmp-killed")},
    )
    staged_at_kill = _wait_for_staged_file(killed, out_a / STAGING / "2026-10")
    killed_midway = killed.poll() is None and bool(staged_at_kill)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(killed.pid, signal.SIGKILL)
    killed.wait(timeout=60)
    after_kill = snapshot(out_a / "2026-10")
    out_after_kill = files_under(out_a)

    second = run_command(monthly_argv(inbox, out_a, db_a, config_path), root, print_once=False)
    after_second = snapshot(out_a / "2026-10")

    return SimpleNamespace(
        root=root,
        config_path=config_path,
        inbox=inbox,
        log=log,
        faults=faults,
        out=out_a,
        db=db_a,
        fresh_out=out_b,
        fresh_db=db_b,
        first=first,
        fresh=fresh,
        second=second,
        after_first=after_first,
        fresh_files=fresh_files,
        fresh_temporary=sorted(path.name for path in temporary.iterdir()),
        killed_midway=killed_midway,
        killed_returncode=killed.returncode,
        staged_at_kill=staged_at_kill,
        after_kill=after_kill,
        out_after_kill=out_after_kill,
        after_second=after_second,
    )


def test_first_run_from_empty_folders_exits_1_for_the_injected_findings(october):
    assert october.first.returncode == 1, october.first.stderr
    assert october.fresh.returncode == 1, october.fresh.stderr
    injected = sum(fault["category"] == "finding" for fault in october.faults)
    assert f"{injected} findings" in october.first.stdout
    assert "Traceback" not in october.first.stderr


def test_first_run_writes_every_expected_file_and_nothing_else(october):
    assert set(october.after_first) == OCTOBER_FILES
    # The staging area is gone; only the month sits in the output folder (the lock file is
    # beside it, outside the published tree).
    assert {path.name for path in october.fresh_out.iterdir()} == {"2026-10"}
    assert files_under(october.fresh_out) == {f"2026-10/{f}" for f in OCTOBER_FILES}
    assert lock_path(october.fresh_out) == october.fresh_out.parent / ".out-b.lock"
    assert lock_path(october.fresh_out).read_text().startswith("pid ")


def test_a_run_with_render_workers_leaves_nothing_in_the_temporary_folder(october):
    """Each render worker loads the faces into a temporary folder (1.5 MB), which a pool's
    worker, ending without its atexit handlers, does not remove: the workers' temporary
    files go in a folder of the run's, removed after them."""
    assert october.fresh.returncode == 1, october.fresh.stderr
    assert october.fresh_temporary == []


def test_manifest_lists_every_input_and_output_with_hashes_that_match_the_files(october):
    folder = october.fresh_out / "2026-10"
    manifest = manifest_of(folder)
    assert manifest["tool"] == "baccarat-report"
    assert manifest["tool_version"] == __version__
    assert manifest["reference_month"] == "2026-10"
    assert manifest["as_of"] == {"live-baccarat-gr": "2026-11-05", "live-baccarat-it": "2026-11-05"}
    assert manifest["inputs"] == [
        {
            "file": "round-log-2026-10.jsonl.gz",
            "sha256": sha256(october.log),
            "size": october.log.stat().st_size,
        }
    ]
    listed = [entry["file"] for entry in manifest["outputs"]]
    assert listed == sorted(listed)
    assert set(listed) == OCTOBER_FILES - {"manifest.json"}
    for entry in manifest["outputs"]:
        path = folder / entry["file"]
        assert entry["sha256"] == sha256(path), entry["file"]
        assert entry["size"] == path.stat().st_size, entry["file"]


def test_findings_stored_for_the_month_are_exactly_the_injected_ones(october):
    injected = sorted(
        (fault["kind"], fault["round_id"])
        for fault in october.faults
        if fault["category"] == "finding"
    )
    assert len(injected) == len(SPEC_FINDING_KINDS)  # one of every kind the spec's log carries
    for db in (october.db, october.fresh_db):
        stored = db_rows(db, "SELECT kind, round_id FROM findings WHERE report_month = '2026-10'")
        assert sorted(stored) == injected


def test_rejected_lines_are_exactly_the_injected_ones(october):
    injected = sorted(
        (fault["kind"], fault["line"]) for fault in october.faults if fault["category"] == "reject"
    )
    stored = db_rows(october.fresh_db, "SELECT reason, line FROM rejected_records")
    assert sorted(stored) == injected
    assert f"{len(injected)} rejected lines" in october.fresh.stdout


def test_disclosures_carry_the_month_figures_computed_from_the_database(october):
    folder = october.fresh_out / "2026-10"
    for game in ("live-baccarat-it", "live-baccarat-gr"):
        document = disclosure_of(folder, game)
        [(rounds,)] = db_rows(
            october.fresh_db,
            "SELECT count(*) FROM rounds WHERE game_id = ? AND report_month = '2026-10'"
            " AND status = 'settled'",
            game,
        )
        [(stakes, payouts)] = db_rows(
            october.fresh_db,
            "SELECT sum(b.stake_cents), sum(b.payout_cents) FROM bets AS b JOIN rounds AS r"
            " USING (round_id) WHERE r.game_id = ? AND r.report_month = '2026-10'"
            " AND r.status = 'settled'",
            game,
        )
        assert rounds > 500
        assert document["reference_month"] == "2026-10"
        assert document["updated_on"] == "2026-11-05"
        assert document["as_of"] == "2026-11-05"
        assert document["rounds"] == rounds
        assert document["previous_month_win_percentage"] == percent_half_up(payouts, stakes)
        assert not any(warning.startswith("no play") for warning in document["warnings"])


def test_log_lines_on_stderr_are_plain_when_not_on_a_terminal(october):
    assert_plain_log(october.first.stderr)
    lines = assert_plain_log(october.fresh.stderr)
    [(rounds, bets)] = db_rows(
        october.fresh_db, "SELECT rounds_loaded, bets_loaded FROM ingest_log"
    )
    assert rounds > 1000 and bets > rounds
    ingest_line = (
        f"ingest {october.log}: loaded, {rounds} rounds, {bets} bets, 0 duplicates, 9 rejected"
    )
    assert any(line.endswith(ingest_line) for line in lines), lines
    assert lines[-1].endswith(f"reports for 2026-10: {october.fresh_out / '2026-10'}")


def test_same_inputs_into_a_fresh_database_and_folder_give_identical_files(october):
    """... whatever the number of jobs: the first run rendered in this process, the fresh
    one in two worker processes (issue 25)."""
    assert october.fresh_files == october.after_first
    assert (october.fresh_out / "2026-10" / "manifest.json").read_bytes() == (
        october.out / "2026-10" / "manifest.json"
    ).read_bytes()


def test_a_rerun_on_the_same_database_gives_identical_files(october):
    assert october.second.returncode == 1, october.second.stderr
    assert october.after_second == october.after_first


def test_a_rerun_ingests_nothing_new_and_duplicates_no_finding(october):
    lines = assert_plain_log(october.second.stderr)
    assert (
        f"baccarat-report monthly: ingest {october.log}: already_ingested, 0 rounds, 0 bets,"
        in ("\n".join(lines))
    )
    assert db_rows(october.db, "SELECT count(*) FROM ingest_log") == [(1,)]
    assert (
        db_rows(
            october.db,
            "SELECT kind, round_id, bet_id, count(*) FROM findings GROUP BY kind, round_id, bet_id"
            " HAVING count(*) > 1",
        )
        == []
    )
    assert db_rows(october.db, "SELECT count(*) FROM findings") == [(len(SPEC_FINDING_KINDS),)]
    assert db_rows(october.db, "SELECT count(*) FROM rejected_records") == [(9,)]
    # Every run reports the rejected lines bearing on the month, new or not (exit 1).
    assert "9 rejected lines bear on 2026-10" in october.second.stdout


def test_a_kill_while_staging_leaves_the_month_folder_exactly_as_it_was(october):
    assert october.killed_midway, "the run ended before it staged a file: nothing was killed"
    assert october.killed_returncode == -signal.SIGKILL
    assert october.after_kill == october.after_first
    # What the killed run staged is still in the staging area, never in the month folder.
    staged = {f"{STAGING}/2026-10/{name}" for name in october.staged_at_kill}
    assert staged <= october.out_after_kill
    month = {name for name in october.out_after_kill if name.startswith("2026-10/")}
    assert month == {f"2026-10/{name}" for name in OCTOBER_FILES}


def test_the_run_after_a_kill_completes_and_clears_the_staging_area(october):
    assert october.second.returncode == 1, october.second.stderr
    assert not (october.out / STAGING).exists()
    assert {path.name for path in october.out.iterdir()} == {"2026-10"}
    assert october.after_second == october.after_first


def _wait_for_rendering(process: subprocess.Popen, staging: Path) -> list[int]:
    """Poll until the run's workers render a game (its disclosure JSON, written first, is
    staged); the workers."""
    deadline = time.monotonic() + 240
    while process.poll() is None and time.monotonic() < deadline:
        workers = workers_of(process.pid)
        if workers and list(staging.glob("*/*.disclosure.json")):
            return workers
        time.sleep(0.01)
    raise AssertionError("the run rendered no game in a worker")


def start_two_job_run(october, tmp_path: Path) -> tuple[Path, subprocess.Popen]:
    """The october month's run with two jobs into a fresh database and folder, in a session of
    its own (text pipes), with a temporary folder of its own (``tmp_path / "tmp"``): its
    output folder and its process."""
    out, db = tmp_path / "out", tmp_path / "report.sqlite"
    (tmp_path / "tmp").mkdir()
    argv = monthly_argv(october.inbox, out, db, october.config_path, "--jobs", "2")
    process = start_command(
        argv, october.root, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True, env={"TMPDIR": str(tmp_path / "tmp")},
    )  # fmt: skip
    return out, process


@pytest.mark.parametrize(
    "error",
    [ConnectionRefusedError(111, "Connection refused"), BrokenPipeError(32, "Broken pipe")],
    ids=["refused", "broken-pipe"],
)
def test_a_fork_server_gone_while_workers_start_is_the_line_of_a_worker_stopped(monkeypatch, error):
    """The fork server killed while the pool started a worker: ConnectionRefusedError from
    multiprocessing ended the run on a traceback, where a worker killed gives one line; a
    fork server that never ran (its interpreter could not start) broke the pipe to it, and
    the command ended with exit 1 and not a word."""
    from reporting.errors import EnvironmentFault

    def refused(*args, **kwargs):
        raise error

    with (
        pytest.raises(EnvironmentFault, match="a render worker process stopped"),
        rendering.render_workers(2) as renders,
    ):
        monkeypatch.setattr(ProcessPoolExecutor, "submit", refused)
        renders.submit(print, "never")


def test_a_stop_while_the_render_workers_start_leaves_none_and_prints_one_line(
    october, tmp_path, monkeypatch
):
    """A SIGTERM while the fork server still imports (made slow here: a module of its preload
    sleeps) used to leave a worker the pool did not know yet: forked after the run had gone,
    it printed a traceback on the run's stderr. The run now waits for the starts it asked for,
    then kills them: its own line is the last, and no render process is left."""
    slow = tmp_path / "modules"
    slow.mkdir()
    (slow / "slow_to_import.py").write_text("import time\ntime.sleep(3)\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(slow))
    monkeypatch.setattr(
        "reporting.jobs.rendering._PRELOAD", ("slow_to_import", *rendering._PRELOAD)
    )
    _out, process = start_two_job_run(october, tmp_path)
    try:
        deadline = time.monotonic() + 60
        while not workers_of(process.pid):  # the fork server, importing
            assert process.poll() is None and time.monotonic() < deadline, "no fork server"
            time.sleep(0.01)
        time.sleep(1)
        process.send_signal(signal.SIGTERM)
        _stdout, stderr = process.communicate(timeout=60)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=30)
    assert process.returncode == 2, stderr
    assert stderr.splitlines()[-1].startswith("baccarat-report: stopped by SIGTERM"), stderr
    assert "Traceback" not in stderr


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGKILL], ids=["TERM", "KILL"])
def test_no_render_worker_outlives_a_stopped_run(october, tmp_path, stop):
    """Issue 25: a run stopped while its two workers render (SIGTERM: a clean stop, exit 2;
    SIGKILL of the run alone, not its group: the workers die with it) leaves no worker
    running and no month folder; a clean stop, nothing in the temporary folder either (the
    workers, killed, cannot remove their fonts: the run does)."""
    out, process = start_two_job_run(october, tmp_path)
    try:
        workers = _wait_for_rendering(process, out / STAGING / "2026-10")
        process.send_signal(stop)
        _stdout, stderr = process.communicate(timeout=60)
        deadline = time.monotonic() + 10
        while any(Path(f"/proc/{pid}").exists() for pid in workers):
            assert time.monotonic() < deadline, "a render worker outlived the run"
            time.sleep(0.05)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=30)
    if stop == signal.SIGTERM:
        assert process.returncode == 2, stderr
        assert stderr.splitlines()[-1].startswith("baccarat-report: stopped by SIGTERM"), stderr
        assert "Traceback" not in stderr
        assert not (out / STAGING / "2026-10").exists()
        assert list((tmp_path / "tmp").iterdir()) == []
    else:
        assert process.returncode == -signal.SIGKILL
    assert not (out / "2026-10").exists()


# --- the command, without rule sheets ---------------------------------------------------------


@pytest.fixture
def greek(tmp_path, make_round, make_bet, write_jsonl):
    """A Greek game without rule sheets and an inbox with two clean October rounds."""
    inbox = tmp_path / "inbox"
    write_two_greek_rounds(inbox / "late-2026-10.jsonl", make_round, make_bet, write_jsonl)
    return SimpleNamespace(
        root=tmp_path,
        config=write_config(tmp_path / "operator.toml", GREEK_NO_SHEETS),
        inbox=inbox,
        out=tmp_path / "out",
        db=tmp_path / "report.sqlite",
    )


def greek_argv(greek, *extra: str, as_of: str | None = "2026-11-05") -> list[str]:
    return monthly_argv(greek.inbox, greek.out, greek.db, greek.config, *extra, as_of=as_of)


def test_as_of_before_the_5th_reports_the_month_before_last_without_play(greek):
    process = run_command(greek_argv(greek, as_of="2026-11-04"), greek.root)
    # A month without play is published at 0.00% and the scheduler is told (exit 1).
    assert process.returncode == 1, process.stderr
    assert "live-baccarat-gr: no play in 2026-09" in process.stdout
    assert {path.name for path in greek.out.iterdir()} == {"2026-09"}
    document = disclosure_of(greek.out / "2026-09", "live-baccarat-gr")
    assert document["reference_month"] == "2026-09"
    assert document["updated_on"] == "2026-10-05"
    assert document["previous_month_win_percentage"] == "0.00"
    assert document["rounds"] == 0
    assert "no play in 2026-09: the page shows 0.00%" in document["warnings"]
    lines = assert_plain_log(process.stderr)
    assert any(
        line.endswith(
            "disclose live-baccarat-gr: warning: no play in 2026-09: the page shows 0.00%"
        )
        for line in lines
    )
    assert manifest_of(greek.out / "2026-09")["as_of"] == {"live-baccarat-gr": "2026-11-04"}


@pytest.mark.parametrize(("as_of", "month"), [("1980-01-01", "1979-11"), ("1980-02-04", "1979-12")])
def test_an_as_of_whose_month_is_before_the_first_handled_is_one_line_and_writes_no_month(
    greek, as_of, month
):
    """--as-of 1980-01-01 passed the date check, ingested the inbox, then stopped on a
    traceback writing the audit of 1979-11 and left the staging folder behind."""
    process = run_command(greek_argv(greek, as_of=as_of), greek.root)
    assert_clean_failure(
        process, f"--as-of {as_of}", f"the month it writes, {month}", "pass --as-of 1980-02-05"
    )
    assert not greek.out.exists() or not any(greek.out.iterdir())
    assert db_rows(greek.db, "SELECT count(*) FROM ingest_log") == [(0,)]  # the inbox unread


def test_the_last_month_handled_is_written_by_its_run_in_the_month_after(
    greek, make_round, make_bet, write_jsonl
):
    """Rounds of 2099-12, the last month handled, loaded; but --as-of stopped at 2099-12-31,
    so that no run could write their month. Its run, dated January 2100, writes it; the
    month after it is one no run writes."""
    late = make_round(
        "GR-2099",
        game="live-baccarat-gr",
        table_id="GR-LATE",
        settled_at="2099-12-03T18:40:41Z",
        started_at="2099-12-03T18:40:02Z",
        betting_closed_at="2099-12-03T18:40:17Z",
        bets=[make_bet("GR-2099-B1", type="player", stake="10.00", payout="20.00",
                       placed_at="2099-12-03T18:40:09Z")],
    )  # fmt: skip
    write_jsonl(greek.inbox / "2099-12.jsonl", late)
    process = run_command(greek_argv(greek, as_of="2100-01-05"), greek.root)
    assert process.returncode in (0, 1), process.stderr
    disclosure = disclosure_of(greek.out / "2099-12", "live-baccarat-gr")
    assert (disclosure["reference_month"], disclosure["rounds"]) == ("2099-12", 1)
    process = run_command(greek_argv(greek, as_of="2100-02-05"), greek.root)
    assert_clean_failure(process, "--as-of 2100-02-05", "1980-01-01 to 2100-01-31", "2099-12")


def test_a_game_of_no_language_is_said_to_have_no_page_not_a_page_ready(greek):
    """A game whose configuration lists no language publishes no page: the Pages sheet said
    "Draft: no", as of a page ready to publish, and check said nothing of it."""
    from openpyxl import load_workbook

    assert run_command(greek_argv(greek), greek.root).returncode in (0, 1)
    book = load_workbook(greek.out / "2026-10" / "audit-2026-10.xlsx", read_only=True)
    rows = [tuple(row) for row in book["Pages"].iter_rows(min_row=2, values_only=True)]
    assert rows == [("live-baccarat-gr", "no page", "its configuration lists no language")]
    checked = run_command(
        [*greek_argv(greek)[:3], "check", "--config", str(greek.config)], greek.root
    )
    assert "live-baccarat-gr: languages = []: no page of it is written" in checked.stdout
    # A month without play: its warning stays on the sheet the run names for it.
    assert run_command(greek_argv(greek, as_of="2026-11-04"), greek.root).returncode == 1
    book = load_workbook(greek.out / "2026-09" / "audit-2026-09.xlsx", read_only=True)
    rows = [tuple(row) for row in book["Pages"].iter_rows(min_row=2, values_only=True)]
    assert rows == [("live-baccarat-gr", "no page", "no play in 2026-09: the page shows 0.00%")]


def test_as_of_on_the_5th_reports_the_month_before(greek):
    assert run_command(greek_argv(greek, as_of="2026-11-04"), greek.root).returncode == 1
    september = snapshot(greek.out / "2026-09")
    process = run_command(greek_argv(greek, as_of="2026-11-05"), greek.root)
    assert process.returncode == 0, process.stderr
    document = disclosure_of(greek.out / "2026-10", "live-baccarat-gr")
    assert document["reference_month"] == "2026-10"
    assert document["rounds"] == 2
    assert (document["stakes"], document["payouts"]) == ("35.00", "20.00")
    assert document["previous_month_win_percentage"] == "57.14"  # 20 / 35, half up
    assert document["warnings"] == []
    # September's folder stays as the first run wrote it.
    assert snapshot(greek.out / "2026-09") == september


def test_default_as_of_is_today_in_each_games_time_zone(tmp_path):
    config = write_config(tmp_path / "operator.toml", FAR_APART_NO_SHEETS)
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    out = tmp_path / "out"
    zones = {"live-baccarat-east": "Pacific/Kiritimati", "live-baccarat-west": "Pacific/Pago_Pago"}
    before = {game: datetime.now(ZoneInfo(zone)).date() for game, zone in zones.items()}
    process = run_command(
        monthly_argv(inbox, out, tmp_path / "db.sqlite", config, as_of=None), tmp_path
    )
    after = {game: datetime.now(ZoneInfo(zone)).date() for game, zone in zones.items()}
    months = {expected_reference_month(day) for day in [*before.values(), *after.values()]}
    if len(months) > 1:
        # Around the 5th the two zones, 25 hours apart, fall in different reference months:
        # the run refuses rather than rebuild a month folder with only some of its games.
        assert process.returncode == 2, process.stderr
        assert "different reference months" in process.stderr
        return
    assert process.returncode == 1, process.stderr  # an empty inbox: no play, so exit 1
    for game in zones:
        # A date change while the command runs may give either day: accept each, consistently.
        written = [
            (expected_reference_month(today), today)
            for today in {before[game], after[game]}
            if (out / expected_reference_month(today) / game).is_dir()
            and disclosure_of(out / expected_reference_month(today), game)["as_of"]
            == today.isoformat()
        ]
        assert len(written) == 1, (game, before[game], after[game], sorted(files_under(out)))
        [(month, today)] = written
        assert manifest_of(out / month)["as_of"][game] == today.isoformat()


def expected_reference_month(today: date) -> str:
    """disclosures.md: from the 5th, the month before; before the 5th, the month before that."""
    index = today.year * 12 + today.month - 1 - (1 if today.day >= 5 else 2)
    return f"{index // 12:04d}-{index % 12 + 1:02d}"


def test_a_new_file_in_the_inbox_is_ingested_next_time_and_changes_the_figures(greek):
    assert run_command(greek_argv(greek), greek.root).returncode == 0
    october = greek.out / "2026-10"
    assert disclosure_of(october, "live-baccarat-gr")["previous_month_win_percentage"] == "57.14"

    # A CSV pair with one more October round arrives: player 40.00, paid 80.00.
    rounds, bets = write_csv_pair(greek.inbox, "GR-CSV-1", "40.00", "80.00")
    process = run_command(greek_argv(greek), greek.root)
    assert process.returncode == 0, process.stderr
    log = "\n".join(assert_plain_log(process.stderr))
    assert f"ingest {greek.inbox / 'late-2026-10.jsonl'}: already_ingested, 0 rounds" in log
    assert f"ingest {rounds}: loaded, 1 rounds, 1 bets, 0 duplicates, 0 rejected" in log

    document = disclosure_of(october, "live-baccarat-gr")
    assert document["rounds"] == 3
    assert (document["stakes"], document["payouts"]) == ("75.00", "100.00")
    assert document["previous_month_win_percentage"] == "133.33"  # 100 / 75, half up
    inputs = {
        (entry["file"], entry["sha256"], entry["size"]) for entry in manifest_of(october)["inputs"]
    }
    assert inputs == {
        (path.name, sha256(path), path.stat().st_size)
        for path in (greek.inbox / "late-2026-10.jsonl", rounds, bets)
    }
    assert db_rows(greek.db, "SELECT count(*) FROM rounds") == [(3,)]


def test_months_are_counted_in_the_games_time_zone(tmp_path, make_round, make_bet, write_jsonl):
    """disclosures.md: a round settled at 2026-10-31T23:30Z belongs to November in Rome."""

    def italian_round(round_id, settled_at, bet_type, stake, payout):
        closed = settled_at.replace("30:00Z", "29:40Z")
        return make_round(
            round_id,
            shoe_id=f"{round_id}-S1",
            started_at=settled_at.replace("30:00Z", "29:20Z"),
            betting_closed_at=closed,
            settled_at=settled_at,
            bets=[
                make_bet(
                    f"{round_id}-B1",
                    type=bet_type,
                    stake=stake,
                    payout=payout,
                    placed_at=settled_at.replace("30:00Z", "29:30Z"),
                )
            ],
        )

    inbox = tmp_path / "inbox"
    write_jsonl(
        inbox / "edges.jsonl",
        # 1 October, 00:30 in Rome: October. Player 10.00 paid 20.00.
        italian_round("IT-EDGE-1", "2026-09-30T22:30:00Z", "player", "10.00", "20.00"),
        # 1 November, 00:30 in Rome: November. Banker 25.00 lost.
        italian_round("IT-EDGE-2", "2026-10-31T23:30:00Z", "banker", "25.00", "0.00"),
    )
    config = write_config(tmp_path / "operator.toml", ITALIAN_NO_SHEETS)
    out = tmp_path / "out"
    process = run_command(monthly_argv(inbox, out, tmp_path / "db.sqlite", config), tmp_path)
    # A Greek-based game in Rome: no finding, no reject and no publishing problem.
    assert process.returncode == 0, process.stderr
    assert not re.search(r"[0-9] findings? in", process.stdout)
    assert not re.search(r"[0-9] rejected lines? bears?", process.stdout)
    document = disclosure_of(out / "2026-10", "live-baccarat-it")
    assert (document["rounds"], document["stakes"], document["payouts"]) == (1, "10.00", "20.00")
    assert document["previous_month_win_percentage"] == "200.00"


def truncated_gzip() -> bytes:
    """A gzipped log cut in the middle of its compressed stream."""
    whole = gzip.compress(b"".join(b'{"round_id": "GR-%d"}\n' % number for number in range(500)))
    return whole[: len(whole) // 2]


def test_an_unreadable_new_file_exits_2_and_leaves_the_reports_as_they_were(greek):
    assert run_command(greek_argv(greek), greek.root).returncode == 0
    before = snapshot(greek.out)
    broken = greek.inbox / "late-2.jsonl.gz"
    broken.write_bytes(truncated_gzip())
    process = run_command(greek_argv(greek), greek.root)
    assert process.returncode == 2, process.stderr
    assert "Traceback" not in process.stderr
    last = process.stderr.strip().splitlines()[-1]
    assert last.startswith(f"baccarat-report: {broken}"), last
    assert "cannot be read" in last
    # The month is as it was (the lock file, naming the last run's process, is not in it).
    assert snapshot(greek.out) == before


def test_a_log_met_midway_through_its_upload_loads_nothing_until_it_is_whole(greek):
    """The run at 06:00 meets a JSON Lines upload midway: its last line cut. Its lines loaded
    and the cut one rejected, the whole file (another file by its content) loaded later left
    that reject bearing on the month for good, every run exiting 1. The cut file now loads
    nothing, as a cut gzip does, and once whole it loads as if the first run had not met it."""
    whole = greek.inbox / "late-2026-10.jsonl"
    text = whole.read_bytes()
    whole.write_bytes(text[: len(text) - 40])  # the second round's line, cut
    process = run_command(greek_argv(greek), greek.root)
    assert process.returncode == 2, process.stderr
    last = process.stderr.strip().splitlines()[-1]
    assert last == (
        f"baccarat-report: {whole}:2: the last line has no newline and is not whole JSON:"
        " the file is still being written, or was cut; nothing of it was loaded (it loads at"
        " the next run once whole, or once its last line is mended)"
    )
    assert db_rows(greek.db, "SELECT count(*) FROM rounds") == [(0,)]
    whole.write_bytes(text)  # the upload ends
    process = run_command(greek_argv(greek), greek.root)
    assert process.returncode == 0, process.stdout + process.stderr
    assert db_rows(greek.db, "SELECT count(*) FROM rejected_records") == [(0,)]
    assert disclosure_of(greek.out / "2026-10", "live-baccarat-gr")["rounds"] == 2


def test_an_unreadable_file_is_named_once_in_the_message(greek):
    greek.inbox.joinpath("late-2.jsonl.gz").write_bytes(truncated_gzip())
    process = run_command(greek_argv(greek), greek.root)
    assert process.returncode == 2, process.stderr
    last = process.stderr.strip().splitlines()[-1]
    assert last.count("late-2.jsonl.gz") == 1, last


def test_lock_held_by_another_run_exits_2_and_changes_nothing(greek):
    assert run_command(greek_argv(greek), greek.root).returncode == 0
    with output_lock(greek.out, 0):
        before = snapshot(greek.out)
        process = run_command(greek_argv(greek), greek.root)
        assert snapshot(greek.out) == before
    line = assert_clean_failure(
        process, str(greek.out), "another monthly run", f"pid {os.getpid()}"
    )
    assert "--wait" in line


def test_lock_released_within_wait_lets_the_run_through(greek):
    greek.out.mkdir()
    handle = lock_path(greek.out).open("a+")
    fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    release = threading.Timer(1.0, handle.close)
    started = time.monotonic()
    release.start()
    try:
        process = run_command(greek_argv(greek, "--wait", "5"), greek.root)
    finally:
        release.cancel()
        handle.close()
    assert process.returncode == 0, process.stderr
    assert time.monotonic() - started >= 1.0
    assert disclosure_of(greek.out / "2026-10", "live-baccarat-gr")["rounds"] == 2


def test_missing_inbox_exits_2_with_one_line_and_writes_no_report(tmp_path):
    config = write_config(tmp_path / "operator.toml", GREEK_NO_SHEETS)
    out = tmp_path / "out"
    process = run_command(
        monthly_argv(tmp_path / "no-such-inbox", out, tmp_path / "db.sqlite", config), tmp_path
    )
    assert_clean_failure(process, str(tmp_path / "no-such-inbox"), "inbox")
    assert not out.exists()


def test_bad_as_of_exits_2_with_one_line(greek):
    process = run_command(greek_argv(greek, as_of="2026-11-31"), greek.root)
    assert_clean_failure(process, "--as-of", "2026-11-31 is not a date: November 2026 has 30 days")
    assert not greek.out.exists()


def test_json_document_has_the_contract_keys(greek, make_round, make_bet, write_jsonl):
    write_two_greek_rounds(
        greek.inbox / "late-2026-10.jsonl", make_round, make_bet, write_jsonl, "{not json"
    )
    process = run_command(greek_argv(greek, "--json"), greek.root)
    assert process.returncode == 1, process.stderr  # the rejected line
    assert "Traceback" not in process.stderr
    document = json.loads(process.stdout)
    assert document["as_of"] == {"live-baccarat-gr": "2026-11-05"}
    assert document["rounds_loaded"] == 2
    assert document["bets_loaded"] == 2
    assert document["rejected_count"] == 1
    [month] = document["months"]
    folder = greek.out / "2026-10"
    assert month["month"] == "2026-10"
    assert month["folder"] == str(folder)
    assert month["games"] == ["live-baccarat-gr"]
    assert month["findings"] == 0
    # every kind, as verify --json lists them: a script reads a clean month's kinds too
    assert month["findings_by_kind"] == dict.fromkeys(FINDING_KINDS, 0)
    assert len(month["files"]) == len(set(month["files"]))
    assert set(month["files"]) == {str(folder / name) for name in files_under(folder)}


def test_with_json_the_log_file_still_gets_every_step_and_stderr_every_warning(greek):
    """``--log-file ... monthly --json`` kept an empty log, and stderr said nothing, not even
    the warnings: --json silenced every line where it is meant to keep stdout the document.
    A month without play (September, as of 4 November) is a warning."""
    argv = greek_argv(greek, "--json", as_of="2026-11-04")
    log = greek.root / "logs" / "monthly.log"
    argv[argv.index("monthly") : argv.index("monthly")] = ["--log-file", str(log)]
    process = run_command(argv, greek.root)
    assert process.returncode == 1, process.stderr
    assert json.loads(process.stdout)["months"][0]["month"] == "2026-09"
    logged = log.read_text(encoding="utf-8").splitlines()
    steps = [line for line in logged if " INFO baccarat-report monthly: " in line]
    warnings = [line for line in logged if " WARNING baccarat-report monthly: " in line]
    assert len(steps) + len(warnings) == len(logged)
    assert any(": reports for 2026-09: " in line for line in steps), logged
    assert [line.split(" WARNING ")[1] for line in warnings] == [
        "baccarat-report monthly: disclose live-baccarat-gr: warning: no play in 2026-09: the"
        " page shows 0.00%"
    ]
    # stderr: the warnings, not the steps
    said = process.stderr.splitlines()
    assert len(said) == 1 and said[0].endswith(warnings[0].split(" baccarat-report ")[1]), said


def test_each_reason_for_exit_1_is_a_warning_of_the_log(greek, make_round, make_bet, write_jsonl):
    """A month whose reasons for exit 1 were findings, rejected lines or idle tables was told
    of in the summary on stdout alone: the log file and the journal's warnings (``-p
    warning``) said nothing of why the unit failed. Each is now a warning record too."""
    write_two_greek_rounds(
        greek.inbox / "late-2026-10.jsonl", make_round, make_bet, write_jsonl, "{not json"
    )
    argv = greek_argv(greek)
    log = greek.root / "logs" / "monthly.log"
    argv[argv.index("monthly") : argv.index("monthly")] = ["--log-file", str(log)]
    process = run_command(argv, greek.root)
    assert process.returncode == 1, process.stderr  # the rejected line
    warnings = [
        line.split(" WARNING baccarat-report monthly: ")[1]
        for line in log.read_text(encoding="utf-8").splitlines()
        if " WARNING " in line
    ]
    assert "month 2026-10: warning: 1 rejected line bears on 2026-10" in warnings, warnings
    assert "1 rejected line bears on 2026-10" in process.stdout  # the summary, as before


# --- the library: failures, manifest inputs, the demo --------------------------------------------


@pytest.fixture
def two_games(tmp_path, make_round, make_bet, write_jsonl):
    inbox = tmp_path / "inbox"
    write_two_greek_rounds(inbox / "late-2026-10.jsonl", make_round, make_bet, write_jsonl)
    config_path = write_config(tmp_path / "operator.toml", TWO_GAMES_STUB_SHEETS)
    return SimpleNamespace(
        config=load_config(config_path),
        config_path=config_path,
        inbox=inbox,
        out=tmp_path / "out",
        db=tmp_path / "report.sqlite",
    )


def fail_on_the_italian_game(error: Exception, record: Path, game, disclosure, as_of, folder):
    """A renderer that writes the Greek game's page, and half a PDF of the Italian game's
    before it raises ``error``; ``record`` gets what was staged by then, one name a line.
    (At module level: with more than one job it is pickled into a render worker.)"""
    if game.id == "live-baccarat-gr":
        return write_stub_pages(game, disclosure, as_of, folder)
    (folder / f"{game.id}.it.pdf").write_bytes(b"%PDF-1.7 half")
    record.write_text("\n".join(p.name for p in folder.parent.rglob("*")), encoding="utf-8")
    raise error


@pytest.mark.parametrize("render_jobs", [1, 2])
@pytest.mark.parametrize(
    "error", [InputError("renderer: template missing"), RuntimeError("renderer bug")]
)
def test_a_failure_after_staging_started_leaves_the_previous_month_untouched(
    two_games, error, render_jobs
):
    result = library_run(
        two_games.config, two_games.inbox, two_games.out, two_games.db, date(2026, 11, 5),
        write_stub_pages,
    )  # fmt: skip
    assert [month.month for month in result.months] == ["2026-10"]
    before = snapshot(two_games.out / "2026-10")
    assert "live-baccarat-gr/live-baccarat-gr.page.txt" in before

    record = two_games.out.parent / "staged.txt"
    with pytest.raises(type(error), match=str(error)):
        library_run(
            two_games.config, two_games.inbox, two_games.out, two_games.db, date(2026, 11, 5),
            functools.partial(fail_on_the_italian_game, error, record), render_jobs,
        )  # fmt: skip
    staged = record.read_text(encoding="utf-8").split("\n")
    assert "live-baccarat-it.it.pdf" in staged
    if render_jobs == 1:  # in turn: the audit and the Greek game were staged before
        assert "audit-2026-10.xlsx" in staged and "live-baccarat-gr.page.txt" in staged
    assert snapshot(two_games.out / "2026-10") == before
    # nothing of the run is left in the output folder: its staging area neither (its mark was,
    # in .staging, till the next run cleared it)
    assert sorted(path.name for path in two_games.out.iterdir()) == ["2026-10"]
    assert not (two_games.out / ".2026-10.old").exists()
    # The next good run goes through.
    library_run(
        two_games.config, two_games.inbox, two_games.out, two_games.db, date(2026, 11, 5),
        write_stub_pages,
    )  # fmt: skip
    assert snapshot(two_games.out / "2026-10") == before
    assert not (two_games.out / STAGING).exists()


def write_pid_pages(game, disclosure, as_of: date, folder: Path) -> list[Path]:
    """A renderer that writes the id of the process it runs in."""
    page = folder / f"{game.id}.pid.txt"
    page.write_text(str(os.getpid()), encoding="utf-8")
    return [page]


def test_with_two_jobs_the_pages_are_rendered_in_worker_processes_and_listed_alike(two_games):
    """Issue 25: the month's documents are rendered side by side in worker processes; the
    files listed (and the manifest's order) do not depend on which finished first."""
    day = date(2026, 11, 5)
    config, inbox, db = two_games.config, two_games.inbox, two_games.db
    alone = library_run(config, inbox, two_games.out / "one", db, day, write_pid_pages)
    pooled = library_run(config, inbox, two_games.out / "two", db, day, write_pid_pages, 2)

    def pids(result) -> set[int]:
        return {int(p.read_text()) for p in result.months[0].files if p.suffix == ".txt"}

    assert pids(alone) == {os.getpid()}
    assert pids(pooled) and os.getpid() not in pids(pooled)
    [one], [two] = alone.months, pooled.months
    assert [p.relative_to(one.folder) for p in one.files] == [
        p.relative_to(two.folder) for p in two.files
    ]


def render_with_a_font_missing(game, disclosure, as_of, folder, *, operator=None) -> list[Path]:
    """Stands for ``render_game`` on a machine without the font (at module level: it is
    pickled into the render workers)."""
    (folder / f"{game.id}.el.pdf").write_bytes(b"%PDF-1.7 half")
    raise InputError(f"{game.id}: font file missing")


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_renderer_input_error_exits_2_through_the_command_boundary(
    two_games, monkeypatch, capsys, jobs
):
    """The same line whatever the number of jobs: with two, both games fail in their
    workers, and the error is the first game's, as in turn."""
    library_run(
        two_games.config, two_games.inbox, two_games.out, two_games.db, date(2026, 11, 5),
        write_stub_pages,
    )  # fmt: skip
    before = snapshot(two_games.out / "2026-10")

    monkeypatch.setattr("reporting.cli.monthly.render_game", render_with_a_font_missing)
    options = monthly_argv(
        two_games.inbox, two_games.out, two_games.db, two_games.config_path, "--jobs", jobs
    )
    monkeypatch.setattr(sys, "argv", ["baccarat-report", *options[3:]])
    with pytest.raises(SystemExit) as exit_info:
        main()
    assert exit_info.value.code == 2
    captured = capsys.readouterr()
    assert captured.err.splitlines()[-1] == ("baccarat-report: live-baccarat-gr: font file missing")
    assert "Traceback" not in captured.err
    assert snapshot(two_games.out / "2026-10") == before


def test_leftovers_of_a_killed_run_are_cleared_and_the_month_written(two_games):
    """A run killed between the two renames of the swap leaves ``.2026-10.old`` and no month
    folder; one killed while staging leaves staging folders. The next run clears them all."""
    out = two_games.out
    (out / ".2026-10.old" / "live-baccarat-gr").mkdir(parents=True)
    (out / ".2026-10.old" / "manifest.json").write_text('{"outputs": []}\n', encoding="utf-8")
    make_staging(out / STAGING)
    for month in ("2026-09", "2026-10"):
        (out / STAGING / month / "live-baccarat-gr").mkdir(parents=True)
        (out / STAGING / month / "audit-half.xlsx").write_bytes(b"PK\x03\x04")
    library_run(
        two_games.config, two_games.inbox, out, two_games.db, date(2026, 11, 5), write_stub_pages
    )
    assert {path.name for path in out.iterdir()} == {"2026-10"}
    assert set(manifest_of(out / "2026-10")["as_of"]) == set(two_games.config.games)


@pytest.mark.parametrize(
    ("place", "words"),
    [
        ("2026-10", "holds files that are not a month's reports of baccarat-report (it has no"),
        (".2026-10.old", "not a folder of ours, where a swap keeps the previous copy"),
        (STAGING, "a folder of files that are not ours, where the run stages its reports"),
    ],
)
def test_a_folder_of_someone_else_s_where_the_run_writes_is_refused_before_anything(
    two_games, place, words
):
    """``--out`` may be a folder people keep other things in. A month's folder, the place a
    swap keeps the previous one and the staging folder are replaced or removed whole: one of
    those names holding files the tool did not write (``--out ~`` with a ``2026-10`` of
    photos) is refused in one line before anything is read, and nothing of it is touched."""
    out = two_games.out
    (out / place).mkdir(parents=True)
    (out / place / "notes.txt").write_text("mine\n", encoding="utf-8")
    with pytest.raises(InputError) as refused:
        library_run(
            two_games.config, two_games.inbox, out, two_games.db, date(2026, 11, 5),
            write_stub_pages,
        )  # fmt: skip
    assert str(refused.value).startswith(f"{out / place}: {words}")
    assert "move" in str(refused.value) and "\n" not in str(refused.value)
    assert (out / place / "notes.txt").read_text(encoding="utf-8") == "mine\n"
    assert sorted(path.name for path in out.iterdir()) == [place]
    with sqlite3.connect(two_games.db) as store:
        assert store.execute("SELECT count(*) FROM ingest_log").fetchone() == (0,)
    (out / place / "notes.txt").unlink()  # emptied: an empty folder is the run's to replace
    library_run(
        two_games.config, two_games.inbox, out, two_games.db, date(2026, 11, 5), write_stub_pages
    )
    assert {path.name for path in out.iterdir()} == {"2026-10"}


def test_a_file_put_among_a_month_s_reports_stops_the_run_that_would_delete_it(two_games):
    """The month's folder is replaced whole: a file put among its reports (the signed audit,
    a note) went with it at the next run, without a word. A file its manifest does not list
    stops the run, in one line, before anything is read; moved away, the run goes on."""
    out, day = two_games.out, date(2026, 11, 5)
    run = (two_games.config, two_games.inbox, out, two_games.db, day, write_stub_pages)
    library_run(*run)
    signed = out / "2026-10" / "live-baccarat-gr" / "audit-signed.pdf"
    signed.write_bytes(b"%PDF signed")
    with pytest.raises(InputError) as refused:
        library_run(*run)
    assert str(refused.value) == (
        f"{out / '2026-10'}: holds files this tool did not write"
        " (live-baccarat-gr/audit-signed.pdf), and would be replaced whole: move them out of"
        " the month's folder and run again"
    )
    assert signed.read_bytes() == b"%PDF signed"
    signed.unlink()
    library_run(*run)
    assert manifest_of(out / "2026-10")["reference_month"] == "2026-10"


@pytest.mark.parametrize("place", ["2026-10/run.log", ".staging/run.log", "inbox/run.log"])
def test_a_log_file_where_the_run_replaces_or_reads_is_refused(tmp_path, place):
    """``--log-file out/2026-10/run.log`` was appended to all run long, then deleted with the
    month's folder; in the inbox it is read as a round log. Refused, and the file it opened
    for the run taken away; beside the month folders it stays (``out/monthly.log``)."""
    inbox, out = tmp_path / "inbox", tmp_path / "out"
    inbox.mkdir()
    log = (tmp_path if place.startswith("inbox") else out) / place
    process = run_main(
        "--log-file", str(log), "monthly", "--inbox", str(inbox), "--out", str(out),
        "--db", str(tmp_path / "db.sqlite"), "--as-of", "2026-11-05", cwd=tmp_path,
    )  # fmt: skip
    assert process.returncode == 2, process.stderr
    assert f"--log-file {log} is inside" in process.stderr and process.stderr.count("\n") == 1
    assert not log.exists()


def test_a_log_of_a_month_already_published_is_said_and_exits_1(
    two_games, make_round, make_bet, write_jsonl
):
    """A log of October arriving after October was published was loaded without a word by
    November's run, which exited 0: its rounds were checked by nothing, and October's
    published figures do not count them. The run names the month and exits 1."""
    out, db = two_games.out, two_games.db
    library_run(two_games.config, two_games.inbox, out, db, date(2026, 11, 5), write_stub_pages)
    published = manifest_of(out / "2026-10")
    write_jsonl(
        two_games.inbox / "gr-october-late.jsonl",
        greek_round(make_round, make_bet, "GR-LATE-3", "banker", "25.00", "0.00"),
    )
    lines = []
    connection = connect(db)
    try:
        result = run_monthly(
            connection, two_games.config, two_games.inbox, out,
            {game: date(2026, 12, 5) for game in two_games.config.games}, write_stub_pages,
            log=lines.append,
        )  # fmt: skip
    finally:
        connection.close()
    assert result.rounds_elsewhere == {"2026-10": 1} and result.exit_code == 1
    assert (
        "month 2026-11: warning: 1 round of 2026-10 is in no report (loaded since 2026-10 was"
        " written): check them with verify --month 2026-10, then publish 2026-10 again"
        " (monthly --as-of 2026-11-05)"
    ) in lines
    assert manifest_of(out / "2026-10") == published


def test_a_run_with_workers_from_a_working_folder_since_removed_runs_as_with_one(two_games):
    """A scheduler's working folder removed under it: with --jobs 2 the run stopped on "no
    such file or folder", naming nothing, where --jobs 1 published the month."""
    import subprocess
    import sys

    gone = two_games.out.parent / "gone"
    gone.mkdir()

    def in_a_removed_folder():
        os.chdir(gone)
        os.rmdir(gone)

    process = subprocess.run(
        [sys.executable, "-m", "reporting", "monthly", "--inbox", str(two_games.inbox),
         "--out", str(two_games.out), "--db", str(two_games.db),
         "--config", str(two_games.config_path), "--as-of", "2026-11-05", "--jobs", "2"],
        capture_output=True, text=True, timeout=600, preexec_fn=in_a_removed_folder,
    )  # fmt: skip
    assert process.returncode == 1, process.stderr  # the Italian game had no play: an alert
    published = {path.name for path in (two_games.out / "2026-10").rglob("*.pdf")}
    # each game's sheet in Greek, printed by the render workers, and the audit report
    assert published == {
        "live-baccarat-gr.el.pdf", "live-baccarat-it.el.pdf", "audit-2026-10.pdf"
    }, published  # fmt: skip


def test_lock_helper_refuses_a_second_holder_at_once(tmp_path):
    out = tmp_path / "out"
    with output_lock(out, 0):
        started = time.monotonic()
        with pytest.raises(LockHeld) as waited, output_lock(out, 0.3):
            pass
        assert time.monotonic() - started >= 0.3
        with pytest.raises(LockHeld) as at_once, output_lock(out, 0):
            pass
    # a run that waited is told so, not only to wait (it had: the alert at 06:00 said both)
    assert str(waited.value) == (
        f"{out}: another monthly run is writing here (pid {os.getpid()}), past the 0.3 s this"
        " run waited; it was not disturbed. Try again when it ends, or pass --wait SECONDS (a"
        " longer wait)"
    )
    assert str(at_once.value) == (
        f"{out}: another monthly run is writing here (pid {os.getpid()}); it was not"
        " disturbed. Try again when it ends, or pass --wait SECONDS"
    )
    with output_lock(tmp_path / "out", 0):  # released: free again
        pass


def test_manifest_inputs_name_files_in_inbox_subfolders_by_their_path(two_games):
    # CSV logs must be named rounds.csv and bets.csv, so two pairs differ only by their folder.
    write_csv_pair(two_games.inbox / "table-a", "GR-CSV-A", "40.00", "80.00")
    write_csv_pair(two_games.inbox / "table-b", "GR-CSV-B", "30.00", "0.00")
    library_run(
        two_games.config, two_games.inbox, two_games.out, two_games.db, date(2026, 11, 5),
        write_stub_pages,
    )  # fmt: skip
    inputs = manifest_of(two_games.out / "2026-10")["inputs"]
    assert len(inputs) == 5
    names = [entry["file"] for entry in inputs]
    assert len(set(names)) == len(names), names
    for entry in inputs:
        path = two_games.inbox / entry["file"]
        assert path.is_file(), f"{entry['file']} names no file of the inbox"
        assert entry["sha256"] == sha256(path)
        assert entry["size"] == path.stat().st_size


def test_demo_inbox_gives_clean_reports(tmp_path, operator_config):
    """The `make demo` run through the library: the sample inbox has no findings, no rejects.

    Every game is ingested, verified and disclosed; only live-baccarat-it gets rule sheets
    (in Italian), to keep the test fast.
    """
    config = dataclasses.replace(
        operator_config,
        games={
            game_id: dataclasses.replace(
                game, languages=("it",) if game_id == "live-baccarat-it" else ()
            )
            for game_id, game in operator_config.games.items()
        },
    )
    inbox = Path(__file__).resolve().parents[2] / "sample_data" / "inbox"
    out = tmp_path / "reports"
    with page_breaks_read() as breaks:  # of each PDF, from the layout it is written from
        result = library_run(
            config, inbox, out, tmp_path / "demo.sqlite", date(2026, 11, 5), render_game
        )
    # The audit report's Availability heading and its sentence were left at the foot of a
    # page, its table on the next.
    assert len(breaks) == 3 and not any(breaks), breaks  # the game's two pages, the report
    assert result.findings == 0
    assert result.ingest.rejected_count == 0
    assert (result.ingest.rounds_loaded, result.ingest.bets_loaded) == sample_inbox_counts()
    [month] = result.months
    assert month.month == "2026-10"
    assert sorted(month.games) == sorted(operator_config.games)
    assert month.findings_by_kind == {}
    folder = out / "2026-10"
    assert {str(path) for path in month.files} == {
        str(folder / name) for name in files_under(folder)
    }
    for game in operator_config.games:
        document = disclosure_of(folder, game)
        assert document["rounds"] > 0
        assert not any(warning.startswith("no play") for warning in document["warnings"])
    assert {
        "live-baccarat-it/live-baccarat-it.it.disclosure.pdf",
        "live-baccarat-it/live-baccarat-it.it.pdf",
    } <= files_under(folder)


def test_games_in_different_reference_months_are_refused_before_anything_is_written(tmp_path):
    """Near midnight one game's date may be the 4th and another's the 5th: a month folder is
    rebuilt whole, so the run stops instead of writing a folder with some games missing."""
    config = load_config(Path("sample_data/operator.toml"))
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    out = tmp_path / "out"
    as_of = {game: date(2026, 11, 5) for game in config.games}
    as_of["live-baccarat-gr"] = date(2026, 11, 4)
    connection = connect(tmp_path / "db.sqlite")
    try:
        with pytest.raises(InputError, match="different reference months") as refused:
            run_monthly(connection, config, inbox, out, as_of, write_stub_pages)
    finally:
        connection.close()
    assert not out.exists()
    # It says which dates to pass, and what each writes.
    assert str(refused.value).endswith(
        "pass --as-of 2026-11-05 to write 2026-10, or --as-of 2026-11-04 to write 2026-09"
    )


def test_games_whose_pages_refresh_on_different_days_get_no_date_they_cannot_share(
    tmp_path, monkeypatch
):
    """No single date gives every game one month (a regulator refreshing on the 6th beside
    the others' 5th, run on the 5th): the refusal offers none, and asks for a date."""
    import reporting.jobs.months as job
    from reporting.figures.regulators import update_day

    config = load_config(Path("sample_data/operator.toml"))
    monkeypatch.setattr(
        job, "update_day", lambda game: 6 if game.id == "live-baccarat-gr" else update_day(game)
    )
    as_of = dict.fromkeys(config.games, date(2026, 11, 5))
    connection = connect(tmp_path / "db.sqlite")
    try:
        with pytest.raises(InputError, match="different reference months") as refused:
            run_monthly(connection, config, tmp_path, tmp_path / "out", as_of, write_stub_pages)
    finally:
        connection.close()
    assert str(refused.value).endswith("; pass --as-of YYYY-MM-DD")
    assert "live-baccarat-gr 2026-09" in str(refused.value)


# --- unattended and hostile (issue 11): the swap, the lock, what bears on a month, paths ---------


class Killed(BaseException):
    """Stands for a kill: no handler of the job's catches it."""


def test_a_stop_between_the_two_renames_of_the_swap_is_repaired_at_the_next_start(
    two_games, monkeypatch, make_round, make_bet, write_jsonl
):
    """The swap retires the month (first rename), then moves the new one in (second): a kill
    between them leaves only ``.2026-10.old``. The next start puts it back (even a run that
    then stops on a bad file), and a run that completes puts the new reports in place."""
    out, month = two_games.out, two_games.out / "2026-10"
    day = date(2026, 11, 5)
    run = functools.partial(
        library_run, two_games.config, two_games.inbox, out, two_games.db, day, write_stub_pages
    )
    run()
    before = snapshot(month)
    real_replace = os.replace
    calls = []

    def replace_then_die(source, target):
        calls.append((Path(source), Path(target)))
        if len(calls) > 1 and Path(source).parent == out / STAGING:
            raise Killed  # after the swap's first rename, before its second
        return real_replace(source, target)

    monkeypatch.setattr(os, "replace", replace_then_die)
    with pytest.raises(Killed):
        run()
    monkeypatch.undo()
    assert (month, out / ".2026-10.old") in calls, calls
    assert not month.exists()
    assert snapshot(out / ".2026-10.old") == before

    # The next start restores the month before anything else, even if the run then stops.
    two_games.inbox.joinpath("late-2.jsonl.gz").write_bytes(truncated_gzip())
    with pytest.raises(InputError, match="cannot be read"):
        run()
    assert snapshot(month) == before
    assert not (out / ".2026-10.old").exists()

    # A run that completes swaps the new reports in; nothing hidden is left.
    two_games.inbox.joinpath("late-2.jsonl.gz").unlink()
    write_jsonl(
        two_games.inbox / "later-2026-10.jsonl",
        greek_round(make_round, make_bet, "GR-LATE-3", "banker", "5.00", "0.00"),
    )
    run()
    inputs = [entry["file"] for entry in manifest_of(month)["inputs"]]
    assert inputs == ["late-2026-10.jsonl", "later-2026-10.jsonl"]
    assert {path.name for path in out.iterdir()} == {"2026-10"}


def test_a_stop_after_the_second_rename_leaves_the_new_month_and_the_old_is_removed(two_games):
    out, month = two_games.out, two_games.out / "2026-10"
    day = date(2026, 11, 5)
    library_run(
        two_games.config, two_games.inbox, out, two_games.db, day, write_stub_pages
    )  # fmt: skip
    current = snapshot(month)
    (out / ".2026-10.old").mkdir()
    (out / ".2026-10.old" / "manifest.json").write_text("{}\n", encoding="utf-8")
    two_games.inbox.joinpath("late-2.jsonl.gz").write_bytes(truncated_gzip())
    with pytest.raises(InputError):
        library_run(
            two_games.config, two_games.inbox, out, two_games.db, day, write_stub_pages
        )  # fmt: skip
    assert snapshot(month) == current
    assert {path.name for path in out.iterdir()} == {"2026-10"}


def test_the_lock_file_sits_beside_the_output_folder_not_in_the_published_tree(greek):
    process = run_command(greek_argv(greek), greek.root)
    assert process.returncode == 0, process.stderr
    assert {path.name for path in greek.out.iterdir()} == {"2026-10"}
    lock = greek.root / ".out.lock"
    assert lock_path(greek.out) == lock
    assert lock.read_text().startswith("pid ")
    # The same folder however it is spelt (relative, through a link): one lock.
    (greek.root / "link").symlink_to(greek.out)
    assert lock_path(greek.root / "link") == lock
    assert lock_path(Path(os.path.relpath(greek.out))) == lock


def test_a_lock_file_left_in_the_output_folder_by_an_earlier_version_is_removed(greek):
    greek.out.mkdir()
    (greek.out / ".baccarat-report.lock").write_text("pid 1", encoding="utf-8")
    assert run_command(greek_argv(greek), greek.root).returncode == 0
    assert {path.name for path in greek.out.iterdir()} == {"2026-10"}


def test_a_symlink_at_the_lock_path_is_refused_and_its_target_untouched(greek):
    target = greek.root / "precious.txt"
    target.write_text("do not truncate me\n", encoding="utf-8")
    (greek.root / ".out.lock").symlink_to(target)
    process = run_command(greek_argv(greek), greek.root)
    line = assert_clean_failure(process, ".out.lock", "symbolic link", "refused")
    assert "remove" in line.lower()
    assert target.read_text(encoding="utf-8") == "do not truncate me\n"
    assert (greek.root / ".out.lock").is_symlink()
    assert not greek.db.exists()  # refused before the database was opened
    # A dangling link is refused the same way (O_CREAT would create its target).
    (greek.root / ".out.lock").unlink()
    (greek.root / ".out.lock").symlink_to(greek.root / "created-by-the-lock")
    assert_clean_failure(run_command(greek_argv(greek), greek.root), "symbolic link")
    assert not (greek.root / "created-by-the-lock").exists()


@pytest.mark.parametrize("kind", ["hard link", "fifo", "folder"])
def test_a_lock_path_that_is_not_a_plain_file_of_its_own_is_refused_unchanged(greek, kind):
    lock = greek.root / ".out.lock"
    other = greek.root / "other.txt"
    if kind == "hard link":
        other.write_text("another file's bytes\n", encoding="utf-8")
        os.link(other, lock)
    elif kind == "fifo":
        os.mkfifo(lock)
    else:
        lock.mkdir()
    process = run_command(greek_argv(greek), greek.root)
    assert_clean_failure(process, ".out.lock")
    if kind == "hard link":
        assert other.read_text(encoding="utf-8") == "another file's bytes\n"
    assert not greek.db.exists()


def write_month_with_unusable_files(greek, make_round, make_bet, write_jsonl) -> None:
    """The greek inbox plus a file whose every line is rejected and one whose every round
    conflicts with a round stored from the first file (same ids, other stakes)."""
    write_jsonl(greek.inbox / "m-garbage.jsonl", "{not json", "{also not", "neither")
    write_jsonl(
        greek.inbox / "z-conflicts.jsonl",
        greek_round(make_round, make_bet, "GR-LATE-1", "banker", "99.00", "0.00"),
        greek_round(make_round, make_bet, "GR-LATE-2", "player", "99.00", "198.00"),
    )


def test_an_all_rejected_and_an_all_conflicting_file_alert_on_every_run_and_in_verify(
    greek, make_round, make_bet, write_jsonl
):
    """The alert of a file nothing of which loaded stays while the report shows it: the first
    run and a re-run exit 1 and say why, verify --month too, and the workbook lists the same
    lines."""
    write_month_with_unusable_files(greek, make_round, make_bet, write_jsonl)
    runs = [run_command(greek_argv(greek), greek.root) for _ in range(2)]
    for process in runs:
        assert process.returncode == 1, process.stdout + process.stderr
        assert "5 rejected lines bear on 2026-10" in process.stdout
        assert (
            "m-garbage.jsonl: all 3 of its records rejected, no round loaded (bad_json 3)"
            in process.stdout
        ), process.stdout
        assert (
            "z-conflicts.jsonl: all 2 of its records rejected, no round loaded (conflict 2)"
            in process.stdout
        ), process.stdout
    verify = run_command(
        [sys.executable, "-m", "reporting", "verify", "--month", "2026-10"]
        + ["--db", str(greek.db), "--config", str(greek.config)],
        greek.root,
    )
    assert verify.returncode == 1, verify.stdout + verify.stderr
    assert "5 rejected lines bear on this period" in verify.stdout
    assert "z-conflicts.jsonl: all 2 of its records rejected" in verify.stdout
    verify_json = run_command(
        [sys.executable, "-m", "reporting", "verify", "--month", "2026-10", "--json"]
        + ["--db", str(greek.db), "--config", str(greek.config)],
        greek.root,
    )
    document = json.loads(verify_json.stdout)
    assert document["rejected_records"] == 5
    assert document["alerts"]["rejected_by_reason"] == {"bad_json": 3, "conflict": 2}
    from openpyxl import load_workbook

    book = load_workbook(greek.out / "2026-10" / "audit-2026-10.xlsx", read_only=True)
    listed = [row[0] for row in book["Rejected records"].iter_rows(min_row=2, values_only=True)]
    assert sorted(listed) == ["m-garbage.jsonl"] * 3 + ["z-conflicts.jsonl"] * 2


def test_the_signed_audit_report_names_the_rejected_and_the_unread_files(
    greek, make_round, make_bet, write_jsonl
):
    """Issue 23: with a wholly rejected file in the inbox, monthly exited 1 yet the audit
    report said "No finding ... Every check ran on every round and bet" and never named the
    file. Its HTML and its PDF name each file not read, with its first lines."""
    import re

    write_month_with_unusable_files(greek, make_round, make_bet, write_jsonl)
    (greek.inbox / "more.ndjson").write_text("{}\n", encoding="utf-8")
    process = run_command(greek_argv(greek), greek.root)
    assert process.returncode == 1, process.stdout + process.stderr
    report = greek.out / "2026-10" / "audit-2026-10.html"
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", report.read_text(encoding="utf-8")))
    assert "5 records were rejected: what they hold" in text and "is in no figure" in text
    assert "m-garbage.jsonl : all 3 of its records rejected, no round loaded" in text
    assert "m-garbage.jsonl:1 Line not readable bad_json" in text
    assert "z-conflicts.jsonl:1 Conflicts with a stored round conflict" in text
    assert "In the inbox but not read: more.ndjson" in text
    assert "every check ran" not in text.lower() and "No finding:" not in text
    pdf = pdf_text(report.with_suffix(".pdf"))
    assert "m-garbage.jsonl:1" in pdf and "more.ndjson" in pdf
    # The workbook names it too: counted on the Summary, listed on the Rejected records sheet.
    from openpyxl import load_workbook

    book = load_workbook(report.with_suffix(".xlsx"), read_only=True)
    summary = {row[0]: row[1:2] for row in book["Summary"].iter_rows(values_only=True) if row}
    assert summary["Inbox files not read"] == (1,)
    rejected = [row for row in book["Rejected records"].iter_rows(values_only=True)]
    unread = [row for row in rejected if row[3] == "not_read"]
    assert [row[0] for row in unread] == list(unread_entries(greek.inbox, greek.config))
    assert unread[0][0].startswith("more.ndjson (") and "not read" in unread[0][5]


def unread_entries(inbox: Path, config_path: Path) -> tuple[str, ...]:
    """The inbox's files a run does not read, as the run names them."""
    from reporting.ingest.discovery import discover_inbox, inbox_profiles, unread_names

    config = load_config(config_path)
    return unread_names(inbox, discover_inbox(inbox, inbox_profiles(config.inbox))[1])


def test_rejects_of_a_file_whose_rounds_are_all_in_another_month_bear_on_that_month_only(
    greek, make_round, make_bet, write_jsonl
):
    """A September file with a bad line read by October's run: October's report does not
    show it, and the run that read it says so (exit 1); so does a re-run of October, whose
    report replaces the one that told (it exited 0 without a word, and the line was said
    nowhere)."""
    september = make_round(
        "GR-SEP-1",
        game="live-baccarat-gr",
        table_id="GR-SEP",
        shoe_id="GR-SEP-1-S1",
        hand_no=1,
        started_at="2026-09-10T10:00:00Z",
        betting_closed_at="2026-09-10T10:00:15Z",
        settled_at="2026-09-10T10:00:40Z",
        bets=[make_bet("GR-SEP-1-B1", placed_at="2026-09-10T10:00:05Z")],
    )
    write_jsonl(greek.inbox / "september.jsonl", september, "{not json")
    first = run_command(greek_argv(greek), greek.root)
    assert first.returncode == 1, first.stdout + first.stderr
    assert "1 rejected line bears on other months (2026-09): see" in first.stdout  # named
    second = run_command(greek_argv(greek), greek.root)
    assert second.returncode == 1, second.stdout + second.stderr
    assert "1 rejected line bears on other months (2026-09): see" in second.stdout


def test_an_adm_game_without_a_language_is_refused_before_anything_runs(tmp_path):
    # An ADM game must publish its pages: no language is a configuration problem (exit 2),
    # named with its line, and nothing is read or written.
    config = write_config(
        tmp_path / "operator.toml",
        '[games.live-baccarat-it]\nbase = "live-baccarat-it"\nlanguages = []\n',
    )
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    process = run_command(
        monthly_argv(inbox, tmp_path / "out", tmp_path / "db.sqlite", config), tmp_path
    )
    assert process.returncode == 2, process.stdout + process.stderr
    assert "configuration:" in process.stderr and "languages" in process.stderr
    assert "Traceback" not in process.stderr
    assert not (tmp_path / "out").exists() and not (tmp_path / "db.sqlite").exists()


def test_pages_that_would_print_two_bets_under_one_name_stop_the_run_before_ingest(greek):
    """The Greek game's English words "Hand" for both hands: the rule sheet refused them after
    the inbox was ingested; the run now stops first, every clash said with its line."""
    config = greek.config.read_text(encoding="utf-8")
    greek.config.write_text(
        config.replace(
            "[games.live-baccarat-gr]",
            "[games.live-baccarat-gr]\nwords = { en = { player = 'Hand', banker = 'Hand' } }",
            1,
        ).replace("languages = []", 'languages = ["en"]'),
        encoding="utf-8",
    )
    process = run_command(greek_argv(greek), greek.root)
    assert process.returncode == 2, process.stdout + process.stderr
    clashes = [line for line in process.stderr.splitlines() if "would be named" in line]
    assert len(clashes) >= 2 and all(f"{greek.config}:" in line for line in clashes), clashes
    assert "'Hand'" in clashes[0] and "Traceback" not in process.stderr
    assert not greek.out.exists() and not greek.db.exists()


def test_a_greek_game_without_a_language_is_not_a_publishing_problem(greek):
    # Greece has no disclosure page: a game with no language publishes nothing it must.
    process = run_command(greek_argv(greek), greek.root)
    assert process.returncode == 0, process.stdout + process.stderr
    assert "no language" not in process.stdout + process.stderr


def test_same_inputs_typed_relative_or_absolute_from_other_folders_give_identical_trees(
    tmp_path, make_round, make_bet, write_jsonl
):
    """Issue 11's done-when: two runs, each on its own copy of the inputs, one from its own
    folder with relative paths, one from elsewhere with absolute paths: every output file has
    the same sha256 (rejected lines, a CSV pair in a subfolder and conflicts included)."""
    trees = {}
    for name in ("relative", "absolute"):
        root = tmp_path / name / "work"
        inbox = root / "inbox"
        write_two_greek_rounds(
            inbox / "late-2026-10.jsonl", make_round, make_bet, write_jsonl, "{not json"
        )
        write_csv_pair(inbox / "table-a", "GR-CSV-A", "40.00", "80.00")
        (inbox / "table-a" / "bets.csv").write_text(
            (inbox / "table-a" / "bets.csv").read_text("utf-8")
            + "GR-NONE,GR-NONE-B1,acc-1,player,5.00,0.00,EUR,2026-10-04T10:00:05Z\n",
            encoding="utf-8",
        )
        write_jsonl(
            inbox / "sub" / "conflicts.jsonl",
            greek_round(make_round, make_bet, "GR-LATE-1", "banker", "99.00", "0.00"),
        )
        write_config(root / "conf" / "operator.toml", GREEK_NO_SHEETS)
        if name == "relative":
            argv = monthly_argv(
                Path("inbox"), Path("out"), Path("db.sqlite"), Path("conf/operator.toml")
            )
            cwd = root
        else:
            argv = monthly_argv(
                inbox, root / "out", root / "db.sqlite", root / "conf" / "operator.toml"
            )
            cwd = tmp_path  # another folder
        process = run_command(argv, cwd)
        assert process.returncode == 1, process.stdout + process.stderr
        trees[name] = snapshot(root / "out")
        names = db_rows(root / "db.sqlite", "SELECT file_name FROM rejected_records")
        assert sorted(names) == [
            ("late-2026-10.jsonl",),
            ("sub/conflicts.jsonl",),
            ("table-a/bets.csv",),
        ]
    assert trees["relative"] == trees["absolute"]
    assert "2026-10/audit-2026-10.xlsx" in trees["relative"]


def test_inbox_files_that_are_not_read_alert_on_every_run_and_hidden_files_do_not(greek):
    """Issue 11: files of other names, and what is not a regular file, were skipped without a
    word and the disclosure computed on part of the month."""
    (greek.inbox / "more.ndjson").write_text("{}\n", encoding="utf-8")
    (greek.inbox / "Rounds-2026-10.csv").write_text("round_id\n", encoding="utf-8")
    os.mkfifo(greek.inbox / "pipe.jsonl")
    (greek.inbox / ".upload.jsonl.part").write_text("{}\n", encoding="utf-8")
    # Hidden files are neither read nor named, whatever their names: a gzip cut short in a
    # hidden folder (a transfer in progress) stopped the month (exit 2).
    (greek.inbox / ".rsync").mkdir()
    (greek.inbox / ".rsync" / "round-log-2026-10.jsonl.gz").write_bytes(b"\x1f\x8b")
    (greek.inbox / ".round-log.jsonl").write_text("{not json\n", encoding="utf-8")
    for _ in range(2):  # a re-run never clears the alert
        process = run_command(greek_argv(greek, "--json"), greek.root)
        assert process.returncode == 1, process.stdout + process.stderr
        [month] = json.loads(process.stdout)["months"]
        unread = month["alerts"]["unread_files"]
        assert [entry.split(" ")[0] for entry in unread] == [
            "Rounds-2026-10.csv",
            "more.ndjson",
            "pipe.jsonl",
        ]
        assert "FIFO" in unread[2] or "fifo" in unread[2].lower()
        # The month's manifest names them all (the audit report lists the first of them).
        assert manifest_of(greek.out / "2026-10")["not_read"] == unread
    plain = run_command(greek_argv(greek), greek.root)
    assert plain.returncode == 1
    assert "in the inbox but not read: more.ndjson (" in plain.stdout
    said = plain.stdout + plain.stderr
    assert not any(name in said for name in (".upload", ".rsync", ".round-log"))
    assert "warning: not read: pipe.jsonl" in plain.stderr


def test_many_files_not_read_are_named_up_to_a_bound_and_counted_in_the_log_and_summary(greek):
    """A checksum file beside each log: 5,000 of them made 5,000 warnings and 5,000 summary
    lines, the alerts after them unseen. The first FILES_NAMED are named and the rest
    counted; the manifest and --json name them all."""
    from reporting.verify.bearing import FILES_NAMED

    names = [f"round-log-{n:03d}.jsonl.sha256" for n in range(FILES_NAMED + 5)]
    for name in names:
        (greek.inbox / name).write_text("0" * 64 + "\n", encoding="utf-8")
    process = run_command(greek_argv(greek), greek.root)
    assert process.returncode == 1, process.stdout + process.stderr
    assert process.stderr.count("warning: not read: ") == FILES_NAMED
    assert "inbox: warning: and 5 more files not read: manifest.json names them all" in (
        process.stderr
    )
    assert process.stdout.count("in the inbox but not read: ") == FILES_NAMED
    assert "and 5 more inbox files not read: manifest.json names them all" in process.stdout
    listed = manifest_of(greek.out / "2026-10")["not_read"]
    assert [entry.split(" ")[0] for entry in listed] == names
    process = run_command(greek_argv(greek, "--json"), greek.root)
    [month] = json.loads(process.stdout)["months"]
    assert len(month["alerts"]["unread_files"]) == FILES_NAMED + 5


def test_a_second_monthly_on_the_same_database_with_another_out_waits_then_stops_cleanly(greek):
    """Issue 11: two monthly runs with different --out on one database ended in an
    IntegrityError traceback. The database's own lock keeps them apart: the second waits
    --wait seconds, then exits 2 in one line, its own output folder untouched."""
    from reporting.store.faults import database_lock

    other_out = greek.root / "other-out"
    with database_lock(greek.db, wait=0):  # a first run, on another output folder
        started = time.monotonic()
        process = run_command(
            monthly_argv(greek.inbox, other_out, greek.db, greek.config, "--wait", "0.5"),
            greek.root,
        )
        waited = time.monotonic() - started
    assert process.returncode == 2, process.stdout + process.stderr
    assert "Traceback" not in process.stderr
    assert len(process.stderr.strip().splitlines()) == 1, process.stderr
    assert "another run on this database" in process.stderr
    assert 0.4 <= waited < 30
    assert not (other_out / "2026-10").exists()
    # Once the first run is done, the second runs.
    assert run_command(greek_argv(greek), greek.root).returncode == 0


# --- what could not be checked (issue 12) --------------------------------------------------------


def test_checks_not_run_are_a_warning_of_the_month_in_the_log_summary_and_json(
    tmp_path, operator_config, capsys
):
    inbox, out, db = tmp_path / "inbox", tmp_path / "out", tmp_path / "store.sqlite"
    inbox.mkdir()
    connection = connect(db)
    store_records(
        connection,
        [round_record("R-1", bet_record("R-1", "B-1", placed_at=None), shoe_id=None)],
        file_name="export.json",
    )
    lines: list[str] = []
    try:
        result = run_monthly(
            connection,
            operator_config,
            inbox,
            out,
            {game: date(2026, 11, 5) for game in operator_config.games},
            write_stub_pages,
            log=lines.append,
        )
    finally:
        connection.close()
    (month,) = result.months
    said = (
        "live-baccarat-it: not checked: late_bet on 1 of 1 bets (no placed_at);"
        " shoe_card_count on 1 of 1 rounds (no shoe_id)"
    )
    assert month.alerts.warnings == [said]
    # The log says it entry by entry, at warning level (": warning: ").
    assert [line for line in lines if "not checked" in line] == [
        "verify 2026-10: warning: live-baccarat-it: not checked: late_bet on 1 of 1 bets"
        " (no placed_at)",
        "verify 2026-10: warning: live-baccarat-it: not checked: shoe_card_count on 1 of 1"
        " rounds (no shoe_id)",
    ]
    assert not any("not checked" in alert for alert in month.alerts.alerts)
    document = monthly_document(result)["months"][0]["alerts"]
    assert [entry["check"] for entry in document["checks_not_run"]] == [
        "late_bet",
        "shoe_card_count",
    ]
    assert document["warnings"] == [said]
    _summary(result)
    assert f"  warning: {said}" in capsys.readouterr().out.splitlines()


def test_the_audit_workbook_lists_the_draft_pages_and_why(october):
    """The Italian live game declares an RTP above every bet's theory: its pages are drafts,
    the run exits 1 for it, and the workbook's Pages sheet names the game and the reason; the
    Greek game's pages are ready."""
    from openpyxl import load_workbook

    book = load_workbook(october.out / "2026-10" / "audit-2026-10.xlsx", read_only=True)
    rows = [tuple(row) for row in book["Pages"].iter_rows(min_row=2, values_only=True)]
    assert ("live-baccarat-gr", "no", None) in rows
    italian = [row for row in rows if row[0] == "live-baccarat-it"]
    assert italian and all(row[1] == "yes" for row in italian)
    assert any("is above the theoretical RTP of every bet offered" in row[2] for row in italian)
    lines = book["Summary"].iter_rows(min_row=2, values_only=True)
    summary = dict(row[:2] for row in itertools.takewhile(any, lines))  # the counts above
    assert summary["Games with draft pages"] == 1
    assert "declared RTP" in october.first.stdout + october.first.stderr


def test_every_finding_and_void_round_is_in_the_workbook_and_the_report(october):
    """The month's audit, as the monthly run writes it: every finding with its evidence in
    the workbook's Findings sheet and in the report; every void round with its reason in the
    void register of both; the money of the tables adds up to each game's."""
    from openpyxl import load_workbook

    folder = october.out / "2026-10"
    connection = sqlite3.connect(october.db)
    findings = connection.execute(
        "SELECT f.kind, f.round_id, f.bet_id, b.account, b.stake_cents, r.player_cards,"
        " f.source_file || ':' || f.source_line FROM findings AS f"
        " JOIN rounds AS r USING (round_id)"
        " LEFT JOIN bets AS b ON b.round_id = f.round_id AND b.bet_id = f.bet_id"
        " WHERE f.report_month = '2026-10'"
    ).fetchall()
    voids = connection.execute(
        "SELECT round_id, void_reason FROM rounds WHERE status = 'void'"
        " AND report_month = '2026-10'"
    ).fetchall()
    connection.close()
    assert len(findings) >= 9 and voids  # one fault of each kind was injected
    book = load_workbook(folder / "audit-2026-10.xlsx", read_only=True)

    def table(name):
        header, *rows = list(book[name].iter_rows(values_only=True))
        return header, [tuple(row) + (None,) * (len(header) - len(row)) for row in rows if row]

    header, rows = table("Findings")
    at = {name: header.index(name) for name in ("Kind", "Round", "Account", "Source")}
    listed = {(row[at["Kind"]], row[at["Round"]], row[at["Account"]]) for row in rows}
    assert listed == {(kind, round_id, account) for kind, round_id, _, account, *_ in findings}
    html = (folder / "audit-2026-10.html").read_text(encoding="utf-8")
    for kind, round_id, bet_id, account, _stake, _cards, source in findings:
        assert round_id in html and kind in html and source in html
        if bet_id is not None:  # a bet's finding shows the bet and its account
            assert bet_id in html and account in html
    header, rows = table("Void rounds")
    register = {(row[header.index("Round")], row[header.index("Reason")]) for row in rows}
    assert register == set(voids)
    for round_id, _reason in voids:
        assert round_id in html
    header, rows = table("Money")
    column = {name: header.index(name) for name in header if name}
    rows = [row for row in rows if row[column["Currency"]]]  # the table, not its notes
    games = {row[column["Game"]] for row in rows}
    for game in games:
        of_game = [row for row in rows if row[column["Game"]] == game]
        every = "All tables"
        month = [r for r in of_game if r[column["Table"]] == every and r[column["Day"]] is None]
        tables = [r for r in of_game if r[column["Table"]] != every]
        assert len(month) == 1 and tables
        for name in ("Rounds settled", "Rounds void", "Bets", "Stakes", "Payouts", "GGR"):
            # money is stored as numbers of cents / 100: compared to the cent
            total = sum(r[column[name]] for r in tables)
            assert total == pytest.approx(month[0][column[name]], abs=0.005), (game, name)


def test_a_watched_run_shows_the_month_written_step_by_step(two_games):
    """Issue 23: after the verification's bar, the audit and the pages of every game were
    written with nothing moving on the screen (31 s on the sample). A bar now counts the
    audit, then each game, as each is written."""
    events: list[tuple] = []

    def progress(label, total):
        events.append(("bar", label, total))
        return lambda done, total=None: events.append(("advance", label, done))

    def render(game, disclosure, as_of, folder):
        events.append(("render", game.id))
        return write_stub_pages(game, disclosure, as_of, folder)

    connection = connect(two_games.db)
    try:
        run_monthly(
            connection, two_games.config, two_games.inbox, two_games.out,
            {game: date(2026, 11, 5) for game in two_games.config.games}, render,
            progress=progress,
        )  # fmt: skip
    finally:
        connection.close()
    start = events.index(("bar", "write 2026-10", 3))  # the audit, then two games
    assert [event for event in events if event[0] == "bar"].index(events[start]) > 0  # verify's
    assert events[start + 1 :] == [
        ("advance", "write 2026-10", 1),
        ("render", "live-baccarat-gr"),
        ("advance", "write 2026-10", 2),
        ("render", "live-baccarat-it"),
        ("advance", "write 2026-10", 3),
    ]


@pytest.mark.parametrize("kind", ["link to a folder", "dangling link", "file"])
def test_a_staging_name_that_is_not_our_folder_exits_2_in_one_line(
    two_games, monkeypatch, capsys, kind
):
    """Issue 23, 15: a ``.staging`` symbolic link gave a traceback (shutil.rmtree refuses a
    link). What the run would stage into is refused, never removed nor followed."""
    elsewhere = two_games.out.parent / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "keep.txt").write_text("keep", encoding="utf-8")
    two_games.out.mkdir()
    staging = two_games.out / STAGING
    if kind == "file":
        staging.write_text("not a folder", encoding="utf-8")
    else:
        staging.symlink_to(elsewhere if kind == "link to a folder" else elsewhere / "gone")
    options = monthly_argv(two_games.inbox, two_games.out, two_games.db, two_games.config_path)
    monkeypatch.setattr(sys, "argv", ["baccarat-report", *options[3:]])
    with pytest.raises(SystemExit) as exit_info:
        main()
    assert exit_info.value.code == 2
    assert capsys.readouterr().err.splitlines() == [
        f"baccarat-report: {staging}: not a folder of ours, where the run stages its reports;"
        " move it away and run again"
    ]
    assert [p.name for p in elsewhere.iterdir()] == ["keep.txt"]
    assert os.path.lexists(staging) and not (two_games.out / "2026-10").exists()


@pytest.mark.parametrize(
    ("inbox", "out", "db", "said"),
    [
        ("out/2026-11", "out", "store.sqlite", "--inbox {root}/out/2026-11 and --out {root}/out"),
        ("box", "box", "store.sqlite", "--inbox {root}/box and --out {root}/box"),
        ("box", "box/reports", "store.sqlite", "--inbox {root}/box and --out {root}/box/reports"),
        ("box", "out", "out/store.sqlite", "--db {root}/out/store.sqlite is inside --out"),
        ("box", "out", "box/store.sqlite", "--db {root}/box/store.sqlite is inside --inbox"),
    ],
    ids=["inbox-in-out", "same", "out-in-inbox", "db-in-out", "db-in-inbox"],
)
def test_an_inbox_or_database_inside_the_output_folder_is_refused_before_anything(
    tmp_path, sample_config_path, inbox, out, db, said
):
    """The month's reports replace their folder whole: an inbox given as out/2026-11 was
    deleted with its logs by the first run. Folders one inside the other, or a database in
    the output folder or the inbox, are refused in one line, and nothing is touched."""
    (tmp_path / inbox).mkdir(parents=True)
    log = tmp_path / inbox / "round-log.jsonl"
    log.write_text("{}\n", encoding="utf-8")
    before = sorted(path.relative_to(tmp_path) for path in tmp_path.rglob("*"))
    result = run_main(
        "monthly", "--inbox", str(tmp_path / inbox), "--out", str(tmp_path / out),
        "--db", str(tmp_path / db), "--config", str(sample_config_path), "--as-of", "2026-12-05",
    )  # fmt: skip
    assert (result.returncode, result.stdout) == (2, ""), result.stderr
    (line,) = result.stderr.splitlines()
    assert line.startswith("baccarat-report: " + said.format(root=tmp_path)), line
    assert sorted(path.relative_to(tmp_path) for path in tmp_path.rglob("*")) == before


@pytest.mark.parametrize(
    ("make", "said"),
    [
        (
            lambda out: (out.symlink_to("loop"), (out.parent / "loop").symlink_to(out.name)),
            "the output folder's path is a loop of symbolic links; name a folder",
        ),
        (
            lambda out: out.symlink_to("gone"),
            "the output folder is a symbolic link to nothing (its target does not exist), not a"
            " folder; name a folder",
        ),
        (
            lambda out: os.mkfifo(out),
            "the output folder is a FIFO (named pipe), not a folder; name a folder",
        ),
    ],
    ids=["loop", "link-to-nothing", "fifo"],
)
def test_an_output_folder_that_is_no_folder_is_refused_in_one_line(
    tmp_path, sample_config_path, make, said
):
    """A loop of symbolic links, a link whose target was removed (reports -> a NAS folder
    gone), a FIFO: each was a traceback (RuntimeError, FileExistsError). Now one line,
    exit 2, and nothing made."""
    out = tmp_path / "reports"
    make(out)
    (tmp_path / "inbox").mkdir()
    before = sorted(os.listdir(tmp_path))
    result = run_main(
        "monthly", "--inbox", str(tmp_path / "inbox"), "--out", str(out),
        "--db", str(tmp_path / "x.db"),
        "--config", str(sample_config_path), "--as-of", "2026-11-05",
    )  # fmt: skip
    assert (result.returncode, result.stdout) == (2, ""), result.stderr
    assert result.stderr == f"baccarat-report: {out}: {said}\n"
    assert sorted(os.listdir(tmp_path)) == before


@pytest.mark.parametrize(
    ("make", "said"),
    [
        (lambda inbox: None, "the inbox does not exist"),
        (
            lambda inbox: inbox.symlink_to("gone"),
            "the inbox is a symbolic link to nothing (its target does not exist)",
        ),
        (lambda inbox: os.mkfifo(inbox), "the inbox is a FIFO (named pipe), not a folder"),
    ],
    ids=["missing", "link-to-nothing", "fifo"],
)
def test_an_inbox_that_is_no_folder_says_what_is_there(tmp_path, sample_config_path, make, said):
    """Each was "the inbox is not a folder", a missing inbox (a share not mounted) too."""
    inbox = tmp_path / "inbox"
    make(inbox)
    result = run_main(
        "monthly", "--inbox", str(inbox), "--out", str(tmp_path / "out"),
        "--db", str(tmp_path / "x.db"), "--config", str(sample_config_path),
        "--as-of", "2026-11-05",
    )  # fmt: skip
    assert (result.returncode, result.stderr) == (2, f"baccarat-report: {inbox}: {said}\n")


def test_many_files_that_cannot_be_read_yet_are_one_line_of_bounded_length(
    tmp_path, sample_config_path
):
    """An inbox of 10,000 empty files (uploads begun) was one line of 2 MB in the cron mail
    and the journal: each file's reason joined. The first 20 are named, the rest counted."""
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    for number in range(25):
        (inbox / f"upload-{number:02}.jsonl").touch()
    result = run_main(
        "monthly", "--inbox", str(inbox), "--out", str(tmp_path / "out"),
        "--db", str(tmp_path / "x.db"), "--config", str(sample_config_path),
        "--as-of", "2026-11-05",
    )  # fmt: skip
    assert result.returncode == 2, result.stderr
    line = result.stderr.splitlines()[-1]  # after a step's line for each file
    assert line.endswith("; and 5 more files not read"), line[-200:]
    assert [f"upload-{n:02}.jsonl" in line for n in range(25)] == [True] * 20 + [False] * 5


def test_an_output_folder_of_the_longest_name_gets_a_lock_of_a_name_it_can_have(tmp_path):
    """`--out` named with 250 characters: the run made the folder, then stopped on its lock
    file's name (``.NAME.lock``, 256 characters: too long), leaving an empty folder."""
    out = tmp_path / ("o" * 250)
    lock = lock_path(out)
    assert lock.parent == tmp_path and len(lock.name) <= 255
    assert lock == lock_path(tmp_path / ".." / tmp_path.name / out.name)  # one lock a folder
    assert lock != lock_path(tmp_path / ("p" * 250))
    with output_lock(out, 0):
        assert lock.is_file()
