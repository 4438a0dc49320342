"""Regulator disclosures (ADM style): declared RTP, operator share, limits, and the previous
month's win percentage, refreshed on the regulator's update day (the 5th for ADM) of each month
in the game's time zone.

The reference month of a page dated D (D's local date in the game's time zone): from the update
day on, the month before D's month; before it, the month before that. The win percentage is
``100 x payouts / stakes`` over the bets of settled rounds of the game that settled in the
reference month (void rounds out, pushes in), exact until shown with 2 decimals, half up.
Every bet counts in it, one of a type the engine does not settle (an ``unverified_bet``)
included; the statistical bound around the theory judges only the bets of the types with a
theoretical RTP (the game's offered types).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING

from reporting.config.regulators import DEFAULT_UPDATE_DAY
from reporting.config.values import MAX_CENTS
from reporting.engine.games import GameSpec
from reporting.engine.money import format_cents, round_fraction
from reporting.engine.odds import return_covariances
from reporting.engine.theory import ShoeOdds, game_odds
from reporting.errors import InputError, printable
from reporting.figures.regulators import configuration_warnings, update_day
from reporting.figures.statistics import CONFIDENCE_LABEL, Z_BOUND
from reporting.records import MONTHS_HANDLED, Doubt, Month

if TYPE_CHECKING:
    import sqlite3

__all__ = [
    "Disclosure",
    "disclose",
    "reference_month",
    "updated_on",
]


def reference_month(as_of: date, update_day: int = DEFAULT_UPDATE_DAY) -> Month:
    """The month whose figure a page dated ``as_of`` (local date) shows, for a figure refreshed
    on ``update_day`` of each month.

    >>> [str(reference_month(date(2026, 11, day))) for day in (4, 5)]
    ['2026-09', '2026-10']
    >>> [str(reference_month(day)) for day in (date(2027, 1, 4), date(2027, 2, 5))]
    ['2026-11', '2027-01']

    A date whose month is before the first month handled (the first days of 1980) is
    refused, as ``--as-of`` gives it: no store holds such a month's rounds, and a page, a
    disclosure or the monthly job would publish its figure.
    """
    month = Month.of(as_of).shifted(-1 if as_of.day >= update_day else -2)
    first = MONTHS_HANDLED[0]
    if month < first:
        raise InputError(
            f"--as-of {as_of.isoformat()}: the month it writes, {month}, is before {first}, the"
            f" first month this tool handles; pass --as-of {updated_on(first, update_day)} or"
            " later"
        )
    return month


def updated_on(month: tuple[int, int], update_day: int = DEFAULT_UPDATE_DAY) -> date:
    """The date a month's figure is published: ``update_day`` of the following month.

    >>> updated_on(Month(2026, 12))
    datetime.date(2027, 1, 5)
    """
    return Month(*month).next().first_day.replace(day=update_day)


@dataclass(frozen=True)
class Disclosure:
    """The figures of one game's regulator page, as of one date."""

    game: GameSpec
    as_of: date
    reference_month: Month
    updated_on: date
    rounds: int
    bets: int
    stakes: int  # cents
    payouts: int  # cents
    theory: ShoeOdds
    expected_payouts: Fraction  # cents: sum of stake x theoretical RTP of its bet type
    theory_payouts: int  # cents: the payouts of the bets of a type with a theoretical RTP
    payout_deviation: float  # standard deviation of the payouts (cents) around that
    warnings: tuple[str, ...]

    @property
    def reference_month_text(self) -> str:
        """``YYYY-MM``."""
        return str(self.reference_month)

    @property
    def win_percentage(self) -> Decimal:
        """Previous month's win percentage, 2 decimals, half up (0.00 without play)."""
        if not self.stakes:
            return Decimal("0.00")
        return round_fraction(Fraction(100 * self.payouts, self.stakes), 2)

    @property
    def declared_rtp(self) -> Decimal | None:
        """Declared share of stakes returned as prizes, in percent."""
        return self.game.declared_rtp

    @property
    def operator_share(self) -> Decimal | None:
        """100% minus the declared RTP."""
        return self.game.operator_share

    @property
    def within_statistical_bound(self) -> bool | None:
        """Whether the month's payouts lie within the 99.9% interval around the theory (of
        the bets with one: None when no bet has, or nothing was staked)."""
        if not self.stakes or not self.expected_payouts:
            return None
        deviation = self.theory_payouts - self.expected_payouts
        return abs(float(deviation)) <= Z_BOUND * self.payout_deviation

    def to_document(self) -> dict:
        """The ``disclose --json`` document of the CLI contract."""
        game = self.game
        limits = game.overall_limits
        return {
            "game": game.id,
            "name": game.name,
            "as_of": self.as_of.isoformat(),
            "regulator": game.regulator,
            "regulator_code": game.regulator_code,
            "declared_rtp": None if self.declared_rtp is None else f"{self.declared_rtp:.2f}",
            "declared_rtp_reference": self.game.declared_rtp_reference,
            "operator_share": None if self.operator_share is None else f"{self.operator_share:.2f}",
            "minimum_stake": format_cents(limits.minimum),
            "maximum_stake": format_cents(limits.maximum),
            "currency": game.currency,
            "opening_hours": game.opening_hours,
            "timezone": game.timezone,
            "reference_month": self.reference_month_text,
            "updated_on": self.updated_on.isoformat(),
            "previous_month_win_percentage": f"{self.win_percentage:.2f}",
            "rounds": self.rounds,
            "bets": self.bets,
            "stakes": format_cents(self.stakes),
            "payouts": format_cents(self.payouts),
            "theoretical_rtp": {
                odds.bet: f"{round_fraction(odds.rtp * 100, 2):.2f}" for odds in self.theory.bets
            },
            "within_statistical_bound": self.within_statistical_bound,
            "warnings": list(self.warnings),
        }


def disclose(connection: sqlite3.Connection | None, game: GameSpec, as_of: date) -> Disclosure:
    """Compute a game's disclosure as of a local date; ``connection`` None means no logs."""
    day = update_day(game)
    month = reference_month(as_of, day)
    month_text = str(month)
    theory = game_odds(game)
    rounds = bets = stakes = payouts = theory_payouts = 0
    expected = Fraction(0)
    variance = Fraction(0)
    offered = {odds.bet: odds for odds in theory.bets}
    if connection is not None:
        (rounds,) = connection.execute(
            "SELECT count(*) FROM rounds WHERE game_id = ? AND report_month = ?"
            " AND status = 'settled'",
            (game.id, month_text),
        ).fetchone()
        by_type, crossed = _month_bets(connection, game, month_text)
        for bet_type, (count, stake_sum, payout_sum) in sorted(by_type.items()):
            bets += count
            stakes += stake_sum
            payouts += payout_sum
            odds = offered.get(bet_type)
            if odds is not None:
                theory_payouts += payout_sum
                expected += stake_sum * odds.rtp
        if expected:
            variance = _variance(game, crossed)
    disclosure = Disclosure(
        game=game,
        as_of=as_of,
        reference_month=month,
        updated_on=updated_on(month, day),
        rounds=rounds,
        bets=bets,
        stakes=stakes,
        payouts=payouts,
        theory=theory,
        expected_payouts=expected,
        theory_payouts=theory_payouts,
        payout_deviation=math.sqrt(variance),
        warnings=(),
    )
    return _with_warnings(disclosure)


def payout_variance(connection: sqlite3.Connection, game: GameSpec, month: str) -> Fraction:
    """The variance (cents squared) of a game's payouts in a month around the theory, over
    the bets of the types it offers: each round's stakes on those types, weighted by how one
    unit's returns on them vary together (:func:`~reporting.engine.odds.return_covariances`).
    Rounds are dealt apart; the bets of one round are settled on the same cards, so a Player
    and a Banker stake hedge each other, and two stakes on one type win or lose together."""
    return _variance(game, _month_bets(connection, game, month)[1])


def _variance(game: GameSpec, crossed: dict[tuple[str, str], int]) -> Fraction:
    """The variance of :func:`payout_variance`, from its sums of stake x stake by pair."""
    covariances = return_covariances(game.bets, game.decks, game.pay_table)
    return sum((covariances[pair] * value for pair, value in crossed.items()), Fraction(0))


def _month_bets(
    connection: sqlite3.Connection, game: GameSpec, month: str
) -> tuple[dict[str, list[int]], dict[tuple[str, str], int]]:
    """One pass over the bets of a game's settled rounds of a month, in exact integers: by bet
    type, its bets, stakes and payouts (cents); and by pair of offered types, the sum over the
    rounds of the round's stake on one times its stake on the other."""
    offered = frozenset(game.bet_ids)
    by_type: dict[str, list[int]] = {}
    crossed: dict[tuple[str, str], int] = {}

    def add(staked: dict[str, int]) -> None:
        for first, stake in staked.items():
            for second, other in staked.items():
                crossed[(first, second)] = crossed.get((first, second), 0) + stake * other

    current, staked = None, {}
    # Each round's bets come together (in the order of the rounds' rowids, which the index of a
    # game's month holds: no sort).
    for round_id, bet_type, stake, payout, currency in connection.execute(
        "SELECT b.round_id, b.bet_type, b.stake_cents, b.payout_cents, b.currency"
        " FROM rounds AS r JOIN bets AS b ON b.round_id = r.round_id"
        " WHERE r.game_id = ? AND r.report_month = ? AND r.status = 'settled'"
        " ORDER BY r.rowid",
        (game.id, month),
    ):
        if stake >= MAX_CENTS or payout >= MAX_CENTS or currency != game.currency:
            raise _not_summed(
                connection, game, round_id=round_id, stake=stake, payout=payout, currency=currency
            )
        sums = by_type.get(bet_type)
        if sums is None:
            sums = by_type[bet_type] = [0, 0, 0]
        sums[0] += 1
        sums[1] += stake
        sums[2] += payout
        if round_id != current:
            add(staked)
            current, staked = round_id, {}
        if bet_type in offered:
            staked[bet_type] = staked.get(bet_type, 0) + stake
    add(staked)
    return by_type, crossed


def _not_summed(
    connection: sqlite3.Connection,
    game: GameSpec,
    *,
    round_id: str,
    stake: int,
    payout: int,
    currency: str,
) -> Exception:
    """Why a bet of the month cannot be summed into the game's figures: an amount past those
    ingest takes (the store changed by hand), or a currency other than the game's (ingest
    takes none: the game's currency changed in the configuration since, or the store by
    hand). Summed, either printed a disclosure of absurd or mixed money."""
    # Here, not at the top: a rule sheet loads no store.
    from reporting.store.damage import amounts_past_bound, said
    from reporting.store.faults import store_file

    if currency == game.currency:
        return amounts_past_bound(round_id, stake, payout, connection)
    store = store_file(connection)
    return InputError(
        f"{printable(store) + ': ' if store else ''}round {said(round_id)} of {game.id} holds"
        f" a bet in {said(currency)}, where"
        f" the game's currency is {game.currency}: a disclosure sums one currency (the game's"
        " currency was changed in the configuration since its rounds were loaded, where a game"
        " of another currency is a game of its own; or the store was changed by hand)"
    )


def _with_warnings(disclosure: Disclosure) -> Disclosure:
    game = disclosure.game
    warnings = []
    month = disclosure.reference_month_text
    reference = tuple(disclosure.reference_month)
    if not disclosure.stakes:
        warnings.append(
            Doubt(f"no play in {month}: the page shows 0.00%", "no_play", month=reference)
        )
    warnings += configuration_warnings(game, disclosure.theory)
    if disclosure.within_statistical_bound is False:
        warnings.append(
            Doubt(
                f"the {month} win percentage lies outside the {CONFIDENCE_LABEL} statistical"
                " bound around the theoretical return for the stakes played",
                "outside_bound",
                month=reference,
            )
        )
    return Disclosure(**{**disclosure.__dict__, "warnings": tuple(warnings)})
