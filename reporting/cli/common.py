"""Options and output helpers shared by the commands."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.cells import cell_len
from rich.table import Table
from rich.text import Text

from reporting.config.loader import OperatorConfig, default_config_path, load_config
from reporting.errors import InputError

if TYPE_CHECKING:
    from reporting.verify.partitions import Workers

#: Exit codes of every command (cli.md): done and clean; done, with findings, rejected lines or
#: warnings to act on; could not run (unusable input, or a bug).
EXIT_OK, EXIT_FINDINGS, EXIT_UNUSABLE = 0, 1, 2

ConfigOption = Annotated[
    Path | None,
    typer.Option(
        "--config",
        help="Operator configuration (TOML). Default: sample_data/operator.toml in a source"
        " checkout, else the built-in catalogue's games.",
        dir_okay=False,
    ),
]
JobsOption = Annotated[
    int | None,
    typer.Option(
        "--jobs",
        min=1,
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
JsonOption = Annotated[
    bool, typer.Option("--json", help="Print one JSON document on stdout instead of tables.")
]


def load_operator_config(path: Path | None) -> OperatorConfig:
    """The configuration named by ``--config``, or the shipped default."""
    return load_config(path if path is not None else default_config_path())


def make_folder(folder: Path, option: str) -> None:
    """The folder an option names, made with its parents; an input error if it cannot be."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise InputError(
            f"{option} {folder}: cannot create the folder ({error.strerror})"
        ) from None


def print_json(document: dict[str, Any]) -> None:
    """Write one JSON document to stdout."""
    json.dump(document, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")


DEFAULT_DB = Path("baccarat-report.sqlite")

DbOption = Annotated[
    Path,
    typer.Option(
        "--db", help="SQLite database file (in the working folder by default).", dir_okay=False
    ),  # fmt: skip
]

#: Seconds a command waits for the database while another process writes to it (SQLite's
#: busy timeout), before it stops with one line (exit 2).
DEFAULT_DB_WAIT = 60.0

DbWaitOption = Annotated[
    float,
    typer.Option(
        "--db-wait",
        min=0,
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


#: Narrowest a folding text column is let become before numbers fold too.
READABLE_TEXT_WIDTH = 6


class FoldingTable(Table):
    """A rich table for narrow terminals that never ellipsizes or crops: used like
    :class:`rich.table.Table`, its right-justified columns are numbers.

    When the table is wider than the terminal, text columns (ids, names) give up width first,
    down to :data:`READABLE_TEXT_WIDTH`, folding onto more lines; then numbers wrap between
    their words (``191,882 (191,881)`` on two lines), never inside one; only when even that
    does not fit do all columns fold, still losing no character.
    """

    def add_column(self, header="", footer="", *, justify="left", **options) -> None:  # type: ignore[override]
        """As :meth:`Table.add_column`; ``overflow="fold"``, and ``no_wrap`` for numbers."""
        options.setdefault("overflow", "fold")
        options.setdefault("no_wrap", justify == "right")
        super().add_column(header, footer, justify=justify, **options)

    def __rich_console__(self, console, options):
        self._fit(options.max_width)
        yield from super().__rich_console__(console, options)

    def _fit(self, max_width: int) -> None:
        """Give each column a fixed width so that the table fits ``max_width`` (rich's own
        narrowing would crop the columns that do not wrap)."""
        columns = self.columns
        widths = [_natural_width(column) for column in columns]
        if sum(widths) <= self._room(max_width):
            return
        text = [index for index, column in enumerate(columns) if not column.no_wrap]
        numbers = [index for index, column in enumerate(columns) if column.no_wrap]
        readable = [min(width, READABLE_TEXT_WIDTH) for width in widths]
        whole = [_longest_word(column) for column in columns]
        folded = [1] * len(columns)
        stages = ((text, readable), (numbers, whole), ("padding", None), (text, folded))
        for group, floors in (*stages, (text + numbers, folded)):
            if group == "padding":
                self.padding = (0, 1, 0, 0)  # one space between columns instead of two
            else:
                _narrow(widths, group, floors, self._room(max_width))
            if sum(widths) <= self._room(max_width):
                break
        for column, width in zip(columns, widths, strict=True):
            column.width = width
            column.no_wrap = False

    def _room(self, max_width: int) -> int:
        """The width left for the cells' text once borders and padding are drawn."""
        padding = sum(self._get_padding_width(index) for index in range(len(self.columns)))
        return max_width - self._extra_width - padding


def _narrow(widths: list[int], group: list[int], floors: list[int], room: int) -> None:
    """Take width from the widest column of ``group`` above its floor, one cell at a time,
    until the widths fit ``room`` or the group is at its floors."""
    while sum(widths) > room:
        above = [index for index in group if widths[index] > floors[index]]
        if not above:
            return
        widths[max(above, key=lambda index: widths[index])] -= 1


def _natural_width(column) -> int:
    """The widest cell (or header) on one line."""
    return max((_cell_width(cell) for cell in (column.header, *column.cells)), default=1)


def _longest_word(column) -> int:
    """The widest word of any cell: a number is not split below this (a header may be)."""
    words = (word for cell in column.cells for word in _plain(cell).split())
    return max((cell_len(word) for word in words), default=1)


def _plain(cell: Any) -> str:
    return cell.plain if isinstance(cell, Text) else str(cell)


def _cell_width(cell: Any) -> int:
    return cell_len(_plain(cell))


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
    jobs: int | None, scheduler: str | None, logs: str | None = None
) -> Workers:
    """Where the partitions run: on the Dask cluster of ``--scheduler`` (its workers reading
    the round logs under ``--logs``), or in ``--jobs`` worker processes here (default: the
    cores available)."""
    from reporting.verify.partitions import Workers

    if scheduler is not None:
        from reporting.verify.distributed import dask_runner

        return Workers(1, dask_runner(scheduler, logs))
    if logs is not None:
        raise InputError("--logs is where Dask workers read the round logs: it needs --scheduler")
    return Workers(jobs, None)
