"""The command line (cli.md): thin commands, one clean error boundary, every command has help."""

from __future__ import annotations

import json
import re
import subprocess
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest
from helpers import run_main
from typer.testing import CliRunner

from reporting import __version__
from reporting.cli import app
from reporting.config.bets import catalogue_bets
from reporting.config.loader import load_catalogue
from reporting.engine.bets import PayTable
from reporting.engine.money import round_fraction
from reporting.engine.odds import bet_odds, main_probabilities
from reporting.errors import InputError

runner = CliRunner()


def invoke(*args: str):
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, (result.output, result.exception)
    return result


def odds_json(*args: str) -> dict:
    return json.loads(invoke("odds", *args, "--json").stdout)


def percent(value: Fraction, places: int = 4) -> str:
    return f"{round_fraction(value * 100, places)}%"


# --- odds: human output -----------------------------------------------------------------------


def test_odds_for_a_game_prints_every_offered_bet_with_its_rtp():
    output = invoke("odds", "--game", "live-baccarat-it").stdout
    assert "98.9421%" in output  # banker
    assert "98.7649%" in output  # player
    assert "85.6404%" in output  # tie
    assert "0.458597" in output and "0.446247" in output and "0.095156" in output
    offered = load_catalogue().games["live-baccarat-it"].bet_ids
    assert len(offered) == 11
    for bet in offered:
        assert bet in output
    assert "0.95:1" in output


def test_odds_for_a_game_shows_only_its_bets():
    output = invoke("odds", "--game", "mini-baccarat-it").stdout
    assert "6 decks" in output
    # the engine's figure, four decimals: published as 98.94% (games.md, mini baccarat)
    catalogue = catalogue_bets()
    banker = bet_odds(catalogue["banker"], 6, PayTable.of(catalogue.values())).rtp
    assert round_fraction(banker * 100, 2) == Decimal("98.94")
    assert percent(banker) in output
    assert "player_pair" not in output and "small" not in output


# --- odds --json (cli.md) ---------------------------------------------------------------------


def test_odds_json_for_decks_has_every_bet_and_both_perfect_pair_variants():
    document = odds_json("--decks", "6")
    assert document["decks"] == 6
    assert set(document["bets"]) == set(catalogue_bets()) | {"perfect_pair_b"}
    for bet_id, figures in document["bets"].items():
        assert {"rtp", "house_edge", "rtp_exact"} <= set(figures), bet_id
        assert isinstance(figures["rtp"], float)
        exact = Fraction(figures["rtp_exact"])
        assert abs(exact - Fraction(figures["rtp"])) < Fraction(1, 10**12), bet_id
        assert abs(Fraction(figures["house_edge"]) - (1 - exact)) < Fraction(1, 10**12), bet_id
    bets = document["bets"]
    # published 6-deck figures (games.md, mini baccarat)
    assert round_fraction(Fraction(bets["player"]["rtp_exact"]) * 100, 2) == Decimal("98.76")
    assert round_fraction(Fraction(bets["banker"]["rtp_exact"]) * 100, 2) == Decimal("98.94")
    assert round_fraction(Fraction(bets["tie"]["rtp_exact"]) * 100, 2) == Decimal("85.56")
    assert Fraction(bets["perfect_pair_b"]["rtp_exact"]) > Fraction(
        bets["perfect_pair"]["rtp_exact"]
    )


def test_odds_json_for_a_game_lists_the_bets_it_offers():
    document = odds_json("--game", "live-baccarat-dk")
    assert document["decks"] == 8
    assert set(document["bets"]) == {
        "player",
        "banker",
        "tie",
        "player_pair",
        "banker_pair",
        "perfect_pair",
        "either_pair",
        "player_bonus",
        "banker_bonus",
    }
    # Denmark publishes perfect pair (variant B) 91.95%
    rtp = Fraction(document["bets"]["perfect_pair"]["rtp_exact"])
    assert round_fraction(rtp * 100, 2) == Decimal("91.95")


def test_odds_decks_overrides_the_games_deck_count():
    document = odds_json("--game", "live-baccarat-it", "--decks", "6")
    assert document["decks"] == 6
    assert round_fraction(Fraction(document["bets"]["tie"]["rtp_exact"]) * 100, 2) == Decimal(
        "85.56"
    )


def test_pay_override_changes_the_tie_rtp():
    standard = odds_json("--decks", "8")["bets"]["tie"]
    nine = odds_json("--decks", "8", "--pay", "tie=9")["bets"]["tie"]
    tie = main_probabilities(8)["tie"]
    assert Fraction(standard["rtp_exact"]) == 9 * tie
    assert Fraction(nine["rtp_exact"]) == 10 * tie
    assert nine["pays"] == "9:1"
    assert f"{percent(10 * tie)}" in invoke("odds", "--decks", "8", "--pay", "tie=9").stdout


def test_pay_override_of_a_bonus_margin():
    standard = odds_json("--game", "live-baccarat-it")["bets"]["player_bonus"]
    richer = odds_json("--game", "live-baccarat-it", "--pay", "bonus_margin_9=50")
    assert Fraction(richer["bets"]["player_bonus"]["rtp_exact"]) > Fraction(standard["rtp_exact"])
    # the other bets are untouched
    assert richer["bets"]["banker"] == odds_json("--game", "live-baccarat-it")["bets"]["banker"]


@pytest.mark.parametrize(
    ("odds", "reason"),
    [
        ("9" * 100_000, '(100,000 characters) is too long for odds (e.g. "19/20")'),
        ("1/" + "9" * 5_000, '(5,002 characters) is too long for odds (e.g. "19/20")'),
        ("99999", "'99999' is above 10000 to 1"),
        ("1/99999", "'1/99999' is finer than 1/10000"),
        ("0", "'0': odds must be above zero"),
    ],
)
def test_a_pay_override_is_held_to_what_a_configuration_s_pay_may_be(odds, reason):
    """``--pay`` used to take any ratio: a number of 100,000 digits reached the engine and
    ended in a traceback. It is held to the configuration's bounds: one line, exit 2."""
    result = run_main("odds", "--decks", "8", "--pay", f"tie={odds}")
    assert (result.returncode, result.stdout) == (2, "")
    (line,) = result.stderr.splitlines()
    assert line.startswith("baccarat-report: --pay 'tie=") and line.endswith(reason), line


def test_perfect_pair_variant_option():
    variant_a = odds_json("--game", "live-baccarat-it")["bets"]["perfect_pair"]
    variant_b = odds_json("--game", "live-baccarat-it", "--perfect-pair", "B")["bets"][
        "perfect_pair"
    ]
    assert variant_a["pays"] == "25:1"
    assert variant_b["pays"] == "perfect_pair_one 25:1, perfect_pair_both 200:1"
    assert round_fraction(Fraction(variant_b["rtp_exact"]) * 100, 2) == Decimal("91.95")
    back_to_a = odds_json("--game", "live-baccarat-dk", "--perfect-pair", "a")["bets"]
    assert back_to_a["perfect_pair"]["rtp_exact"] == variant_a["rtp_exact"]
    assert (
        "perfect pair B"
        in invoke("odds", "--game", "live-baccarat-it", "--perfect-pair", "B").stdout
    )
    # A game without the bet: the option was taken and ignored, and the title said "perfect
    # pair A" of a game that offers none.
    refused = runner.invoke(app, ["odds", "--game", "no-commission-dk", "--perfect-pair", "B"])
    assert isinstance(refused.exception, InputError)  # the boundary's exit 2
    assert "--perfect-pair B: no-commission-dk offers no perfect pair bet" in str(refused.exception)
    title = invoke("odds", "--game", "no-commission-dk").stdout.splitlines()[0]
    assert title.rstrip() == "No Commission Baccarat (no-commission-dk), 8 decks"
    # Every bet of a shoe (--decks): both tables are listed; the option was taken and changed
    # nothing (A printed as perfect_pair whatever it said).
    refused = runner.invoke(app, ["odds", "--decks", "8", "--perfect-pair", "B"])
    assert isinstance(refused.exception, InputError)
    assert "--perfect-pair B: applies to a game (--game ID)" in str(refused.exception)
    # --config with --decks alone was not read: a file of no name too passed without a word
    refused = runner.invoke(app, ["odds", "--decks", "8", "--config", "/nonexistent.toml"])
    assert isinstance(refused.exception, InputError)
    assert str(refused.exception).startswith(
        "--config /nonexistent.toml: a configuration's games are counted with --game ID"
    )


VARIANTS = """\
[games.ez-it]
base = "live-baccarat-it"
bets = ["player", "banker_ez", "tie", "dragon_7", "panda_8"]

[games.tiger-it]
base = "live-baccarat-it"
bets = ["player", "banker", "tie", "tiger", "small_tiger", "big_tiger", "tiger_tie", "tiger_pair"]
"""


def test_pay_override_takes_any_pay_key_of_the_game_s_bets(tmp_path):
    config = tmp_path / "operator.toml"
    config.write_text(VARIANTS, encoding="utf-8")
    tiger = odds_json("--config", str(config), "--game", "tiger-it")["bets"]
    richer = odds_json(
        "--config", str(config), "--game", "tiger-it", "--pay", "tiger_three_cards=25"
    )["bets"]
    assert tiger["tiger"]["pays"] == "tiger_two_cards 12:1, tiger_three_cards 20:1"
    assert richer["tiger"]["pays"] == "tiger_two_cards 12:1, tiger_three_cards 25:1"
    three_card_six = Fraction(tiger["big_tiger"]["win"])  # float: compare the exact gain below
    gain = Fraction(richer["tiger"]["rtp_exact"]) - Fraction(tiger["tiger"]["rtp_exact"])
    assert abs(gain - 5 * three_card_six) < Fraction(1, 10**12)
    assert richer["small_tiger"] == tiger["small_tiger"]
    ez = odds_json("--config", str(config), "--game", "ez-it", "--pay", "dragon_7=45")["bets"]
    assert ez["dragon_7"]["pays"] == "45:1"
    # a key of no bet of the game is refused, with the keys it has
    result = run_main("odds", "--config", str(config), "--game", "ez-it", "--pay", "super_6=15")
    assert result.returncode == 2
    assert "super_6=15" in result.stderr and "dragon_7" in result.stderr
    assert "Traceback" not in result.stderr


def test_odds_with_an_explicit_config(tmp_path):
    config = tmp_path / "operator.toml"
    config.write_text('[games.my-table]\nbase = "live-baccarat-it"\ndecks = 6\n', encoding="utf-8")
    document = odds_json("--config", str(config), "--game", "my-table")
    assert document["decks"] == 6


# --- help, version ----------------------------------------------------------------------------


def test_every_command_has_help():
    names = [command.name or command.callback.__name__ for command in app.registered_commands]
    assert "odds" in names
    for name in names:
        result = invoke(name, "--help")
        assert "Usage" in result.output, name
        assert "--help" in result.output, name
        command = next(
            c for c in app.registered_commands if (c.name or c.callback.__name__) == name
        )
        assert command.callback.__doc__, f"{name} has no docstring for its help"


def test_root_help_lists_every_command():
    output = invoke("--help").output
    for command in app.registered_commands:
        assert (command.name or command.callback.__name__) in output


def test_version():
    assert invoke("--version").output.strip() == f"baccarat-report {__version__}"


# --- exit codes of main() ---------------------------------------------------------------------


def assert_clean_failure(process: subprocess.CompletedProcess, *fragments: str) -> None:
    assert process.returncode == 2, (process.stdout, process.stderr)
    assert "Traceback" not in process.stderr
    assert process.stdout == ""
    for fragment in fragments:
        assert fragment in process.stderr, process.stderr


def test_main_odds_without_game_or_decks_exits_2_with_one_line(tmp_path):
    process = run_main("odds", cwd=tmp_path)
    assert_clean_failure(process, "--game", "--decks")
    assert len(process.stderr.strip().splitlines()) == 1
    assert process.stderr.startswith("baccarat-report: ")


def test_main_unknown_game_exits_2(tmp_path):
    process = run_main("odds", "--game", "live-baccarat-xx", cwd=tmp_path)
    assert_clean_failure(process, "live-baccarat-xx", "live-baccarat-it")
    assert len(process.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("odds", "--decks", "8", "--pay", "tie"), "KEY=ODDS"),
        (("odds", "--decks", "8", "--pay", "jackpot=100"), "jackpot"),
        (("odds", "--decks", "8", "--pay", "tie=-1"), "tie=-1"),
        (("odds", "--decks", "8", "--pay", "tie=0"), "above zero"),
        (("odds", "--decks", "8", "--perfect-pair", "C"), "A or B"),
        (("odds", "--decks", "9"), "--decks"),
        (("odds", "--config", "does-not-exist.toml", "--game", "live-baccarat-it"), "not found"),
        (("no-such-command",), "no-such-command"),
    ],
    ids=[
        "pay-without-odds",
        "pay-unknown-key",
        "pay-negative",
        "pay-zero",
        "perfect-pair-C",
        "decks-9",
        "missing-config",
        "unknown-command",
    ],
)
def test_main_bad_arguments_exit_2_without_traceback(tmp_path, args, fragment):
    assert_clean_failure(run_main(*args, cwd=tmp_path), fragment)


def test_main_bad_configuration_lists_every_problem_and_exits_2(tmp_path):
    config = tmp_path / "operator.toml"
    config.write_text("[games.live-baccarat-it]\ndecks = 9\ncurrency = 'euro'\n", encoding="utf-8")
    process = run_main("odds", "--config", str(config), "--game", "live-baccarat-it", cwd=tmp_path)
    assert_clean_failure(process, f"{config}:2: games.live-baccarat-it.decks", "currency")
    assert len(process.stderr.strip().splitlines()) == 2


def test_main_odds_succeeds_with_exit_0(tmp_path):
    process = run_main("odds", "--decks", "8", "--json", cwd=tmp_path)
    assert process.returncode == 0, process.stderr
    document = json.loads(process.stdout)
    assert round_fraction(Fraction(document["bets"]["banker"]["rtp_exact"]) * 100, 2) == Decimal(
        "98.94"
    )


def test_every_command_is_in_the_commands_page_and_the_readme():
    """Docs and CLI agree: each command has a `## name` section in the commands page and a row
    in the README's table, and neither lists a command the CLI does not have."""
    root = Path(__file__).resolve().parents[2]
    page = (root / "docs" / "operators" / "commands.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"^## `([a-z-]+)`", page, flags=re.MULTILINE))
    readme = (root / "README.md").read_text(encoding="utf-8")
    table = readme.split("## The commands", 1)[1].split("\n## ", 1)[0]
    assert set(re.findall(r"^\| `([a-z-]+)` \|", table, flags=re.MULTILINE)) == documented
    commands = {command.name for command in app.registered_commands}
    assert commands == documented


def test_a_folder_with_no_round_log_names_the_files_of_other_names_it_holds(tmp_path):
    """``ingest FOLDER`` of an export named ``Rounds-2026-10.CSV`` and ``.ndjson`` said only
    "No round logs found": the warning names what the folder holds and the names it reads.
    They are files not read, exit 1, as in the monthly job's inbox (it exited 0). Beside a
    round log, files of other names are not asked for and stay unsaid."""
    folder = tmp_path / "drop"
    folder.mkdir()
    for name in ("Rounds-2026-10.CSV", "a.ndjson"):
        (folder / name).write_text("{}\n", encoding="utf-8")
    db = str(tmp_path / "store.sqlite")
    result = run_main("ingest", str(folder), "--db", db)
    assert result.returncode == 1, result.stderr  # files not read, as in the monthly job's inbox
    assert result.stderr == (
        f"baccarat-report: warning: {folder} holds no round log: 2 files of other names (read:"
        " .jsonl, .jsonl.gz, or rounds.csv with bets.csv): Rounds-2026-10.CSV, a.ndjson\n"
    )
    twice = run_main("ingest", str(folder), str(folder), "--db", db, "--json")  # listed once
    document = json.loads(twice.stdout)
    assert [item["file"] for item in document["unread"]] == [
        str(folder / "Rounds-2026-10.CSV"),
        str(folder / "a.ndjson"),
    ]
    (folder / "log.jsonl").write_text("\n", encoding="utf-8")  # a log of no round (not empty)
    beside_a_log = run_main("ingest", str(folder), "--db", db)
    assert (beside_a_log.returncode, beside_a_log.stderr) == (0, "")


def test_a_folder_read_with_a_profile_names_what_it_does_not_read(tmp_path):
    """``ingest FOLDER --profile replay-api`` of a folder whose export is a link to a file
    outside it, or whose files are of names the profile does not read, said "No round logs
    found", exit 0, where the spec's reader warns and exits 1; so did an empty folder, which
    the exit contract lists as exit 1. Each is said, exit 1."""
    outside = tmp_path / "out"
    outside.mkdir()
    (outside / "games.json").write_text("[]\n", encoding="utf-8")
    linked, other, empty = (tmp_path / name for name in ("linked", "other", "empty"))
    for folder in (linked, other, empty):
        folder.mkdir()
    (linked / "games.json").symlink_to(outside / "games.json")
    (other / "flat.csv").write_text("Table\n", encoding="utf-8")
    db = str(tmp_path / "store.sqlite")
    reads = "*.json, *.json.gz, *.jsonl, *.jsonl.gz"
    for folder, said in (
        (
            linked,
            f"not read: {linked / 'games.json'}: a link to a file outside the folder, not followed (give the file by path)",
        ),  # fmt: skip
        (
            other,
            f"{other} holds no round log: 1 file of other names (the log profile replay-api reads {reads}): flat.csv",
        ),  # fmt: skip
        (
            empty,
            f"{empty} holds no round log: no file of the names read (the log profile replay-api reads {reads})",
        ),  # fmt: skip
    ):
        run = run_main("ingest", str(folder), "--profile", "replay-api", "--db", db)
        assert (run.returncode, run.stderr) == (1, f"baccarat-report: warning: {said}\n")
    spec = run_main("ingest", str(empty), "--db", db)
    assert (spec.returncode, spec.stderr) == (
        1,
        f"baccarat-report: warning: {empty} holds no round log: no file of the names read"
        " (read: .jsonl, .jsonl.gz, or rounds.csv with bets.csv)\n",
    )


def test_a_folder_with_no_round_log_beside_one_with_logs_is_said(tmp_path, make_round):
    """``ingest A B``: A empty, or of files of other names, and B with a log said nothing of
    A, exit 0; a folder given alone was said. Each folder that holds no round log is said,
    exit 1, whatever the others hold."""
    empty, logs = tmp_path / "empty", tmp_path / "logs"
    for folder in (empty, logs):
        folder.mkdir()
    (logs / "log.jsonl").write_text(json.dumps(make_round("R-1")) + "\n", encoding="utf-8")
    run = run_main("ingest", str(empty), str(logs), "--db", str(tmp_path / "store.sqlite"))
    assert (run.returncode, run.stderr) == (
        1,
        f"baccarat-report: warning: {empty} holds no round log: no file of the names read"
        " (read: .jsonl, .jsonl.gz, or rounds.csv with bets.csv)\n",
    )


@pytest.mark.parametrize("profile", [(), ("--profile", "replay-api")], ids=["spec", "profile"])
def test_a_folder_s_hidden_files_are_left_alone_as_an_inbox_s(tmp_path, make_round, profile):
    """``ingest FOLDER`` read its hidden files, which the monthly inbox leaves alone (a
    transfer in progress, ``.upload.jsonl`` still empty, stopped the run with exit 2; an
    editor's backup in ``.cache/`` was read as a log). A folder's hidden files and hidden
    folders are neither read nor named."""
    folder = tmp_path / "drop"
    (folder / ".cache").mkdir(parents=True)
    (folder / ".upload.jsonl").write_bytes(b"")
    (folder / ".cache" / "old.jsonl").write_text("{oops\n", encoding="utf-8")
    (folder / ".games.json.part").write_bytes(b"")
    if profile:
        game = {"gameUid": "G-1"}  # no need to read it whole: a reject is enough to be read
        (folder / "games.json").write_text(json.dumps([game]) + "\n", encoding="utf-8")
    else:
        (folder / "log.jsonl").write_text(json.dumps(make_round("R-1")) + "\n", encoding="utf-8")
    run = run_main("ingest", str(folder), *profile, "--db", str(tmp_path / "s.sqlite"), "--json")
    document = json.loads(run.stdout)
    assert [entry["file"] for entry in document["files"]] == [
        str(folder / ("games.json" if profile else "log.jsonl"))
    ]
    assert document["unread"] == [] and ".upload" not in run.stderr and ".cache" not in run.stderr


def test_ingest_says_whether_nothing_was_new_or_there_was_nothing_to_load(tmp_path):
    """A provider's export of no round (an empty array) was answered "Nothing new: every file
    or round was already loaded", of a file never seen before."""
    export = tmp_path / "empty.json"
    export.write_text("[]\n", encoding="utf-8")
    db, config = (
        tmp_path / "store.sqlite",
        Path(__file__).parents[2] / "sample_data" / "operator.toml",
    )
    command = (
        "ingest",
        str(export),
        "--profile",
        "replay-api",
        "--db",
        str(db),
        "--config",
        str(config),
    )
    first, again = run_main(*command), run_main(*command)
    assert first.stdout.strip().endswith("Nothing loaded: the files read hold no round.")
    assert again.stdout.strip().endswith("Nothing new: every file or round was already loaded.")
