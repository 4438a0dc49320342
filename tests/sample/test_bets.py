"""The sample generator's bets: a share of play for every bet of the catalogue, stakes within
limits, and payouts that are the engine's."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest
from helpers import house_rule_findings

from reporting.config.bets import catalogue_bets
from reporting.config.loader import load_config
from reporting.engine.bets import BetGroup, BetRule, settle
from reporting.engine.cards import parse_cards
from reporting.engine.facts import facts_of
from reporting.engine.games import StakeLimits, placed_in_time
from reporting.engine.rules import resolve_round
from reporting.records import FindingKind
from reporting.sample.bets import (
    BET_SHARES,
    CLOSING_MARGIN,
    OPENING_DELAY,
    SHARES_BY_GROUP,
    BetSampler,
    PlacedBet,
    Settler,
    StakeSampler,
    bet_share,
    betting_span,
    drawn_bets,
)
from reporting.sample.calendar import BETTING_OPEN, SECOND

SAMPLE_CONFIG = Path(__file__).resolve().parents[2] / "sample_data" / "operator.toml"
#: The shares of play of the classic bets, as the generator has always drawn them: a month of a
#: classic game is the same month, byte for byte, only while these stay.
CLASSIC_SHARES = {
    "player": 0.28, "banker": 0.32, "tie": 0.08, "player_pair": 0.05, "banker_pair": 0.05,
    "either_pair": 0.04, "perfect_pair": 0.04, "small": 0.03, "big": 0.03,
    "player_bonus": 0.04, "banker_bonus": 0.04,
}  # fmt: skip


@pytest.fixture(scope="module")
def config():
    return load_config(SAMPLE_CONFIG)


@pytest.fixture(scope="module")
def variants(variant_config):
    return variant_config


def test_the_shares_name_catalogue_bets_in_the_catalogues_order():
    catalogue = list(catalogue_bets())
    assert list(BET_SHARES) == [bet for bet in catalogue if bet in BET_SHARES]
    assert all(share > 0 for share in BET_SHARES.values())
    assert {bet: BET_SHARES[bet] for bet in CLASSIC_SHARES} == CLASSIC_SHARES


def test_a_bet_without_a_share_of_its_own_takes_its_groups():
    assert set(SHARES_BY_GROUP) == set(BetGroup) and all(SHARES_BY_GROUP.values())
    for group in BetGroup:
        assert bet_share(BetRule("monkey_6", group, (), own=True)) == SHARES_BY_GROUP[group]
        # a bet just added to the catalogue is played with no code: as much as its group
        assert bet_share(BetRule("dragon_bonus", group, ())) == SHARES_BY_GROUP[group]


def test_the_table_cannot_be_extended_by_a_caller():
    with pytest.raises(TypeError):
        BET_SHARES["tie"] = 1.0  # type: ignore[index]


def test_each_game_draws_only_the_bets_it_offers_in_the_catalogues_order(config, variants):
    catalogue = list(catalogue_bets())
    for game in [*config.games.values(), *variants.games.values()]:
        sampler = BetSampler(game, 10000)
        assert sorted(sampler.bet_types) == sorted(game.bet_ids)
        assert sampler.bet_types == sorted(game.bet_ids, key=catalogue.index)
        assert sampler.cumulative[-1] == 1.0
        assert sampler.cumulative == sorted(sampler.cumulative)
        main = [bet for bet in game.bets if bet.group is BetGroup.MAIN]
        assert sampler.most_played == max(main, key=bet_share).id
    # The order of the game's declaration does not change the draws.
    lucky = variants.games["lucky-baccarat-dk"]
    assert lucky.bet_ids[0] == "banker" and BetSampler(lucky, 1).bet_types[:2] == [
        "player", "banker"
    ]  # fmt: skip


def test_an_operators_own_bets_are_drawn_after_the_catalogues(variants):
    game = variants.games["ez-baccarat-it"]
    first, second = (BetRule(name, BetGroup.SIDE, (), own=True) for name in ("monkey_6", "kings"))
    drawn = drawn_bets(replace(game, bets=(first, *game.bets, second)))
    catalogue = list(catalogue_bets())
    expected = [*sorted(game.bet_ids, key=catalogue.index), "monkey_6", "kings"]
    assert [bet.id for bet in drawn] == expected


#: The house rules a sample round's bets keep, each judged by its check.
HOUSE_RULES = (
    FindingKind.STAKE_OUT_OF_LIMITS,
    FindingKind.LATE_BET,
    FindingKind.EXCLUSIVE_SIDE_BETS,
)


def test_placed_bets_keep_the_house_rules_as_the_checks_judge_them(config, variants):
    """The generator and verify read the house rules from one definition: bets placed by the
    sampler, timed as a table times its rounds, give no finding of any house rule's kind in
    any game (the Greek game has the exclusive groups)."""
    rng = random.Random(3)
    for game in [*config.games.values(), *variants.games.values()]:
        sampler = BetSampler(game, 10000)
        for round_number in range(60):
            started = 1_791_052_802_120 + round_number * 45_017
            closed = (started + BETTING_OPEN) // SECOND * SECOND
            bets = sampler.place(12, started, closed, rng.random)
            found = house_rule_findings(game, bets, started, closed, HOUSE_RULES)
            assert found == dict.fromkeys(HOUSE_RULES, []), game.id
            held: dict[str, list[str]] = {}
            for bet in bets:
                held.setdefault(bet.account, []).append(bet.bet)
            # each type at most once a round and account: the sample's own habit
            assert all(len(types) == len(set(types)) for types in held.values())


def test_the_sampler_keeps_a_margin_inside_the_betting_window():
    first, last = betting_span(10_000, 25_000)
    assert first == 10_000 + OPENING_DELAY and 10_000 < first < last
    assert placed_in_time(last + CLOSING_MARGIN, 25_000)
    assert not placed_in_time(last + CLOSING_MARGIN + 1, 25_000)


def test_stakes_stay_within_the_limits_and_some_have_odd_cents():
    sampler = StakeSampler(StakeLimits(500, 500_000), side_bet=False)
    rng = random.Random(1)
    stakes = [sampler.draw(rng.random) for _ in range(5000)]
    assert all(500 <= stake <= 500_000 for stake in stakes)
    assert 0.05 < sum(stake % 100 != 0 for stake in stakes) / len(stakes) < 0.30


DEALS = [
    (["9H", "KS"], ["3D", "4C"]),
    (["2H", "3S", "4D"], ["5C", "5H", "9S"]),
    # Banker 6 against Player 5: a no-commission Banker pays half, Super 6 and Tiger pay.
    (["10H", "KS", "5D"], ["3D", "3C"]),
    # Banker on a three-card 7: EZ pushes, Dragon 7 pays.
    (["10H", "KS", "5D"], ["10D", "2C", "5H"]),
    # Twin pairs: both hands start with a pair of 5s; then a pair of 5s and one of 3s.
    (["5H", "5S", "9C"], ["5D", "5C", "4H"]),
    (["5H", "5S", "9C"], ["3D", "3C"]),
]


@pytest.mark.parametrize("game_id", ["live-baccarat-it", "no-commission-dk", "ez-baccarat-it",
                                     "tiger-baccarat-it", "lucky-baccarat-dk"])  # fmt: skip
def test_cached_payouts_are_the_engines_settlements_on_the_rounds_facts(config, variants, game_id):
    game = {**config.games, **variants.games}[game_id]
    settler = Settler(game)
    bets = [PlacedBet(0, bet, "acc-1", stake) for bet in game.bet_ids for stake in (1235, 500)]
    for player_codes, banker_codes in DEALS * 2:  # the second time from the caches
        player, banker = tuple(parse_cards(player_codes)), tuple(parse_cards(banker_codes))
        facts = resolve_round(player, banker).facts
        assert facts == facts_of(player, banker)
        assert settler.payouts(player, banker, bets) == [
            settle(game.bet(placed.bet), placed.stake, facts, game.pay_table, game.rounding).payout
            for placed in bets
        ]


def test_deals_that_differ_only_in_a_fact_no_classic_bet_reads_settle_apart(variants):
    """Twin pairs pay a Tiger Pair 100 to 1, two pairs of different ranks 20 to 1: the cache
    tells the two rounds apart by every fact of the round, not by a key of its own."""
    game = variants.games["tiger-baccarat-it"]
    settler = Settler(game)
    bet = [PlacedBet(0, "tiger_pair", "acc-1", 1000)]
    twin = settler.payouts(*(tuple(parse_cards(c)) for c in (["5H", "5S"], ["5D", "5C"])), bet)
    double = settler.payouts(*(tuple(parse_cards(c)) for c in (["5H", "5S"], ["4D", "4C"])), bet)
    assert (twin, double) == ([101_000], [21_000])
