"""Reading the store back as records (reporting.store.reading): each round with its bets and
the files they came from, and each shoe whole in hand order.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from reporting.config.loader import OperatorConfig
from reporting.ingest.discovery import discover_sources
from reporting.records import Bet, Round
from reporting.sample.generator import generate_month
from reporting.store.load import ingest
from reporting.store.reading import SourceFiles, read_rounds, read_shoes
from reporting.store.schema import connect


def load(db: Path, config: OperatorConfig, *logs: Path) -> sqlite3.Connection:
    connection = connect(db)
    result = ingest(connection, discover_sources(list(logs)), config)
    assert result.failed == [], [item.error for item in result.failed]
    return connection


def test_a_round_comes_with_its_bets_as_stored_and_its_file(
    tmp_path, operator_config, make_round, make_bet, write_jsonl
):
    log = write_jsonl(
        tmp_path / "log.jsonl",
        make_round("R-2", bets=[make_bet("B-2b", stake="10.00"), make_bet("B-2a")]),
        make_round("R-1", bets=[]),
    )
    connection = load(tmp_path / "store.sqlite", operator_config, log)
    (first, first_files), (second, second_files) = read_rounds(connection)
    assert first == Round(
        round_id="R-1",
        game_id="live-baccarat-it",
        table_id="LB01",
        shoe_id="LB01-20261003-S05",
        hand_no=23,
        started_at="2026-10-03T18:40:02.120Z",
        betting_closed_at="2026-10-03T18:40:17.000Z",
        settled_at="2026-10-03T18:40:41.870Z",
        report_month="2026-10",
        status="settled",
        void_reason=None,
        player_cards="9H KS",
        banker_cards="5D 2C",
        source_line=2,
        bets=[],
    )
    assert first_files == second_files == SourceFiles(str(log), str(log))
    assert second.round_id == "R-2"
    assert [bet.bet_id for bet in second.bets] == ["B-2a", "B-2b"]
    assert second.bets[1] == Bet(
        round_id="R-2",
        bet_id="B-2b",
        account="acc-4411",
        bet_type="banker",
        stake_cents=1000,
        payout_cents=0,
        currency="EUR",
        placed_at="2026-10-03T18:40:09.500Z",
        source_line=1,
    )


def test_a_month_scope_reads_the_rounds_of_that_month_only(
    tmp_path, operator_config, make_round, write_jsonl
):
    log = write_jsonl(
        tmp_path / "log.jsonl",
        make_round("R-sep", settled_at="2026-09-10T10:00:00Z"),
        make_round("R-oct", settled_at="2026-10-10T10:00:00Z"),
    )
    connection = load(tmp_path / "store.sqlite", operator_config, log)
    assert [r.round_id for r, _ in read_rounds(connection, "2026-10")] == ["R-oct"]
    ((october, _),) = read_rounds(connection, "2026-10")
    assert [bet.round_id for bet in october.bets] == ["R-oct"]
    assert [r.round_id for r, _ in read_rounds(connection)] == ["R-oct", "R-sep"]


def test_the_bets_of_a_csv_pair_come_from_its_bets_file(tmp_path, operator_config):
    folder = tmp_path / "month"
    generate_month(operator_config, "2026-10", folder, rounds_per_day=2, seed=5, fmt="csv")
    connection = load(tmp_path / "store.sqlite", operator_config, folder)
    rounds = list(read_rounds(connection))
    stored = connection.execute("SELECT count(*), (SELECT count(*) FROM bets) FROM rounds")
    assert (len(rounds), sum(len(r.bets) for r, _ in rounds)) == stored.fetchone()
    for round, files in rounds:
        assert Path(files.rounds).name == "rounds.csv"
        assert Path(files.bets).name == "bets.csv"
        assert all(bet.round_id == round.round_id for bet in round.bets)


def test_a_shoe_comes_whole_in_hand_order_across_months(
    tmp_path, operator_config, make_round, write_jsonl
):
    log = write_jsonl(
        tmp_path / "log.jsonl",
        make_round("A-3", shoe_id="A", hand_no=3, settled_at="2026-10-01T10:02:00Z"),
        make_round("A-1", shoe_id="A", hand_no=1, settled_at="2026-09-30T10:00:00Z"),
        make_round("B-1", shoe_id="B", hand_no=1, settled_at="2026-09-30T11:00:00Z"),
        make_round("A-2", shoe_id="A", hand_no=2, settled_at="2026-10-01T10:01:00Z"),
        make_round("N-1", shoe_id=None, hand_no=None, settled_at="2026-10-01T12:00:00Z"),
    )
    connection = load(tmp_path / "store.sqlite", operator_config, log)
    shoes = [[round.round_id for round, _ in shoe] for shoe in read_shoes(connection, "2026-10")]
    assert shoes == [["A-1", "A-2", "A-3"]]
    every = [[round.round_id for round, _ in shoe] for shoe in read_shoes(connection)]
    assert every == [["A-1", "A-2", "A-3"], ["B-1"]]


def test_a_partition_finds_its_tables_rounds_by_game_month_and_table_not_by_walking_the_month(
    tmp_path, operator_config
):
    log = tmp_path / "month.jsonl"
    generate_month(operator_config, "2026-10", log, rounds_per_day=2, seed=5)
    connection = load(tmp_path / "store.sqlite", operator_config, log)
    tables = connection.execute("SELECT DISTINCT game_id, table_id FROM rounds").fetchall()
    mine = sorted(tables)[1:3]
    statements: list[str] = []
    connection.set_trace_callback(statements.append)
    partition = list(read_rounds(connection, "2026-10", mine))
    connection.set_trace_callback(None)
    assert len(tables) > len(mine) > 0
    assert partition == [
        (round, files)
        for round, files in read_rounds(connection, "2026-10")
        if (round.game_id, round.table_id) in mine
    ]
    # Each partition of a month would otherwise read every round of the month (rounds_by_month
    # in round-id order, the other tables' rounds dropped): a month of many tables, many times.
    (rounds_query,) = [sql for sql in statements if "FROM rounds AS r" in sql and "bets" not in sql]
    plan = [step for *_, step in connection.execute(f"EXPLAIN QUERY PLAN {rounds_query}")]
    seek = "rounds_by_game_month (game_id=? AND report_month=? AND table_id=?)"
    assert any(seek in step for step in plan), plan
    # Its shoes too: found by their tables' rounds of the month, not among the game's month.
    statements.clear()
    connection.set_trace_callback(statements.append)
    shoes = list(read_shoes(connection, "2026-10", mine))
    connection.set_trace_callback(None)
    assert shoes == [
        shoe
        for shoe in read_shoes(connection, "2026-10")
        if (shoe[0][0].game_id, shoe[0][0].table_id) in mine
    ]
    assert shoes
    (shoes_query,) = [sql for sql in statements if "FROM rounds AS r" in sql]
    plan = [step for *_, step in connection.execute(f"EXPLAIN QUERY PLAN {shoes_query}")]
    assert any(seek in step for step in plan), plan
