"""Tables for the terminal: :class:`FoldingTable`, a rich table that folds instead of cutting.

Its own module because it subclasses :class:`rich.table.Table`: only a command that prints a
table imports it (and rich), when it runs; ``--help`` does not.
"""

from __future__ import annotations

from typing import Any

from rich.cells import cell_len
from rich.table import Table
from rich.text import Text

__all__ = ["READABLE_TEXT_WIDTH", "FoldingTable"]

#: Narrowest a folding text column is let become before numbers fold too.
READABLE_TEXT_WIDTH = 6


class FoldingTable(Table):
    """A rich table for narrow terminals that never ellipsizes or crops: used like
    :class:`rich.table.Table`, its right-justified columns are numbers.

    When the table is wider than the terminal, text columns (ids, names) give up width first,
    down to :data:`READABLE_TEXT_WIDTH`, folding onto more lines; then numbers wrap between
    their words (``191,882 (191,881)`` on two lines), never inside one; only when even that
    does not fit do all columns fold, still losing no character.
    """

    def add_column(self, header="", footer="", *, justify="left", **options) -> None:  # type: ignore[override]
        """As :meth:`Table.add_column`; ``overflow="fold"``, and ``no_wrap`` for numbers."""
        options.setdefault("overflow", "fold")
        options.setdefault("no_wrap", justify == "right")
        super().add_column(header, footer, justify=justify, **options)

    def __rich_console__(self, console, options):
        self._fit(options.max_width)
        yield from super().__rich_console__(console, options)

    def _fit(self, max_width: int) -> None:
        """Give each column a fixed width so that the table fits ``max_width`` (rich's own
        narrowing would crop the columns that do not wrap)."""
        columns = self.columns
        widths = [_natural_width(column) for column in columns]
        if sum(widths) <= self._room(max_width):
            return
        text = [index for index, column in enumerate(columns) if not column.no_wrap]
        numbers = [index for index, column in enumerate(columns) if column.no_wrap]
        readable = [min(width, READABLE_TEXT_WIDTH) for width in widths]
        whole = [_longest_word(column) for column in columns]
        folded = [1] * len(columns)
        stages = ((text, readable), (numbers, whole), ("padding", None), (text, folded))
        for group, floors in (*stages, (text + numbers, folded)):
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


def _natural_width(column) -> int:
    """The widest cell (or header) on one line."""
    return max((_cell_width(cell) for cell in (column.header, *column.cells)), default=1)


def _longest_word(column) -> int:
    """The widest word of any cell: a number is not split below this (a header may be)."""
    words = (word for cell in column.cells for word in _plain(cell).split())
    return max((cell_len(word) for word in words), default=1)


def _plain(cell: Any) -> str:
    return cell.plain if isinstance(cell, Text) else str(cell)


def _cell_width(cell: Any) -> int:
    return cell_len(_plain(cell))
