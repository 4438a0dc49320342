"""What a file's first bytes say it holds when it is no text at all: an archive, compressed
data or a document, given or dropped in an inbox under a round log's name.

Read line by line, such a file was a pile of rejects, and its last line (a tar's padding of
NULs, or a compressed stream's bytes) was taken for a file still being written, to load at
the next run: it never would. It is refused at once instead, in one line saying what it is
and what to do, before a line of it is read.
"""

from __future__ import annotations

import gzip
import re
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from reporting.errors import InputError
from reporting.files import SQLITE_HEADER

__all__ = [
    "GZIP_MAGIC",
    "HEAD_BYTES",
    "WIDE_TEXT",
    "head_of",
    "refuse_binary",
    "why_not_a_log",
    "wide_text",
]

#: Bytes of a file's start looked at: a tar header's mark ends at byte 265. Every mark below
#: holds a byte no round log's text begins with (a control character, a NUL, a byte that is
#: no UTF-8) or is a run no header or record begins with (bzip2's ``BZh91AY&SY``, ``%PDF-``).
HEAD_BYTES = 512


@dataclass(frozen=True)
class _Signature:
    """A kind of file, by the bytes at an offset of its start, and what to do with one."""

    offset: int
    mark: re.Pattern[bytes]
    what: str
    remedy: str


#: How a file's first bytes say it is gzip data.
GZIP_MAGIC = b"\x1f\x8b"

_TAKE_OUT = "take the round logs out of it ({tool}) and load those"
_DECOMPRESS = "decompress it ({tool})"
_EXPORT = "export the round log itself (JSON Lines or CSV)"

#: Gzip data: inside a gzip, compressed twice.
_GZIP = _Signature(
    0, re.compile(re.escape(GZIP_MAGIC)), "gzip data", _DECOMPRESS.format(tool="gunzip")
)

_SIGNATURES = (
    _GZIP,
    _Signature(
        257, re.compile(rb"ustar(\x0000|  \x00)"), "a tar archive", _TAKE_OUT.format(tool="tar -xf")
    ),
    _Signature(
        0,
        re.compile(rb"PK(\x03\x04|\x05\x06)"),
        "a zip archive (or an Office document)",
        _TAKE_OUT.format(tool="unzip"),
    ),
    _Signature(
        0,
        re.compile(rb"BZh[1-9](1AY&SY|\x17rE8P\x90)"),
        "bzip2 data",
        _DECOMPRESS.format(tool="bunzip2"),
    ),
    _Signature(0, re.compile(rb"\xfd7zXZ\x00"), "xz data", _DECOMPRESS.format(tool="unxz")),
    _Signature(0, re.compile(rb"\x28\xb5\x2f\xfd"), "zstd data", _DECOMPRESS.format(tool="unzstd")),
    _Signature(
        0, re.compile(rb"7z\xbc\xaf\x27\x1c"), "a 7-Zip archive", _TAKE_OUT.format(tool="7z x")
    ),
    _Signature(0, re.compile(rb"Rar!\x1a\x07"), "a RAR archive", _TAKE_OUT.format(tool="unrar x")),
    _Signature(0, re.compile(rb"%PDF-"), "a PDF document", _EXPORT),
    _Signature(
        0,
        re.compile(rb"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"),
        "an old Office document (.xls, .doc)",
        _EXPORT,
    ),
    _Signature(0, re.compile(re.escape(SQLITE_HEADER)), "an SQLite database", _EXPORT),
    _Signature(0, re.compile(rb"\x7fELF"), "a program (ELF)", "take it out of the inbox"),
)


#: The byte order marks of UTF-16 and UTF-32 (UTF-32's little-endian mark begins as
#: UTF-16's).
_WIDE_MARKS = (b"\xff\xfe", b"\xfe\xff", b"\x00\x00\xfe\xff")
WIDE_TEXT = "UTF-16 or UTF-32 text: a round log is UTF-8 text; export or save it as UTF-8"


def wide_text(head: bytes) -> bool:
    """Whether a file's first four bytes are UTF-16 (or UTF-32) text: its byte order mark, or
    a NUL in every other byte without one (UTF-8 text holds none; a file of NULs, one being
    written, is not said to be).

    >>> wide_text("{}".encode("utf-16")), wide_text(b'{"a"'), wide_text(bytes(4))
    (True, False, False)
    """
    if head.startswith(_WIDE_MARKS):
        return True
    return len(head) >= 4 and (head[1] == head[3] == 0) != (head[0] == head[2] == 0)


def why_not_a_log(head: bytes, *, gzipped: bool = False) -> str | None:
    """What the first bytes of a file (``head``; of its decompressed text if ``gzipped``) say
    it is when it is no round log, as a message's words, or None.

    >>> why_not_a_log(b"PK\\x03\\x04...")  # doctest: +ELLIPSIS
    'a zip archive (or an Office document), not a round log: ... (unzip) and load those'
    """
    for signature in _SIGNATURES:
        if signature.mark.match(head, signature.offset) is None:
            continue
        if gzipped and signature is _GZIP:
            return (
                "gzip data compressed twice (gzip inside gzip), not a round log: nothing of it"
                " was loaded, and it will not load as it is; decompress it once (gunzip),"
                " keeping its name's .gz"
            )
        what = f"{signature.what} compressed with gzip" if gzipped else signature.what
        return (
            f"{what}, not a round log: nothing of it was loaded, and it will not load as it"
            f" is; {signature.remedy}"
        )
    # a spreadsheet's "Unicode text": read as UTF-8, a CSV header lacking every column
    return WIDE_TEXT if wide_text(head[:4]) else None


def head_of(path: Path) -> tuple[bytes, bytes | None] | None:
    """The first :data:`HEAD_BYTES` bytes of the file, and of its decompressed text when it is
    gzip data that decompresses (None otherwise), read in one opening; None where the file
    cannot be read (its reader says why)."""
    try:
        with path.open("rb") as handle:
            raw = handle.read(HEAD_BYTES)
            if not raw.startswith(GZIP_MAGIC):
                return raw, None
            handle.seek(0)
            try:
                with gzip.GzipFile(fileobj=handle) as text:
                    return raw, text.read(HEAD_BYTES)
            except (EOFError, zlib.error, gzip.BadGzipFile):
                return raw, None
    except OSError:
        return None


def refuse_binary(name: str, handle: IO[bytes], *, gzipped: bool) -> None:
    """Raise the one-line :class:`~reporting.errors.InputError` of a file whose first bytes
    (peeked from the buffered ``handle``, read from nowhere else) say it is an archive,
    compressed data or a document (:func:`why_not_a_log`). Bytes that cannot be read are left
    to the reader, which says why."""
    try:
        head = handle.peek(HEAD_BYTES)[:HEAD_BYTES]  # type: ignore[attr-defined]
    except (OSError, EOFError, zlib.error):
        return
    kind = why_not_a_log(head, gzipped=gzipped)
    if kind is not None:
        raise InputError(f"{name}: {kind}")
