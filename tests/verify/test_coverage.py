"""What could not be checked (reporting.verify.coverage): per game, the rounds or bets a check
could not judge for want of a field, counted in the store.

The rounds are stored as records (tests/helpers.py ``store_records``), not read from a log:
no shoe id and no placement time are what a provider's export lacks, whichever reader loaded
it.
"""

from __future__ import annotations

import pytest
from helpers import bet_record as bet
from helpers import round_record, store_records

from reporting.store.schema import connect
from reporting.verify.coverage import CheckNotRun, checks_not_run, coverage_counts, describe_game
from reporting.verify.run import verify

ITALY = "live-baccarat-it"
GREECE = "live-baccarat-gr"
MONTH = "2026-10"


NO_SHOE = {"shoe_id": None, "hand_no": None}
NO_TIMES = {"started_at": None, "betting_closed_at": None}


@pytest.fixture
def store(tmp_path):
    """Italy, October: R-1 complete (one bet); R-2 without shoe, its two bets without
    placement time; R-3 without shoe nor start and close times, its bet with one. Beside
    them: an Italian September round without shoe, a complete Greek round and a round of a
    game the configuration does not list, without shoe."""
    connection = connect(tmp_path / "store.sqlite")
    store_records(
        connection,
        [
            round_record("R-1", bet("R-1", "B-1")),
            round_record(
                "R-2",
                bet("R-2", "B-2", placed_at=None),
                bet("R-2", "B-3", placed_at=None),
                **NO_SHOE,
            ),
            round_record("R-3", bet("R-3", "B-4"), **NO_SHOE, **NO_TIMES),
            round_record("R-4", bet("R-4", "B-5"), report_month="2026-09", **NO_SHOE),
            round_record("G-5", bet("G-5", "B-6"), game_id=GREECE),
            round_record("X-6", bet("X-6", "B-7", placed_at=None), game_id="other", **NO_SHOE),
        ],
        file_name="export.json",
    )
    yield connection
    connection.close()


def test_each_check_not_run_is_counted_per_game_with_the_fields_missing(store, operator_config):
    assert checks_not_run(store, operator_config.games, MONTH) == [
        CheckNotRun(ITALY, "late_bet", "bets", 3, 4, (("placed_at", 2), ("betting_closed_at", 1))),
        CheckNotRun(ITALY, "shoe_card_count", "rounds", 2, 3, (("shoe_id", 2),)),
        CheckNotRun(
            ITALY, "time_order", "rounds", 1, 3, (("started_at", 1), ("betting_closed_at", 1))
        ),
    ]


def test_every_month_counts_every_round_of_the_configured_games(store, operator_config):
    entries = checks_not_run(store, operator_config.games, None)
    by_check = {entry.check: (entry.records, entry.of) for entry in entries}
    assert {entry.game_id for entry in entries} == {ITALY}  # Greece ran all; "other" is unlisted
    assert by_check == {"late_bet": (3, 5), "shoe_card_count": (3, 4), "time_order": (1, 4)}


def test_a_month_where_every_check_ran_on_everything_says_nothing(store, operator_config):
    assert checks_not_run(store, operator_config.games, "2026-08") == []
    greece_only = {GREECE: operator_config.games[GREECE]}
    assert checks_not_run(store, greece_only, MONTH) == []


def test_the_entries_are_worded_once_for_every_output(store, operator_config):
    entries = checks_not_run(store, operator_config.games, MONTH)
    assert describe_game(ITALY, entries) == (
        "live-baccarat-it: not checked: late_bet on 3 of 4 bets (no placed_at on 2, no"
        " betting_closed_at on 1); shoe_card_count on 2 of 3 rounds (no shoe_id); time_order"
        " on 1 of 3 rounds (no started_at, no betting_closed_at)"
    )
    assert [entry.to_document() for entry in entries][1] == {
        "game": ITALY,
        "check": "shoe_card_count",
        "records": 2,
        "of": 3,
        "unit": "rounds",
        "missing": ["shoe_id"],
    }
    big = CheckNotRun(ITALY, "shoe_card_count", "rounds", 3661, 3661, (("shoe_id", 3661),))
    assert big.describe() == "shoe_card_count on 3,661 of 3,661 rounds (no shoe_id)"


def test_counts_of_two_partitions_add_up_to_those_of_the_whole(store, operator_config):
    games = operator_config.games
    october = coverage_counts(store, games, MONTH)
    september = coverage_counts(store, games, "2026-09")
    # Every check of every game with rounds in the period, those that ran on all included.
    assert {(entry.game_id, entry.check) for entry in october} == {
        (game, check)
        for game in (ITALY, GREECE)
        for check in ("late_bet", "shoe_card_count", "time_order")
    }
    assert {(entry.game_id, entry.records) for entry in september} == {(ITALY, 0), (ITALY, 1)}
    added = {(entry.game_id, entry.check): entry for entry in october}
    for entry in september:
        added[(entry.game_id, entry.check)] = added[(entry.game_id, entry.check)].merged(entry)
    whole = coverage_counts(store, games, None)
    assert list(added.values()) == whole
    assert [entry for entry in whole if entry.records] == checks_not_run(store, games, None)
    with pytest.raises(ValueError):
        october[0].merged(october[1])


def test_verify_gives_the_counts_of_its_period(store, operator_config):
    result = verify(store, operator_config, MONTH)
    assert result.checks_not_run == checks_not_run(store, operator_config.games, MONTH)
    assert result.finding_count == 0  # a missing field is not a finding


def test_a_game_reshuffled_every_round_has_no_shoe_check_to_miss(tmp_path, operator_config):
    """Mini Baccarat deals from a fresh shoe every round and logs no shoe id: the shoe's card
    count does not apply to it, so it is not a check "not run" (the demo said so before)."""
    mini = "mini-baccarat-it"
    connection = connect(tmp_path / "store.sqlite")
    store_records(
        connection,
        [round_record("M-1", bet("M-1", "B-1"), game_id=mini, **NO_SHOE)],
        file_name="rng.json",
    )
    counts = coverage_counts(connection, {mini: operator_config.games[mini]}, MONTH)
    assert "shoe_card_count" not in {entry.check for entry in counts}
    assert {entry.check for entry in counts} == {"late_bet", "time_order"}  # still counted
    assert checks_not_run(connection, operator_config.games, MONTH) == []
    connection.close()
