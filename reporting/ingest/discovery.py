"""Finding the round logs named on the command line: files, pairs of files (a CSV round log),
and folders read whole. What a file is comes from :data:`reporting.ingest.formats.FORMATS`.

The names read are the round log format's, no others (round-log.md: ``.jsonl``,
``.jsonl.gz``, and a CSV pair as ``rounds.csv`` + ``bets.csv`` in one folder, or two paths
given together), in any case. A name the format does not give is not guessed at: ``.json``
may hold one document rather than lines, ``.ndjson`` or ``.jsonl.gzip`` another tool's
dialect, ``Rounds-2026-10.csv`` a pair whose partner is not certain. In a folder such files
are left unread and :func:`unread_files` lists them, with a reason, for the scheduled job to
raise as an alert (a month computed on part of the inbox must not pass without a word).

Only regular files (or links to one) are read: a FIFO, a device or a socket could hang or
never end. Named on the command line one is refused; in a folder it is listed as unread.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from reporting.errors import InputError
from reporting.files import kind_of_file
from reporting.ingest.formats import FORMATS, InputFormat, expected_formats, format_of_file
from reporting.ingest.sources import Source

__all__ = ["UnreadFile", "discover_sources", "unread_files", "unread_inbox_files"]


@dataclass(frozen=True)
class UnreadFile:
    """A file of a folder that is not read as a round log, and why."""

    path: Path
    reason: str

    def __str__(self) -> str:
        return f"{self.path}: {self.reason}"


def _not_regular(path: Path) -> str | None:
    """Why ``path`` cannot be read as a file (a dangling link, a FIFO, ...), or None."""
    try:
        status = path.stat()
    except FileNotFoundError:
        if path.is_symlink():
            return "a symbolic link to nothing (its target does not exist)"
        return "no such file"
    except OSError as error:
        return f"cannot be examined ({error.strerror})"
    if stat.S_ISREG(status.st_mode):
        return None
    return f"{kind_of_file(status.st_mode)}, not a regular file"


def discover_sources(paths: Sequence[Path]) -> list[Source]:
    """Round logs named on the command line: files, CSV pairs, and folders read whole.

    A folder contributes its files of a one-file format (``*.jsonl``, ``*.jsonl.gz``,
    recursively, by name) and each ``rounds.csv`` with the ``bets.csv`` beside it. Two CSV
    paths given together are a pair (rounds file first, or named ``rounds*.csv`` /
    ``bets*.csv``); pairs come after the other sources.
    """
    sources: list[Source] = []
    to_pair: dict[str, list[Path]] = {}
    for path in paths:
        if not path.exists():
            if path.is_symlink():
                raise InputError(f"{path}: a symbolic link to nothing (its target does not exist)")
            raise InputError(f"{path}: no such file or folder")
        if path.is_dir():
            sources.extend(_sources_in_folder(path))
            continue
        problem = _not_regular(path)
        if problem is not None:
            raise InputError(f"{path}: {problem}; a round log must be a file")
        found = format_of_file(path)
        if found is None:
            raise InputError(f"{path}: not a round log (expected {expected_formats()})")
        if found.pairing is None:
            sources.append(Source(path, found.name))
        else:
            to_pair.setdefault(found.name, []).append(path)
    for input_format in FORMATS:
        if input_format.name in to_pair:
            sources.append(_pair_of(input_format, to_pair[input_format.name]))
    return sources


def unread_files(folder: Path) -> list[UnreadFile]:
    """The files in ``folder`` and below it that :func:`discover_sources` does not read as
    round logs, each with the reason, in path order: other names (``.json``, ``.ndjson``,
    ``Rounds-2026-10.csv``, ...) and what is not a regular file (a dangling link, a FIFO, a
    socket, a device, a link to a folder: its files are not read). Folders themselves are
    not listed. (A ``bets.csv`` with no
    ``rounds.csv`` beside it is not listed: :func:`discover_sources` refuses the folder.)"""
    unread = []
    for path in _entries(folder):
        problem = _not_regular(path)
        if problem is not None:
            if path.is_dir():  # only a link to one is listed (see _entries)
                problem = "a link to a folder, not followed"
            unread.append(UnreadFile(path, problem))
            continue
        found = format_of_file(path)
        if found is None:
            unread.append(UnreadFile(path, f"not a round log name (read: {expected_formats()})"))
        elif found.pairing is not None:
            pairing = found.pairing
            name = path.name.lower()
            if name not in (pairing.main, pairing.companion):
                unread.append(
                    UnreadFile(
                        path,
                        f"a {found.label} file in a folder is read as {pairing.main} with"
                        f" {pairing.companion}; give the two files by path, or rename them",
                    )
                )
    return unread


def unread_inbox_files(inbox: Path) -> tuple[str, ...]:
    """The inbox's files that are not read as round logs (:func:`unread_files`), each as
    ``name (why)``, named relative to the inbox with ``/``. Hidden files (``.name``, or in a
    hidden folder: a transfer in progress, an editor's backup) are not listed; every other
    file is, so that nothing in the inbox is left out of a month without a word."""
    return tuple(
        f"{item.path.relative_to(inbox).as_posix()} ({item.reason})"
        for item in unread_files(inbox)
        if not any(part.startswith(".") for part in item.path.relative_to(inbox).parts)
    )


def _entries(folder: Path) -> list[Path]:
    """Every entry below ``folder`` but the folders, in path order; links not followed into
    folders (a link to a folder is listed as the entry it is)."""
    found = []
    for root, folders, files in os.walk(folder):
        base = Path(root)
        found.extend(base / name for name in files)
        found.extend(base / name for name in folders if (base / name).is_symlink())
    return sorted(found)


def _sources_in_folder(folder: Path) -> list[Source]:
    """The round logs in a folder and below it, by file name; other files are left alone."""
    sources: list[Source] = []
    for candidate in sorted(path for path in folder.rglob("*") if path.is_file()):
        found = format_of_file(candidate)
        if found is None:
            continue
        if found.pairing is None:
            sources.append(Source(candidate, found.name))
            continue
        main, companion = found.pairing.main, found.pairing.companion
        name = candidate.name.lower()
        if name == companion and not candidate.with_name(main).is_file():
            raise InputError(f"{candidate}: no {main} beside it to pair with")
        if name == main:
            beside = candidate.with_name(companion)
            if not beside.is_file():
                raise InputError(f"{candidate}: no {companion} beside it to pair with")
            sources.append(Source(candidate, found.name, beside))
    return sources


def _pair_of(input_format: InputFormat, files: list[Path]) -> Source:
    """The one pair the files of a two-file format given on the command line make."""
    assert input_format.pairing is not None
    pairing, label = input_format.pairing, input_format.label
    if len(files) == 1:
        single = files[0]
        beside = single.with_name(pairing.companion)
        if single.name.lower() == pairing.main and beside.is_file():
            return Source(single, input_format.name, beside)
        raise InputError(
            f"{single}: a {label} round log is a pair: give {pairing.main} and {pairing.companion}"
        )
    if len(files) != 2:
        raise InputError(
            f"give {label} round logs as pairs: one {pairing.main_word} file and one"
            f" {pairing.companion_word} file"
        )
    first, second = files
    if pairing.companion_word in first.name.lower() and pairing.main_word in second.name.lower():
        first, second = second, first
    return Source(first, input_format.name, second)
