"""Errors that stop a command with a one-line message and exit code 2 (could not run)."""

from __future__ import annotations


class InputError(Exception):
    """Input the tool cannot use at all: a missing file, an unreadable database, bad arguments."""
