"""What a person at a terminal sees: tables that fold rather than ellipsize at 80 columns,
progress bars on a terminal only, and the options of the root (-h, -V, --log-file, journald
priorities, shell completion)."""

from __future__ import annotations

import fcntl
import json
import os
import re
import struct
import subprocess
import sys
import termios
from collections import Counter
from fractions import Fraction
from io import StringIO
from pathlib import Path

import pytest
from children import WarmChild, warm_run
from helpers import config_without_gap_threshold, rows, run_main
from rich.console import Console
from rich.table import Table
from typer.testing import CliRunner

from reporting import __version__
from reporting.cli import app
from reporting.cli.common import FoldingTable, progress_bars
from reporting.config.languages import SUPPORTED_LANGUAGES
from reporting.engine.money import round_fraction

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")


def on_terminal(*args: str, cwd: Path, columns: int = 80, stderr_too: bool = False):
    """``python -m reporting ARGS`` with stdout (and, if asked, stderr) on a pseudo-terminal
    ``columns`` wide; the terminal's text without escape codes, and the piped stderr."""
    main, child = os.openpty()
    fcntl.ioctl(child, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    env = {**os.environ, "COLUMNS": str(columns), "TERM": "xterm"}
    env.pop("NO_COLOR", None)
    process = WarmChild(
        [sys.executable, "-m", "reporting", *args],
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        stdout=child,
        stderr=child if stderr_too else subprocess.PIPE,
        env=env,
    )
    os.close(child)
    chunks = []
    while True:
        try:
            chunk = os.read(main, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(main)
    stderr = process.stderr.read().decode() if process.stderr else ""
    if process.stderr:
        process.stderr.close()
    process.wait(timeout=60)
    text = ANSI.sub("", b"".join(chunks).decode("utf-8", "replace")).replace("\r", "")
    return process.returncode, text, stderr


# --- tables at 80 columns ------------------------------------------------------------------


def test_odds_at_80_columns_folds_and_shows_every_figure_whole(tmp_path):
    code, text, stderr = on_terminal("odds", "--game", "live-baccarat-it", cwd=tmp_path)
    assert code == 0, stderr
    assert "…" not in text
    assert max(len(line) for line in text.splitlines()) <= 80
    document = json.loads(run_main("odds", "--game", "live-baccarat-it", "--json").stdout)
    for bet, figures in document["bets"].items():
        rtp = f"{round_fraction(Fraction(figures['rtp_exact']) * 100, 4)}%"
        assert rtp in text, (bet, rtp)


def digits(text: str) -> Counter:
    return Counter(character for character in text if character.isdigit())


def outcome_rows() -> list[tuple[str, ...]]:
    """Rows shaped like verify's Banker / Player / Tie table, with long ids and figures."""
    return [
        (
            f"live-baccarat-it-{n}",
            f"LB-IT-{n:02d}",
            "418,426",
            "191,882 (191,881)",
            "186,712 (186,723)",
            "39,832 (39,822)",
            "12.34",
            "0.987",
            "outside 99.9%" if n == 2 else "",
        )
        for n in range(1, 4)
    ]


def render(table, width: int) -> str:
    console = Console(file=StringIO(), width=width, markup=False, emoji=False, color_system=None)
    console.print(table)
    return console.file.getvalue()


def fill(table, rows) -> None:
    for header in ("Game", "Table", "Rounds", "Banker", "Player", "Tie", "Chi-square", "p", ""):
        options = {"identifier": True} if isinstance(table, FoldingTable) else {}
        justify = "left" if header in ("Game", "Table", "") else "right"
        table.add_column(header, justify=justify, **options if header in ("Game", "Table") else {})
    for row in rows:
        table.add_row(*row)


@pytest.mark.parametrize("width", [80, 60, 40])
def test_a_folding_table_never_drops_a_character(width):
    """Every digit of every cell is still printed (folding moves characters, cropping or an
    ellipsis loses them), and no line is wider than the terminal."""
    rows = outcome_rows()
    table = FoldingTable(title="Banker / Player / Tie against the exact odds")
    fill(table, rows)
    text = render(table, width)
    assert "…" not in text
    assert max(len(line) for line in text.splitlines()) <= width
    assert digits(text) == digits("".join("".join(row) for row in rows) + "Banker / Player")


def words_of(text: str) -> set[str]:
    """Every word a table shows, its borders taken away."""
    return {word for line in text.splitlines() for word in re.split(r"[\s│┃]+", line)}


@pytest.mark.parametrize("width", [100, 80, 60])
def test_ids_stay_whole_and_other_words_too_while_they_fit(width):
    """Nine columns do not fit on one line each: the figures wrap between their words, and no
    id, figure or header word is split while the words fit side by side (at 100 columns);
    narrower, the figures fold before a game or table id does."""
    table = FoldingTable()
    rows = outcome_rows()
    fill(table, rows)
    text = render(table, width)
    assert max(len(line) for line in text.splitlines()) <= width
    words = words_of(text)
    for row in rows:
        assert {row[0], row[1]} <= words, row
        if width == 100:
            assert set(" ".join(row).split()) <= words, row
    if width == 100:
        assert {"Banker", "Chi-square", "Rounds", "outside", "99.9%"} <= words


def test_a_title_wider_than_its_table_is_one_line_as_wide_as_the_terminal():
    """verify's headline over its two-column table of finding counts was wrapped at the
    table's width: "Verify, month 2026-10: 2" over "rounds, 2 bets". A title is now a line of
    its own, wrapped only at the terminal's width, with no padding after it."""
    title = "Verify, month 2026-10: 191,882 rounds, 1,193,004 bets"
    table = FoldingTable(title=title, title_justify="left")
    table.add_column("Finding", identifier=True)
    table.add_column("Count", justify="right")
    table.add_row("payout_mismatch", "0")
    lines = render(table, 80).splitlines()
    assert lines[0] == title
    assert lines[1].startswith("┏") and len(lines[1]) < len(title)
    narrow = render(table, 30).splitlines()
    assert " ".join(narrow[:2]) == title and max(map(len, narrow)) <= 30


def test_a_column_with_nothing_in_it_is_not_drawn():
    """The flag column of a table where nothing is flagged: no empty last column."""
    table = FoldingTable()
    fill(table, [row[:-1] + ("",) for row in outcome_rows()])
    lines = render(table, 120).splitlines()
    assert all(line.count("│") == 9 for line in lines if line.startswith("│")), lines
    flagged = FoldingTable()
    fill(flagged, outcome_rows())
    assert "│ outside 99.9% │" in render(flagged, 200)


def test_verify_at_80_columns_keeps_ids_whole_and_money_grouped_in_its_currency(
    tmp_path, operator_config
):
    """The sample month on an 80-column terminal: every game, table and bet id whole, each
    stake and payout with thousands separators under a header naming the game's currency,
    and no column left empty."""
    arguments = ("--month", "2026-10", "--rounds-per-day", "5", "--out", "m.jsonl")
    assert run_main("sample", *arguments, cwd=tmp_path).returncode == 0
    assert run_main("ingest", "--db", "s.sqlite", "m.jsonl", cwd=tmp_path).returncode in (0, 1)
    code, text, stderr = on_terminal(
        "verify", "--db", "s.sqlite", "--month", "2026-10", cwd=tmp_path
    )
    assert code in (0, 1), stderr
    assert "…" not in text
    assert max(len(line) for line in text.splitlines()) <= 80
    words = words_of(text)
    document = json.loads(
        run_main("verify", "--db", "s.sqlite", "--month", "2026-10", "--json", cwd=tmp_path).stdout
    )
    for test in document["statistics"]["outcomes"]:
        assert {test["game"], test["table"]} <= words, test
    for check in document["statistics"]["rtp"]:
        assert check["bet_type"] in words, check
        for amount in (check["stakes"], check["payouts"]):
            units, cents = amount.split(".")
            assert f"{int(units):,}.{cents}" in words, amount
    for game in {check["game"] for check in document["statistics"]["rtp"]}:
        currency = operator_config.games[game].currency
        table = text[text.index(f"Actual RTP of {game} ") :].split("└", 1)[0]
        assert f"({currency})" in table, game
    # disclose: the game's money the same way, its currency after each amount
    arguments = (
        "disclose",
        "--game",
        "live-baccarat-dk",
        "--as-of",
        "2026-11-05",
        "--db",
        "s.sqlite",
    )
    page = json.loads(run_main(*arguments, "--json", cwd=tmp_path).stdout)
    shown = run_main(*arguments, cwd=tmp_path).stdout
    for key in ("stakes", "payouts"):
        units, cents = page[key].split(".")
        assert re.search(rf"│ {key.capitalize()} +│ {int(units):,}\.{cents} DKK +│", shown), shown
    # no empty column: the last column of every table shows something
    for table in re.findall(r"^┏.*?^└[^\n]*", text, flags=re.MULTILINE | re.DOTALL):
        last = [line.rsplit("│", 2)[1] for line in table.splitlines() if line.startswith("│")]
        assert any(cell.strip() for cell in last), table


def test_a_plain_rich_table_loses_figures_at_the_same_width():
    """The check above is able to fail: rich's own table ellipsizes these rows at 80."""
    table = Table()
    fill(table, outcome_rows())
    text = render(table, 80)
    assert "…" in text


# --- progress bars --------------------------------------------------------------------------


def test_sample_shows_a_progress_bar_on_a_terminal_only(tmp_path, operator_config):
    arguments = ("sample", "--month", "2026-10", "--rounds-per-day", "5")
    code, text, _ = on_terminal(*arguments, "--out", "a.jsonl", cwd=tmp_path, stderr_too=True)
    assert code == 0
    assert "sample 2026-10" in text and "%" in text
    piped = run_main(*arguments, "--out", "b.jsonl", cwd=tmp_path)
    assert piped.returncode == 0 and piped.stderr == ""
    code, text, _ = on_terminal(
        *arguments, "--out", "c.jsonl", "--json", cwd=tmp_path, stderr_too=True
    )
    assert code == 0 and "sample 2026-10" not in text
    # 5 rounds a day of October at one table of each game of the sample configuration
    assert json.loads(text)["rounds"] == 5 * 31 * len(operator_config.games)
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()


def test_progress_bars_off_the_terminal_cost_nothing_and_show_nothing(capsys):
    with progress_bars() as bars:
        advance = bars.task("[/bold] a file", total=10)
        advance(5)
        advance(10, 10)
    assert capsys.readouterr() == ("", "")


# --- the root's options ---------------------------------------------------------------------

runner = CliRunner()


@pytest.mark.parametrize("option", ["-h", "--help"])
def test_short_and_long_help_on_the_root_and_every_command(option):
    result = runner.invoke(app, [option])
    assert result.exit_code == 0 and "Usage" in result.output
    for command in app.registered_commands:
        result = runner.invoke(app, [command.name, option])
        assert result.exit_code == 0 and "Usage" in result.output, command.name


@pytest.mark.parametrize("option", ["-V", "--version"])
def test_short_and_long_version(option):
    result = runner.invoke(app, [option])
    assert result.output == f"baccarat-report {__version__}\n"


def test_help_states_the_real_defaults():
    ingest = runner.invoke(app, ["ingest", "-h"]).output
    assert "baccarat-report.sqlite" in ingest
    assert "sample_data/operator.toml" in ingest and "built-in" in ingest
    assert "--log-file" in runner.invoke(app, ["-h"]).output


def test_shell_completion_of_the_installed_command():
    """typer's completion: the bash script calls the program back for the words."""
    program = Path(sys.executable).with_name("baccarat-report")
    # typer names the shell it runs in (the process tree): run it from bash, as a user would,
    # whatever started the tests. Not as bash's last word: bash would exec it in its own place,
    # and typer then finds the shell above (sh, when make test ran from a script of sh).
    script = subprocess.run(
        ["bash", "-c", f"'{program}' --show-completion; exit"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert script.returncode == 0, script.stderr
    assert "_BACCARAT_REPORT_COMPLETE=complete_bash" in script.stdout
    environment = {"_BACCARAT_REPORT_COMPLETE": "complete_bash", "COMP_CWORD": "1"}
    for typed, expected in (("mon", "monthly"), ("--ver", "--version")):
        words = subprocess.run(
            [program],
            capture_output=True,
            text=True,
            timeout=60,
            env={**os.environ, **environment, "COMP_WORDS": f"baccarat-report {typed}"},
        )
        assert expected in words.stdout.split(), words


def completions(*words: str, **environment: str) -> list[str]:
    """What the installed command offers for the last of ``words`` (bash's protocol: the
    words typed, and the index of the one being completed)."""
    program = Path(sys.executable).with_name("baccarat-report")
    env = {key: value for key, value in os.environ.items() if not key.startswith("BACCARAT_")}
    protocol = {
        "_BACCARAT_REPORT_COMPLETE": "complete_bash",
        "COMP_WORDS": " ".join(("baccarat-report", *words)),
        "COMP_CWORD": str(len(words)),
    }
    result = subprocess.run(
        [program],
        capture_output=True,
        text=True,
        timeout=60,
        env={**env, **protocol, **environment},
    )
    assert result.returncode == 0 and result.stderr == "", result
    return result.stdout.split()


def test_shell_completion_offers_option_values(tmp_path, operator_config):
    """Issue 23: not only the options' names: the games of the configuration the command would
    read (--config typed before, else BACCARAT_REPORT_CONFIG, else the default), the
    languages and formats (each item of a comma-separated list), the log profiles and the
    perfect pair variants."""
    games = list(operator_config.games)
    assert completions("odds", "--game", "") == games
    assert completions("disclose", "--game", "live-") == [g for g in games if g.startswith("live-")]
    assert completions("rules", "--game", "") == [*games, "all"]
    assert completions("sample", "--game", "mini") == ["mini-baccarat-it"]
    own = tmp_path / "own.toml"
    own.write_text('[games.greece-evening]\nbase = "live-baccarat-gr"\n', encoding="utf-8")
    assert completions("odds", "--config", str(own), "--game", "") == ["greece-evening"]
    assert completions("odds", "--game", "", BACCARAT_REPORT_CONFIG=str(own)) == ["greece-evening"]
    assert completions("odds", "--config", str(tmp_path / "missing.toml"), "--game", "") == []
    assert completions("rules", "--lang", "") == [*SUPPORTED_LANGUAGES, "all"]
    others = [f"it,{code}" for code in SUPPORTED_LANGUAGES if code != "it"]
    assert completions("rules", "--lang", "it,") == others
    assert completions("rules", "--lang", "it,d") == ["it,da", "it,de"]
    assert completions("rules", "--format", "pdf,x") == ["pdf,xlsx"]
    assert completions("sample", "--format", "replay") == ["replay-api", "replay-api-jsonl"]
    assert completions("ingest", "--profile", "") == [
        "spec",
        "flat-csv",
        "numeric-feed",
        "replay-api",
    ]
    assert completions("check", "--profile", "n") == ["numeric-feed"]
    assert completions("odds", "--perfect-pair", "") == ["A", "B"]


# --- logging --------------------------------------------------------------------------------


def test_a_warning_under_systemd_carries_its_priority(tmp_path):
    """stderr is the journal when JOURNAL_STREAM names its device and inode: each line then
    starts with ``<4>`` (warning), which journald turns into the record's priority."""
    stderr_file = tmp_path / "stderr"
    with stderr_file.open("w") as handle:
        status = os.fstat(handle.fileno())
        env = {**os.environ, "JOURNAL_STREAM": f"{status.st_dev}:{status.st_ino}"}
        args = ["disclose", "--game", "live-baccarat-gr", "--as-of", "2026-12-05"]
        warm_run([sys.executable, "-m", "reporting", "ingest", "--db", "s.sqlite", "."],
                       cwd=tmp_path, capture_output=True)  # fmt: skip
        process = warm_run(
            [sys.executable, "-m", "reporting", *args, "--db", "s.sqlite"],
            cwd=tmp_path,
            stdout=subprocess.PIPE,
            stderr=handle,
            env=env,
        )
    assert process.returncode == 1  # a warning of the figures: done, something to look at
    assert stderr_file.read_text() == (
        "<4>baccarat-report: warning: live-baccarat-gr: no play in 2026-11: the page shows 0.00%\n"
    )
    # the same run with stderr elsewhere: no priority, the words as before
    plain = run_main(*args, "--db", "s.sqlite", cwd=tmp_path)
    # each warning names its game (issue 23: disclose's did not)
    assert plain.stderr == (
        "baccarat-report: warning: live-baccarat-gr: no play in 2026-11: the page shows 0.00%\n"
    )
    assert "0.00%" in plain.stdout and "warning" not in plain.stdout


def test_the_log_file_gets_the_warnings_with_a_timestamp_and_stdout_stays_the_result(tmp_path):
    warm_run([sys.executable, "-m", "reporting", "ingest", "--db", "s.sqlite", "."],
                   cwd=tmp_path, capture_output=True)  # fmt: skip
    args = ["disclose", "--game", "live-baccarat-gr", "--as-of", "2026-12-05", "--db", "s.sqlite"]
    plain = run_main(*args, cwd=tmp_path)
    for _ in range(2):  # the second run appends
        logged = run_main("--log-file", "logs/run.log", *args, cwd=tmp_path)
        assert (logged.stdout, logged.stderr) == (plain.stdout, plain.stderr)
    plain_json = run_main(*args, "--json", cwd=tmp_path)
    logged_json = run_main("--log-file", "logs/run.log", *args, "--json", cwd=tmp_path)
    # --json: the warning is in the document, and logged as without it (the log file of a run
    # with --json stayed empty)
    assert (logged_json.stdout, logged_json.stderr) == (plain_json.stdout, plain.stderr)
    assert json.loads(plain_json.stdout)["warnings"] == ["no play in 2026-11: the page shows 0.00%"]
    lines = (tmp_path / "logs" / "run.log").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 3
    for line in lines:
        assert re.fullmatch(
            r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d{4} WARNING baccarat-report: live-baccarat-gr: no play in"
            r" 2026-11: the page shows 0.00%",
            line,
        ), line


# --- conventions: environment variables, -q / -v ---------------------------------------------

ENVIRONMENT_OF = {"--db": "BACCARAT_REPORT_DB", "--config": "BACCARAT_REPORT_CONFIG"}


def run_with(*args: str, cwd: Path, **environment: str) -> subprocess.CompletedProcess:
    """``python -m reporting ARGS`` with these environment variables (and no others of ours)."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("BACCARAT_")}
    return warm_run(
        [sys.executable, "-m", "reporting", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**env, **environment},
        timeout=120,
    )


def test_every_db_and_config_option_reads_its_environment_variable_and_says_so():
    """Issue 23: cron lines and systemd units set BACCARAT_REPORT_DB and BACCARAT_REPORT_CONFIG
    once for every command; each command's help names them, and the README too."""
    import typer

    commands = typer.main.get_command(app).commands
    seen = Counter()
    for name, command in commands.items():
        for param in command.params:
            for option in set(param.opts) & set(ENVIRONMENT_OF):
                assert param.envvar == ENVIRONMENT_OF[option], (name, option)
                seen[option] += 1
                help_text = runner.invoke(app, [name, "--help"]).output
                assert ENVIRONMENT_OF[option] in " ".join(help_text.split()), (name, option)
    assert seen["--db"] >= 7 and seen["--config"] >= 8
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    assert all(variable in readme for variable in ENVIRONMENT_OF.values())


def test_the_environment_stands_for_db_and_config_and_the_command_line_wins(tmp_path):
    config = tmp_path / "only-greece.toml"
    config.write_text('[games.live-baccarat-gr]\nlanguages = ["en"]\n', encoding="utf-8")
    environment = {"BACCARAT_REPORT_DB": "env.sqlite", "BACCARAT_REPORT_CONFIG": str(config)}
    run_with("ingest", ".", cwd=tmp_path, **environment)
    assert (tmp_path / "env.sqlite").is_file() and not (
        tmp_path / "baccarat-report.sqlite"
    ).exists()
    arguments = ("disclose", "--game", "live-baccarat-it", "--as-of", "2026-11-05", "--json")
    refused = run_with(*arguments, cwd=tmp_path, **environment)
    assert refused.returncode == 2 and "live-baccarat-it" in refused.stderr  # not in the file
    greece = run_with("disclose", "--game", "live-baccarat-gr", "--as-of", "2026-11-05",
                      "--json", cwd=tmp_path, **environment)  # fmt: skip
    assert json.loads(greece.stdout)["game"] == "live-baccarat-gr"
    # the command line wins over the environment
    given = run_with(*arguments, "--config", str(config.with_name("x.toml")), cwd=tmp_path,
                     **environment)  # fmt: skip
    assert given.returncode == 2 and "x.toml" in given.stderr
    missing = run_with(*arguments, "--db", "other.sqlite", cwd=tmp_path,
                       BACCARAT_REPORT_DB="env.sqlite")  # fmt: skip
    assert missing.returncode == 2 and "other.sqlite" in missing.stderr


def test_quiet_and_verbose_set_what_stderr_shows(tmp_path):
    """-q keeps the warnings and drops the lines that only say what is done; -v adds where
    --db and --config came from; the log file keeps what it always had."""
    run_with("ingest", "--db", "s.sqlite", ".", cwd=tmp_path)
    arguments = ("disclose", "--game", "live-baccarat-gr", "--as-of", "2026-12-05")
    plain = run_with(*arguments, "--db", "s.sqlite", cwd=tmp_path)
    warning = (
        "baccarat-report: warning: live-baccarat-gr: no play in 2026-11: the page shows 0.00%\n"
    )
    assert plain.stderr == warning
    assert run_with("-q", *arguments, "--db", "s.sqlite", cwd=tmp_path).stderr == warning
    assert run_with("-qq", *arguments, "--db", "s.sqlite", cwd=tmp_path).stderr == ""
    loud = run_with("-v", *arguments, cwd=tmp_path, BACCARAT_REPORT_DB="s.sqlite")
    assert loud.stderr.splitlines() == [
        "baccarat-report: --db s.sqlite (from BACCARAT_REPORT_DB)",
        f"baccarat-report: --config {Path(__file__).resolve().parents[2] / 'sample_data' / 'operator.toml'} (the default)",
        warning.rstrip("\n"),
    ]
    logged = run_with("-qq", "--log-file", "run.log", *arguments, "--db", "s.sqlite", cwd=tmp_path)
    assert logged.stderr == ""
    logged_line = warning.replace(" warning:", "", 1)  # the file names the level its own way
    assert (tmp_path / "run.log").read_text(encoding="utf-8").endswith(f" WARNING {logged_line}")


def test_quiet_drops_the_monthly_job_s_lines_of_what_it_did(tmp_path):
    (tmp_path / "inbox").mkdir()
    config = tmp_path / "none.toml"
    config.write_text("[games.live-baccarat-gr]\nlanguages = []\n", encoding="utf-8")
    arguments = ("monthly", "--inbox", "inbox", "--as-of", "2026-11-05")
    environment = {"BACCARAT_REPORT_CONFIG": str(config), "BACCARAT_REPORT_DB": "m.sqlite"}
    plain = run_with(*arguments, "--out", "out", cwd=tmp_path, **environment)
    assert "baccarat-report monthly: verify 2026-10:" in plain.stderr, plain.stderr
    quiet = run_with("-q", *arguments, "--out", "out2", cwd=tmp_path, **environment)
    assert quiet.returncode == plain.returncode
    assert [line for line in quiet.stderr.splitlines() if "warning" not in line] == []
    assert quiet.stdout.replace("out2", "out") == plain.stdout


def test_ids_from_the_logs_reach_the_terminal_escaped(tmp_path):
    """A table, round or bet id holding an escape sequence (a clear screen, a window title)
    or a bidi override was printed as it came, and drove the terminal: it is shown escaped."""
    from helpers import bet_record, round_record, store_file

    round_id, table = "R\x1b]0;owned\x07-1", "LB\x1b[2J\u202e01"
    rounds = [
        round_record(
            round_id, bet_record(round_id, "B\x1b[31m-1", bet_type="player"), table_id=table
        )
    ]  # the Player wins and its bet was paid nothing: a payout_mismatch naming the round
    store_file(tmp_path / "s.sqlite", rounds)
    shown = run_main("verify", "--db", "s.sqlite", "--month", "2026-10", cwd=tmp_path)
    assert shown.returncode == 1, shown.stderr
    assert "\x1b" not in shown.stdout and "\u202e" not in shown.stdout
    assert "LB\\x1b[2J\\u202e01" in shown.stdout  # the outcome table's row
    assert "payout_mismatch: bet B\\x1b[31m-1 (player" in shown.stdout


def test_the_terminal_shows_fifty_tables_outside_their_region_first(tmp_path):
    """A month of 75,000 table ids printed 75,000 rows of outcome tests (and held them in
    memory first): the terminal shows the tables outside their 99.9% region first, fifty in
    all, and says how many more --json and the workbook list."""
    from helpers import bet_record, round_record, store_file

    from reporting.cli.verify import SHOWN_TABLES

    rounds = [
        round_record(f"R{n}-1", bet_record(f"R{n}-1", f"B{n}"), table_id=f"T{n:03d}")
        for n in range(SHOWN_TABLES + 9)
    ]
    # the last table's Player won 40 rounds of 40: outside its region, shown
    rounds += [round_record(f"X-{n}", table_id="T999", shoe_id=f"S{n}") for n in range(1, 41)]
    store_file(tmp_path / "s.sqlite", rounds)
    arguments = ("verify", "--db", "s.sqlite", "--month", "2026-10")
    shown = run_main(*arguments, cwd=tmp_path).stdout
    # the tables of the outcome table's rows (the month's warnings name shoes at tables too)
    tables = re.findall(r"^│.*?\b(T\d{3})\b", shown, re.MULTILINE)
    assert len(tables) == SHOWN_TABLES == 50
    assert tables[0] == "T999" and "outside 99.9%" in shown
    assert "... 10 more tables: all are in the audit workbook's Outcome tests sheet and in" in shown
    listed = json.loads(run_main(*arguments, "--json", cwd=tmp_path).stdout)["statistics"][
        "outcomes"
    ]
    assert len(listed) == SHOWN_TABLES + 10


@pytest.mark.parametrize(
    "encoding",
    [{"PYTHONIOENCODING": "ascii"}, {"LC_ALL": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"}],
    ids=["ascii", "c-locale-without-utf8-mode"],
)
def test_a_stdout_that_cannot_write_every_character_gets_the_result(tmp_path, make_round, encoding):
    """Under a legacy locale or PYTHONIOENCODING=ascii, the result's first ± (the RTP table's
    margin) stopped ingest and verify with UnicodeEncodeError, after their work: a traceback
    and exit 2 for a load that was kept. The text writes ? for what it cannot; --json escapes
    it, every character kept."""
    log = tmp_path / "été.jsonl"
    log.write_text(json.dumps(make_round("R-1")) + "\n", encoding="utf-8")
    inherited = ("LC_", "LANG", "PYTHONIOENCODING", "PYTHONUTF8", "PYTHONCOERCECLOCALE")
    env = {key: value for key, value in os.environ.items() if not key.startswith(inherited)}
    env |= encoding
    config = config_without_gap_threshold(tmp_path)  # a round: its table idle all month
    common = ["--db", str(tmp_path / "store.sqlite"), "--config", str(config)]
    outputs = []
    for argv, code in (
        (["ingest", str(log)], 0),
        (["verify", "--month", "2026-10"], 0),
        (["ingest", str(log), "--json"], 0),
    ):
        done = subprocess.run(
            [sys.executable, "-m", "reporting", *argv, *common],
            capture_output=True, env=env, timeout=120,
        )  # fmt: skip
        assert done.returncode == code, done.stderr.decode()
        assert b"Traceback" not in done.stderr
        outputs.append(done.stdout.decode("ascii"))  # nothing but what the encoding writes
    assert "?" in outputs[1] and "\u00b1" not in outputs[1]  # the text's ±, written as ?
    assert "été.jsonl" in json.dumps(json.loads(done.stdout), ensure_ascii=False)
    # the file's name stored as its bytes say, not as the locale decoded them
    assert rows(tmp_path / "store.sqlite", "SELECT file_name FROM ingest_log") == [(str(log),)]
