"""From a provider's decoded record to the raw round every reader hands the validator.

:class:`RecordMapper` reads each field of a round and of its bets where the profile says,
turns the provider's spellings into the round log's (cards in its codes, times in the
store's form, money as exact amounts, bet types as this tool's, statuses as ``settled`` or
``void``) and returns a :class:`~reporting.ingest.validation.RawRound`: from there the
checks of the spec's own reader apply unchanged (cards per hand, money, timestamps, the
game's bets and currency, the reporting month). A field that cannot be used raises the
line's :class:`~reporting.ingest.rejects.RecordError`, naming the field and its path.

A bet of a type the profile does not map is kept with its type as given: the validator
lets it through (``keep_unknown_bet_types``), verify reports it as ``unverified_bet``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from decimal import Decimal, InvalidOperation
from typing import Any
from zoneinfo import ZoneInfo

import msgspec

from reporting.config.table_patterns import TableOwners
from reporting.engine.games import GameSpec
from reporting.engine.money import format_cents
from reporting.ingest.profiles.cards import CardProblem, hand_codes
from reporting.ingest.profiles.model import Profile
from reporting.ingest.profiles.numbers import epoch_time, local_time, minor_units
from reporting.ingest.profiles.paths import ABSENT, EACH, FieldPath, getter, values_at
from reporting.ingest.validation import RawBet, RawRound, RecordError, check_table_of, shown
from reporting.records import RejectReason

__all__ = ["CSV_ROWS", "RecordMapper", "TableGames"]

#: The key under which a CSV reader hands a round's rows (one bet each) to the mapper: the
#: profile's columns are read on the first row (round fields) and on each row (bet fields).
CSV_ROWS = "\x00rows"

#: Digits of the store's money unit (cents).
_CENT_DIGITS = 2
_MISSING = RejectReason.MISSING_FIELD
_BAD = RejectReason.BAD_VALUE


class TableGames:
    """The configured game a table is dealt for (the games' ``tables``: ids, ``*`` for any
    characters), for logs that name no game."""

    def __init__(self, games: Mapping[str, GameSpec]):
        self._owners = TableOwners({game_id: game.tables for game_id, game in games.items()})

    def owners(self, table: str) -> tuple[str, ...]:
        """The games whose tables list ``table`` (none: a table no game lists)."""
        return self._owners.of(table)

    def game_of(self, table: str) -> str:
        """The game of a table; RecordError (unknown_game) for one no game lists, or that
        two games' patterns both match."""
        matches = self._owners.of(table)
        if len(matches) == 1:
            return matches[0]
        if matches:
            raise RecordError(
                RejectReason.UNKNOWN_GAME,
                f"table {shown(table)} matches the tables of {' and '.join(matches)}: list it"
                " exactly in one game's tables",
            )
        raise RecordError(
            RejectReason.UNKNOWN_GAME,
            f"table {shown(table)} is in no game's tables (the log names no game: list the"
            " table in the game's tables = [...] of the operator configuration)",
        )


def _text(value: Any, name: str, path: FieldPath) -> str | None:
    """A value read as text: a string, or a whole number written as one (ids often are)."""
    kind = type(value)
    if kind is str:
        return value or None
    if value is ABSENT or value is None:
        return None
    if kind is int:
        return str(value)
    if kind is msgspec.Raw:
        return bytes(value).decode()
    raise RecordError(_BAD, f"{name} ({path}) is {shown(value)}, not a text or a number")


def _code(value: Any, name: str, path: FieldPath) -> str | None:
    """A code (a status, a bet type, an id) read as text, as :func:`_text` reads it; but a
    JSON number written with a fraction or an exponent that is a whole number (``1.0``,
    ``9e0``) reads as that number (``1``, ``9``), as a profile's codes are written. JSON tells
    no integer from a float: a feed's ``9.0`` was a code no list held (a void round read as
    settled where a profile lists its void codes alone), its ``1.0`` a bet of a type no one
    knew (an unverified bet, where ``1`` is the Player bet), and the round ``1e5`` another
    round than ``100000``."""
    text = _text(value, name, path)
    if type(value) is not msgspec.Raw or text is None:
        return text
    try:
        number = Decimal(text)
    except InvalidOperation:
        return text
    if not number.is_finite():
        return text
    if number.is_zero():  # 0, -0, 0e999999999: one number
        return "0"
    # a whole number of at most 64 digits (an id's, a code's), not 1e400's
    if number.adjusted() < 64 and number == number.to_integral_value():
        return str(int(number))
    return text


class RecordMapper:
    """Reads one profile's records for the configured games (see the module's text)."""

    def __init__(self, profile: Profile, games: Mapping[str, GameSpec]):
        self.profile = profile
        self._games = games
        self._offered = {game_id: frozenset(game.bet_ids) for game_id, game in games.items()}
        self._tables = TableGames(games)
        fields = profile.round_fields
        self._round = {
            name: (path, _reader(path))
            for name, path in fields.items()
            if isinstance(path, FieldPath)
        }
        self._hands = {name: fields[name] for name in ("player_cards", "banker_cards")}
        # A hand written across several fields or columns: a getter each, made once.
        self._hand_getters = {
            name: tuple(getter(path.steps) for path in paths)
            for name, paths in self._hands.items()
            if not isinstance(paths, FieldPath)
        }
        each, bet_fields = profile.bet_each, profile.bet_fields
        if each is None:  # csv: a bet a row
            each = FieldPath("rows[]", (CSV_ROWS, EACH))
            bet_fields = {
                name: FieldPath(path.text, (CSV_ROWS, EACH, *path.steps))
                for name, path in bet_fields.items()
            }
        self._levels = tuple(getter(keys) if keys else None for keys in _levels(each.steps))
        self.bets_path = each.text
        self._watch(profile)
        self._bet = {name: (path, *_bet_reader(path)) for name, path in bet_fields.items()}
        # The bet's fields in a fixed order, each as (level, getter): read straight off its
        # chain of elements on the hottest loop of a profiled read.
        self._bet_readers = tuple(
            self._bet.get(name, (None, 0, _absent))[1:]
            for name in ("bet_id", "account", "type", "stake", "payout", "currency", "placed_at")
        )
        # The five required fields' keys on their elements (a tuple, never a key: a path of
        # several keys goes through the getters).
        self._bet_keys = tuple(
            path.steps[-1] if len(path.after_last_each) == 1 else ()
            for path in (
                bet_fields[name] for name in ("bet_id", "account", "type", "stake", "payout")
            )
        )
        self._cents_texts: dict[int, str] = {}
        self._cents: dict[Any, int] = {}  # an amount as written (int, text, float text) -> cents
        self._round_id = getter(fields["round_id"].steps)  # type: ignore[union-attr]
        self._time = self._time_reader(profile.times, profile.zone)
        self._void = profile.void_statuses
        self._settled = profile.settled_statuses
        self._bet_types = profile.bet_types
        self._major = profile.money_major
        self._marks = {"decimal": profile.decimal, "grouping": profile.grouping}
        self._net = profile.payout_net

    def _watch(self, profile: Profile) -> None:
        """Start noting whether the file's rounds hold their bets where the profile reads
        them (:attr:`bets_held`; a path that matches nothing loads every round without its
        bets), and its bets their currency (:attr:`currency_held`; one that matches nothing
        puts every bet in its game's currency, a foreign one too): how many were read before
        one did, with the first round's keys."""
        self.bets_held = profile.bet_each is None  # a CSV export: each of its rows is a bet
        self.rounds_without_bets = 0
        self.first_keys: tuple[str, ...] = ()
        self.currency_held = "currency" not in profile.bet_fields  # no path: none to hold
        self.bets_without_currency = 0

    def round_id_of(self, record: Any) -> str | None:
        """The round id of a record that did not load, if it has a readable one (for its
        reject)."""
        if type(record) is not dict:
            return None
        try:
            value = _code(self._round_id(record), "round_id", self.profile.round_fields["round_id"])  # type: ignore[arg-type]
        except RecordError:
            return None
        return None if value is None else value[:200]

    def month_facts_of(self, record: Any) -> tuple[str | None, str | None]:
        """The game and settlement time of a record that did not load, where they can be
        read (for its reject's reporting month); (None, None) else."""
        if type(record) is not dict:
            return None, None
        try:
            game_id = self._game_of(record, self._required_text(record, "table_id"))
            return game_id, self._time_of(record, "settled_at")
        except (RecordError, ValueError, TypeError):
            return None, None

    @staticmethod
    def _time_reader(unit: str, zone: str | None) -> Callable[[Any, str], str]:
        if unit == "iso":
            local = None if zone is None else ZoneInfo(zone)

            def iso(value: Any, field: str) -> str:
                if type(value) is not str:
                    raise RecordError(_BAD, f"{field} {shown(value)} is not an ISO 8601 text")
                return value if local is None else local_time(value, local, field)

            return iso
        milliseconds = unit == "epoch_ms"

        def epoch(value: Any, field: str) -> str:
            return epoch_time(value, milliseconds=milliseconds, field=field)

        return epoch

    def _value(self, record: Any, name: str) -> Any:
        entry = self._round.get(name)
        if entry is None:
            return ABSENT
        path, read = entry
        return read(record, name, path)

    def _required_text(self, record: Any, name: str) -> str:
        entry = self._round[name]
        text = _code(entry[1](record, name, entry[0]), name, entry[0])  # an id as a code
        if text is None or not text.strip():
            raise RecordError(_MISSING, f"required field {name} ({entry[0]}) is missing")
        return text

    def _time_of(self, record: Any, name: str) -> str | None:
        value = self._value(record, name)
        if value is ABSENT or value is None or value == "":
            return None
        return self._time(value, f"{name} ({self._round[name][0]})")

    def round_of(self, record: Any) -> RawRound:
        """The raw round of one decoded record (a JSON object, or a CSV round's rows)."""
        if type(record) is not dict:
            raise RecordError(_BAD, f"a round must be a JSON object, not {shown(record)}")
        round_id = self._required_text(record, "round_id")
        table_id = self._required_text(record, "table_id")
        game_id = self._game_of(record, table_id)
        status, void_reason = self._status(record)
        settled_at = self._time_of(record, "settled_at")
        if settled_at is None:
            path = self._round["settled_at"][0]
            raise RecordError(_MISSING, f"required field settled_at ({path}) is missing")
        game = self._games.get(game_id)
        return RawRound(
            round_id=round_id,
            table_id=table_id,
            game=game_id,
            settled_at=settled_at,
            status=status,  # type: ignore[arg-type]
            bets=self._bets(record, game),
            shoe_id=_code(self._value(record, "shoe_id"), "shoe_id", self._path("shoe_id")),
            hand_no=self._hand_no(record),
            started_at=self._time_of(record, "started_at"),
            betting_closed_at=self._time_of(record, "betting_closed_at"),
            void_reason=void_reason,
            player_cards=self._hand(record, "player_cards"),
            banker_cards=self._hand(record, "banker_cards"),
        )

    def _path(self, name: str) -> FieldPath | None:
        entry = self._round.get(name)
        return None if entry is None else entry[0]

    def _game_of(self, record: Any, table_id: str) -> str:
        if "game" not in self._round:
            return self._tables.game_of(table_id)
        path = self._path("game")
        game = _text(self._value(record, "game"), "game", path)  # type: ignore[arg-type]
        if game is None:
            raise RecordError(_MISSING, f"required field game ({path}) is missing")
        games = self.profile.games
        if games is None:
            return game
        mapped = games.get(game)
        if mapped is None:
            raise RecordError(
                RejectReason.UNKNOWN_GAME,
                f"game {shown(game)} ({path}) is not in the profile's [games]",
            )
        check_table_of(  # said here: the line did not name that game
            table_id,
            mapped,
            self._tables.owners(table_id),
            f"the game the profile's [games] makes of this line's {shown(game)} ({path})",
            "the profile maps the code to",
        )
        return mapped

    def _status(self, record: Any) -> tuple[str, str | None]:
        if "status" not in self._round:
            return "settled", None
        path = self._path("status")
        status = _code(self._value(record, "status"), "status", path)  # type: ignore[arg-type]
        if status is None:
            raise RecordError(_MISSING, f"required field status ({path}) is missing")
        if status in self._void:
            reason = _text(
                self._value(record, "void_reason"), "void_reason", self._path("void_reason")
            )  # type: ignore[arg-type]
            return "void", reason or status
        if self._settled is not None and status not in self._settled:
            known = ", ".join(sorted(self._settled | self._void))
            raise RecordError(_BAD, f"status {shown(status)} ({path}) is not one of {known}")
        return "settled", None

    def _hand_no(self, record: Any) -> int | None:
        value = self._value(record, "hand_no")
        if value is ABSENT or value is None or value == "":
            return None
        if type(value) is int:
            return value
        if type(value) is str and value.isascii() and value.isdigit() and len(value) < 10:
            return int(value)
        raise RecordError(_BAD, f"hand_no ({self._path('hand_no')}) {shown(value)} is not a number")

    def _hand(self, record: Any, name: str) -> list[str] | None:
        paths = self._hands[name]
        try:
            if isinstance(paths, FieldPath):
                value = self._value(record, name)
                if value is ABSENT or value is None:
                    return None
                return hand_codes(value, self.profile.cards)
            cards, empty = [], None
            for index, get in enumerate(self._hand_getters[name]):
                value = get(record)
                if value is ABSENT or value is None or value == "":
                    empty = paths[index] if empty is None else empty
                elif empty is not None:  # read on, this card would take the empty one's place
                    raise CardProblem(
                        f"{empty} is empty, yet {paths[index]} after it holds a card: a hand's"
                        " cards fill its fields in the order dealt"
                    )
                else:
                    cards.append(self.profile.cards.card(value))
            return cards or None
        except CardProblem as problem:
            where = paths if isinstance(paths, FieldPath) else ", ".join(map(str, paths))
            raise RecordError(RejectReason.BAD_CARD, f"{name} ({where}): {problem}") from None

    def _bets(self, record: Any, game: GameSpec | None) -> list[RawBet]:
        currency = None if game is None else game.currency
        offered = None if game is None else self._offered[game.id]
        bets = []
        contexts, whole = _contexts(record, self._levels)
        if not self.bets_held:
            self._look_for_bets(record, contexts, whole)
        for context in contexts:
            bets.append(self._bet_of(context, currency, len(bets), offered))
        if not self.currency_held:
            self._look_for_currency(contexts)
        return bets

    def _look_for_bets(self, record: dict[str, Any], contexts: list, whole: bool) -> None:
        """Note whether ``record`` holds its bets where the profile reads them (a bet, one of
        ``contexts``), or holds none where it should: a round whose every array on the bets'
        path is there (``whole``) and empty, or null (``wagers: []``, each player's ``bets:
        []``, a round nobody bet on) tells neither; one without one of them (``wager[]`` read
        from ``wagers``, or ``wagers[].parts[]`` from wagers without parts) does not hold its
        bets."""
        self.bets_held = bool(contexts)
        if not self.bets_held and not whole:
            self.rounds_without_bets += 1
            self.first_keys = self.first_keys or tuple(record)

    def _look_for_currency(self, contexts: list) -> None:
        """Note whether a bet of ``contexts`` (a round's, read) holds a currency where the
        profile reads it, and count those that hold none until one does."""
        level, get = self._bet_readers[5]
        for context in contexts:
            value = get(context[level])
            if value is not ABSENT and value is not None and value != "":
                self.currency_held = True
                return
            self.bets_without_currency += 1

    # The loop every bet of a profiled export goes through: its common case (texts, amounts
    # seen before) inline, every other case in a function that raises.
    # Long on purpose: one frame per bet (a call per field costs a tenth of the reading).
    def _bet_of(
        self,
        context: tuple[Any, ...],
        currency: str | None,
        index: int,
        offered: frozenset[str] | None,
    ) -> RawBet:
        (
            (id_level, id_get),
            (account_level, account_get),
            (type_level, type_get),
            (stake_level, stake_get),
            (payout_level, payout_get),
            (currency_level, currency_get),
            (placed_level, placed_get),
        ) = self._bet_readers
        keys = self._bet_keys
        try:  # each field one key of its element, present: subscripts, no call
            bet_id = context[id_level][keys[0]]
            account = context[account_level][keys[1]]
            given = context[type_level][keys[2]]
            stake_value = context[stake_level][keys[3]]
            payout_value = context[payout_level][keys[4]]
        except (KeyError, TypeError):  # absent, not an object, or a path of several keys
            bet_id = id_get(context[id_level])
            account = account_get(context[account_level])
            given = type_get(context[type_level])
            stake_value = stake_get(context[stake_level])
            payout_value = payout_get(context[payout_level])
        if type(bet_id) is not str or not bet_id:
            bet_id = self._bet_text(bet_id, "bet_id", index, required=True, code=True)
        if type(account) is not str or not account:
            account = self._bet_text(account, "account", index, required=True, code=True)
        if type(given) is not str or not given:
            given = self._bet_text(given, "type", index, required=True, code=True)
        bet_type = self._bet_types.get(given, given)  # type: ignore[arg-type]
        if offered is not None and bet_type is not given and bet_type not in offered:
            self._not_offered(given, bet_type, index, offered)
        stake = self._money(stake_value, "stake", index)
        if stake <= 0:
            raise RecordError(
                RejectReason.BAD_MONEY,
                f"bets[{index}].stake ({self._bet['stake'][0]}) {shown(stake_value)} must be"
                " greater than zero",
            )
        payout = self._money(payout_value, "payout", index)
        if self._net:
            payout += stake
            if payout < 0:
                raise RecordError(
                    RejectReason.BAD_MONEY,
                    f"bets[{index}].payout: a net result of {format_cents(payout - stake)} loses"
                    f" more than the stake {format_cents(stake)}",
                )
        elif payout < 0:
            raise RecordError(
                RejectReason.BAD_MONEY,
                f"bets[{index}].payout ({self._bet['payout'][0]}) {shown(payout_value)} must not"
                " be negative (a gross payout is what was paid back: 0 when the bet lost)",
            )
        bet_currency = currency_get(context[currency_level])
        if type(bet_currency) is not str or not bet_currency:
            bet_currency = self._bet_text(bet_currency, "currency", index, required=False)
        placed = placed_get(context[placed_level])
        placed_at = None
        if placed is not ABSENT and placed is not None and placed != "":
            placed_at = self._time(placed, f"bets[{index}].placed_at ({self._bet['placed_at'][0]})")
        texts = self._cents_texts
        stake_text = texts.get(stake) or self._cents_text(stake)
        payout_text = texts.get(payout) or self._cents_text(payout)
        return RawBet(
            bet_id=bet_id,  # type: ignore[arg-type]
            account=account,  # type: ignore[arg-type]
            type=bet_type,
            stake=stake_text,
            payout=payout_text,
            currency=bet_currency or currency or "",
            placed_at=placed_at,
        )

    def _not_offered(self, given: str, bet_type: str, index: int, offered: frozenset[str]) -> None:
        """Refuse a bet the profile maps to one its round's game does not offer, in the
        export's words (its code and field) and the tool's (the bet it reads as)."""
        game_id = next(
            game for game, bets in self._offered.items() if bets is offered
        )  # its own set
        raise RecordError(
            RejectReason.BAD_VALUE,
            f"bets[{index}].type {shown(given)} ({self._bet['type'][0]}) is {bet_type}, not"
            f" offered by {game_id} (offered: {' '.join(sorted(offered))})",
        )

    def _cents_text(self, cents: int) -> str:
        """An amount as the round log writes it (cached: stakes and payouts repeat)."""
        if len(self._cents_texts) > 100_000:
            self._cents_texts.clear()
        text = self._cents_texts[cents] = format_cents(cents)
        return text

    def _bet_text(
        self, value: Any, name: str, index: int, *, required: bool, code: bool = False
    ) -> str | None:
        path = self._bet[name][0] if name in self._bet else None
        read = _code if code else _text
        text = read(value, f"bets[{index}].{name}", path)  # type: ignore[arg-type]
        if text is None and required:
            raise RecordError(_MISSING, f"required field bets[{index}].{name} ({path}) is missing")
        return text

    def _money(self, value: Any, name: str, index: int) -> int:
        """An amount in cents; the amounts of a file repeat, so each is read once (by its
        kind and text: the int 5 and the float text "5.0" are both 500, each found once)."""
        kind = type(value)
        key = value if kind is int or kind is str else bytes(value) if kind is msgspec.Raw else None
        cents = self._cents.get(key)
        if cents is not None:
            return cents
        path = self._bet[name][0]
        if value is ABSENT or value is None or value == "":
            raise RecordError(_MISSING, f"required field bets[{index}].{name} ({path}) is missing")
        field = f"bets[{index}].{name} ({path})"
        cents = minor_units(
            value, major=self._major, digits=_CENT_DIGITS, field=field, **self._marks
        )
        if key is not None and type(key) is not bool:
            if len(self._cents) > 100_000:
                self._cents.clear()
            self._cents[key] = cents
        return cents


def _absent(element: Any) -> Any:
    """The reader of a field the profile does not name."""
    return ABSENT


def _reader(path: FieldPath) -> Callable[[Any, str, FieldPath], Any]:
    """A round field's reader: a plain path's value, or through [] steps the one value every
    element holds (ABSENT when none does)."""
    if not path.each_steps:
        get = getter(path.steps)
        return lambda record, name, path: get(record)

    steps = path.steps
    if path.each_steps == 1:  # the common case, a[].b: read without recursion
        split = steps.index(EACH)
        get_array, get_value = getter(steps[:split]), getter(steps[split + 1 :])

        def values(record: Any) -> Any:
            array = get_array(record)
            return map(get_value, array) if type(array) is list else ()

    else:

        def values(record: Any) -> Any:
            return values_at(record, steps)

    def agreed(record: Any, name: str, path: FieldPath) -> Any:
        found = ABSENT
        for value in values(record):
            if value is ABSENT:
                continue
            if value is None:
                continue
            if found is ABSENT:
                found = value
            elif value != found:
                raise RecordError(
                    _BAD, f"{name} ({path}) differs: {shown(found)} and {shown(value)}"
                )
        return found

    return agreed


def _levels(steps: tuple[Any, ...]) -> tuple[tuple[Any, ...], ...]:
    """The key steps between the [] steps of the bets' path: ``a[].b[]`` -> (("a",), ("b",))."""
    levels: list[tuple[Any, ...]] = []
    current: list[Any] = []
    for step in steps:
        if step is EACH:
            levels.append(tuple(current))
            current = []
        else:
            current.append(step)
    return tuple(levels)


def _bet_reader(path: FieldPath) -> tuple[int, Callable[[Any], Any]]:
    """Where a bet field is read: at which element of the bets' path (0: the round, 1: the
    first [] element, ...) and the getter of its steps after its last []."""
    rest = path.after_last_each
    if not rest:
        return path.each_steps, lambda element: element
    return path.each_steps, getter(rest)


def _contexts(
    record: Any, levels: tuple[Callable[[Any], Any] | None, ...]
) -> tuple[list[tuple[Any, ...]], bool]:
    """Each bet's chain of elements: (round, element of the first [] array, ..., the bet);
    ``levels`` reads each array on the element before (None: that element is the array).
    And whether every array the path steps through is there (a list, or null: none there),
    not missing from an element."""
    chains: list[tuple[Any, ...]] = [(record,)]
    whole = True
    for get in levels:
        deeper = []
        for chain in chains:
            if get is not None and type(chain[-1]) is not dict:  # an element the path steps in
                raise RecordError(
                    _BAD,
                    f"an element the bets are read through is {shown(chain[-1])}, not an object",
                )
            array = chain[-1] if get is None else get(chain[-1])
            if type(array) is list:
                deeper.extend([(*chain, element) for element in array])
            elif array is ABSENT:
                whole = False
            elif array is not None:
                raise RecordError(_BAD, f"an array of bets is {shown(array)}")
        chains = deeper
    return chains, whole
