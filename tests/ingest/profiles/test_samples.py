"""Each built-in profile's sample (sample_data/profiles/) ingests with its profile and the
sample configuration, and verifies: every record loads, and verify finds what the README of
the samples says each holds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import rows, run_main

SAMPLES = Path(__file__).resolve().parents[3] / "sample_data" / "profiles"


@pytest.mark.parametrize(
    ("sample", "profile", "rounds", "unverified"),
    [
        ("replay-api/games-2026-10.json", "replay-api", 30, 1),
        ("replay-api/games-2026-10.jsonl", "replay-api", 30, 0),
        ("numeric-feed/page-2026-10.json", "numeric-feed", 62, 0),
        ("flat-csv/bets-2026-10.csv", "flat-csv", 31, 0),
    ],
)
def test_each_sample_ingests_with_its_profile_and_verifies(tmp_path, sample_config_path, sample, profile, rounds, unverified):  # fmt: skip
    db = tmp_path / "store.sqlite"
    common = ("--db", str(db), "--config", str(sample_config_path), "--json")
    loaded = run_main("ingest", str(SAMPLES / sample), "--profile", profile, *common)
    assert loaded.returncode == 0, loaded.stderr
    document = json.loads(loaded.stdout)
    assert (document["rounds_loaded"], document["rejected_count"]) == (rounds, 0)
    assert rows(db, "SELECT profile FROM ingest_log") == [(profile,)]
    verified = run_main("verify", *common)
    assert verified.returncode == (1 if unverified else 0), verified.stderr
    kinds = [finding["kind"] for finding in json.loads(verified.stdout)["findings"]]
    assert kinds == ["unverified_bet"] * unverified
