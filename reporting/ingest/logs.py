"""Reading round logs (JSON Lines, gzipped JSON Lines, CSV pairs) into validated records.

Reading streams: one line at a time, nothing kept but the current record. A line that
cannot be used becomes a :class:`RejectedLine` carrying its line number, a reason code of the
CLI contract and a message; the rest of the file goes on. Valid lines become
:class:`RoundRecord` values with canonical cards, money in cents, UTC timestamps, the
reporting month in the game's time zone, and a content hash that is the same for the same
round whatever its spelling or encoding.
"""

from __future__ import annotations

import csv
import gc
import gzip
import re
import sqlite3
import zlib
from collections.abc import Callable, Generator, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from itertools import groupby
from operator import itemgetter
from pathlib import Path
from typing import IO, Any, Literal, NamedTuple
from zoneinfo import ZoneInfo

import msgspec

from reporting.engine.bets import BetType
from reporting.engine.cards import CardError, parse_card
from reporting.engine.games import GameSpec
from reporting.engine.money import AmountError, parse_amount
from reporting.errors import InputError
from reporting.files import sha256_of

__all__ = [
    "BetRow",
    "RecordError",
    "RejectedLine",
    "RoundRecord",
    "Source",
    "read_source",
]

RAW_TEXT_LIMIT = 10_000


class RecordError(Exception):
    """A record that cannot be loaded, with its reject reason code."""

    def __init__(self, reason: str, message: str, line: int | None = None):
        super().__init__(message)
        self.reason = reason
        self.message = message
        self.line = line  # set when the bad part sits on another line (CSV bets file)


#: A validated bet, in the column order of the ``bets`` table: round_id, bet_id, account,
#: bet_type, stake_cents, payout_cents, currency, placed_at (UTC), source_line.
BetRow = tuple[str, str, str, str, int, int, str, str | None, int]


class RoundRecord(NamedTuple):
    """One round, validated, with where it came from: timestamps in the stored form (UTC, to
    the millisecond, fixed width), cards canonical, bets as rows of the ``bets`` table."""

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
    line: int
    bets: list[BetRow]


class RejectedLine(NamedTuple):
    """A line that could not be loaded: where, why, and the text as read."""

    file_name: str
    line: int
    reason: str
    message: str
    raw_text: str
    round_id: str | None = None


@dataclass(frozen=True)
class Source:
    """One round log to ingest: a JSONL file, or a CSV pair (rounds file + bets file)."""

    path: Path
    format: str  # "jsonl", "jsonl.gz" or "csv"
    companion: Path | None = None  # bets.csv of a CSV pair

    @property
    def files(self) -> tuple[Path, ...]:
        """The files that make up the source."""
        return (self.path,) if self.companion is None else (self.path, self.companion)

    @property
    def size(self) -> int:
        """Total size in bytes."""
        return sum(path.stat().st_size for path in self.files)

    def sha256(self) -> str:
        """Content hash of the source (of both files, in order, for a CSV pair)."""
        return sha256_of(*self.files)


# --- the JSON shape, decoded and type-checked by msgspec (in C) -----------------------------

# An ISO 8601 timestamp: date, time, optional fraction, and the UTC offset (optional here so
# that a timestamp without one is told apart as naive).
_TIMESTAMP = re.compile(
    r"([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([01][0-9]|2[0-3])(:[0-9]{2}:[0-9]{2})(?:[.,]([0-9]{1,9}))?"
    r"([Zz]|[+-][0-9]{2}:?[0-9]{2})?"
)
# The form the store keeps (UTC, to the millisecond, fixed width), clock fields in range.
_STORED_FORM = re.compile(
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}T(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]\.[0-9]{3}Z"
)
#: Largest hand number and amount (cents) accepted: far beyond any real shoe or stake, well
#: within SQLite's 64-bit integers.
MAX_HAND_NO = 1_000_000
MAX_CENTS = 10**15
#: UTC offsets in use run from -12:00 to +14:00; no time zone has ever been beyond +-14:00.
MAX_OFFSET_HOURS = 14
#: Years accepted in a timestamp: any real log, with room for every time zone's month to be
#: computed around it (a datetime stops at years 1 and 9999).
YEARS = range(1900, 9999)
#: Entries each normalisation cache may hold before it is emptied (memory stays flat).
CACHE_LIMIT = 200_000
_BetTypeName = Literal[tuple(bet.value for bet in BetType)]  # type: ignore[valid-type]


class _RawBet(msgspec.Struct, gc=False):
    bet_id: str
    account: str
    type: _BetTypeName
    stake: str
    payout: str
    currency: str
    placed_at: str | None = None


class _RawRound(msgspec.Struct, gc=False):
    round_id: str
    table_id: str
    game: str
    settled_at: str
    status: Literal["settled", "void"]
    bets: list[_RawBet]
    shoe_id: str | None = None
    hand_no: int | None = None
    started_at: str | None = None
    betting_closed_at: str | None = None
    void_reason: str | None = None
    player_cards: list[Any] | None = None  # checked card by card: a bad one is bad_card
    banker_cards: list[Any] | None = None


_DECODER = msgspec.json.Decoder(_RawRound)


def _validation_error(error: msgspec.MsgspecError) -> RecordError:
    """Map msgspec's message to a reject reason of the CLI contract and a readable message."""
    text = str(error)
    if not isinstance(error, msgspec.ValidationError):
        return RecordError("bad_json", f"not valid JSON: {text}")
    problem, _, path = text.partition(" - at `$")
    path = path.rstrip("`").lstrip(".")
    field = path.rsplit(".", 1)[-1]
    if "missing required field" in problem:
        name = re.search(r"field `([^`]+)`", problem)
        where = f"{path}." if path else ""
        return RecordError(
            "missing_field", f"required field {where}{name.group(1) if name else '?'} is missing"
        )
    if "got `null`" in problem:
        return RecordError("missing_field", f"required field {path} is null")
    got = re.search(r"got `([^`]+)`", problem)
    if field in ("stake", "payout") and got:
        return RecordError(
            "bad_money",
            f'{path}: money must be a decimal string such as "25.00", not a JSON {got.group(1)}',
        )
    if field == "type" and path.startswith("bets") and "Invalid enum value" in problem:
        known = " ".join(bet.value for bet in BetType)
        return RecordError(
            "unknown_bet_type",
            f"{path}: {problem.split('value ')[-1]} is not a bet type (known: {known})",
        )
    if field == "status" and "Invalid enum value" in problem:
        return RecordError(
            "bad_value", f"status {problem.split('value ')[-1]} is not 'settled' or 'void'"
        )
    return RecordError("bad_value", f"{path or 'record'}: {problem}")


# --- normalisation --------------------------------------------------------------------------


class _Canon:
    """Cached normalisation of what repeats endlessly in a log: cards, amounts, dates, months.

    The caches stay small (they are looked up millions of times, and a small table stays in
    the processor's cache) and hold only what passed the full check; those whose keys come
    from the log are emptied past a bound, so memory stays flat whatever the log (card
    spellings are a closed set).
    """

    def __init__(self) -> None:
        self._cards: dict[str, str] = {}
        self.amounts: dict[str, int] = {}  # amount text -> cents, for valid amounts
        self.dates: set[str] = set()  # calendar dates seen valid
        # (date, hour, offset as written) -> the UTC hour ("2026-10-03T18"), for offsets of
        # whole hours: minutes and seconds are the same on both sides of such an offset.
        self._hours: dict[tuple[str, str, str], str] = {}
        # time zone -> (first UTC instant of a local month, first of the next, the month)
        self._months: dict[str, tuple[str, str, str]] = {}
        self._zones: dict[str, ZoneInfo] = {}

    def cards(self, codes: list[Any] | None, hand: str) -> str:
        if not codes:
            return ""
        try:
            return " ".join([self._cards[code] for code in codes])
        except (KeyError, TypeError):  # a first sight, or not a string at all
            return " ".join([self._card(code, hand) for code in codes])

    def _card(self, code: Any, hand: str) -> str:
        if not isinstance(code, str):
            raise RecordError("bad_card", f"{hand}: card {code!r} is not a card code")
        card = self._cards.get(code)
        if card is None:
            try:
                card = parse_card(code).code
            except CardError as error:
                raise RecordError("bad_card", f"{hand}: {error}") from None
            self._cards[code] = card
        return card

    def amount(self, text: str, field: str) -> int:
        cents = self.amounts.get(text)
        if cents is None:
            try:
                cents = parse_amount(text)  # the one parser of amounts
            except AmountError:
                raise RecordError(
                    "bad_money",
                    f'{field} {text!r} is not a decimal amount with at most 2 decimals (e.g. "25.00")',
                ) from None
            if cents >= MAX_CENTS:
                raise RecordError(
                    "bad_money", f"{field} {text!r} is beyond any stake or payout this tool accepts"
                )
            if len(self.amounts) > CACHE_LIMIT:
                self.amounts.clear()
            self.amounts[text] = cents
        return cents

    def timestamp(self, text: str, field: str) -> str:
        """Check an ISO 8601 timestamp with a UTC offset; return it as the store keeps it:
        UTC, to the millisecond (truncated), fixed width, so that stored times sort as text.

        A timestamp already in that form costs one regular-expression match and one set
        look-up; other spellings a match and a small dictionary look-up; the first sight of
        a date and hour is checked in full.

        >>> _Canon().timestamp("2026-10-03T18:40:17.5Z", "t")
        '2026-10-03T18:40:17.500Z'
        >>> _Canon().timestamp("2026-10-01t01:40:17,5678+0200", "t")
        '2026-09-30T23:40:17.567Z'
        """
        if _STORED_FORM.fullmatch(text) is not None and text[:10] in self.dates:
            return text
        match = _TIMESTAMP.fullmatch(text)
        if match is not None:
            date, hour, minutes, fraction, offset = match.groups()
            utc_hour = self._hours.get((date, hour, offset))
            if utc_hour is not None and minutes[1] < "6" and minutes[4] < "6":
                millis = "000" if fraction is None else (fraction + "00")[:3]
                return f"{utc_hour}{minutes}.{millis}Z"
        return self._timestamp_in_full(text, field)

    def _timestamp_in_full(self, text: str, field: str) -> str:
        match = _TIMESTAMP.fullmatch(text.strip()) if isinstance(text, str) else None
        if match is None:
            raise RecordError("bad_value", f"{field} {text!r} is not an ISO 8601 timestamp")
        date, hour, minutes, fraction, written_offset = match.groups()
        if int(date[:4]) not in YEARS:
            raise RecordError(
                "bad_value",
                f"{field} {text!r}: year outside {YEARS.start}-{YEARS.stop - 1}",
            )
        if written_offset is None:
            raise RecordError(
                "naive_timestamp",
                f"{field} {text!r} has no UTC offset; write it as ...Z or ...+01:00",
            )
        offset = written_offset
        if offset in ("Z", "z"):
            offset = "+00:00"
        elif ":" not in offset:
            offset = f"{offset[:3]}:{offset[3:]}"
        if (
            int(offset[1:3]) > MAX_OFFSET_HOURS
            or int(offset[4:6]) > 59
            or (int(offset[1:3]) == MAX_OFFSET_HOURS and offset[4:6] != "00")
        ):
            raise RecordError(
                "bad_value", f"{field} {text!r}: UTC offset {offset} is outside -14:00..+14:00"
            )
        # Milliseconds, truncated: the precision the store keeps, so that the stored instant
        # and the reporting month computed from it never disagree.
        millis = ((fraction or "") + "000")[:3]
        try:
            local = datetime.fromisoformat(f"{date}T{hour}{minutes}.{millis}{offset}")
            stored = local.astimezone(UTC).isoformat(timespec="milliseconds")[:-6] + "Z"
        except (ValueError, OverflowError):
            raise RecordError(
                "bad_value", f"{field} {text!r} is not a valid date and time"
            ) from None
        if len(self.dates) > CACHE_LIMIT or len(self._hours) > CACHE_LIMIT:
            self.dates.clear()
            self._hours.clear()
        self.dates.add(date)
        if offset.endswith(":00"):
            self._hours[(date, hour, written_offset)] = stored[:13]
        return stored

    def month(self, stored: str, timezone: str) -> str:
        """Reporting month (``YYYY-MM``) of a stored UTC time in a time zone.

        The UTC span of the last month found is kept per zone: within it, a month costs two
        text comparisons (stored times sort as text).
        """
        span = self._months.get(timezone)
        if span is not None and span[0] <= stored < span[1]:
            return span[2]
        zone = self._zones.get(timezone) or self._zones.setdefault(timezone, ZoneInfo(timezone))
        local = datetime.fromisoformat(stored[:-1] + "+00:00").astimezone(zone)
        month = f"{local.year:04d}-{local.month:02d}"
        try:
            first = datetime(local.year, local.month, 1, tzinfo=zone)
            after = datetime(local.year + local.month // 12, local.month % 12 + 1, 1, tzinfo=zone)
            start, end = (
                moment.astimezone(UTC).isoformat(timespec="milliseconds")[:-6] + "Z"
                for moment in (first, after)
            )
        except (ValueError, OverflowError):  # the first or last month a datetime can hold
            return month
        if start <= stored < end:
            self._months[timezone] = (start, end, month)
        return month


class RoundValidator:
    """Turns decoded rounds into :class:`RoundRecord` values for the configured games."""

    def __init__(self, games: Mapping[str, GameSpec]):
        self._games = games
        self._offered = {
            game_id: frozenset(bet.value for bet in game.bets) for game_id, game in games.items()
        }
        self._canon = _Canon()

    def validate(self, raw: _RawRound, line: int, bet_lines: list[int] | None = None) -> tuple:
        """Validate one decoded round into a tuple in :class:`RoundRecord` field order.

        Raises :class:`RecordError` with its reject reason.
        """
        game = self._games.get(raw.game)
        if game is None:
            known = ", ".join(sorted(self._games))
            raise RecordError(
                "unknown_game", f"game {raw.game!r} is not configured (known: {known})"
            )
        if not raw.round_id.strip() or not raw.table_id.strip():
            raise RecordError("missing_field", "round_id and table_id must not be empty")
        canon = self._canon
        player_codes, banker_codes = raw.player_cards, raw.banker_cards
        player = canon.cards(player_codes, "player_cards")
        banker = canon.cards(banker_codes, "banker_cards")
        if raw.status == "settled":
            if player_codes is None or banker_codes is None:
                hand = "player_cards" if player_codes is None else "banker_cards"
                raise RecordError(
                    "missing_field", f"required field {hand} is missing on a settled round"
                )
            if not (2 <= len(player_codes) <= 3 and 2 <= len(banker_codes) <= 3):
                raise RecordError(
                    "bad_value",
                    f"a settled hand holds 2 or 3 cards (player {len(player_codes)}, banker {len(banker_codes)})",
                )
        else:
            if not (raw.void_reason or "").strip():
                raise RecordError("missing_field", "a void round needs a void_reason")
            if len(player_codes or ()) > 3 or len(banker_codes or ()) > 3:
                raise RecordError("bad_value", "a hand holds at most 3 cards")
        if raw.hand_no is not None and not 1 <= raw.hand_no <= MAX_HAND_NO:
            raise RecordError("bad_value", f"hand_no {raw.hand_no} must be 1 to {MAX_HAND_NO:,}")
        timestamp = canon.timestamp
        settled_at = timestamp(raw.settled_at, "settled_at")
        started_at = None if raw.started_at is None else timestamp(raw.started_at, "started_at")
        closed_at = (
            None
            if raw.betting_closed_at is None
            else timestamp(raw.betting_closed_at, "betting_closed_at")
        )
        round_id = raw.round_id
        currency = game.currency
        offered = self._offered[raw.game]
        amounts, dates, stored_form = canon.amounts, canon.dates, _STORED_FORM.fullmatch
        bets = []
        for index, bet in enumerate(raw.bets):
            # The common case inline: cached amounts, a time already in the stored form;
            # anything else (or a first sight) goes through the full check, which raises
            # with the reason.
            stake = amounts.get(bet.stake)
            payout = amounts.get(bet.payout)
            placed_at = bet.placed_at
            if (
                not stake
                or payout is None
                or bet.currency != currency
                or bet.type not in offered
                or (
                    placed_at is not None
                    and (stored_form(placed_at) is None or placed_at[:10] not in dates)
                )
            ):
                try:
                    stake, payout, placed_at = self._check_bet(bet, index, raw.game, currency)
                except RecordError as error:
                    if bet_lines is not None:
                        error.line = bet_lines[index]  # the bad part is on a bets.csv line
                    raise
            bets.append(
                (
                    round_id,
                    bet.bet_id,
                    bet.account,
                    bet.type,
                    stake,
                    payout,
                    currency,
                    placed_at,
                    line if bet_lines is None else bet_lines[index],
                )
            )
        if len(bets) > 1 and len({bet[1] for bet in bets}) != len(bets):
            raise RecordError("bad_value", "a bet_id appears twice in the round")
        # A plain tuple in RoundRecord's field order: cheap to build and to send between
        # processes (RoundRecord._make gives the named view where it is needed).
        return (
            round_id,
            raw.game,
            raw.table_id,
            raw.shoe_id or None,
            raw.hand_no,
            started_at,
            closed_at,
            settled_at,
            canon.month(settled_at, game.timezone),
            raw.status,
            raw.void_reason if raw.status == "void" else None,
            player,
            banker,
            line,
            bets,
        )

    def _check_bet(
        self, bet: _RawBet, index: int, game_id: str, currency: str
    ) -> tuple[int, int, str | None]:
        """Full check of one bet's type, money, currency and time; returns (stake, payout,
        placed_at as stored)."""
        offered = self._offered[game_id]
        if bet.type not in offered:
            raise RecordError(
                "bad_value",
                f"bets[{index}].type {bet.type!r} is not offered by {game_id}"
                f" (offered: {' '.join(sorted(offered))})",
            )
        canon = self._canon
        stake = canon.amount(bet.stake, f"bets[{index}].stake")
        if stake == 0:
            raise RecordError("bad_money", f"bets[{index}].stake must be greater than zero")
        payout = canon.amount(bet.payout, f"bets[{index}].payout")
        if bet.currency != currency:
            raise RecordError(
                "bad_value",
                f"bets[{index}].currency {bet.currency!r} is not the game's currency {currency}",
            )
        placed_at = bet.placed_at
        if placed_at is not None:
            placed_at = canon.timestamp(placed_at, f"bets[{index}].placed_at")
        return stake, payout, placed_at


# --- sources --------------------------------------------------------------------------------


def _raw_text(data: bytes) -> str:
    return data.decode("utf-8", errors="replace").rstrip("\r\n")[:RAW_TEXT_LIMIT]


class Batch(NamedTuple):
    """A slice of a source: its valid rounds, its rejected lines, and how far reading got."""

    records: list[tuple]  # plain tuples in RoundRecord field order
    rejects: list[RejectedLine]
    position: int  # bytes of the source file read so far (compressed bytes for .gz)


#: What the readers return: batches, one at a time; ``close()`` stops reading.
BatchReader = Generator[Batch, None, None]


def _batched(
    items: Iterator[RoundRecord | RejectedLine], position: Callable[[], int], size: int
) -> Iterator[Batch]:
    records: list[RoundRecord] = []
    rejects: list[RejectedLine] = []
    for item in items:
        if type(item) is tuple:
            records.append(item)
            if len(records) >= size:
                yield Batch(records, rejects, position())
                records, rejects = [], []
        else:
            rejects.append(item)
            if len(rejects) >= size:
                yield Batch(records, rejects, position())
                records, rejects = [], []
    yield Batch(records, rejects, position())


@contextmanager
def cyclic_gc_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector while bulk records are made.

    Records hold no reference cycles, so reference counting frees them all; without the
    pause the collector rescans every live batch again and again and halves the throughput.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def read_jsonl(source: Source, games: Mapping[str, GameSpec], size: int) -> BatchReader:
    """Batches of a JSON Lines file (gzipped or not), read one line at a time."""
    name = str(source.path)
    validator = RoundValidator(games)
    validate = validator.validate
    decode = _DECODER.decode

    def records(handle: IO[bytes]) -> Iterator[RoundRecord | RejectedLine]:
        for number, data in enumerate(handle, start=1):
            try:
                yield validate(decode(data), number)
            except msgspec.DecodeError as error:
                if not data.strip():
                    continue  # blank lines are not records
                problem = _validation_error(error)
                yield RejectedLine(name, number, problem.reason, problem.message, _raw_text(data))
            except RecordError as problem:
                round_id = _round_id_of(data)
                yield RejectedLine(
                    name, number, problem.reason, problem.message, _raw_text(data), round_id
                )

    try:
        raw_handle = source.path.open("rb")
    except OSError as error:
        raise InputError(f"{name}: cannot be read ({error.strerror})") from None
    with raw_handle:
        handle: IO[bytes] = (
            gzip.GzipFile(fileobj=raw_handle, mode="rb")
            if source.format == "jsonl.gz"
            else raw_handle
        )
        try:
            yield from _batched(records(handle), raw_handle.tell, size)
        except (OSError, EOFError, zlib.error) as error:
            raise InputError(
                f"{name}: cannot be read to the end ({error}); nothing of it was loaded"
            ) from None


def _round_id_of(data: bytes) -> str | None:
    try:
        round_id = msgspec.json.decode(data).get("round_id")
    except (msgspec.DecodeError, AttributeError):
        return None
    return round_id if isinstance(round_id, str) else None


#: Columns of rounds.csv and bets.csv, in the order the sample generator writes them.
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
_CSV_REQUIRED_ROUND = ("round_id", "table_id", "game", "settled_at", "status")
_CSV_REQUIRED_BET = ("round_id", "bet_id", "account", "type", "stake", "payout", "currency")


class _CsvFile(NamedTuple):
    """An open CSV file: its rows as lists, and where each named column is."""

    handle: IO[str]
    reader: Any  # csv.reader: its line_num is the physical line of the last row read
    columns: dict[str, int]
    width: int  # cells in the header


def _open_csv(path: Path, required: tuple[str, ...]) -> _CsvFile:
    # A byte that is not UTF-8 spoils its row, not the file: keep it as a surrogate escape
    # here and reject the row (see _readable).
    handle = path.open("r", encoding="utf-8", errors="surrogateescape", newline="")
    reader = csv.reader(handle)
    try:
        header = next(reader, [])
    except csv.Error as error:
        handle.close()
        raise InputError(f"{path}:1: cannot be read as CSV ({error})") from None
    missing = [name for name in required if name not in header]
    if missing:
        handle.close()
        raise InputError(f"{path}:1: CSV header lacks column(s) {', '.join(missing)}")
    columns = {name: index for index, name in enumerate(header)}  # the last of a repeated name
    return _CsvFile(handle, reader, columns, len(header))


def _readable(value: str) -> tuple[str, bool]:
    """``value`` with undecodable bytes shown as U+FFFD, and whether it had any."""
    if value.isascii():
        return value, False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return value.encode("utf-8", "surrogateescape").decode("utf-8", "replace"), True
    return value, False


def _stage(
    connection: sqlite3.Connection,
    csv_file: _CsvFile,
    name: str,
    table: str,
    fields: tuple[str, ...],
) -> None:
    """Copy a CSV file into a table of the staging database: the cells of ``fields`` (NULL
    where the file has no such column or the row is short), the line, the row's text as read
    (the header's columns), and flags for a row that is not UTF-8 (its cells then shown
    readable) or has more cells than the header."""
    columns = ", ".join(f"{field} TEXT" for field in fields)
    connection.execute(
        f"CREATE TABLE {table} (line INTEGER PRIMARY KEY, {columns}, raw_text TEXT,"
        " bad_utf8 INTEGER, extra_cells INTEGER)"
    )
    present = [field for field in fields if field in csv_file.columns]
    indexes = [csv_file.columns[field] for field in present]
    cells_of = itemgetter(*indexes)  # at least the required columns: always a tuple
    width, reader = csv_file.width, csv_file.reader

    def rows() -> Iterator[tuple]:
        for row in reader:
            if len(row) == width:  # the common case, in C as far as it goes
                raw_text = ",".join(row)
                if raw_text.isascii():
                    yield (reader.line_num, *cells_of(row), raw_text, False, False)
                    continue
            elif not row:
                continue  # a blank line is not a record
            raw_text, bad = _readable(",".join(row[:width]))
            cells = [row[index] if index < len(row) else None for index in indexes]
            if bad:
                cells = [cell if cell is None else _readable(cell)[0] for cell in cells]
            yield (reader.line_num, *cells, raw_text, bad, len(row) > width)

    names = ", ".join(("line", *present, "raw_text", "bad_utf8", "extra_cells"))
    marks = ",".join("?" * (len(present) + 4))
    connection.execute("BEGIN")  # one transaction: a commit per row is 20x slower
    try:
        connection.executemany(f"INSERT INTO {table} ({names}) VALUES ({marks})", rows())
    except (UnicodeDecodeError, csv.Error) as error:
        raise InputError(f"{name}: cannot be read as CSV ({error})") from None
    finally:
        connection.execute("COMMIT")


def read_csv_pair(source: Source, games: Mapping[str, GameSpec], size: int) -> BatchReader:
    """Batches of a CSV pair.

    Both files are first copied into a private staging database (a temporary file SQLite
    deletes on close), so neither needs to be sorted and memory stays flat whatever their
    size; then one ordered join gives each round with its bets, in rounds-file order.
    """
    assert source.companion is not None
    rounds_file = _open_csv(source.path, _CSV_REQUIRED_ROUND)
    try:
        bets_file = _open_csv(source.companion, _CSV_REQUIRED_BET)
    except BaseException:
        rounds_file.handle.close()
        raise
    staging = sqlite3.connect("", isolation_level=None)  # "": a private temporary database
    try:
        for pragma in ("journal_mode = OFF", "synchronous = OFF", "cache_size = -16384"):
            staging.execute(f"PRAGMA {pragma}")
        with rounds_file.handle:
            _stage(staging, rounds_file, str(source.path), "rounds", CSV_ROUND_FIELDS)
        with bets_file.handle:
            _stage(staging, bets_file, str(source.companion), "bets", CSV_BET_FIELDS)
        staging.execute("CREATE INDEX bets_by_round ON bets (round_id, line)")
        staging.execute("CREATE INDEX rounds_by_id ON rounds (round_id)")
        last_line = staging.execute("SELECT max(line) FROM rounds").fetchone()[0] or 1
        total = source.size
        reached = [0]  # the rounds-file line reached, for the progress position
        yield from _batched(
            _csv_records(source, RoundValidator(games), staging, reached),
            lambda: total * reached[0] // last_line,
            size,
        )
    finally:
        staging.close()


# The staged rounds in file order, and their bets in the same order (two cursors merged in
# Python: half the columns of one join that would repeat each round's cells on every bet).
_STAGED_ROUNDS = (
    "SELECT line, raw_text, bad_utf8, extra_cells, "
    + ", ".join(CSV_ROUND_FIELDS)
    + " FROM rounds ORDER BY line"
)
_STAGED_BETS = (
    "SELECT r.line, b.line, "
    + ", ".join(f"b.{field}" for field in CSV_BET_FIELDS[1:])
    + ", b.raw_text, b.bad_utf8 FROM rounds AS r JOIN bets AS b ON b.round_id = r.round_id"
    " WHERE r.round_id <> '' ORDER BY r.line, b.line"
)


def _csv_records(
    source: Source,
    validator: RoundValidator,
    staging: sqlite3.Connection,
    reached: list[int],
) -> Iterator[tuple | RejectedLine]:
    """Each staged round with its bets (one ordered join), validated; then the bets whose
    round the rounds file does not hold."""
    assert source.companion is not None
    rounds_name, bets_name = str(source.path), str(source.companion)
    bets_by_round = groupby(staging.execute(_STAGED_BETS), itemgetter(0))
    pending = next(bets_by_round, None)
    for line, raw_text, bad_row, extra_cells, *cells in staging.execute(_STAGED_ROUNDS):
        # (line, bet_id, account, type, stake, payout, currency, placed_at, raw_text, bad_utf8)
        bets: list[tuple] = []
        if pending is not None and pending[0] == line:
            bets = [row[1:] for row in pending[1]]
            pending = next(bets_by_round, None)
        round_id = cells[0] or None
        reached[0] = line
        if bad_row:
            yield RejectedLine(
                rounds_name, line, "bad_value", "the row is not valid UTF-8", raw_text, round_id
            )
            continue
        bad_bet = next((bet for bet in bets if bet[9]), None)
        if bad_bet is not None:
            yield RejectedLine(
                bets_name,
                bad_bet[0],
                "bad_value",
                "the row is not valid UTF-8",
                bad_bet[8],
                round_id,
            )
            continue
        try:
            raw = _csv_round(dict(zip(CSV_ROUND_FIELDS, cells, strict=True)), extra_cells, bets)
            yield validator.validate(raw, line, [bet[0] for bet in bets])
        except RecordError as problem:
            if problem.line is not None:
                bad_text = next(bet[8] for bet in bets if bet[0] == problem.line)
                yield RejectedLine(
                    bets_name, problem.line, problem.reason, problem.message, bad_text, round_id
                )
            else:
                yield RejectedLine(
                    rounds_name, line, problem.reason, problem.message, raw_text, round_id
                )
    orphans = staging.execute(
        "SELECT line, round_id, raw_text FROM bets AS b WHERE coalesce(round_id, '') = ''"
        " OR NOT EXISTS (SELECT 1 FROM rounds AS r WHERE r.round_id = b.round_id) ORDER BY line"
    )
    for line, round_id, raw_text in orphans:
        yield RejectedLine(
            bets_name,
            line,
            "bad_value",
            f"bet of round {round_id!r}, which {rounds_name} does not hold",
            raw_text,
            round_id,
        )


def _csv_round(row: Mapping[str, Any], extra_cells: bool, bets: list[tuple]) -> _RawRound:
    """Decode one rounds.csv row with its bets.csv rows into the same shape as a JSON line."""
    if extra_cells:
        raise RecordError("bad_value", "the row has more cells than the header has columns")
    document: dict[str, Any] = {
        field: value for field in CSV_ROUND_FIELDS if (value := row.get(field)) not in (None, "")
    }
    for hand in ("player_cards", "banker_cards"):
        if hand in document:
            document[hand] = document[hand].split()
    document["bets"] = [
        {
            name: value
            for name, value in zip(CSV_BET_FIELDS[1:], bet[1:8], strict=True)
            if value not in (None, "")
        }
        for bet in bets
    ]
    try:
        return msgspec.convert(document, _RawRound, strict=False)
    except msgspec.ValidationError as error:
        problem = _validation_error(error)
        bet_index = re.match(r".*at `\$\.bets\[(\d+)\]", str(error))
        if bet_index:
            problem.line = bets[int(bet_index.group(1))][0]
        raise problem from None


def read_source(source: Source, games: Mapping[str, GameSpec], size: int) -> BatchReader:
    """Batches of any source, in file order."""
    if source.format == "csv":
        return read_csv_pair(source, games, size)
    return read_jsonl(source, games, size)
