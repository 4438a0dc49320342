"""The vocabulary of the pipeline: the records every stage passes on, and the kinds they carry.

A round log line becomes a :class:`Round` holding its :class:`Bet` records (or a
:class:`RejectedLine` with a :class:`RejectReason`); the store keeps them; verification
turns a round into :class:`Finding` records of a :class:`FindingKind`; the figures and the
renderers read them back. Every record remembers where it came from (:class:`SourceLocation`:
file and line), and a reporting month is one type, :class:`Month`.

Rounds, bets and rejected lines are ``msgspec.Struct(array_like=True)``: as cheap to build as
a tuple, encoded as an array across the worker pipe, read by name everywhere. A finding is
built with keyword arguments only. Nothing here does I/O; only the engine lies below.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Mapping
from datetime import UTC, date, datetime, timedelta
from types import MappingProxyType
from typing import NamedTuple
from zoneinfo import ZoneInfo

import msgspec

from reporting.engine.money import format_cents

__all__ = [
    "CSV_BET_FIELDS",
    "CSV_PAIR",
    "CSV_ROUND_FIELDS",
    "DOCUMENT_SUFFIXES",
    "Doubt",
    "FINDING_ADVICE",
    "FINDING_KINDS",
    "FINDING_SEVERITY",
    "FINDING_TITLES",
    "REJECT_ADVICE",
    "REJECT_REASONS",
    "REJECT_TITLES",
    "Bet",
    "Finding",
    "FindingKind",
    "LateStanding",
    "MONTHS_HANDLED",
    "Month",
    "MonthOutOfRange",
    "RejectReason",
    "RejectedLine",
    "Round",
    "Severity",
    "STORED_TIME",
    "SourceLocation",
    "every_kind",
    "finding_advice",
    "finding_order",
    "finding_title",
    "reject_advice",
    "reject_title",
    "severity_rank",
    "stored_instant",
]


class FindingKind(enum.StrEnum):
    """Finding kinds of the CLI contract: bet-level first, then round-level; kinds added later
    come last, whatever their level (the order of every list of kinds)."""

    PAYOUT_MISMATCH = "payout_mismatch"
    VOID_NOT_REFUNDED = "void_not_refunded"
    STAKE_OUT_OF_LIMITS = "stake_out_of_limits"
    LATE_BET = "late_bet"
    THIRD_CARD_RULE = "third_card_rule"
    SHOE_CARD_COUNT = "shoe_card_count"
    EXCLUSIVE_SIDE_BETS = "exclusive_side_bets"
    TIME_ORDER = "time_order"
    DUPLICATE_BET_ID = "duplicate_bet_id"
    UNVERIFIED_BET = "unverified_bet"  # a bet of a type the engine does not settle (yet)


class Severity(enum.StrEnum):
    """How much a finding weighs for the person who signs the month off.

    ``high``: money paid wrongly or a deal that broke the rules (a player or the operator lost
    or gained what the rules do not give); ``medium``: a control the platform should have
    enforced (limits, exclusive bets, late bets, clock order, duplicate ids); ``low``: what
    the tool could not judge (a bet type it does not settle).
    """

    HIGH = "high"
    MEDIUM = "medium"
    LOW = "low"

    @property
    def rank(self) -> int:
        """0 for the heaviest: the order findings are listed in."""
        return list(Severity).index(self)


#: The severity of every finding kind (a test holds it complete): every list of findings is
#: ordered by it, and a list cut short keeps the heaviest.
FINDING_SEVERITY = MappingProxyType(
    {
        FindingKind.PAYOUT_MISMATCH: Severity.HIGH,
        FindingKind.VOID_NOT_REFUNDED: Severity.HIGH,
        FindingKind.THIRD_CARD_RULE: Severity.HIGH,
        FindingKind.SHOE_CARD_COUNT: Severity.HIGH,
        FindingKind.STAKE_OUT_OF_LIMITS: Severity.MEDIUM,
        FindingKind.LATE_BET: Severity.MEDIUM,
        FindingKind.EXCLUSIVE_SIDE_BETS: Severity.MEDIUM,
        FindingKind.TIME_ORDER: Severity.MEDIUM,
        FindingKind.DUPLICATE_BET_ID: Severity.MEDIUM,
        FindingKind.UNVERIFIED_BET: Severity.LOW,
    }
)


#: Each finding kind as a person reads it (the audit report's words; a test holds it complete).
FINDING_TITLES = MappingProxyType(
    {
        FindingKind.PAYOUT_MISMATCH: "Payout mismatch",
        FindingKind.VOID_NOT_REFUNDED: "Void round not refunded",
        FindingKind.STAKE_OUT_OF_LIMITS: "Stake outside the limits",
        FindingKind.LATE_BET: "Bet placed after betting closed",
        FindingKind.THIRD_CARD_RULE: "Drawing rule broken",
        FindingKind.SHOE_CARD_COUNT: "More cards than the shoe holds",
        FindingKind.EXCLUSIVE_SIDE_BETS: "Exclusive side bets held together",
        FindingKind.TIME_ORDER: "Times out of order",
        FindingKind.DUPLICATE_BET_ID: "Bet id used again",
        FindingKind.UNVERIFIED_BET: "Bet not verified",
    }
)


#: What a compliance officer does next about each finding kind: the audit report prints it
#: under the kind's heading, and the site's Findings page is generated from it (a test holds
#: it complete). Plain sentences that begin with what to do (the report follows "What to do:"
#: with them): no markup, no link.
FINDING_ADVICE = MappingProxyType(
    {
        FindingKind.PAYOUT_MISMATCH: (
            "Ask the provider for the round's settlement record; if the logged payout stands,"
            " the player was paid wrongly: correct the balance (credit or recovery, by your"
            " house procedure) and report it with the month's sign-off."
        ),
        FindingKind.VOID_NOT_REFUNDED: (
            "Check the account's ledger for the refund; if it is missing, refund the stake and"
            " ask the provider why the void did not refund it."
        ),
        FindingKind.STAKE_OUT_OF_LIMITS: (
            "Check whether the table's limits were changed without the configuration being"
            " updated; if not, ask the platform why it accepted the stake, and review the"
            " account."
        ),
        FindingKind.LATE_BET: (
            "Ask the provider how a bet was accepted after betting closed (a clock or a timing"
            " fault), and review the account's winnings on such bets. Where the message says"
            ' "a whole second" or "the same millisecond", the log\'s times cannot order the'
            " two: ask the provider whether its log cuts its times, and for them to the finest"
            ' its platform keeps, before you judge the bet. Where it says "its result known:'
            ' past-posting", the bet was taken on a known result: treat it as a payout paid'
            " wrongly (recover or void it by your house procedure), whatever the kind's medium"
            " severity, and report the account."
        ),
        FindingKind.THIRD_CARD_RULE: (
            "Ask the provider for the round's record: at a live table, the studio's video and"
            " the dealer's report (a misdeal); in an RNG game, its game server's log and the"
            " game's certification. The bets were still judged on the cards as logged, so any"
            " payout finding of the round is listed too."
        ),
        FindingKind.SHOE_CARD_COUNT: (
            "Ask the provider for the shoe's record (a shoe with a card too many: at a live"
            " table, the studio's preparation record; in an RNG game, its shuffle record), and"
            " void or review the shoe's rounds by your house procedure. Where the message says"
            " a hand is logged twice, the provider has most likely given one shoe id to two"
            " shoes (S05 each day): ask for ids that tell the shoes apart before you judge the"
            " cards."
        ),
        FindingKind.EXCLUSIVE_SIDE_BETS: (
            "Ask for the house rule to be enforced (the platform let one account hold two bets"
            " it allows one of) and review the account's bets of that group."
        ),
        FindingKind.TIME_ORDER: (
            "Ask the provider for the round's server times (a clock fault on its side), and"
            " check the late bet findings of the same table and period."
        ),
        FindingKind.DUPLICATE_BET_ID: (
            "Ask the provider whether the same bet was logged twice (a replayed export) or its"
            " bet ids are not unique: nothing else can tell the two bets apart."
        ),
        FindingKind.UNVERIFIED_BET: (
            "Map the bet type in the provider's log profile if the catalogue has the bet, or"
            " have its pays verified another way for the month: this tool does not settle it."
        ),
    }
)


def finding_advice(kind: str) -> str | None:
    """What to do about a finding kind (:data:`FINDING_ADVICE`); a kind of a later version of
    the tool, stored in an older one's store: None.

    >>> finding_advice("time_order").split(" (")[0], finding_advice("new_kind")
    ("Ask the provider for the round's server times", None)
    """
    return FINDING_ADVICE.get(kind)


def finding_title(kind: str) -> str:
    """A finding kind as a person reads it (:data:`FINDING_TITLES`); a kind of a later
    version of the tool, stored in an older one's store: its code.

    >>> finding_title("late_bet"), finding_title("new_kind")
    ('Bet placed after betting closed', 'new_kind')
    """
    return FINDING_TITLES.get(kind, kind)


def severity_rank(kind: str) -> int:
    """The rank of a finding kind's severity, 0 for the heaviest (a kind of a later version
    of the tool, stored in an older one's store: low).

    >>> severity_rank("payout_mismatch"), severity_rank("late_bet"), severity_rank("new_kind")
    (0, 1, 2)
    """
    return FINDING_SEVERITY.get(kind, Severity.LOW).rank


class LateStanding(enum.StrEnum):
    """Why rounds of a month other than those a monthly run writes, loaded since the last run
    that finished, are in no report (:mod:`reporting.jobs.late`)."""

    #: Their month was published before they were loaded: publish it again.
    PUBLISHED = "published"
    #: A month before the run's, whose reports are not in the output folder: publish it.
    UNPUBLISHED = "unpublished"
    #: Dated past the month after the run's last, not published: a provider's clock, or a
    #: year typed wrong.
    AHEAD = "ahead"


class RejectReason(enum.StrEnum):
    """Reject reason codes of the CLI contract."""

    BAD_JSON = "bad_json"
    MISSING_FIELD = "missing_field"
    BAD_CARD = "bad_card"
    BAD_MONEY = "bad_money"
    NAIVE_TIMESTAMP = "naive_timestamp"
    UNKNOWN_BET_TYPE = "unknown_bet_type"
    UNKNOWN_GAME = "unknown_game"
    CONFLICT = "conflict"
    BAD_VALUE = "bad_value"


#: Each reject reason as a person reads it (the audit report's words; a test holds it complete).
REJECT_TITLES = MappingProxyType(
    {
        RejectReason.BAD_JSON: "Line not readable",
        RejectReason.MISSING_FIELD: "Field missing",
        RejectReason.BAD_CARD: "Card not valid",
        RejectReason.BAD_MONEY: "Amount not valid",
        RejectReason.NAIVE_TIMESTAMP: "Time without its offset",
        RejectReason.UNKNOWN_BET_TYPE: "Bet type not known",
        RejectReason.UNKNOWN_GAME: "Game not configured",
        RejectReason.CONFLICT: "Conflicts with a stored round",
        RejectReason.BAD_VALUE: "Value not valid",
    }
)


#: What to do about the lines of each reject reason (the audit report's words, under its
#: rejected lines, and the site's table; a test holds it complete). A file is read once per
#: store, known by its content: a line stays rejected until an export with other bytes holds
#: its round again (the rounds stored already are then left as they are), or a new store
#: reads the file.
_SENT_AGAIN = (
    " A corrected export, loaded, adds the rounds these lines held; publish their month again."
)
_PROFILE_MENDED = (
    " A profile mended reads the same file only into a new store (a file is read once per"
    " store, known by its content)."
)
REJECT_ADVICE = MappingProxyType(
    {
        RejectReason.BAD_JSON: (
            "Ask the provider for the file again: the line is no record of the log (cut"
            " short, two records run together, text that is not JSON)." + _SENT_AGAIN
        ),
        RejectReason.MISSING_FIELD: (
            "Ask the provider for the field the message names; for an export read through a"
            " log profile, check the profile's path of that field (check --profile)."
            + _SENT_AGAIN
            + _PROFILE_MENDED
        ),
        RejectReason.BAD_CARD: (
            "Ask the provider for the round's cards as dealt; for an export read through a log"
            " profile, check how it writes cards ([cards] dialect)." + _SENT_AGAIN + _PROFILE_MENDED
        ),
        RejectReason.BAD_MONEY: (
            "Ask the provider for the amounts as staked and paid; for an export read through a"
            " log profile, check how it writes them ([money] unit, decimal and grouping)."
            + _SENT_AGAIN
            + _PROFILE_MENDED
        ),
        RejectReason.NAIVE_TIMESTAMP: (
            "Ask the provider for the times with their UTC offset; for an export of local"
            " times read through a log profile, name their time zone ([times] zone)."
            + _SENT_AGAIN
            + _PROFILE_MENDED
        ),
        RejectReason.UNKNOWN_BET_TYPE: (
            "Ask the provider what the bet is: a bet this tool knows under another name is"
            " theirs to correct; a bet of the operator's own is declared in the configuration"
            " ([bets.ID]) before its rounds are loaded." + _SENT_AGAIN
        ),
        RejectReason.UNKNOWN_GAME: (
            "If the game is the operator's, add it to the configuration ([games.ID], or map"
            " the export's id in its profile's [games]): the lines already read stay rejected"
            " in this store (a file is read once per store, known by its content); an export"
            " of those rounds sent again, or a new store, loads them; then publish their month"
            " again. If it is not, the lines are rightly left out: say why at the sign-off."
        ),
        RejectReason.CONFLICT: (
            "Ask the provider which version is the round as settled. The stored round is kept"
            " and counted; if the later version is the right one, record it at the sign-off"
            " and build the store again from the corrected logs."
        ),
        RejectReason.BAD_VALUE: (
            "Ask the provider for the value the message names (a date that is none, a status"
            " or a number outside what the log allows)." + _SENT_AGAIN
        ),
    }
)


def reject_advice(reason: str) -> str | None:
    """What to do about lines rejected for ``reason`` (:data:`REJECT_ADVICE`); a reason of a
    later version of the tool: None.

    >>> reject_advice("conflict").split(".")[0], reject_advice("new_reason")
    ('Ask the provider which version is the round as settled', None)
    """
    return REJECT_ADVICE.get(reason)


def reject_title(reason: str) -> str:
    """A reject reason as a person reads it (:data:`REJECT_TITLES`); a reason of a later
    version of the tool, stored in an older one's store: its code.

    >>> reject_title("bad_money"), reject_title("new_reason")
    ('Amount not valid', 'new_reason')
    """
    return REJECT_TITLES.get(reason, reason)


#: The kinds' and reasons' codes in contract order, as the plain strings the store, the JSON
#: documents and the workbooks hold.
FINDING_KINDS: tuple[str, ...] = tuple(kind.value for kind in FindingKind)
REJECT_REASONS: tuple[str, ...] = tuple(reason.value for reason in RejectReason)


def every_kind(counts: Mapping[str, int]) -> dict[str, int]:
    """Findings counted by kind, every kind in its order, zeros too (a script reads a clean
    month's kinds as it reads any other's).

    >>> every_kind({"late_bet": 2})["late_bet"], every_kind({})["payout_mismatch"]
    (2, 0)
    """
    return {kind: counts.get(kind, 0) for kind in FINDING_KINDS}


#: The form the store keeps a time in (UTC, to the millisecond, fixed width), clock fields
#: in range.
STORED_TIME = re.compile(
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}T(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]\.[0-9]{3}Z"
)


def stored_instant(moment: datetime) -> str:
    """An instant (aware) in the form the store keeps (:data:`STORED_TIME`): UTC, to the
    millisecond, truncated.

    >>> stored_instant(datetime(2026, 10, 3, 20, 40, 17, 999999, tzinfo=UTC))
    '2026-10-03T20:40:17.999Z'
    """
    return moment.astimezone(UTC).isoformat(timespec="milliseconds")[:-6] + "Z"


#: The file names of JSON documents (a provider's export holding an array of rounds): their
#: records are numbered by their index in the array, from 0, not by line.
DOCUMENT_SUFFIXES = (".json", ".json.gz")


class SourceLocation(NamedTuple):
    """Where a record came from: a file as the ingest was given it, and a line of it (for a
    JSON document, the record's index in its array, shown as ``path:#index``).

    >>> str(SourceLocation("log.jsonl", 7)), str(SourceLocation("games.json", 0))
    ('log.jsonl:7', 'games.json:#0')
    >>> SourceLocation("games.json", 4).within_file()
    'record #4'
    """

    file: str
    line: int

    @property
    def _numbers_records(self) -> bool:
        """Whether the file is a JSON document, whose records are numbered, not lined."""
        return self.file.lower().endswith(DOCUMENT_SUFFIXES)

    def within_file(self) -> str:
        """Where in its file, in words: ``line 7``, or a JSON document's ``record #4``."""
        return f"record #{self.line}" if self._numbers_records else f"line {self.line}"

    def __str__(self) -> str:
        return f"{self.file}:#{self.line}" if self._numbers_records else f"{self.file}:{self.line}"


#: The most hours a time zone's offset is from UTC: offsets in use run from -12:00 to
#: +14:00, and none has ever been beyond +-14:00. A round log's offset past it is refused,
#: and no zone moves a month's bounds further.
MAX_OFFSET_HOURS = 14

_MONTH = re.compile(r"([0-9]{4})-(0[1-9]|1[0-2])")


class MonthOutOfRange(ValueError):
    """A well-formed month outside :data:`MONTHS_HANDLED`."""


class Month(NamedTuple):
    """A reporting month. Compares, sorts and unpacks as ``(year, month)``; prints as
    ``YYYY-MM``, the form the store and every report use.

    >>> Month.parse("2026-10"), str(Month(2026, 1)), Month(2026, 12).next()
    (Month(year=2026, month=10), '2026-01', Month(year=2027, month=1))
    """

    year: int
    month: int

    @classmethod
    def parse(cls, text: str) -> Month:
        """``YYYY-MM`` from 1980-01 to 2099-12 (:data:`MONTHS_HANDLED`); ValueError
        otherwise."""
        match = _MONTH.fullmatch(text)
        if match is None:
            raise ValueError(f"{text!r} is not a month YYYY-MM, e.g. 2026-10")
        month = cls(int(match[1]), int(match[2]))
        first, last = MONTHS_HANDLED
        if not first <= month <= last:
            raise MonthOutOfRange(
                f"{text!r} is outside the months this tool handles, {first} to {last}"
            )
        return month

    @classmethod
    def of(cls, day: date) -> Month:
        """The month a date falls in."""
        return cls(day.year, day.month)

    def shifted(self, months: int) -> Month:
        """The month ``months`` later (earlier when negative)."""
        index = self.year * 12 + (self.month - 1) + months
        return Month(index // 12, index % 12 + 1)

    def next(self) -> Month:
        """The month after this one."""
        return self.shifted(1)

    @property
    def first_day(self) -> date:
        """The first day of the month."""
        return date(self.year, self.month, 1)

    def utc_bounds(self, timezone: str) -> tuple[datetime, datetime]:
        """The month's first instant in ``timezone`` and the next month's, in UTC: an instant
        of the month, there, is in ``[start, end)``."""
        zone = ZoneInfo(timezone)
        following = self.next()
        start = datetime(self.year, self.month, 1, tzinfo=zone)
        end = datetime(following.year, following.month, 1, tzinfo=zone)
        return start.astimezone(UTC), end.astimezone(UTC)

    def widest_utc_bounds(self) -> tuple[datetime, datetime]:
        """The month's first instant in any time zone and the next month's last, in UTC: an
        instant outside ``[start, end)`` is of the month in no zone (no zone is more than
        :data:`MAX_OFFSET_HOURS` from UTC).

        >>> [str(bound) for bound in Month(2026, 10).widest_utc_bounds()]
        ['2026-09-30 10:00:00+00:00', '2026-11-01 14:00:00+00:00']
        """
        following = self.next()
        widest = timedelta(hours=MAX_OFFSET_HOURS)
        start = datetime(self.year, self.month, 1, tzinfo=UTC) - widest
        return start, datetime(following.year, following.month, 1, tzinfo=UTC) + widest

    def __str__(self) -> str:
        return f"{self.year:04d}-{self.month:02d}"


class Bet(msgspec.Struct, array_like=True, gc=False):
    """One validated bet, as the ``bets`` table holds it: money in cents, time in the stored
    UTC form, and the line it came from (of the round log, or of bets.csv for a CSV pair)."""

    round_id: str
    bet_id: str
    account: str
    bet_type: str
    stake_cents: int
    payout_cents: int
    currency: str
    placed_at: str | None
    source_line: int


class Round(msgspec.Struct, array_like=True, gc=False):
    """One validated round with its bets: timestamps in the stored form (UTC, to the
    millisecond, fixed width), cards canonical and space-separated in deal order, the
    reporting month in the game's time zone, and the line of the round log it came from."""

    round_id: str
    game_id: str
    table_id: str
    shoe_id: str | None
    hand_no: int | None
    started_at: str | None
    betting_closed_at: str | None
    settled_at: str
    report_month: str
    status: str
    void_reason: str | None
    player_cards: str
    banker_cards: str
    source_line: int
    bets: list[Bet]


class RejectedLine(msgspec.Struct, array_like=True, gc=False):
    """A line that could not be loaded: where, why (a :class:`RejectReason` code), and the
    text as read."""

    source_file: str
    source_line: int
    reason: str
    message: str
    raw_text: str
    round_id: str | None = None
    #: The line's reporting month, where its game and settlement time could be read: the
    #: month it bears on. None: it bears on a month through its file (reporting.verify.bearing).
    report_month: str | None = None

    @property
    def source(self) -> SourceLocation:
        """Where the line is."""
        return SourceLocation(self.source_file, self.source_line)


class Finding(msgspec.Struct, kw_only=True, frozen=True):
    """One irregularity, with the evidence to act on and where it came from."""

    kind: str  # a FindingKind code
    game_id: str
    report_month: str
    round_id: str
    source_file: str
    source_line: int
    message: str
    bet_id: str | None = None
    expected_payout: int | None = None  # cents
    logged_payout: int | None = None  # cents
    rule: str | None = None  # the drawing rule, limit or house rule concerned

    @property
    def source(self) -> str:
        """``path:line`` of the record."""
        return str(SourceLocation(self.source_file, self.source_line))

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


class Doubt(str):
    """Why a page would state something missing or in doubt (a warning that makes it a draft):
    the English sentence the logs, the JSON documents and the workbooks show, which it is,
    with the ``kind`` of doubt and the ``figures`` it names, so that each page can say it in
    its own language.

    >>> doubt = Doubt("no play in 2026-10: the page shows 0.00%", "no_play", month=(2026, 10))
    >>> doubt == "no play in 2026-10: the page shows 0.00%", doubt.kind, doubt.figures["month"]
    (True, 'no_play', (2026, 10))
    """

    kind: str
    figures: MappingProxyType

    def __new__(cls, text: str, kind: str, **figures: object) -> Doubt:
        doubt = super().__new__(cls, text)
        doubt.kind = kind
        doubt.figures = MappingProxyType(figures)
        return doubt

    def __reduce__(self) -> tuple:
        """Pickled as its text, kind and figures (a worker process renders the pages)."""
        return (_doubt, (str(self), self.kind, dict(self.figures)))


def _doubt(text: str, kind: str, figures: dict[str, object]) -> Doubt:
    """A :class:`Doubt` again, from what :meth:`Doubt.__reduce__` pickled."""
    return Doubt(text, kind, **figures)


def finding_order(finding: Finding) -> tuple:
    """The order every list of findings follows: heaviest first, then by file and line,
    kind and bet."""
    return (
        severity_rank(finding.kind),
        finding.source_file,
        finding.source_line,
        finding.kind,
        finding.bet_id or "",
    )


#: The first and last reporting months the tool handles: a workbook (a zip file) cannot date
#: its parts before 1980, and every month needs the months around it (the one before for a
#: disclosure, the one after for the time zones); the century is room enough.
MONTHS_HANDLED = (Month(1980, 1), Month(2099, 12))

#: The spec's CSV pair (round-log.md): the rounds' file and the bets' file, in one folder.
CSV_PAIR = ("rounds.csv", "bets.csv")

#: Columns of the spec's CSV pair (round-log.md), rounds.csv and bets.csv, in the order the
#: sample generator writes them and the reader names them.
CSV_ROUND_FIELDS = (
    "round_id",
    "table_id",
    "game",
    "shoe_id",
    "hand_no",
    "started_at",
    "betting_closed_at",
    "settled_at",
    "status",
    "void_reason",
    "player_cards",
    "banker_cards",
)
CSV_BET_FIELDS = (
    "round_id",
    "bet_id",
    "account",
    "type",
    "stake",
    "payout",
    "currency",
    "placed_at",
)
