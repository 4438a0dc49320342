"""Exact odds of every bet, by combinatorial counting over a shoe of any composition.

No simulation: every probability is an exact :class:`~fractions.Fraction`.

A bet is decided on the :class:`~reporting.engine.facts.RoundFacts` of a round, and it reads
one or more groups of them (:class:`~reporting.engine.facts.FactGroup`). Three enumerators give
the exact distribution of the records, each counting only what its groups need:

* *points*: by point class (ten-valued cards are one class), the Player's and Banker's first two
  cards and every third card the rules call for;
* *pairs*: the ranks and suits of the first four cards;
* *all facts* (a bet that reads face cards, or points and pairs together): the ranks of the first
  four cards with their suits where a hand's pair needs them, then the third cards by points and
  face.

Each deal is weighted by the number of ordered card sequences that produce it, counted to a
common depth (six cards), so the weights of one distribution share one denominator: the number
of ordered six-card sequences of the shoe. A record's fields outside the groups counted are None.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache, lru_cache
from operator import attrgetter
from types import MappingProxyType

from reporting.engine.bets import BetResult, BetRule, PayTable, resolve_bet
from reporting.engine.cards import RANKS, SUITS
from reporting.engine.facts import FACE_RANKS, FactGroup, RoundFacts, pair_facts, point_facts
from reporting.engine.rules import banker_draws, player_draws

__all__ = [
    "BetOdds",
    "Distribution",
    "MOST_CARDS_DEALT",
    "RowReach",
    "Shoe",
    "bet_odds",
    "distribution",
    "main_probabilities",
    "return_covariances",
    "row_reach",
]

MIN_DECKS, MAX_DECKS = 1, 8
#: The most cards a deal takes: every sequence is counted to six; and a shoe of as many
#: decks holds as many of each card, so it deals every deal a larger shoe deals (a smaller
#: one may not: one deck, no suited pair).
MOST_CARDS_DEALT = 6


@dataclass(frozen=True, slots=True)
class Shoe:
    """How many copies of each card a shoe holds: ``copies[rank][suit]`` (ranks A..K, suits
    S H D C as in :mod:`reporting.engine.cards`)."""

    copies: tuple[tuple[int, ...], ...]

    @classmethod
    def of_decks(cls, decks: int) -> Shoe:
        """A shoe of ``decks`` standard decks (1 to 8)."""
        if (
            isinstance(decks, bool)
            or not isinstance(decks, int)
            or not MIN_DECKS <= decks <= MAX_DECKS
        ):
            raise ValueError(
                f"decks must be a whole number from {MIN_DECKS} to {MAX_DECKS}, got {decks!r}"
            )
        return cls(tuple((decks,) * len(SUITS) for _ in RANKS))

    @classmethod
    def of_cards(cls, codes: list[str]) -> Shoe:
        """A shoe holding exactly the given cards (canonical codes; for tests of small shoes)."""
        copies = [[0] * len(SUITS) for _ in RANKS]
        for code in codes:
            copies[RANKS.index(code[:-1])][SUITS.index(code[-1])] += 1
        return cls(tuple(tuple(row) for row in copies))

    @property
    def size(self) -> int:
        """The number of cards in the shoe."""
        return sum(map(sum, self.copies))

    @property
    def rank_counts(self) -> tuple[int, ...]:
        """Cards of each rank."""
        return tuple(map(sum, self.copies))


def _shoe(shoe: Shoe | int) -> Shoe:
    return shoe if isinstance(shoe, Shoe) else Shoe.of_decks(shoe)


def _falling(n: int, k: int) -> int:
    result = 1
    for i in range(k):
        result *= n - i
    return result


_POINTS = tuple(min(position + 1, 10) % 10 for position in range(len(RANKS)))
_FACE = tuple(rank in FACE_RANKS for rank in RANKS)


@dataclass(frozen=True, slots=True)
class Distribution:
    """Exact distribution: integer weights per fact record over one common total."""

    weights: tuple[tuple[RoundFacts, int], ...]
    total: int
    _by_facts: dict[RoundFacts, int] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_facts", dict(self.weights))

    def probability(self, facts: RoundFacts) -> Fraction:
        """Probability of one fact record."""
        return Fraction(self._by_facts.get(facts, 0), self.total)


def distribution(shoe: Shoe | int, groups: frozenset[FactGroup]) -> Distribution:
    """The exact distribution of the facts in ``groups`` (the cheapest enumerator that holds
    them) for a shoe, or a shoe of that many decks."""
    shoe = _shoe(shoe)
    if shoe.size < MOST_CARDS_DEALT:
        raise ValueError(f"a shoe of {shoe.size} cards cannot deal a round of six")
    if groups <= {FactGroup.POINTS}:
        return _point_distribution(shoe)
    if groups == {FactGroup.PAIRS}:
        return _pair_distribution(shoe)
    return _joint_distribution(shoe)


def _checked(weights: dict[RoundFacts, int], shoe: Shoe) -> Distribution:
    total = _falling(shoe.size, MOST_CARDS_DEALT)
    if sum(weights.values()) != total:  # pragma: no cover - an enumeration bug, not user input
        raise AssertionError("a distribution does not sum to the number of deals")
    return Distribution(tuple(weights.items()), total)


# --- points -----------------------------------------------------------------------------------


@lru_cache(maxsize=16)
def _point_distribution(shoe: Shoe) -> Distribution:
    counts = [0] * 10
    for rank, count in enumerate(shoe.rank_counts):
        counts[_POINTS[rank]] += count
    size = shoe.size
    # Unordered two-card holdings by point class, with the number of orders they come in.
    holdings = [(a, b, 1 if a == b else 2) for a in range(10) for b in range(a, 10)]
    tail = [
        _falling(size - depth, MOST_CARDS_DEALT - depth) for depth in range(MOST_CARDS_DEALT + 1)
    ]
    # The third cards' weights are products of the cards left of their classes, which the
    # four first cards lower by what they took of each: a polynomial in those takings. So the
    # four-card deals of each pair of two-card values are summed once, as moments: their weight,
    # their weight times the cards taken of each class, and of each two classes.
    moments: dict[tuple[int, int], _Moments] = {}
    for p1, p2, player_orders in holdings:
        w_player = counts[p1] * (counts[p2] - (p1 == p2)) * player_orders
        if w_player <= 0:
            continue
        counts[p1] -= 1
        counts[p2] -= 1
        for b1, b2, banker_orders in holdings:
            c1 = counts[b1]
            c2 = counts[b2] - (b1 == b2)
            if c1 <= 0 or c2 <= 0:
                continue
            values = ((p1 + p2) % 10, (b1 + b2) % 10)
            summed = moments.get(values)
            if summed is None:
                summed = moments[values] = _Moments()
            summed.add(w_player * c1 * c2 * banker_orders, (p1, p2, b1, b2))
        counts[p1] += 1
        counts[p2] += 1
    weights: dict[RoundFacts, int] = {}
    for (player_two, banker_two), summed in moments.items():
        for thirds, weight in _third_cards(summed, counts, player_two, banker_two, tail):
            if weight:
                facts = RoundFacts(**point_facts(player_two, banker_two, *thirds))
                weights[facts] = weight  # type: ignore[arg-type]
    return _checked(weights, shoe)


class _Moments:
    """Four-card deals summed: their weight (``zero``), their weight times the cards each took
    of a class (``one[x]``), and times the cards taken of two classes (``two[x][y]``)."""

    def __init__(self) -> None:
        self.zero = 0
        self.one = [0] * 10
        self.two = [[0] * 10 for _ in range(10)]

    def add(self, weight: int, taken: tuple[int, ...]) -> None:
        """One four-card deal of ``weight`` that took the classes ``taken``."""
        self.zero += weight
        for x in taken:
            self.one[x] += weight
            row = self.two[x]
            for y in taken:
                row[y] += weight

    def left(self, counts: list[int], x: int) -> int:
        """The sum over the deals of weight times the cards of class ``x`` left."""
        return counts[x] * self.zero - self.one[x]

    def left_two(self, counts: list[int], x: int, y: int) -> int:
        """The sum of weight times the cards of ``x`` left times those of ``y`` left after one
        of ``x`` is dealt."""
        # Expanded: the sum of weight * (counts[x] - taken[x]) * (after - taken[y]).
        after = counts[y] - (x == y)
        return (
            counts[x] * after * self.zero
            - after * self.one[x]
            - counts[x] * self.one[y]
            + self.two[x][y]
        )


def _third_cards(
    summed: _Moments, counts: list[int], player_two: int, banker_two: int, tail: list[int]
) -> list[tuple[tuple[int | None, int | None], int]]:
    """The third cards the rules call for after four cards of the two-card values given
    (``summed`` the four-card deals, ``counts`` the shoe's cards by class of points), as
    ((Player's third, Banker's third), weight), each deal padded to six cards."""
    if player_two >= 8 or banker_two >= 8:
        return [((None, None), summed.zero * tail[4])]
    deals = []
    if player_draws(player_two).draws:
        for p3 in range(10):
            if banker_draws(banker_two, p3).draws:
                for b3 in range(10):
                    deals.append(((p3, b3), summed.left_two(counts, p3, b3) * tail[6]))
            else:
                deals.append(((p3, None), summed.left(counts, p3) * tail[5]))
    elif banker_draws(banker_two, None).draws:
        for b3 in range(10):
            deals.append(((None, b3), summed.left(counts, b3) * tail[5]))
    else:
        deals.append(((None, None), summed.zero * tail[4]))
    return deals


# --- pairs ------------------------------------------------------------------------------------


@lru_cache(maxsize=16)
def _pair_distribution(shoe: Shoe) -> Distribution:
    faces = [count for rank in shoe.copies for count in rank]  # face = rank * 4 + suit
    weights: dict[RoundFacts, int] = defaultdict(int)
    uniform = len(set(faces)) == 1
    # In a shoe of whole decks every face is alike: the Player's first card is fixed to face 0
    # and the weight multiplied by the number of faces.
    firsts = [(0, faces[0] * len(faces))] if uniform else [(f, faces[f]) for f in range(52)]
    tail = _falling(sum(faces) - 4, MOST_CARDS_DEALT - 4)
    for first, first_weight in firsts:
        if first_weight <= 0:
            continue
        faces[first] -= 1
        for second in range(52):
            if faces[second] <= 0:
                continue
            weight = first_weight * faces[second] * tail
            faces[second] -= 1
            player_rank = first // 4 if first // 4 == second // 4 else None
            player = (player_rank is not None, first == second)
            remaining = sum(faces)
            not_paired = remaining * (remaining - 1)
            for rank in range(13):
                in_rank = faces[rank * 4 : rank * 4 + 4]
                suited = sum(n * (n - 1) for n in in_rank)
                total = sum(in_rank)
                paired = total * (total - 1)
                not_paired -= paired
                same = rank == player_rank
                if suited:
                    facts = _pairs_only(player, (True, True), same)
                    weights[facts] += weight * suited
                if paired - suited:
                    facts = _pairs_only(player, (True, False), same)
                    weights[facts] += weight * (paired - suited)
            if not_paired:
                weights[_pairs_only(player, (False, False), False)] += weight * not_paired
            faces[second] += 1
        faces[first] += 1
    return _checked(weights, shoe)


def _pairs_only(player: tuple[bool, bool], banker: tuple[bool, bool], same: bool) -> RoundFacts:
    return RoundFacts(**pair_facts(player, banker, same_rank=same))  # type: ignore[arg-type]


# --- every fact -------------------------------------------------------------------------------


@lru_cache(maxsize=8)
def _joint_distribution(shoe: Shoe) -> Distribution:
    # Third cards by what a fact can tell of them: points and whether a face card.
    classes = tuple(dict.fromkeys((_POINTS[rank], _FACE[rank]) for rank in range(13)))
    class_of = tuple(classes.index((_POINTS[rank], _FACE[rank])) for rank in range(13))
    first_four = _joint_first_four(shoe, class_of)
    by_deal = _joint_deals(shoe, first_four, classes, class_of)
    # A class of deals (the two-card values and third cards' points, the faces, the pairs) is
    # one record, and no other class has it: the records are built once, their parts once each.
    points = cache(point_facts)
    weights: dict[RoundFacts, int] = {}
    for key, weight in by_deal.items():
        player_two, banker_two, p3, b3, player_faces, banker_faces, (player, banker, same) = key
        facts = RoundFacts(
            **points(player_two, banker_two, p3, b3),
            **pair_facts(player, banker, same_rank=same),
            player_faces=player_faces,
            banker_faces=banker_faces,
        )  # type: ignore[arg-type]
        weights[facts] = weight
    return _checked(weights, shoe)


def _joint_first_four(shoe: Shoe, class_of: tuple[int, ...]) -> dict[tuple, dict[tuple, int]]:
    """The four first cards, by what the rest of the deal depends on (the two values and the
    classes of the cards they took from the shoe), then by their faces and pairs: weights."""
    counts = list(shoe.rank_counts)
    holdings = [(a, b, 1 if a == b else 2) for a in range(13) for b in range(a, 13)]
    split = _SuitSplit(shoe)
    first_four: dict[tuple, dict[tuple, int]] = defaultdict(lambda: defaultdict(int))
    for p1, p2, player_orders in holdings:
        w_player = counts[p1] * (counts[p2] - (p1 == p2)) * player_orders
        if w_player <= 0:
            continue
        counts[p1] -= 1
        counts[p2] -= 1
        player_two = (_POINTS[p1] + _POINTS[p2]) % 10
        for b1, b2, banker_orders in holdings:
            c1 = counts[b1]
            c2 = counts[b2] - (b1 == b2)
            if c1 <= 0 or c2 <= 0:
                continue
            w4 = w_player * c1 * c2 * banker_orders
            banker_two = (_POINTS[b1] + _POINTS[b2]) % 10
            taken = tuple(sorted((class_of[p1], class_of[p2], class_of[b1], class_of[b2])))
            by_faces = first_four[(player_two, banker_two, taken)]
            faces = (_FACE[p1] + _FACE[p2], _FACE[b1] + _FACE[b2])
            for pairs, pairs_weight in split.pairs(p1, p2, b1, b2, w4):
                by_faces[(*faces, pairs)] += pairs_weight
        counts[p1] += 1
        counts[p2] += 1
    return first_four


def _joint_deals(
    shoe: Shoe,
    first_four: dict[tuple, dict[tuple, int]],
    classes: tuple[tuple[int, bool], ...],
    class_of: tuple[int, ...],
) -> dict[tuple, int]:
    """Every deal's class (two-card values, third cards' points, faces, pairs) and weight: the
    third cards drawn once per class of four first cards."""
    class_counts = [0] * len(classes)
    for rank, count in enumerate(shoe.rank_counts):
        class_counts[class_of[rank]] += count
    tail = [
        _falling(shoe.size - depth, MOST_CARDS_DEALT - depth)
        for depth in range(MOST_CARDS_DEALT + 1)
    ]
    by_deal: dict[tuple, int] = defaultdict(int)
    for (player_two, banker_two, taken), by_faces in first_four.items():
        left = list(class_counts)
        for index in taken:
            left[index] -= 1
        thirds = _joint_thirds(
            [(*classes[index], count) for index, count in enumerate(left)],
            player_two,
            banker_two,
            tail,
        )
        for (player_faces, banker_faces, pairs), four_weight in by_faces.items():
            for p3, b3, p3_face, b3_face, third_weight in thirds:
                key = (
                    player_two,
                    banker_two,
                    p3,
                    b3,
                    player_faces + p3_face,
                    banker_faces + b3_face,
                    pairs,
                )
                by_deal[key] += four_weight * third_weight
    return by_deal


#: A third-card draw of the joint enumerator: (Player's third card's points, Banker's; the
#: face cards they add to each hand; the weight). A hand that stands has None and adds 0.
_JointThirds = list[tuple[int | None, int | None, int, int, int]]


def _joint_thirds(
    left: list[tuple[int, bool, int]], player_two: int, banker_two: int, tail: list[int]
) -> _JointThirds:
    """As :func:`_third_cards`, the third cards by (points, face) class: ``left`` holds each
    class's points, face and cards left in the shoe."""
    if player_two >= 8 or banker_two >= 8:
        return [(None, None, 0, 0, tail[4])]
    deals: _JointThirds = []
    if player_draws(player_two).draws:
        for index, (p3, p3_face, c3) in enumerate(left):
            if c3 <= 0:
                continue
            if banker_draws(banker_two, p3).draws:
                for other, (b3, b3_face, c4) in enumerate(left):
                    c4 -= other == index
                    if c4 > 0:
                        deals.append((p3, b3, p3_face, b3_face, c3 * c4 * tail[6]))
            else:
                deals.append((p3, None, p3_face, 0, c3 * tail[5]))
    elif banker_draws(banker_two, None).draws:
        for b3, b3_face, c4 in left:
            if c4 > 0:
                deals.append((None, b3, 0, b3_face, c4 * tail[5]))
    else:
        deals.append((None, None, 0, 0, tail[4]))
    return deals


class _SuitSplit:
    """Splits the weight of four first cards, counted by rank, by whether each hand's pair is
    of one suit: for each rank, the suits of the cards of that rank among the four are counted
    exactly from the shoe's copies."""

    def __init__(self, shoe: Shoe) -> None:
        self._copies = shoe.copies
        self._cache: dict[tuple[int, int, int], dict[tuple[bool | None, bool | None], int]] = {}

    def _rank_split(
        self, rank: int, player_held: int, banker_held: int
    ) -> dict[tuple[bool | None, bool | None], int]:
        """Ordered ways to give the cards of ``rank`` their suits, by (Player suited, Banker
        suited), the Player holding ``player_held`` of them first and the Banker ``banker_held``
        (a flag is None unless that hand holds two of the rank)."""
        key = (rank, player_held, banker_held)
        split = self._cache.get(key)
        if split is not None:
            return split
        split = defaultdict(int)
        copies = self._copies[rank]
        held = player_held + banker_held
        for suits in itertools.product(range(len(SUITS)), repeat=held):
            ways = 1
            for suit in set(suits):
                ways *= _falling(copies[suit], suits.count(suit))
            if not ways:
                continue
            player_suited = suits[0] == suits[1] if player_held == 2 else None
            banker_suited = (
                suits[player_held] == suits[player_held + 1] if banker_held == 2 else None
            )
            split[(player_suited, banker_suited)] += ways
        self._cache[key] = split = dict(split)
        return split

    def pairs(
        self, p1: int, p2: int, b1: int, b2: int, weight: int
    ) -> list[tuple[tuple[tuple[bool, bool], tuple[bool, bool], bool], int]]:
        """The pairs of four first cards of ranks ``p1 p2 b1 b2`` (the weight of the ranks,
        ``weight``, split by suits): each as the arguments of
        :func:`~reporting.engine.facts.pair_facts`, ((Player pair, suited), (Banker pair,
        suited), same rank), with its weight."""
        player_pair, banker_pair = p1 == p2, b1 == b2
        same = player_pair and banker_pair and p1 == b1
        if not player_pair and not banker_pair:
            return [(((False, False), (False, False), False), weight)]
        splits = []
        for rank in {p1 if player_pair else None, b1 if banker_pair else None} - {None}:
            player_held = (p1 == rank) + (p2 == rank)
            banker_held = (b1 == rank) + (b2 == rank)
            by_suits = self._rank_split(rank, player_held, banker_held)
            splits.append((sum(by_suits.values()), by_suits))
        combined: dict[tuple[bool, bool], int] = defaultdict(int)
        share = weight
        for total, _ in splits:
            share //= total
        for parts in itertools.product(*(split.items() for _, split in splits)):
            player_suited = banker_suited = False
            ways = share
            for (player_flag, banker_flag), count in parts:
                player_suited |= bool(player_flag)
                banker_suited |= bool(banker_flag)
                ways *= count
            combined[(player_suited, banker_suited)] += ways
        return [
            (((player_pair, player_suited), (banker_pair, banker_suited), same), ways)
            for (player_suited, banker_suited), ways in combined.items()
        ]


# --- the odds of a bet ------------------------------------------------------------------------


@lru_cache(maxsize=64)
def _projected(shoe: Shoe, groups: frozenset[FactGroup], names: frozenset[str]) -> tuple:
    """The distribution of ``groups`` summed over everything but the facts ``names``: one
    record of each class (a bet decides alike on every record of a class) and its weight."""
    full = distribution(shoe, groups)
    ordered = sorted(names)
    key_of = attrgetter(*ordered) if ordered else lambda facts: ()  # one C call a record
    classes: dict[object, list] = {}
    for facts, weight in full.weights:
        key = key_of(facts)
        entry = classes.get(key)
        if entry is None:
            classes[key] = [facts, weight]
        else:
            entry[1] += weight
    return tuple((facts, weight) for facts, weight in classes.values()), full.total


@dataclass(frozen=True, slots=True)
class BetOdds:
    """Exact probabilities and return of one bet under one pay table."""

    bet: str  # bet id, e.g. "banker", or "perfect_pair_b" for the B pay table
    win: Fraction
    push: Fraction
    lose: Fraction
    rtp: Fraction  # expected return per unit staked, stake included
    second_moment: Fraction  # expected square of the return per unit staked

    @property
    def house_edge(self) -> Fraction:
        """The share of stakes the house keeps in the long run."""
        return 1 - self.rtp

    @property
    def variance(self) -> Fraction:
        """Variance of the return of one unit staked (for statistical bounds on actual RTP)."""
        return self.second_moment - self.rtp * self.rtp


def bet_odds(bet: BetRule, shoe: Shoe | int, table: PayTable, bet_id: str | None = None) -> BetOdds:
    """Exact probabilities of win, push and loss, and the RTP, of one bet."""
    weights, total = _projected(_shoe(shoe), bet.fact_groups, bet.facts)
    totals = {result: 0 for result in BetResult}
    returned = Fraction(0)
    returned_squared = Fraction(0)
    for facts, weight in weights:
        resolution = resolve_bet(bet, facts, table)
        totals[resolution.result] += weight
        multiple = resolution.return_multiple()
        returned += weight * multiple
        returned_squared += weight * multiple * multiple
    return BetOdds(
        bet=bet_id or bet.id,
        win=Fraction(totals[BetResult.WIN], total),
        push=Fraction(totals[BetResult.PUSH], total),
        lose=Fraction(totals[BetResult.LOSE], total),
        rtp=returned / total,
        second_moment=returned_squared / total,
    )


@lru_cache(maxsize=32)
def return_covariances(
    bets: tuple[BetRule, ...], shoe: Shoe | int, table: PayTable
) -> Mapping[tuple[str, str], Fraction]:
    """The covariance of the returns of one unit staked on each two of ``bets`` in one round,
    by their ids (both orders, and each bet with itself: its variance). Bets on one round are
    settled on the same cards: a Player's and a Banker's returns move against each other, and
    two stakes on one bet win or lose together, so the spread of a round's return is read from
    these, not from the bets' variances alone. Cached (a read-only mapping, shared)."""
    return _return_covariances(bets, shoe, table)


def _return_covariances(
    bets: tuple[BetRule, ...], shoe: Shoe | int, table: PayTable
) -> Mapping[tuple[str, str], Fraction]:
    # Apart from its cache, so that mutation testing reaches it (a decorated function is not
    # mutated).
    groups = frozenset().union(*(bet.fact_groups for bet in bets))
    names = frozenset().union(*(bet.facts for bet in bets))
    weights, total = _projected(_shoe(shoe), groups, names)
    # The deals by what they return on each bet: far fewer than the deals, and each counted once.
    by_returns: dict[tuple[Fraction, ...], int] = defaultdict(int)
    for facts, weight in weights:
        by_returns[tuple(resolve_bet(bet, facts, table).return_multiple() for bet in bets)] += (
            weight
        )
    means = [Fraction(0)] * len(bets)
    products = [[Fraction(0)] * len(bets) for _ in bets]
    for returns, weight in by_returns.items():
        for i, first in enumerate(returns):
            means[i] += weight * first
            row = products[i]
            for j in range(i, len(bets)):
                row[j] += weight * first * returns[j]
    means = [mean / total for mean in means]
    covariances = {}
    for i, first in enumerate(bets):
        for j in range(i, len(bets)):
            value = products[i][j] / total - means[i] * means[j]
            covariances[(first.id, bets[j].id)] = covariances[(bets[j].id, first.id)] = value
    return MappingProxyType(covariances)  # cached: every caller shares it, none may change it


@dataclass(frozen=True, slots=True)
class RowReach:
    """How often one row of a bet applies: its conditions hold, and it is the first that does
    (it decides the bet); ``taken_by`` the earlier rows that decide on deals it holds on."""

    holds: Fraction
    decides: Fraction
    taken_by: tuple[int, ...]  # row numbers, from 1


def row_reach(bet: BetRule, shoe: Shoe | int) -> tuple[RowReach, ...]:
    """For each row of ``bet``, in order, the exact probability that it holds and that it
    decides: a row that never holds asks for facts no deal has together, a row that holds but
    never decides is taken by the rows before it."""
    weights, total = _projected(_shoe(shoe), bet.fact_groups, bet.facts)
    holds = [0] * len(bet.rows)
    decides = [0] * len(bet.rows)
    taken_by: list[set[int]] = [set() for _ in bet.rows]
    for facts, weight in weights:
        first = None
        for index, row in enumerate(bet.rows):
            if row.holds(facts):
                holds[index] += weight
                if first is None:
                    first = index
                    decides[index] += weight
                else:
                    taken_by[index].add(first + 1)
    return tuple(
        RowReach(Fraction(held, total), Fraction(decided, total), tuple(sorted(taken)))
        for held, decided, taken in zip(holds, decides, taken_by, strict=True)
    )


def main_probabilities(shoe: Shoe | int) -> dict[str, Fraction]:
    """Exact probabilities that the Banker wins, the Player wins, or the hands tie."""
    weights, total = _projected(_shoe(shoe), frozenset({FactGroup.POINTS}), frozenset({"winner"}))
    totals = {"banker": 0, "player": 0, "tie": 0}
    for facts, weight in weights:
        totals[facts.winner] += weight
    return {name: Fraction(weight, total) for name, weight in totals.items()}
