"""``baccarat-report init``: write a starter operator configuration (the shipped sample, with
its comments) and the sample logo it names beside it, never over an existing file."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

from reporting.errors import InputError


def init_command(
    written: Annotated[
        str,
        typer.Argument(
            metavar="PATH", help="Where to write it. Default: operator.toml in the working folder."
        ),
    ] = "operator.toml",
) -> None:
    """Write a starter configuration (the sample's games, with comments) to edit."""
    from reporting.config.keys import SCHEMA_PATH, STARTER_LOGO_PATH, STARTER_PATH

    text = STARTER_PATH.read_bytes()
    if not written:
        raise InputError("PATH is empty: name a file such as operator.toml")
    path = Path(written)  # which drops a closing "/": the folder it names is read from the text
    if path.is_dir() or written.endswith(("/", os.sep)):  # a link to a folder too
        raise InputError(
            f"{written}: {'is a folder' if path.is_dir() else 'names a folder, and there is none'};"
            f" name a file such as {path / 'operator.toml'}"
        )
    if not path.parent.is_dir():
        raise InputError(
            f"{written}: there is no folder {path.parent}; make it first, or name a file in a"
            " folder that exists"
        )
    try:
        # "x": created here or refused; an existing file, or a link (even a dangling one),
        # is never written through.
        with path.open("xb") as handle:
            handle.write(text)
        logo = path.parent / STARTER_LOGO_PATH.name
        if not logo.exists() and not logo.is_symlink():  # a logo of the operator's own stays
            with logo.open("xb") as handle:
                handle.write(STARTER_LOGO_PATH.read_bytes())
    except FileExistsError:
        raise InputError(
            f"{path}: already exists; not overwritten (remove it or name another file)"
        ) from None
    except OSError as error:
        raise InputError(f"{path}: cannot be written: {error.strerror or error}") from None
    typer.echo(f"wrote {path}: a starter configuration to edit")
    typer.echo(f"check it with: baccarat-report check --config {path}")
    typer.echo(f"editors can validate it with the JSON Schema {SCHEMA_PATH}")
