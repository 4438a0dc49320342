"""Theoretical figures of a game or a shoe: the exact odds of every bet, ready to print.

Rule sheets, disclosures, the audit workbook and the ``odds`` command all take their RTP
figures from here, so every printed RTP comes from the engine.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from fractions import Fraction

from reporting.engine.bets import BetType, PayTable
from reporting.engine.games import GameSpec
from reporting.engine.money import exact_decimal
from reporting.engine.odds import BetOdds, bet_odds, main_probabilities

__all__ = [
    "ShoeOdds",
    "describe_odds",
    "game_odds",
    "shoe_odds",
]


@dataclass(frozen=True)
class ShoeOdds:
    """Exact odds of a set of bets for one shoe and pay table."""

    decks: int
    pay_table: PayTable
    outcomes: dict[str, Fraction]  # banker / player / tie probabilities
    bets: tuple[BetOdds, ...]
    pays: dict[str, str]  # bet id -> what it pays, e.g. "0.95:1"

    def rtp_of(self, bet_id: str) -> Fraction:
        """The theoretical RTP of one bet id."""
        for odds in self.bets:
            if odds.bet == bet_id:
                return odds.rtp
        raise KeyError(bet_id)

    @property
    def best_rtp(self) -> Fraction:
        """The highest RTP of any bet (the return under optimal play)."""
        return max(odds.rtp for odds in self.bets)


def game_odds(game: GameSpec, decks: int | None = None, table: PayTable | None = None) -> ShoeOdds:
    """Exact odds of every bet the game offers, under its own (or the given) decks and table."""
    decks = decks or game.decks
    table = table or game.pay_table
    return ShoeOdds(
        decks=decks,
        pay_table=table,
        outcomes=main_probabilities(decks),
        bets=tuple(bet_odds(bet, decks, table) for bet in game.bets),
        pays={bet.value: describe_odds(bet, table) for bet in game.bets},
    )


def shoe_odds(decks: int, table: PayTable | None = None) -> ShoeOdds:
    """Exact odds of every bet of the catalogue, perfect pair under both pay tables (A and B)."""
    table = table or PayTable()
    variant_a = dataclasses.replace(table, perfect_pair_both=table.perfect_pair_one)
    variant_b = (
        table
        if table.perfect_pair_variant == "B"
        else dataclasses.replace(table, perfect_pair_both=Fraction(200))
    )
    bets = [bet_odds(bet, decks, table) for bet in BetType if bet is not BetType.PERFECT_PAIR]
    position = list(BetType).index(BetType.PERFECT_PAIR)
    bets[position:position] = [
        bet_odds(BetType.PERFECT_PAIR, decks, variant_a),
        bet_odds(BetType.PERFECT_PAIR, decks, variant_b, bet_id="perfect_pair_b"),
    ]
    pays = {bet.value: describe_odds(bet, table) for bet in BetType}
    pays["perfect_pair"] = describe_odds(BetType.PERFECT_PAIR, variant_a)
    pays["perfect_pair_b"] = describe_odds(BetType.PERFECT_PAIR, variant_b)
    return ShoeOdds(decks, table, main_probabilities(decks), tuple(bets), pays)


def _ratio_text(odds: Fraction) -> str:
    """``19/20`` -> ``0.95``; ``8`` -> ``8``; non-terminating ratios stay as fractions."""
    decimal = exact_decimal(odds)
    return f"{odds.numerator}/{odds.denominator}" if decimal is None else str(decimal)


def describe_odds(bet: BetType, table: PayTable) -> str:
    """What a bet pays, in the usual "to 1" notation (locale-free, for terminals and JSON)."""
    if bet in (BetType.PLAYER_BONUS, BetType.BANKER_BONUS):
        return "bonus table"
    if bet is BetType.PERFECT_PAIR:
        one = _ratio_text(table.perfect_pair_one)
        if table.perfect_pair_variant == "A":
            return f"{one}:1"
        return f"{one}:1, both {_ratio_text(table.perfect_pair_both)}:1"
    return f"{_ratio_text(getattr(table, bet.value))}:1"
