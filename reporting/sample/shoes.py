"""Shoes and dealing: shuffled decks with a burn card and a cut card, numbered per table and
local day, and the partial deal a voided round logs.

The cards themselves are dealt by the engine's own dealer
(:func:`~reporting.engine.rules.deal_round`) from a :class:`Shoe`.
"""

from __future__ import annotations

import random

from reporting.engine.cards import RANKS, SUITS, Card
from reporting.sample.calendar import Clock


class Shoe:
    """Cards in dealing order, an iterator for :func:`deal_round` that can take a card back."""

    __slots__ = ("cards", "position")

    def __init__(self, cards: list[Card]):
        self.cards = cards
        self.position = 0

    def __iter__(self) -> Shoe:
        return self

    def __next__(self) -> Card:
        card = self.cards[self.position]
        self.position += 1
        return card

    def put_back(self) -> None:
        """Return the last card drawn to the top of the shoe."""
        self.position -= 1

    @property
    def remaining(self) -> int:
        """Cards not yet drawn."""
        return len(self.cards) - self.position


def full_deck(decks: int) -> list[Card]:
    """Every card of ``decks`` decks, in a fixed order (the order shuffles start from)."""
    return [Card(rank, suit) for _ in range(decks) for suit in SUITS for rank in RANKS]


def cards_by_points() -> dict[int, list[Card]]:
    """The 52 cards of one deck grouped by their points, in a fixed order."""
    same_points: dict[int, list[Card]] = {}
    for suit in SUITS:
        for rank in RANKS:
            card = Card(rank, suit)
            same_points.setdefault(card.points, []).append(card)
    return same_points


class TableShoes:
    """A live table's shoes through the month: each shuffled from the table's random source,
    burnt, dealt to the cut card, named ``<table>-<local day>-Snn``; and the cards the current
    shoe has shown (kept only while a fault needs them)."""

    def __init__(self, table_id: str, deck: list[Card], clock: Clock, rng: random.Random):
        self.table_id = table_id
        self.deck = deck
        self.clock = clock
        self.rng = rng
        self.current: Shoe | None = None
        self.shoe_id: str | None = None
        self.dealt = 0  # shoes started this month
        self.hand_no = 0
        self.shown: dict[str, int] = {}  # card code -> times the current shoe has shown it
        self._day = ""
        self._today = 0

    def next_hand(self, started: int, cut_card_depth: int) -> Shoe:
        """The shoe the next hand is dealt from, a new one once the cut card is out."""
        if self.current is None or self.current.remaining <= cut_card_depth:
            self._new_shoe(started)
        self.hand_no += 1
        assert self.current is not None
        return self.current

    def record_shown(self, cards: tuple[Card, ...]) -> None:
        """Count the cards of a hand that a reader will load."""
        shown = self.shown
        for card in cards:
            shown[card.code] = shown.get(card.code, 0) + 1

    def _new_shoe(self, started: int) -> None:
        cards = list(self.deck)
        self.rng.shuffle(cards)
        shoe = Shoe(cards)
        burn_card = next(shoe)
        for _ in range(burn_card.points or 10):
            next(shoe)
        day = self.clock.local_day(started)
        self.dealt += 1
        self._today = self._today + 1 if self._day == day else 1
        self._day = day
        self.current = shoe
        self.shoe_id = f"{self.table_id}-{day}-S{self._today:02d}"
        self.shown = {}
        self.hand_no = 0


def partial_deal(
    player: tuple[Card, ...], banker: tuple[Card, ...], rng: random.Random
) -> tuple[list[Card], list[Card]]:
    """The cards logged before a malfunction voided the round: a prefix of the deal order."""
    order = [("p", player[0]), ("b", banker[0]), ("p", player[1]), ("b", banker[1])]
    order += [("p", card) for card in player[2:]] + [("b", card) for card in banker[2:]]
    shown = len(order) if rng.random() < 0.5 else rng.randrange(len(order))
    logged_player = [card for hand, card in order[:shown] if hand == "p"]
    logged_banker = [card for hand, card in order[:shown] if hand == "b"]
    return logged_player, logged_banker
