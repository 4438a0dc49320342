"""How the sample generator names each game's tables (reporting.sample.games.table_patterns):
never a table the configuration lists for another game, whose rounds ingest would reject."""

from __future__ import annotations

import dataclasses

import pytest

from reporting.config.table_patterns import common_table
from reporting.errors import InputError
from reporting.ingest.formats import read_source
from reporting.ingest.sources import Source
from reporting.sample import generate_month
from reporting.sample.games import table_patterns

MONTH = "2026-10"


def with_game(config, game_id: str, tables: tuple[str, ...] = ()):
    """``config`` with one more game, a copy of its Italian live game, listing ``tables``."""
    game = dataclasses.replace(config.games["live-baccarat-it"], id=game_id, tables=tables)
    return dataclasses.replace(config, games={**config.games, game_id: game})


def test_the_sample_s_games_keep_their_own_patterns(operator_config):
    patterns = table_patterns(operator_config.games)
    assert patterns == {game_id: game.tables[0] for game_id, game in operator_config.games.items()}


def test_a_game_without_tables_is_named_apart_from_those_other_games_list(operator_config):
    """A game without tables whose name (LB-IT-*, after lightning-baccarat-it) is a pattern
    another game lists took it, in id order, from live-baccarat-it, which then dealt at
    LB-IT4-* tables it does not list; and every round of the new game was a table of
    live-baccarat-it to ingest, and rejected."""
    config = with_game(operator_config, "lightning-baccarat-it")
    patterns = table_patterns(config.games)
    assert patterns["live-baccarat-it"] == "LB-IT-*"
    assert patterns["lightning-baccarat-it"] == "LB-IT1-*"  # the second game in id order
    for game_id, pattern in patterns.items():
        for other_id, other in config.games.items():
            if other_id != game_id:
                assert all(common_table(pattern, table) is None for table in other.tables)


def test_a_month_of_such_games_loads_without_a_reject(operator_config, tmp_path):
    config = with_game(operator_config, "lightning-baccarat-it")
    path = tmp_path / "month.jsonl"
    generate_month(
        config, MONTH, path, rounds_per_day=2, games=["lightning-baccarat-it", "live-baccarat-it"]
    )
    batches = list(read_source(Source(path, "jsonl"), config.games, 1000))
    assert [reject.message for batch in batches for reject in batch.rejects] == []
    tables = {record.table_id for batch in batches for record in batch.records}
    assert tables == {"LB-IT-01", "LB-IT1-01"}


def test_a_game_whose_every_name_another_game_lists_is_refused_with_what_to_do(operator_config):
    config = with_game(operator_config, "lightning-baccarat-it")
    config = with_game(config, "catch-all", ("*",))
    with pytest.raises(InputError, match="lightning-baccarat-it cannot be named apart from"):
        table_patterns(config.games)
