"""Errors that stop a command with a one-line message and exit code 2 (could not run).

Every class here is an :class:`InputError`: the command line's error boundary prints its
message as one line and exits 2. The subclasses tell callers what kind of problem it was, so
that a loop over files can decide whether trying the next file is safe:

* :class:`NotARegularFile` and :class:`NotOurDatabase` are about one path: the rest of the
  work may go on;
* an :class:`EnvironmentFault` is about the machine (a full disk, a read-only or forbidden
  file or folder, a database another process holds): the same fault would hit the next file
  too, so the work stops and says so.

A message is one line of plain characters: :func:`printable` escapes what a file's name may
bring into it.
"""

from __future__ import annotations

import re
import signal
import sys
from typing import Any

__all__ = [
    "DatabaseBusy",
    "DiskFull",
    "EnvironmentFault",
    "InputError",
    "NotARegularFile",
    "NotOurDatabase",
    "NOT_ONE_LINE",
    "UNSEEN",
    "PermissionDenied",
    "Stopped",
    "StoreDamaged",
    "checkpoint",
    "counted",
    "forget_stop",
    "let_stops_in",
    "printable",
    "stopped_statement",
    "stop_received",
    "visible",
]


class InputError(Exception):
    """Input the tool cannot use at all: a missing file, an unreadable database, bad arguments."""


class StoreDamaged(InputError):
    """A value of the store that ingest never writes (the store changed by hand), said as
    ``said``; with the store's file, ``path``, once a reader that holds the connection names
    it (:meth:`at`): the value may be met where only the round is at hand."""

    def __init__(self, said: str, path: str | None = None) -> None:
        super().__init__(said if path is None else f"{printable(path)}: {said}")
        self.said, self.path = said, path

    def __reduce__(self):  # from a worker process: said and path, not the formatted text
        return (StoreDamaged, (self.said, self.path))

    def at(self, path: str) -> StoreDamaged:
        """This error naming ``path`` as its store: itself if it names one already (or
        ``path`` is empty, a store in memory)."""
        return self if self.path is not None or not path else StoreDamaged(self.said, path)


class NotARegularFile(InputError):
    """A path that names a folder, a FIFO, a device or a socket where a file is wanted."""


class NotOurDatabase(InputError):
    """A SQLite file (or another file) that baccarat-report did not make; left unchanged."""


class EnvironmentFault(InputError):
    """The machine, not the input: a fault that would stop the next file the same way."""


class DiskFull(EnvironmentFault):
    """No space left for the database or an output file (or the database's size limit)."""


class PermissionDenied(EnvironmentFault):
    """A file or folder this user may not read or write, or one on a read-only file system."""


class DatabaseBusy(EnvironmentFault):
    """Another process held the database (or its lock) for longer than the wait allowed."""


#: What a text of one line may not hold: control characters (a line break in a file's name
#: would end the line and forge the next, "x\nbaccarat-report: all good"; an escape sequence
#: drives the terminal), C1 controls, line separators, and the bidirectional embeddings,
#: overrides and isolates (which print a name backwards). The configuration refuses them in
#: its texts (:mod:`reporting.config.values`); a message escapes them (:func:`printable`).
NOT_ONE_LINE = r"\t\n\r\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069"
#: What reorders or hides what a reader sees without breaking a line: the bidirectional
#: marks, the zero-width spaces and joiners, the word joiner and the byte order mark; and
#: lone surrogates (a byte of a file name that is not UTF-8), which print as nothing or fail.
UNSEEN = r"\u061c\u200b-\u200f\u2060\ufeff\ud800-\udfff"
#: What a message escapes (:func:`printable`): all of the two.
_UNPRINTABLE = re.compile(f"[{NOT_ONE_LINE}{UNSEEN}]")


def printable(text: str) -> str:
    """``text`` as one line of plain characters: each character of :data:`_UNPRINTABLE` as
    its escape (``\\n``, ``\\x1b``, ``\\u202e``; a byte of a name that is not UTF-8 as
    ``\\xff``).

    >>> printable("r\\udcff.jsonl: x\\nbaccarat-report: all good\\u200b")
    'r\\\\xff.jsonl: x\\\\nbaccarat-report: all good\\\\u200b'
    """
    return _UNPRINTABLE.sub(_escape, text)


_SPACING = r"\t\n\r"
#: What a page or a workbook escapes of the input it shows (:func:`visible`): what a message
#: escapes, but line breaks and tabs (which a page shows as space).
_HIDDEN = re.compile(f"[{NOT_ONE_LINE.removeprefix(_SPACING)}{UNSEEN}]")


def visible(text: str) -> str:
    """``text`` from the input (an id, a void reason, a file's name, a rejected line) as a
    page or a workbook shows it: what would reorder or hide its characters as its escape (an
    account ``acc\\u202e1234`` shown as written, not printed backwards), line breaks and tabs
    kept.

    >>> visible("evil\\u202e cba\\u200b and\\na tab\\t")
    'evil\\\\u202e cba\\\\u200b and\\na tab\\t'
    """
    return _HIDDEN.sub(_escape, text)


def _escape(match: re.Match[str]) -> str:
    character = match.group()
    if "\udc80" <= character <= "\udcff":
        return f"\\x{ord(character) - 0xDC00:02x}"
    return character.encode("unicode_escape").decode("ascii")


class Stopped(BaseException):
    """SIGTERM, SIGINT or SIGHUP arrived. Raised in the main thread (by the command's handler,
    :mod:`reporting.cli.failures`), so that it unwinds through every ``except BaseException:
    ROLLBACK`` (and every staging clean-up) on the way out; not a KeyboardInterrupt, which
    the command-line library would turn into exit code 130."""

    def __init__(self, signal_number: int) -> None:
        super().__init__(signal_number)
        self.signal_name = signal.Signals(signal_number).name

    def message(self) -> str:
        """The one line a user or a scheduler reads."""
        return (
            f"stopped by {self.signal_name}: the unfinished transaction was rolled back and"
            " work finished before it is kept; run the command again to finish"
        )


#: The signal of the stop the command received (0: none).
_received = [0]


def stop_received(signal_number: int) -> None:
    """Note the stop the command received: :func:`checkpoint` raises it again."""
    _received[0] = signal_number


def forget_stop() -> None:
    """A command begins: no stop received."""
    _received[0] = 0


def checkpoint() -> None:
    """Before a step that keeps work (a commit, a file put in place, a month published),
    raise the stop the command received if it has not stopped the command already: raised
    in code that drops what it raises (WeasyPrint drawing an SVG logo, a compiled
    extension's start-up), a stop was lost, and the run went on and published a page half
    drawn. While a stop unwinds (its clean-up, in an ``except`` or ``finally``), nothing."""
    if _received[0] and not isinstance(sys.exc_info()[1], Stopped):
        raise Stopped(_received[0])


#: SQLite's virtual-machine steps between two chances for a stop to come in (a millisecond or
#: so of work; a Python call each, nothing else).
STOP_CHANCE_STEPS = 100_000


def let_stops_in(connection: Any) -> None:
    """Have the statements of an SQLite ``connection`` give way to a stop: Python runs a
    signal's handler only between its own instructions, and a statement that ran for
    minutes (a month read without its index) took SIGTERM and Ctrl-C only at its end. Every
    :data:`STOP_CHANCE_STEPS` steps SQLite calls back into Python, where the handler runs and
    raises :class:`Stopped`: SQLite then breaks the statement off ("interrupted"), which
    :func:`stopped_statement` tells from a fault."""
    connection.set_progress_handler(_chance_to_stop, STOP_CHANCE_STEPS)


def _chance_to_stop() -> int:
    return 0  # go on: a stop, if one came, was raised on the way in


def stopped_statement(error: BaseException) -> Stopped | None:
    """The stop that broke off the SQLite statement that raised ``error`` (SQLite's
    "interrupted", a stop received), or None. Known by its class's name: this module, at the
    bottom of every command (the rule sheets' too), imports no sqlite3."""
    if _received[0] and type(error).__name__ == "OperationalError" and str(error) == "interrupted":
        return Stopped(_received[0])
    return None


def counted(count: int, noun: str) -> str:
    """A count and its noun, plural with an s, as a message says it.

    >>> counted(1, "round"), counted(3, "problem"), counted(1200, "round log")
    ('1 round', '3 problems', '1,200 round logs')
    """
    return f"1 {noun}" if count == 1 else f"{count:,} {noun}s"
