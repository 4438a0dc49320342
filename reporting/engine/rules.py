"""Hand values, the third-card rules, and the resolution of a dealt round.

Everything here is pure: cards in, frozen records out. A resolved round carries the drawing
decisions the rules call for (who draws, on which rule) and, for a logged deal that did not
follow them, the rules it broke, so a finding can name the rule.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache

from reporting.engine.cards import Card
from reporting.engine.facts import RoundFacts, facts_of

__all__ = [
    "DealError",
    "DrawDecision",
    "Outcome",
    "RuleBreach",
    "Winner",
    "banker_draws",
    "deal_round",
    "hand_value",
    "player_draws",
    "resolve_round",
]


class Winner(enum.StrEnum):
    """Which hand won the round."""

    PLAYER = "player"
    BANKER = "banker"
    TIE = "tie"


class DealError(ValueError):
    """Cards that cannot be a baccarat deal at all (wrong number of cards in a hand)."""


@dataclass(frozen=True, slots=True)
class DrawDecision:
    """What the rules require of one hand at its third-card step, and why."""

    hand: str  # "player" or "banker"
    total: int  # the hand's two-card total
    player_third: int | None  # points of the Player's third card, when the Banker decides
    draws: bool
    rule: str  # stable rule id, e.g. "banker_4_draws_on_2_7"
    reason: str  # the rule as a sentence


@dataclass(frozen=True, slots=True)
class RuleBreach:
    """A logged deal that differs from what the drawing rules require of a hand."""

    hand: str
    rule: str
    required_draw: bool
    message: str


def hand_value(cards: Iterable[Card]) -> int:
    """Value of a hand: the sum of its card points, modulo 10.

    >>> from reporting.engine.cards import parse_cards
    >>> hand_value(parse_cards("7H 8S")), hand_value(parse_cards("5H 5S 5D")), hand_value(parse_cards("10C 9D"))
    (5, 5, 9)
    """
    total = 0
    for card in cards:
        total += card.points
    return total % 10


@cache
def player_draws(player_total: int) -> DrawDecision:
    """The Player's third-card rule (no natural on either side): draw on 0-5, stand on 6-7."""
    if player_total <= 5:
        return DrawDecision(
            "player", player_total, None, True, "player_draws_0_5", "Player draws on 0-5"
        )
    return DrawDecision(
        "player", player_total, None, False, "player_stands_6_7", "Player stands on 6-7"
    )


# Banker's rule after the Player drew: two-card total -> (rule id, sentence, third-card points
# on which the Banker draws).
_BANKER_AFTER_PLAYER_DREW: dict[int, tuple[str, str, frozenset[int]]] = {
    0: ("banker_draws_0_2", "Banker draws on 0-2", frozenset(range(10))),
    1: ("banker_draws_0_2", "Banker draws on 0-2", frozenset(range(10))),
    2: ("banker_draws_0_2", "Banker draws on 0-2", frozenset(range(10))),
    3: (
        "banker_3_draws_unless_8",
        "Banker on 3 draws unless the Player's third card is 8",
        frozenset(range(10)) - {8},
    ),
    4: (
        "banker_4_draws_on_2_7",
        "Banker on 4 draws when the Player's third card is 2-7",
        frozenset(range(2, 8)),
    ),
    5: (
        "banker_5_draws_on_4_7",
        "Banker on 5 draws when the Player's third card is 4-7",
        frozenset(range(4, 8)),
    ),
    6: (
        "banker_6_draws_on_6_7",
        "Banker on 6 draws when the Player's third card is 6-7",
        frozenset({6, 7}),
    ),
    7: ("banker_stands_7", "Banker stands on 7", frozenset()),
}


@cache
def banker_draws(banker_total: int, player_third: int | None) -> DrawDecision:
    """The Banker's third-card rule (no natural on either side).

    ``player_third`` is the points of the Player's third card, or ``None`` if the Player stood.

    >>> banker_draws(3, 8).draws, banker_draws(4, 1).draws, banker_draws(6, 7).draws
    (False, False, True)
    >>> banker_draws(5, None).rule
    'banker_draws_0_5_player_stood'
    """
    if player_third is None:
        if banker_total <= 5:
            return DrawDecision(
                "banker",
                banker_total,
                None,
                True,
                "banker_draws_0_5_player_stood",
                "Banker draws on 0-5 when the Player stood",
            )
        return DrawDecision(
            "banker",
            banker_total,
            None,
            False,
            "banker_stands_6_7_player_stood",
            "Banker stands on 6-7 when the Player stood",
        )
    rule, sentence, draw_on = _BANKER_AFTER_PLAYER_DREW[banker_total]
    return DrawDecision(
        "banker", banker_total, player_third, player_third in draw_on, rule, sentence
    )


@cache
def _natural_decision(hand: str, total: int) -> DrawDecision:
    return DrawDecision(hand, total, None, False, "natural_stands", "A natural: both hands stand")


_WINNERS = {winner.value: winner for winner in Winner}


@dataclass(frozen=True, slots=True)
class Outcome:
    """A round resolved from its cards: its facts, and the reasoning of its deal."""

    player_cards: tuple[Card, ...]
    banker_cards: tuple[Card, ...]
    facts: RoundFacts  # what every bet on the round is decided on, computed once
    decisions: tuple[DrawDecision, ...]
    breaches: tuple[RuleBreach, ...]

    @property
    def player_value(self) -> int:
        """The Player's final value."""
        return self.facts.player_total  # type: ignore[return-value]

    @property
    def banker_value(self) -> int:
        """The Banker's final value."""
        return self.facts.banker_total  # type: ignore[return-value]

    @property
    def winner(self) -> Winner:
        """Which hand won."""
        return _WINNERS[self.facts.winner]  # type: ignore[index]

    @property
    def player_natural(self) -> bool:
        """The Player's first two cards make 8 or 9."""
        return bool(self.facts.player_natural)

    @property
    def banker_natural(self) -> bool:
        """The Banker's first two cards make 8 or 9."""
        return bool(self.facts.banker_natural)

    @property
    def player_pair(self) -> bool:
        """The Player's first two cards share a rank."""
        return bool(self.facts.player_pair)

    @property
    def banker_pair(self) -> bool:
        """The Banker's first two cards share a rank."""
        return bool(self.facts.banker_pair)

    @property
    def cards_dealt(self) -> int:
        """Number of cards dealt in the round, 4 to 6."""
        return len(self.player_cards) + len(self.banker_cards)

    @property
    def margin(self) -> int:
        """Points between the two hands (0 on a tie)."""
        return abs(self.player_value - self.banker_value)

    @property
    def follows_rules(self) -> bool:
        """Whether the logged deal followed the drawing rules."""
        return not self.breaches


def resolve_round(player_cards: Sequence[Card], banker_cards: Sequence[Card]) -> Outcome:
    """Resolve a round from its logged cards, in deal order per hand.

    The facts every bet is decided on come from the cards as logged (:func:`facts_of`). The drawing decisions
    are what the rules required; each hand whose logged card count differs gives a breach.
    A Banker decision after a Player draw is judged on the Player's logged third card.
    """
    player = tuple(player_cards)
    banker = tuple(banker_cards)
    for hand, cards in (("player", player), ("banker", banker)):
        if not 2 <= len(cards) <= 3:
            raise DealError(f"the {hand} hand holds {len(cards)} cards; a hand holds 2 or 3")
    player_total = hand_value(player[:2])
    banker_total = hand_value(banker[:2])
    player_natural = player_total >= 8
    banker_natural = banker_total >= 8

    if player_natural or banker_natural:
        decisions = (
            _natural_decision("player", player_total),
            _natural_decision("banker", banker_total),
        )
    else:
        player_decision = player_draws(player_total)
        # The Banker reacts to the Player's third card as dealt.
        player_third = player[2].points if len(player) == 3 else None
        decisions = (player_decision, banker_draws(banker_total, player_third))

    # The common case, a deal that followed the rules, without building anything.
    followed = decisions[0].draws == (len(player) == 3) and decisions[1].draws == (len(banker) == 3)
    breaches = () if followed else _breaches(decisions, player, banker)

    return Outcome(
        player_cards=player,
        banker_cards=banker,
        facts=facts_of(player, banker),
        decisions=decisions,
        breaches=breaches,
    )


def _breaches(
    decisions: tuple[DrawDecision, ...], player: tuple[Card, ...], banker: tuple[Card, ...]
) -> tuple[RuleBreach, ...]:
    """The hands whose logged card count differs from what their decision requires."""
    stray_third = len(player) == 3 and not decisions[0].draws  # the Player drew in error
    return tuple(
        RuleBreach(
            decision.hand,
            decision.rule,
            decision.draws,
            _breach_message(decision, len(cards), stray_third),
        )
        for decision, cards in zip(decisions, (player, banker), strict=True)
        if decision.draws != (len(cards) == 3)
    )


def _breach_message(decision: DrawDecision, cards_held: int, stray_third: bool) -> str:
    """``Banker on 3 against a Player third card of 8 drew but must stand (...)``; where the
    Player drew that card in error (``stray_third``), the Banker answered a card the Player
    should not have held, and the sentence says so."""
    hand = decision.hand.capitalize()
    required = "draw" if decision.draws else "stand"
    did = "drew" if cards_held == 3 else "stood"
    context = f"{hand} on {decision.total}"
    if decision.player_third is not None:
        context += f" against a Player third card of {decision.player_third}"
        if stray_third:
            context += ", one the Player should not have drawn,"
    return f"{context} {did} but must {required} ({decision.reason}; rule {decision.rule})"


def deal_round(cards: Iterator[Card]) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """Deal one round by the rules from a stream of cards in shoe order.

    Returns the Player's and Banker's cards. Order: P1, B1, P2, B2, Player's third,
    Banker's third.
    """
    first, second, third, fourth = next(cards), next(cards), next(cards), next(cards)
    player = [first, third]
    banker = [second, fourth]
    player_total = hand_value(player)
    banker_total = hand_value(banker)
    if player_total >= 8 or banker_total >= 8:
        return tuple(player), tuple(banker)
    player_third: int | None = None
    if player_draws(player_total).draws:
        player.append(next(cards))
        player_third = player[2].points
    if banker_draws(banker_total, player_third).draws:
        banker.append(next(cards))
    return tuple(player), tuple(banker)
