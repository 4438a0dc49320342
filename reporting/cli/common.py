"""Options and output helpers shared by the commands.

Light on purpose: every command module imports it at its top, and ``--help`` imports every
command module, so this module imports typer and the standard library only. What a helper
needs beyond that (the configuration loader, rich) it imports when it runs; the tables,
which subclass rich's, live in :mod:`reporting.cli.tables` (``FoldingTable`` is still
importable from here, loaded on first use).
"""

from __future__ import annotations

import codecs
import json
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer
import typer.core

from reporting.cli.parsing import PlainValuesCommand
from reporting.errors import InputError, counted

if TYPE_CHECKING:
    from reporting.cli.tables import FoldingTable
    from reporting.config.loader import OperatorConfig
    from reporting.verify.partitions import Workers

__all__ = [
    "DEFAULT_DB",
    "DEFAULT_DB_WAIT",
    "CONFIG_ENVVAR",
    "DB_ENVVAR",
    "DEFAULT_WORKER_WAIT",
    "EXIT_FINDINGS",
    "EXIT_OK",
    "EXIT_UNUSABLE",
    "ConfigOption",
    "DbOption",
    "DbWaitOption",
    "MAX_JOBS",
    "MAX_WAIT",
    "FoldingTable",
    "JobsOption",
    "JsonOption",
    "PlainArgumentsCommand",
    "ProgressTasks",
    "SchedulerOption",
    "WorkerWaitOption",
    "load_operator_config",
    "load_publishing_config",
    "log_where_from",
    "make_folder",
    "print_json",
    "progress_bars",
    "stderr_console",
    "stdout_console",
    "verification_workers",
]

#: The environment variables that stand for ``--db`` and ``--config`` when they are not given
#: (a cron line or a systemd unit sets them once for every command).
DB_ENVVAR, CONFIG_ENVVAR = "BACCARAT_REPORT_DB", "BACCARAT_REPORT_CONFIG"


def log_where_from(ctx: typer.Context, param: typer.CallbackParam, value: Any) -> Any:
    """``--db`` and ``--config`` as a command takes them, with where each came from, in the
    log at debug level (``-v``): the command line, its environment variable, or the default."""
    import logging

    from reporting.cli.logs import command_logger

    if value is not None:
        keep_apart({}, {param.opts[0]: Path(value)})  # --log-file must not append to it
    logger = command_logger()
    if not logger.isEnabledFor(logging.DEBUG):
        return value
    source = ctx.get_parameter_source(param.name or "")
    origin = {"COMMANDLINE": "given", "ENVIRONMENT": f"from {param.envvar}"}.get(
        getattr(source, "name", ""), "the default"
    )
    shown = value
    if value is None and param.name == "config":
        from reporting.config.loader import default_config_path

        shown = default_config_path()
    logger.debug("%s %s (%s)", param.opts[0], shown or "none", origin)
    return value


def keep_apart(
    outputs: Mapping[str, Path | None] | Iterable[tuple[str, Path | None]],
    inputs: dict[str, Path | None],
) -> None:
    """Refuse, in one line and before any work, an output file that is one of the run's
    inputs (``--db`` with its -wal, -shm and lock files, ``--config``, a round log), another
    output, or the file ``--log-file`` appends to; and a log file that is one of the inputs.
    Each would be replaced, or appended to, without a word: ``--workbook store.sqlite``
    turned the store into a workbook. ``outputs``: each file written by what names it (an
    option, or the files an option's folder gets, several under one name)."""
    from reporting.cli.logs import drop_log_file, log_file_path
    from reporting.files import refuse_unless_replaceable, same_file

    named = [(option, path) for option, path in inputs.items() if path is not None]
    for option, path in list(named):
        if option == "--db":  # beside the file as typed, and beside the one it links to
            for at in {str(path), os.path.realpath(path)}:
                named += [(f"--db's {s.strip('-.')} file", Path(f"{at}{s}")) for s in _BESIDE_DB]
    log = log_file_path()
    pairs = outputs.items() if isinstance(outputs, Mapping) else outputs
    written = [(option, path) for option, path in pairs if path is not None]
    for option, path in written:  # a FIFO or device there would be taken away
        refuse_unless_replaceable(path, option)
    for index, (option, path) in enumerate(written):
        for other, taken in [*named, *written[:index], *([("--log-file", log)] if log else [])]:
            if same_file(path, taken):
                if other == "--log-file":
                    drop_log_file()
                raise InputError(
                    f"{option} {path} is the file of {other}, which it would replace: name"
                    " another file"
                )
    for other, taken in named if log is not None else ():
        if same_file(log, taken):
            drop_log_file()
            raise InputError(
                f"--log-file {log} is the file of {other}, which the log would be appended"
                " to: name another file"
            )


#: The files SQLite and this tool keep beside a store.
_BESIDE_DB = ("-wal", "-shm", "-journal", ".lock")


#: Exit codes of every command (cli.md): done and clean; done, with findings, rejected lines or
#: warnings to act on; could not run (unusable input, or a bug).
EXIT_OK, EXIT_FINDINGS, EXIT_UNUSABLE = 0, 1, 2

#: ``--config``: a folder or a device is taken too, and the loader says what stands there
#: (``is a folder, not a configuration file``), in ``check``'s JSON document as well; click
#: refused a folder with its own line, and ``check --json`` printed no document.
ConfigOption = Annotated[
    Path | None,
    typer.Option(
        "--config",
        metavar="FILE",
        envvar=CONFIG_ENVVAR,
        callback=log_where_from,
        help="Operator configuration (TOML). Default: the shipped sample configuration"
        " (sample_data/operator.toml in a source checkout, its copy in the package otherwise).",
    ),
]
#: The most worker processes ``--jobs`` starts: each is a process of its own, and a number
#: typed wrong (99999999) forked without end.
MAX_JOBS = 256

JobsOption = Annotated[
    int | None,
    typer.Option(
        "--jobs",
        min=1,
        max=MAX_JOBS,
        metavar="N",
        help="Worker processes that verify the month's tables side by side; the result is"
        " the same whatever N. Default: the cores available (1 for fewer than 50,000"
        " rounds).",
    ),
]
SchedulerOption = Annotated[
    str | None,
    typer.Option(
        "--scheduler",
        metavar="ADDRESS",
        help="Verify on a Dask cluster instead (e.g. tcp://HOST:8786; needs the [dask]"
        " extra), its workers reading the round logs from shared storage.",
    ),
]
LogsOption = Annotated[
    str | None,
    typer.Option(
        "--logs",
        metavar="URL",
        help="With --scheduler: where the Dask workers find the round logs, the store's file"
        " names under it (a folder, or a URL such as s3://bucket/prefix). Default: the folder"
        " the command runs in (monthly: the inbox).",
    ),
]
#: Seconds a run on a Dask cluster waits while the scheduler has no worker, then stops (the
#: library's own default, reporting.verify.distributed.DEFAULT_WORKER_WAIT, is the same).
DEFAULT_WORKER_WAIT = 60.0

#: The longest wait ``--worker-wait`` and ``--db-wait`` take: a day (SQLite's busy timeout
#: holds some 24 days, Dask's clock no infinity).
MAX_WAIT = 86_400.0

WorkerWaitOption = Annotated[
    float,
    typer.Option(
        "--worker-wait",
        min=0.1,
        max=MAX_WAIT,
        metavar="SECONDS",
        help="With --scheduler: seconds to wait while the Dask scheduler has no worker (at the"
        " start, or once every worker has died), then stop with one line, storing nothing.",
    ),
]
JsonOption = Annotated[
    bool, typer.Option("--json", help="Print one JSON document on stdout instead of tables.")
]


class PlainArgumentsCommand(PlainValuesCommand):
    """A command whose usage line and help name each argument as a person writes it:
    ``ingest [OPTIONS] PATH...``, ``init [OPTIONS] [PATH]`` (typer writes ``{paths}...`` and
    ``paths... <list[Path]>``)."""

    def collect_usage_pieces(self, ctx: typer.Context) -> list[str]:
        """``[OPTIONS]``, then each argument: ``PATH...`` if required, ``[PATH]`` if not."""
        pieces = [self.options_metavar] if self.options_metavar else []
        for param in self.get_params(ctx):
            if param.param_type_name == "argument":
                shown = _argument_name(param)
                pieces.append(shown if param.required else f"[{shown}]")
            else:
                pieces.extend(param.get_usage_pieces(ctx))
        return pieces

    def format_options(self, ctx: typer.Context, formatter: Any) -> None:
        """The Arguments section (each by its plain name), then the Options, as typer has
        them."""
        arguments, options = [], []
        for param in self.get_params(ctx):
            record = param.get_help_record(ctx)
            if record is None:
                continue
            if param.param_type_name == "argument":
                arguments.append((_argument_name(param), record[1]))
            else:
                options.append(record)
        for title, records in (("Arguments", arguments), ("Options", options)):
            if records:
                with formatter.section(title):
                    formatter.write_dl(records)


def _argument_name(argument: Any) -> str:
    """``PATH``, or ``PATH...`` for an argument taking several: its metavar, else its name."""
    name = argument.metavar or (argument.name or "").upper()
    return f"{name}..." if argument.nargs != 1 else name


def load_operator_config(path: Path | None) -> OperatorConfig:
    """The configuration named by ``--config``, or the shipped default."""
    from reporting.config.loader import default_config_path, load_config

    return load_config(path if path is not None else default_config_path())


def load_publishing_config(path: Path | None) -> OperatorConfig:
    """The configuration of a command that writes pages: as :func:`load_operator_config`,
    and refused, every problem at once, when a game's pages would print two bets under one
    name (:func:`~reporting.presentation.bet_words.located_name_clashes`), before any work."""
    from reporting.config.loader import ConfigError
    from reporting.presentation.bet_words import located_name_clashes

    config = load_operator_config(path)
    problems = located_name_clashes(config)
    if problems:
        raise ConfigError(problems)
    return config


def make_folder(folder: Path, option: str) -> None:
    """The folder an option names, made with its parents; an input error if it cannot be."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise InputError(
            f"{option} {folder}: cannot create the folder ({error.strerror})"
        ) from None


_Shown = TypeVar("_Shown")

#: The problems of a configuration or a log profile a terminal is shown one by one; the rest
#: are counted (a file of 50,000 unknown keys was 50,000 lines), and ``check --json`` lists
#: every one.
PROBLEMS_SHOWN = 50


def problems_shown(problems: Sequence[_Shown]) -> tuple[list[_Shown], str | None]:
    """The first :data:`PROBLEMS_SHOWN` of ``problems``, and the line that counts the rest
    (None when every one is shown)."""
    if len(problems) <= PROBLEMS_SHOWN:
        return list(problems), None
    more = counted(len(problems) - PROBLEMS_SHOWN, "more problem")
    return list(problems[:PROBLEMS_SHOWN]), f"and {more}, not shown (check --json lists every one)"


def stdout_takes_unicode() -> bool:
    """Whether stdout's encoding writes every character (UTF-8, UTF-16, ...): not so under a
    legacy locale (``LANG=en_US.ISO-8859-1``) or ``PYTHONIOENCODING=ascii``."""
    encoding = getattr(sys.stdout, "encoding", None) or "ascii"
    try:
        return codecs.lookup(encoding).name.startswith("utf")
    except LookupError:
        return False


def replace_what_stdout_cannot_encode() -> None:
    """Under an encoding that cannot write every character, stdout writes a ``?`` for one it
    cannot (a table's ``±``, a Greek game's name) instead of stopping the command after its
    work with UnicodeEncodeError (``--json`` escapes them instead: :func:`print_json`)."""
    if not stdout_takes_unicode() and hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(errors="replace")


def print_json(document: dict[str, Any]) -> None:
    """Write one JSON document to stdout: its characters as they are, or escaped (``\\u00b1``)
    where stdout's encoding cannot write them all, so that no character of it is lost."""
    json.dump(document, sys.stdout, ensure_ascii=not stdout_takes_unicode(), indent=2)
    sys.stdout.write("\n")


DEFAULT_DB = Path("baccarat-report.sqlite")

DbOption = Annotated[
    Path,
    typer.Option(
        "--db",
        metavar="FILE",
        envvar=DB_ENVVAR,
        callback=log_where_from,
        show_default=False,
        help=f"SQLite database file. Default: {DEFAULT_DB} in the working folder.",
        dir_okay=False,
    ),
]

#: Seconds a command waits for the database while another process writes to it (SQLite's
#: busy timeout), before it stops with one line (exit 2).
DEFAULT_DB_WAIT = 60.0

DbWaitOption = Annotated[
    float,
    typer.Option(
        "--db-wait",
        min=0,
        max=MAX_WAIT,
        metavar="SECONDS",
        help="Seconds to wait while another process writes to the database, then stop.",
    ),
]


def stderr_console():
    """A rich console on stderr: colours and progress only when stderr is a terminal. Markup
    and emoji codes are off: a file name such as ``[/bold]`` or ``:x:`` prints as it is."""
    from rich.console import Console

    return Console(stderr=True, highlight=False, markup=False, emoji=False)


def stdout_console():
    """A rich console on stdout; colourless and 120 wide when stdout is not a terminal. Markup and
    emoji codes are off, so user text (paths, ids, names) in a table or title is never parsed."""
    from rich.console import Console

    console = Console(highlight=False, markup=False, emoji=False)
    if not console.is_terminal:
        console = Console(highlight=False, width=120, no_color=True, markup=False, emoji=False)
    return console


def __getattr__(name: str) -> Any:
    """``FoldingTable``, imported from :mod:`reporting.cli.tables` (and rich) on first use."""
    if name == "FoldingTable":
        from reporting.cli.tables import FoldingTable

        return FoldingTable
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class ProgressTasks:
    """The tasks of one progress display: :meth:`task` gives the callback that moves a bar."""

    def __init__(self, bar: Any | None) -> None:
        self._bar = bar

    @property
    def watched(self) -> bool:
        """Whether the bars are shown (worth counting a total for)."""
        return self._bar is not None

    def task(self, label: str, total: float | None) -> Callable[[float, float | None], None]:
        """A new bar named ``label`` (shown as typed: never read as markup); call the result
        with ``(done, total)`` as work goes on (``total`` None keeps the last one)."""
        if self._bar is None:
            return _no_progress
        bar = self._bar
        task = bar.add_task(label, total=total)

        def update(done: float, total: float | None = None) -> None:
            bar.update(task, completed=done, total=total)

        return update


def _no_progress(done: float, total: float | None = None) -> None:
    """Progress that nobody watches."""


@contextmanager
def progress_bars(*, quiet: bool = False, unit: str = "count") -> Iterator[ProgressTasks]:
    """Progress bars on stderr, for long work, only where a person watches: never when stderr
    is not a terminal (cron, systemd, a pipe) and never with ``quiet`` (pass ``as_json``).

    ``unit`` is ``"bytes"`` (done / total in bytes), ``"count"`` (done / total items) or
    ``"percent"`` (for totals that mean nothing to a reader, such as milliseconds). Use::

        with progress_bars(quiet=as_json) as bars:
            advance = bars.task("verify 2026-10", total=rounds)
            ...
            advance(done)

    The bars vanish when the block ends, leaving stdout and the log untouched.
    """
    console = stderr_console()
    if quiet or not console.is_terminal:
        yield ProgressTasks(None)
        return
    from rich.progress import (
        BarColumn,
        DownloadColumn,
        MofNCompleteColumn,
        Progress,
        TaskProgressColumn,
        TextColumn,
        TimeRemainingColumn,
    )

    amount = {
        "bytes": DownloadColumn,
        "count": MofNCompleteColumn,
        "percent": TaskProgressColumn,
    }[unit]()
    with Progress(
        TextColumn("{task.description}", markup=False),
        BarColumn(),
        amount,
        TimeRemainingColumn(),
        console=console,
        transient=True,
    ) as bar:
        yield ProgressTasks(bar)


def verification_workers(
    jobs: int | None,
    scheduler: str | None,
    logs: str | None = None,
    worker_wait: float = DEFAULT_WORKER_WAIT,
) -> Workers:
    """Where the partitions run: on the Dask cluster of ``--scheduler`` (its workers reading
    the round logs under ``--logs``, waited for ``--worker-wait`` seconds when there are
    none; a partition whose log changed since the ingest is checked here, said in a warning
    line), or in ``--jobs`` worker processes here (default: the cores available)."""
    from reporting.verify.partitions import Workers

    if scheduler is not None:
        from reporting.cli.logs import command_logger
        from reporting.verify.distributed import dask_runner

        note = command_logger().warning  # a partition whose log changed, checked here
        return Workers(1, dask_runner(scheduler, logs, worker_wait=worker_wait, note=note))
    if logs is not None:
        raise InputError("--logs is where Dask workers read the round logs: it needs --scheduler")
    return Workers(jobs, None)
