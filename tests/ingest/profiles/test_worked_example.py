"""The worked profile of docs/providers/profiles.md reads the page's example line as it says."""

from __future__ import annotations

import json
import re
from pathlib import Path

from reporting.config.loader import load_config
from reporting.ingest.formats import read_source
from reporting.ingest.profiles.loader import load_profile
from reporting.ingest.sources import Source

PAGE = Path(__file__).resolve().parents[3] / "docs" / "providers" / "profiles.md"


def blocks(language: str) -> list[str]:
    section = PAGE.read_text(encoding="utf-8").split("## How a JSON document is read")[1]
    section = section.split("\n## ")[0]
    return re.findall(rf"```{language}\n(.*?)```", section, flags=re.DOTALL)


def test_the_docs_worked_profile_reads_its_example_line(tmp_path):
    (tmp_path / "roma.toml").write_text(blocks("toml")[0], encoding="utf-8")
    line = json.dumps(json.loads(blocks("json")[0]))
    (tmp_path / "hands.jsonl").write_text(line + "\n", encoding="utf-8")
    (tmp_path / "operator.toml").write_text(
        '[games.live-baccarat-it]\nlanguages = ["it"]\ntables = ["Roma 3"]\n', encoding="utf-8"
    )
    config = load_config(tmp_path / "operator.toml")
    profile = load_profile(str(tmp_path / "roma.toml"))
    (batch,) = list(
        read_source(Source(tmp_path / "hands.jsonl", "jsonl", profile=profile), config.games, 10)
    )
    assert batch.rejects == []
    (record,) = batch.records
    assert (record.round_id, record.game_id, record.table_id) == (
        "R-77",
        "live-baccarat-it",
        "Roma 3",
    )
    assert (record.player_cards, record.banker_cards) == ("9H KS", "5D 2C")
    assert record.settled_at == "2026-10-03T16:40:41.870Z"
    assert record.betting_closed_at == "2026-10-03T16:40:17.000Z"
    (bet,) = record.bets
    assert (bet.bet_type, bet.stake_cents, bet.payout_cents, bet.currency) == (
        "player",
        1000,
        2000,
        "EUR",
    )
