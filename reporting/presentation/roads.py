"""A shoe's scoreboard as live baccarat tables show it: the shoe statistics, the Bead Road and
the Big Road, as frozen records and as self-contained SVG drawings.

Everything here is pure: a shoe's hands in dealing order in, records and SVG text out, the
same bytes for the same hands. The words of a drawing (its title, its aria label) are given by
the caller, so that each language's words come from its catalogue; numbers are formatted by the
page, so the statistics give integers and exact fractions. The hands come from the engine's
outcomes (:func:`hands_from_outcomes`) or from a shoe verify summarised
(:func:`hands_from_summary`, one byte per hand: :mod:`reporting.verify.shoes`).

The rules, as live tables draw them:

- **Bead Road**: the last ``window`` hands (36 by default) in dealing order, top to bottom,
  then left to right, in a grid of ``rows`` rows (6). Every hand is a cell, ties included:
  a disc in its winner's colour with the winner's letter (B, P, T, or the page's own:
  :class:`WinnerLetters`, so that a reader who cannot tell red from green reads the letter),
  its winning score (on a tie, the tied score) and its pair marks. The window is
  the last hands exactly, so its first cell is the oldest hand shown, wherever the shoe began.
- **Big Road**: every hand of the shoe. Banker and Player hands are cells; a new column (a
  *run*) starts when the winner changes. A tie is not a cell: it is a mark on the cell of the
  hand before it (a green bar; with two or more ties, the count beside it). Ties dealt before
  any Banker or Player hand are kept on a *pending first cell* (drawn as an empty cell with
  its bar), which the first Banker or Player hand then fills, keeping the marks: this is what
  live tables show, so on a filled road the first cell's bar stands for the ties *before*
  its hand, every other bar for the ties after its hand (the page's text says so). A tie's pairs are marked on the cell the tie is marked on, so no pair
  of the shoe is lost from the road; the cell names every hand it stands for.
- **Dragon tail**: a run goes down its column; when it reaches the bottom row, or the cell
  below is already taken by an earlier run's tail, it turns right along the row it is on and
  goes on to the right. A new run starts at the top of the first column after the previous
  run's first column whose top cell is free.

>>> hands = hands_from_codes("B6 B7 T5 P8 P9 B6")
>>> [(cell.column, cell.row, cell.winner.value, cell.ties) for cell in big_road(hands).cells]
[(0, 0, 'banker', 0), (0, 1, 'banker', 1), (1, 0, 'player', 0), (1, 1, 'player', 0), (2, 0, 'banker', 0)]
>>> statistics = shoe_statistics(hands)
>>> statistics.hands, statistics.banker_wins, statistics.player_wins, statistics.ties
(6, 3, 2, 1)
>>> statistics.share(statistics.banker_wins)
Fraction(1, 2)
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from xml.sax.saxutils import escape, quoteattr

from reporting.engine.games import MIN_CUT_CARD_DEPTH, cut_card_depths
from reporting.engine.rules import Outcome, Winner, deal_round, resolve_round
from reporting.sample.calendar import Clock
from reporting.sample.shoes import TableShoes, full_deck
from reporting.verify.shoes import ShoeSummary, decode_hands

__all__ = [
    "BANKER_COLOUR",
    "EXAMPLE_SEED",
    "MARKED_COLOUR",
    "PLAYER_COLOUR",
    "TIE_COLOUR",
    "BeadCell",
    "BeadRoad",
    "BigRoad",
    "BigRoadCell",
    "Hand",
    "RoadLabels",
    "ShoeStatistics",
    "WinnerLetters",
    "bead_road",
    "bead_road_svg",
    "big_road",
    "big_road_svg",
    "deal_shoe",
    "hands_from_codes",
    "hands_from_outcomes",
    "hands_from_summary",
    "shoe_statistics",
]

#: The colours of the live tables' scoreboards (dark enough for white text on them).
BANKER_COLOUR = "#c62828"
PLAYER_COLOUR = "#1565c0"
TIE_COLOUR = "#2e7d32"
#: The outline of a marked (disputed) hand's cell: near black, unlike any winner's colour.
MARKED_COLOUR = "#212121"
_COLOURS = {Winner.BANKER: BANKER_COLOUR, Winner.PLAYER: PLAYER_COLOUR, Winner.TIE: TIE_COLOUR}
_FONT = "DejaVu Sans, Verdana, sans-serif"


# --------------------------------------------------------------------------------------------
# Hands and statistics


@dataclass(frozen=True, slots=True)
class Hand:
    """One hand of a shoe as the scoreboard shows it."""

    winner: Winner
    score: int  # the winning hand's value; on a tie, the tied value
    player_pair: bool = False
    banker_pair: bool = False

    @classmethod
    def from_outcome(cls, outcome: Outcome) -> Hand:
        """The scoreboard's view of a resolved round.

        >>> from reporting.engine.cards import parse_cards
        >>> Hand.from_outcome(resolve_round(parse_cards("4H 4S"), parse_cards("9D KC")))
        Hand(winner=<Winner.BANKER: 'banker'>, score=9, player_pair=True, banker_pair=False)
        """
        score = outcome.player_value if outcome.winner is Winner.PLAYER else outcome.banker_value
        return cls(outcome.winner, score, outcome.player_pair, outcome.banker_pair)


_CODE_WINNERS = {"B": Winner.BANKER, "P": Winner.PLAYER, "T": Winner.TIE}


def hands_from_codes(text: str) -> tuple[Hand, ...]:
    """Hands written short, for examples and tests: winner letter (B, P, T), score, then
    ``b`` for a Banker pair and ``p`` for a Player pair, separated by spaces.

    >>> hands_from_codes("B6 T0pb")
    (Hand(winner=<Winner.BANKER: 'banker'>, score=6, player_pair=False, banker_pair=False), Hand(winner=<Winner.TIE: 'tie'>, score=0, player_pair=True, banker_pair=True))
    """
    hands = []
    for code in text.split():
        winner = _CODE_WINNERS.get(code[0])
        if winner is None or len(code) < 2 or not code[1].isdigit() or set(code[2:]) - {"p", "b"}:
            raise ValueError(f"hand code {code!r} is not B/P/T, a score, then p or b for pairs")
        hands.append(Hand(winner, int(code[1]), "p" in code[2:], "b" in code[2:]))
    return tuple(hands)


def hands_from_outcomes(outcomes: Iterable[Outcome]) -> tuple[Hand, ...]:
    """The scoreboard's hands of resolved rounds, in the same order."""
    return tuple(Hand.from_outcome(outcome) for outcome in outcomes)


def hands_from_summary(summary: ShoeSummary) -> tuple[Hand, ...]:
    """The scoreboard's hands of a shoe verify summarised
    (:class:`~reporting.verify.shoes.ShoeSummary`), in dealing order: hand ``n`` of the roads
    is byte ``n - 1`` of ``summary.hands``, as ``summary.finding_hands`` numbers them.

    >>> from reporting.verify.shoes import encode_hand
    >>> hands = bytes([encode_hand(Winner.TIE, 4, banker_pair=True), encode_hand(Winner.PLAYER, 8)])
    >>> hands_from_summary(ShoeSummary("g", "t", "s", "", "", 2, 0, 9, 0, 1, 1, 1, 0, hands))
    (Hand(winner=<Winner.TIE: 'tie'>, score=4, player_pair=False, banker_pair=True), Hand(winner=<Winner.PLAYER: 'player'>, score=8, player_pair=False, banker_pair=False))
    """
    return tuple(
        Hand(hand.winner, hand.score, hand.player_pair, hand.banker_pair)
        for hand in decode_hands(summary.hands)
    )


@dataclass(frozen=True, slots=True)
class ShoeStatistics:
    """The statistics panel of one shoe: counts of hands, wins and pairs."""

    hands: int
    banker_wins: int
    player_wins: int
    ties: int
    banker_pairs: int
    player_pairs: int

    def share(self, count: int) -> Fraction | None:
        """``count`` as an exact share of the shoe's hands; ``None`` before the first hand."""
        return Fraction(count, self.hands) if self.hands else None


def shoe_statistics(hands: Sequence[Hand]) -> ShoeStatistics:
    """Count a shoe's hands. Banker, Player and tie wins sum to the hands.

    >>> shoe_statistics(hands_from_codes("B6b P7pb T2"))
    ShoeStatistics(hands=3, banker_wins=1, player_wins=1, ties=1, banker_pairs=2, player_pairs=1)
    """
    return ShoeStatistics(
        hands=len(hands),
        banker_wins=sum(hand.winner is Winner.BANKER for hand in hands),
        player_wins=sum(hand.winner is Winner.PLAYER for hand in hands),
        ties=sum(hand.winner is Winner.TIE for hand in hands),
        banker_pairs=sum(hand.banker_pair for hand in hands),
        player_pairs=sum(hand.player_pair for hand in hands),
    )


# --------------------------------------------------------------------------------------------
# Bead Road


@dataclass(frozen=True, slots=True)
class BeadCell:
    """One hand on the Bead Road."""

    column: int
    row: int
    number: int  # the hand's number in the shoe, from 1
    hand: Hand


@dataclass(frozen=True, slots=True)
class BeadRoad:
    """The last hands of a shoe in a grid, top to bottom then left to right."""

    rows: int
    columns: int  # of the grid, filled or not: the window divided by the rows, rounded up
    cells: tuple[BeadCell, ...]
    hands_in_shoe: int


def bead_road(hands: Sequence[Hand], window: int = 36, rows: int = 6) -> BeadRoad:
    """The Bead Road of the last ``window`` hands.

    >>> road = bead_road(hands_from_codes("B1 P2 T3 B4 B5 P6 P7 B8"), window=6, rows=3)
    >>> [(cell.column, cell.row, cell.number) for cell in road.cells]
    [(0, 0, 3), (0, 1, 4), (0, 2, 5), (1, 0, 6), (1, 1, 7), (1, 2, 8)]
    """
    if window < 1 or rows < 1:
        raise ValueError(f"a Bead Road needs a window and rows of at least 1 ({window}, {rows})")
    first = max(len(hands) - window, 0)
    cells = tuple(
        BeadCell(index // rows, index % rows, first + index + 1, hand)
        for index, hand in enumerate(hands[first:])
    )
    return BeadRoad(rows, -(-window // rows), cells, len(hands))


# --------------------------------------------------------------------------------------------
# Big Road


@dataclass(frozen=True, slots=True)
class BigRoadCell:
    """One Banker or Player hand on the Big Road, with the ties marked on it.

    ``winner`` is ``None`` only on the pending first cell of a shoe whose hands so far are
    ties. ``number`` is the hand's number in the shoe (``None`` on a pending cell);
    ``tie_numbers`` the numbers of the ties marked on the cell, before it (a shoe's leading
    ties, on its first cell) or after it.
    """

    column: int
    row: int
    run: int  # the run (logical column) the hand belongs to, from 0
    winner: Winner | None
    number: int | None
    tie_numbers: tuple[int, ...]
    player_pair: bool
    banker_pair: bool
    tail: bool  # placed to the right of its run's column: part of a dragon tail

    @property
    def ties(self) -> int:
        """Tie marks on the cell: a bar for one, the bar and the count for two or more."""
        return len(self.tie_numbers)


@dataclass(frozen=True, slots=True)
class BigRoad:
    """Every hand of a shoe on the Big Road."""

    rows: int
    columns: int  # grid columns holding a cell, dragon tails included
    runs: int
    cells: tuple[BigRoadCell, ...]


@dataclass(slots=True)
class _Draft:
    """A Big Road cell while the ties after it are still coming."""

    column: int
    row: int
    run: int
    winner: Winner | None
    number: int | None
    tail: bool
    tie_numbers: list[int] = field(default_factory=list)
    player_pair: bool = False
    banker_pair: bool = False

    def frozen(self) -> BigRoadCell:
        return BigRoadCell(
            column=self.column,
            row=self.row,
            run=self.run,
            winner=self.winner,
            number=self.number,
            tie_numbers=tuple(self.tie_numbers),
            player_pair=self.player_pair,
            banker_pair=self.banker_pair,
            tail=self.tail,
        )


class _Grid:
    """Where the next Big Road cell goes: down the run's column, then right (a dragon tail)."""

    def __init__(self, rows: int):
        self.rows = rows
        self.taken: set[tuple[int, int]] = set()
        self.run_column = -1  # the first column of the current run
        self.last: tuple[int, int] | None = None
        self.turned = False

    def new_run(self) -> tuple[int, int]:
        column = self.run_column + 1
        while (column, 0) in self.taken:
            column += 1
        self.run_column, self.turned = column, False
        return self._take(column, 0)

    def same_run(self) -> tuple[int, int]:
        assert self.last is not None
        column, row = self.last
        below = (column, row + 1)
        if not self.turned and row + 1 < self.rows and below not in self.taken:
            return self._take(*below)
        self.turned = True
        column += 1
        while (column, row) in self.taken:  # cannot happen with the rules above; kept safe
            column += 1
        return self._take(column, row)

    def _take(self, column: int, row: int) -> tuple[int, int]:
        self.taken.add((column, row))
        self.last = (column, row)
        return column, row


def big_road(hands: Sequence[Hand], rows: int = 6) -> BigRoad:
    """The Big Road of a shoe's hands (see the module's docstring for the rules).

    >>> road = big_road(hands_from_codes("T4 T2 P5 B7"))
    >>> [(c.column, c.row, c.winner.value, c.number, c.tie_numbers) for c in road.cells]
    [(0, 0, 'player', 3, (1, 2)), (1, 0, 'banker', 4, ())]
    >>> [(c.winner, c.ties) for c in big_road(hands_from_codes("T4")).cells]
    [(None, 1)]
    """
    if rows < 1:
        raise ValueError(f"a Big Road needs at least 1 row ({rows})")
    grid = _Grid(rows)
    drafts: list[_Draft] = []
    runs = 0
    for number, hand in enumerate(hands, start=1):
        if hand.winner is Winner.TIE:
            if not drafts:  # the pending first cell
                drafts.append(_Draft(*grid.new_run(), 0, None, None, False))
            target = drafts[-1]
            target.tie_numbers.append(number)
        elif drafts and drafts[-1].winner is None:  # the first Banker/Player hand fills it
            target = drafts[-1]
            target.winner, target.number = hand.winner, number
            runs = 1
        else:
            if not drafts or drafts[-1].winner is not hand.winner:
                column, row = grid.new_run()
                runs += 1
            else:
                column, row = grid.same_run()
            target = _Draft(column, row, runs - 1, hand.winner, number, grid.turned)
            drafts.append(target)
        target.player_pair |= hand.player_pair
        target.banker_pair |= hand.banker_pair
    cells = tuple(draft.frozen() for draft in drafts)
    columns = max((cell.column for cell in cells), default=-1) + 1
    return BigRoad(rows, columns, runs, cells)


# --------------------------------------------------------------------------------------------
# Drawing


@dataclass(frozen=True, slots=True)
class WinnerLetters:
    """The letter on a Bead Road disc for each winner, in the page's language (the initials of
    its words for the hands, English B, P, T by default): the colour is not the only sign.

    >>> WinnerLetters().of(Winner.TIE), WinnerLetters(banker="M", player="Π", tie="Ι").of(Winner.BANKER)
    ('T', 'M')
    """

    banker: str = "B"
    player: str = "P"
    tie: str = "T"

    def of(self, winner: Winner) -> str:
        """The letter of ``winner``."""
        return {Winner.BANKER: self.banker, Winner.PLAYER: self.player, Winner.TIE: self.tie}[
            winner
        ]


@dataclass(frozen=True, slots=True)
class RoadLabels:
    """The words of a drawing, in the page's language: a short title (the SVG ``<title>``,
    shown as a tooltip), the sentence a screen reader says (the ``aria-label``) and the
    winners' letters of the Bead Road."""

    title: str
    description: str
    letters: WinnerLetters = WinnerLetters()


BEAD_CELL = 34  # px: 6 columns and the margins fit a 360 px phone with room to spare
BIG_CELL = 22  # px
MARGIN = 2  # px around the grid


def _svg_open(width: int, height: int, labels: RoadLabels, kind: str, extra: str = "") -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="road {kind}" role="img"'
        f' viewBox="0 0 {width} {height}" width="{width}" height="{height}"'
        f" aria-label={quoteattr(labels.description)}{extra}>"
        f"<title>{escape(labels.title)}</title>"
    )


def _grid_lines(columns: int, rows: int, cell: int) -> list[str]:
    """The faint grid of the scoreboard, one path, so that a cell count stays a cell count."""
    width, height = columns * cell, rows * cell
    lines = [f"M{MARGIN + c * cell} {MARGIN}v{height}" for c in range(columns + 1)]
    lines += [f"M{MARGIN} {MARGIN + r * cell}h{width}" for r in range(rows + 1)]
    return [f'<path class="grid" d="{"".join(lines)}" fill="none" stroke="#c8c8c8"/>']


def _pair_dots(x: int, y: int, cell: int, player_pair: bool, banker_pair: bool) -> str:
    """A red dot top left for a Banker pair, a blue dot bottom right for a Player pair."""
    radius = max(cell // 8, 3)
    near, far = x + cell // 5 + 1, x + cell - cell // 5 - 1  # on the rim of the cell's disc
    top, bottom = y + cell // 5 + 1, y + cell - cell // 5 - 1
    dots = ""
    if banker_pair:
        dots += (
            f'<circle class="pair banker-pair" cx="{near}" cy="{top}" r="{radius}"'
            f' fill="{BANKER_COLOUR}" stroke="#fff"/>'
        )
    if player_pair:
        dots += (
            f'<circle class="pair player-pair" cx="{far}" cy="{bottom}" r="{radius}"'
            f' fill="{PLAYER_COLOUR}" stroke="#fff"/>'
        )
    return dots


def _marked_outline(x: int, y: int, cell: int) -> str:
    """The outline of a marked cell (a disputed hand): a dark square just inside the cell."""
    return (
        f'<rect class="marked" x="{x + 1}" y="{y + 1}" width="{cell - 2}" height="{cell - 2}"'
        f' rx="3" fill="none" stroke="{MARKED_COLOUR}" stroke-width="2" stroke-dasharray="4 2"/>'
    )


def bead_road_svg(road: BeadRoad, labels: RoadLabels, marked: frozenset[int] = frozenset()) -> str:
    """The Bead Road drawn: one filled disc per hand in its winner's colour, the winner's
    letter (``labels.letters``) and the winning score on it, and its pair dots. A
    self-contained SVG, the same text for the same road.

    ``marked``: hand numbers (in the shoe, from 1) whose cells get a dashed outline (the
    disputed hands of an audit); without it the drawing is the scoreboard's own.

    >>> svg = bead_road_svg(bead_road(hands_from_codes("B6 P7p")), RoadLabels("Bead Road", "2 hands"))
    >>> svg.count('class="bead '), svg.count("<title>Bead Road</title>"), svg.count(">P<tspan")
    (2, 1, 1)
    """
    cell = BEAD_CELL
    width, height = road.columns * cell + 2 * MARGIN, road.rows * cell + 2 * MARGIN
    parts = [_svg_open(width, height, labels, "bead-road")]
    parts += _grid_lines(road.columns, road.rows, cell)
    half, radius = cell // 2, cell // 2 - 3
    for bead in road.cells:
        x, y = MARGIN + bead.column * cell, MARGIN + bead.row * cell
        hand = bead.hand
        parts.append(
            f'<g class="bead {hand.winner.value}" data-hand="{bead.number}">'
            f'<circle cx="{x + half}" cy="{y + half}" r="{radius}"'
            f' fill="{_COLOURS[hand.winner]}"/>'
            f'<text x="{x + half}" y="{y + half + 5}" text-anchor="middle" font-size="13"'
            f' font-weight="bold" font-family="{_FONT}" fill="#fff">'
            f"{escape(labels.letters.of(hand.winner))}"
            f'<tspan class="score" font-size="11" font-weight="normal">{hand.score}</tspan>'
            "</text>"
            f"{_pair_dots(x, y, cell, hand.player_pair, hand.banker_pair)}"
            f"{_marked_outline(x, y, cell) if bead.number in marked else ''}</g>"
        )
    parts.append("</svg>")
    return "".join(parts)


def _tie_mark(x: int, y: int, cell: int, ties: int) -> str:
    """A green bar across the cell; the count beside it when two or more ties are marked."""
    if not ties:
        return ""
    mark = (
        f'<path class="tie-mark" d="M{x + 4} {y + cell - 4}L{x + cell - 4} {y + 4}"'
        f' stroke="{TIE_COLOUR}" stroke-width="3" stroke-linecap="round"/>'
    )
    if ties >= 2:  # the count over the bar, on a white outline drawn first so it reads
        text = (
            f' x="{x + cell // 2}" y="{y + cell // 2 + 4}" text-anchor="middle" font-size="12"'
            f' font-weight="bold" font-family="{_FONT}"'
        )
        mark += (
            f'<text{text} fill="#fff" stroke="#fff" stroke-width="3">{ties}</text>'
            f'<text class="tie-count"{text} fill="{TIE_COLOUR}">{ties}</text>'
        )
    return mark


def big_road_svg(
    road: BigRoad,
    labels: RoadLabels,
    min_columns: int = 12,
    marked: frozenset[int] = frozenset(),
) -> str:
    """The Big Road drawn: a ring in its winner's colour per Banker or Player hand, tie bars
    (and their count), pair dots. At least ``min_columns`` grid columns are drawn, as a live
    table's empty board shows; the ``data-columns`` attribute says how many hold a cell.

    ``marked``: hand numbers whose cell gets a dashed outline: the cell of a Banker or Player
    hand, and the cell a tie is marked on (a tie has no cell of its own).

    >>> svg = big_road_svg(big_road(hands_from_codes("B6 T2 T3 P7")), RoadLabels("Big Road", "2 hands, 2 ties"))
    >>> svg.count('class="cell '), svg.count('class="tie-count"'), 'data-columns="2"' in svg
    (2, 1, True)
    """
    cell = BIG_CELL
    columns = max(road.columns, min_columns)
    width, height = columns * cell + 2 * MARGIN, road.rows * cell + 2 * MARGIN
    parts = [_svg_open(width, height, labels, "big-road", f' data-columns="{road.columns}"')]
    parts += _grid_lines(columns, road.rows, cell)
    half, radius = cell // 2, cell // 2 - 4
    for entry in road.cells:
        x, y = MARGIN + entry.column * cell, MARGIN + entry.row * cell
        kind = entry.winner.value if entry.winner is not None else "pending"
        number = f' data-hand="{entry.number}"' if entry.number is not None else ""
        ring = ""
        if entry.winner is not None:
            ring = (
                f'<circle cx="{x + half}" cy="{y + half}" r="{radius}" fill="none"'
                f' stroke="{_COLOURS[entry.winner]}" stroke-width="3"/>'
            )
        hands = {entry.number, *entry.tie_numbers}
        outline = _marked_outline(x, y, cell) if marked and hands & marked else ""
        parts.append(
            f'<g class="cell {kind}"{number}>{ring}{_tie_mark(x, y, cell, entry.ties)}'
            f"{_pair_dots(x, y, cell, entry.player_pair, entry.banker_pair)}{outline}</g>"
        )
    parts.append("</svg>")
    return "".join(parts)


# --------------------------------------------------------------------------------------------
# A real shoe of the engine


#: The seed of the pages' example shoe: its hands begin with two ties (a pending first cell),
#: its Big Road has dragon tails and runs of ties, and its last 36 hands hold both pairs.
EXAMPLE_SEED = 375


def deal_shoe(seed: int | str, decks: int = 8, cut_card_depth: int = 14) -> tuple[Outcome, ...]:
    """Every round of one shoe, dealt by the engine's rules as the sample generator deals a
    live table's shoe (:class:`~reporting.sample.shoes.TableShoes`): ``decks`` decks shuffled
    from ``random.Random(seed)``, a burn card and as many cards as its points (ten for a ten
    or a court card) burnt, then hands dealt until no more than ``cut_card_depth`` cards are
    left before a hand. The same seed gives the same rounds.
    """
    if cut_card_depth not in cut_card_depths(decks):
        raise ValueError(
            f"a cut card {cut_card_depth} cards from the end does not fit a shoe of {decks}"
            f" decks (from {MIN_CUT_CARD_DEPTH} to half the shoe)"
        )
    shoes = TableShoes("EXAMPLE", full_deck(decks), Clock("UTC"), random.Random(seed))
    shoe = shoes.next_hand(0, cut_card_depth)
    outcomes = []
    while True:
        outcomes.append(resolve_round(*deal_round(shoe)))
        if shoe.remaining <= cut_card_depth:
            return tuple(outcomes)
        shoes.next_hand(0, cut_card_depth)
