"""Languages of the rule sheets: gettext catalogues and the locale-aware formatting filters.

One gettext catalogue per language, ``reporting/locale/<lang>/LC_MESSAGES/messages.po``, is
read and compiled in memory when first used (no ``.mo`` file is committed or installed). The
source language is English: an entry whose translation is empty or fuzzy falls back to the
English ``msgid``, and so does a plural entry with any empty form. ``tests/presentation/test_i18n.py``
fails for every such entry, so a published language is always complete.

Each language is written in one locale, which decides how numbers, money and dates look; the
languages and their locales are one table, :data:`reporting.config.languages.LANGUAGES`.

Every formatter the templates use is registered by :func:`make_environment`, the one place
where filters are added; the renderers never format a number themselves.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, time
from decimal import Decimal
from fractions import Fraction
from functools import cache, partial
from pathlib import Path
from types import CodeType
from typing import Any

from babel import Locale
from babel.dates import format_date, format_skeleton, format_time
from babel.lists import format_list
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_currency, format_decimal, get_group_symbol, parse_pattern
from babel.support import Translations
from jinja2 import BytecodeCache, Environment, FileSystemLoader, StrictUndefined
from jinja2.bccache import Bucket
from markupsafe import Markup, escape
from pyphen import Pyphen

from reporting.config.languages import LANGUAGES, Language
from reporting.config.languages import language as language_of
from reporting.engine.cards import SUIT_SYMBOLS
from reporting.engine.money import cents_to_decimal, exact_decimal, round_fraction
from reporting.errors import visible
from reporting.presentation.bet_words import catalogue_bet, own_words
from reporting.presentation.page_words import PageTranslations
from reporting.presentation.roads import (
    BeadRoad,
    BigRoad,
    RoadLabels,
    WinnerLetters,
    bead_road_svg,
    big_road_svg,
)

__all__ = [
    "PERCENT_PLACES",
    "LOCALES",
    "LOCALE_DIR",
    "TEMPLATE_DIR",
    "Formatter",
    "catalogue_path",
    "compile_translations",
    "css_string",
    "SOFT_HYPHEN",
    "hyphenate",
    "plain_text",
    "load_catalog",
    "load_translations",
    "make_environment",
    "page_translations",
    "road_svg",
]

#: Decimals a percentage is shown with, everywhere: the pages, the report, the workbook
#: (the disclosures' spec: "shown with 2 decimals, rounded half up").
PERCENT_PLACES = 2

#: The locale each language's sheets are formatted in (from the languages table).
LOCALES: dict[str, str] = {entry.code: entry.locale for entry in LANGUAGES}
_LANGUAGE_OF_LOCALE = {entry.locale: entry for entry in LANGUAGES}
#: Where the gettext catalogues live (``<lang>/LC_MESSAGES/messages.po`` and ``messages.pot``).
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
#: The jinja2 templates of the rule sheets and the audit report (one set for every language
#: and format), in the package: ``reporting/templates/``.
TEMPLATE_DIR = Path(__file__).resolve().parent.parent / "templates"
DOMAIN = "messages"
#: The no-break space between a currency's letters and its figure (``DKK 50.00``).
NBSP = "\xa0"


def _check_language(code: str) -> None:
    language_of(code)  # ValueError for a language without a catalogue


def catalogue_path(language: str) -> Path:
    """The ``.po`` file of a language."""
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def load_catalog(language: str) -> Catalog:
    """Read a language's ``.po`` catalogue as it is on disk (fuzzy and empty entries included)."""
    _check_language(language)
    with catalogue_path(language).open("rb") as handle:
        return read_po(handle, locale=LOCALES[language], domain=DOMAIN)


@cache
def load_translations(language: str) -> Translations:
    """A language's translations, compiled in memory from its ``.po`` file."""
    return compile_translations(load_catalog(language))


@cache
def page_translations(
    language: str, hand_words: tuple[tuple[str, str], ...] = ()
) -> PageTranslations:
    """A language's translations as its pages show them: with the operator's names of the
    hands (a game's ``words`` in the language) and the English names marked
    (:mod:`reporting.presentation.page_words`)."""
    return PageTranslations(
        load_translations(language), load_translations("en"), language_of(language), hand_words
    )


def compile_translations(catalog: Catalog) -> Translations:
    """Compile a catalogue in memory, leaving out what is not fit to show.

    Untranslated and fuzzy entries, and plural entries with any empty form, are dropped, so
    gettext answers with the English source text for them (an empty plural form would
    otherwise print as nothing for the counts that use it).
    """
    usable = Catalog(locale=catalog.locale, domain=catalog.domain)
    usable.mime_headers = catalog.mime_headers
    for message in catalog:
        if not message.id:
            continue  # the header
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if message.fuzzy or not strings or not all(strings):
            continue
        usable.add(message.id, message.string, context=message.context)
    buffer = io.BytesIO()
    write_mo(buffer, usable, use_fuzzy=False)
    buffer.seek(0)
    return Translations(buffer, domain=DOMAIN)


# --- formatting ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Formatter:
    """Locale-aware formatting of the view model's values: money, percentages, odds, dates.

    Every value arrives exact (integer cents, ``Decimal``, ``Fraction``, ``date``); nothing
    here accepts a float. Rounding, where a figure is shown with fewer decimals than it has,
    is half up (:func:`reporting.engine.money.round_fraction`).
    """

    locale: str

    @property
    def _locale(self) -> Locale:
        return Locale.parse(self.locale)

    def money(self, cents: int, currency: str) -> str:
        """Integer cents in the currency's locale format (``1.000,00 €``, ``€1,000.00``).

        Where the locale shows a currency by its letters (an ISO code such as ``DKK``), a
        no-break space parts them from the figure in every language: Babel's English pattern
        would write ``DKK50.00``.

        >>> Formatter("en_GB").money(5000, "DKK")
        'DKK\xa050.00'
        >>> Formatter("en_GB").money(-5000, "CHF"), Formatter("it_IT").money(5000, "DKK")
        ('-CHF\xa050.00', '50,00\xa0DKK')
        >>> Formatter("en_GB").money(5000, "EUR"), Formatter("da_DK").money(5000, "DKK")
        ('€50.00', '50,00\xa0kr.')
        """
        if isinstance(cents, bool) or not isinstance(cents, int):
            raise TypeError(f"money is formatted from integer cents, got {cents!r}")
        text = format_currency(cents_to_decimal(cents), currency, locale=self.locale)
        symbol = self._locale.currency_symbols.get(currency, currency)
        if symbol.isalpha():
            code = re.escape(symbol)
            text = re.sub(rf"(?<={code})(?=\d)|(?<=\d)(?={code})", NBSP, text)
        return text

    def percent(self, points: Decimal | Fraction | int, places: int | None = PERCENT_PLACES) -> str:
        """A percentage given in points (``98.94`` for 98.94%), exactly 2 decimals, half up.

        The locale's own percent pattern decides the sign's place and spacing; only the
        number of decimals is forced (Babel would otherwise round to a whole percent).
        ``places=None`` shows the value as exactly as it is, up to 2 decimals (a 5%
        commission rather than 5.00%).
        """
        exact = _exact_fraction(points)
        if places is None:
            shown = exact_decimal(exact)
            if shown is None or -shown.as_tuple().exponent > 2:
                shown = round_fraction(exact, 2)
            places = max(0, -shown.as_tuple().exponent)
        rounded = round_fraction(exact, places)
        pattern = parse_pattern(self._locale.percent_formats[None].pattern)
        pattern.frac_prec = (places, places)
        return pattern.apply(rounded / 100, self._locale)

    def percent_as_written(self, points: Decimal) -> str:
        """A percentage given in points as a decimal of its own places, every one shown: a
        figure a message compares with a bound, rounded apart from it
        (:func:`~reporting.engine.money.round_apart`: 100.0004%, not 100.00%)."""
        return self.percent(points, max(0, -points.as_tuple().exponent))

    def decimal(self, value: Decimal | Fraction | int, places: int | None = None) -> str:
        """A plain number. Fractions are shown exactly when they can be, else to 4 decimals
        (or to ``places`` decimals, half up, when given)."""
        exact = _exact_fraction(value)
        shown = exact_decimal(exact) if places is None else round_fraction(exact, places)
        if shown is None:
            shown = round_fraction(exact, 4)
        return format_decimal(shown, locale=self.locale, decimal_quantization=False)

    def odds(self, value: Fraction | int) -> str:
        """Odds "to 1", as a pay table writes them: ``8:1``, ``0,95:1``."""
        return f"{self.decimal(value)}:1"

    def long_date(self, day: date) -> str:
        """A full date (``5 febbraio 2026``; Greek puts the month in the genitive, as a date
        needs: ``5 Φεβρουαρίου 2026``). Where the language's row says so, the day is written
        in its day format (French ``1er décembre 2026``, where CLDR has the bare number).

        >>> Formatter("fr_FR").long_date(date(2026, 12, 1)), Formatter("fr_FR").long_date(date(2026, 12, 5))
        ('1er décembre 2026', '5 décembre 2026')
        """
        pattern = self._locale.date_formats["long"].pattern
        if self._row.day_format_in_dates:
            day_text = f"'{self._row.day_of_month(day.day)}'"
            pattern = re.sub(r"(?<![d'])d(?!d)", day_text, pattern, count=1)
        return format_date(day, pattern, locale=self.locale)

    def month(self, month: tuple[int, int] | date) -> str:
        """A month on its own, as a heading or a table cell: CLDR's ``yMMMM`` skeleton in the
        locale (Greek nominative ``Φεβρουάριος 2026``, Spanish ``febrero de 2026``).

        >>> [Formatter(locale).month((2026, 2)) for locale in ("el_GR", "es_ES", "de_DE")]
        ['Φεβρουάριος 2026', 'febrero de 2026', 'Februar 2026']
        """
        day = month if isinstance(month, date) else date(month[0], month[1], 1)
        return format_skeleton("yMMMM", day, locale=self.locale)

    def time(self, moment: time) -> str:
        """A time of day, short form (``00:01``, Danish ``00.01``)."""
        pattern = Locale.parse(self.locale).time_formats["short"].pattern
        if "h" in pattern or "a" in pattern:
            pattern = "HH:mm"  # rule sheets use the 24-hour clock (Greek's short form is 12-hour)
        return format_time(moment, pattern, locale=self.locale)

    def day_of_month(self, day: int) -> str:
        """A day of the month on its own, as "on the 5th of each month" needs it, in the day
        format of the locale's row of the languages table: English ``5th``, Danish ``5.``
        (``den 5. i hver måned``), the number itself in Italian and Greek (``il 5``, ``στις 5``).

        >>> [Formatter(locale).day_of_month(day) for locale, day in
        ...  (("en_GB", 1), ("en_GB", 12), ("en_GB", 22), ("da_DK", 5), ("it_IT", 5))]
        ['1st', '12th', '22nd', '5.', '5']
        """
        return self._row.day_of_month(day)

    @property
    def _row(self) -> Language:
        """The locale's row of the languages table."""
        try:
            return _LANGUAGE_OF_LOCALE[self.locale]
        except KeyError:
            raise ValueError(f"no language of the table is written in {self.locale}") from None

    def join_and(self, items: list[str]) -> str:
        """``A, B and C`` in the locale's words."""
        return self._joined(items, "standard")

    def join_or(self, items: list[str]) -> str:
        """``A, B or C`` in the locale's words."""
        return self._joined(items, "or")

    def _joined(self, items: list[str], style: str) -> str:
        """The items in a list of the locale's words; markup among them (a bet's name marked
        as English) stays markup, the other items escaped (the locale's connecting words are
        letters and punctuation)."""
        if any(isinstance(item, Markup) for item in items):
            escaped = [str(escape(item)) for item in items]
            return Markup(format_list(escaped, style=style, locale=self.locale))
        return format_list([str(item) for item in items], style=style, locale=self.locale)

    def filters(self) -> dict[str, Callable[..., str]]:
        """The jinja2 filters, by name."""
        return {
            "money": self.money,
            "percent": self.percent,
            "percent_as_written": self.percent_as_written,
            "decimal": self.decimal,
            "odds": self.odds,
            "long_date": self.long_date,
            "month": self.month,
            "time": self.time,
            "day_of_month": self.day_of_month,
            "join_and": self.join_and,
            "join_or": self.join_or,
        }


def _exact_fraction(value: Decimal | Fraction | int) -> Fraction:
    if isinstance(value, float | bool) or not isinstance(value, Decimal | Fraction | int):
        raise TypeError(f"numbers are formatted from exact values, got {value!r}")
    return Fraction(value)


# --- CSS strings (page header and footer text of the PDF) ----------------------------------------

_CSS_SAFE = re.compile(r"[A-Za-z0-9 ,.:;()\-]")


#: The shortest word :func:`hyphenate` marks: shorter words fit a phone's table column whole.
HYPHENATE_FROM = 10
_TAG_OR_TEXT = re.compile(r"(<[^>]*>)")
_LONG_WORD = re.compile(rf"[^\W\d_]{{{HYPHENATE_FROM},}}")
SOFT_HYPHEN = "\u00ad"


@cache
def _hyphenator(locale: str) -> Pyphen:
    return Pyphen(lang=locale, left=3, right=3)


def hyphenate(language: str, html: str) -> Markup:
    """Mark where the long words of an HTML fragment may break, with soft hyphens (U+00AD)
    from the language's hyphenation patterns (pyphen's, which WeasyPrint uses too).

    A browser breaks a word there only when it must, and then shows a hyphen: a Danish
    compound in a phone's table column breaks as ``Minimums-/indsats``, never as
    ``Minimumsi/ndsats``, even in a browser without a hyphenation dictionary for the page's
    language (``hyphens: auto`` relies on one). Only words of letters are marked: ids,
    figures and tags are left as they are.

    >>> str(hyphenate("da", '<th class="num">Minimumsindsats</th>')).replace(SOFT_HYPHEN, "|")
    '<th class="num">Mini|mums|ind|sats</th>'
    >>> str(hyphenate("en", "SPIL-0000-EKSEMPEL")) == "SPIL-0000-EKSEMPEL"
    True
    """
    words = _hyphenator(LOCALES[language])
    parts = _TAG_OR_TEXT.split(str(html))
    for index in range(0, len(parts), 2):  # the text between the tags
        parts[index] = _LONG_WORD.sub(
            lambda word: words.inserted(word.group(), hyphen=SOFT_HYPHEN), parts[index]
        )
    return Markup("".join(parts))


#: A token of a sentence that is an id, a time or a figure, not a word: letters and digits
#: joined by hyphens, colons, dots or underscores, holding a digit or a hyphen.
_ID_TOKEN = re.compile(r"(?<![\w.:-])(?=[\w.:-]*[\d-])\w+(?:[-.:]\w+)+(?![\w-])")


def before_its_figure(name: Markup | str) -> Markup:
    """A bet's name (Markup, or text, which is escaped) to stand before its figure, on one
    line with it: its spaces before a number or a bracket and the space after it are no-break
    spaces. "Dragon 7 92,39%" then never breaks into a line that starts "7 92,39%", read as a
    figure of its own, nor "Banco (EZ)" into "Banco" and "(EZ) 98,98%".

    >>> str(before_its_figure(Markup('<span lang="en">Dragon 7</span>')))
    '<span lang="en">Dragon\xa07</span>\xa0'
    >>> str(before_its_figure("Banco (EZ)"))
    'Banco\xa0(EZ)\xa0'
    """
    return Markup(_BEFORE_A_NUMBER_OR_BRACKET.sub("\xa0", str(escape(name))) + "\xa0")


#: A space before a digit or a bracket, outside a tag (a tag's attributes hold no such space
#: here).
_BEFORE_A_NUMBER_OR_BRACKET = re.compile(r" (?=[\d(])")


def ids_whole(text: str) -> Markup:
    """A sentence of plain text (a finding's message) with every id, time and figure in it
    kept whole on a narrow screen (``<span class="id">``), its other words free to wrap.

    >>> str(ids_whole("round R-4 of live-baccarat-it at 2026-10-03T18:40:02Z <b>"))
    'round <span class="id">R-4</span> of <span class="id">live-baccarat-it</span> at <span class="id">2026-10-03T18:40:02Z</span> &lt;b&gt;'

    The parts of a file's path are no ids: a long file name may wrap on a phone. Nor is a
    run longer than :data:`LONGEST_WHOLE` kept whole (a hostile log's id): it may break
    anywhere, as :func:`breakable` prints it.

    >>> str(ids_whole("line 4 of /srv/inbox-2026/round-log-2026-10.jsonl:4"))
    'line 4 of /srv/inbox-2026/round-log-2026-10.jsonl:4'
    """
    escaped = str(escape(visible(text)))

    def marked(match: re.Match[str]) -> str:
        if match.start() > 0 and escaped[match.start() - 1] == "/":
            return match[0]  # in a path
        if len(match[0]) > LONGEST_WHOLE:
            return _BREAKS_ANYWHERE.format(Markup(match[0]))
        return f'<span class="id">{match[0]}</span>'

    return Markup(_ID_TOKEN.sub(marked, escaped))


#: Characters of a figure that fits a column of figures on a phone's screen; a longer one (a
#: hostile log's totals) wraps there after its group separators rather than run on.
FIGURE_FITS = 20


def figure_breaks(figure: str, group: str = ",") -> Markup:
    """A figure as formatted, with a break opportunity (``<wbr>``) after each of its digit
    ``group`` separators (the locale's: never after a decimal point, nor between a currency's
    letters and the figure). In a ``<span class="figure">``, which a printed page wraps there
    only when its column cannot hold it whole (three amounts of a big month in kroner beside
    the counts: "DKK 500,000,000.00"); a figure of more than :data:`FIGURE_FITS` characters
    is a ``<span class="figure-wide">``, which a screen wraps too.

    >>> str(figure_breaks("€128,549.40"))
    '<span class="figure">€128,<wbr>549.40</span>'
    >>> str(figure_breaks("€120,000,000,000,060,522.75"))
    '<span class="figure-wide">€120,<wbr>000,<wbr>000,<wbr>000,<wbr>060,<wbr>522.75</span>'
    >>> str(figure_breaks("DKK\xa0120,000,000,000,060.750"))
    '<span class="figure-wide">DKK\xa0120,<wbr>000,<wbr>000,<wbr>000,<wbr>060.750</span>'
    >>> str(figure_breaks("120.000.000.000.060,75\xa0€", group="."))
    '<span class="figure-wide">120.<wbr>000.<wbr>000.<wbr>000.<wbr>060,75\xa0€</span>'
    """
    parts = re.split(rf"(?<=\d{re.escape(group)})(?=\d)", str(figure))
    kind = "figure" if len(figure) <= FIGURE_FITS else "figure-wide"
    return Markup('<span class="{}">{}</span>').format(
        kind, Markup("<wbr>").join(escape(part) for part in parts)
    )


def path_breaks(path: str) -> Markup:
    """A file's path (with its ``:line``) that may wrap only after a ``/``: each part kept
    whole (``<span class="part">``), a break opportunity (``<wbr>``) after each separator,
    so a long inbox path fits a table's column on a desktop screen, and no name is ever cut
    at one of its hyphens.

    >>> str(path_breaks("/srv/inbox/round-log-2026-10.jsonl:17"))
    '<span class="part">/</span><wbr><span class="part">srv/</span><wbr><span class="part">inbox/</span><wbr><span class="part">round-log-2026-10.jsonl:17</span>'
    >>> str(path_breaks("a<b>.csv"))
    '<span class="part">a&lt;b&gt;.csv</span>'
    """
    parts = re.findall(r"[^/]*/|[^/]+$", visible(str(path)))
    return Markup("<wbr>").join(
        Markup('<span class="part">{}</span>').format(part) for part in parts
    )


def css_string(text: str) -> Markup:
    """A quoted CSS string of ``text``, every other character hex-escaped.

    Safe inside an HTML ``<style>`` element whatever the text holds (a game name from the
    configuration, a translation): no quote, backslash, ``<`` or ``&`` survives.

    >>> css_string(Markup("O&#39;Brien &amp; Sons"))  # HTML in, its plain text out
    Markup('"O\\\\000027 Brien \\\\000026  Sons"')
    >>> css_string('Live "A" </style>')
    Markup('"Live \\\\000022 A\\\\000022  \\\\00003c \\\\00002f style\\\\00003e "')
    """
    # Markup (a translation with its values filled in, a macro's output) is HTML with its
    # values escaped: a CSS string holds plain text, so its tags go (a name marked as English)
    # and it is unescaped, or the page would print "&amp;" for "&".
    plain = _plain(text)
    escaped = "".join(
        char if _CSS_SAFE.fullmatch(char) else f"\\{ord(char):06x} " for char in plain
    )
    # A safe character right after an escape's terminating space is fine: the space ends it.
    return Markup(f'"{escaped}"')


def css_counters(text: str) -> Markup:
    """CSS ``content`` for a translated text with ``{page}`` and ``{pages}`` slots.

    >>> str(css_counters("Page {page} of {pages}"))
    '"Page " counter(page) " of " counter(pages)'
    """
    parts = []
    for piece in re.split(r"(\{page\}|\{pages\})", str(text)):
        if piece == "{page}":
            parts.append("counter(page)")
        elif piece == "{pages}":
            parts.append("counter(pages)")
        elif piece:
            parts.append(str(css_string(piece)))
    return Markup(" ".join(parts))


# --- the template environment --------------------------------------------------------------------


class CompiledTemplates(BytecodeCache):
    """The code jinja2 compiles from each template, kept in memory and shared by every
    environment :func:`make_environment` makes (and their overlays). They differ only in
    what a template looks up as it renders (translations, a locale's formatters, the hands'
    names), never in what jinja2 compiles (the same settings, extension and filters' names):
    a template is compiled once in a process, not once for each language and game. A
    template's source is checksummed on each load, so an edited one is compiled again."""

    def __init__(self) -> None:
        self._codes: dict[str, tuple[str, CodeType]] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        held = self._codes.get(bucket.key)
        if held is not None and held[0] == bucket.checksum:
            bucket.code = held[1]

    def dump_bytecode(self, bucket: Bucket) -> None:
        if bucket.code is not None:
            self._codes[bucket.key] = (bucket.checksum, bucket.code)


_COMPILED = CompiledTemplates()


#: Characters a page keeps together without a space: a sha256's 64, the longest run a page
#: prints of its own. A longer run of the input (an id of a hostile export, up to 256
#: characters; a void reason) may break anywhere (:func:`breakable`): kept whole, it pushed a
#: table's figures past the paper's edge.
LONGEST_WHOLE = 64
#: Characters a text of the configuration (a game's or an operator's name, a licence, opening
#: hours, a certificate) keeps together in a table's cell: 20 "W"s, the widest letter, fit the
#: narrowest column such a text sits in, on a screen or on paper. A longer run may break
#: anywhere: kept whole, it widened its table past the screen (30 "W"s of opening hours in
#: the ADM block, in Greek, on a screen 641 pixels wide). Out of a table, a word that does not
#: fit its line breaks where the line ends (the stylesheet's ``overflow-wrap``).
LONGEST_GIVEN = 20


@cache
def _long_run(longest: int) -> re.Pattern[str]:
    """A run of more than ``longest`` characters without a space."""
    return re.compile(rf"\S{{{longest + 1},}}")


_BREAKS_ANYWHERE = Markup('<span style="white-space: normal; overflow-wrap: anywhere">{}</span>')


def breakable(text: str, longest: int = LONGEST_WHOLE) -> Markup:
    """An id or a text of the input as a page prints it (:func:`_as_input_shows`), a run of
    more than ``longest`` characters without a space free to break anywhere
    (:data:`LONGEST_WHOLE`; a text of the configuration: :data:`LONGEST_GIVEN`, the filter
    ``given``).

    >>> str(breakable("LB-IT-01 <b>"))
    'LB-IT-01 &lt;b&gt;'
    >>> str(breakable("x" * 65))[:62]
    '<span style="white-space: normal; overflow-wrap: anywhere">xxx'
    >>> str(breakable("x" * 21, LONGEST_GIVEN))[-28:], str(breakable("x" * 20, LONGEST_GIVEN))
    ('xxxxxxxxxxxxxxxxxxxxx</span>', 'xxxxxxxxxxxxxxxxxxxx')
    """
    shown, parts, last = visible(str(text)), [], 0
    for run in _long_run(longest).finditer(shown):
        parts += [escape(shown[last : run.start()]), _BREAKS_ANYWHERE.format(run[0])]
        last = run.end()
    return Markup("").join([*parts, escape(shown[last:])])


def _as_input_shows(value: Any) -> Any:
    """Every plain text a template prints, as :func:`~reporting.errors.visible` shows input:
    a void reason or an id that would print backwards or hide a character shows its escape
    (the markup of the filters escapes its own text)."""
    return visible(value) if type(value) is str else value


@cache
def make_environment(language: str, hand_words: tuple[tuple[str, str], ...] = ()) -> Environment:
    """The jinja2 environment of one language (with the operator's names of the hands in it,
    ``hand_words``: :func:`page_translations`): templates, translations and every filter.

    Autoescape is on for every template; the filters are the only formatters of the view
    model's values. ``_``, ``gettext`` and ``ngettext`` are the language's (new-style:
    ``_("%(n)s decks", n=8)`` substitutes and escapes its arguments); ``own_words`` prints
    an operator's bet's text in the language, ``catalogue_bet`` finds a catalogue bet by its
    id (:mod:`reporting.presentation.bet_words`).
    """
    _check_language(language)
    environment = Environment(
        loader=FileSystemLoader(TEMPLATE_DIR),
        autoescape=True,
        undefined=StrictUndefined,
        extensions=["jinja2.ext.i18n"],
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        bytecode_cache=_COMPILED,
        finalize=_as_input_shows,
    )
    environment.install_gettext_translations(page_translations(language, hand_words), newstyle=True)
    formatter = Formatter(LOCALES[language])
    environment.filters.update(formatter.filters())
    environment.filters["css_string"] = css_string
    environment.filters["hyphenate"] = partial(hyphenate, language)
    environment.filters["css_counters"] = css_counters
    environment.filters["ids_whole"] = ids_whole
    environment.filters["before_its_figure"] = before_its_figure
    environment.filters["path_breaks"] = path_breaks
    environment.filters["breakable"] = breakable
    environment.filters["given"] = partial(breakable, longest=LONGEST_GIVEN)
    environment.filters["figure_breaks"] = partial(
        figure_breaks, group=get_group_symbol(LOCALES[language])
    )
    environment.globals["formatter"] = formatter
    environment.globals["own_words"] = partial(own_words, language)
    environment.globals["catalogue_bet"] = catalogue_bet
    environment.globals["road_svg"] = road_svg
    environment.globals["suit_symbols"] = SUIT_SYMBOLS
    return environment


#: The drawings of the scoreboard, by the name a template gives them.
_ROAD_DRAWINGS = {"bead_road": (bead_road_svg, BeadRoad), "big_road": (big_road_svg, BigRoad)}


def road_svg(
    kind: str,
    road: BeadRoad | BigRoad,
    title: str,
    description: str,
    letter: Callable[[str], str],
) -> Markup:
    """A scoreboard road as inline SVG for a page (``kind``: bead_road or big_road), with
    its title, screen reader sentence and winners' letters in the page's words (their text:
    the drawing escapes it); ``letter`` gives a winner's letter (``banker``, ``player``,
    ``tie``): the templates pass the macro their text uses, so the drawing and the legend say
    the same."""
    draw, expected = _ROAD_DRAWINGS[kind]
    if not isinstance(road, expected):
        raise TypeError(f"a {kind} drawing is of a {expected.__name__}, not {road!r}")
    letters = WinnerLetters(*(_plain(letter(winner)) for winner in ("banker", "player", "tie")))
    return Markup(draw(road, RoadLabels(_plain(title), _plain(description), letters)))


def _plain(text: str) -> str:
    """The text of a page's words: markup's tags dropped and its characters unescaped."""
    return plain_text(text) if isinstance(text, Markup) else str(text)


_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_TAG = re.compile(r"<.*?>", re.DOTALL)
_SPACES = re.compile(r"[ \t\n\r\f\v]+")


def plain_text(markup: str) -> str:
    r"""The text of an HTML fragment, as a cell or a caption holds it: tags and comments
    dropped, entities unescaped, runs of spaces and line breaks made one space. Unlike
    ``Markup.striptags``, a no-break space stays what it is: it keeps ``50,00 DKK`` on one
    line and French ``Joueur :`` together.

    >>> plain_text("<b>Mise\u00a0:</b>\n   50,00\u202f€ &amp; plus")
    'Mise\xa0: 50,00\u202f€ & plus'
    """
    text = _SPACES.sub(" ", _TAG.sub("", _COMMENT.sub("", str(markup)))).strip(" ")
    return Markup(text).unescape()
