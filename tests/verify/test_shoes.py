"""Per-shoe summaries (reporting.verify.shoes): each hand's byte, and the summaries verify's
shoe pass collects, compared with the hands written out by hand next to the rounds dealt."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import reporting.verify.passes
from reporting.engine.cards import RANKS, SUITS, parse_cards
from reporting.engine.rules import Winner, resolve_round
from reporting.ingest.discovery import discover_sources
from reporting.records import Round
from reporting.sample.generator import generate_month
from reporting.store.load import ingest
from reporting.store.reading import SourceFiles
from reporting.store.schema import connect
from reporting.verify.run import verify
from reporting.verify.shoes import (
    ShoeHand,
    ShoeSummary,
    decode_hands,
    encode_hand,
    encode_outcome,
    summarize_shoe,
)

B, P, T = Winner.BANKER, Winner.PLAYER, Winner.TIE
MONTH = "2026-10"


# --- one byte per hand ----------------------------------------------------------------------


@given(st.sampled_from(list(Winner)), st.integers(0, 9), st.booleans(), st.booleans())
def test_a_hand_survives_its_byte(winner, score, player_pair, banker_pair):
    byte = encode_hand(winner, score, player_pair=player_pair, banker_pair=banker_pair)
    assert 0 <= byte < 256
    assert decode_hands(bytes([byte])) == (ShoeHand(winner, score, player_pair, banker_pair),)


def test_the_bytes_layout_is_winner_score_player_pair_banker_pair():
    assert encode_hand(B, 0) == 0b00_0000_0_0
    assert encode_hand(P, 9) == 0b01_1001_0_0
    assert encode_hand(T, 5, player_pair=True) == 0b10_0101_1_0
    assert encode_hand(B, 3, banker_pair=True) == 0b00_0011_0_1


@pytest.mark.parametrize("byte", [0b11_0000_00, 0b00_1010_00, 0b01_1111_11])
def test_a_byte_no_hand_gives_is_refused_with_its_place(byte):
    with pytest.raises(ValueError, match=r"byte 1 \(0x"):
        decode_hands(bytes([0, byte]))


def test_a_score_above_nine_is_refused():
    with pytest.raises(ValueError, match="0 to 9"):
        encode_hand(B, 10)


card_codes = st.builds(
    lambda rank, suit: rank + suit, st.sampled_from(RANKS), st.sampled_from(SUITS)
)


@given(st.lists(card_codes, min_size=2, max_size=3), st.lists(card_codes, min_size=2, max_size=3))
def test_an_outcomes_byte_is_the_engines_winner_winning_score_and_pairs(player, banker):
    outcome = resolve_round(parse_cards(player), parse_cards(banker))
    [hand] = decode_hands(bytes([encode_outcome(outcome)]))
    assert hand.winner is outcome.winner
    values = {P: outcome.player_value, B: outcome.banker_value, T: outcome.banker_value}
    assert hand.score == values[outcome.winner]
    if outcome.winner is T:
        assert outcome.player_value == outcome.banker_value
    assert (hand.player_pair, hand.banker_pair) == (outcome.player_pair, outcome.banker_pair)


# --- a shoe written by hand -----------------------------------------------------------------


def dealt(round_id, hand_no, settled_at, player, banker, **fields) -> dict:
    """A round of shoe LB01-S1 at table LB01 (Italy) with no bets and no other times."""
    record = {
        "round_id": round_id,
        "table_id": "LB01",
        "game": "live-baccarat-it",
        "shoe_id": "LB01-S1",
        "hand_no": hand_no,
        "started_at": None,
        "betting_closed_at": None,
        "settled_at": settled_at,
        "status": "settled",
        "player_cards": player.split(),
        "banker_cards": banker.split(),
        "bets": [],
    }
    record.update(fields)
    return record


#: Shoe LB01-S1, in the log's order (not the dealing order), with each hand as it must be
#: summarised: a hand of September first (so the shoe spans the turn of the month), a tie
#: with both pairs, a void round with one card dealt, a Banker pair, a Player win with a
#: third card, and a wrong payout (a finding) on the sixth round.
SHOE = [
    (dealt("S1-03", 3, "2026-10-01T08:02:00.000Z", "4H 4D", "9S 9H"), (T, 8, True, True)),
    (dealt("S1-01", 1, "2026-09-30T21:30:00.000Z", "9H KS", "5D 2C"), (P, 9, False, False)),
    (
        dealt(
            "S1-04",
            4,
            "2026-10-01T08:03:00.000Z",
            "5H",
            "",
            status="void",
            void_reason="card fell off the table",
        ),
        None,
    ),
    (dealt("S1-02", 2, "2026-10-01T08:01:00.000Z", "2H 4S", "8D KC"), (B, 8, False, False)),
    (dealt("S1-05", 5, "2026-10-01T08:04:00.000Z", "2H 5S", "9S 9C"), (B, 8, False, True)),
    (dealt("S1-06", 6, "2026-10-01T08:05:00.000Z", "AH 2C 4D", "KS 6D"), (P, 7, False, False)),
    (
        dealt(
            "S1-07",
            7,
            "2026-10-01T08:06:00.000Z",
            "3H 3C",
            "6S AD",
            bets=[
                {
                    "bet_id": "S1-07-B1",
                    "account": "acc-1",
                    "type": "banker",
                    "stake": "10.00",
                    "payout": "19.50",  # the Banker's 7 beats the Player's 6: 10.00 + 9.50
                    "currency": "EUR",
                    "placed_at": None,
                },
                {
                    "bet_id": "S1-07-B2",
                    "account": "acc-1",
                    "type": "player_pair",
                    "stake": "10.00",
                    "payout": "10.00",  # a pair pays 11 to 1: 120.00; logged a refund
                    "currency": "EUR",
                    "placed_at": None,
                },
            ],
        ),
        (B, 7, True, False),
    ),
]


def write_log(path: Path, rounds: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rounds), encoding="utf-8")
    return path


def store(tmp_path: Path, config, rounds: list[dict]) -> sqlite3.Connection:
    connection = connect(tmp_path / "store.sqlite")
    result = ingest(
        connection, discover_sources([write_log(tmp_path / "log.jsonl", rounds)]), config
    )
    assert result.failed == [] and not result.rejected, result
    return connection


def expected_bytes(hands) -> bytes:
    return bytes(
        encode_hand(winner, score, player_pair=pp, banker_pair=bp)
        for winner, score, pp, bp in hands
    )


def test_a_shoe_summary_holds_the_hands_of_the_shoe_as_written_by_hand(tmp_path, operator_config):
    connection = store(tmp_path, operator_config, [record for record, _ in SHOE])
    result = verify(connection, operator_config, MONTH)
    assert {(f.kind, f.round_id) for f in result.findings} == {("payout_mismatch", "S1-07")}
    hands = [hand for _, hand in sorted(SHOE, key=lambda item: item[0]["hand_no"]) if hand]
    assert result.shoes == [
        ShoeSummary(
            game_id="live-baccarat-it",
            table_id="LB01",
            shoe_id="LB01-S1",
            first_settled_at="2026-09-30T21:30:00.000Z",
            last_settled_at="2026-10-01T08:06:00.000Z",
            rounds=6,
            void_rounds=1,
            cards_dealt=4 + 4 + 1 + 4 + 4 + 5 + 4,
            banker_wins=3,
            player_wins=2,
            ties=1,
            banker_pairs=2,
            player_pairs=2,
            hands=expected_bytes(hands),
            findings=1,
            finding_hands=(6,),  # the seventh round, the sixth hand: the void one is no hand
        )
    ]
    assert decode_hands(result.shoes[0].hands)[0] == ShoeHand(P, 9, False, False)


def test_verifying_again_gives_the_same_summaries(tmp_path, operator_config):
    connection = store(tmp_path, operator_config, [record for record, _ in SHOE])
    first = verify(connection, operator_config, MONTH).shoes
    assert verify(connection, operator_config, MONTH).shoes == first  # findings not doubled
    assert first[0].findings == 1


def test_past_the_hands_handed_over_the_shoe_pass_resolves_the_rest_alike(
    tmp_path, operator_config, monkeypatch
):
    connection = store(tmp_path, operator_config, [record for record, _ in SHOE])
    handed_over = verify(connection, operator_config, MONTH).shoes
    monkeypatch.setattr(reporting.verify.passes, "HANDS_HANDED_OVER", 2)
    assert verify(connection, operator_config, MONTH).shoes == handed_over


def test_shoes_of_the_month_only_and_every_shoe_without_a_month(tmp_path, operator_config):
    september = [
        dealt("S0-01", 1, "2026-09-29T10:00:00.000Z", "9H KS", "5D 2C", shoe_id="LB01-S0"),
    ]
    unshod = [dealt("N-01", None, "2026-10-02T10:00:00.000Z", "9H KS", "5D 2C", shoe_id=None)]
    connection = store(tmp_path, operator_config, [r for r, _ in SHOE] + september + unshod)
    assert [s.shoe_id for s in verify(connection, operator_config, MONTH).shoes] == ["LB01-S1"]
    every = verify(connection, operator_config).shoes
    assert [(s.shoe_id, s.rounds, s.findings) for s in every] == [
        ("LB01-S0", 1, 0),
        ("LB01-S1", 6, 1),
    ]


def test_two_tables_logging_one_shoe_id_are_two_shoes_ordered_by_table(tmp_path, operator_config):
    other = dealt("S1-X1", 1, "2026-10-01T07:00:00.000Z", "4H 4D", "9S 9H", table_id="LB00")
    connection = store(tmp_path, operator_config, [r for r, _ in SHOE] + [other])
    shoes = verify(connection, operator_config, MONTH).shoes
    assert [(s.table_id, s.rounds, s.hands) for s in shoes] == [
        ("LB00", 1, expected_bytes([(T, 8, True, True)])),
        ("LB01", 6, shoes[1].hands),
    ]
    assert shoes[1].finding_hands == (6,)


# --- the pass itself, without a store -------------------------------------------------------

FILES = SourceFiles("log.jsonl", "log.jsonl")


def as_round(record: dict, line: int) -> Round:
    report_month_of = "2026-09" if record["settled_at"].startswith("2026-09") else MONTH
    return Round(
        round_id=record["round_id"],
        game_id=record["game"],
        table_id=record["table_id"],
        shoe_id=record["shoe_id"],
        hand_no=record["hand_no"],
        started_at=None,
        betting_closed_at=None,
        settled_at=record["settled_at"],
        report_month=report_month_of,
        status=record["status"],
        void_reason=record.get("void_reason"),
        player_cards=" ".join(record["player_cards"]),
        banker_cards=" ".join(record["banker_cards"]),
        source_line=line,
        bets=[],
    )


def in_hand_order() -> list[tuple[Round, SourceFiles]]:
    ordered = sorted(SHOE, key=lambda item: item[0]["hand_no"])
    return [(as_round(record, line), FILES) for line, (record, _) in enumerate(ordered, 1)]


def test_hands_handed_over_are_taken_and_the_others_resolved_by_the_engine(operator_config):
    shoe = in_hand_order()
    resolved = summarize_shoe(shoe, operator_config.games, MONTH)
    known = {
        round.round_id: encode_outcome(
            resolve_round(parse_cards(round.player_cards), parse_cards(round.banker_cards))
        )
        for round, _ in shoe[2:]
        if round.status == "settled"
    }
    assert summarize_shoe(shoe, operator_config.games, MONTH, known) == resolved
    assert known == {}  # each hand used once, then let go
    [summary] = resolved
    hands = [hand for _, hand in sorted(SHOE, key=lambda item: item[0]["hand_no"]) if hand]
    assert summary.hands == expected_bytes(hands)


def test_a_shoe_of_a_game_not_configured_or_of_another_month_has_no_summary(operator_config):
    shoe = in_hand_order()
    games = {k: v for k, v in operator_config.games.items() if k != "live-baccarat-it"}
    assert summarize_shoe(shoe, games, MONTH) == []
    assert summarize_shoe(shoe, operator_config.games, "2026-11") == []
    [september] = summarize_shoe(shoe, operator_config.games, "2026-09")
    assert september.rounds == 6  # the shoe whole, as it was dealt


# --- a generated month with faults ----------------------------------------------------------


def recount(connection: sqlite3.Connection) -> dict[tuple[str, str, str], tuple]:
    """Each shoe of October recounted from the store, its hands resolved by the engine one by
    one: (rounds, void rounds, cards, hands, findings, hands holding findings)."""
    findings: dict[str, int] = {}
    for (round_id,) in connection.execute(
        "SELECT round_id FROM findings WHERE report_month = ?", (MONTH,)
    ):
        findings[round_id] = findings.get(round_id, 0) + 1
    shoes: dict[tuple[str, str, str], list] = {}
    in_october = set()
    rows = connection.execute(
        "SELECT game_id, table_id, shoe_id, round_id, status, player_cards, banker_cards,"
        " report_month FROM rounds WHERE shoe_id IS NOT NULL"
        " ORDER BY shoe_id, hand_no, settled_at, round_id"
    )
    for game_id, table_id, shoe_id, round_id, status, player, banker, month in rows:
        key = (game_id, table_id, shoe_id)
        if month == MONTH:
            in_october.add(key)
        rounds, voids, cards, hands, found, found_hands = shoes.setdefault(
            key, [0, 0, 0, bytearray(), 0, []]
        )
        cards += len(player.split()) + len(banker.split())
        found += findings.get(round_id, 0)
        if status == "void":
            voids += 1
        else:
            hands.append(encode_outcome(resolve_round(parse_cards(player), parse_cards(banker))))
            rounds += 1
            if round_id in findings:
                found_hands.append(rounds)
        shoes[key] = [rounds, voids, cards, hands, found, found_hands]
    return {
        key: (rounds, voids, cards, bytes(hands), found, tuple(found_hands))
        for key, (rounds, voids, cards, hands, found, found_hands) in shoes.items()
        if key in in_october
    }


def test_every_shoe_of_a_faulty_month_is_summarised_as_the_store_recounts_it(
    tmp_path, operator_config
):
    log = tmp_path / "october.jsonl"
    generate_month(operator_config, MONTH, log, rounds_per_day=24, faults=1, seed=14)
    connection = connect(tmp_path / "store.sqlite")
    ingest(connection, discover_sources([log]), operator_config)
    result = verify(connection, operator_config, MONTH)
    shoes = {(s.game_id, s.table_id, s.shoe_id): s for s in result.shoes}
    assert len(shoes) == len(result.shoes) > 20
    expected = recount(connection)
    assert {
        key: (s.rounds, s.void_rounds, s.cards_dealt, s.hands, s.findings, s.finding_hands)
        for key, s in shoes.items()
    } == expected
    assert sum(s.findings for s in result.shoes) > 0  # the month's faults fall on its shoes
    assert any(s.void_rounds for s in result.shoes)
    for summary in result.shoes:
        decoded = decode_hands(summary.hands)
        assert summary.banker_wins == sum(hand.winner is B for hand in decoded)
        assert summary.ties == sum(hand.winner is T for hand in decoded)
        assert summary.banker_wins + summary.player_wins + summary.ties == summary.rounds
        assert summary.banker_pairs == sum(hand.banker_pair for hand in decoded)
        assert summary.player_pairs == sum(hand.player_pair for hand in decoded)
    ordered = [(s.game_id, s.table_id, s.first_settled_at) for s in result.shoes]
    assert ordered == sorted(ordered)
