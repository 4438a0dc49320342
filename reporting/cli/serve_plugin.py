"""What ``baccarat-report serve`` adds to Datasette, as Datasette's own plugin hooks.

* Every connection is bounded (:func:`reporting.store.query_bounds.bound_connection`): no
  query allocates past its bounds, none calls ``fts3_tokenizer()``.
* Only GET and HEAD are answered (405 otherwise): nothing here changes the store, and
  Datasette answers a POST to a table with a 500 and a traceback. At most
  :data:`~reporting.store.query_bounds.MAX_REQUESTS` are answered at once, the others wait
  their turn: the server's memory stays bounded whatever the number of clients.
* An error of the request (a page that does not exist, a query SQLite refused, one that
  needed more memory than allowed) is its page or JSON, with no traceback on the terminal;
  Datasette's own handler prints one for every 404, and fails on some.
* A money column (``*_cents``) of a row that has a currency, or a round, shows the amount in
  that currency (``€1,234.50``, in English as the pages are); a view's ``round_id`` links to
  the round's page (a table's links come from its foreign keys).
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
from collections.abc import Awaitable, Callable, Generator
from contextvars import ContextVar
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode

from datasette import hookimpl
from datasette.utils import tilde_encode
from datasette.utils.asgi import Base400, Response, asgi_send
from datasette.views.base import DatasetteError
from markupsafe import Markup

from reporting.config.languages import language
from reporting.config.values import SQLITE_MAX_INTEGER
from reporting.presentation.i18n import Formatter
from reporting.store.damage import CHANGED_OUTSIDE
from reporting.store.faults import database_fault
from reporting.store.query_bounds import (
    MAX_REQUESTS,
    MAX_RETURNED_ROWS,
    MAX_VALUE_BYTES,
    SQLITE_HEAP_BYTES,
    bound_connection,
)
from reporting.store.schema import changed_beneath, file_stamp
from reporting.store.sql import VIEW_NAMES

#: The HTTP methods answered: those that only read.
READ_METHODS = frozenset({"GET", "HEAD"})

#: The pages are in English, money as English writes it in Europe (``€1,234.50``).
_MONEY = Formatter(language("en").locale)

_ROW_NOT_NAMED = (
    "no such row: a row is named by each value of its table's primary key, joined by commas"
    " (a bet by its round and its bet id: /store/bets/R-1,B-1)"
)

_OUT_OF_MEMORY = (
    f"the query needed more memory than serve allows SQLite ({SQLITE_HEAP_BYTES // 2**20} MiB):"
    " ask for fewer or shorter values"
)


@hookimpl
def prepare_connection(conn: Any, database: str, datasette: Any) -> None:
    """Each connection Datasette opens is bounded."""
    bound_connection(conn)


@hookimpl
def asgi_wrapper(datasette: Any) -> Callable[[Any], Any]:
    """Refuse every method but GET and HEAD, before Datasette routes the request; answer at
    most :data:`~reporting.store.query_bounds.MAX_REQUESTS` at once; refuse every request
    once a store read as immutable (on a read-only file system) changed beneath it."""

    def wrap(app: Any) -> Any:
        turns = asyncio.Semaphore(MAX_REQUESTS)
        immutable: dict[Path, Any] = {}  # each store read as immutable, as first served

        async def read_only(scope: dict, receive: Any, send: Any) -> None:
            for db in getattr(datasette, "databases", {}).values():
                if not db.is_mutable and db.path and Path(db.path) not in immutable:
                    immutable[Path(db.path)] = file_stamp(Path(db.path))
            changed = [path for path, stamp in immutable.items() if file_stamp(path) != stamp]
            if scope["type"] != "http":
                await app(scope, receive, send)
            elif changed:  # another process wrote a store read where it is, as immutable
                await asgi_send(
                    send, f"503 Service Unavailable: {changed_beneath(changed[0])}\n", 503
                )
            elif scope["method"] not in READ_METHODS:
                await asgi_send(
                    send,
                    "405 Method Not Allowed: the store is read only (GET and HEAD)\n",
                    405,
                    headers={"Allow": ", ".join(sorted(READ_METHODS))},
                )
            else:
                async with turns:
                    await _answer(app, scope, receive, send)

        return read_only

    return wrap


async def _answer(app: Any, scope: dict, receive: Any, send: Any) -> None:
    """A request that only reads, its parameters read once: a database's CSV without a query
    refused (404), a table's CSV read whole (:func:`_whole_table_csv`), and whether a query's
    answer cannot say it was cut short known while it is made (:data:`_UNMARKED`)."""
    pairs = parse_qsl(scope.get("query_string", b"").decode("latin-1"), True)
    query = dict(pairs)  # each parameter by its last value, blank ones kept
    path = scope.get("path", "")
    if _DATABASE_CSV.fullmatch(path) and not query.get("sql"):
        await asgi_send(send, _NO_DATABASE_CSV, 404)
        return
    unmarked = _UNMARKED.set(_query_answer_without_mark(path, query))
    try:
        await app(_whole_table_csv(scope, pairs, query), receive, send)
    finally:
        _UNMARKED.reset(unmarked)


#: A database's page of CSV (``/store.csv``): a query's answer with ``?sql=``, else nothing
#: (Datasette's own answer was a 500 and a traceback).
_DATABASE_CSV = re.compile(r"/[^/]+\.csv")
_NO_DATABASE_CSV = (
    "404 Not Found: a database has no CSV of its own; a table's, a view's, or a query's"
    " (?sql=...) has\n"
)
#: A table's or a view's page of CSV: ``/store/bets.csv``.
_TABLE_CSV = re.compile(r"/[^/]+/[^/]+\.csv")
#: The JSON shapes that hold the rows alone, with no word of how many were left out.
_BARE_SHAPES = frozenset({"array", "arrayfirst"})

#: Whether the request being answered is a query's answer in a form that cannot say it was
#: cut short (set by :func:`_answer` for each request; read by
#: :func:`refuse_an_unmarked_cut`).
_UNMARKED: ContextVar[bool] = ContextVar("unmarked", default=False)


def _query_answer_without_mark(path: str, query: dict[str, str]) -> bool:
    """Whether a request asks for a query's answer (``?sql=``) as CSV (``/store.csv``) or as
    a JSON array (``_shape=array``), which hold the rows alone: Datasette says a query's
    answer was cut at its most rows on its page and in its JSON object, not in these. (The
    format is the path's: Datasette 0.65 reads no ``_format``.)"""
    bare = path.endswith(".json") and query.get("_shape") in _BARE_SHAPES
    return bool(query.get("sql")) and (path.endswith(".csv") or bare)


def _whole_table_csv(scope: dict, pairs: list[tuple[str, str]], query: dict[str, str]) -> dict:
    """A table's or a view's CSV read whole, page by page (``_stream=on``), when it asks for
    no page of its own: Datasette's download link asks for its largest page (``_size=max``)
    unless "stream all rows" is ticked, and the file ended there without a mark. A page
    asked for (``_size=10``, ``_next``) is kept; so is a stream asked for. ``pairs``: the
    request's parameters, and ``query`` each by its last value."""
    asked = query.get("_stream") or "_next" in query or query.get("_size", "max") != "max"
    if not _TABLE_CSV.fullmatch(scope.get("path", "")) or asked:
        return scope
    whole = [(key, value) for key, value in pairs if key != "_stream"] + [("_stream", "on")]
    return {**scope, "query_string": urlencode(whole).encode("latin-1")}


def refuse_an_unmarked_cut(truncated: bool) -> None:
    """Refuse a query's answer that Datasette cut at its most rows (``max_returned_rows``)
    in a form that cannot say so (:func:`_query_answer_without_mark`): the file ended there
    without a mark, and whoever downloaded it took it for the whole answer. Only a query's
    answer is ever cut: a table's page asks for one row more than it shows, and is read page
    by page."""
    if truncated and _UNMARKED.get():
        raise DatasetteError(
            f"the query returns more than {MAX_RETURNED_ROWS:,} rows, the most a query's answer"
            " holds, and a CSV file or a JSON array cannot say it was cut there: narrow the"
            " query (WHERE), or take it in parts (LIMIT and OFFSET); a table's or a view's"
            " CSV holds every row",
            title="Too many rows for a query's file",
            status=400,
        )


def refuse_an_unmarked_error(error: sqlite3.DatabaseError) -> None:
    """Say, as a 400, the error of a query SQLite refused whose answer would have been a
    file (:func:`_query_answer_without_mark`): Datasette answers such a CSV with an empty
    file and 200, and printed the error on the terminal alone."""
    if _UNMARKED.get() and error.args != ("interrupted",):  # a time limit: Datasette's page
        raise DatasetteError(
            f"SQLite refused the query: {error}", title="Invalid SQL", status=400
        ) from None


@hookimpl(wrapper=True)
def handle_exception(
    datasette: Any, request: Any, exception: BaseException
) -> Generator[None, list, list]:
    """An error of the request gets its page (or JSON, or a line of text for a CSV file) and
    nothing on the terminal; a bug keeps Datasette's 500 page and its traceback."""
    responses = yield
    error = _request_error(exception, _own_parameters(request), _past_integers(request))
    if error is None:
        return responses
    status, title, message, info = error

    async def page() -> Response:
        body = {**info, "ok": False, "error": message, "status": status, "title": title}
        if request.path.split("?")[0].endswith(".json"):
            return Response.json(body, status=status)
        if request.path.split("?")[0].endswith(".csv"):  # a file asked for: no page in it
            return Response.text(f"{status} {title or 'Error'}: {message}\n", status=status)
        template = datasette.jinja_env.select_template([f"{status}.html", "error.html"])
        context = {
            **body,
            "urls": datasette.urls,
            "app_css_hash": datasette.app_css_hash(),
            "menu_links": list,
        }
        return Response.html(await template.render_async(context), status=status)

    return [page]


def _request_error(
    exception: BaseException, parameters: str = "", numbers: str = ""
) -> tuple[int, str | None, str, dict] | None:
    """(status, title, message, extra JSON fields) of an error of the request, None for a
    bug.

    Datasette reads its own query parameters (``_sort``, ``_timelimit``, ``_next``, ...) and
    some it cannot read it answers with a 500 and a traceback: "Cannot sort table by nope"
    (a :class:`DatasetteError` of status 500), ``int("zz")``, a ``_next`` that is not its
    token. Such an error, of a request that gave such ``parameters`` and raised in Datasette's
    code (not this tool's), is the request's: 400, naming them, nothing on the terminal. So
    is a filter's number past SQLite's integers (``numbers``: ``stake_cents__gt=999...``),
    which its binding refused (OverflowError)."""
    if isinstance(exception, Base400):
        return exception.status, None, exception.args[0] if exception.args else "", {}
    if isinstance(exception, DatasetteError) and exception.status < 500:
        message = Markup(exception.message) if exception.message_is_html else exception.message
        return exception.status, exception.title, message, dict(exception.error_dict)
    if numbers and isinstance(exception, OverflowError):
        return (
            400,
            "Bad request",
            f"the address's {numbers} cannot be read: a number past SQLite's integers (at most"
            f" {SQLITE_MAX_INTEGER:,} either way)",
            {},
        )
    if isinstance(exception, sqlite3.ProgrammingError) and _raised_by_datasette(exception):
        # a row's page named by fewer values than its table's key (/store/bets/1): Datasette
        # binds the values it has, and SQLite finds one missing
        return 404, "Row not found", _ROW_NOT_NAMED, {}
    if isinstance(exception, MemoryError):  # SQLite's heap bound, or Python's own
        return 400, "Out of memory", _OUT_OF_MEMORY, {}
    store_fault = _store_fault(exception) if isinstance(exception, sqlite3.Error) else None
    if store_fault is not None:  # the store's, not the request's, nor a bug: said, no traceback
        return 500, *store_fault, {}
    if (
        parameters
        and isinstance(exception, DatasetteError | ValueError | KeyError)
        and _raised_by_datasette(exception)
    ):
        said = exception.message if isinstance(exception, DatasetteError) else str(exception)
        return 400, "Bad request", f"the address's {parameters} cannot be read: {said}", {}
    return None


def _store_fault(error: sqlite3.Error) -> tuple[str, str] | None:
    """(title, message) of a page for a fault of the store itself, None for another error.
    A damaged file is said in the words every command says it in
    (:func:`~reporting.store.faults.database_fault`)."""
    code = (getattr(error, "sqlite_errorcode", None) or 0) & 0xFF
    if code == sqlite3.SQLITE_TOOBIG:  # a value longer than serve reads (ingest writes none)
        return "A value too long", (
            f"a value of the store is longer than serve reads ({MAX_VALUE_BYTES:,} bytes),"
            f" which ingest never writes: the store was changed {CHANGED_OUTSIDE}"
        )
    if code == sqlite3.SQLITE_CORRUPT:  # a page of the file overwritten
        return "Damaged store", str(database_fault(error, "the store", real_path=False))
    return None


def _own_parameters(request: Any) -> str:
    """The request's parameters of Datasette's own (``_sort=nope``), as a message names them
    (at most 200 characters), or ``""``."""
    args = request.args
    return _named([f"{key}={args.get(key)}" for key in args if key.startswith("_")])


def _named(pairs: list[str]) -> str:
    """Parameters as a message names them: at most 200 characters."""
    shown = ", ".join(pairs)
    return shown if len(shown) <= 200 else shown[:199] + "…"


#: A whole number that may be past SQLite's integers (19 digits or more, as a filter's value
#: is written).
_WHOLE_NUMBER = re.compile(r"[+-]?[0-9]{19,}")


def _past_integers(request: Any) -> str:
    """The request's parameters whose value is a whole number past SQLite's integers
    (``stake_cents__gt=99999999999999999999``), as a message names them (at most 200
    characters), or ``""``."""
    args = request.args
    return _named(
        [
            f"{key}={value[:40]}"
            for key in args
            for value in args.getlist(key)
            if _WHOLE_NUMBER.fullmatch(value) and abs(int(value[:400])) > SQLITE_MAX_INTEGER
        ]
    )


def _raised_by_datasette(exception: BaseException) -> bool:
    """Whether the innermost frame of Datasette's or this tool's, where ``exception`` was
    raised, is Datasette's (its own code, or the standard library's parsers it called)."""
    owner = None
    frame = exception.__traceback__
    while frame is not None:
        module = frame.tb_frame.f_globals.get("__name__", "")
        if module.split(".")[0] in ("datasette", "reporting"):
            owner = module.split(".")[0]
        frame = frame.tb_next
    return owner == "datasette"


@hookimpl
def render_cell(
    row: Any, value: Any, column: str, table: str | None, database: str, datasette: Any
) -> Markup | Callable[[], Awaitable[Markup | None]] | None:
    """Money in its currency; a view's round id as a link to its round (a view has no
    foreign keys for Datasette to link by)."""
    if column.endswith("_cents") and isinstance(value, int) and not isinstance(value, bool):

        async def money() -> Markup | None:
            currency = await _currency(row, datasette.get_database(database))
            if currency is None:
                return None
            return Markup('<span title="{} cents">{}</span>').format(
                value, _MONEY.money(value, currency)
            )

        return money
    if column == "round_id" and table in VIEW_NAMES and isinstance(value, str):
        href = datasette.urls.row(database, "rounds", tilde_encode(value))
        return Markup('<a href="{}">{}</a>').format(href, value)
    return None


async def _currency(row: Any, database: Any) -> str | None:
    """The currency of a row's money: its own ``currency`` column, else its round's (every bet
    of a round is in its game's currency), else None (a void round without bets)."""
    currency, round_id = _value(row, "currency"), _value(row, "round_id")
    if isinstance(currency, str) or not isinstance(round_id, str):
        return currency if isinstance(currency, str) else None
    result = await database.execute(
        "SELECT currency FROM bets WHERE round_id = ? LIMIT 1", [round_id]
    )
    found = result.first()
    return None if found is None else found[0]


def _value(row: Any, column: str) -> Any:
    """A column's value in a row as Datasette hands it to a hook: a foreign key's cell is
    ``{"value": ..., "label": ...}`` on a table's page."""
    try:
        value = row[column]
    except (IndexError, KeyError):  # sqlite3.Row's, a dict's: no such column
        return None
    return value.get("value") if isinstance(value, dict) else value
