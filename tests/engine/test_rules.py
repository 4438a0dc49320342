"""The drawing rules of games.md, cell by cell, and the resolution of a dealt round."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reporting.engine.cards import RANKS, SUITS, Card, parse_cards
from reporting.engine.rules import (
    DealError,
    RuleBreach,
    Winner,
    banker_draws,
    deal_round,
    hand_value,
    player_draws,
    resolve_round,
)

# --- hand values ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "value"),
    [
        ("7H 8S", 5),  # 15 -> 5
        ("5H 5S 5D", 5),
        ("10C 9D", 9),
        ("KH QS", 0),
        ("AH 9S", 0),
        ("AH AS AD", 3),
        ("9H 9S 9D", 7),
    ],
)
def test_hand_value_is_the_sum_of_points_modulo_ten(cards, value):
    assert hand_value(parse_cards(cards)) == value


# --- the Player's rule ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("total", "draws", "rule"),
    [
        pytest.param(0, True, "player_draws_0_5", id="player_draws_0_5-on-0"),
        pytest.param(1, True, "player_draws_0_5", id="player_draws_0_5-on-1"),
        pytest.param(2, True, "player_draws_0_5", id="player_draws_0_5-on-2"),
        pytest.param(3, True, "player_draws_0_5", id="player_draws_0_5-on-3"),
        pytest.param(4, True, "player_draws_0_5", id="player_draws_0_5-on-4"),
        pytest.param(5, True, "player_draws_0_5", id="player_draws_0_5-on-5"),
        pytest.param(6, False, "player_stands_6_7", id="player_stands_6_7-on-6"),
        pytest.param(7, False, "player_stands_6_7", id="player_stands_6_7-on-7"),
    ],
)
def test_player_third_card_rule(total, draws, rule):
    decision = player_draws(total)
    assert decision.hand == "player"
    assert decision.total == total
    assert decision.player_third is None
    assert decision.draws is draws
    assert decision.rule == rule
    assert decision.reason


# --- the Banker's rule: the full matrix -------------------------------------------------------


def expected_banker(total: int, player_third: int | None) -> tuple[bool, str]:
    """games.md, Banker with no natural, written out independently of the engine."""
    if player_third is None:
        if total <= 5:
            return True, "banker_draws_0_5_player_stood"
        return False, "banker_stands_6_7_player_stood"
    if total <= 2:
        return True, "banker_draws_0_2"
    if total == 3:
        return player_third != 8, "banker_3_draws_unless_8"
    if total == 4:
        return 2 <= player_third <= 7, "banker_4_draws_on_2_7"
    if total == 5:
        return 4 <= player_third <= 7, "banker_5_draws_on_4_7"
    if total == 6:
        return player_third in (6, 7), "banker_6_draws_on_6_7"
    return False, "banker_stands_7"


def _banker_case(total: int, third: int | None):
    draws, rule = expected_banker(total, third)
    against = "player-stood" if third is None else f"player-third-{third}"
    verb = "draws" if draws else "stands"
    return pytest.param(total, third, draws, rule, id=f"{rule}-on-{total}-{against}-{verb}")


BANKER_MATRIX = [_banker_case(total, third) for total in range(8) for third in (None, *range(10))]


def test_banker_matrix_is_complete():
    assert len(BANKER_MATRIX) == 8 * 11


@pytest.mark.parametrize(("total", "player_third", "draws", "rule"), BANKER_MATRIX)
def test_banker_third_card_rule(total, player_third, draws, rule):
    decision = banker_draws(total, player_third)
    assert decision.hand == "banker"
    assert decision.total == total
    assert decision.player_third == player_third
    assert decision.draws is draws
    assert decision.rule == rule
    assert decision.reason


@pytest.mark.parametrize(
    ("total", "player_third", "draws"),
    [
        # the cells of games.md spelled out once more, as a reader checks them
        pytest.param(3, 8, False, id="banker_3_draws_unless_8-stands-on-8"),
        pytest.param(3, 9, True, id="banker_3_draws_unless_8-draws-on-9"),
        pytest.param(4, 1, False, id="banker_4_draws_on_2_7-stands-on-1"),
        pytest.param(4, 8, False, id="banker_4_draws_on_2_7-stands-on-8"),
        pytest.param(4, 0, False, id="banker_4_draws_on_2_7-stands-on-0"),
        pytest.param(5, 3, False, id="banker_5_draws_on_4_7-stands-on-3"),
        pytest.param(5, 4, True, id="banker_5_draws_on_4_7-draws-on-4"),
        pytest.param(6, 5, False, id="banker_6_draws_on_6_7-stands-on-5"),
        pytest.param(6, 7, True, id="banker_6_draws_on_6_7-draws-on-7"),
        pytest.param(7, 7, False, id="banker_stands_7-stands-on-7"),
        pytest.param(0, 8, True, id="banker_draws_0_2-draws-on-8"),
    ],
)
def test_banker_rule_cells_quoted_from_games_md(total, player_third, draws):
    assert banker_draws(total, player_third).draws is draws


# --- naturals ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("player", "banker"),
    [
        pytest.param("9H KS", "5D AC", id="natural_stands-player-9"),
        pytest.param("4H 4S", "2D 3C", id="natural_stands-player-8"),
        pytest.param("2H 3S", "KD 9C", id="natural_stands-banker-9"),
        pytest.param("AH 2S", "5D 3C", id="natural_stands-banker-8"),
        pytest.param("9H QS", "8D KC", id="natural_stands-both"),
        pytest.param("6H 2S", "7D AC", id="natural_stands-tie-8-8"),
    ],
)
def test_natural_stands_both_hands(player, banker):
    outcome = resolve_round(parse_cards(player), parse_cards(banker))
    assert [d.rule for d in outcome.decisions] == ["natural_stands", "natural_stands"]
    assert [d.draws for d in outcome.decisions] == [False, False]
    assert outcome.breaches == ()
    assert outcome.follows_rules
    assert outcome.cards_dealt == 4


# --- breaches of the rules in a logged deal ---------------------------------------------------


@pytest.mark.parametrize(
    ("player", "banker", "hand", "rule", "required_draw"),
    [
        pytest.param(
            "2H 3S", "7D KC", "player", "player_draws_0_5", True, id="player_draws_0_5-stood-on-5"
        ),
        pytest.param(
            "KH QS", "7D KC", "player", "player_draws_0_5", True, id="player_draws_0_5-stood-on-0"
        ),
        pytest.param(
            "3H 3S 4D",
            "7D KC",
            "player",
            "player_stands_6_7",
            False,
            id="player_stands_6_7-drew-on-6",
        ),
        pytest.param(
            "3H 4S AD",
            "7D KC",
            "player",
            "player_stands_6_7",
            False,
            id="player_stands_6_7-drew-on-7",
        ),
        pytest.param(
            "9H KS",
            "2C 3D 4H",
            "banker",
            "natural_stands",
            False,
            id="natural_stands-banker-drew-after-player-natural",
        ),
        pytest.param(
            "2C 3D 4H",
            "9H KS",
            "player",
            "natural_stands",
            False,
            id="natural_stands-player-drew-after-banker-natural",
        ),
        pytest.param(
            "2H 2S 2D",
            "AH 2C",
            "banker",
            "banker_3_draws_unless_8",
            True,
            id="banker_3_draws_unless_8-stood-on-3-vs-2",
        ),
        pytest.param(
            "2H 2S 8D",
            "AH 2C 5D",
            "banker",
            "banker_3_draws_unless_8",
            False,
            id="banker_3_draws_unless_8-drew-on-3-vs-8",
        ),
        pytest.param(
            "2H 2S AD",
            "2D 2C 5H",
            "banker",
            "banker_4_draws_on_2_7",
            False,
            id="banker_4_draws_on_2_7-drew-vs-1",
        ),
        pytest.param(
            "2H 2S 3D",
            "2D 2C",
            "banker",
            "banker_4_draws_on_2_7",
            True,
            id="banker_4_draws_on_2_7-stood-vs-3",
        ),
        pytest.param(
            "2H 2S 3D",
            "2D 3C 5H",
            "banker",
            "banker_5_draws_on_4_7",
            False,
            id="banker_5_draws_on_4_7-drew-vs-3",
        ),
        pytest.param(
            "2H 2S 4D",
            "2D 3C",
            "banker",
            "banker_5_draws_on_4_7",
            True,
            id="banker_5_draws_on_4_7-stood-vs-4",
        ),
        pytest.param(
            "2H 3S 5D",
            "3H 3S 4D",
            "banker",
            "banker_6_draws_on_6_7",
            False,
            id="banker_6_draws_on_6_7-drew-vs-5",
        ),
        pytest.param(
            "2H 3S 6D",
            "3H 3C",
            "banker",
            "banker_6_draws_on_6_7",
            True,
            id="banker_6_draws_on_6_7-stood-vs-6",
        ),
        pytest.param(
            "2H 3S 6D",
            "3H 4C AS",
            "banker",
            "banker_stands_7",
            False,
            id="banker_stands_7-drew-on-7",
        ),
        pytest.param(
            "AH AS 6D",
            "KH QC",
            "banker",
            "banker_draws_0_2",
            True,
            id="banker_draws_0_2-stood-on-0",
        ),
        pytest.param(
            "3H 3C",
            "2H 3S",
            "banker",
            "banker_draws_0_5_player_stood",
            True,
            id="banker_draws_0_5_player_stood-stood-on-5",
        ),
        pytest.param(
            "3H 4C",
            "3D 3S AH",
            "banker",
            "banker_stands_6_7_player_stood",
            False,
            id="banker_stands_6_7_player_stood-drew-on-6",
        ),
    ],
)
def test_a_deal_breaking_a_rule_yields_a_breach_naming_it(
    player, banker, hand, rule, required_draw
):
    outcome = resolve_round(parse_cards(player), parse_cards(banker))
    assert not outcome.follows_rules
    assert len(outcome.breaches) == 1
    (breach,) = outcome.breaches
    assert isinstance(breach, RuleBreach)
    assert breach.hand == hand
    assert breach.rule == rule
    assert breach.required_draw is required_draw
    assert rule in breach.message
    assert ("must draw" if required_draw else "must stand") in breach.message


def test_both_hands_can_break_the_rules_in_one_deal():
    # Player stood on 4 (must draw); the Banker, judged as if the Player stood, drew on 7.
    outcome = resolve_round(parse_cards("2H 2S"), parse_cards("3D 4C AH"))
    assert [(b.hand, b.rule) for b in outcome.breaches] == [
        ("player", "player_draws_0_5"),
        ("banker", "banker_stands_6_7_player_stood"),
    ]


#: Misdealt rounds and the sentence each breach publishes in its ``third_card_rule`` finding:
#: the hand and its two-card total, the Player's third card the Banker answered, what the hand
#: did and must do, the rule as a sentence and its id.
BREACH_SENTENCES = [
    pytest.param(
        "2H 2S",
        "KD 7C",
        ["Player on 4 stood but must draw (Player draws on 0-5; rule player_draws_0_5)"],
        id="player-stood-on-4",
    ),
    pytest.param(
        "3H 3S",
        "9D 9C 2H",
        ["Banker on 8 drew but must stand (A natural: both hands stand; rule natural_stands)"],
        id="banker-drew-on-a-natural",
    ),
    pytest.param(
        "2H 2S 8D",
        "AH 2C 5D",
        [
            "Banker on 3 against a Player third card of 8 drew but must stand (Banker on 3"
            " draws unless the Player's third card is 8; rule banker_3_draws_unless_8)"
        ],
        id="banker-drew-against-an-8",
    ),
    pytest.param(
        "2H 2S",
        "3D 4C AH",
        [
            "Player on 4 stood but must draw (Player draws on 0-5; rule player_draws_0_5)",
            "Banker on 7 drew but must stand (Banker stands on 6-7 when the Player stood;"
            " rule banker_stands_6_7_player_stood)",
        ],
        id="both-hands",
    ),
    pytest.param(
        "3H 3S 8D",
        "AH 2C 5D",
        [
            "Player on 6 drew but must stand (Player stands on 6-7; rule player_stands_6_7)",
            "Banker on 3 against a Player third card of 8, one the Player should not have"
            " drawn, drew but must stand (Banker on 3 draws unless the Player's third card is"
            " 8; rule banker_3_draws_unless_8)",
        ],
        id="banker-answered-a-card-the-player-drew-in-error",
    ),
]


@pytest.mark.parametrize(("player", "banker", "sentences"), BREACH_SENTENCES)
def test_each_breach_says_what_the_hand_did_and_what_the_rule_required(player, banker, sentences):
    outcome = resolve_round(parse_cards(player), parse_cards(banker))
    assert [breach.message for breach in outcome.breaches] == sentences


@pytest.mark.parametrize(
    ("player", "banker"),
    [
        pytest.param("2H 3S 5D", "3H 3C", id="banker_6_draws_on_6_7-stood-vs-5"),
        pytest.param("2H 2S 8D", "AH 2C", id="banker_3_draws_unless_8-stood-vs-8"),
        pytest.param("2H 2S 2D", "AH 2C 5D", id="banker_3_draws_unless_8-drew-vs-2"),
        pytest.param("3H 3C", "2H 3S 4D", id="banker_draws_0_5_player_stood-drew-on-5"),
        pytest.param("3H 4C", "3D 3S", id="banker_stands_6_7_player_stood-stood-on-6"),
        pytest.param("KH QS 9D", "7D KC", id="player_draws_0_5-drew-on-0"),
        pytest.param("4H 4S", "2C 3D", id="natural_stands-player-8"),
    ],
)
def test_a_correct_deal_has_no_breaches(player, banker):
    outcome = resolve_round(parse_cards(player), parse_cards(banker))
    assert outcome.breaches == ()
    assert outcome.follows_rules


# --- resolve_round facts ----------------------------------------------------------------------


def test_resolve_round_round_log_example():
    # round-log.md: player 9H KS, banker 5D 2C AH
    outcome = resolve_round(parse_cards("9H KS"), parse_cards("5D 2C AH"))
    assert outcome.player_value == 9
    assert outcome.banker_value == 8
    assert outcome.winner is Winner.PLAYER
    assert outcome.player_natural and not outcome.banker_natural
    assert outcome.cards_dealt == 5
    assert outcome.margin == 1
    # the banker's third card after a player natural breaks the rules
    assert [b.rule for b in outcome.breaches] == ["natural_stands"]


@pytest.mark.parametrize(
    ("player", "banker", "winner", "values", "naturals", "margin", "cards_dealt"),
    [
        ("9H KS", "7D KC", Winner.PLAYER, (9, 7), (True, False), 2, 4),
        ("2H 3S", "8D KC", Winner.BANKER, (5, 8), (False, True), 3, 4),
        ("2H 3S KD", "KC 2C 7H", Winner.BANKER, (5, 9), (False, False), 4, 6),
        ("KH QS 9D", "7D KC", Winner.PLAYER, (9, 7), (False, False), 2, 5),
        ("AH 2S 3C", "KD QC 5H", Winner.PLAYER, (6, 5), (False, False), 1, 6),
        ("AH AS KH", "KD QC 2C", Winner.TIE, (2, 2), (False, False), 0, 6),
        ("9H KS", "9D QC", Winner.TIE, (9, 9), (True, True), 0, 4),
        ("KH QS 9D", "KD QC KS", Winner.PLAYER, (9, 0), (False, False), 9, 6),
        ("3H 4S", "KD QC 7D", Winner.TIE, (7, 7), (False, False), 0, 5),
        ("3H 3S", "KD AC 2D", Winner.PLAYER, (6, 3), (False, False), 3, 5),
    ],
)
def test_resolve_round_values_winner_naturals_margin(
    player, banker, winner, values, naturals, margin, cards_dealt
):
    outcome = resolve_round(parse_cards(player), parse_cards(banker))
    assert outcome.winner is winner
    assert (outcome.player_value, outcome.banker_value) == values
    assert (outcome.player_natural, outcome.banker_natural) == naturals
    assert outcome.margin == margin
    assert outcome.cards_dealt == cards_dealt
    assert outcome.player_cards == parse_cards(player)
    assert outcome.banker_cards == parse_cards(banker)
    assert outcome.follows_rules


@pytest.mark.parametrize(
    ("player", "banker", "pairs", "suited"),
    [
        pytest.param("KH KS", "7D 9C", (True, False), (False, False), id="player-pair-K-K"),
        pytest.param("KH QH", "7D 9C", (False, False), (False, False), id="no-pair-K-Q-same-suit"),
        pytest.param("KH KH", "7D 9C", (True, False), (True, False), id="player-perfect-pair"),
        pytest.param(
            "7D 9C", "10S TS", (False, True), (False, True), id="banker-perfect-pair-10-T"
        ),
        pytest.param("4H 4D", "2C 2S", (True, True), (False, False), id="both-pairs"),
        pytest.param("4H 4H", "2C 2C", (True, True), (True, True), id="both-perfect"),
        # only the first two cards count: a third card of the same rank makes no pair
        pytest.param(
            "3H AS 3D", "KD QC 5H", (False, False), (False, False), id="third-card-no-pair"
        ),
    ],
)
def test_resolve_round_pairs_and_suited_pairs(player, banker, pairs, suited):
    outcome = resolve_round(parse_cards(player), parse_cards(banker))
    assert (outcome.player_pair, outcome.banker_pair) == pairs
    assert (outcome.facts.player_suited_pair, outcome.facts.banker_suited_pair) == suited
    assert (outcome.facts.player_pair, outcome.facts.banker_pair) == pairs


def test_outcome_is_frozen():
    outcome = resolve_round(parse_cards("9H KS"), parse_cards("7D KC"))
    with pytest.raises(AttributeError):
        outcome.facts = dataclasses.replace(outcome.facts, winner="banker")  # type: ignore[misc]
    with pytest.raises(AttributeError):
        outcome.facts.winner = Winner.BANKER  # type: ignore[misc]
    assert outcome.winner is Winner.PLAYER


def test_decisions_record_the_players_third_card():
    outcome = resolve_round(parse_cards("2H 2S 7D"), parse_cards("3D 3C 2H"))
    player_decision, banker_decision = outcome.decisions
    assert (player_decision.rule, player_decision.draws) == ("player_draws_0_5", True)
    assert banker_decision.player_third == 7
    assert (banker_decision.rule, banker_decision.draws) == ("banker_6_draws_on_6_7", True)


@pytest.mark.parametrize(
    ("player", "banker", "hand", "count"),
    [
        ("9H", "7D KC", "player", 1),
        ("9H KS", "7D", "banker", 1),
        ("2H 3S 4D 5C", "7D KC", "player", 4),
        ("2H 3S", "AD 2C 3H 4S", "banker", 4),
        ("", "7D KC", "player", 0),
    ],
)
def test_a_hand_of_one_or_four_cards_is_a_deal_error(player, banker, hand, count):
    with pytest.raises(DealError) as error:
        resolve_round(parse_cards(player), parse_cards(banker))
    assert str(error.value) == f"the {hand} hand holds {count} cards; a hand holds 2 or 3"


# --- dealing from a shoe ----------------------------------------------------------------------


def test_deal_round_deals_in_order_p1_b1_p2_b2():
    cards = iter(parse_cards("2H 3S 4D 5C 6H 7S"))
    # Player 2+4 = 6 stands; Banker 3+5 = 8 is a natural.
    player, banker = deal_round(cards)
    assert player == parse_cards("2H 4D")
    assert banker == parse_cards("3S 5C")
    assert next(cards) == Card("6", "H")  # nothing more was taken


def test_deal_round_player_third_then_banker_third():
    # Player AH+2D = 3 draws 4C; Banker KS+5H = 5 draws on a third card of 4.
    player, banker = deal_round(iter(parse_cards("AH KS 2D 5H 4C 9S")))
    assert player == parse_cards("AH 2D 4C")
    assert banker == parse_cards("KS 5H 9S")


def shoe(decks: int) -> list[Card]:
    return [Card(rank, suit) for _ in range(decks) for rank in RANKS for suit in SUITS]


@given(st.integers(min_value=1, max_value=8), st.randoms(use_true_random=False))
def test_deal_round_from_a_shuffled_shoe_follows_the_rules(decks, rng: random.Random):
    cards = shoe(decks)
    rng.shuffle(cards)
    stream = iter(cards)
    dealt = 0
    for _ in range(len(cards) // 6):
        player, banker = deal_round(stream)
        assert 2 <= len(player) <= 3
        assert 2 <= len(banker) <= 3
        assert len(player) + len(banker) <= 6
        # the cards came off the shoe in deal order: P1, B1, P2, B2, then the third cards
        in_deal_order = [player[0], banker[0], player[1], banker[1], *player[2:], *banker[2:]]
        assert in_deal_order == cards[dealt : dealt + len(in_deal_order)]
        outcome = resolve_round(player, banker)
        assert outcome.breaches == ()
        assert 4 <= outcome.cards_dealt <= 6
        dealt += outcome.cards_dealt
    # nothing beyond the dealt cards was taken from the shoe
    assert next(stream) is cards[dealt]
