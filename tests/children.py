"""``python -m reporting ...`` as a real child process, forked from the warm test process.

A test that runs the command the way cron does wants a child process of its own: its own pid,
exit code, file descriptors, signals, session and locks. Starting a fresh interpreter for it
costs more than most such tests: the imports, then WeasyPrint's first page (its fonts, its
style sheets), about two seconds of CPU for a monthly run that renders an audit report of
five pages. :class:`WarmChild` is a :class:`subprocess.Popen` whose child is forked from the
test process, which has imported the package and printed one page already, and runs
``reporting.cli.main`` there, with the arguments, folder, environment, standard streams and
session the caller asked for, and exits with its code. Everything a test reads of the child
is the Popen it knows: ``pid``, ``poll``, ``wait``, ``communicate``, ``returncode``, pipes, and
``start_new_session`` for a group to kill.

What a forked child cannot stand for (a fresh interpreter's memory or import time, the
installed script) is tested with :func:`subprocess.run` as before; ``tests/test_children.py``
holds this class to a fresh interpreter's behaviour.

``WarmChild(..., print_once=True)``: the child prints only the pages new to this test process.
A page whose whole input (its HTML, as-of date and author) a child printed before is taken
from the folder where that child kept it (:func:`printed_pages`). The PDF printer is
reproducible, the same input giving the same bytes (tests/presentation/test_render.py and
tests/test_children.py hold it to that), so no byte a child writes changes; the tests of the
monthly job, whose runs print the same audit report of a small month again and again, are
spared about two thirds of a second a page. A test of what the job prints, or of printing
the same bytes again, runs its children without it.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import gc
import hashlib
import importlib.util
import io
import logging
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import traceback
import types
from collections.abc import Sequence
from pathlib import Path

__all__ = [
    "WarmChild",
    "open_databases",
    "page_key",
    "printed_pages",
    "run_warm",
    "warm_run",
    "warm_up",
]

_PACKAGE_MAIN = Path(__file__).resolve().parent.parent / "reporting" / "__main__.py"
_warm = False


def warm_up() -> None:
    """Import the command, print one small page and count the sample games' shoes here,
    once, so that every child forked after it starts warm."""
    global _warm
    if _warm:
        return
    import datetime

    import reporting.cli  # noqa: F401  (the commands and their imports)
    from reporting.presentation.pdf import html_to_pdf

    html_to_pdf(
        '<!doctype html><html lang="en"><head><title>Warm</title></head>'
        "<body><h1>Warm</h1><table><tr><td>1 €</td></tr></table></body></html>",
        datetime.date(2026, 10, 1),
    )
    _count_the_sample_shoes()
    _warm = True


def _count_the_sample_shoes() -> None:
    """The exact counts a disclosure of each sample game reads (its bets' odds, and how their
    returns vary together), made here and kept in the engine's caches: a child disclosing a
    game of the same bets, decks and pay table takes them from there instead of counting the
    shoe again (about a second of CPU for the Italian live game). The counting itself is the
    engine's tests' subject (tests/engine, tests/oracle); tests/test_children.py holds a warm
    child's disclosure to a fresh interpreter's, which counts from nothing."""
    from reporting.config.loader import load_config
    from reporting.engine.odds import return_covariances
    from reporting.engine.theory import game_odds

    sample = Path(__file__).resolve().parent.parent / "sample_data" / "operator.toml"
    for game in load_config(sample).games.values():
        game_odds(game)
        return_covariances(game.bets, game.decks, game.pay_table)


def _command(args: Sequence[str]) -> list[str]:
    """The command's own arguments of ``[python, "-m", "reporting", ...]``."""
    args = [os.fspath(arg) for arg in args]
    if args[:3] != [sys.executable, "-m", "reporting"]:
        raise ValueError(f"not a python -m reporting command line: {args[:3]}")
    return args[3:]


class WarmChild(subprocess.Popen):
    """``subprocess.Popen([sys.executable, "-m", "reporting", ...], ...)`` whose child is
    forked from this process instead of a fresh interpreter (see the module's text); with
    ``print_once``, it prints each page new to this process only (the module's text)."""

    def __init__(self, args, *, print_once: bool = False, **options):
        self._printed = printed_pages() if print_once else None
        super().__init__(args, **options)

    def _execute_child(self, *popen_arguments):  # Popen's own, positional (3.11 to 3.13)
        (args, executable, preexec_fn, _close_fds, _pass_fds, cwd, env, _startupinfo,
         _creationflags, shell, p2cread, p2cwrite, c2pread, c2pwrite, errread, errwrite,
         _restore_signals, _gid, _gids, _uid, _umask, start_new_session) = popen_arguments[:22]  # fmt: skip
        if shell or preexec_fn is not None or executable not in (None, sys.executable):
            raise ValueError("WarmChild runs python -m reporting only, without a shell")
        arguments = _command(args)
        if open_databases():
            gc.collect()  # a connection only a reference cycle, not yet collected, still holds
        if open_databases():
            # SQLite keeps its locks' bookkeeping per process: a child forked while this
            # process has a database open would believe it holds this process's locks.
            super()._execute_child(*popen_arguments)
            return
        warm_up()
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
        pid = os.fork()
        if pid == 0:  # the child: never returns
            for fd in {p2cwrite, c2pread, errread} - {-1}:  # the parent's ends of the pipes
                os.close(fd)
            streams = (p2cread, c2pwrite, errwrite)
            _run_child(arguments, cwd, env, streams, start_new_session, self._printed)
        self.pid = pid
        self._child_created = True
        self._close_pipe_fds(p2cread, p2cwrite, c2pread, c2pwrite, errread, errwrite)


def _let_go_of_inherited_files() -> None:
    """As Popen's ``close_fds``: the child keeps no file of this process open beyond 0, 1 and
    2, so that a lock this process holds is not held by the child too. Each inherited number
    is pointed at /dev/null rather than closed: objects of this process still hold those
    numbers (a log handler, a file), and one of them closing "its" number later must not
    close a file the command has opened since."""
    gc.freeze()  # no finalizer of this process's objects runs in the child
    null = os.open(os.devnull, os.O_RDWR)
    for name in os.listdir("/proc/self/fd"):
        number = int(name)
        if number > 2 and number != null:
            with contextlib.suppress(OSError):  # the listing's own descriptor, gone
                os.dup2(null, number)
    os.close(null)


def _forget_this_process() -> None:
    """What a fresh interpreter would work out anew from its environment: the temporary
    folder (``TMPDIR``), and multiprocessing's children, temporary folder, resource tracker
    and fork server (this process's, which the child could not wait for)."""
    tempfile.tempdir = None
    processes = sys.modules.get("multiprocessing.process")
    if processes is not None:  # as multiprocessing's own forked child starts: no children yet,
        processes._children = set()  # and a temporary folder of its own when it needs one
        processes.current_process()._config.pop("tempdir", None)
    tracking = sys.modules.get("multiprocessing.resource_tracker")
    if tracking is not None:
        tracker = tracking.ResourceTracker()
        tracking._resource_tracker = tracker
        for name in ("ensure_running", "register", "unregister", "getfd"):
            setattr(tracking, name, getattr(tracker, name))
    serving = sys.modules.get("multiprocessing.forkserver")
    if serving is not None:
        server = serving.ForkServer()
        serving._forkserver = server
        for name in (
            "ensure_running", "get_inherited_fds", "connect_to_new_process", "set_forkserver_preload"
        ):  # fmt: skip
            setattr(serving, name, getattr(server, name))


def open_databases() -> list[str]:
    """The SQLite files (databases and their journals) this process has open."""
    found = []
    for entry in os.scandir("/proc/self/fd"):
        try:
            target = os.readlink(entry.path)
        except OSError:
            continue
        if target.endswith(("-wal", "-shm", "-journal")):
            found.append(target)
        elif target.startswith("/") and os.path.isfile(target):
            try:
                with open(target, "rb") as handle:
                    if handle.read(16) == b"SQLite format 3\x00":
                        found.append(target)
            except OSError:
                continue
    return found


@functools.cache
def printed_pages() -> Path:
    """This process's folder of printed pages (see the module's text), removed at its exit."""
    folder = Path(tempfile.mkdtemp(prefix="printed-pages-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return folder


def page_key(html: str, as_of, author: str | None) -> str:
    """A printed page's whole input (its HTML, as-of date and author) as one key: the printer
    gives the same bytes for the same key."""
    return hashlib.sha256(repr((html, as_of.isoformat(), author)).encode("utf-8")).hexdigest()


#: The pages printed by runs in the test process itself, by their whole input.
_PRINTED_HERE: dict[str, bytes] = {}


def print_once_in_this_process(monkeypatch) -> None:
    """For the rest of a test: a page whose whole input a run in this process printed before
    is taken from that print (the printer gives the same bytes for the same input:
    tests/test_children.py). A child forked from this process prints as its test asks
    (``print_once``), never from here."""
    from reporting.presentation import pdf

    print_page, here = pdf.html_to_pdf, os.getpid()

    def html_to_pdf(html: str, as_of, *, author: str | None = None) -> bytes:
        if os.getpid() != here:
            return print_page(html, as_of, author=author)
        key = page_key(html, as_of, author)
        if key not in _PRINTED_HERE:
            _PRINTED_HERE[key] = print_page(html, as_of, author=author)
        return _PRINTED_HERE[key]

    monkeypatch.setattr(pdf, "html_to_pdf", html_to_pdf)


def _print_once(folder: Path) -> None:
    """In the child: the PDF printer takes a page printed before from ``folder``, by its
    input, and keeps there each page it prints anew."""
    from reporting.presentation import pdf

    print_page = pdf.html_to_pdf

    def html_to_pdf(html: str, as_of, *, author: str | None = None) -> bytes:
        path = folder / f"{page_key(html, as_of, author)}.pdf"
        with contextlib.suppress(FileNotFoundError):
            return path.read_bytes()
        printed = print_page(html, as_of, author=author)
        partial = path.with_name(f"{path.name}.{os.getpid()}")
        partial.write_bytes(printed)
        partial.replace(path)  # whole or not at all, for a child killed while it writes
        return printed

    pdf.html_to_pdf = html_to_pdf


def _run_child(arguments, cwd, env, streams, new_session, printed: Path | None) -> None:
    """In the forked child: become the command's process, run main(), exit with its code."""
    code = 1
    try:
        if new_session:
            os.setsid()
        for target, source in enumerate(streams):
            if source != -1:
                os.dup2(source, target)
        _let_go_of_inherited_files()
        if cwd is not None:
            os.chdir(cwd)
        if env is not None:
            os.environ.clear()
            os.environ.update({os.fsdecode(k): os.fsdecode(v) for k, v in env.items()})
        _forget_this_process()
        # A fresh interpreter's signals: Ctrl-C raises KeyboardInterrupt, TERM and HUP kill.
        signal.signal(signal.SIGINT, signal.default_int_handler)
        for number in (signal.SIGTERM, signal.SIGHUP, signal.SIGALRM):
            signal.signal(number, signal.SIG_DFL)
        signal.setitimer(signal.ITIMER_REAL, 0)
        # A fresh interpreter's standard streams on fds 0, 1 and 2, as python -m sees them.
        sys.stdin = io.TextIOWrapper(io.FileIO(0, "r", closefd=False), encoding="utf-8")
        for fd, name in ((1, "stdout"), (2, "stderr")):
            raw = io.FileIO(fd, "w", closefd=False)
            tty = raw.isatty()
            stream = io.TextIOWrapper(
                raw if fd == 2 else io.BufferedWriter(raw),
                encoding="utf-8",
                errors="backslashreplace" if fd == 2 else "strict",
                line_buffering=tty or fd == 2,
                write_through=fd == 2,
            )
            setattr(sys, name, stream)
        for handler in logging.root.handlers[:]:  # the test runner's, not the command's
            logging.root.removeHandler(handler)
        main_module = types.ModuleType("__main__")
        main_module.__package__ = "reporting"
        main_module.__file__ = str(_PACKAGE_MAIN)
        # as python -m sets it (multiprocessing's spawned workers read it to skip __main__)
        main_module.__spec__ = importlib.util.find_spec("reporting.__main__")
        sys.modules["__main__"] = main_module
        sys.argv = [str(_PACKAGE_MAIN), *arguments]
        if printed is not None:
            _print_once(printed)
        from reporting.cli import main

        try:
            main()
            code = 0
        except SystemExit as exit_:
            if exit_.code is None:
                code = 0
            elif isinstance(exit_.code, int):
                code = exit_.code
            else:
                print(exit_.code, file=sys.stderr)
                code = 1
        except KeyboardInterrupt:
            code = 128 + signal.SIGINT  # as python's own handler ends
        except BaseException:  # what python prints and exits 1 with
            traceback.print_exc()
            code = 1
        logging.shutdown()
        # What the interpreter's exit runs for multiprocessing (an atexit handler, not run on
        # os._exit): this process's finalizers, the removal of its temporary folder among
        # them, and the wait for its children (the parent's finalizers are not this pid's).
        if "multiprocessing.util" in sys.modules:
            sys.modules["multiprocessing.util"]._exit_function()
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except OSError:
                code = code or 120  # as python does when stdout cannot be flushed
    except BaseException:
        try:
            traceback.print_exc()
        finally:
            os._exit(121)
    os._exit(code)


def warm_run(
    argv: Sequence[str],
    *,
    capture_output: bool = False,
    timeout: float | None = None,
    input: str | bytes | None = None,
    check: bool = False,
    **options,
) -> subprocess.CompletedProcess:
    """:func:`subprocess.run` of ``[python, "-m", "reporting", ...]`` in a warm child."""
    if capture_output:
        options["stdout"] = options["stderr"] = subprocess.PIPE
    if input is not None:
        options["stdin"] = subprocess.PIPE
    with WarmChild(argv, **options) as process:
        try:
            stdout, stderr = process.communicate(input, timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            raise
    done = subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)
    if check:
        done.check_returncode()
    return done


def run_warm(
    *args: str, cwd: Path | None = None, env: dict[str, str] | None = None, timeout: float = 300
) -> subprocess.CompletedProcess:
    """``python -m reporting ARGS`` in a warm child, its output captured as UTF-8 text (as
    :func:`subprocess.run` with ``capture_output=True, text=True``)."""
    return warm_run(
        [sys.executable, "-m", "reporting", *args],
        capture_output=True,
        encoding="utf-8",
        stdin=subprocess.DEVNULL,
        cwd=cwd,
        env=env,
        timeout=timeout,
    )
