"""The rule sheet as one self-contained HTML page (CSS inlined, the operator's logo embedded
as a ``data:`` URI, no external resource), from the built-in templates or the operator's
overrides of them (:func:`reporting.presentation.publisher.render_page`)."""

from __future__ import annotations

from reporting.presentation.publisher import render_page
from reporting.presentation.rulesheet_model import RuleSheet

__all__ = [
    "DISCLOSURE_TEMPLATE",
    "PAGE_TEMPLATE",
    "render_disclosure_html",
    "render_html",
]

#: The page template, relative to ``reporting/templates/``.
PAGE_TEMPLATE = "rules/page.html.j2"
#: The ADM disclosure block on a page of its own.
DISCLOSURE_TEMPLATE = "rules/disclosure.html.j2"


def render_html(sheet: RuleSheet) -> str:
    """The page of a rule sheet, in the sheet's language (the PDF prints this same page)."""
    return render_page(sheet, PAGE_TEMPLATE)


def render_disclosure_html(sheet: RuleSheet) -> str:
    """The ADM disclosure block of a rule sheet on a page of its own (ADM games only)."""
    if sheet.adm is None:
        raise ValueError(f"{sheet.game_id} has no ADM disclosure block")
    return render_page(sheet, DISCLOSURE_TEMPLATE)
