"""Files that are no text at all under a round log's name: an archive, compressed data, a
document, a program. Each was read line by line into rejects, and its last line (a tar's
padding of NULs, a compressed stream's bytes) taken for a file "still being written ... it
loads at the next run once whole": it never would. Each is now named for what it is, with
what to do, before a line of it is read: on the command line, in the inbox, and by every
reader (a log profile's file passes no name check)."""

from __future__ import annotations

import bz2
import functools
import gzip
import io
import json
import lzma
import sqlite3
import tarfile
import zipfile
from pathlib import Path

import pytest
from helpers import write_csv_pair

from reporting.errors import InputError
from reporting.ingest.discovery import discover_inbox, discover_sources
from reporting.ingest.formats import read_source
from reporting.ingest.profiles.loader import load_profile
from reporting.ingest.sniff import why_not_a_log
from reporting.ingest.sources import Source

NOT_LOADED = "not a round log: nothing of it was loaded, and it will not load as it is"


def _tar(text: bytes, form: int = tarfile.PAX_FORMAT) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=form) as archive:
        member = tarfile.TarInfo("rounds.jsonl")
        member.size = len(text)
        archive.addfile(member, io.BytesIO(text))
    return buffer.getvalue()


def _zip(text: bytes) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("rounds.jsonl", text)
    return buffer.getvalue()


def _sqlite(tmp_path: Path) -> bytes:
    path = tmp_path / "store.sqlite"
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE t (x)")
    connection.close()
    return path.read_bytes()


#: A kind of file, how it is made from a round log's text, and what it is said to be.
KINDS = {
    "tar": (_tar, "a tar archive"),
    "gnu-tar": (functools.partial(_tar, form=tarfile.GNU_FORMAT), "a tar archive"),
    "zip": (_zip, "a zip archive (or an Office document)"),
    "bzip2": (bz2.compress, "bzip2 data"),
    "xz": (lzma.compress, "xz data"),
    "zstd": (lambda text: b"\x28\xb5\x2f\xfd" + bytes(40), "zstd data"),
    "7z": (lambda text: b"7z\xbc\xaf\x27\x1c\x00\x04" + bytes(40), "a 7-Zip archive"),
    "rar": (lambda text: b"Rar!\x1a\x07\x01\x00" + bytes(40), "a RAR archive"),
    "pdf": (lambda text: b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n", "a PDF document"),
    "xls": (lambda text: bytes.fromhex("d0cf11e0a1b11ae1") + bytes(504), "an old Office document"),
    "elf": (lambda text: b"\x7fELF\x02\x01\x01" + bytes(57), "a program (ELF)"),
}


def test_every_kind_the_sniffer_knows_is_tested():
    """A signature added to the sniffer without a case here fails: each kind is made below,
    gzip data (inside a gzip) and an SQLite database in tests of their own."""
    from reporting.ingest.sniff import _SIGNATURES

    tested = {what for _, what in KINDS.values()} | {"gzip data", "an SQLite database"}
    untested = [
        signature.what
        for signature in _SIGNATURES
        if not any(signature.what.startswith(what) for what in tested)
    ]
    assert not untested


@pytest.fixture
def text(make_round) -> bytes:
    return b"".join(json.dumps(make_round(f"R-{n}")).encode() + b"\n" for n in range(3))


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_file_that_is_no_text_is_named_for_what_it_is_everywhere(
    tmp_path, text, operator_config, kind
):
    make, what = KINDS[kind]
    data = make(text)
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    (inbox / "good.jsonl").write_bytes(text)
    (inbox / "month.jsonl").write_bytes(data)
    (inbox / "month.jsonl.gz").write_bytes(gzip.compress(data))
    sources, unread = discover_inbox(inbox, [])
    assert [source.path.name for source in sources] == ["good.jsonl"]
    reasons = {item.path.name: item.reason for item in unread}
    assert reasons["month.jsonl"].startswith(what)
    assert f", {NOT_LOADED}; " in reasons["month.jsonl"]
    assert reasons["month.jsonl.gz"].startswith(what.split(" (")[0])
    assert f" compressed with gzip, {NOT_LOADED}; " in reasons["month.jsonl.gz"]
    with pytest.raises(InputError) as refused:
        discover_sources([inbox / "month.jsonl"])
    assert str(refused.value) == f"{inbox / 'month.jsonl'}: {reasons['month.jsonl']}"
    # each reader refuses it too, before a line is read: for a file no name check passed
    for name, layout in (("month.jsonl", "jsonl"), ("month.jsonl.gz", "jsonl.gz")):
        with pytest.raises(InputError) as refused:
            list(read_source(Source(inbox / name, layout), operator_config.games, 100))
        assert str(refused.value) == f"{inbox / name}: {reasons[name]}"


def test_a_gzip_inside_a_gzip_is_said_to_be_compressed_twice(tmp_path, text):
    path = tmp_path / "month.jsonl.gz"
    path.write_bytes(gzip.compress(gzip.compress(text)))
    with pytest.raises(InputError) as refused:
        discover_sources([path])
    assert str(refused.value) == (
        f"{path}: gzip data compressed twice (gzip inside gzip), not a round log: nothing of it"
        " was loaded, and it will not load as it is; decompress it once (gunzip), keeping its"
        " name's .gz"
    )


def test_a_csv_pair_half_and_a_profile_s_file_that_are_archives_are_refused_by_their_readers(
    tmp_path, make_round, operator_config
):
    rounds, bets = write_csv_pair(tmp_path / "pair", [make_round("C-1")])
    bets.write_bytes(_zip(bets.read_bytes()))
    with pytest.raises(InputError, match=r"bets\.csv: a zip archive \(or an Office document\)"):
        list(read_source(Source(rounds, "csv", bets), operator_config.games, 100))
    export = tmp_path / "export.json"
    export.write_bytes(_tar(b"[]\n"))
    profile = load_profile("replay-api")
    with pytest.raises(InputError, match=r"export\.json: a tar archive, not a round log"):
        list(read_source(Source(export, "json", profile=profile), operator_config.games, 100))


def test_an_sqlite_database_named_as_a_round_log_is_said_to_be_one(tmp_path):
    path = tmp_path / "month.jsonl"
    path.write_bytes(_sqlite(tmp_path))
    with pytest.raises(InputError, match=r"month\.jsonl: an SQLite database, not a round log"):
        discover_sources([path])


@pytest.mark.parametrize(
    "line",
    [
        # the marks looked for, where a round log's text may hold them
        b'{"round_id": "' + b"u" * 243 + b'ustar  ", "x": 1}\n',
        b"%PDF is a word at no line's start\n",
        b'{"round_id": "PK\\u0003\\u0004"}\n',
        b"BZh91AY&SX,round_id\n",
    ],
)
def test_a_text_holding_an_archive_s_mark_elsewhere_is_read_as_text(line):
    assert why_not_a_log(line) is None
    assert why_not_a_log(line, gzipped=True) is None


def test_a_last_line_of_nuls_alone_is_said_as_room_made_ahead_or_damage(
    tmp_path, text, operator_config
):
    """A file of NULs is what an upload that makes its room ahead leaves until it writes:
    waited for, but not said to be "still being written, or cut" as if it surely were."""
    path = tmp_path / "month.jsonl"
    path.write_bytes(text + bytes(4096))
    with pytest.raises(InputError) as refused:
        list(read_source(Source(path, "jsonl"), operator_config.games, 100))
    assert str(refused.value) == (
        f"{path}:4: the last line is NUL bytes alone, without a newline: room an upload made"
        " ahead and has not filled yet, or a damaged file; nothing of it was loaded (it loads"
        " at a later run once its writer has filled it; take it out of the inbox if it stays"
        " so)"
    )


def test_an_archive_under_a_gzip_name_is_named_for_what_it_is(tmp_path, text):
    """A zip named ``.jsonl.gz`` (not gzip at all) was "cannot be read to the end (Not a
    gzipped file (b'\\x03\\x04'))", the run exiting 2 at each attempt."""
    path = tmp_path / "month.jsonl.gz"
    path.write_bytes(_zip(text))
    with pytest.raises(InputError) as refused:
        discover_sources([path])
    assert str(refused.value).startswith(
        f"{path}: a zip archive (or an Office document), {NOT_LOADED}; take the round logs out"
    )
