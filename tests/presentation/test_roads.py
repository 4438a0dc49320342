"""The shoe's scoreboard: statistics, Bead Road and Big Road rules one by one on hand-written
shoes, their SVG drawings, a shoe dealt by the engine, and both roads printed by WeasyPrint."""

from __future__ import annotations

import os
import subprocess
import xml.etree.ElementTree as ElementTree
from collections import Counter
from datetime import date
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reporting.engine.rules import Winner
from reporting.presentation.roads import (
    BANKER_COLOUR,
    EXAMPLE_SEED,
    PLAYER_COLOUR,
    TIE_COLOUR,
    Hand,
    RoadLabels,
    WinnerLetters,
    bead_road,
    bead_road_svg,
    big_road,
    big_road_svg,
    deal_shoe,
    hands_from_codes,
    hands_from_outcomes,
    hands_from_summary,
    shoe_statistics,
)
from reporting.verify.shoes import ShoeSummary, encode_hand

SVG = "{http://www.w3.org/2000/svg}"
GOLDEN = Path(__file__).resolve().parent / "golden"
LABELS = RoadLabels("Road & title", 'A road "drawn" <here>')


def places(codes: str) -> list[tuple[int, int, str | None]]:
    """(column, row, winner) of each Big Road cell of hands written short."""
    road = big_road(hands_from_codes(codes))
    return [(c.column, c.row, c.winner.value if c.winner else None) for c in road.cells]


# --- statistics -----------------------------------------------------------------------------


def test_statistics_count_wins_ties_and_pairs_and_sum_to_the_hands():
    statistics = shoe_statistics(hands_from_codes("B6 B7b P8p T3pb P9 B5 T0"))
    assert (statistics.banker_wins, statistics.player_wins, statistics.ties) == (3, 2, 2)
    assert (statistics.banker_pairs, statistics.player_pairs) == (2, 2)
    assert statistics.banker_wins + statistics.player_wins + statistics.ties == statistics.hands
    assert statistics.share(statistics.ties) == Fraction(2, 7)


def test_an_empty_shoe_has_no_shares():
    statistics = shoe_statistics(())
    assert statistics.hands == 0 and statistics.share(0) is None


# --- Big Road -------------------------------------------------------------------------------


def test_big_road_starts_a_new_column_when_the_winner_changes():
    assert places("B6 B7 P8 B5 B9 B4") == [
        (0, 0, "banker"),
        (0, 1, "banker"),
        (1, 0, "player"),
        (2, 0, "banker"),
        (2, 1, "banker"),
        (2, 2, "banker"),
    ]
    assert big_road(hands_from_codes("B6 B7 P8 B5")).runs == 3


def test_big_road_marks_a_tie_on_the_previous_hand_and_makes_no_cell_of_it():
    road = big_road(hands_from_codes("B6 T4 B7"))
    assert [(c.number, c.tie_numbers) for c in road.cells] == [(1, (2,)), (3, ())]
    assert [(c.column, c.row) for c in road.cells] == [(0, 0), (0, 1)]


def test_big_road_counts_two_ties_on_one_cell_and_a_tie_does_not_break_a_run():
    road = big_road(hands_from_codes("P8 T2 T5 P9 T1 B7"))
    assert [(c.winner, c.ties) for c in road.cells] == [
        (Winner.PLAYER, 2),
        (Winner.PLAYER, 1),
        (Winner.BANKER, 0),
    ]
    svg = big_road_svg(road, LABELS)
    assert svg.count('class="tie-mark"') == 2  # one bar per marked cell
    assert svg.count('class="tie-count"') == 1  # the number only for two or more
    assert 'fill="#2e7d32">2</text>' in svg


def test_big_road_keeps_leading_ties_on_a_pending_first_cell_the_first_hand_fills():
    only_ties = big_road(hands_from_codes("T4 T6"))
    [pending] = only_ties.cells
    assert (pending.column, pending.row, pending.winner, pending.number) == (0, 0, None, None)
    assert pending.tie_numbers == (1, 2) and only_ties.runs == 0
    assert 'class="cell pending"' in big_road_svg(only_ties, LABELS)

    filled = big_road(hands_from_codes("T4 T6 B7 P8"))
    assert [(c.column, c.row, c.winner, c.number, c.tie_numbers) for c in filled.cells] == [
        (0, 0, Winner.BANKER, 3, (1, 2)),
        (1, 0, Winner.PLAYER, 4, ()),
    ]


def test_big_road_turns_right_past_the_sixth_row_a_dragon_tail():
    road = big_road(hands_from_codes("B1 " * 8))
    assert [(c.column, c.row, c.tail) for c in road.cells] == [
        *((0, row, False) for row in range(6)),
        (1, 5, True),
        (2, 5, True),
    ]
    assert road.columns == 3 and road.runs == 1


def test_big_road_turns_early_above_an_earlier_tail_and_starts_the_next_run_where_free():
    # Banker's tail takes row 5 of columns 1-2; the Player run below it turns at row 4.
    assert places("B1 " * 8 + "P2 " * 7 + "B3") == [
        *((0, row, "banker") for row in range(6)),
        (1, 5, "banker"),
        (2, 5, "banker"),
        *((1, row, "player") for row in range(5)),
        (2, 4, "player"),
        (3, 4, "player"),
        (2, 0, "banker"),
    ]


def test_big_road_marks_pairs_on_their_cell_and_a_ties_pairs_on_the_cell_it_is_marked_on():
    road = big_road(hands_from_codes("B6b P7p T3pb B8"))
    assert [(c.banker_pair, c.player_pair) for c in road.cells] == [
        (True, False),
        (True, True),
        (False, False),
    ]
    svg = big_road_svg(road, LABELS)
    assert svg.count('class="pair banker-pair"') == 2
    assert svg.count('class="pair player-pair"') == 1


hand_strategy = st.builds(
    Hand, st.sampled_from(list(Winner)), st.integers(0, 9), st.booleans(), st.booleans()
)


@given(st.lists(hand_strategy, max_size=120))
def test_every_banker_or_player_hand_is_one_cell_and_every_tie_one_mark(hands):
    road = big_road(hands)
    numbers = [c.number for c in road.cells if c.number is not None]
    ties = [number for c in road.cells for number in c.tie_numbers]
    decided = [n for n, hand in enumerate(hands, 1) if hand.winner is not Winner.TIE]
    assert numbers == decided
    assert sorted(ties) == [n for n, hand in enumerate(hands, 1) if hand.winner is Winner.TIE]
    assert len({(c.column, c.row) for c in road.cells}) == len(road.cells)  # no cell overlaps
    assert all(0 <= c.row < 6 for c in road.cells)
    assert sum(c.banker_pair for c in road.cells) <= sum(h.banker_pair for h in hands)
    # a pending cell only when every hand so far is a tie
    assert sum(c.winner is None for c in road.cells) == (1 if hands and not decided else 0)
    for earlier, later in zip(road.cells, road.cells[1:], strict=False):
        same_run = earlier.winner is later.winner
        assert later.run == earlier.run + (0 if same_run else 1)
        step = (later.column - earlier.column, later.row - earlier.row)
        if same_run:  # down the column, or right along a dragon tail
            assert step == ((1, 0) if later.tail else (0, 1))
        else:  # the top of a column to the right of the run's first column
            assert later.row == 0 and not later.tail


# --- Bead Road ------------------------------------------------------------------------------


def test_bead_road_fills_top_to_bottom_then_left_to_right_ties_included():
    road = bead_road(hands_from_codes("B1 P2 T3 B4 B5 P6 P7 B8"))
    assert [(c.column, c.row, c.number, c.hand.winner) for c in road.cells][5:] == [
        (0, 5, 6, Winner.PLAYER),
        (1, 0, 7, Winner.PLAYER),
        (1, 1, 8, Winner.BANKER),
    ]
    assert (road.rows, road.columns, road.hands_in_shoe) == (6, 6, 8)


def test_bead_road_shows_the_last_36_hands_from_its_top_left_cell():
    hands = hands_from_codes(" ".join(f"B{n % 10}" for n in range(50)))
    road = bead_road(hands)
    assert len(road.cells) == 36
    assert (road.cells[0].number, road.cells[0].column, road.cells[0].row) == (15, 0, 0)
    assert (road.cells[-1].number, road.cells[-1].column, road.cells[-1].row) == (50, 5, 5)
    assert [c.hand.score for c in road.cells] == [n % 10 for n in range(14, 50)]
    assert len(bead_road(hands, window=12).cells) == 12


def test_bead_road_draws_the_winners_letter_the_score_and_the_pair_dots_in_each_cell():
    svg = bead_road_svg(bead_road(hands_from_codes("B6b P7p T3pb")), LABELS)
    root = ElementTree.fromstring(svg)
    beads = root.findall(f"{SVG}g")
    assert [bead.get("class") for bead in beads] == ["bead banker", "bead player", "bead tie"]
    # the letter first (a reader who cannot tell the colours apart reads it), then the score
    assert [bead.find(f"{SVG}text").text for bead in beads] == ["B", "P", "T"]
    assert [bead.find(f"{SVG}text/{SVG}tspan").text for bead in beads] == ["6", "7", "3"]
    assert [bead.find(f"{SVG}circle").get("fill") for bead in beads] == [
        BANKER_COLOUR,
        PLAYER_COLOUR,
        TIE_COLOUR,
    ]
    dots = [[dot.get("fill") for dot in bead.findall(f"{SVG}circle")[1:]] for bead in beads]
    assert dots == [[BANKER_COLOUR], [PLAYER_COLOUR], [BANKER_COLOUR, PLAYER_COLOUR]]


def test_bead_road_letters_are_the_pages_own_and_escaped():
    letters = WinnerLetters(banker="Μ", player="Π", tie="<&>")
    svg = bead_road_svg(bead_road(hands_from_codes("B6 P7 T3")), RoadLabels("t", "d", letters))
    root = ElementTree.fromstring(svg)
    assert [g.find(f"{SVG}text").text for g in root.findall(f"{SVG}g")] == ["Μ", "Π", "<&>"]


# --- SVG ------------------------------------------------------------------------------------


def example_svgs() -> tuple[str, str]:
    hands = hands_from_outcomes(deal_shoe(EXAMPLE_SEED))
    return bead_road_svg(bead_road(hands), LABELS), big_road_svg(big_road(hands), LABELS)


def test_svgs_are_well_formed_self_contained_and_labelled():
    for svg in example_svgs():
        root = ElementTree.fromstring(svg)
        assert root.tag == f"{SVG}svg" and root.get("role") == "img"
        assert root.get("aria-label") == 'A road "drawn" <here>'
        assert root.find(f"{SVG}title").text == "Road & title"
        assert root.get("viewBox").startswith("0 0 ")
        assert "script" not in svg and "href" not in svg and "url(" not in svg


def test_svgs_draw_one_shape_per_cell_of_a_real_shoe():
    hands = hands_from_outcomes(deal_shoe(EXAMPLE_SEED))
    bead_svg, big_svg = example_svgs()
    beads = ElementTree.fromstring(bead_svg).findall(f"{SVG}g")
    assert len(beads) == 36
    cells = ElementTree.fromstring(big_svg).findall(f"{SVG}g")
    road = big_road(hands)
    assert len(cells) == len(road.cells)
    rings = [g for g in cells if g.find(f"{SVG}circle[@fill='none']") is not None]
    assert len(rings) == sum(c.winner is not None for c in road.cells)
    marks = sum(len(g.findall(f"{SVG}path")) for g in cells)
    assert marks == sum(c.ties > 0 for c in road.cells)
    assert ElementTree.fromstring(big_svg).get("data-columns") == str(road.columns)


def test_the_bead_road_fits_a_phone_and_the_big_road_grows_with_its_columns():
    bead_svg, big_svg = example_svgs()
    assert int(ElementTree.fromstring(bead_svg).get("width")) <= 360
    road = big_road(hands_from_outcomes(deal_shoe(EXAMPLE_SEED)))
    assert int(ElementTree.fromstring(big_svg).get("width")) == road.columns * 22 + 4
    empty = big_road_svg(big_road(()), LABELS)
    assert ElementTree.fromstring(empty).get("width") == str(12 * 22 + 4)


# Two ties first, a run of ties, pairs on a hand and on a tie, a change of winner, a dragon tail
# and a run that turns above it.
GOLDEN_SHOE = "T3 T5 B6b B7 T7 T2 P8p T4pb B9 " + "P9 " * 8 + "B7 " * 7 + "P6"


@pytest.mark.parametrize(
    ("name", "draw"),
    [
        ("roads-bead.svg", lambda hands: bead_road_svg(bead_road(hands), LABELS)),
        ("roads-big.svg", lambda hands: big_road_svg(big_road(hands), LABELS)),
    ],
)
def test_golden_svg(name, draw):
    """A hand-written shoe's roads, byte for byte. Regenerate on purpose only:
    UPDATE_GOLDEN=1 pytest tests/presentation/test_roads.py, then look at the pictures."""
    actual = draw(hands_from_codes(GOLDEN_SHOE)) + "\n"
    golden = GOLDEN / name
    if os.environ.get("UPDATE_GOLDEN") == "1":
        golden.write_text(actual, encoding="utf-8")
    assert golden.is_file(), f"{golden} is missing: run with UPDATE_GOLDEN=1 to create it"
    assert actual == golden.read_text(encoding="utf-8"), (
        f"{name} differs from {golden}; if the change is intended, run UPDATE_GOLDEN=1"
    )


# --- golden roads of hand-written shoes -----------------------------------------------------

#: Each shoe by name: its hands written short, and what its Big Road must show (the tie
#: counts drawn, the number of dragon-tail cells) beside the byte-for-byte comparison.
GOLDEN_SHOES = {
    # two ties before any winner: a pending first cell the Banker then fills, keeping the 2
    "ties-first": ("T3 T5 B6 B7 P8 B9", {"tie_counts": ["2"], "tails": 0}),
    # a run of two ties and a run of three, each counted on the hand before it; one tie alone
    # is a bar without a count
    "tie-runs": ("B6 T2 T4 B7 P8 T1 T1 T9 P5 T0 B4", {"tie_counts": ["2", "3"], "tails": 0}),
    # both pairs: on a Banker hand, a Player hand, both on one hand, and a tie's pairs on the
    # cell it is marked on
    "pairs": ("B6b P7p B8pb T3pb P2 B5", {"tie_counts": [], "tails": 0}),
    # the winner changes every hand, then runs of two and three
    "winner-change": ("B1 P2 B3 P4 B5 B6 P7 P8 P9 B0", {"tie_counts": [], "tails": 0}),
    # a Banker run of nine: six down, three along row six; the Player run after it turns
    # above the tail, and the next Banker run starts where the top row is free
    "dragon-tail": ("B1 " * 9 + "P2 " * 7 + "B3 P4", {"tie_counts": [], "tails": 5}),
    # a tie on the very last hand of the shoe, after a tie earlier: marks on the last cell
    "tie-at-end": ("P8 T6 B7 B6 T4", {"tie_counts": [], "tails": 0}),
    # a shoe whose hands so far are all ties: the pending cell alone, with its count
    "only-ties": ("T2 T2 T7", {"tie_counts": ["3"], "tails": 0}),
}
GOLDEN_ROADS = GOLDEN / "roads"
ROAD_DRAWINGS = {
    "bead": lambda hands: bead_road_svg(bead_road(hands), RoadLabels("Bead Road", "Last hands")),
    "big": lambda hands: big_road_svg(big_road(hands), RoadLabels("Big Road", "Every hand")),
}


def summary_of(codes: str) -> ShoeSummary:
    """A shoe as verify summarises it, its hands packed from the codes."""
    hands = hands_from_codes(codes)
    statistics = shoe_statistics(hands)
    return ShoeSummary(
        game_id="live-baccarat-it",
        table_id="LB-IT-01",
        shoe_id="LB-IT-01-S1",
        first_settled_at="2026-10-01T08:00:00.000Z",
        last_settled_at="2026-10-01T09:00:00.000Z",
        rounds=statistics.hands,
        void_rounds=0,
        cards_dealt=4 * statistics.hands,
        banker_wins=statistics.banker_wins,
        player_wins=statistics.player_wins,
        ties=statistics.ties,
        banker_pairs=statistics.banker_pairs,
        player_pairs=statistics.player_pairs,
        hands=bytes(
            encode_hand(h.winner, h.score, player_pair=h.player_pair, banker_pair=h.banker_pair)
            for h in hands
        ),
    )


def test_a_summarys_hands_are_the_hands_it_was_packed_from():
    for codes, _ in GOLDEN_SHOES.values():
        assert hands_from_summary(summary_of(codes)) == hands_from_codes(codes)
    assert hands_from_summary(summary_of("")) == ()


@pytest.mark.parametrize("drawing", sorted(ROAD_DRAWINGS))
@pytest.mark.parametrize("shoe", sorted(GOLDEN_SHOES))
def test_golden_road(shoe, drawing):
    """Each hand-written shoe's road drawn from its summary, byte for byte. Regenerate on
    purpose only: UPDATE_GOLDEN=1 pytest tests/presentation/test_roads.py, then look at the
    pictures (notes/README-shoes.md says how)."""
    codes, shows = GOLDEN_SHOES[shoe]
    actual = ROAD_DRAWINGS[drawing](hands_from_summary(summary_of(codes))) + "\n"
    golden = GOLDEN_ROADS / f"{shoe}.{drawing}.svg"
    if os.environ.get("UPDATE_GOLDEN") == "1":
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(actual, encoding="utf-8")
    assert golden.is_file(), f"{golden} is missing: run with UPDATE_GOLDEN=1 to create it"
    assert actual == golden.read_text(encoding="utf-8"), (
        f"{golden.name} differs from {golden}; if the change is intended, run UPDATE_GOLDEN=1"
    )
    root = ElementTree.fromstring(actual)
    hands = hands_from_codes(codes)
    if drawing == "bead":  # every hand a bead, ties included, its letter and score on it
        beads = root.findall(f"{SVG}g")
        assert [bead.find(f"{SVG}text").text for bead in beads] == [
            h.winner.value[0].upper() for h in hands
        ]
        scores = [bead.find(f"{SVG}text/{SVG}tspan").text for bead in beads]
        assert scores == [str(h.score) for h in hands]
    else:
        counts = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "tie-count"]
        assert counts == shows["tie_counts"]
        assert sum(cell.tail for cell in big_road(hands).cells) == shows["tails"]


def test_every_golden_road_is_one_a_test_draws():
    expected = {f"{shoe}.{drawing}.svg" for shoe in GOLDEN_SHOES for drawing in ROAD_DRAWINGS}
    assert {path.name for path in GOLDEN_ROADS.iterdir()} == expected


def test_svgs_are_the_same_bytes_every_time():
    assert example_svgs() == example_svgs()


# --- the engine's shoe ----------------------------------------------------------------------


def test_the_engines_shoe_is_the_same_for_the_same_seed_and_differs_for_another():
    first = deal_shoe(EXAMPLE_SEED)
    assert first == deal_shoe(EXAMPLE_SEED)
    assert first != deal_shoe(EXAMPLE_SEED + 1)
    assert all(outcome.follows_rules for outcome in first)


def test_the_engines_shoe_is_dealt_to_the_cut_card_after_the_burn():
    outcomes = deal_shoe(7, decks=8, cut_card_depth=14)
    dealt = sum(outcome.cards_dealt for outcome in outcomes)
    # 416 cards less the burn card and the 1-10 cards it burns; the last hand starts with
    # more than 14 cards left and leaves 9 to 14 behind the cut card
    assert 416 - 11 - 14 <= dealt <= 416 - 2 - 9
    assert 60 <= len(outcomes) <= 90
    shown = Counter(card for o in outcomes for card in o.player_cards + o.banker_cards)
    assert max(shown.values()) <= 8  # cards of one 8-deck shoe, none dealt twice


def test_a_cut_card_that_would_leave_a_hand_short_is_refused():
    with pytest.raises(ValueError, match="cut card 5 cards"):
        deal_shoe(1, cut_card_depth=5)


# --- printed --------------------------------------------------------------------------------


def page_with_both_roads() -> str:
    hands = hands_from_outcomes(deal_shoe(EXAMPLE_SEED))
    bead = bead_road_svg(bead_road(hands), RoadLabels("Bead Road", "The last 36 hands"))
    big = big_road_svg(big_road(hands), RoadLabels("Big Road", "Every hand of the shoe"))
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Roads</title>'
        "<style>svg{max-width:100%;height:auto;display:block;margin:8px 0}</style></head>"
        f"<body><h1>Bead Road</h1>{bead}<h1>Big Road</h1>{big}</body></html>"
    )


def colours_of_ppm(data: bytes) -> set[tuple[int, int, int]]:
    """The pixel colours of a binary PPM (P6, 8 bit), as ``pdftoppm`` writes it."""
    fields = data.split(maxsplit=4)
    assert fields[0] == b"P6" and fields[3] == b"255"
    pixels = fields[4]
    return {tuple(pixels[i : i + 3]) for i in range(0, len(pixels) - 2, 3)}


def test_weasyprint_prints_both_roads_in_their_colours(tmp_path: Path):
    from reporting.presentation.pdf import html_to_pdf

    pdf = tmp_path / "roads.pdf"
    pdf.write_bytes(html_to_pdf(page_with_both_roads(), date(2026, 12, 1)))
    ppm = subprocess.run(
        ["pdftoppm", "-r", "40", "-f", "1", "-l", "1", str(pdf)], capture_output=True, check=True
    ).stdout
    colours = colours_of_ppm(ppm)
    for colour in (BANKER_COLOUR, PLAYER_COLOUR, TIE_COLOUR):
        rgb = tuple(int(colour[i : i + 2], 16) for i in (1, 3, 5))
        assert any(max(abs(a - b) for a, b in zip(rgb, seen, strict=True)) < 12 for seen in colours)
