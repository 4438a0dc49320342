"""verify on a full disk (issue 11, point 2): the full disk is reported in one line, never the
failed ROLLBACK after it, and the findings as they were are kept. The full disk is SQLite's
own ``SQLITE_FULL``, made by capping the database with ``PRAGMA max_page_count``."""

from __future__ import annotations

import pytest
from helpers import rows

from reporting.errors import DiskFull
from reporting.ingest.sources import Source
from reporting.store.load import ingest
from reporting.store.schema import connect
from reporting.verify.run import verify


def test_a_full_disk_while_writing_findings_is_one_line_and_keeps_the_old_ones(
    tmp_path, operator_config, make_round, make_bet, write_jsonl
):
    late = [make_bet(f"B-{n}", placed_at="2026-10-03T18:40:30Z") for n in range(40)]
    log = write_jsonl(
        tmp_path / "log.jsonl", *(make_round(f"R-{n}", bets=late) for n in range(100))
    )
    db = tmp_path / "store.sqlite"
    connection = connect(db)
    try:
        ingest(connection, [Source(log, "jsonl")], operator_config)
        connection.execute(
            "INSERT INTO findings (kind, game_id, report_month, round_id, source_file,"
            " source_line, message) VALUES ('late_bet', 'live-baccarat-it', '2026-10', 'R-0',"
            " 'log.jsonl', 1, 'from the last run')"
        )
        pages = connection.execute("PRAGMA page_count").fetchone()[0]
        connection.execute(f"PRAGMA max_page_count = {pages}")
        with pytest.raises(DiskFull) as caught:
            verify(connection, operator_config, "2026-10")
        assert not connection.in_transaction
    finally:
        connection.close()
    assert str(caught.value).startswith(f"{db}: the disk is full")
    assert rows(db, "SELECT message FROM findings") == [("from the last run",)]
