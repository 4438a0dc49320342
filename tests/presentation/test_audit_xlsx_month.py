"""The month's sheets of the audit workbook (reporting.presentation.audit_xlsx): each shows
exactly the audit records it was given (void register, money, activity, gaps, shoes, limits,
disclosures, sign-off and provenance), the charts are native charts whose series read the
workbook's own cells, and the same inputs give the same bytes.

The records are written out by hand (tests/helpers.py ``month_audit_records``) beside a store
of four rounds of two games, one with a payout mismatch, so the Findings and Sign-off sheets
have a finding to show.
"""

from __future__ import annotations

import dataclasses
import re
import sqlite3
import zipfile
from dataclasses import dataclass, replace
from datetime import date, datetime
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from xml.etree import ElementTree

import pytest
from helpers import bet_record, month_audit_records, round_record, store_records
from openpyxl import load_workbook
from openpyxl.utils import column_index_from_string

from reporting.config.loader import OperatorConfig
from reporting.engine.money import cents_to_decimal, round_fraction
from reporting.figures.audit_records import FINDING_SEVERITY, MonthAudit
from reporting.figures.ledger import period_ledger
from reporting.figures.statistics import OutcomeTest, RtpCheck, outcome_tests, rtp_checks
from reporting.presentation.audit_xlsx import MONTH_SHEETS, SHEETS, write_audit_workbook
from reporting.presentation.audit_xlsx.cells import _ALERT_COLOR, PERCENT_PLACES
from reporting.presentation.bet_words import bet_names
from reporting.presentation.publisher import licence_words
from reporting.presentation.sign_off import ATTESTATION
from reporting.records import REJECT_REASONS
from reporting.store.schema import connect
from reporting.verify.run import VerifyResult, verify

AS_OF = date(2026, 11, 30)
VERSION = "0.0.0-test"
MONTH = "2026-10"
FLAGGED = "FFFCE4E4"
CHART_NS = {
    "c": "http://schemas.openxmlformats.org/drawingml/2006/chart",
    "a": "http://schemas.openxmlformats.org/drawingml/2006/main",
}

#: The decimals of a ratio a percentage cell holds: those it shows (99.99% is 0.9999).
SHOWN = PERCENT_PLACES + 2


@dataclass
class Month:
    folder: Path
    connection: sqlite3.Connection
    result: VerifyResult
    outcomes: list[OutcomeTest]
    rtp: list[RtpCheck]
    audit: MonthAudit
    shoes: tuple
    path: Path
    config: OperatorConfig

    def write(self, path: Path, **changes) -> Path:
        arguments = {
            "result": self.result,
            "outcomes": self.outcomes,
            "rtp": self.rtp,
            "as_of": AS_OF,
            "tool_version": VERSION,
            "audit": self.audit,
            "shoes": self.shoes,
        } | changes
        ledger = period_ledger(self.connection, arguments["result"].month)
        write_audit_workbook(path, ledger, self.config, **arguments)
        return path


@pytest.fixture(scope="module")
def month(tmp_path_factory, operator_config) -> Month:
    folder = tmp_path_factory.mktemp("audit-month")
    connection = connect(folder / "store.sqlite")
    store_records(
        connection,
        [
            # player 9H KS beats banker 5D 2C: the lost banker bet is logged as paying 0.01
            round_record("R-1", bet_record("R-1", "B-1", account="acc-7", payout_cents=1)),
            round_record(
                "R-2",
                bet_record("R-2", "B-2", bet_type="player", stake_cents=1000, payout_cents=2000),
            ),
            round_record("R-3", bet_record("R-3", "B-3"), table_id="LB02", shoe_id="S-2"),
            round_record(
                "D-1",
                bet_record("D-1", "B-4", currency="DKK", stake_cents=10_000),
                game_id="live-baccarat-dk",
                table_id="DK01",
                shoe_id="D-1",
            ),
        ],
        file_name="m.jsonl",
    )
    result = verify(connection, operator_config, MONTH)
    audit, shoes = month_audit_records()
    found = Month(
        folder,
        connection,
        result,
        outcome_tests(result.tables, operator_config.games),
        rtp_checks(result.bet_totals, operator_config.games),
        audit,
        shoes,
        folder / "audit.xlsx",
        operator_config,
    )
    found.write(found.path)
    yield found
    connection.close()


def table(path: Path, name: str, header_row: int = 1) -> list[dict]:
    """A sheet's table as dicts by header, up to the first empty row."""
    sheet = load_workbook(path)[name]
    header = [cell.value for cell in sheet[header_row]]
    rows = []
    for row in sheet.iter_rows(min_row=header_row + 1, values_only=True):
        if all(value is None for value in row):
            break
        rows.append({key: value for key, value in zip(header, row, strict=True) if key})
    return rows


def money(value: float | None) -> Decimal | None:
    return None if value is None else Decimal(str(value)).quantize(Decimal("0.01"))


def fills(path: Path, name: str) -> list[str | None]:
    """Per table row of a sheet, the fill colour of its first cell (None: unfilled)."""
    sheet = load_workbook(path)[name]
    colours = []
    for row in sheet.iter_rows(min_row=2):
        if all(cell.value is None for cell in row):
            break
        fill = row[0].fill
        colours.append(fill.fgColor.rgb if fill.fill_type == "solid" else None)
    return colours


# --- which sheets ------------------------------------------------------------------------------


def test_without_the_month_records_the_workbook_keeps_its_sheets_and_has_no_chart(month):
    plain = month.write(month.folder / "plain.xlsx", audit=None, shoes=None)
    assert load_workbook(plain).sheetnames == [
        name for name in SHEETS if name not in MONTH_SHEETS and name != "Shoes"
    ]
    with zipfile.ZipFile(plain) as archive:
        assert not [name for name in archive.namelist() if name.startswith("xl/charts/")]
    only_shoes = month.write(month.folder / "shoes.xlsx", audit=None)
    assert "Shoes" in load_workbook(only_shoes).sheetnames
    assert load_workbook(month.path).sheetnames == list(SHEETS)


def test_same_inputs_give_the_same_bytes(month, tmp_path):
    again = month.write(tmp_path / "again.xlsx")
    assert again.read_bytes() == month.path.read_bytes()


# --- registers and money -----------------------------------------------------------------------


def test_the_void_register_lists_every_void_round_with_its_reason_and_source(month):
    rows = table(month.path, "Void rounds")
    assert [
        (row["Round"], row["Game"], row["Table"], row["Shoe"], row["Hand"], row["Reason"])
        for row in rows
    ] == [
        (v.round_id, v.game_id, v.table_id, v.shoe_id, v.hand_no, v.void_reason)
        for v in month.audit.void_rounds
    ]
    for row, void in zip(rows, month.audit.void_rounds, strict=True):
        assert row["Settled at (UTC)"] == void.settled_at
        assert (row["Bets"], row["Currency"]) == (void.bets, void.currency)
        assert (money(row["Stakes"]), money(row["Refunded"])) == (
            cents_to_decimal(void.stakes),
            cents_to_decimal(void.refunded),
        )
        assert row["Source"] == f"{void.source_file}:{void.source_line}"
    # the round whose bets were not refunded stands out; the hostile file name stays text
    assert fills(month.path, "Void rounds") == [None, FLAGGED]
    assert load_workbook(month.path)["Void rounds"]["L3"].data_type == "s"


def test_money_per_game_and_currency_shows_the_month_then_tables_then_days(month):
    rows = table(month.path, "Money")
    assert [(row["Game"], row["Table"], row["Day"]) for row in rows] == [
        ("live-baccarat-dk", "All tables", None),
        ("live-baccarat-dk", "DK01", None),
        ("live-baccarat-dk", "All tables", datetime(2026, 10, 3)),
        ("live-baccarat-it", "All tables", None),
        ("live-baccarat-it", "LB01", None),
        ("live-baccarat-it", "LB02", None),
        ("live-baccarat-it", "All tables", datetime(2026, 10, 3)),
        ("live-baccarat-it", "All tables", datetime(2026, 10, 4)),
    ]
    records = {(r.game_id, r.table_id or "All tables", r.day): r for r in month.audit.money}
    for row in rows:
        day = row["Day"].date() if row["Day"] else None
        record = records[(row["Game"], row["Table"], day)]
        assert row["Currency"] == record.currency
        assert (row["Rounds settled"], row["Rounds void"], row["Bets"], row["Accounts"]) == (
            record.rounds,
            record.void_rounds,
            record.bets,
            record.accounts,
        )
        assert [money(row[key]) for key in ("Stakes", "Payouts", "GGR")] == [
            cents_to_decimal(cents) for cents in (record.stakes, record.payouts, record.ggr)
        ]
    # the tables of a game add up to its month, and so do its days
    for game in ("live-baccarat-dk", "live-baccarat-it"):
        of_game = [row for row in rows if row["Game"] == game]
        month_row = of_game[0]
        for part in (
            [row for row in of_game if row["Table"] != "All tables"],
            [row for row in of_game if row["Day"] is not None],
        ):
            for key in ("Stakes", "Payouts", "GGR"):
                assert sum(money(row[key]) for row in part) == money(month_row[key])
    sheet = load_workbook(month.path)["Money"]
    assert sheet["A2"].font.bold and not sheet["A3"].font.bold  # the month row of dk
    assert sheet["I2"].number_format == "#,##0.00" and sheet["D4"].number_format == "yyyy-mm-dd"
    notes = [row[0] for row in sheet.iter_rows(min_row=len(rows) + 2, values_only=True)]
    assert any(note and "no figure adds two currencies" in note for note in notes)


def test_activity_per_table_day_and_hour_and_the_availability_gaps(month):
    rows = table(month.path, "Activity")
    assert [
        (row["Game"], row["Table"], row["Day"].date(), row["Hour"], row["Rounds"], row["Bets"])
        for row in rows
    ] == sorted(
        (a.game_id, a.table_id, a.day, a.hour, a.rounds, a.bets) for a in month.audit.activity
    )
    currency = {"live-baccarat-dk": "DKK", "live-baccarat-it": "EUR"}
    assert all(row["Currency"] == currency[row["Game"]] for row in rows)
    assert [money(row["Stakes"]) for row in rows] == [Decimal("3000.00")] * 3
    gaps = table(month.path, "Availability gaps")
    assert [tuple(row.values()) for row in gaps] == [
        (g.game_id, g.table_id, g.after_round, g.before_round, g.start, g.end, g.minutes)
        for g in month.audit.gaps
    ]


def test_shoes_sheet_shows_each_shoe_and_emphasises_a_shoe_with_findings(month):
    rows = table(month.path, "Shoes")
    ordered = sorted(
        month.shoes, key=lambda s: (s.game_id, s.table_id, s.first_settled_at, s.shoe_id)
    )
    assert [tuple(row.values()) for row in rows] == [
        (
            *(s.game_id, s.table_id, s.shoe_id, s.first_settled_at, s.last_settled_at),
            *(s.rounds, s.banker_wins, s.player_wins, s.ties, s.banker_pairs, s.player_pairs),
            *(s.cards_dealt, s.void_rounds, s.hands_missing, s.findings),
        )
        for s in ordered
    ]
    assert fills(month.path, "Shoes") == [None, FLAGGED, None]  # LB01's shoe holds 2 findings


def test_limits_and_disclosure_check(month):
    limits = table(month.path, "Limits")
    assert [
        (row["Game"], row["Bet type"], row["Currency"], money(row["Minimum"]))
        + (money(row["Maximum"]), row["Below the minimum"], row["Above the maximum"])
        for row in limits
    ] == sorted(
        (limit.game_id, limit.bet_type, limit.currency, cents_to_decimal(limit.minimum))
        + (cents_to_decimal(limit.maximum), limit.below_minimum, limit.above_maximum)
        for limit in month.audit.limits
    )
    checks = {row["Game"]: row for row in table(month.path, "Disclosure check")}
    for record in month.audit.disclosures:
        row = checks[record.game_id]
        assert Decimal(str(row["Win percentage"])) == record.win_percentage / 100
        assert row["On its pages"] == record.on_the_pages
        assert (row["Regulator"], row["Reference month"], row["Rounds"]) == (
            record.regulator or "none configured",
            record.reference_month,
            record.rounds,
        )
        assert row["Updated on"].date() == record.updated_on
        assert (money(row["Stakes"]), money(row["Payouts"])) == (
            cents_to_decimal(record.stakes),
            cents_to_decimal(record.payouts),
        )
        declared = row["Declared RTP"]
        assert (None if declared is None else Decimal(str(declared))) == (
            None if record.declared_rtp is None else record.declared_rtp / 100
        )
        assert Decimal(str(row["Best theoretical RTP"])) == round_fraction(
            record.best_theoretical_rtp / 100, 6
        )
        assert row["Warnings"] == ("\n".join(record.warnings) or None)
    assert fills(month.path, "Disclosure check") == [None, FLAGGED]  # dk, then it: warned


def test_rtp_checks_carry_the_band_s_lower_and_upper_bound(month):
    """A band wider than its RTP (a month's few bets) is bounded at 0%: a regulator read a
    lower bound of -185.08% for Dragon 7."""
    rows = table(month.path, "RTP checks")
    assert len(rows) == len(month.rtp) == 3
    assert any(check.theoretical_rtp < Fraction(check.bound) for check in month.rtp)
    for row, check in zip(rows, month.rtp, strict=True):
        bound = Fraction(check.bound)
        assert Decimal(str(row["Lower bound"])) == round_fraction(
            max(check.theoretical_rtp - bound, Fraction(0)), SHOWN
        )
        assert Decimal(str(row["Upper bound"])) == round_fraction(
            check.theoretical_rtp + bound, SHOWN
        )


# --- findings and sign-off ---------------------------------------------------------------------


def test_findings_show_severity_account_stake_and_an_empty_remarks_column(month):
    (row,) = table(month.path, "Findings")
    assert row["Severity"] == str(FINDING_SEVERITY["payout_mismatch"]) == "high"
    assert (row["Kind"], row["Round"], row["Bet"], row["Account"]) == (
        "payout_mismatch",
        "R-1",
        "B-1",
        "acc-7",
    )
    assert (money(row["Stake"]), money(row["Logged payout"])) == (
        Decimal("25.00"),
        Decimal("0.01"),
    )
    assert row["Source"] == "m.jsonl:1" and row["Remarks"] is None
    sheet = load_workbook(month.path)["Findings"]
    assert sheet["M2"].border.left.style == "thin"  # a ruled box to write in


def test_sign_off_has_the_period_a_reviewer_block_remarks_per_kind_and_provenance(month):
    sheet = load_workbook(month.path)["Sign-off"]
    values = {
        sheet.cell(row, 1).value: sheet.cell(row, 2).value for row in range(1, sheet.max_row + 1)
    }
    assert values["Period"] == MONTH and values["Operator"] == month.config.name
    # The operator's licence in each jurisdiction of its games, in its pages' words.
    jurisdictions = {game.jurisdiction for game in month.config.games.values()}
    assert jurisdictions == set(month.config.operator.licences) == {"IT", "DK", "GR"}
    for code, number in month.config.operator.licences.items():
        assert values[f"Licence, {code}"] == licence_words(code) % {"number": number}
    assert values["Licence, IT"] == "ADM concession no. ADM-0000-ESEMPIO"
    header = next(row for row in range(1, 30) if sheet.cell(row, 1).value == "Finding kind")
    reviewer = {sheet.cell(row, 1).value: row for row in range(1, header)}
    assert sheet.cell(reviewer["Reviewer"] + 1, 1).value == ATTESTATION
    as_of = sheet.cell(reviewer["As of"], 2)  # a date, on the left as the period above it
    assert as_of.number_format == "yyyy-mm-dd" and as_of.alignment.horizontal == "left"
    assert reviewer["Name"] == reviewer["Reviewer"] + 2
    for label in ("Name", "Role", "Date", "Signature"):
        boxes = [sheet.cell(reviewer[label], column) for column in (2, 3, 4)]
        assert all(box.value is None and box.border.top.style == "thin" for box in boxes)
    assert sheet.row_dimensions[reviewer["Signature"]].height == 45
    assert header == reviewer["Signature"] + 1
    assert [cell.value for cell in sheet[header]][:4] == [
        "Finding kind",
        "Severity",
        "Findings",
        "Remarks",
    ]
    assert sheet.freeze_panes == "B1"  # under the reviewer's block: the labels in view
    assert [cell.value for cell in sheet[header + 1]][:4] == ["Payout mismatch", "high", 1, None]
    assert sheet.auto_filter.ref == f"A{header}:D{header + 1}"
    provenance = month.audit.provenance
    assert values["Tool version"] == f"baccarat-report {provenance.tool_version}"
    assert values["Configuration"] == provenance.configuration
    assert values["Configuration SHA-256"] == provenance.configuration_sha256
    assert values["Store digest (SHA-256)"] == provenance.store_digest
    rows = list(sheet.iter_rows(values_only=True))
    start = [row[0] for row in rows].index("File")
    assert rows[start] == ("File", "SHA-256", "Size (bytes)", "Format", "Profile", "Rounds loaded")
    assert rows[start + 1 :] == [
        ("m.jsonl", "a" * 64, 12_345, "jsonl", "spec", 40),
        ("export/rounds.csv + export/bets.csv", "c" * 64, 999, "csv", None, 10),
    ]
    assert sheet.page_setup.fitToWidth == 1


def test_a_jurisdiction_without_a_licence_number_is_said_and_stands_out(month, tmp_path):
    """A game's jurisdiction whose number the configuration lacks is a line of the sign-off,
    emphasised as an alert, beside the numbers it gives."""
    operator = dataclasses.replace(month.config.operator, licences={"IT": "ADM-1"})
    config = dataclasses.replace(month.config, operator=operator)
    sheet = load_workbook(dataclasses.replace(month, config=config).write(tmp_path / "a.xlsx"))[
        "Sign-off"
    ]
    rows = {sheet.cell(row, 1).value: sheet.cell(row, 2) for row in range(1, 12)}
    assert [label for label in rows if str(label).startswith("Licence")] == [
        "Licence, DK",
        "Licence, GR",
        "Licence, IT",
    ]
    assert rows["Licence, IT"].value == "ADM concession no. ADM-1"
    assert not rows["Licence, IT"].font.bold
    for code in ("DK", "GR"):
        cell = rows[f"Licence, {code}"]
        assert cell.value == (
            f'not given: set licences = {{ {code} = "..." }} under [operator] in the configuration'
        )
        assert cell.font.bold and cell.font.color.rgb == _ALERT_COLOR


# --- charts ------------------------------------------------------------------------------------


def charts(path: Path) -> list[ElementTree.Element]:
    with zipfile.ZipFile(path) as archive:
        names = sorted(
            (name for name in archive.namelist() if re.fullmatch(r"xl/charts/chart\d+\.xml", name)),
            key=lambda name: int(re.search(r"\d+", name)[0]),
        )
        return [ElementTree.fromstring(archive.read(name)) for name in names]


def chart_title(chart: ElementTree.Element) -> str:
    return "".join(
        t.text for t in chart.find("c:chart/c:title", CHART_NS).iter(f"{{{CHART_NS['a']}}}t")
    )


def cells(workbook, reference: str) -> list:
    """The values of the cells a chart reference (``'Sheet'!$E$2:$E$3``) names."""
    sheet_name, area = reference.rsplit("!", 1)
    sheet = workbook[sheet_name.strip("'")]
    first, _, last = area.replace("$", "").partition(":")
    last = last or first
    column = re.match(r"[A-Z]+", first)[0]
    assert column == re.match(r"[A-Z]+", last)[0]
    rows = range(int(first[len(column) :]), int(last[len(column) :]) + 1)
    return [sheet.cell(row, column_index_from_string(column)).value for row in rows]


def series_of(chart: ElementTree.Element, kind: str) -> list[dict[str, str]]:
    found = []
    for series in chart.findall(f"c:chart/c:plotArea/c:{kind}/c:ser", CHART_NS):
        found.append(
            {
                part: series.find(f"c:{part}//c:f", CHART_NS).text
                for part in ("tx", "cat", "val")
                if series.find(f"c:{part}//c:f", CHART_NS) is not None
            }
        )
    return found


def test_the_charts_are_native_and_read_the_workbook_s_cells(month):
    found = charts(month.path)
    titles = [chart_title(chart) for chart in found]
    assert titles == [
        "live-baccarat-dk: outcomes against expectation",
        "live-baccarat-dk: RTP per bet type against its 99.9% band;"
        " small volume, band off the axis: Banker",
        "live-baccarat-dk: cumulative RTP per day (DKK)",
        "live-baccarat-it: outcomes against expectation",
        "live-baccarat-it: RTP per bet type against its 99.9% band;"
        " small volume, band off the axis: Banker, Player",
        "live-baccarat-it: cumulative RTP per day (EUR)",
    ]
    workbook = load_workbook(month.path)
    for chart, title in zip(found, titles, strict=True):
        game = title.split(":")[0]
        if "outcomes" in title:
            bars = series_of(chart, "barChart")
            assert [cells(workbook, s["tx"])[0] for s in bars] == [
                "Banker",
                "Banker expected",
                "Player",
                "Player expected",
                "Tie",
                "Tie expected",
            ]
            tables = cells(workbook, bars[0]["cat"])
            expected = [t for t in month.outcomes if t.game_id == game]
            assert tables == [t.table_id for t in expected]
            assert cells(workbook, bars[0]["val"]) == [t.banker for t in expected]
            assert cells(workbook, bars[5]["val"]) == pytest.approx(
                [t.expected_tie for t in expected]
            )
            assert (
                chart.find("c:chart/c:plotArea/c:barChart/c:grouping", CHART_NS).get("val")
                == "clustered"
            )
        elif "RTP per bet type" in title:
            bars, lines = series_of(chart, "barChart"), series_of(chart, "lineChart")
            assert [cells(workbook, s["tx"])[0] for s in bars + lines] == [
                "Actual RTP",
                "Theoretical RTP",
                "Lower bound",
                "Upper bound",
            ]
            checks = [c for c in month.rtp if c.game_id == game]
            # the bars named as the pages name each bet (Banker, not banker)
            names = dict(bet_names(month.config, "en"))
            assert cells(workbook, bars[0]["cat"]) == [names[c.bet_type] for c in checks]
            theoretical = cells(workbook, bars[1]["val"])
            assert [Decimal(str(v)) for v in theoretical] == [
                round_fraction(c.theoretical_rtp, SHOWN) for c in checks
            ]
            # A bound is a mark per bet type: no line between bet types, smoothed or not
            # (LibreOffice drew a smoothed one, diving below 0%).
            for bound in chart.findall("c:chart/c:plotArea/c:lineChart/c:ser", CHART_NS):
                assert bound.find("c:smooth", CHART_NS).get("val") == "0"
                assert bound.find("c:spPr/a:ln/a:noFill", CHART_NS) is not None
                # its dash drawn in black, fill and edge: LibreOffice drew it white on white
                marker = bound.find("c:marker/c:spPr", CHART_NS)
                assert marker.find("a:solidFill/a:srgbClr", CHART_NS).get("val") == "000000"
                assert marker.find("a:ln/a:solidFill/a:srgbClr", CHART_NS).get("val") == "000000"
        else:
            (line,) = series_of(chart, "lineChart")
            assert cells(workbook, line["tx"]) == ["Cumulative RTP"]
            # the days as they were (not smoothed), labelled by their day of the month: 31
            # labels of "10-01" stood stacked a character a line in LibreOffice
            plot = chart.find("c:chart/c:plotArea", CHART_NS)
            assert plot.find("c:lineChart/c:ser/c:smooth", CHART_NS).get("val") == "0"
            assert plot.find("c:catAx/c:numFmt", CHART_NS).get("formatCode") == "d"
            # on their side: LibreOffice prints every label, and from the 10th they ran
            # together ("1011121314") on the printed sheet
            assert plot.find("c:catAx/c:txPr/a:bodyPr", CHART_NS).get("rot") == "-5400000"
            days = [r for r in month.audit.money if r.game_id == game and r.table_id is None]
            days = sorted((r for r in days if r.day is not None), key=lambda r: r.day)
            assert [d.date() for d in cells(workbook, line["cat"])] == [r.day for r in days]
            stakes = payouts = 0
            expected = []
            for row in days:
                stakes, payouts = stakes + row.stakes, payouts + row.payouts
                expected.append(round_fraction(Fraction(payouts, stakes), SHOWN))
            assert [Decimal(str(v)) for v in cells(workbook, line["val"])] == expected
    with zipfile.ZipFile(month.path) as archive:
        # every chart is drawn on the Charts sheet
        sheet_number = 1 + list(SHEETS).index("Charts")
        rels = archive.read(f"xl/worksheets/_rels/sheet{sheet_number}.xml.rels").decode()
        assert "drawing" in rels
        targets = re.findall(
            r'Target="/xl/charts/(chart\d+\.xml)"',
            archive.read("xl/drawings/_rels/drawing1.xml.rels").decode(),
        )
        assert targets == [f"chart{number}.xml" for number in range(1, len(found) + 1)]
        # a game's three charts on a printed page of their own (a break before the second's)
        sheet = archive.read(f"xl/worksheets/sheet{sheet_number}.xml").decode()
        assert re.findall(r'<brk id="(\d+)"', sheet) == ["55"]


def test_the_cumulative_table_runs_over_the_days_of_each_game(month):
    rows = table(month.path, "Charts")
    assert [(row["Game"], row["Day"].date()) for row in rows] == [
        ("live-baccarat-dk", date(2026, 10, 3)),
        ("live-baccarat-it", date(2026, 10, 3)),
        ("live-baccarat-it", date(2026, 10, 4)),
    ]
    assert [money(row["Cumulative stakes"]) for row in rows] == [
        Decimal("3000.00"),
        Decimal("5500.00"),
        Decimal("10000.00"),
    ]
    assert [money(row["Cumulative payouts"]) for row in rows] == [
        Decimal("2900.00"),
        Decimal("5000.00"),
        Decimal("9500.00"),
    ]
    assert [Decimal(str(row["Cumulative RTP"])) for row in rows] == [
        Decimal("0.9667"),  # 2,900 / 3,000: 96.67%
        Decimal("0.9091"),
        Decimal("0.95"),
    ]


def test_a_month_without_records_writes_every_sheet_empty_and_no_chart(month, tmp_path):
    empty = replace(
        month.audit,
        void_rounds=(),
        money=(),
        activity=(),
        gaps=(),
        limits=(),
        disclosures=(),
        provenance=replace(month.audit.provenance, inputs=(), configuration=None),
    )
    path = month.write(tmp_path / "empty.xlsx", audit=empty, shoes=(), outcomes=[], rtp=[])
    workbook = load_workbook(path)
    assert workbook.sheetnames == list(SHEETS)
    for name in ("Void rounds", "Money", "Activity", "Availability gaps", "Shoes", "Charts"):
        assert table(path, name) == [], name
    # A table without rows says so under its header: printed, headers alone read as a failed
    # export.
    for name in ("Void rounds", "Money", "Availability gaps", "Shoes", "Limits"):
        sheet = workbook[name]
        top = int(sheet.auto_filter.ref.split(":")[0][1:])
        assert sheet.auto_filter.ref.endswith(str(top)), name  # the filter holds no row
        assert sheet.cell(top + 2, 1).value == "None this period.", name
    sign_off = {row[0]: row[1] for row in workbook["Sign-off"].iter_rows(values_only=True)}
    assert sign_off["Configuration"] == "the built-in catalogue"
    assert charts(path) == []


def test_the_charts_sheet_names_the_bands_too_wide_to_draw(month):
    sheet = load_workbook(month.path)["Charts"]
    notes = [row[0] for row in sheet.iter_rows(min_row=5, values_only=True) if row[0]]
    assert notes == [
        "live-baccarat-dk: Banker: bands wider than the RTP chart's axis (a small volume: only"
        " a large departure from the theory stands out).",
        "live-baccarat-it: Banker, Player: bands wider than the RTP chart's axis (a small"
        " volume: only a large departure from the theory stands out).",
    ]


def test_sign_off_gives_each_other_matter_of_the_summary_a_remarks_row(month):
    """A month without findings but with idle tables, draft pages or an RTP outside its bound
    read "No finding this period." and nothing else where the reviewer signs: each count the
    Summary emphasises has its own remarks row, and the rejected lines theirs. What a count
    names beside it on the Summary (the games not checked for availability, the months of
    rounds in no report), its row names too: a count alone named nothing the officer could
    look for."""
    workbook = load_workbook(month.path)
    summary = workbook["Summary"]
    emphasised = {}
    for row in range(2, summary.max_row + 1):
        label, count, named = (summary.cell(row, column) for column in (1, 2, 3))
        if label.value == "Game":
            break
        if count.font.color is not None and count.font.color.rgb == "FF9C0006":
            emphasised[f"{label.value}: {named.value}" if named.value else label.value] = (
                count.value
            )
    assert "Live games not checked for availability: ez-baccarat-it" in emphasised
    rejected = sum(
        row[1] for row in summary.iter_rows(values_only=True) if row[0] in REJECT_REASONS and row[1]
    )
    rows = list(workbook["Sign-off"].iter_rows(values_only=True))
    start = [row[0] for row in rows].index("Other matter")
    assert rows[start][:4] == ("Other matter", None, "Count", "Remarks")
    matters = {}
    for row in rows[start + 1 :]:
        if row[0] is None:
            break
        matters[row[0]] = row[2]
        assert row[3] is None  # the reviewer's to fill in
    assert emphasised, "the month has no emphasised count: the test would prove nothing"
    assert matters == emphasised | ({"Rejected lines": rejected} if rejected else {})
