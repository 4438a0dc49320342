"""Options and output helpers shared by the commands."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from reporting.config import OperatorConfig, default_config_path, load_config

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
