"""Finding the round logs named on the command line: files, pairs of files (a CSV round log),
and folders read whole. What a file is comes from :data:`reporting.ingest.formats.FORMATS`."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from reporting.errors import InputError
from reporting.ingest.formats import FORMATS, InputFormat, expected_formats, format_of_file
from reporting.ingest.sources import Source

__all__ = ["discover_sources"]


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
            raise InputError(f"{path}: no such file or folder")
        if path.is_dir():
            sources.extend(_sources_in_folder(path))
            continue
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
