"""The languages rule sheets are written in: one table, one row per language.

Adding a language is one row here and one gettext catalogue,
``reporting/locale/<code>/LC_MESSAGES/messages.po`` (``make i18n`` creates it from the
template); ``tests/presentation/test_i18n.py`` fails while the catalogue is missing or incomplete, and an
unknown code fails loudly wherever it is used, never falling back to another language.

=====  ======  =====  ==========================================================
code   locale  LCID   why this locale
=====  ======  =====  ==========================================================
it     it_IT   0410   Italy (ADM)
da     da_DK   0406   Denmark
el     el_GR   0408   Greece
en     en_GB   0809   English as published in Europe: day-month-year dates, and the
                      currency symbol in front (``€1,000.00``), as en_IE would write it
=====  ======  =====  ==========================================================
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["LANGUAGES", "SUPPORTED_LANGUAGES", "Language", "language"]


@dataclass(frozen=True, slots=True)
class Language:
    """One language of the rule sheets."""

    code: str  # ISO 639-1, the catalogue's folder name
    locale: str  # the CLDR locale numbers, money and dates are formatted in
    excel_lcid: int  # Windows locale id: Excel's [$-LCID] tag (month names, currency place)


#: Every language with a catalogue, in the order the CLI lists them.
LANGUAGES: tuple[Language, ...] = (
    Language("it", "it_IT", 0x0410),
    Language("da", "da_DK", 0x0406),
    Language("el", "el_GR", 0x0408),
    Language("en", "en_GB", 0x0809),
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
