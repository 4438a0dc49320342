"""A store on a read-only file system (a write-once archive, a read-only mount, a snapshot): the
commands that only read it (``export``, ``serve``, ``disclose``, ``rules --db``) read it where
it is; the commands that write say that its file system is read-only, and what to do. So is a
store this user may read but not write.

The file system is real: each command runs in a mount namespace of its own (``unshare -rm``,
util-linux: a user namespace in which this user is root, so no privilege is needed) in which
a folder holding the store is bound read-only; nothing outside the command sees the mount.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import as_the_files_say, rows, run_main

from reporting.errors import InputError
from reporting.store import schema
from reporting.store.schema import SCHEMA_VERSION, check_unchanged, connect

#: Bind $1 read-only at $2 in a mount namespace of the command's own, then run the rest.
READ_ONLY_BIND = 'mount --bind "$1" "$2" && mount -o remount,ro,bind "$2" && shift 2 && exec "$@"'
CONFIG = Path(__file__).resolve().parents[2] / "sample_data" / "operator.toml"


def run_read_only(folder: Path, mount: Path, *args: str, python: str | None = None):
    """``baccarat-report ARGS`` (or ``python -c PYTHON``) with ``folder`` bound read-only at
    ``mount``; the completed process."""
    mount.mkdir(exist_ok=True)
    command = [sys.executable, "-c", python] if python else [sys.executable, "-m", "reporting"]
    return subprocess.run(
        ["unshare", "-rm", "sh", "-c", READ_ONLY_BIND, "sh", str(folder), str(mount)]
        + command
        + list(args),
        capture_output=True,
        text=True,
        timeout=120,
    )


def export_from(folder: Path, tmp_path: Path, name: str = "store.sqlite"):
    """``export`` of the store ``name`` of ``folder``, bound read-only at ``tmp_path/mount``,
    into ``tmp_path/copy``; the completed process."""
    mount = tmp_path / "mount"
    return run_read_only(
        folder, mount, "export", "--db", str(mount / name), "--parquet", str(tmp_path / "copy")
    )


@pytest.fixture(scope="module")
def archive(tmp_path_factory, make_round, make_bet, write_jsonl):
    """A folder holding a store of two October rounds (one of them void), checked by verify;
    and where it is bound read-only."""
    root = tmp_path_factory.mktemp("archive")
    folder = root / "store"
    log = write_jsonl(
        root / "october.jsonl",
        make_round("LB01-20261003-0001", hand_no=1),
        make_round(
            "LB01-20261003-0002",
            hand_no=2,
            status="void",
            void_reason="dealer error",
            bets=[make_bet("B-2", payout="25.00")],
        ),
    )
    db = folder / "store.sqlite"
    folder.mkdir()
    assert run_main("ingest", str(log), "--db", str(db), "--config", str(CONFIG)).returncode == 0
    verified = run_main("verify", "--db", str(db), "--config", str(CONFIG), "--month", "2026-10")
    # verified: its one alert, the live table idle the rest of the month (it is open 24h)
    assert verified.returncode == 1, verified.stderr
    (warning,) = verified.stderr.splitlines()
    assert "its pages say it is open 24 hours a day, but its table was idle" in warning
    assert sorted(path.name for path in folder.iterdir()) == ["store.sqlite", "store.sqlite.lock"]
    return folder, root / "mount"


def test_the_store_is_on_a_read_only_file_system(archive):
    folder, mount = archive
    touched = run_read_only(folder, mount, python=f"open('{mount / 'new'}', 'w')")
    assert touched.returncode != 0 and "Read-only file system" in touched.stderr


def test_export_disclose_and_rules_read_the_store_where_it_is(archive, tmp_path):
    folder, mount = archive
    db = mount / "store.sqlite"
    exported = export_from(folder, tmp_path)
    assert exported.returncode == 0, exported.stderr
    assert "rounds: 2 rows" in exported.stdout and "bets: 2 rows" in exported.stdout
    assert sorted((tmp_path / "copy").iterdir())

    here = run_main(
        "disclose", "--db", str(folder / "store.sqlite"), "--config", str(CONFIG),
        "--game", "live-baccarat-it", "--as-of", "2026-11-05", "--json",
    )  # fmt: skip
    there = run_read_only(
        folder, mount, "disclose", "--db", str(db), "--config", str(CONFIG),
        "--game", "live-baccarat-it", "--as-of", "2026-11-05", "--json",
    )  # fmt: skip
    assert there.returncode == here.returncode, there.stderr
    assert json.loads(there.stdout) == json.loads(here.stdout)

    sheets = run_read_only(
        folder, mount, "rules", "--db", str(db), "--config", str(CONFIG),
        "--game", "live-baccarat-it", "--format", "html", "--out", str(tmp_path / "sheets"),
    )  # fmt: skip
    assert sheets.returncode in (0, 1), sheets.stderr
    assert "read-only" not in sheets.stderr
    assert list((tmp_path / "sheets").rglob("*.html"))
    assert sorted(path.name for path in folder.iterdir()) == ["store.sqlite", "store.sqlite.lock"]


SERVE = """
import asyncio, sys
from pathlib import Path
from reporting.cli.serve import datasette_app

async def main():
    app = datasette_app(Path(sys.argv[1]))
    await app.invoke_startup()
    rounds = await app.client.get("/store/rounds.json?_shape=array")
    void = await app.client.get("/store/void_rounds.json?_shape=array")
    print(rounds.status_code, len(rounds.json()), void.status_code, len(void.json()))

asyncio.run(main())
"""


def test_serve_browses_the_store_where_it_is(archive):
    folder, mount = archive
    served = run_read_only(folder, mount, str(mount / "store.sqlite"), python=SERVE)
    assert served.returncode == 0, served.stderr
    assert served.stdout.split() == ["200", "2", "200", "1"]


@pytest.mark.parametrize(
    "command",
    [
        ("verify", "--month", "2026-10"),
        ("ingest", str(CONFIG.parent / "inbox" / "round-log-2026-10.jsonl.gz")),
    ],
    ids=["verify", "ingest"],
)
def test_a_command_that_writes_says_the_file_system_is_read_only(archive, command):
    folder, mount = archive
    db = mount / "store.sqlite"
    refused = run_read_only(folder, mount, *command, "--db", str(db), "--config", str(CONFIG))
    assert refused.returncode == 2
    assert f"{db}: the database is on a read-only file system" in refused.stderr
    assert "copy it to writable storage and give the copy as --db" in refused.stderr
    assert "Traceback" not in refused.stderr


def snapshot_with_a_transaction_in_its_wal(archive, tmp_path: Path) -> Path:
    """A copy of the store taken while a connection held a committed transaction in the -wal
    file (one round deleted, with its bet), not yet in the store: a snapshot of a store in
    use. The store itself is left as it was."""
    folder, _ = archive
    copy = tmp_path / "snapshot"
    copy.mkdir()
    shutil.copy(folder / "store.sqlite", copy / "store.sqlite")
    writer = sqlite3.connect(copy / "store.sqlite", isolation_level=None)
    try:
        writer.execute("PRAGMA journal_mode = WAL")
        writer.execute("PRAGMA wal_autocheckpoint = 0")
        writer.execute("BEGIN")
        writer.execute("DELETE FROM findings")
        writer.execute("DELETE FROM bets WHERE round_id = 'LB01-20261003-0001'")
        writer.execute("DELETE FROM rounds WHERE round_id = 'LB01-20261003-0001'")
        writer.execute("COMMIT")
        taken = tmp_path / "taken"
        taken.mkdir()
        for suffix in ("", "-wal", "-shm"):
            shutil.copy(f"{copy / 'store.sqlite'}{suffix}", taken / f"store.sqlite{suffix}")
    finally:
        writer.close()
    assert (taken / "store.sqlite-wal").stat().st_size > 0
    return taken


def test_a_snapshot_is_read_with_the_transactions_in_its_wal(archive, tmp_path):
    taken = snapshot_with_a_transaction_in_its_wal(archive, tmp_path)
    exported = export_from(taken, tmp_path, "store.sqlite")
    assert exported.returncode == 0, exported.stderr
    assert "rounds: 1 rows" in exported.stdout  # not the 2 rounds of the file without its -wal


def test_a_wal_without_its_shm_is_refused_not_read_without_its_transactions(archive, tmp_path):
    taken = snapshot_with_a_transaction_in_its_wal(archive, tmp_path)
    (taken / "store.sqlite-shm").unlink()
    refused = export_from(taken, tmp_path, "store.sqlite")
    assert refused.returncode == 2
    assert refused.stderr.strip().endswith(
        "on a read-only file system, with transactions not yet written into it in its -wal file"
        " and no -shm file to read them by; copy the store and its -wal file to writable storage"
        " and give the copy as --db"
    )
    assert not (tmp_path / "copy").exists()


def test_a_store_of_an_earlier_release_is_refused_it_cannot_be_upgraded_there(archive, tmp_path):
    folder, _ = archive
    older = tmp_path / "older"
    older.mkdir()
    shutil.copy(folder / "store.sqlite", older / "store.sqlite")
    marked = sqlite3.connect(older / "store.sqlite")
    marked.execute(f"PRAGMA user_version = {SCHEMA_VERSION - 1}")
    marked.commit()
    marked.close()
    mount = tmp_path / "mount"
    db = mount / "store.sqlite"
    refused = export_from(older, tmp_path)
    assert refused.returncode == 2
    assert (
        f"{db}: a store of schema version {SCHEMA_VERSION - 1}, on a read-only file system: this"
        f" release reads version {SCHEMA_VERSION}, and bringing a store to it writes the file;"
        " copy it to writable storage and give the copy as --db"
    ) in refused.stderr
    assert rows(older / "store.sqlite", "PRAGMA user_version") == [(SCHEMA_VERSION - 1,)]


def test_a_store_lacking_an_index_is_refused_where_it_cannot_be_made_again(archive, tmp_path):
    """Writable, a store whose index was dropped gets it made again; read where it is, it
    cannot, and is refused in one line (a month read without it took without end)."""
    folder, _ = archive
    damaged = tmp_path / "damaged"
    damaged.mkdir()
    shutil.copy(folder / "store.sqlite", damaged / "store.sqlite")
    dropped = sqlite3.connect(damaged / "store.sqlite")
    dropped.execute("DROP INDEX bets_by_bet_id")
    dropped.commit()
    dropped.close()
    refused = export_from(damaged, tmp_path)
    assert refused.returncode == 2
    assert refused.stderr == (
        f"baccarat-report: {tmp_path / 'mount' / 'store.sqlite'}: index bets_by_bet_id is"
        " missing (dropped by another program or by hand), and the store is read where it is:"
        " copy it to writable storage and give the copy as --db (the index is made again"
        " there)\n"
    )


def test_a_link_to_a_snapshot_is_read_with_the_transactions_of_its_wal(archive, tmp_path):
    """SQLite keeps the -wal beside the file a link names: looked for beside the link, none was
    found, and the store was read as immutable without its last transactions (exit 0)."""
    taken = snapshot_with_a_transaction_in_its_wal(archive, tmp_path)
    (taken / "current.sqlite").symlink_to("store.sqlite")
    exported = export_from(taken, tmp_path, "current.sqlite")
    assert exported.returncode == 0, exported.stderr
    assert "rounds: 1 rows" in exported.stdout


def test_a_hard_linked_snapshot_is_read_where_it_is(archive, tmp_path):
    """A second name only matters where SQLite writes a journal beside each: a snapshot of hard
    links (cp -al, rsnapshot) was refused with advice it could not follow there."""
    folder, _ = archive
    linked = tmp_path / "linked"
    linked.mkdir()
    shutil.copy(folder / "store.sqlite", linked / "store.sqlite")
    (linked / "other.sqlite").hardlink_to(linked / "store.sqlite")
    exported = export_from(linked, tmp_path, "store.sqlite")
    assert exported.returncode == 0, exported.stderr
    assert "rounds: 2 rows" in exported.stdout


def test_a_damaged_wal_is_one_line_naming_the_store(archive, tmp_path):
    """A -wal of garbage beside a store read where it is, with a -shm that says it holds
    transactions: SQLite's locking protocol failed reading the store's marks, which ended on a
    traceback, then, as a fault, after SQLite had tried again for ten seconds. Its header is
    read first: the store is refused at once."""
    taken = snapshot_with_a_transaction_in_its_wal(archive, tmp_path)
    (taken / "store.sqlite-wal").write_bytes(bytes(range(256)) * 400)
    mount = tmp_path / "mount"
    db = mount / "store.sqlite"
    refused = export_from(taken, tmp_path)
    assert refused.returncode == 2
    assert "Traceback" not in refused.stderr
    assert refused.stderr == (
        f"baccarat-report: {db}: on a read-only file system, beside a -wal file that is not a"
        " SQLite write-ahead log (damaged, or another file's); restore the store from a backup,"
        " or copy it alone to writable storage and give the copy as --db\n"
    )


def test_a_store_written_beneath_its_read_only_view_is_not_used(archive, tmp_path, monkeypatch):
    """A read-only bind mount, or a container's read-only volume, of a store another process
    writes: read as immutable, the store can change beneath the read, which may then mix two
    states (or find the file malformed). What was read is not used, and serve answers 503."""
    folder, _ = archive
    db = tmp_path / "store.sqlite"
    shutil.copy(folder / "store.sqlite", db)
    monkeypatch.setattr(schema, "on_read_only_media", lambda path: True)
    reader = connect(db, create=False, read_only=True)
    try:
        check_unchanged(reader)  # not written yet
        writer = sqlite3.connect(db)
        writer.execute("DELETE FROM findings")
        writer.commit()
        writer.close()
        with pytest.raises(InputError) as refused:
            check_unchanged(reader)
    finally:
        reader.close()
    assert str(refused.value) == (
        f"{db}: the store changed while it was read (another process writes it, and this command"
        " may only read it): what was read may mix two states and was not used;"
        " run again, or read the store where it is written"
    )


SERVE_CHANGED = """
import asyncio, sqlite3, sys
from pathlib import Path
from reporting.cli.serve import datasette_app

async def main():
    app = datasette_app(Path(sys.argv[1]))
    await app.invoke_startup()
    before = await app.client.get("/store/rounds.json?_shape=array")
    writer = sqlite3.connect(sys.argv[2])
    writer.execute("DELETE FROM findings")
    writer.commit()
    writer.close()
    after = await app.client.get("/store/rounds.json?_shape=array")
    print(before.status_code, after.status_code, after.text.strip())

asyncio.run(main())
"""


def test_serve_refuses_every_page_once_the_store_changed_beneath_it(archive, tmp_path):
    folder, _ = archive
    live = tmp_path / "live"
    live.mkdir()
    shutil.copy(folder / "store.sqlite", live / "store.sqlite")
    mount = tmp_path / "mount"
    served = run_read_only(
        live, mount, str(mount / "store.sqlite"), str(live / "store.sqlite"), python=SERVE_CHANGED
    )
    assert served.returncode == 0, served.stderr
    before, after, text = served.stdout.split(" ", 2)
    assert (before, after) == ("200", "503")
    assert text.startswith(f"503 Service Unavailable: {mount / 'store.sqlite'}: the store changed")


@pytest.fixture
def readable_only(archive, tmp_path):
    """A copy of the archive's store in a folder this user may read but not write (an
    auditor's account on the operator's archive); the folder."""
    folder = tmp_path / "readable"
    shutil.copytree(archive[0], folder)
    (folder / "store.sqlite").chmod(0o444)
    folder.chmod(0o555)
    yield folder
    folder.chmod(0o755)


def as_a_reader(*args: str) -> subprocess.CompletedProcess:
    """``baccarat-report ARGS`` as a user who may only read what the files' modes let read."""
    command = as_the_files_say([sys.executable, "-m", "reporting", *args])
    return subprocess.run(command, capture_output=True, text=True, timeout=120)


def test_a_store_this_user_may_only_read_is_read_where_it_is(archive, readable_only, tmp_path):
    """The store of an account that may read it but not write it, nor make its -wal and -shm
    files beside it, was refused by the commands that only read ("read-only for this user;
    make the file and its folder writable"): it is read where it is, as on read-only media,
    and the commands that write still say what to do."""
    db = readable_only / "store.sqlite"
    exported = as_a_reader("export", "--db", str(db), "--parquet", str(tmp_path / "copy"))
    assert exported.returncode == 0, exported.stderr
    assert "rounds: 2 rows" in exported.stdout and "bets: 2 rows" in exported.stdout

    here = run_main(
        "disclose", "--db", str(archive[0] / "store.sqlite"), "--config", str(CONFIG),
        "--game", "live-baccarat-it", "--as-of", "2026-11-05", "--json",
    )  # fmt: skip
    there = as_a_reader(
        "disclose", "--db", str(db), "--config", str(CONFIG),
        "--game", "live-baccarat-it", "--as-of", "2026-11-05", "--json",
    )  # fmt: skip
    assert there.returncode == here.returncode, there.stderr
    assert json.loads(there.stdout) == json.loads(here.stdout)

    refused = as_a_reader("verify", "--db", str(db), "--config", str(CONFIG), "--month", "2026-10")
    assert refused.returncode == 2
    assert f"{db}: the database is read-only for this user" in refused.stderr
    assert sorted(path.name for path in readable_only.iterdir()) == [
        "store.sqlite",
        "store.sqlite.lock",
    ]


def _written_first(original, db: Path, damaged: bool):
    """``original``, called after another process's write to the store at ``db``; with
    ``damaged``, the read then meets pages the write was rewriting (SQLite: malformed)."""

    def writes_then_reads(*args, **kwargs):
        writer = sqlite3.connect(db)
        writer.execute("DELETE FROM findings")
        writer.commit()
        writer.close()
        if damaged:
            error = sqlite3.DatabaseError("database disk image is malformed")
            error.sqlite_errorcode = 11
            raise error
        return original(*args, **kwargs)

    return writes_then_reads


@pytest.mark.parametrize("damaged", [False, True], ids=["read", "read-as-damaged"])
@pytest.mark.parametrize("command", ["export", "disclose", "rules"])
def test_a_command_whose_store_changed_while_it_read_it_uses_nothing_of_it(
    archive, tmp_path, monkeypatch, capsys, command, damaged
):
    """The command's own reading is what another process's write meets (a read-only view
    of a store written elsewhere): the command stops, exit 2, and writes nothing. A read of
    pages the writer was rewriting looked damaged: it said to restore a healthy store from a
    backup."""
    from reporting import cli
    from reporting.figures import disclosure
    from reporting.store import parquet

    db = tmp_path / "store.sqlite"
    shutil.copy(archive[0] / "store.sqlite", db)
    monkeypatch.setattr(schema, "on_read_only_media", lambda path: True)
    if command == "export":
        monkeypatch.setattr(
            parquet, "_write_copy", _written_first(parquet._write_copy, db, damaged)
        )
    else:
        monkeypatch.setattr(
            disclosure, "disclose", _written_first(disclosure.disclose, db, damaged)
        )
    out = tmp_path / "out"
    arguments = {
        "export": ["--parquet", str(out)],
        "disclose": ["--config", str(CONFIG), "--game", "live-baccarat-it", "--as-of", "2026-11-05"],
        "rules": ["--config", str(CONFIG), "--game", "live-baccarat-it", "--out", str(out),
                  "--format", "html", "--as-of", "2026-11-05"],
    }[command]  # fmt: skip
    monkeypatch.setattr(sys, "argv", ["baccarat-report", command, "--db", str(db), *arguments])
    with pytest.raises(SystemExit) as stopped:
        cli.main()
    assert stopped.value.code == 2
    assert f"{db}: the store changed while it was read" in capsys.readouterr().err
    assert not out.exists() or not any(out.rglob("*.*"))


def test_a_wal_this_user_may_not_read_is_said_to_be_so(archive, tmp_path):
    """A store readable by this user beside a -wal of transactions it may not read (made
    readable, its -wal forgotten) was said to lie beside a -wal that is no log, to restore
    from a backup."""
    taken = snapshot_with_a_transaction_in_its_wal(archive, tmp_path)
    db = taken / "store.sqlite"
    db.chmod(0o444)
    Path(f"{db}-wal").chmod(0o000)
    taken.chmod(0o555)
    try:
        refused = as_a_reader("export", "--db", str(db), "--parquet", str(tmp_path / "copy"))
    finally:
        taken.chmod(0o755)
    assert refused.returncode == 2
    assert refused.stderr == (
        f"baccarat-report: {db}: read-only for this user, beside a -wal file this user may"
        " not read (its transactions not yet in the store); ask for read access to the -wal"
        " and -shm files too, or copy the three files to writable storage and give the copy"
        " as --db\n"
    )


def test_a_wal_of_its_header_alone_is_read_without_it_at_once(archive, tmp_path):
    """A -wal of its header alone (no transaction in it) beside a -shm that says it holds
    some: SQLite tried again for ten seconds, then failed. No transaction waits in it: the
    store is read as it is."""
    taken = snapshot_with_a_transaction_in_its_wal(archive, tmp_path)
    wal = taken / "store.sqlite-wal"
    wal.write_bytes(wal.read_bytes()[:32])
    exported = export_from(taken, tmp_path)
    assert exported.returncode == 0, exported.stderr
    assert "rounds: 2 rows" in exported.stdout  # the round deleted in the -wal's frames
