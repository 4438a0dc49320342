"""Theoretical figures of a game or a shoe: the exact odds of every bet, ready to print.

Rule sheets, disclosures, the audit workbook and the ``odds`` command all take their RTP
figures from here, so every printed RTP comes from the engine.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from reporting.engine.bets import BetRule, PayTable
from reporting.engine.games import GameSpec
from reporting.engine.money import exact_decimal
from reporting.engine.odds import BetOdds, bet_odds, main_probabilities

__all__ = [
    "ShoeOdds",
    "describe_odds",
    "game_odds",
    "ratio_text",
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
        pays={bet.id: describe_odds(bet, table) for bet in game.bets},
    )


def shoe_odds(decks: int, bets: Iterable[BetRule], table: PayTable) -> ShoeOdds:
    """Exact odds of every bet given (the catalogue's), the perfect pair under both of its pay
    tables: ``perfect_pair`` pays both hands as one (A), ``perfect_pair_b`` pays them 200:1 (B)
    unless ``table`` already pays both hands more."""
    odds: list[BetOdds] = []
    pays: dict[str, str] = {}
    for bet in bets:
        if bet.id != "perfect_pair":
            odds.append(bet_odds(bet, decks, table))
            pays[bet.id] = describe_odds(bet, table)
            continue
        one = table.get("perfect_pair_one")
        variant_a = table.changed({"perfect_pair_both": one})  # type: ignore[dict-item]
        variant_b = (
            table
            if table.perfect_pair_variant == "B"
            else table.changed({"perfect_pair_both": Fraction(200)})
        )
        odds.append(bet_odds(bet, decks, variant_a))
        odds.append(bet_odds(bet, decks, variant_b, bet_id="perfect_pair_b"))
        pays["perfect_pair"] = describe_odds(bet, variant_a)
        pays["perfect_pair_b"] = describe_odds(bet, variant_b)
    return ShoeOdds(decks, table, main_probabilities(decks), tuple(odds), pays)


def ratio_text(odds: Fraction) -> str:
    """``19/20`` -> ``0.95``; ``8`` -> ``8``; non-terminating ratios stay as fractions."""
    decimal = exact_decimal(odds)
    return f"{odds.numerator}/{odds.denominator}" if decimal is None else str(decimal)


def describe_odds(bet: BetRule, table: PayTable) -> str:
    """What a bet pays, in the usual "to 1" notation (locale-free, for terminals and JSON):
    one figure when every winning row pays it, else each row's key (``row N`` for a row
    without one) and figure."""
    if bet.paid_by_the_bonus_table:  # the rule sheet's table (its words)
        return "bonus table"
    wins = [
        (row.key or f"row {number}", pay)
        for number, row in enumerate(bet.rows, start=1)
        if isinstance(pay := table.pay(row), Fraction)
    ]
    if not wins:
        return "never pays a win"
    if len({pay for _, pay in wins}) == 1:
        return f"{ratio_text(wins[0][1])}:1"
    # A key that pays several rows (one on each side) is said once.
    return ", ".join(f"{key} {ratio_text(pay)}:1" for key, pay in dict.fromkeys(wins))
