"""Writers of a generated month in the providers' export shapes (the contract: SHAPES of issue
12): ``replay-api`` (a JSON document holding an array of games), ``replay-api-jsonl`` (the same
games, one per line), ``numeric-feed`` (a JSON page object) and ``flat-csv`` (one row per bet).

Each writer turns a round as the spec's round log writes it (the dict of
:mod:`reporting.sample.table`, its bets numbered) into the shape's element: times as epoch
numbers or local ISO text, cards in the shape's dialect, money formatted from integer cents
(never through a float), bets under the shape's names (:meth:`ExportWriter.bet_name`, for
every bet of the catalogue and of the operator's games). What a shape cannot hold is left out
as the contract says. Elements are written as they come (a JSON array element by element),
through a ``*.part`` file renamed once complete, gzipped when the name ends in ``.gz``, with
the same bytes for the same month.

A writer knows the shape, not the faults: the injectors of :mod:`reporting.sample.faults`
spoil an element through the primitives here (:meth:`element`, :meth:`spoil_stake`,
:meth:`spoil_card`, :meth:`spoil_table`, :meth:`write_element`).
"""

from __future__ import annotations

import csv
import io
import tomllib
from collections.abc import Mapping
from datetime import datetime
from functools import cache, lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

import msgspec

from reporting.engine.bets import BetRule
from reporting.engine.cards import RANKS, parse_cards
from reporting.engine.facts import facts_of
from reporting.engine.money import format_cents, parse_amount
from reporting.engine.rules import hand_value
from reporting.errors import InputError
from reporting.sample.calendar import SECOND, Clock, epoch_ms
from reporting.sample.writers import finish_part, manifest_file, open_part

__all__ = [
    "numeric_feed_codes",
    "EXPORT_FORMATS",
    "FLAT_CSV_COLUMNS",
    "UNVERIFIED_TYPE",
    "ExportWriter",
    "FlatCsvWriter",
    "NumericFeedWriter",
    "ReplayApiWriter",
    "json_seconds",
    "major_units",
    "open_export",
]

EXPORT_FORMATS: tuple[str, ...] = ("replay-api", "replay-api-jsonl", "numeric-feed", "flat-csv")

#: The type of a bet this tool does not settle, as a round carries it before a writer names
#: it (:attr:`ExportWriter.unverified_name`: a provider's bet its profile does not map).
UNVERIFIED_TYPE = "unverified"


#: The numeric feed's built-in profile: its ``[bet_types]`` numbers the bets (read as data, the
#: sample sitting beside the readers, not above them).
NUMERIC_FEED_PROFILE = (
    Path(__file__).resolve().parent.parent / "ingest" / "profiles" / "data" / "numeric-feed.toml"
)


@cache
def numeric_feed_codes() -> Mapping[str, int]:
    """The numeric feed's code of each catalogue bet: the provider's numbering, as its built-in
    profile (``reporting/ingest/profiles/data/numeric-feed.toml``) reads it back, inverted (a
    bet added to the catalogue takes its code there, in data)."""
    with NUMERIC_FEED_PROFILE.open("rb") as handle:
        bet_types = tomllib.load(handle)["bet_types"]
    codes: dict[str, int] = {}
    for code, bet_id in bet_types.items():
        codes.setdefault(bet_id, int(code))
    return MappingProxyType(codes)


FLAT_CSV_COLUMNS = (
    "Round", "Table", "Shoe", "Hand", "Opened", "Closed", "Settled", "Outcome", "Void reason",
    "P1", "P2", "P3", "B1", "B2", "B3", "Bet", "Account", "Bet type", "Stake", "Net win",
    "Currency", "Placed",
)  # fmt: skip

_RANK_NUMBERS = {rank: index + 1 for index, rank in enumerate(RANKS)}
# By the winner of the round's facts.
_RESULT_TYPES = {"banker": "BANKER_WIN", "player": "PLAYER_WIN", "tie": "TIE"}
_OUTCOMES = {"banker": "Banker", "player": "Player", "tie": "Tie"}


# --------------------------------------------------------------------------------------------
# Spellings


def major_units(cents: int) -> str:
    """Money as the exact JSON number of major units: an int when whole, else the shortest
    decimal; from integer cents, never through a float.

    >>> major_units(500), major_units(1235), major_units(950), major_units(5)
    ('5', '12.35', '9.5', '0.05')
    """
    units, fraction = divmod(cents, 100)
    if not fraction:
        return str(units)
    return f"{units}.{fraction:02d}".rstrip("0")


def json_seconds(moment: int) -> str:
    """Epoch milliseconds as the JSON number of seconds: an int when whole, else the three
    decimals trimmed of trailing zeros.

    >>> json_seconds(1790000019000), json_seconds(1790000004500), json_seconds(1790000004532)
    ('1790000019', '1790000004.5', '1790000004.532')
    """
    seconds, millis = divmod(moment, SECOND)
    if not millis:
        return str(seconds)
    return f"{seconds}.{millis:03d}".rstrip("0")


# A month's stakes and payouts are a few thousand texts: each parsed once.
_cents = lru_cache(maxsize=1 << 16)(parse_amount)


def _instant(text: str | None) -> int | None:
    """A round-log timestamp (with its offset) as epoch milliseconds."""
    return None if text is None else epoch_ms(datetime.fromisoformat(text))


def _rank_suit(code: str) -> tuple[str, str]:
    return code[:-1], code[-1]


def _replay_card(code: str) -> str:
    """``QS`` -> ``S_Q``, ``10H`` -> ``H_10``."""
    return f"{code[-1]}_{code[:-1]}"


def _outcome(data: dict[str, Any]) -> str | None:
    """The winner of a settled round, of the facts of its cards; None for a void round."""
    if data["status"] != "settled":
        return None
    player = parse_cards(data["player_cards"])
    banker = parse_cards(data["banker_cards"])
    return facts_of(player, banker).winner


def _raw(text: str) -> msgspec.Raw:
    return msgspec.Raw(text.encode())


# --------------------------------------------------------------------------------------------
# The file under every writer


class _Sink:
    """Bytes into ``*.part`` (gzipped by the ``.gz`` suffix, with a fixed header), renamed to
    the file's name once complete, or removed."""

    def __init__(self, path: Path):
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.temporary, self._raw, self._stream = open_part(path)
        self._pending: list[bytes] = []
        self._size = 0

    def write(self, chunk: bytes) -> None:
        self._pending.append(chunk)
        self._size += len(chunk)
        if self._size >= 1 << 18:
            self._flush()

    def _flush(self) -> None:
        if self._pending:
            self._stream.write(b"".join(self._pending))
            self._pending, self._size = [], 0

    def close(self, keep: bool) -> None:
        finish_part(self.temporary, self.path, keep, self._flush, (self._raw, self._stream))


class ExportWriter:
    """What every shape's writer shares: the file, the count of what was written, and the
    round -> element -> file steps (:meth:`element` is each shape's own)."""

    format: str = ""
    #: How the shape names a bet this tool does not settle: a provider's bet that the shape's
    #: profile does not map (a test holds it unmapped).
    unverified_name: str = ""
    positions: str = "line"  # "index": a JSON document's elements, from 0; "line": from 1

    def __init__(self, path: Path, clocks: Mapping[str, Clock], bets: Mapping[str, BetRule]):
        self.path = path
        self.clocks = clocks  # table id -> the clock of its game
        # The shape's name of every bet the month's games offer (``bets``, by id), and of the
        # bet this tool does not settle; made before the file, which a bet without one refuses.
        own = sorted(bet_id for bet_id, bet in bets.items() if bet.own)
        if own:
            raise InputError(
                f"the {self.format} shape cannot carry the operator's own bets ({', '.join(own)}):"
                " a built-in profile maps the catalogue's bets only; leave their games out with"
                " --game, or write the spec's JSON Lines"
            )
        self.names: dict[str, Any] = {bet_id: self.bet_name(bet) for bet_id, bet in bets.items()}
        self.names[UNVERIFIED_TYPE] = self.unverified_value
        self._sink = _Sink(path)
        self.lines = 0  # elements (or data rows) written
        self._encoder = msgspec.json.Encoder()
        self._open()

    def bet_name(self, bet: BetRule) -> Any:
        """How the shape names a bet."""
        raise NotImplementedError

    @property
    def unverified_value(self) -> Any:
        """:attr:`unverified_name` as the shape writes it."""
        return self.unverified_name

    def _open(self) -> None:
        """Write what comes before the first element."""

    def _finish(self) -> None:
        """Write what comes after the last element."""

    def element(self, data: dict[str, Any]) -> Any:
        """The round as the shape's element."""
        raise NotImplementedError

    def leaves_out(self, data: dict[str, Any]) -> bool:
        """Whether the shape has no place for this round."""
        return False

    def write_round(
        self, data: dict[str, Any], bet_index: int | None
    ) -> tuple[int, int | None] | None:
        """Write a round; its position (and the line of bet ``bet_index``, where a bet has one
        of its own), or None when the shape leaves the round out."""
        if self.leaves_out(data):
            return None
        return self.write_element(self.element(data), bet_index)

    def write_element(self, element: Any, bet_index: int | None) -> tuple[int, int | None]:
        """Write an element as given; its position and no bet line."""
        position = self.lines if self.positions == "index" else self.lines + 1
        self._write(element)
        self.lines += 1
        return position, None

    def _write(self, element: Any) -> None:
        raise NotImplementedError

    def files(self) -> list[Path]:
        """The files this writer writes."""
        return [self.path]

    def close(self, keep: bool) -> None:
        """Finish the file, then keep it under its name or remove it."""
        try:
            if keep:
                self._finish()
        finally:
            self._sink.close(keep)


# --------------------------------------------------------------------------------------------
# replay-api


class ReplayApiWriter(ExportWriter):
    """Games of a live-casino operator API's replay endpoint: one JSON array (an element a
    line), or JSON lines with ``lines=True``. A round without bets has no place in it."""

    unverified_name = "BC_PLAYER_TIGER"

    def __init__(
        self, path: Path, clocks: Mapping[str, Clock], bets: Mapping[str, BetRule], *, lines: bool
    ):
        self.as_lines = lines
        self.format = "replay-api-jsonl" if lines else "replay-api"
        self.positions = "line" if lines else "index"
        super().__init__(path, clocks, bets)

    def bet_name(self, bet: BetRule) -> str:
        """``BC_`` and the bet's id in capitals: ``BC_BANKER_NO_COMMISSION``."""
        return "BC_" + bet.id.upper()

    def _open(self) -> None:
        if not self.as_lines:
            self._sink.write(b"[")

    def _finish(self) -> None:
        if not self.as_lines:
            self._sink.write(b"\n]\n" if self.lines else b"]\n")

    def leaves_out(self, data: dict[str, Any]) -> bool:
        return not data["bets"]

    def encode(self, element: dict[str, Any]) -> bytes:
        """An element as compact JSON, without a newline."""
        return self._encoder.encode(element)

    def write_line(self, line: bytes) -> int:
        """Write one line as given (JSON lines only); its line number."""
        self._sink.write(line + b"\n")
        self.lines += 1
        return self.lines

    def _write(self, element: Any) -> None:
        if self.as_lines:
            self._sink.write(self.encode(element) + b"\n")
        else:
            self._sink.write((b"\n" if not self.lines else b",\n") + self.encode(element))

    def element(self, data: dict[str, Any]) -> dict[str, Any]:
        winner = _outcome(data)
        table_id = data["table_id"]
        game: dict[str, Any] = {
            "gameUid": data["round_id"],
            "gameReferenceCode": table_id
            + "/"
            + data["round_id"][len(table_id) + 1 :].replace("-", "/"),
            "gameType": "BACCARAT",
            "gameResultType": "CANCELLED" if winner is None else _RESULT_TYPES[winner],
        }
        for key, name in (("startDate", "started_at"), ("endDate", "settled_at")):
            moment = _instant(data.get(name))
            if moment is not None:
                game[key] = moment
        gameplay: dict[str, Any] = {}
        closed = _instant(data.get("betting_closed_at"))
        if closed is not None:
            gameplay["betEndDate"] = closed
        for key, name in (("playerHand", "player_cards"), ("bankerHand", "banker_cards")):
            codes = data[name]
            cards = {str(index): _replay_card(code) for index, code in enumerate(codes)}
            gameplay[key] = {"cards": cards, "score": hand_value(parse_cards(codes))}
        gameplay["burnCards"] = {}
        game["gameplay"] = {".BaccaratGameplay": gameplay}
        game["playersBets"] = self._players_bets(data, void=winner is None)
        return game

    def _players_bets(self, data: dict[str, Any], void: bool) -> list[dict[str, Any]]:
        players: dict[str, dict[str, Any]] = {}
        for bet in data["bets"]:
            player = players.get(bet["account"])
            if player is None:
                player = players[bet["account"]] = {
                    "playerId": bet["account"],
                    "tileId": data["table_id"],
                    "currency": bet["currency"],
                    "bets": [],
                }
            stake = _cents(bet["stake"])
            payout = _cents(bet["payout"])
            if void:
                result = "REFUND"
            else:
                result = "WIN" if payout > stake else "PUSH" if payout == stake else "LOSE"
            player["bets"].append({
                "betId": bet["bet_id"],
                "txId": "tx-" + bet["bet_id"],
                "betAmount": _raw(major_units(stake)),
                "payoffAmount": _raw(major_units(payout)),
                "playerBetStatus": "REFUNDED" if void else "PAID",
                "resultType": result,
                "betType": self.names[bet["type"]],
            })  # fmt: skip
        return list(players.values())

    def _bet_of(self, element: dict[str, Any], bet_id: str) -> dict[str, Any]:
        return next(
            bet
            for player in element["playersBets"]
            for bet in player["bets"]
            if bet["betId"] == bet_id
        )

    def spoil_stake(self, element: dict[str, Any], bet: dict[str, Any]) -> str:
        """Write the stake of ``bet`` (the round's) with four decimals; the text written."""
        text = _four_decimals(_cents(bet["stake"]))
        self._bet_of(element, bet["bet_id"])["betAmount"] = _raw(text)
        return text

    def spoil_card(self, element: dict[str, Any], hand: str, index: int) -> str:
        """Write card ``index`` of ``hand`` (``player`` or ``banker``) with an unknown suit; the
        text written."""
        cards = element["gameplay"][".BaccaratGameplay"][hand + "Hand"]["cards"]
        cards[str(index)] = text = "X" + cards[str(index)][1:]
        return text

    def spoil_table(self, element: dict[str, Any], table_id: str) -> bool:
        """Name another table on every entry of the game (the shape names no game)."""
        for player in element["playersBets"]:
            player["tileId"] = table_id
        return True


def _four_decimals(cents: int) -> str:
    """A stake with two more decimals than a cent holds.

    >>> _four_decimals(500), _four_decimals(1235)
    ('5.0005', '12.3505')
    """
    return f"{cents // 100}.{cents % 100:02d}05"


# --------------------------------------------------------------------------------------------
# numeric-feed


class NumericFeedWriter(ExportWriter):
    """A feed's page object holding every round under ``data``: numeric bet codes, suit+rank
    cards, money in minor units, times in epoch seconds. ``count`` follows ``data``: a
    stream only knows it at the end."""

    format = "numeric-feed"
    positions = "index"
    unverified_name = "99"

    def bet_name(self, bet: BetRule) -> int:
        """The feed's code of the bet (:func:`numeric_feed_codes`); an operator's own bet has
        none."""
        code = numeric_feed_codes().get(bet.id)
        if code is None:
            raise InputError(
                f"bet {bet.id} has no code in the numeric-feed shape (it numbers the catalogue's "
                "bets only): leave its game out with --game, or write another --format"
            )
        return code

    @property
    def unverified_value(self) -> int:
        """:attr:`unverified_name` as the feed writes a code: a number."""
        return int(self.unverified_name)

    def _open(self) -> None:
        self._sink.write(b'{"page":1,"pages":1,"data":[')

    def _finish(self) -> None:
        self._sink.write((b"\n]" if self.lines else b"]") + f',"count":{self.lines}}}\n'.encode())

    def _write(self, element: Any) -> None:
        self._sink.write((b"\n" if not self.lines else b",\n") + self._encoder.encode(element))

    def element(self, data: dict[str, Any]) -> dict[str, Any]:
        void = data["status"] == "void"
        feed: dict[str, Any] = {
            "id": data["round_id"],
            "table": data["table_id"],
            "game": data["game"],
            "shoe": data.get("shoe_id"),
            "hand": data.get("hand_no"),
        }
        for key, name in (
            ("opened", "started_at"),
            ("closed", "betting_closed_at"),
            ("settled", "settled_at"),
        ):
            moment = _instant(data.get(name))
            if moment is not None:
                feed[key] = _raw(json_seconds(moment))
        feed["state"] = 9 if void else 1
        if void:
            feed["voidReason"] = data["void_reason"]
        feed["cards"] = {
            hand: [
                f"{suit}{_RANK_NUMBERS[rank]}"
                for rank, suit in map(_rank_suit, data[hand + "_cards"])
            ]
            for hand in ("player", "banker")
        }
        feed["wagers"] = [self._wager(bet) for bet in data["bets"]]
        return feed

    def _wager(self, bet: dict[str, Any]) -> dict[str, Any]:
        wager: dict[str, Any] = {
            "id": bet["bet_id"],
            "acct": bet["account"],
            "code": self.names[bet["type"]],
            "amount": _cents(bet["stake"]),
            "win": _cents(bet["payout"]),
            "cur": bet["currency"],
        }
        placed = _instant(bet.get("placed_at"))
        if placed is not None:
            wager["at"] = _raw(json_seconds(placed))
        return wager

    def _wager_of(self, element: dict[str, Any], bet_id: str) -> dict[str, Any]:
        return next(wager for wager in element["wagers"] if wager["id"] == bet_id)

    def spoil_stake(self, element: dict[str, Any], bet: dict[str, Any]) -> str:
        """Write the stake of ``bet`` (the round's) with a fraction of a minor unit."""
        text = f"{_cents(bet['stake'])}.5"
        self._wager_of(element, bet["bet_id"])["amount"] = _raw(text)
        return text

    def spoil_card(self, element: dict[str, Any], hand: str, index: int) -> str:
        """Write card ``index`` of ``hand`` with rank 14, which no suit has."""
        cards = element["cards"][hand]
        cards[index] = text = cards[index][0] + "14"
        return text

    def spoil_table(self, element: dict[str, Any], table_id: str) -> bool:
        """Nothing: the feed names its game, and the round's game id is unknown already."""
        return False


# --------------------------------------------------------------------------------------------
# flat-csv


class FlatCsvWriter(ExportWriter):
    """A back-office export: one row per bet, cards in columns, local times with their
    offset, net wins. A round without bets is one row with empty bet cells."""

    format = "flat-csv"
    unverified_name = "Player Tiger"

    def bet_name(self, bet: BetRule) -> str:
        """The bet's name in English: the catalogue's (``Banker Pair``), or the operator's."""
        return bet.name.msgid or bet.name.in_language("en") or bet.id

    def _open(self) -> None:
        self._buffer = io.StringIO()
        self._csv = csv.writer(self._buffer, lineterminator="\n")
        self._write_rows([list(FLAT_CSV_COLUMNS)])

    def _write_rows(self, rows: list[list[str]]) -> None:
        self._csv.writerows(rows)
        self._sink.write(self._buffer.getvalue().encode("utf-8"))
        self._buffer.seek(0)
        self._buffer.truncate()

    def write_element(self, element: Any, bet_index: int | None) -> tuple[int, int | None]:
        """Write a round's rows; the line of its first row and of bet ``bet_index``'s."""
        first = self.lines + 2  # the header is line 1
        self._write_rows(element)
        self.lines += len(element)
        return first, None if bet_index is None else first + bet_index

    def _time(self, clock: Clock, text: str | None) -> str:
        moment = _instant(text)
        return "" if moment is None else clock.format(moment, "local").replace("T", " ", 1)

    def element(self, data: dict[str, Any]) -> list[list[str]]:
        clock = self.clocks[data["table_id"]]
        winner = _outcome(data)
        hand_no = data.get("hand_no")
        cards = [(data[hand] + ["", "", ""])[:3] for hand in ("player_cards", "banker_cards")]
        round_cells = [
            data["round_id"], data["table_id"], data.get("shoe_id") or "",
            "" if hand_no is None else str(hand_no),
            *(self._time(clock, data.get(name)) for name in ("started_at", "betting_closed_at", "settled_at")),
            "Void" if winner is None else _OUTCOMES[winner], data.get("void_reason") or "",
            *cards[0], *cards[1],
        ]  # fmt: skip
        if not data["bets"]:
            return [round_cells + [""] * 7]
        rows = []
        for bet in data["bets"]:
            stake = _cents(bet["stake"])
            payout = _cents(bet["payout"])
            rows.append(round_cells + [
                bet["bet_id"], bet["account"], self.names[bet["type"]],
                format_cents(stake), format_cents(payout - stake), bet["currency"],
                self._time(clock, bet.get("placed_at")),
            ])  # fmt: skip
        return rows

    _STAKE = FLAT_CSV_COLUMNS.index("Stake")
    _TABLE = FLAT_CSV_COLUMNS.index("Table")

    def spoil_stake(self, element: list[list[str]], bet: dict[str, Any]) -> str:
        """Write the stake of ``bet`` (the round's) with four decimals."""
        row = next(row for row in element if row[self._BET] == bet["bet_id"])
        row[self._STAKE] = text = _four_decimals(_cents(bet["stake"]))
        return text

    _BET = FLAT_CSV_COLUMNS.index("Bet")

    def spoil_card(self, element: list[list[str]], hand: str, index: int) -> str:
        """Write card ``index`` of ``hand`` as ``1X`` on every row of the round."""
        column = FLAT_CSV_COLUMNS.index(("P" if hand == "player" else "B") + str(index + 1))
        for row in element:
            row[column] = "1X"
        return "1X"

    def spoil_table(self, element: list[list[str]], table_id: str) -> bool:
        """Name another table on every row of the round (the shape names no game)."""
        for row in element:
            row[self._TABLE] = table_id
        return True


def open_export(
    fmt: str, out: Path, clocks: Mapping[str, Clock], bets: Mapping[str, BetRule]
) -> tuple[ExportWriter, Path]:
    """The writer of an export shape, and where its fault manifest goes: ``clocks`` by table
    id, ``bets`` every bet the month's games offer, by id."""
    writer: ExportWriter
    if fmt in ("replay-api", "replay-api-jsonl"):
        writer = ReplayApiWriter(out, clocks, bets, lines=fmt == "replay-api-jsonl")
    elif fmt == "numeric-feed":
        writer = NumericFeedWriter(out, clocks, bets)
    elif fmt == "flat-csv":
        writer = FlatCsvWriter(out, clocks, bets)
    else:
        raise ValueError(f"format {fmt!r} is not an export shape: {', '.join(EXPORT_FORMATS)}")
    return writer, manifest_file(fmt, out)
