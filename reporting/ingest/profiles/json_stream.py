"""The elements of a JSON array inside a document of any size, streamed a buffer at a time.

A provider's JSON export (``[game, game, ...]``, or a page object ``{"page": 1, "data":
[...]}``) may be gigabytes: :func:`array_elements` reads it a buffer of
:data:`_READ_BYTES` at a time and yields each element of the array at a path of object
keys as its bytes, for the caller's decoder. Memory stays within a few buffers whatever
the document:

* an element longer than :data:`~reporting.ingest.limits.MAX_LINE_BYTES`, or nested
  deeper than :data:`~reporting.ingest.limits.MAX_DEPTH`, is streamed past (only its first
  bytes kept) and yielded as :class:`Unreadable`; the elements after it are still read;
* the values of other keys on the way to the array, before or after it, are skipped
  unread, of any size or depth;
* an element that is whole (its strings and brackets balance) but is not valid JSON
  inside (``{"a": tru}``) is yielded as it is: the caller's decoder rejects it.

What makes the document itself unusable raises :class:`~reporting.errors.InputError`,
naming the file and the byte offset: not JSON at the top, the key of the path missing or
given twice, no array at the path, a comma or anything else out of place between elements,
a string, array or object the end of the file leaves open, anything but whitespace after
the document. Elements already yielded came from a document that turned out broken: the
caller's transaction per file drops them.

Speed: most elements are split by :mod:`msgspec`, in C. From two consecutive elements the
splitter learns the bytes between them (``}, {"gameUid"``: the end of one, the separator,
the start and first key of the next); the last place in the buffer where they occur is a
candidate end of an element. ``[`` + the bytes up to it + ``]`` decoded as a list of
:class:`msgspec.Raw` is a list of the elements exactly when the candidate is a real end
(JSON is read left to right: a prefix that parses as whole elements is split as the whole
document is); when it is not, or an element is not valid JSON, a shorter prefix is tried,
and elements are scanned one at a time (regular expressions with possessive quantifiers,
a Python step per bracket at most) until the candidate works again. The decoding proves
the elements whole, not shallow: each one's opening brackets are counted (in C, about a
third of the splitter's time), and the rare element with more than
:data:`~reporting.ingest.limits.MAX_DEPTH` has its depth measured.
"""

from __future__ import annotations

import functools
import re
import zlib
from collections.abc import Iterator
from itertools import accumulate, count, islice, repeat
from operator import add
from typing import IO, NamedTuple

import msgspec

from reporting.errors import InputError
from reporting.ingest.limits import MAX_DEPTH, MAX_LINE_BYTES, RAW_TEXT_LIMIT

__all__ = ["TOO_DEEP", "Element", "Unreadable", "array_elements", "too_deep"]


class Element(NamedTuple):
    """An element of the array: its position (0-based) and its bytes as written."""

    index: int
    data: bytes


class Unreadable(NamedTuple):
    """An element that was streamed past, unread: too long or nested too deep."""

    index: int
    head: bytes  # its first bytes (at most 4 * RAW_TEXT_LIMIT), for the reject's raw text
    message: str


#: The example of CPython gh-106052: "a" is not a repeat of the group, possessive or not.
POSSESSIVE_PROBE = r"(?:ab?c)*+"
#: Whether this Python repeats a group possessively right: 3.11 before 3.11.5 (Debian 12's
#: 3.11.2) lets an iteration that fails partway keep what it took, and the scan stepped a
#: bracket too far into a value nested past :data:`_JUMP_LEVELS` (CPython gh-106052).
POSSESSIVE_GROUPS_RIGHT = re.fullmatch(POSSESSIVE_PROBE, "a") is None


def _repeated(group: bytes) -> bytes:
    """``group`` repeated as often as it matches, never given back: possessively where this
    Python does it right; else in an atomic group, right in every 3.11, which holds each
    repeat's backtracking state until the group ends (memory that grows with the text one
    match spans: the buffer is then read a smaller piece at a time)."""
    return group + b"*+" if POSSESSIVE_GROUPS_RIGHT else b"(?>" + group + b"*)"


#: Bytes read from the handle at a time: large enough that a read and a split cost little
#: per element, small enough to hold a few times over (an eighth of it where a repeat holds
#: its state: :func:`_repeated`).
_READ_BYTES = 1024 * 1024 if POSSESSIVE_GROUPS_RIGHT else 128 * 1024
#: Bytes kept of an element that is not read (a UTF-8 character is at most 4 bytes).
_HEAD_BYTES = 4 * RAW_TEXT_LIMIT
#: Bytes between two elements the splitter learns from (a separator of more whitespace
#: than that is read one element at a time).
_MAX_SEPARATOR_BYTES = 64
#: Elements read one at a time after a failed split; doubled at each failure in a row
#: (a document of broken elements is read at the speed of the scan, not retried endlessly).
_EXACT_RUN, _MAX_EXACT_RUN = 16, 4096
#: Levels of nesting one regular-expression step of the scan takes in (any real round, 5
#: deep, in one step); deeper parts are followed a bracket at a time. A pattern of 64
#: levels would take 10 ms to compile, and one per depth 150 ms.
_JUMP_LEVELS = 8

#: Brackets a value's scan takes a Python step at a time before the rest of it is counted
#: over (a real round takes a few; one of brackets nested 63 deep and back, millions).
_SCANNED_STEPS = 10_000
#: Bytes whose brackets' depths are counted at once (a list of as many, in C).
_COUNTED_BYTES = 1 << 16

_BOM = b"\xef\xbb\xbf"
_QUOTE = ord('"')
_OPENERS = frozenset(b"[{")

_WHITESPACE = re.compile(rb"[ \t\r\n]*+")
_STRING = rb'"[^"\\]*+' + _repeated(rb'(?:\\.[^"\\]*+)') + rb'"'
_WHOLE_STRING = re.compile(_STRING, re.DOTALL)
#: The rest of a string from inside it: stops at its closing quote, at the end of the buffer,
#: or before a backslash that is the buffer's last byte.
_STRING_REST = re.compile(rb'[^"\\]*+' + _repeated(rb'(?:\\.[^"\\]*+)'), re.DOTALL)
#: A number, true, false, null (or a misspelling of one: the decoder's concern).
_SCALAR = re.compile(rb'[^ \t\r\n,:\[\]{}"]*+')
_BRACKET = re.compile(rb"[\[\]{}]")
#: +1 for an opening bracket, -1 for a closing one (indexed by byte).
_DEPTH_STEP = tuple((byte in b"[{") - (byte in b"]}") for byte in range(256))
_NOT_BRACKETS = bytes(byte for byte in range(256) if byte not in b"[]{}")
#: The start of an object up to the end of its first key: what the splitter learns.
_FIRST_KEY = re.compile(rb'\{[ \t\r\n]{0,32}"[^"\\]{1,64}"')
_DECODE_ELEMENTS = msgspec.json.Decoder(list[msgspec.Raw]).decode


@functools.cache
def _content(levels: int) -> re.Pattern[bytes]:
    """What an array or object holds, as far as it is whole: text, strings, and arrays and
    objects nested at most ``levels`` deep (possessive: it never backtracks).

    Brackets are matched by count, not kind: ``[1}`` is whole to the splitter, and the
    decoder's reject.
    """
    content = _repeated(rb'(?:[^"\[\]{}]++|' + _STRING + rb")")
    for _ in range(levels):
        content = _repeated(rb'(?:[^"\[\]{}]++|' + _STRING + rb"|[\[{]" + content + rb"[\]}])")
    return re.compile(content, re.DOTALL)


@functools.cache
def _container(levels: int) -> re.Pattern[bytes]:
    """A whole array or object nested at most ``levels`` deep (brackets in strings aside)."""
    return re.compile(rb"[\[{]" + _content(levels - 1).pattern + rb"[\]}]", re.DOTALL)


def array_elements(
    handle: IO[bytes], path: tuple[str, ...], name: str
) -> Iterator[Element | Unreadable]:
    """Each element of the array at ``path`` (object keys from the root; ``()``: the document
    is the array) of the JSON document ``handle`` reads, in order, streamed.

    >>> import io
    >>> document = b'{"page": 1, "data": [{"a": "]}\\\\""}, 2, {"a": tru}], "count": 3}'
    >>> [element.data for element in array_elements(io.BytesIO(document), ("data",), "f.json")]
    [b'{"a": "]}\\\\""}', b'2', b'{"a": tru}']
    >>> list(array_elements(io.BytesIO(b"[1,]"), (), "f.json"))
    Traceback (most recent call last):
    ...
    reporting.errors.InputError: f.json: byte 2: a comma after the last element (JSON allows none before ']')
    """
    reader = _Reader(handle, name)
    reader.start()
    if reader.next_byte() is None:
        raise reader.problem(reader.offset(), "empty, not a JSON document")
    yield from _at_path(reader, path, path)
    if reader.next_byte() is not None:
        raise reader.problem(
            reader.offset(),
            f"{reader.found()} after the end of the JSON document; only whitespace may follow it",
        )


class _Reader:
    """The document's bytes, a buffer at a time, and the scanning of values across buffers.

    ``buf[pos]`` is the next byte; ``base`` the offset of ``buf[0]`` in the document. The
    buffer is one bytearray read into and consumed from the front (no fresh megabyte
    allocation per read: their page faults would cost more than the splitting), and the
    byte before ``pos`` is kept (see :meth:`_Splitter.split`).
    While a value is kept (``mark``: where it starts in ``buf``), reading on keeps it in the
    buffer, up to :data:`MAX_LINE_BYTES`; past that only its first bytes are (``head``).
    """

    def __init__(self, handle: IO[bytes], name: str) -> None:
        self.handle, self.name = handle, name
        self.buf, self.pos, self.base, self.eof = bytearray(), 0, 0, False
        self.mark: int | None = None
        self.head = b""
        self.zeros = bytes(_READ_BYTES)  # what a read extends the buffer by, then fills

    def start(self) -> None:
        """Read the first buffer and step over a UTF-8 byte order mark."""
        while len(self.buf) < len(_BOM) and self.more():
            pass
        if self.buf.startswith(_BOM):
            self.pos = len(_BOM)

    def offset(self) -> int:
        return self.base + self.pos

    def problem(self, offset: int, what: str) -> InputError:
        return InputError(f"{self.name}: byte {offset}: {what}")

    def found(self) -> str:
        """What sits at ``pos``, as a message shows it."""
        if self.pos >= len(self.buf):
            return "the end of the file"
        words = self.buf[self.pos : self.pos + 20].decode("utf-8", "replace").split()
        return repr(words[0] if words else self.buf[self.pos : self.pos + 1].decode("latin-1"))

    def truncated(self, offset: int, what: str) -> InputError:
        return self.problem(
            offset, f"{what} opened here is never closed: the file ends first (truncated?)"
        )

    def more(self) -> bool:
        """Read the next buffer (keeping what is still needed); whether there was any."""
        if self.eof:
            return False
        mark, buf = self.mark, self.buf
        if mark is not None and self.pos - mark > MAX_LINE_BYTES:
            self.head, self.mark, mark = bytes(buf[mark : mark + _HEAD_BYTES]), None, None
        drop = max((self.pos if mark is None else mark) - 1, 0)
        del buf[:drop]
        self.base += drop
        self.pos -= drop
        if mark is not None:
            self.mark = mark - drop
        size, got = len(buf), 0
        buf += self.zeros
        try:
            with memoryview(buf)[size:] as free:
                got = self.handle.readinto(free) or 0  # type: ignore[attr-defined]
        except (OSError, EOFError, zlib.error) as error:
            raise InputError(f"{self.name}: cannot be read to the end ({error})") from None
        finally:
            del buf[size + got :]
        if not got:
            self.eof = True
            return False
        return True

    def ahead(self, size: int) -> None:
        """Read on until ``size`` bytes are in the buffer past ``pos`` (or the file ends)."""
        while len(self.buf) - self.pos < size and self.more():
            pass

    def next_byte(self) -> int | None:
        """Step over whitespace; the next byte, or None at the end of the file."""
        while True:
            self.pos = _WHITESPACE.match(self.buf, self.pos).end()  # type: ignore[union-attr]
            if self.pos < len(self.buf):
                return self.buf[self.pos]
            if not self.more():
                return None

    def value(self, keep: bool) -> tuple[int, bytes | None, bool]:
        """Scan the value starting at ``pos`` to its end: its size, its bytes when kept and
        not longer than :data:`MAX_LINE_BYTES`, and whether it nests deeper than
        :data:`MAX_DEPTH`."""
        start = self.offset()
        self.mark, self.head = (self.pos if keep else None), b""
        first = self.buf[self.pos]
        deep = False
        if first == _QUOTE:
            self.string(start)
        elif first in _OPENERS:
            deep = self.container(start)
        else:
            self.scalar()
        data = None
        if self.mark is not None:
            data = bytes(self.buf[self.mark : self.pos])
            self.head = data[:_HEAD_BYTES]
        self.mark = None
        size = self.offset() - start
        return size, (data if size <= MAX_LINE_BYTES else None), deep

    def scalar(self) -> None:
        while True:
            self.pos = _SCALAR.match(self.buf, self.pos).end()  # type: ignore[union-attr]
            if self.pos < len(self.buf) or not self.more():
                return

    def string(self, start: int) -> None:
        """Step over the string at ``pos`` (whole in the buffer, or read on to its end)."""
        whole = _WHOLE_STRING.match(self.buf, self.pos)
        if whole is not None:
            self.pos = whole.end()
            return
        self.pos += 1
        while True:
            self.pos = _STRING_REST.match(self.buf, self.pos).end()  # type: ignore[union-attr]
            if self.pos < len(self.buf) and self.buf[self.pos] == _QUOTE:
                self.pos += 1
                return
            if not self.more():
                raise self.truncated(start, "a string")

    def container(self, start: int) -> bool:
        """Step over the array or object at ``pos``; whether it nests deeper than
        :data:`MAX_DEPTH` (then the rest is counted over, not scanned)."""
        whole = _container(min(MAX_DEPTH, _JUMP_LEVELS)).match(self.buf, self.pos)
        if whole is not None:  # the common case: in one step, in C
            self.pos = whole.end()
            return False
        depth = deepest = steps = 0
        while True:
            buf = self.buf
            if depth:  # what it holds, in C, up to its end, a buffer's end or a deeper part
                levels = min(MAX_DEPTH - depth, _JUMP_LEVELS)
                self.pos = _content(levels).match(buf, self.pos).end()  # type: ignore[union-attr]
            pos = self.pos
            if pos == len(buf):
                if not self.more():
                    raise self.truncated(start, "an array or object")
                continue
            byte = buf[pos]
            if byte == _QUOTE:  # a string the buffer ends inside
                self.string(self.offset())
            elif byte in _OPENERS:
                depth, steps = depth + 1, steps + 1
                deepest = max(deepest, depth)
                self.pos = pos + 1
                if depth > MAX_DEPTH or steps > _SCANNED_STEPS:
                    return self.count_over(depth, deepest, start)
            else:
                depth -= 1
                self.pos = pos + 1
                if depth == 0:
                    return False

    def count_over(self, depth: int, deepest: int, start: int) -> bool:
        """Step to the end of a value from ``depth`` (its deepest so far ``deepest``): nested
        too deep to scan, or whose scan took a bracket at a time too often (brackets nested 63
        deep and back, a second a megabyte); whether it nests deeper than :data:`MAX_DEPTH`.
        Brackets are counted a window up to the next string at a time, strings and the text
        between them are stepped over a run at a time (never a Python step per byte)."""
        while True:
            buf, pos = self.buf, self.pos
            quote = buf.find(b'"', pos)
            end = len(buf) if quote < 0 else quote
            for first in range(pos, end, _COUNTED_BYTES):
                last = min(first + _COUNTED_BYTES, end)
                if deepest > MAX_DEPTH:  # too deep already: only where it ends matters
                    closes = buf.count(b"]", first, last) + buf.count(b"}", first, last)
                    if closes < depth:  # cannot get back to 0 in this window
                        depth += buf.count(b"[", first, last) + buf.count(b"{", first, last)
                        depth -= closes
                        continue
                brackets = buf[first:last].translate(None, _NOT_BRACKETS)
                levels = list(accumulate(map(_DEPTH_STEP.__getitem__, brackets), initial=depth))
                try:
                    closing = levels.index(0, 1)  # back to 0 at that bracket of the window
                except ValueError:
                    deepest, depth = max(deepest, max(levels)), levels[-1]
                    continue
                found = _BRACKET.finditer(buf, first, last)
                self.pos = next(islice(found, closing - 1, None)).end()
                return max(deepest, max(levels[:closing])) > MAX_DEPTH
            self.pos = end
            if end < len(buf):  # a string, and the strings and text after it, in C
                self.string(self.offset())
                self.pos = _content(0).match(self.buf, self.pos).end()  # type: ignore[union-attr]
            elif not self.more():
                raise self.truncated(start, "an array or object")


def _at_path(
    reader: _Reader, path: tuple[str, ...], full: tuple[str, ...]
) -> Iterator[Element | Unreadable]:
    """The elements of the array at ``path`` from the value at ``pos``."""
    where = "/".join(full)
    if not path:
        if reader.buf[reader.pos] != ord("["):
            at = f"at {where} " if full else "of the document "
            raise reader.problem(reader.offset(), f"the value {at}is {_kind(reader)}, not an array")
        yield from _elements(reader)
        return
    key = path[0]
    if reader.buf[reader.pos] != ord("{"):
        raise reader.problem(
            reader.offset(),
            f"{_kind(reader)} where an object holding the key {key!r} is looked for",
        )
    opened = reader.offset()
    reader.pos += 1
    seen = False
    byte = reader.next_byte()
    while byte != ord("}"):
        if byte != _QUOTE:
            raise _out_of_place(reader, "a key", opened, "an object")
        at = reader.offset()
        meant = _key_is(reader, key)
        _to_value(reader, opened)
        if meant and seen:
            raise reader.problem(
                at, f"the key {key!r} appears twice; which one is meant is unknown"
            )
        if meant:
            seen = True
            yield from _at_path(reader, path[1:], full)
        else:
            reader.value(keep=False)
        byte = _next_member(reader, opened)
    reader.pos += 1
    if not seen:
        raise reader.problem(opened, f"the object has no key {key!r} (the array at {where})")


def _to_value(reader: _Reader, opened: int) -> None:
    """Step from the end of a key to the start of its value."""
    if reader.next_byte() != ord(":"):
        raise _out_of_place(reader, "':' after a key", opened, "an object")
    reader.pos += 1
    byte = reader.next_byte()
    if byte is None or byte in b",:]}":
        raise _out_of_place(reader, "a value", opened, "an object")


def _next_member(reader: _Reader, opened: int) -> int:
    """Step from the end of a value to the next key (its quote) or the object's end."""
    byte = reader.next_byte()
    if byte == ord("}"):
        return byte
    if byte != ord(","):
        raise _out_of_place(reader, "',' or '}'", opened, "an object")
    comma = reader.offset()
    reader.pos += 1
    byte = reader.next_byte()
    if byte == ord("}"):
        raise reader.problem(comma, "a comma after the last key of an object")
    return -1 if byte is None else byte


def _key_is(reader: _Reader, key: str) -> bool:
    """Step over the key at ``pos``; whether it is ``key``."""
    _, data, _ = reader.value(keep=True)
    if data is None or len(data) > 6 * len(key.encode()) + 2:
        return False
    if data[1:-1] == key.encode():
        return True
    if b"\\" not in data:
        return False
    try:
        return bool(msgspec.json.decode(data) == key)
    except msgspec.DecodeError:
        raise reader.problem(
            reader.offset() - len(data), "a key that is not a JSON string"
        ) from None


def _kind(reader: _Reader) -> str:
    byte = reader.buf[reader.pos]
    kinds = {ord("{"): "an object", ord("["): "an array", _QUOTE: "a string"}
    if byte in kinds:
        return kinds[byte]
    if byte in b"-0123456789":
        return "a number"
    return reader.found()


def _out_of_place(reader: _Reader, wanted: str, opened: int, what: str) -> InputError:
    if reader.pos >= len(reader.buf):
        return reader.truncated(opened, what)
    return reader.problem(reader.offset(), f"{reader.found()} where {wanted} is expected")


class _Splitter:
    """What the splitter learnt of the array: the bytes around an element boundary."""

    def __init__(self) -> None:
        self.boundary: bytes | None = None
        self.exact_left = 2  # elements to scan one at a time before a split is tried
        self.run = _EXACT_RUN

    def learn(self, last: bytes, separator: bytes, element: bytes) -> None:
        start = _FIRST_KEY.match(element)
        if last[-1:] in (b"}", b"]") and start is not None:
            self.boundary = last[-1:] + separator + start.group()

    def split(self, reader: _Reader, index: int) -> list[Element | Unreadable] | None:
        """The elements from ``pos`` up to the last learnt boundary in the buffer, split by
        msgspec (a shorter stretch after a failure); None when none could be."""
        boundary = self.boundary
        if boundary is None:
            return None
        reader.ahead(len(reader.zeros))
        buf, start = reader.buf, reader.pos
        end = len(buf)
        while start and (found := buf.rfind(boundary, start + 1, end)) >= 0:
            datas = _split_in_place(buf, start, found + 1)
            if datas is None:
                end = start + (found - start) // 2 + len(boundary)  # try the first half
                continue
            reader.pos = found + 1
            self.run = _EXACT_RUN
            if _any_suspect(datas):
                return [_checked(index + number, data) for number, data in enumerate(datas)]
            return list(map(_new_tuple, repeat(Element), zip(count(index), datas)))
        if buf.find(boundary, start) < 0:
            self.boundary = None  # the elements changed their form: learn it again
        self.exact_left, self.run = self.run, min(2 * self.run, _MAX_EXACT_RUN)
        return None


def _split_in_place(buf: bytearray, start: int, end: int) -> list[bytes] | None:
    """The elements of ``buf[start:end]`` if it is a run of whole elements, decoded as an
    array in place: the byte before ``start`` and the one at ``end`` (separators) are
    replaced by brackets for the time of the decoding (a copy would cost more than it)."""
    before, after = buf[start - 1], buf[end]
    buf[start - 1], buf[end] = 0x5B, 0x5D  # [ and ]
    try:
        with memoryview(buf)[start - 1 : end + 1] as view:
            raws = _DECODE_ELEMENTS(view)
            datas = list(map(bytes, raws))
            del raws  # releases the view
        return datas
    except (msgspec.DecodeError, RecursionError, ValueError):
        return None
    finally:
        buf[start - 1], buf[end] = before, after


def _any_suspect(datas: list[bytes]) -> bool:
    """Whether an element may be too long or too deep (more brackets opened than the depth
    bound: the rare element whose depth is then measured). In C, element by element."""
    braces, brackets = map(bytes.count, datas, repeat(b"{")), map(bytes.count, datas, repeat(b"["))
    return max(map(add, braces, brackets)) > MAX_DEPTH or max(map(len, datas)) > MAX_LINE_BYTES


#: Makes an Element in C (``Element(index, data)`` would run NamedTuple's __new__ in Python).
_new_tuple = tuple.__new__


def _checked(index: int, data: bytes) -> Element | Unreadable:
    """The element, or Unreadable if it is too long or nests too deep (counted only when
    it could)."""
    if len(data) > MAX_LINE_BYTES:
        return Unreadable(index, data[:_HEAD_BYTES], _too_long(len(data)))
    if too_deep(data):
        return Unreadable(index, data[:_HEAD_BYTES], TOO_DEEP)
    return Element(index, data)


def too_deep(data: bytes) -> bool:
    """Whether a record's bytes nest deeper than :data:`MAX_DEPTH` (brackets in strings
    aside; counted only when there are enough brackets to)."""
    return data.count(b"[") + data.count(b"{") > MAX_DEPTH and _depth(data) > MAX_DEPTH


def _depth(data: bytes) -> int:
    structure = _WHOLE_STRING.sub(b"", data) if b'"' in data else data
    brackets = structure.translate(None, _NOT_BRACKETS)
    return max(accumulate(map(_DEPTH_STEP.__getitem__, brackets)), default=0)


TOO_DEEP = (
    f"arrays and objects nested more than {MAX_DEPTH} deep (a round is 5 deep at most);"
    " it was not read"
)


# Long on purpose: the loop over the array's elements and separators, with its errors said
# where they are found; the scanning itself is in _Reader and _Splitter.
def _elements(reader: _Reader) -> Iterator[Element | Unreadable]:
    opened = reader.offset()
    reader.pos += 1
    byte = reader.next_byte()
    if byte == ord("]"):
        reader.pos += 1
        return
    splitter = _Splitter()
    index = 0
    last, separator = b"", b""
    while True:
        if byte is None:
            raise reader.truncated(opened, "the array")
        split = splitter.split(reader, index) if splitter.exact_left <= 0 else None
        if split:
            yield from split
            index += len(split)
            last = b""
        else:
            if byte in b",:]}":
                what = "a comma" if byte == ord(",") else reader.found()
                raise reader.problem(reader.offset(), f"{what} where element #{index} is expected")
            size, data, deep = reader.value(keep=True)
            if data is None or deep:
                yield Unreadable(index, reader.head, TOO_DEEP if deep else _too_long(size))
                data = b""
            else:
                yield Element(index, data)
                if splitter.boundary is None and last:
                    splitter.learn(last, separator, data)
            index += 1
            splitter.exact_left -= 1
            last = data
        base, after = reader.base, reader.pos
        byte = reader.next_byte()
        if byte == ord("]"):
            reader.pos += 1
            return
        if byte != ord(","):
            raise _out_of_place(
                reader, f"',' or ']' after element #{index - 1}", opened, "the array"
            )
        comma = reader.offset()
        reader.pos += 1
        byte = reader.next_byte()
        if byte == ord("]"):
            raise reader.problem(
                comma, "a comma after the last element (JSON allows none before ']')"
            )
        separator = b""
        if reader.base == base and reader.pos - after <= _MAX_SEPARATOR_BYTES:
            separator = bytes(reader.buf[after : reader.pos])


def _too_long(size: int) -> str:
    return (
        f"element of {size:,} bytes, longer than any round ({MAX_LINE_BYTES:,} bytes at most);"
        " it was not read"
    )
