"""Whether two games' table patterns (``LB-*``, ``*IT*``: ``*``, ``?`` and ``[...]`` as the
shell's, matched case-sensitively) can both match one table id, and such an id; and the games
a table id is listed for (:class:`TableOwners`).

A log that names no game is read by its table (:class:`reporting.ingest.profiles.mapping.
TableGames`): a table two games' patterns both match, and that no game lists exactly, is no
game's, and each of its rounds is rejected. Two patterns meet on a table exactly when the
languages they match share a word; the search walks both patterns at once (a ``*`` may stay
or move on), over the characters they name and one they do not, and returns the shortest
such word.

>>> common_table("LB-*", "*IT*")
'LB-IT'
>>> common_table("LB-??", "MB-*") is None
True
>>> common_table("T[0-4]", "T[!0-2]")
'T3'
"""

from __future__ import annotations

import fnmatch
import itertools
import re
from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

__all__ = ["TABLE_CACHE_LIMIT", "TableOwners", "common_table", "is_pattern"]

#: Characters of table ids :class:`TableOwners` remembers before it starts afresh: a run meets
#: few tables, a hostile log many (a long id is looked up again each time).
TABLE_CACHE_LIMIT = 1_000_000


def is_pattern(table: str) -> bool:
    """Whether a table of a game's ``tables`` is a pattern (one with ``*`` or ``?``; its
    ``[...]`` then a class), else an exact id."""
    return "*" in table or "?" in table


@dataclass(frozen=True, slots=True)
class _Class:
    """One character a pattern takes: one of ``chars`` (any but them when ``negated``)."""

    chars: frozenset[str]
    negated: bool = False

    def takes(self, char: str) -> bool:
        return (char in self.chars) != self.negated


_ANY = _Class(frozenset(), negated=True)
_STAR = None  # any run of characters, none included


def _parsed(pattern: str) -> list[_Class | None]:
    """The pattern as characters to take and stars, as :mod:`fnmatch` reads it (a ``[``
    without its ``]`` is a ``[``)."""
    parts: list[_Class | None] = []
    index = 0
    while index < len(pattern):
        char = pattern[index]
        index += 1
        if char == "*":
            if not parts or parts[-1] is not _STAR:
                parts.append(_STAR)
        elif char == "?":
            parts.append(_ANY)
        elif char == "[" and (end := _closing(pattern, index)) is not None:
            body, index = pattern[index:end], end + 1
            negated = body.startswith("!")
            parts.append(_Class(_members(body[1:] if negated else body), negated))
        else:
            parts.append(_Class(frozenset(char)))
    return parts


def _closing(pattern: str, index: int) -> int | None:
    """Where the ``]`` closing a class opened just before ``index`` stands, or None (then the
    ``[`` is itself): a ``]`` first in the class (after a ``!``) is one of its members."""
    start = index + (pattern[index : index + 1] == "!")
    start += pattern[start : start + 1] == "]"
    end = pattern.find("]", start)
    return None if end == -1 else end


def _members(body: str) -> frozenset[str]:
    """The characters of a ``[...]`` body, its ranges (``a-z``) spelt out."""
    chars: set[str] = set()
    index = 0
    while index < len(body):
        if index + 2 < len(body) and body[index + 1] == "-":
            first, last = ord(body[index]), ord(body[index + 2])
            # a range is spelt out: a table id's are a few dozen characters ([A-Z0-9]), and one
            # of the whole of Unicode would be a million (its first 4,096 stand for it: a
            # witness is found among them as readily)
            chars.update(chr(code) for code in range(first, min(last, first + 4096) + 1))
            index += 3
        else:
            chars.add(body[index])
            index += 1
    return frozenset(chars)


def common_table(first: str, second: str) -> str | None:
    """The shortest table id both patterns match, or None when no id matches both."""
    a, b = _parsed(first), _parsed(second)
    named = {char for part in (*a, *b) if part is not None for char in part.chars}
    unnamed = next(chr(code) for code in itertools.count(ord("X")) if chr(code) not in named)
    alphabet = [*sorted(named), unnamed]
    # A state: where each pattern stands, and whether a character was taken (a table id is
    # never empty, though two stars meet on the empty word).
    start = (0, 0, False)
    came_from: dict[tuple[int, int, bool], tuple[tuple[int, int, bool], str] | None] = {start: None}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        i, j, taken = state
        if i == len(a) and j == len(b) and taken:
            word = []
            while came_from[state] is not None:
                state, char = came_from[state]  # type: ignore[misc]
                word.append(char)
            return "".join(reversed(word))
        moves = []
        if i < len(a) and a[i] is _STAR:
            moves.append(((i + 1, j, taken), ""))
        if j < len(b) and b[j] is _STAR:
            moves.append(((i, j + 1, taken), ""))
        if i < len(a) and j < len(b):
            for char in alphabet:
                step_a = _step(a[i], char, i)
                step_b = _step(b[j], char, j)
                if step_a is not None and step_b is not None:
                    moves.append(((step_a, step_b, True), char))
        for target, char in moves:
            if target not in came_from:
                came_from[target] = (state, char)
                # a move that takes no character is searched first: the word stays shortest
                (queue.appendleft if not char else queue.append)(target)
    return None


def _step(part: _Class | None, char: str, index: int) -> int | None:
    """Where a pattern goes from ``index`` on taking ``char``: a star stays, a class moves
    on; None if it cannot take it."""
    if part is _STAR:
        return index
    return index + 1 if part.takes(char) else None


class TableOwners:
    """The configured games a table id is listed for, by the games' ``tables``: the game that
    lists it exactly, else every game one of whose patterns matches it (two only where
    ``check`` refuses the configuration); matched as written, case and spaces included.
    Looked up once per table id, up to :data:`TABLE_CACHE_LIMIT` characters of them."""

    def __init__(self, tables: Mapping[str, Iterable[str]]):
        self._exact: dict[str, tuple[str, ...]] = {}
        self._patterns: list[tuple[re.Pattern[str], str]] = []
        for game_id, listed in tables.items():
            for table in listed:
                if is_pattern(table):
                    self._patterns.append((re.compile(fnmatch.translate(table)), game_id))
                else:
                    self._exact[table] = tuple(sorted({*self._exact.get(table, ()), game_id}))
        self._seen: dict[str, tuple[str, ...]] = {}
        self._seen_chars = 0

    def __bool__(self) -> bool:
        """Whether any game lists a table."""
        return bool(self._exact or self._patterns)

    def of(self, table: str) -> tuple[str, ...]:
        """The games ``table`` is listed for, sorted; () for none."""
        found = self._seen.get(table)
        if found is None:
            found = self._exact.get(table) or tuple(
                sorted({game for pattern, game in self._patterns if pattern.match(table)})
            )
            if self._seen_chars + len(table) > TABLE_CACHE_LIMIT:
                self._seen.clear()
                self._seen_chars = 0
            if len(table) <= TABLE_CACHE_LIMIT:
                self._seen[table] = found
                self._seen_chars += len(table)
        return found
