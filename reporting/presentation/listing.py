"""What a list of a page shows: its first items up to a bound, and how many it leaves out
(the audit report names the rest's count and where every one is)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple, TypeVar

__all__ = ["Shown", "first_of"]

_Item = TypeVar("_Item")


def first_of(
    items: Sequence[_Item], bound: int, key: Callable[[_Item], Any] | None = None
) -> tuple[_Item, ...]:
    """The first ``bound`` of ``items`` (by ``key`` when given, the first of equals first), in
    the order of ``items``: what a list of the report shows, the rest counted."""
    if key is None or len(items) <= bound:
        return tuple(items[:bound])
    chosen = sorted(range(len(items)), key=lambda index: key(items[index]))[:bound]
    return tuple(items[index] for index in sorted(chosen))


class Shown(NamedTuple):
    """What a list of the report shows (:func:`first_of` of it) and how many it leaves out."""

    items: tuple
    left_out: int

    @classmethod
    def of(
        cls, items: Sequence[_Item], bound: int, key: Callable[[_Item], Any] | None = None
    ) -> Shown:
        shown = first_of(items, bound, key)
        return cls(shown, len(items) - len(shown))
