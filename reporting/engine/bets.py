"""Bet types, pay tables, and the settlement of a bet on a resolved round.

A bet's result is decided from the facts of the round (values, naturals, cards dealt,
pairs) and the pay table; its payout is the stake plus the exactly computed win, rounded to
the cent by the game's :class:`~reporting.engine.money.RoundingPolicy`. Pushes and void
rounds return the stake. Side bets are settled on the cards whatever the main result.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Protocol

from reporting.engine.money import RoundingPolicy, round_cents

__all__ = [
    "BET_FAMILIES",
    "BONUS_MARGINS",
    "BetFamily",
    "BetResult",
    "BetType",
    "Facet",
    "PayTable",
    "Resolution",
    "Settlement",
    "refund",
    "resolve_bet",
    "settle",
]


class BetType(enum.StrEnum):
    """Every bet the round log may carry."""

    PLAYER = "player"
    BANKER = "banker"
    TIE = "tie"
    PLAYER_PAIR = "player_pair"
    BANKER_PAIR = "banker_pair"
    EITHER_PAIR = "either_pair"
    PERFECT_PAIR = "perfect_pair"
    SMALL = "small"
    BIG = "big"
    PLAYER_BONUS = "player_bonus"
    BANKER_BONUS = "banker_bonus"

    @property
    def family(self) -> BetFamily:
        """The family the bet belongs to (see :data:`BET_FAMILIES`)."""
        return BET_FAMILIES[self]

    @property
    def facet(self) -> Facet:
        """Which facts of a round decide this bet: the hand values or the first-two-card pairs."""
        return self.family.facet

    @property
    def is_pair_bet(self) -> bool:
        """Pair bets: the ones a house rule may allow only one of per player and round."""
        return self.family is BetFamily.PAIR


class Facet(enum.Enum):
    """The two independent groups of round facts that bets are decided on."""

    POINTS = "points"  # values, naturals, cards dealt
    PAIRS = "pairs"  # ranks and suits of each hand's first two cards


class BetFamily(enum.Enum):
    """Families of bets: which facts settle them and how the pay table pays them."""

    MAIN = "main"  # Player, Banker, Tie: the hands' values
    CARD_COUNT = "card_count"  # Small, Big: the number of cards dealt
    BONUS = "bonus"  # Player / Banker Bonus: the winning margin and naturals, by the bonus table
    PAIR = "pair"  # the ranks and suits of each hand's first two cards

    @property
    def facet(self) -> Facet:
        """The group of round facts the family is decided on."""
        return Facet.PAIRS if self is BetFamily.PAIR else Facet.POINTS


#: Every bet type's family: the one table a new bet type is added to (with its settlement in
#: :func:`resolve_bet`, its words in :mod:`reporting.presentation.bet_words` and its share of play in the sample
#: generator; a test holds each of those complete).
BET_FAMILIES: dict[BetType, BetFamily] = {
    BetType.PLAYER: BetFamily.MAIN,
    BetType.BANKER: BetFamily.MAIN,
    BetType.TIE: BetFamily.MAIN,
    BetType.PLAYER_PAIR: BetFamily.PAIR,
    BetType.BANKER_PAIR: BetFamily.PAIR,
    BetType.EITHER_PAIR: BetFamily.PAIR,
    BetType.PERFECT_PAIR: BetFamily.PAIR,
    BetType.SMALL: BetFamily.CARD_COUNT,
    BetType.BIG: BetFamily.CARD_COUNT,
    BetType.PLAYER_BONUS: BetFamily.BONUS,
    BetType.BANKER_BONUS: BetFamily.BONUS,
}

#: Winning margins, without a natural, that the bonus table pays on (9 down to 4).
BONUS_MARGINS: tuple[int, ...] = (9, 8, 7, 6, 5, 4)


@dataclass(frozen=True, slots=True)
class PayTable:
    """The odds ("to 1") each bet pays. Exact fractions; ``banker`` carries the commission."""

    player: Fraction = Fraction(1)
    banker: Fraction = Fraction(19, 20)
    tie: Fraction = Fraction(8)
    player_pair: Fraction = Fraction(11)
    banker_pair: Fraction = Fraction(11)
    either_pair: Fraction = Fraction(5)
    perfect_pair_one: Fraction = Fraction(25)
    perfect_pair_both: Fraction = Fraction(25)
    small: Fraction = Fraction(3, 2)
    big: Fraction = Fraction(27, 50)
    bonus_natural_win: Fraction = Fraction(1)
    bonus_margins: tuple[tuple[int, Fraction], ...] = field(
        default=(
            (9, Fraction(30)),
            (8, Fraction(10)),
            (7, Fraction(6)),
            (6, Fraction(4)),
            (5, Fraction(2)),
            (4, Fraction(1)),
        )
    )
    bonus_natural_tie_push: bool = True

    @property
    def perfect_pair_variant(self) -> str:
        """``"A"`` when both hands pay as one, ``"B"`` when both hands pay more."""
        return "A" if self.perfect_pair_both == self.perfect_pair_one else "B"

    def bonus_odds(self, margin: int) -> Fraction | None:
        """Odds of a non-natural bonus win by ``margin`` points, or None if it loses."""
        for row_margin, odds in self.bonus_margins:
            if row_margin == margin:
                return odds
        return None


class BetResult(enum.StrEnum):
    """How a bet ended."""

    WIN = "win"
    PUSH = "push"
    LOSE = "lose"


class PointFacts(Protocol):
    """Round facts that main, big/small and bonus bets read."""

    player_value: int
    banker_value: int
    player_natural: bool
    banker_natural: bool

    @property
    def cards_dealt(self) -> int: ...


class PairFacts(Protocol):
    """Round facts that pair bets read."""

    player_pair: bool
    banker_pair: bool
    player_suited_pair: bool
    banker_suited_pair: bool


@dataclass(frozen=True, slots=True)
class Resolution:
    """A bet's result before any money: which pay-table row applied, and its odds."""

    result: BetResult
    odds: Fraction  # 0 unless result is WIN
    row: str  # pay-table row id, e.g. "banker_win", "bonus_margin_9", "tie_push"

    def payout(self, stake: int, rounding: RoundingPolicy) -> int:
        """What a stake of ``stake`` cents brings back, the win rounded by ``rounding``."""
        if self.result is BetResult.WIN:
            return stake + round_cents(stake * self.odds, rounding)
        return stake if self.result is BetResult.PUSH else 0

    def return_multiple(self) -> Fraction:
        """What one unit staked brings back, stake included (exact)."""
        if self.result is BetResult.WIN:
            return 1 + self.odds
        return Fraction(1) if self.result is BetResult.PUSH else Fraction(0)


_LOSE = Fraction(0)


def _win(odds: Fraction, row: str) -> Resolution:
    return Resolution(BetResult.WIN, odds, row)


def _push(row: str) -> Resolution:
    return Resolution(BetResult.PUSH, _LOSE, row)


def _lose(row: str) -> Resolution:
    return Resolution(BetResult.LOSE, _LOSE, row)


def _resolve_main(bet: BetType, facts: PointFacts, table: PayTable) -> Resolution:
    player, banker = facts.player_value, facts.banker_value
    if bet is BetType.TIE:
        return _win(table.tie, "tie_win") if player == banker else _lose("tie_lose")
    if player == banker:
        return _push(f"{bet.value}_tie_push")
    side_wins = player > banker if bet is BetType.PLAYER else banker > player
    if not side_wins:
        return _lose(f"{bet.value}_lose")
    odds = table.player if bet is BetType.PLAYER else table.banker
    return _win(odds, f"{bet.value}_win")


def _resolve_bonus(bet: BetType, facts: PointFacts, table: PayTable) -> Resolution:
    if bet is BetType.PLAYER_BONUS:
        own, other, own_natural = facts.player_value, facts.banker_value, facts.player_natural
    else:
        own, other, own_natural = facts.banker_value, facts.player_value, facts.banker_natural
    if own == other:
        if facts.player_natural and facts.banker_natural and table.bonus_natural_tie_push:
            return _push("bonus_natural_tie_push")
        return _lose("bonus_tie_lose")
    if own < other:
        return _lose("bonus_lose")
    if own_natural:
        return _win(table.bonus_natural_win, "bonus_natural_win")
    margin = own - other
    odds = table.bonus_odds(margin)
    if odds is None:
        return _lose(f"bonus_margin_{margin}_lose")
    return _win(odds, f"bonus_margin_{margin}")


def _resolve_pairs(bet: BetType, facts: PairFacts, table: PayTable) -> Resolution:
    if bet is BetType.PLAYER_PAIR:
        return (
            _win(table.player_pair, "player_pair_win")
            if facts.player_pair
            else _lose("player_pair_lose")
        )
    if bet is BetType.BANKER_PAIR:
        return (
            _win(table.banker_pair, "banker_pair_win")
            if facts.banker_pair
            else _lose("banker_pair_lose")
        )
    if bet is BetType.EITHER_PAIR:
        if facts.player_pair or facts.banker_pair:
            return _win(table.either_pair, "either_pair_win")
        return _lose("either_pair_lose")
    suited = facts.player_suited_pair + facts.banker_suited_pair
    if suited == 2:
        return _win(table.perfect_pair_both, "perfect_pair_both_hands")
    if suited == 1:
        return _win(table.perfect_pair_one, "perfect_pair_one_hand")
    return _lose("perfect_pair_lose")


def _resolve_card_count(bet: BetType, facts: PointFacts, table: PayTable) -> Resolution:
    if bet is BetType.SMALL:
        if facts.cards_dealt == 4:
            return _win(table.small, "small_win")
        return _lose("small_lose")
    if facts.cards_dealt >= 5:
        return _win(table.big, "big_win")
    return _lose("big_lose")


#: How each family is settled.
_RESOLVERS = {
    BetFamily.MAIN: _resolve_main,
    BetFamily.CARD_COUNT: _resolve_card_count,
    BetFamily.BONUS: _resolve_bonus,
    BetFamily.PAIR: _resolve_pairs,
}


def resolve_bet(bet: BetType, facts: PointFacts | PairFacts, table: PayTable) -> Resolution:
    """Decide a bet on a round's facts: win (with the odds and pay-table row), push or lose."""
    return _RESOLVERS[BET_FAMILIES[bet]](bet, facts, table)  # type: ignore[operator]


@dataclass(frozen=True, slots=True)
class Settlement:
    """A bet settled in cents: what it returns (stake included) and which row paid."""

    bet_type: BetType
    stake: int
    payout: int
    result: BetResult
    row: str
    exact_win: Fraction  # the win before rounding, in cents


def settle(
    bet: BetType,
    stake: int,
    facts: PointFacts | PairFacts,
    table: PayTable,
    rounding: RoundingPolicy = RoundingPolicy.DOWN,
) -> Settlement:
    """Settle a bet of ``stake`` cents: stake plus the win rounded by ``rounding``.

    >>> from reporting.engine.cards import parse_cards
    >>> from reporting.engine.rules import resolve_round
    >>> outcome = resolve_round(parse_cards("9H KS"), parse_cards("5D 2C AH"))
    >>> settle(BetType.PLAYER, 2500, outcome, PayTable()).payout
    5000
    """
    if not isinstance(stake, int) or isinstance(stake, bool) or stake <= 0:
        raise ValueError(f"stake must be a positive integer number of cents, got {stake!r}")
    resolution = resolve_bet(bet, facts, table)
    exact_win = stake * resolution.odds if resolution.result is BetResult.WIN else Fraction(0)
    payout = resolution.payout(stake, rounding)
    return Settlement(bet, stake, payout, resolution.result, resolution.row, exact_win)


def refund(bet: BetType, stake: int) -> Settlement:
    """Settlement of a bet on a void round: the stake comes back."""
    return Settlement(bet, stake, stake, BetResult.PUSH, "void_refund", Fraction(0))
