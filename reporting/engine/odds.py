"""Exact odds of every bet, by combinatorial counting over a shoe of any number of decks.

No simulation: every probability is an exact :class:`~fractions.Fraction`.

Bets are decided on one of two independent groups of facts (:class:`~reporting.engine.bets.Facet`),
so two exact distributions cover every bet:

* the *points* distribution enumerates, by point class (ten-valued cards are one class of 16
  per deck), the Player's and Banker's first two cards and every third card the rules call
  for, weighting each deal by the number of ordered card sequences that produce it;
* the *pairs* distribution enumerates the ranks and suits of the first four cards.

Every sequence is counted to a common depth (six cards for points, four for pairs), so the
weights of one distribution share one denominator.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from reporting.engine.bets import BetResult, BetType, Facet, PayTable, resolve_bet
from reporting.engine.rules import banker_draws, player_draws

__all__ = [
    "BetOdds",
    "PairFacts",
    "PointFacts",
    "bet_odds",
    "main_probabilities",
    "pair_distribution",
    "point_distribution",
]

MIN_DECKS, MAX_DECKS = 1, 8


@dataclass(frozen=True, slots=True)
class PointFacts:
    """The facts of a round that main, big/small and bonus bets are decided on."""

    player_value: int
    banker_value: int
    player_natural: bool
    banker_natural: bool
    cards_dealt: int


@dataclass(frozen=True, slots=True)
class PairFacts:
    """The facts of a round that pair bets are decided on."""

    player_pair: bool
    banker_pair: bool
    player_suited_pair: bool
    banker_suited_pair: bool


@dataclass(frozen=True, slots=True)
class Distribution:
    """Exact distribution: integer weights per fact record over one common total."""

    weights: tuple[tuple[PointFacts | PairFacts, int], ...]
    total: int

    def probability(self, facts: PointFacts | PairFacts) -> Fraction:
        """Probability of one fact record."""
        return Fraction(dict(self.weights).get(facts, 0), self.total)


def _check_decks(decks: int) -> None:
    if isinstance(decks, bool) or not isinstance(decks, int) or not MIN_DECKS <= decks <= MAX_DECKS:
        raise ValueError(
            f"decks must be a whole number from {MIN_DECKS} to {MAX_DECKS}, got {decks!r}"
        )


def _falling(n: int, k: int) -> int:
    result = 1
    for i in range(k):
        result *= n - i
    return result


@lru_cache(maxsize=16)
def point_distribution(decks: int) -> Distribution:
    """Exact distribution of :class:`PointFacts` for a shoe of ``decks`` decks."""
    _check_decks(decks)
    counts = [16 * decks] + [4 * decks] * 9
    size = 52 * decks
    # Unordered two-card holdings by point class, with the number of orders they come in.
    holdings = [(a, b, 1 if a == b else 2) for a in range(10) for b in range(a, 10)]
    tail = [_falling(size - depth, 6 - depth) for depth in range(7)]  # pad each deal to 6 cards
    weights: dict[PointFacts, int] = defaultdict(int)

    for p1, p2, player_orders in holdings:
        w_player = counts[p1] * (counts[p2] - (p1 == p2)) * player_orders
        counts[p1] -= 1
        counts[p2] -= 1
        player_total = (p1 + p2) % 10
        for b1, b2, banker_orders in holdings:
            c1 = counts[b1]
            c2 = counts[b2] - (b1 == b2)
            if c1 <= 0 or c2 <= 0:
                continue
            w4 = w_player * c1 * c2 * banker_orders
            banker_total = (b1 + b2) % 10
            if player_total >= 8 or banker_total >= 8:
                facts = PointFacts(
                    player_total, banker_total, player_total >= 8, banker_total >= 8, 4
                )
                weights[facts] += w4 * tail[4]
                continue
            counts[b1] -= 1
            counts[b2] -= 1
            _add_third_cards(weights, counts, w4, player_total, banker_total, tail)
            counts[b1] += 1
            counts[b2] += 1
        counts[p1] += 1
        counts[p2] += 1

    total = _falling(size, 6)
    if sum(weights.values()) != total:  # pragma: no cover - an enumeration bug, not user input
        raise AssertionError("point distribution does not sum to the number of deals")
    return Distribution(tuple(sorted(weights.items(), key=_point_key)), total)


def _add_third_cards(
    weights: dict[PointFacts, int],
    counts: list[int],
    w4: int,
    player_total: int,
    banker_total: int,
    tail: list[int],
) -> None:
    """Add the deals that follow four cards without a natural (weight ``w4``, ``counts`` the
    cards left by point class): the third cards the rules call for, each deal padded to six
    cards by ``tail``."""
    if player_draws(player_total).draws:
        for p3 in range(10):
            c3 = counts[p3]
            if c3 == 0:
                continue
            player_value = (player_total + p3) % 10
            if banker_draws(banker_total, p3).draws:
                counts[p3] -= 1
                w5 = w4 * c3
                for b3 in range(10):
                    if counts[b3]:
                        facts = PointFacts(player_value, (banker_total + b3) % 10, False, False, 6)
                        weights[facts] += w5 * counts[b3]
                counts[p3] += 1
            else:
                facts = PointFacts(player_value, banker_total, False, False, 5)
                weights[facts] += w4 * c3 * tail[5]
    elif banker_draws(banker_total, None).draws:
        for b3 in range(10):
            if counts[b3]:
                facts = PointFacts(player_total, (banker_total + b3) % 10, False, False, 5)
                weights[facts] += w4 * counts[b3] * tail[5]
    else:
        facts = PointFacts(player_total, banker_total, False, False, 4)
        weights[facts] += w4 * tail[4]


def _point_key(item: tuple[PointFacts, int]) -> tuple:
    facts = item[0]
    return (
        facts.player_value,
        facts.banker_value,
        facts.player_natural,
        facts.banker_natural,
        facts.cards_dealt,
    )


@lru_cache(maxsize=16)
def pair_distribution(decks: int) -> Distribution:
    """Exact distribution of :class:`PairFacts` (first two cards of each hand) for ``decks``."""
    _check_decks(decks)
    # Remaining copies per face, faces indexed rank * 4 + suit. Every face is alike, so the
    # Player's first card is fixed to face 0 and the weight multiplied by the 52 faces.
    copies = [decks] * 52
    weights: dict[PairFacts, int] = defaultdict(int)
    copies[0] -= 1
    first_weight = 52 * decks
    for second in range(52):
        if copies[second] == 0:
            continue
        weight = first_weight * copies[second]
        copies[second] -= 1
        player_pair = second // 4 == 0
        player_suited = second == 0
        remaining = sum(copies)
        suited = sum(n * (n - 1) for n in copies)
        rank_pairs = 0
        for rank in range(13):
            in_rank = sum(copies[rank * 4 : rank * 4 + 4])
            rank_pairs += in_rank * (in_rank - 1)
        banker_outcomes = (
            (True, True, suited),
            (True, False, rank_pairs - suited),
            (False, False, remaining * (remaining - 1) - rank_pairs),
        )
        for banker_pair, banker_suited, ways in banker_outcomes:
            if ways:
                facts = PairFacts(player_pair, banker_pair, player_suited, banker_suited)
                weights[facts] += weight * ways
        copies[second] += 1
    total = _falling(52 * decks, 4)
    if sum(weights.values()) != total:  # pragma: no cover - an enumeration bug, not user input
        raise AssertionError("pair distribution does not sum to the number of deals")
    ordered = sorted(weights.items(), key=lambda item: tuple(vars_of(item[0])))
    return Distribution(tuple(ordered), total)


def vars_of(facts: PairFacts) -> tuple[bool, bool, bool, bool]:
    """The fields of a :class:`PairFacts` as a tuple (a stable sort key)."""
    return (
        facts.player_pair,
        facts.banker_pair,
        facts.player_suited_pair,
        facts.banker_suited_pair,
    )


@dataclass(frozen=True, slots=True)
class BetOdds:
    """Exact probabilities and return of one bet under one pay table."""

    bet: str  # bet id, e.g. "banker", or "perfect_pair_b" for the B pay table
    bet_type: BetType
    win: Fraction
    push: Fraction
    lose: Fraction
    rtp: Fraction  # expected return per unit staked, stake included
    second_moment: Fraction  # expected square of the return per unit staked

    @property
    def house_edge(self) -> Fraction:
        """The share of stakes the house keeps in the long run."""
        return 1 - self.rtp

    @property
    def variance(self) -> Fraction:
        """Variance of the return of one unit staked (for statistical bounds on actual RTP)."""
        return self.second_moment - self.rtp * self.rtp


def bet_odds(bet: BetType, decks: int, table: PayTable, bet_id: str | None = None) -> BetOdds:
    """Exact probabilities of win, push and loss, and the RTP, of one bet."""
    distribution = (
        pair_distribution(decks) if bet.facet is Facet.PAIRS else point_distribution(decks)
    )
    totals = {result: 0 for result in BetResult}
    returned = Fraction(0)
    returned_squared = Fraction(0)
    for facts, weight in distribution.weights:
        resolution = resolve_bet(bet, facts, table)
        totals[resolution.result] += weight
        multiple = resolution.return_multiple()
        returned += weight * multiple
        returned_squared += weight * multiple * multiple
    total = distribution.total
    return BetOdds(
        bet=bet_id or bet.value,
        bet_type=bet,
        win=Fraction(totals[BetResult.WIN], total),
        push=Fraction(totals[BetResult.PUSH], total),
        lose=Fraction(totals[BetResult.LOSE], total),
        rtp=returned / total,
        second_moment=returned_squared / total,
    )


def main_probabilities(decks: int) -> dict[str, Fraction]:
    """Exact probabilities that the Banker wins, the Player wins, or the hands tie."""
    distribution = point_distribution(decks)
    totals = {"banker": 0, "player": 0, "tie": 0}
    for facts, weight in distribution.weights:
        if facts.banker_value > facts.player_value:
            totals["banker"] += weight
        elif facts.player_value > facts.banker_value:
            totals["player"] += weight
        else:
            totals["tie"] += weight
    return {name: Fraction(weight, distribution.total) for name, weight in totals.items()}
