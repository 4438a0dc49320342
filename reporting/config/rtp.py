"""Bets whose pays do not hold as the pages state them: worded once, computed by the engine.

A pay-table override can make a bet favour the player (``tie = "10"`` on eight decks returns
about 104.7% of stakes). The configuration stays valid (an operator may mean it, for a
promotion), but the tool never lets such a bet reach a rule sheet or a disclosure without
saying so: :func:`bet_warnings` is part of every game's configuration warnings.

So are small stakes whose winnings the rounding undoes: a winning Banker bet of DKK 0.01 earns
0.0095, paid as nothing when wins are rounded down (the bet then returns 55% of stakes, not the
98.94% its pages print); rounded half up, every Banker stake from 0.01 to 0.10 is paid even
money, and the bet favours the player there (:func:`small_stake_warnings`).
"""

from __future__ import annotations

from fractions import Fraction

from reporting.engine.bets import BetRule
from reporting.engine.games import GameSpec
from reporting.engine.money import RoundingPolicy, format_money, round_cents, round_fraction
from reporting.engine.theory import ShoeOdds, game_odds
from reporting.records import Doubt

__all__ = ["bet_warnings", "favourable_bet_warnings", "small_stake_warnings"]

#: The most stakes :func:`small_stake_warnings` tries, from a bet's minimum up: past the
#: bound it computes, no stake can return more than it takes (a bet of 99.99% may give a
#: bound of thousands of cents).
MAX_STAKES_TRIED = 10_000


def bet_warnings(game: GameSpec, theory: ShoeOdds | None = None) -> list[Doubt]:
    """Every warning on the game's bets: one that favours the player under its pay table,
    and the small stakes its rounding pays otherwise than its odds say."""
    theory = theory or game_odds(game)
    return favourable_bet_warnings(game, theory) + small_stake_warnings(game)


def favourable_bet_warnings(game: GameSpec, theory: ShoeOdds | None = None) -> list[str]:
    """One warning per offered bet whose theoretical RTP (exact, from the engine) exceeds 100%."""
    theory = theory or game_odds(game)
    return [
        Doubt(
            f"the {odds.bet} bet returns {round_fraction(odds.rtp * 100, 2):.2f}% of stakes under"
            " this pay table: above 100%, it favours the player",
            "favourable_bet",
            bet=odds.bet,
            rtp=odds.rtp * 100,
        )
        for odds in theory.bets
        if odds.rtp > 1
    ]


def small_stake_warnings(game: GameSpec) -> list[Doubt]:
    """One warning per offered bet that, at its minimum stake, is paid nothing for a win (its
    winnings rounded to zero), else one per bet that at some allowed stake returns more than
    it takes (winnings rounded up); computed exactly from each pay row's probability on the
    game's shoe."""
    from reporting.engine.odds import row_reach

    warnings = []
    for bet in game.bets:
        limits = game.limits_for(bet)
        rows = _rows(game, bet, row_reach(bet, game.decks))
        nothing = [
            odds
            for _, odds in rows
            if odds and round_cents(limits.minimum * odds, game.rounding) == 0
        ]
        if nothing:
            warnings.append(_wins_nothing(game, bet, limits.minimum, nothing[0]))
            continue
        favoured = _stakes_favoured(rows, limits.minimum, limits.maximum, game.rounding)
        if favoured:
            warnings.append(_favoured_at(game, bet, favoured))
    return warnings


def _rows(game: GameSpec, bet: BetRule, reach) -> list[tuple[Fraction, Fraction | None]]:
    """Each row that decides some deal: its probability, and its odds (None: a push, whose
    stake comes back; a losing row returns nothing and is left out)."""
    rows = []
    for row, applies in zip(bet.rows, reach, strict=True):
        pay = game.pay_table.pay(row)
        if applies.decides and (isinstance(pay, Fraction) or pay == "push"):
            rows.append((applies.decides, pay if isinstance(pay, Fraction) else None))
    return rows


def _stakes_favoured(
    rows: list[tuple[Fraction, Fraction | None]], minimum: int, maximum: int, policy: RoundingPolicy
) -> tuple[int, Fraction, int] | None:
    """The allowed stake (cents) at which the bet returns most above what it takes, its return
    per unit staked, and the largest such stake; None when no stake returns more. Only
    winnings rounded up can: the return at a stake exceeds the exact one by at most half a
    cent per winning row, which bounds the stakes worth trying."""
    exact = sum(chance * (1 + (odds or 0)) for chance, odds in rows)
    winning = sum(chance for chance, odds in rows if odds)
    if policy is RoundingPolicy.DOWN or exact >= 1 or not winning:
        return None
    bound = min(maximum, int(winning / 2 / (1 - exact)), minimum + MAX_STAKES_TRIED)
    best, largest = None, 0
    for stake in range(minimum, bound + 1):
        returned = (
            sum(
                chance * (stake + (round_cents(stake * odds, policy) if odds else 0))
                for chance, odds in rows
            )
            / stake
        )
        if returned > 1:
            largest = stake
            if best is None or returned > best[1]:
                best = (stake, returned)
    return None if best is None else (*best, largest)


def _wins_nothing(game: GameSpec, bet: BetRule, minimum: int, odds: Fraction) -> Doubt:
    shown = format_money(minimum, game.currency)
    return Doubt(
        f"a winning {bet.id} bet of {shown}, its minimum stake, is paid nothing in winnings at"
        f" {_odds(odds)}:1 (rounded {game.rounding.value.replace('_', ' ')}): its odds and RTP"
        " do not hold at that stake; raise its minimum stake",
        "small_stake_wins_nothing",
        bet=bet.id,
        stake=minimum,
    )


def _favoured_at(game: GameSpec, bet: BetRule, favoured: tuple[int, Fraction, int]) -> Doubt:
    stake, returned, largest = favoured
    return Doubt(
        f"the {bet.id} bet returns {round_fraction(returned * 100, 2):.2f}% of a stake of"
        f" {format_money(stake, game.currency)} (winnings rounded"
        f" {game.rounding.value.replace('_', ' ')}): above 100%, it favours the player at"
        f" stakes up to {format_money(largest, game.currency)}; raise its minimum stake above"
        " that",
        "small_stake_favourable",
        bet=bet.id,
        stake=stake,
        rtp=returned * 100,
        largest=largest,
    )


def _odds(odds: Fraction) -> str:
    """Odds as a page writes them: ``0.95``, ``8``, ``1/3``."""
    from reporting.engine.money import exact_decimal

    exact = exact_decimal(odds)
    return str(exact) if exact is not None else f"{odds.numerator}/{odds.denominator}"
