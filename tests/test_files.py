"""Files read, written and locked (reporting.files): a full disk or a read-only folder under an
output file is one line naming the file, the file as it was is kept; only regular files are
read; faults of the machine are worded in one place.

How each fault is made: a full disk by a real ``ENOSPC`` from the kernel (writing to
``/dev/full``) raised inside the writer, and by ``os.fsync`` made to fail as a full disk
reports itself late on some file systems (monkeypatched: the one simulated case); a read-only
folder by its mode, written from a child process (as root, root without the capabilities that
override modes, see tests/store/test_environment.py).
"""

from __future__ import annotations

import errno
import gc
import os
import socket
import stat
import subprocess
import sys
import time
from datetime import date
from pathlib import Path

import pytest
from openpyxl import Workbook

import reporting.files
from reporting.errors import (
    DiskFull,
    EnvironmentFault,
    InputError,
    NotARegularFile,
    PermissionDenied,
)
from reporting.files import (
    environment_fault,
    hold_lock,
    open_regular,
    refuse_unless_replaceable,
    sha256_of,
    write_all_atomically,
    write_atomically,
)
from reporting.presentation.workbook_base import save_workbook


def real_disk_full() -> OSError:
    """The error the kernel gives a write on a full disk."""
    with open("/dev/full", "wb", buffering=0) as full:
        try:
            full.write(b"x")
        except OSError as error:
            return error
    raise AssertionError("/dev/full accepted a write")


def test_a_full_disk_while_writing_keeps_the_old_file_and_names_the_new_one(tmp_path):
    target = tmp_path / "audit.xlsx"
    target.write_bytes(b"last month's workbook")
    error = real_disk_full()
    assert error.errno == errno.ENOSPC

    def writer(handle):
        handle.write(b"half a workbook")
        raise error

    with pytest.raises(DiskFull) as caught:
        write_atomically(target, writer)
    assert str(caught.value) == (
        f"{target}: cannot write it (the file as it was, if any, is kept): no space left on"
        " the device; free space and run again"
    )
    assert target.read_bytes() == b"last month's workbook"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["audit.xlsx"]  # no temporary left


def test_a_full_disk_reported_by_fsync_is_a_full_disk_too(tmp_path, monkeypatch):
    def full(descriptor):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(reporting.files.os, "fsync", full)
    with pytest.raises(DiskFull, match="no space left on the device"):
        write_atomically(tmp_path / "a.pdf", b"%PDF")
    assert list(tmp_path.iterdir()) == []


def test_a_full_disk_while_writing_the_lock_file_names_the_lock_file(tmp_path, monkeypatch):
    """The holder's pid written into the lock file met a full disk: the line said "no space
    left on the device" and no path, so a system administrator could not tell which disk."""
    error = real_disk_full()

    def full(*arguments):
        raise error

    monkeypatch.setattr(reporting.files.os, "pwrite", full)
    lock = tmp_path / ".reports.lock"
    with pytest.raises(DiskFull) as caught, hold_lock(lock, 0, held_by_other=InputError):
        pass
    assert str(caught.value) == (
        f"{lock}: cannot write the lock file: no space left on the device; free space and run again"
    )


def test_a_workbook_cut_short_by_a_full_disk_leaves_no_error_behind(monkeypatch):
    """An audit workbook cut short by a full disk: the run's one line was followed by
    "Exception ignored in: <function ZipFile.__del__ ...> ValueError: seek of closed file",
    a traceback printed when the unfinished archive was collected after its file closed."""
    left_behind = []
    monkeypatch.setattr(sys, "unraisablehook", left_behind.append)
    workbook = Workbook(write_only=True)
    workbook.create_sheet("Summary").append(["Rounds", 5586])
    with open("/dev/full", "wb", buffering=0) as full, pytest.raises(OSError) as caught:
        save_workbook(workbook, full, date(2026, 11, 5))
    assert caught.value.errno == errno.ENOSPC
    del caught
    gc.collect()
    assert left_behind == []


WRITE = """
import sys
from pathlib import Path
from reporting.errors import InputError
from reporting.files import write_atomically
try:
    write_atomically(Path(sys.argv[1]), b"data")
except InputError as error:
    print(type(error).__name__, error)
"""


def test_a_read_only_folder_is_permission_denied_naming_the_file(tmp_path):
    folder = tmp_path / "out"
    folder.mkdir()
    folder.chmod(0o555)
    prefix = []
    if os.geteuid() == 0:  # root ignores modes: drop the capabilities that let it
        prefix = ["setpriv", "--bounding-set", "-dac_override,-dac_read_search"]
    try:
        result = subprocess.run(
            [*prefix, sys.executable, "-c", WRITE, str(folder / "a.pdf")],
            capture_output=True,
            text=True,
            timeout=60,
        )
    finally:
        folder.chmod(0o755)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == (
        f"PermissionDenied {folder / 'a.pdf'}: cannot write it: permission denied; give this"
        " user access, or run as a user who has it"
    )
    assert list(folder.iterdir()) == []


@pytest.mark.parametrize(
    ("code", "kind"),
    [
        (errno.ENOSPC, DiskFull),
        (errno.EDQUOT, DiskFull),
        (errno.EACCES, PermissionDenied),
        (errno.EROFS, PermissionDenied),
        (errno.EIO, EnvironmentFault),
        (errno.ENOENT, InputError),
        (errno.EISDIR, NotARegularFile),
    ],
)
def test_each_errno_has_its_kind_and_one_line(code, kind):
    fault = environment_fault(OSError(code, os.strerror(code)), "out/x", "write it")
    assert type(fault) is kind
    assert str(fault).startswith("out/x: cannot write it: ")
    assert "\n" not in str(fault)


def test_an_unknown_errno_keeps_the_systems_words():
    fault = environment_fault(OSError(errno.ENXIO, "No such device or address"), "x", "read it")
    assert type(fault) is EnvironmentFault
    assert str(fault) == "x: cannot read it: No such device or address; check the path"


# --- only regular files are read -------------------------------------------------------------


def test_a_fifo_is_refused_at_once_instead_of_waiting_for_a_writer(tmp_path):
    fifo = tmp_path / "log.jsonl"
    os.mkfifo(fifo)
    started = time.monotonic()
    with pytest.raises(NotARegularFile, match=r"a FIFO \(named pipe\)"):
        sha256_of(fifo)
    assert time.monotonic() - started < 2


def test_a_folder_and_a_device_are_refused(tmp_path):
    with pytest.raises(NotARegularFile, match="a folder"):
        open_regular(tmp_path)
    with pytest.raises(NotARegularFile, match="a character device"):
        open_regular(Path("/dev/zero"))  # would be read for ever


def test_a_regular_file_and_a_link_to_one_are_read(tmp_path):
    file = tmp_path / "log.jsonl"
    file.write_bytes(b"abc")
    link = tmp_path / "link.jsonl"
    link.symlink_to(file)
    with open_regular(link) as handle:
        assert handle.read() == b"abc"
    assert sha256_of(file) == sha256_of(link)
    assert sha256_of(file, file) == sha256_of(tmp_path / "log.jsonl", link)


def test_a_file_of_the_longest_name_is_written_atomically_too(tmp_path):
    """`verify --workbook` of a 245-character name said "File name too long" of the user's
    own name: the temporary file beside it (``.NAME.TOKEN.tmp``) was 263 characters."""
    path = tmp_path / ("w" * 245 + ".xlsx")
    write_atomically(path, b"data")
    assert path.read_bytes() == b"data"
    assert [item.name for item in tmp_path.iterdir()] == [path.name]


def test_a_fifo_socket_or_link_to_one_where_a_file_is_written_is_refused_and_left(tmp_path):
    """A file is written by renaming over its path: `verify --findings-file` given a FIFO, or
    /dev/full (run as root), replaced it with a regular file, the device node gone. What is
    not a file (or a link to a file, or to nothing) is refused and left as it is, and
    nothing of the set is written."""
    fifo = tmp_path / "findings.jsonl"
    os.mkfifo(fifo)
    link = tmp_path / "workbook.xlsx"
    link.symlink_to(fifo)
    listening = socket.socket(socket.AF_UNIX)
    listening.bind(str(tmp_path / "sock.html"))
    try:
        for path, kind in (
            (fifo, "a FIFO"),
            (link, "a FIFO"),
            (tmp_path / "sock.html", "a socket"),
        ):
            with pytest.raises(InputError, match=f"{kind}.*, not a file, .* left as it is"):
                write_atomically(path, b"data")
        with pytest.raises(InputError, match=r"a FIFO \(named pipe\), not a file"):
            write_all_atomically([(tmp_path / "first.html", b"x"), (fifo, b"y")])
        with pytest.raises(InputError, match=r"^--findings-file /dev/zero: a character device"):
            refuse_unless_replaceable("/dev/zero", "--findings-file")
    finally:
        listening.close()
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode) and os.readlink(link) == str(fifo)
    assert sorted(item.name for item in tmp_path.iterdir()) == [
        "findings.jsonl", "sock.html", "workbook.xlsx",
    ]  # fmt: skip
    # A link to a file, or to nothing, is replaced, never followed (a link planted in a shared
    # folder cannot send the write elsewhere).
    target = tmp_path / "target.txt"
    target.write_bytes(b"keep")
    for name, points_to in (("to-file.txt", target), ("to-nothing.txt", tmp_path / "gone")):
        (tmp_path / name).symlink_to(points_to)
        write_atomically(tmp_path / name, b"new")
        assert not (tmp_path / name).is_symlink() and (tmp_path / name).read_bytes() == b"new"
    assert target.read_bytes() == b"keep"


def test_a_name_of_a_process_s_open_file_is_refused_whatever_file_it_opens(tmp_path):
    """`--findings-file /dev/stdout > log.txt`: /dev/stdout links to /proc/self/fd/1, which is
    log.txt, a regular file; the link was replaced, and the machine's /dev/stdout was a file
    of the findings from then on. A name of the kernel's, or a link through one, is refused
    and left; the file stdout goes to is not written either."""
    sent_to = tmp_path / "log.txt"
    descriptor = os.open(sent_to, os.O_WRONLY | os.O_CREAT)
    try:
        fd = f"/proc/self/fd/{descriptor}"
        link = tmp_path / "mystdout"
        link.symlink_to(fd)
        for path, through in ((link, fd), (fd, fd), (f"/dev/fd/{descriptor}", None)):
            with pytest.raises(InputError) as refused:
                write_atomically(Path(path), b"findings")
            assert str(refused.value) == (
                f"{path}: a name of the kernel's ({through or path}: a process's open file,"
                " such as its standard output), not a file, which writing here would replace:"
                " it is left as it is; name a file to write"
            )
    finally:
        os.close(descriptor)
    assert os.readlink(link) == fd and sent_to.read_bytes() == b""


def test_a_lock_held_past_the_wait_names_its_holder_only_while_it_runs():
    """Shared holders each write their pid: the last one may be gone while another holds the
    lock, and a refused monthly run named a process ps could not find."""
    from reporting.files import _live

    assert _live(f"pid {os.getpid()}") == f"pid {os.getpid()}"
    gone = subprocess.Popen(["true"])  # a pid that has ended
    gone.wait()
    assert _live(f"pid {gone.pid}") == "another process"
    assert _live("") == _live("not a pid") == "another process"
