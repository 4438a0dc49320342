"""Reading round logs (round-log.md): every reject reason with its line, canonical cards, cents,
UTC timestamps, and the reporting month counted in the game's own time zone."""

from __future__ import annotations

import csv
import json
import re
import sqlite3
from datetime import datetime
from pathlib import Path

import pytest
from helpers import MONKEY_6_CONFIG, run_main, write_csv_pair
from hypothesis import given, settings
from hypothesis import strategies as st
from msgspec.structs import astuple

from reporting.config.bets import catalogue_bets
from reporting.config.loader import load_config
from reporting.errors import InputError
from reporting.ingest.formats import read_source
from reporting.ingest.sources import Source
from reporting.ingest.validation import ROUND_DECODER, RawRound, RoundValidator
from reporting.records import REJECT_REASONS, RejectedLine, Round


def read(path: Path, config, companion: Path | None = None):
    """Every record and every rejected line of one source, in file order."""
    if companion is not None:
        source = Source(path, "csv", companion)
    else:
        source = Source(path, "jsonl.gz" if path.name.endswith(".gz") else "jsonl")
    records: list[Round] = []
    rejects: list[RejectedLine] = []
    for batch in read_source(source, config.games, 1000):
        records.extend(batch.records)
        rejects.extend(batch.rejects)
    return records, rejects


#: SQLite's own reading of a timestamp as UTC to the millisecond: an oracle independent of the
#: reader's normalisation in Python.
SQLITE_UTC = "strftime('%Y-%m-%dT%H:%M:%fZ', ?)"


def stored_utc(timestamp: str | None) -> str | None:
    """SQLite's UTC text for a timestamp (the form the store keeps)."""
    connection = sqlite3.connect(":memory:")
    try:
        return connection.execute(f"SELECT {SQLITE_UTC}", (timestamp,)).fetchone()[0]
    finally:
        connection.close()


def test_the_contract_names_exactly_these_reject_reasons():
    assert set(REJECT_REASONS) == {
        "bad_json",
        "missing_field",
        "bad_card",
        "bad_money",
        "naive_timestamp",
        "unknown_bet_type",
        "unknown_game",
        "conflict",
        "bad_value",
    }


# --- reject reasons, each on line 2 between two good lines -----------------------------------


def without(record: dict, *keys: str) -> dict:
    return {key: value for key, value in record.items() if key not in keys}


def with_bet(make_round, make_bet, **bet_fields):
    return make_round("R-2", bets=[make_bet("B-2", **bet_fields)])


def without_bet_field(make_round, make_bet, field):
    return make_round("R-2", bets=[without(make_bet("B-2"), field)])


# (reason, builder of the bad line, text the message must mention)
REJECT_CASES = {
    # a line cut short is said to be so ("invalid character (byte 2925)" was the line's end)
    "bad_json: truncated line": (
        "bad_json",
        lambda r, b: '{"round_id": "R-2", "table_id": "LB01", "game": ',
        "the line ends before its JSON does (cut short?)",
    ),
    "bad_json: cut inside a string": (
        "bad_json",
        lambda r, b: json.dumps(r("R-2"))[:60],
        "the line ends before its JSON does (cut short?)",
    ),
    "bad_json: a bad character mid-line": (
        "bad_json",
        lambda r, b: json.dumps(r("R-2")).replace('"LB01"', "LB01", 1),
        "invalid character (byte",
    ),
    "bad_json: trailing comma": (
        "bad_json",
        lambda r, b: json.dumps(r("R-2"))[:-1] + ", }",
        "JSON",
    ),
    "missing_field: settled_at absent": (
        "missing_field",
        lambda r, b: without(r("R-2"), "settled_at"),
        "settled_at",
    ),
    "missing_field: round_id is JSON null": (
        "missing_field",
        lambda r, b: {**r("R-2"), "round_id": None},
        "round_id",
    ),
    "missing_field: status is JSON null": (
        "missing_field",
        lambda r, b: r("R-2", status=None),
        "status",
    ),
    "missing_field: bets absent": (
        "missing_field",
        lambda r, b: without(r("R-2"), "bets"),
        "bets",
    ),
    "missing_field: bet stake absent": (
        "missing_field",
        lambda r, b: without_bet_field(r, b, "stake"),
        "stake",
    ),
    "missing_field: bet account empty (the house rules of one player need it)": (
        "missing_field",
        lambda r, b: with_bet(r, b, account=""),
        "account must not be empty",
    ),
    "missing_field: bet account of spaces": (
        "missing_field",
        lambda r, b: with_bet(r, b, account="   "),
        "account must not be empty",
    ),
    "missing_field: bet_id empty": (
        "missing_field",
        lambda r, b: r("R-2", bets=[{**b("B-2"), "bet_id": ""}]),
        "bet_id and account must not be empty",
    ),
    "missing_field: bet currency is JSON null": (
        "missing_field",
        lambda r, b: with_bet(r, b, currency=None),
        "currency",
    ),
    "missing_field: settled round without player_cards": (
        "missing_field",
        lambda r, b: without(r("R-2"), "player_cards"),
        "player_cards",
    ),
    "missing_field: settled round with banker_cards null": (
        "missing_field",
        lambda r, b: r("R-2", banker_cards=None),
        "banker_cards",
    ),
    "missing_field: void round without void_reason": (
        "missing_field",
        lambda r, b: r("R-2", status="void", player_cards=[], banker_cards=[]),
        "void_reason",
    ),
    "bad_card: rank 1": (
        "bad_card",
        lambda r, b: r("R-2", player_cards=["1S", "KS"]),
        "1S",
    ),
    "bad_card: suit X": (
        "bad_card",
        lambda r, b: r("R-2", banker_cards=["5D", "2X"]),
        "2X",
    ),
    "bad_card: rank without suit": (
        "bad_card",
        lambda r, b: r("R-2", player_cards=["9H", "10"]),
        "10",
    ),
    "bad_money: stake as a JSON float": (
        "bad_money",
        lambda r, b: with_bet(r, b, stake=25.0),
        "stake",
    ),
    "bad_money: stake as a JSON integer": (
        "bad_money",
        lambda r, b: with_bet(r, b, stake=25),
        "stake",
    ),
    "bad_money: payout as a JSON number": (
        "bad_money",
        lambda r, b: with_bet(r, b, payout=0),
        "payout",
    ),
    "bad_money: three decimals": (
        "bad_money",
        lambda r, b: with_bet(r, b, stake="12.345"),
        "12.345",
    ),
    "bad_money: negative": (
        "bad_money",
        lambda r, b: with_bet(r, b, stake="-5"),
        "-5",
    ),
    "bad_money: exponent": (
        "bad_money",
        lambda r, b: with_bet(r, b, stake="1e3"),
        "1e3",
    ),
    "bad_money: thousands separator": (
        "bad_money",
        lambda r, b: with_bet(r, b, payout="1,000.00"),
        "1,000.00",
    ),
    "bad_money: zero stake": (
        "bad_money",
        lambda r, b: with_bet(r, b, stake="0.00"),
        "stake",
    ),
    "naive_timestamp: settled_at": (
        "naive_timestamp",
        lambda r, b: r("R-2", settled_at="2026-10-03T18:40:41.870"),
        "settled_at",
    ),
    "naive_timestamp: started_at": (
        "naive_timestamp",
        lambda r, b: r("R-2", started_at="2026-10-03T18:40:02"),
        "started_at",
    ),
    "naive_timestamp: placed_at": (
        "naive_timestamp",
        lambda r, b: with_bet(r, b, placed_at="2026-10-03 18:40:09.5"),
        "placed_at",
    ),
    # RFC 3339's offset of a local time whose offset is unknown: it was read as UTC
    "naive_timestamp: -00:00": (
        "naive_timestamp",
        lambda r, b: r("R-2", settled_at="2026-10-03T18:40:41.870-00:00"),
        "-00:00, which says its local offset is unknown",
    ),
    "naive_timestamp: -00": (
        "naive_timestamp",
        lambda r, b: r("R-2", settled_at="2026-10-03T18:40:41.870-00"),
        "the offset -00, which says its local offset is unknown",
    ),
    # minutes of an offset past 59 were told "outside -14:00..+14:00"
    "bad_value: offset minutes": (
        "bad_value",
        lambda r, b: r("R-2", settled_at="2026-10-03T18:40:41.870+0160"),
        "the minutes of its UTC offset +01:60 are past 59",
    ),
    # ISO 8601's basic form is not the round log's: the message says what the form is
    "bad_value: basic form": (
        "bad_value",
        lambda r, b: r("R-2", settled_at="20261003T184041Z"),
        "is not a timestamp of the round log's form (YYYY-MM-DDThh:mm:ss",
    ),
    "unknown_bet_type": (
        "unknown_bet_type",
        lambda r, b: with_bet(r, b, type="dragon_bonus"),
        "dragon_bonus",
    ),
    "unknown_game": (
        "unknown_game",
        lambda r, b: r("R-2", game="dragon-tiger-it"),
        "dragon-tiger-it",
    ),
    "bad_value: status pending": (
        "bad_value",
        lambda r, b: r("R-2", status="pending"),
        "pending",
    ),
    "bad_value: four player cards": (
        "bad_value",
        lambda r, b: r("R-2", player_cards=["2H", "3H", "4H", "5H"]),
        "4",
    ),
    "bad_value: one banker card on a settled round": (
        "bad_value",
        lambda r, b: r("R-2", banker_cards=["5D"]),
        "banker",
    ),
    "bad_value: four cards on a void round": (
        "bad_value",
        lambda r, b: r(
            "R-2", status="void", void_reason="shoe error", player_cards=["2H", "3H", "4H", "5H"]
        ),
        "3 cards",
    ),
    "bad_value: currency not the game's": (
        "bad_value",
        lambda r, b: with_bet(r, b, currency="DKK"),
        "DKK",
    ),
    "bad_value: duplicate bet_id in the round": (
        "bad_value",
        lambda r, b: r("R-2", bets=[b("B-2"), b("B-2", type="player")]),
        "bet_id",
    ),
    "bad_value: hand_no 0": (
        "bad_value",
        lambda r, b: r("R-2", hand_no=0),
        "hand_no",
    ),
    "bad_value: settled_at not a timestamp": (
        "bad_value",
        lambda r, b: r("R-2", settled_at="yesterday evening"),
        "settled_at",
    ),
    "bad_value: settled_at on 30 February": (
        "bad_value",
        lambda r, b: r("R-2", settled_at="2026-02-30T10:00:00Z"),
        "settled_at",
    ),
}


@pytest.mark.parametrize("case", REJECT_CASES, ids=list(REJECT_CASES))
def test_a_bad_line_is_rejected_with_its_line_and_reason(
    case, tmp_path, operator_config, make_round, make_bet, write_jsonl
):
    reason, build, mentioned = REJECT_CASES[case]
    bad = build(make_round, make_bet)
    bad_text = bad if isinstance(bad, str) else json.dumps(bad, ensure_ascii=False)
    path = write_jsonl(tmp_path / "log.jsonl", make_round("R-1"), bad_text, make_round("R-3"))

    records, rejects = read(path, operator_config)

    assert [(r.source_file, r.source_line, r.reason) for r in rejects] == [(str(path), 2, reason)]
    assert mentioned in rejects[0].message
    assert rejects[0].raw_text == bad_text
    # The rest of the file still loads.
    assert [(record.round_id, record.source_line) for record in records] == [("R-1", 1), ("R-3", 3)]


def test_a_bet_id_given_twice_in_a_round_is_named_with_where_it_is(
    tmp_path, operator_config, make_round, make_bet, write_jsonl
):
    """The reject said "a bet_id appears twice in the round", naming neither the id nor its
    places: the provider's support was asked to find it in a round of forty bets."""
    bets = [make_bet("B-1"), make_bet("B-2", type="tie"), make_bet("B-1", type="player")]
    path = write_jsonl(tmp_path / "log.jsonl", make_round("R-1", bets=bets))
    _, [reject] = read(path, operator_config)
    assert (reject.reason, reject.message) == (
        "bad_value",
        "bet_id 'B-1' appears twice in the round (bets[0] and bets[2])",
    )


def test_a_bet_id_given_twice_in_a_csv_pair_is_named_with_its_lines(
    tmp_path, operator_config, make_round, make_bet
):
    bets = [make_bet("B-1"), make_bet("B-2", type="tie"), make_bet("B-1", type="player")]
    rounds, bets_csv = write_csv_pair(tmp_path, [make_round("R-1", bets=bets)])
    _, [reject] = read(rounds, operator_config, bets_csv)
    assert reject.message == "bet_id 'B-1' appears twice in the round (lines 2 and 4)"


def test_rejected_json_remembers_its_round_id(tmp_path, operator_config, make_round, write_jsonl):
    path = write_jsonl(tmp_path / "log.jsonl", make_round("R-7", game="no-such-game"))
    _, [reject] = read(path, operator_config)
    assert (reject.reason, reject.round_id) == ("unknown_game", "R-7")


def test_a_round_at_a_table_the_configuration_lists_for_another_game_is_rejected(
    tmp_path, operator_config, make_round, make_bet, write_jsonl
):
    """The sample lists LB-IT-* for live-baccarat-it and LB-DK-* for live-baccarat-dk. A line
    naming the Danish game at an Italian table was loaded, then settled by the Danish rules and
    counted in the Danish figures. It is a bad_value naming both games, in the spec's log and
    in a CSV pair alike; a table no game lists still loads under the game the line names."""
    assert operator_config.games["live-baccarat-it"].tables == ("LB-IT-*",)
    danish = make_bet("B-2", currency="DKK", stake="100.00")
    lines = [
        make_round("R-1", table_id="LB-IT-01"),
        make_round("R-2", table_id="LB-IT-02", game="live-baccarat-dk", bets=[danish]),
        make_round("R-3", table_id="LB-DK-01", game="live-baccarat-dk", bets=[danish]),
        make_round("R-4", table_id="LB77", game="live-baccarat-dk", bets=[danish]),
    ]
    message = (
        "table_id 'LB-IT-02' is a table of live-baccarat-it by the configuration's tables, not"
        " of live-baccarat-dk, the game this line names: the log names the wrong game, or the"
        " configuration lists the table under the wrong one"
    )
    path = write_jsonl(tmp_path / "log.jsonl", *lines)
    records, rejects = read(path, operator_config)
    assert [(r.source_line, r.reason, r.round_id, r.message) for r in rejects] == [
        (2, "bad_value", "R-2", message)
    ]
    assert [record.round_id for record in records] == ["R-1", "R-3", "R-4"]
    rounds, bets = write_csv_pair(tmp_path / "pair", lines)
    records, rejects = read(rounds, operator_config, bets)
    assert [(r.reason, r.round_id, r.message) for r in rejects] == [("bad_value", "R-2", message)]
    assert [record.round_id for record in records] == ["R-1", "R-3", "R-4"]


def test_a_card_given_as_a_json_number_is_a_bad_card(
    tmp_path, operator_config, make_round, write_jsonl
):
    """round-log.md: a line with a bad card code is rejected as bad_card; 9 is not a code."""
    path = write_jsonl(tmp_path / "log.jsonl", make_round("R-1", player_cards=[9, "KS"]))
    _, rejects = read(path, operator_config)
    assert [(r.source_line, r.reason) for r in rejects] == [(1, "bad_card")]


@pytest.mark.parametrize("offset", ["+25:00", "-24:00", "+02:75"])
def test_an_impossible_utc_offset_is_rejected_even_after_a_valid_line_of_the_same_time(
    offset, tmp_path, operator_config, make_round, write_jsonl
):
    """The reader remembers dates and times it has checked; the offset must still be checked."""
    path = write_jsonl(
        tmp_path / "log.jsonl",
        make_round("R-1", settled_at="2026-10-03T18:40:41.870Z"),
        make_round("R-2", settled_at=f"2026-10-03T18:40:41.870{offset}"),
        make_round("R-3", settled_at="2026-10-03T18:40:42Z"),
    )
    records, rejects = read(path, operator_config)
    assert [(r.source_line, r.reason) for r in rejects] == [(2, "bad_value")]
    assert [record.round_id for record in records] == ["R-1", "R-3"]


def test_an_impossible_utc_offset_is_rejected_on_its_own(
    tmp_path, operator_config, make_round, write_jsonl
):
    path = write_jsonl(
        tmp_path / "log.jsonl", make_round("R-1", settled_at="2026-10-03T18:40:41.870+25:00")
    )
    records, rejects = read(path, operator_config)
    assert [(r.source_line, r.reason) for r in rejects] == [(1, "bad_value")]
    assert records == []


def test_every_reason_of_one_file_is_reported_in_line_order(
    tmp_path, operator_config, make_round, make_bet, write_jsonl
):
    lines = [make_round("R-0")]
    expected = []
    for number, (reason, build, _) in enumerate(REJECT_CASES.values(), start=2):
        lines.append(build(make_round, make_bet))
        expected.append((number, reason))
    path = write_jsonl(tmp_path / "log.jsonl", *lines)

    records, rejects = read(path, operator_config)

    assert [(r.source_line, r.reason) for r in rejects] == expected
    assert [record.round_id for record in records] == ["R-0"]


# --- what loads, and how it is normalised ---------------------------------------------------


def test_blank_lines_are_skipped_not_rejected(tmp_path, operator_config, make_round, write_jsonl):
    path = write_jsonl(tmp_path / "log.jsonl", make_round("R-1"), "", "   \t", make_round("R-4"))
    records, rejects = read(path, operator_config)
    assert rejects == []
    assert [(record.round_id, record.source_line) for record in records] == [("R-1", 1), ("R-4", 4)]


def test_a_last_line_without_its_newline_loads_when_whole_and_refuses_the_file_when_cut(
    tmp_path, operator_config, make_round
):
    """A last line without a newline is a whole record (it loads), or the file was met midway
    through its writing: refused whole, the way a cut gzip is, so that no reject of a line
    that is whole in the finished file stays behind; a bad line that ends with its newline is
    a reject as ever."""
    whole, cut = json.dumps(make_round("R-1")), json.dumps(make_round("R-2"))
    path = tmp_path / "log.jsonl"
    path.write_text(f"{whole}\n{cut}", encoding="utf-8")
    records, rejects = read(path, operator_config)
    assert [record.round_id for record in records] == ["R-1", "R-2"] and rejects == []
    path.write_text(f"{whole}\n{cut[:-9]}", encoding="utf-8")
    with pytest.raises(InputError, match=r"log\.jsonl:2: the last line has no newline and is"):
        read(path, operator_config)
    path.write_text(f"{whole}\n{cut[:-9]}\n", encoding="utf-8")
    records, rejects = read(path, operator_config)
    assert [(reject.source_line, reject.reason) for reject in rejects] == [(2, "bad_json")]
    # Whole JSON that is no good record, without its newline (an exporter that ends its file
    # so): a reject like any other line, the file's other lines loaded; it was refused whole.
    for last, reason in (("{}", "missing_field"), ("[1, 2]", "bad_value")):
        path.write_text(f"{whole}\n{last}", encoding="utf-8")
        records, rejects = read(path, operator_config)
        assert [record.round_id for record in records] == ["R-1"]
        assert [(reject.source_line, reject.reason) for reject in rejects] == [(2, reason)]
    # whole but nested too deep to decode: a reject, as it would be with its newline
    path.write_text(f"{whole}\n{'[' * 5000}{']' * 5000}", encoding="utf-8")
    records, rejects = read(path, operator_config)
    assert [record.round_id for record in records] == ["R-1"]
    assert [reject.source_line for reject in rejects] == [2]
    bad_early = json.dumps({**make_round("R-3"), "hand_no": "x"})  # a type error, then cut
    path.write_text(f"{whole}\n{bad_early[:-9]}", encoding="utf-8")
    with pytest.raises(InputError, match=r"log\.jsonl:2: the last line has no newline and is"):
        read(path, operator_config)


def test_a_binary_file_named_as_a_round_log_is_not_taken_for_one_being_written(
    tmp_path, operator_config, make_round
):
    """A program copied into the inbox as ``extra.jsonl`` was refused at every 06:00 run as a
    file "still being written, or cut ... it loads at the next run once whole": it never
    would. A last line with a NUL byte inside is no text; trailing zeros (room an upload made
    ahead) are still a file being written."""
    whole = json.dumps(make_round("R-1"))
    path = tmp_path / "extra.jsonl"
    path.write_bytes(whole.encode() + b"\n\x7fELF\x02\x01\x01\x00\x00\x00\x00\x03\x00>")
    with pytest.raises(InputError) as refused:
        read(path, operator_config)
    assert str(refused.value) == (
        f"{path}:2: the last line holds a NUL byte before its end, and no newline: the file is"
        " not text (a program or an archive named as a round log?), and it will not load at a"
        " later run; nothing of it was loaded: take it out of the inbox"
    )
    path.write_bytes(whole.encode() + b"\n" + whole[:40].encode() + b"\x00" * 64)
    with pytest.raises(InputError, match=r"extra\.jsonl:2: the last line has no newline and"):
        read(path, operator_config)


def test_a_json_array_saved_as_json_lines_is_refused_whole(tmp_path, operator_config, make_round):
    """A pretty-printed array of rounds named ``.jsonl`` loaded as a file of rejects (each
    of its 1,224 lines, "[" and "]," among them), none of its rounds, exit 1: it is no JSON
    Lines, said once, exit 2."""
    path = tmp_path / "export.jsonl"
    path.write_text(json.dumps([make_round("R-1"), make_round("R-2")], indent=2), encoding="utf-8")
    with pytest.raises(
        InputError, match=r"export\.jsonl:1: a JSON array written over many lines, not JSON Lines"
    ):
        read(path, operator_config)
    path.write_text("\ufeff[\r\n" + json.dumps(make_round("R-1")) + "\r\n]", encoding="utf-8")
    with pytest.raises(InputError, match=r"export\.jsonl:1: a JSON array"):
        read(path, operator_config)


def test_a_providers_export_read_as_the_round_log_is_refused_naming_its_profile(
    tmp_path, operator_config, make_round
):
    """A replay-api export of JSON Lines loaded without its profile as 364 ``missing_field``
    rejects (exit 1), and the file, then known by its content, was "already ingested,
    skipped" when loaded again with ``--profile replay-api``: that store could never read
    it. It is refused whole, naming the profile that reads it. A first line that only lacks
    a round id, of no profile's export, is that line's reject as before."""
    export = tmp_path / "replay-2026-10.jsonl"
    record = {"gameUid": "LB01-1", "gameType": "BACCARAT", "playersBets": []}
    export.write_text(json.dumps(record) + "\n", encoding="utf-8")
    with pytest.raises(InputError) as refused:
        read(export, operator_config)
    assert str(refused.value) == (
        f"{export}:1: written as the replay-api export (its records hold gameUid, not"
        " round_id), not the round log: nothing of it was loaded; read it through that log"
        " profile (ingest --profile replay-api; in an inbox, an [[inbox.profiles]] rule naming"
        " it)"
    )
    # a blank line first, and the text round_id in a value: the same export
    record["note"] = "no round_id here"
    export.write_text("\n" + json.dumps(record) + "\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"replay-2026-10\.jsonl:2: written as the replay-api"):
        read(export, operator_config)
    lacking = make_round("R-1")
    del lacking["round_id"]
    plain = tmp_path / "lacking.jsonl"
    plain.write_text(json.dumps(lacking) + "\n" + json.dumps(make_round("R-2")) + "\n", "utf-8")
    records, (rejected,) = read(plain, operator_config)
    assert len(records) == 1 and "required field round_id is missing" in rejected.message


def test_an_empty_gzip_file_is_refused_as_cut_and_an_empty_plain_log_reads_as_no_round(
    tmp_path, operator_config
):
    """A .jsonl.gz upload that had just begun (0 bytes) loaded as a good empty log, "Nothing
    new", where its first two bytes alone are refused as a gzip cut short. (The reader's view:
    ingest refuses any empty file before reading it, tests/store/test_load.py.)"""
    empty = tmp_path / "upload.jsonl.gz"
    empty.write_bytes(b"")
    with pytest.raises(InputError, match=r"upload\.jsonl\.gz: an empty file, no gzip yet"):
        read(empty, operator_config)
    plain = tmp_path / "empty.jsonl"
    plain.write_bytes(b"")
    assert read(plain, operator_config) == ([], [])


def test_a_gzip_log_cut_anywhere_is_refused_whole_its_header_too(
    tmp_path, operator_config, make_round, write_jsonl
):
    """A log cut inside its gzip header (its first 1 to 9 bytes) loaded as a good empty log,
    and the monthly run published pages of no play: GzipFile raises such a cut once, a peek
    met it, and the next read found no text. Every cut is refused, as one at 10 bytes was."""
    import gzip

    whole = gzip.compress(json.dumps(make_round("R-1")).encode() + b"\n", mtime=0)
    cut = tmp_path / "upload.jsonl.gz"
    for size in range(1, len(whole)):
        cut.write_bytes(whole[:size])
        with pytest.raises(InputError, match=r"upload\.jsonl\.gz: cannot be read to the end"):
            read(cut, operator_config)
    cut.write_bytes(whole)
    assert [record.round_id for record in read(cut, operator_config)[0]] == ["R-1"]
    cut.write_bytes(whole[:9])  # as ingest says it, with --json too, in --log-file
    log = tmp_path / "run.log"
    process = run_main(
        "--log-file", str(log), "ingest", str(cut), "--db", "s.sqlite", "--json", cwd=tmp_path
    )
    assert process.returncode == 2 and json.loads(process.stdout)["files"][0]["status"] == "failed"
    said = "not loaded: " + str(cut) + ": cannot be read to the end"
    assert said in process.stderr and said in log.read_text(encoding="utf-8")


def test_crlf_line_endings_load(tmp_path, operator_config, make_round):
    path = tmp_path / "log.jsonl"
    path.write_bytes(
        (json.dumps(make_round("R-1")) + "\r\n" + json.dumps(make_round("R-2")) + "\r\n").encode()
    )
    records, rejects = read(path, operator_config)
    assert rejects == []
    assert [record.round_id for record in records] == ["R-1", "R-2"]


def test_card_spellings_normalise_to_one_canonical_form(
    tmp_path, operator_config, make_round, write_jsonl
):
    path = write_jsonl(
        tmp_path / "log.jsonl",
        make_round("R-1", player_cards=["10h", "Td", "K♣"], banker_cards=["as", "Q♦"]),
        make_round("R-2", player_cards=["10H", "10D", "KC"], banker_cards=["AS", "QD"]),
    )
    records, rejects = read(path, operator_config)
    assert rejects == []
    assert [(r.player_cards, r.banker_cards) for r in records] == [
        ("10H 10D KC", "AS QD"),
        ("10H 10D KC", "AS QD"),
    ]


@pytest.mark.parametrize(
    ("text", "cents"),
    [("5", 500), ("0.5", 50), ("25.00", 2500), ("48.75", 4875), ("1000", 100_000), ("0.01", 1)],
)
def test_a_stake_string_becomes_integer_cents(
    text, cents, tmp_path, operator_config, make_round, make_bet, write_jsonl
):
    path = write_jsonl(
        tmp_path / "log.jsonl", make_round("R-1", bets=[make_bet("B-1", stake=text, payout=text)])
    )
    [record], rejects = read(path, operator_config)
    assert rejects == []
    [bet] = record.bets
    stake, payout = bet.stake_cents, bet.payout_cents
    assert (stake, payout) == (cents, cents)
    assert type(stake) is int and type(payout) is int


def test_a_zero_stake_is_bad_money_naming_its_value(
    tmp_path, operator_config, make_round, make_bet, write_jsonl
):
    round_ = make_round("R-1", bets=[make_bet("B-1", stake="0.00", payout="0.00")])
    records, [reject] = read(write_jsonl(tmp_path / "log.jsonl", round_), operator_config)
    assert records == []
    assert (reject.reason, reject.message) == (
        "bad_money",
        "bets[0].stake '0.00' must be greater than zero",
    )


def test_zero_payout_is_a_loss_not_an_error(tmp_path, operator_config, make_round, write_jsonl):
    path = write_jsonl(tmp_path / "log.jsonl", make_round("R-1"))
    [record], rejects = read(path, operator_config)
    assert rejects == []
    assert record.bets[0].payout_cents == 0


def test_the_same_instant_in_any_offset_stores_the_same_utc_text(
    tmp_path, operator_config, make_round, write_jsonl
):
    spellings = [
        "2026-10-03T18:40:41.870Z",
        "2026-10-03T18:40:41.870+00:00",
        "2026-10-03T20:40:41.870+02:00",
        "2026-10-03T14:40:41.87-04:00",
        "2026-10-03T18:40:41.870Z",  # again, now answered from the reader's caches
        "2026-10-03T20:40:41.870+02:00",
    ]
    path = write_jsonl(
        tmp_path / "log.jsonl",
        *(make_round(f"R-{n}", settled_at=text) for n, text in enumerate(spellings)),
    )
    records, rejects = read(path, operator_config)
    assert rejects == []
    assert [stored_utc(record.settled_at) for record in records] == [
        "2026-10-03T18:40:41.870Z"
    ] * len(spellings)


def test_every_timestamp_field_stores_as_utc_to_the_millisecond(
    tmp_path, operator_config, make_round, make_bet, write_jsonl
):
    path = write_jsonl(
        tmp_path / "log.jsonl",
        make_round(
            "R-1",
            started_at="2026-10-03T20:40:02.12+02:00",
            betting_closed_at="2026-10-03T18:40:17Z",
            settled_at="2026-10-03T18:40:41.870+00:00",
            bets=[make_bet("B-1", placed_at="2026-10-03T19:40:09.5+01:00")],
        ),
        make_round(
            "R-2", started_at=None, betting_closed_at=None, bets=[make_bet("B-2", placed_at=None)]
        ),
    )
    [first, second], rejects = read(path, operator_config)
    assert rejects == []
    assert [
        stored_utc(t) for t in (first.started_at, first.betting_closed_at, first.settled_at)
    ] == [
        "2026-10-03T18:40:02.120Z",
        "2026-10-03T18:40:17.000Z",
        "2026-10-03T18:40:41.870Z",
    ]
    assert stored_utc(first.bets[0].placed_at) == "2026-10-03T18:40:09.500Z"
    assert (second.started_at, second.betting_closed_at, second.bets[0].placed_at) == (
        None,
        None,
        None,
    )


def test_a_void_round_with_partial_cards_loads(
    tmp_path, operator_config, make_round, make_bet, write_jsonl
):
    path = write_jsonl(
        tmp_path / "log.jsonl",
        make_round(
            "R-1",
            status="void",
            void_reason="card flipped during the deal",
            player_cards=["9h"],
            banker_cards=[],
            bets=[make_bet("B-1", stake="25.00", payout="25.00")],
        ),
        without(
            make_round("R-2", status="void", void_reason="studio power cut", bets=[]),
            "player_cards",
            "banker_cards",
        ),
    )
    records, rejects = read(path, operator_config)
    assert rejects == []
    assert [(r.status, r.void_reason, r.player_cards, r.banker_cards) for r in records] == [
        ("void", "card flipped during the deal", "9H", ""),
        ("void", "studio power cut", "", ""),
    ]
    assert (records[0].bets[0].stake_cents, records[0].bets[0].payout_cents) == (2500, 2500)


def test_a_settled_round_keeps_no_void_reason(tmp_path, operator_config, make_round, write_jsonl):
    path = write_jsonl(tmp_path / "log.jsonl", make_round("R-1", void_reason="ignored"))
    [record], _ = read(path, operator_config)
    assert (record.status, record.void_reason) == ("settled", None)


def test_optional_round_fields_may_be_absent(tmp_path, operator_config, make_round, write_jsonl):
    path = write_jsonl(
        tmp_path / "log.jsonl",
        without(make_round("R-1"), "shoe_id", "hand_no", "started_at", "betting_closed_at"),
        make_round("R-2", shoe_id=None, hand_no=None, bets=[]),
    )
    records, rejects = read(path, operator_config)
    assert rejects == []
    assert [(r.shoe_id, r.hand_no, r.started_at, r.bets) for r in records] == [
        (None, None, None, records[0].bets),
        (None, None, "2026-10-03T18:40:02.120Z", []),
    ]
    assert len(records[0].bets) == 1


# --- the reporting month, in the game's time zone -------------------------------------------


@pytest.mark.parametrize(
    ("game", "settled_at", "month"),
    [
        # disclosures.md: 2026-10-31T23:30Z is 00:30 on 1 November in Rome (CET, UTC+1).
        ("live-baccarat-it", "2026-10-31T23:30:00Z", "2026-11"),
        ("live-baccarat-it", "2026-10-31T22:30:00Z", "2026-10"),
        ("mini-baccarat-it", "2026-10-31T23:30:00Z", "2026-11"),
        ("mini-baccarat-it", "2026-10-31T22:59:59.999Z", "2026-10"),
        ("mini-baccarat-it", "2026-10-31T23:00:00Z", "2026-11"),
        ("live-baccarat-dk", "2026-10-31T23:30:00Z", "2026-11"),
        ("live-baccarat-dk", "2026-10-31T22:30:00Z", "2026-10"),
        # Athens is UTC+2 in winter: 22:30Z is already 00:30 on 1 November.
        ("live-baccarat-gr", "2026-10-31T22:30:00Z", "2026-11"),
        ("live-baccarat-gr", "2026-10-31T21:59:59Z", "2026-10"),
        # Summer time (CEST UTC+2, EEST UTC+3): the month ends an hour earlier in UTC.
        ("live-baccarat-it", "2026-09-30T22:30:00Z", "2026-10"),
        ("live-baccarat-it", "2026-09-30T21:30:00Z", "2026-09"),
        ("live-baccarat-gr", "2026-09-30T21:30:00Z", "2026-10"),
        ("live-baccarat-gr", "2026-09-30T20:30:00Z", "2026-09"),
        # Summer time started on 29 March 2026: 31 March 22:30Z is 00:30 CEST on 1 April.
        ("live-baccarat-it", "2026-03-31T22:30:00Z", "2026-04"),
        ("live-baccarat-it", "2026-03-31T21:30:00Z", "2026-03"),
        # New year in Rome comes an hour before it does in UTC.
        ("live-baccarat-it", "2026-12-31T23:00:00Z", "2027-01"),
        ("live-baccarat-it", "2026-12-31T22:59:59Z", "2026-12"),
        # Offsets other than Z are the same instants.
        ("live-baccarat-it", "2026-11-01T00:30:00+01:00", "2026-11"),
        ("live-baccarat-it", "2026-10-31T23:30:00+00:00", "2026-11"),
        ("live-baccarat-it", "2026-10-31T17:30:00-05:00", "2026-10"),
        ("live-baccarat-gr", "2026-10-31T23:30:00+01:00", "2026-11"),
    ],
)
def test_a_round_counts_in_the_month_it_settled_in_the_games_time_zone(
    game, settled_at, month, tmp_path, operator_config, make_round, make_bet, write_jsonl
):
    currency = operator_config.games[game].currency
    path = write_jsonl(
        tmp_path / "log.jsonl",
        make_round(
            "R-1", game=game, settled_at=settled_at, bets=[make_bet("B-1", currency=currency)]
        ),
    )
    [record], rejects = read(path, operator_config)
    assert rejects == []
    assert record.report_month == month


def test_rome_and_athens_split_the_same_minute_into_different_months(
    tmp_path, operator_config, make_round, write_jsonl
):
    """One file, so the reader's month cache sees the same UTC minute for both zones."""
    path = write_jsonl(
        tmp_path / "log.jsonl",
        make_round("R-1", game="live-baccarat-it", settled_at="2026-10-31T22:30:00Z"),
        make_round("R-2", game="live-baccarat-gr", settled_at="2026-10-31T22:30:00Z"),
        make_round("R-3", game="live-baccarat-it", settled_at="2026-10-31T22:30:10.5Z"),
        make_round("R-4", game="live-baccarat-gr", settled_at="2026-10-31T22:30:20+00:00"),
        make_round("R-5", game="live-baccarat-it", settled_at="2026-11-01T00:30:00+02:00"),
        make_round("R-6", game="live-baccarat-gr", settled_at="2026-11-01T00:30:00+02:00"),
    )
    records, rejects = read(path, operator_config)
    assert rejects == []
    assert [record.report_month for record in records] == [
        "2026-10",
        "2026-11",
        "2026-10",
        "2026-11",
        "2026-10",
        "2026-11",
    ]


def test_the_night_summer_time_ends_is_two_distinct_hours(
    tmp_path, operator_config, make_round, write_jsonl
):
    """On 2026-10-25 Rome's clocks go back from 03:00 CEST to 02:00 CET: 02:30 happens twice."""
    path = write_jsonl(
        tmp_path / "log.jsonl",
        make_round("R-1", settled_at="2026-10-25T02:30:00+02:00"),
        make_round("R-2", settled_at="2026-10-25T02:30:00+01:00"),
        make_round("R-3", settled_at="2026-10-25T00:59:59.999Z"),
        make_round("R-4", settled_at="2026-10-25T01:00:00Z"),
    )
    records, rejects = read(path, operator_config)
    assert rejects == []
    assert [stored_utc(record.settled_at) for record in records] == [
        "2026-10-25T00:30:00.000Z",
        "2026-10-25T01:30:00.000Z",
        "2026-10-25T00:59:59.999Z",
        "2026-10-25T01:00:00.000Z",
    ]
    assert {record.report_month for record in records} == {"2026-10"}


# --- the CSV pair ---------------------------------------------------------------------------

ROUND_COLUMNS = [
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
BET_COLUMNS = ["round_id", "bet_id", "account", "type", "stake", "payout", "currency", "placed_at"]


def write_csv(path: Path, columns: list[str], rows: list[dict]) -> Path:
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, columns)
        writer.writeheader()
        writer.writerows(rows)
    return path


def csv_rows(record: dict) -> tuple[dict, list[dict]]:
    """A JSON round as one rounds.csv row and its bets.csv rows."""
    round_row = {
        column: record.get(column)
        if column not in ("player_cards", "banker_cards")
        else " ".join(record.get(column) or [])
        for column in ROUND_COLUMNS
    }
    bet_rows = [{"round_id": record["round_id"], **bet} for bet in record["bets"]]
    return round_row, bet_rows


def test_a_csv_pair_reads_as_the_same_rounds_as_json_lines(
    tmp_path, operator_config, make_round, make_bet, write_jsonl
):
    rounds = [
        make_round("R-1", player_cards=["10h", "K♣"], banker_cards=["Td", "9s"]),
        make_round(
            "R-2",
            settled_at="2026-10-31T23:30:00Z",
            bets=[make_bet("B-1", stake="5"), make_bet("B-2", type="tie", placed_at=None)],
        ),
        make_round(
            "R-3", status="void", void_reason="misdeal", player_cards=["AS"], banker_cards=[]
        ),
    ]
    jsonl = write_jsonl(tmp_path / "log.jsonl", *rounds)
    rounds_csv, bets_csv = write_csv_pair(tmp_path, rounds)

    from_json, json_rejects = read(jsonl, operator_config)
    from_csv, csv_rejects = read(rounds_csv, operator_config, bets_csv)

    assert json_rejects == csv_rejects == []

    def content(record: Round):
        bets = sorted(astuple(bet)[:8] for bet in record.bets)  # without the source line
        timestamps = [
            stored_utc(t) for t in (record.started_at, record.betting_closed_at, record.settled_at)
        ]
        fields = astuple(record)  # in Round's field order: 0-4 the ids, 8-12 month to cards
        return (*fields[:5], *timestamps, *fields[8:13], [(*b[:7], stored_utc(b[7])) for b in bets])

    assert [content(r) for r in from_csv] == [content(r) for r in from_json]
    # Rounds point at their rounds.csv row (after the header), bets at their bets.csv row.
    assert [r.source_line for r in from_csv] == [2, 3, 4]
    assert [bet.source_line for r in from_csv for bet in r.bets] == [2, 3, 4, 5]
    assert from_csv[0].player_cards == "10H KC"


def test_a_bad_bets_csv_row_is_rejected_with_the_bets_file_and_line(
    tmp_path, operator_config, make_round, make_bet
):
    rounds_csv, bets_csv = write_csv_pair(
        tmp_path,
        [
            make_round("R-1"),
            make_round("R-2", bets=[make_bet("B-1"), make_bet("B-2", stake="12.345")]),
            make_round("R-3"),
        ],
    )

    records, rejects = read(rounds_csv, operator_config, bets_csv)

    assert [(r.source_file, r.source_line, r.reason) for r in rejects] == [
        (str(bets_csv), 4, "bad_money")
    ]
    assert "12.345" in rejects[0].raw_text
    assert [record.round_id for record in records] == ["R-1", "R-3"]


def fifty_bets_past(
    bound: str, value: int, tmp_path, operator_config, make_round, make_bet, monkeypatch
):
    """A round of 50 bets and one of none, read with csv_pair's ``bound`` set to ``value``:
    the first's reject (which must be at its rounds.csv line) and what loaded."""
    monkeypatch.setattr(f"reporting.ingest.limits.{bound}", value)
    rounds_csv, bets_csv = write_csv_pair(
        tmp_path,
        [
            make_round("R-1", bets=[make_bet(f"B-{n}") for n in range(50)]),
            make_round("R-2"),
        ],
    )
    records, (reject,) = read(rounds_csv, operator_config, bets_csv)
    assert (reject.source_file, reject.source_line, reject.round_id) == (str(rounds_csv), 2, "R-1")
    assert [record.round_id for record in records] == ["R-2"]
    return reject.message, bets_csv


def test_a_round_of_bets_past_a_json_round_s_bound_is_one_reject_and_is_not_held(
    tmp_path, operator_config, make_round, make_bet, monkeypatch
):
    """600,000 bets.csv rows of one round were held in memory (700 MB). Past the bound of a
    JSON Lines round (4 MiB; 2,000 characters here) the rest of its bets are counted, not
    held, the round is one reject at its rounds.csv line, and the next round loads."""
    message, bets_csv = fifty_bets_past(
        "MAX_LINE_BYTES", 2_000, tmp_path, operator_config, make_round, make_bet, monkeypatch
    )
    assert message == (
        f"a round of 50 bets ({bets_csv} lines 2-51) and over 2,000 characters: not read"
    )


def test_a_round_of_more_bets_rows_than_any_round_holds_is_one_reject(
    tmp_path, operator_config, make_round, make_bet, monkeypatch
):
    """Short rows stay within a round's characters long after its memory is gone; past
    MAX_ROUND_ROWS bets.csv rows (100,000; 30 here) the round is one reject too."""
    message, bets_csv = fifty_bets_past(
        "MAX_ROUND_ROWS", 30, tmp_path, operator_config, make_round, make_bet, monkeypatch
    )
    assert message == f"a round of 50 bets ({bets_csv} lines 2-51) and over 30 rows: not read"


def test_a_bets_csv_row_of_no_round_is_rejected(tmp_path, operator_config, make_round):
    round_row, bet_rows = csv_rows(make_round("R-1"))
    rounds_csv = write_csv(tmp_path / "rounds.csv", ROUND_COLUMNS, [round_row])
    bets_csv = write_csv(
        tmp_path / "bets.csv", BET_COLUMNS, [*bet_rows, {**bet_rows[0], "round_id": "R-404"}]
    )
    records, rejects = read(rounds_csv, operator_config, bets_csv)
    assert [record.round_id for record in records] == ["R-1"]
    assert [(r.source_file, r.source_line, r.reason) for r in rejects] == [
        (str(bets_csv), 3, "bad_value")
    ]


def test_a_csv_pair_whose_rounds_have_no_ids_is_refused(tmp_path, operator_config, make_round):
    """A CSV pair whose rounds file leaves every round id empty loaded as rejects (each round
    without its id, each bet of the round ``''``), recorded, never to be read again once
    mended. No round read, and no record with an id: the pair is refused whole."""
    rounds_csv, bets_csv = write_csv_pair(
        tmp_path, [make_round("R-1"), make_round("R-2", hand_no=2)]
    )
    for path in (rounds_csv, bets_csv):
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
        path.write_text(
            lines[0] + "".join(re.sub(r"^R-\d", "", line) for line in lines[1:]), "utf-8"
        )
    with pytest.raises(InputError, match=r"no record of it holds a round id where the spec's round log reader reads one"):  # fmt: skip
        read(rounds_csv, operator_config, bets_csv)


def test_a_bad_rounds_csv_row_is_rejected_with_the_rounds_file_and_line(
    tmp_path, operator_config, make_round
):
    rounds_csv, bets_csv = write_csv_pair(
        tmp_path, [make_round("R-1"), make_round("R-2", settled_at="2026-10-03T18:40:41")]
    )
    records, rejects = read(rounds_csv, operator_config, bets_csv)
    assert [record.round_id for record in records] == ["R-1"]
    assert [(r.source_file, r.source_line, r.reason) for r in rejects] == [
        (str(rounds_csv), 3, "naive_timestamp")
    ]


def test_an_offset_beyond_14_hours_is_refused_whatever_came_before():
    """The fast path (a date seen before) applies the same offset rule as the full check."""
    from reporting.ingest.validation import RecordError, _Canon

    canon = _Canon()
    assert canon.timestamp("2026-10-03T10:00:00Z", "t") == "2026-10-03T10:00:00.000Z"
    for text in ("2026-10-03T10:00:00+14:30", "2026-10-03T10:00:00-15:00"):
        with pytest.raises(RecordError) as refused:
            canon.timestamp(text, "settled_at")
        assert refused.value.reason == "bad_value"
    assert canon.timestamp("2026-10-03T10:00:00+14:00", "t") == "2026-10-02T20:00:00.000Z"


def test_a_sub_millisecond_instant_stays_in_the_month_it_is_stored_in(
    tmp_path, operator_config, make_round, write_jsonl
):
    """The store keeps milliseconds: 23:59:59.9996 local is stored as .999, still October in
    Rome, and its reporting month agrees with the stored time."""
    from reporting.ingest.discovery import discover_sources
    from reporting.store.load import ingest
    from reporting.store.schema import connect

    log = write_jsonl(
        tmp_path / "edge.jsonl",
        make_round("TZ-1", settled_at="2026-10-31T23:59:59.9996+01:00", bets=[]),
    )
    connection = connect(tmp_path / "edge.sqlite")
    ingest(connection, discover_sources([log]), operator_config)
    row = connection.execute("SELECT settled_at, report_month FROM rounds").fetchone()
    assert row == ("2026-10-31T22:59:59.999Z", "2026-10")


# --- timestamps are normalised in Python as SQLite would ---------------------------------------


@st.composite
def timestamps_of_one_hour(draw) -> list[str]:
    """Timestamps in every spelling the reader accepts (separators, fractions of 1-30 digits,
    offsets of -14:00..+14:00 with or without a colon or in hours alone, but -00:00), several in
    the same hour
    so that the reader's caches are used as well as filled."""
    hour = draw(
        st.datetimes(min_value=datetime(1970, 1, 2), max_value=datetime(2100, 12, 30))  # noqa: DTZ001
    ).replace(minute=0, second=0, microsecond=0)
    texts = []
    for _ in range(draw(st.integers(1, 6))):
        moment = hour.replace(minute=draw(st.integers(0, 59)), second=draw(st.integers(0, 59)))
        separator = draw(st.sampled_from("Tt "))
        digits = draw(st.text("0123456789", min_size=1, max_size=30))
        fraction = draw(st.sampled_from(["", f".{digits}", f",{digits}"]))
        hours = draw(st.integers(-14, 14))
        minutes = 0 if abs(hours) == 14 else draw(st.integers(0, 59))
        # -00:00 is a local time of unknown offset (RFC 3339): a naive_timestamp reject
        sign = "-" if hours < 0 else "+" if hours == minutes == 0 else draw(st.sampled_from("+-"))
        offset = draw(
            st.sampled_from(
                [
                    "Z",
                    "z",
                    f"{sign}{abs(hours):02d}:{minutes:02d}",
                    f"{sign}{abs(hours):02d}{minutes:02d}",
                    # ISO 8601's hours alone (+01): told "not ISO 8601" before
                    f"{sign}{abs(hours):02d}" + ("" if minutes == 0 else f"{minutes:02d}"),
                ]
            )
        )
        texts.append(f"{moment:%Y-%m-%d}{separator}{moment:%H:%M:%S}{fraction}{offset}")
    return texts


@settings(max_examples=400, deadline=None)
@given(st.lists(timestamps_of_one_hour(), min_size=1, max_size=3))
def test_a_timestamp_is_stored_as_sqlite_reads_it_first_time_and_from_the_caches(hours):
    from reporting.ingest.validation import _Canon

    canon = _Canon()
    for text in [text for texts in hours for text in texts]:
        # SQLite reads "," fractions and "+0200" offsets differently: give it the ISO spelling
        # of the same instant, truncated to the millisecond as the store keeps it.
        iso = re.sub(r"([+-]\d\d)(\d\d)$", r"\1:\2", text.replace(",", ".").upper())
        iso = re.sub(r"([+-]\d\d)$", r"\1:00", iso)
        iso = re.sub(r"(\.\d{3})\d+", r"\1", iso)
        expected = stored_utc(iso)
        assert canon.timestamp(text, "t") == expected
        assert canon.timestamp(text, "t") == expected  # the cached way gives the same


def test_the_timestamp_caches_never_let_a_bad_time_through():
    """Each bad time below shares its date, hour and offset with a good one seen before it,
    so the cached way is the one that must refuse it."""
    from reporting.ingest.validation import RecordError, _Canon

    canon = _Canon()
    for good in (
        "2026-02-28T10:00:00Z",
        "2026-10-03T23:00:00.000Z",
        "2026-10-03T23:59:59.999+02:00",
        "2026-10-03T10:00:00+14:00",
        " 2026-10-03T23:00:00Z ",  # blanks around a time are allowed
    ):
        canon.timestamp(good, "t")
    for bad, reason in (
        ("2026-10-03T23:59:60Z", "bad_value"),
        ("2026-10-03T23:60:00Z", "bad_value"),
        ("2026-10-03T23:59:60.000Z", "bad_value"),
        ("2026-10-03T23:60:00+02:00", "bad_value"),
        (" 2026-10-03T23:59:60Z ", "bad_value"),
        ("2026-10-03T24:00:00Z", "bad_value"),
        ("2026-02-29T10:00:00Z", "bad_value"),  # not a leap year
        ("2026-10-03T10:00:00+14:30", "bad_value"),
        ("2026-10-03T23:00:00", "naive_timestamp"),
        ("2026-10-03T23:00:00.5", "naive_timestamp"),
        ("2026-10-03T23:00 :00Z", "bad_value"),
        ("2026-10-0323:00:00Z", "bad_value"),
    ):
        with pytest.raises(RecordError) as refused:
            canon.timestamp(bad, "t")
        assert refused.value.reason == reason, bad


def test_a_leap_second_is_told_as_one_and_a_long_fraction_is_read():
    """A real leap second (2016-12-31T23:59:60Z) was "not a valid date and time", as if it
    never was; a fraction of more than 9 digits, which ISO 8601 and RFC 3339 allow, was "not
    a timestamp of the round log's form (... a fraction of a second if any ...)"."""
    from reporting.ingest.validation import RecordError, _Canon

    with pytest.raises(RecordError) as refused:
        _Canon().timestamp("2016-12-31T23:59:60Z", "settled_at")
    assert str(refused.value) == (
        "settled_at '2016-12-31T23:59:60Z' is a leap second (:60), which no time of the store"
        " holds: write it as :59.999 of its minute"
    )
    assert _Canon().timestamp("2026-10-31T22:59:59.123456789012Z", "t") == (
        "2026-10-31T22:59:59.123Z"
    )


@pytest.mark.parametrize(
    "text", ["0001-01-01T00:30:00Z", "1899-12-31T23:00:00Z", "9999-12-31T23:30:00Z"]
)
def test_a_year_no_log_can_hold_is_bad_value_not_a_crash(text):
    """Such a time has no reporting month in every zone (a datetime stops at years 1 and
    9999): it is refused like any bad value, and the rest of the file loads."""
    from reporting.ingest.validation import RecordError, _Canon

    with pytest.raises(RecordError) as refused:
        _Canon().timestamp(text, "settled_at")
    assert refused.value.reason == "bad_value"
    assert "year" in refused.value.message


def test_a_bet_of_no_round_in_the_file_is_rejected_even_beside_a_row_without_round_id(
    tmp_path, operator_config, make_round
):
    """A rounds row with an empty round_id is refused itself, and does not hide the bets
    whose round is missing (SQL's NOT IN over a NULL would)."""
    kept, no_id = csv_rows(make_round("R-1")), csv_rows(make_round("R-2"))
    no_id[0]["round_id"] = ""
    orphan = {**kept[1][0], "round_id": "R-9", "bet_id": "B-9"}
    rounds_csv = write_csv(tmp_path / "rounds.csv", ROUND_COLUMNS, [kept[0], no_id[0]])
    bets_csv = write_csv(tmp_path / "bets.csv", BET_COLUMNS, [*kept[1], orphan])
    records, rejects = read(rounds_csv, operator_config, bets_csv)
    assert [record.round_id for record in records] == ["R-1"]
    assert [(Path(r.source_file).name, r.source_line, r.reason) for r in rejects] == [
        ("rounds.csv", 3, "missing_field"),
        ("bets.csv", 3, "bad_value"),
    ]
    assert "round 'R-9'" in rejects[1].message


# --- bet types: every bet of the catalogue, and the operator's own -----------------------------

#: An operator's own bet (declared in its configuration like the catalogue's), a game offering
#: it, and a game offering every bet of the catalogue.
OWN_BET_CONFIG = (
    MONKEY_6_CONFIG
    + """

[games.every-bet-it]
base = "live-baccarat-it"
name = "Every Bet"
languages = ["it", "en"]
bets = BETS
"""
)


@pytest.fixture(scope="module")
def own_bet_config(tmp_path_factory):
    path = tmp_path_factory.mktemp("config") / "operator.toml"
    text = OWN_BET_CONFIG.replace("BETS", json.dumps(list(catalogue_bets())))
    path.write_text(text, encoding="utf-8")
    return load_config(path)


def read_both(tmp_path: Path, config, write_jsonl, *records: dict) -> list[tuple]:
    """The records read from JSON Lines and from a CSV pair, which must agree: each round's
    id and bet types, then each reject's reason and message."""
    jsonl = write_jsonl(tmp_path / "log.jsonl", *records)
    rounds_csv, bets_csv = write_csv_pair(tmp_path, list(records))
    read_back = []
    for records_read, rejects in (read(jsonl, config), read(rounds_csv, config, bets_csv)):
        read_back.append(
            (
                [(r.round_id, [bet.bet_type for bet in r.bets]) for r in records_read],
                [(r.reason, r.message) for r in rejects],
            )
        )
    assert read_back[0] == read_back[1]
    return read_back[0]


def test_every_bet_of_the_catalogue_is_a_bet_type_of_the_round_log(
    tmp_path, own_bet_config, make_round, make_bet, write_jsonl
):
    every = list(catalogue_bets())
    bets = [make_bet(f"B-{bet_type}", type=bet_type) for bet_type in every]
    records, rejects = read_both(
        tmp_path, own_bet_config, write_jsonl, make_round("R-1", game="every-bet-it", bets=bets)
    )
    assert rejects == []
    assert records == [("R-1", every)]


def test_an_operators_own_bet_is_a_bet_type_of_its_configurations_logs(
    tmp_path, own_bet_config, make_round, make_bet, write_jsonl
):
    offered = make_round("R-1", game="monkey-it", bets=[make_bet("B-1", type="monkey_6")])
    elsewhere = make_round("R-2", game="every-bet-it", bets=[make_bet("B-2", type="monkey_6")])
    records, rejects = read_both(tmp_path, own_bet_config, write_jsonl, offered, elsewhere)
    assert records == [("R-1", ["monkey_6"])]
    # Known, but not a bet of that game: refused as the catalogue's bets are.
    ((reason, message),) = rejects
    assert reason == "bad_value"
    assert message.startswith("bets[0].type 'monkey_6' is not offered by every-bet-it")


def test_a_bet_type_neither_of_the_catalogue_nor_of_the_operator_is_unknown(
    tmp_path, own_bet_config, make_round, make_bet, write_jsonl
):
    unknown = make_round("R-1", game="monkey-it", bets=[make_bet("B-1", type="monkey_7")])
    records, rejects = read_both(tmp_path, own_bet_config, write_jsonl, unknown)
    assert records == []
    ((reason, message),) = rejects
    assert reason == "unknown_bet_type"
    assert message.startswith("bets[0].type: 'monkey_7' is not a bet type (known: player banker")
    assert message.endswith(" ox_6 monkey_6)")


def test_without_own_bets_the_readers_decode_into_the_spec_s_shape(operator_config):
    """The common case costs nothing more: the shared decoder of the catalogue's types."""
    validator = RoundValidator({"live-baccarat-it": operator_config.game("live-baccarat-it")})
    assert validator.shape is RawRound and validator.decoder is ROUND_DECODER
