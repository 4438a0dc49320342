"""Bets: which bet types are played how often, stakes, accounts, and settlement by the engine.

Every payout comes from :func:`~reporting.engine.bets.settle` (or
:func:`~reporting.engine.bets.refund` for a void round) on the logged cards; the caches here
only avoid settling the same (bet, stake, pay-table row) twice.
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections.abc import Callable, Mapping
from types import MappingProxyType

from reporting.engine.bets import BetType, refund, resolve_bet, settle
from reporting.engine.cards import RANKS, SUITS, Card
from reporting.engine.games import GameSpec
from reporting.engine.money import format_cents
from reporting.engine.rules import Outcome, resolve_round
from reporting.sample.draws import between, cumulative

# Share of each bet type among bets, before keeping only the types a game offers. Every
# bet type has one (a test holds the table complete); :func:`bet_weight` refuses any other.
BET_WEIGHTS: Mapping[BetType, float] = MappingProxyType(
    {
        BetType.PLAYER: 0.28,
        BetType.BANKER: 0.32,
        BetType.TIE: 0.08,
        BetType.PLAYER_PAIR: 0.05,
        BetType.BANKER_PAIR: 0.05,
        BetType.EITHER_PAIR: 0.04,
        BetType.PERFECT_PAIR: 0.04,
        BetType.SMALL: 0.03,
        BetType.BIG: 0.03,
        BetType.PLAYER_BONUS: 0.04,
        BetType.BANKER_BONUS: 0.04,
    }
)
MEAN_BETS = 6.0
# Relative activity by local hour of day (mean 1): quiet before dawn, busiest in the evening.
HOURLY_ACTIVITY = (
    0.70, 0.55, 0.45, 0.40, 0.35, 0.40, 0.50, 0.65, 0.80, 0.90, 1.00, 1.05,
    1.10, 1.10, 1.05, 1.05, 1.10, 1.20, 1.35, 1.50, 1.60, 1.60, 1.40, 1.10,
)  # fmt: skip
# Chip values in currency units; round stakes are one to five of a chip.
CHIPS = (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000, 10000, 25000)
ODD_CENTS_SHARE = 0.15  # stakes such as 12.35 that make commission rounding matter
ACCOUNT_REUSE = 0.4  # chance that a further bet of a round comes from an account already in it
ACCOUNTS_PER_JURISDICTION = 9000
_MAIN_BETS = (BetType.PLAYER, BetType.BANKER, BetType.TIE)
_CACHE_LIMIT = 200_000  # entries per settlement cache; past it the cache starts afresh
_RANK_POINTS = {rank: Card(rank, SUITS[0]).points for rank in RANKS}

# A bet on its way to the log: [placed ms, bet type value, account, stake in cents]. A list,
# so that a fault can change it in place and ``sort`` orders bets by time placed.
PlacedBet = list


def bet_weight(bet: BetType) -> float:
    """The share of play of a bet type; a bet type without one is an error, never a default.

    >>> bet_weight(BetType.BANKER)
    0.32
    >>> bet_weight("dragon_bonus")
    Traceback (most recent call last):
    ...
    KeyError: "bet type 'dragon_bonus' has no sample weight: give it one in BET_WEIGHTS (reporting/sample/bets.py)"
    """
    try:
        return BET_WEIGHTS[bet]
    except KeyError:
        raise KeyError(
            f"bet type {str(bet)!r} has no sample weight: give it one in BET_WEIGHTS "
            "(reporting/sample/bets.py)"
        ) from None


class StakeSampler:
    """Stakes in cents for one bet type: mostly chip amounts, some with odd cents."""

    def __init__(self, minimum: int, maximum: int, side_bet: bool):
        self.minimum, self.maximum = minimum, maximum
        amounts = sorted(
            {
                chip * count * 100
                for chip in CHIPS
                for count in range(1, 6)
                if minimum <= chip * count * 100 <= maximum
            }
        )
        if not amounts:
            amounts = [minimum]
        steepness = 1.5 if side_bet else 1.15
        self.amounts = amounts
        self.cumulative = cumulative([(amount / minimum) ** -steepness for amount in amounts])
        self.odd_units = (minimum // 100, min(maximum // 100 - 1, minimum // 100 * 10 + 40))

    def draw(self, random_draw: Callable[[], float]) -> int:
        """One stake within the limits, from a source of uniform draws in [0, 1)."""
        if random_draw() < ODD_CENTS_SHARE and self.odd_units[1] >= self.odd_units[0]:
            units = between(random_draw(), *self.odd_units)
            stake = units * 100 + 5 * between(random_draw(), 1, 19)
            if self.minimum <= stake <= self.maximum:
                return stake
        return self.amounts[bisect_right(self.cumulative, random_draw())]


class BetSampler:
    """One game's bets: how many a round draws at each hour, of which types, from which
    accounts, for which stakes, house rules kept."""

    def __init__(self, game: GameSpec, account_base: int):
        # Bets travel through the generator as plain names ("banker"): an enum member hashes
        # through a Python call, and a month hashes bet types tens of millions of times.
        offered = [bet for bet in BetType if game.offers(bet)]
        self.bet_types = [bet.value for bet in offered]
        self.cumulative = cumulative([bet_weight(bet) for bet in offered])
        self.stakes = {
            bet.value: StakeSampler(
                game.limits_for(bet).minimum, game.limits_for(bet).maximum, bet not in _MAIN_BETS
            )
            for bet in offered
        }
        self.group_of: dict[str, int] = {}  # bet type -> index of its exclusive group
        for index, group in enumerate(game.exclusive_bets):
            for bet in group:
                self.group_of[bet.value] = index
        self.accounts = [
            f"acc-{account_base + index:05d}" for index in range(ACCOUNTS_PER_JURISDICTION)
        ]
        # Knuth's Poisson method stops once the product of draws falls to exp(-mean).
        self.thresholds = [
            math.exp(-MEAN_BETS * factor * 24 / sum(HOURLY_ACTIVITY)) for factor in HOURLY_ACTIVITY
        ]

    def count(self, hour: int, random_draw: Callable[[], float]) -> int:
        """A Poisson count of bets (Knuth's method) around the local hour's mean."""
        threshold = self.thresholds[hour]
        count, product = 0, random_draw()
        while product > threshold and count < 60:
            count += 1
            product *= random_draw()
        return count

    def place(
        self, count: int, started: int, closed: int, random_draw: Callable[[], float]
    ) -> list[PlacedBet]:
        """``count`` bets as ``[placed_ms, bet type, account, stake]``, house rules kept:
        an account bets each type at most once a round, and one bet per exclusive group."""
        # The hottest loop of the generator: locals and inlined draws on purpose.
        bet_types, shares, stakes = self.bet_types, self.cumulative, self.stakes
        accounts, pool = self.accounts, ACCOUNTS_PER_JURISDICTION
        exclusive = bool(self.group_of)
        first_moment, moments = started + 500, closed - 200 - (started + 500) + 1
        bets: list[PlacedBet] = []
        held: dict[str, set[str]] = {}
        accounts_in_round: list[str] = []
        for _ in range(count):
            bet = bet_types[bisect_right(shares, random_draw())]
            account = None
            if accounts_in_round and random_draw() < ACCOUNT_REUSE:
                candidate = accounts_in_round[int(random_draw() * len(accounts_in_round))]
                if bet not in held[candidate] and (
                    not exclusive or self.may_add(held[candidate], bet)
                ):
                    account = candidate
            while account is None:
                # Squaring the draw makes some accounts regulars and most occasional.
                candidate = accounts[int(pool * random_draw() ** 2)]
                holding = held.get(candidate)
                if holding is None:
                    held[candidate] = set()
                    accounts_in_round.append(candidate)
                    account = candidate
                elif bet not in holding and (not exclusive or self.may_add(holding, bet)):
                    account = candidate
            held[account].add(bet)
            placed = first_moment + int(random_draw() * moments)
            bets.append([placed, bet, account, stakes[bet].draw(random_draw)])
        return bets

    def may_add(self, held: set[str], bet: str) -> bool:
        """Whether an account holding ``held`` may add ``bet`` under the exclusive groups."""
        group = self.group_of.get(bet)
        return group is None or all(self.group_of.get(other) != group for other in held)


class Settler:
    """One game's settlements by the engine, cached by (bet, stake, pay-table row)."""

    def __init__(self, game: GameSpec):
        self.game = game
        self._paid: dict[tuple[str, int, str], int] = {}
        self._outcomes: dict[tuple, tuple[int, Outcome]] = {}
        self._rows: dict[tuple[int, str], str] = {}

    def outcome(self, player: tuple[Card, ...], banker: tuple[Card, ...]) -> tuple[int, Outcome]:
        """:func:`resolve_round` of the cards, cached on what the result depends on.

        Of the cards, a resolved round reads only each hand's two-card total, the points of
        its third card, and whether its first two cards share rank or rank and suit. Deals
        alike in those resolve alike, so the first one's :class:`Outcome` stands for the
        others'. Returns a number naming that key, for :meth:`payout`, with the outcome.
        """
        points = _RANK_POINTS
        player_first, player_second = player[0], player[1]
        banker_first, banker_second = banker[0], banker[1]
        player_pair = player_first.rank == player_second.rank
        banker_pair = banker_first.rank == banker_second.rank
        key = (
            (points[player_first.rank] + points[player_second.rank]) % 10,
            points[player[2].rank] if len(player) == 3 else -1,
            (points[banker_first.rank] + points[banker_second.rank]) % 10,
            points[banker[2].rank] if len(banker) == 3 else -1,
            player_pair,
            banker_pair,
            player_pair and player_first.suit == player_second.suit,
            banker_pair and banker_first.suit == banker_second.suit,
        )
        known = self._outcomes.get(key)
        if known is None:
            if len(self._outcomes) > _CACHE_LIMIT:
                self._outcomes.clear()
                self._rows.clear()
            # A small number names the key in the row cache: cheaper to hash than the key.
            known = self._outcomes[key] = (len(self._outcomes), resolve_round(player, banker))
        return known

    def payout(self, bet: str, stake: int, key: int, outcome: Outcome) -> int:
        """The engine's settlement of a bet on a resolved round, in cents.

        A payout depends only on the stake and the pay-table row that applies, so each
        (bet, stake, row) is settled once by :func:`settle` and remembered; the row of a bet
        on a round is remembered by the number of the round's :meth:`outcome` key.
        """
        row = self._rows.get((key, bet))
        if row is None:
            row = resolve_bet(BetType(bet), outcome, self.game.pay_table).row
            self._rows[(key, bet)] = row
        payout = self._paid.get((bet, stake, row))
        if payout is None:
            if len(self._paid) > _CACHE_LIMIT:
                self._paid.clear()
            game = self.game
            settlement = settle(BetType(bet), stake, outcome, game.pay_table, game.rounding)
            payout = self._paid[(bet, stake, row)] = settlement.payout
        return payout

    def payouts(
        self, player: tuple[Card, ...], banker: tuple[Card, ...], bets: list[PlacedBet]
    ) -> list[int]:
        """The payout of each bet of a settled round, in cents."""
        key, outcome = self.outcome(player, banker)
        payouts = []
        rows_known, payouts_known = self._rows, self._paid
        for _, bet, _, stake in bets:
            # The caches of :meth:`payout`, read here first: most bets hit them.
            row = rows_known.get((key, bet))
            paid = None if row is None else payouts_known.get((bet, stake, row))
            payouts.append(self.payout(bet, stake, key, outcome) if paid is None else paid)
        return payouts


def refunds(bets: list[PlacedBet]) -> list[int]:
    """The payout of each bet of a void round: its stake back, as the engine refunds it."""
    return [refund(BetType(bet), stake).payout for _, bet, _, stake in bets]


class MoneyTexts(dict[int, str]):
    """Cents -> :func:`format_cents` text, filled on first use (a plain lookup afterwards)."""

    def __missing__(self, cents: int) -> str:
        text = self[cents] = format_cents(cents)
        return text
