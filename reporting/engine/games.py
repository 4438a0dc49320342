"""The game model: one frozen record per game variant, built from validated catalogue data.

Nothing here reads files; :mod:`reporting.config` loads the shipped catalogue and the
operator configuration and builds these records.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TypeVar

from reporting.engine.bets import BetRule, PayTable
from reporting.engine.money import RoundingPolicy

__all__ = [
    "ALWAYS_OPEN",
    "MIN_CUT_CARD_DEPTH",
    "ExclusiveGroups",
    "GameSpec",
    "StakeLimits",
    "cut_card_depths",
    "last_moment_to_bet",
    "placed_in_time",
]

#: ``opening_hours`` of a game open every day around the clock (its pages say so, and the
#: audit may look for its tables' idle stretches).
ALWAYS_OPEN = "24h"

#: The fewest cards behind a cut card: a hand takes at most six, and every hand is dealt whole.
MIN_CUT_CARD_DEPTH = 6


def cut_card_depths(decks: int) -> range:
    """The cut card's depths a shoe of ``decks`` decks may have: at least
    :data:`MIN_CUT_CARD_DEPTH` cards behind it, at most half the shoe (so that half the shoe
    is dealt at least: one deck cut 45 cards from its end dealt one hand).

    >>> cut_card_depths(8)
    range(6, 209)
    """
    return range(MIN_CUT_CARD_DEPTH, 26 * decks + 1)


#: A moment as the house rules compare it: epoch milliseconds, or a UTC timestamp as text in
#: one fixed-width spelling (the stored form), which orders as the instants do.
Moment = TypeVar("Moment", int, str)


@dataclass(frozen=True, slots=True)
class StakeLimits:
    """Minimum and maximum stake of one bet type, in cents."""

    minimum: int
    maximum: int

    @property
    def allowed(self) -> range:
        """House rule: the stakes the limits allow, in cents, the minimum and the maximum
        included (``stake in allowed`` is one cheap test).

        >>> StakeLimits(500, 2000).allowed
        range(500, 2001)
        """
        return range(self.minimum, self.maximum + 1)

    def allows(self, stake: int) -> bool:
        """Whether a stake lies within the limits (:attr:`allowed`)."""
        return stake in self.allowed


@dataclass(frozen=True, slots=True)
class ExclusiveGroups:
    """House rule: an account holds at most one bet of each exclusive group in a round.

    >>> rule = ExclusiveGroups((frozenset({"player_pair", "banker_pair"}),))
    >>> rule.may_add({"banker", "player_pair"}, "banker_pair"), rule.may_add({"player_pair"}, "tie")
    (False, True)
    """

    groups: tuple[frozenset[str], ...]  # bet ids, as ``GameSpec.exclusive_bets``
    #: The number of each exclusive bet's group in :attr:`groups`, by bet id (read, never
    #: written: a plain dict, as the sample generator's hot loop reads it).
    group_of: Mapping[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        numbers = {bet: number for number, members in enumerate(self.groups) for bet in members}
        object.__setattr__(self, "group_of", numbers)

    def may_add(self, held: Collection[str], bet: str) -> bool:
        """Whether an account holding the bets ``held`` (ids) in a round may add ``bet``: no
        bet it holds is of ``bet``'s exclusive group (a bet in no group may always be added)."""
        group_of = self.group_of
        group = group_of.get(bet)
        return group is None or all(group_of.get(other) != group for other in held)


def placed_in_time(placed: Moment, betting_closed: Moment) -> bool:
    """House rule: a bet is taken until betting closes, the closing moment itself included;
    one placed after it is late. Both moments are epoch milliseconds, or both UTC text in the
    stored form.

    >>> placed_in_time(17_000, 17_000), placed_in_time(17_001, 17_000)
    (True, False)
    >>> placed_in_time("2026-10-03T18:40:17.000Z", "2026-10-03T18:40:17.000Z")
    True
    """
    return placed <= betting_closed


def last_moment_to_bet(betting_closed: int) -> int:
    """The last epoch millisecond a bet is placed in time (:func:`placed_in_time`) when
    betting closes at ``betting_closed``.

    >>> last_moment_to_bet(17_000)
    17000
    """
    return betting_closed if placed_in_time(betting_closed, betting_closed) else betting_closed - 1


@dataclass(frozen=True, slots=True)
class GameSpec:
    """Everything the tool knows about one game: rules, pay table, limits, jurisdiction."""

    id: str
    name: str
    kind: str  # "live" (dealt from a shoe) or "rng"
    jurisdiction: str  # ISO 3166 alpha-2 of the licensing market
    decks: int
    reshuffle_every_round: bool
    cut_card_depth: int | None  # live shoes: cards left behind the cut card, if stated
    bets: tuple[BetRule, ...]  # in the order the pages list them
    pay_table: PayTable
    rounding: RoundingPolicy
    limits: tuple[tuple[str, StakeLimits], ...]  # by bet id
    below_minimum: str  # what the platform does with a stake under the minimum: "reject"
    above_maximum: str  # ... over the maximum: "cap" or "reject"
    exclusive_bets: tuple[frozenset[str], ...]  # bet ids: at most one of each group per account
    currency: str
    timezone: str
    regulator: str | None
    regulator_code: str | None
    declared_rtp: Decimal | None  # percent, e.g. Decimal("99.50")
    opening_hours: str | None  # "24h" or a free text shown as is; None: not stated
    statistics_reset: str | None  # local time the table statistics reset, e.g. "00:01"
    version: str | None
    languages: tuple[str, ...]
    #: The tables the game is dealt at, by id, a ``*`` standing for any characters
    #: (``LB-IT-*``): how a round of a log that names no game finds its game, and a round
    #: naming another game at one of them is refused (``bad_value``). Empty: unlisted.
    tables: tuple[str, ...] = ()
    #: What the live table shows players of its shoe: "statistics", "bead_road", "big_road".
    scoreboard: tuple[str, ...] = ()
    #: The certificate or approval the declared RTP rests on (it accepts a declared RTP the
    #: theory does not bear out: the pages cite it), or None.
    declared_rtp_reference: str | None = None
    #: A game open 24h: minutes without a round at a table beyond which the month's audit
    #: lists an availability gap (None: not checked).
    availability_gap_minutes: int | None = None
    #: The operator's own words for the hands (Player, Banker) on the pages of a language, in
    #: place of its catalogue's: ``(("it", (("banker", "Banker"), ("player", "Player"))),)``.
    words: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = ()

    @property
    def open_around_the_clock(self) -> bool:
        """Whether its pages say it is open 24 hours a day (:data:`ALWAYS_OPEN`)."""
        return self.opening_hours == ALWAYS_OPEN

    @property
    def availability_checked(self) -> bool:
        """A game whose pages say it is open 24 hours a day, with an
        ``availability_gap_minutes``: its tables' idle stretches are looked for."""
        return self.open_around_the_clock and self.availability_gap_minutes is not None

    @property
    def availability_unchecked(self) -> bool:
        """A live game whose pages say it is open 24 hours a day, with no
        ``availability_gap_minutes``: its tables' idle stretches are not looked for."""
        return (
            self.kind == "live"
            and self.open_around_the_clock
            and self.availability_gap_minutes is None
        )

    def limits_for(self, bet: BetRule | str) -> StakeLimits:
        """Stake limits of one bet (a rule or its id)."""
        bet_id = bet if isinstance(bet, str) else bet.id
        for offered, limits in self.limits:
            if offered == bet_id:
                return limits
        raise KeyError(f"{self.id} does not offer the {bet_id} bet")

    def exclusive_groups(self) -> ExclusiveGroups:
        """The house rule on :attr:`exclusive_bets` (build it once and keep it: it indexes
        the groups by bet)."""
        return ExclusiveGroups(self.exclusive_bets)

    def offers(self, bet: BetRule | str) -> bool:
        """Whether the game takes bets of this type (a rule or its id)."""
        bet_id = bet if isinstance(bet, str) else bet.id
        return any(offered.id == bet_id for offered in self.bets)

    def bet(self, bet_id: str) -> BetRule:
        """The rule of one bet the game offers."""
        for offered in self.bets:
            if offered.id == bet_id:
                return offered
        raise KeyError(f"{self.id} does not offer the {bet_id} bet")

    def hand_words(self, language: str) -> tuple[tuple[str, str], ...]:
        """The operator's words for the hands on the pages of ``language``, by hand
        (``player``, ``banker``); empty: the catalogue's own."""
        return dict(self.words).get(language, ())

    @property
    def bet_ids(self) -> tuple[str, ...]:
        """The ids of the bets the game offers."""
        return tuple(bet.id for bet in self.bets)

    @property
    def operator_share(self) -> Decimal | None:
        """100% minus the declared RTP, in percent."""
        return None if self.declared_rtp is None else Decimal(100) - self.declared_rtp

    @property
    def overall_limits(self) -> StakeLimits:
        """The lowest minimum and highest maximum over all offered bets."""
        return StakeLimits(
            min(limits.minimum for _, limits in self.limits),
            max(limits.maximum for _, limits in self.limits),
        )
