"""One game's model for the month: its clock, deck, bet sampler and settlement caches, built
once and shared by the game's tables."""

from __future__ import annotations

from reporting.engine.games import GameSpec
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


#: Where the generator places the cut card of a live shoe whose game states none.
DEFAULT_CUT_CARD_DEPTH = 14


class GameModel:
    """What every table of one game shares: samplers, caches, and the game's clock."""

    def __init__(self, game: GameSpec, prefix: str, account_base: int):
        self.game = game
        self.prefix = prefix  # of the table ids: LB-IT-01, ...
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

    def money(self, cents: int) -> str:
        """:func:`~reporting.engine.money.format_cents`, remembered."""
        return self.money_texts[cents]
