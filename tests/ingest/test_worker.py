"""Reading a large file in a second process (reporting/worker.py): the same rows, rejects and
counts as reading in one process, and a file that fails in the child loads nothing of it."""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from contextlib import suppress
from pathlib import Path

import pytest
from helpers import (
    TABLES,
    bet_record,
    children_of,
    counts,
    dump,
    many_rounds_gz,
    round_record,
    rows,
    write_csv_pair,
)

import reporting.ingest.worker
import reporting.store.load
from reporting.ingest.discovery import discover_sources
from reporting.ingest.sources import Source
from reporting.ingest.worker import read_in_worker
from reporting.store.load import ingest
from reporting.store.schema import connect

EVERY_FILE = 0  # worker_min_bytes: read every JSON Lines file in the worker
NO_FILE = 10**15


@pytest.fixture(autouse=True)
def two_processors(monkeypatch):
    """The worker is only used with a second processor: these tests run as if there were."""
    monkeypatch.setattr(reporting.ingest.worker, "_usable_cpus", lambda: 2)


@pytest.fixture
def started(monkeypatch) -> list[Path]:
    """The files a worker process was started for."""
    import reporting.store.load

    paths: list[Path] = []
    real = reporting.store.load.read_in_worker

    def spy(source, *args):
        paths.append(source.path)
        return real(source, *args)

    monkeypatch.setattr(reporting.store.load, "read_in_worker", spy)
    return paths


def load(db: Path, paths: list[Path], config, **options):
    connection = connect(db)
    try:
        return ingest(connection, discover_sources(paths), config, **options)
    finally:
        connection.close()


def child_command(monkeypatch, script: str) -> None:
    """Run ``script`` as the worker process instead of ``python -m reporting.ingest.worker``."""
    monkeypatch.setattr(reporting.ingest.worker, "_command", lambda: [sys.executable, "-c", script])


def logs_of_every_kind(tmp_path, make_round, make_bet, write_jsonl) -> list[Path]:
    """Every reject reason, duplicates and conflicts within and across files, several
    batches of a gzipped file, a CSV pair."""
    first = write_jsonl(
        tmp_path / "first.jsonl",
        make_round("R-1"),
        '{"round_id": "R-2", "game": ',  # bad_json
        {**make_round("R-3"), "settled_at": None},  # missing_field
        make_round("R-4", banker_cards=["5D", "2X"]),  # bad_card
        make_round("R-5", bets=[make_bet("B-5", stake=25.0)]),  # bad_money
        make_round("R-6", settled_at="2026-10-03T18:40:41"),  # naive_timestamp
        make_round("R-7", bets=[make_bet("B-7", type="dragon")]),  # unknown_bet_type
        make_round("R-8", game="roulette-it"),  # unknown_game
        make_round("R-1", hand_no=24),  # conflict with line 1
        make_round("R-10", status="pending"),  # bad_value
        make_round("R-1"),  # duplicate of line 1
        make_round("R-12", bets=[make_bet("B-12a"), make_bet("B-12b", type="tie")]),
    )
    again = write_jsonl(
        tmp_path / "again.jsonl",
        make_round("R-1"),  # duplicate of the first file's line 1
        make_round("R-12", hand_no=77),  # conflict with the first file's line 12
        make_round("R-20", settled_at="2026-10-31T23:30:00.1234+01:00"),
        make_round("R-20", hand_no=5),  # conflict within this file
    )
    many = many_rounds_gz(tmp_path / "many.jsonl.gz", make_round, 12_000)  # several batches
    pair = write_csv_pair(
        tmp_path / "csv",
        [
            make_round("C-1", bets=[make_bet("C-1a"), make_bet("C-1b", type="tie")]),
            make_round("C-2", bets=[make_bet("C-2a", stake="1.505")]),  # bad_money
            make_round("R-1"),  # duplicate of the first file's line 1
            make_round("C-4", banker_cards=["5D", "2X"]),  # bad_card
        ],
    )
    return [first, again, many, *pair]


def test_the_worker_process_stores_exactly_what_reading_in_process_stores(
    tmp_path, started, operator_config, make_round, make_bet, write_jsonl
):
    """Logs of every kind of line: the same rows, lines and counts either way."""
    paths = logs_of_every_kind(tmp_path, make_round, make_bet, write_jsonl)
    first, again, many, rounds_csv, _ = paths
    results, dumps = {}, {}
    for mode, min_bytes in (("in process", NO_FILE), ("worker", EVERY_FILE)):
        started.clear()
        db = tmp_path / f"{mode}.sqlite"
        result = load(db, paths, operator_config, worker_min_bytes=min_bytes)
        assert started == ([first, again, many, rounds_csv] if mode == "worker" else [])
        results[mode] = [
            (f.status, f.rounds_loaded, f.bets_loaded, f.rounds_skipped_duplicate, f.rejected)
            for f in result.files
        ]
        dumps[mode] = dump(db)
    assert results["worker"] == results["in process"]
    assert dumps["worker"] == dumps["in process"]
    assert [f[:4] for f in results["worker"]] == [
        ("loaded", 2, 3, 1),
        ("loaded", 1, 1, 1),
        ("loaded", 12_000, 12_000, 0),
        ("loaded", 1, 2, 1),
    ]
    assert [
        (Path(r.source_file).name, r.source_line, r.reason) for r in results["worker"][3][4]
    ] == [
        ("bets.csv", 4, "bad_money"),
        ("rounds.csv", 5, "bad_card"),
    ]
    assert [(r.source_line, r.reason) for r in results["worker"][0][4]] == [
        (2, "bad_json"),
        (3, "missing_field"),
        (4, "bad_card"),
        (5, "bad_money"),
        (6, "naive_timestamp"),
        (7, "unknown_bet_type"),
        (8, "unknown_game"),
        (9, "conflict"),
        (10, "bad_value"),
    ]
    assert [(r.source_line, r.reason) for r in results["worker"][1][4]] == [
        (2, "conflict"),
        (4, "conflict"),
    ]


def test_a_large_file_is_read_in_the_worker_and_a_small_one_here(
    tmp_path, started, operator_config, make_round, write_jsonl
):
    small = write_jsonl(tmp_path / "small.jsonl", make_round("S-1"))
    large = many_rounds_gz(tmp_path / "large.jsonl.gz", make_round, 2_000)
    load(tmp_path / "store.sqlite", [small, large], operator_config, worker_min_bytes=4096)
    assert small.stat().st_size < 4096 <= large.stat().st_size
    assert started == [large]


@pytest.mark.parametrize("damage", ["truncated", "not gzip"])
def test_a_file_the_worker_cannot_read_fails_alone_and_loads_nothing(
    damage, tmp_path, started, operator_config, make_round, write_jsonl
):
    good = write_jsonl(tmp_path / "good.jsonl", make_round("G-1"))
    bad = many_rounds_gz(tmp_path / "damaged.jsonl.gz", make_round, 12_000)
    data = bad.read_bytes()
    bad.write_bytes(data[: len(data) * 3 // 4] if damage == "truncated" else b"not gzip\n" * 9)
    db = tmp_path / "store.sqlite"
    result = load(db, [bad, good], operator_config, worker_min_bytes=EVERY_FILE)
    assert started == [bad, good]
    assert [f.status for f in result.files] == ["failed", "loaded"]
    assert str(bad) in result.files[0].error
    assert "nothing of it was loaded" in result.files[0].error
    assert rows(db, "SELECT round_id FROM rounds") == [("G-1",)]
    assert counts(db)["ingest_log"] == 1


DIES_AFTER_ONE_BATCH = """
import os, pickle, signal, sys
from reporting.ingest.formats import read_source
from reporting.ingest.worker import Ready, batch_frame, write_frame
source, games, size = pickle.load(sys.stdin.buffer)
frames = os.fdopen(sys.stdout.fileno(), "wb")
write_frame(frames, Ready())
batch = next(read_source(source, games, size))
write_frame(frames, batch_frame(batch))
frames.flush()
os.kill(os.getpid(), signal.SIGKILL)
"""


def test_a_worker_killed_mid_file_fails_its_file_and_loads_nothing_of_it(
    tmp_path, monkeypatch, operator_config, make_round, write_jsonl
):
    """Killed from outside (say by the out-of-memory killer) after a batch was written: the
    file is rolled back and reported with the signal, never half-loaded."""
    child_command(monkeypatch, DIES_AFTER_ONE_BATCH)
    earlier = write_jsonl(tmp_path / "earlier.jsonl", make_round("E-1"))
    log = many_rounds_gz(tmp_path / "many.jsonl.gz", make_round, 12_000)
    db = tmp_path / "store.sqlite"
    load(db, [earlier], operator_config)
    before = dump(db)
    written: list[int] = []

    result = load(
        db,
        [log],
        operator_config,
        worker_min_bytes=EVERY_FILE,
        progress=lambda source: lambda done, total: written.append(done),
    )

    assert written, "a batch was written before the worker died"
    (failed,) = result.failed
    assert "SIGKILL" in failed.error and "nothing of it was loaded" in failed.error
    assert dump(db) == before


def test_a_worker_that_cannot_start_leaves_the_reading_to_this_process(
    tmp_path, monkeypatch, started, operator_config, make_round
):
    child_command(monkeypatch, "import sys; sys.exit(1)")
    log = many_rounds_gz(tmp_path / "many.jsonl.gz", make_round, 3_000)
    result = load(tmp_path / "store.sqlite", [log], operator_config, worker_min_bytes=EVERY_FILE)
    assert started == [log]
    assert (result.files[0].status, result.rounds_loaded) == ("loaded", 3_000)


def test_a_bug_in_the_worker_is_raised_with_its_traceback(tmp_path, make_round, write_jsonl):
    log = write_jsonl(tmp_path / "log.jsonl", make_round("R-1"))
    broken_games = {"live-baccarat-it": None}  # not a GameSpec: the reader fails on it
    with pytest.raises(RuntimeError, match="AttributeError"):
        list(read_in_worker(Source(log, "jsonl"), broken_games, 100))  # type: ignore[arg-type]


def test_a_frame_of_an_unknown_kind_is_an_error_not_the_end(
    tmp_path, monkeypatch, operator_config, make_round, write_jsonl
):
    """Only a "done" frame ends the file: anything else unexpected must not commit a part."""
    child_command(
        monkeypatch,
        "import sys, msgspec; from reporting.ingest.worker import Ready, write_frame;"
        " Finished = msgspec.defstruct('Finished', [], array_like=True, tag='finished');"
        " out = open(sys.stdout.fileno(), 'wb'); write_frame(out, Ready());"
        " write_frame(out, Finished()); out.flush()",
    )
    log = write_jsonl(tmp_path / "log.jsonl", make_round("R-1"))
    with pytest.raises(RuntimeError, match="'finished'"):
        list(read_in_worker(Source(log, "jsonl"), operator_config.games, 100))


def test_a_path_that_cannot_be_opened_is_input_error_not_a_crash(tmp_path, operator_config):
    with pytest.raises(
        reporting.ingest.worker.InputError, match="cannot be read|not a regular file"
    ):
        list(read_in_worker(Source(tmp_path, "jsonl"), operator_config.games, 100))


def test_closing_the_reader_stops_the_worker_at_once(tmp_path, operator_config, make_round):
    """Writing failed (or Ctrl-C): closing the batches ends the child, it does not read on."""
    log = many_rounds_gz(tmp_path / "many.jsonl.gz", make_round, 12_000)
    # this process's children of earlier tests (multiprocessing's resource tracker) stay
    earlier = set(children_of(os.getpid()))
    batches = read_in_worker(Source(log, "jsonl.gz"), operator_config.games, 1000)
    next(batches)
    running = set(children_of(os.getpid())) - earlier
    assert running, "the worker runs"
    batches.close()
    assert set(children_of(os.getpid())) & running == set()


def test_nothing_is_left_behind_in_an_empty_store_when_the_only_file_fails(
    tmp_path, monkeypatch, operator_config, make_round, write_jsonl
):
    child_command(monkeypatch, DIES_AFTER_ONE_BATCH)
    log = many_rounds_gz(tmp_path / "many.jsonl.gz", make_round, 12_000)
    load(tmp_path / "store.sqlite", [log], operator_config, worker_min_bytes=EVERY_FILE)
    assert counts(tmp_path / "store.sqlite") == dict.fromkeys(TABLES, 0)


def test_a_batch_crosses_the_pipe_as_the_rows_the_store_binds():
    """Records go as the rows of their INSERT statements (arrays) and come back typed: the
    round's fields but its bets, each bet's fields, how many bets each round has."""
    import io

    from reporting.ingest.sources import Batch, rows_of
    from reporting.ingest.worker import (
        _FRAME_DECODER,
        BatchFrame,
        _read_frame,
        batch_frame,
        write_frame,
    )
    from reporting.records import Bet, RejectedLine, Round

    def bet(bet_id: str, placed_at: str | None) -> Bet:
        return bet_record("R-1", bet_id, account="acc", payout_cents=4875, placed_at=placed_at)

    def round_(round_id: str, bets: list[Bet]) -> Round:
        return round_record(
            round_id, *bets, shoe_id=None, hand_no=7, started_at=None, betting_closed_at=None
        )

    reject = RejectedLine(
        source_file="log.jsonl",
        source_line=2,
        reason="bad_json",
        message="not valid JSON",
        raw_text="{",
    )
    first = [bet("B-1", None), bet("B-2", "2026-10-03T18:40:01.000Z")]
    batch = Batch([round_("R-1", first), round_("R-2", [])], [reject], 123, ("dealer",))
    pipe = io.BytesIO()
    write_frame(pipe, batch_frame(batch))
    pipe.seek(0)
    data = _read_frame(pipe)
    assert data is not None and data.startswith(b"\x97\xa5batch")  # ["batch", ...]: an array
    frame = _FRAME_DECODER.decode(data)
    assert frame == BatchFrame(*rows_of(batch))  # as rows_of makes them in one process
    assert frame.rounds == [
        ("R-1", "live-baccarat-it", "LB01", None, 7, None, None, "2026-10-03T18:40:41.870Z")
        + ("2026-10", "settled", None, "9H KS", "5D 2C", 1),
        ("R-2", "live-baccarat-it", "LB01", None, 7, None, None, "2026-10-03T18:40:41.870Z")
        + ("2026-10", "settled", None, "9H KS", "5D 2C", 1),
    ]
    assert frame.bets == [
        ("R-1", "B-1", "acc", "banker", 2500, 4875, "EUR", None, 1),
        ("R-1", "B-2", "acc", "banker", 2500, 4875, "EUR", "2026-10-03T18:40:01.000Z", 1),
    ]
    assert (frame.bet_counts, frame.rejects, frame.position) == ([2, 0], [reject], 123)
    assert frame.unread == ("dealer",)


def test_a_frame_whose_rows_are_not_of_the_records_types_is_refused(tmp_path):
    """The parent type-checks every field it will bind: a frame with a text where the store
    keeps an integer (or a row of the wrong width) is not one of ours."""
    import io

    import msgspec

    from reporting.ingest.worker import _FRAME_DECODER, _read_frame

    for rounds, bets in (
        ([], [["R-1", "B-1", "acc", "banker", "25.00", 4875, "EUR", None, 1]]),
        ([["R-1", "live-baccarat-it"]], []),
    ):
        data = msgspec.msgpack.encode(["batch", rounds, bets, [1], [], 0])
        pipe = io.BytesIO(len(data).to_bytes(8, "little") + data)
        with pytest.raises(msgspec.ValidationError):
            _FRAME_DECODER.decode(_read_frame(pipe))


def test_the_thread_reading_frames_ahead_ends_with_the_reader(
    tmp_path, operator_config, make_round
):
    """Read to the end, or closed after one batch (writing failed): the thread that reads
    the child's frames ahead is gone, and the batches were all there, in order."""
    import threading

    log = many_rounds_gz(tmp_path / "many.jsonl.gz", make_round, 5_000)

    def frame_threads() -> list[threading.Thread]:
        return [thread for thread in threading.enumerate() if thread.name == "frames"]

    batches = list(read_in_worker(Source(log, "jsonl.gz"), operator_config.games, 1000))
    assert [len(batch.rounds) for batch in batches] == [1000] * 5 + [0]
    assert sum(batch.bet_counts[0] for batch in batches[:5]) == 5
    assert len({row[0] for batch in batches for row in batch.rounds}) == 5_000
    assert frame_threads() == []

    reader = read_in_worker(Source(log, "jsonl.gz"), operator_config.games, 1000)
    next(reader)
    assert len(frame_threads()) == 1
    reader.close()
    assert frame_threads() == []


def _kill_once_reading(path: Path, killed: list[int]) -> None:
    """SIGKILL the reading process of this one (its only child) once it has ``path`` open."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        for child in children_of(os.getpid()):
            with suppress(OSError):
                fds = Path(f"/proc/{child}/fd")
                if any(os.readlink(fd) == str(path) for fd in fds.iterdir()):
                    os.kill(child, signal.SIGKILL)
                    killed.append(child)
                    return
        time.sleep(0.002)


def test_a_worker_killed_while_it_stages_a_csv_pair_fails_the_pair_and_loads_nothing(
    tmp_path, operator_config, make_round, write_jsonl
):
    """Issue 23, 15: the real reading process, killed (as by the out-of-memory killer) while
    it copies a CSV pair into its staging database, before it has sent a batch. Its "ready"
    sat unflushed in its pipe's buffer, so this process took it for a child that never
    started and read the pair again itself: exit 0, the kill never reported. It must fail
    as the JSON Lines reader does."""
    earlier = write_jsonl(tmp_path / "earlier.jsonl", make_round("E-1"))
    db = tmp_path / "store.sqlite"
    load(db, [earlier], operator_config)
    before = dump(db)
    rounds_csv, bets_csv = write_csv_pair(
        tmp_path / "csv",
        [make_round(f"C-{n:06d}", hand_no=n % 80 + 1) for n in range(20_000)],
    )
    killed: list[int] = []
    killer = threading.Thread(target=_kill_once_reading, args=(rounds_csv, killed))
    killer.start()
    try:
        result = load(db, [rounds_csv, bets_csv], operator_config, worker_min_bytes=EVERY_FILE)
    finally:
        killer.join()
    assert killed, "the reading process was never seen reading the pair"
    (failed,) = result.failed
    assert str(rounds_csv) in failed.error
    assert "SIGKILL" in failed.error and "nothing of it was loaded" in failed.error
    assert dump(db) == before
