"""Writing report files: atomically, and reproducibly for workbooks.

Every report goes to a temporary file beside its target, flushed, then renamed over it, so a
reader never sees half a file. Workbooks are zip archives whose entries openpyxl stamps with
the clock; :func:`save_workbook` pins every entry to one date so the same inputs give the
same bytes.
"""

from __future__ import annotations

import hashlib
import os
import secrets
import shutil
import zipfile
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

if TYPE_CHECKING:
    from openpyxl import Workbook

__all__ = ["save_workbook", "sha256_of", "write_atomically"]


def sha256_of(*paths: Path) -> str:
    """Hex sha256 of the files' contents, read in order (one file, or a CSV pair)."""
    digest = hashlib.sha256()
    for path in paths:
        with Path(path).open("rb") as handle:
            while chunk := handle.read(1 << 20):
                digest.update(chunk)
    return digest.hexdigest()


def write_atomically(path: Path, data: bytes | Callable[[BinaryIO], None]) -> Path:
    """Write ``data`` (bytes, or a function writing to a binary file) to ``path`` atomically.

    The content goes to a temporary file beside ``path``, flushed to disk, then renamed over
    ``path``; on any error the temporary file is removed and ``path`` is left as it was.
    """
    path = Path(path)
    temporary = path.with_name(f".{path.name}.{secrets.token_hex(6)}.tmp")
    # os.open applies the umask, as a plain open() of ``path`` would.
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(descriptor, "wb") as handle:
            if isinstance(data, bytes):
                handle.write(data)
            else:
                data(handle)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    return path


class _PinnedZipFile(zipfile.ZipFile):
    """A zip archive whose entries all carry one fixed time and fixed attributes.

    openpyxl adds entries with ``writestr(name, data)`` (stamped with the clock) and
    ``write(path, name)`` (stamped with the temporary file's time): both are pinned here.
    """

    def __init__(self, file: BinaryIO, date_time: tuple[int, int, int, int, int, int]):
        super().__init__(file, "w", zipfile.ZIP_DEFLATED, allowZip64=True)
        self.pinned_time = date_time

    def _entry(self, name: str) -> zipfile.ZipInfo:
        entry = zipfile.ZipInfo(name, self.pinned_time)
        entry.compress_type = zipfile.ZIP_DEFLATED
        entry.create_system = 3  # Unix, as zipfile records on Linux and macOS
        entry.external_attr = 0o644 << 16
        return entry

    def writestr(self, zinfo_or_arcname, data, compress_type=None, compresslevel=None):
        if isinstance(zinfo_or_arcname, str):
            zinfo_or_arcname = self._entry(zinfo_or_arcname)
        super().writestr(zinfo_or_arcname, data, compress_type, compresslevel)

    def write(self, filename, arcname=None, compress_type=None, compresslevel=None):
        entry = self._entry(arcname or os.path.basename(filename))
        entry.file_size = os.path.getsize(filename)
        with open(filename, "rb") as source, self.open(entry, "w") as target:
            shutil.copyfileobj(source, target, 1 << 20)


def save_workbook(workbook: Workbook, handle: BinaryIO, day: date) -> None:
    """Save an openpyxl workbook into ``handle`` with every zip entry dated ``day``.

    ``Workbook.save`` stamps the modification time with the clock; driving its
    ``ExcelWriter`` directly keeps the properties the caller pinned.
    """
    from openpyxl.writer.excel import ExcelWriter

    pinned = (day.year, day.month, day.day, 0, 0, 0)
    ExcelWriter(workbook, _PinnedZipFile(handle, pinned)).save()
