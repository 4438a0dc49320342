"""The facts of a round: the one record every bet is decided on.

Settlement (:mod:`reporting.engine.bets`), the exact odds (:mod:`reporting.engine.odds`),
verify's settlement cache and the sample generator all read a :class:`RoundFacts` and nothing
else. It is computed once per round from the cards (:func:`facts_of`), and the odds enumerator
builds the same record for every class of deal it counts.

The facts fall into three groups (:class:`FactGroup`): the *points* of the deal (totals,
cards per hand, naturals, the winner, the third cards), the *pairs* of each hand's first two
cards, and the *face cards* (J, Q, K) each hand holds. A bet reads the groups its conditions
name; the odds of a bet that reads one group are counted on that group alone, and the other
groups' fields of the records it is counted on are ``None``.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType

from reporting.engine.cards import Card

__all__ = ["FACTS", "FACE_RANKS", "Fact", "FactGroup", "RoundFacts", "facts_of"]

#: The court cards: the face cards of the face-card facts.
FACE_RANKS = frozenset({"J", "Q", "K"})


class FactGroup(enum.Enum):
    """The groups of facts the exact odds can count on their own."""

    POINTS = "points"
    PAIRS = "pairs"
    FACES = "faces"


@dataclass(frozen=True, slots=True)
class Fact:
    """A fact a bet's condition may name: its group, its values and what it means."""

    name: str
    group: FactGroup
    values: tuple[object, ...]
    meaning: str


_TOTALS = tuple(range(10))
_BOOL = (False, True)

#: Every fact of :class:`RoundFacts` a bet's condition may name (the declaration vocabulary).
FACTS: Mapping[str, Fact] = MappingProxyType(
    {
        fact.name: fact
        for fact in (
            Fact("winner", FactGroup.POINTS, ("player", "banker", "tie"), "the hand that won"),
            Fact("player_total", FactGroup.POINTS, _TOTALS, "the Player's final value, 0-9"),
            Fact("banker_total", FactGroup.POINTS, _TOTALS, "the Banker's final value, 0-9"),
            Fact(
                "player_cards", FactGroup.POINTS, (2, 3), "the number of cards the Player ends with"
            ),
            Fact(
                "banker_cards", FactGroup.POINTS, (2, 3), "the number of cards the Banker ends with"
            ),
            Fact(
                "player_natural",
                FactGroup.POINTS,
                _BOOL,
                "the Player's first two cards make 8 or 9",
            ),
            Fact(
                "banker_natural",
                FactGroup.POINTS,
                _BOOL,
                "the Banker's first two cards make 8 or 9",
            ),
            Fact(
                "player_third",
                FactGroup.POINTS,
                _TOTALS,
                "the points of the Player's third card (no value when the Player stood)",
            ),
            Fact(
                "banker_third",
                FactGroup.POINTS,
                _TOTALS,
                "the points of the Banker's third card (no value when the Banker stood)",
            ),
            Fact("cards_dealt", FactGroup.POINTS, (4, 5, 6), "the cards dealt in the round, 4-6"),
            Fact("margin", FactGroup.POINTS, _TOTALS, "the points between the hands (0 on a tie)"),
            Fact(
                "player_pair", FactGroup.PAIRS, _BOOL, "the Player's first two cards share a rank"
            ),
            Fact(
                "banker_pair", FactGroup.PAIRS, _BOOL, "the Banker's first two cards share a rank"
            ),
            Fact(
                "player_suited_pair",
                FactGroup.PAIRS,
                _BOOL,
                "the Player's first two cards share a rank and a suit",
            ),
            Fact(
                "banker_suited_pair",
                FactGroup.PAIRS,
                _BOOL,
                "the Banker's first two cards share a rank and a suit",
            ),
            Fact("pairs", FactGroup.PAIRS, (0, 1, 2), "how many hands start with a pair, 0-2"),
            Fact(
                "suited_pairs",
                FactGroup.PAIRS,
                (0, 1, 2),
                "how many hands start with a pair of one suit, 0-2",
            ),
            Fact(
                "twin_pairs",
                FactGroup.PAIRS,
                _BOOL,
                "both hands start with a pair, of the same rank",
            ),
            Fact("player_faces", FactGroup.FACES, (0, 1, 2, 3), "the J, Q and K the Player holds"),
            Fact("banker_faces", FactGroup.FACES, (0, 1, 2, 3), "the J, Q and K the Banker holds"),
        )
    }
)


@dataclass(frozen=True, slots=True)
class RoundFacts:
    """What a round's bets are decided on. Hashable: a dictionary key for caches and odds.

    A field of a group that a count did not need is ``None`` (see the module's docstring);
    a record made from cards has every field.
    """

    winner: str | None = None
    player_total: int | None = None
    banker_total: int | None = None
    player_cards: int | None = None
    banker_cards: int | None = None
    player_natural: bool | None = None
    banker_natural: bool | None = None
    player_third: int | None = None
    banker_third: int | None = None
    cards_dealt: int | None = None
    margin: int | None = None
    player_pair: bool | None = None
    banker_pair: bool | None = None
    player_suited_pair: bool | None = None
    banker_suited_pair: bool | None = None
    pairs: int | None = None
    suited_pairs: int | None = None
    twin_pairs: bool | None = None
    player_faces: int | None = None
    banker_faces: int | None = None


def winner_of(player_total: int, banker_total: int) -> str:
    """``"player"``, ``"banker"`` or ``"tie"`` for two final values."""
    if player_total > banker_total:
        return "player"
    return "banker" if banker_total > player_total else "tie"


def point_facts(
    player_two: int, banker_two: int, player_third: int | None, banker_third: int | None
) -> dict[str, object]:
    """The points group's fields from the two-card values and the third cards' points."""
    player_total = (player_two + (player_third or 0)) % 10
    banker_total = (banker_two + (banker_third or 0)) % 10
    player_cards = 2 if player_third is None else 3
    banker_cards = 2 if banker_third is None else 3
    return {
        "winner": winner_of(player_total, banker_total),
        "player_total": player_total,
        "banker_total": banker_total,
        "player_cards": player_cards,
        "banker_cards": banker_cards,
        # A natural is a two-card 8 or 9; a logged deal that drew after one (a rule breach)
        # keeps the natural of its first two cards.
        "player_natural": player_two >= 8,
        "banker_natural": banker_two >= 8,
        "player_third": player_third,
        "banker_third": banker_third,
        "cards_dealt": player_cards + banker_cards,
        "margin": abs(player_total - banker_total),
    }


def pair_facts(
    player_first: tuple[bool, bool], banker_first: tuple[bool, bool], *, same_rank: bool
) -> dict[str, object]:
    """The pairs group's fields: ``player_first`` and ``banker_first`` say whether each hand's
    first two cards share a rank and whether they share a suit too; ``same_rank`` whether both
    hands' pairs are of one rank."""
    player_pair, player_suited = player_first
    banker_pair, banker_suited = banker_first
    return {
        "player_pair": player_pair,
        "banker_pair": banker_pair,
        "player_suited_pair": player_suited,
        "banker_suited_pair": banker_suited,
        "pairs": player_pair + banker_pair,
        "suited_pairs": player_suited + banker_suited,
        "twin_pairs": same_rank,
    }


def facts_of(player: Sequence[Card], banker: Sequence[Card]) -> RoundFacts:
    """The facts of a deal from its cards as logged (2 or 3 per hand, in deal order).

    >>> from reporting.engine.cards import parse_cards
    >>> facts = facts_of(parse_cards("9H KS"), parse_cards("5D 2C AH"))
    >>> facts.winner, facts.player_natural, facts.banker_cards, facts.banker_third, facts.player_faces
    ('player', True, 3, 1, 1)
    """
    player_first, player_second = player[0], player[1]
    banker_first, banker_second = banker[0], banker[1]
    player_pair = player_first.rank == player_second.rank
    banker_pair = banker_first.rank == banker_second.rank
    return _facts(
        (player_first.points + player_second.points) % 10,
        (banker_first.points + banker_second.points) % 10,
        player[2].points if len(player) == 3 else None,
        banker[2].points if len(banker) == 3 else None,
        player_pair,
        player_pair and player_first.suit == player_second.suit,
        banker_pair,
        banker_pair and banker_first.suit == banker_second.suit,
        player_pair and banker_pair and player_first.rank == banker_first.rank,
        sum(card.rank in FACE_RANKS for card in player),
        sum(card.rank in FACE_RANKS for card in banker),
    )


@lru_cache(maxsize=1 << 16)
def _facts(
    player_two: int,
    banker_two: int,
    player_third: int | None,
    banker_third: int | None,
    player_pair: bool,
    player_suited: bool,
    banker_pair: bool,
    banker_suited: bool,
    same_rank: bool,
    player_faces: int,
    banker_faces: int,
) -> RoundFacts:
    """One record per combination of what the cards tell (rounds share their records: a
    record is built once, and a cache keyed on it finds it by identity first)."""
    return RoundFacts(
        **point_facts(player_two, banker_two, player_third, banker_third),  # type: ignore[arg-type]
        **pair_facts(  # type: ignore[arg-type]
            (player_pair, player_suited), (banker_pair, banker_suited), same_rank=same_rank
        ),
        player_faces=player_faces,
        banker_faces=banker_faces,
    )
