"""Which files are read, and by what: the spec's round logs by name, providers' exports by the
profile given (``--profile``) or by the inbox's rules (``[[inbox.profiles]]``)."""

from __future__ import annotations

import os

import pytest

from reporting.errors import InputError, NotARegularFile
from reporting.files import open_regular
from reporting.ingest.discovery import (
    InboxProfile,
    discover_inbox,
    discover_sources,
    unread_inbox_files,
)
from reporting.ingest.profiles.loader import load_profile


def touch(path, text: str = "x") -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


@pytest.fixture
def inbox(tmp_path):
    for name in (
        "round-log.jsonl",
        "replay/october.json",
        "replay/november.jsonl.gz",
        "replay/notes.txt",
        "flat/bets-10.csv",
        "flat/summary.csv",
        "other.json",
    ):
        touch(tmp_path / "inbox" / name)
    return tmp_path / "inbox"


def test_with_a_profile_a_folder_gives_the_files_the_profile_reads(inbox):
    sources = discover_sources([inbox], load_profile("replay-api"))
    assert [(s.path.relative_to(inbox).as_posix(), s.format) for s in sources] == [
        ("other.json", "json"),
        ("replay/november.jsonl.gz", "jsonl"),
        ("replay/october.json", "json"),
        ("round-log.jsonl", "jsonl"),
    ]
    assert all(source.profile.name == "replay-api" for source in sources)


def test_with_a_profile_a_file_it_does_not_read_is_refused(inbox):
    with pytest.raises(InputError, match=r"notes.txt: not a file the log profile replay-api reads"):
        discover_sources([inbox / "replay" / "notes.txt"], load_profile("replay-api"))


def test_inbox_rules_read_their_files_by_profile_and_the_rest_as_the_spec_s(inbox):
    rules = [
        InboxProfile(load_profile("replay-api"), folder="replay"),
        InboxProfile(load_profile("flat-csv"), pattern="flat/bets-*.csv"),
    ]
    sources, unread = discover_inbox(inbox, rules)
    read = [
        (s.path.relative_to(inbox).as_posix(), s.format, s.profile and s.profile.name)
        for s in sources
    ]
    assert read == [
        ("round-log.jsonl", "jsonl", None),
        ("flat/bets-10.csv", "csv", "flat-csv"),
        ("replay/november.jsonl.gz", "jsonl", "replay-api"),
        ("replay/october.json", "json", "replay-api"),
    ]
    assert [(item.path.relative_to(inbox).as_posix(), item.reason) for item in unread] == [
        ("flat/summary.csv", "a CSV file in a folder is read as rounds.csv with bets.csv; give the two files by path, or rename them"),
        ("other.json", "not a round log name (read: .jsonl, .jsonl.gz, or rounds.csv with bets.csv)"),
        ("replay/notes.txt", "not a file the log profile replay-api reads (*.json, *.json.gz, *.jsonl, *.jsonl.gz)"),
    ]  # fmt: skip
    assert unread_inbox_files(inbox, rules)[-1] == (
        "replay/notes.txt (not a file the log profile replay-api reads (*.json, *.json.gz,"
        " *.jsonl, *.jsonl.gz))"
    )


def test_the_first_rule_a_file_matches_applies(inbox):
    rules = [
        InboxProfile(load_profile("numeric-feed"), pattern="replay/oct*"),
        InboxProfile(load_profile("replay-api"), folder="replay"),
    ]
    sources, _ = discover_inbox(inbox, rules)
    chosen = {s.path.name: s.profile.name for s in sources if s.profile is not None}
    assert chosen == {"october.json": "numeric-feed", "november.jsonl.gz": "replay-api"}


@pytest.mark.parametrize("with_rule", [False, True], ids=["spec", "profile-rule"])
def test_an_inbox_name_that_is_not_utf8_is_listed_unread_with_its_bytes_escaped(inbox, with_rule):
    """Such a name reached the store (a traceback), then the audit's pages (WeasyPrint could
    not encode it): it is left unread, named with its bytes escaped, whatever reads the
    folder."""
    bad = os.fsencode(inbox) + b"/replay/r\xff\xfe.jsonl.gz"
    with open(bad, "wb") as handle:
        handle.write(b"x")
    rules = [InboxProfile(load_profile("replay-api"), folder="replay")] if with_rule else []
    sources, _ = discover_inbox(inbox, rules)
    assert os.fsdecode(bad) not in [str(source.path) for source in sources]
    assert (
        "replay/r\\xff\\xfe.jsonl.gz (its name is not UTF-8 text (the store keeps names as"
        " text): rename it)"
    ) in unread_inbox_files(inbox, rules)


def test_a_file_of_the_kernel_s_is_never_read_as_a_round_log(tmp_path):
    """/proc/kmsg calls itself a regular file and waits for ever for its next line: ingest
    and the monthly job hung on a link to it. A file under /proc or /sys (here a link to
    /proc/self/status, which would not wait) is refused named, and left unread in a folder."""
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "k.jsonl").symlink_to("/proc/self/status")
    (folder / "good.jsonl").write_text("{}\n", encoding="utf-8")
    assert [source.path.name for source in discover_sources([folder])] == ["good.jsonl"]
    assert unread_inbox_files(folder) == (
        "k.jsonl (a file of the kernel's (/proc, /sys), not a round log)",
    )
    with pytest.raises(InputError, match=r"k\.jsonl: a file of the kernel's \(/proc, /sys\)"):
        discover_sources([folder / "k.jsonl"])
    with pytest.raises(NotARegularFile, match="a file of the kernel's"):
        open_regular(folder / "k.jsonl")


def test_ingest_of_a_folder_follows_no_link_to_a_file_outside_it(tmp_path):
    """``ingest inbox`` loaded what a link in the folder pointed at (``c.jsonl`` to a file of
    credentials elsewhere), and kept and showed its lines as rejected ones, where ``monthly
    --inbox`` of the same folder leaves it unread. A folder's link to a file outside it is
    not followed, and said; the same file named on the command line is read."""
    from reporting.ingest.discovery import unreadable_entries

    secret = tmp_path / "elsewhere" / "creds.jsonl"
    secret.parent.mkdir()
    secret.write_text('{"secret": "hunter2"}\n', encoding="utf-8")
    folder = tmp_path / "inbox"
    folder.mkdir()
    (folder / "c.jsonl").symlink_to(secret)
    (folder / "good.jsonl").write_text("{}\n", encoding="utf-8")
    (folder / "inner.jsonl").symlink_to(folder / "good.jsonl")  # a link inside is read
    (folder / "notes.txt").symlink_to(secret)  # a name ingest does not read: not asked for
    assert [s.path.name for s in discover_sources([folder])] == ["good.jsonl", "inner.jsonl"]
    assert [(item.path.name, item.reason) for item in unreadable_entries(folder)] == [
        ("c.jsonl", "a link to a file outside the folder, not followed (give the file by path)")
    ]
    assert [s.path.name for s in discover_sources([folder / "c.jsonl"])] == ["c.jsonl"]


def test_the_kernel_s_file_systems_are_known_wherever_they_are_mounted(monkeypatch):
    """A container may see the host's /proc at /host/proc: its kmsg waits for ever there
    too. The mount table says which file system a path lies on (the nearest mount above it
    decides), not the path's first folder."""
    from reporting import files

    table = (
        "22 27 0:21 / /proc rw,relatime - proc proc rw\n"
        "27 1 8:1 / / rw,relatime shared:1 - ext4 /dev/vda rw\n"
        "40 27 0:21 / /host/proc rw,relatime master:2 - proc proc rw\n"
        "41 27 0:30 / /data/my\\040logs rw - tmpfs tmpfs rw\n"
        "42 22 0:31 / /proc/logs rw - ext4 /dev/vdb rw\n"
        "not a line of a mount table\n"
    )
    assert files.mount_table(table)[3] == ("/data/my logs", "tmpfs")
    uncached = files._mounts.__wrapped__
    monkeypatch.setattr(files, "_mounts", lambda: files.mount_table(table))
    assert files.is_kernel_file("/host/proc/kmsg")
    assert files.is_kernel_file("/proc/self/status")
    assert files.is_kernel_file("/proc/logs/october.jsonl")  # whatever is mounted under /proc
    assert not files.is_kernel_file("/host/procs/october.jsonl")
    assert not files.is_kernel_file("/data/my logs/october.jsonl")
    monkeypatch.setattr(files, "_mounts", uncached)  # read afresh, not from the cache
    monkeypatch.setattr("builtins.open", _no_mount_table(open))
    assert files._mounts() == (("/proc", "proc"), ("/sys", "sysfs"))
    assert files.is_kernel_file("/proc/kmsg") and files.is_kernel_file("/sys/kernel/mm")


def _no_mount_table(real_open):
    """``open`` that cannot read /proc/self/mountinfo (a jail without /proc)."""

    def opened(path, *args, **kwargs):
        if str(path) == "/proc/self/mountinfo":
            raise PermissionError(13, "Permission denied")
        return real_open(path, *args, **kwargs)

    return opened


def test_an_inbox_link_to_a_file_outside_it_is_not_followed(tmp_path):
    """Whoever may drop files in the inbox (a provider's upload account, which may make
    links) could have any file the job may read loaded, its lines kept and shown as
    rejected lines: a link to a file outside the inbox is left unread and said. A link
    within the inbox, and an inbox that is itself a link, are read as before."""
    secret = tmp_path / "secret.jsonl"
    secret.write_text("not yours\n", encoding="utf-8")
    real = tmp_path / "real-inbox"
    (real / "archive").mkdir(parents=True)
    (real / "archive" / "2026-10.jsonl").write_text("{}\n", encoding="utf-8")
    (real / "latest.jsonl").symlink_to(real / "archive" / "2026-10.jsonl")
    (real / "passwd.jsonl").symlink_to(secret)
    inbox = tmp_path / "inbox"
    inbox.symlink_to(real)
    sources, unread = discover_inbox(inbox, [])
    assert [source.path.relative_to(inbox).as_posix() for source in sources] == [
        "archive/2026-10.jsonl",
        "latest.jsonl",
    ]
    assert [(item.path.name, item.reason) for item in unread] == [
        ("passwd.jsonl", "a link to a file outside the inbox, not followed")
    ]


def test_a_csv_pair_is_found_in_any_case_and_half_a_pair_in_an_inbox_waits_unread(tmp_path):
    """Rounds.csv and Bets.csv were "Bets.csv: no rounds.csv beside it" (the other half looked
    for in lower case), and a rounds.csv whose bets.csv was still on its way stopped the whole
    monthly run before any file was read. Half a pair is now an inbox file not read, with
    why, and the other logs load; `ingest` of a folder still refuses it in one line."""
    inbox = tmp_path / "inbox"
    for name in ("Rounds.csv", "BETS.CSV", "round-log.jsonl", "late/rounds.csv"):
        touch(inbox / name)
    sources, unread = discover_inbox(inbox, ())
    assert sorted((s.path.name, s.companion and s.companion.name) for s in sources) == [
        ("Rounds.csv", "BETS.CSV"),
        ("round-log.jsonl", None),
    ]
    assert [(item.path.relative_to(inbox).as_posix(), item.reason) for item in unread] == [
        ("late/rounds.csv", "no bets.csv beside it to pair with yet")
    ]
    with pytest.raises(InputError, match=r"late/rounds\.csv: no bets\.csv beside it to pair"):
        discover_sources([inbox])
    touch(inbox / "late" / "bets.csv")  # the other half arrives
    sources, unread = discover_inbox(inbox, ())
    assert len(sources) == 3 and unread == []
    # Either half twice, in different case: no pair is guessed, every file of it is named.
    touch(inbox / "Bets.csv")
    sources, unread = discover_inbox(inbox, ())
    assert sorted(s.path.name for s in sources) == ["round-log.jsonl", "rounds.csv"]
    assert [(item.path.name, item.reason) for item in unread] == [
        (name, "2 files named bets.csv in different case (BETS.CSV, Bets.csv): rename one")
        for name in ("BETS.CSV", "Bets.csv", "Rounds.csv")
    ]


def test_an_inbox_whose_own_path_is_not_utf8_is_refused_not_read_as_empty(tmp_path):
    """Only the folder's name had the odd byte, yet every file of it was "not UTF-8: rename
    it", and the monthly job published the month with no round at all (exit 1)."""
    inbox = tmp_path / os.fsdecode(b"n\xffu") / "inbox"
    touch(inbox / "round-log.jsonl")
    with pytest.raises(InputError, match=r"n\\xffu/inbox: the inbox's path is not UTF-8 text \(a"):
        discover_inbox(inbox, ())


def test_a_log_whose_bytes_are_not_the_plain_text_its_name_says_is_named_at_once(tmp_path):
    """A gzipped log named .jsonl (and a UTF-16 one) was read line by line into rejects, its
    last line taken for one still being uploaded: every monthly run exited 2 and said to wait
    for the rest of a file that was whole. The inbox leaves it unread with the reason (the
    month publishes, naming it); named on the command line, it is refused in one line."""
    import gzip

    inbox = tmp_path / "inbox"
    inbox.mkdir()
    (inbox / "good.jsonl").write_text("{}\n", encoding="utf-8")
    (inbox / "late.jsonl").write_bytes(gzip.compress(b"{}\n"))
    (inbox / "wide.jsonl").write_bytes("{}\n".encode("utf-16"))
    (inbox / "wide-be.jsonl").write_bytes(b"\xfe\xff" + "{}\n".encode("utf-16-be"))
    (inbox / "unmarked-le.jsonl").write_bytes("{}\n".encode("utf-16-le"))
    (inbox / "unmarked-be.jsonl").write_bytes("{}\n".encode("utf-16-be"))
    (inbox / "wide-32-be.jsonl").write_bytes(b"\x00\x00\xfe\xff" + "{}\n".encode("utf-32-be"))
    (inbox / "zeros.jsonl").write_bytes(bytes(8))  # preallocated, being written: not said
    (inbox / "rounds.csv").write_bytes(gzip.compress(b"round_id\n"))
    (inbox / "bets.csv").write_text("round_id\n", encoding="utf-8")
    (inbox / "fine.jsonl.gz").write_bytes(gzip.compress(b"{}\n"))
    sources, unread = discover_inbox(inbox, [])
    assert sorted(source.path.name for source in sources) == [
        "fine.jsonl.gz",
        "good.jsonl",
        "zeros.jsonl",
    ]
    wide = "UTF-16 or UTF-32 text: a round log is UTF-8 text; export or save it as UTF-8"
    assert [(item.path.name, item.reason) for item in unread] == [
        (
            "bets.csv",
            "its other half, rounds.csv, cannot be read: gzip data: a CSV file is read as plain"
            " text; decompress it",
        ),
        ("late.jsonl", "gzip data under a plain-text name: name it late.jsonl.gz to have it read"),
        ("rounds.csv", "gzip data: a CSV file is read as plain text; decompress it"),
        ("unmarked-be.jsonl", wide),
        ("unmarked-le.jsonl", wide),
        ("wide-32-be.jsonl", wide),
        ("wide-be.jsonl", wide),
        ("wide.jsonl", wide),
    ]
    with pytest.raises(InputError, match=r"late\.jsonl: gzip data under a plain-text name"):
        discover_sources([inbox / "late.jsonl"])
    # a pair's half named alone finds its companion beside it: that one is looked at too
    (inbox / "rounds.csv").write_text("round_id\n", encoding="utf-8")
    (inbox / "bets.csv").write_bytes(gzip.compress(b"round_id\n"))
    with pytest.raises(InputError, match=r"bets\.csv: gzip data: a CSV file is read as plain"):
        discover_sources([inbox / "rounds.csv"])
    with pytest.raises(InputError, match=r"rounds\.csv: its other half, bets\.csv, cannot be"):
        discover_sources([inbox])


def test_an_entry_taken_away_while_the_inbox_is_listed_is_neither_read_nor_said(
    tmp_path, monkeypatch
):
    """An upload client's folder of parts taken away while the inbox was walked stopped the
    whole run with a FileNotFoundError; a file taken away (or renamed) between the listing and
    the look at it was said unread, "no such file" or "cannot be read (no permission)", and
    the month exited 1 for a file that no longer was. Neither is there to read or to say."""
    import shutil

    inbox = tmp_path / "inbox"
    (inbox / "parts").mkdir(parents=True)
    (inbox / "parts" / "a.jsonl").write_text("{}\n", encoding="utf-8")
    (inbox / "good.jsonl").write_text("{}\n", encoding="utf-8")
    (inbox / "renamed.jsonl").write_text("{}\n", encoding="utf-8")
    (inbox / "pair").mkdir()
    (inbox / "pair" / "rounds.csv").write_text("round_id\n", encoding="utf-8")
    (inbox / "pair" / "bets.csv").write_text("round_id\n", encoding="utf-8")
    real_scandir = os.scandir

    class Listed:  # a folder's entries, read whole, as os.scandir's iterator gives them
        def __init__(self, entries):
            self.entries = iter(entries)

        def __iter__(self):
            return self

        def __next__(self):
            return next(self.entries)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

    def scandir(path="."):  # the writer takes the folder of parts away once the inbox is read
        with real_scandir(path) as listing:
            entries = Listed(list(listing))
        if str(path) == str(inbox):
            shutil.rmtree(inbox / "parts", ignore_errors=True)
        return entries

    real_access = os.access

    def access(path, mode, **kwargs):  # the file goes once the folder is listed
        if str(path).endswith(("renamed.jsonl", "bets.csv")):
            for gone in (inbox / "renamed.jsonl", inbox / "pair" / "bets.csv"):
                gone.unlink(missing_ok=True)
        return real_access(path, mode, **kwargs)

    monkeypatch.setattr(os, "scandir", scandir)
    monkeypatch.setattr(os, "access", access)
    sources, unread = discover_inbox(inbox, [])
    assert [source.path.name for source in sources] == ["good.jsonl"]
    assert [(item.path.name, item.reason) for item in unread] == [
        ("rounds.csv", "no bets.csv beside it to pair with yet")
    ]
    shutil.rmtree(inbox / "pair")
    (inbox / "parts").mkdir()
    (inbox / "parts" / "b.jsonl").write_text("{}\n", encoding="utf-8")
    assert [source.path.name for source in discover_sources([inbox])] == ["good.jsonl"]
