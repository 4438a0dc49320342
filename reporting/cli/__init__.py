"""The ``baccarat-report`` command line: a thin layer over the library, one module per command.

:func:`main` is the one boundary that turns expected errors (bad configuration, unusable input)
into a one-line message and exit code 2; any other exception is a bug and shows a traceback.
"""

from __future__ import annotations

import sys
import traceback

import typer

from reporting import __version__
from reporting.cli import check, disclose, ingest, init, monthly, odds, rules, sample, verify
from reporting.cli.common import EXIT_UNUSABLE
from reporting.config.loader import ConfigError
from reporting.errors import InputError

app = typer.Typer(
    name="baccarat-report",
    help="Compliance reporting for regulated online baccarat: exact odds, round-log ingest, "
    "payout verification, regulator disclosures and localized rule sheets.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"baccarat-report {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """Compliance reporting for regulated online baccarat."""


app.command(name="odds")(odds.odds_command)
app.command(name="sample")(sample.sample_command)
app.command(name="ingest")(ingest.ingest_command)
app.command(name="verify")(verify.verify_command)
app.command(name="disclose")(disclose.disclose_command)
app.command(name="rules")(rules.rules_command)
app.command(name="monthly")(monthly.monthly_command)
app.command(name="check")(check.check_command)
app.command(name="init")(init.init_command)


def main() -> None:
    """Run the CLI; expected errors become one line on stderr and exit code 2."""
    try:
        app()
    except ConfigError as error:
        for problem in error.problems:
            print(f"baccarat-report: configuration: {problem}", file=sys.stderr)
        sys.exit(EXIT_UNUSABLE)
    except InputError as error:
        print(f"baccarat-report: {error}", file=sys.stderr)
        sys.exit(EXIT_UNUSABLE)
    except Exception:
        # A bug, not bad input: show the traceback, and exit 2 (could not run) rather than
        # Python's 1, which a scheduler would read as "done, with findings".
        traceback.print_exc()
        print("baccarat-report: internal error (the traceback above is a bug)", file=sys.stderr)
        sys.exit(EXIT_UNUSABLE)
