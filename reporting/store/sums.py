"""Sums of stored cents that SQLite cannot overflow.

SQLite's ``sum()`` of INTEGER values stops with "integer overflow" past 2**63 - 1. No real month
comes near it, but ingest takes each amount up to ``reporting.config.values.MAX_CENTS``, and
some ninety-three thousand hostile bets of that size would pass it: every later report of
their month would then stop. So a money column is summed in two halves, its high bits and its
low bits, each of which stays far below the limit, and the two are joined in Python, whose
integers do not overflow: the total is exact whatever the amounts.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

__all__ = ["LOW_BITS", "SAFE_ROWS", "joined", "joined_columns", "split_sum"]

#: The bits of an amount summed in its low half; the rest are summed in its high half.
LOW_BITS = 32
_LOW_MASK = (1 << LOW_BITS) - 1
#: Rows one sum may add before either half could pass 2**63 - 1, however large each amount (a
#: stored amount is a non-negative 64-bit integer: each half is below 2**32).
SAFE_ROWS = 2**31


def split_sum(column: str, name: str | None = None) -> str:
    """Two aggregates of the SQL expression ``column`` (non-negative INTEGER cents), its high
    half's sum then its low half's, for :func:`joined` to make one exact total; named
    ``{name}_high`` and ``{name}_low`` if ``name`` is given (see :func:`joined_columns`)."""
    high, low = f"sum(({column}) >> {LOW_BITS})", f"sum(({column}) & {_LOW_MASK})"
    return f"{high}, {low}" if name is None else f"{high} AS {name}_high, {low} AS {name}_low"


def joined(high: int | None, low: int | None) -> int:
    """The exact total of the two sums of :func:`split_sum` (0 where there was no row)."""
    return ((high or 0) << LOW_BITS) + (low or 0)


def joined_columns(
    columns: Sequence[str], rows: Iterable[Sequence], names: Sequence[str]
) -> tuple[tuple[str, ...], Iterator[tuple]]:
    """A query's column names and rows with each pair ``X_high``, ``X_low`` of
    :func:`split_sum` named ``X`` in ``names`` made the one column ``X``, its exact total."""
    pairs = [columns.index(f"{name}_high") for name in names]
    if any(columns[index + 1] != f"{name}_low" for index, name in zip(pairs, names, strict=True)):
        raise ValueError(f"the halves of {names} are not side by side in {columns}")
    merged_names = list(columns)
    for index in sorted(pairs, reverse=True):
        merged_names[index : index + 2] = [columns[index][: -len("_high")]]

    def merged(row: Sequence) -> tuple:
        values = list(row)
        for index in sorted(pairs, reverse=True):
            values[index : index + 2] = [joined(values[index], values[index + 1])]
        return tuple(values)

    return tuple(merged_names), map(merged, rows)
