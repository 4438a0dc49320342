"""``baccarat-report export``: a columnar copy of the store for analysts (Parquet, by month,
game and table; see :mod:`reporting.store.parquet`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from reporting.cli.common import DB_ENVVAR, log_where_from


def export_command(
    db: Annotated[
        Path,
        typer.Option(
            "--db",
            metavar="FILE",
            envvar=DB_ENVVAR,
            callback=log_where_from,
            help="The store to copy.",
        ),
    ],
    parquet: Annotated[
        Path,
        typer.Option(
            "--parquet",
            help="Folder of the copy: new, empty, or an earlier copy (replaced whole).",
        ),
    ],
    month: Annotated[
        str | None, typer.Option(metavar="YYYY-MM", help="Only this reporting month. Default: all.")
    ] = None,
) -> None:
    """Write rounds, bets and findings as Parquet (report_month=/game_id=/table_id=
    partitions) for DuckDB, Spark or pandas."""
    from reporting.cli.failures import database_errors
    from reporting.cli.verify import check_month
    from reporting.store.parquet import export_parquet
    from reporting.store.schema import connect

    check_month(month)
    connection = connect(db, create=False)
    try:
        with database_errors(db):
            result = export_parquet(connection, parquet, month=month)
    finally:
        connection.close()
    for table, rows in result.rows.items():
        typer.echo(f"{table}: {rows:,} rows in {result.files[table]:,} files")
    typer.echo(f"wrote {result.folder}")
