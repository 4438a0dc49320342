"""What a command reads of the store that ingest cannot have stored, said in one line as a
store changed by another program or by hand (the sqlite3 shell, a tool that copies tables),
naming the round: never a traceback halfway through a month, nor a finding or a figure made
of it. Each reader checks what it relies on where it reads it, for a comparison's cost (a
round's cards where its deal is resolved, a bet's amounts and currency where they are added
up, a round's file where it is looked up, a round's times before a finding on it is kept, a
round's texts before a page prints them); a store whose shape is not the schema's is refused
before (:mod:`reporting.store.shape`).
"""

from __future__ import annotations

import sqlite3
from datetime import date

from reporting.config.values import MAX_CENTS
from reporting.errors import StoreDamaged, printable
from reporting.ingest.limits import MAX_ID_CHARS, MAX_TEXT_CHARS
from reporting.ingest.rejects import shown
from reporting.records import STORED_TIME, Month, Round, stored_instant
from reporting.store.faults import store_file

__all__ = [
    "CHANGED_OUTSIDE",
    "amounts_past_bound",
    "damaged",
    "first_unstored_time",
    "first_unzoned_time",
    "is_stored_time",
    "no_time",
    "quoted",
    "refuse_overlong_texts",
    "refuse_unstored_times",
    "said",
    "unstored_time_sql",
]

#: How each message of a store changed where baccarat-report never changes it ends: by whom,
#: and what to do ("the store was changed " + this).
CHANGED_OUTSIDE = "by another program or by hand; use a copy from before the change"

#: Characters of a stored value or of an error a message quotes (a hand of a million cards).
_QUOTED = 80


def said(text: str) -> str:
    """``text`` as a message quotes it: on one line, cut short past :data:`_QUOTED`."""
    if len(text) <= _QUOTED:
        return printable(text)
    return f"{printable(text[:_QUOTED])}... ({len(text):,} characters)"


def quoted(text: str) -> str:
    """A stored value as a message quotes it: its repr, cut short past :data:`_QUOTED`."""
    return shown(text, limit=_QUOTED)


def damaged(round_id: str, what: str, connection: sqlite3.Connection | None = None) -> StoreDamaged:
    """The one-line error of a stored round holding ``what`` (in words), which ingest does
    not store; naming the store's file when ``connection``, the one it was read through, is
    at hand (otherwise the reader's :func:`~reporting.store.faults.database_faults` names
    it)."""
    error = StoreDamaged(
        f"the store holds round {said(round_id)} with {what}: ingest stores no such round,"
        f" so the store was changed {CHANGED_OUTSIDE}"
    )
    return error if connection is None else error.at(store_file(connection))


def no_time(
    round_id: str, name: str, value: str, connection: sqlite3.Connection | None = None
) -> StoreDamaged:
    """The :func:`damaged` error of a stored round whose time ``name`` (``settled_at``,
    ``placed_at of bet B-1``) holds ``value``, no time in the form ingest stores
    (:data:`~reporting.records.STORED_TIME`)."""
    what = f"a {name} that is no time as ingest stores one ({quoted(value)})"
    return damaged(round_id, what, connection)


#: A time in the form ingest stores (:data:`~reporting.records.STORED_TIME`,
#: ``2026-10-03T18:40:17.000Z``) as GLOB patterns, one for the hours 00-19, one for 20-23.
_STORED_GLOBS = tuple(
    f"[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T{hour}:[0-5][0-9]:[0-5][0-9].[0-9][0-9][0-9]Z"
    for hour in ("[01][0-9]", "2[0-3]")
)


def unstored_time_sql(column: str) -> str:
    """SQL true of a ``column`` that holds no time in the form ingest stores
    (:func:`is_stored_time`): not of its shape, or on no day of the calendar (SQLite's
    ``date`` with a modifier moves a 31st of September on and reads no 13th month; without
    one it gives the day back as written; its calendar, unlike Python's, has a year 0)."""
    shape = " OR ".join(f"{column} GLOB '{glob}'" for glob in _STORED_GLOBS)
    day = f"substr({column}, 1, 10)"
    return f"(NOT ({shape}) OR {column} GLOB '0000*' OR date({day}, '+0 days') IS NOT {day})"


def is_stored_time(value: str) -> bool:
    """Whether ``value`` is a time in the form ingest stores: of its shape, on a day of the
    calendar.

    >>> is_stored_time("2026-10-03T18:40:17.000Z"), is_stored_time("2026-09-31T18:40:17.000Z")
    (True, False)
    """
    if STORED_TIME.fullmatch(value) is None:
        return False
    try:
        date.fromisoformat(value[:10])
    except ValueError:
        return False
    return True


def refuse_unstored_times(round: Round) -> None:
    """Raise the :func:`no_time` error of the first of ``round``'s times (its own, then its
    bets' placements) that is no time in the form ingest stores. Called for a round that has
    findings, before they are kept: its checks compare its times as text, and ``garbage``
    for a bet's placement read as placed after betting closed, a past-posting finding against
    a bet that was none."""
    times = [
        (name, value)
        for name, value in (
            ("started_at", round.started_at),
            ("betting_closed_at", round.betting_closed_at),
            ("settled_at", round.settled_at),
        )
        if value is not None
    ]
    times += [
        (f"placed_at of bet {bet.bet_id}", bet.placed_at)
        for bet in round.bets
        if bet.placed_at is not None
    ]
    for name, value in times:
        if not is_stored_time(value):
            raise no_time(round.round_id, name, value)


def first_unstored_time(
    connection: sqlite3.Connection, game_id: str, month: str
) -> StoreDamaged | None:
    """The :func:`no_time` error of the game's first round of ``month`` (by id) whose
    settled_at is no time as ingest stores one; None where there is none."""
    found = connection.execute(
        "SELECT round_id, settled_at FROM rounds WHERE game_id = ? AND report_month = ?"
        f" AND {unstored_time_sql('settled_at')} ORDER BY round_id LIMIT 1",
        (game_id, month),
    ).fetchone()
    return None if found is None else no_time(found[0], "settled_at", found[1], connection)


def first_unzoned_time(
    connection: sqlite3.Connection, game_id: str, month: str
) -> StoreDamaged | None:
    """The :func:`damaged` error of the game's first round of ``month`` (by id) that settled
    where no time zone places it in ``month`` (:meth:`~reporting.records.Month.widest_utc_bounds`):
    ingest reckons a round's month from its settled_at, so no change of the game's zone since
    moves it that far; None where there is none."""
    start, end = map(stored_instant, Month.parse(month).widest_utc_bounds())
    found = connection.execute(
        "SELECT round_id, settled_at FROM rounds WHERE game_id = ? AND report_month = ?"
        " AND (settled_at < ? OR settled_at >= ?) ORDER BY round_id LIMIT 1",
        (game_id, month, start, end),
    ).fetchone()
    if found is None:
        return None
    what = (
        f"a settled_at of {quoted(found[1])} stored under reporting month {quoted(month)}, in"
        " which no time zone places it"
    )
    return damaged(found[0], what, connection)


def amounts_past_bound(
    round_id: str, stake: int, payout: int, connection: sqlite3.Connection | None = None
) -> StoreDamaged:
    """The :func:`damaged` error of a stored bet whose stake or payout is past the amounts
    ingest takes (:data:`~reporting.config.values.MAX_CENTS`)."""
    amounts = f"a bet of stake {stake:,} cents and payout {payout:,}"
    return damaged(
        round_id, f"{amounts}, where ingest takes amounts below {MAX_CENTS:,} cents", connection
    )


#: The texts of a round a page prints, and the most characters ingest stores of each (a void
#: reason of 1.4 MB, set by hand, held the audit report's layout for minutes).
_TEXT_BOUNDS = {
    "round_id": MAX_ID_CHARS,
    "table_id": MAX_ID_CHARS,
    "shoe_id": MAX_ID_CHARS,
    "void_reason": MAX_TEXT_CHARS,
}


def refuse_overlong_texts(record: object, connection: sqlite3.Connection) -> None:
    """Raise the :func:`damaged` error of a record read from the store through
    ``connection`` (a line of the void register, a finding's evidence) whose round's texts
    are longer than ingest stores."""
    for name, bound in _TEXT_BOUNDS.items():
        value = getattr(record, name, None)
        if value is not None and len(value) > bound:
            round_id = getattr(record, "round_id", "")
            what = f"a {name} of {len(value):,} characters (ingest stores {bound:,})"
            raise damaged(round_id, what, connection)
