"""The rule sheet as a PDF: the HTML page printed by WeasyPrint on A4, byte for byte reproducible.

Reproducible: the same sheet gives the same bytes. The page's ``dcterms.created`` and
``dcterms.modified`` metadata are the as-of date (midnight UTC), ``SOURCE_DATE_EPOCH`` is set
to that instant while WeasyPrint runs (the embedded font subsets carry a timestamp otherwise),
and the file identifier WeasyPrint writes is a hash of the content (PDF/X and PDF/A variants
embed a random document id: not used).

Tagged for accessibility (PDF/UA-1: a structure tree, the page's ``<html lang>`` as the
document's ``/Lang``, its ``<title>`` as the title, the logo's alt text the operator's name),
with the operator as the author and the tool as the creator (``<meta name="generator">``):
what a regulator's or a player's reader expects of a published page.

Nothing is fetched but the page's ``data:`` URIs (the operator's logo) and the two font files:
an SVG logo that points at a file or a web address draws without it.

WeasyPrint is imported inside :func:`render_pdf`: the import costs about a second, which
commands that never print a PDF should not pay.
"""

from __future__ import annotations

import atexit
import gc
import os
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, date, datetime
from functools import cache
from pathlib import Path

from reporting.errors import InputError
from reporting.presentation.html import render_disclosure_html, render_html
from reporting.presentation.i18n import SOFT_HYPHEN, TEMPLATE_DIR
from reporting.presentation.rulesheet_model import RuleSheet

__all__ = [
    "FALLBACK_CSS",
    "FLOW_CSS",
    "FONT_FILES",
    "FONTS_CSS",
    "MARGINS_CSS",
    "PDF_VARIANT",
    "PRINT_CSS",
    "html_to_pdf",
    "laid_out",
    "lines_past",
    "load_fonts",
    "render_disclosure_pdf",
    "render_pdf",
]

#: The faces ``reporting/templates/rules/fonts.css`` loads (Debian package fonts-dejavu-core).
FONT_FILES: tuple[Path, ...] = (
    Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),
    Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"),
)
#: The @font-face rules of the PDF.
FONTS_CSS = TEMPLATE_DIR / "rules" / "fonts.css"
#: What only the PDF's pages need, after each page's own style: outside the HTML page, so that
#: its bytes stay the same.
PRINT_CSS = TEMPLATE_DIR / "rules" / "print.css"
#: What a page whose running header or footer took two lines or ran past its box is laid out
#: again with: those texts free to break anywhere (a long name that is a run without a space).
MARGINS_CSS = TEMPLATE_DIR / "rules" / "margins.css"
#: What a page whose tables ran past the right margin is laid out again with, in turn: its
#: tables a little tighter, then the Banker matrix's headings free to break where a column
#: ends, then every table's headings (and a bet's table's words).
FALLBACK_CSS = tuple(
    TEMPLATE_DIR / "rules" / name for name in ("tighter.css", "matrix.css", "narrow.css")
)
#: What a page whose last page is short is laid out again with, kept if it prints on fewer
#: pages: a road's heading and text flow, only its drawing kept whole (a road kept whole that
#: did not fit left up to a third of a page empty, and five pages printed a sixth for their
#: last section alone).
FLOW_CSS = TEMPLATE_DIR / "rules" / "flow.css"
#: The share of its last page's body a page fills below which it is laid out again with
#: :data:`FLOW_CSS` (a page whose roads flow saves its last page only when that page is short).
SHORT_LAST_PAGE = 0.6
#: How a road's box is written (reporting/templates/rules/sections/scoreboard.html.j2): a page
#: without one has nothing :data:`FLOW_CSS` changes.
ROAD_BOX = 'class="keep road"'


@contextmanager
def _source_date_epoch(seconds: int) -> Iterator[None]:
    """Set ``SOURCE_DATE_EPOCH`` for the duration of a render, then restore what was there.

    The variable is process-wide: two renders must not run at once in different threads.
    """
    previous = os.environ.get("SOURCE_DATE_EPOCH")
    os.environ["SOURCE_DATE_EPOCH"] = str(seconds)
    try:
        yield
    finally:
        if previous is None:
            del os.environ["SOURCE_DATE_EPOCH"]
        else:
            os.environ["SOURCE_DATE_EPOCH"] = previous


def render_pdf(sheet: RuleSheet) -> bytes:
    """The PDF of a rule sheet (A4, DejaVu Sans embedded), the same bytes for the same sheet."""
    return html_to_pdf(render_html(sheet), sheet.as_of, author=sheet.operator)


def render_disclosure_pdf(sheet: RuleSheet) -> bytes:
    """The PDF of the ADM disclosure page of a rule sheet."""
    return html_to_pdf(render_disclosure_html(sheet), sheet.as_of, author=sheet.operator)


#: The PDF variant: tagged, with the document's language (see the module's text).
PDF_VARIANT = "pdf/ua-1"


def _url_fetcher():
    """WeasyPrint's fetcher, allowed only ``data:`` URIs and the font files (an SVG logo's
    reference to a file or a web address is refused; WeasyPrint draws on without it)."""
    from weasyprint.urls import URLFetcher, path2url

    allowed = {path2url(str(path)) for path in FONT_FILES}

    class PageResources(URLFetcher):
        def fetch(self, url, headers=None):
            if url.startswith("data:") or url in allowed:
                return super().fetch(url, headers)
            raise ValueError(f"not fetched for a rule sheet: {url[:100]}")

    return PageResources(allowed_protocols=("data", "file"), allow_redirects=False)


def html_to_pdf(html: str, as_of: date, *, author: str | None = None) -> bytes:
    """Print a page of ``reporting/templates/rules`` to PDF, tagged (PDF/UA-1), reproducibly
    for its as-of date; ``author`` (the operator) in the document's metadata."""
    epoch = int(datetime(as_of.year, as_of.month, as_of.day, tzinfo=UTC).timestamp())
    with _source_date_epoch(epoch):
        document = laid_out(html)
        if author:
            document.metadata.authors = [author]
        return document.write_pdf(pdf_variant=PDF_VARIANT)


@cache
def _fonts():
    """The font configuration, the PDF's style sheets (the @font-face rules and
    :data:`PRINT_CSS`; :data:`MARGINS_CSS`; :data:`FALLBACK_CSS`, then :data:`FLOW_CSS`, the
    last of them) and the fetcher, made once
    per process: each page of a run loads the same two faces (a new configuration per page
    cost about an eighth of its time), and the bytes of a page do not depend on it."""
    import weasyprint
    from weasyprint.text.fonts import FontConfiguration

    font_config = FontConfiguration()
    fetcher = _url_fetcher()
    fonts = weasyprint.CSS(filename=str(FONTS_CSS), font_config=font_config, url_fetcher=fetcher)
    printed = weasyprint.CSS(filename=str(PRINT_CSS), url_fetcher=fetcher)
    margins = weasyprint.CSS(filename=str(MARGINS_CSS), url_fetcher=fetcher)
    fallbacks = tuple(
        weasyprint.CSS(filename=str(path), url_fetcher=fetcher)
        for path in (*FALLBACK_CSS, FLOW_CSS)
    )
    # Let go of them before the interpreter's teardown: the configuration then removes the
    # temporary folder it loaded the faces into (at teardown its clean-up could not run).
    atexit.register(_release_fonts)
    return font_config, (fonts, printed), margins, fallbacks, fetcher


def load_fonts() -> None:
    """Import WeasyPrint and load the faces now, once per process, rather than on its first
    page (a render worker does it while the run still verifies the month)."""
    _fonts()


def _release_fonts() -> None:
    """Drop the process's font configuration and collect it now (it sits in a reference
    cycle), so that it removes its folder of faces while the interpreter still stands."""
    _fonts.cache_clear()
    gc.collect()


def laid_out(html: str):
    """A page of ``reporting/templates/rules`` laid out on A4 by WeasyPrint: its ``Document``,
    whose pages a test can read box by box (what sits on which page).

    A page whose running header or footer took more than one line, or printed past its box,
    is laid out again with :data:`MARGINS_CSS` (those texts free to break anywhere). A page
    that prints a line past its right margin (a table whose words are wider than its columns:
    a hand's name an operator chose, a translation's long words) is laid out again with
    :data:`FALLBACK_CSS`, a style more at a time, until it fits: its tables a little tighter,
    then the Banker matrix's headings broken where a column ends, then every table's. A page
    of roads whose last page is short (:data:`SHORT_LAST_PAGE`) is laid out again with
    :data:`FLOW_CSS`, and printed so only if that takes fewer pages. A page that fits is laid
    out once, as its own style says."""
    missing = [str(path) for path in FONT_FILES if not path.is_file()]
    if missing:
        raise InputError(
            f"font file {missing[0]} is missing: install the Debian package fonts-dejavu-core"
            " (make syslibs)"
        )
    import weasyprint  # lazily: the import takes about a second

    font_config, stylesheets, margins, fallbacks, fetcher = _fonts()
    # The soft hyphens a phone's narrow columns break at (i18n.hyphenate) are left out: an A4
    # column holds its words whole, and the PDF's text (its search, a copy, a screen reader)
    # must hold them whole too.
    page = weasyprint.HTML(
        string=html.replace(SOFT_HYPHEN, ""),
        base_url=str(TEMPLATE_DIR / "rules"),
        url_fetcher=fetcher,
    )
    document = page.render(stylesheets=list(stylesheets), font_config=font_config)
    fallbacks, flow = fallbacks[:-1], fallbacks[-1]
    if _running_texts_wrapped(document):
        stylesheets = (*stylesheets, margins)
        document = page.render(stylesheets=list(stylesheets), font_config=font_config)
    used = list(stylesheets)
    for taken in range(1, len(fallbacks) + 1):  # a table wider than the paper: tighter, then
        if not lines_past(document, margin=True):  # the matrix's headings broken, then all
            break
        used = [*stylesheets, *fallbacks[:taken]]
        document = page.render(stylesheets=used, font_config=font_config)
    if ROAD_BOX in html and _last_page_fill(document) < SHORT_LAST_PAGE:
        flowing = page.render(stylesheets=[*used, flow], font_config=font_config)
        if len(flowing.pages) < len(document.pages) and not lines_past(flowing, margin=True):
            return flowing
    return document


def _last_page_fill(document) -> float:
    """The share of its body's height that the last page of a document of several pages
    fills, from the body's top to its lowest box (1.0 for a document of one page)."""
    if len(document.pages) < 2:
        return 1.0
    page_box = document.pages[-1]._page_box
    top, height = page_box.content_box_y(), page_box.height
    body = [child for child in page_box.children if type(child).__name__ != "MarginBox"]
    lowest = max(
        (
            box.position_y + box.margin_height()
            for child in body
            for box in _boxes(child)
            if hasattr(box, "position_y") and hasattr(box, "margin_height")
        ),
        default=top,
    )
    return (max(lowest, top) - top) / height if height else 1.0


def _boxes(box) -> Iterator:
    """A laid-out box and every box within it, in order."""
    yield box
    for child in getattr(box, "children", None) or ():
        yield from _boxes(child)


def _running_texts_wrapped(document) -> bool:
    """Whether a running header or footer (a margin box) of ``document`` holds more than one
    line, or a text past its box's sides."""
    from weasyprint.formatting_structure.boxes import LineBox, MarginBox

    for page in document.pages:
        for box in page._page_box.children:
            if not isinstance(box, MarginBox):
                continue
            left, right = box.content_box_x(), box.content_box_x() + box.width
            found = [
                part
                for part in _boxes(box)
                if isinstance(part, LineBox) or getattr(part, "text", None)
            ]
            if sum(isinstance(part, LineBox) for part in found) > 1 or any(
                part.position_x < left - 0.5 or part.position_x + part.width > right + 0.5
                for part in found
                if not isinstance(part, LineBox)
            ):
                return True
    return False


def lines_past(document, *, margin: bool) -> list[str]:
    """Each line of text of a laid-out ``document`` printed past a side of its page: with
    ``margin``, past the right margin (a page's body); without, past the paper's edges (the
    running header and footer, in the margins, too), each with its page and place."""
    found: list[str] = []
    for number, page in enumerate(document.pages, start=1):
        page_box = page._page_box
        right = page.width - page_box.margin_right if margin else page.width
        found += [
            f"page {number}: {box.text[:40]}... at {box.position_x:.0f}"
            for box in _boxes(page_box)
            if getattr(box, "text", None)
            and not (box.position_x >= -0.5 and box.position_x + box.width <= right + 0.5)
        ]
    return found
