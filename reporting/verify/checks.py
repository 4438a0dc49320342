"""The checks: one pure function per finding kind, listed in one table.

A round check reads one :class:`~reporting.records.Round` (with its bets), the
:class:`~reporting.engine.games.GameSpec` it was dealt under and a :class:`CheckContext`
(the files it came from, its deal resolved by the engine, the run's caches) and returns the
findings of its kind, in bet order. :data:`CHECKS` lists them in the order a round is
checked; :data:`SHOE_CHECKS` holds the one pass that reads a whole shoe in hand order;
:data:`FIELDS_NEEDED` says which optional fields a check needs to judge a record, so that
what could not be checked is said (:mod:`reporting.verify.coverage` counts it in the store).
Nothing here touches a database or module state: the functions can be called on any batch
of rounds, in any process, given a :class:`CheckCache` of their own.

Payouts are judged on the cards as logged: a deal that broke the drawing rules is one
``third_card_rule`` finding, and its bets are settled on the cards it shows.

The bets verify settles are the known bets (:func:`settled_bets`): every bet of the catalogue
(``reporting/data/bets.toml``) and the operator's own that its games offer. A bet is settled by
its game's rule and pay table; a known bet its game does not offer (the configuration changed
since it was loaded) by its rule at the default pays, but for a pay key it shares with a bet the
game offers, which the game's table sets. It has no stake limits and is in no exclusive group.

A bet of any other type (a provider's type as given: ``BC_PLAYER_TIGER``, ``BC_KINGS``; any
text not a known bet's id) is one ``unverified_bet`` finding. The checks that need its type
(payout, stake limits, exclusive groups) pass over it; those that do not (void refund, late
bet, time order, duplicate bet id) judge it like any other, and the round's other bets and its
deal are checked as usual.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType
from typing import NamedTuple

import msgspec

from reporting.config.bets import catalogue_bets
from reporting.engine.bets import (
    BetResult,
    BetRule,
    Pay,
    PayTable,
    Resolution,
    facts_read,
    resolve_bet,
)
from reporting.engine.facts import RoundFacts
from reporting.engine.games import ExclusiveGroups, GameSpec, placed_in_time
from reporting.engine.money import format_cents
from reporting.engine.rules import Outcome
from reporting.records import Bet, Finding, FindingKind, Round
from reporting.store.reading import SourceFiles
from reporting.verify.stored import stored_outcome

__all__ = [
    "CHECKS",
    "FIELDS_NEEDED",
    "SHOE_CHECKS",
    "CheckCache",
    "CheckContext",
    "FieldsNeeded",
    "RoundCheck",
    "Settler",
    "ShoeCheck",
    "a_or_an",
    "check_drawing_rules",
    "check_exclusive_bets",
    "check_late_bets",
    "check_payouts",
    "check_shoe_card_counts",
    "check_stake_limits",
    "check_time_order",
    "check_unverified_bets",
    "check_void_refunds",
    "settled_bets",
]


def settled_bets(games: Iterable[GameSpec]) -> dict[str, BetRule]:
    """The bets a verification of ``games`` settles, by id: every bet of the catalogue, then
    the operator's own that one of the games offers. A stored bet of any other type is an
    ``unverified_bet``.

    >>> list(settled_bets([]))[:4]
    ['player', 'banker', 'tie', 'banker_no_commission']
    """
    bets = dict(catalogue_bets())
    for game in games:
        for bet in game.bets:
            bets.setdefault(bet.id, bet)
    return bets


class Settler:
    """Expected payouts: the engine's decision cached per game, round facts and bet type, the
    rounded win per stake and pay-table row.

    ``bets`` are the bets it settles (:func:`settled_bets`; the catalogue's when None). The
    decisions are keyed on the facts of the round's :class:`~reporting.engine.facts.RoundFacts`
    that the bet's declaration reads (:func:`~reporting.engine.bets.facts_read`): nothing here
    names a fact.
    """

    def __init__(self, bets: Mapping[str, BetRule] | None = None) -> None:
        self.bets: Mapping[str, BetRule] = catalogue_bets() if bets is None else bets
        # Per game and bet type: what the bet reads of the facts, the decisions by what it
        # read, the rule and its table.
        self._deciders: dict[tuple[str, str], _Decider] = {}
        self._rules: dict[tuple[str, str], tuple[BetRule, PayTable]] = {}
        self._wins: dict[tuple[int, str, str], int] = {}

    def rule(self, game: GameSpec, bet_type: str) -> tuple[BetRule, PayTable]:
        """The rule a bet of ``bet_type`` is settled by under ``game``, with its pay table:
        the game's, when it offers the bet; otherwise the known bet's at its default pays, but
        for a key the game's table holds (a pay the bet shares with one the game offers).
        KeyError for a type not in :attr:`bets`."""
        key = (game.id, bet_type)
        found = self._rules.get(key)
        if found is None:
            if game.offers(bet_type):
                found = (game.bet(bet_type), game.pay_table)
            else:
                rule = self.bets[bet_type]
                shared: dict[str, Pay] = {}
                for pay_key in rule.pay_keys:
                    pay = game.pay_table.get(pay_key)
                    if pay is not None:
                        shared[pay_key] = pay
                found = (rule, PayTable.of([rule], shared))
            self._rules[key] = found
        return found

    def resolve(self, game: GameSpec, bet_type: str, outcome: Outcome) -> Resolution:
        """The engine's decision on a bet of ``bet_type`` on ``outcome`` under ``game``: one
        decision for each value of the facts the bet's rows read (``facts_read``, from its
        declaration), so two rounds share it only when every fact the bet reads agrees."""
        decider = self._deciders.get((game.id, bet_type))
        if decider is None:
            rule, table = self.rule(game, bet_type)
            decider = _Decider(facts_read(rule), {}, rule, table)
            self._deciders[(game.id, bet_type)] = decider
        key = decider.read(outcome.facts)
        resolution = decider.decided.get(key)
        if resolution is None:
            resolution = resolve_bet(decider.rule, outcome.facts, decider.table)
            decider.decided[key] = resolution
        return resolution

    def payout(self, game: GameSpec, resolution: Resolution, stake: int) -> int:
        """What a stake of ``stake`` cents brings back on ``resolution`` under ``game``."""
        if resolution.result is not BetResult.WIN:
            return stake if resolution.result is BetResult.PUSH else 0
        # Wins repeat per stake and pay-table row (a row id names its bet, and a game settles
        # a bet by one table: the row fixes the odds within a game): the engine's payout, cached.
        win_key = (stake, game.id, resolution.row)
        payout = self._wins.get(win_key)
        if payout is None:
            payout = resolution.payout(stake, game.rounding)
            if len(self._wins) > 500_000:
                self._wins.clear()
            self._wins[win_key] = payout
        return payout


class _Decider(NamedTuple):
    """A bet's decisions in one game, by the values of the facts it reads."""

    read: Callable[[RoundFacts], object]
    decided: dict[object, Resolution]
    rule: BetRule
    table: PayTable


class CheckCache:
    """What the checks of one run (or one batch) may remember between rounds: the bets it
    settles (:func:`settled_bets` of the run's games; the catalogue's when None), the settler's
    payouts, and each game's allowed stakes by bet type code and its exclusive groups. Make one
    per run and pass it in; games are told apart by id, so one cache serves one configuration.
    """

    def __init__(self, bets: Mapping[str, BetRule] | None = None) -> None:
        self.settler = Settler(bets)
        self.settled: Mapping[str, BetRule] = self.settler.bets
        self._allowed: dict[str, dict[str, range]] = {}
        self._exclusive: dict[str, ExclusiveGroups] = {}

    def allowed_stakes(self, game: GameSpec) -> dict[str, range]:
        """The stakes the game's limits allow (:attr:`StakeLimits.allowed`) by bet type code,
        as ranges of cents: ``stake in range`` is one cheap test per bet."""
        allowed = self._allowed.get(game.id)
        if allowed is None:
            allowed = self._allowed[game.id] = {
                bet.id: game.limits_for(bet).allowed for bet in game.bets
            }
        return allowed

    def exclusive_groups(self, game: GameSpec) -> ExclusiveGroups:
        """The game's house rule on its exclusive bets (:meth:`GameSpec.exclusive_groups`)."""
        groups = self._exclusive.get(game.id)
        if groups is None:
            groups = self._exclusive[game.id] = game.exclusive_groups()
        return groups


class CheckContext(msgspec.Struct, frozen=True, gc=False):
    """What a round check reads beside the round and its game."""

    files: SourceFiles  # where the round and its bets were read from
    outcome: Outcome | None  # the deal resolved from the logged cards; None for a void round
    cache: CheckCache  # the run's caches

    @classmethod
    def of(cls, round: Round, files: SourceFiles, cache: CheckCache) -> CheckContext:
        """The context of ``round``: its deal resolved (unless void)."""
        if round.status == "void":
            return cls(files, None, cache)
        return cls(
            files,
            stored_outcome(round.round_id, round.player_cards, round.banker_cards),
            cache,
        )


_LOST = BetResult.LOSE
_UNMAPPED = "if the catalogue has the bet, map the provider's code in its log profile's [bet_types]"

#: A round check: the round, its game and its context in, the findings of one kind out.
RoundCheck = Callable[[Round, GameSpec, CheckContext], list[Finding]]
#: A shoe check: a shoe's rounds in hand order with their files, the games, the month in
#: scope (None for every month) in; findings on the rounds of that month out.
ShoeCheck = Callable[
    [Iterable[tuple[Round, SourceFiles]], Mapping[str, GameSpec], str | None], list[Finding]
]


def _bet_finding(
    kind: FindingKind,
    round: Round,
    game: GameSpec,
    context: CheckContext,
    bet: Bet,
    *,
    message: str,
    **evidence: object,
) -> Finding:
    """A finding on one bet, pointing at the bet's line (of bets.csv for a CSV pair)."""
    return Finding(
        kind=kind.value,
        game_id=game.id,
        report_month=round.report_month,
        round_id=round.round_id,
        bet_id=bet.bet_id,
        source_file=context.files.bets,
        source_line=bet.source_line,
        message=message,
        **evidence,
    )


def _round_finding(
    kind: FindingKind,
    round: Round,
    game: GameSpec,
    context: CheckContext,
    *,
    message: str,
    **evidence: object,
) -> Finding:
    """A finding on a whole round, pointing at the round's line of the round log."""
    return Finding(
        kind=kind.value,
        game_id=game.id,
        report_month=round.report_month,
        round_id=round.round_id,
        source_file=context.files.rounds,
        source_line=round.source_line,
        message=message,
        **evidence,
    )


def check_stake_limits(round: Round, game: GameSpec, context: CheckContext) -> list[Finding]:
    """Every stake lies within its bet type's limits (a bet of a type the game does not
    offer, or the engine does not settle, has none to judge it by)."""
    allowed_stakes = context.cache.allowed_stakes(game)
    findings = []
    for bet in round.bets:
        allowed = allowed_stakes.get(bet.bet_type)
        if allowed is None or bet.stake_cents in allowed:
            continue
        stake = bet.stake_cents
        limits = game.limits_for(bet.bet_type)
        below = stake < limits.minimum
        side = "below the minimum" if below else "above the maximum"
        bound = limits.minimum if below else limits.maximum
        findings.append(
            _bet_finding(
                FindingKind.STAKE_OUT_OF_LIMITS,
                round,
                game,
                context,
                bet,
                rule=f"{format_cents(limits.minimum)}-{format_cents(limits.maximum)}"
                f" {game.currency}",
                message=f"bet {bet.bet_id} ({bet.bet_type}) stakes {format_cents(stake)}"
                f" {game.currency}, {side} of {format_cents(bound)} {game.currency}",
            )
        )
    return findings


def check_late_bets(round: Round, game: GameSpec, context: CheckContext) -> list[Finding]:
    """No bet was placed after betting closed (:func:`~reporting.engine.games.placed_in_time`;
    timestamps compare as stored UTC text)."""
    closed_at = round.betting_closed_at
    if closed_at is None:
        return []
    findings = []
    for bet in round.bets:
        placed_at = bet.placed_at
        if placed_at is not None and not placed_in_time(placed_at, closed_at):
            findings.append(
                _bet_finding(
                    FindingKind.LATE_BET,
                    round,
                    game,
                    context,
                    bet,
                    message=f"bet {bet.bet_id} was placed at {placed_at}, after betting closed"
                    f" at {closed_at}{_within_the_second(placed_at, closed_at)}"
                    + _past_the_result(placed_at, round.settled_at),
                )
            )
    return findings


def _past_the_result(placed_at: str, settled_at: str) -> str:
    """What a late bet placed no earlier than its round's settlement is: one on a known result,
    unless the log's times cannot order the two (the same millisecond, or the same second)."""
    if placed_at < settled_at:
        return ""
    said = f", and not before the round was settled at {settled_at}"
    clock = _in_its_whole_second(placed_at, settled_at)
    if clock is not None:
        return (
            f"{said} (a whole second: if the log cuts its times to the second, the round may"
            f" have been settled as late as {clock}.999, after the bet; if not, it was"
            " past-posting)"
        )
    if placed_at == settled_at:
        return (
            f"{said} (the same millisecond: if the log cuts finer times, the bet may have come"
            " just before; if not, it was past-posting)"
        )
    return f"{said} (its result known: past-posting)"


def _within_the_second(placed_at: str, closed_at: str) -> str:
    """What a close at a whole second leaves open for a bet placed within that second: the
    spec's own example logs the close to the second ("18:40:17Z"), and where a log cuts its
    times to the second, betting may have closed as late as .999. Both times are in the
    stored form, ``YYYY-MM-DDTHH:MM:SS.mmmZ``.

    >>> _within_the_second("2026-10-03T18:40:17.300Z", "2026-10-03T18:40:17.000Z")[:36]
    ' (a whole second: if the log cuts it'
    >>> _within_the_second("2026-10-03T18:40:18.000Z", "2026-10-03T18:40:17.000Z")
    ''
    """
    if (clock := _in_its_whole_second(placed_at, closed_at)) is None:
        return ""
    return (
        " (a whole second: if the log cuts its times to the second, betting may have closed as"
        f" late as {clock}.999 and the bet may have been in time)"
    )


def _in_its_whole_second(placed_at: str, stamp: str) -> str | None:
    """``stamp``'s clock (``HH:MM:SS``) when it is at a whole second and ``placed_at`` within
    it (a log that cuts its times to the second cannot order the two), else None."""
    second, _, millis = stamp.removesuffix("Z").partition(".")
    return second.partition("T")[2] if millis == "000" and placed_at.startswith(second) else None


def check_time_order(round: Round, game: GameSpec, context: CheckContext) -> list[Finding]:
    """A round's times run in order: started, betting closed, settled (each pair where both
    are logged), and no bet placed after settlement unless it is already a ``late_bet``
    (placed after betting closed). One finding naming every order broken. Timestamps compare
    as stored UTC text. A void round may end before its betting was to close (a stream lost
    during betting): its close is not held to its settlement."""
    started_at, closed_at, settled_at = round.started_at, round.betting_closed_at, round.settled_at
    rules, breaches = [], []
    if started_at is not None and closed_at is not None and started_at > closed_at:
        rules.append("started_before_betting_closed")
        breaches.append(f"started at {started_at}, after betting closed at {closed_at}")
    if closed_at is not None and closed_at > settled_at and round.status != "void":
        rules.append("betting_closed_before_settled")
        breaches.append(f"betting closed at {closed_at}, after settlement at {settled_at}")
    if started_at is not None and started_at > settled_at:
        rules.append("started_before_settled")
        breaches.append(f"started at {started_at}, after settlement at {settled_at}")
    placed_late = [
        f"{bet.bet_id} at {bet.placed_at}"
        for bet in round.bets
        if bet.placed_at is not None
        and bet.placed_at > settled_at
        and (closed_at is None or bet.placed_at <= closed_at)
    ]
    if placed_late:
        rules.append("bets_placed_before_settled")
        breaches.append(f"bets placed after settlement at {settled_at}: {', '.join(placed_late)}")
    if not rules:
        return []
    return [
        _round_finding(
            FindingKind.TIME_ORDER,
            round,
            game,
            context,
            rule=",".join(rules),
            message=f"round {round.round_id}: " + "; ".join(breaches),
        )
    ]


def check_exclusive_bets(round: Round, game: GameSpec, context: CheckContext) -> list[Finding]:
    """House rule: at most one bet of each exclusive group per account and round (a bet of
    a type outside every group, an unsettled type included, is in none): one finding per
    account and group where a bet was added that :meth:`ExclusiveGroups.may_add` refuses,
    naming every bet of the group the account holds."""
    if len(round.bets) < 2 or not game.exclusive_bets:
        return []
    exclusive = context.cache.exclusive_groups(game)
    group_of = exclusive.group_of
    held: dict[str, list[str]] = {}  # account -> the exclusive bet types it holds so far
    in_group: dict[tuple[str, int], list[Bet]] = {}  # (account, group) -> its bets of the group
    broken: set[tuple[str, int]] = set()
    for bet in round.bets:
        group = group_of.get(bet.bet_type)
        if group is None:
            continue
        holding = held.setdefault(bet.account, [])
        if not exclusive.may_add(holding, bet.bet_type):
            broken.add((bet.account, group))
        holding.append(bet.bet_type)
        in_group.setdefault((bet.account, group), []).append(bet)
    findings = []
    for account, group in sorted(broken):
        group_bets = in_group[(account, group)]
        members = " / ".join(sorted(game.exclusive_bets[group]))
        listed = ", ".join(f"{bet.bet_type} {bet.bet_id}" for bet in group_bets)
        findings.append(
            _round_finding(
                FindingKind.EXCLUSIVE_SIDE_BETS,
                round,
                game,
                context,
                rule=f"one of {members} per player and round",
                message=f"account {account} holds {len(group_bets)} bets ({listed}) where the"
                f" house rule allows one of {members} per round",
            )
        )
    return findings


def check_void_refunds(round: Round, game: GameSpec, context: CheckContext) -> list[Finding]:
    """A void round refunds every stake, exactly."""
    if round.status != "void":
        return []
    findings = []
    for bet in round.bets:
        stake, payout = bet.stake_cents, bet.payout_cents
        if payout != stake:
            findings.append(
                _bet_finding(
                    FindingKind.VOID_NOT_REFUNDED,
                    round,
                    game,
                    context,
                    bet,
                    expected_payout=stake,
                    logged_payout=payout,
                    message=f"round {round.round_id} is void but bet {bet.bet_id} ({bet.bet_type}) paid"
                    f" {format_cents(payout)} instead of refunding its stake"
                    f" {format_cents(stake)}",
                )
            )
    return findings


def check_drawing_rules(round: Round, game: GameSpec, context: CheckContext) -> list[Finding]:
    """The logged deal follows the third-card rules: one finding naming every rule broken."""
    outcome = context.outcome
    if outcome is None or not outcome.breaches:
        return []
    return [
        _round_finding(
            FindingKind.THIRD_CARD_RULE,
            round,
            game,
            context,
            rule=",".join(breach.rule for breach in outcome.breaches),
            message=f"round {round.round_id} (player {round.player_cards}, banker"
            f" {round.banker_cards}): " + "; ".join(breach.message for breach in outcome.breaches),
        )
    ]


def check_payouts(round: Round, game: GameSpec, context: CheckContext) -> list[Finding]:
    """Every bet of a settled round paid what the engine settles on the logged cards (a bet
    of a type verify does not settle is an ``unverified_bet``, not judged here)."""
    outcome = context.outcome
    if outcome is None:
        return []
    settler = context.cache.settler
    settled = settler.bets
    findings = []
    for bet in round.bets:
        stake, payout = bet.stake_cents, bet.payout_cents
        if bet.bet_type not in settled:
            continue
        resolution = settler.resolve(game, bet.bet_type, outcome)
        # A lost bet pays nothing (Resolution.payout): the common case, decided here.
        expected = 0 if resolution.result is _LOST else settler.payout(game, resolution, stake)
        if expected != payout:
            findings.append(
                _bet_finding(
                    FindingKind.PAYOUT_MISMATCH,
                    round,
                    game,
                    context,
                    bet,
                    expected_payout=expected,
                    logged_payout=payout,
                    message=f"bet {bet.bet_id} ({bet.bet_type}, stake {format_cents(stake)}) on"
                    f" player {round.player_cards} / banker {round.banker_cards} should pay"
                    f" {format_cents(expected)}, logged {format_cents(payout)}",
                )
            )
    return findings


def check_unverified_bets(round: Round, game: GameSpec, context: CheckContext) -> list[Finding]:
    """Every bet is of a type verify settles (:func:`settled_bets`): each other bet (a
    provider's type as given) is one finding, with its logged payout: "not checked" is never
    read as "correct". A void round's refund was checked (``void_not_refunded``)."""
    settled = context.cache.settled
    findings = []
    for bet in round.bets:
        if bet.bet_type in settled:
            continue
        if round.status == "void":
            unchecked = f"round {round.round_id} is void: only its refund was checked"
        else:
            unchecked = "its payout was not checked"
        findings.append(
            _bet_finding(
                FindingKind.UNVERIFIED_BET,
                round,
                game,
                context,
                bet,
                logged_payout=bet.payout_cents,
                message=f"bet {bet.bet_id} ({bet.bet_type}, stake {format_cents(bet.stake_cents)})"
                f" is of no bet of the catalogue ({_UNMAPPED}); {unchecked}",
            )
        )
    return findings


def a_or_an(number: int) -> str:
    """The English indefinite article before a whole number written in figures, as the number
    is said: "an" before eight, eleven, eighteen, eighty-..., eight hundred..., and their
    thousands ("an 8-deck shoe", "a 6-deck shoe").

    >>> [f"{a_or_an(n)} {n}" for n in (1, 6, 8, 11, 18, 80, 86, 100, 800, 1100, 8000, 11000)]
    ['a 1', 'a 6', 'an 8', 'an 11', 'an 18', 'an 80', 'an 86', 'a 100', 'an 800', 'a 1100', 'an 8000', 'an 11000']
    """
    # Said by its leading group of three digits: "eleven thousand", "eight hundred thousand".
    digits = str(abs(number))
    leading = int(digits[: (len(digits) - 1) % 3 + 1])
    vowel = leading in (8, 11, 18) or 80 <= leading <= 89 or 800 <= leading <= 899
    return "an" if vowel else "a"


def check_shoe_card_counts(
    shoe: Iterable[tuple[Round, SourceFiles]], games: Mapping[str, GameSpec], month: str | None
) -> list[Finding]:
    """A shoe holds ``decks`` copies of each card: the round where a card is first seen more
    often is one finding for the shoe (when that round is of ``month``, or ``month`` is None).

    ``shoe`` is every round of one shoe, of any month, in hand order. Rounds of a game not in
    ``games`` are passed over, and so are those of a game reshuffled before every round: it
    deals from no shoe (a shoe id it logs, a session's, holds cards of many shuffles).

    Where a hand number was logged twice up to that round, the finding says so: a table
    giving one shoe id to the shoes of two days (S05 each day) deals its hands 1, 2, ...
    twice, and the cards of both shoes add up under the one id (:func:`_shoe_message`).
    """
    counts: Counter[str] = Counter()
    hands: dict[int, Round] = {}
    repeated: tuple[Round, Round] | None = None
    for round, files in shoe:
        game = games.get(round.game_id)
        if game is None or game.reshuffle_every_round:
            continue
        if round.hand_no is not None and repeated is None:
            first = hands.setdefault(round.hand_no, round)
            repeated = None if first is round else (first, round)
        cards = (round.player_cards + " " + round.banker_cards).split()
        counts.update(cards)
        if max(map(counts.__getitem__, cards), default=0) <= game.decks:
            continue
        if month is not None and round.report_month != month:
            return []
        over = sorted(card for card in set(cards) if counts[card] > game.decks)
        detail = ", ".join(f"{card} seen {counts[card]} times" for card in over)
        return [
            Finding(
                kind=FindingKind.SHOE_CARD_COUNT.value,
                game_id=game.id,
                report_month=round.report_month,
                round_id=round.round_id,
                rule=f"{game.decks} decks",
                source_file=files.rounds,
                source_line=round.source_line,
                message=_shoe_message(round, game.decks, detail, repeated),
            )
        ]
    return []


def _shoe_message(
    round: Round, decks: int, detail: str, repeated: tuple[Round, Round] | None
) -> str:
    """``shoe S-1: AS seen 9 times, more than the 8 copies an 8-deck shoe holds (first
    exceeded in round R-3)``; and, where a hand number was logged twice up to and including
    that round, which hand and rounds, and that the id may name two shoes."""
    message = (
        f"shoe {round.shoe_id}: {detail}, more than the {decks} copies"
        f" {a_or_an(decks)} {decks}-deck shoe holds (first exceeded in round {round.round_id})"
    )
    if repeated is None:
        return message
    first, again = repeated
    return (
        f"{message}; its hand {first.hand_no} is logged twice, in round {first.round_id}"
        f" (settled {first.settled_at}) and in round {again.round_id} (settled"
        f" {again.settled_at}): the shoe id may name two shoes, which the log must tell apart"
    )


#: Every round check by the kind it finds, in the order a round is checked.
CHECKS: Mapping[FindingKind, RoundCheck] = MappingProxyType(
    {
        FindingKind.STAKE_OUT_OF_LIMITS: check_stake_limits,
        FindingKind.LATE_BET: check_late_bets,
        FindingKind.EXCLUSIVE_SIDE_BETS: check_exclusive_bets,
        FindingKind.VOID_NOT_REFUNDED: check_void_refunds,
        FindingKind.THIRD_CARD_RULE: check_drawing_rules,
        FindingKind.PAYOUT_MISMATCH: check_payouts,
        FindingKind.TIME_ORDER: check_time_order,
        FindingKind.UNVERIFIED_BET: check_unverified_bets,
    }
)
#: Every shoe check by the kind it finds.
SHOE_CHECKS: Mapping[FindingKind, ShoeCheck] = MappingProxyType(
    {FindingKind.SHOE_CARD_COUNT: check_shoe_card_counts}
)


class FieldsNeeded(NamedTuple):
    """The optional fields a check needs to judge one record.

    ``unit`` is what the check judges one by one: ``"rounds"`` or ``"bets"``. A record is
    judged when each group of ``groups`` has at least one of its fields logged (a group of one
    field: that field is needed). A field is a column of the rounds or the bets table, named
    as the records name it (:class:`~reporting.records.Round`, :class:`~reporting.records.Bet`);
    a check of bets may need a field of their round.
    """

    unit: str
    groups: tuple[tuple[str, ...], ...]

    @property
    def fields(self) -> tuple[str, ...]:
        """Every field named, in the order given."""
        return tuple(name for group in self.groups for name in group)


#: What each check needs of the optional fields, by the kind it finds; a check not listed
#: needs only what every record holds. A shoe's hand numbers only order its rounds (by
#: settlement time without them): the card count runs on every round with a shoe id.
FIELDS_NEEDED: Mapping[FindingKind, FieldsNeeded] = MappingProxyType(
    {
        FindingKind.SHOE_CARD_COUNT: FieldsNeeded("rounds", (("shoe_id",),)),
        FindingKind.LATE_BET: FieldsNeeded("bets", (("placed_at",), ("betting_closed_at",))),
        FindingKind.TIME_ORDER: FieldsNeeded("rounds", (("started_at", "betting_closed_at"),)),
    }
)
