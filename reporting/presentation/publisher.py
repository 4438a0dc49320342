"""The operator on a game's pages: what the masthead, the running header and the workbook show
of ``[operator]``, and the template folder that restyles the pages.

:func:`publisher_of` turns the configuration's :class:`~reporting.config.operator.Operator`
into the :class:`Publisher` of one game: its name, its licence number in the game's
jurisdiction (with the words that name that licence), the logo as a ``data:`` URI (the HTML
page stays one self-contained file; the logo is only ever shown through ``<img>``, never
inlined, so an SVG's scripts never run) and the accent colour. A rule sheet carries it in
:attr:`RuleSheet.publisher <reporting.presentation.rulesheet_model.RuleSheet>`.

:func:`render_page` renders a page template for a sheet: with the built-in templates, or,
when the operator names a template folder, with that folder first (a jinja2
``ChoiceLoader``: a file there replaces the built-in one of the same relative name, as
rendercv's overrides do). A mistake in an override (a syntax error, an undefined name) is a
:class:`TemplateOverrideError` naming the file and line: exit 2, no traceback.
"""

from __future__ import annotations

import base64
import difflib
import tomllib
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, TypeVar

from jinja2 import (
    ChoiceLoader,
    Environment,
    FileSystemLoader,
    TemplateError,
    TemplateNotFound,
    TemplateSyntaxError,
)

from reporting.config.loader import ConfigError
from reporting.config.operator import Operator
from reporting.config.regulators import regulator_of_country
from reporting.presentation.i18n import make_environment

if TYPE_CHECKING:
    from types import TracebackType

    from reporting.engine.games import GameSpec
    from reporting.presentation.rulesheet_model import RuleSheet

__all__ = [
    "GENERIC_LICENCE_WORDS",
    "Publisher",
    "TemplateOverrideError",
    "environment_of",
    "extract_licence_words",
    "licence_words",
    "publisher_of",
    "render_page",
    "with_publisher",
    "with_templates_of",
]

T = TypeVar("T")


def _(message: str) -> str:
    """Mark a msgid for extraction (``make i18n``); the macros translate it where it is shown."""
    return message


GENERIC_LICENCE_WORDS = _("Licence no. %(number)s")


def licence_words(jurisdiction: str) -> str:
    """How a page names the operator's licence in a jurisdiction (a msgid with the number as
    ``%(number)s``): its regulator's words (``reporting/data/regulators.toml``), else
    :data:`GENERIC_LICENCE_WORDS`."""
    regulator = regulator_of_country(jurisdiction)
    return GENERIC_LICENCE_WORDS if regulator is None else regulator.licence


@dataclass(frozen=True, slots=True)
class Publisher:
    """Who publishes a game's pages, as its templates show it."""

    name: str
    jurisdiction: str  # the game's, ISO 3166
    licence: str | None  # the operator's number in that jurisdiction, if the file gives it
    licence_words: str  # msgid naming that licence, with %(number)s
    logo_uri: str | None  # data:image/...;base64,...
    accent_colour: str | None  # "#rrggbb"
    templates: Path | None = None  # the operator's template folder, searched first

    @property
    def accent_tint(self) -> str | None:
        """The accent mixed with nine parts of white: the background of a boxed house rule.

        >>> Publisher("X", "IT", None, "", None, "#1f4e79").accent_tint
        '#e8edf1'
        """
        if self.accent_colour is None:
            return None
        channels = (int(self.accent_colour[index : index + 2], 16) for index in (1, 3, 5))
        return "#" + "".join(f"{(channel + 255 * 9) // 10:02x}" for channel in channels)


def publisher_of(operator: Operator, game: GameSpec) -> Publisher:
    """The operator as the pages of ``game`` show it."""
    logo = operator.logo
    uri = None
    if logo is not None:
        uri = f"data:{logo.media_type};base64,{base64.b64encode(logo.data).decode('ascii')}"
    return Publisher(
        name=operator.name,
        jurisdiction=game.jurisdiction,
        licence=operator.licence(game.jurisdiction),
        licence_words=licence_words(game.jurisdiction),
        logo_uri=uri,
        accent_colour=operator.accent_colour,
        templates=operator.templates,
    )


def with_publisher(sheet: RuleSheet, operator: Operator | str | None, game: GameSpec) -> RuleSheet:
    """``sheet`` published by ``operator``: the whole ``[operator]``, or only a name."""
    if operator is None:
        return sheet
    if isinstance(operator, str):
        return replace(sheet, operator=operator)
    return replace(sheet, operator=operator.name, publisher=publisher_of(operator, game))


# --- the templates -----------------------------------------------------------------------------


class TemplateOverrideError(ConfigError):
    """A template of the operator's folder (``[operator] templates``) that cannot render."""

    label = "template"


#: Files of an override folder that are templates (anything else there, a README, is left be).
_TEMPLATE_SUFFIXES = (".j2", ".css")


@cache
def _overlaid(
    language: str, folder: Path, hand_words: tuple[tuple[str, str], ...] = ()
) -> Environment:
    base = make_environment(language, hand_words)
    _check_overrides(folder, set(base.list_templates()))
    loader = ChoiceLoader([FileSystemLoader(folder), base.loader])
    return base.overlay(loader=loader)


def _check_overrides(folder: Path, built_in: set[str]) -> None:
    """Refuse a template of the folder that replaces none of the built-in ones: a misspelt
    name would otherwise be silently unused, and the page built from the original."""
    unused = []
    for path in sorted(folder.rglob("*")):
        name = path.relative_to(folder).as_posix()
        if path.is_file() and name.endswith(_TEMPLATE_SUFFIXES) and name not in built_in:
            close = difflib.get_close_matches(name, sorted(built_in), n=1)
            hint = f" (did you mean {close[0]}?)" if close else ""
            unused.append(f"{path}: replaces no built-in template{hint}")
    if unused:
        raise TemplateOverrideError(unused)


def environment_of(sheet: RuleSheet) -> Environment:
    """The template environment of a sheet: its language's, with the game's names of the
    hands in it, searched first in the operator's template folder when there is one."""
    folder = sheet.publisher.templates if sheet.publisher is not None else None
    if folder is None:
        return make_environment(sheet.language, sheet.hand_words)
    return _overlaid(sheet.language, folder, sheet.hand_words)


def render_page(sheet: RuleSheet, template: str) -> str:
    """Render the page ``template`` (relative to ``reporting/templates/``) for ``sheet``.

    With an operator's template folder, a template error is a :class:`TemplateOverrideError`
    (``file:line: reason``), as is any error raised by a template of that folder; an error of
    the built-in templates alone stays what it is (a bug).
    """
    return with_templates_of(
        sheet, lambda: environment_of(sheet).get_template(template).render(sheet=sheet)
    )


def with_templates_of(sheet: RuleSheet, work: Callable[[], T]) -> T:
    """Run ``work``, which uses the sheet's templates (a page's render, the workbook's calls
    of the macros), turning an error of the operator's templates into a
    :class:`TemplateOverrideError` as :func:`render_page` does."""
    folder = sheet.publisher.templates if sheet.publisher is not None else None
    try:
        return work()
    except Exception as error:
        if folder is None:
            raise
        where = _template_frame(error, folder)
        if where is None:
            raise
        raise TemplateOverrideError(
            [f"{where}: {_reason(error)[:300]} (with the templates of {folder})"]
        ) from None


def _reason(error: Exception) -> str:
    """What went wrong in a template, in one line."""
    if isinstance(error, TemplateNotFound):
        return f"no template {error.name!r} (neither in the folder nor built in)"
    if isinstance(error, TemplateError) and error.message:
        return error.message.replace("\n", " ")
    return f"{type(error).__name__}: {error}".replace("\n", " ")


def _template_frame(error: Exception, folder: Path) -> str | None:
    """``file:line`` of the template an error of rendering comes from: a syntax error's
    file, else the innermost template frame of its traceback. None when the error is not the
    override's to answer for: no template of ``folder`` in it, and not a template error."""
    if isinstance(error, TemplateSyntaxError) and error.filename:
        return f"{error.filename}:{error.lineno}"
    innermost, own = None, None
    traceback: TracebackType | None = error.__traceback__
    while traceback is not None:
        name = traceback.tb_frame.f_code.co_filename
        if name.endswith((".j2", ".css", ".html")) and Path(name).is_file():
            innermost = f"{name}:{traceback.tb_lineno}"
            if Path(name).is_relative_to(folder):
                own = innermost
        traceback = traceback.tb_next
    if own is not None:
        return own
    return innermost if isinstance(error, TemplateError) and innermost else None


def extract_licence_words(
    fileobj: IO[bytes],
    keywords: Collection[str],
    comment_tags: Collection[str],
    options: dict[str, Any],
) -> Iterator[tuple[int, str, str, list[str]]]:
    """Babel extraction method of the regulators file (``reporting/data/regulators.toml``):
    each regulator's ``licence`` words, at the line that holds them."""
    source = fileobj.read().decode("utf-8")
    for regulator_id, table in tomllib.loads(source).get("regulators", {}).items():
        words = table.get("licence")
        if not isinstance(words, str):
            raise ValueError(f"regulators.{regulator_id}: no licence words")
        line = next(
            number
            for number, text in enumerate(source.splitlines(), start=1)
            if text.startswith("licence =") and f'"{words}"' in text
        )
        yield (
            line,
            "_",
            words,
            [
                "Translators: how a page names the operator's licence in that country, as its"
                f" regulator ({table.get('name', regulator_id)}) words it; %(number)s is the number."
            ],
        )
