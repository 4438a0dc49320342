"""The shoes whose hands the month's audit could not count whole: those whose hand numbers
skip some (hands 1, 2, 4: hand 3 is in no log read, or its line was rejected), and those it
could not judge (a round without a hand number), by game, table and shoe; each game's in a
line of the month's warnings (:class:`reporting.verify.bearing.MonthAlerts`)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from reporting.errors import printable
from reporting.verify.shoes import ShoeSummary

__all__ = [
    "SHOES_NAMED",
    "MissingHands",
    "describe_missing",
    "describe_not_judged",
    "hands_missing",
    "hands_not_judged",
]


class MissingHands(NamedTuple):
    """A shoe whose hand numbers skip some: how many, and the first of them."""

    game_id: str
    table_id: str
    shoe_id: str
    missing: int
    first: tuple[int, ...]


#: The shoes with hands missing a warning names (the rest are counted).
SHOES_NAMED = 3


def describe_missing(shoes: Sequence[MissingHands]) -> str:
    """One game's shoes with hands missing, in a line: how many shoes and hands, the first
    :data:`SHOES_NAMED` shoes with their first missing hands.

    >>> describe_missing([MissingHands("g", "T1", "S1", 2, (3, 4)), MissingHands("g", "T1", "S2", 1, (7,))])
    '2 shoes with hands missing (3 hand numbers no round loaded holds: their rounds, and their bets, are in no log read, or among the rejected lines): shoe S1 at T1, hands 3, 4; shoe S2 at T1, hand 7'
    """
    hands = sum(shoe.missing for shoe in shoes)
    named = []
    for shoe in shoes[:SHOES_NAMED]:
        numbers = ", ".join(map(str, shoe.first))
        more = shoe.missing - len(shoe.first)
        numbers += f" and {more:,} more" if more > 0 else ""
        which = "hand" if shoe.missing == 1 else "hands"
        named.append(
            f"shoe {printable(shoe.shoe_id)} at {printable(shoe.table_id)}, {which} {numbers}"
        )
    if len(shoes) > SHOES_NAMED:
        named.append(f"and {len(shoes) - SHOES_NAMED:,} more shoes: see the Shoes sheet")
    what = "shoe" if len(shoes) == 1 else "shoes"
    numbers = "hand number" if hands == 1 else "hand numbers"
    return (
        f"{len(shoes):,} {what} with hands missing ({hands:,} {numbers} no round loaded holds:"
        f" their rounds, and their bets, are in no log read, or among the rejected lines):"
        f" {'; '.join(named)}"
    )


def describe_not_judged(shoes: Sequence[tuple[str, str]]) -> str:
    """One game's shoes not judged for hands missing (``(table, shoe)``), in a line: how
    many, the first :data:`SHOES_NAMED` of them.

    >>> describe_not_judged([("T1", "S1")])
    '1 shoe not checked for hands missing (a round of it has no hand number, hand_no, so which hands are missing cannot be told): shoe S1 at T1'
    """
    named = [f"shoe {printable(shoe)} at {printable(table)}" for table, shoe in shoes[:SHOES_NAMED]]
    if len(shoes) > SHOES_NAMED:
        named.append(f"and {len(shoes) - SHOES_NAMED:,} more shoes: see the Shoes sheet")
    what = "1 shoe" if len(shoes) == 1 else f"{len(shoes):,} shoes"
    which = "it" if len(shoes) == 1 else "each"
    return (
        f"{what} not checked for hands missing (a round of {which} has no hand number,"
        f" hand_no, so which hands are missing cannot be told): {'; '.join(named)}"
    )


def hands_missing(shoes: Iterable[ShoeSummary]) -> tuple[MissingHands, ...]:
    """The shoes whose hand numbers skip some, by game, table and shoe."""
    found = (
        MissingHands(
            shoe.game_id, shoe.table_id, shoe.shoe_id, shoe.hands_missing, shoe.first_missing
        )
        for shoe in shoes
        if shoe.hands_missing
    )
    return tuple(sorted(found))


def hands_not_judged(shoes: Iterable[ShoeSummary]) -> tuple[tuple[str, str, str], ...]:
    """The shoes not judged for hands missing (a round of each has no hand number), by game,
    table and shoe: ``(game, table, shoe)``."""
    return tuple(
        sorted(
            (shoe.game_id, shoe.table_id, shoe.shoe_id) for shoe in shoes if not shoe.hands_judged
        )
    )
