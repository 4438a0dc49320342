"""The kinds of value a configuration key may hold, each checked strictly and described once.

Each kind checks a raw TOML value (noting every problem, never raising) and describes itself
as a JSON Schema fragment, so the loader and the editors' schema
(``reporting/config/data/operator.schema.json``) are one definition. :class:`Problems`
collects the problems of a file with the line of each key.
"""

from __future__ import annotations

import difflib
import json
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from reporting.config.lines import KeyLines
from reporting.engine.money import AmountError, exact_decimal, parse_amount, parse_ratio
from reporting.errors import NOT_ONE_LINE, UNSEEN

__all__ = [
    "MISSING",
    "Amount",
    "Boolean",
    "CataloguePay",
    "Choice",
    "ChoiceList",
    "Integer",
    "Key",
    "Odds",
    "Problems",
    "Table",
    "TableList",
    "Text",
    "TextList",
    "dotted",
    "is_one_line",
    "shows_something",
    "shown",
    "suggestion",
    "text_fault",
]

#: What a check returns for a value it refused (None is a value: "not set").
MISSING: Any = type("Missing", (), {"__repr__": lambda self: "MISSING"})()

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
#: What a text of one line may not hold (:data:`reporting.errors.NOT_ONE_LINE`), nor a text
#: that a page prints (:data:`reporting.errors.UNSEEN`: a zero-width space or a direction
#: mark pasted with a name would print as its escape, "Lucky 7\u200e").
_CONTROL = re.compile(f"[{NOT_ONE_LINE}{UNSEEN}]")
#: Odds above this (to 1), or with a finer denominator, are typing mistakes, not pay tables.
MAX_ODDS = 10_000
MAX_ODDS_DENOMINATOR = 10_000
#: The largest integer SQLite stores.
SQLITE_MAX_INTEGER = 2**63 - 1
#: Amounts (cents) accepted are below this: the largest power of ten whose payout at the
#: highest odds a pay table may give (``MAX_ODDS`` to 1, the stake returned) is an integer
#: SQLite stores, as a finding keeps a bet's expected payout: 10**14, a trillion of a
#: currency's units, far beyond any real stake.
MAX_CENTS = 10 ** (len(str(SQLITE_MAX_INTEGER // (1 + MAX_ODDS))) - 1)
#: The largest stake limit the tool takes: the largest power of ten whose payout at the
#: highest odds (the stake returned) is an amount the ingest takes (below :data:`MAX_CENTS`):
#: EUR 10 million. At EUR 100 million, a configuration the check passed (a tie at 10,000 to
#: 1) had every winning round of its month rejected as beyond any payout.
MAX_AMOUNT_CENTS = 10 ** (len(str((MAX_CENTS - 1) // (1 + MAX_ODDS))) - 1)


#: Characters of one key a message quotes (a real key is a few dozen).
_LONGEST_KEY = 60


def dotted(path: tuple[str, ...]) -> str:
    """A key path as TOML writes it: ``games.live-baccarat-it.limits``, quoting odd parts; a
    part longer than a message holds (a key of 100,000 characters) cut, as values are."""
    return ".".join(
        part
        if _BARE_KEY.fullmatch(part) and len(part) <= _LONGEST_KEY
        else json.dumps(part[:_LONGEST_KEY])
        + (f"... ({len(part):,} characters)" if len(part) > _LONGEST_KEY else "")
        for part in path
    )


def shown(value: Any) -> str:
    """A short, safe rendering of a raw value for a message (never more than about 60 characters)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        if value.bit_length() > 64:
            return f"a number of about {int(value.bit_length() * 0.30103)} digits"
        return str(value)
    if isinstance(value, str):
        text = value if len(value) <= 40 else value[:40] + "..."
        return repr(text) + (f" ({len(value):,} characters)" if len(value) > 40 else "")
    kinds = {dict: "a table", list: "a list", float: "a floating-point number"}
    return kinds.get(type(value), f"a {type(value).__name__}")


def suggestion(word: object, known: Iterable[str]) -> str:
    """``"; did you mean 'languages'?"`` for a near miss, else nothing."""
    if not isinstance(word, str) or len(word) > 100:
        return ""
    close = difflib.get_close_matches(word, list(known), n=1, cutoff=0.6)
    return f"; did you mean {close[0]!r}?" if close else ""


@dataclass
class Problems:
    """Every problem of one file, each as ``file:line: key: message``."""

    file: str
    lines: KeyLines = field(default_factory=KeyLines)
    noted: list[tuple[int, str]] = field(default_factory=list)  # (line or 0, message)
    _said: set[str] = field(default_factory=set, repr=False)

    def add(self, path: tuple[str, ...], message: str) -> None:
        """Note a problem at a key path (the file itself when the path is empty), once: the
        same item repeated in a list is one problem (300,000 of them wrote 117 MB of JSON)."""
        line = self.lines.line_of(path) if path else None
        where = self.file if line is None else f"{self.file}:{line}"
        text = f"{where}: {dotted(path)}: {message}" if path else f"{where}: {message}"
        if text not in self._said:
            self._said.add(text)
            self.noted.append((line or 0, text))

    @property
    def messages(self) -> list[str]:
        """The problems in the order of the file's lines (those of no line first)."""
        return [text for _, text in sorted(self.noted, key=lambda noted: noted[0])]

    def __len__(self) -> int:
        return len(self.noted)


class Kind:
    """One kind of value: :meth:`check` turns a raw value into a typed one (or MISSING)."""

    def check(self, value: Any, path: tuple[str, ...], problems: Problems) -> Any:
        """The typed value, or MISSING with the problem noted."""
        raise NotImplementedError

    def schema(self) -> dict[str, Any]:
        """The JSON Schema fragment of this kind."""
        raise NotImplementedError


def _wrong_type(value: Any, expected: str, path: tuple[str, ...], problems: Problems) -> Any:
    problems.add(path, f"must be {expected}, not {shown(value)}")
    return MISSING


def text_fault(value: str) -> str:
    """What is wrong with a text that :data:`_CONTROL` finds in."""
    return (
        f"{shown(value)} holds a control character, a line break, a direction override or a"
        " character that does not show (a zero-width space, a direction mark, a byte order"
        " mark)"
    )


#: Letters and symbols that print as blank space though Unicode calls them neither spaces nor
#: format characters: the Hangul fillers and the blank Braille pattern (a name of nothing but
#: them showed nothing).
_BLANK_LOOKALIKES = frozenset("\u115f\u1160\u3164\uffa0\u2800")


def _shows(char: str) -> bool:
    """Whether a character shows on a page: not a space, not one of Unicode's format
    characters (a zero-width space, a soft hyphen, a direction mark, a byte order mark, a
    tag character), and not a letter that prints as a blank (:data:`_BLANK_LOOKALIKES`)."""
    return (
        not char.isspace() and unicodedata.category(char) != "Cf" and char not in _BLANK_LOOKALIKES
    )


def is_one_line(value: str) -> bool:
    """Whether a text holds none of what :data:`_CONTROL` refuses, nor any other of Unicode's
    format characters (a tag character hid in a name: U+E0041 printed nothing between "Live"
    and "Baccarat")."""
    return _CONTROL.search(value) is None and not any(
        unicodedata.category(char) == "Cf" for char in value
    )


def shows_something(value: str) -> bool:
    """Whether a text holds a character that shows on a page (:func:`_shows`)."""
    return any(_shows(char) for char in value)


@dataclass(frozen=True)
class Text(Kind):
    """A string of one line, bounded in length, optionally of a pattern."""

    example: str
    max_length: int = 200
    pattern: str | None = None
    what: str = ""  # how the pattern is named in a message, e.g. "an ISO 4217 code"

    def check(self, value: Any, path: tuple[str, ...], problems: Problems) -> Any:
        if not isinstance(value, str):
            return _wrong_type(value, f'a string such as "{self.example}"', path, problems)
        if not value.strip():
            problems.add(path, f'must not be empty (e.g. "{self.example}")')
        elif not shows_something(value):
            problems.add(
                path, f'{shown(value)} has no character that shows (e.g. "{self.example}")'
            )
        elif self.pattern is not None and not re.fullmatch(self.pattern, value[:1000]):
            problems.add(path, f'{shown(value)} is not {self.what} such as "{self.example}"')
        elif len(value) > self.max_length:
            problems.add(path, f"is {len(value):,} characters long; at most {self.max_length}")
        elif not is_one_line(value):
            problems.add(path, text_fault(value))
        else:
            return value
        return MISSING

    def schema(self) -> dict[str, Any]:
        schema: dict[str, Any] = {"type": "string", "minLength": 1, "maxLength": self.max_length}
        if self.pattern is not None:
            schema["pattern"] = f"^(?:{self.pattern})$"
        return schema | {"examples": [self.example]}


@dataclass(frozen=True)
class Choice(Kind):
    """One of a list of words; the list may be computed (the regulators file, the catalogue)."""

    values: tuple[str, ...] | Callable[[], Iterable[str]]
    what: str = ""  # what a value names, e.g. "regulator": "'XYZ' is not a known regulator"

    def known(self) -> tuple[str, ...]:
        """The words this choice accepts."""
        return tuple(self.values() if callable(self.values) else self.values)

    def check(self, value: Any, path: tuple[str, ...], problems: Problems) -> Any:
        known = self.known()
        if not isinstance(value, str):
            return _wrong_type(value, f"one of {', '.join(map(repr, known))}", path, problems)
        if value not in known:
            # marks (".", ",", a space) quoted: bare, a list of them reads as nothing
            marks = any(not any(char.isalnum() for char in word) for word in known)
            listed = ", ".join(map(shown, known) if marks else known)
            refusal = f"a known {self.what} (known: {listed})" if self.what else f"one of {listed}"
            problems.add(path, f"{shown(value)} is not {refusal}{suggestion(value, known)}")
            return MISSING
        return value

    def schema(self) -> dict[str, Any]:
        return {"type": "string", "enum": list(self.known())}


@dataclass(frozen=True)
class Integer(Kind):
    """A whole number within bounds."""

    minimum: int
    maximum: int

    def check(self, value: Any, path: tuple[str, ...], problems: Problems) -> Any:
        if isinstance(value, bool) or not isinstance(value, int):
            return _wrong_type(value, "a whole number", path, problems)
        if not self.minimum <= value <= self.maximum:
            problems.add(path, f"{shown(value)} is not {self.minimum} to {self.maximum}")
            return MISSING
        return value

    def schema(self) -> dict[str, Any]:
        return {"type": "integer", "minimum": self.minimum, "maximum": self.maximum}


@dataclass(frozen=True)
class Boolean(Kind):
    """true or false."""

    def check(self, value: Any, path: tuple[str, ...], problems: Problems) -> Any:
        if not isinstance(value, bool):
            return _wrong_type(value, "true or false", path, problems)
        return value

    def schema(self) -> dict[str, Any]:
        return {"type": "boolean"}


def _distinct(
    items: list[Any],
    min_items: int,
    path: tuple[str, ...],
    problems: Problems,
    show: Callable[[Any], str],
    most: int | None = None,
) -> Any:
    """Checked items of a list, each at most once and at least ``min_items`` of them (MISSING
    with the problem noted otherwise); ``show`` names a repeated item in the message. A
    repeated item is told beside a bad one (one hid the other until the next run), and a list
    whose only fault is a repeat gives its items once, so that the checks that read it (the
    pays and limits of a game's bets) still run: the configuration fails all the same."""
    counts = Counter(item for item in items if item is not MISSING)
    if len(counts) != len(items) - items.count(MISSING):
        twice = sorted(item for item, count in counts.items() if count > 1)[:most]
        problems.add(path, f"{', '.join(map(show, twice))} listed more than once")
        if MISSING not in items:
            return list(counts)
    if MISSING in items:
        return MISSING
    if len(items) < min_items:
        problems.add(path, f"list at least {min_items}")
        return MISSING
    return items


#: The most items a list of choices holds, or groups a list of groups: a game lists its few
#: languages and bets; 100,000 of them kept the duplicates' search busy for minutes.
MAX_CHOICES_LISTED = 1_000


@dataclass(frozen=True)
class ChoiceList(Kind):
    """A list of words of one choice, each at most once; ``groups`` makes it a list of lists."""

    item: Choice
    min_items: int = 0
    groups: bool = False
    max_items: int = MAX_CHOICES_LISTED

    def check(self, value: Any, path: tuple[str, ...], problems: Problems) -> Any:
        if not isinstance(value, list):
            return _wrong_type(value, "a list", path, problems)
        if len(value) > self.max_items:  # before each item is read
            listed = "groups" if self.groups else "items"
            problems.add(path, f"lists {len(value):,} {listed}; at most {self.max_items:,}")
            return MISSING
        if self.groups:
            items = [ChoiceList(self.item, 2).check(group, path, problems) for group in value]
            return MISSING if MISSING in items else [tuple(group) for group in items]
        items = [self.item.check(item, path, problems) for item in value]
        return _distinct(items, self.min_items, path, problems, str)

    def schema(self) -> dict[str, Any]:
        if self.groups:
            group = {"type": "array", "items": self.item.schema(), "minItems": 2}
            listed = {"type": "array", "items": group | {"uniqueItems": True}}
            return listed | {"maxItems": self.max_items}
        schema = {"type": "array", "items": self.item.schema(), "uniqueItems": True}
        schema |= {"maxItems": self.max_items}
        return schema | ({"minItems": self.min_items} if self.min_items else {})


@dataclass(frozen=True)
class TextList(Kind):
    """A list of strings of one :class:`Text` kind, each at most once."""

    item: Text
    min_items: int = 0
    max_items: int = 10_000

    def check(self, value: Any, path: tuple[str, ...], problems: Problems) -> Any:
        if not isinstance(value, list):
            return _wrong_type(
                value, f'a list of strings such as ["{self.item.example}"]', path, problems
            )
        if len(value) > self.max_items:
            problems.add(path, f"lists {len(value):,} items; at most {self.max_items:,}")
            return MISSING
        items = [self.item.check(item, path, problems) for item in value]
        return _distinct(items, self.min_items, path, problems, shown, most=5)

    def schema(self) -> dict[str, Any]:
        schema = {"type": "array", "items": self.item.schema(), "uniqueItems": True}
        schema["maxItems"] = self.max_items
        return schema | ({"minItems": self.min_items} if self.min_items else {})


@dataclass(frozen=True)
class Amount(Kind):
    """Money as a decimal string (``"5.00"``), above zero, at most :data:`MAX_AMOUNT_CENTS`
    (EUR 10 million); in cents.
    ``example``: the amount the editors' schema shows."""

    example: str = "5.00"

    def check(self, value: Any, path: tuple[str, ...], problems: Problems) -> Any:
        if isinstance(value, str) and len(value) > 20:
            problems.add(
                path, f"{shown(value)} is too large (at most {MAX_AMOUNT_CENTS // 100:,}.00)"
            )
            return MISSING
        try:
            cents = parse_amount(value, allow_zero=False)
        except AmountError as error:
            problems.add(path, str(error))
            return MISSING
        if cents > MAX_AMOUNT_CENTS:
            problems.add(
                path, f"{shown(value)} is too large (at most {MAX_AMOUNT_CENTS // 100:,}.00)"
            )
            return MISSING
        return cents

    def schema(self) -> dict[str, Any]:
        digits = len(str(MAX_AMOUNT_CENTS // 100))  # the editor's hint: as many digits at most
        pattern = rf"^[0-9]{{1,{digits}}}(\.[0-9]{{1,2}})?$"
        return {"type": "string", "pattern": pattern, "examples": [self.example]}


@dataclass(frozen=True)
class Odds(Kind):
    """Pay-table odds "to 1", as a string (``"8"``, ``"19/20"``, ``"0.95"``, ``"3:2"``) or a whole
    number; above zero, at most 10,000, exact."""

    def check(self, value: Any, path: tuple[str, ...], problems: Problems) -> Any:
        if isinstance(value, bool) or not isinstance(value, (str, int)):  # TOML's words for it
            return _wrong_type(value, 'odds written as a string such as "19/20"', path, problems)
        if isinstance(value, str) and len(value) > 20:
            problems.add(path, f'{shown(value)} is too long for odds (e.g. "19/20")')
            return MISSING
        if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
            problems.add(path, f"{shown(value)} is above {MAX_ODDS}")
            return MISSING
        try:
            odds = parse_ratio(value)
        except AmountError as error:
            problems.add(path, str(error))
            return MISSING
        if odds <= 0:
            problems.add(path, f"{shown(value)}: odds must be above zero")
        elif odds > MAX_ODDS:
            problems.add(path, f"{shown(value)} is above {MAX_ODDS} to 1")
        elif odds.denominator > MAX_ODDS_DENOMINATOR:
            problems.add(path, f"{shown(value)} is finer than 1/{MAX_ODDS_DENOMINATOR}")
        elif exact_decimal(Fraction(odds)) is None:  # 2/3: the pages printed 0.6667:1
            problems.add(
                path,
                f"{shown(value)} has no exact decimal form, and the pages state odds as"
                ' decimals ("0.95:1"): give odds that have one',
            )
        else:
            return Fraction(odds)
        return MISSING

    def schema(self) -> dict[str, Any]:
        text = {
            "type": "string",
            "pattern": r"^\s*[0-9]+(\.[0-9]+)?(\s*[/:]\s*[0-9]+(\.[0-9]+)?)?\s*$",
            "maxLength": 20,
            "examples": ["8", "19/20"],
        }
        return {"anyOf": [text, {"type": "integer", "minimum": 1, "maximum": MAX_ODDS}]}


@dataclass(frozen=True)
class Key:
    """A key of a table: the kind of its value and what it means (the schema's description)."""

    kind: Kind
    help: str


@dataclass(frozen=True)
class PayValue(Kind):
    """A pay row's pay: odds "to 1" (:class:`Odds`), or ``"push"`` / ``"lose"``."""

    def check(self, value: Any, path: tuple[str, ...], problems: Problems) -> Any:
        if value in ("push", "lose"):
            return value
        return Odds().check(value, path, problems)

    def schema(self) -> dict[str, Any]:
        return {"anyOf": [Odds().schema(), {"type": "string", "enum": ["push", "lose"]}]}


@dataclass(frozen=True)
class CataloguePay(Kind):
    """The pay of a catalogue bet's row: odds, or the row's own default result (``"push"`` for
    a row that returns the stake). A row that pays odds cannot be made ``"push"`` or
    ``"lose"``: its page would say the bet wins when it returns the stake, or loses."""

    bet: str
    default: str | None = None  # "push" when the row's default is a result, not odds

    def check(self, value: Any, path: tuple[str, ...], problems: Problems) -> Any:
        if value in ("push", "lose") and value != self.default:
            row = f'the {self.bet} bet wins on this row, which pays odds (e.g. "8")'
            if self.default is not None:
                row = f"this row of the {self.bet} bet pays odds or returns the stake ('push')"
            problems.add(
                path,
                f"{value!r}: {row}; for a bet that pays otherwise, declare one of your own in"
                " [bets]",
            )
            return MISSING
        if value == self.default:
            return value
        return Odds().check(value, path, problems)

    def schema(self) -> dict[str, Any]:
        if self.default is None:
            return Odds().schema()
        return {"anyOf": [Odds().schema(), {"type": "string", "enum": [self.default]}]}


@dataclass(frozen=True)
class Table(Kind):
    """A table of known keys (unknown ones are problems, with a "did you mean"), or, with
    ``each``, a table whose keys are of a choice and whose values are all of one kind."""

    keys: Mapping[str, Key] = field(default_factory=dict)
    each: Kind | None = None
    key_choice: Choice | None = None
    description: str = ""

    def check(self, value: Any, path: tuple[str, ...], problems: Problems) -> Any:
        if not isinstance(value, dict):
            return _wrong_type(value, "a table", path, problems)
        checked: dict[str, Any] = {}
        for key, raw in value.items():
            known_key = self.keys.get(key)
            kind = self.each if self.each is not None else known_key and known_key.kind
            if kind is None:
                problems.add((*path, key), f"unknown key{suggestion(key, self.keys)}")
                continue
            if self.key_choice is not None and key not in self.key_choice.known():
                known = self.key_choice.known()
                problems.add((*path, key), f"not one of {', '.join(known)}{suggestion(key, known)}")
                continue
            checked[key] = kind.check(raw, (*path, key), problems)
        return MISSING if MISSING in checked.values() else checked

    def schema(self) -> dict[str, Any]:
        schema: dict[str, Any] = {"type": "object"}
        if self.description:
            schema["description"] = self.description
        if self.each is not None:
            schema["additionalProperties"] = self.each.schema()
            if self.key_choice is not None:
                schema["propertyNames"] = self.key_choice.schema()
            return schema
        properties = {}
        for name, key in self.keys.items():
            properties[name] = key.kind.schema() | {"description": key.help}
        return schema | {"properties": properties, "additionalProperties": False}


@dataclass(frozen=True)
class TableList(Kind):
    """An array of tables of one :class:`Table` kind (``[[inbox.profiles]]``), each checked
    at its own index."""

    table: Table
    max_items: int = 1000

    def check(self, value: Any, path: tuple[str, ...], problems: Problems) -> Any:
        if not isinstance(value, list):
            return _wrong_type(value, "an array of tables ([[...]])", path, problems)
        if len(value) > self.max_items:
            problems.add(path, f"lists {len(value):,} tables; at most {self.max_items:,}")
            return MISSING
        items = [
            self.table.check(item, (*path, str(number)), problems)  # its own lines
            for number, item in enumerate(value, start=1)
        ]
        return MISSING if MISSING in items else items

    def schema(self) -> dict[str, Any]:
        return {"type": "array", "items": self.table.schema(), "maxItems": self.max_items}
