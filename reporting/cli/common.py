"""Options and output helpers shared by the commands."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from reporting.config.loader import OperatorConfig, default_config_path, load_config

#: Exit codes of every command (cli.md): done and clean; done, with findings, rejected lines or
#: warnings to act on; could not run (unusable input, or a bug).
EXIT_OK, EXIT_FINDINGS, EXIT_UNUSABLE = 0, 1, 2

ConfigOption = Annotated[
    Path | None,
    typer.Option(
        "--config",
        help="Operator configuration (TOML). Default: the shipped sample configuration.",
        dir_okay=False,
    ),
]
JsonOption = Annotated[
    bool, typer.Option("--json", help="Print one JSON document on stdout instead of tables.")
]


def load_operator_config(path: Path | None) -> OperatorConfig:
    """The configuration named by ``--config``, or the shipped default."""
    return load_config(path if path is not None else default_config_path())


def print_json(document: dict[str, Any]) -> None:
    """Write one JSON document to stdout."""
    json.dump(document, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")


DEFAULT_DB = Path("baccarat-report.sqlite")

DbOption = Annotated[
    Path,
    typer.Option("--db", help="SQLite database file.", dir_okay=False),
]


def stderr_console():
    """A rich console on stderr: colours and progress only when stderr is a terminal."""
    from rich.console import Console

    return Console(stderr=True, highlight=False)


def stdout_console():
    """A rich console on stdout; wide and colourless when stdout is not a terminal."""
    from rich.console import Console

    console = Console(highlight=False)
    if not console.is_terminal:
        console = Console(highlight=False, width=120, no_color=True)
    return console
