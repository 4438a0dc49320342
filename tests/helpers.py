"""Plain helpers shared by several test modules (fixtures live in conftest.py)."""

from __future__ import annotations

import contextlib
import csv
import gzip
import hashlib
import html
import io
import json
import os
import re
import shutil
import signal
import sqlite3
import struct
import subprocess
import sys
import sysconfig
import zipfile
import zlib
from pathlib import Path
from typing import Any

from children import run_warm

#: The tables a round log fills.
TABLES = ("ingest_log", "rounds", "bets", "rejected_records")


def interpreters() -> list[str]:
    """This suite's Python, and the system's ``python3`` where it is another release of the
    same minor version, which can import this virtualenv's packages: Debian 12's 3.11.2, the
    one a fresh Debian machine's ``make`` and the operations docs install the tool with, has
    bugs of its own that later releases mended (a test of one runs under both)."""
    found = [sys.executable]
    system = shutil.which("python3", path="/usr/bin:/bin")
    if system is not None:
        asked = "import sys; print(*sys.version_info[:3])"
        version = subprocess.run([system, "-c", asked], capture_output=True, text=True).stdout
        mine = [str(part) for part in sys.version_info[:3]]
        if version.split()[:2] == mine[:2] and version.split() != mine:
            found.append(system)
    return found


def run_under(python: str, script: Path, timeout: float) -> subprocess.CompletedProcess:
    """``script`` run by ``python`` with this checkout's package and this virtualenv's
    packages on its path."""
    packages = [str(Path(__file__).resolve().parents[1]), sysconfig.get_paths()["purelib"]]
    return subprocess.run(
        [python, str(script)],
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(packages)},
    )


def run_main(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """``python -m reporting ...`` in a child process, to see main()'s real exit code and
    stderr (a child forked warm from this process: tests/children.py)."""
    return run_warm(*args, cwd=cwd, timeout=120)


def as_the_files_say(command: list[str]) -> list[str]:
    """``command`` as a user who may read and write only what the files' modes let: as root,
    without the capabilities that pass over them (util-linux's setpriv); as another user, as
    it is."""
    if os.geteuid() != 0:
        return command
    dropped = "-dac_override,-dac_read_search,-fowner"
    return ["setpriv", f"--bounding-set={dropped}", f"--inh-caps={dropped}", *command]


def rows(db: Path, sql: str, parameters: tuple = ()) -> list[tuple]:
    connection = sqlite3.connect(db)
    try:
        return connection.execute(sql, parameters).fetchall()
    finally:
        connection.close()


def counts(db: Path) -> dict[str, int]:
    return {table: rows(db, f"SELECT count(*) FROM {table}")[0][0] for table in TABLES}


def dump(db: Path, *, with_log: bool = True) -> dict[str, list[tuple]]:
    """Every row of every table, in a stable order (ingest_log without its clock column)."""
    tables = {
        "rounds": "SELECT * FROM rounds ORDER BY round_id",
        "bets": "SELECT * FROM bets ORDER BY round_id, bet_id",
        "rejected_records": "SELECT * FROM rejected_records ORDER BY reject_id",
    }
    if with_log:
        tables["ingest_log"] = (
            "SELECT ingest_id, file_name, companion_name, file_sha256, file_size, format,"
            " lines_read, rounds_loaded, bets_loaded, rounds_skipped_duplicate, rejected"
            " FROM ingest_log ORDER BY ingest_id"
        )
    return {table: rows(db, sql) for table, sql in tables.items()}


def write_csv_pair(
    folder: Path, rounds: list[dict], *, rounds_name="rounds.csv", bets_name="bets.csv"
):
    """A CSV pair holding the given JSON-shaped rounds (cards space-separated)."""
    folder.mkdir(parents=True, exist_ok=True)
    round_columns = [
        "round_id",
        "table_id",
        "game",
        "shoe_id",
        "hand_no",
        "started_at",
        "betting_closed_at",
        "settled_at",
        "status",
        "void_reason",
        "player_cards",
        "banker_cards",
    ]
    bet_columns = [
        "round_id",
        "bet_id",
        "account",
        "type",
        "stake",
        "payout",
        "currency",
        "placed_at",
    ]
    rounds_path, bets_path = folder / rounds_name, folder / bets_name
    with rounds_path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, round_columns)
        writer.writeheader()
        for record in rounds:
            row = {column: record.get(column) for column in round_columns}
            row["player_cards"] = " ".join(record.get("player_cards") or [])
            row["banker_cards"] = " ".join(record.get("banker_cards") or [])
            writer.writerow(row)
    with bets_path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, bet_columns)
        writer.writeheader()
        for record in rounds:
            for bet in record["bets"]:
                writer.writerow({"round_id": record["round_id"], **bet})
    return rounds_path, bets_path


def many_rounds_gz(path: Path, make_round, count: int) -> Path:
    lines = "".join(
        json.dumps(make_round(f"GZ-{n:06d}", hand_no=n % 80 + 1)) + "\n" for n in range(count)
    )
    path.write_bytes(gzip.compress(lines.encode(), compresslevel=1))
    return path


def children_of(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        if int(stat[stat.rindex(")") + 2 :].split()[1]) == pid:
            found.append(int(entry))
    return found


def workers_of(pid: int) -> list[int]:
    """The worker processes a run started (to verify, or to render): its fork server (a child
    of the run running ``multiprocessing.forkserver``) first, then the workers forked from it."""
    workers = []
    for child in children_of(pid):
        with contextlib.suppress(OSError):
            if b"multiprocessing.forkserver" in Path(f"/proc/{child}/cmdline").read_bytes():
                workers += [child, *children_of(child)]
    return workers


# --- a minimal JSON Schema check (the configuration's and the log profiles' schemas) ----


def schema_errors(value: Any, schema: dict[str, Any], where: str = "$") -> list[str]:
    """A minimal JSON Schema check of the keywords the schema uses (the jsonschema package is
    not a dependency); an unknown keyword fails, so the check cannot silently weaken."""
    known = {
        "$schema", "$id", "title", "description", "examples", "type", "enum", "pattern",
        "minLength", "maxLength", "minimum", "maximum", "properties", "additionalProperties",
        "propertyNames", "required", "items", "uniqueItems", "minItems", "maxItems", "minProperties",
        "anyOf",
    }  # fmt: skip
    assert set(schema) <= known, set(schema) - known
    if "anyOf" in schema:
        options = [schema_errors(value, option, where) for option in schema["anyOf"]]
        return [] if any(not errors for errors in options) else [f"{where}: matches no anyOf"]
    types = {"object": dict, "array": list, "string": str, "boolean": bool, "integer": int}
    expected = types.get(schema.get("type", ""), object)
    if not isinstance(value, expected) or (expected is int and isinstance(value, bool)):
        return [f"{where}: not {schema.get('type')}"]
    errors = []
    if "enum" in schema and value not in schema["enum"]:
        errors.append(f"{where}: {value!r} not in enum")
    if isinstance(value, str):
        if "pattern" in schema and not re.search(schema["pattern"], value):
            errors.append(f"{where}: {value!r} does not match {schema['pattern']}")
        if not schema.get("minLength", 0) <= len(value) <= schema.get("maxLength", 10**9):
            errors.append(f"{where}: length")
    if isinstance(value, int) and not schema.get("minimum", -(10**18)) <= value <= schema.get(
        "maximum", 10**18
    ):
        errors.append(f"{where}: {value} out of range")
    if isinstance(value, list):
        if len(value) < schema.get("minItems", 0):
            errors.append(f"{where}: too few items")
        if len(value) > schema.get("maxItems", 10**9):
            errors.append(f"{where}: too many items")
        if schema.get("uniqueItems") and len({json.dumps(item) for item in value}) != len(value):
            errors.append(f"{where}: items repeated")
        for index, item in enumerate(value):
            errors += schema_errors(item, schema.get("items", {}), f"{where}[{index}]")
    if isinstance(value, dict):
        errors += object_errors(value, schema, where)
    return errors


def object_errors(value: dict, schema: dict[str, Any], where: str) -> list[str]:
    errors = [f"{where}: missing {key}" for key in schema.get("required", []) if key not in value]
    if len(value) < schema.get("minProperties", 0):
        errors.append(f"{where}: too few keys")
    for key, item in value.items():
        errors += schema_errors(key, schema.get("propertyNames", {}), f"{where} key {key!r}")
        if key in schema.get("properties", {}):
            errors += schema_errors(item, schema["properties"][key], f"{where}.{key}")
        elif schema.get("additionalProperties") is False:
            errors.append(f"{where}.{key}: unknown key")
        else:
            errors += schema_errors(item, schema.get("additionalProperties", {}), f"{where}.{key}")
    return errors


def store_records(connection: sqlite3.Connection, rounds: list, *, file_name: str) -> int:
    """Store Round records (reporting.records, with their bets) as one ingested file, the way
    the ingest writer does (its columns are the records' fields), without a reader: for
    rounds no reader of the spec format would give (no shoe id, a provider's own bet type).
    Returns the file's ingest id."""
    import hashlib

    from msgspec.structs import astuple

    from reporting.records import Bet, Round

    round_fields = Round.__struct_fields__[:-1]
    bet_count = sum(len(record.bets) for record in rounds)
    ingest_id = connection.execute(
        "INSERT INTO ingest_log (file_name, file_sha256, file_size, format, ingested_at,"
        " lines_read, rounds_loaded, bets_loaded, fields_not_read) VALUES (?, ?, 0, 'jsonl',"
        " '2026-12-01T00:00:00Z', ?, ?, ?, '[]')",
        (
            file_name,
            hashlib.sha256(file_name.encode()).hexdigest(),
            len(rounds),
            len(rounds),
            bet_count,
        ),
    ).lastrowid
    connection.executemany(
        f"INSERT INTO rounds ({', '.join(round_fields)}, ingest_id)"
        f" VALUES ({', '.join('?' * len(round_fields))}, {ingest_id:d})",
        [astuple(record)[: len(round_fields)] for record in rounds],
    )
    connection.executemany(
        f"INSERT INTO bets ({', '.join(Bet.__struct_fields__)})"
        f" VALUES ({', '.join('?' * len(Bet.__struct_fields__))})",
        [astuple(bet) for record in rounds for bet in record.bets],
    )
    connection.commit()
    return ingest_id


def store_file(path: Path, rounds: list, *, file_name: str = "round-log.jsonl") -> Path:
    """A store at ``path`` holding ``rounds`` as one ingested file (:func:`store_records`),
    closed again; its path."""
    from reporting.store.schema import connect

    connection = connect(path)
    try:
        store_records(connection, rounds, file_name=file_name)
    finally:
        connection.close()
    return path


def bet_record(round_id: str, bet_id: str, **fields):
    """A Bet record (reporting.records) of 25.00 on the banker, lost, with a placement time."""
    from reporting.records import Bet

    values = {
        "round_id": round_id,
        "bet_id": bet_id,
        "account": "acc-1",
        "bet_type": "banker",
        "stake_cents": 2500,
        "payout_cents": 0,
        "currency": "EUR",
        "placed_at": "2026-10-03T18:40:09.500Z",
        "source_line": 1,
    }
    return Bet(**(values | fields))


def round_record(round_id: str, *bets, **fields):
    """A Round record (reporting.records) of live-baccarat-it, October 2026, settled, every
    optional field logged: player 9H KS beats banker 5D 2C. ``round_id`` ends in its hand
    number (``R-3``)."""
    from reporting.records import Round

    values = {
        "round_id": round_id,
        "game_id": "live-baccarat-it",
        "table_id": "LB01",
        "shoe_id": "S-1",
        "hand_no": int(round_id.rsplit("-", 1)[1]),
        "started_at": "2026-10-03T18:40:02.120Z",
        "betting_closed_at": "2026-10-03T18:40:17.000Z",
        "settled_at": "2026-10-03T18:40:41.870Z",
        "report_month": "2026-10",
        "status": "settled",
        "void_reason": None,
        "player_cards": "9H KS",
        "banker_cards": "5D 2C",
        "source_line": 1,
        "bets": list(bets),
    }
    return Round(**(values | fields))


def png_bytes(width: int = 1, height: int = 1) -> bytes:
    """A real 1 x 1 PNG (signature, IHDR, IDAT, IEND), made in the test rather than committed;
    another size is only claimed by its header (its one pixel does not fill it)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    pixels = zlib.compress(b"\x00\x1f\x4e\x79")
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")
    )


def shoe_summary(*fields):
    """verify's ShoeSummary of a shoe written by hand: game, table, shoe, first and last
    settlement, rounds, void rounds, cards dealt, Banker, Player, ties, Banker and Player
    pairs, findings; every hand a Banker 0 (the Shoes sheet reads only the counts)."""
    from reporting.verify.shoes import ShoeSummary

    *counts, findings = fields
    return ShoeSummary(*counts, hands=bytes(counts[5]), findings=findings)


def month_audit_records():
    """A small month's audit records, written out by hand (two games in two currencies, two
    tables of the Italian game, two days; a void round refunded short; a gap; limits;
    disclosures, one with warnings; two input files), and three shoes, one with findings.
    The money per table and per day adds up to the month of each game."""
    from datetime import date
    from decimal import Decimal
    from fractions import Fraction

    from reporting.figures.audit_records import (
        ActivityHour,
        AvailabilityGap,
        DisclosureCheck,
        InputFile,
        LimitRow,
        MoneyRow,
        MonthAudit,
        Provenance,
        VoidRound,
    )

    it, dk = "live-baccarat-it", "live-baccarat-dk"
    day1, day2 = date(2026, 10, 3), date(2026, 10, 4)
    money = (
        MoneyRow(it, None, None, "EUR", 40, 2, 120, 30, 1_000_000, 950_000),
        MoneyRow(it, "LB01", None, "EUR", 25, 1, 70, 20, 600_000, 640_000),
        MoneyRow(it, "LB02", None, "EUR", 15, 1, 50, 12, 400_000, 310_000),
        MoneyRow(it, None, day1, "EUR", 22, 2, 66, 18, 550_000, 500_000),
        MoneyRow(it, None, day2, "EUR", 18, 0, 54, 17, 450_000, 450_000),
        MoneyRow(dk, None, None, "DKK", 10, 0, 30, 5, 300_000, 290_000),
        MoneyRow(dk, "DK01", None, "DKK", 10, 0, 30, 5, 300_000, 290_000),
        MoneyRow(dk, None, day1, "DKK", 10, 0, 30, 5, 300_000, 290_000),
    )
    voids = (
        VoidRound(
            *("R-IT-7", it, "LB01", "S-1", 7, "2026-10-03T18:50:00Z", "card misread"),
            *(2, 5000, 5000, "EUR", "m.jsonl", 7),
        ),
        VoidRound(
            *("R-IT-9", it, "LB02", None, None, "2026-10-03T19:10:00Z", None),
            *(1, 2500, 0, "EUR", "=evil.jsonl", 9),
        ),
    )
    activity = (
        ActivityHour(it, "LB01", day1, 18, 12, 30, 300_000),
        ActivityHour(it, "LB01", day1, 19, 13, 40, 300_000),
        ActivityHour(dk, "DK01", day1, 9, 10, 30, 300_000),
    )
    gaps = (
        AvailabilityGap(
            it, "LB02", "R-IT-8", "R-IT-9", "2026-10-03T19:00:00Z", "2026-10-03T19:09:30Z", 9
        ),
    )
    limits = (
        LimitRow(it, "banker", "EUR", 100, 500_000, "reject", "cap"),
        LimitRow(it, "player", "EUR", 100, 500_000, "reject", "reject"),
        LimitRow(dk, "banker", "DKK", 1_000, 2_000_000, "reject", "cap"),
    )
    disclosures = (
        DisclosureCheck(
            *(it, "ADM", date(2026, 11, 30), "2026-10", date(2026, 11, 1), Decimal("95.00")),
            *(40, 1_000_000, 950_000, "EUR", Decimal("99.50"), "ADM decree 2011"),
            Fraction(9894, 100),
            ("declared RTP 99.50% above the best bet's 98.94%",),
        ),
        DisclosureCheck(
            *(dk, "DGA", date(2026, 11, 30), "2026-10", date(2026, 11, 1), Decimal("96.67")),
            *(10, 300_000, 290_000, "DKK", None, None, Fraction(9894, 100), ()),
        ),
    )
    inputs = (
        InputFile(
            *("m.jsonl", None, "a" * 64, 12_345, "jsonl", "spec", "b" * 64),
            *("2026-11-01T02:00:00Z", 40, 120, 1),
        ),
        InputFile(
            *("export/rounds.csv", "export/bets.csv", "c" * 64, 999, "csv", None, None),
            *("2026-11-01T02:01:00Z", 10, 30, 0),
        ),
    )
    provenance = Provenance("0.0.0-test", "operator.toml", "d" * 64, "e" * 64, inputs)
    audit = MonthAudit("2026-10", voids, money, activity, gaps, limits, disclosures, provenance)
    shoes = (
        shoe_summary(
            *(it, "LB02", "S-2", "2026-10-03T19:00:00Z", "2026-10-03T21:00:00Z"),
            *(15, 1, 380, 7, 6, 2, 1, 2, 0),
        ),
        shoe_summary(
            *(it, "LB01", "S-1", "2026-10-03T18:00:00Z", "2026-10-03T20:00:00Z"),
            *(25, 1, 412, 11, 11, 3, 2, 1, 2),
        ),
        shoe_summary(
            *(dk, "DK01", "D-1", "2026-10-03T09:00:00Z", "2026-10-03T09:40:00Z"),
            *(10, 0, 55, 5, 4, 1, 0, 0, 0),
        ),
    )
    return audit, shoes


# --- a verify run as a whole (the partitions' and the cluster's tests compare runs) --------


def stored_findings(connection: sqlite3.Connection) -> list[tuple]:
    """Every stored finding with its row id: the order written is compared too."""
    return connection.execute("SELECT * FROM findings ORDER BY finding_id").fetchall()


def verify_outcome(result) -> dict:
    """Everything a verify result holds, dicts as item lists so their order counts."""
    import dataclasses

    fields = dataclasses.asdict(result)
    for name in ("tables", "bet_totals", "unconfigured_rounds"):
        fields[name] = list(getattr(result, name).items())
    fields["findings_by_kind"] = sorted(result.findings_by_kind.items())
    return fields


def faulted_october() -> list:
    """Four rounds of October: three unpaid winning Player bets (R-1, R-2, R-3:
    payout_mismatch), one right Banker bet (R-1), and R-4 whose banker drew a third card it
    must not draw on 7 (third_card_rule); lines 1 to 8 of one file."""
    bet = bet_record
    return [
        round_record(
            "R-1",
            bet("R-1", "B-1", bet_type="player", account="acc-7", source_line=2),
            bet("R-1", "B-2", source_line=3),
            source_line=1,
        ),
        round_record("R-2", bet("R-2", "B-3", bet_type="player", source_line=5), source_line=4),
        round_record("R-3", bet("R-3", "B-4", bet_type="player", source_line=7), source_line=6),
        round_record("R-4", player_cards="2H 3S 4D", banker_cards="5D 2C 9C", source_line=8),
    ]


def sample_inbox_counts() -> tuple[int, int]:
    """The rounds and bets of the shipped inbox month, as ``sample_data/README.md`` states
    them ("(5,586 rounds, 32,623 bets, ..."): tests hold the month to its description."""
    readme = (Path(__file__).resolve().parent.parent / "sample_data" / "README.md").read_text(
        encoding="utf-8"
    )
    found = re.search(r"\(([\d,]+) rounds,\s+([\d,]+) bets", readme)
    assert found, "sample_data/README.md no longer states the inbox month's rounds and bets"
    return int(found[1].replace(",", "")), int(found[2].replace(",", ""))


#: An operator's own bet (declared in its configuration like the catalogue's) and a game that
#: offers it, as TOML text for a test's configuration.
MONKEY_6_CONFIG = """\
[bets.monkey_6]
group = "side"
name = { it = "Scimmia 6", en = "Monkey 6" }
wins = { it = "Il Giocatore vince con un 6 di tre carte.", en = "The Player wins with a three-card 6." }
rows = [
  { when = { winner = "player", player_total = 6, player_cards = 3 }, key = "monkey_6", pays = "40", says = { it = "Il Giocatore vince con un 6 di tre carte.", en = "The Player wins with a three-card 6." } },
]

[games.monkey-it]
base = "live-baccarat-it"
name = "Monkey Baccarat"
bets = ["player", "banker", "tie", "monkey_6"]
languages = ["it", "en"]
"""


def alerts_of(connection: sqlite3.Connection, result, **more):
    """The month's alerts of a verify ``result``, as the monthly job gathers them (``more``:
    the unread files, publishing and availability problems the job adds)."""
    from reporting.verify.bearing import month_alerts

    return month_alerts(
        connection,
        result.month,
        findings_by_kind=result.findings_by_kind,
        unverified_rounds=result.unconfigured_rounds,
        checks_not_run=result.checks_not_run,
        **more,
    )


# --- print headers and footers of a workbook, as a spreadsheet application prints them ------

#: An operator's name of the characters Excel's header codes are made of.
HEADER_CODES_NAME = "Rock &[Page] & Roll &P&&N &[Date]"


def printed_headers(xlsx: bytes) -> list[dict[str, str]]:
    """Every print header and footer of every sheet, read from the file's XML as Excel reads
    it: ``&&`` prints one ``&``; ``&L``, ``&C``, ``&R`` start a section (the keys, with the
    element: ``oddHeader.C``); any other code (``&P``, ``&[Page]``) prints as ``«P»``."""
    found = []
    with zipfile.ZipFile(io.BytesIO(xlsx)) as archive:
        for name in sorted(archive.namelist()):
            if not re.fullmatch(r"xl/worksheets/sheet\d+\.xml", name):
                continue
            text = archive.read(name).decode("utf-8")
            sections = {}
            for element, raw in re.findall(r"<(odd(?:Header|Footer))>(.*?)</\1>", text, re.S):
                for key, value in _header_sections(html.unescape(raw)).items():
                    sections[f"{element}.{key}"] = value
            found.append(sections)
    return found


def _header_sections(header: str) -> dict[str, str]:
    sections: dict[str, str] = {}
    key, index = None, 0
    while index < len(header):
        char, code = header[index], header[index + 1 : index + 2]
        if char != "&":
            sections[key] = sections.get(key, "") + char
            index += 1
        elif code == "&":
            sections[key] = sections.get(key, "") + "&"
            index += 2
        elif code in ("L", "C", "R"):
            key, index = code, index + 2
            sections.setdefault(key, "")
        else:
            end = header.index("]", index) + 1 if code == "[" else index + 2
            sections[key] = sections.get(key, "") + f"«{header[index + 1 : end]}»"
            index = end
    return sections


def config_of(tmp_path: Path, text: str):
    """The configuration of ``text``, written to ``operator.toml`` in ``tmp_path`` and loaded."""
    from reporting.config.loader import load_config

    path = tmp_path / "operator.toml"
    path.write_text(text, encoding="utf-8")
    return load_config(path)


def problems_of(tmp_path: Path, text: str) -> list[str]:
    """The problems loading the configuration of ``text`` reports (it must have some)."""
    import pytest

    from reporting.config.loader import ConfigError

    with pytest.raises(ConfigError) as raised:
        config_of(tmp_path, text)
    return raised.value.problems


#: The smallest log profile: JSON Lines rounds with their bets (a test changes what it needs).
MINIMAL_PROFILE = """\
[profile]
name = "mine"
layouts = ["jsonl"]

[round]
round_id = "id"
table_id = "table"
settled_at = "at"
player_cards = "p"
banker_cards = "b"

[bet]
each = "bets[]"
bet_id = "bets[].id"
account = "bets[].who"
type = "bets[].kind"
stake = "bets[].stake"
payout = "bets[].paid"
"""


def house_rule_findings(game, bets, started: int, closed: int, kinds) -> dict[str, list]:
    """The findings of the checks of ``kinds`` (verify's own, from its CHECKS table) on a
    round of ``game`` whose bets are the sample generator's ``bets`` (PlacedBet records),
    started at ``started`` with betting closed at ``closed`` (epoch ms): how a test holds the
    generator and the checks to the same house rules. Times are written in the stored form."""
    from datetime import UTC, datetime

    from reporting.records import Bet, Round
    from reporting.store.reading import SourceFiles
    from reporting.verify.checks import CHECKS, CheckCache, CheckContext, settled_bets

    def stored(epoch_ms: int) -> str:
        moment = datetime.fromtimestamp(epoch_ms // 1000, UTC)
        return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{epoch_ms % 1000:03d}Z"

    record = Round(
        round_id="R-1", game_id=game.id, table_id="T-01", shoe_id=None, hand_no=None,
        started_at=stored(started), betting_closed_at=stored(closed),
        settled_at=stored(closed + 20_000), report_month="2026-10", status="settled",
        void_reason=None, player_cards="9H KS", banker_cards="5D 2C", source_line=1,
        bets=[
            Bet(round_id="R-1", bet_id=f"B-{line}", account=bet.account, bet_type=bet.bet,
                stake_cents=bet.stake, payout_cents=0, currency=game.currency,
                placed_at=stored(bet.placed_ms), source_line=line)
            for line, bet in enumerate(bets, start=1)
        ],
    )  # fmt: skip
    context = CheckContext.of(
        record, SourceFiles("r.jsonl", "r.jsonl"), CheckCache(settled_bets([game]))
    )
    return {kind: CHECKS[kind](record, game, context) for kind in kinds}


def pdf_text(pdf: bytes | Path, *, layout: bool = False) -> str:
    """A PDF's text as poppler's pdftotext reads it (pages ended by form feeds; ``layout``:
    columns kept in place), from its bytes or its file. pdftotext is a system tool the
    Makefile installs: it reads a page in milliseconds, where pypdf took most of a second."""
    data = pdf.read_bytes() if isinstance(pdf, Path) else pdf
    return _pdf_text(data, layout)


_PDF_TEXTS: dict[tuple[bytes, bool], str] = {}


def _pdf_text(data: bytes, layout: bool) -> str:
    """:func:`pdf_text`, each PDF read once (several tests read the same file)."""
    key = (hashlib.sha256(data).digest(), layout)
    if key not in _PDF_TEXTS:
        command = ["pdftotext", *(["-layout"] if layout else []), "-", "-"]
        _PDF_TEXTS[key] = subprocess.run(
            command, input=data, capture_output=True, check=True
        ).stdout.decode("utf-8")
    return _PDF_TEXTS[key]


@contextlib.contextmanager
def within_seconds(seconds: float):
    """Fail the test (TimeoutError) when its block runs longer than ``seconds``: a loop that
    never ends is a failure of its own test, not a hang of the suite. Main thread only (a
    timer signal)."""

    def expire(signum, frame):
        raise TimeoutError(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


_GLOSSARY_LINE = re.compile(r"#\s+(?P<term>[^=]+?) = (?P<word>.+?)(?: — .*)?$")


def glossary(language: str) -> dict[str, str]:
    """The glossary at the top of a language's catalogue (its header comment): each English
    term with the word the catalogue uses for it. Empty when the catalogue has none."""
    from reporting.presentation.i18n import catalogue_path

    lines = catalogue_path(language).read_text(encoding="utf-8").splitlines()
    words: dict[str, str] = {}
    inside = False
    for line in lines:
        if line.startswith("msgid"):
            break
        if line.startswith("# Glossary"):
            inside = True
        elif line.startswith("# End of glossary"):
            inside = False
        elif inside and (found := _GLOSSARY_LINE.match(line)):
            words[found["term"]] = found["word"]
    return words


def workbook_sheets(path: Path) -> tuple[dict, dict[str, list[dict]]]:
    """An audit workbook read back: its Summary's lines above the table (label -> value),
    and each sheet whose table starts on row 1 as rows of header -> value."""
    from openpyxl import load_workbook

    book = load_workbook(path)
    summary = {row[0]: row[1] for row in book["Summary"].iter_rows(values_only=True) if row}
    tables = {}
    for name in ("Ingest log", "Shoes"):
        if name in book.sheetnames:
            header, *rows = book[name].iter_rows(values_only=True)
            tables[name] = [dict(zip(header, row, strict=True)) for row in rows]
    return summary, tables


def config_without_gap_threshold(folder: Path) -> Path:
    """The sample configuration with no ``availability_gap_minutes``: for a test of a few
    rounds of the live Italian game, open 24 hours a day, that is about something else (with
    the threshold, its table is idle the rest of the month: an alert, exit 1)."""
    sample = Path(__file__).resolve().parent.parent / "sample_data" / "operator.toml"
    text = sample.read_text(encoding="utf-8")
    assert text.count("\navailability_gap_minutes = ") == 1
    text = re.sub(r"\navailability_gap_minutes = [0-9]+\n", "\n", text)
    shutil.copy2(sample.parent / "logo.svg", folder / "logo.svg")  # the logo it names, beside it
    path = folder / "no-gap-threshold.toml"
    path.write_text(text, encoding="utf-8")
    return path


#: The columns of statistics, computed in floating point (an expected count, a test's
#: statistic, its p-value): the numbers a workbook holds that are no amount and no rate.
STATISTICS = re.compile(r"z-score|Chi-square|p-value|expected$")


def written_numbers(path) -> dict[tuple[str, str], list[str]]:
    """The text of every number cell's value in a workbook, as the file holds it, by sheet and
    column; the columns of :data:`STATISTICS` left out."""
    import openpyxl

    statistics = {
        (sheet.title, cell.column_letter)
        for sheet in openpyxl.load_workbook(path, read_only=True)
        for row in sheet.iter_rows()
        for cell in row
        if isinstance(cell.value, str) and STATISTICS.search(cell.value)
    }
    found: dict[tuple[str, str], list[str]] = {}
    with zipfile.ZipFile(path) as archive:
        names = re.findall(r'<sheet [^>]*name="([^"]*)"', archive.read("xl/workbook.xml").decode())
        for number, name in enumerate(names, 1):
            xml = archive.read(f"xl/worksheets/sheet{number}.xml").decode("utf-8")
            for column, value in re.findall(
                r'<c r="([A-Z]+)\d+"[^>]*t="n"[^>]*><v>([^<]*)</v>', xml
            ):
                if (name, column) not in statistics:
                    found.setdefault((name, column), []).append(value)
    return found


def noisy(values: list[str]) -> bool:
    """Whether any of ``values`` (numbers as a workbook's file holds them) has more significant
    digits than a spreadsheet keeps (15): a binary float's, written through ``"%.16g"``."""
    return any(len(re.sub(r"[^0-9]", "", value).strip("0")) > 15 for value in values)
