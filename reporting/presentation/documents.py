"""A game's documents: build its rule sheet in each language, write each format.

:func:`render_game_documents` and :func:`write_documents` are the one orchestration, used by
the ``rules`` command and by the monthly job. Each renderer, HTML (:mod:`.html`), PDF (:mod:`.pdf`) and XLSX
(:mod:`.rulesheet_xlsx`), takes a computed :class:`~reporting.presentation.rulesheet_model.RuleSheet`
and nothing else; the same sheet gives the same bytes. Files are written atomically
(:func:`write_atomically`): a reader sees the old file or the new one, never half of one; and
a set of them is written whole (:func:`write_all_atomically`): a page that cannot be written
leaves every file of the set as it was.
"""

from __future__ import annotations

import hashlib
import importlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from reporting.files import write_all_atomically, write_atomically

if TYPE_CHECKING:
    from reporting.config.operator import Operator
    from reporting.engine.games import GameSpec
    from reporting.figures.disclosure import Disclosure
    from reporting.presentation.rulesheet_model import RuleSheet

__all__ = [
    "DISCLOSURE_FORMATS",
    "FORMATS",
    "RenderedDocuments",
    "RenderedPage",
    "WrittenDocument",
    "disclosure_file_name",
    "file_name",
    "render",
    "render_disclosure_page",
    "render_game_documents",
    "write_disclosure_page",
    "write_documents",
    "write_rule_sheet",
]

#: The renderer of each output format, by file extension, in the order the ``rules`` command
#: writes them: (module, function) of the rule sheet, and of the disclosure page where the
#: format has one. Named, not imported: a renderer's module is imported on use (the PDF one
#: brings in WeasyPrint, about a second).
_RENDERERS: dict[str, tuple[str, str, str | None]] = {
    "pdf": ("reporting.presentation.pdf", "render_pdf", "render_disclosure_pdf"),
    "xlsx": ("reporting.presentation.rulesheet_xlsx", "render_xlsx", None),
    "html": ("reporting.presentation.html", "render_html", "render_disclosure_html"),
}
#: Output formats of a rule sheet.
FORMATS: tuple[str, ...] = tuple(_RENDERERS)
#: Formats of the ADM disclosure page (the block of the rule sheet on a page of its own).
DISCLOSURE_FORMATS: tuple[str, ...] = tuple(
    fmt for fmt, (_, _, disclosure) in _RENDERERS.items() if disclosure is not None
)


def _rendered(sheet: RuleSheet, fmt: str, page: int, known: tuple[str, ...]) -> bytes:
    """Render ``sheet`` in ``fmt`` with the renderer at ``page`` (1: sheet, 2: disclosure)."""
    entry = _RENDERERS.get(fmt)
    if entry is None or entry[page] is None:
        raise ValueError(f"unknown format {fmt!r} (known: {', '.join(known)})")
    rendered = getattr(importlib.import_module(entry[0]), entry[page])(sheet)
    return rendered.encode("utf-8") if isinstance(rendered, str) else rendered


def render(sheet: RuleSheet, fmt: str) -> bytes:
    """The bytes of a rule sheet in one format (``pdf``, ``xlsx`` or ``html``)."""
    return _rendered(sheet, fmt, 1, FORMATS)


def file_name(sheet: RuleSheet, fmt: str) -> str:
    """``<game>.<lang>.<ext>``, e.g. ``live-baccarat-it.it.pdf``."""
    return f"{sheet.game_id}.{sheet.language}.{fmt}"


def write_rule_sheet(sheet: RuleSheet, fmt: str, folder: Path) -> Path:
    """Render a sheet in one format and write it into ``folder`` (atomically); the path."""
    return write_atomically(Path(folder) / file_name(sheet, fmt), render(sheet, fmt))


def render_disclosure_page(sheet: RuleSheet, fmt: str) -> bytes:
    """The ADM disclosure block of a sheet on a page of its own, as ``pdf`` or ``html``."""
    return _rendered(sheet, fmt, 2, DISCLOSURE_FORMATS)


def disclosure_file_name(sheet: RuleSheet, fmt: str) -> str:
    """``<game>.<lang>.disclosure.<ext>``, e.g. ``live-baccarat-it.it.disclosure.pdf``."""
    return f"{sheet.game_id}.{sheet.language}.disclosure.{fmt}"


def write_disclosure_page(sheet: RuleSheet, fmt: str, folder: Path) -> Path:
    """Write the ADM disclosure page of a sheet into ``folder`` (atomically); the path.

    Only for a sheet with an ADM block (:attr:`RuleSheet.adm`); ValueError otherwise.
    """
    return write_atomically(
        Path(folder) / disclosure_file_name(sheet, fmt), render_disclosure_page(sheet, fmt)
    )


# --- a game's documents --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class WrittenDocument:
    """One file written for a game: its rule sheet in one language and format, or the
    sheet's disclosure page."""

    path: Path
    game_id: str
    language: str
    format: str  # the extension: pdf, xlsx or html
    disclosure_page: bool
    size: int  # bytes
    sha256: str


@dataclass(frozen=True, slots=True)
class RenderedPage:
    """A document rendered, not yet written: where it goes, its bytes, and what it is."""

    path: Path
    data: bytes
    game_id: str
    language: str
    format: str
    disclosure_page: bool


@dataclass(frozen=True, slots=True)
class RenderedDocuments:
    """What :func:`render_game_documents` rendered, in order, and the sheets' warnings."""

    pages: tuple[RenderedPage, ...]
    warnings: tuple[str, ...]


def render_game_documents(
    game: GameSpec,
    languages: Sequence[str],
    formats: Sequence[str],
    *,
    disclosure: Disclosure | None,
    as_of: date,
    folder: Path,
    tool_version: str,
    disclosure_formats: Sequence[str] = (),
    operator: Operator | str | None = None,
) -> RenderedDocuments:
    """The rule sheet of ``game`` in each language, rendered in each format, for ``folder``.

    For a sheet with a disclosure block, its disclosure page comes first, in each of
    ``disclosure_formats`` (none unless asked). ``disclosure``, ``as_of`` and ``tool_version``
    go to :func:`~reporting.presentation.rulesheet.build_rule_sheet`; ``operator`` (the
    configuration's ``[operator]``, or only a name) publishes every page
    (:func:`~reporting.presentation.publisher.with_publisher`).
    """
    from reporting.presentation.publisher import with_publisher
    from reporting.presentation.rulesheet import build_rule_sheet, refuse_missing_words

    refuse_missing_words(game, languages)  # every bet and language at once, before a page
    pages: list[RenderedPage] = []
    warnings: list[str] = []
    for language in languages:
        built = build_rule_sheet(
            game, language, disclosure=disclosure, as_of=as_of, tool_version=tool_version
        )
        sheet = with_publisher(built, operator, game)
        for warning in sheet.warnings:
            if warning not in warnings:
                warnings.append(warning)
        if sheet.adm is not None:
            for fmt in disclosure_formats:
                path = Path(folder) / disclosure_file_name(sheet, fmt)
                data = render_disclosure_page(sheet, fmt)
                pages.append(RenderedPage(path, data, sheet.game_id, language, fmt, True))
        for fmt in formats:
            path = Path(folder) / file_name(sheet, fmt)
            data = render(sheet, fmt)
            pages.append(RenderedPage(path, data, sheet.game_id, language, fmt, False))
    return RenderedDocuments(tuple(pages), tuple(warnings))


def write_documents(pages: Sequence[RenderedPage]) -> tuple[WrittenDocument, ...]:
    """Write rendered pages as one set (:func:`~reporting.files.write_all_atomically`): a
    page that cannot be written leaves every file of the set as it was."""
    write_all_atomically([(page.path, page.data) for page in pages])
    return tuple(
        WrittenDocument(
            path=page.path,
            game_id=page.game_id,
            language=page.language,
            format=page.format,
            disclosure_page=page.disclosure_page,
            size=len(page.data),
            sha256=hashlib.sha256(page.data).hexdigest(),
        )
        for page in pages
    )
