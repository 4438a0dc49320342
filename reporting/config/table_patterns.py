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

import bisect
import fnmatch
import itertools
import re
from collections import deque
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

__all__ = [
    "MAX_SEARCH_STEPS",
    "TABLE_CACHE_LIMIT",
    "Clash",
    "SearchBudget",
    "SearchTooLong",
    "TableOwners",
    "clashes",
    "common_table",
    "is_pattern",
]

#: Characters of table ids :class:`TableOwners` remembers before it starts afresh: a run meets
#: few tables, a hostile log many (a long id is looked up again each time).
TABLE_CACHE_LIMIT = 1_000_000


def is_pattern(table: str) -> bool:
    """Whether a table of a game's ``tables`` is a pattern (one with ``*`` or ``?``; its
    ``[...]`` then a class), else an exact id."""
    return "*" in table or "?" in table


#: Code points, the whole of Unicode: a class is a tuple of ranges ``(first, last)`` of them.
_LAST = 0x10FFFF
_Ranges = tuple[tuple[int, int], ...]


def _complement(ranges: _Ranges) -> _Ranges:
    """The code points not in ``ranges`` (sorted, apart)."""
    outside, start = [], 0
    for first, last in ranges:
        if first > start:
            outside.append((start, first - 1))
        start = last + 1
    if start <= _LAST:
        outside.append((start, _LAST))
    return tuple(outside)


def _merged(ranges: Iterable[tuple[int, int]]) -> _Ranges:
    """``ranges`` sorted, overlapping and adjacent ones joined."""
    merged: list[tuple[int, int]] = []
    for first, last in sorted(ranges):
        if merged and first <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(merged[-1][1], last))
        else:
            merged.append((first, last))
    return tuple(merged)


def _common(first: _Ranges, second: _Ranges) -> _Ranges:
    """The code points in both (each sorted, apart)."""
    both, i, j = [], 0, 0
    while i < len(first) and j < len(second):
        low = max(first[i][0], second[j][0])
        high = min(first[i][1], second[j][1])
        if low <= high:
            both.append((low, high))
        if first[i][1] < second[j][1]:
            i += 1
        else:
            j += 1
    return tuple(both)


_ANY: _Ranges = ((0, _LAST),)
_STAR = None  # any run of characters, none included


@lru_cache(maxsize=4096)
def _parsed(pattern: str) -> tuple[_Ranges | None, ...]:
    """The pattern as the characters each place takes (ranges of code points) and stars, as
    :mod:`fnmatch` reads it (a ``[`` without its ``]`` is a ``[``). Cached: :func:`clashes`
    reads each pattern's ends, then searches it against each candidate."""
    parts: list[_Ranges | None] = []
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
            members = _members(body[1:] if negated else body)
            parts.append(_complement(members) if negated else members)
        else:
            parts.append(((ord(char), ord(char)),))
    return tuple(parts)


def _closing(pattern: str, index: int) -> int | None:
    """Where the ``]`` closing a class opened just before ``index`` stands, or None (then the
    ``[`` is itself): a ``]`` first in the class (after a ``!``) is one of its members."""
    start = index + (pattern[index : index + 1] == "!")
    start += pattern[start : start + 1] == "]"
    end = pattern.find("]", start)
    return None if end == -1 else end


def _members(body: str) -> _Ranges:
    """The characters of a ``[...]`` body as ranges (``a-z`` whole, however wide; a range
    whose end comes first, ``z-a``, takes none)."""
    ranges = []
    index = 0
    while index < len(body):
        if index + 2 < len(body) and body[index + 1] == "-":
            first, last = ord(body[index]), ord(body[index + 2])
            if first <= last:
                ranges.append((first, last))
            index += 3
        else:
            ranges.append((ord(body[index]), ord(body[index])))
            index += 1
    return _merged(ranges)


class SearchTooLong(Exception):
    """The searches took more steps than their :class:`SearchBudget` allowed."""


class SearchBudget:
    """The states the searches of one check may still visit, together."""

    def __init__(self, states: int):
        self.left = states

    def spend(self) -> None:
        self.left -= 1
        if self.left < 0:
            raise SearchTooLong


def common_table(first: str, second: str, budget: SearchBudget | None = None) -> str | None:
    """The shortest table id both patterns match, or None when no id matches both; each state
    the search visits is spent from ``budget`` (:class:`SearchTooLong` when it runs out)."""
    a, b = _parsed(first), _parsed(second)
    chooser = _Chooser(part for part in (*a, *b) if part is not None)
    # A state: where each pattern stands, and whether a character was taken (a table id is
    # never empty, though two stars meet on the empty word).
    start = (0, 0, False)
    came_from: dict[tuple[int, int, bool], tuple[tuple[int, int, bool], str] | None] = {start: None}
    queue = deque([start])
    while queue:
        if budget is not None:
            budget.spend()
        state = queue.popleft()
        i, j, taken = state
        if i == len(a) and j == len(b) and taken:
            word = []
            while came_from[state] is not None:
                state, char = came_from[state]  # type: ignore[misc]
                word.append(char)
            return "".join(reversed(word))
        for target, char in _moves(a, b, i, j, taken, chooser):
            if target not in came_from:
                came_from[target] = (state, char)
                # a move that takes no character is searched first: the word stays shortest
                (queue.appendleft if not char else queue.append)(target)
    return None


def _moves(
    a: tuple[_Ranges | None, ...],
    b: tuple[_Ranges | None, ...],
    i: int,
    j: int,
    taken: bool,
    chooser: _Chooser,
) -> Iterator[tuple[tuple[int, int, bool], str]]:
    """The moves from where the patterns stand: a star left behind (no character), or one
    character both places take (a star stays on it, a class moves on), with that character."""
    if i < len(a) and a[i] is _STAR:
        yield (i + 1, j, taken), ""
    if j < len(b) and b[j] is _STAR:
        yield (i, j + 1, taken), ""
    if i < len(a) and j < len(b):
        star_a, star_b = a[i] is _STAR, b[j] is _STAR
        char = chooser.char(_ANY if star_a else a[i], _ANY if star_b else b[j])
        if char is not None:
            yield (i if star_a else i + 1, j if star_b else j + 1, True), char


class _Chooser:
    """The character a move takes, of those both places allow: the first (by code point) of
    the characters the patterns name, else one they do not name, from ``X`` on."""

    def __init__(self, parts: Iterable[_Ranges]):
        named = [pair for part in parts if part != _ANY for pair in _named(part)]
        self.named = _merged(named)
        outside = _complement(self.named)
        self.unnamed = next(
            (max(first, ord("X")) for first, last in outside if last >= ord("X")),
            outside[0][0] if outside else None,
        )

    def char(self, first: _Ranges, second: _Ranges) -> str | None:
        both = _common(first, second)
        named = _common(both, self.named)
        if named:
            return chr(named[0][0])
        if self.unnamed is not None and any(low <= self.unnamed <= high for low, high in both):
            return chr(self.unnamed)
        return None


def _named(part: _Ranges) -> _Ranges:
    """The characters a place names: its own when it lists them, those it leaves out when it
    takes every character but them (``[!A]`` names ``A``)."""
    if part and part[0][0] == 0 and part[-1][1] == _LAST:
        return _complement(part)
    return part


#: States and candidates the comparison of a configuration's table patterns may visit, all
#: its games together (:func:`clashes`): a real configuration, a few patterns a game that
#: begin with their own letters (``LB-IT-*``), takes some hundreds; a thousand patterns a
#: game, tens of thousands. Past it the configuration is refused rather than compared for
#: minutes: six games of a thousand patterns that all begin with a star would be 18 million
#: pairs.
MAX_SEARCH_STEPS = 1_000_000


def clashes(patterns: Sequence[tuple[str, str]], budget: SearchBudget) -> Iterator[Clash]:
    """Each two patterns of ``patterns`` (pattern, game id; in file order) of two games that
    both match a table, the later one first, in file order, with such a table. Only the
    patterns whose literal starts and ends agree (``LB-IT-*`` and ``LB-*``, not ``LB-IT-*``
    and ``LB-DK-*``) are searched; every candidate and state is spent from ``budget``."""
    ends = [_literal_ends(pattern) for pattern, _ in patterns]
    by_start: dict[str, list[int]] = {}
    for index, (start, _) in enumerate(ends):
        by_start.setdefault(start, []).append(index)
    starts = sorted(by_start)
    for later, (pattern, game) in enumerate(patterns):
        start, end = ends[later]
        candidates: set[int] = set()
        for size in range(len(start)):  # the starts it begins with
            candidates.update(by_start.get(start[:size], ()))
        for name in itertools.islice(starts, bisect.bisect_left(starts, start), None):
            budget.spend()
            if not name.startswith(start):  # the starts that begin with it, its own included
                break
            candidates.update(by_start[name])
        for earlier in sorted(candidates):
            budget.spend()
            other, other_game = patterns[earlier]
            other_end = ends[earlier][1]
            if earlier >= later or other_game == game:
                continue
            if not (end.endswith(other_end) or other_end.endswith(end)):
                continue
            shared = common_table(other, pattern, budget)
            if shared is not None:
                yield Clash(pattern, game, other, other_game, shared)


@dataclass(frozen=True, slots=True)
class Clash:
    """Two games' patterns that both match ``table``: ``pattern`` comes later in the file."""

    pattern: str
    game: str
    other: str
    other_game: str
    table: str


def _literal_ends(pattern: str) -> tuple[str, str]:
    """The characters a pattern's matches all begin with, and all end with: those before its
    first place of more than one character (a star, ``?``, a class of several), and after
    its last."""
    parts = _parsed(pattern)
    single = [
        chr(part[0][0])
        if part is not None and len(part) == 1 and part[0][0] == part[0][1]
        else None
        for part in parts
    ]
    start = "".join(itertools.takewhile(lambda char: char is not None, single))
    end = "".join(itertools.takewhile(lambda char: char is not None, reversed(single)))
    return start, end[::-1]


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
