"""Where each key of a TOML file is written: a light scan of the text, for line numbers.

``tomllib`` keeps no positions, so the loader's messages find a key's line here: table
headers (``[games.live-baccarat-it]``, ``[[x]]``, whose elements are numbered) and
``key = value`` lines, dotted and quoted keys included. A key inside an inline table
(``limits = { min = "5.00" }``) or a multi-line array is found at the line of the key that
opens it, which is the line an editor should show; but an inline table that opens a line of a
multi-line array (a bet's pay rows, one a line) is found at its own line, as the array's
element numbered from 1 (``rows.2``).

>>> lines = KeyLines.scan('[games.live-baccarat-it]\\nlanguages = ["it"]\\nlimits = { min = "1" }\\n')
>>> lines.line_of(("games", "live-baccarat-it", "languages"))
2
>>> lines.line_of(("games", "live-baccarat-it", "limits", "min"))
3
>>> lines.line_of(("games", "live-baccarat-it", "decks"))   # not written: the game's header
1
>>> lines.line_of(("pay_tables",)) is None
True
>>> rows = KeyLines.scan('[bets.x]\\nrows = [\\n  { pays = "1" },\\n  { pays = "2" },\\n]\\n')
>>> rows.line_of(("bets", "x", "rows", "2", "pays")), rows.line_of(("bets", "x", "rows"))
(4, 2)

An element of an array of tables is numbered from 1 too, its keys found under it (and under
the array, at their first element's line):

>>> rules = KeyLines.scan('[[r]]\\nfolder = "a"\\n\\n[[r]]\\nfolder = "b"\\n')
>>> rules.line_of(("r", "2")), rules.line_of(("r", "2", "folder")), rules.line_of(("r", "folder"))
(4, 5, 2)

A multi-line string or array still open at the end of the text is where it was opened, the
line TOML's parser cannot name:

>>> KeyLines.scan("a = 1\\nb = '''\\nnever closed").open_at_end
2
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

__all__ = ["DEPTH", "KeyLines", "deep_line"]

# One part of a key: bare, "basic" (escapes kept as written) or 'literal'.
_PART = re.compile(r"""\s*(?:([A-Za-z0-9_-]+)|"((?:[^"\\]|\\.)*)"|'([^']*)')\s*""")
_HEADER = re.compile(r"\s*\[\[?")


def _key_path(text: str, start: int) -> tuple[tuple[str, ...], int] | None:
    """The dotted key at ``text[start:]`` and where it ends, or None if there is none."""
    parts: list[str] = []
    position = start
    while True:
        match = _PART.match(text, position)
        if match is None or match.end() == match.start():
            return None
        parts.append(next(group for group in match.groups() if group is not None))
        position = match.end()
        if position < len(text) and text[position] == ".":
            position += 1
            continue
        return tuple(parts), position


#: Key paths are noted to this depth (the deepest key of a configuration, a profile or the bet
#: catalogue has five parts), and the first key written deeper is recorded for the loader to
#: refuse: every prefix of a path noted takes memory as the square of its depth, and TOML's
#: parser time as the square too.
DEPTH = 32


def _note(found: dict[tuple[str, ...], int], path: tuple[str, ...], number: int) -> None:
    """A key's line, and the line of each table it implies (``[a.b]`` defines ``a`` too)."""
    for length in range(1, len(path) + 1):
        found.setdefault(path[:length], number)


#: A run of dotted key parts in a line's text outside its strings (a quoted part is gone
#: there, leaving its dot): a key of a header, of a line, or inside an inline table.
_DOTTED = re.compile(r"(?<![A-Za-z0-9_.-])(?>(?:[A-Za-z0-9_-]*+[ \t]*+\.[ \t]*+)+)")


def _deepest_key(line: str) -> int:
    """The number of parts of the longest dotted key written on ``line`` (1 for none)."""
    text = "".join(_outside_strings(line))
    if "." not in text:
        return 1
    return 1 + max((run.group().count(".") for run in _DOTTED.finditer(text)), default=0)


def _outside_strings(text: str) -> Iterator[str]:
    """The characters of one line of TOML outside its strings, up to a comment."""
    quote: str | None = None
    escaped = False
    for character in text:
        if quote is None:
            if character == "#":
                return
            if character in "\"'":
                quote = character
            else:
                yield character
        elif escaped:
            escaped = False
        elif character == "\\" and quote == '"':
            escaped = True
        elif character == quote:
            quote = None


def _left_open(text: str) -> str | None:
    """The quotes of a multi-line string that ``text`` (one line of TOML) opens and does not
    close, or None: read string by string, so three quotes inside a one-line string (a wins
    sentence that quotes them) open none."""
    position = 0
    while position < len(text):
        character = text[position]
        if character == "#":
            return None
        if character not in "\"'":
            position += 1
            continue
        quotes = character * 3
        if text.startswith(quotes, position):
            end = _closing(text, position + 3, quotes)
            if end is None:
                return quotes
            position = end
            continue
        end = _closing(text, position + 1, character)
        position = len(text) if end is None else end
    return None


def _note_inline_keys(
    found: dict[tuple[str, ...], int],
    paths: tuple[tuple[str, ...], ...],
    value: str,
    number: int,
) -> None:
    """The keys of an inline table written as a key's ``value``, noted under each of the
    key's ``paths`` at its line (nothing for a value of another kind)."""
    if value.startswith("{"):
        for inner in _inline_keys(value):
            for path in paths:
                _note(found, (path + inner)[:DEPTH], number)


def _inline_keys(text: str, levels: int = DEPTH, start: int = 0) -> Iterator[tuple[str, ...]]:
    """The keys of the inline table that ``text`` opens, and of the inline tables that are
    its keys' values, ``levels`` deep at most (a key path is noted to :data:`DEPTH` keys),
    as far as this line holds it (not those of an array's elements); ``start``: where in
    ``text`` the table opens.

    >>> list(_inline_keys('{ tie = "10", "a b".c = { d = 1 }, e = [1, { f = 2 }] }'))
    [('tie',), ('a b', 'c'), ('a b', 'c', 'd'), ('e',)]
    """
    depth = 0  # of brackets and braces
    position = start
    while position < len(text):
        character = text[position]
        if character in "\"'":
            end = _closing(text, position + 1, character)
            position = len(text) if end is None else end
            continue
        if character == "#":
            return
        if character in "{[":
            depth += 1
        elif character in "}]":
            depth -= 1
            if depth == 0:
                return  # the table closed: what follows is not its (a table in one, read once)
        position += 1
        if depth == 1 and character in "{,":  # a key of the table follows
            parsed = _key_path(text, position)
            if parsed is not None and text[parsed[1] : parsed[1] + 1] == "=":
                yield parsed[0]
                position = parsed[1] + 1
                value = position
                while text[value : value + 1] in (" ", "\t"):
                    value += 1
                if levels > 1 and text.startswith("{", value):  # a table in it: its keys below
                    inner = _inline_keys(text, levels - 1, value)
                    yield from (parsed[0] + keys for keys in inner)


def _closing(text: str, start: int, quotes: str) -> int | None:
    """Where the string that ``quotes`` opened before ``start`` ends (just past its closing
    quotes), or None when this line does not close it; a backslash escapes in basic strings."""
    position = start
    while position < len(text):
        if quotes[0] == '"' and text[position] == "\\":
            position += 2
            continue
        if text.startswith(quotes, position):
            return position + len(quotes)
        position += 1
    return None


def _array_line(
    found: dict[tuple[str, ...], int], array: list, text: str, number: int
) -> list | None:
    """Read ``text`` of line ``number`` inside a multi-line array (``array``: its key, the
    elements seen so far, the depth of brackets and of braces): each inline table opening at
    the array's own depth is its next element, noted at this line; the array ends when its
    closing bracket is read (None)."""
    for character in _outside_strings(text):
        if character == "[":
            array[2] += 1
        elif character == "]":
            array[2] -= 1
            if array[2] == 0:
                return None
        elif character == "{":
            if array[2] == 1 and array[3] == 0:
                array[1] += 1
                _note(found, (*array[0], str(array[1])), number)
            array[3] += 1
        elif character == "}":
            array[3] -= 1
    return array


def _header(
    found: dict[tuple[str, ...], int],
    elements: dict[tuple[str, ...], int],
    line: str,
    header: re.Match,
    number: int,
) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """The table a header line opens, and the element of an array of tables it opens
    (``[[x]]``: numbered from 1 in ``elements``; the table itself for ``[x]``), each noted
    at this line; None when the line is not a header after all."""
    parsed = _key_path(line, header.end())
    if parsed is None or not line[parsed[1] :].lstrip().startswith("]"):
        return None
    table = element = parsed[0][:DEPTH]
    _note(found, table, number)
    if header.group().count("[") == 2:
        elements[table] = elements.get(table, 0) + 1
        element = (*table, str(elements[table]))[:DEPTH]
        _note(found, element, number)
    return table, element


@dataclass(frozen=True)
class KeyLines:
    """The first line (1-based) each key path of a TOML text is written on."""

    lines: dict[tuple[str, ...], int] = field(default_factory=dict)
    #: The first key deeper than the paths noted (a header's, a line's, or one inside an
    #: inline table): its line and its number of parts, as written on that line.
    too_deep: tuple[int, int] | None = None
    #: The line that opens a multi-line string or array still open at the text's end, which
    #: TOML's parser reports only as "at end of document"; None when nothing is left open.
    open_at_end: int | None = None

    @classmethod
    def scan(cls, text: str) -> KeyLines:
        """Scan a TOML text; lines inside multi-line strings are skipped."""
        found: dict[tuple[str, ...], int] = {}
        table: tuple[str, ...] = ()
        # An element of an array of tables ([[x]]) is also noted as the array's element
        # numbered from 1 (x.2), its keys under both paths; any other table is its own.
        element: tuple[str, ...] = ()
        elements: dict[tuple[str, ...], int] = {}
        in_string: str | None = None
        array: list | None = None  # a multi-line array being read: [its key, elements seen]
        too_deep: tuple[int, int] | None = None  # the first key over the depth noted
        opening = 0  # the line of the multi-line string or array being read
        for number, line in enumerate(text.splitlines(), start=1):
            if in_string is not None:  # inside a multi-line string: does this line close it?
                closed = _closing(line, 0, in_string)
                if closed is not None:
                    in_string = _left_open(line[closed:])
                    opening = number  # (read only while another string is open)
                continue
            # A key of more parts than DEPTH has as many dots: most lines need no look.
            if (
                too_deep is None
                and line.count(".") >= DEPTH
                and (parts := _deepest_key(line)) > DEPTH
            ):
                too_deep = (number, parts)
            if array is not None:
                array = _array_line(found, array, line, number)
                continue
            header = _HEADER.match(line)
            if header is not None:
                opened = _header(found, elements, line, header, number)
                if opened is not None:
                    table, element = opened
                continue
            parsed = _key_path(line, 0)
            if parsed is None or not line[parsed[1] :].startswith("="):
                continue
            _note(found, (table + parsed[0])[:DEPTH], number)
            key = (element + parsed[0])[:DEPTH]  # the same path but in an array of tables
            _note(found, key, number)
            value = line[parsed[1] + 1 :].lstrip()
            if value.startswith("["):
                # An array: its elements are read as they come, up to its closing bracket,
                # on this line or a later one (a multi-line array).
                array = _array_line(found, [key, 0, 0, 0], value, number)
                opening = number
                continue
            _note_inline_keys(found, (table + parsed[0], key), value, number)
            in_string = _left_open(line)
            if in_string is not None:
                opening = number
        left_open = in_string is not None or array is not None
        return cls(found, too_deep, opening if left_open else None)

    def written(self, path: tuple[str, ...]) -> bool:
        """Whether the file writes the key at ``path`` itself (as a key, a dotted key, a table
        or a key of an inline table), not only a table around it."""
        return path in self.lines

    def line_of(self, path: tuple[str, ...]) -> int | None:
        """The line of the longest written prefix of ``path``, or None if none is written."""
        for length in range(len(path), 0, -1):
            line = self.lines.get(path[:length])
            if line is not None:
                return line
        return None


#: Brackets open at once past which a line is where a text nests too deeply (TOML's parser
#: gives up past about a thousand; no configuration of ours nests ten).
_DEEP = 100


def deep_line(text: str) -> int | None:
    """The line where ``text``'s arrays and inline tables are first open :data:`_DEEP` deep,
    counting brackets as they come (a bracket in a string too: a guess, for the message's
    line); None where they never are.

    >>> deep_line("a = 1\\nb = " + "[" * 200 + "]" * 200)
    2
    """
    depth = 0
    for index, character in enumerate(text):
        if character in "[{":
            depth += 1
            if depth > _DEEP:
                return text.count("\n", 0, index) + 1
        elif character in "]}":
            depth = max(0, depth - 1)
    return None
