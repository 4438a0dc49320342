"""What a game's regulator asks of it, checked against the configuration and the exact theory.

Each warning is worded here, once: the disclosure (:mod:`reporting.figures.disclosure`), the
rule sheets and the monthly job all report these same sentences.
"""

from __future__ import annotations

from decimal import Decimal

from reporting.config.regulators import (
    DEFAULT_UPDATE_DAY,
    REQUIRABLE_KEYS,
    Regulator,
    load_regulators,
)
from reporting.config.rtp import bet_warnings
from reporting.engine.games import GameSpec
from reporting.engine.money import round_apart
from reporting.engine.theory import ShoeOdds
from reporting.records import Doubt

__all__ = [
    "configuration_warnings",
    "declared_rtp_unsupported",
    "publishes_disclosure",
    "regulator_of",
    "update_day",
]


def regulator_of(game: GameSpec) -> Regulator | None:
    """The regulator a game names, or None (the configuration has checked that it exists)."""
    return None if game.regulator is None else load_regulators()[game.regulator]


def publishes_disclosure(game: GameSpec) -> bool:
    """Whether the game's regulator has it publish the disclosure block (and its own page)."""
    regulator = regulator_of(game)
    return regulator is not None and regulator.has_disclosure_page


def update_day(game: GameSpec) -> int:
    """The day of the month the game's previous-month figure is refreshed."""
    regulator = regulator_of(game)
    if regulator is None or regulator.update_day is None:
        return DEFAULT_UPDATE_DAY
    return regulator.update_day


def declared_rtp_unsupported(game: GameSpec, theory: ShoeOdds) -> bool:
    """Whether the game declares an RTP above the theoretical RTP of every bet it offers: a
    figure no play of these bets can return, whatever certificate it cites
    (``declared_rtp_reference`` cites the certificate of a figure the theory bears out)."""
    declared, best = game.declared_rtp, theory.best_rtp * 100
    if declared is None:
        return False
    return declared > Decimal(best.numerator) / Decimal(best.denominator)


def configuration_warnings(game: GameSpec, theory: ShoeOdds) -> list[Doubt]:
    """Warnings from the configuration alone: keys the regulator requires that are missing,
    and a declared RTP above every bet's theoretical RTP or below the market's minimum; and a bet
    whose pay table returns more than 100%."""
    regulator = regulator_of(game)
    warnings = bet_warnings(game, theory)
    for key in regulator.required if regulator is not None else ():
        if getattr(game, key) in (None, ""):
            what = REQUIRABLE_KEYS[key].format(regulator=regulator.id)
            warnings.append(
                Doubt(
                    f"no {what} is configured for this {regulator.id} game", "missing_key", key=key
                )
            )
    declared = game.declared_rtp
    if declared is None:
        return warnings
    best = theory.best_rtp * 100
    if declared_rtp_unsupported(game, theory):
        cited = game.declared_rtp_reference
        best_shown = round_apart(best, declared)  # never "98.95% ... (best: 98.95%)"
        warnings.append(
            Doubt(
                f"declared RTP {declared:.2f}% is above the theoretical RTP of every bet offered"
                f" (best: {best_shown}%)"
                + (
                    f": the certificate cited ({cited}) cannot make it true for these bets"
                    if cited
                    else ""
                ),
                "declared_above_theory",
                declared=declared,
                best=best,
                best_shown=best_shown,
                reference=cited,
            )
        )
    if (
        regulator is not None
        and regulator.minimum_rtp is not None
        and declared < regulator.minimum_rtp
    ):
        warnings.append(
            Doubt(
                f"declared RTP {declared:.2f}% is below the {regulator.market} minimum of"
                f" {regulator.minimum_rtp:.0f}%",
                "declared_below_minimum",
                declared=declared,
                minimum=regulator.minimum_rtp,
            )
        )
    return warnings
