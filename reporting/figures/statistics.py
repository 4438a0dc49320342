"""Statistics of a period against the exact theory: outcome frequencies and actual RTP.

* Per game table: Banker / Player / Tie counts against their exact probabilities, with a
  chi-square test (two degrees of freedom, so the p-value is exactly ``exp(-x / 2)``).
* Per game and bet type: the actual RTP (payouts over stakes, exact) against the engine's
  theoretical RTP, with a 99.9% bound that scales with the volume played: the standard
  deviation of the total return is ``sqrt(variance x sum of squares)``, using the exact
  variance of one unit's return, and squaring each round's stake on the bet type (not each
  bet's: the bets of one type in one round win or lose together, and counted as if apart
  they would narrow the bound by as much as the square root of their number). The sums come
  from verify's streaming pass (no second scan of the bets); they are exact integers, and only
  the bound is a float.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from statistics import NormalDist

from reporting.engine.games import GameSpec
from reporting.engine.odds import bet_odds, main_probabilities
from reporting.verify.totals import BetTotals, TableCounts

__all__ = [
    "CONFIDENCE",
    "CONFIDENCE_LABEL",
    "OutcomeTest",
    "RtpCheck",
    "outcome_tests",
    "played_rtp",
    "rtp_checks",
]

#: The confidence of every statistical bound the tool draws: a figure outside it is flagged.
CONFIDENCE = Fraction(999, 1000)
#: The confidence as the reports and the workbook print it ("99.9%").
CONFIDENCE_LABEL = f"{float(CONFIDENCE * 100):g}%"
#: Two-sided quantile of the standard normal distribution at :data:`CONFIDENCE`.
Z_BOUND = NormalDist().inv_cdf(float(1 - (1 - CONFIDENCE) / 2))
#: Chi-square critical value for 2 degrees of freedom at :data:`CONFIDENCE`: -2 ln(1 - CONFIDENCE).
CHI2_BOUND_2DF = -2 * math.log(float(1 - CONFIDENCE))


@dataclass(frozen=True, slots=True)
class OutcomeTest:
    """Banker / Player / Tie frequencies of one table against the exact probabilities."""

    game_id: str
    table_id: str
    rounds: int
    banker: int
    player: int
    tie: int
    expected_banker: float
    expected_player: float
    expected_tie: float
    chi_square: float
    p_value: float

    @property
    def flagged(self) -> bool:
        """Whether the counts fall outside the 99.9% acceptance region."""
        return self.rounds > 0 and self.p_value < 0.001


@dataclass(frozen=True, slots=True)
class RtpCheck:
    """Actual RTP of one bet type of one game against its theoretical RTP."""

    game_id: str
    bet_type: str
    bets: int
    stakes: int  # cents
    payouts: int  # cents
    theoretical_rtp: Fraction
    bound: float  # half-width of the 99.9% interval around the theoretical RTP

    @property
    def actual_rtp(self) -> Fraction | None:
        """Payouts over stakes, exact; None without stakes."""
        return Fraction(self.payouts, self.stakes) if self.stakes else None

    @property
    def z_score(self) -> float | None:
        """Standardised distance of the actual from the theoretical RTP."""
        actual = self.actual_rtp
        if actual is None or self.bound == 0:
            return None
        return float(actual - self.theoretical_rtp) / (self.bound / Z_BOUND)

    @property
    def flagged(self) -> bool:
        """Whether the actual RTP lies outside the 99.9% interval."""
        z = self.z_score
        return z is not None and abs(z) > Z_BOUND


def outcome_tests(
    tables: Mapping[tuple[str, str], TableCounts], games: Mapping[str, GameSpec]
) -> list[OutcomeTest]:
    """Chi-square test of each table's Banker / Player / Tie counts."""
    tests = []
    shares: dict[int, tuple[float, ...]] = {}  # by deck count: a month may log many tables
    for (game_id, table_id), counts in sorted(tables.items()):
        decks = games[game_id].decks
        if decks not in shares:
            probabilities = main_probabilities(decks)
            shares[decks] = tuple(
                float(probabilities[name]) for name in ("banker", "player", "tie")
            )
        observed = (counts.banker, counts.player, counts.tie)
        expected = tuple(share * counts.rounds for share in shares[decks])
        chi_square = (
            sum((o - e) ** 2 / e for o, e in zip(observed, expected, strict=True))
            if counts.rounds
            else 0.0
        )
        tests.append(
            OutcomeTest(
                game_id,
                table_id,
                counts.rounds,
                *observed,
                *expected,
                chi_square,
                math.exp(-chi_square / 2),
            )
        )
    return tests


def rtp_checks(
    totals: Mapping[tuple[str, str], BetTotals], games: Mapping[str, GameSpec]
) -> list[RtpCheck]:
    """Actual against theoretical RTP per game and bet type, from verify's exact sums."""
    checks = []
    for (game_id, bet_type), sums in sorted(totals.items()):
        game = games.get(game_id)
        if game is None or not game.offers(bet_type):
            continue
        odds = bet_odds(game.bet(bet_type), game.decks, game.pay_table)
        bound = (
            Z_BOUND * math.sqrt(float(odds.variance * sums.round_stake_squares)) / sums.stakes
            if sums.stakes
            else 0.0
        )
        checks.append(
            RtpCheck(game_id, bet_type, sums.bets, sums.stakes, sums.payouts, odds.rtp, bound)
        )
    return checks


def played_rtp(checks: Iterable[RtpCheck]) -> Fraction | None:
    """The theoretical RTP of what was played: each bet type's exact RTP weighted by its
    stakes (None without stakes)."""
    stakes = weighted = 0
    for check in checks:
        stakes += check.stakes
        weighted += check.stakes * check.theoretical_rtp
    return Fraction(weighted) / stakes if stakes else None
