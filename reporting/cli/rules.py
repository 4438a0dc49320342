"""``baccarat-report rules``: localized rule sheets (PDF, XLSX, HTML) of the configured games."""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path
from typing import Annotated

import typer

from reporting import __version__
from reporting.cli.common import ConfigOption, JsonOption, load_operator_config, print_json
from reporting.cli.disclose import parse_as_of
from reporting.config.languages import SUPPORTED_LANGUAGES
from reporting.errors import InputError
from reporting.figures.disclosure import disclose
from reporting.presentation.documents import FORMATS


def rules_command(
    game: Annotated[
        str,
        typer.Option("--game", metavar="ID|all", help="Game id from the configuration, or all."),
    ] = "all",
    lang: Annotated[
        str | None,
        typer.Option(
            "--lang",
            metavar="it,da,el,en|all",
            help="Languages, comma-separated, or all. Default: each game's configured languages.",
        ),
    ] = None,
    fmt: Annotated[
        str,
        typer.Option("--format", metavar="pdf,xlsx,html", help="Formats, comma-separated."),
    ] = ",".join(FORMATS),
    out: Annotated[
        Path,
        typer.Option(
            "--out", help="Folder to write <game>.<lang>.<ext> files into.", file_okay=False
        ),
    ] = ...,  # type: ignore[assignment]
    db: Annotated[
        Path | None,
        typer.Option(
            "--db",
            help="SQLite database of round logs: the ADM block's previous-month win percentage.",
            dir_okay=False,
        ),
    ] = None,
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
    operator = load_operator_config(config)
    games = list(operator.games.values()) if game == "all" else [operator.game(game)]
    languages = _choices(lang, SUPPORTED_LANGUAGES, "--lang") if lang else None
    formats = _choices(fmt, FORMATS, "--format")
    if as_of is not None:
        parse_as_of(as_of, "UTC")  # a bad date stops the command before anything is written
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise InputError(f"--out {out}: cannot create the folder ({error.strerror})") from None

    from reporting.presentation.documents import write_rule_sheet
    from reporting.presentation.rulesheet import build_rule_sheet

    connection = None
    if db is not None:
        from reporting.store.schema import connect

        connection = connect(db, create=False)
    written: list[dict] = []
    warnings: list[str] = []
    try:
        for spec in games:
            day = parse_as_of(as_of, spec.timezone)
            disclosure = (
                disclose(connection, spec, day)
                if connection is not None and spec.regulator == "ADM"
                else None
            )
            for language in languages or spec.languages:
                sheet = build_rule_sheet(
                    spec, language, disclosure=disclosure, as_of=day, tool_version=__version__
                )
                for warning in sheet.warnings:
                    if warning not in warnings:
                        warnings.append(warning)
                for extension in formats:
                    path = write_rule_sheet(sheet, extension, out)
                    data = path.read_bytes()
                    written.append(
                        {
                            "path": str(path),
                            "game": spec.id,
                            "language": language,
                            "format": extension,
                            "as_of": day.isoformat(),
                            "bytes": len(data),
                            "sha256": hashlib.sha256(data).hexdigest(),
                        }
                    )
                    if not as_json:
                        typer.echo(f"wrote {path}")
    finally:
        if connection is not None:
            connection.close()
    if as_json:
        print_json({"files": written, "warnings": warnings})
    else:
        for warning in warnings:
            print(f"baccarat-report: warning: {warning}", file=sys.stderr)
        typer.echo(f"{len(written)} file(s) written to {out}")


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
