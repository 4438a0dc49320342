"""The sample generator's fault injectors: one per finding kind and reject reason, in one
table, each tried here on a round written inline."""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers import house_rule_findings

from reporting.config.bets import catalogue_bets
from reporting.config.loader import load_config
from reporting.engine.bets import settle
from reporting.engine.facts import facts_of
from reporting.engine.money import format_cents, parse_amount
from reporting.records import FINDING_KINDS, REJECT_REASONS
from reporting.sample.calendar import BETTING_OPEN, SECOND, month_span
from reporting.sample.faults import (
    CARRIED_KINDS,
    FAULT_KINDS,
    FORMATS,
    INJECTORS,
    check_room_for_faults,
    every_kind_injected,
    injector_for,
    plan_faults,
    write_round,
)
from reporting.sample.faults.records import NO_NOTE, AppliedFault, RoundFault
from reporting.sample.games import GameModel, table_pattern
from reporting.sample.table import Table
from reporting.sample.writers import CsvWriter, JsonLinesWriter

SAMPLE_CONFIG = Path(__file__).resolve().parents[2] / "sample_data" / "operator.toml"
SETTLED = 1_791_052_840_500  # 2026-10-03T18:40:40.500Z


@pytest.fixture(scope="module")
def config():
    return load_config(SAMPLE_CONFIG)


def table_of(game) -> Table:
    model = GameModel(game, table_pattern(game), 10000)
    span = month_span("2026-10", model.game.timezone)
    return Table(model, 0, 0, span, span[0], 14, [], "live-baccarat-mt", seed=1)


@pytest.fixture
def table(config) -> Table:
    return table_of(config.games["live-baccarat-it"])


@pytest.fixture(scope="module")
def games(config, variant_config):
    """The sample's games and the variant games: between them, every bet of the catalogue."""
    return {**config.games, **variant_config.games}


def a_round() -> dict[str, Any]:
    """A settled round as the log writes it: Player 9 (a natural) beats Banker 7."""
    return {
        "round_id": "LB-IT-01-20261003-0001",
        "table_id": "LB-IT-01",
        "game": "live-baccarat-it",
        "shoe_id": "LB-IT-01-20261003-S01",
        "hand_no": 4,
        "started_at": "2026-10-03T18:40:02.120Z",
        "betting_closed_at": "2026-10-03T18:40:17Z",
        "settled_at": "2026-10-03T18:40:40.500Z",
        "status": "settled",
        "player_cards": ["9H", "KS"],
        "banker_cards": ["3D", "4C"],
        "bets": [
            {"bet_id": "B-00000001", "account": "acc-10001", "type": "banker", "stake": "100.00",
             "payout": "0.00", "currency": "EUR", "placed_at": "2026-10-03T18:40:05.300Z"},
            {"bet_id": "B-00000002", "account": "acc-10002", "type": "player", "stake": "50.00",
             "payout": "100.00", "currency": "EUR", "placed_at": "2026-10-03T18:40:09Z"},
        ],
    }  # fmt: skip


def inject(kind: str, table: Table, data: dict, bet_index: int = 0, ordinal: int = 1):
    injector = INJECTORS[kind]
    fault = RoundFault(kind, injector.category, table, data, bet_index, SETTLED, NO_NOTE, ordinal)
    return injector.into_round(fault)


# ---------------------------------------------------------------------------------------------
# The table


def test_injectors_are_exactly_the_finding_kinds_and_reject_reasons_in_order():
    assert tuple(INJECTORS) == FINDING_KINDS + REJECT_REASONS
    assert FAULT_KINDS == FINDING_KINDS + REJECT_REASONS


def test_a_finding_kind_without_an_injector_is_named_when_the_sample_package_is_imported():
    """A kind added to reporting/records.py and not to INJECTORS: the import says which and
    where to add it (it was a bare ``KeyError: 'ghost_kind'``)."""
    imported = subprocess.run(
        [
            sys.executable,
            "-c",
            "import reporting.records as records;"
            " records.FINDING_KINDS += ('ghost_kind',);"
            " import reporting.sample",
        ],
        capture_output=True,
        text=True,
    )
    assert imported.returncode == 1
    assert (
        "LookupError: fault kind(s) with no injector: ghost_kind: add one each to INJECTORS"
        " (reporting/sample/faults/__init__.py)"
    ) in imported.stderr


def test_every_kind_injected_names_every_kind_left_without_an_injector():
    assert every_kind_injected(FAULT_KINDS, INJECTORS) == tuple(INJECTORS.values())
    with pytest.raises(LookupError, match="no injector: ghost_kind, other_ghost: add one each"):
        every_kind_injected(("ghost_kind", *FAULT_KINDS, "other_ghost"), INJECTORS)


def test_each_injector_files_its_kind_under_its_category():
    for kind, injector in INJECTORS.items():
        assert injector.category == ("finding" if kind in FINDING_KINDS else "reject"), kind
        # A finding's round loads; a rejected line does not, but a conflict's first copy does.
        assert injector.round_loads == (kind in FINDING_KINDS or kind == "conflict"), kind


def test_an_unknown_fault_kind_fails_loudly():
    with pytest.raises(KeyError, match="fault kind 'dragon_fault' has no injector"):
        injector_for("dragon_fault")


def test_a_kind_that_not_every_game_or_format_can_carry_says_why():
    for kind, injector in INJECTORS.items():
        if injector.suits_game is not None:
            assert injector.no_game, kind
        assert set(injector.not_in) <= set(FORMATS), kind
        assert all(injector.not_in.values()), kind
        # A kind no format carries would be no fault at all.
        assert set(injector.not_in) != set(FORMATS), kind
        if injector.last_hand_of_shoe:
            assert injector.into_deal is not None and injector.suits_game is not None, kind


def test_planning_skips_what_a_configuration_or_format_cannot_carry(config, tmp_path):
    italy = tmp_path / "italy.toml"
    italy.write_text("[games.mini-baccarat-it]\n", encoding="utf-8")
    models = [GameModel(game, "MB-IT-*", 10000) for game in load_config(italy).games.values()]
    spans = {model.game.id: month_span("2026-10", model.game.timezone) for model in models}
    planned, skipped = plan_faults(models, spans, 1, 2, random.Random(0))
    assert skipped == {
        "shoe_card_count": "no game of the configuration deals from a shoe with a shoe id",
        "exclusive_side_bets": "no game of the configuration has exclusive bets",
    }
    assert sorted({fault.kind for fault in planned}) == sorted(set(FAULT_KINDS) - set(skipped))
    start, end = spans["mini-baccarat-it"]
    assert all(start < fault.target < end for fault in planned)
    check_room_for_faults(planned, spans, 14)  # 26 faults in 434 rounds: room enough


# ---------------------------------------------------------------------------------------------
# Into the bets


#: The house rules a fault breaks in a round's bets, each judged by its check.
HOUSE_RULES = tuple(kind for kind in FINDING_KINDS if INJECTORS[kind].into_bets is not None)


def test_the_house_rules_broken_in_the_bets_are_the_limits_the_window_and_the_groups():
    assert set(HOUSE_RULES) == {"stake_out_of_limits", "late_bet", "exclusive_side_bets"}


@pytest.mark.parametrize("kind", HOUSE_RULES)
def test_each_bet_fault_is_found_by_its_check_on_its_bet_and_breaks_no_other_rule(config, kind):
    """An injector breaks the house rule its check reads, on the bets the sampler placed:
    verify's check finds it, once, and no other house rule is broken."""
    injector = INJECTORS[kind]
    for game in config.games.values():
        table = table_of(game)
        if injector.suits_game is not None and not injector.suits_game(table.model):
            continue
        for round_number in range(20):
            started = SETTLED - 38_000 + round_number * 45_017
            closed = (started + BETTING_OPEN) // SECOND * SECOND
            bets = table.model.bets.place(6, started, closed, table.rng.random)
            target, _ = injector.into_bets(table, bets, started, closed)
            found = house_rule_findings(game, bets, started, closed, HOUSE_RULES)
            assert [len(found[other]) for other in HOUSE_RULES] == [
                other == kind for other in HOUSE_RULES
            ], (game.id, bets)
            (finding,) = found[kind]
            if finding.bet_id is not None:  # a finding on a bet: the injector's
                assert finding.bet_id == f"B-{bets.index(target) + 1}"
            else:
                assert target.account in finding.message


# ---------------------------------------------------------------------------------------------
# Into the round


def test_payout_mismatch_pays_a_lost_bet_back_as_a_push(table):
    data = a_round()
    fault = inject("payout_mismatch", table, data, bet_index=0)
    assert data["bets"][0]["payout"] == "100.00"
    assert (fault.kind, fault.category, fault.bet_index) == ("payout_mismatch", "finding", 0)
    assert "a lost bet paid back as a push" in fault.detail
    assert fault.extra == {"expected_payout": "0.00", "logged_payout": "100.00"}


def test_payout_mismatch_overpays_a_player_win_by_one_unit(table):
    data = a_round()
    fault = inject("payout_mismatch", table, data, bet_index=1)
    assert data["bets"][1]["payout"] == "101.00" and "overpaid by one unit" in fault.detail


def a_round_of(game, bet_type: str, cards, stake: int = 10_000) -> dict[str, Any]:
    """A settled round of ``game`` on ``cards`` holding one bet, paid what the engine settles."""
    facts = facts_of(*cards)
    payout = settle(game.bet(bet_type), stake, facts, game.pay_table, game.rounding).payout
    data = a_round()
    data["game"] = game.id
    data["player_cards"], data["banker_cards"] = ([card.code for card in hand] for hand in cards)
    bet = {**data["bets"][0], "type": bet_type, "stake": format_cents(stake)}
    data["bets"] = [{**bet, "payout": format_cents(payout), "currency": game.currency}]
    return data


@pytest.mark.parametrize(
    ("game_id", "row", "engine", "logged", "how"),
    [
        # A Banker win with 6 on a no-commission table paid at even money instead of 1:2.
        ("no-commission-dk", "banker_no_commission:1", "150.00", "200.00",
         "decided by row banker_no_commission:1 (The Banker wins with a total of 6) paid as on"
         " row banker_no_commission:2 (The Banker wins with any other total)"),
        ("no-commission-dk", "banker_no_commission:2", "200.00", "150.00", "paid as on row"
         " banker_no_commission:1"),
        # The EZ Banker's three-card 7 paid as a win instead of a push.
        ("ez-baccarat-it", "banker_ez:1", "100.00", "200.00", "paid as on row banker_ez:2"),
        # A three-card 6 paid at the two-card odds, and the other way round.
        ("lucky-baccarat-dk", "lucky_6:2", "2100.00", "1300.00", "paid as on row lucky_6:1"),
        ("lucky-baccarat-dk", "lucky_6:1", "1300.00", "2100.00", "paid as on row lucky_6:2"),
        ("tiger-baccarat-it", "tiger:2", "2100.00", "1300.00", "paid as on row tiger:1"),
        # Twin pairs paid as a double, a double as a single, a single as a double.
        ("tiger-baccarat-it", "tiger_pair:1", "10100.00", "2100.00", "paid as on row tiger_pair:2"),
        ("tiger-baccarat-it", "tiger_pair:2", "2100.00", "500.00", "paid as on row tiger_pair:3"),
        ("tiger-baccarat-it", "tiger_pair:3", "500.00", "2100.00", "paid as on row tiger_pair:2"),
        # Variant B's perfect pair on one hand paid as on both (250, the game's pay).
        ("lucky-baccarat-dk", "perfect_pair:1", "2600.00", "25100.00",
         "paid as on row perfect_pair:2"),
        # The bonus table: a natural paid at the 9-point margin's odds, 9 points at 8's.
        ("live-baccarat-it", "player_bonus:2", "200.00", "3100.00",
         "paid as on row player_bonus:3"),
        ("live-baccarat-it", "banker_bonus:3", "3100.00", "1100.00",
         "paid as on row banker_bonus:4"),
        # A bet of one paying row: the errors of every bet.
        ("no-commission-dk", "super_6:1", "1600.00", "1601.00", "a win overpaid by one unit"),
        ("live-baccarat-it", "banker:1", "195.00", "200.00", "a banker win paid at even money"),
        ("ez-baccarat-it", "dragon_7:lose", "0.00", "100.00", "a lost bet paid back as a push"),
        ("ez-baccarat-it", "banker_ez:3", "100.00", "0.00", "a push kept as a loss"),
    ],
)  # fmt: skip
def test_payout_mismatch_pays_a_bet_as_another_row_of_it(
    games, deal_deciding, game_id, row, engine, logged, how
):
    game = games[game_id]
    bet_type = row.split(":")[0]
    data = a_round_of(game, bet_type, deal_deciding(game.bet(bet_type), row, game.pay_table))
    fault = inject("payout_mismatch", table_of(game), data)
    assert fault.extra == {"expected_payout": engine, "logged_payout": logged}
    assert data["bets"][0]["payout"] == logged and how in fault.detail
    assert fault.detail.startswith(f"{bet_type} bet of 100.00: logged payout {logged}, the engine")


def test_the_sample_and_variant_games_offer_every_catalogue_bet(games):
    offered = {bet for game in games.values() for bet in game.bet_ids}
    assert offered == set(catalogue_bets())


def test_payout_mismatch_misstates_every_row_of_every_catalogue_bet(games, deal_deciding):
    """Whichever row decides a bet (or none), the logged payout is not the engine's."""
    for bet_type, rule in catalogue_bets().items():
        game = next(game for game in games.values() if game.offers(bet_type))
        for row in [f"{bet_type}:{number}" for number in range(1, len(rule.rows) + 1)] + [
            f"{bet_type}:lose"
        ]:
            cards = deal_deciding(game.bet(bet_type), row, game.pay_table)
            data = a_round_of(game, bet_type, cards, stake=1235)
            engine = data["bets"][0]["payout"]
            fault = inject("payout_mismatch", table_of(game), data)
            assert fault.extra["expected_payout"] == engine, row
            assert data["bets"][0]["payout"] != engine, row


def test_payout_mismatch_takes_the_rounds_bet_open_to_a_row_error(games, deal_deciding):
    """A round of the drawn bet and a bet decided by a row another row pays otherwise: the
    second takes the fault (the first of such bets from the drawn one on)."""
    game = games["no-commission-dk"]
    cards = deal_deciding(
        game.bet("banker_no_commission"), "banker_no_commission:1", game.pay_table
    )
    data = a_round_of(game, "player", cards)
    data["bets"].append(a_round_of(game, "banker_no_commission", cards)["bets"][0])
    fault = inject("payout_mismatch", table_of(game), data, bet_index=0)
    assert fault.bet_index == 1 and data["bets"][0]["payout"] == "0.00"
    assert fault.extra == {"expected_payout": "150.00", "logged_payout": "200.00"}


def test_bad_value_alternates_an_unknown_status_and_a_fourth_card(table):
    first, second = a_round(), a_round()
    assert "pending" in inject("bad_value", table, first, ordinal=1).detail
    assert first["status"] == "pending" and first["player_cards"] == ["9H", "KS"]
    assert inject("bad_value", table, second, ordinal=2).detail.endswith("4 player cards")
    assert second["status"] == "settled" and second["player_cards"] == ["9H", "KS", "7C", "7C"]


def test_reject_injectors_change_only_what_they_name(table):
    changes = {
        "missing_field": lambda data: "settled_at" not in data,
        "naive_timestamp": lambda data: data["settled_at"] == "2026-10-03T18:40:40.500",
        "unknown_bet_type": lambda data: data["bets"][0]["type"] == "dragon_bonus",
        "unknown_game": lambda data: data["game"] == "live-baccarat-mt",
        "bad_card": lambda data: "1X" in data["player_cards"] + data["banker_cards"],
    }
    for kind, changed in changes.items():
        data = a_round()
        fault = inject(kind, table, data)
        assert fault.category == "reject" and fault.detail, kind
        assert changed(data), kind
        assert sum(data.get(key) != value for key, value in a_round().items()) == 1, kind


def test_time_order_swaps_the_start_and_the_settlement(table):
    data = a_round()
    fault = inject("time_order", table, data)
    assert (data["started_at"], data["settled_at"]) == (
        "2026-10-03T18:40:40.500Z",
        "2026-10-03T18:40:02.120Z",
    )
    # Settled before it started and before betting closed; its bets stay before the close.
    assert data["settled_at"] < data["betting_closed_at"] < data["started_at"]
    assert all(bet["placed_at"] <= data["betting_closed_at"] for bet in data["bets"])
    assert (fault.kind, fault.category, fault.bet_index) == ("time_order", "finding", None)
    assert sum(data.get(key) != value for key, value in a_round().items()) == 2
    assert fault.detail == (
        "started_at 2026-10-03T18:40:40.500Z and settled_at 2026-10-03T18:40:02.120Z swapped:"
        " the round settles before it starts"
    )


def earlier_round() -> dict[str, Any]:
    """The table's previous round without a fault, as written (its bets numbered)."""
    data = a_round()
    data["round_id"] = "LB-IT-01-20261003-0000"
    for number, bet in enumerate(data["bets"], start=7):
        bet["bet_id"] = f"B-{number:08d}"
    return data


@pytest.mark.parametrize("writer_of", [
    lambda folder: JsonLinesWriter(folder / "log.jsonl"), lambda folder: CsvWriter(folder / "csv")
])  # fmt: skip
def test_duplicate_bet_id_writes_a_bet_under_the_id_of_an_earlier_rounds_bet(
    table, tmp_path, writer_of
):
    table.last_clean_round = earlier_round()
    writer = writer_of(tmp_path)
    fault, lines = written(table, "duplicate_bet_id", writer)
    writer.close(keep=True)
    text = "".join(path.read_text(encoding="utf-8") for path in sorted(tmp_path.rglob("*.*")))
    assert "B-00000007" in text and "B-00000002" not in text
    assert fault.bet_index == 1 and fault.extra == {"first_round_id": "LB-IT-01-20261003-0000"}
    assert fault.detail == (
        "player bet B-00000002 written as B-00000007, the id of a bet of round"
        " LB-IT-01-20261003-0000"
    )
    assert lines == ((1, None, 2) if writer.format == "jsonl" else (2, 3, 2))


def test_a_table_remembers_its_last_round_with_bets_and_no_fault(table):
    rounds = table.rounds()
    for _ in range(20):
        _, _, _, data, _, fault = next(rounds)
        assert fault is None
        if data["bets"]:
            assert table.last_clean_round is data


# ---------------------------------------------------------------------------------------------
# Into the encoded line


def written(table: Table, kind: str, writer, bet_index: int = 1) -> tuple[AppliedFault, Any]:
    data = a_round()
    fault = inject(kind, table, data, bet_index=bet_index)
    return fault, write_round(writer, data, fault)


def test_conflict_in_json_lines_repeats_the_round_with_another_payout(table, tmp_path):
    writer = JsonLinesWriter(tmp_path / "log.jsonl")
    fault, lines = written(table, "conflict", writer)
    writer.close(keep=True)
    first, repeat = (json.loads(line) for line in (tmp_path / "log.jsonl").read_text().split())
    assert lines == (2, None, 2) and fault.extra == {"first_line": 1}
    assert repeat["bets"][1]["payout"] == "0.00" != first["bets"][1]["payout"]
    assert {**repeat, "bets": first["bets"]} == first
    assert fault.detail == (
        "repeats round LB-IT-01-20261003-0001 of line 1 with payout 0.00 instead of 100.00 "
        "for bet B-00000002"
    )


def test_conflict_in_csv_repeats_the_round_with_another_settled_at(table, tmp_path):
    writer = CsvWriter(tmp_path / "csv")
    fault, lines = written(table, "conflict", writer)
    writer.close(keep=True)
    rounds = (tmp_path / "csv" / "rounds.csv").read_text().splitlines()
    assert lines == (3, None, 2) and fault.extra == {"first_line": 2} and fault.bet_index is None
    assert len(rounds) == 3 and "2026-10-03T18:40:41.500Z" in rounds[2]


def test_bad_money_is_a_bare_number_in_json_and_a_decimal_comma_in_csv(table, tmp_path):
    writer = JsonLinesWriter(tmp_path / "log.jsonl")
    _, lines = written(table, "bad_money", writer)
    writer.close(keep=True)
    assert lines == (1, None, 2) and '"stake":50.00,' in (tmp_path / "log.jsonl").read_text()
    csv_writer = CsvWriter(tmp_path / "csv")
    fault, csv_lines = written(table, "bad_money", csv_writer)
    csv_writer.close(keep=True)
    bets = (tmp_path / "csv" / "bets.csv").read_text().splitlines()
    assert csv_lines == (2, 3, 2) and '"50,00"' in bets[2]
    assert fault.detail == "stake 50.00 written as 50,00"


def test_bad_json_cuts_the_line_short(table, tmp_path):
    writer = JsonLinesWriter(tmp_path / "log.jsonl")
    fault, _ = written(table, "bad_json", writer)
    writer.close(keep=True)
    text = (tmp_path / "log.jsonl").read_text()
    assert 0.3 <= fault.truncate_fraction <= 0.9 and text.endswith("\n")
    with pytest.raises(json.JSONDecodeError):
        json.loads(text)


def test_a_fault_without_a_line_stage_writes_the_round_as_it_is(table, tmp_path):
    writer = JsonLinesWriter(tmp_path / "log.jsonl")
    data = a_round()
    fault = inject("unknown_game", table, data)
    assert write_round(writer, copy.deepcopy(data), fault) == (1, None, 2)
    writer.close(keep=True)
    assert json.loads((tmp_path / "log.jsonl").read_text()) == data


# ---------------------------------------------------------------------------------------------
# Formats, and the bet this tool does not settle


def test_each_format_carries_its_kinds_and_says_why_not_the_others():
    assert CARRIED_KINDS["jsonl"] == tuple(kind for kind in FAULT_KINDS if kind != "unverified_bet")
    assert set(FAULT_KINDS) - set(CARRIED_KINDS["csv"]) == {"unverified_bet", "bad_json"}
    assert set(FAULT_KINDS) - set(CARRIED_KINDS["replay-api"]) == {
        "late_bet", "shoe_card_count", "bad_json", "naive_timestamp", "unknown_bet_type",
        "conflict", "bad_value",
    }  # fmt: skip
    assert set(CARRIED_KINDS["replay-api-jsonl"]) == {*CARRIED_KINDS["replay-api"], "bad_json"}
    for fmt in ("numeric-feed", "flat-csv"):
        assert set(FAULT_KINDS) - set(CARRIED_KINDS[fmt]) == {
            "bad_json", "naive_timestamp", "unknown_bet_type", "conflict", "bad_value"
        }  # fmt: skip
    for fmt in FORMATS:
        for kind in FAULT_KINDS:
            assert (kind in CARRIED_KINDS[fmt]) == (fmt not in INJECTORS[kind].not_in)


@pytest.mark.parametrize(
    ("player", "banker"),
    [
        (["9H", "KS"], ["3D", "4C"]),
        (["10H", "KS", "5D"], ["3D", "3C"]),
        (["10H", "KS", "5D"], ["10D", "2C", "5H"]),
    ],
)
def test_unverified_bet_adds_a_bet_of_a_type_the_engine_does_not_settle(table, player, banker):
    data = a_round()
    data["player_cards"], data["banker_cards"] = player, banker
    fault = inject("unverified_bet", table, data)
    assert (fault.category, fault.bet_index) == ("finding", 2) and len(data["bets"]) == 3
    bet = data["bets"][2]
    assert bet["type"] == "unverified" and bet["bet_id"] is None and bet["currency"] == "EUR"
    assert bet["account"] in {"acc-10001", "acc-10002"}
    assert "2026-10-03T18:40:05Z" <= bet["placed_at"] < data["betting_closed_at"]
    # Staked as the game's most played bet, and lost: no payout of it is settled here.
    assert table.model.bets.most_played == "banker"
    assert table.game.limits_for("banker").allows(parse_amount(bet["stake"]))
    assert bet["payout"] == "0.00" and set(bet) == set(a_round()["bets"][0])


def test_a_spec_log_writes_the_round_without_its_unverified_bet(table, tmp_path):
    writer = JsonLinesWriter(tmp_path / "log.jsonl")
    data = a_round()
    fault = inject("unverified_bet", table, data)
    assert write_round(writer, data, fault) == (1, None, 2)
    writer.close(keep=True)
    assert json.loads((tmp_path / "log.jsonl").read_text()) == a_round()
