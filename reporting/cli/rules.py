"""``baccarat-report rules``: localized rule sheets (PDF, XLSX, HTML) of the configured games."""

from __future__ import annotations

from contextlib import nullcontext
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from reporting import __version__
from reporting.cli.common import (
    DB_ENVVAR,
    DEFAULT_DB_WAIT,
    EXIT_FINDINGS,
    EXIT_OK,
    ConfigOption,
    DbWaitOption,
    JsonOption,
    keep_apart,
    load_publishing_config,
    log_where_from,
    make_folder,
    print_json,
)
from reporting.cli.completion import complete_formats, complete_game_or_all, complete_languages
from reporting.cli.disclose import parse_as_of
from reporting.cli.failures import database_errors
from reporting.cli.logs import command_logger
from reporting.config.languages import SUPPORTED_LANGUAGES
from reporting.errors import InputError

#: The formats of :data:`reporting.presentation.documents.FORMATS`, spelled here so that
#: --help needs no import of the renderers (a test holds the two equal).
FORMATS = ("pdf", "xlsx", "html")
EVERY_FORMAT = ",".join(FORMATS)

if TYPE_CHECKING:
    import sqlite3

    from reporting.config.operator import Operator
    from reporting.engine.games import GameSpec
    from reporting.presentation.documents import RenderedPage, WrittenDocument


LanguagesOption = Annotated[
    str | None,
    typer.Option(
        "--lang",
        metavar="CODE,...|all",
        autocompletion=complete_languages,
        help=f"Languages, comma-separated ({', '.join(SUPPORTED_LANGUAGES)}), or all. Default:"
        " each game's configured languages.",
    ),
]
FormatsOption = Annotated[
    str,
    typer.Option(
        "--format",
        metavar="pdf,xlsx,html",
        autocompletion=complete_formats,
        help="Formats, comma-separated.",
    ),
]
FiguresDbOption = Annotated[
    Path | None,
    typer.Option(
        "--db",
        metavar="FILE",
        envvar=DB_ENVVAR,
        callback=log_where_from,
        help="SQLite database of round logs: the ADM block's previous-month win percentage.",
        dir_okay=False,
    ),
]


def rules_command(
    game: Annotated[
        str,
        typer.Option(
            "--game",
            metavar="ID|all",
            autocompletion=complete_game_or_all,
            help="Game id from the configuration, or all.",
        ),
    ] = "all",
    lang: LanguagesOption = None,
    fmt: FormatsOption = EVERY_FORMAT,
    out: Annotated[
        Path,
        typer.Option(
            "--out", help="Folder to write <game>.<lang>.<ext> files into.", file_okay=False
        ),
    ] = ...,  # type: ignore[assignment]
    db: FiguresDbOption = None,
    db_wait: DbWaitOption = DEFAULT_DB_WAIT,
    as_of: Annotated[
        str | None,
        typer.Option(
            "--as-of",
            metavar="YYYY-MM-DD",
            help="Date the sheets are in force. Default: today in each game's time zone.",
        ),
    ] = None,
    config: ConfigOption = None,
    as_json: JsonOption = False,
) -> None:
    """Write the localized rule sheets of a game (or all games): every figure from the engine."""
    from reporting.config.languages import SUPPORTED_LANGUAGES

    operator = load_publishing_config(config)
    games = list(operator.games.values()) if game == "all" else [operator.game(game)]
    languages = _choices(lang, SUPPORTED_LANGUAGES, "--lang") if lang is not None else None
    formats = _choices(fmt, FORMATS, "--format")
    if as_of is not None:
        parse_as_of(as_of, "UTC")  # a bad date stops the command before anything is written
    if out.exists() and not out.is_dir():  # before the rendering, not after it
        raise InputError(f"--out {out}: not a folder")
    with database_errors(db) if db is not None else nullcontext():
        written, warnings = _write_sheets(
            games,
            languages,
            formats,
            out,
            (db, db_wait),
            as_of,
            as_json,
            publisher=operator.operator,
            config=operator.source,
        )
    _report(written, warnings, out, as_json)
    # A page that states something missing or in doubt is a finding of the run: exit 1.
    raise typer.Exit(EXIT_FINDINGS if warnings else EXIT_OK)


def _write_sheets(
    games: list[GameSpec],
    languages: tuple[str, ...] | None,
    formats: tuple[str, ...],
    out: Path,
    store: tuple[Path | None, float],
    as_of: str | None,
    as_json: bool,
    *,
    publisher: Operator,
    config: Path | None,
) -> tuple[list[dict], list[str]]:
    """Render each game's sheets (``languages`` None: its own), published by ``publisher``
    (the configuration's ``[operator]``), then write them all as one set: a sheet that cannot
    be rendered or written leaves the folder as it was, never with sheets of two dates side by
    side, and none is written over ``--db``, ``--config`` or ``--log-file``. The ``--json``
    file entries and the warnings, each once."""
    from reporting.figures.disclosure import disclose
    from reporting.figures.regulators import publishes_disclosure
    from reporting.presentation.documents import render_game_documents, write_documents
    from reporting.presentation.rulesheet import missing_words
    from reporting.store.schema import read_unchanged

    missing = [said for spec in games if (said := missing_words(spec, languages or spec.languages))]
    if missing:  # every game's at once, before a sheet is rendered
        raise InputError("; ".join(missing))
    connection = _connect(*store)
    pages: list[RenderedPage] = []
    days: dict[str, date] = {}
    warnings: list[str] = []
    try:
        for spec in games:
            day = days[spec.id] = parse_as_of(as_of, spec.timezone)
            disclosure = None
            if connection is not None and publishes_disclosure(spec):
                with read_unchanged(connection):  # a store read where it is, written elsewhere
                    disclosure = disclose(connection, spec, day)
            rendered = render_game_documents(
                spec,
                languages or spec.languages,
                formats,
                disclosure=disclosure,
                as_of=day,
                folder=out,
                tool_version=__version__,
                operator=publisher,
            )
            pages.extend(rendered.pages)
            warnings += [said for said in dict.fromkeys(rendered.warnings) if said not in warnings]
    finally:
        if connection is not None:
            connection.close()
    keep_apart([("--out", page.path) for page in pages], {"--db": store[0], "--config": config})
    make_folder(out, "--out")  # once every sheet is rendered: a run refused makes none
    documents = write_documents(pages)
    if not as_json:
        for document in documents:
            typer.echo(f"wrote {document.path}")
    return [_file_entry(document, days[document.game_id]) for document in documents], warnings


def _connect(db: Path | None, wait: float) -> sqlite3.Connection | None:
    """The round-log database of ``--db``, if given (it must exist), waiting ``wait`` seconds
    for another process's lock (``--db-wait``)."""
    if db is None:
        return None
    from reporting.store.schema import connect

    return connect(db, create=False, wait=wait, read_only=True)


def _file_entry(document: WrittenDocument, day: date) -> dict:
    """One entry of the ``files`` list of ``rules --json``."""
    return {
        "path": str(document.path),
        "game": document.game_id,
        "language": document.language,
        "format": document.format,
        "as_of": day.isoformat(),
        "bytes": document.size,
        "sha256": document.sha256,
    }


def _choices(text: str, known: tuple[str, ...], option: str) -> tuple[str, ...]:
    """``"it,en"`` -> ``("it", "en")``; ``"all"`` -> every known value; unknown ones refused."""
    if text.strip() == "all":
        return known
    values = tuple(dict.fromkeys(part.strip() for part in text.split(",") if part.strip()))
    unknown = [value for value in values if value not in known]
    if unknown or not values:
        raise InputError(
            f"{option} {text!r}: expected a comma-separated list of {', '.join(known)}, or all"
        )
    return values


def _report(written: list[dict], warnings: list[str], out: Path, as_json: bool) -> None:
    """The files written and the warnings (each page with one is marked as a draft)."""
    for warning in warnings:  # in the document with --json, and logged either way
        command_logger().warning("%s", warning)
    if as_json:
        print_json({"files": written, "warnings": warnings, "draft": bool(warnings)})
        return
    typer.echo(f"{len(written)} file(s) written to {out}")
    if warnings:
        typer.echo("marked as drafts, not for publication, until the warnings above are settled")
