"""What the error boundary of :func:`reporting.cli.main` knows: which failures are the
environment's or the input's (one line, exit 2) and which are bugs (a traceback), and how a
signal stops a command.

A fault of the environment (disk full, read-only, permission, a locked or damaged database,
a path that is not what it should be) is not a bug: it gets a sentence saying what happened
to which path and what to do, never a traceback.
"""

from __future__ import annotations

import contextlib
import errno
import io
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING

from reporting.errors import InputError, Stopped, forget_stop, stop_received

if TYPE_CHECKING:
    import sqlite3

#: An OSError of the environment: its errno, what it means in a sentence, and what to do.
OS_FAULTS: dict[int, str] = {
    errno.ENOSPC: "no space left on the device; free some space and run again",
    errno.EDQUOT: "disk quota exceeded; free some space and run again",
    errno.EROFS: "the file system is read-only",
    errno.EACCES: "permission denied; check the owner and the permissions of the path",
    errno.EPERM: "operation not permitted; check the owner and the permissions of the path",
    errno.ENOENT: "no such file or folder",
    errno.ENOTDIR: "a part of the path is not a folder",
    errno.EISDIR: "is a folder, where a file is needed",
    errno.EIO: "input/output error; check the disk",
    errno.ELOOP: "too many levels of symbolic links",
    errno.ENAMETOOLONG: "the file name is too long",
    errno.EMFILE: "too many open files for this process; raise its limit (ulimit -n, systemd's"
    " LimitNOFILE=) and run again",
    errno.ENFILE: "too many open files in the system",
}

#: sqlite3's messages of the environment (matched in the error's text) and what they mean.
DATABASE_FAULTS: dict[str, str] = {
    "database is locked": "the database is locked: another program held it longer than the"
    " wait allowed; run again when it has finished",
    "disk i/o error": "a disk input/output error while reading or writing the database;"
    " check the disk (the open transaction was rolled back)",
    "database or disk is full": "the disk holding the database is full; free some space and"
    " run again (the open transaction was rolled back)",
    "attempt to write a readonly database": "the database is read-only (file permissions, a"
    " read-only mount, or a folder where SQLite cannot write its journal)",
    "unable to open database file": "the database file cannot be opened (a missing folder, or"
    " no permission on the file or its folder)",
    "file is not a database": "the file is not an SQLite database",
    "database disk image is malformed": "the database file is damaged (malformed); restore it"
    " from a backup",
    "readonly database": "the database is read-only",
    # SQLite's sum() of INTEGER cents stops past 2**63 - 1. The reports sum money in halves
    # that cannot overflow (reporting.store.sums); a person's own query of the store (serve,
    # its views) still can, where the round logs hold amounts beyond any real play.
    "integer overflow": "a total of the amounts stored passes what SQLite can add (2^63 - 1"
    " cents, some 92 quadrillion): the round logs hold stakes or payouts beyond any real"
    " play; correct them (`verify --json`, whose totals are exact, shows the month's)",
}


#: The signals that stop a command cleanly: Ctrl-C, a scheduler's stop, and the hang-up of
#: the terminal a run by hand was started from (an ssh session that dropped).
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


#: The modules whose frames mean a module is being imported (named so once ``importlib`` is
#: imported, by their frozen names before), and the seconds a stop that came then waits
#: before it is tried again.
_IMPORTING = frozenset(
    {
        "importlib._bootstrap",
        "importlib._bootstrap_external",
        "_frozen_importlib",
        "_frozen_importlib_external",
    }
)
_AGAIN_SECONDS = 0.02

#: Functions (by module and qualified name) in which a stop must wait:
#: - what makes something the command must then know of, a thread started or a temporary
#:   folder made: a stop raised inside leaves it unknown to the command (the thread that
#:   starts the worker processes went on forking workers for a run already gone, each of
#:   which printed a traceback; the workers' empty folder was left in TMPDIR, 1 stop in 150
#:   of ``verify --jobs 2``, as it made the folder);
#: - the finalisers weak references call, which drop what they raise as ``__del__`` does,
#:   and print it ("Exception ignored in: <Finalize object, dead>", 1 stop in 200).
_NOT_NOW = frozenset(
    {
        ("threading", "Thread.start"),
        ("tempfile", "mkdtemp"),
        ("tempfile", "TemporaryDirectory.__init__"),
        ("weakref", "finalize.__call__"),
        ("multiprocessing.util", "Finalize.__call__"),
    }
)


def _stop(signal_number: int, frame: FrameType | None) -> None:
    stop_received(signal_number)  # raised again before what keeps work, if it is dropped
    if _must_wait(frame):
        _try_again(signal_number)
        return
    # One stop is enough: a second Ctrl-C must not break off the rollback the first started.
    # Not ignored but let be: a second signal already on its way when the first raised found
    # the handler ignoring and raised "Signal 15 ignored due to race condition".
    for number in STOP_SIGNALS:
        if signal.getsignal(number) is _stop:
            signal.signal(number, _stopping)
    raise Stopped(signal_number)


def _stopping(signal_number: int, frame: FrameType | None) -> None:
    """A stop after the first: the command is stopping already."""


def _must_wait(frame: FrameType | None) -> bool:
    """Whether :class:`Stopped` raised in ``frame`` could be swallowed instead of stopping the
    command, or leave what it broke off unknown to the command:

    - while a module is imported (a compiled extension's start-up, lxml's among them, runs
      Python code, its registration of types with ``collections.abc``, and drops what it
      raises: a Ctrl-C 0.6 s into ``monthly``, as openpyxl imported lxml, was lost, the
      handlers already set to ignore a second, and the run went on to publish the month);
    - in a finaliser (``__del__``, a weak reference's: Python drops what it raises);
    - while a thread is started or a temporary folder made (:data:`_NOT_NOW`: 3 stops in 270
      of ``verify --jobs 2`` in its first second)."""
    while frame is not None:
        module, code = frame.f_globals.get("__name__"), frame.f_code
        if (
            module in _IMPORTING
            or code.co_name == "__del__"
            or (module, code.co_qualname) in _NOT_NOW
        ):
            return True
        frame = frame.f_back
    return False


def _try_again(signal_number: int) -> None:
    """The stop, sent to the main thread again in a moment (nothing is done meanwhile but
    the import, the finaliser, the thread's start or the folder's making under way): a
    signal, which breaks off a wait as the first did (a sleep, a read, a child waited for)."""
    main = threading.main_thread().ident
    again = threading.Timer(_AGAIN_SECONDS, signal.pthread_kill, (main, signal_number))
    again.daemon = True
    with contextlib.suppress(RuntimeError):  # the interpreter's end: the command ends anyway
        again.start()


def _unraisable(unraisable: sys.UnraisableHookArgs) -> None:
    """What Python cannot raise where it came ("Exception ignored in ...": a finaliser, the
    callback of a weak reference, which :func:`_must_wait` cannot all name): a stop raised
    there is not printed but sent again, to be raised where it can be (a weak set's
    callback met one and printed a traceback, 1 stop in 200 of ``verify --jobs 2``)."""
    stop = unraisable.exc_value
    if not isinstance(stop, Stopped):
        sys.__unraisablehook__(unraisable)
        return
    for number in STOP_SIGNALS:
        if signal.getsignal(number) is _stopping:
            signal.signal(number, _stop)
    _try_again(stop.args[0])


def install_signal_handlers() -> None:
    """SIGINT, SIGTERM and SIGHUP raise :class:`Stopped` in the main thread; a signal the
    command was started ignoring stays ignored (``nohup`` ignores SIGHUP for it). A stop
    Python could not raise is sent again (:func:`_unraisable`)."""
    forget_stop()
    sys.unraisablehook = _unraisable
    for number in STOP_SIGNALS:
        if signal.getsignal(number) is not signal.SIG_IGN:
            signal.signal(number, _stop)


def describe_os_error(error: OSError) -> str | None:
    """``path: what happened; what to do`` for an OSError of the environment, else None."""
    meaning = OS_FAULTS.get(error.errno) if error.errno is not None else None
    if meaning is None:
        return None
    where = " -> ".join(str(name) for name in (error.filename, error.filename2) if name)
    return f"{where}: {meaning}" if where else meaning


def describe_database_error(error: sqlite3.Error, path: Path | str | None = None) -> str | None:
    """``path: what happened`` for an sqlite3 error of the environment, else None (a bug)."""
    import sqlite3

    text = str(error).lower()
    if "no transaction is active" in text and isinstance(error.__context__, sqlite3.Error):
        # The ROLLBACK after a fault failed because SQLite had already rolled back: the
        # fault, not the ROLLBACK, is what the user needs to read.
        return describe_database_error(error.__context__, path)
    meaning = next((value for key, value in DATABASE_FAULTS.items() if key in text), None)
    if meaning is None:
        return None
    return f"{path}: {meaning}" if path is not None else meaning


def _file_being_read(error: BaseException) -> str | None:
    """The name of the file a decoding error came from, if a frame of its traceback has it
    (the innermost such frame: the one that was reading)."""
    traceback = error.__traceback__
    name = None
    while traceback is not None:
        for value in traceback.tb_frame.f_locals.values():
            if isinstance(value, io.IOBase) and isinstance(getattr(value, "name", None), str):
                name = value.name
        traceback = traceback.tb_next
    return name


def describe_decode_error(error: UnicodeDecodeError) -> str:
    """An input that is not the text encoding it must be (UTF-8)."""
    where = _file_being_read(error)
    byte = error.object[error.start : error.start + 1].hex()
    sentence = (
        f"not valid {error.encoding.upper()} text (byte 0x{byte} at offset {error.start}:"
        f" {error.reason}); save the file as UTF-8"
    )
    return f"{where}: {sentence}" if where else f"an input is {sentence}"


def describe_failure(error: BaseException) -> str | None:
    """The one line for an expected failure (input or environment), or None for a bug."""
    if isinstance(error, InputError):
        return str(error)
    if isinstance(error, UnicodeDecodeError):
        return describe_decode_error(error)
    if isinstance(error, OSError):
        return describe_os_error(error)
    database_error = loaded_class("sqlite3", "Error")
    if database_error is not None and isinstance(error, database_error):
        return describe_database_error(error)
    return None


def loaded_class(module: str, name: str) -> type[BaseException] | None:
    """The exception class ``module.name`` if ``module`` is loaded, else None.

    The boundary imports neither sqlite3 nor the configuration loader: every ``--help`` loads
    it, and a module that was never imported cannot have raised its error. Nor does it import
    anything once a command has failed (the failure may be a full disk or no file handle left).
    """
    loaded = sys.modules.get(module)
    return None if loaded is None else getattr(loaded, name)


@contextmanager
def database_errors(path: Path) -> Iterator[None]:
    """Name ``path`` in the message of an sqlite3 error of the environment raised inside."""
    import sqlite3

    try:
        yield
    except sqlite3.Error as error:
        message = describe_database_error(error, path)
        if message is None:
            raise
        raise InputError(message) from error
