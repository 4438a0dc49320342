"""The table of input formats: every entry is recognised by discovery, read by its reader, and
accepted by the store; an unknown format fails loudly."""

from __future__ import annotations

import gzip
import sqlite3
from pathlib import Path

import pytest

from reporting.ingest.csv_pair import CSV_BET_FIELDS, CSV_ROUND_FIELDS
from reporting.ingest.discovery import discover_sources
from reporting.ingest.formats import FORMATS, format_named, format_of_file, read_source
from reporting.ingest.sources import Source
from reporting.store.schema import SCHEMA

#: For each format, the files of a log of no rounds (a new format adds its entry here).
EMPTY_LOGS = {
    "jsonl": [b""],
    "jsonl.gz": [gzip.compress(b"")],
    "csv": [",".join(CSV_ROUND_FIELDS).encode() + b"\n", ",".join(CSV_BET_FIELDS).encode() + b"\n"],
}


def test_every_format_has_an_empty_log_to_test_it_on():
    assert set(EMPTY_LOGS) == {entry.name for entry in FORMATS}


def test_format_names_and_suffixes_are_unique():
    assert len({entry.name for entry in FORMATS}) == len(FORMATS)
    assert len({entry.suffix for entry in FORMATS}) == len(FORMATS)


@pytest.mark.parametrize("entry", FORMATS, ids=lambda entry: entry.name)
def test_every_format_is_recognised_by_its_file_name(entry):
    name = entry.pairing.main if entry.pairing else f"October{entry.suffix.upper()}"
    assert format_of_file(Path("logs") / name) is entry


@pytest.mark.parametrize("entry", FORMATS, ids=lambda entry: entry.name)
def test_every_format_is_found_in_a_folder_and_read(entry, tmp_path, operator_config):
    files = [entry.pairing.main, entry.pairing.companion] if entry.pairing else [f"a{entry.suffix}"]
    for name, data in zip(files, EMPTY_LOGS[entry.name], strict=True):
        (tmp_path / name).write_bytes(data)
    [source] = discover_sources([tmp_path])
    assert source.format == entry.name
    assert [batch.records for batch in read_source(source, operator_config.games, 10)] == [[]]


def test_the_store_accepts_every_format_name():
    connection = sqlite3.connect(":memory:")
    connection.executescript(SCHEMA)
    for number, entry in enumerate(FORMATS):
        connection.execute(
            "INSERT INTO ingest_log (file_name, file_sha256, file_size, format, ingested_at)"
            " VALUES ('log', ?, 0, ?, '2026-11-05T00:00:00Z')",
            (str(number), entry.name),
        )
    assert connection.execute("SELECT count(*) FROM ingest_log").fetchone() == (len(FORMATS),)


def test_an_unknown_format_fails_loudly(tmp_path, operator_config):
    with pytest.raises(ValueError, match="unknown input format 'xml'"):
        format_named("xml")
    with pytest.raises(ValueError, match="unknown input format"):
        read_source(Source(tmp_path / "log.xml", "xml"), operator_config.games, 10)
    assert format_of_file(Path("log.xml")) is None
