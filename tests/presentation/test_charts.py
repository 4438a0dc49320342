"""The audit report's charts (reporting.presentation.charts): geometry computed from exact
counts and cents, the clipped band of a thin bet type with its note, the same bytes for the
same records, and self-contained SVG (no script, no external reference)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree
from datetime import date
from fractions import Fraction

import pytest

from reporting.figures.audit_records import MoneyRow
from reporting.figures.statistics import OutcomeTest, RtpCheck
from reporting.presentation.charts import (
    BAND_CLIP_POINTS,
    ChartLabels,
    bar_length,
    cumulative_rtp,
    cumulative_rtp_svg,
    outcome_chart_svg,
    px,
    rtp_chart_svg,
)

SVG = "{http://www.w3.org/2000/svg}"
LABELS = ChartLabels("A chart", "What a screen reader says")
BANKER_RTP = Fraction(9894, 10000)  # an exact ratio standing for a theoretical RTP


def outcome(table: str = "T1", banker: int = 46, player: int = 44, tie: int = 10) -> OutcomeTest:
    rounds = banker + player + tie
    return OutcomeTest(
        "live-baccarat-it", table, rounds, banker, player, tie, 0.45 * rounds,
        0.45 * rounds, 0.1 * rounds, 0.5, 0.78,
    )  # fmt: skip


def rtp(bet_type: str, bets: int, stakes: int, payouts: int, bound: float) -> RtpCheck:
    return RtpCheck("live-baccarat-it", bet_type, bets, stakes, payouts, BANKER_RTP, bound)


def day(number: int, stakes: int, payouts: int) -> MoneyRow:
    return MoneyRow(
        "live-baccarat-it", None, date(2026, 10, number), "EUR", 10, 0, 20, 5, stakes, payouts
    )


def parse(svg: str) -> ElementTree.Element:
    return ElementTree.fromstring(svg)


def self_contained(svg: str) -> None:
    root = parse(svg)
    assert root.get("role") == "img"
    assert root.get("aria-label") == LABELS.description
    assert root.find(f"{SVG}title").text == LABELS.title
    assert "<script" not in svg and "href" not in svg and "url(" not in svg
    assert not re.search(r"https?:", svg.replace("http://www.w3.org/2000/svg", ""))


def test_a_bars_length_is_its_share_of_the_rounds_over_the_axis():
    svg = outcome_chart_svg([outcome(banker=46, player=44, tie=10)], LABELS)
    bars = {bar.get("class"): bar for bar in parse(svg).iter(f"{SVG}rect")}
    # the axis holds 60% of the rounds in 230 px: 46 of 100 rounds is 46/60 of 230 px
    assert bars["bar banker"].get("width") == px(Fraction(46, 100) / Fraction(6, 10) * 230)
    assert bars["bar banker"].get("width") == "176.3"
    assert bars["bar tie"].get("width") == "38.3"
    assert bars["bar player"].get("data-count") == "44"
    assert bar_length(0, 0, Fraction(6, 10)) == 0


def test_the_expected_mark_sits_at_the_probability_share():
    svg = outcome_chart_svg([outcome(banker=46, player=44, tie=10)], LABELS)
    marks = [
        path.get("d") for path in parse(svg).iter(f"{SVG}path") if path.get("class") == "expected"
    ]
    # expected_banker 45 of 100 rounds: 62 + 45/60 x 230 = 234.5
    assert marks[0].startswith("M234.5 ")
    assert len(marks) == 3


def test_the_grid_runs_beside_the_bars_and_never_through_a_tables_words():
    """A table's line of words ("EZ-IT-01 · 929 rounds") sits above its bars; the grid's
    lines at 10%, 20%, ... ran through it. Each line now runs from below the words of each
    table to the next table's words, and on to the axis below the last."""
    svg = outcome_chart_svg([outcome("T1"), outcome("T2"), outcome("T3")], LABELS)
    root = parse(svg)
    (grid,) = [path for path in root.iter(f"{SVG}path") if path.get("class") == "grid"]
    segments = [
        (Fraction(top), Fraction(top) + Fraction(length))
        for top, length in re.findall(r"M[\d.]+ ([\d.]+)v([\d.]+)", grid.get("d"))
    ]
    assert len(segments) == 7 * 3  # 0% to 60%, for each of three tables
    words = [
        Fraction(text.get("y"))
        for text in root.iter(f"{SVG}text")
        if text.text and " rounds" in text.text
    ]
    assert len(words) == 3
    for baseline in words:  # the words' box: a font of 11 above the baseline, 3 below
        assert all(end <= baseline - 11 or start >= baseline + 3 for start, end in segments)
    axis = max(Fraction(text.get("y")) for text in root.iter(f"{SVG}text") if "%" in text.text)
    assert max(end for _, end in segments) > axis - 20  # the lines still reach the axis


def test_a_share_beyond_sixty_percent_widens_the_axis():
    svg = outcome_chart_svg([outcome(banker=75, player=20, tie=5)], LABELS)
    banker = next(bar for bar in parse(svg).iter(f"{SVG}rect") if bar.get("class") == "bar banker")
    assert banker.get("width") == px(Fraction(75, 100) / Fraction(8, 10) * 230)
    assert ">80%<" in svg


def test_a_band_within_the_axis_is_drawn_to_scale_around_the_theoretical_line():
    check = rtp("banker", 10_000, 25_000_000, 24_800_000, 0.02)  # +-2 points
    svg = rtp_chart_svg([check], LABELS)
    band = next(parse(svg).iter(f"{SVG}rect"))
    assert band.get("class") == "band"
    # the axis is -10..+10 points over 230 px from x = 62: +-2 points is 46 px around 177
    assert (band.get("x"), band.get("width")) == ("154", "46")
    assert "small volume" not in svg
    dot = next(parse(svg).iter(f"{SVG}circle"))
    # actual 99.2% is 0.26 points above 98.94%: 177 + 0.26 x 11.5
    assert dot.get("cx") == px(177 + Fraction(26, 100) * Fraction(230, 20))


def test_a_band_wider_than_the_threshold_is_clipped_with_a_small_volume_note():
    thin = rtp("perfect_pair", 230, 230 * 1000, 0, 4.85)  # the issue's +-485% on 230 bets
    svg = rtp_chart_svg([thin], LABELS)
    band = next(parse(svg).iter(f"{SVG}rect"))
    assert band.get("class") == "band clipped"
    assert (band.get("x"), band.get("width")) == ("62", "230")  # the whole axis, no further
    note = next(text for text in parse(svg).iter(f"{SVG}text") if text.get("class") == "note")
    assert note.text == "small volume: the band is ±485.0 points, clipped"
    # 0% is 98.94 points below: no dot, which would read as -10 points, but a triangle at the
    # left end of the axis (x = 62), pointing left, beyond it
    assert not list(parse(svg).iter(f"{SVG}circle"))
    (mark,) = [path for path in parse(svg).iter(f"{SVG}path") if "actual" in path.get("class")]
    assert mark.get("class") == "actual off-scale"
    (back, top), (tip, _), (back_again, bottom) = (
        tuple(map(Fraction, point.split())) for point in mark.get("d")[1:-1].split("L")
    )
    assert tip == 62 - 3 and back == back_again == 62 + 7 and bottom - top == 12
    above = rtp("tie", 230, 230 * 1000, 230 * 3000, 4.85)  # 300% against 98.94%: right end
    (mark,) = [
        path
        for path in parse(rtp_chart_svg([above], LABELS)).iter(f"{SVG}path")
        if "actual" in path.get("class")
    ]
    assert mark.get("d").startswith(f"M{62 + 230 - 7} ") and f"L{62 + 230 + 3} " in mark.get("d")
    assert BAND_CLIP_POINTS == 10


def test_a_bet_type_without_stakes_has_no_dot():
    svg = rtp_chart_svg([rtp("banker", 0, 0, 0, 0.0)], LABELS)
    assert list(parse(svg).iter(f"{SVG}circle")) == []
    assert "no stakes (theory 98.94%)" in svg


def test_the_cumulative_rtp_is_cumulative_payouts_over_cumulative_stakes():
    rows = [day(3, 300, 330), day(1, 100, 50), day(2, 100, 100)]  # any order in
    assert [(row.day.day, value) for row, value in cumulative_rtp(rows)] == [
        (1, Fraction(1, 2)),
        (2, Fraction(3, 4)),
        (3, Fraction(96, 100)),
    ]
    assert cumulative_rtp([day(1, 0, 0)]) == [(day(1, 0, 0), None)]


def test_the_cumulative_line_puts_each_day_on_its_exact_value():
    rows = [day(1, 100, 50), day(2, 100, 100), day(3, 300, 330)]
    svg = cumulative_rtp_svg(rows, LABELS, theoretical=BANKER_RTP)
    dots = [circle for circle in parse(svg).iter(f"{SVG}circle")]
    assert [dot.get("data-day") for dot in dots] == ["2026-10-01", "2026-10-02", "2026-10-03"]
    # the y axis runs from 50% (bottom, y = 158) to 99% (top, y = 8) over 150 px
    assert [dot.get("cy") for dot in dots] == [
        px(8 + (99 - Fraction(value) * 100) / 49 * 150) for value in ("0.5", "0.75", "0.96")
    ]
    assert [dot.get("cx") for dot in dots] == ["62", "177", "292"]
    reference = next(p for p in parse(svg).iter(f"{SVG}path") if p.get("class") == "theoretical")
    assert reference.get("d") == f"M62 {px(8 + (99 - BANKER_RTP * 100) / 49 * 150)}h230"


def test_cumulative_rows_of_two_currencies_or_of_one_table_are_refused():
    other = MoneyRow("live-baccarat-it", None, date(2026, 10, 2), "DKK", 1, 0, 1, 1, 1, 1)
    with pytest.raises(ValueError, match="one currency"):
        cumulative_rtp([day(1, 100, 50), other])
    table = MoneyRow("live-baccarat-it", "T1", date(2026, 10, 2), "EUR", 1, 0, 1, 1, 1, 1)
    with pytest.raises(ValueError, match="every table"):
        cumulative_rtp([table])


def test_a_month_without_stakes_says_so():
    svg = cumulative_rtp_svg([day(1, 0, 0)], LABELS)
    assert "no stakes this month" in svg
    self_contained(svg)


def test_every_chart_is_self_contained_and_the_same_bytes_for_the_same_records():
    drawings = [
        lambda: outcome_chart_svg([outcome("T1"), outcome("T2", 30, 60, 10)], LABELS),
        lambda: rtp_chart_svg(
            [rtp("banker", 9, 900, 880, 0.03), rtp("tie", 3, 300, 0, 2.5)], LABELS
        ),
        lambda: cumulative_rtp_svg([day(1, 100, 99), day(2, 100, 97)], LABELS, BANKER_RTP),
    ]
    for draw in drawings:
        first = draw()
        assert draw().encode() == first.encode()
        self_contained(first)


def test_no_float_money_reaches_a_chart():
    float_day = MoneyRow("live-baccarat-it", None, date(2026, 10, 1), "EUR", 1, 0, 1, 1, 100.0, 5)
    with pytest.raises(TypeError):
        cumulative_rtp([float_day])


def test_a_title_or_sentence_with_markup_is_escaped():
    labels = ChartLabels("<b>&</b>", 'say "this" & <that>')
    svg = outcome_chart_svg([outcome()], labels)
    root = parse(svg)  # parses: nothing broke out of its attribute or element
    assert root.find(f"{SVG}title").text == "<b>&</b>"
    assert root.get("aria-label") == 'say "this" & <that>'


def test_a_chart_of_tables_or_bet_types_is_of_one_game():
    other = OutcomeTest("live-baccarat-dk", "T9", 1, 1, 0, 0, 0.4, 0.4, 0.2, 1.0, 0.6)
    with pytest.raises(ValueError, match="one game"):
        outcome_chart_svg([outcome(), other], LABELS)
    dk = RtpCheck("live-baccarat-dk", "banker", 1, 100, 95, BANKER_RTP, 0.5)
    with pytest.raises(ValueError, match="one game"):
        rtp_chart_svg([rtp("banker", 1, 100, 95, 0.5), dk], LABELS)


def test_the_cumulative_line_is_drawn_on_a_time_axis():
    """A day without play leaves its place: the 1st, 2nd and 11th sit at 0, 1/10 and 10/10 of
    the plot's width, not at three even steps."""
    rows = [day(1, 100, 50), day(2, 100, 100), day(11, 300, 330)]
    dots = [
        float(c.get("cx")) for c in parse(cumulative_rtp_svg(rows, LABELS)).iter(f"{SVG}circle")
    ]
    left, right = dots[0], dots[-1]
    assert dots[1] - left == pytest.approx((right - left) / 10, abs=0.11)
