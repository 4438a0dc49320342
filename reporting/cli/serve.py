"""``baccarat-report serve``: the store in a browser, through Datasette, read only (a store
of an earlier schema version is first brought to this one, as every command does).

The tables and views (findings with their evidence, the void register, money per table and
day) with Datasette's filters, facets and SQL; a finding links to its round and bet by the
store's foreign keys; every column that holds cents or UTC says so
(:mod:`reporting.store.browse`). A query is bounded in time and memory
(:mod:`reporting.store.query_bounds`), and only GET and HEAD are answered
(:mod:`reporting.cli.serve_plugin`). Bound to 127.0.0.1 unless told otherwise: the store holds
player accounts.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from reporting.cli.common import DEFAULT_DB, DbOption
from reporting.cli.logs import command_logger
from reporting.errors import InputError

__all__ = ["SETTINGS", "datasette_app", "serve_command"]

LOOPBACK = "127.0.0.1"
#: Datasette's settings: a slow query is stopped, the file is not offered for download.
#: (The time limit's value and the other bounds of a query: :mod:`reporting.store.query_bounds`.)
SETTINGS = {"max_returned_rows": 2000, "allow_download": False}


def datasette_app(path: Path) -> Any:
    """The Datasette instance over the store at ``path`` (checked, and brought to this schema
    version, first: the views and foreign keys are the newest schema's), with the hooks of
    :mod:`reporting.cli.serve_plugin`."""
    from datasette.app import Datasette  # imported here: only this command needs it
    from datasette.plugins import pm

    from reporting.cli import serve_plugin
    from reporting.store.browse import browse_metadata
    from reporting.store.query_bounds import TIME_LIMIT_MS
    from reporting.store.schema import connect

    connect(path, create=False).close()
    if not pm.is_registered(serve_plugin):
        pm.register(serve_plugin, name="baccarat-report")
    return Datasette(
        files=[str(path)],
        metadata=browse_metadata(path.stem),
        settings={**SETTINGS, "sql_time_limit_ms": TIME_LIMIT_MS},
    )


def serve_command(
    db: DbOption = DEFAULT_DB,
    host: Annotated[
        str, typer.Option(help="Address to listen on. Default: this machine only.")
    ] = LOOPBACK,
    port: Annotated[int, typer.Option(min=1, max=65535, help="Port to listen on.")] = 8001,
) -> None:
    """Browse the store in a web browser (Datasette, read only): findings with their round,
    bet and cards, void rounds, money per table and day."""
    import uvicorn  # Datasette's server

    from reporting.store.query_bounds import bound_sqlite_heap

    app = datasette_app(db)
    if host not in (LOOPBACK, "localhost", "::1"):
        command_logger().warning(
            "listening on %s: anyone who reaches it can read the store, player accounts included",
            host,
        )
    _check_free(host, port)
    bound_sqlite_heap()  # after the store's upgrade above: the bound is the whole process's
    typer.echo(f"serving {db} at http://{host}:{port}/ (Ctrl+C stops)")
    uvicorn.run(app.app(), host=host, port=port, log_level="warning")


def _check_free(host: str, port: int) -> None:
    """Refuse, in one line, an address that cannot be listened on (a port in use, a host
    this machine does not have), before the server would exit with its own message."""
    import socket

    try:
        with socket.create_server((host, port)):
            pass
    except OSError as error:
        raise InputError(
            f"cannot listen on {host}:{port} ({error.strerror or error}); choose another --port"
        ) from None
