"""Rounds of a month already written, loaded later: named by every run until one finishes.

A log of October that arrives after October's run is loaded by November's, which writes
November: nothing checks those rounds and October's published reports do not count them, so
the run names them and exits 1. It named only what it had read itself: a run that loaded the
late log and then stopped (another file of the inbox unreadable) left the next run to find
the log loaded already, and that run exited 0 without a word. The store now remembers which
months' rounds a finished run has written or named (:mod:`reporting.store.announced`).
"""

from __future__ import annotations

import gzip
from datetime import date
from pathlib import Path
from types import SimpleNamespace

import pytest
from children import print_once_in_this_process
from openpyxl import load_workbook

from reporting.cli.monthly import _summary, monthly_document
from reporting.config.loader import load_config
from reporting.errors import InputError
from reporting.ingest.sources import Source
from reporting.jobs.monthly import run_monthly
from reporting.store.load import ingest
from reporting.store.schema import connect

CONFIG = """\
[games.live-baccarat-gr]
languages = []
"""

NOVEMBER_RUN = date(2026, 12, 5)  # writes 2026-11
OCTOBER_RUN = date(2026, 11, 5)  # writes 2026-10
DECEMBER_RUN = date(2027, 1, 5)  # writes 2026-12


def _round(make_round, make_bet, round_id: str, settled_at: str) -> dict:
    return make_round(
        round_id,
        game="live-baccarat-gr",
        table_id="GR-1",
        shoe_id=f"{round_id}-S1",
        hand_no=1,
        started_at=None,
        betting_closed_at=None,
        settled_at=settled_at,
        bets=[make_bet(f"{round_id}-B1", placed_at=None)],
    )


def _rejected_round(make_round, make_bet, round_id: str, settled_at: str) -> dict:
    """A round whose one bet stakes 0.00: its line is rejected, with the round's month."""
    record = _round(make_round, make_bet, round_id, settled_at)
    record["bets"][0]["stake"] = "0.00"
    return record


def no_pages(game, disclosure, as_of: date, folder: Path) -> list[Path]:
    return []


@pytest.fixture(autouse=True)
def print_once_here(monkeypatch):
    """The runs' audit report, the same pages again and again, printed once
    (:func:`children.print_once_in_this_process`): pages are not this module's subject."""
    print_once_in_this_process(monkeypatch)


@pytest.fixture
def store(tmp_path, make_round, make_bet, write_jsonl):
    config_path = tmp_path / "operator.toml"
    config_path.write_text(CONFIG, encoding="utf-8")
    inbox = tmp_path / "inbox"
    write_jsonl(
        inbox / "october.jsonl",
        _round(make_round, make_bet, "OCT-1", "2026-10-10T12:00:00Z"),
        _round(
            make_round, make_bet, "NOV-1", "2026-11-02T12:00:00Z"
        ),  # the next month's first days
    )
    return SimpleNamespace(
        config=load_config(config_path),
        inbox=inbox,
        out=tmp_path / "out",
        db=tmp_path / "report.sqlite",
        late=lambda path, *ids: write_jsonl(
            path, *(_round(make_round, make_bet, i, "2026-10-20T12:00:00Z") for i in ids)
        ),
        make_round=make_round,
        make_bet=make_bet,
        write_jsonl=write_jsonl,
    )


def monthly(store, day: date, lines: list[str] | None = None):
    connection = connect(store.db)
    try:
        return run_monthly(
            connection, store.config, store.inbox, store.out,
            {game: day for game in store.config.games}, no_pages,
            log=(lines if lines is not None else []).append,
        )  # fmt: skip
    finally:
        connection.close()


def stopped(store, day: date) -> None:
    """A run of ``day`` that loads the inbox's files, then stops on one more, a gzip cut
    short (an upload in progress), which is then taken away."""
    cut = store.inbox / "zz-upload.jsonl.gz"
    cut.write_bytes(gzip.compress(b'{"round_id": "x"}\n')[:20])
    with pytest.raises(InputError):
        monthly(store, day)
    cut.unlink()


def late_lines(lines: list[str]) -> list[str]:
    """The log's lines of late rounds, as a month's alerts word them (after its warning)."""
    return [line.split(": warning: ", 1)[1] for line in lines if " in no report (" in line]


def test_a_run_after_one_that_stopped_names_the_late_rounds_it_loaded(store, capsys):
    """November's first run loads October's late log, then stops on a cut gzip; the re-run
    (the gzip mended) names October's late rounds and exits 1. A re-run of November names
    them again, the same bytes (its report replaces the one that named them: it exited 0
    without a word, and the late rounds were then in no report and said nowhere); December's
    run does not (November's report names them)."""
    assert monthly(store, OCTOBER_RUN).exit_code == 0
    store.late(store.inbox / "october-late.jsonl", "LATE-1", "LATE-2")
    stopped(store, NOVEMBER_RUN)
    lines: list[str] = []
    result = monthly(store, NOVEMBER_RUN, lines)
    assert result.rounds_elsewhere == {"2026-10": 2} and result.exit_code == 1
    said = (
        "2 rounds of 2026-10 are in no report (loaded since 2026-10 was written): check them"
        " with verify --month 2026-10, then publish 2026-10 again (monthly --as-of 2026-11-05)"
    )
    assert late_lines(lines) == [said]
    assert f"month 2026-11: warning: {said}" in lines  # a warning of the month written
    _summary(result)
    assert f"  {said}" in capsys.readouterr().out.splitlines()
    # The audit November's run wrote names them too: they were in no audit at all.
    assert result.months[0].alerts.late_rounds == (("2026-10", 2, "published", "2026-11-05"),)
    folder = store.out / "2026-11"
    summary = load_workbook(folder / "audit-2026-11.xlsx")["Summary"]
    counts = {row[0]: row[1:3] for row in summary.iter_rows(max_row=20, values_only=True)}
    assert counts["Rounds of other months in no report"] == (2, "rounds of 2026-10: 2")
    report = (folder / "audit-2026-11.html").read_text(encoding="utf-8")
    assert "2 rounds of 2026-10, loaded since the last monthly run that finished, are in" in report
    assert monthly_document(result)["rounds_elsewhere"] == {"2026-10": 2}
    written = {path: path.read_bytes() for path in folder.rglob("*") if path.is_file()}
    again: list[str] = []
    result = monthly(store, NOVEMBER_RUN, again)
    assert result.exit_code == 1 and late_lines(again) == [said]
    assert {path: path.read_bytes() for path in folder.rglob("*") if path.is_file()} == written
    later: list[str] = []
    result = monthly(store, DECEMBER_RUN, later)
    assert not result.late and not late_lines(later)


def test_late_rounds_loaded_by_ingest_are_named_by_the_next_run(store):
    assert monthly(store, OCTOBER_RUN).exit_code == 0
    late = store.late(store.inbox.parent / "by-hand" / "october-late.jsonl", "LATE-1")
    connection = connect(store.db)
    try:
        ingest(connection, [Source(late, "jsonl")], store.config)
    finally:
        connection.close()
    lines: list[str] = []
    result = monthly(store, NOVEMBER_RUN, lines)
    assert result.rounds_elsewhere == {"2026-10": 1} and result.exit_code == 1
    assert late_lines(lines)[0].startswith("1 round of 2026-10 is in no report (loaded since")
    # October published again, as the line says: its report counts the round; November's
    # re-run no longer calls it late (October's manifest lists no file loaded by hand, and
    # every re-run of November said it, exit 1, for good)
    assert monthly(store, OCTOBER_RUN).exit_code == 0
    again: list[str] = []
    result = monthly(store, NOVEMBER_RUN, again)
    assert not result.late and not late_lines(again) and result.exit_code == 0


def test_the_next_months_first_days_loaded_early_are_not_late(store):
    """October's run loads the first days of November too; November's run counts them in
    November's reports and names nothing."""
    assert monthly(store, OCTOBER_RUN).exit_code == 0
    lines: list[str] = []
    result = monthly(store, NOVEMBER_RUN, lines)
    assert result.exit_code == 0 and not result.late and not late_lines(lines)


def test_rounds_of_an_earlier_month_never_published_are_named_as_not_published(store):
    """The first run finds a backlog of August in the inbox: its rounds are in no report, and
    no report of August was ever written (the run said "loaded since 2026-08 was written")."""
    store.write_jsonl(
        store.inbox / "august.jsonl",
        _round(store.make_round, store.make_bet, "AUG-1", "2026-08-20T12:00:00Z"),
    )
    lines: list[str] = []
    result = monthly(store, OCTOBER_RUN, lines)
    assert result.exit_code == 1 and result.rounds_elsewhere == {"2026-08": 1}
    assert late_lines(lines) == [
        "1 round of 2026-08 is in no report (2026-08 has no reports in the output folder):"
        " check them with verify --month 2026-08, then publish 2026-08 (monthly --as-of"
        " 2026-09-05)"
    ]
    report = (store.out / "2026-10" / "audit-2026-10.html").read_text(encoding="utf-8")
    assert "2026-08 has no reports in the output folder; publish it once they are checked" in (
        " ".join(report.split())
    )
    assert "<code>monthly --as-of 2026-09-05</code>" in report
    assert "was written before" not in report
    assert monthly_document(result)["months"][0]["alerts"]["late_standing"] == {
        "2026-08": "unpublished"
    }


def test_rounds_dated_past_the_next_month_are_named_and_exit_1(
    store, make_round, make_bet, write_jsonl, capsys
):
    """A year typed wrong in an export (2027-10 for 2026-10): its rounds loaded, no report
    counted them, and October's run said every record was read and exited 0 (a month after
    the next waited for a run of its own, as the next month's first days do)."""
    write_jsonl(
        store.inbox / "typo.jsonl",
        *(_round(make_round, make_bet, f"TYPO-{n}", "2027-10-10T12:00:00Z") for n in (1, 2)),
    )
    lines: list[str] = []
    result = monthly(store, OCTOBER_RUN, lines)
    assert result.exit_code == 1
    assert [(item.month, item.rounds, item.standing) for item in result.late] == [
        ("2027-10", 2, "ahead")
    ]
    assert monthly_document(result)["rounds_elsewhere"] == {"2027-10": 2}
    said = "2 rounds of 2027-10 are dated past the month after this one and in no report"
    assert [line for line in lines if line.startswith(f"month 2026-10: warning: {said}")], lines
    _summary(result)
    assert said in capsys.readouterr().out
    # November, the month after October's: its first days wait for its run, without a word
    assert "2026-11" not in result.rounds_elsewhere


def test_rounds_up_to_the_run_s_own_date_are_not_dated_ahead(
    store, make_round, make_bet, write_jsonl
):
    """A run on 4 November writes September (pages update on the 5th): November's rounds,
    settled two days before the run's own date, were "dated past the month after this one
    (a provider's clock, or a date typed wrong?)", exit 1. They wait for November's run, as
    October's do; December's are ahead."""
    write_jsonl(
        store.inbox / "log.jsonl",
        _round(make_round, make_bet, "NOV-1", "2026-11-02T10:00:00Z"),
        _round(make_round, make_bet, "DEC-1", "2026-12-02T10:00:00Z"),
    )
    result = monthly(store, date(2026, 11, 4))
    assert [report.month for report in result.months] == ["2026-09"]
    assert [(item.month, item.standing) for item in result.late] == [("2026-12", "ahead")]


def test_late_rejected_lines_of_a_month_written_are_said_after_a_run_that_stopped(
    store, make_round, make_bet, write_jsonl
):
    """A late file of October whose every line is rejected (a stake of 0) loads no round: its
    lines bear on October alone, and the re-run after a stopped run says them, once (as
    rejected lines of another month: no round of it is late)."""
    assert monthly(store, OCTOBER_RUN).exit_code == 0
    bad = _rejected_round(make_round, make_bet, "LATE-BAD", "2026-10-20T12:00:00Z")
    write_jsonl(store.inbox / "october-bad.jsonl", bad)
    stopped(store, NOVEMBER_RUN)
    lines: list[str] = []
    result = monthly(store, NOVEMBER_RUN, lines)
    assert result.exit_code == 1 and result.rejected_elsewhere == 1  # read by the stopped run
    assert result.late == [] and late_lines(lines) == []
    assert (
        "other months: warning: 1 rejected line bears on other months than 2026-11 (2026-10):"
        " see verify --month of each" in lines
    )
    assert monthly_document(result)["rounds_elsewhere"] == {}
    assert monthly_document(result)["rejected_elsewhere_months"] == ["2026-10"]


def test_rejected_lines_of_another_month_are_said_by_the_re_run_of_a_stopped_run(
    store, make_round, make_bet, write_jsonl
):
    """October's run read a November file with a rejected line (shown by November's report,
    said by October's run, exit 1), and stopped on another file: its re-run says it, and so
    does each re-run of October; November's run, whose report shows the line, does not."""
    bad = _rejected_round(make_round, make_bet, "NOV-BAD", "2026-11-03T12:00:00Z")
    write_jsonl(store.inbox / "november.jsonl", bad)
    stopped(store, OCTOBER_RUN)
    lines: list[str] = []
    result = monthly(store, OCTOBER_RUN, lines)
    assert (result.rejected_elsewhere, result.exit_code) == (1, 1)
    assert (
        "other months: warning: 1 rejected line bears on other months than 2026-10 (2026-11):"
        " see verify --month of each" in lines
    )
    again = monthly(store, OCTOBER_RUN)
    assert (again.rejected_elsewhere, again.exit_code) == (1, 1)
    assert monthly(store, NOVEMBER_RUN).rejected_elsewhere == 0


def test_a_run_publishing_an_earlier_month_again_names_late_rounds_of_a_later_one(store):
    """October and November published, a late log of October arrives, and the next run
    publishes September again: October's late rounds, a month already published, were
    loaded without a word (exit 0), and the next run had them as told of."""
    assert monthly(store, OCTOBER_RUN).exit_code == 0
    assert monthly(store, NOVEMBER_RUN).exit_code == 0
    store.late(store.inbox / "october-late.jsonl", "LATE-1")
    lines: list[str] = []
    result = monthly(store, date(2026, 10, 5), lines)  # writes 2026-09 again
    assert result.rounds_elsewhere == {"2026-10": 1} and result.exit_code == 1
    assert late_lines(lines)[0].startswith("1 round of 2026-10 is in no report (")


def test_a_file_an_ingest_loads_while_the_run_renders_is_told_of_by_the_next_run(
    store, make_round, make_bet, write_jsonl
):
    """Late rounds of October loaded by ``ingest`` while October's run rendered its pages were
    marked told of with the files the run had read: October's reports did not count them, and
    no run ever named them."""
    late = store.late(store.inbox.parent / "by-hand.jsonl", "LATE-1")
    loaded = []

    def pages_then_an_ingest(game, disclosure, as_of, folder):
        if not loaded:
            connection = connect(store.db)
            try:
                loaded.append(ingest(connection, [Source(late, "jsonl")], store.config))
            finally:
                connection.close()
        return []

    connection = connect(store.db)
    try:
        result = run_monthly(
            connection, store.config, store.inbox, store.out,
            {game: OCTOBER_RUN for game in store.config.games}, pages_then_an_ingest,
        )  # fmt: skip
    finally:
        connection.close()
    assert loaded[0].rounds_loaded == 1 and result.exit_code == 0
    lines: list[str] = []
    result = monthly(store, NOVEMBER_RUN, lines)
    assert result.rounds_elsewhere == {"2026-10": 1}


def test_rounds_whose_file_the_published_manifest_lists_are_not_late(store, tmp_path):
    """A store made again from the same logs (the old one lost), or a run that published its
    month and stopped before its end: the next run called every round of the month
    published "in no report", which its manifest contradicts."""
    assert monthly(store, OCTOBER_RUN).exit_code == 0
    store.db.unlink()  # made again: the logs are read anew by the next run
    lines: list[str] = []
    result = monthly(store, NOVEMBER_RUN, lines)
    assert result.late == [] and late_lines(lines) == [] and result.exit_code == 0


def test_a_run_that_published_and_stopped_before_its_end_calls_nothing_late_next_time(
    store, monkeypatch
):
    import reporting.jobs.monthly as job

    assert monthly(store, OCTOBER_RUN).exit_code == 0
    store.late(store.inbox / "october-late.jsonl", "LATE-1")

    def stopped(connection, through, written):
        raise InputError("the database is locked")

    monkeypatch.setattr(job, "mark_announced", stopped)
    with pytest.raises(InputError):
        monthly(store, OCTOBER_RUN)  # October published again, with the late log
    monkeypatch.undo()
    lines: list[str] = []
    result = monthly(store, NOVEMBER_RUN, lines)
    assert result.late == [] and late_lines(lines) == []


def test_a_store_made_again_by_ingest_of_the_same_logs_calls_nothing_late(store):
    """The manifest names a file relative to the inbox, ``ingest`` by the path it was given:
    the file is known by its hash."""
    assert monthly(store, OCTOBER_RUN).exit_code == 0
    store.db.unlink()
    connection = connect(store.db)
    try:
        ingest(connection, [Source(store.inbox / "october.jsonl", "jsonl")], store.config)
    finally:
        connection.close()
    result = monthly(store, NOVEMBER_RUN)
    assert result.late == [] and result.exit_code == 0


def test_a_csv_pair_sent_again_under_its_names_with_late_rounds_is_named(
    store, make_round, make_bet
):
    """A provider's pair keeps its names: the published manifest lists rounds.csv and
    bets.csv, and the pair sent again with October's late rounds was taken as listed there
    (exit 0, not a word)."""
    from helpers import write_csv_pair

    pair = store.inbox / "acme"
    write_csv_pair(pair, [_round(make_round, make_bet, "PAIR-1", "2026-10-11T12:00:00Z")])
    assert monthly(store, OCTOBER_RUN).exit_code == 0
    write_csv_pair(pair, [_round(make_round, make_bet, "PAIR-2", "2026-10-21T12:00:00Z")])
    result = monthly(store, NOVEMBER_RUN)
    assert result.rounds_elsewhere == {"2026-10": 1} and result.exit_code == 1


def test_a_month_s_run_warns_of_its_files_fields_not_read_and_exits_as_without(store, capsys):
    """A file behind the month with fields the tool does not read (a provider's list of side
    bets): each run of the month warns of it in its log and its summary (a warning of the
    month, as a check not run is), the workbook counts it, and the exit code is unchanged."""
    record = _round(store.make_round, store.make_bet, "OCT-9", "2026-10-12T12:00:00Z")
    record["side_bets"] = [{"bet_id": "S-1", "stake": "5.00", "payout": "0.00"}]
    store.write_jsonl(store.inbox / "october-side.jsonl", record)
    lines: list[str] = []
    result = monthly(store, OCTOBER_RUN, lines)
    said = "october-side.jsonl: fields not read, so in no figure and no check: side_bets"
    assert result.exit_code == 0
    assert f"month 2026-10: warning: {said}" in lines
    _summary(result)
    assert f"  warning: {said}" in capsys.readouterr().out.splitlines()
    assert monthly_document(result)["months"][0]["alerts"]["fields_not_read"] == [
        {"file": "october-side.jsonl", "fields": ["side_bets"]}
    ]
    summary = load_workbook(store.out / "2026-10" / "audit-2026-10.xlsx")["Summary"]
    counts = {row[0]: row[1] for row in summary.iter_rows(max_row=20, values_only=True)}
    assert counts["Input files with fields not read"] == 1


def test_a_month_with_a_line_not_read_says_no_finding_only_of_what_was_checked(store, capsys):
    """The officer's review: a month without findings but with a rejected line, fields not
    read and hands missing printed "no findings: every payout matches and every round follows
    the rules", and pointed to the workbook's Summary, Rejected records and Pages alone. It now
    says what verify says, and names the sheets that hold each matter."""
    rejected = _rejected_round(store.make_round, store.make_bet, "OCT-7", "2026-10-12T12:00:00Z")
    extra = _round(store.make_round, store.make_bet, "OCT-8", "2026-10-12T13:00:00Z")
    extra["side_bets"] = []
    extra["hand_no"] = 3  # hands 1 and 2 of its shoe are in no log
    store.write_jsonl(store.inbox / "october-more.jsonl", rejected, extra)
    result = monthly(store, OCTOBER_RUN)
    _summary(result)
    out = capsys.readouterr().out
    assert "every payout matches and every round follows the rules" not in out
    assert "  no findings in the checks that ran: every payout they recomputed matches" in out
    assert (
        "  see audit-2026-10.xlsx (Summary, Shoes, Checks not run, Rejected records, Ingest log)"
        in out
    )


def test_the_sheets_a_summary_points_to_are_the_workbook_s_in_its_order():
    from reporting.cli.monthly import _sheets_to_read
    from reporting.presentation.audit_xlsx import SHEETS
    from reporting.verify.bearing import MonthAlerts, RejectedFile
    from reporting.verify.hands import MissingHands

    everything = MonthAlerts(
        "2026-10",
        findings_by_kind={"payout_mismatch": 1},
        rejected_files=(RejectedFile("f", 1, 1, {"bad_json": 1}),),
        publishing={"g": ("draft",)},
        availability={"g": ("idle",)},
        fields_not_read=(("f", ("dealer",)),),
        hands_missing=(MissingHands("g", "T", "S", 1, (2,)),),
        checks_not_run=(),
    )
    sheets = _sheets_to_read(everything)
    assert sheets == [sheet for sheet in SHEETS if sheet in sheets]
    assert set(sheets) == {
        "Summary", "Findings", "Availability gaps", "Shoes", "Rejected records", "Ingest log",
        "Pages",
    }  # fmt: skip


def test_a_re_export_of_a_published_month_with_fields_not_read_is_named_by_its_run(store, capsys):
    """November's run loads a re-export of October's round with a list of side bets: every
    round a duplicate, none loads, and October's published audit names neither the file nor
    its fields (the review's case: the run said "20 duplicates" and nothing else). The run
    names it, a warning (the exit code as for fields not read in a month's own audit), and so
    does a re-run of November, not December's run; a plain re-send of the same rounds, with
    no field of its own, is not named."""
    assert monthly(store, OCTOBER_RUN).exit_code == 0
    october = _round(store.make_round, store.make_bet, "OCT-1", "2026-10-10T12:00:00Z")
    store.write_jsonl(store.inbox / "re-export.jsonl", october | {"side_bets": [{"x": 1}]})
    store.write_jsonl(store.inbox / "re-send.jsonl", october)
    lines: list[str] = []
    result = monthly(store, NOVEMBER_RUN, lines)

    said = (
        "re-export.jsonl repeats rounds of 2026-10, published before, with fields no check"
        " reads (side_bets), which its audit does not name: see verify --month 2026-10, then"
        " publish 2026-10 again (monthly --as-of 2026-11-05)"
    )
    assert f"2026-10: warning: {said}" in lines
    assert not [line for line in lines if "re-send.jsonl repeats" in line]
    assert result.exit_code == 0 and not result.late
    _summary(result)
    assert f"warning: {said}" in capsys.readouterr().out.splitlines()
    assert monthly_document(result)["repeated_elsewhere"] == [
        {"month": "2026-10", "file": "re-export.jsonl", "fields_not_read": ["side_bets"]}
    ]
    again: list[str] = []
    assert monthly(store, NOVEMBER_RUN, again).repeats == result.repeats
    assert f"2026-10: warning: {said}" in again
    monthly(store, OCTOBER_RUN)  # October published again: its audit names the file now
    assert not monthly(store, NOVEMBER_RUN).repeats
    later: list[str] = []
    assert not monthly(store, DECEMBER_RUN, later).repeats
    assert not [line for line in later if " repeats rounds of " in line]


def test_a_re_export_with_a_rejected_line_of_its_month_is_named_too(store):
    """The review's case: a re-export of published October with one rejected October line was
    told of only as "1 rejected line bears on other months"; its side bets were named nowhere.
    Both are said."""
    assert monthly(store, OCTOBER_RUN).exit_code == 0
    october = _round(store.make_round, store.make_bet, "OCT-1", "2026-10-10T12:00:00Z")
    store.write_jsonl(
        store.inbox / "re-export.jsonl",
        october | {"side_bets": [{"x": 1}]},
        _rejected_round(store.make_round, store.make_bet, "OCT-9", "2026-10-11T12:00:00Z"),
    )
    # a plain re-send with a rejected line of its month: no field of its own, nothing to name
    store.write_jsonl(
        store.inbox / "re-send.jsonl",
        october,
        _rejected_round(store.make_round, store.make_bet, "OCT-8", "2026-10-11T12:00:00Z"),
    )
    lines: list[str] = []
    result = monthly(store, NOVEMBER_RUN, lines)
    assert [(item.month, item.file) for item in result.repeats] == [("2026-10", "re-export.jsonl")]
    assert result.rejected_elsewhere == 2 and result.rejected_months == ["2026-10"]


def test_the_run_that_publishes_a_month_is_dated_by_the_games_latest_update_day(store, monkeypatch):
    """The ``--as-of`` a line names writes the month for every game: the day after the
    month's end that the latest of their figures' update days falls on, the year turned."""
    from reporting.jobs import months

    assert months.as_of_writing(store.config, "2026-12") == "2027-01-05"
    monkeypatch.setattr(months, "update_day", lambda game: 12)
    assert months.as_of_writing(store.config, "2026-10") == "2026-11-12"
    month = months.games_by_month(
        store.config, {game: date(2026, 11, 12) for game in store.config.games}
    )
    assert list(month) == ["2026-10"]
