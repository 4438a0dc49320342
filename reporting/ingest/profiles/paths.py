"""Field paths of a log profile: where a value sits in a provider's JSON record.

A path is keys separated by dots, a key in double quotes when it holds anything but letters,
digits, ``_``, ``-``, ``$`` or ``@`` (``gameplay.".BaccaratGameplay".betEndDate``), and
``[]`` after a key for each element of the array it holds (``playersBets[].bets[].betId``).

A bet's fields are written from the round, through the same ``[]`` steps as the profile's
``bets`` path: ``playersBets[].playerId`` is read on the player entry the bet sits in, and a
path with no ``[]`` is read on the round (a currency given once per round). A round field
may go through ``[]`` too (``playersBets[].tileId``): every value found must then be the
same.

>>> parse_path("playersBets[].bets[].betId")
FieldPath(text='playersBets[].bets[].betId', steps=('playersBets', EACH, 'bets', EACH, 'betId'))
>>> parse_path('gameplay.".BaccaratGameplay".betEndDate').steps
('gameplay', '.BaccaratGameplay', 'betEndDate')
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

__all__ = [
    "ABSENT",
    "EACH",
    "FieldPath",
    "PathError",
    "getter",
    "parse_path",
    "values_at",
]


class _Each:
    """The ``[]`` step: each element of an array."""

    def __repr__(self) -> str:
        return "EACH"

    def __reduce__(self) -> str:  # one object, also across a pickle to the reading process
        return "EACH"


EACH: Any = _Each()
#: What a path finds where the record holds nothing (a key missing, or not an object).
ABSENT: Any = type("Absent", (), {"__repr__": lambda self: "ABSENT"})()

_KEY = re.compile(r'([A-Za-z0-9_$@-]+)|("(?:[^"\\]|\\.)*")')
#: Steps of one path of a profile (``gameplay.playerHand.cards`` has three): a real export's
#: record is a few levels deep; a path of thousands of steps is a typing accident, refused
#: where the profile is read.
MAX_PATH_STEPS = 32


class PathError(ValueError):
    """A path a profile cannot use, with what is wrong in it."""


@dataclass(frozen=True, slots=True)
class FieldPath:
    """A parsed path: its text as written and its steps (keys, and EACH for ``[]``)."""

    text: str
    steps: tuple[Any, ...]

    @property
    def each_steps(self) -> int:
        """How many ``[]`` steps the path holds."""
        return sum(step is EACH for step in self.steps)

    @property
    def through_last_each(self) -> tuple[Any, ...]:
        """The steps up to its last ``[]`` included (none for a path without one)."""
        if EACH not in self.steps:
            return ()
        return self.steps[: len(self.steps) - self.steps[::-1].index(EACH)]

    @property
    def after_last_each(self) -> tuple[Any, ...]:
        """The steps after its last ``[]`` (all of them for a path without one)."""
        return self.steps[len(self.through_last_each) :]

    def __str__(self) -> str:
        return self.text


def parse_path(text: str) -> FieldPath:
    """A path's steps; :class:`PathError` saying where it goes wrong."""
    steps: list[Any] = []
    position = 0
    while True:
        match = _KEY.match(text, position)
        if match is None:
            raise PathError(f"expected a key at character {position + 1} of {text!r}")
        bare, quoted = match.groups()
        if quoted is not None:
            try:
                key = json.loads(quoted)
                key.encode("utf-8")  # a lone surrogate escape (\ud800) names no key of a JSON text
            except ValueError:  # UnicodeEncodeError among them
                raise PathError(f"bad quoted key {quoted} in {text!r}") from None
        else:
            key = bare
        steps.append(key)
        position = match.end()
        while text.startswith("[]", position):
            steps.append(EACH)
            position += 2
        if position == len(text):
            break
        if text[position] != ".":
            raise PathError(
                f"unexpected {text[position]!r} at character {position + 1} of {text!r}"
                " (keys are separated by dots; quote a key with other characters)"
            )
        position += 1
    if len(steps) > MAX_PATH_STEPS:
        raise PathError(f"{text!r} has more than {MAX_PATH_STEPS} steps")
    return FieldPath(text, tuple(steps))


def getter(steps: tuple[Any, ...]) -> Callable[[Any], Any]:
    """A function reading the value at ``steps`` (keys only) of a record: ABSENT where a key
    is missing or a step is not an object."""
    if len(steps) == 1:
        (key,) = steps

        def get_one(record: Any) -> Any:
            if type(record) is dict:
                return record.get(key, ABSENT)
            return ABSENT

        return get_one

    def get(record: Any) -> Any:
        for key in steps:
            if type(record) is not dict:
                return ABSENT
            record = record.get(key, ABSENT)
            if record is ABSENT:
                return ABSENT
        return record

    return get


def values_at(record: Any, steps: tuple[Any, ...]) -> Iterator[Any]:
    """Every value at ``steps`` of a record, through its ``[]`` steps (arrays that are
    missing or not arrays hold nothing)."""
    if EACH not in steps:
        value = getter(steps)(record)
        if value is not ABSENT:
            yield value
        return
    split = steps.index(EACH)
    array = getter(steps[:split])(record) if split else record
    if type(array) is not list:
        return
    rest = steps[split + 1 :]
    for element in array:
        if rest:
            yield from values_at(element, rest)
        elif element is not ABSENT:
            yield element
