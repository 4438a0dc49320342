"""Issue 12's "done when": a month exported in the replay-API shape (written from the sample
generator's month) loads with ``--profile replay-api`` and gives the same rounds, bets,
findings and disclosure figures as the same month in the spec format, apart from the checks
the shape cannot feed, which verify lists as not run."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from helpers import run_main

from reporting.ingest.profiles.loader import load_profile
from reporting.records import FINDING_KINDS

#: What the replay-API shape cannot hold: the rounds' shoe, hand and void reason, the bets'
#: placement time (and a round no player bet on, which names no table there).
ROUND_COLUMNS = (
    "round_id, game_id, table_id, started_at, betting_closed_at, settled_at, report_month,"
    " status, player_cards, banker_cards"
)
BET_COLUMNS = "round_id, bet_id, account, bet_type, stake_cents, payout_cents, currency"
#: The finding kinds whose checks the shape cannot feed (no placement time, no shoe).
NOT_FED = {"late_bet", "shoe_card_count"}
#: Every finding kind both formats carry, injected once each (unverified_bet is a provider's
#: bet type: the spec's log cannot carry it, so it is checked on its own below).
BOTH = [kind for kind in FINDING_KINDS if kind != "unverified_bet"]


def generate(folder: Path, config: Path, out: str, *extra: str) -> dict:
    run = run_main(
        "sample", "--config", str(config), "--month", "2026-10", "--rounds-per-day", "12",
        "--seed", "12", "--out", str(folder / out), "--json", *extra,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def ingest(db: Path, config: Path, path: Path, *extra: str) -> dict:
    run = run_main("ingest", str(path), "--db", str(db), "--config", str(config), "--json", *extra)
    assert run.returncode in (0, 1), run.stderr
    return json.loads(run.stdout)


def verify(db: Path, config: Path) -> dict:
    run = run_main("verify", "--db", str(db), "--config", str(config), "--month", "2026-10", "--json")  # fmt: skip
    assert run.returncode in (0, 1), run.stderr
    return json.loads(run.stdout)


def table(db: Path, sql: str) -> list[tuple]:
    connection = sqlite3.connect(db)
    try:
        return connection.execute(sql).fetchall()
    finally:
        connection.close()


def findings(document: dict) -> set[tuple]:
    return {
        (f["kind"], f["round_id"], f["bet_id"], f["expected_payout"], f["logged_payout"], f["rule"])
        for f in document["findings"]
    }


@pytest.fixture(scope="module")
def months(tmp_path_factory, sample_config_path):
    """The same generated month with one fault of every kind both formats carry, in the spec's
    JSON Lines and in the replay-API shape, each ingested and verified into a store of its
    own."""
    folder = tmp_path_factory.mktemp("same-month")
    kinds = [argument for kind in BOTH for argument in ("--fault-kind", kind)]
    generate(folder, sample_config_path, "spec.jsonl", "--faults", "1", *kinds)
    summary = generate(folder, sample_config_path, "games.json", "--faults", "1", *kinds, "--format", "replay-api")  # fmt: skip
    spec_db, replay_db = folder / "spec.sqlite", folder / "replay.sqlite"
    ingest(spec_db, sample_config_path, folder / "spec.jsonl")
    loaded = ingest(replay_db, sample_config_path, folder / "games.json", "--profile", "replay-api")
    return {
        "folder": folder,
        "summary": summary,
        "loaded": loaded,
        "spec": (spec_db, verify(spec_db, sample_config_path)),
        "replay": (replay_db, verify(replay_db, sample_config_path)),
    }


def test_the_replay_month_loads_every_game_of_the_spec_month_that_had_a_bet(months):
    spec_db, replay_db = months["spec"][0], months["replay"][0]
    with_bets = table(
        spec_db,
        f"SELECT {ROUND_COLUMNS} FROM rounds WHERE round_id IN (SELECT round_id FROM bets)"
        " ORDER BY round_id",
    )
    assert table(replay_db, f"SELECT {ROUND_COLUMNS} FROM rounds ORDER BY round_id") == with_bets
    left_out = table(spec_db, "SELECT count(*) FROM rounds WHERE round_id NOT IN (SELECT round_id FROM bets)")  # fmt: skip
    assert months["summary"]["rounds_left_out"] == left_out[0][0] > 0
    assert len(with_bets) > 300
    assert months["loaded"]["rejected_count"] == 0


def test_the_replay_month_holds_the_same_bets(months):
    spec_db, replay_db = months["spec"][0], months["replay"][0]
    sql = f"SELECT {BET_COLUMNS} FROM bets ORDER BY round_id, bet_id"
    assert table(replay_db, sql) == table(spec_db, sql)
    assert table(replay_db, "SELECT count(*) FROM bets WHERE placed_at IS NOT NULL") == [(0,)]


def fed(finding: tuple) -> tuple | None:
    """A finding of the spec month as the shape can feed it: None for a kind it cannot, and
    a time order without the part that needs placement times."""
    kind, round_id, bet_id, expected, logged, rule = finding
    if kind in NOT_FED:
        return None
    if kind == "time_order":
        rule = ",".join(part for part in rule.split(",") if part != "bets_placed_before_settled")
        if not rule:
            return None
    return (kind, round_id, bet_id, expected, logged, rule)


def test_the_same_findings_but_those_of_checks_the_shape_cannot_feed(months):
    spec, replay = findings(months["spec"][1]), findings(months["replay"][1])
    assert {finding[0] for finding in spec} == set(BOTH)  # every kind injected was found
    assert replay == {fed(finding) for finding in spec} - {None}


def test_the_checks_the_shape_cannot_feed_are_listed_as_not_run(months):
    spec_db, replay_db = months["spec"][0], months["replay"][0]
    not_run = {
        (item["game"], item["check"], item["records"], item["of"], tuple(item["missing"]))
        for item in months["replay"][1]["checks_not_run"]
    }
    bets = dict(table(replay_db, "SELECT game_id, count(*) FROM bets JOIN rounds USING (round_id) GROUP BY 1"))  # fmt: skip
    rounds = dict(table(replay_db, "SELECT game_id, count(*) FROM rounds GROUP BY 1"))
    expected = set()
    for game, count in rounds.items():
        if game != "mini-baccarat-it":  # reshuffled every round: no shoe to check
            expected.add((game, "shoe_card_count", count, count, ("shoe_id",)))
        expected.add((game, "late_bet", bets[game], bets[game], ("placed_at",)))
    assert not_run == expected
    assert months["spec"][1]["checks_not_run"] == []  # the spec month is whole
    assert table(spec_db, "SELECT count(*) FROM rounds WHERE shoe_id IS NULL AND game_id != 'mini-baccarat-it'") == [(0,)]  # fmt: skip


@pytest.mark.parametrize("game", ["live-baccarat-it", "live-baccarat-dk", "live-baccarat-gr", "mini-baccarat-it"])  # fmt: skip
def test_the_same_disclosure_figures(months, sample_config_path, game):
    documents = []
    for db, _ in (months["spec"], months["replay"]):
        run = run_main("disclose", "--db", str(db), "--config", str(sample_config_path), "--game", game, "--as-of", "2026-11-05", "--json")  # fmt: skip
        assert run.returncode in (0, 1), run.stderr
        documents.append(json.loads(run.stdout))
    spec, replay = documents
    # The round count alone differs: the shape names no round no player bet on.
    without_bets = table(
        months["spec"][0],
        f"SELECT count(*) FROM rounds WHERE game_id = '{game}' AND report_month = '2026-10'"
        " AND status = 'settled' AND round_id NOT IN (SELECT round_id FROM bets)",
    )[0][0]
    assert replay.pop("rounds") == spec.pop("rounds") - without_bets
    assert spec == replay
    assert spec["reference_month"] == "2026-10" and spec["previous_month_win_percentage"]


def test_a_bet_the_tool_does_not_settle_is_kept_and_reported(tmp_path, sample_config_path):
    generate(tmp_path, sample_config_path, "games.json", "--faults", "2", "--fault-kind", "unverified_bet", "--format", "replay-api")  # fmt: skip
    manifest = json.loads((tmp_path / "games.json.faults.json").read_text(encoding="utf-8"))
    injected = {(f["round_id"], f["bet_id"]) for f in manifest["faults"]}
    db = tmp_path / "store.sqlite"
    ingest(db, sample_config_path, tmp_path / "games.json", "--profile", "replay-api")
    verified = verify(db, sample_config_path)
    found = {
        (f["round_id"], f["bet_id"]) for f in verified["findings"] if f["kind"] == "unverified_bet"
    }
    assert found == injected and len(found) == 2
    assert {f["kind"] for f in verified["findings"]} == {"unverified_bet"}
    # Kept as the export names it: a type of the shape that the profile maps to no bet.
    mapped = load_profile("replay-api").bet_types
    stored = table(db, "SELECT DISTINCT bet_type FROM bets WHERE bet_type LIKE 'BC_%'")
    assert len(stored) == 1 and stored[0][0] not in mapped
    for finding in verified["findings"]:
        assert finding["source"].startswith(f"{tmp_path / 'games.json'}:#")
