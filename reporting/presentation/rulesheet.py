"""The rule sheet of a game: a frozen view model with every figure computed, nothing formatted.

A rule sheet is the rules page an operator publishes for a game. Every number on it comes
from here, and every number here comes from the engine: card points and hand values from
:mod:`reporting.engine.cards` and :func:`~reporting.engine.rules.hand_value`, the drawing
tables from :func:`~reporting.engine.rules.player_draws` and
:func:`~reporting.engine.rules.banker_draws`, what each bet wins and pays from
:func:`~reporting.engine.bets.resolve_bet` on the game's pay table, the RTPs from
:func:`reporting.engine.theory.game_odds`, the monthly figure from :mod:`reporting.figures.disclosure`.

Values stay exact (``int`` cents, ``Decimal``, ``Fraction``, ``date``); the templates format
them with the filters of :mod:`reporting.presentation.i18n`. The sheet holds no sentence: words are the
templates' (and the translators') business.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date, time
from decimal import Decimal
from fractions import Fraction

from reporting.config.regulators import DEFAULT_UPDATE_DAY
from reporting.config.rtp import favourable_bet_warnings
from reporting.engine.bets import BetFamily, BetResult, BetType, PayTable, resolve_bet
from reporting.engine.cards import RANKS, Card
from reporting.engine.games import GameSpec, StakeLimits
from reporting.engine.money import RoundingPolicy, round_cents
from reporting.engine.odds import PairFacts, PointFacts
from reporting.engine.rules import banker_draws, hand_value, player_draws, resolve_round
from reporting.engine.theory import game_odds
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
from reporting.records import Month
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
    """One row of the Banker matrix: a two-card total and a cell per column."""

    total: int
    cells: tuple[BankerCell, ...]


@dataclass(frozen=True, slots=True)
class OfferedBet:
    """A bet the game takes: what it pays, what it returns in theory, its stake limits.

    ``odds`` is None for the bonus bets, which pay by the bonus table. The perfect pair bet
    pays ``odds`` when one hand holds a perfect pair and ``both_hands_odds`` when both do.
    """

    bet: BetType
    odds: Fraction | None
    both_hands_odds: Fraction | None
    tie_returns_stake: bool
    cards_dealt: tuple[int, ...]  # small / big: the numbers of cards dealt on which it wins
    rtp_percent: Fraction
    limits: StakeLimits

    @property
    def is_main(self) -> bool:
        """Player, Banker or Tie."""
        return self.bet.family is BetFamily.MAIN

    @property
    def perfect_pair_variant(self) -> str | None:
        """``"A"`` (both hands pay as one) or ``"B"`` for the perfect pair bet, else None."""
        if self.bet is not BetType.PERFECT_PAIR:
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

    bet: BetType
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

    bets: tuple[BetType, ...]
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
    """A line of the statistics panel: what it counts (a bet type's result), the count, and
    its share of the shoe's hands."""

    bet: BetType
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
    banker_commission_percent: Fraction
    payout_example: PayoutExample
    rounding: RoundingPolicy
    rounding_example: PayoutExample | None
    limit_groups: tuple[LimitGroup, ...]
    below_minimum: str
    above_maximum: str
    exclusive_groups: tuple[tuple[BetType, ...], ...]
    statistics_reset: time | None  # local time the table statistics start again each day
    adm: AdmBlock | None
    warnings: tuple[str, ...]
    scoreboard: Scoreboard | None = None
    operator: str | None = None  # who publishes the page (the PDF's author)
    publisher: Publisher | None = None  # and all of [operator]: licence, logo, accent, templates

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
        """Player, Banker and Tie, as offered."""
        return tuple(bet for bet in self.bets if bet.is_main)

    @property
    def side_bets(self) -> tuple[OfferedBet, ...]:
        """The side bets settled on the cards whatever the main result (pairs, Small, Big)."""
        return tuple(
            bet
            for bet in self.bets
            if bet.bet.family is not BetFamily.MAIN and bet.bet.family is not BetFamily.BONUS
        )

    @property
    def bonus_bets(self) -> tuple[OfferedBet, ...]:
        """Player Bonus and Banker Bonus: paid on the result of the hand bet on, so grouped
        apart from the side bets."""
        return tuple(bet for bet in self.bets if bet.bet.family is BetFamily.BONUS)

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
            continue
        cells = []
        for third in columns:
            decision = banker_draws(total, third)
            cells.append(BankerCell(third, decision.draws, decision.rule))
        rows.append(BankerRow(total, tuple(cells)))
    return columns, tuple(rows)


def _points(
    player: int, banker: int, *, naturals: tuple[bool, bool] = (False, False), cards: int = 5
) -> PointFacts:
    return PointFacts(player, banker, naturals[0], naturals[1], cards)


@dataclass(frozen=True, slots=True)
class _Terms:
    """What a bet pays, as the rule sheet states it (the fields of :class:`OfferedBet`)."""

    odds: Fraction | None
    both_hands_odds: Fraction | None = None
    tie_returns_stake: bool = False
    cards_dealt: tuple[int, ...] = ()


def _winning_odds(bet: BetType, facts: PointFacts | PairFacts, table: PayTable) -> Fraction:
    """The odds of ``bet`` on round facts it must win on; an error if it does not."""
    resolution = resolve_bet(bet, facts, table)
    if resolution.result is not BetResult.WIN:
        raise ValueError(f"{bet}: the rule sheet's winning round of its family does not win it")
    return resolution.odds


#: Rounds a main bet may win on: the Player 9 to 0, the Banker 0 to 9, a tie at 5.
_MAIN_WINNING_ROUNDS = (_points(9, 0), _points(0, 9), _points(5, 5))


def _main_terms(bet: BetType, table: PayTable) -> _Terms:
    """Player, Banker, Tie: the odds on the first of the rounds it wins, and what a tie does."""
    for facts in _MAIN_WINNING_ROUNDS:
        winning = resolve_bet(bet, facts, table)
        if winning.result is BetResult.WIN:
            tie = resolve_bet(bet, _points(5, 5), table)
            return _Terms(odds=winning.odds, tie_returns_stake=tie.result is BetResult.PUSH)
    raise ValueError(f"{bet}: a main bet that wins on none of the rule sheet's rounds")


def _card_count_terms(bet: BetType, table: PayTable) -> _Terms:
    """Small, Big: the numbers of cards dealt on which it wins, and the odds."""
    results = {n: resolve_bet(bet, _points(1, 2, cards=n), table) for n in (4, 5, 6)}
    cards_dealt = tuple(n for n, res in results.items() if res.result is BetResult.WIN)
    if not cards_dealt:
        raise ValueError(f"{bet}: a card-count bet that wins on no number of cards dealt")
    return _Terms(odds=results[cards_dealt[0]].odds, cards_dealt=cards_dealt)


def _bonus_terms(bet: BetType, table: PayTable) -> _Terms:
    """Player / Banker Bonus: no one figure, it pays by the bonus table."""
    return _Terms(odds=None)


def _pair_terms(bet: BetType, table: PayTable) -> _Terms:
    """Pair bets: the odds when both hands hold a pair; the perfect pair pays one figure for
    one suited pair and another for two (its variant A or B)."""
    if bet is BetType.PERFECT_PAIR:
        return _Terms(
            odds=_winning_odds(bet, _pairs(suited=(True, False)), table),
            both_hands_odds=_winning_odds(bet, _pairs(suited=(True, True)), table),
        )
    return _Terms(odds=_winning_odds(bet, _pairs(pairs=(True, True)), table))


#: How the sheet states the terms of each family of bets (a test holds it complete).
_TERMS_BY_FAMILY = {
    BetFamily.MAIN: _main_terms,
    BetFamily.CARD_COUNT: _card_count_terms,
    BetFamily.BONUS: _bonus_terms,
    BetFamily.PAIR: _pair_terms,
}


def _offered_bet(bet: BetType, game: GameSpec, rtp: Fraction) -> OfferedBet:
    terms = _TERMS_BY_FAMILY[bet.family](bet, game.pay_table)
    return OfferedBet(
        bet,
        terms.odds,
        terms.both_hands_odds,
        terms.tie_returns_stake,
        terms.cards_dealt,
        rtp * 100,
        game.limits_for(bet),
    )


def _pairs(*, pairs=(False, False), suited=(False, False)) -> PairFacts:
    return PairFacts(pairs[0] or suited[0], pairs[1] or suited[1], suited[0], suited[1])


def _bonus_table(table: PayTable) -> tuple[BonusRow, ...]:
    bet = BetType.PLAYER_BONUS  # both sides share the table
    rows: list[BonusRow] = []
    losing: list[int] = []
    for margin in range(9, 0, -1):
        resolution = resolve_bet(bet, _points(margin, 0), table)
        if resolution.result is BetResult.WIN:
            rows.append(BonusRow("margin", (margin,), BetResult.WIN, resolution.odds))
        else:
            losing.append(margin)
    natural = resolve_bet(bet, _points(9, 7, naturals=(True, False), cards=4), table)
    rows.append(BonusRow("natural_win", (), natural.result, natural.odds or None))
    natural_tie = resolve_bet(bet, _points(8, 8, naturals=(True, True), cards=4), table)
    rows.append(BonusRow("natural_tie", (), natural_tie.result, natural_tie.odds or None))
    rows.append(BonusRow("other", tuple(sorted(losing)), BetResult.LOSE, None))
    return tuple(rows)


def _payout_example(
    bet: BetType, stake: int, odds: Fraction, policy: RoundingPolicy
) -> PayoutExample:
    exact = stake * odds
    win = round_cents(exact, policy)
    return PayoutExample(bet, stake, odds, exact, win, stake + win)


def _rounding_example(game: GameSpec, banker: OfferedBet | None) -> PayoutExample | None:
    """A Banker stake whose win falls between cents: the minimum plus 35 cents (5.35 at 5.00)."""
    if banker is None or banker.odds is None:
        return None
    limits = banker.limits
    for stake in range(limits.minimum + 35, min(limits.maximum, limits.minimum + 135) + 1):
        example = _payout_example(BetType.BANKER, stake, banker.odds, game.rounding)
        if example.rounded:
            return example
    return None


def _limit_groups(bets: tuple[OfferedBet, ...]) -> tuple[LimitGroup, ...]:
    groups: dict[StakeLimits, list[BetType]] = {}
    for offered in bets:
        groups.setdefault(offered.limits, []).append(offered.bet)
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
    bets = tuple(_offered_bet(bet, game, odds.rtp_of(bet.value)) for bet in game.bets)

    warnings: list[str] = []
    adm = None
    regulator = regulator_of(game)
    if regulator is not None and regulator.has_disclosure_page:
        adm = _adm_block(game, as_of, disclosure, regulator.update_day, regulator.required)
        if disclosure is None:  # the disclosure's own warnings, less those of the logs
            warnings += configuration_warnings(game, odds)
            warnings.append(
                f"no round logs (--db): the {regulator.id} block shows no win percentage for"
                f" {adm.reference_month}"
            )
        else:
            warnings += disclosure.warnings
    else:  # no disclosure to carry the configuration's warnings: a bet over 100% still warns
        warnings += favourable_bet_warnings(game, odds)
    warnings = [f"{game.id}: {warning}" for warning in warnings]

    sheet = _assemble(
        game,
        language,
        as_of=as_of,
        tool_version=tool_version,
        bets=bets,
        adm=adm,
        warnings=tuple(warnings),
    )
    return sheet if operator is None else replace(sheet, operator=operator)


def _check_request(
    game: GameSpec, language: str, disclosure: Disclosure | None, as_of: date
) -> None:
    """Refuse a language without a catalogue, and a disclosure of another game or date."""
    if language not in LOCALES:
        raise ValueError(f"no catalogue for language {language!r} (have: {', '.join(LOCALES)})")
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
    adm: AdmBlock | None,
    warnings: tuple[str, ...],
) -> RuleSheet:
    """The sheet of a game from its offered bets and regulator block: the rest is worked out."""
    natural_totals = _natural_totals()
    columns, banker_rows = _banker_matrix(natural_totals)
    by_type = {offered.bet: offered for offered in bets}
    example_bet = by_type.get(BetType.TIE) or by_type.get(BetType.PLAYER) or bets[0]
    example_odds = example_bet.odds if example_bet.odds is not None else Fraction(1)
    banker = by_type.get(BetType.BANKER)
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
        bonus_table=_bonus_table(game.pay_table)
        if any(bet.family is BetFamily.BONUS for bet in game.bets)
        else (),
        banker_commission_percent=game.commission * 100 if banker and banker.odds else Fraction(0),
        payout_example=_payout_example(
            example_bet.bet, example_bet.limits.minimum, example_odds, game.rounding
        ),
        rounding=game.rounding,
        rounding_example=_rounding_example(game, banker),
        limit_groups=_limit_groups(bets),
        below_minimum=game.below_minimum,
        above_maximum=game.above_maximum,
        exclusive_groups=tuple(
            tuple(bet for bet in game.bets if bet in group) for group in game.exclusive_bets
        ),
        statistics_reset=reset,
        adm=adm,
        warnings=warnings,
        scoreboard=_scoreboard(game, reset),
    )


#: The results the statistics panel counts, in the order live tables list them.
_STATISTICS_ROWS = (
    BetType.BANKER,
    BetType.PLAYER,
    BetType.TIE,
    BetType.BANKER_PAIR,
    BetType.PLAYER_PAIR,
)


def _scoreboard(game: GameSpec, reset: time | None) -> Scoreboard | None:
    """The scoreboard a live game's table shows, with its example shoe (None: it shows none)."""
    if not game.scoreboard:
        return None
    depth = DEFAULT_CUT_CARD_DEPTH if game.cut_card_depth is None else game.cut_card_depth
    hands = hands_from_outcomes(deal_shoe(EXAMPLE_SEED, game.decks, depth))
    statistics = shoe_statistics(hands)
    counts = {
        BetType.BANKER: statistics.banker_wins,
        BetType.PLAYER: statistics.player_wins,
        BetType.TIE: statistics.ties,
        BetType.BANKER_PAIR: statistics.banker_pairs,
        BetType.PLAYER_PAIR: statistics.player_pairs,
    }
    return Scoreboard(
        parts=game.scoreboard,
        decks=game.decks,
        seed=EXAMPLE_SEED,
        statistics=statistics,
        statistics_rows=tuple(
            StatisticsRow(bet, counts[bet], statistics.share(counts[bet]))
            for bet in _STATISTICS_ROWS
        ),
        bead=bead_road(hands),
        big=big_road(hands),
        statistics_reset=reset,
    )
