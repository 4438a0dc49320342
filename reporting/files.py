"""Writing report files atomically, and hashing inputs and outputs.

Every report goes to a temporary file beside its target, flushed, then renamed over it, so a
reader never sees half a file.
"""

from __future__ import annotations

import hashlib
import os
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

__all__ = ["sha256_of", "write_atomically"]


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
