"""Fixtures of the sample generator's tests: games of every variant of the catalogue, and
deals on which a chosen pay row of a bet decides it."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

from reporting.config.loader import OperatorConfig, load_config
from reporting.engine.bets import BetRule, PayTable, resolve_bet
from reporting.engine.cards import Card
from reporting.engine.facts import RoundFacts, facts_of
from reporting.engine.rules import deal_round
from reporting.sample.shoes import full_deck

#: Games that offer every variant bet of the catalogue between them, with changed pays and a
#: table offering both Banker bets. Their tables are named apart from the sample's games'.
VARIANT_GAMES = """
[games.no-commission-dk]
base = "live-baccarat-dk"
bets = ["player", "banker_no_commission", "tie", "player_pair", "banker_pair", "super_6"]
pay = { super_6 = "15" }
tables = ["NC-DK-*"]

[games.ez-baccarat-it]
base = "live-baccarat-it"
bets = ["player", "banker_ez", "tie", "dragon_7", "panda_8"]
tables = ["EZ-IT-*"]

[games.tiger-baccarat-it]
base = "live-baccarat-it"
bets = ["player", "banker", "tie", "tiger", "small_tiger", "big_tiger", "tiger_tie", "tiger_pair"]
tables = ["TB-IT-*"]

[games.lucky-baccarat-dk]
base = "live-baccarat-dk"
bets = ["banker", "player", "tie", "banker_no_commission", "lucky_6", "ox_6", "perfect_pair"]
pay = { perfect_pair_both = "250" }
tables = ["LK-DK-*"]
"""


@pytest.fixture(scope="session")
def variant_config_path(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("variants") / "variants.toml"
    path.write_text(VARIANT_GAMES, encoding="utf-8")
    return path


@pytest.fixture(scope="session")
def variant_config(variant_config_path) -> OperatorConfig:
    return load_config(variant_config_path)


def _deal_where(holds: Callable[[RoundFacts], bool], seed: int = 0) -> tuple[tuple[Card, ...], ...]:
    """A deal by the rules, from shuffled 8-deck shoes, whose facts ``holds`` accepts."""
    rng = random.Random(seed)
    deck = full_deck(8)
    for _ in range(400):
        cards = list(deck)
        rng.shuffle(cards)
        shoe = iter(cards)
        for _ in range(60):
            player, banker = deal_round(shoe)
            if holds(facts_of(player, banker)):
                return player, banker
    raise AssertionError("no deal of 24,000 has these facts")


def _deal_deciding(bet: BetRule, row: str, table: PayTable) -> tuple[tuple[Card, ...], ...]:
    """A deal on which row ``row`` (``"<bet>:<n>"`` or ``"<bet>:lose"``) decides ``bet``."""
    return _deal_where(lambda facts: resolve_bet(bet, facts, table).row == row)


@pytest.fixture(scope="session")
def deal_deciding() -> Callable[[BetRule, str, PayTable], tuple[tuple[Card, ...], ...]]:
    """``deal_deciding(bet, row, pay_table)``: a deal by the rules on which ``row`` (``"<bet
    id>:<n>"`` or ``"<bet id>:lose"``) decides the bet."""
    return _deal_deciding
