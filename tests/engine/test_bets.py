"""Settlement of every bet of games.md and variants.md on real dealt rounds, in integer cents.

The bets are the catalogue's declarations (reporting/data/bets.toml); a row id is
``"<bet id>:<row number>"`` (the row that decided), or ``"<bet id>:lose"`` when none held.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reporting.config.bets import catalogue_bets
from reporting.engine.bets import (
    BetGroup,
    BetResult,
    BetRule,
    PayRow,
    PayTable,
    Wording,
    facts_read,
    refund,
    resolve_bet,
    settle,
)
from reporting.engine.cards import RANKS, SUITS, Card, parse_cards
from reporting.engine.facts import FactGroup, RoundFacts
from reporting.engine.money import RoundingPolicy
from reporting.engine.rules import Outcome, Winner, resolve_round

DOWN, HALF_UP, HALF_EVEN = RoundingPolicy.DOWN, RoundingPolicy.HALF_UP, RoundingPolicy.HALF_EVEN
BETS = catalogue_bets()
VARIANT_A = PayTable.of(BETS.values())  # perfect pair 25:1, one or both hands
VARIANT_B = VARIANT_A.changed({"perfect_pair_both": Fraction(200)})  # 25:1 one, 200:1 both


def deal(player: str, banker: str) -> Outcome:
    """A round from its logged cards; every round used here follows the drawing rules."""
    outcome = resolve_round(parse_cards(player), parse_cards(banker))
    assert outcome.follows_rules, outcome.breaches
    return outcome


def pay(bet: str, stake: int, outcome: Outcome, table=VARIANT_A, rounding=DOWN) -> int:
    return settle(BETS[bet], stake, outcome.facts, table, rounding).payout


# Rounds, named by what happens in them.
PLAYER_NATURAL_WIN = deal("9H KS", "7D KC")  # 9 v 7
BANKER_NATURAL_WIN = deal("2H 3S", "8D KC")  # 5 v 8
PLAYER_WINS_6_CARDS = deal("AH 2S 3C", "KD QC 5H")  # 6 v 5
BANKER_WINS_6_CARDS = deal("2H 3S KD", "KC 2C 7H")  # 5 v 9
TIE_7_7 = deal("3H 4S", "KD QC 7D")  # non-natural tie, 5 cards
NATURAL_TIE_9_9 = deal("9H KS", "9D QC")
NATURAL_TIE_8_8 = deal("6H 2S", "7D AC")


# --- player, banker, tie ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bet", "outcome", "payout", "result", "row"),
    [
        pytest.param(
            "player", PLAYER_NATURAL_WIN, 5000, BetResult.WIN, "player:1", id="player-wins-1:1"
        ),
        pytest.param(
            "player",
            PLAYER_WINS_6_CARDS,
            5000,
            BetResult.WIN,
            "player:1",
            id="player-wins-1:1-6-cards",
        ),
        pytest.param(
            "player", BANKER_NATURAL_WIN, 0, BetResult.LOSE, "player:lose", id="player-loses"
        ),
        pytest.param("player", TIE_7_7, 2500, BetResult.PUSH, "player:2", id="player-tie-push"),
        pytest.param(
            "player",
            NATURAL_TIE_9_9,
            2500,
            BetResult.PUSH,
            "player:2",
            id="player-natural-tie-push",
        ),
        pytest.param(
            "banker", BANKER_NATURAL_WIN, 4875, BetResult.WIN, "banker:1", id="banker-wins-0.95:1"
        ),
        pytest.param(
            "banker",
            BANKER_WINS_6_CARDS,
            4875,
            BetResult.WIN,
            "banker:1",
            id="banker-wins-0.95:1-6-cards",
        ),
        pytest.param(
            "banker", PLAYER_NATURAL_WIN, 0, BetResult.LOSE, "banker:lose", id="banker-loses"
        ),
        pytest.param("banker", TIE_7_7, 2500, BetResult.PUSH, "banker:2", id="banker-tie-push"),
        pytest.param("tie", TIE_7_7, 22500, BetResult.WIN, "tie:1", id="tie-wins-8:1"),
        pytest.param(
            "tie", NATURAL_TIE_8_8, 22500, BetResult.WIN, "tie:1", id="tie-wins-8:1-natural"
        ),
        pytest.param(
            "tie", PLAYER_NATURAL_WIN, 0, BetResult.LOSE, "tie:lose", id="tie-loses-on-player-win"
        ),
        pytest.param(
            "tie", BANKER_WINS_6_CARDS, 0, BetResult.LOSE, "tie:lose", id="tie-loses-on-banker-win"
        ),
    ],
)
def test_main_bets(bet, outcome, payout, result, row):
    settlement = settle(BETS[bet], 2500, outcome.facts, VARIANT_A)
    assert settlement.bet_type == bet
    assert settlement.stake == 2500
    assert settlement.payout == payout
    assert settlement.result is result
    assert settlement.row == row


def test_round_log_example_banker_win_of_25_pays_48_75():
    # round-log.md: "48.75" for a 25.00 banker win
    assert pay("banker", 2500, BANKER_NATURAL_WIN) == 4875


@pytest.mark.parametrize(
    ("stake", "expected"),
    [
        # 12.35 at 0.95:1 is 11.7325: every policy pays 11.73 -> 24.08 (games.md)
        pytest.param(1235, {DOWN: 2408, HALF_UP: 2408, HALF_EVEN: 2408}, id="12.35-win-11.7325"),
        # 0.10 at 0.95:1 is exactly 9.5 cents: down 9, half_up 10, half_even 10
        pytest.param(10, {DOWN: 19, HALF_UP: 20, HALF_EVEN: 20}, id="0.10-win-9.5c"),
        # 0.30 at 0.95:1 is exactly 28.5 cents: half_up 29, half_even 28
        pytest.param(30, {DOWN: 58, HALF_UP: 59, HALF_EVEN: 58}, id="0.30-win-28.5c"),
        # 0.01 at 0.95:1 is 0.95 cents
        pytest.param(1, {DOWN: 1, HALF_UP: 2, HALF_EVEN: 2}, id="0.01-win-0.95c"),
        # 20.00 divides exactly: 19.00
        pytest.param(2000, {DOWN: 3900, HALF_UP: 3900, HALF_EVEN: 3900}, id="20.00-exact"),
    ],
)
@pytest.mark.parametrize("rounding", list(RoundingPolicy), ids=str)
def test_banker_commission_rounding(stake, expected, rounding):
    settlement = settle(BETS["banker"], stake, BANKER_NATURAL_WIN.facts, VARIANT_A, rounding)
    assert settlement.exact_win == stake * Fraction(19, 20)
    assert settlement.payout == expected[rounding]


def test_banker_commission_is_default_rounded_down():
    assert settle(BETS["banker"], 1235, BANKER_NATURAL_WIN.facts, VARIANT_A).payout == 2408
    assert settle(BETS["banker"], 30, BANKER_NATURAL_WIN.facts, VARIANT_A).payout == 58


# --- pair bets --------------------------------------------------------------------------------

PLAYER_KK_TIE = deal("KH KS 7D", "KD QC 7C")  # tie 7-7; Player K-K, Banker K-Q
BANKER_KK_TIE = deal("KH QS 7D", "KD KC 7C")  # tie 7-7; Player K-Q, Banker K-K
NO_PAIRS = deal("KH QH 7D", "KD QC 7C")  # K-Q of one suit is no pair
BOTH_PAIRS = deal("4H 4D", "2C 2S")  # Player natural 8 v 4
PLAYER_PERFECT = deal("KH KH 7D", "KD QC 7C")  # tie 7-7, Player KH KH
BANKER_PERFECT_PLAYER_PAIR = deal("4H 4D", "2C 2C")  # Player pair unsuited, Banker suited
BOTH_PERFECT = deal("4H 4H", "2C 2C")
TWIN_PAIRS = deal("4H 4D", "4C 4S")  # both hands a pair of fours: natural tie 8-8


def test_pair_rounds_are_what_their_names_say():
    assert PLAYER_KK_TIE.winner is Winner.TIE and PLAYER_KK_TIE.player_pair
    assert BANKER_KK_TIE.winner is Winner.TIE and BANKER_KK_TIE.banker_pair
    assert not NO_PAIRS.player_pair and not NO_PAIRS.banker_pair
    assert PLAYER_PERFECT.winner is Winner.TIE
    assert TWIN_PAIRS.facts.twin_pairs and not BOTH_PAIRS.facts.twin_pairs


@pytest.mark.parametrize(
    ("bet", "outcome", "payout", "row"),
    [
        pytest.param(
            "player_pair",
            PLAYER_KK_TIE,
            1200,
            "player_pair:1",
            id="player_pair-K-K-wins-11:1-on-a-tie",
        ),
        pytest.param(
            "player_pair", BANKER_KK_TIE, 0, "player_pair:lose", id="player_pair-K-Q-loses"
        ),
        pytest.param(
            "player_pair", NO_PAIRS, 0, "player_pair:lose", id="player_pair-suited-K-Q-loses"
        ),
        pytest.param(
            "player_pair", BOTH_PAIRS, 1200, "player_pair:1", id="player_pair-on-player-win"
        ),
        pytest.param(
            "banker_pair",
            BANKER_KK_TIE,
            1200,
            "banker_pair:1",
            id="banker_pair-K-K-wins-11:1-on-a-tie",
        ),
        pytest.param(
            "banker_pair", PLAYER_KK_TIE, 0, "banker_pair:lose", id="banker_pair-K-Q-loses"
        ),
        pytest.param(
            "banker_pair", BOTH_PAIRS, 1200, "banker_pair:1", id="banker_pair-wins-on-banker-loss"
        ),
        pytest.param(
            "either_pair", PLAYER_KK_TIE, 600, "either_pair:1", id="either_pair-player-pair-5:1"
        ),
        pytest.param(
            "either_pair", BANKER_KK_TIE, 600, "either_pair:1", id="either_pair-banker-pair-5:1"
        ),
        pytest.param(
            "either_pair", BOTH_PAIRS, 600, "either_pair:1", id="either_pair-both-pairs-pays-once"
        ),
        pytest.param(
            "either_pair", NO_PAIRS, 0, "either_pair:lose", id="either_pair-no-pair-loses"
        ),
        # variants.md: one hand paired 4:1, both of different ranks 20:1, of one rank 100:1.
        pytest.param(
            "tiger_pair", PLAYER_KK_TIE, 500, "tiger_pair:3", id="tiger_pair-one-hand-4:1"
        ),
        pytest.param("tiger_pair", BANKER_KK_TIE, 500, "tiger_pair:3", id="tiger_pair-banker-4:1"),
        pytest.param("tiger_pair", BOTH_PAIRS, 2100, "tiger_pair:2", id="tiger_pair-both-20:1"),
        pytest.param("tiger_pair", TWIN_PAIRS, 10100, "tiger_pair:1", id="tiger_pair-twin-100:1"),
        pytest.param("tiger_pair", NO_PAIRS, 0, "tiger_pair:lose", id="tiger_pair-no-pair-loses"),
    ],
)
def test_pair_bets_settle_on_the_cards_whatever_the_main_result(bet, outcome, payout, row):
    settlement = settle(BETS[bet], 100, outcome.facts, VARIANT_A)
    assert settlement.payout == payout
    assert settlement.row == row
    assert settlement.result is (BetResult.WIN if payout else BetResult.LOSE)


@pytest.mark.parametrize(
    ("outcome", "payout_a", "payout_b", "row"),
    [
        pytest.param(PLAYER_PERFECT, 2600, 2600, "perfect_pair:1", id="one-hand-25"),
        pytest.param(
            BANKER_PERFECT_PLAYER_PAIR,
            2600,
            2600,
            "perfect_pair:1",
            id="banker-suited-player-unsuited",
        ),
        pytest.param(BOTH_PERFECT, 2600, 20100, "perfect_pair:2", id="both-hands-A-25-B-200"),
        pytest.param(PLAYER_KK_TIE, 0, 0, "perfect_pair:lose", id="unsuited-pair-loses"),
        pytest.param(NO_PAIRS, 0, 0, "perfect_pair:lose", id="suited-K-Q-loses"),
    ],
)
def test_perfect_pair_variants(outcome, payout_a, payout_b, row):
    a = settle(BETS["perfect_pair"], 100, outcome.facts, VARIANT_A)
    b = settle(BETS["perfect_pair"], 100, outcome.facts, VARIANT_B)
    assert (a.payout, b.payout) == (payout_a, payout_b)
    assert a.row == b.row == row
    assert VARIANT_A.perfect_pair_variant == "A"
    assert VARIANT_B.perfect_pair_variant == "B"


def test_perfect_pair_both_hands_takes_any_odds():
    # variants.md: `perfect_pair_both = "250"` works.
    table = VARIANT_A.changed({"perfect_pair_both": Fraction(250)})
    assert settle(BETS["perfect_pair"], 100, BOTH_PERFECT.facts, table).payout == 25100
    assert table.perfect_pair_variant == "B"


# --- small and big ----------------------------------------------------------------------------

FOUR_CARDS = PLAYER_NATURAL_WIN
FIVE_CARDS = TIE_7_7
SIX_CARDS = PLAYER_WINS_6_CARDS


def test_card_counts_of_the_small_and_big_rounds():
    assert (FOUR_CARDS.cards_dealt, FIVE_CARDS.cards_dealt, SIX_CARDS.cards_dealt) == (4, 5, 6)


@pytest.mark.parametrize(
    ("bet", "outcome", "stake", "expected", "row"),
    [
        pytest.param(
            "small",
            FOUR_CARDS,
            1000,
            {DOWN: 2500, HALF_UP: 2500, HALF_EVEN: 2500},
            "small:1",
            id="small-4-cards-1.5:1",
        ),
        # 1.01 at 1.5:1 is 151.5 cents; the odd half goes to the even cent 152
        pytest.param(
            "small",
            FOUR_CARDS,
            101,
            {DOWN: 252, HALF_UP: 253, HALF_EVEN: 253},
            "small:1",
            id="small-odd-stake-151.5c",
        ),
        # 1.03 at 1.5:1 is 154.5 cents; half_even keeps 154
        pytest.param(
            "small",
            FOUR_CARDS,
            103,
            {DOWN: 257, HALF_UP: 258, HALF_EVEN: 257},
            "small:1",
            id="small-odd-stake-154.5c",
        ),
        pytest.param(
            "small",
            FIVE_CARDS,
            1000,
            {DOWN: 0, HALF_UP: 0, HALF_EVEN: 0},
            "small:lose",
            id="small-5-cards-loses",
        ),
        pytest.param(
            "small",
            SIX_CARDS,
            1000,
            {DOWN: 0, HALF_UP: 0, HALF_EVEN: 0},
            "small:lose",
            id="small-6-cards-loses",
        ),
        pytest.param(
            "big",
            FIVE_CARDS,
            1000,
            {DOWN: 1540, HALF_UP: 1540, HALF_EVEN: 1540},
            "big:1",
            id="big-5-cards-0.54:1",
        ),
        pytest.param(
            "big",
            SIX_CARDS,
            1000,
            {DOWN: 1540, HALF_UP: 1540, HALF_EVEN: 1540},
            "big:1",
            id="big-6-cards-0.54:1",
        ),
        # 1.01 at 0.54:1 is 54.54 cents
        pytest.param(
            "big",
            SIX_CARDS,
            101,
            {DOWN: 155, HALF_UP: 156, HALF_EVEN: 156},
            "big:1",
            id="big-odd-stake-54.54c",
        ),
        # 0.25 at 0.54:1 is 13.5 cents; 0.75 is 40.5 cents
        pytest.param(
            "big",
            FIVE_CARDS,
            25,
            {DOWN: 38, HALF_UP: 39, HALF_EVEN: 39},
            "big:1",
            id="big-stake-0.25-13.5c",
        ),
        pytest.param(
            "big",
            FIVE_CARDS,
            75,
            {DOWN: 115, HALF_UP: 116, HALF_EVEN: 115},
            "big:1",
            id="big-stake-0.75-40.5c",
        ),
        pytest.param(
            "big",
            FOUR_CARDS,
            1000,
            {DOWN: 0, HALF_UP: 0, HALF_EVEN: 0},
            "big:lose",
            id="big-4-cards-loses",
        ),
    ],
)
@pytest.mark.parametrize("rounding", list(RoundingPolicy), ids=str)
def test_small_and_big(bet, outcome, stake, expected, row, rounding):
    settlement = settle(BETS[bet], stake, outcome.facts, VARIANT_A, rounding)
    assert settlement.payout == expected[rounding]
    assert settlement.row == row


def test_small_and_big_settle_on_a_tie():
    assert pay("big", 1000, TIE_7_7) == 1540
    assert pay("small", 1000, NATURAL_TIE_9_9) == 2500


# --- player_bonus and banker_bonus ------------------------------------------------------------

# Player: K Q then a 9 makes 9 without a natural; Banker: K Q draws and makes its third card.
PLAYER_NON_NATURAL_WIN_BY = {
    9: deal("KH QS 9D", "KD QC KS"),
    8: deal("KH QS 9D", "KD QC AS"),
    7: deal("KH QS 9D", "KD QC 2S"),
    6: deal("KH QS 9D", "KD QC 3S"),
    5: deal("KH QS 9D", "KD QC 4S"),
    4: deal("KH QS 9D", "KD QC 5S"),
    3: deal("KH QS 9D", "KD QC 6S"),
    2: deal("KH QS 9D", "KD QC 7S"),
    1: deal("KH QS 9D", "KD QC 8S"),
}
# Banker: K Q then a 9 (the Banker on 0 always draws); Player: K Q then its third card.
BANKER_NON_NATURAL_WIN_BY = {
    9: deal("KH QS KC", "KD QC 9S"),
    8: deal("KH QS AC", "KD QC 9S"),
    7: deal("KH QS 2C", "KD QC 9S"),
    6: deal("KH QS 3C", "KD QC 9S"),
    5: deal("KH QS 4C", "KD QC 9S"),
    4: deal("KH QS 5C", "KD QC 9S"),
    3: deal("KH QS 6C", "KD QC 9S"),
    2: deal("KH QS 7C", "KD QC 9S"),
    1: deal("KH QS 8C", "KD QC 9S"),
}
BONUS_ODDS = {9: 30, 8: 10, 7: 6, 6: 4, 5: 2, 4: 1}  # games.md bonus table
#: The bonus bets' rows in declaration order: a natural tie, a natural win, margins 9 to 4.
BONUS_ROW = {"natural_tie": 1, "natural_win": 2} | {margin: 12 - margin for margin in BONUS_ODDS}


def test_bonus_rounds_are_non_natural_wins_by_their_margin():
    for side, rounds in (
        (Winner.PLAYER, PLAYER_NON_NATURAL_WIN_BY),
        (Winner.BANKER, BANKER_NON_NATURAL_WIN_BY),
    ):
        for margin, outcome in rounds.items():
            assert outcome.winner is side
            assert outcome.margin == margin
            assert not outcome.player_natural and not outcome.banker_natural


def _bonus_cases():
    for bet, rounds in (
        ("player_bonus", PLAYER_NON_NATURAL_WIN_BY),
        ("banker_bonus", BANKER_NON_NATURAL_WIN_BY),
    ):
        for margin in range(9, 0, -1):
            odds = BONUS_ODDS.get(margin)
            if odds is None:
                yield pytest.param(
                    bet,
                    rounds[margin],
                    0,
                    BetResult.LOSE,
                    f"{bet}:lose",
                    id=f"{bet}-non-natural-win-by-{margin}-loses",
                )
            else:
                yield pytest.param(
                    bet,
                    rounds[margin],
                    100 * (1 + odds),
                    BetResult.WIN,
                    f"{bet}:{BONUS_ROW[margin]}",
                    id=f"{bet}-non-natural-win-by-{margin}-pays-{odds}:1",
                )
    # The other rows of the bonus table: (bet, Player cards, Banker cards, what applies).
    other_rows = [
        ("player_bonus", "9H KS", "7D KC", "natural_win"),  # natural 9 v 7
        ("player_bonus", "9H KS", "KD QC", "natural_win"),  # natural by 9 pays 1:1 only
        ("player_bonus", "9H KS", "8D KC", "natural_win"),  # natural 9 v natural 8
        ("banker_bonus", "2H 3S", "8D KC", "natural_win"),  # natural 8 v 5
        ("banker_bonus", "KH QS", "9D KC", "natural_win"),  # natural by 9
        ("player_bonus", "9H KS", "9D QC", "natural_tie"),  # 9-9
        ("banker_bonus", "9H KS", "9D QC", "natural_tie"),
        ("player_bonus", "6H 2S", "7D AC", "natural_tie"),  # 8-8
        ("banker_bonus", "6H 2S", "7D AC", "natural_tie"),
        ("player_bonus", "3H 4S", "KD QC 7D", "tie_loses"),  # 7-7 without naturals
        ("banker_bonus", "3H 4S", "KD QC 7D", "tie_loses"),
        ("player_bonus", "2H 3S", "8D KC", "loses"),  # loses to a natural
        ("player_bonus", "KH QS 5C", "KD QC 9S", "loses"),
        ("banker_bonus", "KH QS 9D", "KD QC KS", "loses"),  # loses by 9
        ("banker_bonus", "9H KS", "7D KC", "loses"),
    ]
    paid = {
        "natural_win": (200, BetResult.WIN),
        "natural_tie": (100, BetResult.PUSH),
        "tie_loses": (0, BetResult.LOSE),
        "loses": (0, BetResult.LOSE),
    }
    for bet, player, banker, what in other_rows:
        payout, result = paid[what]
        row = f"{bet}:{BONUS_ROW[what]}" if what in BONUS_ROW else f"{bet}:lose"
        yield pytest.param(
            bet,
            deal(player, banker),
            payout,
            result,
            row,
            id=f"{bet}-{what}-{player}-v-{banker}".replace(" ", "."),
        )


@pytest.mark.parametrize(("bet", "outcome", "payout", "result", "row"), list(_bonus_cases()))
def test_bonus_table(bet, outcome, payout, result, row):
    settlement = settle(BETS[bet], 100, outcome.facts, VARIANT_A)
    assert settlement.payout == payout
    assert settlement.result is result
    assert settlement.row == row


def test_the_bonus_margins_are_the_pay_table_s():
    table = PayTable.of([BETS["player_bonus"], BETS["banker_bonus"]])
    assert {margin: table.odds(f"bonus_margin_{margin}") for margin in BONUS_ODDS} == BONUS_ODDS
    assert [table.get(f"bonus_margin_{margin}") for margin in (3, 2, 1, 0)] == [None] * 4
    assert BETS["player_bonus"].pay_keys == BETS["banker_bonus"].pay_keys


def test_bonus_natural_tie_can_lose_when_the_table_says_so():
    table = VARIANT_A.changed({"bonus_natural_tie": BetResult.LOSE})
    assert settle(BETS["player_bonus"], 100, NATURAL_TIE_9_9.facts, table).result is BetResult.LOSE


# --- the variants' bets (variants.md) ---------------------------------------------------------

BANKER_TWO_CARD_6 = deal("2H 3S KD", "3C 3D")  # 5 v a two-card 6 (the Banker stands)
BANKER_THREE_CARD_6 = deal("KH QS 2C", "KD QC 6H")  # 2 v a three-card 6
BANKER_THREE_CARD_7 = deal("KH QS 5C", "KD QC 7H")  # 5 v a three-card 7
BANKER_TWO_CARD_7 = deal("2H 3S KD", "4C 3D")  # 5 v a two-card 7
PLAYER_THREE_CARD_8 = deal("KH QS 8C", "KD QC 7H")  # a three-card 8 v 7
PLAYER_THREE_CARD_6 = deal("KH QS 6C", "KD QC 5H")  # a three-card 6 v 5
TIE_6_6 = deal("3H 3S", "4D 2C")  # both stand on 6
PLAYER_TWO_CARD_6_WINS = deal("4H 2S", "KD 5C 10H")  # 6 v 5


@pytest.mark.parametrize(
    ("bet", "outcome", "payout", "row"),
    [
        # Banker (no commission): 1:1, 1:2 on a Banker win with 6, a tie returns the stake.
        pytest.param(
            "banker_no_commission",
            BANKER_WINS_6_CARDS,
            200,
            "banker_no_commission:2",
            id="nc-win-9-1:1",
        ),
        pytest.param(
            "banker_no_commission",
            BANKER_TWO_CARD_6,
            150,
            "banker_no_commission:1",
            id="nc-two-card-6-1:2",
        ),
        pytest.param(
            "banker_no_commission",
            BANKER_THREE_CARD_6,
            150,
            "banker_no_commission:1",
            id="nc-three-card-6-1:2",
        ),
        pytest.param(
            "banker_no_commission", TIE_6_6, 100, "banker_no_commission:3", id="nc-tie-push"
        ),
        pytest.param(
            "banker_no_commission",
            PLAYER_NATURAL_WIN,
            0,
            "banker_no_commission:lose",
            id="nc-loses",
        ),
        # Banker (EZ): 1:1, a Banker win with a three-card 7 returns the stake.
        pytest.param(
            "banker_ez", BANKER_THREE_CARD_7, 100, "banker_ez:1", id="ez-three-card-7-push"
        ),
        pytest.param(
            "banker_ez", BANKER_TWO_CARD_7, 200, "banker_ez:2", id="ez-two-card-7-wins-1:1"
        ),
        pytest.param(
            "banker_ez", BANKER_THREE_CARD_6, 200, "banker_ez:2", id="ez-three-card-6-wins-1:1"
        ),
        pytest.param("banker_ez", TIE_7_7, 100, "banker_ez:3", id="ez-tie-push"),
        pytest.param("banker_ez", PLAYER_THREE_CARD_8, 0, "banker_ez:lose", id="ez-loses"),
        # Super 6: a Banker win with 6, two or three cards, 12:1.
        pytest.param("super_6", BANKER_TWO_CARD_6, 1300, "super_6:1", id="super_6-two-cards"),
        pytest.param("super_6", BANKER_THREE_CARD_6, 1300, "super_6:1", id="super_6-three-cards"),
        pytest.param("super_6", TIE_6_6, 0, "super_6:lose", id="super_6-tie-on-6-loses"),
        pytest.param(
            "super_6", PLAYER_TWO_CARD_6_WINS, 0, "super_6:lose", id="super_6-player-6-loses"
        ),
        # Lucky 6 and Tiger: two-card 6 12:1, three-card 6 20:1.
        pytest.param("lucky_6", BANKER_TWO_CARD_6, 1300, "lucky_6:1", id="lucky_6-two-cards-12:1"),
        pytest.param(
            "lucky_6", BANKER_THREE_CARD_6, 2100, "lucky_6:2", id="lucky_6-three-cards-20:1"
        ),
        pytest.param("lucky_6", BANKER_THREE_CARD_7, 0, "lucky_6:lose", id="lucky_6-7-loses"),
        pytest.param("tiger", BANKER_TWO_CARD_6, 1300, "tiger:1", id="tiger-two-cards-12:1"),
        pytest.param("tiger", BANKER_THREE_CARD_6, 2100, "tiger:2", id="tiger-three-cards-20:1"),
        pytest.param("tiger", TIE_6_6, 0, "tiger:lose", id="tiger-tie-loses"),
        # Small Tiger 22:1 (two-card 6), Big Tiger 50:1 (three-card 6), Tiger Tie 35:1.
        pytest.param(
            "small_tiger", BANKER_TWO_CARD_6, 2300, "small_tiger:1", id="small_tiger-22:1"
        ),
        pytest.param(
            "small_tiger",
            BANKER_THREE_CARD_6,
            0,
            "small_tiger:lose",
            id="small_tiger-three-cards-loses",
        ),
        pytest.param("big_tiger", BANKER_THREE_CARD_6, 5100, "big_tiger:1", id="big_tiger-50:1"),
        pytest.param(
            "big_tiger", BANKER_TWO_CARD_6, 0, "big_tiger:lose", id="big_tiger-two-cards-loses"
        ),
        pytest.param("tiger_tie", TIE_6_6, 3600, "tiger_tie:1", id="tiger_tie-35:1"),
        pytest.param("tiger_tie", TIE_7_7, 0, "tiger_tie:lose", id="tiger_tie-7-7-loses"),
        # Dragon 7 40:1, Panda 8 25:1, Ox 6 40:1.
        pytest.param("dragon_7", BANKER_THREE_CARD_7, 4100, "dragon_7:1", id="dragon_7-40:1"),
        pytest.param(
            "dragon_7", BANKER_TWO_CARD_7, 0, "dragon_7:lose", id="dragon_7-two-cards-loses"
        ),
        pytest.param("panda_8", PLAYER_THREE_CARD_8, 2600, "panda_8:1", id="panda_8-25:1"),
        pytest.param("panda_8", PLAYER_NATURAL_WIN, 0, "panda_8:lose", id="panda_8-natural-loses"),
        pytest.param("ox_6", PLAYER_THREE_CARD_6, 4100, "ox_6:1", id="ox_6-40:1"),
        pytest.param("ox_6", PLAYER_TWO_CARD_6_WINS, 0, "ox_6:lose", id="ox_6-two-cards-loses"),
    ],
)
def test_variant_bets(bet, outcome, payout, row):
    settlement = settle(BETS[bet], 100, outcome.facts, VARIANT_A)
    assert (settlement.payout, settlement.row) == (payout, row)


def test_variant_rounds_are_what_their_names_say():
    for outcome, winner, total, cards in (
        (BANKER_TWO_CARD_6, Winner.BANKER, 6, 2),
        (BANKER_THREE_CARD_6, Winner.BANKER, 6, 3),
        (BANKER_THREE_CARD_7, Winner.BANKER, 7, 3),
        (BANKER_TWO_CARD_7, Winner.BANKER, 7, 2),
    ):
        assert (outcome.winner, outcome.banker_value, len(outcome.banker_cards)) == (
            winner,
            total,
            cards,
        )
    assert (PLAYER_THREE_CARD_8.winner, PLAYER_THREE_CARD_8.player_value) == (Winner.PLAYER, 8)
    assert len(PLAYER_THREE_CARD_6.player_cards) == 3 and PLAYER_THREE_CARD_6.player_value == 6
    assert TIE_6_6.winner is Winner.TIE and TIE_6_6.banker_value == 6


def test_a_game_s_pay_changes_a_variant_s_row():
    # pay = { super_6 = "15" }, { banker_no_commission_six = "1" }
    table = VARIANT_A.changed({"super_6": Fraction(15), "banker_no_commission_six": Fraction(1)})
    assert pay("super_6", 100, BANKER_TWO_CARD_6, table) == 1600
    assert pay("banker_no_commission", 100, BANKER_TWO_CARD_6, table) == 200


# --- the pay table, resolutions, groups -------------------------------------------------------


def test_default_pay_table_is_games_md_and_variants_md():
    table = PayTable.of(BETS.values())
    assert table.odds("player") == 1
    assert table.odds("banker") == Fraction(95, 100)
    assert table.odds("tie") == 8
    assert table.odds("player_pair") == table.odds("banker_pair") == 11
    assert table.odds("either_pair") == 5
    assert table.odds("perfect_pair_one") == table.odds("perfect_pair_both") == 25
    assert table.odds("small") == Fraction(3, 2)
    assert table.odds("big") == Fraction(54, 100)
    assert table.odds("bonus_natural_win") == 1
    assert table.get("bonus_natural_tie") is BetResult.PUSH
    assert {key: table.odds(key) for key in VARIANT_PAYS} == VARIANT_PAYS


#: variants.md's pay keys and their defaults.
VARIANT_PAYS = {
    "banker_no_commission": 1,
    "banker_no_commission_six": Fraction(1, 2),
    "banker_ez": 1,
    "super_6": 12,
    "lucky_6_two_cards": 12,
    "lucky_6_three_cards": 20,
    "dragon_7": 40,
    "panda_8": 25,
    "ox_6": 40,
    "tiger_two_cards": 12,
    "tiger_three_cards": 20,
    "small_tiger": 22,
    "big_tiger": 50,
    "tiger_tie": 35,
    "tiger_pair_single": 4,
    "tiger_pair_double": 20,
    "tiger_pair_twin": 100,
}


def test_the_catalogue_holds_every_round_log_id_of_games_md_and_variants_md():
    # More may follow: a bet added to the catalogue is a declaration, no test to change.
    games_md = ["player", "banker", "tie", "player_pair", "banker_pair", "either_pair",
                "perfect_pair", "small", "big", "player_bonus", "banker_bonus"]  # fmt: skip
    variants_md = ["banker_no_commission", "banker_ez", "super_6", "lucky_6", "dragon_7",
                   "panda_8", "ox_6", "tiger", "small_tiger", "big_tiger", "tiger_tie",
                   "tiger_pair"]  # fmt: skip
    assert set(games_md) | set(variants_md) <= set(BETS)
    assert list(BETS)[:3] == ["player", "banker", "tie"]
    assert all(bet.id == bet_id for bet_id, bet in BETS.items())


def test_pair_bets_read_the_pairs_and_the_others_the_points():
    pair_bets = {"player_pair", "banker_pair", "either_pair", "perfect_pair", "tiger_pair"}
    for bet in BETS.values():
        expected = FactGroup.PAIRS if bet.id in pair_bets else FactGroup.POINTS
        assert bet.fact_groups == {expected}, bet.id


def test_bet_groups_are_the_pages():
    assert {bet.id for bet in BETS.values() if bet.group is BetGroup.MAIN} == {
        "player", "banker", "tie", "banker_no_commission", "banker_ez"
    }  # fmt: skip
    assert {bet.id for bet in BETS.values() if bet.group is BetGroup.BONUS} == {
        "player_bonus", "banker_bonus"
    }  # fmt: skip


def test_resolution_return_multiple():
    win = resolve_bet(BETS["banker"], BANKER_NATURAL_WIN.facts, VARIANT_A)
    assert (win.result, win.odds, win.row) == (BetResult.WIN, Fraction(19, 20), "banker:1")
    assert win.pay_row is BETS["banker"].rows[0]
    assert win.return_multiple() == Fraction(39, 20)
    push = resolve_bet(BETS["banker"], TIE_7_7.facts, VARIANT_A)
    assert (push.result, push.odds, push.return_multiple()) == (BetResult.PUSH, 0, 1)
    lose = resolve_bet(BETS["banker"], PLAYER_NATURAL_WIN.facts, VARIANT_A)
    assert (lose.result, lose.odds, lose.return_multiple(), lose.pay_row) == (
        BetResult.LOSE, 0, 0, None
    )  # fmt: skip


def test_a_pay_table_holds_the_keys_of_its_bets_only():
    table = PayTable.of([BETS["player"], BETS["tie"]])
    assert table.keys() == ("player", "tie")
    with pytest.raises(KeyError) as error:
        PayTable.of([BETS["player"]], {"tie": Fraction(9)})
    assert error.value.args == ("tie",)  # the configuration's error names the key
    with pytest.raises(KeyError) as error:
        table.changed({"super_6": Fraction(15)})
    assert error.value.args == ("super_6",)
    assert table.changed({"tie": Fraction(9)}).odds("tie") == 9
    assert table.odds("tie") == 8  # a changed table is a new one


def test_a_key_declared_with_two_defaults_is_refused():
    one = BetRule(
        "one", BetGroup.SIDE, (PayRow((("pairs", frozenset({1})),), Fraction(4), "shared"),)
    )
    two = BetRule(
        "two", BetGroup.SIDE, (PayRow((("pairs", frozenset({2})),), Fraction(5), "shared"),)
    )
    with pytest.raises(ValueError, match="two defaults"):
        PayTable.of([one, two])


def test_a_row_naming_an_unknown_fact_is_refused():
    with pytest.raises(ValueError, match="unknown fact"):
        PayRow((("banker_hand_colour", frozenset({"red"})),), Fraction(1))


# --- refunds and bad stakes -------------------------------------------------------------------


@pytest.mark.parametrize("bet", list(BETS))
def test_refund_returns_the_stake(bet):
    settlement = refund(bet, 1235)
    assert settlement.bet_type == bet
    assert settlement.payout == settlement.stake == 1235
    assert settlement.result is BetResult.PUSH
    assert settlement.row == "void_refund"
    assert settlement.exact_win == 0


@pytest.mark.parametrize(
    "stake", [25.0, 0.5, 0, -100, True, Decimal("25.00"), "2500", Fraction(5, 2)], ids=repr
)
def test_settle_refuses_float_and_non_positive_stakes(stake):
    with pytest.raises(ValueError, match="stake"):
        settle(BETS["player"], stake, PLAYER_NATURAL_WIN.facts, VARIANT_A)


def test_settle_accepts_a_record_of_the_pairs_alone_for_pair_bets():
    # Settlement is a pure function of the facts a bet reads: the others may be unknown.
    facts = RoundFacts(
        player_pair=True,
        banker_pair=True,
        player_suited_pair=True,
        banker_suited_pair=True,
        pairs=2,
        suited_pairs=2,
        twin_pairs=False,
    )
    assert settle(BETS["perfect_pair"], 100, facts, VARIANT_B).payout == 20100


# --- property tests ---------------------------------------------------------------------------

CARDS = st.builds(Card, st.sampled_from(RANKS), st.sampled_from(SUITS))
HANDS = st.lists(CARDS, min_size=2, max_size=3)
TABLES = st.sampled_from([VARIANT_A, VARIANT_B])


def max_odds(table: PayTable) -> Fraction:
    return max(pay for _, pay in table.pays if isinstance(pay, Fraction))


@given(
    HANDS,
    HANDS,
    st.sampled_from(list(BETS.values())),
    st.integers(min_value=1, max_value=10**9),
    TABLES,
    st.sampled_from(list(RoundingPolicy)),
)
def test_settlement_invariants(player, banker, bet, stake, table, rounding):
    # Any logged cards, even a deal that broke the drawing rules, settle on the cards.
    facts = resolve_round(player, banker).facts
    settlement = settle(bet, stake, facts, table, rounding)
    assert type(settlement.payout) is int
    assert 0 <= settlement.payout <= stake * (1 + max_odds(table))
    exact = stake * resolve_bet(bet, facts, table).return_multiple()
    assert abs(settlement.payout - exact) < 1
    if rounding is RoundingPolicy.DOWN:
        assert settlement.payout <= exact
    if settlement.result is BetResult.PUSH:
        assert settlement.payout == stake
    elif settlement.result is BetResult.LOSE:
        assert settlement.payout == 0
    else:
        assert settlement.payout >= stake
        assert settlement.exact_win == stake * resolve_bet(bet, facts, table).odds


@given(HANDS, HANDS, st.integers(min_value=1, max_value=10**9))
def test_player_and_banker_push_together_and_never_both_win(player, banker, stake):
    outcome = resolve_round(player, banker)
    on_player = settle(BETS["player"], stake, outcome.facts, VARIANT_A)
    on_banker = settle(BETS["banker"], stake, outcome.facts, VARIANT_A)
    on_tie = settle(BETS["tie"], stake, outcome.facts, VARIANT_A)
    results = {on_player.result, on_banker.result}
    if outcome.winner is Winner.TIE:
        assert results == {BetResult.PUSH}
        assert on_tie.result is BetResult.WIN
    else:
        assert results == {BetResult.WIN, BetResult.LOSE}
        assert on_tie.result is BetResult.LOSE


def test_every_catalogue_bet_has_words_rows_and_a_settlement():
    """The catalogue is complete: a bet without a name, a sentence or rows fails here."""
    facts = resolve_round(parse_cards("9H KS"), parse_cards("5D 2C AH")).facts
    for bet in BETS.values():
        assert bet.name.msgid and bet.wins.msgid, bet.id
        assert bet.rows and all(row.says.msgid for row in bet.rows), bet.id
        assert not bet.own
        assert resolve_bet(bet, facts, VARIANT_A).result in BetResult
    assert Wording(msgid="Player").in_language("en") is None
    assert Wording(by_language=(("en", "Monkey 6"),)).in_language("en") == "Monkey 6"


def test_a_pay_table_s_odds_are_those_of_its_wins_only():
    table = PayTable.of([BETS["player_bonus"]])
    assert table.odds("bonus_margin_9") == 30
    assert table.get("bonus_natural_tie") is BetResult.PUSH
    assert table.odds("bonus_natural_tie") is None  # a push has no odds
    assert table.odds("tie") is None  # nor a key the table does not hold


def test_a_row_tells_the_values_it_allows_a_fact():
    row = PayRow((("winner", frozenset({"banker"})), ("margin", frozenset({8, 9}))), Fraction(1))
    assert row.condition("margin") == frozenset({8, 9})
    assert row.condition("winner") == frozenset({"banker"})
    assert row.condition("pairs") is None


def test_a_bet_whose_rows_read_no_fact_decides_every_round_alike():
    always = BetRule("always", BetGroup.SIDE, (PayRow((), Fraction(2)),))
    read = facts_read(always)
    assert read(PLAYER_NATURAL_WIN.facts) == read(TIE_7_7.facts) == ()
    assert settle(always, 100, TIE_7_7.facts, PayTable.of([always])).payout == 300


def test_a_side_bet_reads_the_main_result_exactly_when_its_words_name_one():
    """A sheet says its side bets are settled whatever the main result unless one of them
    wins only with a result (rulesheet_model.side_bets_read_the_result): the facts a side
    bet's rows read (``reads_the_result``) and the sentence it is declared with agree, for
    every side bet of the catalogue ("The Banker wins with a three-card 7": Dragon 7 loses on
    a tie; "The Player's first two cards are...": a pair wins whatever the result)."""
    side = [bet for bet in catalogue_bets().values() if bet.group is BetGroup.SIDE]
    for bet in side:
        words = bet.wins.msgid
        assert bet.reads_the_result == (" wins " in words or " a tie " in words), bet.id
    assert {bet.reads_the_result for bet in side} == {True, False}


def test_a_row_for_one_hand_beside_a_row_for_both_says_only_one():
    """Tiger Pair's page said "One hand starts with a pair. 4:1" beside "both hands paired
    20:1": with both hands paired, one hand does start with a pair, and a player could read
    both rows as paid. A row that counts one hand (``pairs = 1``), beside a row of the same
    bet that counts both, says only one (the bet pays one row a round)."""
    counted = {"pairs", "suited_pairs"}
    found = []
    for bet in catalogue_bets().values():
        for row in bet.rows:
            for name, values in row.when:
                others = [
                    other
                    for other in bet.rows
                    if other is not row and any(n == name and 2 in v for n, v in other.when)
                ]
                if name in counted and values == frozenset({1}) and others:
                    found.append((bet.id, row.says.msgid))
    assert {bet_id for bet_id, _ in found} >= {"perfect_pair", "tiger_pair"}
    assert all(said and said.startswith("Only one hand") for _, said in found), found
