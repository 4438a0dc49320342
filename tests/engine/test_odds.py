"""Exact odds: published figures as oracles, and independent counts to check the enumeration."""

from __future__ import annotations

import dataclasses
import itertools
from collections import defaultdict
from decimal import Decimal
from fractions import Fraction

import pytest

from reporting.config.bets import catalogue_bets
from reporting.config.loader import load_catalogue
from reporting.engine import odds as odds_module
from reporting.engine.bets import BetGroup, BetResult, BetRule, PayRow, PayTable
from reporting.engine.cards import RANKS, SUITS, Card
from reporting.engine.facts import FACTS, FactGroup, RoundFacts
from reporting.engine.money import round_fraction
from reporting.engine.odds import (
    RowReach,
    Shoe,
    bet_odds,
    distribution,
    main_probabilities,
    return_covariances,
    row_reach,
)
from reporting.engine.theory import describe_odds, game_odds, shoe_odds

DECKS = range(1, 9)
BETS = catalogue_bets()
VARIANT_A = PayTable.of(BETS.values())
VARIANT_B = VARIANT_A.changed({"perfect_pair_both": Fraction(200)})
POINTS = frozenset({FactGroup.POINTS})
PAIRS = frozenset({FactGroup.PAIRS})
EVERY_FACT = frozenset(FactGroup)
#: The bets of games.md (the classic tables).
CLASSIC = ("player", "banker", "tie", "player_pair", "banker_pair", "either_pair",
           "perfect_pair", "small", "big", "player_bonus", "banker_bonus")  # fmt: skip


def rtp_percent(bet: str, decks: int, table: PayTable = VARIANT_A) -> Decimal:
    """The RTP as operators publish it: percent, two decimals."""
    return round_fraction(bet_odds(BETS[bet], decks, table).rtp * 100, 2)


def probability(decks: int, groups: frozenset[FactGroup], holds) -> Fraction:
    """The exact probability of the records of a distribution on which ``holds`` is true."""
    exact = distribution(decks, groups)
    return Fraction(sum(weight for facts, weight in exact.weights if holds(facts)), exact.total)


# --- published figures ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bet", "table", "published"),
    [
        pytest.param("banker", VARIANT_A, "98.94", id="banker-98.94"),
        pytest.param("player", VARIANT_A, "98.76", id="player-98.76"),
        pytest.param("banker_pair", VARIANT_A, "89.64", id="banker_pair-89.64"),
        pytest.param("player_pair", VARIANT_A, "89.64", id="player_pair-89.64"),
        pytest.param("perfect_pair", VARIANT_B, "91.95", id="perfect_pair-B-91.95"),
        pytest.param("either_pair", VARIANT_A, "86.29", id="either_pair-86.29"),
        pytest.param("player_bonus", VARIANT_A, "97.35", id="player_bonus-97.35"),
        pytest.param("banker_bonus", VARIANT_A, "90.63", id="banker_bonus-90.63"),
    ],
)
def test_published_rtp_8_decks_denmark(bet, table, published):
    assert rtp_percent(bet, 8, table) == Decimal(published)


def test_published_optimal_rtp_8_decks_is_the_banker_bet():
    # games.md: "optimal 98.94%" is the best RTP of any bet of the Danish game, the Banker's.
    every = {bet: bet_odds(BETS[bet], 8, VARIANT_B).rtp for bet in CLASSIC}
    assert max(every, key=every.get) == "banker"
    assert round_fraction(max(every.values()) * 100, 2) == Decimal("98.94")
    danish = game_odds(load_catalogue().games["live-baccarat-dk"])
    assert danish.best_rtp == every["banker"]


@pytest.mark.parametrize(
    ("bet", "published"),
    [
        pytest.param("player", "98.76", id="player-98.76"),
        pytest.param("banker", "98.94", id="banker-98.94"),
        pytest.param("tie", "85.56", id="tie-85.56"),
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


@pytest.mark.parametrize(
    ("bet", "table", "house_edge"),
    [
        pytest.param("banker_no_commission", VARIANT_A, "1.4581", id="no-commission-banker"),
        pytest.param("banker_ez", VARIANT_A, "1.0183", id="ez-banker"),
        pytest.param("dragon_7", VARIANT_A, "7.6113", id="dragon-7"),
        pytest.param("panda_8", VARIANT_A, "10.1876", id="panda-8"),
        pytest.param("big_tiger", VARIANT_A, "15.2533", id="big-tiger"),
        pytest.param(
            "perfect_pair",
            VARIANT_A.changed({"perfect_pair_both": Fraction(250)}),
            "6.6235",
            id="perfect-pair-25-250",
        ),
    ],
)
def test_published_house_edges_of_the_variants_8_decks(bet, table, house_edge):
    edge = bet_odds(BETS[bet], 8, table).house_edge
    assert round_fraction(edge * 100, 4) == Decimal(house_edge)


def test_main_bet_odds_agree_with_the_win_probabilities_8_decks():
    probabilities = main_probabilities(8)
    for bet in ("banker", "player", "tie"):
        assert bet_odds(BETS[bet], 8, VARIANT_A).win == probabilities[bet]


# --- every deck count: distributions and bet probabilities ------------------------------------


@pytest.mark.parametrize("decks", DECKS)
def test_distributions_sum_exactly_to_one(decks):
    for groups in (POINTS, PAIRS):
        exact = distribution(decks, groups)
        assert sum(weight for _, weight in exact.weights) == exact.total
        assert sum(exact.probability(facts) for facts, _ in exact.weights) == 1
        assert all(weight > 0 for _, weight in exact.weights)
    assert sum(main_probabilities(decks).values()) == 1


@pytest.mark.parametrize("decks", [1, 8])
def test_the_joint_distribution_sums_to_one_and_holds_the_others(decks):
    joint = distribution(decks, EVERY_FACT)
    assert sum(weight for _, weight in joint.weights) == joint.total
    for groups in (POINTS, PAIRS):
        fields = {name for name, fact in FACTS.items() if fact.group in groups}
        summed: dict[RoundFacts, int] = defaultdict(int)
        for facts, weight in joint.weights:
            others = {name: None for name in FACTS if name not in fields}
            summed[dataclasses.replace(facts, **others)] += weight
        assert summed == dict(distribution(decks, groups).weights)


@pytest.mark.parametrize("decks", DECKS)
def test_point_facts_are_possible_rounds(decks):
    for facts, _ in distribution(decks, POINTS).weights:
        assert 0 <= facts.player_total <= 9 and 0 <= facts.banker_total <= 9
        assert 4 <= facts.cards_dealt <= 6
        assert facts.cards_dealt == facts.player_cards + facts.banker_cards
        assert (facts.player_third is None) == (facts.player_cards == 2)
        assert (facts.banker_third is None) == (facts.banker_cards == 2)
        if facts.player_natural or facts.banker_natural:
            assert facts.cards_dealt == 4
        assert not facts.player_natural or facts.player_total >= 8
        assert facts.margin == abs(facts.player_total - facts.banker_total)
        assert facts.player_pair is None and facts.player_faces is None


@pytest.mark.parametrize("decks", DECKS)
def test_win_push_lose_sum_to_one_for_every_bet(decks):
    for table in (VARIANT_A, VARIANT_B):
        for bet in BETS.values():
            odds = bet_odds(bet, decks, table)
            assert odds.win + odds.push + odds.lose == 1
            assert all(0 <= p <= 1 for p in (odds.win, odds.push, odds.lose))
            assert odds.house_edge == 1 - odds.rtp
            assert isinstance(odds.rtp, Fraction)
            assert odds.variance >= 0


@pytest.mark.parametrize("decks", DECKS)
def test_fixed_odds_rtp_is_win_times_return_plus_push(decks):
    outcome = main_probabilities(decks)
    banker = bet_odds(BETS["banker"], decks, VARIANT_A)
    player = bet_odds(BETS["player"], decks, VARIANT_A)
    tie = bet_odds(BETS["tie"], decks, VARIANT_A)
    assert banker.rtp == outcome["banker"] * Fraction(39, 20) + outcome["tie"]
    assert player.rtp == outcome["player"] * 2 + outcome["tie"]
    assert tie.rtp == outcome["tie"] * 9
    assert banker.push == player.push == outcome["tie"]
    small = bet_odds(BETS["small"], decks, VARIANT_A)
    big = bet_odds(BETS["big"], decks, VARIANT_A)
    assert small.win + big.win == 1
    assert small.rtp == small.win * Fraction(5, 2)
    assert big.rtp == big.win * Fraction(77, 50)


@pytest.mark.parametrize("decks", [6, 8])
def test_the_variants_odds_follow_from_each_other(decks):
    def odds(bet):
        return bet_odds(BETS[bet], decks, VARIANT_A)

    outcome = main_probabilities(decks)
    six = odds("super_6").win  # a Banker win with 6
    two_card_six, three_card_six = odds("small_tiger").win, odds("big_tiger").win
    assert six == two_card_six + three_card_six
    assert odds("super_6").rtp == 13 * six
    assert odds("tiger") == dataclasses.replace(odds("lucky_6"), bet="tiger")
    assert odds("tiger").rtp == 13 * two_card_six + 21 * three_card_six
    # No commission: even money, half on a Banker win with 6.
    no_commission = odds("banker_no_commission")
    assert no_commission.win == outcome["banker"]
    assert (
        no_commission.rtp == 2 * (outcome["banker"] - six) + Fraction(3, 2) * six + outcome["tie"]
    )
    # EZ: even money, a Banker win with a three-card 7 (Dragon 7's win) returns the stake.
    ez, dragon = odds("banker_ez"), odds("dragon_7")
    assert ez.win == outcome["banker"] - dragon.win
    assert ez.push == outcome["tie"] + dragon.win
    assert ez.rtp == 2 * ez.win + ez.push
    tiger_tie = probability(decks, POINTS, lambda f: f.winner == "tie" and f.banker_total == 6)
    assert odds("tiger_tie").rtp == 36 * tiger_tie


@pytest.mark.parametrize("decks", DECKS)
def test_perfect_pair_b_pays_more_than_a_exactly_by_the_both_hands_term(decks):
    a = bet_odds(BETS["perfect_pair"], decks, VARIANT_A)
    b = bet_odds(BETS["perfect_pair"], decks, VARIANT_B)
    both = probability(decks, PAIRS, lambda facts: facts.suited_pairs == 2)
    assert a.win == b.win
    assert b.rtp - a.rtp == both * (200 - 25)


def test_bet_id_names_the_variant():
    perfect_pair = BETS["perfect_pair"]
    assert bet_odds(perfect_pair, 8, VARIANT_B, bet_id="perfect_pair_b").bet == "perfect_pair_b"
    assert bet_odds(perfect_pair, 8, VARIANT_B).bet == "perfect_pair"


@pytest.mark.parametrize("decks", [0, 9, -1, "8", 8.0, None, True], ids=repr)
def test_deck_count_outside_1_to_8_is_refused(decks):
    for groups in (POINTS, PAIRS, EVERY_FACT):
        with pytest.raises(ValueError, match="decks"):
            distribution(decks, groups)
    with pytest.raises(ValueError, match="decks"):
        Shoe.of_decks(decks)


def test_a_shoe_too_small_for_a_round_is_refused():
    with pytest.raises(ValueError, match="cannot deal"):
        distribution(Shoe.of_cards(["AS", "2S", "3S", "4S", "5S"]), POINTS)


def test_distributions_are_recomputed_identically_from_a_cleared_cache():
    enumerators = (
        odds_module._point_distribution,
        odds_module._pair_distribution,
        odds_module._joint_distribution,
    )
    before = [distribution(1, groups) for groups in (POINTS, PAIRS, EVERY_FACT)]
    for enumerator in enumerators:
        enumerator.cache_clear()
    assert [distribution(1, groups) for groups in (POINTS, PAIRS, EVERY_FACT)] == before


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
    two-card holdings padded to six cards). A leaf is (Player's value, Banker's value, naturals,
    cards dealt, Player's third card, Banker's third card).
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
                weights[(player, banker, player >= 8, banker >= 8, 4, None, None)] += weight
            elif player in PLAYER_DRAWS_ON:
                for p3 in range(10):
                    w5 = weight * take(p3)
                    if w5 and p3 in BANKER_DRAWS_AFTER[banker]:
                        for b3 in range(10):
                            w6 = w5 * counts[b3]
                            if w6:
                                leaf = ((player + p3) % 10, (banker + b3) % 10, False, False)
                                weights[(*leaf, 6, p3, b3)] += w6
                    elif w5:
                        weights[((player + p3) % 10, banker, False, False, 5, p3, None)] += w5
                    counts[p3] += 1
            elif banker <= 5:
                for b3 in range(10):
                    if counts[b3]:
                        leaf = (player, (banker + b3) % 10, False, False, 5, None, b3)
                        weights[leaf] += weight * counts[b3]
            else:
                weights[(player, banker, False, False, 4, None, None)] += weight
        for point in taken:
            counts[point] += 1

    probabilities: dict[tuple, Fraction] = defaultdict(Fraction)
    for leaf, weight in weights.items():
        probabilities[leaf] += Fraction(weight, _falling(size, leaf[4]))
    return dict(probabilities)


@pytest.mark.parametrize("decks", DECKS)
def test_point_distribution_matches_a_card_by_card_count(decks):
    exact = distribution(decks, POINTS)
    engine: dict[tuple, Fraction] = defaultdict(Fraction)
    for f, _ in exact.weights:
        leaf = (f.player_total, f.banker_total, f.player_natural, f.banker_natural, f.cards_dealt)
        engine[(*leaf, f.player_third, f.banker_third)] += exact.probability(f)
    assert engine == brute_force_points(decks)


def brute_force_pairs(decks: int) -> dict[RoundFacts, Fraction]:
    """Every ordered Player two-card hand by face, then the Banker's pairs counted by rank and
    face (of the Player's pair's rank or another)."""
    faces = [Card(rank, suit) for rank in RANKS for suit in SUITS]
    copies = dict.fromkeys(faces, decks)
    size = 52 * decks
    result: dict[RoundFacts, Fraction] = defaultdict(Fraction)
    for first, second in itertools.product(faces, repeat=2):
        ways = copies[first] * (copies[second] - (first == second))
        if not ways:
            continue
        copies[first] -= 1
        copies[second] -= 1
        left = size - 2
        player_pair, player_suited = first.rank == second.rank, first == second
        paired = 0
        for rank in RANKS:
            in_rank = [copies[Card(rank, suit)] for suit in SUITS]
            suited = sum(n * (n - 1) for n in in_rank)
            same_rank = sum(in_rank) * (sum(in_rank) - 1)
            paired += same_rank
            twin = player_pair and rank == first.rank
            for banker_suited, banker_ways in ((True, suited), (False, same_rank - suited)):
                if banker_ways:
                    facts = _pairs(player_pair, player_suited, True, banker_suited, twin)
                    result[facts] += Fraction(ways * banker_ways, _falling(size, 4))
        unpaired = left * (left - 1) - paired
        facts = _pairs(player_pair, player_suited, False, False, False)
        result[facts] += Fraction(ways * unpaired, _falling(size, 4))
        copies[first] += 1
        copies[second] += 1
    return dict(result)


def _pairs(player: bool, player_suited: bool, banker: bool, banker_suited: bool, twin: bool):
    return RoundFacts(
        player_pair=player,
        banker_pair=banker,
        player_suited_pair=player_suited,
        banker_suited_pair=banker_suited,
        pairs=player + banker,
        suited_pairs=player_suited + banker_suited,
        twin_pairs=twin,
    )


@pytest.mark.parametrize("decks", [1, 2, 8])
def test_pair_distribution_matches_a_count_over_every_player_hand(decks):
    exact = distribution(decks, PAIRS)
    engine = {facts: exact.probability(facts) for facts, _ in exact.weights}
    assert engine == brute_force_pairs(decks)


@pytest.mark.parametrize("decks", DECKS)
def test_pair_probabilities_in_closed_form(decks):
    # After the first card, 4d - 1 of the other 52d - 1 cards share its rank, d - 1 its face.
    cards = 52 * decks
    player_pair = bet_odds(BETS["player_pair"], decks, VARIANT_A)
    banker_pair = bet_odds(BETS["banker_pair"], decks, VARIANT_A)
    assert player_pair.win == banker_pair.win == Fraction(4 * decks - 1, cards - 1)
    player_suited = probability(decks, PAIRS, lambda facts: facts.player_suited_pair)
    assert player_suited == Fraction(decks - 1, cards - 1)


def test_one_deck_player_pair_is_3_in_51():
    assert bet_odds(BETS["player_pair"], 1, VARIANT_A).win == Fraction(3, 51)
    assert bet_odds(BETS["player_pair"], 1, VARIANT_A).rtp == Fraction(3, 51) * 12


def test_one_deck_either_pair_by_hand():
    # Both pairs: the Player pairs (3/51), then of 50 cards left the Player's rank has 2 and
    # twelve ranks have 4: 2*1 + 12*4*3 = 146 ordered Banker pairs of 50*49.
    both = Fraction(3, 51) * Fraction(146, 50 * 49)
    assert bet_odds(BETS["either_pair"], 1, VARIANT_A).win == 2 * Fraction(3, 51) - both
    # Of those, the Banker's pair is of the Player's rank in 2 of 146.
    twins = Fraction(3, 51) * Fraction(2, 50 * 49)
    assert probability(1, PAIRS, lambda facts: facts.twin_pairs) == twins


@pytest.mark.parametrize("table", [VARIANT_A, VARIANT_B], ids=["A", "B"])
def test_one_deck_has_no_perfect_pair(table):
    odds = bet_odds(BETS["perfect_pair"], 1, table)
    assert odds.win == 0
    assert odds.rtp == 0
    assert odds.lose == 1


def test_one_deck_player_natural_by_counting_two_card_hands():
    deck = [Card(rank, suit) for rank in RANKS for suit in SUITS]
    naturals = sum(1 for a, b in itertools.permutations(deck, 2) if (a.points + b.points) % 10 >= 8)
    expected = Fraction(naturals, 52 * 51)
    assert probability(1, POINTS, lambda facts: facts.player_natural) == expected
    # by symmetry the Banker's first two cards are as likely to be a natural
    assert probability(1, POINTS, lambda facts: facts.banker_natural) == expected


def test_one_deck_face_cards_of_a_natural_by_counting_two_card_hands():
    # A natural 9 with a face card: a 9 and a J, Q or K, in either order, of 52 * 51.
    deck = [Card(rank, suit) for rank in RANKS for suit in SUITS]
    expected = Fraction(
        sum(
            1
            for a, b in itertools.permutations(deck, 2)
            if (a.points + b.points) % 10 == 9 and {a.rank, b.rank} & {"J", "Q", "K"}
        ),
        52 * 51,
    )
    assert expected == Fraction(2 * 4 * 12, 52 * 51)
    assert (
        probability(
            1,
            EVERY_FACT,
            lambda facts: (
                facts.player_natural and facts.player_total == 9 and facts.player_faces == 1
            ),
        )
        == expected
    )


def test_small_wins_when_no_third_card_is_drawn():
    # Small and big read the cards dealt: 4 exactly when nobody draws.
    four = probability(8, POINTS, lambda facts: facts.cards_dealt == 4)
    assert bet_odds(BETS["small"], 8, VARIANT_A).win == four


def test_pay_table_changes_move_the_rtp_exactly():
    nine_to_one = VARIANT_A.changed({"tie": Fraction(9)})
    tie = main_probabilities(8)["tie"]
    assert (
        bet_odds(BETS["tie"], 8, nine_to_one).rtp - bet_odds(BETS["tie"], 8, VARIANT_A).rtp == tie
    )


# --- what the pages print ---------------------------------------------------------------------


def test_what_a_bet_pays_in_to_1_notation():
    assert describe_odds(BETS["banker"], VARIANT_A) == "0.95:1"
    assert describe_odds(BETS["tie"], VARIANT_A) == "8:1"
    assert describe_odds(BETS["perfect_pair"], VARIANT_A) == "25:1"
    assert describe_odds(BETS["perfect_pair"], VARIANT_B) == (
        "perfect_pair_one 25:1, perfect_pair_both 200:1"
    )
    assert describe_odds(BETS["banker_no_commission"], VARIANT_A) == (
        "banker_no_commission_six 0.5:1, banker_no_commission 1:1"
    )
    assert describe_odds(BETS["player_bonus"], VARIANT_A) == "bonus table"
    thirds = VARIANT_A.changed({"big": Fraction(1, 3)})
    assert describe_odds(BETS["big"], thirds) == "1/3:1"


def test_the_catalogue_s_odds_give_the_perfect_pair_in_both_variants():
    result = shoe_odds(8, BETS.values(), VARIANT_A)
    assert [odds.bet for odds in result.bets] == [
        *itertools.chain.from_iterable(
            (bet, "perfect_pair_b") if bet == "perfect_pair" else (bet,) for bet in BETS
        )
    ]
    assert result.pays["perfect_pair"] == "25:1"
    assert result.pays["perfect_pair_b"] == "perfect_pair_one 25:1, perfect_pair_both 200:1"
    assert result.rtp_of("perfect_pair_b") == bet_odds(BETS["perfect_pair"], 8, VARIANT_B).rtp
    assert result.rtp_of("banker") == bet_odds(BETS["banker"], 8, VARIANT_A).rtp


# --- the smaller figures: rows, variance, what a game's odds hold -------------------------------


def test_a_record_no_deal_has_is_improbable():
    points = distribution(8, POINTS)
    impossible = RoundFacts(winner="tie", player_total=9, banker_total=8)
    assert points.probability(impossible) == 0


def test_a_shoe_of_six_cards_deals_one_round():
    shoe = Shoe.of_cards(["AS", "2S", "3S", "4S", "5S", "6S"])
    assert (
        sum(Fraction(w, d.total) for d in [distribution(shoe, POINTS)] for _, w in d.weights) == 1
    )


def test_how_often_each_row_of_a_bet_holds_and_decides():
    """Row 1 pays a Banker win, row 2 any win: row 2 holds on every win but decides only the
    Player's, taken by row 1 on the Banker's; row 3 (no margin: a tie) holds and decides alone.
    The rows read the margin too: each sums the records of every margin."""
    rows = (
        PayRow((("winner", frozenset({"banker"})),), Fraction(1)),
        PayRow((("winner", frozenset({"banker", "player"})),), Fraction(2)),
        PayRow((("margin", frozenset({0})),), Fraction(3)),
    )
    bet = BetRule("rows", BetGroup.SIDE, rows)
    main = main_probabilities(8)
    banker, player, tie = main["banker"], main["player"], main["tie"]
    assert row_reach(bet, 8) == (
        RowReach(banker, banker, ()),
        RowReach(banker + player, player, (1,)),
        RowReach(tie, tie, ()),
    )


@pytest.mark.parametrize("groups", [POINTS, PAIRS, EVERY_FACT], ids=["points", "pairs", "all"])
def test_every_weight_is_a_whole_number(groups):
    """Counts of card sequences: never a float, which would hold them only to 53 bits. (A
    shoe of its own, whose distributions no other test has cached: each is counted here.)"""
    deck = [rank + suit for rank in RANKS for suit in SUITS]
    weights = distribution(Shoe.of_cards([*deck, "AS", "KD", "KD"]), groups).weights
    assert {type(weight) for _, weight in weights} == {int}


def test_the_second_moment_of_the_tie_is_its_win_times_nine_squared():
    tie = bet_odds(BETS["tie"], 8, VARIANT_A)
    assert tie.second_moment == tie.win * 81
    assert tie.variance == tie.win * 81 - (tie.win * 9) ** 2


def test_a_game_s_odds_hold_its_decks_table_outcomes_and_pays(operator_config):
    game = operator_config.game("live-baccarat-it")
    odds = game_odds(game)
    assert (odds.decks, odds.pay_table) == (game.decks, game.pay_table)
    assert odds.outcomes == main_probabilities(game.decks)
    assert odds.pays == {bet.id: describe_odds(bet, game.pay_table) for bet in game.bets}
    assert odds.pays["banker"] == "0.95:1"
    six = game_odds(game, decks=6, table=VARIANT_B)
    assert (six.decks, six.pay_table, six.outcomes) == (6, VARIANT_B, main_probabilities(6))
    with pytest.raises(KeyError) as error:
        odds.rtp_of("dragon_7")
    assert error.value.args == ("dragon_7",)


def test_the_catalogue_s_odds_hold_the_shoe_table_and_outcomes_and_a_b_table_as_it_pays():
    result = shoe_odds(6, BETS.values(), VARIANT_A)
    assert (result.decks, result.pay_table, result.outcomes) == (
        6,
        VARIANT_A,
        main_probabilities(6),
    )
    assert result.pays["tie"] == "8:1"
    # A table that already pays both hands more (B) is the B variant as it stands: 250, not 200.
    richer = VARIANT_A.changed({"perfect_pair_both": Fraction(250)})
    assert shoe_odds(6, BETS.values(), richer).pays["perfect_pair_b"] == (
        "perfect_pair_one 25:1, perfect_pair_both 250:1"
    )


def test_what_a_bet_without_keys_or_wins_pays():
    by_row = BetRule(
        "by_row",
        BetGroup.SIDE,
        (
            PayRow((("margin", frozenset({9})),), Fraction(5)),
            PayRow((("margin", frozenset({8})),), Fraction(3)),
        ),
    )
    assert describe_odds(by_row, PayTable.of([by_row])) == "row 1 5:1, row 2 3:1"
    pushes = BetRule("pushes", BetGroup.SIDE, (PayRow((), BetResult.PUSH),))
    assert describe_odds(pushes, PayTable.of([pushes])) == "never pays a win"


# --- how the returns of two bets on one round vary together ----------------------------------


def test_the_player_and_banker_returns_move_against_each_other_as_the_three_outcomes_say():
    """Counted apart from the enumeration: the Player returns 2 on its win, the Banker 1.95 on
    its own, both return the stake on a tie (games.md)."""
    for decks in (1, 6, 8):
        p = main_probabilities(decks)
        player = {"player": Fraction(2), "banker": Fraction(0), "tie": Fraction(1)}
        banker = {"player": Fraction(0), "banker": Fraction(39, 20), "tie": Fraction(1)}

        product = {outcome: player[outcome] * banker[outcome] for outcome in p}
        means = [sum(p[o] * values[o] for o in p) for values in (product, player, banker)]
        covariances = return_covariances((BETS["player"], BETS["banker"]), decks, VARIANT_A)
        expected = means[0] - means[1] * means[2]
        assert covariances[("player", "banker")] == covariances[("banker", "player")] == expected
        assert expected < 0


@pytest.mark.parametrize("decks", [1, 8])
def test_a_bet_s_covariance_with_itself_is_its_variance(decks):
    bets = tuple(BETS[name] for name in CLASSIC)
    covariances = return_covariances(bets, decks, VARIANT_B)
    for bet in bets:
        assert covariances[(bet.id, bet.id)] == bet_odds(bet, decks, VARIANT_B).variance
    # cached, so shared by every caller: none can change it
    with pytest.raises(TypeError):
        covariances[("tie", "tie")] = Fraction(0)  # type: ignore[index]
