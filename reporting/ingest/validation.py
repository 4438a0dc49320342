"""Checking a decoded round log line into a :class:`~reporting.records.Round`.

Every format decodes a line (or a row with its bets) into the same raw shape,
:class:`RawRound`, type-checked by msgspec in C; :class:`RoundValidator` then checks what
msgspec cannot (cards, money, timestamps, the game's bets and currency) and normalises it:
canonical cards, money in cents, UTC timestamps, the reporting month in the game's time zone.
A line that cannot be used raises :class:`RecordError` with its reject reason; its message
is bounded (:func:`shown` quotes a value of the line, at most a few dozen characters of it).

An optional field the line does not hold decodes as ``msgspec.UNSET`` (one written as null
as None), so that the decoded round encoded again leaves it out as the line did: the JSON
Lines reader compares the two lengths to rule out a repeated key (see
:mod:`reporting.ingest.jsonl`). The validator treats UNSET and None alike.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from datetime import datetime
from typing import Any, Literal
from zoneinfo import ZoneInfo

import msgspec
from msgspec import UNSET, UnsetType

from reporting.config.bets import catalogue_bets
from reporting.config.table_patterns import TableOwners
from reporting.config.values import MAX_CENTS
from reporting.engine.cards import CardError, parse_card
from reporting.engine.games import GameSpec
from reporting.engine.money import AmountError, parse_amount
from reporting.ingest.limits import MAX_AMOUNT_CHARS, MAX_ID_CHARS
from reporting.ingest.rejects import (
    RecordError,
    bet_id_twice,
    check_length,
    check_prints,
    check_texts,
    clipped,
    shown,
)
from reporting.records import (
    MAX_OFFSET_HOURS,
    MONTHS_HANDLED,
    STORED_TIME,
    Bet,
    Month,
    RejectReason,
    Round,
    stored_instant,
)

__all__ = [
    "BET_FIELDS",
    "BET_TYPES",
    "ROUND_DECODER",
    "ROUND_FIELDS",
    "RawBet",
    "RawRound",
    "RecordError",
    "RoundValidator",
    "TIMESTAMP",
    "not_a_time",
    "check_table_of",
    "clipped",
    "error_of_decoding",
    "known_bet_types",
    "raw_shapes",
    "round_decoder",
    "shown",
]


#: Where msgspec says a JSON text went wrong ("invalid character (byte 9)").
_AT_BYTE = re.compile(r"\(byte ([0-9]+)\)")


def _cut_short(text: str, data: bytes) -> bool:
    """Whether msgspec's ``text`` puts the fault at the end of the line ``data`` (its last
    byte but whitespace, or past it): its JSON was cut short, not spoilt in the middle.

    >>> _cut_short("Input data was truncated", b'{"a": 1,')
    True
    >>> _cut_short("JSON is malformed: invalid character (byte 9)", b'{"a": "xy\\n')
    True
    >>> _cut_short("JSON is malformed: invalid character (byte 6)", b'{"a": x}\\n')
    False
    """
    if "truncated" in text:
        return True
    at = _AT_BYTE.search(text)
    return at is not None and int(at.group(1)) >= len(data.rstrip(b" \t\r\n"))


# --- the JSON shape, decoded and type-checked by msgspec (in C) -----------------------------

#: An ISO 8601 timestamp: date, time, optional fraction (of any number of digits, as ISO 8601
#: and RFC 3339 allow: the store keeps the millisecond), and the UTC offset (optional here so
#: that a timestamp without one is told apart as naive; a profile's zone places it).
TIMESTAMP = re.compile(
    r"([0-9]{4}-[0-9]{2}-[0-9]{2})[Tt ]([01][0-9]|2[0-3])(:[0-9]{2}:[0-9]{2})(?:[.,]([0-9]+))?"
    r"([Zz]|[+-][0-9]{2}(?::?[0-9]{2})?)?"
)

#: Largest hand number accepted: far beyond any real shoe.
MAX_HAND_NO = 1_000_000
#: Years accepted in a timestamp: any real log, with room for every time zone's month to be
#: computed around it (a datetime stops at years 1 and 9999).
YEARS = range(1900, 9999)
#: Entries each normalisation cache may hold before it is emptied (memory stays flat).
CACHE_LIMIT = 200_000
#: The bet types of the spec's round log: the ids of the catalogue's bets
#: (``reporting/data/bets.toml``), in its order. An operator's own bets are known to the
#: readers of its configuration too (:attr:`RoundValidator.bet_types`).
BET_TYPES: tuple[str, ...] = tuple(catalogue_bets())
_BetTypeName = Literal[BET_TYPES]  # type: ignore[valid-type]


class RawBet(msgspec.Struct, gc=False):
    """A bet as the round log spells it (round-log.md), before its money and time are read."""

    bet_id: str
    account: str
    type: _BetTypeName
    stake: str
    payout: str
    currency: str
    placed_at: str | None | UnsetType = UNSET


class RawRound(msgspec.Struct, gc=False):
    """A round as the round log spells it (the JSON key ``game`` is the spec's), the shape
    every format decodes into."""

    round_id: str
    table_id: str
    game: str
    settled_at: str
    status: Literal["settled", "void"]
    bets: list[RawBet]
    shoe_id: str | None | UnsetType = UNSET
    hand_no: int | None | UnsetType = UNSET
    started_at: str | None | UnsetType = UNSET
    betting_closed_at: str | None | UnsetType = UNSET
    void_reason: str | None | UnsetType = UNSET
    player_cards: list[Any] | None | UnsetType = UNSET  # checked card by card: bad_card
    banker_cards: list[Any] | None | UnsetType = UNSET


#: Decodes one JSON line into the raw shape.
ROUND_DECODER = msgspec.json.Decoder(RawRound)
#: The keys of a round and of a bet, as the round log spells them.
ROUND_FIELDS: tuple[str, ...] = RawRound.__struct_fields__
BET_FIELDS: tuple[str, ...] = RawBet.__struct_fields__


def known_bet_types(games: Mapping[str, GameSpec]) -> tuple[str, ...]:
    """The bet types a round log of ``games`` may name: the catalogue's, then the operator's
    own bets that one of the games offers (an own bet no game offers could only be refused).

    >>> known_bet_types({})[:4]
    ('player', 'banker', 'tie', 'banker_no_commission')
    """
    offered = (bet.id for game in games.values() for bet in game.bets)
    return tuple(dict.fromkeys([*BET_TYPES, *offered]))


@functools.cache  # one shape per set of bet types: readers of one configuration share it
def raw_shapes(bet_types: tuple[str, ...]) -> tuple[type[RawRound], type[RawBet]]:
    """The raw round (and its bet) whose bets may be of ``bet_types``, checked by msgspec as
    it decodes: :class:`RawRound` and :class:`RawBet` for the catalogue's types."""
    if bet_types == BET_TYPES:
        return RawRound, RawBet
    bet = msgspec.defstruct(
        RawBet.__name__,
        [("type", Literal[bet_types])],  # type: ignore[valid-type]
        bases=(RawBet,),
        gc=False,
    )
    round = msgspec.defstruct(
        RawRound.__name__,
        [("bets", list[bet])],  # type: ignore[valid-type]
        bases=(RawRound,),
        gc=False,
    )
    return round, bet


@functools.cache
def round_decoder(bet_types: tuple[str, ...]) -> msgspec.json.Decoder:
    """Decodes one JSON line into the raw round of :func:`raw_shapes`."""
    if bet_types == BET_TYPES:
        return ROUND_DECODER
    return msgspec.json.Decoder(raw_shapes(bet_types)[0])


def error_of_decoding(
    error: msgspec.MsgspecError, bet_types: tuple[str, ...] = BET_TYPES, data: bytes = b""
) -> RecordError:
    """Map msgspec's message to a reject reason of the CLI contract and a readable message
    (an unknown bet type's lists ``bet_types``, those the reader knows). ``data``, the line:
    one whose JSON is cut short (it ends, or its text ends in a line break, before the JSON
    does) is said to be so, where msgspec names a byte or input "truncated"."""
    text = str(error)
    if not isinstance(error, msgspec.ValidationError):
        if data and _cut_short(text, data):
            return RecordError(
                RejectReason.BAD_JSON,
                "not valid JSON: the line ends before its JSON does (cut short?)",
            )
        return RecordError(RejectReason.BAD_JSON, f"not valid JSON: {text}")
    problem, _, path = text.partition(" - at `$")
    path = path.rstrip("`").lstrip(".")
    field = path.rsplit(".", 1)[-1]
    if "missing required field" in problem:
        name = re.search(r"field `([^`]+)`", problem)
        where = f"{path}." if path else ""
        return RecordError(
            RejectReason.MISSING_FIELD,
            f"required field {where}{name.group(1) if name else '?'} is missing",
        )
    if "got `null`" in problem:
        return RecordError(RejectReason.MISSING_FIELD, f"required field {path} is null")
    got = re.search(r"got `([^`]+)`", problem)
    if field in ("stake", "payout") and (got or "out of range" in problem):
        given = got.group(1) if got else "number"  # a number past any parser: 1e999999
        return RecordError(
            RejectReason.BAD_MONEY,
            f'{path}: money must be a decimal string such as "25.00", not a JSON {given}',
        )
    if field == "type" and path.startswith("bets") and "Invalid enum value" in problem:
        known = " ".join(bet_types)
        return RecordError(
            RejectReason.UNKNOWN_BET_TYPE,
            f"{path}: {problem.split('value ')[-1]} is not a bet type (known: {known})",
        )
    if field == "status" and "Invalid enum value" in problem:
        return RecordError(
            RejectReason.BAD_VALUE,
            f"status {problem.split('value ')[-1]} is not 'settled' or 'void'",
        )
    return RecordError(RejectReason.BAD_VALUE, f"{path or 'record'}: {problem}")


# --- normalisation --------------------------------------------------------------------------


def not_a_time(text: str, field: str, minutes: str) -> RecordError:
    """The reject of a timestamp of the round log's form that names no instant: a day or an
    hour that does not exist, or a leap second (``:60``, a real second of UTC that a date
    and time of the store cannot hold). ``minutes``: its ``:mm:ss``.

    >>> str(not_a_time("2016-12-31T23:59:60Z", "settled_at", ":59:60"))
    "settled_at '2016-12-31T23:59:60Z' is a leap second (:60), which no time of the store holds: write it as :59.999 of its minute"
    """
    if minutes.endswith(":60"):
        return RecordError(
            RejectReason.BAD_VALUE,
            f"{field} {shown(text)} is a leap second (:60), which no time of the store holds:"
            " write it as :59.999 of its minute",
        )
    return RecordError(
        RejectReason.BAD_VALUE, f"{field} {shown(text)} is not a valid date and time"
    )


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
            raise RecordError(
                RejectReason.BAD_CARD, f"{hand}: card {shown(code)} is not a card code"
            )
        card = self._cards.get(code)
        if card is None:
            try:
                card = parse_card(code).code
            except CardError as error:
                raise RecordError(RejectReason.BAD_CARD, f"{hand}: {error}") from None
            self._cards[code] = card
        return card

    def amount(self, text: str, field: str) -> int:
        cents = self.amounts.get(text)
        if cents is None:
            if len(text) > MAX_AMOUNT_CHARS:  # int() of thousands of digits is slow, or refused
                raise RecordError(
                    RejectReason.BAD_MONEY,
                    f"{field} {shown(text)} is longer than any amount"
                    f" ({MAX_AMOUNT_CHARS} characters at most)",
                )
            try:
                cents = parse_amount(text)  # the one parser of amounts
            except AmountError:
                raise RecordError(
                    RejectReason.BAD_MONEY,
                    f'{field} {shown(text)} is not a decimal amount with at most 2 decimals (e.g. "25.00")',
                ) from None
            if cents >= MAX_CENTS:
                raise RecordError(
                    RejectReason.BAD_MONEY,
                    f"{field} {shown(text)} is beyond any stake or payout this tool accepts",
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
        >>> _Canon().timestamp("2026-10-01T01:40:17-03", "t")
        '2026-10-01T04:40:17.000Z'
        """
        if STORED_TIME.fullmatch(text) is not None and text[:10] in self.dates:
            return text
        match = TIMESTAMP.fullmatch(text)
        if match is not None:
            date, hour, minutes, fraction, offset = match.groups()
            utc_hour = self._hours.get((date, hour, offset))
            if utc_hour is not None and minutes[1] < "6" and minutes[4] < "6":
                millis = "000" if fraction is None else (fraction + "00")[:3]
                return f"{utc_hour}{minutes}.{millis}Z"
        return self._timestamp_in_full(text, field)

    def _timestamp_in_full(self, text: str, field: str) -> str:
        match = TIMESTAMP.fullmatch(text.strip()) if isinstance(text, str) else None
        if match is None:
            raise RecordError(
                RejectReason.BAD_VALUE,
                f"{field} {shown(text)} is not a timestamp of the round log's form"
                " (YYYY-MM-DDThh:mm:ss, a fraction of a second if any, and Z or +hh:mm)",
            )
        date, hour, minutes, fraction, written_offset = match.groups()
        if int(date[:4]) not in YEARS:
            raise RecordError(
                RejectReason.BAD_VALUE,
                f"{field} {shown(text)}: year outside {YEARS.start}-{YEARS.stop - 1}",
            )
        if written_offset is None:
            raise RecordError(
                RejectReason.NAIVE_TIMESTAMP,
                f"{field} {shown(text)} has no UTC offset; write it as ...Z or ...+01:00",
            )
        if written_offset in ("-00:00", "-0000", "-00"):  # RFC 3339: a local time, offset unknown
            raise RecordError(
                RejectReason.NAIVE_TIMESTAMP,
                f"{field} {shown(text)} has the offset {written_offset}, which says its local"
                " offset is unknown (RFC 3339): write the time in UTC as ...Z, or with its own"
                " offset",
            )
        offset = written_offset
        if offset in ("Z", "z"):
            offset = "+00:00"
        elif ":" not in offset:  # +0100, or ISO 8601's hours alone: +01
            offset = f"{offset[:3]}:{offset[3:] or '00'}"
        if int(offset[4:6]) > 59:
            raise RecordError(
                RejectReason.BAD_VALUE,
                f"{field} {shown(text)}: the minutes of its UTC offset {offset} are past 59",
            )
        if int(offset[1:3]) > MAX_OFFSET_HOURS or (
            int(offset[1:3]) == MAX_OFFSET_HOURS and offset[4:6] != "00"
        ):
            raise RecordError(
                RejectReason.BAD_VALUE,
                f"{field} {shown(text)}: UTC offset {offset} is outside -14:00..+14:00",
            )
        # Milliseconds, truncated: the precision the store keeps, so that the stored instant
        # and the reporting month computed from it never disagree.
        millis = ((fraction or "") + "000")[:3]
        try:
            local = datetime.fromisoformat(f"{date}T{hour}{minutes}.{millis}{offset}")
            stored = stored_instant(local)
        except (ValueError, OverflowError):
            raise not_a_time(text, field, minutes) from None
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
        text comparisons (stored times sort as text). A month outside
        :data:`~reporting.records.MONTHS_HANDLED` is a :class:`RecordError`: no report, and
        no command, could take it.
        """
        span = self._months.get(timezone)
        if span is not None and span[0] <= stored < span[1]:
            return span[2]
        zone = self._zones.get(timezone) or self._zones.setdefault(timezone, ZoneInfo(timezone))
        local = datetime.fromisoformat(stored[:-1] + "+00:00").astimezone(zone)
        reporting = Month(local.year, local.month)
        month = str(reporting)
        if not MONTHS_HANDLED[0] <= reporting <= MONTHS_HANDLED[1]:  # no report could count it
            first, last = MONTHS_HANDLED
            raise RecordError(
                RejectReason.BAD_VALUE,
                f"settled_at {stored} falls in {month} ({timezone}), outside the months this"
                f" tool reports ({first} to {last}): is the export's clock or date right?",
            )
        try:
            first = datetime(local.year, local.month, 1, tzinfo=zone)
            after = datetime(local.year + local.month // 12, local.month % 12 + 1, 1, tzinfo=zone)
            start, end = stored_instant(first), stored_instant(after)
        except (ValueError, OverflowError):  # the first or last month a datetime can hold
            return month
        if start <= stored < end:
            self._months[timezone] = (start, end, month)
        return month


class RoundValidator:
    """Turns decoded rounds into :class:`~reporting.records.Round` records for the configured
    games.

    Its readers decode into :attr:`shape` (with :attr:`decoder` for JSON), whose bets may be
    of :attr:`bet_types`: the catalogue's and the operator's own that a game offers
    (:func:`known_bet_types`); any other type is an ``unknown_bet_type`` as it decodes.
    """

    def __init__(self, games: Mapping[str, GameSpec], *, keep_unknown_bet_types: bool = False):
        self._games = games
        self.bet_types = known_bet_types(games)
        self.shape, self.bet_shape = raw_shapes(self.bet_types)
        self.decoder = round_decoder(self.bet_types)
        self._known = frozenset(self.bet_types)
        # A profiled export's bet of a type this tool does not know is kept as given (verify
        # reports it as unverified_bet); the spec's round log knows only the bet types above.
        self._keep_unknown = keep_unknown_bet_types
        self._offered = {game_id: frozenset(game.bet_ids) for game_id, game in games.items()}
        self._canon = _Canon()
        self._owners = TableOwners({game_id: game.tables for game_id, game in games.items()})

    def month_of(self, game_id: Any, settled_at: Any) -> str | None:
        """The reporting month of a line that did not load, where its game (one configured)
        and its settlement time can be read; None else (its reject then bears on a month
        through its file: :mod:`reporting.verify.bearing`)."""
        game = self._games.get(game_id) if isinstance(game_id, str) else None
        if game is None or not isinstance(settled_at, str):
            return None
        try:
            stored = self._canon.timestamp(settled_at, "settled_at")
            return self._canon.month(stored, game.timezone)
        except (RecordError, ValueError, OverflowError):
            return None

    def validate(self, raw: RawRound, line: int, bet_lines: list[int] | None = None) -> Round:
        """Validate one decoded round read at ``line`` (its bets at ``bet_lines`` when they
        come from another file, as in a CSV pair).

        Raises :class:`RecordError` with its reject reason.
        """
        game = self._games.get(raw.game)
        if game is None:
            known = ", ".join(sorted(self._games))
            raise RecordError(
                RejectReason.UNKNOWN_GAME,
                f"game {shown(raw.game)} is not configured (known: {known})",
            )
        if not raw.round_id.strip() or not raw.table_id.strip():
            raise RecordError(RejectReason.MISSING_FIELD, "round_id and table_id must not be empty")
        check_texts(raw)
        if self._owners:
            _check_table(raw, self._owners.of(raw.table_id))
        canon = self._canon
        player = canon.cards(raw.player_cards, "player_cards")
        banker = canon.cards(raw.banker_cards, "banker_cards")
        _check_hands(raw)
        hand_no = raw.hand_no
        if hand_no is UNSET:
            hand_no = None
        elif hand_no is not None and not 1 <= hand_no <= MAX_HAND_NO:
            raise RecordError(
                RejectReason.BAD_VALUE, f"hand_no {hand_no} must be 1 to {MAX_HAND_NO:,}"
            )
        timestamp = canon.timestamp
        settled_at = timestamp(raw.settled_at, "settled_at")
        started_at = raw.started_at
        if started_at is not None and started_at is not UNSET:
            started_at = timestamp(started_at, "started_at")
        else:
            started_at = None
        closed_at = raw.betting_closed_at
        if closed_at is not None and closed_at is not UNSET:
            closed_at = timestamp(closed_at, "betting_closed_at")
        else:
            closed_at = None
        # Positional, in Round's field order (as a bet is built in _bets, for the same reason).
        return Round(
            raw.round_id,
            raw.game,
            raw.table_id,
            raw.shoe_id or None,
            hand_no,
            started_at,
            closed_at,
            settled_at,
            canon.month(settled_at, game.timezone),  # report_month
            raw.status,
            raw.void_reason if raw.status == "void" else None,
            player,
            banker,
            line,  # source_line
            self._bets(raw, game.currency, line, bet_lines),
        )

    def _bets(
        self, raw: RawRound, currency: str, line: int, bet_lines: list[int] | None
    ) -> list[Bet]:
        """The round's bets, checked; each at ``line`` or at its own line of ``bet_lines``."""
        round_id = raw.round_id
        offered = self._offered[raw.game]
        canon = self._canon
        amounts, dates, stored_form = canon.amounts, canon.dates, STORED_TIME.fullmatch
        timestamp = canon.timestamp
        bets = []
        for index, bet in enumerate(raw.bets):
            # The common case inline: cached amounts, a time already in the stored form (or
            # one the timestamp check alone turns into it); anything else (or a first sight)
            # goes through the full check, which raises with the reason.
            stake = amounts.get(bet.stake)
            payout = amounts.get(bet.payout)
            placed_at = bet.placed_at
            if placed_at is UNSET:
                placed_at = None
            try:
                if (
                    not stake
                    or payout is None
                    or bet.currency != currency
                    or bet.type not in offered
                    or not bet.account.strip()
                    or not bet.bet_id.strip()
                    or len(bet.bet_id) > MAX_ID_CHARS
                    or len(bet.account) > MAX_ID_CHARS
                    or not bet.bet_id.isprintable()
                    or not bet.account.isprintable()
                ):
                    stake, payout, placed_at = self._check_bet(bet, index, raw.game, currency)
                elif placed_at is not None and (
                    stored_form(placed_at) is None or placed_at[:10] not in dates
                ):
                    placed_at = timestamp(placed_at, f"bets[{index}].placed_at")
            except RecordError as error:
                if bet_lines is not None:
                    error.source_line = bet_lines[index]  # the bad part is on a bets.csv line
                raise
            # Positional, in Bet's field order (round_id, bet_id, account, bet_type, stake_cents,
            # payout_cents, currency, placed_at, source_line): on the hottest line of ingest,
            # keywords cost a quarter more per bet (measured: 81 against 63 ns).
            bets.append(
                Bet(
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
        if len(bets) > 1 and len({bet.bet_id for bet in bets}) != len(bets):
            raise RecordError(RejectReason.BAD_VALUE, bet_id_twice(bets))
        return bets

    def _check_bet(
        self, bet: RawBet, index: int, game_id: str, currency: str
    ) -> tuple[int, int, str | None]:
        """Full check of one bet's ids, type, money, currency and time; returns (stake,
        payout, placed_at as stored)."""
        if not bet.bet_id.strip() or not bet.account.strip():
            raise RecordError(
                RejectReason.MISSING_FIELD,
                f"bets[{index}]: bet_id and account must not be empty (an account is what the"
                " house rules of one player are judged on)",
            )
        # A type as a provider gives it (a profile keeps one it does not map) is shown as an id.
        for name, value in (("bet_id", bet.bet_id), ("account", bet.account), ("type", bet.type)):
            check_length(f"bets[{index}].{name}", value, MAX_ID_CHARS, "an id")
            check_prints(f"bets[{index}].{name}", value)
        offered = self._offered[game_id]
        if bet.type not in offered and not (self._keep_unknown and bet.type not in self._known):
            raise RecordError(
                RejectReason.BAD_VALUE,
                f"bets[{index}].type {shown(bet.type)} is not offered by {game_id}"
                f" (offered: {' '.join(sorted(offered))})",
            )
        canon = self._canon
        stake = canon.amount(bet.stake, f"bets[{index}].stake")
        if stake == 0:
            raise RecordError(
                RejectReason.BAD_MONEY,
                f"bets[{index}].stake {shown(bet.stake)} must be greater than zero",
            )
        payout = canon.amount(bet.payout, f"bets[{index}].payout")
        if bet.currency != currency:
            raise RecordError(
                RejectReason.BAD_VALUE,
                f"bets[{index}].currency {shown(bet.currency)} is not the game's currency {currency}",
            )
        placed_at = bet.placed_at
        if placed_at is UNSET or placed_at is None:
            return stake, payout, None
        return stake, payout, canon.timestamp(placed_at, f"bets[{index}].placed_at")


def _check_table(raw: RawRound, owners: tuple[str, ...]) -> None:
    """A round dealt at a table the configuration lists for other games than the one its line
    names (the games' ``tables``): settled by that game's rules and counted in its figures, an
    error either way, of the log or of the configuration."""
    check_table_of(raw.table_id, raw.game, owners, "the game this line names", "the log names")


def check_table_of(
    table_id: str, game: str, owners: tuple[str, ...], game_is: str, blamed: str
) -> None:
    """Refuse a round of ``game`` (said as ``game_is``) at a table the configuration lists
    for other games (``owners``): the error is ``blamed``'s (the log's, or a profile's
    mapping of its codes), or the configuration's."""
    if owners and game not in owners:
        raise RecordError(
            RejectReason.BAD_VALUE,
            f"table_id {shown(table_id)} is a table of {' and '.join(owners)} by the"
            f" configuration's tables, not of {game}, {game_is}: {blamed} the wrong game, or"
            " the configuration lists the table under the wrong one",
        )


def _check_hands(raw: RawRound) -> None:
    """The cards a round of its status must hold: two or three a hand when settled (both
    hands present), at most three when void (which needs its reason)."""
    player_codes, banker_codes = raw.player_cards, raw.banker_cards
    if player_codes is UNSET:
        player_codes = None
    if banker_codes is UNSET:
        banker_codes = None
    if raw.status == "settled":
        if player_codes is None or banker_codes is None:
            hand = "player_cards" if player_codes is None else "banker_cards"
            raise RecordError(
                RejectReason.MISSING_FIELD, f"required field {hand} is missing on a settled round"
            )
        if not (2 <= len(player_codes) <= 3 and 2 <= len(banker_codes) <= 3):
            raise RecordError(
                RejectReason.BAD_VALUE,
                f"a settled hand holds 2 or 3 cards (player {len(player_codes)}, banker {len(banker_codes)})",
            )
    else:
        if not (raw.void_reason or "").strip():
            raise RecordError(RejectReason.MISSING_FIELD, "a void round needs a void_reason")
        if len(player_codes or ()) > 3 or len(banker_codes or ()) > 3:
            raise RecordError(RejectReason.BAD_VALUE, "a hand holds at most 3 cards")
