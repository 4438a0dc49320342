"""The languages rule sheets are written in: one table, one row per language.

Adding a language is one row here and one gettext catalogue,
``reporting/locale/<code>/LC_MESSAGES/messages.po`` (``pybabel init`` makes it from the
template: docs/developers/extending.md); ``tests/presentation/test_i18n.py`` fails while the catalogue is missing or incomplete, and an
unknown code fails loudly wherever it is used, never falling back to another language.

=====  ======  =====  ========  ========  =========================================
code   locale  LCID   genitive  day       why this locale
=====  ======  =====  ========  ========  =========================================
it     it_IT   0410   ""        number    Italy (ADM)
da     da_DK   0406   "s"       period    Denmark
el     el_GR   0408   None      number    Greece
en     en_GB   0809   ""        english   English as published in Europe: day-month-year
                                          dates, and the currency symbol in front
                                          (``€1,000.00``), as en_IE would write it
es     es_ES   0C0A   None      number    Spain (DGOJ)
pt     pt_PT   0816   None      number    Portugal (SRIJ)
ro     ro_RO   0418   None      number    Romania (ONJN)
sv     sv_SE   041D   None      swedish   Sweden (Spelinspektionen)
nl     nl_NL   0413   ""        dutch     the Netherlands (Kansspelautoriteit)
de     de_DE   0407   None      period    Germany; read in Austria and Switzerland
fr     fr_FR   040C   ""        french    France; read in Belgium and Switzerland
=====  ======  =====  ========  ========  =========================================

The genitive column is how the catalogue's sentences bend a hand's name (the Player, the
Banker), which decides whether an operator may put a word of its own in its place (a game's
``words``): ``""`` the name never changes (Italian "del Giocatore", English "the Player’s":
the ending is a word of its own), ``"s"`` it takes a genitive -s (Danish "Players hånd",
"Bankers hånd"; ``'`` after s, x or z), None the sentences decline it and its article by
its gender (Greek "ο Παίκτης", "του Παίκτη", "της Μπάνκας"): no word of the operator's can
stand in for it.

The day column is how a day of the month is written on its own, as "updated on the 5th of
each month" needs it: one of :data:`DAY_FORMATS` (``number`` 5, ``period`` 5., ``english``
5th, ``swedish`` 5:e, ``dutch`` 5e, ``french`` 1er and 5). French writes the day so in a
full date too (``day_format_in_dates``: "1er décembre 2026", which CLDR writes "1 décembre").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["DAY_FORMATS", "LANGUAGES", "SUPPORTED_LANGUAGES", "Language", "language"]


def swedish_ordinal(day: int) -> str:
    """``1:a``, ``2:a``, ``3:e``; ``11:e``, ``12:e``; ``21:a``, ``22:a``, ``31:a``."""
    suffix = ":a" if day % 10 in (1, 2) and day % 100 not in (11, 12) else ":e"
    return f"{day}{suffix}"


def french_ordinal(day: int) -> str:
    """``1er`` for the first of a month, the number alone for every other day (``le 5``)."""
    return "1er" if day == 1 else str(day)


def english_ordinal(day: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``; ``11th`` to ``13th``; ``21st``, ``22nd``..."""
    suffixes = {1: "st", 2: "nd", 3: "rd"}
    suffix = "th" if day % 100 in (11, 12, 13) else suffixes.get(day % 10, "th")
    return f"{day}{suffix}"


#: The ways a day of the month is written on its own, by the name a language's row gives.
DAY_FORMATS: dict[str, Callable[[int], str]] = {
    "number": str,  # il 5, στις 5
    "period": "{}.".format,  # den 5. i hver måned
    "english": english_ordinal,  # on the 5th of each month
    "swedish": swedish_ordinal,  # den 5:e varje månad
    "dutch": "{}e".format,  # op de 5e van elke maand
    "french": french_ordinal,  # le 1er, le 5 de chaque mois
}


@dataclass(frozen=True, slots=True)
class Language:
    """One language of the rule sheets."""

    code: str  # ISO 639-1, the catalogue's folder name
    locale: str  # the CLDR locale numbers, money and dates are formatted in
    excel_lcid: int  # Windows locale id: Excel's [$-LCID] tag (month names, currency place)
    #: How a hand's name bends in the catalogue's sentences (see the table above): the
    #: ending of its genitive, "" for none; None when the sentences decline it.
    hand_genitive: str | None
    day_format: str  # a name of DAY_FORMATS: how a day of the month is written on its own
    #: Whether a full date writes its day in the day format too, where CLDR's pattern has
    #: the bare number (French "1er décembre 2026"; Danish "5. december" is CLDR's own).
    day_format_in_dates: bool = False

    def __post_init__(self) -> None:
        if self.day_format not in DAY_FORMATS:
            raise ValueError(
                f"language {self.code}: no day format {self.day_format!r}"
                f" (have: {', '.join(DAY_FORMATS)})"
            )

    def day_of_month(self, day: int) -> str:
        """A day of the month on its own, in the row's day format.

        >>> [language(code).day_of_month(5) for code in ("it", "da", "el", "en")]
        ['5', '5.', '5', '5th']
        """
        if not 1 <= day <= 31:
            raise ValueError(f"{day} is not a day of a month")
        return DAY_FORMATS[self.day_format](day)

    def hand_forms(self, word: str) -> tuple[str, ...]:
        """Every form of a hand's name ``word`` the catalogue's sentences use, the name first.

        >>> language("da").hand_forms("Player"), language("da").hand_forms("Spillers")
        (('Player', 'Players'), ('Spillers', "Spillers'"))
        >>> language("it").hand_forms("Giocatore")
        ('Giocatore',)
        """
        if self.hand_genitive is None:
            raise ValueError(f"the {self.code} pages decline the hands' names: no forms to derive")
        if not self.hand_genitive:
            return (word,)
        ending = "'" if word[-1:].lower() in ("s", "x", "z") else self.hand_genitive
        return (word, word + ending)


#: Every language with a catalogue, in the order the CLI lists them.
LANGUAGES: tuple[Language, ...] = (
    Language("it", "it_IT", 0x0410, hand_genitive="", day_format="number"),
    Language("da", "da_DK", 0x0406, hand_genitive="s", day_format="period"),
    Language("el", "el_GR", 0x0408, hand_genitive=None, day_format="number"),
    Language("en", "en_GB", 0x0809, hand_genitive="", day_format="english"),
    Language("es", "es_ES", 0x0C0A, hand_genitive=None, day_format="number"),
    Language("pt", "pt_PT", 0x0816, hand_genitive=None, day_format="number"),
    Language("ro", "ro_RO", 0x0418, hand_genitive=None, day_format="number"),
    Language("sv", "sv_SE", 0x041D, hand_genitive=None, day_format="swedish"),
    Language("nl", "nl_NL", 0x0413, hand_genitive="", day_format="dutch"),
    Language("de", "de_DE", 0x0407, hand_genitive=None, day_format="period"),
    Language(
        "fr", "fr_FR", 0x040C, hand_genitive="", day_format="french", day_format_in_dates=True
    ),
)

#: The codes of :data:`LANGUAGES`.
SUPPORTED_LANGUAGES: tuple[str, ...] = tuple(entry.code for entry in LANGUAGES)

_BY_CODE = {entry.code: entry for entry in LANGUAGES}


def language(code: str) -> Language:
    """The language of a code; ValueError naming the known ones for any other."""
    try:
        return _BY_CODE[code]
    except KeyError:
        raise ValueError(
            f"no catalogue for language {code!r} (have: {', '.join(SUPPORTED_LANGUAGES)})"
        ) from None
