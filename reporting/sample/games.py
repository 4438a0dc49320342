"""One game's model for the month: its clock, deck, bet sampler and settlement caches, built
once and shared by the game's tables."""

from __future__ import annotations

import itertools
from collections.abc import Mapping

from reporting.config.table_patterns import common_table
from reporting.engine.games import GameSpec
from reporting.errors import InputError
from reporting.sample.bets import BetSampler, MoneyTexts, Settler
from reporting.sample.calendar import Clock
from reporting.sample.shoes import cards_by_points, full_deck


def table_prefix(game_id: str) -> str:
    """``live-baccarat-it`` -> ``LB-IT``: initials of the name, then its last word.

    >>> table_prefix("live-baccarat-it"), table_prefix("roulette")
    ('LB-IT', 'ROU')
    """
    words = game_id.split("-")
    if len(words) == 1:
        return words[0][:3].upper()
    return "".join(word[0] for word in words[:-1]).upper() + "-" + words[-1].upper()


def table_pattern(game: GameSpec) -> str:
    """How the generator names a game's tables, a ``*`` standing for the table's number: as
    the first of the game's ``tables`` that is a pattern with ``*`` (a shape that names no
    game finds the game by its table), else after the game's id.

    >>> from dataclasses import replace
    >>> from reporting.config.loader import load_catalogue
    >>> game = load_catalogue().games["live-baccarat-it"]
    >>> table_pattern(replace(game, tables=("EZ01", "EZ-IT-*"))), table_pattern(replace(game, tables=()))
    ('EZ-IT-*', 'LB-IT-*')
    """
    for pattern in game.tables:
        if "*" in pattern and not any(wildcard in pattern for wildcard in "?["):
            return pattern
    return table_prefix(game.id) + "-*"


#: Names the generator tries for a game's tables before it gives up (see :func:`table_patterns`).
_TRIES = 100


def table_patterns(games: Mapping[str, GameSpec]) -> dict[str, str]:
    """How the generator names the tables of each game (:func:`table_pattern`), by game id:
    a game's own ``tables`` pattern first, for every game that lists one; then, in game id
    order, a name after its id for each other game, numbered (``LB-IT5-*``) where that one is
    taken or would name a table another game lists: no generated table is another game's.
    InputError when no name is free (another game lists ``*``)."""
    chosen = {game_id: table_pattern(game) for game_id, game in games.items() if _listed(game)}
    for index, game_id in enumerate(sorted(games)):
        if game_id in chosen:
            continue
        prefix = table_prefix(game_id)
        others = [
            table
            for other_id, other in games.items()
            if other_id != game_id
            for table in (*other.tables, *([chosen[other_id]] if other_id in chosen else []))
        ]
        names = itertools.chain(
            (f"{prefix}-*", f"{prefix}{index}-*"),
            (f"{prefix}{index}-{number}-*" for number in itertools.count(1)),
        )
        for name in itertools.islice(names, _TRIES):
            if all(common_table(name, table) is None for table in others):
                chosen[game_id] = name
                break
        else:
            clash = next(table for table in others if common_table(f"{prefix}-*", table))
            raise InputError(
                f"the tables of {game_id} cannot be named apart from another game's"
                f" {clash!r}: list its own tables = [...] in the configuration"
            )
    return chosen


def _listed(game: GameSpec) -> bool:
    """Whether the game lists a pattern :func:`table_pattern` names its tables after."""
    return table_pattern(game) in game.tables


#: Where the generator places the cut card of a live shoe whose game states none.
DEFAULT_CUT_CARD_DEPTH = 14


class GameModel:
    """What every table of one game shares: samplers, caches, and the game's clock."""

    def __init__(self, game: GameSpec, tables: str, account_base: int):
        self.game = game
        self.tables = tables  # the table ids, a "*" for the number: LB-IT-* (LB-IT-01, ...)
        self.account_base = account_base
        self.clock = Clock(game.timezone)
        self.live_shoe = not game.reshuffle_every_round
        #: Cards left behind the cut card: the game's, or the generator's own assumption
        #: when the game states none (a live shoe must end somewhere).
        self.cut_card_depth = (
            DEFAULT_CUT_CARD_DEPTH if game.cut_card_depth is None else game.cut_card_depth
        )
        self.bets = BetSampler(game, account_base)
        self.settler = Settler(game)
        self.deck = full_deck(game.decks)
        self.same_points = cards_by_points()
        self.money_texts = MoneyTexts()

    def table_id(self, number: int) -> str:
        """The id of the game's table ``number`` (from 1): ``LB-IT-01``."""
        return self.tables.replace("*", f"{number:02d}")

    def money(self, cents: int) -> str:
        """:func:`~reporting.engine.money.format_cents`, remembered."""
        return self.money_texts[cents]
