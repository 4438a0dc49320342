"""``baccarat-report check``: every problem at once with its line, warnings, the inbox, the
effective configuration; exit 0 clean, 1 warnings, 2 problems."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from helpers import MINIMAL_PROFILE, run_main
from typer.testing import CliRunner

from reporting.cli import app
from reporting.config.loader import load_config
from reporting.engine.theory import game_odds

runner = CliRunner()
REPO = Path(__file__).resolve().parents[2]
SAMPLE_CONFIG = REPO / "sample_data" / "operator.toml"

#: One file, nine problems (issue 11: it took three runs to see them all).
NINE_PROBLEMS = """\
[games.live-baccarat-it]
decks = "8"
currency = "euro"
langauges = ["it"]
limits = { min = "5.00", max = "-1" }
pay = { tie = "0" }

[games.live-baccarat-dk]
pay_table = "perfect_pair_c"
rounding = "up"
statistics_reset = "25:00"

[games.mini-baccarat-it]
languages = []
"""


def check(*args: str):
    return runner.invoke(app, ["check", *args])


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "operator.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_every_problem_of_a_file_is_shown_at_once_with_its_line(tmp_path):
    path = write(tmp_path, NINE_PROBLEMS)
    result = check("--config", str(path), "--json")
    assert result.exit_code == 2
    document = json.loads(result.stdout)
    located = [
        re.match(rf"{re.escape(str(path))}:(\d+): ([^:]+):", p) for p in document["problems"]
    ]
    assert all(located), document["problems"]
    assert [(int(m[1]), m[2]) for m in located] == [
        (2, "games.live-baccarat-it.decks"),
        (3, "games.live-baccarat-it.currency"),
        (4, "games.live-baccarat-it.langauges"),
        (5, "games.live-baccarat-it.limits.max"),
        (6, "games.live-baccarat-it.pay.tie"),
        (9, "games.live-baccarat-dk.pay_table"),
        (10, "games.live-baccarat-dk.rounding"),
        (11, "games.live-baccarat-dk.statistics_reset"),
        (14, "games.mini-baccarat-it.languages"),
    ]
    assert "did you mean 'languages'?" in document["problems"][2]
    assert "did you mean 'perfect_pair_b'?" in document["problems"][5]
    assert document["games"] == [] and document["warnings"] == []


def test_problems_go_to_stderr_as_every_command_prints_them(tmp_path):
    path = write(tmp_path, NINE_PROBLEMS)
    process = run_main("check", "--config", str(path))
    assert process.returncode == 2
    assert "Traceback" not in process.stderr
    lines = process.stderr.splitlines()
    assert len(lines) == 9
    assert all(line.startswith(f"baccarat-report: configuration: {path}:") for line in lines)
    assert process.stdout == f"configuration {path}: not loaded; 9 problems, 0 warnings\n"


def test_a_clean_configuration_exits_0(tmp_path):
    path = write(tmp_path, '[operator]\nname = "X"\n[games.live-baccarat-gr]\n')
    result = check("--config", str(path))
    assert result.exit_code == 0, result.output
    assert result.stdout == (
        f"configuration {path}: 1 game (live-baccarat-gr); 0 problems, 0 warnings\n"
        "  live-baccarat-gr (GR): no page format of Hellenic Gaming Commission is written down"
        " here, so its pages carry no regulator block: the rule sheet's table of every bet's"
        " RTP is what they publish\n"
    )


def test_a_live_game_open_around_the_clock_without_a_gap_threshold_is_a_note(tmp_path):
    """The audit names such a game among what was not checked every month; `check` says so
    when the configuration is written, and how to have it checked (a note: no warning)."""
    path = write(tmp_path, '[games.ez]\nbase = "live-baccarat-it"\n')
    document = json.loads(check("--config", str(path), "--json").stdout)
    assert [note for note in document["notes"] if note.startswith("ez:")] == [
        "ez: its pages say it is open 24 hours a day, and availability_gap_minutes is not set:"
        " the monthly audit does not look for its tables' idle stretches, and says so (set it"
        " under [games.ez]: each stretch of more minutes than that without a round at one of"
        " its tables is then listed)"
    ]
    path = write(tmp_path, '[games.ez]\nbase = "live-baccarat-it"\navailability_gap_minutes = 15\n')
    notes = json.loads(check("--config", str(path), "--json").stdout)["notes"]
    assert not [note for note in notes if note.startswith("ez:")]


def test_warnings_exit_1_and_a_favourable_bet_points_at_its_pay_line(tmp_path):
    path = write(tmp_path, '[games.live-baccarat-gr]\nname = "Live"\npay = { tie = "10" }\n')
    result = check("--config", str(path), "--json")
    assert result.exit_code == 1
    (warning,) = json.loads(result.stdout)["warnings"]
    assert warning.startswith(f"{path}:3: games.live-baccarat-gr.pay.tie: the tie bet returns 1")
    assert "favours the player" in warning


def test_a_pay_problem_or_warning_points_where_the_pay_is_written(tmp_path):
    """Set in a pay table, or declared by an own bet's row, a pay was told at the game's
    header as `games.G.pay`, a key the file did not hold."""
    path = write(
        tmp_path,
        '[pay_tables.generous]\ntie = "10"\n\n'
        '[games.live-baccarat-gr]\nname = "Live"\npay_table = "generous"\n',
    )
    (warning,) = json.loads(check("--config", str(path), "--json").stdout)["warnings"]
    assert warning.startswith(
        f"{path}:2: pay_tables.generous.tie: in live-baccarat-gr, the tie bet returns 1"
    )
    own = (
        '[bets.rich]\ngroup = "side"\nname = { el = "R", en = "R" }\nwins = { el = "w", en = "w" }\n'
        'rows = [\n  { when = { winner = "tie" }, key = "rich", pays = "20",'
        ' says = { el = "s", en = "s" } },\n]\n\n'
        '[games.live-baccarat-gr]\nname = "Live"\nbets = ["player", "banker", "rich"]\n'
        "exclusive_bets = []\n"
    )
    path = write(tmp_path, own)
    (warning,) = json.loads(check("--config", str(path), "--json").stdout)["warnings"]
    assert warning.startswith(
        f"{path}:6: bets.rich.rows.1.pays: in live-baccarat-gr, the rich bet returns 1"
    )
    based = (  # set in the base of the game's table
        '[pay_tables.mid]\ntie = "10"\n\n[pay_tables.generous]\nbase = "mid"\n\n'
        '[games.live-baccarat-gr]\nname = "Live"\npay_table = "generous"\n'
    )
    path = write(tmp_path, based)
    (warning,) = json.loads(check("--config", str(path), "--json").stdout)["warnings"]
    assert warning.startswith(f"{path}:2: pay_tables.mid.tie: in live-baccarat-gr, the tie bet")
    margins = (  # a bonus margin, written as the docs write one
        '[games.live-baccarat-it]\nbets = ["player", "banker", "tie", "player_bonus"]\n\n'
        '[games.live-baccarat-it.pay]\nbonus_margins = { 9 = "300", 8 = "100" }\n'
    )
    path = write(tmp_path, margins)
    warnings = json.loads(check("--config", str(path), "--json").stdout)["warnings"]
    assert any(
        w.startswith(f"{path}:5: games.live-baccarat-it.pay.bonus_margins.9: the player_bonus")
        for w in warnings
    ), warnings


def test_a_declared_rtp_warning_points_at_the_line_of_the_declared_rtp(tmp_path):
    """The warnings of a declared RTP above every bet's, or below the Italian minimum, named
    the game's table line (1), not the line where declared_rtp is written (3); one the game
    inherits is at its table."""
    path = write(
        tmp_path,
        '[games.live-baccarat-dk]\nlanguages = ["da"]\ndeclared_rtp = "100"\n\n'
        '[games.mini-baccarat-it]\nlanguages = ["it"]\ndeclared_rtp = "89.99"\n'
        '[games.live-baccarat-it]\nlanguages = ["it"]\n',
    )
    warnings = json.loads(check("--config", str(path), "--json").stdout)["warnings"]
    assert [w.split(": declared RTP")[0] for w in warnings if ": declared RTP" in w] == [
        f"{path}:3: games.live-baccarat-dk.declared_rtp",
        f"{path}:7: games.mini-baccarat-it.declared_rtp",
        f"{path}:8: games.live-baccarat-it.declared_rtp",  # the catalogue's 99.50%
    ]


def test_a_file_name_holding_a_line_break_or_an_escape_is_printed_on_one_line(tmp_path):
    """A configuration named ``nl<LF>name<ESC>[31m.toml`` broke each problem's line in two and
    sent the escape to the terminal; an inbox file's name did the same in the list of logs
    to read. Each is written as its warnings write it, escaped."""
    path = tmp_path / "nl\nname\x1b[31m.toml"
    path.write_text("x = 1\n", encoding="utf-8")
    result = run_main("check", "--config", str(path), cwd=tmp_path)
    assert result.returncode == 2
    assert "\x1b" not in result.stderr and len(result.stderr.splitlines()) == 2
    assert f"{tmp_path}/nl\\nname\\x1b[31m.toml:1: x: unknown key" in result.stderr
    # --json carries the name as it is, JSON escaping its characters
    document = json.loads(run_main("check", "--json", "--config", str(path), cwd=tmp_path).stdout)
    assert document["problems"][-1] == f"{path}:1: x: unknown key"
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    (inbox / "a\nb\x1b[31m.jsonl").touch()
    listed = run_main("check", "--inbox", str(inbox), cwd=tmp_path).stdout
    assert "\x1b" not in listed and "  a\\nb\\x1b[31m.jsonl (jsonl)\n" in listed


def test_check_s_problems_warnings_and_hints_are_records_of_the_log(tmp_path):
    """check printed its lines itself: ``-qq`` still showed its warning and hint, and
    ``--log-file`` stayed empty, where every other command's go through the log. ``-q`` leaves
    out the hint, ``-qq`` the warning; the log file gets each, with its level."""
    said = {
        flags: run_main(*flags, "check", "--config", str(SAMPLE_CONFIG), cwd=tmp_path)
        for flags in ((), ("-q",), ("-qq",))
    }
    assert [line.split(": ")[1] for line in said[()].stderr.splitlines()] == ["warning", "hint"]
    assert said[("-q",)].stderr == said[()].stderr.splitlines(keepends=True)[0]
    assert said[("-qq",)].stderr == "" and {r.returncode for r in said.values()} == {1}
    log = tmp_path / "check.log"
    run_main("--log-file", str(log), "check", "--config", str(SAMPLE_CONFIG), cwd=tmp_path)
    bad = write(tmp_path, "games = 5\n")
    run_main("--log-file", str(log), "check", "--config", str(bad), cwd=tmp_path)
    levels = [line.split(" ")[1] for line in log.read_text(encoding="utf-8").splitlines()]
    assert levels == ["WARNING", "INFO", "ERROR"]


def test_the_sample_s_warnings_are_the_monthly_job_s(tmp_path):
    result = check("--config", str(SAMPLE_CONFIG), "--json")
    assert result.exit_code == 1
    warnings = json.loads(result.stdout)["warnings"]
    assert any("declared RTP 99.50% is above the theoretical RTP" in w for w in warnings)
    # the sample states the Mini Baccarat game's code and hours: a declared RTP above every
    # bet's theoretical one (no certificate cited) is each game's one warning
    config = load_config(SAMPLE_CONFIG)
    above = [
        game_id
        for game_id, game in config.games.items()
        if game.declared_rtp is not None
        and game.declared_rtp_reference is None
        and game.declared_rtp / 100 > game_odds(game).best_rtp
    ]
    assert "live-baccarat-it" in above and "mini-baccarat-it" not in above
    assert [re.search(r": games\.([a-z0-9-]+)\.declared_rtp: ", w)[1] for w in warnings] == above
    assert all("declared RTP 99.50% is above the theoretical RTP" in w for w in warnings)


def test_show_prints_the_effective_configuration_that_loads_back_the_same(tmp_path):
    result = check("--config", str(SAMPLE_CONFIG), "--show")
    assert result.exit_code == 1  # the sample's warnings
    written = tmp_path / "effective.toml"
    written.write_text(result.stdout, encoding="utf-8")
    assert load_config(written).games == load_config(SAMPLE_CONFIG).games
    # and the whole [operator]: licences, the logo (read from the same file), the accent
    assert load_config(written).operator == load_config(SAMPLE_CONFIG).operator
    assert 'statistics_reset = "00:01"' in result.stdout  # a default the sample does not write
    assert "cut_card_depth" not in result.stdout  # a fact nobody states stays unstated
    document = json.loads(check("--config", str(SAMPLE_CONFIG), "--show", "--json").stdout)
    assert document["effective"]["games"]["live-baccarat-dk"]["limits"]["per_bet"] == {
        "tie": {"min": "50.00", "max": "10000.00"}
    }


def test_the_inbox_lists_the_round_logs_that_would_be_read(tmp_path):
    inbox = tmp_path / "inbox"
    (inbox / "2026").mkdir(parents=True)
    (inbox / "2026" / "october.jsonl").write_text("", encoding="utf-8")
    (inbox / "rounds.csv").write_text("", encoding="utf-8")
    (inbox / "bets.csv").write_text("", encoding="utf-8")
    path = write(tmp_path, "[games.live-baccarat-gr]\n")
    result = check("--config", str(path), "--inbox", str(inbox), "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["inbox"] == {
        "folder": str(inbox),
        "read": [
            {"file": "2026/october.jsonl", "companion": None, "format": "jsonl", "profile": "spec"},
            {"file": "rounds.csv", "companion": "bets.csv", "format": "csv", "profile": "spec"},
        ],
        "unread": [],
    }
    human = check("--config", str(path), "--inbox", str(inbox)).stdout
    assert "2 round logs to read" in human and "  rounds.csv + bets.csv (csv)" in human


def test_an_inbox_that_is_not_a_folder_is_a_problem_of_the_document(tmp_path):
    (tmp_path / "rounds.jsonl").write_text("")
    for name, stands in [
        ("nope", "does not exist"),
        ("rounds.jsonl", "is a regular file, not a folder"),
    ]:
        result = check("--config", str(SAMPLE_CONFIG), "--inbox", str(tmp_path / name), "--json")
        assert result.exit_code == 2
        problems = json.loads(result.stdout)["problems"]
        assert problems == [f"--inbox {tmp_path / name}: the inbox {stands}"]
    human = check("--config", str(SAMPLE_CONFIG), "--inbox", str(tmp_path / "rounds.jsonl"))
    # the inbox's problem, not the configuration's
    assert human.stderr.startswith(f"baccarat-report: --inbox {tmp_path / 'rounds.jsonl'}: ")
    assert "; 0 problems, " in human.stdout and "\ninbox: 1 problem\n" in human.stdout


def test_a_configuration_that_is_a_folder_is_a_problem_of_the_document(tmp_path):
    result = check("--config", str(tmp_path), "--json")
    assert result.exit_code == 2
    document = json.loads(result.stdout)
    assert document["config"] == str(tmp_path) and document["games"] == []
    said = f"{tmp_path}: is a folder, not a configuration file; name the configuration's .toml file"
    assert document["problems"] == [said]
    human = check("--config", str(tmp_path))
    assert human.exit_code == 2
    assert said in human.stderr


def test_a_hostile_file_is_a_problem_never_a_traceback(tmp_path):
    path = tmp_path / "operator.toml"
    path.write_bytes(b"[games.live-baccarat-it]\ndecks = " + b"9" * 5000 + b"\nname = \xff\n")
    process = run_main("check", "--config", str(path))
    assert process.returncode == 2
    assert "Traceback" not in process.stderr
    assert process.stderr.startswith(f"baccarat-report: configuration: {path}:3: not UTF-8 text")


def test_check_lists_the_inbox_files_that_would_not_be_read(tmp_path):
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    (inbox / "rounds.jsonl").write_text("", encoding="utf-8")
    (inbox / "more.ndjson").write_text("{}\n", encoding="utf-8")
    (inbox / ".partial.jsonl.part").write_text("{}\n", encoding="utf-8")
    process = run_main("check", "--inbox", str(inbox), "--json", cwd=tmp_path)
    assert process.returncode == 1, process.stderr  # the sample's warnings, and the unread file
    document = json.loads(process.stdout)
    listing = document["inbox"]
    assert [source["file"] for source in listing["read"]] == ["rounds.jsonl"]
    assert [entry.split(" ")[0] for entry in listing["unread"]] == ["more.ndjson"]
    # the exit code's reason is a warning too: it was in the listing alone, "warnings" empty
    said = "in the inbox but not read: more.ndjson ("
    assert document["warnings"][-1].startswith(said)
    process = run_main("check", "--inbox", str(inbox), cwd=tmp_path)
    assert f"baccarat-report: warning: {said}" in process.stderr
    warned = process.stderr.count("baccarat-report: warning: ")  # each said once, counted
    assert f"; 0 problems, {warned} warnings" in process.stdout
    assert "inbox " in process.stdout and ": 1 round log to read, 1 file not read" in process.stdout
    assert "not read: more.ndjson" not in process.stdout


def test_the_effective_configuration_s_header_names_an_odd_path_on_one_line(tmp_path):
    """A configuration named with a line break wrote a header of two lines: no TOML."""
    import tomllib

    odd = tmp_path / "x\ny.toml"
    odd.write_text("[games.live-baccarat-dk]\n", encoding="utf-8")
    process = run_main("check", "--config", str(odd), "--show", cwd=tmp_path)
    assert process.stdout.startswith(f"# The effective configuration of {tmp_path}/x\\ny.toml:")
    tomllib.loads(process.stdout)
    summary = run_main("check", "--config", str(odd), cwd=tmp_path).stdout.splitlines()[0]
    assert summary.startswith(f"configuration {tmp_path}/x\\ny.toml: 1 game (")


# --- issue 23, point 12: everything in one run ------------------------------------------------

#: A profile whose [games] maps the export's games onto configured ones, one of them a typo.
PROFILE_WITH_GAMES = (
    MINIMAL_PROFILE.replace('name = "mine"', 'name = "mapped"').replace(
        'table_id = "table"\n', 'table_id = "table"\ngame = "game"\n'
    )
    + '\n[games]\nBAC_GR = "live-baccarat-gr"\nBAC_IT = "live-baccarat-itt"\n'
)


def test_a_clean_profile_is_said_to_be_checked(tmp_path):
    """``check --profile mine.toml`` of a profile without a problem said nothing of it: only
    the configuration's line, as if the profile had not been read."""
    profile = tmp_path / "mine.toml"
    profile.write_text(MINIMAL_PROFILE, encoding="utf-8")
    path = write(tmp_path, '[operator]\nname = "X"\n[games.live-baccarat-gr]\n')
    result = check("--config", str(path), "--profile", str(profile))
    assert result.exit_code == 0, result.output
    assert f"log profile {profile}: read and checked against the configuration" in (
        result.stdout.splitlines()
    )


def test_a_profile_that_cannot_be_read_is_not_said_to_be_checked(tmp_path):
    """``check --profile nonesuch`` printed its problem, then "read and checked"."""
    path = write(tmp_path, '[operator]\nname = "X"\n[games.live-baccarat-gr]\n')
    result = check("--config", str(path), "--profile", "nonesuch", "--json")
    assert result.exit_code == 2
    assert json.loads(result.stdout)["profiles_refused"] == ["nonesuch"]
    result = check("--config", str(path), "--profile", "nonesuch")
    assert "log profile nonesuch: refused: see its problems above" in result.output
    assert "read and checked" not in result.output


def test_a_profile_s_problems_are_said_as_the_profile_s(tmp_path):
    """They were labelled "configuration:", as if the configuration held them (ingest says
    "log profile:"); the configuration's own stay its own."""
    profile = tmp_path / "mine.toml"
    profile.write_text(MINIMAL_PROFILE.replace("[bet]", 'oops = "x"\n[bet]'), encoding="utf-8")
    path = write(tmp_path, '[operator]\nname = "X"\nnope = 1\n[games.live-baccarat-gr]\n')
    done = run_main("check", "--config", str(path), "--profile", str(profile))
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        f"baccarat-report: configuration: {path}:3: operator.nope: unknown key",
        f"baccarat-report: log profile: {profile}:12: round.oops: unknown key",
    ]


def test_a_profile_mapping_onto_a_game_the_configuration_lacks_is_a_problem(tmp_path):
    """Named by --profile and by an [[inbox.profiles]] rule: the game it names is at its line
    of the profile (every round of that game would be rejected as of an unknown game)."""
    profile = tmp_path / "mapped.toml"
    profile.write_text(PROFILE_WITH_GAMES, encoding="utf-8")
    line = PROFILE_WITH_GAMES.splitlines().index('BAC_IT = "live-baccarat-itt"') + 1
    expected = (
        f"{profile}:{line}: games.BAC_IT: 'live-baccarat-itt' is not a game of the configuration"
        " (its games: live-baccarat-gr); did you mean 'live-baccarat-gr'?"
    )
    path = write(tmp_path, '[operator]\nname = "X"\n[games.live-baccarat-gr]\n')
    result = check("--config", str(path), "--profile", str(profile), "--json")
    assert result.exit_code == 2
    assert json.loads(result.stdout)["problems"] == [expected]
    # ingest said nothing of it: every round of the game was rejected as of an unknown game,
    # and the file, known by its hash, could not be loaded again once the profile was mended.
    export = tmp_path / "export.jsonl"
    export.write_text('{"id": "R-1"}\n', encoding="utf-8")
    db = tmp_path / "store.sqlite"
    argv = (
        "ingest",
        str(export),
        "--profile",
        str(profile),
        "--config",
        str(path),
        "--db",
        str(db),
    )
    loading = run_main(*argv)
    assert (loading.returncode, loading.stderr) == (
        2,
        f"baccarat-report: log profile: {expected}\n",
    )
    assert not db.exists()
    ruled = write(
        tmp_path,
        '[operator]\nname = "X"\n[games.live-baccarat-gr]\n'
        '[[inbox.profiles]]\nfolder = "feed"\nprofile = "mapped.toml"\n',
    )
    result = check("--config", str(ruled), "--json")
    assert result.exit_code == 2
    assert json.loads(result.stdout)["problems"] == [expected]


def test_a_profile_of_two_rules_and_of_profile_has_each_problem_once(tmp_path):
    """A profile two inbox rules name, checked with ``--profile`` too, printed its problem
    three times, and the summary counted three; so did one file named in two ways
    (``mapped.toml``, ``sub/../mapped.toml``, an absolute path)."""
    profile = tmp_path / "mapped.toml"
    profile.write_text(PROFILE_WITH_GAMES, encoding="utf-8")
    (tmp_path / "sub").mkdir()
    ruled = write(
        tmp_path,
        '[operator]\nname = "X"\n[games.live-baccarat-gr]\n'
        '[[inbox.profiles]]\nfolder = "feed"\nprofile = "mapped.toml"\n'
        '[[inbox.profiles]]\nfolder = "replay"\nprofile = "mapped.toml"\n'
        '[[inbox.profiles]]\nfolder = "api"\nprofile = "sub/../mapped.toml"\n',
    )
    # named by the rules as written, and by --profile as the folder it is run from names it
    for named in (str(profile), str(tmp_path / "sub" / ".." / "mapped.toml")):
        result = check("--config", str(ruled), "--profile", named, "--profile", named, "--json")
        assert result.exit_code == 2
        problems = json.loads(result.stdout)["problems"]
        assert len(problems) == 1 and "games.BAC_IT" in problems[0], problems
        assert json.loads(result.stdout)["profiles_refused"] == [named, named]
    result = check("--config", str(ruled), "--profile", str(profile))
    assert result.stderr.count("games.BAC_IT") == 1
    # counted once, as the profile's: the configuration itself has none
    assert "1 game (live-baccarat-gr); 0 problems, 0 warnings" in result.stdout
    assert "log profiles: 1 problem" in result.stdout.splitlines()
    document = json.loads(check("--config", str(ruled), "--profile", str(profile), "--json").stdout)
    assert document["profile_problems"] == document["problems"]


def test_the_inbox_rules_profiles_are_judged_beside_the_configuration_s_problems(tmp_path):
    """An inbox rule's profile was read only once the configuration loaded: a game's limits
    problem, or another rule written without its folder, hid a rule that names no profile and
    a profile mapping onto a game the file does not list, each told a run later. They are told
    in the same run, the profile's games held to the games the file lists."""
    profile = tmp_path / "mapped.toml"
    profile.write_text(PROFILE_WITH_GAMES, encoding="utf-8")
    line = PROFILE_WITH_GAMES.splitlines().index('BAC_IT = "live-baccarat-itt"') + 1
    path = write(
        tmp_path,
        '[operator]\nname = "X"\n[games.live-baccarat-gr]\n'
        'limits = { min = "50.00", max = "10.00" }\n'
        '[[inbox.profiles]]\nfolder = "replay"\nprofile = "replay-apix"\n'
        '[[inbox.profiles]]\nfolder = "feed"\nprofile = "mapped.toml"\n'
        '[[inbox.profiles]]\nprofile = "flat-csv"\n',
    )
    result = check("--config", str(path), "--json")
    assert result.exit_code == 2
    assert json.loads(result.stdout)["problems"] == [
        f"{path}:4: games.live-baccarat-gr.limits: min 50.00 is above max 10.00",
        f"{path}:11: inbox.profiles.3: give a profile and one of folder or pattern, e.g."
        ' { folder = "provider-x", profile = "replay-api" }',
        f"{profile}:{line}: games.BAC_IT: 'live-baccarat-itt' is not a game of the"
        " configuration (its games: live-baccarat-gr); did you mean 'live-baccarat-gr'?",
        f"{path}:7: inbox.profiles.1: log profile 'replay-apix': no built-in profile of that"
        " name (built-in: spec, flat-csv, numeric-feed, replay-api); did you mean"
        " 'replay-api'? and no such file",
    ]


def test_a_profile_s_games_are_not_judged_by_a_file_whose_games_were_refused(tmp_path):
    """``games = "oops"``: the file's games could not be read, and each game a rule's profile
    maps onto was said to be none of the configuration's ("its games: none"), a problem of
    the profile that was the file's. The profile's games wait for the file's."""
    profile = tmp_path / "mapped.toml"
    profile.write_text(PROFILE_WITH_GAMES, encoding="utf-8")
    path = write(
        tmp_path,
        'games = "oops"\n[operator]\nname = "X"\n'
        '[[inbox.profiles]]\nfolder = "feed"\nprofile = "mapped.toml"\n',
    )
    result = check("--config", str(path), "--profile", str(profile), "--json")
    assert result.exit_code == 2
    (problem,) = json.loads(result.stdout)["problems"]
    assert problem.startswith(f"{path}:1: games: must be a table of games"), problem


def test_an_inbox_rule_that_reads_no_file_of_the_inbox_is_warned_of(tmp_path):
    """A rule whose folder is misspelt (``replays``), or whose every file an earlier rule takes
    (the first rule a file matches applies), read nothing and said nothing: the provider's
    files went to another reader. ``check --inbox`` warns of each, at its line (exit 1);
    without ``--inbox`` there is no inbox to judge them by."""
    inbox = tmp_path / "inbox"
    (inbox / "replay").mkdir(parents=True)
    (inbox / "replay" / "games.json").write_text("[]\n", encoding="utf-8")
    path = write(
        tmp_path,
        '[operator]\nname = "X"\n[games.live-baccarat-gr]\n'
        '[[inbox.profiles]]\nfolder = "replay"\nprofile = "replay-api"\n'
        '[[inbox.profiles]]\nfolder = "replays"\nprofile = "replay-api"\n'
        '[[inbox.profiles]]\npattern = "replay/*.json"\nprofile = "numeric-feed"\n',
    )
    result = check("--config", str(path), "--inbox", str(inbox), "--json")
    assert result.exit_code == 1, result.stdout
    assert json.loads(result.stdout)["warnings"] == [
        f"{path}:9: inbox.profiles.2: the rule of folder 'replays' (log profile replay-api)"
        f" reads no file of the inbox {inbox}: no file is in that folder",
        f"{path}:12: inbox.profiles.3: the rule of pattern 'replay/*.json' (log profile"
        f" numeric-feed) reads no file of the inbox {inbox}: an earlier rule reads every file it"
        " covers (the first rule a file matches applies)",
    ]
    assert check("--config", str(path)).exit_code == 0


def test_a_game_on_an_unknown_base_still_shows_its_other_problems(tmp_path):
    """Without a base to stand on, the keys the game sets are checked all the same, those
    joined by a check (time zone, pay table, limits) too; nothing it leaves to the base is
    judged."""
    path = write(
        tmp_path,
        "[games.my-table]\n"
        'base = "live-baccarat-gk"\n'
        'timezone = "Europe/Athen"\n'
        'pay_table = "generous"\n'
        'limits = { min = "50.00", max = "10.00" }\n'
        "availability_gap_minutes = 15\n",
    )
    result = check("--config", str(path), "--json")
    assert result.exit_code == 2
    problems = json.loads(result.stdout)["problems"]
    assert [re.match(rf"{re.escape(str(path))}:(\d+): ([^:]+):", p).groups() for p in problems] == [
        ("2", "games.my-table.base"),
        ("3", "games.my-table.timezone"),
        ("4", "games.my-table.pay_table"),
        ("5", "games.my-table.limits"),
    ]


def test_the_licences_are_checked_beside_the_games_problems(tmp_path):
    """A licence of no game's jurisdiction is shown in the same run as a game's problems,
    the jurisdiction of a game with problems counting as the game's."""
    path = write(
        tmp_path,
        '[operator]\nname = "X"\nlicences = { IT = "ADM-1", GR = "HGC-1", FR = "ANJ-1" }\n'
        "[games.live-baccarat-it]\ndecks = 9\n"
        "[games.live-baccarat-gr]\n",
    )
    result = check("--config", str(path), "--json")
    assert result.exit_code == 2
    assert json.loads(result.stdout)["problems"] == [
        f"{path}:3: operator.licences.FR: no configured game is in FR (the games'"
        " jurisdictions: GR, IT)",
        f"{path}:5: games.live-baccarat-it.decks: 9 is not 1 to 8",
    ]


def test_a_game_of_a_market_without_a_page_format_is_told_what_its_pages_publish(tmp_path):
    """Spain's regulator has no page format written down here: check says that the game's
    pages publish the rule sheet's RTP table and no regulator block (and it is no warning)."""
    path = write(
        tmp_path,
        '[games.live-baccarat-es]\nbase = "live-baccarat-gr"\njurisdiction = "ES"\n'
        'timezone = "Europe/Madrid"\nlanguages = ["es"]\n\n'
        "[games.live-baccarat-it]\n",
    )
    document = json.loads(check("--config", str(path), "--json").stdout)
    spanish = [note for note in document["notes"] if note.startswith("live-baccarat-es (ES)")]
    assert spanish == [
        "live-baccarat-es (ES): no page format of Dirección General de Ordenación del Juego is"
        " written down here, so its pages carry no regulator block: the rule sheet's table of"
        " every bet's RTP is what they publish"
    ]
    assert not [note for note in document["notes"] if note.startswith("live-baccarat-it (")]
    assert not any("live-baccarat-es" in hint for hint in document["hints"])
    assert not any("live-baccarat-es" in warning for warning in document["warnings"])


def test_bets_a_page_would_print_under_one_name_are_problems_at_their_words(tmp_path):
    """The operator's words for the hands go into every name: "Hand" for both hands listed
    two bets named Hand (one at 1:1, one at 0.95:1); a hand may not take the other's name,
    nor an own bet a catalogue bet's."""
    game = "[operator]\nname = 'X'\n[games.live-baccarat-dk]\n"
    path = write(tmp_path, game + "words = { en = { player = 'Hand', banker = 'Hand' } }\n")
    result = check("--config", str(path), "--json")
    assert result.exit_code == 2
    where = f"{path}:4: games.live-baccarat-dk.words.en: on the en pages of live-baccarat-dk the"
    fix = "give them names of their own"
    assert json.loads(result.stdout)["problems"] == [
        f"{where} player and banker bets would be named 'Hand': {fix}",
        f"{where} player_pair and banker_pair bets would be named 'Hand Pair': {fix}",
        f"{where} player_bonus and banker_bonus bets would be named 'Hand Bonus': {fix}",
    ]
    path = write(tmp_path, game + "words = { da = { player = 'banker' } }\n")
    problems = json.loads(check("--config", str(path), "--json").stdout)["problems"]
    assert problems == [  # alone: the bets' names it clashes follow from it
        f"{path}:4: games.live-baccarat-dk.words.da: on the da pages of live-baccarat-dk the"
        " player would be named 'banker', the other hand's name: give it a name of its own"
    ]
    path = write(tmp_path, game + "words = { en = { player = 'Punter', banker = 'House' } }\n")
    assert check("--config", str(path)).exit_code == 0


def test_a_configuration_of_thousands_of_problems_shows_the_first_fifty_and_counts_the_rest(
    tmp_path,
):
    """A file of 5,000 unknown keys was 5,000 lines on stderr, of check and of every command
    that loads it; --json still lists every one."""
    config = tmp_path / "many.toml"
    keys = "".join(f"unknown_{n} = 1\n" for n in range(5000))
    config.write_text(f'[operator]\nname = "X"\n[games.live-baccarat-it]\n{keys}', encoding="utf-8")
    for argv in (("check",), ("verify", "--db", str(tmp_path / "store.sqlite"))):
        done = run_main(*argv, "--config", str(config))
        lines = done.stderr.splitlines()
        assert done.returncode == 2 and len(lines) == 51, done.stderr[-300:]
        assert lines[-1] == (
            "baccarat-report: and 4,950 more problems, not shown (check --json lists every one)"
        )
    listed = run_main("check", "--config", str(config), "--json")
    assert len(json.loads(listed.stdout)["problems"]) == 5000


def test_one_problem_past_those_shown_is_counted_in_the_singular():
    """51 problems: the line said "and 1 more problems"."""
    from reporting.cli.common import PROBLEMS_SHOWN, problems_shown

    shown, rest = problems_shown([f"problem {n}" for n in range(PROBLEMS_SHOWN + 1)])
    assert len(shown) == PROBLEMS_SHOWN
    assert rest == "and 1 more problem, not shown (check --json lists every one)"


def test_a_log_profile_of_the_kernels_is_refused_without_waiting():
    """`/proc/kmsg` calls itself a regular file and waits for the kernel's next line: named
    as a log profile, it held `check` (and ingest) for ever."""
    done = run_main("check", "--profile", "/proc/kmsg")  # a child: stopped if it waits
    assert done.returncode == 2
    assert (
        "baccarat-report: log profile: /proc/kmsg: a file of the kernel's (/proc, /sys), not read"
        in done.stderr.splitlines()
    ), done.stderr


def test_a_profile_that_names_no_profile_is_said_once_as_the_profile_s():
    """`check --profile nosuch` said "log profile: log profile 'nosuch': ..."."""
    result = check("--profile", "nosuch")
    assert result.exit_code == 2
    assert result.stderr.startswith(
        "baccarat-report: log profile 'nosuch': no built-in profile of that name"
    ), result.stderr
    assert "log profiles: 1 problem" in result.stdout.splitlines()


@pytest.mark.parametrize(
    "command",
    [
        ["odds", "--game", "live-baccarat-it"],
        ["verify", "--db", "x.sqlite"],
        ["rules", "--out", "out", "--db", "x.sqlite"],
    ],
)
def test_every_command_says_what_stands_at_a_configuration_that_is_no_file(tmp_path, command):
    """Click refused ``--config FOLDER`` of every command with its own line ("file ... is a
    directory"), and ``BACCARAT_REPORT_CONFIG`` set to a folder too: the loader's line says
    what stands there, as ``check`` does."""
    import os

    from children import run_warm

    folder = tmp_path / "configs"
    folder.mkdir()
    said = f"baccarat-report: configuration: {folder}: is a folder, not a configuration file"
    given = run_main(*command, "--config", str(folder), cwd=tmp_path)
    environment = os.environ | {"BACCARAT_REPORT_CONFIG": str(folder)}
    by_variable = run_warm(*command, cwd=tmp_path, env=environment)
    for result in (given, by_variable):
        assert result.returncode == 2 and said in result.stderr, result.stderr


def test_monthly_says_what_stands_at_an_inbox_that_is_no_folder(tmp_path):
    (tmp_path / "rounds.jsonl").write_text("")
    result = run_main("monthly", "--inbox", "rounds.jsonl", "--out", "o", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr == (
        "baccarat-report: rounds.jsonl: the inbox is a regular file, not a folder\n"
    )
