"""An independent exact odds calculator for baccarat bets, written from the spec alone.

Independent of the ``reporting`` package (standard library only): the judge of the engine's
figures. Two exact counts, each an enumeration of ordered deals weighted by the cards left:

- the *points* of a round (every bet decided by the hands' totals and card counts): the deal
  card by card over the 13 ranks (P1, B1, P2, B2 by rank, the weight of a rank being the copies
  of it still in the shoe), the four-card deals gathered by what the rest of the deal depends
  on (the two totals and the cards left, rank by rank), then the third cards over the 13 ranks
  of what is left. Every ordered deal of six cards counts once: the weights add up to
  ``N (N-1) ... (N-5)``.
- the *pairs* of a round (pair bets: the first two cards of each hand): the four first cards
  dealt card by card over card *types* (rank and suit), a type named by the order it first
  appears in (a new type of a rank already seen, or of a new rank), with its number of copies
  left. The weights add up to ``N (N-1) (N-2) (N-3)``.

RTP is the expected return per unit staked, stake included: a win returns ``1 + odds``, a push
returns 1, a loss 0. Pays are "to 1", keyed as the spec's pay keys (variants.md) and bets
(games.md); :data:`DEFAULT_PAYS` holds the defaults.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from fractions import Fraction
from functools import cache

__all__ = [
    "BETS",
    "DEFAULT_PAYS",
    "PAIR_BETS",
    "POINT_BETS",
    "Points",
    "normalise_pays",
    "pair_distribution",
    "pair_return",
    "points_distribution",
    "points_return",
    "rtp",
    "rtp_of_pairs",
    "rtp_of_points",
    "shoe_ranks",
]

#: The point value of each rank, ``A 2 ... 9 10 J Q K``.
RANK_VALUES: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0)

#: Default odds, "to 1", by pay key (games.md's standard table, variants.md's defaults).
DEFAULT_PAYS: dict[str, Fraction] = {
    "player": Fraction(1),
    "banker": Fraction(19, 20),
    "tie": Fraction(8),
    "player_pair": Fraction(11),
    "banker_pair": Fraction(11),
    "either_pair": Fraction(5),
    "perfect_pair_one": Fraction(25),
    "perfect_pair_both": Fraction(25),
    "small": Fraction(3, 2),
    "big": Fraction(27, 50),
    "bonus_natural_win": Fraction(1),
    "bonus_margin_9": Fraction(30),
    "bonus_margin_8": Fraction(10),
    "bonus_margin_7": Fraction(6),
    "bonus_margin_6": Fraction(4),
    "bonus_margin_5": Fraction(2),
    "bonus_margin_4": Fraction(1),
    "banker_no_commission": Fraction(1),
    "banker_no_commission_six": Fraction(1, 2),
    "banker_ez": Fraction(1),
    "super_6": Fraction(12),
    "lucky_6_two_cards": Fraction(12),
    "lucky_6_three_cards": Fraction(20),
    "dragon_7": Fraction(40),
    "panda_8": Fraction(25),
    "ox_6": Fraction(40),
    "tiger_two_cards": Fraction(12),
    "tiger_three_cards": Fraction(20),
    "small_tiger": Fraction(22),
    "big_tiger": Fraction(50),
    "tiger_tie": Fraction(35),
    "tiger_pair_single": Fraction(4),
    "tiger_pair_double": Fraction(20),
    "tiger_pair_twin": Fraction(100),
}

#: Bets decided by the hands' totals and card counts.
POINT_BETS: tuple[str, ...] = (
    "player",
    "banker",
    "tie",
    "small",
    "big",
    "player_bonus",
    "banker_bonus",
    "banker_no_commission",
    "banker_ez",
    "super_6",
    "lucky_6",
    "dragon_7",
    "panda_8",
    "ox_6",
    "tiger",
    "small_tiger",
    "big_tiger",
    "tiger_tie",
)
#: Bets decided by the first two cards of each hand.
PAIR_BETS: tuple[str, ...] = (
    "player_pair",
    "banker_pair",
    "either_pair",
    "perfect_pair",
    "tiger_pair",
)
#: Every bet the calculator knows.
BETS: tuple[str, ...] = POINT_BETS + PAIR_BETS

#: A round's points: (player total, banker total, player cards, banker cards).
Points = tuple[int, int, int, int]


def normalise_pays(pays: Mapping[str, object] | None) -> dict[str, Fraction]:
    """The default pays with ``pays`` laid over them, every odds a Fraction (``"1/2"``,
    ``"0.6"``, ``12`` and Fractions are read alike). An unknown key is an error."""
    merged = dict(DEFAULT_PAYS)
    for key, value in (pays or {}).items():
        if key not in DEFAULT_PAYS:
            raise KeyError(f"unknown pay key {key!r}")
        merged[key] = Fraction(str(value)) if not isinstance(value, Fraction) else value
    return merged


def shoe_ranks(decks: int) -> tuple[int, ...]:
    """The copies of each rank (A..K) in a shoe of ``decks`` decks."""
    return (4 * decks,) * 13


# --- the points of a round ------------------------------------------------------------------


def _banker_draws(banker: int, player_third: int | None) -> bool:
    """The banker's drawing rule (games.md), given the player's third card's points or None
    when the player stood."""
    if player_third is None:
        return banker <= 5
    if banker <= 2:
        return True
    if banker == 3:
        return player_third != 8
    if banker == 4:
        return 2 <= player_third <= 7
    if banker == 5:
        return 4 <= player_third <= 7
    if banker == 6:
        return player_third in (6, 7)
    return False


def _third_cards(player: int, banker: int, counts: tuple[int, ...]) -> dict[Points, int]:
    """The rest of the deal after the first four cards (totals ``player``, ``banker``), with
    ``counts`` copies of each rank left: each final outcome and its number of ordered ways to
    draw the next two cards of the shoe (those not drawn count too, so that every branch
    weighs ``N (N-1)`` in all)."""
    left = sum(counts)
    whole = left * (left - 1)
    if player >= 8 or banker >= 8:
        return {(player, banker, 2, 2): whole}
    outcomes: dict[Points, int] = defaultdict(int)
    if player >= 6:  # the player stands
        if not _banker_draws(banker, None):
            return {(player, banker, 2, 2): whole}
        for rank, copies in enumerate(counts):
            if copies:
                final = (player, (banker + RANK_VALUES[rank]) % 10, 2, 3)
                outcomes[final] += copies * (left - 1)
        return outcomes
    for rank, copies in enumerate(counts):
        if not copies:
            continue
        third = RANK_VALUES[rank]
        final_player = (player + third) % 10
        if not _banker_draws(banker, third):
            outcomes[(final_player, banker, 3, 2)] += copies * (left - 1)
            continue
        for banker_rank, banker_copies in enumerate(counts):
            banker_copies -= banker_rank == rank
            if banker_copies:
                final = (final_player, (banker + RANK_VALUES[banker_rank]) % 10, 3, 3)
                outcomes[final] += copies * banker_copies
    return outcomes


@cache
def points_distribution(rank_counts: tuple[int, ...]) -> tuple[dict[Points, int], int]:
    """Every final outcome of a round dealt from a shoe holding ``rank_counts`` copies of each
    rank (A..K, 13 entries), with its number of ordered six-card deals; and their total
    ``N (N-1) ... (N-5)``. The shoe must hold at least six cards."""
    counts = list(rank_counts)
    size = sum(counts)
    if len(counts) != 13 or size < 6:
        raise ValueError("a shoe is 13 rank counts holding at least six cards")
    # The four first cards, rank by rank, gathered by what the rest of the deal reads.
    openings: dict[tuple[int, int, tuple[int, ...]], int] = defaultdict(int)
    for p1 in range(13):
        w1 = counts[p1]
        if not w1:
            continue
        counts[p1] -= 1
        for b1 in range(13):
            w2 = w1 * counts[b1]
            if not w2:
                continue
            counts[b1] -= 1
            for p2 in range(13):
                w3 = w2 * counts[p2]
                if not w3:
                    continue
                counts[p2] -= 1
                player = (RANK_VALUES[p1] + RANK_VALUES[p2]) % 10
                for b2 in range(13):
                    w4 = w3 * counts[b2]
                    if not w4:
                        continue
                    counts[b2] -= 1
                    banker = (RANK_VALUES[b1] + RANK_VALUES[b2]) % 10
                    openings[(player, banker, tuple(counts))] += w4
                    counts[b2] += 1
                counts[p2] += 1
            counts[b1] += 1
        counts[p1] += 1
    outcomes: dict[Points, int] = defaultdict(int)
    for (player, banker, left), weight in openings.items():
        for final, ways in _third_cards(player, banker, left).items():
            outcomes[final] += weight * ways
    total = 1
    for taken in range(6):
        total *= size - taken
    assert sum(outcomes.values()) == total
    return dict(outcomes), total


def _bonus_return(side: int, other: int, side_cards: int, other_cards: int, pays) -> Fraction:
    """The bonus bet on the side whose total is ``side`` (bonus table, games.md)."""
    side_natural = side_cards == 2 and side >= 8
    other_natural = other_cards == 2 and other >= 8
    if side == other:
        return Fraction(1) if side_natural and other_natural else Fraction(0)
    if side < other:
        return Fraction(0)
    if side_natural:
        return 1 + pays["bonus_natural_win"]
    margin = side - other
    return 1 + pays[f"bonus_margin_{margin}"] if margin >= 4 else Fraction(0)


def _banker_side_return(bet: str, banker: int, banker_cards: int, pays) -> Fraction:
    """A banker-side bet won by the banker (final total ``banker`` on ``banker_cards`` cards)."""
    two = banker_cards == 2
    odds: Fraction | None = None
    if bet == "banker":
        odds = pays["banker"]
    elif bet == "banker_no_commission":
        odds = pays["banker_no_commission_six" if banker == 6 else "banker_no_commission"]
    elif bet == "banker_ez":
        if banker == 7 and not two:
            return Fraction(1)  # a three-card 7 pushes
        odds = pays["banker_ez"]
    elif banker == 6 and bet == "super_6":
        odds = pays["super_6"]
    elif banker == 6 and bet in ("lucky_6", "tiger"):
        odds = pays[f"{bet}_two_cards" if two else f"{bet}_three_cards"]
    elif banker == 6 and (bet, two) in (("small_tiger", True), ("big_tiger", False)):
        odds = pays[bet]
    elif banker == 7 and not two and bet == "dragon_7":
        odds = pays["dragon_7"]
    return Fraction(0) if odds is None else 1 + odds


#: Bets that return the stake on a tie.
_PUSH_ON_TIE = ("player", "banker", "banker_no_commission", "banker_ez")


def points_return(bet: str, points: Points, pays: Mapping[str, Fraction]) -> Fraction:
    """What one unit on ``bet`` returns, stake included, on a round ending with ``points``
    (player total, banker total, player cards, banker cards), with the odds ``pays``."""
    player, banker, player_cards, banker_cards = points
    cards = player_cards + banker_cards
    if bet == "small":
        return 1 + pays["small"] if cards == 4 else Fraction(0)
    if bet == "big":
        return 1 + pays["big"] if cards >= 5 else Fraction(0)
    if bet == "player_bonus":
        return _bonus_return(player, banker, player_cards, banker_cards, pays)
    if bet == "banker_bonus":
        return _bonus_return(banker, player, banker_cards, player_cards, pays)
    if player == banker:
        if bet == "tie":
            return 1 + pays["tie"]
        if bet == "tiger_tie" and player == 6:
            return 1 + pays["tiger_tie"]
        return Fraction(1) if bet in _PUSH_ON_TIE else Fraction(0)
    if player > banker:
        if bet == "player":
            return 1 + pays["player"]
        if player_cards == 3 and (bet, player) in (("panda_8", 8), ("ox_6", 6)):
            return 1 + pays[bet]
        return Fraction(0)
    return _banker_side_return(bet, banker, banker_cards, pays)


def rtp_of_points(bet: str, rank_counts: tuple[int, ...], pays: Mapping[str, Fraction]) -> Fraction:
    """The exact RTP of a points bet dealt from a shoe of ``rank_counts`` (A..K)."""
    outcomes, total = points_distribution(tuple(rank_counts))
    by_return: dict[Fraction, int] = defaultdict(int)
    for points, ways in outcomes.items():
        by_return[points_return(bet, points, pays)] += ways
    return sum((value * ways for value, ways in by_return.items()), Fraction(0)) / total


# --- the pairs of a round -------------------------------------------------------------------

#: The first two cards of each hand: (player pair, banker pair, player suited pair, banker
#: suited pair, both pairs of one rank).
Pairs = tuple[bool, bool, bool, bool, bool]


@cache
def pair_distribution(copies: int, ranks: int = 13, suits: int = 4) -> tuple[dict[Pairs, int], int]:
    """The pairs of the first four cards (P1, B1, P2, B2) of a shoe holding ``copies`` of each
    of ``ranks * suits`` card types, with their number of ordered deals; and their total
    ``N (N-1) (N-2) (N-3)``."""
    size = copies * ranks * suits
    outcomes: dict[Pairs, int] = defaultdict(int)

    def deal(cards: tuple[tuple[int, int], ...], weight: int) -> None:
        if len(cards) == 4:
            p1, b1, p2, b2 = cards
            player_pair, banker_pair = p1[0] == p2[0], b1[0] == b2[0]
            same_rank = player_pair and banker_pair and p1[0] == b1[0]
            outcomes[(player_pair, banker_pair, p1 == p2, b1 == b2, same_rank)] += weight
            return
        seen_ranks = {rank for rank, _ in cards}
        for card in set(cards):  # another copy of a type already dealt
            left = copies - cards.count(card)
            if left:
                deal((*cards, card), weight * left)
        for rank in seen_ranks:  # a type not dealt yet, of a rank already dealt
            seen_suits = len({suit for r, suit in cards if r == rank})
            if seen_suits < suits:
                deal((*cards, (rank, seen_suits)), weight * (suits - seen_suits) * copies)
        if len(seen_ranks) < ranks:  # a rank not dealt yet
            new = (len(seen_ranks), 0)
            deal((*cards, new), weight * (ranks - len(seen_ranks)) * suits * copies)

    deal((), 1)
    total = size * (size - 1) * (size - 2) * (size - 3)
    assert sum(outcomes.values()) == total
    return dict(outcomes), total


def pair_return(bet: str, pairs: Pairs, pays: Mapping[str, Fraction]) -> Fraction:
    """What one unit on the pair bet ``bet`` returns, stake included, given the ``pairs`` of
    the first four cards."""
    player_pair, banker_pair, player_suited, banker_suited, same_rank = pairs
    odds: Fraction | None = None
    if bet == "player_pair" and player_pair:
        odds = pays["player_pair"]
    elif bet == "banker_pair" and banker_pair:
        odds = pays["banker_pair"]
    elif bet == "either_pair" and (player_pair or banker_pair):
        odds = pays["either_pair"]
    elif bet == "perfect_pair" and (player_suited or banker_suited):
        both = player_suited and banker_suited
        odds = pays["perfect_pair_both" if both else "perfect_pair_one"]
    elif bet == "tiger_pair" and (player_pair or banker_pair):
        if not (player_pair and banker_pair):
            odds = pays["tiger_pair_single"]
        else:
            odds = pays["tiger_pair_twin" if same_rank else "tiger_pair_double"]
    return Fraction(0) if odds is None else 1 + odds


def rtp_of_pairs(
    bet: str, copies: int, pays: Mapping[str, Fraction], ranks: int = 13, suits: int = 4
) -> Fraction:
    """The exact RTP of a pair bet dealt from a shoe of ``copies`` of each card type."""
    outcomes, total = pair_distribution(copies, ranks, suits)
    value = sum((pair_return(bet, p, pays) * w for p, w in outcomes.items()), Fraction(0))
    return value / total


# --- the calculator -------------------------------------------------------------------------


def rtp(bet: str, decks: int, pays: Mapping[str, object] | None = None) -> Fraction:
    """The exact RTP of ``bet`` in a shoe of ``decks`` decks (1-8): the expected return per
    unit staked, stake included. ``pays`` overrides default odds by pay key, e.g.
    ``{"banker_no_commission_six": "0.6", "perfect_pair_both": "250"}``."""
    if not 1 <= decks <= 8:
        raise ValueError(f"decks must be 1-8, not {decks}")
    merged = normalise_pays(pays)
    if bet in POINT_BETS:
        return rtp_of_points(bet, shoe_ranks(decks), merged)
    if bet in PAIR_BETS:
        return rtp_of_pairs(bet, decks, merged)
    raise KeyError(f"unknown bet {bet!r}")
