"""``baccarat-report export``: a columnar copy of the store for analysts (Parquet, by month,
game and table; see :mod:`reporting.store.parquet`).

A period without a round writes nothing and leaves an earlier copy as it was: a warning and
exit 1 (a month without play is for a person to look at, as in ``monthly``).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

from reporting.cli.common import (
    DEFAULT_DB,
    DEFAULT_DB_WAIT,
    EXIT_FINDINGS,
    DbOption,
    DbWaitOption,
)
from reporting.cli.logs import drop_log_file, log_file_path
from reporting.errors import InputError


def export_command(
    parquet: Annotated[
        Path,
        typer.Option(
            "--parquet",
            help="Folder of the copy: new, empty, or an earlier copy (replaced whole).",
        ),
    ],
    month: Annotated[
        str | None,
        typer.Option("--month", metavar="YYYY-MM", help="Only this reporting month. Default: all."),
    ] = None,
    db: DbOption = DEFAULT_DB,
    db_wait: DbWaitOption = DEFAULT_DB_WAIT,
) -> None:
    """Write rounds, bets and findings as Parquet (report_month=/game_id=/table_id=
    partitions) for DuckDB, Spark or pandas; exit 1 if the period has no rounds."""
    from reporting.cli.failures import database_errors
    from reporting.cli.logs import command_logger
    from reporting.cli.verify import check_month
    from reporting.store.parquet import NothingToExport, export_parquet
    from reporting.store.schema import connect

    check_month(month)
    copy_at = os.path.realpath(parquet)
    log = log_file_path()
    for option, path in (("--db", db), ("--log-file", log)):
        if path is not None and Path(os.path.realpath(path)).is_relative_to(copy_at):
            if option == "--log-file":
                drop_log_file()
            raise InputError(
                f"{option} {path} is inside --parquet {parquet}, which the export replaces"
                " whole: keep it outside"
            )
    connection = connect(db, create=False, wait=db_wait, read_only=True)
    try:
        with database_errors(db):
            result = export_parquet(connection, parquet, month=month)
    except NothingToExport as nothing:
        command_logger().warning("%s: %s", db, nothing)
        raise typer.Exit(EXIT_FINDINGS) from None
    finally:
        connection.close()
    for table, rows in result.rows.items():
        typer.echo(f"{table}: {rows:,} rows in {result.files[table]:,} files")
    typer.echo(f"wrote {result.folder}")
    if result.left is not None:
        command_logger().warning("%s", result.left)
