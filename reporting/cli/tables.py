"""Tables for the terminal: :class:`FoldingTable`, a rich table that wraps between words
instead of cutting.

Its own module because it subclasses :class:`rich.table.Table`: only a command that prints a
table imports it (and rich), when it runs; ``--help`` does not.
"""

from __future__ import annotations

from typing import Any

from rich.cells import cell_len
from rich.table import Table
from rich.text import Text

__all__ = ["FoldingTable"]


class FoldingTable(Table):
    """A rich table for narrow terminals that never ellipsizes, crops or splits a word: used
    like :class:`rich.table.Table`, its right-justified columns are numbers.

    A word is whatever a cell or a header holds between spaces: an id (``live-baccarat-dk``,
    ``banker_pair``), a figure (``191,882``, ``(191,881)``), a header word (``Chi-square``).
    When the table is wider than the terminal, text columns wrap between their words first,
    then numbers (``191,882 (191,881)`` on two lines), then the padding narrows; only when
    even the longest words do not fit side by side do they fold, still losing no character:
    text first (a long file name), then numbers, and the columns of ids (``identifier=True``:
    games, tables, bets) last. A column with nothing in it, header included, is not drawn. Its
    title is a line of its own above it, wrapped at the terminal's width, not the table's.
    """

    def __init__(self, *headers, **options) -> None:
        self._identifiers: set[int] = set()  # the id() of each column of ids
        super().__init__(*headers, **options)

    def add_column(  # type: ignore[override]
        self, header="", footer="", *, justify="left", identifier: bool = False, **options
    ) -> None:
        """As :meth:`Table.add_column`; ``overflow="fold"``, and ``no_wrap`` for numbers.
        ``identifier``: the column holds ids, folded only when nothing else can give way."""
        options.setdefault("overflow", "fold")
        options.setdefault("no_wrap", justify == "right")
        super().add_column(header, footer, justify=justify, **options)
        if identifier:
            self._identifiers.add(id(self.columns[-1]))

    def __rich_console__(self, console, options):
        self.columns = [column for column in self.columns if _holds_text(column)]
        for index, column in enumerate(self.columns):
            column._index = index
        self._fit(options.max_width)
        # The title on a line of its own, as wide as the terminal: rich's would wrap at the
        # table's width ("Verify, month 2026-10: 2" over "rounds, 2 bets" above a narrow one).
        title, self.title = self.title, None
        try:
            if title:
                heading = console.render_str(title, style="table.title", highlight=False)
                heading.justify = "default" if self.title_justify == "left" else self.title_justify
                yield heading
            yield from super().__rich_console__(console, options)
        finally:
            self.title = title

    def _fit(self, max_width: int) -> None:
        """Give each column a fixed width so that the table fits ``max_width`` (rich's own
        narrowing would crop the columns that do not wrap, and fold words)."""
        columns = self.columns
        widths = [_natural_width(column) for column in columns]
        if sum(widths) <= self._room(max_width):
            return
        ids = [index for index, column in enumerate(columns) if id(column) in self._identifiers]
        text = [index for index, column in enumerate(columns) if not column.no_wrap]
        numbers = [index for index, column in enumerate(columns) if column.no_wrap]
        prose = [index for index in text if index not in ids]
        whole = [_longest_word(column) for column in columns]
        folded = [1] * len(columns)
        stages = ((text, whole), (numbers, whole), ("padding", None), (prose, folded))
        for group, floors in (*stages, (prose + numbers, folded), (text + numbers, folded)):
            if group == "padding":
                self.padding = (0, 1, 0, 0)  # one space between columns instead of two
            else:
                _narrow(widths, group, floors, self._room(max_width))
            if sum(widths) <= self._room(max_width):
                break
        for column, width in zip(columns, widths, strict=True):
            column.width = width
            column.no_wrap = False

    def _room(self, max_width: int) -> int:
        """The width left for the cells' text once borders and padding are drawn."""
        padding = sum(self._get_padding_width(index) for index in range(len(self.columns)))
        return max_width - self._extra_width - padding


def _narrow(widths: list[int], group: list[int], floors: list[int], room: int) -> None:
    """Take width from the widest column of ``group`` above its floor, one cell at a time,
    until the widths fit ``room`` or the group is at its floors."""
    while sum(widths) > room:
        above = [index for index in group if widths[index] > floors[index]]
        if not above:
            return
        widths[max(above, key=lambda index: widths[index])] -= 1


def _holds_text(column) -> bool:
    """Whether the header or a cell of ``column`` shows anything."""
    return any(_plain(cell).strip() for cell in (column.header, *column.cells))


def _natural_width(column) -> int:
    """The widest cell (or header) on one line."""
    return max((_cell_width(cell) for cell in (column.header, *column.cells)), default=1)


def _longest_word(column) -> int:
    """The widest word of the header or of any cell: the column is not narrowed below it
    until nothing else gives way."""
    words = (word for cell in (column.header, *column.cells) for word in _plain(cell).split())
    return max((cell_len(word) for word in words), default=1)


def _plain(cell: Any) -> str:
    return cell.plain if isinstance(cell, Text) else str(cell)


def _cell_width(cell: Any) -> int:
    return cell_len(_plain(cell))
