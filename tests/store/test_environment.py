"""Faults of the machine under the database (issue 11, point 2): a full disk, a read-only or
forbidden database or folder, a database locked longer than the wait, a path that is not a
regular file. Each becomes one InputError line naming the path and what to do, never a
traceback; what was loaded before stays, nothing of the file being loaded is kept.

How each fault is made (no test needs a tiny file system):

* a full disk: SQLite's ``PRAGMA max_page_count`` on the connection caps the database a few
  pages above its size, so the next pages it needs fail with the very error a full disk
  gives (``SQLITE_FULL``, "database or disk is full");
* read-only and forbidden: the file and folder modes, the command run in a child process;
  when the tests run as root, the child is root without the capabilities that override
  modes (``setpriv --bounding-set -dac_override,-dac_read_search``), so the owner's bits
  stop it as they would stop the owner;
* a lock held: a second connection holds the write lock (``BEGIN IMMEDIATE``).
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from helpers import counts, rows, run_main

from reporting.errors import (
    DatabaseBusy,
    DiskFull,
    EnvironmentFault,
    InputError,
    NotARegularFile,
    PermissionDenied,
)
from reporting.ingest.sources import Source
from reporting.store.faults import DEFAULT_WAIT
from reporting.store.load import ingest
from reporting.store.schema import connect

REPO = Path(__file__).resolve().parents[2]


def big_log(path: Path, make_round, write_jsonl, prefix: str, count: int) -> Path:
    return write_jsonl(
        path, *(make_round(f"{prefix}-{n:05d}", hand_no=n % 80 + 1) for n in range(count))
    )


def cap_database(connection: sqlite3.Connection, spare_pages: int) -> None:
    """Let the database grow by ``spare_pages`` pages at most: SQLITE_FULL after that."""
    pages = connection.execute("PRAGMA page_count").fetchone()[0]
    connection.execute(f"PRAGMA max_page_count = {pages + spare_pages}")


# --- a full disk -----------------------------------------------------------------------------


def test_a_full_disk_mid_file_keeps_the_earlier_files_and_says_the_ingest_stopped(
    tmp_path, operator_config, make_round, write_jsonl
):
    first = write_jsonl(tmp_path / "a.jsonl", make_round("A-1"), make_round("A-2"))
    second = big_log(tmp_path / "b.jsonl", make_round, write_jsonl, "B", 3_000)
    third = write_jsonl(tmp_path / "c.jsonl", make_round("C-1"))
    sources = [Source(path, "jsonl") for path in (first, second, third)]
    connection = connect(tmp_path / "store.sqlite")
    try:
        cap_database(connection, 20)  # room for a few rounds, not for 3,000
        with pytest.raises(DiskFull) as caught:
            ingest(connection, sources, operator_config)
        message = str(caught.value)
        # The full disk itself is reported, not a failed ROLLBACK after it.
        assert message == (
            f"{tmp_path / 'store.sqlite'}: the disk is full (or the database reached its size"
            f" limit) while loading {second}: nothing of it was kept; the 1 file(s) this run"
            " loaded before it are kept; the ingest stopped there (no later file was tried);"
            " free space on the database's disk and run again"
        )
        # The first file stays, nothing of b or c is there.
        assert rows(tmp_path / "store.sqlite", "SELECT file_name FROM ingest_log") == [
            (str(first),)
        ]
        assert counts(tmp_path / "store.sqlite")["rounds"] == 2
        # The connection is clean (no transaction left open): with room again, b and c load.
        assert not connection.in_transaction
        connection.execute("PRAGMA max_page_count = 1073741823")
        again = ingest(connection, sources, operator_config)
    finally:
        connection.close()
    assert [f.status for f in again.files] == ["already_ingested", "loaded", "loaded"]
    assert counts(tmp_path / "store.sqlite")["rounds"] == 2 + 3_000 + 1


def test_a_full_disk_on_the_first_file_says_no_earlier_file_was_loaded(
    tmp_path, operator_config, make_round, write_jsonl
):
    log = big_log(tmp_path / "b.jsonl", make_round, write_jsonl, "B", 2_000)
    connection = connect(tmp_path / "store.sqlite")
    try:
        cap_database(connection, 5)
        with pytest.raises(DiskFull, match="nothing of it was kept; the ingest stopped"):
            ingest(connection, [Source(log, "jsonl")], operator_config)
    finally:
        connection.close()
    assert counts(tmp_path / "store.sqlite") == {
        "ingest_log": 0,
        "rounds": 0,
        "bets": 0,
        "rejected_records": 0,
    }


#: Runs the CLI with the database capped as in cap_database, to see main()'s real output.
CAPPED_CLI = """
import sys
import reporting.store.schema as schema  # ingest imports connect from it when it runs
from reporting.cli import main

opened = schema.connect


def capped(*args, **kwargs):
    connection = opened(*args, **kwargs)
    pages = connection.execute("PRAGMA page_count").fetchone()[0]
    connection.execute(f"PRAGMA max_page_count = {pages + 5}")
    return connection


schema.connect = capped
sys.argv = ["baccarat-report", *sys.argv[1:]]
main()
"""


def test_ingest_on_a_full_disk_prints_one_line_and_exits_2(
    tmp_path, sample_config_path, make_round, write_jsonl
):
    log = big_log(tmp_path / "b.jsonl", make_round, write_jsonl, "B", 2_000)
    db = tmp_path / "store.sqlite"
    result = subprocess.run(
        [sys.executable, "-c", CAPPED_CLI, "ingest", str(log), "--db", str(db),
         "--config", str(sample_config_path)],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    [line] = result.stderr.strip().splitlines()
    assert line.startswith(f"baccarat-report: {db}: the disk is full")
    assert str(log) in line


# --- read-only, forbidden -----------------------------------------------------------------


@pytest.fixture
def folder(tmp_path):
    """A folder whose modes the test may change; made removable again afterwards."""
    folder = tmp_path / "env"
    folder.mkdir()
    yield folder
    for path in (folder, *folder.rglob("*")):
        path.chmod(0o755 if path.is_dir() else 0o644)


def restricted(*arguments: str) -> subprocess.CompletedProcess:
    """``python ARGUMENTS`` (``-m reporting ...``, ``-c ...``) as a process that file modes apply to: as root
    (whom modes do not stop), root without the capabilities to override them (its own files'
    owner bits then hold, as they would for their owner); as any other user, as it is."""
    prefix = []
    if os.geteuid() == 0:
        prefix = ["setpriv", "--bounding-set", "-dac_override,-dac_read_search"]
    return subprocess.run(
        [*prefix, sys.executable, *arguments],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=REPO,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
    )


def one_line(result: subprocess.CompletedProcess) -> str:
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    [line] = result.stderr.strip().splitlines()
    return line


#: Opens a database as verify would, and prints the error's class and message.
OPEN_DATABASE = """
import sys
from pathlib import Path
from reporting.errors import InputError
from reporting.store.schema import connect

try:
    connect(Path(sys.argv[1]), create=False).close()
except InputError as error:
    print(type(error).__name__, error)
"""


def stored_store(folder: Path, make_round, write_jsonl, operator_config) -> Path:
    db = folder / "store.sqlite"
    connection = connect(db)
    try:
        log = write_jsonl(folder / "old.jsonl", make_round("OLD-1"))
        ingest(connection, [Source(log, "jsonl")], operator_config)
    finally:
        connection.close()
    return db


@pytest.mark.parametrize(
    ("file_mode", "folder_mode"),
    [(0o444, 0o555), (0o644, 0o555)],
    ids=["read-only file and folder", "writable file in a read-only folder"],
)
def test_ingest_into_a_read_only_database_says_so_in_one_line(
    folder, file_mode, folder_mode, make_round, write_jsonl, operator_config,
    sample_config_path,
):  # fmt: skip
    db = stored_store(folder, make_round, write_jsonl, operator_config)
    log = write_jsonl(folder / "new.jsonl", make_round("NEW-1"))
    before = db.read_bytes()
    db.chmod(file_mode)
    folder.chmod(folder_mode)
    result = restricted(
        "-m", "reporting", "ingest", str(log), "--db", str(db), "--config", str(sample_config_path)
    )
    line = one_line(result)
    assert line.startswith(f"baccarat-report: {db}: the database is read-only for this user")
    assert "writable" in line
    assert db.read_bytes() == before


def test_a_database_this_user_may_not_read_is_permission_denied(
    folder, make_round, write_jsonl, operator_config, sample_config_path
):
    db = stored_store(folder, make_round, write_jsonl, operator_config)
    db.chmod(0o000)
    # The command line refuses an unreadable --db itself: connect() is asked directly.
    result = restricted("-c", OPEN_DATABASE, str(db))
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == (
        f"PermissionDenied {db}: cannot read it: permission denied; give this user access,"
        " or run as a user who has it"
    )


def test_a_new_database_in_a_folder_this_user_may_not_write_is_refused(
    folder, make_round, write_jsonl, sample_config_path
):
    log = write_jsonl(folder / "new.jsonl", make_round("NEW-1"))
    folder.chmod(0o555)
    db = folder / "store.sqlite"
    line = one_line(
        restricted(
            "-m",
            "reporting",
            "ingest",
            str(log),
            "--db",
            str(db),
            "--config",
            str(sample_config_path),
        )
    )
    assert line.startswith(f"baccarat-report: {db}: the database cannot be opened")
    assert not db.exists()


def test_a_database_in_a_missing_folder_is_refused(tmp_path):
    with pytest.raises(PermissionDenied, match="its folder is missing"):
        connect(tmp_path / "no-such-folder" / "store.sqlite")


# --- a database locked longer than the wait --------------------------------------------------


def test_the_default_wait_for_a_lock_is_60_seconds(tmp_path):
    from reporting.cli.common import DEFAULT_DB_WAIT

    assert DEFAULT_WAIT == 60
    assert DEFAULT_DB_WAIT == DEFAULT_WAIT  # --db-wait's default is the store's own
    connection = connect(tmp_path / "store.sqlite")
    try:
        assert connection.execute("PRAGMA busy_timeout").fetchone() == (60_000,)
    finally:
        connection.close()


def test_an_ingest_waits_for_a_held_lock_up_to_its_wait_then_says_so(
    tmp_path, operator_config, make_round, write_jsonl
):
    db = tmp_path / "store.sqlite"
    connect(db).close()
    first = write_jsonl(tmp_path / "a.jsonl", make_round("A-1"))
    second = write_jsonl(tmp_path / "b.jsonl", make_round("B-1"))
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        connection = connect(db, wait=0.3)
        try:
            started = time.monotonic()
            with pytest.raises(DatabaseBusy) as caught:
                ingest(
                    connection, [Source(first, "jsonl"), Source(second, "jsonl")], operator_config
                )
            waited = time.monotonic() - started
        finally:
            connection.close()
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert 0.25 <= waited < 5
    assert str(caught.value).startswith(
        f"{db}: another process held the database locked for more than 0.3 s while loading"
        f" {first}: nothing of it was kept; the ingest stopped there"
    )
    assert str(caught.value).endswith("or allow a longer wait (--db-wait SECONDS)")  # which
    assert counts(db)["ingest_log"] == 0


def test_every_command_that_reads_a_store_takes_the_wait_its_lock_message_names():
    """A store held locked past the wait says "allow a longer wait (--db-wait SECONDS)":
    export, rules and serve said so without taking the option."""
    from typer.main import get_command

    from reporting.cli import app

    commands = get_command(app).commands
    options = {
        name: {option for parameter in command.params for option in parameter.opts}
        for name, command in commands.items()
    }
    with_a_store = {name for name, given in options.items() if "--db" in given}
    assert {"export", "rules", "serve", "verify", "ingest"} <= with_a_store
    assert [name for name in sorted(with_a_store) if "--db-wait" not in options[name]] == []


@pytest.mark.parametrize(
    "command",
    [
        ["export", "--parquet", "{tmp}/copy"],
        ["rules", "--game", "live-baccarat-it", "--lang", "it", "--format", "html", "--out",
         "{tmp}/sheets", "--config", "{config}"],
    ],
    ids=["export", "rules"],
)  # fmt: skip
def test_export_and_rules_wait_for_a_held_lock_as_db_wait_says(
    tmp_path, sample_config_path, command
):
    db = tmp_path / "store.sqlite"
    connect(db).close()
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_EXCLUSIVELY, str(db)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout.readline() == "locked\n"
        started = time.monotonic()
        result = run_main(
            *(part.format(tmp=tmp_path, config=sample_config_path) for part in command),
            *("--db", str(db), "--db-wait", "0.3"),
        )
        waited = time.monotonic() - started
    finally:
        holder.kill()
        holder.wait()
    assert result.returncode == 2, result.stderr
    assert 0.25 <= waited < 10
    assert result.stderr == (
        f"baccarat-report: {db}: another process held the database locked for more than 0.3 s;"
        " run again when it ends, or allow a longer wait (--db-wait SECONDS)\n"
    )


#: Hold the store ``sys.argv[1]`` locked against readers too, until killed.
HOLD_EXCLUSIVELY = """\
import sqlite3, sys, time
holder = sqlite3.connect(sys.argv[1], isolation_level=None)
holder.execute("PRAGMA locking_mode = EXCLUSIVE")
holder.execute("BEGIN EXCLUSIVE")
holder.execute("DELETE FROM ingest_months")
print("locked", flush=True)
time.sleep(120)
"""


def test_an_ingest_that_waits_less_than_the_lock_is_held_loads_when_it_is_released(
    tmp_path, operator_config, make_round, write_jsonl
):
    db = tmp_path / "store.sqlite"
    connect(db).close()
    log = write_jsonl(tmp_path / "a.jsonl", make_round("A-1"))
    holder = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN IMMEDIATE")
    release = threading.Timer(0.5, lambda: holder.execute("ROLLBACK"))
    release.start()
    try:
        connection = connect(db, wait=10)
        try:
            result = ingest(connection, [Source(log, "jsonl")], operator_config)
        finally:
            connection.close()
    finally:
        release.join()
        holder.close()
    assert [f.status for f in result.files] == ["loaded"]


# --- paths that are not regular files ------------------------------------------------------


@pytest.mark.parametrize("kind", ["folder", "fifo", "device"])
def test_a_database_path_that_is_not_a_regular_file_is_refused_at_once(tmp_path, kind):
    path = {"folder": tmp_path / "db", "fifo": tmp_path / "db", "device": Path("/dev/null")}[kind]
    if kind == "folder":
        path.mkdir()
    elif kind == "fifo":
        os.mkfifo(path)
    started = time.monotonic()
    with pytest.raises(NotARegularFile, match="not a database file"):
        connect(path)
    assert time.monotonic() - started < 2  # a FIFO is never opened, so never waited on


def test_a_database_path_that_is_a_dangling_link_is_refused_and_nothing_is_created(tmp_path):
    link = tmp_path / "store.sqlite"
    link.symlink_to(tmp_path / "elsewhere.sqlite")
    with pytest.raises(InputError, match="a symbolic link to nothing"):
        connect(link)
    assert not (tmp_path / "elsewhere.sqlite").exists()


def test_an_input_that_is_a_fifo_fails_alone_and_the_next_file_loads(
    tmp_path, operator_config, make_round, write_jsonl
):
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    good = write_jsonl(tmp_path / "good.jsonl", make_round("G-1"))
    connection = connect(tmp_path / "store.sqlite")
    try:
        started = time.monotonic()
        result = ingest(connection, [Source(fifo, "jsonl"), Source(good, "jsonl")], operator_config)
    finally:
        connection.close()
    assert time.monotonic() - started < 5
    failed, loaded = result.files
    assert failed.status == "failed"
    assert failed.error == f"{fifo}: not a regular file (a FIFO (named pipe)): not read"
    assert loaded.status == "loaded"
    assert counts(tmp_path / "store.sqlite")["rounds"] == 1


def test_an_input_that_vanished_fails_alone_and_the_next_file_loads(
    tmp_path, operator_config, make_round, write_jsonl
):
    gone = tmp_path / "gone.jsonl"
    gone.symlink_to(tmp_path / "nowhere.jsonl")
    good = write_jsonl(tmp_path / "good.jsonl", make_round("G-1"))
    connection = connect(tmp_path / "store.sqlite")
    try:
        result = ingest(connection, [Source(gone, "jsonl"), Source(good, "jsonl")], operator_config)
    finally:
        connection.close()
    assert [f.status for f in result.files] == ["failed", "loaded"]
    assert result.files[0].error.startswith(f"{gone}: cannot be read")


def test_every_fault_is_an_input_error_the_boundary_prints():
    for kind in (DiskFull, PermissionDenied, DatabaseBusy):
        assert issubclass(kind, EnvironmentFault)
    assert issubclass(EnvironmentFault, InputError)
    assert issubclass(NotARegularFile, InputError)


def test_an_inbox_folder_or_file_this_user_may_not_read_is_said_not_passed_over(folder):
    """A folder of the inbox that cannot be listed was passed over without a word, and a
    file that cannot be read was listed to be read (the monthly run then stopped on it):
    both are listed as not read, and the readable log is still read."""
    (folder / "good.jsonl").write_text("{}\n", encoding="utf-8")
    (folder / "locked").mkdir()
    (folder / "locked" / "inside.jsonl").write_text("{}\n", encoding="utf-8")
    (folder / "locked").chmod(0o000)
    (folder / "secret.jsonl").write_text("{}\n", encoding="utf-8")
    (folder / "secret.jsonl").chmod(0o000)
    config = REPO / "sample_data" / "operator.toml"
    result = restricted("-m", "reporting", "check", "--config", str(config), "--inbox", str(folder))
    said = result.stdout + result.stderr
    assert "not read: locked (a folder that cannot be listed (no permission): its files are" in said
    assert "not read: secret.jsonl (a file that cannot be read (no permission))" in said
    assert "good.jsonl (jsonl)" in said and "secret.jsonl (jsonl)" not in said


def test_an_old_copy_that_cannot_be_removed_does_not_fail_the_publishing_it_follows(folder):
    """Once the new copy was in place, a failure to remove the old one (a folder this user may
    not empty) was the export's failure: exit 2, though published, and every later run the
    same, naming only a folder inside. The publishing stands; the next run names what is left
    in one line, and runs once it can be removed."""
    store = REPO / "sample_data" / "inbox" / "round-log-2026-10.jsonl.gz"
    db = folder / "store.sqlite"
    copy = folder / "copy"
    assert restricted("-m", "reporting", "ingest", str(store), "--db", str(db)).returncode == 0
    export = ("-m", "reporting", "export", "--db", str(db), "--parquet", str(copy))
    assert restricted(*export).returncode == 0
    (copy / "bets").chmod(0o555)  # its files cannot be removed
    published = restricted(*export)
    assert published.returncode == 0, published.stderr
    assert (folder / ".copy.old").is_dir() and (copy / "bets").is_dir()
    # said now, not a month later on the run that stops on it
    assert f"{folder}/.copy.old: cannot remove the previous copy (the new one is in place)" in (
        published.stderr
    )
    stopped = restricted(*export)
    assert one_line(stopped) == (
        f"baccarat-report: {folder}/.copy.old: cannot remove the previous copy left there by the"
        " last swap: permission denied; give this user access, or run as a user who has it"
    )
    for path in (folder / ".copy.old", *(folder / ".copy.old").rglob("*")):
        if path.is_dir():
            path.chmod(0o755)
    assert restricted(*export).returncode == 0
    assert not (folder / ".copy.old").exists()
