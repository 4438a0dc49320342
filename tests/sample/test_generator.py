"""The synthetic round-log generator: realistic, reproducible, and faulty only where it says.

A small reference reader and verifier below apply the round-log rules exactly as written in
the brief for the generator; a clean month must pass them untouched, and a faulty month must
produce exactly the findings and rejected lines its manifest lists, nothing more.
"""

from __future__ import annotations

import csv
import gzip
import json
import re
from collections import Counter, defaultdict
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
import typer
from helpers import run_main
from typer.testing import CliRunner

from reporting.cli import app
from reporting.config.bets import catalogue_bets
from reporting.config.loader import OperatorConfig, load_config
from reporting.engine.bets import BetGroup, resolve_bet, settle
from reporting.engine.cards import CardError, parse_cards
from reporting.engine.facts import facts_of
from reporting.engine.money import AmountError, parse_amount
from reporting.engine.rules import DealError, resolve_round
from reporting.errors import InputError
from reporting.records import FINDING_KINDS, REJECT_REASONS
from reporting.sample import FAULT_KINDS, generate_month
from reporting.sample.calendar import DAY, ROUND_GAP
from reporting.sample.faults import CARRIED_KINDS

SAMPLE_CONFIG = Path(__file__).resolve().parents[2] / "sample_data" / "operator.toml"
MONTH = "2026-10"
MONEY = re.compile(r"[0-9]+\.[0-9]{2}")
TIMESTAMP = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?")
OFFSET = re.compile(r"Z|[+-][0-9]{2}:[0-9]{2}")
#: The first table of each game of the sample configuration and of the variant games of these
#: tests, as the generator names it after the game's ``tables`` (``LB-IT-*``, ``EZ-IT-*``).
TABLES = {
    "live-baccarat-it": "LB-IT-01", "live-baccarat-dk": "LB-DK-01", "live-baccarat-gr": "LB-GR-01",
    "mini-baccarat-it": "MB-IT-01", "no-commission-dk": "NC-DK-01", "ez-baccarat-it": "EZ-IT-01",
    "tiger-baccarat-it": "TB-IT-01", "lucky-baccarat-dk": "LK-DK-01",
}  # fmt: skip
CLASSIC_GAMES = {"live-baccarat-it", "live-baccarat-dk", "live-baccarat-gr", "mini-baccarat-it"}
ROUND_FIELDS = ("round_id", "table_id", "game", "settled_at", "status", "bets")
BET_FIELDS = ("bet_id", "account", "type", "stake", "payout", "currency")


# ---------------------------------------------------------------------------------------------
# A reference reader and verifier, written from the rules the generator promises to honour


class Rejected(Exception):
    """A line the reader refuses, with the reason the CLI contract names."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def check_timestamp(value: str) -> None:
    if not TIMESTAMP.match(value):
        raise Rejected("bad_value")
    rest = value[TIMESTAMP.match(value).end() :]  # type: ignore[union-attr]
    if rest == "":
        raise Rejected("naive_timestamp")
    if not OFFSET.fullmatch(rest):
        raise Rejected("bad_value")


def check_record(record: Any, config: OperatorConfig) -> None:
    """Raise :class:`Rejected` if a decoded round cannot be loaded."""
    if not isinstance(record, dict):
        raise Rejected("bad_value")
    if any(record.get(name) in (None, "") for name in ROUND_FIELDS if name != "bets"):
        raise Rejected("missing_field")
    if not isinstance(record.get("bets"), list):
        raise Rejected("missing_field")
    for bet in record["bets"]:
        if any(bet.get(name) in (None, "") for name in BET_FIELDS):
            raise Rejected("missing_field")
    if record["status"] == "settled" and (
        record.get("player_cards") is None or record.get("banker_cards") is None
    ):
        raise Rejected("missing_field")
    if record["game"] not in config.games:
        raise Rejected("unknown_game")
    stamps = [record.get(name) for name in ("started_at", "betting_closed_at", "settled_at")]
    stamps += [bet.get("placed_at") for bet in record["bets"]]
    for stamp in stamps:
        if stamp is not None:
            check_timestamp(stamp)
    try:
        player = parse_cards(record.get("player_cards") or [])
        banker = parse_cards(record.get("banker_cards") or [])
    except CardError:
        raise Rejected("bad_card") from None
    for bet in record["bets"]:
        try:
            parse_amount(bet["stake"], allow_zero=False)
            parse_amount(bet["payout"])
        except AmountError:
            raise Rejected("bad_money") from None
        if bet["type"] not in catalogue_bets() and bet["type"] not in config.own_bets:
            raise Rejected("unknown_bet_type")
    if record["status"] == "void":
        if not record.get("void_reason"):
            raise Rejected("bad_value")
    elif record["status"] == "settled":
        try:
            resolve_round(player, banker)
        except DealError:
            raise Rejected("bad_value") from None
    else:
        raise Rejected("bad_value")


def read_records(
    records: list[tuple[int, Any]], config: OperatorConfig
) -> tuple[list[tuple[int, dict]], list[tuple[int, str]]]:
    """Loaded rounds and rejected lines, as ``(line, record)`` and ``(line, reason)``."""
    loaded: list[tuple[int, dict]] = []
    rejected: list[tuple[int, str]] = []
    seen: dict[str, dict] = {}
    for line, record in records:
        try:
            if isinstance(record, Rejected):
                raise record
            check_record(record, config)
            earlier = seen.get(record["round_id"])
            if earlier is not None:
                if earlier != record:
                    raise Rejected("conflict")
                continue
        except Rejected as problem:
            rejected.append((line, problem.reason))
            continue
        seen[record["round_id"]] = record
        loaded.append((line, record))
    return loaded, rejected


def json_records(path: Path) -> list[tuple[int, Any]]:
    opener = gzip.open if path.name.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as handle:
        text_lines = handle.read().split("\n")
    assert text_lines[-1] == "", "the log ends with a newline"
    records: list[tuple[int, Any]] = []
    for number, text in enumerate(text_lines[:-1], start=1):
        try:
            records.append((number, json.loads(text)))
        except json.JSONDecodeError:
            records.append((number, Rejected("bad_json")))
    return records


def csv_records(folder: Path) -> list[tuple[int, Any]]:
    bets: dict[str, list[dict]] = defaultdict(list)
    with (folder / "bets.csv").open(encoding="utf-8", newline="") as handle:
        for row in csv.DictReader(handle):
            round_id = row.pop("round_id")
            bets[round_id].append({key: value or None for key, value in row.items()})
    records: list[tuple[int, Any]] = []
    with (folder / "rounds.csv").open(encoding="utf-8", newline="") as handle:
        for number, row in enumerate(csv.DictReader(handle), start=2):
            record: dict[str, Any] = {key: value or None for key, value in row.items()}
            for hand in ("player_cards", "banker_cards"):
                record[hand] = (record[hand] or "").split()
            if record["hand_no"] is not None:
                record["hand_no"] = int(record["hand_no"])
            record["bets"] = bets[record["round_id"]]
            records.append((number, record))
    return records


def instant(text: str) -> datetime:
    return datetime.fromisoformat(text)


def verify(
    loaded: list[tuple[int, dict]], config: OperatorConfig, *, count_void_cards: bool = True
) -> list[tuple[str, str, str | None, int]]:
    """Findings as ``(kind, round_id, bet_id, line)``, judged on the logged cards."""
    findings: list[tuple[str, str, str | None, int]] = []
    shoes: dict[str, list[tuple[int, int, dict]]] = defaultdict(list)
    first_use: dict[str, str] = {}
    for line, record in sorted(
        loaded, key=lambda item: (instant(item[1]["settled_at"]), item[1]["round_id"])
    ):
        for bet in record["bets"]:
            if first_use.setdefault(bet["bet_id"], record["round_id"]) != record["round_id"]:
                findings.append(("duplicate_bet_id", record["round_id"], bet["bet_id"], line))
    for line, record in loaded:
        game = config.games[record["game"]]
        round_id = record["round_id"]
        closed = record.get("betting_closed_at")
        if record["status"] == "settled":
            outcome = resolve_round(
                parse_cards(record["player_cards"]), parse_cards(record["banker_cards"])
            )
            if outcome.breaches:
                findings.append(("third_card_rule", round_id, None, line))
        for bet in record["bets"]:
            bet_type = bet["type"]
            stake, payout = parse_amount(bet["stake"]), parse_amount(bet["payout"])
            if record["status"] == "settled":
                rule = game.bet(bet_type)
                facts = outcome.facts
                expected = settle(rule, stake, facts, game.pay_table, game.rounding).payout
                if payout != expected:
                    findings.append(("payout_mismatch", round_id, bet["bet_id"], line))
            elif payout != stake:
                findings.append(("void_not_refunded", round_id, bet["bet_id"], line))
            if not game.limits_for(bet_type).allows(stake):
                findings.append(("stake_out_of_limits", round_id, bet["bet_id"], line))
            placed = bet.get("placed_at")
            if closed and placed and instant(placed) > instant(closed):
                findings.append(("late_bet", round_id, bet["bet_id"], line))
        if time_order_broken(record):
            findings.append(("time_order", round_id, None, line))
        for group in game.exclusive_bets:
            held = Counter(bet["account"] for bet in record["bets"] if bet["type"] in group)
            if any(count >= 2 for count in held.values()):
                findings.append(("exclusive_side_bets", round_id, None, line))
                break
        if record.get("shoe_id") and (record["status"] == "settled" or count_void_cards):
            shoes[record["shoe_id"]].append((record["hand_no"], line, record))
    for hands in shoes.values():
        counts: Counter[str] = Counter()
        decks = config.games[hands[0][2]["game"]].decks
        for _, line, record in sorted(hands, key=lambda hand: hand[0]):
            codes = [
                card.code for card in parse_cards(record["player_cards"] + record["banker_cards"])
            ]
            counts.update(codes)
            if any(counts[code] > decks for code in codes):
                findings.append(("shoe_card_count", record["round_id"], None, line))
                break
    return sorted(findings, key=lambda finding: (finding[3], finding[0], finding[2] or ""))


def time_order_broken(record: dict) -> bool:
    """Started, betting closed, settled out of order, or a bet placed after settlement but
    not after the close (a late bet)."""
    started, closed, settled = (
        None if record.get(key) is None else instant(record[key])
        for key in ("started_at", "betting_closed_at", "settled_at")
    )
    times = [time for time in (started, closed, settled) if time is not None]
    if times != sorted(times):
        return True
    placed = [instant(bet["placed_at"]) for bet in record["bets"] if bet.get("placed_at")]
    return any(time > settled and (closed is None or time <= closed) for time in placed)


def manifest_findings(manifest: dict) -> list[tuple[str, str, str | None, int]]:
    return sorted(
        (
            (entry["kind"], entry["round_id"], entry["bet_id"], entry["line"])
            for entry in manifest["faults"]
            if entry["category"] == "finding"
        ),
        key=lambda finding: (finding[3], finding[0], finding[2] or ""),
    )


# ---------------------------------------------------------------------------------------------
# Fixtures: one clean month, one faulty month, one faulty CSV month (small, kept per module)


@pytest.fixture(scope="module")
def config() -> OperatorConfig:
    return load_config(SAMPLE_CONFIG)


@pytest.fixture(scope="module")
def clean(tmp_path_factory, config):
    path = tmp_path_factory.mktemp("clean") / "clean.jsonl"
    summary = generate_month(config, MONTH, path, seed=7, rounds_per_day=14)
    return path, summary, json_records(path)


@pytest.fixture(scope="module")
def faulty(tmp_path_factory, config):
    path = tmp_path_factory.mktemp("faulty") / "faulty.jsonl"
    summary = generate_month(config, MONTH, path, seed=3, faults=2, rounds_per_day=16)
    manifest = json.loads(summary.manifest.read_text(encoding="utf-8"))
    return path, summary, manifest


@pytest.fixture(scope="module")
def faulty_csv(tmp_path_factory, config):
    folder = tmp_path_factory.mktemp("csv") / "month"
    summary = generate_month(config, MONTH, folder, seed=5, faults=1, rounds_per_day=12, fmt="csv")
    manifest = json.loads((folder / "faults.json").read_text(encoding="utf-8"))
    return folder, summary, manifest


def clean_rounds(clean) -> list[dict]:
    return [record for _, record in clean[2]]


# ---------------------------------------------------------------------------------------------
# Reproducibility


def test_same_seed_gives_identical_gzip_bytes_and_another_seed_does_not(tmp_path, config):
    first, second, third = (tmp_path / name for name in ("a", "b", "c"))
    for folder in (first, second, third):
        folder.mkdir()
    arguments = dict(faults=1, rounds_per_day=16)
    generate_month(config, MONTH, first / "log.jsonl.gz", seed=11, **arguments)
    generate_month(config, MONTH, second / "log.jsonl.gz", seed=11, **arguments)
    generate_month(config, MONTH, third / "log.jsonl.gz", seed=12, **arguments)
    content = (first / "log.jsonl.gz").read_bytes()
    assert content == (second / "log.jsonl.gz").read_bytes()
    assert (first / "log.jsonl.gz.faults.json").read_bytes() == (
        second / "log.jsonl.gz.faults.json"
    ).read_bytes()
    assert gzip.decompress(content) != gzip.decompress((third / "log.jsonl.gz").read_bytes())


def test_gzip_log_holds_the_same_lines_as_the_plain_one(tmp_path, config):
    plain = generate_month(config, MONTH, tmp_path / "log.jsonl", seed=4, rounds_per_day=8)
    packed = generate_month(config, MONTH, tmp_path / "log.jsonl.gz", seed=4, rounds_per_day=8)
    assert gzip.decompress(packed.log.read_bytes()) == plain.log.read_bytes()
    assert packed.rounds == plain.rounds and packed.bets == plain.bets


# ---------------------------------------------------------------------------------------------
# A clean month


def test_clean_month_loads_whole_and_verifies_clean(clean, config):
    path, summary, records = clean
    loaded, rejected = read_records(records, config)
    assert rejected == []
    assert len(loaded) == summary.rounds == summary.lines == summary.loaded_rounds
    # Every deal follows the drawing rules, every payout is the engine's, every stake is within
    # the limits, no bet is late, no shoe shows a card too often, the Greek house rule holds.
    assert verify(loaded, config) == []
    assert verify(loaded, config, count_void_cards=False) == []
    assert summary.manifest is None and summary.files == (path,)  # no fault, no manifest
    assert set(summary.faults) == set(FAULT_KINDS) and not any(summary.faults.values())


def test_every_game_is_in_the_log_with_its_own_tables_and_currency(clean, config):
    rounds = clean_rounds(clean)
    by_game = Counter(record["game"] for record in rounds)
    assert set(by_game) == set(config.games)
    tables = {record["game"]: record["table_id"] for record in rounds}
    assert tables == {game: TABLES[game] for game in config.games}
    for record in rounds:
        game = config.games[record["game"]]
        for bet in record["bets"]:
            assert bet["currency"] == game.currency
            assert game.offers(bet["type"])
            assert re.fullmatch(r"acc-[0-9]{5}", bet["account"])
    round_ids = [record["round_id"] for record in rounds]
    bet_ids = [bet["bet_id"] for record in rounds for bet in record["bets"]]
    assert len(set(round_ids)) == len(round_ids)
    assert len(set(bet_ids)) == len(bet_ids)


def test_money_is_always_a_string_with_two_decimals(clean):
    path = clean[0]
    text = path.read_text(encoding="utf-8")
    assert re.search(r'"(stake|payout)":[0-9]', text) is None
    for record in clean_rounds(clean):
        for bet in record["bets"]:
            assert MONEY.fullmatch(bet["stake"]) and MONEY.fullmatch(bet["payout"])


def test_lines_are_compact_json_with_the_round_log_fields(clean):
    first_line = clean[0].read_text(encoding="utf-8").split("\n", 1)[0]
    assert ", " not in first_line and '": ' not in first_line
    for record in clean_rounds(clean):
        assert set(ROUND_FIELDS) <= set(record)
        assert record["status"] in ("settled", "void")
        assert ("void_reason" in record) == (record["status"] == "void")
        for bet in record["bets"]:
            assert set(BET_FIELDS) | {"placed_at"} == set(bet)


def test_bets_look_like_real_play(clean, config):
    rounds = clean_rounds(clean)
    counts = [len(record["bets"]) for record in rounds]
    assert 4.5 < sum(counts) / len(counts) < 7.5
    assert counts.count(0) > 0
    # At every table, a Banker bet (the classic, without commission, EZ) is played the most,
    # then the Player bet.
    for game_id, game in config.games.items():
        types = Counter(
            bet["type"] for record in rounds if record["game"] == game_id for bet in record["bets"]
        )
        first, second = (bet for bet, _ in types.most_common(2))
        assert first.startswith("banker") and game.bet(first).group is BetGroup.MAIN, game_id
        assert second == "player", game_id
    stakes = [bet["stake"] for record in rounds for bet in record["bets"]]
    odd_cents = sum(not stake.endswith(".00") for stake in stakes) / len(stakes)
    assert 0.05 < odd_cents < 0.30
    # Commission rounding matters: some banker wins fall between cents.
    banker_wins = [
        bet
        for record in rounds
        for bet in record["bets"]
        if bet["type"] == "banker" and bet["payout"] not in ("0.00", bet["stake"])
    ]
    assert any(parse_amount(bet["stake"]) * 195 % 100 for bet in banker_wins)
    # The Greek house rule is kept without being trivial: accounts do hold several bets.
    greek = [record for record in rounds if record["game"] == "live-baccarat-gr"]
    assert any(
        len({bet["account"] for bet in record["bets"]}) < len(record["bets"]) for record in greek
    )


def test_void_rounds_are_rare_and_refund_every_bet(tmp_path, config):
    summary = generate_month(config, MONTH, tmp_path / "v.jsonl", seed=1, rounds_per_day=60)
    assert 0.0005 < summary.void_rounds / summary.rounds < 0.006
    for _, record in json_records(summary.log):
        if record["status"] == "void":
            assert record["void_reason"]
            assert len(record["player_cards"]) <= 3 and len(record["banker_cards"]) <= 3
            assert all(bet["payout"] == bet["stake"] for bet in record["bets"])


def test_timestamps_carry_offsets_denote_the_right_instants_and_keep_order(clean, config):
    spellings = Counter()
    for record in clean_rounds(clean):
        zone = ZoneInfo(config.games[record["game"]].timezone)
        started, closed, settled = (
            instant(record[name]) for name in ("started_at", "betting_closed_at", "settled_at")
        )
        assert started < closed < settled
        assert 14 <= (closed - started).total_seconds() <= 15
        assert 25 <= (settled - started).total_seconds() <= 40
        for bet in record["bets"]:
            assert started <= instant(bet["placed_at"]) <= closed
        suffix = OFFSET.search(record["settled_at"]).group(0)  # type: ignore[union-attr]
        spellings[suffix if suffix in ("Z", "+00:00") else "local"] += 1
        if suffix not in ("Z", "+00:00"):
            assert settled.utcoffset() == settled.astimezone(zone).utcoffset()
    assert spellings["Z"] > spellings["+00:00"] > 0 and spellings["local"] > 0


def test_the_month_is_each_games_own_month(clean, config):
    rounds = clean_rounds(clean)
    for game_id, game in config.games.items():
        zone = ZoneInfo(game.timezone)
        settled = sorted(
            instant(record["settled_at"]) for record in rounds if record["game"] == game_id
        )
        local = [moment.astimezone(zone) for moment in settled]
        assert all((moment.year, moment.month) == (2026, 10) for moment in local)
        # Rounds settle within minutes of the local month's first and last midnight ...
        assert local[0].day == 1 and local[0].hour == 0 and local[0].minute < 5
        assert local[-1].day == 31 and local[-1].hour == 23 and local[-1].minute > 40
        # ... so the first ones fall on 30 September in UTC, and a session runs across
        # midnight UTC of 1 October.
        assert settled[0].astimezone(ZoneInfo("UTC")).day == 30
        utc = [moment.astimezone(ZoneInfo("UTC")) for moment in settled]
        assert any(
            (moment.day, moment.hour) in ((30, 23), (1, 0))
            and moment.minute > 50
            or (moment.day, moment.hour) == (1, 0)
            and moment.minute < 10
            for moment in utc
        )


def test_live_shoes_burn_and_cut_and_rng_rounds_have_no_shoe(clean, config):
    hands: dict[str, list[int]] = defaultdict(list)
    shoes_per_table: dict[str, list[str]] = defaultdict(list)
    for record in clean_rounds(clean):
        game = config.games[record["game"]]
        if game.reshuffle_every_round:
            assert record["shoe_id"] is None and "hand_no" not in record
            continue
        shoe = record["shoe_id"]
        assert re.fullmatch(re.escape(record["table_id"]) + r"-2026(09|10)[0-9]{2}-S[0-9]{2}", shoe)
        hands[shoe].append(record["hand_no"])
        if shoe not in shoes_per_table[record["table_id"]]:
            shoes_per_table[record["table_id"]].append(shoe)
    assert hands
    for numbers in hands.values():
        assert numbers == list(range(1, len(numbers) + 1))
    for shoes in shoes_per_table.values():
        complete = shoes[:-1]  # the month may end in the middle of the last shoe
        assert len(complete) >= 3
        for shoe in complete:
            assert 60 <= len(hands[shoe]) <= 85, (shoe, len(hands[shoe]))


def test_sessions_deal_a_round_about_every_45_seconds(clean):
    starts: dict[str, list[datetime]] = defaultdict(list)
    for record in clean_rounds(clean):
        starts[record["table_id"]].append(instant(record["started_at"]))
    gaps = Counter()
    for moments in starts.values():
        assert moments == sorted(moments)
        for earlier, later in zip(moments, moments[1:], strict=False):
            seconds = (later - earlier).total_seconds()
            gaps["in session" if seconds < 60 else "between sessions"] += 1
            assert seconds >= 42
            if seconds < 60:
                assert seconds <= 48
    assert gaps["in session"] > 10 * gaps["between sessions"]


@pytest.mark.slow
def test_months_generated_apart_share_no_bet_id(tmp_path, config):
    ids = {}
    for month in ("2026-09", "2026-10"):
        path = tmp_path / f"{month}.jsonl"
        generate_month(config, month, path, seed=1, rounds_per_day=5)
        ids[month] = [bet["bet_id"] for _, record in json_records(path) for bet in record["bets"]]
    september, october = ids["2026-09"], ids["2026-10"]
    assert september[0] == "B-202609-00000001" and october[0] == "B-202610-00000001"
    assert len(set(september + october)) == len(september) + len(october)


def test_without_rounds_per_day_tables_run_24_hours_at_45_seconds(tmp_path):
    one_game = tmp_path / "one.toml"
    one_game.write_text("[games.mini-baccarat-it]\n", encoding="utf-8")
    summary = generate_month(load_config(one_game), "2026-02", tmp_path / "feb.jsonl.gz", seed=2)
    # February 2026 in Rome: 28 days of 24 h at 45 s a round.
    assert abs(summary.rounds - 28 * 1920) < 28 * 1920 * 0.01


# ---------------------------------------------------------------------------------------------
# Injected faults


def test_manifest_lists_n_faults_of_every_kind_on_distinct_rounds(faulty, config):
    path, summary, manifest = faulty
    entries = manifest["faults"]
    assert manifest["log"] == path.name and manifest["seed"] == 3 and manifest["month"] == MONTH
    assert Counter(entry["kind"] for entry in entries) == dict.fromkeys(CARRIED_KINDS["jsonl"], 2)
    assert summary.faults == {kind: 2 * (kind != "unverified_bet") for kind in FAULT_KINDS}
    unsettled = "the spec's round log knows only the bet types the engine settles"
    assert summary.skipped_faults == {"unverified_bet": unsettled}
    assert manifest["skipped_faults"] == summary.skipped_faults
    for entry in entries:
        expected = "finding" if entry["kind"] in FINDING_KINDS else "reject"
        assert entry["category"] == expected
        assert 1 <= entry["line"] <= summary.lines
    assert [entry["line"] for entry in entries] == sorted(entry["line"] for entry in entries)
    assert len({entry["round_id"] for entry in entries}) == len(entries)
    assert summary.rejected_lines == 2 * len(REJECT_REASONS)
    # Spread over the games and over the month.
    assert {entry["table_id"] for entry in entries} == {TABLES[game] for game in config.games}
    days = {entry["round_id"].rsplit("-", 2)[1] for entry in entries}
    assert len(days) >= 10
    shoe_games = {entry["game"] for entry in entries if entry["kind"] == "shoe_card_count"}
    assert "mini-baccarat-it" not in shoe_games
    assert {entry["game"] for entry in entries if entry["kind"] == "exclusive_side_bets"} == {
        "live-baccarat-gr"
    }


def test_each_fault_gives_exactly_its_finding_or_reject_and_nothing_else(faulty, config):
    path, summary, manifest = faulty
    loaded, rejected = read_records(json_records(path), config)
    expected_rejects = sorted(
        (entry["line"], entry["kind"])
        for entry in manifest["faults"]
        if entry["category"] == "reject"
    )
    assert sorted(rejected) == expected_rejects
    assert verify(loaded, config) == manifest_findings(manifest)
    assert verify(loaded, config, count_void_cards=False) == manifest_findings(manifest)
    assert len(loaded) == summary.loaded_rounds


def test_each_listed_line_really_carries_its_fault(faulty, config):
    path, _, manifest = faulty
    lines = path.read_text(encoding="utf-8").split("\n")
    for entry in manifest["faults"]:
        text = lines[entry["line"] - 1]
        kind = entry["kind"]
        if kind == "bad_json":
            with pytest.raises(json.JSONDecodeError):
                json.loads(text)
            continue
        record = json.loads(text)
        assert record["round_id"] == entry["round_id"]
        bet = next((b for b in record["bets"] if b["bet_id"] == entry["bet_id"]), None)
        if kind == "missing_field":
            assert "settled_at" not in record
        elif kind == "naive_timestamp":
            assert TIMESTAMP.fullmatch(record["settled_at"])
        elif kind == "bad_card":
            assert "1X" in record["player_cards"] + record["banker_cards"]
        elif kind == "bad_money":
            assert bet is not None and not isinstance(bet["stake"], str)
        elif kind == "unknown_bet_type":
            assert bet is not None and bet["type"] == "dragon_bonus"
        elif kind == "unknown_game":
            assert record["game"] not in config.games
        elif kind == "conflict":
            earlier = json.loads(lines[entry["first_line"] - 1])
            assert entry["first_line"] < entry["line"]
            assert earlier["round_id"] == record["round_id"] and earlier != record
        elif kind == "bad_value":
            assert record["status"] == "pending" or len(record["player_cards"]) == 4
        elif kind == "third_card_rule":
            outcome = resolve_round(
                parse_cards(record["player_cards"]), parse_cards(record["banker_cards"])
            )
            assert outcome.breaches
        elif kind == "payout_mismatch":
            assert bet is not None and bet["payout"] == entry["logged_payout"]
            assert entry["expected_payout"] != entry["logged_payout"]
        elif kind == "void_not_refunded":
            assert record["status"] == "void" and bet is not None
            assert bet["payout"] != bet["stake"]
        elif kind == "late_bet":
            assert bet is not None
            assert instant(bet["placed_at"]) > instant(record["betting_closed_at"])
        elif kind == "stake_out_of_limits":
            game = config.games[record["game"]]
            assert bet is not None
            assert not game.limits_for(bet["type"]).allows(parse_amount(bet["stake"]))
        elif kind == "shoe_card_count":
            assert entry["card"] in record["player_cards"] + record["banker_cards"]
        elif kind == "exclusive_side_bets":
            held = [b["type"] for b in record["bets"] if b["account"] == entry["account"]]
            assert {"player_pair", "banker_pair"} <= set(held)
        elif kind == "time_order":
            assert instant(record["settled_at"]) < instant(record["started_at"])
        elif kind == "duplicate_bet_id":
            earlier = next(json.loads(text) for text in lines if entry["first_round_id"] in text)
            assert bet is not None and entry["first_round_id"] != record["round_id"]
            assert entry["bet_id"] in {b["bet_id"] for b in earlier["bets"]}


def test_csv_month_with_faults_reads_like_the_json_one(faulty_csv, config):
    folder, summary, manifest = faulty_csv
    assert summary.files == (folder / "rounds.csv", folder / "bets.csv", folder / "faults.json")
    header = (folder / "rounds.csv").read_text(encoding="utf-8").split("\n", 1)[0]
    assert header.startswith("round_id,table_id,game,shoe_id,hand_no,started_at")
    assert summary.skipped_faults == {
        "unverified_bet": "the spec's round log knows only the bet types the engine settles",
        "bad_json": "a CSV file has no JSON to break",
    }
    assert Counter(entry["kind"] for entry in manifest["faults"]) == {
        kind: 1 for kind in FAULT_KINDS if kind not in ("bad_json", "unverified_bet")
    }
    # The round that carries bad_json in JSON lines is left out: it would be rejected there.
    assert summary.rounds_left_out == 1
    loaded, rejected = read_records(csv_records(folder), config)
    assert sorted(rejected) == sorted(
        (entry["line"], entry["kind"])
        for entry in manifest["faults"]
        if entry["category"] == "reject"
    )
    assert verify(loaded, config) == manifest_findings(manifest)
    bets_lines = (folder / "bets.csv").read_text(encoding="utf-8").split("\n")
    for entry in manifest["faults"]:
        if entry.get("bets_line"):
            assert bets_lines[entry["bets_line"] - 1].split(",")[1] == entry["bet_id"]


def test_a_configuration_without_exclusive_bets_skips_that_kind(tmp_path):
    italy = tmp_path / "italy.toml"
    italy.write_text("[games.live-baccarat-it]\n[games.mini-baccarat-it]\n", encoding="utf-8")
    summary = generate_month(
        load_config(italy), MONTH, tmp_path / "it.jsonl", seed=1, faults=1, rounds_per_day=20
    )
    assert "exclusive_side_bets" in summary.skipped_faults
    assert summary.faults["exclusive_side_bets"] == 0
    assert summary.faults["shoe_card_count"] == 1 and summary.faults["bad_json"] == 1


# ---------------------------------------------------------------------------------------------
# Games of the variants (tests/sample/conftest.py): every variant bet of the catalogue


@pytest.fixture(scope="module")
def variant_clean(tmp_path_factory, variant_config):
    path = tmp_path_factory.mktemp("variant-clean") / "clean.jsonl"
    summary = generate_month(variant_config, MONTH, path, seed=2, rounds_per_day=30)
    return path, summary, json_records(path)


@pytest.fixture(scope="module")
def variant_faulty(tmp_path_factory, variant_config):
    path = tmp_path_factory.mktemp("variant-faulty") / "faulty.jsonl"
    summary = generate_month(variant_config, MONTH, path, seed=4, faults=3, rounds_per_day=24)
    return path, summary, json.loads(summary.manifest.read_text(encoding="utf-8"))


def deciding_rows(rounds: list[dict], config: OperatorConfig) -> Counter[str]:
    """How often each pay row decided a bet of the settled rounds (``"<bet>:<n>"``)."""
    rows: Counter[str] = Counter()
    for record in rounds:
        if record["status"] != "settled":
            continue
        game = config.games[record["game"]]
        facts = facts_of(parse_cards(record["player_cards"]), parse_cards(record["banker_cards"]))
        for bet in record["bets"]:
            rows[resolve_bet(game.bet(bet["type"]), facts, game.pay_table).row] += 1
    return rows


def test_a_variant_month_plays_every_bet_and_verifies_clean(variant_clean, variant_config):
    path, summary, records = variant_clean
    loaded, rejected = read_records(records, variant_config)
    assert rejected == [] and len(loaded) == summary.rounds
    # Every payout is the engine's settlement of the game's own bet on the round's facts.
    assert verify(loaded, variant_config) == []
    rounds = [record for _, record in loaded]
    for game_id, game in variant_config.games.items():
        played = {
            bet["type"] for record in rounds if record["game"] == game_id for bet in record["bets"]
        }
        assert played == set(game.bet_ids), game_id
    rows = deciding_rows(rounds, variant_config)
    # Every row of every variant bet decides some bet of the month (but the rare Perfect Pair
    # on both hands): a Banker 6 paid half without commission, an EZ Banker's three-card 7
    # pushed, two- and three-card 6s, twin, double and single Tiger Pairs, ...
    catalogue = catalogue_bets()
    for game in variant_config.games.values():
        for bet in game.bet_ids:
            for number in range(1, len(catalogue[bet].rows) + 1):
                row = f"{bet}:{number}"
                assert rows[row] > 0 or row == "perfect_pair:2", row
    # The changed pays are the game's: Super 6 at 15 to 1 on the no-commission table.
    super_6 = [
        bet for record in rounds if record["status"] == "settled" for bet in record["bets"]
        if bet["type"] == "super_6" and bet["payout"] != "0.00"
    ]  # fmt: skip
    assert super_6 and all(
        parse_amount(bet["payout"]) == 16 * parse_amount(bet["stake"]) for bet in super_6
    )


def test_a_variant_month_gives_exactly_its_faults(variant_faulty, variant_config):
    path, summary, manifest = variant_faulty
    loaded, rejected = read_records(json_records(path), variant_config)
    assert sorted(rejected) == sorted(
        (entry["line"], entry["kind"])
        for entry in manifest["faults"]
        if entry["category"] == "reject"
    )
    assert verify(loaded, variant_config) == manifest_findings(manifest)
    # Every kind the spec's log carries, but the exclusive groups none of these games has.
    assert summary.skipped_faults["exclusive_side_bets"]
    carried = [kind for kind in CARRIED_KINDS["jsonl"] if kind != "exclusive_side_bets"]
    assert Counter(entry["kind"] for entry in manifest["faults"]) == dict.fromkeys(carried, 3)
    # The payout errors are the typical ones where a bet of the round is open to them: paid as
    # another row of the bet on the same result.
    misread = [
        entry for entry in manifest["faults"]
        if entry["kind"] == "payout_mismatch" and "paid as on row" in entry["detail"]
    ]  # fmt: skip
    assert len(misread) >= 2


OWN_BET = """
[bets.monkey_6]
group = "side"
name = { it = "Scimmia 6", en = "Monkey 6" }
wins = { it = "Il Banco vince con un 6 di tre carte con figure.", en = "The Banker wins with a three-card 6 holding a face card." }
rows = [
  { when = { winner = "banker", banker_total = 6, banker_cards = 3, banker_faces = [1, 2, 3] }, key = "monkey_6", pays = "30", says = { it = "Con figure.", en = "With a face card." } },
]

[games.monkey-baccarat-it]
base = "live-baccarat-it"
bets = ["player", "banker", "tie", "monkey_6"]
tables = ["MK-IT-*"]
"""


def test_an_operators_own_bet_is_played_and_settled_by_its_declaration(tmp_path):
    """A bet of the operator's configuration, on a fact no catalogue bet reads (the Banker's
    face cards), is drawn at its group's share and settled by its own rows; its faults are
    found like any other's."""
    path = tmp_path / "operator.toml"
    path.write_text(OWN_BET, encoding="utf-8")
    config = load_config(path)
    summary = generate_month(
        config, MONTH, tmp_path / "m.jsonl", seed=1, faults=1, rounds_per_day=40
    )
    manifest = json.loads(summary.manifest.read_text(encoding="utf-8"))
    loaded, rejected = read_records(json_records(summary.log), config)
    assert verify(loaded, config) == manifest_findings(manifest)
    rows = deciding_rows([record for _, record in loaded], config)
    assert rows["monkey_6:1"] > 0 and rows["monkey_6:lose"] > 0
    assert {record["table_id"] for _, record in loaded} == {"MK-IT-01"}
    # A provider's shape names the catalogue's bets only: refused before a file is written.
    with pytest.raises(
        InputError, match="shape cannot carry the operator's own bets \\(monkey_6\\)"
    ):
        generate_month(config, MONTH, tmp_path / "feed" / "page.json", fmt="numeric-feed")
    assert not (tmp_path / "feed").exists()


#: A variant month in each format, loaded by the tool's own readers (a provider's shape through
#: its built-in profile) and verified.
VARIANT_FORMATS = {
    "jsonl": ("month.jsonl", ()),
    "replay-api": ("games.json", ("--profile", "replay-api")),
    "numeric-feed": ("page.json", ("--profile", "numeric-feed")),
    "flat-csv": ("bets.csv", ("--profile", "flat-csv")),
}


@pytest.mark.parametrize("fmt", VARIANT_FORMATS)
def test_verify_finds_every_fault_of_a_variant_month_and_nothing_else(
    tmp_path, variant_config, variant_config_path, fmt
):
    """Precision and recall 1: verify's findings are exactly the manifest's, every variant bet
    is settled (an ``unverified_bet`` only where one was injected), and the reader rejects
    exactly the lines the manifest lists."""
    name, profile = VARIANT_FORMATS[fmt]
    summary = generate_month(
        variant_config, MONTH, tmp_path / name, seed=6, faults=2, rounds_per_day=12, fmt=fmt
    )
    manifest = json.loads(summary.manifest.read_text(encoding="utf-8"))
    db, config = str(tmp_path / "store.sqlite"), str(variant_config_path)
    loaded = run_main(
        "ingest", str(summary.log), *profile, "--db", db, "--config", config, "--json"
    )
    assert loaded.returncode in (0, 1), loaded.stderr
    rejected = Counter(record["reason"] for record in json.loads(loaded.stdout)["rejected"])
    assert rejected == Counter(
        entry["kind"] for entry in manifest["faults"] if entry["category"] == "reject"
    )
    run = run_main("verify", "--db", db, "--config", config, "--month", MONTH, "--json")
    assert run.returncode in (0, 1), run.stderr
    found = Counter(
        (f["kind"], f["round_id"], f["bet_id"]) for f in json.loads(run.stdout)["findings"]
    )
    injected = Counter(
        (entry["kind"], entry["round_id"], entry["bet_id"])
        for entry in manifest["faults"]
        if entry["category"] == "finding"
    )
    assert found == injected
    unverified = sum(kind == "unverified_bet" for kind, _, _ in found)
    assert unverified == (0 if fmt == "jsonl" else 2)


# ---------------------------------------------------------------------------------------------
# Arguments and the command


def test_bad_arguments_are_input_errors_and_leave_no_files(tmp_path, config):
    with pytest.raises(InputError, match="YYYY-MM"):
        generate_month(config, "2026-13", tmp_path / "x.jsonl")
    with pytest.raises(InputError, match="jsonl"):
        generate_month(config, MONTH, tmp_path / "x.json")
    with pytest.raises(InputError, match="faults"):
        generate_month(config, MONTH, tmp_path / "x.jsonl", faults=50, rounds_per_day=5)
    assert list(tmp_path.iterdir()) == []


def test_counts_no_month_could_hold_are_refused_before_anything_is_planned(tmp_path, config):
    """--rounds-per-day 1000000000 planned for ever (3 GB in 30 s), past the most a table
    deals in a day, and --faults 99999999999 planned 4 GB of faults before its check: both
    are refused at once, from the calendar's own bounds."""
    most = DAY // ROUND_GAP[0]
    with pytest.raises(InputError, match=rf"--rounds-per-day {most + 1:,}: expected 1 to {most:,}"):
        generate_month(config, MONTH, tmp_path / "x.jsonl", rounds_per_day=most + 1)
    with pytest.raises(InputError, match=r"--faults 99,999,999,999: the month's rounds could hold"):
        generate_month(config, MONTH, tmp_path / "x.jsonl", faults=99_999_999_999, rounds_per_day=5)
    assert list(tmp_path.iterdir()) == []


def command_app() -> typer.Typer:
    # Imported here: the package ``reporting.cli`` registers every command on import, and the
    # library tests above need none of them.
    from reporting.cli.sample import sample_command

    app = typer.Typer()
    app.command()(sample_command)
    return app


def test_sample_command_prints_a_json_summary(tmp_path):
    out = tmp_path / "log.jsonl.gz"
    result = CliRunner().invoke(
        command_app(),
        ["--month", MONTH, "--out", str(out), "--rounds-per-day", "6", "--faults", "1",
         "--seed", "9", "--config", str(SAMPLE_CONFIG), "--json"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["log"] == str(out) and out.is_file()
    assert document["faults"]["conflict"] == 1 and document["rounds"] > 500
    assert {game["game"] for game in document["games"]} == set(load_config(SAMPLE_CONFIG).games)
    assert set(load_config(SAMPLE_CONFIG).games) >= CLASSIC_GAMES


def test_sample_command_prints_a_short_human_summary(tmp_path):
    out = tmp_path / "csv"
    result = CliRunner().invoke(
        command_app(),
        ["--month", MONTH, "--out", str(out), "--rounds-per-day", "3", "--format", "csv"],
    )
    assert result.exit_code == 0, result.output
    assert "2026-10:" in result.stdout and "live-baccarat-gr" in result.stdout
    assert (out / "rounds.csv").is_file() and (out / "bets.csv").is_file()


def test_sample_command_refuses_a_bad_month(tmp_path):
    result = CliRunner().invoke(
        command_app(), ["--month", "October", "--out", str(tmp_path / "x.jsonl")]
    )
    assert isinstance(result.exception, InputError)


def test_sample_never_writes_through_a_link_nor_removes_a_file_it_did_not_write(tmp_path):
    """``sample`` wrote ``OUT.part`` and ``OUT.faults.json`` by their fixed names, following
    a link there (whoever may drop files in a shared folder could aim it at any file), and a
    clean ``--format csv`` month deleted any ``faults.json`` of the folder's. Its temporary
    files are new files of names of their own; a link at the manifest's name is replaced, not
    followed; and a ``faults.json`` that is not a manifest of this log's stays."""
    victim = tmp_path / "victim.txt"
    victim.write_text("victim\n", encoding="utf-8")
    (tmp_path / "a.jsonl.part").symlink_to(victim)
    (tmp_path / "a.jsonl.faults.json").symlink_to(victim)
    config = tmp_path / "operator.toml"
    config.write_text("[games.live-baccarat-gr]\nlanguages = []\n", encoding="utf-8")
    common = ["--month", MONTH, "--rounds-per-day", "2", "--config", str(config)]
    outcome = CliRunner().invoke(
        app,
        ["sample", *common, "--faults", "1", "--fault-kind", "late_bet", "--force"]
        + ["--out", str(tmp_path / "a.jsonl")],
    )  # fmt: skip (--force: a file at the manifest's name stays without it)
    assert outcome.exit_code == 0, outcome.output
    assert victim.read_text(encoding="utf-8") == "victim\n"
    assert not (tmp_path / "a.jsonl").is_symlink()
    manifest = tmp_path / "a.jsonl.faults.json"
    assert not manifest.is_symlink() and json.loads(manifest.read_text())["log"] == "a.jsonl"
    assert [path.name for path in tmp_path.glob(".*.part")] == []
    folder = tmp_path / "csv"
    folder.mkdir()
    (folder / "faults.json").write_text('{"my": "list"}\n', encoding="utf-8")
    outcome = CliRunner().invoke(app, ["sample", *common, "--format", "csv", "--out", str(folder)])
    assert outcome.exit_code == 0, outcome.output
    assert (folder / "faults.json").read_text(encoding="utf-8") == '{"my": "list"}\n'


def test_a_sample_that_cannot_finish_its_file_leaves_no_part_beside_it(tmp_path, monkeypatch):
    """A full disk on the last bytes left ``OUT.part`` beside the log (in an inbox, a file
    said unread on every run)."""
    import errno

    from reporting.sample import writers

    def no_space(*_args):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(writers, "close_part", no_space)
    config = tmp_path / "operator.toml"
    config.write_text("[games.live-baccarat-gr]\nlanguages = []\n", encoding="utf-8")
    with pytest.raises(OSError, match="No space"):
        generate_month(load_config(config), MONTH, tmp_path / "a.jsonl", rounds_per_day=2)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["operator.toml"]


def test_a_sample_that_cannot_be_put_in_place_is_one_line_naming_out_and_leaves_no_part(
    tmp_path,
):
    """``--out`` naming a folder failed at the last rename and left the 75 KB part beside it,
    though the message said nothing was kept."""
    config = tmp_path / "operator.toml"
    config.write_text("[games.live-baccarat-gr]\nlanguages = []\n", encoding="utf-8")
    (tmp_path / "a.jsonl").mkdir()
    process = run_main(
        "sample", "--month", MONTH, "--rounds-per-day", "2", "--config", str(config),
        "--out", "a.jsonl", cwd=tmp_path,
    )  # fmt: skip
    assert process.returncode == 2 and process.stderr.count("\n") == 1, process.stderr
    assert process.stderr.startswith("baccarat-report: a.jsonl: cannot write the sample there")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["a.jsonl", "operator.toml"]


def test_a_fault_manifest_already_beside_out_stays_unless_forced_and_kinds_need_faults(tmp_path):
    """The log was kept without ``--force``, its ``.faults.json`` replaced (someone's notes
    gone); ``--fault-kind`` without ``--faults`` wrote a clean month without a word."""
    config = tmp_path / "operator.toml"
    config.write_text("[games.live-baccarat-gr]\nlanguages = []\n", encoding="utf-8")
    (tmp_path / "a.jsonl.faults.json").write_text('{"my": "notes"}\n', encoding="utf-8")
    argv = ("sample", "--month", MONTH, "--rounds-per-day", "2", "--config", str(config))
    process = run_main(*argv, "--out", "a.jsonl", "--faults", "1", cwd=tmp_path)
    assert process.returncode == 2
    assert process.stderr == (
        "baccarat-report: a.jsonl.faults.json: already exists; not overwritten (pass --force"
        " to replace it, or name another file)\n"
    )
    assert (tmp_path / "a.jsonl.faults.json").read_text(encoding="utf-8") == '{"my": "notes"}\n'
    assert not (tmp_path / "a.jsonl").exists()
    process = run_main(*argv, "--out", "b.jsonl", "--fault-kind", "payout_mismatch", cwd=tmp_path)
    assert process.returncode == 2
    assert process.stderr == (
        "baccarat-report: --fault-kind picks the kinds of --faults N: give --faults too\n"
    )
    assert not (tmp_path / "b.jsonl").exists()


@pytest.mark.parametrize(
    ("out", "fmt", "taken"),
    [("a.jsonl", "jsonl", "a.jsonl"), ("pair", "csv", "pair/bets.csv")],
)
def test_a_file_already_at_out_stays_unless_forced(tmp_path, out, fmt, taken):
    """``sample --out inbox/round-log.jsonl`` replaced the operator's real log of that name
    without a word, where ``init`` leaves a configuration: refused in one line, replaced
    with ``--force``."""
    config = tmp_path / "operator.toml"
    config.write_text("[games.live-baccarat-gr]\nlanguages = []\n", encoding="utf-8")
    (tmp_path / "pair").mkdir()
    (tmp_path / taken).write_text("a real log\n", encoding="utf-8")
    argv = ("sample", "--month", MONTH, "--rounds-per-day", "2", "--config", str(config))
    process = run_main(*argv, "--out", out, "--format", fmt, cwd=tmp_path)
    assert process.returncode == 2, process.stderr
    assert process.stderr == (
        f"baccarat-report: {taken}: already exists; not overwritten (pass --force to replace"
        " it, or name another file)\n"
    )
    assert (tmp_path / taken).read_text(encoding="utf-8") == "a real log\n"
    process = run_main(*argv, "--out", out, "--format", fmt, "--force", cwd=tmp_path)
    assert process.returncode == 0, process.stderr
    assert (tmp_path / taken).read_text(encoding="utf-8") != "a real log\n"


def test_a_month_without_faults_has_no_manifest_so_an_inbox_holds_the_log_alone(tmp_path):
    """Issue 23: ``sample --out inbox/...`` wrote an empty ``.faults.json`` beside the log, and
    monthly then alerted "in the inbox but not read". No fault asked: no manifest, and one an
    earlier run left there (no longer true) is removed."""
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    stale = inbox / "log.jsonl.faults.json"
    stale.write_text('{"log": "log.jsonl", "faults": [{"kind": "late_bet"}]}\n', encoding="utf-8")
    # One game without rule sheets: the month's pages are not what this test is about.
    config = tmp_path / "operator.toml"
    config.write_text("[games.live-baccarat-gr]\nlanguages = []\n", encoding="utf-8")
    outcome = CliRunner().invoke(
        app,
        ["sample", "--month", MONTH, "--rounds-per-day", "2", "--out", str(inbox / "log.jsonl")]
        + ["--config", str(config), "--json"],
    )
    assert outcome.exit_code == 0, outcome.output
    assert json.loads(outcome.stdout)["manifest"] is None
    assert sorted(path.name for path in inbox.iterdir()) == ["log.jsonl"]
    monthly = CliRunner().invoke(
        app,
        ["monthly", "--inbox", str(inbox), "--out", str(tmp_path / "out")]
        + ["--db", str(tmp_path / "db.sqlite"), "--config", str(config)]
        + ["--as-of", "2026-11-05", "--json"],
    )
    assert json.loads(monthly.stdout)["months"][0]["alerts"]["unread_files"] == []


def test_each_game_s_first_and_last_settled_times_are_said_in_utc(faulty):
    """The summary (``sample --json``) gave the log's text: an offset of the game's zone
    (``...+01:00``), or a time a fault made naive. They are the store's UTC text, and each is
    the first or last instant of the game's rounds that has one."""
    path, summary, _ = faulty
    records = json_records(path)
    stored = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z")
    for game in summary.games:
        instants = [
            datetime.fromisoformat(record["settled_at"])
            for _, record in records
            if isinstance(record, dict)
            and record.get("game") == game.game
            and isinstance(record.get("settled_at"), str)
            and _aware(record["settled_at"])
        ]
        assert stored.fullmatch(game.first_settled_at) and stored.fullmatch(game.last_settled_at)
        first, last = (
            datetime.fromisoformat(t) for t in (game.first_settled_at, game.last_settled_at)
        )
        assert abs((first - instants[0]).total_seconds()) < 0.001, game.game
        assert abs((last - instants[-1]).total_seconds()) < 0.001, game.game


def _aware(text: str) -> bool:
    try:
        return datetime.fromisoformat(text).tzinfo is not None
    except ValueError:
        return False
