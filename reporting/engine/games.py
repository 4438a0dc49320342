"""The game model: one frozen record per game variant, built from validated catalogue data.

Nothing here reads files; :mod:`reporting.config` loads the shipped catalogue and the
operator configuration and builds these records.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from reporting.engine.bets import BetRule, PayTable
from reporting.engine.money import RoundingPolicy

__all__ = ["GameSpec", "StakeLimits"]


@dataclass(frozen=True, slots=True)
class StakeLimits:
    """Minimum and maximum stake of one bet type, in cents."""

    minimum: int
    maximum: int

    def allows(self, stake: int) -> bool:
        """Whether a stake lies within the limits."""
        return self.minimum <= stake <= self.maximum


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
    #: (``LB-IT-*``): how a round of a log that names no game finds its game. Empty: unlisted.
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

    def limits_for(self, bet: BetRule | str) -> StakeLimits:
        """Stake limits of one bet (a rule or its id)."""
        bet_id = bet if isinstance(bet, str) else bet.id
        for offered, limits in self.limits:
            if offered == bet_id:
                return limits
        raise KeyError(f"{self.id} does not offer the {bet_id} bet")

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
