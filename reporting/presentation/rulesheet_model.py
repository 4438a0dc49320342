"""The rule sheet's view model: frozen records of every figure a rule sheet shows, built by
:func:`reporting.presentation.rulesheet.build_rule_sheet`.

Values stay exact (``int`` cents, ``Decimal``, ``Fraction``, ``date``); the templates format
them with the filters of :mod:`reporting.presentation.i18n`. A bet's words are those of its
declaration (:class:`~reporting.engine.bets.Wording`: a msgid the templates translate, or the
operator's text).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import date, time
from decimal import Decimal
from fractions import Fraction

from reporting.config.regulators import DEFAULT_UPDATE_DAY
from reporting.engine.bets import BetGroup, BetResult, Wording
from reporting.engine.cards import Card
from reporting.engine.games import StakeLimits
from reporting.engine.money import RoundingPolicy
from reporting.presentation.publisher import Publisher
from reporting.presentation.roads import BeadRoad, BigRoad, ShoeStatistics
from reporting.records import Doubt, Month

#: The name of a currency's hundredth where a page says it (``rounding_text`` in
#: reporting/templates/rules/macros.html.j2, which has a sentence for each name): the cent of
#: the euro, the øre of the Danish and Norwegian crowns. A currency not here is paid "to two
#: decimal places", true of each one the configuration accepts (two decimals,
#: reporting.config.regulators.currency_problem): a page that named the cent of a Danish
#: table's kroner, or the øre of an Italian table's euros, would misname the money it pays.
#: Not the dollars: the catalogues' cent is the euro's (French "centime", Spanish "céntimo"),
#: and the dollar's is another word. Nor the Swedish krona, whose hundredth is the öre.
HUNDREDTHS = {"EUR": "cent", "DKK": "øre", "NOK": "øre"}


@dataclass(frozen=True, slots=True)
class CardValue:
    """A group of ranks and their points: ``ace``, ``pip`` (2 to 9) or ``ten_or_face``."""

    kind: str
    ranks: tuple[str, ...]
    points: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class HandExample:
    """A worked hand value: the cards, their points, the sum, and the hand's value."""

    cards: tuple[Card, ...]
    points: tuple[int, ...]
    total: int
    value: int
    natural: bool


@dataclass(frozen=True, slots=True)
class DrawRange:
    """Consecutive two-card totals on which a hand does the same thing."""

    first: int
    last: int
    draws: bool
    natural: bool
    rule: str


@dataclass(frozen=True, slots=True)
class BankerCell:
    """Whether the Banker draws, on one total against one Player third card (None: stood)."""

    player_third: int | None
    draws: bool
    rule: str


@dataclass(frozen=True, slots=True)
class BankerRow:
    """One row of the Banker matrix: a two-card total and a cell per column; on a natural
    total (8, 9) no cell: the round ends on the first two cards, both hands stand, and the
    Player has no third card to look up (the matrix says so across the row)."""

    total: int
    cells: tuple[BankerCell, ...]
    natural: bool = False


class PayForm(enum.StrEnum):
    """How the sheet states what a bet pays, from the shape of its rows."""

    #: One winning row, perhaps followed by a tie that returns the stake: its odds (Player,
    #: Banker, Tie, the pairs, Small, Big, Super 6, Dragon 7...).
    ODDS = "odds"
    #: Two winning rows on how many hands hold something, one then both: both figures
    #: (the perfect pair).
    ONE_OR_BOTH_HANDS = "one_or_both_hands"
    #: A bonus bet whose rows make the bonus table (by margin and naturals).
    BONUS_TABLE = "bonus_table"
    #: Any other bet: every row, named by its words, with its pay.
    ROWS = "rows"


@dataclass(frozen=True, slots=True)
class PayLine:
    """One pay row of a bet as the sheet states it: when it applies (``says``) and what it pays
    under the game's table: a win at ``odds``, the stake returned, or a loss."""

    says: Wording
    result: BetResult
    odds: Fraction | None  # a win's odds "to 1"; None for a push or a loss


@dataclass(frozen=True, slots=True)
class OfferedBet:
    """A bet the game takes: its words, every row it pays on, what it returns in theory, its
    stake limits.

    ``rows`` lists every pay row of the declaration, in order. The figures of the familiar
    shapes (``form``) are read from them: ``odds`` is the one figure the bet pays (None for a
    bonus bet, which pays by the bonus table, and for a bet whose rows pay differently); a bet
    on one hand or both pays ``odds`` on one hand and ``both_hands_odds`` on both;
    ``tie_returns_stake`` when a row returns the stake on a tie; ``cards_dealt``, the numbers
    of cards dealt its winning row names (Small, Big).
    """

    bet: str  # the bet's id
    group: BetGroup
    name: Wording
    wins: Wording
    wins_plural: str | None  # a sentence counting ``cards_dealt`` has a plural (a msgid)
    rows: tuple[PayLine, ...]
    form: PayForm
    odds: Fraction | None
    both_hands_odds: Fraction | None
    tie_returns_stake: bool
    reads_the_result: bool  # wins only with a main result (BetRule.reads_the_result)
    cards_dealt: tuple[int, ...]
    rtp_percent: Fraction
    limits: StakeLimits

    @property
    def is_main(self) -> bool:
        """Player, Banker, Tie or one of their variants."""
        return self.group is BetGroup.MAIN

    @property
    def commission_percent(self) -> Fraction | None:
        """The commission a main bet of one figure below even money keeps of an even-money
        win (the Banker's 5% at 0.95:1), in percent; None for any other bet."""
        if self.group is not BetGroup.MAIN or self.form is not PayForm.ODDS or self.odds is None:
            return None
        return (1 - self.odds) * 100 if self.odds < 1 else None

    @property
    def perfect_pair_variant(self) -> str | None:
        """``"A"`` (both hands pay as one) or ``"B"`` for a bet on one hand or both (the
        perfect pair), else None."""
        if self.form is not PayForm.ONE_OR_BOTH_HANDS:
            return None
        return "A" if self.both_hands_odds == self.odds else "B"


@dataclass(frozen=True, slots=True)
class BonusRow:
    """A row of the bonus table: ``margin`` (no natural, by ``margins`` points),
    ``natural_win``, ``natural_tie``, or ``other`` (everything else)."""

    kind: str
    margins: tuple[int, ...]
    result: BetResult
    odds: Fraction | None


@dataclass(frozen=True, slots=True)
class PayoutExample:
    """A stake on a bet, what it wins (exact and as paid) and what it returns, in cents."""

    bet: OfferedBet
    stake: int
    odds: Fraction
    exact_win: Fraction
    win: int
    returned: int
    # the bet pays other figures on other rows: the example names the one it is paid at
    one_of_its_pays: bool = False

    @property
    def stake_amount(self) -> Fraction:
        """The stake in currency units (``Fraction(535, 100)`` for 5.35)."""
        return Fraction(self.stake, 100)

    @property
    def exact_win_amount(self) -> Fraction:
        """The exact win in currency units, before rounding (5.0825)."""
        return self.exact_win / 100

    @property
    def rounded(self) -> bool:
        """Whether the exact win fell between cents."""
        return self.exact_win != self.win


@dataclass(frozen=True, slots=True)
class LimitGroup:
    """Bets that share the same stake limits (cents)."""

    bets: tuple[OfferedBet, ...]
    limits: StakeLimits


@dataclass(frozen=True, slots=True)
class AdmBlock:
    """The disclosure block an ADM-licensed game's page carries (disclosures.md).

    ``win_percentage`` is None when the sheet was made without the round logs.
    """

    game_name: str
    regulator_code: str | None
    declared_rtp: Decimal | None  # percent
    operator_share: Decimal | None  # percent
    currency: str
    minimum_stake: int  # cents
    maximum_stake: int
    always_open: bool
    opening_hours: str | None
    reference_month: Month
    updated_on: date
    win_percentage: Decimal | None  # percent, 2 decimals
    rounds: int | None
    declared_rtp_reference: str | None = None  # the certificate the declared RTP rests on
    update_day: int = DEFAULT_UPDATE_DAY  # the day of each month the figure is refreshed
    #: The keys the regulator requires that the configuration leaves unset (a draft's gaps).
    missing: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class StatisticsRow:
    """A line of the statistics panel: what it counts (the result a catalogue bet wins on,
    named by the bet's name), the count, and its share of the shoe's hands."""

    bet: str  # a catalogue bet's id
    count: int
    share: Fraction | None


@dataclass(frozen=True, slots=True)
class Scoreboard:
    """What a live table shows players of its shoe (``parts``: statistics, bead_road,
    big_road), with an example: one real shoe of the game's decks dealt by the engine."""

    parts: tuple[str, ...]
    decks: int
    seed: int
    statistics: ShoeStatistics
    statistics_rows: tuple[StatisticsRow, ...]
    bead: BeadRoad
    big: BigRoad
    statistics_reset: time | None  # the shoe count starts again at this local time


@dataclass(frozen=True)
class RuleSheet:
    """Everything a rule sheet shows, computed; see :func:`build_rule_sheet`."""

    game_id: str
    game_name: str
    game_version: str | None
    language: str
    locale: str
    as_of: date
    tool_version: str
    currency: str
    live: bool
    decks: int
    cards_in_shoe: int
    reshuffle_every_round: bool
    cut_card_depth: int | None  # None: the configuration states none
    card_values: tuple[CardValue, ...]
    hand_examples: tuple[HandExample, ...]
    natural_totals: tuple[int, ...]
    player_rule: tuple[DrawRange, ...]
    banker_columns: tuple[int | None, ...]
    banker_rows: tuple[BankerRow, ...]
    bets: tuple[OfferedBet, ...]
    bonus_table: tuple[BonusRow, ...]
    payout_example: PayoutExample
    rounding: RoundingPolicy
    rounding_example: PayoutExample | None
    limit_groups: tuple[LimitGroup, ...]
    below_minimum: str
    above_maximum: str
    exclusive_groups: tuple[tuple[OfferedBet, ...], ...]
    statistics_reset: time | None  # local time the table statistics start again each day
    adm: AdmBlock | None
    warnings: tuple[str, ...]  # each doubt, as the logs say it: "<game id>: <doubt>"
    scoreboard: Scoreboard | None = None
    operator: str | None = None  # who publishes the page (the PDF's author)
    publisher: Publisher | None = None  # and all of [operator]: licence, logo, accent, templates
    #: Why the page is a draft, each said in the page's language (macros ``doubt_text``).
    doubts: tuple[Doubt, ...] = ()
    #: The game's names of the hands in the sheet's language, where its ``words`` give them.
    hand_words: tuple[tuple[str, str], ...] = ()

    @property
    def draft(self) -> bool:
        """Whether the page would state something missing or in doubt (it has warnings: a
        field its regulator requires, a declared RTP the theory does not bear out, no month's
        figure): it is marked as a draft, not for publication."""
        return bool(self.warnings)

    @property
    def hundredth(self) -> str | None:
        """What the page calls a hundredth of its currency (:data:`HUNDREDTHS`); None: it
        says "two decimal places"."""
        return HUNDREDTHS.get(self.currency)

    @property
    def shows_statistics(self) -> bool:
        """Whether the scoreboard section has the statistics panel (which then says when the
        shoe count starts again; otherwise the shoe's paragraph does)."""
        return self.scoreboard is not None and "statistics" in self.scoreboard.parts

    @property
    def main_bets(self) -> tuple[OfferedBet, ...]:
        """Player, Banker, Tie and their variants (Banker without commission, EZ), as offered."""
        return tuple(bet for bet in self.bets if bet.group is BetGroup.MAIN)

    @property
    def side_bets(self) -> tuple[OfferedBet, ...]:
        """The side bets: settled on the cards, whatever the main result (pairs, Small, Big)
        or with the result their rows name (Super 6, Dragon 7, the Tiger bets)."""
        return tuple(bet for bet in self.bets if bet.group is BetGroup.SIDE)

    @property
    def side_bets_read_the_result(self) -> bool:
        """Whether a side bet offered wins only with a main result (Super 6, Dragon 7, the
        Tiger bets): the sheet then says that such a bet wins only with its result, where it
        says of pairs, Small and Big that they are settled whatever the main result."""
        return any(bet.reads_the_result for bet in self.side_bets)

    @property
    def bonus_bets(self) -> tuple[OfferedBet, ...]:
        """Player Bonus and Banker Bonus: paid on the result of the hand bet on, so grouped
        apart from the side bets."""
        return tuple(bet for bet in self.bets if bet.group is BetGroup.BONUS)

    @property
    def best_bet(self) -> OfferedBet:
        """The offered bet with the highest theoretical RTP (first one on equal RTPs)."""
        return max(self.bets, key=lambda offered: offered.rtp_percent)

    @property
    def has_bonus(self) -> bool:
        """Whether a bonus bet is offered (the bonus table is shown)."""
        return bool(self.bonus_table)
