"""The totals a verification run gathers beside its findings: outcome counts per game table,
and exact sums per game and bet type over the settled rounds (for the statistics of
:mod:`reporting.figures.statistics`). Integers only; totals of batches add up with
:meth:`Totals.merge`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from reporting.config.values import MAX_CENTS
from reporting.engine.rules import Outcome, Winner
from reporting.records import Round

__all__ = ["BetTotals", "TableCounts", "Totals"]


@dataclass(slots=True)
class TableCounts:
    """Outcome counts of one game table over the period."""

    rounds: int = 0
    banker: int = 0
    player: int = 0
    tie: int = 0
    void: int = 0


@dataclass(slots=True)
class BetTotals:
    """Exact sums of one game's bets of one type over settled rounds of the period."""

    bets: int = 0
    stakes: int = 0  # cents
    payouts: int = 0  # cents
    # cents squared, for the statistical bound of the actual RTP: each round's stake on the
    # type, squared (the bets of one type in one round win or lose together), summed
    round_stake_squares: int = 0


@dataclass
class Totals:
    """Table counts by (game id, table id) and bet totals by (game id, bet type)."""

    tables: dict[tuple[str, str], TableCounts] = field(default_factory=dict)
    bets: dict[tuple[str, str], BetTotals] = field(default_factory=dict)
    # The same bet totals by game id, then bet type: a lookup per bet by the type alone.
    _bets_by_game: dict[str, dict[str, BetTotals]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        for (game_id, bet_type), totals in self.bets.items():
            self._bets_by_game.setdefault(game_id, {})[bet_type] = totals

    def table(self, game_id: str, table_id: str) -> TableCounts:
        """The counts of one table, made on first use."""
        counts = self.tables.get((game_id, table_id))
        if counts is None:
            counts = self.tables[(game_id, table_id)] = TableCounts()
        return counts

    def bet_type(self, game_id: str, bet_type: str) -> BetTotals:
        """The totals of one game's bets of one type, made on first use."""
        by_type = self._bets_by_game.setdefault(game_id, {})
        totals = by_type.get(bet_type)
        if totals is None:
            totals = by_type[bet_type] = self.bets[(game_id, bet_type)] = BetTotals()
        return totals

    def add(self, round: Round, outcome: Outcome | None) -> None:
        """Count one round: void when ``outcome`` is None, else its winner and its bets."""
        counts = self.table(round.game_id, round.table_id)
        if outcome is None:
            counts.void += 1
            return
        counts.rounds += 1
        winner = outcome.winner
        if winner is Winner.BANKER:
            counts.banker += 1
        elif winner is Winner.PLAYER:
            counts.player += 1
        else:
            counts.tie += 1
        by_type = self._bets_by_game.get(round.game_id)
        if by_type is None:
            by_type = self._bets_by_game[round.game_id] = {}
        staked: dict[str, int] = {}  # this round's stake on each type
        for bet in round.bets:
            totals = by_type.get(bet.bet_type)
            if totals is None:
                totals = self.bet_type(round.game_id, bet.bet_type)
            stake, payout = bet.stake_cents, bet.payout_cents
            if stake >= MAX_CENTS or payout >= MAX_CENTS:  # ingest stores none
                # Here, not at the top: a rule sheet loads no store.
                from reporting.store.damage import amounts_past_bound

                raise amounts_past_bound(round.round_id, stake, payout)
            totals.bets += 1
            totals.stakes += stake
            totals.payouts += payout
            staked[bet.bet_type] = staked.get(bet.bet_type, 0) + stake
        for bet_type, stake in staked.items():
            by_type[bet_type].round_stake_squares += stake * stake

    def merge(self, other: Totals) -> None:
        """Add the totals of another batch of rounds (disjoint from this one's) to these."""
        for (game_id, table_id), theirs in other.tables.items():
            counts = self.table(game_id, table_id)
            counts.rounds += theirs.rounds
            counts.banker += theirs.banker
            counts.player += theirs.player
            counts.tie += theirs.tie
            counts.void += theirs.void
        for (game_id, bet_type), their_bets in other.bets.items():
            totals = self.bet_type(game_id, bet_type)
            totals.bets += their_bets.bets
            totals.stakes += their_bets.stakes
            totals.payouts += their_bets.payouts
            totals.round_stake_squares += their_bets.round_stake_squares
