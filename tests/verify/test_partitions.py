"""Partitioned verification (reporting.verify.partitions): a month split by table, checked by
separate workers in any order, merged into exactly what one pass finds: the same stored rows
in the same order, the same totals with their keys in the same order, the same shoes."""

from __future__ import annotations

import dataclasses
import errno
import glob
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import types
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest
from children import WarmChild
from helpers import (
    bet_record,
    interpreters,
    round_record,
    rows,
    run_under,
    store_records,
    stored_findings,
    verify_outcome,
    workers_of,
)

import reporting.verify.partitions
import reporting.verify.pool
from reporting.config.loader import load_config
from reporting.errors import EnvironmentFault
from reporting.ingest.discovery import discover_sources
from reporting.sample.generator import generate_month
from reporting.store.load import ingest
from reporting.store.schema import connect
from reporting.verify.partitions import LocalRunner, check_partition, plan_partitions
from reporting.verify.run import verify

REPOSITORY = Path(__file__).resolve().parents[2]
CONFIG = REPOSITORY / "sample_data" / "operator.toml"
MONTH = "2026-10"


def in_process(order):
    """A runner checking the partitions here, one after another, in ``order`` (a function of
    the task list): what a pool of workers finishing in any order gives back."""

    def run(tasks):
        for task in order(list(tasks)):
            yield check_partition(task)

    return run


@pytest.fixture(scope="module")
def faulted_store(tmp_path_factory):
    """A month of three tables a game, two faults of every kind, ingested under the sample
    configuration: its path, and a configuration without one game (its rounds unconfigured)."""
    folder = tmp_path_factory.mktemp("partitions")
    config = load_config(CONFIG)
    log = folder / "month.jsonl"
    generate_month(config, MONTH, log, tables=3, rounds_per_day=12, faults=2, seed=11)
    connection = connect(folder / "store.sqlite")
    assert ingest(connection, discover_sources([log]), config).failed == []
    # The generator's round ids begin with the table's: ids by time instead (as a provider
    # numbering every table's rounds in one sequence), so that round-id order interleaves
    # the tables and the partitions' findings must be merged, not put one after another.
    connection.executescript(
        "PRAGMA foreign_keys = OFF; BEGIN;"
        " UPDATE bets SET round_id = (SELECT settled_at FROM rounds AS r"
        " WHERE r.round_id = bets.round_id) || '/' || round_id;"
        " UPDATE rounds SET round_id = settled_at || '/' || round_id; COMMIT;"
    )
    connection.close()
    return folder / "store.sqlite", config


def runs(db: Path, config, month, runners) -> list[tuple[list, dict]]:
    """The stored findings and the result of verify under each runner, on one store."""
    connection = connect(db, create=False)
    try:
        out = []
        for runner in runners:
            result = verify(connection, config, month, runner=runner)
            out.append((stored_findings(connection), verify_outcome(result)))
        return out
    finally:
        connection.close()


@pytest.mark.parametrize("month", [MONTH, None])
def test_partitions_in_any_order_give_what_one_pass_gives(faulted_store, month):
    db, config = faulted_store
    one, forward, backward = runs(
        db, config, month, [None, in_process(list), in_process(lambda t: t[::-1])]
    )
    assert one[1]["rounds_checked"] > 0 and len(one[0]) >= 2 * 8
    assert forward == one
    assert backward == one


def test_unconfigured_games_are_counted_in_the_same_order(faulted_store):
    db, config = faulted_store
    narrow = dataclasses.replace(
        config, games={key: game for key, game in config.games.items() if "mini" not in key}
    )
    assert len(narrow.games) < len(config.games)
    one, split = runs(db, narrow, MONTH, [None, in_process(lambda t: t[::-1])])
    assert one[1]["unconfigured_rounds"] and split == one


def test_worker_processes_give_what_one_pass_gives(faulted_store):
    db, config = faulted_store
    connection = connect(db, create=False)
    try:
        assert len(plan_partitions(connection, MONTH)) > 2
        first = verify(connection, config, MONTH)
        rows = stored_findings(connection)
        second = verify(connection, config, MONTH, jobs=2)
        assert stored_findings(connection) == rows
        assert verify_outcome(second) == verify_outcome(first)
    finally:
        connection.close()


def test_tables_sharing_a_shoe_id_are_one_partition(tmp_path):
    connection = connect(tmp_path / "store.sqlite")
    game = "live-baccarat-it"
    # Table B logs a round of table A's shoe id; table C has a shoe of its own.
    records = [
        round_record("R-1", bet_record("R-1", "b1"), table_id="A", shoe_id="S1"),
        round_record("R-2", bet_record("R-2", "b2"), table_id="B", shoe_id="S1"),
        round_record("R-3", bet_record("R-3", "b3"), table_id="C", shoe_id="S2"),
    ]
    store_records(connection, records, file_name="shared.jsonl")
    plan = plan_partitions(connection, MONTH)
    assert [p.tables for p in plan] == [((game, "A"), (game, "B")), ((game, "C"),)]
    assert [p.rounds for p in plan] == [2, 1]
    connection.close()


def test_many_small_tables_are_packed_into_few_partitions(faulted_store, monkeypatch):
    db, config = faulted_store
    connection = connect(db, create=False)
    try:
        tables = plan_partitions(connection, MONTH)
        packed = plan_partitions(connection, MONTH, most=2)
        assert len(tables) > 2 and len(packed) == 2
        assert [t for p in packed for t in p.tables] == [t for p in tables for t in p.tables]
        assert sum(p.rounds for p in packed) == sum(p.rounds for p in tables)
    finally:
        connection.close()
    monkeypatch.setattr(reporting.verify.partitions, "MOST_PARTITIONS", 2)
    one, split = runs(db, config, MONTH, [None, in_process(lambda t: t[::-1])])
    assert split == one


# --- stopped or broken runs -------------------------------------------------------------------


@pytest.fixture(scope="module")
def larger_store(faulted_store, tmp_path_factory):
    """The faulted month six times over, copied by SQL (new round, shoe and bet ids): 40,000
    rounds, whose partitions take long enough (about half a second each) for a run to be
    stopped while its workers check them."""
    source, config = faulted_store
    db = tmp_path_factory.mktemp("larger") / "store.sqlite"
    shutil.copyfile(source, db)
    connection = connect(db, create=False)
    columns = [row[1] for row in connection.execute("PRAGMA table_info(rounds)")]
    bet_columns = [row[1] for row in connection.execute("PRAGMA table_info(bets)")]
    renamed = {"round_id": "round_id || ?", "shoe_id": "shoe_id || ?"}
    connection.execute("BEGIN")
    for copy in range(1, 6):
        suffix = (f"#{copy}",) * 2
        connection.execute(
            f"INSERT INTO rounds ({', '.join(columns)}) SELECT"
            f" {', '.join(renamed.get(c, c) for c in columns)} FROM rounds WHERE round_id NOT LIKE '%#%'",
            suffix,
        )
        connection.execute(
            f"INSERT INTO bets ({', '.join(bet_columns)}) SELECT"
            f" {', '.join('round_id || ?' if c == 'round_id' else 'bet_id || ?' if c == 'bet_id' else c for c in bet_columns)}"
            " FROM bets WHERE round_id NOT LIKE '%#%'",
            suffix,
        )
    connection.execute("COMMIT")
    connection.close()
    return db, config


def workers_busy(parent: int, spool: Path, timeout: float = 20.0) -> list[int]:
    """The fork server and the worker processes of ``parent`` (helpers.workers_of) once one of
    the workers has begun a partition (its spool file made in ``spool``, the command's
    temporary folder)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        processes = workers_of(parent)
        started = glob.glob(f"{spool}/baccarat-verify-*/partition-*")
        if processes[1:] and started:
            return processes
        time.sleep(0.02)
    raise AssertionError("no worker began a partition")


@pytest.mark.parametrize("stop", ["SIGTERM of the command", "SIGKILL of a worker"])
def test_a_stopped_run_leaves_no_worker_and_stores_nothing(larger_store, stop, tmp_path):
    db, _config = larger_store
    before = rows(db, "SELECT * FROM findings")
    command = WarmChild(
        [sys.executable, "-m", "reporting", "verify", "--db", str(db), "--config", str(CONFIG)]
        + ["--month", MONTH, "--jobs", "2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=os.environ | {"TMPDIR": str(tmp_path)},
    )
    workers = workers_busy(command.pid, tmp_path)
    if stop.startswith("SIGTERM"):
        command.send_signal(signal.SIGTERM)
    else:
        os.kill(workers[1], signal.SIGKILL)  # [0] is the fork server
    _out, err = command.communicate(timeout=30)
    assert command.returncode == 2, err
    assert "Traceback" not in err
    expected = (
        "stopped by SIGTERM" if stop.startswith("SIGTERM") else "a verify worker process stopped"
    )
    assert expected in err
    deadline = time.monotonic() + 10
    while any(Path(f"/proc/{pid}").exists() for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [pid for pid in workers if Path(f"/proc/{pid}").exists()]
    assert rows(db, "SELECT * FROM findings") == before
    assert not glob.glob(f"{tmp_path}/baccarat-verify-*")


def test_workers_start_under_a_temporary_folder_too_long_for_a_socket(faulted_store, tmp_path):
    """The fork server's socket is made in multiprocessing's folder in TMPDIR: under a path
    of over 75 bytes its address is too long to bind, and every run with workers stopped on
    a traceback. The folder is then made in /tmp: the same result as one process."""
    db, _config = faulted_store
    deep = tmp_path / ("t" * (119 - len(str(tmp_path))))
    deep.mkdir()
    assert len(str(deep)) == 120
    outputs = []
    for jobs in ("1", "2"):
        command = WarmChild(
            [sys.executable, "-m", "reporting", "verify", "--db", str(db), "--config", str(CONFIG)]
            + ["--month", MONTH, "--jobs", jobs, "--json"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=os.environ | {"TMPDIR": str(deep)},
        )
        out, err = command.communicate(timeout=120)
        assert "Traceback" not in err, err
        outputs.append((command.returncode, out))
    assert outputs[0][0] == 1 and outputs[1] == outputs[0]
    assert list(deep.iterdir()) == []


def _nothing() -> None:
    """A worker's initializer that does nothing."""


def test_a_failed_removal_of_the_workers_folder_does_not_hide_the_run_s_error(
    monkeypatch, tmp_path
):
    """Out of file descriptors, the folder of the workers' files could not be removed, and
    that error ("baccarat-workers-...: too many open files") was said in place of the one
    that stopped the run."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    remove = shutil.rmtree

    def cannot_remove(path, *args, onerror=None, onexc=None, **options):
        if "baccarat-workers-" not in str(path):
            handlers = {"onerror": onerror} if onexc is None else {"onexc": onexc}
            return remove(path, *args, **handlers, **options)
        try:  # as shutil.rmtree meets it: while the error is handled
            raise OSError(errno.EMFILE, "Too many open files", str(path))
        except OSError as error:
            if onexc is not None:  # Python 3.12 and later
                return onexc(os.open, path, error)
            return onerror(os.open, path, sys.exc_info())

    pool = reporting.verify.pool.worker_pool(1, (), _nothing, "test-workers")
    with pytest.raises(ValueError, match="the run's own error"), pool:
        monkeypatch.setattr(shutil, "rmtree", cannot_remove)
        raise ValueError("the run's own error")


def test_a_fork_server_gone_while_a_partition_is_sent_is_the_line_of_a_worker_stopped(
    monkeypatch,
):
    """The fork server gone (killed, or its interpreter could not run) when a partition is
    sent: a connection refused or a pipe broken ended the run on a traceback, or with exit 1
    and not a word; it is the line of a worker stopped, as when one dies. The workers
    started, which no task reached, are ended (the interpreter's exit would wait on them)."""
    import multiprocessing

    def broken(*args, **kwargs):
        raise BrokenPipeError(32, "Broken pipe")

    with LocalRunner(2) as runner:
        monkeypatch.setattr(ProcessPoolExecutor, "submit", broken)
        task = types.SimpleNamespace(partition=types.SimpleNamespace(rounds=1))
        with pytest.raises(EnvironmentFault, match="a verify worker process stopped"):
            list(runner([task]))
    assert multiprocessing.active_children() == []


def test_a_stop_between_a_worker_s_start_and_its_entry_in_the_pool_leaves_no_worker(
    monkeypatch,
):
    """A stop (SIGTERM) landing in a task's submit, after the worker it starts was forked but
    before the pool listed it, left that worker waiting for a task: the interpreter's exit
    joined it, and the run hung, holding its lock, after printing that it stopped."""
    import multiprocessing

    spawn = ProcessPoolExecutor._spawn_process

    def stopped_once_started(pool):
        process = pool._mp_context.Process(target=time.sleep, args=(300,))
        process.start()  # forked: the pool's table never gets it
        raise KeyboardInterrupt

    monkeypatch.setattr(reporting.verify.pool, "_start", lambda pool, jobs: None)
    monkeypatch.setattr(ProcessPoolExecutor, "_spawn_process", stopped_once_started)
    try:
        with (
            pytest.raises(KeyboardInterrupt),
            reporting.verify.pool.worker_pool(1, (), _nothing, "test-workers") as pool,
        ):
            pool.submit(os.getpid)
        left = multiprocessing.active_children()
    finally:
        monkeypatch.setattr(ProcessPoolExecutor, "_spawn_process", spawn)
        for child in multiprocessing.active_children():  # never left to hang this worker
            child.kill()
            child.join()
    assert left == []


#: A stop with tasks bigger than a pipe holds waiting for busy workers: the pool's thread that
#: writes them to the workers is then blocked in the middle of one (as a month's pages are).
STOPPED_WITH_BIG_TASKS_WAITING = """\
import sys
import time

from reporting.verify.pool import worker_pool


def asleep(data):
    time.sleep(120)


def started():
    pass


if __name__ == "__main__":
    try:
        with worker_pool(2, (), started, "test-workers") as pool:
            for _ in range(8):
                pool.submit(asleep, b"x" * 700_000)
            time.sleep(1.5)
            raise KeyboardInterrupt
    except KeyboardInterrupt:
        print("stopped", flush=True)
    sys.exit(2)
"""


@pytest.mark.parametrize("python", interpreters())
def test_a_stop_with_big_tasks_waiting_exits_at_once(python, tmp_path):
    """The run stopped by SIGTERM while rendering logged its line and never exited (2 tries in
    5, with Debian's Python 3.11.2): the pool's thread writing a task of the month's pages to
    the workers was blocked on the pipe that only the killed workers read, and the
    interpreter's exit joined it for good. Cron's wrapper waited, and sent no alert."""
    script = tmp_path / "stopped.py"
    script.write_text(STOPPED_WITH_BIG_TASKS_WAITING, encoding="utf-8")
    started = time.monotonic()
    run = run_under(python, script, timeout=60)
    assert (run.returncode, run.stdout) == (2, "stopped\n"), run.stderr
    assert time.monotonic() - started < 20


#: A pool of workers started, then the signals its resource tracker blocks, from /proc.
TRACKER_MASK = """\
from multiprocessing import resource_tracker
from reporting.verify.pool import forked_worker_started, worker_pool

with worker_pool(1, (), forked_worker_started, "probe"):
    pid = resource_tracker._resource_tracker._pid
    status = open(f"/proc/{pid}/status", encoding="ascii").read()
print(next(line.split()[1] for line in status.splitlines() if line.startswith("SigBlk:")))
"""


def test_the_workers_resource_tracker_is_deaf_to_a_hang_up():
    """Found by a review: a hang-up sent to the run's process group (the terminal closed)
    killed multiprocessing's resource tracker, which blocks SIGINT and SIGTERM but not
    SIGHUP; it printed tracebacks (14 runs in 45 of ``monthly --jobs 2``) and left its
    semaphores in /dev/shm. It starts with SIGHUP blocked."""
    run = subprocess.run(
        [sys.executable, "-c", TRACKER_MASK],
        capture_output=True, text=True, timeout=120, cwd=Path(__file__).resolve().parents[2],
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    blocked = int(run.stdout.strip(), 16)
    assert blocked & (1 << (signal.SIGHUP - 1)), f"SigBlk {run.stdout.strip()}"


def test_a_stop_while_a_private_folder_is_removed_finishes_the_removal(monkeypatch, tmp_path):
    """Found by stopping ``verify --jobs 2`` as it ended (2 stops in 150): the stop broke off
    the removal of the workers' spool folder after its files, and the empty folder was left
    in the temporary folder. The removal is finished, then the stop goes on."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    remove = os.rmdir
    stops = [KeyboardInterrupt()]

    def stopped_once(path, *args, **kwargs):
        if stops:
            raise stops.pop()
        return remove(path, *args, **kwargs)

    with pytest.raises(KeyboardInterrupt), reporting.verify.partitions.spool_folder() as folder:
        (Path(folder) / "spool").write_bytes(b"findings")
        monkeypatch.setattr(os, "rmdir", stopped_once)
    assert stops == [] and list(tmp_path.iterdir()) == []


def test_a_stopped_pool_s_own_thread_has_ended_when_the_stop_goes_on(monkeypatch):
    """Found by stopping ``verify --jobs 2`` (1 stop in 200): the pool's own thread, closing
    its dead workers' pipes as the interpreter ended, raced multiprocessing's last wake-up
    of it, and "OSError: [Errno 9] Bad file descriptor" was printed with a traceback. The
    stopped pool's thread (made slow here to close them) has ended before the stop goes on."""
    from concurrent.futures.process import _ExecutorManagerThread

    closing = _ExecutorManagerThread.terminate_broken

    def slowly(self, *args):
        time.sleep(0.5)
        return closing(self, *args)

    monkeypatch.setattr(_ExecutorManagerThread, "terminate_broken", slowly)
    with (
        pytest.raises(KeyboardInterrupt),
        reporting.verify.pool.worker_pool(2, (), _nothing, "test-workers") as pool,
    ):
        for _ in range(4):
            pool.submit(time.sleep, 30)
        raise KeyboardInterrupt
    running = [t for t in threading.enumerate() if isinstance(t, _ExecutorManagerThread)]
    assert running == []
