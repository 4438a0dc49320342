"""Synthetic round logs: a realistic month of play for every game of a configuration.

:func:`generate_month` writes what a live or RNG baccarat platform would export for one
reporting month (version 1 of the round-log format, JSON lines or CSV), and on request
injects known faults: rounds the verifier must flag and lines the reader must reject, each
listed in a manifest beside the log with its line number.

The cards come from the engine's own dealer (:func:`~reporting.engine.rules.deal_round`)
drawing from shuffled shoes with a burn card and a cut card; every payout comes from
:func:`~reporting.engine.bets.settle` on the logged cards. Nothing here reads the clock:
the same arguments and seed give the same bytes. Rounds are written as they are produced,
so memory stays flat however long the month.
"""

from __future__ import annotations

import csv
import gzip
import heapq
import json
import math
import os
import queue
import random
import re
import threading
from bisect import bisect_right
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Literal
from zoneinfo import ZoneInfo

import msgspec

from reporting.config.loader import OperatorConfig
from reporting.engine.bets import BetType, refund, resolve_bet, settle
from reporting.engine.cards import RANKS, SUITS, Card
from reporting.engine.games import GameSpec
from reporting.engine.money import format_cents, parse_amount
from reporting.engine.rules import Outcome, deal_round, resolve_round
from reporting.errors import InputError
from reporting.ingest.logs import CSV_BET_FIELDS, CSV_ROUND_FIELDS
from reporting.records import FINDING_KINDS, REJECT_REASONS

__all__ = [
    "FAULT_KINDS",
    "FINDING_KINDS",
    "REJECT_REASONS",
    "GameSample",
    "SampleSummary",
    "generate_month",
    "month_span",
    "parse_month",
]

FAULT_KINDS: tuple[str, ...] = FINDING_KINDS + REJECT_REASONS

_SECOND = 1000
_MINUTE = 60 * _SECOND
_HOUR = 60 * _MINUTE
_DAY = 24 * _HOUR
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)

# Pace of a table: one round about every 45 s, betting open for 15 s, settled 25-40 s in.
_ROUND_GAP = (42 * _SECOND, 48 * _SECOND)
_BETTING_OPEN = 15 * _SECOND
_SETTLE_AFTER = (25 * _SECOND, 40 * _SECOND)
_SESSION_ROUNDS = 20  # with --rounds-per-day, rounds are dealt in sessions of about this many
_VOID_RATE = 0.002
_MEAN_BETS = 6.0
# Relative activity by local hour of day (mean 1): quiet before dawn, busiest in the evening.
_HOURLY_ACTIVITY = (
    0.70, 0.55, 0.45, 0.40, 0.35, 0.40, 0.50, 0.65, 0.80, 0.90, 1.00, 1.05,
    1.10, 1.10, 1.05, 1.05, 1.10, 1.20, 1.35, 1.50, 1.60, 1.60, 1.40, 1.10,
)  # fmt: skip
# Share of each bet type among bets, before keeping only the types a game offers.
_BET_WEIGHTS: dict[BetType, float] = {
    BetType.PLAYER: 0.28,
    BetType.BANKER: 0.32,
    BetType.TIE: 0.08,
    BetType.PLAYER_PAIR: 0.05,
    BetType.BANKER_PAIR: 0.05,
    BetType.EITHER_PAIR: 0.04,
    BetType.PERFECT_PAIR: 0.04,
    BetType.SMALL: 0.03,
    BetType.BIG: 0.03,
    BetType.PLAYER_BONUS: 0.04,
    BetType.BANKER_BONUS: 0.04,
}
# Chip values in currency units; round stakes are one to five of a chip.
_CHIPS = (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000, 10000, 25000)
_ODD_CENTS_SHARE = 0.15  # stakes such as 12.35 that make commission rounding matter
_ACCOUNT_REUSE = 0.4  # chance that a further bet of a round comes from an account already in it
_ACCOUNTS_PER_JURISDICTION = 9000
# Timestamp spellings: "Z", "+00:00", or the game's local offset, all the same instant.
_STYLE_WEIGHTS = ((0.85, "Z"), (0.93, "+00:00"), (1.0, "local"))
_LIVE_VOID_REASONS = (
    "card misread by the shoe scanner",
    "card exposed during the deal",
    "video stream interrupted",
    "dealer error: cards dealt out of order",
)
_RNG_VOID_REASONS = ("game server connection lost", "RNG service timeout")
_UNCONFIGURED_GAMES = ("live-baccarat-mt", "speed-baccarat-it", "dragon-tiger-it", "punto-banco-xx")
_CACHE_LIMIT = 200_000  # entries per settlement cache; past it the cache starts afresh
_RANK_POINTS = {rank: Card(rank, SUITS[0]).points for rank in RANKS}
_MONTH = re.compile(r"(?P<year>[0-9]{4})-(?P<month>0[1-9]|1[0-2])")

LogFormat = Literal["jsonl", "csv"]


# --------------------------------------------------------------------------------------------
# Public records


@dataclass(frozen=True, slots=True)
class GameSample:
    """What was written for one game."""

    game: str
    tables: tuple[str, ...]
    rounds: int
    bets: int
    void_rounds: int
    shoes: int
    first_settled_at: str | None
    last_settled_at: str | None


@dataclass(frozen=True, slots=True)
class SampleSummary:
    """What :func:`generate_month` wrote.

    ``rounds`` counts round records (a conflicting repeat of a round is an extra line, not
    an extra round); ``rejected_lines`` is how many lines the reader must reject, so
    ``rounds - rejected_lines + faults["conflict"]`` rounds load.
    """

    month: str
    seed: int
    format: str
    log: Path  # the .jsonl(.gz) file, or the folder holding rounds.csv and bets.csv
    files: tuple[Path, ...]  # every file written, the manifest included
    manifest: Path
    lines: int  # log lines (rounds.csv rows for CSV), header excluded
    rounds: int
    bets: int
    void_rounds: int
    rejected_lines: int
    games: tuple[GameSample, ...]
    faults: dict[str, int]  # kind -> injected count, every kind listed
    skipped_faults: dict[str, str]  # kind -> why it could not be injected

    @property
    def loaded_rounds(self) -> int:
        """Rounds a reader loads: every round record except the rejected ones."""
        return self.rounds - self.rejected_lines + self.faults.get("conflict", 0)

    def to_document(self) -> dict[str, Any]:
        """The JSON form printed by ``sample --json``."""
        return {
            "month": self.month,
            "seed": self.seed,
            "format": self.format,
            "log": str(self.log),
            "files": [str(path) for path in self.files],
            "manifest": str(self.manifest),
            "lines": self.lines,
            "rounds": self.rounds,
            "rounds_loaded": self.loaded_rounds,
            "bets": self.bets,
            "void_rounds": self.void_rounds,
            "rejected_lines": self.rejected_lines,
            "games": [
                {
                    "game": game.game,
                    "tables": list(game.tables),
                    "rounds": game.rounds,
                    "bets": game.bets,
                    "void_rounds": game.void_rounds,
                    "shoes": game.shoes,
                    "first_settled_at": game.first_settled_at,
                    "last_settled_at": game.last_settled_at,
                }
                for game in self.games
            ],
            "faults": dict(self.faults),
            "skipped_faults": dict(self.skipped_faults),
        }


# --------------------------------------------------------------------------------------------
# Months and time


def parse_month(text: str) -> tuple[int, int]:
    """Year and month of a ``YYYY-MM`` string.

    >>> parse_month("2026-10")
    (2026, 10)
    >>> parse_month("2026-13")
    Traceback (most recent call last):
    ...
    reporting.errors.InputError: month '2026-13' is not YYYY-MM (e.g. 2026-10)
    """
    match = _MONTH.fullmatch(text.strip()) if isinstance(text, str) else None
    if match is None:
        raise InputError(f"month {text!r} is not YYYY-MM (e.g. 2026-10)")
    return int(match["year"]), int(match["month"])


def _epoch_ms(moment: datetime) -> int:
    return (moment - _EPOCH) // timedelta(milliseconds=1)


def month_span(month: str, timezone: str) -> tuple[int, int]:
    """The month in a time zone as UTC epoch milliseconds, start included, end excluded.

    >>> start, end = month_span("2026-10", "Europe/Rome")
    >>> datetime.fromtimestamp(start / 1000, UTC).isoformat(), (end - start) // 3_600_000
    ('2026-09-30T22:00:00+00:00', 745)
    """
    year, number = parse_month(month)
    zone = ZoneInfo(timezone)
    next_year, next_number = (year + 1, 1) if number == 12 else (year, number + 1)
    start = datetime(year, number, 1, tzinfo=zone)
    end = datetime(next_year, next_number, 1, tzinfo=zone)
    return _epoch_ms(start), _epoch_ms(end)


# "SS" and "SS.mmm" (whole seconds without decimals) for every millisecond of a minute.
_SECONDS = [f"{second:02d}" for second in range(60)]
_SECONDS_WITH_MILLISECONDS = [
    f"{second:02d}.{millis:03d}" if millis else f"{second:02d}"
    for second in range(60)
    for millis in range(1000)
]


_HOURS_MINUTES = [f"{minute // 60:02d}:{minute % 60:02d}:" for minute in range(24 * 60)]


class _MinutePrefixes(dict[int, str]):
    """Minutes since the epoch -> ``YYYY-MM-DDTHH:MM:``, filled on first use."""

    def __init__(self) -> None:
        super().__init__()
        self._dates: dict[int, str] = {}  # days since the epoch -> "YYYY-MM-DDT"

    def __missing__(self, minute: int) -> str:
        day, minute_of_day = divmod(minute, 24 * 60)
        date = self._dates.get(day)
        if date is None:
            date = self._dates[day] = (_EPOCH + timedelta(days=day)).strftime("%Y-%m-%dT")
        if len(self) > 100_000:  # a long month's minutes, twice over: start afresh
            self.clear()
        text = self[minute] = date + _HOURS_MINUTES[minute_of_day]
        return text


class _Clock:
    """Formats epoch milliseconds as round-log timestamps in one game's time zone, fast.

    Each distinct minute and hour is computed once; the month has few of them.
    """

    def __init__(self, timezone: str):
        self._zone = ZoneInfo(timezone)
        self._offsets: dict[int, tuple[int, str]] = {}  # UTC hour -> (offset ms, "+hh:mm")
        self.minute_prefixes = _MinutePrefixes()  # wall-clock minute -> "YYYY-MM-DDTHH:MM:"
        self._days: dict[int, str] = {}  # local day number -> "YYYYMMDD"

    def offset(self, epoch_ms: int) -> tuple[int, str]:
        """The zone's offset at an instant, in ms and as ``+hh:mm``."""
        hour = epoch_ms // _HOUR
        known = self._offsets.get(hour)
        if known is None:
            moment = datetime.fromtimestamp(hour * 3600, self._zone)
            delta = moment.utcoffset() or timedelta(0)
            minutes = int(delta.total_seconds()) // 60
            sign = "+" if minutes >= 0 else "-"
            text = f"{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"
            known = self._offsets[hour] = (minutes * _MINUTE, text)
        return known

    def format(self, epoch_ms: int, style: str, milliseconds: bool = True) -> str:
        """``2026-10-03T18:40:02.120Z``, ``...+00:00`` or the local wall time with its offset.

        ``style`` is ``"Z"``, ``"+00:00"`` or ``"local"``.
        """
        if style == "local":
            offset_ms, suffix = self.offset(epoch_ms)
            epoch_ms += offset_ms
        else:
            suffix = style
        minute, within = divmod(epoch_ms, _MINUTE)
        if milliseconds:
            return self.minute_prefixes[minute] + _SECONDS_WITH_MILLISECONDS[within] + suffix
        return self.minute_prefixes[minute] + _SECONDS[within // _SECOND] + suffix

    def naive(self, epoch_ms: int) -> str:
        """The UTC wall time without any offset (a timestamp the reader must refuse)."""
        return self.format(epoch_ms, "")

    def local_day(self, epoch_ms: int) -> str:
        """The local calendar date as ``YYYYMMDD`` (for round and shoe ids)."""
        day = (epoch_ms + self.offset(epoch_ms)[0]) // _DAY
        text = self._days.get(day)
        if text is None:
            text = self._days[day] = (_EPOCH + timedelta(days=day)).strftime("%Y%m%d")
        return text

    def local_hour(self, epoch_ms: int) -> int:
        """The local hour of day, 0-23."""
        return (epoch_ms + self.offset(epoch_ms)[0]) // _HOUR % 24


# --------------------------------------------------------------------------------------------
# Shoes


class _Shoe:
    """Cards in dealing order, an iterator for :func:`deal_round` that can take a card back."""

    __slots__ = ("cards", "position")

    def __init__(self, cards: list[Card]):
        self.cards = cards
        self.position = 0

    def __iter__(self) -> _Shoe:
        return self

    def __next__(self) -> Card:
        card = self.cards[self.position]
        self.position += 1
        return card

    def put_back(self) -> None:
        """Return the last card drawn to the top of the shoe."""
        self.position -= 1

    @property
    def remaining(self) -> int:
        """Cards not yet drawn."""
        return len(self.cards) - self.position


# --------------------------------------------------------------------------------------------
# Per-game model: bet samplers and cached settlement


def _between(draw: float, low: int, high: int) -> int:
    """An integer from ``low`` to ``high`` inclusive for a uniform draw in [0, 1).

    ``random.randint`` costs several Python calls; a round makes dozens of such draws.
    """
    return low + int(draw * (high - low + 1))


def _cumulative(weights: list[float]) -> list[float]:
    """Cumulative shares ending at exactly 1.0: ``bisect_right(shares, draw)`` for a draw in
    [0, 1) is then always a valid index of the weighted choice."""
    total = sum(weights)
    running, cumulative = 0.0, []
    for weight in weights:
        running += weight
        cumulative.append(running / total)
    cumulative[-1] = 1.0
    return cumulative


class _StakeSampler:
    """Stakes in cents for one bet type: mostly chip amounts, some with odd cents."""

    def __init__(self, minimum: int, maximum: int, side_bet: bool):
        self.minimum, self.maximum = minimum, maximum
        amounts = sorted(
            {
                chip * count * 100
                for chip in _CHIPS
                for count in range(1, 6)
                if minimum <= chip * count * 100 <= maximum
            }
        )
        if not amounts:
            amounts = [minimum]
        steepness = 1.5 if side_bet else 1.15
        self.amounts = amounts
        self.cumulative = _cumulative([(amount / minimum) ** -steepness for amount in amounts])
        self.odd_units = (minimum // 100, min(maximum // 100 - 1, minimum // 100 * 10 + 40))

    def draw(self, random_draw: Callable[[], float]) -> int:
        """One stake within the limits, from a source of uniform draws in [0, 1)."""
        if random_draw() < _ODD_CENTS_SHARE and self.odd_units[1] >= self.odd_units[0]:
            units = _between(random_draw(), *self.odd_units)
            stake = units * 100 + 5 * _between(random_draw(), 1, 19)
            if self.minimum <= stake <= self.maximum:
                return stake
        return self.amounts[bisect_right(self.cumulative, random_draw())]


def _table_prefix(game_id: str) -> str:
    """``live-baccarat-it`` -> ``LB-IT``: initials of the name, then its last word."""
    words = game_id.split("-")
    if len(words) == 1:
        return words[0][:3].upper()
    return "".join(word[0] for word in words[:-1]).upper() + "-" + words[-1].upper()


class _MoneyTexts(dict[int, str]):
    """Cents -> :func:`format_cents` text, filled on first use (a plain lookup afterwards)."""

    def __missing__(self, cents: int) -> str:
        text = self[cents] = format_cents(cents)
        return text


class _GameModel:
    """One game's samplers, and its settlements cached by (bet, stake, pay-table row)."""

    def __init__(self, game: GameSpec, prefix: str, account_base: int):
        self.game = game
        self.prefix = prefix
        self.account_base = account_base
        self.clock = _Clock(game.timezone)
        self.live_shoe = not game.reshuffle_every_round
        # Bets travel through the generator as plain names ("banker"): an enum member hashes
        # through a Python call, and a month hashes bet types tens of millions of times.
        offered = [bet for bet in _BET_WEIGHTS if game.offers(bet)]
        self.bet_types = [bet.value for bet in offered]
        self.bet_cumulative = _cumulative([_BET_WEIGHTS[bet] for bet in offered])
        self.stakes = {
            bet.value: _StakeSampler(
                game.limits_for(bet).minimum,
                game.limits_for(bet).maximum,
                bet not in (BetType.PLAYER, BetType.BANKER, BetType.TIE),
            )
            for bet in offered
        }
        self.group_of: dict[str, int] = {}
        for index, group in enumerate(game.exclusive_bets):
            for bet in group:
                self.group_of[bet.value] = index
        self.deck = [
            Card(rank, suit) for _ in range(game.decks) for suit in SUITS for rank in RANKS
        ]
        self.same_points: dict[int, list[Card]] = {}
        for suit in SUITS:
            for rank in RANKS:
                card = Card(rank, suit)
                self.same_points.setdefault(card.points, []).append(card)
        self.payouts: dict[tuple[str, int, str], int] = {}
        self._outcomes: dict[tuple, tuple[int, Outcome]] = {}
        self.rows: dict[tuple[int, str], str] = {}
        self.money_texts = _MoneyTexts()
        self.accounts = [
            f"acc-{account_base + index:05d}" for index in range(_ACCOUNTS_PER_JURISDICTION)
        ]

    def outcome(self, player: tuple[Card, ...], banker: tuple[Card, ...]) -> tuple[int, Outcome]:
        """:func:`resolve_round` of the cards, cached on what the result depends on.

        Of the cards, a resolved round reads only each hand's two-card total, the points of
        its third card, and whether its first two cards share rank or rank and suit. Deals
        alike in those resolve alike, so the first one's :class:`Outcome` stands for the
        others'. Returns a number naming that key, for :meth:`payout`, with the outcome.
        """
        points = _RANK_POINTS
        player_first, player_second = player[0], player[1]
        banker_first, banker_second = banker[0], banker[1]
        player_pair = player_first.rank == player_second.rank
        banker_pair = banker_first.rank == banker_second.rank
        key = (
            (points[player_first.rank] + points[player_second.rank]) % 10,
            points[player[2].rank] if len(player) == 3 else -1,
            (points[banker_first.rank] + points[banker_second.rank]) % 10,
            points[banker[2].rank] if len(banker) == 3 else -1,
            player_pair,
            banker_pair,
            player_pair and player_first.suit == player_second.suit,
            banker_pair and banker_first.suit == banker_second.suit,
        )
        known = self._outcomes.get(key)
        if known is None:
            if len(self._outcomes) > _CACHE_LIMIT:
                self._outcomes.clear()
                self.rows.clear()
            # A small number names the key in the row cache: cheaper to hash than the key.
            known = self._outcomes[key] = (len(self._outcomes), resolve_round(player, banker))
        return known

    def payout(self, bet: str, stake: int, key: int, outcome: Outcome) -> int:
        """The engine's settlement of a bet on a resolved round, in cents.

        A payout depends only on the stake and the pay-table row that applies, so each
        (bet, stake, row) is settled once by :func:`settle` and remembered; the row of a bet
        on a round is remembered by the number of the round's :meth:`outcome` key.
        """
        row = self.rows.get((key, bet))
        if row is None:
            row = resolve_bet(BetType(bet), outcome, self.game.pay_table).row
            self.rows[(key, bet)] = row
        payout = self.payouts.get((bet, stake, row))
        if payout is None:
            if len(self.payouts) > _CACHE_LIMIT:
                self.payouts.clear()
            game = self.game
            settlement = settle(BetType(bet), stake, outcome, game.pay_table, game.rounding)
            payout = self.payouts[(bet, stake, row)] = settlement.payout
        return payout

    def money(self, cents: int) -> str:
        """:func:`format_cents`, remembered."""
        return self.money_texts[cents]


# --------------------------------------------------------------------------------------------
# Faults


@dataclass(slots=True)
class _PlannedFault:
    """A fault to inject: its kind, the table that carries it, and from when."""

    kind: str
    game: str
    table: int  # table number within the game, from 0
    target: int = 0  # epoch ms: the fault goes on the first suitable round from here on


@dataclass(slots=True)
class _AppliedFault:
    """A fault as written into a round, with what the manifest says of it."""

    kind: str
    category: str
    bet_index: int | None
    detail: str
    # Instructions the writer carries out, because they depend on the encoding.
    truncate_fraction: float = 0.0  # bad_json
    conflict_payout: str | None = None  # conflict (JSON lines): another payout for bet_index
    conflict_settled_at: str | None = None  # conflict (CSV): another settled_at
    extra: dict[str, Any] = field(default_factory=dict)  # more manifest keys


def _plan_faults(
    models: list[_GameModel],
    spans: dict[str, tuple[int, int]],
    tables: int,
    count: int,
    fmt: str,
    rng: random.Random,
) -> tuple[list[_PlannedFault], dict[str, str]]:
    """Which game and table carries each fault, and from when; and the kinds that cannot be."""
    skipped: dict[str, str] = {}
    planned: list[_PlannedFault] = []
    if count <= 0:
        return planned, skipped
    all_games = [model.game.id for model in models]
    for kind_index, kind in enumerate(FAULT_KINDS):
        if kind == "shoe_card_count":
            eligible = [model.game.id for model in models if model.live_shoe]
            if not eligible:
                skipped[kind] = "no game of the configuration deals from a shoe with a shoe id"
                continue
        elif kind == "exclusive_side_bets":
            eligible = [model.game.id for model in models if model.game.exclusive_bets]
            if not eligible:
                skipped[kind] = "no game of the configuration has exclusive bets"
                continue
        elif kind == "bad_json" and fmt == "csv":
            skipped[kind] = "a CSV file has no JSON to break"
            continue
        else:
            eligible = all_games
        for ordinal in range(count):
            spread = kind_index + ordinal
            game = eligible[spread % len(eligible)]
            table = (kind_index + ordinal // len(eligible)) % tables
            planned.append(_PlannedFault(kind, game, table))
    # Spread each table's faults over its month, in an order of the seed's choosing. A shoe
    # fault waits for the last hand of a shoe, so it is aimed at the first half of the month.
    by_table: dict[tuple[str, int], list[_PlannedFault]] = {}
    for fault in planned:
        by_table.setdefault((fault.game, fault.table), []).append(fault)
    for (game, _), faults in sorted(by_table.items()):
        start, end = spans[game]
        shoe_faults = [fault for fault in faults if fault.kind == "shoe_card_count"]
        other_faults = [fault for fault in faults if fault.kind != "shoe_card_count"]
        rng.shuffle(other_faults)
        for group, reach in ((other_faults, 0.90), (shoe_faults, 0.50)):
            for position, fault in enumerate(group):
                share = 0.03 + (reach - 0.03) * (position + 0.5) / len(group)
                fault.target = start + int((end - start) * share)
    return planned, skipped


# --------------------------------------------------------------------------------------------
# One table's month


@dataclass(frozen=True, slots=True)
class _ShoeSwap:
    """A deal with one card logged as another of the same points."""

    player: tuple[Card, ...]
    banker: tuple[Card, ...]
    original: Card
    replacement: Card


# One round on its way to the writer: (settled ms, table order, game id, round, void, fault).
# A plain tuple, so that the merge orders rounds by settlement time, then table, for free.
_RoundRecord = tuple[int, int, str, dict[str, Any], bool, "_AppliedFault | None"]


class _Table:
    """One table (or RNG game instance) dealing through the month, round after round."""

    def __init__(
        self,
        model: _GameModel,
        number: int,
        order: int,
        span: tuple[int, int],
        month_start_utc: int,
        rounds_per_day: int | None,
        faults: list[_PlannedFault],
        unconfigured_game: str,
        seed: int,
    ):
        self.model = model
        self.game = model.game
        self.table_id = f"{model.prefix}-{number + 1:02d}"
        self.order = order
        self.span_start, self.span_end = span
        self.month_start_utc = month_start_utc
        self.rounds_per_day = rounds_per_day
        self.rng = random.Random(f"{seed}:{self.game.id}:{number}")
        self.shoe_faults = sorted(
            (f for f in faults if f.kind == "shoe_card_count"), key=lambda f: f.target
        )
        self.other_faults = sorted(
            (f for f in faults if f.kind != "shoe_card_count"), key=lambda f: (f.target, f.kind)
        )
        self.unconfigured_game = unconfigured_game
        self.shoe: _Shoe | None = None
        self.shoe_id: str | None = None
        self.shoe_day = ""
        self.shoes_today = 0
        self.shoe_counts: dict[str, int] = {}
        self.shoes = 0
        self.hand_no = 0
        self.round_sequence: dict[str, int] = {}
        self.bad_value_count = 0
        self.activity = [
            math.exp(-_MEAN_BETS * factor * 24 / sum(_HOURLY_ACTIVITY))
            for factor in _HOURLY_ACTIVITY
        ]

    @property
    def unplaced_faults(self) -> list[_PlannedFault]:
        """Faults the month ended before placing."""
        return self.shoe_faults + self.other_faults

    # ---- schedule

    def _round_starts(self) -> Iterator[int]:
        rng = self.rng
        gap = _ROUND_GAP
        if self.rounds_per_day is None:
            moment = self.span_start + rng.randint(1 * _SECOND, 8 * _SECOND)
            while True:
                yield moment
                moment += _between(rng.random(), *gap)
        previous: int | None = None
        for day_start in range(self.span_start, self.span_end, _DAY):
            day_end = min(day_start + _DAY, self.span_end)
            for session_start, size in self._sessions(day_start, day_end):
                moment = session_start
                if previous is not None:
                    moment = max(moment, previous + _between(rng.random(), *gap))
                for _ in range(size):
                    yield moment
                    previous = moment
                    moment += _between(rng.random(), *gap)

    def _sessions(self, day_start: int, day_end: int) -> list[tuple[int, int]]:
        """Sessions of about 20 rounds spread over a day; the first day opens with one at the
        month's first minute and one across UTC midnight, the last ends at the month's end."""
        rng = self.rng
        assert self.rounds_per_day is not None
        rounds = round(self.rounds_per_day * (day_end - day_start) / _DAY)
        if rounds <= 0:
            return []
        count = math.ceil(rounds / _SESSION_ROUNDS)
        first_day = day_start == self.span_start
        crosses_utc_midnight = first_day and day_start < self.month_start_utc < day_end
        if crosses_utc_midnight and rounds >= 2:
            count = max(count, 2)
        sizes = [rounds // count + (1 if index < rounds % count else 0) for index in range(count)]
        window = (day_end - day_start) // count
        starts = []
        for index, size in enumerate(sizes):
            slack = window - size * _ROUND_GAP[1] - _MINUTE
            starts.append(day_start + index * window + rng.randint(0, max(0, slack)))
        if first_day:
            starts[0] = day_start + rng.randint(1 * _SECOND, 8 * _SECOND)
            if count >= 2 and crosses_utc_midnight:
                starts[1] = self.month_start_utc - sizes[1] * _ROUND_GAP[0] // 2
        if day_end == self.span_end:
            starts[-1] = max(day_start, day_end - sizes[-1] * _ROUND_GAP[1] - _SETTLE_AFTER[1])
        return sorted(zip(starts, sizes, strict=True))

    # ---- shoes

    def _new_shoe(self, started: int) -> None:
        rng = self.rng
        cards = list(self.model.deck)
        rng.shuffle(cards)
        shoe = _Shoe(cards)
        burn_card = next(shoe)
        for _ in range(burn_card.points or 10):
            next(shoe)
        day = self.model.clock.local_day(started)
        self.shoes += 1
        self.shoes_today = self.shoes_today + 1 if self.shoe_day == day else 1
        self.shoe_day = day
        self.shoe = shoe
        self.shoe_id = f"{self.table_id}-{day}-S{self.shoes_today:02d}"
        self.shoe_counts = {}
        self.hand_no = 0

    def _find_shoe_swap(
        self, player: tuple[Card, ...], banker: tuple[Card, ...], outcome: Outcome
    ) -> _ShoeSwap | None:
        """A card to log as another of the same points whose every copy this shoe has already
        shown, leaving every fact of the round (values, pairs, drawing) unchanged."""
        decks = self.game.decks
        facts = _facts(outcome)
        hands = [list(player), list(banker)]
        positions = [(hand, index) for hand in (0, 1) for index in range(len(hands[hand]))]
        positions.sort(key=lambda position: -position[1])  # third cards first: no pair to keep
        for hand, index in positions:
            card = hands[hand][index]
            others = [
                c.code for h in (0, 1) for i, c in enumerate(hands[h]) if (h, i) != (hand, index)
            ]
            for candidate in self.model.same_points[card.points]:
                if candidate == card:
                    continue
                shown = self.shoe_counts.get(candidate.code, 0) + others.count(candidate.code)
                if shown < decks:
                    continue
                swapped = [list(player), list(banker)]
                swapped[hand][index] = candidate
                new_outcome = resolve_round(swapped[0], swapped[1])
                if _facts(new_outcome) == facts and not new_outcome.breaches:
                    return _ShoeSwap(tuple(swapped[0]), tuple(swapped[1]), card, candidate)
        return None

    # ---- rounds

    def rounds(self) -> Iterator[_RoundRecord]:
        """Every round of the month on this table, in time order."""
        rng = self.rng
        model = self.model
        game = self.game
        clock = model.clock
        for started in self._round_starts():
            settled = started + _between(rng.random(), *_SETTLE_AFTER)
            if settled >= self.span_end:
                return
            closed = (started + _BETTING_OPEN) // _SECOND * _SECOND
            if model.live_shoe:
                if self.shoe is None or self.shoe.remaining <= game.cut_card_depth:
                    self._new_shoe(started)
                self.hand_no += 1
                source = self.shoe
            else:
                # A freshly shuffled shoe each round: its first seven cards are a uniform
                # sample of the decks, and no round deals more than seven.
                source = _Shoe(rng.sample(model.deck, 7))
            assert source is not None
            player, banker = deal_round(source)

            planned, swap = self._due_fault(started, source, player, banker)
            kind = planned.kind if planned is not None else None
            if swap is not None:
                player, banker = swap.player, swap.banker
            breaches = ""
            if kind == "third_card_rule":
                player, banker = _break_drawing_rule(player, banker, source)
                found = resolve_round(player, banker).breaches
                assert found, "a third-card fault must break a drawing rule"
                breaches = "; ".join(breach.message for breach in found)

            void = kind == "void_not_refunded" or (planned is None and rng.random() < _VOID_RATE)
            style = _pick_style(rng.random())
            bets = self._place_bets(self._bet_count(clock.local_hour(started)), started, closed)
            if planned is not None and not bets:
                bets = self._place_bets(1, started, closed)
            target_bet, detail = self._alter_bets(kind, bets, started, closed)
            bets.sort()  # by time placed (then bet type, account)

            data = self._round_data(started, closed, settled, style, void, player, banker, bets)
            fault = None
            if planned is not None:
                if target_bet is not None:
                    bet_index = next(i for i, bet in enumerate(bets) if bet is target_bet)
                else:
                    bet_index = rng.randrange(len(bets))
                fault = self._apply_fault(
                    planned.kind, data, bet_index, settled, detail or breaches, swap
                )

            loads = fault is None or fault.category == "finding" or fault.kind == "conflict"
            if self.shoe_faults and not void and loads:
                # Only a pending shoe fault needs to know what the shoe has shown.
                counts = self.shoe_counts
                for card in player + banker:
                    counts[card.code] = counts.get(card.code, 0) + 1
            yield settled, self.order, game.id, data, void, fault

    def _due_fault(
        self, started: int, source: _Shoe, player: tuple[Card, ...], banker: tuple[Card, ...]
    ) -> tuple[_PlannedFault | None, _ShoeSwap | None]:
        """The fault this round carries, if one is due: a shoe fault on the last hand of a
        shoe when a card can be swapped, otherwise the next fault whose time has come."""
        if (
            self.model.live_shoe
            and self.shoe_faults
            and self.shoe_faults[0].target <= started
            and source.remaining <= self.game.cut_card_depth
        ):
            swap = self._find_shoe_swap(player, banker, self.model.outcome(player, banker)[1])
            if swap is not None:
                return self.shoe_faults.pop(0), swap
        if self.other_faults and self.other_faults[0].target <= started:
            return self.other_faults.pop(0), None
        return None, None

    def _alter_bets(
        self, kind: str | None, bets: list[list], started: int, closed: int
    ) -> tuple[list | None, str]:
        """Faults made before settlement: an out-of-limits stake, a late bet, a second bet of an
        exclusive group. Returns the bet concerned and a description."""
        rng = self.rng
        model = self.model
        if kind == "stake_out_of_limits":
            bet = bets[rng.randrange(len(bets))]
            limits = self.game.limits_for(BetType(bet[1]))
            if rng.random() < 0.5 and limits.minimum > 1:
                # Half the minimum, in whole units when that stays above zero.
                bet[3] = limits.minimum // 200 * 100 or limits.minimum // 2
                where = f"below the minimum {model.money(limits.minimum)}"
            else:
                bet[3] = limits.maximum + max(100, limits.maximum // 200 * 100)
                where = f"above the maximum {model.money(limits.maximum)}"
            return bet, f"{bet[1]} stake {model.money(bet[3])} {self.game.currency} is {where}"
        if kind == "late_bet":
            bet = bets[rng.randrange(len(bets))]
            bet[0] = closed + rng.randint(300, 8 * _SECOND)
            return bet, ""  # described once the times are written
        if kind == "exclusive_side_bets":
            return self._add_exclusive_breach(bets, started, closed)
        return None, ""

    def _round_data(
        self,
        started: int,
        closed: int,
        settled: int,
        style: str,
        void: bool,
        player: tuple[Card, ...],
        banker: tuple[Card, ...],
        bets: list[list],
    ) -> dict[str, Any]:
        """The round as the log writes it, every bet settled by the engine (or refunded)."""
        model = self.model
        game = self.game
        clock = model.clock
        day = clock.local_day(started)
        round_number = self.round_sequence[day] = self.round_sequence.get(day, 0) + 1
        data: dict[str, Any] = {
            "round_id": f"{self.table_id}-{day}-{round_number:04d}",
            "table_id": self.table_id,
            "game": game.id,
            "shoe_id": self.shoe_id if model.live_shoe else None,
        }
        if model.live_shoe:
            data["hand_no"] = self.hand_no
        data["started_at"] = clock.format(started, style)
        data["betting_closed_at"] = clock.format(closed, style, milliseconds=False)
        data["settled_at"] = clock.format(settled, style)
        currency = game.currency
        money = model.money_texts
        if void:
            data["status"] = "void"
            reasons = _LIVE_VOID_REASONS if game.kind == "live" else _RNG_VOID_REASONS
            data["void_reason"] = reasons[self.rng.randrange(len(reasons))]
            player, banker = _partial_deal(player, banker, self.rng)
            payouts = [refund(BetType(bet), stake).payout for _, bet, _, stake in bets]
        else:
            data["status"] = "settled"
            key, outcome = model.outcome(player, banker)
            payouts = []
            rows_known, payouts_known = model.rows, model.payouts
            for _, bet, _, stake in bets:
                # The caches of :meth:`_GameModel.payout`, read here first: most bets hit them.
                row = rows_known.get((key, bet))
                paid = None if row is None else payouts_known.get((bet, stake, row))
                payouts.append(model.payout(bet, stake, key, outcome) if paid is None else paid)
        data["player_cards"] = [card.rank + card.suit for card in player]
        data["banker_cards"] = [card.rank + card.suit for card in banker]
        if style == "local":
            placed_at = [clock.format(placed, style) for placed, _, _, _ in bets]
        else:
            # UTC spellings, inlined from :meth:`_Clock.format`: six of them a round.
            prefixes, seconds = clock.minute_prefixes, _SECONDS_WITH_MILLISECONDS
            placed_at = [
                prefixes[placed // _MINUTE] + seconds[placed % _MINUTE] + style
                for placed, _, _, _ in bets
            ]
        rows = [
            {
                "bet_id": None,  # numbered by the writer, in file order
                "account": account,
                "type": bet,
                "stake": money[stake],
                "payout": money[paid],
                "currency": currency,
                "placed_at": placed_text,
            }
            for (_, bet, account, stake), paid, placed_text in zip(
                bets, payouts, placed_at, strict=True
            )
        ]
        data["bets"] = rows
        return data

    def _bet_count(self, hour: int) -> int:
        """A Poisson count of bets (Knuth's method) around the hour's mean."""
        threshold = self.activity[hour]
        random_draw = self.rng.random
        count, product = 0, random_draw()
        while product > threshold and count < 60:
            count += 1
            product *= random_draw()
        return count

    def _place_bets(self, count: int, started: int, closed: int) -> list[list]:
        """``count`` bets as ``[placed_ms, bet type, account, stake]``, house rules kept:
        an account bets each type at most once a round, and one bet per exclusive group."""
        # The hottest loop of the generator: locals and inlined draws on purpose.
        random_draw = self.rng.random
        model = self.model
        bet_types, cumulative, stakes = model.bet_types, model.bet_cumulative, model.stakes
        accounts, pool = model.accounts, _ACCOUNTS_PER_JURISDICTION
        exclusive = bool(model.group_of)
        first_moment, moments = started + 500, closed - 200 - (started + 500) + 1
        bets: list[list] = []
        held: dict[str, set[str]] = {}
        accounts_in_round: list[str] = []
        for _ in range(count):
            bet = bet_types[bisect_right(cumulative, random_draw())]
            account = None
            if accounts_in_round and random_draw() < _ACCOUNT_REUSE:
                candidate = accounts_in_round[int(random_draw() * len(accounts_in_round))]
                if bet not in held[candidate] and (
                    not exclusive or self._may_add(held[candidate], bet)
                ):
                    account = candidate
            while account is None:
                # Squaring the draw makes some accounts regulars and most occasional.
                candidate = accounts[int(pool * random_draw() ** 2)]
                holding = held.get(candidate)
                if holding is None:
                    held[candidate] = set()
                    accounts_in_round.append(candidate)
                    account = candidate
                elif bet not in holding and (not exclusive or self._may_add(holding, bet)):
                    account = candidate
            held[account].add(bet)
            placed = first_moment + int(random_draw() * moments)
            bets.append([placed, bet, account, stakes[bet].draw(random_draw)])
        return bets

    def _may_add(self, held: set[str], bet: str) -> bool:
        """Whether an account holding ``held`` may add ``bet`` under the exclusive groups."""
        group = self.model.group_of.get(bet)
        return group is None or all(self.model.group_of.get(other) != group for other in held)

    def _add_exclusive_breach(
        self, bets: list[list], started: int, closed: int
    ) -> tuple[list, str]:
        """Give one account a second bet of an exclusive group (the Greek house rule)."""
        rng = self.rng
        model = self.model
        group = sorted(bet.value for bet in self.game.exclusive_bets[0])
        holders = [bet for bet in bets if bet[1] in group]
        if holders:
            first = holders[rng.randrange(len(holders))]
        else:
            account = bets[rng.randrange(len(bets))][2]
            first_type = group[rng.randrange(len(group))]
            first = [rng.randint(started + 500, closed - 200), first_type, account,
                     model.stakes[first_type].draw(rng.random)]  # fmt: skip
            bets.append(first)
        second_type = next(bet for bet in group if bet != first[1])
        second = [rng.randint(started + 500, closed - 200), second_type, first[2],
                  model.stakes[second_type].draw(rng.random)]  # fmt: skip
        bets.append(second)
        detail = (
            f"account {first[2]} holds {first[1]} and {second_type} in one round; "
            f"the house allows one of {', '.join(group)}"
        )
        return second, detail

    def _apply_fault(
        self,
        kind: str,
        data: dict[str, Any],
        bet_index: int,
        settled: int,
        detail: str,
        swap: _ShoeSwap | None,
    ) -> _AppliedFault:
        """Write the fault into the round (or leave the writer instructions) and describe it."""
        rng = self.rng
        model = self.model
        bet = data["bets"][bet_index]
        if kind == "stake_out_of_limits":
            return _AppliedFault(kind, "finding", bet_index, detail)
        if kind == "late_bet":
            return _AppliedFault(
                kind, "finding", bet_index,
                f"{bet['type']} bet placed at {bet['placed_at']}, after betting closed at "
                f"{data['betting_closed_at']}",
            )  # fmt: skip
        if kind == "exclusive_side_bets":
            return _AppliedFault(kind, "finding", None, detail, extra={"account": bet["account"]})
        if kind == "third_card_rule":
            return _AppliedFault(kind, "finding", None, detail)
        if kind == "shoe_card_count":
            assert swap is not None
            return _AppliedFault(
                kind, "finding", None,
                f"{swap.original.code} logged as {swap.replacement.code} on the last hand of "
                f"shoe {data['shoe_id']}: {swap.replacement.code} appears {self.game.decks + 1} "
                f"times in a shoe of {self.game.decks} decks",
                extra={"card": swap.replacement.code},
            )  # fmt: skip
        if kind == "payout_mismatch":
            expected = bet["payout"]
            stake_cents = parse_amount(bet["stake"])
            expected_cents = parse_amount(expected)
            if expected_cents == 0:
                logged_cents, how = stake_cents, "a lost bet paid back as a push"
            elif expected_cents == stake_cents:
                logged_cents, how = 0, "a push kept as a loss"
            elif bet["type"] == "banker":
                logged_cents, how = 2 * stake_cents, "a banker win paid at even money"
            else:
                logged_cents, how = expected_cents + 100, "a win overpaid by one unit"
            bet["payout"] = model.money(logged_cents)
            return _AppliedFault(
                kind, "finding", bet_index,
                f"{bet['type']} bet of {bet['stake']}: logged payout {bet['payout']}, the engine "
                f"settles {expected} on the logged cards ({how})",
                extra={"expected_payout": expected, "logged_payout": bet["payout"]},
            )  # fmt: skip
        if kind == "void_not_refunded":
            bet["payout"] = "0.00"
            return _AppliedFault(
                kind, "finding", bet_index,
                f"void round ({data['void_reason']}): {bet['type']} bet of {bet['stake']} "
                "logged with payout 0.00 instead of its stake",
                extra={"expected_payout": bet["stake"], "logged_payout": "0.00"},
            )  # fmt: skip
        # Lines the reader must reject.
        if kind == "bad_json":
            return _AppliedFault(
                kind, "reject", None, "line cut short: not valid JSON",
                truncate_fraction=rng.uniform(0.3, 0.9),
            )  # fmt: skip
        if kind == "missing_field":
            del data["settled_at"]
            return _AppliedFault(kind, "reject", None, "the required field settled_at is missing")
        if kind == "bad_card":
            hands = [hand for hand in ("player_cards", "banker_cards") if data[hand]]
            hand = hands[rng.randrange(len(hands))]
            index = rng.randrange(len(data[hand]))
            original = data[hand][index]
            data[hand][index] = "1X"
            return _AppliedFault(kind, "reject", None, f"{hand} card {original} written as 1X")
        if kind == "bad_money":
            return _AppliedFault(
                kind, "reject", bet_index, f"stake {bet['stake']} written as a number, not a string"
            )
        if kind == "naive_timestamp":
            data["settled_at"] = model.clock.naive(settled)
            return _AppliedFault(
                kind, "reject", None, f"settled_at {data['settled_at']} has no offset"
            )
        if kind == "unknown_bet_type":
            original = bet["type"]
            bet["type"] = "dragon_bonus"
            return _AppliedFault(
                kind, "reject", bet_index, f"bet type dragon_bonus (the bet was {original})"
            )
        if kind == "unknown_game":
            data["game"] = self.unconfigured_game
            return _AppliedFault(
                kind, "reject", None,
                f"game {self.unconfigured_game} is not in the configuration (table "
                f"{self.table_id} runs {self.game.id})",
            )  # fmt: skip
        if kind == "conflict":
            other_payout = "0.00" if bet["payout"] != "0.00" else bet["stake"]
            return _AppliedFault(
                kind, "reject", bet_index, "",  # described by the writer, which knows the lines
                conflict_payout=other_payout,
                conflict_settled_at=model.clock.format(settled + _SECOND, "Z"),
            )  # fmt: skip
        if kind == "bad_value":
            self.bad_value_count += 1
            if self.bad_value_count % 2 == 1:
                data["status"] = "pending"
                return _AppliedFault(
                    kind, "reject", None, "status 'pending' is neither settled nor void"
                )
            cards = data["player_cards"]
            data["player_cards"] = [*cards, *(["7C"] * (4 - len(cards)))]
            return _AppliedFault(kind, "reject", None, "a settled round with 4 player cards")
        raise AssertionError(f"unknown fault kind {kind}")


def _facts(outcome: Outcome) -> tuple:
    return (
        outcome.player_value,
        outcome.banker_value,
        outcome.player_natural,
        outcome.banker_natural,
        outcome.player_pair,
        outcome.banker_pair,
        outcome.player_suited_pair,
        outcome.banker_suited_pair,
        outcome.cards_dealt,
    )


def _pick_style(draw: float) -> str:
    for bound, style in _STYLE_WEIGHTS:
        if draw < bound:
            return style
    return "Z"


def _break_drawing_rule(
    player: tuple[Card, ...], banker: tuple[Card, ...], shoe: _Shoe
) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """The same deal with one drawing decision reversed, cards taken from or returned to the
    shoe so that the shoe's counts stay true."""
    if len(banker) == 3:
        # The Banker's third card was the last one drawn: it goes back on top of the shoe.
        shoe.put_back()
        return player, banker[:2]
    if len(player) == 2:
        return (*player, next(shoe)), banker
    return player, (*banker, next(shoe))


def _partial_deal(
    player: tuple[Card, ...], banker: tuple[Card, ...], rng: random.Random
) -> tuple[list[Card], list[Card]]:
    """The cards logged before a malfunction voided the round: a prefix of the deal order."""
    order = [("p", player[0]), ("b", banker[0]), ("p", player[1]), ("b", banker[1])]
    order += [("p", card) for card in player[2:]] + [("b", card) for card in banker[2:]]
    shown = len(order) if rng.random() < 0.5 else rng.randrange(len(order))
    logged_player = [card for hand, card in order[:shown] if hand == "p"]
    logged_banker = [card for hand, card in order[:shown] if hand == "b"]
    return logged_player, logged_banker


# --------------------------------------------------------------------------------------------
# Writers


_ROUND_COLUMNS = CSV_ROUND_FIELDS  # the reader's columns, so the two cannot drift apart
_BET_COLUMNS = CSV_BET_FIELDS


class _BackgroundStream:
    """Writes chunks to a stream on a second thread: zlib compresses without holding the GIL,
    so a gzipped log costs little more time than a plain one on a machine with two cores."""

    def __init__(self, stream: Any):
        self._stream = stream
        self._chunks: queue.Queue[bytes | None] = queue.Queue(maxsize=4)
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="gzip-writer", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            while (chunk := self._chunks.get()) is not None:
                self._stream.write(chunk)
        except BaseException as error:  # handed to the producer on its next write or close
            self._error = error
            while self._chunks.get() is not None:
                pass

    def write(self, chunk: bytes) -> None:
        if self._error is not None:
            raise self._error
        self._chunks.put(chunk)

    def close(self) -> None:
        self._chunks.put(None)
        self._thread.join()
        self._stream.close()
        if self._error is not None:
            raise self._error


class _JsonLinesWriter:
    """One round per line, compact JSON, optionally gzipped with a fixed header."""

    def __init__(self, path: Path):
        self.path = path
        self.temporary = path.with_name(path.name + ".part")
        self._raw = self.temporary.open("wb")
        target: Any = self._raw
        if path.name.endswith(".gz"):
            # No file name and no time in the header: the same log gives the same bytes.
            target = gzip.GzipFile(
                filename="", mode="wb", fileobj=self._raw, mtime=0, compresslevel=6
            )
        self._stream = _BackgroundStream(target)
        self._encoder = msgspec.json.Encoder()
        self._pending: list[bytes] = []
        self.lines = 0

    def write_round(
        self, data: dict[str, Any], fault: _AppliedFault | None
    ) -> tuple[int, int | None]:
        line = self._encode(data, fault)
        if fault is not None and fault.kind == "bad_json":
            line = line[: max(1, int(len(line) * fault.truncate_fraction))]
        self._write(line)
        first = self.lines
        if fault is not None and fault.kind == "conflict":
            assert fault.bet_index is not None
            repeat = dict(data)
            repeat["bets"] = [dict(bet) for bet in data["bets"]]
            repeat["bets"][fault.bet_index]["payout"] = fault.conflict_payout
            self._write(self._encoder.encode(repeat))
            fault.detail = (
                f"repeats round {data['round_id']} of line {first} with payout "
                f"{fault.conflict_payout} instead of {data['bets'][fault.bet_index]['payout']} "
                f"for bet {data['bets'][fault.bet_index]['bet_id']}"
            )
            fault.extra["first_line"] = first
        return self.lines, None

    def _encode(self, data: dict[str, Any], fault: _AppliedFault | None) -> bytes:
        if fault is not None and fault.kind == "bad_money":
            assert fault.bet_index is not None
            data = dict(data)
            data["bets"] = [dict(bet) for bet in data["bets"]]
            bet = data["bets"][fault.bet_index]
            bet["stake"] = msgspec.Raw(bet["stake"].encode())
        return self._encoder.encode(data)

    def _write(self, line: bytes) -> None:
        self._pending.append(line)
        self.lines += 1
        if len(self._pending) >= 2000:
            self._flush()

    def _flush(self) -> None:
        if self._pending:
            self._stream.write(b"\n".join(self._pending) + b"\n")
            self._pending = []

    def files(self) -> list[Path]:
        return [self.path]

    def close(self, keep: bool) -> None:
        try:
            self._flush()
        finally:
            self._stream.close()  # closes the gzip stream, or the file itself
            self._raw.close()
        if keep:
            os.replace(self.temporary, self.path)
        else:
            self.temporary.unlink(missing_ok=True)


class _CsvWriter:
    """``rounds.csv`` and ``bets.csv`` in one folder, sharing ``round_id``."""

    def __init__(self, folder: Path):
        folder.mkdir(parents=True, exist_ok=True)
        self.folder = folder
        self.paths = [folder / "rounds.csv", folder / "bets.csv"]
        self._handles = [
            path.with_name(path.name + ".part").open("w", encoding="utf-8", newline="")
            for path in self.paths
        ]
        self._rounds = csv.writer(self._handles[0], lineterminator="\n")
        self._bets = csv.writer(self._handles[1], lineterminator="\n")
        self._rounds.writerow(_ROUND_COLUMNS)
        self._bets.writerow(_BET_COLUMNS)
        self.lines = 0
        self.bet_lines = 0

    def _round_row(self, data: dict[str, Any]) -> list[str]:
        row = []
        for column in _ROUND_COLUMNS:
            value = data.get(column)
            if isinstance(value, list):
                value = " ".join(value)
            row.append("" if value is None else str(value))
        return row

    def write_round(
        self, data: dict[str, Any], fault: _AppliedFault | None
    ) -> tuple[int, int | None]:
        self._rounds.writerow(self._round_row(data))
        self.lines += 1
        round_line = self.lines + 1  # the header is line 1
        bet_line = None
        for index, bet in enumerate(data["bets"]):
            stake = bet["stake"]
            if fault is not None and fault.kind == "bad_money" and index == fault.bet_index:
                stake = stake.replace(".", ",")
                fault.detail = f"stake {bet['stake']} written as {stake}"
            self._bets.writerow(
                [data["round_id"], bet["bet_id"], bet["account"], bet["type"], stake,
                 bet["payout"], bet["currency"], bet["placed_at"] or ""]
            )  # fmt: skip
            self.bet_lines += 1
            if fault is not None and index == fault.bet_index:
                bet_line = self.bet_lines + 1
        if fault is not None and fault.kind == "conflict":
            repeat = dict(data)
            repeat["settled_at"] = fault.conflict_settled_at
            self._rounds.writerow(self._round_row(repeat))
            self.lines += 1
            fault.detail = (
                f"repeats round {data['round_id']} of line {round_line} with settled_at "
                f"{fault.conflict_settled_at} instead of {data['settled_at']}"
            )
            fault.extra["first_line"] = round_line
            fault.bet_index = None
            bet_line = None
            round_line = self.lines + 1
        return round_line, bet_line

    def files(self) -> list[Path]:
        return list(self.paths)

    def close(self, keep: bool) -> None:
        for handle, path in zip(self._handles, self.paths, strict=True):
            handle.close()
            temporary = path.with_name(path.name + ".part")
            if keep:
                os.replace(temporary, path)
            else:
                temporary.unlink(missing_ok=True)


# --------------------------------------------------------------------------------------------
# The month


def generate_month(
    config: OperatorConfig,
    month: str,
    out: Path,
    *,
    tables: int = 1,
    seed: int = 0,
    faults: int = 0,
    rounds_per_day: int | None = None,
    fmt: LogFormat | None = None,
) -> SampleSummary:
    """Write a synthetic round log of ``month`` for every game of ``config``.

    Each game runs ``tables`` tables (``LB-IT-01``, ...) through the game's own month (its
    time zone decides which rounds belong to it): 24 hours a day at about 45 s a round, or
    ``rounds_per_day`` rounds a day in sessions. ``out`` is a ``.jsonl`` or ``.jsonl.gz`` file,
    or with ``fmt="csv"`` a folder that receives ``rounds.csv`` and ``bets.csv``.

    ``faults=N`` injects N faults of every finding kind and every reject reason, each on its
    own round; the manifest written beside the log (``<out>.faults.json``, or ``faults.json``
    in the CSV folder) lists them with their line numbers. The same arguments give the same
    bytes.
    """
    year, number = parse_month(month)
    month_text = f"{year:04d}-{number:02d}"
    out = Path(out)
    if fmt is None:
        if out.name.endswith((".jsonl", ".jsonl.gz")):
            fmt = "jsonl"
        else:
            raise InputError(
                f"{out}: name the log *.jsonl or *.jsonl.gz, or write CSV into a folder with "
                "--format csv"
            )
    if fmt == "jsonl" and not out.name.endswith((".jsonl", ".jsonl.gz")):
        raise InputError(f"{out}: a JSON lines log is named *.jsonl or *.jsonl.gz")
    if fmt not in ("jsonl", "csv"):
        raise InputError(f"format {fmt!r}: expected jsonl or csv")
    if fmt == "csv" and out.exists() and not out.is_dir():
        raise InputError(f"{out}: CSV output goes into a folder, and this is a file")
    if not 1 <= tables <= 99:
        raise InputError(f"--tables {tables}: expected 1 to 99 tables per game")
    if faults < 0:
        raise InputError(f"--faults {faults}: expected 0 or more")
    if rounds_per_day is not None and rounds_per_day < 1:
        raise InputError(f"--rounds-per-day {rounds_per_day}: expected 1 or more")
    if fmt == "jsonl" and out.parent.exists() and not out.parent.is_dir():
        raise InputError(f"{out.parent}: not a folder")

    models: list[_GameModel] = []
    jurisdictions = sorted({game.jurisdiction for game in config.games.values()})
    used_prefixes: set[str] = set()
    for index, game_id in enumerate(sorted(config.games)):
        game = config.games[game_id]
        prefix = _table_prefix(game_id)
        if prefix in used_prefixes:
            prefix = f"{prefix}{index}"
        used_prefixes.add(prefix)
        account_base = 10000 + jurisdictions.index(game.jurisdiction) * _ACCOUNTS_PER_JURISDICTION
        models.append(_GameModel(game, prefix, account_base))
    spans = {model.game.id: month_span(month_text, model.game.timezone) for model in models}

    planned, skipped = _plan_faults(
        models, spans, tables, faults, fmt, random.Random(f"{seed}:faults")
    )
    _check_room_for_faults(planned, spans, rounds_per_day)
    unconfigured = next(
        (game for game in _UNCONFIGURED_GAMES if game not in config.games), "unconfigured-game"
    )
    month_start_utc = _epoch_ms(datetime(year, number, 1, tzinfo=UTC))
    table_runs: list[_Table] = []
    for model in models:
        for table_number in range(tables):
            table_faults = [
                fault
                for fault in planned
                if fault.game == model.game.id and fault.table == table_number
            ]
            table_runs.append(
                _Table(
                    model, table_number, len(table_runs), spans[model.game.id], month_start_utc,
                    rounds_per_day, table_faults, unconfigured, seed,
                )
            )  # fmt: skip

    if fmt == "csv":
        writer: _JsonLinesWriter | _CsvWriter = _CsvWriter(out)
        manifest_path = out / "faults.json"
        log_name = out.name
    else:
        out.parent.mkdir(parents=True, exist_ok=True)
        writer = _JsonLinesWriter(out)
        manifest_path = out.with_name(out.name + ".faults.json")
        log_name = out.name

    statistics = {model.game.id: _GameTally() for model in models}
    entries: list[dict[str, Any]] = []
    rounds = bets = voids = rejected = 0
    bet_number = 0
    kept = False
    try:
        # (settled, table order) is unique, so the merge never compares two rounds' data.
        merged = heapq.merge(*(table.rounds() for table in table_runs))
        for _, _, game_id, data, void, fault in merged:
            for bet in data["bets"]:
                bet_number += 1
                bet["bet_id"] = f"B-{bet_number:08d}"
            line, bet_line = writer.write_round(data, fault)
            rounds += 1
            bets += len(data["bets"])
            voids += void
            statistics[game_id].add(data, void)
            if fault is not None:
                rejected += fault.category == "reject"
                entry: dict[str, Any] = {
                    "category": fault.category,
                    "kind": fault.kind,
                    "game": data["game"],
                    "table_id": data["table_id"],
                    "round_id": data["round_id"],
                    "bet_id": data["bets"][fault.bet_index]["bet_id"]
                    if fault.bet_index is not None
                    else None,
                    "line": line,
                    "detail": fault.detail,
                }
                if bet_line is not None:
                    entry["bets_line"] = bet_line
                entry.update(fault.extra)
                entries.append(entry)
        unplaced = [fault for table in table_runs for fault in table.unplaced_faults]
        if unplaced:
            kinds = ", ".join(sorted({fault.kind for fault in unplaced}))
            raise InputError(
                f"the month ended before {len(unplaced)} faults ({kinds}) found a round: give it "
                "more rounds (--rounds-per-day) or ask for fewer --faults"
            )
        kept = True
    finally:
        writer.close(keep=kept)

    entries.sort(key=lambda entry: entry["line"])
    manifest = {"log": log_name, "seed": seed, "month": month_text, "faults": entries}
    manifest_path.write_text(
        json.dumps(manifest, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )

    counts = {kind: 0 for kind in FAULT_KINDS}
    for entry in entries:
        counts[entry["kind"]] += 1
    games = tuple(
        GameSample(
            game=model.game.id,
            tables=tuple(table.table_id for table in table_runs if table.model is model),
            rounds=statistics[model.game.id].rounds,
            bets=statistics[model.game.id].bets,
            void_rounds=statistics[model.game.id].voids,
            shoes=sum(table.shoes for table in table_runs if table.model is model),
            first_settled_at=statistics[model.game.id].first,
            last_settled_at=statistics[model.game.id].last,
        )
        for model in models
    )
    return SampleSummary(
        month=month_text,
        seed=seed,
        format=fmt,
        log=out,
        files=(*writer.files(), manifest_path),
        manifest=manifest_path,
        lines=writer.lines,
        rounds=rounds,
        bets=bets,
        void_rounds=voids,
        rejected_lines=rejected,
        games=games,
        faults=counts,
        skipped_faults=skipped,
    )


@dataclass(slots=True)
class _GameTally:
    rounds: int = 0
    bets: int = 0
    voids: int = 0
    first: str | None = None
    last: str | None = None

    def add(self, data: dict[str, Any], void: bool) -> None:
        self.rounds += 1
        self.bets += len(data["bets"])
        self.voids += void
        settled = data.get("settled_at")
        if settled is not None:
            if self.first is None:
                self.first = settled
            self.last = settled


def _check_room_for_faults(
    planned: list[_PlannedFault], spans: dict[str, tuple[int, int]], rounds_per_day: int | None
) -> None:
    """Refuse, before writing, a fault count the month's rounds cannot hold."""
    per_table: dict[tuple[str, int], list[_PlannedFault]] = {}
    for fault in planned:
        per_table.setdefault((fault.game, fault.table), []).append(fault)
    for (game, _), faults in per_table.items():
        start, end = spans[game]
        days = (end - start) / _DAY
        rounds = days * (rounds_per_day if rounds_per_day is not None else _DAY / 45_000)
        shoe_faults = sum(fault.kind == "shoe_card_count" for fault in faults)
        # A shoe fault goes on the last hand of a shoe (about 80 hands) after its aim in the
        # first half of the month: each needs a shoe of its own that ends in the month.
        if len(faults) * 4 > rounds or shoe_faults > rounds // 85 - 1:
            raise InputError(
                f"{game}: about {int(rounds)} rounds a table cannot carry {len(faults)} faults "
                f"({shoe_faults} of them one per shoe): raise --rounds-per-day or --tables, or "
                "lower --faults"
            )
