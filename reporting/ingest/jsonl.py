"""JSON Lines round logs, gzipped or not: one round a line, read one bounded line at a time.

Reading holds to the bounds of :mod:`reporting.ingest.limits`, whatever the file:

* a line is read up to :data:`~reporting.ingest.limits.MAX_LINE_BYTES`; the rest of a longer
  one is streamed past in chunks (never held whole: a gzip bomb of one endless line keeps
  memory flat) and the line is rejected;
* runs of blank lines are skipped a buffer at a time, so a gzip of nothing but newlines is
  read at the speed of decompression;
* a line nested deeper than :data:`~reporting.ingest.limits.MAX_DEPTH`, with a key twice
  (``"stake":"5.00","stake":"999.00"``: the decoder would keep the last), or a key that is a
  misspelling of a field (``shoeid``), is rejected;
* whatever exception a line raises (RecursionError, ValueError, ...) becomes that line's
  reject: the file's other lines still load;
* a UTF-8 byte order mark at the start of the file is skipped.

Duplicate keys cost little to rule out. The decoded round, encoded again (compact JSON, in
C: a twentieth of reading the line), is never longer than the line, whitespace aside: every
string, int and key of the line is at least as long as its re-encoding, and a key that the
decoder dropped (repeated, or unknown) makes the line longer. When the lengths agree, no key
was repeated. A line with an unknown field is decoded whole and re-encoded the same way
(see :func:`_check_line`); only a line that still differs (a repeated key, escapes) is parsed
by :mod:`json`, every key in view. Unknown keys are checked for a misspelling and nesting is
measured on those lines only: a line that passes the first test holds no unknown field, and
the only values it can nest are card codes, rejected when not a string.
"""

from __future__ import annotations

import functools
import gzip
import io
import json
import os
import re
import zlib
from collections.abc import Iterator, Mapping
from typing import IO, Any

import msgspec
from msgspec import UNSET

from reporting.engine.games import GameSpec
from reporting.errors import InputError, NotARegularFile
from reporting.files import open_regular
from reporting.ingest.limits import (
    GZIP_ALLOWANCE_BYTES,
    MAX_DEPTH,
    MAX_GZIP_RATIO,
    MAX_LEARNT_FIELDS,
    MAX_LINE_BYTES,
    SKIP_CHUNK_BYTES,
)
from reporting.ingest.profiles.json_stream import too_deep
from reporting.ingest.sniff import refuse_binary
from reporting.ingest.sources import BatchReader, Source, UnreadFields, batched, raw_text
from reporting.ingest.spelling import misspelt_field
from reporting.ingest.validation import (
    BET_FIELDS,
    ROUND_FIELDS,
    RecordError,
    RoundValidator,
    error_of_decoding,
)
from reporting.records import RejectedLine, RejectReason, Round

__all__ = [
    "check_depth",
    "check_keys",
    "check_repeated_keys",
    "gunzipped",
    "read_jsonl",
    "read_jsonl_gz",
    "refuse_if_cut",
    "providers_export",
    "refuse_a_providers_export",
    "refuse_unreadable_text",
    "skip_blank_run",
    "skip_over_long",
]

_BOM = b"\xef\xbb\xbf"
_BLANK = b" \t\r\n"

#: A record begun after a carriage return alone: lines ended as classic Mac OS ended them.
_AFTER_A_LONE_CR = re.compile(rb"\r[ \t]*[{\[]")


def read_jsonl(
    source: Source, games: Mapping[str, GameSpec], size: int, *, gzipped: bool = False
) -> BatchReader:
    """Batches of a JSON Lines file, read one bounded line at a time."""
    name = str(source.path)
    try:
        raw_handle = open_regular(source.path)
    except NotARegularFile:
        raise  # says what the path is, in one line
    except OSError as error:
        reason = error.strerror
        raise InputError(f"{name}: cannot be read ({reason})") from None
    with raw_handle:
        handle: IO[bytes] = gunzipped(raw_handle, name) if gzipped else raw_handle
        refuse_binary(name, handle, gzipped=gzipped)
        try:
            unread = UnreadFields()
            records = _records(handle, name, games, unread)
            yield from batched(records, raw_handle.tell, size, name, unread)
        except (OSError, EOFError, zlib.error) as error:
            raise InputError(
                f"{name}: cannot be read to the end ({error}); nothing of it was loaded"
            ) from None


#: Bytes of decompressed text buffered ahead of the line reader (see :func:`_gunzipped`).
_GUNZIP_BUFFER = 256 * 1024


class _Gunzipped(io.RawIOBase):
    """A gzipped file's text, refused past :data:`MAX_GZIP_RATIO` times the compressed bytes
    read, once it has given :data:`GZIP_ALLOWANCE_BYTES`. An error of the gzip data is raised
    again on every later read: GzipFile raises a header cut short once, then reads no text
    (a log cut to its first 9 bytes, its error met by a peek, loaded as an empty log)."""

    def __init__(self, raw_handle: IO[bytes], name: str):
        self._gzip = gzip.GzipFile(fileobj=raw_handle, mode="rb")  # type: ignore[arg-type]
        self._raw, self._name, self._given = raw_handle, name, 0
        self._failed: Exception | None = None

    def readable(self) -> bool:
        return True

    def close(self) -> None:
        self._gzip.close()
        super().close()

    def readinto(self, buffer: Any) -> int:
        if self._failed is not None:
            raise self._failed
        try:
            count = self._gzip.readinto(buffer)
        except (OSError, EOFError, zlib.error) as error:
            self._failed = error
            raise
        self._given += count
        if self._given > GZIP_ALLOWANCE_BYTES and self._given > MAX_GZIP_RATIO * self._raw.tell():
            raise InputError(
                f"{self._name}: decompresses to over {MAX_GZIP_RATIO} times its size (past"
                f" {self._given:,} bytes): a gzip bomb, not a round log; nothing of it was"
                " loaded"
            )
        return count


def gunzipped(raw_handle: IO[bytes], name: str) -> IO[bytes]:
    """The decompressed text of the gzipped file ``raw_handle`` (``name``, for messages),
    bounded in its ratio to the compressed bytes (:class:`_Gunzipped`), read a line at a
    time in C.

    GzipFile alone refills its line buffer 8 KiB at a time, each refill a few calls in
    Python; a larger buffer around it decompresses a quarter of a megabyte a call (measured
    on the benchmark's log: a third less time to read its lines). Errors are GzipFile's, and
    the bound's :class:`~reporting.errors.InputError`. An empty file is no gzip (GzipFile
    reads it as no text): an upload that has just begun, refused as a gzip cut short is.
    """
    if os.fstat(raw_handle.fileno()).st_size == 0:
        raise InputError(
            f"{name}: an empty file, no gzip yet: it is still being written, or was cut;"
            " nothing of it was loaded (it loads at the next run once whole; remove it if it"
            " is meant to be empty)"
        )
    return io.BufferedReader(_Gunzipped(raw_handle, name), buffer_size=_GUNZIP_BUFFER)


def read_jsonl_gz(source: Source, games: Mapping[str, GameSpec], size: int) -> BatchReader:
    """Batches of a gzipped JSON Lines file (progress counts compressed bytes)."""
    return read_jsonl(source, games, size, gzipped=True)


# Long on purpose: the loop every line of every JSON Lines file goes through, kept in one
# frame (a call per line costs a tenth of the reading) with its rare cases in functions.
def _records(
    handle: IO[bytes], name: str, games: Mapping[str, GameSpec], unread: UnreadFields
) -> Iterator[Round | RejectedLine]:
    """Each line of the file as a round or a rejected line; blank lines are not records.
    The fields the lines hold beyond the spec's go to ``unread``."""
    validator = RoundValidator(games)
    validate, bet_types = validator.validate, validator.bet_types
    shape = _Shape(validator, unread)
    decode = shape.decode
    encode_into, encoded = msgspec.json.Encoder().encode_into, bytearray()
    readline = handle.readline
    number = 0
    data = readline(MAX_LINE_BYTES)
    if data.startswith(_BOM):
        data = data[len(_BOM) :]
    refuse_unreadable_text(name, data, handle)
    refuse_a_providers_export(name, data, handle)
    while data:
        number += 1
        try:
            if len(data) == MAX_LINE_BYTES and data[-1:] != b"\n":
                skip_over_long(handle, data)
            raw = decode(data)
            encode_into(raw, encoded)
            if len(encoded) != len(data) - (data[-1] == 10):
                document = _check_line(data, len(raw.bets), encoded)
                if document is not None and shape.learn(document):
                    decode = shape.decode
            if shape.learnt and data.count(b"[") + data.count(b"{") > MAX_DEPTH + len(raw.bets) + 1:
                check_depth(data)  # a learnt field is decoded as it comes, at any depth
            yield validate(raw, number)
        except msgspec.DecodeError as error:
            if not data.strip(_BLANK):
                number += skip_blank_run(handle)
            else:
                refuse_if_cut(name, number, data)
                problem = error_of_decoding(error, bet_types, data)
                yield _rejected(name, number, problem, data, _facts_of(data, validator))
        except RecordError as problem:
            yield _rejected(name, number, problem, data, _facts_of(data, validator))
        except RecursionError:
            yield _rejected(name, number, _too_deep(), data)
        except Exception as error:  # whatever else a hostile line makes a parser raise
            problem = RecordError(
                RejectReason.BAD_VALUE, f"cannot be read ({type(error).__name__}: {error})"
            )
            yield _rejected(name, number, problem, data)
        data = readline(MAX_LINE_BYTES)


def _check_line(data: bytes, bets: int, encoded: bytearray) -> dict[str, Any] | None:
    """Rule out, for a line longer than its decoded round re-encoded, a repeated key (and
    check its unknown keys and its depth). Raises the line's RecordError; returns the line
    decoded whole when that was needed and it holds a round (None otherwise; a line parsed by
    json has its numbers left out, which naming its fields does not need).

    Whitespace alone (``": "``, CR LF) is the common reason, and costs a count of spaces.
    Then the line decoded whole (unknown fields too, floats as 0 so that no value re-encodes
    longer than it is written) and re-encoded must be as long as the line, whitespace aside;
    only a line that is not (a repeated key, escapes) is parsed a third time, by json.
    """
    if _same_length(data, encoded):
        return None
    try:
        document = _DECODE_ANY(data)
    except (ValueError, msgspec.DecodeError):  # e.g. an int of 5,000 digits: json's turn
        document = None
    if document is not None:
        _ENCODE_INTO(document, encoded)
        if len(encoded) == len(data) - (data[-1] == 10) or _same_length(data, encoded):
            _check_spelling_of(document)
            if data.count(b"[") + data.count(b"{") > MAX_DEPTH + bets + 1:
                check_depth(data)
            return document if isinstance(document, dict) else None
    document = check_keys(data)
    return document if isinstance(document, dict) else None


class _Shape:
    """The shape a file's lines are decoded into: the validator's raw round and bet (of the
    bet types it knows, :func:`~reporting.ingest.validation.raw_shapes`), plus the fields of
    the exporter's own (``"dealer": ...`` on a round, ``"seat": ...`` on a bet) that the file
    was seen to hold, learnt from the first line that holds each, once it passed every check.

    A line with a field its shape lacks is longer than its re-encoding and takes the slower
    check (:func:`_check_line`), which names it in ``unread`` (the tool reads the spec's
    fields only: what the others hold is in no check, and the audit says so); once the field
    is learnt (decoded as any value, its floats
    kept as written so that they re-encode to the same bytes) the file's later lines pass
    the first test again. At most :data:`~reporting.ingest.limits.MAX_LEARNT_FIELDS` are
    learnt, each of a name of at most 64 characters: past that, lines keep the slower check.
    """

    def __init__(self, validator: RoundValidator, unread: UnreadFields) -> None:
        self.round_base, self.bet_base = validator.shape, validator.bet_shape
        self.unread = unread
        self.extras: tuple[str, ...] = ()  # of the round
        self.bet_extras: tuple[str, ...] = ()
        self.learnt = False  # whether any field was
        self.decode = validator.decoder.decode

    def learn(self, document: dict[str, Any]) -> bool:
        """Learn the round and bet fields of ``document`` the shape lacks; whether any were."""
        bets = document.get("bets")
        bet_keys: set[str] = set()
        if isinstance(bets, list):
            bet_keys.update(*(bet for bet in bets if isinstance(bet, dict)))
        self.unread.add(sorted(document.keys() - _ROUND_KEYS))
        self.unread.add(sorted(bet_keys - _BET_KEYS), of_bets=True)
        round_unknown = _new_names(document.keys() - _ROUND_KEYS, self.extras)
        bet_unknown = _new_names(bet_keys - _BET_KEYS, self.bet_extras)
        learnt = len(self.extras) + len(self.bet_extras) + len(round_unknown) + len(bet_unknown)
        if not (round_unknown or bet_unknown) or learnt > MAX_LEARNT_FIELDS:
            return False
        extras, bet_extras = self.extras + round_unknown, self.bet_extras + bet_unknown
        try:
            bet_shape = _extended(self.bet_base, bet_extras, [])
            shape = _extended(self.round_base, extras, [("bets", list[bet_shape])])  # type: ignore[valid-type]
        except (ValueError, TypeError):  # a name msgspec will not take: the slower check stays
            return False
        self.extras, self.bet_extras = extras, bet_extras
        self.decode = msgspec.json.Decoder(shape, float_hook=msgspec.Raw).decode
        self.learnt = True
        return True


def _new_names(keys: set[str], known: tuple[str, ...]) -> tuple[str, ...]:
    """The names of ``keys`` to learn: new ones of at most 64 characters that a decoder's
    field can be renamed to (msgspec refuses a name with a quote, a backslash or a control
    character: such a field is named all the same, and its lines keep the slower check)."""
    return tuple(
        sorted(
            key
            for key in keys
            if key not in known and len(key) <= 64 and not _UNRENAMABLE.search(key)
        )
    )


#: What msgspec refuses in a renamed field's name.
_UNRENAMABLE = re.compile(r'["\\\x00-\x1f]')


def _extended(base: type, extras: tuple[str, ...], fields: list[tuple[str, Any]]) -> type:
    """``base`` with ``fields`` replaced and the ``extras`` (JSON names) as optional fields."""
    names = [f"extra_{index}" for index in range(len(extras))]
    return msgspec.defstruct(
        base.__name__,
        [*fields, *((name, Any, UNSET) for name in names)],
        bases=(base,),
        rename=dict(zip(names, extras, strict=True)),
        gc=False,
    )


def _as_zero(text: str) -> int:
    """A float as the length check decodes it (re-encoded, no longer than any float)."""
    return 0


_DECODE_ANY = msgspec.json.Decoder(float_hook=_as_zero).decode
_ENCODE_INTO = msgspec.json.Encoder().encode_into


def _same_length(data: bytes, encoded: bytearray) -> bool:
    """Whether ``data`` is as long as ``encoded`` but for spaces (counted on both sides: the
    encoding has those inside strings) and the line ending. (A line spaced with tabs is
    not taken for the same: it goes to the slower check.)"""
    ending = (data[-1] == 10) + (data[-2:-1] == b"\r")
    return len(data) - data.count(b" ") - ending == len(encoded) - encoded.count(b" ")


def skip_over_long(handle: IO[bytes], head: bytes) -> None:
    """Stream past the rest of a line longer than the bound (a chunk at a time) and raise
    its reject; nothing if the line ended exactly at the bound (the end of the file)."""
    skipped = 0
    while chunk := handle.readline(SKIP_CHUNK_BYTES):
        skipped += len(chunk)
        if chunk[-1:] == b"\n":
            break
    if not skipped:
        return
    raise RecordError(
        RejectReason.BAD_VALUE,
        f"line of {len(head) + skipped:,} bytes, longer than any round log line"
        f" ({MAX_LINE_BYTES:,} bytes at most); it was not read",
    )


def skip_blank_run(handle: Any) -> int:
    """Skip the blank lines that follow, a buffer at a time; how many were skipped."""
    peek = getattr(handle, "peek", None)
    if peek is None:
        return 0
    skipped = 0
    while True:
        ahead = peek(1)
        if not ahead or ahead[0] not in _BLANK:
            return skipped
        blank = len(ahead) - len(ahead.lstrip(_BLANK))
        end = ahead.rfind(b"\n", 0, blank) + 1  # up to the last line ending of the run
        if not end:
            return skipped
        skipped += ahead.count(b"\n", 0, end)
        handle.read(end)
        if end < len(ahead):
            return skipped


def refuse_unreadable_text(name: str, first: bytes, handle: IO[bytes]) -> None:
    """Refuse a file whose first line read says it is no text of lines (UTF-16 and UTF-32
    text are refused before, by :func:`~reporting.ingest.sniff.refuse_binary`): lines ended
    by a carriage return alone, which read as one line, taken for a file still being written
    or one line too long. A first line of ``[`` alone opens a JSON array over many lines (a
    document saved as ``.jsonl``): each of its lines was a reject, and the file loaded with
    none of its rounds."""
    if first.strip(b" \t\r\n").removeprefix(b"\xef\xbb\xbf") == b"[":
        raise InputError(
            f"{name}:1: a JSON array written over many lines, not JSON Lines (one round, a"
            " whole JSON object, a line): nothing of it was loaded; a provider's export of an"
            " array of rounds is read through its log profile (--profile, the file named .json)"
        )
    if first[-1:] != b"\n" and _ends_a_record_at_a_lone_cr(first):
        raise InputError(
            f"{name}: its lines end in a carriage return alone (as classic Mac OS ended them),"
            " where a round log's end in a line feed (LF, or CR LF): convert it (for example"
            " with tr '\\r' '\\n')"
        )


def refuse_a_providers_export(name: str, first: bytes, handle: IO[bytes]) -> None:
    """Refuse, as the spec's round log, a file whose first line that is not blank (``first``
    is the first line read; the blank lines after it are peeked at, not read) is a record of
    a built-in log profile's export (``{"gameUid": ...}``, no ``round_id`` key): each of its
    lines was a ``missing_field`` reject, and the file, known by its content, was then
    "already ingested" when read again through its profile, in that store for good."""
    number, line = 1, first
    if not first.strip(_BLANK):  # blank lines first: the next ones, as far as peeked
        peeked = getattr(handle, "peek", lambda size: b"")(1)[:MAX_LINE_BYTES]
        lines = [first, *peeked.split(b"\n")]
        number = next((n for n, text in enumerate(lines, 1) if text.strip(_BLANK)), 0)
        line = lines[number - 1] if number else b""
    shape = providers_export(line)
    if shape is not None:
        profile, key = shape
        raise InputError(
            f"{name}:{number}: written as the {profile} export (its records hold {key}, not"
            " round_id), not the round log: nothing of it was loaded; read it through that"
            f" log profile (ingest --profile {profile}; in an inbox, an [[inbox.profiles]]"
            " rule naming it)"
        )


def providers_export(first: bytes) -> tuple[str, str] | None:
    """The built-in log profile (and the key of its round id) whose export a JSON Lines
    file's first line is a record of, where that record holds no ``round_id`` key (the text
    elsewhere in it, a value or a nested key, is no round id); else None."""
    if too_deep(first):
        return None
    try:
        record = msgspec.json.decode(first)
    except (msgspec.DecodeError, ValueError, RecursionError):
        return None
    if not isinstance(record, dict) or "round_id" in record:
        return None
    for profile, key in _profiles_round_keys():
        if key in record:
            return profile, key
    return None


@functools.cache
def _profiles_round_keys() -> tuple[tuple[str, str], ...]:
    """Each built-in log profile of JSON Lines with the top-level key its round id is read
    from (replay-api: ``gameUid``)."""
    from reporting.ingest.profiles.builtin import SPEC, built_in_profiles
    from reporting.ingest.profiles.loader import load_profile

    keys = []
    for name in built_in_profiles():
        profile = None if name == SPEC else load_profile(name)
        if profile is None or "jsonl" not in profile.layouts:
            continue
        path = profile.round_fields.get("round_id")
        if path is not None and not isinstance(path, tuple) and isinstance(path.steps[0], str):
            keys.append((name, path.steps[0]))
    return tuple(keys)


def _ends_a_record_at_a_lone_cr(first: bytes) -> bool:
    """Whether a first line without a line feed holds a whole record ended by a carriage
    return and another begun after it (a CR alone is JSON's whitespace too: a record may hold
    one, ``"bets":\\r[``)."""
    found = _AFTER_A_LONE_CR.search(first)
    return found is not None and _whole_json(first[: found.start()])


def refuse_if_cut(name: str, number: int, data: bytes) -> None:
    """Refuse the file whose last line ends without its newline and is not whole JSON: a
    file being written (an upload the run met midway) or cut. Refused whole, as a gzip cut
    short is: its lines loaded now and the cut one rejected would keep that reject after the
    whole file arrives (another file by its content), and the month would bear on it for
    good. A last line that is whole JSON but no good record (an exporter that ends its file
    without a newline) is a reject like any other line. A last line holding a NUL byte but at
    its end is no text at all: said so, not as a file still being written (a binary file in
    the inbox was waited for at every run); a last line of NULs alone is said as what it
    may be, an upload's room made ahead, or damage."""
    if data[-1:] != b"\n" and len(data) < MAX_LINE_BYTES and not _whole_json(data):
        if b"\0" in data.rstrip(b"\0"):  # an upload's room made ahead is zeros at its end
            raise InputError(
                f"{name}:{number}: the last line holds a NUL byte before its end, and no"
                " newline: the file is not text (a program or an archive named as a round"
                " log?), and it will not load at a later run; nothing of it was loaded: take"
                " it out of the inbox"
            )
        if not data.strip(b"\0"):
            raise InputError(
                f"{name}:{number}: the last line is NUL bytes alone, without a newline: room"
                " an upload made ahead and has not filled yet, or a damaged file; nothing of"
                " it was loaded (it loads at a later run once its writer has filled it; take it"
                " out of the inbox if it stays so)"
            )
        raise InputError(
            f"{name}:{number}: the last line has no newline and is not whole JSON: the file"
            " is still being written, or was cut; nothing of it was loaded (it loads at the"
            " next run once whole, or once its last line is mended)"
        )


def _whole_json(data: bytes) -> bool:
    """Whether ``data`` is one whole JSON value (of any shape). A value nested too deep to
    decode is taken as whole: it is no round record either way, and a reject of its own."""
    try:
        msgspec.json.decode(data)
    except msgspec.DecodeError:
        return False
    except RecursionError:
        return True
    return True


def _too_deep() -> RecordError:
    return RecordError(
        RejectReason.BAD_VALUE,
        f"arrays and objects nested more than {MAX_DEPTH} deep; a round log line is 3 deep",
    )


def check_depth(data: bytes) -> None:
    """Raise the depth reject if ``data`` nests deeper than :data:`MAX_DEPTH` (brackets
    inside strings not counted). Called only for the rare line with many brackets."""
    if too_deep(data):
        raise _too_deep()


class _DuplicateKey(Exception):
    def __init__(self, key: str):
        super().__init__(key)
        self.key = key


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    document = dict(pairs)
    if len(document) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _DuplicateKey(key)
            seen.add(key)
    return document


def _ignored(text: str) -> None:
    """Numbers are not looked at by the key check (their size is the decoder's concern)."""


def check_keys(data: bytes) -> Any:
    """Parse the line again, every key in view: raise the reject of a repeated key, of a
    key that is a misspelling of a field, or of nesting deeper than :data:`MAX_DEPTH`; else
    the line as parsed (its numbers left out)."""
    document = check_repeated_keys(data)
    _check_spelling_of(document)
    return document


def check_repeated_keys(data: bytes) -> Any:
    """Parse a record again, every key in view: raise the reject of a repeated key or of
    nesting deeper than :data:`MAX_DEPTH`; else the record as parsed (its numbers left out).
    A provider's export (a log profile) is held to this, its keys being the provider's own
    (the round log's spellings are :func:`check_keys`')."""
    try:
        document = json.loads(
            data,
            object_pairs_hook=_pairs,
            parse_int=_ignored,
            parse_float=_ignored,
            parse_constant=_ignored,
        )
    except _DuplicateKey as duplicate:
        raise RecordError(
            RejectReason.BAD_JSON,
            f"key {duplicate.key!r} appears twice in one object; which one is meant is unknown",
        ) from None
    check_depth(data)
    return document


def _check_spelling_of(document: Any) -> None:
    """Raise the reject of a key of the round or of a bet that is a misspelt field."""
    if not isinstance(document, dict):
        return
    if not _ROUND_KEYS.issuperset(document):
        _check_spelling(document, _ROUND_KEYS, "")
    bets = document.get("bets")
    if isinstance(bets, list) and not all(map(_known_bet_keys, bets)):
        for index, bet in enumerate(bets):
            if not _known_bet_keys(bet):
                _check_spelling(bet, _BET_KEYS, f"bets[{index}].")


def _known_bet_keys(bet: Any) -> bool:
    return not isinstance(bet, dict) or _BET_KEYS.issuperset(bet)


_ROUND_KEYS, _BET_KEYS = frozenset(ROUND_FIELDS), frozenset(BET_FIELDS)


def _check_spelling(document: dict[str, Any], known: frozenset[str], where: str) -> None:
    for key in sorted(document.keys() - known):
        meant = misspelt_field(key, BET_FIELDS if known is _BET_KEYS else ROUND_FIELDS)
        if meant is not None:
            raise RecordError(
                RejectReason.BAD_VALUE,
                f"unknown field {where}{key[:60]!r}: did you mean {meant}? (the round"
                " log spells it that way; a misspelt field would be ignored)",
            )


def _rejected(
    name: str,
    number: int,
    problem: RecordError,
    data: bytes,
    facts: tuple[str | None, str | None] = (None, None),
) -> RejectedLine:
    round_id, month = facts
    return RejectedLine(
        source_file=name,
        source_line=number,
        reason=problem.reason,
        message=problem.message,
        raw_text=raw_text(data),
        round_id=round_id,
        report_month=month,
    )


class _LineFacts(msgspec.Struct):
    round_id: Any = None
    game: Any = None
    settled_at: Any = None


_FACTS_DECODER = msgspec.json.Decoder(_LineFacts)


def _facts_of(data: bytes, validator: RoundValidator) -> tuple[str | None, str | None]:
    """The round id and the reporting month of a line that did not load, where they can be
    read (a stake written as a JSON number does not keep a line from naming its round)."""
    try:
        facts = _FACTS_DECODER.decode(data)
    except Exception:  # not JSON: nothing to read; this is only a courtesy
        return None, None
    round_id = facts.round_id[:200] if isinstance(facts.round_id, str) else None
    return round_id, validator.month_of(facts.game, facts.settled_at)
