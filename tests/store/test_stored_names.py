"""How files are named in the store (issue 11, point 3: paths stored relative to the inbox):
with a base folder, the same inbox gives the same names, rejected lines, findings and audit
workbook bytes whether it was typed relative or absolute, from any working folder; without one
(``ingest FILE``), a file keeps the name its user typed."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest
from helpers import dump, rows, write_csv_pair

from reporting import __version__
from reporting.figures.ledger import period_ledger
from reporting.figures.statistics import outcome_tests, rtp_checks
from reporting.ingest.discovery import discover_sources
from reporting.presentation.audit_xlsx import write_audit_workbook
from reporting.store.load import ingest, stored_name
from reporting.store.reading import read_rounds
from reporting.store.schema import connect
from reporting.verify.run import verify


@pytest.fixture
def inbox(tmp_path, make_round, make_bet, write_jsonl) -> Path:
    """An inbox with a JSON Lines log (a bad line, a late bet: a finding) in a subfolder and a
    CSV pair whose bets file names a round its rounds file lacks (a message naming a file)."""
    inbox = tmp_path / "work" / "inbox"
    late = make_bet("B-late", placed_at="2026-10-03T18:40:30Z")
    write_jsonl(
        inbox / "2026-10" / "log.jsonl",
        make_round("J-1"),
        '{"round_id": "J-2", ',
        make_round("J-3", bets=[late]),
    )
    rounds_csv, bets_csv = write_csv_pair(inbox / "csv", [make_round("C-1")])
    with bets_csv.open("a", encoding="utf-8") as handle:
        handle.write("C-404,B-9,acc-1,banker,5.00,0.00,EUR,2026-10-03T18:40:09.500Z\n")
    return inbox


def load(db: Path, inbox: Path, config, base: Path | None) -> None:
    connection = connect(db)
    try:
        ingest(connection, discover_sources([inbox]), config, base=base)
    finally:
        connection.close()


def workbook(db: Path, config, path: Path) -> bytes:
    connection = connect(db, create=False)
    try:
        verified = verify(connection, config, "2026-10")
        assert verified.finding_count  # the late bet
        write_audit_workbook(
            path,
            period_ledger(connection, verified.month),
            config,
            verified,
            outcome_tests(verified.tables, config.games),
            rtp_checks(verified.bet_totals, config.games),
            as_of=date(2026, 11, 5),
            tool_version=__version__,
        )
    finally:
        connection.close()
    return path.read_bytes()


def test_the_same_inbox_typed_relative_or_absolute_gives_the_same_store_and_workbook(
    tmp_path, inbox, operator_config, monkeypatch
):
    # Relative, from the inbox's parent folder.
    monkeypatch.chdir(inbox.parent)
    load(tmp_path / "relative.sqlite", Path("inbox"), operator_config, base=Path("inbox"))
    # Absolute, from somewhere else entirely.
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    load(tmp_path / "absolute.sqlite", inbox, operator_config, base=inbox)
    # Relative again, from the inbox itself, with a detour in the path.
    monkeypatch.chdir(inbox)
    load(tmp_path / "dotted.sqlite", Path("../inbox/."), operator_config, base=Path("."))

    stores = [tmp_path / f"{name}.sqlite" for name in ("relative", "absolute", "dotted")]
    dumps = [dump(db) for db in stores]
    assert dumps[0] == dumps[1] == dumps[2]
    assert sorted(rows(stores[0], "SELECT file_name, companion_name FROM ingest_log")) == [
        ("2026-10/log.jsonl", None),
        ("csv/rounds.csv", "csv/bets.csv"),
    ]
    rejects = rows(stores[0], "SELECT file_name, line, reason, message FROM rejected_records")
    assert sorted(rejects)[0][:3] == ("2026-10/log.jsonl", 2, "bad_json")
    orphan = next(reject for reject in rejects if reject[0] == "csv/bets.csv")
    assert "which csv/rounds.csv does not hold" in orphan[3]
    assert str(tmp_path) not in json.dumps(dumps[0])

    monkeypatch.chdir(tmp_path)
    books = [workbook(db, operator_config, tmp_path / f"{db.stem}.xlsx") for db in stores]
    assert books[0] == books[1] == books[2]
    connection = connect(stores[0], create=False)
    try:
        files = {files for _, files in read_rounds(connection, "2026-10")}
        sources = rows(stores[0], "SELECT DISTINCT source_file FROM findings")
    finally:
        connection.close()
    assert {files.rounds for files in files} == {"2026-10/log.jsonl", "csv/rounds.csv"}
    assert sources == [("2026-10/log.jsonl",)]


def test_without_a_base_a_file_keeps_the_name_it_was_given(
    tmp_path, inbox, operator_config, monkeypatch
):
    monkeypatch.chdir(inbox.parent)
    connection = connect(tmp_path / "store.sqlite")
    try:
        result = ingest(connection, discover_sources([Path("inbox")]), operator_config)
    finally:
        connection.close()
    names = sorted(rows(tmp_path / "store.sqlite", "SELECT file_name FROM ingest_log"))
    assert names == [("inbox/2026-10/log.jsonl",), ("inbox/csv/rounds.csv",)]
    assert sorted(f.file for f in result.files) == [n for (n,) in names]
    assert {r.source_file for r in result.rejected} == {
        "inbox/2026-10/log.jsonl",
        "inbox/csv/bets.csv",
    }


def test_the_result_names_files_and_rejects_as_the_store_does(tmp_path, inbox, operator_config):
    connection = connect(tmp_path / "store.sqlite")
    try:
        result = ingest(connection, discover_sources([inbox]), operator_config, base=inbox)
    finally:
        connection.close()
    assert sorted(f.file for f in result.files) == ["2026-10/log.jsonl", "csv/rounds.csv"]
    assert sorted((r.source_file, r.source_line, r.message) for r in result.rejected) == sorted(
        rows(tmp_path / "store.sqlite", "SELECT file_name, line, message FROM rejected_records")
    )


def test_a_file_outside_the_base_keeps_its_name(tmp_path):
    assert stored_name(tmp_path / "a.jsonl", tmp_path / "inbox") == str(tmp_path / "a.jsonl")
    assert stored_name(tmp_path / "inbox" / "a.jsonl", tmp_path / "inbox") == "a.jsonl"


def test_a_base_reached_through_a_link_names_files_relative_to_it(tmp_path):
    real = tmp_path / "real"
    real.mkdir()
    link = tmp_path / "link"
    link.symlink_to(real)
    assert stored_name(real / "sub" / "a.jsonl", link) == "sub/a.jsonl"
