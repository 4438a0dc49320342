"""Settlement of every bet of games.md on real dealt rounds, in integer cents."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reporting.engine.bets import (
    BONUS_MARGINS,
    BetResult,
    BetType,
    Facet,
    PayTable,
    refund,
    resolve_bet,
    settle,
)
from reporting.engine.cards import RANKS, SUITS, Card, parse_cards
from reporting.engine.money import RoundingPolicy
from reporting.engine.odds import PairFacts
from reporting.engine.rules import Outcome, Winner, resolve_round

DOWN, HALF_UP, HALF_EVEN = RoundingPolicy.DOWN, RoundingPolicy.HALF_UP, RoundingPolicy.HALF_EVEN
VARIANT_A = PayTable()  # perfect pair 25:1, one or both hands
VARIANT_B = PayTable(perfect_pair_both=Fraction(200))  # 25:1 one hand, 200:1 both


def deal(player: str, banker: str) -> Outcome:
    """A round from its logged cards; every round used here follows the drawing rules."""
    outcome = resolve_round(parse_cards(player), parse_cards(banker))
    assert outcome.follows_rules, outcome.breaches
    return outcome


def pay(bet: BetType, stake: int, outcome: Outcome, table=VARIANT_A, rounding=DOWN) -> int:
    return settle(bet, stake, outcome, table, rounding).payout


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
            BetType.PLAYER,
            PLAYER_NATURAL_WIN,
            5000,
            BetResult.WIN,
            "player_win",
            id="player-wins-1:1",
        ),
        pytest.param(
            BetType.PLAYER,
            PLAYER_WINS_6_CARDS,
            5000,
            BetResult.WIN,
            "player_win",
            id="player-wins-1:1-6-cards",
        ),
        pytest.param(
            BetType.PLAYER, BANKER_NATURAL_WIN, 0, BetResult.LOSE, "player_lose", id="player-loses"
        ),
        pytest.param(
            BetType.PLAYER, TIE_7_7, 2500, BetResult.PUSH, "player_tie_push", id="player-tie-push"
        ),
        pytest.param(
            BetType.PLAYER,
            NATURAL_TIE_9_9,
            2500,
            BetResult.PUSH,
            "player_tie_push",
            id="player-natural-tie-push",
        ),
        pytest.param(
            BetType.BANKER,
            BANKER_NATURAL_WIN,
            4875,
            BetResult.WIN,
            "banker_win",
            id="banker-wins-0.95:1",
        ),
        pytest.param(
            BetType.BANKER,
            BANKER_WINS_6_CARDS,
            4875,
            BetResult.WIN,
            "banker_win",
            id="banker-wins-0.95:1-6-cards",
        ),
        pytest.param(
            BetType.BANKER, PLAYER_NATURAL_WIN, 0, BetResult.LOSE, "banker_lose", id="banker-loses"
        ),
        pytest.param(
            BetType.BANKER, TIE_7_7, 2500, BetResult.PUSH, "banker_tie_push", id="banker-tie-push"
        ),
        pytest.param(BetType.TIE, TIE_7_7, 22500, BetResult.WIN, "tie_win", id="tie-wins-8:1"),
        pytest.param(
            BetType.TIE, NATURAL_TIE_8_8, 22500, BetResult.WIN, "tie_win", id="tie-wins-8:1-natural"
        ),
        pytest.param(
            BetType.TIE,
            PLAYER_NATURAL_WIN,
            0,
            BetResult.LOSE,
            "tie_lose",
            id="tie-loses-on-player-win",
        ),
        pytest.param(
            BetType.TIE,
            BANKER_WINS_6_CARDS,
            0,
            BetResult.LOSE,
            "tie_lose",
            id="tie-loses-on-banker-win",
        ),
    ],
)
def test_main_bets(bet, outcome, payout, result, row):
    settlement = settle(bet, 2500, outcome, VARIANT_A)
    assert settlement.bet_type is bet
    assert settlement.stake == 2500
    assert settlement.payout == payout
    assert settlement.result is result
    assert settlement.row == row


def test_round_log_example_banker_win_of_25_pays_48_75():
    # round-log.md: "48.75" for a 25.00 banker win
    assert pay(BetType.BANKER, 2500, BANKER_NATURAL_WIN) == 4875


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
    settlement = settle(BetType.BANKER, stake, BANKER_NATURAL_WIN, VARIANT_A, rounding)
    assert settlement.exact_win == stake * Fraction(19, 20)
    assert settlement.payout == expected[rounding]


def test_banker_commission_is_default_rounded_down():
    assert settle(BetType.BANKER, 1235, BANKER_NATURAL_WIN, VARIANT_A).payout == 2408
    assert settle(BetType.BANKER, 30, BANKER_NATURAL_WIN, VARIANT_A).payout == 58


# --- pair bets --------------------------------------------------------------------------------

PLAYER_KK_TIE = deal("KH KS 7D", "KD QC 7C")  # tie 7-7; Player K-K, Banker K-Q
BANKER_KK_TIE = deal("KH QS 7D", "KD KC 7C")  # tie 7-7; Player K-Q, Banker K-K
NO_PAIRS = deal("KH QH 7D", "KD QC 7C")  # K-Q of one suit is no pair
BOTH_PAIRS = deal("4H 4D", "2C 2S")  # Player natural 8 v 4
PLAYER_PERFECT = deal("KH KH 7D", "KD QC 7C")  # tie 7-7, Player KH KH
BANKER_PERFECT_PLAYER_PAIR = deal("4H 4D", "2C 2C")  # Player pair unsuited, Banker suited
BOTH_PERFECT = deal("4H 4H", "2C 2C")


def test_pair_rounds_are_what_their_names_say():
    assert PLAYER_KK_TIE.winner is Winner.TIE and PLAYER_KK_TIE.player_pair
    assert BANKER_KK_TIE.winner is Winner.TIE and BANKER_KK_TIE.banker_pair
    assert not NO_PAIRS.player_pair and not NO_PAIRS.banker_pair
    assert PLAYER_PERFECT.winner is Winner.TIE


@pytest.mark.parametrize(
    ("bet", "outcome", "payout", "row"),
    [
        pytest.param(
            BetType.PLAYER_PAIR,
            PLAYER_KK_TIE,
            1200,
            "player_pair_win",
            id="player_pair-K-K-wins-11:1-on-a-tie",
        ),
        pytest.param(
            BetType.PLAYER_PAIR, BANKER_KK_TIE, 0, "player_pair_lose", id="player_pair-K-Q-loses"
        ),
        pytest.param(
            BetType.PLAYER_PAIR, NO_PAIRS, 0, "player_pair_lose", id="player_pair-suited-K-Q-loses"
        ),
        pytest.param(
            BetType.PLAYER_PAIR, BOTH_PAIRS, 1200, "player_pair_win", id="player_pair-on-player-win"
        ),
        pytest.param(
            BetType.BANKER_PAIR,
            BANKER_KK_TIE,
            1200,
            "banker_pair_win",
            id="banker_pair-K-K-wins-11:1-on-a-tie",
        ),
        pytest.param(
            BetType.BANKER_PAIR, PLAYER_KK_TIE, 0, "banker_pair_lose", id="banker_pair-K-Q-loses"
        ),
        pytest.param(
            BetType.BANKER_PAIR,
            BOTH_PAIRS,
            1200,
            "banker_pair_win",
            id="banker_pair-wins-on-banker-loss",
        ),
        pytest.param(
            BetType.EITHER_PAIR,
            PLAYER_KK_TIE,
            600,
            "either_pair_win",
            id="either_pair-player-pair-5:1",
        ),
        pytest.param(
            BetType.EITHER_PAIR,
            BANKER_KK_TIE,
            600,
            "either_pair_win",
            id="either_pair-banker-pair-5:1",
        ),
        pytest.param(
            BetType.EITHER_PAIR,
            BOTH_PAIRS,
            600,
            "either_pair_win",
            id="either_pair-both-pairs-pays-once",
        ),
        pytest.param(
            BetType.EITHER_PAIR, NO_PAIRS, 0, "either_pair_lose", id="either_pair-no-pair-loses"
        ),
    ],
)
def test_pair_bets_settle_on_the_cards_whatever_the_main_result(bet, outcome, payout, row):
    settlement = settle(bet, 100, outcome, VARIANT_A)
    assert settlement.payout == payout
    assert settlement.row == row
    assert settlement.result is (BetResult.WIN if payout else BetResult.LOSE)


@pytest.mark.parametrize(
    ("outcome", "payout_a", "payout_b", "row"),
    [
        pytest.param(PLAYER_PERFECT, 2600, 2600, "perfect_pair_one_hand", id="one-hand-25"),
        pytest.param(
            BANKER_PERFECT_PLAYER_PAIR,
            2600,
            2600,
            "perfect_pair_one_hand",
            id="banker-suited-player-unsuited",
        ),
        pytest.param(
            BOTH_PERFECT, 2600, 20100, "perfect_pair_both_hands", id="both-hands-A-25-B-200"
        ),
        pytest.param(PLAYER_KK_TIE, 0, 0, "perfect_pair_lose", id="unsuited-pair-loses"),
        pytest.param(NO_PAIRS, 0, 0, "perfect_pair_lose", id="suited-K-Q-loses"),
    ],
)
def test_perfect_pair_variants(outcome, payout_a, payout_b, row):
    a = settle(BetType.PERFECT_PAIR, 100, outcome, VARIANT_A)
    b = settle(BetType.PERFECT_PAIR, 100, outcome, VARIANT_B)
    assert (a.payout, b.payout) == (payout_a, payout_b)
    assert a.row == b.row == row
    assert VARIANT_A.perfect_pair_variant == "A"
    assert VARIANT_B.perfect_pair_variant == "B"


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
            BetType.SMALL,
            FOUR_CARDS,
            1000,
            {DOWN: 2500, HALF_UP: 2500, HALF_EVEN: 2500},
            "small_win",
            id="small-4-cards-1.5:1",
        ),
        # 1.01 at 1.5:1 is 151.5 cents; the odd half goes to the even cent 152
        pytest.param(
            BetType.SMALL,
            FOUR_CARDS,
            101,
            {DOWN: 252, HALF_UP: 253, HALF_EVEN: 253},
            "small_win",
            id="small-odd-stake-151.5c",
        ),
        # 1.03 at 1.5:1 is 154.5 cents; half_even keeps 154
        pytest.param(
            BetType.SMALL,
            FOUR_CARDS,
            103,
            {DOWN: 257, HALF_UP: 258, HALF_EVEN: 257},
            "small_win",
            id="small-odd-stake-154.5c",
        ),
        pytest.param(
            BetType.SMALL,
            FIVE_CARDS,
            1000,
            {DOWN: 0, HALF_UP: 0, HALF_EVEN: 0},
            "small_lose",
            id="small-5-cards-loses",
        ),
        pytest.param(
            BetType.SMALL,
            SIX_CARDS,
            1000,
            {DOWN: 0, HALF_UP: 0, HALF_EVEN: 0},
            "small_lose",
            id="small-6-cards-loses",
        ),
        pytest.param(
            BetType.BIG,
            FIVE_CARDS,
            1000,
            {DOWN: 1540, HALF_UP: 1540, HALF_EVEN: 1540},
            "big_win",
            id="big-5-cards-0.54:1",
        ),
        pytest.param(
            BetType.BIG,
            SIX_CARDS,
            1000,
            {DOWN: 1540, HALF_UP: 1540, HALF_EVEN: 1540},
            "big_win",
            id="big-6-cards-0.54:1",
        ),
        # 1.01 at 0.54:1 is 54.54 cents
        pytest.param(
            BetType.BIG,
            SIX_CARDS,
            101,
            {DOWN: 155, HALF_UP: 156, HALF_EVEN: 156},
            "big_win",
            id="big-odd-stake-54.54c",
        ),
        # 0.25 at 0.54:1 is 13.5 cents; 0.75 is 40.5 cents
        pytest.param(
            BetType.BIG,
            FIVE_CARDS,
            25,
            {DOWN: 38, HALF_UP: 39, HALF_EVEN: 39},
            "big_win",
            id="big-stake-0.25-13.5c",
        ),
        pytest.param(
            BetType.BIG,
            FIVE_CARDS,
            75,
            {DOWN: 115, HALF_UP: 116, HALF_EVEN: 115},
            "big_win",
            id="big-stake-0.75-40.5c",
        ),
        pytest.param(
            BetType.BIG,
            FOUR_CARDS,
            1000,
            {DOWN: 0, HALF_UP: 0, HALF_EVEN: 0},
            "big_lose",
            id="big-4-cards-loses",
        ),
    ],
)
@pytest.mark.parametrize("rounding", list(RoundingPolicy), ids=str)
def test_small_and_big(bet, outcome, stake, expected, row, rounding):
    settlement = settle(bet, stake, outcome, VARIANT_A, rounding)
    assert settlement.payout == expected[rounding]
    assert settlement.row == row


def test_small_and_big_settle_on_a_tie():
    assert pay(BetType.BIG, 1000, TIE_7_7) == 1540
    assert pay(BetType.SMALL, 1000, NATURAL_TIE_9_9) == 2500


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
        (BetType.PLAYER_BONUS, PLAYER_NON_NATURAL_WIN_BY),
        (BetType.BANKER_BONUS, BANKER_NON_NATURAL_WIN_BY),
    ):
        for margin in range(9, 0, -1):
            odds = BONUS_ODDS.get(margin)
            if odds is None:
                yield pytest.param(
                    bet,
                    rounds[margin],
                    0,
                    BetResult.LOSE,
                    f"bonus_margin_{margin}_lose",
                    id=f"{bet}-non-natural-win-by-{margin}-loses",
                )
            else:
                yield pytest.param(
                    bet,
                    rounds[margin],
                    100 * (1 + odds),
                    BetResult.WIN,
                    f"bonus_margin_{margin}",
                    id=f"{bet}-non-natural-win-by-{margin}-pays-{odds}:1",
                )
    # The other rows of the bonus table: (bet, Player cards, Banker cards, row that applies).
    other_rows = [
        ("player_bonus", "9H KS", "7D KC", "bonus_natural_win"),  # natural 9 v 7
        ("player_bonus", "9H KS", "KD QC", "bonus_natural_win"),  # natural by 9 pays 1:1 only
        ("player_bonus", "9H KS", "8D KC", "bonus_natural_win"),  # natural 9 v natural 8
        ("banker_bonus", "2H 3S", "8D KC", "bonus_natural_win"),  # natural 8 v 5
        ("banker_bonus", "KH QS", "9D KC", "bonus_natural_win"),  # natural by 9
        ("player_bonus", "9H KS", "9D QC", "bonus_natural_tie_push"),  # 9-9
        ("banker_bonus", "9H KS", "9D QC", "bonus_natural_tie_push"),
        ("player_bonus", "6H 2S", "7D AC", "bonus_natural_tie_push"),  # 8-8
        ("banker_bonus", "6H 2S", "7D AC", "bonus_natural_tie_push"),
        ("player_bonus", "3H 4S", "KD QC 7D", "bonus_tie_lose"),  # 7-7 without naturals
        ("banker_bonus", "3H 4S", "KD QC 7D", "bonus_tie_lose"),
        ("player_bonus", "2H 3S", "8D KC", "bonus_lose"),  # loses to a natural
        ("player_bonus", "KH QS 5C", "KD QC 9S", "bonus_lose"),
        ("banker_bonus", "KH QS 9D", "KD QC KS", "bonus_lose"),  # loses by 9
        ("banker_bonus", "9H KS", "7D KC", "bonus_lose"),
    ]
    paid = {
        "bonus_natural_win": (200, BetResult.WIN),
        "bonus_natural_tie_push": (100, BetResult.PUSH),
        "bonus_tie_lose": (0, BetResult.LOSE),
        "bonus_lose": (0, BetResult.LOSE),
    }
    for bet, player, banker, row in other_rows:
        payout, result = paid[row]
        yield pytest.param(
            BetType(bet),
            deal(player, banker),
            payout,
            result,
            row,
            id=f"{bet}-{row}-{player}-v-{banker}".replace(" ", "."),
        )


@pytest.mark.parametrize(("bet", "outcome", "payout", "result", "row"), list(_bonus_cases()))
def test_bonus_table(bet, outcome, payout, result, row):
    settlement = settle(bet, 100, outcome, VARIANT_A)
    assert settlement.payout == payout
    assert settlement.result is result
    assert settlement.row == row


def test_bonus_margins_constant_matches_the_pay_table():
    assert BONUS_MARGINS == (9, 8, 7, 6, 5, 4)
    assert dict(PayTable().bonus_margins) == BONUS_ODDS
    assert [PayTable().bonus_odds(m) for m in (3, 2, 1, 0)] == [None] * 4


def test_bonus_natural_tie_can_lose_when_the_table_says_so():
    table = PayTable(bonus_natural_tie_push=False)
    assert settle(BetType.PLAYER_BONUS, 100, NATURAL_TIE_9_9, table).result is BetResult.LOSE


# --- the pay table, resolutions, facets -------------------------------------------------------


def test_default_pay_table_is_games_md():
    table = PayTable()
    assert table.player == 1
    assert table.banker == Fraction(95, 100)
    assert table.tie == 8
    assert table.player_pair == table.banker_pair == 11
    assert table.either_pair == 5
    assert table.perfect_pair_one == table.perfect_pair_both == 25
    assert table.small == Fraction(3, 2)
    assert table.big == Fraction(54, 100)
    assert table.bonus_natural_win == 1
    assert table.bonus_natural_tie_push is True


def test_bet_type_ids_are_the_round_log_ids():
    assert [bet.value for bet in BetType] == [
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
    ]


def test_facets_split_pair_bets_from_point_bets():
    pair_bets = {
        BetType.PLAYER_PAIR,
        BetType.BANKER_PAIR,
        BetType.EITHER_PAIR,
        BetType.PERFECT_PAIR,
    }
    for bet in BetType:
        assert bet.is_pair_bet is (bet in pair_bets)
        assert bet.facet is (Facet.PAIRS if bet in pair_bets else Facet.POINTS)


def test_resolution_return_multiple():
    win = resolve_bet(BetType.BANKER, BANKER_NATURAL_WIN, VARIANT_A)
    assert (win.result, win.odds, win.row) == (BetResult.WIN, Fraction(19, 20), "banker_win")
    assert win.return_multiple() == Fraction(39, 20)
    push = resolve_bet(BetType.BANKER, TIE_7_7, VARIANT_A)
    assert (push.result, push.odds, push.return_multiple()) == (BetResult.PUSH, 0, 1)
    lose = resolve_bet(BetType.BANKER, PLAYER_NATURAL_WIN, VARIANT_A)
    assert (lose.result, lose.odds, lose.return_multiple()) == (BetResult.LOSE, 0, 0)


# --- refunds and bad stakes -------------------------------------------------------------------


@pytest.mark.parametrize("bet", list(BetType), ids=str)
def test_refund_returns_the_stake(bet):
    settlement = refund(bet, 1235)
    assert settlement.payout == settlement.stake == 1235
    assert settlement.result is BetResult.PUSH
    assert settlement.row == "void_refund"
    assert settlement.exact_win == 0


@pytest.mark.parametrize(
    "stake", [25.0, 0.5, 0, -100, True, Decimal("25.00"), "2500", Fraction(5, 2)], ids=repr
)
def test_settle_refuses_float_and_non_positive_stakes(stake):
    with pytest.raises(ValueError, match="stake"):
        settle(BetType.PLAYER, stake, PLAYER_NATURAL_WIN, VARIANT_A)


def test_settle_accepts_pair_facts_for_pair_bets():
    # Settlement is a pure function of facts, whichever record carries them.
    facts = PairFacts(
        player_pair=True, banker_pair=True, player_suited_pair=True, banker_suited_pair=True
    )
    assert settle(BetType.PERFECT_PAIR, 100, facts, VARIANT_B).payout == 20100


# --- property tests ---------------------------------------------------------------------------

CARDS = st.builds(Card, st.sampled_from(RANKS), st.sampled_from(SUITS))
HANDS = st.lists(CARDS, min_size=2, max_size=3)
TABLES = st.sampled_from([VARIANT_A, VARIANT_B])


def max_odds(table: PayTable) -> Fraction:
    fixed = [
        table.player,
        table.banker,
        table.tie,
        table.player_pair,
        table.banker_pair,
        table.either_pair,
        table.perfect_pair_one,
        table.perfect_pair_both,
        table.small,
        table.big,
        table.bonus_natural_win,
    ]
    return max(fixed + [odds for _, odds in table.bonus_margins])


@given(
    HANDS,
    HANDS,
    st.sampled_from(list(BetType)),
    st.integers(min_value=1, max_value=10**9),
    TABLES,
    st.sampled_from(list(RoundingPolicy)),
)
def test_settlement_invariants(player, banker, bet, stake, table, rounding):
    # Any logged cards, even a deal that broke the drawing rules, settle on the cards.
    outcome = resolve_round(player, banker)
    settlement = settle(bet, stake, outcome, table, rounding)
    assert type(settlement.payout) is int
    assert 0 <= settlement.payout <= stake * (1 + max_odds(table))
    exact = stake * resolve_bet(bet, outcome, table).return_multiple()
    assert abs(settlement.payout - exact) < 1
    if rounding is RoundingPolicy.DOWN:
        assert settlement.payout <= exact
    if settlement.result is BetResult.PUSH:
        assert settlement.payout == stake
    elif settlement.result is BetResult.LOSE:
        assert settlement.payout == 0
    else:
        assert settlement.payout >= stake
        assert settlement.exact_win == stake * resolve_bet(bet, outcome, table).odds


@given(HANDS, HANDS, st.integers(min_value=1, max_value=10**9))
def test_player_and_banker_push_together_and_never_both_win(player, banker, stake):
    outcome = resolve_round(player, banker)
    on_player = settle(BetType.PLAYER, stake, outcome, VARIANT_A)
    on_banker = settle(BetType.BANKER, stake, outcome, VARIANT_A)
    on_tie = settle(BetType.TIE, stake, outcome, VARIANT_A)
    results = {on_player.result, on_banker.result}
    if outcome.winner is Winner.TIE:
        assert results == {BetResult.PUSH}
        assert on_tie.result is BetResult.WIN
    else:
        assert results == {BetResult.WIN, BetResult.LOSE}
        assert on_tie.result is BetResult.LOSE


def test_every_bet_type_has_a_family_and_a_settlement():
    """The bet-type table is complete: a new BetType without a family fails here, not later."""
    from reporting.engine.bets import BET_FAMILIES, BetFamily

    assert set(BET_FAMILIES) == set(BetType)
    facts = resolve_round(parse_cards("9H KS"), parse_cards("5D 2C AH"))
    for bet in BetType:
        assert isinstance(bet.family, BetFamily)
        assert resolve_bet(bet, facts, PayTable()).result in BetResult
