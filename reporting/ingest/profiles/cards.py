"""Card dialects: how a provider writes a card, turned into the round log's own code.

Each dialect is a table of every spelling it accepts, made once per profile, so a card costs
one dictionary look-up:

* ``rank_suit``: the round log's own codes (``QS``, ``10H``, ``Td``, ``K♣``);
* ``suit_rank``: the suit first, then an optional separator, then the rank: ``S_K``, ``C_10``
  (``separator = "_"``), ``H11``, ``C1`` (``ranks = "numbers"``: 1 = ace, 11 jack, 12 queen,
  13 king), ``SPADE_A`` (suits as words are always accepted: SPADE or SPADES, ...);
* ``index``: a number (or its text, in a given ``radix``) counting through the deck in a
  stated ``order`` (suits in that order, each from ace to king) from ``base`` (0 or 1).

A hand is a list of cards, an object indexed ``"0"``, ``"1"``, ... (``{"0": "S_K"}``), or
one text of codes separated by spaces or commas. A card written as an object of its own
(``{"rank": "Q", "suit": "hearts"}``) is read by the keys ``rank_key`` and ``suit_key`` name,
whatever the dialect: its rank as ``ranks`` says (or a word: ACE, JACK, QUEEN, KING), its
suit as a letter, a word or a symbol.

>>> dialect = CardDialect("suit_rank", separator="_")
>>> [dialect.table[code] for code in ("S_K", "c_10", "SPADE_A")]
['KS', '10C', 'AS']
>>> CardDialect("suit_rank", ranks="numbers").table["H11"]
'JH'
>>> CardDialect("index", order="SHDC", base=1).table["14"]
'AH'
>>> CardDialect(rank_key="rank", suit_key="suit").card({"rank": "queen", "suit": "Hearts"})
'QH'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import msgspec

from reporting.engine.cards import RANKS, SUIT_SYMBOLS, SUITS, Card, ascii_lower, ascii_upper

__all__ = ["DIALECTS", "CardDialect", "CardProblem", "hand_codes"]

DIALECTS = ("rank_suit", "suit_rank", "index")
_SUIT_WORDS = {"S": "SPADE", "H": "HEART", "D": "DIAMOND", "C": "CLUB"}
_RANK_WORDS = {"A": "ACE", "J": "JACK", "Q": "QUEEN", "K": "KING"}
#: A hand holds at most 3 cards; an indexed object or a text of more than this is refused
#: before it is read.
MAX_CARDS_SEEN = 16


class CardProblem(ValueError):
    """A hand or card the dialect cannot read, with the message of its reject."""


def _suit_spellings(suit: str) -> tuple[str, ...]:
    """A suit's letter, its word (SPADE or SPADES) and its symbol."""
    return (suit, _SUIT_WORDS[suit], _SUIT_WORDS[suit] + "S", SUIT_SYMBOLS[suit])


def _rank_spellings(rank: str, ranks: str) -> tuple[str, ...]:
    number = RANKS.index(rank) + 1  # RANKS runs A 2 ... 10 J Q K
    if ranks == "numbers":
        return (str(number),) + ((f"0{number}",) if number < 10 else ())
    spellings = [rank]
    if rank == "10":
        spellings.append("T")
    return tuple(spellings)


@dataclass(frozen=True)
class CardDialect:
    """One profile's way of writing cards (see the module's text)."""

    dialect: str = "rank_suit"
    separator: str = ""
    ranks: str = "letters"  # or "numbers" (suit_rank)
    order: str = "SHDC"  # index: the suits in counting order
    base: int = 0  # index: the number of the first card
    radix: int = 10  # index: the base the numbers are written in, when written as text
    rank_key: str = ""  # a card written as an object: the key of its rank ("" : none is)
    suit_key: str = ""  # and the key of its suit
    table: Mapping[str, str] = field(init=False, repr=False, compare=False)
    #: A card object's "RANK|SUIT", upper case -> its code (empty without the keys).
    objects: Mapping[str, str] = field(init=False, repr=False, compare=False)
    #: index: each card's number -> its code, for a card written as a number (JSON's).
    numbers: Mapping[int, str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "numbers", self._numbers() if self.dialect == "index" else {})
        object.__setattr__(self, "table", self._spellings())
        object.__setattr__(self, "objects", self._object_spellings() if self.rank_key else {})

    def _object_spellings(self) -> dict[str, str]:
        objects = {}
        for suit in SUITS:
            for rank in RANKS:
                rank_spellings = (*_rank_spellings(rank, self.ranks), _RANK_WORDS.get(rank))
                for rank_text in filter(None, rank_spellings):
                    for suit_text in _suit_spellings(suit):
                        objects[f"{rank_text}|{suit_text}"] = Card(rank, suit).code
        return objects

    def _numbers(self) -> dict[int, str]:
        return {
            self.base + suit_index * len(RANKS) + rank_index: Card(rank, suit).code
            for suit_index, suit in enumerate(self.order)
            for rank_index, rank in enumerate(RANKS)
        }

    def _spellings(self) -> dict[str, str]:
        if self.dialect == "index":
            return {_in_radix(number, self.radix): code for number, code in self.numbers.items()}
        table: dict[str, str] = {}
        for suit in SUITS:
            for rank in RANKS:
                code = Card(rank, suit).code
                for rank_text in _rank_spellings(rank, self.ranks):
                    for suit_text in _suit_spellings(suit):
                        if self.dialect == "rank_suit":
                            spelt = f"{rank_text}{self.separator}{suit_text}"
                        else:
                            spelt = f"{suit_text}{self.separator}{rank_text}"
                        table[spelt] = code
                        table[spelt.lower()] = code
                        table[spelt.capitalize()] = code
        return table

    def card(self, value: Any) -> str:
        """The round log's code of one card as the provider wrote it."""
        code = None
        if type(value) is int and self.dialect == "index":
            code = self.numbers.get(value)  # a number is never written out: -1, 5,000 digits
        elif type(value) is dict and self.rank_key:
            return self._card_object(value)
        elif type(value) is str:
            stripped = value.strip().replace("\ufe0f", "")  # a symbol's emoji presentation
            # ASCII letters in either case, no other character folded (as the round log's codes)
            code = self.table.get(ascii_upper(stripped)) or self.table.get(ascii_lower(stripped))
        if code is None:
            raise CardProblem(f"card {_shown(value)} is not a card in the {self._named} dialect")
        return code

    def _card_object(self, value: dict[str, Any]) -> str:
        rank, suit = value.get(self.rank_key), value.get(self.suit_key)
        if type(rank) is int:
            rank = str(rank) if abs(rank) < 100 else None  # no rank (str() refuses 5,000 digits)
        code = None
        if type(rank) is str and type(suit) is str:
            # ASCII letters in either case; no other character folded ("ſ" is no S), and a
            # symbol's emoji presentation (U+FE0F) dropped, as the round log's codes read
            written = f"{rank.strip()}|{suit.strip()}".replace("\ufe0f", "")
            code = self.objects.get(ascii_upper(written))
        if code is None:
            raise CardProblem(
                f"card {_shown(value)} is not a card of a rank at {self.rank_key!r}"
                f" ({'1-13' if self.ranks == 'numbers' else 'A 2-10 J Q K'}) and a suit at"
                f" {self.suit_key!r}"
            )
        return code

    @property
    def _named(self) -> str:
        if self.dialect == "index":
            return f"index (suits {self.order}, first card {self.base})"
        if self.dialect == "suit_rank":
            return (
                f"suit_rank ({'S' + self.separator + ('12' if self.ranks == 'numbers' else 'Q')})"
            )
        return "rank_suit (QS)"


def _in_radix(number: int, radix: int) -> str:
    """``number`` (0 or more) written in ``radix``, lower-case letters past 9."""
    if number < 0:
        raise ValueError(f"{number} is below 0: written in a radix, its digits never end")
    if radix == 10:
        return str(number)
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    text = ""
    while True:
        number, digit = divmod(number, radix)
        text = digits[digit] + text
        if not number:
            return text


def hand_codes(value: Any, dialect: CardDialect) -> list[str]:
    """A hand's cards as the round log's codes, in deal order."""
    if type(value) is list:
        items = value
    elif type(value) is dict:
        items = _indexed(value)
    elif type(value) is str:
        items = value.replace(",", " ").split()
    else:
        raise CardProblem(f"{_shown(value)} is not a list of cards")
    if len(items) > MAX_CARDS_SEEN:
        raise CardProblem(f"a hand of {len(items)} cards")
    table = dialect.table
    codes = []
    for item in items:
        code = table.get(item) if type(item) is str else None
        codes.append(code if code is not None else dialect.card(item))
    return codes


_INDEXES = tuple(tuple(str(index) for index in range(count)) for count in range(4))


def _indexed(value: dict[str, Any]) -> list[Any]:
    """The cards of an object indexed "0", "1", ... in index order; the indexes must run
    from 0 (or 1) without a gap."""
    count = len(value)
    if count < len(_INDEXES):  # the common case: "0", "1" (, "2") in any order
        try:
            return [value[index] for index in _INDEXES[count]]
        except KeyError:
            pass
    if count > MAX_CARDS_SEEN:
        raise CardProblem(f"a hand of {len(value)} cards")
    try:
        numbered = sorted(
            (int(key), card) for key, card in value.items() if key.isascii() and key.isdigit()
        )
    except TypeError:  # two cards at one index (never from an object) or not comparable
        numbered = []
    if len(numbered) != len(value):
        raise CardProblem(f"the hand's keys {_shown(list(value))} are not indexes 0, 1, 2")
    first = numbered[0][0] if numbered else 0
    if [index for index, _ in numbered] != list(range(first, first + len(numbered))) or first > 1:
        raise CardProblem(f"the hand's indexes {[i for i, _ in numbered]} leave a gap")
    return [card for _, card in numbered]


class _Number(str):
    """A JSON number as written, shown bare (``10.0``), as the provider wrote it: quoted, it
    would read as a string the provider did not write."""

    def __repr__(self) -> str:
        return str(self)


def _plain(value: Any, depth: int = 0) -> Any:
    """``value`` with a number decoded exactly (:class:`msgspec.Raw`) as its text, so that a
    message shows ``10.0``, not an object's address (nor ``'10.0'``, a string)."""
    if isinstance(value, msgspec.Raw):
        return _Number(bytes(value).decode("utf-8", "replace"))
    if depth < 3 and type(value) is dict:
        return {key: _plain(item, depth + 1) for key, item in list(value.items())[:8]}
    if depth < 3 and type(value) is list:
        return [_plain(item, depth + 1) for item in value[:8]]
    return value


def _shown(value: Any) -> str:
    try:
        text = repr(_plain(value))
    except ValueError:  # a number past the 4,300 digits Python writes out
        huge = "a number of thousands of digits"
        return huge if type(value) is int else f"a value holding {huge}"
    return text if len(text) <= 40 else text[:40] + "..."
