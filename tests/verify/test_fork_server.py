"""multiprocessing's fork server, which forks the workers of verify and of the monthly job's
rendering, leaves Ctrl-C and a hang-up to the run from its first instant."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _with_a_slow_preload(script: str, folder: Path) -> subprocess.CompletedProcess:
    """``script`` run by a fresh interpreter, given ``folder``, which holds a module that
    takes a second to import (``slow_to_import``, the pool's preload)."""
    (folder / "slow_to_import.py").write_text("import time\ntime.sleep(1)\n", encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-c", script, str(folder)],
        capture_output=True, text=True, timeout=120, cwd=ROOT,
    )  # fmt: skip


#: A pool whose fork server receives Ctrl-C and a hang-up as its interpreter starts (made
#: slow: ``sitecustomize`` sleeps), then again as it imports its preload (a module that
#: sleeps), then forks a worker for a task: the same fork server, and a worker that blocks no
#: signal.
STOPS_AS_IT_STARTS = """\
import os, signal, sys, time
from multiprocessing import forkserver
from reporting.verify.pool import forked_worker_started, worker_pool

os.environ["PYTHONPATH"] = sys.argv[1]
with worker_pool(1, ("slow_to_import",), forked_worker_started, "probe") as pool:
    server = forkserver._forkserver._forkserver_pid
    for moment in (0.5, 1):
        time.sleep(moment)
        os.kill(server, signal.SIGINT)
        os.kill(server, signal.SIGHUP)
    worker = pool.submit(os.getpid).result(timeout=60)
    blocked = pool.submit(signal.pthread_sigmask, signal.SIG_BLOCK, ()).result(timeout=60)
print(forkserver._forkserver._forkserver_pid == server, worker != server, sorted(blocked))
"""


def test_a_stop_as_the_fork_server_starts_or_imports_is_left_to_the_run(tmp_path):
    """Found by stopping ``verify --jobs 2`` in its first second: the fork server, still
    starting its interpreter or importing its preload, printed its own KeyboardInterrupt
    traceback under the run's line (14 runs in 60), and a hang-up killed it (the pool then
    started another, unseen). It starts with both blocked: it forks the run's worker, and
    nothing is printed. Its workers block nothing (the block is the start's alone)."""
    (tmp_path / "sitecustomize.py").write_text("import time\ntime.sleep(1)\n", encoding="utf-8")
    run = _with_a_slow_preload(STOPS_AS_IT_STARTS, tmp_path)
    assert (run.returncode, run.stdout, run.stderr) == (0, "True True []\n", "")


#: A pool of four workers, whose fork server imports slowly, given tasks at once by the run's
#: thread: the threads that started its workers.
TASKS_AT_ONCE = """\
import os, sys, threading, time
from concurrent.futures import ProcessPoolExecutor
from reporting.verify.pool import forked_worker_started, worker_pool

os.environ["PYTHONPATH"] = sys.argv[1]
spawn = ProcessPoolExecutor._spawn_process
starters = []

def recorded(pool):
    starters.append(threading.current_thread().name)
    spawn(pool)
    time.sleep(0.3)  # time for a worker started to be idle

ProcessPoolExecutor._spawn_process = recorded
with worker_pool(4, ("slow_to_import",), forked_worker_started, "starter") as pool:
    pids = {future.result(timeout=60) for future in [pool.submit(os.getpid) for _ in range(8)]}
print(sorted(starters), len(pids) <= 4)
"""


def test_the_workers_are_started_by_their_own_thread_never_by_the_run_s(tmp_path):
    """Found by stopping ``monthly --jobs 2`` in its first seconds: a task submitted while the
    fork server still imported started a worker in the run's own thread, where a stop broke
    the start off after the fork; the worker, unknown to the pool, found the workers' folder
    gone, printed a traceback, and lived until the run ended. Every worker is started by the
    pool's starting thread, which no stop breaks off, and a task waits for it."""
    run = _with_a_slow_preload(TASKS_AT_ONCE, tmp_path)
    assert (run.returncode, run.stdout) == (0, f"{['starter'] * 4} True\n"), run.stderr


#: A pool of two workers given no task, whose fork server imports slowly.
NO_TASK = """\
import os, sys
from reporting.verify.pool import forked_worker_started, worker_pool

os.environ["PYTHONPATH"] = sys.argv[1]
with worker_pool(2, ("slow_to_import",), forked_worker_started, "starter"):
    pass
print("ended")
"""


def test_a_pool_given_no_task_ends_its_workers_and_the_run_ends(tmp_path):
    """A month whose pages were all printed before gives the render workers no task: its
    workers, started, must still be told to end, or the interpreter's exit waits on them for
    good (a run hung so, found by the suite when the workers were first all started at
    once)."""
    run = _with_a_slow_preload(NO_TASK, tmp_path)
    assert (run.returncode, run.stdout, run.stderr) == (0, "ended\n", "")
