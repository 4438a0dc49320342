"""The error boundary of main() (cli.md: exit 2, one line, no traceback): faults of the
environment, signals, input that is not UTF-8, rich markup in user text."""

from __future__ import annotations

import errno
import json
import logging
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
import typer
from children import WarmChild
from helpers import counts, rows, run_main

import reporting.cli
from reporting.cli import main
from reporting.cli.failures import STOP_SIGNALS, describe_failure

# --- signals: a real child process, killed in the middle of a file -------------------------


def start_ingest(cwd: Path, *paths: Path) -> subprocess.Popen:
    return WarmChild(
        [sys.executable, "-m", "reporting", "ingest", *map(str, paths), "--db", "store.sqlite"],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def wait_until_mid_transaction(db: Path, process: subprocess.Popen) -> None:
    """Until the first file is committed and the second file's write transaction is open
    (another writer finds the database locked)."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        assert process.poll() is None, process.communicate()
        if _files_committed(db) == 1 and _write_locked(db):
            return
        time.sleep(0.002)
    raise AssertionError("the second file's transaction was never seen in progress")


def _files_committed(db: Path) -> int:
    if not db.exists():
        return 0
    try:
        return rows(db, "SELECT count(*) FROM ingest_log")[0][0]
    except sqlite3.OperationalError:  # the schema is not there yet
        return 0


def _write_locked(db: Path) -> bool:
    connection = sqlite3.connect(db, timeout=0, isolation_level=None)
    try:
        connection.execute("BEGIN IMMEDIATE")
        connection.execute("ROLLBACK")
        return False
    except sqlite3.OperationalError as error:
        assert "locked" in str(error)
        return True
    finally:
        connection.close()


@pytest.mark.parametrize("signal_number", [signal.SIGTERM, signal.SIGINT], ids=["TERM", "INT"])
def test_a_signal_mid_file_rolls_the_file_back_and_exits_2_with_one_line(
    tmp_path, make_round, write_jsonl, signal_number
):
    first = write_jsonl(tmp_path / "first.jsonl", make_round("F-1"), make_round("F-2"))
    big = write_jsonl(
        tmp_path / "big.jsonl",
        *(make_round(f"BIG-{n:06d}", hand_no=n % 80 + 1) for n in range(40_000)),
    )
    db = tmp_path / "store.sqlite"
    process = start_ingest(tmp_path, first, big)
    wait_until_mid_transaction(db, process)
    process.send_signal(signal_number)
    stdout, stderr = process.communicate(timeout=30)

    name = signal.Signals(signal_number).name
    assert process.returncode == 2, stderr
    assert stderr == (
        f"baccarat-report: stopped by {name}: the unfinished transaction was rolled back and"
        " work finished before it is kept; run the command again to finish\n"
    )
    assert stdout == ""
    # The first file stays loaded, nothing of the second is kept, the file is consistent.
    assert rows(db, "PRAGMA integrity_check") == [("ok",)]
    assert rows(db, "SELECT file_name FROM ingest_log") == [(str(first),)]
    assert counts(db)["rounds"] == 2
    # ... and a re-run loads the second file whole.
    again = run_main("ingest", str(first), str(big), "--db", "store.sqlite", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert counts(db)["rounds"] == 40_002


def test_a_hang_up_stops_a_run_by_hand_cleanly_and_nohup_still_ignores_it(
    tmp_path, make_round, write_jsonl
):
    """An ssh session that dropped sent SIGHUP to a run started by hand: it died with exit
    129, no line, and its workers' temporary folders left. It stops as SIGTERM stops it; a
    run under ``nohup`` (SIGHUP ignored) goes on."""
    from reporting.cli.failures import _stop, install_signal_handlers

    write_jsonl(tmp_path / "first.jsonl", make_round("F-1"))
    big = write_jsonl(
        tmp_path / "big.jsonl",
        *(make_round(f"BIG-{n:06d}", hand_no=n % 80 + 1) for n in range(40_000)),
    )
    process = subprocess.Popen(
        [sys.executable, "-m", "reporting", "ingest", "first.jsonl", str(big), "--db", "store.sqlite"],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGHUP, signal.SIG_DFL), start_new_session=True,
    )  # fmt: skip
    wait_until_mid_transaction(tmp_path / "store.sqlite", process)
    os.killpg(process.pid, signal.SIGHUP)  # to the whole group, as a terminal that hangs up
    _, stderr = process.communicate(timeout=30)
    assert process.returncode == 2, stderr
    assert stderr.startswith("baccarat-report: stopped by SIGHUP: the unfinished transaction")
    before = {number: signal.getsignal(number) for number in STOP_SIGNALS}
    try:
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
        install_signal_handlers()
        assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN  # as nohup left it
        signal.signal(signal.SIGHUP, signal.SIG_DFL)
        install_signal_handlers()
        assert signal.getsignal(signal.SIGHUP) is _stop
    finally:
        for number, handler in before.items():
            signal.signal(number, handler)


# --- the boundary in-process: each kind of failure gives one line and exit 2 ----------------


def run_failing(monkeypatch, capsys, error: BaseException, *args: str) -> tuple[int, str]:
    """main() on a command that raises ``error``; its exit code and stderr."""

    def failing() -> None:
        raise error

    failing.__doc__ = "Raise a prepared error."
    monkeypatch.setattr(sys, "argv", ["baccarat-report", *args, "fail"])
    monkeypatch.setattr(reporting.cli, "app", _app_with(failing))
    handlers = {number: signal.getsignal(number) for number in STOP_SIGNALS}
    try:
        with pytest.raises(SystemExit) as stop:
            main()
    finally:
        for number, handler in handlers.items():
            signal.signal(number, handler)
    return stop.value.code, capsys.readouterr().err


def _app_with(command):
    """The real root (its options, its logging) with one extra command."""
    app = typer.Typer(
        add_completion=False,
        pretty_exceptions_enable=False,
        rich_markup_mode=None,
        callback=reporting.cli._root,
    )
    app.command(name="fail")(command)
    app.command(name="odds")(reporting.cli.odds.odds_command)
    return app


ENVIRONMENT_FAULTS = [
    (OSError(errno.ENOSPC, "No space left on device", "reports/2026-10/audit.xlsx"),
     "reports/2026-10/audit.xlsx: no space left on the device; free some space and run again"),
    (OSError(errno.EROFS, "Read-only file system", "/srv/reports"),
     "/srv/reports: the file system is read-only"),
    (PermissionError(errno.EACCES, "Permission denied", "inbox/x.jsonl"),
     "inbox/x.jsonl: permission denied; check the owner and the permissions of the path"),
    (PermissionError(errno.EPERM, "Operation not permitted", "out"),
     "out: operation not permitted"),
    (FileNotFoundError(errno.ENOENT, "No such file or directory", "gone.jsonl"),
     "gone.jsonl: no such file or folder"),
    (NotADirectoryError(errno.ENOTDIR, "Not a directory", "a.txt/b"),
     "a.txt/b: a part of the path is not a folder"),
    (IsADirectoryError(errno.EISDIR, "Is a directory", "reports"),
     "reports: is a folder, where a file is needed"),
    (OSError(errno.ENOSPC, "No space left on device", "a.tmp", None, "a"),
     "a.tmp -> a: no space left on the device"),
    (sqlite3.OperationalError("database is locked"), "the database is locked"),
    (sqlite3.OperationalError("disk I/O error"), "a disk input/output error"),
    (sqlite3.OperationalError("database or disk is full"), "the disk holding the database is full"),
    (sqlite3.OperationalError("attempt to write a readonly database"), "the database is read-only"),
    (sqlite3.OperationalError("unable to open database file"), "the database file cannot be opened"),
    (UnicodeDecodeError("utf-8", b"caf\xe9", 3, 4, "invalid continuation byte"),
     "an input is not valid UTF-8 text (byte 0xe9 at offset 3: invalid continuation byte)"),
]  # fmt: skip


@pytest.mark.parametrize(("error", "expected"), ENVIRONMENT_FAULTS, ids=lambda v: str(v)[:30])
def test_a_fault_of_the_environment_is_one_line_and_exit_2(monkeypatch, capsys, error, expected):
    code, stderr = run_failing(monkeypatch, capsys, error)
    assert code == 2
    assert "Traceback" not in stderr
    assert stderr.startswith(f"baccarat-report: {expected}"), stderr
    assert len(stderr.splitlines()) == 1


def test_a_fault_masked_by_a_failed_rollback_is_reported_not_the_rollback(monkeypatch, capsys):
    """SQLite rolls back by itself on a full disk; the ROLLBACK that follows then fails with
    "no transaction is active": the user must read about the disk."""
    try:
        try:
            raise sqlite3.OperationalError("database or disk is full")
        except sqlite3.OperationalError:
            raise sqlite3.OperationalError("cannot rollback - no transaction is active") from None
    except sqlite3.OperationalError as masking:
        error = masking
    assert error.__context__ is not None
    code, stderr = run_failing(monkeypatch, capsys, error)
    assert (code, stderr.count("\n")) == (2, 1)
    assert "the disk holding the database is full" in stderr


@pytest.mark.parametrize(
    "error",
    [
        OSError(errno.EBADF, "Bad file descriptor"),
        sqlite3.OperationalError("no such table: rounds"),
        sqlite3.IntegrityError("UNIQUE constraint failed: rounds.round_id"),
        KeyError("banker"),
    ],
    ids=["EBADF", "no-such-table", "integrity", "KeyError"],
)
def test_a_bug_keeps_its_traceback(monkeypatch, capsys, error):
    code, stderr = run_failing(monkeypatch, capsys, error)
    assert code == 2
    assert stderr.startswith("Traceback (most recent call last):")
    assert stderr.endswith("baccarat-report: internal error (the traceback above is a bug)\n")


def test_a_file_that_is_not_utf8_is_named(tmp_path, monkeypatch, capsys):
    latin = tmp_path / "operator.toml"
    latin.write_bytes(b"name = 'caf\xe9'\n")

    def read() -> str:
        with latin.open(encoding="utf-8") as handle:
            return handle.read()

    try:
        read()
    except UnicodeDecodeError as raised:
        error = raised
    code, stderr = run_failing(monkeypatch, capsys, error)
    assert code == 2
    assert stderr == (
        f"baccarat-report: {latin}: not valid UTF-8 text (byte 0xe9 at offset 11: invalid"
        " continuation byte); save the file as UTF-8\n"
    )


def test_describe_failure_knows_only_the_expected():
    assert describe_failure(OSError(errno.ENOSPC, "x", "f")) is not None
    assert describe_failure(OSError("no errno")) is None
    assert describe_failure(ValueError("x")) is None


def test_a_failure_is_also_written_to_the_log_file(tmp_path, monkeypatch, capsys):
    log = tmp_path / "logs" / "monthly.log"  # the folder does not exist yet
    error = OSError(errno.ENOSPC, "No space left on device", "reports")
    code, stderr = run_failing(monkeypatch, capsys, error, "--log-file", str(log))
    assert code == 2
    (line,) = log.read_text(encoding="utf-8").splitlines()
    stamp, level, rest = line.split(" ", 2)
    assert level == "ERROR"
    assert time.strptime(stamp, "%Y-%m-%dT%H:%M:%S%z")
    assert (
        rest
        == "baccarat-report: reports: no space left on the device; free some space and run again"
    )


# --- real commands ------------------------------------------------------------------------


def test_a_config_that_is_not_utf8_is_one_line(tmp_path):
    config = tmp_path / "operator.toml"
    config.write_bytes(b"[games.x]\nname = 'caf\xe9'\n")
    process = run_main("odds", "--config", str(config), "--game", "x", cwd=tmp_path)
    assert process.returncode == 2
    assert "Traceback" not in process.stderr
    assert len(process.stderr.splitlines()) == 1
    assert "not UTF-8" in process.stderr and "operator.toml:2" in process.stderr


@pytest.mark.parametrize("name", ["a[/bold]b.jsonl", "[red]x[/red] :x: [link=y].jsonl"])
def test_rich_markup_in_a_file_name_is_printed_as_typed(tmp_path, make_round, write_jsonl, name):
    """A file name is text, never markup: `[/bold]` used to crash ingest after the commit."""
    write_jsonl(tmp_path / name, make_round("M-1"))
    process = run_main("ingest", name, "--db", "store.sqlite", cwd=tmp_path)
    assert process.returncode == 0, process.stderr
    assert process.stderr == ""
    assert name in process.stdout
    assert counts(tmp_path / "store.sqlite")["rounds"] == 1
    document = json.loads(
        run_main("ingest", name, "--db", "store.sqlite", "--json", cwd=tmp_path).stdout
    )
    assert document["files"][0]["file"] == name


def test_rich_markup_in_a_game_name_is_printed_as_typed(tmp_path):
    config = tmp_path / "operator.toml"
    config.write_text(
        '[games.x]\nbase = "live-baccarat-it"\nname = "Baccarat [/bold] :x:"\n', encoding="utf-8"
    )
    process = run_main("odds", "--config", str(config), "--game", "x", cwd=tmp_path)
    assert process.returncode == 0, process.stderr
    assert "Baccarat [/bold] :x: (x)" in process.stdout


def test_the_log_file_option_refuses_a_folder_that_is_a_file(tmp_path):
    (tmp_path / "logs").write_text("", encoding="utf-8")
    process = run_main("--log-file", "logs/x.log", "odds", "--decks", "8", cwd=tmp_path)
    assert process.returncode == 2
    assert process.stderr == "baccarat-report: --log-file logs/x.log: logs is not a folder\n"


def test_a_log_file_that_is_a_fifo_no_one_reads_is_refused_and_one_read_is_written(tmp_path):
    """Opening a FIFO for writing waits for a reader: with none, the command hung for ever.
    It is refused at once; a FIFO a collector reads takes the lines as a file does; a socket
    is named for what it is."""
    fifo = tmp_path / "log.fifo"
    os.mkfifo(fifo)
    process = run_main("--log-file", str(fifo), "odds", "--decks", "8")
    assert process.returncode == 2
    assert process.stderr == (
        f"baccarat-report: --log-file {fifo}: a FIFO (named pipe) that no process reads:"
        " nothing could be written to it\n"
    )
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        process = run_main("--log-file", str(fifo), "verify", "--month", "2026-13")
        assert process.returncode == 2
        written = os.read(reader, 4096).decode("utf-8")
    finally:
        os.close(reader)
    assert written.endswith(
        "ERROR baccarat-report: --month '2026-13': expected YYYY-MM, e.g. 2026-10\n"
    )
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(tmp_path / "log.socket"))
    try:
        process = run_main("--log-file", str(tmp_path / "log.socket"), "odds", "--decks", "8")
    finally:
        server.close()
    assert process.returncode == 2
    assert process.stderr == (
        f"baccarat-report: --log-file {tmp_path / 'log.socket'}: a socket: nothing could be"
        " written to it\n"
    )


@pytest.mark.parametrize(
    "argv",
    [
        ("disclose", "--game", "live-baccarat-it", "--as-of", "0001-01-01"),
        ("disclose", "--game", "live-baccarat-it", "--as-of", "9999-12-31"),
        ("monthly", "--inbox", ".", "--out", "out", "--as-of", "9999-12-31"),
        ("rules", "--out", "out", "--as-of", "1979-12-31"),
        ("verify", "--month", "9999-12"),
        ("sample", "--month", "0001-01", "--out", "x.jsonl"),
    ],
)
def test_dates_outside_the_years_handled_are_one_line(tmp_path, argv):
    """Issue 11: very early or late dates crashed (a year 0 month before, a zip that cannot
    date its parts)."""
    process = run_main(*argv, "--db", str(tmp_path / "db.sqlite"), cwd=tmp_path)
    if argv[0] == "sample":  # sample has no database
        process = run_main(*argv, cwd=tmp_path)
    assert process.returncode == 2, process.stderr
    assert "Traceback" not in process.stderr
    assert len(process.stderr.splitlines()) == 1, process.stderr
    assert "outside the" in process.stderr and "2099" in process.stderr


def store_and_command(tmp_path, command: str, make_round, write_jsonl) -> tuple[Path, tuple]:
    """A store with one round, and the arguments of ``command`` that write to it (ingest of
    a second log, or verify)."""
    db = tmp_path / "store.sqlite"
    log = write_jsonl(tmp_path / "a.jsonl", make_round("A-1"))
    assert run_main("ingest", str(log), "--db", str(db), cwd=tmp_path).returncode == 0
    argv = {
        "ingest": ("ingest", str(write_jsonl(tmp_path / "b.jsonl", make_round("B-1")))),
        "verify": ("verify",),
    }[command]
    return db, argv


@pytest.mark.parametrize("command", ["ingest", "verify"])
def test_db_wait_bounds_the_wait_for_a_busy_database_then_one_line(
    tmp_path, command, make_round, write_jsonl
):
    """Issue 11: a database locked for more than 60 s ended in a traceback; the wait is
    configurable (--db-wait) and its end is one line, exit 2. (Readers such as disclose
    never wait: the database is in WAL mode.)"""
    db, argv = store_and_command(tmp_path, command, make_round, write_jsonl)
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        started = time.monotonic()
        process = run_main(*argv, "--db", str(db), "--db-wait", "0.5", cwd=tmp_path)
        waited = time.monotonic() - started
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert process.returncode == 2, process.stdout + process.stderr
    assert "Traceback" not in process.stderr
    assert len(process.stderr.splitlines()) == 1, process.stderr
    assert "0.5 s" in process.stderr and str(db) in process.stderr
    assert waited < 20


@pytest.mark.parametrize("command", ["ingest", "verify"])
def test_a_signal_while_waiting_for_a_busy_database_stops_at_once(
    tmp_path, command, make_round, write_jsonl
):
    """SQLite waits for another writer in C, where Python runs no signal handler: a
    scheduler's SIGTERM waited out the whole --db-wait (60 s by default) before the command
    stopped. The wait is taken in steps of WAIT_STEP, and the signal stops it within one."""
    from reporting.store.faults import WAIT_STEP

    db, argv = store_and_command(tmp_path, command, make_round, write_jsonl)
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        process = WarmChild(
            [sys.executable, "-m", "reporting", *argv, "--db", str(db), "--db-wait", "60"],
            cwd=tmp_path,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        time.sleep(1.5)  # well into the wait for the write lock
        assert process.poll() is None, process.communicate()
        signalled = time.monotonic()
        process.send_signal(signal.SIGTERM)
        _, stderr = process.communicate(timeout=30)
        stopped = time.monotonic() - signalled
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert process.returncode == 2, stderr
    assert stderr.startswith("baccarat-report: stopped by SIGTERM") and stderr.count("\n") == 1
    assert stopped < WAIT_STEP + 2, stopped  # not the 58 s left of the wait
    assert rows(db, "SELECT count(*) FROM ingest_log") == [(1,)]


def test_totals_past_what_sqlite_can_add_are_reported_exactly(tmp_path):
    """Each amount is taken up to MAX_CENTS; enough stakes at that bound (some 92,000) add
    past 2**63 - 1 cents, where SQLite's sum() raised "integer overflow": `disclose` and the
    audit's workbook ended in a traceback, then in one line, and the month could never be
    reported again (no command takes a file back out of the store). Its totals are now exact:
    `disclose`'s, and the money figures the workbook and the report render (the workbook
    writes a number past a spreadsheet's 15 digits as its exact text:
    tests/presentation/test_audit_xlsx.py). Each bet is above the table's maximum, a finding
    the workbook lists, one row each: a minute of writing, so the workbook is not written."""
    from helpers import bet_record, round_record, store_records

    from reporting.config.loader import load_config
    from reporting.config.values import MAX_CENTS
    from reporting.figures.audit import money_and_activity
    from reporting.records import Month
    from reporting.store.schema import connect

    db = tmp_path / "store.sqlite"
    per_round = 1000  # bets
    past = -(-(2**63) // (MAX_CENTS - 1))  # the fewest stakes whose sum passes 2**63 - 1
    rounds = [
        round_record(
            f"R-{n}",
            *(
                bet_record(f"R-{n}", f"B-{n}-{k}", stake_cents=MAX_CENTS - 1)
                for k in range(per_round)
            ),
            shoe_id=f"S-{n}",
        )
        for n in range(1, -(-past // per_round) + 1)
    ]
    connection = connect(db)
    try:
        store_records(connection, rounds, file_name="huge.jsonl")
    finally:
        connection.close()
    stakes = len(rounds) * per_round * (MAX_CENTS - 1)
    assert stakes > 2**63 - 1
    config = Path(__file__).resolve().parents[2] / "sample_data" / "operator.toml"
    argv = ("disclose", "--game", "live-baccarat-it", "--as-of", "2026-11-05", "--json")
    process = run_main(*argv, "--db", str(db), "--config", str(config), cwd=tmp_path)
    assert process.returncode in (0, 1), process.stderr
    assert "Traceback" not in process.stderr
    assert f"{stakes // 100}.{stakes % 100:02d}" in process.stdout
    connection = connect(db, create=False)
    try:
        game = load_config(config).games["live-baccarat-it"]
        money, _ = money_and_activity(connection, game, Month.parse("2026-10"))
    finally:
        connection.close()
    assert (money[0].table_id, money[0].day, money[0].stakes) == (None, None, stakes)  # the month


def test_the_largest_stake_at_the_highest_odds_is_a_finding_sqlite_stores(tmp_path):
    """An amount just below MAX_CENTS on a bet paying the highest odds a pay table may give
    (MAX_ODDS to 1): its expected payout, which a payout_mismatch finding stores, is an integer
    SQLite holds. With amounts up to 10**15 cents, a tie at 10,000 to 1 of 9,999,999,999,999.99
    stopped verify (and every monthly run of its month) with an OverflowError traceback."""
    from helpers import bet_record, round_record, store_records

    from reporting.config.values import MAX_CENTS, MAX_ODDS
    from reporting.store.schema import connect

    sample = Path(__file__).resolve().parents[2] / "sample_data" / "operator.toml"
    text = sample.read_text(encoding="utf-8").replace('logo = "logo.svg"', "")
    config = tmp_path / "operator.toml"
    game = "[games.live-baccarat-it]\n"
    config.write_text(text.replace(game, f'{game}pay = {{ tie = "{MAX_ODDS}" }}\n'), "utf-8")
    db = tmp_path / "store.sqlite"
    stake = MAX_CENTS - 1
    tie = bet_record("R-1", "B-1", bet_type="tie", stake_cents=stake, payout_cents=stake)
    connection = connect(db)
    try:
        store_records(
            connection,
            [round_record("R-1", tie, player_cards="9H KS", banker_cards="9D KC")],
            file_name="largest.jsonl",
        )
    finally:
        connection.close()
    process = run_main("verify", "--db", str(db), "--config", str(config), cwd=tmp_path)
    assert process.returncode == 1, process.stderr
    assert "Traceback" not in process.stderr
    assert rows(
        db, "SELECT expected_payout_cents FROM findings WHERE kind = 'payout_mismatch'"
    ) == [(stake * (1 + MAX_ODDS),)]


def test_a_month_s_total_past_a_spreadsheet_s_digits_is_its_exact_text_on_every_sheet(tmp_path):
    """A spreadsheet keeps 15 significant digits of a number. The Money sheet wrote a larger
    amount as its exact text, but the Summary's and the RTP checks' stakes, totalled apart,
    were numbers: twelve bets of 999,999,999,999.99 staked 11,999,999,999,999.88, which
    LibreOffice showed as 11,999,999,999,999.90. Every sheet writes it as its exact text."""
    import openpyxl
    from helpers import bet_record, round_record, store_records

    from reporting.presentation.audit_xlsx.cells import SHEET_DIGITS
    from reporting.store.schema import connect

    sample = Path(__file__).resolve().parents[2] / "sample_data" / "operator.toml"
    config = tmp_path / "operator.toml"
    config.write_text(sample.read_text(encoding="utf-8").replace('logo = "logo.svg"', ""), "utf-8")
    db, workbook = tmp_path / "store.sqlite", tmp_path / "audit.xlsx"
    largest = 10**14 - 1  # the largest amount a store holds
    bets = [bet_record("R-1", f"B-{n}", stake_cents=largest, account=f"acc-{n}") for n in range(12)]
    connection = connect(db)
    try:
        store_records(connection, [round_record("R-1", *bets)], file_name="large.jsonl")
    finally:
        connection.close()
    argv = ("verify", "--db", str(db), "--config", str(config), "--month", "2026-10")
    process = run_main(*argv, "--workbook", str(workbook), cwd=tmp_path)
    assert process.returncode == 1, process.stderr
    total = f"{12 * largest // 100:,}.{12 * largest % 100:02d}"
    assert total == "11,999,999,999,999.88"
    numbers, texts = [], set()
    for sheet in openpyxl.load_workbook(workbook, read_only=True):
        for row in sheet.iter_rows(values_only=True):
            numbers += [value for value in row if isinstance(value, int | float) and value >= 1e13]
            texts |= {sheet.title for value in row if value == total}
    assert 12 * largest >= 10**SHEET_DIGITS and numbers == []
    assert {"Summary", "RTP checks", "Money", "Activity", "Disclosure check"} <= texts


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (
            ("verify", "--db", "store.sqlite", "--month", "2026-10", "--workbook", "store.sqlite"),
            "--workbook store.sqlite is the file of --db, which it would replace",
        ),
        (
            ("verify", "--db", "store.sqlite", "--findings-file", "store.sqlite-wal"),
            "--findings-file store.sqlite-wal is the file of --db's wal file",
        ),
        (
            ("verify", "--db", "store.sqlite", "--workbook", "operator.toml"),
            "--workbook operator.toml is the file of --config, which it would replace",
        ),
        (
            ("--log-file", "operator.toml", "verify", "--db", "store.sqlite"),
            "operator.toml is the file of --config, which the log would be appended to",
        ),
        (
            ("--log-file", "store.sqlite", "disclose", "--db", "store.sqlite", "--game",
             "live-baccarat-it", "--as-of", "2026-11-05"),
            "store.sqlite is the file of --db, which the log would be appended to",
        ),  # fmt: skip
        (
            ("--log-file", "a.jsonl", "ingest", "a.jsonl", "--db", "other.sqlite"),
            "a.jsonl is the file of the round log a.jsonl, which the log would be appended to",
        ),
        (
            ("sample", "--month", "2026-10", "--out", "operator.toml"),
            "--out operator.toml is the file of --config, which it would replace",
        ),
        (
            ("--log-file", "live-baccarat-it.en.html", "rules", "--out", ".", "--game",
             "live-baccarat-it", "--lang", "en", "--format", "html"),
            "--out live-baccarat-it.en.html is the file of --log-file, which it would replace",
        ),
        (
            ("--log-file", "csv/bets.csv", "sample", "--month", "2026-10", "--format", "csv",
             "--out", "csv"),
            "--out csv/bets.csv is the file of --log-file, which it would replace",
        ),
    ],
    ids=["workbook-db", "findings-wal", "workbook-config", "log-config", "log-db", "log-input",
         "sample-config", "log-sheet", "log-sample"],
)  # fmt: skip
def test_an_output_or_log_file_that_is_one_of_the_inputs_is_refused_untouched(
    tmp_path, make_round, write_jsonl, argv, words
):
    """``verify --workbook store.sqlite`` turned the store into a workbook, ``--log-file``
    appended its lines to the configuration or the store, ``sample --out`` replaced the
    configuration: each without a word. Each is refused in one line, every file as it was."""
    import shutil

    root = Path(__file__).resolve().parents[2] / "sample_data"
    for name in ("operator.toml", "logo.svg"):
        shutil.copy2(root / name, tmp_path / name)
    write_jsonl(tmp_path / "a.jsonl", make_round("A-1"))
    assert run_main("ingest", "a.jsonl", "--db", "store.sqlite", cwd=tmp_path).returncode == 0
    before = {path.name: path.read_bytes() for path in tmp_path.iterdir() if path.is_file()}
    process = run_main(*argv[:1], *argv[1:], "--config", "operator.toml", cwd=tmp_path)
    assert process.returncode == 2, process.stderr
    assert process.stderr.count("\n") == 1 and words in process.stderr, process.stderr
    after = {path.name: path.read_bytes() for path in tmp_path.iterdir() if path.is_file()}
    assert {name: after.get(name) for name in before} == before


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (
            ("rules", "--out", ".", "--game", "live-baccarat-it", "--lang", "en", "--format",
             "html", "--config", "live-baccarat-it.en.html"),
            "--out live-baccarat-it.en.html is the file of --config",
        ),
        (
            ("sample", "--month", "2026-10", "--out", "s.jsonl", "--faults", "1", "--force",
             "--config", "s.jsonl.faults.json"),
            "--out s.jsonl.faults.json is the file of --config",
        ),
    ],
    ids=["rules", "sample"],
)  # fmt: skip
def test_a_file_a_command_writes_into_its_folder_is_never_its_configuration(tmp_path, argv, named):
    """``rules`` wrote a sheet over a configuration (or a store) of the sheet's name, and
    ``sample --force`` its faults manifest over one: each exited 0."""
    import shutil

    root = Path(__file__).resolve().parents[2] / "sample_data"
    shutil.copy2(root / "logo.svg", tmp_path / "logo.svg")
    config = tmp_path / argv[-1]
    shutil.copy2(root / "operator.toml", config)
    before = config.read_bytes()
    process = run_main(*argv, cwd=tmp_path)
    assert process.returncode == 2, process.stderr
    assert (
        process.stderr == f"baccarat-report: {named}, which it would replace: name another file\n"
    )
    assert config.read_bytes() == before


def test_a_store_whose_name_is_not_utf8_opens_again_and_verifies_with_workers(tmp_path):
    """A ``--db`` named in bytes that are not UTF-8 was made by the first run, and every run
    after it ended in a traceback (its name quoted into a URI, and read back from SQLite)."""
    log = str(
        Path(__file__).resolve().parents[2] / "sample_data" / "inbox" / "round-log-2026-10.jsonl.gz"
    )
    db = "db\udcfe.sqlite"  # the byte 0xfe, as Python names it
    for _ in range(2):
        process = run_main("ingest", log, "--db", db, cwd=tmp_path)
        assert process.returncode == 0, process.stderr
    process = run_main("verify", "--db", db, "--month", "2026-10", "--jobs", "2", cwd=tmp_path)
    assert process.returncode in (0, 1) and "Traceback" not in process.stderr, process.stderr


@pytest.mark.parametrize(
    ("given", "reason"),
    [
        ("2026-02-30", "2026-02-30 is not a date: February 2026 has 28 days"),
        ("2028-02-30", "2028-02-30 is not a date: February 2028 has 29 days"),
        ("2026-04-31", "2026-04-31 is not a date: April 2026 has 30 days"),
        ("2026-13-01", "2026-13-01 is not a date: months go from 01 to 12"),
        ("2026-11-00", "2026-11-00 is not a date: days go from 01"),
        ("5/11/2026", "'5/11/2026': expected a date YYYY-MM-DD, e.g. 2026-11-05"),
        # other forms of ISO 8601 that Python reads, which the line said were refused
        *(
            (other, f"{other!r}: expected a date YYYY-MM-DD, e.g. 2026-11-05")
            for other in ("20261105", "2026-W45-4", "2026-1105-1", "２０２６-11-05")
        ),
    ],
)
def test_an_as_of_that_is_no_date_says_why_in_one_line(tmp_path, given, reason):
    """Issue 23: 2026-02-30 has the form of a date, and was told "expected a date YYYY-MM-DD"."""
    process = run_main("disclose", "--game", "live-baccarat-it", "--as-of", given, cwd=tmp_path)
    assert (process.returncode, process.stderr) == (2, f"baccarat-report: --as-of {reason}\n")


@pytest.mark.parametrize(
    ("argv", "line"),
    [
        (
            ["odds", "--decks", "0"],
            "Invalid value for '--decks': Input should be greater than or equal to 1"
            " (see 'python -m reporting odds -h')",
        ),
        (["verify", "--nope"], "No such option: --nope (see 'python -m reporting verify -h')"),
        (["nocommand"], "No such command 'nocommand'. (see 'python -m reporting -h')"),
        (["ingest"], "Missing argument 'PATH'. (see 'python -m reporting ingest -h')"),
        (["--quiet=x", "odds"], "Option '--quiet' does not take a value."),
    ],
    ids=["bad-value", "unknown-option", "unknown-command", "missing-argument", "root-option"],
)
def test_a_mistake_on_the_command_line_is_one_line_and_exit_2(argv, line):
    """Click's own form was four lines (the usage, a hint, a blank line, "Error: ..."): every
    failure of the command is one line, a usage mistake included, with where to look (the
    command as it was run: here ``python -m reporting``)."""
    result = run_main(*argv)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr.splitlines() == [f"baccarat-report: {line}"]


def test_a_mistake_on_the_command_line_reaches_the_log_file(tmp_path):
    """A cron job with a stale option logged nothing: the line is in --log-file too."""
    log = tmp_path / "job.log"
    result = run_main("--log-file", str(log), "verify", "--nope")
    assert result.returncode == 2
    assert log.read_text(encoding="utf-8").endswith(
        "ERROR baccarat-report: No such option: --nope (see 'python -m reporting verify -h')\n"
    )


def test_no_command_at_all_still_shows_the_help():
    result = run_main()
    assert result.returncode == 2
    assert result.stderr.startswith("Usage: ") and "Commands:" in result.stderr


def test_a_file_name_that_is_not_utf8_is_refused_or_listed_never_a_traceback(
    tmp_path, make_round, write_jsonl, sample_config_path
):
    """A name of bytes that are not UTF-8 (r\\xff\\xfe.jsonl) reached the store, which keeps
    names as text: a traceback, on every run of the month. Named, it is refused in one line
    (exit 2); in a folder, the others load and it is said, with its bytes escaped (exit 1);
    a FIFO or a link to nothing there is said too, where it used to be passed over."""
    folder = tmp_path / "in"
    write_jsonl(folder / "good.jsonl", make_round("R-1"))
    bad = os.fsencode(folder) + b"/r\xff\xfe.jsonl"
    with open(bad, "wb") as handle:
        handle.write((folder / "good.jsonl").read_bytes().replace(b"R-1", b"R-2"))
    os.mkfifo(folder / "pipe.jsonl")
    db = ["--db", str(tmp_path / "store.sqlite"), "--config", str(sample_config_path)]

    named = run_main("ingest", os.fsdecode(bad), *db)
    assert (named.returncode, named.stdout) == (2, "")
    assert named.stderr.splitlines() == [
        f"baccarat-report: {folder}/r\\xff\\xfe.jsonl: its name is not UTF-8 text (the store"
        " keeps names as text): rename it; a round log must be a file"
    ]

    whole = run_main("ingest", str(folder), *db, "--json")
    assert whole.returncode == 1, whole.stderr
    document = json.loads(whole.stdout)
    assert document["rounds_loaded"] == 1
    assert document["unread"] == [
        {"file": f"{folder}/pipe.jsonl", "reason": "a FIFO (named pipe), not a regular file"},
        {
            "file": f"{folder}/r\\xff\\xfe.jsonl",
            "reason": "its name is not UTF-8 text (the store keeps names as text): rename it",
        },
    ]
    assert whole.stderr.splitlines() == [
        f"baccarat-report: warning: not read: {folder}/pipe.jsonl: a FIFO (named pipe), not a"
        " regular file",
        f"baccarat-report: warning: not read: {folder}/r\\xff\\xfe.jsonl: its name is not UTF-8"
        " text (the store keeps names as text): rename it",
    ]


def test_a_file_name_cannot_break_a_line_of_the_log(tmp_path, sample_config_path):
    """A name holding a line break forged a line of its own ("baccarat-report: all good"),
    and one holding an escape sequence drove the terminal: both are escaped."""
    name = tmp_path / "x\nbaccarat-report: all good\x1b[2J.jsonl.gz"
    name.write_bytes(b"\x1f\x8b not gzip")
    result = run_main(
        "ingest", str(name), "--db", str(tmp_path / "s.sqlite"), "--config", str(sample_config_path)
    )
    assert result.returncode == 2
    (line,) = result.stderr.splitlines()
    assert "x\\nbaccarat-report: all good\\x1b[2J.jsonl.gz" in line, line


def test_a_closed_standard_output_is_one_line_and_exit_2():
    """Started with its standard output closed (``>&-``), ``--json`` ended in a traceback and
    the tables were lost with exit 0; ``>/dev/full`` already said no space is left."""
    for json_flag in (["--json"], []):
        done = subprocess.run(
            [sys.executable, "-m", "reporting", "odds", "--decks", "8", *json_flag],
            stdin=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            preexec_fn=lambda: os.close(1),  # the child's standard output closed
            timeout=60,
            check=False,
        )
        assert done.returncode == 2
        assert done.stderr.splitlines() == [
            "baccarat-report: the standard output is closed: the command's result would be"
            " lost (send it to /dev/null to discard it)"
        ]


def test_a_full_standard_output_says_so_and_exits_2_not_120():
    """``>/dev/full``: the line said "no space left on the device" with no path, as if the
    disk of the reports were full, and Python's last flush of the same output printed
    "Exception ignored" and made the exit code 120, which the contract does not know."""
    with open(os.devnull, "rb") as nothing, open("/dev/full", "wb") as full:
        done = subprocess.run(
            [sys.executable, "-m", "reporting", "odds", "--decks", "8", "--json"],
            stdin=nothing, stdout=full, stderr=subprocess.PIPE, text=True, timeout=60,
            check=False,
        )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "baccarat-report: the standard output cannot be written (no space left on device):"
        " the command's result is lost; what it did besides (a month's reports, a store) is"
        " kept"
    ]


WARN_THEN_START_A_WORKER = """
import multiprocessing
from reporting.cli.logs import command_logger
command_logger("monthly").warning("a warning stderr cannot take")
worker = multiprocessing.get_context("fork").Process(target=int)
worker.start()
worker.join()
print("the worker ran", worker.exitcode)
"""


def test_a_line_stderr_could_not_take_does_not_stop_the_next_worker():
    """``2>/dev/full`` under cron: a warning stderr could not take stayed in its buffer and
    failed again at every flush; multiprocessing flushes stderr before it starts a process,
    so a monthly run with render or verify workers stopped there ("no space left on the
    device"), publishing nothing. The stream now writes to /dev/null from its first failure."""
    with open("/dev/full", "wb") as full:
        done = subprocess.run(
            [sys.executable, "-c", WARN_THEN_START_A_WORKER],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=full, text=True,
            env={"PATH": os.environ["PATH"], "PYTHONPATH": str(Path.cwd())}, timeout=60,
            check=False,
        )  # fmt: skip
    assert (done.returncode, done.stdout) == (0, "the worker ran 0\n")


def test_a_record_that_cannot_be_formatted_leaves_stderr_as_it_is(tmp_path, monkeypatch):
    """Only a stream that cannot be written is let go: a record of a bad format (a bug of
    its own) must not send every later line to /dev/null."""
    from reporting.cli.logs import StderrFormatter, _StderrHandler

    handler = _StderrHandler()
    handler.setFormatter(StderrFormatter(journal=False))
    with open(tmp_path / "stderr.txt", "w", encoding="utf-8") as stderr:
        monkeypatch.setattr(sys, "stderr", stderr)
        for fields in ({"msg": "%d rounds", "args": ("many",)}, {"msg": "the next line"}):
            handler.emit(logging.makeLogRecord({"name": "reporting", **fields}))
    assert (tmp_path / "stderr.txt").read_text(encoding="utf-8").endswith("the next line\n")


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (
            ["verify", "--jobs", "99999999"],
            "Invalid value for '--jobs': Input should be less than or equal to 256",
        ),  # fmt: skip
        (
            ["verify", "--scheduler", "tcp://127.0.0.1:1", "--worker-wait", "inf"],
            "Invalid value for '--worker-wait': Input should be less than or equal to 86400",
        ),  # fmt: skip
        (
            ["verify", "--scheduler", "tcp://127.0.0.1:1", "--worker-wait", "0"],
            "Invalid value for '--worker-wait': Input should be greater than or equal to 0.1",
        ),  # fmt: skip
        (
            ["verify", "--db-wait", "1e10"],
            "Invalid value for '--db-wait': Input should be less than or equal to 86400",
        ),  # fmt: skip
        (
            ["verify", "--scheduler", "nonsense"],
            "--scheduler nonsense: not a Dask scheduler's address: expected tcp://HOST:PORT (e.g. tcp://10.0.0.5:8786)",
        ),  # fmt: skip
        (
            ["verify", "--scheduler", "tls://127.0.0.1:1"],
            "--scheduler tls://127.0.0.1:1: not a Dask scheduler's address",
        ),  # fmt: skip
    ],
    ids=[
        "jobs-absurd",
        "worker-wait-inf",
        "worker-wait-0",
        "db-wait-huge",
        "scheduler-word",
        "scheduler-tls",
    ],  # fmt: skip
)
def test_verify_s_options_out_of_their_bounds_are_one_line(
    tmp_path, sample_config_path, argv, said
):
    """--jobs 99999999 forked without end, --worker-wait inf was a traceback and 0 a wait for
    ever, --db-wait 1e10 became no wait at all, and an address Dask cannot parse a traceback
    and a 20 s wait: each is one line, exit 2."""
    db = ["--db", str(tmp_path / "none.sqlite"), "--config", str(sample_config_path)]
    result = run_main(argv[0], *db, "--month", "2026-10", *argv[1:])
    assert (result.returncode, result.stdout) == (2, "")
    (line,) = result.stderr.splitlines()
    assert line.startswith(f"baccarat-report: {said}"), line


def test_a_reader_of_the_standard_output_that_stops_reading_ends_it_quietly():
    """`baccarat-report ... | head`: the rest of the output is the pipeline's to drop; the
    command says nothing of it and ends with exit 1 (click's way)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "reporting", "odds", "--game", "live-baccarat-it", "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    process.stdout.close()
    assert process.wait(timeout=60) == 1
    assert process.stderr.read() == b""
    process.stderr.close()


@pytest.mark.parametrize("zone", ["text-file", "/", "UTC+25"])
def test_a_machine_time_zone_babel_cannot_read_does_not_stop_the_pages(tmp_path, zone):
    """babel reads TZ as it is imported: TZ naming a text file (/etc/timezone) stopped every
    command that writes a page on a traceback, a folder stopped it on "is a folder", and
    TZ=UTC+25 stopped it at the first catalogue. The pages use each game's zone, never the machine's: same exit, same bytes."""
    if zone == "text-file":
        zone = str(tmp_path / "timezone")
        Path(zone).write_text("Etc/UTC\n", encoding="utf-8")
    written = {}
    for name, environment in (("plain", {}), ("zoned", {"TZ": zone})):
        done = subprocess.run(
            [sys.executable, "-m", "reporting", "rules", "--game", "live-baccarat-dk", "--lang",
             "da", "--format", "html", "--as-of", "2026-11-05", "--out", str(tmp_path / name)],
            capture_output=True, text=True, timeout=120,
            env={key: value for key, value in os.environ.items() if key != "TZ"} | environment,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        written[name] = (tmp_path / name / "live-baccarat-dk.da.html").read_bytes()
    assert written["plain"] == written["zoned"]


def test_an_empty_list_of_languages_is_refused_as_an_empty_list_of_formats_is(tmp_path):
    """`rules --lang ''` was taken for no --lang at all: the game's languages written without a
    word, where `--format ''` was refused."""
    for option in ("--lang", "--format"):
        process = run_main(
            "rules", "--game", "live-baccarat-it", option, "", "--out", "out", cwd=tmp_path
        )
        assert process.returncode == 2, process.stderr
        assert process.stderr.startswith(
            f"baccarat-report: {option} '': expected a comma-separated"
        )
    assert not (tmp_path / "out").exists()


def test_a_page_dated_before_its_first_figure_is_refused(tmp_path):
    """`--as-of 1980-01-01` was taken, and the page published the figure of 1979-11, a month
    no store can hold (`disclose` and the monthly job reckon the month the same way:
    figures.disclosure.reference_month)."""
    argv = ["rules", "--game", "live-baccarat-it", "--as-of", "1980-01-01", "--out", "out"]
    process = run_main(*argv, cwd=tmp_path)
    assert process.returncode == 2, process.stderr
    assert process.stderr.splitlines()[-1] == (
        "baccarat-report: --as-of 1980-01-01: the month it writes, 1979-11, is before 1980-01,"
        " the first month this tool handles; pass --as-of 1980-02-05 or later"
    )
    assert not (tmp_path / "out").exists()
