"""A shoe whose hand numbers skip some (hands 1, 2, 4: hand 3 was dealt, and neither it nor its
bets are in any log loaded) is named: in verify's shoe summaries, among the month's warnings,
in the audit report and on the workbook's Summary and Shoes sheets. Before, its card count
ran on what was there and nothing said that a round was missing."""

from __future__ import annotations

import json
from pathlib import Path

from helpers import (
    bet_record,
    config_without_gap_threshold,
    round_record,
    run_main,
    store_file,
    workbook_sheets,
)

from reporting.config.loader import load_config
from reporting.verify.hands import MissingHands, describe_missing
from reporting.verify.shoes import MISSING_NAMED, summarize_shoe


def shoe(*numbers, prefix: str = "R", **fields):
    """A shoe's rounds of hand ``numbers`` (None: a round without a hand number), each with
    a bet; round ids ``{prefix}-1``, ``{prefix}-2``, ... in the order given."""
    return [
        round_record(
            f"{prefix}-{k}",
            bet_record(f"{prefix}-{k}", f"{prefix}-B{k}"),
            hand_no=n,
            settled_at=f"2026-10-03T18:{40 + k:02d}:41.870Z",
            **fields,
        )
        for k, n in enumerate(numbers, start=1)
    ]


SAMPLE = Path(__file__).resolve().parents[2] / "sample_data" / "operator.toml"


def summary(rounds):
    games = load_config(SAMPLE).games
    return summarize_shoe(((r, None) for r in rounds), games, "2026-10")[0]


def test_a_shoe_counts_the_hand_numbers_below_its_highest_that_no_round_holds():
    gaps = summary(shoe(1, 2, 4, 5, 9))
    assert (gaps.hands_missing, gaps.first_missing) == (4, (3, 6, 7, 8))
    whole = summary(shoe(2, 1, 3))
    assert (whole.hands_missing, whole.first_missing) == (0, ())
    # A round without a hand number: which hands are missing cannot be told.
    unnumbered = summary(shoe(1, 4, None))
    assert (unnumbered.hands_missing, unnumbered.first_missing) == (0, ())
    assert not unnumbered.hands_judged and whole.hands_judged and gaps.hands_judged


def test_a_hostile_hand_number_costs_no_more_than_a_real_one():
    far = summary(shoe(1, 1_000_000))
    assert far.hands_missing == 999_998
    assert far.first_missing == tuple(range(2, 2 + MISSING_NAMED))


def test_a_game_s_line_names_its_first_shoes_and_counts_the_rest():
    shoes = [MissingHands("g", "T1", f"S{n}", 2, (3, 4)) for n in range(5)]
    line = describe_missing(shoes)
    assert line.startswith("5 shoes with hands missing (10 hand numbers no round loaded holds")
    assert "shoe S0 at T1, hands 3, 4; shoe S1 at T1" in line
    assert line.endswith("and 2 more shoes: see the Shoes sheet")
    one = describe_missing([MissingHands("g", "T1", "S9", 12, tuple(range(1, 11)))])
    assert one.endswith("shoe S9 at T1, hands 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 2 more")


def test_verify_names_them_in_its_json_its_report_and_its_workbook(tmp_path):
    # two tables, so that --jobs 2 verifies them in two partitions
    rounds = shoe(1, 2, 4) + shoe(1, 2, prefix="Q", table_id="LB02", shoe_id="S-2")
    db = store_file(tmp_path / "store.sqlite", rounds)
    config = config_without_gap_threshold(tmp_path)  # idle tables: an alert, not the subject
    argv = ("verify", "--db", str(db), "--config", str(config), "--month", "2026-10")
    report, workbook = tmp_path / "report", tmp_path / "audit.xlsx"
    run = run_main(
        *argv, "--report", str(report), "--workbook", str(workbook), "--as-of", "2026-11-05"
    )
    as_json = [json.loads(run_main(*argv, "--json", "--jobs", jobs).stdout) for jobs in "12"]

    said = (
        "live-baccarat-it: 1 shoe with hands missing (1 hand number no round loaded holds:"
        " their rounds, and their bets, are in no log read, or among the rejected lines):"
        " shoe S-1 at LB01, hand 3"
    )
    assert said in run.stdout, run.stdout + run.stderr
    assert run.returncode == 0, run.stdout  # a warning: a hand missing may be in a log to come
    for document in as_json:
        assert document["alerts"]["hands_missing"] == [
            {"game": "live-baccarat-it", "table": "LB01", "shoe": "S-1", "missing": 1,
             "first": [3]}
        ]  # fmt: skip
    page = (report / "audit-2026-10.html").read_text(encoding="utf-8")
    assert "Hand numbers skipped at <code>live-baccarat-it</code>: 1 shoe with hands" in page
    lines, tables = workbook_sheets(workbook)
    assert lines["Shoes with hands missing"] == 1
    assert sorted((row["Shoe"], row["Hands missing"]) for row in tables["Shoes"]) == [
        ("S-1", 1),
        ("S-2", 0),
    ]


def test_a_shoe_whose_hands_cannot_be_counted_is_named_as_not_checked(tmp_path):
    """A shoe with a round that has no hand number is not judged for hands missing: its hand 3
    was in no log, and the audit said "Hands missing 0", "Checks not run 0", and named
    nothing, which read as checked and whole. verify names it as not checked (a warning, as
    hands missing are), in its lines, its JSON, the report and the workbook, whose Shoes
    sheet leaves its count blank."""
    rounds = shoe(1, 2, 4, None) + shoe(1, 2, prefix="Q", table_id="LB02", shoe_id="S-2")
    db = store_file(tmp_path / "store.sqlite", rounds)
    config = config_without_gap_threshold(tmp_path)
    argv = ("verify", "--db", str(db), "--config", str(config), "--month", "2026-10")
    report, workbook = tmp_path / "report", tmp_path / "audit.xlsx"
    run = run_main(
        *argv, "--report", str(report), "--workbook", str(workbook), "--as-of", "2026-11-05"
    )
    said = (
        "live-baccarat-it: 1 shoe not checked for hands missing (a round of it has no hand"
        " number, hand_no, so which hands are missing cannot be told): shoe S-1 at LB01"
    )
    assert said in run.stdout and run.returncode == 0, run.stdout + run.stderr
    document = json.loads(run_main(*argv, "--json").stdout)
    assert document["alerts"]["hands_not_judged"] == [
        {"game": "live-baccarat-it", "table": "LB01", "shoe": "S-1"}
    ]
    assert document["alerts"]["hands_missing"] == []
    page = (report / "audit-2026-10.html").read_text(encoding="utf-8")
    assert "Hands not counted at <code>live-baccarat-it</code>: 1 shoe not checked" in page
    lines, tables = workbook_sheets(workbook)
    assert (lines["Shoes with hands missing"], lines["Shoes not checked for hands missing"]) == (
        0,
        1,
    )
    assert sorted((row["Shoe"], row["Hands missing"]) for row in tables["Shoes"]) == [
        ("S-1", None),
        ("S-2", 0),
    ]
