"""The month's audit figures from the store (layer 6): the void register, money per game, table
and local day, activity per local hour, availability gaps of games open 24h, the configured
limits, the disclosure cross-check and the provenance, as the records of
:mod:`reporting.figures.audit_records`.

Every figure over rounds is an SQL aggregate (one ``GROUP BY`` per figure and game, a window
function for the gaps); Python only adds up aggregate rows (at most one per table, local hour
and currency), never the rounds. Local days and hours are the game's time zone: a ``CASE`` on
``settled_at`` (UTC text, fixed width, so it compares as text) picks the UTC offset in force,
from the zone's transitions in the month (:func:`local_hour_sql`). A round belongs to the month
the store says (``report_month``).

Money is per currency, never added across currencies: a bet counts in its own currency, a
round in the currency of its bets (the game's when it has none). Stakes, payouts, bets and
accounts are those of settled rounds; what void rounds took and paid back is in the void
register.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections import defaultdict
from collections.abc import Iterable, Mapping
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

from reporting.config.loader import OperatorConfig
from reporting.config.table_patterns import is_pattern
from reporting.engine.games import GameSpec
from reporting.figures.audit_records import (
    ActivityHour,
    AvailabilityGap,
    DisclosureCheck,
    InputFile,
    LimitRow,
    MoneyRow,
    MonthAudit,
    Provenance,
    VoidRound,
    column_names,
    from_rows,
)
from reporting.figures.disclosure import Disclosure, disclose, updated_on
from reporting.figures.regulators import publishes_disclosure, update_day
from reporting.files import sha256_of
from reporting.records import Month, stored_instant
from reporting.store.damage import first_unstored_time, refuse_overlong_texts
from reporting.store.sums import joined, joined_columns, split_sum
from reporting.verify.bearing import reject_scope

__all__ = [
    "audit_month",
    "availability_gaps",
    "availability_problems",
    "hours_dealt",
    "month_hours",
    "month_minutes",
    "disclosure_checks",
    "limit_rows",
    "local_hour_sql",
    "money_and_activity",
    "provenance",
    "store_digest",
    "utc_offsets",
    "void_register",
]

_STORE_TIME = "%Y-%m-%dT%H:%M:%S.000Z"
_HOUR = timedelta(hours=1)
_QUARTER = timedelta(minutes=15)


def audit_month(
    connection: sqlite3.Connection,
    config: OperatorConfig,
    month: Month | str,
    *,
    as_of_by_game: Mapping[str, date],
    configuration_path: Path | None,
    tool_version: str,
    disclosures: Mapping[str, Disclosure] | None = None,
    gaps_as_of: date | None = None,
) -> MonthAudit:
    """Everything of ``month`` the audit shows beyond verify's result, for the configured
    games (in id order).

    ``as_of_by_game`` gives each game's disclosure date (its local date, as ``disclose``
    takes it); a game it leaves out is disclosed as of the day its page for ``month`` is
    updated. ``configuration_path`` is the configuration file read (None: the built-in
    catalogue alone). ``disclosures`` may give games' disclosures already computed (the
    monthly job has them): they are used as they are instead of being computed again.
    ``gaps_as_of``: the run's date, to whose start a month still running counts its
    availability gaps (None: a month over, counted to its end; :func:`availability_gaps`).
    """
    month = Month.parse(month) if isinstance(month, str) else month
    games = [config.games[game_id] for game_id in sorted(config.games)]
    money: list[MoneyRow] = []
    activity: list[ActivityHour] = []
    gaps: list[AvailabilityGap] = []
    for game in games:
        game_money, game_activity = money_and_activity(connection, game, month)
        money.extend(game_money)
        activity.extend(game_activity)
        gaps.extend(availability_gaps(connection, game, month, as_of=gaps_as_of))
    return MonthAudit(
        month=str(month),
        void_rounds=void_register(connection, games, month),
        money=tuple(money),
        activity=tuple(activity),
        gaps=tuple(gaps),
        limits=limit_rows(games),
        disclosures=disclosure_checks(connection, games, month, as_of_by_game, disclosures or {}),
        provenance=provenance(
            connection, month, configuration_path=configuration_path, tool_version=tool_version
        ),
    )


# --- local time in SQL ------------------------------------------------------------------


def _store_time(moment: datetime) -> str:
    """A UTC instant (whole seconds) as the store writes times."""
    return moment.astimezone(UTC).strftime(_STORE_TIME)


def utc_offsets(timezone: str, month: Month) -> list[tuple[str | None, int]]:
    """The UTC offsets of ``timezone`` over ``month`` (its local days): ``(until, seconds)``
    pairs in time order, ``until`` the store-form UTC instant the offset stops at (None for
    the last).

    >>> utc_offsets("Europe/Rome", Month(2026, 10))
    [('2026-10-25T01:00:00.000Z', 7200), (None, 3600)]
    >>> utc_offsets("UTC", Month(2026, 10))
    [(None, 0)]
    """
    zone = ZoneInfo(timezone)
    start, end = month.utc_bounds(timezone)

    def offset(moment: datetime) -> int:
        return int(moment.astimezone(zone).utcoffset().total_seconds())

    segments: list[tuple[str | None, int]] = []
    moment, current = start, offset(start)
    while moment < end:
        later = min(moment + _HOUR, end)
        if offset(later) != current:
            low, high = moment, later  # the change lies in (low, high]: halve to the second
            while high - low > timedelta(seconds=1):
                middle = low + (high - low) / 2
                low, high = (middle, high) if offset(middle) == current else (low, middle)
            segments.append((_store_time(high.replace(microsecond=0)), current))
            current = offset(high)
        moment = later
    segments.append((None, current))
    return segments


def local_hour_sql(timezone: str, month: Month, column: str = "settled_at") -> str:
    """An SQL expression giving the local ``YYYY-MM-DD HH`` of ``column`` (a store time, UTC)
    in ``timezone``, exact over ``month``.

    >>> local_hour_sql("UTC", Month(2026, 10))
    "strftime('%Y-%m-%d %H', settled_at, '+0 seconds')"
    """

    def local(seconds: int) -> str:
        return f"strftime('%Y-%m-%d %H', {column}, '{seconds:+d} seconds')"

    segments = utc_offsets(timezone, month)
    if len(segments) == 1:
        return local(segments[0][1])
    branches = " ".join(
        f"WHEN {column} < '{until}' THEN {local(seconds)}"
        for until, seconds in segments
        if until is not None
    )
    return f"CASE {branches} ELSE {local(segments[-1][1])} END"


def _day(local_hour: str) -> date:
    return date.fromisoformat(local_hour[:10])


# --- money and activity -----------------------------------------------------------------

#: One statement for a game's month, so that the local hour of each round is computed once
#: (``month_rounds``, materialised) for every part of its answer, each row tagged by its part:
#: ``rounds`` per table, local hour and status (a round counts in its game's currency);
#: ``bets`` (count, stakes, payouts) per currency, table, local hour and status; ``accounts``
#: of settled rounds per currency, distinct, per table, in the month and per local day. Money is
#: summed in halves that cannot overflow (``reporting.store.sums``).
_MONEY_AND_ACTIVITY = """
WITH month_rounds AS MATERIALIZED (
    SELECT round_id, table_id, status, {hour} AS local_hour
    FROM rounds WHERE game_id = :game AND report_month = :month
), month_bets AS (
    SELECT b.currency AS currency, m.table_id AS table_id, m.local_hour AS local_hour,
           m.status AS status, b.account AS account, b.stake_cents AS stake,
           b.payout_cents AS payout
    FROM month_rounds AS m JOIN bets AS b ON b.round_id = m.round_id
), table_accounts AS MATERIALIZED (
    SELECT DISTINCT currency, table_id, account FROM month_bets WHERE status = 'settled'
)
SELECT 'rounds', NULL, table_id, local_hour, status, count(*), 0, 0, 0, 0
    FROM month_rounds GROUP BY 3, 4, 5
UNION ALL SELECT 'bets', currency, table_id, local_hour, status, count(*),
    {stakes}, {payouts}
    FROM month_bets GROUP BY 2, 3, 4, 5
UNION ALL SELECT 'accounts', currency, table_id, NULL, NULL, count(*), 0, 0, 0, 0
    FROM table_accounts GROUP BY 2, 3
UNION ALL SELECT 'accounts', currency, NULL, NULL, NULL, count(DISTINCT account), 0, 0, 0, 0
    FROM table_accounts GROUP BY 2
UNION ALL SELECT 'accounts', currency, NULL, day, NULL, count(*), 0, 0, 0, 0
    FROM (SELECT DISTINCT currency, substr(local_hour, 1, 10) AS day, account
          FROM month_bets WHERE status = 'settled')
    GROUP BY 2, 4
"""

#: A key of a money row: currency, table (None: every table), local day (None: the month).
_MoneyKey = tuple[str, str | None, date | None]


def money_and_activity(
    connection: sqlite3.Connection, game: GameSpec, month: Month
) -> tuple[list[MoneyRow], list[ActivityHour]]:
    """The game's money rows (per currency: the month, each table, each local day, in that
    order) and its activity per table, local day and hour (bets and stakes in the game's
    currency). Rounds count in the game's currency (the ingest takes a bet only in it), bets
    and money in their own. A game without a round in the month has one month row of zeros
    in its currency."""
    query = _MONEY_AND_ACTIVITY.format(
        hour=local_hour_sql(game.timezone, month),
        stakes=split_sum("stake"),
        payouts=split_sum("payout"),
    )
    # [settled rounds, void rounds, bets, stakes, payouts] per money key
    sums: dict[_MoneyKey, list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0])
    # [rounds, bets, stakes] per (table, local hour)
    hourly: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0])
    accounts: dict[_MoneyKey, int] = {}
    sums[(game.currency, None, None)]  # the month row exists, played or not
    for part, currency, table_id, local, status, count, *halves in connection.execute(
        query, {"game": game.id, "month": str(month)}
    ):
        if part == "accounts":
            accounts[(currency, table_id, None if local is None else date.fromisoformat(local))] = (
                count
            )
            continue
        if local is None:  # a settled_at no clock time reads (ingest stores none)
            unstored = first_unstored_time(connection, game.id, str(month))
            if unstored is None:
                raise AssertionError("SQLite read a settled_at of the stored form as no time")
            raise unstored
        settled = status == "settled"
        stakes, payouts = joined(*halves[:2]), joined(*halves[2:])
        if part == "rounds":
            figures = (count, 0, 0, 0, 0) if settled else (0, count, 0, 0, 0)
            _add(sums, _money_keys(game.currency, table_id, _day(local)), figures)
            hourly[(table_id, local)][0] += count
            continue
        if settled:
            _add(sums, _money_keys(currency, table_id, _day(local)), (0, 0, count, stakes, payouts))
        if currency == game.currency:
            cell = hourly[(table_id, local)]
            cell[1] += count
            cell[2] += stakes
    money = [
        MoneyRow(game.id, table_id, day, currency, rounds, void, bets, accounts.get(key, 0), *cash)
        for key in sorted(sums, key=_money_order)
        for (currency, table_id, day) in [key]
        for rounds, void, bets, *cash in [sums[key]]
    ]
    activity = [
        ActivityHour(game.id, table_id, _day(local_hour), int(local_hour[11:]), *cell)
        for (table_id, local_hour), cell in sorted(hourly.items())
    ]
    return money, activity


def _add(
    sums: dict[_MoneyKey, list[int]], keys: Iterable[_MoneyKey], figures: tuple[int, ...]
) -> None:
    """Add ``figures`` to the sums of every key."""
    for key in keys:
        sums[key] = [total + add for total, add in zip(sums[key], figures, strict=True)]


def _money_keys(currency: str, table_id: str, day: date) -> tuple[_MoneyKey, ...]:
    return ((currency, None, None), (currency, table_id, None), (currency, None, day))


def _money_order(key: _MoneyKey) -> tuple:
    currency, table_id, day = key
    return (currency, table_id is not None, day is not None, table_id or "", day or date.min)


# --- the void register --------------------------------------------------------------------

_VOID_ROUNDS = """
SELECT r.round_id, r.game_id, r.table_id, r.shoe_id, r.hand_no, r.settled_at, r.void_reason,
       count(b.round_id) AS bets, {stakes}, {refunded}, b.currency,
       l.file_name AS source_file, r.source_line
FROM rounds AS r
JOIN ingest_log AS l ON l.ingest_id = r.ingest_id
LEFT JOIN bets AS b ON b.round_id = r.round_id
WHERE r.game_id = ? AND r.report_month = ? AND r.status = 'void'
GROUP BY r.round_id, b.currency
""".format(
    stakes=split_sum("b.stake_cents", "stakes"), refunded=split_sum("b.payout_cents", "refunded")
)


def void_register(
    connection: sqlite3.Connection, games: Iterable[GameSpec], month: Month
) -> tuple[VoidRound, ...]:
    """Every void round of ``month`` of the games, by settlement time (then round id): its
    bets, stakes and what they paid back, per currency (one line per currency its bets use),
    and the file and line it was read from."""
    lines = []
    for game in games:
        cursor = connection.execute(_VOID_ROUNDS, (game.id, str(month)))
        columns = joined_columns(column_names(cursor), cursor, ("stakes", "refunded"))
        lines += from_rows(VoidRound, *columns)
    for line in lines:
        refuse_overlong_texts(line, connection)
    return tuple(
        sorted(lines, key=lambda line: (line.settled_at, line.round_id, line.currency or ""))
    )


# --- availability gaps --------------------------------------------------------------------


def _epoch_ms(column: str) -> str:
    """An exact integer: milliseconds since 1970 of a store time (``...:SS.mmmZ``)."""
    return f"(CAST(strftime('%s', {column}) AS INTEGER) * 1000 + CAST(substr({column}, 21, 3) AS INTEGER))"


_GAPS = """
WITH month AS MATERIALIZED (  -- start_at: a round's start where it is in the month and not
    -- after its settlement, else its settlement (a start typed a month early or late put gaps
    -- outside the month, longer than it)
    SELECT table_id, round_id, settled_at,
           CASE WHEN started_at BETWEEN :month_start AND settled_at THEN started_at
                ELSE settled_at END AS start_at
    FROM rounds
    WHERE game_id = :game AND report_month = :month
), span AS (  -- the month, or of a month still running its part so far (:window_end, the
    -- run's time), and whether the game dealt at all in it
    SELECT :month_start AS first_at, :window_end AS last_at,
           (SELECT count(*) FROM month) AS dealt
), ordered AS (
    SELECT *, row_number() OVER first AS from_first, row_number() OVER last AS from_last
    FROM month
    WINDOW first AS (PARTITION BY table_id ORDER BY settled_at, round_id),
           last AS (PARTITION BY table_id ORDER BY settled_at DESC, round_id DESC)
), gaps AS (
    SELECT table_id, lag(round_id) OVER tables AS after_round, round_id AS before_round,
           lag(settled_at) OVER tables AS gap_start,
           start_at AS gap_end
    FROM month
    WINDOW tables AS (PARTITION BY table_id ORDER BY settled_at, round_id)
), edges AS (  -- a table's edges: from the month's start to its first round...
    SELECT table_id, NULL, round_id, (SELECT first_at FROM span), start_at
    FROM ordered WHERE from_first = 1
    UNION ALL  -- ... and from its last to the month's end (all its tables quiet from the
    -- 13th on: idle all the same)
    SELECT table_id, round_id, NULL, settled_at, (SELECT last_at FROM span)
    FROM ordered WHERE from_last = 1
), silent AS (  -- a table the configuration names exactly, with no round while the game dealt
    SELECT value, NULL, NULL, first_at, last_at
    FROM json_each(:named), span
    WHERE dealt > 0 AND value NOT IN (SELECT table_id FROM month)
), every AS (
    SELECT * FROM gaps WHERE gap_start IS NOT NULL
    UNION ALL SELECT * FROM edges
    UNION ALL SELECT * FROM silent
)
SELECT table_id, after_round, before_round, gap_start, gap_end, span_ms FROM (
    SELECT table_id, after_round, before_round, gap_start, gap_end,
           {end_ms} - {start_ms} AS span_ms
    FROM every
)
WHERE span_ms > :threshold_ms
ORDER BY table_id, gap_start, coalesce(before_round, '')
""".format(end_ms=_epoch_ms("gap_end"), start_ms=_epoch_ms("gap_start"))


def availability_gaps(
    connection: sqlite3.Connection, game: GameSpec, month: Month, *, as_of: date | None = None
) -> list[AvailabilityGap]:
    """The stretches longer than the game's ``availability_gap_minutes`` between consecutive
    rounds of one of its tables (by settlement time: from a round's settlement to the next
    round's start, or its settlement when it logs no start, or one before the month or after
    its settlement), in the month; and at a table's edges: from the month's start to the
    table's first round (``after_round`` None), from its last round to the month's end
    (``before_round`` None), or in a month still running on the run's ``as_of`` date, to that
    day's start in the game's time zone (what is dealt that day is not all in yet; no clock
    is read: the same store and date give the same gaps); a table the configuration names exactly (no ``*`` or ``?``) that dealt no
    round while the game dealt at another, the whole month (both None). None for a game not
    open 24h or without the key, and for a game that dealt no round in the month (the report
    says that none of its tables was dealing)."""
    if not game.availability_checked:
        return []
    threshold = game.availability_gap_minutes
    named = json.dumps([table for table in game.tables if not is_pattern(table)])
    month_start, month_end = month.utc_bounds(game.timezone)
    window_end = month_end
    if as_of is not None:
        day_start = datetime(as_of.year, as_of.month, as_of.day, tzinfo=ZoneInfo(game.timezone))
        window_end = min(month_end, day_start.astimezone(UTC))
    parameters = {
        "game": game.id,
        "month": str(month),
        "month_start": stored_instant(month_start),
        "window_end": stored_instant(max(window_end, month_start)),
        "named": named,
        "threshold_ms": threshold * 60_000,
    }
    return [
        AvailabilityGap(game.id, table_id, after, before, start, end, span_ms // 60_000)
        for table_id, after, before, start, end, span_ms in connection.execute(_GAPS, parameters)
    ]


def month_minutes(month: Month, timezone: str) -> int:
    """The minutes of ``month`` in ``timezone`` (a month with a clock change has an hour more
    or less).

    >>> month_minutes(Month(2026, 10), "Europe/Rome"), month_minutes(Month(2026, 10), "UTC")
    (44700, 44640)
    """
    start, end = month.utc_bounds(timezone)
    return int((end - start).total_seconds()) // 60


def month_hours(month: Month, timezone: str) -> int:
    """The local clock hours of ``month`` in ``timezone``, each a day and an hour as the
    activity counts them (:class:`~reporting.figures.audit_records.ActivityHour`): an hour the
    clock goes through twice is one, an hour it skips is none.

    >>> month_hours(Month(2026, 10), "Europe/Rome"), month_hours(Month(2026, 3), "Europe/Rome")
    (744, 743)
    """
    zone = ZoneInfo(timezone)
    start, _ = month.utc_bounds(timezone)
    # Every zone's offset is a whole number of quarter hours (+05:45, +10:30): a local hour
    # is passed through in some quarter hour of the month.
    quarters = month_minutes(month, timezone) // 15
    local = ((start + step * _QUARTER).astimezone(zone) for step in range(quarters))
    return len({(moment.date(), moment.hour) for moment in local})


def hours_dealt(activity: Iterable[ActivityHour], game_id: str) -> int:
    """The local clock hours of the month in which a round was dealt at a table of
    ``game_id`` (of :func:`month_hours`)."""
    return len({(hour.day, hour.hour) for hour in activity if hour.game_id == game_id})


def availability_problems(
    gaps: Iterable[AvailabilityGap], games: Mapping[str, GameSpec], month: Month
) -> dict[str, tuple[str, ...]]:
    """Each game whose pages say it is open around the clock (``opening_hours = "24h"``) and
    whose tables had availability gaps in ``month``: one line saying how long they were idle,
    against the month's minutes (the month contradicts the pages' opening hours)."""
    by_game: dict[str, list[AvailabilityGap]] = defaultdict(list)
    for gap in gaps:
        by_game[gap.game_id].append(gap)
    problems = {}
    for game_id, game_gaps in sorted(by_game.items()):
        game = games[game_id]
        tables = len({gap.table_id for gap in game_gaps})
        idle, minutes = sum(gap.minutes for gap in game_gaps), month_minutes(month, game.timezone)
        if tables == 1:
            idle_text = f"its table was idle for {idle:,} of the month's {minutes:,} minutes"
        else:
            idle_text = (
                f"{tables} of its tables were idle for {idle:,} minutes in all (the month has"
                f" {minutes:,} minutes a table)"
            )
        problems[game_id] = (
            f"its pages say it is open 24 hours a day, but {idle_text}, in {len(game_gaps):,}"
            f" {'gap' if len(game_gaps) == 1 else 'gaps'} of over"
            f" {game.availability_gap_minutes:,} minutes (listed under Availability)",
        )
    return problems


# --- limits and disclosures ---------------------------------------------------------------


def limit_rows(games: Iterable[GameSpec]) -> tuple[LimitRow, ...]:
    """The configured stake limits of every bet type each game offers, in the game's order."""
    return tuple(
        LimitRow(
            game_id=game.id,
            bet_type=bet.id,
            currency=game.currency,
            minimum=game.limits_for(bet).minimum,
            maximum=game.limits_for(bet).maximum,
            below_minimum=game.below_minimum,
            above_maximum=game.above_maximum,
        )
        for game in games
        for bet in game.bets
    )


def disclosure_checks(
    connection: sqlite3.Connection,
    games: Iterable[GameSpec],
    month: Month,
    as_of_by_game: Mapping[str, date],
    computed: Mapping[str, Disclosure] | None = None,
) -> tuple[DisclosureCheck, ...]:
    """Each game's disclosure (:func:`~reporting.figures.disclosure.disclose`) as of its date
    in ``as_of_by_game`` (else the day its page for ``month`` is updated), beside the best
    theoretical RTP of its bets. A disclosure in ``computed`` is taken as it is."""
    checks = []
    for game in games:
        disclosure = (computed or {}).get(game.id)
        if disclosure is None:
            as_of = as_of_by_game.get(game.id) or updated_on(tuple(month), update_day(game))
            disclosure = disclose(connection, game, as_of)
        checks.append(
            DisclosureCheck(
                game_id=game.id,
                regulator=game.regulator,
                as_of=disclosure.as_of,
                reference_month=disclosure.reference_month_text,
                updated_on=disclosure.updated_on,
                win_percentage=disclosure.win_percentage,
                rounds=disclosure.rounds,
                stakes=disclosure.stakes,
                payouts=disclosure.payouts,
                currency=game.currency,
                declared_rtp=disclosure.declared_rtp,
                declared_rtp_reference=game.declared_rtp_reference,
                best_theoretical_rtp=disclosure.theory.best_rtp * 100,
                warnings=disclosure.warnings,
                published=publishes_disclosure(game),
            )
        )
    return tuple(checks)


# --- provenance ---------------------------------------------------------------------------

_DIGEST_LOG = (
    "SELECT file_sha256, rounds_loaded, bets_loaded, rejected FROM ingest_log ORDER BY ingest_id"
)
_DIGEST_FINDINGS = """
SELECT kind, game_id, round_id, bet_id, expected_payout_cents, logged_payout_cents, rule,
       source_file, source_line, message
FROM findings WHERE report_month = ?
ORDER BY game_id, round_id, kind, bet_id, source_file, source_line, message,
         expected_payout_cents, logged_payout_cents, rule
"""
#: The files behind the month (:func:`input_files`), in load order.
_INPUT_FILES = """
SELECT file_name, companion_name, file_sha256 AS sha256, file_size AS size, format, profile,
       profile_sha256, ingested_at, rounds_loaded, bets_loaded, rejected
FROM ingest_log WHERE ingest_id IN (SELECT value FROM json_each(?))
ORDER BY ingest_id
"""


def _input_files(connection: sqlite3.Connection, month: Month) -> list[InputFile]:
    """The files behind the month, by the rule its alerts count them by
    (:func:`reporting.verify.bearing.reject_scope`, one definition): those that loaded rounds
    of it or repeated them (a re-export), and those whose rejected lines bear on it (of the
    month, or of no month in a file that loaded no round). Only the files that loaded rounds
    of it were listed: a file of rejected lines alone counted its lines in the month and gave
    the signed provenance no hash."""
    scope = reject_scope(connection, str(month))
    where, parameters = scope.rejects_where()
    rejecting = connection.execute(
        f"SELECT DISTINCT ingest_id FROM rejected_records WHERE {where}", parameters
    )
    behind = {*scope.rounds_by_file, *scope.duplicates_by_file, *(row[0] for row in rejecting)}
    cursor = connection.execute(_INPUT_FILES, (json.dumps(sorted(behind)),))
    return from_rows(InputFile, column_names(cursor), cursor)


def store_digest(connection: sqlite3.Connection, month: Month) -> str:
    """sha256 over the ingest log (each file's hash and counts, in load order) and then the
    month's findings (their content, in a fixed order; not their row ids): the same store
    content gives the same digest, whatever its pages look like."""
    digest = hashlib.sha256()
    for section, query, parameters in (
        ("ingest_log", _DIGEST_LOG, ()),
        ("findings", _DIGEST_FINDINGS, (str(month),)),
    ):
        digest.update(f"{section}\n".encode())
        for row in connection.execute(query, parameters):
            digest.update(json.dumps(row, ensure_ascii=False).encode() + b"\n")
    return digest.hexdigest()


def provenance(
    connection: sqlite3.Connection,
    month: Month,
    *,
    configuration_path: Path | None,
    tool_version: str,
) -> Provenance:
    """The tool, the configuration (its file name and sha256; None for the catalogue alone),
    the store's digest and the files behind ``month`` (:data:`_INPUT_FILES`)."""
    return Provenance(
        tool_version=tool_version,
        configuration=None if configuration_path is None else configuration_path.name,
        configuration_sha256=None if configuration_path is None else sha256_of(configuration_path),
        store_digest=store_digest(connection, month),
        inputs=tuple(_input_files(connection, month)),
    )
