"""The names of the built-in log profiles, and the folder that holds them.

Its own module, importing nothing of the package: ``ingest --help`` lists these names, and
help must not load the profile loader (nor the configuration loader beneath it).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

__all__ = ["DATA_FOLDER", "SPEC", "built_in_profiles"]

DATA_FOLDER = Path(__file__).resolve().parent / "data"
#: The name of the round log format of the spec, read by the spec's own readers.
SPEC = "spec"


@cache
def built_in_profiles() -> tuple[str, ...]:
    """The names of the built-in profiles: the spec's, then the shipped files'."""
    return (SPEC, *sorted(path.stem for path in DATA_FOLDER.glob("*.toml")))
