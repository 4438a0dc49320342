"""Finding the round logs named on the command line: files, CSV pairs, and folders read whole."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from reporting.errors import InputError
from reporting.ingest.logs import Source

__all__ = ["discover_sources"]

_LOG_SUFFIXES = (".jsonl.gz", ".jsonl")


def _source_of_file(path: Path) -> Source | None:
    name = path.name.lower()
    for suffix in _LOG_SUFFIXES:
        if name.endswith(suffix):
            return Source(path, suffix.lstrip("."))
    return None


def _csv_pair(rounds: Path, bets: Path) -> Source:
    return Source(rounds, "csv", bets)


def discover_sources(paths: Sequence[Path]) -> list[Source]:
    """Round logs named on the command line: files, CSV pairs, and folders read whole.

    A folder contributes its ``*.jsonl`` and ``*.jsonl.gz`` files (recursively, by name) and
    each ``rounds.csv`` with the ``bets.csv`` beside it. Two CSV paths given together are a
    pair (rounds file first, or named ``rounds*.csv`` / ``bets*.csv``).
    """
    sources: list[Source] = []
    csv_files = [path for path in paths if path.suffix.lower() == ".csv"]
    for path in paths:
        if not path.exists():
            raise InputError(f"{path}: no such file or folder")
        if path.is_dir():
            found = sorted(p for p in path.rglob("*") if p.is_file())
            for candidate in found:
                source = _source_of_file(candidate)
                if source is not None:
                    sources.append(source)
                elif candidate.name.lower() == "bets.csv":
                    if not candidate.with_name("rounds.csv").is_file():
                        raise InputError(f"{candidate}: no rounds.csv beside it to pair with")
                elif candidate.name.lower() == "rounds.csv":
                    bets = candidate.with_name("bets.csv")
                    if not bets.is_file():
                        raise InputError(f"{candidate}: no bets.csv beside it to pair with")
                    sources.append(_csv_pair(candidate, bets))
        elif path.suffix.lower() == ".csv":
            continue
        else:
            source = _source_of_file(path)
            if source is None:
                raise InputError(
                    f"{path}: not a round log (expected .jsonl, .jsonl.gz, or rounds.csv with bets.csv)"
                )
            sources.append(source)
    if csv_files:
        sources.extend(_pair_csv_files(csv_files))
    return sources


def _pair_csv_files(csv_files: list[Path]) -> list[Source]:
    if len(csv_files) == 1:
        single = csv_files[0]
        if single.name.lower() == "rounds.csv" and single.with_name("bets.csv").is_file():
            return [_csv_pair(single, single.with_name("bets.csv"))]
        raise InputError(f"{single}: a CSV round log is a pair: give rounds.csv and bets.csv")
    if len(csv_files) != 2:
        raise InputError("give CSV round logs as pairs: one rounds file and one bets file")
    first, second = csv_files
    if "bets" in first.name.lower() and "rounds" in second.name.lower():
        first, second = second, first
    return [_csv_pair(first, second)]
