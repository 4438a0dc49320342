"""Bets whose pay table returns more than they take: worded once, computed by the engine.

A pay-table override can make a bet favour the player (``tie = "10"`` on eight decks returns
about 104.7% of stakes). The configuration stays valid (an operator may mean it, for a
promotion), but the tool never lets such a bet reach a rule sheet or a disclosure without
saying so: :func:`favourable_bet_warnings` is part of every game's configuration warnings.
"""

from __future__ import annotations

from reporting.engine.games import GameSpec
from reporting.engine.money import round_fraction
from reporting.engine.theory import ShoeOdds, game_odds
from reporting.records import Doubt

__all__ = ["favourable_bet_warnings"]


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
