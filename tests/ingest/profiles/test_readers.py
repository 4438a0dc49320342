"""Reading providers' exports through the built-in log profiles: what each field becomes,
every reject at its record (``path:#index`` in a JSON document), and the guarantees of the
spec's reader (idempotent, one transaction per file)."""

from __future__ import annotations

import contextlib
import copy
import csv
import gzip
import json
import re
import time
import tracemalloc
from pathlib import Path

import pytest
from helpers import rows, run_main

from reporting.config.loader import load_config
from reporting.errors import InputError
from reporting.ingest.discovery import discover_sources
from reporting.ingest.formats import read_source
from reporting.ingest.profiles.builtin import DATA_FOLDER
from reporting.ingest.profiles.loader import load_profile
from reporting.ingest.sources import Source, cyclic_gc_paused
from reporting.records import SourceLocation
from reporting.store import load, writer
from reporting.store.load import ingest
from reporting.store.schema import connect

CONFIG = """\
[games.live-baccarat-it]
languages = ["it", "en"]
tables = ["LB-IT-*"]

[games.live-baccarat-dk]
languages = ["da", "en"]
tables = ["LB-DK-01", "LB-DK-02"]
"""

# 2026-10-03T18:40:02.120Z and the round's other instants, in epoch milliseconds.
STARTED, CLOSED, SETTLED = 1791052802120, 1791052817000, 1791052841870


def game(uid: str = "G-1", **changes) -> dict:
    """A replay-API game: player natural 9 (9H KS) beats banker 7 (5D 2C); a lost banker bet
    of 25.00 and a won player bet of 10.00 (paid 20.00 gross)."""
    record = {
        "gameUid": uid,
        "gameReferenceCode": "LB-IT-01/1",
        "gameType": "BACCARAT",
        "gameResultType": "PLAYER_WIN",
        "startDate": STARTED,
        "endDate": SETTLED,
        "gameplay": {
            ".BaccaratGameplay": {
                "betEndDate": CLOSED,
                "playerHand": {"cards": {"0": "H_9", "1": "S_K"}, "score": 9},
                "bankerHand": {"cards": {"0": "D_5", "1": "C_2"}, "score": 7},
                "burnCards": {"0": "S_4"},
            }
        },
        "playersBets": [
            {
                "playerId": "acc-1",
                "tileId": "LB-IT-01",
                "currency": "EUR",
                "bets": [
                    {"betId": f"{uid}-B1", "txId": "t1", "betAmount": 25, "payoffAmount": 0,
                     "playerBetStatus": "PAID", "resultType": "LOSE", "betType": "BC_BANKER"},
                ],
            },
            {
                "playerId": "acc-2",
                "tileId": "LB-IT-01",
                "currency": "EUR",
                "bets": [
                    {"betId": f"{uid}-B2", "txId": "t2", "betAmount": 10.0, "payoffAmount": 20,
                     "playerBetStatus": "PAID", "resultType": "WIN", "betType": "BC_PLAYER"},
                ],
            },
        ],
    }  # fmt: skip
    record.update(copy.deepcopy(changes))
    return record


@pytest.fixture
def config(tmp_path):
    path = tmp_path / "operator.toml"
    path.write_text(CONFIG, encoding="utf-8")
    return load_config(path)


def read(path: Path, config, profile: str = "replay-api", layout: str | None = None):
    loaded = load_profile(profile)
    layout = layout or loaded.reads(path.name)
    records, rejects = [], []
    for batch in read_source(Source(path, layout, profile=loaded), config.games, 1000):
        records.extend(batch.records)
        rejects.extend(batch.rejects)
    return records, rejects


def document(path: Path, *games: dict | str) -> Path:
    """A JSON document holding an array of games (a string is written as it is)."""
    parts = [item if isinstance(item, str) else json.dumps(item) for item in games]
    path.write_text("[\n" + ",\n".join(parts) + "\n]\n", encoding="utf-8")
    return path


def test_a_replay_game_becomes_the_round_the_spec_s_log_would_give(tmp_path, config):
    (record,), rejects = read(document(tmp_path / "games.json", game()), config)
    assert rejects == []
    assert record.round_id == "G-1" and record.table_id == "LB-IT-01"
    assert record.game_id == "live-baccarat-it"  # by its table: the export names no game
    assert (record.player_cards, record.banker_cards) == ("9H KS", "5D 2C")
    assert record.started_at == "2026-10-03T18:40:02.120Z"
    assert record.betting_closed_at == "2026-10-03T18:40:17.000Z"
    assert record.settled_at == "2026-10-03T18:40:41.870Z"
    assert record.report_month == "2026-10" and record.status == "settled"
    assert (record.shoe_id, record.hand_no, record.void_reason) == (None, None, None)
    assert record.source_line == 0  # the element's index in the array
    assert [
        (bet.bet_id, bet.account, bet.bet_type, bet.stake_cents, bet.payout_cents, bet.currency)
        for bet in record.bets
    ] == [("G-1-B1", "acc-1", "banker", 2500, 0, "EUR"), ("G-1-B2", "acc-2", "player", 1000, 2000, "EUR")]  # fmt: skip
    assert [bet.placed_at for bet in record.bets] == [None, None]


def test_the_same_games_as_json_lines_and_gzipped_read_the_same(tmp_path, config):
    games = [game("G-1"), game("G-2")]
    lines = "".join(json.dumps(item) + "\n" for item in games)
    (tmp_path / "games.jsonl").write_text(lines, encoding="utf-8")
    with gzip.open(tmp_path / "games.jsonl.gz", "wt", encoding="utf-8") as handle:
        handle.write(lines)
    from_document, _ = read(document(tmp_path / "games.json", *games), config)
    from_lines, _ = read(tmp_path / "games.jsonl", config)
    from_gzip, _ = read(tmp_path / "games.jsonl.gz", config)

    def content(records):
        return [(r.round_id, r.player_cards, [b.bet_id for b in r.bets]) for r in records]

    assert content(from_document) == content(from_lines) == content(from_gzip)
    assert [r.source_line for r in from_lines] == [1, 2] and [r.source_line for r in from_document] == [0, 1]  # fmt: skip
    assert [r.bets for r in from_gzip] == [r.bets for r in from_lines]


@pytest.mark.parametrize("levels", [70, 5_000])
def test_a_game_nested_too_deep_is_rejected_as_json_lines_as_in_a_document(
    tmp_path, config, levels
):
    """70 levels in a field no path reads: the document's element was rejected, the same game
    as a line of JSON Lines loaded (its depth was counted only when a key might repeat).
    5,000 levels, deeper than the decoder goes, were said in other words as JSON Lines."""
    deep = json.dumps(game("G-1")).replace(
        '"burnCards": {"0": "S_4"}', '"burnCards": ' + "[" * levels + "]" * levels
    )
    assert deep.count("[") > levels
    as_lines = tmp_path / "games.jsonl"
    as_lines.write_text(deep + "\n" + json.dumps(game("G-2")) + "\n", encoding="utf-8")
    for path in (as_lines, document(tmp_path / "games.json", deep, game("G-2"))):
        records, (reject,) = read(path, config)
        assert [record.round_id for record in records] == ["G-2"]
        assert reject.reason == "bad_value"
        assert reject.message.startswith("arrays and objects nested more than 64 deep"), path


def test_a_profile_s_json_lines_cut_in_its_last_line_is_refused_whole(tmp_path, config):
    """As the spec's JSON Lines: a provider's log met midway through its upload loads
    nothing (its cut line's reject would stay after the whole file loads); a whole last
    game without its newline loads."""
    games = [json.dumps(game("G-1")), json.dumps(game("G-2"))]
    path = tmp_path / "games.jsonl"
    path.write_text(f"{games[0]}\n{games[1]}", encoding="utf-8")
    records, rejects = read(path, config)
    assert [r.round_id for r in records] == ["G-1", "G-2"] and rejects == []
    path.write_text(f"{games[0]}\n{games[1][:-20]}", encoding="utf-8")
    with pytest.raises(InputError, match=r"games\.jsonl:2: the last line has no newline"):
        read(path, config)


def test_a_profile_s_json_lines_ended_by_carriage_returns_or_in_utf_16_are_refused_whole(
    tmp_path, config
):
    """A file whose lines end in CR alone read as one line, taken for a file still being
    written; UTF-16 in a gzip has no plain name to be told by. Each is said at once."""
    lines = [json.dumps(game("G-1")), json.dumps(game("G-2"))]
    (tmp_path / "games.jsonl").write_text("\r".join(lines) + "\r", encoding="utf-8")
    with pytest.raises(InputError, match=r"games\.jsonl: its lines end in a carriage return"):
        read(tmp_path / "games.jsonl", config)
    for encoding, first in [("utf-16-le", ""), ("utf-16-le", "\n"), ("utf-16-be", "\r\n")]:
        with gzip.open(tmp_path / "games.jsonl.gz", "wt", encoding=encoding) as handle:
            handle.write(first + "\n".join(lines) + "\n")  # a blank first line read alone
        with pytest.raises(InputError, match=r"games\.jsonl\.gz: UTF-16 or UTF-32 text: a"):
            read(tmp_path / "games.jsonl.gz", config)


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-32"])
def test_a_profile_s_document_or_csv_in_utf_16_is_said_to_be_so(tmp_path, config, encoding):
    """A spreadsheet's "Unicode text" export: read as UTF-8, a CSV header lacked every column
    and a JSON document's key was "looked for" at a byte of NULs."""
    sample = Path(__file__).resolve().parents[3] / "sample_data/profiles/flat-csv/bets-2026-10.csv"
    games = tmp_path / "games.json"
    games.write_text(json.dumps({"games": [game("G-1")]}), encoding=encoding)
    bets = tmp_path / "bets.csv"
    bets.write_text(sample.read_text(encoding="utf-8"), encoding=encoding)
    for path, profile in ((games, "replay-api"), (bets, "flat-csv")):
        with pytest.raises(InputError) as refused:
            read(path, config, profile)
        assert str(refused.value) == (
            f"{path}: UTF-16 or UTF-32 text: a round log is UTF-8 text; export or save it as UTF-8"
        )


def test_a_table_of_another_game_than_the_profile_maps_the_line_to_blames_the_mapping(
    tmp_path, operator_config
):
    """The profile's [games] made live-baccarat-it of a line naming live-baccarat-dk, at a
    Danish table: the reject said "the game this line names", and blamed the log."""
    profile = tmp_path / "feed.toml"
    profile.write_text(
        (DATA_FOLDER / "numeric-feed.toml").read_text(encoding="utf-8")
        + '\n[games]\n"live-baccarat-dk" = "live-baccarat-it"\n"mini-baccarat-it" ='
        ' "mini-baccarat-it"\n',
        encoding="utf-8",
    )
    sample = Path(__file__).resolve().parents[3] / "sample_data/profiles/numeric-feed"
    _, rejects = read(sample / "page-2026-10.json", operator_config, str(profile))
    reasons = {reject.message for reject in rejects}
    assert (
        "table_id 'LB-DK-01' is a table of live-baccarat-dk by the configuration's tables, not"
        " of live-baccarat-it, the game the profile's [games] makes of this line's"
        " 'live-baccarat-dk' (game): the profile maps the code to the wrong game, or the"
        " configuration lists the table under the wrong one"
    ) in reasons, reasons


def test_a_conflict_in_a_document_names_the_record_it_conflicts_with_by_its_index(tmp_path):
    """A JSON document's records are numbered by index (``path:#0``); the conflict's earlier
    round was named ``page-2026-10.json:0``, or "line 9 of this file", as if by line."""
    sample = Path(__file__).resolve().parents[3] / "sample_data/profiles/numeric-feed"
    first = sample / "page-2026-10.json"
    page = json.loads(first.read_text(encoding="utf-8"))
    page["data"][0]["hand"] += 1
    new = copy.deepcopy(page["data"][0]) | {"id": "NEW-1"}
    page["data"] += [new, new | {"hand": new["hand"] + 7}]
    later = tmp_path / "later.json"
    later.write_text(json.dumps(page), encoding="utf-8")
    db = tmp_path / "store.sqlite"
    assert (
        run_main("ingest", str(first), "--profile", "numeric-feed", "--db", str(db)).returncode == 0
    )
    assert (
        run_main("ingest", str(later), "--profile", "numeric-feed", "--db", str(db)).returncode == 1
    )
    said = [message for (message,) in rows(db, "SELECT message FROM rejected_records")]
    last = len(page["data"]) - 2
    assert [message.split(" with other content")[0] for message in said] == [
        f"round '{page['data'][0]['id']}' was already loaded from {first}:#0",
        f"round 'NEW-1' was already loaded from record #{last} of this file",
    ]


def test_a_game_that_does_not_load_keeps_its_round_id_and_month_where_they_can_be_read(
    tmp_path, config
):
    """Its reject bears on its month (reporting.verify.bearing), not only through its file."""
    broken = game("G-7", gameResultType="SOMETHING_ELSE")
    _, (reject,) = read(document(tmp_path / "games.json", broken), config)
    assert (reject.round_id, reject.report_month) == ("G-7", "2026-10")  # SETTLED, in Rome
    _, (unplaced,) = read(document(tmp_path / "other.json", game("G-8", endDate="soon")), config)
    assert (unplaced.round_id, unplaced.report_month) == ("G-8", None)


def test_a_cancelled_game_is_void_its_status_its_reason(tmp_path, config):
    cancelled = game(gameResultType="CANCELLED")
    for player in cancelled["playersBets"]:
        for bet in player["bets"]:
            bet["payoffAmount"] = bet["betAmount"]
    (record,), _ = read(document(tmp_path / "games.json", cancelled), config)
    assert (record.status, record.void_reason) == ("void", "CANCELLED")
    assert [bet.payout_cents for bet in record.bets] == [2500, 1000]


def test_a_bet_type_the_tool_does_not_settle_is_kept_as_given_and_its_round_loads(tmp_path, config):
    tiger = game()
    tiger["playersBets"][0]["bets"].append(
        {"betId": "G-1-B3", "betAmount": 5, "payoffAmount": 0, "betType": "BC_PLAYER_TIGER"}
    )
    (record,), rejects = read(document(tmp_path / "games.json", tiger), config)
    assert rejects == []
    assert [bet.bet_type for bet in record.bets] == ["banker", "BC_PLAYER_TIGER", "player"]
    # Kept as given, it is shown as given (the audit, the findings): it prints, as an id does.
    tiger["playersBets"][0]["bets"][-1]["betType"] = "BC_X\nall payouts verified\u202e"
    _, (reject,) = read(document(tmp_path / "games.json", tiger), config)
    assert (reject.reason, reject.round_id) == ("bad_value", "G-1")
    assert reject.message.startswith("bets[1].type 'BC_X\\nall payouts verified\\u202e' holds")


VARIANTS_CONFIG = """\
[games.ez-baccarat-it]
base = "live-baccarat-it"
bets = ["player", "banker_ez", "tie", "dragon_7", "panda_8"]
languages = ["it", "en"]
tables = ["EZ-IT-*"]

[games.tiger-baccarat-it]
base = "live-baccarat-it"
bets = ["player", "banker", "tie", "tiger", "small_tiger", "big_tiger", "tiger_tie", "tiger_pair"]
languages = ["it", "en"]
tables = ["TG-IT-*"]
"""


@pytest.fixture
def variants_config(tmp_path):
    path = tmp_path / "variants.toml"
    path.write_text(VARIANTS_CONFIG, encoding="utf-8")
    return load_config(path)


def with_bets(uid: str, table: str, *bet_types: str) -> dict:
    """A replay game at ``table`` with one lost bet of 5.00 of each type."""
    bets = [
        {"betId": f"{uid}-B{number}", "betAmount": 5, "payoffAmount": 0, "betType": bet_type}
        for number, bet_type in enumerate(bet_types, start=1)
    ]
    return game(
        uid, playersBets=[{"playerId": "a", "tileId": table, "currency": "EUR", "bets": bets}]
    )


def test_the_providers_variant_bets_read_as_the_catalogue_s(tmp_path, variants_config):
    games = [
        with_bets("G-1", "EZ-IT-01", "BC_BANKER_EZ", "BC_DRAGON_7", "BC_PANDA_8"),
        with_bets("G-2", "TG-IT-01", "BC_TIGER", "BC_SMALL_TIGER", "BC_TIE_TIGER", "BC_TIGER_TIE"),
        with_bets("G-3", "TG-IT-01", "BC_PLAYER_TIGER"),  # no bet of this tool: kept as given
    ]
    records, rejects = read(document(tmp_path / "games.json", *games), variants_config)
    assert rejects == []
    assert [(r.game_id, [bet.bet_type for bet in r.bets]) for r in records] == [
        ("ez-baccarat-it", ["banker_ez", "dragon_7", "panda_8"]),
        ("tiger-baccarat-it", ["tiger", "small_tiger", "tiger_tie", "tiger_tie"]),
        ("tiger-baccarat-it", ["BC_PLAYER_TIGER"]),
    ]


def test_a_providers_variant_bet_its_game_does_not_offer_is_refused(tmp_path, variants_config):
    bad = with_bets("G-1", "EZ-IT-01", "BC_BANKER_EZ", "BC_SUPER_6")
    records, (reject,) = read(document(tmp_path / "games.json", bad), variants_config)
    assert records == [] and reject.reason == "bad_value"
    assert reject.message == (  # in the export's words: its code and field, then the tool's
        "bets[1].type 'BC_SUPER_6' (playersBets[].bets[].betType) is super_6, not offered by"
        " ez-baccarat-it (offered: banker_ez dragon_7 panda_8 player tie)"
    )


def test_a_numeric_feed_code_of_a_variant_reads_as_its_bet(tmp_path, variants_config):
    page = {"page": 1, "pages": 1, "count": 1, "data": [
        {"id": "N-1", "table": "EZ-IT-01", "game": "ez-baccarat-it", "settled": 1791052841, "state": 1,
         "cards": {"player": ["H9", "S13"], "banker": ["D5", "C2"]},
         "wagers": [{"id": f"N-1-B{code}", "acct": "a", "code": code, "amount": 500, "win": 0, "cur": "EUR"}
                    for code in (12, 13, 15)]},
    ]}  # fmt: skip
    path = tmp_path / "page.json"
    path.write_text(json.dumps(page), encoding="utf-8")
    (record,), rejects = read(path, variants_config, "numeric-feed")
    assert rejects == []
    assert [bet.bet_type for bet in record.bets] == ["dragon_7", "panda_8", "banker_ez"]


def test_a_feed_round_naming_a_game_at_another_game_s_table_is_rejected(tmp_path, config):
    """A provider's export that names the game (numeric-feed) is held to the games' tables as
    the spec's log is: a Danish round at an Italian table is rejected, naming both."""
    page = {"page": 1, "pages": 1, "count": 2, "data": [
        {"id": f"N-{number}", "table": table, "game": "live-baccarat-dk", "settled": 1791052841,
         "state": 1, "cards": {"player": ["H9", "S13"], "banker": ["D5", "C2"]},
         "wagers": [{"id": f"N-{number}-B", "acct": "a", "code": 2, "amount": 5000, "win": 0,
                     "cur": "DKK"}]}
        for number, table in ((1, "LB-IT-01"), (2, "LB-DK-01"))
    ]}  # fmt: skip
    path = tmp_path / "page.json"
    path.write_text(json.dumps(page), encoding="utf-8")
    records, rejects = read(path, config, "numeric-feed")
    assert [record.round_id for record in records] == ["N-2"]
    assert [(reject.reason, reject.round_id) for reject in rejects] == [("bad_value", "N-1")]
    assert rejects[0].message.startswith(
        "table_id 'LB-IT-01' is a table of live-baccarat-it by the configuration's tables, not"
        " of live-baccarat-dk"
    )


# Each bad game of the document is its own reject, at path:#index; the games around it load.
BAD_GAMES = [
    ("bad_card", {"gameplay": {".BaccaratGameplay": {"playerHand": {"cards": {"0": "X_9", "1": "S_K"}},
                                                      "bankerHand": {"cards": {"0": "D_5", "1": "C_2"}}}}},
     "player_cards"),
    ("unknown_game", {"playersBets": [{"playerId": "a", "tileId": "XX-01", "currency": "EUR", "bets": [
        {"betId": "x", "betAmount": 5, "payoffAmount": 0, "betType": "BC_TIE"}]}]}, "XX-01"),
    ("bad_value", {"gameResultType": "NOBODY_WON"}, "status 'NOBODY_WON'"),
    ("missing_field", {"endDate": None}, "settled_at (endDate)"),
    ("bad_value", {"startDate": True}, "started_at"),
]  # fmt: skip


@pytest.mark.parametrize(("reason", "changes", "said"), BAD_GAMES)
def test_a_bad_game_is_rejected_at_its_index_and_the_others_load(
    tmp_path, config, reason, changes, said
):
    path = document(tmp_path / "games.json", game("G-1"), game("G-2", **changes), game("G-3"))
    records, (reject,) = read(path, config)
    assert [record.round_id for record in records] == ["G-1", "G-3"]
    assert (reject.reason, reject.source_line, reject.round_id) == (reason, 1, "G-2")
    assert said in reject.message
    assert str(reject.source) == f"{path}:#1"


def money_game(stake) -> dict:
    changed = game()
    changed["playersBets"][0]["bets"][0]["betAmount"] = stake
    return changed


@pytest.mark.parametrize(
    ("written", "cents"), [("25", 2500), ("25.5", 2550), ("25.50", 2550), ("25.5000", 2550), ("2.5e1", 2500)]
)  # fmt: skip
def test_money_written_as_a_json_number_is_read_from_its_text_exactly(
    tmp_path, config, written, cents
):
    text = json.dumps(money_game("STAKE")).replace('"STAKE"', written)
    (record,), _ = read(document(tmp_path / "games.json", text), config)
    assert record.bets[0].stake_cents == cents


@pytest.mark.parametrize("written", ["5.0005", "-5", "0", "true", '"cinque"'])
def test_money_that_is_not_an_exact_number_of_cents_is_bad_money(tmp_path, config, written):
    text = json.dumps(money_game("STAKE")).replace('"STAKE"', written)
    records, (reject,) = read(document(tmp_path / "games.json", text), config)
    assert records == [] and reject.reason == "bad_money", reject.message


def test_a_key_given_twice_in_a_game_is_bad_json(tmp_path, config):
    text = json.dumps(game()).replace('"gameUid": "G-1"', '"gameUid": "G-1", "gameUid": "G-9"')
    records, (reject,) = read(document(tmp_path / "games.json", text), config)
    assert records == [] and reject.reason == "bad_json" and "appears twice" in reject.message


#: A provider whose keys look like the round log's own (roundId, bankerCards, betId).
CAMEL_PROFILE = """\
[profile]
name = "camel"
layouts = ["jsonl"]
[round]
round_id = "roundId"
table_id = "tableId"
settled_at = "settledAt"
player_cards = "playerCards"
banker_cards = "bankerCards"
[bet]
each = "bets[]"
bet_id = "bets[].betId"
account = "bets[].account"
type = "bets[].type"
stake = "bets[].stake"
payout = "bets[].payout"
[times]
unit = "iso"
[money]
unit = "major"
"""
CAMEL_LINE = '{"roundId": "K-N", "tableId": "LB-IT-01", "settledAt": "2026-10-10T12:00:00Z", "playerCards": ["7C", "10H"], "bankerCards": ["8C", "4S", "KD"], "bets": [{"betId": "KB-N", "account": "ACCOUNT", "type": "player", "stake": 6, "payout": 12}]}'  # fmt: skip


def test_a_provider_s_keys_are_its_own_whether_its_record_holds_an_escape_or_not(tmp_path, config):
    """A record with a JSON escape (``\\u00e9``, ``\\/``) is parsed again for a repeated key;
    it was held there to the round log's spellings too, and rejected: "unknown field
    'bankerCards': did you mean banker_cards?", while the same record written without the
    escape loaded."""
    profile = tmp_path / "camel.toml"
    profile.write_text(CAMEL_PROFILE, encoding="utf-8")
    accounts = ("acc-Jos\u00e9", "acc-Jos\\u00e9", "acc-J\\/os")
    lines = [
        CAMEL_LINE.replace("-N", f"-{number}").replace("ACCOUNT", account)
        for number, account in enumerate(accounts, 1)
    ]
    path = tmp_path / "hands.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    records, rejects = read(path, config, str(profile))
    assert rejects == []
    assert [bet.account for record in records for bet in record.bets] == [
        "acc-Jos\u00e9", "acc-Jos\u00e9", "acc-J/os",
    ]  # fmt: skip
    repeated = lines[1].replace('"tableId"', '"tableId": "LB-IT-01", "tableId"')
    path.write_text(repeated + "\n", encoding="utf-8")
    _, (reject,) = read(path, config, str(profile))
    assert reject.reason == "bad_json" and "'tableId' appears twice" in reject.message


def test_times_written_without_their_offset_are_read_in_the_profile_s_zone(tmp_path, config):
    """An export that writes Rome's clock times with no offset (a common back office): with
    ``[times] zone``, each is read with the offset it had in Rome, summer or winter, and its
    round falls in the month Rome's clock says; a time written with an offset is read as
    written. The clock time that came twice the night the clocks went back cannot be placed
    (``naive_timestamp``), and one they skipped never was (``bad_value``); without a zone,
    a time without its offset is a ``naive_timestamp`` reject, as in the round log."""
    zoned = tmp_path / "zoned.toml"
    zoned.write_text(
        CAMEL_PROFILE.replace(
            '[times]\nunit = "iso"', '[times]\nunit = "iso"\nzone = "Europe/Rome"'
        ),
        encoding="utf-8",
    )
    written = {
        "K-1": "2026-10-03 18:40:41.5",  # summer time: +02:00
        "K-2": "2026-11-30T23:59:59",  # winter time, the month's last second in Rome
        "K-3": "2026-10-31T23:30:00Z",  # an offset of its own: as written
        "K-4": "2026-10-25T02:30:00",  # twice in Rome that night
        "K-5": "2026-03-29T02:30:00",  # never in Rome: the clocks went from 02:00 to 03:00
        "K-6": " 2026-10-03T18:40:42 ",  # spaces around: read as without them
        "K-7": "2026-02-29T12:00:00",  # no such day
        "K-8": "9999-12-31T23:59:59",  # outside the years a log may hold
    }
    lines = [
        CAMEL_LINE.replace("-N", f"-{number[2:]}").replace("2026-10-10T12:00:00Z", at)
        for number, at in written.items()
    ]
    path = tmp_path / "local.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")

    records, rejects = read(path, config, str(zoned))

    assert [(r.round_id, r.settled_at, r.report_month) for r in records] == [
        ("K-1", "2026-10-03T16:40:41.500Z", "2026-10"),
        ("K-2", "2026-11-30T22:59:59.000Z", "2026-11"),
        ("K-3", "2026-10-31T23:30:00.000Z", "2026-11"),
        ("K-6", "2026-10-03T16:40:42.000Z", "2026-10"),
    ]
    assert [(r.round_id, r.reason) for r in rejects] == [
        ("K-4", "naive_timestamp"),
        ("K-5", "bad_value"),
        ("K-7", "bad_value"),
        ("K-8", "bad_value"),
    ]
    # each said of the text as the export wrote it, at its key
    assert "settled_at (settledAt) '2026-02-29T12:00:00' is not a valid date and time" in (
        rejects[2].message
    )
    assert "settled_at (settledAt) '9999-12-31T23:59:59': year outside 1900-9998" in (
        rejects[3].message
    )
    assert "settled_at (settledAt) '2026-10-25T02:30:00' is a clock time of Europe/Rome" in (
        rejects[0].message
    )
    assert "came twice" in rejects[0].message and "never was" in rejects[1].message
    assert [r.report_month for r in rejects] == [None] * 4
    plain = tmp_path / "camel.toml"
    plain.write_text(CAMEL_PROFILE, encoding="utf-8")
    _, rejects = read(path, config, str(plain))
    assert [(r.round_id, r.reason) for r in rejects] == [
        (number, "naive_timestamp") for number in ("K-1", "K-2", "K-4", "K-5", "K-6", "K-7")
    ] + [("K-8", "bad_value")]


def test_hands_of_card_objects_are_read_and_a_card_that_is_none_is_the_round_s_reject(
    tmp_path, config
):
    """An export writing each card as an object (``{"rank": "Q", "suit": "hearts"}``) loads
    with ``[cards] rank_key`` and ``suit_key``; a card object that is no card is its round's
    ``bad_card`` reject, naming the keys, and the other rounds load."""
    profile = tmp_path / "objects.toml"
    profile.write_text(
        CAMEL_PROFILE + '[cards]\nrank_key = "rank"\nsuit_key = "suit"\n', encoding="utf-8"
    )
    player = [{"rank": "7", "suit": "clubs"}, {"rank": "10", "suit": "hearts"}]
    banker = [
        {"rank": "8", "suit": "C"},
        {"rank": "4", "suit": "spades"},
        {"rank": "king", "suit": "♦"},
    ]
    good = json.loads(CAMEL_LINE.replace("-N", "-1")) | {
        "playerCards": player,
        "bankerCards": banker,
    }
    bad = json.loads(CAMEL_LINE.replace("-N", "-2")) | {
        "playerCards": player[:1] + [{"rank": "Q", "suit": "stars"}],
        "bankerCards": banker,
    }
    path = tmp_path / "objects.jsonl"
    path.write_text(json.dumps(good) + "\n" + json.dumps(bad) + "\n", encoding="utf-8")

    records, rejects = read(path, config, str(profile))

    assert [(r.round_id, r.player_cards, r.banker_cards) for r in records] == [
        ("K-1", "7C 10H", "8C 4S KD")
    ]
    (reject,) = rejects
    assert (reject.round_id, reject.reason) == ("K-2", "bad_card")
    assert "is not a card of a rank at 'rank'" in reject.message


def test_players_on_different_tables_in_one_game_are_refused(tmp_path, config):
    split = game()
    split["playersBets"][1]["tileId"] = "LB-IT-02"
    _, (reject,) = read(document(tmp_path / "games.json", split), config)
    assert (
        reject.reason == "bad_value" and "table_id (playersBets[].tileId) differs" in reject.message
    )


def test_a_numeric_feed_page_reads_codes_suit_rank_cards_seconds_and_cents(tmp_path, config):
    page = {
        "page": 1,
        "pages": 1,
        "count": 2,
        "data": [
            {"id": "N-1", "table": "LB-DK-01", "game": "live-baccarat-dk", "shoe": "S-1", "hand": 4,
             "opened": 1791052802.12, "closed": 1791052817, "settled": 1791052841.870, "state": 1,
             "cards": {"player": ["H9", "S13"], "banker": ["D5", "C2"]},
             "wagers": [{"id": "N-1-B1", "acct": "a", "code": 1, "amount": 5000, "win": 10000,
                         "cur": "DKK", "at": 1791052810.5},
                        {"id": "N-1-B2", "acct": "a", "code": 99, "amount": 5000, "win": 0, "cur": "DKK"}]},
            {"id": "N-2", "table": "LB-DK-01", "game": "live-baccarat-dk", "opened": 1791052802,
             "settled": 1791052841, "state": 9, "voidReason": "dealer error",
             "cards": {"player": [], "banker": []},
             "wagers": [{"id": "N-2-B1", "acct": "a", "code": 2, "amount": 5000, "win": 5000, "cur": "DKK"}]},
        ],
    }  # fmt: skip
    path = tmp_path / "page.json"
    path.write_text(json.dumps(page), encoding="utf-8")
    (first, second), rejects = read(path, config, "numeric-feed")
    assert rejects == []
    assert (first.shoe_id, first.hand_no, first.player_cards) == ("S-1", 4, "9H KS")
    assert first.started_at == "2026-10-03T18:40:02.120Z"
    assert [(b.bet_type, b.stake_cents, b.payout_cents, b.placed_at) for b in first.bets] == [
        ("player", 5000, 10000, "2026-10-03T18:40:10.500Z"),
        ("99", 5000, 0, None),  # a code the profile does not map: kept as given
    ]
    assert (second.status, second.void_reason, second.player_cards) == ("void", "dealer error", "")


def test_a_feed_s_code_written_as_a_whole_number_with_a_fraction_reads_as_that_number(
    tmp_path, config
):
    """JSON tells no integer from a float: a feed's ``"code": 1.0`` was kept as a bet of type
    '1.0' (unverified, where 1 is the Player bet), and ``"state": 9.0`` was a status no list
    held (read as settled by a profile that lists its void codes alone). A whole number reads
    as its code however written; a fraction, or a number past any code, stays as given."""
    page = {"page": 1, "pages": 1, "count": 2, "data": [
        {"id": "N-1", "table": "LB-DK-01", "game": "live-baccarat-dk", "settled": 1791052841,
         "state": "STATE", "cards": {"player": ["H9", "S13"], "banker": ["D5", "C2"]},
         "wagers": [{"id": f"N-1-B{n}", "acct": "a", "code": f"CODE{n}", "amount": 5000,
                     "win": 0, "cur": "DKK"} for n in range(4)]},
        {"id": "N-2", "table": "LB-DK-01", "game": "live-baccarat-dk", "settled": 1791052841,
         "state": "VOID", "voidReason": "dealer error", "cards": {"player": [], "banker": []},
         "wagers": [{"id": "N-2-B1", "acct": "a", "code": 2, "amount": 5000, "win": 5000,
                     "cur": "DKK"}]},
    ]}  # fmt: skip
    text = json.dumps(page).replace('"STATE"', "1.0").replace('"VOID"', "9e0")
    for n, code in enumerate(("1.0", "20E-1", "1.5", "1e999999999")):
        text = text.replace(f'"CODE{n}"', code)
    path = tmp_path / "page.json"
    path.write_text(text, encoding="utf-8")
    (first, second), rejects = read(path, config, "numeric-feed")
    assert rejects == []
    assert [bet.bet_type for bet in first.bets] == ["player", "banker", "1.5", "1e999999999"]
    assert (first.status, second.status, second.void_reason) == ("settled", "void", "dealer error")
    builtin = (DATA_FOLDER / "numeric-feed.toml").read_text(encoding="utf-8")
    void_only = tmp_path / "void-only.toml"
    void_only.write_text(builtin.replace('settled = ["1"]\n', ""), encoding="utf-8")
    (_, second), rejects = read(path, config, str(void_only))
    assert (rejects, second.status) == ([], "void")


FLAT_HEADER = "Round,Table,Shoe,Hand,Opened,Closed,Settled,Outcome,Void reason,P1,P2,P3,B1,B2,B3,Bet,Account,Bet type,Stake,Net win,Currency,Placed"  # fmt: skip


def flat(path: Path, *rows_: str, header: str = FLAT_HEADER) -> Path:
    path.write_text("\n".join((header, *rows_)) + "\n", encoding="utf-8")
    return path


ROUND_CELLS = "F-1,LB-IT-01,S-1,7,2026-10-03 20:40:02.120+02:00,2026-10-03 20:40:17+02:00,2026-10-03 20:40:41.870+02:00,Player,,9H,KS,,5D,2C,"  # fmt: skip


def test_a_flat_csv_export_groups_a_round_s_rows_and_reads_net_wins(tmp_path, config):
    path = flat(
        tmp_path / "bets.csv",
        f"{ROUND_CELLS},F-1-B1,a,Banker,25.00,-25.00,EUR,2026-10-03 20:40:09.5+02:00",
        f"{ROUND_CELLS},F-1-B2,b,Player,10.00,10.00,EUR,",
        f"{ROUND_CELLS},F-1-B3,b,Kings,5.00,-5.00,EUR,",
        f"{ROUND_CELLS.replace('F-1', 'F-2')},,,,,,,",
    )
    (first, second), rejects = read(path, config, "flat-csv")
    assert rejects == []
    assert (first.game_id, first.hand_no, first.settled_at) == ("live-baccarat-it", 7, "2026-10-03T18:40:41.870Z")  # fmt: skip
    assert [(b.bet_type, b.stake_cents, b.payout_cents, b.source_line) for b in first.bets] == [
        ("banker", 2500, 0, 2),
        ("player", 1000, 2000, 3),
        ("Kings", 500, 0, 4),  # a type the profile does not map: kept as given
    ]
    assert first.bets[0].placed_at == "2026-10-03T18:40:09.500Z"
    assert (second.round_id, second.bets, second.source_line) == ("F-2", [], 5)


def test_an_empty_card_column_before_a_filled_one_rejects_the_round(tmp_path, config):
    """P1 9H, P2 empty, P3 KS: read on past the empty column, KS took P2's place and the round
    loaded as 9H KS, a hand the table never dealt, settled by verify as if it had been."""
    gap = ROUND_CELLS.replace(",9H,KS,,", ",9H,,KS,")
    path = flat(tmp_path / "bets.csv", f"{gap},F-1-B1,a,Banker,25.00,-25.00,EUR,")
    records, (reject,) = read(path, config, "flat-csv")
    assert records == [] and (reject.reason, reject.round_id) == ("bad_card", "F-1")
    assert reject.message == (
        "player_cards (P1, P2, P3): P2 is empty, yet P3 after it holds a card: a hand's cards"
        " fill its fields in the order dealt"
    )


def test_rows_of_one_round_that_disagree_reject_the_round(tmp_path, config):
    path = flat(
        tmp_path / "bets.csv",
        f"{ROUND_CELLS},F-1-B1,a,Banker,25.00,-25.00,EUR,",
        f"{ROUND_CELLS.replace(',Player,', ',Banker,')},F-1-B2,b,Player,10.00,10.00,EUR,",
    )
    records, (reject,) = read(path, config, "flat-csv")
    assert records == [] and reject.source_line == 2 and reject.round_id == "F-1"
    assert "line 3: column Outcome 'Banker' differs from the round's first row" in reject.message


def test_a_round_of_rows_past_a_json_round_s_bound_is_one_reject_and_is_not_held(
    tmp_path, config, monkeypatch
):
    """600,000 rows of one round id were held in memory (1.6 GB). Past the bound of a JSON
    Lines round (4 MiB; 3,000 characters here) the rest of its rows are counted and streamed
    past, the round is one reject, and the next round loads."""
    monkeypatch.setattr("reporting.ingest.limits.MAX_LINE_BYTES", 3_000)
    bets = [f"{ROUND_CELLS},F-1-B{n},a,Banker,5.00,-5.00,EUR," for n in range(40)]
    path = flat(tmp_path / "bets.csv", *bets, f"{ROUND_CELLS.replace('F-1', 'F-2')},,,,,,,")
    (second,), (reject,) = read(path, config, "flat-csv")
    assert (reject.source_line, reject.round_id, reject.reason) == (2, "F-1", "bad_value")
    assert reject.message == "a round of 40 rows (lines 2-41) and over 3,000 characters: not read"
    assert reject.raw_text == bets[0]  # its first row only
    assert (second.round_id, second.source_line) == ("F-2", 42)


def test_a_round_of_more_rows_than_any_round_holds_is_one_reject_at_a_bounded_cost(
    tmp_path, config, monkeypatch
):
    """Short rows stay within a round's characters long after its memory is gone: 4 million
    rows of one character (an 8 MB file) were one round of some 1.5 GB held. Past
    MAX_ROUND_ROWS rows (100,000; 1,000 here) the rest are counted and streamed past: one
    reject, the next round loads, and only the rows up to the bound are held."""
    monkeypatch.setattr("reporting.ingest.limits.MAX_ROUND_ROWS", 1_000)
    first = f"{ROUND_CELLS},F-1-B1,a,Banker,5.00,-5.00,EUR,"
    short = f"{ROUND_CELLS[:3]}" + "," * 21  # the round id, and every other cell empty
    path = tmp_path / "bets.csv"
    with path.open("w", encoding="utf-8") as out:
        out.write(f"{FLAT_HEADER}\n{first}\n")
        out.write(f"{short}\n" * 40_000)  # some 18 MB held, were they all kept
        out.write(f"{ROUND_CELLS.replace('F-1', 'F-2')},,,,,,,\n")
    tracemalloc.start()
    try:
        (second,), (reject,) = read(path, config, "flat-csv")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert (reject.source_line, reject.round_id, reject.reason) == (2, "F-1", "bad_value")
    assert reject.message == "a round of 40,001 rows (lines 2-40002) and over 1,000 rows: not read"
    assert (second.round_id, second.source_line) == ("F-2", 40_003)
    assert peak < 6 * 2**20, f"{peak / 2**20:.1f} MiB"


def test_a_byte_that_is_not_utf8_in_a_round_id_rejects_its_row_readably(tmp_path, config):
    """The reject kept the round id's byte as a surrogate escape, which SQLite cannot store:
    the ingest stopped with an internal error."""
    path = tmp_path / "bets.csv"
    bad = f"{ROUND_CELLS.replace('F-1', 'F-?')},F-2-B1,a,Banker,5.00,-5.00,EUR,"
    flat(path, f"{ROUND_CELLS},F-1-B1,a,Banker,5.00,-5.00,EUR,", bad)
    path.write_bytes(path.read_bytes().replace(b"F-?", b"F-\xff"))
    (loaded,), (reject,) = read(path, config, "flat-csv")
    assert loaded.round_id == "F-1"
    assert (reject.source_line, reject.round_id) == (3, "F-\ufffd")
    assert reject.message == "not UTF-8 text (a byte that is not UTF-8)"
    db = tmp_path / "store.sqlite"
    done = run_main("ingest", str(path), "--profile", "flat-csv", "--db", str(db), "--config", str(tmp_path / "operator.toml"))  # fmt: skip
    assert done.returncode == 1, done.stderr
    assert rows(db, "SELECT line, round_id FROM rejected_records") == [(3, "F-\ufffd")]


def test_a_profile_reads_a_tab_separated_export(tmp_path, config):
    """``delimiter = "\\t"``, which the key offers, was refused as an empty text."""
    profile = tmp_path / "tabbed.toml"
    text = (
        (DATA_FOLDER / "flat-csv.toml")
        .read_text(encoding="utf-8")
        .replace('name = "flat-csv"', 'name = "tabbed"')
    )
    profile.write_text(text + '\n[csv]\ndelimiter = "\\t"\n', encoding="utf-8")
    path = tmp_path / "bets.tsv.csv"
    cells = f"{ROUND_CELLS},F-1-B1,a,Banker,25.00,-25.00,EUR,".split(",")
    path.write_text(
        FLAT_HEADER.replace(",", "\t") + "\n" + "\t".join(cells) + "\n", encoding="utf-8"
    )
    loaded = load_profile(str(profile))
    assert loaded.delimiter == "\t"
    records = list(read_source(Source(path, "csv", profile=loaded), config.games, 1000))
    (only,) = [record for batch in records for record in batch.records]
    assert (only.round_id, [bet.stake_cents for bet in only.bets]) == ("F-1", [2500])


def test_a_quote_never_closed_is_named_with_the_lines_it_swallowed(tmp_path, config):
    """One unclosed quote reads the rest of the file as one cell: the reject used to say only
    "row of 17 cells under a header of 22", with nothing of the quote or the lines lost. Each
    line it took is a reject of its own, naming its round: rounds F-3 and F-4 were lost
    without a word."""
    path = flat(
        tmp_path / "bets.csv",
        f"{ROUND_CELLS},F-1-B1,a,Banker,25.00,-25.00,EUR,",
        f'{ROUND_CELLS.replace("F-1", "F-2")},F-2-B1,"a,Banker,25.00,-25.00,EUR,',
        f"{ROUND_CELLS.replace('F-1', 'F-3')},F-3-B1,a,Banker,25.00,-25.00,EUR,",
        f"{ROUND_CELLS.replace('F-1', 'F-4')},F-4-B1,a,Banker,25.00,-25.00,EUR,",
    )
    (first,), (reject, *swallowed) = read(path, config, "flat-csv")
    assert first.round_id == "F-1"
    assert (reject.source_line, reject.round_id) == (3, "F-2")
    assert reject.message == (
        "lines 3-5 read as one row (a quoted cell opened on line 3 runs to line 5): 17 cells"
        " under a header of 22"
    )
    assert [(taken.source_line, taken.round_id, taken.message) for taken in swallowed] == [
        (
            line,
            round_id,
            "read into the row of line 3: a quoted cell opened on line 3 runs to line 5; this"
            " line is not read as a row",
        )
        for line, round_id in ((4, "F-3"), (5, "F-4"))
    ]
    assert [taken.raw_text for taken in swallowed] == path.read_text().splitlines()[3:]


def test_a_quote_never_closed_past_a_cell_s_bound_names_its_round_and_its_lines(tmp_path, config):
    """An open quote on line 3 reads the rows after it into one cell until the cell's bound:
    the reject named neither its round nor the lines it swallowed, and kept the text of the
    line the bound was met on, another round's row, as if that one were bad."""
    rows = [
        f"{ROUND_CELLS.replace('F-1', f'F-{n}')},F-{n}-B1,a,Banker,25.00,-25.00,EUR,"
        for n in range(1, 601)
    ]
    rows[1] = rows[1].replace(",F-2-B1,a,", ',F-2-B1,"a,')
    records, (reject, *swallowed) = read(flat(tmp_path / "bets.csv", *rows), config, "flat-csv")
    assert (reject.source_line, reject.round_id, reject.report_month) == (3, "F-2", "2026-10")
    assert reject.raw_text == rows[1]
    last = int(re.search(r"^lines 3-(\d+) ", reject.message)[1])
    assert reject.message == (
        f"lines 3-{last} read as one row (a quoted cell opened on line 3 runs to line"
        f" {last}): a cell is longer than 65,536 characters"
    )
    assert 300 < last < 600  # the bound met partway
    # The rows after the swallowed lines load; line L holds round F-(L-1). Each swallowed
    # line is a reject of its round (they were lost without a word).
    assert [record.round_id for record in records] == ["F-1", *(f"F-{n}" for n in range(last, 601))]
    assert [(taken.source_line, taken.round_id) for taken in swallowed] == [
        (line, f"F-{line - 1}") for line in range(4, last + 1)
    ]


def test_a_rejected_flat_csv_round_keeps_its_month_in_its_game_s_time_zone(tmp_path, config):
    """A round rejected for its stake, settled at midnight on 1 October in Rome (22:00 on
    30 September in UTC): its reject bears on October (reporting.verify.bearing), the month
    of its game's clock; a round whose settlement time cannot be read keeps no month."""
    midnight = ROUND_CELLS.replace("2026-10-03 20:40:41.870+02:00", "2026-10-01 00:00:00+02:00")
    midnight = midnight.replace("2026-10-03 20:40", "2026-09-30 23:59")  # opened and closed
    unplaced = ROUND_CELLS.replace("F-1", "F-2").replace("2026-10-03 20:40:41.870+02:00", "soon")
    path = flat(
        tmp_path / "bets.csv",
        f"{midnight},F-1-B1,a,Banker,25.0x,-25.00,EUR,",
        f"{unplaced},F-2-B1,a,Banker,25.00,-25.00,EUR,",
    )
    records, rejects = read(path, config, "flat-csv")
    assert records == []
    assert [(r.round_id, r.reason, r.report_month) for r in rejects] == [
        ("F-1", "bad_money", "2026-10"),
        ("F-2", "bad_value", None),
    ]


def test_a_net_loss_larger_than_the_stake_is_bad_money(tmp_path, config):
    path = flat(tmp_path / "bets.csv", f"{ROUND_CELLS},F-1-B1,a,Banker,25.00,-26.00,EUR,")
    _, (reject,) = read(path, config, "flat-csv")
    assert reject.reason == "bad_money" and "loses more than the stake 25.00" in reject.message


def test_a_negative_gross_payout_is_bad_money_naming_its_column_and_value(tmp_path, config):
    """It was "bets[0].payout must not be negative": no column, no value as written."""
    profile = tmp_path / "gross.toml"
    profile.write_text(
        (DATA_FOLDER / "flat-csv.toml")
        .read_text(encoding="utf-8")
        .replace('name = "flat-csv"', 'name = "gross"')
        .replace('payout = "net"', 'payout = "gross"'),
        encoding="utf-8",
    )
    path = flat(tmp_path / "bets.csv", f"{ROUND_CELLS},F-1-B1,a,Banker,25.00,-0.50,EUR,")
    _, (reject,) = read(path, config, str(profile))
    assert (reject.reason, reject.message) == (
        "bad_money",
        "bets[0].payout (Net win) '-0.50' must not be negative (a gross payout is what was"
        " paid back: 0 when the bet lost)",
    )


@pytest.mark.parametrize("stake", ["0.00", "-25.00"])
def test_a_stake_not_above_zero_is_bad_money_naming_its_column_and_value(tmp_path, config, stake):
    path = flat(tmp_path / "bets.csv", f"{ROUND_CELLS},F-1-B1,a,Banker,{stake},-25.00,EUR,")
    _, (reject,) = read(path, config, "flat-csv")
    assert (reject.reason, reject.message) == (
        "bad_money",
        f"bets[0].stake (Stake) '{stake}' must be greater than zero",
    )


def test_a_csv_header_without_a_column_the_profile_reads_makes_the_file_unusable(
    tmp_path, config, sample_config_path
):
    path = flat(tmp_path / "bets.csv", header=FLAT_HEADER.replace(",Net win", ",Win"))
    run = run_main("ingest", str(path), "--profile", "flat-csv", "--db", str(tmp_path / "s.sqlite"))
    assert run.returncode == 2
    assert "CSV header lacks column(s) Net win that the log profile flat-csv reads" in run.stderr
    assert "Traceback" not in run.stderr


def test_ingest_with_a_profile_stores_it_rejects_at_index_and_is_idempotent(
    tmp_path, sample_config_path
):
    path = document(tmp_path / "games.json", game("LB-IT-01-1"), game("LB-IT-01-2", endDate="soon"))
    db = str(tmp_path / "store.sqlite")
    first = run_main(
        "ingest",
        str(path),
        "--profile",
        "replay-api",
        "--db",
        db,
        "--config",
        str(sample_config_path),
    )
    assert first.returncode == 1, first.stderr  # one rejected game
    assert f"{path}:#1: bad_value: settled_at (endDate)" in first.stdout
    assert rows(Path(db), "SELECT format, profile, length(profile_sha256) FROM ingest_log") == [("json", "replay-api", 64)]  # fmt: skip
    assert rows(Path(db), "SELECT count(*) FROM rounds") == [(1,)]
    again = run_main(  # the file by its name, so that its row fits 80 columns unfolded
        "ingest",
        path.name,
        "--profile",
        "replay-api",
        "--db",
        db,
        "--config",
        str(sample_config_path),
        cwd=path.parent,
    )
    assert again.returncode == 0 and "already ingested" in again.stdout  # as for any file
    assert rows(Path(db), "SELECT count(*) FROM rounds") == [(1,)]


def test_a_known_file_given_with_another_profile_is_said_to_stay_as_first_read(
    tmp_path, sample_config_path
):
    """A file loaded again after its profile was mended said "already ingested, skipped" and
    nothing more: the operator took the store as read with the mended profile. The store
    reads a file once; ingest now says with what, as the monthly job does."""
    path = document(tmp_path / "games.json", game("LB-IT-01-1"))
    mine = tmp_path / "mine.toml"
    mine.write_text((DATA_FOLDER / "replay-api.toml").read_text(encoding="utf-8"), encoding="utf-8")
    db = str(tmp_path / "store.sqlite")

    def load(profile: str):
        run = run_main("ingest", str(path), "--profile", profile, "--db", db, "--config", str(sample_config_path))  # fmt: skip
        assert run.returncode == 0 and "Traceback" not in run.stderr, run.stderr
        return run.stderr

    stays = "a file is read once per store, known by its content, and its rounds stay as first read (a new store reads it as given now)"  # fmt: skip
    assert "warning" not in load(str(mine))
    assert "warning" not in load(str(mine))  # the same profile, the same file: nothing to say
    with mine.open("a", encoding="utf-8") as edited:
        edited.write("# mended\n")
    assert load(str(mine)) == (
        f"baccarat-report: warning: {path} was read before as log profile replay-api ({mine})"
        f" as its file was then (it has changed since), not as log profile replay-api ({mine})"
        f" now: {stays}\n"
    )
    assert f"was read before as log profile replay-api ({mine})" in load("replay-api")


def test_a_path_of_the_profile_that_matches_nothing_is_said_at_ingest(tmp_path, sample_config_path):
    """A misspelt path of an optional field (``startdate``) stored every round's start
    empty, without a reject and exit 0; only verify's checks not run told of it later, and of
    a hand number nothing did. Ingest names each field empty in every round of the file's
    first batch; a right profile's file gets no such line."""
    path = document(tmp_path / "games.json", game("LB-IT-01-1"), game("LB-IT-01-2"))
    misspelt = tmp_path / "mine.toml"
    text = (DATA_FOLDER / "replay-api.toml").read_text(encoding="utf-8")
    misspelt.write_text(text.replace('started_at = "startDate"', 'started_at = "startdate"'), encoding="utf-8")  # fmt: skip
    config = str(sample_config_path)
    run = run_main("ingest", str(path), "--profile", str(misspelt), "--db", str(tmp_path / "a.sqlite"), "--config", config)  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert run.stderr == (
        f"baccarat-report: warning: {path}: started_at (startdate) is empty in its first 2"
        " rounds: stored empty; a path of the log profile that matches nothing in the export"
        " stores every value so, without a reject\n"
    )
    right = run_main("ingest", str(path), "--profile", "replay-api", "--db", str(tmp_path / "b.sqlite"), "--config", config)  # fmt: skip
    assert (right.returncode, right.stderr) == (0, "")


def test_a_file_the_profile_does_not_read_is_refused_by_name(tmp_path):
    (tmp_path / "games.xml").write_text("<games/>", encoding="utf-8")
    run = run_main("ingest", str(tmp_path / "games.xml"), "--profile", "replay-api", "--db", str(tmp_path / "s.sqlite"))  # fmt: skip
    assert run.returncode == 2
    assert "not a file the log profile replay-api reads (*.json, *.json.gz, *.jsonl, *.jsonl.gz)" in run.stderr  # fmt: skip


def test_an_element_of_a_json_document_is_located_by_its_index():
    assert str(SourceLocation("inbox/games.json", 17)) == "inbox/games.json:#17"
    assert str(SourceLocation("inbox/games.JSON.gz", 0)) == "inbox/games.JSON.gz:#0"
    assert str(SourceLocation("inbox/games.jsonl", 17)) == "inbox/games.jsonl:17"


def test_csv_module_is_used_only_through_the_reader():
    assert csv.field_size_limit() > 0  # the reader sets its bound and restores the default


def test_a_csv_row_that_is_not_utf8_or_too_long_is_rejected_alone(tmp_path, config):
    good = f"{ROUND_CELLS},F-1-B1,a,Banker,25.00,-25.00,EUR,"
    bad = f"{ROUND_CELLS.replace('F-1', 'F-2')},F-2-B1,a\xff,Banker,25.00,-25.00,EUR,"
    long = f"{ROUND_CELLS.replace('F-1', 'F-3')},F-3-B1,{'x' * 2_000_000},Banker,25.00,-25.00,EUR,"
    last = f"{ROUND_CELLS.replace('F-1', 'F-4')},F-4-B1,a,Banker,25.00,-25.00,EUR,"
    path = tmp_path / "bets.csv"
    text = "\n".join((FLAT_HEADER, good, bad, long, last)) + "\n"
    path.write_bytes(text.encode("utf-8").replace("a\xff".encode(), b"a\xff"))
    records, rejects = read(path, config, "flat-csv")
    assert [record.round_id for record in records] == ["F-1", "F-4"]
    assert [(reject.source_line, reject.reason) for reject in rejects] == [
        (3, "bad_value"),
        (4, "bad_value"),
    ]
    assert "not UTF-8 text" in rejects[0].message
    assert "a cell is longer than 65,536 characters" in rejects[1].message
    assert len(rejects[1].raw_text) <= 10_000


def test_a_bad_row_rejects_its_whole_round_never_a_part_of_it(tmp_path, config):
    path = flat(
        tmp_path / "bets.csv",
        f"{ROUND_CELLS},F-1-B1,a,Banker,25.00,-25.00,EUR,",
        f"{ROUND_CELLS},F-1-B2,b,Player,10.00,10.00,EUR,,extra cell",
        f"{ROUND_CELLS},F-1-B3,b,Tie,5.00,-5.00,EUR,",
        f"{ROUND_CELLS.replace('F-1', 'F-2')},F-2-B1,a,Banker,25.00,-25.00,EUR,",
    )
    records, (reject,) = read(path, config, "flat-csv")
    assert [record.round_id for record in records] == ["F-2"]
    assert (reject.source_line, reject.round_id) == (3, "F-1")
    assert reject.message == (
        "row of 23 cells under a header of 22 (its round's 3 rows, lines 2-4, are not loaded)"
    )
    assert reject.raw_text.count("\n") == 2  # every row of the round


def load_flat(path: Path, config, tmp_path: Path) -> tuple[object, Path]:
    """``path`` ingested with the flat-csv profile into a new store: its result and store."""
    db = tmp_path / "store.sqlite"
    sources = discover_sources([path], load_profile("flat-csv"))
    with contextlib.closing(connect(db)) as connection:
        return ingest(connection, sources, config).files[0], db


def bets_of(round_id: str, *bets: str) -> list[str]:
    cells = ROUND_CELLS.replace("F-1", round_id)
    return [f"{cells},{round_id}-{bet},a,Banker,25.00,-25.00,EUR," for bet in bets]


@pytest.mark.parametrize("batch", [1, 2_000])  # apart in one batch, or the first part stored
def test_a_round_whose_rows_are_apart_loads_no_part(tmp_path, config, monkeypatch, batch):
    """F-1's rows at lines 2-3, then F-2's, then F-1's again: the first part loaded as a round
    of two bets (verify checked it as whole, its money counted in the month) and the second was
    a conflict with it. A round loads whole or not at all: neither part loads, both are named."""
    monkeypatch.setattr(load, "BATCH_ROUNDS", batch)
    path = flat(
        tmp_path / "bets.csv",
        *bets_of("F-1", "B1", "B2"),
        *bets_of("F-2", "B1"),
        *bets_of("F-1", "B3"),
        *bets_of("F-3", "B1"),
        *bets_of("F-1", "B4"),
    )
    result, db = load_flat(path, config, tmp_path)
    assert rows(db, "SELECT round_id FROM rounds ORDER BY round_id") == [("F-2",), ("F-3",)]
    assert rows(db, "SELECT round_id, count(*) FROM bets GROUP BY round_id") == [("F-2", 1), ("F-3", 1)]  # fmt: skip
    assert (result.rounds_loaded, result.bets_loaded, result.rejected_count) == (2, 2, 3)
    apart = "with another round's rows between: a round's rows must be together; neither part is loaded"  # fmt: skip
    assert rows(db, "SELECT line, reason, round_id, message FROM rejected_records ORDER BY line") == [
        (2, "conflict", "F-1", f"round 'F-1' has rows here and again at line 5, {apart}"),
        (5, "conflict", "F-1", f"round 'F-1' has rows at line 2 and again here, {apart}"),
        (7, "conflict", "F-1", "round 'F-1' has rows apart in this file (its first at line 2, not"
         " loaded): a round's rows must be together; this part is not loaded either"),
    ]  # fmt: skip
    assert rows(db, "SELECT rounds_loaded, bets_loaded, rejected FROM ingest_log") == [(2, 2, 3)]
    assert rows(db, "SELECT report_month, rounds, rejected FROM ingest_months") == [("2026-10", 2, 3)]  # fmt: skip


def test_a_round_given_again_whole_in_the_same_export_is_a_duplicate(tmp_path, config):
    path = flat(tmp_path / "bets.csv", *bets_of("F-1", "B1"), *bets_of("F-2", "B1"), *bets_of("F-1", "B1"))  # fmt: skip
    result, db = load_flat(path, config, tmp_path)
    assert (result.rounds_loaded, result.rounds_skipped_duplicate, result.rejected_count) == (
        2,
        1,
        0,
    )


def test_an_export_not_grouped_by_round_is_refused_whole(tmp_path, config, monkeypatch):
    monkeypatch.setattr(writer, "MAX_ROUNDS_APART", 2)
    parts = [bets_of(round_id, bet) for bet in ("B1", "B2") for round_id in ("F-1", "F-2", "F-3")]
    path = flat(tmp_path / "bets.csv", *(row for part in parts for row in part))
    result, db = load_flat(path, config, tmp_path)
    assert result.status == "failed" and rows(db, "SELECT count(*) FROM rounds") == [(0,)]
    assert result.error == (
        f"{path}: its rows are not grouped by round: more than 2 rounds have rows apart (the"
        " first, 'F-1', at line 2 and later): a round's rows must be together; sort the export"
        " by round, or ask its provider; nothing of it was loaded"
    )


def test_a_reject_leaves_nothing_for_the_collector(tmp_path, config):
    """Each reject of a profile's reader kept its exception, whose traceback held the frame
    that held it: a cycle per reject, which the paused collector never freed (a million
    rejected ``{}`` lines took 1.7 GB where the spec's reader takes 117 MB). A read of
    rejects leaves no cycle behind."""
    import gc

    path = tmp_path / "empty.jsonl"
    path.write_text(json.dumps(game()) + "\n" + "{}\n" * 5_000, encoding="utf-8")
    gc.collect()
    with cyclic_gc_paused():  # as ingest reads
        records, rejects = read(path, config)
        assert len(records) == 1 and len(rejects) == 5_000
        assert gc.collect() < 100  # a few of the reader's own, not a cycle per reject


def test_amounts_written_with_a_decimal_comma_read_as_the_same_money(tmp_path, sample_config_path):
    """An Italian back office writes "1.234,50" (and a semicolon between cells): the flat-csv
    sample so written, read with ``[money] decimal = ","`` and ``grouping = "."``, gives the
    very rounds the sample gives; an amount written the other way is that bet's round's
    ``bad_money`` reject, never a hundredfold amount. Each was a reject before."""
    sample = Path(__file__).resolve().parents[3] / "sample_data/profiles/flat-csv/bets-2026-10.csv"
    with sample.open(encoding="utf-8", newline="") as handle:
        table = list(csv.reader(handle))
    stake, net = table[0].index("Stake"), table[0].index("Net win")
    table[1][stake] = "1234.50"  # a stake past a thousand, grouped once written
    table[1][net] = "-1234.50"
    plain = tmp_path / "plain.csv"
    with plain.open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle).writerows(table)

    def italian(amount: str) -> str:
        if not amount:  # a round without bets: its bet cells empty
            return amount
        whole, _, cents = amount.partition(".")
        sign, digits = ("-", whole[1:]) if whole.startswith("-") else ("", whole)
        return f"{sign}{int(digits):,}".replace(",", ".") + f",{cents}"

    for row in table[1:]:
        row[stake], row[net] = italian(row[stake]), italian(row[net])
    assert table[1][stake] == "1.234,50" and table[2][stake] == "2,00"
    written = tmp_path / "italiano.csv"
    with written.open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle, delimiter=";").writerows(table)
    profile = tmp_path / "italiano.toml"
    profile.write_text(
        (DATA_FOLDER / "flat-csv.toml")
        .read_text(encoding="utf-8")
        .replace('name = "flat-csv"', 'name = "italiano"')
        .replace('payout = "net"', 'payout = "net"\ndecimal = ","\ngrouping = "."')
        + '\n[csv]\ndelimiter = ";"\n',
        encoding="utf-8",
    )
    config = load_config(sample_config_path)
    expected, none = read(plain, config, "flat-csv")
    assert none == [] and expected[0].bets[0].stake_cents == 123450
    assert read(written, config, str(profile)) == (expected, [])
    # the other way round: a point for the decimals is no amount of this profile
    table[2][stake] = "2.00"
    with written.open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle, delimiter=";").writerows(table)
    records, (reject,) = read(written, config, str(profile))
    assert len(records) == len(expected) - 1 and reject.reason == "bad_money"
    assert reject.message.endswith(
        "bets[1].stake (Stake) '2.00' is not an amount written with ',' for decimals and '.'"
        " between thousands"
    )


@pytest.mark.parametrize(
    ("marks", "quoted_cells", "bare_cells", "said", "cents"),
    [
        (  # a decimal comma
            'decimal = ","',
            ',"2,00","-2,00",',
            ",2,00,2,00,",
            "quote the amounts, or set [csv] delimiter",
            200,
        ),
        (  # thousands grouped by commas, the English style
            'grouping = ","',
            ',"1,234.00","-1,234.00",',
            ",1,234.00,1,234.00,",
            "thousands: an amount written without quotes (1,234.50)",
            123400,
        ),
    ],
    ids=["decimal comma", "thousands comma"],
)
def test_a_comma_mark_without_quotes_in_a_comma_separated_export_is_told_why(
    tmp_path, sample_config_path, marks, quoted_cells, bare_cells, said, cents
):
    """Amounts with a decimal comma, or thousands grouped by commas, in cells parted by
    commas: a quoted amount is one cell and loads; one without quotes is two, and its row's
    reject says so (it said only "row of 24 cells under a header of 22")."""
    sample = Path(__file__).resolve().parents[3] / "sample_data/profiles/flat-csv/bets-2026-10.csv"
    header, first, second = sample.read_text(encoding="utf-8").splitlines()[:3]
    quoted = first.replace(",2.00,-2.00,", quoted_cells)
    bare = second.replace(",2.00,2.00,", bare_cells)
    assert quoted != first and bare != second
    path = tmp_path / "export.csv"
    path.write_text("\n".join([header, quoted, bare]) + "\n", encoding="utf-8")
    profile = tmp_path / "commas.toml"
    profile.write_text(
        (DATA_FOLDER / "flat-csv.toml")
        .read_text(encoding="utf-8")
        .replace('name = "flat-csv"', 'name = "commas"')
        .replace('payout = "net"', f'payout = "net"\n{marks}'),
        encoding="utf-8",
    )
    records, (reject,) = read(path, load_config(sample_config_path), str(profile))
    assert records == [] and reject.reason == "bad_value"  # the round's rows load whole or not
    assert "row of 24 cells under a header of 22 (',' parts the cells and marks the amounts'" in (
        reject.message
    )
    assert said in reject.message
    path.write_text("\n".join([header, quoted]) + "\n", encoding="utf-8")
    (loaded,), none = read(path, load_config(sample_config_path), str(profile))
    assert none == [] and [bet.stake_cents for bet in loaded.bets] == [cents]


def test_blank_lines_of_a_csv_export_are_skipped_a_chunk_at_a_time(tmp_path, operator_config):
    """40 MiB of blank lines inside a provider's CSV export, between two rounds: read a line a
    step, 12 s of processor time here; the rounds after them keep their line numbers."""
    sample = Path(__file__).resolve().parents[3] / "sample_data/profiles/flat-csv/bets-2026-10.csv"
    lines = sample.read_bytes().splitlines(keepends=True)[:40]
    cut = next(n for n in range(2, 40) if lines[n].split(b",")[0] != lines[1].split(b",")[0])
    (tmp_path / "plain").mkdir()
    plain = tmp_path / "plain" / "bets-2026-10.csv"
    plain.write_bytes(b"".join(lines))
    blank = b"\n" * (30 << 20) + b"\r\n" * (5 << 20)
    export = tmp_path / "bets-2026-10.csv"
    export.write_bytes(b"".join(lines[:cut]) + blank + b"".join(lines[cut:]))
    expected, expected_rejects = read(plain, operator_config, "flat-csv")
    started = time.process_time()
    records, rejects = read(export, operator_config, "flat-csv")
    assert time.process_time() - started < 5
    moved = blank.count(b"\n")
    assert len(records) > 1 and [record.round_id for record in records] == [
        record.round_id for record in expected
    ]
    assert [record.source_line for record in records] == [
        record.source_line + (moved if record.source_line > cut else 0) for record in expected
    ]
    assert [reject.source_line for reject in rejects] == [
        reject.source_line + moved for reject in expected_rejects
    ]


#: The docs' worked profile (docs/providers/profiles.md): a Roma studio's hand a line.
ROMA = """\
[profile]
name = "roma-hands"
layouts = ["jsonl"]
[round]
round_id = "hand.id"
table_id = "hand.table"
settled_at = "hand.at"
status = "hand.result"
player_cards = "hand.p"
banker_cards = "hand.b"
[bet]
each = "wagers[]"
bet_id = "wagers[].ref"
account = "wagers[].user"
type = "wagers[].on"
stake = "wagers[].amt"
payout = "wagers[].win"
[status]
void = ["X"]
[cards]
dialect = "rank_suit"
[times]
unit = "iso"
[money]
unit = "major"
payout = "net"
[bet_types]
PLAYER = "player"
"""


def roma_hand(number: int, wagers: list | None = None) -> dict:
    """A hand of the worked profile's export: player 9 beats banker 7, a won Player bet."""
    hand = {
        "hand": {"id": f"R-{number}", "table": "LB-IT-01", "at": "2026-10-03T18:40:41+02:00",
                 "result": "P", "p": ["9h", "Ks"], "b": ["5d", "2c"]},
        "wagers": [{"ref": f"W-{number}", "user": "acc-7", "on": "PLAYER", "amt": 10, "win": 10}],
    }  # fmt: skip
    if wagers is not None:
        hand["wagers"] = wagers
    return hand


def roma_export(path: Path, *hands: dict) -> Path:
    path.write_text("".join(json.dumps(hand) + "\n" for hand in hands), encoding="utf-8")
    return path


def refused_whole(path: Path, profile: Path, db: Path, config: str) -> str:
    """What ``ingest`` says of ``path`` read with ``profile``, on one line, having refused it
    whole: exit 2, nothing of it recorded."""
    run = run_main("ingest", str(path), "--profile", str(profile), "--db", str(db), "--config", config)  # fmt: skip
    assert run.returncode == 2, run.stderr
    assert rows(db, "SELECT count(*) FROM ingest_log") == [(0,)]
    return " ".join(run.stderr.split())


@pytest.mark.parametrize(("each", "rounds"), [("wager[]", 3), ("wagers[].parts[]", 2)])
def test_a_file_none_of_whose_rounds_holds_its_bets_where_the_profile_reads_them_is_refused(
    tmp_path, sample_config_path, each, rounds
):
    """A misspelt ``[bet] each`` (``wager[]`` for the export's ``wagers``, or a level the
    export does not have) loaded every round without its bets, exit 0, no reject and no
    warning; verify then found nothing, and the month's pages were written from no stake.
    Such a file is refused whole, the path and the first round's keys named; nothing of it is
    stored, and it loads once the profile is mended."""
    # a round nobody bet on first (an empty array at the path's first level) tells nothing
    path = roma_export(tmp_path / "hands.jsonl", roma_hand(0, []), roma_hand(1), roma_hand(2))
    mended, misspelt = tmp_path / "roma.toml", tmp_path / "mine.toml"
    mended.write_text(ROMA, encoding="utf-8")
    misspelt.write_text(ROMA.replace("wagers[]", each), encoding="utf-8")
    db, config = tmp_path / "store.sqlite", str(sample_config_path)
    assert (
        f"{path}: no round of it holds its bets where the log profile roma-hands ({misspelt})"
        f" reads them, at {each} ([bet] each): its {rounds} rounds would load without their"
        " bets. Mend the profile's path, or read the file with the profile of its export (the"
        " first such round's keys: hand, wagers)"
    ) in refused_whole(path, misspelt, db, config)
    right = run_main("ingest", str(path), "--profile", str(mended), "--db", str(db), "--config", config)  # fmt: skip
    assert right.returncode == 0, right.stderr
    assert (rows(db, "SELECT count(*) FROM rounds"), rows(db, "SELECT count(*) FROM bets")) == (
        [(3,)],
        [(2,)],
    )


def test_rounds_without_bets_written_as_such_load(tmp_path, config):
    """A round whose export writes its empty array of bets (``"wagers": []``), or one without
    the array beside a round that holds bets, is a round without bets: it loads. A file whose
    one round lacks the array is refused as any file none of whose rounds holds it."""
    profile = tmp_path / "roma.toml"
    profile.write_text(ROMA, encoding="utf-8")
    lacking = roma_hand(3)
    del lacking["wagers"]
    for name, hands, bets in (
        ("none", [roma_hand(1, []), roma_hand(2, [])], [0, 0]),
        ("mixed", [lacking, roma_hand(4)], [0, 1]),
    ):
        records, rejects = read(roma_export(tmp_path / f"{name}.jsonl", *hands), config, str(profile))  # fmt: skip
        assert rejects == [] and [len(record.bets) for record in records] == bets, name
    with pytest.raises(InputError, match="its 1 round would load without its bets"):
        read(roma_export(tmp_path / "alone.jsonl", lacking), config, str(profile))


def test_a_file_read_by_the_wrong_reader_is_refused_and_stays_readable(
    tmp_path, sample_config_path
):
    """The spec's round log read with a provider's profile (or a provider's export read
    without its own) loaded as a reject a record, each "missing" its round id: the file was
    recorded, known by its hash, and read again with the right reader it was "already
    ingested", exit 0, its rounds never loaded, the month published from none. A file none of
    whose records holds a round id where its reader reads one is refused whole (exit 2),
    nothing of it recorded; the right reader then loads it."""
    spec_log = Path(__file__).resolve().parents[3] / "sample_data/inbox/round-log-2026-10.jsonl.gz"
    roma = tmp_path / "roma.toml"
    roma.write_text(ROMA, encoding="utf-8")
    export = roma_export(tmp_path / "hands.jsonl", roma_hand(1), roma_hand(2))
    db, config = tmp_path / "store.sqlite", str(sample_config_path)
    with gzip.open(spec_log, "rt", encoding="utf-8") as log:
        lines = sum(1 for line in log if line.strip())
    for path, wrong, right, first in (
        (
            spec_log,
            ("--profile", "replay-api"),
            (),
            f"the log profile replay-api reads one (required field round_id (gameUid) is missing; {lines:,} of its {lines:,} records)",
        ),
        (
            export,
            (),
            ("--profile", str(roma)),
            "the spec's round log reader reads one (required field round_id is missing; 2 of its 2 records)",
        ),
    ):  # fmt: skip
        run = run_main("ingest", str(path), *wrong, "--db", str(db), "--config", config)
        assert run.returncode == 2, run.stderr
        said = " ".join(run.stderr.split())
        assert f"{path}: no record of it holds a round id where {first}: not a file it reads; nothing of it was loaded" in said, said  # fmt: skip
        assert rows(db, "SELECT count(*) FROM ingest_log WHERE file_name = ?", (path.name,)) == [
            (0,)
        ]
        read_right = run_main("ingest", str(path), *right, "--db", str(db), "--config", config)
        assert read_right.returncode in (0, 1) and "already ingested" not in read_right.stderr
    assert rows(db, "SELECT count(*) FROM rounds WHERE round_id IN ('R-1', 'R-2')") == [(2,)]
    assert rows(db, "SELECT count(*) FROM rounds") > [(1_000,)]


def test_a_file_none_of_whose_bets_holds_its_currency_where_the_profile_reads_it_is_refused(
    tmp_path, sample_config_path
):
    """A misspelt ``[bet] currency`` put every bet in its game's currency without a word: a
    bet the export writes in DKK on a game in euros, which the right profile rejects, was
    stored as EUR 10.00. A file none of whose bets holds a currency there is refused whole;
    one whose bets hold it now and then loads, the others in their game's currency."""
    with_currency = ROMA.replace('payout = "wagers[].win"', 'payout = "wagers[].win"\ncurrency = "wagers[].cur"')  # fmt: skip
    right, misspelt = tmp_path / "roma.toml", tmp_path / "mine.toml"
    right.write_text(with_currency, encoding="utf-8")
    misspelt.write_text(with_currency.replace("wagers[].cur", "wagers[].currency"), encoding="utf-8")  # fmt: skip
    wager = {"ref": "W-2", "user": "acc-7", "on": "PLAYER", "amt": 10, "win": 10, "cur": "DKK"}
    export = roma_export(tmp_path / "hands.jsonl", roma_hand(1), roma_hand(2, [wager]))
    db, config = tmp_path / "store.sqlite", str(sample_config_path)
    assert (
        f"{export}: no bet of it holds a currency where the log profile roma-hands ({misspelt})"
        " reads it, at wagers[].currency ([bet] currency): its 2 bets would be taken in their"
        " game's currency, whatever the export writes."
    ) in refused_whole(export, misspelt, db, config)
    read_right = run_main("ingest", str(export), "--profile", str(right), "--db", str(db), "--config", config)  # fmt: skip
    assert read_right.returncode == 1, read_right.stderr  # the bet in DKK: its round's reject
    assert rows(db, "SELECT round_id, currency FROM bets") == [("R-1", "EUR")]
    assert rows(db, "SELECT reason FROM rejected_records") == [("bad_value",)]


def test_an_id_written_as_a_json_number_reads_as_the_whole_number_it_equals(tmp_path, config):
    """JSON tells no integer from a float: a round written ``1e5`` in one export and
    ``100000`` in another was stored as two rounds (``"1e5"`` and ``"100000"``), the same
    round loaded twice where it is one, or a conflict. An id, a bet's and an account too,
    reads as the whole number it equals, as a code does; one with a fraction as written."""
    record = game("ID")
    record["playersBets"][0]["playerId"] = 7
    text = json.dumps(record).replace('"gameUid": "ID"', '"gameUid": 1e5')
    text = text.replace('"betId": "ID-B1"', '"betId": 12.50e1').replace('"playerId": 7', '"playerId": 7.0')  # fmt: skip
    (loaded,), rejects = read(document(tmp_path / "games.json", text), config)
    assert rejects == []
    assert (loaded.round_id, loaded.bets[0].bet_id, loaded.bets[0].account) == (
        "100000",
        "125",
        "7",
    )
    fraction = document(
        tmp_path / "fraction.json", text.replace('"gameUid": 1e5', '"gameUid": 1.5')
    )
    (loaded,), _ = read(fraction, config)
    assert loaded.round_id == "1.5"
    for written, read_as in (("1e19", "1" + "0" * 19), ("0e999999999", "0"), ("-0.0", "0")):
        other = document(tmp_path / "other.json", text.replace('"gameUid": 1e5', f'"gameUid": {written}'))  # fmt: skip
        (loaded,), _ = read(other, config)
        assert loaded.round_id == read_as, written


def test_an_element_the_bets_are_read_through_that_is_no_object_rejects_its_round(tmp_path, config):
    """``"playersBets": ["x", {...}]``: the player ``"x"`` was passed over without a word, its
    bets (had it been one) in no figure. Its round is a ``bad_value`` reject, as a bet that is
    no object already was."""
    record = game("G-1")
    record["playersBets"].insert(0, "x")
    records, (rejected,) = read(document(tmp_path / "games.json", record), config)
    assert records == [] and rejected.reason == "bad_value"
    assert rejected.message.endswith("an element the bets are read through is 'x', not an object")


def test_a_json_document_none_of_whose_games_holds_its_bets_is_refused(tmp_path, config):
    """The JSON document's reader refuses as the JSON Lines reader does: replay-api's games
    read through ``playersBets[].wagers[]`` hold players and no wagers."""
    misspelt = tmp_path / "mine.toml"
    text = (DATA_FOLDER / "replay-api.toml").read_text(encoding="utf-8")
    misspelt.write_text(text.replace("playersBets[].bets[]", "playersBets[].wagers[]"), "utf-8")
    path = document(tmp_path / "games.json", game("G-1"), game("G-2"))
    with pytest.raises(InputError, match=r"its 2 rounds would load without their bets"):
        read(path, config, str(misspelt))


def test_a_round_whose_every_array_of_bets_is_empty_or_null_is_a_round_without_bets(
    tmp_path, config
):
    """A replay game nobody bet on still names its table beside an empty array of bets
    (``playersBets: [{tileId, bets: []}]``): a file of such games was refused as one whose
    bets the profile could not find. Every array on the bets' path there, empty or null, is
    a round without bets; a file of them loads."""
    idle = game("G-1")
    for player in idle["playersBets"]:
        player["bets"] = []
    nulled = game("G-2")
    nulled["playersBets"][0]["bets"] = None
    nulled["playersBets"][1]["bets"] = []
    records, rejects = read(document(tmp_path / "games.json", idle, nulled), config)
    assert rejects == [] and [len(record.bets) for record in records] == [0, 0]


def test_a_wrong_reader_is_refused_whatever_other_lines_the_file_holds(tmp_path, config):
    """The round-id refusal held only while every reject was a record without its id: the
    spec's log with one line cut short, read with replay-api, was recorded again (one bad
    line among thousands). A file of which no round was read and half the records or more
    hold no round id is refused."""
    spec_log = Path(__file__).resolve().parents[3] / "sample_data/inbox/round-log-2026-10.jsonl.gz"
    with gzip.open(spec_log, "rb") as log:
        lines = log.read().splitlines(keepends=True)[:50]
    damaged = tmp_path / "damaged.jsonl"
    damaged.write_bytes(b"".join(lines) + b'{"round_id": "cut\n')
    with pytest.raises(InputError, match=r"\(required field round_id \(gameUid\) is missing; 50 of its 51 records\)"):  # fmt: skip
        read(damaged, config, layout="jsonl")
