"""The two passes of a verification, over any batch of rounds: the round pass and the shoe pass.

The round pass takes rounds in round-id order (each with its bets and files) through every
round check of :data:`~reporting.verify.checks.CHECKS` and into the :class:`Totals`; the
shoe pass takes whole shoes in shoe-id order through the shoe checks and into their
summaries. Both hand their findings to a callable as they come, so the caller decides where
they go: the store, in one process (:mod:`reporting.verify.run`), or a spool file that the
coordinator merges, in a partition's worker (:mod:`reporting.verify.partitions`). Neither
touches a database: where the rounds come from is the caller's business.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from reporting.engine.games import GameSpec
from reporting.records import Finding, Round
from reporting.store.damage import refuse_unstored_times
from reporting.verify.checks import CHECKS, SHOE_CHECKS, CheckCache, CheckContext, settled_bets
from reporting.verify.shoes import ShoeSummary, encode_outcome, summarize_shoe
from reporting.verify.totals import Totals

if TYPE_CHECKING:
    from reporting.store.reading import SourceFiles

__all__ = ["HANDS_HANDED_OVER", "PROGRESS_EVERY", "FirstSeen", "RoundPass", "shoe_pass"]

#: Rounds between two calls of a progress callback (cheap: a modulo per round).
PROGRESS_EVERY = 8192
#: At most this many hands are handed from the round pass to the shoe pass (about 120 bytes
#: each: a month of a million rounds fits); past it, as when every month of a large store is
#: verified, the shoe pass resolves the other hands itself, slower but with the same result.
HANDS_HANDED_OVER = 1_500_000

#: Where findings go as the passes find them, in the order found.
Emit = Callable[[list[Finding]], None]


@dataclass
class FirstSeen:
    """The round id where each key of the totals first appeared, in the order the keys came:
    what orders the keys of several partitions' totals as one pass over all of them would."""

    tables: list[tuple[tuple[str, str], str]] = field(default_factory=list)
    bets: list[tuple[tuple[str, str], str]] = field(default_factory=list)
    unconfigured: list[tuple[str, str]] = field(default_factory=list)


@dataclass
class RoundPass:
    """The round pass over one batch of rounds: what it counted, beside the findings emitted."""

    totals: Totals = field(default_factory=Totals)
    unconfigured: dict[str, int] = field(default_factory=dict)  # game id -> rounds
    rounds_seen: int = 0
    rounds_checked: int = 0
    bets_checked: int = 0  # bets of a type verify settles: their payouts were judged
    bets_unverified: int = 0  # bets of a type it does not settle (``unverified_bet``)
    #: The hand of each settled round of a shoe, by round id, for the shoe pass.
    hands: dict[str, int] = field(default_factory=dict)
    #: Kept only when asked for (a partition's worker): see :class:`FirstSeen`.
    first_seen: FirstSeen | None = None

    # Long on purpose: the loop every round goes through; split, it costs calls per round.
    def run(
        self,
        rounds: Iterable[tuple[Round, SourceFiles]],
        games: Mapping[str, GameSpec],
        emit: Emit,
        progress: Callable[[int], None] | None = None,
    ) -> None:
        """Each round of a configured game through every round check and into the totals;
        the rounds of other games counted apart. ``progress``, if given, is called with the
        rounds read so far every :data:`PROGRESS_EVERY` rounds and once at the end."""
        cache = CheckCache(settled_bets(games.values()))
        checks = tuple(CHECKS.values())
        totals, unconfigured, hands = self.totals, self.unconfigured, self.hands
        first_seen = self.first_seen
        tables, bets = totals.tables, totals.bets
        rounds_checked = bets_checked = bets_unverified = 0
        settled = cache.settled
        seen = start = self.rounds_seen
        for seen, (round, files) in enumerate(rounds, start + 1):
            if progress is not None and not seen % PROGRESS_EVERY:
                progress(seen)
            game = games.get(round.game_id)
            if game is None:
                # Loaded under another configuration: nothing to judge it by here; counted.
                if first_seen is not None and round.game_id not in unconfigured:
                    first_seen.unconfigured.append((round.game_id, round.round_id))
                unconfigured[round.game_id] = unconfigured.get(round.game_id, 0) + 1
                continue
            rounds_checked += 1
            for bet in round.bets:
                if bet.bet_type in settled:
                    bets_checked += 1
                else:
                    bets_unverified += 1
            context = CheckContext.of(round, files, cache)
            outcome = context.outcome
            if first_seen is None:
                totals.add(round, outcome)
            else:
                known_tables, known_bets = len(tables), len(bets)
                totals.add(round, outcome)
                _note_new_keys(first_seen, round.round_id, tables, bets, known_tables, known_bets)
            if outcome is not None and round.shoe_id is not None and len(hands) < HANDS_HANDED_OVER:
                hands[round.round_id] = encode_outcome(outcome)
            for check in checks:
                findings = check(round, game, context)
                if findings:
                    refuse_unstored_times(round)  # before a finding on a time ingest never stores
                    emit(findings)
        self.rounds_seen = seen
        self.rounds_checked += rounds_checked
        self.bets_checked += bets_checked
        self.bets_unverified += bets_unverified
        if progress is not None:
            progress(seen)


def _note_new_keys(
    first_seen: FirstSeen,
    round_id: str,
    tables: dict,
    bets: dict,
    known_tables: int,
    known_bets: int,
) -> None:
    """The keys a round added to the totals (the last ones of each dict), with its id."""
    if len(tables) != known_tables:
        first_seen.tables += [(key, round_id) for key in list(tables)[known_tables:]]
    if len(bets) != known_bets:
        first_seen.bets += [(key, round_id) for key in list(bets)[known_bets:]]


def shoe_pass(
    shoes: Iterable[list[tuple[Round, SourceFiles]]],
    games: Mapping[str, GameSpec],
    month: str | None,
    emit: Callable[[str, list[Finding]], None],
    hands: dict[str, int],
) -> list[ShoeSummary]:
    """Each whole shoe (in shoe-id order) through every shoe check, its findings emitted with
    its shoe id; the summaries of the shoes, from the hands the round pass resolved (each
    used is taken out of ``hands``) and the engine for the others."""
    summaries: list[ShoeSummary] = []
    for shoe in shoes:
        shoe_id = shoe[0][0].shoe_id or ""
        for check in SHOE_CHECKS.values():
            findings = check(shoe, games, month)
            if findings:
                emit(shoe_id, findings)
        summaries += summarize_shoe(shoe, games, month, hands)
    hands.clear()
    return summaries
