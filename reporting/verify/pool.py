"""A pool of worker processes for a run, forked from multiprocessing's fork server: the
workers of ``verify --jobs N`` (:class:`reporting.verify.partitions.LocalRunner`) and of the
monthly job's rendering (:mod:`reporting.jobs.rendering`).

A pool leaves no process behind, however the run ends: stopped (SIGTERM, Ctrl-C, a
hang-up), failed, or killed (each worker dies with its coordinator). The stops sent to the
run's whole process group are the run's to handle: the pool's helpers and workers leave them
to it. Its temporary files are in a private folder of the run's, removed after the workers.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import shutil
import signal
import tempfile
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import active_children, forkserver, get_context, queues, resource_tracker
from multiprocessing.process import BaseProcess

from reporting.errors import EnvironmentFault

__all__ = ["forked_worker_started", "private_folder", "worker_pool", "worker_started"]


_PR_SET_PDEATHSIG = 1


#: The stops sent to a whole process group (a terminal's Ctrl-C, its hang-up), which a
#: pool's processes leave to the run.
_GROUP_STOPS = frozenset({signal.SIGINT, signal.SIGHUP})


def worker_started(parent: int) -> None:
    """In each worker (of verify, and of the monthly job's rendering): Ctrl-C and a hang-up
    are the coordinator's to handle (it stops the workers), and the worker dies with the coordinator
    (Linux), so that a stopped run leaves none behind. Both are ignored, no longer blocked
    as in the fork server the worker was forked from (:func:`_helpers_deaf_to_stops`)."""
    for number in _GROUP_STOPS:
        signal.signal(number, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _GROUP_STOPS)
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # the coordinator died before the line above took effect
        os._exit(1)


def forked_worker_started() -> None:
    """In a worker forked by the fork server: tied to the fork server (:func:`worker_started`),
    and the fork server to the run alone.

    The fork server ends once no process holds its "alive" pipe, which multiprocessing hands
    to every worker too: with the workers' copies closed, it ends when the run does (killed
    included), and the workers, tied to it, with it.
    """
    worker_started(os.getppid())
    alive = getattr(forkserver._forkserver, "_forkserver_alive_fd", None)
    if alive is not None:
        with contextlib.suppress(OSError):
            os.close(alive)
        forkserver._forkserver._forkserver_alive_fd = None


class _WorkerPool(ProcessPoolExecutor):
    """A pool whose workers start through the fork server: with the fork server gone (killed,
    or its interpreter could not run), a task that must start a worker meets a connection
    refused or a pipe broken; the pool is then as broken as when a worker dies."""

    #: The thread that starts the workers (:func:`_start`), while it runs.
    starting: threading.Thread | None = None

    def submit(self, fn, /, *args, **kwargs):
        if self.starting is not None and self.starting is not threading.current_thread():
            self.starting.join()  # the workers are started there, never in the run's thread
        try:
            return super().submit(fn, *args, **kwargs)
        except (ConnectionError, EOFError) as error:
            raise BrokenProcessPool(f"the fork server stopped ({error!r})") from error


@contextlib.contextmanager
def worker_pool(
    jobs: int, preload: Sequence[str], initializer: Callable[[], None], name: str
) -> Iterator[ProcessPoolExecutor]:
    """A pool of ``jobs`` workers (of verify, or of the monthly job's rendering), forked from
    multiprocessing's fork server: a fresh interpreter that holds none of the run's
    connections or lock files, runs no thread, and imports ``preload`` once (there is one fork
    server a process: the modules of the first pool that starts it are the ones it imports).

    The workers are started at once, all of them from a thread named ``name``, so that they
    are forked while the caller goes on: a start waits for the fork server's imports, and a
    stop (SIGTERM, Ctrl-C) in the middle of one would leave a worker the pool does not know
    yet, forked after the run is gone. The caller's first task waits for that thread. Leaving
    the block when every task is done tells the idle workers to end and waits for them;
    leaving it with an error or on a stop waits for the starts, then kills the workers and
    reaps them: none may go on.

    The workers' temporary files (a render worker's fonts) are made in a folder of the run's,
    removed once the workers are gone: a killed worker cannot remove its own."""
    _fork_server_folder()
    _working_folder_that_exists()
    context = get_context("forkserver")
    context.set_forkserver_preload(list(preload))
    _helpers_deaf_to_stops()
    before = set(active_children())
    with private_folder("baccarat-workers-") as folder:
        pool = _WorkerPool(
            jobs, mp_context=context, initializer=_in_folder, initargs=(folder, initializer)
        )
        starting = pool.starting = threading.Thread(target=_start, args=(pool, jobs), name=name)
        try:
            starting.start()
            yield pool
            starting.join()
            processes = list((pool._processes or {}).values())
            pool.shutdown(wait=True)
            # A worker its pool could not tell to end (no task reached the pool's own thread,
            # which does so: each submit failed) waits for one, and the interpreter's exit
            # waits on it for good.
            _killed([process for process in processes if process.is_alive()])
        except BaseException:
            if starting.ident is not None:  # started (a thread's start is never broken off)
                starting.join()
            # Python 3.14 has pool.kill_workers(); until then the pool's table of its processes,
            # and any child started since the pool was made that the table missed: a stop
            # between a worker's start and its entry in the table (a task the run submits)
            # left it waiting for a task, and the interpreter's exit waiting on it for good.
            processes = list((pool._processes or {}).values())
            call_queue = pool._call_queue  # the pool lets go of it at its shutdown
            manager = pool._executor_manager_thread  # and of its own thread
            pool.shutdown(wait=False, cancel_futures=True)
            _killed({*processes, *(set(active_children()) - before)})
            _unblock_feeder(call_queue)
            # The pool's thread, seeing its workers dead, closes their pipes: still at it as
            # the interpreter ended, it raced multiprocessing's last wake-up of it, which
            # wrote into a pipe just closed ("OSError: [Errno 9] Bad file descriptor" with a
            # traceback, 1 stop in 200 of verify --jobs 2).
            if manager is not None:
                manager.join(timeout=_MANAGER_SECONDS)
            raise


#: The longest a stopped run waits for its pool's own thread to end (it ends at once, its
#: workers killed: a bound, not a pause).
_MANAGER_SECONDS = 10


def _killed(processes: Iterable[BaseProcess]) -> None:
    """Kill ``processes`` and wait for each to end."""
    processes = list(processes)
    for process in processes:
        process.kill()
    for process in processes:
        process.join()


def _helpers_deaf_to_stops() -> None:
    """Start multiprocessing's helpers, its resource tracker (the process that removes the
    pool's semaphores) and its fork server, with SIGINT and SIGHUP blocked, a mask each
    inherits: Ctrl-C and a hang-up, sent to the run's whole process group, are the run's to
    handle.

    - The tracker blocks SIGINT and SIGTERM itself, not SIGHUP: a hang-up killed it, and it
      printed tracebacks and left its semaphores in /dev/shm.
    - The fork server is a fresh interpreter that imports its preload for about a second (the
      checks, or WeasyPrint for the rendering) before multiprocessing makes it ignore Ctrl-C:
      a Ctrl-C meanwhile printed its ``KeyboardInterrupt`` traceback under the run's line (14
      stops in 60 of ``verify --jobs 2`` in its first second), and a hang-up killed it. With
      both blocked, neither reaches it. The workers it forks ignore both instead
      (:func:`worker_started`).

    The block is the calling thread's, for the starts alone: a stop meanwhile waits, and then
    stops the run. A fork server that cannot start is the pool's first task's to meet (the
    pool is then broken), as when it is started there."""
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, _GROUP_STOPS)
    try:
        resource_tracker.ensure_running()
        # The tracker's start unblocks SIGINT and SIGTERM, whatever blocked them before.
        signal.pthread_sigmask(signal.SIG_BLOCK, _GROUP_STOPS)
        with contextlib.suppress(Exception):
            forkserver.ensure_running()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)


def _unblock_feeder(call_queue: queues.Queue | None) -> None:
    """Let the pool's thread that writes tasks to the workers end, its workers killed. It may
    be blocked writing a task bigger than the pipe holds (a month's pages) into the pipe no
    worker reads any more: while this process holds the pipe's reading end too, the write
    waits for good, and so does the interpreter's exit, which joins that thread. The run
    stopped by SIGTERM logged its line and never exited: cron's wrapper waited, and sent no
    alert (Python 3.11.2, Debian 12's; CPython gh-94777, mended in 3.11.5 the same way:
    closing the reading end makes the write fail, and the thread end).

    The reading end is not closed but put out of use: /dev/null takes its descriptor's number
    (one system call, ``dup2``). The pool's own thread closes that end too once it sees its
    workers dead (Python 3.11.5 on); the two closes raced, and the second printed "OSError:
    [Errno 9] Bad file descriptor" with a traceback under the run's line (2 stops in 60 of
    ``verify --jobs 2``), or closed whatever file had just been given the number. The number
    is now the pool's to close, whenever it does."""
    handle = getattr(getattr(call_queue, "_reader", None), "_handle", None)
    if handle is None:
        return
    with contextlib.suppress(OSError):
        null = os.open(os.devnull, os.O_RDONLY)
        try:
            os.dup2(null, handle, inheritable=False)
        finally:
            os.close(null)


def _working_folder_that_exists() -> None:
    """Run from / if the working folder has been removed: the fork server starts from it
    (multiprocessing asks for it), where one process does without it. Every path the run
    still uses was made absolute or opened already: a relative one could not be opened in a
    removed folder."""
    try:
        os.getcwd()
    except FileNotFoundError:
        os.chdir("/")


def _in_folder(folder: str, initializer: Callable[[], None]) -> None:
    """In each worker: its temporary files in ``folder``, then its own ``initializer``."""
    tempfile.tempdir = folder
    initializer()


#: The longest path a Unix socket's address holds (``sun_path``, less its final NUL), and what
#: multiprocessing adds to its temporary folder's parent for the fork server's socket
#: (``/pymp-XXXXXXXX/listener-XXXXXXXX``).
_SOCKET_PATH_MAX = 107
_SOCKET_SUFFIX = 32


def _fork_server_folder() -> None:
    """Where the fork server's socket can be bound. It is made in multiprocessing's temporary
    folder, ``pymp-*`` in the system's (``TMPDIR``), whose path may leave too little of a
    socket address's 107 bytes. Then, as Python 3.14 does, the folder is made in /tmp or
    /var/tmp instead (removed at exit, as multiprocessing's own); where neither will do,
    the run stops with a line saying what to change."""
    from multiprocessing import process, util

    config = process.current_process()._config
    current = config.get("tempdir")
    base = os.path.dirname(current) if current else tempfile.gettempdir()
    if len(os.fsencode(base)) + _SOCKET_SUFFIX <= _SOCKET_PATH_MAX:
        return
    for short in ("/tmp", "/var/tmp"):
        if os.path.isdir(short) and os.access(short, os.W_OK | os.X_OK):
            folder = tempfile.mkdtemp(prefix="pymp-", dir=short)
            util.Finalize(
                None, util._remove_temp_dir, args=(shutil.rmtree, folder), exitpriority=-100
            )
            config["tempdir"] = folder
            return
    raise EnvironmentFault(
        f"the temporary folder {base} has too long a path for the worker processes' socket"
        f" (at most {_SOCKET_PATH_MAX - _SOCKET_SUFFIX} bytes) and neither /tmp nor /var/tmp"
        " is writable: set TMPDIR to a shorter folder, or run with --jobs 1"
    )


def _start(pool: ProcessPoolExecutor, jobs: int) -> None:
    """Start the pool's ``jobs`` workers, all of them in this thread, which no stop breaks off
    (a signal's handler runs in the main thread). A start broken off in the run's own thread
    (a stop while a task's submit waited for the fork server to fork its worker) left a worker
    the pool did not know: it found the workers' folder gone, printed a traceback, and lived
    until the run ended. The run's submits wait for this thread (:class:`_WorkerPool`), and
    then find every worker started. A failure to start one is the run's own first task's to
    meet (the pool is then broken), not this thread's to print.

    A task each then starts the pool's own thread, which ends the workers at its shutdown: a
    pool given no task (a month whose pages were all printed before) left its workers
    waiting for one, and the interpreter's exit waiting on them for good."""
    with contextlib.suppress(Exception):
        with pool._shutdown_lock:
            while len(pool._processes) < jobs:
                pool._spawn_process()
        for _ in range(jobs):
            pool.submit(os.getpid)


@contextlib.contextmanager
def private_folder(prefix: str) -> Iterator[str]:
    """A private temporary folder (in ``TMPDIR``, its name ``prefix`` and random letters),
    removed when the block ends, however it ends.

    A stop that comes during the removal (a Ctrl-C as the run ends) does not break it off: it
    is finished, and then the stop goes on (an empty folder of a stopped ``verify --jobs 2``
    was left, 2 stops in 150). A failed removal is not the run's error (out of file
    descriptors, say, it would hide the one that stopped the run): the folder is left."""
    directory = tempfile.TemporaryDirectory(prefix=prefix, ignore_cleanup_errors=True)
    try:
        yield directory.name
    finally:
        try:
            directory.cleanup()
        except BaseException:
            shutil.rmtree(directory.name, ignore_errors=True)
            raise
