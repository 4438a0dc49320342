"""Field names an exporter misspelt: the known field an unknown key most likely stands for,
named in the reject so that the person fixing the export sees the slip."""

from __future__ import annotations

import functools
import re

__all__ = ["misspelt_field"]


def _spelling(name: str) -> str:
    """A field name reduced to how it sounds: lower case, no separators, a trailing
    "number"/"num"/"nr" as "no" (``Hand-Number`` and ``hand_no`` are both ``handno``)."""
    letters = re.sub(r"[^0-9a-z]", "", name.casefold())
    return re.sub(r"(?:number|num|nr)$", "no", letters)


def _one_edit_apart(first: str, second: str) -> bool:
    """Whether one letter inserted, removed, changed or two swapped turn one into the other."""
    if abs(len(first) - len(second)) > 1 or first == second:
        return False
    if len(first) == len(second):
        differ = [index for index, (a, b) in enumerate(zip(first, second, strict=True)) if a != b]
        return len(differ) == 1 or (
            len(differ) == 2
            and differ[1] == differ[0] + 1
            and first[differ[0]] == second[differ[1]]
            and first[differ[1]] == second[differ[0]]
        )
    shorter, longer = sorted((first, second), key=len)
    return any(longer[:index] + longer[index + 1 :] == shorter for index in range(len(longer)))


def misspelt_field(name: str, known: tuple[str, ...]) -> str | None:
    """The known field an unknown key is most likely a misspelling of, or None.

    A key is taken for a misspelling when it is spelt the same but for case, separators and
    "number" for "no" (``shoeid``, ``Shoe-ID``, ``hand_number``), or when it is one typing
    slip from a known name of 5 letters or more (``stakes``, ``palced_at``). Shorter names
    (``game``, ``type``) are not guessed at: ``name`` or ``tape`` may be an exporter's own.

    >>> from reporting.ingest.validation import BET_FIELDS, ROUND_FIELDS
    >>> misspelt_field("shoeid", ROUND_FIELDS), misspelt_field("hand_number", ROUND_FIELDS)
    ('shoe_id', 'hand_no')
    >>> misspelt_field("stakes", BET_FIELDS), misspelt_field("dealer", ROUND_FIELDS)
    ('stake', None)
    """
    if name in known or len(name) > 2 * max(map(len, known)):  # too long to be a slip
        return None
    return _misspelt_field(name, known)


@functools.lru_cache(maxsize=1024)  # an exporter's extra keys repeat on every line
def _misspelt_field(name: str, known: tuple[str, ...]) -> str | None:
    spelling = _spelling(name)
    for field in known:
        field_spelling = _spelling(field)
        if spelling == field_spelling or (
            len(field_spelling) >= 5 and _one_edit_apart(spelling, field_spelling)
        ):
            return field
    return None
