"""``baccarat-report sample``: a realistic synthetic round log, optionally with known faults."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from reporting.cli.common import (
    ConfigOption,
    JsonOption,
    keep_apart,
    load_operator_config,
    print_json,
    progress_bars,
)
from reporting.cli.completion import complete_format, complete_game
from reporting.errors import InputError

# The formats, spelled here so that --help needs no import of the generator.
FORMATS = ("jsonl", "csv", "replay-api", "replay-api-jsonl", "numeric-feed", "flat-csv")

if TYPE_CHECKING:
    from reporting.sample import SampleSummary

OutOption = Annotated[
    Path,
    typer.Option(
        "--out",
        help=(
            "Log to write: FILE.jsonl or FILE.jsonl.gz, or a folder with --format csv; "
            "FILE.json(.gz) for replay-api and numeric-feed, FILE.jsonl(.gz) for "
            "replay-api-jsonl, FILE.csv(.gz) for flat-csv."
        ),
    ),
]
FormatOption = Annotated[
    str | None,
    typer.Option(
        "--format",
        metavar="|".join(FORMATS),
        autocompletion=complete_format,
        help=(
            "The spec's round log (jsonl, csv) or a provider's export shape. "
            "Default: jsonl, from the --out name."
        ),
    ),
]
FaultKindOption = Annotated[
    list[str] | None,
    typer.Option(
        "--fault-kind",
        metavar="KIND",
        help="With --faults: inject only this kind (repeatable). Default: every kind.",
    ),
]
ForceOption = Annotated[
    bool, typer.Option("--force", help="Replace a log already at --out (default: refuse it).")
]
GameOption = Annotated[
    list[str] | None,
    typer.Option(
        "--game",
        metavar="ID",
        autocompletion=complete_game,
        help="Generate only this configured game (repeatable). Default: every game.",
    ),
]


def sample_command(
    month: Annotated[
        str, typer.Option("--month", metavar="YYYY-MM", help="Reporting month to generate.")
    ],
    out: OutOption,
    tables: Annotated[
        int, typer.Option("--tables", min=1, max=99, metavar="N", help="Tables per game.")
    ] = 1,
    seed: Annotated[
        int, typer.Option("--seed", metavar="N", help="Random seed; same seed, same bytes.")
    ] = 0,
    faults: Annotated[
        int,
        typer.Option(
            "--faults",
            min=0,
            metavar="N",
            help="Inject N faults of every finding kind and reject reason (listed in a manifest).",
        ),
    ] = 0,
    rounds_per_day: Annotated[
        int | None,
        typer.Option(
            "--rounds-per-day",
            min=1,
            metavar="N",
            help="Rounds per table and day, dealt in sessions. Default: 24/7, ~1,920 a day.",
        ),
    ] = None,
    fmt: FormatOption = None,
    fault_kinds: FaultKindOption = None,
    games: GameOption = None,
    force: ForceOption = False,
    config: ConfigOption = None,
    as_json: JsonOption = False,
) -> None:
    """Write a realistic synthetic round log of a month for every configured game."""
    from reporting.sample import generate_month

    _check_options(month, fmt, out, config, force, faults, bool(fault_kinds))
    operator = load_operator_config(config)
    with progress_bars(quiet=as_json, unit="percent") as bars, _naming(out):
        summary = generate_month(
            operator,
            month,
            out,
            tables=tables,
            seed=seed,
            faults=faults,
            rounds_per_day=rounds_per_day,
            fmt=fmt,  # type: ignore[arg-type]
            progress=bars.task(f"sample {month}", total=None),
            fault_kinds=fault_kinds or None,
            games=games or None,
        )
    if as_json:
        print_json(summary.to_document())
    else:
        print_summary(summary)


@contextmanager
def _naming(out: Path) -> Iterator[None]:
    """A fault of the machine while the log is written (a full disk) names ``--out``."""
    from reporting.files import environment_fault

    try:
        yield
    except OSError as error:
        raise environment_fault(error, out, "write the sample there (nothing was kept)") from None


def _check_options(
    month: str,
    fmt: str | None,
    out: Path,
    config: Path | None,
    force: bool,
    faults: int,
    kinds: bool,
) -> None:
    """A bad month or format, fault ``kinds`` without ``faults``, an ``--out`` that is the
    configuration, a file of the sample that is ``--log-file``, or one already there (unless
    ``force``), fails before the configuration is read."""
    from reporting.sample import log_files, parse_month

    parse_month(month)
    if fmt is not None and fmt not in FORMATS:
        raise InputError(f"--format {fmt!r}: expected one of {', '.join(FORMATS)}")
    if kinds and not faults:
        raise InputError("--fault-kind picks the kinds of --faults N: give --faults too")
    keep_apart({"--out": out}, {"--config": config})  # before log_files reads its name
    files = [("--out", path) for path in log_files(out, fmt, faults=faults > 0) if path != out]
    keep_apart(files, {"--config": config})  # a CSV pair's files, the faults manifest
    if not force:
        _refuse_taken(out, fmt, faults)


def _refuse_taken(out: Path, fmt: str | None, faults: int) -> None:
    """A file already where the log goes (a real log in the inbox, say), or its fault
    manifest, stays, as ``init`` leaves a configuration: replaced only with ``--force``."""
    from reporting.sample import log_files

    for path in log_files(out, fmt, faults=faults > 0):
        if path.is_file() or path.is_symlink():  # a folder there: the writer says so
            raise InputError(
                f"{path}: already exists; not overwritten (pass --force to replace it, or name"
                " another file)"
            )


def print_summary(summary: SampleSummary) -> None:
    """A few lines: what was written, where, and which faults it carries."""
    typer.echo(
        f"{summary.month}: {summary.rounds:,} rounds, {summary.bets:,} bets, "
        f"{summary.void_rounds:,} void, seed {summary.seed} -> {summary.log}"
    )
    for game in summary.games:
        typer.echo(
            f"  {game.game}: {game.rounds:,} rounds, {game.bets:,} bets on "
            f"{', '.join(game.tables)}" + (f", {game.shoes} shoes" if game.shoes else "")
        )
    injected = {kind: count for kind, count in summary.faults.items() if count}
    if injected:
        listed = ", ".join(f"{kind} {count}" for kind, count in injected.items())
        typer.echo(f"  faults: {listed}")
        typer.echo(
            f"  {summary.rejected_lines} lines must be rejected; manifest: {summary.manifest}"
        )
    if summary.rounds_left_out:
        typer.echo(
            f"  {summary.rounds_left_out:,} rounds left out (no place for them in {summary.format})"
        )
    for kind, reason in summary.skipped_faults.items():
        typer.echo(f"  not injected: {kind} ({reason})")
