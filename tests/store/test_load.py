"""Loading round logs into the store (round-log.md, cli.md ``ingest``): every bad line reported
and kept, the same data never loaded twice, conflicts never overwrite, one file all or nothing."""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from children import WarmChild
from helpers import (
    counts,
    dump,
    many_rounds_gz,
    rows,
    run_main,
    write_csv_pair,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from reporting.cli import app
from reporting.errors import InputError
from reporting.ingest.discovery import discover_sources
from reporting.store.load import ingest
from reporting.store.schema import connect

runner = CliRunner()


def cli(config: Path, *args: str):
    """``baccarat-report ingest ...`` in this process."""
    return runner.invoke(app, ["ingest", *args, "--config", str(config)])


def cli_json(config: Path, *args: str) -> tuple[int, dict]:
    result = cli(config, *args, "--json")
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, json.loads(result.stdout)


# --- one file holding every reject reason ---------------------------------------------------


@pytest.fixture
def every_reason_log(tmp_path, make_round, make_bet, write_jsonl):
    """A log whose lines 2-11 are each rejected for another reason, around good lines."""
    lines = [
        make_round("R-1"),  # 1
        '{"round_id": "R-2", "game": ',  # 2 bad_json
        {**make_round("R-3"), "settled_at": None},  # 3 missing_field
        make_round("R-4", banker_cards=["5D", "2X"]),  # 4 bad_card
        make_round("R-5", bets=[make_bet("B-5", stake=25.0)]),  # 5 bad_money
        make_round("R-6", settled_at="2026-10-03T18:40:41"),  # 6 naive_timestamp
        make_round("R-7", bets=[make_bet("B-7", type="dragon")]),  # 7 unknown_bet_type
        make_round("R-8", game="roulette-it"),  # 8 unknown_game
        make_round("R-1", hand_no=24),  # 9 conflict with line 1
        make_round("R-10", status="pending"),  # 10 bad_value
        make_round("R-11", bets=[make_bet("B-11", currency="DKK")]),  # 11 bad_value
        make_round("R-1"),  # 12 duplicate of line 1: skipped, not rejected
        "",  # 13 blank: skipped
        make_round("R-14", bets=[make_bet("B-14a"), make_bet("B-14b", type="tie")]),  # 14
    ]
    return write_jsonl(tmp_path / "every-reason.jsonl", *lines)


EVERY_REASON_REJECTS = [
    (2, "bad_json"),
    (3, "missing_field"),
    (4, "bad_card"),
    (5, "bad_money"),
    (6, "naive_timestamp"),
    (7, "unknown_bet_type"),
    (8, "unknown_game"),
    (9, "conflict"),
    (10, "bad_value"),
    (11, "bad_value"),
]


def test_json_output_lists_every_rejected_line(tmp_path, sample_config_path, every_reason_log):
    db = tmp_path / "store.sqlite"
    code, document = cli_json(sample_config_path, str(every_reason_log), "--db", str(db))

    assert code == 1
    assert {"rounds_loaded", "bets_loaded", "rounds_skipped_duplicate", "rejected"} <= set(document)
    assert (document["rounds_loaded"], document["bets_loaded"]) == (2, 3)
    assert document["rounds_skipped_duplicate"] == 1
    assert [(r["line"], r["reason"]) for r in document["rejected"]] == EVERY_REASON_REJECTS
    for reject in document["rejected"]:
        assert {"file", "line", "reason", "message"} <= set(reject)
        assert reject["file"] == str(every_reason_log)
        assert reject["message"].strip()
    assert "R-1" in document["rejected"][7]["message"]  # the conflict names the round
    # Everything rejected is kept in the database, with its file, line and text.
    stored = rows(
        db, "SELECT file_name, line, reason, raw_text FROM rejected_records ORDER BY line"
    )
    assert [(line, reason) for _, line, reason, _ in stored] == EVERY_REASON_REJECTS
    assert {file for file, *_ in stored} == {str(every_reason_log)}
    assert stored[0][3] == '{"round_id": "R-2", "game": '
    assert sorted(r[0] for r in rows(db, "SELECT round_id FROM rounds")) == ["R-1", "R-14"]


def test_human_output_prints_each_reject_as_path_line_reason_message(
    tmp_path, sample_config_path, every_reason_log
):
    _, document = cli_json(
        sample_config_path, str(every_reason_log), "--db", str(tmp_path / "a.db")
    )
    result = cli(sample_config_path, str(every_reason_log), "--db", str(tmp_path / "b.db"))

    assert result.exit_code == 1
    printed = result.stdout.splitlines()
    for reject in document["rejected"]:
        line = f"{reject['file']}:{reject['line']}: {reject['reason']}: {reject['message']}"
        assert line in printed


def test_exit_codes_of_the_real_command(
    tmp_path, sample_config_path, every_reason_log, make_round, write_jsonl
):
    clean = write_jsonl(tmp_path / "clean.jsonl", make_round("C-1"), make_round("C-2"))
    config = ("--config", str(sample_config_path))

    with_rejects = run_main(
        "ingest", str(every_reason_log), "--db", str(tmp_path / "a.db"), *config
    )
    without_rejects = run_main("ingest", str(clean), "--db", str(tmp_path / "b.db"), *config)
    as_json = run_main("ingest", str(clean), "--db", str(tmp_path / "c.db"), "--json", *config)

    assert with_rejects.returncode == 1, with_rejects.stderr
    assert f"{every_reason_log}:4: bad_card: " in with_rejects.stdout
    assert without_rejects.returncode == 0, without_rejects.stderr
    assert as_json.returncode == 0, as_json.stderr
    assert json.loads(as_json.stdout)["rounds_loaded"] == 2
    for result in (with_rejects, without_rejects, as_json):
        assert "Traceback" not in result.stderr


# --- never twice, never overwritten ---------------------------------------------------------


def test_the_same_file_loaded_twice_adds_nothing(
    tmp_path, sample_config_path, make_round, write_jsonl
):
    log = write_jsonl(tmp_path / "log.jsonl", make_round("R-1"), make_round("R-2"))
    db = tmp_path / "store.sqlite"

    first_code, first = cli_json(sample_config_path, str(log), "--db", str(db))
    before = dump(db)
    second_code, second = cli_json(sample_config_path, str(log), "--db", str(db))

    assert (first_code, first["rounds_loaded"], first["bets_loaded"]) == (0, 2, 2)
    assert second_code == 0
    assert (second["rounds_loaded"], second["bets_loaded"], second["rounds_skipped_duplicate"]) == (
        0,
        0,
        0,
    )
    assert second["rejected"] == []
    assert [item["status"] for item in second["files"]] == ["already_ingested"]
    assert dump(db) == before
    assert counts(db) == {"ingest_log": 1, "rounds": 2, "bets": 2, "rejected_records": 0}


def test_the_same_content_under_another_name_is_already_ingested(
    tmp_path, sample_config_path, make_round, write_jsonl
):
    log = write_jsonl(tmp_path / "log.jsonl", make_round("R-1"))
    copy = tmp_path / "copy" / "renamed.jsonl"
    copy.parent.mkdir()
    copy.write_bytes(log.read_bytes())
    db = tmp_path / "store.sqlite"
    cli_json(sample_config_path, str(log), "--db", str(db))
    before = dump(db)
    code, document = cli_json(sample_config_path, str(copy), "--db", str(db))
    assert code == 0
    assert [item["status"] for item in document["files"]] == ["already_ingested"]
    assert dump(db) == before


def test_an_empty_log_is_an_upload_not_begun_refused_and_never_recorded(
    tmp_path, sample_config_path
):
    """A log of no byte loaded as a clean log of no round: in the monthly job's inbox, a
    table's upload not yet begun at 06:00 let its month be published without it, exit 0. And
    once recorded, its hash (every empty file's) made the next empty upload, a gzip whose
    emptiness is refused, "already ingested". Any empty log is refused as a gzip cut short
    is, and recorded nowhere; a log of no round (a blank line) still loads clean."""
    db = tmp_path / "store.sqlite"
    for name in ("empty.jsonl", "late.jsonl.gz", "empty.jsonl"):
        empty = tmp_path / name
        empty.write_bytes(b"")
        code, document = cli_json(sample_config_path, str(empty), "--db", str(db))
        assert code == 2
        assert [(item["status"], item["error"]) for item in document["files"]] == [
            (
                "failed",
                f"{empty}: an empty file: it is still being written, or was cut; nothing of it"
                " was loaded (it loads at the next run once whole; remove it if it is meant to"
                " be empty)",
            )
        ]
    assert counts(db) == {"ingest_log": 0, "rounds": 0, "bets": 0, "rejected_records": 0}
    blank = tmp_path / "blank.jsonl"
    blank.write_bytes(b"\n")
    code, document = cli_json(sample_config_path, str(blank), "--db", str(db))
    assert (code, document["rounds_loaded"], document["rejected"]) == (0, 0, [])


def test_a_file_with_rejects_loaded_twice_stores_its_rejects_once(
    tmp_path, sample_config_path, every_reason_log
):
    db = tmp_path / "store.sqlite"
    cli_json(sample_config_path, str(every_reason_log), "--db", str(db))
    before = dump(db)
    _, second = cli_json(sample_config_path, str(every_reason_log), "--db", str(db))
    assert second["rounds_loaded"] == 0 and second["rejected"] == []
    assert dump(db) == before


def test_another_file_of_known_rounds_adds_nothing_and_counts_duplicates(
    tmp_path, sample_config_path, make_round, write_jsonl
):
    db = tmp_path / "store.sqlite"
    first = write_jsonl(tmp_path / "a.jsonl", make_round("R-1"), make_round("R-2"))
    # The same rounds, spelled differently: other card spellings, another offset, a blank line.
    second = write_jsonl(
        tmp_path / "b.jsonl",
        make_round("R-2", player_cards=["9h", "K♠"], settled_at="2026-10-03T20:40:41.87+02:00"),
        "",
        make_round(
            "R-1", banker_cards=["5d", "2c"], betting_closed_at="2026-10-03T18:40:17.000+00:00"
        ),
    )
    cli_json(sample_config_path, str(first), "--db", str(db))
    before = dump(db, with_log=False)

    code, document = cli_json(sample_config_path, str(second), "--db", str(db))

    assert code == 0
    assert (document["rounds_loaded"], document["bets_loaded"]) == (0, 0)
    assert document["rounds_skipped_duplicate"] == 2
    assert document["rejected"] == []
    assert dump(db, with_log=False) == before
    assert rows(
        db,
        "SELECT file_name, rounds_loaded, rounds_skipped_duplicate FROM ingest_log ORDER BY ingest_id",
    ) == [
        (str(first), 2, 0),
        (str(second), 0, 2),
    ]


def test_a_known_round_with_other_content_is_a_conflict_and_is_not_overwritten(
    tmp_path, sample_config_path, make_round, make_bet, write_jsonl
):
    db = tmp_path / "store.sqlite"
    first = write_jsonl(tmp_path / "a.jsonl", make_round("R-1"))
    changed = make_round("R-1", bets=[make_bet("R-1-B1", payout="50.00")])
    second = write_jsonl(tmp_path / "b.jsonl", make_round("R-0"), changed)
    cli_json(sample_config_path, str(first), "--db", str(db))
    round_before = rows(db, "SELECT * FROM rounds WHERE round_id = 'R-1'")
    bets_before = rows(db, "SELECT * FROM bets WHERE round_id = 'R-1'")

    code, document = cli_json(sample_config_path, str(second), "--db", str(db))

    assert code == 1
    assert [(r["file"], r["line"], r["reason"]) for r in document["rejected"]] == [
        (str(second), 2, "conflict")
    ]
    assert f"{first}:1" in document["rejected"][0]["message"]  # where the stored round came from
    assert document["rounds_loaded"] == 1  # R-0 still loads
    assert rows(db, "SELECT * FROM rounds WHERE round_id = 'R-1'") == round_before
    assert rows(db, "SELECT * FROM bets WHERE round_id = 'R-1'") == bets_before
    assert rows(db, "SELECT payout_cents FROM bets WHERE round_id = 'R-1'") == [(0,)]
    [(reason, round_id, raw_text)] = rows(
        db, "SELECT reason, round_id, raw_text FROM rejected_records"
    )
    assert (reason, round_id) == ("conflict", "R-1")
    assert raw_text


@pytest.mark.parametrize("same_file", [False, True], ids=["a later file", "the same file"])
def test_a_conflict_that_moves_a_round_into_the_next_month_bears_on_the_stored_round_s_month(
    tmp_path, sample_config_path, make_round, write_jsonl, same_file
):
    """A provider re-sent a round of 31 October 23:59:50 Rome time as settled after midnight:
    the conflict was given the line's month, November, and October's audit, which counts the
    stored round, said nothing of it. It bears on the stored round's month now."""
    db = tmp_path / "store.sqlite"
    stored = make_round("R-1", settled_at="2026-10-31T22:59:50Z")  # 23:59:50 in Rome
    resent = make_round("R-1", settled_at="2026-10-31T23:00:10Z")  # 00:00:10 on 1 November
    if same_file:
        cli_json(
            sample_config_path,
            str(write_jsonl(tmp_path / "a.jsonl", stored, resent)),
            "--db",
            str(db),
        )
    else:
        cli_json(
            sample_config_path, str(write_jsonl(tmp_path / "a.jsonl", stored)), "--db", str(db)
        )
        cli_json(
            sample_config_path, str(write_jsonl(tmp_path / "b.jsonl", resent)), "--db", str(db)
        )

    assert rows(db, "SELECT report_month FROM rounds") == [("2026-10",)]
    assert rows(db, "SELECT reason, report_month FROM rejected_records") == [
        ("conflict", "2026-10")
    ]


@pytest.mark.parametrize(
    "change",
    [
        {"settled_at": "2026-10-03T18:40:41.871Z"},
        {"player_cards": ["9H", "QS"]},
        {"status": "void", "void_reason": "misdeal"},
        {"table_id": "LB02"},
        {"shoe_id": None},
    ],
    ids=["settled_at", "cards", "status", "table", "shoe"],
)
def test_any_change_of_content_is_a_conflict(
    change, tmp_path, sample_config_path, make_round, write_jsonl
):
    db = tmp_path / "store.sqlite"
    cli_json(
        sample_config_path,
        str(write_jsonl(tmp_path / "a.jsonl", make_round("R-1"))),
        "--db",
        str(db),
    )
    before = dump(db, with_log=False)
    code, document = cli_json(
        sample_config_path,
        str(write_jsonl(tmp_path / "b.jsonl", make_round("R-1", **change))),
        "--db",
        str(db),
    )
    assert code == 1
    assert [r["reason"] for r in document["rejected"]] == ["conflict"]
    assert dump(db, with_log=False)["rounds"] == before["rounds"]


def test_the_same_round_in_json_lines_and_in_a_csv_pair_is_a_duplicate(
    tmp_path, sample_config_path, make_round, make_bet, write_jsonl
):
    record = make_round(
        "R-1", bets=[make_bet("B-1"), make_bet("B-2", type="tie", stake="5", placed_at=None)]
    )
    csv_spelling = make_round(
        "R-1",
        player_cards=["9h", "K♠"],
        settled_at="2026-10-03T20:40:41.870+02:00",
        bets=[make_bet("B-2", type="tie", stake="5.00", placed_at=None), make_bet("B-1")],
    )
    jsonl = write_jsonl(tmp_path / "log.jsonl", record)
    rounds_csv, _ = write_csv_pair(tmp_path / "csv", [csv_spelling])
    db = tmp_path / "store.sqlite"
    cli_json(sample_config_path, str(jsonl), "--db", str(db))
    before = dump(db, with_log=False)

    code, document = cli_json(sample_config_path, str(rounds_csv.parent), "--db", str(db))

    assert code == 0
    assert document["rejected"] == []
    assert (document["rounds_loaded"], document["rounds_skipped_duplicate"]) == (0, 1)
    assert dump(db, with_log=False) == before


def test_a_round_repeated_in_a_csv_pair_is_a_duplicate_not_a_conflict(
    tmp_path, sample_config_path, make_round
):
    """The same rounds.csv row twice is the same round, like the same JSON line twice."""
    rounds_csv, bets_csv = write_csv_pair(tmp_path / "csv", [make_round("R-1"), make_round("R-2")])
    with rounds_csv.open("a", encoding="utf-8", newline="") as handle:
        handle.write(rounds_csv.read_text(encoding="utf-8").splitlines()[1] + "\r\n")
    code, document = cli_json(
        sample_config_path, str(rounds_csv), str(bets_csv), "--db", str(tmp_path / "db")
    )
    assert document["rejected"] == []
    assert (document["rounds_loaded"], document["rounds_skipped_duplicate"]) == (2, 1)
    assert code == 0


# --- CSV pairs, folders, gzip ---------------------------------------------------------------


@pytest.fixture
def csv_pair_with_a_bad_bet(tmp_path, make_round, make_bet):
    return write_csv_pair(
        tmp_path / "export",
        [
            make_round("R-1", bets=[make_bet("B-1"), make_bet("B-2", type="player")]),
            make_round("R-2", bets=[make_bet("B-3", stake="-5")]),  # bets.csv line 4
            make_round(
                "R-3",
                status="void",
                void_reason="misdeal",
                player_cards=["AS"],
                banker_cards=[],
                bets=[make_bet("B-4", payout="25.00")],
            ),
        ],
    )


@pytest.mark.parametrize("given_as", ["folder", "two paths", "two paths, bets first"])
def test_a_csv_pair_loads_and_rejects_a_bad_bet_with_the_bets_file_line(
    given_as, tmp_path, sample_config_path, csv_pair_with_a_bad_bet
):
    rounds_csv, bets_csv = csv_pair_with_a_bad_bet
    paths = {
        "folder": [str(rounds_csv.parent)],
        "two paths": [str(rounds_csv), str(bets_csv)],
        "two paths, bets first": [str(bets_csv), str(rounds_csv)],
    }[given_as]
    db = tmp_path / "store.sqlite"

    code, document = cli_json(sample_config_path, *paths, "--db", str(db))

    assert code == 1
    assert [(r["file"], r["line"], r["reason"]) for r in document["rejected"]] == [
        (str(bets_csv), 4, "bad_money")
    ]
    assert (document["rounds_loaded"], document["bets_loaded"]) == (2, 3)
    assert rows(db, "SELECT round_id, source_line FROM rounds ORDER BY round_id") == [
        ("R-1", 2),
        ("R-3", 4),
    ]
    assert rows(db, "SELECT bet_id, source_line FROM bets ORDER BY bet_id") == [
        ("B-1", 2),
        ("B-2", 3),
        ("B-4", 5),
    ]
    assert rows(db, "SELECT file_name, companion_name, format FROM ingest_log") == [
        (str(rounds_csv), str(bets_csv), "csv")
    ]


def test_a_bets_csv_without_its_rounds_csv_in_a_folder_is_not_silently_ignored(
    tmp_path, sample_config_path, make_round, write_jsonl
):
    """A folder's rounds.csv without bets.csv is refused; the other way round must not be
    skipped without a word either (round-log.md: never silently dropped)."""
    folder = tmp_path / "inbox"
    write_jsonl(folder / "a.jsonl", make_round("A-1"))
    _, bets_csv = write_csv_pair(folder / "export", [make_round("C-1")])
    (folder / "export" / "rounds.csv").unlink()
    result = cli(sample_config_path, str(folder), "--db", str(tmp_path / "store.sqlite"))
    assert result.exit_code in (1, 2)
    assert "bets.csv" in result.output + repr(result.exception)


def test_a_lone_csv_file_is_refused(tmp_path, sample_config_path, make_round):
    _, bets_csv = write_csv_pair(tmp_path / "export", [make_round("R-1")])
    with pytest.raises(InputError, match="pair"):
        discover_sources([bets_csv])


def test_a_folder_is_read_whole(tmp_path, sample_config_path, make_round, write_jsonl):
    folder = tmp_path / "inbox"
    write_jsonl(folder / "a.jsonl", make_round("A-1"), make_round("A-2"))
    plain = write_jsonl(tmp_path / "b.jsonl", make_round("B-1"))
    (folder / "nested").mkdir(parents=True)
    (folder / "nested" / "b.jsonl.gz").write_bytes(gzip.compress(plain.read_bytes()))
    write_csv_pair(folder / "csv", [make_round("C-1"), make_round("C-2"), make_round("C-3")])
    (folder / "README.txt").write_text("not a round log", encoding="utf-8")
    db = tmp_path / "store.sqlite"

    code, document = cli_json(sample_config_path, str(folder), "--db", str(db))

    assert code == 0
    assert (document["rounds_loaded"], document["bets_loaded"]) == (6, 6)
    assert sorted(r[0] for r in rows(db, "SELECT round_id FROM rounds")) == [
        "A-1",
        "A-2",
        "B-1",
        "C-1",
        "C-2",
        "C-3",
    ]
    assert sorted(rows(db, "SELECT format, rounds_loaded FROM ingest_log")) == [
        ("csv", 3),
        ("jsonl", 2),
        ("jsonl.gz", 1),
    ]


def test_a_gzipped_log_loads_exactly_like_the_plain_one(
    tmp_path, sample_config_path, every_reason_log
):
    gz = tmp_path / "every-reason.jsonl.gz"
    gz.write_bytes(gzip.compress(every_reason_log.read_bytes()))
    plain_db, gz_db = tmp_path / "plain.sqlite", tmp_path / "gz.sqlite"

    plain_code, plain = cli_json(sample_config_path, str(every_reason_log), "--db", str(plain_db))
    gz_code, gzipped = cli_json(sample_config_path, str(gz), "--db", str(gz_db))

    assert plain_code == gz_code == 1
    for key in ("rounds_loaded", "bets_loaded", "rounds_skipped_duplicate"):
        assert plain[key] == gzipped[key]
    assert [(r["line"], r["reason"]) for r in gzipped["rejected"]] == EVERY_REASON_REJECTS
    assert {r["file"] for r in gzipped["rejected"]} == {str(gz)}
    plain_rows, gz_rows = dump(plain_db, with_log=False), dump(gz_db, with_log=False)
    assert plain_rows["rounds"] == gz_rows["rounds"]
    assert plain_rows["bets"] == gz_rows["bets"]

    def without_file(rejects):
        return [(r[0], r[1], *r[3:]) for r in rejects]  # reject_id, ingest_id, line, ...

    assert without_file(plain_rows["rejected_records"]) == without_file(gz_rows["rejected_records"])
    [(gz_format, gz_sha, gz_size)] = rows(
        gz_db, "SELECT format, file_sha256, file_size FROM ingest_log"
    )
    assert gz_format == "jsonl.gz"
    assert gz_sha == hashlib.sha256(gz.read_bytes()).hexdigest()  # the file as stored on disk
    assert gz_size == gz.stat().st_size


# --- could not run: exit 2, one line, no traceback ------------------------------------------


def test_a_missing_path_exits_2_with_one_line(tmp_path, sample_config_path):
    missing = tmp_path / "no-such-log.jsonl"
    result = run_main(
        "ingest", str(missing), "--db", str(tmp_path / "db"), "--config", str(sample_config_path)
    )
    assert result.returncode == 2
    assert "Traceback" not in result.stderr + result.stdout
    [message] = result.stderr.strip().splitlines()
    assert str(missing) in message


def test_a_file_that_is_not_a_round_log_exits_2(tmp_path, sample_config_path):
    other = tmp_path / "rounds.xlsx"
    other.write_bytes(b"PK\x03\x04")
    result = run_main(
        "ingest", str(other), "--db", str(tmp_path / "db"), "--config", str(sample_config_path)
    )
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("damage", ["truncated", "corrupted", "not gzip"])
def test_an_unreadable_gz_file_exits_2_and_loads_nothing_of_it(
    damage, tmp_path, sample_config_path, make_round, write_jsonl
):
    db = tmp_path / "store.sqlite"
    config = ("--config", str(sample_config_path))
    earlier = write_jsonl(tmp_path / "earlier.jsonl", make_round("E-1"), '{"bad')
    same_run = write_jsonl(tmp_path / "same-run.jsonl", make_round("S-1"))
    # Enough rounds that several batches are written before the damage is reached.
    bad = many_rounds_gz(tmp_path / "damaged.jsonl.gz", make_round, 12_000)
    data = bad.read_bytes()
    if damage == "truncated":
        bad.write_bytes(data[: len(data) * 3 // 4])
    elif damage == "corrupted":
        middle = len(data) * 3 // 4
        bad.write_bytes(
            data[:middle]
            + bytes(b ^ 0x5A for b in data[middle : middle + 64])
            + data[middle + 64 :]
        )
    else:
        bad.write_bytes(b"this is not gzip data\n" * 10)
    assert cli(sample_config_path, str(earlier), "--db", str(db)).exit_code == 1

    result = run_main("ingest", str(same_run), str(bad), "--db", str(db), *config)

    assert result.returncode == 2, result.stdout + result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    assert any(str(bad) in line for line in (result.stdout + result.stderr).splitlines())
    assert sorted(r[0] for r in rows(db, "SELECT round_id FROM rounds")) == ["E-1", "S-1"]
    assert rows(db, "SELECT file_name FROM ingest_log ORDER BY ingest_id") == [
        (str(earlier),),
        (str(same_run),),
    ]
    assert rows(db, "SELECT file_name, line FROM rejected_records") == [(str(earlier), 2)]
    assert rows(db, "SELECT count(*) FROM bets WHERE round_id LIKE 'GZ-%'") == [(0,)]


# --- what the store holds -------------------------------------------------------------------


def test_the_summary_says_the_months_the_rounds_were_loaded_into(
    tmp_path, sample_config_path, make_round, write_jsonl
):
    """A profile's times read in the wrong unit (epoch milliseconds for seconds) loaded every
    round into 1970-01 without a reject, exit 0: the summary now names the months loaded."""
    from reporting.cli.ingest import loaded_months
    from reporting.store.load import FileResult, IngestResult

    september = make_round("R-3", settled_at="2026-09-30T20:00:00Z")
    log = write_jsonl(tmp_path / "log.jsonl", make_round("R-1"), make_round("R-2"), september)
    db = str(tmp_path / "store.sqlite")
    result = cli(sample_config_path, str(log), "--db", db)
    assert result.exit_code == 0, result.output
    assert "Rounds loaded by month (in each game's time zone): 2026-09 (1), 2026-10 (2)" in (
        result.stdout.splitlines()
    )
    again = write_jsonl(tmp_path / "again.jsonl", make_round("R-4"))
    code, document = cli_json(sample_config_path, str(again), "--db", db)
    assert (code, document["files"][0]["rounds_by_month"]) == (0, {"2026-10": 1})
    many = IngestResult([FileResult("a", "x", "loaded", months={f"2026-{m:02}": m for m in range(1, 13)})])  # fmt: skip
    assert loaded_months(many) == (
        "2026-01 (1), 2026-02 (2), 2026-03 (3), ... 6 more ..., 2026-10 (10), 2026-11 (11),"
        " 2026-12 (12)"
    )


def test_a_round_of_a_month_no_report_can_take_is_rejected_with_its_month(
    tmp_path, sample_config_path, make_round, write_jsonl
):
    """A round of 1926 (or of 2126) loaded: no command could verify or publish its month
    (1980-01 to 2099-12), and the run that named it late advised `verify --month 1926-10`,
    which refuses that month. It is rejected now, as the month its game's time zone gives."""
    log = write_jsonl(
        tmp_path / "log.jsonl",
        make_round("R-1", settled_at="1926-10-10T12:00:00Z"),
        make_round("R-2", settled_at="1979-12-31T23:30:00Z"),  # 1980-01 in Rome
        make_round("R-3", settled_at="2099-12-31T23:30:00Z"),  # 2100-01 in Rome
        make_round("R-4"),
    )
    db = tmp_path / "store.sqlite"
    code, document = cli_json(sample_config_path, str(log), "--db", str(db))
    assert (code, document["files"][0]["rounds_by_month"]) == (1, {"1980-01": 1, "2026-10": 1})
    said = "outside the months this tool reports (1980-01 to 2099-12)"
    assert rows(db, "SELECT line, reason, report_month FROM rejected_records ORDER BY line") == [
        (1, "bad_value", None),
        (3, "bad_value", None),
    ]
    messages = [
        message for (message,) in rows(db, "SELECT message FROM rejected_records ORDER BY line")
    ]
    assert all(said in message for message in messages), messages
    assert "falls in 2100-01 (Europe/Rome)" in messages[1]


def test_the_ingest_log_row_holds_hash_size_and_counts(
    tmp_path, sample_config_path, every_reason_log
):
    db = tmp_path / "store.sqlite"
    cli_json(sample_config_path, str(every_reason_log), "--db", str(db))
    data = every_reason_log.read_bytes()
    [row] = rows(
        db,
        "SELECT file_name, companion_name, file_sha256, file_size, format, lines_read,"
        " rounds_loaded, bets_loaded, rounds_skipped_duplicate, rejected, ingested_at FROM ingest_log",
    )
    assert row[:10] == (
        str(every_reason_log),
        None,
        hashlib.sha256(data).hexdigest(),
        len(data),
        "jsonl",
        13,  # every line but the blank one
        2,
        3,
        1,
        len(EVERY_REASON_REJECTS),
    )
    assert row[10].endswith("Z")


def test_every_stored_round_and_bet_points_back_to_its_file_and_line(
    tmp_path, sample_config_path, make_round, make_bet, write_jsonl
):
    first = write_jsonl(tmp_path / "a.jsonl", make_round("A-1"), "", make_round("A-3"))
    second = write_jsonl(
        tmp_path / "b.jsonl",
        "{",
        make_round("B-2", bets=[make_bet("X-1"), make_bet("X-2", type="tie")]),
    )
    db = tmp_path / "store.sqlite"
    cli_json(sample_config_path, str(first), str(second), "--db", str(db))

    assert rows(
        db,
        "SELECT round_id, file_name, source_line FROM rounds JOIN ingest_log USING (ingest_id)"
        " ORDER BY round_id",
    ) == [("A-1", str(first), 1), ("A-3", str(first), 3), ("B-2", str(second), 2)]
    assert rows(
        db, "SELECT bet_id, source_line FROM bets WHERE round_id = 'B-2' ORDER BY bet_id"
    ) == [
        ("X-1", 2),
        ("X-2", 2),
    ]
    assert rows(db, "SELECT file_name, line, reason FROM rejected_records") == [
        (str(second), 1, "bad_json")
    ]


def test_stored_values_are_canonical(
    tmp_path, sample_config_path, make_round, make_bet, write_jsonl
):
    log = write_jsonl(
        tmp_path / "log.jsonl",
        make_round(
            "R-1",
            player_cards=["10h", "Td", "K♣"],
            banker_cards=["as", "9♦"],
            started_at="2026-10-03T20:40:02.12+02:00",
            settled_at="2026-10-31T23:30:00Z",
            bets=[make_bet("B-1", stake="5", payout="10", placed_at="2026-10-03T18:40:09.5Z")],
        ),
    )
    db = tmp_path / "store.sqlite"
    cli_json(sample_config_path, str(log), "--db", str(db))
    assert rows(
        db, "SELECT player_cards, banker_cards, started_at, settled_at, report_month FROM rounds"
    ) == [
        ("10H 10D KC", "AS 9D", "2026-10-03T18:40:02.120Z", "2026-10-31T23:30:00.000Z", "2026-11")
    ]
    assert rows(db, "SELECT stake_cents, payout_cents, placed_at FROM bets") == [
        (500, 1000, "2026-10-03T18:40:09.500Z")
    ]


def test_money_columns_hold_integers(
    tmp_path, sample_config_path, make_round, make_bet, write_jsonl
):
    log = write_jsonl(
        tmp_path / "log.jsonl",
        make_round(
            "R-1",
            bets=[
                make_bet("B-1", stake="0.1", payout="0"),
                make_bet("B-2", stake="7.35", payout="14.7"),
            ],
        ),
    )
    db = tmp_path / "store.sqlite"
    cli_json(sample_config_path, str(log), "--db", str(db))
    assert rows(
        db,
        "SELECT typeof(stake_cents), typeof(payout_cents), stake_cents, payout_cents FROM bets ORDER BY bet_id",
    ) == [
        ("integer", "integer", 10, 0),
        ("integer", "integer", 735, 1470),
    ]
    assert rows(db, "SELECT DISTINCT typeof(hand_no), typeof(source_line) FROM rounds") == [
        ("integer", "integer")
    ]


def decimal_spellings(cents: int) -> st.SearchStrategy[str]:
    """Every way the log may write an amount: "12.30", "12.3"; "5", "5.0", "5.00"."""
    units, fraction = divmod(cents, 100)
    spellings = [f"{units}.{fraction:02d}"]
    if fraction % 10 == 0:
        spellings.append(f"{units}.{fraction // 10}")
    if fraction == 0:
        spellings.append(str(units))
    return st.sampled_from(spellings)


amounts = st.lists(
    st.tuples(
        st.integers(min_value=1, max_value=10**11),  # stake: one cent up to a billion
        st.integers(min_value=0, max_value=10**12),
    ),
    min_size=1,
    max_size=8,
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), bets=amounts)
def test_a_round_trip_through_ingest_changes_no_amount(
    data, bets, operator_config, make_round, make_bet
):
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "log.jsonl"
        record = make_round(
            "R-1",
            bets=[
                make_bet(
                    f"B-{n}",
                    stake=data.draw(decimal_spellings(stake)),
                    payout=data.draw(decimal_spellings(payout)),
                )
                for n, (stake, payout) in enumerate(bets)
            ],
        )
        log.write_text(json.dumps(record) + "\n", encoding="utf-8")
        connection = connect(Path(folder) / "store.sqlite")
        try:
            result = ingest(connection, discover_sources([log]), operator_config)
            stored = connection.execute(
                "SELECT stake_cents, payout_cents FROM bets ORDER BY CAST(substr(bet_id, 3) AS INTEGER)"
            ).fetchall()
        finally:
            connection.close()
    assert result.rejected_count == 0
    assert stored == bets


# --- values the database cannot hold must be rejected, not crash the load ------------------


def test_a_utc_offset_beyond_14_hours_is_rejected_not_a_crash(
    tmp_path, sample_config_path, make_round, write_jsonl
):
    """Python reads "+15:00", SQLite's date functions do not (they stop at +14:00)."""
    log = write_jsonl(
        tmp_path / "log.jsonl",
        make_round("R-1"),
        make_round("R-2", settled_at="2026-10-03T18:40:41.870+15:00"),
    )
    db = tmp_path / "store.sqlite"
    result = cli(sample_config_path, str(log), "--db", str(db), "--json")
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    document = json.loads(result.stdout)
    assert [(r["line"], r["reason"]) for r in document["rejected"]] == [(2, "bad_value")]
    assert rows(db, "SELECT round_id FROM rounds") == [("R-1",)]


def test_a_bet_time_is_never_silently_dropped(
    tmp_path, sample_config_path, make_round, make_bet, write_jsonl
):
    log = write_jsonl(
        tmp_path / "log.jsonl",
        make_round("R-1", bets=[make_bet("B-1", placed_at="2026-10-04T09:40:09.500+15:00")]),
    )
    db = tmp_path / "store.sqlite"
    _, document = cli_json(sample_config_path, str(log), "--db", str(db))
    stored = rows(db, "SELECT placed_at FROM bets")
    # Either the line is rejected, or the time is kept as the instant it names.
    if document["rejected"]:
        assert [(r["line"], r["reason"]) for r in document["rejected"]] == [(1, "bad_value")]
        assert stored == []
    else:
        assert stored == [("2026-10-03T18:40:09.500Z",)]


def test_a_hand_number_too_large_for_the_database_is_rejected_not_a_crash(
    tmp_path, sample_config_path, make_round, write_jsonl
):
    log = write_jsonl(
        tmp_path / "log.jsonl",
        make_round("R-1"),
        make_round("R-2", hand_no=18_446_744_073_709_551_615),
    )
    db = tmp_path / "store.sqlite"
    result = cli(sample_config_path, str(log), "--db", str(db), "--json")
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    document = json.loads(result.stdout)
    assert [(r["line"], r["reason"]) for r in document["rejected"]] == [(2, "bad_value")]
    assert rows(db, "SELECT round_id FROM rounds") == [("R-1",)]


def test_an_amount_too_large_for_the_database_is_rejected_not_a_crash(
    tmp_path, sample_config_path, make_round, make_bet, write_jsonl
):
    log = write_jsonl(
        tmp_path / "log.jsonl",
        make_round("R-1"),
        make_round("R-2", bets=[make_bet("B-2", stake="99999999999999999999.00")]),
    )
    db = tmp_path / "store.sqlite"
    result = cli(sample_config_path, str(log), "--db", str(db), "--json")
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    document = json.loads(result.stdout)
    assert [(r["line"], r["reason"]) for r in document["rejected"]] == [(2, "bad_money")]
    assert rows(db, "SELECT round_id FROM rounds") == [("R-1",)]


# --- a crash mid-file leaves the database as it was -----------------------------------------

BIG_ROUNDS = 30_000
BIG_BETS_PER_ROUND = 6


def write_big_log(path: Path, rounds: int) -> dict[str, int]:
    """A large valid live-baccarat-it log, with a few bad and duplicate lines mixed in;
    returns what a complete ingest must load."""
    bet_types = ("player", "banker", "tie", "player_pair", "banker_pair", "big")
    bet = (
        '{"bet_id":"%s-%d","account":"acc-%d","type":"%s","stake":"%d.%02d","payout":"0.00",'
        '"currency":"EUR","placed_at":"2026-10-%02dT%02d:%02d:%02d.%03dZ"}'
    )
    line = (
        '{"round_id":"%s","table_id":"LB%02d","game":"live-baccarat-it","shoe_id":"S%d",'
        '"hand_no":%d,"settled_at":"2026-10-%02dT%02d:%02d:%02d.%03d+00:00","status":"settled",'
        '"player_cards":["9H","KS"],"banker_cards":["5D","2C"],"bets":[%s]}\n'
    )
    rejected = duplicates = 0
    with path.open("w", encoding="utf-8") as handle:
        for n in range(rounds):
            round_id = f"BIG-{n:07d}"
            day, hour, minute, second, milli = 1 + n % 30, n % 24, n // 24 % 60, n % 60, n % 1000
            bets = ",".join(
                bet
                % (
                    round_id,
                    k,
                    n % 5000,
                    bet_types[k],
                    5 + k,
                    n % 100,
                    day,
                    hour,
                    minute,
                    second,
                    milli,
                )
                for k in range(BIG_BETS_PER_ROUND)
            )
            text = line % (
                round_id,
                n % 12,
                n // 70,
                n % 70 + 1,
                day,
                hour,
                minute,
                second,
                milli,
                bets,
            )
            handle.write(text)
            if n % 20_000 == 7:
                handle.write(text)  # the same round again: a duplicate
                duplicates += 1
            if n % 25_000 == 3:
                handle.write(text.replace('"EUR"', '"DKK"', 1).replace(round_id, f"BAD-{n}"))
                rejected += 1
    return {
        "rounds": rounds,
        "bets": rounds * BIG_BETS_PER_ROUND,
        "duplicates": duplicates,
        "rejected": rejected,
    }


@pytest.fixture(scope="module")
def big_log(tmp_path_factory) -> tuple[Path, dict[str, int]]:
    path = tmp_path_factory.mktemp("big") / "big.jsonl"
    expected = write_big_log(path, BIG_ROUNDS)
    return path, expected


def start_ingest(*args: str) -> subprocess.Popen:
    """The real command in its own session, so that it and any worker can be killed together."""
    return WarmChild(
        [sys.executable, "-m", "reporting", "ingest", *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )


def live_processes_of_group(group: int) -> list[int]:
    """Processes of a process group that are still running (zombies do not count)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        state, _parent, process_group = stat[stat.rindex(")") + 2 :].split()[:3]
        if int(process_group) == group and state not in ("Z", "X"):
            found.append(int(entry))
    return found


def wait_until_gone(group: int, seconds: float) -> list[int]:
    deadline = time.monotonic() + seconds
    while (left := live_processes_of_group(group)) and time.monotonic() < deadline:
        time.sleep(0.05)
    return left


def kill_group(process: subprocess.Popen) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=30)
    if process.stderr is not None:
        process.stderr.close()


def totals(db: Path) -> dict[str, object]:
    return {
        **counts(db),
        "stakes": rows(db, "SELECT sum(stake_cents) FROM bets")[0][0],
        "rejected_lines": rows(
            db, "SELECT group_concat(line) FROM (SELECT line FROM rejected_records ORDER BY line)"
        )[0][0],
        "logged": rows(
            db,
            "SELECT group_concat(x) FROM (SELECT lines_read || '/' || rounds_loaded || '/' || bets_loaded"
            " || '/' || rounds_skipped_duplicate || '/' || rejected AS x FROM ingest_log ORDER BY ingest_id)",
        )[0][0],
    }


def bytes_read(group: int) -> int:
    """Bytes read so far by the running processes of a group (``rchar`` of /proc/PID/io)."""
    total = 0
    for pid in live_processes_of_group(group):
        try:
            io = Path(f"/proc/{pid}/io").read_text()
        except OSError:
            continue
        total += int(io.split("rchar:")[1].split()[0])
    return total


def wait_until_mid_file(process: subprocess.Popen, log: Path, parsed: float = 0.5) -> None:
    """Wait until the ingest has parsed about ``parsed`` of ``log``: it reads the file once
    whole to hash it, then again to parse it (imports and the database add a few MB)."""
    size = log.stat().st_size
    deadline = time.monotonic() + 120
    while process.poll() is None and time.monotonic() < deadline:
        if bytes_read(process.pid) > (1 + parsed) * size:
            return
        time.sleep(0.02)
    raise AssertionError("the ingest ended before it reached the middle of the file")


@pytest.mark.slow
def test_a_kill_mid_file_leaves_the_database_as_it_was_and_a_rerun_completes(
    tmp_path, sample_config_path, big_log, make_round, write_jsonl
):
    big, expected = big_log
    small = write_jsonl(tmp_path / "small.jsonl", make_round("SMALL-1"), "{oops")
    config = ("--config", str(sample_config_path))

    # The reference: an uninterrupted run into a fresh database.
    reference_db = tmp_path / "reference.sqlite"
    assert cli(sample_config_path, str(small), "--db", str(reference_db)).exit_code == 1
    reference = run_main("ingest", str(big), "--db", str(reference_db), *config)
    assert reference.returncode == 1, reference.stderr  # the mixed-in bad lines
    reference_totals = totals(reference_db)
    assert reference_totals["rounds"] == expected["rounds"] + 1
    assert reference_totals["bets"] == expected["bets"] + 1
    assert reference_totals["rejected_records"] == expected["rejected"] + 1

    db = tmp_path / "crashed.sqlite"
    assert cli(sample_config_path, str(small), "--db", str(db)).exit_code == 1
    before = dump(db)

    process = start_ingest(str(big), "--db", str(db), *config)
    try:
        wait_until_mid_file(process, big)
        assert process.poll() is None
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=30)
        assert process.returncode == -signal.SIGKILL
        assert wait_until_gone(process.pid, 5) == [], "a process of the killed ingest still runs"
    finally:
        kill_group(process)

    assert dump(db) == before  # nothing of the big file, everything of the small one
    assert rows(db, "PRAGMA integrity_check") == [("ok",)]

    rerun = run_main("ingest", str(big), "--db", str(db), *config)
    assert rerun.returncode == reference.returncode, rerun.stderr
    assert totals(db) == reference_totals


@pytest.mark.slow
def test_no_worker_outlives_a_killed_ingest(tmp_path, sample_config_path, big_log):
    """If the ingest process itself is killed (say by the OOM killer), nothing it started
    may keep running on its own."""
    big, _ = big_log
    db = tmp_path / "store.sqlite"
    process = start_ingest(str(big), "--db", str(db), "--config", str(sample_config_path))
    try:
        wait_until_mid_file(process, big, parsed=0.2)
        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=30)
        assert wait_until_gone(process.pid, 5) == [], "a worker of the killed ingest still runs"
    finally:
        kill_group(process)


def test_a_byte_that_is_not_utf8_in_a_csv_pair_rejects_its_row_only(tmp_path, operator_config):
    """As for JSON lines, a bad row is rejected with its file and line; the rest loads."""
    from reporting.sample.generator import generate_month

    folder = tmp_path / "csv"
    generate_month(operator_config, "2026-10", folder, rounds_per_day=2, fmt="csv", seed=3)
    rounds_csv, bets_csv = folder / "rounds.csv", folder / "bets.csv"
    clean_rounds = len(rounds_csv.read_bytes().splitlines()) - 1

    def spoil(path: Path, line_number: int) -> None:
        """A byte that is not UTF-8 in the row's table id (whatever its game)."""
        lines = path.read_bytes().splitlines(keepends=True)
        round_id, table_id, rest = lines[line_number - 1].split(b",", 2)
        lines[line_number - 1] = b",".join((round_id, table_id[:1] + b"\xff" + table_id[1:], rest))
        path.write_bytes(b"".join(lines))

    spoil(rounds_csv, 5)
    bet_lines = bets_csv.read_bytes().splitlines()
    spoiled_bet = next(
        number
        for number, text in enumerate(bet_lines, start=1)
        if number > 1
        and not text.startswith(rounds_csv.read_bytes().splitlines()[4].split(b",")[0])
    )
    lines = bets_csv.read_bytes().splitlines(keepends=True)
    lines[spoiled_bet - 1] = lines[spoiled_bet - 1].replace(b"acc-", b"acc-\xff", 1)
    bets_csv.write_bytes(b"".join(lines))

    connection = connect(tmp_path / "csv.sqlite")
    result = ingest(connection, discover_sources([folder]), operator_config)
    assert not result.failed
    rejected = {(Path(r.source_file).name, r.source_line, r.reason) for r in result.rejected}
    assert ("rounds.csv", 5, "bad_value") in rejected
    assert ("bets.csv", spoiled_bet, "bad_value") in rejected
    assert result.rounds_loaded == clean_rounds - 2
    messages = {r.message for r in result.rejected}
    assert messages == {"the row is not valid UTF-8"}


# --- the writer: rows as they come, told apart only when they must be ----------------------


def test_a_conflict_names_what_differs_in_the_round_log_s_words_and_units(
    tmp_path, operator_config, make_round, make_bet, write_jsonl
):
    """A conflict said only "with other content", and its raw line is the stored form in
    cents: the message names the first difference, as the round log writes it."""
    won = make_bet("X-1-B1", type="player", stake="10.00", payout="20.00")
    first = write_jsonl(tmp_path / "e1.jsonl", make_round("X-1", bets=[won]))
    paid_nothing = write_jsonl(
        tmp_path / "e2.jsonl", make_round("X-1", bets=[{**won, "payout": "0.00"}])
    )
    other_table = write_jsonl(
        tmp_path / "e3.jsonl", make_round("X-1", bets=[won], table_id="LB-IT-02")
    )
    connection = connect(tmp_path / "store.sqlite")
    try:
        sources = discover_sources([first, paid_nothing, other_table])
        result = ingest(connection, sources, operator_config)
    finally:
        connection.close()
    messages = [reject.message for item in result.files for reject in item.rejected]
    assert messages == [
        f"round 'X-1' was already loaded from {first}:1 with other content (the payout of bet"
        " 'X-1-B1': 20.00 stored, 0.00 on this line); the stored round is kept",
        f"round 'X-1' was already loaded from {first}:1 with other content (table_id:"
        " 'LB01' stored, 'LB-IT-02' on this line); the stored round is kept",
    ]


def test_a_conflict_after_a_duplicate_names_where_the_stored_round_is(
    tmp_path, operator_config, make_round, write_jsonl
):
    """A file repeats a round another file loaded (a duplicate: nothing loads), then gives it
    with other content: the conflict said "already loaded from line 1 of this file", where
    nothing was loaded; the stored round is the other file's."""
    first = write_jsonl(tmp_path / "a.jsonl", make_round("EQ-1"))
    again = write_jsonl(
        tmp_path / "b.jsonl",
        make_round("EQ-1"),  # 1 a duplicate of a.jsonl:1
        make_round("EQ-1", hand_no=9),  # 2 a conflict with it
    )
    connection = connect(tmp_path / "store.sqlite")
    try:
        result = ingest(connection, discover_sources([first, again]), operator_config)
    finally:
        connection.close()
    (reject,) = [reject for item in result.files for reject in item.rejected]
    assert reject.message == (
        f"round 'EQ-1' was already loaded from {first}:1 with other content (hand_no: 23"
        " stored, 9 on this line); the stored round is kept"
    )


@pytest.mark.parametrize("worker_min_bytes", [10**15, 0], ids=["in process", "worker"])
def test_a_batch_mixing_new_repeated_and_stored_rounds_loads_each_new_round_once(
    worker_min_bytes, tmp_path, monkeypatch, operator_config, make_round, make_bet, write_jsonl
):
    """The insert itself finds the rounds already stored (by an earlier file, or by an
    earlier batch of this file); a round twice in one batch is told apart before it. Each
    is a duplicate or a conflict as before, and no bet of a round left out is added; the
    same whether the rows were made in this process or came from the worker's frames."""
    import reporting.ingest.worker
    import reporting.store.load

    monkeypatch.setattr(reporting.store.load, "BATCH_ROUNDS", 4)  # lines 1-4, 5-8, 9-10
    monkeypatch.setattr(reporting.ingest.worker, "_usable_cpus", lambda: 2)
    earlier = write_jsonl(tmp_path / "earlier.jsonl", make_round("S-1"), make_round("S-2"))
    other_bets = [make_bet("S-2-X1"), make_bet("S-2-X2", type="tie")]
    two_bets = [make_bet("N-5-B1"), make_bet("N-5-B2", type="tie")]
    log = write_jsonl(
        tmp_path / "log.jsonl",
        make_round("N-1"),  # 1 new
        make_round("S-1"),  # 2 duplicate of the earlier file's line 1
        make_round("N-3"),  # 3 new
        make_round("S-2", bets=other_bets),  # 4 conflict with the earlier file's line 2
        make_round("N-5", bets=two_bets),  # 5 new
        make_round("N-1"),  # 6 duplicate of line 1 (an earlier batch)
        make_round("N-5", bets=two_bets, hand_no=9),  # 7 conflict with line 5 (this batch)
        make_round("N-5", bets=two_bets),  # 8 duplicate of line 5 (this batch)
        make_round("N-3", bets=[make_bet("N-3-Z")]),  # 9 conflict with line 3 (earlier batch)
        make_round("N-10"),  # 10 new
    )
    db = tmp_path / "store.sqlite"
    connection = connect(db)
    try:
        ingest(connection, discover_sources([earlier]), operator_config)
        result = ingest(
            connection,
            discover_sources([log]),
            operator_config,
            worker_min_bytes=worker_min_bytes,
        )
    finally:
        connection.close()

    (loaded,) = result.files
    assert (loaded.rounds_loaded, loaded.bets_loaded, loaded.rounds_skipped_duplicate) == (
        4,
        5,
        3,
    )
    assert [(r.source_line, r.reason, r.round_id) for r in loaded.rejected] == [
        (4, "conflict", "S-2"),
        (7, "conflict", "N-5"),
        (9, "conflict", "N-3"),
    ]
    assert [r.message for r in loaded.rejected] == [
        f"round 'S-2' was already loaded from {earlier}:2 with other content (bet 'S-2-B1' in"
        " the stored round only); the stored round is kept",
        "round 'N-5' was already loaded from line 5 of this file with other content (hand_no:"
        " 23 stored, 9 on this line); the stored round is kept",
        "round 'N-3' was already loaded from line 3 of this file with other content (bet"
        " 'N-3-B1' in the stored round only); the stored round is kept",
    ]
    assert rows(db, "SELECT round_id, source_line FROM rounds ORDER BY round_id") == [
        ("N-1", 1),
        ("N-10", 10),
        ("N-3", 3),
        ("N-5", 5),
        ("S-1", 1),
        ("S-2", 2),
    ]
    assert rows(db, "SELECT round_id, bet_id FROM bets ORDER BY round_id, bet_id") == [
        ("N-1", "N-1-B1"),
        ("N-10", "N-10-B1"),
        ("N-3", "N-3-B1"),
        ("N-5", "N-5-B1"),
        ("N-5", "N-5-B2"),
        ("S-1", "S-1-B1"),
        ("S-2", "S-2-B1"),
    ]
    assert rows(db, "SELECT lines_read, rounds_loaded, rejected FROM ingest_log") == [
        (2, 2, 0),
        (10, 4, 3),
    ]


def test_a_row_that_breaks_a_check_fails_the_write_it_is_never_skipped(tmp_path):
    """ON CONFLICT lets the insert pass over a round already stored (its primary key) and
    nothing else: a row the schema refuses still raises, as every row did before."""
    import sqlite3

    from reporting.ingest.sources import RowBatch, Source
    from reporting.store.load import FileResult, StoredNames
    from reporting.store.writer import BatchWriter

    connection = connect(tmp_path / "store.sqlite")
    row = ("R-1", "live-baccarat-it", "LB01", None, None, None, None)
    row += ("2026-10-03T18:40:41.870Z", "2026-10-03", "settled", None, "9H KS", "5D 2C", 1)
    bet = ("R-1", "B-1", "acc", "banker", 2500, 0, "EUR", None, 1)
    try:
        for rounds, bets in (
            ([row[:9] + ("pending",) + row[10:]], [bet]),  # status outside the CHECK
            ([row], [bet[:4] + (0,) + bet[5:]]),  # a stake of zero
        ):
            connection.execute("BEGIN IMMEDIATE")
            ingest_id = connection.execute(
                "INSERT INTO ingest_log (file_name, file_sha256, file_size, format,"
                " ingested_at) VALUES ('log.jsonl', 'x', 0, 'jsonl', 'now')"
            ).lastrowid
            result = FileResult("log.jsonl", "x", "loaded")
            names = StoredNames(Source(Path("log.jsonl"), "jsonl"), None)
            writer = BatchWriter(connection, ingest_id, result, 10, names)
            with pytest.raises(sqlite3.IntegrityError, match="CHECK constraint failed"):
                writer.write(RowBatch(rounds, bets, [1], [], 0))
            connection.execute("ROLLBACK")
    finally:
        connection.close()


def _cut_at_line_5(log: Path, whole: bytes) -> None:
    log.write_bytes(b"".join(whole.splitlines(keepends=True)[:4]))


def _added_to(log: Path, whole: bytes) -> None:
    with log.open("ab") as more:
        more.write(b'{"round_id": "late"\n')


def _replaced(log: Path, whole: bytes) -> None:
    swap = log.with_name("swap")
    swap.write_bytes(whole)
    swap.replace(log)


def _rewritten_in_place(log: Path, whole: bytes) -> None:
    """Rewritten at its size, its time of change set back, as ``rsync --inplace -t`` does:
    its hash was recorded, and the bets of other bytes loaded in its name."""
    before = log.stat()
    with log.open("r+b") as same_file:
        same_file.write(whole.replace(b'"stake": "25.00"', b'"stake": "99.00"'))
    os.utime(log, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert log.stat().st_mtime_ns == before.st_mtime_ns and log.stat().st_size == before.st_size


@pytest.mark.parametrize("change", [_cut_at_line_5, _added_to, _replaced, _rewritten_in_place])
@pytest.mark.parametrize("worker_min_bytes", [10**15, 0], ids=["in process", "worker"])
def test_a_file_changed_while_it_is_read_loads_nothing_and_loads_whole_later(
    worker_min_bytes, change, tmp_path, monkeypatch, operator_config, make_round, write_jsonl
):
    """A file its writer cut short while it was read kept its rounds up to the cut, in the
    name of the whole file's hash: sent again whole, it was "already ingested", and the rest
    of its rounds lost without a word. One added to was loaded again whole at the next run,
    its rejects stored twice. A file that changed while it was read now loads nothing, and
    loads whole once it stays the same."""
    import reporting.store.load

    monkeypatch.setattr(reporting.store.load, "BATCH_ROUNDS", 4)
    log = write_jsonl(
        tmp_path / "log.jsonl",
        *(make_round(f"R-{n}", hand_no=n) for n in range(1, 13)),
        "{oops",
    )
    whole = log.read_bytes()
    changed: list[int] = []

    def progress(source):
        def after_a_batch(position: int, total: int) -> None:
            if not changed:
                changed.append(position)
                change(log, whole)

        return after_a_batch

    db = tmp_path / "store.sqlite"
    connection = connect(db)
    try:
        (failed,) = ingest(
            connection,
            discover_sources([log]),
            operator_config,
            progress=progress,
            worker_min_bytes=worker_min_bytes,
        ).files
        assert changed
        assert (failed.status, failed.rounds_loaded) == ("failed", 0)
        changed_while_read = (
            f"{log}: changed while it was read (its size or a time of change is not what it"
            " was); nothing of it was loaded (it loads at the next run, once its writer has"
            " finished it)"
        )
        cut_mid_line = f"{log}:9: the last line has no newline and is not whole JSON"
        # (reading in this process, the reader may meet the cut itself, in the line it was in)
        assert failed.error == changed_while_read or failed.error.startswith(cut_mid_line)
        assert counts(db) == dict.fromkeys(counts(db), 0)

        log.write_bytes(whole)
        (loaded,) = ingest(
            connection, discover_sources([log]), operator_config, worker_min_bytes=worker_min_bytes
        ).files
    finally:
        connection.close()
    assert (loaded.status, loaded.rounds_loaded, loaded.rejected_count) == ("loaded", 12, 1)
    assert rows(db, "SELECT file_sha256, lines_read, rejected FROM ingest_log") == [
        (hashlib.sha256(whole).hexdigest(), 13, 1)
    ]
