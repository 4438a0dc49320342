"""The audit workbook (reporting.presentation.audit_xlsx): every sheet, every finding, money as numbers, no
formula from untrusted text, frozen and filtered headers, and the same bytes for the same inputs.

One sample month with one fault of every kind is generated, ingested and verified once for the
module, beside two hand-made logs: ``hostile.jsonl`` (lines that look like formulas, so every
one is rejected and the file loads no round) and ``september.jsonl`` (one round of another
month and one bad line).

The Summary sheet's cells are compared with ``tests/golden/audit_summary.txt``; after an
intended change, regenerate it with ``UPDATE_GOLDEN=1 pytest tests/presentation/test_audit_xlsx.py`` and read
the difference before committing.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import zipfile
from dataclasses import dataclass, replace
from datetime import date, datetime
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest
from helpers import (
    HEADER_CODES_NAME,
    bet_record,
    month_audit_records,
    noisy,
    printed_headers,
    round_record,
    store_records,
    written_numbers,
)
from openpyxl import load_workbook
from openpyxl.utils.cell import coordinate_from_string
from openpyxl.worksheet._writer import ALL_TEMP_FILES as openpyxl_temporary_files

import reporting.presentation.audit_xlsx
from reporting.config.loader import OperatorConfig, load_config
from reporting.engine.money import cents_to_decimal, round_fraction
from reporting.figures.audit_records import FINDING_SEVERITY
from reporting.figures.ledger import period_ledger
from reporting.figures.statistics import OutcomeTest, RtpCheck, outcome_tests, rtp_checks
from reporting.ingest.discovery import discover_sources
from reporting.presentation.audit_xlsx import SHEETS, write_audit_workbook
from reporting.presentation.audit_xlsx.cells import PERCENT_PLACES, SHEET_DIGITS
from reporting.presentation.workbook_base import TEXT_LIMIT, cell_text
from reporting.records import FINDING_KINDS, FINDING_TITLES, finding_title, severity_rank
from reporting.sample import CARRIED_KINDS
from reporting.sample.generator import generate_month
from reporting.store.load import ingest
from reporting.store.schema import connect
from reporting.verify.run import VerifyResult, verify

#: The finding kinds a generated month of the spec's log carries (not unverified_bet: the
#: spec's bet types are this tool's own).
SPEC_FINDING_KINDS = tuple(kind for kind in FINDING_KINDS if kind in CARRIED_KINDS["jsonl"])

GOLDEN = Path(__file__).parent / "golden" / "audit_summary.txt"
AS_OF = date(2026, 11, 30)
VERSION = "0.0.0-test"
MONTH = "2026-10"
FORMULA = '=HYPERLINK("http://x","y")'

#: The Summary's table header: under its title, its fifteen lines (period, as of, version,
#: rounds, bets, bets not verified, rounds not verified, checks not run, input files with
#: fields not read, availability gaps, live games not checked for availability, shoes with
#: hands missing and not checked for them, RTP checks and outcome tests outside their bounds:
#: the module's workbooks have the month's records and shoes, and no Pages) and a blank row.
#: test_the_summary_counts_the_checks_not_run... finds it in a workbook without.
SUMMARY_HEADER_ROW = 1 + 15 + 2
#: The Sign-off's table header: under its title, period, operator, a licence for each of the
#: sample's three jurisdictions (IT, DK, GR), as of, a blank row, the reviewer's heading, what
#: the reviewer attests and the four boxes to fill in.
SIGN_OFF_HEADER_ROW = 1 + 2 + 3 + 1 + 1 + 1 + 1 + 4 + 1
#: The month's audit records and shoes every workbook of this module is written with, unless
#: a test says otherwise (tests/presentation/test_audit_xlsx_month.py checks their sheets).
MONTH_AUDIT, SHOES = month_audit_records()
HEADERS = {
    "Summary": [
        "Game",
        "Jurisdiction",
        "Currency",
        "Rounds settled",
        "Rounds void",
        "Bets",
        "Stakes",  # no currency in the header: the sample games play in EUR and in DKK
        "Payouts",
        "Actual RTP",
        "Theoretical RTP of the play",
        "Declared RTP",
        *map(finding_title, FINDING_KINDS),  # as the audit report names them
        "Findings",
    ],
    "Findings": [
        "Severity",
        "Kind",
        "Game",
        "Round",
        "Bet",
        "Account",
        "Stake",
        "Expected payout",
        "Logged payout",
        "Rule",
        "Source",
        "Message",
        "Remarks",
    ],
    "Void rounds": [
        "Round",
        "Game",
        "Table",
        "Shoe",
        "Hand",
        "Settled at (UTC)",
        "Reason",
        "Bets",
        "Currency",
        "Stakes",
        "Refunded",
        "Source",
    ],
    "Money": [
        "Game",
        "Currency",
        "Table",
        "Day",
        "Rounds settled",
        "Rounds void",
        "Bets",
        "Accounts",
        "Stakes",
        "Payouts",
        "GGR",
    ],
    "Activity": ["Game", "Table", "Day", "Hour", "Rounds", "Bets", "Currency", "Stakes"],
    "Availability gaps": [
        "Game",
        "Table",
        "After round",
        "Before round",
        "Start (UTC)",
        "End (UTC)",
        "Minutes",
    ],
    "Shoes": [
        "Game",
        "Table",
        "Shoe",
        "First settlement (UTC)",
        "Last settlement (UTC)",
        "Hands",
        "Banker",
        "Player",
        "Tie",
        "Banker pairs",
        "Player pairs",
        "Cards dealt",
        "Void rounds",
        "Hands missing",
        "Findings",
    ],
    "Limits": [
        "Game",
        "Bet type",
        "Bet",
        "Currency",
        "Minimum",
        "Maximum",
        "Below the minimum",
        "Above the maximum",
    ],
    "Disclosure check": [
        "Game",
        "Regulator",
        "Win percentage",
        "On its pages",
        "Reference month",
        "Updated on",
        "Rounds",
        "Currency",
        "Stakes",
        "Payouts",
        "Declared RTP",
        "Declared RTP reference",
        "Best theoretical RTP",
        "Warnings",
    ],
    "Checks not run": ["Game", "Check", "Not run on", "Of", "Unit", "Why"],
    "Rejected records": ["File", "Line", "Source", "Reason", "Round", "Message", "Raw line"],
    "Ingest log": [
        "File",
        "Companion file",
        "SHA-256",
        "Size (bytes)",
        "Format",
        "Lines read",
        "Rounds loaded",
        "Rounds in period",
        "Bets loaded",
        "Duplicates skipped",
        "Duplicates in period",
        "Rejected",
        "Fields not read",
    ],
    "Outcome tests": [
        "Game",
        "Table",
        "Rounds settled",
        "Rounds void",
        "Banker",
        "Banker expected",
        "Player",
        "Player expected",
        "Tie",
        "Tie expected",
        "Chi-square (2 df)",
        "p-value",
        "Outside 99.9%",
    ],
    "RTP checks": [
        "Game",
        "Bet type",
        "Bet",
        "Currency",
        "Bets",
        "Stakes",
        "Payouts",
        "Actual RTP",
        "Theoretical RTP",
        "Actual - theoretical",
        "Bound (99.9%, ±)",
        "Lower bound",
        "Upper bound",
        "z-score",
        "Outside 99.9%",
    ],
    "Charts": [
        "Game",
        "Currency",
        "Day",
        "Stakes",
        "Payouts",
        "Cumulative stakes",
        "Cumulative payouts",
        "Cumulative RTP",
    ],
    "Pages": ["Game", "Draft", "Why not for publication"],
    "Sign-off": ["Finding kind", "Severity", "Findings", "Remarks"],
}
#: Sheets with more columns than their table's (the Sign-off's provenance lists input files).
COLUMNS = {"Sign-off": 6}

#: The decimals of a ratio a percentage cell holds: those it shows (99.99% is 0.9999).
SHOWN = PERCENT_PLACES + 2


def header_row(sheet_name: str) -> int:
    return {"Summary": SUMMARY_HEADER_ROW, "Sign-off": SIGN_OFF_HEADER_ROW}.get(sheet_name, 1)


@dataclass
class Audit:
    folder: Path
    connection: sqlite3.Connection
    config: OperatorConfig
    result: VerifyResult
    outcomes: list[OutcomeTest]
    rtp: list[RtpCheck]
    workbook: Path  # the month's workbook
    hostile_workbook: Path  # the same, with a finding whose every text field is hostile
    logs: dict[str, str]  # file name as stored, by short name

    def write(self, path: Path, **changes) -> Path:
        arguments = {
            "result": self.result,
            "outcomes": self.outcomes,
            "rtp": self.rtp,
            "as_of": AS_OF,
            "tool_version": VERSION,
            "audit": MONTH_AUDIT,
            "shoes": SHOES,
        } | changes
        ledger = period_ledger(self.connection, arguments["result"].month)
        write_audit_workbook(path, ledger, self.config, **arguments)
        return path


HOSTILE_FINDING = {
    "kind": "payout_mismatch",
    "game_id": "live-baccarat-it",
    "report_month": MONTH,
    "round_id": "=1+1",
    "bet_id": FORMULA,
    "expected_payout_cents": 1950,
    "logged_payout_cents": 2000,
    "rule": "#N/A",
    "source_file": "=evil.jsonl",
    "source_line": 7,
    "message": FORMULA + " " + "x" * 40_000,
}


@pytest.fixture(scope="module")
def audit(tmp_path_factory, operator_config, make_round, make_bet, write_jsonl) -> Audit:
    folder = tmp_path_factory.mktemp("audit")
    log = folder / "m.jsonl"
    generate_month(operator_config, MONTH, log, rounds_per_day=20, faults=1, seed=1)
    hostile = folder / "hostile.jsonl"
    hostile.write_text(f'{FORMULA}\n=1+1\n#N/A\n{{"bell": "\x07"\n', encoding="utf-8")
    september = write_jsonl(
        folder / "september.jsonl",
        make_round(
            "LB01-20260915-0001",
            shoe_id="LB01-20260915-S01",
            hand_no=1,
            started_at="2026-09-15T10:00:00Z",
            betting_closed_at="2026-09-15T10:00:15Z",
            settled_at="2026-09-15T10:00:40Z",
            bets=[make_bet("B-SEPT-1", placed_at="2026-09-15T10:00:05Z")],
        ),
        "=SEPTEMBER()",
    )
    connection = connect(folder / "audit.sqlite")
    ingest(connection, discover_sources([log, hostile, september]), operator_config)
    result = verify(connection, operator_config, MONTH)
    audit = Audit(
        folder,
        connection,
        operator_config,
        result,
        outcome_tests(result.tables, operator_config.games),
        rtp_checks(result.bet_totals, operator_config.games),
        folder / "audit.xlsx",
        folder / "hostile.xlsx",
        {path.stem: str(path) for path in (log, hostile, september)},
    )
    audit.write(audit.workbook)
    columns = ", ".join(HOSTILE_FINDING)
    cursor = connection.execute(
        f"INSERT INTO findings ({columns}) VALUES ({', '.join('?' * len(HOSTILE_FINDING))})",
        tuple(HOSTILE_FINDING.values()),
    )
    audit.write(audit.hostile_workbook)
    connection.execute("DELETE FROM findings WHERE finding_id = ?", (cursor.lastrowid,))
    yield audit
    connection.close()


#: The games of the sample configuration: the Summary's game rows (its total row follows them).
SAMPLE_GAMES = frozenset(
    load_config(Path(__file__).parents[2] / "sample_data" / "operator.toml").games
)


def sheet_rows(path: Path, sheet_name: str) -> list[tuple]:
    """The table rows under the header of one sheet, as values (up to the first empty row:
    notes and blocks may follow a table)."""
    sheet = load_workbook(path)[sheet_name]
    first = header_row(sheet_name) + 1
    if sheet_name == "Summary":
        return [
            row
            for row in sheet.iter_rows(min_row=first, values_only=True)
            if row[0] in SAMPLE_GAMES
        ]
    rows = []
    for row in sheet.iter_rows(min_row=first, values_only=True):
        if all(value is None for value in row):
            break
        rows.append(row)
    return rows


def money(value: float | int) -> Decimal:
    """A money cell's value as the exact Decimal it was written from."""
    return Decimal(str(value)).quantize(Decimal("0.01"))


def findings_rows(connection: sqlite3.Connection) -> list[tuple]:
    """The month's findings as the workbook lists them: heaviest first (as every list of
    findings is), then by file and line."""
    rows = connection.execute(
        "SELECT kind, game_id, report_month, round_id, bet_id, expected_payout_cents,"
        " logged_payout_cents, rule, source_file, source_line, message FROM findings"
        " WHERE report_month = ?",
        (MONTH,),
    ).fetchall()
    return sorted(rows, key=lambda row: (severity_rank(row[0]), row[8], row[9], row[0], row[4]))


# --- sheets and headers ------------------------------------------------------------------------


def test_every_sheet_exists_in_order_with_its_header(audit):
    workbook = load_workbook(audit.workbook)
    assert workbook.sheetnames == list(SHEETS)
    for name in SHEETS:
        sheet = workbook[name]
        header = [cell.value for cell in sheet[header_row(name)]]
        width = len(HEADERS[name])
        assert header[:width] == HEADERS[name] and not any(header[width:]), name


def test_summary_title_rows_name_operator_period_as_of_and_version(audit):
    sheet = load_workbook(audit.workbook)["Summary"]
    assert sheet["A1"].value == "Audit workbook: Casinò Esempio S.p.A."
    labels = {sheet.cell(row, 1).value: sheet.cell(row, 2).value for row in range(2, 10)}
    assert labels == {
        "Period": MONTH,
        "As of": datetime(2026, 11, 30),
        "Tool version": f"baccarat-report {VERSION}",
        "Rounds checked": audit.result.rounds_checked,
        "Bets checked": audit.result.bets_checked,
        "Bets not verified": audit.result.bets_unverified,
        "Rounds not verified (game not configured)": 0,
        "Checks not run": len(audit.result.checks_not_run),
    }
    assert sheet["B3"].number_format == "yyyy-mm-dd"
    # the date on the left, as the period above it and the version below it
    assert [sheet[f"B{row}"].alignment.horizontal for row in (2, 3, 4)] == [None, "left", None]


#: A character of the workbook's 10-point bold font, at most, in points; a line of it.
CHARACTER, LINE = 6.5, 13.5


def test_each_finding_kind_heads_its_column_by_its_title_in_two_lines_at_most(audit):
    """The Summary names each kind as the audit report does, written upwards: its row is as
    tall as the longer of the title's two lines (at a space), and its column holds two."""
    sheet = load_workbook(audit.workbook)["Summary"]
    headers = {cell.value: cell for cell in sheet[SUMMARY_HEADER_ROW] if cell.value}
    height = sheet.row_dimensions[SUMMARY_HEADER_ROW].height
    for kind in FINDING_KINDS:
        title = FINDING_TITLES[kind]
        cell = headers.pop(title)
        assert cell.alignment.text_rotation == 90 and cell.alignment.wrap_text, title
        words = title.split()
        longer = min(
            max(len(" ".join(words[:cut])), len(" ".join(words[cut:])))
            for cut in range(1, len(words))
        )
        assert CHARACTER * longer <= height, title
        width = sheet.column_dimensions[cell.column_letter].width  # in characters of 7 pixels
        assert width * 7 * 0.75 >= 2 * LINE, title
    assert set(headers) & set(FINDING_KINDS) == set()  # no code left as a header
    assert height < CHARACTER * max(map(len, FINDING_TITLES.values()))  # not one line each


#: The grid a laptop's spreadsheet shows (1366 x 768 pixels, less the window's title, ribbon,
#: formula bar, sheet tabs and status bar: about 490 pixels), in points.
LAPTOP_GRID = 490 * 0.75


def frozen_height(sheet) -> float:
    """The height of the rows a sheet's panes hold in view, in points (a row of no height of
    its own: the spreadsheets' 15)."""
    _column, row = coordinate_from_string(sheet.freeze_panes or "A1")
    return sum(sheet.row_dimensions[number].height or 15 for number in range(1, row))


def test_headers_are_frozen_filtered_and_repeated_on_printed_pages(audit):
    workbook = load_workbook(audit.workbook)
    for name in SHEETS:
        sheet = workbook[name]
        top = header_row(name)
        last_column = sheet.cell(top, len(HEADERS[name])).column_letter
        rows = len(sheet_rows(audit.workbook, name))
        # a table's header stays in view where it heads its sheet; under a block of rows
        # (Summary, Sign-off) the panes keep the first column, the games and labels, instead
        assert sheet.freeze_panes == (f"A{top + 1}" if top == 1 else "B1"), name
        assert frozen_height(sheet) <= LAPTOP_GRID / 3, name
        assert sheet.auto_filter.ref == f"A{top}:{last_column}{top + rows}", name
        assert sheet.print_title_rows == f"${top}:${top}", name
        assert sheet.page_setup.orientation == "landscape", name
        assert sheet.page_setup.fitToWidth == 1 and sheet.page_setup.fitToHeight == 0, name
        assert sheet.sheet_properties.pageSetUpPr.fitToPage, name
        for cell in sheet[top][: len(HEADERS[name])]:
            assert cell.font.bold and cell.fill.fgColor.rgb == "FFD9E1F2", (name, cell.value)
        widths = [dimension.width for dimension in sheet.column_dimensions.values()]
        assert len(widths) == COLUMNS.get(name, len(HEADERS[name])), name
        assert all(4 <= w <= 72 for w in widths), name


# --- content -----------------------------------------------------------------------------------


def test_findings_sheet_holds_exactly_the_findings_table(audit):
    stored = findings_rows(audit.connection)
    shown = sheet_rows(audit.workbook, "Findings")
    assert len(stored) == audit.result.finding_count == len(SPEC_FINDING_KINDS)  # one of each
    assert len(shown) == len(stored)
    ranks = [severity_rank(row[1]) for row in shown]
    assert ranks == sorted(ranks) and ranks[0] < ranks[-1]  # heaviest first
    bets = {
        (round_id, bet_id): (account, stake)
        for round_id, bet_id, account, stake in audit.connection.execute(
            "SELECT round_id, bet_id, account, stake_cents FROM bets"
        )
    }
    for row, finding in zip(shown, stored, strict=True):
        kind, game, _month, round_id, bet, expected, logged, rule, file, line, message = finding
        account, stake = bets.get((round_id, bet), (None, None))
        assert row[:6] == (str(FINDING_SEVERITY[kind]), kind, game, round_id, bet, account)
        assert [None if v is None else money(v) for v in row[6:9]] == [
            None if cents is None else cents_to_decimal(cents)
            for cents in (stake, expected, logged)
        ]
        assert row[9:] == (rule, f"{file}:{line}", message, None)
    assert {row[1] for row in shown} == set(SPEC_FINDING_KINDS)
    # a finding on a bet shows the bet's account and stake, from the bets table
    assert any(row[5] is not None and row[6] is not None for row in shown)


def test_money_cells_are_numbers_in_the_money_format(audit):
    workbook = load_workbook(audit.workbook)
    checked = 0
    for name, headers in (
        ("Summary", ("Stakes", "Payouts")),
        ("Findings", ("Stake", "Expected payout", "Logged payout")),
        ("RTP checks", ("Stakes", "Payouts")),
    ):
        sheet = workbook[name]
        top = header_row(name)
        columns = [HEADERS[name].index(header) + 1 for header in headers]
        for row in range(top + 1, top + 1 + len(sheet_rows(audit.workbook, name))):
            for column in columns:
                cell = sheet.cell(row, column)
                if cell.value is None:
                    continue
                assert cell.data_type == "n" and isinstance(cell.value, int | float), cell
                assert cell.number_format == "#,##0.00", cell
                checked += 1
    assert checked > 40


def test_summary_agrees_with_verify_statistics_and_findings(audit):
    rows = {row[0]: row for row in sheet_rows(audit.workbook, "Summary")}
    assert sorted(rows) == sorted(audit.config.games)
    findings = audit.connection.execute(
        "SELECT game_id, kind, count(*) FROM findings WHERE report_month = ?"
        " GROUP BY game_id, kind",
        (MONTH,),
    ).fetchall()
    kind_column = HEADERS["Summary"].index("Payout mismatch")
    for game_id, game in audit.config.games.items():
        row = rows[game_id]
        tables = [c for (g, _), c in audit.result.tables.items() if g == game_id]
        # Bets, stakes and payouts of every bet; the theory of the types with one.
        totals = [sums for (g, _), sums in audit.result.bet_totals.items() if g == game_id]
        stakes = sum(sums.stakes for sums in totals)
        payouts = sum(sums.payouts for sums in totals)
        checks = [check for check in audit.rtp if check.game_id == game_id]
        mix = sum((check.stakes * check.theoretical_rtp for check in checks), Fraction(0)) / sum(
            check.stakes for check in checks
        )
        assert row[1:6] == (
            game.jurisdiction,
            game.currency,
            sum(t.rounds for t in tables),
            sum(t.void for t in tables),
            sum(sums.bets for sums in totals),
        )
        assert (money(row[6]), money(row[7])) == (
            cents_to_decimal(stakes),
            cents_to_decimal(payouts),
        )
        assert Decimal(str(row[8])) == round_fraction(Fraction(payouts, stakes), SHOWN)
        assert Decimal(str(row[9])) == round_fraction(mix, SHOWN)
        declared = None if game.declared_rtp is None else game.declared_rtp / 100
        assert (None if row[10] is None else Decimal(str(row[10]))) == declared
        counts = {kind: n for g, kind, n in findings if g == game_id}
        assert row[kind_column : kind_column + len(FINDING_KINDS)] == tuple(
            counts.get(kind, 0) for kind in FINDING_KINDS
        )
        assert row[-1] == sum(counts.values())


def test_a_declared_rtp_the_theory_does_not_bear_out_is_emphasised(audit):
    """The Italian live game declares 99.50% against a best bet of 98.94%: the Summary shows
    the figure in the alert's bold red, as it does a finding count (its pages are drafts)."""
    sheet = load_workbook(audit.workbook)["Summary"]
    column = HEADERS["Summary"].index("Declared RTP") + 1
    cells = {
        sheet.cell(row, 1).value: sheet.cell(row, column)
        for row in range(SUMMARY_HEADER_ROW + 1, sheet.max_row + 1)
    }
    italy = cells["live-baccarat-it"]
    assert italy.value == pytest.approx(0.995)
    assert italy.font.bold and italy.font.color.rgb == "FF9C0006"
    greece = cells["live-baccarat-gr"]  # declares none
    assert greece.value is None


def test_a_table_longer_than_its_sheet_lists_what_fits_and_says_what_it_leaves_out(
    audit, monkeypatch
):
    """A sheet holds SHEET_ROWS rows; past them a spreadsheet drops rows without a word (a
    month of a systematic payout error, millions of findings). A sheet as short as two rows
    of a table lists the two heaviest findings, the first two rejected lines, the first two
    files loaded, then says how many it left out and where they are."""
    from reporting.presentation.audit_xlsx import cells

    fits = 2
    monkeypatch.setattr(cells, "SHEET_ROWS", cells._ROOM_UNDER_TABLE + 1 + fits)
    short = audit.write(audit.folder / "short.xlsx")
    stored = findings_rows(audit.connection)
    shown = sheet_rows(short, "Findings")
    assert [(row[1], row[3], row[4]) for row in shown] == [
        (kind, round_id, bet_id) for kind, _, _, round_id, bet_id, *_ in stored[:fits]
    ]
    whole = {name: sheet_rows(audit.workbook, name) for name in ("Rejected records", "Ingest log")}
    sheets = load_workbook(short)
    for name, listed, where in (
        ("Findings", len(stored), "The heaviest are listed. Every finding of the period"),
        ("Rejected records", len(whole["Rejected records"]), "Every rejected line is in the"),
        ("Ingest log", len(whole["Ingest log"]), "Every file is in the store's ingest_log table."),
    ):
        if name in whole:
            assert sheet_rows(short, name) == whole[name][:fits]
        sheet = sheets[name]
        assert sheet.max_row <= cells.SHEET_ROWS
        note = sheet.cell(row=1 + fits + 2, column=1)
        assert note.value.startswith(
            f"{listed - fits:,} more rows are not listed here: a sheet holds at most"
            f" {cells.SHEET_ROWS:,} rows. {where}"
        )
        assert note.font.bold and note.font.color.rgb == "FF9C0006"


def test_a_sheet_holds_the_rows_the_spreadsheets_hold():
    from openpyxl import Workbook

    from reporting.presentation.workbook_base import SHEET_ROWS

    sheet = Workbook().active
    sheet.cell(row=SHEET_ROWS, column=1, value="last")
    with pytest.raises(ValueError, match=f"between 1 and {SHEET_ROWS}"):
        sheet.cell(row=SHEET_ROWS + 1, column=1)


def test_rejected_records_of_a_month_come_from_its_files_and_files_without_rounds(audit):
    rows = sheet_rows(audit.workbook, "Rejected records")
    by_file: dict[str, list[tuple]] = {}
    for row in rows:
        by_file.setdefault(row[0], []).append(row)
    # the sample month's file (9 rejects), the file that loaded no round (all 4 lines),
    # not the September file: its one round lies in another month.
    assert sorted(by_file) == sorted([audit.logs["m"], audit.logs["hostile"]])
    assert len(by_file[audit.logs["m"]]) == 9
    assert [row[1] for row in by_file[audit.logs["hostile"]]] == [1, 2, 3, 4]
    assert rows == sorted(rows, key=lambda row: (row[0], row[1]))
    for file, line, source, reason, _round_id, message, raw in rows:
        assert source == f"{file}:{line}" and reason and message and raw

    everything = audit.write(audit.folder / "all.xlsx", result=replace(audit.result, month=None))
    files = {row[0] for row in sheet_rows(everything, "Rejected records")}
    assert files == set(audit.logs.values())
    sheet = load_workbook(everything)["Summary"]
    assert sheet["B2"].value == "all"


def test_ingest_log_lists_every_file_with_its_rounds_in_the_period(audit):
    rows = sheet_rows(audit.workbook, "Ingest log")
    assert [row[0] for row in rows] == [audit.logs[n] for n in ("m", "hostile", "september")]
    in_period = {row[0]: (row[6], row[7], row[11]) for row in rows}  # loaded, in period, rejected
    assert in_period[audit.logs["hostile"]] == (0, 0, 4)
    assert in_period[audit.logs["september"]] == (1, 0, 1)
    assert in_period[audit.logs["m"]][0] == in_period[audit.logs["m"]][1] > 2000
    for row in rows:
        assert len(row[2]) == 64 and row[4] == "jsonl"


def test_statistics_sheets_show_every_test_and_emphasise_flagged_rows(audit):
    outcomes = sheet_rows(audit.workbook, "Outcome tests")
    assert [(row[0], row[1], row[2]) for row in outcomes] == [
        (test.game_id, test.table_id, test.rounds) for test in audit.outcomes
    ]
    checks = sheet_rows(audit.workbook, "RTP checks")
    assert [(row[0], row[1], row[4]) for row in checks] == [
        (check.game_id, check.bet_type, check.bets) for check in audit.rtp
    ]
    # each bet by its name too, as the pages and the report name it: ids alone were left to
    # the officer to match with the pages' "Banker (no commission)"
    names = {bet.id: bet.name.msgid for game in audit.config.games.values() for bet in game.bets}
    assert [row[2] for row in checks] == [names[check.bet_type] for check in audit.rtp]
    assert all(row[-1] in ("yes", "no") for row in outcomes + checks)

    skewed = OutcomeTest(
        "live-baccarat-it", "LB-IT-99", 1000, 600, 300, 100, *(1.0,) * 3, 99.0, 1e-20
    )
    path = audit.write(audit.folder / "flagged.xlsx", outcomes=[*audit.outcomes, skewed])
    sheet = load_workbook(path)["Outcome tests"]
    last = sheet.max_row
    assert sheet.cell(last, 2).value == "LB-IT-99" and sheet.cell(last, 13).value == "yes"
    assert {cell.fill.fgColor.rgb for cell in sheet[last]} == {"FFFCE4E4"}
    assert sheet.cell(2, 13).value == "no" and sheet.cell(2, 1).fill.fill_type is None


# --- untrusted text ----------------------------------------------------------------------------


@pytest.mark.parametrize("which", ["workbook", "hostile_workbook"])
def test_no_cell_anywhere_is_a_formula_or_an_error(audit, which):
    path = getattr(audit, which)
    workbook = load_workbook(path)
    for sheet in workbook:
        for row in sheet.iter_rows():
            for cell in row:
                assert cell.data_type not in ("f", "e"), (sheet.title, cell.coordinate)
    with zipfile.ZipFile(path) as archive:
        for name in archive.namelist():
            if name.startswith("xl/worksheets/"):
                xml = archive.read(name).decode("utf-8")
                assert "<f>" not in xml and "<f " not in xml and 't="e"' not in xml, name


def test_every_amount_and_rate_is_written_with_its_own_digits(audit):
    """openpyxl writes a number through a binary float (``"%.16g"``): the month's tie payouts
    of 69,643.35 were written 69643.35000000001, an RTP of 0.8564 as 0.8564000000000001, and
    about a hundred more, which add up to other figures than the report's and ``--json``'s.
    Each amount and rate is written with the digits of its exact value (a statistic, computed
    in floating point, keeps its float's)."""
    numbers = written_numbers(audit.workbook)
    assert len(numbers) > 20 and ("Summary", "G") in numbers  # the stakes, among others
    assert {where: values for where, values in numbers.items() if noisy(values)} == {}


def test_hostile_text_stays_verbatim_text(audit):
    workbook = load_workbook(audit.hostile_workbook)
    findings = [row for row in workbook["Findings"].iter_rows(min_row=2) if row[3].value == "=1+1"]
    assert len(findings) == 1
    cells = findings[0]
    assert [cells[i].value for i in (3, 4, 9, 10)] == ["=1+1", FORMULA, "#N/A", "=evil.jsonl:7"]
    assert all(cells[i].data_type == "s" for i in (3, 4, 9, 10, 11))
    message = cells[11].value
    assert len(message) == TEXT_LIMIT and message.startswith(FORMULA + " xxx")
    assert message.endswith("… [cut: 40,027 characters in all]")

    raw = {
        row[1].value: row[6]
        for row in workbook["Rejected records"].iter_rows(min_row=2)
        if row[0].value == audit.logs["hostile"]
    }
    assert {line: cell.value for line, cell in raw.items()} == {
        1: FORMULA,
        2: "=1+1",
        3: "#N/A",
        4: '{"bell": "\\x07"',
    }
    assert {cell.data_type for cell in raw.values()} == {"s"}


def test_every_sheet_prints_the_operator_s_name_as_it_is_written(audit, tmp_path):
    """Issue 23, 15: the operator's name in every sheet's print header, an ``&[Page]`` in it
    printed as typed, not as the page number."""
    config = replace(audit.config, name=HEADER_CODES_NAME)
    path = tmp_path / "audit.xlsx"
    write_audit_workbook(
        path,
        period_ledger(audit.connection, audit.result.month),
        config,
        result=audit.result,
        outcomes=audit.outcomes,
        rtp=audit.rtp,
        as_of=AS_OF,
        tool_version=VERSION,
        audit=MONTH_AUDIT,
        shoes=SHOES,
    )
    printed = printed_headers(path.read_bytes())
    assert len(printed) == len(SHEETS)
    for sections in printed:
        assert sections["oddHeader.C"] == f"{HEADER_CODES_NAME}, period {MONTH}"
        assert sections["oddFooter.R"] == "Page «P» of «N»"


def test_cell_text_escapes_what_xml_cannot_hold_and_cuts_long_text():
    assert cell_text("a\x00b\x1fc\td\ne") == "a\\x00b\\x1fc\td\ne"
    # a byte of a name that is not UTF-8 as a page shows it; a lone surrogate as its escape
    assert cell_text("lone \udc80 byte \ud800 surrogate \ufffe") == (
        "lone \\x80 byte \\ud800 surrogate \\ufffe"
    )
    assert cell_text("=1+1") == "=1+1"  # kept as is: the cell type keeps it from being a formula
    assert cell_text("é" * TEXT_LIMIT) == "é" * TEXT_LIMIT
    cut = cell_text("é" * (TEXT_LIMIT + 1))
    assert len(cut) == TEXT_LIMIT and cut.endswith("[cut: 32,001 characters in all]")


# --- reproducible, atomic files ----------------------------------------------------------------


def test_same_inputs_give_the_same_bytes_with_pinned_dates(audit, tmp_path):
    first = audit.write(tmp_path / "first.xlsx")
    second = audit.write(tmp_path / "second.xlsx")

    def digest(path: Path) -> str:
        return hashlib.sha256(path.read_bytes()).hexdigest()

    assert digest(first) == digest(second) == digest(audit.workbook)
    with zipfile.ZipFile(first) as archive:
        assert {info.date_time for info in archive.infolist()} == {(2026, 11, 30, 0, 0, 0)}
    properties = load_workbook(first).properties
    assert properties.created == properties.modified == datetime(2026, 11, 30)
    assert properties.creator == f"baccarat-report {VERSION}"
    later = audit.write(tmp_path / "later.xlsx", as_of=date(2026, 12, 1))
    assert digest(later) != digest(first)


def test_a_failed_write_leaves_the_old_file_and_no_temporary_file(audit, tmp_path, monkeypatch):
    target = audit.write(tmp_path / "audit.xlsx")
    before = target.read_bytes()

    def broken(*arguments):
        raise RuntimeError("disk full")

    monkeypatch.setattr(reporting.presentation.audit_xlsx, "_write_rtp_checks", broken)
    streams = list(openpyxl_temporary_files)
    with pytest.raises(RuntimeError, match="disk full"):
        audit.write(target, as_of=date(2027, 1, 1))
    assert target.read_bytes() == before
    assert sorted(path.name for path in tmp_path.iterdir()) == ["audit.xlsx"]
    # the sheets already streamed to openpyxl's temporary files were closed and deleted
    assert openpyxl_temporary_files == streams


# --- golden Summary ----------------------------------------------------------------------------


def summary_dump(path: Path) -> str:
    """Every non-empty Summary cell with its type and format, then the sheet's layout."""
    sheet = load_workbook(path)["Summary"]
    lines = []
    for row in sheet.iter_rows():
        for cell in row:
            if cell.value is not None:
                style = "bold" if cell.font.bold else ""
                lines.append(
                    f"{cell.coordinate}\t{cell.data_type}\t{cell.number_format}\t{style}"
                    f"\t{cell.value!r}"
                )
    lines.append(f"freeze_panes\t{sheet.freeze_panes}")
    lines.append(f"auto_filter\t{sheet.auto_filter.ref}")
    lines.append(f"print_title_rows\t{sheet.print_title_rows}")
    lines.append(
        "column_widths\t"
        + " ".join(f"{key}={dim.width:g}" for key, dim in sheet.column_dimensions.items())
    )
    return "\n".join(lines) + "\n"


def test_summary_matches_the_golden_dump(audit):
    dump = summary_dump(audit.workbook)
    if os.environ.get("UPDATE_GOLDEN") == "1":
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text(dump, encoding="utf-8")
    assert dump == GOLDEN.read_text(encoding="utf-8")


# --- a provider's export: bets the tool does not settle, fields it lacks -----------------------


@pytest.fixture(scope="module")
def export_audit(tmp_path_factory, operator_config) -> tuple[Path, VerifyResult]:
    """Italy, October, as an export without shoe ids or placement times loads it: two rounds,
    one holding a player tiger bet; Greece complete."""
    folder = tmp_path_factory.mktemp("export-audit")
    connection = connect(folder / "store.sqlite")
    no_shoe = {"shoe_id": None, "hand_no": None}
    store_records(
        connection,
        [
            round_record("R-1", bet_record("R-1", "B-1", placed_at=None), **no_shoe),
            round_record(
                "R-2",
                bet_record("R-2", "B-2", bet_type="player", stake_cents=1000, payout_cents=2000),
                bet_record(
                    "R-2",
                    "B-7",
                    bet_type="BC_PLAYER_TIGER",
                    stake_cents=500,
                    payout_cents=6000,
                    placed_at=None,
                ),
                **no_shoe,
            ),
            round_record("G-1", bet_record("G-1", "B-9"), game_id="live-baccarat-gr"),
        ],
        file_name="export.json",
    )
    result = verify(connection, operator_config, MONTH)
    arguments = (
        result,
        outcome_tests(result.tables, operator_config.games),
        rtp_checks(result.bet_totals, operator_config.games),
    )
    path = folder / "audit.xlsx"
    ledger = period_ledger(connection, MONTH)
    write_audit_workbook(
        path, ledger, operator_config, *arguments, as_of=AS_OF, tool_version=VERSION
    )
    again = folder / "again.xlsx"
    write_audit_workbook(
        again, ledger, operator_config, *arguments, as_of=AS_OF, tool_version=VERSION
    )
    connection.close()
    assert again.read_bytes() == path.read_bytes()  # the same bytes for the same inputs
    return path, result


def test_the_checks_not_run_sheet_names_each_check_with_counts_as_numbers(export_audit):
    path, result = export_audit
    sheet = load_workbook(path)["Checks not run"]
    assert [cell.value for cell in sheet[1]] == HEADERS["Checks not run"]
    assert list(sheet.iter_rows(min_row=2, values_only=True)) == [
        ("live-baccarat-it", "late_bet", 2, 3, "bets", "no placed_at"),
        ("live-baccarat-it", "shoe_card_count", 2, 2, "rounds", "no shoe_id"),
    ]
    for row in sheet.iter_rows(min_row=2):
        assert [cell.data_type for cell in row] == ["s", "s", "n", "n", "s", "s"]
        assert row[2].number_format == row[3].number_format == "#,##0"
    assert (sheet.freeze_panes, sheet.auto_filter.ref, sheet.print_title_rows) == (
        "A2",
        "A1:F3",
        "$1:$1",
    )
    assert sheet.page_setup.orientation == "landscape"
    assert len(result.checks_not_run) == 2


def test_the_summary_counts_the_checks_not_run_and_every_bet_of_the_month(export_audit):
    path, _result = export_audit
    sheet = load_workbook(path)["Summary"]
    labels = {sheet.cell(row, 1).value: sheet.cell(row, 2).value for row in range(2, 10)}
    assert labels["Checks not run"] == 2
    # A count above the table is emphasised when it is not zero, as docs/compliance says, and
    # stays unruled like the lines around it.
    cells = {sheet.cell(row, 1).value: sheet.cell(row, 2) for row in range(2, 13)}
    emphasised = cells["Checks not run"]
    assert emphasised.font.bold and emphasised.font.color.rgb == "FF9C0006"
    assert emphasised.border.left.style is None
    assert cells["RTP checks outside 99.9%"].value == 0
    assert not cells["RTP checks outside 99.9%"].font.bold
    # Four bets in the month; the tiger bet is not checked: counted apart, never as checked.
    assert (labels["Bets checked"], labels["Bets not verified"]) == (3, 1)
    # a workbook of verify's (no month registers nor shoes: no availability lines, no shoes
    # lines): four rows higher
    top = next(row for row in range(1, 20) if sheet.cell(row, 1).value == "Game")
    assert top == SUMMARY_HEADER_ROW - 4
    header = [cell.value for cell in sheet[top]]
    rows = {row[0]: row for row in sheet.iter_rows(min_row=top + 1, values_only=True)}
    italy = dict(zip(header, rows["live-baccarat-it"], strict=True))
    # The tiger bet counts in the bets, stakes, payouts and actual RTP ...
    assert (italy["Bets"], money(italy["Stakes"]), money(italy["Payouts"])) == (
        3,
        Decimal("40.00"),
        Decimal("80.00"),
    )
    assert Decimal(str(italy["Actual RTP"])) == Decimal("2")
    # ... not in the theory: the stakes-weighted RTP of the banker and player bets.
    theory = load_workbook(path)["RTP checks"]
    weights = {row[1]: row for row in theory.iter_rows(min_row=2, values_only=True)}
    assert set(weights) == {"banker", "player"}  # the tiger bet has no RTP check
    assert (italy["Bet not verified"], italy["Findings"]) == (1, 1)
    notes = [row[0] for row in sheet.iter_rows(values_only=True) if row[0]]
    assert any(str(note).startswith("Bets of a type this tool does not settle") for note in notes)


def test_a_percentage_cell_holds_the_figure_it_shows_rounded_once():
    """An RTP of exactly 99.99495% is 99.99% on the disclosure and in the report; the
    workbook stored 0.999950 (six decimals, rounded up) in a 0.00% cell, which a spreadsheet
    rounds again and shows as 100.00%. The cell holds the figure shown, rounded once."""
    from reporting.engine.money import round_fraction
    from reporting.presentation.audit_xlsx.cells import PERCENT_FORMAT, _ratio

    rtp = Fraction(1999899, 2000000)  # 19,998.99 paid on 20,000.00 staked
    assert _ratio(rtp) == Decimal("0.9999") and PERCENT_FORMAT == "0.00%"
    assert f"{_ratio(rtp) * 100:.2f}%" == f"{round_fraction(rtp * 100, 2)}%" == "99.99%"
    assert _ratio(Fraction(99995, 100000)) == Decimal("1.0000")  # a half: up, as the pages


def test_an_amount_past_the_digits_a_sheet_keeps_is_its_exact_text():
    """A spreadsheet keeps 15 significant digits of a number: 10**15 cents and more (a hostile
    log's totals) would be rounded, so they are written as text; anything less is a number."""
    from reporting.presentation.audit_xlsx.cells import _money

    largest_number = 10**SHEET_DIGITS - 1
    assert _money(largest_number) == Decimal("9999999999999.99")
    assert _money(-largest_number) == Decimal("-9999999999999.99")
    assert _money(10**SHEET_DIGITS) == "10,000,000,000,000.00"
    assert _money(2**64 + 1) == "184,467,440,737,095,516.17"
    assert _money(None) is None
