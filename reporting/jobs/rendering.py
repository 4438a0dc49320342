"""Where a month's documents are rendered: here, each in its turn (one job), or side by side in
worker processes (``monthly --jobs N``).

Each task writes its own files into the month's staging folder and returns their paths; the
caller gathers the results in its own order, not in the order they finish, so the files listed
and the manifest are the same whatever the number of jobs, and so are the bytes (a document
depends on its inputs only: the PDFs are pinned to their as-of date).

The workers are not forks of the run: a fork would inherit its open database connection and
lock files. They are forked from multiprocessing's fork server, a fresh interpreter that holds
neither, has imported the renderers and WeasyPrint once (:data:`_PRELOAD`) and runs no thread;
each worker then loads the faces. They start with the month, before its figures and
verification, so that they are ready when the first page is.

A failure in a task (a template error, a full disk: the worker's exception, pickled back) is
the one a run in turn would have met (the first in the caller's order) and stops the others: the workers are killed and reaped before the error goes on, so that nothing
writes into the staging folder once its owner removes it; a stop (SIGTERM, Ctrl-C) does the
same. A worker killed from outside is an :class:`~reporting.errors.EnvironmentFault`, and each
worker dies with the run (:func:`reporting.verify.pool.worker_started`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor, as_completed, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from typing import Any, Protocol

from reporting.errors import EnvironmentFault
from reporting.verify.pool import forked_worker_started, worker_pool

__all__ = ["Renders", "render_workers"]


class Outcome(Protocol):
    """A task's outcome: its result, or its error raised."""

    def result(self) -> Any: ...


class Renders(Protocol):
    """Runs the month's rendering tasks."""

    def submit(self, task: Callable[..., Any], /, *args: Any) -> Outcome:
        """Hand a task over; its outcome."""

    def completed(self, outcomes: Iterable[Outcome]) -> Iterator[Outcome]:
        """Each outcome once its task is done (an error raised as soon as it is known)."""


class _InTurn:
    """One job: each task runs here when its outcome is asked for, in the order asked."""

    def submit(self, task: Callable[..., Any], /, *args: Any) -> Outcome:
        return _Deferred(task, args)

    def completed(self, outcomes: Iterable[Outcome]) -> Iterator[Outcome]:
        for outcome in outcomes:
            outcome.result()
            yield outcome


class _Deferred:
    """A task of :class:`_InTurn`: run on the first call of :meth:`result`."""

    def __init__(self, task: Callable[..., Any], args: tuple) -> None:
        self._task, self._args = task, args
        self._done = False
        self._value: Any = None

    def result(self) -> Any:
        if not self._done:
            self._value = self._task(*self._args)
            self._done = True
        return self._value


class _Workers:
    """More jobs: each task starts in a worker process as soon as one is free."""

    def __init__(self, pool: ProcessPoolExecutor) -> None:
        self._pool = pool

    def submit(self, task: Callable[..., Any], /, *args: Any) -> Outcome:
        return self._pool.submit(task, *args)

    def completed(self, outcomes: Iterable[Outcome]) -> Iterator[Outcome]:
        futures: list[Future] = list(outcomes)  # type: ignore[arg-type]
        for future in as_completed(futures):
            if future.exception() is not None:
                _raise_first_error(futures, futures.index(future))
            yield future


def _raise_first_error(futures: list[Future], failed: int) -> None:
    """Raise the error a run in turn would have met, whichever task failed first: the first
    in the caller's order, once every task before the one that failed is done."""
    wait(futures[:failed])
    for future in futures[: failed + 1]:
        future.result()


@contextmanager
def render_workers(jobs: int) -> Iterator[Renders]:
    """Render in ``jobs`` worker processes (1: here, in turn). Leaving the block with an
    error, or on a stop, kills and reaps the workers first; otherwise they end on their own.
    With more than one job a task and its arguments must pickle (a module-level function, or
    a ``functools.partial`` of one)."""
    if jobs <= 1:
        yield _InTurn()
        return
    # Started now, not on the first page: the fork server imports WeasyPrint and each worker
    # loads its faces while the caller goes on (verifying the month, writing the workbook).
    try:
        with worker_pool(jobs, _PRELOAD, _render_worker_started, "render-workers") as pool:
            yield _Workers(pool)
    except BrokenProcessPool:  # the workers are stopped by then
        raise EnvironmentFault(
            "a render worker process stopped (killed, or out of memory); the month's reports"
            " were left as they were: run monthly again, or with --jobs 1"
        ) from None


#: What the fork server imports once, before it forks the workers (each would otherwise import
#: it on its own: about 1.5 s of processor time a worker).
_PRELOAD = ("reporting.jobs.monthly", "reporting.presentation.pdf", "weasyprint")


def _render_worker_started() -> None:
    """In each render worker: tied to the fork server and the fork server to the run alone
    (:func:`~reporting.verify.pool.forked_worker_started`), then ready to print (its
    faces loaded)."""
    forked_worker_started()
    from reporting.presentation.pdf import load_fonts

    load_fonts()
