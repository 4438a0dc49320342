"""The warm child (tests/children.py) stands for a fresh ``python -m reporting`` process: the
same exit code and output, a process of its own that holds none of this process's files,
and a fresh interpreter whenever this process has a database open."""

from __future__ import annotations

import contextlib
import fcntl
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from children import WarmChild, printed_pages, run_warm

from reporting.jobs.monthly import lock_path

COMMAND_LINES = [
    ["--version"],
    ["odds", "--game", "live-baccarat-it", "--json"],
    ["odds", "--game", "no-such-game"],
    ["verify", "--db", "/nonexistent/folder/store.sqlite"],
    ["monthly", "--no-such-option"],
    ["rules", "--as-of", "2026-02-30", "--out", "pages"],
]


def as_a_fresh_interpreter(arguments: list[str], cwd: Path) -> subprocess.CompletedProcess:
    """``python -m reporting ARGUMENTS`` in a fresh interpreter and in a warm child, which
    must exit and print alike; the fresh interpreter's run."""
    fresh = subprocess.run(
        [sys.executable, "-m", "reporting", *arguments],
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=cwd,
        timeout=120,
    )
    warm = run_warm(*arguments, cwd=cwd)
    assert (warm.returncode, warm.stdout, warm.stderr) == (
        fresh.returncode,
        fresh.stdout,
        fresh.stderr,
    )
    return fresh


@pytest.mark.parametrize("arguments", COMMAND_LINES, ids=" ".join)
def test_a_warm_child_exits_and_prints_as_a_fresh_interpreter(arguments, tmp_path):
    as_a_fresh_interpreter(arguments, tmp_path)


def test_a_warm_child_discloses_a_month_as_a_fresh_interpreter(tmp_path):
    """The child takes the sample games' shoe counts from this process's caches
    (children.warm_up); a fresh interpreter counts them anew: the same disclosure, its
    statistical bound (how the month's stakes vary together) included."""
    from helpers import bet_record, round_record, store_file

    rounds = [
        round_record(
            f"R-{n}",
            bet_record(f"R-{n}", f"B-{n}-1", stake_cents=2500 * n),
            bet_record(f"R-{n}", f"B-{n}-2", bet_type="player", payout_cents=5000),
            bet_record(f"R-{n}", f"B-{n}-3", bet_type="player_pair", stake_cents=500),
        )
        for n in range(1, 4)
    ]
    store_file(tmp_path / "store.sqlite", rounds)
    config = Path(__file__).resolve().parent.parent / "sample_data" / "operator.toml"
    arguments = ["disclose", "--game", "live-baccarat-it", "--as-of", "2026-11-05", "--json"]
    arguments += ["--db", "store.sqlite", "--config", str(config)]
    fresh = as_a_fresh_interpreter(arguments, tmp_path)
    assert '"within_statistical_bound": true' in fresh.stdout, fresh.stderr


@contextlib.contextmanager
def waiting_monthly(tmp_path: Path):
    """A monthly run waiting for the lock of its output folder, which this process holds
    (taken the way another run takes it); the running child."""
    (tmp_path / "inbox").mkdir()
    (tmp_path / "operator.toml").write_text("[games.live-baccarat-gr]\nlanguages = []\n")
    (tmp_path / "out").mkdir()
    lock = lock_path(tmp_path / "out").open("a+")
    fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    argv = [sys.executable, "-m", "reporting", "monthly", "--inbox", "inbox", "--out", "out"]
    argv += ["--db", "store.sqlite", "--config", "operator.toml", "--wait", "60"]
    child = WarmChild(argv, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        time.sleep(1.0)
        assert child.poll() is None, child.stderr.read()  # waiting
        yield child, lock
    finally:
        lock.close()
        child.kill()
        child.communicate(timeout=60)


def test_a_warm_child_holds_none_of_this_process_s_files(tmp_path):
    """A lock this process holds is not held by the child too (Popen's close_fds): the
    child waits for it, then goes on as soon as this process lets it go (a child holding
    this process's copy would wait for itself until its --wait ran out)."""
    with waiting_monthly(tmp_path) as (child, lock):
        assert child.pid != os.getpid()
        lock.close()
        started = time.monotonic()
        child.wait(timeout=60)
        assert child.returncode in (0, 1), child.stderr.read()
        assert time.monotonic() - started < 30


def test_with_a_database_open_here_the_child_is_a_fresh_interpreter(tmp_path):
    """SQLite's lock bookkeeping is per process: no fork while this process has one open."""
    connection = sqlite3.connect(tmp_path / "open.sqlite")
    connection.execute("CREATE TABLE t (x)")
    try:
        with waiting_monthly(tmp_path) as (child, _lock):
            command_line = Path(f"/proc/{child.pid}/cmdline").read_bytes()
    finally:
        connection.close()
    assert b"\0-m\0reporting\0monthly\0" in command_line


def test_a_warm_child_prints_the_same_pdf_bytes_as_a_fresh_interpreter(tmp_path):
    """The child renders with this process's fonts already loaded: the page's bytes are the
    ones a fresh ``python -m reporting`` writes."""
    arguments = ["rules", "--game", "live-baccarat-dk", "--lang", "da", "--format", "pdf"]
    arguments += ["--as-of", "2026-11-05", "--out"]
    fresh = subprocess.run(
        [sys.executable, "-m", "reporting", *arguments, "fresh"],
        cwd=tmp_path,
        capture_output=True,
        timeout=120,
    )
    warm = run_warm(*arguments, "warm", cwd=tmp_path)
    assert (fresh.returncode, warm.returncode) == (0, 0), warm.stderr
    page = "live-baccarat-dk.da.pdf"
    assert (tmp_path / "warm" / page).read_bytes() == (tmp_path / "fresh" / page).read_bytes()


def test_a_child_that_prints_once_writes_a_fresh_interpreters_bytes_and_keeps_each_page(tmp_path):
    """``print_once``: the first child prints the page and keeps it; the second takes it from
    there instead of printing it (a page kept with other bytes shows in what it writes); both
    write the bytes of a fresh interpreter, and a child without it prints anew."""
    arguments = ["rules", "--game", "live-baccarat-gr", "--lang", "el", "--format", "pdf"]
    arguments += ["--as-of", "2026-11-05", "--out"]
    argv = [sys.executable, "-m", "reporting", *arguments]
    fresh = subprocess.run([*argv, "fresh"], cwd=tmp_path, capture_output=True, timeout=120)
    assert fresh.returncode == 0, fresh.stderr
    page = "live-baccarat-gr.el.pdf"
    expected = (tmp_path / "fresh" / page).read_bytes()

    def printed(out: str, **options) -> bytes:
        child = WarmChild([*argv, out], cwd=tmp_path, stderr=subprocess.PIPE, **options)
        assert child.wait(timeout=120) == 0, child.stderr.read()
        child.stderr.close()
        return (tmp_path / out / page).read_bytes()

    assert printed("first", print_once=True) == expected
    kept = [path for path in printed_pages().iterdir() if path.read_bytes() == expected]
    assert len(kept) == 1, "the page is kept once, whole, by its input"
    kept[0].write_bytes(b"%PDF- kept")  # what the next child would take, marked
    try:
        assert printed("second", print_once=True) == b"%PDF- kept"
        assert printed("third") == expected  # no print_once: printed anew
    finally:
        kept[0].unlink()  # no other test of this process takes the marked page
