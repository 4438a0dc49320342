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
    _refuse_no_file(written)
    path = Path(written)
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


def _refuse_no_file(written: str) -> None:
    """Refuse a PATH that names no file to make: a blank one (in the parsing's words for a
    path), a folder (``newdir/`` and ``newdir/.`` too: a :class:`~pathlib.Path` drops the
    closing part, and a file ``newdir`` was written), or one in a folder that is not there.
    The argument is text, not a path, for the closing part to be seen."""
    from reporting.files import standing_at

    if not written.strip():
        raise InputError("PATH is blank: name a file")
    path = Path(written)
    if path.is_dir():  # a link to a folder too: "x" would call it a file that exists
        raise InputError(f"{written}: is a folder; name a file such as {path / 'operator.toml'}")
    if written.endswith(("/", os.sep)) or os.path.basename(written) in (".", ".."):
        there = standing_at(path)
        if there is not None:
            raise InputError(f"{written}: names a folder, and {path} is {there}; name a file")
        raise InputError(
            f"{written}: names a folder, and there is none; name a file such as"
            f" {path / 'operator.toml'}"
        )
    what = standing_at(path.parent)
    if what is None:
        raise InputError(
            f"{written}: there is no folder {path.parent}; make it first, or name a file in a"
            " folder that exists"
        )
    if what != "a folder":
        raise InputError(
            f"{written}: {path.parent} is {what}, not a folder; name a file in a folder"
        )
