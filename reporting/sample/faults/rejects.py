"""The injectors of the reject reasons: lines the reader must reject, each broken the way
its format can break it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import msgspec

from reporting.sample.calendar import SECOND
from reporting.sample.faults.records import AppliedFault, RoundFault
from reporting.sample.games import table_prefix

if TYPE_CHECKING:
    from reporting.sample.exports import ExportWriter, ReplayApiWriter
    from reporting.sample.writers import CsvWriter, JsonLinesWriter


def cut_short(fault: RoundFault) -> AppliedFault:
    return fault.applied(
        None, "line cut short: not valid JSON", truncate_fraction=fault.table.rng.uniform(0.3, 0.9)
    )


def write_game_cut_short(
    writer: ReplayApiWriter, data: dict[str, Any], fault: AppliedFault
) -> tuple[int, int | None]:
    line = writer.encode(writer.element(data))
    return writer.write_line(line[: max(1, int(len(line) * fault.truncate_fraction))]), None


def write_cut_short(
    writer: JsonLinesWriter, data: dict[str, Any], fault: AppliedFault
) -> tuple[int, None]:
    line = writer.encode(data)
    writer.write_line(line[: max(1, int(len(line) * fault.truncate_fraction))])
    return writer.lines, None


def drop_settled_at(fault: RoundFault) -> AppliedFault:
    del fault.data["settled_at"]
    return fault.applied(None, "the required field settled_at is missing")


def misspell_a_card(fault: RoundFault) -> AppliedFault:
    rng, data = fault.table.rng, fault.data
    hands = [hand for hand in ("player_cards", "banker_cards") if data[hand]]
    hand = hands[rng.randrange(len(hands))]
    index = rng.randrange(len(data[hand]))
    original = data[hand][index]
    data[hand][index] = "1X"
    applied = fault.applied(None, f"{hand} card {original} written as 1X")
    applied.misspelled = (hand, index, original)
    return applied


def write_an_unknown_card(
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


def stake_as_number(fault: RoundFault) -> AppliedFault:
    return fault.applied(
        fault.bet_index, f"stake {fault.bet['stake']} written as a number, not a string"
    )


def write_stake_as_number(
    writer: JsonLinesWriter, data: dict[str, Any], fault: AppliedFault
) -> tuple[int, None]:
    assert fault.bet_index is not None
    data = dict(data)
    data["bets"] = [dict(bet) for bet in data["bets"]]
    bet = data["bets"][fault.bet_index]
    bet["stake"] = msgspec.Raw(bet["stake"].encode())
    writer.write_line(writer.encode(data))
    return writer.lines, None


def write_stake_with_a_comma(
    writer: CsvWriter, data: dict[str, Any], fault: AppliedFault
) -> tuple[int, int | None]:
    assert fault.bet_index is not None
    written = data["bets"][fault.bet_index]["stake"]
    stake = written.replace(".", ",")
    fault.detail = f"stake {written} written as {stake}"
    return writer.write_round(data, fault.bet_index, stake=stake)


def write_stake_too_precise(
    writer: ExportWriter, data: dict[str, Any], fault: AppliedFault
) -> tuple[int, int | None]:
    assert fault.bet_index is not None
    bet = data["bets"][fault.bet_index]
    element = writer.element(data)
    written = writer.spoil_stake(element, bet)
    fault.detail = f"stake {bet['stake']} written as {written}: finer than the currency's cent"
    return writer.write_element(element, fault.bet_index)


def drop_the_offset(fault: RoundFault) -> AppliedFault:
    data = fault.data
    data["settled_at"] = fault.table.model.clock.naive(fault.settled)
    return fault.applied(None, f"settled_at {data['settled_at']} has no offset")


def rename_the_bet_type(fault: RoundFault) -> AppliedFault:
    bet = fault.bet
    original = bet["type"]
    bet["type"] = "dragon_bonus"
    return fault.applied(fault.bet_index, f"bet type dragon_bonus (the bet was {original})")


def name_an_unconfigured_game(fault: RoundFault) -> AppliedFault:
    table = fault.table
    fault.data["game"] = table.unconfigured_game
    applied = fault.applied(
        None,
        f"game {table.unconfigured_game} is not in the configuration (table "
        f"{table.table_id} runs {table.game.id})",
    )
    applied.unknown_table = f"{table_prefix(table.unconfigured_game)}-01"
    return applied


def write_an_unknown_table(
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


def plan_a_conflicting_repeat(fault: RoundFault) -> AppliedFault:
    bet = fault.bet
    other_payout = "0.00" if bet["payout"] != "0.00" else bet["stake"]
    return fault.applied(
        fault.bet_index, "",  # described by the writer, which knows the lines
        conflict_payout=other_payout,
        conflict_settled_at=fault.table.model.clock.format(fault.settled + SECOND, "Z"),
    )  # fmt: skip


def write_repeat_with_another_payout(
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


def write_repeat_with_another_settled_at(
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


def write_an_impossible_value(fault: RoundFault) -> AppliedFault:
    data = fault.data
    if fault.ordinal % 2 == 1:
        data["status"] = "pending"
        return fault.applied(None, "status 'pending' is neither settled nor void")
    cards = data["player_cards"]
    data["player_cards"] = [*cards, *(["7C"] * (4 - len(cards)))]
    return fault.applied(None, "a settled round with 4 player cards")
