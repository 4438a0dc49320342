"""Verification on a Dask cluster (reporting.verify.distributed): a LocalCluster of two worker
processes, reading the round logs from a folder as from shared storage, gives what one
process and two local jobs give: the same stored rows in the same order, the same result,
the same audit workbook and report bytes; a log changed or missing since its ingest is one
line naming the partition and the file, and nothing is stored."""

from __future__ import annotations

import contextlib
import dataclasses
import errno
import hashlib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
import tomllib
from datetime import date
from pathlib import Path

import distributed  # the [dask] extra: make's install has it
import pytest
from distributed.diskutils import WorkSpace
from helpers import alerts_of, run_main, stored_findings, verify_outcome

from reporting.cli.common import DEFAULT_WORKER_WAIT
from reporting.cli.verify import verify_document
from reporting.config.loader import load_config
from reporting.errors import InputError
from reporting.figures.statistics import outcome_tests, rtp_checks
from reporting.ingest.discovery import discover_sources
from reporting.ingest.profiles.loader import load_profile
from reporting.sample.generator import generate_month
from reporting.store.load import ingest
from reporting.store.schema import connect
from reporting.verify.distributed import DEFAULT_WORKER_WAIT as distributed_default_wait
from reporting.verify.distributed import (
    ClusterError,
    LogFileError,
    LoggedFile,
    dask_runner,
    log_location,
)
from reporting.verify.distributed.tasks import _profile_of, _ranges
from reporting.verify.partitions import plan_partitions
from reporting.verify.run import verify

REPOSITORY = Path(__file__).resolve().parents[2]
CONFIG = REPOSITORY / "sample_data" / "operator.toml"
MONTH = "2026-10"
AS_OF = date(2026, 11, 5)

#: The requirements of the project's dask extra, as pyproject.toml lists them.
DASK_EXTRA = tomllib.loads(
    (Path(__file__).resolve().parents[2] / "pyproject.toml").read_text(encoding="utf-8")
)["project"]["optional-dependencies"]["dask"]


@pytest.fixture(scope="module")
def cluster():
    """Two worker processes of one thread each: one cluster for the module (it takes about
    two seconds to start)."""
    with distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        dashboard_address=":0",  # a free port, not Dask's 8787 another test process may hold
        worker_dashboard_address=None,
    ) as local:
        yield local


def _interleaved(path: Path) -> None:
    """Round ids prefixed by a hash of their own (the same for a round logged twice), so that
    round-id order interleaves the tables and the partitions' findings must be merged."""

    def prefixed(match: re.Match) -> bytes:
        round_id = match.group(1)
        return b'"round_id":"' + hashlib.sha1(round_id).hexdigest()[:3].encode() + b"/" + round_id

    data = re.sub(rb'"round_id":"([^"]*)', prefixed, path.read_bytes())
    path.write_bytes(data)


@pytest.fixture(scope="module")
def month_store(tmp_path_factory):
    """A month with faults of every kind in three kinds of log, in a folder standing for the
    shared storage: the spec's JSON Lines (two games, three tables each, round ids
    interleaving the tables), a CSV pair (one game, two tables), and a replay-api export read
    through its profile (one game, two tables); ingested under the sample configuration with
    the names relative to the folder. The store's path, the logs folder, the configuration."""
    folder = tmp_path_factory.mktemp("distributed")
    logs = folder / "logs"
    config = load_config(CONFIG)
    month_log = logs / "month.jsonl"
    logs.mkdir()
    common = {"rounds_per_day": 6, "faults": 2}
    generate_month(
        config,
        MONTH,
        month_log,
        tables=3,
        seed=11,
        games=["live-baccarat-it", "live-baccarat-dk"],
        **common,
    )
    _interleaved(month_log)
    generate_month(
        config,
        MONTH,
        logs / "csv",
        fmt="csv",
        tables=2,
        seed=12,
        games=["mini-baccarat-it"],
        **common,
    )
    replay = logs / "replay" / "games.jsonl"
    replay.parent.mkdir()
    generate_month(
        config,
        MONTH,
        replay,
        fmt="replay-api-jsonl",
        tables=2,
        seed=13,
        games=["live-baccarat-gr"],
        **common,
    )
    for manifest in logs.rglob("*faults.json"):
        manifest.unlink()
    db = folder / "store.sqlite"
    connection = connect(db)
    sources = discover_sources([month_log, logs / "csv"])
    sources += discover_sources([replay], load_profile("replay-api"))
    result = ingest(connection, sources, config, base=logs)
    assert result.failed == [] and len(result.files) == 3
    connection.close()
    return db, logs, config


def audit_files(connection, config, result, folder: Path | None) -> dict[str, bytes]:
    """The month's HTML audit report drawn from the store and the result, and (into
    ``folder``, when given: it takes about 3 s) its audit workbook."""
    from reporting import __version__
    from reporting.figures.audit import audit_month
    from reporting.figures.ledger import period_ledger
    from reporting.figures.statistics import outcome_tests, rtp_checks
    from reporting.jobs.audit import month_report
    from reporting.presentation.audit_report import render_audit_html
    from reporting.presentation.audit_xlsx import write_audit_workbook

    audit = audit_month(
        connection,
        config,
        MONTH,
        as_of_by_game={},
        configuration_path=None,
        tool_version=__version__,
    )
    figures = (
        outcome_tests(result.tables, config.games),
        rtp_checks(result.bet_totals, config.games),
    )
    alerts = alerts_of(connection, result)
    report = month_report(
        connection, config, result, audit, as_of=AS_OF, alerts=alerts, figures=figures
    )
    files = {"html": render_audit_html(report).encode()}
    if folder is not None:
        workbook = folder / "audit.xlsx"
        write_audit_workbook(
            workbook,
            period_ledger(connection, result.month),
            config,
            result,
            *figures,
            as_of=AS_OF,
            tool_version=__version__,
            audit=audit,
            shoes=result.shoes,
        )
        files["xlsx"] = workbook.read_bytes()
    return files


def runs(db: Path, config, month, runners, workbooks: Path | None = None):
    """The stored findings, the result and (for a month) the audit files of verify under each
    runner (None: one process; an int: that many local jobs), on one store; the workbook of
    the first and the last run too, into ``workbooks`` when given."""
    connection = connect(db, create=False)
    try:
        out = []
        for index, runner in enumerate(runners):
            if isinstance(runner, int):
                result = verify(connection, config, month, jobs=runner)
            else:
                result = verify(connection, config, month, runner=runner)
            folder = workbooks if index in (0, len(runners) - 1) else None
            files = None if month is None else audit_files(connection, config, result, folder)
            out.append((stored_findings(connection), verify_outcome(result), files))
        return out
    finally:
        connection.close()


def test_the_cluster_gives_what_one_process_and_two_jobs_give(month_store, cluster, tmp_path):
    db, logs, config = month_store
    connection = connect(db, create=False)
    assert len(plan_partitions(connection, MONTH)) == 10  # 3 + 3 + 2 + 2 tables
    connection.close()
    one, two, on_cluster = runs(
        db, config, MONTH, [1, 2, dask_runner(cluster, str(logs))], tmp_path
    )
    findings, result, files = one
    kinds = {kind for kind, count in result["findings_by_kind"] if count}
    assert len(findings) > 40 and len(kinds) >= 8 and result["shoes"]
    assert {row[9] for row in findings} >= {
        "month.jsonl",
        "csv/rounds.csv",
        "csv/bets.csv",
        "replay/games.jsonl",
    }
    assert files["xlsx"][:2] == b"PK" and b"<html" in files["html"]
    assert two[:2] == one[:2] and two[2]["html"] == files["html"]
    assert on_cluster == one


def test_every_month_and_unconfigured_games_on_the_cluster(month_store, cluster):
    db, logs, config = month_store
    narrow = dataclasses.replace(
        config, games={key: game for key, game in config.games.items() if "mini" not in key}
    )
    one, on_cluster = runs(db, narrow, None, [None, dask_runner(cluster, str(logs))])
    assert one[1]["unconfigured_rounds"] == [
        ("mini-baccarat-it", one[1]["unconfigured_rounds"][0][1])
    ]
    assert on_cluster == one


@pytest.fixture
def copied(month_store, tmp_path):
    """A copy of the store and its logs, for a test to break."""
    db, logs, config = month_store
    shutil.copy(db, tmp_path / "store.sqlite")
    shutil.copytree(logs, tmp_path / "logs")
    return tmp_path / "store.sqlite", tmp_path / "logs", config


def _replaced(logs: Path) -> None:
    """The CSV pair's bets file with one byte changed, its size the same."""
    bets = logs / "csv" / "bets.csv"
    data = bytearray(bets.read_bytes())
    data[-2] = ord("9") if data[-2] != ord("9") else ord("8")
    bets.write_bytes(bytes(data))


@pytest.mark.parametrize(
    ("breaking", "said"),
    [
        (
            _replaced,
            "csv/rounds.csv with csv/bets.csv: the file at .* is not the one ingested",
        ),
        (
            lambda logs: (logs / "replay" / "games.jsonl").unlink(),
            "replay/games.jsonl: not found at .*/replay/games.jsonl",
        ),
    ],
    ids=["replaced", "missing"],
)
def test_a_log_replaced_or_missing_is_one_line_and_nothing_is_stored(
    copied, cluster, breaking, said
):
    db, logs, config = copied
    connection = connect(db, create=False)
    before = stored_findings(connection)
    breaking(logs)
    with pytest.raises(ClusterError, match=rf"^partition \d+ \([^)]*\): {said}") as caught:
        verify(connection, config, MONTH, runner=dask_runner(cluster, str(logs)))
    assert "\n" not in str(caught.value) and isinstance(caught.value, InputError)
    assert stored_findings(connection) == before
    connection.close()


def test_a_log_grown_since_the_ingest_is_checked_from_the_store_and_said(copied, cluster):
    """An exporter appending to a log after the ingest: the store still holds what was
    ingested, so the partitions that read that log are checked from it on this machine (as
    without a cluster), each said in a line, and the run is the run of one process. It used
    to stop every later run on the cluster of its month."""
    db, logs, config = copied
    bets = logs / "csv" / "bets.csv"
    bets.write_bytes(bets.read_bytes() + b"\n")
    said = []
    (one,) = runs(db, config, MONTH, [None])
    (on_cluster,) = runs(db, config, MONTH, [dask_runner(cluster, str(logs), note=said.append)])
    assert on_cluster[:2] == one[:2]
    assert said and all(
        re.fullmatch(
            r"partition \d+ \([^)]*\): csv/rounds.csv with csv/bets.csv: the file at \S+ grew"
            r" since its ingest \(1 byte added after the ones ingested\); checked from the store"
            r" here",
            line,
        )
        for line in said
    ), said


def test_logs_at_a_url_no_worker_can_open_is_one_line(month_store, cluster):
    db, _logs, config = month_store
    connection = connect(db, create=False)
    before = stored_findings(connection)
    with pytest.raises(ClusterError, match=r": cannot be read at nosuch://bucket/.* on this Dask"):
        verify(connection, config, MONTH, runner=dask_runner(cluster, "nosuch://bucket"))
    assert stored_findings(connection) == before
    connection.close()


def test_the_command_line_on_the_cluster(copied, cluster):
    db, logs, config = copied
    common = ["verify", "--db", str(db), "--config", str(CONFIG), "--month", MONTH, "--json"]
    connection = connect(db, create=False)
    result = verify(connection, config, MONTH)
    connection.close()
    local = verify_document(
        result,
        outcome_tests(result.tables, config.games),
        rtp_checks(result.bet_totals, config.games),
    )
    # --logs relative to the folder the command runs in: the workers run elsewhere, and were
    # sent it as typed ("not found ... on this Dask worker")
    remote = run_main(
        *common, "--scheduler", cluster.scheduler_address, "--logs", logs.name, cwd=logs.parent
    )
    assert remote.returncode == 1, remote.stderr
    document = json.loads(remote.stdout)
    assert {key: document[key] for key in local} == json.loads(json.dumps(local))


def test_without_the_extra_the_scheduler_option_says_what_to_install(month_store):
    db, logs, _config = month_store
    blocked = (
        "import sys; sys.modules['distributed'] = None; from reporting.cli import main;"
        f" sys.argv = ['baccarat-report', 'verify', '--db', {str(db)!r}, '--month', '{MONTH}',"
        " '--scheduler', 'tcp://127.0.0.1:1']; main()"
    )
    done = subprocess.run(
        [sys.executable, "-c", blocked], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "baccarat-report: --scheduler needs Dask: pip install "
        + " ".join(f"'{requirement}'" for requirement in DASK_EXTRA)
    ]  # not the project's name with its extra: installed from its wheel, not an index


def test_an_unreachable_scheduler_is_one_line(month_store):
    db, _logs, config = month_store
    connection = connect(db, create=False)
    try:
        with pytest.raises(ClusterError, match="cannot reach the Dask scheduler"):
            verify(connection, config, MONTH, runner=dask_runner("tcp://127.0.0.1:9", timeout=0.5))
    finally:
        connection.close()


def test_a_scheduler_without_workers_is_one_line(month_store):
    db, _logs, config = month_store
    connection = connect(db, create=False)
    try:
        with (
            distributed.LocalCluster(n_workers=0, processes=False, dashboard_address=":0") as empty,
            pytest.raises(ClusterError, match="the Dask scheduler has no worker"),
        ):
            verify(connection, config, MONTH, runner=dask_runner(empty, worker_wait=0.5))
    finally:
        connection.close()


def test_a_profile_file_is_found_again_by_its_stored_name_and_held_to_its_hash(tmp_path):
    from reporting.ingest.profiles.loader import DATA_FOLDER, load_profile_file

    path = tmp_path / "provider.toml"
    shutil.copy(DATA_FOLDER / "replay-api.toml", path)
    ingested = load_profile_file(path, origin=str(path))
    assert ingested.label == f"replay-api ({path})"
    found = _profile_of(ingested.label, ingested.sha256, "a.json")
    assert found is not None and found.sha256 == ingested.sha256
    assert (
        _profile_of("replay-api", load_profile("replay-api").sha256, "a.json").origin == "built-in"
    )
    path.write_text(path.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    with pytest.raises(LogFileError, match=r"^a.json: was read with log profile replay-api \("):
        _profile_of(ingested.label, ingested.sha256, "a.json")


def test_lines_travel_as_ranges():
    assert _ranges(iter([1, 2, 3, 7, 9, 10])) == ((1, 3), (7, 7), (9, 10))
    logged = LoggedFile(1, "a.jsonl", None, "jsonl", None, "", 0, ((1, 3), (7, 7), (9, 10)))
    assert [line for line in range(12) if logged.holds_line(line)] == [1, 2, 3, 7, 9, 10]
    assert logged.round_count == 6
    assert log_location("2026/a.jsonl", "s3://bucket/logs/") == "s3://bucket/logs/2026/a.jsonl"
    assert log_location("/srv/a.jsonl", "/mnt") == "/srv/a.jsonl"


def _reader_holds(fifo: Path) -> int | None:
    """A descriptor writing into ``fifo`` once a process holds it open to read, else None."""
    try:
        return os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
    except OSError as error:
        assert error.errno == errno.ENXIO  # no reader yet
        return None


def test_a_run_whose_workers_all_died_stops_after_the_wait_and_stores_nothing(copied, tmp_path):
    """Issue 23, 14: two real worker processes (no nanny to restart them) are killed while
    one of them reads a partition's log, here a FIFO that never gives a byte (so that the
    kill lands mid-partition, every time); the run used to wait for ever for a worker. It
    stops once the scheduler has had none for --worker-wait seconds: one line, exit 2,
    nothing stored."""
    db, logs, _config = copied
    temporary = tmp_path / "tmp"  # the workers'
    temporary.mkdir()
    replay = logs / "replay" / "games.jsonl"
    replay.unlink()
    os.mkfifo(replay)
    connection = connect(db, create=False)
    before = stored_findings(connection)
    connection.close()
    assert distributed_default_wait == DEFAULT_WORKER_WAIT  # the CLI's default is the library's
    with distributed.LocalCluster(
        # ":0": a free port (None is Dask's default, 8787, which another test process may hold)
        n_workers=0,
        processes=True,
        host="127.0.0.1",
        dashboard_address=":0",
    ) as scheduler:
        address = scheduler.scheduler_address
        workers = [
            subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "distributed.cli.dask_worker",
                    address,
                    "--no-nanny",
                    "--nthreads",
                    "1",
                    "--no-dashboard",
                ],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                env=os.environ | {"TMPDIR": str(temporary)},
            )
            for _ in range(2)
        ]
        writer = None
        try:
            with distributed.Client(address, set_as_default=False) as client:
                client.wait_for_workers(2, timeout=60)
            command = [
                sys.executable,
                "-m",
                "reporting",
                "verify",
                "--db",
                str(db),
                "--config",
                str(CONFIG),
                "--month",
                MONTH,
                "--scheduler",
                address,
                "--logs",
                str(logs),
                "--worker-wait",
                "2",
                "--json",
            ]
            run = subprocess.Popen(
                command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
            )
            deadline = time.monotonic() + 60
            while (writer := _reader_holds(replay)) is None:
                assert time.monotonic() < deadline and run.poll() is None, run.communicate()
                time.sleep(0.05)
            for worker in workers:  # a worker is reading its partition: kill them all
                worker.kill()
            killed = time.monotonic()
            try:
                stdout, stderr = run.communicate(timeout=60)
            except subprocess.TimeoutExpired:
                run.kill()
                run.communicate()
                raise AssertionError(
                    "verify still waits a minute after every worker died"
                ) from None
            waited = time.monotonic() - killed
        finally:
            for worker in workers:
                worker.kill()
                worker.wait()
            if writer is not None:
                os.close(writer)
    assert (run.returncode, stdout) == (2, "")
    (line,) = stderr.splitlines()
    assert re.fullmatch(
        rf"baccarat-report: --scheduler {re.escape(address)}: every Dask worker has gone \(none"
        r" for 2 s, \d+ of 10 partitions unchecked\); nothing was stored: start `dask worker"
        r" ADDRESS` and run again",
        line,
    ), line
    # Seconds after the wait, not a minute (the run used to wait for ever): once, in a loaded
    # suite, 30.2 s, a request of Dask's own then waiting out its 30 s comm timeout.
    assert 2 <= waited < 45
    connection = connect(db, create=False)
    assert stored_findings(connection) == before
    connection.close()
    # The killed worker's private store was in its own Dask directory, not loose in the
    # temporary folder, and the next worker started there removes it.
    assert [path.name for path in temporary.iterdir()] == ["dask-scratch-space"]
    left = sorted(temporary.rglob("baccarat-partition-*"))
    assert left and all(path.parent.name.startswith("worker-") for path in left), left
    WorkSpace(str(temporary / "dask-scratch-space")).new_work_dir(prefix="worker-")
    assert list(temporary.rglob("baccarat-partition-*")) == []


def test_a_server_that_is_not_a_dask_scheduler_is_one_line_at_once(month_store):
    """A TCP server that answers in another tongue: the handshake failed in a traceback
    (struct.error, MemoryError), then a 20 s wait at exit for the half-made client."""
    db, _logs, _config = month_store
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    port = server.getsockname()[1]

    def answer() -> None:
        with contextlib.suppress(OSError):
            peer, _ = server.accept()
            peer.sendall(b"HTTP/1.0 200 OK\r\n\r\nnot dask" * 100)
            time.sleep(5)

    threading.Thread(target=answer, daemon=True).start()
    started = time.monotonic()
    try:
        result = run_main(
            "verify", "--db", str(db), "--config", str(CONFIG), "--month", MONTH,
            "--scheduler", f"tcp://127.0.0.1:{port}",
        )  # fmt: skip
    finally:
        server.close()
    assert time.monotonic() - started < 15
    assert (result.returncode, result.stdout) == (2, "")
    (line,) = result.stderr.splitlines()
    assert line.startswith(
        f"baccarat-report: --scheduler tcp://127.0.0.1:{port}: what answers there is not a Dask"
        " scheduler ("
    ), line
