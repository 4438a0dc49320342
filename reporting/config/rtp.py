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
from typing import NamedTuple

from reporting.engine.bets import BetRule
from reporting.engine.games import GameSpec
from reporting.engine.money import (
    RoundingPolicy,
    format_money,
    round_apart,
    round_cents,
)
from reporting.engine.theory import ShoeOdds, game_odds, ratio_text
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
    return [_favourable(odds.bet, odds.rtp * 100) for odds in theory.bets if odds.rtp > 1]


def _favourable(bet: str, rtp: Fraction) -> Doubt:
    """The warning of a bet returning ``rtp`` points, above 100, shown apart from 100."""
    shown = round_apart(rtp, 100)
    return Doubt(
        f"the {bet} bet returns {shown}% of stakes under this pay table: above 100%, it favours"
        " the player",
        "favourable_bet",
        bet=bet,
        rtp=rtp,
        rtp_shown=shown,
    )


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


class _Favoured(NamedTuple):
    """The stakes at which a bet returns more than it takes."""

    stake: int  # cents: where it returns most
    returned: Fraction  # per unit staked, there
    largest: int  # cents: the largest such stake tried
    cut: bool  # more stakes than MAX_STAKES_TRIED could: larger ones were not tried


def _stakes_favoured(
    rows: list[tuple[Fraction, Fraction | None]], minimum: int, maximum: int, policy: RoundingPolicy
) -> _Favoured | None:
    """The allowed stakes at which the bet returns more than it takes (None: none does). Only
    winnings rounded up can: the return at a stake exceeds the exact one by at most half a
    cent per winning row, which bounds the stakes worth trying."""
    exact = sum(chance * (1 + (odds or 0)) for chance, odds in rows)
    winning = sum(chance for chance, odds in rows if odds)
    if policy is RoundingPolicy.DOWN or exact >= 1 or not winning:
        return None
    bound = min(maximum, int(winning / 2 / (1 - exact)))
    tried = min(bound, minimum + MAX_STAKES_TRIED)
    best = None
    largest = 0
    for stake in range(minimum, tried + 1):
        paid = sum(
            chance * (stake + (round_cents(stake * odds, policy) if odds else 0))
            for chance, odds in rows
        )
        returned = paid / stake
        if returned > 1:
            largest = stake
            if best is None or returned > best[1]:
                best = (stake, returned)
    if best is None:
        return None
    return _Favoured(*best, largest, cut=tried < bound)


def _wins_nothing(game: GameSpec, bet: BetRule, minimum: int, odds: Fraction) -> Doubt:
    shown = format_money(minimum, game.currency)
    return Doubt(
        f"a winning {bet.id} bet of {shown}, its minimum stake, is paid nothing in winnings at"
        f" {ratio_text(odds)}:1 (rounded {_rounded(game)}): its odds and RTP do not hold at"
        " that stake; raise its minimum stake",
        "small_stake_wins_nothing",
        bet=bet.id,
        stake=minimum,
    )


def _favoured_at(game: GameSpec, bet: BetRule, favoured: _Favoured) -> Doubt:
    up_to = "up to at least" if favoured.cut else "up to"
    shown = round_apart(favoured.returned * 100, 100)  # never "100.00% ... above 100%"
    return Doubt(
        f"the {bet.id} bet returns {shown}% of a stake"
        f" of {format_money(favoured.stake, game.currency)} (winnings rounded {_rounded(game)}):"
        f" above 100%, it favours the player at stakes {up_to}"
        f" {format_money(favoured.largest, game.currency)}; raise its minimum stake above that",
        "small_stake_favourable",
        bet=bet.id,
        stake=favoured.stake,
        rtp=favoured.returned * 100,
        rtp_shown=shown,
        largest=favoured.largest,
    )


def _rounded(game: GameSpec) -> str:
    """The game's rounding of wins, as a sentence says it: ``down``, ``half up``."""
    return game.rounding.value.replace("_", " ")
