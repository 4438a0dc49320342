"""What a person browsing the store is told (``baccarat-report serve``, which runs Datasette
over it): a title, and a description of every table, view and column that is not obvious:
money in cents, times in UTC, the reporting month in the game's time zone.

Pure data: :func:`browse_metadata` gives Datasette's metadata document for a store served
under a database name.
"""

from __future__ import annotations

from typing import Any

__all__ = ["DESCRIPTIONS", "browse_metadata"]

_CENTS = "integer cents of the bet's currency (500 = 5.00)"
_UTC = "UTC, ISO 8601 to the millisecond (2026-10-03T18:40:41.870Z)"
_MONTH = "YYYY-MM of settled_at in the game's time zone (Europe/Rome for the Italian games)"
_SOURCE = "the round log and line the record came from"

#: Per table or view: its description and the descriptions of its columns.
DESCRIPTIONS: dict[str, tuple[str, dict[str, str]]] = {
    "rounds": (
        "Every round loaded, settled or void, with its cards.",
        {
            "started_at": _UTC,
            "betting_closed_at": _UTC,
            "settled_at": _UTC,
            "report_month": _MONTH,
            "player_cards": "the Player's cards in deal order (rank then suit: 9H KS)",
            "banker_cards": "the Banker's cards in deal order",
            "source_line": "the line of the round in its file (ingest_id names the file)",
        },
    ),
    "bets": (
        "Every bet of every round.",
        {
            "stake_cents": _CENTS,
            "payout_cents": _CENTS + ": what the bet paid back, stake included",
            "placed_at": _UTC,
            "source_line": "the line of the bet (bets.csv for a CSV pair)",
        },
    ),
    "findings": (
        "The irregularities verify found, each pointing to its round and bet; verify replaces"
        " a month's findings each time it runs.",
        {
            "report_month": _MONTH,
            "expected_payout_cents": _CENTS + ": what the rules pay",
            "logged_payout_cents": _CENTS + ": what the platform paid",
            "source_line": _SOURCE,
        },
    ),
    "rejected_records": (
        "Lines ingest could not read, with the reason; kept and counted, never dropped.",
        {
            "line": "the line in file_name",
            "raw_text": "the line as read (cut if very long)",
            "report_month": _MONTH + " (empty where the line's game or time could not be read)",
        },
    ),
    "ingest_log": (
        "Every file loaded, once (by its sha256), with what it contributed.",
        {
            "ingested_at": _UTC,
            "file_sha256": "sha256 of the file's bytes",
            "fields_not_read": (
                "its fields no check reads (JSON list; [] none), or empty: not looked for"
                " (a file loaded before schema version 9)"
            ),
            "duplicate_months": (
                "its rounds already stored with the same content, by month (JSON object), or"
                " empty: not kept (a file loaded before schema version 10)"
            ),
        },
    ),
    "ingest_months": (
        "Each file's rounds, and its rejected lines of a month of their own, by reporting"
        " month; announced is 1 once a monthly run finished after the file was loaded, 0"
        " while the next run is still to tell of it (late rounds of a month published).",
        {
            "report_month": _MONTH,
            "rejected": "rejected lines whose own month this is",
            "announced_in": (
                "the last month the run that told of the file wrote (a run writing it again"
                " tells of the file again), or empty: not told of yet, or told of before schema"
                " version 11"
            ),
            "counted": (
                "1 once a monthly run wrote this month after the file was loaded: its report"
                " counts the file's rounds of the month"
            ),
        },
    ),
    "finding_evidence": (
        "Each finding with its evidence: the round's cards and the bet (account, type,"
        " stake, payout).",
        {
            "stake_cents": _CENTS,
            "payout_cents": _CENTS,
            "expected_payout_cents": _CENTS,
            "logged_payout_cents": _CENTS,
            "settled_at": _UTC,
            "report_month": _MONTH,
            "source": _SOURCE,
        },
    ),
    "void_rounds": (
        "The void register: every void round, its reason, its bets and what they paid back.",
        {
            "settled_at": _UTC,
            "report_month": _MONTH,
            "stakes_cents": _CENTS,
            "refunded_cents": _CENTS + ": a void round returns every stake",
            "source": _SOURCE,
        },
    ),
    "money_by_table_and_utc_day": (
        "Money of settled rounds per game, table, UTC day and currency (the audit workbook"
        " gives the game's local days).",
        {
            "report_month": _MONTH,
            "utc_day": "the UTC date of settled_at",
            "stakes_cents": _CENTS,
            "payouts_cents": _CENTS,
            "ggr_cents": _CENTS + ": gross gaming revenue, stakes less payouts",
        },
    ),
}


def browse_metadata(database: str) -> dict[str, Any]:
    """Datasette's metadata for the store served as ``database``."""
    tables = {
        name: {"description": description, "columns": columns}
        for name, (description, columns) in DESCRIPTIONS.items()
    }
    tables["findings"]["sort"] = "finding_id"
    return {
        "title": "baccarat-report store",
        "description": (
            "Money is in integer cents (the pages show it in its currency, JSON and CSV keep"
            " the cents), times in UTC; report_month is the month in the game's time zone."
            " Read only: nothing here changes the store."
        ),
        "databases": {database: {"tables": tables}},
    }
