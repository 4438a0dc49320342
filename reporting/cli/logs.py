"""Log records of the commands: stdlib :mod:`logging`, one line on stderr, and ``--log-file``.

Every warning or error a command reports is a record of the ``reporting`` logger (a command's
own logger is ``reporting.<command>``). On stderr a record is one line, worded as before
(``baccarat-report: warning: ...``); under systemd, when stderr is the journal (``JOURNAL_STREAM``
names it), each line starts with its syslog priority (``<4>`` for a warning, sd-daemon style),
so ``journalctl -p warning`` finds it. ``--log-file PATH`` appends the same records with a
timestamp and level, for cron. stdout stays the command's result (tables or JSON).
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import stat
import sys
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any, TextIO

from reporting.errors import InputError, printable
from reporting.files import kind_of_file

PROGRAM = "baccarat-report"
LOGGER = "reporting"

#: A record's attribute (``extra={JOB_LINE: True}``) marking a line of a scheduled job's log:
#: on stderr it is stamped with the local time and printed as the job worded it (its
#: warnings say "warning:" where they name what they are about).
JOB_LINE = "job_line"

#: syslog priorities of the levels (sd-daemon(3): ``<N>`` at the start of a line).
PRIORITIES = {
    logging.CRITICAL: 2,
    logging.ERROR: 3,
    logging.WARNING: 4,
    logging.INFO: 6,
    logging.DEBUG: 7,
}


def command_logger(command: str | None = None) -> logging.Logger:
    """The logger of the tool (``command`` None) or of one command (``reporting.monthly``),
    writing to stderr even if no command run has set logging up (a command called on its own,
    as in a test)."""
    ensure_logging()
    return logging.getLogger(LOGGER if command is None else f"{LOGGER}.{command}")


def _speaker(record: logging.LogRecord) -> str:
    """``baccarat-report`` for the tool's own records, ``baccarat-report monthly`` for a
    command's."""
    if record.name.startswith(f"{LOGGER}."):
        return f"{PROGRAM} {record.name[len(LOGGER) + 1 :]}"
    return PROGRAM


def _text(record: logging.LogRecord) -> str:
    """The message as users have always read it: a warning says so, an error does not; one
    line of plain characters (:func:`printable`)."""
    message = printable(record.getMessage())
    return f"warning: {message}" if record.levelno == logging.WARNING else message


class StderrFormatter(logging.Formatter):
    """``baccarat-report: warning: ...``; a bug's traceback first, as Python prints it; under
    the journal every line carries the record's priority."""

    def __init__(self, journal: bool) -> None:
        super().__init__()
        self.journal = journal

    def format(self, record: logging.LogRecord) -> str:
        if getattr(record, JOB_LINE, False):  # worded by the job, stamped for its log
            stamp = datetime.fromtimestamp(record.created).astimezone()
            text = (
                f"{stamp:%Y-%m-%d %H:%M:%S%z} {_speaker(record)}: {printable(record.getMessage())}"
            )
        else:
            text = f"{_speaker(record)}: {_text(record)}"
        if record.exc_info:
            text = self.formatException(record.exc_info) + "\n" + text
        if not self.journal:
            return text
        priority = PRIORITIES.get(record.levelno, 6)
        return "\n".join(f"<{priority}>{line}" for line in text.splitlines())


class FileFormatter(logging.Formatter):
    """``2026-11-05T06:00:01+0100 WARNING baccarat-report monthly: ...`` (local time with
    its offset, so lines of a run that crosses a clock change still sort)."""

    def format(self, record: logging.LogRecord) -> str:
        stamp = datetime.fromtimestamp(record.created).astimezone().strftime("%Y-%m-%dT%H:%M:%S%z")
        text = f"{stamp} {record.levelname} {_speaker(record)}: {printable(record.getMessage())}"
        if record.exc_info:
            text += "\n" + self.formatException(record.exc_info)
        return text


class _LogFileHandler(logging.FileHandler):
    """A log file that, when it cannot be written (disk full), says so once on stderr instead
    of printing logging's own traceback. Opened without waiting: a FIFO that no process reads
    is refused (opening it for writing waited for a reader for ever); one a log collector
    reads is written as a file is."""

    failed = False

    def __init__(self, path: Path, made: Sequence[Path] = (), **options: Any) -> None:
        #: Whether this run made the file, and the folders it made for it, outermost first
        #: (a run refused for its log file takes them away).
        self.created = not os.path.lexists(path)
        self.made = tuple(made)
        super().__init__(path, **options)

    def _open(self):
        descriptor = os.open(
            self.baseFilename, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NONBLOCK, 0o666
        )
        try:
            os.set_blocking(descriptor, True)
            return open(descriptor, "a", encoding=self.encoding, errors=self.errors)
        except BaseException:
            os.close(descriptor)
            raise

    def handleError(self, record: logging.LogRecord) -> None:
        if self.failed:
            return
        self.failed = True
        error = sys.exc_info()[1]
        reason = getattr(error, "strerror", None) or error
        if sys.stderr is None:  # started with stderr closed: print would write to stdout
            return
        try:
            print(f"{PROGRAM}: warning: cannot write the log file {self.baseFilename}: {reason}",
                  file=sys.stderr, flush=True)  # fmt: skip
        except (OSError, ValueError):  # stderr on the same full disk
            let_go(sys.stderr)


def let_go_at_exit() -> None:
    """At the interpreter's exit, the last unwritten bytes of stdout and stderr are let go
    if they cannot be written (a full disk, a pipe gone): Python's own final flush would
    fail and turn the command's exit code into 120, which says nothing of how it went."""
    for stream in (sys.stdout, sys.stderr):
        if stream is not None and not writable(stream):
            let_go(stream)


def let_go(stream: TextIO | None) -> None:
    """A standard stream that cannot be written (a full disk, a closed pipe) writes to
    /dev/null from now on, what it held unwritten with it: kept, those bytes failed again at
    every flush, and the next worker process started failed the run (multiprocessing flushes
    stderr before it starts one)."""
    if stream is None:
        return
    with contextlib.suppress(OSError, ValueError):
        null = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(null, stream.fileno())
        finally:
            os.close(null)
        stream.flush()


def writable(stream: TextIO) -> bool:
    """Whether what ``stream`` holds unwritten could be written (flushing it)."""
    try:
        stream.flush()
    except (OSError, ValueError):
        return False
    return True


class _StderrHandler(logging.StreamHandler):
    """Whatever ``sys.stderr`` is when a record is written (a test runner swaps it between
    runs); stderr that has gone away (a closed pipe) is not worth a traceback."""

    def __init__(self) -> None:
        logging.Handler.__init__(self)

    @property
    def stream(self) -> TextIO:  # type: ignore[override]
        return sys.stderr

    @stream.setter
    def stream(self, value: TextIO) -> None:
        """Always the current stderr: nothing to set."""

    def handleError(self, record: logging.LogRecord) -> None:
        if isinstance(sys.exc_info()[1], OSError):  # not a record that could not be formatted
            let_go(sys.stderr)


def writes_to_journal(stream: TextIO) -> bool:
    """Whether ``stream`` is the systemd journal: ``JOURNAL_STREAM`` (``device:inode``) names
    the very file it writes to (a child whose stderr was redirected elsewhere is not)."""
    value = os.environ.get("JOURNAL_STREAM", "")
    try:
        device, inode = (int(part) for part in value.split(":"))
        status = os.fstat(stream.fileno())
    except (ValueError, OSError, AttributeError):
        return False
    return (status.st_dev, status.st_ino) == (device, inode)


def open_log_file(path: Path) -> logging.FileHandler:
    """A handler appending to ``path`` (its folder made if missing); an unusable path is the
    user's to fix, so an :class:`InputError`."""
    made = [folder for folder in reversed(path.parents) if not os.path.lexists(folder)]
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise InputError(f"--log-file {path}: {path.parent} is not a folder") from None
    except OSError as error:
        raise InputError(
            f"--log-file {path}: cannot make its folder ({error.strerror or error})"
        ) from None
    try:
        return _LogFileHandler(path, made, mode="a", encoding="utf-8")
    except OSError as error:
        if error.errno == errno.ENXIO:  # a FIFO no process reads, a socket, a device
            mode = path.stat().st_mode
            what = (
                "a FIFO (named pipe) that no process reads"
                if stat.S_ISFIFO(mode)
                else kind_of_file(mode)
            )
            raise InputError(f"--log-file {path}: {what}: nothing could be written to it") from None
        raise InputError(
            f"--log-file {path}: cannot be opened for appending ({error.strerror or error})"
        ) from None


def console_level(quieter: int = 0, louder: int = 0) -> int:
    """The level of the records shown on stderr: info (a scheduled job's lines), one step
    down per ``-v`` (debug: where ``--db`` and ``--config`` came from), one up per ``-q``
    (warnings, then errors only).

    >>> [logging.getLevelName(console_level(*counts)) for counts in ((0, 0), (1, 0), (2, 0), (0, 1))]
    ['INFO', 'WARNING', 'ERROR', 'DEBUG']
    """
    return min(max(logging.INFO + 10 * (quieter - louder), logging.DEBUG), logging.ERROR)


def configure_logging(log_file: Path | None = None, level: int = logging.INFO) -> None:
    """Send the ``reporting`` records of ``level`` and above to the current stderr and, if
    given, those of info and above to ``log_file`` (whatever ``-q`` or ``-v`` says).

    Called once per command run (again in a test's next run, which has a new stderr): the
    handlers of the previous call are replaced, never added to.
    """
    logger = logging.getLogger(LOGGER)
    for handler in list(logger.handlers):
        logger.removeHandler(handler)
        handler.close()
    logger.setLevel(min(level, logging.INFO))
    logger.propagate = False
    stderr = _StderrHandler()
    stderr.setLevel(level)
    stderr.setFormatter(StderrFormatter(journal=writes_to_journal(sys.stderr)))
    logger.addHandler(stderr)
    if log_file is not None:
        handler = open_log_file(log_file)
        handler.setLevel(logging.INFO)
        handler.setFormatter(FileFormatter())
        logger.addHandler(handler)


def document_on_stdout() -> None:
    """``--json``: stdout is the command's document, and a scheduled job's steps (info
    records) stay off stderr; its warnings and errors still go there, and ``--log-file``
    still gets every record, as without ``--json``."""
    for handler in logging.getLogger(LOGGER).handlers:
        if isinstance(handler, _StderrHandler):
            handler.setLevel(max(handler.level, logging.WARNING))


def log_file_path() -> Path | None:
    """The file ``--log-file`` appends to in this run, or None."""
    for handler in logging.getLogger(LOGGER).handlers:
        if isinstance(handler, _LogFileHandler):
            return Path(handler.baseFilename)
    return None


def drop_log_file() -> None:
    """Stop appending to the ``--log-file`` of this run, before the line that refuses it is
    logged (it would go into the very file it protects), and take the file away again if
    this run made it and wrote nothing to it (with the folders it made for it, if empty)."""
    logger = logging.getLogger(LOGGER)
    for handler in list(logger.handlers):
        if isinstance(handler, _LogFileHandler):
            logger.removeHandler(handler)
            handler.close()
            path = Path(handler.baseFilename)
            with contextlib.suppress(OSError):
                if handler.created and path.is_file() and path.stat().st_size == 0:
                    path.unlink()
                for folder in reversed(handler.made):
                    folder.rmdir()  # only while empty: nothing but the log was put there


def ensure_logging() -> None:
    """Logging as :func:`configure_logging` sets it up, if no command run has yet."""
    if not logging.getLogger(LOGGER).handlers:
        configure_logging()
