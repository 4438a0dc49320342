"""The rule sheet of a game: a frozen view model with every figure computed, nothing formatted.

A rule sheet is the rules page an operator publishes for a game. Every number on it comes
from here, and every number here comes from the engine: card points and hand values from
:mod:`reporting.engine.cards` and :func:`~reporting.engine.rules.hand_value`, the drawing
tables from :func:`~reporting.engine.rules.player_draws` and
:func:`~reporting.engine.rules.banker_draws`, what each bet wins and pays from its declaration
(:class:`~reporting.engine.bets.BetRule`: every pay row, with its words and its pay under the
game's :class:`~reporting.engine.bets.PayTable`), the RTPs from
:func:`reporting.engine.theory.game_odds`, the monthly figure from :mod:`reporting.figures.disclosure`.

A bet's rows are all on the sheet. The familiar shapes keep their familiar wording (one win,
perhaps a stake returned on a tie: its odds; a pair bet paying one hand or both: both figures;
the bonus bets: the bonus table), derived from the rows; any other bet lists each of its rows,
named by its ``says``, with its pay (:class:`PayForm`).

Values stay exact (``int`` cents, ``Decimal``, ``Fraction``, ``date``); the templates format
them with the filters of :mod:`reporting.presentation.i18n`. The sheet holds no sentence of its
own: its words are the templates' (and the translators'), a bet's those of its declaration
(:class:`~reporting.engine.bets.Wording`: a msgid the templates translate, or the operator's
text).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace
from datetime import date, time
from decimal import Decimal
from fractions import Fraction

from reporting.config.regulators import DEFAULT_UPDATE_DAY
from reporting.config.rtp import favourable_bet_warnings
from reporting.engine.bets import BetGroup, BetResult, BetRule, PayRow, PayTable, Wording
from reporting.engine.cards import RANKS, Card
from reporting.engine.facts import FACTS
from reporting.engine.games import GameSpec, StakeLimits
from reporting.engine.money import RoundingPolicy, round_cents
from reporting.engine.rules import banker_draws, hand_value, player_draws, resolve_round
from reporting.engine.theory import game_odds
from reporting.errors import InputError
from reporting.figures.disclosure import Disclosure, reference_month, updated_on
from reporting.figures.regulators import configuration_warnings, regulator_of
from reporting.presentation.i18n import LOCALES
from reporting.presentation.publisher import Publisher
from reporting.presentation.roads import (
    EXAMPLE_SEED,
    BeadRoad,
    BigRoad,
    ShoeStatistics,
    bead_road,
    big_road,
    deal_shoe,
    hands_from_outcomes,
    shoe_statistics,
)
from reporting.records import Doubt, Month
from reporting.sample.games import DEFAULT_CUT_CARD_DEPTH

__all__ = [
    "ALWAYS_OPEN",
    "AdmBlock",
    "BankerCell",
    "BankerRow",
    "BonusRow",
    "CardValue",
    "DrawRange",
    "HandExample",
    "LimitGroup",
    "OfferedBet",
    "PayForm",
    "PayLine",
    "PayoutExample",
    "RuleSheet",
    "Scoreboard",
    "StatisticsRow",
    "build_rule_sheet",
]

#: ``opening_hours`` value of a game open every day around the clock.
ALWAYS_OPEN = "24h"
#: Hands whose values the sheet works out as examples (the rules' own examples, and a natural).
EXAMPLE_HANDS: tuple[tuple[Card, ...], ...] = (
    (Card("7", "H"), Card("8", "S")),
    (Card("5", "H"), Card("5", "S"), Card("5", "D")),
    (Card("10", "C"), Card("9", "D")),
    (Card("K", "S"), Card("A", "H"), Card("4", "C")),
    (Card("Q", "D"), Card("8", "C")),
)


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
        """The side bets settled on the cards whatever the main result (pairs, Small, Big,
        Super 6, Dragon 7...)."""
        return tuple(bet for bet in self.bets if bet.group is BetGroup.SIDE)

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


# --- building ------------------------------------------------------------------------------------


def _card_values() -> tuple[CardValue, ...]:
    points = {rank: Card(rank, "S").points for rank in RANKS}
    ace = tuple(rank for rank in RANKS if rank == "A")
    zero = tuple(rank for rank in RANKS if points[rank] == 0)
    pips = tuple(rank for rank in RANKS if rank not in ace and rank not in zero)
    return tuple(
        CardValue(kind, ranks, tuple(points[rank] for rank in ranks))
        for kind, ranks in (("ace", ace), ("pip", pips), ("ten_or_face", zero))
    )


def _hand_example(cards: tuple[Card, ...]) -> HandExample:
    points = tuple(card.points for card in cards)
    natural = len(cards) == 2 and resolve_round(cards, _ZERO_HAND).player_natural
    return HandExample(cards, points, sum(points), hand_value(cards), natural)


_ZERO_HAND = (Card("K", "D"), Card("Q", "C"))


def _two_card_hand(total: int) -> tuple[Card, Card]:
    return (Card(RANKS[total - 1] if total else "K", "S"), Card("K", "H"))


def _natural_totals() -> tuple[int, ...]:
    return tuple(
        total
        for total in range(10)
        if resolve_round(_two_card_hand(total), _ZERO_HAND).player_natural
    )


def _player_rule(natural_totals: tuple[int, ...]) -> tuple[DrawRange, ...]:
    rows: list[DrawRange] = []
    for total in range(10):
        if total in natural_totals:
            draws, natural, rule = False, True, "natural_stands"
        else:
            decision = player_draws(total)
            draws, natural, rule = decision.draws, False, decision.rule
        previous = rows[-1] if rows else None
        if previous and (previous.draws, previous.natural, previous.rule) == (draws, natural, rule):
            rows[-1] = DrawRange(previous.first, total, draws, natural, rule)
        else:
            rows.append(DrawRange(total, total, draws, natural, rule))
    return tuple(rows)


def _banker_matrix(
    natural_totals: tuple[int, ...],
) -> tuple[tuple[int | None, ...], tuple[BankerRow, ...]]:
    columns: tuple[int | None, ...] = (None, *range(10))
    rows = []
    for total in range(10):
        if total in natural_totals:
            rows.append(BankerRow(total, (), natural=True))
            continue
        cells = []
        for third in columns:
            decision = banker_draws(total, third)
            cells.append(BankerCell(third, decision.draws, decision.rule))
        rows.append(BankerRow(total, tuple(cells)))
    return columns, tuple(rows)


def _pay_line(row: PayRow, table: PayTable) -> PayLine:
    pay = table.pay(row)
    if isinstance(pay, Fraction):
        return PayLine(row.says, BetResult.WIN, pay)
    return PayLine(row.says, pay, None)


def _returns_stake_on_a_tie(row: PayRow, table: PayTable) -> bool:
    """A row that returns the stake on a tie, and on nothing else."""
    return row.when == (("winner", frozenset({"tie"})),) and table.pay(row) is BetResult.PUSH


#: Facts that count hands (0, 1 or 2 of them hold a pair...): what "one hand or both" reads.
_HAND_COUNTS = frozenset(name for name, fact in FACTS.items() if fact.values == (0, 1, 2))


def _one_or_both_hands(rows: tuple[PayRow, ...], lines: tuple[PayLine, ...]) -> bool:
    """Two winning rows on one count of hands, the first on one hand, the second on both."""
    if len(rows) != 2 or any(line.result is not BetResult.WIN for line in lines):
        return False
    conditions = [row.when for row in rows]
    if any(len(when) != 1 for when in conditions):
        return False
    (first_fact, first), (second_fact, second) = conditions[0][0], conditions[1][0]
    return (
        first_fact == second_fact
        and first_fact in _HAND_COUNTS
        and (first, second) == (frozenset({1}), frozenset({2}))
    )


def _form(bet: BetRule, table: PayTable, lines: tuple[PayLine, ...], bonus: bool) -> PayForm:
    """How the sheet states the bet's pays (``bonus``: its rows make the sheet's bonus table)."""
    if bonus:
        return PayForm.BONUS_TABLE
    if (
        lines[0].result is BetResult.WIN
        and all(_returns_stake_on_a_tie(row, table) for row in bet.rows[1:])
        and len(bet.rows) <= 2
    ):
        return PayForm.ODDS
    if _one_or_both_hands(bet.rows, lines):
        return PayForm.ONE_OR_BOTH_HANDS
    return PayForm.ROWS


def _offered_bet(
    bet: BetRule, game: GameSpec, rtp: Fraction, bonus_table: tuple[BonusRow, ...]
) -> OfferedBet:
    """A bet as the sheet states it: its words and every row, the figures of its form."""
    table = game.pay_table
    lines = tuple(_pay_line(row, table) for row in bet.rows)
    bonus = bet.group is BetGroup.BONUS and _bonus_rows(bet, table) == bonus_table
    form = _form(bet, table, lines, bonus)
    odds = both_hands_odds = None
    # The sentence's count is the first row's condition, whatever that row pays under the
    # game's table (a pay changed to "lose" leaves the sentence true of the row).
    counts = bet.rows[0].condition("cards_dealt") or frozenset()
    cards_dealt = tuple(sorted(count for count in counts if isinstance(count, int)))
    if form is PayForm.ODDS:
        odds = lines[0].odds
    elif form is PayForm.ONE_OR_BOTH_HANDS:
        odds, both_hands_odds = lines[0].odds, lines[1].odds
    if bet.wins_plural is not None and not cards_dealt:
        raise ValueError(
            f"{bet.id}: its sentence counts the cards dealt (wins_plural), but it has no one"
            " winning row on cards_dealt to count them from"
        )
    return OfferedBet(
        bet=bet.id,
        group=bet.group,
        name=bet.name,
        wins=bet.wins,
        wins_plural=bet.wins_plural,
        rows=lines,
        form=form,
        odds=odds,
        both_hands_odds=both_hands_odds,
        tie_returns_stake=any(_returns_stake_on_a_tie(row, table) for row in bet.rows),
        cards_dealt=cards_dealt,
        rtp_percent=rtp * 100,
        limits=game.limits_for(bet),
    )


_MARGINS = range(1, 10)


def _bonus_rows(bet: BetRule, table: PayTable) -> tuple[BonusRow, ...] | None:
    """The bonus table a bonus bet's rows make: a row per winning margin without a natural
    (largest first), the win with a natural, the tie of two naturals, then everything else;
    None when its rows are not of that shape (the sheet then lists them as they are)."""
    by_margin: dict[int, BonusRow] = {}
    natural_win = natural_tie = None
    for row in bet.rows:
        line = _pay_line(row, table)
        conditions = dict(row.when)
        winner = conditions.pop("winner", None)
        side = next(iter(winner)) if winner is not None and len(winner) == 1 else None
        if side == "tie" and conditions == {
            "player_natural": frozenset({True}),
            "banker_natural": frozenset({True}),
        }:
            natural_tie = BonusRow("natural_tie", (), line.result, line.odds)
        elif side in ("player", "banker") and conditions == {f"{side}_natural": frozenset({True})}:
            if by_margin:
                return None  # a margin row before it would pay on a natural too
            natural_win = BonusRow("natural_win", (), line.result, line.odds)
        elif side in ("player", "banker") and set(conditions) == {"margin"}:
            (margin,) = conditions["margin"] if len(conditions["margin"]) == 1 else (None,)
            if margin not in _MARGINS or line.result is not BetResult.WIN:
                return None
            by_margin[margin] = BonusRow("margin", (margin,), line.result, line.odds)
        else:
            return None
    losing = tuple(margin for margin in _MARGINS if margin not in by_margin)
    return (
        *(by_margin[margin] for margin in sorted(by_margin, reverse=True)),
        natural_win or BonusRow("natural_win", (), BetResult.LOSE, None),
        natural_tie or BonusRow("natural_tie", (), BetResult.LOSE, None),
        BonusRow("other", losing, BetResult.LOSE, None),
    )


def _bonus_table(game: GameSpec) -> tuple[BonusRow, ...]:
    """The bonus table of the page: that of the first bonus bet whose rows make one (Player
    Bonus and Banker Bonus make the same); empty without one."""
    for bet in game.bets:
        if bet.group is BetGroup.BONUS:
            rows = _bonus_rows(bet, game.pay_table)
            if rows is not None:
                return rows
    return ()


def _payout_example(
    bet: OfferedBet, stake: int, odds: Fraction, policy: RoundingPolicy
) -> PayoutExample:
    exact = stake * odds
    win = round_cents(exact, policy)
    return PayoutExample(bet, stake, odds, exact, win, stake + win)


def _example_bet(bets: tuple[OfferedBet, ...]) -> OfferedBet:
    """The bet the payouts are shown on: the main bet paying the most at one figure (the Tie),
    else the first bet with one figure, else the first bet."""
    main = [bet for bet in bets if bet.is_main and bet.odds is not None]
    if main:
        return max(main, key=lambda bet: bet.odds or 0)  # the first on equal odds
    return next((bet for bet in bets if bet.odds is not None), bets[0])


def _rounding_example(game: GameSpec, bets: tuple[OfferedBet, ...]) -> PayoutExample | None:
    """A stake whose win falls between cents, on the first bet whose one figure can make one
    (the Banker's 0.95:1): the minimum plus 35 cents (5.35 at 5.00). None if no bet can."""
    for offered in bets:
        if offered.odds is None:
            continue
        limits = offered.limits
        for stake in range(limits.minimum + 35, min(limits.maximum, limits.minimum + 135) + 1):
            example = _payout_example(offered, stake, offered.odds, game.rounding)
            if example.rounded:
                return example
    return None


def _limit_groups(bets: tuple[OfferedBet, ...]) -> tuple[LimitGroup, ...]:
    groups: dict[StakeLimits, list[OfferedBet]] = {}
    for offered in bets:
        groups.setdefault(offered.limits, []).append(offered)
    return tuple(LimitGroup(tuple(members), limits) for limits, members in groups.items())


def _adm_block(
    game: GameSpec,
    as_of: date,
    disclosure: Disclosure | None,
    update_day: int,
    required: tuple[str, ...] = (),
) -> AdmBlock:
    month = reference_month(as_of, update_day)
    limits = game.overall_limits
    return AdmBlock(
        game_name=game.name,
        regulator_code=game.regulator_code,
        declared_rtp=game.declared_rtp,
        declared_rtp_reference=game.declared_rtp_reference,
        operator_share=game.operator_share,
        currency=game.currency,
        minimum_stake=limits.minimum,
        maximum_stake=limits.maximum,
        always_open=game.opening_hours == ALWAYS_OPEN,
        opening_hours=game.opening_hours,
        update_day=update_day,
        missing=tuple(key for key in required if getattr(game, key) in (None, "")),
        reference_month=month,
        updated_on=updated_on(month, update_day),
        win_percentage=None if disclosure is None else disclosure.win_percentage,
        rounds=None if disclosure is None else disclosure.rounds,
    )


def build_rule_sheet(
    game: GameSpec,
    language: str,
    *,
    disclosure: Disclosure | None,
    as_of: date,
    tool_version: str,
    operator: str | None = None,
) -> RuleSheet:
    """Compute the rule sheet of ``game`` in ``language`` as of a local date (published by
    ``operator``, the configuration's operator name).

    ``disclosure`` carries the previous month's win percentage of an ADM game (from
    :func:`reporting.figures.disclosure.disclose` on the round logs); without it the ADM block says
    the figure is not included, and the sheet's ``warnings`` say so too. A disclosure of
    another game or another date is refused.
    """
    _check_request(game, language, disclosure, as_of)
    odds = disclosure.theory if disclosure is not None else game_odds(game)
    bonus_table = _bonus_table(game)
    bets = tuple(_offered_bet(bet, game, odds.rtp_of(bet.id), bonus_table) for bet in game.bets)

    warnings: list[Doubt] = []
    adm = None
    regulator = regulator_of(game)
    if regulator is not None and regulator.has_disclosure_page:
        adm = _adm_block(game, as_of, disclosure, regulator.update_day, regulator.required)
        if disclosure is None:  # the disclosure's own warnings, less those of the logs
            warnings += configuration_warnings(game, odds)
            warnings.append(
                Doubt(
                    f"no round logs (--db): the {regulator.id} block shows no win percentage"
                    f" for {adm.reference_month}",
                    "no_round_logs",
                    month=tuple(adm.reference_month),
                )
            )
        else:
            warnings += disclosure.warnings
    else:  # no disclosure to carry the configuration's warnings: a bet over 100% still warns
        warnings += favourable_bet_warnings(game, odds)
    doubts = tuple(warnings)

    sheet = _assemble(
        game,
        language,
        as_of=as_of,
        tool_version=tool_version,
        bets=bets,
        bonus_table=bonus_table,
        adm=adm,
        warnings=tuple(f"{game.id}: {doubt}" for doubt in doubts),
    )
    sheet = replace(sheet, doubts=doubts)
    return sheet if operator is None else replace(sheet, operator=operator)


def _check_request(
    game: GameSpec, language: str, disclosure: Disclosure | None, as_of: date
) -> None:
    """Refuse a language without a catalogue, or one the operator's own bets of the game are
    not written in, and a disclosure of another game or date."""
    if language not in LOCALES:
        raise ValueError(f"no catalogue for language {language!r} (have: {', '.join(LOCALES)})")
    for bet in game.bets:
        texts = (bet.name, bet.wins, *(row.says for row in bet.rows))
        if bet.own and any(text.in_language(language) is None for text in texts):
            raise InputError(
                f"{game.id}: the {bet.id} bet has no words in {language!r}: give its name,"
                f" wins and each row's says in {language} in [bets.{bet.id}] of the"
                " configuration, or publish the game's pages in the languages it has"
            )
    if disclosure is not None and (disclosure.game.id != game.id or disclosure.as_of != as_of):
        raise ValueError(
            f"the disclosure is of {disclosure.game.id} as of {disclosure.as_of}, "
            f"not of {game.id} as of {as_of}"
        )


def _assemble(
    game: GameSpec,
    language: str,
    *,
    as_of: date,
    tool_version: str,
    bets: tuple[OfferedBet, ...],
    bonus_table: tuple[BonusRow, ...],
    adm: AdmBlock | None,
    warnings: tuple[str, ...],
) -> RuleSheet:
    """The sheet of a game from its offered bets and regulator block: the rest is worked out."""
    natural_totals = _natural_totals()
    columns, banker_rows = _banker_matrix(natural_totals)
    example_bet = _example_bet(bets)
    example_odds = example_bet.odds if example_bet.odds is not None else Fraction(1)
    reset = None if game.statistics_reset is None else time.fromisoformat(game.statistics_reset)
    return RuleSheet(
        game_id=game.id,
        game_name=game.name,
        game_version=game.version,
        language=language,
        locale=LOCALES[language],
        as_of=as_of,
        tool_version=tool_version,
        currency=game.currency,
        live=game.kind == "live",
        decks=game.decks,
        cards_in_shoe=game.decks * len(RANKS) * 4,
        reshuffle_every_round=game.reshuffle_every_round,
        cut_card_depth=game.cut_card_depth,
        card_values=_card_values(),
        hand_examples=tuple(_hand_example(cards) for cards in EXAMPLE_HANDS),
        natural_totals=natural_totals,
        player_rule=_player_rule(natural_totals),
        banker_columns=columns,
        banker_rows=banker_rows,
        bets=bets,
        bonus_table=bonus_table,
        payout_example=_payout_example(
            example_bet, example_bet.limits.minimum, example_odds, game.rounding
        ),
        rounding=game.rounding,
        rounding_example=_rounding_example(game, bets),
        limit_groups=_limit_groups(bets),
        below_minimum=game.below_minimum,
        above_maximum=game.above_maximum,
        exclusive_groups=tuple(
            tuple(offered for offered in bets if offered.bet in group)
            for group in game.exclusive_bets
        ),
        statistics_reset=reset,
        adm=adm,
        warnings=warnings,
        scoreboard=_scoreboard(game, reset),
        hand_words=game.hand_words(language),
    )


#: The results the statistics panel counts, in the order live tables list them: each named
#: as the catalogue bet that wins on it, with the count of :class:`ShoeStatistics` it shows.
_STATISTICS_ROWS = (
    ("banker", "banker_wins"),
    ("player", "player_wins"),
    ("tie", "ties"),
    ("banker_pair", "banker_pairs"),
    ("player_pair", "player_pairs"),
)


def _scoreboard(game: GameSpec, reset: time | None) -> Scoreboard | None:
    """The scoreboard a live game's table shows, with its example shoe (None: it shows none)."""
    if not game.scoreboard:
        return None
    depth = DEFAULT_CUT_CARD_DEPTH if game.cut_card_depth is None else game.cut_card_depth
    hands = hands_from_outcomes(deal_shoe(EXAMPLE_SEED, game.decks, depth))
    statistics = shoe_statistics(hands)
    rows = []
    for bet, count_name in _STATISTICS_ROWS:
        count = getattr(statistics, count_name)
        rows.append(StatisticsRow(bet, count, statistics.share(count)))
    return Scoreboard(
        parts=game.scoreboard,
        decks=game.decks,
        seed=EXAMPLE_SEED,
        statistics=statistics,
        statistics_rows=tuple(rows),
        bead=bead_road(hands),
        big=big_road(hands),
        statistics_reset=reset,
    )
