"""The audit report a person reads (reporting.presentation.audit_report): the view model built
from verify's result, the month's audit records and the findings with their evidence; the
HTML page that shows every finding with its cards and bet; the shoes drawn with their
disputed hands marked; the files written byte-identical, the PDF tagged.

The store holds records written inline (tests/helpers.py): player 9H KS (9) beats banker
5D 2C (7), so the unpaid Player bets are payout mismatches (expected 50.00) and R-4's banker
third card on 7 breaks the drawing rule. The month's audit records are written here too: the
SQL that fills them is tested with it (tests/figures).
"""

from __future__ import annotations

import dataclasses
import io
import re
from dataclasses import replace
from datetime import date
from decimal import Decimal
from fractions import Fraction

import pytest
from helpers import alerts_of, faulted_october, pdf_text, store_records
from pypdf import PdfReader

from reporting.engine.games import ALWAYS_OPEN
from reporting.figures.audit import month_minutes
from reporting.figures.audit_records import (
    ActivityHour,
    AvailabilityGap,
    DisclosureCheck,
    InputFile,
    MoneyRow,
    MonthAudit,
    Provenance,
    Severity,
    VoidRound,
)
from reporting.figures.evidence import findings_with_evidence
from reporting.figures.statistics import OutcomeTest, RtpCheck, outcome_tests, rtp_checks
from reporting.presentation import charts, roads
from reporting.presentation.audit_report import (
    MAX_GAPS,
    MAX_INPUTS,
    MAX_LISTED_FILES,
    MAX_SHOES,
    MAX_TABLES,
    TABLES_PER_CHART,
    AuditReport,
    ShoeView,
    UncheckedAvailability,
    build_audit_report,
    cards_text,
    render_audit_html,
    write_audit_report,
)
from reporting.presentation.i18n import TEMPLATE_DIR
from reporting.presentation.pdf import lines_past
from reporting.records import Month
from reporting.store.schema import connect
from reporting.verify.run import verify

MONTH = "2026-10"
ITALY = "live-baccarat-it"
AS_OF = date(2026, 11, 2)


def money(table: str | None, day: int | None, stakes: int, payouts: int) -> MoneyRow:
    return MoneyRow(
        ITALY, table, None if day is None else date(2026, 10, day), "EUR", 4, 1, 5, 3,
        stakes, payouts,
    )  # fmt: skip


def input_file(name: str = "october.jsonl") -> InputFile:
    return InputFile(
        name, None, "ef" * 32, 1234, "jsonl", None, None, "2026-12-01T00:00:00Z", 4, 5, 0
    )


def month_audit(voids: int = 1, inputs: int = 1, tables: int = 1) -> MonthAudit:
    return MonthAudit(
        month=MONTH,
        void_rounds=tuple(
            VoidRound(
                f"V-{n}",
                ITALY,
                "LB01",
                "S-1",
                40 + n,
                "2026-10-04T10:00:00Z",
                "card misread",
                1,
                2500,
                2500,
                "EUR",
                "october.jsonl",
                100 + n,
            )  # fmt: skip
            for n in range(voids)
        ),
        money=(
            money(None, None, 12_500, 5_000),
            money("LB01", None, 12_500, 5_000),
            *(money(f"LB{n:02d}", None, 0, 0) for n in range(2, tables + 1)),
            money(None, 3, 10_000, 5_000),
            money(None, 4, 2_500, 0),
        ),
        activity=(),
        gaps=(
            AvailabilityGap(
                ITALY, "LB01", "R-3", "R-4", "2026-10-03T19:00:00Z", "2026-10-03T21:30:00Z", 150
            ),
        ),
        limits=(),
        disclosures=(
            DisclosureCheck(
                ITALY,
                "ADM",
                AS_OF,
                "2026-10",
                date(2026, 11, 1),
                Decimal("40.00"),
                4,
                12_500,
                5_000,
                "EUR",
                Decimal("98.94"),
                "banker",
                Fraction(9894, 100),
                ("the reference month has fewer than 1,000 rounds",),
            ),
        ),  # fmt: skip
        provenance=Provenance(
            "test",
            "operator.toml",
            "ab" * 32,
            "cd" * 32,
            (input_file(), *(input_file(f"inbox/LB01/{n:04d}.jsonl") for n in range(1, inputs))),
        ),
    )


@pytest.fixture
def store(tmp_path, operator_config):
    connection = connect(tmp_path / "store.sqlite")
    store_records(connection, faulted_october(), file_name="october.jsonl")
    yield connection
    connection.close()


def shoe(shoe_id: str, findings: int, marked=frozenset({2}), codes="T4 B6 P7p B8 T2 B9b"):
    return ShoeView(
        ITALY, "LB01", shoe_id, f"2026-10-03T18:{len(shoe_id):02d}:00Z", "2026-10-03T19:40:00Z",
        roads.hands_from_codes(codes), frozenset(marked), findings,
    )  # fmt: skip


def report_of(
    store,
    config,
    *,
    per_kind=50,
    shoes=(),
    voids=1,
    alerts=None,
    inputs=1,
    tables=1,
    tests=None,
    audit=None,
    evidence=None,
):
    result = verify(store, config, MONTH)
    return build_audit_report(
        config=config,
        month=MONTH,
        as_of=AS_OF,
        tool_version="test",
        result=result,
        outcome_tests=tests or outcome_tests(result.tables, config.games),
        rtp_checks=rtp_checks(result.bet_totals, config.games),
        audit=audit or month_audit(voids, inputs, tables),
        evidence=evidence or findings_with_evidence(store, MONTH, per_kind),
        alerts=alerts_of(store, result, **(alerts or {})),
        shoes=shoes,
    )


def cell_of(svg: str, hand: int) -> str:
    """The drawing of one hand's cell (its ``<g>``)."""
    match = re.search(rf'<g class="[^"]+" data-hand="{hand}">(.*?)</g>', str(svg))
    assert match, f"no cell of hand {hand}"
    return match[1]


def plain(html: str) -> str:
    """The page's text, tags dropped and spaces folded (what a reader reads): a span or a
    line-break opportunity inside a word (a path's parts) joins it, other tags space it."""
    text = re.sub(r"<[^>]+>", " ", re.sub(r"</?span[^>]*>|<wbr>", "", html))
    return re.sub(r"\s+", " ", text.replace("\xa0", " "))


def test_the_summary_says_what_was_checked_found_and_not_checked(store, operator_config):
    report = report_of(store, operator_config)
    assert (report.rounds_checked, report.bets_checked, report.tables) == (4, 4, 1)
    assert [(line.kind, line.severity, line.count) for line in report.kinds] == [
        ("payout_mismatch", Severity.HIGH, 3),
        ("third_card_rule", Severity.HIGH, 1),
    ]
    text = plain(render_audit_html(report))
    # the void rounds and their refunded bets among those checked: the money table counts
    # settled rounds only, and the officer could not reconcile the two
    assert (report.void_rounds, report.void_bets) == (1, 1)  # month_audit's one void round
    assert (
        "Rounds 4 of which void 1 Bets checked 4 of which in void rounds 1"
        " Bets not verified 0" in text
    )
    assert "Payout mismatch high 3" in text and "Every kind 4" in text
    # The sample's EZ table is live and open 24 hours with no availability_gap_minutes.
    # No round of it in this store: it was dealt in none of October's 744 local hours.
    assert report.availability_unchecked == (
        UncheckedAvailability("ez-baccarat-it", 0, 744, clock_went_back=True),
    )
    assert (
        "The availability of ez-baccarat-it : its pages say it is open 24 hours a day, and a"
        " round was dealt at its tables in 0 of the month's 744 local clock hours, the hour the"
        " clocks went through twice when they went back counted once, but its"
        " configuration sets no availability_gap_minutes , so their idle stretches were not"
        " looked for (set it to look for them)." in text
    )
    assert "every check ran" not in text.lower()
    checked = plain(render_audit_html(replace(report, availability_unchecked=())))
    assert "every round and bet verified, and every check ran on every round and bet." in checked
    assert "the reference month has fewer than 1,000 rounds" in text  # a draft's warning
    assert "sha256 " + "ab" * 32 in text and "cd" * 32 in text and "ef" * 32 in text


def a_wholly_rejected_file(connection, lines: int, message="not JSON: expecting value") -> None:
    """``garbage.jsonl`` read with every one of its ``lines`` rejected (no round loaded)."""
    ingest_id = connection.execute(
        "INSERT INTO ingest_log (file_name, file_sha256, file_size, format, ingested_at,"
        " lines_read, rounds_loaded, bets_loaded, rejected, fields_not_read) VALUES"
        " ('garbage.jsonl', ?, 9, 'jsonl', '2026-11-05T06:00:00Z', ?, 0, 0, ?, '[]')",
        ("9" * 64, lines, lines),
    ).lastrowid
    connection.executemany(
        "INSERT INTO rejected_records (ingest_id, file_name, line, reason, message, raw_text)"
        " VALUES (?, 'garbage.jsonl', ?, 'bad_json', ?, 'x')",
        [(ingest_id, line, message) for line in range(1, lines + 1)],
    )


def test_the_report_names_what_was_not_read_and_not_checked(store, operator_config):
    """Issue 23: with a wholly rejected file in the inbox the report said "No finding ...
    Every check ran on every round and bet" and never named the file. It names every rejected
    file (count and reasons), its first lines with file and line (the rest in the workbook),
    every unread inbox file, the rounds and bets not verified and every check not run; it never
    says every check ran when one did not."""
    from reporting.verify.coverage import CheckNotRun

    a_wholly_rejected_file(store, 25)
    not_run = CheckNotRun(ITALY, "late_bet", "bets", 3, 4, (("placed_at", 3),))
    # named by the fields absent, not every field the check needs; some on how many
    fields = ("placed_at", "betting_closed_at")
    one_of_two = CheckNotRun(
        "live-baccarat-dk", "late_bet", "bets", 5, 5, tuple(zip(fields, (5, 0), strict=True))
    )
    mixed = CheckNotRun(
        "live-baccarat-gr", "late_bet", "bets", 121, 163, tuple(zip(fields, (29, 92), strict=True))
    )
    report = report_of(store, operator_config, alerts={"unread_files": ["inbox/notes.txt"]})
    report = dataclasses.replace(
        report,
        bets_unverified=2,
        unverified_rounds=(("blackjack", 7),),
        checks_not_run=(not_run, one_of_two, mixed),
    )
    text = plain(render_audit_html(report))
    assert (
        "25 records were rejected: what they hold (a round, its bets, a payout that conflicts"
        " with one stored) is in no figure of this report (its money, RTP and win percentages)"
        " and no check judged it." in text
    )
    assert (
        "garbage.jsonl : all 25 of its records rejected, no round loaded (Line not readable: 25)"
        in text
    )
    assert "garbage.jsonl:1 Line not readable bad_json not JSON: expecting value" in text
    assert "garbage.jsonl:20 " in text and "garbage.jsonl:21 " not in text
    assert "and 5 more rejected records: see the audit workbook's Rejected records sheet" in text
    assert "In the inbox but not read: inbox/notes.txt ." in text
    assert "7 rounds of blackjack not verified: the configuration does not list that game" in text
    assert "2 bets of a type the tool does not settle, not verified" in text
    assert (
        "Bet placed after betting closed, at live-baccarat-it : 3 of 4 bets not judged, for want"
        " of placed_at" in text
    )
    assert "at live-baccarat-dk : 5 of 5 bets not judged, for want of placed_at." in text
    assert (
        "at live-baccarat-gr : 121 of 163 bets not judged, for want of placed_at on 29,"
        " betting_closed_at on 92." in text
    )
    assert "every check ran" not in text.lower()


def test_only_a_live_game_open_24_hours_without_a_gap_threshold_has_its_availability_unchecked(
    store, operator_config
):
    """An EZ table dealt 30 rounds a day, whose pages say it is open around the clock, was
    never looked at for idle stretches (no availability_gap_minutes), and the report said
    every check ran. A live game with the threshold is checked; an RNG game is never idle."""
    games = operator_config.games
    assert games["ez-baccarat-it"].availability_gap_minutes is None
    assert games["live-baccarat-it"].availability_gap_minutes == 15
    assert games["mini-baccarat-it"].kind == "rng" and games["mini-baccarat-it"].opening_hours
    unchecked = report_of(store, operator_config).availability_unchecked
    assert [game.game_id for game in unchecked] == ["ez-baccarat-it"]
    with_threshold = replace(
        operator_config,
        games={
            **games,
            "ez-baccarat-it": replace(games["ez-baccarat-it"], availability_gap_minutes=15),
        },
    )
    report = report_of(store, with_threshold)
    assert report.availability_unchecked == ()
    assert report.everything_read_and_checked
    # An RNG game given a threshold has its idle stretches looked for, and is named so (with
    # its threshold when it dealt; this month's activity has no round of it).
    rng = replace(games["mini-baccarat-it"], opening_hours=ALWAYS_OPEN, availability_gap_minutes=9)
    report = report_of(store, replace(with_threshold, games={**games, rng.id: rng}))
    assert "mini-baccarat-it" in report.availability_idle
    dealt = ActivityHour(rng.id, "MB-1", date(2026, 10, 2), 9, 1, 1, 500)
    audit = replace(month_audit(), activity=(*month_audit().activity, dealt))
    report = report_of(store, replace(with_threshold, games={**games, rng.id: rng}), audit=audit)
    assert ("mini-baccarat-it", 9) in report.availability_checked


def test_a_game_looked_at_for_gaps_that_dealt_no_round_is_not_said_to_be_dealing(
    store, operator_config
):
    """A game whose pages say it is open around the clock, with a gap threshold, and no round
    in the month at any table: the report said "No gap: every table of it was dealing within
    its game's threshold"."""
    live = "live-baccarat-it"
    assert operator_config.games[live].availability_checked
    audit = month_audit()
    audit = replace(
        audit, gaps=(), activity=tuple(hour for hour in audit.activity if hour.game_id != live)
    )
    report = report_of(store, operator_config, audit=audit)
    assert report.availability_idle == (live,)
    assert live not in dict(report.availability_checked)
    text = plain(render_audit_html(report))
    assert f"No round at all: {live} , whose pages say it is open 24 hours a day" in text
    no_gap = re.search(r"No gap: every table of (.*?) was dealing", text)
    assert no_gap is None or live not in no_gap.group(1), text


def test_a_game_of_availability_not_looked_for_is_named_with_the_hours_it_was_dealt_in(
    store, operator_config
):
    """The EZ game's hours: each local day and hour with a round at one of its tables, two
    tables in one hour counted once, of October's 744 local clock hours in Rome."""
    ez = "ez-baccarat-it"
    hours = [
        ActivityHour(ez, table, date(2026, 10, day), hour, 3, 5, 500)
        for table, day, hour in (("EZ-1", 1, 0), ("EZ-2", 1, 0), ("EZ-1", 1, 1), ("EZ-1", 31, 23))
    ]
    audit = replace(month_audit(), activity=(*month_audit().activity, *hours))
    report = report_of(store, operator_config, audit=audit)
    assert report.availability_unchecked == (UncheckedAvailability(ez, 3, 744, True),)
    text = plain(render_audit_html(report))
    # 744 clock hours beside the 44,700 minutes the gaps are counted against: the hour the
    # clocks went back through twice is said, in a month where they went back only
    assert (
        "a round was dealt at its tables in 3 of the month's 744 local clock hours, the hour"
        " the clocks went through twice when they went back counted once, but" in text
    )
    assert month_minutes(Month(2026, 10), "Europe/Rome") == 744 * 60 + 60
    without = (UncheckedAvailability(ez, 3, 720, clock_went_back=False),)
    text = plain(render_audit_html(replace(report, availability_unchecked=without)))
    assert "in 3 of the month's 720 local clock hours, but" in text
    assert "went back" not in text


def test_the_availability_section_names_the_games_it_checked_and_those_it_did_not(
    store, operator_config
):
    """With no gap, the report said "every table announced as always open was dealing within
    its threshold" beside a summary saying the EZ game's idle stretches were not looked for:
    it now names the games looked at, with their thresholds, and those not."""
    dealt = ActivityHour(ITALY, "LB-IT-01", date(2026, 10, 1), 0, 3, 5, 500)  # the only
    audit = replace(month_audit(), gaps=(), activity=(dealt,))  # game of the month that dealt
    text = plain(render_audit_html(report_of(store, operator_config, audit=audit)))
    section = text[text.index(" Availability No gap") :]
    assert (
        "No gap: every table of live-baccarat-it was dealing within its game's threshold (no"
        " stretch of more than 15 minutes without a round)." in section
    )
    assert (
        "Not looked for: the idle stretches of ez-baccarat-it (a round was dealt at its tables"
        " in 0 of the month's 744 local clock hours, the hour the clocks went through twice"
        " when they went back counted once), whose pages say it is open 24 hours a day"
        " and whose configuration sets no availability_gap_minutes ." in section
    )
    assert "every table announced as always open" not in text


def test_a_statistic_outside_its_bound_is_named_in_the_summary_even_when_its_band_is_wide(
    store, operator_config
):
    """The workbook marked the EZ table's Tie "Outside 99.9%" (168.01% against 85.64%, a band
    of 70.95 points), and the report said nothing: its chart was not drawn, "too few stakes to
    judge", and its summary listed findings only."""
    tie = RtpCheck("ez-baccarat-it", "tie", 561, 56_100, 94_254, Fraction(8564, 10_000), 0.7095)
    table = OutcomeTest(ITALY, "LB-IT-07", 900, 380, 380, 140, 413.0, 401.0, 86.0, 38.5, 0.00001)
    calm = replace(tie, bet_type="panda_8", payouts=48_000)
    assert tie.flagged and table.flagged and not calm.flagged
    assert report_of(store, operator_config).rtp_flags == ()  # the store's month: in bounds

    def reported(checks, tests):
        result = verify(store, operator_config, MONTH)
        return build_audit_report(
            config=operator_config, month=MONTH, as_of=AS_OF, tool_version="test",
            result=result, outcome_tests=tests, rtp_checks=checks, audit=month_audit(1, 1, 1),
            evidence=findings_with_evidence(store, MONTH, 50), alerts=alerts_of(store, result),
        )  # fmt: skip

    report = reported((tie, calm), (table,))
    assert (report.rtp_flags, report.outcome_flags) == ((tie,), (table,))
    text = plain(render_audit_html(report))
    assert (
        "The RTP of Tie at ez-baccarat-it : 168.01% on 561 bets, against a theoretical 85.64%"
        " and a band of ±70.95 points." in text
    )
    assert (
        f"The outcomes of table LB-IT-07 at {ITALY} : Banker 380, Player 380, Tie 140 of 900"
        " rounds." in text
    )
    assert "What to do: review those bets and rounds with the studio" in text
    drawn = {game.game_id: game.charts for game in report.charts}
    (note,) = [chart.note for chart in drawn["ez-baccarat-it"] if chart.note]
    assert note.endswith("; 1 bet type lies outside its band all the same, named in the summary")
    assert f"shares of 1 table of {ITALY} against" in str(drawn[ITALY][0].svg)
    calm_only = reported((calm,), ())
    assert "Outside their 99.9% statistical bounds" not in plain(render_audit_html(calm_only))
    assert "What to do: review those bets" not in plain(render_audit_html(calm_only))
    notes = [chart.note for game in calm_only.charts for chart in game.charts if chart.note]
    assert notes and not any("all the same" in note for note in notes)


def test_a_month_with_nothing_found_but_a_file_not_read_does_not_say_it_is_clean(
    tmp_path, operator_config
):
    connection = connect(tmp_path / "clean.sqlite")
    store_records(connection, [], file_name="october.jsonl")
    a_wholly_rejected_file(connection, 1)
    text = plain(render_audit_html(report_of(connection, operator_config, voids=0)))
    assert "No finding in what was read and checked; see what was not, below." in text
    assert "agrees with the rules" not in text


def test_every_finding_is_shown_with_its_cards_bet_payouts_and_source(store, operator_config):
    html = render_audit_html(report_of(store, operator_config))
    text = plain(html)
    for line in ("october.jsonl:2", "october.jsonl:5", "october.jsonl:7", "october.jsonl:8"):
        assert line in text
    assert "Player 9♥ K♠ · Banker 5♦ 2♣" in text
    assert "B-1 · account acc-7 · Player · stake €25.00" in text
    # a stake of €25.00 at 1:1 pays €50.00: a payout holds the stake returned, and says so;
    # the settlement time is the store's, in UTC, and says so too
    assert "Payout, stake included expected €50.00 · logged €0.00" in text
    assert "Settled (UTC) 2026-10-" in text
    assert "Player 2♥ 3♠ 4♦ · Banker 5♦ 2♣ 9♣" in text  # the third-card finding's round
    assert html.count('<article class="finding high"') == 4


def test_findings_beyond_the_cap_are_counted_and_sent_to_the_workbook(store, operator_config):
    report = report_of(store, operator_config, per_kind=2)
    text = plain(render_audit_html(report))
    assert (
        "and 1 more finding of this kind (payout_mismatch): see the audit workbook's Findings"
        " sheet." in text
    )
    assert "october.jsonl:7" not in text  # the third mismatch by line is the one left out
    assert "(third_card_rule)" not in text


def test_input_files_beyond_the_cap_are_counted_and_sent_to_the_workbook(store, operator_config):
    """A month exported as a file per table and hour: the report lists the first
    MAX_INPUTS files and counts the rest (a page printed per forty files, in minutes and
    gigabytes, for thousands of them), which the workbook lists and the store digest covers."""
    report = report_of(store, operator_config, inputs=MAX_INPUTS + 7)
    assert len(report.inputs_shown.items) == MAX_INPUTS and report.inputs_shown.left_out == 7
    text = plain(render_audit_html(report))
    assert "october.jsonl" in text and f"inbox/LB01/{MAX_INPUTS - 1:04d}.jsonl" in text
    assert f"inbox/LB01/{MAX_INPUTS:04d}.jsonl" not in text
    assert "and 7 more input files: see the audit workbook's Sign-off sheet." in text
    assert f"Input files {MAX_INPUTS + 7}" in text  # the summary counts them all
    every = plain(render_audit_html(report_of(store, operator_config, inputs=MAX_INPUTS)))
    assert "more input files" not in every


def test_long_lists_of_a_month_s_shape_are_cut_counted_and_sent_to_the_workbook(
    store, operator_config
):
    """What grows with the month's shape, not its rounds, is listed up to its bound and the
    rest counted: 5,000 files each with a rejected line took 121 s and 1.9 GB to print,
    5,000 checksum files beside the logs 56 s and 664 MB, 500 tables 78 s and 1.6 GB."""
    a_wholly_rejected_file(store, 1)
    plain_report = report_of(store, operator_config)
    tables = verify(store, operator_config, MONTH).tables
    test = next(t for t in outcome_tests(tables, operator_config.games) if t.game_id == ITALY)
    many_tests = [
        dataclasses.replace(test, table_id=f"T{n:03d}", p_value=0.0 if n == 70 else 0.5)
        for n in range(MAX_TABLES + 30)
    ]
    report = report_of(store, operator_config, tables=MAX_TABLES + 3, tests=many_tests)
    (rejected,) = report.rejected_files
    gap = report.gaps[0]
    report = dataclasses.replace(
        report,
        rejected_files=tuple(
            dataclasses.replace(rejected, name=f"inbox/f{n:04d}.jsonl")
            for n in range(MAX_LISTED_FILES + 7)
        ),
        unread_files=tuple(f"inbox/f{n:04d}.sha256" for n in range(MAX_LISTED_FILES + 3)),
        gaps=tuple(
            dataclasses.replace(gap, after_round=f"G-{n}", minutes=20 + n)
            for n in range(MAX_GAPS + 5)
        ),
    )
    text = plain(render_audit_html(report))
    last = MAX_LISTED_FILES - 1
    assert f"inbox/f{last:04d}.jsonl :" in text and f"inbox/f{last + 1:04d}.jsonl" not in text
    assert (
        "and 7 more files with rejected records: see the audit workbook's Rejected records"
        " sheet." in text
    )
    assert f"inbox/f{last:04d}.sha256 ." in text and f"inbox/f{last + 1:04d}.sha256" not in text
    assert "And 3 more inbox files not read: the month's manifest.json lists them all." in text
    # The longest gaps: the five shortest (20 to 24 minutes) are counted, not listed.
    assert "G-5 " in text and "G-4 " not in text and "G-0 " not in text
    assert (
        "and 5 more availability gaps, shorter than those listed: see the audit workbook's"
        " Availability gaps sheet." in text
    )
    assert f"LB{MAX_TABLES:02d}" in text and f"LB{MAX_TABLES + 1:02d}" not in text
    assert f"and 3 more tables of {ITALY} in EUR: see the audit workbook's Money sheet." in text
    # The table outside its region is drawn though its id comes after the bound, in charts of
    # TABLES_PER_CHART tables, each of which fits a printed page.
    game_charts = next(game.charts for game in report.charts if game.game_id == ITALY)
    outcomes = [chart for chart in game_charts if chart.heading.startswith("Outcomes")]
    assert len(outcomes) == MAX_TABLES // TABLES_PER_CHART
    assert [chart.svg.count(" rounds") for chart in outcomes] == [TABLES_PER_CHART] * len(outcomes)
    drawn = "".join(chart.svg for chart in outcomes)
    assert "T070" in drawn and f"T{MAX_TABLES - 1:03d}" not in drawn
    assert f"T{MAX_TABLES - 2:03d}" in drawn
    assert (
        "and 30 more tables (those outside their region are drawn first): see the audit"
        " workbook's Outcome tests sheet." in text
    )
    assert f"of {MAX_TABLES} of the {MAX_TABLES + 30} tables" in drawn
    assert outcomes[1].heading == "Outcomes against expectation, per table (11-20)"
    assert report.rejected == MAX_LISTED_FILES + 7  # the summary's count is of them all
    plain_text = plain(render_audit_html(plain_report))
    for cut in ("files with rejected", "inbox files not read", "availability gaps:", "tables"):
        assert f"more {cut}" not in plain_text and f"More {cut}" not in plain_text


def test_money_rows_void_register_gaps_and_disclosures_are_shown(store, operator_config):
    text = plain(render_audit_html(report_of(store, operator_config, voids=55)))
    assert "€125.00 €50.00 €75.00" in text  # stakes, payouts, GGR
    assert "V-0 table LB01 · hand 40 of shoe S-1 · october.jsonl:100" in text
    assert "2026-10-04 10:00:00 card misread" in text
    assert "and 5 more void rounds: see the audit workbook's Void rounds sheet." in text
    assert "150" in text and "R-3 – R-4" in text
    # the month has fewer than 1,000 rounds: its pages are drafts
    assert "40.00% on draft pages, not published 2026-10" in text and "98.94%" in text


def test_the_charts_are_inline_svg_one_cumulative_line_per_game_and_currency(
    store, operator_config
):
    report = report_of(store, operator_config)
    assert [game.game_id for game in report.charts] == [ITALY]
    assert [chart.heading for chart in report.charts[0].charts] == [
        "Outcomes against expectation, per table",
        "Actual RTP per bet type against its 99.9% band",
        "Cumulative RTP per day (EUR)",
    ]
    html = render_audit_html(report)
    assert html.count('<svg xmlns="http://www.w3.org/2000/svg" class="chart ') == 2  # RTP: a line
    assert "<script" not in html and 'src="http' not in html and "<link" not in html
    legend = report.charts[0].charts[-1].legend
    assert legend.startswith("Solid line: the RTP of the month so far, ") and legend in html


def test_a_cumulative_chart_says_which_line_is_which_with_the_figure_each_ends_on():
    """The chart's one printed figure, the theoretical RTP on its dashed line, was read as the
    month's RTP (96.85% printed; the month's was 102.03%)."""
    days = [
        MoneyRow("g", None, date(2026, 10, day), "EUR", 1, 0, 1, 1, stakes, payouts)
        for day, stakes, payouts in ((1, 100, 50), (2, 100, 154))
    ]
    assert charts.cumulative_legend(days, Fraction(9685, 10_000)) == (
        "Solid line: the RTP of the month so far, 102.00% at its end; dashed line: the"
        " theoretical RTP of its play, 96.85%."
    )
    assert charts.cumulative_legend(days, None) == (
        "Solid line: the RTP of the month so far, 102.00% at its end."
    )
    assert (
        charts.cumulative_legend([replace(days[0], stakes=0, payouts=0)], None) is None
    )  # no stake


def test_shoes_with_findings_are_drawn_with_their_disputed_hands_marked(store, operator_config):
    shoes = [shoe("S-1", 2, {2, 5}), shoe("S-0", 0)]  # a shoe without findings is not drawn
    report = report_of(store, operator_config, shoes=shoes)
    (panel,) = report.shoes
    assert panel.shoe.shoe_id == "S-1" and panel.marked == (2, 5)
    assert panel.statistics == roads.shoe_statistics(roads.hands_from_codes("T4 B6 P7p B8 T2 B9b"))
    # the Bead Road outlines hands 2 and 5; on the Big Road, hand 2 fills the leading tie's
    # cell and the tie 5 is marked on hand 4's cell
    assert panel.bead_road.count('class="marked"') == 2
    assert 'class="marked"' in cell_of(panel.bead_road, 2)
    assert 'class="marked"' in cell_of(panel.bead_road, 5)
    assert 'class="marked"' not in cell_of(panel.bead_road, 3)
    assert panel.big_road.count('class="marked"') == 2
    assert 'class="marked"' in cell_of(panel.big_road, 2)
    assert 'class="marked"' in cell_of(panel.big_road, 4)
    html = render_audit_html(report)
    assert "disputed hands 2, 5" in plain(html)


def test_a_shoe_whose_findings_are_all_on_void_rounds_says_no_hand_is_disputed(
    store, operator_config
):
    """A shoe whose one finding is on a void round (a hand the roads do not draw) read
    "1 finding · disputed hands " and stopped there."""
    report = report_of(store, operator_config, shoes=[shoe("S-1", 1, marked=frozenset())])
    text = plain(render_audit_html(report))
    assert (
        "1 finding · no hand disputed: the findings are on void rounds, which the roads do not"
        " draw" in text
    )
    assert "disputed hands  " not in text


def test_at_most_twenty_shoes_are_drawn_the_most_findings_first(store, operator_config):
    shoes = [shoe(f"S-{n:02d}", findings=n + 1) for n in range(MAX_SHOES + 2)]
    report = report_of(store, operator_config, shoes=shoes)
    assert len(report.shoes) == MAX_SHOES
    assert {panel.shoe.shoe_id for panel in report.shoes} == {f"S-{n:02d}" for n in range(2, 22)}
    assert (report.shoes_left_out, report.shoes_with_findings) == (2, 22)
    assert "and 2 more shoes with findings: see the audit workbook's Shoes sheet." in plain(
        render_audit_html(report)
    )


def test_a_road_without_marks_is_the_scoreboards_drawing_byte_for_byte():
    hands = roads.hands_from_codes("T4 T2 P5 B7 B7 T1")
    labels = roads.RoadLabels("t", "d")
    bead, big = roads.bead_road(hands), roads.big_road(hands)
    assert roads.bead_road_svg(bead, labels, marked=frozenset()) == roads.bead_road_svg(
        bead, labels
    )
    assert roads.big_road_svg(big, labels, marked=frozenset()) == roads.big_road_svg(big, labels)
    assert "marked" not in roads.big_road_svg(big, labels)
    # a leading tie (hand 1) is marked on the pending-then-filled first cell
    assert roads.big_road_svg(big, labels, marked=frozenset({1})).count('class="marked"') == 1
    assert roads.bead_road_svg(bead, labels, marked=frozenset({99})).count('class="marked"') == 0


def test_a_report_of_another_month_than_its_records_is_refused(store, operator_config):
    result = verify(store, operator_config, MONTH)
    with pytest.raises(ValueError, match="not of 2026-09"):
        build_audit_report(
            config=operator_config,
            month="2026-09",
            as_of=AS_OF,
            tool_version="test",
            result=result,
            outcome_tests=[],
            rtp_checks=[],
            audit=month_audit(),
            evidence=findings_with_evidence(store, MONTH),
            alerts=alerts_of(store, result),
        )


def test_cards_are_written_with_suit_symbols():
    assert cards_text("TH AS 9D QC") == "10♥ A♠ 9♦ Q♣"


def test_the_files_are_written_byte_identical_and_the_pdf_is_tagged(
    store, operator_config, tmp_path
):
    report = report_of(store, operator_config, shoes=[shoe("S-1", 1)])
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
    first = write_audit_report(tmp_path / "a", report)
    second = write_audit_report(tmp_path / "b", report)
    assert [path.name for path in first] == ["audit-2026-10.html", "audit-2026-10.pdf"]
    for one, other in zip(first, second, strict=True):
        assert one.read_bytes() == other.read_bytes()
    assert sorted(p.name for p in (tmp_path / "a").iterdir()) == [p.name for p in first]
    reader = PdfReader(io.BytesIO(first[1].read_bytes()))
    catalog = reader.trailer["/Root"]
    assert catalog["/Lang"] == "en"
    assert "/StructTreeRoot" in catalog and catalog["/MarkInfo"]["/Marked"]
    assert reader.metadata.title == "Audit of 2026-10 · " + operator_config.name
    assert reader.metadata.author == operator_config.name
    assert "Payout mismatch" in pdf_text(first[1])


def test_text_from_the_logs_is_escaped_in_the_page(store, operator_config):
    report = report_of(store, operator_config)
    hostile = VoidRound(
        "V-<b>", ITALY, "LB01", None, None, "2026-10-04T10:00:00Z", "<script>alert(1)</script>",
        0, 0, 0, None, "x.jsonl", 1,
    )  # fmt: skip
    html = render_audit_html(replace(report, voids=(hostile,)))
    assert "<script" not in html and "<b>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html and "V-&lt;b&gt;" in html


def test_a_figure_no_page_publishes_is_said_to_be_computed_not_published(store, operator_config):
    """Issue 23: games with no regulator block showed "Published 86.11%" in the disclosure
    cross-check, though no page of theirs publishes such a figure."""
    report = report_of(store, operator_config)
    (check,) = report.disclosures
    check = dataclasses.replace(check, warnings=())  # a page ready to publish
    unpublished = dataclasses.replace(check, game_id="live-baccarat-dk", published=False)
    text = plain(render_audit_html(dataclasses.replace(report, disclosures=(check, unpublished))))
    assert "40.00% published" in text
    assert "40.00% computed, not published" in text
    assert "Published 40" not in text


def test_a_figure_on_draft_pages_is_not_said_to_be_published(store, operator_config):
    """A page with warnings is a draft ("BOZZA, non pubblicare"), listed under the pages
    that are drafts: the cross-check said its figure was "published" all the same."""
    report = report_of(store, operator_config)
    (draft,) = report.disclosures
    assert draft.warnings == ("the reference month has fewer than 1,000 rounds",)
    text = plain(render_audit_html(report))
    assert "40.00% on draft pages, not published" in text
    assert "40.00% published" not in text
    check = dataclasses.replace(draft, warnings=())
    unpublished = dataclasses.replace(check, published=False)
    assert [c.on_the_pages for c in (check, draft, unpublished)] == [
        "published",
        "on draft pages, not published",
        "computed, not published",
    ]


def test_a_game_whose_every_rtp_band_is_clipped_gets_one_line_not_a_chart(store, operator_config):
    """Issue 23: with every band clipped (a small month), the report drew pages of empty
    axes each saying "insufficient volume". One line says why no chart is drawn."""
    report = report_of(store, operator_config)
    (game,) = report.charts
    [rtp] = [chart for chart in game.charts if chart.heading.startswith("Actual RTP")]
    assert rtp.svg is None
    text = plain(render_audit_html(report))
    assert (
        "Actual RTP per bet type against its 99.9% band : not drawn: the band of each of its"
        in text
    )
    assert "small volume" not in text
    assert "only a large departure from the theory stands out" in text
    assert "too few stakes to judge" not in text  # an RTP outside its band was judged


def test_no_printed_page_of_the_report_splits_a_row_or_parts_a_heading_from_its_table(
    store, operator_config
):
    """Issue 23: a table row was cut across pages (a lone "621" at the foot of page 3). The
    report of a month with rejected files, findings and void rounds, printed: no row split
    over two pages, no heading at the foot of a page, no table apart from its heading."""
    from reporting.presentation.pdf import laid_out
    from tests.presentation.printed import break_problems

    # rows of several lines each: one of them meets the foot of the first page
    a_wholly_rejected_file(store, 40, "not JSON: " + "expecting a value here " * 12)
    report = report_of(store, operator_config, voids=3)
    assert not break_problems(laid_out(render_audit_html(report)))


def test_the_reports_contents_are_items_apart_and_its_page_margins_have_a_font():
    """Issue 23: the contents' items ran together ("SummaryFindings and their evidence...") and
    the margin boxes (running header, page numbers) had no font of their own."""
    css = (TEMPLATE_DIR / "audit" / "audit.css").read_text("utf-8")
    assert re.search(r'\.contents li \+ li::before \{ content: "[^"]+"', css)
    margins = re.findall(r"@(top|bottom)-(left|right) \{([^}]*)\}", css)
    assert margins and all("font-family:" in body for *_, body in margins)


def test_finding_kinds_and_bet_types_are_shown_by_their_names(store, operator_config):
    """Issue 23: the report named kinds and bet types by their codes (``payout_mismatch``,
    ``player``). Every kind has a title; a bet type shows its name, a provider's type the tool
    does not know shows as logged."""
    from reporting.records import FINDING_KINDS, FINDING_TITLES

    assert set(FINDING_TITLES) == set(FINDING_KINDS)
    report = report_of(store, operator_config)
    text = plain(render_audit_html(report))
    assert "Payout mismatch high 3 findings" in text and "Drawing rule broken" in text
    assert "payout_mismatch high" not in text and "· player ·" not in text
    assert report.bet_title("player_pair") == "Player Pair"
    assert report.bet_title("BC_PLAYER_TIGER") == "BC_PLAYER_TIGER"


def test_each_kind_of_finding_says_what_to_do_about_it(store, operator_config):
    """The officer who signs reads, under each kind's heading, what to do next: the words of
    FINDING_ADVICE (the site's Findings page is generated from them), once a kind, before its
    findings; a kind of a later version of the tool, stored in an older one's store, gets no
    advice and no empty line."""
    import html as html_module

    from reporting.records import FINDING_ADVICE

    report = report_of(store, operator_config)
    html = render_audit_html(report)
    kinds = re.findall(r'<section class="kind" id="kind-([a-z_]+)"', html)
    assert kinds == ["payout_mismatch", "third_card_rule"]
    for kind in kinds:
        section = html.split(f'id="kind-{kind}"', 1)[1].split('<section class="kind"', 1)[0]
        advice = FINDING_ADVICE[kind]
        todo = html_module.unescape(plain(section)).split(" What to do: ", 1)[1]
        assert todo.startswith(advice[0].lower() + advice[1:]), kind
        assert section.count('class="todo"') == 1
        assert section.index('class="todo"') < section.index('class="finding ')
    assert report.kind_advice("new_kind") is None


def test_reject_reasons_are_named_in_words_in_the_contracts_order():
    """A file's rejected lines are told by reason in words ("Amount not valid"), in the CLI
    contract's order of reasons, a reason of a later version of the tool last by its code;
    every reason has its words."""
    from reporting.records import REJECT_REASONS, REJECT_TITLES

    assert list(REJECT_TITLES) == list(REJECT_REASONS)
    assert len(set(REJECT_TITLES.values())) == len(REJECT_REASONS)
    given = {"new_reason": 1, "conflict": 2, "bad_json": 3, "bad_money": 4}
    assert AuditReport.reasons_in_order(given) == [
        ("Line not readable", 3),
        ("Amount not valid", 4),
        ("Conflicts with a stored round", 2),
        ("new_reason", 1),
    ]


def test_a_file_s_rejected_lines_are_told_as_the_summary_tells_them(store, operator_config):
    """A file whose other rounds were all stored already is not one "all of whose records"
    were rejected (the report said so of a re-export with one bad line, where verify's line
    said its other rounds were stored already); each case as ``RejectedFile.describe``."""
    from reporting.verify.bearing import RejectedFile

    files = (
        RejectedFile("a.jsonl", 2, 5, {"bad_money": 2}),
        RejectedFile("b.jsonl", 1, 0, {"naive_timestamp": 1}, 1, 3),
        RejectedFile("c.jsonl", 4, 0, {"bad_json": 4}),
        RejectedFile("d.jsonl", 2, 0, {"conflict": 2}, 7),
    )
    report = dataclasses.replace(report_of(store, operator_config), rejected_files=files)
    text = plain(render_audit_html(report))
    assert "a.jsonl : 2 rejected (Amount not valid: 2)." in text
    assert (
        "b.jsonl : 1 rejected (Time without its offset: 1), no round loaded: its other 3 rounds"
        " were stored already." in text
    )
    assert (
        "c.jsonl : all 4 of its records rejected, no round loaded (Line not readable: 4)." in text
    )
    assert (
        "d.jsonl : 2 of its 7 records, all rejected, bear on this period, no round loaded"
        " (Conflicts with a stored round: 2)." in text
    )


def test_the_rejected_lines_say_what_to_do_about_each_reason_they_have(store, operator_config):
    """Under the month's rejected lines, the officer who signs reads what to do about each
    reason the month has, once, in the contract's order, in the words of REJECT_ADVICE (the
    site's table is generated from them); a reason of a later version of the tool gets none."""
    import html as html_module

    from reporting.records import REJECT_ADVICE, REJECT_REASONS
    from reporting.verify.bearing import RejectedFile

    files = (
        RejectedFile("a.jsonl", 3, 5, {"unknown_game": 2, "bad_money": 1}),
        RejectedFile("b.jsonl", 2, 0, {"bad_money": 1, "new_reason": 1}),
    )
    report = dataclasses.replace(report_of(store, operator_config), rejected_files=files)
    text = html_module.unescape(plain(render_audit_html(report)))
    todo = text.split("What to do about them: ", 1)[1]
    said = [
        f"Amount not valid ( bad_money ): {REJECT_ADVICE['bad_money']}",
        f"Game not configured ( unknown_game ): {REJECT_ADVICE['unknown_game']}",
    ]
    assert todo.startswith(" ".join(said)), todo[:400]
    assert text.count(REJECT_ADVICE["bad_money"]) == 1 and "new_reason )" not in todo
    assert list(REJECT_ADVICE) == list(REJECT_REASONS)
    assert all(len(advice) > 60 and advice[0].isupper() for advice in REJECT_ADVICE.values())
    clean = dataclasses.replace(report, rejected_files=())
    assert "What to do about them" not in render_audit_html(clean)


def test_a_field_name_of_wide_characters_may_break_anywhere(store, operator_config):
    """A field name is cut at 64 characters, but 63 emoji are twice as wide as 63 letters:
    without a place to break, the name ran past the PDF page's edge. A name of more than 20
    characters without a space may break anywhere, as a configuration's texts may."""
    wide = "\U0001f600" * 63 + "…"
    report = dataclasses.replace(
        report_of(store, operator_config), fields_not_read=(("x.jsonl", (wide, "dealer")),)
    )
    html = render_audit_html(report)
    assert (
        f'<code><span style="white-space: normal; overflow-wrap: anywhere">{wide}</span></code>'
        in html
    )
    assert "<code>dealer</code>" in html


def test_ids_in_a_findings_message_are_kept_whole(store, operator_config):
    """Issue 23: on a phone, ids broke inside ("live-|bacca|rat-|it"). In a finding's message
    every id, time and figure is one unbreakable piece; the sentence's words still wrap."""
    html = render_audit_html(report_of(store, operator_config))
    messages = re.findall(r'<p class="message">(.*?)</p>', html)
    assert messages
    for message in messages:
        bare = re.sub(r'<span class="id">[^<]*</span>', "", message)
        assert not re.search(r"\w-\w", bare), message  # no hyphenated token left unwrapped
    assert any('<span class="id">' in message for message in messages)


def test_every_sheet_the_report_sends_a_reader_to_is_a_sheet_of_the_workbook():
    """The report names workbook sheets for what it leaves out: each is one the workbook has
    (a sheet renamed in the workbook fails here, not in an officer's hands)."""
    from reporting.presentation.audit_report import WORKBOOK_SHEETS
    from reporting.presentation.audit_xlsx import SHEETS

    assert set(WORKBOOK_SHEETS.values()) <= set(SHEETS)


def test_the_report_s_sign_off_asks_for_what_the_workbook_s_asks_for(store, operator_config):
    """The report's block asked for a reviewer, a date and a signature; the workbook's
    Sign-off sheet for a name, a role, a date and a signature. Both read one list."""
    from reporting.presentation.sign_off import REVIEWER_FIELDS

    html = render_audit_html(report_of(store, operator_config))
    block = html[html.index('<table class="facts sign-off">') :]
    block = block[: block.index("</table>")]
    labels = re.findall(r'<th scope="row">([^<]+)</th>', block)
    assert (
        labels == [label for label, _ in REVIEWER_FIELDS] == ["Name", "Role", "Date", "Signature"]
    )
    assert block.count('class="signature"') == 1


def test_the_report_s_sign_off_names_the_licences_and_what_the_reviewer_attests(
    store, operator_config
):
    """Above the boxes, the licence of each jurisdiction of the operator's games (in the words
    of its pages) and the statement the signature attests: the workbook's Sign-off sheet's
    lines (tests/presentation/test_audit_xlsx_month.py), read from one place."""
    from reporting.presentation.sign_off import ATTESTATION

    html = render_audit_html(report_of(store, operator_config))
    sign_off = html[html.index('<div class="sign-off">') :]
    licences = sign_off[: sign_off.index("</table>")]
    rows = re.findall(r'<th scope="row">([^<]+)</th><td>(.*?)</td>', licences)
    # each number kept whole on a phone (it breaks at its hyphens otherwise), none emphasised
    assert rows == [
        (
            "Licence, DK",
            'Danish Gambling Authority licence no. <span class="id">SPIL-0000-EKSEMPEL</span>',
        ),
        (
            "Licence, GR",
            'Hellenic Gaming Commission licence no. <span class="id">HGC-0000-PARADEIGMA</span>',
        ),
        ("Licence, IT", 'ADM concession no. <span class="id">ADM-0000-ESEMPIO</span>'),
    ]
    assert sign_off.index(ATTESTATION) < sign_off.index('<table class="facts sign-off">')
    operator = replace(operator_config.operator, licences={})
    html = render_audit_html(report_of(store, replace(operator_config, operator=operator)))
    for code in ("DK", "GR", "IT"):
        assert (
            f'<th scope="row">Licence, {code}</th><td><strong class="missing">not given: set'
            f" licences = {{ {code} = &#34;...&#34; }} under [operator] in the configuration"
            "</strong></td>" in html
        )
    # a configuration of no game has no jurisdiction, and the block no table of licences
    html = render_audit_html(replace(report_of(store, operator_config), licences=()))
    assert 'class="facts licences"' not in html and ATTESTATION in html


@pytest.mark.parametrize(
    ("staked", "won"), [(50_000_000_000, 1_500_000_000), (500_000_000_000, 15_000_000_000)]
)
def test_a_big_operator_s_month_prints_every_figure_within_the_page(
    store, operator_config, staked, won
):
    """A month of a million rounds in kroner (DKK 500,000,000.00 staked, DKK 15,000,000.00
    won by the house: 18 characters each) ran the money table's GGR off the printed page
    ("DKK 2,836,875.7" where the month had DKK 2,836,875.77), and with it the tax base. Ten
    times as much wraps its figures after a group separator, within the page."""
    from reporting.presentation.i18n import Formatter
    from reporting.presentation.pdf import laid_out

    audit = month_audit()
    big = {"rounds": 1_000_000, "void_rounds": 1_000, "bets": 6_000_000, "accounts": 100_000}
    audit = replace(
        audit,
        money=tuple(
            replace(row, currency="DKK", stakes=staked, payouts=staked - won, **big)
            for row in audit.money
        ),
        disclosures=tuple(
            replace(check, currency="DKK", stakes=staked, payouts=staked - won, rounds=1_000_000)
            for check in audit.disclosures
        ),
    )
    html = render_audit_html(report_of(store, operator_config, audit=audit))
    shown = plain(html)
    figures = [
        Formatter("en_GB").money(cents, "DKK").replace("\xa0", " ") for cents in (staked, won)
    ]
    assert all(figure in shown for figure in figures), figures
    assert not lines_past(laid_out(html), margin=True)


def test_a_hostile_month_s_totals_print_whole_within_the_page(store, operator_config):
    """A hostile log's totals, past what SQLite adds (27 characters: "€120,000,000,000,060,
    522.75"), ran the money table and the disclosure cross-check past the page's edge, the
    payouts cut and the GGR lost from the signed PDF. A figure longer than its column fits
    wraps after a group separator."""
    from reporting.presentation.pdf import laid_out

    huge = 12_000_000_000_006_052_275
    audit = month_audit()
    audit = replace(
        audit,
        money=tuple(replace(row, stakes=huge, payouts=huge - 416_054) for row in audit.money),
        disclosures=tuple(
            replace(check, stakes=huge, payouts=huge - 416_054) for check in audit.disclosures
        ),
    )
    report = report_of(store, operator_config, audit=audit)
    html = render_audit_html(report)
    assert "€120,000,000,000,060,522.75" in plain(html)
    assert not lines_past(laid_out(html), margin=True)


def test_ids_and_a_reason_as_long_as_the_input_allows_print_within_the_page(store, operator_config):
    """A hostile export's ids of 256 characters (the most an id may have) and a void reason
    of 300, each without a space: kept whole in their cells, they pushed the money table's
    and the void register's figures past the paper's edge of the signed PDF, and a finding's
    message naming such an id ran past it too. A run of characters longer than a sha256 may
    break anywhere."""
    from reporting.presentation.pdf import laid_out

    table, round_id, shoe_id = "T" * 256, "R" * 256, "S" * 256
    audit = month_audit()
    audit = replace(
        audit,
        money=tuple(replace(row, table_id=table) if row.table_id else row for row in audit.money),
        void_rounds=tuple(
            replace(void, round_id=round_id, table_id=table, shoe_id=shoe_id, void_reason="W" * 300)
            for void in audit.void_rounds
        ),
    )
    marked_id = "R-7-" + "7" * 252  # an id a message's words keep whole, at its longest
    verify(store, operator_config, MONTH)  # its findings stored
    evidence = findings_with_evidence(store, MONTH)
    evidence = replace(
        evidence,
        findings=tuple(
            finding._replace(message=f"round {marked_id} of {table}: {finding.message}")
            for finding in evidence.findings
        ),
    )
    assert evidence.findings
    html = render_audit_html(report_of(store, operator_config, audit=audit, evidence=evidence))
    assert table in plain(html) and "W" * 300 in plain(html)
    assert f"round {marked_id} of {table}: " in plain(html)
    assert not lines_past(laid_out(html), margin=True)


def test_a_month_s_amounts_print_whole_in_the_disclosure_cross_check(store, operator_config):
    """The printed cross-check broke a month's ordinary amounts at their group separators
    ("DKK 1, / 209, / 706.90" on three lines, "€60, / 642.75") beside columns of white: its
    columns were sized by the longest sentence in the table. Each amount prints on one line,
    and the warning row names its game."""
    from reporting.presentation.pdf import laid_out

    audit = month_audit()
    audit = replace(
        audit,
        disclosures=tuple(
            replace(check, currency="DKK", stakes=120_970_690, payouts=108_830_327)
            for check in audit.disclosures
        ),
    )
    html = render_audit_html(report_of(store, operator_config, audit=audit))
    amounts = {"DKK\xa01,209,706.90", "DKK\xa01,088,303.27"}
    pieces = []

    def walk(box, inside):
        element = getattr(box, "element", None)
        if element is not None and element.tag == "table":
            inside = "disclosures" in (element.get("class") or "")
        if inside and element is not None and "figure" in (element.get("class") or ""):
            pieces.append("".join(text.text for text in _text_boxes(box)).replace("\u200b", ""))
            return
        for child in getattr(box, "children", ()):
            walk(child, inside)

    for page in laid_out(html).pages:
        walk(page._page_box, False)
    assert pieces and set(pieces) == amounts, pieces
    for check in audit.disclosures:
        if check.warnings:
            assert f"{check.game_id} : {check.warnings[0]}" in plain(html)


def _text_boxes(box) -> list:
    """The text boxes under a laid-out box, in order."""
    if getattr(box, "text", None) is not None:
        return [box]
    return [found for child in getattr(box, "children", ()) for found in _text_boxes(child)]


def test_a_month_without_findings_gives_them_no_page_of_their_own(store, operator_config):
    """The printed report of a month without findings gave "No finding this month." a page
    of its own (and left the summary's last lines alone on the page before): the section
    starts a page only when it holds findings."""
    from reporting.presentation.pdf import laid_out

    def breaks_before(box) -> list[str]:
        element = getattr(box, "element", None)
        if element is not None and element.get("id") == "findings" and element.tag == "section":
            return [box.style["break_before"]]
        return [found for child in getattr(box, "children", ()) for found in breaks_before(child)]

    with_findings = report_of(store, operator_config)
    for report, starts_a_page in (
        (with_findings, "page"),
        (replace(with_findings, findings=()), "auto"),
    ):
        document = laid_out(render_audit_html(report))
        found = [kind for page in document.pages for kind in breaks_before(page._page_box)]
        assert found and found[0] == starts_a_page


def test_the_draft_pages_say_what_to_do_by_the_kind_of_their_reason(store, operator_config):
    """ "Correct what each line names; the next run publishes the pages" was said of a month
    without play and of a figure outside its bound too, which no correction publishes."""
    import html

    from reporting.presentation.audit_report import DRAFT_ADVICE
    from reporting.records import Doubt

    report = report_of(store, operator_config)
    drafts = (
        (ITALY, Doubt("no play in 2026-10: the page shows 0.00%", "no_play")),
        (ITALY, Doubt("no game code is configured", "missing_key")),
        (ITALY, Doubt("declared RTP 99.50% is above ...", "declared_above_theory")),
    )
    advice = replace(report, drafts=drafts).draft_advice
    assert advice == (DRAFT_ADVICE["no_play"], DRAFT_ADVICE["missing_key"])
    assert "correct it there: the next run publishes the pages" in advice[1]
    text = html.unescape(plain(render_audit_html(replace(report, drafts=drafts))))
    assert f"What to do: {advice[0]}; {advice[1]}." in text
    # every kind of reason a page can be a draft for (each is said on the page in its
    # language) has its advice
    macros = (TEMPLATE_DIR / "rules" / "macros.html.j2").read_text(encoding="utf-8")
    assert set(re.findall(r'doubt\.kind == "([a-z_]+)"', macros)) == set(DRAFT_ADVICE)


def test_a_csv_pair_s_one_sha256_says_what_it_is_of(store, operator_config):
    """A CSV pair's sha256 matched no file on disk, and the report did not say why: it is of
    the two files' bytes in turn (the rounds file first), as ``cat`` joins them."""
    import hashlib

    rounds, bets = b"round_id,table_id\n", b"round_id,bet_id\n"
    pair = replace(
        input_file("rounds.csv"),
        companion_name="bets.csv",
        sha256=hashlib.sha256(rounds + bets).hexdigest(),
        format="csv",
    )
    audit = month_audit()
    audit = replace(audit, provenance=replace(audit.provenance, inputs=(pair,)))
    text = plain(render_audit_html(report_of(store, operator_config, audit=audit)))
    assert f"sha256 {pair.sha256} of the two files' bytes in turn" in text


def test_the_disclosure_cross_check_is_kept_whole_on_a_printed_page(store, operator_config):
    """The sample month's audit PDF began the table at a page's foot with one game's row, the
    other five on the next page: a table of a page or less (a game a row) is kept whole; the
    print style keeps a .keep box whole, and its heading with it."""
    html = render_audit_html(report_of(store, operator_config))
    section = html[html.index('id="disclosures-heading"') :]
    assert section.index('<div class="scroll keep">') < section.index('<table class="disclosures">')
    css = (TEMPLATE_DIR / "audit" / "audit.css").read_text(encoding="utf-8")
    assert ".keep { break-inside: avoid; }" in css
