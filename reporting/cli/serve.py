"""``baccarat-report serve``: the store in a browser, through Datasette, read only (a store
of an earlier schema version is first brought to this one, as every command does).

The tables and views (findings with their evidence, the void register, money per table and
day) with Datasette's filters, facets and SQL; a finding links to its round and bet by the
store's foreign keys; every column that holds cents or UTC says so
(:mod:`reporting.store.browse`); the pages show money in its currency, and only GET and
HEAD are answered (:mod:`reporting.cli.serve_plugin`). A query is bounded in time and memory
(:mod:`reporting.store.query_bounds`). Bound to 127.0.0.1 unless told otherwise: the store
holds player accounts. SIGTERM, Ctrl-C or a hang-up stops the server ("stopped by SIGTERM",
by SIGINT or by SIGHUP), exit 0.
"""

from __future__ import annotations

import errno
import signal
import socket
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext, suppress
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from reporting.cli.common import DEFAULT_DB, DEFAULT_DB_WAIT, DbOption, DbWaitOption
from reporting.cli.failures import STOP_SIGNALS
from reporting.cli.logs import command_logger
from reporting.errors import InputError, printable

if TYPE_CHECKING:
    from types import FrameType

__all__ = ["SETTINGS", "address_of", "datasette_app", "serve_command"]

LOOPBACK = "127.0.0.1"
#: Datasette's settings: the file is not offered for download. (A query's bounds, its time
#: and rows among them: :mod:`reporting.store.query_bounds`.)
SETTINGS = {"allow_download": False}

#: What to do when the address cannot be listened on, by the error's number.
_CANNOT_LISTEN = {
    errno.EADDRINUSE: "the port is in use; choose another --port",
    errno.EADDRNOTAVAIL: "this machine has no such address; give --host one of its own"
    f" addresses ({LOOPBACK}, the default, for this machine only)",
    errno.EACCES: "permission denied (ports below 1024 need privileges); choose another --port",
}


def datasette_app(path: Path, wait: float = DEFAULT_DB_WAIT) -> Any:
    """The Datasette instance over the store at ``path`` (checked, and brought to this schema
    version, first, waiting ``wait`` seconds for another process's lock: the views and foreign
    keys are the newest schema's; one on a read-only file system is read where it is), with
    the hooks of :mod:`reporting.cli.serve_plugin`."""
    from datasette.app import Datasette  # imported here: only this command needs it
    from datasette.plugins import pm

    from reporting.cli import serve_plugin
    from reporting.store.browse import browse_metadata
    from reporting.store.query_bounds import MAX_CSV_MB, MAX_RETURNED_ROWS, TIME_LIMIT_MS
    from reporting.store.schema import IMMUTABLE, connect, read_only_query

    connect(path, create=False, wait=wait, read_only=True).close()
    if not pm.is_registered(serve_plugin):
        pm.register(serve_plugin, name="baccarat-report")
    datasette = Datasette(
        files=[],
        metadata=browse_metadata(path.stem),
        settings={
            **SETTINGS,
            "sql_time_limit_ms": TIME_LIMIT_MS,
            "max_csv_mb": MAX_CSV_MB,
            "max_returned_rows": MAX_RETURNED_ROWS,
        },
    )
    # On a read-only file system, read as SQLite would read it there (connect's choice).
    immutable = read_only_query(path) == IMMUTABLE
    datasette.add_database(_store_database(datasette, path, immutable))
    return datasette


def _store_database(datasette: Any, path: Path, immutable: bool) -> Any:
    """Datasette's database of the store, whose connections name its file as a SQLite URI
    must: Datasette writes the path into the URI as it is, so a name holding ``?``, ``#`` or
    ``%`` opened another file (an empty one made beside the store) and every page failed."""
    import sqlite3

    from datasette.database import Database

    from reporting.cli.serve_plugin import refuse_an_unmarked_cut, refuse_an_unmarked_error
    from reporting.store.schema import IMMUTABLE, READ_ONLY, sqlite_uri

    class StoreDatabase(Database):
        def connect(self, write: bool = False) -> sqlite3.Connection:
            uri = sqlite_uri(Path(self.path))
            if not write:
                uri += f"?{READ_ONLY if self.is_mutable else IMMUTABLE}"
            connection = sqlite3.connect(uri, uri=True, check_same_thread=False)
            self._all_file_connections.append(connection)
            return connection

        async def execute(self, sql: str, params: Any = None, **options: Any) -> Any:
            """Datasette's, without the line it prints for a query SQLite refused ("ERROR:
            conn=<sqlite3.Connection object at 0x...>, sql = ..."; the error is the page's);
            a query's file cut at its most rows, or refused by SQLite, said as a 400
            (:mod:`reporting.cli.serve_plugin`)."""
            options["log_sql_errors"] = False
            try:
                results = await super().execute(sql, params, **options)
            except sqlite3.DatabaseError as error:
                refuse_an_unmarked_error(error)
                raise
            refuse_an_unmarked_cut(results.truncated)
            return results

    return StoreDatabase(datasette, str(path), is_mutable=not immutable)


def serve_command(
    db: DbOption = DEFAULT_DB,
    host: Annotated[
        str,
        typer.Option(metavar="ADDRESS", help="Address to listen on. Default: this machine only."),
    ] = LOOPBACK,
    port: Annotated[
        int, typer.Option(min=1, max=65535, metavar="PORT", help="Port to listen on.")
    ] = 8001,
    db_wait: DbWaitOption = DEFAULT_DB_WAIT,
) -> None:
    """Browse the store in a web browser (Datasette, read only): findings with their round,
    bet and cards, void rounds, money per table and day."""
    import uvicorn  # Datasette's server

    from reporting.store.query_bounds import bound_sqlite_heap

    app = datasette_app(db, db_wait)  # a signal up to here stops the store's upgrade, if any
    server = uvicorn.Server(uvicorn.Config(app.app(), log_level="warning"))
    with _stopped_by_signals(server) as signals:
        sockets = _listen(host, port)
        if host not in (LOOPBACK, "localhost", "::1"):
            command_logger().warning(
                "listening on %s: anyone who reaches it can read the store, player accounts"
                " included",
                host,
            )
        bound_sqlite_heap()  # after the store's upgrade: the bound is the whole process's
        typer.echo(f"serving {printable(str(db))} at {address_of(host, port)} (Ctrl+C stops)")
        server.run(sockets=sockets)
        _let_go(app, db)
    typer.echo(f"stopped by {signals[0]}" if signals else "stopped")


def _let_go(app: Any, path: Path) -> None:
    """Close Datasette's connections, then open and close one of the store's own: the last
    connection to close takes the WAL back into the store, and SQLite removes the ``-wal``
    and ``-shm`` files the read-only browsing made (a writer still at work keeps them)."""
    import sqlite3

    from reporting.store.schema import connect, read_only_query

    for database in app.databases.values():
        database.close()
    if read_only_query(path) is not None:
        return  # nothing was made beside a store on a read-only file system
    with suppress(InputError, sqlite3.Error):  # the store gone or busy: the files stay
        connect(path, create=False, wait=0).close()  # Ctrl-C waits for no writer


def _listen(host: str, port: int) -> list[socket.socket]:
    """Sockets listening on every address ``host`` names (as uvicorn would bind them), or
    one line saying why the address cannot be listened on: the port is taken, the address
    is not this machine's."""
    sockets: list[socket.socket] = []
    try:
        for family, _, _, _, address in socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        ):
            sockets.append(socket.create_server(address, family=family))
    except (OSError, UnicodeError) as error:  # UnicodeError: a name no host can have
        for listening in sockets:
            listening.close()
        if isinstance(error, UnicodeError):  # a label empty or past 63 characters (IDNA)
            reason = "no address of that name (not a host's name); give --host an IP address"
        elif isinstance(error, socket.gaierror):
            reason = f"no address of that name ({error.strerror}); give --host an IP address"
        else:
            reason = _CANNOT_LISTEN.get(error.errno or 0, error.strerror or str(error))
        raise InputError(f"cannot listen on {host}:{port}: {reason}") from None
    return sockets


@contextmanager
def _stopped_by_signals(server: Any) -> Iterator[list[str]]:
    """Inside, SIGINT, SIGTERM and SIGHUP stop the server (a second one, without waiting for
    the requests in progress), and the command ends well; one that comes before it runs
    stops it as soon as it starts. These handlers stand in for uvicorn's own, which would take
    SIGINT and SIGTERM even where the command was started ignoring them, and raise them
    again once stopped into that ignoring: the server stopped, "stopped" named no signal.
    The names of the signals received are in the list given."""
    received: list[str] = []

    def note(number: int, frame: FrameType | None) -> None:
        received.append(signal.Signals(number).name)
        if server.should_exit:  # a second stop: without waiting for the requests in progress
            server.force_exit = True
        server.should_exit = True

    # The signals that stop any command (a hang-up too), but one the command was started
    # ignoring (nohup, a job started with &), which stays ignored.
    stops = [number for number in STOP_SIGNALS if signal.getsignal(number) is not signal.SIG_IGN]
    previous = {number: signal.signal(number, note) for number in stops}
    server.capture_signals = nullcontext  # uvicorn's handlers: not installed
    try:
        yield received
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def address_of(host: str, port: int) -> str:
    """The address a browser opens: an IPv6 host in brackets (``http://[::1]:8001/``), its
    zone's ``%`` written ``%25``."""
    if ":" in host:
        return f"http://[{host.replace('%', '%25')}]:{port}/"
    return f"http://{host}:{port}/"
