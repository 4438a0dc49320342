"""The coordinator's side of a month verified on a Dask cluster: what a worker needs to check
one partition from the round logs alone (:class:`LogTask`: the partition, and for each round
log the lines of its rounds), gathered from the store (:func:`log_tasks`)."""

from __future__ import annotations

import json
import sqlite3
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath

from reporting.engine.games import GameSpec
from reporting.errors import InputError
from reporting.ingest.profiles.loader import built_in_profiles, load_profile
from reporting.ingest.profiles.model import Profile
from reporting.verify.partitions import Partition, PartitionTask


class LogFileError(InputError):
    """A round log a worker cannot use: missing from shared storage, unreadable, or not the
    file the store ingested."""


class LogChangedError(LogFileError):
    """A round log that grew since the store ingested it (the bytes ingested, then more, as an
    exporter appending to its file leaves it): the store still holds what was ingested, so its
    partition is checked from the store on the coordinator instead."""


@dataclass(frozen=True)
class LoggedFile:
    """One round log as the store's ingest log knows it, and the lines a worker keeps of it."""

    ingest_id: int
    file_name: str  # as the store names it (rounds.csv of a CSV pair)
    companion_name: str | None  # bets.csv of a CSV pair
    format: str
    profile: Profile | None  # loaded on the coordinator, checked against its stored hash
    file_sha256: str
    file_size: int
    #: The source lines of the rounds kept, as sorted (first, last) ranges.
    lines: tuple[tuple[int, int], ...]

    @property
    def round_count(self) -> int:
        """The rounds this file gives the partition."""
        return sum(last - first + 1 for first, last in self.lines)

    def holds_line(self, line: int) -> bool:
        """Whether a round read at ``line`` is one of the partition's."""
        index = bisect_right(self.lines, (line, float("inf"))) - 1
        return index >= 0 and self.lines[index][0] <= line <= self.lines[index][1]


@dataclass(frozen=True)
class LogTask:
    """What a worker needs to check one partition from the round logs alone."""

    partition: Partition
    month: str | None
    games: dict[str, GameSpec]
    files: tuple[LoggedFile, ...]
    logs: str  # where the logs are: a folder or an fsspec URL, the file names under it
    #: The partition's rounds of games not configured: (game id, rounds, first round id).
    unconfigured: tuple[tuple[str, int, str], ...] = ()

    def location(self, name: str) -> str:
        """Where a worker opens the file the store names ``name``."""
        return log_location(name, self.logs)


def log_location(name: str, logs: str) -> str:
    """A stored file name under the logs base; a name stored as an absolute path stays one.

    >>> log_location("2026/a.jsonl", "s3://bucket/logs/")
    's3://bucket/logs/2026/a.jsonl'
    >>> log_location("/srv/logs/a.jsonl", "/mnt/shared")
    '/srv/logs/a.jsonl'
    """
    if PurePosixPath(name).is_absolute():
        return name
    return f"{logs.rstrip('/')}/{name}"


#: The rounds a partition's passes may read, in file order: of the period, and of its shoes
#: (a month's by ``rounds_by_month`` and ``rounds_by_shoe``: not the store's other months).
_ROUNDS = (
    "SELECT ingest_id, source_line, game_id, table_id, shoe_id, report_month FROM rounds"
    " WHERE game_id IN (SELECT value FROM json_each(:games)) AND {month} ORDER BY rowid"
)
_OF_MONTH = (
    "rowid IN (SELECT rowid FROM rounds WHERE report_month = :month UNION ALL"
    " SELECT rowid FROM rounds WHERE shoe_id IN"
    " (SELECT shoe_id FROM rounds WHERE report_month = :month AND shoe_id IS NOT NULL))"
)
#: The shoes holding a round of the period, with the tables of those rounds.
_SHOES = (
    "SELECT DISTINCT shoe_id, game_id, table_id FROM rounds WHERE shoe_id IS NOT NULL AND {month}"
)
#: The period's rounds of games not configured, by table: how many, and the first round id.
_UNCONFIGURED = (
    "SELECT game_id, table_id, count(*), min(round_id) FROM rounds"
    " WHERE game_id NOT IN (SELECT value FROM json_each(?)) AND {month}"
    " GROUP BY game_id, table_id"
)


class _Lines:
    """The source lines of one file that one partition reads, gathered as ranges."""

    def __init__(self) -> None:
        self.ranges: list[list[int]] = []

    def add(self, line: int) -> None:
        ranges = self.ranges
        if ranges and ranges[-1][1] + 1 == line:
            ranges[-1][1] = line
        else:
            ranges.append([line, line])

    def sorted(self) -> tuple[tuple[int, int], ...]:
        """The ranges in line order, neighbours joined (rows stored out of file order)."""
        merged: list[list[int]] = []
        for first, last in sorted(self.ranges):
            if merged and merged[-1][1] + 1 >= first:
                merged[-1][1] = max(merged[-1][1], last)
            else:
                merged.append([first, last])
        return tuple((first, last) for first, last in merged)


def _ranges(lines: Iterator[int]) -> tuple[tuple[int, int], ...]:
    """Line numbers as sorted (first, last) ranges of consecutive lines."""
    gathered = _Lines()
    for line in lines:
        gathered.add(line)
    return gathered.sorted()


def _profile_of(label: str | None, sha256: str | None, file_name: str) -> Profile | None:
    """The log profile that read a file, found again here by the name the store keeps (a
    built-in name, or ``name (file)``) and held to the hash the store keeps."""
    if label is None:
        return None
    reference = label
    if label not in built_in_profiles() and label.endswith(")") and " (" in label:
        reference = label[label.index(" (") + 2 : -1]
    try:
        profile = load_profile(reference)
    except InputError as error:
        raise LogFileError(f"{file_name}: was read with log profile {label}: {error}") from None
    if profile is None or profile.sha256 != sha256:
        raise LogFileError(
            f"{file_name}: was read with log profile {label}, and the profile found here is"
            " not the same file any more: verify it where the ingest ran, with that profile"
        )
    return profile


def _partition_of_shoes(
    connection: sqlite3.Connection, month: str | None, of_table: dict[tuple[str, str], int]
) -> dict[str, int]:
    """The partition that reads each shoe holding a round of the period (the one of its
    tables: the plan keeps a shoe's tables together)."""
    where = "1" if month is None else "report_month = ?"
    params = () if month is None else (month,)
    return {
        shoe_id: of_table[(game_id, table_id)]
        for shoe_id, game_id, table_id in connection.execute(_SHOES.format(month=where), params)
    }


def _lines_by_partition(
    connection: sqlite3.Connection, month: str | None, games: str, of_table, of_shoe
) -> dict[int, dict[int, _Lines]]:
    """Per partition, per ingest id, the lines of the rounds its passes read: of its tables
    in the period, and every round of its shoes (read_shoes reads shoes whole). One pass over
    those rounds, whatever the number of partitions."""
    lines: dict[int, dict[int, _Lines]] = {}
    query = _ROUNDS.format(month="1" if month is None else _OF_MONTH)
    for ingest_id, line, game_id, table_id, shoe_id, round_month in connection.execute(
        query, {"games": games, "month": month}
    ):
        number = None
        if month is None or round_month == month:
            number = of_table.get((game_id, table_id))
        if number is None and shoe_id is not None:
            number = of_shoe.get(shoe_id)
        if number is not None:
            files = lines.setdefault(number, {})
            if ingest_id not in files:
                files[ingest_id] = _Lines()
            files[ingest_id].add(line)
    return lines


def _unconfigured_by_partition(
    connection: sqlite3.Connection, month: str | None, games: str, of_table
) -> dict[int, tuple[tuple[str, int, str], ...]]:
    """Per partition, its rounds of games not configured: (game id, rounds, first round
    id), in the order of their first rounds."""
    where = "1" if month is None else "report_month = ?"
    params = (games,) if month is None else (games, month)
    found: dict[int, dict[str, list]] = {}
    for game_id, table_id, count, first in connection.execute(
        _UNCONFIGURED.format(month=where), params
    ):
        games_found = found.setdefault(of_table[(game_id, table_id)], {})
        entry = games_found.setdefault(game_id, [game_id, 0, first])
        entry[1] += count
        entry[2] = min(entry[2], first)
    return {
        number: tuple(tuple(entry) for entry in sorted(entries.values(), key=lambda e: e[2]))
        for number, entries in found.items()
    }


def log_tasks(
    connection: sqlite3.Connection, tasks: Sequence[PartitionTask], logs: str
) -> list[LogTask]:
    """The log task of each partition task (all of one period and games), from the store."""
    if not tasks:
        return []
    month, games = tasks[0].month, json.dumps(sorted(tasks[0].games))
    of_table = {table: task.partition.number for task in tasks for table in task.partition.tables}
    of_shoe = _partition_of_shoes(connection, month, of_table)
    lines = _lines_by_partition(connection, month, games, of_table, of_shoe)
    unconfigured = _unconfigured_by_partition(connection, month, games, of_table)
    logged = {
        row[0]: row
        for row in connection.execute(
            "SELECT ingest_id, file_name, companion_name, format, profile, profile_sha256,"
            " file_sha256, file_size FROM ingest_log"
        )
    }
    profiles: dict[int, Profile | None] = {}
    out = []
    for task in tasks:
        files = []
        for ingest_id, gathered in sorted(lines.get(task.partition.number, {}).items()):
            _, name, companion, fmt, label, profile_sha, sha, size = logged[ingest_id]
            if ingest_id not in profiles:
                profiles[ingest_id] = _profile_of(label, profile_sha, name)
            profile = profiles[ingest_id]
            files.append(
                LoggedFile(ingest_id, name, companion, fmt, profile, sha, size, gathered.sorted())
            )
        out.append(
            LogTask(
                task.partition,
                task.month,
                dict(task.games),
                tuple(files),
                logs,
                unconfigured.get(task.partition.number, ()),
            )
        )
    return out
