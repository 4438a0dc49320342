"""The output folder of the monthly run: its lock, its staging area, and the checks that a
month's folder, replaced whole, holds only what an earlier run wrote.

* one run at a time: a lock file beside the output folder (``.<name>.lock``, outside the tree
  that gets published), opened without following links; a second run waits (``wait``
  seconds) or stops with :class:`LockHeld`;
* a month's reports are staged in ``.staging/<month>`` and swapped in by renames
  (:func:`reporting.files.swap_in_folder`); what a stopped run left (a staging folder, a swap
  half done) is cleared or finished by the next (:func:`prepare_out`).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import shutil
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from reporting.errors import InputError
from reporting.files import (
    check_replaceable,
    clear_staging,
    hold_lock,
    make_staging,
    name_that_fits,
    refuse_foreign,
    repair_folder_swap,
    standing_at,
)
from reporting.jobs.late import manifest_entries

__all__ = [
    "MANIFEST",
    "REPORTS",
    "STAGING",
    "LockHeld",
    "lock_path",
    "output_lock",
    "prepare_out",
    "refuse_unlisted",
    "staging_folder",
]

#: The lock file earlier versions kept inside the output folder (removed when found).
LEGACY_LOCK_NAME = ".baccarat-report.lock"
STAGING = ".staging"
#: The file every month's folder of reports holds: the mark that it is ours to replace.
MANIFEST = "manifest.json"
#: What a month's folder holds, in the line that refuses another folder of its name.
REPORTS = "a month's reports of baccarat-report"
#: What a month's folder is called while the swap replaces it (see
#: :func:`reporting.files.swap_in_folder`).
_RETIRED = re.compile(r"\.(\d{4}-\d{2})\.old")


class LockHeld(InputError):
    """Another monthly run holds the lock on the output folder."""


def lock_path(out: Path) -> Path:
    """The lock file of an output folder: ``.<name>.lock`` beside it, outside the tree that
    is published. The folder's real path names it, so two spellings of one folder (a
    relative path, a link) share one lock."""
    try:
        folder = out.resolve()
    except (RuntimeError, OSError):  # Python 3.11 raises RuntimeError for a loop of links
        raise InputError(
            f"{out}: the output folder's path is a loop of symbolic links; name a folder"
        ) from None
    if not folder.name:
        raise InputError(f"{out}: the output folder cannot be the root of the file system")
    digest = hashlib.sha256(os.fsencode(folder.name)).hexdigest()[:32]  # the same every run
    return folder.parent / name_that_fits(f".{folder.name}.lock", f".{digest}.lock")


@contextmanager
def output_lock(out: Path, wait: float) -> Iterator[None]:
    """Hold the output folder's lock (:func:`lock_path`; a link, a FIFO, a folder or a hard
    link at its path is refused untouched), waiting up to ``wait`` seconds for another run."""
    path = lock_path(out)
    _make_output_folder(out)

    def held(holder: str) -> LockHeld:
        waited = f", past the {wait:g} s this run waited" if wait > 0 else ""
        return LockHeld(
            f"{out}: another monthly run is writing here ({holder}){waited}; it was not"
            " disturbed. Try again when it ends, or pass --wait SECONDS"
            + (" (a longer wait)" if wait > 0 else "")
        )

    with hold_lock(path, wait, held_by_other=held):
        _remove_legacy_lock(out)
        yield


def _make_output_folder(out: Path) -> None:
    """Make the output folder (and its parents) if missing; something at its path that is
    not a folder (a link to nothing, a FIFO, a device) refused in one line."""
    try:
        out.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        what = standing_at(out)
        raise InputError(
            f"{out}: the output folder is {what}, not a folder; name a folder"
        ) from None


def _remove_legacy_lock(out: Path) -> None:
    """Earlier versions kept their lock file in the output folder: remove it (never through
    a link: unlink removes the link itself)."""
    with contextlib.suppress(FileNotFoundError):
        (out / LEGACY_LOCK_NAME).unlink()


def repair_swap(out: Path, log: Callable[[str], None]) -> None:
    """Finish what a run killed while swapping a month's folder in left (we hold the lock):
    :func:`reporting.files.repair_folder_swap` for each retired month folder."""
    if not out.is_dir():
        return
    for retired in sorted(out.iterdir()):
        match = _RETIRED.fullmatch(retired.name)
        if match is not None and repair_folder_swap(out / match.group(1), MANIFEST):
            final = out / match.group(1)
            log(f"restored {final} from {retired.name}, left by a run stopped while swapping")


def prepare_out(out: Path, months: Iterable[str], log: Callable[[str], None]) -> None:
    """Before anything is read (we hold the lock: no run is live): finish a swap a stopped
    run left, clear its staging area, and refuse, in one line, a folder of somebody else's
    files where a month's folder, replaced whole, is written."""
    repair_swap(out, log)
    clear_staging(out / STAGING, "the run stages its reports")
    for month in sorted(months):
        check_replaceable(out / month, MANIFEST, REPORTS)
        refuse_unlisted(out / month)


def refuse_unlisted(final: Path) -> None:
    """Refuse, in one line, to replace a month's folder holding files its manifest does not
    list: somebody's among the reports (the signed audit, notes), the swap would delete them."""
    manifest = final / MANIFEST
    if not manifest.is_file():
        return  # absent or empty: check_replaceable said what it is
    try:
        listed = {entry["file"] for entry in manifest_entries(manifest, "outputs")}
    except (OSError, ValueError, KeyError, TypeError, RecursionError):
        raise InputError(
            f"{manifest}: not the manifest of a month's reports (it cannot be read as one), and"
            " its folder would be replaced whole; move the folder away and run again"
        ) from None
    listed.add(MANIFEST)
    refuse_foreign(
        final,
        lambda relative, folder: folder or relative in listed,  # its folders hold the files
        wrote="this tool did not write",
        within="the month's folder",
    )


@contextmanager
def staging_folder(out: Path, month: str) -> Iterator[Path]:
    """A new staging folder for a month's reports, removed unless all are written (swapped in)."""
    if not (out / STAGING).is_dir():
        make_staging(out / STAGING)
    staging = out / STAGING / month
    staging.mkdir()
    try:
        yield staging
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
