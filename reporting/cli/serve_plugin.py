"""What ``baccarat-report serve`` adds to Datasette, as Datasette's own plugin hooks.

* Every connection is bounded (:func:`reporting.store.query_bounds.bound_connection`): no
  query allocates past its bounds, none calls ``fts3_tokenizer()``.
* Only GET and HEAD are answered (405 otherwise): nothing here changes the store, and
  Datasette answers a POST to a table with a 500 and a traceback.
* An error of the request (a page that does not exist, a query SQLite refused, one that
  needed more memory than allowed) is its page or JSON, with no traceback on the terminal;
  Datasette's own handler prints one for every 404, and fails on some.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any

from datasette import hookimpl
from datasette.utils.asgi import Base400, Response, asgi_send
from datasette.views.base import DatasetteError
from markupsafe import Markup

from reporting.store.query_bounds import SQLITE_HEAP_BYTES, bound_connection

#: The HTTP methods answered: those that only read.
READ_METHODS = frozenset({"GET", "HEAD"})

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
    """Refuse every method but GET and HEAD, before Datasette routes the request."""

    def wrap(app: Any) -> Any:
        async def read_only(scope: dict, receive: Any, send: Any) -> None:
            if scope["type"] == "http" and scope["method"] not in READ_METHODS:
                await asgi_send(
                    send,
                    "405 Method Not Allowed: the store is read only (GET and HEAD)\n",
                    405,
                    headers={"Allow": ", ".join(sorted(READ_METHODS))},
                )
                return
            await app(scope, receive, send)

        return read_only

    return wrap


@hookimpl(wrapper=True)
def handle_exception(
    datasette: Any, request: Any, exception: BaseException
) -> Generator[None, list, list]:
    """An error of the request gets its page (or JSON) and nothing on the terminal; a bug
    keeps Datasette's 500 page and its traceback."""
    responses = yield
    error = _request_error(exception)
    if error is None:
        return responses
    status, title, message, info = error

    async def page() -> Response:
        body = {**info, "ok": False, "error": message, "status": status, "title": title}
        if request.path.split("?")[0].endswith(".json"):
            return Response.json(body, status=status)
        template = datasette.jinja_env.select_template([f"{status}.html", "error.html"])
        context = {
            **body,
            "urls": datasette.urls,
            "app_css_hash": datasette.app_css_hash(),
            "menu_links": list,
        }
        return Response.html(await template.render_async(context), status=status)

    return [page]


def _request_error(exception: BaseException) -> tuple[int, str | None, str, dict] | None:
    """(status, title, message, extra JSON fields) of an error of the request, None for a
    bug."""
    if isinstance(exception, Base400):
        return exception.status, None, exception.args[0] if exception.args else "", {}
    if isinstance(exception, DatasetteError) and exception.status < 500:
        message = Markup(exception.message) if exception.message_is_html else exception.message
        return exception.status, exception.title, message, dict(exception.error_dict)
    if isinstance(exception, MemoryError):  # SQLite's heap bound, or Python's own
        return 400, "Out of memory", _OUT_OF_MEMORY, {}
    return None
