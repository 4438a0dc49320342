"""Printed pages read box by box: what a page break must not do, and a way to read the breaks
of every page a test prints anyway.

Which sheets a module prints (:func:`printed_sheets`): printing is most of a rendering test's
time (about a second a sheet), so a module prints each game in the languages its operator
publishes it in, and one game, chosen for what its page holds, in every language. Every game
and every language is printed, and what a regulator reads is printed as published; the other
pairs are written as HTML and workbooks (:func:`formats_of`), whose tests cover every pair.

The page-break checks read WeasyPrint's laid-out ``Document``. A rule sheet's PDF is laid out
once by ``reporting.presentation.pdf.laid_out``; :func:`page_breaks_read` looks at each
document that function returns while a test writes its PDFs, so that the breaks of every
printed sheet are read from the very layout its PDF was written from, with no second layout.
"""

from __future__ import annotations

import itertools
import tomllib
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

import pytest

from reporting.config.languages import SUPPORTED_LANGUAGES
from reporting.presentation import pdf
from reporting.presentation.documents import FORMATS, write_rule_sheet
from reporting.presentation.rulesheet_model import RuleSheet

#: The blocks a printed page is read by; a heading, caption or paragraph is read whole.
BLOCKS = {"h1", "h2", "h3", "p", "ul", "ol", "table", "tr", "figure", "figcaption"}
HEADINGS = {"h1", "h2", "h3", "caption"}


def blocks_by_page(document) -> list[list]:
    """The elements of each laid-out page, in order: headings, paragraphs, tables, rows."""

    def walk(box, found):
        element = getattr(box, "element", None)
        if getattr(box, "element_tag", None) in BLOCKS | HEADINGS and element is not None:
            if not found or found[-1] is not element:
                found.append(element)
            if box.element_tag not in ("table", "tr", "figure"):
                return
        for child in getattr(box, "children", None) or ():
            walk(child, found)

    pages = []
    for page in document.pages:
        found: list = []
        walk(page._page_box, found)
        pages.append(found)
    return pages


def break_problems(document) -> list[str]:
    """What a printed page must not do: split a table row, end on a heading or caption (parted
    from what it heads), start with a table whose heading or introduction stayed behind, or
    start with the note that follows a table."""
    pages = blocks_by_page(document)
    root = document.pages[0]._page_box.children[0].element
    parent = {child: element for element in root.iter() for child in element}

    def before(element):
        siblings = list(parent[element])
        index = siblings.index(element)
        return siblings[index - 1] if index else None

    def text(element) -> str:
        return " ".join("".join(element.itertext()).split())[:60]

    problems = []
    rows: dict[int, set[int]] = {}
    for number, page in enumerate(pages, 1):
        for element in page:  # a header row repeated on the next page is no split row
            if element.tag == "tr" and parent[element].tag != "thead":
                rows.setdefault(id(element), set()).add(number)
        if number == 1 or not page:
            continue
        first, last = page[0], pages[number - 2][-1] if pages[number - 2] else None
        if last is not None and last.tag in HEADINGS:
            problems.append(f"page {number - 1} ends with the {last.tag} {text(last)!r}")
        if first.tag == "table" and first not in pages[number - 2]:
            problems.append(f"page {number} starts with a table apart from its heading")
        previous = before(first)
        follows_a_table = previous is not None and (
            previous.tag == "table" or previous.find(".//table") is not None
        )
        if first.tag == "p" and follows_a_table:
            problems.append(f"page {number} starts with the note {text(first)!r}")
    problems += [
        f"a table row is split over pages {sorted(p)}" for p in rows.values() if len(p) > 1
    ]
    problems += [
        f"page {number} holds only the page's footer line"
        for number, page in enumerate(pages, 1)
        if number > 1 and page and all(_in_footer(element, parent) for element in page)
    ]
    return problems + split_words(document) + short_lines(document) + narrow_tables(document)


def _in_footer(element, parent) -> bool:
    """Whether ``element`` is the page's footer line (the tool's name and the date in force),
    or within it."""
    while element is not None:
        if element.tag == "footer" and "page-footer" in element.get("class", "").split():
            return True
        element = parent.get(element)
    return False


def _lines(box, found: list[str]) -> list[str]:
    """The text of each line box under ``box``, in order."""
    if type(box).__name__ == "LineBox":
        found.append("".join(_texts(box)))
        return found
    for child in getattr(box, "children", None) or ():
        _lines(child, found)
    return found


def _texts(box) -> Iterator[str]:
    if getattr(box, "text", None):
        yield box.text
    for child in getattr(box, "children", None) or ():
        yield from _texts(child)


def split_words(document, *, apart: str | None = None) -> list[str]:
    """Each word of a table's cell that a printed page breaks across two lines where the
    page's text has no space, hyphen or slash: a heading printed "Roun" over "ds". With
    ``apart``, the tables of that class are let be."""
    problems = []

    def walk(box, number: int) -> None:
        if (
            apart
            and getattr(box, "element_tag", None) == "table"
            and apart in (box.element.get("class") or "").split()
        ):
            return
        if getattr(box, "element_tag", None) in ("th", "td"):
            words = " ".join(box.element.itertext()).split()
            lines = [line.split() for line in _lines(box, []) if line.split()]
            for first, second in itertools.pairwise(lines):
                end, start = first[-1], second[0]
                if end[-1] in "-/\u00ad" or end in words:
                    continue
                if any(end + start in word for word in words):
                    problems.append(f"page {number}: {end!r} and {start!r} are one word split")
            return
        for child in getattr(box, "children", None) or ():
            walk(child, number)

    for number, page in enumerate(document.pages, start=1):
        walk(page._page_box, number)
    return problems


def _boxes(box):
    """A laid-out box and every box within it, in order."""
    yield box
    for child in getattr(box, "children", None) or ():
        yield from _boxes(child)


#: The least of its column a paragraph's line fills when another line follows it.
FILLED = 0.5


def short_lines(document) -> list[str]:
    """Each line of a paragraph that a printed page ends before half its column when the
    paragraph goes on, but where the page breaks it (``<br>``): WeasyPrint broke a Danish
    paragraph after "Banker." (an English name marked as such, then a full stop) and left
    three quarters of its line empty."""
    problems = []

    for number, page in enumerate(document.pages, start=1):
        for box in _boxes(page._page_box):
            if getattr(box, "element_tag", None) != "p" or not box.width:
                continue
            lines = [child for child in box.children if type(child).__name__ == "LineBox"]
            for line in lines[:-1]:
                parts = list(_boxes(line))
                texts = [part for part in parts if type(part).__name__ == "TextBox"]
                if not texts or any(getattr(part, "element_tag", None) == "br" for part in parts):
                    continue  # a line the page ends on purpose (the masthead's name, then <br>)
                right = max(part.position_x + part.margin_width() for part in texts)
                if right - line.position_x < FILLED * box.width:
                    text = " ".join("".join(part.text for part in texts).split())
                    problems.append(f"page {number}: a line ends short: {text[-60:]!r}")
    return problems


def narrow_tables(document) -> list[str]:
    """Each narrow table (``table.narrow``: the card values, the drawing rules, the RTPs)
    printed at less than the 60% of its column that the style gives it on screen, or whose
    caption takes more than a line: WeasyPrint printed the RTPs' table at a quarter of the
    column, its caption wrapped ("Ritorno teorico di ciascuna" over "puntata")."""
    problems = []

    for number, page in enumerate(document.pages, start=1):
        column = page._page_box.children[0].width  # the body's box: the page's column
        for wrapper in _boxes(page._page_box):  # a table's box holds its caption and its grid
            tables = [
                part
                for part in getattr(wrapper, "children", ())
                if type(part).__name__ == "TableBox"
            ]
            if not tables or "narrow" not in (wrapper.element.get("class") or "").split():
                continue
            caption = " ".join("".join(wrapper.element.find("caption").itertext()).split())[:60]
            table = tables[0]
            if table.border_width() < 0.6 * column - 1:
                share = table.border_width() / column
                problems.append(f"page {number}: {caption!r} at {share:.0%} of the column")
            for part in wrapper.children:
                if getattr(part, "element_tag", None) != "caption":
                    continue
                lines = [line for line in _boxes(part) if type(line).__name__ == "LineBox"]
                if len(lines) > 1:
                    problems.append(f"page {number}: {caption!r} in {len(lines)} lines")
    return problems


@contextmanager
def page_breaks_read() -> Iterator[list[list[str]]]:
    """While open, each page laid out for print has its :func:`break_problems` appended, in
    order, to the list it yields (one entry per laid-out page, ``[]`` for a good one). The
    document itself goes on to be written as before: the checks only read its boxes."""
    read: list[list[str]] = []
    lay_out = pdf.laid_out

    def reading(html: str):
        document = lay_out(html)
        read.append(break_problems(document))
        return document

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pdf, "laid_out", reading)
        yield read


def printed_sheets(
    operator_toml: str, games: Iterable[str], everywhere: str
) -> frozenset[tuple[str, str]]:
    """The (game, language) sheets a module prints (see the module's text): each of ``games``
    in the ``languages`` the operator's file lists for it, and ``everywhere`` in every
    supported language."""
    sections = tomllib.loads(operator_toml)["games"]
    published = {
        (game_id, language) for game_id in games for language in sections[game_id]["languages"]
    }
    return frozenset(published | {(everywhere, language) for language in SUPPORTED_LANGUAGES})


def formats_of(printed: frozenset[tuple[str, str]], game_id: str, language: str) -> tuple[str, ...]:
    """The formats a module writes a sheet in: all of them if ``printed``, else all but PDF."""
    if (game_id, language) in printed:
        return FORMATS
    return tuple(fmt for fmt in FORMATS if fmt != "pdf")


def write_sheets(
    sheets: Mapping[tuple[str, str], RuleSheet], printed: frozenset[tuple[str, str]], folder: Path
) -> dict[tuple[str, str], list[list[str]]]:
    """Write each sheet, by (game, language), into ``folder`` in :func:`formats_of` its key;
    the page breaks of each sheet printed, read from the layout its PDF is written from."""
    breaks = {}
    for key, sheet in sheets.items():
        with page_breaks_read() as read:
            for fmt in formats_of(printed, *key):
                write_rule_sheet(sheet, fmt, folder)
        if key in printed:
            breaks[key] = read
    return breaks


def break_problems_of(page_breaks, games, language: str) -> list[str]:
    """The problems of each game's printed sheet in ``language``, named by game, from what
    :func:`page_breaks_read` read while the sheets were written (``page_breaks``: (game,
    language) -> its list, for the printed sheets); each sheet printed must have been laid out
    exactly once, for its PDF."""
    printed = [game_id for game_id in games if (game_id, language) in page_breaks]
    assert printed, language  # every language is printed
    for game_id in printed:
        assert len(page_breaks[game_id, language]) == 1, game_id  # one layout: the PDF's
    return [
        f"{game_id}: {problem}"
        for game_id in printed
        for problem in page_breaks[game_id, language][0]
    ]
