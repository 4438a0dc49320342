"""Operator configuration files for the oracle's tests, written as TOML text (no ``reporting``).

A game section names its catalogue game (``base``), the bets it offers (``bets``), its deck
count and its pay keys (``pay = { KEY = "ODDS" }``; the bonus table's ``bonus_margin_N`` keys
go to ``bonus_margins = { N = "ODDS" }``), and stake limits wide enough for the oracle's month.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

__all__ = ["STANDARD", "GameConfig", "operator_toml"]

#: The classic bets of games.md, in its order (the spec's words, not the project's catalogue).
STANDARD = (
    "player",
    "banker",
    "tie",
    "player_pair",
    "banker_pair",
    "either_pair",
    "perfect_pair",
    "small",
    "big",
    "player_bonus",
    "banker_bonus",
)


@dataclass(frozen=True)
class GameConfig:
    """One ``[games.ID]`` section of an operator configuration."""

    game_id: str
    base: str
    bets: tuple[str, ...]
    decks: int | None = None
    pays: Mapping[str, str] = field(default_factory=dict)
    limits: tuple[str, str] = ("1.00", "5000.00")

    def section(self) -> str:
        """The section as TOML text."""
        lines = [
            f"[games.{self.game_id}]",
            f"base = {json.dumps(self.base)}",
            f"bets = [{', '.join(json.dumps(bet) for bet in self.bets)}]",
        ]
        if self.decks is not None:
            lines.append(f"decks = {self.decks}")
        odds = {k: v for k, v in self.pays.items() if not k.startswith("bonus_margin_")}
        margins = {
            k.removeprefix("bonus_margin_"): v
            for k, v in self.pays.items()
            if k.startswith("bonus_margin_")
        }
        entries = [f"{key} = {json.dumps(str(value))}" for key, value in odds.items()]
        if margins:
            table = ", ".join(f"{m} = {json.dumps(str(v))}" for m, v in margins.items())
            entries.append(f"bonus_margins = {{ {table} }}")
        if entries:
            lines.append(f"pay = {{ {', '.join(entries)} }}")
        low, high = self.limits
        lines.append(f'limits = {{ min = "{low}", max = "{high}" }}')
        return "\n".join(lines) + "\n"


def operator_toml(games: Sequence[GameConfig]) -> str:
    """An operator configuration holding ``games`` (and nothing else)."""
    header = "# Written by tests/oracle: games for the independent oracle's checks.\n\n"
    return header + "\n".join(game.section() for game in games)
