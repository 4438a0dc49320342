"""Verification (reporting.verify, cli.md ``verify``): every payout recomputed on the logged
cards, every round checked, each finding pointing back to its file and line, stored once.

The acceptance test runs both ways on generated months: every injected fault is found, at its
line, and nothing else is. The other tests write a few JSON lines inline, next to the finding
they must (or must not) give.
"""

from __future__ import annotations

import dataclasses
import json
import re
import sqlite3
import tempfile
import zipfile
from pathlib import Path

import pytest
from helpers import (
    bet_record,
    round_record,
    run_main,
    sample_inbox_counts,
    store_records,
    stored_findings,
    verify_outcome,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from reporting.cli import app
from reporting.config.bets import catalogue_bets
from reporting.config.loader import OperatorConfig, load_config
from reporting.engine.bets import settle
from reporting.engine.cards import RANKS, SUITS, parse_cards
from reporting.engine.money import format_cents
from reporting.engine.rules import resolve_round
from reporting.errors import InputError
from reporting.ingest.discovery import discover_sources
from reporting.records import FINDING_KINDS
from reporting.sample import CARRIED_KINDS
from reporting.sample.generator import generate_month
from reporting.store.load import ingest
from reporting.store.schema import connect
from reporting.verify.distributed.tasks import log_tasks
from reporting.verify.partitions import PartitionTask, check_partition, plan_partitions
from reporting.verify.run import verify

#: The finding kinds a generated month of the spec's log carries (not unverified_bet: the
#: spec's bet types are this tool's own).
SPEC_FINDING_KINDS = tuple(kind for kind in FINDING_KINDS if kind in CARRIED_KINDS["jsonl"])

REPOSITORY = Path(__file__).resolve().parents[2]
INBOX = REPOSITORY / "sample_data" / "inbox"
MONTH = "2026-10"
runner = CliRunner()


# --- helpers ----------------------------------------------------------------------------------


def config_file(folder: Path, text: str) -> Path:
    """A small operator configuration written into the test's folder."""
    path = folder / "operator.toml"
    path.write_text(text, encoding="utf-8")
    return path


def load(db: Path, config: OperatorConfig, *logs: Path) -> sqlite3.Connection:
    """A fresh store holding the given logs (each must load without a failure)."""
    connection = connect(db)
    result = ingest(connection, discover_sources(list(logs)), config)
    assert result.failed == [], [item.error for item in result.failed]
    return connection


def found(result) -> set[tuple[str, str, str | None]]:
    """Findings of a verify result as ``(kind, round_id, bet_id)``."""
    return {(f.kind, f.round_id, f.bet_id) for f in result.findings}


def findings_table(connection: sqlite3.Connection) -> list[tuple]:
    """Every stored finding, without its row id, in a stable order."""
    return connection.execute(
        "SELECT kind, game_id, report_month, round_id, bet_id, expected_payout_cents,"
        " logged_payout_cents, rule, source_file, source_line, message FROM findings"
        " ORDER BY source_file, source_line, kind, bet_id, round_id"
    ).fetchall()


def greek_round(make_round, round_id: str, bets: list[dict], **fields) -> dict:
    return make_round(
        round_id,
        game="live-baccarat-gr",
        table_id="LB-GR-01",
        shoe_id="LB-GR-01-20261003-S01",
        bets=bets,
        **fields,
    )


# --- the acceptance test: generated months with known faults ---------------------------------


@pytest.fixture(
    scope="module",
    params=[("jsonl", 101), ("jsonl.gz", 202), ("csv", 303)],
    ids=["jsonl-seed101", "jsonl.gz-seed202", "csv-seed303"],
)
def faulty_month(request, tmp_path_factory, operator_config):
    """A generated October with two faults of every kind, ingested and verified."""
    fmt, seed = request.param
    folder = tmp_path_factory.mktemp(f"faulty-{seed}")
    if fmt == "csv":
        log = folder / "month"
        summary = generate_month(
            operator_config, MONTH, log, rounds_per_day=40, faults=2, seed=seed, fmt="csv"
        )
    else:
        log = folder / f"f.{fmt}"
        summary = generate_month(
            operator_config, MONTH, log, rounds_per_day=40, faults=2, seed=seed
        )
    manifest = json.loads(summary.manifest.read_text(encoding="utf-8"))
    connection = load(folder / "store.sqlite", operator_config, log)
    result = verify(connection, operator_config)
    yield fmt, log, manifest, connection, result
    connection.close()


def test_every_injected_finding_is_found_and_nothing_else(faulty_month):
    _, _, manifest, connection, result = faulty_month
    expected = {
        (entry["kind"], entry["round_id"], entry["bet_id"])
        for entry in manifest["faults"]
        if entry["category"] == "finding"
    }
    # Every finding kind the spec's log can carry was injected (all but unverified_bet, a
    # provider's bet type), so a checker that reports nothing cannot pass.
    assert {kind for kind, _, _ in expected} == set(SPEC_FINDING_KINDS)
    assert found(result) == expected
    assert result.finding_count == len(expected) == len(result.findings)
    stored = {row[:3] for row in connection.execute("SELECT kind, round_id, bet_id FROM findings")}
    assert stored == expected
    assert connection.execute("SELECT count(*) FROM findings").fetchone()[0] == len(expected)


def test_each_finding_points_at_the_line_of_its_fault(faulty_month):
    fmt, log, manifest, _, result = faulty_month
    by_key = {
        (entry["kind"], entry["round_id"], entry["bet_id"]): entry
        for entry in manifest["faults"]
        if entry["category"] == "finding"
    }
    for finding in result.findings:
        entry = by_key[(finding.kind, finding.round_id, finding.bet_id)]
        if fmt != "csv":
            where = (str(log), entry["line"])
        elif finding.bet_id is not None and "bets_line" in entry:
            where = (str(log / "bets.csv"), entry["bets_line"])
        else:
            where = (str(log / "rounds.csv"), entry["line"])
        assert (finding.source_file, finding.source_line) == where, finding
        assert finding.source == f"{where[0]}:{where[1]}"
        # Payout faults carry the amounts the manifest lists, as decimal strings.
        document = finding.to_document()
        if "expected_payout" in entry:
            assert document["expected_payout"] == entry["expected_payout"]
            assert document["logged_payout"] == entry["logged_payout"]


def test_rejected_lines_are_exactly_the_injected_rejects(faulty_month):
    fmt, log, manifest, connection, _ = faulty_month
    expected = set()
    for entry in manifest["faults"]:
        if entry["category"] != "reject":
            continue
        if fmt != "csv":
            expected.add((str(log), entry["line"], entry["kind"]))
        elif "bets_line" in entry:
            expected.add((str(log / "bets.csv"), entry["bets_line"], entry["kind"]))
        else:
            expected.add((str(log / "rounds.csv"), entry["line"], entry["kind"]))
    stored = connection.execute("SELECT file_name, line, reason FROM rejected_records").fetchall()
    assert len(stored) == len(expected)
    assert set(stored) == expected


def test_a_clean_generated_month_gives_no_finding(tmp_path, operator_config):
    log = tmp_path / "clean.jsonl"
    summary = generate_month(operator_config, MONTH, log, rounds_per_day=20, faults=0, seed=9)
    connection = load(tmp_path / "store.sqlite", operator_config, log)
    result = verify(connection, operator_config)
    assert result.rounds_checked == summary.rounds
    assert result.bets_checked == summary.bets
    assert result.finding_count == 0 and result.findings == []
    assert findings_table(connection) == []


def test_the_shipped_inbox_month_gives_no_finding(tmp_path, operator_config):
    connection = load(tmp_path / "store.sqlite", operator_config, INBOX)
    assert connection.execute("SELECT count(*) FROM rejected_records").fetchone() == (0,)
    result = verify(connection, operator_config)
    # sample_data/README.md states the month's rounds and bets, and no injected faults.
    assert (result.rounds_checked, result.bets_checked) == sample_inbox_counts()
    assert result.findings == [] and result.finding_count == 0


# --- payouts ----------------------------------------------------------------------------------


def test_a_payout_that_differs_from_the_engine_is_a_mismatch_with_both_amounts(
    tmp_path, operator_config, sample_config_path, make_round, make_bet, write_jsonl
):
    # Player natural 9 beats Banker 7.
    log = write_jsonl(
        tmp_path / "log.jsonl",
        make_round(
            "R-1",
            bets=[
                make_bet("B-1", type="player", stake="25.00", payout="50.00"),  # right
                make_bet("B-2", type="player", stake="25.00", payout="48.75"),  # paid as banker
                make_bet("B-3", type="banker", stake="25.00", payout="0.00"),  # right
                make_bet("B-4", type="tie", stake="10.00", payout="10.00"),  # a loss refunded
            ],
        ),
    )
    db = tmp_path / "store.sqlite"
    load(db, operator_config, log).close()

    result = runner.invoke(
        app, ["verify", "--db", str(db), "--config", str(sample_config_path), "--json"]
    )

    assert result.exit_code == 1, result.output
    document = json.loads(result.stdout)
    findings = sorted(
        (f["kind"], f["bet_id"], f["expected_payout"], f["logged_payout"], f["source"])
        for f in document["findings"]
    )
    assert findings == [
        ("payout_mismatch", "B-2", "50.00", "48.75", f"{log}:1"),
        ("payout_mismatch", "B-4", "0.00", "10.00", f"{log}:1"),
    ]
    assert (document["rounds_checked"], document["bets_checked"]) == (1, 4)


def test_banker_commission_on_odd_cents_is_rounded_down_to_the_cent(
    tmp_path, operator_config, make_round, make_bet, write_jsonl
):
    """games.md: a 12.35 banker win returns 12.35 + 11.73 = 24.08 (11.7325 rounded down)."""
    banker_natural = {"player_cards": ["5H", "2C"], "banker_cards": ["9D", "KC"]}  # 7 v 9
    log = write_jsonl(
        tmp_path / "log.jsonl",
        make_round(
            "R-1",
            **banker_natural,
            bets=[
                make_bet("B-1", type="banker", stake="12.35", payout="24.08"),
                make_bet("B-2", type="banker", stake="12.35", payout="24.09"),  # rounded up
                make_bet("B-3", type="banker", stake="12.37", payout="24.12"),  # 11.7515
                make_bet("B-4", type="banker", stake="12.30", payout="23.98"),  # 11.685
            ],
        ),
    )
    connection = load(tmp_path / "store.sqlite", operator_config, log)
    result = verify(connection, operator_config)
    assert found(result) == {("payout_mismatch", "R-1", "B-2")}
    (finding,) = result.findings
    assert (finding.expected_payout, finding.logged_payout) == (2408, 2409)
    assert finding.to_document()["expected_payout"] == "24.08"
    assert finding.to_document()["logged_payout"] == "24.09"


def test_a_half_up_rounding_policy_is_honoured(tmp_path, make_round, make_bet, write_jsonl):
    """12.30 x 0.95 = 11.685: 11.68 by the default policy, 11.69 half up."""
    config = load_config(config_file(tmp_path, '[games.live-baccarat-it]\nrounding = "half_up"\n'))
    log = write_jsonl(
        tmp_path / "log.jsonl",
        make_round(
            "R-1",
            player_cards=["5H", "2C"],
            banker_cards=["9D", "KC"],
            bets=[
                make_bet("B-1", type="banker", stake="12.30", payout="23.99"),
                make_bet("B-2", type="banker", stake="12.30", payout="23.98"),
            ],
        ),
    )
    result = verify(load(tmp_path / "store.sqlite", config, log), config)
    assert found(result) == {("payout_mismatch", "R-1", "B-2")}
    assert (result.findings[0].expected_payout, result.findings[0].logged_payout) == (2399, 2398)


VARIANTS_CONFIG = """\
[games.variants-it]
base = "live-baccarat-it"
name = "Variants"
bets = ["player", "banker_no_commission", "banker_ez", "tie", "dragon_7", "panda_8", "super_6", "tiger_pair"]
languages = ["it", "en"]
"""
#: A month of the variants' game: each round's cards (dealt by the drawing rules) and what a
#: stake of 10.00 on each bet pays back, from the pays of variants.md (written out by hand).
VARIANT_ROUNDS = {
    # Player 2 draws a 3 (5); banker two-card 6 stands: banker wins with 6.
    "V-1": ("10H 2C 3D", "4S 2H", {"player": 0, "banker_no_commission": 1500, "banker_ez": 2000,
            "tie": 0, "dragon_7": 0, "panda_8": 0, "super_6": 13000, "tiger_pair": 0}),
    # Player stands on 6; banker 5 draws a 2: banker wins with a three-card 7.
    "V-2": ("10H 6C", "2D 3S 2H", {"player": 0, "banker_no_commission": 2000, "banker_ez": 1000,
            "tie": 0, "dragon_7": 41000, "panda_8": 0, "super_6": 0, "tiger_pair": 0}),
    # Player 5 draws a 3 (8); banker stands on 7: player wins with a three-card 8.
    "V-3": ("2C 3D 3H", "10S 7D", {"player": 2000, "banker_no_commission": 0, "banker_ez": 0,
            "tie": 0, "dragon_7": 0, "panda_8": 26000, "super_6": 0, "tiger_pair": 0}),
    # Two naturals of 8, both pairs of fours: a tie, and twin pairs.
    "V-4": ("4H 4S", "4D 4C", {"player": 1000, "banker_no_commission": 1000, "banker_ez": 1000,
            "tie": 9000, "dragon_7": 0, "panda_8": 0, "super_6": 0, "tiger_pair": 101000}),
    # Player stands on a pair of threes (6); banker's pair of fives (0) draws a 10: two pairs.
    "V-5": ("3H 3S", "5D 5C 10H", {"player": 2000, "banker_no_commission": 0, "banker_ez": 0,
            "tie": 0, "dragon_7": 0, "panda_8": 0, "super_6": 0, "tiger_pair": 21000}),
    # Player natural 8 on a pair of nines beats banker 2: one pair.
    "V-6": ("9H 9S", "KD 2C", {"player": 2000, "banker_no_commission": 0, "banker_ez": 0,
            "tie": 0, "dragon_7": 0, "panda_8": 0, "super_6": 0, "tiger_pair": 5000}),
}  # fmt: skip
#: A cent too much on each variant bet, in a round where it wins or pushes.
OVERPAID = {
    ("V-1", "banker_no_commission"), ("V-1", "super_6"), ("V-2", "banker_ez"),
    ("V-2", "dragon_7"), ("V-3", "panda_8"), ("V-4", "tiger_pair"),
}  # fmt: skip


def variant_month(make_round, make_bet, overpaid: set[tuple[str, str]]) -> list[dict]:
    """The rounds of VARIANT_ROUNDS, each bet paid as the table says (a cent more where
    ``overpaid`` names it)."""
    return [
        make_round(
            round_id,
            game="variants-it",
            shoe_id=None,
            player_cards=player.split(),
            banker_cards=banker.split(),
            bets=[
                make_bet(
                    f"{round_id}-{bet_type}",
                    type=bet_type,
                    stake="10.00",
                    payout=format_cents(paid + ((round_id, bet_type) in overpaid)),
                )
                for bet_type, paid in payouts.items()
            ],
        )
        for round_id, (player, banker, payouts) in VARIANT_ROUNDS.items()
    ]


def test_a_month_of_variant_bets_paid_by_their_pays_has_no_finding(
    tmp_path, make_round, make_bet, write_jsonl
):
    config = load_config(config_file(tmp_path, VARIANTS_CONFIG))
    log = write_jsonl(tmp_path / "log.jsonl", *variant_month(make_round, make_bet, set()))
    result = verify(load(tmp_path / "store.sqlite", config, log), config)
    assert result.findings == []
    assert sum(totals.bets for totals in result.bet_totals.values()) == 6 * 8


def test_a_wrong_payout_on_each_variant_bet_is_exactly_one_payout_mismatch(
    tmp_path, make_round, make_bet, write_jsonl
):
    config = load_config(config_file(tmp_path, VARIANTS_CONFIG))
    log = write_jsonl(tmp_path / "log.jsonl", *variant_month(make_round, make_bet, OVERPAID))
    result = verify(load(tmp_path / "store.sqlite", config, log), config)
    assert found(result) == {
        ("payout_mismatch", round_id, f"{round_id}-{bet_type}") for round_id, bet_type in OVERPAID
    }
    for finding in result.findings:
        round_id, bet_type = finding.round_id, finding.bet_id.removeprefix(f"{finding.round_id}-")
        paid = VARIANT_ROUNDS[round_id][2][bet_type]
        assert (finding.expected_payout, finding.logged_payout) == (paid, paid + 1)
        assert finding.message.startswith(f"bet {finding.bet_id} ({bet_type}, stake 10.00) on")


CARD_CODES = [rank + suit for rank in RANKS for suit in SUITS]
paid_bet = st.tuples(
    st.sampled_from(list(catalogue_bets())),
    st.integers(min_value=500, max_value=100_000),  # stake in cents, odd cents included
    st.sampled_from([0, 0, 0, 1, -1]),  # cents added to the engine's payout
)
paid_round = st.tuples(
    st.sampled_from(["live-baccarat-it", "live-baccarat-dk", "no-commission-dk", "ez-baccarat-it"]),
    st.lists(st.sampled_from(CARD_CODES), min_size=2, max_size=3),
    st.lists(st.sampled_from(CARD_CODES), min_size=2, max_size=3),
    st.lists(paid_bet, max_size=5),
)


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(rounds=st.lists(paid_round, min_size=1, max_size=8))
def test_a_payout_is_a_mismatch_exactly_when_it_differs_from_the_engines_settlement(
    rounds, operator_config, make_round, make_bet, write_jsonl
):
    """Against :func:`settle` on the logged cards, for every bet type, stake and game."""
    records, expected = [], set()
    for number, (game_id, player, banker, bets) in enumerate(rounds):
        game = operator_config.games[game_id]
        outcome = resolve_round(parse_cards(player), parse_cards(banker))
        logged = []
        for index, (bet_type, stake, error) in enumerate(bets):
            if not game.offers(bet_type):
                continue
            right = settle(game.bet(bet_type), stake, outcome.facts, game.pay_table, game.rounding)
            payout = max(right.payout + error, 0)
            if payout != right.payout:
                expected.add((f"R-{number}", f"B-{index}", right.payout, payout))
            logged.append(
                make_bet(
                    f"B-{index}",
                    type=bet_type,
                    stake=format_cents(stake),
                    payout=format_cents(payout),
                    currency=game.currency,
                )
            )
        records.append(
            make_round(
                f"R-{number}",
                game=game_id,
                table_id="T-" + game_id,
                shoe_id=None,
                player_cards=player,
                banker_cards=banker,
                bets=logged,
            )
        )
    with tempfile.TemporaryDirectory() as folder:
        log = write_jsonl(Path(folder) / "log.jsonl", *records)
        connection = load(Path(folder) / "store.sqlite", operator_config, log)
        try:
            result = verify(connection, operator_config)
        finally:
            connection.close()
    mismatches = {
        (f.round_id, f.bet_id, f.expected_payout, f.logged_payout)
        for f in result.findings
        if f.kind == "payout_mismatch"
    }
    assert mismatches == expected


# --- the drawing rules --------------------------------------------------------------------------

# Player 2+3 = 5 draws an ace (6); Banker on 4 must stand against a third card of 1 but drew a
# 3 and shows 7: on the logged cards the Banker wins 7 to 6 (by the rules the Player would).
BANKER_DREW_ON_4 = {"player_cards": ["2H", "3D", "AS"], "banker_cards": ["2C", "2D", "3H"]}


def test_a_deal_against_the_third_card_rule_is_one_finding_naming_the_rule(
    tmp_path, operator_config, make_round, make_bet, write_jsonl
):
    log = write_jsonl(
        tmp_path / "log.jsonl",
        make_round(
            "R-1",
            **BANKER_DREW_ON_4,
            bets=[
                make_bet("B-1", type="banker", stake="25.00", payout="48.75"),
                make_bet("B-2", type="player", stake="25.00", payout="0.00"),
                make_bet("B-3", type="big", stake="10.00", payout="15.40"),  # 6 cards
                make_bet("B-4", type="small", stake="10.00", payout="0.00"),
            ],
        ),
    )
    connection = load(tmp_path / "store.sqlite", operator_config, log)
    result = verify(connection, operator_config)

    assert found(result) == {("third_card_rule", "R-1", None)}
    (finding,) = result.findings
    assert finding.rule == "banker_4_draws_on_2_7"
    assert "banker_4_draws_on_2_7" in finding.message
    assert finding.source == f"{log}:1"
    assert len(findings_table(connection)) == 1


def test_bets_of_a_rule_breaking_deal_are_judged_on_the_logged_cards(
    tmp_path, operator_config, make_round, make_bet, write_jsonl
):
    """Paid as if the Banker had stood (Player 6 beats Banker 4): both bets are mismatches."""
    log = write_jsonl(
        tmp_path / "log.jsonl",
        make_round(
            "R-1",
            **BANKER_DREW_ON_4,
            bets=[
                make_bet("B-1", type="banker", stake="25.00", payout="0.00"),
                make_bet("B-2", type="player", stake="25.00", payout="50.00"),
            ],
        ),
    )
    result = verify(load(tmp_path / "store.sqlite", operator_config, log), operator_config)
    assert found(result) == {
        ("third_card_rule", "R-1", None),
        ("payout_mismatch", "R-1", "B-1"),
        ("payout_mismatch", "R-1", "B-2"),
    }
    amounts = {f.bet_id: (f.expected_payout, f.logged_payout) for f in result.findings}
    assert amounts["B-1"] == (4875, 0) and amounts["B-2"] == (0, 5000)


def test_a_deal_breaking_two_rules_is_still_one_finding(
    tmp_path, operator_config, make_round, write_jsonl
):
    # Player on 6 must stand but drew a 2; Banker on 3 must then draw (third card 2) but stood.
    log = write_jsonl(
        tmp_path / "log.jsonl",
        make_round("R-1", player_cards=["3H", "3D", "2S"], banker_cards=["KC", "3C"], bets=[]),
    )
    result = verify(load(tmp_path / "store.sqlite", operator_config, log), operator_config)
    assert found(result) == {("third_card_rule", "R-1", None)}
    assert set(result.findings[0].rule.split(",")) == {
        "player_stands_6_7",
        "banker_3_draws_unless_8",
    }


def test_a_rule_following_deal_gives_no_finding(
    tmp_path, operator_config, make_round, make_bet, write_jsonl
):
    # Banker on 4 draws against a Player third card of 2 (2-7): here it does, and wins 9 to 7.
    log = write_jsonl(
        tmp_path / "log.jsonl",
        make_round(
            "R-1",
            player_cards=["2H", "3D", "2S"],
            banker_cards=["2C", "2D", "5H"],
            bets=[make_bet("B-1", type="banker", stake="20.00", payout="39.00")],
        ),
    )
    result = verify(load(tmp_path / "store.sqlite", operator_config, log), operator_config)
    assert result.findings == []


# --- void rounds --------------------------------------------------------------------------------


def test_a_void_round_must_refund_every_stake(
    tmp_path, operator_config, make_round, make_bet, write_jsonl
):
    log = write_jsonl(
        tmp_path / "log.jsonl",
        make_round(
            "R-1",
            status="void",
            void_reason="card misread by the shoe scanner",
            player_cards=["9H"],
            banker_cards=[],
            bets=[
                make_bet("B-1", type="banker", stake="25.00", payout="0.00"),
                make_bet("B-2", type="player", stake="25.00", payout="25.00"),
                make_bet("B-3", type="player", stake="25.00", payout="50.00"),
            ],
        ),
    )
    result = verify(load(tmp_path / "store.sqlite", operator_config, log), operator_config)
    # Only refunds are judged: no payout_mismatch and no drawing rule on a void round.
    assert found(result) == {
        ("void_not_refunded", "R-1", "B-1"),
        ("void_not_refunded", "R-1", "B-3"),
    }
    amounts = {
        f.bet_id: (f.to_document()["expected_payout"], f.to_document()["logged_payout"])
        for f in result.findings
    }
    assert amounts == {"B-1": ("25.00", "0.00"), "B-3": ("25.00", "50.00")}


# --- stake limits -------------------------------------------------------------------------------


def test_stakes_outside_the_games_limits_are_findings(
    tmp_path, operator_config, make_round, make_bet, write_jsonl
):
    """Italy: EUR 5 - 1,000; Greece: EUR 1 - 5,000 (catalogue). Every bet below loses."""
    log = write_jsonl(
        tmp_path / "log.jsonl",
        make_round(
            "IT-1",
            bets=[
                make_bet("B-1", stake="4.99"),
                make_bet("B-2", stake="5.00"),
                make_bet("B-3", stake="1000.00"),
                make_bet("B-4", stake="1000.01"),
            ],
        ),
        greek_round(
            make_round,
            "GR-1",
            [
                make_bet("G-1", stake="0.99"),
                make_bet("G-2", stake="1.00"),  # below Italy's minimum, fine in Greece
                make_bet("G-3", stake="5000.00"),
                make_bet("G-4", stake="5000.01"),
            ],
        ),
    )
    result = verify(load(tmp_path / "store.sqlite", operator_config, log), operator_config)
    assert found(result) == {
        ("stake_out_of_limits", "IT-1", "B-1"),
        ("stake_out_of_limits", "IT-1", "B-4"),
        ("stake_out_of_limits", "GR-1", "G-1"),
        ("stake_out_of_limits", "GR-1", "G-4"),
    }
    messages = {(f.round_id, f.bet_id): f.message for f in result.findings}
    assert "below the minimum of 5.00 EUR" in messages[("IT-1", "B-1")]
    assert "above the maximum of 1000.00 EUR" in messages[("IT-1", "B-4")]
    assert "below the minimum of 1.00 EUR" in messages[("GR-1", "G-1")]


def test_stake_limits_of_one_bet_type_apply_to_that_type_only(
    tmp_path, make_round, make_bet, write_jsonl
):
    config = load_config(
        config_file(
            tmp_path,
            "[games.live-baccarat-it]\n"
            'limits = { min = "5.00", max = "1000.00", per_bet = {'
            ' tie = { max = "100.00" }, player_pair = { min = "1.00", max = "50.00" } } }\n',
        )
    )
    log = write_jsonl(
        tmp_path / "log.jsonl",
        make_round(
            "R-1",
            bets=[
                make_bet("B-1", type="tie", stake="100.00"),
                make_bet("B-2", type="tie", stake="100.01"),  # over the tie maximum
                make_bet("B-3", type="banker", stake="100.01"),  # the table's limits
                make_bet("B-4", type="player_pair", stake="2.00"),  # its own minimum
                make_bet("B-5", type="player_pair", stake="50.01"),
                make_bet("B-6", type="tie", stake="4.99"),  # the table's minimum still holds
                make_bet("B-7", type="banker", stake="2.00"),
            ],
        ),
    )
    result = verify(load(tmp_path / "store.sqlite", config, log), config)
    assert found(result) == {
        ("stake_out_of_limits", "R-1", "B-2"),
        ("stake_out_of_limits", "R-1", "B-5"),
        ("stake_out_of_limits", "R-1", "B-6"),
        ("stake_out_of_limits", "R-1", "B-7"),
    }
    rules = {f.bet_id: f.rule for f in result.findings}
    assert rules["B-2"] == "5.00-100.00 EUR"
    assert rules["B-5"] == "1.00-50.00 EUR"


def test_the_danish_tie_cap_of_the_sample_configuration(
    tmp_path, operator_config, make_round, make_bet, write_jsonl
):
    """operator.toml caps Danish tie bets at DKK 10,000 below the table's DKK 50,000."""
    log = write_jsonl(
        tmp_path / "log.jsonl",
        make_round(
            "DK-1",
            game="live-baccarat-dk",
            table_id="LB-DK-01",
            bets=[
                make_bet("B-1", type="tie", stake="10000.01", currency="DKK"),
                make_bet("B-2", type="banker", stake="10000.01", currency="DKK"),
                make_bet("B-3", type="banker", stake="49.99", currency="DKK"),
            ],
        ),
    )
    result = verify(load(tmp_path / "store.sqlite", operator_config, log), operator_config)
    assert found(result) == {
        ("stake_out_of_limits", "DK-1", "B-1"),
        ("stake_out_of_limits", "DK-1", "B-3"),
    }


# --- late bets ----------------------------------------------------------------------------------


def test_a_bet_placed_after_betting_closed_is_late(
    tmp_path, operator_config, make_round, make_bet, write_jsonl
):
    log = write_jsonl(
        tmp_path / "log.jsonl",
        make_round(
            "R-1",
            betting_closed_at="2026-10-03T18:40:17Z",
            bets=[
                make_bet("B-1", placed_at="2026-10-03T18:40:16.999Z"),
                make_bet("B-2", placed_at="2026-10-03T18:40:17Z"),  # at the close: in time
                make_bet("B-3", placed_at="2026-10-03T18:40:17.001Z"),
                make_bet("B-4", placed_at=None),  # no time logged: nothing to judge
            ],
        ),
    )
    result = verify(load(tmp_path / "store.sqlite", operator_config, log), operator_config)
    assert found(result) == {("late_bet", "R-1", "B-3")}
    assert result.findings[0].source == f"{log}:1"


def test_lateness_compares_instants_whatever_the_offsets(
    tmp_path, operator_config, make_round, make_bet, write_jsonl
):
    # Betting closed at 18:40:17 UTC, written in Rome's summer time.
    log = write_jsonl(
        tmp_path / "log.jsonl",
        make_round(
            "R-1",
            betting_closed_at="2026-10-03T20:40:17+02:00",
            bets=[
                make_bet("B-1", placed_at="2026-10-03T18:40:17Z"),  # the same instant
                make_bet("B-2", placed_at="2026-10-03T19:40:16+01:00"),  # a second before
                make_bet("B-3", placed_at="2026-10-03T19:40:17.500+01:00"),  # half a second after
                make_bet("B-4", placed_at="2026-10-04T00:10:00+05:30"),  # 18:40:00 UTC
                make_bet("B-5", placed_at="2026-10-03T08:41:00-10:00"),  # 18:41:00 UTC
                make_bet("B-6", placed_at="2026-10-03T20:40:16.900+02:00"),
            ],
        ),
    )
    result = verify(load(tmp_path / "store.sqlite", operator_config, log), operator_config)
    assert found(result) == {("late_bet", "R-1", "B-3"), ("late_bet", "R-1", "B-5")}


# --- the order of a round's times, bet ids used twice --------------------------------------------


def test_a_round_settled_before_it_started_is_found_whatever_the_offsets(
    tmp_path, operator_config, make_round, make_bet, write_jsonl
):
    log = write_jsonl(
        tmp_path / "log.jsonl",
        # 18:40:41 UTC then 18:40:02 UTC, written in Rome's summer time and in UTC.
        make_round(
            "R-1",
            started_at="2026-10-03T20:40:41+02:00",
            settled_at="2026-10-03T18:40:02Z",
            bets=[make_bet("B-1", placed_at="2026-10-03T18:40:09Z")],
        ),
        # The same instants the right way round: in order.
        make_round("R-2", started_at="2026-10-03T20:40:02+02:00", bets=[make_bet("B-2")]),
    )
    result = verify(load(tmp_path / "store.sqlite", operator_config, log), operator_config)
    assert found(result) == {("time_order", "R-1", None)}
    (finding,) = result.findings
    assert finding.rule == (
        "started_before_betting_closed,betting_closed_before_settled,started_before_settled,"
        "bets_placed_before_settled"
    )
    assert finding.source == f"{log}:1"


def test_a_bet_id_used_again_by_a_later_round_is_found_on_each_repeat(
    tmp_path, operator_config, make_round, make_bet, write_jsonl
):
    # File order is not settlement order: the first use of B-1 is SEP-1, on line 2 of the
    # September file, although the October file was loaded first. (The September rounds keep
    # October's start: time_order findings, not looked at here.)
    october = write_jsonl(
        tmp_path / "oct.jsonl",
        make_round("OCT-2", settled_at="2026-10-03T18:41:41Z", bets=[make_bet("B-1")]),
        make_round("OCT-1", bets=[make_bet("B-1"), make_bet("B-2")]),
        make_round("OCT-3", bets=[make_bet("B-3")]),
    )
    september = write_jsonl(
        tmp_path / "sep.jsonl",
        make_round("SEP-0", settled_at="2026-09-15T10:00:40Z", bets=[make_bet("B-9")]),
        make_round("SEP-1", settled_at="2026-09-15T10:00:40Z", bets=[make_bet("B-1")]),
    )
    connection = load(tmp_path / "store.sqlite", operator_config, october, september)
    october_result = verify(connection, operator_config, "2026-10")
    assert found(october_result) == {
        ("duplicate_bet_id", "OCT-1", "B-1"),
        ("duplicate_bet_id", "OCT-2", "B-1"),
    }
    messages = {f.round_id: (f.source, f.message) for f in october_result.findings}
    assert messages["OCT-1"] == (
        f"{october}:2",
        f"bet id B-1 of round OCT-1 was first used by round SEP-1 ({september}:2)",
    )
    assert messages["OCT-2"][1].endswith(f"first used by round SEP-1 ({september}:2)")
    # The first use is no finding; the month of the first use has none.
    assert verify(connection, operator_config, "2026-09").findings_by_kind["duplicate_bet_id"] == 0
    everything = verify(connection, operator_config)
    assert {f for f in found(everything) if f[0] == "duplicate_bet_id"} == found(october_result)


def test_rounds_settled_at_the_same_instant_take_turns_by_round_id(
    tmp_path, operator_config, make_round, make_bet, write_jsonl
):
    log = write_jsonl(
        tmp_path / "log.jsonl",
        make_round("R-2", bets=[make_bet("B-1")]),
        make_round("R-1", bets=[make_bet("B-1")]),
    )
    result = verify(load(tmp_path / "store.sqlite", operator_config, log), operator_config)
    assert found(result) == {("duplicate_bet_id", "R-2", "B-1")}
    assert result.findings[0].message.endswith(f"first used by round R-1 ({log}:2)")


def test_a_bet_id_repeated_in_a_game_the_configuration_does_not_list_is_not_judged(
    tmp_path, operator_config, make_round, make_bet, write_jsonl
):
    log = write_jsonl(
        tmp_path / "log.jsonl",
        make_round("R-1", bets=[make_bet("B-1")]),
        make_round("R-2", settled_at="2026-10-03T18:41:41Z", bets=[make_bet("B-1")]),
    )
    connection = load(tmp_path / "store.sqlite", operator_config, log)
    greek_only = dataclasses.replace(
        operator_config, games={"live-baccarat-gr": operator_config.games["live-baccarat-gr"]}
    )
    result = verify(connection, greek_only)
    assert result.findings_by_kind["duplicate_bet_id"] == 0
    assert found(verify(connection, operator_config)) == {("duplicate_bet_id", "R-2", "B-1")}


# --- a month of a store of many months: that month only, through indexes ----------------------

MONTHS = ("2026-08", "2026-09", "2026-10")


@pytest.fixture(scope="module")
def store_of_months(tmp_path_factory, operator_config):
    """Three generated months of two tables a game, a fault of every kind each, in one store;
    then two bet ids reused across months: an October bet takes the id of an August bet, and a
    September bet the id of another October bet (its first use is then September's)."""
    folder = tmp_path_factory.mktemp("months")
    logs = []
    for number, month in enumerate(MONTHS):
        logs.append(folder / f"{month}.jsonl")
        generate_month(
            operator_config, month, logs[-1], tables=2, rounds_per_day=6, faults=1, seed=number
        )
    connection = load(folder / "store.sqlite", operator_config, *logs)
    first_bet = (
        "SELECT b.round_id, b.bet_id FROM bets AS b JOIN rounds AS r USING (round_id)"
        " WHERE r.report_month = ? AND r.status = 'settled' ORDER BY b.round_id, b.bet_id"
        " LIMIT 1 OFFSET ?"
    )
    august = connection.execute(first_bet, ("2026-08", 0)).fetchone()
    october, october_other = (
        connection.execute(first_bet, ("2026-10", n)).fetchone() for n in (0, 7)
    )
    september = connection.execute(first_bet, ("2026-09", 0)).fetchone()
    rename = "UPDATE bets SET bet_id = ? WHERE round_id = ? AND bet_id = ?"
    connection.execute("PRAGMA foreign_keys = OFF")
    connection.execute(rename, (august[1], *october))
    connection.execute(rename, (october_other[1], *september))
    connection.close()
    return folder / "store.sqlite", {
        "2026-10": [(october[0], august[0]), (october_other[0], september[0])]
    }


def expected_duplicates(connection, games, month) -> set[tuple[str, str, str]]:
    """Every bet of ``month`` (of ``games``) whose id an earlier round (by settlement time,
    then round id) of any month used, with that first round: counted here from every bet."""
    uses: dict[str, list[tuple[str, str, str, str]]] = {}
    for bet_id, round_id, settled_at, report_month, game_id in connection.execute(
        "SELECT b.bet_id, r.round_id, r.settled_at, r.report_month, r.game_id"
        " FROM bets AS b JOIN rounds AS r USING (round_id)"
    ):
        uses.setdefault(bet_id, []).append((settled_at, round_id, report_month, game_id))
    found = set()
    for bet_id, rounds in uses.items():
        rounds.sort()
        for _settled, round_id, report_month, game_id in rounds[1:]:
            if report_month == month and game_id in games:
                found.add((round_id, bet_id, rounds[0][1]))
    return found


def test_a_months_findings_in_a_store_of_months_are_those_of_the_whole_store(
    store_of_months, operator_config
):
    """Verify of one month (in one process, or in partitions) finds in that month exactly what
    verify of the whole store finds there, byte for byte, a bet id first used in an earlier
    month included; and every duplicate bet id the bets show."""
    db, reused = store_of_months
    connection = connect(db, create=False)
    try:
        verify(connection, operator_config)
        whole = findings_table(connection)
        for month in MONTHS:
            of_month = [row for row in whole if row[2] == month]
            result = verify(connection, operator_config, month)
            assert [row for row in findings_table(connection) if row[2] == month] == of_month
            stored = stored_findings(connection)
            split = verify(connection, operator_config, month, runner=in_process)
            assert stored_findings(connection) == stored
            assert verify_outcome(split) == verify_outcome(result)
            duplicates = {
                (f.round_id, f.bet_id, f.message.split("first used by round ")[1].split(" (")[0])
                for f in result.findings
                if f.kind == "duplicate_bet_id"
            }
            assert duplicates == expected_duplicates(connection, operator_config.games, month)
    finally:
        connection.close()
    october = {(round_id, first) for round_id, _bet, first in duplicates}
    assert set(reused["2026-10"]) <= october


def in_process(tasks):
    """A runner checking the partitions here, one after another."""
    for task in tasks:
        yield check_partition(task)


#: A step of a query plan reading a table: how, and which (its name or alias).
PLAN_STEP = re.compile(r"^(SCAN|SEARCH) (\w+)")
#: What a search may find rows of ``rounds`` or ``bets`` by without reading other months: a
#: month, a round, a shoe, a bet id (not a game alone, nor a range from the start).
BOUNDED = re.compile(r"\((?:game_id=\? AND )?(?:report_month|round_id|rowid|shoe_id|bet_id)=\?")


def whole_reads(connection, statements) -> dict[str, list[str]]:
    """Each statement whose plan reads ``rounds`` or ``bets`` (under any alias) whole, or all
    of a game's months, with the steps that do."""
    from reporting.store.shape import _MONTHS

    found = {}
    for statement in dict.fromkeys(statements):
        if not statement.lstrip().upper().startswith(("SELECT", "WITH", "DELETE")):
            continue
        if statement == _MONTHS:  # the store's months, a min() by the index per month: a row
            continue  # each (tests/store/test_schema.py holds its plan to that)
        names = {"rounds", "bets"} | set(re.findall(r"\b(?:rounds|bets) AS (\w+)", statement))
        steps = [row[3] for row in connection.execute(f"EXPLAIN QUERY PLAN {statement}")]
        whole = [
            step
            for step in steps
            if (match := PLAN_STEP.match(step))
            and match[2] in names
            and (match[1] == "SCAN" or not BOUNDED.search(step))
        ]
        if whole:
            found[statement[:300]] = whole
    return found


def test_a_months_verification_reads_the_month_through_indexes(
    store_of_months, operator_config, sample_config_path, monkeypatch
):
    """No query of verify of a month (the command in one process; the partitions, the store
    checks and the plan of a partitioned run, the lines a cluster's workers read) reads every
    round or every bet of the store: each finds the month's rounds by month (and game), their
    bets by round, a bet id by the bet-id index."""
    db, _reused = store_of_months
    statements: list[str] = []
    connect_sqlite = sqlite3.connect

    def traced(*args, **kwargs):
        connection = connect_sqlite(*args, **kwargs)
        connection.set_trace_callback(statements.append)
        return connection

    monkeypatch.setattr(sqlite3, "connect", traced)
    command = ["verify", "--db", str(db), "--config", str(sample_config_path)]
    outcome = runner.invoke(app, [*command, "--month", "2026-10", "--jobs", "1", "--json"])
    assert outcome.exit_code == 1, outcome.output  # the month's faults
    connection = connect(db, create=False)
    try:
        verify(connection, operator_config, "2026-10", runner=in_process)
        tasks = [
            PartitionTask(str(db), "2026-10", dict(operator_config.games), partition, "")
            for partition in plan_partitions(connection, "2026-10")
        ]
        assert len(log_tasks(connection, tasks, str(db.parent))) == len(tasks) > 1
        monkeypatch.undo()
        assert len(statements) > 20
        assert whole_reads(connection, statements) == {}
    finally:
        connection.close()


# --- the Greek house rule -------------------------------------------------------------------------


def test_one_account_holding_both_pair_bets_in_the_greek_game_is_one_finding(
    tmp_path, operator_config, make_round, make_bet, write_jsonl
):
    log = write_jsonl(
        tmp_path / "log.jsonl",
        greek_round(
            make_round,
            "GR-1",
            [
                make_bet("B-1", account="acc-1", type="player_pair", stake="5.00"),
                make_bet("B-2", account="acc-1", type="banker_pair", stake="5.00"),
                make_bet("B-3", account="acc-2", type="player_pair", stake="5.00"),
            ],
        ),
        # Different accounts may hold one each.
        greek_round(
            make_round,
            "GR-2",
            [
                make_bet("B-4", account="acc-1", type="player_pair", stake="5.00"),
                make_bet("B-5", account="acc-2", type="banker_pair", stake="5.00"),
            ],
        ),
        # A pair bet beside a main bet is no breach.
        greek_round(
            make_round,
            "GR-3",
            [
                make_bet("B-6", account="acc-1", type="player_pair", stake="5.00"),
                make_bet("B-7", account="acc-1", type="banker", stake="5.00"),
            ],
        ),
        # The Italian game has no such house rule.
        make_round(
            "IT-1",
            bets=[
                make_bet("B-8", account="acc-1", type="player_pair", stake="5.00"),
                make_bet("B-9", account="acc-1", type="banker_pair", stake="5.00"),
            ],
        ),
    )
    result = verify(load(tmp_path / "store.sqlite", operator_config, log), operator_config)
    assert found(result) == {("exclusive_side_bets", "GR-1", None)}
    (finding,) = result.findings
    assert finding.source == f"{log}:1"
    assert "acc-1" in finding.message


# --- shoes ----------------------------------------------------------------------------------------

ONE_DECK = '[games.one-deck-it]\nbase = "live-baccarat-it"\ndecks = 1\nbets = ["player", "banker", "tie"]\n'


def shoe_round(make_round, round_id: str, shoe: str, hand: int, player, banker, settled: str):
    """A round of the one-deck game with no bets (naturals only: no drawing to check)."""
    return make_round(
        round_id,
        game="one-deck-it",
        table_id="OD-01",
        shoe_id=shoe,
        hand_no=hand,
        started_at=None,
        betting_closed_at=None,
        settled_at=settled,
        player_cards=player,
        banker_cards=banker,
        bets=[],
    )


def test_the_first_round_where_a_card_exceeds_the_shoe_is_one_finding_per_shoe(
    tmp_path, make_round, write_jsonl
):
    config = load_config(config_file(tmp_path, ONE_DECK))
    log = write_jsonl(
        tmp_path / "log.jsonl",
        shoe_round(make_round, "S1-1", "S1", 1, ["AH", "8D"], ["2C", "3S"], "2026-10-03T10:00:00Z"),
        shoe_round(make_round, "S1-2", "S1", 2, ["AH", "7C"], ["4D", "5H"], "2026-10-03T10:01:00Z"),
        shoe_round(make_round, "S1-3", "S1", 3, ["AH", "8S"], ["2D", "3C"], "2026-10-03T10:02:00Z"),
        # The same cards in another shoe: a fresh deck, no finding.
        shoe_round(make_round, "S2-1", "S2", 1, ["AH", "8D"], ["2C", "3S"], "2026-10-03T11:00:00Z"),
        shoe_round(make_round, "S2-2", "S2", 2, ["9S", "KD"], ["QH", "8H"], "2026-10-03T11:01:00Z"),
    )
    connection = load(tmp_path / "store.sqlite", config, log)
    result = verify(connection, config)
    assert found(result) == {("shoe_card_count", "S1-2", None)}
    (finding,) = result.findings
    assert finding.source == f"{log}:2"
    assert "AH" in finding.message


def test_a_shoe_is_a_table_s_and_a_game_reshuffled_every_round_deals_from_none(
    tmp_path, make_round, write_jsonl
):
    """Two tables numbering their shoes S01, S02, ... were counted as one shoe: their cards
    added up to a false high finding. And a game reshuffled before every round, whose rounds
    carry a session's id as their shoe, had its cards counted across shuffles."""
    text = ONE_DECK + (
        '[games.one-deck-rng]\nbase = "mini-baccarat-it"\ndecks = 1\n'
        'bets = ["player", "banker", "tie"]\n'
    )
    config = load_config(config_file(tmp_path, text))
    dealt = (["AH", "8D"], ["2C", "3S"])
    rounds = [
        shoe_round(make_round, f"T{table}-1", "S01", 1, *dealt, f"2026-10-03T1{table}:00:00Z")
        | {"table_id": f"OD-0{table}"}
        for table in (1, 2)
    ]
    rounds += [
        shoe_round(make_round, f"R-{n}", "SESSION-1", n, *dealt, f"2026-10-04T10:0{n}:00Z")
        | {"game": "one-deck-rng", "table_id": "RNG-01"}
        for n in (1, 2, 3)
    ]
    log = write_jsonl(tmp_path / "log.jsonl", *rounds)
    connection = load(tmp_path / "store.sqlite", config, log)
    assert connection.execute("SELECT count(*) FROM rounds").fetchone() == (5,)
    result = verify(connection, config)
    assert found(result) == set()
    # the same two hands at one table's shoe: the ace is one too many
    log = write_jsonl(
        tmp_path / "one.jsonl", *(round | {"table_id": "OD-01"} for round in rounds[:2])
    )
    result = verify(load(tmp_path / "one.sqlite", config, log), config)
    assert found(result) == {("shoe_card_count", "T2-1", None)}


def test_shoe_counts_follow_hand_order_not_line_order(tmp_path, make_round, write_jsonl):
    config = load_config(config_file(tmp_path, ONE_DECK))
    log = write_jsonl(
        tmp_path / "log.jsonl",
        # Hand 2 is logged before hand 1: the card is exceeded in hand 2.
        shoe_round(make_round, "S3-2", "S3", 2, ["KS", "8H"], ["3D", "3H"], "2026-10-03T10:01:00Z"),
        shoe_round(make_round, "S3-1", "S3", 1, ["KS", "9D"], ["2H", "4C"], "2026-10-03T10:00:00Z"),
    )
    result = verify(load(tmp_path / "store.sqlite", config, log), config)
    assert found(result) == {("shoe_card_count", "S3-2", None)}
    assert result.findings[0].source == f"{log}:1"


def test_the_eight_deck_sample_games_allow_eight_copies_of_a_card(
    tmp_path, operator_config, make_round, write_jsonl
):
    rounds = [
        make_round(
            f"R-{hand}",
            shoe_id="SHOE-8",
            hand_no=hand,
            player_cards=["AH", "8D" if hand % 2 else "8C"],
            banker_cards=["2C", "3S"] if hand % 2 else ["2D", "3D"],
            bets=[],
        )
        for hand in range(1, 10)
    ]
    log = write_jsonl(tmp_path / "log.jsonl", *rounds)
    result = verify(load(tmp_path / "store.sqlite", operator_config, log), operator_config)
    # The ninth ace of hearts is one too many for eight decks.
    assert found(result) == {("shoe_card_count", "R-9", None)}


def test_month_scope_counts_only_that_month_and_judges_shoes_across_months(
    tmp_path, make_round, write_jsonl
):
    """Rome is UTC+2 until 25 October 2026: 21:50Z on 30 September is still September there,
    22:10Z is already October."""
    config = load_config(config_file(tmp_path, ONE_DECK))
    september, october = "2026-09-30T21:50:00Z", "2026-09-30T22:10:00Z"
    log = write_jsonl(
        tmp_path / "log.jsonl",
        # Shoe X: the ace is dealt once in September and once in October.
        shoe_round(make_round, "X-1", "X", 1, ["AH", "8D"], ["2C", "3S"], september),
        shoe_round(make_round, "X-2", "X", 2, ["AH", "7C"], ["4D", "5H"], october),
        # Shoe Y: exceeded in September; the October repeat is not a second finding.
        shoe_round(make_round, "Y-1", "Y", 1, ["KS", "9D"], ["2H", "4C"], "2026-09-30T21:40:00Z"),
        shoe_round(make_round, "Y-2", "Y", 2, ["KS", "8H"], ["3D", "3H"], september),
        shoe_round(make_round, "Y-3", "Y", 3, ["KS", "8S"], ["QD", "6C"], october),
        # Shoe Z lies wholly in October and is clean.
        shoe_round(make_round, "Z-1", "Z", 1, ["9S", "KD"], ["QH", "8H"], "2026-10-12T10:00:00Z"),
    )
    connection = load(tmp_path / "store.sqlite", config, log)
    months = dict(connection.execute("SELECT round_id, report_month FROM rounds"))
    assert months == {
        "X-1": "2026-09",
        "X-2": "2026-10",
        "Y-1": "2026-09",
        "Y-2": "2026-09",
        "Y-3": "2026-10",
        "Z-1": "2026-10",
    }

    in_october = verify(connection, config, "2026-10")
    assert in_october.rounds_checked == 3
    assert found(in_october) == {("shoe_card_count", "X-2", None)}

    in_september = verify(connection, config, "2026-09")
    assert in_september.rounds_checked == 3
    assert found(in_september) == {("shoe_card_count", "Y-2", None)}

    everything = verify(connection, config)
    assert everything.rounds_checked == 6
    assert found(everything) == found(in_october) | found(in_september)


# --- stored findings: once, and per month -------------------------------------------------------


@pytest.fixture
def two_months(tmp_path, operator_config, make_round, make_bet, write_jsonl):
    """A September round and an October round, each with one finding."""
    log = write_jsonl(
        tmp_path / "log.jsonl",
        make_round(
            "SEP-1",
            started_at="2026-09-15T10:00:02Z",
            betting_closed_at="2026-09-15T10:00:17Z",
            settled_at="2026-09-15T10:00:40Z",
            bets=[
                make_bet("B-1", stake="4.00", placed_at="2026-09-15T10:00:09Z")
            ],  # below the minimum
        ),
        make_round(
            "OCT-1",
            bets=[make_bet("B-2", payout="48.75")],  # a lost banker bet paid
        ),
    )
    return load(tmp_path / "store.sqlite", operator_config, log)


def test_verifying_twice_stores_the_same_findings_once(two_months, operator_config):
    first = verify(two_months, operator_config)
    after_first = findings_table(two_months)
    second = verify(two_months, operator_config)
    assert len(after_first) == 2
    assert findings_table(two_months) == after_first
    assert found(first) == found(second)
    assert first.findings_by_kind == second.findings_by_kind


def test_verifying_one_month_keeps_the_other_months_findings(two_months, operator_config):
    verify(two_months, operator_config)
    everything = findings_table(two_months)

    october = verify(two_months, operator_config, "2026-10")
    assert found(october) == {("payout_mismatch", "OCT-1", "B-2")}
    assert findings_table(two_months) == everything

    verify(two_months, operator_config, "2026-09")
    verify(two_months, operator_config, "2026-10")
    assert findings_table(two_months) == everything
    months = sorted(row[2] for row in everything)
    assert months == ["2026-09", "2026-10"]


ROUND_TIMES = ("2026-09-20T12:00:00Z", "2026-10-03T18:40:41Z", "2026-10-31T23:30:00Z")
bet_strategy = st.fixed_dictionaries(
    {
        "account": st.sampled_from(["acc-1", "acc-2"]),
        "type": st.sampled_from(["player", "banker", "tie", "player_pair", "banker_pair"]),
        "stake": st.sampled_from(["0.50", "5.00", "12.35", "25.00", "6000.00"]),
        "payout": st.sampled_from(["0.00", "5.00", "24.08", "50.00"]),
        "placed_at": st.sampled_from(["2026-10-03T18:40:09Z", "2026-10-03T18:40:20Z"]),
    }
)
round_strategy = st.fixed_dictionaries(
    {
        "game": st.sampled_from(["live-baccarat-it", "live-baccarat-gr"]),
        "settled_at": st.sampled_from(ROUND_TIMES),
        "status": st.sampled_from(["settled", "settled", "void"]),
        "cards": st.sampled_from(
            [
                (["9H", "KS"], ["5D", "2C"]),
                (["2H", "3D", "AS"], ["2C", "2D", "3H"]),
                (["9H", "9S"], ["9D", "KC"]),
            ]
        ),
        "bets": st.lists(bet_strategy, max_size=4),
    }
)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(rounds=st.lists(round_strategy, min_size=1, max_size=6))
def test_re_verifying_is_idempotent_in_any_order_of_scopes(
    rounds, operator_config, make_round, make_bet, write_jsonl
):
    records = []
    for number, spec in enumerate(rounds):
        player, banker = spec["cards"]
        fields = {"player_cards": player, "banker_cards": banker}
        if spec["status"] == "void":
            fields = {"status": "void", "void_reason": "video stream interrupted"}
        records.append(
            make_round(
                f"R-{number}",
                game=spec["game"],
                table_id="T-" + spec["game"],
                shoe_id=f"SHOE-{spec['game']}",
                hand_no=number + 1,
                settled_at=spec["settled_at"],
                bets=[make_bet(f"B-{k}", **bet) for k, bet in enumerate(spec["bets"])],
                **fields,
            )
        )
    with tempfile.TemporaryDirectory() as folder:
        log = write_jsonl(Path(folder) / "log.jsonl", *records)
        connection = load(Path(folder) / "store.sqlite", operator_config, log)
        try:
            whole = verify(connection, operator_config)
            reference = findings_table(connection)
            assert len(reference) == whole.finding_count
            assert verify(connection, operator_config).finding_count == whole.finding_count
            assert findings_table(connection) == reference
            per_month = 0
            for month in ("2026-11", "2026-09", "2026-10", "2026-08"):
                per_month += verify(connection, operator_config, month).finding_count
                assert findings_table(connection) == reference
            assert per_month == whole.finding_count
        finally:
            connection.close()


# --- the command ----------------------------------------------------------------------------------


@pytest.fixture
def faulty_db(tmp_path, operator_config, make_round, make_bet, write_jsonl):
    """A store with one payout mismatch and one third-card breach; returns (db, log)."""
    log = write_jsonl(
        tmp_path / "log.jsonl",
        make_round("R-1", bets=[make_bet("B-1", type="player", payout="48.75")]),
        make_round("R-2", **BANKER_DREW_ON_4, bets=[]),
        make_round("R-3"),
    )
    db = tmp_path / "store.sqlite"
    load(db, operator_config, log).close()
    return db, log


def test_json_output_has_the_contract_shape(faulty_db, sample_config_path):
    db, log = faulty_db
    result = runner.invoke(
        app, ["verify", "--db", str(db), "--config", str(sample_config_path), "--json"]
    )
    assert result.exit_code == 1, result.output
    document = json.loads(result.stdout)
    assert {"rounds_checked", "bets_checked", "findings"} <= set(document)
    assert (document["rounds_checked"], document["bets_checked"]) == (3, 2)
    keys = {
        "kind",
        "round_id",
        "bet_id",
        "expected_payout",
        "logged_payout",
        "source",
        "message",
    }
    for finding in document["findings"]:
        assert keys <= set(finding)
        assert finding["kind"] in FINDING_KINDS
        assert finding["message"].strip()
    by_kind = {finding["kind"]: finding for finding in document["findings"]}
    assert set(by_kind) == {"payout_mismatch", "third_card_rule"}
    mismatch, breach = by_kind["payout_mismatch"], by_kind["third_card_rule"]
    assert (mismatch["round_id"], mismatch["bet_id"]) == ("R-1", "B-1")
    assert (mismatch["expected_payout"], mismatch["logged_payout"]) == ("50.00", "48.75")
    assert mismatch["source"] == f"{log}:1"
    assert (breach["round_id"], breach["bet_id"], breach["source"]) == ("R-2", None, f"{log}:2")


def test_exit_codes_and_human_output_of_the_real_command(
    tmp_path, faulty_db, sample_config_path, operator_config, make_round, write_jsonl
):
    db, log = faulty_db
    clean_db = tmp_path / "clean.sqlite"
    load(clean_db, operator_config, write_jsonl(tmp_path / "clean.jsonl", make_round("C-1")))
    config = ("--config", str(sample_config_path))

    with_findings = run_main("verify", "--db", str(db), *config)
    as_json = run_main("verify", "--db", str(db), "--json", *config)
    without = run_main("verify", "--db", str(clean_db), "--json", *config)

    assert with_findings.returncode == 1, with_findings.stderr
    assert as_json.returncode == 1, as_json.stderr
    assert without.returncode == 0, without.stderr
    assert json.loads(without.stdout)["findings"] == []
    printed = with_findings.stdout.splitlines()
    document = json.loads(as_json.stdout)
    for finding in document["findings"]:
        assert f"{finding['source']}: {finding['kind']}: {finding['message']}" in printed
    assert f"{log}:1: payout_mismatch: " in with_findings.stdout
    for result in (with_findings, as_json, without):
        assert "Traceback" not in result.stderr


def test_a_missing_database_exits_2_with_one_line(tmp_path, sample_config_path):
    missing = tmp_path / "nowhere.sqlite"
    result = run_main("verify", "--db", str(missing), "--config", str(sample_config_path))
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and str(missing) in lines[0]
    assert not missing.exists()  # not created by looking for it


@pytest.mark.parametrize("month", ["2026-13", "2026-10-01"])
def test_a_bad_month_exits_2_with_one_line(faulty_db, sample_config_path, month):
    db, _ = faulty_db
    result = run_main(
        "verify", "--db", str(db), "--month", month, "--config", str(sample_config_path)
    )
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and month in lines[0]


def test_month_option_scopes_the_run(tmp_path, operator_config, sample_config_path, two_months):
    db = tmp_path / "store.sqlite"
    two_months.close()
    result = runner.invoke(
        app,
        [
            "verify",
            "--db",
            str(db),
            "--month",
            "2026-09",
            "--config",
            str(sample_config_path),
            "--json",
        ],
    )
    assert result.exit_code == 1, result.output
    document = json.loads(result.stdout)
    assert document["rounds_checked"] == 1
    assert [(f["kind"], f["round_id"]) for f in document["findings"]] == [
        ("stake_out_of_limits", "SEP-1")
    ]


def test_workbook_option_writes_an_xlsx(tmp_path, faulty_db, sample_config_path):
    db, _ = faulty_db
    workbook = tmp_path / "out" / "audit.xlsx"
    workbook.parent.mkdir()
    result = runner.invoke(
        app,
        [
            "verify",
            "--db",
            str(db),
            "--config",
            str(sample_config_path),
            "--workbook",
            str(workbook),
            "--as-of",
            "2026-11-05",
        ],
    )
    assert result.exit_code == 1, result.output
    assert workbook.is_file()
    with zipfile.ZipFile(workbook) as archive:
        assert "xl/workbook.xml" in archive.namelist()
    from openpyxl import load_workbook

    book = load_workbook(workbook, read_only=True)
    try:
        assert "Findings" in book.sheetnames
    finally:
        book.close()


@pytest.mark.parametrize("month", ["2026-1", "October", "2026-00", "26-10"])
def test_every_malformed_month_is_refused_before_anything_runs(
    faulty_db, sample_config_path, month
):
    db, _ = faulty_db
    result = runner.invoke(
        app, ["verify", "--db", str(db), "--month", month, "--config", str(sample_config_path)]
    )
    assert isinstance(result.exception, InputError), repr(result.exception)
    assert month in str(result.exception)
    connection = sqlite3.connect(db)
    try:  # verify never ran: the findings table (part of the schema since version 2) is empty
        (findings,) = connection.execute("SELECT count(*) FROM findings").fetchone()
    finally:
        connection.close()
    assert findings == 0


def test_an_empty_database_file_exits_2_with_one_line(tmp_path, sample_config_path):
    """A zero-byte file (a mistyped --db touched by another tool) is no store: one line, exit 2,
    no traceback."""
    empty = tmp_path / "empty.sqlite"
    empty.write_bytes(b"")
    result = run_main("verify", "--db", str(empty), "--config", str(sample_config_path))
    assert result.returncode == 2
    assert "Traceback" not in result.stderr, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and str(empty) in lines[0]


def test_a_database_of_another_tool_is_refused_as_input(tmp_path, sample_config_path):
    foreign = tmp_path / "other.sqlite"
    connection = sqlite3.connect(foreign)
    connection.execute("CREATE TABLE notes (text TEXT)")
    connection.commit()
    connection.close()
    result = runner.invoke(
        app, ["verify", "--db", str(foreign), "--config", str(sample_config_path)]
    )
    assert isinstance(result.exception, InputError), repr(result.exception)
    assert str(foreign) in str(result.exception)


def test_a_configuration_without_a_game_keeps_that_games_findings(tmp_path):
    """Verifying with a configuration of one game judges and replaces that game's findings
    only; the others' rounds are counted as not checked and their findings stay."""
    from reporting.config.loader import load_config
    from reporting.ingest.discovery import discover_sources
    from reporting.sample.generator import generate_month
    from reporting.store.load import ingest
    from reporting.store.schema import connect
    from reporting.verify.run import verify

    full = load_config(Path("sample_data/operator.toml"))
    log = tmp_path / "f.jsonl"
    generate_month(full, "2026-10", log, rounds_per_day=20, faults=1, seed=7)
    connection = connect(tmp_path / "f.sqlite")
    ingest(connection, discover_sources([log]), full)
    verify(connection, full, "2026-10")
    before = dict(
        connection.execute("SELECT game_id, count(*) FROM findings GROUP BY game_id").fetchall()
    )
    assert len(before) > 1
    one = tmp_path / "one.toml"
    one.write_text('[games.live-baccarat-it]\nlanguages = ["it"]\n', encoding="utf-8")
    result = verify(connection, load_config(one), "2026-10")
    after = dict(
        connection.execute("SELECT game_id, count(*) FROM findings GROUP BY game_id").fetchall()
    )
    assert after == before
    assert set(result.unconfigured_rounds) == set(full.games) - {"live-baccarat-it"}


def test_bets_of_a_type_verify_does_not_settle_are_counted_apart_from_those_checked(
    tmp_path, operator_config
):
    """Issue 23: an ``unverified_bet`` was counted in ``bets_checked``. The month's bets are the
    checked and the unverified, each counted once, in one process and in partitions alike."""
    rounds = [
        round_record(
            "R-1",
            bet_record("R-1", "B-1", bet_type="banker"),
            bet_record("R-1", "B-2", bet_type="BC_PLAYER_TIGER", payout_cents=0),
        ),
        round_record("R-2", bet_record("R-2", "B-3", bet_type="Kings", payout_cents=0)),
    ]
    connection = connect(tmp_path / "store.sqlite")
    store_records(connection, rounds, file_name="export.json")
    result = verify(connection, operator_config, MONTH)
    assert (result.rounds_checked, result.bets_checked, result.bets_unverified) == (2, 1, 2)
    assert result.findings_by_kind["unverified_bet"] == 2
    from reporting.cli.verify import verify_document

    document = verify_document(result, [], [])
    assert (document["bets_checked"], document["bets_unverified"]) == (1, 2)


def month_of_unverified_bets_then_mismatches(connection, unverified: int, mismatches: int):
    """``unverified`` rounds each holding a bet of a type verify does not settle, then
    ``mismatches`` rounds each holding a Banker bet paid on the Player's win: the payout
    findings are found last."""
    rounds = [
        round_record(f"R-{n}", bet_record(f"R-{n}", f"U-{n}", bet_type="Kings"), shoe_id=None)
        for n in range(1, unverified + 1)
    ] + [
        round_record(f"R-{n}", bet_record(f"R-{n}", f"M-{n}", payout_cents=5000), shoe_id=None)
        for n in range(unverified + 1, unverified + mismatches + 1)
    ]
    store_records(connection, rounds, file_name="export.json")


def test_a_list_of_findings_cut_short_keeps_every_payout_finding_before_an_unverified_bet(
    tmp_path, operator_config
):
    """Issue 23: the list kept for the report was the first 10,000 found, so unverified bets
    found first hid payout mismatches found later. The list keeps the heaviest, heaviest
    first; the counts by kind are whole."""
    connection = connect(tmp_path / "store.sqlite")
    month_of_unverified_bets_then_mismatches(connection, unverified=30, mismatches=4)
    result = verify(connection, operator_config, MONTH, keep=10)
    assert result.findings_by_kind == {"unverified_bet": 30, "payout_mismatch": 4}
    assert [f.kind for f in result.findings] == ["payout_mismatch"] * 4 + ["unverified_bet"] * 6
    assert [f.bet_id for f in result.findings[:4]] == ["M-31", "M-32", "M-33", "M-34"]
    # Of a weight, the first found are kept (rounds are read in the order of their ids).
    first_found = sorted(f"U-{n}" for n in range(1, 31))[:6]
    assert [f.bet_id for f in result.findings[4:]] == first_found


def test_findings_file_holds_every_finding_heaviest_first_and_json_says_what_it_lists(
    tmp_path, operator_config
):
    """Issue 23: ``verify --json`` stopped at 10,000 findings with no way to get the rest.
    ``--findings-file`` writes every one, in the order of the list; the JSON says how many it
    lists."""
    db = tmp_path / "store.sqlite"
    connection = connect(db)
    month_of_unverified_bets_then_mismatches(connection, unverified=5, mismatches=2)
    connection.close()
    every = tmp_path / "every.jsonl"
    outcome = CliRunner().invoke(
        app,
        ["verify", "--db", str(db), "--month", MONTH, "--json", "--findings-file", str(every)],
    )
    assert outcome.exit_code == 1, outcome.output
    document = json.loads(outcome.stdout)
    lines = [json.loads(line) for line in every.read_text(encoding="utf-8").splitlines()]
    assert [line["kind"] for line in lines] == ["payout_mismatch"] * 2 + ["unverified_bet"] * 5
    assert lines == document["findings"]
    assert (document["findings_listed"], document["findings_truncated"]) == (7, False)
    assert document["findings_file"] == str(every)


def test_the_findings_page_states_each_kinds_severity():
    """The table of finding kinds of docs/compliance/findings.md is every kind, in order, with the severity that
    orders and cuts the lists (FINDING_SEVERITY)."""
    import re

    from reporting.records import FINDING_SEVERITY

    page = Path(__file__).parents[2].joinpath("docs", "compliance", "findings.md")
    readme = page.read_text(encoding="utf-8")
    table = re.findall(r"^\| `([a-z_]+)` \| (?:bet|round) \| ([a-z]+) \|", readme, re.M)
    assert table == [(kind, str(FINDING_SEVERITY[kind])) for kind in FINDING_KINDS]
