"""Bets: which bets are played how often, stakes, accounts, and settlement by the engine.

Every payout comes from :func:`~reporting.engine.bets.settle` on the round's
:class:`~reporting.engine.facts.RoundFacts` (or :func:`~reporting.engine.bets.refund` for a
void round); the caches here only avoid settling the same (bet, stake, pay row) twice.
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections.abc import Callable, Mapping
from operator import attrgetter
from types import MappingProxyType

import msgspec

from reporting.config.bets import catalogue_bets
from reporting.engine.bets import BetGroup, BetRule, refund, resolve_bet, settle
from reporting.engine.cards import Card
from reporting.engine.facts import RoundFacts, facts_of
from reporting.engine.games import GameSpec, StakeLimits, last_moment_to_bet
from reporting.engine.money import format_cents
from reporting.sample.draws import between, cumulative

#: Share of the catalogue's bets (``reporting/data/bets.toml``) among bets, before keeping only
#: the bets a game offers, where the sample plays one more or less than others of its group; a
#: round draws bets in the catalogue's order. A bet without a share here (one just added to the
#: catalogue) is played as much as others of its group: :data:`SHARES_BY_GROUP`.
BET_SHARES: Mapping[str, float] = MappingProxyType(
    {
        "player": 0.28,
        "banker": 0.32,
        "tie": 0.08,
        "banker_no_commission": 0.32,
        "banker_ez": 0.32,
        "player_pair": 0.05,
        "banker_pair": 0.05,
        "either_pair": 0.04,
        "perfect_pair": 0.04,
        "small": 0.03,
        "big": 0.03,
        "player_bonus": 0.04,
        "banker_bonus": 0.04,
        "super_6": 0.04,
        "lucky_6": 0.04,
        "tiger": 0.04,
        "small_tiger": 0.03,
        "big_tiger": 0.03,
        "tiger_tie": 0.02,
        "tiger_pair": 0.04,
        "dragon_7": 0.04,
        "panda_8": 0.04,
        "ox_6": 0.03,
    }
)
#: Share of a bet without its own in :data:`BET_SHARES` (an operator's own bet, declared in its
#: configuration, or a catalogue bet just added), by its group; a test holds it complete over
#: :class:`~reporting.engine.bets.BetGroup`.
SHARES_BY_GROUP: Mapping[BetGroup, float] = MappingProxyType(
    {BetGroup.MAIN: 0.28, BetGroup.SIDE: 0.04, BetGroup.BONUS: 0.04}
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
_CACHE_LIMIT = 200_000  # entries per settlement cache; past it the cache starts afresh
#: The sample's bets come at the earliest this long (ms) after a round starts, and at the
#: latest this long before the last moment the house takes one (:func:`betting_span`).
OPENING_DELAY = 500
CLOSING_MARGIN = 200


class PlacedBet(msgspec.Struct, frozen=True, order=True, gc=False):
    """A bet on its way to the log. Ordered by its fields in this order, so that ``sort``
    orders a round's bets by time placed (then bet type, account, stake); a fault changes one
    with :func:`msgspec.structs.replace` and puts the new record in its place. (A struct: as
    cheap to make as a list, where a NamedTuple's constructor cost the hot loop a third more.)"""

    placed_ms: int  # epoch ms
    bet: str  # the bet type's id: "banker"
    account: str
    stake: int  # cents


def betting_span(started: int, closed: int) -> tuple[int, int]:
    """The first and last moment (epoch ms) the sample places a bet of a round started at
    ``started`` whose betting closes at ``closed``: :data:`OPENING_DELAY` after the start,
    :data:`CLOSING_MARGIN` before the last moment the house rule takes a bet
    (:func:`~reporting.engine.games.last_moment_to_bet`).

    >>> betting_span(0, 15_000)
    (500, 14800)
    """
    return started + OPENING_DELAY, last_moment_to_bet(closed) - CLOSING_MARGIN


def bet_share(bet: BetRule) -> float:
    """The share of play of a bet: a catalogue bet's own, else its group's.

    >>> from reporting.engine.bets import BetGroup, BetRule
    >>> bet_share(BetRule("banker", BetGroup.MAIN, ())), bet_share(BetRule("monkey_6", BetGroup.SIDE, (), own=True))
    (0.32, 0.04)
    >>> bet_share(BetRule("dragon_bonus", BetGroup.BONUS, ()))
    0.04
    """
    share = None if bet.own else BET_SHARES.get(bet.id)
    return SHARES_BY_GROUP[bet.group] if share is None else share


def drawn_bets(game: GameSpec) -> list[BetRule]:
    """The bets of a game in the order a round draws them: the catalogue's bets in the
    catalogue's order, then the operator's own in the game's order."""
    order = {bet_id: index for index, bet_id in enumerate(catalogue_bets())}
    return sorted(game.bets, key=lambda bet: (bet.own, 0 if bet.own else order[bet.id]))


class StakeSampler:
    """Stakes in cents for one bet type: mostly chip amounts, some with odd cents, every one
    within the bet's limits (:attr:`~reporting.engine.games.StakeLimits.allowed`)."""

    def __init__(self, limits: StakeLimits, side_bet: bool):
        self.allowed = allowed = limits.allowed
        minimum, maximum = limits.minimum, limits.maximum
        chip_amounts = {chip * count * 100 for chip in CHIPS for count in range(1, 6)}
        amounts = sorted(amount for amount in chip_amounts if amount in allowed)
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
            if stake in self.allowed:
                return stake
        return self.amounts[bisect_right(self.cumulative, random_draw())]


class BetSampler:
    """One game's bets: how many a round draws at each hour, of which types, from which
    accounts, for which stakes, house rules kept."""

    def __init__(self, game: GameSpec, account_base: int):
        # Bets travel through the generator by id ("banker"): a month hashes them tens of
        # millions of times.
        offered = drawn_bets(game)
        self.bet_types = [bet.id for bet in offered]
        #: The bet with the largest share (the first of equals): whose stakes a bet the engine
        #: does not settle is drawn from.
        self.most_played = max(offered, key=bet_share).id
        self.cumulative = cumulative([bet_share(bet) for bet in offered])
        self.stakes = {
            bet.id: StakeSampler(game.limits_for(bet), side_bet=bet.group is not BetGroup.MAIN)
            for bet in offered
        }
        #: The house rule on the game's exclusive bets, kept as bets are placed.
        self.exclusive = game.exclusive_groups()
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
        """``count`` bets placed in the round's :func:`betting_span`, house rules kept: stakes
        within limits (:class:`StakeSampler`), one bet per exclusive group and account
        (:meth:`~reporting.engine.games.ExclusiveGroups.may_add`); an account bets each type
        at most once a round."""
        # The hottest loop of the generator: locals and inlined draws on purpose.
        bet_types, shares, stakes = self.bet_types, self.cumulative, self.stakes
        accounts, pool = self.accounts, ACCOUNTS_PER_JURISDICTION
        exclusive = bool(self.exclusive.groups)
        may_add = self.exclusive.may_add
        first_moment, last_moment = betting_span(started, closed)
        moments = last_moment - first_moment + 1
        bets: list[PlacedBet] = []
        held: dict[str, set[str]] = {}
        accounts_in_round: list[str] = []
        for _ in range(count):
            bet = bet_types[bisect_right(shares, random_draw())]
            account = None
            if accounts_in_round and random_draw() < ACCOUNT_REUSE:
                candidate = accounts_in_round[int(random_draw() * len(accounts_in_round))]
                if bet not in held[candidate] and (not exclusive or may_add(held[candidate], bet)):
                    account = candidate
            while account is None:
                # Squaring the draw makes some accounts regulars and most occasional.
                candidate = accounts[int(pool * random_draw() ** 2)]
                holding = held.get(candidate)
                if holding is None:
                    held[candidate] = set()
                    accounts_in_round.append(candidate)
                    account = candidate
                elif bet not in holding and (not exclusive or may_add(holding, bet)):
                    account = candidate
            held[account].add(bet)
            placed = first_moment + int(random_draw() * moments)
            bets.append(PlacedBet(placed, bet, account, stakes[bet].draw(random_draw)))
        return bets


class Settler:
    """One game's settlements by the engine, cached by what the game's bets read of the
    round's facts, the bet, the stake and the pay row."""

    def __init__(self, game: GameSpec):
        self.game = game
        self._paid: dict[tuple[str, int, str], int] = {}
        self._numbers: dict[object, int] = {}
        self._rows: dict[tuple[int, str], str] = {}
        #: The facts any bet of the game names in a condition (the declarations say which):
        #: rounds alike in them settle alike, whatever their other facts.
        self.facts_read: frozenset[str] = frozenset().union(*(bet.facts for bet in game.bets))
        read = sorted(self.facts_read)
        self._read = attrgetter(*read) if read else (lambda facts: ())

    def facts(self, player: tuple[Card, ...], banker: tuple[Card, ...]) -> tuple[int, RoundFacts]:
        """The facts of the cards (:func:`~reporting.engine.facts.facts_of`), and a number
        naming what the game's bets read of them, for :meth:`payout`."""
        facts = facts_of(player, banker)
        read = self._read(facts)
        number = self._numbers.get(read)
        if number is None:
            if len(self._numbers) > _CACHE_LIMIT:
                self._numbers.clear()
                self._rows.clear()
            # A small number names the facts in the row cache: cheaper to hash than they are.
            number = self._numbers[read] = len(self._numbers)
        return number, facts

    def payout(self, bet: str, stake: int, number: int, facts: RoundFacts) -> int:
        """The engine's settlement of a bet on a round's facts, in cents.

        A payout depends only on the stake and the pay row that decides the bet, so each
        (bet, stake, row) is settled once by :func:`settle` and remembered; the row of a bet
        on a round is remembered by the number :meth:`facts` gave what the bets read.
        """
        game = self.game
        row = self._rows.get((number, bet))
        if row is None:
            row = resolve_bet(game.bet(bet), facts, game.pay_table).row
            self._rows[(number, bet)] = row
        payout = self._paid.get((bet, stake, row))
        if payout is None:
            if len(self._paid) > _CACHE_LIMIT:
                self._paid.clear()
            settlement = settle(game.bet(bet), stake, facts, game.pay_table, game.rounding)
            payout = self._paid[(bet, stake, row)] = settlement.payout
        return payout

    def payouts(
        self, player: tuple[Card, ...], banker: tuple[Card, ...], bets: list[PlacedBet]
    ) -> list[int]:
        """The payout of each bet of a settled round, in cents."""
        number, facts = self.facts(player, banker)
        payouts = []
        rows_known, payouts_known = self._rows, self._paid
        for placed in bets:
            bet, stake = placed.bet, placed.stake
            # The caches of :meth:`payout`, read here first: most bets hit them.
            row = rows_known.get((number, bet))
            paid = None if row is None else payouts_known.get((bet, stake, row))
            payouts.append(self.payout(bet, stake, number, facts) if paid is None else paid)
        return payouts


def refunds(bets: list[PlacedBet]) -> list[int]:
    """The payout of each bet of a void round: its stake back, as the engine refunds it."""
    return [refund(placed.bet, placed.stake).payout for placed in bets]


class MoneyTexts(dict[int, str]):
    """Cents -> :func:`format_cents` text, filled on first use (a plain lookup afterwards)."""

    def __missing__(self, cents: int) -> str:
        text = self[cents] = format_cents(cents)
        return text
