"""Errors that stop a command with a one-line message and exit code 2 (could not run).

Every class here is an :class:`InputError`: the command line's error boundary prints its
message as one line and exits 2. The subclasses tell callers what kind of problem it was, so
that a loop over files can decide whether trying the next file is safe:

* :class:`NotARegularFile` and :class:`NotOurDatabase` are about one path: the rest of the
  work may go on;
* an :class:`EnvironmentFault` is about the machine (a full disk, a read-only or forbidden
  file or folder, a database another process holds): the same fault would hit the next file
  too, so the work stops and says so.
"""

from __future__ import annotations

__all__ = [
    "DatabaseBusy",
    "DiskFull",
    "EnvironmentFault",
    "InputError",
    "NotARegularFile",
    "NotOurDatabase",
    "PermissionDenied",
]


class InputError(Exception):
    """Input the tool cannot use at all: a missing file, an unreadable database, bad arguments."""


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
