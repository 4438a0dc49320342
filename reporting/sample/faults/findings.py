"""The injectors of the finding kinds: each breaks one house rule or settlement the checks
of :mod:`reporting.verify.checks` look for, at the stage it needs."""

from __future__ import annotations

from datetime import datetime
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from msgspec.structs import replace

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
from reporting.engine.games import last_moment_to_bet, placed_in_time
from reporting.engine.money import parse_amount
from reporting.engine.rules import resolve_round
from reporting.sample.bets import PlacedBet, betting_span
from reporting.sample.calendar import SECOND, epoch_ms
from reporting.sample.exports import UNVERIFIED_TYPE
from reporting.sample.faults.records import NO_NOTE, AppliedFault, DealChange, Note, RoundFault
from reporting.sample.shoes import Shoe

if TYPE_CHECKING:
    from reporting.sample.exports import ExportWriter
    from reporting.sample.games import GameModel
    from reporting.sample.table import Table
    from reporting.sample.writers import LogWriter


def misstate_payout(fault: RoundFault) -> AppliedFault:
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


def keep_a_void_stake(fault: RoundFault) -> AppliedFault:
    bet = fault.bet
    bet["payout"] = "0.00"
    return fault.applied(
        fault.bet_index,
        f"void round ({fault.data['void_reason']}): {bet['type']} bet of {bet['stake']} "
        "logged with payout 0.00 instead of its stake",
        {"expected_payout": bet["stake"], "logged_payout": "0.00"},
    )


def stake_outside_limits(
    table: Table, bets: list[PlacedBet], started: int, closed: int
) -> tuple[PlacedBet, Note]:
    """Stake one bet outside the stakes its limits allow (:attr:`StakeLimits.allowed`): half
    the lowest allowed, or beyond the highest by half a percent (at least one unit)."""
    rng, model, game = table.rng, table.model, table.game
    index = rng.randrange(len(bets))
    limits = game.limits_for(bets[index].bet)
    allowed = limits.allowed
    lowest, highest = allowed[0], allowed[-1]
    if rng.random() < 0.5 and lowest > 1:
        # Half the minimum, in whole units when that stays above zero.
        stake = lowest // 200 * 100 or lowest // 2
        where = f"below the minimum {model.money(limits.minimum)}"
    else:
        stake = highest + max(100, highest // 200 * 100)
        where = f"above the maximum {model.money(limits.maximum)}"
    assert stake not in allowed, "the stake breaks the limits"
    bet = bets[index] = replace(bets[index], stake=stake)
    return bet, Note(f"{bet.bet} stake {model.money(stake)} {game.currency} is {where}")


#: How long after the last moment the house takes a bet (ms) a late bet is placed.
LATE_BY = (300, 8 * SECOND)


def place_after_closing(
    table: Table, bets: list[PlacedBet], started: int, closed: int
) -> tuple[PlacedBet, Note]:
    """Place one bet after betting closed (:func:`placed_in_time` refuses it)."""
    rng = table.rng
    index = rng.randrange(len(bets))
    placed = last_moment_to_bet(closed) + rng.randint(*LATE_BY)
    assert not placed_in_time(placed, closed), "the bet is late"
    bet = bets[index] = replace(bets[index], placed_ms=placed)
    return bet, NO_NOTE  # described once the times are written


def describe_late_bet(fault: RoundFault) -> AppliedFault:
    bet = fault.bet
    return fault.applied(
        fault.bet_index,
        f"{bet['type']} bet placed at {bet['placed_at']}, after betting closed at "
        f"{fault.data['betting_closed_at']}",
    )


def reverse_a_drawing_decision(
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


def log_a_card_once_too_often(
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


def add_exclusive_breach(
    table: Table, bets: list[PlacedBet], started: int, closed: int
) -> tuple[PlacedBet, Note]:
    """Give one account a second bet of an exclusive group (the Greek house rule), one that
    :meth:`ExclusiveGroups.may_add` refuses, placed in the sample's betting span."""
    rng = table.rng
    sampler = table.model.bets
    stakes, exclusive = sampler.stakes, sampler.exclusive
    group = sorted(exclusive.groups[0])
    holders = [bet for bet in bets if bet.bet in group]
    if holders:
        first = holders[rng.randrange(len(holders))]
    else:
        account = bets[rng.randrange(len(bets))].account
        first_type = group[rng.randrange(len(group))]
        first = PlacedBet(rng.randint(*betting_span(started, closed)), first_type, account,
                          stakes[first_type].draw(rng.random))  # fmt: skip
        bets.append(first)
    second_type = next(bet for bet in group if bet != first.bet)
    assert not exclusive.may_add([first.bet], second_type), "the second bet breaks the rule"
    second = PlacedBet(rng.randint(*betting_span(started, closed)), second_type, first.account,
                       stakes[second_type].draw(rng.random))  # fmt: skip
    bets.append(second)
    detail = (
        f"account {first.account} holds {first.bet} and {second_type} in one round; "
        f"the house allows one of {', '.join(group)}"
    )
    return second, Note(detail, {"account": first.account})


def settle_before_starting(fault: RoundFault) -> AppliedFault:
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


def plan_a_reused_bet_id(fault: RoundFault) -> AppliedFault:
    """One bet will carry the id of a bet of the table's last round without a fault (bet ids
    are numbered as the rounds are written: the writer stage renames it)."""
    earlier = fault.table.last_clean_round
    assert earlier is not None, "a fault is aimed past the table's first rounds"
    return fault.applied(fault.bet_index, "", reused_round=earlier)  # described when written


def write_a_reused_bet_id(
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


# ---- a bet this tool does not settle


def add_an_unverified_bet(fault: RoundFault) -> AppliedFault:
    """Add a bet of a type this tool does not settle (each shape names it as a provider's bet
    its profile does not map), from an account of the round, staked as the game's most played
    bet and lost: the tool reports it, whatever it paid, without judging the payout."""
    table, data = fault.table, fault.data
    rng, model = table.rng, table.model
    closed = epoch_ms(datetime.fromisoformat(data["betting_closed_at"]))
    placed = last_moment_to_bet(closed) - rng.randint(300, 12 * SECOND)
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


def write_an_unverified_bet(
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


def without_unverified_bets(data: dict[str, Any]) -> dict[str, Any]:
    return {**data, "bets": [bet for bet in data["bets"] if bet["type"] != UNVERIFIED_TYPE]}


def deals_from_a_shoe(model: GameModel) -> bool:
    return model.live_shoe


def has_exclusive_bets(model: GameModel) -> bool:
    return bool(model.game.exclusive_bets)
