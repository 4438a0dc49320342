"""What every workbook of the tool shares: safe text cells, A4 printing, pinned properties.

Both XLSX writers build on this: :mod:`.rulesheet_xlsx` (a rule sheet, in its language) and
:mod:`.audit_xlsx` (the audit workbook, its long sheets streamed from the store). Each keeps its own look (fonts,
fills, row-height estimates); what is here is what a workbook must do to be trusted:

* text stays text: a string is stored as a string cell, so ``=HYPERLINK(...)`` from a round
  log never becomes a formula and ``#N/A`` never an error value (:func:`put_value`), and
  characters XML cannot hold are escaped (:func:`cell_text`);
* print header and footer text is escaped, since ``&`` starts a code there (:func:`header_text`),
  and written as escaped (openpyxl would turn an escaped ``&&[Page]`` into a page number);
* every sheet prints on A4, one page wide (:func:`set_up_printing`);
* the same inputs give the same bytes: the document dates are the as-of date
  (:func:`pin_properties`), and every zip entry carries it too
  (:func:`save_workbook`, :func:`workbook_bytes`).
"""

from __future__ import annotations

import io
import os
import re
import shutil
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import BinaryIO

from openpyxl import Workbook
from openpyxl.cell.cell import Cell
from openpyxl.utils import get_column_letter
from openpyxl.utils.escape import escape
from openpyxl.worksheet.header_footer import HeaderFooterItem
from openpyxl.worksheet.properties import PageSetupProperties
from openpyxl.worksheet.worksheet import Worksheet
from openpyxl.writer.excel import ExcelWriter

from reporting.errors import visible

__all__ = [
    "FONT",
    "save_workbook",
    "HEADER_LIMIT",
    "LINE_HEIGHT",
    "SHEET_ROWS",
    "TEXT_LIMIT",
    "Margins",
    "cell_text",
    "header_text",
    "pin_properties",
    "put_value",
    "set_column_widths",
    "set_up_printing",
    "workbook_bytes",
]

#: The one font of every workbook, named in every cell style (a style without a name shows
#: in another application's default face, often a serif one, beside Calibri).
FONT: dict = {"name": "Calibri", "family": 2, "size": 11}

#: Most characters a text cell holds (Excel's limit is 32,767).
TEXT_LIMIT = 32_000
#: Most characters of one part of a print header or footer (Excel allows 255 in all).
HEADER_LIMIT = 200
#: Rows a sheet holds (Excel's and LibreOffice's limit): past it LibreOffice drops the rows
#: without a word and Excel repairs the file. A table longer than its sheet lists what fits,
#: then says how many rows it leaves out and where they are.
SHEET_ROWS = 1_048_576
#: Points per line of 11-point text.
LINE_HEIGHT = 15.0

# What XML 1.0 cannot hold of what :func:`reporting.errors.visible` leaves (the two
# non-characters): shown as their escapes (controls and lone surrogates are visible's, a byte
# of a name that is not UTF-8 shown as a page shows it).
_NOT_XML = re.compile("[\ufffe\uffff]")


def cell_text(value: object, limit: int = TEXT_LIMIT) -> str:
    """Untrusted text as a cell can hold it and a reader sees it: characters XML refuses, and
    those that would reorder or hide what is read (bidirectional overrides, zero-width
    spaces: :func:`reporting.errors.visible`), are escaped; long text cut.

    >>> cell_text("bell\\x07 ok")
    'bell\\\\x07 ok'
    >>> cell_text("r\\udcff") == visible("r\\udcff") == "r\\\\xff"  # as a page shows it
    True
    >>> cell_text("x" * 50, limit=40)
    'xxxxxxxxxxx… [cut: 50 characters in all]'
    """

    text = _NOT_XML.sub(lambda match: f"\\u{ord(match[0]):04x}", visible(str(value)))
    if len(text) > limit:
        marker = f"… [cut: {len(text):,} characters in all]"
        text = text[: limit - len(marker)] + marker
    return text


def put_value(cell: Cell, value: object) -> Cell:
    """Store a value in a cell; a string always as text, whatever it starts with; a Decimal
    (an amount, a rate) as a number written with its own digits.

    openpyxl writes a number through ``"%.16g"``, a binary float: 70017.35 was written as
    70017.35000000001 and 0.8564 as 0.8564000000000001 in the file, figures that do not add
    up to the exact ones of the report and ``--json``. A Decimal's cell keeps the number's
    type (``n``) and holds its exact text, which openpyxl writes as it is."""
    cell.value = value
    if isinstance(value, str):
        # openpyxl reads "=..." as a formula and "#N/A" as an error: force a string.
        cell.data_type = "s"
    elif isinstance(value, Decimal) and value.is_finite():
        cell._value = format(value, "f")  # noqa: SLF001 (the text of the <v> openpyxl writes)
    return cell


def header_text(text: str) -> str:
    """Text for a print header or footer, or a document property: ``&`` starts a code in a
    header, so it is doubled (after the cut, so that no ``&&`` is split).

    >>> header_text("Rock & Roll")
    'Rock && Roll'
    """
    return cell_text(text, HEADER_LIMIT).replace("&", "&&")


def set_column_widths(sheet: Worksheet, widths: Sequence[float]) -> None:
    """Column widths, in characters, from column A on."""
    for index, width in enumerate(widths, start=1):
        sheet.column_dimensions[get_column_letter(index)].width = width


class _LiteralHeaderFooter(HeaderFooterItem):
    """A print header or footer written as its parts hold it. openpyxl's own item rewrites
    ``&[Page]``, ``&[Date]`` and their kin into codes wherever they occur, the ``&[Page]``
    inside an escaped ``&&[Page]`` too: an operator named "A &[Page] B" printed "A &1 B".
    A line break stays one, as Excel writes it (openpyxl's escape writes it ``_x000a_``, which
    a header prints as those seven characters)."""

    def __str__(self) -> str:
        parts = zip("LCR", (self.left, self.center, self.right), strict=True)
        text = "".join(f"&{key}{part}" for key, part in parts if part.text is not None)
        return "\n".join(escape(line) for line in text.split("\n"))


@dataclass(frozen=True, slots=True)
class Margins:
    """Print margins, in inches."""

    sides: float  # left and right
    top_bottom: float
    header_footer: float  # from the paper's edge to the header and to the footer


def set_up_printing(
    sheet: Worksheet,
    *,
    orientation: str,
    margins: Margins,
    header: Sequence[str | None],
    footer_left: str,
    page_count: str,
) -> None:
    """Print on A4, one page wide and as many tall as needed, with a header and a footer.

    ``header`` is the left, centre and right text (None: nothing there), escaped here, as is
    ``footer_left``; ``page_count`` goes on the footer's right as it is, its ``&P`` (page) and
    ``&N`` (pages) codes kept.
    """
    sheet.page_setup.paperSize = Worksheet.PAPERSIZE_A4
    sheet.page_setup.orientation = orientation
    sheet.page_setup.fitToWidth = 1
    sheet.page_setup.fitToHeight = 0
    sheet.sheet_properties.pageSetUpPr = PageSetupProperties(fitToPage=True)
    page = sheet.page_margins
    page.left = page.right = margins.sides
    page.top = page.bottom = margins.top_bottom
    page.header = page.footer = margins.header_footer
    sheet.HeaderFooter.oddHeader = _LiteralHeaderFooter()
    sheet.HeaderFooter.oddFooter = _LiteralHeaderFooter()
    parts = (sheet.oddHeader.left, sheet.oddHeader.center, sheet.oddHeader.right)
    for part, text in zip(parts, header, strict=True):
        if text is not None:
            part.text = header_text(text)
    sheet.oddFooter.left.text = header_text(footer_left)
    sheet.oddFooter.right.text = page_count


def pin_properties(workbook: Workbook, *, as_of: date, tool_version: str, title: str) -> None:
    """The document properties: created and modified at midnight of the as-of date (UTC, as
    openpyxl assumes), made by this tool's version, and the title as given."""
    midnight = datetime(as_of.year, as_of.month, as_of.day)
    properties = workbook.properties
    properties.created = properties.modified = midnight
    properties.creator = f"baccarat-report {tool_version}"
    properties.lastModifiedBy = None
    properties.title = title


def workbook_bytes(workbook: Workbook, as_of: date) -> bytes:
    """The workbook's file, every zip entry dated ``as_of``: the same workbook, the same bytes."""
    buffer = io.BytesIO()
    save_workbook(workbook, buffer, as_of)
    return buffer.getvalue()


class _PinnedZipFile(zipfile.ZipFile):
    """A zip archive whose entries all carry one fixed time and fixed attributes.

    openpyxl adds entries with ``writestr(name, data)`` (stamped with the clock) and
    ``write(path, name)`` (stamped with the temporary file's time): both are pinned here.
    """

    def __init__(self, file: BinaryIO, date_time: tuple[int, int, int, int, int, int]):
        super().__init__(file, "w", zipfile.ZIP_DEFLATED, allowZip64=True)
        self.pinned_time = date_time

    def _entry(self, name: str) -> zipfile.ZipInfo:
        entry = zipfile.ZipInfo(name, self.pinned_time)
        entry.compress_type = zipfile.ZIP_DEFLATED
        entry.create_system = 3  # Unix, as zipfile records on Linux and macOS
        entry.external_attr = 0o644 << 16
        return entry

    def writestr(self, zinfo_or_arcname, data, compress_type=None, compresslevel=None):
        if isinstance(zinfo_or_arcname, str):
            zinfo_or_arcname = self._entry(zinfo_or_arcname)
        super().writestr(zinfo_or_arcname, data, compress_type, compresslevel)

    def write(self, filename, arcname=None, compress_type=None, compresslevel=None):
        entry = self._entry(arcname or os.path.basename(filename))
        entry.file_size = os.path.getsize(filename)
        with open(filename, "rb") as source, self.open(entry, "w") as target:
            shutil.copyfileobj(source, target, 1 << 20)


def save_workbook(workbook: Workbook, handle: BinaryIO, day: date) -> None:
    """Save an openpyxl workbook into ``handle`` with every zip entry dated ``day``.

    ``Workbook.save`` stamps the modification time with the clock; driving its
    ``ExcelWriter`` directly keeps the properties the caller pinned.
    """
    pinned = (day.year, day.month, day.day, 0, 0, 0)
    archive = _PinnedZipFile(handle, pinned)
    try:
        ExcelWriter(workbook, archive).save()
    except BaseException:
        # An archive left unfinished (a full disk) forgets its file: collected later, it
        # wrote its directory into the handle its caller had closed, and Python printed
        # the error ("Exception ignored in ZipFile.__del__") under the run's own line.
        archive.fp = None
        raise
