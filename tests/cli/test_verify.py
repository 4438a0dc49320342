"""``verify``'s output (reporting.cli.verify) for what it could not judge: a bet of a type the
tool does not settle is an ``unverified_bet`` (a finding: exit 1), and the checks a missing
field kept from running are said per game, in the text and in ``--json`` (a warning: by
itself, exit 0).

The stores hold Round records written directly (tests/helpers.py ``store_records``), as a
provider's export would load them: no shoe ids, no placement times, the provider's own bet
types.
"""

from __future__ import annotations

import json
import os
import re
import stat

import pytest
from helpers import (
    bet_record,
    config_without_gap_threshold,
    round_record,
    run_main,
    store_records,
)
from typer.testing import CliRunner

from reporting.cli import app
from reporting.records import FINDING_KINDS
from reporting.store.schema import connect

runner = CliRunner()
NO_SHOE = {"shoe_id": None, "hand_no": None}


@pytest.fixture
def export_db(tmp_path):
    """Italy, October: three rounds without shoe id, their bets without placement time, one
    of them a player tiger bet; every round is complete in Greece."""
    db = tmp_path / "store.sqlite"
    connection = connect(db)
    store_records(
        connection,
        [
            round_record(
                f"R-{hand}",
                bet_record(f"R-{hand}", f"B-{hand}", placed_at=None, source_line=hand),
                source_line=hand,
                **NO_SHOE,
            )
            for hand in (1, 2)
        ]
        + [
            round_record(
                "R-3",
                bet_record("R-3", "B-3", placed_at=None, source_line=3),
                bet_record(
                    "R-3",
                    "B-7",
                    bet_type="BC_PLAYER_TIGER",
                    stake_cents=500,
                    payout_cents=6000,
                    placed_at=None,
                    source_line=3,
                ),
                source_line=3,
                **NO_SHOE,
            ),
            round_record("G-1", bet_record("G-1", "B-9"), game_id="live-baccarat-gr"),
        ],
        file_name="export.json",
    )
    connection.close()
    return db


NOT_CHECKED = (
    "live-baccarat-it: not checked: late_bet on 4 of 4 bets (no placed_at); shoe_card_count"
    " on 3 of 3 rounds (no shoe_id)"
)


def invoke(db, config, *options: str):
    return runner.invoke(app, ["verify", "--db", str(db), "--config", str(config), *options])


def test_the_text_says_per_game_what_was_not_checked_and_lists_the_unverified_bet(
    export_db, sample_config_path
):
    result = invoke(export_db, sample_config_path)
    assert result.exit_code == 1, result.output  # the unverified bet is a finding
    lines = result.stdout.splitlines()
    assert NOT_CHECKED in lines
    assert (
        "export.json:#3: unverified_bet: bet B-7 (BC_PLAYER_TIGER, stake 5.00) is of no bet of"
        " the catalogue (if the catalogue has the bet, map the provider's code in its log"
        " profile's [bet_types]); its payout was not checked"
    ) in lines
    assert not any(line.startswith("live-baccarat-gr") for line in lines)  # all checks ran
    assert re.search(r"│ unverified_bet +│ +1 │", result.stdout)  # the kinds' table


def test_rounds_of_a_game_the_configuration_lacks_are_a_warning_on_stderr(export_db, tmp_path):
    """ "warning: 1 rounds of live-baccarat-gr were not checked ..." was a line of stdout (the
    command's result), without the program's name, and never in --log-file."""
    config = tmp_path / "italy.toml"
    config.write_text('[operator]\nname = "X"\n[games.live-baccarat-it]\n', encoding="utf-8")
    said = (
        "baccarat-report: warning: 1 round of live-baccarat-gr was not checked: the"
        " configuration does not list that game"
    )
    for extra in ((), ("--json",)):
        run = run_main(
            "--log-file", str(tmp_path / "run.log"), "verify", "--db", str(export_db),
            "--config", str(config), *extra,
        )  # fmt: skip
        assert run.returncode == 1 and said in run.stderr.splitlines(), run.stderr
        assert "live-baccarat-gr was not checked" not in run.stdout
    logged = (tmp_path / "run.log").read_text(encoding="utf-8")
    assert logged.count(said.removeprefix("baccarat-report: warning: ")) == 2


def test_rounds_of_a_game_whose_id_is_empty_are_named_as_such(tmp_path):
    """A store changed by hand, a round's game id set to '': the warning said "1 rounds of
    were not checked", the game left out of its own sentence."""
    db = tmp_path / "store.sqlite"
    connection = connect(db)
    store_records(
        connection,
        [round_record("E-1", bet_record("E-1", "B-1"), game_id="")],
        file_name="export.json",
    )
    connection.close()
    config = tmp_path / "italy.toml"
    config.write_text('[operator]\nname = "X"\n[games.live-baccarat-it]\n', encoding="utf-8")
    run = run_main("verify", "--db", str(db), "--config", str(config))
    assert (
        "baccarat-report: warning: 1 round of a game whose id is empty was not checked: the"
        " configuration does not list that game"
    ) in run.stderr.splitlines(), run.stderr


def test_rounds_of_a_game_the_configuration_lacks_are_counted_in_the_signed_workbook(
    export_db, tmp_path
):
    """The report and the command named them; the workbook the officer signs did not: its
    Summary said "Bets not verified 0" and its Sign-off (of monthly's workbook, a row for each
    of the Summary's counts not zero) had no row to remark on them."""
    from openpyxl import load_workbook

    config = tmp_path / "italy.toml"
    config.write_text('[operator]\nname = "X"\n[games.live-baccarat-it]\n', encoding="utf-8")
    workbook = tmp_path / "audit.xlsx"
    run = run_main(
        "verify", "--db", str(export_db), "--config", str(config), "--workbook", str(workbook)
    )
    assert run.returncode == 1, run.stderr
    label = "Rounds not verified (game not configured)"
    summary = load_workbook(workbook)["Summary"]
    rows = {row[0]: row[1:] for row in summary.iter_rows(values_only=True) if row}
    assert rows[label][0] == 1


def test_an_output_file_that_is_a_fifo_is_refused_first_and_left(export_db, tmp_path):
    """``--findings-file`` given a FIFO (or, run as root, ``/dev/full``) was replaced by a
    regular file once the month was verified: refused before any work, in one line."""
    fifo = tmp_path / "findings.jsonl"
    os.mkfifo(fifo)
    run = run_main(
        "verify", "--db", str(export_db), "--month", "2026-10", "--findings-file", str(fifo)
    )
    assert (run.returncode, run.stdout) == (2, "")
    assert run.stderr == (
        f"baccarat-report: --findings-file {fifo}: a FIFO (named pipe), not a file, which writing"
        " here would replace: it is left as it is; name a file to write\n"
    )
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_json_lists_the_checks_not_run_and_counts_the_new_kind(export_db, sample_config_path):
    result = invoke(export_db, sample_config_path, "--json")
    assert result.exit_code == 1, result.output
    document = json.loads(result.stdout)
    assert list(document["findings_by_kind"]) == list(FINDING_KINDS)
    assert document["findings_by_kind"]["unverified_bet"] == 1
    (unverified,) = document["findings"]
    assert (unverified["kind"], unverified["bet_id"], unverified["logged_payout"]) == (
        "unverified_bet",
        "B-7",
        "60.00",
    )
    expected = [
        {
            "game": "live-baccarat-it",
            "check": "late_bet",
            "records": 4,
            "of": 4,
            "unit": "bets",
            "missing": ["placed_at"],
        },
        {
            "game": "live-baccarat-it",
            "check": "shoe_card_count",
            "records": 3,
            "of": 3,
            "unit": "rounds",
            "missing": ["shoe_id"],
        },
    ]
    assert document["checks_not_run"] == expected
    assert document["alerts"]["checks_not_run"] == expected
    assert document["alerts"]["warnings"] == [NOT_CHECKED]
    assert not any("not checked" in alert for alert in document["alerts"]["alerts"])


def test_checks_not_run_alone_do_not_change_the_exit_code(tmp_path, sample_config_path):
    db = tmp_path / "store.sqlite"
    connection = connect(db)
    store_records(
        connection, [round_record("R-1", bet_record("R-1", "B-1"), **NO_SHOE)], file_name="x.json"
    )
    connection.close()
    result = invoke(db, sample_config_path)
    assert result.exit_code == 0, result.output
    assert "live-baccarat-it: not checked: shoe_card_count on 1 of 1 rounds (no shoe_id)" in (
        result.stdout.splitlines()
    )
    assert "No findings in the checks that ran" in result.stdout
    as_json = invoke(db, sample_config_path, "--json")
    assert as_json.exit_code == 0 and json.loads(as_json.stdout)["alerts"]["alerts"] == []


def test_a_store_where_every_check_ran_says_nothing_about_it(tmp_path):
    db = tmp_path / "store.sqlite"
    connection = connect(db)
    store_records(connection, [round_record("R-1", bet_record("R-1", "B-1"))], file_name="x.json")
    connection.close()
    config = config_without_gap_threshold(tmp_path)  # one round: its table idle all month
    result = invoke(db, config, "--month", "2026-10")
    assert result.exit_code == 0, result.output
    assert "not checked" not in result.stdout
    assert "No findings: every payout matches" in result.stdout
    assert json.loads(invoke(db, config, "--json").stdout)["checks_not_run"] == []


def test_a_table_idle_against_its_published_hours_is_named_when_verify_exits_1(tmp_path):
    """Issue 23: the Italian live table was idle most of the month while its page says it is
    open 24 hours a day. verify --month exits 1 for it and says why, on the terminal and in
    --json, though no round or bet holds a finding."""
    db = tmp_path / "store.sqlite"
    connection = connect(db)
    rounds = [
        round_record("R-1", bet_record("R-1", "B-1")),
        round_record(  # two hours later: a gap past the sample's 15 minutes
            "R-2",
            bet_record("R-2", "B-2", placed_at="2026-10-03T20:40:09.500Z"),
            started_at="2026-10-03T20:40:02.120Z",
            betting_closed_at="2026-10-03T20:40:17.000Z",
            settled_at="2026-10-03T20:40:41.870Z",
        ),
    ]
    store_records(connection, rounds, file_name="october.jsonl")
    connection.close()
    arguments = ["verify", "--db", str(db), "--month", "2026-10"]
    plain = CliRunner().invoke(app, arguments)
    assert plain.exit_code == 1, plain.output
    assert (
        "live-baccarat-it: its pages say it is open 24 hours a day, but its table was idle for"
        " 44,698 of the month's 44,700 minutes, in 3 gaps of over 15 minutes"  # 4,120 from the
        # month's start (22:00 UTC on 30 September), 119 between, 40,459 to its end
        in " ".join(plain.stdout.split())  # wrapped between words at the terminal's width
    )
    document = json.loads(CliRunner().invoke(app, [*arguments, "--json"]).stdout)
    assert list(document["alerts"]["availability"]) == ["live-baccarat-it"]
    # The exit code's reason is a warning of the log too: a cron job's --log-file had none.
    log = tmp_path / "run.log"
    run_main("--log-file", str(log), *arguments, "--json", cwd=tmp_path)
    assert "WARNING baccarat-report: live-baccarat-it: its pages say it is open 24 hours" in (
        log.read_text(encoding="utf-8")
    )
    # Read while the workers run (the default), or after the one process's pass: the same.
    alone = CliRunner().invoke(app, [*arguments, "--json", "--jobs", "1"]).stdout
    assert json.loads(alone) == document
    # With the month's audit written, the gaps are counted once, by its figures: the same.
    for extra in (
        ["--workbook", str(tmp_path / "a.xlsx")],
        ["--jobs", "1", "--report", str(tmp_path / "report")],
    ):
        audited = CliRunner().invoke(app, [*arguments, "--json", *extra])
        assert audited.exit_code == 1, audited.output
        assert json.loads(audited.stdout)["alerts"] == document["alerts"], extra


def test_rounds_a_time_zone_changed_since_they_were_loaded_puts_elsewhere_are_an_alert(
    tmp_path, make_round, make_bet, write_jsonl
):
    """A round's month is reckoned when it is loaded, in its game's time zone. The Greek game
    moved to Lisbon's time afterwards: a round of 31 October 22:30 UTC stayed in November
    (Athens), though October's in Lisbon, and November's audit had a day of October in it,
    without a word. The month's alerts now count the rounds stored there that its game's zone
    now puts elsewhere (exit 1), in the report as well."""
    athens = tmp_path / "athens.toml"
    athens.write_text('[operator]\nname = "X"\n[games.live-baccarat-gr]\n', encoding="utf-8")
    lisbon = tmp_path / "lisbon.toml"
    lisbon.write_text(
        '[operator]\nname = "X"\n[games.live-baccarat-gr]\ntimezone = "Europe/Lisbon"\n',
        encoding="utf-8",
    )
    rounds = [  # two tables: two partitions, verified apart with --jobs 2
        make_round(
            f"GR-{n}",
            game="live-baccarat-gr",
            table_id=f"LB-GR-0{n % 2 + 1}",
            shoe_id=f"GR-{n}-S1",
            settled_at=settled_at,
            bets=[make_bet(f"GR-{n}-B")],
        )
        for n, settled_at in enumerate(["2026-10-31T22:30:00Z", "2026-11-15T12:00:00Z"])
    ]
    log = write_jsonl(tmp_path / "log.jsonl", *rounds)
    db = tmp_path / "store.sqlite"
    loaded = run_main("ingest", str(log), "--db", str(db), "--config", str(athens))
    assert loaded.returncode == 0, loaded.stderr
    argv = ("verify", "--db", str(db), "--month", "2026-11", "--json")
    same = run_main(*argv, "--config", str(athens))
    assert json.loads(same.stdout)["alerts"]["misplaced_rounds"] == {}, same.stderr
    moved = run_main(*argv, "--config", str(lisbon), "--report", str(tmp_path / "report"))
    alerts = json.loads(moved.stdout)["alerts"]
    assert moved.returncode == 1, moved.stderr
    assert alerts["misplaced_rounds"] == {"live-baccarat-gr": 1}
    said = (
        "1 round of live-baccarat-gr stored in 2026-11 settled outside it in Europe/Lisbon,"
        " the game's time zone now"
    )
    assert any(line.startswith(said) for line in alerts["alerts"]), alerts["alerts"]
    report = (tmp_path / "report" / "audit-2026-11.html").read_text(encoding="utf-8")
    assert "stored in this month settled outside it in Europe/Lisbon" in report
    apart = run_main(*argv, "--config", str(lisbon), "--jobs", "2")  # counted beside them
    assert json.loads(apart.stdout)["alerts"]["misplaced_rounds"] == alerts["misplaced_rounds"]
