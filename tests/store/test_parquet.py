"""The columnar copy of the store (reporting.store.parquet): rounds, bets and findings as
Parquet partitioned by month, game and table, read back with pyarrow's dataset reader as an
analyst's tool reads them."""

from __future__ import annotations

import errno
import fcntl
import json
import os
import sys
from datetime import UTC, datetime
from pathlib import Path

import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pytest
from helpers import bet_record as bet
from helpers import round_record, run_main, store_records

from reporting.cli import main
from reporting.cli.common import DEFAULT_DB
from reporting.config.loader import load_config
from reporting.errors import InputError
from reporting.store.parquet import MARKER, NothingToExport, export_parquet
from reporting.store.schema import connect


@pytest.fixture
def store(tmp_path):
    connection = connect(tmp_path / "store.sqlite")
    store_records(
        connection,
        [
            round_record("R-1", bet("R-1", "B-1", payout_cents=4875), bet("R-1", "B-2")),
            round_record("R-2", bet("R-2", "B-3"), table_id="LB02"),
            round_record(
                "R-3", bet("R-3", "B-4"), game_id="live-baccarat-gr", report_month="2026-09"
            ),
        ],
        file_name="october.jsonl",
    )
    connection.execute(
        "INSERT INTO findings (kind, game_id, report_month, round_id, bet_id,"
        " expected_payout_cents, logged_payout_cents, source_file, source_line, message)"
        " VALUES ('payout_mismatch', 'live-baccarat-it', '2026-10', 'R-1', 'B-1', 4750, 4875,"
        " 'october.jsonl', 1, 'overpaid')"
    )
    yield connection
    connection.close()


def read(folder, table):
    dataset = ds.dataset(folder / table, format="parquet", partitioning="hive")
    return dataset.to_table().to_pylist()


def test_every_row_is_copied_typed_and_partitioned(store, tmp_path):
    folder = tmp_path / "copy"
    result = export_parquet(store, folder)
    assert result.rows == {"rounds": 3, "bets": 4, "findings": 1}
    assert result.files == {"rounds": 3, "bets": 3, "findings": 1}
    assert (folder / "bets/report_month=2026-10/game_id=live-baccarat-it/table_id=LB01").is_dir()
    bets = sorted(read(folder, "bets"), key=lambda row: row["bet_id"])
    assert [(b["bet_id"], b["stake_cents"], b["payout_cents"]) for b in bets] == [
        ("B-1", 2500, 4875),
        ("B-2", 2500, 0),
        ("B-3", 2500, 0),
        ("B-4", 2500, 0),
    ]
    assert {(b["report_month"], b["game_id"], b["table_id"]) for b in bets} == {
        ("2026-10", "live-baccarat-it", "LB01"),
        ("2026-10", "live-baccarat-it", "LB02"),
        ("2026-09", "live-baccarat-gr", "LB01"),
    }
    rounds = {row["round_id"]: row for row in read(folder, "rounds")}
    assert rounds["R-1"]["settled_at"] == datetime(2026, 10, 3, 18, 40, 41, 870000, tzinfo=UTC)
    assert rounds["R-1"]["source_file"] == "october.jsonl"
    (finding,) = read(folder, "findings")
    assert (finding["kind"], finding["expected_payout_cents"], finding["table_id"]) == (
        "payout_mismatch",
        4750,
        "LB01",
    )


def test_one_month_and_a_second_export_replacing_the_first(store, tmp_path):
    folder = tmp_path / "copy"
    export_parquet(store, folder)
    first = {path.relative_to(folder): path.read_bytes() for path in folder.rglob("*.parquet")}
    export_parquet(store, folder)  # the same store: the same files
    again = {path.relative_to(folder): path.read_bytes() for path in folder.rglob("*.parquet")}
    assert again == first
    result = export_parquet(store, folder, month="2026-09")
    assert result.rows == {"rounds": 1, "bets": 1, "findings": 0}
    assert {row["round_id"] for row in read(folder, "rounds")} == {"R-3"}
    assert json.loads((folder / MARKER).read_text())["month"] == "2026-09"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".copy")] == [".copy.lock"]


def test_a_folder_of_other_files_is_not_overwritten(store, tmp_path):
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "notes.txt").write_text("keep me", encoding="utf-8")
    with pytest.raises(InputError, match="not an export of ours"):
        export_parquet(store, folder)
    assert [p.name for p in folder.iterdir()] == ["notes.txt"]


def test_files_put_in_an_earlier_copy_are_not_deleted_with_it(store, tmp_path):
    """An analyst's notes in the copy, and a folder of their own in it, went with the copy
    when the next export replaced it (exit 0); the export is refused and the copy kept."""
    folder = tmp_path / "copy"
    export_parquet(store, folder)
    (folder / "notes.md").write_text("mine", encoding="utf-8")
    (folder / "rounds" / "mine").mkdir()
    before = copy_of(folder)
    with pytest.raises(InputError, match=r"holds files no export wrote \(notes\.md, and 1 more\)"):
        export_parquet(store, folder)
    assert copy_of(folder) == before and (folder / "rounds" / "mine").is_dir()
    (folder / "notes.md").unlink()
    (folder / "rounds" / "mine").rmdir()
    assert export_parquet(store, folder).rows["rounds"] == 3  # a copy of its own files only


def test_the_copy_is_one_state_of_the_store_while_an_ingest_commits(store, tmp_path, monkeypatch):
    """Each table was read when its turn came: rounds and bets committed between the rounds
    and the bets gave a copy holding bets whose rounds it did not (exit 0)."""
    import reporting.store.parquet as parquet

    write_table = parquet._write_table
    other = connect(tmp_path / "store.sqlite")

    def then_an_ingest_commits(connection, folder, table, month, renamed):
        written = write_table(connection, folder, table, month, renamed)
        if folder.name == "rounds":
            store_records(other, [round_record("R-9", bet("R-9", "B-9"))], file_name="late.jsonl")
        return written

    monkeypatch.setattr(parquet, "_write_table", then_an_ingest_commits)
    try:
        result = export_parquet(store, tmp_path / "copy")
    finally:
        other.close()
    assert result.rows == {"rounds": 3, "bets": 4, "findings": 1}
    rounds = {row["round_id"] for row in read(tmp_path / "copy", "rounds")}
    assert {row["round_id"] for row in read(tmp_path / "copy", "bets")} <= rounds


def test_a_bet_of_a_csv_pair_names_the_bets_file_its_line_is_in(tmp_path, make_round):
    from helpers import write_csv_pair

    from reporting.ingest.sources import Source
    from reporting.store.load import ingest

    write_csv_pair(tmp_path / "pair", [make_round("LB01-20261003-0417")])
    connection = connect(tmp_path / "store.sqlite")
    try:
        pair = Source(tmp_path / "pair" / "rounds.csv", "csv", tmp_path / "pair" / "bets.csv")
        ingest(connection, [pair], load_config_of_sample())
        export_parquet(connection, tmp_path / "copy")
    finally:
        connection.close()
    ((bet_row,),) = [read(tmp_path / "copy", "bets")]
    (round_row,) = read(tmp_path / "copy", "rounds")
    assert (round_row["source_file"], round_row["source_line"]) == (
        f"{tmp_path}/pair/rounds.csv",
        2,
    )
    assert (bet_row["source_file"], bet_row["source_line"]) == (f"{tmp_path}/pair/bets.csv", 2)


def test_hostile_table_ids_make_no_folder_of_their_own(tmp_path):
    """A table id with a slash, or far too long for a file name, stays one partition folder
    inside the copy; the long one is named by its hash in the marker file."""
    connection = connect(tmp_path / "store.sqlite")
    long_id = "T" * 300
    store_records(
        connection,
        [
            round_record("R-1", bet("R-1", "B-1"), table_id="../../escape/LB"),
            round_record("R-2", bet("R-2", "B-2"), table_id=long_id),
            # what Hive's layout writes for a null: read back as one by every reader
            round_record("R-3", bet("R-3", "B-3"), table_id="__HIVE_DEFAULT_PARTITION__"),
        ],
        file_name="hostile.jsonl",
    )
    folder = tmp_path / "copy"
    export_parquet(connection, folder)
    connection.close()
    month = folder / "rounds/report_month=2026-10/game_id=live-baccarat-it"
    names = sorted(p.name for p in month.iterdir())
    assert "table_id=..%2F..%2Fescape%2FLB" in names
    assert not (tmp_path / "escape").exists()
    renamed = json.loads((folder / MARKER).read_text())["renamed_values"]
    assert sorted(renamed.values()) == sorted([long_id, "__HIVE_DEFAULT_PARTITION__"])
    assert all(f"table_id={name}" in names for name in renamed)
    ids = {row["table_id"] for row in read(folder, "rounds")}
    assert "../../escape/LB" in ids  # percent-decoded by the reader
    assert None not in ids  # no table id read back as a null


def test_the_command_writes_the_copy_and_refuses_a_bad_month(store, tmp_path):
    db = tmp_path / "store.sqlite"
    result = run_main("export", "--db", str(db), "--parquet", str(tmp_path / "out"))
    assert result.returncode == 0, result.stderr
    assert "bets: 4 rows in 3 files" in result.stdout
    bad = run_main("export", "--db", str(db), "--parquet", str(tmp_path / "o"), "--month", "10")
    assert bad.returncode == 2 and "expected YYYY-MM" in bad.stderr
    assert "Traceback" not in bad.stderr


def test_the_working_folder_and_a_swap_cut_short(store, tmp_path, monkeypatch):
    """``--parquet .`` is a folder like any other; a copy moved aside by an export killed
    between its two renames is put back by the next one before anything else."""
    work = tmp_path / "here"
    work.mkdir()
    monkeypatch.chdir(work)
    result = export_parquet(store, Path("."))
    assert result.folder == work and (work / MARKER).is_file()
    copy = tmp_path / "copy"
    export_parquet(store, copy)
    copy.rename(tmp_path / ".copy.old")  # killed after the first rename of the swap
    assert not copy.exists()
    export_parquet(store, copy, month="2026-09")
    assert json.loads((copy / MARKER).read_text())["month"] == "2026-09"
    assert not (tmp_path / ".copy.old").exists()
    with pytest.raises(InputError, match="not the file system's root"):
        export_parquet(store, Path("/"))


def copy_of(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def test_a_month_without_rounds_writes_nothing_and_keeps_the_copy(store, tmp_path):
    """Issue 23, 11: a month with no play replaced a full copy with an empty one, exit 0."""
    folder = tmp_path / "copy"
    export_parquet(store, folder)
    before = copy_of(folder)
    with pytest.raises(NothingToExport, match=f"no rounds of 2026-11: .* {folder} is left as"):
        export_parquet(store, folder, month="2026-11")
    assert copy_of(folder) == before
    db = tmp_path / "store.sqlite"
    result = run_main("export", "--db", str(db), "--parquet", str(folder), "--month", "2026-11")
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr.splitlines() == [
        f"baccarat-report: warning: {db}: the store holds no rounds of 2026-11: nothing"
        f" exported; {folder} is left as it was"
    ]
    assert copy_of(folder) == before
    empty = connect(tmp_path / "empty.sqlite")
    with pytest.raises(NothingToExport, match="no rounds at all: .* no copy was written"):
        export_parquet(empty, tmp_path / "new")
    empty.close()
    assert not (tmp_path / "new").exists()


def test_a_full_disk_names_the_folder_exits_2_and_keeps_the_copy(
    store, tmp_path, monkeypatch, capsys
):
    """The error a full disk gives (ENOSPC, as pyarrow raises it: no file name) raised by the
    Parquet writer mid-copy."""
    folder = tmp_path / "copy"
    export_parquet(store, folder)
    before = copy_of(folder)

    def write_table(self, *args, **kwargs):
        raise OSError(errno.ENOSPC, "Error writing bytes to file. No space left on device")

    monkeypatch.setattr(pq.ParquetWriter, "write_table", write_table)
    db = tmp_path / "store.sqlite"
    monkeypatch.setattr(
        sys, "argv", ["baccarat-report", "export", "--db", str(db), "--parquet", str(folder)]
    )
    with pytest.raises(SystemExit) as stop:
        main()
    assert stop.value.code == 2
    assert capsys.readouterr().err.splitlines() == [
        f"baccarat-report: {folder}: cannot write the Parquet copy there (the copy as it was"
        " is kept): no space left on the device; free space and run again"
    ]
    assert copy_of(folder) == before
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".copy")] == [".copy.lock"]


def test_a_staging_name_that_is_not_our_folder_is_refused_in_one_line(store, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "keep.txt").write_text("keep", encoding="utf-8")
    (tmp_path / ".copy.staging").symlink_to(elsewhere)
    with pytest.raises(InputError, match=r"\.copy\.staging: not a folder of ours"):
        export_parquet(store, tmp_path / "copy")
    assert [p.name for p in elsewhere.iterdir()] == ["keep.txt"]
    assert not (tmp_path / "copy").exists()


@pytest.mark.parametrize(
    ("name", "words"),
    [
        (".copy.staging", "a folder of files that are not ours, where the export stages"),
        (".copy.old", "not a folder of ours, where a swap keeps the previous copy"),
    ],
)
def test_a_folder_of_someone_else_s_at_a_staging_or_old_name_is_left_whole(
    store, tmp_path, name, words
):
    """The names an export stages and retires its copy under were removed whole whatever
    they held: a user's own ``.copy.old`` backup went with the next export. A folder of
    files without the tool's mark is refused in one line and kept; a stopped export's own
    leftovers are still cleared."""
    copy = tmp_path / "copy"
    export_parquet(store, copy)
    before = copy_of(copy)
    (tmp_path / name).mkdir()
    (tmp_path / name / "keep.txt").write_text("keep", encoding="utf-8")
    with pytest.raises(InputError) as refused:
        export_parquet(store, copy, month="2026-09")
    assert str(refused.value).startswith(f"{tmp_path / name}: {words}")
    assert [p.name for p in (tmp_path / name).iterdir()] == ["keep.txt"]
    assert copy_of(copy) == before
    (tmp_path / name / "keep.txt").unlink()
    export_parquet(store, copy, month="2026-09")
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".copy")) == [
        ".copy.lock"
    ]


def test_a_stopped_export_s_staging_is_cleared_by_the_next(store, tmp_path, monkeypatch):
    """What an export stopped while it staged leaves (its mark, part of the tables) is
    cleared by the next one."""
    import reporting.store.parquet as parquet

    copy = tmp_path / "copy"

    def stopped(*_args, **_kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(parquet, "swap_in_folder", stopped)
    monkeypatch.setattr(parquet.shutil, "rmtree", lambda *_a, **_k: None)  # killed: no clean-up
    with pytest.raises(KeyboardInterrupt):
        export_parquet(store, copy)
    assert (tmp_path / ".copy.staging" / ".baccarat-report-staging").is_file()
    monkeypatch.undo()
    export_parquet(store, copy)
    assert (copy / MARKER).is_file() and not (tmp_path / ".copy.staging").exists()
    assert not (copy / ".baccarat-report-staging").exists()


def test_a_store_inside_the_copy_s_folder_is_refused_before_the_copy_replaces_it(tmp_path):
    """The copy's folder is replaced whole: a store or a log file kept inside it went with
    it."""
    from helpers import run_main

    inbox = Path(__file__).resolve().parents[2] / "sample_data" / "inbox"
    copy = tmp_path / "copy"
    copy.mkdir()
    store = copy / "store.sqlite"
    log = str(next(inbox.iterdir()))
    assert run_main("ingest", log, "--db", str(store), cwd=tmp_path).returncode == 0
    (copy / MARKER).write_text("{}\n", encoding="utf-8")  # an earlier copy, as it were
    process = run_main("export", "--db", str(store), "--parquet", str(copy), cwd=tmp_path)
    assert process.returncode == 2 and "is inside --parquet" in process.stderr
    assert store.is_file() and process.stderr.count("\n") == 1
    log = copy / "export.log"
    outside = tmp_path / "store.sqlite"
    store.rename(outside)
    process = run_main(
        "--log-file", str(log), "export", "--db", str(outside), "--parquet", str(copy),
        cwd=tmp_path,
    )  # fmt: skip
    assert process.returncode == 2 and f"--log-file {log} is inside --parquet" in process.stderr
    assert not log.exists()


def test_the_command_reads_the_default_store_and_shows_the_month_format(store, tmp_path):
    """Like every command, ``--db`` defaults to baccarat-report.sqlite in the working folder,
    and ``--month`` shows its format."""
    store.execute("VACUUM INTO ?", (str(tmp_path / DEFAULT_DB),))
    result = run_main("export", "--parquet", "out", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "bets: 4 rows in 3 files" in result.stdout and (tmp_path / "out" / MARKER).is_file()
    shown = run_main("export", "--help").stdout
    words = " ".join(shown.split())
    assert "--month YYYY-MM" in shown and "Default: baccarat-report.sqlite in the working" in words


def test_a_second_export_into_the_same_folder_waits_then_stops_and_the_copy_stays_whole(
    store, tmp_path, monkeypatch
):
    """Two or three exports into one folder at once published a copy of some of the files
    (all exiting 0), or stopped on a traceback: an export holds the copy's lock (beside it),
    and one that cannot take it stops in one line, the copy untouched."""
    folder = tmp_path / "copy"
    export_parquet(store, folder)
    before = copy_of(folder)
    monkeypatch.setattr("reporting.store.parquet.EXPORT_WAIT", 0.2)
    lock = tmp_path / ".copy.lock"
    assert lock.is_file()  # left beside the copy, outside it
    descriptor = os.open(lock, os.O_RDWR)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        with pytest.raises(InputError, match="another export is writing this copy"):
            export_parquet(store, folder)
    finally:
        os.close(descriptor)
    assert copy_of(folder) == before


def load_config_of_sample():
    return load_config(Path(__file__).resolve().parents[2] / "sample_data" / "operator.toml")


def test_a_refused_export_leaves_no_lock_file_and_no_folder_behind(store, tmp_path):
    """A refused export left ``.NAME.lock`` beside the user's folder, and made the folders of
    a copy it never wrote."""
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("mine", encoding="utf-8")
    before = sorted(p.name for p in tmp_path.iterdir())
    with pytest.raises(InputError, match="not an export of ours"):
        export_parquet(store, mine)
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    with pytest.raises(NothingToExport):
        export_parquet(store, tmp_path / "a" / "b" / "copy", month="2026-11")
    assert sorted(p.name for p in tmp_path.iterdir()) == before
