"""The facts record (issue 22, point 1): one record of a round's facts, many readers.

For every legal deal of a small shoe, dealt card by card:

- the exact odds' enumerators weigh each combination of facts as a count of the card sequences
  does (the counts are integers: both sides count ordered six-card sequences);
- settling a bet from the record (:func:`resolve_bet` on :func:`facts_of`) decides as a
  reference written here from the cards and the spec (games.md, variants.md);
- the readers that cache or count on the record (verify's settlement cache, the sample
  generator's, the odds of a bet) tell apart any two deals that differ in one fact: a reader
  that keys on a hand-typed tuple missing a fact settles one deal on another's decision.

The shoes are small enough to deal every ordered sequence of their cards (10 cards: 151,200
sequences of six) and hold what the facts need: a suited duplicate (two AS), other cards of a
rank in other suits (four aces: twin pairs), J/Q/K and 10s, naturals and three-card hands.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections import Counter
from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import cache

import pytest

from reporting.config.bets import catalogue_bets
from reporting.config.loader import load_catalogue
from reporting.engine.bets import BetGroup, BetResult, BetRule, PayRow, PayTable, resolve_bet
from reporting.engine.cards import RANKS, SUITS, Card, parse_cards
from reporting.engine.facts import FACTS, FactGroup, RoundFacts, facts_of
from reporting.engine.games import GameSpec, StakeLimits
from reporting.engine.odds import Shoe, bet_odds, distribution
from reporting.engine.rules import deal_round, resolve_round

#: The shoes, as card codes: each dealt in every order.
SHOES = {
    # Suited duplicates (AS AS, KS KS), four aces (twin pairs), courts, naturals (9 K, 8 A).
    "aces-and-courts": ["AS", "AS", "AH", "AD", "KS", "KS", "QC", "JH", "9D", "8C"],
    # Three-card hands of every kind: sixes, sevens and eights made with a third card, a 10.
    "draws": ["2H", "3S", "4D", "4C", "5C", "6S", "7H", "10C", "JS", "QD"],
}
GROUP_SETS = {
    "points": frozenset({FactGroup.POINTS}),
    "pairs": frozenset({FactGroup.PAIRS}),
    "every-fact": frozenset({FactGroup.POINTS, FactGroup.PAIRS, FactGroup.FACES}),
}


@cache
def dealt(shoe: str) -> Counter:
    """Every ordered six-card sequence of the shoe's cards (each card instance apart, so the
    two AS count twice), dealt by the rules: how many sequences give each deal."""
    deals: Counter = Counter()
    for sequence in itertools.permutations(parse_cards(SHOES[shoe]), 6):
        deals[deal_round(iter(sequence))] += 1
    return deals


@cache
def facts_of_deals(shoe: str) -> dict[tuple, RoundFacts]:
    """The record of each deal of the shoe, from its cards."""
    return {(player, banker): facts_of(player, banker) for player, banker in dealt(shoe)}


@cache
def counted_facts(shoe: str) -> Counter:
    """The number of card sequences behind each facts record, from the cards."""
    counts: Counter = Counter()
    records = facts_of_deals(shoe)
    for deal, sequences in dealt(shoe).items():
        counts[records[deal]] += sequences
    return counts


def fields_of(groups: frozenset[FactGroup]) -> frozenset[str]:
    return frozenset(name for name, fact in FACTS.items() if fact.group in groups)


def projected(counts: Counter | dict, fields: frozenset[str]) -> Counter:
    """The records with every field outside ``fields`` set to None, their counts summed."""
    others = {name: None for name in FACTS if name not in fields}
    result: Counter = Counter()
    for facts, weight in counts.items():
        result[dataclasses.replace(facts, **others)] += weight
    return result


def test_the_vocabulary_is_the_record():
    """Every field of the record is a fact a bet may name, and the reverse."""
    assert set(FACTS) == {field.name for field in dataclasses.fields(RoundFacts)}


@pytest.mark.parametrize("shoe", SHOES)
def test_the_shoes_deal_what_the_facts_need(shoe):
    # Not a vacuous count: the shoes reach naturals, three-card hands on both sides, pairs,
    # suited pairs and faces.
    facts = counted_facts(shoe)
    assert sum(facts.values()) == 10 * 9 * 8 * 7 * 6 * 5
    for name in ("player_cards", "banker_cards", "cards_dealt", "winner", "player_faces"):
        assert len({getattr(record, name) for record in facts}) >= 2, name
    if shoe == "aces-and-courts":
        assert any(record.twin_pairs for record in facts)
        assert any(record.suited_pairs == 2 for record in facts)
        assert any(record.player_natural and record.banker_natural for record in facts)


@pytest.mark.parametrize("shoe", SHOES)
@pytest.mark.parametrize("groups", GROUP_SETS.values(), ids=GROUP_SETS)
def test_the_enumerator_weighs_each_fact_combination_as_a_card_by_card_count(shoe, groups):
    exact = distribution(Shoe.of_cards(SHOES[shoe]), groups)
    assert exact.total == 10 * 9 * 8 * 7 * 6 * 5
    assert dict(exact.weights) == projected(counted_facts(shoe), fields_of(groups))


@pytest.mark.parametrize("shoe", SHOES)
@pytest.mark.parametrize(
    "groups",
    [frozenset(groups) for size in (1, 2, 3) for groups in itertools.combinations(FactGroup, size)],
    ids=lambda groups: "+".join(sorted(group.value for group in groups)),
)
def test_any_groups_counted_hold_the_card_by_card_count_of_their_facts(shoe, groups):
    # The enumerator may count more facts than asked (the cheapest that holds them): summed
    # over the others, its weights are still the count of the cards.
    exact = distribution(Shoe.of_cards(SHOES[shoe]), groups)
    fields = fields_of(groups)
    assert projected(dict(exact.weights), fields) == projected(counted_facts(shoe), fields)


# --- settling from the record equals settling from the cards --------------------------------

_POINTS = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9}


def _value(cards: Sequence[Card]) -> int:
    return sum(_POINTS.get(card.rank, 0) for card in cards) % 10


class Deal:
    """A deal as the spec reads it, from its cards alone (nothing of the engine's facts)."""

    __slots__ = ("banker", "b", "p", "player")

    def __init__(self, player: tuple[Card, ...], banker: tuple[Card, ...]):
        self.player, self.banker = player, banker
        self.p, self.b = _value(player), _value(banker)  # the hands' final values

    @staticmethod
    def natural(hand: Sequence[Card]) -> bool:
        return _value(hand[:2]) >= 8

    @staticmethod
    def pair(hand: Sequence[Card]) -> bool:
        return hand[0].rank == hand[1].rank

    @staticmethod
    def suited_pair(hand: Sequence[Card]) -> bool:
        return hand[0].rank == hand[1].rank and hand[0].suit == hand[1].suit


WIN, PUSH, LOSE = BetResult.WIN, BetResult.PUSH, BetResult.LOSE
Decision = tuple[BetResult, str | None]  # the result, and the pay key of the row that decides


def _main(side: str, key: str) -> Callable[[Deal], Decision]:
    def decide(deal: Deal) -> Decision:
        mine, other = (deal.p, deal.b) if side == "player" else (deal.b, deal.p)
        if mine == other:
            return (PUSH, None)
        return (WIN, key) if mine > other else (LOSE, None)

    return decide


def _no_commission(deal: Deal) -> Decision:
    if deal.b == deal.p:
        return (PUSH, None)
    if deal.b < deal.p:
        return (LOSE, None)
    return (WIN, "banker_no_commission_six" if deal.b == 6 else "banker_no_commission")


def _ez(deal: Deal) -> Decision:
    if deal.b == deal.p or (deal.b > deal.p and deal.b == 7 and len(deal.banker) == 3):
        return (PUSH, None)
    return (WIN, "banker_ez") if deal.b > deal.p else (LOSE, None)


def _bonus(side: str) -> Callable[[Deal], Decision]:
    """games.md's bonus table, on the chosen side."""

    def decide(deal: Deal) -> Decision:
        mine, other = (deal.p, deal.b) if side == "player" else (deal.b, deal.p)
        hand = deal.player if side == "player" else deal.banker
        if mine == other:
            both = deal.natural(deal.player) and deal.natural(deal.banker)
            return (PUSH, "bonus_natural_tie") if both else (LOSE, None)
        if mine < other:
            return (LOSE, None)
        if deal.natural(hand):
            return (WIN, "bonus_natural_win")
        margin = mine - other
        return (WIN, f"bonus_margin_{margin}") if margin >= 4 else (LOSE, None)

    return decide


def _when(condition: Callable[[Deal], bool], key: str) -> Callable[[Deal], Decision]:
    return lambda deal: (WIN, key) if condition(deal) else (LOSE, None)


def _banker_six(deal: Deal, cards: int | None = None) -> bool:
    return deal.b > deal.p and deal.b == 6 and cards in (None, len(deal.banker))


def _by_cards(two: str, three: str) -> Callable[[Deal], Decision]:
    def decide(deal: Deal) -> Decision:
        if not _banker_six(deal):
            return (LOSE, None)
        return (WIN, two if len(deal.banker) == 2 else three)

    return decide


def _perfect_pair(deal: Deal) -> Decision:
    suited = deal.suited_pair(deal.player) + deal.suited_pair(deal.banker)
    if not suited:
        return (LOSE, None)
    return (WIN, "perfect_pair_one" if suited == 1 else "perfect_pair_both")


def _tiger_pair(deal: Deal) -> Decision:
    player, banker = deal.pair(deal.player), deal.pair(deal.banker)
    if player and banker:
        same = deal.player[0].rank == deal.banker[0].rank
        return (WIN, "tiger_pair_twin" if same else "tiger_pair_double")
    return (WIN, "tiger_pair_single") if player or banker else (LOSE, None)


#: Each catalogue bet decided from the cards, as games.md and variants.md word it.
REFERENCE: dict[str, Callable[[Deal], Decision]] = {
    "player": _main("player", "player"),
    "banker": _main("banker", "banker"),
    "tie": _when(lambda deal: deal.p == deal.b, "tie"),
    "banker_no_commission": _no_commission,
    "banker_ez": _ez,
    "player_pair": _when(lambda deal: deal.pair(deal.player), "player_pair"),
    "banker_pair": _when(lambda deal: deal.pair(deal.banker), "banker_pair"),
    "either_pair": _when(
        lambda deal: deal.pair(deal.player) or deal.pair(deal.banker), "either_pair"
    ),
    "perfect_pair": _perfect_pair,
    "small": _when(lambda deal: len(deal.player) + len(deal.banker) == 4, "small"),
    "big": _when(lambda deal: len(deal.player) + len(deal.banker) in (5, 6), "big"),
    "player_bonus": _bonus("player"),
    "banker_bonus": _bonus("banker"),
    "super_6": _when(_banker_six, "super_6"),
    "lucky_6": _by_cards("lucky_6_two_cards", "lucky_6_three_cards"),
    "tiger": _by_cards("tiger_two_cards", "tiger_three_cards"),
    "small_tiger": _when(lambda deal: _banker_six(deal, 2), "small_tiger"),
    "big_tiger": _when(lambda deal: _banker_six(deal, 3), "big_tiger"),
    "tiger_tie": _when(lambda deal: deal.p == deal.b == 6, "tiger_tie"),
    "tiger_pair": _tiger_pair,
    "dragon_7": _when(
        lambda deal: deal.b > deal.p and deal.b == 7 and len(deal.banker) == 3, "dragon_7"
    ),
    "panda_8": _when(
        lambda deal: deal.p > deal.b and deal.p == 8 and len(deal.player) == 3, "panda_8"
    ),
    "ox_6": _when(lambda deal: deal.p > deal.b and deal.p == 6 and len(deal.player) == 3, "ox_6"),
}


def test_every_bet_of_the_spec_has_a_reference_settlement():
    """Every bet of games.md and variants.md is decided here from its cards too (a bet added to
    reporting/data/bets.toml beyond the spec is held by the other tests of this file, which
    read its declaration: it needs no code)."""
    spec = {"player", "banker", "tie", "player_pair", "banker_pair", "either_pair",
            "perfect_pair", "small", "big", "player_bonus", "banker_bonus",
            "banker_no_commission", "banker_ez", "super_6", "lucky_6", "dragon_7", "panda_8",
            "ox_6", "tiger", "small_tiger", "big_tiger", "tiger_tie", "tiger_pair"}  # fmt: skip
    assert spec == set(REFERENCE) and spec <= set(catalogue_bets())


@pytest.mark.parametrize("shoe", SHOES)
def test_settling_from_the_record_equals_settling_from_the_cards(shoe):
    bets = {bet_id: bet for bet_id, bet in catalogue_bets().items() if bet_id in REFERENCE}
    table = PayTable.of(bets.values())
    references = [REFERENCE[bet_id] for bet_id in bets]

    def decide(facts: RoundFacts) -> tuple[Decision, ...]:
        decisions = []
        for rule in bets.values():
            resolution = resolve_bet(rule, facts, table)
            key = None if resolution.pay_row is None else resolution.pay_row.key
            if resolution.result is WIN:
                assert resolution.odds == table.odds(key)
            decisions.append((resolution.result, key))
        return tuple(decisions)

    # The engine decides once per record (deals alike in their record decide alike); the
    # reference once per deal, from its cards.
    by_record: dict[RoundFacts, tuple[Decision, ...]] = {}
    decided: Counter = Counter()
    for (player, banker), facts in facts_of_deals(shoe).items():
        engine = by_record.get(facts)
        if engine is None:
            engine = by_record[facts] = decide(facts)
        deal = Deal(player, banker)
        expected = tuple(reference(deal) for reference in references)
        if engine != expected:
            wrong = [
                (bet_id, got, wanted)
                for bet_id, got, wanted in zip(bets, engine, expected, strict=True)
                if got != wanted
            ]
            pytest.fail(f"{player} v {banker}: (bet, from the record, from the cards) {wrong}")
        decided.update(zip(bets, (result for result, _ in expected), strict=True))
    # Not vacuous: on these shoes the main bets and the bonus win, push and lose.
    for bet_id in ("player", "banker", "banker_ez", "player_bonus"):
        assert {result for (bet, result) in decided if bet == bet_id} == {WIN, PUSH, LOSE}


def test_an_outcome_carries_the_record_of_its_cards():
    for player, banker in itertools.islice(dealt("draws"), 2000):
        assert resolve_round(player, banker).facts == facts_of(player, banker)


# --- every reader reads the whole record ------------------------------------------------------


def probe(name: str) -> BetRule:
    """A bet that tells the value of one fact: one row per value, each paying its own odds."""
    rows = tuple(
        PayRow(((name, frozenset({value})),), Fraction(index + 1), f"probe_{name}_{index}")
        for index, value in enumerate(FACTS[name].values)
    )
    return BetRule(f"probe_{name}", BetGroup.SIDE, rows, own=True)


PROBES = {name: probe(name) for name in FACTS}
PROBE_TABLE = PayTable.of(PROBES.values())


def probed(name: str, facts: RoundFacts) -> Decision:
    """What the probe of ``name`` decides on ``facts``: its value, as a row's key."""
    resolution = resolve_bet(PROBES[name], facts, PROBE_TABLE)
    return resolution.result, resolution.pay_row and resolution.pay_row.key


#: Two deals alike in every fact but twin_pairs (both hands a pair: of one rank, of two).
TWINS_AND_NOT = (("AS AH 9C", "AD AC KD"), ("AS AH 9C", "6D 6C KD"))


@cache
def deal_pool() -> tuple[tuple[tuple[Card, ...], tuple[Card, ...]], ...]:
    """One deal of every facts record the small shoes reach, of 1,000 rounds dealt from fresh
    eight-deck shoes and of :data:`TWINS_AND_NOT`, in a shuffled order: pairs of deals alike
    in all but a few facts abound."""
    by_facts: dict[RoundFacts, tuple] = {}
    for shoe in SHOES:
        for deal, facts in facts_of_deals(shoe).items():
            by_facts.setdefault(facts, deal)
    generator = random.Random(22)
    cards = [Card(rank, suit) for rank in RANKS for suit in SUITS]
    for _ in range(1000):
        player, banker = deal_round(iter(generator.sample(cards * 8, 6)))
        by_facts.setdefault(facts_of(player, banker), (player, banker))
    for codes in TWINS_AND_NOT:
        player, banker = map(parse_cards, codes)
        by_facts.setdefault(facts_of(player, banker), (player, banker))
    pool = list(by_facts.values())
    generator.shuffle(pool)
    return tuple(pool)


def test_the_pool_reaches_every_value_of_every_fact():
    records = [facts_of(player, banker) for player, banker in deal_pool()]
    for name, fact in FACTS.items():
        reached = {getattr(facts, name) for facts in records}
        assert reached >= set(fact.values), name


def test_the_pool_has_deals_that_differ_in_one_fact_only():
    # Where the facts allow it, two deals of the pool differ in that fact alone: a reader keyed
    # on every other fact would settle one on the other's decision. (Most facts move with
    # others: a different total changes the winner or the margin, a pair the count of pairs.)
    records = [facts_of(player, banker) for player, banker in deal_pool()]
    alone = set()
    for name in FACTS:
        others = [field for field in FACTS if field != name]
        seen: dict[tuple, object] = {}
        for facts in records:
            key = tuple(getattr(facts, field) for field in others)
            if seen.setdefault(key, getattr(facts, name)) != getattr(facts, name):
                alone.add(name)
                break
    assert alone == {"player_third", "banker_third", "player_faces", "banker_faces", "twin_pairs"}


def probe_game() -> GameSpec:
    """A game offering the probes (any catalogue game's settings otherwise)."""
    base = load_catalogue().games["live-baccarat-it"]
    bets = tuple(PROBES.values())
    return dataclasses.replace(
        base,
        id="probe-game",
        bets=bets,
        pay_table=PROBE_TABLE,
        limits=tuple((bet.id, StakeLimits(100, 100_000)) for bet in bets),
        exclusive_bets=(),
    )


def test_verify_s_settlement_cache_tells_apart_deals_that_differ_in_any_fact():
    from reporting.verify.checks import Settler

    settler, game = Settler(), probe_game()
    for player, banker in deal_pool():
        outcome = resolve_round(player, banker)
        for name in FACTS:
            resolution = settler.resolve(game, f"probe_{name}", outcome)
            key = resolution.pay_row and resolution.pay_row.key
            assert (resolution.result, key) == probed(name, outcome.facts), (name, player, banker)


def test_the_sample_generator_s_settlement_cache_tells_apart_deals_that_differ_in_any_fact():
    from reporting.sample.bets import PlacedBet, Settler

    game = probe_game()
    settler = Settler(game)
    stake = 100
    placed = [PlacedBet(index, bet.id, "acc", stake) for index, bet in enumerate(game.bets)]
    for player, banker in deal_pool():
        facts = facts_of(player, banker)
        payouts = settler.payouts(player, banker, placed)
        for bet, payout in zip(game.bets, payouts, strict=True):
            result, key = probed(bet.id.removeprefix("probe_"), facts)
            expected = stake * (1 + game.pay_table.odds(key)) if result is WIN else 0
            assert payout == expected, (bet.id, player, banker)


@pytest.mark.parametrize("shoe", SHOES)
def test_the_odds_of_a_bet_count_every_fact_it_reads(shoe):
    # The exact odds of each probe row are the card-by-card count of its fact's value: the
    # enumerators and the grouping of their records by the facts a bet reads keep every fact.
    counts = counted_facts(shoe)
    total = sum(counts.values())
    table = PROBE_TABLE
    for name, rule in PROBES.items():
        for index, value in enumerate(FACTS[name].values):
            row = rule.rows[index]
            one_row = dataclasses.replace(rule, rows=(row,))
            expected = sum(
                weight for facts, weight in counts.items() if getattr(facts, name) == value
            )
            odds = bet_odds(one_row, Shoe.of_cards(SHOES[shoe]), table)
            assert odds.win == Fraction(expected, total), (name, value)


@pytest.mark.parametrize(
    ("player", "banker", "twin_pairs", "faces"),
    [
        ("KH KS", "KD KC", True, (2, 2)),  # two pairs of one rank
        ("KH KS", "QD QC", False, (2, 2)),  # two pairs, two ranks
        ("9H KS", "5D 2C JH", False, (1, 1)),
        ("AH 2S 3D", "4C 5D", False, (0, 0)),
        ("JH QS KD", "QC KC 10D", False, (3, 2)),  # a ten is not a face card
    ],
)
def test_the_pair_and_face_facts_of_the_cards(player, banker, twin_pairs, faces):
    facts = facts_of(parse_cards(player), parse_cards(banker))
    assert facts.twin_pairs is twin_pairs
    assert (facts.player_faces, facts.banker_faces) == faces
