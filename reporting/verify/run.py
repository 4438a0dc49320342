"""Verification: every payout recomputed from the logged cards, every round checked.

One streaming pass over the rounds (with their bets, in one query) recomputes each payout
with the engine and checks the drawing rules; the shoe pass walks each shoe in hand order;
the remaining checks are set-wise SQL. Findings are stored in the ``findings`` table,
replacing those of the same scope, so re-running never duplicates them.

Payouts are judged on the cards as logged: a deal that broke the drawing rules is one
``third_card_rule`` finding, and its bets are settled on the cards it shows.
"""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from itertools import groupby
from operator import itemgetter

from reporting.config.loader import OperatorConfig
from reporting.engine.bets import BetResult, BetType, Resolution, resolve_bet
from reporting.engine.cards import parse_cards
from reporting.engine.games import GameSpec, StakeLimits
from reporting.engine.money import format_cents
from reporting.engine.rules import Outcome, Winner, resolve_round
from reporting.ingest.logs import cyclic_gc_paused

__all__ = ["Finding", "VerifyResult", "verify"]

FINDINGS_SCHEMA = """
CREATE TABLE IF NOT EXISTS findings (
    finding_id      INTEGER PRIMARY KEY,
    kind            TEXT NOT NULL,
    game_id         TEXT NOT NULL,
    report_month    TEXT NOT NULL,
    round_id        TEXT NOT NULL,
    bet_id          TEXT,
    expected_payout_cents INTEGER,
    logged_payout_cents   INTEGER,
    rule            TEXT,           -- the drawing rule, limit or house rule concerned
    source_file     TEXT NOT NULL,
    source_line     INTEGER NOT NULL,
    message         TEXT NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS findings_by_month ON findings (report_month, kind);
"""


@dataclass(frozen=True, slots=True)
class Finding:
    """One irregularity, with the evidence to act on and where it came from."""

    kind: str
    game_id: str
    report_month: str
    round_id: str
    bet_id: str | None
    expected_payout: int | None
    logged_payout: int | None
    rule: str | None
    source_file: str
    source_line: int
    message: str

    @property
    def source(self) -> str:
        """``path:line`` of the record."""
        return f"{self.source_file}:{self.source_line}"

    def to_document(self) -> dict:
        """The JSON form of the CLI contract."""
        return {
            "kind": self.kind,
            "game": self.game_id,
            "round_id": self.round_id,
            "bet_id": self.bet_id,
            "expected_payout": None
            if self.expected_payout is None
            else format_cents(self.expected_payout),
            "logged_payout": None
            if self.logged_payout is None
            else format_cents(self.logged_payout),
            "rule": self.rule,
            "source": self.source,
            "message": self.message,
        }


@dataclass
class TableCounts:
    """Outcome counts of one game table over the period."""

    rounds: int = 0
    banker: int = 0
    player: int = 0
    tie: int = 0
    void: int = 0


@dataclass
class BetTotals:
    """Exact sums of one game's bets of one type over settled rounds of the period."""

    bets: int = 0
    stakes: int = 0  # cents
    payouts: int = 0  # cents
    stake_squares: int = 0  # cents squared, for the statistical bound of the actual RTP


@dataclass
class VerifyResult:
    """What a verification run checked and found."""

    month: str | None
    rounds_checked: int = 0
    bets_checked: int = 0
    findings_by_kind: Counter = field(default_factory=Counter)
    findings: list[Finding] = field(default_factory=list)  # the first ``keep`` findings
    tables: dict[tuple[str, str], TableCounts] = field(default_factory=dict)
    bet_totals: dict[tuple[str, str], BetTotals] = field(default_factory=dict)
    unconfigured_rounds: dict[str, int] = field(default_factory=dict)  # game id -> rounds

    @property
    def finding_count(self) -> int:
        """Findings of every kind."""
        return sum(self.findings_by_kind.values())


class _Sources:
    """File names by ingest id: the round log, and the bets file of a CSV pair."""

    def __init__(self, connection: sqlite3.Connection):
        self.rounds: dict[int, str] = {}
        self.bets: dict[int, str] = {}
        for ingest_id, name, companion in connection.execute(
            "SELECT ingest_id, file_name, companion_name FROM ingest_log"
        ):
            self.rounds[ingest_id] = name
            self.bets[ingest_id] = companion or name


class _FindingSink:
    """Collects findings, writes them in batches, keeps the first few for the report."""

    def __init__(self, connection: sqlite3.Connection, result: VerifyResult, keep: int):
        self.connection = connection
        self.result = result
        self.keep = keep
        self.pending: list[Finding] = []

    def add(self, finding: Finding) -> None:
        self.result.findings_by_kind[finding.kind] += 1
        if len(self.result.findings) < self.keep:
            self.result.findings.append(finding)
        self.pending.append(finding)
        if len(self.pending) >= 10_000:
            self.flush()

    def flush(self) -> None:
        if self.pending:
            self.connection.executemany(
                "INSERT INTO findings (kind, game_id, report_month, round_id, bet_id,"
                " expected_payout_cents, logged_payout_cents, rule, source_file, source_line,"
                " message) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                [
                    (
                        f.kind,
                        f.game_id,
                        f.report_month,
                        f.round_id,
                        f.bet_id,
                        f.expected_payout,
                        f.logged_payout,
                        f.rule,
                        f.source_file,
                        f.source_line,
                        f.message,
                    )
                    for f in self.pending
                ],
            )
            self.pending.clear()


class _Settler:
    """Expected payouts: the engine's decision cached per game, bet type and round facts,
    the rounded win per stake and odds."""

    def __init__(self) -> None:
        self._facts: dict[tuple, int] = {}
        self._decisions: dict[tuple[str, str, int], Resolution] = {}
        self._wins: dict[tuple, int] = {}

    def facts_id(self, outcome: Outcome) -> int:
        """A small number standing for the facts bets are settled on."""
        facts = (
            outcome.player_value,
            outcome.banker_value,
            outcome.player_natural,
            outcome.banker_natural,
            len(outcome.player_cards) + len(outcome.banker_cards),
            outcome.player_pair,
            outcome.banker_pair,
            outcome.player_suited_pair,
            outcome.banker_suited_pair,
        )
        number = self._facts.get(facts)
        if number is None:
            number = self._facts[facts] = len(self._facts)
        return number

    def expected_payout(
        self, game: GameSpec, bet_type: str, stake: int, facts_id: int, outcome: Outcome
    ) -> int:
        key = (game.id, bet_type, facts_id)
        resolution = self._decisions.get(key)
        if resolution is None:
            resolution = resolve_bet(BetType(bet_type), outcome, game.pay_table)
            self._decisions[key] = resolution
        if resolution.result is not BetResult.WIN:
            return stake if resolution.result is BetResult.PUSH else 0
        # Wins repeat per stake and pay-table row (which fixes the odds within a game): the
        # engine's payout, cached.
        win_key = (stake, game.id, resolution.row)
        payout = self._wins.get(win_key)
        if payout is None:
            payout = resolution.payout(stake, game.rounding)
            if len(self._wins) > 500_000:
                self._wins.clear()
            self._wins[win_key] = payout
        return payout


def _scope(month: str | None, alias: str = "r") -> tuple[str, tuple]:
    if month is None:
        return "1", ()
    return f"{alias}.report_month = ?", (month,)


def verify(
    connection: sqlite3.Connection,
    config: OperatorConfig,
    month: str | None = None,
    *,
    keep: int = 10_000,
) -> VerifyResult:
    """Check every round (of ``month``, or all) and store the findings, replacing earlier ones."""
    connection.executescript(FINDINGS_SCHEMA)
    result = VerifyResult(month)
    sources = _Sources(connection)
    games = config.games
    connection.execute("BEGIN IMMEDIATE")
    try:
        where, params = _scope(month, "findings")
        # Only the configured games are judged, so only their findings are replaced.
        connection.execute(
            f"DELETE FROM findings WHERE {where} AND game_id IN (SELECT value FROM json_each(?))",
            (*params, json.dumps(sorted(games))),
        )
        sink = _FindingSink(connection, result, keep)
        with cyclic_gc_paused():
            _check_rounds(connection, games, month, sources, sink, result)
            _check_shoes(connection, games, month, sources, sink)
        sink.flush()
        connection.execute("COMMIT")
    except BaseException:
        connection.execute("ROLLBACK")
        raise
    result.findings.sort(key=lambda f: (f.source_file, f.source_line, f.kind, f.bet_id or ""))
    return result


def _round_rows(
    connection: sqlite3.Connection, month: str | None
) -> Iterator[tuple[tuple, list[tuple]]]:
    """Each round in scope with its bets: two cursors in round-id order, merged."""
    where, params = _scope(month)
    rounds = connection.execute(
        "SELECT r.round_id, r.game_id, r.table_id, r.status, r.player_cards, r.banker_cards,"
        " r.report_month, r.ingest_id, r.source_line, r.betting_closed_at"
        f" FROM rounds AS r WHERE {where} ORDER BY r.round_id",
        params,
    )
    bets_query = (
        "SELECT b.round_id, b.bet_id, b.bet_type, b.stake_cents, b.payout_cents, b.source_line,"
        " b.account, b.placed_at FROM bets AS b"
    )
    if month is None:
        bets = connection.execute(bets_query + " ORDER BY b.round_id, b.bet_id")
    else:
        bets = connection.execute(
            bets_query + " JOIN rounds AS r ON r.round_id = b.round_id"
            f" WHERE {where} ORDER BY b.round_id, b.bet_id",
            params,
        )
    groups = groupby(bets, key=itemgetter(0))
    bets_round, group = next(groups, (None, None))
    for round_row in rounds:
        round_id = round_row[0]
        # Both cursors run in round-id order (SQLite's and Python's text order agree).
        while bets_round is not None and bets_round < round_id:
            bets_round, group = next(groups, (None, None))
        if bets_round == round_id:
            yield round_row, list(group)
            bets_round, group = next(groups, (None, None))
        else:
            yield round_row, []


def _check_rounds(
    connection: sqlite3.Connection,
    games: Mapping[str, GameSpec],
    month: str | None,
    sources: _Sources,
    sink: _FindingSink,
    result: VerifyResult,
) -> None:
    """The streaming pass: payouts, drawing rules, refunds, limits, late bets, house rules."""
    settler = _Settler()
    bet_totals = result.bet_totals
    limits = {
        (game.id, bet.value): game.limits_for(bet) for game in games.values() for bet in game.bets
    }
    exclusive = {
        (game.id, bet.value): number
        for game in games.values()
        for number, members in enumerate(game.exclusive_bets)
        for bet in members
    }
    for round_row, bets in _round_rows(connection, month):
        (
            round_id,
            game_id,
            table_id,
            status,
            player,
            banker,
            report_month,
            ingest_id,
            line,
            closed_at,
        ) = round_row
        game = games.get(game_id)
        if game is None:
            # Loaded under another configuration: nothing to judge it by here; counted.
            result.unconfigured_rounds[game_id] = result.unconfigured_rounds.get(game_id, 0) + 1
            continue
        result.rounds_checked += 1
        result.bets_checked += len(bets)
        counts = result.tables.get((game_id, table_id))
        if counts is None:
            counts = result.tables[(game_id, table_id)] = TableCounts()
        bet_file = sources.bets[ingest_id]
        context = (game, report_month, round_id, bet_file)
        for _, bet_id, bet_type, stake, _payout, bet_line, _account, placed_at in bets:
            bet_limits = limits.get((game_id, bet_type))
            if bet_limits is not None and not bet_limits.allows(stake):
                sink.add(_limit_finding(context, bet_id, bet_type, stake, bet_line, bet_limits))
            if placed_at is not None and closed_at is not None and placed_at > closed_at:
                sink.add(
                    Finding(
                        "late_bet",
                        game_id,
                        report_month,
                        round_id,
                        bet_id,
                        None,
                        None,
                        None,
                        bet_file,
                        bet_line,
                        f"bet {bet_id} was placed at {placed_at}, after betting closed at"
                        f" {closed_at}",
                    )
                )
        if exclusive and len(bets) > 1:
            _check_exclusive(
                game, exclusive, round_id, report_month, bets, sources.rounds[ingest_id], line, sink
            )
        if status == "void":
            counts.void += 1
            for _, bet_id, _bet_type, stake, payout, bet_line, _account, _placed in bets:
                if payout != stake:
                    sink.add(
                        Finding(
                            "void_not_refunded",
                            game_id,
                            report_month,
                            round_id,
                            bet_id,
                            stake,
                            payout,
                            None,
                            bet_file,
                            bet_line,
                            f"round {round_id} is void but bet {bet_id} paid {format_cents(payout)}"
                            f" instead of refunding its stake {format_cents(stake)}",
                        )
                    )
            continue
        outcome = resolve_round(parse_cards(player), parse_cards(banker))
        counts.rounds += 1
        if outcome.winner is Winner.BANKER:
            counts.banker += 1
        elif outcome.winner is Winner.PLAYER:
            counts.player += 1
        else:
            counts.tie += 1
        if outcome.breaches:
            sink.add(
                Finding(
                    "third_card_rule",
                    game_id,
                    report_month,
                    round_id,
                    None,
                    None,
                    None,
                    ",".join(breach.rule for breach in outcome.breaches),
                    sources.rounds[ingest_id],
                    line,
                    f"round {round_id} (player {player}, banker {banker}): "
                    + "; ".join(breach.message for breach in outcome.breaches),
                )
            )
        facts = settler.facts_id(outcome)
        for _, bet_id, bet_type, stake, payout, bet_line, _account, _placed in bets:
            totals = bet_totals.get((game_id, bet_type))
            if totals is None:
                totals = bet_totals[(game_id, bet_type)] = BetTotals()
            totals.bets += 1
            totals.stakes += stake
            totals.payouts += payout
            totals.stake_squares += stake * stake
            expected = settler.expected_payout(game, bet_type, stake, facts, outcome)
            if expected != payout:
                sink.add(
                    Finding(
                        "payout_mismatch",
                        game_id,
                        report_month,
                        round_id,
                        bet_id,
                        expected,
                        payout,
                        None,
                        bet_file,
                        bet_line,
                        f"bet {bet_id} ({bet_type}, stake {format_cents(stake)}) on player"
                        f" {player} / banker {banker} should pay {format_cents(expected)},"
                        f" logged {format_cents(payout)}",
                    )
                )


def _limit_finding(
    context: tuple, bet_id: str, bet_type: str, stake: int, line: int, limits: StakeLimits
) -> Finding:
    game, report_month, round_id, bet_file = context
    below = stake < limits.minimum
    side = "below the minimum" if below else "above the maximum"
    bound = limits.minimum if below else limits.maximum
    return Finding(
        "stake_out_of_limits",
        game.id,
        report_month,
        round_id,
        bet_id,
        None,
        None,
        f"{format_cents(limits.minimum)}-{format_cents(limits.maximum)} {game.currency}",
        bet_file,
        line,
        f"bet {bet_id} ({bet_type}) stakes {format_cents(stake)} {game.currency}, {side}"
        f" of {format_cents(bound)} {game.currency}",
    )


def _check_exclusive(
    game: GameSpec,
    exclusive: Mapping[tuple[str, str], int],
    round_id: str,
    report_month: str,
    bets: list[tuple],
    round_file: str,
    line: int,
    sink: _FindingSink,
) -> None:
    """House rule: at most one bet of each exclusive group per account and round."""
    held: dict[tuple[str, int], list[tuple]] = {}
    for bet in bets:
        group = exclusive.get((game.id, bet[2]))
        if group is not None:
            held.setdefault((bet[6], group), []).append(bet)
    for (account, group), group_bets in sorted(held.items()):
        if len(group_bets) < 2:
            continue
        members = sorted(bet.value for bet in game.exclusive_bets[group])
        listed = ", ".join(f"{bet[2]} {bet[1]}" for bet in group_bets)
        sink.add(
            Finding(
                "exclusive_side_bets",
                game.id,
                report_month,
                round_id,
                None,
                None,
                None,
                "one of " + " / ".join(members) + " per player and round",
                round_file,
                line,
                f"account {account} holds {len(group_bets)} bets ({listed}) where the house"
                f" rule allows one of {' / '.join(members)} per round",
            )
        )


def _check_shoes(
    connection: sqlite3.Connection,
    games: Mapping[str, GameSpec],
    month: str | None,
    sources: _Sources,
    sink: _FindingSink,
) -> None:
    """Per shoe in hand order: the round where a card first exceeds the copies the shoe holds."""
    where, params = _scope(month, "m")
    cursor = connection.execute(
        "SELECT r.shoe_id, r.round_id, r.game_id, r.report_month, r.player_cards,"
        " r.banker_cards, r.ingest_id, r.source_line,"
        + ("1" if month is None else "r.report_month = ?")
        + " FROM rounds AS r WHERE r.shoe_id IS NOT NULL AND r.shoe_id IN"
        f" (SELECT m.shoe_id FROM rounds AS m WHERE m.shoe_id IS NOT NULL AND {where})"
        " ORDER BY r.shoe_id, r.hand_no, r.settled_at, r.round_id",
        (*params, *params) if month is not None else params,
    )
    shoe: str | None = None
    counts: Counter[str] = Counter()
    reported = False
    for (
        shoe_id,
        round_id,
        game_id,
        report_month,
        player,
        banker,
        ingest_id,
        line,
        in_scope,
    ) in cursor:
        if shoe_id != shoe:
            shoe, counts, reported = shoe_id, Counter(), False
        game = games.get(game_id)
        if game is None or reported:
            continue
        cards = (player + " " + banker).split()
        counts.update(cards)
        over = sorted(card for card in set(cards) if counts[card] > game.decks)
        if over:
            reported = True
            if in_scope:
                detail = ", ".join(f"{card} seen {counts[card]} times" for card in over)
                sink.add(
                    Finding(
                        "shoe_card_count",
                        game_id,
                        report_month,
                        round_id,
                        None,
                        None,
                        None,
                        f"{game.decks} decks",
                        sources.rounds[ingest_id],
                        line,
                        f"shoe {shoe_id}: {detail}, more than the {game.decks} copies a"
                        f" {game.decks}-deck shoe holds (first exceeded in round {round_id})",
                    )
                )
