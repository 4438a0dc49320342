"""The words of every bet type: its name and when it wins, one table keyed by bet type.

The rule-sheet macros (``templates/rules/macros.html.j2``: ``bet_name``, ``bet_wins``) look a
bet up here through :func:`bet_words`, registered in every template environment by
:func:`reporting.presentation.i18n.make_environment`, and translate the msgids where they are
shown; the page and the workbook both print them through those macros. A bet type missing
from the table stops the render with an error naming it: a sheet never prints a raw id.
``tests/presentation/test_i18n.py`` holds the table complete (every
:class:`~reporting.engine.bets.BetType`, translated in every language).
"""

from __future__ import annotations

from dataclasses import dataclass

from reporting.engine.bets import BetType

__all__ = ["BET_WORDS", "BetWords", "bet_words"]


def _(message: str) -> str:
    """Mark a msgid for extraction (``make i18n``); the macros translate it where it is shown."""
    return message


def _plural(singular: str, plural: str) -> tuple[str, str]:
    """Mark a singular and plural msgid pair for extraction (babel.cfg: ``_plural:1,2``)."""
    return singular, plural


@dataclass(frozen=True, slots=True)
class BetWords:
    """A bet type's words, as msgids.

    ``wins`` says when the bet wins. A card-count bet's sentence has a plural,
    ``wins_plural``, counted by the number of cards dealt on which it wins, with that number
    (or those numbers) as ``%(cards)s``.
    """

    name: str
    wins: str
    wins_plural: str | None = None


#: Every bet type's words.
BET_WORDS: dict[BetType, BetWords] = {
    BetType.PLAYER: BetWords(_("Player"), _("The Player’s hand has the higher value.")),
    BetType.BANKER: BetWords(_("Banker"), _("The Banker’s hand has the higher value.")),
    BetType.TIE: BetWords(_("Tie"), _("Both hands have the same value.")),
    BetType.PLAYER_PAIR: BetWords(
        _("Player Pair"),
        _("The Player’s first two cards are of the same rank (K and K: yes; K and Q: no)."),
    ),
    BetType.BANKER_PAIR: BetWords(
        _("Banker Pair"),
        _("The Banker’s first two cards are of the same rank (K and K: yes; K and Q: no)."),
    ),
    BetType.EITHER_PAIR: BetWords(
        _("Either Pair"),
        _("The first two cards of the Player, of the Banker, or of both, are of the same rank."),
    ),
    BetType.PERFECT_PAIR: BetWords(
        _("Perfect Pair"),
        _(
            "The first two cards of the Player, of the Banker, or of both, are of the same rank"
            " and the same suit."
        ),
    ),
    BetType.SMALL: BetWords(
        _("Small"),
        *_plural(
            "The round ends with %(cards)s card dealt in all.",
            "The round ends with %(cards)s cards dealt in all.",
        ),
    ),
    BetType.BIG: BetWords(
        _("Big"),
        *_plural(
            "The round ends with %(cards)s card dealt in all.",
            "The round ends with %(cards)s cards dealt in all.",
        ),
    ),
    BetType.PLAYER_BONUS: BetWords(
        _("Player Bonus"),
        _(
            "The Player’s hand wins; what it pays depends on the margin and on whether it wins"
            " with a natural (see the bonus table)."
        ),
    ),
    BetType.BANKER_BONUS: BetWords(
        _("Banker Bonus"),
        _(
            "The Banker’s hand wins; what it pays depends on the margin and on whether it wins"
            " with a natural (see the bonus table)."
        ),
    ),
}


def bet_words(bet: BetType | str) -> BetWords:
    """The words of a bet type; an error naming the bet for one the table does not hold."""
    try:
        return BET_WORDS[BetType(bet)]
    except (KeyError, ValueError):
        raise KeyError(
            f"no words for bet type {str(bet)!r}: add its name and when it wins to"
            " reporting.presentation.bet_words.BET_WORDS"
        ) from None
