"""The game record: a game's bets, limits and words, looked up by bet id or rule."""

from __future__ import annotations

import dataclasses

import pytest

from reporting.engine.games import StakeLimits

ITALY = "live-baccarat-it"
DENMARK = "live-baccarat-dk"  # the tie has limits of its own


def test_a_game_s_limits_are_those_of_the_bet_asked_for(operator_config):
    game = operator_config.game(DENMARK)
    limits = dict(game.limits)
    for bet in game.bets:
        assert game.limits_for(bet.id) == game.limits_for(bet) == limits[bet.id]
    assert len({limits for _, limits in game.limits}) > 1  # the lookup has something to miss
    with pytest.raises(KeyError) as error:
        game.limits_for("dragon_7")
    assert error.value.args == (f"{DENMARK} does not offer the dragon_7 bet",)


def test_a_game_offers_its_bets_by_rule_or_by_id(operator_config):
    game = operator_config.game(ITALY)
    for bet in game.bets:
        assert game.offers(bet) and game.offers(bet.id)
        assert game.bet(bet.id) is bet
    assert not game.offers("dragon_7")
    with pytest.raises(KeyError) as error:
        game.bet("dragon_7")
    assert error.value.args == (f"{ITALY} does not offer the dragon_7 bet",)


def test_stake_limits_allow_their_bounds_and_nothing_beyond():
    limits = StakeLimits(500, 100_000)
    assert [limits.allows(stake) for stake in (499, 500, 100_000, 100_001)] == [
        False, True, True, False
    ]  # fmt: skip


def test_a_game_s_words_for_the_hands_are_by_language(operator_config):
    words = (("it", (("banker", "Banco"), ("player", "Giocatore"))),)
    game = dataclasses.replace(operator_config.game(ITALY), words=words)
    assert game.hand_words("it") == (("banker", "Banco"), ("player", "Giocatore"))
    assert game.hand_words("da") == ()


def test_the_last_moment_to_bet_follows_the_house_rule_of_the_close(monkeypatch):
    """The sample generator places its bets by :func:`last_moment_to_bet`, and the late-bet
    check judges them by :func:`placed_in_time`: one rule, the close included. Were the close
    excluded, the last moment would be a millisecond before it."""
    from reporting.engine import games

    assert games.last_moment_to_bet(17_000) == 17_000
    monkeypatch.setattr(games, "placed_in_time", lambda placed, closed: placed < closed)
    assert games.last_moment_to_bet(17_000) == 16_999
