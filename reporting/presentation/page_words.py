"""What a page's words go through after the catalogue: the hands' names an operator chose, and
the names a page keeps in English, marked as English.

Two rules apply to every translated text of a rule sheet (:class:`PageTranslations`, which
:func:`reporting.presentation.i18n.make_environment` installs in the template environment):

- **The hands' names.** A game's ``words`` (``reporting/config/keys.py``) gives the operator's
  own names of the Player and the Banker in a language. Each form of the catalogue's name in
  that language (its translation of "Player" or "Banker", with the forms the languages table
  derives from it: Danish "Players") becomes the same form of the operator's word, in every
  sentence and bet name of the page: "Coppia Giocatore" reads "Coppia Player".
- **English names on a page in another language.** A bet's name or a term (:data:`TERMS`) that
  a page keeps in English, because its text there is the English page's (Danish "Player Pair",
  Italian "Super 6", Greek "Either Pair", an operator's "Player" on an Italian page), is marked
  ``<span lang="en">`` wherever the page's words hold it, so that a reader's software says it
  in English (with the punctuation that follows it at once: ``_PUNCTUATION``).
  Derived, never listed: a name is English when its text is the English page's.

The marks are HTML, as the catalogue's texts are on a page (the i18n extension takes them as
markup); the workbook, the PDF's running headers and the roads' drawings take the text without
its tags.
"""

from __future__ import annotations

import gettext
import re
from collections.abc import Iterable
from functools import cache

from reporting.config.bets import catalogue_bets
from reporting.config.languages import Language

__all__ = ["HAND_NAMES", "TERMS", "PageTranslations", "name_msgids"]

#: The msgid of each hand's name, by the key a game's ``words`` gives it under.
HAND_NAMES = {"player": "Player", "banker": "Banker"}
#: Names a page may keep in English beside the bets' names: the scoreboard's roads (msgids of
#: reporting/templates/rules/macros.html.j2).
TERMS = ("Bead Road", "Big Road")
_ENGLISH = '<span lang="en">{}</span>'
#: The punctuation that follows an English name at once, marked with it ("Banker." marked
#: whole). WeasyPrint ends a line early after an inline element whose text goes on with
#: punctuation and then more words than the line holds: a Danish paragraph broke after
#: "Banker." and left three quarters of its line empty.
_PUNCTUATION = r"[.,;:!?]*"


@cache
def name_msgids() -> tuple[str, ...]:
    """The msgids of every name a page shows as a name: the catalogue bets' names and
    :data:`TERMS`."""
    names = [bet.name.msgid for bet in catalogue_bets().values() if bet.name.msgid]
    return tuple(dict.fromkeys([*names, *TERMS]))


def _words_pattern(
    words: Iterable[str], genitive: bool = False, then: str = ""
) -> re.Pattern[str] | None:
    """A pattern of whole words (the longest first, so "Big Road" before "Big"); with
    ``genitive``, a word followed by a genitive "s" too (Danish "Players": its name is
    "Player"); ``then``, a pattern the match takes on after the word."""
    ordered = sorted(set(words), key=lambda word: (-len(word), word))
    if not ordered:
        return None
    ending = r"(?=s?(?!\w))" if genitive else r"(?!\w)"
    return re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, ordered)) + ")" + ending + then)


class PageTranslations(gettext.NullTranslations):
    """A language's translations as a page shows them: the operator's names of the hands in
    place of the catalogue's, and every English name marked (see the module's text).

    ``hand_words`` are the game's words in ``language`` (``(("banker", "Banker"), ...)``);
    ``english`` is the English catalogue's translations, which decide what is English.
    """

    def __init__(
        self,
        translations: gettext.NullTranslations,
        english: gettext.NullTranslations,
        language: Language,
        hand_words: tuple[tuple[str, str], ...] = (),
    ):
        super().__init__()
        self._translations = translations
        self._renames: dict[str, str] = {}
        for hand, word in hand_words:
            catalogues = language.hand_forms(translations.gettext(HAND_NAMES[hand]))
            self._renames.update(zip(catalogues, language.hand_forms(word), strict=True))
        self._rename = _words_pattern(self._renames)
        english_names = ()
        if language.code != "en":
            english_names = tuple(
                text
                for msgid in name_msgids()
                if (text := self._renamed(translations.gettext(msgid))) == english.gettext(msgid)
            )
        self._english = _words_pattern(english_names, genitive=True, then=_PUNCTUATION)

    def _renamed(self, text: str) -> str:
        if self._rename is None:
            return text
        return self._rename.sub(lambda match: self._renames[match.group(0)], text)

    def _page(self, text: str) -> str:
        text = self._renamed(text)
        if self._english is None:
            return text
        return self._english.sub(lambda match: _ENGLISH.format(match.group(0)), text)

    def gettext(self, message: str) -> str:
        """The page's text of a message."""
        return self._page(self._translations.gettext(message))

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        """The page's text of a message with a plural, for ``n``."""
        return self._page(self._translations.ngettext(msgid1, msgid2, n))

    def pgettext(self, context: str, message: str) -> str:
        """The page's text of a message in a context."""
        return self._page(self._translations.pgettext(context, message))

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        """The page's text of a message in a context, with a plural, for ``n``."""
        return self._page(self._translations.npgettext(context, msgid1, msgid2, n))
