"""Hostile round logs (issue 11, bounded reading): each becomes a reject with its reason, the
file's good lines still load, memory stays bounded and reading ends.

Inputs are built here, in tmp_path. The gzip bombs are made of one compressed block written
many times over (a gzip file may hold many members, read as one stream), so building them
costs milliseconds while reading them means decompressing hundreds of megabytes.
"""

from __future__ import annotations

import gzip
import json
import os
import re
import socket
import subprocess
import sys
import time
import zlib
from pathlib import Path

import msgspec
import pytest

from reporting.errors import InputError, NotARegularFile
from reporting.ingest.discovery import discover_sources, unread_files
from reporting.ingest.formats import read_source
from reporting.ingest.limits import (
    MAX_CSV_FIELD_CHARS,
    MAX_CSV_LINE_CHARS,
    MAX_DEPTH,
    MAX_ID_CHARS,
    MAX_LINE_BYTES,
    MAX_MESSAGE_CHARS,
    MAX_TEXT_CHARS,
    RAW_TEXT_LIMIT,
)
from reporting.ingest.profiles.loader import load_profile
from reporting.ingest.sources import Source
from tests.helpers import write_csv_pair

#: Peak memory allowed to an ingest of any hostile input (the issue's bound).
PEAK_LIMIT_MIB = 300

#: Runs ``ingest`` as its child and reports the peak RSS of it and its descendants (KiB).
_MEASURED = (
    "import resource, subprocess, sys\n"
    "result = subprocess.run(sys.argv[1:])\n"
    "print('peak_kib', resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr)\n"
    "sys.exit(result.returncode)\n"
)


def read(source: Source, config):
    records, rejects = [], []
    for batch in read_source(source, config.games, 1000):
        records.extend(batch.records)
        rejects.extend(batch.rejects)
    return records, rejects


def ingest_measured(tmp_path: Path, *paths: Path, timeout: float = 60) -> tuple[dict, int, str]:
    """``ingest --json`` of the paths in a child process: its JSON document, its peak memory
    (MiB, the reading process included) and its stderr."""
    command = [sys.executable, "-m", "reporting", "ingest", "--json"]
    command += ["--db", str(tmp_path / "hostile.sqlite"), *map(str, paths)]
    done = subprocess.run(
        [sys.executable, "-c", _MEASURED, *command],
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert "Traceback" not in done.stderr, done.stderr
    peak_kib = int(done.stderr.rsplit("peak_kib", 1)[1].split()[0])
    return json.loads(done.stdout), peak_kib // 1024, done.stderr


def gzip_of_repeats(path: Path, block: bytes, times: int, *, before=b"", after=b"") -> Path:
    """A gzip file of ``before``, ``block`` repeated ``times`` times, then ``after``."""
    member = gzip.compress(block, compresslevel=9, mtime=0)
    with path.open("wb") as handle:
        handle.write(gzip.compress(before, mtime=0))
        for _ in range(times):
            handle.write(member)
        handle.write(gzip.compress(after, mtime=0))
    return path


def line(record: dict) -> bytes:
    return json.dumps(record, separators=(",", ":")).encode() + b"\n"


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


# --- one file of hostile lines, each its own reject ------------------------------------------


def hostile_lines(make_round, make_bet) -> list[tuple[bytes, str | None]]:
    """(line, expected reject reason or None for a line that loads), in file order."""
    good = make_round("R-GOOD-1")
    base = line(make_round("R-X"))[:-2]  # the round's JSON without its closing brace
    cases: list[tuple[bytes, str | None]] = [
        (line(good), None),
        # nesting: in an unknown field, past the decoders' own limit and past ours
        (base + b',"extra":' + nested(3000).encode() + b"}\n", "bad_value"),
        (base + b',"extra":' + nested(MAX_DEPTH + 10).encode() + b"}\n", "bad_value"),
        (
            line(make_round("R-X")).replace(
                b'"player_cards":["9H","KS"]', b'"player_cards":' + nested(900).encode()
            ),
            "bad_card",
        ),
        (
            line(make_round("R-X")).replace(
                b'"player_cards":["9H","KS"]', b'"player_cards":' + nested(3000).encode()
            ),
            "bad_value",
        ),
        # numbers beyond any parser: amounts of 5,000 digits, a hand of 5,000 digits, 1e999
        (line(make_round("R-AMOUNT", bets=[make_bet("B-A", stake="9" * 5000)])), "bad_money"),
        (
            line(make_round("R-HAND")).replace(b'"hand_no":23', b'"hand_no":' + b"9" * 5000),
            "bad_value",
        ),
        (line(make_round("R-HUGE")).replace(b'"hand_no":23', b'"hand_no":1e999'), "bad_value"),
        # money as a JSON number past any parser is money refused, as a JSON number is
        (line(make_round("R-EXP")).replace(b'"stake":"25.00"', b'"stake":1e999999'), "bad_money"),
        (
            line(make_round("R-DIG")).replace(b'"payout":"0.00"', b'"payout":' + b"9" * 5000),
            "bad_money",
        ),
        (base + b',"extra":' + b"9" * 5000 + b"}\n", None),  # an unknown field is ignored
        # duplicate keys: the decoder would keep the last
        (
            line(make_round("R-DUP")).replace(
                b'"stake":"25.00"', b'"stake":"5.00","stake":"999.00"'
            ),
            "bad_json",
        ),
        (
            line(make_round("R-DUP-NULL")).replace(b'"shoe_id":', b'"shoe_id":null,"shoe_id":'),
            "bad_json",
        ),
        (
            line(make_round("R-DUP-ESC")).replace(
                b'"stake":"25.00"', b'"stake":"25.00","st\\u0061ke":"999.00"'
            ),
            "bad_json",
        ),
        # dates at the ends of what a datetime holds
        (line(make_round("R-YEAR1", settled_at="0001-01-01T00:00:00Z")), "bad_value"),
        (line(make_round("R-Y9999", settled_at="9999-12-31T23:59:59+14:00")), "bad_value"),
        (
            line(
                make_round(
                    "R-PLACED1", bets=[make_bet("B-P", placed_at="0001-01-01T00:00:00+14:00")]
                )
            ),
            "bad_value",
        ),
        # misspelt optional fields, in the round and in a bet
        (line(make_round("R-SPELL")).replace(b'"shoe_id"', b'"shoeid"'), "bad_value"),
        (line(make_round("R-SPELL2")).replace(b'"hand_no"', b'"hand_number"'), "bad_value"),
        (line(make_round("R-SPELL3")).replace(b'"placed_at"', b'"placedAt"'), "bad_value"),
        # a huge value: a bounded message and raw text
        (line(make_round("R-BIG", settled_at="2" * 3_000_000)), "bad_value"),
        # one line longer than the bound, streamed past
        (b'{"round_id":"' + b"0" * (MAX_LINE_BYTES + 10) + b'"}\n', "bad_value"),
        (b"\n \r\n\t\n", None),  # blank lines are not records (None: nothing to see)
        # what loads: spaced JSON, CR LF, an unknown field, an escape in a value
        (json.dumps(make_round("R-SPACED")).encode() + b"\r\n", None),
        (line(make_round("R-EXTRA", dealer="Ann")), None),
        (line(make_round("R-ESCAPED", table_id="LB\\u00e9")), None),
    ]
    return cases


def test_every_hostile_line_is_its_own_reject_and_the_good_lines_load(
    tmp_path, operator_config, make_round, make_bet
):
    cases = hostile_lines(make_round, make_bet)
    path = tmp_path / "hostile.jsonl"
    path.write_bytes(b"".join(data for data, _ in cases) + line(make_round("R-GOOD-2")))
    records, rejects = read(Source(path, "jsonl"), operator_config)

    expected_rejects = [reason for data, reason in cases if reason is not None]
    assert [reject.reason for reject in rejects] == expected_rejects
    loaded = {record.round_id for record in records}
    assert {"R-GOOD-1", "R-GOOD-2", "R-SPACED", "R-EXTRA", "R-ESCAPED"} <= loaded
    assert len(records) == 6  # the five above and the unknown 5,000-digit number's R-X
    # each reject at its own line, counted across the blank lines
    numbers = []
    number = 0
    for data, reason in cases:
        if reason is not None:
            numbers.append(number + 1)
        number += data.count(b"\n")
    assert [reject.source_line for reject in rejects] == numbers
    for reject in rejects:
        assert len(reject.message) <= MAX_MESSAGE_CHARS
        assert len(reject.raw_text) <= RAW_TEXT_LIMIT


@pytest.mark.parametrize(
    ("fragment", "words"),
    [
        (b'"stake":"5.00","stake":"999.00"', "key 'stake' appears twice"),
        (b'"shoeid":"S"', "did you mean shoe_id?"),
        (b'"hand_number":4', "did you mean hand_no?"),
        (b'"extra":' + nested(MAX_DEPTH + 1).encode(), f"nested more than {MAX_DEPTH} deep"),
        (b'"extra":' + nested(5000).encode(), f"nested more than {MAX_DEPTH} deep"),
    ],
)
def test_a_reject_says_what_is_wrong(tmp_path, operator_config, make_round, fragment, words):
    data = line(make_round("R-1"))[:-2] + b"," + fragment + b"}\n"
    if b"stake" in fragment:
        data = line(make_round("R-1")).replace(b'"stake":"25.00"', fragment)
    path = tmp_path / "one.jsonl"
    path.write_bytes(data)
    [], [reject] = read(Source(path, "jsonl"), operator_config)
    assert words in reject.message


def in_each_id(value: str, make_round, make_bet) -> dict[str, dict]:
    """A round for each id of a round and its bets, that id ``value``, by the field a reject
    names."""
    return {
        "round_id": make_round(value),
        "table_id": make_round("R-T", table_id=value),
        "shoe_id": make_round("R-S", shoe_id=value),
        "bets[0].bet_id": make_round("R-B", bets=[make_bet(value)]),
        "bets[0].account": make_round("R-A", bets=[make_bet("B-A", account=value)]),
    }


def test_an_id_or_a_void_reason_past_its_bound_is_that_round_s_reject(
    tmp_path, operator_config, make_round, make_bet
):
    """A round id of 200,000 characters loaded, and the monthly audit report took three
    minutes to break it across lines (it grows with the square of the length): every id of a
    round and its bets holds at most MAX_ID_CHARS characters, a void reason MAX_TEXT_CHARS;
    past them the round is one bad_value reject that names the field. At the bound it loads."""
    long, at = "R" * (MAX_ID_CHARS + 1), "A" * MAX_ID_CHARS
    cases = {
        **in_each_id(long, make_round, make_bet),
        "void_reason": make_round(
            "R-V",
            status="void",
            void_reason="x" * (MAX_TEXT_CHARS + 1),
            bets=[make_bet("B-V", payout="25.00")],
        ),
    }
    fine = [
        make_round(at, table_id=at, shoe_id=at, bets=[make_bet(at, account=at)]),
        make_round("R-V2", status="void", void_reason="x" * MAX_TEXT_CHARS, bets=[]),
    ]
    path = tmp_path / "long.jsonl"
    path.write_bytes(b"".join(line(record) for record in [*cases.values(), *fine]))
    records, rejects = read(Source(path, "jsonl"), operator_config)
    assert [record.round_id for record in records] == [at, "R-V2"]
    assert [reject.reason for reject in rejects] == ["bad_value"] * len(cases)
    for field, reject in zip(cases, rejects, strict=True):
        assert reject.message.startswith(f"{field} has "), reject.message
        assert "characters:" in reject.message and "at most" in reject.message
    # the CSV pair's rows meet the same bound
    rounds, bets = write_csv_pair(tmp_path, [make_round(long), make_round("R-OK")])
    records, rejects = read(Source(rounds, "csv", companion=bets), operator_config)
    assert [record.round_id for record in records] == ["R-OK"]
    assert [reject.reason for reject in rejects] == ["bad_value"]


@pytest.mark.parametrize(
    ("char", "named"),
    [
        ("\x1b", "U+001B of category Cc"),  # ESC: a terminal's control sequence
        ("\u202e", "U+202E RIGHT-TO-LEFT OVERRIDE"),  # "LB-IT-\u202e01" shows as "LB-IT-10"
        ("\u200b", "U+200B ZERO WIDTH SPACE"),  # "LB-IT-01" and another id that looks alike
        ("\xa0", "U+00A0 NO-BREAK SPACE"),
        ("\n", "U+000A of category Cc"),
    ],
)
def test_an_id_holding_a_character_that_does_not_print_is_that_round_s_reject(
    tmp_path, operator_config, make_round, make_bet, char, named
):
    """An id is shown as it is in the audit, the findings and the pages: a control character,
    a zero-width space or a bidirectional override in it hid there or turned the text around
    it (an account "acc-\u202e1144" reads "acc-4411"). The round is one bad_value reject that
    names the field, the character and where it is; letters of any script and the space load."""
    odd = f"LB-IT-{char}01"
    cases = in_each_id(odd, make_round, make_bet)
    # the round that loads comes first: each later bet takes ingest's quick path, which has
    # seen its amounts and time before
    fine = "LB-IT 01 Ωμέγα 桌"
    path = tmp_path / "odd.jsonl"
    records = [make_round(fine, shoe_id=fine, bets=[make_bet(fine, account=fine)]), *cases.values()]
    path.write_bytes(b"".join(line(record) for record in records))
    loaded, rejects = read(Source(path, "jsonl"), operator_config)
    assert [record.round_id for record in loaded] == [fine]
    assert [reject.reason for reject in rejects] == ["bad_value"] * len(cases)
    for field, reject in zip(cases, rejects, strict=True):
        assert reject.message.startswith(f"{field} {odd!r} holds {named} (character 7)")
        assert reject.message.isprintable(), reject.message
    # the CSV pair's rows meet the same check
    rounds, bets = write_csv_pair(tmp_path, [make_round(odd), make_round("R-OK")])
    loaded, rejects = read(Source(rounds, "csv", companion=bets), operator_config)
    assert [record.round_id for record in loaded] == ["R-OK"]
    assert [reject.reason for reject in rejects] == ["bad_value"]


def test_a_line_at_the_depth_bound_loads(tmp_path, operator_config, make_round):
    data = line(make_round("R-1"))[:-2] + b',"extra":' + nested(MAX_DEPTH - 1).encode() + b"}\n"
    path = tmp_path / "deep.jsonl"
    path.write_bytes(data)
    [record], [] = read(Source(path, "jsonl"), operator_config)
    assert record.round_id == "R-1"


def test_a_byte_order_mark_is_skipped_and_the_first_record_loads(
    tmp_path, operator_config, make_round
):
    path = tmp_path / "bom.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + line(make_round("R-1")) + line(make_round("R-2")))
    records, rejects = read(Source(path, "jsonl"), operator_config)
    assert [record.round_id for record in records] == ["R-1", "R-2"] and rejects == []


@pytest.mark.parametrize("gzipped", [False, True], ids=["plain", "gzip"])
def test_lines_ended_by_a_carriage_return_alone_are_said_and_nothing_loads(
    tmp_path, operator_config, make_round, gzipped
):
    """A log whose lines end in CR alone (as classic Mac OS wrote text) read as one line: a
    small one was refused as a file still being written (every run would wait for it), a
    large one loaded as one reject of a line too long. Both are said at once; a log of CR LF
    lines loads."""
    data = line(make_round("R-1")) + line(make_round("R-2"))
    path = tmp_path / ("mac.jsonl.gz" if gzipped else "mac.jsonl")
    big = data.replace(b"\n", b"\r") * (MAX_LINE_BYTES // len(data) + 1)
    for content in (data.replace(b"\n", b"\r"), big):
        path.write_bytes(gzip.compress(content) if gzipped else content)
        with pytest.raises(InputError, match=rf"{path.name}: its lines end in a carriage return"):
            read(Source(path, "jsonl.gz" if gzipped else "jsonl"), operator_config)
    path.write_bytes((gzip.compress if gzipped else bytes)(data.replace(b"\n", b"\r\n")))
    records, rejects = read(Source(path, "jsonl.gz" if gzipped else "jsonl"), operator_config)
    assert [record.round_id for record in records] == ["R-1", "R-2"] and rejects == []
    # a CR as JSON's whitespace inside a record, the one line without its line feed, loads
    one = line(make_round("R-3")).rstrip(b"\n").replace(b'"bets":', b'"bets":\r', 1)
    assert b'"bets":\r[' in one
    path.write_bytes(gzip.compress(one) if gzipped else one)
    records, rejects = read(Source(path, "jsonl.gz" if gzipped else "jsonl"), operator_config)
    assert [record.round_id for record in records] == ["R-3"] and rejects == []


def test_reject_messages_of_a_huge_value_stay_short(
    tmp_path, operator_config, make_round, make_bet
):
    huge = "7" * 2_000_000
    path = tmp_path / "huge.jsonl"
    path.write_bytes(
        line(make_round("R-1", game=huge))
        + line(make_round("R-2", bets=[make_bet("B-1", currency=huge)]))
        + line(make_round("R-3", bets=[make_bet("B-2", type="banker", stake=huge)]))
    )
    [], rejects = read(Source(path, "jsonl"), operator_config)
    assert [reject.reason for reject in rejects] == ["unknown_game", "bad_value", "bad_money"]
    assert all(len(reject.message) <= MAX_MESSAGE_CHARS for reject in rejects)
    assert all("2,000,000 characters" in reject.message for reject in rejects)


# --- bombs, in a child process: memory and time ----------------------------------------------


def test_gzip_bombs_are_read_in_bounded_memory_and_time(tmp_path, make_round):
    """256 MiB of zeros on one line (read whole, as before, it took over a GiB), 256 MiB of
    newlines, each between good lines: both read, in well under the memory bound."""
    zeros = gzip_of_repeats(
        tmp_path / "zeros.jsonl.gz",
        b"0" * (16 << 20),
        16,
        before=line(make_round("Z-1")),
        after=b"\n" + line(make_round("Z-2")),
    )
    newlines = gzip_of_repeats(
        tmp_path / "newlines.jsonl.gz",
        b"\n" * (16 << 20),
        16,
        before=line(make_round("N-1")),
        after=line(make_round("N-2")),
    )
    assert zeros.stat().st_size < 1 << 20 and newlines.stat().st_size < 1 << 20
    started = time.monotonic()
    document, peak_mib, _ = ingest_measured(tmp_path, zeros, newlines)
    assert time.monotonic() - started < 30
    assert document["rounds_loaded"] == 4
    [reject] = document["rejected"]
    assert reject["file"].endswith("zeros.jsonl.gz") and reject["line"] == 2
    assert reject["reason"] == "bad_value" and "longer than any round log line" in reject["message"]
    assert peak_mib < PEAK_LIMIT_MIB


@pytest.mark.parametrize(
    ("name", "before", "block", "profile"),
    [
        ("bomb.jsonl.gz", "round", b"\n", None),
        ("bomb.jsonl.gz", "round", b"0", None),
        ("bomb.json.gz", "[", b" ", "replay-api"),
    ],
    ids=["newlines", "one-endless-line", "a-document-of-spaces"],
)
def test_a_gzip_past_its_ratio_bound_is_refused_whole(
    tmp_path, operator_config, make_round, monkeypatch, name, before, block, profile
):
    """12 MB of gzipped newlines took 80 s to read through (in flat memory), and time grew
    with the bomb. Past a ratio of 100 to its compressed bytes, once it has given its
    allowance (1 GiB; 1 MiB here), a gzipped file is refused whole, whatever reads it."""
    monkeypatch.setattr("reporting.ingest.jsonl.GZIP_ALLOWANCE_BYTES", 1 << 20)
    start = line(make_round("R-1")) if before == "round" else before.encode()
    path = gzip_of_repeats(tmp_path / name, block * (1 << 20), 16, before=start)
    profiled = None if profile is None else load_profile(profile)
    (source,) = discover_sources([path], profiled)
    with pytest.raises(InputError) as refused:
        read(source, operator_config)
    message = str(refused.value)
    assert message.startswith(f"{path}: decompresses to over 100 times its size (past"), message
    assert message.endswith("bytes): a gzip bomb, not a round log; nothing of it was loaded")


def test_a_file_of_hostile_lines_loads_its_good_lines_through_the_command(
    tmp_path, make_round, make_bet
):
    """The same hostile lines through ``ingest``: no traceback, exit 1 (rejects), the good
    rounds stored, bounded memory."""
    cases = hostile_lines(make_round, make_bet)
    path = tmp_path / "hostile.jsonl"
    path.write_bytes(b"".join(data for data, _ in cases))
    document, peak_mib, _ = ingest_measured(tmp_path, path)
    assert document["rounds_loaded"] == 5
    assert len(document["rejected"]) == sum(reason is not None for _, reason in cases)
    assert peak_mib < PEAK_LIMIT_MIB


# --- CSV ---------------------------------------------------------------------------------------


def test_csv_rows_rejected_by_the_thousand_are_held_in_flat_memory(tmp_path, operator_config):
    """Each rows.csv row the decoder refused kept its frame and its error alive in a cycle,
    freed only by the collector, which a load keeps paused: 150,000 rows of junk held 360 MB
    until the file's end (a JSON Lines file of the same holds nothing)."""
    import tracemalloc

    from reporting.ingest.discovery import discover_sources
    from reporting.store.load import ingest
    from reporting.store.schema import connect

    folder = tmp_path / "pair"
    folder.mkdir()
    header = "round_id,table_id,game,settled_at,status,player_cards,banker_cards\n"
    (folder / "rounds.csv").write_text(header + "x\n" * 10_000, encoding="utf-8")
    (folder / "bets.csv").write_text("round_id,bet_id,account,type,stake,payout,currency\n")
    connection = connect(tmp_path / "store.sqlite")
    tracemalloc.start()
    try:
        result = ingest(connection, discover_sources([folder]), operator_config, keep_rejects=10)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
        connection.close()
    assert result.rejected_count == 10_000
    assert peak < 8 << 20, f"{peak:,} bytes at the peak"  # 25 MB with the cycle


def test_csv_hostile_rows_are_each_that_rows_reject(tmp_path, operator_config, make_round):
    """A BOM on both files (Excel's "CSV UTF-8"), a cell over the csv module's 131,072
    characters, a 3 MB line, and a quoted cell over several lines (numbered by its first
    line): each bad row its own reject, the others load."""
    rounds = [
        make_round("C-1"),
        make_round("C-2", void_reason="x" * 200_000, status="void"),
        make_round(
            "C-3", void_reason="line one\nline two", status="void", player_cards=[], banker_cards=[]
        ),
        make_round("C-4"),
        make_round("C-5"),
        make_round("C-6", void_reason="y" * 3_000_000, status="void"),
        make_round("C-7"),
    ]
    for record in rounds:
        record["bets"][0]["bet_id"] = record["round_id"] + "-B"
    rounds[2]["bets"][0]["payout"] = rounds[2]["bets"][0]["stake"]
    rounds_path, bets_path = write_csv_pair(tmp_path, rounds)
    many_cells = b"C-8," + b"a," * 600_000 + b"\r\n"  # 1.2 M characters of short cells
    rounds_path.write_bytes(b"\xef\xbb\xbf" + rounds_path.read_bytes() + many_cells)
    bets_path.write_bytes(b"\xef\xbb\xbf" + bets_path.read_bytes())

    records, rejects = read(Source(rounds_path, "csv", bets_path), operator_config)
    assert [record.round_id for record in records] == ["C-1", "C-3", "C-4", "C-5", "C-7"]
    lines = {record.round_id: record.source_line for record in records}
    assert lines["C-3"] == 4 and lines["C-4"] == 6  # C-3's row spans lines 4 and 5
    assert [(reject.source_line, reject.reason) for reject in rejects] == [
        (3, "bad_value"),
        (8, "bad_value"),
        (10, "bad_value"),
    ]
    assert all(reject.source_file.endswith("rounds.csv") for reject in rejects)
    assert [reject.round_id for reject in rejects] == ["C-2", "C-6", "C-8"]
    assert f"a cell is longer than {MAX_CSV_FIELD_CHARS:,} characters" in rejects[0].message
    assert f"a cell is longer than {MAX_CSV_FIELD_CHARS:,} characters" in rejects[1].message
    assert f"a line is longer than {MAX_CSV_LINE_CHARS:,} characters" in rejects[2].message
    assert all(len(reject.raw_text) <= RAW_TEXT_LIMIT for reject in rejects)
    assert all(len(reject.message) <= MAX_MESSAGE_CHARS for reject in rejects)


def test_a_csv_quote_never_closed_past_a_cell_s_bound_names_its_round_and_lines(
    tmp_path, operator_config, make_round
):
    """rounds.csv: an open quote on line 3 reads the rows after it into one cell until the
    cell's bound; the reject named no round and kept the text of the line the bound was met
    on, another round's row."""
    rounds = [make_round(f"C-{n}") for n in range(1, 601)]
    for record in rounds:
        record["bets"][0]["bet_id"] = record["round_id"] + "-B"
    rounds_path, bets_path = write_csv_pair(tmp_path, rounds)
    lines = rounds_path.read_text(encoding="utf-8").splitlines()
    lines[2] = lines[2].replace(",", ',"', 1)  # C-2's second cell opens a quote never closed
    rounds_path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    records, rejects = read(Source(rounds_path, "csv", bets_path), operator_config)
    reject = rejects[0]
    assert (reject.source_line, reject.round_id, reject.raw_text) == (3, "C-2", lines[2])
    last = int(reject.message.split(" ")[1].split("-")[1])
    assert reject.message == (
        f"lines 3-{last} read as one row (a quoted cell opened on line 3 runs to line"
        f" {last}): a cell is longer than {MAX_CSV_FIELD_CHARS:,} characters"
    )
    loaded = [record.round_id for record in records]
    assert loaded == ["C-1", *(f"C-{n}" for n in range(last, 601))]


@pytest.mark.parametrize("closed_on", [6, None], ids=["closed three lines on", "never closed"])
def test_a_quote_left_open_in_bets_csv_loads_no_round_without_the_bets_it_swallowed(
    tmp_path, operator_config, make_round, closed_on
):
    """bets.csv: a quote opened on line 3 took the bets of the rows after it into its cell
    (to a later quote, or to the cell's bound): the rounds of those bets loaded without them
    and published short, the one reject naming line 3 alone. Each line taken is now a reject
    of its round, which does not load; every round loads with all its bets, or not at all."""
    rounds = [make_round(f"C-{n}") for n in range(1, 1201)]  # bets.csv past a cell's bound
    for record in rounds:
        record["bets"][0]["bet_id"] = record["round_id"] + "-B"
    rounds_path, bets_path = write_csv_pair(tmp_path, rounds)
    lines = bets_path.read_text(encoding="utf-8").splitlines()
    lines[2] = lines[2].replace(",", ',"', 1)  # C-2's bet opens a quote
    if closed_on is not None:
        lines[closed_on - 1] = lines[closed_on - 1].replace(",", '",', 1)
    bets_path.write_text("\n".join(lines) + "\n", encoding="utf-8")

    records, rejects = read(Source(rounds_path, "csv", bets_path), operator_config)

    assert all(len(record.bets) == 1 for record in records)  # none loaded short
    first, *swallowed = rejects
    assert (first.source_file, first.source_line, first.round_id) == (str(bets_path), 3, "C-2")
    last = int(re.match(r"lines 3-(\d+) read as one row", first.message)[1])
    assert last == closed_on or 300 < last < 1200  # the cell's bound met partway
    assert [(taken.source_file, taken.source_line, taken.round_id) for taken in swallowed] == [
        (str(bets_path), line, f"C-{line - 1}") for line in range(4, last + 1)
    ]
    assert all(
        taken.message
        == f"read into the row of line 3: a quoted cell opened on line 3 runs to line {last};"
        " this line is not read as a row"
        for taken in swallowed
    )
    loaded = [record.round_id for record in records]
    assert loaded == ["C-1", *(f"C-{n}" for n in range(last, 1201))]


@pytest.mark.parametrize(
    ("header", "words"),
    [
        ("round_id,bet_id,account,type,stake,stake,payout,currency", "stake twice"),
        ("round_id,bet_id,account,type,stake,payout,currency,placedat", "misspelling of placed_at"),
    ],
)
def test_a_csv_header_naming_a_column_twice_or_misspelt_is_refused(
    tmp_path, operator_config, make_round, header, words
):
    rounds_path, bets_path = write_csv_pair(tmp_path, [make_round("C-1")])
    bets_path.write_text(header + "\n", encoding="utf-8")
    with pytest.raises(InputError, match=words):
        read(Source(rounds_path, "csv", bets_path), operator_config)


# --- what is not a regular file -----------------------------------------------------------------


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path, operator_config):
    fifo = tmp_path / "inbox.jsonl"
    os.mkfifo(fifo)
    with pytest.raises(InputError, match=r"a FIFO \(named pipe\), not a regular file"):
        discover_sources([fifo])
    source = Source(fifo, "jsonl")
    with pytest.raises(NotARegularFile):
        source.sha256()
    with pytest.raises(InputError, match=r"not a regular file \(a FIFO \(named pipe\)\)"):
        read(source, operator_config)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "reporting",
            "ingest",
            "--db",
            str(tmp_path / "db.sqlite"),
            str(fifo),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "FIFO" in done.stderr and "Traceback" not in done.stderr


def test_a_dangling_link_on_the_command_line_is_refused(tmp_path):
    link = tmp_path / "log.jsonl"
    link.symlink_to(tmp_path / "gone.jsonl")
    with pytest.raises(InputError, match="link to nothing"):
        discover_sources([link])


def test_unread_files_of_a_folder_are_listed_with_their_reason(tmp_path, make_round):
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    for name in (
        "month.json",
        "month.ndjson",
        "month.jsonl.gzip",
        "Rounds-2026-10.csv",
        "Bets-2026-10.csv",
    ):
        (inbox / name).write_text("{}\n")
    (inbox / "read.jsonl").write_bytes(line(make_round("R-1")))
    (inbox / "dangling.jsonl").symlink_to(inbox / "gone.jsonl")
    os.mkfifo(inbox / "pipe.jsonl")
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "hidden.jsonl").write_bytes(line(make_round("R-2")))
    (inbox / "linked").symlink_to(tmp_path / "elsewhere")
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind(str(inbox / "sock.jsonl"))
        sources = discover_sources([inbox])
        unread = {item.path.name: item.reason for item in unread_files(inbox)}
    finally:
        server.close()
    assert [source.path.name for source in sources] == ["read.jsonl"]
    assert set(unread) == {
        "Bets-2026-10.csv",
        "Rounds-2026-10.csv",
        "dangling.jsonl",
        "linked",
        "month.json",
        "month.jsonl.gzip",
        "month.ndjson",
        "pipe.jsonl",
        "sock.jsonl",
    }
    assert "link to nothing" in unread["dangling.jsonl"]
    assert "a link to a folder, not followed" in unread["linked"]
    assert "a FIFO" in unread["pipe.jsonl"] and "a socket" in unread["sock.jsonl"]
    assert "not a round log name" in unread["month.ndjson"]
    assert "rounds.csv with bets.csv" in unread["Rounds-2026-10.csv"]


def test_a_folder_of_round_logs_only_has_nothing_unread(tmp_path, make_round):
    write_csv_pair(tmp_path / "inbox" / "csv", [make_round("C-1")])
    (tmp_path / "inbox" / "a.jsonl").write_bytes(line(make_round("R-1")))
    (tmp_path / "inbox" / "b.JSONL.GZ").write_bytes(gzip.compress(line(make_round("R-2"))))
    assert unread_files(tmp_path / "inbox") == []
    assert len(discover_sources([tmp_path / "inbox"])) == 3


def test_blank_lines_are_skipped_a_buffer_at_a_time(tmp_path, operator_config, make_round):
    """50 MiB of blank lines (mixed endings and spaces) between two rounds, read in well under
    the time a line at a time would take; the second round keeps its line number."""
    blank = b"\n" * (20 << 20) + b" \r\n" * (5 << 20) + b"\n" * (10 << 20)
    path = tmp_path / "blank.jsonl.gz"
    path.write_bytes(
        gzip.compress(line(make_round("R-1")), mtime=0)
        + zlib.compress(b"")[:0]
        + gzip.compress(blank, compresslevel=1, mtime=0)
        + gzip.compress(line(make_round("R-2")), mtime=0)
    )
    started = time.process_time()
    records, rejects = read(Source(path, "jsonl.gz"), operator_config)
    assert time.process_time() - started < 5
    assert [record.source_line for record in records] == [1, 2 + blank.count(b"\n")]
    assert rejects == []


def test_blank_lines_of_a_csv_pair_are_skipped_a_chunk_at_a_time(
    tmp_path, operator_config, make_round
):
    """40 MiB of blank lines (both endings) between two rounds of a CSV pair: they were read a
    line a step, 12 s of processor time here (a gzipped export of 1 GiB of them: minutes
    before its bound stopped it); the second round keeps its line number."""
    rounds, bets = write_csv_pair(tmp_path, [make_round("R-1"), make_round("R-2")])
    header, first, second = rounds.read_bytes().splitlines(keepends=True)
    blank = b"\n" * (30 << 20) + b"\r\n" * (5 << 20)
    rounds.write_bytes(header + first + blank + second)
    started = time.process_time()
    records, rejects = read(Source(rounds, "csv", companion=bets), operator_config)
    assert time.process_time() - started < 5
    assert [record.source_line for record in records] == [2, 3 + blank.count(b"\n")]
    assert rejects == []


def test_a_file_of_mostly_rejects_past_the_bound_is_refused_whole(
    tmp_path, operator_config, make_round, monkeypatch
):
    """A gzip of millions of bad lines would be hours of rejects: past the bound (lowered
    here to keep the test short), a file with more rejects than rounds is refused; one
    where most lines load still loads with its rejects."""
    monkeypatch.setattr("reporting.ingest.sources.MAX_REJECTED_LINES", 5_000)
    garbage = tmp_path / "garbage.jsonl.gz"
    garbage.write_bytes(gzip.compress(line(make_round("R-1")) + b"x\n" * 20_000, mtime=0))
    with pytest.raises(InputError, match="6,000 lines rejected and only 1 rounds read"):
        read(Source(garbage, "jsonl.gz"), operator_config)
    mostly_good = tmp_path / "mostly-good.jsonl"
    good = b"".join(line(make_round(f"R-{number}")) for number in range(7_000))
    mostly_good.write_bytes(good + b"x\n" * 6_000)
    records, rejects = read(Source(mostly_good, "jsonl"), operator_config)
    assert (len(records), len(rejects)) == (7_000, 6_000)


def test_an_exporters_own_field_once_learnt_still_lets_no_hostile_line_through(
    tmp_path, operator_config, make_round, make_bet
):
    """After the first line with an extra field ("dealer") the reader decodes it at once;
    a repeated key, a deep value in that field, floats written to re-encode longer (which
    could hide a repeated key's bytes) and a float card are still each a reject."""

    def with_dealer(round_id: str, dealer: str, **fields) -> bytes:
        data = line(make_round(round_id, **fields))
        return data[:-2] + b',"dealer":' + dealer.encode() + b"}\n"

    dup_stake = b'"stake":"5.00","stake":"999.00"'
    # 1e2 re-encodes as 100.0, two bytes longer: seven of them pay for the 14 bytes of a
    # dropped '"stake":"5.0",', so that a decoder keeping floats would see equal lengths.
    balanced = with_dealer("R-5", "[" + ",".join(["1e2"] * 7) + "]").replace(
        b'"stake":"25.00"', b'"stake":"5.0","stake":"25.00"'
    )
    assert len(msgspec.json.encode(msgspec.json.decode(balanced))) == len(balanced) - 1
    path = tmp_path / "dealer.jsonl"
    path.write_bytes(
        with_dealer("R-1", '"Ann"')
        + with_dealer("R-2", '"Bob"')
        + with_dealer("R-3", '"Cy"').replace(b'"stake":"25.00"', dup_stake)
        + with_dealer("R-4", nested(MAX_DEPTH + 5))
        + balanced
        + with_dealer("R-6", "2.5e1").replace(
            b'"player_cards":["9H","KS"]', b'"player_cards":[1e2,"KS"]'
        )
        + with_dealer("R-7", '{"id": 7, "rating": 4.5}')
    )
    records, rejects = read(Source(path, "jsonl"), operator_config)
    assert [record.round_id for record in records] == ["R-1", "R-2", "R-7"]
    assert [(reject.source_line, reject.reason) for reject in rejects] == [
        (3, "bad_json"),
        (4, "bad_value"),
        (5, "bad_json"),
        (6, "bad_card"),
    ]
    assert "0x" not in rejects[3].message and "1e2" in rejects[3].message


def test_a_device_is_refused_rather_than_read_for_ever(operator_config):
    zero = Path("/dev/zero")
    with pytest.raises(InputError, match="a character device, not a regular file"):
        discover_sources([zero])
    with pytest.raises(NotARegularFile):
        Source(zero, "jsonl").sha256()
    with pytest.raises(InputError, match="a character device"):
        read(Source(zero, "jsonl"), operator_config)


def test_a_bet_field_of_the_exporters_own_once_learnt_lets_no_hostile_line_through(
    tmp_path, operator_config, make_round, make_bet
):
    def with_seat(round_id: str, seat: str) -> bytes:
        data = line(make_round(round_id))
        return data.replace(b'"currency":"EUR"', b'"currency":"EUR","seat":' + seat.encode())

    path = tmp_path / "seat.jsonl"
    path.write_bytes(
        with_seat("R-1", "3")
        + with_seat("R-2", "4")
        + with_seat("R-3", "5").replace(b'"payout":"0.00"', b'"payout":"0.00","payout":"50.00"')
        + with_seat("R-4", nested(MAX_DEPTH + 5))
        + with_seat("R-5", '"seven"').replace(b'"placed_at"', b'"placed_att"')
        + with_seat("R-6", "[1.5e0]")
    )
    records, rejects = read(Source(path, "jsonl"), operator_config)
    assert [record.round_id for record in records] == ["R-1", "R-2", "R-6"]
    assert [(reject.source_line, reject.reason) for reject in rejects] == [
        (3, "bad_json"),
        (4, "bad_value"),
        (5, "bad_value"),
    ]
    assert "did you mean placed_at?" in rejects[2].message


def test_a_csv_header_of_a_million_cells_is_refused_at_once(tmp_path, operator_config, make_round):
    rounds_path, bets_path = write_csv_pair(tmp_path, [make_round("C-1")])
    bets_path.write_text("round_id," + "x," * 500_000 + "\n", encoding="utf-8")
    started = time.process_time()
    with pytest.raises(InputError, match="CSV header of 500,002 columns"):
        read(Source(rounds_path, "csv", bets_path), operator_config)
    assert time.process_time() - started < 2
