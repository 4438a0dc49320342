"""The engine as a whole: its docstrings' examples hold, and the records its caches share are
frozen (a cache hands one record to many rounds: a record changed by one would change them all).
"""

from __future__ import annotations

import dataclasses
import doctest
import importlib
import pkgutil
from fractions import Fraction

import pytest
from helpers import within_seconds

import reporting.engine
from reporting.config.bets import catalogue_bets
from reporting.engine.bets import PayTable, resolve_bet
from reporting.engine.cards import parse_card, parse_cards
from reporting.engine.facts import FACTS
from reporting.engine.odds import Shoe, bet_odds, distribution
from reporting.engine.rules import banker_draws, player_draws, resolve_round

MODULES = sorted(module.name for module in pkgutil.iter_modules(reporting.engine.__path__))


@pytest.mark.parametrize("name", MODULES)
def test_the_examples_of_the_engine_s_docstrings_hold(name):
    module = importlib.import_module(f"reporting.engine.{name}")
    with within_seconds(30):
        assert doctest.testmod(module).failed == 0


def cached_records() -> dict[str, object]:
    """One record of each kind the engine caches or shares between rounds."""
    bets = catalogue_bets()
    table = PayTable.of(bets.values())
    outcome = resolve_round(parse_cards("2H 2S"), parse_cards("3D 4C AH"))
    return {
        "card": parse_card("AS"),
        "facts": outcome.facts,
        "outcome": outcome,
        "player decision": player_draws(4),
        "banker decision": banker_draws(3, 8),
        "breach": outcome.breaches[0],
        "bet": bets["banker"],
        "row": bets["banker"].rows[0],
        "pay table": table,
        "resolution": resolve_bet(bets["banker"], outcome.facts, table),
        "fact": FACTS["winner"],
        "shoe": Shoe.of_decks(1),
        "distribution": distribution(1, frozenset()),
        "bet odds": bet_odds(bets["tie"], 1, table),
    }


@pytest.mark.parametrize("kind", list(cached_records()))
def test_the_records_the_engine_shares_are_frozen(kind):
    record = cached_records()[kind]
    field = dataclasses.fields(record)[0].name
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(record, field, Fraction(0))
