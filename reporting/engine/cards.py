"""Playing cards: parsing every spelling of the round log into one canonical form.

Canonical codes are rank then suit letter: ``AS``, ``10H``, ``KD``. The log may also write
``T`` for ten, the suit as a symbol (``K♣``) and any letter case (``10h``, ``td``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

__all__ = [
    "RANKS",
    "SUITS",
    "SUIT_SYMBOLS",
    "Card",
    "CardError",
    "ascii_lower",
    "ascii_upper",
    "parse_card",
    "parse_cards",
]

#: Ranks in canonical spelling, ace low.
RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
#: Suits in canonical spelling: spades, hearts, diamonds, clubs.
SUITS: tuple[str, ...] = ("S", "H", "D", "C")

_POINTS = {rank: min(position + 1, 10) % 10 for position, rank in enumerate(RANKS)}
_RANK_SPELLINGS = {rank: rank for rank in RANKS} | {"T": "10"}
#: Each suit's symbol, as pages print a card (``9♥``) and logs may spell it.
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_SUIT_SPELLINGS = {suit: suit for suit in SUITS} | {
    symbol: suit for suit, symbol in SUIT_SYMBOLS.items()
}
# Variation selector 16 sometimes follows a suit symbol when it is typed as an emoji.
_EMOJI_SELECTOR = "\ufe0f"
# "Any case" means ASCII case: str.upper() would also turn look-alikes such as the long s
# "\u017f" into "S" and accept codes the round log does not allow.
_ASCII_UPPER = str.maketrans("abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ")
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def ascii_upper(text: str) -> str:
    """``text`` with its ASCII letters in upper case and every other character as it is: a
    card's "any case" (``str.upper`` turns the long s into S, and ``str.lower`` the Kelvin
    sign into k, making cards of look-alikes).

    >>> ascii_upper("qs"), ascii_upper("J\u017f")
    ('QS', 'Jſ')
    """
    return text.translate(_ASCII_UPPER)


def ascii_lower(text: str) -> str:
    """``text`` with its ASCII letters in lower case, every other character as it is.

    >>> ascii_lower("QS"), ascii_lower("\u212aH")
    ('qs', 'Kh')
    """
    return text.translate(_ASCII_LOWER)


class CardError(ValueError):
    """A card code that is not rank then suit."""


@dataclass(frozen=True, slots=True)
class Card:
    """One playing card. Compare and hash by rank and suit."""

    rank: str
    suit: str
    #: Baccarat points: ace 1, two to nine face value, ten and court cards 0.
    points: int = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "points", _POINTS[self.rank])

    @property
    def code(self) -> str:
        """The canonical code, e.g. ``10H``."""
        return self.rank + self.suit

    def __str__(self) -> str:
        return self.code


@lru_cache(maxsize=4096)
def parse_card(text: str) -> Card:
    """Parse one card code in any accepted spelling.

    >>> parse_card("10h"), parse_card("Td").code, parse_card("K♣").code
    (Card(rank='10', suit='H'), '10D', 'KC')
    >>> parse_card("1S")
    Traceback (most recent call last):
    ...
    reporting.engine.cards.CardError: bad card code '1S': rank must be one of A 2-9 10 T J Q K
    """
    if not isinstance(text, str):
        raise CardError(f"bad card code {text!r}: expected a string such as 'AS' or '10H'")
    cleaned = ascii_upper(text.strip().replace(_EMOJI_SELECTOR, ""))
    if len(cleaned) < 2:
        raise CardError(f"bad card code {text!r}: expected rank then suit, such as 'AS' or '10H'")
    rank_part, suit_part = cleaned[:-1], cleaned[-1]
    suit = _SUIT_SPELLINGS.get(suit_part)
    if suit is None:
        raise CardError(f"bad card code {text!r}: suit must be one of S H D C or ♠ ♥ ♦ ♣")
    rank = _RANK_SPELLINGS.get(rank_part)
    if rank is None:
        raise CardError(f"bad card code {text!r}: rank must be one of A 2-9 10 T J Q K")
    return Card(rank, suit)


def parse_cards(codes: str | list[str] | tuple[str, ...]) -> tuple[Card, ...]:
    """Parse a list of codes, or one space-separated string of them (the CSV form)."""
    if isinstance(codes, str):
        codes = codes.split()
    return tuple(map(parse_card, codes))
