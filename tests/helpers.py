"""Plain helpers shared by several test modules (fixtures live in conftest.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def run_main(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """``python -m reporting ...`` in a child process, to see main()'s real exit code and
    stderr."""
    return subprocess.run(
        [sys.executable, "-m", "reporting", *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=cwd,
        timeout=120,
    )
