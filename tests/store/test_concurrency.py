"""Two runs on one database at once (issue 11, point 3): two ingests of the same file, and two
verify runs replacing the findings of one month, end as if they had run one after the other,
never in an IntegrityError."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from helpers import counts, dump, rows, run_main

from reporting.errors import NotOurDatabase
from reporting.ingest.sources import Source
from reporting.store import schema
from reporting.store.load import ingest
from reporting.store.schema import connect


def test_two_connections_ingesting_the_same_file_load_it_once(
    tmp_path, operator_config, make_round, write_jsonl
):
    """Both pass the first look at the ingest log while a third connection holds the write
    lock; when it is released, one loads the file and the other finds it loaded."""
    db = tmp_path / "store.sqlite"
    connect(db).close()
    log = write_jsonl(tmp_path / "log.jsonl", *(make_round(f"R-{n}") for n in range(50)))
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    waiting = [threading.Event(), threading.Event()]
    results: dict[int, object] = {}

    def run(index: int) -> None:
        connection = connect(db, wait=30)

        def seen(statement: str) -> None:
            if statement == "BEGIN IMMEDIATE":
                waiting[index].set()  # it passed the first look and now waits for the lock

        connection.set_trace_callback(seen)
        try:
            results[index] = ingest(connection, [Source(log, "jsonl")], operator_config)
        except BaseException as error:  # reported below, with the other thread's result
            results[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(index,)) for index in (0, 1)]
    for thread in threads:
        thread.start()
    try:
        assert all(event.wait(10) for event in waiting)
        time.sleep(0.1)  # both are inside BEGIN IMMEDIATE, waiting on the lock
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    for thread in threads:
        thread.join(30)
    statuses = sorted(results[index].files[0].status for index in (0, 1))
    assert statuses == ["already_ingested", "loaded"]
    assert counts(db) == {"ingest_log": 1, "rounds": 50, "bets": 50, "rejected_records": 0}


def open_files(pid: int) -> set[str]:
    folder = Path(f"/proc/{pid}/fd")
    found = set()
    for entry in folder.iterdir() if folder.exists() else ():
        try:
            found.add(os.readlink(entry))
        except OSError:
            continue
    return found


def test_two_processes_ingesting_the_same_file_at_once_both_succeed(
    tmp_path, sample_config_path, make_round, write_jsonl
):
    db = tmp_path / "store.sqlite"
    connect(db).close()
    log = write_jsonl(tmp_path / "log.jsonl", *(make_round(f"R-{n}") for n in range(200)))
    command = [
        sys.executable, "-m", "reporting", "ingest", str(log), "--db", str(db),
        "--config", str(sample_config_path), "--json",
    ]  # fmt: skip
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # both start before either can write
    processes = [
        subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    try:
        deadline = time.monotonic() + 30
        # Both have the database open (they are at or past their first look at it).
        while time.monotonic() < deadline and not all(
            str(db) in open_files(process.pid) for process in processes
        ):
            time.sleep(0.05)
        time.sleep(0.5)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    outputs = [process.communicate(timeout=60) for process in processes]
    for process, (_, stderr) in zip(processes, outputs, strict=True):
        assert process.returncode == 0, stderr
        assert "Traceback" not in stderr
    statuses = sorted(json.loads(stdout)["files"][0]["status"] for stdout, _ in outputs)
    assert statuses == ["already_ingested", "loaded"]
    assert counts(db) == {"ingest_log": 1, "rounds": 200, "bets": 200, "rejected_records": 0}


def findings(db: Path) -> list[tuple]:
    return rows(
        db,
        "SELECT kind, game_id, report_month, round_id, bet_id, rule, source_file, source_line,"
        " message FROM findings ORDER BY 1, 2, 3, 4, 5, 6, 7, 8",
    )


def test_two_verify_runs_of_one_month_at_once_leave_the_findings_of_one_run(
    tmp_path, sample_config_path
):
    """verify replaces a month's findings in one transaction under the write lock: two runs
    at once do not interleave their deletes and inserts (no finding twice, none lost)."""
    log = tmp_path / "month.jsonl"
    config = ["--config", str(sample_config_path)]
    sample = run_main(
        "sample", "--month", "2026-10", "--rounds-per-day", "40", "--faults", "1",
        "--seed", "3", "--out", str(log), *config,
    )  # fmt: skip
    assert sample.returncode == 0, sample.stderr
    db = tmp_path / "store.sqlite"
    assert run_main("ingest", str(log), "--db", str(db), *config).returncode in (0, 1)
    verify = [sys.executable, "-m", "reporting", "verify", "--month", "2026-10", "--db", str(db)]
    single = run_main("verify", "--month", "2026-10", "--db", str(db), *config)
    assert single.returncode == 1, single.stderr
    alone = findings(db)
    assert alone
    processes = [
        subprocess.Popen([*verify, *config], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for _ in range(2)
    ]
    for process in processes:
        _, stderr = process.communicate(timeout=60)
        assert process.returncode == 1, stderr
        assert b"Traceback" not in stderr
    assert findings(db) == alone
    assert dump(db)  # the rest of the store still reads


def test_several_connections_creating_one_new_store_at_once_all_open_it(tmp_path):
    """SQLite answers two switches to WAL at once with "database is locked" without waiting:
    connect() tries again within its wait, so every one of them opens the one store."""
    for trial in range(10):
        path = tmp_path / f"store-{trial}.sqlite"
        start = threading.Barrier(6)
        failures: list[BaseException] = []

        def open_it(path=path, start=start, failures=failures) -> None:
            start.wait()
            try:
                connect(path).close()
            except BaseException as error:  # collected, asserted below
                failures.append(error)

        threads = [threading.Thread(target=open_it) for _ in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
        assert failures == []
        assert rows(path, "PRAGMA journal_mode") == [("wal",)]
        tables = rows(path, "SELECT name FROM sqlite_schema WHERE type = 'table'")
        assert sorted(name for (name,) in tables) == sorted(schema.TABLES)


@pytest.mark.parametrize("written_meanwhile", [True, False])
def test_a_lockless_look_at_a_store_written_meanwhile_is_taken_again_under_locks(
    tmp_path, monkeypatch, written_meanwhile
):
    """Before writing, connect() looks at the file without a lock (immutable) when no -wal is
    beside it. A store another connection created, committed and checkpointed during that
    look can show the header of before (no application id) with the tables of after: such a
    look is not trusted, the file is read again under SQLite's locks. A look at a file that
    did not change is kept: a foreign file is still refused without being opened for real."""
    path = tmp_path / "store.sqlite"
    connect(path).close()
    assert not Path(f"{path}-wal").exists()
    read_marks = schema._read_marks
    looks = []

    def torn(uri: str, wait: float):
        looks.append(uri.rsplit("?", 1)[1])
        if "immutable=1" not in uri:
            return read_marks(uri, wait)
        if written_meanwhile:  # the checkpoint of another connection lands mid-read
            status = path.stat()
            os.utime(path, ns=(status.st_atime_ns, status.st_mtime_ns + 1_000_000))
        _application_id, version, tables = read_marks(uri, wait)
        return 0, version, tables

    monkeypatch.setattr(schema, "_read_marks", torn)
    if written_meanwhile:
        connect(path).close()
        assert looks == ["immutable=1", "mode=ro"]
    else:
        with pytest.raises(NotOurDatabase):
            connect(path)
        assert looks == ["immutable=1"]


def test_the_look_before_writing_reads_the_store_at_one_instant(tmp_path, monkeypatch):
    """Another connection creates the store (tables, application id, version: one commit)
    between the look's reading of the version and of the tables: the look still sees the
    file of one instant (here the empty one), never the header of before with the tables of
    after, which it used to refuse as "not a baccarat-report database" (seen once in a run of
    the test above)."""
    path = tmp_path / "store.sqlite"
    holder = sqlite3.connect(path)  # an empty store in WAL mode, open elsewhere: -wal beside it
    holder.execute("PRAGMA journal_mode = WAL")
    holder.execute("SELECT * FROM sqlite_schema").fetchall()
    assert Path(f"{path}-wal").exists()
    version_of = schema.schema_version
    created = []

    def version_then_created(connection):
        version = version_of(connection)
        if not created:
            created.append(True)
            writer = sqlite3.connect(path, isolation_level=None)
            schema.create_schema(writer)
            writer.close()
        return version

    monkeypatch.setattr(schema, "schema_version", version_then_created)
    connect(path).close()
    holder.close()
    assert created
    assert rows(path, "PRAGMA application_id") == [(schema.APPLICATION_ID,)]


def test_an_ingest_waits_for_a_monthly_run_on_its_database_and_loads_beside_others(
    tmp_path, sample_config_path, make_round, write_jsonl
):
    """An ingest committed while a monthly run read its month: the run's disclosure and its
    audit counted different rounds, and the late ones were said to be in no report. A load
    now waits for the monthly run's lock (``--db-wait``), then stops with nothing loaded;
    loads beside each other still run at once."""
    from reporting.store.faults import database_lock

    db, log = tmp_path / "store.sqlite", write_jsonl(tmp_path / "r.jsonl", make_round("R-1"))
    command = ["ingest", str(log), "--db", str(db), "--config", str(sample_config_path)]
    connect(db).close()
    with database_lock(db, 0):  # as a monthly run holds it
        stopped = run_main(*command, "--db-wait", "0.3")
    assert stopped.returncode == 2, stopped.stderr
    assert "another run on this database (pid " in stopped.stderr
    assert "nothing was loaded; run again when it ends" in stopped.stderr
    assert stopped.stderr.rstrip().endswith("run again when it ends, or pass --db-wait SECONDS")
    assert counts(db)["rounds"] == 0
    with database_lock(db, 0, shared=True):  # another load
        assert run_main(*command, "--db-wait", "0.3").returncode == 0
    assert counts(db)["rounds"] == 1


def test_a_verify_waits_for_a_monthly_run_on_its_database(
    tmp_path, sample_config_path, make_round, write_jsonl
):
    """verify replaces a month's findings, which a monthly run on the store reads for its
    audit: it waits for the run's lock, then stops with nothing checked."""
    from reporting.store.faults import database_lock

    db, log = tmp_path / "store.sqlite", write_jsonl(tmp_path / "r.jsonl", make_round("R-1"))
    loaded = run_main("ingest", str(log), "--db", str(db), "--config", str(sample_config_path))
    assert loaded.returncode == 0, loaded.stderr
    command = ["verify", "--db", str(db), "--config", str(sample_config_path)]
    with database_lock(db, 0):
        stopped = run_main(*command, "--db-wait", "0.3")
    assert stopped.returncode == 2, stopped.stderr
    assert "nothing was checked; run again when it ends, or pass --db-wait SECONDS" in (
        stopped.stderr
    )
    assert run_main(*command).returncode == 0
