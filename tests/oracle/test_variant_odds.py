"""``odds --json`` judged by the independent oracle (tests/oracle/exact.py), fraction for
fraction: every bet of a game the operator declares (a catalogue game as ``base``, the bets it
offers, its deck count, its pay keys), and every bet of ``odds --decks N``.

Each game is declared in a configuration file of its own, so that a game the tool refuses
fails alone. The games of the standard bets pass on the tool as it was before the variants;
the others need the variant bets (variants.md).
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from oracle import exact
from oracle.configs import STANDARD, GameConfig, operator_toml
from typer.testing import CliRunner

from reporting.cli import app

runner = CliRunner()

#: The declared games: catalogue base, bets, decks, and pay keys as the spec names them.
GAMES = [
    # The standard bets, non-default pays: these pass without the variants.
    GameConfig(
        "standard-8",
        "live-baccarat-it",
        STANDARD,
        pays={"perfect_pair_both": "250", "tie": "9", "bonus_margin_9": "50"},
    ),
    GameConfig(
        "standard-6", "mini-baccarat-it", ("player", "banker", "tie", "perfect_pair"), decks=6
    ),
    # EZ Baccarat: the banker's three-card 7 pushes, with its side bets; banker offered too.
    GameConfig(
        "ez-8",
        "live-baccarat-it",
        ("player", "banker", "banker_ez", "tie", "dragon_7", "panda_8", "ox_6"),
    ),
    GameConfig(
        "ez-6",
        "live-baccarat-it",
        ("player", "banker_ez", "tie", "dragon_7", "panda_8"),
        decks=6,
        pays={"dragon_7": "30", "panda_8": "24"},
    ),
    # No commission: banker and banker_no_commission at one table.
    GameConfig(
        "no-commission-8",
        "live-baccarat-it",
        ("player", "banker", "banker_no_commission", "tie", "super_6", "lucky_6"),
    ),
    GameConfig(
        "no-commission-6",
        "live-baccarat-it",
        ("player", "banker", "banker_no_commission", "tie", "super_6", "lucky_6"),
        decks=6,
        # (its six at 1/2: the sentence "a Banker win with a total of 6 pays half" holds the
        # configuration to it; other sixes are counted through odds --pay and the oracle's own)
        pays={"super_6": "15", "lucky_6_three_cards": "22"},
    ),
    # The tiger bets.
    GameConfig(
        "tiger-8",
        "live-baccarat-it",
        ("player", "banker", "tie", "tiger", "small_tiger", "big_tiger", "tiger_tie", "tiger_pair"),
    ),
    GameConfig(
        "tiger-6",
        "mini-baccarat-it",
        ("player", "banker", "tie", "tiger", "small_tiger", "big_tiger", "tiger_tie", "tiger_pair"),
        pays={"tiger_pair_twin": "50", "tiger_three_cards": "25", "big_tiger": "40"},
    ),
    # Perfect pair at 250 for both hands, from the Danish game (its pay table: 200 for both).
    GameConfig(
        "perfect-pair-8",
        "live-baccarat-dk",
        ("player", "banker", "tie", "perfect_pair", "tiger_pair", "dragon_7"),
        pays={"perfect_pair_both": "250", "dragon_7": "30", "tiger_pair_single": "5"},
    ),
]

#: The base games' deck counts and pay tables (catalogue facts: games.md).
BASE_DECKS = {"live-baccarat-it": 8, "live-baccarat-dk": 8, "mini-baccarat-it": 6}
BASE_PAYS = {"live-baccarat-dk": {"perfect_pair_both": "200"}}


def odds_json(*args: str) -> dict:
    result = runner.invoke(app, ["odds", *args, "--json"])
    assert result.exit_code == 0, (result.output, result.exception)
    return json.loads(result.stdout)


@pytest.fixture(scope="module")
def configs(tmp_path_factory) -> dict[str, str]:
    """One configuration file per game, by game id."""
    folder = tmp_path_factory.mktemp("oracle-odds")
    paths = {}
    for game in GAMES:
        path = folder / f"{game.game_id}.toml"
        path.write_text(operator_toml([game]), encoding="utf-8")
        paths[game.game_id] = str(path)
    return paths


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.game_id)
def test_every_bet_of_a_declared_game_has_the_oracles_exact_rtp(game, configs):
    document = odds_json("--config", configs[game.game_id], "--game", game.game_id)
    decks = game.decks or BASE_DECKS[game.base]
    assert document["decks"] == decks
    assert list(document["bets"]) == list(game.bets)
    pays = {**BASE_PAYS.get(game.base, {}), **game.pays}
    wrong = {}
    for bet in game.bets:
        expected = exact.rtp(bet, decks, pays)
        logged = Fraction(document["bets"][bet]["rtp_exact"])
        if logged != expected:
            wrong[bet] = (f"tool {float(logged):.8%}", f"oracle {float(expected):.8%}")
    assert wrong == {}


#: ``odds --decks N`` names perfect pair's variant B (200 for both hands) ``perfect_pair_b``.
DECKS_BETS = {bet: (bet, {}) for bet in exact.BETS} | {
    "perfect_pair_b": ("perfect_pair", {"perfect_pair_both": "200"})
}


@pytest.mark.parametrize("decks", [6, 8])
def test_odds_for_a_deck_count_lists_every_bet_of_the_catalogue(decks):
    document = odds_json("--decks", str(decks))
    assert sorted(set(DECKS_BETS) - set(document["bets"])) == []


@pytest.mark.parametrize("decks", [1, 6, 8])
def test_odds_for_a_deck_count_has_the_oracles_exact_rtp_for_every_bet_listed(decks):
    document = odds_json("--decks", str(decks))
    compared = 0
    for name, figures in document["bets"].items():
        if name not in DECKS_BETS:
            continue
        bet, pays = DECKS_BETS[name]
        assert Fraction(figures["rtp_exact"]) == exact.rtp(bet, decks, pays), name
        compared += 1
    assert compared >= len(STANDARD)


@pytest.mark.parametrize(
    "pays",
    [
        {"tie": "9", "bonus_margin_9": "50", "banker": "0.96"},
        {"dragon_7": "30", "banker_no_commission_six": "0.6", "tiger_pair_twin": "50"},
    ],
    ids=["standard", "variants"],
)
def test_odds_for_a_deck_count_with_pay_overrides(pays):
    """``odds --decks 8 --pay KEY=ODDS``: every bet listed at the pays given."""
    overrides = [option for key, odds in pays.items() for option in ("--pay", f"{key}={odds}")]
    document = odds_json("--decks", "8", *overrides)
    compared = 0
    for name, figures in document["bets"].items():
        if name in DECKS_BETS:
            bet, perfect_pair = DECKS_BETS[name]
            expected = exact.rtp(bet, 8, {**pays, **perfect_pair})
            assert Fraction(figures["rtp_exact"]) == expected, name
            compared += 1
    assert compared >= len(STANDARD)
