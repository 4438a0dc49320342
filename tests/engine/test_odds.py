"""Exact odds: published figures as oracles, and independent counts to check the enumeration."""

from __future__ import annotations

import dataclasses
import itertools
from collections import defaultdict
from decimal import Decimal
from fractions import Fraction

import pytest

from reporting.engine.bets import BetType, PayTable
from reporting.engine.cards import RANKS, SUITS, Card
from reporting.engine.money import round_fraction
from reporting.engine.odds import (
    PairFacts,
    PointFacts,
    bet_odds,
    main_probabilities,
    pair_distribution,
    point_distribution,
)

DECKS = range(1, 9)
VARIANT_A = PayTable()
VARIANT_B = PayTable(perfect_pair_both=Fraction(200))


def rtp_percent(bet: BetType, decks: int, table: PayTable = VARIANT_A) -> Decimal:
    """The RTP as operators publish it: percent, two decimals."""
    return round_fraction(bet_odds(bet, decks, table).rtp * 100, 2)


# --- published figures ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bet", "table", "published"),
    [
        pytest.param(BetType.BANKER, VARIANT_A, "98.94", id="banker-98.94"),
        pytest.param(BetType.PLAYER, VARIANT_A, "98.76", id="player-98.76"),
        pytest.param(BetType.BANKER_PAIR, VARIANT_A, "89.64", id="banker_pair-89.64"),
        pytest.param(BetType.PLAYER_PAIR, VARIANT_A, "89.64", id="player_pair-89.64"),
        pytest.param(BetType.PERFECT_PAIR, VARIANT_B, "91.95", id="perfect_pair-B-91.95"),
        pytest.param(BetType.EITHER_PAIR, VARIANT_A, "86.29", id="either_pair-86.29"),
        pytest.param(BetType.PLAYER_BONUS, VARIANT_A, "97.35", id="player_bonus-97.35"),
        pytest.param(BetType.BANKER_BONUS, VARIANT_A, "90.63", id="banker_bonus-90.63"),
    ],
)
def test_published_rtp_8_decks_denmark(bet, table, published):
    assert rtp_percent(bet, 8, table) == Decimal(published)


def test_published_optimal_rtp_8_decks_is_the_banker_bet():
    # games.md: "optimal 98.94%" is the best RTP of any bet, the Banker's.
    every = {bet: bet_odds(bet, 8, VARIANT_B).rtp for bet in BetType}
    assert max(every, key=every.get) is BetType.BANKER
    assert round_fraction(max(every.values()) * 100, 2) == Decimal("98.94")


@pytest.mark.parametrize(
    ("bet", "published"),
    [
        pytest.param(BetType.PLAYER, "98.76", id="player-98.76"),
        pytest.param(BetType.BANKER, "98.94", id="banker-98.94"),
        pytest.param(BetType.TIE, "85.56", id="tie-85.56"),
    ],
)
def test_published_rtp_6_decks_mini_baccarat(bet, published):
    assert rtp_percent(bet, 6) == Decimal(published)


def test_published_win_probabilities_8_decks():
    probabilities = main_probabilities(8)
    assert {name: round_fraction(p, 6) for name, p in probabilities.items()} == {
        "banker": Decimal("0.458597"),
        "player": Decimal("0.446247"),
        "tie": Decimal("0.095156"),
    }


def test_main_bet_odds_agree_with_the_win_probabilities_8_decks():
    probabilities = main_probabilities(8)
    for bet, name in ((BetType.BANKER, "banker"), (BetType.PLAYER, "player"), (BetType.TIE, "tie")):
        assert bet_odds(bet, 8, VARIANT_A).win == probabilities[name]


# --- every deck count: distributions and bet probabilities ------------------------------------


@pytest.mark.parametrize("decks", DECKS)
def test_distributions_sum_exactly_to_one(decks):
    for distribution in (point_distribution(decks), pair_distribution(decks)):
        assert sum(weight for _, weight in distribution.weights) == distribution.total
        total = sum(distribution.probability(facts) for facts, _ in distribution.weights)
        assert total == 1
        assert all(weight > 0 for _, weight in distribution.weights)
    assert sum(main_probabilities(decks).values()) == 1


@pytest.mark.parametrize("decks", DECKS)
def test_point_facts_are_possible_rounds(decks):
    for facts, _ in point_distribution(decks).weights:
        assert isinstance(facts, PointFacts)
        assert 0 <= facts.player_value <= 9 and 0 <= facts.banker_value <= 9
        assert 4 <= facts.cards_dealt <= 6
        if facts.player_natural or facts.banker_natural:
            assert facts.cards_dealt == 4
        assert not facts.player_natural or facts.player_value >= 8


@pytest.mark.parametrize("decks", DECKS)
def test_win_push_lose_sum_to_one_for_every_bet(decks):
    for table in (VARIANT_A, VARIANT_B):
        for bet in BetType:
            odds = bet_odds(bet, decks, table)
            assert odds.win + odds.push + odds.lose == 1
            assert all(0 <= p <= 1 for p in (odds.win, odds.push, odds.lose))
            assert odds.house_edge == 1 - odds.rtp
            assert isinstance(odds.rtp, Fraction)


@pytest.mark.parametrize("decks", DECKS)
def test_fixed_odds_rtp_is_win_times_return_plus_push(decks):
    outcome = main_probabilities(decks)
    banker = bet_odds(BetType.BANKER, decks, VARIANT_A)
    player = bet_odds(BetType.PLAYER, decks, VARIANT_A)
    tie = bet_odds(BetType.TIE, decks, VARIANT_A)
    assert banker.rtp == outcome["banker"] * Fraction(39, 20) + outcome["tie"]
    assert player.rtp == outcome["player"] * 2 + outcome["tie"]
    assert tie.rtp == outcome["tie"] * 9
    assert banker.push == player.push == outcome["tie"]
    small = bet_odds(BetType.SMALL, decks, VARIANT_A)
    big = bet_odds(BetType.BIG, decks, VARIANT_A)
    assert small.win + big.win == 1
    assert small.rtp == small.win * Fraction(5, 2)
    assert big.rtp == big.win * Fraction(77, 50)


@pytest.mark.parametrize("decks", DECKS)
def test_perfect_pair_b_pays_more_than_a_exactly_by_the_both_hands_term(decks):
    a = bet_odds(BetType.PERFECT_PAIR, decks, VARIANT_A)
    b = bet_odds(BetType.PERFECT_PAIR, decks, VARIANT_B)
    both = pair_distribution(decks).probability(PairFacts(True, True, True, True))
    assert a.win == b.win
    assert b.rtp - a.rtp == both * (200 - 25)


def test_bet_id_names_the_variant():
    assert bet_odds(BetType.PERFECT_PAIR, 8, VARIANT_B, bet_id="perfect_pair_b").bet == (
        "perfect_pair_b"
    )
    assert bet_odds(BetType.PERFECT_PAIR, 8, VARIANT_B).bet == "perfect_pair"


@pytest.mark.parametrize("decks", [0, 9, -1, "8", 8.0, None], ids=repr)
def test_deck_count_outside_1_to_8_is_refused(decks):
    for distribution in (point_distribution, pair_distribution):
        with pytest.raises(ValueError, match="decks"):
            distribution(decks)


def test_distributions_are_recomputed_identically_from_a_cleared_cache():
    before_points, before_pairs = point_distribution(8), pair_distribution(8)
    point_distribution.cache_clear()
    pair_distribution.cache_clear()
    assert point_distribution(8) == before_points
    assert pair_distribution(8) == before_pairs


# --- independent checks -----------------------------------------------------------------------

# games.md, written out again: the Player draws on 0-5; the Banker after a Player draw of x.
PLAYER_DRAWS_ON = set(range(6))
BANKER_DRAWS_AFTER = {
    0: set(range(10)),
    1: set(range(10)),
    2: set(range(10)),
    3: set(range(10)) - {8},
    4: set(range(2, 8)),
    5: set(range(4, 8)),
    6: {6, 7},
    7: set(),
}


def _falling(n: int, k: int) -> int:
    result = 1
    for i in range(k):
        result *= n - i
    return result


def brute_force_points(decks: int) -> dict[tuple, Fraction]:
    """Deal card by card in deal order (P1, B1, P2, B2, thirds), by point class.

    Each leaf weighs the product of the remaining counts along its path, over the number of
    ordered sequences of that many cards: a different count from the engine's (unordered
    two-card holdings padded to six cards).
    """
    counts = [16 * decks] + [4 * decks] * 9
    size = 52 * decks
    weights: dict[tuple, int] = defaultdict(int)

    def take(point: int) -> int:
        available = counts[point]
        counts[point] -= 1
        return available

    for p1, b1, p2, b2 in itertools.product(range(10), repeat=4):
        taken = []
        weight = 1
        for point in (p1, b1, p2, b2):
            weight *= take(point)
            taken.append(point)
        if weight > 0:
            player, banker = (p1 + p2) % 10, (b1 + b2) % 10
            if player >= 8 or banker >= 8:
                weights[(player, banker, player >= 8, banker >= 8, 4)] += weight
            elif player in PLAYER_DRAWS_ON:
                for p3 in range(10):
                    w5 = weight * take(p3)
                    if w5 and p3 in BANKER_DRAWS_AFTER[banker]:
                        for b3 in range(10):
                            w6 = w5 * counts[b3]
                            if w6:
                                weights[
                                    ((player + p3) % 10, (banker + b3) % 10, False, False, 6)
                                ] += w6
                    elif w5:
                        weights[((player + p3) % 10, banker, False, False, 5)] += w5
                    counts[p3] += 1
            elif banker <= 5:
                for b3 in range(10):
                    if counts[b3]:
                        weights[(player, (banker + b3) % 10, False, False, 5)] += (
                            weight * counts[b3]
                        )
            else:
                weights[(player, banker, False, False, 4)] += weight
        for point in taken:
            counts[point] += 1

    probabilities: dict[tuple, Fraction] = defaultdict(Fraction)
    for (*facts, cards), weight in weights.items():
        probabilities[(*facts, cards)] += Fraction(weight, _falling(size, cards))
    return dict(probabilities)


@pytest.mark.parametrize("decks", DECKS)
def test_point_distribution_matches_a_card_by_card_count(decks):
    distribution = point_distribution(decks)
    engine = {
        (f.player_value, f.banker_value, f.player_natural, f.banker_natural, f.cards_dealt): (
            distribution.probability(f)
        )
        for f, _ in distribution.weights
    }
    assert engine == brute_force_points(decks)


def brute_force_pairs(decks: int) -> dict[PairFacts, Fraction]:
    """Every ordered Player two-card hand by face, then the Banker's pairs counted by face."""
    faces = [Card(rank, suit) for rank in RANKS for suit in SUITS]
    copies = dict.fromkeys(faces, decks)
    size = 52 * decks
    result: dict[PairFacts, Fraction] = defaultdict(Fraction)
    for first, second in itertools.product(faces, repeat=2):
        ways = copies[first] * (copies[second] - (first == second))
        if not ways:
            continue
        copies[first] -= 1
        copies[second] -= 1
        left = size - 2
        suited = sum(n * (n - 1) for n in copies.values())
        same_rank = sum(
            sum(copies[Card(rank, s)] for s in SUITS)
            * (sum(copies[Card(rank, s)] for s in SUITS) - 1)
            for rank in RANKS
        )
        player_pair, player_suited = first.rank == second.rank, first == second
        for banker_pair, banker_suited, banker_ways in (
            (True, True, suited),
            (True, False, same_rank - suited),
            (False, False, left * (left - 1) - same_rank),
        ):
            if banker_ways:
                facts = PairFacts(player_pair, banker_pair, player_suited, banker_suited)
                result[facts] += Fraction(ways * banker_ways, _falling(size, 4))
        copies[first] += 1
        copies[second] += 1
    return dict(result)


@pytest.mark.parametrize("decks", [1, 2, 8])
def test_pair_distribution_matches_a_count_over_every_player_hand(decks):
    distribution = pair_distribution(decks)
    engine = {facts: distribution.probability(facts) for facts, _ in distribution.weights}
    assert engine == brute_force_pairs(decks)


@pytest.mark.parametrize("decks", DECKS)
def test_pair_probabilities_in_closed_form(decks):
    # After the first card, 4d - 1 of the other 52d - 1 cards share its rank, d - 1 its face.
    cards = 52 * decks
    player_pair = bet_odds(BetType.PLAYER_PAIR, decks, VARIANT_A)
    banker_pair = bet_odds(BetType.BANKER_PAIR, decks, VARIANT_A)
    assert player_pair.win == banker_pair.win == Fraction(4 * decks - 1, cards - 1)
    suited = Fraction(decks - 1, cards - 1)
    distribution = pair_distribution(decks)
    player_suited = sum(
        distribution.probability(f) for f, _ in distribution.weights if f.player_suited_pair
    )
    assert player_suited == suited


def test_one_deck_player_pair_is_3_in_51():
    assert bet_odds(BetType.PLAYER_PAIR, 1, VARIANT_A).win == Fraction(3, 51)
    assert bet_odds(BetType.PLAYER_PAIR, 1, VARIANT_A).rtp == Fraction(3, 51) * 12


def test_one_deck_either_pair_by_hand():
    # Both pairs: the Player pairs (3/51), then of 50 cards left the Player's rank has 2 and
    # twelve ranks have 4: 2*1 + 12*4*3 = 146 ordered Banker pairs of 50*49.
    both = Fraction(3, 51) * Fraction(146, 50 * 49)
    assert bet_odds(BetType.EITHER_PAIR, 1, VARIANT_A).win == 2 * Fraction(3, 51) - both


@pytest.mark.parametrize("table", [VARIANT_A, VARIANT_B], ids=["A", "B"])
def test_one_deck_has_no_perfect_pair(table):
    odds = bet_odds(BetType.PERFECT_PAIR, 1, table)
    assert odds.win == 0
    assert odds.rtp == 0
    assert odds.lose == 1


def test_one_deck_player_natural_by_counting_two_card_hands():
    deck = [Card(rank, suit) for rank in RANKS for suit in SUITS]
    naturals = sum(1 for a, b in itertools.permutations(deck, 2) if (a.points + b.points) % 10 >= 8)
    expected = Fraction(naturals, 52 * 51)
    distribution = point_distribution(1)
    engine = sum(distribution.probability(f) for f, _ in distribution.weights if f.player_natural)
    assert engine == expected
    # by symmetry the Banker's first two cards are as likely to be a natural
    banker = sum(distribution.probability(f) for f, _ in distribution.weights if f.banker_natural)
    assert banker == expected


def test_small_wins_when_no_third_card_is_drawn():
    # Small and big read the cards dealt: 4 exactly when nobody draws.
    distribution = point_distribution(8)
    four = sum(distribution.probability(f) for f, _ in distribution.weights if f.cards_dealt == 4)
    assert bet_odds(BetType.SMALL, 8, VARIANT_A).win == four


def test_pay_table_changes_move_the_rtp_exactly():
    nine_to_one = dataclasses.replace(VARIANT_A, tie=Fraction(9))
    tie = main_probabilities(8)["tie"]
    assert (
        bet_odds(BetType.TIE, 8, nine_to_one).rtp - bet_odds(BetType.TIE, 8, VARIANT_A).rtp == tie
    )
