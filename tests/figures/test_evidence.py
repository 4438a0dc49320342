"""The findings with their evidence (reporting.figures.evidence): verify's stored findings
joined to their round's cards and their bet, capped per kind with the rest counted.

The store holds records written inline (tests/helpers.py): player 9H KS (9) beats banker
5D 2C (7) in every round, so a Player bet of 25.00 that paid nothing is a payout mismatch
(expected 50.00), and a Banker bet that paid nothing is right.
"""

from __future__ import annotations

import pytest
from helpers import faulted_october, store_records

from reporting.figures.audit_records import Severity
from reporting.figures.evidence import findings_with_evidence
from reporting.store.schema import connect
from reporting.verify.run import verify

MONTH = "2026-10"


@pytest.fixture
def store(tmp_path, operator_config):
    """Three unpaid winning Player bets (R-1, R-2, R-3: payout_mismatch), one right Banker
    bet (R-1), and R-4 whose banker drew a third card it must not draw on 7 (third_card_rule).
    Then verify stores the findings."""
    connection = connect(tmp_path / "store.sqlite")
    store_records(connection, faulted_october(), file_name="october.jsonl")
    verify(connection, operator_config, MONTH)
    yield connection
    connection.close()


def test_each_finding_comes_with_its_rounds_cards_and_its_bet(store):
    evidence = findings_with_evidence(store, MONTH)
    mismatch = next(f for f in evidence.findings if f.bet_id == "B-1")
    assert (mismatch.kind, mismatch.severity) == ("payout_mismatch", Severity.HIGH)
    assert (mismatch.player_cards, mismatch.banker_cards) == ("9H KS", "5D 2C")
    assert (mismatch.account, mismatch.bet_type, mismatch.stake, mismatch.currency) == (
        "acc-7",
        "player",
        2500,
        "EUR",
    )
    assert (mismatch.expected_payout, mismatch.logged_payout, mismatch.bet_payout) == (5000, 0, 0)
    assert (mismatch.table_id, mismatch.shoe_id, mismatch.hand_no) == ("LB01", "S-1", 1)
    assert mismatch.source == "october.jsonl:2"
    third = next(f for f in evidence.findings if f.kind == "third_card_rule")
    assert (third.round_id, third.bet_id, third.account, third.stake) == ("R-4", None, None, None)
    assert third.banker_cards == "5D 2C 9C"


def test_at_most_per_kind_findings_are_shown_the_first_by_line_and_the_rest_counted(store):
    evidence = findings_with_evidence(store, MONTH, per_kind=2)
    shown = [(f.kind, f.bet_id) for f in evidence.findings if f.kind == "payout_mismatch"]
    assert shown == [("payout_mismatch", "B-1"), ("payout_mismatch", "B-3")]
    assert evidence.counts["payout_mismatch"] == 3
    assert evidence.left_out("payout_mismatch") == 1
    assert evidence.left_out("third_card_rule") == 0
    assert evidence.left_out("late_bet") == 0  # a kind the month does not have


def test_counts_agree_with_verify_and_per_kind_zero_only_counts(store, operator_config):
    result = verify(store, operator_config, MONTH)
    evidence = findings_with_evidence(store, MONTH, per_kind=0)
    assert evidence.findings == ()
    assert dict(evidence.counts) == dict(result.findings_by_kind)
    assert evidence.left_out("payout_mismatch") == 3


def test_findings_are_ordered_by_severity_then_kind_then_line(store):
    findings = findings_with_evidence(store, MONTH).findings
    ranks = [("high", "medium", "low").index(f.severity.value) for f in findings]
    assert ranks == sorted(ranks)
    keys = [(f.kind, f.source_file, f.source_line) for f in findings if f.severity.value == "high"]
    assert keys == sorted(keys)


def test_another_month_has_no_findings(store):
    evidence = findings_with_evidence(store, "2026-09")
    assert (evidence.findings, dict(evidence.counts)) == ((), {})


def test_a_negative_cap_is_refused(store):
    with pytest.raises(ValueError, match="per_kind"):
        findings_with_evidence(store, MONTH, per_kind=-1)


def test_only_the_configured_games_findings_and_a_kind_of_a_later_version(store):
    """A finding left in the store by another configuration is not this run's: with the
    configured games given, it is neither shown nor counted; a kind this version does not
    know ranks low instead of stopping the report."""
    for kind, game in (("payout_mismatch", "other-game"), ("dragon_bonus", "live-baccarat-it")):
        store.execute(
            "INSERT INTO findings (kind, game_id, report_month, round_id, source_file,"
            " source_line, message) SELECT ?, ?, ?, round_id, 'x', 1, 'm' FROM rounds LIMIT 1",
            (kind, game, MONTH),
        )
    everything = findings_with_evidence(store, MONTH)
    configured = findings_with_evidence(store, MONTH, games=["live-baccarat-it"])
    assert any(f.game_id == "other-game" for f in everything.findings)
    assert not any(f.game_id == "other-game" for f in configured.findings)
    assert configured.counts["payout_mismatch"] == everything.counts["payout_mismatch"] - 1
    (later,) = [f for f in configured.findings if f.kind == "dragon_bonus"]
    assert later.severity is Severity.LOW
