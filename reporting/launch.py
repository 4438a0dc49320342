"""The command's entry point (``baccarat-report``, ``python -m reporting``), apart from the
command itself so that it is imported in a moment: a Ctrl-C while the command's modules are
still being imported (Typer, the checks: a few tenths of a second) ended in a
KeyboardInterrupt traceback. It ends, as a Ctrl-C later does, in one line and exit code 2;
nothing was begun."""

from __future__ import annotations

import signal
import sys

#: The exit code of a command stopped (``reporting.cli.common.EXIT_UNUSABLE``, not imported
#: here: that is the import a Ctrl-C interrupts).
_STOPPED = 2


def main() -> None:
    """Import the command-line tool, then run it. A Ctrl-C meanwhile is noted, not raised:
    raised during the import of a compiled extension's module, it could be dropped there."""
    stops: list[int] = []
    previous = signal.getsignal(signal.SIGINT)
    noted = previous is not signal.SIG_IGN  # started ignoring it (nohup, a shell's & job)
    if noted:
        signal.signal(signal.SIGINT, lambda number, frame: stops.append(number))
    try:
        from reporting.cli import main as command
    finally:
        if noted:
            signal.signal(signal.SIGINT, previous)
    if stops:
        sys.stderr.write("baccarat-report: stopped by SIGINT as it started: nothing was done\n")
        sys.exit(_STOPPED)
    command()
