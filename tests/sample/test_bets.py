"""The sample generator's bets: one weight per bet type, stakes within limits, and payouts
that are the engine's."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from reporting.config.loader import load_config
from reporting.engine.bets import BetType, settle
from reporting.engine.cards import parse_cards
from reporting.engine.rules import resolve_round
from reporting.sample.bets import BET_WEIGHTS, BetSampler, Settler, StakeSampler, bet_weight

SAMPLE_CONFIG = Path(__file__).resolve().parents[2] / "sample_data" / "operator.toml"


@pytest.fixture(scope="module")
def config():
    return load_config(SAMPLE_CONFIG)


def test_every_bet_type_has_a_sample_weight_and_nothing_else_does():
    assert set(BET_WEIGHTS) == set(BetType)
    assert all(weight > 0 for weight in BET_WEIGHTS.values())
    assert list(BET_WEIGHTS) == list(BetType)  # the order of play draws


def test_a_bet_type_without_a_weight_fails_loudly():
    with pytest.raises(KeyError, match="bet type 'dragon_bonus' has no sample weight"):
        bet_weight("dragon_bonus")  # type: ignore[arg-type]


def test_the_table_cannot_be_extended_by_a_caller():
    with pytest.raises(TypeError):
        BET_WEIGHTS[BetType.TIE] = 1.0  # type: ignore[index]


def test_each_game_draws_only_the_bets_it_offers(config):
    for game in config.games.values():
        sampler = BetSampler(game, 10000)
        assert sampler.bet_types == [bet.value for bet in BetType if game.offers(bet)]
        assert sampler.cumulative[-1] == 1.0
        assert sampler.cumulative == sorted(sampler.cumulative)


def test_placed_bets_keep_the_house_rules(config):
    game = config.games["live-baccarat-gr"]
    sampler = BetSampler(game, 10000)
    rng = random.Random(3)
    for _ in range(200):
        bets = sampler.place(12, 0, 15_000, rng.random)
        held: dict[str, list[str]] = {}
        for placed, bet, account, stake in bets:
            assert 500 <= placed <= 14_800
            assert game.limits_for(BetType(bet)).allows(stake)
            held.setdefault(account, []).append(bet)
        for types in held.values():
            assert len(types) == len(set(types))  # each type at most once a round
            for group in game.exclusive_bets:
                assert sum(BetType(bet) in group for bet in types) <= 1


def test_stakes_stay_within_the_limits_and_some_have_odd_cents():
    sampler = StakeSampler(500, 500_000, side_bet=False)
    rng = random.Random(1)
    stakes = [sampler.draw(rng.random) for _ in range(5000)]
    assert all(500 <= stake <= 500_000 for stake in stakes)
    assert 0.05 < sum(stake % 100 != 0 for stake in stakes) / len(stakes) < 0.30


def test_cached_payouts_are_the_engines(config):
    game = config.games["live-baccarat-it"]
    settler = Settler(game)
    deals = [(["9H", "KS"], ["3D", "4C"]), (["2H", "3S", "4D"], ["5C", "5H", "9S"])]
    bets = [[0, bet.value, "acc-1", 1235] for bet in BetType if game.offers(bet)]
    for player_codes, banker_codes in deals * 2:  # the second time from the caches
        player, banker = tuple(parse_cards(player_codes)), tuple(parse_cards(banker_codes))
        outcome = resolve_round(player, banker)
        assert settler.payouts(player, banker, bets) == [
            settle(BetType(bet), stake, outcome, game.pay_table, game.rounding).payout
            for _, bet, _, stake in bets
        ]
