"""A record's reject: its error (a reason code of the contract, and a message of bounded
length), how a message quotes a value of the record, and the rejects of a record's texts (ids
that print and are not too long, a bet id given twice): what every reader and the validator
(:mod:`reporting.ingest.validation`) word alike."""

from __future__ import annotations

import reprlib
import unicodedata
from typing import TYPE_CHECKING

import msgspec

from reporting.ingest.limits import (
    MAX_ID_CHARS,
    MAX_MESSAGE_CHARS,
    MAX_SHOWN_VALUE_CHARS,
    MAX_TEXT_CHARS,
)
from reporting.records import Bet, RejectReason

if TYPE_CHECKING:
    from reporting.ingest.validation import RawRound

__all__ = [
    "RecordError",
    "bet_id_twice",
    "check_length",
    "check_prints",
    "check_texts",
    "clipped",
    "shown",
]


class RecordError(Exception):
    """A record that cannot be loaded, with its reject reason code."""

    def __init__(self, reason: RejectReason, message: str, source_line: int | None = None):
        message = clipped(message)
        super().__init__(message)
        self.reason: str = reason.value
        self.message = message
        self.source_line = source_line  # set when the bad part sits on another line (CSV bets file)


def clipped(message: str) -> str:
    """A reject message, at most :data:`~reporting.ingest.limits.MAX_MESSAGE_CHARS` long.

    >>> clipped("x" * 600)[-30:]
    'xxxxxxxxxx... (600 characters)'
    """
    if len(message) <= MAX_MESSAGE_CHARS:
        return message
    return f"{message[: MAX_MESSAGE_CHARS - 30]}... ({len(message):,} characters)"


def shown(value: object, *, limit: int = MAX_SHOWN_VALUE_CHARS) -> str:
    """A value of the line as a message quotes it: its repr, cut short for a string longer
    than ``limit`` or a large or deep array (so that a 20 MB field never makes a 20 MB
    message).

    >>> shown("25.00"), shown("9" * 100)
    ("'25.00'", "'999999999999999999999999999999999999999999999999999999999999'... (100 characters)")
    """
    if isinstance(value, str):
        if len(value) > limit:
            return f"{value[:limit]!r}... ({len(value):,} characters)"
        return repr(value)
    return _SHORT_REPR.repr(value)


class _ShortRepr(reprlib.Repr):
    def repr_Raw(self, value: msgspec.Raw, level: int) -> str:  # noqa: N802 (reprlib's name)
        """A number kept as written (see the JSON Lines reader's learnt fields)."""
        return bytes(value)[: self.maxother].decode("utf-8", "replace")


_SHORT_REPR = _ShortRepr()
_SHORT_REPR.maxlevel = 3
_SHORT_REPR.maxstring = _SHORT_REPR.maxother = MAX_SHOWN_VALUE_CHARS


def check_texts(raw: RawRound) -> None:
    """A round's ids within :data:`MAX_ID_CHARS`, each of characters that print, and its void
    reason within :data:`MAX_TEXT_CHARS` (the report prints each whole)."""
    for name in ("round_id", "table_id", "shoe_id"):
        value = getattr(raw, name)
        check_length(name, value, MAX_ID_CHARS, "an id")
        check_prints(name, value)
    check_length("void_reason", raw.void_reason, MAX_TEXT_CHARS, "a void reason")


def check_prints(name: str, value: object) -> None:
    """The reject of an id holding a character that does not print (``str.isprintable``: a
    control character, a format character such as a zero-width space or a bidirectional
    override, a separator other than the space): an id is shown as it is in the audit, the
    findings and the pages, where such a character hides or turns the text around it, and an
    id that looks like another's is not the same id. Stricter than the texts' rule
    (:data:`reporting.errors.NOT_ONE_LINE`, every character of which it refuses too): a name
    may hold a no-break space or a soft hyphen, an id none."""
    if isinstance(value, str) and not value.isprintable():
        index, char = next((i, c) for i, c in enumerate(value) if not c.isprintable())
        what = unicodedata.name(char, f"of category {unicodedata.category(char)}")
        raise RecordError(
            RejectReason.BAD_VALUE,
            f"{name} {shown(value)} holds U+{ord(char):04X} {what} (character {index + 1}),"
            " which does not print: an id is shown as it is in the audit and the pages, where"
            " it would hide or reorder the text; fix it in the export",
        )


def check_length(name: str, value: object, most: int, what: str) -> None:
    """The reject of a text of more than ``most`` characters."""
    if isinstance(value, str) and len(value) > most:
        raise RecordError(
            RejectReason.BAD_VALUE,
            f"{name} has {len(value):,} characters: {what} has at most {most:,}; shorten it"
            " in the export",
        )


def bet_id_twice(bets: list[Bet]) -> str:
    """The reject message of a round whose bets repeat a bet id: the first id repeated, and
    where: the places in its ``bets`` (from 0), or the lines of a CSV file's rows."""
    first: dict[str, int] = {}
    for index, bet in enumerate(bets):
        earlier = first.setdefault(bet.bet_id, index)
        if earlier == index:
            continue
        where = (
            f"lines {bets[earlier].source_line} and {bet.source_line}"
            if bets[earlier].source_line != bet.source_line
            else f"bets[{earlier}] and bets[{index}]"
        )
        return f"bet_id {shown(bet.bet_id)} appears twice in the round ({where})"
    raise AssertionError("no bet id is repeated")
