"""Fields of a round log the tool does not read (an exporter's own: a list of side bets, a
bonus paid on a bet, a dealer's name): every round still loads, and each file's are named in
the ingest log, by ``ingest``, and by the month's warnings, so that the signed audit never says
that everything was read while a field that may hold money was not."""

from __future__ import annotations

import csv
import json
import sqlite3

import pytest
from helpers import rows, run_main, workbook_sheets, write_csv_pair

import reporting.ingest.worker
from reporting.ingest.discovery import discover_sources
from reporting.ingest.limits import MAX_NAMED_FIELDS
from reporting.store.load import ingest
from reporting.store.schema import connect
from reporting.verify.bearing import month_alerts, reject_scope

SIDE_BETS = [{"bet_id": "S-1", "type": "dragon_7", "stake": "5.00", "payout": "205.00"}]


def load(db, paths, config, **options):
    connection = connect(db)
    try:
        return ingest(connection, discover_sources(paths), config, base=db.parent, **options)
    finally:
        connection.close()


def rounds_with_fields(make_round, make_bet) -> list[dict]:
    """Two rounds: the first with a list of side bets and a bonus paid on its bet, the second
    with a dealer's name written with an escape (a line json parses, not the fast check)."""
    first = make_round("R-1", side_bets=SIDE_BETS, bets=[make_bet("R-1-B1", bonus_payout="10.00")])
    second = make_round("R-2", hand_no=24, bets=[make_bet("R-2-B1")])
    return [first, second]


@pytest.mark.parametrize("where", ["in process", "worker"])
def test_a_json_lines_files_fields_not_read_are_named_in_its_ingest_log(
    tmp_path, operator_config, make_round, make_bet, write_jsonl, monkeypatch, where
):
    monkeypatch.setattr(reporting.ingest.worker, "_usable_cpus", lambda: 2)
    first, second = rounds_with_fields(make_round, make_bet)
    dealer = json.dumps(second)[:-1] + ', "dealer": "Ren\\u00e9e"}'
    log = write_jsonl(tmp_path / "log.jsonl", first, dealer, make_round("R-3", hand_no=25))
    db = tmp_path / "store.sqlite"

    result = load(db, [log], operator_config, worker_min_bytes=0 if where == "worker" else 10**9)

    assert [item.rounds_loaded for item in result.files] == [3]  # every round loads
    named = ("side_bets", "dealer", "bets[].bonus_payout")  # the round's as met, the bets'
    assert result.files[0].fields_not_read == named
    assert rows(db, "SELECT fields_not_read FROM ingest_log") == [(json.dumps(list(named)),)]


def test_a_file_of_the_spec_s_fields_alone_names_none(tmp_path, operator_config, make_round):
    log = tmp_path / "log.jsonl"
    log.write_text(json.dumps(make_round("R-1")) + "\n", encoding="utf-8")
    result = load(tmp_path / "store.sqlite", [log], operator_config)
    assert result.files[0].fields_not_read == ()
    # an empty list: looked for, none found (NULL is a file loaded before they were named)
    assert rows(tmp_path / "store.sqlite", "SELECT fields_not_read FROM ingest_log") == [("[]",)]


def test_a_csv_pairs_columns_of_its_own_are_named_of_the_round_and_of_the_bet(
    tmp_path, operator_config, make_round
):
    rounds_path, bets_path = write_csv_pair(tmp_path / "pair", [make_round("R-1")])
    for path, column in ((rounds_path, "dealer"), (bets_path, "bonus_payout")):
        table = list(csv.reader(path.open(encoding="utf-8", newline="")))
        table = [[*table[0], column], *([*row, "x"] for row in table[1:])]
        with path.open("w", encoding="utf-8", newline="") as handle:
            csv.writer(handle).writerows(table)

    result = load(tmp_path / "store.sqlite", [tmp_path / "pair"], operator_config)

    assert result.files[0].rounds_loaded == 1
    assert result.files[0].fields_not_read == ("dealer", "bets[].bonus_payout")


def test_a_file_of_a_thousand_fields_names_the_first_and_counts_the_rest(
    tmp_path, operator_config, make_round, make_bet
):
    """The round's names and the bets' are bounded apart: a thousand of the round's bury no
    bet's (a helper's file hid a bet's field under "2,982 more")."""
    bet = make_bet("R-1-B1", late_bet_field="x")
    record = make_round("R-1", bets=[bet]) | {f"extra_{n:04d}\n": n for n in range(1_000)}
    log = tmp_path / "log.jsonl"
    log.write_text(json.dumps(record) + "\n", encoding="utf-8")

    result = load(tmp_path / "store.sqlite", [log], operator_config)

    named = result.files[0].fields_not_read
    assert len(named) == MAX_NAMED_FIELDS + 2
    assert named[0] == "extra_0000\\n"  # one line: a name's line break is shown escaped
    assert named[-2:] == (f"and {1_000 - MAX_NAMED_FIELDS:,} more fields", "bets[].late_bet_field")


def test_names_that_would_read_as_something_else_are_quoted_and_long_ones_marked_cut(
    tmp_path, operator_config, make_round
):
    record = make_round("R-1") | {"": 1, "side,bet": 2, "and 3 more fields": 3, "A" * 70: 4}
    log = tmp_path / "log.jsonl"
    log.write_text(json.dumps(record) + "\n", encoding="utf-8")
    result = load(tmp_path / "store.sqlite", [log], operator_config)
    assert result.files[0].fields_not_read == (
        '""',
        "A" * 63 + "…",
        '"and 3 more fields"',
        '"side,bet"',
    )


@pytest.mark.parametrize("name", ['note "x"', "C:\\path", "a\u0001b"])
def test_a_field_whose_name_a_decoder_cannot_take_is_named_and_its_round_loads(
    tmp_path, operator_config, make_round, name
):
    """A name with a quote, a backslash or a control character was learnt into a decoder
    that refuses it: the round was rejected ("cannot be read (ValueError: Renamed field
    names must not contain ...)"), though the field was named."""
    log = tmp_path / "log.jsonl"
    lines = [make_round("R-1") | {name: 1}, make_round("R-2", hand_no=24) | {name: 2}]
    log.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    result = load(tmp_path / "store.sqlite", [log], operator_config)
    assert (result.files[0].rounds_loaded, result.files[0].rejected_count) == (2, 0)
    assert len(result.files[0].fields_not_read) == 1


def test_the_month_s_warnings_name_the_files_behind_it_and_no_other(
    tmp_path, operator_config, make_round, make_bet, write_jsonl
):
    """A file's fields bear on the months it loaded rounds of: a warning, not an alert (an
    export that adds a field is not an irregularity); ``verify --json`` and the summary say
    it."""
    first, second = rounds_with_fields(make_round, make_bet)
    october = write_jsonl(tmp_path / "october.jsonl", first, second)
    november = write_jsonl(
        tmp_path / "november.jsonl",
        make_round("N-1", settled_at="2026-11-03T18:40:41Z", dealer="Ann"),
    )
    db = tmp_path / "store.sqlite"
    load(db, [october, november], operator_config)
    connection = connect(db, create=False)
    try:
        alerts = {
            month: month_alerts(
                connection,
                month,
                findings_by_kind={},
                unverified_rounds={},
                scope=reject_scope(connection, month),
            )
            for month in ("2026-10", "2026-11", None)
        }
    finally:
        connection.close()

    assert alerts["2026-10"].fields_not_read == (
        ("october.jsonl", ("side_bets", "bets[].bonus_payout")),
    )
    assert alerts["2026-11"].fields_not_read == (("november.jsonl", ("dealer",)),)
    assert [name for name, _ in alerts[None].fields_not_read] == ["november.jsonl", "october.jsonl"]
    assert alerts["2026-10"].exit_code == 0  # a warning: nothing else bears on the month
    assert alerts["2026-10"].warnings == [
        "october.jsonl: fields not read, so in no figure and no check: side_bets,"
        " bets[].bonus_payout"
    ]
    assert alerts["2026-10"].to_document()["fields_not_read"] == [
        {"file": "october.jsonl", "fields": ["side_bets", "bets[].bonus_payout"]}
    ]


def test_ingest_warns_of_them_and_its_json_names_them(
    tmp_path, sample_config_path, make_round, write_jsonl
):
    log = write_jsonl(tmp_path / "log.jsonl", make_round("R-1", side_bets=SIDE_BETS))
    db = str(tmp_path / "store.sqlite")
    config = str(sample_config_path)

    run = run_main("ingest", "--db", db, "--config", config, str(log))
    second = tmp_path / "again.jsonl"
    write_jsonl(second, make_round("R-2", hand_no=24, side_bets=SIDE_BETS))
    as_json = run_main("ingest", "--db", db, "--config", config, "--json", str(second))

    assert run.returncode == 0, run.stderr
    assert (
        "log.jsonl: fields not read, so in no figure and no check: side_bets (the tool reads"
        " the round log's fields; the audit names these)"
    ) in run.stderr
    assert json.loads(as_json.stdout)["files"][0]["fields_not_read"] == ["side_bets"]
    # with --json as without: on stderr (and in --log-file), it was in the document alone
    assert "again.jsonl: fields not read, so in no figure and no check" in as_json.stderr


def test_a_file_this_run_did_not_read_has_its_fields_said_not_looked_for(
    tmp_path, sample_config_path, make_round, write_jsonl
):
    """A file ingested before (skipped by its sha256) or one that failed was not read by this
    run: its ``fields_not_read`` and ``empty_fields`` are null, not the empty list that says
    "looked for, none found"."""
    log = write_jsonl(tmp_path / "log.jsonl", make_round("R-1", side_bets=SIDE_BETS))
    broken = tmp_path / "broken.jsonl.gz"
    broken.write_bytes(b"not gzip at all")
    db = str(tmp_path / "store.sqlite")
    config = str(sample_config_path)

    first = run_main("ingest", "--db", db, "--config", config, "--json", str(log))
    again = run_main("ingest", "--db", db, "--config", config, "--json", str(log), str(broken))

    (loaded,) = json.loads(first.stdout)["files"]
    assert (loaded["status"], loaded["fields_not_read"]) == ("loaded", ["side_bets"])
    assert loaded["empty_fields"] == []
    skipped, failed = json.loads(again.stdout)["files"]
    assert (skipped["status"], failed["status"]) == ("already_ingested", "failed")
    for item in (skipped, failed):
        assert (item["fields_not_read"], item["empty_fields"]) == (None, None), item


def test_the_signed_audit_names_them_and_no_longer_says_everything_was_read(
    tmp_path, sample_config_path, make_round, make_bet, write_jsonl
):
    """The audit sweep's case: a provider's export carried its side bets under a list of its
    own and a bonus paid on a bet; both loaded without a word, and the report said "Every
    record of the month's files was read, every round and bet verified". The report, the
    workbook's Summary and Ingest log, and verify's own lines now name them."""
    log = write_jsonl(tmp_path / "log.jsonl", *rounds_with_fields(make_round, make_bet))
    db, config = str(tmp_path / "store.sqlite"), str(sample_config_path)
    assert run_main("ingest", "--db", db, "--config", config, str(log)).returncode == 0
    workbook, report = tmp_path / "audit.xlsx", tmp_path / "report"
    run = run_main(
        *("verify", "--db", db, "--config", config, "--month", "2026-10"),
        *("--workbook", str(workbook), "--report", str(report), "--as-of", "2026-11-05"),
    )

    said = (
        "log.jsonl: fields not read, so in no figure and no check: side_bets, bets[].bonus_payout"
    )
    assert said in run.stdout, run.stdout + run.stderr
    page = (report / "audit-2026-10.html").read_text(encoding="utf-8")
    assert "Every record of the month" not in page
    assert (
        "the tool does not read: <code>side_bets</code>, <code>bets[].bonus_payout</code>. What"
        " they hold (a side bet, a bonus paid) is in no figure of this report and no check"
        " judged it"
    ) in page
    summary, tables = workbook_sheets(workbook)
    assert summary["Input files with fields not read"] == 1
    assert [
        row["Fields not read"] for row in tables["Ingest log"] if row["File"].endswith("log.jsonl")
    ] == ["side_bets, bets[].bonus_payout"]


def test_a_re_export_whose_rounds_were_all_stored_before_is_behind_the_months_it_repeats(
    tmp_path, sample_config_path, make_round, write_jsonl
):
    """A provider's re-export adds its side bets to rounds already loaded: every round is a
    duplicate, none loads, and its side bets were in no figure. Its month's audit said that
    every record was read, and named it nowhere. It is behind the months whose rounds it
    repeats (the stored rounds'), in the warnings, the report and the workbook, and no other."""
    october = [make_round("R-1"), make_round("R-2", hand_no=24)]
    november = make_round("N-1", settled_at="2026-11-03T18:40:41Z")
    first = write_jsonl(tmp_path / "first.jsonl", *october, november)
    again = write_jsonl(
        tmp_path / "again.jsonl", *(record | {"side_bets": SIDE_BETS} for record in october)
    )
    db, config = str(tmp_path / "store.sqlite"), str(sample_config_path)
    for log in (first, again):
        assert run_main("ingest", "--db", db, "--config", config, str(log)).returncode == 0
    connection = sqlite3.connect(db)
    stored = connection.execute(
        "SELECT file_name, rounds_loaded, duplicate_months FROM ingest_log ORDER BY ingest_id"
    ).fetchall()
    connection.close()
    assert stored == [(str(first), 3, "{}"), (str(again), 0, '{"2026-10": 2}')]

    workbook, report = tmp_path / "audit.xlsx", tmp_path / "report"
    run = run_main(
        *("verify", "--db", db, "--config", config, "--month", "2026-10", "--json"),
        *("--workbook", str(workbook), "--report", str(report), "--as-of", "2026-11-05"),
    )
    assert json.loads(run.stdout)["alerts"]["fields_not_read"] == [
        {"file": str(again), "fields": ["side_bets"]}
    ]
    page = (report / "audit-2026-10.html").read_text(encoding="utf-8")
    assert "Every record of the month" not in page and "again.jsonl" in page
    summary, tables = workbook_sheets(workbook)
    assert summary["Input files with fields not read"] == 1
    # the Ingest log backs the count: the file's rounds of the month, repeated
    assert [
        (row["File"], row["Rounds in period"], row["Duplicates in period"], row["Fields not read"])
        for row in tables["Ingest log"]
    ] == [(str(first), 2, 0, None), (str(again), 0, 2, "side_bets")]
    for month in ("2026-11", "2026-09"):
        other = run_main(
            *("verify", "--db", db, "--config", config, "--month", month, "--json"),
        )
        assert json.loads(other.stdout)["alerts"]["fields_not_read"] == [], month


def test_a_re_export_loaded_before_its_months_were_kept_is_behind_every_month(
    tmp_path, sample_config_path, make_round, write_jsonl
):
    """A store upgraded from schema version 9 has no months for the re-exports it loaded:
    such a file was named in no month (though verify of all months named it). Nothing
    places it, so it is behind every month, as a file of rejected lines alone is; a file
    that loaded rounds stays behind its rounds' months only."""
    first = write_jsonl(tmp_path / "first.jsonl", make_round("R-1"))
    again = write_jsonl(tmp_path / "again.jsonl", make_round("R-1") | {"side_bets": SIDE_BETS})
    other = write_jsonl(
        tmp_path / "other.jsonl",
        make_round("N-1", settled_at="2026-11-03T18:40:41Z", dealer="Ann"),
        make_round("R-1"),
    )
    db, config = str(tmp_path / "store.sqlite"), str(sample_config_path)
    for log in (first, again, other):
        assert run_main("ingest", "--db", db, "--config", config, str(log)).returncode == 0
    connection = sqlite3.connect(db)
    with connection:  # as the upgrade to version 10 leaves the files loaded before it
        connection.execute("UPDATE ingest_log SET duplicate_months = NULL")
    connection.close()
    for month in ("2026-09", "2026-10", "2026-11"):
        run = run_main("verify", "--db", db, "--config", config, "--month", month, "--json")
        named = json.loads(run.stdout)["alerts"]["fields_not_read"]
        assert {item["file"] for item in named} == {str(again)} | (
            {str(other)} if month == "2026-11" else set()
        ), month


def test_a_file_sent_again_under_its_name_is_named_as_a_file_of_its_own(
    tmp_path, operator_config, make_round, write_jsonl
):
    """A provider's corrected file under the same name: the two files' names were merged
    into one entry (and a count of more dropped), while the workbook counted two files."""
    log = tmp_path / "y.jsonl"
    db = tmp_path / "store.sqlite"
    write_jsonl(log, make_round("R-1") | {"a": 1})
    load(db, [log], operator_config)
    write_jsonl(log, make_round("R-2", hand_no=24) | {"b": 1})
    load(db, [log], operator_config)
    connection = connect(db, create=False)
    try:
        alerts = month_alerts(connection, "2026-10", findings_by_kind={}, unverified_rounds={})
    finally:
        connection.close()
    assert alerts.fields_not_read == (("y.jsonl", ("a",)), ("y.jsonl", ("b",)))


def test_a_file_loaded_before_fields_were_named_is_said_not_looked_for(
    tmp_path, sample_config_path, make_round, write_jsonl
):
    """A store upgraded from schema version 8 keeps no names for the files it loaded, and
    such a file is not loaded again: its month's audit said that every record was read. It
    says now that the file's fields were not looked for."""
    log = write_jsonl(tmp_path / "old.jsonl", make_round("R-1") | {"side_bets": []})
    db, config = tmp_path / "store.sqlite", str(sample_config_path)
    assert run_main("ingest", "--db", str(db), "--config", config, str(log)).returncode == 0
    connection = sqlite3.connect(db)
    with connection:  # as the upgrade leaves the files it did not read
        connection.execute("UPDATE ingest_log SET fields_not_read = NULL")
    connection.close()
    report, workbook = tmp_path / "report", tmp_path / "audit.xlsx"
    run = run_main(
        *("verify", "--db", str(db), "--config", config, "--month", "2026-10", "--json"),
        *("--workbook", str(workbook), "--report", str(report), "--as-of", "2026-11-05"),
    )

    alerts = json.loads(run.stdout)["alerts"]
    assert alerts["fields_not_read"] == [{"file": str(log), "fields": None}]
    assert any("old.jsonl: its fields were not looked for" in line for line in alerts["warnings"])
    page = (report / "audit-2026-10.html").read_text(encoding="utf-8")
    assert "Every record of the month" not in page
    assert "were not looked for: it was loaded by a release that did not name" in page
    summary, tables = workbook_sheets(workbook)
    assert summary["Input files with fields not read"] == 1
    assert (
        tables["Ingest log"][0]["Fields not read"]
        == "not looked for (loaded before they were named)"
    )
