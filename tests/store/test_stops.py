"""A stop (SIGTERM, Ctrl-C) that comes while SQLite runs one long statement: Python runs a
signal's handler only between its own instructions, and a statement that ran for minutes (a
month read without its index, an export's sort) took the stop only at its end. The store's
connections give SQLite's steps a chance to stop (reporting.errors.let_stops_in)."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import time

#: A child that opens a store, runs a statement of a few minutes and says how it ended.
_CHILD = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from reporting.cli import _stopped_under
    from reporting.cli.failures import install_signal_handlers
    from reporting.store.schema import connect

    install_signal_handlers()
    connection = connect(Path(sys.argv[1]))
    print("ready", flush=True)
    began = time.monotonic()
    try:
        connection.execute(
            "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n"
            " WHERE x < 4000000000) SELECT count(*) FROM n"
        ).fetchone()
        print("ran to its end")
    except BaseException as error:
        stop = _stopped_under(error)
        print(stop.message() if stop else repr(error), round(time.monotonic() - began, 1))
    """
)


def test_a_long_statement_gives_way_to_a_stop(tmp_path):
    child = subprocess.Popen(
        [sys.executable, "-c", _CHILD, str(tmp_path / "store.sqlite")],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline() == "ready\n"
        time.sleep(0.5)
        sent = time.monotonic()
        child.send_signal(signal.SIGTERM)
        out, _ = child.communicate(timeout=20)  # the statement alone runs for minutes
    finally:
        child.kill()
    assert time.monotonic() - sent < 5, "the statement ran on after the stop"
    assert out.startswith("stopped by SIGTERM: the unfinished transaction was rolled back")
