"""The checks of reporting.verify.checks, one by one, on records written inline: no database.

Each test builds a round with its cards and bets next to the finding it must (or must not)
give. The table tests hold CHECKS and SHOE_CHECKS complete (with the run's STORE_CHECKS, the
one kind asked of the store in SQL): every finding kind is found by exactly one entry, and the entries give the same findings on any split of the rounds.
"""

from __future__ import annotations

import dataclasses
import doctest
import itertools
from fractions import Fraction

import msgspec
import pytest
from helpers import MONKEY_6_CONFIG, within_seconds
from hypothesis import given, settings
from hypothesis import strategies as st

from reporting.config.bets import catalogue_bets
from reporting.config.loader import load_config
from reporting.engine.bets import BetGroup, BetRule, PayRow, PayTable, resolve_bet, settle
from reporting.engine.cards import RANKS, SUITS, parse_cards
from reporting.engine.facts import FACTS
from reporting.engine.rules import resolve_round
from reporting.records import FINDING_KINDS, Bet, Finding, FindingKind, Round
from reporting.store.reading import SourceFiles
from reporting.verify import checks
from reporting.verify.checks import (
    CHECKS,
    FIELDS_NEEDED,
    SHOE_CHECKS,
    CheckCache,
    CheckContext,
    Settler,
    a_or_an,
    check_drawing_rules,
    check_exclusive_bets,
    check_late_bets,
    check_payouts,
    check_shoe_card_counts,
    check_stake_limits,
    check_time_order,
    check_unverified_bets,
    check_void_refunds,
    settled_bets,
)
from reporting.verify.run import STORE_CHECKS
from reporting.verify.totals import Totals

ITALY = "live-baccarat-it"
GREECE = "live-baccarat-gr"
#: A CSV pair: bet-level findings point into the bets file, round-level ones into the rounds file.
FILES = SourceFiles(rounds="inbox/2026-10/rounds.csv", bets="inbox/2026-10/bets.csv")


def make_bet(bet_id: str = "B-1", **fields) -> Bet:
    """A bet of 25.00 on the banker, lost, placed before betting closed, on line 2."""
    values = {
        "round_id": "R-1",
        "bet_id": bet_id,
        "account": "acc-4411",
        "bet_type": "banker",
        "stake_cents": 2500,
        "payout_cents": 0,
        "currency": "EUR",
        "placed_at": "2026-10-03T18:40:09.500Z",
        "source_line": 2,
    }
    values.update(fields)
    return Bet(**values)


def make_round(*bets: Bet, **fields) -> Round:
    """A settled round of the Italian game on line 7: player 9H KS (9) beats banker 5D 2C (7)."""
    values = {
        "round_id": "R-1",
        "game_id": ITALY,
        "table_id": "LB01",
        "shoe_id": None,
        "hand_no": None,
        "started_at": "2026-10-03T18:40:02.120Z",
        "betting_closed_at": "2026-10-03T18:40:17.000Z",
        "settled_at": "2026-10-03T18:40:41.870Z",
        "report_month": "2026-10",
        "status": "settled",
        "void_reason": None,
        "player_cards": "9H KS",
        "banker_cards": "5D 2C",
        "source_line": 7,
        "bets": list(bets),
    }
    values.update(fields)
    return Round(**values)


def run_check(check, round: Round, operator_config) -> list[Finding]:
    """One round check on one round, with a fresh cache of the configuration's bets (as a
    run makes)."""
    game = operator_config.game(round.game_id)
    cache = CheckCache(settled_bets(operator_config.games.values()))
    return check(round, game, CheckContext.of(round, FILES, cache))


def settled_by_hand(game, bet_type: str, stake: int, outcome):
    """:func:`settle` of a bet as its game offers it; a catalogue bet the game does not offer
    (its type is known: the configuration changed since it was loaded) at the catalogue's
    pays, but for a pay key it shares with a bet of the game, which the game's table sets."""
    if game.offers(bet_type):
        rule, table = game.bet(bet_type), game.pay_table
    else:
        rule = catalogue_bets()[bet_type]
        table = PayTable.of([*game.bets, rule], dict(game.pay_table.pays))
    return settle(rule, stake, outcome.facts, table, game.rounding)


# --- payouts -----------------------------------------------------------------------------------


def test_a_banker_win_paid_at_even_money_is_one_mismatch_with_the_commissioned_amount(
    operator_config,
):
    # Banker natural 9 beats player 7: 25.00 on the banker brings back 25.00 + 95% = 48.75.
    round = make_round(
        make_bet("B-1", payout_cents=5000, source_line=3),
        make_bet("B-2", payout_cents=4875, source_line=4),
        player_cards="2H 5C",
        banker_cards="9D KS",
    )
    (finding,) = run_check(check_payouts, round, operator_config)
    assert finding.kind == "payout_mismatch"
    assert (finding.bet_id, finding.expected_payout, finding.logged_payout) == ("B-1", 4875, 5000)
    assert finding.source == "inbox/2026-10/bets.csv:3"
    assert finding.message == (
        "bet B-1 (banker, stake 25.00) on player 2H 5C / banker 9D KS should pay 48.75,"
        " logged 50.00"
    )


def test_payouts_of_a_void_round_are_not_judged_by_the_cards(operator_config):
    round = make_round(make_bet(payout_cents=2500), status="void", player_cards="", banker_cards="")
    assert run_check(check_payouts, round, operator_config) == []


CARD_CODES = [rank + suit for rank in RANKS for suit in SUITS]
paid_bet = st.tuples(
    st.sampled_from(list(catalogue_bets())),
    st.integers(min_value=1, max_value=100_000),  # stake in cents, odd cents included
    st.sampled_from([0, 0, 0, 1, -1]),  # cents added to the engine's payout
)
dealt_round = st.tuples(
    st.sampled_from(
        [
            "live-baccarat-it",
            "live-baccarat-dk",
            "live-baccarat-gr",
            "no-commission-dk",
            "ez-baccarat-it",
        ]
    ),
    st.lists(st.sampled_from(CARD_CODES), min_size=2, max_size=3),
    st.lists(st.sampled_from(CARD_CODES), min_size=2, max_size=3),
    st.lists(paid_bet, max_size=6),
)


@settings(max_examples=200, deadline=None)
@given(rounds=st.lists(dealt_round, min_size=1, max_size=10))
def test_a_payout_is_a_mismatch_exactly_when_it_differs_from_the_engines_settlement(
    rounds, operator_config
):
    """Against :func:`settle` on the logged cards, with one cache over every round (as a run
    shares it), for every bet of the catalogue (those a game does not offer too), stake and
    game."""
    cache, expected, found = CheckCache(), set(), set()
    for number, (game_id, player, banker, bets) in enumerate(rounds):
        game = operator_config.games[game_id]
        outcome = resolve_round(parse_cards(" ".join(player)), parse_cards(" ".join(banker)))
        logged = []
        for index, (bet_type, stake, error) in enumerate(bets):
            right = settled_by_hand(game, bet_type, stake, outcome)
            payout = max(right.payout + error, 0)
            if payout != right.payout:
                expected.add((number, f"B-{index}", right.payout, payout))
            logged.append(
                make_bet(f"B-{index}", bet_type=bet_type, stake_cents=stake, payout_cents=payout)
            )
        round = make_round(
            *logged, game_id=game_id, player_cards=" ".join(player), banker_cards=" ".join(banker)
        )
        context = CheckContext.of(round, FILES, cache)
        for finding in check_payouts(round, game, context):
            found.add((number, finding.bet_id, finding.expected_payout, finding.logged_payout))
    assert found == expected


# --- the settler's cache: keyed on the round's facts -------------------------------------------

EZ = "ez-baccarat-it"  # player, banker_ez, tie, dragon_7, panda_8

#: Two rounds alike in every fact a hand-typed key once held (totals 6 against 7, no natural,
#: five cards dealt, no pair): in the first the Player drew and the Banker stood on a two-card 7;
#: in the second the Player stood and the Banker drew to a three-card 7, which wins Dragon 7 and
#: pushes Banker EZ. Stakes of 10.00, payouts as the spec's pays give them.
PLAYER_DREW = ("2H 3C AD", "5D 2C", {"banker_ez": 2000, "dragon_7": 0, "player": 0})
BANKER_DREW = ("10H 6C", "2D 3S 2H", {"banker_ez": 1000, "dragon_7": 41000, "player": 0})


@pytest.mark.parametrize("order", [(PLAYER_DREW, BANKER_DREW), (BANKER_DREW, PLAYER_DREW)])
def test_rounds_that_differ_only_in_which_hand_drew_are_settled_apart(operator_config, order):
    cache, found = CheckCache(), []
    for number, (player, banker, payouts) in enumerate(order):
        round = make_round(
            *(
                make_bet(f"B-{bet_type}", bet_type=bet_type, stake_cents=1000, payout_cents=paid)
                for bet_type, paid in payouts.items()
            ),
            round_id=f"R-{number}",
            game_id=EZ,
            player_cards=player,
            banker_cards=banker,
        )
        context = CheckContext.of(round, FILES, cache)
        assert check_drawing_rules(round, operator_config.game(EZ), context) == []
        found += check_payouts(round, operator_config.game(EZ), context)
    assert found == []


def probe_bets() -> dict[str, BetRule]:
    """One bet per fact of the vocabulary, whose winning row (and odds) names the fact's value:
    it settles two records apart whenever that fact differs."""
    return {
        f"reads_{name}": BetRule(
            f"reads_{name}",
            BetGroup.SIDE,
            tuple(
                PayRow(((name, frozenset({value})),), Fraction(number))
                for number, value in enumerate(fact.values, start=1)
            ),
        )
        for name, fact in FACTS.items()
    }


PROBES = probe_bets()
hand = st.lists(st.sampled_from(CARD_CODES), min_size=2, max_size=3).map(" ".join)
changed_fact = st.sampled_from(list(FACTS)).flatmap(
    lambda name: st.tuples(st.just(name), st.sampled_from(FACTS[name].values))
)


@settings(max_examples=300, deadline=None)
@given(player=hand, banker=hand, changes=st.lists(changed_fact, min_size=1, max_size=4))
def test_the_settler_never_gives_one_round_the_decision_of_another_whose_facts_differ(
    operator_config, player, banker, changes
):
    """Rounds whose facts differ in any one field, settled in turn through one Settler, each
    get what :func:`resolve_bet` computes afresh; the bet reading that field tells them apart."""
    game = dataclasses.replace(
        operator_config.game(ITALY),
        id="probes",
        bets=tuple(PROBES.values()),
        pay_table=PayTable.of(PROBES.values()),
    )
    first = resolve_round(parse_cards(player), parse_cards(banker))
    rounds = [first]
    for name, value in changes:
        if getattr(rounds[-1].facts, name) != value:
            changed = dataclasses.replace(rounds[-1].facts, **{name: value})
            rounds.append(dataclasses.replace(rounds[-1], facts=changed))
    settler = Settler(PROBES)
    for outcome in rounds:
        for bet in PROBES.values():
            fresh = resolve_bet(bet, outcome.facts, game.pay_table)
            assert settler.resolve(game, bet.id, outcome) == fresh
    for before, after in itertools.pairwise(rounds):
        (name,) = [n for n in FACTS if getattr(before.facts, n) != getattr(after.facts, n)]
        probe = f"reads_{name}"
        assert settler.resolve(game, probe, before) != settler.resolve(game, probe, after)


# --- void rounds -------------------------------------------------------------------------------


def test_a_void_round_that_keeps_a_stake_is_one_finding_per_bet(operator_config):
    round = make_round(
        make_bet("B-1", payout_cents=0, source_line=3),
        make_bet("B-2", payout_cents=2500, source_line=4),
        status="void",
        void_reason="table malfunction",
    )
    (finding,) = run_check(check_void_refunds, round, operator_config)
    assert finding.kind == "void_not_refunded"
    assert (finding.bet_id, finding.expected_payout, finding.logged_payout) == ("B-1", 2500, 0)
    assert finding.source == "inbox/2026-10/bets.csv:3"


def test_refunds_are_only_asked_of_void_rounds(operator_config):
    assert (
        run_check(check_void_refunds, make_round(make_bet(payout_cents=0)), operator_config) == []
    )


# --- late bets ---------------------------------------------------------------------------------


def test_a_bet_placed_after_betting_closed_is_late_and_one_placed_at_the_close_is_not(
    operator_config,
):
    round = make_round(
        make_bet("B-1", placed_at="2026-10-03T18:40:17.001Z", source_line=3),
        make_bet("B-2", placed_at="2026-10-03T18:40:17.000Z", source_line=4),
        make_bet("B-3", placed_at=None, source_line=5),
    )
    (finding,) = run_check(check_late_bets, round, operator_config)
    assert (finding.kind, finding.bet_id, finding.source) == (
        "late_bet",
        "B-1",
        "inbox/2026-10/bets.csv:3",
    )
    # The close at a whole second may be a time the log cut to the second (the spec's own
    # example logs "18:40:17Z"): the message says what that leaves open.
    assert finding.message == (
        "bet B-1 was placed at 2026-10-03T18:40:17.001Z, after betting closed at"
        " 2026-10-03T18:40:17.000Z (a whole second: if the log cuts its times to the second,"
        " betting may have closed as late as 18:40:17.999 and the bet may have been in time)"
    )
    for placed, closed in (
        ("2026-10-03T18:40:18.000Z", "2026-10-03T18:40:17.000Z"),  # the next second: late
        ("2026-10-03T18:40:17.501Z", "2026-10-03T18:40:17.500Z"),  # a close to the ms
    ):
        round = make_round(make_bet("B-1", placed_at=placed), betting_closed_at=closed)
        (finding,) = run_check(check_late_bets, round, operator_config)
        assert finding.message.endswith(f"after betting closed at {closed}"), finding.message


def test_a_late_bet_placed_once_the_round_was_settled_is_said_to_be_on_a_known_result(
    operator_config,
):
    """A bet placed after betting closed but before the deal's end is a control the platform
    should have enforced; one placed at or after the round's settlement was on a result already
    known (past-posting). Both are late_bet, and the message tells them apart. Where the log's
    times cannot order the bet and the settlement (the same millisecond; a settlement at a
    whole second, the bet within it), the message says so instead of accusing."""
    settled = "2026-10-03T18:40:41.870Z"
    after = f", and not before the round was settled at {settled}"
    whole = "2026-10-03T18:40:41.000Z"
    cases = {
        (settled, "2026-10-03T18:40:41.869Z"): "",
        (settled, "2026-10-03T18:41:00.000Z"): f"{after} (its result known: past-posting)",
        (settled, "2026-10-03T18:40:41.871Z"): f"{after} (its result known: past-posting)",
        (settled, settled): f"{after} (the same millisecond: if the log cuts finer times, the"
        " bet may have come just before; if not, it was past-posting)",
        (whole, "2026-10-03T18:40:41.500Z"): f", and not before the round was settled at"
        f" {whole} (a whole second: if the log cuts its times to the second, the round may"
        " have been settled as late as 18:40:41.999, after the bet; if not, it was"
        " past-posting)",
        (whole, "2026-10-03T18:40:42.000Z"): f", and not before the round was settled at"
        f" {whole} (its result known: past-posting)",
    }
    for (settled_at, placed), said in cases.items():
        round = make_round(make_bet("B-1", placed_at=placed), settled_at=settled_at)
        (finding,) = run_check(check_late_bets, round, operator_config)
        expected = (
            f"bet B-1 was placed at {placed}, after betting closed at 2026-10-03T18:40:17.000Z"
        )
        assert (finding.kind, finding.message) == ("late_bet", expected + said)


def test_a_round_without_a_closing_time_has_no_late_bet(operator_config):
    round = make_round(make_bet(placed_at="2026-10-03T23:59:59.999Z"), betting_closed_at=None)
    assert run_check(check_late_bets, round, operator_config) == []


# --- the order of a round's times ------------------------------------------------------------


def test_a_round_in_order_with_a_bet_at_the_close_has_no_time_order_finding(operator_config):
    round = make_round(
        make_bet("B-1", placed_at="2026-10-03T18:40:17.000Z"),
        make_bet("B-2", placed_at=None),
        betting_closed_at="2026-10-03T18:40:17.000Z",
    )
    assert run_check(check_time_order, round, operator_config) == []
    times_equal = make_round(
        started_at="2026-10-03T18:40:41.870Z", betting_closed_at="2026-10-03T18:40:41.870Z"
    )
    assert run_check(check_time_order, times_equal, operator_config) == []


def test_a_round_settled_before_it_started_is_one_finding_naming_every_order_broken(
    operator_config,
):
    # Start and settlement swapped: settled before it started, before betting closed, and
    # before its bet (placed before the close: not late) was placed.
    round = make_round(
        make_bet("B-1", placed_at="2026-10-03T18:40:09.500Z", source_line=3),
        started_at="2026-10-03T18:40:41.870Z",
        settled_at="2026-10-03T18:40:02.120Z",
    )
    (finding,) = run_check(check_time_order, round, operator_config)
    assert (finding.kind, finding.bet_id, finding.source) == (
        "time_order",
        None,
        "inbox/2026-10/rounds.csv:7",
    )
    assert finding.rule == (
        "started_before_betting_closed,betting_closed_before_settled,started_before_settled,"
        "bets_placed_before_settled"
    )
    assert finding.message == (
        "round R-1: started at 2026-10-03T18:40:41.870Z, after betting closed at"
        " 2026-10-03T18:40:17.000Z; betting closed at 2026-10-03T18:40:17.000Z, after settlement"
        " at 2026-10-03T18:40:02.120Z; started at 2026-10-03T18:40:41.870Z, after settlement at"
        " 2026-10-03T18:40:02.120Z; bets placed after settlement at 2026-10-03T18:40:02.120Z:"
        " B-1 at 2026-10-03T18:40:09.500Z"
    )


def test_a_round_voided_during_betting_may_end_before_its_betting_was_to_close(
    operator_config,
):
    """A stream lost during betting voids the round before its scheduled close: the close
    after the void is no clock fault (a settled round's is), its other orders still held."""
    times = {"betting_closed_at": "2026-10-03T18:40:15.000Z"}
    void = make_round(status="void", settled_at="2026-10-03T18:40:10.000Z", **times)
    assert run_check(check_time_order, void, operator_config) == []
    settled = make_round(settled_at="2026-10-03T18:40:10.000Z", **times)
    (finding,) = run_check(check_time_order, settled, operator_config)
    assert finding.rule == "betting_closed_before_settled"
    early = make_round(status="void", started_at="2026-10-03T18:40:20.000Z", **times)
    (finding,) = run_check(check_time_order, early, operator_config)
    assert finding.rule == "started_before_betting_closed"


def test_each_order_is_judged_only_where_both_times_are_logged(operator_config):
    no_start = make_round(started_at=None, betting_closed_at="2026-10-03T18:40:50.000Z")
    (finding,) = run_check(check_time_order, no_start, operator_config)
    assert finding.rule == "betting_closed_before_settled"
    no_close = make_round(started_at="2026-10-03T18:40:50.000Z", betting_closed_at=None)
    (finding,) = run_check(check_time_order, no_close, operator_config)
    assert finding.rule == "started_before_settled"
    neither = make_round(make_bet(), started_at=None, betting_closed_at=None)
    assert run_check(check_time_order, neither, operator_config) == []


def test_a_bet_placed_after_settlement_is_a_time_order_finding_unless_it_is_a_late_bet(
    operator_config,
):
    after_settlement = "2026-10-03T18:40:42.000Z"
    # With a closing time, a bet placed after settlement is after the close too: a late bet.
    late = make_round(make_bet("B-1", placed_at=after_settlement))
    assert run_check(check_time_order, late, operator_config) == []
    assert [f.bet_id for f in run_check(check_late_bets, late, operator_config)] == ["B-1"]
    # Without one, only the time order can see it.
    unclosed = make_round(
        make_bet("B-1", placed_at=after_settlement),
        make_bet("B-2", placed_at="2026-10-03T18:40:41.870Z"),  # at settlement: in order
        betting_closed_at=None,
    )
    (finding,) = run_check(check_time_order, unclosed, operator_config)
    assert finding.rule == "bets_placed_before_settled"
    assert finding.message == (
        "round R-1: bets placed after settlement at 2026-10-03T18:40:41.870Z:"
        " B-1 at 2026-10-03T18:40:42.000Z"
    )
    assert run_check(check_late_bets, unclosed, operator_config) == []


# --- stake limits ------------------------------------------------------------------------------


def test_stakes_just_outside_the_limits_are_findings_and_the_limits_themselves_are_not(
    operator_config,
):
    limits = operator_config.game(ITALY).limits_for("banker")
    round = make_round(
        make_bet("B-1", stake_cents=limits.minimum - 1, source_line=3),
        make_bet("B-2", stake_cents=limits.minimum, source_line=4),
        make_bet("B-3", stake_cents=limits.maximum, source_line=5),
        make_bet("B-4", stake_cents=limits.maximum + 1, source_line=6),
    )
    below, above = run_check(check_stake_limits, round, operator_config)
    assert (below.kind, below.bet_id, below.source) == (
        "stake_out_of_limits",
        "B-1",
        "inbox/2026-10/bets.csv:3",
    )
    assert below.rule == "5.00-1000.00 EUR"
    assert below.message == "bet B-1 (banker) stakes 4.99 EUR, below the minimum of 5.00 EUR"
    assert above.bet_id == "B-4"
    assert above.message == "bet B-4 (banker) stakes 1000.01 EUR, above the maximum of 1000.00 EUR"


# --- drawing rules -----------------------------------------------------------------------------


def test_a_player_drawing_on_a_natural_is_one_finding_naming_the_rule(operator_config):
    round = make_round(make_bet(), player_cards="8H AD QC", banker_cards="5C JH")
    (finding,) = run_check(check_drawing_rules, round, operator_config)
    assert (finding.kind, finding.rule, finding.bet_id) == (
        "third_card_rule",
        "natural_stands",
        None,
    )
    assert finding.source == "inbox/2026-10/rounds.csv:7"
    assert finding.message.startswith("round R-1 (player 8H AD QC, banker 5C JH): Player on 9 drew")


def test_a_deal_by_the_rules_gives_no_drawing_finding(operator_config):
    assert run_check(check_drawing_rules, make_round(make_bet()), operator_config) == []


# --- exclusive bets ----------------------------------------------------------------------------


def test_one_account_holding_both_pair_bets_in_the_greek_game_is_one_finding(operator_config):
    round = make_round(
        make_bet("B-1", bet_type="player_pair", stake_cents=500),
        make_bet("B-2", bet_type="banker_pair", stake_cents=500),
        make_bet("B-3", bet_type="banker_pair", stake_cents=500, account="acc-other"),
        game_id=GREECE,
    )
    (finding,) = run_check(check_exclusive_bets, round, operator_config)
    assert (finding.kind, finding.bet_id, finding.source) == (
        "exclusive_side_bets",
        None,
        "inbox/2026-10/rounds.csv:7",
    )
    assert finding.rule == "one of banker_pair / player_pair per player and round"
    assert finding.message == (
        "account acc-4411 holds 2 bets (player_pair B-1, banker_pair B-2) where the house rule"
        " allows one of banker_pair / player_pair per round"
    )


def test_a_bet_of_no_exclusive_group_before_the_pair_bets_leaves_them_judged(operator_config):
    """A round's first bet on the Banker, of no exclusive group, does not end the look at the
    pair bets after it."""
    round = make_round(
        make_bet("B-1", bet_type="banker", stake_cents=500),
        make_bet("B-2", bet_type="player_pair", stake_cents=500),
        make_bet("B-3", bet_type="banker_pair", stake_cents=500),
        game_id=GREECE,
    )
    (finding,) = run_check(check_exclusive_bets, round, operator_config)
    assert finding.kind == "exclusive_side_bets"


def test_a_game_without_the_house_rule_allows_both_pair_bets(operator_config):
    round = make_round(
        make_bet("B-1", bet_type="player_pair", stake_cents=500),
        make_bet("B-2", bet_type="banker_pair", stake_cents=500),
    )
    assert run_check(check_exclusive_bets, round, operator_config) == []


# --- card counts of a shoe ---------------------------------------------------------------------


def shoe_round(hand: int, player: str, banker: str, month: str = "2026-10") -> Round:
    return make_round(
        round_id=f"R-{hand}",
        shoe_id="S-1",
        hand_no=hand,
        player_cards=player,
        banker_cards=banker,
        report_month=month,
        source_line=10 + hand,
    )


def test_a_card_seen_nine_times_in_an_eight_deck_shoe_is_one_finding_at_the_ninth(
    operator_config,
):
    shoe = [
        (shoe_round(1, "AS AS", "AS AS"), FILES),
        (shoe_round(2, "AS AS", "AS AS"), FILES),
        (shoe_round(3, "2C AS", "3D 4H"), FILES),
        (shoe_round(4, "AS 2C", "3D 4H"), FILES),
    ]
    (finding,) = check_shoe_card_counts(shoe, operator_config.games, None)
    assert (finding.kind, finding.round_id, finding.rule) == ("shoe_card_count", "R-3", "8 decks")
    assert finding.source == "inbox/2026-10/rounds.csv:13"
    assert finding.message == (
        "shoe S-1: AS seen 9 times, more than the 8 copies an 8-deck shoe holds"
        " (first exceeded in round R-3)"
    )


def test_a_shoe_id_given_to_two_shoes_is_said_in_the_finding(operator_config):
    """A table that numbers its shoes S-1, S-2, ... each day logs two shoes under one id: their
    cards add up past the shoe's copies, and the finding said only that, as if cards had been
    added to one shoe. It now names the hand logged twice and the two rounds, in hand order
    as the shoe is read."""

    def dealt(day: int, hand: int, player: str, banker: str) -> Round:
        return msgspec.structs.replace(
            shoe_round(hand, player, banker),
            round_id=f"R-{day}-{hand}",
            settled_at=f"2026-10-0{day}T18:40:41.870Z",
        )

    shoe = [
        (dealt(3, 1, "AS AS", "AS AS"), FILES),
        (dealt(4, 1, "AS AS", "AS AS"), FILES),
        (dealt(3, 2, "AS 2C", "3D 4H"), FILES),
    ]
    (finding,) = check_shoe_card_counts(shoe, operator_config.games, None)
    assert finding.round_id == "R-3-2"
    assert finding.message == (
        "shoe S-1: AS seen 9 times, more than the 8 copies an 8-deck shoe holds (first exceeded"
        " in round R-3-2); its hand 1 is logged twice, in round R-3-1 (settled"
        " 2026-10-03T18:40:41.870Z) and in round R-4-1 (settled 2026-10-04T18:40:41.870Z): the"
        " shoe id may name two shoes, which the log must tell apart"
    )
    # The first hand logged twice is named, not a later one; rounds without a hand number
    # repeat none.
    shoe[2:2] = [(dealt(4, 2, "2C 2C", "3D 4H"), FILES)]  # hand 2 twice too, R-4-2 and R-3-2
    (finding,) = check_shoe_card_counts(shoe, operator_config.games, None)
    assert "its hand 1 is logged twice, in round R-3-1" in finding.message
    unnumbered = [(msgspec.structs.replace(round, hand_no=None), files) for round, files in shoe]
    (finding,) = check_shoe_card_counts(unnumbered, operator_config.games, None)
    assert finding.message.endswith("(first exceeded in round R-3-2)")


def test_the_article_before_a_deck_count_is_said_as_the_number_is():
    """ "an 8-deck shoe", "a 6-deck shoe": the article follows the number's sound, for any
    count (the doctests of a_or_an hold too)."""
    with within_seconds(30):
        assert doctest.testmod(checks).failed == 0
    assert [a_or_an(decks) for decks in range(1, 9)] == ["a"] * 7 + ["an"]
    assert (a_or_an(11), a_or_an(18), a_or_an(80), a_or_an(100)) == ("an", "an", "an", "a")
    # The edges of "eighty-..." and "eight hundred ...", and a thousands' group said alone.
    said = {79: "a", 89: "an", 90: "a", 799: "a", 899: "an", 900: "a", 8500: "an", 1000: "a"}
    with within_seconds(5):
        assert {number: a_or_an(number) for number in said} == said
        assert a_or_an(18_000_000) == "an"


def test_eight_copies_of_a_card_fit_an_eight_deck_shoe(operator_config):
    shoe = [(shoe_round(1, "AS AS", "AS AS"), FILES), (shoe_round(2, "AS AS", "AS AS"), FILES)]
    assert check_shoe_card_counts(shoe, operator_config.games, None) == []


def test_a_shoe_exceeded_in_another_month_gives_no_finding_in_this_one(operator_config):
    shoe = [
        (shoe_round(1, "AS AS", "AS AS", month="2026-09"), FILES),
        (shoe_round(2, "AS AS", "AS AS AS", month="2026-09"), FILES),
        (shoe_round(3, "AS 2C", "3D 4H", month="2026-10"), FILES),
    ]
    assert check_shoe_card_counts(shoe, operator_config.games, "2026-10") == []
    (finding,) = check_shoe_card_counts(shoe, operator_config.games, "2026-09")
    assert finding.round_id == "R-2"


def test_rounds_of_an_unconfigured_game_do_not_count_in_a_shoe(operator_config):
    shoe = [
        (shoe_round(1, "AS AS", "AS AS"), FILES),
        (make_round(game_id="other-game", shoe_id="S-1", hand_no=2, player_cards="AS AS"), FILES),
        (shoe_round(3, "AS AS", "AS AS"), FILES),
    ]
    assert check_shoe_card_counts(shoe, operator_config.games, None) == []


# --- the tables --------------------------------------------------------------------------------


def faulty_rounds() -> list[Round]:
    """One round with a fault of every round-level kind, each in its own round."""
    return [
        make_round(make_bet(payout_cents=9999), round_id="R-payout"),
        make_round(make_bet(payout_cents=0), round_id="R-void", status="void"),
        make_round(make_bet(stake_cents=1), round_id="R-limits"),
        make_round(make_bet(placed_at="2026-10-03T18:41:00.000Z"), round_id="R-late"),
        make_round(make_bet(), round_id="R-draw", player_cards="8H AD QC", banker_cards="5C JH"),
        make_round(
            make_bet("B-1", bet_type="player_pair", stake_cents=500),
            make_bet("B-2", bet_type="banker_pair", stake_cents=500),
            round_id="R-exclusive",
            game_id=GREECE,
        ),
        make_round(round_id="R-time", started_at="2026-10-03T18:40:17.001Z"),
        make_round(make_bet(bet_type="BC_PLAYER_TIGER"), round_id="R-unverified"),
    ]


def test_every_finding_kind_is_found_by_exactly_one_entry_of_the_tables():
    round_kinds, shoe_kinds, store_kinds = set(CHECKS), set(SHOE_CHECKS), set(STORE_CHECKS)
    assert len(round_kinds) + len(shoe_kinds) + len(store_kinds) == len(FindingKind)
    assert round_kinds | shoe_kinds | store_kinds == set(FindingKind)
    assert {kind.value for kind in round_kinds | shoe_kinds | store_kinds} == set(FINDING_KINDS)


def test_each_round_check_finds_its_own_kind_and_no_other(operator_config):
    cache = CheckCache()
    found: dict[FindingKind, set[str]] = {}
    for round in faulty_rounds():
        game = operator_config.game(round.game_id)
        context = CheckContext.of(round, FILES, cache)
        for kind, check in CHECKS.items():
            for finding in check(round, game, context):
                assert finding.kind == kind.value, check.__name__
                found.setdefault(kind, set()).add(finding.round_id)
    assert found == {
        FindingKind.PAYOUT_MISMATCH: {"R-payout"},
        FindingKind.VOID_NOT_REFUNDED: {"R-void"},
        FindingKind.STAKE_OUT_OF_LIMITS: {"R-limits"},
        FindingKind.LATE_BET: {"R-late"},
        FindingKind.THIRD_CARD_RULE: {"R-draw"},
        FindingKind.EXCLUSIVE_SIDE_BETS: {"R-exclusive"},
        FindingKind.TIME_ORDER: {"R-time"},
        FindingKind.UNVERIFIED_BET: {"R-unverified"},
    }


def test_the_shoe_check_finds_its_own_kind(operator_config):
    shoe = [(shoe_round(1, "AS AS AS", "AS AS AS"), FILES), (shoe_round(2, "AS AS", "AS"), FILES)]
    for kind, check in SHOE_CHECKS.items():
        assert [f.kind for f in check(shoe, operator_config.games, None)] == [kind.value]


def check_batch(rounds: list[Round], operator_config) -> tuple[list[Finding], Totals]:
    """Every round check over a batch of rounds, with the batch's own cache and totals."""
    cache, totals, findings = CheckCache(), Totals(), []
    for round in rounds:
        game = operator_config.game(round.game_id)
        context = CheckContext.of(round, FILES, cache)
        totals.add(round, context.outcome)
        for check in CHECKS.values():
            findings.extend(check(round, game, context))
    return findings, totals


@pytest.mark.parametrize("split", [0, 1, 3, 6, 8])
def test_batches_checked_apart_give_the_findings_and_totals_of_the_whole(operator_config, split):
    rounds = faulty_rounds()
    whole_findings, whole_totals = check_batch(rounds, operator_config)
    first_findings, first_totals = check_batch(rounds[:split], operator_config)
    second_findings, second_totals = check_batch(rounds[split:], operator_config)
    first_totals.merge(second_totals)
    assert first_findings + second_findings == whole_findings
    assert first_totals == whole_totals
    assert whole_totals.tables[(ITALY, "LB01")].void == 1
    assert whole_totals.bets[(ITALY, "banker")].stakes == 3 * 2500 + 1
    assert whole_totals.bets[(ITALY, "BC_PLAYER_TIGER")].stakes == 2500  # counted, apart


def test_a_check_gives_the_same_findings_again_on_the_same_round(operator_config):
    round = faulty_rounds()[0]
    game = operator_config.game(ITALY)
    context = CheckContext.of(round, FILES, CheckCache())
    assert check_payouts(round, game, context) == check_payouts(round, game, context)


# --- the operator's own bets ------------------------------------------------------------------

OWN_BET_CONFIG = (
    MONKEY_6_CONFIG
    + """

[games.live-baccarat-it]
languages = ["it", "en"]
"""
)


@pytest.fixture(scope="module")
def own_bet_config(tmp_path_factory):
    path = tmp_path_factory.mktemp("config") / "operator.toml"
    path.write_text(OWN_BET_CONFIG, encoding="utf-8")
    return load_config(path)


def monkey_round(game_id: str) -> Round:
    """Player 5 draws an ace (a three-card 6) and beats banker 5, who stands on the ace: Monkey 6
    wins, 10.00 bringing back 10.00 + 40 x 10.00. B-1 is paid that, B-2 a win short."""
    return make_round(
        make_bet("B-1", bet_type="monkey_6", stake_cents=1000, payout_cents=41000),
        make_bet("B-2", bet_type="monkey_6", stake_cents=1000, payout_cents=40000),
        make_bet("B-3", bet_type="monkey_7", stake_cents=1000, payout_cents=0),
        game_id=game_id,
        player_cards="2C 3D AH",
        banker_cards="10S 5D",
    )


@pytest.mark.parametrize("game_id", ["monkey-it", "live-baccarat-it"])
def test_an_operators_own_bet_is_settled_by_its_declaration(own_bet_config, game_id):
    """In the game that offers it, and (a known bet, like the catalogue's) in one that does
    not; a type neither the catalogue nor the operator declares stays unverified."""
    round = monkey_round(game_id)
    assert run_check(check_drawing_rules, round, own_bet_config) == []
    (mismatch,) = run_check(check_payouts, round, own_bet_config)
    assert (mismatch.bet_id, mismatch.expected_payout, mismatch.logged_payout) == (
        "B-2",
        41000,
        40000,
    )
    unverified = run_check(check_unverified_bets, round, own_bet_config)
    assert [finding.bet_id for finding in unverified] == ["B-3"]
    assert "monkey_6" in settled_bets(own_bet_config.games.values())
    assert "monkey_6" not in settled_bets([own_bet_config.game("live-baccarat-it")])


BONUS_CONFIG = """\
[games.bonus-it]
base = "live-baccarat-it"
bets = ["player", "banker", "tie", "player_bonus"]
pay = { bonus_margin_9 = "40" }
languages = ["it", "en"]
"""


def test_a_known_bet_its_game_does_not_offer_is_settled_at_the_game_s_pay_for_a_shared_key(
    tmp_path,
):
    """The Banker Bonus is not a bet of this game, but its win by 9 shares the Player Bonus's
    pay key, which the game sets to 40: 10.00 brings back 410.00 (the default 30 would give
    310.00). The bet has no limits here, and is not unverified."""
    path = tmp_path / "operator.toml"
    path.write_text(BONUS_CONFIG, encoding="utf-8")
    config = load_config(path)
    # Player 0 draws a 10 (0); banker 3 draws a 6: the Banker wins by 9, no natural.
    round = make_round(
        make_bet("B-1", bet_type="banker_bonus", stake_cents=1000, payout_cents=31000),
        make_bet("B-2", bet_type="banker_bonus", stake_cents=10**9, payout_cents=41 * 10**9),
        game_id="bonus-it",
        player_cards="10H KS 10C",
        banker_cards="10D 3C 6S",
    )
    found = {
        (finding.kind, finding.bet_id, finding.expected_payout)
        for check in CHECKS.values()
        for finding in run_check(check, round, config)
    }
    assert found == {("payout_mismatch", "B-1", 41000)}


# --- bets the engine does not settle -----------------------------------------------------------


def tiger_round(**fields) -> Round:
    """A settled Italian round (player 9H KS beats banker 5D 2C): a banker bet paid wrongly
    (B-1), a player bet paid right (B-2), and a player tiger bet, a type the tool does not
    settle, paid something (B-7)."""
    return make_round(
        make_bet("B-1", bet_type="banker", payout_cents=4875, source_line=3),
        make_bet("B-2", bet_type="player", payout_cents=5000, source_line=4),
        make_bet(
            "B-7", bet_type="BC_PLAYER_TIGER", stake_cents=500, payout_cents=6000, source_line=5
        ),
        **fields,
    )


def test_a_bet_the_tool_does_not_settle_is_one_unverified_bet_with_its_logged_payout(
    operator_config,
):
    (finding,) = run_check(check_unverified_bets, tiger_round(), operator_config)
    assert finding.kind == "unverified_bet"
    assert (finding.round_id, finding.bet_id) == ("R-1", "B-7")
    assert (finding.expected_payout, finding.logged_payout) == (None, 6000)
    assert finding.source == "inbox/2026-10/bets.csv:5"
    assert finding.message == (  # says what to do: it said the tool did not settle the bet
        "bet B-7 (BC_PLAYER_TIGER, stake 5.00) is of no bet of the catalogue (if the catalogue"
        " has the bet, map the provider's code in its log profile's [bet_types]); its payout"
        " was not checked"
    )


def test_the_other_bets_of_its_round_are_still_settled_and_a_wrong_payout_still_found(
    operator_config,
):
    (mismatch,) = run_check(check_payouts, tiger_round(), operator_config)
    # Player 9 beats banker 7: the banker bet lost, so its 48.75 is a mismatch; the player
    # bet's 50.00 is right; the tiger bet is not judged (no exception either).
    assert (mismatch.bet_id, mismatch.expected_payout, mismatch.logged_payout) == ("B-1", 0, 4875)


@pytest.mark.parametrize(
    "bet_type", ["BC_PLAYER_TIGER", "BC_BANKER_NO_COMMISSION", "Dragon 7", "12", "Banker", ""]
)
def test_every_check_passes_over_a_type_it_cannot_judge_without_an_exception(
    operator_config, bet_type
):
    # A stake far above every limit, in the Greek game whose pair bets are exclusive, with a
    # pair bet of the same account beside it: nothing but the unverified bet is found.
    round = make_round(
        make_bet("B-1", bet_type="player_pair", stake_cents=500),
        make_bet("B-2", bet_type=bet_type, stake_cents=10**9, payout_cents=0),
        game_id=GREECE,
    )
    found = [
        (finding.kind, finding.bet_id)
        for check in CHECKS.values()
        for finding in run_check(check, round, operator_config)
    ]
    assert found == [("unverified_bet", "B-2")]
    assert bet_type not in settled_bets(operator_config.games.values())


def test_checks_that_do_not_need_the_type_still_judge_such_a_bet(operator_config):
    late = make_round(
        make_bet("B-7", bet_type="Dragon 7", placed_at="2026-10-03T18:41:00.000Z"),
        settled_at="2026-10-03T18:40:41.870Z",
    )
    assert [f.kind for f in run_check(check_late_bets, late, operator_config)] == ["late_bet"]
    assert [f.rule for f in run_check(check_time_order, late, operator_config)] == []
    void = make_round(
        make_bet("B-7", bet_type="Dragon 7", payout_cents=0),
        status="void",
        player_cards="",
        banker_cards="",
    )
    assert [f.bet_id for f in run_check(check_void_refunds, void, operator_config)] == ["B-7"]
    (unverified,) = run_check(check_unverified_bets, void, operator_config)
    assert unverified.message == (
        "bet B-7 (Dragon 7, stake 25.00) is of no bet of the catalogue (if the catalogue has the"
        " bet, map the provider's code in its log profile's [bet_types]); round R-1 is void:"
        " only its refund was checked"
    )


def test_bets_of_every_type_of_the_catalogue_are_verified_in_any_game(operator_config):
    assert set(catalogue_bets()) <= set(settled_bets(operator_config.games.values()))
    for game_id in operator_config.games:
        round = make_round(
            *(make_bet(f"B-{bet_id}", bet_type=bet_id) for bet_id in catalogue_bets()),
            game_id=game_id,
        )
        assert run_check(check_unverified_bets, round, operator_config) == []


def test_the_fields_each_check_needs_are_optional_fields_of_the_records():
    optional = {
        name
        for record in (Round, Bet)
        for name, annotation in record.__annotations__.items()
        if "None" in str(annotation)
    }
    assert optional == {
        "shoe_id",
        "hand_no",
        "started_at",
        "betting_closed_at",
        "void_reason",
        "placed_at",
    }
    checked = set(CHECKS) | set(SHOE_CHECKS) | set(STORE_CHECKS)
    for kind, needed in FIELDS_NEEDED.items():
        assert kind in checked
        assert needed.unit in ("rounds", "bets")
        assert needed.groups and all(needed.groups)
        assert set(needed.fields) <= optional, kind
        if needed.unit == "rounds":
            assert set(needed.fields) <= set(Round.__struct_fields__), kind


# --- what the findings say, and what else they carry --------------------------------------------


def test_a_bet_finding_carries_its_game_month_round_and_line(operator_config):
    round = make_round(make_bet("B-1", payout_cents=100, source_line=3), report_month="2026-09")
    (finding,) = run_check(check_payouts, round, operator_config)
    assert finding == Finding(
        kind="payout_mismatch",
        game_id=ITALY,
        report_month="2026-09",
        round_id="R-1",
        bet_id="B-1",
        source_file="inbox/2026-10/bets.csv",
        source_line=3,
        expected_payout=0,
        logged_payout=100,
        message="bet B-1 (banker, stake 25.00) on player 9H KS / banker 5D 2C should pay 0.00,"
        " logged 1.00",
    )


def test_a_round_finding_carries_its_game_month_and_line(operator_config):
    round = make_round(started_at="2026-10-03T18:40:17.001Z", report_month="2026-09")
    (finding,) = run_check(check_time_order, round, operator_config)
    assert finding == Finding(
        kind="time_order",
        game_id=ITALY,
        report_month="2026-09",
        round_id="R-1",
        source_file="inbox/2026-10/rounds.csv",
        source_line=7,
        rule="started_before_betting_closed",
        message="round R-1: started at 2026-10-03T18:40:17.001Z, after betting closed at"
        " 2026-10-03T18:40:17.000Z",
    )


def test_a_void_round_s_unrefunded_bet_says_what_it_paid_and_what_it_staked(operator_config):
    """The message names the bet's type, as every bet finding's does: one reading the line
    alone (the terminal, the log) knows which bet was not refunded."""
    round = make_round(make_bet("B-1", payout_cents=1200), status="void")
    (finding,) = run_check(check_void_refunds, round, operator_config)
    assert finding.message == (
        "round R-1 is void but bet B-1 (banker) paid 12.00 instead of refunding its stake 25.00"
    )
    assert (finding.expected_payout, finding.logged_payout) == (2500, 1200)


def test_a_deal_breaking_two_rules_names_both_in_one_finding(operator_config):
    # Player stood on 4 (must draw); the Banker, judged as if the Player stood, drew on 7.
    round = make_round(make_bet(), player_cards="2H 2S", banker_cards="3D 4C AH")
    (finding,) = run_check(check_drawing_rules, round, operator_config)
    assert finding.rule == "player_draws_0_5,banker_stands_6_7_player_stood"
    assert finding.message == (
        "round R-1 (player 2H 2S, banker 3D 4C AH): Player on 4 stood but must draw (Player"
        " draws on 0-5; rule player_draws_0_5); Banker on 7 drew but must stand (Banker stands"
        " on 6-7 when the Player stood; rule banker_stands_6_7_player_stood)"
    )


def test_bets_placed_after_settlement_are_listed_with_their_times(operator_config):
    round = make_round(
        make_bet("B-1", placed_at="2026-10-03T18:40:42.000Z"),
        make_bet("B-2", placed_at="2026-10-03T18:40:43.000Z"),
        betting_closed_at=None,
    )
    (finding,) = run_check(check_time_order, round, operator_config)
    assert finding.message == (
        "round R-1: bets placed after settlement at 2026-10-03T18:40:41.870Z:"
        " B-1 at 2026-10-03T18:40:42.000Z, B-2 at 2026-10-03T18:40:43.000Z"
    )


def test_a_bet_placed_at_a_close_that_came_after_settlement_is_out_of_order(operator_config):
    """Not late (placed at the close, not after it), but after settlement: the time order
    lists it beside the close that came after settlement."""
    closed = "2026-10-03T18:40:50.000Z"
    round = make_round(make_bet("B-1", placed_at=closed), betting_closed_at=closed)
    assert run_check(check_late_bets, round, operator_config) == []
    (finding,) = run_check(check_time_order, round, operator_config)
    assert finding.rule == "betting_closed_before_settled,bets_placed_before_settled"


def test_each_account_s_exclusive_bets_are_judged_after_one_holding_a_single_bet(
    operator_config,
):
    round = make_round(
        make_bet("B-1", bet_type="player_pair", stake_cents=500, account="acc-1"),
        make_bet("B-2", bet_type="player_pair", stake_cents=500, account="acc-2"),
        make_bet("B-3", bet_type="banker_pair", stake_cents=500, account="acc-2"),
        game_id=GREECE,
    )
    (finding,) = run_check(check_exclusive_bets, round, operator_config)
    assert finding.message.startswith(
        "account acc-2 holds 2 bets (player_pair B-2, banker_pair B-3)"
    )


def test_a_bet_the_tool_does_not_settle_does_not_stop_the_payouts_of_the_bets_after_it(
    operator_config,
):
    round = make_round(
        make_bet("B-7", bet_type="BC_PLAYER_TIGER", stake_cents=500, payout_cents=6000),
        make_bet("B-1", bet_type="banker", payout_cents=4875),
    )
    (finding,) = run_check(check_payouts, round, operator_config)
    assert (finding.bet_id, finding.expected_payout) == ("B-1", 0)


#: Two misdealt rounds alike in every fact the Player Bonus reads but the Player's natural:
#: the Player wins by 5 over a Banker 4 that stood (both must have drawn); in the first on a
#: natural 8 it drew to (pays 1:1), in the second on a 4 (pays 2:1). 10.00 staked on each.
DREW_ON_A_NATURAL = ("8H KS AD", "KD 4C", 2000)
DREW_ON_A_FOUR = ("2H 2S 5D", "KD 4C", 3000)


@pytest.mark.parametrize(
    "order", [(DREW_ON_A_NATURAL, DREW_ON_A_FOUR), (DREW_ON_A_FOUR, DREW_ON_A_NATURAL)]
)
def test_misdealt_rounds_apart_only_in_a_natural_are_settled_apart(operator_config, order):
    game, cache = operator_config.game(ITALY), CheckCache()
    for number, (player, banker, paid) in enumerate(order):
        right = make_round(
            make_bet("B-1", bet_type="player_bonus", stake_cents=1000, payout_cents=paid),
            make_bet("B-2", bet_type="player_bonus", stake_cents=1000, payout_cents=2500),
            round_id=f"R-{number}",
            player_cards=player,
            banker_cards=banker,
        )
        context = CheckContext.of(right, FILES, cache)
        assert check_drawing_rules(right, game, context) != []
        (wrong,) = check_payouts(right, game, context)
        assert (wrong.bet_id, wrong.expected_payout, wrong.logged_payout) == ("B-2", paid, 2500)


def test_the_settler_pays_a_push_its_stake_and_a_loss_nothing(operator_config):
    game, settler = operator_config.game(ITALY), Settler()
    tie = resolve_round(parse_cards("9H KS"), parse_cards("5D 4C"))
    player_win = resolve_round(parse_cards("9H KS"), parse_cards("5D 2C"))
    assert settler.payout(game, settler.resolve(game, "banker_no_commission", tie), 1000) == 1000
    assert settler.payout(game, settler.resolve(game, "banker", player_win), 1000) == 0
    assert settler.payout(game, settler.resolve(game, "player", player_win), 1000) == 2000


def test_a_shoe_round_without_cards_counts_none(operator_config):
    shoe = [
        (shoe_round(1, "", ""), FILES),
        (shoe_round(2, "AS AS", "AS AS"), FILES),
        (shoe_round(3, "AS AS", "AS AS"), FILES),
    ]
    assert check_shoe_card_counts(shoe, operator_config.games, None) == []


def test_a_shoe_round_of_an_unconfigured_game_first_does_not_end_the_count(operator_config):
    shoe = [
        (make_round(game_id="other-game", shoe_id="S-1", player_cards="2C 3C"), FILES),
        (shoe_round(2, "AS AS", "AS AS"), FILES),
        (shoe_round(3, "AS AS", "AS AS AS"), FILES),
    ]
    (finding,) = check_shoe_card_counts(shoe, operator_config.games, None)
    assert finding.round_id == "R-3"


def test_a_shoe_finding_names_every_card_over_and_none_at_the_count(operator_config):
    shoe = [
        (shoe_round(1, "AS AS AS", "KD KD KD"), FILES),
        (shoe_round(2, "AS AS AS", "KD KD KD"), FILES),
        (shoe_round(3, "QH QH QH", "QH QH KD"), FILES),
        (shoe_round(4, "QH QH", "2C 3C"), FILES),
        # AS reaches its 8 copies here (not over), KD and QH go over.
        (shoe_round(5, "AS AS KD", "KD QH QH", month="2026-09"), FILES),
    ]
    (finding,) = check_shoe_card_counts(shoe, operator_config.games, None)
    assert (finding.game_id, finding.report_month, finding.round_id) == (ITALY, "2026-09", "R-5")
    assert finding.message == (
        "shoe S-1: KD seen 9 times, QH seen 9 times, more than the 8 copies an 8-deck shoe"
        " holds (first exceeded in round R-5)"
    )
