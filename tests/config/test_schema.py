"""The configuration's JSON Schema (for editors) and the starter configuration: shipped in the
package, held equal to the loader's own key tables and to the sample."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from helpers import schema_errors

from reporting.config.bets import OWN_BET_KEYS, ROW_KEYS
from reporting.config.keys import (
    GAME_KEYS,
    LIMIT_KEYS,
    OPERATOR_KEYS,
    PAY_TABLE_KEYS,
    SCHEMA_PATH,
    STARTER_PATH,
)
from reporting.config.loader import ConfigError, load_config
from reporting.engine.facts import FACTS

REPO = Path(__file__).resolve().parents[2]
SAMPLE_CONFIG = REPO / "sample_data" / "operator.toml"
SCHEMA = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


def test_every_key_the_loader_knows_is_in_the_schema():
    game = SCHEMA["properties"]["games"]["additionalProperties"]["properties"]
    assert set(game) == set(GAME_KEYS) | {"base"}
    assert set(game["limits"]["properties"]) == set(LIMIT_KEYS)
    assert set(game["pay"]["properties"]) == set(PAY_TABLE_KEYS) - {"base"}
    pay_table = SCHEMA["properties"]["pay_tables"]["additionalProperties"]["properties"]
    assert set(pay_table) == set(PAY_TABLE_KEYS)
    assert set(SCHEMA["properties"]["operator"]["properties"]) == set(OPERATOR_KEYS)
    assert all(entry.get("description") for entry in game.values())


def test_the_bets_section_is_the_declaration_vocabulary():
    bet = SCHEMA["properties"]["bets"]["additionalProperties"]
    # wins_plural and wins_holds are the catalogue's only (of its msgids)
    assert set(bet["properties"]) == set(OWN_BET_KEYS)
    row = bet["properties"]["rows"]["items"]
    assert set(row["properties"]) == set(ROW_KEYS)
    assert set(row["properties"]["when"]["properties"]) == set(FACTS)


def test_the_operator_s_own_bets_validate_against_the_schema():
    own_bets = Path(__file__).resolve().parent / "own_bets.toml"
    assert schema_errors(tomllib.loads(own_bets.read_text(encoding="utf-8")), SCHEMA) == []


def test_the_sample_and_the_catalogue_games_validate_against_the_schema():
    assert schema_errors(tomllib.loads(SAMPLE_CONFIG.read_text(encoding="utf-8")), SCHEMA) == []
    catalogue = tomllib.loads((REPO / "reporting" / "data" / "catalogue.toml").read_text("utf-8"))
    for game_id, game in catalogue["games"].items():
        assert schema_errors({"games": {game_id: game}}, SCHEMA) == [], game_id
    for name, table in catalogue["pay_tables"].items():
        assert schema_errors({"games": {"x": {}}, "pay_tables": {name: table}}, SCHEMA) == []


@pytest.mark.parametrize(
    "text",
    [
        'colour = "red"\n[games.live-baccarat-it]\n',
        "[games.live-baccarat-it]\ndecks = 9\n",
        "[games.live-baccarat-it]\ndecks = '8'\n",
        "[games.live-baccarat-it]\ncurrency = 'euro'\n",
        "[games.live-baccarat-it]\nlanguages = ['it', 'ja']\n",
        "[games.live-baccarat-it]\nlanguages = ['it', 'it']\n",
        "[games.live-baccarat-it]\nlimits = { min = 5, max = '10.00' }\n",
        "[games.live-baccarat-it]\nlimits = { min = '1.00', max = '1000000000.00' }\n",
        # A pay key or a bet of the file's own [bets] is any lower-case name to the schema
        # (which cannot read [bets]); a name no bet may have is refused by both.
        "[games.live-baccarat-it]\npay = { Jackpot = '100' }\n",
        "[games.live-baccarat-it]\npay = { jackpot = '-100' }\n",
        "[games.live-baccarat-it]\npay = { bonus_margins = { 3 = '1' } }\n",
        "[games.live-baccarat-it]\nbets = ['player', 'Dragon 7']\n",
        "[bets.monkey_6]\ngroup = 'side'\n[games.live-baccarat-it]\n",
        "[bets.monkey_6]\ngroup = 'jackpot'\nname = { en = 'M' }\nwins = { en = 'W' }\n"
        "rows = [{ when = { banker_total = 6 }, pays = '9', says = { en = 'S' } }]\n"
        "[games.live-baccarat-it]\n",
        "[bets.monkey_6]\ngroup = 'side'\nname = { en = 'M' }\nwins = { en = 'W' }\n"
        "rows = [{ when = { banker_total = 10 }, pays = '9', says = { en = 'S' } }]\n"
        "[games.live-baccarat-it]\n",
        "[bets.monkey_6]\ngroup = 'side'\nname = { en = 'M' }\nwins = { en = 'W' }\n"
        "rows = [{ when = { banker_colour = 'red' }, pays = '9', says = { en = 'S' } }]\n"
        "[games.live-baccarat-it]\n",
        "[games.live-baccarat-it]\nstatistics_reset = '24:01'\n",
        "[games.Live_Baccarat]\nbase = 'live-baccarat-it'\n",
        "[games.my-table]\nbase = 'live-baccarat-xx'\n",
        "[games.live-baccarat-it]\nperfect_pair = 'C'\n",
        "pay_tables = 5\n[games.live-baccarat-it]\n",
        '[operator]\nname = "X"\n',
    ],
)
def test_the_schema_and_the_loader_refuse_the_same_mistakes(tmp_path, text):
    path = tmp_path / "operator.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError):
        load_config(path)
    assert schema_errors(tomllib.loads(text), SCHEMA) != []


def test_the_starter_configuration_is_the_sample():
    assert STARTER_PATH.read_bytes() == SAMPLE_CONFIG.read_bytes()


def test_the_schema_and_the_starter_ship_by_package_data():
    settings = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    globs = settings["tool"]["setuptools"]["package-data"]["reporting.config"]
    package = REPO / "reporting" / "config"
    for path in (SCHEMA_PATH, STARTER_PATH):
        assert any(path.relative_to(package).match(glob) for glob in globs), path


@pytest.mark.slow
def test_an_installed_wheel_writes_the_starter_and_holds_the_schema(tmp_path):
    source, wheels, site = tmp_path / "source", tmp_path / "wheels", tmp_path / "site"
    shutil.copytree(
        REPO / "reporting", source / "reporting", ignore=shutil.ignore_patterns("__pycache__")
    )
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(REPO / name, source / name)
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input"]
    subprocess.run(
        [*pip, "wheel", "--no-deps", "--no-build-isolation", "-w", str(wheels), str(source)],
        check=True,
        capture_output=True,
        cwd=tmp_path,
    )
    (wheel,) = wheels.glob("baccarat_report-*.whl")
    subprocess.run(
        [*pip, "install", "--no-deps", "--target", str(site), str(wheel)],
        check=True,
        capture_output=True,
    )
    environment = {**os.environ, "PYTHONPATH": str(site)}
    run = subprocess.run(
        [sys.executable, "-m", "reporting", "init", "starter.toml"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=environment,
    )
    assert run.returncode == 0, run.stderr
    assert (tmp_path / "starter.toml").read_bytes() == SAMPLE_CONFIG.read_bytes()
    assert (site / "reporting" / "config" / "data" / "operator.schema.json").read_bytes() == (
        SCHEMA_PATH.read_bytes()
    )
    checked = subprocess.run(
        [sys.executable, "-m", "reporting", "check", "--config", "starter.toml", "--json"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=environment,
    )
    assert json.loads(checked.stdout)["problems"] == [], checked.stdout
