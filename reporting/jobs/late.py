"""Late rounds: rounds of a month already written that its published reports do not count.

The files no finished monthly run has told of (:mod:`reporting.store.announced`), or only a
run that wrote the month being written again, may hold rounds of months other than the one a
run writes. Rounds of a month before it, or of a later
month already published (a run publishing an earlier month again), are late unless the
month's published manifest lists their file among its inputs, by its sha256: then its
reports counted them (a run that published its month and stopped before its end; a store
made again from the same logs). A CSV pair is never taken as listed: its stored hash is of
both files, the manifest's of each, and a pair is often sent again under the same names.
Rounds of a month before the run's whose reports are not in the output folder (a backlog of
logs the first run finds, a month published elsewhere) are named as not published.
Rounds of the month after the last one written (its first days, in the inbox of the run on
the 5th), and up to the month of the run's own date (a run on the 4th writes the month before
last), wait for their own runs. Rounds of a later month not yet published are *ahead*: dated
past any month a run now writes (a provider's clock, or a year typed wrong), they are named
the same way, as no report counts them.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Collection
from datetime import date
from pathlib import Path

from reporting.config.loader import OperatorConfig
from reporting.jobs.months import as_of_writing
from reporting.records import LateStanding, Month
from reporting.store.announced import UnannouncedRepeats, unannounced_repeats, unannounced_rounds
from reporting.verify.bearing import LateMonth

__all__ = ["MANIFEST_BYTES", "late_repeats", "late_rounds", "manifest_entries"]

#: The largest manifest read back (a month of a thousand games' pages is under 1 MiB).
MANIFEST_BYTES = 16 * 1024 * 1024


def manifest_entries(path: Path, key: str) -> list[dict]:
    """The entries of a month's ``manifest.json`` under ``key`` (``inputs``, ``outputs``):
    ValueError (or OSError) when it cannot be read as one."""
    with path.open("rb") as handle:
        entries = json.loads(handle.read(MANIFEST_BYTES))[key]
    if not isinstance(entries, list) or not all(isinstance(entry, dict) for entry in entries):
        raise ValueError(f"{path}: {key} is not a list of entries")
    return entries


def late_rounds(
    connection: sqlite3.Connection,
    config: OperatorConfig,
    written: Collection[str],
    through: int,
    manifest_of: Callable[[str], Path],
    today: date | None = None,
) -> list[LateMonth]:
    """The late rounds of the files not yet told of (loaded up to ``through``), by month: of
    months other than ``written``, each month's manifest at ``manifest_of(month)``; with why
    they are in no report and the run that publishes their month (``config``'s games).
    ``today``: the run's own date, whose month's rounds and those of the months between wait
    for their own runs (a run on 4 November writes September: November's first days are not
    dated ahead)."""
    first = min(written)
    following = str(Month.parse(max(written)).next())
    if today is not None:
        following = max(following, str(Month.of(today)))
    inputs: dict[str, set[str] | None] = {}
    late: dict[str, int] = {}
    for item in unannounced_rounds(connection, through, written):
        if item.month in written:
            continue
        if item.month not in inputs:
            inputs[item.month] = _published_inputs(manifest_of(item.month))
        listed = inputs[item.month]
        if (listed is None and first < item.month <= following) or (
            listed and item.companion is None and item.sha256 in listed
        ):
            continue  # a later month's own run counts it, or its published reports did
        late[item.month] = late.get(item.month, 0) + item.rounds
    return [
        LateMonth(
            month, rounds, _standing(month, following, inputs[month]), as_of_writing(config, month)
        )
        for month, rounds in sorted(late.items())
    ]


def _standing(month: str, following: str, listed: set[str] | None) -> LateStanding:
    """Why the late rounds of ``month`` are in no report, by whether it was published
    (``listed``: its manifest's inputs, None without one)."""
    if listed is not None:
        return LateStanding.PUBLISHED
    return LateStanding.AHEAD if month > following else LateStanding.UNPUBLISHED


def late_repeats(
    connection: sqlite3.Connection,
    written: Collection[str],
    through: int,
    manifest_of: Callable[[str], Path],
) -> list[UnannouncedRepeats]:
    """The re-exports not yet told of (loaded up to ``through``) that repeat rounds of a month
    published before, other than ``written``, with fields no check reads: that month's
    published audit names neither the file nor its fields (a month not published yet names
    them when its run writes it)."""
    return [
        item
        for item in unannounced_repeats(connection, through, written)
        if item.month not in written and manifest_of(item.month).is_file()
    ]


def _published_inputs(manifest: Path) -> set[str] | None:
    """The sha256 of each input of a published month (none for a manifest that cannot be
    read), or None when the month was not published (no manifest). By hash, not name: a file
    loaded by ``ingest`` is stored by the name it was given, the manifest's relative to the
    inbox."""
    if not manifest.is_file():
        return None
    try:
        return {str(entry["sha256"]) for entry in manifest_entries(manifest, "inputs")}
    except (OSError, ValueError, KeyError, TypeError, RecursionError):
        return set()
