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

from collections.abc import Sequence
from dataclasses import replace
from datetime import date, time
from fractions import Fraction

from reporting.config.rtp import bet_warnings
from reporting.engine.bets import BetResult, BetRule, PayRow, PayTable
from reporting.engine.cards import RANKS, Card
from reporting.engine.facts import FACTS
from reporting.engine.games import GameSpec, StakeLimits
from reporting.engine.money import RoundingPolicy, round_cents
from reporting.engine.rules import banker_draws, hand_value, player_draws, resolve_round
from reporting.engine.theory import game_odds
from reporting.errors import InputError
from reporting.figures.disclosure import Disclosure, reference_month, updated_on
from reporting.figures.regulators import configuration_warnings, regulator_of, update_day
from reporting.presentation.bet_words import name_clashes
from reporting.presentation.i18n import LOCALES
from reporting.presentation.roads import (
    EXAMPLE_SEED,
    bead_road,
    big_road,
    deal_shoe,
    hands_from_outcomes,
    shoe_statistics,
)
from reporting.presentation.rulesheet_model import (
    AdmBlock,
    BankerCell,
    BankerRow,
    BonusRow,
    CardValue,
    DrawRange,
    HandExample,
    LimitGroup,
    OfferedBet,
    PayForm,
    PayLine,
    PayoutExample,
    RuleSheet,
    Scoreboard,
    StatisticsRow,
)
from reporting.records import Doubt
from reporting.sample.games import DEFAULT_CUT_CARD_DEPTH

__all__ = [
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

#: Hands whose values the sheet works out as examples (the rules' own examples, and a natural).
EXAMPLE_HANDS: tuple[tuple[Card, ...], ...] = (
    (Card("7", "H"), Card("8", "S")),
    (Card("5", "H"), Card("5", "S"), Card("5", "D")),
    (Card("10", "C"), Card("9", "D")),
    (Card("K", "S"), Card("A", "H"), Card("4", "C")),
    (Card("Q", "D"), Card("8", "C")),
)


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
    bonus = bet.paid_by_the_bonus_table and _bonus_rows(bet, table) == bonus_table
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
        reads_the_result=bet.reads_the_result,
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
    """The bonus table of the page: that of the first bonus bet of the catalogue whose rows
    make one (Player Bonus and Banker Bonus make the same, and the page's words name them);
    empty without one. An operator's own bonus bet is stated by its own rows and words."""
    for bet in game.bets:
        if bet.paid_by_the_bonus_table:
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
    (the Banker's 0.95:1): the minimum plus 35 cents (5.35 at 5.00); else on the first row
    of a bet of several figures that can (the no-commission Banker's 0.5:1 on a six). None
    if no bet can."""
    for offered in bets:
        if offered.odds is not None:
            example = _rounded_on(offered, offered.odds, game.rounding)
            if example is not None:
                return example
    for offered in bets:
        if offered.odds is None:
            for row in offered.rows:
                if row.odds is not None:
                    example = _rounded_on(offered, row.odds, game.rounding)
                    if example is not None:
                        return replace(example, one_of_its_pays=True)
    return None


def _rounded_on(
    offered: OfferedBet, odds: Fraction, policy: RoundingPolicy
) -> PayoutExample | None:
    """The first stake from the minimum plus 35 cents whose win at ``odds`` falls between
    cents (within a currency unit of it), or None."""
    limits = offered.limits
    for stake in range(limits.minimum + 35, min(limits.maximum, limits.minimum + 135) + 1):
        example = _payout_example(offered, stake, odds, policy)
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
        always_open=game.open_around_the_clock,
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
        adm = _adm_block(game, as_of, disclosure, update_day(game), regulator.required)
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
        warnings += bet_warnings(game, odds)
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


def refuse_missing_words(game: GameSpec, languages: Sequence[str]) -> None:
    """Refuse (one InputError naming every one) the languages of ``languages`` that an own
    bet of the game has no words in: its name, wins and each row's says."""
    said = missing_words(game, languages)
    if said is not None:
        raise InputError(said)


def missing_words(game: GameSpec, languages: Sequence[str]) -> str | None:
    """What :func:`refuse_missing_words` says of the game, or None where nothing is missing."""
    missing: dict[str, list[str]] = {}
    for language in languages:
        for bet in game.bets:
            texts = (bet.name, bet.wins, *(row.says for row in bet.rows))
            if bet.own and any(text.in_language(language) is None for text in texts):
                missing.setdefault(bet.id, []).append(language)
    if not missing:
        return None
    said = "; ".join(
        f"the {bet_id} bet has none in {', '.join(map(repr, lacking))}"
        for bet_id, lacking in missing.items()
    )
    return (
        f"{game.id}: own bets without their words in a language of the pages: {said}: give"
        " each its name, wins and each row's says in that language in [bets.ID] of the"
        " configuration, or publish the game's pages in the languages they have"
    )


def _check_request(
    game: GameSpec, language: str, disclosure: Disclosure | None, as_of: date
) -> None:
    """Refuse a language without a catalogue, or one the operator's own bets of the game are
    not written in, and a disclosure of another game or date."""
    if language not in LOCALES:
        raise ValueError(f"no catalogue for language {language!r} (have: {', '.join(LOCALES)})")
    refuse_missing_words(game, (language,))
    clashes = [f"{'.'.join(key)}: {clash}" for key, clash in name_clashes(game, language)]
    if clashes:
        raise InputError("; ".join(clashes))
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
