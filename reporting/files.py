"""Files the tool reads, writes and locks, and the faults of the machine they meet.

* Every report goes to a temporary file beside its target, flushed, then renamed over it, so a
  reader never sees half a file (:func:`write_atomically`).
* An input is opened only if it is a regular file (:func:`open_regular`): a FIFO would block
  for ever, a folder or a device is refused with a reason.
* A lock file is opened without following a symbolic link and only if it is a regular file
  with no other name, so that taking a lock can never truncate another file (:func:`hold_lock`).
* An ``OSError`` of the machine (no space, read-only, permission) becomes one
  :class:`~reporting.errors.InputError` line naming the path and what to do
  (:func:`environment_fault`).
"""

from __future__ import annotations

import errno
import fcntl
import hashlib
import os
import re
import secrets
import shutil
import stat
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import BinaryIO

from reporting.errors import (
    DiskFull,
    EnvironmentFault,
    InputError,
    NotARegularFile,
    PermissionDenied,
    checkpoint,
)

__all__ = [
    "NAME_MAX",
    "UnusableName",
    "utf8_name",
    "name_that_fits",
    "SQLITE_HEADER",
    "STAGING_MARK",
    "check_replaceable",
    "clear_staging",
    "environment_fault",
    "repair_folder_swap",
    "same_file",
    "retired_folder",
    "swap_in_folder",
    "hold_lock",
    "is_kernel_file",
    "KERNEL_FILE_SYSTEMS",
    "kind_of_file",
    "make_staging",
    "mount_table",
    "open_regular",
    "refuse_foreign",
    "refuse_unless_replaceable",
    "remove_staging",
    "sha256_of",
    "write_all_atomically",
    "write_atomically",
]

#: The first 16 bytes of every SQLite database file (https://sqlite.org/fileformat.html).
SQLITE_HEADER = b"SQLite format 3\x00"

#: The longest name of a file or folder, in bytes (Linux file systems): a name the tool makes
#: from a user's (``.NAME.lock``, ``.NAME.TOKEN.tmp``) that would pass it is made shorter.
NAME_MAX = 255


def name_that_fits(wanted: str, shorter: str) -> str:
    """``wanted``, a name made from a user's, or ``shorter`` when ``wanted`` passes
    :data:`NAME_MAX` bytes (a user's name of its longest: ``File name too long``)."""
    return wanted if len(os.fsencode(wanted)) <= NAME_MAX else shorter


#: errno -> (what happened, the InputError class, what to do).
_FAULTS: dict[int, tuple[str, type[InputError], str]] = {
    errno.ENOSPC: ("no space left on the device", DiskFull, "free space and run again"),
    errno.EDQUOT: ("disk quota exceeded", DiskFull, "free space and run again"),
    errno.EFBIG: ("file too large for the file system", DiskFull, "write it elsewhere"),
    errno.EACCES: (
        "permission denied",
        PermissionDenied,
        "give this user access, or run as a user who has it",
    ),
    errno.EPERM: (
        "operation not permitted",
        PermissionDenied,
        "give this user access, or run as a user who has it",
    ),
    errno.EROFS: ("read-only file system", PermissionDenied, "use a writable location"),
    errno.ENOENT: ("no such file or folder", InputError, "check the path"),
    errno.ENOTDIR: ("a part of the path is not a folder", InputError, "check the path"),
    errno.EISDIR: ("it is a folder", NotARegularFile, "name a file"),
    errno.ELOOP: (
        "it is a symbolic link (refused here)",
        InputError,
        "remove the link or name the file itself",
    ),
    errno.EIO: ("input/output error", EnvironmentFault, "check the disk"),
}


def environment_fault(error: OSError, path: Path | str, action: str) -> InputError:
    """``error``, met while trying to ``action`` (``"write it"``, ``"read it"``) on ``path``,
    as the one-line :class:`~reporting.errors.InputError` the user sees: a
    :class:`~reporting.errors.DiskFull` for no space, :class:`~reporting.errors.PermissionDenied`
    for a forbidden or read-only place, an :class:`~reporting.errors.EnvironmentFault` else.

    >>> str(environment_fault(OSError(errno.ENOSPC, "No space"), "out/a.pdf", "write it"))
    'out/a.pdf: cannot write it: no space left on the device; free space and run again'
    """
    what, kind, advice = _FAULTS.get(
        error.errno or 0, (error.strerror or str(error), EnvironmentFault, "check the path")
    )
    return kind(f"{path}: cannot {action}: {what}; {advice}")


def same_file(one: Path | str, other: Path | str) -> bool:
    """Whether two paths name one file: the same path once links are followed, or, both
    existing, the same file by device and inode (a hard link)."""
    if os.path.realpath(one) == os.path.realpath(other):
        return True
    try:
        return os.path.samefile(one, other)
    except OSError:
        return False


def standing_at(path: Path | str) -> str | None:
    """What stands at ``path``, in words: what it names once links are followed
    (:func:`kind_of_file`), ``"a loop of symbolic links"``, ``"a symbolic link to nothing (its
    target does not exist)"``, or None when nothing stands there at all."""
    try:
        return kind_of_file(os.stat(path).st_mode)
    except OSError as error:
        if not os.path.lexists(path):
            return None
        if error.errno == errno.ELOOP:
            return "a loop of symbolic links"
        return "a symbolic link to nothing (its target does not exist)"


def kind_of_file(mode: int) -> str:
    """What a ``st_mode`` names, in words (``"a folder"``, ``"a FIFO"``...)."""
    for test, name in (
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISFIFO, "a FIFO (named pipe)"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISREG, "a regular file"),
    ):
        if test(mode):
            return name
    return "not a regular file"


#: The kernel's own file systems: their files are views of the running system, not data, and
#: some call themselves regular files and wait for ever (``/proc/kmsg``).
KERNEL_FILE_SYSTEMS = frozenset(
    {"proc", "sysfs", "debugfs", "tracefs", "securityfs", "configfs", "pstore", "efivarfs"}
    | {"cgroup", "cgroup2", "bpf", "binfmt_misc", "fusectl", "nsfs", "mqueue", "rpc_pipefs"}
)
#: Where they are mounted when the mount table cannot be read.
_KERNEL_FOLDERS = ("/proc", "/sys")


def is_kernel_file(path: Path | str) -> bool:
    """Whether ``path`` (its links followed) lies on one of the kernel's file systems: under
    /proc or /sys, whatever is mounted there, or wherever else one is mounted (a container's
    ``/host/proc``), by the mount table of this process (the mount nearest above the file
    decides)."""
    real = os.path.realpath(path)
    if any(real == folder or real.startswith(folder + "/") for folder in _KERNEL_FOLDERS):
        return True  # whatever is mounted over them (lxcfs over /proc's files)
    nearest, kind = "", ""
    for mount_point, file_system in _mounts():
        inside = real == mount_point or real.startswith(mount_point.rstrip("/") + "/")
        if inside and len(mount_point) >= len(nearest):
            nearest, kind = mount_point, file_system
    return kind in KERNEL_FILE_SYSTEMS


@cache
def _mounts() -> tuple[tuple[str, str], ...]:
    """The mount points of this process and their file systems, from /proc/self/mountinfo
    (read once); /proc and /sys alone when it cannot be read."""
    try:
        with open("/proc/self/mountinfo", encoding="utf-8", errors="surrogateescape") as table:
            return mount_table(table.read())
    except OSError:
        return (("/proc", "proc"), ("/sys", "sysfs"))


def mount_table(text: str) -> tuple[tuple[str, str], ...]:
    """(mount point, file system type) of each line of a ``mountinfo`` (proc(5)): the fifth
    field, its octal escapes (``\\040`` for a space) undone, and the field after the ``-``
    that ends the optional ones."""
    mounts = []
    for line in text.splitlines():
        fields = line.split(" ")
        separator = fields.index("-", 6) if "-" in fields[6:] else len(fields)
        if separator + 1 >= len(fields):
            continue  # not a line of a mount table
        point = re.sub(r"\\([0-7]{3})", lambda match: chr(int(match.group(1), 8)), fields[4])
        mounts.append((point, fields[separator + 1]))
    return tuple(mounts)


def open_regular(path: Path | str) -> BinaryIO:
    """``path`` opened for reading in binary, if it is a regular file (or a link to one).

    It is opened without blocking, so that a FIFO is refused at once instead of waiting for a
    writer for ever; a folder, FIFO, socket or device raises
    :class:`~reporting.errors.NotARegularFile`, and so does a file of the kernel's under /proc
    or /sys, which calls itself regular but may wait for ever for its next line
    (``/proc/kmsg``). Other failures raise their ``OSError``.
    """
    if is_kernel_file(path):
        raise NotARegularFile(f"{path}: a file of the kernel's (/proc, /sys), not read")
    descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        mode = os.fstat(descriptor).st_mode
        if not stat.S_ISREG(mode):
            raise NotARegularFile(f"{path}: not a regular file ({kind_of_file(mode)}): not read")
        os.set_blocking(descriptor, True)
        return os.fdopen(descriptor, "rb")
    except BaseException:
        os.close(descriptor)
        raise


def sha256_of(*paths: Path) -> str:
    """Hex sha256 of the files' contents, read in order (one file, or a CSV pair).

    Only regular files are read (:func:`open_regular`)."""
    digest = hashlib.sha256()
    for path in paths:
        with open_regular(path) as handle:
            while chunk := handle.read(1 << 20):
                digest.update(chunk)
    return digest.hexdigest()


def refuse_unless_replaceable(path: Path | str, option: str | None = None) -> None:
    """Refuse what a file written at ``path`` would take away: it is renamed over ``path``, so
    a FIFO, socket or device there, or a link to one (``/dev/stdout``, ``/dev/null``), would be
    gone, a device node included when run as root. Nothing there, a regular file, a link to
    one or to nothing (the link is replaced, never followed), and a folder (which the write
    refuses in its own words) pass. ``option``: how the command line names the path."""
    named = f"{option} {path}" if option else str(path)
    through = _through_the_kernel(path)
    if through is not None:  # /dev/stdout, to a file: the link /dev/stdout was replaced
        raise InputError(
            f"{named}: a name of the kernel's ({through}: a process's open file, such as its"
            " standard output), not a file, which writing here would replace: it is left as it"
            " is; name a file to write"
        )
    try:
        mode = os.stat(path).st_mode  # through a link: what it points to
    except OSError:
        return  # nothing there (or a link to nothing): the write says what else is wrong
    if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
        raise InputError(
            f"{named}: {kind_of_file(mode)}, not a file, which writing here would replace: it"
            " is left as it is; name a file to write"
        )


def _through_the_kernel(path: Path | str) -> str | None:
    """The first name of ``path`` or of its chain of links that lies in a folder of the
    kernel's file systems (``/dev/stdout`` links to ``/proc/self/fd/1``, which is the file
    stdout was sent to), or None. The last link is not followed: ``/proc/self/fd/1`` is a
    name of the kernel's whatever file it opens."""
    hop = os.path.abspath(path)
    for _ in range(40):  # the kernel's own bound on a chain of links
        if is_kernel_file(os.path.dirname(hop)):
            return hop
        try:
            target = os.readlink(hop)
        except OSError:
            return None  # no link: the chain's end
        hop = os.path.normpath(os.path.join(os.path.dirname(hop), target))
    return None


def write_atomically(path: Path, data: bytes | Callable[[BinaryIO], None]) -> Path:
    """Write ``data`` (bytes, or a function writing to a binary file) to ``path`` atomically.

    The content goes to a temporary file beside ``path``, flushed to disk, then renamed over
    ``path``; on any error the temporary file is removed and ``path`` is left as it was. A
    FIFO, socket or device at ``path`` is refused (:func:`refuse_unless_replaceable`); a fault
    of the machine (no space, a read-only or forbidden folder) raises the
    :func:`environment_fault` naming ``path``.
    """
    checkpoint()  # a stop dropped while ``data`` was made: the file may be half of what it is
    path = Path(path)
    refuse_unless_replaceable(path)
    temporary = _staged(path, data)
    try:
        os.replace(temporary, path)
    except OSError as error:
        temporary.unlink(missing_ok=True)
        raise environment_fault(
            error, path, "write it (the file as it was, if any, is kept)"
        ) from None
    return path


def write_all_atomically(files: Sequence[tuple[Path, bytes]]) -> None:
    """Write a set of files so that it is replaced whole, not file by file.

    Every file is written to a temporary file beside its path and flushed to disk first; only
    when all of them are written, and no path is a folder, are they renamed over their paths.
    On an error before the renames (no space for the last file, a forbidden folder), every
    temporary file is removed and every path is left as it was, so a failed run never leaves
    the set's files of two runs side by side. The renames themselves follow one another (a
    reader at that instant may see both), and one fails only on a fault of the machine; the
    error then says how many files were already in place.
    """
    checkpoint()  # a stop dropped while the files were made
    for path, _ in files:
        refuse_unless_replaceable(path)
    staged: list[tuple[Path, Path]] = []
    try:
        for path, data in files:
            staged.append((_staged(Path(path), data), Path(path)))
        for _, path in staged:
            if path.is_dir() and not path.is_symlink():
                raise environment_fault(
                    OSError(errno.EISDIR, "Is a directory"), path, "write it (no file was written)"
                )
    except BaseException:
        for temporary, _ in staged:
            temporary.unlink(missing_ok=True)
        raise
    for done, (temporary, path) in enumerate(staged):
        try:
            os.replace(temporary, path)
        except OSError as error:
            for rest, _ in staged[done:]:
                rest.unlink(missing_ok=True)
            action = f"put it in place ({done:,} of the {len(staged):,} files were)"
            raise environment_fault(error, path, action) from None


def _staged(path: Path, data: bytes | Callable[[BinaryIO], None]) -> Path:
    """``data`` written to a new temporary file beside ``path`` and flushed to disk: its
    path. On any error it is removed, and the error is the :func:`environment_fault`
    naming ``path``."""
    token = secrets.token_hex(6)
    temporary = path.with_name(
        name_that_fits(f".{path.name}.{token}.tmp", f".baccarat-report.{token}.tmp")
    )
    try:
        # os.open applies the umask, as a plain open() of ``path`` would.
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except OSError as error:
        raise environment_fault(error, path, "write it") from None
    try:
        with os.fdopen(descriptor, "wb") as handle:
            if isinstance(data, bytes):
                handle.write(data)
            else:
                data(handle)
            handle.flush()
            os.fsync(handle.fileno())
    except OSError as error:
        temporary.unlink(missing_ok=True)
        raise environment_fault(
            error, path, "write it (the file as it was, if any, is kept)"
        ) from None
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    return temporary


#: How often a waiting lock is tried again, in seconds.
_LOCK_POLL = 0.1


@contextmanager
def hold_lock(
    path: Path, wait: float, *, held_by_other: Callable[[str], InputError], shared: bool = False
) -> Iterator[None]:
    """Hold an exclusive ``flock`` on the lock file ``path`` (a shared one when ``shared``:
    held by any number of such holders at once, by none while an exclusive one is held),
    waiting up to ``wait`` seconds.

    The file is created if missing (mode 0644 less the umask) and opened with ``O_NOFOLLOW``:
    a symbolic link, a FIFO, a folder or a file with a second hard link at ``path`` is
    refused, so nothing but our own lock file is ever written. Once held, the file holds
    ``pid N`` of the holder; it is left in place afterwards (removing a lock file races with
    the next taker). When the wait runs out, ``held_by_other(holder)`` is raised, ``holder``
    being what the file says (``pid 4242``) or ``another process``.
    """
    try:
        descriptor = os.open(
            path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK, 0o644
        )
    except OSError as error:
        raise environment_fault(error, path, "open it as a lock file") from None
    try:
        _check_lock_file(descriptor, path)
        _take(descriptor, path, wait, held_by_other, fcntl.LOCK_SH if shared else fcntl.LOCK_EX)
        try:  # who holds it, for the next taker to name; the flock alone is the lock
            os.ftruncate(descriptor, 0)
            os.pwrite(descriptor, f"pid {os.getpid()}\n".encode(), 0)
        except OSError as error:
            raise environment_fault(error, path, "write the lock file") from None
        yield
    finally:
        os.close(descriptor)  # releases the lock


def _check_lock_file(descriptor: int, path: Path) -> None:
    status = os.fstat(descriptor)
    if not stat.S_ISREG(status.st_mode):
        raise NotARegularFile(
            f"{path}: the lock file is {kind_of_file(status.st_mode)}, not a regular file:"
            " remove it and run again"
        )
    if status.st_nlink != 1:
        raise InputError(
            f"{path}: the lock file has {status.st_nlink} names (a hard link to another file?):"
            " it was not touched; remove it and run again"
        )


def _take(
    descriptor: int,
    path: Path,
    wait: float,
    held_by_other: Callable[[str], InputError],
    mode: int = fcntl.LOCK_EX,
) -> None:
    deadline = time.monotonic() + wait
    while True:
        try:
            fcntl.flock(descriptor, mode | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() >= deadline:
                holder = os.pread(descriptor, 100, 0).decode("utf-8", "replace").strip()
                raise held_by_other(_live(holder)) from None
            time.sleep(min(_LOCK_POLL, max(0.0, deadline - time.monotonic())))
        except OSError as error:
            raise environment_fault(error, path, "lock it") from None


def _live(holder: str) -> str:
    """What a lock file says of its holder (``pid 4242``), if that process still runs: the
    last of several holders of a shared lock, or a holder since gone, wrote it; otherwise
    ``another process``."""
    match = re.fullmatch(r"pid (\d{1,9})", holder)
    if match is None:
        return "another process"
    try:
        os.kill(int(match.group(1)), 0)
    except ProcessLookupError:
        return "another process"
    except OSError:  # another user's process: it runs
        pass
    return holder


#: The file that marks a staging folder as this tool's (:func:`make_staging`): a folder of a
#: staging name without it, unless empty, is somebody else's and is never removed.
STAGING_MARK = ".baccarat-report-staging"


def _ours(folder: Path, mark: str) -> bool:
    """Whether ``folder`` is one this tool made: it holds the file ``mark``, or nothing at all
    (a run stopped before it wrote its mark; removing an empty folder loses nothing)."""
    return (folder / mark).is_file() or not any(folder.iterdir())


def _remove_ours(folder: Path, mark: str) -> None:
    """Remove a folder of ours, its ``mark`` last: a removal that fails half-way (a file this
    user may not remove) leaves the folder still marked as ours for the next run."""
    for child in folder.iterdir():
        if child.name == mark:
            continue
        if child.is_dir() and not child.is_symlink():
            shutil.rmtree(child)
        else:
            child.unlink()
    (folder / mark).unlink(missing_ok=True)
    folder.rmdir()


def make_staging(staging: Path) -> None:
    """Make the staging folder ``staging`` (its parents too) with its :data:`STAGING_MARK`."""
    staging.mkdir(parents=True)
    (staging / STAGING_MARK).write_bytes(b"")


def remove_staging(staging: Path) -> None:
    """Remove the staging folder ``staging``, empty but for its mark, once its work is done."""
    (staging / STAGING_MARK).unlink(missing_ok=True)
    staging.rmdir()


def clear_staging(staging: Path, what: str) -> None:
    """Remove the staging folder a stopped run left at ``staging`` (if any), where ``what``
    (``"the export stages its copy"``) is written next. Anything else of that name (a link, a
    file, a folder without the :data:`STAGING_MARK` that holds files) is refused in one line,
    never removed nor followed: it is not ours."""
    if staging.is_symlink() or (staging.exists() and not staging.is_dir()):
        raise InputError(
            f"{staging}: not a folder of ours, where {what}; move it away and run again"
        )
    if staging.exists():
        if not _ours(staging, STAGING_MARK):
            raise InputError(
                f"{staging}: a folder of files that are not ours, where {what}; move it away"
                " and run again"
            )
        try:
            _remove_ours(staging, STAGING_MARK)
        except OSError as error:
            raise environment_fault(error, staging, "remove what a stopped run left") from None


def check_replaceable(final: Path, mark: str, what: str) -> None:
    """Refuse, in one line, to replace ``final`` unless it is absent or a folder of ours: one
    holding the file ``mark`` (``manifest.json`` of a month's reports), or empty. ``what``
    names what belongs there (``"a month's reports"``). The place where a swap keeps the
    previous folder (:func:`retired_folder`) must be absent or ours too."""
    if final.is_symlink() or (final.exists() and not final.is_dir()):
        raise InputError(f"{final}: not a folder, where {what} go; move it away and run again")
    if final.is_dir() and not _ours(final, mark):
        raise InputError(
            f"{final}: holds files that are not {what} (it has no {mark}), and would be"
            " replaced whole; move them away and run again"
        )
    retired = retired_folder(final)
    if os.path.lexists(retired) and (
        retired.is_symlink() or not retired.is_dir() or not _ours(retired, mark)
    ):
        raise InputError(
            f"{retired}: not a folder of ours, where a swap keeps the previous copy; move it"
            " away and run again"
        )


def refuse_foreign(
    folder: Path, ours: Callable[[str, bool], bool], *, wrote: str, within: str
) -> None:
    """Refuse, in one line, to replace ``folder`` whole while it holds what ``ours`` (given a
    path relative to it and whether that is a folder) does not call ours: files somebody put
    there (the signed audit, an analyst's notes), which the swap would delete with it.
    ``wrote``: what did not write them; ``within``: the folder as the message names it."""
    foreign = sorted(
        relative
        for path in folder.rglob("*")
        if not ours(
            relative := path.relative_to(folder).as_posix(), path.is_dir() and not path.is_symlink()
        )
    )
    if foreign:
        more = f", and {len(foreign) - 1:,} more" if len(foreign) > 1 else ""
        raise InputError(
            f"{folder}: holds files {wrote} ({foreign[0]}{more}), and would be replaced whole:"
            f" move them out of {within} and run again"
        )


def retired_folder(final: Path) -> Path:
    """Where :func:`swap_in_folder` moves the folder it replaces: ``.<name>.old`` beside it."""
    return final.with_name(f".{final.name}.old")


def swap_in_folder(staging: Path, final: Path, mark: str, what: str) -> InputError | None:
    """Replace the folder ``final`` by ``staging`` with renames: the old one stays whole until
    the new one is complete, and the window without a folder is two renames long (a kill
    inside it is repaired at the next start: :func:`repair_folder_swap`). ``mark``: the file
    every folder put in place holds, ``what`` what it is (:func:`check_replaceable`); a
    folder without it, at ``final`` or at the previous folder's place, is not replaced nor
    removed. Returns the error of an old folder that could not be removed once the new one
    was in place (None: nothing left).

    Chosen over an atomic exchange (Linux ``renameat2(RENAME_EXCHANGE)``): that call exists
    on Linux only, and not on every file system there (some network and FUSE file systems
    refuse it), so the two-rename fallback, and with it the repair, would be needed anyway.
    """
    checkpoint()  # a stop dropped while the folder was made: it is not put in place
    check_replaceable(final, mark, what)
    retired = retired_folder(final)
    if retired.exists():
        _remove_retired(retired, mark)
    (staging / STAGING_MARK).unlink(missing_ok=True)
    if final.exists():
        os.replace(final, retired)
    os.replace(staging, final)
    # The new folder is in place: the old one's removal tidies, it does not publish. One
    # that cannot be removed is left and returned, for the caller to say so now (the next
    # swap stops on it, naming it, before it starts).
    if not os.path.lexists(retired):
        return None
    try:
        _remove_ours(retired, mark)
    except OSError as error:
        return environment_fault(
            error,
            retired,
            "remove the previous copy (the new one is in place); remove it by hand"
            " before the next run, which stops on it",
        )
    return None


def _remove_retired(retired: Path, mark: str) -> None:
    """Remove a previous folder of ours left by a swap (its removal failed then); one line
    naming it when it cannot be."""
    try:
        _remove_ours(retired, mark)
    except OSError as error:
        raise environment_fault(
            error, retired, "remove the previous copy left there by the last swap"
        ) from None


def repair_folder_swap(final: Path, mark: str) -> bool:
    """Finish what a process killed inside :func:`swap_in_folder` left (the caller holds the
    lock that keeps other swaps out): ``.<name>.old`` (the previous folder, whole) without
    ``final`` is put back, and True returned; both present, the kill came after the new
    folder was in place, so the old one is removed."""
    retired = retired_folder(final)
    if retired.is_symlink() or not retired.is_dir() or not _ours(retired, mark):
        return False  # not ours: the swap refuses it, in one line
    if os.path.lexists(final):
        _remove_retired(retired, mark)
        return False
    os.replace(retired, final)
    return True


class UnusableName(ValueError):
    """A file's name that is no text the store can keep, with why (:func:`utf8_name`)."""


def utf8_name(path: str | os.PathLike[str]) -> str:
    """``path`` as text: its bytes read as UTF-8, whatever the locale decoded them as (under a
    C locale, ``été`` comes as ``\\udcc3\\udca9t\\udcc3\\udca9``; under Latin-1, as
    ``Ã©tÃ©``). :class:`UnusableName` for a name of bytes that are no UTF-8 (the store keeps
    names as text, and a report prints them), or of characters the locale cannot write, as a
    name read from a file is (no file can be opened by it).

    >>> utf8_name("été.jsonl")
    'été.jsonl'
    """
    try:
        return os.fsencode(path).decode("utf-8")
    except UnicodeDecodeError:
        raise UnusableName(
            "its name is not UTF-8 text (the store keeps names as text): rename it"
        ) from None
    except UnicodeEncodeError:
        raise UnusableName(
            f"its name has characters this machine's locale ({sys.getfilesystemencoding()})"
            " cannot write: run under a UTF-8 locale (LANG=C.UTF-8)"
        ) from None
