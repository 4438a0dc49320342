"""The command's entry point (``baccarat-report``, ``python -m reporting``), apart from the
command itself so that it is imported in a moment: a Ctrl-C while the command's modules are
still being imported (Typer, the checks: a few tenths of a second) ended in a
KeyboardInterrupt traceback. It ends, as a Ctrl-C later does, in one line and exit code 2;
nothing was begun."""

from __future__ import annotations

import sys

#: The exit code of a command stopped (``reporting.cli.common.EXIT_UNUSABLE``, not imported
#: here: that is the import a Ctrl-C interrupts).
_STOPPED = 2


def main() -> None:
    """Import the command-line tool, then run it."""
    try:
        from reporting.cli import main as command
    except KeyboardInterrupt:
        sys.stderr.write("baccarat-report: stopped by SIGINT as it started: nothing was done\n")
        sys.exit(_STOPPED)
    command()
