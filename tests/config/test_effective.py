"""The effective configuration (``check --show``): every key written out, read back to the
very same games."""

from __future__ import annotations

import tomllib
from pathlib import Path

from reporting.config.effective import effective_document, to_toml
from reporting.config.keys import GAME_KEYS
from reporting.config.loader import load_config

SAMPLE_CONFIG = Path(__file__).resolve().parents[2] / "sample_data" / "operator.toml"

CUSTOM = """
[operator]
name = "O'Brien & \\"Sons\\" \u2014 Casinò"

[pay_tables.generous]
base = "perfect_pair_b"
tie = "9"
bonus_margins = { 9 = "40" }

[games.my-live-table]
base = "live-baccarat-it"
pay_table = "generous"
perfect_pair = "B"
limits = { min = "2.50", max = "500.00", per_bet = { tie = { max = "100.00" }, small = { min = "1.00" } } }
rounding = "half_even"
languages = ["en"]

[games.live-baccarat-gr]
opening_hours = "10:00-02:00, every day"
"""


def round_trip(tmp_path: Path, source: Path) -> None:
    config = load_config(source)
    written = tmp_path / "effective.toml"
    written.write_text(to_toml(effective_document(config)), encoding="utf-8")
    again = load_config(written)
    assert again.games == config.games
    assert again.name == config.name
    assert again.origins == config.origins
    assert again.own_bets == config.own_bets


def test_the_operator_s_own_bets_read_back_the_same(tmp_path):
    source = Path(__file__).resolve().parent / "own_bets.toml"
    round_trip(tmp_path, source)
    document = effective_document(load_config(source))
    monkey = document["bets"]["monkey_6"]
    assert monkey["group"] == "side" and monkey["name"] == {"en": "Monkey 6", "it": "Scimmia 6"}
    # a condition's values as written: one alone, several as a list
    assert monkey["rows"][0]["when"] == {
        "winner": "banker",
        "banker_total": 6,
        "banker_cards": 3,
        "banker_faces": [2, 3],
    }
    assert monkey["rows"][0]["key"] == "monkey_6" and monkey["rows"][0]["pays"] == "450"
    assert list(document) == ["operator", "bets", "games"]


def test_the_sample_reads_back_to_the_same_games(tmp_path):
    round_trip(tmp_path, SAMPLE_CONFIG)


def test_a_game_of_its_own_with_its_own_pay_table_reads_back_the_same(tmp_path):
    source = tmp_path / "operator.toml"
    source.write_text(CUSTOM, encoding="utf-8")
    round_trip(tmp_path, source)
    document = effective_document(load_config(source))
    table = document["games"]["my-live-table"]
    assert table["base"] == "live-baccarat-it" and table["pay_table"] == "generous"
    assert table["pay"]["tie"] == "9" and table["pay"]["perfect_pair_both"] == "200"
    # every pay key of the game's bets, the bonus table's margins each under its own key
    assert table["pay"]["bonus_margin_9"] == "40" and table["pay"]["banker"] == "19/20"
    assert table["pay"]["bonus_margin_8"] == "10" and table["pay"]["bonus_natural_tie"] == "push"
    assert table["limits"] == {
        "min": "2.50",
        "max": "500.00",
        "per_bet": {
            "tie": {"min": "2.50", "max": "100.00"},
            "small": {"min": "1.00", "max": "500.00"},
        },
    }
    assert "base" not in document["games"]["live-baccarat-gr"]


def test_every_game_key_is_written_with_the_defaults_filled_in():
    document = effective_document(load_config(SAMPLE_CONFIG))
    italy = document["games"]["live-baccarat-it"]
    # the pay table says both perfect pair odds; the catalogue gives this game no version and
    # no cut card depth (games.md states none), and the sample cites no certificate for its
    # declared RTP, and keeps the catalogue's names of the hands (no words of its own)
    assert set(italy) == set(GAME_KEYS) - {
        "perfect_pair",
        "version",
        "declared_rtp_reference",
        "cut_card_depth",
        "words",
    }
    assert italy["declared_rtp"] == "99.50" and italy["decks"] == 8
    mini = document["games"]["mini-baccarat-it"]
    assert "cut_card_depth" not in mini  # an unset optional key stays unset
    assert tomllib.loads(to_toml(document)) == document


def test_a_game_without_a_scoreboard_on_a_base_with_one_reads_back_without_it(tmp_path):
    """``scoreboard = []`` was left out, and the base's came back: an RNG game on a live base
    did not load again (its reshuffled shoe refuses a scoreboard), and a live one gained one."""
    source = tmp_path / "operator.toml"
    source.write_text(
        '[games.rng-it]\nbase = "live-baccarat-it"\nkind = "rng"\nscoreboard = []\n'
        "[games.live-baccarat-dk]\nscoreboard = []\n",
        encoding="utf-8",
    )
    round_trip(tmp_path, source)
    assert all(not game.scoreboard for game in load_config(source).games.values())


def test_an_inbox_rule_s_profile_file_reads_back_from_another_folder(tmp_path):
    """A profile file relative to the configuration stayed relative in ``check --show``, and
    the document saved elsewhere named no file; a built-in profile stays named."""
    import shutil

    from helpers import run_main

    folder = tmp_path / "config"
    folder.mkdir()
    profiles = Path(__file__).resolve().parents[2] / "reporting" / "ingest" / "profiles" / "data"
    for name in ("mine.toml", "mine", "replay.v2"):
        shutil.copy2(profiles / "replay-api.toml", folder / name)
    rules = [("a", "mine.toml"), ("b", "./mine"), ("c", "replay.v2"), ("d", "replay-api")]
    source = folder / "operator.toml"
    source.write_text(
        "[games.live-baccarat-it]\n"
        + "".join(f'[[inbox.profiles]]\nfolder = "{f}"\nprofile = "{p}"\n' for f, p in rules),
        encoding="utf-8",
    )
    shown = run_main("check", "--config", str(source), "--show", cwd=tmp_path)
    elsewhere = tmp_path / "elsewhere" / "effective.toml"
    elsewhere.parent.mkdir()
    elsewhere.write_text(shown.stdout, encoding="utf-8")
    written = [rule["profile"] for rule in tomllib.loads(shown.stdout)["inbox"]["profiles"]]
    assert written == [
        str(folder / "mine.toml"),
        str(folder / "mine"),
        str(folder / "replay.v2"),
        "replay-api",
    ]
    again = run_main("check", "--config", str(elsewhere), cwd=tmp_path)
    assert again.returncode in (0, 1), again.stderr


def test_a_configuration_in_a_deep_folder_reads_back_with_its_logo_and_templates(tmp_path):
    """The document names the logo and the templates' folder by their absolute paths: from a
    folder some 600 characters deep they passed the 500 characters a path key took, and the
    document did not load back. A path key takes what Linux opens (PATH_MAX)."""
    import shutil

    folder = tmp_path.joinpath(*["d" * 100] * 6)
    (folder / "templates").mkdir(parents=True)
    shutil.copy2(SAMPLE_CONFIG.with_name("logo.svg"), folder / "logo.svg")
    source = folder / "operator.toml"
    source.write_text(
        '[operator]\nlogo = "logo.svg"\ntemplates = "templates"\n[games.live-baccarat-it]\n',
        encoding="utf-8",
    )
    assert len(str(folder / "logo.svg")) > 600
    round_trip(tmp_path, source)
    config = load_config(source)
    written = tmp_path / "effective.toml"
    again = load_config(written)  # where round_trip wrote it, away from the logo
    assert again.operator.logo.path == config.operator.logo.path == folder / "logo.svg"
    assert again.operator.logo == config.operator.logo
    assert again.operator.templates == config.operator.templates == folder / "templates"
