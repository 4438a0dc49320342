"""Faults: one injector per finding kind and reject reason, all in one table.

:data:`INJECTORS` maps every kind of :data:`FAULT_KINDS` to its :class:`Injector`, the one
place that knows how that fault is made, at the stages it needs:

1. the deal (``into_deal``): cards changed before the round is settled;
2. the bets (``into_bets``): a stake or a placing time changed, a bet added;
3. the round as written (``into_round``, every kind): a field changed after settlement, and
   the description the manifest gives;
4. the encoded line (``into_json_line``, ``into_csv_rows``): what only a format can break.

Planning (:func:`plan_faults`) spreads N faults of each kind over the games that can carry
it, their tables and the month. Every random draw comes from the table's own source, in the
order of the stages above, so the same seed gives the same faults.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from fractions import Fraction
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal

import msgspec

from reporting.engine.bets import (
    BetGroup,
    BetResult,
    BetRule,
    PayRow,
    PayTable,
    Resolution,
    resolve_bet,
)
from reporting.engine.cards import Card, parse_cards
from reporting.engine.facts import RoundFacts, facts_of
from reporting.engine.money import parse_amount
from reporting.engine.rules import resolve_round
from reporting.errors import InputError
from reporting.records import FINDING_KINDS, REJECT_REASONS, FindingKind, RejectReason
from reporting.sample.bets import PlacedBet
from reporting.sample.calendar import DAY, SECOND, epoch_ms
from reporting.sample.exports import EXPORT_FORMATS, UNVERIFIED_TYPE
from reporting.sample.games import table_prefix
from reporting.sample.shoes import Shoe

if TYPE_CHECKING:
    from reporting.sample.exports import ExportWriter, ReplayApiWriter
    from reporting.sample.games import GameModel
    from reporting.sample.table import Table
    from reporting.sample.writers import CsvWriter, JsonLinesWriter, LogWriter

FAULT_KINDS: tuple[str, ...] = FINDING_KINDS + REJECT_REASONS
#: Every format the generator writes: the spec's round log (JSON lines, a CSV pair), then the
#: providers' export shapes.
FORMATS: tuple[str, ...] = ("jsonl", "csv", *EXPORT_FORMATS)
_REPLAY = ("replay-api", "replay-api-jsonl")
_NOWHERE: Mapping[str, str] = MappingProxyType({})


# --------------------------------------------------------------------------------------------
# Records of a fault on its way


@dataclass(slots=True)
class PlannedFault:
    """A fault to inject: its kind, the table that carries it, and from when."""

    kind: str
    game: str
    table: int  # table number within the game, from 0
    target: int = 0  # epoch ms: the fault goes on the first suitable round from here on


@dataclass(slots=True)
class AppliedFault:
    """A fault as written into a round, with what the manifest says of it."""

    kind: str
    category: str
    bet_index: int | None
    detail: str
    # Instructions the writer carries out, because they depend on the encoding.
    truncate_fraction: float = 0.0  # bad_json
    conflict_payout: str | None = None  # conflict (JSON lines): another payout for bet_index
    conflict_settled_at: str | None = None  # conflict (CSV): another settled_at
    reused_round: dict[str, Any] | None = None  # duplicate_bet_id: the round whose bet id
    misspelled: tuple[str, int, str] | None = None  # bad_card: hand, index, the card dealt
    unknown_table: str | None = None  # unknown_game: a table for shapes that name no game
    extra: dict[str, Any] = field(default_factory=dict)  # more manifest keys


@dataclass(frozen=True, slots=True)
class Note:
    """What an early stage knows for the description: its text and more manifest keys."""

    detail: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict)


NO_NOTE = Note()


@dataclass(frozen=True, slots=True)
class DealChange:
    """The cards a fault deals instead, and what to say of them."""

    player: tuple[Card, ...]
    banker: tuple[Card, ...]
    note: Note


@dataclass(frozen=True, slots=True)
class RoundFault:
    """A fault due on a round, at the stage where it is written into the round's data."""

    kind: str
    category: str
    table: Table
    data: dict[str, Any]  # the round as the log writes it
    bet_index: int  # the bet concerned: an earlier stage's, else one drawn at random
    settled: int  # epoch ms
    note: Note  # from the deal or bets stage
    ordinal: int  # 1 for the table's first fault of this kind, 2 for its second, ...

    @property
    def bet(self) -> dict[str, Any]:
        """The bet concerned, as written."""
        return self.data["bets"][self.bet_index]

    def applied(
        self, bet_index: int | None, detail: str, extra: Mapping[str, Any] | None = None, **writer
    ) -> AppliedFault:
        """The fault as written, with the manifest's description and the writer's
        instructions (``truncate_fraction``, ``conflict_payout``, ``conflict_settled_at``,
        ``reused_round``)."""
        extra = dict(extra or {})
        return AppliedFault(self.kind, self.category, bet_index, detail, extra=extra, **writer)


# --------------------------------------------------------------------------------------------
# The injector of a kind

DealStage = Callable[["Table", tuple[Card, ...], tuple[Card, ...], Shoe], DealChange | None]
BetStage = Callable[["Table", list[PlacedBet], int, int], tuple[PlacedBet, Note]]
RoundStage = Callable[[RoundFault], AppliedFault]
JsonLineStage = Callable[["JsonLinesWriter", dict[str, Any], AppliedFault], tuple[int, None]]
CsvStage = Callable[["CsvWriter", dict[str, Any], AppliedFault], tuple[int, int | None]]
ExportStage = Callable[["ExportWriter", dict[str, Any], AppliedFault], tuple[int, int | None]]


@dataclass(frozen=True, slots=True, kw_only=True)
class Injector:
    """How one fault kind is injected, stage by stage, and which rounds can carry it."""

    category: Literal["finding", "reject"]
    # The stages, in the order a round meets them (see the module's docstring). A deal stage
    # of a last-hand fault returns None when this hand cannot carry it: the fault waits.
    into_deal: DealStage | None = None
    into_bets: BetStage | None = None
    into_round: RoundStage
    into_json_line: JsonLineStage | None = None  # else the round is encoded as it is
    into_csv_rows: CsvStage | None = None
    into_export: ExportStage | None = None  # the export shapes' element (exports.py)
    suits_game: Callable[[GameModel], bool] | None = None  # None: every game
    no_game: str = ""  # why the kind is skipped when no game of the configuration suits it
    # Formats that cannot carry the kind, and why. The fault is made all the same (the month's
    # draws do not depend on the format): such a format writes the round as the fault left it
    # when a reader would load it (``uncarried`` taking out what the format cannot hold), and
    # leaves it out when a reader would reject it, so that every format loads the same rounds.
    not_in: Mapping[str, str] = field(default_factory=lambda: _NOWHERE)
    uncarried: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    last_hand_of_shoe: bool = False  # waits for the last hand of a shoe
    voids_round: bool = False
    first_copy_loads: bool = False  # a repeat is rejected, the round itself loads

    @property
    def round_loads(self) -> bool:
        """Whether a reader loads the round that carries this fault."""
        return self.category == "finding" or self.first_copy_loads

    def carried_by(self, fmt: str) -> bool:
        """Whether a log of format ``fmt`` carries this kind."""
        return fmt not in self.not_in


def _noted_on_round(fault: RoundFault) -> AppliedFault:
    """A fault of the round as a whole, described by an earlier stage."""
    return fault.applied(None, fault.note.detail, fault.note.extra)


def _noted_on_bet(fault: RoundFault) -> AppliedFault:
    """A fault of one bet, described by an earlier stage."""
    return fault.applied(fault.bet_index, fault.note.detail, fault.note.extra)


# ---- findings


def _misstate_payout(fault: RoundFault) -> AppliedFault:
    """Log a payout other than the engine's, the way a provider gets it wrong, every wrong
    amount derived from the engine's settlement of the bet on the logged cards.

    First choice, the typical error: a bet decided by a pay row that another row of the bet
    on the same result pays otherwise is paid as that row pays (a Banker win with 6 at even
    money on a no-commission table, an EZ Banker's three-card 7 paid as a win, a three-card 6
    at the two-card odds, a twin Tiger Pair as a double); the round's first bet open to it
    (from the one drawn on) takes the fault. Otherwise the drawn bet: a lost bet is paid back
    as a push, a push kept as a loss, a main bet's win below even money paid at even money
    (its commission forgotten), any other win overpaid by one unit.
    """
    game = fault.table.game
    player = parse_cards(fault.data["player_cards"])
    banker = parse_cards(fault.data["banker_cards"])
    facts = facts_of(player, banker)
    bets = fault.data["bets"]
    for offset in range(len(bets)):
        index = (fault.bet_index + offset) % len(bets)
        misread = _misread_row(
            game.bet(bets[index]["type"]), facts, parse_amount(bets[index]["stake"]), fault
        )
        if misread is not None:
            return _log_payout(fault, index, *misread)
    bet = fault.bet
    rule = game.bet(bet["type"])
    resolution = resolve_bet(rule, facts, game.pay_table)
    stake = parse_amount(bet["stake"])
    if resolution.result is BetResult.LOSE:
        logged, how = stake, "a lost bet paid back as a push"
    elif resolution.result is BetResult.PUSH:
        logged, how = 0, "a push kept as a loss"
    elif rule.group is BetGroup.MAIN and resolution.odds < 1:
        at_even_money = Resolution(BetResult.WIN, Fraction(1), resolution.row, resolution.pay_row)
        logged = at_even_money.payout(stake, game.rounding)
        how = f"a {rule.id} win paid at even money"
    else:
        logged = resolution.payout(stake, game.rounding) + 100
        how = "a win overpaid by one unit"
    return _log_payout(fault, fault.bet_index, logged, how)


def _misread_row(
    rule: BetRule, facts: RoundFacts, stake: int, fault: RoundFault
) -> tuple[int, str] | None:
    """What a bet pays when settled on the wrong row: the nearest other row of the bet on the
    same result (the same ``winner`` condition) that pays otherwise, the rows after first;
    None when no row of the bet is open to the error. Returns the payout and how."""
    game = fault.table.game
    table = game.pay_table
    resolution = resolve_bet(rule, facts, table)
    decided = resolution.pay_row
    if decided is None:
        return None
    number = rule.rows.index(decided)
    expected = resolution.payout(stake, game.rounding)
    for other in (*range(number + 1, len(rule.rows)), *range(number - 1, -1, -1)):
        row = rule.rows[other]
        if row.condition("winner") != decided.condition("winner"):
            continue
        misread = _paid_on(row, f"{rule.id}:{other + 1}", table)
        logged = misread.payout(stake, game.rounding)
        if table.pay(row) != table.pay(decided) and logged != expected:
            how = (
                f"a bet decided by row {_row_text(resolution.row, decided)} paid as on row "
                f"{_row_text(misread.row, row)}"
            )
            return logged, how
    return None


def _paid_on(row: PayRow, row_id: str, table: PayTable) -> Resolution:
    """The engine's resolution of a bet as ``row`` decides it."""
    pay = table.pay(row)
    if isinstance(pay, Fraction):
        return Resolution(BetResult.WIN, pay, row_id, row)
    return Resolution(pay, Fraction(0), row_id, row)


def _row_text(row_id: str, row: PayRow) -> str:
    """A pay row for a fault's description: its id, and when it applies."""
    words = row.says.msgid or row.says.in_language("en")
    return row_id if words is None else f"{row_id} ({words.rstrip('.')})"


def _log_payout(fault: RoundFault, index: int, logged_cents: int, how: str) -> AppliedFault:
    """Log ``logged_cents`` as the payout of bet ``index`` of the round, described."""
    bet = fault.data["bets"][index]
    expected = bet["payout"]
    bet["payout"] = fault.table.model.money(logged_cents)
    return fault.applied(
        index,
        f"{bet['type']} bet of {bet['stake']}: logged payout {bet['payout']}, the engine "
        f"settles {expected} on the logged cards ({how})",
        {"expected_payout": expected, "logged_payout": bet["payout"]},
    )


def _keep_a_void_stake(fault: RoundFault) -> AppliedFault:
    bet = fault.bet
    bet["payout"] = "0.00"
    return fault.applied(
        fault.bet_index,
        f"void round ({fault.data['void_reason']}): {bet['type']} bet of {bet['stake']} "
        "logged with payout 0.00 instead of its stake",
        {"expected_payout": bet["stake"], "logged_payout": "0.00"},
    )


def _stake_outside_limits(
    table: Table, bets: list[PlacedBet], started: int, closed: int
) -> tuple[PlacedBet, Note]:
    rng, model, game = table.rng, table.model, table.game
    bet = bets[rng.randrange(len(bets))]
    limits = game.limits_for(bet[1])
    if rng.random() < 0.5 and limits.minimum > 1:
        # Half the minimum, in whole units when that stays above zero.
        bet[3] = limits.minimum // 200 * 100 or limits.minimum // 2
        where = f"below the minimum {model.money(limits.minimum)}"
    else:
        bet[3] = limits.maximum + max(100, limits.maximum // 200 * 100)
        where = f"above the maximum {model.money(limits.maximum)}"
    return bet, Note(f"{bet[1]} stake {model.money(bet[3])} {game.currency} is {where}")


def _place_after_closing(
    table: Table, bets: list[PlacedBet], started: int, closed: int
) -> tuple[PlacedBet, Note]:
    rng = table.rng
    bet = bets[rng.randrange(len(bets))]
    bet[0] = closed + rng.randint(300, 8 * SECOND)
    return bet, NO_NOTE  # described once the times are written


def _describe_late_bet(fault: RoundFault) -> AppliedFault:
    bet = fault.bet
    return fault.applied(
        fault.bet_index,
        f"{bet['type']} bet placed at {bet['placed_at']}, after betting closed at "
        f"{fault.data['betting_closed_at']}",
    )


def _reverse_a_drawing_decision(
    table: Table, player: tuple[Card, ...], banker: tuple[Card, ...], shoe: Shoe
) -> DealChange:
    """The same deal with one drawing decision reversed, cards taken from or returned to the
    shoe so that the shoe's counts stay true."""
    if len(banker) == 3:
        # The Banker's third card was the last one drawn: it goes back on top of the shoe.
        shoe.put_back()
        player, banker = player, banker[:2]
    elif len(player) == 2:
        player, banker = (*player, next(shoe)), banker
    else:
        player, banker = player, (*banker, next(shoe))
    found = resolve_round(player, banker).breaches
    assert found, "a third-card fault must break a drawing rule"
    return DealChange(player, banker, Note("; ".join(breach.message for breach in found)))


def _log_a_card_once_too_often(
    table: Table, player: tuple[Card, ...], banker: tuple[Card, ...], shoe: Shoe
) -> DealChange | None:
    """On the last hand of a shoe, one card logged as another of the same points whose every
    copy the shoe has already shown; None when no card of the hand can be."""
    swap = _find_shoe_swap(table, player, banker)
    if swap is None:
        return None
    new_player, new_banker, original, replacement = swap
    decks = table.game.decks
    detail = (
        f"{original.code} logged as {replacement.code} on the last hand of shoe "
        f"{table.shoes.shoe_id}: {replacement.code} appears {decks + 1} times in a shoe of "
        f"{decks} decks"
    )
    return DealChange(new_player, new_banker, Note(detail, {"card": replacement.code}))


def _find_shoe_swap(
    table: Table, player: tuple[Card, ...], banker: tuple[Card, ...]
) -> tuple[tuple[Card, ...], tuple[Card, ...], Card, Card] | None:
    """A card to log as another of the same points whose every copy this shoe has already
    shown, leaving every fact the game's bets read unchanged (and the drawing rules kept):
    the new hands, the card and its replacement."""
    decks = table.game.decks
    shown_before = table.shoes.shown
    read = table.model.settler.facts_read  # what the game's bets settle on
    facts = facts_of(player, banker)
    hands = [list(player), list(banker)]
    positions = [(hand, index) for hand in (0, 1) for index in range(len(hands[hand]))]
    positions.sort(key=lambda position: -position[1])  # third cards first: no pair to keep
    for hand, index in positions:
        card = hands[hand][index]
        others = [c.code for h in (0, 1) for i, c in enumerate(hands[h]) if (h, i) != (hand, index)]
        for candidate in table.model.same_points[card.points]:
            if candidate == card:
                continue
            shown = shown_before.get(candidate.code, 0) + others.count(candidate.code)
            if shown < decks:
                continue
            swapped = [list(player), list(banker)]
            swapped[hand][index] = candidate
            new_outcome = resolve_round(swapped[0], swapped[1])
            unchanged = all(
                getattr(new_outcome.facts, name) == getattr(facts, name) for name in read
            )
            if unchanged and not new_outcome.breaches:
                return tuple(swapped[0]), tuple(swapped[1]), card, candidate
    return None


def _add_exclusive_breach(
    table: Table, bets: list[PlacedBet], started: int, closed: int
) -> tuple[PlacedBet, Note]:
    """Give one account a second bet of an exclusive group (the Greek house rule)."""
    rng = table.rng
    stakes = table.model.bets.stakes
    group = sorted(table.game.exclusive_bets[0])
    holders = [bet for bet in bets if bet[1] in group]
    if holders:
        first = holders[rng.randrange(len(holders))]
    else:
        account = bets[rng.randrange(len(bets))][2]
        first_type = group[rng.randrange(len(group))]
        first = [rng.randint(started + 500, closed - 200), first_type, account,
                 stakes[first_type].draw(rng.random)]  # fmt: skip
        bets.append(first)
    second_type = next(bet for bet in group if bet != first[1])
    second = [rng.randint(started + 500, closed - 200), second_type, first[2],
              stakes[second_type].draw(rng.random)]  # fmt: skip
    bets.append(second)
    detail = (
        f"account {first[2]} holds {first[1]} and {second_type} in one round; "
        f"the house allows one of {', '.join(group)}"
    )
    return second, Note(detail, {"account": first[2]})


def _settle_before_starting(fault: RoundFault) -> AppliedFault:
    """Swap the round's start and settlement times: it settles before it starts, before
    betting closes and before its bets were placed (which stay before the close: no late
    bet)."""
    data = fault.data
    data["started_at"], data["settled_at"] = data["settled_at"], data["started_at"]
    return fault.applied(
        None,
        f"started_at {data['started_at']} and settled_at {data['settled_at']} swapped: the"
        " round settles before it starts",
    )


def _plan_a_reused_bet_id(fault: RoundFault) -> AppliedFault:
    """One bet will carry the id of a bet of the table's last round without a fault (bet ids
    are numbered as the rounds are written: the writer stage renames it)."""
    earlier = fault.table.last_clean_round
    assert earlier is not None, "a fault is aimed past the table's first rounds"
    return fault.applied(fault.bet_index, "", reused_round=earlier)  # described when written


def _write_a_reused_bet_id(
    writer: LogWriter, data: dict[str, Any], fault: AppliedFault
) -> tuple[int, int | None]:
    assert fault.bet_index is not None and fault.reused_round is not None
    bet, earlier = data["bets"][fault.bet_index], fault.reused_round
    reused = earlier["bets"][0]["bet_id"]
    fault.detail = (
        f"{bet['type']} bet {bet['bet_id']} written as {reused}, the id of a bet of round"
        f" {earlier['round_id']}"
    )
    fault.extra["first_round_id"] = earlier["round_id"]
    bet["bet_id"] = reused
    return writer.write_round(data, fault.bet_index)


# ---- lines the reader must reject


def _cut_short(fault: RoundFault) -> AppliedFault:
    return fault.applied(
        None, "line cut short: not valid JSON", truncate_fraction=fault.table.rng.uniform(0.3, 0.9)
    )


def _write_game_cut_short(
    writer: ReplayApiWriter, data: dict[str, Any], fault: AppliedFault
) -> tuple[int, int | None]:
    line = writer.encode(writer.element(data))
    return writer.write_line(line[: max(1, int(len(line) * fault.truncate_fraction))]), None


def _write_cut_short(
    writer: JsonLinesWriter, data: dict[str, Any], fault: AppliedFault
) -> tuple[int, None]:
    line = writer.encode(data)
    writer.write_line(line[: max(1, int(len(line) * fault.truncate_fraction))])
    return writer.lines, None


def _drop_settled_at(fault: RoundFault) -> AppliedFault:
    del fault.data["settled_at"]
    return fault.applied(None, "the required field settled_at is missing")


def _misspell_a_card(fault: RoundFault) -> AppliedFault:
    rng, data = fault.table.rng, fault.data
    hands = [hand for hand in ("player_cards", "banker_cards") if data[hand]]
    hand = hands[rng.randrange(len(hands))]
    index = rng.randrange(len(data[hand]))
    original = data[hand][index]
    data[hand][index] = "1X"
    applied = fault.applied(None, f"{hand} card {original} written as 1X")
    applied.misspelled = (hand, index, original)
    return applied


def _write_an_unknown_card(
    writer: ExportWriter, data: dict[str, Any], fault: AppliedFault
) -> tuple[int, int | None]:
    """The shape's element of the round as dealt, one card spelled as the shape knows none."""
    assert fault.misspelled is not None
    hand, index, original = fault.misspelled
    dealt = {**data, hand: list(data[hand])}
    dealt[hand][index] = original
    element = writer.element(dealt)
    written = writer.spoil_card(element, hand.removesuffix("_cards"), index)
    fault.detail = f"{hand} card {original} written as {written}"
    return writer.write_element(element, None)


def _stake_as_number(fault: RoundFault) -> AppliedFault:
    return fault.applied(
        fault.bet_index, f"stake {fault.bet['stake']} written as a number, not a string"
    )


def _write_stake_as_number(
    writer: JsonLinesWriter, data: dict[str, Any], fault: AppliedFault
) -> tuple[int, None]:
    assert fault.bet_index is not None
    data = dict(data)
    data["bets"] = [dict(bet) for bet in data["bets"]]
    bet = data["bets"][fault.bet_index]
    bet["stake"] = msgspec.Raw(bet["stake"].encode())
    writer.write_line(writer.encode(data))
    return writer.lines, None


def _write_stake_with_a_comma(
    writer: CsvWriter, data: dict[str, Any], fault: AppliedFault
) -> tuple[int, int | None]:
    assert fault.bet_index is not None
    written = data["bets"][fault.bet_index]["stake"]
    stake = written.replace(".", ",")
    fault.detail = f"stake {written} written as {stake}"
    return writer.write_round(data, fault.bet_index, stake=stake)


def _write_stake_too_precise(
    writer: ExportWriter, data: dict[str, Any], fault: AppliedFault
) -> tuple[int, int | None]:
    assert fault.bet_index is not None
    bet = data["bets"][fault.bet_index]
    element = writer.element(data)
    written = writer.spoil_stake(element, bet)
    fault.detail = f"stake {bet['stake']} written as {written}: finer than the currency's cent"
    return writer.write_element(element, fault.bet_index)


def _drop_the_offset(fault: RoundFault) -> AppliedFault:
    data = fault.data
    data["settled_at"] = fault.table.model.clock.naive(fault.settled)
    return fault.applied(None, f"settled_at {data['settled_at']} has no offset")


def _rename_the_bet_type(fault: RoundFault) -> AppliedFault:
    bet = fault.bet
    original = bet["type"]
    bet["type"] = "dragon_bonus"
    return fault.applied(fault.bet_index, f"bet type dragon_bonus (the bet was {original})")


def _name_an_unconfigured_game(fault: RoundFault) -> AppliedFault:
    table = fault.table
    fault.data["game"] = table.unconfigured_game
    applied = fault.applied(
        None,
        f"game {table.unconfigured_game} is not in the configuration (table "
        f"{table.table_id} runs {table.game.id})",
    )
    applied.unknown_table = f"{table_prefix(table.unconfigured_game)}-01"
    return applied


def _write_an_unknown_table(
    writer: ExportWriter, data: dict[str, Any], fault: AppliedFault
) -> tuple[int, int | None]:
    """A shape that names no game names a table that no game runs."""
    assert fault.unknown_table is not None
    element = writer.element(data)
    if writer.spoil_table(element, fault.unknown_table):
        fault.extra["unknown_table"] = fault.unknown_table
        fault.detail = (
            f"table {fault.unknown_table} is run by no game of the configuration (the round is "
            f"{data['table_id']}'s)"
        )
    return writer.write_element(element, None)


def _plan_a_conflicting_repeat(fault: RoundFault) -> AppliedFault:
    bet = fault.bet
    other_payout = "0.00" if bet["payout"] != "0.00" else bet["stake"]
    return fault.applied(
        fault.bet_index, "",  # described by the writer, which knows the lines
        conflict_payout=other_payout,
        conflict_settled_at=fault.table.model.clock.format(fault.settled + SECOND, "Z"),
    )  # fmt: skip


def _write_repeat_with_another_payout(
    writer: JsonLinesWriter, data: dict[str, Any], fault: AppliedFault
) -> tuple[int, None]:
    assert fault.bet_index is not None
    writer.write_line(writer.encode(data))
    first = writer.lines
    repeat = dict(data)
    repeat["bets"] = [dict(bet) for bet in data["bets"]]
    repeat["bets"][fault.bet_index]["payout"] = fault.conflict_payout
    writer.write_line(writer.encode(repeat))
    bet = data["bets"][fault.bet_index]
    fault.detail = (
        f"repeats round {data['round_id']} of line {first} with payout "
        f"{fault.conflict_payout} instead of {bet['payout']} for bet {bet['bet_id']}"
    )
    fault.extra["first_line"] = first
    return writer.lines, None


def _write_repeat_with_another_settled_at(
    writer: CsvWriter, data: dict[str, Any], fault: AppliedFault
) -> tuple[int, None]:
    first, _ = writer.write_round(data, fault.bet_index)
    repeat = dict(data)
    repeat["settled_at"] = fault.conflict_settled_at
    writer.write_round_row(repeat)
    fault.detail = (
        f"repeats round {data['round_id']} of line {first} with settled_at "
        f"{fault.conflict_settled_at} instead of {data['settled_at']}"
    )
    fault.extra["first_line"] = first
    fault.bet_index = None  # the repeat has no bets of its own
    return writer.lines + 1, None  # the header is line 1


def _write_an_impossible_value(fault: RoundFault) -> AppliedFault:
    data = fault.data
    if fault.ordinal % 2 == 1:
        data["status"] = "pending"
        return fault.applied(None, "status 'pending' is neither settled nor void")
    cards = data["player_cards"]
    data["player_cards"] = [*cards, *(["7C"] * (4 - len(cards)))]
    return fault.applied(None, "a settled round with 4 player cards")


# ---- a bet this tool does not settle


def _add_an_unverified_bet(fault: RoundFault) -> AppliedFault:
    """Add a bet of a type this tool does not settle (each shape names it as a provider's bet
    its profile does not map), from an account of the round, staked as the game's most played
    bet and lost: the tool reports it, whatever it paid, without judging the payout."""
    table, data = fault.table, fault.data
    rng, model = table.rng, table.model
    closed = epoch_ms(datetime.fromisoformat(data["betting_closed_at"]))
    placed = closed - rng.randint(300, 12 * SECOND)
    stake = model.bets.stakes[model.bets.most_played].draw(rng.random)
    account = data["bets"][rng.randrange(len(data["bets"]))]["account"]
    data["bets"].append({
        "bet_id": None,  # numbered by the writer, in file order
        "account": account,
        "type": UNVERIFIED_TYPE,  # named by the writer, as the shape names it
        "stake": model.money(stake),
        "payout": model.money(0),
        "currency": table.game.currency,
        "placed_at": model.clock.format(placed, "Z"),
    })  # fmt: skip
    return fault.applied(len(data["bets"]) - 1, "")  # described by the writer, which names it


def _write_an_unverified_bet(
    writer: ExportWriter, data: dict[str, Any], fault: AppliedFault
) -> tuple[int, int | None]:
    assert fault.bet_index is not None
    bet = data["bets"][fault.bet_index]
    fault.detail = (
        f"bet type {writer.unverified_name}, which this tool does not settle: stake "
        f"{bet['stake']}, paid {bet['payout']}"
    )
    fault.extra.update(bet_type=writer.unverified_name, logged_payout=bet["payout"])
    written = writer.write_round(data, fault.bet_index)
    assert written is not None, "a round with a fault has bets"
    return written


def _without_unverified_bets(data: dict[str, Any]) -> dict[str, Any]:
    return {**data, "bets": [bet for bet in data["bets"] if bet["type"] != UNVERIFIED_TYPE]}


def _deals_from_a_shoe(model: GameModel) -> bool:
    return model.live_shoe


def _has_exclusive_bets(model: GameModel) -> bool:
    return bool(model.game.exclusive_bets)


_NO_JSON_IN_CSV = "a CSV file has no JSON to break"
_NO_JSON_IN_A_DOCUMENT = "a broken element would break the whole JSON document"
_LEFT_TO_THE_SPEC = "a shape's writer spells it from the round's facts: left to the spec formats"
_SHAPES_ONLY = "the spec's round log knows only the bet types the engine settles"


def _in_every_shape(reason: str) -> Mapping[str, str]:
    return MappingProxyType(dict.fromkeys(EXPORT_FORMATS, reason))


# Keys in the order of FAULT_KINDS; a test holds them equal.
INJECTORS: Mapping[str, Injector] = MappingProxyType(
    {
        FindingKind.PAYOUT_MISMATCH: Injector(category="finding", into_round=_misstate_payout),
        FindingKind.VOID_NOT_REFUNDED: Injector(
            category="finding", into_round=_keep_a_void_stake, voids_round=True
        ),
        FindingKind.STAKE_OUT_OF_LIMITS: Injector(
            category="finding", into_bets=_stake_outside_limits, into_round=_noted_on_bet
        ),
        FindingKind.LATE_BET: Injector(
            category="finding",
            into_bets=_place_after_closing,
            into_round=_describe_late_bet,
            not_in=MappingProxyType(dict.fromkeys(_REPLAY, "the shape has no bet placement time")),
        ),
        FindingKind.THIRD_CARD_RULE: Injector(
            category="finding", into_deal=_reverse_a_drawing_decision, into_round=_noted_on_round
        ),
        FindingKind.SHOE_CARD_COUNT: Injector(
            category="finding",
            into_deal=_log_a_card_once_too_often,
            into_round=_noted_on_round,
            last_hand_of_shoe=True,
            suits_game=_deals_from_a_shoe,
            no_game="no game of the configuration deals from a shoe with a shoe id",
            not_in=MappingProxyType(dict.fromkeys(_REPLAY, "the shape has no shoe id")),
        ),
        FindingKind.EXCLUSIVE_SIDE_BETS: Injector(
            category="finding",
            into_bets=_add_exclusive_breach,
            into_round=_noted_on_round,
            suits_game=_has_exclusive_bets,
            no_game="no game of the configuration has exclusive bets",
        ),
        FindingKind.TIME_ORDER: Injector(category="finding", into_round=_settle_before_starting),
        FindingKind.DUPLICATE_BET_ID: Injector(
            category="finding",
            into_round=_plan_a_reused_bet_id,
            into_json_line=_write_a_reused_bet_id,  # type: ignore[arg-type]
            into_csv_rows=_write_a_reused_bet_id,
            into_export=_write_a_reused_bet_id,  # type: ignore[arg-type]
        ),
        FindingKind.UNVERIFIED_BET: Injector(
            category="finding",
            into_round=_add_an_unverified_bet,
            into_export=_write_an_unverified_bet,
            not_in=MappingProxyType(dict.fromkeys(("jsonl", "csv"), _SHAPES_ONLY)),
            uncarried=_without_unverified_bets,
        ),
        RejectReason.BAD_JSON: Injector(
            category="reject",
            into_round=_cut_short,
            into_json_line=_write_cut_short,
            into_export=_write_game_cut_short,  # type: ignore[arg-type]
            not_in=MappingProxyType(
                {
                    "csv": _NO_JSON_IN_CSV,
                    "replay-api": _NO_JSON_IN_A_DOCUMENT,
                    "numeric-feed": _NO_JSON_IN_A_DOCUMENT,
                    "flat-csv": _NO_JSON_IN_CSV,
                }
            ),  # fmt: skip
        ),
        RejectReason.MISSING_FIELD: Injector(category="reject", into_round=_drop_settled_at),
        RejectReason.BAD_CARD: Injector(
            category="reject", into_round=_misspell_a_card, into_export=_write_an_unknown_card
        ),
        RejectReason.BAD_MONEY: Injector(
            category="reject",
            into_round=_stake_as_number,
            into_json_line=_write_stake_as_number,
            into_csv_rows=_write_stake_with_a_comma,
            into_export=_write_stake_too_precise,
        ),
        RejectReason.NAIVE_TIMESTAMP: Injector(
            category="reject",
            into_round=_drop_the_offset,
            not_in=_in_every_shape("a shape's writer spells every time from an instant"),
        ),
        RejectReason.UNKNOWN_BET_TYPE: Injector(
            category="reject",
            into_round=_rename_the_bet_type,
            not_in=_in_every_shape("a shape's bet types are its profile's map: left to the spec"),
        ),
        RejectReason.UNKNOWN_GAME: Injector(
            category="reject",
            into_round=_name_an_unconfigured_game,
            into_export=_write_an_unknown_table,
        ),
        RejectReason.CONFLICT: Injector(
            category="reject",
            into_round=_plan_a_conflicting_repeat,
            into_json_line=_write_repeat_with_another_payout,
            into_csv_rows=_write_repeat_with_another_settled_at,
            first_copy_loads=True,
            not_in=_in_every_shape("a shape's writer writes each round once: the round loads"),
        ),
        RejectReason.BAD_VALUE: Injector(
            category="reject",
            into_round=_write_an_impossible_value,
            not_in=_in_every_shape(_LEFT_TO_THE_SPEC),
        ),
    }
)


def every_kind_injected(
    kinds: tuple[str, ...], injectors: Mapping[str, Injector]
) -> tuple[Injector, ...]:
    """The injector of each kind, in order; a kind without one is named (a finding kind or a
    reject reason added to reporting/records.py and not here), never a bare KeyError."""
    if missing := [kind for kind in kinds if kind not in injectors]:
        raise LookupError(
            f"fault kind(s) with no injector: {', '.join(missing)}: add one each to INJECTORS"
            " (reporting/sample/faults.py)"
        )
    return tuple(injectors[kind] for kind in kinds)


#: The kinds a log of each format carries, in the order of FAULT_KINDS: a month generated with
#: ``faults=N`` holds N of each kind of its format that the configuration's games suit.
CARRIED_KINDS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        fmt: tuple(
            kind
            for kind, injector in zip(
                FAULT_KINDS, every_kind_injected(FAULT_KINDS, INJECTORS), strict=True
            )
            if injector.carried_by(fmt)
        )
        for fmt in FORMATS
    }
)


def injector_for(kind: str) -> Injector:
    """The injector of a fault kind; an unknown kind is an error, never a default."""
    try:
        return INJECTORS[kind]
    except KeyError:
        raise KeyError(
            f"fault kind {kind!r} has no injector: add one to INJECTORS (reporting/sample/faults.py)"
        ) from None


def write_round(
    writer: LogWriter | ExportWriter, data: dict[str, Any], fault: AppliedFault | None
) -> tuple[int, int | None, int] | None:
    """Write a round, its fault's injector changing the encoded line(s) where it must.

    Returns the position of the round (its last line when repeated; a JSON document's element
    index), in CSV the line of the bet the fault concerns, and the bets written; or None when
    the format leaves the round out (a replay-api game without bets, or a fault the format
    cannot carry on a round a reader would reject).
    """
    if fault is not None:
        injector = injector_for(fault.kind)
        if not injector.carried_by(writer.format):
            if not injector.round_loads:
                return None
            if injector.uncarried is not None:
                data = injector.uncarried(data)
            fault = None
    if fault is None:
        written = writer.write_round(data, None)
    else:
        stage: Any = {"jsonl": injector.into_json_line, "csv": injector.into_csv_rows}.get(
            writer.format, injector.into_export
        )
        if stage is None:
            written = writer.write_round(data, fault.bet_index)
        else:
            written = stage(writer, data, fault)
    if written is None:
        return None
    return written[0], written[1], len(data["bets"])


# --------------------------------------------------------------------------------------------
# Planning


def plan_faults(
    models: list[GameModel],
    spans: dict[str, tuple[int, int]],
    tables: int,
    count: int,
    rng: random.Random,
    kinds: tuple[str, ...] = FAULT_KINDS,
) -> tuple[list[PlannedFault], dict[str, str]]:
    """Which game and table carries each fault of ``kinds``, and from when; and the kinds that
    no game can carry. The plan does not depend on the format written (a format that cannot
    carry a kind says so as it writes): every format deals the same month."""
    skipped: dict[str, str] = {}
    planned: list[PlannedFault] = []
    if count <= 0:
        return planned, skipped
    for kind_index, kind in enumerate(FAULT_KINDS):
        if kind not in kinds:
            continue
        eligible, reason = _eligible_games(injector_for(kind), models)
        if reason is not None:
            skipped[kind] = reason
            continue
        for ordinal in range(count):
            spread = kind_index + ordinal
            game = eligible[spread % len(eligible)]
            table = (kind_index + ordinal // len(eligible)) % tables
            planned.append(PlannedFault(kind, game, table))
    _aim(planned, spans, rng)
    return planned, skipped


def _eligible_games(injector: Injector, models: list[GameModel]) -> tuple[list[str], str | None]:
    """The games that can carry a kind, or why none can."""
    suits = injector.suits_game
    games = [model.game.id for model in models if suits is None or suits(model)]
    if suits is not None and not games:
        return [], injector.no_game
    return games, None


def _aim(
    planned: list[PlannedFault], spans: dict[str, tuple[int, int]], rng: random.Random
) -> None:
    """Spread each table's faults over its month, in an order of the seed's choosing. A fault
    that waits for the last hand of a shoe is aimed at the first half of the month."""
    by_table: dict[tuple[str, int], list[PlannedFault]] = {}
    for fault in planned:
        by_table.setdefault((fault.game, fault.table), []).append(fault)
    for (game, _), faults in sorted(by_table.items()):
        start, end = spans[game]
        shoe_faults = [fault for fault in faults if injector_for(fault.kind).last_hand_of_shoe]
        other_faults = [fault for fault in faults if not injector_for(fault.kind).last_hand_of_shoe]
        rng.shuffle(other_faults)
        for group, reach in ((other_faults, 0.90), (shoe_faults, 0.50)):
            for position, fault in enumerate(group):
                share = 0.03 + (reach - 0.03) * (position + 0.5) / len(group)
                fault.target = start + int((end - start) * share)


def check_room_for_faults(
    planned: list[PlannedFault], spans: dict[str, tuple[int, int]], rounds_per_day: int | None
) -> None:
    """Refuse, before writing, a fault count the month's rounds cannot hold."""
    per_table: dict[tuple[str, int], list[PlannedFault]] = {}
    for fault in planned:
        per_table.setdefault((fault.game, fault.table), []).append(fault)
    for (game, _), faults in per_table.items():
        start, end = spans[game]
        days = (end - start) / DAY
        rounds = days * (rounds_per_day if rounds_per_day is not None else DAY / 45_000)
        shoe_faults = sum(injector_for(fault.kind).last_hand_of_shoe for fault in faults)
        # A shoe fault goes on the last hand of a shoe (about 80 hands) after its aim in the
        # first half of the month: each needs a shoe of its own that ends in the month.
        if len(faults) * 4 > rounds or (shoe_faults and shoe_faults > rounds // 85 - 1):
            raise InputError(
                f"{game}: about {int(rounds)} rounds a table cannot carry {len(faults)} faults "
                f"({shoe_faults} of them one per shoe): raise --rounds-per-day or --tables, or "
                "lower --faults"
            )
