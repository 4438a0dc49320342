"""Rendering a rule sheet: HTML (:mod:`.html`), PDF (:mod:`.pdf`) and XLSX (:mod:`.xlsx`).

Each renderer takes a computed :class:`~reporting.presentation.rulesheet.RuleSheet` and nothing else; the
same sheet gives the same bytes. Files are written atomically (:func:`write_atomically`): a
reader sees the old file or the new one, never half of one.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from reporting.files import write_atomically

if TYPE_CHECKING:
    from reporting.presentation.rulesheet import RuleSheet

__all__ = [
    "DISCLOSURE_FORMATS",
    "FORMATS",
    "disclosure_file_name",
    "file_name",
    "render",
    "render_disclosure_page",
    "write_disclosure_page",
    "write_rule_sheet",
]

#: Output formats, by file extension, in the order the ``rules`` command writes them.
FORMATS: tuple[str, ...] = ("pdf", "xlsx", "html")
#: Formats of the ADM disclosure page (the block of the rule sheet on a page of its own).
DISCLOSURE_FORMATS: tuple[str, ...] = ("pdf", "html")


def render(sheet: RuleSheet, fmt: str) -> bytes:
    """The bytes of a rule sheet in one format (``pdf``, ``xlsx`` or ``html``)."""
    # The renderers are imported on use: the PDF one brings in WeasyPrint (about a second).
    if fmt == "html":
        from reporting.presentation.html import render_html

        return render_html(sheet).encode("utf-8")
    if fmt == "pdf":
        from reporting.presentation.pdf import render_pdf

        return render_pdf(sheet)
    if fmt == "xlsx":
        from reporting.presentation.rulesheet_xlsx import render_xlsx

        return render_xlsx(sheet)
    raise ValueError(f"unknown format {fmt!r} (known: {', '.join(FORMATS)})")


def file_name(sheet: RuleSheet, fmt: str) -> str:
    """``<game>.<lang>.<ext>``, e.g. ``live-baccarat-it.it.pdf``."""
    return f"{sheet.game_id}.{sheet.language}.{fmt}"


def write_rule_sheet(sheet: RuleSheet, fmt: str, folder: Path) -> Path:
    """Render a sheet in one format and write it into ``folder`` (atomically); the path."""
    return write_atomically(Path(folder) / file_name(sheet, fmt), render(sheet, fmt))


def render_disclosure_page(sheet: RuleSheet, fmt: str) -> bytes:
    """The ADM disclosure block of a sheet on a page of its own, as ``pdf`` or ``html``."""
    if fmt == "html":
        from reporting.presentation.html import render_disclosure_html

        return render_disclosure_html(sheet).encode("utf-8")
    if fmt == "pdf":
        from reporting.presentation.pdf import render_disclosure_pdf

        return render_disclosure_pdf(sheet)
    raise ValueError(f"unknown format {fmt!r} (known: {', '.join(DISCLOSURE_FORMATS)})")


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
