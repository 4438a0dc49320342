"""``baccarat-report ingest``: load round logs into the SQLite store."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from reporting.cli.common import (
    DEFAULT_DB,
    DEFAULT_DB_WAIT,
    EXIT_FINDINGS,
    EXIT_OK,
    EXIT_UNUSABLE,
    ConfigOption,
    DbOption,
    DbWaitOption,
    JsonOption,
    keep_apart,
    load_operator_config,
    print_json,
    progress_bars,
    stdout_console,
)
from reporting.cli.completion import complete_profile
from reporting.cli.failures import database_errors
from reporting.cli.logs import command_logger
from reporting.errors import counted, printable
from reporting.ingest.profiles.builtin import built_in_profiles

if TYPE_CHECKING:
    import sqlite3
    from collections.abc import Sequence

    from reporting.ingest.discovery import UnreadFile
    from reporting.ingest.profiles.model import Profile
    from reporting.ingest.sources import Source
    from reporting.store.load import IngestResult

SHOWN_REJECTS = 50


ProfileOption = Annotated[
    str,
    typer.Option(
        "--profile",
        metavar="NAME|FILE",
        autocompletion=complete_profile,
        help="How the files are written: a built-in log profile ("
        + ", ".join(built_in_profiles())
        + ") or a profile file. Default: spec, the round log of the spec.",
    ),
]


def ingest_command(
    paths: Annotated[
        list[Path],
        typer.Argument(
            metavar="PATH",
            help="Round logs: .jsonl, .jsonl.gz, rounds.csv + bets.csv, or folders.",
        ),
    ],
    db: DbOption = DEFAULT_DB,
    db_wait: DbWaitOption = DEFAULT_DB_WAIT,
    config: ConfigOption = None,
    profile: ProfileOption = "spec",
    as_json: JsonOption = False,
) -> None:
    """Load round logs (JSONL / JSONL.gz / CSV, or a provider's export through a log
    profile) into SQLite; bad lines are rejected and kept."""
    from reporting.ingest.discovery import discover_sources
    from reporting.ingest.profiles.loader import load_profile
    from reporting.store.faults import database_lock
    from reporting.store.load import ingest
    from reporting.store.schema import connect

    # The files named first, before any line could be logged into one of them.
    keep_apart({}, {f"the round log {path}": path for path in paths if not path.is_dir()})
    operator = load_operator_config(config)
    reader = load_profile(profile, configured=list(operator.games))
    sources = discover_sources(paths, reader)
    keep_apart({}, {f"the round log {file}": file for file in _files_of(sources)})
    unreadable = _unreadable_in_folders(paths, reader, sources)
    with database_errors(db):
        connection = connect(db, wait=db_wait)
        try:
            with (
                database_lock(db, db_wait, shared=True, done="loaded"),  # not in a monthly run
                progress_bars(quiet=as_json, unit="bytes") as bars,
            ):
                result = ingest(
                    connection,
                    sources,
                    operator,
                    progress=lambda source: bars.task(source.path.name, source.size),
                )
            _warn_read_otherwise(connection, sources, result)
        finally:
            connection.close()
    if as_json:
        print_json(ingest_document(result, unreadable))
        _log_file_warnings(result)  # as without --json: on stderr, in --log-file
    else:
        print_summary(result, db)
    raise typer.Exit(max(exit_code(result), EXIT_FINDINGS if unreadable else EXIT_OK))


def _files_of(sources: Sequence[Source]) -> list[Path]:
    """Every file the sources read: a log, or a CSV pair's two."""
    return [file for source in sources for file in (source.path, source.companion) if file]


def _warn_read_otherwise(
    connection: sqlite3.Connection, sources: Sequence[Source], result: IngestResult
) -> None:
    """Warn of each file skipped as known that the store read with another log profile than
    ``--profile`` names now, or with the same one as it was then (its file changed since), or
    as the spec's log: it said "already ingested, skipped" and nothing of the profile, and the
    operator who mended a profile took the store as read anew."""
    from reporting.store.load import read_with

    known = [item.sha256 for item in result.files if item.status == "already_ingested"]
    recorded = read_with(connection, known) if known else {}
    for source, item in zip(sources, result.files, strict=True):
        now = (
            (None, None)
            if source.profile is None
            else (source.profile.label, source.profile.sha256)
        )
        then = recorded.get(item.sha256, now)
        if then == now:
            continue
        said = [
            f"log profile {label}" if label else "the spec's round log" for label, _ in (then, now)
        ]
        if then[0] == now[0]:
            said[0] += " as its file was then (it has changed since)"
        command_logger().warning(
            "%s was read before as %s, not as %s now: a file is read once per store, known by"
            " its content, and its rounds stay as first read (a new store reads it as given now)",
            printable(item.file),
            *said,
        )


def exit_code(result: IngestResult) -> int:
    """Unusable (2) if a file could not be read, findings (1) if lines were rejected, else 0."""
    if result.failed:
        return EXIT_UNUSABLE
    return EXIT_FINDINGS if result.rejected_count else EXIT_OK


def _unreadable_in_folders(
    paths: Sequence[Path], profile: Profile | None, sources: Sequence[Source]
) -> list[UnreadFile]:
    """The files of the folders given that are not read, each once: what no reader can open (a
    FIFO, a link to nothing, a name that is not UTF-8, a link out of the folder), each said as
    a warning, as the monthly job's inbox does (it makes the exit 1); and of each folder that
    holds no round log (none of ``sources``), its files of other names than the reader
    (``profile``, None: the spec's) reads, said together, or that it holds none."""
    from reporting.ingest.discovery import unreadable_entries

    unreadable = [
        item for path in paths if path.is_dir() for item in unreadable_entries(path, profile)
    ]
    for item in unreadable:
        command_logger().warning("not read: %s", item)
    empty = [
        path
        for path in paths
        if path.is_dir() and not any(source.path.is_relative_to(path) for source in sources)
    ]
    said = [item.path for item in unreadable]
    unreadable += _say_what_the_folders_hold(empty, profile, said)
    # a folder given twice, or inside another given, lists its files once
    return list({item.path: item for item in unreadable}.values())


def _say_what_the_folders_hold(
    paths: Sequence[Path], profile: Profile | None, said: Sequence[Path]
) -> list[UnreadFile]:
    """No round log in the folders given: each folder's files of other names than the reader
    reads (a log named ``Rounds-2026-10.CSV`` or ``.ndjson``, say; ``profile``, None: the
    spec's names), the first few by name, as a warning, where the summary would only say that
    none was found (the files of other names a folder holds beside its logs are not asked for,
    and stay unsaid); or, when it holds nothing said already (``said``: an entry no reader
    opens, a link out of it), that it holds no round log. They are files not read, such a
    folder said as one: returned, for the exit code (1, as the monthly job's inbox) and the
    document."""
    from reporting.ingest.discovery import UnreadFile, names_read_by, not_read_by, unread_files
    from reporting.ingest.formats import expected_formats
    from reporting.verify.bearing import FILES_NAMED

    other_names = []
    for folder in (path for path in paths if path.is_dir()):
        if profile is None:
            found = [item for item in unread_files(folder) if item.path.is_file()]
            reads = f"read: {expected_formats()}"
        else:
            found = not_read_by(folder, profile)
            reads = f"the log profile {profile.label} reads {names_read_by(profile)}"
        if not found and any(path.is_relative_to(folder) for path in said):
            continue  # what it holds is said already, each entry as not read
        other_names += found or [UnreadFile(folder, "a folder that holds no round log")]
        names = [item.path.name for item in found]
        shown = ", ".join(printable(name) for name in names[:FILES_NAMED])
        more = f" and {len(names) - FILES_NAMED:,} more" if len(names) > FILES_NAMED else ""
        command_logger().warning(
            "%s holds no round log: %s",
            printable(str(folder)),
            f"{counted(len(names), 'file')} of other names ({reads}): {shown}{more}"
            if names
            else f"no file of the names read ({reads})",
        )
    return other_names


def ingest_document(result: IngestResult, unread: Sequence[UnreadFile] = ()) -> dict:
    """The ``ingest --json`` document; ``unread``: the files of the folders given that were not
    read (stderr's warnings): what no reader could open, and where a folder holds no round log,
    its files of other names."""
    return {
        "rounds_loaded": result.rounds_loaded,
        "bets_loaded": result.bets_loaded,
        "rounds_skipped_duplicate": result.rounds_skipped_duplicate,
        "rejected_count": result.rejected_count,
        "rejected": [
            {
                "file": reject.source_file,
                "line": reject.source_line,
                "reason": reject.reason,
                "message": reject.message,
                "round_id": reject.round_id,
            }
            for reject in result.rejected
        ],
        "rejected_truncated": len(result.rejected) < result.rejected_count,
        "files": [
            {
                "file": item.file,
                "sha256": item.sha256,
                "status": item.status,
                "rounds_loaded": item.rounds_loaded,
                "bets_loaded": item.bets_loaded,
                "rounds_by_month": dict(sorted(item.months.items())),
                # A file this run did not read (ingested before, or failed): null, not
                # the empty list that says "looked for, none found".
                "empty_fields": item.empty_fields if item.status == "loaded" else None,
                "fields_not_read": (
                    list(item.fields_not_read) if item.status == "loaded" else None
                ),
                "rounds_skipped_duplicate": item.rounds_skipped_duplicate,
                "rejected": item.rejected_count,
                "error": item.error,
            }
            for item in result.files
        ],
        "unread": [{"file": printable(str(item.path)), "reason": item.reason} for item in unread],
    }


def loaded_months(result: IngestResult, most: int = 6) -> str:
    """The months the run's rounds were loaded into, with their counts, in order (the first
    and last few of many): a profile's times read in the wrong unit load every round into
    1970-01 without a reject, which this line shows at once."""
    counts: dict[str, int] = {}
    for item in result.files:
        for month, count in item.months.items():
            counts[month] = counts.get(month, 0) + count
    shown = [f"{month} ({count:,})" for month, count in sorted(counts.items())]
    if len(shown) > most:
        shown = [*shown[: most // 2], f"... {len(shown) - most:,} more ...", *shown[-most // 2 :]]
    return ", ".join(shown)


def _log_file_warnings(result: IngestResult) -> None:
    """Each file's warnings and errors, on stderr and in ``--log-file``, with ``--json`` as
    without (a failed run's reason was in its JSON alone)."""
    for item in result.files:
        for empty in item.empty_fields:  # a path of the profile that matched nothing?
            command_logger().warning(
                "%s: %s: stored empty; a path of the log profile that matches nothing in the"
                " export stores every value so, without a reject",
                printable(item.file),
                printable(empty),
            )
        if item.fields_not_read:  # an exporter's own: what they hold is in no check
            command_logger().warning(
                "%s: fields not read, so in no figure and no check: %s (the tool reads the"
                " round log's fields; the audit names these)",
                printable(item.file),
                ", ".join(item.fields_not_read),
            )
    for item in result.failed:
        command_logger().error("not loaded: %s", item.error)


def print_summary(result: IngestResult, db: Path) -> None:
    """Per-file table, then every rejected line as ``path:line: reason: message``."""
    from reporting.cli.tables import FoldingTable

    console = stdout_console()
    table = FoldingTable(title=f"Ingest into {printable(str(db))}", title_justify="left")
    for header in ("File", "Status", "Rounds", "Bets", "Duplicates", "Rejected"):
        table.add_column(header, justify="left" if header in ("File", "Status") else "right")
    for item in result.files:
        status = {"already_ingested": "already ingested, skipped"}.get(item.status, item.status)
        table.add_row(
            printable(item.file),
            status,
            f"{item.rounds_loaded:,}",
            f"{item.bets_loaded:,}",
            f"{item.rounds_skipped_duplicate:,}",
            f"{item.rejected_count:,}",
        )
    console.print(table)
    months = loaded_months(result)
    if months:
        console.print(f"Rounds loaded by month (in each game's time zone): {months}")
    _log_file_warnings(result)
    rejects = result.rejected
    for reject in rejects[:SHOWN_REJECTS]:
        typer.echo(printable(f"{reject.source}: {reject.reason}: {reject.message}"))
    if result.rejected_count > SHOWN_REJECTS:
        console.print(
            f"... {result.rejected_count - SHOWN_REJECTS:,} more rejected lines: all are in the"
            " rejected_records table (--json lists the first 10,000)"
        )
    if not result.files:
        console.print("No round logs found in the given paths.")
    elif not result.rounds_loaded and not result.rejected_count and not result.failed:
        console.print(
            "Nothing loaded: the files read hold no round."
            if result.held_no_round
            else "Nothing new: every file or round was already loaded."
        )
