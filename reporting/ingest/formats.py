"""The input formats, in one table: how discovery recognises a file of each, and its reader.

Adding a format is one reader module (a function ``(source, games, batch size) -> batches``,
see :mod:`reporting.ingest.jsonl`) and one entry of :data:`FORMATS`; the store keeps the
entry's name in ``ingest_log.format``. An unknown format name is an error, never a fallback.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from reporting.engine.games import GameSpec
from reporting.ingest.csv_pair import read_csv_pair
from reporting.ingest.jsonl import read_jsonl, read_jsonl_gz
from reporting.ingest.profiles.readers import read_profiled
from reporting.ingest.sniff import GZIP_MAGIC, head_of, why_not_a_log
from reporting.ingest.sources import BatchReader, Source
from reporting.records import CSV_PAIR

__all__ = [
    "FORMATS",
    "InputFormat",
    "Pairing",
    "check_source",
    "content_problem",
    "expected_formats",
    "format_named",
    "format_of_file",
    "read_source",
]

#: A reader: the batches of a source, for the configured games, of up to a number of rounds.
Reader = Callable[[Source, Mapping[str, GameSpec], int], BatchReader]


@dataclass(frozen=True)
class Pairing:
    """A format of two files: the main one and its companion, as named inside a folder."""

    main: str  # e.g. rounds.csv
    companion: str  # e.g. bets.csv

    @property
    def main_word(self) -> str:
        """How a main file is told apart when two are given: its name holds this word."""
        return self.main.split(".")[0]

    @property
    def companion_word(self) -> str:
        """The same for the companion file."""
        return self.companion.split(".")[0]


@dataclass(frozen=True)
class InputFormat:
    """One kind of round log."""

    name: str  # Source.format and ingest_log.format
    suffix: str  # how a file name of it ends, lower case
    label: str  # how messages name it
    read: Reader
    pairing: Pairing | None = None  # None: a log is one file
    gzip: bool = False  # read through gzip; else plain UTF-8 text

    @property
    def described(self) -> str:
        """How a message asking for a round log names this format."""
        if self.pairing is None:
            return self.suffix
        return f"{self.pairing.main} with {self.pairing.companion}"


FORMATS: tuple[InputFormat, ...] = (
    InputFormat("jsonl", ".jsonl", "JSON Lines", read_jsonl),
    InputFormat("jsonl.gz", ".jsonl.gz", "gzipped JSON Lines", read_jsonl_gz, gzip=True),
    InputFormat("csv", ".csv", "CSV", read_csv_pair, Pairing(*CSV_PAIR)),
)
_BY_NAME = {input_format.name: input_format for input_format in FORMATS}


def format_named(name: str) -> InputFormat:
    """The format of that name; ValueError for a name the table does not hold."""
    try:
        return _BY_NAME[name]
    except KeyError:
        raise ValueError(f"unknown input format {name!r} (known: {', '.join(_BY_NAME)})") from None


def format_of_file(path: Path) -> InputFormat | None:
    """The format a file's name says it holds (the longest matching suffix), or None."""
    name = path.name.lower()
    matches = [entry for entry in FORMATS if name.endswith(entry.suffix)]
    return max(matches, key=lambda entry: len(entry.suffix), default=None)


def content_problem(path: Path) -> str | None:
    """Why a round log's file cannot be read as its name promises, from its first bytes, or
    None: gzip data under a plain-text name (``.jsonl`` instead of ``.jsonl.gz``), UTF-16 or
    UTF-32 text, or no text at all (an archive, compressed data or a document:
    :func:`~reporting.ingest.sniff.why_not_a_log`, of a gzipped file's decompressed bytes).
    Each would be read line by line into rejects, and its last line taken for one still being
    written: said at once instead, for a file that loads only once renamed, unpacked or saved
    again."""
    found = format_of_file(path)
    if found is None:
        return None
    first = head_of(path)
    if first is None:
        return None  # the reader says why
    raw, text = first
    if found.gzip:
        if not raw.startswith(GZIP_MAGIC):  # no gzip at all: a zip named .jsonl.gz
            return why_not_a_log(raw)
        return None if text is None else why_not_a_log(text, gzipped=True)
    if raw.startswith(GZIP_MAGIC):
        if found.pairing is None:
            return f"gzip data under a plain-text name: name it {path.name}.gz to have it read"
        return f"gzip data: a {found.label} file is read as plain text; decompress it"
    return why_not_a_log(raw)


def expected_formats() -> str:
    """The formats, as a message asking for a round log lists them."""
    described = [entry.described for entry in FORMATS]
    return ", ".join(described[:-1]) + ", or " + described[-1]


def read_source(source: Source, games: Mapping[str, GameSpec], size: int) -> BatchReader:
    """Batches of any source, in file order, by the reader of its format (or of its log
    profile's layout)."""
    if source.profile is not None:
        return read_profiled(source, games, size)
    return format_named(source.format).read(source, games, size)


def check_source(source: Source) -> None:
    """ValueError for a source no reader reads (a bug of the caller: fail before writing)."""
    if source.profile is None:
        format_named(source.format)
    elif source.format not in source.profile.layouts:
        raise ValueError(f"profile {source.profile.name} has no layout {source.format!r}")
