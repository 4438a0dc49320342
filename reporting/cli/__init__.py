"""The ``baccarat-report`` command line: a thin layer over the library, one module per command.

:func:`main` is the one boundary that turns expected failures (bad configuration, unusable
input, a fault of the environment such as a full disk or a locked database, SIGTERM or Ctrl-C)
into one line on stderr (and in ``--log-file``) and exit code 2; any other exception is a bug
and shows a traceback (see :mod:`reporting.cli.failures`).
"""

from __future__ import annotations

import atexit
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, cast

import typer

from reporting import __version__
from reporting.cli import (
    check,
    disclose,
    export,
    ingest,
    init,
    monthly,
    odds,
    rules,
    sample,
    serve,
    verify,
)
from reporting.cli.common import (
    EXIT_UNUSABLE,
    PlainArgumentsCommand,
    problems_shown,
    replace_what_stdout_cannot_encode,
)
from reporting.cli.failures import (
    Stopped,
    describe_failure,
    install_signal_handlers,
    loaded_class,
)
from reporting.cli.logs import (
    command_logger,
    configure_logging,
    console_level,
    ensure_logging,
    let_go_at_exit,
    writable,
)
from reporting.cli.parsing import PlainValuesCommand, PlainValuesGroup
from reporting.errors import stopped_statement

if TYPE_CHECKING:
    from reporting.config.loader import ConfigError

#: The options that show help, on the root and on every command.
HELP_OPTIONS = ["-h", "--help"]

app = typer.Typer(
    name="baccarat-report",
    cls=PlainValuesGroup,
    help="Compliance reporting for regulated online baccarat: exact odds, round-log ingest, "
    "payout verification, regulator disclosures and localized rule sheets.",
    no_args_is_help=True,
    # typer's own completion (--install-completion, --show-completion: bash, zsh, fish,
    # PowerShell) rather than a command of ours: it stays in step with the commands and options
    # by construction.
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": HELP_OPTIONS},
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"baccarat-report {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version", "-V", callback=_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
    log_file: Annotated[
        Path | None,
        typer.Option(
            "--log-file",
            metavar="PATH",
            dir_okay=False,
            help="Also append every warning and error (and monthly's steps), timestamped, to"
            " PATH (its folder is made if missing). Default: stderr only.",
        ),
    ] = None,
    quiet: Annotated[
        int,
        typer.Option(
            "--quiet",
            "-q",
            count=True,
            show_default=False,
            help="Fewer lines on stderr: warnings and errors only (-qq: errors only).",
        ),
    ] = 0,
    verbose: Annotated[
        int,
        typer.Option(
            "--verbose",
            "-v",
            count=True,
            show_default=False,
            help="More lines on stderr: also where --db and --config came from.",
        ),
    ] = 0,
) -> None:
    """Compliance reporting for regulated online baccarat."""
    configure_logging(log_file, console_level(quiet, verbose))


app.command(name="odds", cls=PlainValuesCommand)(odds.odds_command)
app.command(name="sample", cls=PlainValuesCommand)(sample.sample_command)
app.command(name="ingest", cls=PlainArgumentsCommand)(ingest.ingest_command)
app.command(name="verify", cls=PlainValuesCommand)(verify.verify_command)
app.command(name="disclose", cls=PlainValuesCommand)(disclose.disclose_command)
app.command(name="rules", cls=PlainValuesCommand)(rules.rules_command)
app.command(name="monthly", cls=PlainValuesCommand)(monthly.monthly_command)
app.command(name="check", cls=PlainValuesCommand)(check.check_command)
app.command(name="init", cls=PlainArgumentsCommand)(init.init_command)
app.command(name="serve", cls=PlainValuesCommand)(serve.serve_command)
app.command(name="export", cls=PlainValuesCommand)(export.export_command)


def main() -> None:
    """Run the CLI; expected failures become one line on stderr and exit code 2."""
    install_signal_handlers()
    atexit.register(let_go_at_exit)
    if sys.stdout is None:  # started with its standard output closed (>&-): Python's None
        ensure_logging()
        command_logger().error(
            "the standard output is closed: the command's result would be lost (send it to"
            " /dev/null to discard it)"
        )
        sys.exit(EXIT_UNUSABLE)
    replace_what_stdout_cannot_encode()
    try:
        show_command_help(sys.argv[1:])
        app()
    except Stopped as stop:
        ensure_logging()
        command_logger().error("%s", stop.message())
        sys.exit(EXIT_UNUSABLE)
    except Exception as error:
        ensure_logging()
        if isinstance(error, OSError) and error.filename is None and _writing_stdout(error):
            command_logger().error(
                "the standard output cannot be written (%s): the command's result is lost;"
                " what it did besides (a month's reports, a store) is kept",
                (error.strerror or str(error)).lower(),
            )
        else:
            _report_failure(error)
        sys.exit(EXIT_UNUSABLE)


def _writing_stdout(error: OSError) -> bool:
    """Whether ``error`` was met writing the standard output (a full disk, a device that
    takes nothing): the innermost frames it went through hold stdout, or the console or
    stream that writes to it; or stdout still holds bytes it cannot write."""
    stdout = sys.stdout
    targets = {id(stdout), id(getattr(stdout, "buffer", None))}
    frames = []
    trace = error.__traceback__
    while trace is not None:
        frames.append(trace.tb_frame)
        trace = trace.tb_next
    for frame in frames[-3:]:
        for value in frame.f_locals.values():
            if id(value) in targets or id(getattr(value, "file", None)) in targets:
                return True
    return not writable(stdout)


def show_command_help(arguments: list[str]) -> None:
    """``baccarat-report COMMAND --help`` (or ``-h``) and nothing else: the command's help,
    printed by typer as always, then exit 0; any other command line returns.

    Before it hands over to a command, typer coerces each option of the root (``--log-file``,
    ``--version``, its help and completion flags) through pydantic, even those not given:
    that import alone costs more than the rest of the help (about 0.08 s of 0.17 s). With
    only a command and its help option on the line the root has nothing to parse and its
    callback nothing to do, so the command is shown alone, under the name typer gives it.
    Only for the installed script (``python -m reporting`` takes the usual way).
    """
    if len(arguments) != 2 or arguments[1] not in HELP_OPTIONS:
        return
    if getattr(sys.modules["__main__"], "__package__", None):  # python -m: click names it so
        return
    group = typer.main.get_command(app)
    commands = group.commands if isinstance(group, typer.core.TyperGroup) else {}
    command = commands.get(arguments[0])
    if command is None:
        return  # typer's own message for an unknown command
    program = Path(sys.argv[0]).name  # click's name for a script: its file name
    command.main(
        [arguments[1]], prog_name=f"{program} {arguments[0]}", help_option_names=HELP_OPTIONS
    )


def _report_failure(error: Exception) -> None:
    """A failed command's lines on stderr (and in ``--log-file``): each problem of a
    configuration with its place, a signal's stop, an expected failure's one line, or a bug's
    traceback."""
    config_error = loaded_class("reporting.config.loader", "ConfigError")
    if config_error is not None and isinstance(error, config_error):
        problems = cast("ConfigError", error)
        shown, rest = problems_shown(problems.problems)
        for problem in shown:
            command_logger().error("%s: %s", problems.label, problem)
        if rest is not None:
            command_logger().error("%s", rest)
        return
    stop = _stopped_under(error)
    if stop is not None:
        # A signal that landed while a transaction was ending (say right after COMMIT):
        # the clean-up it set off failed, not the work.
        command_logger().error("%s", stop.message())
        return
    message = describe_failure(error)
    if message is None:
        # A bug, not bad input: show the traceback, and exit 2 (could not run) rather than
        # Python's 1, which a scheduler would read as "done, with findings".
        command_logger().error("internal error (the traceback above is a bug)", exc_info=error)
    else:
        command_logger().error("%s", message)


def _stopped_under(error: BaseException) -> Stopped | None:
    """The signal whose unwinding raised ``error``, or that broke off its SQLite statement,
    if any."""
    seen: BaseException | None = error
    while seen is not None:
        if isinstance(seen, Stopped):
            return seen
        broken_off = stopped_statement(seen)  # said as a fault of the store on its way out
        if broken_off is not None:
            return broken_off
        seen = seen.__context__
    return None
