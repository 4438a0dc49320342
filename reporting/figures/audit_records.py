"""The records of a month's audit: what the audit workbook and the audit report show beyond
verify's own result, as frozen values (money in integer cents, times as the store's UTC text
or local dates, exact fractions), nothing formatted.

They are filled from the store by SQL aggregates (:mod:`reporting.figures.audit`) and, for
the shoes, in the verify pass (:attr:`reporting.verify.run.VerifyResult.shoes`), never by a
second scan of the rounds in Python. Money is kept per currency: no figure here adds two
currencies.

The severity of each finding kind (:data:`reporting.records.FINDING_SEVERITY`) is re-exported
here for the outputs that rank findings.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from fractions import Fraction

from reporting.records import FINDING_SEVERITY, Severity

__all__ = [
    "column_names",
    "from_rows",
    "FINDING_SEVERITY",
    "ActivityHour",
    "AvailabilityGap",
    "DisclosureCheck",
    "InputFile",
    "LimitRow",
    "MoneyRow",
    "MonthAudit",
    "Provenance",
    "Severity",
    "VoidRound",
]


@dataclass(frozen=True, slots=True)
class VoidRound:
    """A line of the void register (the malfunction register the ADM page promises)."""

    round_id: str
    game_id: str
    table_id: str
    shoe_id: str | None
    hand_no: int | None
    settled_at: str  # UTC, the store's text
    void_reason: str | None
    bets: int
    stakes: int  # cents
    refunded: int  # cents: what the bets of the round paid back
    currency: str | None  # None: no bet was placed
    source_file: str
    source_line: int


@dataclass(frozen=True, slots=True)
class MoneyRow:
    """Money of settled rounds of one game in one currency, for the month, one table or
    one local day (``table_id`` None: every table; ``day`` None: the whole month)."""

    game_id: str
    table_id: str | None
    day: date | None  # in the game's time zone
    currency: str
    rounds: int  # settled rounds
    void_rounds: int
    bets: int
    accounts: int  # distinct accounts
    stakes: int  # cents
    payouts: int  # cents

    @property
    def ggr(self) -> int:
        """Gross gaming revenue, cents: stakes less payouts."""
        return self.stakes - self.payouts


@dataclass(frozen=True, slots=True)
class ActivityHour:
    """Rounds dealt at one table in one local hour."""

    game_id: str
    table_id: str
    day: date  # in the game's time zone
    hour: int  # 0 to 23, local
    rounds: int  # settled and void
    bets: int
    stakes: int  # cents, in the game's currency


@dataclass(frozen=True, slots=True)
class AvailabilityGap:
    """A stretch with no round at a table of a game announced as always open, longer than the
    game's threshold: from the round before (its settlement) to the next (its start, or its
    settlement when it logs no start); at a table's edges, from the month's start to its first
    round, from its last to the month's end (or the run's time, in a month still running)."""

    game_id: str
    table_id: str
    after_round: str | None  # None: the gap runs from the month's start
    before_round: str | None  # None: the gap runs to the month's end (or the run's time)
    start: str  # UTC, the store's text
    end: str
    minutes: int  # whole minutes, rounded down


@dataclass(frozen=True, slots=True)
class LimitRow:
    """A configured stake limit: what ``stake_out_of_limits`` is read against."""

    game_id: str
    bet_type: str
    currency: str
    minimum: int  # cents
    maximum: int  # cents
    below_minimum: str  # what the platform does: "reject"
    above_maximum: str  # "cap" or "reject"


@dataclass(frozen=True, slots=True)
class DisclosureCheck:
    """A game's published figure beside what it rests on, for the cross-check."""

    game_id: str
    regulator: str | None
    as_of: date
    reference_month: str  # YYYY-MM
    updated_on: date
    win_percentage: Decimal  # the published figure, percent, 2 decimals
    rounds: int
    stakes: int  # cents
    payouts: int  # cents
    currency: str
    declared_rtp: Decimal | None  # percent
    declared_rtp_reference: str | None
    best_theoretical_rtp: Fraction  # percent: the best bet the game offers
    warnings: tuple[str, ...]  # the disclosure's: they make its pages drafts
    #: Whether the game's pages publish the figure (its regulator's disclosure block); False:
    #: the figure is computed for the audit only.
    published: bool = True

    @property
    def on_the_pages(self) -> str:
        """What the figure is on the game's pages, in the words of the report and the
        workbook: a page with warnings is a draft, which publishes nothing."""
        if not self.published:
            return "computed, not published"
        return "on draft pages, not published" if self.warnings else "published"


@dataclass(frozen=True, slots=True)
class InputFile:
    """A file loaded into the store, as the ingest log records it."""

    file_name: str
    companion_name: str | None
    sha256: str
    size: int
    format: str
    profile: str | None
    profile_sha256: str | None
    ingested_at: str  # UTC
    rounds_loaded: int
    bets_loaded: int
    rejected: int


@dataclass(frozen=True, slots=True)
class Provenance:
    """Where the month's figures come from: the tool, the configuration, the data."""

    tool_version: str
    configuration: str | None  # the configuration file's name as given (None: catalogue)
    configuration_sha256: str | None
    #: sha256 over the ingest log (every loaded file's hash and counts, in load order) and the
    #: month's findings: the same store content gives the same digest, a file's bytes do not
    #: matter (SQLite pages move).
    store_digest: str
    inputs: tuple[InputFile, ...]


@dataclass(frozen=True, slots=True)
class MonthAudit:
    """Everything of the month the audit shows beyond verify's result."""

    month: str
    void_rounds: tuple[VoidRound, ...]  # by settlement time
    money: tuple[MoneyRow, ...]  # per game and currency: the month, each table, each day
    activity: tuple[ActivityHour, ...]
    gaps: tuple[AvailabilityGap, ...]
    limits: tuple[LimitRow, ...]
    disclosures: tuple[DisclosureCheck, ...]
    provenance: Provenance


def from_rows(record: type, columns: Sequence[str], rows: Iterable[Sequence]) -> list:
    """Records (a dataclass or a named tuple) from query rows, by keyword: ``columns`` names
    each row's values (a query's ``cursor.description``, or its ``AS`` names) and must be the
    record's fields, in order, so that a column added or moved in the SQL fails here, never
    shifts a value into the next field."""
    fields = getattr(record, "_fields", None) or tuple(f.name for f in dataclasses.fields(record))
    if tuple(columns) != fields:
        raise ValueError(f"{record.__name__}: the query gives {columns}, the record has {fields}")
    return [record(**dict(zip(fields, row, strict=True))) for row in rows]


def column_names(cursor) -> tuple[str, ...]:
    """The names of a query's columns (their ``AS`` names)."""
    return tuple(column[0] for column in cursor.description)
